"""Quarry's cut of the target's stones that leave its line out of reach
(:meth:`placesat.quarry.forced.QuarryGame._reaching`) against the plain search: on seeded random
positions of long narrow boards, the same answer for K = 1 to 3 as the plain search (and for
K = 1, 2 as the minimax of tests/test_quarry_forced.py), fewer positions in all; the small
boards' answers unchanged; and the bound it rests on,
:func:`placesat.quarry.forced.gap_after_at_least`, never above the gap after the stone."""

from __future__ import annotations

from placesat.core.andor import AndOrSearch
from placesat.quarry.forced import QuarryGame, gap_after_at_least, legal_moves, line_gap, plies_for, zone_distances
from placesat.quarry.model import PLAYERS, Board
from placesat.quarry.rules import play

from .conftest import thorough
from .quarry_brute import SMALL_STONES, random_game
from .test_quarry_forced import minimax, sample_positions


def search(state, target: str, own: int, prune: bool, threats_first: bool | None = None):
    game = QuarryGame(target, prune=prune, threats_first=prune if threats_first is None else threats_first)
    found = AndOrSearch(game)
    wins = any(found.wins(state, plies_for(state, target, k), deepen=False) for k in range(1, own + 1))
    return wins, found.stats.nodes, game.pruned


LONG_BOARDS = [Board(7, 2), Board(6, 3), Board(8, 2)]
"""Boards long enough that a line needs more cells than one stone covers (on the small boards of
tests/test_quarry_forced every stone may still reach the line, and nothing is cut)."""


def test_the_cut_keeps_every_answer_and_searches_less():
    nodes = [0, 0]
    cut = 0
    for n in range(thorough(3, 8)):
        board = LONG_BOARDS[n % 3]
        _, state = random_game(board, SMALL_STONES, 1 + n % 4, 900 + n, first=PLAYERS[n % 2])
        assert state.winner is None and not state.is_over
        for target in PLAYERS:
            for own in (1, 2, 3):
                plain, plain_nodes, _ = search(state, target, own, prune=False)
                # (the count alone: with threats first it is not asked at the second-to-last move)
                pruned, pruned_nodes, cuts = search(state, target, own, prune=True, threats_first=False)
                assert plain == pruned, (n, target, own)
                if own == 1 or (own == 2 and n == 0):
                    assert pruned == minimax(state, target, own), (n, target, own)
                nodes[0] += plain_nodes
                nodes[1] += pruned_nodes
                cut += cuts
    assert cut > 0
    assert nodes[1] < nodes[0], nodes  # (12 positions: 44,826 against 23,336)


def test_the_answers_of_the_small_boards_stay():
    for position, state in sample_positions(thorough(8, 24), 3):
        for target in PLAYERS:
            for own in (1, 2):
                assert search(state, target, own, prune=True)[0] == search(state, target, own, prune=False)[0], position


def test_the_gap_after_a_stone_is_never_below_its_bound():
    checked = 0
    for _, state in sample_positions(24, 5):
        mover = state.to_move
        distances = zone_distances(state, mover)
        for move in legal_moves(state):
            after = line_gap(play(state, move), mover)
            if after is not None:
                assert gap_after_at_least(state, distances, move) <= after, move
                checked += 1
    assert checked > 100


def test_threats_first_keeps_every_answer():
    """The target's second-to-last move kept only when it leaves a win at once
    (:meth:`QuarryGame._threatening`), alone and with the stone cut: the plain search's answers
    on the long boards for K = 2 and 3, and the minimax's for K = 2 on the small boards."""
    cut = 0
    for n in range(thorough(3, 8)):
        _, state = random_game(LONG_BOARDS[n % 3], SMALL_STONES, 1 + n % 4, 900 + n, first=PLAYERS[n % 2])
        for target in PLAYERS:
            for own in (2, 3):
                plain = search(state, target, own, prune=False)[0]
                game = QuarryGame(target, prune=False, threats_first=True)
                found = AndOrSearch(game)
                alone = any(found.wins(state, plies_for(state, target, k), deepen=False) for k in range(1, own + 1))
                cut += game.quiet
                assert alone == plain == search(state, target, own, prune=True)[0], (n, target, own)
    assert cut > 0
    wins = 0
    for position, state in sample_positions(thorough(8, 24), 3):
        for target in PLAYERS:
            answer = search(state, target, 2, prune=False, threats_first=True)[0]
            assert answer == minimax(state, target, 2), position
            wins += answer
    assert wins > 0
