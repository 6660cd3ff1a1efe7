"""LSD positions, records, tile sets and moves: parsing, formatting, and the errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from placesat.core.errors import InputError
from placesat.lsd.model import (
    DEFAULT_TILESET,
    E,
    N,
    S,
    SKIP,
    W,
    Placement,
    Record,
    dots_text,
    dumps,
    load_tileset,
    move_text,
    new_position,
    parse_game,
    parse_kind,
    parse_move,
    pattern,
    position_to_json,
    rotate,
    rotations,
)
from placesat.lsd.rules import check_position, play, replay

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def test_rotation_and_patterns():
    assert rotate(N) == E and rotate(N | E) == E | S and rotate(W) == N
    assert rotations(N | S) == (N | S, E | W)
    assert len(rotations(N | E | S | W)) == 1 and len(rotations(N)) == 4
    assert {pattern(m) for m in range(16)} == {0, 1, 3, 5, 7, 15}  # none, one, adjacent, opposite, three, four
    assert dots_text(pattern(E | S | W)) == "NES"
    assert parse_kind("SW x", "k") == (N | E, "x") and parse_kind("nes+", "k") == (N | E | S, "+")


def test_default_tileset_has_twenty_tiles_per_player():
    assert sum(n for _, n in DEFAULT_TILESET) == 20
    assert {dots_text(p) for (p, _), _ in DEFAULT_TILESET} == {"N", "NE", "NS", "NES", "NESW"}


@pytest.mark.parametrize("text, move", [
    ("3,-1 NES+", Placement((3, -1), N | E | S, "+")),
    ("  -2 , 4   sw X ", Placement((-2, 4), S | W, "x")),
    ("0,0 -x", Placement((0, 0), 0, "x")),
    ("Skip", SKIP),
    # seeds/lsd.md: the spaces between the parts are optional (a move without them was refused)
    ("0,0NES+", Placement((0, 0), N | E | S, "+")),
    ("1,0W+", Placement((1, 0), W, "+")),
    ("0,-1-x", Placement((0, -1), 0, "x")),
])
def test_moves_as_text(text, move):
    assert parse_move(text) == move
    assert parse_move(move_text(move)) == move


@pytest.mark.parametrize("text, message", [
    ("3,-1 NES", "cannot read the move"),
    ("3 -1 N+", "cannot read the move"),
    ("0,0 NN+", "a side is named twice"),
    ("0,0 NQ+", "cannot read the move"),
    ("5000,0 N+", "beyond"),
])
def test_malformed_moves(text, message):
    with pytest.raises(InputError, match=message):
        parse_move(text, "moves[0]")


def test_positions_survive_a_round_trip_through_json():
    for name in ("mid20", "four20", "double-threat", "skip"):
        position = parse_game((GRIDS / f"{name}.json").read_text())
        again = parse_game(dumps(position_to_json(position)))
        assert again == position
    record = parse_game((GRIDS / "x-capture.json").read_text())
    assert isinstance(record, Record) and len(record.moves) == 4
    final = replay(record)[-1].after
    assert parse_game(dumps(position_to_json(final))) == final


def test_supplies_default_to_the_tile_set_minus_field_and_captured():
    after = play(play(play(new_position(2), parse_move("0,0 E+")), parse_move("1,0 EWx")), parse_move("2,0 W+"))
    out = position_to_json(after)
    assert "supplies" not in out and out["captured"] == [{}, {"NSx": 1}]
    parsed = parse_game(json.dumps(out))
    assert (N, "+") not in parsed.supply(1) and parsed.supply(2)[(N | S, "x")] == 1


def bad(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        position = parse_game(text, "pos.json")
        check_position(position)
    assert message in str(caught.value), str(caught.value)


@pytest.mark.parametrize("raw, message", [
    ({"players": 3}, "3 players are not supported"),
    ({"players": 5}, "players: must be 2 or 4"),
    ({}, "players: missing"),
    ({"players": 2, "colour": 1}, "colour: unknown key"),
    ({"players": 2, "icon_colours": ["black", "black"]}, "icon_colours: players 1 and 2 move one after the other but both have black icons"),
    ({"players": 4, "icon_colours": ["black", "white", "white", "black"]}, "players 2 and 3"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "N", "icon": "+"}, {"at": [0, 0], "player": 2, "dots": "S", "icon": "x"}]}, "field[1].at: cell 0,0 already holds a tile (field[0])"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 3, "dots": "N", "icon": "+"}]}, "field[0].player: must be from 1 to 2"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "Q", "icon": "+"}]}, "field[0].dots: dots are letters"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "N", "icon": "o"}]}, "field[0].icon: must be one of"),
    ({"players": 2, "field": [{"at": [0], "player": 1, "dots": "N", "icon": "+"}]}, "field[0].at: a cell is [x, y]"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "N"}]}, "field[0].icon: missing"),
    ({"players": 2, "tileset": {"N+": 1}, "field": [
        {"at": [0, 0], "player": 1, "dots": "N", "icon": "+"}, {"at": [0, 1], "player": 1, "dots": "S", "icon": "+"}]},
     "field: player 1 has 2 N+ tile(s) on the field and 0 captured, but the tile set holds 1"),
    ({"players": 2, "captured": [{"N+": 3}, {}]}, "captured[0].N+: player 1 has 0 N+ tile(s) on the field and 3 captured"),
    ({"players": "2"}, 'players: must be 2 or 4, not "2"'),
    ({"players": 2.0}, "players: must be 2 or 4, not 2.0"),
    ({"players": 2, "supplies": [{"NE+": 3}, {}]}, "supplies[0].NE+: 3 tile(s), but only 2"),
    ({"players": 2, "tileset": {"NE+": 1, "ES+": 1}}, "tileset.ES+: the kind NE+ is already listed"),
    ({"players": 2, "tileset": {}}, "tileset: has no tile"),
    ({"players": 2, "tileset": {"NE+": -1}}, "tileset.NE+: must be from 0 to 99"),
    ({"players": 2, "to_move": 3}, "to_move: must be from 1 to 2"),
    ({"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "E", "icon": "+"}, {"at": [1, 0], "player": 2, "dots": "N", "icon": "x"}]},
     "field[0] at 0,0: its half dot on the E side is obstructed by the empty side of field[1] at 1,0"),
    ({"start": {"players": 2, "field": [{"at": [0, 0], "player": 9, "dots": "E", "icon": "+"}]}, "moves": []}, "start.field[0].player"),
    ({"start": {"players": 2}, "moves": ["0,0 N+", "zz"]}, "moves[1]: cannot read the move"),
    ({"moves": []}, "start: missing"),
])
def test_bad_positions_name_the_json_path(raw, message):
    bad(json.dumps(raw), message)


def test_json_syntax_errors_have_line_and_column():
    bad('{"players": 2,\n "field": [}', "pos.json:2:")


def test_tileset_files(tmp_path):
    good = tmp_path / "tiles.json"
    good.write_text('{"NESW+": 3, "NE x": 2}')
    assert dict(load_tileset(str(good))) == {(15, "+"): 3, (3, "x"): 2}
    broken = tmp_path / "broken.json"
    broken.write_text('{"NESW+": 3, "NEQ": 2}')
    with pytest.raises(InputError, match=r"broken.json: NEQ: a tile kind is dots and an icon"):
        load_tileset(str(broken))
