"""play-vs the same for every game (cli/play.py, cli/lixso_game.py): the same option names,
each game's words (seat names, captures, the last move, moves listed), scripted stdin."""

from __future__ import annotations

import json

import pytest

from placesat.core.play import move_notes, moves_lines, seat_name
from placesat.lsd.model import parse_move
from placesat.lsd.play import LsdPlay
from placesat.lsd.rules import play_turn

from .conftest import ROOT

GRIDS = ROOT / "grids"


@pytest.mark.parametrize("group", [("lsd",), ("laido",), ("quarry",), ("logisticks",), ("lixso", "game")])
def test_play_vs_options_have_the_same_names(run_cli, group):
    done = run_cli(*group, "play-vs", "--help")
    assert done.returncode == 0, done.stderr
    for option in ("--as", "--think", "--depth", "--json"):
        assert option in done.stdout, (group, option)


def test_lsd_announces_captures(run_cli):
    """By the rules: 2,0 W+ after 0,0 E+ and 1,0 EW x captures player 2's tile on 1,0."""
    game = LsdPlay()
    from placesat.lsd.model import load_game
    from placesat.lsd.rules import replay

    before = replay(load_game(str(GRIDS / "lsd" / "plus-capture.json")))[-1].after
    move = parse_move("2,0 W+")
    turn = play_turn(before, move)
    assert [cell for cell, _ in turn.captured] == [(1, 0)]
    assert move_notes(game, before, move, turn.after) == "captures 1 tile (player 2's) at 1,0"
    quiet = next(m for m in game.moves(before) if not play_turn(before, m).captured)
    assert move_notes(game, before, quiet, play_turn(before, quiet).after) == ""
    done = run_cli("lsd", "play-vs", str(GRIDS / "lsd" / "plus-capture.json"), "--depth", "1", "--json", input="2,0 W+\nquit\n")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    moves = [e for e in events if e["event"] == "move"]
    assert moves[0]["by"] == "you" and moves[0]["notes"] == "captures 1 tile (player 2's) at 1,0"
    assert moves[1]["by"] == "engine" and "notes" in moves[1]
    words = run_cli("lsd", "play-vs", str(GRIDS / "lsd" / "plus-capture.json"), "--depth", "1", input="2,0 W+\nquit\n")
    assert "your move captures 1 tile (player 2's) at 1,0" in words.stdout


def test_laido_shows_the_last_move_its_legend_and_colours(run_cli):
    done = run_cli("laido", "play-vs", str(GRIDS / "laido" / "centre3.json"), "--think", "1", input="0,0\nquit\n")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "you play black; the engine plays white" in text and "black, your move" in text
    after = text.split("black, your move> 0,0", 1)[1]
    board = after.split("[ ] the last move", 1)[0]
    assert " 0  -2   x x[x]x x" in board  # 0,0 is the third point of row 0, which starts at q = -2


def test_quarry_names_its_colours_and_lists_moves_by_stone_sorted(run_cli):
    from placesat.quarry.model import load_position
    from placesat.quarry.play import Game, QuarryPlayable

    game = QuarryPlayable()
    position = Game.of(load_position(str(GRIDS / "quarry" / "midgame.json")))
    assert seat_name(game, position, 1) == "black" and seat_name(game, position, 2) == "blue"
    lines = moves_lines(game, position)
    listed = set()
    for line in lines:
        stone, _, items = line.partition(": ")
        cells = [item.split()[0] for item in items.split(", ")]
        keys = [(c[0], int(c[1:])) for c in cells]
        assert keys == sorted(keys), stone
        listed |= {f"{stone} {item}" for item in items.split(", ")}
    assert listed == {game.move_text(position, m) for m in game.moves(position)}
    done = run_cli("quarry", "play-vs", str(GRIDS / "quarry" / "midgame.json"), "--depth", "1", input="moves\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "you play black; the engine plays blue" in done.stdout and "black, your move>" in done.stdout
    assert "  block: a1, a2," in done.stdout


def test_lixso_game_plays_as_seat_two_to_a_depth_and_saves(run_cli, tmp_path):
    saved, bad = tmp_path / "saved.txt", tmp_path / "no" / "such" / "dir.txt"
    grid = GRIDS / "lixso-game" / "6x6-L3-1.txt"
    done = run_cli("lixso", "game", "play-vs", str(grid), "--as", "2", "--depth", "1", input=f"save {saved}\nsave {bad}\nquit\n")
    assert done.returncode == 0, done.stderr
    assert f"saved the game to {saved}" in done.stdout and "not saved:" in done.stdout
    # the computer (player 1) moved first; the saved record holds that move and reads back
    text = saved.read_text()
    assert text.count("# move:") == 1
    shown = run_cli("lixso", "game", "show", str(saved), "--json")
    assert shown.returncode == 0, shown.stderr
    again = run_cli("lixso", "game", "play-vs", str(grid), "--you", "2", "--depth", "1", input=f"save {tmp_path / 'again.txt'}\nquit\n")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again.txt").read_text() == text  # --depth alone: the same move every time


def test_play_vs_out_writes_a_record_that_review_reads(run_cli, tmp_path):
    """LSD keeps the start and the moves; Laido from the empty board its record; a Laido game
    from another position can only be its position."""
    record = tmp_path / "lsd.json"
    done = run_cli("lsd", "play-vs", str(GRIDS / "lsd" / "start.json"), "--depth", "1", "--out", str(record), input="0,0 NESW+\nquit\n")
    assert done.returncode == 0, done.stderr
    written = json.loads(record.read_text())
    assert written["moves"][0] == "0,0 NESW+" and len(written["moves"]) == 2 and "start" in written
    reviewed = run_cli("lsd", "review", str(record), "--depth", "1", "--time-per-move", "0", "--json")
    assert [entry["move"] for entry in json.loads(reviewed.stdout)[:-1]] == written["moves"]
    fresh = tmp_path / "fresh.json"
    fresh.write_text(json.dumps({"size": 5, "moves": []}))
    laido = tmp_path / "laido.json"
    done = run_cli("laido", "play-vs", str(fresh), "--think", "0.2", "--out", str(laido), input="0,0\nquit\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(laido.read_text())["moves"][0] == [0, 0]
    mid = tmp_path / "mid.json"
    done = run_cli("laido", "play-vs", str(GRIDS / "laido" / "centre3.json"), "--think", "0.2", "--out", str(mid), input="quit\n")
    assert done.returncode == 0 and "moves" not in json.loads(mid.read_text())
    refused = run_cli("lsd", "play-vs", str(GRIDS / "lsd" / "start.json"), "--out", "-", input="quit\n")
    assert refused.returncode == 2 and "--out must name a file" in refused.stderr
