"""Quarry positions: the board, the moves of a game, their JSON and short text forms.

A *position* is the game so far: the board, the stones each player starts with, who moved first,
and the moves in order. What stands on the board follows from replaying the moves
(:func:`placesat.quarry.rules.replay`), which also checks that each one was legal::

    {"board": {"length": 10, "width": 9, "zones": "outside"},
     "stones": "default",
     "first": "black",
     "moves": [{"player": "black", "stone": "beam", "face": "up", "dir": "s", "at": "c3", "height": 0},
               {"player": "blue", "pass": true}]}

A cell is named by its column letter (``a`` on the left) and its row number (``1`` at the top,
next to the first Quarry zone), like ``c3``. A *move* in text is ``STONE CELL [DIR] [FACE]``:
``beam c3 s`` lays a Beam from c3 southwards; ``arch d4 e down`` lays an Arch upside down from d4
eastwards; ``block a1``; ``pass``. A stone may be named by a prefix (``sp`` for span).

This module checks the format only; whether the moves are legal is for :mod:`placesat.quarry.rules`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Union

from placesat.core.errors import InputError
from placesat.core.inputs import expect_bool, expect_int, expect_list, expect_object, expect_str, json_path, parse_json_as, read_text

from .stones import DIRECTIONS, StoneSet, default_stones, stones_from_json, stones_to_json

BLACK = "black"
BLUE = "blue"
PLAYERS = (BLACK, BLUE)
"""The two colours (the scan's examples: "Black wins", "Blue wins")."""

OUTSIDE = "outside"
INSIDE = "inside"
ZONE_READINGS = (OUTSIDE, INSIDE)
ZONE_DEPTH = 2
"""The scan: "a Quarry area of 2 spaces on each end"."""

DEFAULT_LENGTH = 10
DEFAULT_WIDTH = 9
MIN_LENGTH, MAX_LENGTH = 2, 30
MIN_WIDTH, MAX_WIDTH = 1, 26  # a column is one letter

PASS = "pass"

Cell = tuple[int, int]  # (row, column), from 0 at the top left


def opponent(player: str) -> str:
    """The other player."""
    return BLUE if player == BLACK else BLACK


@dataclass(frozen=True)
class Board:
    """The playing board: ``length`` rows from one Quarry zone to the other, ``width`` columns.

    Zone readings (see ``seeds/quarry.md``): ``outside`` (the default) puts the two Quarry
    zones beyond the first and the last row; no stone goes there, and a line must join row 1
    to the last row. ``inside`` makes the first two and the last two rows the zones, part of the
    board: stones may go there, and a line must join a cell of one zone to a cell of the other.
    """

    length: int = DEFAULT_LENGTH
    width: int = DEFAULT_WIDTH
    zones: str = OUTSIDE

    def __post_init__(self) -> None:
        if self.zones not in ZONE_READINGS:
            raise ValueError(f"zones must be one of {ZONE_READINGS}, not {self.zones!r}")

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.length * self.width

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        r, c = cell
        return 0 <= r < self.length and 0 <= c < self.width

    def goal_rows(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The rows a line must join: (rows at the first zone, rows at the second zone)."""
        if self.zones == OUTSIDE:
            return (0,), (self.length - 1,)
        return tuple(range(ZONE_DEPTH)), tuple(range(self.length - ZONE_DEPTH, self.length))

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells sharing a side with ``cell`` (a line is joined through these)."""
        r, c = cell
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)) if 0 <= r + dr < self.length and 0 <= c + dc < self.width]

    @cached_property
    def adjacent(self) -> tuple[tuple[int, ...], ...]:
        """For each cell by index (row * width + column), the indices of :meth:`neighbours`:
        the line searches ask it at every step."""
        return tuple(tuple(r * self.width + c for r, c in self.neighbours(divmod(i, self.width))) for i in range(self.cells))

    def to_json(self) -> dict[str, Any]:
        """The board as JSON."""
        return {"length": self.length, "width": self.width, "zones": self.zones}


def min_length(zones: str) -> int:
    """The shortest board a reading allows (inside: two zones of two rows, and one row between)."""
    return 2 * ZONE_DEPTH + 1 if zones == INSIDE else MIN_LENGTH


def check_board(length: int, width: int, zones: str) -> Board:
    """A board of this size, or an ``InputError`` saying which measure is out of range."""
    if zones not in ZONE_READINGS:
        raise InputError(f"zones: must be {' or '.join(ZONE_READINGS)}, not {zones!r}")
    low = min_length(zones)
    if not low <= length <= MAX_LENGTH:
        raise InputError(f"length: must be from {low} to {MAX_LENGTH} with zones {zones}, not {length}")
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise InputError(f"width: must be from {MIN_WIDTH} to {MAX_WIDTH}, not {width}")
    return Board(length, width, zones)


def cell_name(cell: Cell) -> str:
    """``(2, 0)`` is ``a3``: the column letter, then the row number from 1."""
    return f"{chr(ord('a') + cell[1])}{cell[0] + 1}"


_CELL = re.compile(r"^([a-zA-Z])([0-9]{1,3})$")


def parse_cell(text: str, board: Board, where: str = "cell") -> Cell:
    """A cell from its name (``c3``), checked to be on the board."""
    match = _CELL.match(text.strip())
    if not match:
        raise InputError(f"{where}: a cell is a column letter and a row number, like c3, not {text!r}")
    cell = (int(match[2]) - 1, ord(match[1].lower()) - ord("a"))
    if cell not in board:
        last = cell_name((board.length - 1, board.width - 1))
        raise InputError(f"{where}: {text} is off the board (a1 to {last})")
    return cell


@dataclass(frozen=True)
class Placement:
    """A stone laid on the board: which stone, which way up, turned to which direction, anchored
    at which cell. Where it rests in height follows from what lies below (see the rules)."""

    stone: str
    face: str
    direction: str
    at: Cell

    def text(self, stones: StoneSet) -> str:
        """The short form a person types: ``beam c3 s``, ``arch d4 e down``, ``block a1``."""
        kind = stones[self.stone]
        words = [self.stone, cell_name(self.at)]
        if len(kind.orientations) > 1 or self.direction != DIRECTIONS[0]:
            words.append(self.direction)
        if self.face != kind.faces[0].name:
            words.append(self.face)
        return " ".join(words)


Move = Union[Placement, str]  # a placement or PASS


@dataclass(frozen=True)
class Played:
    """A move of the game: who made it, the move, and (for a placement) the height it rests at
    (the level of the stone's bottom; None when the record does not say)."""

    player: str
    move: Move
    height: int | None = None


@dataclass(frozen=True)
class Position:
    """A game so far: its board, its stones, who moved first, and the moves in order."""

    board: Board = field(default_factory=Board)
    stones: StoneSet = field(default_factory=default_stones)
    first: str = BLACK
    moves: tuple[Played, ...] = ()

    def with_move(self, played: Played) -> "Position":
        """This game with one more move."""
        return Position(self.board, self.stones, self.first, self.moves + (played,))


# --------------------------------------------------------------------------- text moves

DIRECTION_WORDS = {"e": "e", "east": "e", "s": "s", "south": "s", "w": "w", "west": "w", "n": "n", "north": "n"}


def parse_move(text: str, board: Board, stones: StoneSet) -> Move:
    """A move from its short text form ``STONE CELL [DIR] [FACE]`` or ``pass`` (any case).

    The direction defaults to east and the face to the stone's first (up).
    """
    words = text.split()
    shown = " ".join(words)
    if [w.lower() for w in words] == [PASS]:
        return PASS
    if len(words) < 2 or len(words) > 4:
        raise InputError(f"move {shown!r}: write STONE CELL [DIR] [FACE], like 'beam c3 s' or 'arch d4 e down', or 'pass'")
    kind = stones.find(words[0])
    if kind is None:
        meant = stones.starting(words[0])
        if len(meant) > 1:
            raise InputError(f"move {shown!r}: {words[0]!r} could be {' or '.join(meant)}: type more of the name")
        raise InputError(f"move {shown!r}: unknown stone {words[0]!r} (stones: {', '.join(stones.names)})")
    at = parse_cell(words[1], board, f"move {shown!r}")
    direction = None
    face = None
    for word in words[2:]:
        low = word.lower()
        if low in DIRECTION_WORDS and direction is None:
            direction = DIRECTION_WORDS[low]
        elif kind.face(low) is not None and face is None:
            face = low
        else:
            faces = ", ".join(f.name for f in kind.faces)
            raise InputError(f"move {shown!r}: {word!r} is neither a direction (e, s, w, n) nor a face of the {kind.name} ({faces})")
    return Placement(kind.name, face or kind.faces[0].name, direction or DIRECTIONS[0], at)


def move_text(move: Move, stones: StoneSet) -> str:
    """A move in its short text form."""
    return PASS if move == PASS else move.text(stones)  # type: ignore[union-attr]


# --------------------------------------------------------------------------- JSON

POSITION_KEYS = ("board", "stones", "first", "moves")
BOARD_KEYS = ("length", "width", "zones")
MOVE_KEYS = ("player", "stone", "face", "dir", "at", "height", "pass")
MAX_MOVES = 10_000


def _parse_player(value: Any, where: str) -> str:
    return expect_str(value, where, PLAYERS)


def board_from_json(raw: Any, where: str = "board") -> Board:
    """A board from JSON ``{"length", "width", "zones"}`` (each defaults to the standard board)."""
    expect_object(raw, where, BOARD_KEYS)
    length = expect_int(raw.get("length", DEFAULT_LENGTH), json_path(where, "length"))
    width = expect_int(raw.get("width", DEFAULT_WIDTH), json_path(where, "width"))
    zones = expect_str(raw.get("zones", OUTSIDE), json_path(where, "zones"), ZONE_READINGS)
    try:
        return check_board(length, width, zones)
    except InputError as error:
        raise InputError(f"{where}.{error.message}") from None


def move_from_json(raw: Any, where: str, board: Board, stones: StoneSet) -> Played:
    """One move of a record: ``{"player", "stone", "face", "dir", "at", "height"}`` or
    ``{"player", "pass": true}``. ``face`` defaults to the stone's first, ``dir`` to east;
    ``height``, when given, is checked against the replay."""
    expect_object(raw, where, MOVE_KEYS)
    if "player" not in raw:
        raise InputError(f"{json_path(where, 'player')}: missing")
    player = _parse_player(raw["player"], json_path(where, "player"))
    if "pass" in raw:
        if not expect_bool(raw["pass"], json_path(where, "pass")):
            raise InputError(f"{json_path(where, 'pass')}: write true for a pass, or leave it out")
        extra = [key for key in raw if key not in ("player", "pass")]
        if extra:
            raise InputError(f"{json_path(where, extra[0])}: a pass has no {extra[0]}")
        return Played(player, PASS)
    for key in ("stone", "at"):
        if key not in raw:
            raise InputError(f"{json_path(where, key)}: missing")
    name = expect_str(raw["stone"], json_path(where, "stone"))
    if name not in stones:
        raise InputError(f"{json_path(where, 'stone')}: unknown stone {name!r} (stones: {', '.join(stones.names)})")
    kind = stones[name]
    face = expect_str(raw.get("face", kind.faces[0].name), json_path(where, "face"), tuple(f.name for f in kind.faces))
    direction = expect_str(raw.get("dir", DIRECTIONS[0]), json_path(where, "dir"), DIRECTIONS)
    at = parse_cell(expect_str(raw["at"], json_path(where, "at")), board, json_path(where, "at"))
    height = None if raw.get("height") is None else expect_int(raw["height"], json_path(where, "height"), 0, 99)
    return Played(player, Placement(name, face, direction, at), height)


def position_from_json(raw: Any) -> Position:
    """A position from decoded JSON, every field checked (errors name the JSON path)."""
    expect_object(raw, "", POSITION_KEYS, what="a Quarry position: an object with board, stones, first, moves")
    board = board_from_json(raw.get("board", {}))
    stones_raw = raw.get("stones", "default")
    stones = default_stones() if stones_raw == "default" else stones_from_json(stones_raw, "stones")
    first = _parse_player(raw.get("first", BLACK), "first")
    listed = expect_list(raw.get("moves", []), "moves", "a list of moves")
    if len(listed) > MAX_MOVES:
        raise InputError(f"moves: at most {MAX_MOVES} moves")
    moves = tuple(move_from_json(item, json_path("moves", i), board, stones) for i, item in enumerate(listed))
    return Position(board, stones, first, moves)


def parse_position(text: str, path: str | None = None) -> Position:
    """A position from JSON text; errors name the file and the line/column or JSON path."""
    return parse_json_as(text, path, position_from_json)


def load_position(path: str) -> Position:
    """Read a position file (``-``: standard input)."""
    return parse_position(read_text(path), path)


def played_to_json(played: Played) -> dict[str, Any]:
    """One move as JSON."""
    if played.move == PASS:
        return {"player": played.player, "pass": True}
    move: Placement = played.move  # type: ignore[assignment]
    out: dict[str, Any] = {"player": played.player, "stone": move.stone, "face": move.face, "dir": move.direction, "at": cell_name(move.at)}
    if played.height is not None:
        out["height"] = played.height
    return out


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON object of a position (the inverse of :func:`position_from_json`)."""
    return {
        "board": position.board.to_json(),
        "stones": "default" if position.stones.default else stones_to_json(position.stones),
        "first": position.first,
        "moves": [played_to_json(p) for p in position.moves],
    }


def dumps(position: Position) -> str:
    """A position as JSON text: one move per line, so a game reads like a score sheet."""
    obj = position_to_json(position)
    head = {key: value for key, value in obj.items() if key != "moves"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    if obj["moves"]:
        lines.append('  "moves": [')
        lines.append(",\n".join("    " + json.dumps(m) for m in obj["moves"]))
        lines.append("  ]")
    else:
        lines.append('  "moves": []')
    lines.append("}")
    return "\n".join(lines) + "\n"
