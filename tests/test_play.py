"""play-vs and selfplay, the same for every game (cli/play.py, solver/core/selfplay.py), with
LSD as the game: scripted standard input, games replayed by the rules, the report by hand."""

from __future__ import annotations

import json
import math
import signal
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT, placesat_command
from .test_lsd_cli import one_error_line

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def events(done) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


# --------------------------------------------------------------------------- play-vs


def test_undo_restores_the_exact_position_and_save_writes_what_show_reads(run_cli, tmp_path):
    """Saved before a move and after its undo, the position is the same file byte for byte;
    the engine answered in between with its reason; 'show' reads what 'save' wrote."""
    before, after, later = tmp_path / "before.json", tmp_path / "after.json", tmp_path / "later.json"
    typed = f"save {before}\n0,0 NESW+\nsave {later}\nundo\nsave {after}\nundo\nquit\n"
    done = run_cli("lsd", "play-vs", str(GRIDS / "start.json"), "--depth", "1", "--json", input=typed)
    assert done.returncode == 0, done.stderr
    seen = events(done)
    kinds = [e["event"] for e in seen]
    assert kinds == ["start", "saved", "move", "move", "saved", "undo", "saved", "refused", "stopped"], kinds
    engine = seen[3]
    assert engine["by"] == "engine" and engine["player"] == 2 and engine["reason"] and engine["kind"]
    assert seen[5]["taken_back"] == ["0,0 NESW+", engine["move"]] and seen[5]["to_move"] == 1
    assert seen[7]["message"] == "nothing to undo"
    assert before.read_bytes() == after.read_bytes()
    assert before.read_bytes() != later.read_bytes()
    shown = run_cli("lsd", "show", str(later), "--json")
    assert shown.returncode == 0, shown.stderr
    field = json.loads(shown.stdout)["position"]["field"]
    assert sorted(tile["at"] for tile in field)[0] == [0, 0] and len(field) == 2


def test_a_bad_move_is_one_line_and_the_game_goes_on(run_cli, tmp_path):
    typed = "3,3 NES+\nnonsense\n" + "x" * 10_000 + "\nsave\nmoves\n0,0 N+\nquit\n"
    done = run_cli("lsd", "play-vs", str(GRIDS / "start.json"), "--depth", "1", input=typed)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "illegal: 3,3 NES+: the first tile goes on 0,0" in text
    assert 'cannot read the move "nonsense"' in text
    assert "skipped a line of over 4096 bytes" in text and "x" * 100 not in text
    assert "save needs a file name: save FILE" in text
    assert "legal move(s): 0,0 N+," in text
    assert "the engine (player 2) plays " in text and "you stopped the game" in text
    assert "Traceback" not in done.stderr


def test_a_whole_game_to_its_result(run_cli):
    """The engine (player 1, depth 2) wins double-threat.json by force: its reason says so, the
    person's blocking move answers one end, and the other end wins."""
    from placesat.core.limits import Deadline
    from placesat.lsd.model import load_game, parse_move
    from placesat.lsd.play import PLAYABLE
    from placesat.lsd.rules import play

    start = load_game(str(GRIDS / "double-threat.json"))
    threatened = play(start, parse_move("1,2 EW+"))
    reply = PLAYABLE.best(threatened, Deadline.never(), 1).move
    done = run_cli("lsd", "play-vs", str(GRIDS / "double-threat.json"), "--as", "2", "--depth", "2", "--json",
                   input=PLAYABLE.move_text(threatened, reply) + "\n")
    assert done.returncode == 0, done.stderr
    seen = events(done)
    assert seen[1]["by"] == "engine" and seen[1]["move"] == "1,2 EW+" and seen[1]["kind"] == "forced win"
    assert seen[1]["reason"].startswith("wins by force within 2 own moves: 1,2 EW+")
    assert seen[2]["by"] == "you" and seen[3]["kind"] == "forced win" and seen[3]["reason"].startswith("wins at once")
    assert seen[-1]["event"] == "end" and seen[-1]["winner"] == 1 and seen[-1]["result"] == "lose"
    position = start
    for move in seen[-1]["moves"]:
        position = play(position, parse_move(move))
    assert PLAYABLE.outcome(position).winner == 1


def test_closed_standard_input_end_of_input_and_a_seat_out_of_range(run_cli):
    done = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *placesat_command(), "lsd", "play-vs", str(GRIDS / "start.json")],
                          capture_output=True, text=True, cwd=ROOT)
    one_error_line(done, "standard input is closed")
    done = run_cli("lsd", "play-vs", str(GRIDS / "start.json"), input="")
    assert done.returncode == 0 and "end of input: the game stops here" in done.stdout
    one_error_line(run_cli("lsd", "play-vs", str(GRIDS / "start.json"), "--as", "3", input=""), "--as must be from 1 to 2")


@pytest.mark.timing
def test_ctrl_c_while_waiting_for_a_move_is_one_line_and_130():
    child = subprocess.Popen(placesat_command() + ["lsd", "play-vs", str(GRIDS / "start.json"), "--json"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert json.loads(child.stdout.readline())["event"] == "start"  # it is at the prompt now
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == "placesat: interrupted" and b"Traceback" not in err


# --------------------------------------------------------------------------- selfplay


@pytest.mark.timing
def test_ctrl_c_ends_selfplay_with_one_line_and_no_report():
    """The engines answer a Ctrl-C with their best move so far; the run must still stop, not
    play every remaining game out with hurried moves and print their report."""
    import time

    child = subprocess.Popen(placesat_command() + ["selfplay", "quarry", "--games", "50", "--engine-a", "best:d1:1s",
                                                   "--engine-b", "best:d1:1s"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        time.sleep(3)  # in the first game's engine moves by now (each may take a second)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert out == b"" and err.decode().strip().splitlines()[-1] == "placesat: interrupted"


def test_wilson_interval_by_hand():
    """8 of 10 at 95%: centre (0.8 + z²/20) / (1 + z²/10), half-width
    z·sqrt(0.8·0.2/10 + z²/400) / (1 + z²/10), with z = 1.96: 0.4902 to 0.9433."""
    from placesat.core.selfplay import wilson_interval

    z = 1.959963984540054
    scale = 1 + z * z / 10
    centre = (0.8 + z * z / 20) / scale
    half = z * math.sqrt(0.016 + z * z / 400) / scale
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] == pytest.approx(z * z / 10 / scale)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_engine_specs():
    from placesat.core.errors import InputError
    from placesat.core.selfplay import Engine, parse_engine

    assert parse_engine("random") == Engine("random")
    assert parse_engine("best:d2") == Engine("best", 2, None)
    assert parse_engine("best:0.5s") == Engine("best", None, 0.5)
    assert parse_engine("BEST:d3:2s") == Engine("best", 3, 2.0) and str(parse_engine("best:d3:2s")) == "best:d3:2s"
    assert parse_engine("best") == parse_engine("best:d2")
    for bad in ("best:", "best:d0", "best:d13", "best:0s", "best:d2:d3", "worst", "best:1.2.3s"):
        with pytest.raises(InputError):
            parse_engine(bad)


def _without_times(report: dict) -> dict:
    for game in report["results"]:
        game.pop("seconds")
    return report


def test_selfplay_is_the_same_for_any_jobs_and_every_game_replays(run_cli):
    """best:d1 against random on LSD: the same report with 1 and 2 worker processes; every game's
    moves replayed from the opening by the rules end as the report says; the counts add up."""
    from placesat.lsd.model import new_position, parse_move
    from placesat.lsd.play import PLAYABLE
    from placesat.lsd.rules import play

    common = ("selfplay", "lsd", "--games", "6", "--seed", "5", "--engine-a", "best:d1", "--engine-b", "random", "--json")
    one, two = run_cli(*common, "--jobs", "1"), run_cli(*common, "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    report = _without_times(json.loads(one.stdout))
    assert report == _without_times(json.loads(two.stdout))
    assert len({tuple(game["moves"][:2]) for game in report["results"]}) > 1  # the random openings differ
    for game in report["results"]:
        position = new_position(2)
        for move in game["moves"]:
            position = play(position, parse_move(move))
        ended = PLAYABLE.outcome(position)
        assert ended is not None and game["finished"] and ended.winner == game["winner"], game
    wins = report["wins"]
    assert wins["1"] + wins["2"] + report["draws"] == 6 and report["first_player_wins"] == wins["1"]
    assert report["length"]["mean"] == pytest.approx(sum(len(g["moves"]) for g in report["results"]) / 6)
    text = run_cli(*common[:-1])
    assert f"player 1 (moves first) wins {wins['1']} of 6" in text.stdout and "95% Wilson interval" in text.stdout


from placesat.lsd.play import LsdPlay  # noqa: E402


class _Breaks(LsdPlay):
    """LSD that breaks on the fourth ply of games whose first tile shows ``bad`` dots (module
    level: worker processes pickle it)."""

    def __init__(self, bad: int) -> None:
        self.bad = bad

    def play(self, position, move):
        first = position.field.get((0, 0))
        if len(position.field) == 3 and first is not None and first.dots == self.bad:
            raise ValueError("a broken rule")
        return super().play(position, move)


def test_one_bad_game_is_reported_and_the_others_go_on():
    from placesat.core.selfplay import parse_engine, selfplay
    from placesat.lsd.model import parse_move
    from placesat.lsd.play import PLAYABLE

    engines = (parse_engine("random"), parse_engine("random"))
    plain = selfplay(PLAYABLE, 4, 2, engines)
    first_tile = parse_move(plain.results[2].moves[0])
    broken = selfplay(_Breaks(first_tile.dots), 4, 2, engines, jobs=2)
    failed = [r.index for r in broken.failed]
    assert 2 in failed and len(broken.results) == 4
    assert "ValueError: a broken rule" in broken.results[2].error
    for index in range(4):
        if index not in failed:
            assert broken.results[index].moves == plain.results[index].moves


@pytest.mark.parametrize("game, position, typed", [
    ("laido", "grids/laido/centre3.json", "0,0"),
    ("logisticks", "grids/logisticks/late.json", "c8 NOT W"),
    ("quarry", "grids/quarry/midgame.json", "block e1"),
    ("lixso-game", "grids/lixso-game/6x6-L3-1.txt", None),
])
def test_every_game_plays_through_selfplay_and_play_vs(run_cli, game, position, typed):
    """Each game's Playable, wired once: selfplay replays its games on the game's rules, and
    play-vs (where the generic loop is the game's) takes a typed move and a hint."""
    done = run_cli("selfplay", game, "--games", "1", "--engine-a", "best:d1", "--engine-b", "random",
                   "--position", position, "--opening-plies", "0", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 1 and report["failed"] == 0
    (result,) = report["results"]
    assert result["moves"] and result["moves"][0] == report["first_moves"][0]["move"]
    if typed is None:
        return  # the Lixso game keeps its own play-vs (tests/test_lixso_game_session.py)
    group = game.replace("-", " ").split()
    # the game's own engine: this is the wiring (the look-ahead's moves: tests/test_lookahead.py)
    played = run_cli(*group, "play-vs", position, "--depth", "1", "--engine", "best", "--json", input=f"hint\n{typed}\nquit\n")
    assert played.returncode == 0, played.stderr
    events = [json.loads(line) for line in played.stdout.splitlines()]
    assert any(e.get("event") == "hint" for e in events), events
    assert any(e.get("event") == "move" and e.get("by") == "you" for e in events), (events, played.stderr)
