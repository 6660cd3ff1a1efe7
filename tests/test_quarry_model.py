"""Quarry stones, boards, positions and moves: the tables, the formats and their error messages."""

from __future__ import annotations

import json

import pytest

from placesat.core.errors import InputError
from placesat.quarry.model import (
    BLACK, BLUE, INSIDE, PASS, Board, Placement, Played, Position, cell_name, dumps, move_text, parse_cell, parse_move,
    parse_position, position_to_json,
)
from placesat.quarry.stones import DEFAULT_STONE_TABLE, default_stones, stones_from_json, stones_to_json

SCAN_POINTS = {"block": 1, "brick": 4, "post": 4, "beam": 9, "step": 9, "corner": 9, "pillar": 9, "span": 16, "arch": 25, "bridge": 36}
SCAN_HEIGHTS = {"block": 1, "brick": 1, "beam": 1, "span": 1, "corner": 1, "post": 2, "step": 2, "arch": 2, "bridge": 2, "pillar": 3}


def test_default_stones_fit_the_scan():
    stones = default_stones()
    assert sum(kind.count for kind in stones.kinds) == 25  # "Each player has 25 stones"
    for kind in stones.kinds:
        assert kind.points == SCAN_POINTS[kind.name] == kind.cubes ** 2
        assert {o.height for o in kind.orientations} == {SCAN_HEIGHTS[kind.name]}
    two_ways = {kind.name for kind in stones.kinds if len(kind.faces) == 2}
    assert two_ways == {"step", "arch", "bridge"}  # "3 types of stones (Step, Arch and Bridge) can be played 2 ways"


def test_orientations_are_distinct_and_counted():
    stones = default_stones()
    counts = {kind.name: len(kind.orientations) for kind in stones.kinds}
    assert counts == {"block": 1, "brick": 2, "post": 1, "beam": 2, "corner": 4, "step": 8, "pillar": 1, "span": 2, "arch": 4, "bridge": 4}
    arch = stones["arch"].orientation("up", "s")
    assert [(c.dr, c.dc, c.bottom, c.role) for c in arch.columns] == [(0, 0, 0, "e"), (1, 0, 1, "o"), (2, 0, 0, "e")]


def test_stone_file_round_trip_and_errors():
    stones = default_stones()
    again = stones_from_json(stones_to_json(stones))
    assert [(k.name, k.count, k.points, len(k.orientations)) for k in again.kinds] == [(k.name, k.count, k.points, len(k.orientations)) for k in stones.kinds]
    bad = [
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#."], "base": "e."}]}], None),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["##"], "base": "--"}]}], "at least one end"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#.#"], "base": "e.e"}]}], "one solid"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#"], "base": "o"}]}], "open"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#"], "base": "ee"}]}], "same length|size"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#"], "base": "e"}]}] * 2, "listed twice"),
        ([{"name": "X1", "count": 1, "faces": [{"layers": ["#"], "base": "e"}]}], "one lower-case word"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#"] * 6, "base": "e"}]}], "at most 5"),
        ([{"name": "x", "count": 1, "faces": [{"layers": ["#"], "base": "e"}], "colour": "red"}], "unknown key"),
    ]
    assert stones_from_json(bad[0][0]).kinds[0].cubes == 1
    for raw, message in bad[1:]:
        with pytest.raises(InputError, match=message):
            stones_from_json(raw)
    with pytest.raises(InputError, match=r"stones\[0\]\.faces\[0\]\.base"):
        stones_from_json(bad[1][0])


def test_cells_and_moves():
    board = Board()
    stones = default_stones()
    assert parse_cell("c3", board) == (2, 2) and cell_name((9, 8)) == "i10"
    with pytest.raises(InputError, match="off the board"):
        parse_cell("j1", board)
    assert parse_move("beam c3 s", board, stones) == Placement("beam", "up", "s", (2, 2))
    assert parse_move("Arch D4 down East", board, stones) == Placement("arch", "down", "e", (3, 3))
    assert parse_move("sp a1", board, stones) == Placement("span", "up", "e", (0, 0))
    assert parse_move("pass", board, stones) == PASS
    for text, message in [("zz a1", "unknown stone"), ("b a1", "could be block or brick or beam or bridge"), ("bri a1", "could be brick or bridge"), ("beam", "STONE CELL"), ("beam a1 x", "neither a direction"), ("block a1 down", "neither")]:
        with pytest.raises(InputError, match=message):
            parse_move(text, board, stones)
    for text in ("beam c3 s", "arch d4 e down", "block a1", "step b2 n down", "brick a1 e"):
        assert move_text(parse_move(text, board, stones), stones) == text


def test_position_round_trip():
    position = Position(Board(8, 5, INSIDE), default_stones(), BLUE, (
        Played(BLUE, Placement("beam", "up", "s", (2, 2)), 0),
        Played(BLACK, PASS),
    ))
    text = dumps(position)
    again = parse_position(text)
    assert again == position
    assert json.loads(text) == position_to_json(position)
    custom = Position(Board(), stones_from_json([{"name": "block", "count": 2, "faces": [{"layers": ["#"], "base": "e"}]}]))
    assert parse_position(dumps(custom)).stones.kinds == custom.stones.kinds


@pytest.mark.parametrize("text, message", [
    ('{"board": {"length": 1}}', "board.length: must be from 2 to 30"),
    ('{"board": {"length": 4, "zones": "inside"}}', "board.length: must be from 5"),
    ('{"board": {"width": 27}}', "board.width"),
    ('{"board": {"zones": "middle"}}', "board.zones"),
    ('{"first": "red"}', "first: must be one of"),
    ('{"moves": [{"player": "black", "stone": "beam", "at": "z9"}]}', r"moves\[0\]\.at: z9 is off the board"),
    ('{"moves": [{"player": "black", "stone": "rock", "at": "a1"}]}', r"moves\[0\]\.stone: unknown stone"),
    ('{"moves": [{"player": "black", "stone": "beam", "at": "a1", "face": "down"}]}', r"moves\[0\]\.face"),
    ('{"moves": [{"player": "black", "pass": true, "at": "a1"}]}', "a pass has no at"),
    ('{"moves": [{"stone": "beam", "at": "a1"}]}', r"moves\[0\]\.player: missing"),
    ('{"colour": 1}', "unknown key"),
    ('{"board": {}, \n "moves": [', ":2:"),
])
def test_position_errors_name_the_place(text, message):
    with pytest.raises(InputError, match=message):
        parse_position(text, "pos.json")


def test_default_table_is_the_one_place():
    # the README and seeds point here: one row per stone, in the order the scan lists them by points
    assert [row["name"] for row in DEFAULT_STONE_TABLE] == ["block", "brick", "post", "beam", "corner", "step", "pillar", "span", "arch", "bridge"]

