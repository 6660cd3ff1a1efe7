"""The sweep (solver.laido.sweep) against exhaustive search, the solver, and known solid boards."""

from __future__ import annotations

import random

import pytest

from placesat.core.backend import Status
from placesat.core.lattice import HexLattice
from placesat.laido.model import BLACK, WHITE, Position
from placesat.laido.rules import best_connection_part_by_search, groups, is_connection_part
from placesat.laido.score import best_connection_part, score_position
from placesat.laido.sweep import NO_LIMITS, WIDEST_TWO, SweepLimits, TooManyStates, longest_connection_part, plan_sweep


def _solid(lattice: HexLattice, keep) -> frozenset:
    return frozenset(p for p in lattice.points if keep(p))


def _check_against_search(lattice: HexLattice, group: frozenset, plan=None) -> None:
    """The sweep's part of ``group`` (along ``plan``, or the best plan) is a connection part
    as long as the exhaustive search's longest, or both find none."""
    expected = best_connection_part_by_search(lattice, group)
    found = longest_connection_part(lattice, group, plan=plan)
    assert (expected is None) == (found is None), sorted(group)
    if found is not None:
        assert len(found) == len(expected), sorted(group)
        assert is_connection_part(lattice, group, found)


def test_sweep_matches_exhaustive_search_on_random_and_solid_groups():
    """Random fills, up to completely solid regions (fill 1.0) of small boards."""
    rng = random.Random(2025)
    compared = solid = 0
    for _ in range(160):
        lattice = HexLattice(rng.choice([3, 4, 5]))
        fill = rng.choice([0.55, 0.7, 0.85, 1.0])
        stones = {p for p in lattice.points if rng.random() < fill}
        for group in groups(lattice, stones):
            if len(group) > 22:
                continue
            _check_against_search(lattice, group)
            compared += 1
            solid += fill == 1.0
    assert compared > 120 and solid >= 5


@pytest.mark.parametrize("side", [3, 4])
@pytest.mark.parametrize("shape", ["half", "third", "whole"])
def test_small_solid_regions_by_brute_force(side, shape):
    """Solid halves, a solid wedge and the whole board: the sweep's length is the exhaustive one."""
    lattice = HexLattice(side)
    keep = {"half": lambda p: p[1] < 0, "third": lambda p: p[0] >= 0 and p[1] <= 0, "whole": lambda p: True}[shape]
    region = _solid(lattice, keep)
    expected = best_connection_part_by_search(lattice, region)
    found = longest_connection_part(lattice, region)
    assert len(found) == len(expected)
    assert is_connection_part(lattice, region, found)


@pytest.mark.parametrize("turns", range(6))
def test_every_sweep_direction_matches_exhaustive_search(turns):
    """The frontier read along the sweep line keeps open piece ends as nested pairs in any of
    the six directions, on groups with holes and gaps in their lines too."""
    rng = random.Random(40 + turns)
    compared = 0
    for _ in range(60):
        lattice = HexLattice(rng.choice([4, 5]))
        fill = rng.choice([0.45, 0.55, 0.65])
        stones = {p for p in lattice.points if rng.random() < fill}
        for group in groups(lattice, stones):
            if not 6 <= len(group) <= 22:
                continue
            _check_against_search(lattice, group, plan_sweep(lattice, group, turns))
            compared += 1
    assert compared > 30


@pytest.mark.parametrize("turns", range(6))
def test_solid_blocks_with_few_holes_match_exhaustive_search_in_every_direction(turns):
    """Blocks cut from a 6-side board (a window of 4 to 5 lines, a few points missing), where
    many states differ only in which points are DONE and the merge drops most of them: the
    sweep's longest part is the exhaustive one, swept in each direction."""
    rng = random.Random(90 + turns)
    lattice = HexLattice(6)
    compared = 0
    while compared < 12:
        q0, r0 = rng.randint(-5, 1), rng.randint(-5, 1)
        wide, high = rng.randint(4, 5), rng.randint(4, 5)
        block = {(q, r) for (q, r) in lattice.points if q0 <= q < q0 + wide and r0 <= r < r0 + high}
        stones = {p for p in block if rng.random() < 0.9}
        for group in groups(lattice, stones):
            if not 10 <= len(group) <= 22:
                continue
            _check_against_search(lattice, group, plan_sweep(lattice, group, turns))
            compared += 1


def test_halves_board_exact_values():
    """The 9-side board in two solid halves (Black r < 0: 100 stones, White r >= 0: 117): Black's
    longest part has 46 stones (value -8), White's 54 (value -9), as the solver proves too."""
    lattice = HexLattice(9)
    black = _solid(lattice, lambda p: p[1] < 0)
    white = frozenset(lattice.points) - black
    position = Position(9, black, white, passes=2, first_pass=WHITE)
    score = score_position(position)
    assert score.status is Status.SAT
    (b,) = score.groups[BLACK]
    (w,) = score.groups[WHITE]
    assert (len(b.stones), len(b.connection_part), b.value) == (100, 46, -8)
    assert (len(w.stones), len(w.connection_part), w.value) == (117, 54, -9)
    assert score.verdict.winner == BLACK


@pytest.mark.slow
def test_sweep_and_solver_agree_on_a_7_side_half():
    lattice = HexLattice(7)
    region = _solid(lattice, lambda p: p[1] >= 0)
    _, by_solver = best_connection_part(lattice, region, method="solver")
    _, by_sweep = best_connection_part(lattice, region, method="sweep")
    assert len(by_solver) == len(by_sweep) == 32


def _kept(stones_of: dict[int, int]) -> set[int]:
    """The states :func:`placesat.laido.sweep._merge` keeps of these (state: stones), each
    offered twice (once with a stone less) to check that equal states merge on the most."""
    import numpy as np

    from placesat.laido.sweep import _merge, _WorkArrays
    from placesat.laido.sweep_frontier import STONES

    codes = [state for state in stones_of for _ in range(2)]
    trails = [(stones_of[state] - k) << STONES for state in stones_of for k in range(2)]
    kept_codes, kept_trails = _merge(np.array(codes, np.int64), np.array(trails, np.int64), _WorkArrays())
    assert sorted(int(t) >> STONES for t in kept_trails) == sorted(stones_of[int(c)] for c in kept_codes)
    return {int(c) for c in kept_codes}


def _state(*codes: int) -> int:
    from placesat.laido.sweep_frontier import BITS

    return sum(code << (BITS * slot) for slot, code in enumerate(codes))


def test_a_state_with_a_done_point_gives_way_to_the_same_state_with_it_off():
    """(DONE, OFF) goes when (OFF, OFF) has as many stones; (HALF, DONE) stays when (HALF, OFF)
    has fewer."""
    from placesat.laido.sweep_frontier import DONE, HALF, OFF

    stones = {_state(OFF, OFF): 3, _state(DONE, OFF): 3, _state(HALF, DONE): 5, _state(HALF, OFF): 4}
    assert _kept(stones) == {_state(OFF, OFF), _state(HALF, DONE), _state(HALF, OFF)}
    stones[_state(HALF, OFF)] = 5
    assert _kept(stones) == {_state(OFF, OFF), _state(HALF, OFF)}


def test_a_state_gives_way_to_the_same_state_with_any_of_its_done_points_off():
    """(DONE, DONE, DONE) goes when the same state with all, one or two of them off has as
    many stones, and stays when each such state there has fewer; states that differ in a point
    that is not DONE (HALF against OFF) never compare."""
    from placesat.laido.sweep_frontier import DONE, HALF, OFF

    full = _state(DONE, DONE, DONE)
    for lighter in (_state(OFF, OFF, OFF), _state(DONE, OFF, DONE), _state(OFF, DONE, OFF), _state(DONE, DONE, OFF)):
        assert _kept({full: 6, lighter: 6}) == {lighter}
        assert _kept({full: 6, lighter: 5}) == {full, lighter}
    # not a subset: (DONE, OFF, OFF) and (OFF, DONE, OFF) both stay
    assert _kept({_state(DONE, OFF, OFF): 6, _state(OFF, DONE, OFF): 6}) == {_state(DONE, OFF, OFF), _state(OFF, DONE, OFF)}
    assert _kept({_state(DONE, HALF, OFF): 3, _state(OFF, OFF, OFF): 9}) == {_state(DONE, HALF, OFF), _state(OFF, OFF, OFF)}
    # a chain: (OFF, OFF) beats (DONE, OFF), which would beat (DONE, DONE): both go
    assert _kept({_state(OFF, OFF): 4, _state(DONE, OFF): 4, _state(DONE, DONE): 4}) == {_state(OFF, OFF)}


def test_merging_many_random_states_keeps_exactly_the_undominated_ones():
    """Thousands of random states (several buckets): what is kept is what the definition
    keeps, checked pair by pair."""
    from placesat.laido.sweep_frontier import BITS, CODE, DONE

    rng = random.Random(5)
    stones = {}
    for _ in range(6000):
        codes = [rng.choice([0, 0, 1, 1, 1, 2, 4, 5]) for _ in range(7)]
        stones[_state(*codes)] = rng.randint(0, 4)

    def done(state):
        return {s for s in range(7) if (state >> (BITS * s)) & CODE == DONE}

    def beaten(state):
        mine = done(state)
        for other, value in stones.items():
            theirs = done(other)
            if other != state and theirs < mine and value >= stones[state]:
                if other + sum(DONE << (BITS * s) for s in mine - theirs) == state:
                    return True
        return False

    sample = rng.sample(sorted(stones), 300)
    kept = _kept(stones)
    assert any(beaten(s) for s in sample) and not all(beaten(s) for s in sample)
    for state in sample:
        assert (state in kept) != beaten(state)


@pytest.mark.parametrize(
    "limits", [SweepLimits(50, None, None), SweepLimits(None, 1000, None), SweepLimits(None, None, 1e4)]
)
def test_each_limit_stops_the_sweep(limits):
    """Past the states of a step, the states kept, or the work the plan expects (the whole
    7-side board: its plan expects about 1e6)."""
    lattice = HexLattice(7)
    assert plan_sweep(lattice, lattice.points).cost > 1e5
    with pytest.raises(TooManyStates):
        longest_connection_part(lattice, lattice.points, limits)
    assert longest_connection_part(HexLattice(3), HexLattice(3).points, limits) is not None


def test_a_frontier_too_wide_to_pack_is_refused_at_once():
    """Past two words a state (the 22-side board: a frontier of 44), before any work."""
    lattice = HexLattice(22)
    assert plan_sweep(lattice, lattice.points).widest > WIDEST_TWO
    with pytest.raises(TooManyStates):
        longest_connection_part(lattice, lattice.points, NO_LIMITS)


def test_eleven_side_halves_exact_values():
    """The 11-side board in two solid halves (Black r < 0: 155 stones, White 176): parts of 72
    and 82 stones, values -11 and -12 (the values the earlier sweep, with its bounds, proved;
    the solver does not finish here)."""
    lattice = HexLattice(11)
    black = _solid(lattice, lambda p: p[1] < 0)
    position = Position(11, black, frozenset(lattice.points) - black, passes=2, first_pass=WHITE)
    score = score_position(position)
    (b,) = score.groups[BLACK]
    (w,) = score.groups[WHITE]
    assert (len(b.stones), len(b.connection_part), b.value) == (155, 72, -11)
    assert (len(w.stones), len(w.connection_part), w.value) == (176, 82, -12)


def _dominant(side: int, share: float, seed: int) -> Position:
    """A full board, Black on about ``share`` of the points at random: one wide Black group."""
    lattice = HexLattice(side)
    rng = random.Random(seed)
    black = frozenset(p for p in lattice.points if rng.random() < share)
    return Position(side, black, frozenset(lattice.points) - black, passes=2, first_pass=WHITE)


@pytest.mark.parametrize("side", [6, 7])
def test_a_board_one_colour_nearly_fills_scores_as_the_solver_proves(side):
    """Black on nine tenths of a full board (one group as wide as the board, with a few
    holes): the sweep's values are the solver's (which proves its part longest) on every group."""
    position = _dominant(side, 0.9, 1)
    biggest = max(groups(position.lattice, position.black), key=len)
    assert len(biggest) > 0.8 * len(position.lattice.points)
    by_sweep = score_position(position)
    by_solver = score_position(position, method="solver")
    assert by_sweep.status is by_solver.status is Status.SAT
    for colour in (BLACK, WHITE):
        assert by_sweep.values(colour) == by_solver.values(colour)
