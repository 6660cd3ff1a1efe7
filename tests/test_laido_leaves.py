"""The cheaper leaves of Laido's forced search (docs/performance.md, "Laido forced, cheaper
leaves"): the groups read from a per-board neighbour table, a colour's group values kept per
stone set, and one lattice shared by every position of a size. Each against what it replaces:
a flood fill asking the lattice, values worked out afresh, and a lattice made anew."""

from __future__ import annotations

import random

from placesat.core.lattice import HexLattice
from placesat.laido.forced import LaidoRules, forced_win
from placesat.laido.model import BLACK, WHITE, Position
from placesat.laido.rules import groups, value_by_search, verdict_of
from tests.test_laido_forced import brute_forced, random_position


def flood_groups(lattice: HexLattice, stones) -> set[frozenset]:
    """The groups by the definition: stones joined when one is among the other's neighbours."""
    left, found = set(stones), set()
    while left:
        group, frontier = set(), [left.pop()]
        while frontier:
            point = frontier.pop()
            group.add(point)
            joined = {n for n in lattice.neighbours(point) if n in left}
            left -= joined
            frontier.extend(joined)
        found.add(frozenset(group))
    return found


def test_groups_equal_a_flood_fill_on_random_boards():
    rng = random.Random(40)
    for side in (2, 3, 4, 5, 9):
        lattice = HexLattice(side)
        for _ in range(30):
            stones = [p for p in lattice.points if rng.random() < rng.choice((0.2, 0.5, 0.8))]
            assert set(groups(lattice, stones)) == flood_groups(lattice, stones)


def test_kept_values_equal_fresh_ones_and_the_verdicts_too():
    rules = LaidoRules()
    rng = random.Random(41)
    seen = 0
    for _ in range(60):
        side = rng.choice((3, 4))
        position = random_position(rng, side, rng.randint(0, 6))
        lattice = HexLattice(side)  # a lattice of its own, not the shared one
        for colour in (BLACK, WHITE):
            fresh = [value_by_search(lattice, g) for g in groups(lattice, position.stones(colour))]
            for _ in range(2):  # the first call works them out, the second reads them kept
                got = rules.values(position, colour)
                assert got == fresh
                got.append(99)  # the caller's list is its own: the kept one stays as it was
            seen += 1
        plain = verdict_of(position, rules.values(position, BLACK), rules.values(position, WHITE))
        assert rules.verdict(position) == plain
    assert seen == 120


def test_positions_of_one_size_share_one_lattice():
    a, b = Position(4), Position(4, black=frozenset({(0, 0)}))
    assert a.lattice is b.lattice and a.lattice == HexLattice(4)
    assert a.lattice.points == HexLattice(4).points


def test_forced_still_equals_the_brute_force_with_the_memory_shared():
    """One rules object (its kept values) across many searches and both colours."""
    from placesat.laido.forced import Memory

    memory = Memory()
    rng = random.Random(42)
    for _ in range(8):
        position = random_position(rng, 3, rng.randint(3, 5))
        if position.is_over:
            continue
        for own in (1, 2):
            answer = forced_win(position, own, memory=memory)
            assert (answer.answer == "win") == brute_forced(position, own), (position, own)
