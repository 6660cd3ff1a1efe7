"""The Logi-Sticks position: board geometry, pieces, targets, supplies, and its JSON format.

Squares are named ``a1``..``h8`` (file, rank; rank 1 is south) and kept as lattice points
``(row, col)`` of an 8x8 :class:`SquareLattice`, row 0 being rank 8 (north). A side of a square
is one of ``N E S W``. The rule statement this follows is ``seeds/logisticks.md``.

This module only checks the *format* (names, types, ranges, the centre stones, target edges,
supply counts). Whether the pieces on the board could stand there under the placement rules
(inputs facing the rim, cycles, inputs without a source, Capacitor timing) is checked by
:func:`placesat.logisticks.rules.check_position`, which the loader
(:func:`placesat.logisticks.rules.load_position`) calls after parsing; this module imports nothing
of the rules, so the imports point one way, rules to model.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from placesat.core.errors import InputError
from placesat.core.lattice import Point, SquareLattice

BOARD = SquareLattice(8, 8)
FILES = "abcdefgh"

SIDES = ("N", "E", "S", "W")
SIDE_OFFSET: dict[str, Point] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

TWO_INPUT_TYPES = ("AND", "OR", "XOR")
ONE_INPUT_TYPES = ("PASS", "NOT", "CAP")
PIECE_TYPES = TWO_INPUT_TYPES + ONE_INPUT_TYPES
# A two-input piece is oriented by the corner its two input sides form.
CORNERS = ("NE", "NW", "SE", "SW")
SUPPLY_PER_TYPE_TWO_PLAYERS = 5
PIECES_PER_TYPE = 10  # the whole set: ten of each piece

WHITE, BLACK = "W", "B"  # white stones are TRUE, black stones FALSE

# The player whose edge a target stone sits beyond, and the side of the edge square it faces.
TARGET_SIDE = {1: "S", 2: "N", 3: "W", 4: "E"}

CENTRE_SQUARES = ("d4", "e4", "d5", "e5")
# Default centre stones: each centre square has one white and one black stone on its two outer
# edges, each square's pair a quarter turn of the previous one (seeds/logisticks.md).
DEFAULT_CENTRE = {
    "d5": {"N": WHITE, "W": BLACK},
    "e5": {"N": BLACK, "E": WHITE},
    "e4": {"E": BLACK, "S": WHITE},
    "d4": {"S": BLACK, "W": WHITE},
}


def square_point(name: str) -> Point:
    """The lattice point of a square name such as ``d6``; ``ValueError`` when it is no square."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"{name!r} is not a square (a1..h8)")
    return (8 - int(name[1]), FILES.index(name[0]))


def square_name(point: Point) -> str:
    """The name (``a1``..``h8``) of a lattice point."""
    row, col = point
    return f"{FILES[col]}{8 - row}"


def neighbour(point: Point, side: str) -> Point | None:
    """The square across ``side`` of ``point``, or ``None`` when that side is the board's rim."""
    dr, dc = SIDE_OFFSET[side]
    row, col = point[0] + dr, point[1] + dc
    # the board is 8x8 (BOARD): a bounds check, as it is asked millions of times in a search
    return (row, col) if 0 <= row < 8 and 0 <= col < 8 else None


CENTRE_POINTS = frozenset(square_point(name) for name in CENTRE_SQUARES)


def edge_squares(player: int) -> list[Point]:
    """The squares along ``player``'s edge, in file order (ranks) or rank order (files)."""
    if player == 1:
        return [square_point(f"{f}1") for f in FILES]
    if player == 2:
        return [square_point(f"{f}8") for f in FILES]
    if player == 3:
        return [square_point(f"a{r}") for r in "12345678"]
    return [square_point(f"h{r}") for r in "12345678"]


@dataclass(frozen=True)
class Kind:
    """A piece type in one orientation: which of its four sides are inputs."""

    type: str
    orientation: str  # a corner (NE...) for two-input types, a side (N...) for one-input types

    @cached_property
    def inputs(self) -> tuple[str, ...]:
        """The input sides, in N E S W order."""
        return tuple(side for side in SIDES if side in self.orientation)

    @cached_property
    def outputs(self) -> tuple[str, ...]:
        """The output sides: every side that is not an input."""
        return tuple(side for side in SIDES if side not in self.orientation)

    def __str__(self) -> str:
        return f"{self.type} {self.orientation}"


ALL_KINDS: tuple[Kind, ...] = tuple(
    Kind(t, o) for t in TWO_INPUT_TYPES for o in CORNERS
) + tuple(Kind(t, o) for t in ONE_INPUT_TYPES for o in SIDES)


def make_kind(piece_type: str, orientation: str) -> Kind:
    """A validated :class:`Kind`; ``ValueError`` naming the allowed values otherwise."""
    if piece_type not in PIECE_TYPES:
        raise ValueError(f"unknown piece {piece_type!r}; pieces are {', '.join(PIECE_TYPES)}")
    allowed = CORNERS if piece_type in TWO_INPUT_TYPES else SIDES
    orientation = {"EN": "NE", "WN": "NW", "ES": "SE", "WS": "SW"}.get(orientation, orientation)
    if orientation not in allowed:
        what = "an input corner" if piece_type in TWO_INPUT_TYPES else "an input side"
        raise ValueError(f"{piece_type} needs {what}: one of {', '.join(allowed)}, not {orientation!r}")
    return Kind(piece_type, orientation)


@dataclass(frozen=True)
class Piece:
    """A piece on the board: its kind, the player who placed it, and the turn it was placed on."""

    kind: Kind
    player: int
    turn: int | None = None  # unknown turn: a Capacitor placed so long ago that it is usable


@dataclass(frozen=True)
class Placement:
    """A move: put a piece of ``kind`` on ``square``."""

    square: Point
    kind: Kind

    def __str__(self) -> str:
        return f"{square_name(self.square)} {self.kind}"


@dataclass
class Position:
    """A Logi-Sticks position.

    ``turn`` is the number of the turn about to be played (turns count from 1 and a pass is a
    turn); ``supply`` is what each player still has in hand.
    """

    players: int
    targets: dict[int, dict[Point, str]]
    pieces: dict[Point, Piece]
    to_move: int
    turn: int
    supply: dict[int, dict[str, int]]
    centre: dict[tuple[Point, str], str] = field(default_factory=dict)

    def copy(self) -> "Position":
        """An independent copy (pieces and supplies are mutable dictionaries)."""
        return replace(
            self,
            targets={p: dict(t) for p, t in self.targets.items()},
            pieces=dict(self.pieces),
            supply={p: dict(s) for p, s in self.supply.items()},
            centre=dict(self.centre),
        )

    def next_player(self, player: int | None = None) -> int:
        """The player whose turn follows ``player``'s (default: the player to move)."""
        player = self.to_move if player is None else player
        return player % self.players + 1

    def target_list(self) -> list[tuple[int, Point, str]]:
        """Every target as ``(player, square, colour)``, players in order, squares along the edge."""
        return [
            (player, square, self.targets[player][square])
            for player in sorted(self.targets)
            for square in edge_squares(player)
            if square in self.targets[player]
        ]


# --------------------------------------------------------------------------- parsing


def _fail(message: str, where: str) -> InputError:
    return InputError(f"{where}: {message}" if where else message)


def _expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise _fail(f"expected {what}, got {json.dumps(value)[:40]}", where)
    return value


def _player(text: Any, players: int, where: str) -> int:
    try:
        player = int(text) if isinstance(text, (int, str)) and not isinstance(text, bool) else None
    except ValueError:
        player = None
    if player is None or not 1 <= player <= players:
        raise _fail(f"{json.dumps(text)} is not a player (1..{players})", where)
    return player


def _square(text: Any, where: str) -> Point:
    _expect(text, str, where, "a square name such as \"d6\"")
    try:
        return square_point(text)
    except ValueError as error:
        raise _fail(str(error), where) from None


def layout_targets(players: int, layout: str, seed: int | None = None) -> dict[int, dict[Point, str]]:
    """Target colours from a layout: ``alternate`` (W, B, W, ... along each edge from file a /
    rank 1) or ``random`` (each edge gets four white and four black stones, shuffled by ``seed``)."""
    targets: dict[int, dict[Point, str]] = {}
    rng = random.Random(seed)
    for player in range(1, players + 1):
        squares = edge_squares(player)
        if layout == "alternate":
            colours = [WHITE if i % 2 == 0 else BLACK for i in range(len(squares))]
        elif layout == "random":
            colours = [WHITE] * 4 + [BLACK] * 4
            rng.shuffle(colours)
        else:
            raise ValueError(f"unknown target layout {layout!r}; use alternate or random")
        targets[player] = dict(zip(squares, colours))
    return targets


def starting_position(players: int = 2, layout: str = "alternate", seed: int | None = None) -> Position:
    """An empty board with the default centre stones, targets laid out by ``layout``, and full
    supplies: five of each piece each for two players; for three or four, the ten of each piece
    dealt out as evenly as possible, the first players getting any remainder (our choice; the
    source has the players draft the stash in turn)."""
    data: dict[str, Any] = {"players": players}
    if players > 2:
        data["supply"] = {
            str(p): {t: PIECES_PER_TYPE // players + (1 if p <= PIECES_PER_TYPE % players else 0) for t in PIECE_TYPES}
            for p in range(1, players + 1)
        }
    position = position_from_json(data)
    position.targets = layout_targets(players, layout, seed)
    return position


def _parse_targets(raw: Any, players: int) -> dict[int, dict[Point, str]]:
    if isinstance(raw, str):
        try:
            return layout_targets(players, raw)
        except ValueError as error:
            raise _fail(str(error), "targets") from None
    _expect(raw, dict, "targets", "an object of players, a layout name, or {\"layout\": ..., \"seed\": ...}")
    if "layout" in raw:
        seed = raw.get("seed")
        if seed is not None:
            _expect(seed, int, "targets.seed", "an integer")
        try:
            return layout_targets(players, str(raw["layout"]), seed)
        except ValueError as error:
            raise _fail(str(error), "targets.layout") from None
    targets: dict[int, dict[Point, str]] = {}
    for key, stones in raw.items():
        player = _player(key, players, f"targets.{key}")
        _expect(stones, dict, f"targets.{key}", "an object of squares to \"W\" or \"B\"")
        edge = set(edge_squares(player))
        targets[player] = {}
        for name, colour in stones.items():
            where = f"targets.{key}.{name}"
            square = _square(name, where)
            if square not in edge:
                raise _fail(f"{name} is not on player {player}'s edge", where)
            if colour not in (WHITE, BLACK):
                raise _fail(f"a target stone is \"W\" (white, TRUE) or \"B\" (black, FALSE), not {json.dumps(colour)}", where)
            targets[player][square] = colour
    for player in range(1, players + 1):
        if not targets.get(player):
            raise _fail(f"player {player} has no target stones", "targets")
    return targets


def _parse_centre(raw: Any) -> dict[tuple[Point, str], str]:
    _expect(raw, dict, "centre", "an object of centre squares to {side: colour}")
    if set(raw) != set(CENTRE_SQUARES):
        raise _fail(f"give the stones of all four centre squares ({', '.join(CENTRE_SQUARES)})", "centre")
    stones: dict[tuple[Point, str], str] = {}
    for name, sides in raw.items():
        where = f"centre.{name}"
        square = _square(name, where)
        _expect(sides, dict, where, "an object of sides to \"W\" or \"B\"")
        outer = {side for side in SIDES if neighbour(square, side) not in CENTRE_POINTS}
        if set(sides) != outer:
            raise _fail(f"{name}'s outer edges are {' and '.join(sorted(outer))}; give a stone for each", where)
        for side, colour in sides.items():
            if colour not in (WHITE, BLACK):
                raise _fail(f"a centre stone is \"W\" or \"B\", not {json.dumps(colour)[:40]}", f"{where}.{side}")
        if sorted(sides.values()) != [BLACK, WHITE]:
            raise _fail("each centre square has one white (\"W\") and one black (\"B\") stone", where)
        for side, colour in sides.items():
            stones[(square, side)] = colour
    return stones


def _parse_piece(raw: Any, index: int, players: int) -> tuple[Point, Piece]:
    where = f"pieces[{index}]"
    _expect(raw, dict, where, "an object with square, piece, inputs and player")
    for key in ("square", "piece", "inputs", "player"):
        if key not in raw:
            raise _fail(f"missing \"{key}\"", where)
    unknown = set(raw) - {"square", "piece", "inputs", "player", "turn"}
    if unknown:
        raise _fail(f"unknown field {sorted(unknown)[0]!r}", where)
    square = _square(raw["square"], f"{where}.square")
    if square in CENTRE_POINTS:
        raise _fail(f"{raw['square']} is a centre square; no piece may stand there", f"{where}.square")
    _expect(raw["piece"], str, f"{where}.piece", "a piece name")
    _expect(raw["inputs"], str, f"{where}.inputs", "input sides such as \"S\" or \"NE\"")
    try:
        kind = make_kind(raw["piece"], raw["inputs"])
    except ValueError as error:
        field_name = "piece" if raw["piece"] not in PIECE_TYPES else "inputs"
        raise _fail(str(error), f"{where}.{field_name}") from None
    player = _player(raw["player"], players, f"{where}.player")
    turn = raw.get("turn")
    if turn is not None:
        _expect(turn, int, f"{where}.turn", "a turn number")
        if turn < 1:
            raise _fail("turns count from 1", f"{where}.turn")
    return square, Piece(kind, player, turn)


def _whose_turn(data: dict[str, Any], in_order: list[Piece], players: int) -> tuple[int, int]:
    """``to_move`` and ``turn`` as given, or inferred from the recorded turns when left out.

    Turns go round the players, passes included, so every piece with a recorded turn says
    whose turn each turn is: turn ``t`` is player ``(t + shift - 1) % players + 1`` with one
    ``shift`` for the whole game, ``(player - turn) % players`` of any recorded piece. A
    record whose pieces disagree on it contradicts itself and is refused. ``turn`` left out is
    the first turn after the latest recorded one that is ``to_move``'s (the one right after it
    when ``to_move`` is left out too, or nothing is recorded); ``to_move`` left out is whose
    that turn is (player 1 when nothing is recorded). Given both, they must agree with the
    record (the rule a plan's steps are checked by, ``rules.replay``).
    """
    recorded = [(index, piece) for index, piece in enumerate(in_order) if piece.turn is not None]
    shift = None
    if recorded:
        first_index, first = recorded[0]
        shift = (first.player - first.turn) % players
        for index, piece in recorded[1:]:
            if (piece.player - piece.turn) % players != shift:
                raise _fail(f"turn {piece.turn} by player {piece.player} contradicts turn {first.turn} by player {first.player} "
                            f"(pieces[{first_index}]): turns go round the {players} players, passes included",
                            f"pieces[{index}].turn")
    latest = max((piece.turn for _, piece in recorded), default=0)

    def owner(turn: int) -> int:
        return (turn + shift - 1) % players + 1 if shift is not None else 1

    if "to_move" in data:
        to_move = _player(data["to_move"], players, "to_move")
        default_turn = latest + 1
        if shift is not None:
            default_turn += (to_move - owner(latest + 1)) % players  # the other players pass until then
    else:
        to_move, default_turn = 0, latest + 1
    turn = data.get("turn", default_turn)
    _expect(turn, int, "turn", "the number of the turn about to be played")
    if recorded and turn <= latest:
        raise _fail(f"turn {turn} is not after the last recorded placement (turn {latest})", "turn")
    if turn < 1:
        raise _fail("turns count from 1", "turn")
    if not to_move:
        return owner(turn), turn
    # the turn about to be played is to_move's: so every recorded turn has one player (as a
    # plan's steps are checked, rules.replay)
    for index, piece in recorded:
        expected = (to_move - 1 + piece.turn - turn) % players + 1
        if piece.player != expected:
            raise _fail(f"turn {piece.turn} was player {expected}'s (turn {turn} is player {to_move}'s), not player {piece.player}'s",
                        f"pieces[{index}].turn")
    return to_move, turn


def position_from_json(data: Any) -> Position:
    """Build a :class:`Position` from decoded JSON, checking the format (not the placement rules).

    Errors are :class:`InputError` whose message starts with the JSON path of the bad value.
    """
    _expect(data, dict, "", "a JSON object")
    unknown = set(data) - {"players", "targets", "pieces", "to_move", "turn", "supply", "centre"}
    if unknown:
        raise _fail(f"unknown field {sorted(unknown)[0]!r}", "")
    players = data.get("players", 2)
    _expect(players, int, "players", "2, 3 or 4")
    if not 2 <= players <= 4:
        raise _fail(f"Logi-Sticks is for 2 to 4 players, not {players}", "players")
    targets = _parse_targets(data.get("targets", "alternate"), players)
    centre = _parse_centre(data["centre"]) if "centre" in data else _parse_centre(DEFAULT_CENTRE)

    raw_pieces = data.get("pieces", [])
    _expect(raw_pieces, list, "pieces", "a list of pieces")
    pieces: dict[Point, Piece] = {}
    placed_on: dict[int, int] = {}  # turn -> the piece placed on it
    in_order: list[Piece] = []
    for index, raw in enumerate(raw_pieces):
        square, piece = _parse_piece(raw, index, players)
        in_order.append(piece)
        if square in pieces:
            raise _fail(f"a second piece on {square_name(square)}", f"pieces[{index}].square")
        if piece.turn is not None and piece.turn in placed_on:
            # one move a turn (a pass is a turn too): two pieces cannot share one
            raise _fail(f"turn {piece.turn} already placed pieces[{placed_on[piece.turn]}]", f"pieces[{index}].turn")
        if piece.turn is not None:
            placed_on[piece.turn] = index
        pieces[square] = piece

    to_move, turn = _whose_turn(data, in_order, players)

    placed = {p: {t: 0 for t in PIECE_TYPES} for p in range(1, players + 1)}
    for piece in pieces.values():
        placed[piece.player][piece.kind.type] += 1
    supply: dict[int, dict[str, int]] = {}
    raw_supply = data.get("supply")
    if raw_supply is None:
        if players != 2:
            raise _fail("with 3 or 4 players, list each player's remaining supply", "supply")
        for player in (1, 2):
            supply[player] = {}
            for piece_type in PIECE_TYPES:
                left = SUPPLY_PER_TYPE_TWO_PLAYERS - placed[player][piece_type]
                if left < 0:
                    raise _fail(
                        f"player {player} has placed {placed[player][piece_type]} {piece_type} pieces, "
                        f"more than the {SUPPLY_PER_TYPE_TWO_PLAYERS} of the supply",
                        "pieces",
                    )
                supply[player][piece_type] = left
    else:
        _expect(raw_supply, dict, "supply", "an object of players to {piece: count}")
        for player in range(1, players + 1):
            key = str(player)
            if key not in raw_supply:
                raise _fail(f"missing player {player}'s supply", "supply")
        for key, counts in raw_supply.items():
            player = _player(key, players, f"supply.{key}")
            _expect(counts, dict, f"supply.{key}", "an object of piece names to counts")
            supply[player] = {t: 0 for t in PIECE_TYPES}
            for name, count in counts.items():
                if name not in PIECE_TYPES:
                    raise _fail(f"unknown piece {name!r}; pieces are {', '.join(PIECE_TYPES)}", f"supply.{key}.{name}")
                _expect(count, int, f"supply.{key}.{name}", "a count")
                if count < 0:
                    raise _fail("a supply cannot be negative", f"supply.{key}.{name}")
                supply[player][name] = count
    for piece_type in PIECE_TYPES:
        total = sum(placed[p][piece_type] + supply[p][piece_type] for p in range(1, players + 1))
        if total > PIECES_PER_TYPE:
            raise _fail(
                f"{total} {piece_type} pieces on the board and in supplies, but the set has only {PIECES_PER_TYPE}",
                "supply" if raw_supply is not None else "pieces",
            )
    return Position(players, targets, pieces, to_move, turn, supply, centre)


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON form of a position (what :func:`position_from_json` reads back)."""
    pieces = []
    for square in sorted(position.pieces, key=lambda p: (p[0], p[1])):
        piece = position.pieces[square]
        entry: dict[str, Any] = {
            "square": square_name(square),
            "piece": piece.kind.type,
            "inputs": piece.kind.orientation,
            "player": piece.player,
        }
        if piece.turn is not None:
            entry["turn"] = piece.turn
        pieces.append(entry)
    centre: dict[str, dict[str, str]] = {}
    for (square, side), colour in position.centre.items():
        centre.setdefault(square_name(square), {})[side] = colour
    data: dict[str, Any] = {
        "players": position.players,
        "targets": {
            str(player): {square_name(s): c for s, c in stones.items()}
            for player, stones in sorted(position.targets.items())
        },
        "pieces": pieces,
        "to_move": position.to_move,
        "turn": position.turn,
        "supply": {str(p): dict(s) for p, s in sorted(position.supply.items())},
    }
    if centre != DEFAULT_CENTRE:
        data["centre"] = centre
    return data


def parse_move(text: str) -> Placement | None:
    """A move written ``d6 NOT S`` (or ``d6:NOT:S``, ``d6,AND,NE``); ``None`` for ``pass``.

    ``ValueError`` with a readable message when it is not a move.
    """
    parts = text.replace(":", " ").replace(",", " ").replace("/", " ").split()
    if [p.lower() for p in parts] == ["pass"]:
        return None
    if len(parts) != 3:
        raise ValueError(f"a move is SQUARE PIECE INPUTS, e.g. \"d6 NOT S\" or \"c5 AND NE\" (or \"pass\"), not {text!r}")
    square = square_point(parts[0].lower())
    if square in CENTRE_POINTS:
        raise ValueError(f"{parts[0]} is a centre square; no piece may stand there")
    return Placement(square, make_kind(parts[1].upper(), parts[2].upper()))
