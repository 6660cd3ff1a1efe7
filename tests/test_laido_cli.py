"""``placesat laido`` through the installed command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PLACESAT = str(Path(sys.executable).with_name("placesat"))
GRIDS = Path(__file__).resolve().parent.parent / "grids" / "laido"


def run(*args, cwd=None):
    return subprocess.run([PLACESAT, "laido", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_score_json(backend):
    done = run("score", GRIDS / "hand.json", "--json", "--backend", backend)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["black"]["values"] == [6] and out["white"]["values"] == [2, -3]
    assert out["winner"] == "black"
    assert out["decided_by"] == {"kind": "value", "rank": 1, "black": 6, "white": 2}
    assert out["black"]["groups"][0]["connection_part"] == [[q, 0] for q in range(-3, 4)]


def test_score_text_and_svg(tmp_path):
    picture = tmp_path / "branch.svg"
    done = run("score", GRIDS / "branch.json", "--reading", "shortest", "--svg", picture)
    assert done.returncode == 0, done.stderr
    assert "black: values 2" in done.stdout and "winner" in done.stdout
    assert picture.read_text().startswith("<svg") and "<polyline" in picture.read_text()


@pytest.mark.parametrize(
    "content, expected",
    [
        ('{"size": 4, "black": [[0, 0], [4, 0]]}', "black[1]: point [4, 0] is off the board"),
        ('{"size": 4, "black": [[0, 0]], "white": [[0, 0]]}', "white[0]: point [0, 0] already holds a stone"),
        ('{"size": 20}', "size: must be an integer from 2 to 15"),
        ('{"size": 4,\n "black": [[0, 0]', ":2:"),
        ('{"size": 3, "moves": [[0, 0], [0, 0]]}', "moves[1]: point [0, 0] already holds a black stone"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    for command in (["score", path], ["reach", path, "--player", "black", "--stones", "1"], ["moves", path]):
        done = run(*command)
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and str(path) in lines[0]
        assert "Traceback" not in done.stderr


def test_missing_file_and_bad_options(tmp_path):
    done = run("score", tmp_path / "nothing.json")
    assert done.returncode == 2 and "no such file" in done.stderr
    done = run("score", GRIDS / "hand.json", "--reading", "middle")
    assert done.returncode == 2 and "unknown reading" in done.stderr
    done = run("reach", GRIDS / "hand.json", "--player", "red", "--stones", "1")
    assert done.returncode == 2 and "--player" in done.stderr


def test_reach_yes_and_no(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"size": 3, "black": [[0, 0]], "white": [[1, 0]], "to_move": "black"}))
    done = run("reach", path, "--player", "white", "--stones", "1", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["answer"] == "yes" and len(out["stones"]) == 1 and out["final"]["winner"] == "white"
    done = run("reach", path, "--player", "white", "--stones", "0")
    assert done.returncode == 0 and done.stdout.startswith("no")
    done = run("reach", path, "--player", "black", "--stones", "2", "--best", "--json", "--backend", "sat")
    out = json.loads(done.stdout)
    assert out["answer"] == "yes" and out["best_value"] == 2  # two touching edge stones, new or grown


def test_play_and_moves():
    done = run("play", GRIDS / "game.json", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["moves"][1]["move"] == "swap" and out["moves"][1]["to_move"] == "white"
    assert out["moves"][-1]["game_over"] and out["position"]["swapped"]
    done = run("moves", GRIDS / "game.json", "--upto", "1", "--json")
    out = json.loads(done.stdout)
    assert out["to_move"] == "white" and "swap" in out["moves"] and "pass" in out["moves"]
    assert len(out["moves"]) == 61 - 1 + 2  # 61 points on a size-5 board, one taken
    done = run("moves", GRIDS / "game.json", "--json")
    assert json.loads(done.stdout) == {"to_move": None, "moves": []}


def test_time_limit_says_unknown():
    done = run("reach", GRIDS / "race9.json", "--player", "black", "--stones", "4", "--time-limit", "0.01", "--json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["answer"] == "unknown"
