"""The LSD rule engine on the rule text's own examples and on hand-worked positions."""

from __future__ import annotations

import re

import pytest

from placesat.core.errors import InputError
from placesat.lsd.model import (
    BLACK,
    DEFAULT_TILESET,
    SKIP,
    WHITE,
    Placement,
    Position,
    new_position,
    parse_dots,
    parse_move,
    position_from_json,
    supply_of,
)
from placesat.lsd.rules import (
    IllegalMove,
    captures,
    check_position,
    is_draw,
    is_over,
    legal_moves,
    pieces,
    placements,
    play,
    play_turn,
    winner,
    winning_placements,
)


def position(tiles, players=2, to_move=1, supplies=None, captured=None):
    """A position from ``{(x, y): (player, "dots", icon)}``; full supplies minus the field."""
    raw = {
        "players": players,
        "field": [{"at": list(c), "player": p, "dots": d, "icon": i} for c, (p, d, i) in tiles.items()],
        "to_move": to_move,
    }
    if supplies is not None:
        raw["supplies"] = supplies
    if captured is not None:
        raw["captured"] = captured
    result = position_from_json(raw)
    check_position(result)
    return result


def moves(start: Position, *texts: str) -> Position:
    for text in texts:
        start = play(start, parse_move(text))
    return start


# --------------------------------------------------------------------------- the rule text's examples


def test_plus_captures_the_tile_between_two_plus_of_one_icon_colour():
    # tile 1 (+, black) and tile 3 (+, black) with tile 2 (white icon) between them
    start = moves(new_position(2), "0,0 E+", "1,0 EWx")
    turn = play_turn(start, parse_move("2,0 W+"))
    assert [c for c, _ in turn.captured] == [(1, 0)]
    assert (1, 0) not in turn.after.field
    assert dict(turn.after.captured[1]) == {(0b0101, "x"): 1}


def test_no_plus_capture_when_tile_1_has_an_x():
    start = moves(new_position(2), "0,0 Ex", "1,0 EWx")
    turn = play_turn(start, parse_move("2,0 W+"))
    assert turn.captured == ()
    assert (1, 0) in turn.after.field


def test_no_capture_of_a_tile_with_the_same_icon_colour():
    # four players: player 3 also has black icons; the tile between two black + of player 1 stays
    start = position({(0, 0): (1, "E", "+"), (1, 0): (3, "EW", "x")}, players=4)
    assert captures(start.field, (2, 0), "+", BLACK, start.icon_colours) == []
    # ...while a white-icon tile there (player 2 or 4) is captured, whoever owns the flanking +
    start = position({(0, 0): (3, "E", "+"), (1, 0): (4, "EW", "x")}, players=4)
    assert captures(start.field, (2, 0), "+", BLACK, start.icon_colours) == [(1, 0)]


def test_x_captures_the_other_tiles_of_the_2x2_block():
    # tile 1 (x, black) at 0,0; tile 2 (white) at 1,0; tile 3 (x, black) placed at 1,1 corner to corner
    tiles = {(0, 0): (1, "NE", "x"), (1, 0): (2, "NW", "+")}
    start = position(tiles, to_move=1)
    turn = play_turn(start, parse_move("1,1 S x"))
    assert [c for c, _ in turn.captured] == [(1, 0)]


def test_x_also_captures_spot_b_when_it_holds_a_white_icon():
    tiles = {(0, 0): (1, "NE", "x"), (1, 0): (2, "NW", "+"), (0, 1): (2, "ES", "+")}
    turn = play_turn(position(tiles), parse_move("1,1 SW x"))
    assert sorted(c for c, _ in turn.captured) == [(0, 1), (1, 0)]
    assert set(turn.after.field) == {(0, 0), (1, 1)}
    # spot B with a black icon (player 1's own tile) stays
    tiles[(0, 1)] = (1, "ES", "+")
    turn = play_turn(position(tiles), parse_move("1,1 SW x"))
    assert [c for c, _ in turn.captured] == [(1, 0)]


def test_no_x_capture_when_tile_1_has_a_plus():
    tiles = {(0, 0): (1, "NE", "+"), (1, 0): (2, "NW", "+")}
    turn = play_turn(position(tiles), parse_move("1,1 S x"))
    assert turn.captured == ()


def test_the_empty_spot_left_by_a_capture_is_harmless():
    start = moves(new_position(2), "0,0 E+", "1,0 EWx", "2,0 W+")
    assert (1, 0) not in start.field
    # player 2 fills the gap between two black + with a white-icon tile: it is not captured
    turn = play_turn(start, parse_move("1,0 EW+"))
    assert turn.captured == () and (1, 0) in turn.after.field


def test_four_captures_at_once():
    # a black + placed at 0,0 with a black + two cells away in each direction and white tiles between
    tiles = {
        (0, 2): (1, "S", "+"), (0, 1): (2, "NS", "x"),
        (2, 0): (1, "W", "+"), (1, 0): (2, "EW", "x"),
        (0, -2): (1, "N", "+"), (0, -1): (2, "NS", "+"),
        (-2, 0): (1, "E", "+"), (-1, 0): (2, "EW", "+"),
    }
    raw = position_from_json({
        "players": 2,
        "tileset": {"N+": 4, "NS+": 2, "NSx": 2, "NESW+": 1},
        "field": [{"at": list(c), "player": p, "dots": d, "icon": i} for c, (p, d, i) in tiles.items()],
        "captured": [{}, {"N+": 1}],  # some history: the pieces are apart
    })
    check_position(raw)
    turn = play_turn(raw, parse_move("0,0 NESW+"))
    assert len(turn.captured) == 4
    assert len(pieces(turn.after.field)) == 5  # the field fell apart, and stays legal
    check_position(turn.after)


# --------------------------------------------------------------------------- connecting


def test_obstruction_both_ways():
    start = moves(new_position(2), "0,0 E+")
    with pytest.raises(IllegalMove, match="empty W side would obstruct the half dot of the tile at 0,0"):
        play(start, parse_move("1,0 N x"))  # an empty side against tile 1's half dot
    start = moves(new_position(2), "0,0 NE+", "0,1 S x")
    with pytest.raises(IllegalMove, match="half dot on the W side would meet the empty side of the tile at 0,1"):
        play(start, parse_move("1,1 SW+"))  # a half dot against the empty E side of 0,1


def test_at_least_one_dot_must_be_completed():
    start = moves(new_position(2), "0,0 N+")
    with pytest.raises(IllegalMove, match="completes no dot"):
        play(start, parse_move("1,0 N x"))  # touches 0,0 on its empty E side: no dot completed
    assert all(m.cell == (0, 1) for m in placements(start))


def test_the_first_tile_goes_on_the_origin_in_any_rotation():
    start = new_position(2)
    first = placements(start)
    assert {m.cell for m in first} == {(0, 0)}
    assert len(first) == sum(len({(d << k | d >> (4 - k)) & 15 for k in range(4)}) for (d, _), _ in DEFAULT_TILESET)
    with pytest.raises(IllegalMove, match="first tile goes on 0,0"):
        play(start, parse_move("3,3 N+"))


# --------------------------------------------------------------------------- winning


def test_four_in_a_row_wins_with_two_players():
    tiles = {(0, 0): (1, "E", "+"), (1, 0): (1, "EW", "+"), (2, 0): (1, "EW", "x")}
    start = position(tiles)
    wins = winning_placements(start, 1)
    assert {m.cell for m in wins} == {(3, 0)}
    turn = play_turn(start, Placement((3, 0), parse_dots("W", "dots"), "x"))
    assert turn.winner == 1 and winner(turn.after) == 1 and is_over(turn.after)
    assert legal_moves(turn.after) == []
    with pytest.raises(IllegalMove, match="game is over"):
        play(turn.after, SKIP)


def test_four_players_three_in_a_row():
    tiles = {(0, 0): (2, "E", "+"), (1, 0): (2, "EW", "x")}
    start = position(tiles, players=4, to_move=2)
    turn = play_turn(start, parse_move("2,0 W+"))
    assert turn.winner == 2
    assert winning_placements(position(tiles, players=4), 1) == []  # tile colour is what counts


def test_a_line_completed_while_capturing_stands():
    # player 1 completes 0,0..3,0 with a + at 3,0 that also captures the white tile at 3,1
    tiles = {
        (0, 0): (1, "E", "x"), (1, 0): (1, "EW", "x"), (2, 0): (1, "EW", "x"),
        (3, 2): (1, "S", "+"), (3, 1): (2, "NS", "x"),
    }
    start = position(tiles, captured=[{}, {"N+": 1}])
    turn = play_turn(start, parse_move("3,0 NW+"))
    assert [c for c, _ in turn.captured] == [(3, 1)] and turn.winner == 1


# --------------------------------------------------------------------------- skip and draw


STUCK_FIELD = {(0, 0): (1, "NE", "+"), (0, 1): (1, "SE", "x"), (1, 1): (1, "W", "x")}
"""The only cell that completes a dot is 1,0: a half dot on W wanted, none on N (1,1's empty S side)."""


def test_skip_only_when_stuck():
    # player 2 holds only four-dot tiles: its N dot would meet 1,1's empty side
    start = position(STUCK_FIELD, to_move=2, supplies=[{"N+": 1}, {"NESW+": 1}])
    assert placements(start) == [] and not is_draw(start)
    assert legal_moves(start) == [SKIP]
    after = play(start, SKIP)
    assert after.to_move == 1 and after.field == start.field
    assert legal_moves(after) == [Placement((1, 0), parse_dots("W", "dots"), "+")]
    with pytest.raises(IllegalMove, match="may not skip"):
        play(after, SKIP)


def test_draw_when_nobody_can_place():
    start = position(STUCK_FIELD, to_move=2, supplies=[{"NESW+": 1}, {"NESW+": 1}])
    assert is_draw(start) and is_over(start) and winner(start) is None
    assert legal_moves(start) == []
    with pytest.raises(IllegalMove, match="draw"):
        play(start, SKIP)


def test_running_out_of_tiles_is_being_unable_to_place():
    tiles = {(0, 0): (1, "E", "+"), (1, 0): (2, "EW", "x")}
    start = position(tiles, to_move=1, supplies=[{}, {"NESWx": 1}])
    assert legal_moves(start) == [SKIP]
    assert not is_draw(start)


# --------------------------------------------------------------------------- checking positions


@pytest.mark.parametrize(
    "tiles, captured, message",
    [
        ({(0, 0): (1, "E", "+"), (1, 0): (2, "N", "x")}, None, "field[0] at 0,0: its half dot on the E side is obstructed"),
        ({(0, 0): (1, "N", "+"), (1, 0): (2, "W", "x")}, None, "field[1] at 1,0: its half dot on the W side is obstructed"),
        ({(0, 0): (1, "N", "+"), (0, 1): (2, "S", "x"), (1, 0): (2, "N", "x")}, None, "field[2] at 1,0: completes no dot"),
        ({(0, 0): (1, "N", "+"), (0, 1): (2, "S", "x"), (5, 5): (2, "N", "x")}, [{}, {"Nx": 1}], None),
        ({(0, 0): (1, "E", "+"), (1, 0): (2, "W", "x"), (5, 5): (2, "E", "x"), (6, 5): (1, "W", "x")}, None, "falls apart"),
        ({(0, 0): (1, "N", "+"), (0, 1): (2, "S", "x"), (5, 5): (2, "-", "x")}, [{}, {"Nx": 1}], "no half dot of it faces an empty cell"),
    ],
)
def test_impossible_fields_are_refused(tiles, captured, message):
    raw = {
        "players": 2,
        "tileset": {"N+": 2, "Nx": 3, "NE+": 2, "NEx": 2, "-x": 1},
        "field": [{"at": list(c), "player": p, "dots": d, "icon": i} for c, (p, d, i) in tiles.items()],
    }
    if captured:
        raw["captured"] = captured
    parsed = position_from_json(raw)
    if message is None:
        check_position(parsed)
        return
    with pytest.raises(InputError, match=re.escape(message)):
        check_position(parsed)


def test_two_lines_are_refused():
    tiles = {(x, 0): (1, "EW" if 0 < x < 3 else ("E" if x == 0 else "W"), "+") for x in range(4)}
    tiles.update({(x, 1): (2, "-", "x") for x in range(4)})
    raw = {
        "players": 2,
        "tileset": {"N+": 2, "NS+": 4, "-x": 4},
        "field": [{"at": list(c), "player": p, "dots": d, "icon": i} for c, (p, d, i) in tiles.items()],
    }
    with pytest.raises(InputError, match="players 1 and 2 both have a line"):
        check_position(position_from_json(raw))


def test_icon_colours_alternate():
    assert new_position(4).icon_colours == (BLACK, WHITE, BLACK, WHITE)
    assert supply_of({}) == ()



def test_no_tile_is_offered_off_the_table():
    # tiles up to the last coordinate kept (MAX_COORDINATE), an open half dot facing beyond it:
    # the solvers offered "1001,0 W+" as a win, and play (rightly) refused that move
    edge = position_from_json({"players": 2, "to_move": 1, "field": [
        {"at": [998, 0], "player": 1, "dots": "E", "icon": "+"},
        {"at": [999, 0], "player": 1, "dots": "EW", "icon": "x"},
        {"at": [1000, 0], "player": 1, "dots": "EW", "icon": "x"},
    ]})
    assert placements(edge) == [] and winning_placements(edge, 1) == []
    assert is_draw(edge)  # nobody can place: the one open half dot faces off the table
    with pytest.raises(InputError, match="beyond"):
        parse_move("1001,0 W+")
