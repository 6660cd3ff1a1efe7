"""Generated puzzles: unique by an independent re-check, exactly the asked level, reproducible."""

import importlib
import pytest

from placesat.lixso.deduce import Deducer
from placesat.lixso.generate import generate_one, minimal_unique
from placesat.lixso.rules import find_violation
from placesat.lixso.solve import Verdict, solve_grid

from .lixso_bruteforce import solutions as brute_solutions


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_small_generated_puzzles_are_unique_by_brute_force(level):
    made = generate_one(6, 6, level, f"test:{level}", "t")
    assert brute_solutions(list(made.grid.rows)) == {made.solution}
    assert Deducer(6, 6).grade(made.grid).level == level
    assert find_violation(made.grid, made.solution) is None


@pytest.mark.parametrize("level", [1, 3, 5, 6])
def test_9x9_generated_puzzles_are_unique_on_both_backends(level):
    made = generate_one(9, 9, level, f"test9:{level}", "t")
    for backend in ("sat", "cpsat"):
        report = solve_grid(made.grid, backend)
        assert report.status is Verdict.UNIQUE and report.solutions == [made.solution]
    assert Deducer(9, 9).grade(made.grid).level == level
    assert find_violation(made.grid, made.solution) is None


@pytest.mark.parametrize("level", [5, 6])
def test_carved_levels_agree_with_the_reference_grader_and_repeat_under_their_seed(level):
    # levels 5 and 6 come from carves (level 5: a level-6 carve and one added clue); the grade
    # by the words of seeds/lixso.md alone must be the asked level
    from .lixso_reference import reference_grade

    made = generate_one(9, 9, level, f"ref:{level}", "r")
    assert reference_grade(Deducer(9, 9), made.grid)[0] == level
    again = generate_one(9, 9, level, f"ref:{level}", "r")
    assert again.grid.rows == made.grid.rows and again.solution == made.solution


def test_same_seed_same_puzzle():
    first = generate_one(6, 6, 2, "same", "a")
    again = generate_one(6, 6, 2, "same", "a")
    other = generate_one(6, 6, 2, "other", "a")
    assert first.grid.rows == again.grid.rows and first.solution == again.solution
    assert other.grid.rows != first.grid.rows


def test_minimal_puzzles_lose_uniqueness_without_any_clue():
    grid, solution = minimal_unique(6, 6, "m", "m")
    assert brute_solutions(list(grid.rows)) == {solution}
    rows = [list(row) for row in grid.rows]
    for r, c, _ in grid.clues():
        saved, rows[r][c] = rows[r][c], "."
        assert len(brute_solutions(["".join(row) for row in rows])) > 1
        rows[r][c] = saved


def test_random_solutions_differ_from_seed_to_seed():
    import random

    from placesat.lixso.generate import random_solution
    from placesat.lixso.model import Grid

    template = Deducer(9, 9).template
    solutions = {random_solution(template, random.Random(seed)) for seed in range(8)}
    assert len(solutions) == 8
    assert all(find_violation(Grid(("." * 9,) * 9), s) is None for s in solutions)


def test_shipped_packs_do_not_repeat_a_solution():
    from placesat.lixso.model import load_pack

    from .conftest import ROOT

    solutions = [g.stated_solution() for p in sorted((ROOT / "grids" / "lixso").glob("level-[0-9].txt")) for g in load_pack(str(p))]
    assert len(solutions) == 120 and len(set(solutions)) == 120


@pytest.mark.parametrize("level", [1, 2, 3, 5, 6])
def test_shipped_packs_are_what_their_documented_command_makes(level):
    # README: `placesat lixso generate --count 20 --level L --seed 2026` made grids/lixso/level-L.txt,
    # and still makes it for every level but 4 (seeds/lixso.md, "Generating puzzles"); a change
    # that alters the puzzles of a seed must say so. The first two puzzles of each pack, as the
    # command orders them.
    from placesat.lixso.generate import fulfil, orders
    from placesat.lixso.model import load_pack

    from .conftest import ROOT

    shipped = load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt"))
    for order, puzzle in zip(orders(2, level, 9, 9, 2026), shipped):
        made = fulfil(order)
        assert made.grid.name == puzzle.name == order.name
        assert made.grid.rows == puzzle.rows and made.solution == puzzle.stated_solution()


def test_large_random_solutions_are_valid_reproducible_and_varied():
    import random

    from placesat.lixso.generate import random_solution, tiled_solution
    from placesat.lixso.model import Grid, default_per_colour

    cap = default_per_colour(15, 15)
    drawn = [tiled_solution(15, 15, cap, random.Random(seed)) for seed in range(3)]
    assert len(set(drawn)) == 3
    for solution in drawn:
        assert find_violation(Grid(("." * 15,) * 15), solution, cap) is None
    assert tiled_solution(15, 15, cap, random.Random(1)) == drawn[1]
    # grids this large are drawn by tiling first, whatever asks for the solution
    assert random_solution(Deducer(15, 15).template, random.Random(0)) == drawn[0]


def test_a_21x21_tiling_covers_every_cell_once():
    import random

    from placesat.lixso.generate import random_tiling

    tiles = random_tiling(21, 21, random.Random(3), budget=20 * 21 * 21)
    assert tiles is not None and len(tiles) == 147
    cells = [cell for tile in tiles for cell in tile]
    assert sorted(cells) == [(r, c) for r in range(21) for c in range(21)]
    for tile in tiles:  # an L: three cells of one 2x2 block
        rows, cols = {r for r, _ in tile}, {c for _, c in tile}
        assert len(rows) == len(cols) == 2 and max(rows) - min(rows) == max(cols) - min(cols) == 1


@pytest.mark.parametrize("level", [3, pytest.param(6, marks=pytest.mark.slow)])
def test_15x15_puzzles_are_unique_and_graded_exactly(level):
    made = generate_one(15, 15, level, f"test15:{level}", "t")
    report = solve_grid(made.grid)
    assert report.status is Verdict.UNIQUE and report.solutions == [made.solution]
    assert Deducer(15, 15).grade(made.grid).level == level
    assert generate_one(15, 15, level, f"test15:{level}", "t").grid.rows == made.grid.rows


@pytest.mark.parametrize("level", [2, 3, 4])
def test_the_factory_removal_question_agrees_with_plain_deduction(level):
    # can_drop answers in three steps (unit propagation, a second solution, the deductions);
    # each answer must be what a plain deduction of the smaller clue set says
    import random

    from placesat.lixso.generate import _Factory, random_solution

    deducer = Deducer(6, 6)
    rng = random.Random(level)
    for _ in range(2):
        solution = random_solution(deducer.template, rng)
        factory = _Factory(deducer, solution, None)
        clues = factory.grow(level, rng)
        for cell in sorted(clues):
            plain = deducer.start(factory.puzzle(clues - {cell}), level)
            plain.run()
            assert factory.can_drop(clues, cell, level) == plain.complete(), (level, cell)


def test_the_uniqueness_question_of_a_dropped_clue_agrees_with_brute_force():
    # with clues that leave one solution, dropping one keeps it unique exactly when no solution
    # gives the dropped cell another colour (what _Uniqueness asks the solver)
    import random

    from placesat.lixso.generate import _puzzle, _Uniqueness, random_solution

    deducer = Deducer(6, 6)
    uniqueness = _Uniqueness.for_size(6, 6, None)
    rng = random.Random(5)
    checked = kept = 0
    for _ in range(1):
        solution = random_solution(deducer.template, rng)
        colours = deducer.template.solution_literals(solution)
        clues = set(range(36))
        order = list(range(36))
        rng.shuffle(order)
        for cell in order:
            rest = clues - {cell}
            truth = brute_solutions(list(_puzzle(solution, rest, 6, "").rows)) == {solution}
            assert uniqueness.unique_without([colours[i] for i in sorted(rest)], colours[cell]) == truth, cell
            checked += 1
            if truth:
                clues = rest
            else:
                kept += 1
    assert checked == 36 and kept > 5, kept


def _level6_carve(deducer, seed):
    """A level-6 carve of a 9x9 solution, the first of the seed's draws."""
    import random

    from placesat.lixso.generate import _graded_carve, random_solution

    rng = random.Random(seed)
    while True:
        solution = random_solution(deducer.template, rng, tiled=True)
        carve = _graded_carve(deducer, solution, rng, None)
        if carve.level == 6:
            return solution, carve


def test_a_carve_grown_from_level_4_facts_reaches_what_plain_deduction_reaches():
    # _level5_clue goes on from a copy of the carve's level-4 deduction (its fixed point, the
    # trials' answers kept) with one more clue: levels 4 and 5 must reach the very facts they
    # reach from the clues, and the copies must leave the carve's deduction as it was
    import random

    from placesat.lixso.generate import _puzzle

    deducer = Deducer(9, 9)
    solution, carve = _level6_carve(deducer, "facts")
    colours = deducer.template.solution_literals(solution)
    # the carve's level-4 facts: what a fresh level-4 deduction of its clues knows
    fresh = deducer.start(_puzzle(solution, carve.clues, 9, ""), 4)
    fresh.run()
    assert not fresh.complete() and set(carve.stuck) == fresh.known
    outcomes = set()
    for cell in random.Random(1).sample(carve.open_cells, 8):
        plain, plain_known = {}, {}
        for level in (4, 5):
            deduction = deducer.start(_puzzle(solution, carve.clues | {cell}, 9, ""), level)
            deduction.run()
            plain[level], plain_known[level] = deduction.complete(), deduction.known
        shortcut = carve.level4.copy()
        shortcut.add([colours[cell]])
        shortcut.run()
        assert shortcut.complete() == plain[4] and shortcut.known == plain_known[4], cell
        shortcut.level = 5
        shortcut.run()
        assert shortcut.complete() == plain[5] and shortcut.known == plain_known[5], cell
        outcomes.add((plain[4], plain[5]))
    assert len(outcomes) > 1  # the sample holds clues that decide it and clues that do not
    assert carve.level4.known == fresh.known and carve.level4.undecided() == fresh.undecided()


def test_the_level5_clue_makes_a_level6_carve_exactly_level_5():
    import random

    from placesat.lixso.generate import _level5_clue, _puzzle

    deducer = Deducer(9, 9)
    found = 0
    for seed in ("core:1", "core:2", "core:3"):
        solution, carve = _level6_carve(deducer, seed)
        cell = _level5_clue(deducer, solution, carve, random.Random(seed))
        if cell is not None:
            assert cell not in carve.clues
            assert deducer.grade(_puzzle(solution, carve.clues | {cell}, 9, "")).level == 5
            found += 1
    assert found


def test_carving_in_blocks_is_carving_clue_by_clue():
    # the block questions are a shortcut: the carve must be the one asked one clue at a time
    import random

    from placesat.lixso.generate import _Uniqueness, random_solution

    for size in (6, 9):
        deducer = Deducer(size, size)
        uniqueness = _Uniqueness.for_size(size, size, None)
        rng = random.Random(size)
        for seed in range(4):
            solution = random_solution(deducer.template, rng, tiled=True)
            colours = deducer.template.solution_literals(solution)
            one_by_one = set(range(size * size))
            order = list(range(size * size))
            random.Random(seed).shuffle(order)
            for cell in order:
                if uniqueness.unique_without([colours[i] for i in sorted(one_by_one) if i != cell], colours[cell]):
                    one_by_one.discard(cell)
            assert uniqueness.carve(solution, random.Random(seed)) == one_by_one, (size, seed)


def test_the_many_clue_uniqueness_question_agrees_with_brute_force():
    import random

    from placesat.lixso.generate import _puzzle, _Uniqueness, random_solution

    deducer = Deducer(6, 6)
    uniqueness = _Uniqueness.for_size(6, 6, None)
    rng = random.Random(9)
    answers = set()
    for _ in range(12):
        solution = random_solution(deducer.template, rng, tiled=True)
        colours = deducer.template.solution_literals(solution)
        dropped = rng.sample(range(36), rng.choice([2, 4, 8, 16, 24]))
        rest = set(range(36)) - set(dropped)
        truth = brute_solutions(list(_puzzle(solution, rest, 6, "").rows)) == {solution}
        assert uniqueness.unique_without_all([colours[i] for i in sorted(rest)], [colours[i] for i in dropped]) == truth
        answers.add(truth)
    assert answers == {True, False}


@pytest.mark.slow
def test_level_5_above_the_carving_size_is_grown_unique_and_graded_exactly():
    from placesat.lixso.generate import CARVE_LEVEL5_MAX_CELLS

    assert 12 * 12 > CARVE_LEVEL5_MAX_CELLS
    made = generate_one(12, 12, 5, "grown:5:0", "g")
    report = solve_grid(made.grid)
    assert report.status is Verdict.UNIQUE and report.solutions == [made.solution]
    assert Deducer(12, 12).grade(made.grid).level == 5


def test_native_cardinality_constraints_agree_with_brute_force_and_refuse_certificates():
    # the carve's uniqueness solver takes the supply and the one-of constraints natively
    # (MiniCard): on random small formulas with clauses and counts, every call under random
    # assumptions must say what enumerating all assignments says
    import itertools
    import random

    from placesat.core.backend import Formula, SatBackend, Status

    rng = random.Random(12)
    for _ in range(30):
        formula = Formula()
        xs = formula.new_vars(7)
        for _ in range(3):
            formula.add_clause([rng.choice([1, -1]) * x for x in rng.sample(xs, 3)])
        for _ in range(3):
            lits = [rng.choice([1, -1]) * x for x in rng.sample(xs, rng.randint(2, 6))]
            lo = rng.randint(0, 2)
            formula.add_count(lits, lo, rng.randint(lo, len(lits)))
        backend = SatBackend(formula, solver="minicard", native_cardinality=True)

        def holds(values, assumptions):
            def true(lit):
                return values[abs(lit) - 1] == (lit > 0)

            return (
                all(true(lit) for lit in assumptions)
                and all(any(true(lit) for lit in clause) for clause in formula.clauses)
                and all(lo <= sum(map(true, lits)) <= hi for lits, lo, hi in formula.cardinalities)
            )

        for _ in range(5):
            assumptions = [rng.choice([1, -1]) * x for x in rng.sample(xs, rng.randint(0, 3))]
            expected = any(holds(values, assumptions) for values in itertools.product([False, True], repeat=7))
            assert (backend.status(assumptions) is Status.SAT) == expected
        backend.close()
    with pytest.raises(ValueError):
        SatBackend(Formula(), solver="glucose4", native_cardinality=True)
    native = SatBackend(Formula(), solver="minicard", native_cardinality=True)
    with pytest.raises(ValueError):
        native.clause_history()


def test_the_level5_clue_is_the_first_candidate_that_makes_a_level_5_puzzle():
    # _level5_clue passes over candidates that must fail (a cell decided by level 5 on a failed
    # candidate); what it returns must still be the first of the candidates whose puzzle
    # grades 5 from scratch
    import random

    from placesat.lixso.generate import CORE_TRIES, _core_candidates, _level5_clue, _puzzle

    deducer = Deducer(9, 9)
    outcomes = []
    for seed in ("first:1", "first:2", "first:3", "first:4"):
        solution, carve = _level6_carve(deducer, seed)
        colours = deducer.template.solution_literals(solution)
        cells = _core_candidates(deducer, colours, carve, random.Random(seed))
        grades = []
        for cell in cells[:CORE_TRIES]:
            grades.append(deducer.grade(_puzzle(solution, carve.clues | {cell}, 9, "")).level)
            if grades[-1] == 5:
                break
        expected = cells[len(grades) - 1] if grades[-1] == 5 else None
        assert _level5_clue(deducer, solution, carve, random.Random(seed)) == expected, seed
        outcomes.append(expected is None)
    assert set(outcomes) == {True, False}  # cores that give a level 5 puzzle and cores that do not


def test_random_tilings_cover_small_boards_exactly_when_a_cover_exists():
    # an independent exhaustive search says whether a board can be covered by L-tiles at all;
    # random_tiling must find a cover then (every cell once, each tile an L), and None otherwise
    import random

    from placesat.lixso.generate import random_tiling

    def coverable(height, width):
        free = {(r, c) for r in range(height) for c in range(width)}

        def cover():
            if not free:
                return True
            r, c = min(free)
            for cells in (((r, c), (r, c + 1), (r + 1, c)), ((r, c), (r, c + 1), (r + 1, c + 1)),
                          ((r, c), (r + 1, c), (r + 1, c + 1)), ((r, c), (r + 1, c), (r + 1, c - 1))):
                if all(cell in free for cell in cells):
                    free.difference_update(cells)
                    if cover():
                        return True
                    free.update(cells)
            return False

        return cover()

    answers = set()
    for height in range(1, 7):
        for width in range(1, 7):
            exists = coverable(height, width)
            for seed in range(3):
                tiles = random_tiling(height, width, random.Random(seed), budget=10**5)
                assert (tiles is not None) == exists, (height, width)
                if tiles is not None:
                    cells = sorted(cell for tile in tiles for cell in tile)
                    assert cells == [(r, c) for r in range(height) for c in range(width)]
                    for tile in tiles:
                        rows, cols = {r for r, _ in tile}, {c for _, c in tile}
                        assert len(rows) == len(cols) == 2 and max(rows) - min(rows) == max(cols) - min(cols) == 1
            answers.add(exists)
    assert answers == {True, False}


def test_the_colouring_solver_is_given_the_clauses_of_the_plain_constraints(monkeypatch):
    # colour_tiles encodes its counting constraints once per tile count: the solver must get
    # exactly the clauses, in order, that the constraints written out per tiling give (so it
    # finds the same colouring, and the packs made by tiling stay what their seeds make)
    import random

    from placesat.core.backend import Formula, cnf_of
    generate = importlib.import_module("placesat.lixso.generate")
    from placesat.lixso.model import default_per_colour

    given = []
    real = generate.SatBackend

    def spy(formula, **options):
        given.append(cnf_of(formula))
        return real(formula, **options)

    monkeypatch.setattr(generate, "SatBackend", spy)
    for height, width in ((9, 9), (6, 6), (6, 9)):
        cap = default_per_colour(height, width)
        for seed in range(3):
            tiles = generate.random_tiling(height, width, random.Random(seed), budget=20 * height * width)
            given.clear()
            generate.colour_tiles(height, width, tiles, cap, random.Random(seed))
            owner = {cell: t for t, cells in enumerate(tiles) for cell in cells}
            plain = Formula()
            colour = [plain.new_vars(4) for _ in tiles]
            for t, (lits, cells) in enumerate(zip(colour, tiles)):
                plain.add_exactly_one(lits)
                near = {owner[(r + dr, c + dc)] for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (r + dr, c + dc) in owner}
                for u in near - {t}:
                    if u > t:
                        for k in range(4):
                            plain.add_clause([-lits[k], -colour[u][k]])
            for k in range(4):
                plain.add_at_most([lits[k] for lits in colour], cap)
            assert given == [cnf_of(plain)], (height, width, seed)


@pytest.mark.parametrize("tiled", [False, True])
def test_a_size_no_tiling_covers_fails_at_once(tiled):
    # 10x10 has 100 cells: the SAT draw would search for hours for a cover that cannot exist
    import random

    from placesat.lixso.encode import template_for
    from placesat.lixso.generate import GenerationFailed, random_solution

    with pytest.raises(GenerationFailed, match="100 cells, not a multiple of 3"):
        random_solution(template_for(10, 10, 9), random.Random(1), tiled=tiled)
