"""Quarry answers drawn as a line of play: numbered new stones, a title, coordinates on every rim."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from placesat.quarry.model import load_position
from placesat.quarry.reach import reach
from placesat.quarry.render import render_svg, render_text
from placesat.quarry.rules import replay

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"
NS = "{http://www.w3.org/2000/svg}"


def _midgame_blue():
    state = replay(load_position(str(GRIDS / "midgame.json")))
    return state, reach(state, "blue")


def test_reach_title_names_the_question_and_the_line():
    state, answer = _midgame_blue()
    assert answer.title(state) == "Blue completes a line with 2 stones: 1. arch f1 e, 2. beam h2 s"


def test_reach_svg_numbers_new_stones_and_has_title_and_rims():
    state, answer = _midgame_blue()
    after = answer.after(state)
    svg = render_svg(after, answer.line, new_from=len(state.laid), heading=answer.title(state))
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter(f"{NS}text")]
    badges = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "new-stone"]
    # the arch tops f1 g1 h1 (it stands on its legs f1, h1), the beam h2 h3 h4
    assert sorted(badges) == ["1", "1", "1", "2", "2", "2"]
    assert "Blue completes a line with 2 stones:" in texts and "1. arch f1 e, 2. beam h2 s" in texts
    assert texts.count("a") == 2 and texts.count("i") == 2  # column letters above and below
    assert texts.count("10") == 2  # row numbers left and right


def test_reach_text_numbers_new_stones():
    state, answer = _midgame_blue()
    rows = render_text(answer.after(state), answer.line, new_from=len(state.laid)).splitlines()
    row1 = next(r for r in rows if r.startswith("  1"))
    assert row1.split() == ["1", "X2", ".", ".", ".", ".", "O2", "1", "O2", "1", "O2*1", ".", "1"]
    row4 = next(r for r in rows if r.startswith("  4"))
    assert "O1*2" in row4.split()


def test_reach_cli_text_json_svg(run_cli, tmp_path):
    picture = tmp_path / "line.svg"
    done = run_cli("quarry", "reach", str(GRIDS / "midgame.json"), "-p", "blue", "--svg", str(picture))
    assert done.returncode == 0
    assert "Blue completes a line with 2 stones: 1. arch f1 e, 2. beam h2 s" in done.stdout
    assert "O2*1" in done.stdout and "O1*2" in done.stdout
    assert ">1. arch f1 e, 2. beam h2 s<" in picture.read_text()
    out = json.loads(run_cli("quarry", "reach", str(GRIDS / "midgame.json"), "-p", "blue", "--json").stdout)
    first = out["moves"][0]
    assert (first["move"], first["number"], first["player"], first["cells"]) == ("arch f1 e", 1, "blue", ["f1", "g1", "h1"])
    assert out["moves"][1]["cells"] == ["h2", "h3", "h4"] and out["title"].startswith("Blue completes a line with 2 stones")


def test_race_cli_draws_both_lines(run_cli, tmp_path):
    picture = tmp_path / "race.svg"
    done = run_cli("quarry", "race", str(GRIDS / "midgame.json"), "--svg", str(picture))
    assert done.returncode == 0
    assert "Black completes a line with 2 stones: 1. span f1 e, 2. brick g9 s" in done.stdout
    assert "Blue completes a line with 2 stones: 1. arch f1 e, 2. beam h2 s" in done.stdout
    assert "X1*1" in done.stdout and "X1*2" in done.stdout and "O1*2" in done.stdout
    root = ElementTree.fromstring(picture.read_text())
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Race at the fewest stones: black 2 stone(s), blue 2 stone(s): level, black to move" in texts
    assert "1. span f1 e, 2. brick g9 s" in texts and "1. arch f1 e, 2. beam h2 s" in texts
    badges = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "new-stone"]
    assert badges.count("1") == 4 + 3 and badges.count("2") == 2 + 3  # span f1-i1, brick g9-g10; arch, beam
    out = json.loads(run_cli("quarry", "race", str(GRIDS / "midgame.json"), "--json").stdout)
    assert out["title"].startswith("Race at the fewest stones") and out["fewest_stones"]["black"]["moves"][1]["cells"] == ["g9", "g10"]


def test_iso_labels_on_all_rims_drawn_over_the_stacks():
    from placesat.quarry.render import render_isometric

    state = replay(load_position(str(GRIDS / "midgame.json")))  # stacks of 3 to 5 at a1, a3, c2 in the back corner
    root = ElementTree.fromstring(render_isometric(state))
    children = list(root)
    last_cube = max(i for i, e in enumerate(children) if e.tag == f"{NS}polygon")
    labels = [e.text for e in children[last_cube + 1:] if e.tag == f"{NS}text"]
    assert sorted(labels) == sorted([str(r) for r in range(1, 11)] * 2 + list("abcdefghi") * 2)
    assert not [e for e in children[:last_cube] if e.tag == f"{NS}text"]  # none left under a stack


def test_block_cli_draws_the_threat_and_the_first_block(run_cli, tmp_path):
    # midgame, black a10, blue arch f1 e: blue now wins with a beam or a span down column h
    start = tmp_path / "start.json"
    assert run_cli("quarry", "play", str(GRIDS / "midgame.json"), "block a10", "-o", str(tmp_path / "t1.json")).returncode == 0
    assert run_cli("quarry", "play", str(tmp_path / "t1.json"), "arch f1 e", "-o", str(start)).returncode == 0
    picture = tmp_path / "block.svg"
    done = run_cli("quarry", "block", str(start), "--svg", str(picture))
    assert done.returncode == 0
    assert "Black blocks blue's 2 winning move(s) with 19 move(s): 1. block h2;" in done.stdout
    assert "X1 1" in done.stdout  # the block on h2, numbered
    root = ElementTree.fromstring(picture.read_text())
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Blue wins now with 1. beam h2 s" in texts and "Black blocks with 1. block h2" in texts
    badges = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "new-stone"]
    assert badges == ["1"] * 4  # the beam's three cells, the block's one
    out = json.loads(run_cli("quarry", "block", str(start), "--json").stdout)
    assert out["blocks"][0]["cells"] == ["h2"] and len(out["blocks"]) == 19 and out["title"].startswith("Black blocks")
