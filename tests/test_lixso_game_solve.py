"""Solving against plain minimax on small endgames, symmetry, the deadline, and the search alone."""

from __future__ import annotations

import pytest

from placesat.core.errors import InputError
from placesat.core.limits import Deadline
from placesat.lixso.game.model import seating_for
from placesat.lixso.game.rules import GameRules
from placesat.lixso.game.search import Search
from placesat.lixso.game.solve import DRAW, LOSS, UNKNOWN, WIN, LixsoSearch, solve, symmetries
from placesat.lixso.model import Grid

from .test_lixso_game_bounds import random_position

SMALL = (".I....", "......", "O...S.", ".I..X.")
SIX = (".....S", "XI.O..", ".X....", "......", "I..SI.", "......")


def minimax(rules: GameRules, state) -> int:
    """The final margin (side A minus side B) with perfect play, by trying every move."""
    if state.over:
        return state.scores[0] - state.scores[1]
    values = [minimax(rules, rules.play(state, *move)) for move in rules.moves(state)]
    return max(values) if rules.seating.sides[state.to_move] == 0 else min(values)


def position(rows, players, moves, seed, per_colour, clue_touch=True):
    return random_position(rows, players, moves, seed, per_colour, clue_touch)


CASES = [
    (SMALL, "2", 1, 1, 2, True),
    (SMALL, "4", 1, 2, 2, True),
    (SMALL, "2", 2, 3, 2, False),
    (("......",) * 3, "2", 1, 4, 2, True),
    (("......",) * 3, "4", 0, 5, 2, True),
    (SIX, "2", 4, 6, 3, True),
    (SIX, "4", 4, 7, 3, True),
    (SIX, "2", 5, 8, 3, False),
    (SIX, "4", 5, 9, 3, True),
    (SIX, "2", 6, 10, 3, True),
]


@pytest.mark.parametrize("rows, players, moves, seed, per_colour, clue_touch", CASES)
def test_solve_agrees_with_minimax(rows, players, moves, seed, per_colour, clue_touch):
    rules, state = position(rows, players, moves, seed, per_colour, clue_touch)
    expected = minimax(rules, state)
    for use_root_bounds in (True, False):
        found = solve(rules, state, use_root_bounds=use_root_bounds)
        assert found.value == expected
        assert found.outcome == (WIN if expected * (1 if found.to_move == 0 else -1) > 0 else LOSS if expected != 0 else DRAW)
        # the move achieves the value: after it, perfect play gives the same margin
        assert minimax(rules, rules.lay(state, found.move)) == expected


def test_both_backends_give_the_same_answer():
    rules, state = position(SIX, "2", 3, 21, 3)
    sat, cpsat = solve(rules, state, backend="sat"), solve(rules, state, backend="cpsat")
    assert sat.value == cpsat.value is not None
    assert [(s.most, s.sure) for s in sat.root_bounds.sides] == [(s.most, s.sure) for s in cpsat.root_bounds.sides]


def test_margins_are_seen_from_each_side():
    rules, state = position(SIX, "2", 4, 6, 3)
    found = solve(rules, state)
    value = found.value
    assert found.outcome_for(0) == (WIN if value > 0 else LOSS if value < 0 else DRAW)
    assert found.outcome_for(1) == (LOSS if value > 0 else WIN if value < 0 else DRAW)


def test_symmetries_of_a_grid():
    empty = GameRules(Grid(("......",) * 3), seating_for("2"), 2)
    assert len(symmetries(empty)) == 4 * 4 - 1  # 4 turns/mirrors of a rectangle x 4 colour swaps, less the identity
    square = GameRules(Grid(("......",) * 6), seating_for("4"), 3)
    assert len(symmetries(square)) == 8 - 1  # no colour swap: each player has one colour
    clued = GameRules(Grid(SIX), seating_for("2"), 3)
    assert symmetries(clued) == []
    mirrored = GameRules(Grid(("I....I", "......", "X....X")), seating_for("2"), 2)
    assert len(symmetries(mirrored)) == 1  # the left-right mirror only


def test_symmetry_prunes_but_keeps_the_value():
    rules, state = position(("......",) * 3, "2", 0, 0, 2)
    game = LixsoSearch(rules)
    node = game.root(state)
    assert len(node[1]) == 15
    assert len(game.moves(node, None)) < len(rules.moves(state)) / 4
    with_symmetry, without = solve(rules, state), solve(rules, state, use_symmetry=False)
    assert with_symmetry.value == without.value and with_symmetry.nodes < without.nodes
    rules, state = position(("......",) * 3, "2", 0, 0, 1)
    assert solve(rules, state).value == minimax(rules, state)


def test_time_limit_gives_unknown_and_a_legal_move():
    rules, state = position(("." * 9,) * 9, "2", 0, 0, 7)
    found = solve(rules, state, Deadline(0.5))
    assert found.value is None and found.outcome == UNKNOWN
    assert found.move is not None and rules.violation(state, found.move) is None


def test_three_players_are_not_solved():
    rules, state = position(SMALL, "3", 0, 0, 2)
    with pytest.raises(InputError, match="two sides"):
        solve(rules, state)


def test_game_over_needs_no_move():
    rules, state = position(("......",) * 3, "2", 20, 1, 2)
    assert state.over
    found = solve(rules, state)
    assert found.move is None and found.value == state.scores[0] - state.scores[1]


class Nim:
    """Subtraction game for the search alone: take 1-3 from a heap; the side taking the last
    wins (+1 for side 0, -1 for side 1). Side 0 moves first; losing positions are multiples of 4."""

    def key(self, state):
        return state

    def maximising(self, state):
        return state[1] == 0

    def final(self, state):
        heap, mover = state
        if heap == 0:
            return -1 if mover == 0 else 1  # the side that just moved took the last
        return None

    def bounds(self, state):
        return -1, 1

    def moves(self, state, first):
        return [take for take in (1, 2, 3) if take <= state[0]]

    def play(self, state, take):
        return state[0] - take, 1 - state[1]

    def estimate(self, state):
        return 0


@pytest.mark.parametrize("heap", range(1, 13))
def test_the_search_alone_on_a_subtraction_game(heap):
    answer = Search(Nim()).solve((heap, 0), heap)
    assert answer.value == (-1 if heap % 4 == 0 else 1)
    if heap % 4:
        assert answer.move == heap % 4


@pytest.mark.parametrize("rows, players, moves, seed, per_colour, clue_touch", CASES[:6])
def test_the_line_of_play_keeps_the_value_to_the_end(rows, players, moves, seed, per_colour, clue_touch):
    """Every move of the line keeps the minimax value, the line starts with the best move and
    ends the game with the proven margin."""
    rules, state = position(rows, players, moves, seed, per_colour, clue_touch)
    found = solve(rules, state)
    assert found.line_proven and found.line_complete and found.line[0] == found.move
    for move in found.line:
        state = rules.lay(state, move)
        assert minimax(rules, state) == found.value
    assert state.over and state.scores[0] - state.scores[1] == found.value


def test_past_the_deadline_the_line_is_the_preferred_one_not_a_proof():
    rules, state = position(SIX, "2", 0, 31, 3)
    found = solve(rules, state, Deadline(0.3))
    assert found.value is None and not found.line_proven and found.stopped is None
    assert found.line and found.line[0] == found.move
    for move in found.line:
        state = rules.lay(state, move)  # legal all along


class StopsAfter(Deadline):
    """A deadline that never comes, but a Ctrl-C after ``checks`` looks at the clock."""

    def __init__(self, checks: int) -> None:
        super().__init__(None)
        self.checks = checks

    def check(self) -> None:
        from placesat.core.signals import Interrupted

        self.checks -= 1
        if self.checks < 0:
            raise Interrupted()


def test_a_ctrl_c_keeps_what_was_found_and_hands_the_stop_back():
    from placesat.core.signals import Interrupted

    rules, state = position(SIX, "2", 0, 32, 3)
    found = solve(rules, state, StopsAfter(200), use_root_bounds=False)
    assert isinstance(found.stopped, Interrupted)
    assert found.value is None and found.move is not None and found.depth >= 1
    assert rules.violation(state, found.move) is None and found.line[0] == found.move and not found.line_proven
