"""The plain Laido rules: groups, connection parts, values, the winner, moves (no solver)."""

from __future__ import annotations

import itertools
import random

import pytest

from placesat.core.lattice import HexLattice
from placesat.laido.model import BLACK, PASS, SWAP, WHITE, Position, Record
from placesat.laido.rules import (
    IllegalMove,
    compare,
    connection_parts,
    edge_stones,
    finish_with,
    group_value,
    groups,
    is_connection_part,
    legal_moves,
    play,
    replay,
    shortest_connection_part,
    stones_available,
    value_by_search,
)

L4 = HexLattice(4)  # radius 3: edge points have max(|q|, |r|, |q+r|) = 3


def brute_force_parts(lattice, group):
    """Connection parts straight from the definition: inclusion-minimal connected subsets
    holding two edge stones (every subset tried; tiny groups only)."""
    group = sorted(group)

    def connected(subset):
        subset = set(subset)
        seen = {next(iter(subset))}
        stack = list(seen)
        while stack:
            p = stack.pop()
            for n in lattice.neighbours(p):
                if n in subset and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return seen == subset

    good = [
        frozenset(s)
        for k in range(2, len(group) + 1)
        for s in itertools.combinations(group, k)
        if sum(lattice.is_edge(p) for p in s) >= 2 and connected(s)
    ]
    return {s for s in good if not any(t < s for t in good)}


def test_groups_split_on_gaps_and_join_along_lines():
    stones = {(0, 0), (1, 0), (1, -1), (3, 0), (-3, 3)}
    found = groups(L4, stones)
    assert sorted(map(len, found)) == [1, 1, 3]
    assert frozenset({(0, 0), (1, 0), (1, -1)}) in found


def test_straight_line_is_its_own_connection_part():
    line = [(q, 0) for q in range(-3, 4)]
    assert is_connection_part(L4, line, line)
    assert group_value(line, line) == 7


def test_surplus_stone_making_a_triangle_costs_one():
    # (0,1) touches (0,0) and (1,0): the line stays the longest part; 2*7 - 8 = 6
    group = [(q, 0) for q in range(-3, 4)] + [(0, 1)]
    assert value_by_search(L4, group) == 6


def test_branch_longest_and_shortest_differ():
    # a line from [-3,0] to [3,0] with a branch from [0,0] up to the edge at [0,-3]
    group = [(q, 0) for q in range(-3, 4)] + [(0, -1), (0, -2), (0, -3)]
    assert len(edge_stones(L4, group)) == 3
    assert value_by_search(L4, group, "longest") == 2 * 7 - 10
    assert value_by_search(L4, group, "shortest") == 2 * 6 - 10
    # the way from [-3,0] to the top must cut the corner at [0,0] (a chord otherwise)
    corner = ((-3, 0), (-2, 0), (-1, 0), (0, 0), (0, -1), (0, -2), (0, -3))
    assert not is_connection_part(L4, group, corner)
    assert is_connection_part(L4, group, corner[:3] + corner[4:])


def test_single_and_pair_edge_stones():
    assert value_by_search(L4, [(3, 0)]) == -1  # one edge stone: no connection part
    assert value_by_search(L4, [(3, 0), (2, 0)]) == -2
    assert value_by_search(L4, [(3, 0), (3, -1)]) == 2  # two touching edge stones: a 2-stone part
    # an edge stone inside a path ends it: [3,-1] [3,0] [2,1] are all edge stones
    assert value_by_search(L4, [(3, -1), (3, 0), (2, 1)]) == 2 * 2 - 3
    assert not is_connection_part(L4, [(3, -1), (3, 0), (2, 1)], [(3, -1), (3, 0), (2, 1)])


def test_search_agrees_with_the_definition_on_random_small_groups():
    rng = random.Random(11)
    lattice = HexLattice(3)
    checked = 0
    for _ in range(150):
        stones = {p for p in lattice.points if rng.random() < 0.55}
        for group in groups(lattice, stones):
            if len(group) > 9:
                continue
            by_definition = brute_force_parts(lattice, group)
            by_search = {frozenset(p) for p in connection_parts(lattice, group)}
            assert by_search == by_definition
            for part in connection_parts(lattice, group):
                assert is_connection_part(lattice, group, part)
            shortest = shortest_connection_part(lattice, group)
            if by_definition:
                assert len(shortest) == min(map(len, by_definition))
            else:
                assert shortest is None
            checked += 1
    assert checked > 80


def test_compare_highest_first_then_down():
    assert compare([5, 3], [5, 2], BLACK).decided_by == "value"
    verdict = compare([5, 3], [5, 4], BLACK)
    assert (verdict.winner, verdict.rank, verdict.black, verdict.white) == (WHITE, 2, 3, 4)
    # order of input does not matter: values are sorted from highest
    assert compare([-1, 7], [7, -2], WHITE).winner == BLACK


def test_running_out_of_groups_loses():
    verdict = compare([4, -3], [4], WHITE)
    assert (verdict.winner, verdict.decided_by, verdict.rank) == (BLACK, "groups", 2)
    assert compare([], [-9], BLACK).winner == WHITE


def test_full_tie_goes_to_the_first_to_pass():
    assert compare([2, 1], [1, 2], WHITE).winner == WHITE
    assert compare([], [], BLACK).decided_by == "half point"


def test_moves_pass_and_pie_rule():
    start = Position(4)
    assert PASS not in legal_moves(start)
    with pytest.raises(IllegalMove):
        play(start, PASS)
    one = play(start, (0, 0))
    assert SWAP in legal_moves(one)
    swapped = play(one, SWAP)
    assert swapped.to_move == WHITE and swapped.swapped and swapped.black == one.black
    with pytest.raises(IllegalMove):
        play(swapped, SWAP)
    with pytest.raises(IllegalMove):
        play(swapped, (0, 0))  # occupied
    two = play(swapped, (1, 0))
    assert SWAP not in legal_moves(two)
    p1 = play(two, PASS)
    assert (p1.passes, p1.first_pass) == (1, BLACK)
    p2 = play(p1, (2, 0))
    assert (p2.passes, p2.first_pass) == (0, BLACK)  # the first pass of the game stays recorded
    end = play(play(p2, PASS), PASS)
    assert end.is_over and legal_moves(end) == []
    with pytest.raises(IllegalMove):
        play(end, (3, 0))


def test_replay_names_the_bad_move():
    with pytest.raises(IllegalMove, match=r"moves\[2\]"):
        replay(Record(4, ((0, 0), (1, 0), SWAP)))
    positions = replay(Record(4, ((0, 0), PASS, PASS)))
    assert positions[-1].is_over and positions[-1].first_pass == WHITE


def test_one_sided_continuation():
    position = Position(4, frozenset({(0, 0)}), frozenset({(1, 0)}), to_move=WHITE)
    moves, final = finish_with(position, BLACK, [(2, 0), (3, 0)])
    assert moves == [PASS, (2, 0), PASS, (3, 0), PASS, PASS]
    assert final.is_over and final.first_pass == WHITE
    # the other side to move after the player passed: its pass ends the game at once
    waiting = Position(4, to_move=WHITE, passes=1, first_pass=BLACK, black=frozenset({(0, 0)}))
    assert stones_available(waiting, BLACK, 3) == 0
    with pytest.raises(IllegalMove):
        finish_with(waiting, BLACK, [(1, 1)])
