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


def test_an_unknown_score_names_no_values(tmp_path):
    # after a time-out the picture said "black: values (no group)" of a full board, and the JSON
    # gave empty lists, which is what an empty board gives
    picture = tmp_path / "u.svg"
    done = run("score", GRIDS / "full9-1.json", "--time-limit", "0", "--svg", picture)
    assert done.returncode == 1 and done.stdout.startswith("unknown")
    assert "(no group)" not in picture.read_text() and "values unknown" in picture.read_text()
    out = json.loads(run("score", GRIDS / "full9-1.json", "--time-limit", "0", "--json").stdout)
    assert out["status"] == "unknown" and out["black"] == out["white"] == {"values": None, "groups": None}


def test_score_and_reach_take_upto_as_seeds_say():
    # seeds/laido.md: every command that takes a position takes a record, with --upto N;
    # score and reach refused the option
    from placesat.laido.model import load_game
    from placesat.laido.rules import replay
    from placesat.laido.score import score_position

    after_3 = replay(load_game(str(GRIDS / "game.json")))[3]
    out = json.loads(run("score", GRIDS / "game.json", "--upto", "3", "--json").stdout)
    expected = score_position(after_3).to_json()
    assert {k: out[k] for k in ("black", "white", "winner")} == {k: expected[k] for k in ("black", "white", "winner")}
    done = run("reach", GRIDS / "game.json", "--upto", "3", "--player", "black", "--stones", "1", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["answer"] in ("yes", "no")
    assert run("score", GRIDS / "hand.json", "--upto", "1").returncode == 2  # a position, not a record


def test_stdin_in_every_command():
    record = (GRIDS / "game.json").read_text()
    for command in (["score", "-", "--json"], ["moves", "-", "--json"], ["play", "-", "--json"],
                    ["reach", "-", "--player", "black", "--stones", "0", "--json"]):
        done = subprocess.run([PLACESAT, "laido", *command], input=record, capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), (command, done.stderr)
        json.loads(done.stdout)


def test_play_adds_moves_one_by_one(tmp_path):
    """play GAME MOVE --out: a record grows by the move; a swap only right after Black's first stone."""
    game = tmp_path / "g.json"
    game.write_text('{"size": 3, "moves": []}')
    for move in ("0,0", "swap", "[1, -1]", "pass"):
        done = run("play", game, move, "--out", game)
        assert done.returncode == 0, done.stderr
    assert json.loads(game.read_text()) == {"size": 3, "moves": [[0, 0], "swap", [1, -1], "pass"]}
    done = run("play", game, "swap")
    assert done.returncode == 2 and "swap is allowed only" in done.stderr
    done = run("play", game, "pass", "--json")
    out = json.loads(done.stdout)
    # a lone stone each (-1 against -1): a full tie; Black (the second player after the swap)
    # passed first, at move 4, so Black has the half point
    assert out["moves"][-1]["game_over"] and out["score"]["winner"] == "black"
    assert out["score"]["decided_by"]["kind"] == "half point"
    done = run("play", game, "pass")
    assert done.stdout.splitlines()[-1].startswith("winner (game over): ")
    position = tmp_path / "p.json"
    position.write_text('{"size": 3, "black": [[0, 0]], "to_move": "white"}')
    done = run("play", position, "2,-2", "--out", tmp_path / "q.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "q.json").read_text())["white"] == [[2, -2]]
    assert run("play", position, "5,5").returncode == 2
    assert run("play", position, "banana").returncode == 2


def test_move_list_after_a_swap_names_the_players():
    done = run("play", GRIDS / "game.json")
    lines = done.stdout.splitlines()
    assert lines[1].startswith("  2. white swaps (pie rule)")
    assert lines[2] == "  3. white (the first player) plays [1, -1]"
    assert lines[3] == "  4. black (the second player) plays [-1, 0]"
    assert lines[-1] == "winner (game over): white - comparison 1: black -5 vs white -1"


def test_empty_board_says_what_decided_it():
    done = subprocess.run([PLACESAT, "laido", "score", "-"], input='{"size": 4}', capture_output=True, text=True, timeout=60)
    last = done.stdout.splitlines()[-1]
    assert "no group on the board" in last and "would pass first (nobody has passed yet)" in last
    assert "who passed first" not in last


@pytest.mark.timing
def test_reach_interrupted_says_interrupted():
    import signal
    import time

    process = subprocess.Popen([PLACESAT, "laido", "reach", str(GRIDS / "race9.json"), "-p", "black", "-k", "8"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err.strip() == "placesat: interrupted" and "unknown" not in out


def test_tiebreak_option():
    done = subprocess.run([PLACESAT, "laido", "score", "-", "--tiebreak", "hills", "--json"],
                          input='{"size": 3, "black": [[1, 0]], "white": [[0, 0]], "passes": 2, "first_pass": "white"}',
                          capture_output=True, text=True, timeout=60)
    out = json.loads(done.stdout)
    # both have one lone stone (-1 each); White's is on the centre, Black's on hill 1: Black has fewer at the centre
    assert out["winner"] == "black" and out["decided_by"] == {"kind": "hills", "rank": 0, "black": 0, "white": 1}
    done = run("score", GRIDS / "hand.json", "--tiebreak", "middle")
    assert done.returncode == 2 and "--tiebreak" in done.stderr
