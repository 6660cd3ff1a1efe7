"""Scoring by solver, checked against exhaustive search and hand-worked positions."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from placesat.core.backend import BACKENDS, Status
from placesat.core.lattice import HexLattice
from placesat.laido.encode import cycle_cuts, encode_connection_part
from placesat.laido.model import BLACK, WHITE, Position, load_game
from placesat.laido.rules import group_value, groups, is_connection_part, value_by_search
from placesat.laido.score import best_connection_part, score_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"


@pytest.mark.parametrize("backend", BACKENDS)
def test_hand_position(backend):
    score = score_position(load_game(str(GRIDS / "hand.json")), backend=backend)
    assert score.values(BLACK) == [6]  # the 7-stone line, one surplus stone
    assert score.values(WHITE) == [2, -3]  # two touching edge stones; three stones with one edge stone
    assert (score.verdict.winner, score.verdict.decided_by, score.verdict.rank) == (BLACK, "value", 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_branch_readings(backend):
    position = load_game(str(GRIDS / "branch.json"))
    longest = score_position(position, "longest", backend)
    shortest = score_position(position, "shortest", backend)
    assert longest.values(BLACK) == [4] and shortest.values(BLACK) == [2]
    (group,) = longest.groups[BLACK]
    assert len(group.connection_part) == 7
    assert is_connection_part(position.lattice, group.stones, group.connection_part)


def test_solver_matches_search_on_random_groups():
    """Every group of random small boards: solver value == exhaustive value, both readings and backends."""
    rng = random.Random(2024)
    compared = 0
    for _ in range(100):
        lattice = HexLattice(rng.choice([4, 5]))
        stones = {p for p in lattice.points if rng.random() < rng.choice([0.55, 0.7, 0.85])}
        for group in groups(lattice, stones):
            if len(group) > 20:
                continue
            for reading in ("longest", "shortest"):
                expected = value_by_search(lattice, group, reading)
                for backend in BACKENDS:
                    status, part = best_connection_part(lattice, group, reading, backend, method="solver")
                    assert status is Status.SAT
                    assert group_value(group, part) == expected, (sorted(group), reading, backend)
                    if part:
                        assert is_connection_part(lattice, group, part)
                    compared += 1
    assert compared > 200


RING = [(-1, 0), (-1, 1), (0, 1), (1, 1), (2, 0), (2, -1), (1, -1), (0, -1)]  # around [0,0] and [1,0]
STEM = [(3, -2), (4, -3), (4, -4)]  # from the ring to two touching edge stones


@pytest.mark.parametrize("backend", BACKENDS)
def test_separate_ring_is_cut_off(backend):
    """The local rules admit the edge pair plus the 8-stone ring (each ring stone has two ring
    neighbours): "value" 2*10 - 11. The only real connection part is the edge pair: 2*2 - 11."""
    lattice = HexLattice(5)
    group = frozenset(RING + STEM)
    encoding = encode_connection_part(lattice, group)
    spurious = RING + [(4, -3), (4, -4)]
    assert len(cycle_cuts(lattice, encoding.on_path, spurious)) == len(RING)
    assert cycle_cuts(lattice, encoding.on_path, [(4, -3), (4, -4)]) == []
    status, part = best_connection_part(lattice, group, "longest", backend, method="solver")
    assert sorted(part) == [(4, -4), (4, -3)]
    assert group_value(group, part) == -7 == value_by_search(lattice, group)


def test_big_group_both_backends_agree():
    """A finished 9-side board (random fill): both backends give the same values."""
    rng = random.Random(3)
    lattice = HexLattice(9)
    points = list(lattice.points)
    rng.shuffle(points)
    position = Position(9, frozenset(points[:108]), frozenset(points[108:]), passes=2, first_pass=WHITE)
    scores = [score_position(position, backend=b, method="solver") for b in BACKENDS] + [score_position(position, method="sweep")]
    for other in scores[1:]:
        assert scores[0].values(BLACK) == other.values(BLACK)
        assert scores[0].values(WHITE) == other.values(WHITE)
        assert scores[0].verdict == other.verdict
    for group in scores[0].groups[BLACK] + scores[0].groups[WHITE]:
        if group.connection_part:
            assert is_connection_part(lattice, group.stones, group.connection_part)


def test_a_group_too_open_for_the_sweep_goes_to_the_solver(monkeypatch):
    """When the sweep gives up (too many states), score asks the solver: same values."""
    score_module = importlib.import_module("placesat.laido.score")  # placesat.laido.score is the call
    import placesat.laido.sweep as sweep

    lattice = HexLattice(5)
    rng = random.Random(8)
    points = list(lattice.points)
    rng.shuffle(points)
    position = Position(5, frozenset(points[:45]), frozenset(points[45:]), passes=2, first_pass=WHITE)
    monkeypatch.setattr(score_module, "SWEEP_FROM", 0.0)  # every group to the sweep first
    by_sweep = score_position(position)
    monkeypatch.setattr(sweep, "DEFAULT_LIMITS", sweep.SweepLimits(states=1))
    asked = []
    plain = score_module.encode_connection_part
    monkeypatch.setattr(score_module, "encode_connection_part", lambda *a, **k: asked.append(1) or plain(*a, **k))
    by_solver = score_position(position)
    assert asked
    assert by_solver.values(BLACK) == by_sweep.values(BLACK) and by_solver.values(WHITE) == by_sweep.values(WHITE)


def test_small_groups_go_to_the_solver_and_spare_loading_the_sweep(monkeypatch):
    """A group whose sweep plan is cheap is scored by the solver (loading the sweep's kernels
    would cost more); a large one by the sweep. Same values either way."""
    score_module = importlib.import_module("placesat.laido.score")  # placesat.laido.score is the call
    import placesat.laido.sweep as sweep

    swept = []
    plain = sweep.longest_connection_part
    monkeypatch.setattr(sweep, "longest_connection_part", lambda lattice, group, *a: swept.append(len(group)) or plain(lattice, group, *a))
    position = load_game(str(GRIDS / "full9-1.json"))
    score = score_position(position)
    assert swept == []
    lattice = position.lattice
    for group in score.groups[BLACK] + score.groups[WHITE]:
        assert group.value == value_by_sweep(lattice, group.stones)
    swept.clear()
    half = frozenset(p for p in HexLattice(7).points if p[1] >= 0)
    assert sweep.plan_sweep(HexLattice(7), half).cost >= score_module.SWEEP_FROM
    status, part = best_connection_part(HexLattice(7), half)
    assert swept == [len(half)] and len(part) == 32


def value_by_sweep(lattice, group):
    """A group's value with its longest part found by the sweep."""
    _, part = best_connection_part(lattice, group, method="sweep")
    return group_value(group, part)


def test_time_limit_gives_unknown_not_a_guess():
    lattice = HexLattice(9)
    solid = frozenset(p for p in lattice.points if p[0] < 0)
    position = Position(9, solid, frozenset(lattice.points) - solid, passes=2, first_pass=WHITE)
    for backend in BACKENDS:
        score = score_position(position, backend=backend, time_limit=0.2, method="solver")
        assert score.status is Status.UNKNOWN and score.verdict is None
    score = score_position(position, time_limit=0.01, method="sweep")
    assert score.status is Status.UNKNOWN and score.verdict is None


def test_ranked_encoding_matches_search(monkeypatch):
    """Groups built around a 3-point hole (a ring the up-front cuts do not cover): switching to
    ranks at the first ring found gives the exhaustive search's values, on both backends."""
    score_module = importlib.import_module("placesat.laido.score")  # placesat.laido.score is the call

    ranked_calls = []
    plain = score_module.encode_connection_part

    def spy(lattice, group, ranked=False):
        ranked_calls.append(ranked)
        return plain(lattice, group, ranked)

    monkeypatch.setattr(score_module, "RANK_AFTER_ROUNDS", 1)
    monkeypatch.setattr(score_module, "encode_connection_part", spy)
    lattice = HexLattice(5)
    hole = {(0, 0), (1, 0), (0, 1)}
    ring = {n for p in hole for n in lattice.neighbours(p)} - hole
    rng = random.Random(77)
    for _ in range(12):
        extra = {p for p in lattice.points if p not in hole and rng.random() < 0.25}
        stones = ring | extra | {(4, -4), (3, -3), (2, -2), (-4, 4), (-3, 3), (-2, 2)}
        for group in groups(lattice, stones):
            if len(group) > 24:
                continue
            expected = value_by_search(lattice, group)
            for backend in BACKENDS:
                status, part = best_connection_part(lattice, group, "longest", backend, method="solver")
                assert group_value(group, part) == expected
    assert any(ranked_calls)
