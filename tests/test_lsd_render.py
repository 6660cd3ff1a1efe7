"""What a person sees: the LSD board as text and as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from placesat.lsd.model import new_position, parse_move, position_from_json
from placesat.lsd.render import render_rich, render_svg, render_text, status_lines
from placesat.lsd.rules import play


def two_tiles():
    return play(play(new_position(2), parse_move("0,0 NE+")), parse_move("1,0 W x"))


def test_text_board_shows_owner_icon_colour_and_dots():
    # 0,0: player 1, +, black icon, its N half dot open; 1,0: player 2, x, white; a completed dot between
    assert render_text(two_tiles()) == (
        "       0   1\n"
        "     ┌─○─┬───┐\n"
        "   0 │1+b●2xw│\n"
        "     └───┴───┘\n"
    )


def test_marks_on_empty_cells_and_status():
    text = render_text(two_tiles(), marks={(0, 1): "*"})
    assert text.splitlines()[2] == "   1   *"  # row 1 holds no tile, only the mark
    lines = status_lines(two_tiles())
    assert lines[0] == "player 1 to move"
    assert lines[1].startswith("player 1 (red tiles, black icons): 19 in supply")


def test_rich_board_colours_tiles():
    text = render_rich(two_tiles())
    assert text.plain == render_text(two_tiles())
    styles = {str(span.style) for span in text.spans}
    assert any("#000000 on #e05a47" in s for s in styles)  # player 1: red, black icons
    assert any("#ffffff on #3d85c6" in s for s in styles)  # player 2: blue, white icons


def test_svg_draws_every_tile_dot_and_icon():
    svg = render_svg(two_tiles(), highlight=[(0, 0)], title="two tiles")
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    tiles = [r for r in root.iter(f"{ns}rect") if r.find(f"{ns}title") is not None]
    assert len(tiles) == 2
    assert len(list(root.iter(f"{ns}path"))) == 3  # half dots: N and E of 0,0, W of 1,0
    assert len(list(root.iter(f"{ns}line"))) == 8  # two strokes per icon, each drawn with a rim
    assert "player 1 to move" in svg



def test_a_drawn_game_says_so_where_the_player_to_move_would_be():
    drawn = play(play(play(play(new_position(2), parse_move("0,0 ESx")), parse_move("1,0 W+")), parse_move("0,-1 NEx")), parse_move("1,-1 W+"))
    assert status_lines(drawn)[0] == "nobody can place a tile: the game is a draw"


def test_parts_of_the_field_far_apart_are_drawn_as_boards_of_their_own():
    # after captures the field can be split: one board over the whole span was 2,001 cells a
    # side (seconds to draw, and mostly empty)
    split = position_from_json({"players": 2, "captured": [{"N+": 1}, {}], "field": [
        {"at": [0, 0], "player": 1, "dots": "E", "icon": "+"},
        {"at": [1000, 1000], "player": 2, "dots": "W", "icon": "x"},
    ]})
    text = render_text(split)
    assert text == (
        "     1000\n"
        "     ┌───┐\n"
        "1000 ○2xw│\n"
        "     └───┘\n"
        "\n"
        "       0\n"
        "     ┌───┐\n"
        "   0 │1+b○\n"
        "     └───┘\n"
    )
    assert render_rich(split).plain == text
    assert render_text(two_tiles()).count("┌") == 1  # one piece, one board



def test_wide_coordinates_keep_the_board_in_line():
    # "-100" is wider than a cell: its number ran into the next one and shifted every later
    # column's number by one; row -1000 shifted its row by one
    field = [{"at": [x, -1000], "player": 1 + (x % 2), "dots": "EW", "icon": "+"} for x in range(-101, -97)]
    field[0]["dots"], field[-1]["dots"] = "E", "W"
    position = position_from_json({"players": 2, "field": field, "tileset": {"NS+": 4, "N+": 2}})
    lines = render_text(position).splitlines()
    assert lines[0] == "      -101     -99 -98", lines[0]  # -100 has no room beside -101; each over its own cell
    row = lines[2]
    assert row.startswith("-1000 │") and row.index("│") == len(lines[1]) - len(lines[1].lstrip())
    for x, label in ((-101, "-101"), (-99, "-99")):
        column = lines[0].index(label)
        assert abs(column + len(label) / 2 - (row.index("│") + 2 + 4 * (x + 101))) <= 1.5
