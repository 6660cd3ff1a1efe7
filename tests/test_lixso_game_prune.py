"""The settled test's count where the two sides are apart (:meth:`SettledTest._apart_spoils`)
against the plain search for a spoiling future and against the brute force of
tests/test_lixso_game_forced.py: on seeded random 2-player games on the shipped 6x6 grids,
every position along the games, for each side, the same verdict; fewer positions searched in
all; and ``forced`` gives the same answers with the count as without it."""

from __future__ import annotations

import random
from functools import lru_cache

from placesat.lixso.game import forced as forced_module
from placesat.lixso.game.forced import NO_WIN, WIN, SettledTest, forced

from .test_lixso_game_forced import brute_force, late_position


def settled_by_trying_everything(rules, state, side: int) -> bool:
    """Every future ends with ``side`` strictly ahead (the rule engine's moves, all of them)."""

    @lru_cache(maxsize=None)
    def settled(state) -> bool:
        if state.over:
            return all(state.scores[side] > s for o, s in enumerate(state.scores) if o != side)
        return all(settled(rules.play(state, k, p)) for k, p in rules.moves(state))

    return settled(state)


def positions_along(seed: int, laid: int):
    """The positions of a seeded random 2-player game from ``laid`` tiles on to its end."""
    rules, state = late_position(seed, "2", laid)
    rng = random.Random(seed)
    out = []
    while True:
        out.append(state)
        if state.over:
            return rules, out
        k, p = rng.choice(rules.moves(state))
        state = rules.play(state, k, p)


def test_the_count_apart_agrees_with_the_search_and_the_brute_force():
    counted = plain_memo = apart_memo = 0
    for seed in range(12):
        rules, states = positions_along(seed, 4)
        for side in (0, 1):
            apart, plain = SettledTest(rules, side, apart=True), SettledTest(rules, side, apart=False)
            for state in states:
                expected = plain.settled(state)
                assert apart.settled(state) == expected, (seed, side)
                if len(states) - states.index(state) <= 6:  # the brute force, where it is short
                    assert settled_by_trying_everything(rules, state, side) == expected
            counted += apart.counted_apart
            plain_memo += len(plain.memo)
            apart_memo += len(apart.memo)
    assert counted > 0  # the sides were apart somewhere
    assert apart_memo <= plain_memo, (apart_memo, plain_memo)


def test_forced_with_and_without_the_count():
    wins = 0
    for seed in range(10):
        rules, state = late_position(seed, "2", 6 + seed % 3)
        if state.over:
            continue
        for turns in (1, 2, 3):
            answers = []
            for prune in (True, False):
                forced_module.PRUNE = prune
                try:
                    answers.append(forced(rules, state, turns, use_solve=False).answer)
                finally:
                    forced_module.PRUNE = True
            assert answers[0] == answers[1], (seed, turns)
            if turns <= 2:
                assert answers[0] == (WIN if brute_force(rules, state, turns) else NO_WIN)
            wins += answers[0] == WIN
    assert wins > 0


def test_the_keeper_alone_where_the_sides_are_apart():
    """:meth:`ForcedGame.moves` gives the other side one keeper where the sides are apart: the
    same answers as every tile, never more positions."""
    from placesat.core.andor import AndOrSearch
    from placesat.lixso.game.forced import ForcedGame

    nodes = [0, 0]
    cut = 0
    for seed in range(12):
        rules, state = late_position(seed, "2", 3 + seed % 3)
        if state.over:
            continue
        for turns in (1, 2, 3, 4):
            found = []
            for prune in (False, True):
                forced_module.PRUNE = prune
                try:
                    game = ForcedGame(rules, rules.seating.sides[state.to_move])
                    search = AndOrSearch(game)
                    root = game.root(state)
                    found.append(any(search.wins(root, game.plies_for(root.turn, k), deepen=False) for k in range(1, turns + 1)))
                finally:
                    forced_module.PRUNE = True
                nodes[prune] += search.stats.nodes
                cut += game.pruned
            assert found[0] == found[1], (seed, turns)
    assert cut > 0
    assert nodes[1] <= nodes[0]
