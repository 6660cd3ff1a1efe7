"""``placesat lixso game`` through the installed command."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time

import pytest

from placesat.lixso.game.model import parse_move, parse_position
from placesat.lixso.game.rules import replay_position

from .conftest import placesat_command

GRID = "# level: 4\n.I....\n......\nO...S.\n.I....\n.X..X.\n......\n"
STARTED = "# players: IS XO\n# move: I r1c5 r1c6 r2c5\n# move: X r1c1 r2c1 r2c2\n" + GRID.split("\n", 1)[1]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "grid.txt").write_text(GRID)
    (tmp_path / "started.txt").write_text(STARTED)
    return tmp_path


def one_line_error(done, *words):
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_show_text_json_and_svg(run_cli, files):
    done = run_cli("lixso", "game", "show", str(files / "started.txt"), "--svg", str(files / "pic.svg"))
    assert done.returncode == 0, done.stderr
    assert "player 1: 1 tile · player 2: 1 tile" in done.stdout and "player 1 (I or S) to move" in done.stdout
    assert "1. I r1c5 r1c6 r2c5  2. X r1c1 r2c1 r2c2" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("  1 ")]
    assert rows == ["  1  X  i  .  .  I  I"]
    picture = (files / "pic.svg").read_text()
    assert picture.startswith("<svg") and picture.count("<line") > 4
    done = run_cli("lixso", "game", "show", str(files / "started.txt"), "--json")
    out = json.loads(done.stdout)
    assert out["sides"][0]["tiles"] == 1 and out["to_move"]["colours"] == "IS" and not out["over"]
    assert out["position"]["moves"] == ["I r1c5 r1c6 r2c5", "X r1c1 r2c1 r2c2"]


def test_moves_lists_what_the_rules_allow(run_cli, files):
    done = run_cli("lixso", "game", "moves", str(files / "started.txt"), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    game = replay_position(parse_position(STARTED))
    assert len(out["moves"]) == len(game.rules.moves(game.state)) > 0
    assert all(game.rules.violation(game.state, parse_move(m)) is None for m in out["moves"])
    text = run_cli("lixso", "game", "moves", str(files / "started.txt")).stdout
    assert text.startswith(f"player 1 (I or S) to move: {len(out['moves'])} legal tile(s)")


def test_play_writes_a_position_that_reads_back(run_cli, files):
    for name in ("next.txt", "next.json"):
        target = files / name
        done = run_cli("lixso", "game", "play", str(files / "started.txt"), "S r5c1 r6c1 r6c2", "--out", str(target))
        assert done.returncode == 0, done.stderr
        assert "player 2 (X or O) to move" in done.stdout
        position = parse_position(target.read_text(), name)
        assert [str(m) for m in position.moves][-1] == "S r5c1 r6c1 r6c2"
        shown = run_cli("lixso", "game", "show", str(target), "--json")
        assert json.loads(shown.stdout)["sides"][0]["tiles"] == 2


@pytest.mark.parametrize(
    "move, words",
    [
        ("X r4c4 r4c5 r5c4", ["turn", "player 1 (I or S)"]),
        ("S r4c1 r4c2 r5c1", ["clue", "r4c2"]),
        ("I r2c3 r2c4 r1c4", ["touch"]),
        ("I r3c2 r3c3 r2c3", ["clue-touch", "r4c2"]),
        ("S r1c1 r1c2 r2c2", ["empty"]),
        ("I r1c1 r1c2", ["names 2"]),
    ],
)
def test_play_refuses_an_illegal_move_naming_the_rule(run_cli, files, move, words):
    one_line_error(run_cli("lixso", "game", "play", str(files / "started.txt"), move), *words)


def test_no_clue_touch_rule_option(run_cli, files):
    done = run_cli("lixso", "game", "play", str(files / "started.txt"), "I r3c2 r3c3 r2c3", "--no-clue-touch-rule", "--out", str(files / "loose.txt"))
    assert done.returncode == 0, done.stderr
    assert "# clue-touch: off" in (files / "loose.txt").read_text()
    assert run_cli("lixso", "game", "show", str(files / "loose.txt")).returncode == 0


def test_bad_records_exit_2_with_the_line(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(STARTED.replace("X r1c1 r2c1 r2c2", "X r1c4 r1c5 r2c4"))
    one_line_error(run_cli("lixso", "game", "show", str(bad)), f"{bad}:3:", "move 2", "empty")
    bad.write_text('{"grid": ["...", "..."], "moves": ["I r1c1 r1c2 r9c9"]}')
    one_line_error(run_cli("lixso", "game", "bounds", str(bad)), "moves[0]", "shape")
    one_line_error(run_cli("lixso", "game", "show", str(tmp_path / "missing.txt")), "no such file")
    one_line_error(run_cli("lixso", "game", "show", str(bad), "--players", "7"), "--players")


def test_players_option_and_puzzle_ids(run_cli, files):
    done = run_cli("lixso", "game", "show", str(files / "grid.txt"), "--players", "4", "--json")
    out = json.loads(done.stdout)
    assert out["position"]["players"] == "I X O S" and out["to_move"]["name"] == "the I player (team A)"
    one_line_error(run_cli("lixso", "game", "show", str(files / "started.txt"), "--players", "4"), "disagrees")
    ident = run_cli("lixso", "id", str(files / "grid.txt")).stdout.split()[0]
    done = run_cli("lixso", "game", "moves", ident, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["moves"]


def test_level_warning(run_cli, tmp_path):
    easy = tmp_path / "easy.txt"
    easy.write_text("# level: 1\n......\n......\n")
    done = run_cli("lixso", "game", "show", str(easy))
    assert done.returncode == 0 and "warning: this grid is level 1" in done.stderr


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_bounds_json(run_cli, files, backend):
    done = run_cli("lixso", "game", "bounds", str(files / "started.txt"), "--json", "--backend", backend)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [s["laid"] for s in out["sides"]] == [1, 1]
    assert all(s["most"] >= s["sure"] >= 0 for s in out["sides"]) and out["to_move"]["side"] == 1
    assert len(out["sides"][0]["most_tiles"]) == out["sides"][0]["most"]
    text = run_cli("lixso", "game", "bounds", str(files / "started.txt"), "--backend", backend).stdout
    assert "player 1 (I, S): 1 laid; can add at most" in text and "(to move)" in text


def test_solve_json_and_text(run_cli, tmp_path):
    late = tmp_path / "late.txt"
    late.write_text(STARTED.replace("# move: X r1c1 r2c1 r2c2\n", "# move: X r1c1 r2c1 r2c2\n# move: S r5c1 r6c1 r6c2\n# move: O r3c6 r4c5 r4c6\n"))
    done = run_cli("lixso", "game", "solve", str(late), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["proven"] and out["value"] == out["lower"] == out["upper"]
    assert out["outcome"] in ("win", "loss", "draw") and out["best_move"]
    game = replay_position(parse_position(late.read_text()))
    assert game.rules.violation(game.state, parse_move(out["best_move"])) is None
    text = run_cli("lixso", "game", "solve", str(late)).stdout
    assert "with perfect play" in text and "best move:" in text


def test_solve_time_limit_is_unknown_with_a_move(run_cli, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(".........\n" * 9)
    done = run_cli("lixso", "game", "solve", str(big), "--time-limit", "0.5", "--json")
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert out["outcome"] == "unknown" and out["value"] is None and out["best_move"]
    assert out["seconds"] < 1.5


def test_three_players_cannot_be_solved(run_cli, files):
    one_line_error(run_cli("lixso", "game", "solve", str(files / "grid.txt"), "--players", "3"), "two sides")


def test_play_vs_piped_moves_then_end_of_input(run_cli, files):
    record = files / "record.txt"
    moves = "I r1c5 r1c6 r2c5\nmoves\nI r1c1 r1c2\nX r4c4 r4c5 r5c4\n"
    done = run_cli("lixso", "game", "play-vs", str(files / "grid.txt"), "--think", "0.5", "--out", str(record), input=moves)
    assert done.returncode == 0, done.stderr
    assert "not a move: a tile covers three cells" in done.stdout
    assert "illegal: turn" in done.stdout
    assert "end of input: the game stops here" in done.stdout
    position = parse_position(record.read_text())
    assert len(position.moves) == 2 and str(position.moves[0]) == "I r1c5 r1c6 r2c5"
    replay_position(position)  # the record is a legal game


def test_play_vs_to_the_end_as_json(run_cli, tmp_path):
    """The computer moves first (--you 2); the person answers with the first legal tile, found by
    running the game again with one more typed move each time (the computer's play is proven
    best on this tiny grid, so it repeats itself)."""
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("# players: 2\n...\n...\n...\n")
    typed: list[str] = []
    for _ in range(6):
        done = run_cli("lixso", "game", "play-vs", str(tiny), "--json", "--you", "2", input="".join(t + "\n" for t in typed))
        assert done.returncode == 0, done.stderr
        events = [json.loads(line) for line in done.stdout.splitlines()]
        if events[-1]["over"]:
            break
        legal = run_cli("lixso", "game", "moves", "-", "--json", input=json.dumps(events[-1]["position"]))
        typed.append(json.loads(legal.stdout)["moves"][0])
    assert events[-1]["over"] and "by" not in events[-1]  # the closing summary
    assert [e["by"] for e in events[:-1]] == ["computer", "you", "computer"][: len(events) - 1]
    assert sum(side["tiles"] for side in events[-1]["sides"]) == len(events) - 1


@pytest.mark.timing
def test_play_vs_ctrl_c_exits_130(files):
    process = subprocess.Popen(
        placesat_command() + ["lixso", "game", "play-vs", str(files / "grid.txt")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        seen = b""
        end = time.monotonic() + 60
        while b"your move>" not in seen and time.monotonic() < end:
            ready, _, _ = select.select([process.stdout], [], [], 1)
            if ready:
                seen += os.read(process.stdout.fileno(), 4096)
        assert b"your move>" in seen
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert err.decode().strip().splitlines() == ["placesat: interrupted"]


def test_every_command_names_the_player_to_move_alike(run_cli):
    # show gave an object, moves a name, solve "player 1" and bounds a number
    position = "grids/lixso-game/6x6-L4-1.txt"
    shown = json.loads(run_cli("lixso", "game", "show", position, "--json").stdout)["to_move"]
    assert set(shown) == {"seat", "side", "name", "colours"}
    for command in (["moves"], ["bounds"], ["solve", "--time-limit", "2"]):
        assert json.loads(run_cli("lixso", "game", *command, position, "--json").stdout)["to_move"] == shown, command


def test_new_starts_a_game_that_play_continues(run_cli, tmp_path):
    # every game needs `new` (issue 32): the Lixso game had none
    start = tmp_path / "start.txt"
    made = run_cli("lixso", "game", "new", "grids/lixso/level-3.txt", "--index", "2", "--out", str(start))
    assert made.returncode == 0, made.stderr
    text = start.read_text()
    assert "# players: IS XO" in text and "# move:" not in text and "# solution:" not in text
    shown = run_cli("lixso", "game", "moves", str(start), "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["to_move"]["seat"] == 1
    four = run_cli("lixso", "game", "new", "grids/lixso/level-3.txt", "--index", "2", "--players", "4", "--out", str(tmp_path / "four.json"))
    assert four.returncode == 0 and len(json.loads((tmp_path / "four.json").read_text())["players"].split()) == 4
    refused = run_cli("lixso", "game", "new", "grids/lixso-game/9x9-midgame.txt")
    assert refused.returncode == 2 and "already holds" in refused.stderr and refused.stdout == ""
