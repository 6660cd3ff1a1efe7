"""Solution counts against the independent brute-force enumerator, and the two backends against each other."""

import importlib
import random

import pytest

from placesat.lixso.model import Grid
from placesat.lixso.rules import find_violation
from placesat.lixso.solve import LixsoSolver, Verdict, solve_grid

from .lixso_bruteforce import solutions as brute_solutions


def empty(height: int, width: int) -> Grid:
    return Grid(("." * width,) * height)


def all_solutions(grid: Grid, backend: str, per_colour=None) -> set[tuple[str, ...]]:
    report = solve_grid(grid, backend, max_solutions=None, per_colour=per_colour)
    return set(report.solutions)


@pytest.mark.parametrize("height, width", [(2, 3), (3, 2), (3, 3), (3, 4), (2, 6), (3, 6), (6, 3)])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_counts_on_empty_grids_match_brute_force(height, width, backend):
    expected = brute_solutions(["." * width] * height)
    assert all_solutions(empty(height, width), backend) == expected


def test_brute_force_knows_small_facts():
    # 2x3: two tilings (two mirror-image pairs of Ls), each tile any colour but not the
    # other's (they touch): 2 tilings * 4 * 3 colourings, cap ceil(2/4) = 1 is no further limit
    assert len(brute_solutions(["...", "..."])) == 2 * 4 * 3
    # 3x3 has no tiling by L-trominoes at all
    assert brute_solutions(["..."] * 3) == set()


def test_6x6_with_clues_matches_brute_force():
    rows = ["I.....", "......", "..X...", "......", "....S.", "O....."]
    expected = brute_solutions(rows)
    for backend in ("sat", "cpsat"):
        assert all_solutions(Grid(tuple(rows)), backend) == expected
    assert expected  # the clues were chosen to leave solutions


def test_per_colour_override_matches_brute_force():
    for cap in (1, 2, 3):
        assert all_solutions(empty(3, 6), "sat", per_colour=cap) == brute_solutions(["......"] * 3, cap)


def random_grid(rng: random.Random, height: int, width: int, clues: int) -> Grid:
    cells = [[".."[0]] * width for _ in range(height)]
    for _ in range(clues):
        cells[rng.randrange(height)][rng.randrange(width)] = rng.choice("IXSO")
    return Grid(tuple("".join(row) for row in cells))


@pytest.mark.parametrize("seed", range(30))
def test_backends_agree_on_random_small_grids(seed):
    rng = random.Random(seed)
    height, width = rng.choice([(3, 6), (6, 3), (6, 6), (3, 9), (6, 6)])
    grid = random_grid(rng, height, width, rng.randint(2, 8))
    limit = 300
    sat = solve_grid(grid, "sat", max_solutions=limit)
    cpsat = solve_grid(grid, "cpsat", max_solutions=limit)
    assert sat.status == cpsat.status
    assert len(sat.solutions) == len(cpsat.solutions)
    if len(sat.solutions) < limit:  # both enumerations ran to the end
        assert set(sat.solutions) == set(cpsat.solutions)
    if height * width <= 18:
        assert set(sat.solutions) == brute_solutions(list(grid.rows))


def test_statuses():
    # 3x3 cannot be tiled
    assert solve_grid(empty(3, 3)).status is Verdict.UNSOLVABLE
    # two touching clues of one colour that cannot share a tile (a knight's move apart is
    # fine, but r1c1 and r2c3 in a 2x3 grid can only be one tile if ... they cannot)
    assert solve_grid(Grid(("I..", "..I"))).status is Verdict.UNSOLVABLE
    assert solve_grid(empty(2, 3)).status is Verdict.MULTIPLE
    report = solve_grid(Grid(("IIX", "IXX")))
    assert report.status is Verdict.UNIQUE and report.solutions == [("IIX", "IXX")]


def test_max_solutions_limits_what_is_returned():
    report = solve_grid(empty(2, 3), max_solutions=5)
    assert report.status is Verdict.MULTIPLE and len(report.solutions) == 5
    report = solve_grid(empty(2, 3), max_solutions=1)
    assert report.status is Verdict.MULTIPLE and len(report.solutions) == 1


def test_one_solver_serves_a_sequence_of_grids_without_leaking_blocks():
    solver = LixsoSolver()
    grid = Grid(("I.....", "......", "......"))
    first = solver.solve(grid, max_solutions=None)
    # solving another grid of the same size, then the first again, gives the same answer
    solver.solve(Grid(("X.....", "......", "......")))
    again = solver.solve(grid, max_solutions=None)
    assert set(first.solutions) == set(again.solutions) == brute_solutions(list(grid.rows))


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_time_limit_gives_unknown_not_a_guess(backend):
    report = solve_grid(Grid(("I.....",) + ("......",) * 5), backend, time_limit=0.0)
    assert report.status is Verdict.UNKNOWN


def test_every_reported_solution_passes_the_rule_checker():
    grid = Grid(("O.....", "......", "...S..", "......", "......", "......"))
    for backend in ("sat", "cpsat"):
        report = solve_grid(grid, backend, max_solutions=20)
        assert report.solutions
        for solution in report.solutions:
            assert find_violation(grid, solution) is None


def test_a_solver_that_failed_mid_call_is_never_trusted_again(monkeypatch):
    from placesat.core.backend import SatBackend, SolverInterrupted

    solver = LixsoSolver()
    grid = Grid(("IIX", "IXX"))
    backend = solver.compiled(grid).backend

    def interrupted(*args, **kwargs):
        raise RuntimeError("Caught keyboard interrupt")

    monkeypatch.setattr(backend, "_limited_solve", interrupted)
    with pytest.raises(SolverInterrupted):
        solver.solve(grid)
    with pytest.raises(SolverInterrupted):  # the broken solver refuses every later call
        SatBackend.solve(backend, [])
    # the grid solver made itself a new one
    assert solver.solve(grid).status is Verdict.UNIQUE


@pytest.mark.parametrize("large_grid_cells", [0, 10_000])
def test_both_sat_solvers_match_brute_force(monkeypatch, large_grid_cells):
    # small grids go to MiniCard (native cardinality), large ones to Glucose: make each size
    # take the other path too, so that both solvers are checked against brute force here
    lixso_solve = importlib.import_module("placesat.lixso.solve")

    monkeypatch.setattr(lixso_solve, "LARGE_GRID_CELLS", large_grid_cells)
    for rows in (["......"] * 3, ["I.....", "......", "..X...", "......", "....S.", "O....."]):
        assert all_solutions(Grid(tuple(rows)), "sat") == brute_solutions(rows)


@pytest.mark.parametrize("tiling_cells", [0, 10_000])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_with_and_without_the_tiling_family_the_solutions_match_brute_force(monkeypatch, tiling_cells, backend):
    # small grids are solved with the "tiling" family, large ones without: make each size take
    # the other path too, so that both templates are checked against brute force here
    lixso_solve = importlib.import_module("placesat.lixso.solve")

    monkeypatch.setattr(lixso_solve, "TILING_CELLS", tiling_cells)
    for rows in (["......"] * 3, ["." * 4] * 3, ["I.....", "......", "..X...", "......", "....S.", "O....."]):
        assert all_solutions(Grid(tuple(rows)), backend) == brute_solutions(rows)
    rng = random.Random(5)
    for _ in range(6):
        grid = random_grid(rng, 3, 6, rng.randint(1, 4))
        assert all_solutions(grid, backend) == brute_solutions(list(grid.rows)), grid.rows


def test_the_tiling_family_is_the_solvers_alone():
    # the grading levels propagate over the deducer's template (seeds/lixso.md): it must not
    # gain the solver's family; and the facts a grade hands the solver mean the same in both
    from placesat.lixso.deduce import Deducer
    from placesat.lixso.encode import template_for
    from placesat.lixso.model import default_per_colour
    from placesat.lixso.solve import TILING_CELLS

    assert TILING_CELLS >= 81
    deducer = Deducer(9, 9)
    solving = LixsoSolver().compiled(empty(9, 9)).template
    assert deducer.template.placed == [] and len(solving.placed) == len(solving.placements)
    assert solving.colour == deducer.template.colour and solving.tile == deducer.template.tile
    assert min(solving.placed) > deducer.num_vars
    assert template_for(9, 9, default_per_colour(9, 9), grading=2) is deducer.template


def test_the_solver_is_chosen_by_grid_size():
    from placesat.lixso.solve import LARGE_GRID_CELLS, LARGE_GRID_SAT_SOLVER, SAT_SOLVER, sat_solver_for

    assert SAT_SOLVER != LARGE_GRID_SAT_SOLVER
    assert sat_solver_for(81) == sat_solver_for(LARGE_GRID_CELLS) == SAT_SOLVER
    assert sat_solver_for(LARGE_GRID_CELLS + 1) == sat_solver_for(21 * 21) == LARGE_GRID_SAT_SOLVER


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_each_model_is_handed_over_as_it_is_found(backend):
    # the solver checks each solution by the rules inside the enumeration, within its time limit
    from placesat.core.backend import make_backend
    from placesat.lixso.encode import template_for

    template = template_for(3, 6, 2)
    engine = make_backend(backend, template.formula)
    project = [lit for lits in template.colour for lit in lits]
    seen = []
    models, complete = engine.enumerate(project, limit=None, on_model=seen.append)
    assert complete and len(models) == len(brute_solutions(["......"] * 3, 2)) > 2
    assert seen == models


def test_a_solution_the_rules_reject_is_a_solver_bug(monkeypatch):
    lixso_solve = importlib.import_module("placesat.lixso.solve")
    from placesat.lixso.solve import SolverBug

    monkeypatch.setattr(lixso_solve, "find_violation", lambda grid, solution, cap: "a made-up clash")
    with pytest.raises(SolverBug, match="a made-up clash"):
        LixsoSolver().solve(Grid(("IIX", "IXX")))
