"""What a person touches: print & play sheets, drawings, puzzle IDs, and the rough edges."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from placesat.lixso.model import Grid, load_pack, parse_id, parse_pack, puzzle_id
from tests.conftest import ROOT

LEVEL_3 = ROOT / "grids" / "lixso" / "level-3.txt"
LEVEL_6 = ROOT / "grids" / "lixso" / "level-6.txt"


def pdf_pages(path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(str(path)).pages]


# --------------------------------------------------------------------------- print


def test_print_puts_puzzles_on_pages_and_never_their_answers(run_cli, tmp_path):
    out = tmp_path / "sheet.pdf"
    result = run_cli("lixso", "print", str(LEVEL_3), "--out", str(out), "--per-page", "6")
    assert result.returncode == 0, result.stderr
    pages = pdf_pages(out)
    assert len(pages) == 4  # 20 puzzles, 6 a page
    grids = [g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid)]
    for number, grid in enumerate(grids):
        page = pages[number // 6]
        assert grid.name in page and "Level 3" in page
    for page_number, page in enumerate(pages):
        shown = grids[page_number * 6 : page_number * 6 + 6]
        letters = sum(len(re.findall(r"\b[IXSO]\b", line)) for line in page.splitlines() if not line.startswith(("L3-", "Cover")))
        # a clue is printed once; an answer would print every cell
        assert letters == sum(len(g.clues()) for g in shown)


def test_print_with_solutions_adds_smaller_answer_pages(run_cli, tmp_path):
    out = tmp_path / "sheet.pdf"
    result = run_cli("lixso", "print", str(LEVEL_6), "--out", str(out), "--per-page", "4", "--solutions", "--symbols", "--paper", "letter", "--title", "Club night")
    assert result.returncode == 0, result.stderr
    pages = pdf_pages(out)
    assert len(pages) == 5 + 2  # 20 puzzles four to a page, then 20 answers twelve to a page
    assert all("Club night" in page for page in pages)
    assert all("answers" in page for page in pages[5:]) and not any("answers" in page for page in pages[:5])
    first = next(g for g in load_pack(str(LEVEL_6)) if isinstance(g, Grid))
    answer_letters = [line for line in pages[5].splitlines() if re.fullmatch(r"[IXSO ]+", line.strip() or "-")]
    assert sum(len(line.split()) for line in answer_letters) >= 81 * 12  # every cell of twelve answers
    from pypdf import PdfReader

    box = PdfReader(str(out)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US letter
    assert first.name in pages[0]


def test_print_leaves_out_what_is_not_a_puzzle_and_says_so(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: good\n# level: 1\nIIX\nIXX\n\n# name: loose\n...\n...\n\n# name: broken\n.Q.\n...\n")
    out = tmp_path / "sheet.pdf"
    result = run_cli("lixso", "print", str(pack), "--out", str(out), "--per-page", "1")
    assert result.returncode == 2
    assert "loose: multiple, not printed" in result.stderr and "grid 'broken'" in result.stderr
    assert len(pdf_pages(out)) == 1 and "good" in pdf_pages(out)[0]


@pytest.mark.parametrize("option, value", [("--per-page", "3"), ("--paper", "a5")])
def test_print_refuses_bad_layouts(run_cli, tmp_path, option, value):
    result = run_cli("lixso", "print", str(LEVEL_3), "--out", str(tmp_path / "x.pdf"), option, value)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.pdf").exists()


# --------------------------------------------------------------------------- draw


def test_draw_shows_the_puzzle_alone_and_says_when_it_is_not_one(run_cli, tmp_path):
    out = tmp_path / "p.svg"
    result = run_cli("lixso", "draw", str(ROOT / "grids" / "examples.txt"), "--out", str(out), "--symbols")
    assert result.returncode == 0, result.stderr
    first = (tmp_path / "p-1.svg").read_text()
    assert first.startswith("<svg") and "solution" not in first and "fill=\"#" not in first.replace('fill="white"', "")
    loose = tmp_path / "loose.txt"
    loose.write_text("......\n......\n")
    result = run_cli("lixso", "draw", str(loose), "--out", str(out))
    assert result.returncode == 1 and "more than one solution" in out.read_text()
    none = tmp_path / "none.txt"
    none.write_text("II.\n.I.\n")
    run_cli("lixso", "draw", str(none), "--out", str(out))
    assert "no solution" in out.read_text()


def test_solve_all_counts_and_draws_every_solution(run_cli, tmp_path):
    grid = tmp_path / "open.txt"
    grid.write_text("...\n...\n")
    result = run_cli("lixso", "solve", str(grid), "--all", "--svg", str(tmp_path / "s.svg"))
    assert "24 solutions in all" in result.stdout
    assert len(list(tmp_path.glob("s-s*.svg"))) == 24


def test_solve_all_says_when_the_time_limit_cut_the_list_short(run_cli, tmp_path):
    grid = tmp_path / "open.txt"
    grid.write_text(("." * 9 + "\n") * 9)
    result = run_cli("lixso", "solve", str(grid), "--all", "--time-limit", "1")
    assert result.returncode == 1
    assert re.search(r"stopped at the time limit after \d+ solutions: there may be more", result.stdout)
    result = run_cli("lixso", "solve", str(grid), "--all", "--time-limit", "1", "--json")
    assert json.loads(result.stdout)["all_found"] is False


# --------------------------------------------------------------------------- IDs


def test_ids_round_trip_every_shipped_puzzle():
    for level in range(1, 7):
        for grid in load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt")):
            assert parse_id(puzzle_id(grid)).rows == grid.rows


def test_id_format_by_hand():
    grid = Grid(("I..", "..X", "...", "..."))
    assert puzzle_id(grid).startswith("LX4x3-IdX-")  # I, four empty cells, X; trailing empties left out
    (big,) = parse_pack("." * 30 + "\n" + "." * 29 + "O\n")
    assert puzzle_id(big).startswith("LX2x30-zzgO-")  # 59 empty cells: 26 + 26 + 7


def test_an_id_s_check_characters_are_read_in_any_case():
    # a lower-case check was not taken for an ID at all ("no such file")
    grid = next(g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid))
    text = puzzle_id(grid)
    head, check = text.rsplit("-", 1)
    assert parse_id(f"{head}-{check.lower()}").rows == grid.rows


@pytest.mark.parametrize("mangle", [lambda s: s[:-1] + ("A" if s[-1] != "A" else "B"), lambda s: s.replace("I", "X", 1), lambda s: s.replace("b", "c", 1),
                                    lambda s: s[:-1] + ("a" if s[-1] not in "Aa" else "b")])
def test_a_mistyped_id_is_caught(mangle):
    from placesat.core.errors import InputError

    grid = next(g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid))
    with pytest.raises(InputError, match="check characters"):
        parse_id(mangle(puzzle_id(grid)))


def test_every_command_takes_an_id(run_cli):
    result = run_cli("lixso", "id", str(LEVEL_6), "--json")
    first = json.loads(result.stdout.splitlines()[0])
    result = run_cli("lixso", "solve", first["id"], "--json")
    assert json.loads(result.stdout)["status"] == "unique"
    result = run_cli("lixso", "grade", first["id"])
    assert "level 6" in result.stdout


# --------------------------------------------------------------------------- rough edges


def test_check_with_a_solution_of_another_size_is_bad_input(run_cli, tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("I..\n...\n")
    solution = tmp_path / "s.txt"
    solution.write_text("IIX\nIXX\nSSO\nSOO\n")
    result = run_cli("lixso", "check", str(puzzle), str(solution))
    assert result.returncode == 2 and "the solution is 4x3, the puzzle is 2x3" in result.stderr


def test_verify_summary_counts_each_puzzle_once(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text(
        "# name: a\n# level: 6\nIIX\nIXX\n\n# name: b\n# solution: IIX/IXX\nIIX\nIXX\n\n"
        "# name: c\nIIX\nIXX\n\n# name: d\n# solution: SSO/SOO\nIIX\nIXX\n"
    )
    result = run_cli("lixso", "verify", str(pack))
    rows = dict(re.findall(r"│ ([a-z][a-z ,/]*?)\s+│\s+(\d+) │", result.stdout))
    assert rows == {"unique": "2", "unique, but stated level/solution wrong": "2"}


def test_version_and_completion_are_offered(run_cli):
    result = run_cli("--version")
    assert result.returncode == 0 and re.fullmatch(r"placesat \S+\n", result.stdout)
    assert "--install-completion" in run_cli("--help").stdout


def test_help_shows_brackets_as_typed(run_cli):
    for args in (["laido", "--help"], ["laido", "moves", "--help"], ["--help"]):
        assert "\\[" not in run_cli(*args).stdout
    assert "[q," in run_cli("laido", "--help").stdout


# --------------------------------------------------------------------------- hints


def _hint_session(grid):
    from placesat.lixso.explain import explainer_for

    return explainer_for(grid.height, grid.width).session(grid)


@pytest.mark.parametrize("level, grids", [(1, 2), (3, 2), pytest.param(4, 1, marks=pytest.mark.slow)])
def test_hint_steps_are_true_and_solve_the_shipped_puzzles(level, grids):
    """Every hint (colours and 'cannot be's alike) holds in the stated solution, and
    following them fills the grid of shipped puzzles up to level 4."""
    from placesat.lixso.model import COLOURS

    for grid in [g for g in load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt")) if isinstance(g, Grid)][:grids]:
        solution = grid.stated_solution()
        session = _hint_session(grid)
        count = 0
        while not session.complete():
            hint = session.next()[0]
            kind, index, k = hint.key
            cells = [index] if kind == "cell" else session.board.cells_of[index]
            if hint.value or kind == "cell":
                for i in cells:
                    r, c = divmod(i, grid.width)
                    assert (solution[r][c] == COLOURS[k]) == hint.value, (grid.name, hint.fact, hint.reason)
            else:  # a refuted tile: its cells are not all that colour in the solution
                assert not all(solution[i // grid.width][i % grid.width] == COLOURS[k] for i in cells)
            assert hint.level <= max(level, 2) + 1 and hint.reason
            session.accept(hint)
            count += 1
        assert session.rows() == solution and count >= 27 - len(grid.clues()) // 3


def test_a_direct_hint_names_the_clue_the_cells_and_the_rule():
    # by hand: the X tiles through the corner clue r9c1 are r8c1 r9c1 r9c2, r8c1 r8c2 r9c1 and
    # r8c2 r9c1 r9c2; the last two would cover the O clue at r8c2
    grid = next(g for g in load_pack(str(ROOT / "grids" / "lixso" / "level-1.txt")) if isinstance(g, Grid))
    assert grid.rows[8][0] == "X" and grid.rows[7][1] == "O"
    hint = _hint_session(grid).next()[0]
    assert (hint.level, hint.fact) == (1, "an X tile lies on r8c1 r9c1 r9c2")
    assert hint.reason == (
        "the X clue at r9c1 needs an X tile, and r8c1 r9c1 r9c2 is the only one that still fits "
        "(the others would cover the O clue at r8c2)"
    )


def test_a_trial_hint_names_the_chain(run_cli):
    # a one-step chain: the trial says how long it is
    result = run_cli("lixso", "hint", str(ROOT / "grids" / "lixso" / "level-4.txt"), "--index", "2")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "L4-s2026-002"
    assert ("[level 3] r7c4 is not I: if r7c4 were I, then r7c5 would be left with no possible colour "
            "(one trial, 1 step by the direct rules)") in result.stdout


def test_level_only_says_where_not_what(run_cli):
    result = run_cli("lixso", "hint", str(ROOT / "grids" / "lixso" / "level-4.txt"), "--index", "2", "--level-only")
    assert "needs level 3" in result.stdout and "look at row 7, column 4" in result.stdout
    assert "is not" not in result.stdout and "S" not in result.stdout.split("\n", 1)[1].replace("S tile", "")


def test_hint_with_progress_names_wrong_cells_first(run_cli, tmp_path):
    grid = next(g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid))
    solution = grid.stated_solution()
    rows = [list(row) for row in grid.rows]
    free = [(r, c) for r in range(9) for c in range(9) if grid.rows[r][c] == "."]
    (r1, c1), (r2, c2) = free[0], free[1]
    rows[r1][c1] = solution[r1][c1]
    rows[r2][c2] = next(ch for ch in "IXSO" if ch != solution[r2][c2])
    state = tmp_path / "state.txt"
    state.write_text("\n".join("".join(row) for row in rows) + "\n")
    result = run_cli("lixso", "hint", str(LEVEL_3), "--state", str(state))
    assert result.returncode == 1 and f"r{r2 + 1}c{c2 + 1}" in result.stdout and f"r{r1 + 1}c{c1 + 1} " not in result.stdout
    rows[r2][c2] = "."
    state.write_text("\n".join("".join(row) for row in rows) + "\n")
    result = run_cli("lixso", "hint", str(LEVEL_3), "--state", str(state), "--json")
    answer = json.loads(result.stdout)
    assert result.returncode == 0 and answer["hints"] and "solution" not in answer


def test_hint_picks_a_grid_of_a_pack_and_refuses_improper_ones(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: fine\nIIX\nIXX\n\n# name: loose\n...\n...\n\n# name: none\nII.\n.I.\n")
    result = run_cli("lixso", "hint", str(pack), "--name", "loose")
    # several solutions: still refused as a puzzle (exit 1), but hint says what every solution
    # shares (here nothing: the 2x3 grid has an L of each shape both ways) and deduces only
    # what holds in all of them (issue 42): no tile can lie on r1c2 r1c3 r2c2, whatever colour
    assert result.returncode == 1 and "more than one solution" in result.stdout
    assert "0 of 6 cells are the same in every solution" in result.stdout
    assert "[level 4] an I tile cannot lie on r1c2 r1c3 r2c2" in result.stdout
    result = run_cli("lixso", "hint", str(pack), "--index", "3")
    assert result.returncode == 1 and "no solution" in result.stdout
    result = run_cli("lixso", "hint", str(pack), "--index", "9")
    assert result.returncode == 2 and "the pack has 3 grid(s)" in result.stderr
    result = run_cli("lixso", "hint", str(pack), "--name", "fine")
    assert result.returncode == 0 and "nothing left to deduce" in result.stdout


# --------------------------------------------------------------------------- --json beside a file


def test_print_json_says_what_was_printed_and_what_was_left_out(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: good\n# level: 1\nIIX\nIXX\n\n# name: loose\n...\n...\n\n# name: broken\n.Q.\n...\n")
    out = tmp_path / "sheet.pdf"
    result = run_cli("lixso", "print", str(pack), "--out", str(out), "--per-page", "1", "--solutions", "--json")
    assert result.returncode == 2
    summary = json.loads(result.stdout)
    assert summary["printed"] == ["good"] and (summary["file"], summary["pages"], summary["answer_pages"]) == (str(out), 1, 1)
    loose, broken = summary["left_out"]
    assert loose == {"name": "loose", "status": "multiple"}
    assert (broken["name"], broken["status"]) == ("broken", "invalid") and "'Q'" in broken["error"]


def test_print_json_when_nothing_can_be_printed(run_cli, tmp_path):
    # it printed no JSON at all then, though left_out is there for exactly this
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: loose\n...\n...\n")
    out = tmp_path / "sheet.pdf"
    result = run_cli("lixso", "print", str(pack), "--out", str(out), "--json")
    assert result.returncode == 1 and "no puzzle to print" in result.stderr and not out.exists()
    assert json.loads(result.stdout) == {"file": None, "printed": [], "left_out": [{"name": "loose", "status": "multiple"}],
                                         "pages": 0, "answer_pages": 0, "cover_pages": 0}


def test_draw_json_is_a_line_per_grid_with_its_file(run_cli, tmp_path):
    out = tmp_path / "p.svg"
    result = run_cli("lixso", "draw", str(ROOT / "grids" / "examples.txt"), "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    names = [g.name for g in load_pack(str(ROOT / "grids" / "examples.txt")) if isinstance(g, Grid)]
    assert [line["name"] for line in lines] == names and {line["status"] for line in lines} == {"unique"}
    assert [line["file"] for line in lines] == [str(tmp_path / f"p-{i}.svg") for i in range(1, len(names) + 1)]
    assert all(Path(line["file"]).read_text().startswith("<svg") for line in lines)


def test_generate_json_names_each_puzzle_and_its_clues(run_cli, tmp_path):
    out = tmp_path / "pack.txt"
    result = run_cli("lixso", "generate", "--count", "2", "--level", "1", "--size", "6x6", "--seed", "4", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    made = [g for g in load_pack(str(out)) if isinstance(g, Grid)]
    assert {k: summary[k] for k in ("file", "level", "size", "seed")} == {"file": str(out), "level": 1, "size": "6x6", "seed": 4}
    assert summary["puzzles"] == [{"name": g.name, "clues": len(g.clues())} for g in made]


@pytest.mark.parametrize("args", [
    ("lixso", "generate", "--count", "1", "--level", "1", "--out", "-", "--json"),
    ("lixso", "print", "grids/lixso/level-1.txt", "--out", "-", "--json"),
    ("lixso", "draw", "grids/examples.txt", "--out", "-", "--json"),
    ("lixso", "solve", "grids/examples.txt", "--svg", "-", "--json"),
    ("lsd", "show", "grids/lsd/mid20.json", "--svg", "-", "--json"),
])
def test_json_and_a_second_document_on_standard_output_are_refused(run_cli, args):
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "'-'" in result.stderr


@pytest.mark.parametrize("args", [
    ("lixso", "solve", "EXAMPLES", "--svg", "-"),
    ("lixso", "solve", "ONE", "--all", "--svg", "-"),
    ("lixso", "draw", "EXAMPLES", "--out", "-"),
])
def test_several_pictures_are_not_sent_to_standard_output(run_cli, tmp_path, args):
    # they used to become files named "--1.svg", "--2.svg" in the working folder
    one = tmp_path / "one.txt"
    one.write_text("...\n...\n")  # two solutions: with --all, two pictures
    work = tmp_path / "work"
    work.mkdir()
    files = {"EXAMPLES": str(ROOT / "grids" / "examples.txt"), "ONE": str(one)}
    result = run_cli(*(files.get(arg, arg) for arg in args), cwd=work)
    assert result.returncode == 2 and "standard output" in result.stderr and result.stdout == ""
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("args, document", [
    (("lixso", "solve", "ONE", "--svg", "-"), "svg"),
    (("lixso", "game", "show", "grids/lixso-game/6x6-L3-1.txt", "--svg", "-"), "svg"),
    (("lsd", "show", "grids/lsd/mid20.json", "--svg", "-"), "svg"),
    (("quarry", "show", "grids/quarry/blue-wins.json", "--svg", "-"), "svg"),
    (("logisticks", "show", "grids/logisticks/start.json", "--svg", "-"), "svg"),
    (("laido", "score", "grids/laido/game.json", "--svg", "-"), "svg"),
    (("lsd", "play", "grids/lsd/start.json", "0,0 N+", "--out", "-"), "json"),
    (("quarry", "play", "grids/quarry/arch-over-beam.json", "block a1", "--out", "-"), "json"),
    (("logisticks", "play", "grids/logisticks/start.json", "d6 AND SE", "--out", "-"), "json"),
])
def test_an_output_given_as_dash_has_standard_output_to_itself(run_cli, tmp_path, args, document):
    # the text report used to be printed around it, so the picture could not be piped anywhere
    one = tmp_path / "one.txt"
    one.write_text(".IX\n...\n")
    result = run_cli(*(str(one) if arg == "ONE" else arg for arg in args), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    if document == "svg":
        assert result.stdout.startswith("<svg") and result.stdout.rstrip().endswith("</svg>")
        assert result.stdout.count("<svg") == 1
    else:
        json.loads(result.stdout)


@pytest.mark.parametrize("args, words", [
    (("lsd", "play", "grids/lsd/start.json", "0,0 N+", "--out", "-", "--svg", "-"), "cannot both be '-'"),
    (("lixso", "game", "play-vs", "grids/lixso-game/6x6-L3-1.txt", "--out", "-"), "played on standard output"),
    (("lsd", "reach", "grids/lsd/start.json", "-p", "1", "-k", "1", "--svg", "-"), "only some answers draw a picture"),
    (("quarry", "reach", "grids/quarry/blue-wins.json", "--svg", "-"), "only some answers draw a picture"),
])
def test_dash_is_refused_where_standard_output_cannot_hold_the_output_alone(run_cli, args, words):
    result = run_cli(*args, cwd=ROOT)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr


def test_numbered_pictures_are_checked_before_the_work_starts(run_cli, tmp_path):
    # a folder in the way of the second picture used to be found after the first was written
    pack = tmp_path / "pack.txt"
    pack.write_text("...\n...\n\n.IX\n...\n\n# name: third\n......\n......\n......\n")
    (tmp_path / "pic-2.svg").mkdir()
    for args in (("draw", str(pack), "-o", "pic.svg"), ("solve", str(pack), "--svg", "pic.svg")):
        result = run_cli("lixso", *args, cwd=tmp_path)
        assert result.returncode == 2 and "pic-2.svg" in result.stderr and "directory" in result.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.txt", "pic-2.svg"]


def test_draw_draws_the_readable_grids_of_a_pack_with_bad_ones(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: ok1\n.IX\n...\n\n# name: bad\n.IZ\n...\n\n# name: ok2\nX..\n...\n")
    result = run_cli("lixso", "draw", str(pack), "-o", str(tmp_path / "p.svg"), "--json")
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(d["name"], d["status"]) for d in lines] == [("ok1", "unique"), ("bad", "invalid"), ("ok2", "multiple")]
    assert (tmp_path / "p-1.svg").read_text().startswith("<svg") and (tmp_path / "p-2.svg").exists()
    assert "unknown character 'Z'" in result.stderr


def test_hint_json_says_how_the_hints_ended(run_cli, tmp_path):
    # the JSON gave the same bare {"status": "unique", "hints": [...]} whether the steps solved the
    # grid or stopped short of it, and for a grid with nothing left to deduce
    level_1 = str(ROOT / "grids" / "lixso" / "level-1.txt")
    one = json.loads(run_cli("lixso", "hint", level_1, "--index", "1", "--json").stdout)
    assert one["outcome"] == "next" and len(one["hints"]) == 1
    every = json.loads(run_cli("lixso", "hint", level_1, "--index", "1", "--steps", "--json").stdout)
    assert every["outcome"] == "solved" and len(every["hints"]) > 1
    done = run_cli("lixso", "hint", "-", "--json", input="IIX\nIXX\n")
    assert json.loads(done.stdout) | {"name": None} == {"name": None, "status": "unique", "hints": [], "outcome": "filled"}
    # a 6x9 level-6 puzzle (generate --size 6x9 --level 6 --seed 1): the steps stop short
    level_6 = ".........\n.S.I.O.S.\n.........\n.....I...\n.SI..O.X.\n...O....X\n"
    assert json.loads(run_cli("lixso", "grade", "-", "--json", input=level_6).stdout)["level"] == 6
    stuck = json.loads(run_cli("lixso", "hint", "-", "--steps", "--json", input=level_6).stdout)
    assert stuck["outcome"] == "level 6" and stuck["status"] == "unique" and stuck["hints"]


def test_print_keeps_every_caption_and_the_rules_within_the_margins(tmp_path):
    # the rules ran to 2 mm from the paper's right edge, a long name ran into the next puzzle,
    # and on a narrow grid the name and the level were drawn over each other
    from pypdf import PdfReader
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from placesat.lixso.sheets import SheetPuzzle, sheets_pdf

    long_name = "a-very-long-puzzle-name-" * 4
    narrow = Grid(tuple("." * 3 for _ in range(30)), name="narrow-one")
    wide = Grid((".IX", "..."), name=long_name)
    solution = tuple("IIX" if r % 2 == 0 else "IXX" for r in range(30))
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(sheets_pdf([SheetPuzzle(narrow, 1, solution), SheetPuzzle(wide, 1, ("IIX", "IXX"))], per_page=6, paper="a4"))
    page = PdfReader(str(pdf)).pages[0]
    width = float(page.mediabox.width)
    pieces = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: pieces.append((text.strip(), tm[4] * cm[0] + cm[4], size * tm[0] * cm[0], font)) if text.strip() else None)
    margin = 14 / 25.4 * 72
    for text, x, size, font in pieces:
        bold = "Bold" in str(font.get("/BaseFont", "")) if font else False
        right = x + stringWidth(text, "Helvetica-Bold" if bold else "Helvetica", size)
        assert margin - 0.5 <= x and right <= width - margin + 0.5, (text, x, right)
    shown = " ".join(text for text, *_ in pieces)
    assert long_name not in shown and "a-very-long-puzzle-name-" in shown and "\u2026" in shown
    assert "narrow-one" in shown and "Level 1" in shown
    captions = sorted((x, text) for text, x, *_ in pieces if text in ("narrow-one", "Level 1"))
    name_x, level_x = captions[0][0], captions[1][0]
    assert name_x + stringWidth("narrow-one", "Helvetica-Bold", 9.5) < level_x  # side by side, not overlapping


# --------------------------------------------------------------------------- labels (issue 29)


def test_pictures_number_the_rows_and_columns_as_hints_name_cells(run_cli, tmp_path):
    from placesat.lixso.render import svg

    grid = next(g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid))
    labelled, clean = svg(grid), svg(grid, labels=False)
    numbers = re.findall(r'fill="dimgray"[^>]*>(\d+)</text>', labelled)
    assert numbers == [str(n) for n in range(1, 10)] * 2  # columns, then rows
    assert not re.findall(r'fill="dimgray"', clean)
    out = tmp_path / "s.svg"
    assert run_cli("lixso", "solve", str(LEVEL_3), "--svg", str(out), "--no-labels").returncode == 0
    assert not re.findall(r'fill="dimgray"', (tmp_path / "s-1.svg").read_text())


@pytest.mark.parametrize("labels", [True, False])
def test_printed_sheets_number_rows_and_columns_unless_asked_not_to(run_cli, tmp_path, labels):
    out = tmp_path / "sheet.pdf"
    args = ["lixso", "print", str(LEVEL_3), "--out", str(out), "--per-page", "1"] + ([] if labels else ["--no-labels"])
    assert run_cli(*args).returncode == 0
    page = pdf_pages(out)[0]
    digits = re.findall(r"(?m)^\s*[1-9]\s*$|\b[1-9]\b", page.replace("page 1", "").replace("Level 3", "").replace("L3-s2026-001", ""))
    assert (len(digits) >= 18) == labels, page


def test_the_text_grid_numbers_rows_and_columns():
    from rich.console import Console

    from placesat.lixso.render import outlined

    grid = next(g for g in load_pack(str(LEVEL_3)) if isinstance(g, Grid))
    console = Console(width=100, record=True)
    console.print(outlined(grid.stated_solution(), grid))
    lines = console.export_text().splitlines()
    assert lines[0].split() == [str(n) for n in range(1, 10)]
    assert [line.split()[0] for line in lines[2::2][:9]] == [str(n) for n in range(1, 10)]
    console = Console(width=100, record=True)
    console.print(outlined(grid.stated_solution(), grid, labels=False))
    assert not any(ch.isdigit() for ch in console.export_text())


def test_shipped_puzzle_names_are_unique_and_verify_warns_on_a_repeated_one(run_cli, tmp_path):
    shipped = [ROOT / "grids" / "examples.txt"] + sorted((ROOT / "grids" / "lixso").glob("level-[0-9].txt"))
    names = [g.name for path in shipped for g in load_pack(str(path)) if isinstance(g, Grid)]
    assert len(names) == len(set(names)) == 122
    twice = tmp_path / "twice.txt"
    text = (ROOT / "grids" / "examples.txt").read_text()
    twice.write_text(text + "\n" + text.replace("example-level-6", "other"))
    result = run_cli("lixso", "verify", str(twice))
    assert "warning: the name 'example-level-2' is used by more than one puzzle" in result.stderr
    assert "'other'" not in result.stderr and "'example-level-6'" not in result.stderr


def test_printed_sheets_carry_their_title_creator_and_date(run_cli, tmp_path, monkeypatch):
    """The PDF's properties, read back: the title (--title, else the pack's name), "placesat
    <version>" as creator, the creation date (now, or SOURCE_DATE_EPOCH: then the same bytes)."""
    import datetime

    from pypdf import PdfReader

    from placesat import __version__

    pack = tmp_path / "club-pack.txt"
    pack.write_text("# name: good\n# level: 1\nIIX\nIXX\n")
    out = tmp_path / "sheet.pdf"
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    assert run_cli("lixso", "print", str(pack), "--out", str(out)).returncode == 0
    after = datetime.datetime.now(datetime.timezone.utc)
    meta = PdfReader(str(out)).metadata
    assert meta.title == "Lixso puzzles: club-pack"
    assert meta.creator == f"placesat {__version__}" and meta.author == "placesat"
    assert before <= meta.creation_date <= after
    assert run_cli("lixso", "print", str(pack), "--out", str(out), "--title", "Club night").returncode == 0
    assert PdfReader(str(out)).metadata.title == "Club night"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    again = tmp_path / "again.pdf"
    for path in (out, again):
        assert run_cli("lixso", "print", str(pack), "--out", str(path)).returncode == 0
    meta = PdfReader(str(out)).metadata
    assert meta.creation_date == datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.timezone.utc)
    assert out.read_bytes() == again.read_bytes()


def test_a_cover_page_names_the_title_count_levels_and_date(run_cli, tmp_path, monkeypatch):
    """--cover: one page more, first; it says the title, the pack, the puzzles per level (as
    the grids' '# level:' lines say) and SOURCE_DATE_EPOCH's day; the puzzle pages count from 1."""
    pack = tmp_path / "club-pack.txt"
    pack.write_text("# name: one\n# level: 1\nIIX\nIXX\n\n# name: two\n# level: 1\nXII\nXXI\n\n# name: three\n# level: 2\nIIX\nIXX\n")
    out, plain = tmp_path / "cover.pdf", tmp_path / "plain.pdf"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    done = run_cli("lixso", "print", str(pack), "--out", str(out), "--cover", "--title", "Club night", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cover_pages"] == 1 and "after a cover page" in done.stderr
    assert run_cli("lixso", "print", str(pack), "--out", str(plain), "--title", "Club night").returncode == 0
    pages, without = pdf_pages(out), pdf_pages(plain)
    assert len(pages) == len(without) + 1
    cover = pages[0]
    for words in ("Club night", "club-pack", "3 puzzles", "Level 1", "2 puzzles", "Level 2", "1 puzzle", "made 2023-11-14"):
        assert words in cover, (words, cover)
    assert "page 1" in pages[1] and "page" not in cover
    assert pages[1:] == without
