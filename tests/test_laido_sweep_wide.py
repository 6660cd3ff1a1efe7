"""States of two words (solver.laido.sweep, frontiers wider than WIDEST): the same parts as
states of one word, as exhaustive search, and as a narrow sweep of the same group; the
word-crossing steps against a plain model of the frontier."""

from __future__ import annotations

import random

from placesat.core.backend import Status
from placesat.core.lattice import HexLattice
from placesat.laido import sweep_kernels
from placesat.laido.model import BLACK, WHITE, Position
from placesat.laido.rules import best_connection_part_by_search, groups, is_connection_part
from placesat.laido.score import score_position
from placesat.laido.sweep import BOUND_FROM, NO_LIMITS, WIDEST, WIDEST_TWO, WORD, longest_connection_part, plan_sweep
from placesat.laido.sweep_frontier import ALONE, BITS, CODE, DONE, HALF

# (the compiled kernels against their Python definition, states of two words too:
# tests/test_laido_sweep_kernels.py)


def test_two_words_find_what_one_word_and_exhaustive_search_find():
    """Random groups of small boards, and the whole 7-side board (past BOUND_FROM: the bound
    and the quick sweeps), forced to two words a state: the same parts as one word, as long
    as exhaustive search's longest on the small ones."""
    rng = random.Random(7)
    compared = 0
    for _ in range(30):
        lattice = HexLattice(rng.choice([3, 4]))
        stones = [p for p in lattice.points if rng.random() < rng.choice([0.6, 0.8, 1.0])]
        for group in groups(lattice, stones):
            one = longest_connection_part(lattice, group, NO_LIMITS, words=1)
            two = longest_connection_part(lattice, group, NO_LIMITS, words=2)
            assert one == two, sorted(group)
            expected = best_connection_part_by_search(lattice, group)
            assert (two is None) == (expected is None)
            if two is not None:
                assert len(two) == len(expected) and is_connection_part(lattice, group, two)
                compared += 1
    assert compared > 20
    whole = HexLattice(7)
    assert plan_sweep(whole, whole.points).cost >= BOUND_FROM
    one = longest_connection_part(whole, whole.points, NO_LIMITS, words=1)
    assert longest_connection_part(whole, whole.points, NO_LIMITS, words=2) == one and len(one) > 30


def _band(side: int, rows: tuple[int, ...], fill: float, seed: int) -> tuple[HexLattice, frozenset]:
    """The board's points on ``rows`` (lines of constant r), about ``fill`` of them at random:
    the largest group."""
    lattice = HexLattice(side)
    rng = random.Random(seed)
    stones = [p for p in lattice.points if p[1] in rows and rng.random() < fill]
    return lattice, max(groups(lattice, stones), key=len)


def test_a_frontier_past_one_word_finds_what_a_narrow_sweep_finds():
    """Bands two or three lines high through the 13-side board, with holes: swept along their
    lines (a frontier of 22 to 26 points: two words, the second word in use) and across them
    (a frontier of 2 to 4: one word), the longest parts are as long."""
    cases = [(13, (0, 1), 1.0, 1), (13, (0, 1, 2), 0.92, 2), (13, (-1, 0, 1), 0.95, 3), (13, (1, 2), 0.9, 4),
             (12, (-2, -1, 0), 1.0, 5)]
    widths = []
    for side, rows, fill, seed in cases:
        lattice, group = _band(side, rows, fill, seed)
        along = min((plan_sweep(lattice, group, turns) for turns in range(6)), key=lambda plan: -plan.widest)
        across = plan_sweep(lattice, group)
        assert across.widest <= 4 < WIDEST < along.widest <= WIDEST_TWO
        widths.append(along.widest)
        narrow = longest_connection_part(lattice, group, NO_LIMITS, plan=across)
        wide = longest_connection_part(lattice, group, NO_LIMITS, plan=along)
        assert (narrow is None) == (wide is None)
        if wide is not None:
            assert len(wide) == len(narrow) and is_connection_part(lattice, group, wide), (side, rows, seed)
    assert max(widths) >= 25


# The steps that cross from one word to the other, as Python runs them (the kernels' Python
# definition), against a frontier kept as a list of codes.


def _python(name: str):
    return getattr(sweep_kernels, name)


def _words(codes: list[int]) -> tuple[int, int]:
    value = sum(code << (BITS * slot) for slot, code in enumerate(codes))
    return value & ((1 << (BITS * WORD)) - 1), value >> (BITS * WORD)


def _codes(state: tuple[int, int], width: int) -> list[int]:
    value = int(state[0]) | int(state[1]) << (BITS * WORD)
    return [(value >> (BITS * slot)) & CODE for slot in range(width)]


def test_the_word_crossing_steps_move_each_slot_where_the_frontier_says():
    """Putting in a slot for the point visited, taking out a leaving slot, setting and reading
    a slot, and marking the DONE, HALF and ALONE slots, at every place of frontiers up to 41
    slots: the codes are those of the list."""
    rng = random.Random(3)
    grown, removed, put, code, marks, count = (
        _python(name) for name in ("_grown", "_removed", "_put", "_code", "_marks", "_count")
    )
    for _ in range(300):
        width = rng.randint(1, WIDEST_TWO)
        codes = [rng.randrange(6) for _ in range(width)]
        state = _words(codes)
        assert [code(state, s) for s in range(width)] == codes
        me = rng.randint(0, width)
        assert _codes(grown(state, me), width + 1) == codes[:me] + [0] + codes[me:]
        s = rng.randrange(width)
        assert _codes(removed(state, s), width - 1) == codes[:s] + codes[s + 1:]
        assert _codes(put(state, s, 5), width) == codes[:s] + [5] + codes[s + 1:]
        for which in (DONE, HALF, ALONE):
            mark = marks(state, which)
            assert _codes(mark, width) == [int(c == which) for c in codes]
            assert count(mark) == codes.count(which)
        assert all(0 <= word < 1 << 63 for word in grown(state, me) + removed(state, s))


def _near_full(side: int, holes: int) -> Position:
    """Black on every point but ``holes`` scattered ones (White's), as in the benchmark."""
    lattice = HexLattice(side)
    white = frozenset(random.Random(1).sample(sorted(lattice.points), holes))
    return Position(side, frozenset(lattice.points) - white, white, passes=2, first_pass=WHITE)


def test_the_eleven_side_board_nearly_all_black_is_scored_and_agrees_along_three_directions():
    """Issue 15's miss: the 11-side board all Black but five White stones (a 326-stone group,
    a frontier of 21: two words) is scored by the sweep under the default limits, not left
    to the solver (which does not finish it), and sweeps along three different directions
    (different states all the way) find parts as long."""
    position = _near_full(11, 5)
    lattice = position.lattice
    (group,) = [g for g in groups(lattice, position.black) if len(g) > 300]
    score = score_position(position, time_limit=60)
    assert score.status is Status.SAT
    (longest,) = [g for g in score.groups[BLACK] if len(g.stones) > 300]
    lengths = set()
    for turns in (2, 3, 4):
        plan = plan_sweep(lattice, group, turns)
        assert WIDEST < plan.widest <= WIDEST_TWO
        part = longest_connection_part(lattice, group, NO_LIMITS, plan=plan)
        assert is_connection_part(lattice, group, part)
        lengths.add(len(part))
    assert lengths == {len(longest.connection_part)} == {150}
