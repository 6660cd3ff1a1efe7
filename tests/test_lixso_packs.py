"""Packs of many puzzles: time limits that hold on them, worker counts, stops, streaming."""

from __future__ import annotations

import json
import re
import signal
import time

import pytest

from placesat.core.limits import Deadline
from placesat.core.parallel import usable_cores, worker_count
from placesat.lixso import encode
from placesat.lixso.model import Grid
from placesat.lixso.solve import LixsoSolver, Verdict
from placesat.lixso.verify import Verifier
from tests.conftest import ROOT
from tests.test_hardening import start, stop_after

LEVELS = ROOT / "grids" / "lixso"


def empty_pack(path, count: int, size: int = 9) -> None:
    path.write_text("\n".join(f"# name: e{i}\n" + ("." * size + "\n") * size for i in range(count)))


def refuse_to_build(*args, **kwargs):
    raise AssertionError("a template was built after the time limit")


def test_past_the_limit_the_solver_builds_nothing(monkeypatch):
    # the template a time-out cuts short is not kept: each later grid of a pack rebuilt it
    monkeypatch.setattr(encode, "build_template", refuse_to_build)
    monkeypatch.setattr(encode, "_templates", {})
    deadline = Deadline(0)
    grid = Grid(("." * 9,) * 9)
    report = LixsoSolver().solve(grid, 2, deadline)
    assert report.status is Verdict.UNKNOWN and report.solutions == [] and not report.complete


def test_past_the_limit_the_verifier_builds_nothing(monkeypatch):
    monkeypatch.setattr(encode, "build_template", refuse_to_build)
    monkeypatch.setattr(encode, "_templates", {})
    verifier = Verifier(command_end=time.monotonic() - 1)
    grid = Grid(("." * 9,) * 9, name="late", metadata={"level": "3"})
    check = verifier.check(grid)
    assert (check.name, check.status, check.stated_level, check.level) == ("late", "unknown", 3, None)


@pytest.mark.parametrize("command", ["solve", "verify", "grade"])
def test_every_grid_past_the_limit_is_unknown(run_cli, tmp_path, command):
    pack = tmp_path / "empty.txt"
    empty_pack(pack, 300)
    result = run_cli("lixso", command, str(pack), "--time-limit", "0", "--json")
    assert result.returncode == 1, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["name"] for row in rows] == [f"e{i}" for i in range(300)]
    assert {row["status"] for row in rows} == {"unknown"}


def test_no_more_workers_than_work_or_cores():
    cores = usable_cores()
    assert worker_count(256, None) == cores
    assert worker_count(256, 1) == 1
    assert worker_count(256, 3) == min(3, cores)
    assert worker_count(1, 1000) == 1
    assert worker_count(2, 0) == 1


def test_verify_says_when_it_starts_fewer_workers_than_asked(run_cli, tmp_path):
    pack = tmp_path / "two.txt"
    pack.write_text("# name: a\nIIX\nIXX\n\n# name: b\nIIX\nIXX\n")
    result = run_cli("lixso", "verify", str(pack), "--jobs", "256", "--json")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "--jobs 256: starting" in warnings[0], result.stderr
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["unique", "unique"]


@pytest.mark.timing
@pytest.mark.slow
def test_ctrl_c_in_verify_on_two_workers_says_interrupted_and_how_far(tmp_path):
    pack = tmp_path / "many.txt"
    pack.write_text("\n".join([(LEVELS / "level-6.txt").read_text()] * 20))
    process = start("lixso", "verify", str(pack), "--jobs", "2")
    returncode, out, err = stop_after(process, signal.SIGINT, 3.0)
    assert returncode == 130 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    match = re.fullmatch(r"placesat: interrupted: (\d+) puzzles? checked(, up to (\S+))?", last)
    assert match, err
    shown = [line.split(":")[0] for line in out.splitlines() if ": unique" in line]
    assert len(shown) == int(match[1]) and (not shown or shown[-1] == match[3])


# --------------------------------------------------------------------------- packs as streams


def test_streamed_lines_are_the_lines_a_text_editor_counts(tmp_path):
    from placesat.core.inputs import split_lines
    from placesat.core.records import StreamedInput

    text = "\ufeffa\r\nb\rc\n\nd\x0ce\r\n\u00e9\n"
    path = tmp_path / "lines.txt"
    path.write_bytes(text.encode("utf-8"))
    assert [line for _, line in StreamedInput(str(path))] == split_lines(text.lstrip("\ufeff"))
    assert [n for n, _ in StreamedInput(str(path))] == list(range(1, 7))


def test_a_line_over_the_cap_is_skipped_and_the_next_read(tmp_path):
    from placesat.core.records import StreamedInput

    path = tmp_path / "long.txt"
    path.write_bytes(b"short\n" + b"y" * 100 + b"\nafter\n")
    assert list(StreamedInput(str(path), line_limit=50)) == [(1, "short"), (2, None), (3, "after")]


def test_a_nul_byte_ends_the_stream_with_its_place(tmp_path):
    from placesat.core.errors import InputError
    from placesat.core.records import StreamedInput

    path = tmp_path / "bin.txt"
    path.write_bytes(b"IIX\nIXX\n\nab\x00c\n")
    lines = iter(StreamedInput(str(path)))
    assert [next(lines) for _ in range(3)] == [(1, "IIX"), (2, "IXX"), (3, "")]
    with pytest.raises(InputError) as caught:
        next(lines)
    assert (caught.value.line, caught.value.column) == (4, 3) and "NUL" in str(caught.value)


def test_a_record_over_the_cap_is_named_and_the_rest_read():
    from placesat.core.inputs import numbered_lines
    from placesat.lixso.model import Grid, GridError, parse_pack, read_grids

    text = "# name: a\nIIX\nIXX\n\n# name: big\n# note: " + "z" * 200 + "\nIIX\nIXX\n\n# name: c\nIIX\nIXX\n"
    entries = list(read_grids(numbered_lines(text), "p.txt", record_limit=100))
    assert [type(e) for e in entries] == [Grid, GridError, Grid]
    assert entries[1].label() == "big" and entries[1].line == 5 and "too long" in str(entries[1])
    assert [e.name for e in entries if isinstance(e, Grid)] == ["a", "c"]
    assert [e.rows for e in parse_pack(text) if isinstance(e, Grid)][1] == ("IIX", "IXX")  # no cap hit at 16 MB


def _padded_pack(tmp_path, huge_record: bool):
    """The shipped level-1 pack with over 16 MB of comment blocks between its halves (and a
    record over the cap in the middle when ``huge_record``)."""
    grids = (LEVELS / "level-1.txt").read_text().split("\n\n")
    filler = ("# " + "f" * 1000 + "\n\n") * 17_000
    middle = "# name: huge\n# note: " + "h" * (17 * 1024 * 1024) + "\nIIX\nIXX\n\n" if huge_record else ""
    head = "\n\n".join(grids[:11]) + "\n\n" + filler
    path = tmp_path / "big.txt"
    path.write_text(head + middle + "\n\n".join(grids[11:]) + "\n")
    assert path.stat().st_size > 16 * 1024 * 1024
    return path, head.count("\n") + 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_verify_reads_a_pack_over_16_mb_and_names_an_over_long_record(run_cli, tmp_path, jobs):
    pack, huge_line = _padded_pack(tmp_path, huge_record=True)
    result = run_cli("lixso", "verify", str(pack), "--json", "--jobs", jobs)
    assert result.returncode == 1, result.stderr[-500:]
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    names = [f"L1-s2026-{i:03d}" for i in range(1, 21)]
    assert [row["name"] for row in rows] == names[:10] + ["huge"] + names[10:]
    assert rows[10]["status"] == "invalid" and "too long" in rows[10]["error"] and f":{huge_line}:" in rows[10]["error"]
    assert all(row["status"] == "unique" and row["level"] == 1 for row in rows[:10] + rows[11:])


def test_solve_grade_and_id_stream_a_pack_over_16_mb(run_cli, tmp_path):
    pack, _ = _padded_pack(tmp_path, huge_record=False)
    expected = [f"L1-s2026-{i:03d}" for i in range(1, 21)]
    for command in ("id", "grade", "solve"):
        result = run_cli("lixso", command, str(pack), "--json")
        assert result.returncode == 0, (command, result.stderr[-500:])
        assert [json.loads(line)["name"] for line in result.stdout.splitlines()] == expected


def _slow_square(n: int) -> int:
    import os
    import time

    if n == 13:
        os._exit(9)  # the worker dies, as in a native crash
    time.sleep(0.002 * (n % 5))
    return n * n


def test_ordered_results_from_a_stream_with_a_bounded_window():
    from placesat.core.parallel import WorkerCrash, run_ordered

    pulled = []

    def items():
        for n in range(40):
            pulled.append(n)
            yield n

    got = []
    for item, result in run_ordered(_slow_square, items(), 2, window=4, here=lambda n: -1 if n % 10 == 0 else None):
        got.append((item, result))
        assert len(pulled) <= item + 1 + 4 + 1  # never more than the window ahead of what was yielded
    assert [item for item, _ in got] == list(range(40))
    assert isinstance(got[13][1], WorkerCrash)
    assert all(result == (-1 if n % 10 == 0 else n * n) for n, result in got if n != 13)


# --------------------------------------------------------------------------- resumable runs

GENERATE = ["lixso", "generate", "--level", "2", "--size", "6x6", "--seed", "11"]


@pytest.fixture(scope="module")
def whole_pack(tmp_path_factory):
    """An uninterrupted run of 120 puzzles on two workers: what every resumed run must equal."""
    from tests.conftest import placesat_command
    import subprocess

    out = tmp_path_factory.mktemp("whole") / "pack.txt"
    result = subprocess.run(placesat_command() + GENERATE + ["--count", "120", "--jobs", "2", "--out", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out.read_bytes(), out.with_name("pack.answers.txt").read_bytes()


def _stop_when_written(process, out, signum, puzzles: int) -> None:
    end = time.monotonic() + 120
    while time.monotonic() < end and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"# name:") >= puzzles:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be stopped: the test needs more puzzles"
    process.send_signal(signum)
    process.communicate(timeout=60)


@pytest.mark.timing
@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGKILL, -9)])
def test_an_interrupted_generate_resumes_to_the_same_bytes(run_cli, tmp_path, whole_pack, signum, code):
    out = tmp_path / "pack.txt"
    process = start(*GENERATE, "--count", "120", "--jobs", "1", "--out", str(out))
    _stop_when_written(process, out, signum, 5)
    assert process.returncode == code, process.stderr
    text = out.read_bytes()
    answers = out.with_name("pack.answers.txt")
    pack, answer_bytes = whole_pack
    assert pack.startswith(text)  # every puzzle there is whole, and the one the full run has there
    assert answer_bytes.startswith(answers.read_bytes())
    assert answers.read_bytes().count(b"# name:") >= text.count(b"# name:")  # each puzzle's answer is written first
    if signum == signal.SIGKILL:  # a power cut may leave part of a record: it is made again
        out.write_bytes(text + b"\n# name: L2-s11-9")
        answers.write_bytes(answers.read_bytes() + b"\n# name: L2-s11-9\nSS")
    result = run_cli(*GENERATE[:-2], "--count", "120", "--resume", "--jobs", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == pack and answers.read_bytes() == answer_bytes


@pytest.mark.slow
def test_resume_refuses_another_runs_pack_and_finishes_a_whole_one(run_cli, tmp_path):
    out = tmp_path / "pack.txt"
    assert run_cli(*GENERATE, "--count", "3", "--out", str(out)).returncode == 0
    made = out.read_bytes()
    again = run_cli(*GENERATE, "--count", "3", "--resume", "--out", str(out))
    assert again.returncode == 0 and out.read_bytes() == made and "already holds all 3" in again.stderr
    other = run_cli("lixso", "generate", "--level", "1", "--size", "6x6", "--seed", "11", "--count", "3", "--resume", "--out", str(out))
    assert other.returncode == 2 and "not a pack of this command" in other.stderr and out.read_bytes() == made
    more = run_cli(*GENERATE, "--count", "5", "--resume", "--out", str(out))  # a longer pack goes on from the end
    fresh = tmp_path / "fresh.txt"
    assert run_cli(*GENERATE, "--count", "5", "--out", str(fresh)).returncode == 0
    assert more.returncode == 0 and out.read_bytes() == fresh.read_bytes()


def test_verify_resumes_from_its_results_file(run_cli, tmp_path):
    packs = [str(LEVELS / "level-1.txt"), str(LEVELS / "level-2.txt")]
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    assert run_cli("lixso", "verify", *packs, "--out", str(whole)).returncode == 0
    lines = whole.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:7]) + lines[7][:30])  # seven results and one cut short
    result = run_cli("lixso", "verify", *packs, "--out", str(part), "--resume", "--json")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["name"] for line in result.stdout.splitlines()] == [json.loads(line)["name"] for line in lines[7:]]

    def facts(path):
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in path.read_text().splitlines()]

    assert facts(part) == facts(whole) and len(facts(whole)) == 40
    assert "7 puzzles were checked before" in result.stderr
    mixed = run_cli("lixso", "verify", packs[1], "--out", str(part), "--resume")
    assert mixed.returncode == 2 and "does not hold the results of these packs" in mixed.stderr


def test_resume_without_a_seed_takes_the_packs_own(run_cli, tmp_path):
    out, fresh = tmp_path / "pack.txt", tmp_path / "fresh.txt"
    first = run_cli("lixso", "generate", "--level", "1", "--size", "6x6", "--count", "2", "--out", str(out))
    seed = first.stderr.splitlines()[0].removeprefix("seed ")
    assert first.returncode == 0 and seed.isdigit()
    assert run_cli("lixso", "generate", "--level", "1", "--size", "6x6", "--count", "4", "--resume", "--out", str(out)).returncode == 0
    assert run_cli("lixso", "generate", "--level", "1", "--size", "6x6", "--count", "4", "--seed", seed, "--out", str(fresh)).returncode == 0
    assert out.read_bytes() == fresh.read_bytes()


def test_generate_names_puzzles_with_a_prefix_and_resumes_them(run_cli, tmp_path):
    """--prefix changes the names only (the same puzzles as the default names); a run cut short
    resumes to the bytes of one run, and only under the same prefix."""
    from placesat.lixso.model import load_pack

    out, fresh, plain = tmp_path / "pack.txt", tmp_path / "fresh.txt", tmp_path / "plain.txt"
    named = [*GENERATE, "--prefix", "easy"]
    assert run_cli(*named, "--count", "2", "--out", str(out)).returncode == 0
    assert run_cli(*named, "--count", "4", "--out", str(fresh)).returncode == 0
    assert run_cli(*GENERATE, "--count", "4", "--out", str(plain)).returncode == 0
    grids, defaults = load_pack(str(fresh)), load_pack(str(plain))
    assert [g.name for g in grids] == ["easy-001", "easy-002", "easy-003", "easy-004"]
    assert [g.name for g in defaults] == ["L2-s11-001", "L2-s11-002", "L2-s11-003", "L2-s11-004"]
    assert [g.rows for g in grids] == [g.rows for g in defaults]
    answers = tmp_path / "pack.answers.txt"
    # a power cut in the middle of the third puzzle and of its answer: both are made again
    out.write_bytes(out.read_bytes() + b"\n# name: easy-003\n# level: 2\n.O")
    answers.write_bytes(answers.read_bytes() + b"\n# name: easy-003\nSS")
    other = run_cli(*GENERATE, "--count", "4", "--resume", "--out", str(out))  # the default names: another run
    assert other.returncode == 2 and "not a pack of this command" in other.stderr
    resumed = run_cli(*named, "--count", "4", "--resume", "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert "(2 were there already)" in resumed.stderr
    assert out.read_bytes() == fresh.read_bytes()
    assert answers.read_bytes() == (tmp_path / "fresh.answers.txt").read_bytes()


@pytest.mark.parametrize("prefix, said", [("", "is empty"), ("a b", "' '"), ("a\tb", "'\\t'"), ("x\x07", "'\\x07'"), ("\u2028", "'\\u2028'")])
def test_generate_refuses_a_prefix_that_cannot_be_a_name(run_cli, tmp_path, prefix, said):
    out = tmp_path / "pack.txt"
    result = run_cli(*GENERATE, "--count", "1", "--prefix", prefix, "--out", str(out))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "--prefix" in result.stderr and said in result.stderr and not out.exists()


def test_packs_and_their_answers_concatenated_make_a_mixed_level_pack(run_cli, tmp_path):
    """As docs/lixso.md says: a pack of several levels is the packs one after the other, and
    its answers their answers files the same way; verify finds every answer by its name."""
    parts = []
    for level, prefix in ((1, "one"), (2, "two")):
        part = tmp_path / f"{prefix}.txt"
        made = run_cli("lixso", "generate", "--level", str(level), "--size", "6x6", "--seed", "11", "--count", "2",
                       "--prefix", prefix, "--out", str(part))
        assert made.returncode == 0, made.stderr
        parts.append(part)
    mixed = tmp_path / "mixed.txt"
    mixed.write_bytes(b"".join(p.read_bytes() for p in parts))
    (tmp_path / "mixed.answers.txt").write_bytes(b"".join(p.with_name(p.stem + ".answers.txt").read_bytes() for p in parts))
    result = run_cli("lixso", "verify", str(mixed), "--json")
    assert result.returncode == 0, result.stderr
    checks = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(c["name"], c["status"], c["level"], c["stated_level"], c["solution_matches"]) for c in checks] == [
        ("one-001", "unique", 1, 1, True), ("one-002", "unique", 1, 1, True),
        ("two-001", "unique", 2, 2, True), ("two-002", "unique", 2, 2, True)]
    assert "warning" not in result.stderr
    # the same prefix twice: verify says the names repeat
    twice = tmp_path / "twice.txt"
    twice.write_bytes(parts[0].read_bytes() * 2)
    again = run_cli("lixso", "verify", str(twice))
    assert "warning: the name 'one-001' is used by more than one puzzle" in again.stderr


# --------------------------------------------------------------------------- answers kept apart


def test_generate_keeps_the_answers_apart_where_verify_and_check_find_them(run_cli, tmp_path):
    out = tmp_path / "pack.txt"
    made = run_cli(*GENERATE, "--count", "3", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert b"solution" not in out.read_bytes()  # a player opening the pack reads no answer
    answers = tmp_path / "pack.answers.txt"
    from placesat.lixso.model import load_pack
    from placesat.lixso.rules import find_violation

    puzzles = load_pack(str(out))  # the answers are read with the pack
    assert [p.name for p in puzzles] == ["L2-s11-001", "L2-s11-002", "L2-s11-003"]
    for puzzle in puzzles:
        solution = puzzle.stated_solution()
        assert solution is not None and find_violation(puzzle, solution) is None
        assert all(clue in (".", cell) for row, solved in zip(puzzle.rows, solution) for clue, cell in zip(row, solved))
    checked = run_cli("lixso", "verify", str(out), "--json")
    assert checked.returncode == 0 and checked.stdout.count('"solution_matches":true') == 3
    assert run_cli("lixso", "check", str(out), "--index", "2").returncode == 0  # the pack's own answer
    assert run_cli("lixso", "check", str(out), "--index", "3", str(answers)).returncode == 0  # picked by name
    # a wrong answer is caught by both
    text = answers.read_text().splitlines()
    first_row = text.index("# name: L2-s11-002") + 1
    text[first_row] = ("I" if text[first_row][0] != "I" else "X") + text[first_row][1:]
    answers.write_text("\n".join(text) + "\n")
    wrong = run_cli("lixso", "verify", str(out), "--json")
    assert wrong.returncode == 1 and wrong.stdout.count('"solution_matches":false') == 1


def test_answers_are_found_when_a_puzzle_was_taken_out_and_old_packs_still_read(tmp_path):
    from placesat.lixso.model import Grid, load_pack, with_answers

    def grid(name, rows):
        return Grid(rows, name=name)

    puzzles = [grid("a", ("..",)), grid("c", ("..",)), grid("d", ("..",))]
    answers = [grid("a", ("IX",)), grid("b", ("XS",)), grid("c", ("SO",)), grid("d", ("OI",))]
    got = {p.name: p.stated_solution() for p in with_answers(puzzles, answers)}
    assert got == {"a": ("IX",), "c": ("SO",), "d": ("OI",)}
    inline = [g for g in load_pack("grids/examples.txt") if g.stated_solution() is not None]
    assert inline  # the form of packs made before answers were kept apart
