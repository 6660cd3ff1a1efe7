"""Laido positions and game records: the JSON formats, parsed and formatted.

A *position* is a board with its stones and the state of the turn::

    {"size": 9, "black": [[q, r], ...], "white": [[q, r], ...],
     "to_move": "black", "passes": 0, "first_pass": null, "swapped": false}

``passes`` is the number of consecutive passes that ended the history so far (2: the game is
over); ``first_pass`` is the colour that made the first pass of the game, if any; ``swapped``
says whether White already used the pie rule. Only ``size`` is required.

A *game record* lists the moves from the empty board::

    {"size": 9, "moves": [[0, 0], "swap", [1, -2], "pass", [2, 0], "pass", "pass"]}

A move is a point ``[q, r]`` (a stone of the colour to move), ``"pass"``, or ``"swap"`` (the
pie rule: White takes over Black's side right after Black's first stone).

Every point is in axial coordinates on :class:`placesat.core.lattice.HexLattice`. This module
checks the format only (points on the board, one stone per point); whether the moves of a
record are legal is for :mod:`placesat.laido.rules`.
"""

from __future__ import annotations

import re

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Union

from placesat.core.errors import InputError
from placesat.core.inputs import parse_integer, parse_json_as, read_text
from placesat.core.lattice import HexLattice, Point

BLACK = "black"
WHITE = "white"
COLOURS = (BLACK, WHITE)
MIN_SIZE, MAX_SIZE = 2, 15
PASS = "pass"
SWAP = "swap"

Move = Union[Point, str]  # a point, PASS or SWAP


def opponent(colour: str) -> str:
    """The other colour."""
    return WHITE if colour == BLACK else BLACK


@lru_cache(maxsize=None)
def board(size: int) -> HexLattice:
    """The one lattice of each size: every position on it shares it, and with it the points
    and neighbours worked out once (a search makes a new position at every move)."""
    return HexLattice(size)


@dataclass(frozen=True)
class Position:
    """A Laido board with its stones, whose turn it is, and the passes made so far."""

    size: int
    black: frozenset[Point] = frozenset()
    white: frozenset[Point] = frozenset()
    to_move: str = BLACK
    passes: int = 0
    first_pass: str | None = None
    swapped: bool = False

    @cached_property
    def lattice(self) -> HexLattice:
        """The board: a hexagon of triangles with ``size`` points on each side."""
        return board(self.size)

    def stones(self, colour: str) -> frozenset[Point]:
        """The points holding a stone of ``colour``."""
        return self.black if colour == BLACK else self.white

    def colour_at(self, point: Point) -> str | None:
        """The colour of the stone on ``point``, or None when it is empty."""
        if point in self.black:
            return BLACK
        if point in self.white:
            return WHITE
        return None

    @property
    def empty_points(self) -> list[Point]:
        """The points without a stone, in board order."""
        return [p for p in self.lattice.points if p not in self.black and p not in self.white]

    @property
    def is_over(self) -> bool:
        """Two consecutive passes end the game."""
        return self.passes >= 2


@dataclass(frozen=True)
class Record:
    """A game from the empty board: its size and its moves in order."""

    size: int
    moves: tuple[Move, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------- parsing


def _parse_size(raw: dict[str, Any]) -> int:
    if "size" not in raw:
        raise InputError("size: missing (the number of points on each side of the board)")
    size = raw["size"]
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise InputError(f"size: must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {json.dumps(size)}")
    return size


def _parse_point(value: Any, where: str, lattice: HexLattice) -> Point:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(c, bool) or not isinstance(c, int) for c in value)
    ):
        raise InputError(f"{where}: a point is a list of two integers [q, r], not {json.dumps(value)}")
    point = (value[0], value[1])
    if point not in lattice:
        raise InputError(
            f"{where}: point [{point[0]}, {point[1]}] is off the board "
            f"(size {lattice.side}: max(|q|, |r|, |q+r|) must be at most {lattice.radius})"
        )
    return point


def _parse_colour(value: Any, where: str, allow_null: bool = False) -> str | None:
    if value is None and allow_null:
        return None
    if value not in COLOURS:
        choices = '"black", "white"' + (" or null" if allow_null else "")
        raise InputError(f"{where}: must be {choices}, not {json.dumps(value)}")
    return value


POSITION_KEYS = ("size", "black", "white", "to_move", "passes", "first_pass", "swapped")
RECORD_KEYS = ("size", "moves")


def position_from_json(raw: Any) -> Position:
    """A position from decoded JSON, checking every field (errors name the JSON path)."""
    if not isinstance(raw, dict):
        raise InputError("a Laido position is a JSON object with at least \"size\"")
    for key in raw:
        if key not in POSITION_KEYS:
            raise InputError(f"{key}: unknown key (a position has {', '.join(POSITION_KEYS)})")
    size = _parse_size(raw)
    lattice = HexLattice(size)
    owner: dict[Point, str] = {}
    stones: dict[str, frozenset[Point]] = {}
    for colour in COLOURS:
        listed = raw.get(colour, [])
        if not isinstance(listed, list):
            raise InputError(f"{colour}: must be a list of points [q, r]")
        points = []
        for i, value in enumerate(listed):
            where = f"{colour}[{i}]"
            point = _parse_point(value, where, lattice)
            if point in owner:
                raise InputError(
                    f"{where}: point [{point[0]}, {point[1]}] already holds a stone ({owner[point]})"
                )
            owner[point] = where
            points.append(point)
        stones[colour] = frozenset(points)
    to_move = _parse_colour(raw.get("to_move", BLACK), "to_move")
    passes = raw.get("passes", 0)
    if isinstance(passes, bool) or not isinstance(passes, int) or passes not in (0, 1, 2):
        raise InputError(f"passes: must be 0, 1 or 2 (consecutive passes so far), not {json.dumps(passes)}")
    first_pass = _parse_colour(raw.get("first_pass"), "first_pass", allow_null=True)
    if passes > 0 and first_pass is None:
        raise InputError(f"first_pass: is null, but passes is {passes}: someone has passed")
    swapped = raw.get("swapped", False)
    if not isinstance(swapped, bool):
        raise InputError(f"swapped: must be true or false, not {json.dumps(swapped)}")
    if swapped and not owner:
        raise InputError("swapped: is true, but the board is empty (a swap answers Black's first stone)")
    return Position(size, stones[BLACK], stones[WHITE], to_move, passes, first_pass, swapped)  # type: ignore[arg-type]


def record_from_json(raw: Any) -> Record:
    """A game record from decoded JSON; checks the format of each move, not its legality."""
    if not isinstance(raw, dict):
        raise InputError("a Laido game record is a JSON object with \"size\" and \"moves\"")
    for key in raw:
        if key not in RECORD_KEYS:
            raise InputError(f"{key}: unknown key (a game record has {', '.join(RECORD_KEYS)})")
    size = _parse_size(raw)
    lattice = HexLattice(size)
    listed = raw.get("moves")
    if not isinstance(listed, list):
        raise InputError("moves: must be a list of moves ([q, r], \"pass\" or \"swap\")")
    moves: list[Move] = []
    for i, value in enumerate(listed):
        if value in (PASS, SWAP):
            moves.append(value)
        elif isinstance(value, str):
            raise InputError(f"moves[{i}]: unknown move {json.dumps(value)} (a point [q, r], \"pass\" or \"swap\")")
        else:
            moves.append(_parse_point(value, f"moves[{i}]", lattice))
    return Record(size, tuple(moves))


def parse_move(text: str, lattice: HexLattice) -> Move:
    """A move typed on the command line: ``pass``, ``swap``, or a point as ``q,r``, ``q r`` or
    ``[q, r]`` (an :class:`InputError` naming the problem otherwise)."""
    word = text.strip().lower()
    if word in (PASS, SWAP):
        return word
    match = re.fullmatch(r"\[\s*(.*?)\s*\]|\(\s*(.*?)\s*\)|(.*)", word)
    inner = next(group for group in match.groups() if group is not None)  # brackets in pairs, or none
    parts = inner.replace(",", " ").split()
    if len(parts) != 2 or not all(re.fullmatch(r"[+-]?[0-9]+", part) for part in parts):
        raise InputError(f"MOVE: {text!r} is not a move (a point q,r such as 2,-1; pass; or swap)")
    q, r = (parse_integer(part, "MOVE") for part in parts)
    return _parse_point([q, r], "MOVE", lattice)


def parse_game(text: str, path: str | None = None) -> Position | Record:
    """A position or a game record (it has ``"moves"``) from JSON text.

    Errors are :class:`InputError` naming the file, and the line and column of a JSON syntax
    error or the JSON path of a bad field (``black[3]``).
    """
    return parse_json_as(text, path, lambda raw: record_from_json(raw) if isinstance(raw, dict) and "moves" in raw else position_from_json(raw))


def load_game(path: str) -> Position | Record:
    """Read a position or game record file (see :func:`parse_game`)."""
    return parse_game(read_text(path), path)


# --------------------------------------------------------------------------- formatting


def point_json(point: Point) -> list[int]:
    """A point as JSON: ``[q, r]``."""
    return [point[0], point[1]]


def _board_order(points: frozenset[Point]) -> list[Point]:
    return sorted(points, key=lambda p: (p[1], p[0]))


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON object of a position (the inverse of :func:`position_from_json`)."""
    return {
        "size": position.size,
        "black": [point_json(p) for p in _board_order(position.black)],
        "white": [point_json(p) for p in _board_order(position.white)],
        "to_move": position.to_move,
        "passes": position.passes,
        "first_pass": position.first_pass,
        "swapped": position.swapped,
    }


def move_json(move: Move) -> Any:
    """A move as JSON: ``[q, r]``, ``"pass"`` or ``"swap"``."""
    return move if isinstance(move, str) else point_json(move)


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON object of a game record."""
    return {"size": record.size, "moves": [move_json(m) for m in record.moves]}


def dumps(obj: dict[str, Any]) -> str:
    """Position or record JSON as text, one point per list item on one line."""
    return json.dumps(obj, separators=(", ", ": ")) + "\n"
