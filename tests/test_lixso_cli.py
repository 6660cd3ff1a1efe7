"""The ``placesat lixso`` commands through the installed executable."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SOLVED_PACK = """# name: tiny
IIX
IXX

# name: open
...
...
"""


@pytest.fixture
def pack(tmp_path):
    path = tmp_path / "pack.txt"
    path.write_text(SOLVED_PACK)
    return path


def test_solve_shipped_examples_exit_zero(run_cli):
    result = run_cli("lixso", "solve", "grids/examples.txt")
    assert result.returncode == 0, result.stderr
    assert ": unique" in result.stdout


def test_solve_loads_neither_numpy_nor_numba():
    # the first command of README: numpy's import alone (and its thread pool) was a third of it
    probe = (
        "import sys; sys.argv = ['placesat', 'lixso', 'solve', 'grids/examples.txt']\n"
        "from placesat.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('loaded:', sorted(m for m in ('numpy', 'numba') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=root, timeout=120)
    assert result.returncode == 0, result.stderr
    assert ": unique" in result.stdout
    assert result.stdout.strip().endswith("loaded: []"), result.stdout


def test_solve_json_lines(run_cli, pack):
    result = run_cli("lixso", "solve", str(pack), "--json")
    assert result.returncode == 1  # the second grid is not unique
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(d["name"], d["status"]) for d in lines] == [("tiny", "unique"), ("open", "multiple")]
    assert lines[0]["solutions"] == [["IIX", "IXX"]]
    assert len(lines[1]["solutions"]) == 2 and all(d["seconds"] >= 0 for d in lines)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_backends_through_the_cli(run_cli, pack, backend):
    result = run_cli("lixso", "solve", str(pack), "--json", "--backend", backend, "--all")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines[1]["solutions"]) == 24  # 2 tilings x 4 x 3 colourings


def test_plain_output_when_not_a_terminal(run_cli, pack):
    result = run_cli("lixso", "solve", str(pack), "-n", "1")
    assert "tiny: unique" in result.stdout
    assert "IIX\nIXX" in result.stdout


def test_bad_grid_in_a_pack_is_reported_and_the_rest_solved(run_cli, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("IIX\nIXX\n\n.Z.\n...\n")
    result = run_cli("lixso", "solve", str(path))
    assert result.returncode == 2
    assert f"{path}:4:2: unknown character 'Z'" in result.stderr
    assert "unique" in result.stdout
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda d: str(d / "missing.txt"), "no such file"),
        (lambda d: str(d), "folder holds no grid files"),
        (lambda d: (d / "e.txt").write_text("") and str(d / "e.txt") or str(d / "e.txt"), "no grid"),
        (lambda d: (d / "b.bin").write_bytes(b"\x00\x01") and str(d / "b.bin"), "binary"),
        (lambda d: (d / "r.txt").write_text("...\n....\n") and str(d / "r.txt"), "ragged"),
        (lambda d: (d / "s.txt").write_text("....\n....\n") and str(d / "s.txt"), "not divisible by 3"),
    ],
)
def test_bad_input_exits_2_with_one_line(run_cli, tmp_path, setup, message):
    result = run_cli("lixso", "solve", setup(tmp_path))
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_unknown_backend_is_a_usage_error(run_cli, pack):
    result = run_cli("lixso", "solve", str(pack), "--backend", "z3")
    assert result.returncode == 2 and "unknown backend" in result.stderr


def test_time_limit_zero_gives_unknown(run_cli, pack):
    result = run_cli("lixso", "solve", str(pack), "--time-limit", "0", "--json")
    assert result.returncode == 1
    assert {json.loads(line)["status"] for line in result.stdout.splitlines()} == {"unknown"}


def test_svg_is_written(run_cli, pack, tmp_path):
    out = tmp_path / "pic.svg"
    result = run_cli("lixso", "solve", str(pack), "--svg", str(out))
    assert (tmp_path / "pic-1.svg").read_text().startswith("<svg")
    assert (tmp_path / "pic-2.svg").exists()
    assert result.returncode == 1


def test_check_valid_and_broken(run_cli, tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("I..\n...\n...\n...\n...\n...\n")
    good = tmp_path / "good.txt"
    good.write_text("IIX\nIXX\nSSO\nSOO\nIIX\nIXX\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("IIX\nIXX\nSII\nSSI\nOOX\nOXX\n")
    result = run_cli("lixso", "check", str(puzzle), str(good))
    assert result.returncode == 0 and "valid" in result.stdout
    result = run_cli("lixso", "check", str(puzzle), str(bad), "--json")
    verdict = json.loads(result.stdout)
    assert result.returncode == 1 and verdict["valid"] is False and verdict["rule"] == "touch"
    assert [2, 1] in verdict["cells"] and [3, 2] in verdict["cells"]


def test_help_explains(run_cli):
    result = run_cli("lixso", "solve", "--help")
    assert result.returncode == 0 and "unique" in result.stdout and "--time-limit" in result.stdout


@pytest.mark.parametrize("command", [["grade"], ["verify", "--grade"], ["verify", "--grade", "--jobs", "2"]])
def test_a_grid_no_tile_fits_is_unsolvable_and_the_rest_go_on(run_cli, tmp_path, command):
    # one cell wide, so no L-tile fits: grading it used to end the whole command (exit 70)
    path = tmp_path / "thin.txt"
    path.write_text("# name: thin\n...\n\n# name: tiny\n.IX\n...\n")
    result = run_cli("lixso", *command, str(path), "--json")
    assert result.returncode == 1, result.stderr
    lines = {d["name"]: d for d in map(json.loads, result.stdout.splitlines())}
    assert set(lines) == {"thin", "tiny"}
    assert lines["tiny"]["level"] == 1
    assert lines["thin"]["level"] is None and "Traceback" not in result.stderr
    assert lines["thin"]["status"] == "unsolvable"  # with two workers the crash read "unknown"


@pytest.mark.parametrize("command", [["grade"], ["id"], ["verify"], ["verify", "--jobs", "2"], ["solve"]])
def test_batch_json_names_every_grid_in_file_order(run_cli, tmp_path, command):
    # grade and id left bad grids out of their JSON, and verify listed them before the rest
    path = tmp_path / "mixed.txt"
    path.write_text("# name: ok1\n.IX\n...\n\n# name: bad\n.IZ\n...\n\n# name: ok2\nX..\n...\n")
    result = run_cli("lixso", *command, str(path), "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["name"] for d in lines] == ["ok1", "bad", "ok2"], result.stdout
    assert lines[1]["status"] == "invalid" and "unknown character 'Z'" in lines[1]["error"]
    assert "Traceback" not in result.stderr


def test_check_takes_one_puzzle_and_one_solution(run_cli, tmp_path):
    # with packs it checked the first grid of each and said "valid", the rest unread
    pack = tmp_path / "pack.txt"
    pack.write_text("...\n...\n\nIII\n...\n")
    answer = tmp_path / "answer.txt"
    answer.write_text("IIX\nIXX\n")
    refused = run_cli("lixso", "check", str(pack), str(answer))
    assert refused.returncode == 2 and "holds 2 grids" in refused.stderr and "--index" in refused.stderr
    assert run_cli("lixso", "check", str(pack), str(answer), "--index", "1").returncode == 0
    assert run_cli("lixso", "check", str(pack), str(answer), "--index", "2").returncode == 1  # the III clue row breaks
    answers = tmp_path / "answers.txt"
    answers.write_text("IIX\nIXX\n\nIIX\nIXX\n")
    refused = run_cli("lixso", "check", str(answer), str(answers))
    assert refused.returncode == 2 and "holds 2 grids" in refused.stderr



def test_hint_reads_standard_input_once(run_cli):
    result = run_cli("lixso", "hint", "-", "--state", "-", input=".IX\n...\n")
    assert result.returncode == 2 and "only one of FILE and --state" in result.stderr
