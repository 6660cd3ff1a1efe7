"""Logi-Sticks boards as a person sees them: owners, signals, edges, the score in words, the SVG."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from placesat.logisticks.analyze import satisfy
from placesat.logisticks.model import position_from_json, position_to_json
from placesat.logisticks.render import (
    PLAYER_STYLE,
    SIGNAL_STYLE,
    board_rich,
    board_segments,
    board_svg,
    board_text,
    result_words,
    target_mark,
)
from placesat.logisticks.rules import load_position, scores

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "logisticks"
ANSI = re.compile(r"\x1b\[")


def _chain(targets):
    """d1-d3 carry d4's black stone (FALSE) south, d6-d8 d5's white stone (TRUE) north."""
    pieces = [{"square": s, "piece": "PASS", "inputs": "N", "player": 1} for s in ("d3", "d2", "d1")]
    pieces += [{"square": s, "piece": "PASS", "inputs": "S", "player": 2} for s in ("d6", "d7", "d8")]
    return position_from_json({"players": 2, "targets": targets, "pieces": pieces})


def test_pieces_show_owner_type_inputs_and_signal():
    text = board_text(load_position(str(GRIDS / "midgame.json")))
    rows = {line.split()[0]: line for line in text.splitlines() if line[:4].strip().isdigit()}
    # rank 7: d7 is player 1's AND reading south and west (MUTABLE), e7 player 1's OR
    assert "1:AND/SW=?" in rows["7"] and "1:OR/SE=?" in rows["7"]
    # rank 6: d6 player 2's PASS from d5's white north stone: TRUE
    assert "2:PASS/S=T" in rows["6"]
    assert "[nW wB]" in rows["5"]


def test_edges_are_labelled_with_their_player():
    two = board_text(load_position(str(GRIDS / "midgame.json"))).splitlines()
    assert two[1].startswith("p2 ") and two[10].startswith("p1 ")
    assert "p3" not in two[0]
    four = board_text(load_position(str(GRIDS / "four-players.json"))).splitlines()
    assert four[0].startswith("p3") and four[0].rstrip().endswith("p4")
    assert "p1 south, p2 north, p3 west, p4 east" in "\n".join(four)


def test_the_score_line_names_points_and_tie_breaks():
    position = _chain({"1": {"d1": "B", "a1": "W"}, "2": {"d8": "W"}})
    text = board_text(position)
    assert "player 1 (south edge): 1 point, 1 of 2 targets matched" in text
    assert "tie-breaks: 0 white targets matched, 1 black target stone" in text
    assert "player 2 (north edge): 1 point, 1 of 1 target matched" in text
    assert "tie-breaks: 1 white target matched, 0 black target stones" in text
    assert "B+" in text and "W?" in text  # d1 receives FALSE: matched; a1 nothing yet


def test_the_result_says_what_decided_it():
    # one point each; player 2's is a white target: the first tie-break decides
    assert result_words(_chain({"1": {"d1": "B"}, "2": {"d8": "W"}})) == \
        "player 2 wins on the first tie-break (white targets matched)"
    # player 1 matches, player 2's black target gets TRUE: points decide
    assert result_words(_chain({"1": {"d1": "B"}, "2": {"d8": "B"}})) == "player 1 wins on points"
    assert "game over: player 1 wins on points" in board_text(_chain({"1": {"d1": "B"}, "2": {"d8": "B"}}))
    # nothing matched yet, level on points and white targets: more black target stones leads
    position = _chain({"1": {"a1": "B", "b1": "B"}, "2": {"a8": "B"}})
    assert result_words(position) == "player 1 leads on the second tie-break (black target stones)"
    assert result_words(_chain({"1": {"a1": "B"}, "2": {"a8": "B"}})) == "tie between players 1, 2"


def test_target_marks_follow_the_signals_on_a_replayed_line():
    """After satisfy's line for player 2 on late.json, its W+/B+ marks count its score."""
    found = satisfy(load_position(str(GRIDS / "late.json")), 2)
    final = found.witness.final
    north = board_text(final).splitlines()[1]
    matched = len(re.findall(r"[WB]\+", north))
    assert matched == scores(final)[2].points == found.score == 6
    assert target_mark("W", True) == "W+" and target_mark("B", True) == "B-" and target_mark("B", None) == "B?"


def test_colour_in_a_terminal_and_the_same_words_in_plain_text():
    position = load_position(str(GRIDS / "midgame.json"))
    rich = board_rich(position)
    assert rich.plain == board_text(position)
    styles = {str(span.style) for span in rich.spans}
    assert {PLAYER_STYLE[1], PLAYER_STYLE[2], SIGNAL_STYLE[True], SIGNAL_STYLE[False]} <= styles
    # each piece's owner and type carry that owner's colour
    owned = [(text, style) for row in board_segments(position) for text, style in row if re.match(r"\d:", text)]
    assert owned and all(style == PLAYER_STYLE[int(text[0])] for text, style in owned)


def test_show_is_plain_in_a_pipe(run_cli):
    result = run_cli("logisticks", "show", str(GRIDS / "midgame.json"))
    assert result.returncode == 0 and not ANSI.search(result.stdout)
    assert "1:AND/SW=?" in result.stdout and "turn 17: player 1 to move" in result.stdout


def test_svg_has_a_legend_owners_scores_and_the_turn(tmp_path):
    position = load_position(str(GRIDS / "four-players.json"))
    picture = board_svg(position, title="four players")
    root = ElementTree.fromstring(picture)  # well-formed
    words = " ".join("".join(node.itertext()) for node in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Legend" in words and "TRUE output" in words and "wrong signal" in words
    for player in (1, 2, 3, 4):
        assert f"player {player}'s targets" in words and f"player {player}'s piece" in words
        assert f"player {player} (" in words
    assert "tie-breaks: 0 white targets matched, 4 black target stones" in words
    assert "turn 13: player 1 to move" in words
    # one owner badge per piece (and one per player in the legend)
    badges = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("font-size") == "11"]
    assert len(badges) == len(position.pieces) + 4


def test_analyze_now_column_uses_the_board_notation(run_cli, tmp_path):
    found = satisfy(load_position(str(GRIDS / "late.json")), 2)
    board = tmp_path / "after.json"
    board.write_text(json.dumps(position_to_json(found.witness.final)))
    result = run_cli("logisticks", "analyze", str(board), "--player", "2")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if re.match(r"[a-h]8 ", line)}
    nows = [row[2] for row in rows.values()]
    assert all(re.fullmatch(r"[WB][+\-?]", now) for now in nows)
    assert sum(now.endswith("+") for now in nows) == 6
    # the MUTABLE table shows each piece as the board does
    mutable = result.stdout.split("MUTABLE output")[1]
    assert re.search(r"\n[a-h][1-8] +[12]:[A-Z]+/[NESW]+=\? ", mutable)
