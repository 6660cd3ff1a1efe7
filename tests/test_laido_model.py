"""Laido position and record JSON: parsing, round trips, and one-line errors naming the place."""

from __future__ import annotations

import pytest

from placesat.core.errors import InputError
from placesat.laido.model import (
    BLACK,
    PASS,
    SWAP,
    WHITE,
    Position,
    Record,
    parse_game,
    parse_move,
    position_from_json,
    position_to_json,
    record_to_json,
)


def test_position_round_trip():
    text = '{"size": 5, "black": [[0, 0], [4, -4]], "white": [[-1, 2]], "to_move": "white", "passes": 1, "first_pass": "black"}'
    position = parse_game(text)
    assert isinstance(position, Position)
    assert position.black == {(0, 0), (4, -4)} and position.white == {(-1, 2)}
    assert (position.to_move, position.passes, position.first_pass) == (WHITE, 1, BLACK)
    assert position_from_json(position_to_json(position)) == position


def test_record_is_recognised_by_its_moves():
    record = parse_game('{"size": 3, "moves": [[0, 0], "swap", [1, 0], "pass"]}')
    assert record == Record(3, ((0, 0), SWAP, (1, 0), PASS))
    assert record_to_json(record) == {"size": 3, "moves": [[0, 0], "swap", [1, 0], "pass"]}


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"size": 4, "black": [[0, 0], [3, 1]]}', "black[1]: point [3, 1] is off the board"),
        ('{"size": 4, "black": [[0, 0]], "white": [[1, 1], [0, 0]]}', "white[1]: point [0, 0] already holds a stone (black[0])"),
        ('{"size": 4, "black": [[0, 0], [0, 0]]}', "black[1]: point [0, 0] already holds a stone (black[0])"),
        ('{"size": 4, "swapped": true}', "swapped: is true, but the board is empty"),
        ('{"size": 16}', "size: must be an integer from 2 to 15"),
        ('{"size": 1}', "size: must be an integer from 2 to 15"),
        ('{"size": "9"}', "size: must be an integer"),
        ('{"black": []}', "size: missing"),
        ('{"size": 4, "black": [[0, true]]}', "black[0]: a point is a list of two integers"),
        ('{"size": 4, "blak": []}', "blak: unknown key"),
        ('{"size": 4, "to_move": "red"}', "to_move: must be"),
        ('{"size": 4, "passes": 1}', "first_pass: is null, but passes is 1"),
        ('{"size": 4, "passes": 3, "first_pass": "black"}', "passes: must be 0, 1 or 2"),
        ('{"size": 4, "moves": [[0, 0], "resign"]}', 'moves[1]: unknown move "resign"'),
        ('{"size": 4, "moves": [[0, 4]]}', "moves[0]: point [0, 4] is off the board"),
        ('[1, 2]', "a Laido position is a JSON object"),
    ],
)
def test_bad_input_names_the_json_path(text, where):
    with pytest.raises(InputError) as caught:
        parse_game(text, "pos.json")
    message = str(caught.value)
    assert message.startswith("pos.json: ")
    assert where in message
    assert "\n" not in message


def test_malformed_json_gives_line_and_column():
    with pytest.raises(InputError) as caught:
        parse_game('{"size": 4,\n  "black": [[0, 0],]\n}', "bad.json")
    error = caught.value
    assert (error.path, error.line) == ("bad.json", 2)
    assert str(error).startswith("bad.json:2:") and "malformed JSON" in str(error)



@pytest.mark.parametrize("text", ["[1,1", "1,1]", "(1,1]", "[[1,1]]"])
def test_a_move_with_brackets_that_do_not_pair_is_refused(text):
    # "[1,1" was read as the point [1, 1]
    position = position_from_json({"size": 4})
    with pytest.raises(InputError, match="is not a move"):
        parse_move(text, position.lattice)
    assert parse_move("[1, 1]", position.lattice) == parse_move("(1,1)", position.lattice) == (1, 1)
