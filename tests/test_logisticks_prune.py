"""Logi-Sticks' must-play region (:func:`placesat.logisticks.forced.must_play`) against the plain
search: on seeded random 2-player mid-games (20-34 random moves, six pieces left in all), the
same answer for K = 1 and 2 and never more positions; and the plain minimax of
tests/test_logisticks_forced.py agreeing on a win found with the cut (test_logisticks_forced
checks ``forced``, which cuts, against it on its seeded positions too)."""

from __future__ import annotations

from placesat.core.andor import AndOrSearch
from placesat.logisticks.forced import Goal, LogiGame, Node, plies_for
from placesat.logisticks.rules import scores

from .logisticks_brute import playout_position
from .test_logisticks_forced import minimax


def search(position, goal: Goal, own: int, prune: bool, cut: str = "pruned"):
    """``forced``'s search (the cuts on or off): its answer within ``own`` own moves, the
    positions it visited and the count the game keeps of one of its cuts (``cut``: "pruned",
    the must-play region; "threats_cut", the quiet refutations)."""
    game = LogiGame(goal, prune=prune)
    found = AndOrSearch(game)
    root = Node(position)
    wins = goal.reached(position, root.values) or any(
        found.wins(root, plies_for(position, goal.player, k), deepen=False) for k in range(1, own + 1))
    return wins, found.stats.nodes, getattr(game, cut)


def test_the_region_keeps_every_answer():
    plain_nodes = pruned_nodes = cut = 0
    for seed in range(12):
        position = playout_position(seed, 20 + seed % 15, 6, 2)
        player = position.to_move
        goal = Goal(player, score=scores(position)[player].points + 1)
        for own in (1, 2):
            plain, plain_count, _ = search(position, goal, own, prune=False)
            pruned, pruned_count, cuts = search(position, goal, own, prune=True)
            assert plain == pruned, (seed, own)
            plain_nodes += plain_count
            pruned_nodes += pruned_count
            cut += cuts
    assert cut > 0  # the region was used on these positions
    assert pruned_nodes <= plain_nodes


def test_a_win_the_region_cut_short_against_the_minimax():
    # seed 13 with four pieces left: a win within 2 own moves, 14 replies cut (the only one of
    # 30 such seeds where the region is used; the minimax there takes a tenth of a second)
    position = playout_position(13, 20 + 13 % 15, 4, 2)
    player = position.to_move
    score = scores(position)[player].points + 1
    wins, _, cuts = search(position, Goal(player, score=score), 2, prune=True)
    assert cuts > 0
    assert wins == minimax(position, player, score, None, 2) is True
