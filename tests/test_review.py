"""``GAME review`` (solver/core/review.py, cli/play.py): a record replayed on the rules, each
move set against the engine's best; the marks checked against the plain rules by hand."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from placesat.core.limits import Deadline
from placesat.core.review import DROP, INTO_LOSS, LOSS, MISSED_WIN, WIN, GameRecord, RecordedMove, mistakes, read_record, review
from placesat.lsd.model import parse_move
from placesat.lsd.play import LsdPlay
from placesat.lsd.rules import legal_moves, play_turn, winner, winning_placements_unchecked

from .conftest import ROOT
from .test_lsd_cli import one_error_line

# a selfplay game (engine best:d1 against random, seed 0): player 2's 8th ply leaves player 1
# a line at once, which player 1 makes with its 9th
GAME = ["0,0 S+", "0,-1 NEWx", "-1,-1 NESW+", "1,-1 NSW+", "-1,0 NSW+", "-2,0 ESx", "-1,1 NESW+", "1,-2 NEW+", "-1,2 S+"]
GAME_START = {"players": 2}


def _replayed(moves):
    game = LsdPlay()
    position = game.opening(2)
    for text in moves:
        position = play_turn(position, parse_move(text)).after
    return position


def _review(moves, **kwargs):
    game = LsdPlay()
    record = GameRecord(game.opening(2), tuple(RecordedMove(m, f"moves[{i}]") for i, m in enumerate(moves)))
    return review(game, record, None, Deadline(None), depth=1, **kwargs)


def test_a_move_into_a_line_at_once_and_the_win_taken():
    """By the rules: after ply 8 player 1 can make a line at once; ply 9 makes it."""
    assert winning_placements_unchecked(_replayed(GAME[:8]), 1) and winner(_replayed(GAME)) == 1
    reviewed = _review(GAME)
    assert len(reviewed.plies) == 9 and reviewed.illegal is None and reviewed.stopped is None
    eighth, ninth = reviewed.plies[7], reviewed.plies[8]
    assert eighth.seat == 2 and INTO_LOSS in eighth.mistakes and eighth.after == LOSS
    assert ninth.seat == 1 and ninth.before == WIN and ninth.after == WIN and ninth.mistakes == []
    assert reviewed.outcome and "player 1 made a line" in reviewed.outcome


def test_a_missed_line_at_once_is_marked():
    """Player 1 plays a legal tile that makes no line (found by the rules) instead of -1,2 S+."""
    position = _replayed(GAME[:8])
    other = next(m for m in legal_moves(position) if winner(play_turn(position, m).after) is None)
    from placesat.lsd.model import move_text

    reviewed = _review(GAME[:8] + [move_text(other)])
    last = reviewed.plies[8]
    assert last.best == "-1,2 S+" or winner(play_turn(position, parse_move(last.best)).after) == 1
    assert last.before == WIN and MISSED_WIN in last.mistakes
    assert reviewed.outcome is None


def test_an_illegal_move_stops_the_review_at_its_ply_with_what_came_before():
    moves = GAME[:4] + ["5,5 NESW+"] + GAME[4:]
    reviewed = _review(moves)
    assert [p.ply for p in reviewed.plies] == [1, 2, 3, 4]
    assert reviewed.illegal["ply"] == 5 and reviewed.illegal["where"] == "moves[4]" and "does not touch" in reviewed.illegal["message"]


def test_the_marks_by_hand():
    assert mistakes(WIN, 3.0, 5) == [MISSED_WIN]
    assert mistakes(WIN, WIN, 5) == []
    assert mistakes(2.0, LOSS, 5) == [INTO_LOSS]
    assert mistakes(LOSS, LOSS, 5) == []  # lost already: no mistake of this move
    assert mistakes(4.0, -1.0, 5) == [DROP] and mistakes(4.0, 0.0, 5) == []
    assert mistakes(None, 1.0, 5) == []


def test_a_big_drop_is_measured_against_the_best_move():
    """Every ply's drop is the best move's worth minus the played move's, both from the mover's
    view; with --drop 0 every ply that lost anything is marked."""
    reviewed = _review(GAME[:7], drop=0.5)
    for entry in reviewed.plies:
        if entry.drop is not None:
            assert (DROP in entry.mistakes) == (entry.drop >= 0.5)
            if entry.move == entry.best:
                assert entry.drop == 0


def test_a_selfplay_report_is_a_record_and_its_index_is_checked(tmp_path):
    game = LsdPlay()
    report = {"game": "lsd", "players": 2, "from_opening": True, "results": [{"moves": GAME[:2]}, {"moves": GAME}]}
    record = read_record(game, json.dumps(report), "r.json", 1)
    assert [m.move for m in record.moves] == GAME and record.moves[3].where == "results[1].moves[3]"


def test_cli_review_json_svg_and_illegal(run_cli, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"start": GAME_START, "moves": GAME[:4] + ["5,5 NESW+"]}))
    svg = tmp_path / "plot.svg"
    done = run_cli("lsd", "review", str(path), "--depth", "1", "--time-per-move", "0", "--json", "--svg", str(svg))
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert [e["ply"] for e in out[:-1]] == [1, 2, 3, 4] and out[-1]["end"]["illegal"]["where"] == "moves[4]"
    assert set(out[0]) >= {"ply", "player", "move", "best", "before", "after", "drop", "mistakes"}
    root = ET.fromstring(svg.read_text())
    assert root.tag.endswith("svg") and any(e.tag.endswith("polyline") for e in root.iter())
    text = run_cli("lsd", "review", str(path), "--depth", "1", "--time-per-move", "0")
    assert "ply 5 (moves[4]), 5,5 NESW+:" in text.stdout and "the review stops there" in text.stdout


def test_cli_review_marks_in_the_plot_and_words(run_cli, tmp_path):
    report = tmp_path / "selfplay.json"
    report.write_text(json.dumps({"game": "lsd", "players": 2, "from_opening": True, "results": [{"moves": GAME}]}))
    svg = tmp_path / "plot.svg"
    done = run_cli("lsd", "review", str(report), "--depth", "1", "--time-per-move", "0", "--svg", str(svg))
    assert done.returncode == 0, done.stderr
    assert "8. player 2 1,-2 NEW+" in done.stdout and "into loss" in done.stdout.splitlines()[7]
    assert "the game is over: player 1 made a line" in done.stdout
    red = [e for e in ET.fromstring(svg.read_text()).iter() if e.tag.endswith("circle") and e.get("fill") == "#d22"]
    assert red  # ply 8 at least


def test_cli_bad_records_are_one_line(run_cli, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"start": {"players": 2}, "moves": ["1,2 XYZ+"]}')
    one_error_line(run_cli("lsd", "review", str(broken)), "broken.json", "moves[0]")
    syntax = tmp_path / "syntax.json"
    syntax.write_text('{"moves": [1,\n')
    one_error_line(run_cli("logisticks", "review", str(syntax)), "syntax.json:2")
    position = tmp_path / "position.json"
    position.write_text(json.dumps(GAME_START))
    one_error_line(run_cli("lsd", "review", str(position)), "not a game record of lsd")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "quarry", "players": 2, "from_opening": True, "results": [{"moves": []}]}))
    one_error_line(run_cli("lsd", "review", str(other)), "game: this report is of \"quarry\"")


def test_cli_review_of_every_game_with_a_record(run_cli, tmp_path):
    """Each game's own record replays (Laido, Quarry, the Lixso game); a short review each."""
    laido = tmp_path / "laido.json"
    laido.write_text(json.dumps({"size": 5, "moves": [[0, 0], [1, 0], [0, 0]]}))
    done = run_cli("laido", "review", str(laido), "--time-per-move", "0.05", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 1 and out[-1]["end"]["illegal"]["ply"] == 3 and len(out) == 3, done.stdout
    new = run_cli("quarry", "new")
    assert new.returncode == 0, new.stderr
    quarry = json.loads(new.stdout)
    quarry["moves"] = [{"player": "black", "stone": "block", "at": "a1"}, {"player": "black", "stone": "block", "at": "c3"}]
    path = tmp_path / "quarry.json"
    path.write_text(json.dumps(quarry))
    done = run_cli("quarry", "review", str(path), "--depth", "1", "--time-per-move", "0", "--json")
    out = json.loads(done.stdout)
    assert out[0]["move"].startswith("block a1") and out[-1]["end"]["illegal"]["where"] == "moves[1]", done.stdout
    assert "it is player 2's turn" in out[-1]["end"]["illegal"]["message"]
    midgame = (ROOT / "grids" / "lixso-game" / "9x9-midgame.txt").read_text()
    lixso = tmp_path / "lixso.txt"
    lixso.write_text(midgame.replace("# move: S r2c4 r2c5 r3c4", "# move: S r2c4 r2c5 r3c4\n# move: X r2c4 r2c5 r3c4"))
    done = run_cli("lixso", "game", "review", str(lixso), "--depth", "1", "--time-per-move", "0", "--json")
    out = json.loads(done.stdout)
    assert [e["move"] for e in out[:-1]][:1] == ["S r4c7 r4c8 r5c8"] and len(out) == 6, done.stdout
    illegal = out[-1]["end"]["illegal"]
    assert illegal["ply"] == 6 and "already covers" in illegal["message"] and illegal["where"] == "line 9"


def test_cli_review_keeps_to_its_time_limit(run_cli, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"start": GAME_START, "moves": GAME}))
    done = run_cli("lsd", "review", str(path), "--time-limit", "0", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 1 and out[-1]["end"]["stopped"] == "the time limit came first" and out[-1]["end"]["reviewed"] < 9
    words = run_cli("lsd", "review", str(path), "--time-limit", "0")
    assert "are not reviewed" in words.stdout


# --------------------------------------------------------------------------- best --top


def test_top_ranks_every_line_at_once_first_and_proven():
    """After ply 8 player 1 has tiles that make a line at once (found by the rules): ranking
    all the moves puts exactly those first, proven wins; the rest follow."""
    from placesat.core.review import top_moves
    from placesat.lsd.model import move_text

    game = LsdPlay()
    position = _replayed(GAME[:8])
    legal = legal_moves(position)
    at_once = {move_text(m) for m in legal if winner(play_turn(position, m).after) == 1}
    assert at_once
    ranked, weighed, total = top_moves(game, position, len(legal), Deadline(None), depth=1)
    assert weighed == total == len(legal) and len(ranked) == len(legal)
    assert {r.move for r in ranked[: len(at_once)]} == at_once
    assert all(r.proven == "forced win" and r.worth == WIN for r in ranked[: len(at_once)])
    # a move after which player 2 wins at once is a proven loss, and is ranked last
    for entry in ranked:
        after = play_turn(position, parse_move(entry.move)).after
        if winner(after) is None and winning_placements_unchecked(after, 2):
            assert entry.worth == LOSS or entry.move in at_once


def test_cli_best_top_json(run_cli, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"start": GAME_START, "moves": GAME[:8]}))
    done = run_cli("lsd", "best", str(path), "--top", "2", "--depth", "1", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["player"] == 1 and len(out["moves"]) == 2 and out["weighed"] == out["legal"]
    assert all(m["worth"] == "win" and m["proven"] == "forced win" for m in out["moves"])
    words = run_cli("lsd", "best", str(path), "--top", "2", "--depth", "1")
    assert words.stdout.startswith("the 2 best of ") and "1. " in words.stdout and "forced win (proven)" in words.stdout
    laido = run_cli("laido", "best", str(ROOT / "grids" / "laido" / "forced3.json"), "--top", "2", "-t", "3", "--json")
    assert laido.returncode in (0, 1), laido.stderr
    assert len(json.loads(laido.stdout)["moves"]) == 2
