"""The stones of Quarry: their shapes as unit cubes, their ends, their points and how many
each player has; one table, and the reader of a stone file that replaces it.

A stone is drawn as a small picture. Its *layers* are listed from the bottom up; each layer is
a top view with ``/`` between picture rows, ``#`` a cube and ``.`` no cube. Its *base* is one
more top view, of the stone's footprint, saying how each column of the stone meets what lies
below it:

- ``e``: an *end*. Its lowest cube rests on the board or on the player's own colour.
- ``-``: rests on whatever is there (the board, own colour or the opponent's: crossing over).
- ``o``: *open*: the opening of an Arch or a Bridge. Its lowest cube may stand over empty
  space; the stone's legs carry it. Whatever lies under it stays covered.
- ``.``: not part of the footprint.

A stone that may be played either way up (Step, Arch, Bridge) has two *faces*, ``up`` and
``down``, each with its own picture. A face is turned in the plane in four *directions*: the
picture's rows run east (``e``, as drawn), south, west or north. The *anchor* of a placement is
the cell of the picture's first cube in reading order (top row first, then left to right).

The shapes are our reading (the scan lost the pictures; see ``seeds/quarry.md``); the points
are the scan's and equal the number of cubes squared. ``count`` is per player (25 in all).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from placesat.core.errors import InputError, escape_controls
from placesat.core.inputs import expect_int, expect_list, expect_object, expect_str, json_path, load_json_as

MAX_LEVELS = 5
"""Rule 2: no stone may reach above 5 cubes high (heights counted in cubes from the board)."""

END, REST, OPEN = "e", "-", "o"
ROLES = (END, REST, OPEN)

UP, DOWN = "up", "down"
DIRECTIONS = ("e", "s", "w", "n")
"""Where the picture's rows point on the board: east (as drawn), south, west, north."""

DEFAULT_STONE_TABLE: tuple[dict[str, Any], ...] = (
    # name, per-player count, tournament points (the scan's), faces: (name, layers bottom-up, base)
    {"name": "block", "count": 5, "points": 1, "faces": [(UP, ["#"], "e")]},
    {"name": "brick", "count": 3, "points": 4, "faces": [(UP, ["##"], "ee")]},
    {"name": "post", "count": 3, "points": 4, "faces": [(UP, ["#", "#"], "e")]},
    {"name": "beam", "count": 3, "points": 9, "faces": [(UP, ["###"], "e-e")]},
    {"name": "corner", "count": 2, "points": 9, "faces": [(UP, ["#./##"], "e./-e")]},
    {"name": "step", "count": 2, "points": 9, "faces": [(UP, ["##", "#."], "ee"), (DOWN, ["#.", "##"], "ee")]},
    {"name": "pillar", "count": 2, "points": 9, "faces": [(UP, ["#", "#", "#"], "e")]},
    {"name": "span", "count": 2, "points": 16, "faces": [(UP, ["####"], "e--e")]},
    {"name": "arch", "count": 2, "points": 25, "faces": [(UP, ["#.#", "###"], "eoe"), (DOWN, ["###", "#.#"], "e-e")]},
    {"name": "bridge", "count": 1, "points": 36, "faces": [(UP, ["#..#", "####"], "eooe"), (DOWN, ["####", "#..#"], "e--e")]},
)
"""The default stones, one row each. Our assumption for shapes and counts (the scan gives
names, heights and points only); replaceable with ``--stones FILE``."""

Cube = tuple[int, int, int]  # (row, column, level)
Cell = tuple[int, int]  # (row, column)


@dataclass(frozen=True)
class Column:
    """One footprint cell of an oriented stone: where it is (relative to the anchor), its
    lowest and highest cube (levels above the stone's bottom) and its role (``e``/``-``/``o``)."""

    dr: int
    dc: int
    bottom: int
    top: int
    role: str


@dataclass(frozen=True)
class Orientation:
    """A face turned to one direction: cubes and columns relative to the anchor cell."""

    stone: str
    face: str
    direction: str
    cubes: tuple[Cube, ...]
    columns: tuple[Column, ...]

    @cached_property
    def height(self) -> int:
        """Levels the stone spans, bottom to top."""
        return 1 + max(z for _, _, z in self.cubes)

    @cached_property
    def spread(self) -> int:
        """The most side-to-side steps between two of its cells, seen from above."""
        rows = [col.dr for col in self.columns]
        cols = [col.dc for col in self.columns]
        return max(rows) - min(rows) + max(cols) - min(cols)

    @cached_property
    def key(self) -> tuple:
        """What the stone looks like, up to where it stands: two orientations with the same key
        make the same placements (a Brick turned east or west)."""
        top = min(c.dr for c in self.columns)
        left = min(c.dc for c in self.columns)
        return tuple(sorted((c.dr - top, c.dc - left, c.bottom, c.top, c.role) for c in self.columns)) + (
            tuple(sorted((r - top, c - left, z) for r, c, z in self.cubes)),
        )


@dataclass(frozen=True)
class Face:
    """One way up of a stone: its cubes in picture coordinates and each footprint cell's role."""

    name: str
    cubes: frozenset[Cube]
    roles: tuple[tuple[Cell, str], ...]

    @cached_property
    def footprint(self) -> tuple[Cell, ...]:
        """The picture cells with a cube, in reading order."""
        return tuple(sorted({(r, c) for r, c, _ in self.cubes}))

    def oriented(self, stone: str, direction: str) -> Orientation:
        """This face turned so that the picture's rows run in ``direction``."""
        anchor = self.footprint[0]
        role = dict(self.roles)

        def turn(r: int, c: int) -> Cell:
            r, c = r - anchor[0], c - anchor[1]
            # picture rows run along x; x turns clockwise from east through south, west, north
            return {"e": (r, c), "s": (c, -r), "w": (-r, -c), "n": (-c, r)}[direction]

        cubes = tuple(sorted((*turn(r, c), z) for r, c, z in self.cubes))
        columns = []
        for cell in self.footprint:
            levels = [z for r, c, z in self.cubes if (r, c) == cell]
            columns.append(Column(*turn(*cell), min(levels), max(levels), role[cell]))
        return Orientation(stone, self.name, direction, cubes, tuple(columns))


@dataclass(frozen=True)
class StoneKind:
    """A type of stone: its name, faces, tournament points, and how many each player has."""

    name: str
    count: int
    points: int
    faces: tuple[Face, ...]

    @cached_property
    def cubes(self) -> int:
        """Number of unit cubes in the stone."""
        return len(self.faces[0].cubes)

    @cached_property
    def orientations(self) -> tuple[Orientation, ...]:
        """Every distinct way to lay the stone (faces x directions), the first of each look kept."""
        seen: set[tuple] = set()
        kept = []
        for face in self.faces:
            for direction in DIRECTIONS:
                orientation = face.oriented(self.name, direction)
                if orientation.key not in seen:
                    seen.add(orientation.key)
                    kept.append(orientation)
        return tuple(kept)

    def face(self, name: str) -> Face | None:
        """The face called ``name``, if the stone has it."""
        return next((f for f in self.faces if f.name == name), None)

    def orientation(self, face: str, direction: str) -> Orientation:
        """The face called ``face`` turned to ``direction`` (any of the four, listed or not)."""
        return self._turned[(face, direction)]

    @cached_property
    def _turned(self) -> dict[tuple[str, str], Orientation]:
        return {(f.name, d): f.oriented(self.name, d) for f in self.faces for d in DIRECTIONS}


@dataclass(frozen=True)
class StoneSet:
    """The stones each player starts with (both players alike)."""

    kinds: tuple[StoneKind, ...]
    default: bool = False

    def __getitem__(self, name: str) -> StoneKind:
        for kind in self.kinds:
            if kind.name == name:
                return kind
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return any(kind.name == name for kind in self.kinds)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Stone names in table order."""
        return tuple(kind.name for kind in self.kinds)

    def find(self, word: str) -> StoneKind | None:
        """The stone a person means by ``word``: its name or a prefix of only that name (any case)."""
        word = word.lower()
        if word in self.names:
            return self[word]
        matches = self.starting(word)
        return self[matches[0]] if len(matches) == 1 else None

    def starting(self, word: str) -> list[str]:
        """The names that begin with ``word`` (any case), in table order."""
        return [name for name in self.names if name.startswith(word.lower())]

    @cached_property
    def total_points(self) -> int:
        """The points of a whole supply."""
        return sum(kind.points * kind.count for kind in self.kinds)


# --------------------------------------------------------------------------- reading pictures


def _picture(text: str, where: str) -> list[str]:
    rows = text.split("/")
    if any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise InputError(f"{where}: picture rows (separated by /) must all have the same length, not {text!r}")
    return rows


def face_from_picture(name: str, layers: list[str], base: str, where: str) -> Face:
    """A face from its layer pictures (bottom up) and its base picture (see the module docstring).

    Checked: the layers and the base have the same size; every layer is ``#`` and ``.``; the base
    marks exactly the footprint, with ``e``, ``-`` or ``o``; the stone is one solid (its cubes
    joined face to face); it has at least one end; an open column's lowest cube is above the
    bottom; it is at most ``MAX_LEVELS`` high.
    """
    if not layers:
        raise InputError(f"{where}.layers: at least one layer")
    if len(layers) > MAX_LEVELS:
        raise InputError(f"{where}.layers: a stone is at most {MAX_LEVELS} cubes high, not {len(layers)}")
    grids = [_picture(layer, json_path(json_path(where, "layers"), z)) for z, layer in enumerate(layers)]
    mask = _picture(base, json_path(where, "base"))
    shape = (len(mask), len(mask[0]))
    cubes = set()
    for z, grid in enumerate(grids):
        if (len(grid), len(grid[0])) != shape:
            raise InputError(f"{json_path(json_path(where, 'layers'), z)}: every layer has the base's size ({shape[0]} row(s) of {shape[1]})")
        for r, row in enumerate(grid):
            for c, char in enumerate(row):
                if char not in "#.":
                    raise InputError(f"{json_path(json_path(where, 'layers'), z)}: use # for a cube and . for none, not {char!r}")
                if char == "#":
                    cubes.add((r, c, z))
    if not cubes:
        raise InputError(f"{where}.layers: the stone has no cube")
    if min(z for _, _, z in cubes) != 0:
        raise InputError(f"{where}.layers: the bottom layer is empty")
    footprint = {(r, c) for r, c, _ in cubes}
    roles = []
    for r, row in enumerate(mask):
        for c, char in enumerate(row):
            if char == "." and (r, c) in footprint:
                raise InputError(f"{where}.base: row {r + 1} column {c + 1} has a cube above it; mark it e, - or o")
            if char != ".":
                if char not in ROLES:
                    raise InputError(f"{where}.base: use e (end), - (rests on anything), o (open) or . (none), not {char!r}")
                if (r, c) not in footprint:
                    raise InputError(f"{where}.base: row {r + 1} column {c + 1} is marked but has no cube")
                lowest = min(z for rr, cc, z in cubes if (rr, cc) == (r, c))
                if char == OPEN and lowest == 0:
                    raise InputError(f"{where}.base: row {r + 1} column {c + 1} is open, but its lowest cube is on the bottom layer")
                roles.append(((r, c), char))
    if not any(role == END for _, role in roles):
        raise InputError(f"{where}.base: a stone needs at least one end (e)")
    if not _solid(cubes):
        raise InputError(f"{where}.layers: the cubes must form one solid (joined face to face)")
    return Face(name, frozenset(cubes), tuple(sorted(roles)))


def _solid(cubes: set[Cube]) -> bool:
    start = next(iter(cubes))
    seen = {start}
    stack = [start]
    while stack:
        r, c, z = stack.pop()
        for dr, dc, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            nxt = (r + dr, c + dc, z + dz)
            if nxt in cubes and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen) == len(cubes)


def default_stones() -> StoneSet:
    """The default stone set (:data:`DEFAULT_STONE_TABLE`)."""
    return _DEFAULT


def _kind(row: dict[str, Any], where: str) -> StoneKind:
    faces = tuple(face_from_picture(name, list(layers), base, json_path(json_path(where, "faces"), i)) for i, (name, layers, base) in enumerate(row["faces"]))
    return StoneKind(row["name"], row["count"], row["points"], faces)


_DEFAULT = StoneSet(tuple(_kind(row, f"default[{i}]") for i, row in enumerate(DEFAULT_STONE_TABLE)), default=True)

STONE_KEYS = ("name", "count", "points", "faces")
FACE_KEYS = ("name", "layers", "base")
MAX_KINDS = 26
MAX_COUNT = 99
MAX_PICTURE = 6


def stones_from_json(raw: Any, where: str = "stones") -> StoneSet:
    """A stone set from decoded JSON: a list of stones, each
    ``{"name", "count", "points" (default: cubes squared), "faces": [{"name", "layers", "base"}]}``.

    A face's name defaults to ``up`` for the first and ``down`` for the second; its pictures are
    read by :func:`face_from_picture`. Names are lower-case words, each stone named once.
    """
    listed = expect_list(raw, where, "a list of stones")
    if not listed:
        raise InputError(f"{where}: at least one stone")
    if len(listed) > MAX_KINDS:
        raise InputError(f"{where}: at most {MAX_KINDS} kinds of stone")
    kinds = []
    for i, item in enumerate(listed):
        here = json_path(where, i)
        expect_object(item, here, STONE_KEYS)
        for key in ("name", "count", "faces"):
            if key not in item:
                raise InputError(f"{json_path(here, key)}: missing")
        name = escape_controls(expect_str(item["name"], json_path(here, "name")))
        if not name.isalpha() or not name.islower():
            raise InputError(f"{json_path(here, 'name')}: a stone's name is one lower-case word, not {name!r}")
        if any(kind.name == name for kind in kinds):
            raise InputError(f"{json_path(here, 'name')}: stone {name!r} is listed twice")
        count = expect_int(item["count"], json_path(here, "count"), 0, MAX_COUNT)
        faces_raw = expect_list(item["faces"], json_path(here, "faces"), "a list of faces")
        if not 1 <= len(faces_raw) <= len(DIRECTIONS):
            raise InputError(f"{json_path(here, 'faces')}: one to {len(DIRECTIONS)} faces")
        faces = []
        for j, face_raw in enumerate(faces_raw):
            fwhere = json_path(json_path(here, "faces"), j)
            expect_object(face_raw, fwhere, FACE_KEYS)
            fname = face_raw.get("name", (UP, DOWN)[j] if j < 2 else None)
            if fname is None:
                raise InputError(f"{json_path(fwhere, 'name')}: missing (only the first two faces default to up and down)")
            fname = escape_controls(expect_str(fname, json_path(fwhere, "name")))
            if not fname.isalpha() or not fname.islower() or fname in DIRECTIONS:
                raise InputError(f"{json_path(fwhere, 'name')}: a face's name is one lower-case word other than e, s, w, n, not {fname!r}")
            if any(f.name == fname for f in faces):
                raise InputError(f"{json_path(fwhere, 'name')}: face {fname!r} is listed twice")
            for key in ("layers", "base"):
                if key not in face_raw:
                    raise InputError(f"{json_path(fwhere, key)}: missing")
            layers = [expect_str(layer, json_path(json_path(fwhere, "layers"), z)) for z, layer in enumerate(expect_list(face_raw["layers"], json_path(fwhere, "layers")))]
            base = expect_str(face_raw["base"], json_path(fwhere, "base"))
            for text, key in [(base, "base")] + [(layer, f"layers[{z}]") for z, layer in enumerate(layers)]:
                rows = text.split("/")
                if len(rows) > MAX_PICTURE or any(len(row) > MAX_PICTURE for row in rows):
                    raise InputError(f"{fwhere}.{key}: a picture is at most {MAX_PICTURE} by {MAX_PICTURE}")
            faces.append(face_from_picture(fname, layers, base, fwhere))
        if len({len(f.cubes) for f in faces}) != 1:
            raise InputError(f"{json_path(here, 'faces')}: every face of a stone has the same cubes, turned over")
        cubes = len(faces[0].cubes)
        points = expect_int(item.get("points", cubes * cubes), json_path(here, "points"), 0, 10**6)
        kinds.append(StoneKind(name, count, points, tuple(faces)))
    return StoneSet(tuple(kinds))


def load_stones(path: str) -> StoneSet:
    """A stone file: JSON ``{"stones": [...]}`` (see :func:`stones_from_json`)."""
    def build(raw: object) -> StoneSet:
        expect_object(raw, "", ("stones",), what='an object {"stones": [...]}')
        if "stones" not in raw:  # type: ignore[operator]
            raise InputError('stones: missing (a stone file is {"stones": [...]})')
        return stones_from_json(raw["stones"])  # type: ignore[index]

    return load_json_as(path, build)


def stones_to_json(stones: StoneSet) -> list[dict[str, Any]]:
    """A stone set as JSON (the inverse of :func:`stones_from_json`)."""
    out = []
    for kind in stones.kinds:
        faces = []
        for face in kind.faces:
            rows = 1 + max(r for r, _ in face.footprint)
            cols = 1 + max(c for _, c in face.footprint)
            levels = 1 + max(z for _, _, z in face.cubes)
            layers = ["/".join("".join("#" if (r, c, z) in face.cubes else "." for c in range(cols)) for r in range(rows)) for z in range(levels)]
            role = dict(face.roles)
            base = "/".join("".join(role.get((r, c), ".") for c in range(cols)) for r in range(rows))
            faces.append({"name": face.name, "layers": layers, "base": base})
        out.append({"name": kind.name, "count": kind.count, "points": kind.points, "faces": faces})
    return out
