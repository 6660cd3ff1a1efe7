"""Text and SVG pictures: stones where the position has them, connection parts marked."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

from placesat.laido.model import load_game
from placesat.laido.render import STEP_MARKS, render_svg, render_text, step_mark
from placesat.laido.score import score_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"
SVG = "{http://www.w3.org/2000/svg}"


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
    root = ElementTree.fromstring(picture)
    stones = {(float(c.get("cx")), float(c.get("cy"))): c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle")}
    centre = next(xy for xy, name in stones.items() if name == "black [0, 0]")
    labels = {}
    for text in root.iter(f"{SVG}text"):
        if text.text and re.fullmatch(r"-?\d+,-?\d+", text.text):
            labels[tuple(map(int, text.text.split(",")))] = (float(text.get("x")), float(text.get("y")))
    # every rim point, and only those, has its q,r (as a move is typed) beside it
    assert set(labels) == set(position.lattice.edge_points)
    for point, (x, y) in labels.items():
        if position.colour_at(point) is None:
            continue
        px, py = next(xy for xy, name in stones.items() if name.endswith(f"[{point[0]}, {point[1]}]"))
        # outside the board: further from the centre than the point, and nearer it than to any other stone
        assert math.dist((x, y), centre) > math.dist((px, py), centre)
        assert min(stones, key=lambda xy: math.dist(xy, (x, y))) == (px, py)
    assert ">winner: black</text>" in picture and "last move [1, 1]" in picture


def test_a_line_s_new_stones_are_numbered_in_text_and_svg():
    position = load_game(str(GRIDS / "hand.json"))
    numbered = {(-3, 1): 1, (1, -3): 2, (3, -2): 10}
    reached = replace(position, black=position.black | set(numbered))
    rows = _rows(render_text(reached, None, numbered=numbered))
    assert rows[1][1][0] == "1"  # [-3, 1]: the first point of row 1
    assert rows[-3][1][1] == "2"  # [1, -3]: the second of row -3
    assert rows[-2][1][-1] == "a" and step_mark(10) == "a"  # [3, -2]: after 9, the letters
    assert step_mark(14) == "e" and "o" not in STEP_MARKS and "x" not in STEP_MARKS
    root = ElementTree.fromstring(render_svg(reached, None, title="a line", numbered=numbered))
    marks = {text.text: (float(text.get("x")), float(text.get("y"))) for text in root.iter(f"{SVG}text") if text.get("font-weight") == "bold" and text.text.isdigit()}
    rings = {c.find(f"{SVG}title").text: (float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle") if c.get("stroke") == "#f0b400"}
    assert rings == {"new stone 1: [-3, 1]": marks["1"], "new stone 2: [1, -3]": marks["2"], "new stone 10: [3, -2]": marks["10"]}
    assert root.find(f"{SVG}title").text == "a line"


def test_svg_draws_every_stone_and_one_line_per_part():
    position = load_game(str(GRIDS / "hand.json"))
    score = score_position(position)
    parts = [g.connection_part for gs in score.groups.values() for g in gs if g.connection_part]
    picture = render_svg(position, parts)
    assert picture.count("<circle") == len(position.black) + len(position.white)
    assert picture.count("<polyline") == len(parts) == 2
