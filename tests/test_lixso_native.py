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
    before = (state.value.copy(), state.watches.done.copy(), state.count.copy())
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
                # a trial leaves the state as it found it (its watches may have moved: any two
                # literals not false are good watches)
                assert (state.value == before[0]).all() and (state.watches.done == before[1]).all() and (state.count == before[2]).all()
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
        assert (again.watches.done == state.watches.done).all() and (again.count == state.count).all()


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


def python_kernels():
    from placesat.core.compiled import python_kernels

    return python_kernels("placesat.lixso.native")


def test_the_compiled_kernels_are_the_python_ones_state_for_state():
    # the same propagations from the same states with the compiled kernels (_grader.pyx) and
    # the Python ones (native.py): the same trail in the same order, the same bits, the same
    # state after (a trial undone, a commit kept), contradictions included
    from placesat.lixso import native

    grader = native.kernels()
    python = python_kernels()
    if not hasattr(grader, "__file__"):
        pytest.skip("no compiled grader here (PLACESAT_KERNELS=python, or built without a C compiler)")
    rng = random.Random(11)
    deducer = Deducer(6, 6)
    n, t = deducer.num_vars, deducer.template
    compared = contradictions = 0
    for seed in range(4):
        solution = random_solution(t, random.Random(seed))
        states = []
        for kernels in (grader, python):
            value = np.zeros(2 * n + 1, dtype=np.int8)
            value[n] = -1
            states.append(TrialState(deducer.trial_tables(), value, compiled=kernels))
        for i in range(30):
            lits = assumptions(deducer, solution, rng, rng.choice((0.05, 0.2, 0.5)), rng.choice((0.0, 0.05)))
            rng.shuffle(lits)
            positions = np.array(lits, dtype=np.int32) + n
            answers = [state.propagate(positions, i % 5 == 0) for state in states]
            assert answers[0] == answers[1], (seed, i)
            length = answers[0] if answers[0] >= 0 else -1 - answers[0]
            one, other = states
            assert (one.trail[:length] == other.trail[:length]).all() and (one.bits == other.bits).all()
            assert (one.value == other.value).all() and (one.count == other.count).all()
            assert all((a == b).all() for a, b in zip(one.watches, other.watches))
            contradictions += answers[0] < 0
            compared += 1
    assert compared == 120 and contradictions >= 5, contradictions


def test_the_compiled_trial_loop_is_the_python_one_grade_for_grade(monkeypatch):
    # the whole trial loop (trials, re-runs, dilemmas, the known solution's short cuts) with the
    # compiled kernels and the Python ones, on 6x6 puzzles (levels 1-4): the same facts, the
    # same grades and solved cells
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from lixso_samples import random_puzzles

    from placesat.lixso import native

    grader = native.kernels()
    if not hasattr(grader, "__file__"):
        pytest.skip("no compiled grader here (PLACESAT_KERNELS=python, or built without a C compiler)")
    puzzles = list(random_puzzles(6, 6, 2, "k38"))
    seen = {}
    for kernels in (grader, python_kernels()):
        monkeypatch.setattr(native, "kernels", lambda kernels=kernels: kernels)
        deducer = Deducer(6, 6)
        for grid in puzzles:
            deduction = deducer.start(grid, 5)
            deduction.run()
            if deduction._trials is not None:
                assert deduction._trials.state.kernels is kernels
            grade = deducer.grade(grid)
            known = deducer.grade(grid, solution=grade.solved_rows)  # the solution's short cuts
            seen.setdefault(grid.name, []).append((deduction.value.tobytes(), grade.level, grade.solved_rows,
                                                   grade.facts, known.level, known.facts))
    assert len(seen) == 8 and all(len(answers) == 2 and answers[0] == answers[1] for answers in seen.values())
    assert {answers[0][1] for answers in seen.values()} >= {3, 4}


def test_the_compiled_module_numbers_its_codes_as_native_does():
    from placesat.lixso import native

    grader = native.kernels()
    if not hasattr(grader, "CODES"):
        pytest.skip("no compiled grader here")
    assert grader.CODES == {name: getattr(native, name) for name in grader.CODES}
