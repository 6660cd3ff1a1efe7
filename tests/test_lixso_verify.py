"""Batch verify and generate through the CLI: statuses on a hand-made mixed pack, determinism, atomic writes."""

import importlib
import json

import pytest

from .conftest import ROOT

# Two grids from the shipped benchmark pack (unique, solutions known), dressed with metadata.
MIXED = """# name: right
# solution: IIX/IXX
.IX
...

# name: wrong-solution
# solution: IIX/IXO
.IX
...

# name: wrong-level
# level: 5
.IX
...

# name: open
...
...

# name: impossible
I..
..I

# name: broken
.Q.
...
"""


def test_verify_mixed_pack(run_cli, tmp_path):
    pack = tmp_path / "mixed.txt"
    pack.write_text(MIXED)
    result = run_cli("lixso", "verify", str(pack), "--json")
    assert result.returncode == 1
    rows = {d["name"]: d for d in map(json.loads, result.stdout.splitlines())}
    assert rows["right"]["status"] == "unique" and rows["right"]["solution_matches"] is True
    assert rows["wrong-solution"]["solution_matches"] is False
    assert rows["wrong-level"]["stated_level"] == 5 and rows["wrong-level"]["level"] == 1
    assert rows["open"]["status"] == "multiple"
    assert rows["impossible"]["status"] == "unsolvable"
    broken = [d for d in rows.values() if d["status"] == "invalid"]
    assert len(broken) == 1 and "unknown character 'Q'" in broken[0]["error"]
    assert set(rows["right"]) == {"name", "status", "level", "stated_level", "solution_matches", "error", "seconds", "decided_by"}
    # no stated level: the solver decides; a stated level: the grade that decides every cell does
    assert rows["right"]["decided_by"] == "sat" and rows["wrong-level"]["decided_by"] == "deduction"
    assert rows["open"]["decided_by"] == "sat" and rows["impossible"]["decided_by"] == "sat"


def test_verify_folder_in_parallel_all_good(run_cli, tmp_path):
    for i, rows in enumerate([".IX\n...\n", "IIX\nIXX\n", "XXS\nXSS\n"]):
        (tmp_path / f"g{i}.txt").write_text(rows)
    result = run_cli("lixso", "verify", str(tmp_path), "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(": unique") == 3


def test_verify_missing_path_is_reported_and_others_checked(run_cli, tmp_path):
    good = tmp_path / "g.txt"
    good.write_text("IIX\nIXX\n")
    result = run_cli("lixso", "verify", str(tmp_path / "nope.txt"), str(good), "--json")
    statuses = [json.loads(line)["status"] for line in result.stdout.splitlines()]
    assert sorted(statuses) == ["invalid", "unique"] and result.returncode == 1


def test_generate_is_reproducible_and_verifies(run_cli, tmp_path):
    first, second, third = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    args = ["lixso", "generate", "--count", "3", "--level", "2", "--size", "6x6", "--seed", "11"]
    assert run_cli(*args, "--out", str(first)).returncode == 0
    assert run_cli(*args, "--out", str(second), "--jobs", "2").returncode == 0
    assert first.read_text() == second.read_text()
    assert first.read_text().count("# level: 2") == 3
    assert run_cli(*args[:-1], "12", "--out", str(third)).returncode == 0
    assert third.read_text() != first.read_text()
    result = run_cli("lixso", "verify", str(first), "--json")
    assert result.returncode == 0
    assert all(json.loads(line)["level"] == 2 for line in result.stdout.splitlines())
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_generate_rejects_bad_size(run_cli, tmp_path):
    result = run_cli("lixso", "generate", "--count", "1", "--level", "1", "--size", "4x4", "--out", str(tmp_path / "x"))
    assert result.returncode == 2 and "divisible by 3" in result.stderr


def test_grade_and_hint_commands(run_cli, tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(".IX\n...\n")
    result = run_cli("lixso", "grade", str(puzzle), "--json")
    assert json.loads(result.stdout)["level"] == 1 and result.returncode == 0
    result = run_cli("lixso", "hint", str(puzzle))
    assert result.returncode == 0 and "[level 1]" in result.stdout
    result = run_cli("lixso", "hint", str(puzzle), "--steps", "--json")
    assert "solution" not in json.loads(result.stdout)  # never unless asked
    result = run_cli("lixso", "hint", str(puzzle), "--steps", "--json", "--show-solution")
    assert json.loads(result.stdout)["solution"] == ["IIX", "IXX"]
    open_grid = tmp_path / "o.txt"
    open_grid.write_text("...\n...\n")
    result = run_cli("lixso", "grade", str(open_grid))
    assert result.returncode == 1 and "not unique" in result.stdout


def test_shipped_level_packs_verify(run_cli, tmp_path):
    from placesat.lixso.model import Grid, format_grid, load_pack

    packs = sorted((ROOT / "grids" / "lixso").glob("level-[0-9].txt"))
    assert [p.name for p in packs] == [f"level-{n}.txt" for n in range(1, 7)]
    sample = tmp_path / "sample.txt"
    chosen = []
    for pack in packs:
        grids = [g for g in load_pack(str(pack)) if isinstance(g, Grid)]
        assert len(grids) == 20
        chosen += grids[:: 7]  # puzzles 1, 8 and 15 of each level
    sample.write_text("\n".join(format_grid(g) for g in chosen))
    result = run_cli("lixso", "verify", str(sample), "--json", "--jobs", "2")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 18
    assert all(r["status"] == "unique" and r["level"] == r["stated_level"] and r["solution_matches"] for r in rows)
    # levels 1-5: the deductions alone prove uniqueness; level 6 needs the solver
    assert all(r["decided_by"] == ("sat" if r["level"] == 6 else "deduction") for r in rows)
    assert result.returncode == 0


def test_graded_verdicts_agree_with_the_solver_on_grids_with_a_stated_level():
    """A stated level makes verify grade first and skip the solver when the grade decides every
    cell: on random 6x6 clue sets (unique, multiple, and some unsolvable once a clue is
    changed) the verdict and the solution must be the solver's."""
    import random

    from placesat.lixso.encode import template_for
    from placesat.lixso.generate import random_solution
    from placesat.lixso.model import COLOURS, Grid, default_per_colour
    from placesat.lixso.solve import LixsoSolver
    from placesat.lixso.verify import Verifier

    rng = random.Random(12)
    template = template_for(6, 6, default_per_colour(6, 6))
    solver, verifier = LixsoSolver(), Verifier()
    seen = {}
    for n in range(60):
        solution = random_solution(template, rng)
        rows = [["." if rng.random() < 0.55 + n % 4 * 0.1 else ch for ch in row] for row in solution]
        if n % 5 == 0:  # a changed clue: often no solution at all
            r, c = rng.randrange(6), rng.randrange(6)
            rows[r][c] = rng.choice([k for k in COLOURS if k != solution[r][c]])
        grid = Grid(tuple("".join(row) for row in rows), metadata={"level": "3", "solution": "/".join(solution)})
        check, report = verifier.check(grid), solver.solve(grid, 2)
        assert check.status == report.status.value, grid.rows
        if check.status == "unique":
            assert check.solution_matches == (report.solutions[0] == solution)
        if check.decided_by == "deduction":
            assert check.status == "unique" and check.level <= 5
        seen[check.decided_by, check.status] = seen.get((check.decided_by, check.status), 0) + 1
    assert {("deduction", "unique"), ("sat", "multiple"), ("sat", "unsolvable")} <= set(seen), seen


def test_a_grades_facts_leave_the_solutions_as_they_are_on_both_backends():
    """Level 6 puzzles are solved from the facts their grade found (verify): with those facts
    as assumptions the solver must list exactly the solutions it lists without them, on
    shipped level-6 puzzles (one solution) and on the same puzzles with a clue taken away and
    a few cells of the solution shown instead (several solutions, all enumerated), with
    python-sat and with CP-SAT."""
    import random

    from placesat.lixso.deduce import deducer_for
    from placesat.lixso.model import Grid, load_pack
    from placesat.lixso.solve import LixsoSolver, Verdict

    rng = random.Random(3)
    deducer, solver = deducer_for(9, 9), LixsoSolver()
    grids = []
    for grid in load_pack(str(ROOT / "grids" / "lixso" / "level-6.txt"))[:3]:
        grids.append(grid)
        solution = solver.solve(grid, 2).solutions[0]
        rows = [list(row) for row in grid.rows]
        r, c, _ = grid.clues()[0]
        rows[r][c] = "."
        cells = [(r, c) for r in range(9) for c in range(9) if rows[r][c] == "."]
        rng.shuffle(cells)
        for r, c in cells:  # show solution cells while that leaves several solutions, to 30 or fewer
            rows[r][c] = solution[r][c]
            report = solver.solve(Grid(tuple("".join(row) for row in rows)), 31)
            if report.status is not Verdict.MULTIPLE:
                rows[r][c] = "."
            elif len(report.solutions) <= 30:
                break
        grids.append(Grid(tuple("".join(row) for row in rows)))
    several = 0
    for backend in ("sat", "cpsat"):
        solver = LixsoSolver(backend)
        for grid in grids:
            grade = deducer.grade(grid)
            assert grade.facts and grade.level == 6
            plain = solver.solve(grid, None)
            narrowed = solver.solve(grid, None, facts=grade.facts)
            assert plain.complete and narrowed.complete
            assert (narrowed.status, sorted(narrowed.solutions)) == (plain.status, sorted(plain.solutions))
            several += plain.status is Verdict.MULTIPLE
    assert several == 6  # each altered puzzle has several solutions, on each backend


def test_prepared_verifier_is_the_one_the_workers_keep(monkeypatch):
    """verify builds the deducer and the solver in the parent, before the workers fork: a
    worker's initializer with the same settings keeps that warm verifier (inherited), other
    settings make a new one; the checks are those of a fresh verifier."""
    verify = importlib.import_module("placesat.lixso.verify")
    from placesat.lixso.deduce import _deducers
    from placesat.lixso.model import load_pack

    monkeypatch.setattr(verify, "_worker", None)
    grids = load_pack(str(ROOT / "grids" / "lixso" / "level-6.txt"))[:2] + load_pack(str(ROOT / "grids" / "lixso" / "level-4.txt"))[:2]
    settings = ("sat", None, False, None, ())
    verify.prepare(grids, *settings)
    warm = verify._worker
    assert (9, 9, None) in _deducers and warm.solver._compiled  # level 6 needs the solver: built
    verify.start_worker(*settings)
    assert verify._worker is warm
    checks = [verify.check_in_worker(grid) for grid in grids]
    fresh = verify.Verifier()
    assert [(c.status, c.level) for c in checks] == [(f.status, f.level) for f in map(fresh.check, grids)] == [("unique", 6)] * 2 + [("unique", 4)] * 2
    verify.start_worker("cpsat", None, False, None, ())
    assert verify._worker is not warm and verify._worker.settings[0] == "cpsat"


@pytest.mark.parametrize("stated", ["9", "0", "abc", "07x"])
def test_a_level_outside_1_to_6_is_invalid(run_cli, tmp_path, stated):
    # 9 and 0 used to be taken as stated levels ("unique - level 1 (stated 9)"; print said "Level 9")
    pack = tmp_path / "levels.txt"
    pack.write_text(f"# name: t\n# level: {stated}\n.IX\n...\n")
    result = run_cli("lixso", "verify", str(pack), "--json")
    row = json.loads(result.stdout)
    assert row["status"] == "invalid" and "is not a level (1 to 6)" in row["error"]


def test_a_pack_made_for_another_supply_is_solved_with_it(run_cli, tmp_path):
    # the pack did not say its supply, so verify, grade and print called it unsolvable
    pack = tmp_path / "four.txt"
    made = run_cli("lixso", "generate", "--count", "2", "--level", "2", "--size", "6x6", "--per-colour", "4", "--seed", "3", "--out", str(pack))
    assert made.returncode == 0, made.stderr
    assert pack.read_text().count("# per-colour: 4\n") == 2
    for command in (["verify"], ["verify", "--jobs", "2"], ["grade"], ["solve"]):
        result = run_cli("lixso", *command, str(pack), "--json")
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert result.returncode == 0 and len(rows) == 2, (command, result.stdout, result.stderr)
        assert all(row["status"] == "unique" for row in rows), command
    printed = run_cli("lixso", "print", str(pack), "--out", str(tmp_path / "four.pdf"), "--json")
    assert printed.returncode == 0 and len(json.loads(printed.stdout)["printed"]) == 2
    # with the default supply (five of each colour at 6x6) the first puzzle has no solution
    text = pack.read_text().replace("# per-colour: 4\n", "")
    assert json.loads(run_cli("lixso", "solve", "-", "--json", input=text).stdout.splitlines()[0])["status"] != "unique"


def test_a_bad_per_colour_line_makes_the_grid_invalid(run_cli):
    result = run_cli("lixso", "verify", "-", "--json", input="# name: t\n# per-colour: 0\n.IX\n...\n")
    row = json.loads(result.stdout)
    assert row["status"] == "invalid" and "<stdin>:2: grid 't': per-colour: must be from 1 to 300, not 0" in row["error"]
