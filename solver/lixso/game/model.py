"""Positions of the Lixso strategic game and their two formats (text and JSON).

A *position* is a game record: a Lixso grid, who plays which colours, the supply, the rule
variant, and the tiles laid so far in the order they were laid. Everything else (whose turn
it is, who had to pass, the scores) follows from replaying the record on the rules
(:mod:`placesat.lixso.game.rules`), because a player passes only when no tile fits.

Text format: a Lixso grid file (one grid) whose header, the comment lines directly above
the grid, may also hold::

    # players: IS XO                 (2 players; or 2, 3, 4, "I X S", "I X O S")
    # per-colour: 3                  (the supply of each colour; default as for the puzzle)
    # clue-touch: off                (drop the clue-touch rule; default on)
    # move: I r1c1 r1c2 r2c1         (one line per tile laid, in order)

JSON format::

    {"grid": ["..I...", ...], "players": "IS XO", "per_colour": 3, "clue_touch": true,
     "moves": ["I r1c1 r1c2 r2c1", ...], "name": "...", "level": 4}

Only ``grid`` is required. A move is a colour letter and the three cells of the tile, as
people write them (``r3c7``: row 3, column 7, counted from 1), in any order. This module
checks the format only; whether the moves are legal is for the rules.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from placesat.core.errors import InputError, escape_controls
from placesat.core.inputs import (
    display_name,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    json_path,
    numbered_lines,
    parse_json_as,
    read_text,
)

from ..model import (
    CELL_SYMBOLS, COLOURS, HARDEST_LEVEL, MAX_PER_COLOUR, PER_COLOUR_KEY, Grid, default_per_colour, format_grid, looks_like_id,
    parse_id, parse_pack, pick_grid, read_level, read_per_colour,
)

Cell = tuple[int, int]

MIN_LEVEL = 3
"""The rule text asks for a grid of level 3 to 6; an easier one is accepted with a warning."""

PLAYERS_KEY, MOVE_KEY, CLUE_TOUCH_KEY = "players", "move", "clue-touch"
GAME_KEYS = (PLAYERS_KEY, MOVE_KEY, PER_COLOUR_KEY, CLUE_TOUCH_KEY)
GRID_KEYS = ("name", "level", "solution")
JSON_KEYS = ("grid", "name", "level", "players", "per_colour", "clue_touch", "moves")
SWITCH_WORDS = {"on": True, "off": False}
CLUE_TOUCH_DEFAULT = True
"""Whether a tile may not touch a clue of its colour that it leaves uncovered, unless the
position or the command says otherwise (a published German rule summary has this rule; the
box's rule text does not say)."""


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Seating:
    """Who plays which colours, in turn order.

    ``seats[i]`` holds the colours the i-th player to move may lay, ``sides[i]`` the side
    (player or team) that player's tiles count for. With 2 players each player is a side
    with two colours; with 4 players each has one colour, and seats 1 and 4 form team A,
    seats 2 and 3 team B (see :func:`seating_for`); with 3 players each has one colour of
    their own and all three share the fourth.
    """

    seats: tuple[str, ...]
    sides: tuple[int, ...]
    shared: str = ""

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return len(self.seats)

    @property
    def side_count(self) -> int:
        """How many sides compete (players, or teams of two)."""
        return max(self.sides) + 1

    def side_of(self, seat: int) -> int:
        """The side a seat's tiles count for."""
        return self.sides[seat]

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats playing for ``side``."""
        return tuple(seat for seat, owner in enumerate(self.sides) if owner == side)

    def colours_of(self, side: int) -> str:
        """Every colour a side's players may lay, in I X S O order."""
        mine = set("".join(self.seats[seat] for seat in self.seats_of(side)))
        return "".join(k for k in COLOURS if k in mine)

    def side_name(self, side: int) -> str:
        """``player 1`` ... for 2 or 3 players, ``team A`` / ``team B`` for 4."""
        if self.players == 4:
            return f"team {'AB'[side]}"
        return f"player {side + 1}"

    def seat_name(self, seat: int) -> str:
        """How a seat is named: a player (2 or 3 players) or the colour's player and team (4)."""
        if self.players == 4:
            return f"the {self.seats[seat]} player ({self.side_name(self.sides[seat])})"
        return f"{self.side_name(self.sides[seat])} ({' or '.join(self.seats[seat])})"

    def text(self) -> str:
        """The ``# players:`` value that gives this seating back."""
        if self.players == 3:
            return " ".join(seat.replace(self.shared, "") for seat in self.seats)
        return " ".join(self.seats)


DEFAULT_PLAYERS = {2: "IS XO", 3: "I X S", 4: "I X O S"}
"""The default colours per number of players. 2: player 1 has I and S, player 2 X and O.
4: the play order I X O S, so that team A (I, S) and team B (X, O) hold the same colours
as the two players of a 2-player game. 3: I, X and S each, O shared."""


def seating_for(text: str, where: str = PLAYERS_KEY) -> Seating:
    """The seating a ``players`` value names (see :data:`DEFAULT_PLAYERS` and seeds/lixso.md).

    - ``2``, ``3`` or ``4``: the default colours for that many players;
    - two groups of two colours (``IS XO``): 2 players, the first group moves first;
    - three colours (``I X S``): 3 players in that order, the fourth colour shared;
    - four colours (``I X O S``): 4 players in that order. Team-mates sit together and the
      first two players are of different teams, so the 1st and 4th players form team A and
      the 2nd and 3rd team B (with the seats A1 A2 B1 B2 around the table, A2 starts).
    """
    words = text.upper().split()
    if len(words) == 1 and words[0] in ("2", "3", "4"):
        words = DEFAULT_PLAYERS[int(words[0])].split()
    letters = "".join(words)
    if not words or any(ch not in COLOURS for ch in letters) or len(set(letters)) != len(letters):
        raise InputError(f"{where}: {text.strip()[:40]!r} is not a players line: write 2, 3 or 4, or the colours"
                         " of each player in turn order (IS XO, I X S or I X O S), each colour once")
    sizes = sorted(len(word) for word in words)
    if sizes == [2, 2]:
        return Seating(tuple(words), (0, 1))
    if sizes == [1, 1, 1]:
        shared = next(k for k in COLOURS if k not in letters)
        return Seating(tuple(word + shared for word in words), (0, 1, 2), shared)
    if sizes == [1, 1, 1, 1]:
        return Seating(tuple(words), (0, 1, 1, 0))
    raise InputError(f"{where}: {text.strip()[:40]!r}: 2 players take two colours each (IS XO), 3 or 4 players one"
                     " colour each (I X S, I X O S)")


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Move:
    """One tile laid: its colour and its three cells (row, column from 0), in reading order."""

    colour: str
    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return f"{self.colour} " + " ".join(cell_name(cell) for cell in self.cells)


def cell_name(cell: Cell) -> str:
    """A cell as people write it: row and column counted from 1, e.g. ``r3c7``."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


_CELL = re.compile(r"^[rR]([0-9]{1,3})[cC]([0-9]{1,3})$")
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_move(text: str, path: str | None = None, line: int | None = None) -> Move:
    """A move in the short form ``I r1c1 r1c2 r2c1``: a colour letter, then three cells.

    Letters in any case, cells in any order, separated by spaces or commas. Only the form is
    checked here (three distinct cells written right); whether they make an L inside the
    grid, and whether the tile may go there, is for the rules.
    """
    words = [word for word in _SEPARATORS.split(text.strip()) if word]
    if not words:
        raise InputError("empty move: write a colour and three cells, e.g. I r1c1 r1c2 r2c1", path, line)
    colour = words[0].upper()
    if len(words[0]) != 1 or words[0] not in CELL_SYMBOLS or colour not in COLOURS:  # ASCII only: "ı".upper() is "I"
        raise InputError(f"a move starts with its colour (I, X, S or O), not {words[0][:20]!r}", path, line)
    cells: list[Cell] = []
    for word in words[1:]:
        match = _CELL.match(word)
        if match is None:
            raise InputError(f"{word[:20]!r} is not a cell: write cells as r<row>c<column>, e.g. r3c7", path, line)
        row, col = int(match[1]), int(match[2])
        if row < 1 or col < 1:
            raise InputError(f"{word}: rows and columns are counted from 1", path, line)
        cells.append((row - 1, col - 1))
    if len(cells) != 3:
        raise InputError(f"a tile covers three cells; this move names {len(cells)}", path, line)
    if len(set(cells)) != 3:
        raise InputError("a tile covers three different cells; this move names one twice", path, line)
    return Move(colour, tuple(sorted(cells)))


# --------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class Position:
    """A game record: the grid, the seating, the supply, the rule variant and the tiles laid.

    ``move_lines`` says where each move was written (a line number, or a JSON path), for
    messages about an illegal move. ``ignored`` lists header keys that mean nothing here.
    ``players_given``: whether the record names its players (a ``# players:`` line, a JSON
    ``"players"``), which an option may then not change.
    """

    grid: Grid
    seating: Seating
    per_colour: int
    clue_touch: bool = CLUE_TOUCH_DEFAULT
    moves: tuple[Move, ...] = ()
    path: str | None = field(default=None, compare=False)
    move_lines: tuple[int | str | None, ...] = field(default=(), compare=False)
    ignored: tuple[str, ...] = field(default=(), compare=False)
    players_given: bool = field(default=False, compare=False)

    def with_move(self, move: Move) -> "Position":
        """The record with one more tile laid (its legality is the rules' business)."""
        return Position(self.grid, self.seating, self.per_colour, self.clue_touch, self.moves + (move,), self.path,
                        self.move_lines + (None,), self.ignored, self.players_given)

    def with_moves(self, moves: tuple[Move, ...] | list[Move]) -> "Position":
        """The record with ``moves`` laid after its own (their legality is the rules' business)."""
        return Position(self.grid, self.seating, self.per_colour, self.clue_touch, self.moves + tuple(moves), self.path,
                        self.move_lines + (None,) * len(moves), self.ignored, self.players_given)

    def where(self, number: int) -> tuple[str | None, int | None]:
        """The file and line (or JSON path, folded into the file name) where move ``number`` (from 0) was written."""
        mark = self.move_lines[number] if number < len(self.move_lines) else None
        if isinstance(mark, str):
            return (f"{self.path}: {mark}" if self.path else mark), None
        return self.path, mark

    def level_warning(self) -> str | None:
        """A note when the grid is easier than the game asks for (level 3 to 6)."""
        level = self.grid.stated_level()
        if level is not None and level < MIN_LEVEL:
            return f"this grid is level {level}; the strategic game is meant for levels {MIN_LEVEL}-6"
        return None


def _switch(value: str, where: str, path: str | None, line: int | None) -> bool:
    word = value.strip().lower()
    if word not in SWITCH_WORDS:
        raise InputError(f"{where}: must be on or off, not {value.strip()[:20]!r}", path, line)
    return SWITCH_WORDS[word]


def parse_text(text: str, path: str | None = None, name: str | None = None, index: int | None = None) -> Position:
    """A position in the text format: a grid, its header holding the game's lines.

    A file of several grids (a pack) is read only when ``name`` or ``index`` picks one, as
    every ``lixso`` command picks a grid of a pack (:func:`placesat.lixso.model.pick_grid`);
    each grid's game lines are then those directly above it.
    """
    grids = parse_pack(text, path)
    if not grids:
        raise InputError("no grid in this file (empty, or only comments)", path)
    if name is None and index is None and len(grids) > 1:
        second = grids[1]
        raise InputError(f"this file holds {len(grids)} grids; a game position is one: pick it with --name or --index", path,
                         second.line)
    first = pick_grid(grids, name, index, path)
    lines = list(numbered_lines(text))
    assert first.line is not None
    header_start, _ = _header_start(lines, first.line)
    headers = [  # every grid's header, a broken grid's too: the comment lines directly above a row
        _header_start(lines, number)
        for at, (number, raw) in enumerate(lines)
        if at > 0 and raw.strip() and not raw.strip().startswith("#") and lines[at - 1][1].strip().startswith("#")
    ]
    seating_text: str | None = None
    per_colour: int | None = None
    clue_touch = CLUE_TOUCH_DEFAULT
    moves: list[Move] = []
    move_lines: list[int] = []
    ignored: list[str] = []
    for at, (number, raw) in enumerate(lines):
        body = raw.strip()
        if not body.startswith("#"):
            continue
        key, colon, value = body[1:].strip().partition(":")
        key = key.strip().lower()
        if not colon or not key or " " in key:
            continue  # a plain comment
        in_header = header_start <= at < first.line - 1
        if key in GAME_KEYS and not in_header and not any(start <= at < end for start, end in headers):
            raise InputError(f"'# {key}:' belongs in the lines directly above the grid", path, number)
        if not in_header:
            continue  # (another grid's game line, in a pack)
        if key == MOVE_KEY:
            moves.append(parse_move(value, path, number))
            move_lines.append(number)
        elif key == PLAYERS_KEY:
            if seating_text is not None:
                raise InputError("'# players:' is given twice", path, number)
            seating_text = value
            try:
                seating_for(value)
            except InputError as error:
                raise InputError(error.message, path, number) from None
        elif key == PER_COLOUR_KEY:
            per_colour = read_per_colour(value, PER_COLOUR_KEY, path, number)
        elif key == CLUE_TOUCH_KEY:
            clue_touch = _switch(value, CLUE_TOUCH_KEY, path, number)
        elif key == "level" and read_level(value) is None:
            # as the JSON format's "level" is checked (it was dropped without a word here)
            raise InputError(f"level: must be from 1 to {HARDEST_LEVEL}, not {value.strip()[:20]!r}", path, number)
        elif key not in GRID_KEYS:
            ignored.append(f"{key} (line {number})")
    grid = Grid(first.rows, first.name, {k: v for k, v in first.metadata.items() if k in GRID_KEYS}, path, first.line)
    seating = seating_for(seating_text) if seating_text is not None else seating_for("2")
    supply = per_colour if per_colour is not None else default_per_colour(grid.height, grid.width)
    return Position(grid, seating, supply, clue_touch, tuple(moves), path, tuple(move_lines), tuple(ignored),
                    seating_text is not None)


def _header_start(lines: list[tuple[int, str]], grid_line: int) -> tuple[int, int]:
    """The header of the grid whose first row is line ``grid_line``: the comment lines
    directly above it, as indices into ``lines`` (from, to)."""
    start = grid_line - 1  # lines are numbered from 1; the grid starts at index grid_line - 1
    while start > 0 and lines[start - 1][1].strip().startswith("#"):
        start -= 1
    return start, grid_line - 1


def position_from_json(raw: Any, path: str | None = None) -> Position:
    """A position from decoded JSON (see the module docstring); errors name the JSON path."""
    expect_object(raw, "", JSON_KEYS, "a Lixso game position (an object with at least \"grid\")")
    if "grid" not in raw:
        raise InputError("grid: missing (the grid's rows, as strings of '.' and I X S O)", path)
    rows = expect_list(raw["grid"], "grid", "a list of rows (strings of '.' and I X S O)")
    if not rows:
        raise InputError("grid: must hold at least one row", path)
    for number, row in enumerate(rows):
        expect_str(row, json_path("grid", number))
        if not row or row.lstrip().startswith("#") or row != row.strip():
            raise InputError(f"{json_path('grid', number)}: a row is a non-empty string of '.' and I X S O, no spaces", path)
    entries = parse_pack("\n".join(rows) + "\n")
    if len(entries) != 1:
        raise InputError("grid: the rows do not make one grid", path)
    entry = entries[0]
    if isinstance(entry, InputError):
        where = json_path("grid", entry.line - 1) if entry.line else "grid"
        raise InputError(f"{where}: {entry.message}", path)
    metadata = {}
    name = ""
    if "name" in raw:
        name = expect_str(raw["name"], "name")
        if any(ch in name for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
            # the text format keeps the name on one '# name:' line: a break would write other lines
            raise InputError("name: must be one line (it has a line break)", path)
        name = escape_controls(name)  # never raw to a terminal
    if "level" in raw:
        metadata["level"] = str(expect_int(raw["level"], "level", 1, HARDEST_LEVEL))
    grid = Grid(entry.rows, name, metadata, path, None)
    players = raw.get("players", "2")
    if isinstance(players, int) and not isinstance(players, bool):
        players = str(players)
    seating = seating_for(expect_str(players, "players"), "players")
    supply = default_per_colour(grid.height, grid.width)
    if "per_colour" in raw:
        supply = expect_int(raw["per_colour"], "per_colour", 1, MAX_PER_COLOUR)
    clue_touch = expect_bool(raw["clue_touch"], "clue_touch") if "clue_touch" in raw else CLUE_TOUCH_DEFAULT
    moves: list[Move] = []
    marks: list[str] = []
    for number, value in enumerate(expect_list(raw.get("moves", []), "moves", "a list of moves like \"I r1c1 r1c2 r2c1\"")):
        where = json_path("moves", number)
        text = expect_str(value, where)  # its message names the path already
        try:
            moves.append(parse_move(text))
        except InputError as error:
            raise InputError(f"{where}: {error.message}", path) from None
        marks.append(where)
    return Position(grid, seating, supply, clue_touch, tuple(moves), path, tuple(marks), players_given="players" in raw)


def parse_position(text: str, path: str | None = None) -> Position:
    """A position in either format: JSON when the text starts with ``{``, the text format otherwise."""
    if text.lstrip().startswith("{"):
        return parse_json_as(text, path, lambda raw: position_from_json(raw, path))
    return parse_text(text, path)


def load_position(path: str, name: str | None = None, index: int | None = None) -> Position:
    """Read a position (``-``: standard input; a puzzle ID stands for its grid, no tile laid
    yet); ``name`` or ``index`` pick one grid of a pack (see :func:`parse_text`)."""
    if looks_like_id(path) and not os.path.exists(path):
        grid = pick_grid([parse_id(path)], name, index, path)
        return Position(grid, seating_for("2"), default_per_colour(grid.height, grid.width))
    text = read_text(path)
    shown = display_name(path)
    if (name is not None or index is not None) and text.lstrip().startswith("{"):
        raise InputError("--name and --index pick a grid of a pack; a JSON position holds one game", shown)
    if text.lstrip().startswith("{"):
        return parse_position(text, shown)
    return parse_text(text, shown, name, index)


def with_seating(position: Position, players: str | None) -> Position:
    """The position with the seating a ``--players`` option asks for.

    The option chooses the players of a grid whose record does not name them (a plain
    puzzle, a puzzle ID, a file without ``# players:``). A record that names its players, or
    has tiles laid under the default players, must agree with the option: the option is
    refused otherwise, never quietly put in the record's place.
    """
    if players is None:
        return position
    seating = seating_for(players, "--players")
    if seating == position.seating:
        return position
    if position.players_given:
        raise InputError(f"--players {players} disagrees with this game's own players ({position.seating.text()});"
                         " leave the option out, or change the record's players", position.path)
    if position.moves:
        raise InputError(f"--players {players} disagrees with the players of this game ({position.seating.text()}),"
                         " which has tiles laid already", position.path)
    return Position(position.grid, seating, position.per_colour, position.clue_touch, position.moves, position.path,
                    position.move_lines, position.ignored, True)


def without_clue_touch(position: Position) -> Position:
    """The position under the rules without the clue-touch rule (``--no-clue-touch-rule``)."""
    return Position(position.grid, position.seating, position.per_colour, False, position.moves, position.path,
                    position.move_lines, position.ignored, position.players_given)


# --------------------------------------------------------------------------- writing


def format_text(position: Position) -> str:
    """The position in the text format: the grid with the game's header lines above it."""
    header = [f"# {PLAYERS_KEY}: {position.seating.text()}"]
    grid = position.grid
    if position.per_colour != default_per_colour(grid.height, grid.width):
        header.append(f"# {PER_COLOUR_KEY}: {position.per_colour}")
    if position.clue_touch != CLUE_TOUCH_DEFAULT:
        header.append(f"# {CLUE_TOUCH_KEY}: {'on' if position.clue_touch else 'off'}")
    header.extend(f"# {MOVE_KEY}: {move}" for move in position.moves)
    grid_text = format_grid(Grid(grid.rows, grid.name, {k: v for k, v in grid.metadata.items() if k != "solution"}))
    lines = grid_text.splitlines()
    meta = [line for line in lines if line.startswith("#")]
    rows = [line for line in lines if not line.startswith("#")]
    return "\n".join(meta + header + rows) + "\n"


def position_to_json(position: Position) -> dict[str, Any]:
    """The position in the JSON format."""
    out: dict[str, Any] = {"grid": list(position.grid.rows)}
    if position.grid.name:
        out["name"] = position.grid.name
    level = position.grid.stated_level()
    if level is not None:
        out["level"] = level
    out["players"] = position.seating.text()
    out["per_colour"] = position.per_colour
    out["clue_touch"] = position.clue_touch
    out["moves"] = [str(move) for move in position.moves]
    return out
