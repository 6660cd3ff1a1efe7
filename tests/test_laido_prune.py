"""Laido's must-play cut (:meth:`placesat.laido.forced.LaidoGame.must_play`) against the plain
search: on random small boards, the same answer for K = 1 to 3, fewer positions in all (on these
boards 474 against 387), and the brute force of tests/test_laido_forced.py agreeing."""

from __future__ import annotations

import random

from placesat.core.andor import AndOrSearch
from placesat.laido.forced import LaidoGame, Memory
from tests.test_laido_forced import brute_forced, random_position


def search(position, own: int, prune: bool):
    game = LaidoGame(position.to_move, memory=Memory(), prune=prune)
    found = AndOrSearch(game)
    wins = any(found.wins(position, 2 * k - 1, deepen=False) for k in range(1, own + 1))
    return wins, found.stats.nodes, game.pruned


CASES = [(seed, side, empty) for seed in range(4) for side, empty in ((3, 5), (3, 6), (4, 5))]


def test_the_cut_keeps_every_answer_and_searches_less():
    plain_nodes = pruned_nodes = cut = 0
    for seed, side, empty in CASES:
        position = random_position(random.Random(5000 + 100 * side + 10 * empty + seed), side, empty)
        for own in (1, 2, 3):
            plain, plain_count, _ = search(position, own, prune=False)
            pruned, pruned_count, cuts = search(position, own, prune=True)
            assert plain == pruned, (position, own)
            if own <= 2:  # (test_laido_forced checks forced, pruned, against it up to 3)
                assert pruned == brute_forced(position, own), (position, own)
            plain_nodes += plain_count
            pruned_nodes += pruned_count
            cut += cuts
    assert cut > 0  # the cut did happen on these boards
    assert pruned_nodes <= plain_nodes, (pruned_nodes, plain_nodes)
