"""The Logi-Sticks rule engine on hand-worked positions: signals, legality, Capacitor timing,
game end and scoring. No solver involved."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placesat.core.errors import InputError
from placesat.logisticks.model import Placement, make_kind, parse_move, position_from_json, square_point
from placesat.logisticks.rules import (
    apply_move,
    game_over,
    gate,
    legal_placements,
    parse_position,
    placement_problem,
    scores,
    signals,
    winners,
)


def at(name: str):
    return square_point(name)


def move(text: str) -> Placement:
    placement = parse_move(text)
    assert placement is not None
    return placement


def play(position, *moves: str):
    for text in moves:
        position = apply_move(position, None if text == "pass" else move(text))
    return position


def start(players: int = 2, **extra):
    data = {"players": players, **extra}
    if players > 2 and "supply" not in data:
        data["supply"] = {str(p): {t: 2 for t in ("AND", "OR", "XOR", "PASS", "NOT", "CAP")} for p in range(1, players + 1)}
    return position_from_json(data)


def test_kleene_tables():
    # one input FALSE decides AND, one input TRUE decides OR; XOR needs both
    assert gate("AND", [False, None]) is False
    assert gate("AND", [True, None]) is None
    assert gate("AND", [True, True]) is True
    assert gate("OR", [True, None]) is True
    assert gate("OR", [False, None]) is None
    assert gate("OR", [False, False]) is False
    assert gate("XOR", [True, None]) is None
    assert gate("XOR", [True, False]) is True
    assert gate("XOR", [False, False]) is False
    assert gate("NOT", [True]) is False
    assert gate("NOT", [None]) is None
    assert gate("PASS", [False]) is False
    assert gate("CAP", [True]) is True


def test_opening_moves_face_outwards_from_the_eight_first_squares():
    # 8 squares touch one centre stone each: PASS/NOT/CAP with that input (3) plus AND/OR/XOR
    # with that input and the other one open (2 corners each, 6): 9 placements per square.
    moves = legal_placements(start())
    assert len(moves) == 72
    assert {m.square for m in moves} == {at(s) for s in ("d6", "e6", "f5", "f4", "e3", "d3", "c4", "c5")}
    d6 = {str(m.kind) for m in moves if m.square == at("d6")}
    assert d6 == {"PASS S", "NOT S", "CAP S", "AND SE", "AND SW", "OR SE", "OR SW", "XOR SE", "XOR SW"}


def test_centre_stone_colours_reach_the_first_pieces():
    position = play(start(), "d6 PASS S", "c5 NOT E", "e6 PASS S", "f4 PASS W")
    values = signals(position)
    assert values[at("d6")] is True  # d5 north stone is white
    assert values[at("c5")] is True  # d5 west stone is black, inverted
    assert values[at("e6")] is False  # e5 north stone is black
    assert values[at("f4")] is False  # e4 east stone is black


def test_open_input_mutable_then_filled_resolves_downstream():
    position = play(start(), "d6 PASS S", "c6 AND SE", "c7 NOT S")
    values = signals(position)
    assert values[at("c6")] is None  # TRUE from d6, S input open
    assert values[at("c7")] is None
    # c5 PASS takes d5's black west stone and its north output fills c6's open S input
    position = play(position, "c5 PASS E")
    values = signals(position)
    assert values[at("c6")] is False
    assert values[at("c7")] is True


def test_false_input_decides_and_even_with_the_other_open():
    position = play(start(), "d3 AND NE")  # N faces d4's black south stone, E faces empty e3
    assert signals(position)[at("d3")] is False
    position = play(start(), "e3 OR NW")  # N faces e4's white south stone, W faces empty d3
    assert signals(position)[at("e3")] is True
    position = play(start(), "e3 XOR NE")
    assert signals(position)[at("e3")] is None


def test_input_rules():
    position = play(start(), "d6 PASS S")
    problems = {
        "d7 PASS N": "faces no source",  # d8 is empty: a one-input piece may not be open
        "d7 AND NE": "both inputs",  # N and E both open
        "c6 NOT W": "faces no source",
        "d7 AND SE": None,  # S from d6, E open: legal
    }
    for text, expected in problems.items():
        problem = placement_problem(position, move(text), 2, position.turn)
        if expected is None:
            assert problem is None, text
        else:
            assert problem is not None and expected in problem, (text, problem)


def test_input_may_not_face_the_rim_or_another_input():
    position = play(start(), "d6 PASS S", "d7 PASS S", "d8 AND SE")  # d8's S from d7, E open
    assert "rim" in placement_problem(position, move("e8 AND NW"), 2, None)
    # e8 with its W input would face d8's E input
    assert "input of the piece on d8" in placement_problem(position, move("e8 PASS W"), 2, None)


def test_feedback_loop_is_illegal():
    # d6 XOR takes S from the centre and leaves W open; d7 -> c7 -> c6 run round, and c6's east
    # output would fill d6's open W input: a loop.
    position = play(start(), "d6 XOR SW", "d7 PASS S", "c7 PASS E")
    problem = placement_problem(position, move("c6 PASS N"), 2, position.turn)
    assert problem is not None and "loop" in problem
    # a two-input piece with inputs N and E would face d6's W input: illegal for another reason
    assert "input" in placement_problem(position, move("c6 AND NE"), 2, position.turn)


def test_capacitor_waits_for_its_owner_turn():
    position = play(start(), "d6 CAP S")  # player 1, turn 1
    assert position.to_move == 2
    problem = placement_problem(position, move("d7 PASS S"), 2, position.turn)
    assert problem is not None and "Capacitor" in problem
    assert placement_problem(position, move("c6 AND SE"), 2, position.turn) is not None  # E faces the CAP
    # d7's only possible source is the Capacitor: no placement there until player 1 moves again
    assert not [m for m in legal_placements(position) if m.square == at("d7")]
    position = play(position, "e3 PASS N")  # player 2 plays elsewhere
    assert placement_problem(position, move("d7 PASS S"), 1, position.turn) is None  # player 1's turn again


def test_capacitor_in_three_players_waits_a_full_round():
    position = play(start(3), "d6 CAP S")
    assert placement_problem(position, move("d7 PASS S"), 2, 2) is not None
    assert placement_problem(position, move("d7 PASS S"), 3, 3) is not None
    assert placement_problem(position, move("d7 PASS S"), 1, 4) is None


def test_capacitor_may_fill_an_open_input_at_once():
    position = play(start(), "d6 PASS S", "c6 AND SE")
    position = play(position, "c5 CAP E")  # its north output fills c6's S input straight away
    assert signals(position)[at("c6")] is False


def test_turns_supplies_and_passing():
    position = play(start(), "d6 PASS S")
    assert position.turn == 2 and position.to_move == 2
    assert position.supply[1]["PASS"] == 4 and position.supply[2]["PASS"] == 5
    with pytest.raises(ValueError, match="may not pass"):
        apply_move(position, None)
    with pytest.raises(ValueError, match="occupied"):
        apply_move(position, move("d6 NOT S"))


def _chain_position(targets):
    data = {
        "players": 2,
        "targets": targets,
        "pieces": [
            {"square": "d3", "piece": "PASS", "inputs": "N", "player": 1},
            {"square": "d2", "piece": "PASS", "inputs": "N", "player": 1},
            {"square": "d1", "piece": "PASS", "inputs": "N", "player": 1},
            {"square": "d6", "piece": "PASS", "inputs": "S", "player": 2},
            {"square": "d7", "piece": "PASS", "inputs": "S", "player": 2},
            {"square": "d8", "piece": "PASS", "inputs": "S", "player": 2},
        ],
    }
    return position_from_json(data)


def test_game_end_scores_and_tie_breaks():
    # d1 carries d4's black stone (FALSE) south, d8 carries d5's white stone (TRUE) north
    position = _chain_position({"1": {"d1": "B"}, "2": {"d8": "W"}})
    assert signals(position)[at("d1")] is False and signals(position)[at("d8")] is True
    assert game_over(position)
    table = scores(position)
    assert (table[1].points, table[2].points) == (1, 1)
    assert winners(position) == [2]  # tie on points; player 2 matched a TRUE target
    with pytest.raises(ValueError, match="over"):
        apply_move(position, move("c5 PASS E"))
    # one point each, no TRUE matched: then more black target stones wins
    position = _chain_position({"1": {"d1": "B", "a1": "B"}, "2": {"d8": "B", "a8": "W"}})
    assert not game_over(position)  # a1, a8 not resolved yet
    position = _chain_position({"1": {"d1": "B"}, "2": {"d8": "B"}})
    assert scores(position)[2].points == 0 and winners(position) == [1]


def test_game_ends_when_nobody_can_place():
    data = {"players": 2, "supply": {"1": {}, "2": {}}}
    assert game_over(position_from_json(data))
    assert not game_over(start())


BAD_POSITIONS = {
    "centre square": ({"pieces": [{"square": "d5", "piece": "PASS", "inputs": "S", "player": 1}]}, "centre square"),
    "input on rim": ({"pieces": [{"square": "d6", "piece": "PASS", "inputs": "S", "player": 1},
                                 {"square": "d7", "piece": "PASS", "inputs": "S", "player": 1},
                                 {"square": "d8", "piece": "AND", "inputs": "NE", "player": 1}]}, "faces the rim"),
    "no source": ({"pieces": [{"square": "a4", "piece": "NOT", "inputs": "E", "player": 1}]}, "no source"),
    "unknown piece": ({"pieces": [{"square": "d6", "piece": "NAND", "inputs": "S", "player": 1}]}, "unknown piece 'NAND'"),
    "bad corner": ({"pieces": [{"square": "d6", "piece": "AND", "inputs": "S", "player": 1}]}, "input corner"),
    "too many": ({"pieces": [{"square": s, "piece": "PASS", "inputs": "S", "player": 1} for s in ("d6", "d7", "d8")],
                  "supply": {"1": {"PASS": 8}, "2": {}}}, "only 10"),
    "loop": ({"pieces": [{"square": "d6", "piece": "XOR", "inputs": "SW", "player": 1},
                         {"square": "d7", "piece": "PASS", "inputs": "S", "player": 2},
                         {"square": "c7", "piece": "PASS", "inputs": "E", "player": 1},
                         {"square": "c6", "piece": "PASS", "inputs": "N", "player": 2}]}, "loop"),
    "capacitor early": ({"pieces": [{"square": "d6", "piece": "CAP", "inputs": "S", "player": 1, "turn": 1},
                                    {"square": "d7", "piece": "PASS", "inputs": "S", "player": 2, "turn": 2}]}, "Capacitor"),
    "3 players without supply": ({"players": 3}, "supply"),
    # one move a turn: two pieces on one recorded turn were accepted
    "two pieces on one turn": ({"pieces": [{"square": "d6", "piece": "NOT", "inputs": "S", "player": 1, "turn": 1},
                                           {"square": "e6", "piece": "NOT", "inputs": "S", "player": 2, "turn": 1}]},
                               "pieces[1].turn: turn 1 already placed pieces[0]"),
    # turns go round the players: turn 2 of a two-player game whose turn 3 is player 1's was
    # player 2's, so player 1 placed nothing on it
    "a piece on another player's turn": ({"to_move": 1, "turn": 3, "pieces": [
        {"square": "d6", "piece": "NOT", "inputs": "S", "player": 1, "turn": 2}]},
        "pieces[0].turn: turn 2 was player 2's (turn 3 is player 1's), not player 1's"),
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_illegal_positions_are_refused_with_the_json_path(name):
    data, expected = BAD_POSITIONS[name]
    with pytest.raises(InputError) as caught:
        parse_position(json.dumps({"players": 2, **data}), "pos.json")
    message = str(caught.value)
    assert message.startswith("pos.json: ") and expected in message and "\n" not in message


def test_more_pieces_of_a_type_than_the_two_player_supply():
    pieces = [{"square": s, "piece": "PASS", "inputs": "S", "player": 1} for s in ("d6", "d7", "d8")]
    pieces += [{"square": s, "piece": "PASS", "inputs": "W", "player": 1} for s in ("f5", "g5", "h5")]
    with pytest.raises(InputError, match="more than the 5"):
        parse_position(json.dumps({"pieces": pieces}))


def test_malformed_json_names_line_and_column():
    with pytest.raises(InputError) as caught:
        parse_position('{"players": 2,\n "pieces": [}', "x.json")
    assert str(caught.value).startswith("x.json:2:")


def test_kind_orientation_names():
    assert make_kind("AND", "NE").inputs == ("N", "E")
    assert make_kind("AND", "NE").outputs == ("S", "W")
    assert make_kind("NOT", "W").outputs == ("N", "E", "S")


@given(st.integers(min_value=0, max_value=10_000))
@settings(max_examples=12, deadline=None)
def test_settled_signals_never_change(seed):
    """Kleene logic is monotone: along any legal line a TRUE/FALSE output stays as it is (the
    analysis encodes settled signals as constants because of this)."""
    rng = random.Random(seed)
    position = start()
    before = signals(position)
    for _ in range(24):
        options = legal_placements(position)
        if not options or game_over(position):
            break
        position = apply_move(position, rng.choice(options))
        after = signals(position)
        for square, value in before.items():
            if value is not None:
                assert after[square] is value
        before = after


def test_centre_override_changes_the_first_signals():
    centre = {"d5": {"N": "B", "W": "W"}, "e5": {"N": "B", "E": "W"}, "e4": {"E": "B", "S": "W"}, "d4": {"S": "B", "W": "W"}}
    position = play(start(centre=centre), "d6 PASS S", "c5 PASS E")
    assert signals(position)[at("d6")] is False and signals(position)[at("c5")] is True
    bad = dict(centre, d5={"N": "W", "W": "W"})
    with pytest.raises(InputError, match="one white"):
        position_from_json({"centre": bad})


def test_target_layouts():
    alternate = position_from_json({"targets": "alternate"}).targets
    assert alternate[1][at("a1")] == "W" and alternate[1][at("b1")] == "B" and alternate[2][at("a8")] == "W"
    shuffled = position_from_json({"targets": {"layout": "random", "seed": 5}}).targets
    assert sorted(shuffled[1].values()) == ["B"] * 4 + ["W"] * 4
    assert shuffled == position_from_json({"targets": {"layout": "random", "seed": 5}}).targets
    with pytest.raises(InputError, match="not on player 1's edge"):
        position_from_json({"targets": {"1": {"a2": "W"}, "2": {"a8": "W"}}})
