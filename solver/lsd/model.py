"""LSD positions, game records and tile sets: the geometry of tiles, and the JSON and move formats.

A *cell* is ``(x, y)`` on the unbounded square grid, ``x`` growing to the east and ``y`` to
the north. A tile's *dots* are the sides that carry a half dot after its rotation, as a 4-bit
mask (N 1, E 2, S 4, W 8) and in text as letters in the order ``NESW`` (``"NES"``; ``"-"``
for none). A tile's *kind* is its dot pattern up to rotation and its icon: ``"NE+"`` and
``"ESx"`` name kinds (``"ES+"`` is the same kind as ``"NE+"``). Players are numbered from 1.

A *position* (JSON; only ``players`` is required)::

    {"players": 2,
     "icon_colours": ["black", "white"],
     "tileset": {"N+": 2, "Nx": 2, "NE+": 2, ...},
     "field": [{"at": [0, 0], "player": 1, "dots": "NES", "icon": "+"}, ...],
     "captured": [{"NE+": 1}, {}],
     "supplies": [{"N+": 2, ...}, {...}],
     "to_move": 1}

``tileset`` is every player's set of tiles (default :data:`DEFAULT_TILESET`); ``captured``
counts each player's captured tiles by kind; ``supplies`` defaults to the tile set minus the
player's tiles on the field and captured. A *game record* is ``{"start": POSITION, "moves":
["0,0 NES+", "0,1 S x", "skip", ...]}``. A move is a placement ``x,y DOTS ICON`` (the cell,
the dots after rotation, ``+`` or ``x``) or ``skip``.

This module checks the format (and what needs no rule: counts, icon colours, one tile per
cell); whether a field could arise under the rules (dots obstructed, dots completed) is for
:func:`placesat.lsd.rules.check_position`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Iterable, Mapping, Union

from placesat.core.errors import InputError
from placesat.core.inputs import expect_int, expect_list, expect_object, expect_str, json_path, load_json_as, parse_integer, parse_json_as, read_text, shown

Cell = tuple[int, int]

# --------------------------------------------------------------------------- sides and dots

N, E, S, W = 1, 2, 4, 8
SIDES = (N, E, S, W)
SIDE_LETTERS = {N: "N", E: "E", S: "S", W: "W"}
STEP: dict[int, Cell] = {N: (0, 1), E: (1, 0), S: (0, -1), W: (-1, 0)}
OPPOSITE = {N: S, E: W, S: N, W: E}
ALL_MASKS = tuple(range(16))
NO_DOTS = "-"


def neighbour(cell: Cell, side: int) -> Cell:
    """The cell across ``side`` of ``cell``."""
    dx, dy = STEP[side]
    return (cell[0] + dx, cell[1] + dy)


# The rules' field has no edge; ours stops here, far beyond any game (every tile of a set laid
# in one row from the centre reaches a few dozen cells): a cell beyond is off the table, so no
# tile is read, typed or placed there (seeds/lsd.md, "Tiles and the field")
MAX_COORDINATE = 1000


def on_table(cell: Cell) -> bool:
    """Whether ``cell`` lies within :data:`MAX_COORDINATE` of the centre on both axes."""
    return abs(cell[0]) <= MAX_COORDINATE and abs(cell[1]) <= MAX_COORDINATE


def rotate(mask: int, quarter_turns: int = 1) -> int:
    """The dots after turning a tile clockwise by ``quarter_turns`` (N goes to E, E to S, ...)."""
    k = quarter_turns % 4
    return ((mask << k) | (mask >> (4 - k))) & 15


_ROTATIONS = tuple(tuple(sorted({rotate(m, k) for k in range(4)})) for m in range(16))


def rotations(mask: int) -> tuple[int, ...]:
    """The distinct masks a tile shows in its four rotations, in increasing order."""
    return _ROTATIONS[mask]


def pattern(mask: int) -> int:
    """A dot pattern up to rotation, named by its smallest rotation: N, NE, NS, NES, NESW (or none)."""
    return _ROTATIONS[mask][0]


def dots_text(mask: int) -> str:
    """Dots as letters in the order NESW (``-`` for none)."""
    return "".join(SIDE_LETTERS[s] for s in SIDES if mask & s) or NO_DOTS


_DOTS = re.compile(r"^(?:[NESW]{1,4}|-)$")


def parse_dots(text: str, where: str) -> int:
    """A dots string (``"NES"``, any order, any case; ``"-"`` for none) as a mask."""
    if not isinstance(text, str) or not _DOTS.match(text.upper()):
        raise InputError(f"{where}: dots are letters among N E S W (or - for none), not {shown(text)}")
    upper = text.upper()
    if len(set(upper)) != len(upper):
        raise InputError(f"{where}: a side is named twice in {shown(text)}")
    if upper == NO_DOTS:
        return 0
    return sum(bit for bit, letter in SIDE_LETTERS.items() if letter in upper)


# --------------------------------------------------------------------------- icons, kinds, tile sets

PLUS, CROSS = "+", "x"
ICONS = (PLUS, CROSS)
BLACK, WHITE = "black", "white"
ICON_COLOURS = (BLACK, WHITE)

Kind = tuple[int, str]
"""A tile kind: its dot pattern (see :func:`pattern`) and its icon."""

KIND_PATTERNS = tuple(sorted({pattern(m) for m in ALL_MASKS}))


def kind_text(kind: Kind) -> str:
    """A kind as text: the pattern's letters and the icon, ``"NE+"``."""
    return dots_text(kind[0]) + kind[1]


_KIND = re.compile(r"^\s*([NESWnesw]{1,4}|-)\s*([+xX])\s*$")


def parse_kind(text: str, where: str) -> Kind:
    """A kind from text such as ``"NE+"`` or ``"ES x"`` (any rotation of the pattern)."""
    match = _KIND.match(text) if isinstance(text, str) else None
    if not match:
        raise InputError(f"{where}: a tile kind is dots and an icon, like \"NE+\" or \"NESx\", not {shown(text)}")
    return pattern(parse_dots(match.group(1), where)), match.group(2).lower()


DEFAULT_TILESET: tuple[tuple[Kind, int], ...] = tuple(
    ((p, icon), 2) for p in (0b0001, 0b0011, 0b0101, 0b0111, 0b1111) for icon in ICONS
)
"""Our assumption (the rule text does not list the tiles): each of the five dot patterns with at
least one dot (one; two adjacent; two opposite; three; four), twice with ``+`` and twice with
``x``: 20 tiles per player."""

MAX_KIND_COUNT = 99
Supply = tuple[tuple[Kind, int], ...]
"""Counts per kind, sorted by kind, kinds with count 0 left out."""


def supply_of(counts: Mapping[Kind, int]) -> Supply:
    """A supply (or tile set) in its one canonical form: sorted, without empty kinds."""
    return tuple(sorted((k, n) for k, n in counts.items() if n > 0))


def supply_json(supply: Iterable[tuple[Kind, int]]) -> dict[str, int]:
    """A supply as JSON: ``{"NE+": 2, ...}``."""
    return {kind_text(k): n for k, n in supply}


def supply_from_json(raw: Any, where: str) -> Supply:
    """Counts per kind from JSON ``{"NE+": 2, ...}``; the same kind named twice is refused."""
    expect_object(raw, where, what='an object of counts per tile kind, like {"NE+": 2}')
    counts: dict[Kind, int] = {}
    for text, value in raw.items():
        place = json_path(where, text)
        kind = parse_kind(text, place)
        if kind in counts:
            raise InputError(f"{place}: the kind {kind_text(kind)} is already listed (a tile may be turned, so its dots count up to rotation)")
        counts[kind] = expect_int(value, place, 0, MAX_KIND_COUNT)
    return supply_of(counts)


def tileset_from_json(raw: Any, where: str = "") -> Supply:
    """A tile set: ``{"N+": 2, "NE x": 1, ...}``, every player's tiles (at least one tile)."""
    tileset = supply_from_json(raw, where)
    if not tileset:
        raise InputError(f"{where or 'the tile set'}: has no tile")
    return tileset


def load_tileset(path: str) -> Supply:
    """Read a tile set file (JSON, see :func:`tileset_from_json`); errors name the file and JSON path."""
    return load_json_as(path, tileset_from_json)


# --------------------------------------------------------------------------- players

SUPPORTED_PLAYERS = (2, 4)
LINE_LENGTH = {2: 4, 4: 3}
"""Tiles of one's own colour in a straight line that win: 4 with 2 players, 3 with 4."""

THREE_PLAYERS = (
    "3 players are not supported: players who move one after the other must have different "
    "icon colours, which three players around a table cannot have, and the rule text gives no "
    "line length for 3"
)


def default_icon_colours(players: int) -> tuple[str, ...]:
    """Icon colours alternating around the table, player 1 black."""
    return tuple(ICON_COLOURS[i % 2] for i in range(players))


# --------------------------------------------------------------------------- tiles, moves, positions


@dataclass(frozen=True)
class Tile:
    """A tile on the field: its owner (the tile's colour), its dots after rotation, its icon."""

    player: int
    dots: int
    icon: str

    @property
    def kind(self) -> Kind:
        """The tile's kind (pattern up to rotation, icon)."""
        return (pattern(self.dots), self.icon)


@dataclass(frozen=True)
class Placement:
    """A move that places a tile of ``kind`` on ``cell``, turned so that ``dots`` carry half dots."""

    cell: Cell
    dots: int
    icon: str

    @property
    def kind(self) -> Kind:
        """The kind of the tile placed."""
        return (pattern(self.dots), self.icon)

    def __str__(self) -> str:
        return move_text(self)


SKIP = "skip"
Move = Union[Placement, str]  # a Placement or SKIP


# --------------------------------------------------------------------------- symmetries of the field

SYMMETRIES = tuple((turns, mirrored) for mirrored in (False, True) for turns in range(4))
"""The eight symmetries of the square grid about the centre 0,0: ``turns`` quarter turns
clockwise after a mirror in the north-south axis (``mirrored``). The rules know no direction
(lines run along rows and columns, captures along rows, columns and diagonals) and the table
(:data:`MAX_COORDINATE` each way) is a square about 0,0: each maps a game to an equal one."""


def _mirror_dots(mask: int) -> int:
    """Dots seen in a mirror held north-south: east and west trade places."""
    return (mask & (N | S)) | (E if mask & W else 0) | (W if mask & E else 0)


def transform_cell(cell: Cell, symmetry: tuple[int, bool]) -> Cell:
    """``cell`` under ``symmetry`` (a mirror x -> -x, then quarter turns clockwise: (x, y) -> (y, -x))."""
    turns, mirrored = symmetry
    x, y = cell
    if mirrored:
        x = -x
    for _ in range(turns % 4):
        x, y = y, -x
    return (x, y)


def transform_dots(mask: int, symmetry: tuple[int, bool]) -> int:
    """A tile's dots under ``symmetry`` (as :func:`transform_cell` moves its cell)."""
    turns, mirrored = symmetry
    return rotate(_mirror_dots(mask) if mirrored else mask, turns)


def transform_move(move: Move, symmetry: tuple[int, bool]) -> Move:
    """A move under ``symmetry`` (a skip stays a skip)."""
    if move == SKIP:
        return move
    assert isinstance(move, Placement)
    return Placement(transform_cell(move.cell, symmetry), transform_dots(move.dots, symmetry), move.icon)


def field_symmetries(position: "Position") -> list[tuple[int, bool]]:
    """The symmetries (:data:`SYMMETRIES`) that map the field of ``position`` onto itself, tile
    for tile (all eight on an empty field). Supplies and captures have no place, so they stay."""
    found = []
    for symmetry in SYMMETRIES:
        if all(position.field.get(transform_cell(cell, symmetry)) == Tile(tile.player, transform_dots(tile.dots, symmetry), tile.icon)
               for cell, tile in position.field.items()):
            found.append(symmetry)
    return found


@dataclass(frozen=True)
class Position:
    """The field, the supplies and whose turn it is.

    ``field`` maps cells to tiles (in the order read, for messages); treat it as read-only.
    ``supplies[p - 1]`` and ``captured[p - 1]`` are player ``p``'s counts per kind.
    """

    players: int
    icon_colours: tuple[str, ...]
    tileset: Supply
    field: Mapping[Cell, Tile]
    captured: tuple[Supply, ...]
    supplies: tuple[Supply, ...]
    to_move: int = 1

    @property
    def line_length(self) -> int:
        """How many tiles in a row win."""
        return LINE_LENGTH[self.players]

    def icon_colour(self, player: int) -> str:
        """The colour of ``player``'s icons."""
        return self.icon_colours[player - 1]

    def supply(self, player: int) -> dict[Kind, int]:
        """``player``'s tiles left to place, per kind."""
        return dict(self.supplies[player - 1])

    def next_player(self, player: int | None = None) -> int:
        """Who moves after ``player`` (default: after the player to move): the one on the left."""
        current = self.to_move if player is None else player
        return current % self.players + 1

    def derived_supply(self, player: int) -> dict[Kind, int]:
        """The tile set minus ``player``'s tiles on the field and captured (may go negative)."""
        counts = dict(self.tileset)
        for tile in self.field.values():
            if tile.player == player:
                counts[tile.kind] = counts.get(tile.kind, 0) - 1
        for kind, n in self.captured[player - 1]:
            counts[kind] = counts.get(kind, 0) - n
        return counts


def position_key(position: Position) -> tuple:
    """A hashable key, equal exactly for equal positions: a :class:`Position` holds its field in a
    dict (unhashable, and in the order read), so the key holds the field as a set of (cell, tile)
    pairs, with everything else a position holds: the players, their icon colours, the tile set,
    each player's captured tiles and supply per kind, and whose turn it is. Two move orders that
    lead to the same field, captures, supplies and mover give the same key."""
    return (position.players, position.icon_colours, position.tileset, frozenset(position.field.items()),
            position.captured, position.supplies, position.to_move)


def new_position(players: int = 2, tileset: Supply = DEFAULT_TILESET, icon_colours: tuple[str, ...] | None = None) -> Position:
    """The start of a game: an empty field, every tile in its owner's supply, player 1 to move."""
    if players == 3:
        raise InputError(THREE_PLAYERS)
    if players not in SUPPORTED_PLAYERS:
        raise InputError(f"players: must be 2 or 4, not {players}")
    colours = icon_colours or default_icon_colours(players)
    empty: Supply = ()
    return Position(players, colours, tileset, {}, (empty,) * players, (tileset,) * players, 1)


@dataclass(frozen=True)
class Record:
    """A game: its start and its moves in order."""

    start: Position
    moves: tuple[Move, ...] = dataclass_field(default_factory=tuple)


# --------------------------------------------------------------------------- moves as text

_PLACEMENT = re.compile(r"^\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*([NESWnesw]{1,4}|-)\s*([+xX])\s*$")


def parse_move(text: str, where: str = "move") -> Move:
    """A move typed by a person: ``"3,-1 NES+"`` (cell, dots after rotation, icon), ``"0,0 - x"``
    for a tile without dots, or ``"skip"``."""
    if not isinstance(text, str):
        raise InputError(f"{where}: a move is a string like \"3,-1 NES+\" or \"skip\", not {shown(text)}")
    if text.strip().lower() == SKIP:
        return SKIP
    match = _PLACEMENT.match(text)
    if not match:
        raise InputError(f"{where}: cannot read the move {shown(text)}: write the cell, the dots after turning and the icon, like \"3,-1 NES+\", or \"skip\"")
    x, y = parse_integer(match.group(1), where), parse_integer(match.group(2), where)
    for value in (x, y):
        if abs(value) > MAX_COORDINATE:
            raise InputError(f"{where}: coordinate {value} is beyond +-{MAX_COORDINATE}")
    return Placement((x, y), parse_dots(match.group(3), where), match.group(4).lower())


def move_text(move: Move) -> str:
    """A move as text (the inverse of :func:`parse_move`): ``"3,-1 NES+"`` or ``"skip"``."""
    if move == SKIP:
        return SKIP
    assert isinstance(move, Placement)
    x, y = move.cell
    return f"{x},{y} {dots_text(move.dots)}{move.icon}"


def cell_text(cell: Cell) -> str:
    """A cell as text: ``"3,-1"``."""
    return f"{cell[0]},{cell[1]}"


# --------------------------------------------------------------------------- JSON


POSITION_KEYS = ("players", "icon_colours", "tileset", "field", "captured", "supplies", "to_move")
TILE_KEYS = ("at", "player", "dots", "icon")
RECORD_KEYS = ("start", "moves")


def _players(raw: dict) -> int:
    if "players" not in raw:
        raise InputError("players: missing (2 or 4)")
    players = raw["players"]
    if players == 3 and type(players) is int:
        raise InputError(f"players: {THREE_PLAYERS}")
    if type(players) is not int or players not in SUPPORTED_PLAYERS:
        raise InputError(f"players: must be 2 or 4, not {shown(players)}")
    return players


def _icon_colours(raw: dict, players: int) -> tuple[str, ...]:
    if "icon_colours" not in raw:
        return default_icon_colours(players)
    listed = expect_list(raw["icon_colours"], "icon_colours", f"a list of {players} icon colours")
    if len(listed) != players:
        raise InputError(f"icon_colours: must list {players} colours (one per player), not {len(listed)}")
    colours = tuple(expect_str(c, json_path("icon_colours", i), ICON_COLOURS) for i, c in enumerate(listed))
    for i in range(players):
        if colours[i] == colours[(i + 1) % players]:
            a, b = i + 1, (i + 1) % players + 1
            raise InputError(
                f"icon_colours: players {a} and {b} move one after the other but both have {colours[i]} icons "
                "(consecutive players must have different icon colours)"
            )
    return colours


def _cell(value: Any, where: str) -> Cell:
    listed = expect_list(value, where, "a cell [x, y]")
    if len(listed) != 2:
        raise InputError(f"{where}: a cell is [x, y], not {shown(value)}")
    return (
        expect_int(listed[0], json_path(where, 0), -MAX_COORDINATE, MAX_COORDINATE),
        expect_int(listed[1], json_path(where, 1), -MAX_COORDINATE, MAX_COORDINATE),
    )


def _field(raw: dict, players: int) -> dict[Cell, Tile]:
    listed = expect_list(raw.get("field", []), "field", "a list of tiles")
    tiles: dict[Cell, Tile] = {}
    first_at: dict[Cell, int] = {}
    for i, entry in enumerate(listed):
        where = json_path("field", i)
        expect_object(entry, where, TILE_KEYS, "a tile {\"at\", \"player\", \"dots\", \"icon\"}")
        for key in TILE_KEYS:
            if key not in entry:
                raise InputError(f"{json_path(where, key)}: missing")
        cell = _cell(entry["at"], json_path(where, "at"))
        if cell in tiles:
            raise InputError(f"{json_path(where, 'at')}: cell {cell_text(cell)} already holds a tile (field[{first_at[cell]}])")
        player = expect_int(entry["player"], json_path(where, "player"), 1, players)
        dots = parse_dots(entry["dots"], json_path(where, "dots"))
        icon = expect_str(entry["icon"], json_path(where, "icon"), ICONS)
        tiles[cell] = Tile(player, dots, icon)
        first_at[cell] = i
    return tiles


def _per_player(raw: dict, key: str, players: int) -> tuple[Supply, ...] | None:
    if key not in raw:
        return None
    listed = expect_list(raw[key], key, f"a list of {players} objects (one per player)")
    if len(listed) != players:
        raise InputError(f"{key}: must have one entry per player ({players}), not {len(listed)}")
    return tuple(supply_from_json(v, json_path(key, i)) for i, v in enumerate(listed))


def position_from_json(raw: Any) -> Position:
    """A position from decoded JSON, every field checked (errors name the JSON path).

    Counts are checked against the tile set: a player never has more tiles of a kind on the
    field, captured and in supply together than the tile set holds.
    """
    expect_object(raw, "", POSITION_KEYS, "an LSD position (a JSON object with at least \"players\")")
    players = _players(raw)
    colours = _icon_colours(raw, players)
    tileset = tileset_from_json(raw["tileset"], "tileset") if "tileset" in raw else DEFAULT_TILESET
    tiles = _field(raw, players)
    empty: Supply = ()
    captured = _per_player(raw, "captured", players) or (empty,) * players
    given = _per_player(raw, "supplies", players)
    to_move = expect_int(raw.get("to_move", 1), "to_move", 1, players)
    position = Position(players, colours, tileset, tiles, captured, (empty,) * players, to_move)
    supplies = []
    allowed = dict(tileset)
    for player in range(1, players + 1):
        left = position.derived_supply(player)
        for kind, n in sorted(left.items()):
            if n < 0:
                placed = sum(1 for t in tiles.values() if t.player == player and t.kind == kind)
                taken = dict(captured[player - 1]).get(kind, 0)
                # named where the count that goes over stands: the captured tiles, when any
                where = f"captured[{player - 1}].{kind_text(kind)}" if taken else "field"
                raise InputError(
                    f"{where}: player {player} has {placed} {kind_text(kind)} tile(s) on the field and {taken} captured, "
                    f"but the tile set holds {allowed.get(kind, 0)}"
                )
        if given is None:
            supplies.append(supply_of(left))
            continue
        for kind, n in given[player - 1]:
            if n > left.get(kind, 0):
                raise InputError(
                    f"supplies[{player - 1}].{kind_text(kind)}: {n} tile(s), but only {left.get(kind, 0)} of the tile set's "
                    f"{allowed.get(kind, 0)} are neither on the field nor captured"
                )
        supplies.append(given[player - 1])
    return Position(players, colours, tileset, tiles, captured, tuple(supplies), to_move)


def record_from_json(raw: Any) -> Record:
    """A game record from decoded JSON; checks the format of each move, not its legality."""
    expect_object(raw, "", RECORD_KEYS, "an LSD game record {\"start\", \"moves\"}")
    if "start" not in raw:
        raise InputError("start: missing (the position the game starts from, e.g. {\"players\": 2})")
    expect_object(raw["start"], "start", POSITION_KEYS, "an LSD position (a JSON object with at least \"players\")")
    try:
        start = position_from_json(raw["start"])
    except InputError as error:
        error.message = json_path("start", error.message)  # the message begins with the path inside the start
        raise
    listed = expect_list(raw.get("moves", []), "moves", "a list of moves like \"3,-1 NES+\" or \"skip\"")
    return Record(start, tuple(parse_move(m, json_path("moves", i)) for i, m in enumerate(listed)))


def parse_game(text: str, path: str | None = None) -> Position | Record:
    """A position or a game record (it has ``"start"`` or ``"moves"``) from JSON text; errors
    name the file and the line and column of a syntax error, or the JSON path of a bad field."""
    return parse_json_as(text, path, lambda raw: record_from_json(raw) if _is_record(raw) else position_from_json(raw))


def _is_record(raw: Any) -> bool:
    return isinstance(raw, dict) and ("moves" in raw or "start" in raw)


def load_game(path: str) -> Position | Record:
    """Read a position or game record file (``-``: standard input); see :func:`parse_game`."""
    return parse_game(read_text(path), path)


def tile_json(cell: Cell, tile: Tile) -> dict[str, Any]:
    """A tile on the field as JSON."""
    return {"at": [cell[0], cell[1]], "player": tile.player, "dots": dots_text(tile.dots), "icon": tile.icon}


def field_order(cell: Cell) -> tuple[int, int]:
    """Cells listed as the field is printed: from the top row down, west to east."""
    return (-cell[1], cell[0])


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON object of a position (the inverse of :func:`position_from_json`).

    ``tileset`` is written only when it is not the default one, ``supplies`` only when they
    differ from the tile set minus the field and the captured tiles.
    """
    out: dict[str, Any] = {"players": position.players, "icon_colours": list(position.icon_colours)}
    if position.tileset != DEFAULT_TILESET:
        out["tileset"] = supply_json(position.tileset)
    out["field"] = [tile_json(c, position.field[c]) for c in sorted(position.field, key=field_order)]
    out["captured"] = [supply_json(s) for s in position.captured]
    derived = tuple(supply_of(position.derived_supply(p)) for p in range(1, position.players + 1))
    if position.supplies != derived:
        out["supplies"] = [supply_json(s) for s in position.supplies]
    out["to_move"] = position.to_move
    return out


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON object of a game record."""
    return {"start": position_to_json(record.start), "moves": [move_text(m) for m in record.moves]}


def dumps(obj: dict[str, Any]) -> str:
    """Position or record JSON as text: one tile per line, readable and diffable."""
    lines = ["{"]
    items = list(obj.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key == "field" and value:
            lines.append('  "field": [')
            for j, tile in enumerate(value):
                lines.append("    " + json.dumps(tile) + ("," if j + 1 < len(value) else ""))
            lines.append("  ]" + comma)
        elif key == "start":
            inner = dumps(value).rstrip("\n").replace("\n", "\n  ")
            lines.append(f'  "start": {inner}{comma}')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
