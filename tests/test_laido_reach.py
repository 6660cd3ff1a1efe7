"""Reachable wins and best values, checked against trying every set of stones on small boards."""

from __future__ import annotations

import itertools
import random

import pytest

from placesat.core.backend import BACKENDS
from placesat.core.errors import InputError
from placesat.laido.model import BLACK, WHITE, Position
from placesat.laido.reach import reach_best, reach_win
from placesat.laido.rules import (
    IllegalMove,
    compare,
    finish_with,
    groups,
    is_opening,
    stones_available,
    value_by_search,
)


def search_values(position, colour):
    return [value_by_search(position.lattice, g) for g in groups(position.lattice, position.stones(colour))]


def by_trying_everything(position, player, limit):
    """(fewest stones that win or None, best group value or None) over every set of stones."""
    fewest = best = None
    for count in range(stones_available(position, player, limit) + 1):
        for stones in itertools.combinations(position.empty_points, count):
            try:
                _, final = finish_with(position, player, stones)
            except IllegalMove:
                continue
            black, white = search_values(final, BLACK), search_values(final, WHITE)
            mine = black if player == BLACK else white
            if mine:
                best = max(mine) if best is None else max(best, max(mine))
            if fewest is None and compare(black, white, final.first_pass).winner == player:
                fewest = count
    return fewest, best


def random_positions(seed, count):
    rng = random.Random(seed)
    while count:
        size = rng.choice([3, 3, 4])
        position = Position(size)
        points = list(position.lattice.points)
        rng.shuffle(points)
        nb, nw = rng.randint(0, 6), rng.randint(0, 6)
        passes = rng.choice([0, 0, 1])
        first_pass = rng.choice([BLACK, WHITE]) if passes else rng.choice([None, BLACK, WHITE])
        position = Position(size, frozenset(points[:nb]), frozenset(points[nb : nb + nw]), rng.choice([BLACK, WHITE]), passes, first_pass)
        if is_opening(position):
            continue
        count -= 1
        yield position, rng.choice([BLACK, WHITE]), rng.choice([0, 1, 2])


@pytest.mark.parametrize("backend", BACKENDS)
def test_reach_and_best_match_trying_everything(backend):
    for position, player, limit in random_positions(5, 30):
        fewest, best = by_trying_everything(position, player, limit)
        answer = reach_win(position, player, limit, backend)
        assert answer.answer == ("no" if fewest is None else "yes"), (position, player, limit)
        if fewest is not None:
            assert len(answer.stones) == fewest
            assert answer.final.verdict.winner == player
        assert reach_best(position, player, limit, backend).value == best


def test_tie_break_when_nobody_has_passed():
    # equal single stones, no edge: values [-1] against [-1]; a full tie
    position = Position(3, frozenset({(0, 0)}), frozenset({(1, 0)}), to_move=BLACK)
    # Black to move passes first by adding nothing, and takes the half point
    assert reach_win(position, BLACK, 0).answer == "yes"
    # White is not to move: Black passes first whatever White does with 0 stones
    assert reach_win(position, WHITE, 0).answer == "no"
    # with a stone White can make a second group of value -1: [-1, -1] beats [-1]
    answer = reach_win(position, WHITE, 1)
    assert answer.answer == "yes" and len(answer.stones) == 1
    assert answer.final.verdict.decided_by == "groups"


def test_best_grows_a_line_to_the_edge():
    # black [-1,0] [0,0] [1,0] on a size-3 board: two stones reach both edges: a 5-stone path
    position = Position(3, frozenset({(-1, 0), (0, 0), (1, 0)}), frozenset(), to_move=BLACK)
    answer = reach_best(position, BLACK, 2)
    assert answer.value == 5 and len(answer.stones) == 2
    assert all(position.lattice.is_edge(p) for p in answer.stones)
    assert set(answer.group.connection_part) == position.black | set(answer.stones)
    # one stone: joined to the line it makes one edge stone and no part (-4); the best is a
    # new lone stone elsewhere (-1), which beats the line as it stands (-3)
    assert reach_best(position, BLACK, 1).value == -1
    assert reach_best(position, BLACK, 0).value == -3


def test_opening_rules():
    with pytest.raises(InputError):
        reach_win(Position(3), WHITE, 2)
    answer = reach_win(Position(3), BLACK, 1)
    assert answer.answer == "yes" and len(answer.stones) == 1  # any stone beats no group
