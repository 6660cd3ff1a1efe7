"""Text and SVG pictures: stones where the position has them, connection parts marked."""

from __future__ import annotations

from pathlib import Path

from solver.laido.model import load_game
from solver.laido.render import render_svg, render_text
from solver.laido.score import score_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"


def test_text_board_marks_connection_parts():
    position = load_game(str(GRIDS / "hand.json"))
    score = score_position(position)
    parts = [g.connection_part for gs in score.groups.values() for g in gs if g.connection_part]
    rows = {int(line[:3]): line[4:] for line in render_text(position, parts).splitlines()}
    assert sorted(rows) == list(range(-3, 4))
    assert rows[0].split() == ["X"] * 7  # the black line, its connection part
    assert rows[1].split().count("x") == 1  # the surplus stone
    assert rows[-3].split() == ["o", ".", "O", "O"]  # [0,-3] surplus-only group, [2,-3] [3,-3] a part
    # every point of the board is drawn once: 37 on a size-4 board
    assert sum(len(row.split()) for row in rows.values()) == 37


def test_svg_draws_every_stone_and_one_line_per_part():
    position = load_game(str(GRIDS / "hand.json"))
    score = score_position(position)
    parts = [g.connection_part for gs in score.groups.values() for g in gs if g.connection_part]
    picture = render_svg(position, parts)
    assert picture.count("<circle") == len(position.black) + len(position.white)
    assert picture.count("<polyline") == len(parts) == 2
