"""``placesat lsd`` through the installed command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def one_error_line(done, *fragments):
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_new_show_and_three_players(run_cli, tmp_path):
    out = tmp_path / "start.json"
    done = run_cli("lsd", "new", "--players", "4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    start = json.loads(out.read_text())
    assert start["players"] == 4 and start["icon_colours"] == ["black", "white", "black", "white"]
    done = run_cli("lsd", "show", str(out), "--json")
    assert json.loads(done.stdout)["to_move"] == 1
    one_error_line(run_cli("lsd", "new", "--players", "3"), "3 players are not supported")


def test_new_with_a_tileset(run_cli, tmp_path):
    tiles = tmp_path / "tiles.json"
    tiles.write_text('{"NESW+": 2, "NS x": 3}')
    done = run_cli("lsd", "new", "--tileset", str(tiles), "--json")
    assert json.loads(done.stdout)["tileset"] == {"NSx": 3, "NESW+": 2}
    tiles.write_text('{"NESW+": 2, "SN x": 3, "EW x": 1}')
    one_error_line(run_cli("lsd", "new", "--tileset", str(tiles)), str(tiles), "EW x: the kind NSx is already listed")


def test_show_text_json_and_svg(run_cli, tmp_path):
    picture = tmp_path / "mid.svg"
    done = run_cli("lsd", "show", str(GRIDS / "mid20.json"), "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    assert "1+b" in done.stdout and "player 1 to move" in done.stdout and "\x1b[" not in done.stdout  # plain in a pipe
    assert picture.read_text().startswith("<svg")
    state = json.loads(run_cli("lsd", "show", str(GRIDS / "mid20.json"), "--json").stdout)
    assert state["winner"] is None and not state["draw"] and len(state["position"]["field"]) == 20


def test_the_rule_text_examples_on_the_command_line(run_cli):
    listed = run_cli("lsd", "moves", str(GRIDS / "plus-capture.json")).stdout
    assert "2,0 W+  captures 1,0" in listed
    listed = json.loads(run_cli("lsd", "moves", str(GRIDS / "plus-no-capture.json"), "--json").stdout)
    assert {"move": "2,0 W+", "captures": [], "wins": False} in listed["moves"]
    played = json.loads(run_cli("lsd", "play", str(GRIDS / "x-capture.json"), "1,1 SWx", "--json").stdout)
    assert played["moves"][0]["captures"] == [[0, 1], [1, 0]]
    assert "must skip" in run_cli("lsd", "moves", str(GRIDS / "skip.json")).stdout


def test_play_writes_the_position_and_refuses_illegal_moves(run_cli, tmp_path):
    out = tmp_path / "next.json"
    done = run_cli("lsd", "play", str(GRIDS / "plus-capture.json"), "2,0 W+", "1,0 EW+", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "captures 1,0" in done.stdout
    after = json.loads(out.read_text())
    assert after["captured"] == [{}, {"NSx": 1}] and after["to_move"] == 1
    one_error_line(run_cli("lsd", "play", str(GRIDS / "plus-capture.json"), "2,0 N+"), "MOVE 1 (2,0 N+)", "empty W side would obstruct")
    one_error_line(run_cli("lsd", "play", str(GRIDS / "plus-capture.json"), "2,0 W"), "MOVE 1: cannot read the move")
    one_error_line(run_cli("lsd", "play", str(GRIDS / "skip.json"), "1,0 W+"), "player 2 has no N+ tile left")


def test_threats(run_cli):
    position = GRIDS / "double-threat.json"
    done = run_cli("lsd", "play", str(position), "1,2 EW+", "--json")
    after = json.loads(done.stdout)["position"]
    threats = json.loads(run_cli("lsd", "threats", "-", "--json", input=json.dumps(after)).stdout)["threats"]
    assert {m.split()[0] for m in threats["1"]} == {"-2,2", "2,2"} and threats["2"] == []
    text = run_cli("lsd", "threats", "-", input=json.dumps(after)).stdout
    assert "player 1: 14 winning placement(s) on 2 cell(s)" in text and "  2,2: W+ EW+ EWx NEW+ NSW+ ESW+ NESW+" in text


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_reach(run_cli, backend, tmp_path):
    picture = tmp_path / "line.svg"
    done = run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "--player", "2", "--plies", "4", "--backend", backend, "--json")
    answer = json.loads(done.stdout)
    assert answer["answer"] == "yes" and len(answer["moves"]) == 4 and answer["moves"][-1]["player"] == 2
    done = run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "2", "-k", "3", "-b", backend)
    assert done.stdout.startswith("no: player 2 cannot have a line within 3 plies")
    done = run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "1", "-k", "3", "--svg", str(picture))
    assert done.stdout.startswith("yes: player 1 has a line after 3 plies") and "<svg" in picture.read_text()


def test_reach_and_forced_time_limits_say_unknown(run_cli):
    done = run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "1", "-k", "6", "--time-limit", "0")
    assert done.returncode == 1 and done.stdout.startswith("unknown")
    done = run_cli("lsd", "forced", str(GRIDS / "mid20.json"), "-p", "1", "-d", "9", "--time-limit", "0")
    assert done.returncode == 1 and done.stdout.startswith("unknown")


def test_forced(run_cli):
    done = run_cli("lsd", "forced", str(GRIDS / "double-threat.json"), "--player", "1", "--depth", "3")
    assert done.returncode == 0 and done.stdout.startswith("win: player 1 forces a line within 3 plies, starting with 1,2 EW+")
    answer = json.loads(run_cli("lsd", "forced", str(GRIDS / "double-threat.json"), "-p", "1", "-d", "3", "--json").stdout)
    assert answer["strategy"]["move"] == "1,2 EW+" and all(r["answer"] for r in answer["strategy"]["replies"])
    done = run_cli("lsd", "forced", str(GRIDS / "mid20.json"), "-p", "2", "-d", "3")
    assert done.stdout.startswith("no forced win")


@pytest.mark.parametrize("content, fragments", [
    ('{"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "N", "icon": "+"}, {"at": [0, 0], "player": 2, "dots": "S", "icon": "x"}]}',
     ["field[1].at: cell 0,0 already holds a tile"]),
    ('{"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "E", "icon": "+"}, {"at": [1, 0], "player": 2, "dots": "N", "icon": "x"}]}',
     ["field[0] at 0,0: its half dot on the E side is obstructed"]),
    ('{"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "N", "icon": "+"}, {"at": [0, 1], "player": 2, "dots": "S", "icon": "x"}, {"at": [1, 0], "player": 2, "dots": "N", "icon": "x"}]}',
     ["field[2] at 1,0: completes no dot"]),
    ('{"players": 2, "tileset": {"N+": 1}, "field": [{"at": [0, 0], "player": 1, "dots": "N", "icon": "+"}, {"at": [0, 1], "player": 1, "dots": "S", "icon": "+"}]}',
     ["tile set holds 1"]),
    ('{"players": 2, "icon_colours": ["white", "white"]}', ["icon_colours: players 1 and 2"]),
    ('{"start": {"players": 2}, "moves": ["0,0 N+", "0,1 N x"]}', ["moves[1]: 0,1 Nx: its empty S side would obstruct"]),
    ('{"start": {"players": 2}, "moves": ["0,0 N+", "0,1 Sq"]}', ["moves[1]: cannot read the move"]),
    ('{"players": 3}', ["3 players are not supported"]),
    ('{"players": 2,\n "field": [}', [":2:"]),
])
def test_bad_positions_exit_2_with_one_line(run_cli, tmp_path, content, fragments):
    path = tmp_path / "bad.json"
    path.write_text(content)
    one_error_line(run_cli("lsd", "show", str(path)), str(path), *fragments)


def test_every_command_checks_its_position(run_cli, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"players": 2, "field": [{"at": [0, 0], "player": 1, "dots": "E", "icon": "+"}, {"at": [1, 0], "player": 2, "dots": "N", "icon": "x"}]}')
    for command in (["moves"], ["threats"], ["play", "skip"], ["reach", "-p", "1", "-k", "1"], ["forced", "-p", "1", "-d", "1"]):
        one_error_line(run_cli("lsd", command[0], str(path), *command[1:]), str(path), "obstructed")


def test_bad_options_exit_2(run_cli):
    one_error_line(run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "3", "-k", "1"), "--player must be from 1 to 2")
    one_error_line(run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "1", "-k", "99"), "--plies must be from 0 to 24")
    one_error_line(run_cli("lsd", "forced", str(GRIDS / "mid20.json"), "-p", "1", "-d", "-1"), "--depth must be from 1 to 12")
    one_error_line(run_cli("lsd", "forced", str(GRIDS / "mid20.json"), "-p", "1", "-d", "0"), "--depth must be from 1 to 12")
    one_error_line(run_cli("lsd", "show", str(GRIDS / "mid20.json"), "--svg", str(GRIDS)), "is a directory")
