"""``forced`` against plain minimax, its cut-offs checked one by one, and the generic search on a toy game."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from placesat.core.errors import InputError
from placesat.lsd.forced import NO_WIN, UNKNOWN, WIN, forced_win, line_possible, plies_of, threat_zone
from placesat.lsd.model import Placement, load_game, new_position, parse_move
from placesat.lsd.reach import YES, reach_win
from placesat.lsd.rules import is_over, legal_moves, play, winner, winning_placements
from placesat.core.andor import AndOrSearch, Settled

from .lsd_brute import forced_win as minimax
from .lsd_brute import random_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def test_forced_matches_minimax_up_to_depth_3():
    rng = random.Random(3)
    seen = {WIN: 0, NO_WIN: 0}
    for _ in range(100):
        players = rng.choice([2, 2, 4])
        position = random_position(rng, players, moves=rng.randint(4, 14), kinds=rng.choice([4, 5]), per_kind=3)
        if is_over(position):
            continue
        player = position.to_move if rng.random() < 0.6 else rng.randint(1, players)
        for depth in (1, 2, 3):
            expected = minimax(position, player, depth)
            answer = forced_win(position, player, depth)
            assert answer.answer == (WIN if expected else NO_WIN), (position, player, depth)
            seen[answer.answer] += 1
            if answer.move is not None:
                play(position, answer.move)  # legal
    assert seen[WIN] >= 10 and seen[NO_WIN] >= 10


def test_a_double_threat_wins_in_three_plies():
    position = load_game(str(GRIDS / "double-threat.json"))
    assert winning_placements(position, 1) == []
    assert minimax(position, 1, 3) and not minimax(position, 1, 2)
    assert forced_win(position, 1, 1).answer == NO_WIN
    answer = forced_win(position, 1, 3, strategy=True)
    assert answer.answer == WIN and answer.within == 3
    after = play(position, answer.move)
    # the strategy lists every reply of player 2, and for each a move that wins at once
    replies = answer.strategy["replies"]
    assert [r["move"] for r in replies] == [str(m) for m in legal_moves(after)]
    for reply in replies:
        final = play(play(after, parse_move(reply["move"])), parse_move(reply["answer"]))
        assert winner(final) == 1


def test_one_threat_is_blocked():
    # player 1 makes a three open at one end only: player 2 blocks it
    position = play(load_game(str(GRIDS / "double-threat.json")), parse_move("-2,2 E+"))
    assert len({m.cell for m in winning_placements(position, 1)}) == 1
    assert reach_win(position, 1, 2).answer == YES  # with help it would win...
    assert forced_win(position, 1, 2).answer == NO_WIN  # ...but player 2 blocks
    assert not minimax(position, 1, 2)


def test_reach_pruning_gives_the_same_answers():
    rng = random.Random(8)
    for _ in range(16):
        position = random_position(rng, 2, moves=rng.randint(4, 12), kinds=5, per_kind=3)
        if is_over(position):
            continue
        for depth in (3, 4):
            plain = forced_win(position, position.to_move, depth)
            pruned = forced_win(position, position.to_move, depth, reach_from=2)
            assert plain.answer == pruned.answer
    double = load_game(str(GRIDS / "double-threat.json"))
    pruned = forced_win(double, 1, 3, reach_from=2)
    assert pruned.answer == WIN and pruned.reach_calls >= 1


def test_threat_zone_moves_outside_it_change_no_win_at_once():
    """The last-ply cut: a placement outside the zone leaves a player's wins at once as they are
    (same cells), checked for every legal move of random positions."""
    rng = random.Random(21)
    checked = 0
    for _ in range(25):
        players = rng.choice([2, 4])
        position = random_position(rng, players, moves=rng.randint(6, 16), kinds=5, per_kind=3)
        if is_over(position):
            continue
        for player in range(1, players + 1):
            if player == position.to_move:
                continue
            zone = threat_zone(position, player)
            before = {m.cell for m in winning_placements(position, player)}
            for move in legal_moves(position):
                if isinstance(move, Placement) and move.cell in zone:
                    continue
                after = play(position, move)
                if winner(after) is not None:
                    continue
                assert {m.cell for m in winning_placements(after, player)} == before
                checked += 1
    assert checked >= 200


def test_counting_cut_offs():
    position = new_position(2)
    assert plies_of(position, 1, 3) == 2 and plies_of(position, 2, 3) == 1 and plies_of(position, 2, 1) == 0
    assert plies_of(new_position(4), 4, 4) == 1 and plies_of(new_position(4), 4, 3) == 0
    mid = load_game(str(GRIDS / "mid20.json"))
    assert line_possible(mid, 1, 2)
    assert not line_possible(mid, 1, 0)


def test_already_won_and_bad_questions():
    double = load_game(str(GRIDS / "double-threat.json"))
    won = play(play(play(double, parse_move("1,2 EW+")), parse_move("-2,2 E+")), parse_move("2,2 W+"))
    assert winner(won) == 1
    assert forced_win(won, 1, 1).answer == WIN and forced_win(won, 1, 1).within == 0
    assert forced_win(won, 2, 3).answer == NO_WIN
    for depth in (0, 99):
        with pytest.raises(InputError, match="--depth must be from 1 to 12"):
            forced_win(double, 1, depth)
    assert forced_win(load_game(str(GRIDS / "mid20.json")), 1, 9, time_limit=0).answer == UNKNOWN


# --------------------------------------------------------------------------- the generic search


@dataclass(frozen=True)
class Race:
    """A toy game: players 0 and 1 add 1 or 2 to a total in turn; whoever makes it exactly 7 wins;
    passing 7 loses for the mover. The target is player 0."""

    total: int
    mover: int


class RaceGame:
    def key(self, state):
        return state

    def result(self, state):
        if state.total == 7:
            return state.mover == 1  # the player who just moved (0) made it
        if state.total > 7:
            return state.mover == 0  # player 1 passed it
        return None

    def target_moves(self, state):
        return state.mover == 0

    def moves(self, state):
        return [1, 2]

    def play(self, state, move):
        return Race(state.total + move, 1 - state.mover)

    def settle(self, state, depth):
        return None

    def hopeless(self, state, depth):
        return False

    def order(self, state, moves):
        return moves


def race_minimax(state, depth):
    game = RaceGame()
    ended = game.result(state)
    if ended is not None:
        return ended
    if depth == 0:
        return False
    values = [race_minimax(game.play(state, m), depth - 1) for m in game.moves(state)]
    return any(values) if state.mover == 0 else all(values)


def test_generic_search_matches_minimax_on_a_toy_game():
    for total in range(8):
        for mover in (0, 1):
            for depth in range(7):
                state = Race(total, mover)
                search = AndOrSearch(RaceGame())
                assert search.wins(state, depth) == race_minimax(state, depth), (total, mover, depth)


def test_settled_nodes_are_not_searched():
    class Decided(RaceGame):
        def settle(self, state, depth):
            return Settled(True, 2)

    search = AndOrSearch(Decided())
    assert search.wins(Race(0, 0), 5) and search.stats.nodes == 1 and search.best_move(Race(0, 0)) == 2
