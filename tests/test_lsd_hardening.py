"""LSD on fields far larger than a game makes: time limits that hold, moves listed without copies."""

from __future__ import annotations

import importlib
import json
import random
import time
from pathlib import Path

import pytest

from placesat.core.limits import Deadline, TimeUp
forced_module = importlib.import_module("placesat.lsd.forced")
from placesat.lsd.forced import UNKNOWN, LsdGame, Node, forced_win
from placesat.cli.lsd import MOVES_HELD
from placesat.lsd.model import SKIP, load_game, move_text
from placesat.lsd.rules import legal_moves, move_outcomes, play_turn

from .lsd_brute import random_position
from placesat.lsd.reach import ReachAnswer

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"
KINDS = ("N+", "Nx", "NE+", "NEx", "NS+", "NSx", "NES+", "NESx", "NESW+", "NESWx")


def long_row(path, tiles: int = 792) -> str:
    """A row of ``tiles`` four-dotted tiles, players 1-4 in turn (nobody has three in a row), 99 of
    each kind in the tile set: about 22,000 legal placements, a tenth of a second per search node."""
    field = [
        {"at": [i - tiles // 2, 0], "player": i % 4 + 1, "dots": "NESW", "icon": "+" if i // 4 % 2 == 0 else "x"}
        for i in range(tiles)
    ]
    path.write_text(json.dumps({"players": 4, "tileset": {k: 99 for k in KINDS}, "field": field}))
    return str(path)


@pytest.fixture(scope="module")
def row(tmp_path_factory):
    return long_row(tmp_path_factory.mktemp("lsd") / "row792.json")


@pytest.mark.parametrize("extra", [[], ["--reach-from", "1"]])
def test_forced_on_a_long_row_stops_at_its_time_limit(run_cli, row, extra):
    # the clock was read every 256 nodes: 31-78 s for a 1 s limit; a bound far above 1 s (the
    # machine is shared) that the old search could not meet
    start = time.monotonic()
    done = run_cli("lsd", "forced", row, "--player", "1", "--depth", "12", "--time-limit", "1", *extra)
    took = time.monotonic() - start
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("unknown: the time limit came first"), done.stdout
    assert took < 15


@pytest.mark.parametrize("command", [["reach", "-k", "12"], ["forced", "-d", "12", "--reach-from", "1", "--json"]])
def test_reach_on_a_long_row_stops_at_its_time_limit(run_cli, row, command):
    start = time.monotonic()
    done = run_cli("lsd", command[0], row, "-p", "1", *command[1:], "--time-limit", "1")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("unknown") or json.loads(done.stdout)["answer"] == "unknown"
    assert time.monotonic() - start < 15


def test_a_time_out_inside_the_reach_cut_ends_the_search(monkeypatch, tmp_path):
    # the solver's "unknown" was read as "not hopeless" and the search went on to a settled answer
    position = load_game(long_row(tmp_path / "short.json", 40))
    calls = []

    def timed_out(state, player, plies, backend, deadline):
        calls.append(plies)
        return ReachAnswer(player, plies, "unknown")

    monkeypatch.setattr(forced_module, "reach_win", timed_out)
    answer = forced_win(position, 1, 5, reach_from=1)  # player 1's second ply: a line is possible
    assert calls and answer.answer == UNKNOWN and answer.move is None


def test_an_expired_deadline_stops_a_node_inside_its_loops(tmp_path):
    # a node of the long row takes a tenth of a second: the limit is seen inside its loops
    node = Node(load_game(long_row(tmp_path / "row.json", 80)), None)
    game = LsdGame(1, deadline=Deadline(0))
    moves = LsdGame(1).moves(node)
    assert len(moves) > 1000
    with pytest.raises(TimeUp):
        game.moves(node)
    with pytest.raises(TimeUp):
        game.order(node, moves)


def test_move_outcomes_are_what_playing_the_moves_gives():
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        position = random_position(rng, rng.choice([2, 4]), moves=rng.randint(0, 16), kinds=5, per_kind=3)
        outcomes = list(move_outcomes(position))
        assert [m for m, _, _ in outcomes] == legal_moves(position)
        for move, taken, wins in outcomes:
            if move == SKIP:
                assert (taken, wins) == ([], False)
                continue
            turn = play_turn(position, move)
            assert taken == [c for c, _ in turn.captured]
            assert wins == (turn.winner is not None)
            checked += wins + bool(taken)
    assert checked >= 10  # captures and wins both occurred


def test_a_long_list_of_moves_is_streamed_and_counted(run_cli, tmp_path):
    path = long_row(tmp_path / "row.json", 100)
    position = load_game(path)
    expected = [move_text(m) for m in legal_moves(position)]
    assert len(expected) > MOVES_HELD
    lines = run_cli("lsd", "moves", path).stdout.splitlines()
    assert lines[0].startswith("player 1 to move; placements as they are found")
    assert [line.split("  ")[0] for line in lines[1:-1]] == expected
    assert lines[-1] == f"player 1: {len(expected)} placement(s)"
    answer = json.loads(run_cli("lsd", "moves", path, "--json").stdout)
    assert answer["to_move"] == 1 and answer["count"] == len(expected)
    assert [m["move"] for m in answer["moves"]] == expected


def test_a_short_list_of_moves_keeps_its_count_first(run_cli):
    lines = run_cli("lsd", "moves", str(GRIDS / "plus-capture.json")).stdout.splitlines()
    assert lines[0] == "player 1 to move: 16 placement(s)" and len(lines) == 17
    assert any("captures" in line for line in lines[1:])
