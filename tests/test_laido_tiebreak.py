"""The hills tiebreak (the newer published rule) in the comparison and in reach, by brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from placesat.core.lattice import HexLattice
from placesat.laido.model import BLACK, WHITE, Position
from placesat.laido.reach import reach_win
from placesat.laido.rules import (
    HILLS_TIEBREAK,
    compare,
    finish_with,
    groups,
    hill_counts,
    stones_available,
    value_by_search,
    verdict_of,
)


def test_hill_counts_from_the_centre_out():
    lattice = HexLattice(4)
    assert hill_counts(lattice, [(0, 0), (1, 0), (0, -1), (3, -3), (-3, 1)]) == [1, 2, 0, 2]


def test_compare_with_hills():
    # values tie; black has fewer stones on the centre: black wins at hill 0
    verdict = compare([2], [2], WHITE, HILLS_TIEBREAK, ([0, 3, 1], [1, 2, 1]))
    assert (verdict.winner, verdict.decided_by, verdict.rank) == (BLACK, "hills", 0)
    # the centre ties, hill 1 decides for white
    verdict = compare([-1], [-1], BLACK, HILLS_TIEBREAK, ([0, 2], [0, 1]))
    assert (verdict.winner, verdict.decided_by, verdict.rank) == (WHITE, "hills", 1)
    # every hill ties: the half point still decides
    assert compare([1], [1], WHITE, HILLS_TIEBREAK, ([0, 1], [0, 1])).decided_by == "half point"
    # a value difference decides before any hill
    assert compare([3], [2], WHITE, HILLS_TIEBREAK, ([5, 5], [0, 0])).winner == BLACK


def _brute_fewest(position: Position, player: str, k: int, tiebreak: str) -> int | None:
    """The fewest stones that win for ``player`` by trying every set of empty points."""
    lattice = position.lattice
    capacity = stones_available(position, player, k)
    for size in range(capacity + 1):
        for stones in itertools.combinations(position.empty_points, size):
            _, final = finish_with(position, player, list(stones))
            values = {c: [value_by_search(lattice, g) for g in groups(lattice, final.stones(c))] for c in (BLACK, WHITE)}
            if verdict_of(final, values[BLACK], values[WHITE], tiebreak).winner == player:
                return size
    return None


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_reach_with_hills_matches_brute_force(backend):
    rng = random.Random(31)
    checked = 0
    for _ in range(14):
        lattice = HexLattice(3)
        points = list(lattice.points)
        rng.shuffle(points)
        black, white = frozenset(points[:2]), frozenset(points[2:4])
        to_move = rng.choice([BLACK, WHITE])
        position = Position(3, black, white, to_move)
        for player in (BLACK, WHITE):
            expected = _brute_fewest(position, player, 2, HILLS_TIEBREAK)
            answer = reach_win(position, player, 2, backend, tiebreak=HILLS_TIEBREAK)
            assert (answer.answer == "yes") == (expected is not None), (position, player)
            if expected is not None:
                assert len(answer.stones) == expected
            checked += 1
    assert checked == 28


def test_reach_reports_progress():
    heard = []
    position = Position(3, frozenset([(0, 0)]), frozenset([(1, 0)]), BLACK)
    reach_win(position, WHITE, 1, "sat", progress=heard.append)
    assert heard and any("solver" in text for text in heard)
