"""The compiled trials (solver/lixso/native.py).

The propagator against python-sat's unit propagation over the whole compiled template
(cardinality encodings of the supply and all): the same literals and the same contradictions
on random assumption sets, the supply rule included, and the state left exactly as it was
after a trial, exactly as a fresh one after a commit. The compiled trial loop against the
Python one that hints run: the same facts at the end of every level."""

import random
from pathlib import Path

import numpy as np
import pytest

from placesat.lixso.deduce import Deducer
from placesat.lixso.generate import random_solution
from placesat.lixso.model import Grid, load_pack, parse_pack
from placesat.lixso.native import TrialState


def assumptions(deducer: Deducer, solution, rng: random.Random, share: float, wrong: float) -> list[int]:
    """Colour and tile literals, most true in ``solution``, some not: trials and their facts."""
    t = deducer.template
    true = set(deducer.engine.propagate(t.solution_literals(solution))[1])
    lits = [lit for lit in range(1, deducer.num_vars + 1) if rng.random() < share / 8]
    lits = [(lit if lit in true else -lit) if rng.random() > wrong else (-lit if lit in true else lit) for lit in lits]
    # and clues: with many, the closure spends colours' supply
    return lits + [lit for lit in t.solution_literals(solution) if rng.random() < share]


def fresh_state(deducer: Deducer) -> TrialState:
    n = deducer.num_vars
    value = np.zeros(2 * n + 1, dtype=np.int8)
    value[n] = -1  # the padding position, kept false
    return TrialState(deducer.trial_tables(), value)


@pytest.mark.parametrize("size", [(6, 6), (9, 9)])
def test_the_propagator_finds_what_python_sat_finds(size):
    rng = random.Random(7)
    deducer = Deducer(*size)
    n, cap = deducer.num_vars, deducer.supply_cells
    state = fresh_state(deducer)
    before = (state.value.copy(), state.nfalse.copy(), state.count.copy())
    agreed = contradictions = supply_spent = 0
    for seed in range(6):
        solution = random_solution(deducer.template, random.Random(seed))
        for share in (0.1, 0.3, 0.6, 0.9):
            for wrong in (0.0, 0.01, 0.05):
                lits = assumptions(deducer, solution, rng, share, wrong)
                rng.shuffle(lits)
                want_ok, implied = deducer.engine.propagate(lits)
                size_or_not = state.propagate(np.array(lits, dtype=np.int32) + n, False)
                got_ok = size_or_not >= 0
                assert got_ok == want_ok, (seed, share, wrong)
                if want_ok:
                    want = {lit for lit in implied if abs(lit) <= n} | set(lits)
                    got = set((state.trail[:size_or_not] - n).tolist())
                    assert got == want, (seed, share, wrong)
                    assert set(np.flatnonzero(np.unpackbits(state.bits.view(np.uint8), bitorder="little")) - n) == got
                    colours = [sum(deducer.template.colour[i][k] in got for i in range(len(deducer.template.cells))) for k in range(4)]
                    supply_spent += cap in colours
                else:
                    contradictions += 1
                agreed += 1
                # a trial leaves the state as it found it
                assert (state.value == before[0]).all() and (state.nfalse == before[1]).all() and (state.count == before[2]).all()
    assert agreed == 72 and contradictions >= 10 and supply_spent >= 5, (contradictions, supply_spent)


def test_too_many_cells_of_one_colour_contradict_the_supply():
    deducer = Deducer(6, 6)
    n, t = deducer.num_vars, deducer.template
    state = fresh_state(deducer)
    # nine cells of I, one tile's worth at a time, spend the supply: every other cell is not I
    tiles = [t.tile[p][0] for p, cells in enumerate(t.placements) if cells == ((0, 0), (0, 1), (1, 0))]
    tiles += [t.tile[p][0] for p, cells in enumerate(t.placements) if cells == ((0, 3), (0, 4), (1, 3))]
    tiles += [t.tile[p][0] for p, cells in enumerate(t.placements) if cells == ((3, 0), (3, 1), (4, 0))]
    assert len(tiles) == 3
    size = state.propagate(np.array(tiles, dtype=np.int32) + n, False)
    assert size >= 0
    got = set((state.trail[:size] - n).tolist())
    assert all(-t.colour[i][0] in got for i, cell in enumerate(t.cells) if not any(lit in got for lit in [t.colour[i][0]]))
    assert deducer.engine.propagate(tiles)[0]
    # a tenth I cell away from them all is one too many
    far = t.colour[t.cell_index((5, 5))][0]
    assert state.propagate(np.array(tiles + [far], dtype=np.int32) + n, False) < 0
    assert not deducer.engine.propagate(tiles + [far])[0]


def test_commits_keep_the_counts_a_fresh_state_computes():
    rng = random.Random(3)
    deducer = Deducer(9, 9)
    n = deducer.num_vars
    solution = random_solution(deducer.template, random.Random(1))
    state = fresh_state(deducer)
    facts: list[int] = []
    for _ in range(12):
        lit = rng.choice(deducer.template.solution_literals(solution))
        facts.append(lit)
        assert state.propagate(np.array([lit], dtype=np.int32) + n, True) >= 0
        ok, implied = deducer.engine.propagate(facts)
        assert ok and set(np.flatnonzero(state.value == 1) - n) == {x for x in implied if abs(x) <= n} | set(facts)
        again = TrialState(deducer.trial_tables(), state.value.copy())
        assert (again.nfalse == state.nfalse).all() and (again.count == state.count).all()


PACKS = Path(__file__).resolve().parent.parent / "grids" / "lixso"


@pytest.mark.parametrize("level", [4, 5, 6])
def test_the_compiled_loop_reaches_the_python_loops_fixed_point(level):
    # grading runs the trials compiled, hints run them in Python (colour trials too, one
    # failure at a time): both must know the same facts at the end of every level
    deducer = Deducer(9, 9)
    n = deducer.num_vars
    compared = 0
    for grid in [g for g in load_pack(str(PACKS / f"level-{level}.txt")) if isinstance(g, Grid)][:3]:
        for solution in (None, grid.stated_solution()):
            for upto in (3, 4, 5):
                compiled = deducer.start(grid, upto, solution=solution)
                compiled.run()
                python = deducer.start(grid, upto, solution=solution)
                python.run(explain=True)
                assert compiled._native and not python._native
                assert (compiled.value == python.value).all(), (grid.name, upto, [deducer.describe(int(p) - n) for p in np.flatnonzero(compiled.value != python.value) if p > n])
                assert compiled.hardest == python.hardest and compiled.complete() == python.complete()
                compared += 1
    assert compared == 18


def test_clues_added_between_runs_reach_the_fixed_point_of_all_the_clues():
    # the generator grows a puzzle in one deduction: kept answers re-run only where the new
    # clue may change them must still end where a fresh deduction from all the clues ends
    rng = random.Random(5)
    deducer = Deducer(9, 9)
    t = deducer.template
    compared = 0
    for grid in [g for g in load_pack(str(PACKS / "level-6.txt")) if isinstance(g, Grid)][:6]:
        solution = grid.stated_solution()
        grown = deducer.start(grid, 5, solution=solution)
        rows = [list(row) for row in grid.rows]
        for _ in range(4):
            grown.run()
            if grown.complete():
                break
            cell = rng.choice(grown.undecided())
            r, c = divmod(cell, t.width)
            rows[r][c] = solution[r][c]
            grown.add([t.colour[cell]["IXSO".index(solution[r][c])]])
            grown.run()
            fresh = deducer.start(Grid(tuple("".join(row) for row in rows)), 5)
            fresh.run()
            assert (grown.value == fresh.value).all() and grown.complete() == fresh.complete()
            compared += 1
    assert compared >= 6


@pytest.mark.slow  # on a new machine it waits for numba to compile the kernels too (about 30 s)
def test_the_kernels_compiled_ahead_of_time_reach_the_facts_numbas_jit_reaches(monkeypatch):
    # the grader's kernels run from an extension module built ahead of time (numba.pycc) when
    # a C compiler is at hand, else through numba's JIT: the same source, so the same facts,
    # the same solved cells and the same grades, at every level, with and without a solution
    import shutil
    import types

    from placesat.core import compiled
    from placesat.lixso import native

    ahead, jit = native.kernels(compiled.AHEAD), native.kernels(compiled.JIT)
    if shutil.which("cc"):  # CI and the test machine have one: the kernels come compiled ahead
        assert isinstance(ahead, types.ModuleType)
    assert not isinstance(jit, types.ModuleType)
    deducer = Deducer(9, 9)
    seen = {}
    for mode, chosen in (("ahead", ahead), ("jit", jit)):
        monkeypatch.setattr(native, "kernels", lambda mode=None, deadline=None, chosen=chosen: chosen)
        for level in range(1, 7):
            for grid in [g for g in load_pack(str(PACKS / f"level-{level}.txt")) if isinstance(g, Grid)][:3]:
                for solution in (None, grid.stated_solution()):
                    deduction = deducer.start(grid, 5, solution=solution)
                    deduction.run()
                    if deduction._trials is not None:
                        assert deduction._trials.state.kernels is chosen
                    grade = deducer.grade(grid, solution=solution)
                    seen.setdefault((grid.name, solution is None), []).append(
                        (deduction.value.tobytes(), grade.level, grade.solved_rows, grade.facts))
    assert len(seen) == 36 and all(len(runs) == 2 and runs[0] == runs[1] for runs in seen.values())
    assert {runs[0][1] for runs in seen.values()} == {1, 2, 3, 4, 5, 6}
