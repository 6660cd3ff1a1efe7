"""Text and SVG pictures: stones where the position has them, connection parts marked."""

from __future__ import annotations

from pathlib import Path

from solver.laido.model import load_game
from solver.laido.render import render_svg, render_text
from solver.laido.score import score_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"


def _rows(text: str) -> dict[int, tuple[int, list[str], int]]:
    """Row r -> (q of its first point, its cells, q of its last point), from the rim labels."""
    rows = {}
    for line in text.splitlines()[1:]:
        words = line.replace("[", " ").replace("]", " ").split()
        rows[int(words[0])] = (int(words[1]), words[2:-1], int(words[-1]))
    return rows


def test_text_board_marks_connection_parts_and_rim_coordinates():
    position = load_game(str(GRIDS / "hand.json"))
    score = score_position(position)
    parts = [g.connection_part for gs in score.groups.values() for g in gs if g.connection_part]
    rows = _rows(render_text(position, parts))
    assert sorted(rows) == list(range(-3, 4))
    assert rows[0] == (-3, ["X"] * 7, 3)  # the black line, its connection part, from q=-3 to q=3
    assert rows[1][1].count("x") == 1  # the surplus stone
    assert rows[-3] == (0, ["o", ".", "O", "O"], 3)  # [0,-3] surplus-only group, [2,-3] [3,-3] a part
    for r, (first, cells, last) in rows.items():  # a person reads [q, r] off the rims
        assert (first, last) == (max(-3, -3 - r), min(3, 3 - r)) and len(cells) == last - first + 1
    assert sum(len(cells) for _, cells, _ in rows.values()) == 37


def test_text_board_brackets_the_last_move():
    position = load_game(str(GRIDS / "hand.json"))
    line = [l for l in render_text(position, None, (0, 1)).splitlines() if l.split()[0] == "1"][0]
    assert "[x]" in line  # the black stone at [0, 1]


def test_svg_has_rim_coordinates_caption_and_last_move():
    position = load_game(str(GRIDS / "hand.json"))
    picture = render_svg(position, None, caption=["black: values 6", "winner: black"], last_move=(1, 1))
    for label in ("r=-3", "r=3", "q=0", "q=3", "q=-3"):
        assert f">{label}</text>" in picture
    assert ">winner: black</text>" in picture and "last move [1, 1]" in picture


def test_svg_draws_every_stone_and_one_line_per_part():
    position = load_game(str(GRIDS / "hand.json"))
    score = score_position(position)
    parts = [g.connection_part for gs in score.groups.values() for g in gs if g.connection_part]
    picture = render_svg(position, parts)
    assert picture.count("<circle") == len(position.black) + len(position.white)
    assert picture.count("<polyline") == len(parts) == 2
