"""``placesat logisticks`` through the installed command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from placesat.logisticks.model import parse_move, position_from_json
from placesat.logisticks.rules import PlannedPlacement, replay, scores

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "logisticks"
PLACESAT = Path(sys.executable).parent / "placesat"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(PLACESAT), "logisticks", *args], capture_output=True, text=True, timeout=120)


def test_help_explains_the_commands():
    result = run("--help")
    assert result.returncode == 0
    for command in ("show", "moves", "play", "analyze", "satisfy"):
        assert command in result.stdout


def test_show_text_json_and_svg(tmp_path):
    result = run("show", str(GRIDS / "start.json"))
    assert result.returncode == 0
    assert "[nW wB]" in result.stdout and "turn 1: player 1 to move" in result.stdout
    picture = tmp_path / "board.svg"
    result = run("show", str(GRIDS / "midgame.json"), "--svg", str(picture), "--json")
    data = json.loads(result.stdout)
    assert len(data["position"]["pieces"]) == 16 and data["game_over"] is False
    assert set(data["signals"].values()) <= {"TRUE", "FALSE", "MUTABLE"}
    assert picture.read_text().startswith("<svg")


def test_moves_and_play_chain(tmp_path):
    result = run("moves", str(GRIDS / "start.json"), "--json")
    assert len(json.loads(result.stdout)["moves"]) == 72
    after = tmp_path / "after.json"
    result = run("play", str(GRIDS / "start.json"), "d6 NOT S", "--json", "--out", str(after))
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["to_move"] == 2 and data["turn"] == 2 and data["supply"]["1"]["NOT"] == 4
    shown = json.loads(run("show", str(after), "--json").stdout)
    assert shown["signals"]["d6"] == "FALSE"  # NOT of d5's white north stone


@pytest.mark.parametrize(
    "content,expected",
    [
        ('{"pieces": [', "malformed JSON"),
        ('{"pieces": [{"square": "e4", "piece": "PASS", "inputs": "S", "player": 1}]}', "centre square"),
        ('{"pieces": [{"square": "d6", "piece": "FOO", "inputs": "S", "player": 1}]}', "unknown piece"),
        ('{"players": 2, "pieces": [{"square": "d6", "piece": "XOR", "inputs": "SW", "player": 1},'
         '{"square": "d7", "piece": "PASS", "inputs": "S", "player": 2},'
         '{"square": "c7", "piece": "PASS", "inputs": "E", "player": 1},'
         '{"square": "c6", "piece": "PASS", "inputs": "N", "player": 2}]}', "loop"),
        ('{"supply": {"1": {"AND": 6}, "2": {"AND": 5}}}', "only 10"),
        ('{"pieces": [{"square": "a5", "piece": "PASS", "inputs": "W", "player": 1}]}', "rim"),
    ],
)
def test_bad_positions_exit_2_with_one_line(tmp_path, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    commands = [["show"], ["moves"], ["analyze"], ["satisfy", "--player", "1"]] if "centre" in expected else [["analyze"]]
    for command in commands:
        result = run(*command, str(path))
        assert result.returncode == 2, (command, result.stderr)
        assert expected in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_missing_file_directory_and_illegal_move(tmp_path):
    for path in (tmp_path / "nope.json", tmp_path):
        result = run("show", str(path))
        assert result.returncode == 2 and result.stderr.count("\n") == 1
    result = run("play", str(GRIDS / "start.json"), "d7 PASS S")
    assert result.returncode == 2 and "faces no source" in result.stderr
    result = run("play", str(GRIDS / "start.json"), "d6 QUUX S")
    assert result.returncode == 2 and "unknown piece" in result.stderr
    result = run("analyze", str(GRIDS / "start.json"), "--backend", "z3")
    assert result.returncode == 2 and "unknown backend" in result.stderr


def test_analyze_backends_agree_through_the_command():
    outputs = []
    for backend in ("sat", "cpsat"):
        result = run("analyze", str(GRIDS / "late.json"), "--json", "--backend", backend)
        assert result.returncode == 0
        data = json.loads(result.stdout)
        outputs.append((data["targets"], data["mutable"], data["max_score"]))
    assert outputs[0] == outputs[1]
    verdicts = {t["verdict"] for t in outputs[0][0]}
    assert {"open", "no signal"} <= verdicts
    for target in outputs[0][0]:  # "no signal": it can end neither matched nor unmatched
        neither = target["can_end_matched"] == target["can_end_unmatched"] == "impossible"
        assert (target["verdict"] == "no signal") == neither


def test_analyze_time_limit_says_unknown():
    result = run("analyze", str(GRIDS / "midgame.json"), "--time-limit", "0")
    assert result.returncode == 1 and "unknown" in result.stdout


def test_satisfy_line_replays_to_the_claimed_score():
    result = run("satisfy", str(GRIDS / "late.json"), "--player", "2", "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    position = position_from_json(json.loads((GRIDS / "late.json").read_text()))
    plan = []
    for step in data["plan"]:
        placement = parse_move(f"{step['square']} {step['piece']} {step['inputs']}")
        plan.append(PlannedPlacement(step["turn"], step["player"], placement))
    assert scores(replay(position, plan))[2].points == data["score"] > 0
    result = run("satisfy", str(GRIDS / "late.json"), "--player", "2", "--score", str(data["score"] + 1))
    assert result.returncode == 1 and "impossible" in result.stdout


def test_new_position_with_a_random_layout(tmp_path):
    path = tmp_path / "new.json"
    result = run("new", "--players", "3", "--layout", "random", "--seed", "9", "--out", str(path))
    assert result.returncode == 0
    data = json.loads(path.read_text())
    assert data["players"] == 3 and sorted(data["targets"]["3"].values()) == ["B"] * 4 + ["W"] * 4
    assert sum(sum(s.values()) for s in data["supply"].values()) == 60
    moves = json.loads(run("moves", str(path), "--json").stdout)["moves"]
    assert len(moves) == 72
