"""``placesat quarry`` through the installed command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"


def test_new_play_show(run_cli, tmp_path):
    start = tmp_path / "start.json"
    done = run_cli("quarry", "new", "--length", "6", "--width", "4", "--first", "blue", "--out", str(start))
    assert done.returncode == 0, done.stderr
    assert json.loads(start.read_text())["board"] == {"length": 6, "width": 4, "zones": "outside"}
    after = tmp_path / "after.json"
    done = run_cli("quarry", "play", str(start), "beam b2 s", "--out", str(after))
    assert done.returncode == 0, done.stderr
    assert "blue plays beam b2 s (rests at height 0)" in done.stdout
    moves = json.loads(after.read_text())["moves"]
    assert moves == [{"player": "blue", "stone": "beam", "face": "up", "dir": "s", "at": "b2", "height": 0}]
    done = run_cli("quarry", "show", str(after), "--json")
    out = json.loads(done.stdout)
    assert out["to_move"] == "black" and out["heights"][1] == [0, 1, 0, 0] and out["top"][2][1] == "blue"
    assert out["left"]["blue"]["beam"] == 2
    done = run_cli("quarry", "show", str(after))
    assert "O1" in done.stdout and "black to move" in done.stdout and "\x1b[" not in done.stdout


def test_play_from_stdin_and_json(run_cli):
    text = (GRIDS / "crossing-beam.json").read_text()
    done = run_cli("quarry", "play", "-", "beam c5 e", "--json", input=text)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["height"] == 1 and out["winner"] is None and out["position"]["moves"][-1]["at"] == "c5"


def test_illegal_move_names_the_rule(run_cli):
    done = run_cli("quarry", "play", str(GRIDS / "step-on-opponent.json"), "step c5 e down")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "end on the opponent" in lines[0] and "rule 1" in lines[0]


@pytest.mark.parametrize("content, expected", [
    ('{"moves": [{"player": "black", "stone": "beam", "at": "c3", "dir": "s"}, {"player": "black", "stone": "block", "at": "a1"}]}',
     "moves[1]: it is blue's turn, not black's"),
    ('{"moves": [{"player": "black", "stone": "span", "at": "g1"}]}', "moves[0]: span g1 e: off the board"),
    ('{"board": {"width": 40}}', "board.width: must be from 1 to 26"),
    ('{"moves": [', ":1:"),
])
def test_bad_positions_exit_2_with_one_line(run_cli, tmp_path, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    for command in (["show", str(path)], ["moves", str(path)], ["threats", str(path)], ["reach", str(path), "-p", "black"]):
        done = run_cli("quarry", *command)
        assert done.returncode == 2, (command, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and str(path) in lines[0], lines
        assert "Traceback" not in done.stderr


def test_bad_options(run_cli, tmp_path):
    empty = str(GRIDS / "empty.json")
    for args, expected in [
        (["new", "--zones", "middle"], "--zones"),
        (["new", "--length", "1"], "--length: must be from 2"),
        (["reach", empty, "-p", "red"], "--player"),
        (["reach", empty, "--objective", "cheap"], "--objective"),
        (["show", empty, "--view", "side"], "--view"),
        (["moves", empty, "--stone", "rock"], "unknown stone"),
        (["play", empty, "rock a1"], "unknown stone"),
        (["new", "--stones", str(tmp_path / "none.json")], "no such file"),
        (["show", empty, "--svg", str(tmp_path)], "directory"),
    ]:
        done = run_cli("quarry", *args)
        assert done.returncode == 2 and expected in done.stderr, (args, done.stderr)


def test_new_with_a_stone_file(run_cli, tmp_path):
    stones = tmp_path / "stones.json"
    stones.write_text(json.dumps({"stones": [{"name": "block", "count": 3, "faces": [{"layers": ["#"], "base": "e"}]},
                                             {"name": "brick", "count": 1, "faces": [{"layers": ["##"], "base": "ee"}]}]}))
    done = run_cli("quarry", "new", "--stones", str(stones), "--length", "4", "--width", "2")
    assert done.returncode == 0, done.stderr
    position = tmp_path / "p.json"
    position.write_text(done.stdout)
    done = run_cli("quarry", "reach", str(position), "-p", "black", "--json")
    out = json.loads(done.stdout)
    assert out["answer"] == "possible" and out["stones"] == 3 and out["points"] == 6  # brick + 2 blocks
    bad = tmp_path / "bad.json"
    bad.write_text('{"stones": [{"name": "block", "count": 3, "faces": [{"layers": ["#"], "base": "-"}]}]}')
    done = run_cli("quarry", "new", "--stones", str(bad))
    assert done.returncode == 2 and "stones[0].faces[0].base: a stone needs at least one end" in done.stderr


def test_moves_threats_block(run_cli):
    black_wins = str(GRIDS / "black-wins.json")
    done = run_cli("quarry", "threats", black_wins)
    assert done.returncode == 0 and "no threats: black has won" in done.stdout
    done = run_cli("quarry", "moves", str(GRIDS / "empty.json"), "--stone", "span", "--json")
    out = json.loads(done.stdout)
    assert list(out["moves"]) == ["span"] and len(out["moves"]["span"]) == 10 * 6 + 7 * 9  # across and along
    done = run_cli("quarry", "threats", str(GRIDS / "crossing-beam.json"), "--json")
    assert json.loads(done.stdout) == {"to_move": "black", "black": [], "blue": []}
    done = run_cli("quarry", "block", str(GRIDS / "arch-over-beam.json"), "--json")
    out = json.loads(done.stdout)
    assert out["player"] == "black" and out["opponent_threats"] == 0 and len(out["blocks"]) == out["legal"]


def test_reach_text_json_and_svg(run_cli, tmp_path):
    picture = tmp_path / "line.svg"
    done = run_cli("quarry", "reach", str(GRIDS / "blue-wins.json"), "-p", "black")
    assert done.returncode == 0 and "impossible: the game is over: blue has won" in done.stdout
    small = tmp_path / "small.json"
    small.write_text(run_cli("quarry", "new", "--length", "5", "--width", "3").stdout)
    done = run_cli("quarry", "reach", str(small), "-p", "blue", "--objective", "points", "--svg", str(picture), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["answer"] == "possible" and out["points"] == 5 and out["stones"] == 5  # five blocks in a column
    assert len(out["line"]) == 5 and picture.read_text().startswith("<svg")
    done = run_cli("quarry", "reach", str(small), "-p", "black", "--backend", "sat")
    assert done.returncode == 0 and "2 stone(s) at the fewest" in done.stdout and "1. " in done.stdout


def test_race_and_time_limit(run_cli, tmp_path):
    small = tmp_path / "small.json"
    small.write_text(run_cli("quarry", "new", "--length", "5", "--width", "3").stdout)
    done = run_cli("quarry", "race", str(small), "--json")
    out = json.loads(done.stdout)
    assert out["lead"]["stones"] == {"verdict": "level", "ahead": None, "by": 0}
    assert out["fewest_stones"]["black"]["stones"] == 2
    done = run_cli("quarry", "reach", str(GRIDS / "midgame.json"), "-p", "black", "--time-limit", "0.01", "--json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["answer"] == "unknown"


def test_show_svg_views(run_cli, tmp_path):
    for view in ("top", "iso"):
        picture = tmp_path / f"{view}.svg"
        done = run_cli("quarry", "show", str(GRIDS / "blue-wins.json"), "--svg", str(picture), "--view", view)
        assert done.returncode == 0, done.stderr
        assert picture.read_text().startswith("<svg") and "</svg>" in picture.read_text()


def test_race_with_an_unknown_answer_names_no_one_ahead(run_cli, tmp_path):
    # it said "no one is ahead" (a guess) when the time limit left a side's answer unknown
    small = tmp_path / "small.json"
    small.write_text(run_cli("quarry", "new", "--length", "5", "--width", "3").stdout)
    done = run_cli("quarry", "race", str(small), "--time-limit", "0")
    assert done.returncode == 1
    assert "by stones: unknown" in done.stdout and "no one is ahead" not in done.stdout
    out = json.loads(run_cli("quarry", "race", str(small), "--time-limit", "0", "--json").stdout)
    assert out["lead"]["stones"] == {"verdict": "unknown", "ahead": None, "by": None}
    level = run_cli("quarry", "race", str(small))
    assert "by stones: level; black, to move, is a tempo ahead" in level.stdout


def test_block_takes_a_time_limit(run_cli):
    # it had none, and an empty 30x26 board took about a minute
    done = run_cli("quarry", "block", str(GRIDS / "midgame.json"), "--time-limit", "0")
    assert done.returncode == 1 and done.stdout.startswith("unknown")
    done = run_cli("quarry", "block", str(GRIDS / "midgame.json"), "--time-limit", "0", "--json")
    assert done.returncode == 1 and json.loads(done.stdout)["answer"] == "unknown"
    full = run_cli("quarry", "block", str(GRIDS / "midgame.json"), "--time-limit", "60", "--json")
    assert full.returncode == 0 and "blocks" in json.loads(full.stdout)
