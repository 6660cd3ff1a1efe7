"""Why a grid is not a proper puzzle (placesat.lixso.why): the clashing clues of an unsolvable
grid, checked minimal by brute force, and the backbone and unique-making clue of a grid with
several solutions, checked against every solution the brute-force enumerator finds."""

import json

from placesat.core.limits import Deadline
from placesat.lixso.model import COLOURS, Grid, load_pack
from placesat.lixso.solve import LixsoSolver, Verdict
from placesat.lixso.why import ambiguity, conflicting_clues

from .lixso_bruteforce import solutions as brute_solutions

# the shipped 6x6 grid grids/lixso-game/6x6-L3-1.txt: a unique puzzle (level 3)
PUZZLE_6X6 = (".....S", "XI.O..", ".X....", "......", "I..SI.", "......")


def with_cell(rows, r, c, ch) -> tuple[str, ...]:
    changed = [list(row) for row in rows]
    changed[r][c] = ch
    return tuple("".join(row) for row in changed)


def only_clues(height, width, clues) -> tuple[str, ...]:
    rows = ("." * width,) * height
    for r, c, k in clues:
        rows = with_cell(rows, r, c, k)
    return rows


def test_the_6x6_puzzle_is_unique_by_brute_force():
    assert len(brute_solutions(list(PUZZLE_6X6))) == 1


def test_conflict_on_6x6_is_unsolvable_and_minimal_by_brute_force():
    (solution,) = brute_solutions(list(PUZZLE_6X6))
    solver = LixsoSolver()
    # a wrong colour on a free cell beside two clues (two cells cost the brute force twice)
    for r, c in [(1, 2)]:
        wrong = next(k for k in COLOURS if k != solution[r][c])
        grid = Grid(with_cell(PUZZLE_6X6, r, c, wrong))
        assert solver.solve(grid).status is Verdict.UNSOLVABLE
        conflict = conflicting_clues(solver, grid, Deadline(30))
        assert conflict.minimal
        assert (r, c, wrong) in conflict.clues  # the puzzle alone has a solution
        assert set(conflict.clues) <= set(grid.clues())
        assert brute_solutions(list(only_clues(6, 6, conflict.clues))) == set()
        for dropped in conflict.clues:
            rest = [clue for clue in conflict.clues if clue != dropped]
            assert brute_solutions(list(only_clues(6, 6, rest))), f"{dropped} is not needed"


def test_same_colour_diagonal_clues_in_a_2x3_clash():
    # 2x3: two tilings, each of two Ls that both touch every column; r1c1 and r2c3 lie in
    # different tiles in both, and those touch: one colour on both cannot be
    grid = Grid(("I..", "..I"))
    assert brute_solutions(list(grid.rows)) == set()
    conflict = conflicting_clues(LixsoSolver(), grid, Deadline(30))
    assert conflict.clues == [(0, 0, "I"), (1, 2, "I")] and conflict.minimal
    assert "these 2 clues cannot all hold: r1c1=I, r2c3=I" in conflict.words()
    # the hints' direct rules meet the clash at once: r2c3's I tile would touch r1c1's
    assert conflict.where is not None and "r2c3" in conflict.where


def test_clash_through_the_supply_is_worded_step_by_step():
    # 2x3 has two tiles, so one I tile at most (the supply); I clues at r1c2 and r2c2 force
    # the rest by the direct rules until a second I tile would be needed
    grid = Grid(("II.", ".I."))
    conflict = conflicting_clues(LixsoSolver(), grid, Deadline(30))
    assert conflict.clues == [(0, 1, "I"), (1, 1, "I")] and conflict.minimal
    assert brute_solutions(["." + "I" + ".", ".I."]) == set()
    assert brute_solutions([".I.", "..."]) and brute_solutions(["...", ".I."])
    assert "more than 1 I tiles" in conflict.where and "--verbose" not in conflict.where


def test_conflict_on_a_shipped_9x9_puzzle_is_minimal():
    puzzle = [g for g in load_pack("grids/lixso/level-3.txt") if isinstance(g, Grid)][0]
    solver = LixsoSolver()
    (solution,) = solver.solve(puzzle).solutions
    r, c = next((r, c) for r in range(9) for c in range(9) if puzzle.rows[r][c] == ".")
    grid = Grid(with_cell(puzzle.rows, r, c, "I" if solution[r][c] != "I" else "X"))
    conflict = conflicting_clues(solver, grid, Deadline(30))
    assert conflict.minimal and len(conflict.clues) < len(grid.clues())
    fresh = LixsoSolver()
    assert fresh.solve(Grid(only_clues(9, 9, conflict.clues))).status is Verdict.UNSOLVABLE
    for dropped in conflict.clues:
        rest = [clue for clue in conflict.clues if clue != dropped]
        assert fresh.solve(Grid(only_clues(9, 9, rest))).status is not Verdict.UNSOLVABLE


def brute_backbone(rows) -> tuple[str, ...]:
    found = brute_solutions(list(rows))
    first = next(iter(found))
    return tuple(
        "".join(first[r][c] if all(s[r][c] == first[r][c] for s in found) else "." for c in range(len(rows[0])))
        for r in range(len(rows))
    )


def test_backbone_and_suggestion_on_6x6_match_brute_force():
    solver = LixsoSolver()
    # drop each clue in turn; every grid with several solutions is checked
    checked = 0
    for r, c, _ in Grid(PUZZLE_6X6).clues():
        rows = with_cell(PUZZLE_6X6, r, c, ".")
        grid = Grid(rows)
        report = solver.solve(grid)
        if report.status is not Verdict.MULTIPLE:
            continue
        checked += 1
        found = ambiguity(solver, grid, report.solutions, Deadline(30))
        assert found.complete
        assert found.decided == brute_backbone(rows)
        assert found.suggestion
        fixed = rows
        for a, b, k in found.suggestion:
            fixed = with_cell(fixed, a, b, k)
        assert len(brute_solutions(list(fixed))) == 1
        if len(found.suggestion) > 1:  # then no single clue makes it unique
            assert found.suggestion_checked_all
            for a in range(6):
                for b in range(6):
                    if rows[a][b] == ".":
                        for k in COLOURS:
                            assert len(brute_solutions(list(with_cell(rows, a, b, k)))) != 1
    assert checked >= 1


def test_backbone_of_an_open_3x6_and_greedy_clues():
    # no clues: nothing is decided, and (checked by brute force) no single clue leaves one
    # solution, so the suggestion is several clues that do
    rows = ("......",) * 3
    solver = LixsoSolver()
    grid = Grid(rows)
    found = ambiguity(solver, grid, solver.solve(grid).solutions, Deadline(30))
    assert found.decided == brute_backbone(rows) == rows
    fixed = rows
    for a, b, k in found.suggestion:
        fixed = with_cell(fixed, a, b, k)
    assert len(brute_solutions(list(fixed))) == 1
    assert len(found.suggestion) > 1 and found.suggestion_checked_all
    assert all(len(brute_solutions(list(with_cell(rows, a, b, k)))) != 1 for a in range(3) for b in range(6) for k in COLOURS)


def write(tmp_path, rows) -> str:
    path = tmp_path / "typed.txt"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_cli_names_the_clashing_clues(run_cli, tmp_path):
    path = write(tmp_path, ("I..", "..I"))
    done = run_cli("lixso", "solve", path)
    assert done.returncode == 1
    assert "no solution: these 2 clues cannot all hold: r1c1=I, r2c3=I" in done.stdout
    row = json.loads(run_cli("lixso", "solve", "--json", path).stdout)
    assert row["conflict"] == [{"row": 1, "col": 1, "colour": "I"}, {"row": 2, "col": 3, "colour": "I"}]
    assert row["conflict_minimal"] is True and "r2c3" in row["clash"]
    assert "where: " in done.stdout
    for command in ("grade", "hint"):
        done = run_cli("lixso", command, path)
        assert done.returncode == 1 and "r1c1=I, r2c3=I" in done.stdout, command


def test_cli_shows_what_several_solutions_share(run_cli, tmp_path):
    rows = with_cell(PUZZLE_6X6, 1, 1, ".")
    path = write(tmp_path, rows)
    backbone = brute_backbone(rows)
    done = run_cli("lixso", "solve", path)
    assert done.returncode == 1
    assert "differ (shown '.')" in done.stdout and all(f"  {row}" in done.stdout for row in backbone)
    row = json.loads(run_cli("lixso", "solve", "--json", path).stdout)
    assert row["decided"] == list(backbone) and row["backbone_complete"]
    fixed = rows
    for clue in row["suggestion"]:
        fixed = with_cell(fixed, clue["row"] - 1, clue["col"] - 1, clue["colour"])
    assert len(brute_solutions(list(fixed))) == 1
    done = run_cli("lixso", "hint", path)
    assert done.returncode == 1 and "more than one solution" in done.stdout and "differ" in done.stdout


def test_grade_picks_one_grid_like_hint(run_cli):
    by_index = json.loads(run_cli("lixso", "grade", "--json", "grids/lixso/level-3.txt", "--index", "2").stdout)
    second = [g for g in load_pack("grids/lixso/level-3.txt") if isinstance(g, Grid)][1]
    assert by_index["name"] == second.name
    done = run_cli("lixso", "grade", "--json", "grids/lixso/level-3.txt", "--name", second.name)
    assert json.loads(done.stdout) == by_index
    done = run_cli("lixso", "grade", "grids/lixso/level-3.txt", "--name", "no such grid")
    assert done.returncode == 2 and "no grid named" in done.stderr
    done = run_cli("lixso", "grade", "grids/lixso/level-3.txt", "grids/lixso/level-2.txt", "--index", "1")
    assert done.returncode == 2 and "one PACK" in done.stderr


def test_cpsat_backend_answers_the_same():
    # CP-SAT gives no core: the deletion starts from every clue, and ends at the same pair
    solver = LixsoSolver("cpsat")
    conflict = conflicting_clues(solver, Grid(("I..", "..I", "...")[:2]), Deadline(30))
    assert conflict.clues == [(0, 0, "I"), (1, 2, "I")] and conflict.minimal
    rows = with_cell(PUZZLE_6X6, 1, 1, ".")
    grid = Grid(rows)
    found = ambiguity(solver, grid, solver.solve(grid).solutions, Deadline(30))
    assert found.decided == brute_backbone(rows)


def test_hint_on_several_solutions_deduces_only_shared_cells(run_cli, tmp_path):
    import re

    rows = with_cell(PUZZLE_6X6, 1, 1, ".")
    backbone = brute_backbone(rows)
    done = run_cli("lixso", "hint", "--steps", "--json", write(tmp_path, rows))
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["status"] == "multiple" and result["outcome"] == "stopped"
    deduced = {}
    for hint in result["hints"]:
        cell = re.fullmatch(r"r(\d)c(\d) is ([IXSO])", hint["fact"])
        tile = re.fullmatch(r"an? ([IXSO]) tile lies on ((?:r\dc\d ?)+)", hint["fact"])
        if cell:
            deduced[(int(cell[1]) - 1, int(cell[2]) - 1)] = cell[3]
        elif tile:
            for r, c in re.findall(r"r(\d)c(\d)", tile[2]):
                deduced[(int(r) - 1, int(c) - 1)] = tile[1]
    assert deduced, "no cell was deduced"
    # every deduced colour is one all solutions share
    assert all(backbone[r][c] == k for (r, c), k in deduced.items())
    text = result["stop"]
    shared = {(r, c) for r in range(6) for c in range(6) if backbone[r][c] != "." and rows[r][c] == "."}
    if "every cell that all solutions share is deduced" in text:
        assert shared <= set(deduced)
    else:
        assert "nested trials" in text and not shared <= set(deduced)
