"""``laido new`` and reach's answer on the board (issue 32), through the installed command."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

PLACESAT = str(Path(sys.executable).with_name("placesat"))
SVG = "{http://www.w3.org/2000/svg}"

# Black's line from the rim at [-3, 0] to [2, 0] (one edge stone: value -6) against White's rim
# pair [2, -3] [3, -3] (value 2): one stone on a rim point beside [2, 0] ([3, 0], [2, 1] or
# [3, -1]) makes a 7-stone connection part, value 7, and no stone is too few
NEAR = {"size": 4, "black": [[q, 0] for q in range(-3, 3)], "white": [[2, -3], [3, -3]], "to_move": "black"}
FINISHING = {(3, 0), (2, 1), (3, -1)}


def run(*args, stdin=None):
    return subprocess.run([PLACESAT, "laido", *map(str, args)], input=stdin, capture_output=True, text=True, timeout=120)


def test_new_writes_an_empty_record_to_play_into(tmp_path):
    game = tmp_path / "mygame.json"
    done = run("new", "--side", 5, "--out", game)
    assert done.returncode == 0, done.stderr
    assert json.loads(game.read_text()) == {"size": 5, "moves": []}
    for move in ("0,0", "swap", "1,-1"):
        done = run("play", game, move, "--out", game)
        assert done.returncode == 0, done.stderr
    assert json.loads(game.read_text()) == {"size": 5, "moves": [[0, 0], "swap", [1, -1]]}
    assert "white (the first player) to move" not in done.stdout and "black to move" in done.stdout


def test_a_game_not_started_yet_points_to_new(tmp_path):
    game = tmp_path / "mygame.json"
    done = run("play", game, "0,0", "--out", game)
    assert done.returncode == 2
    assert done.stderr == f"placesat: error: {game}: no such file (a new game: placesat laido new --out {game})\n"


def test_new_position_and_standard_output():
    done = run("new")
    assert done.returncode == 0 and json.loads(done.stdout) == {"size": 9, "moves": []}
    done = run("new", "--side", 7, "--position", "--json")
    position = json.loads(done.stdout)
    assert position == {"size": 7, "black": [], "white": [], "to_move": "black", "passes": 0, "first_pass": None, "swapped": False}
    assert run("score", "-", stdin=done.stdout).returncode == 0  # a position every command reads
    for side in (1, 16):
        done = run("new", "--side", side)
        assert done.returncode == 2 and done.stderr.strip() == f"placesat: error: --side must be from 2 to 15, not {side}"


def _board_rows(text: str) -> dict[int, tuple[int, list[str]]]:
    """Row r -> (q of its first point, its cells) of a text board."""
    rows = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) > 3 and words[0].lstrip("-").isdigit() and words[1].lstrip("-").isdigit():
            rows[int(words[0])] = (int(words[1]), words[2:-1])
    return rows


def _numbered(text: str) -> dict[tuple[int, int], str]:
    return {(first + i, r): cell for r, (first, cells) in _board_rows(text).items() for i, cell in enumerate(cells) if cell.isdigit()}


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_reach_shows_its_stones_on_the_board_and_in_a_picture(tmp_path, backend):
    picture = tmp_path / "reach.svg"
    done = run("reach", "-", "-p", "black", "-k", 2, "--backend", backend, "--svg", picture, stdin=json.dumps(NEAR))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("yes: black wins by adding 1 stone(s): ")
    (stone, mark), = _numbered(done.stdout).items()
    assert stone in FINISHING and mark == "1"
    assert "1 2 3 ... black's new stones in order" in done.stdout
    # the board reached: the old line in capitals (its connection part), the new stone beside it
    assert _board_rows(done.stdout)[0][1][:6] == ["X"] * 6
    root = ElementTree.fromstring(picture.read_text())
    title = root.find(f"{SVG}title").text
    assert title == "Laido: can black win with at most 2 more stones? yes: black wins in 1 stone"
    rings = [c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle") if c.get("stroke") == "#f0b400"]
    assert rings == [f"new stone 1: [{stone[0]}, {stone[1]}]"]
    words = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert f"the new stones in the order played: 1 [{stone[0]}, {stone[1]}]" in words
    assert "decided by comparison 1: black 7 vs white 2" in words
    # --json keeps the line as data, and the picture alone prints nothing
    done = run("reach", "-", "-p", "black", "-k", 2, "--backend", backend, "--json", stdin=json.dumps(NEAR))
    answer = json.loads(done.stdout)
    assert answer["answer"] == "yes" and len(answer["stones"]) == 1 and tuple(answer["stones"][0]) in FINISHING
    assert answer["moves"] == [answer["stones"][0], "pass", "pass"]  # White passes, then Black: the end


def test_reach_no_and_best_pictures(tmp_path):
    picture = tmp_path / "no.svg"
    done = run("reach", "-", "-p", "black", "-k", 0, "--backend", "sat", "--svg", picture, stdin=json.dumps(NEAR))
    assert done.returncode == 0 and done.stdout.startswith("no: ") and not _numbered(done.stdout)
    title = ElementTree.fromstring(picture.read_text()).find(f"{SVG}title").text
    assert title == "Laido: can black win with at most 0 more stones? no: black cannot win with at most 0 stones"
    done = run("reach", "-", "-p", "black", "-k", 1, "--best", "--backend", "sat", "--svg", picture, stdin=json.dumps(NEAR))
    assert done.returncode == 0, done.stderr
    assert "best value for black with at most 1 more stone(s): 7" in done.stdout
    (stone, mark), = _numbered(done.stdout).items()
    assert stone in FINISHING and mark == "1"
    title = ElementTree.fromstring(picture.read_text()).find(f"{SVG}title").text
    assert title == "Laido: black's best group with at most 1 more stone? black reaches a group worth 7 in 1 stone"


def test_score_and_play_pictures_say_the_position_not_the_file(tmp_path):
    picture = tmp_path / "score.svg"
    hand = Path(__file__).resolve().parent.parent / "grids" / "laido" / "hand.json"
    assert run("score", hand, "--svg", picture).returncode == 0
    title = ElementTree.fromstring(picture.read_text()).find(f"{SVG}title").text
    assert title == "Laido, 4 points a side: winner (game over): black - comparison 1: black 6 vs white 2"
    game = tmp_path / "game.json"
    run("new", "--side", 3, "--out", game)
    assert run("play", game, "1,-1", "--svg", picture).returncode == 0
    title = ElementTree.fromstring(picture.read_text()).find(f"{SVG}title").text
    assert title == "Laido, 3 points a side, after 1 move(s): white to move"
