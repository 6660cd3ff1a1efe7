"""The game's position formats: text and JSON, players, moves, and their errors."""

from __future__ import annotations

import json

import pytest

from placesat.core.errors import InputError
from placesat.lixso.game.model import (
    Move,
    format_text,
    parse_move,
    parse_position,
    position_to_json,
    seating_for,
    with_seating,
)

GRID = """\
# name: small
# level: 4
# players: IS XO
# move: I r1c1 r1c2 r2c1
# move: x R4C5, r4c6 r3c6
.I....
......
O...S.
.I..X.
"""


def test_text_position_reads_header_lines():
    position = parse_position(GRID, "small.txt")
    assert position.grid.rows == (".I....", "......", "O...S.", ".I..X.")
    assert position.grid.name == "small" and position.grid.stated_level() == 4
    assert position.seating.seats == ("IS", "XO") and position.seating.sides == (0, 1)
    assert position.per_colour == 2  # 24 cells: 8 tiles, ceil(8 / 4) of each colour
    assert position.clue_touch
    assert position.moves == (Move("I", ((0, 0), (0, 1), (1, 0))), Move("X", ((2, 5), (3, 4), (3, 5))))
    assert position.move_lines == (4, 5)


def test_text_round_trip_and_json_round_trip():
    position = parse_position(GRID, "small.txt")
    again = parse_position(format_text(position), "again.txt")
    assert again == position
    as_json = json.dumps(position_to_json(position))
    assert parse_position(as_json, "p.json") == position
    assert json.loads(as_json)["moves"] == ["I r1c1 r1c2 r2c1", "X r3c6 r4c5 r4c6"]


def test_options_in_the_header():
    text = "# players: 4\n# per-colour: 5\n# clue-touch: off\n......\n......\n"
    position = parse_position(text)
    assert position.seating.seats == ("I", "X", "O", "S") and position.seating.sides == (0, 1, 1, 0)
    assert position.per_colour == 5 and not position.clue_touch
    assert "# clue-touch: off" in format_text(position) and "# per-colour: 5" in format_text(position)


@pytest.mark.parametrize(
    "text, seats, sides, shared",
    [
        ("2", ("IS", "XO"), (0, 1), ""),
        ("xo is", ("XO", "IS"), (0, 1), ""),
        ("3", ("IO", "XO", "SO"), (0, 1, 2), "O"),
        ("S I X", ("SO", "IO", "XO"), (0, 1, 2), "O"),
        ("4", ("I", "X", "O", "S"), (0, 1, 1, 0), ""),
        ("O I S X", ("O", "I", "S", "X"), (0, 1, 1, 0), ""),
    ],
)
def test_seatings(text, seats, sides, shared):
    seating = seating_for(text)
    assert (seating.seats, seating.sides, seating.shared) == (seats, sides, shared)
    assert seating_for(seating.text()) == seating


def test_four_players_team_order_follows_the_rule_text():
    """Team-mates sit together and the first two players are of different teams: with the
    seats A1 A2 B1 B2, A2 starts; our play order is A2 B1 B2 A1."""
    seating = seating_for("4")
    order = [seating.side_name(side) for side in seating.sides]
    assert order == ["team A", "team B", "team B", "team A"]
    assert seating.colours_of(0) == "IS" and seating.colours_of(1) == "XO"
    assert order[0] != order[1]  # the first two players are of different teams
    for i in range(4):  # around the table, each player's team-mate sits next to them
        assert order[i] in (order[(i - 1) % 4], order[(i + 1) % 4])


@pytest.mark.parametrize("bad", ["5", "IS X", "IX IX", "IS XOO", "II XO", "I X", "ABC", ""])
def test_bad_players(bad):
    with pytest.raises(InputError):
        seating_for(bad)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty move"),
        ("Q r1c1 r1c2 r2c1", "starts with its colour"),
        ("\u0131 r1c1 r1c2 r2c1", "starts with its colour"),
        ("II r1c1 r1c2 r2c1", "starts with its colour"),
        ("I r1c1 r1c2", "names 2"),
        ("I r1c1 r1c2 r2c1 r2c2", "names 4"),
        ("I r1c1 r1c1 r2c1", "names one twice"),
        ("I r1c1 r1c2 x2c1", "is not a cell"),
        ("I r0c1 r1c2 r2c1", "counted from 1"),
    ],
)
def test_bad_moves(text, message):
    with pytest.raises(InputError, match=message):
        parse_move(text)


def test_move_forms():
    assert parse_move("s r2c2,r1c2  r1c1") == Move("S", ((0, 0), (0, 1), (1, 1)))
    assert str(parse_move("o R10C9 r9c9 r9c10")) == "O r9c9 r9c10 r10c9"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("# players: 5\n...\n...\n", 1, "not a players line"),
        ("# players: 2\n# players: 4\n...\n...\n", 2, "given twice"),
        ("# move: I r1c1\n...\n...\n", 1, "names 1"),
        ("# per-colour: 0\n...\n...\n", 1, "from 1 to"),
        ("# per-colour: lots\n...\n...\n", 1, "whole number"),
        ("# clue-touch: maybe\n...\n...\n", 1, "on or off"),
        ("...\n...\n# move: I r1c1 r1c2 r2c1\n", 3, "directly above the grid"),
        ("# players: 2\n\n# move: I r1c1 r1c2 r2c1\n\n...\n...\n", 1, "directly above the grid"),
        ("...\n...\n\n...\n...\n", 4, "holds 2 grids; a game position is one: pick it with --name or --index"),
        ("..\n..\n", 1, "not divisible by 3"),
        # the JSON format's level was checked, the text's dropped without a word
        ("# level: 9\n...\n...\n", 1, "level: must be from 1 to 6, not '9'"),
        ("# name: x\n# level: high\n...\n...\n", 2, "level: must be from 1 to 6"),
    ],
)
def test_text_errors_name_the_line(text, line, message):
    with pytest.raises(InputError, match=message) as caught:
        parse_position(text, "pos.txt")
    assert caught.value.path == "pos.txt" and caught.value.line == line


@pytest.mark.parametrize(
    "doc, message",
    [
        ({"moves": []}, "grid: missing"),
        ({"grid": "..."}, "grid: must be a list"),
        ({"grid": ["...", "..q"]}, "grid\\[1\\]: unknown character"),
        ({"grid": ["...", ".."]}, "grid\\[1\\]: ragged"),
        ({"grid": ["...", "..."], "players": "IS"}, "players:"),
        ({"grid": ["...", "..."], "moves": ["I r1c1 r1c2"]}, "moves\\[0\\]: a tile covers three cells"),
        ({"grid": ["...", "..."], "moves": [3]}, "moves\\[0\\]: must be a string"),
        ({"grid": ["...", "..."], "per_colour": 0}, "per_colour: must be from 1"),
        ({"grid": ["...", "..."], "clue_touch": "no"}, "clue_touch: must be true or false"),
        ({"grid": ["...", "..."], "turn": 1}, "turn: unknown key"),
        # a line break in the name wrote other header lines into the text format
        ({"grid": ["...", "..."], "name": "evil\n# per-colour: 1"}, "name: must be one line"),
    ],
)
def test_json_errors_name_the_path(doc, message):
    with pytest.raises(InputError, match=message):
        parse_position(json.dumps(doc), "pos.json")


def test_unknown_header_keys_are_listed_not_fatal():
    position = parse_position("# moves: I r1c1 r1c2 r2c1\n# name: x\n...\n...\n")
    assert position.moves == () and position.ignored == ("moves (line 1)",)


def test_players_option_meets_the_file():
    fresh = parse_position("...\n...\n")
    assert with_seating(fresh, "4").seating.players == 4
    started = parse_position("# players: 2\n# move: I r1c1 r1c2 r2c1\n...\n...\n")
    assert with_seating(started, "IS XO") == started
    with pytest.raises(InputError, match="disagrees"):
        with_seating(started, "4")


@pytest.mark.parametrize("record", ["# players: IS XO\n...\n...\n", '{"grid": ["...", "..."], "players": "IS XO"}'])
def test_players_option_never_replaces_the_records_own_players(record):
    """A record that names its players, even with no tile laid, keeps them: the option must
    agree (the same seating, however written) or it is refused."""
    named = parse_position(record, "pos")
    assert with_seating(named, "2") == named and with_seating(named, "is xo") == named
    for other in ("3", "4", "XO IS"):
        with pytest.raises(InputError, match="disagrees with this game's own players"):
            with_seating(named, other)
    assert with_seating(parse_position("...\n...\n"), "XO IS").seating.seats == ("XO", "IS")


def test_level_warning():
    assert parse_position("# level: 2\n...\n...\n").level_warning() is not None
    assert parse_position("# level: 3\n...\n...\n").level_warning() is None
    assert parse_position("...\n...\n").level_warning() is None


def test_a_json_path_is_named_once():
    with pytest.raises(InputError) as caught:
        parse_position(json.dumps({"grid": ["...", "..."], "moves": [["I", "r1c1"]]}), "pos.json")
    assert str(caught.value).count("moves[0]") == 1, str(caught.value)  # it read "moves[0]: moves[0]: ..."
