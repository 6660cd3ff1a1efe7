"""Whose turn a Logi-Sticks record says it is, and a satisfy line as it is played and drawn:
``to_move`` and ``turn`` inferred from the recorded turns, the passes of a line, its pieces
numbered on the board and in the picture (issue 32)."""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from placesat.core.errors import InputError
from placesat.logisticks.model import Placement, make_kind, position_from_json, square_point
from placesat.logisticks.render import COORDINATE_OUT, MARGIN, SQUARE, board_svg, board_text
from placesat.logisticks.rules import PlannedPlacement, load_position, turns_of

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "logisticks"
SVG = "{http://www.w3.org/2000/svg}"
SQUARES = ["b6", "c6", "f6", "g6", "b3", "c3", "f3", "g3"]  # off the edges and the centre


def _record(players: int, owners: list[tuple[int, int]], **fields) -> dict:
    """A position whose pieces record (turn, player): the format only, so any squares do."""
    pieces = [{"square": SQUARES[i], "piece": "NOT", "inputs": "S", "player": player, "turn": turn}
              for i, (turn, player) in enumerate(owners)]
    supply = {str(p): {"NOT": 1} for p in range(1, players + 1)}
    return {"players": players, "pieces": pieces, "supply": supply, **fields}


def _turn(raw: dict) -> tuple[int, int]:
    position = position_from_json(raw)
    return position.to_move, position.turn


def test_the_worked_two_player_record_of_the_seed():
    # player 2 placed on turn 1 and player 1 on turn 2: odd turns are player 2's
    owners = [(1, 2), (2, 1)]
    assert _turn(_record(2, owners)) == (2, 3)
    assert _turn(_record(2, owners, to_move=1)) == (1, 4)  # player 2 passed on turn 3
    assert _turn(_record(2, owners, turn=6)) == (1, 6)
    assert _turn(_record(2, owners, to_move=2, turn=3)) == (2, 3)


def test_three_players_with_passes_between_the_recorded_turns():
    # player 3 on turn 1, player 1 on turn 2, player 3 again on turn 7 (turn 4: player 3)
    owners = [(1, 3), (2, 1), (7, 3)]
    assert _turn(_record(3, owners)) == (1, 8)
    assert _turn(_record(3, owners, to_move=3)) == (3, 10)  # 8 and 9 are players 1 and 2's
    assert _turn(_record(3, owners, turn=12)) == (2, 12)


def test_nothing_recorded_keeps_the_old_defaults():
    assert _turn({"players": 2}) == (1, 1)
    assert _turn({"players": 2, "to_move": 2}) == (2, 1)
    assert _turn({"players": 2, "turn": 5}) == (1, 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_any_consistent_record_gives_back_its_rotation(players):
    """Every rotation and every set of up to three recorded turns: the inferred player to move
    is the rotation's, for the next turn and for any later one given."""
    for shift, turns in itertools.product(range(players), itertools.combinations(range(1, 8), 3)):
        owner = {t: (t + shift - 1) % players + 1 for t in range(1, 20)}
        raw = _record(players, [(t, owner[t]) for t in turns])
        assert _turn(raw) == (owner[max(turns) + 1], max(turns) + 1)
        assert _turn(raw | {"turn": 15}) == (owner[15], 15)
        for to_move in range(1, players + 1):
            found = _turn(raw | {"to_move": to_move})
            assert found[0] == to_move and owner[found[1]] == to_move
            assert max(turns) < found[1] <= max(turns) + players


def test_a_record_that_contradicts_itself_is_refused():
    # player 1 on turns 1 and 2 of a two-player game: one of them was player 2's
    with pytest.raises(InputError) as caught:
        position_from_json(_record(2, [(1, 1), (2, 1)]))
    assert str(caught.value) == ("pieces[1].turn: turn 2 by player 1 contradicts turn 1 by player 1 (pieces[0]): "
                                 "turns go round the 2 players, passes included")
    # players 1 and 2 three turns apart in a three-player game: the same player's turn
    with pytest.raises(InputError, match=r"pieces\[1\]\.turn: turn 4 by player 2 contradicts"):
        position_from_json(_record(3, [(1, 1), (4, 2)]))
    # given both, they must agree with the record
    with pytest.raises(InputError, match=r"turn 1 was player 1's \(turn 3 is player 1's\), not player 2's"):
        position_from_json(_record(2, [(1, 2)], to_move=1, turn=3))


def test_the_issue_s_late_position_loads_without_to_move(tmp_path):
    raw = json.loads((GRIDS / "late.json").read_text())
    del raw["to_move"], raw["turn"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(raw))
    position = load_position(str(bare))
    assert (position.to_move, position.turn) == (1, 41)  # as late.json says: player 2 placed on 40
    bare.write_text(json.dumps(raw | {"turn": 52}))
    assert load_position(str(bare)).to_move == 2


def _place(name: str, piece: str, inputs: str) -> Placement:
    return Placement(square_point(name), make_kind(piece, inputs))


def test_a_line_lists_the_passes_between_its_placements():
    position = load_position(str(GRIDS / "late.json"))  # turn 41, player 1
    plan = [PlannedPlacement(41, 1, _place("g8", "NOT", "W")), PlannedPlacement(44, 2, _place("d6", "NOT", "S"))]
    line = [(t.turn, t.player, str(t)) for t in turns_of(position, plan)]
    assert line == [(41, 1, "g8 NOT W"), (42, 2, "pass"), (43, 1, "pass"), (44, 2, "d6 NOT S")]
    assert turns_of(position, []) == []


def test_satisfy_prints_every_turn_and_numbers_its_pieces(run_cli, tmp_path):
    picture = tmp_path / "line.svg"
    result = run_cli("logisticks", "satisfy", str(GRIDS / "late.json"), "--player", "2", "--svg", str(picture))
    assert result.returncode == 0, result.stderr
    turns = re.findall(r"^  turn +(\d+)  player (\d) +(#\d+ )?(.*)$", result.stdout, re.M)
    numbers = [int(t) for t, *_ in turns]
    assert numbers == list(range(41, numbers[-1] + 1))  # no turn left out
    assert all((int(t) - 41) % 2 + 1 == int(p) for t, p, *_ in turns)  # turns go round from player 1
    placed = [(mark.strip(), move) for _, _, mark, move in turns if move != "pass"]
    assert [mark for mark, _ in placed] == [f"#{n}" for n in range(1, len(placed) + 1)]
    assert len(placed) < len(turns)  # the line waits at least once (the pass the issue missed)
    # the board after the line shows each placed piece with its number and owner
    board = result.stdout.split("\n\n")[1]
    for (mark, move), (_, player, *_rest) in zip(placed, [t for t in turns if t[3] != "pass"]):
        square, piece, inputs = move.split()
        row = next(line for line in board.splitlines() if line.split()[0] == square[1])
        assert f"{mark} {player}:{piece}/{inputs}=" in row
    assert "#N before a piece: the line's Nth placement" in result.stdout
    # the picture: the question and the answer above, a gold badge per placement, the line below
    root = ElementTree.fromstring(picture.read_text())
    assert root.find(f"{SVG}title").text == "Logi-Sticks, player 2's best score? 6 point(s) (the maximum) after 11 placement(s)"
    badges = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "12" and t.get("fill") == "#000"]
    assert sorted(map(int, badges)) == sorted([*range(1, len(placed) + 1), 1])  # and the legend's
    words = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "turn 51 p1 pass" in words and "the line's placements, in order" in words


def test_numbers_on_the_text_board():
    position = load_position(str(GRIDS / "midgame.json"))
    text = board_text(position, {square_point("d6"): 1, square_point("d7"): 12})
    rows = {line.split()[0]: line for line in text.splitlines() if line[:4].strip().isdigit()}
    assert "#1 2:PASS/S=T" in rows["6"] and "#12 1:AND/SW=?" in rows["7"]
    # every row still lines up: the rank on the right sits at the same column
    ends = {len(rows[r].rstrip()) for r in "12345678"}
    assert len(ends) == 1
    assert "#" not in board_text(position)


def test_the_picture_names_files_and_ranks_outside_all_four_rims():
    position = load_position(str(GRIDS / "midgame.json"))
    root = ElementTree.fromstring(board_svg(position, title="t"))
    labels = [(t.text, float(t.get("x")), float(t.get("y"))) for t in root.iter(f"{SVG}text") if t.get("font-size") == "16" and t.text and len(t.text) == 1]
    left, right = MARGIN, MARGIN + 8 * SQUARE
    files = [(x, y) for text, x, y in labels if text in "abcdefgh"]
    ranks = [(x, y) for text, x, y in labels if text in "12345678"]
    assert len(files) == 16 and len(ranks) == 16
    tops = sorted({y for _, y in files})
    assert len(tops) == 2 and tops[1] - tops[0] == 8 * SQUARE + 2 * COORDINATE_OUT  # above and below
    assert sorted({x for x, _ in ranks}) == [left - COORDINATE_OUT, right + COORDINATE_OUT]  # left and right
    # each file's letter stands over its column, each rank's number beside its row
    assert sorted({x for x, _ in files}) == [left + (c + 0.5) * SQUARE for c in range(8)]


def test_analyze_draws_the_board_with_its_question_and_answers(run_cli, tmp_path):
    picture = tmp_path / "analysis.svg"
    result = run_cli("logisticks", "analyze", str(GRIDS / "late.json"), "--svg", str(picture))
    assert result.returncode == 0, result.stderr
    maxima = dict(re.findall(r"^player (\d): 0 point\(s\) now, at most (\d+) achievable$", result.stdout, re.M))
    root = ElementTree.fromstring(picture.read_text())
    assert root.find(f"{SVG}title").text == (
        f"Logi-Sticks, turn 41: what can each player still score? player 1 at most {maxima['1']} (now 0); "
        f"player 2 at most {maxima['2']} (now 0)")
    words = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    verdicts = re.findall(r"^([a-h][18]) +(\d) +[WB]. +\w+ +\w+ +(.+)$", result.stdout, re.M)
    for square, player, verdict in verdicts:
        assert f"{square} " in words and verdict in words
    assert "player 2's targets: a8 W open" in words
    # beside --json, which keeps the answers as data
    result = run_cli("logisticks", "analyze", str(GRIDS / "late.json"), "--player", "2", "--svg", str(picture), "--json")
    assert json.loads(result.stdout)["max_score"]
    assert "what can player 2 still score? player 2 at most 6 (now 0)" in picture.read_text()


def test_satisfy_pictures_of_a_wanted_score(run_cli, tmp_path):
    picture = tmp_path / "line.svg"
    result = run_cli("logisticks", "satisfy", str(GRIDS / "late.json"), "-p", "2", "-s", "7", "--svg", str(picture))
    assert result.returncode == 1 and result.stdout.startswith("impossible")
    root = ElementTree.fromstring(picture.read_text())
    assert root.find(f"{SVG}title").text == (
        "Logi-Sticks, can player 2 score 7? impossible: no completion gives player 2 7 point(s) (proved by the solver)")
    assert not [t for t in root.iter(f"{SVG}text") if t.get("fill") == "#000" and t.get("font-size") == "12"]  # no line
    result = run_cli("logisticks", "satisfy", str(GRIDS / "late.json"), "-p", "2", "-s", "3", "--svg", str(picture))
    placements = len(re.findall(r"^  turn .* #\d+ ", result.stdout, re.M))
    title = ElementTree.fromstring(picture.read_text()).find(f"{SVG}title").text
    assert title == f"Logi-Sticks, can player 2 score 3? yes: 3 point(s) after {placements} placement(s)"
