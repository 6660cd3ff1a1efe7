"""Lines of play: forced's strategy written out, reach's tiles numbered, and what an interrupted
search still knows."""

from __future__ import annotations

import importlib
import json
import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from placesat.core.limits import Deadline, TimeUp
reach_module = importlib.import_module("placesat.lsd.reach")
from placesat.lsd.forced import NO_WIN, UNKNOWN, WIN, forced_win
from placesat.lsd.model import load_game, parse_move
from placesat.lsd.reach import YES, reach_win
from placesat.lsd.render import line_of_play_lines, render_svg
from placesat.lsd.rules import is_over, legal_moves, play, winner

from .lsd_brute import random_position

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"
SVG = "{http://www.w3.org/2000/svg}"


def check_line(position, player, steps, left_out):
    """Replay a line of play: the target's moves win where marked, every coalition mover's
    replies shown and left out add up to its legal moves, each reply answered."""
    moves = legal_moves(position)
    if position.to_move == player:
        assert len(steps) == 1 and left_out == 0
    else:
        assert len(steps) + left_out == len(moves)
    for step in steps:
        assert step["player"] == position.to_move
        after = play(position, parse_move(step["move"]))  # the rules accept it
        assert step["wins"] == (winner(after) == player)
        if step["wins"]:
            assert step["replies"] == [] and step["left_out"] == 0
        elif step["player"] == player or step["replies"]:
            assert winner(after) is None
            check_line(after, player, step["replies"], step["left_out"])
        else:  # a target move whose replies were all left out (the line's size is bounded)
            assert step["left_out"] == len(legal_moves(after))


def test_a_double_threat_is_written_out_to_its_wins():
    position = load_game(str(GRIDS / "double-threat.json"))
    answer = forced_win(position, 1, 3)
    assert answer.answer == WIN and answer.line_complete
    check_line(position, 1, answer.line, answer.line_left_out)
    first = answer.line[0]
    assert first["move"] == "1,2 EW+" and len(first["replies"]) == 3 and first["left_out"] > 0
    # the replies shown block different cells, each answered by a win at the other end
    assert len({parse_move(r["move"]).cell for r in first["replies"]}) == 3
    assert all(r["replies"][0]["wins"] for r in first["replies"])
    text = line_of_play_lines(answer.line, answer.line_left_out, 2, 1)
    assert text[0] == "  player 1: 1,2 EW+" and text[2].endswith("  wins")
    assert text[-1] == f"    ... {first['left_out']} more move(s) of player 2, each answered as well (not shown)"


def test_lines_of_play_replay_on_random_positions():
    rng = random.Random(12)
    found = {2: 0, 4: 0}
    for _ in range(200):
        players = rng.choice([2, 4])
        position = random_position(rng, players, moves=rng.randint(6, 14), kinds=5, per_kind=3)
        if is_over(position):
            continue
        for player in {position.to_move, rng.randint(1, players)}:
            answer = forced_win(position, player, 4 if players == 4 else 3)
            if answer.answer == WIN and answer.within:
                check_line(position, player, answer.line, answer.line_left_out)
                found[players] += 1
    assert found[2] >= 5 and found[4] >= 5


def test_an_interrupted_search_keeps_only_what_it_settled():
    position = load_game(str(GRIDS / "mid20.json"))

    class After(Deadline):
        """A deadline that comes after ``n`` looks at the clock (not at a time: the test is exact)."""

        def __init__(self, n):
            super().__init__(None)
            self.left = n

        def check(self):
            self.left -= 1
            if self.left < 0:
                raise TimeUp("the time limit came first")

    for looks in (30, 2000):
        answer = forced_win(position, 1, 7, time_limit=After(looks))
        assert answer.answer == UNKNOWN and answer.move is None and answer.line is None
        assert answer.no_win_within is not None
        assert forced_win(position, 1, answer.no_win_within).answer == NO_WIN
    assert answer.to_json()["no_win_within"] >= 3


def test_reach_keeps_its_sequence_when_the_limit_comes_while_shortening(monkeypatch):
    position = load_game(str(GRIDS / "mid20.json"))
    real = reach_module._Search.winning_line
    calls = []

    def first_only(self, by):
        calls.append(by)
        if len(calls) > 1:
            raise TimeUp("the time limit came first")
        return real(self, by)

    monkeypatch.setattr(reach_module._Search, "winning_line", first_only)
    answer = reach_win(position, 1, 5)
    assert len(calls) == 2 and answer.answer == YES and not answer.shortest
    final = position
    for move in answer.moves:
        final = play(final, move)
    assert winner(final) == 1 and answer.to_json()["shortest"] is False


def test_the_picture_has_a_heading_and_numbered_tiles():
    position = load_game(str(GRIDS / "double-threat.json"))
    svg = render_svg(position, heading="Can player 1 force a line? " + "Yes, " * 30, numbers={(0, 2): 1, (-1, 2): 12})
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    heading = [t for t in texts if t and (t.startswith("Can player") or t.startswith("Yes"))]
    assert len(heading) >= 2 and heading[0].startswith("Can player 1 force a line?")  # wrapped
    assert "1" in texts and "12" in texts
    assert len(list(root.iter(f"{SVG}circle"))) == 2


def test_cli_forced_prints_its_line_and_marks_the_first_move(run_cli, tmp_path):
    picture = tmp_path / "forced.svg"
    done = run_cli("lsd", "forced", str(GRIDS / "double-threat.json"), "-p", "1", "-d", "3", "--svg", str(picture))
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    assert lines[1].startswith("line of play") and lines[2] == "  player 1: 1,2 EW+"
    assert "1 on the board: the first move" in lines
    row_two = next(line for line in lines if line.startswith("   2 "))
    assert row_two.rstrip().endswith(" 1")  # the mark, east of the two tiles of row 2
    root = ElementTree.fromstring(picture.read_text())
    shown = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Can player 1 force a line within 3 plies? Yes: player 1 wins within 3 plies" in shown
    answer = json.loads(run_cli("lsd", "forced", str(GRIDS / "double-threat.json"), "-p", "1", "-d", "3", "--json").stdout)
    assert answer["line"][0]["move"] == "1,2 EW+" and answer["strategy"]["move"] == "1,2 EW+"


def test_cli_reach_numbers_its_tiles(run_cli, tmp_path):
    picture = tmp_path / "reach.svg"
    done = run_cli("lsd", "reach", str(GRIDS / "mid20.json"), "-p", "1", "-k", "3", "--svg", str(picture))
    lines = done.stdout.splitlines()
    assert lines[1].startswith("  1. player 1: ") and lines[3].startswith("  3. player 1: ")
    before = lines[lines.index("where the tiles go, numbered in order, on the field before them:") + 1:lines.index("the field after them:")]
    marks = "".join(before)
    for number in "123":
        assert f" {number} " in marks or marks.endswith(f" {number}")
    root = ElementTree.fromstring(picture.read_text())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert any(t and t.startswith("Can player 1 have a line within 3 plies if everybody helps? Yes, after 3:") for t in texts)
    assert len(list(root.iter(f"{SVG}circle"))) == 3
