"""Quarry pictures: the text top view and the two SVG drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

from placesat.quarry.model import BLUE, INSIDE, Board, Position, load_position, parse_move
from placesat.quarry.render import render_isometric, render_svg, render_text
from placesat.quarry.rules import line, play, replay

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"


def test_text_top_view_shows_colour_height_and_line():
    state = replay(load_position(str(GRIDS / "blue-wins.json")))
    text = render_text(state, line(state, BLUE))
    rows = text.splitlines()
    assert rows[0].split() == list("abcdefghi")
    row5 = next(r for r in rows if r.startswith("  5"))
    assert row5.split() == ["5", "X1", ".", ".", "X1", "O2*", "X1", ".", ".", ".", "5"]
    assert text.count("*") == 10 and "quarry" in rows[1]
    coloured = render_text(state, colour=True)
    assert "[bold white on blue]O2 [/]" in coloured and "[bold white on grey11]X1 [/]" in coloured


def test_text_marks_inside_zones():
    state = replay(Position(Board(6, 2, INSIDE)))
    rows = render_text(state).splitlines()
    assert [r[3] for r in rows[2:8]] == ["q", "q", " ", " ", "q", "q"]


def test_svg_pictures_are_well_formed():
    state = replay(load_position(str(GRIDS / "blue-wins.json")))
    top = ElementTree.fromstring(render_svg(state, line(state, BLUE), title="t"))
    ns = "{http://www.w3.org/2000/svg}"
    assert len(top.findall(f"{ns}circle")) == 10  # the winning line
    heights = [t.text for t in top.findall(f"{ns}text") if t.get("fill") and t.text.isdigit()]  # labels have no fill
    assert heights.count("2") == 3 and len(heights) == len({(r, c) for r, c, _ in state.owner})  # e4-e6: the crossing
    iso = ElementTree.fromstring(render_isometric(state))
    cubes = len(state.owner)
    assert len(iso.findall(f"{ns}polygon")) == 3 * cubes + state.board.cells + 2  # faces, cells, zones


def test_arch_opening_is_drawn_open():
    state = replay(Position())
    state = play(state, parse_move("arch d4 s", state.board, state.stones))
    assert len(state.owner) == 5  # no cube in the opening: the picture draws only the arch's cubes
    assert (4, 3, 0) not in state.owner and (4, 3, 1) in state.owner
