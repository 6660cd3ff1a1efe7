"""Lixso grids and their text format.

A grid file holds one grid or a pack of grids:

* a grid is consecutive lines of equal length over ``.`` (an uncoloured cell) and the
  colour letters ``I X S O`` (case-insensitive): a letter is a clue, the colour of the
  tile that must cover that cell;
* lines starting with ``#`` are comments; ``# key: value`` lines directly above a grid
  are its metadata (``name``, ``level``, ``solution`` with rows joined by ``/``,
  ``per-colour`` for a supply other than the size's default);
* grids are separated by one or more blank lines.

Parsing a pack never stops at a bad grid: each grid comes back either parsed or as the
:class:`InputError` that says where it broke, so one bad grid never stops the rest.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..core.errors import InputError, escape_controls
from ..core.inputs import MAX_INPUT_BYTES, display_name, numbered_lines, read_text

COLOURS = "IXSO"
"""The four tile colours, by their symbols (the box's colour-blind letters)."""
EMPTY = "."
CELL_SYMBOLS = frozenset(".IXSOixso")
"""Every character a grid row may hold: ASCII only (``str.upper`` would turn ``ı`` into ``I``)."""
_CLEAN_ROW = re.compile(r"[.IXSOixso]*")
MAX_SIDE = 60
MAX_CELLS = 900
"""The largest grid accepted, in cells (30x30). Building the rules of a larger grid takes
seconds to minutes and gigabytes before the solver starts (measured: 40x40 takes 9 s and
1.4 GB), so it is refused with a clear message rather than attempted."""
TILE_CELLS = 3
PER_COLOUR_KEY = "per-colour"
"""The metadata key of a grid's colour supply when it is not the size's default (``generate
--per-colour`` writes it, so that every command solves the puzzle with the supply it was made for;
the strategic game's positions use it too)."""
MAX_PER_COLOUR = 300  # a 30x30 grid takes 300 tiles: more of one colour can never be laid
HARDEST_LEVEL = 6
MAX_RECORD_BYTES = MAX_INPUT_BYTES
"""The longest record of a pack (a grid with the metadata lines above it) that is read: what
one grid file may hold. A pack read as a stream has no cap in all; a longer record is named
and skipped."""
"""The box rates its grids 1 (starter) to 6 (very hard); a ``# level:`` line states one of these."""


def coverable(rows: int, cols: int) -> bool:
    """Whether L-tiles can cover a grid of this size at all: only when its cell count is a
    multiple of the three cells a tile covers (the loader, the generator and the CLI's
    ``--size`` all refuse other sizes by this)."""
    return rows * cols % TILE_CELLS == 0


def read_per_colour(text: str, where: str, path: str | None, line: int | None) -> int:
    """A colour supply written as text (a ``# per-colour:`` line): a whole number from 1 to
    :data:`MAX_PER_COLOUR`; ``InputError`` at ``path``, ``line`` otherwise."""
    if not re.fullmatch(r"[0-9]{1,4}", text.strip()):
        raise InputError(f"{where}: must be a whole number of tiles, not {text.strip()[:20]!r}", path, line)
    value = int(text)
    if not 1 <= value <= MAX_PER_COLOUR:
        raise InputError(f"{where}: must be from 1 to {MAX_PER_COLOUR}, not {value}", path, line)
    return value


def read_level(text: str) -> int | None:
    """A ``# level:`` value as a level: ASCII digits naming 1 to :data:`HARDEST_LEVEL`, else None."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[0-9]{1,3}", text) and 1 <= int(text) <= HARDEST_LEVEL else None


def default_per_colour(rows: int, cols: int) -> int:
    """How many tiles of each colour the box offers for a grid of this size.

    The 9x9 box grid takes 27 tiles out of 28, seven of each colour; for other sizes we
    keep the same spirit: ``ceil(tiles / 4)`` of each colour, the fewest that suffice.
    """
    return math.ceil(rows * cols // TILE_CELLS / len(COLOURS))


@dataclass(frozen=True)
class Grid:
    """A Lixso puzzle: its clue rows (``.`` or an upper-case colour letter per cell)."""

    rows: tuple[str, ...]
    name: str = ""
    metadata: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def tiles(self) -> int:
        """How many L-tiles cover the grid."""
        return self.height * self.width // TILE_CELLS

    def clues(self) -> list[tuple[int, int, str]]:
        """Every pre-coloured cell as ``(row, column, colour)``."""
        return [
            (r, c, ch)
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch != EMPTY
        ]

    def is_complete(self) -> bool:
        """Whether every cell has a colour (a filled-in solution rather than a puzzle)."""
        return all(ch != EMPTY for row in self.rows for ch in row)

    def stated_solution(self) -> tuple[str, ...] | None:
        """The ``# solution:`` metadata as rows, when present (not checked here)."""
        text = self.metadata.get("solution")
        if not text:
            return None
        return tuple(part.strip().upper() for part in text.split("/"))

    def stated_level(self) -> int | None:
        """The ``# level:`` metadata as a level, when present and one (:func:`read_level`)."""
        return read_level(self.metadata.get("level", ""))

    def per_colour(self, given: int | None = None) -> int | None:
        """The colour supply to solve this grid with: ``given`` (a command's --per-colour), else
        its ``# per-colour:`` line, else None (the size's default, :func:`default_per_colour`).
        The line was checked when the grid was read."""
        if given is not None:
            return given
        text = self.metadata.get(PER_COLOUR_KEY)
        return None if text is None else int(text)

    def label(self) -> str:
        """How to name this grid in messages: its name, else where it starts."""
        if self.name:
            return self.name
        if self.path is not None and self.line is not None:
            return f"{self.path}:{self.line}"
        return "grid"


class GridError(InputError):
    """A grid of a pack that breaks the format; ``name`` is its ``# name:`` when it has one."""

    def __init__(self, error: InputError, name: str = "") -> None:
        message = f"grid {name!r}: {error.message}" if name else error.message
        super().__init__(message, error.path, error.line, error.column)
        self.name = name

    def label(self) -> str:
        """How to name the broken grid: its name, else where it starts."""
        if self.name:
            return self.name
        return f"{self.path}:{self.line}" if self.line is not None else str(self.path)


def _check_rows(rows: list[tuple[int, str]], path: str | None) -> tuple[str, ...]:
    """Validate one block of grid lines (``(line number, text)``), returning upper-cased rows."""
    first_line, first = rows[0]
    width = len(first)
    if len(rows) > MAX_SIDE or width > MAX_SIDE or len(rows) * width > MAX_CELLS:
        raise InputError(
            f"grid is {len(rows)}x{width} ({len(rows) * width} cells); placesat handles at most"
            f" {MAX_CELLS} cells (30x30) and {MAX_SIDE} cells on a side",
            path,
            first_line,
        )
    clean: list[str] = []
    for number, text in rows:
        if len(text) == width and _CLEAN_ROW.fullmatch(text):  # the common case, without a loop per cell
            clean.append(text.upper())
            continue
        for column, ch in enumerate(text, start=1):
            if ch not in CELL_SYMBOLS:
                shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
                raise InputError(
                    f"unknown character {shown}: a cell is '.' or one of I X S O",
                    path,
                    number,
                    column,
                )
        if len(text) != width:
            raise InputError(
                f"ragged grid: this row has {len(text)} cells, the first row has {width}",
                path,
                number,
                min(len(text), width) + 1,
            )
        clean.append(text.upper())
    if not coverable(len(rows), width):
        raise InputError(
            f"grid is {len(rows)}x{width} = {len(rows) * width} cells, not divisible by 3:"
            " L-tiles cannot cover it",
            path,
            first_line,
        )
    return tuple(clean)


def parse_pack(text: str, path: str | None = None) -> list[Grid | InputError]:
    """Every grid in ``text``, in order; a grid that breaks the format comes back as its error."""
    return list(read_grids(numbered_lines(text), path))


def read_grids(lines: Iterable[tuple[int, str | None]], path: str | None = None,
               record_limit: int = MAX_RECORD_BYTES) -> Iterator[Grid | InputError]:
    """The grids of a pack read as a stream of ``(line number, text)`` lines, one at a time;
    a grid that breaks the format comes back as its error, and so does a record (a grid with
    the metadata above it) longer than ``record_limit`` bytes, or holding a line too long to
    read (``text`` None): it is named, skipped to the next blank line, and the rest goes on."""
    metadata: dict[str, str] = {}
    metadata_line: dict[str, int] = {}
    block: list[tuple[int, str]] = []
    size = 0
    too_long: int | None = None  # the first line of a record over the limit

    def finish() -> Iterator[Grid | InputError]:
        nonlocal metadata, metadata_line, block, too_long, size
        if too_long is not None:
            error = InputError(f"record too long (over {record_limit} bytes, or a line over it): skipped", path, too_long)
            yield GridError(error, metadata.get("name", ""))
        elif block:
            try:
                rows = _check_rows(block, path)
                if PER_COLOUR_KEY in metadata:
                    read_per_colour(metadata[PER_COLOUR_KEY], PER_COLOUR_KEY, path, metadata_line[PER_COLOUR_KEY])
                name = metadata.get("name", "")
                yield Grid(rows, name=name, metadata=metadata, path=path, line=block[0][0])
            except InputError as error:
                yield GridError(error, metadata.get("name", ""))
        metadata, metadata_line, block, too_long, size = {}, {}, [], None, 0

    for number, raw in lines:
        if raw is None or size + len(raw) + 1 > record_limit:
            if too_long is None:
                too_long = min([number] + list(metadata_line.values()) + [n for n, _ in block[:1]])
            size = record_limit  # whatever follows up to the next blank line belongs to it
            if raw is None or raw.strip(" \t"):
                continue
        line = raw.rstrip(" \t")
        if not line:
            yield from finish()
            continue
        if too_long is not None:
            continue
        size += len(raw) + 1
        if line.lstrip().startswith("#"):
            if block:  # a comment ends a grid, as a blank line does
                yield from finish()
                size = len(raw) + 1
            body = line.lstrip()[1:].strip()
            key, colon, value = body.partition(":")
            if colon and key.strip() and " " not in key.strip():
                metadata[key.strip().lower()] = escape_controls(value.strip())  # never raw to a terminal
                metadata_line[key.strip().lower()] = number
            continue
        block.append((number, line))
    yield from finish()


# --------------------------------------------------------------------------- answers kept apart
ANSWERS_MARK = ".answers"
"""What sets a pack's answers file apart: ``pack.txt`` keeps its answers in ``pack.answers.txt``
(seeds/lixso.md, 'Answers apart'); the one place that names it."""
ANSWERS_WINDOW = 64
"""How many answers are read ahead of the puzzles to find a puzzle's own (a pack edited by hand,
a puzzle dropped or moved a little, still finds its answers; memory stays bounded)."""


def answers_path(pack_path: str) -> str:
    """Where the answers to the pack ``pack_path`` are kept: beside it, ``NAME.answers.EXT``."""
    root, extension = os.path.splitext(pack_path)
    return f"{root}{ANSWERS_MARK}{extension}"


def answers_beside(pack_path: str) -> str | None:
    """The answers file beside a pack file, when there is one (a regular file); None for
    standard input, a puzzle ID, an answers file itself, or a pack without one."""
    if pack_path == "-" or not os.path.isfile(pack_path):
        return None
    root, _ = os.path.splitext(pack_path)
    if root.endswith(ANSWERS_MARK):
        return None
    beside = answers_path(pack_path)
    return beside if os.path.isfile(beside) else None


def pick_answer(entries: list[Grid | InputError], puzzle: Grid, path: str | None) -> Grid:
    """The proposed solution to ``puzzle`` in a file: its one grid, or, in a file of several
    (an answers file), the one with the puzzle's name."""
    if len(entries) == 1:
        if isinstance(entries[0], InputError):
            raise entries[0]
        return entries[0]
    named = [e for e in entries if isinstance(e, Grid) and puzzle.name and e.name == puzzle.name]
    if not named:
        raise InputError(f"this file holds {len(entries)} grids and none is named {puzzle.name!r}" if puzzle.name
                         else f"this file holds {len(entries)} grids; the puzzle has no name to pick its answer by", path)
    return named[0]


def format_answer(name: str, solution: tuple[str, ...]) -> str:
    """One answer as its answers file holds it: the puzzle's name, then the solved grid."""
    return f"# name: {name}\n" + "\n".join(solution) + "\n"


def with_answers(grids: Iterable[Grid | InputError], answers: Iterable[Grid | InputError]) -> Iterator[Grid | InputError]:
    """``grids``, each named puzzle with its answer from ``answers`` (solved grids named as the
    puzzles, in the pack's order) as its ``# solution:``, read ahead at most
    :data:`ANSWERS_WINDOW` answers. A puzzle that states its own solution keeps it; an answer
    that is not a whole grid, or whose puzzle is not found, is passed over."""
    pending: dict[str, Grid] = {}
    source = iter(answers)
    exhausted = False
    for entry in grids:
        if isinstance(entry, Grid) and entry.name and "solution" not in entry.metadata:
            while entry.name not in pending and not exhausted and len(pending) < ANSWERS_WINDOW:
                try:
                    answer = next(source, None)
                except InputError:  # an answers file that cannot be read on: the puzzles still are
                    answer = None
                if answer is None:
                    exhausted = True
                elif isinstance(answer, Grid) and answer.name and answer.is_complete():
                    pending.setdefault(answer.name, answer)
            found = pending.pop(entry.name, None)
            if found is not None:
                # answers read before this one belong to puzzles that are not in the pack
                for name in list(pending):
                    if pending[name].line is not None and found.line is not None and pending[name].line < found.line:
                        del pending[name]
                entry.metadata["solution"] = "/".join(found.rows)
        yield entry


# --------------------------------------------------------------------------- puzzle IDs

ID_PREFIX = "LX"
_RUN_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # a run of 1..26 empty cells
_ID_SHAPE = re.compile(r"^LX(?P<h>[1-9][0-9]?)x(?P<w>[1-9][0-9]?)-(?P<body>[a-zIXSO]*)-(?P<check>[0-9A-Za-z]{4})$")
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _checksum(text: str) -> str:
    """Four base-36 characters of a CRC-32: a mistyped character is caught (all but ~1 in 1.7 million)."""
    import zlib

    value = zlib.crc32(text.encode("ascii")) % 36**4
    digits = []
    for _ in range(4):
        value, digit = divmod(value, 36)
        digits.append(_BASE36[digit])
    return "".join(reversed(digits))


def puzzle_id(grid: Grid) -> str:
    """The grid's one-line ID: ``LX<rows>x<cols>-<clues>-<check>``.

    The clues are the cells row by row, a clue as its letter and a run of 1 to 26 empty
    cells as one lower-case letter (``a`` = 1 ... ``z`` = 26); trailing empty cells are left
    out. The check is four base-36 characters of a CRC-32 of everything before it. Names
    and other metadata are not part of a puzzle's identity.
    """
    cells = "".join(grid.rows)
    body: list[str] = []
    run = 0
    for ch in cells:
        if ch == EMPTY:
            run += 1
            continue
        while run:
            step = min(run, len(_RUN_LETTERS))
            body.append(_RUN_LETTERS[step - 1])
            run -= step
        body.append(ch)
    head = f"{ID_PREFIX}{grid.height}x{grid.width}-{''.join(body)}"
    return f"{head}-{_checksum(head)}"


def looks_like_id(text: str) -> bool:
    """Whether ``text`` has the shape of a puzzle ID (its checksum not yet checked)."""
    return bool(_ID_SHAPE.match(text.strip()))


def parse_id(text: str) -> Grid:
    """The grid a puzzle ID names; ``InputError`` when it is malformed or its checksum fails."""
    text = text.strip()
    match = _ID_SHAPE.match(text)
    if match is None:
        raise InputError(f"not a Lixso puzzle ID (they look like {ID_PREFIX}9x9-cIbX...-7Q2K): {text[:40]!r}")
    head = text[: text.rindex("-")]
    if _checksum(head) != match["check"].upper():  # the check is read in any case
        raise InputError(f"puzzle ID {text[:40]!r}: the check characters do not match (a typo?)")
    height, width = int(match["h"]), int(match["w"])
    cells: list[str] = []
    for ch in match["body"]:
        cells.extend(EMPTY * (_RUN_LETTERS.index(ch) + 1) if ch in _RUN_LETTERS else ch)
    if len(cells) > height * width:
        raise InputError(f"puzzle ID {text[:40]!r}: more cells than a {height}x{width} grid has")
    cells.extend(EMPTY * (height * width - len(cells)))
    rows = ["".join(cells[r * width : (r + 1) * width]) for r in range(height)]
    (entry,) = parse_pack("\n".join(rows) + "\n", text)
    if isinstance(entry, InputError):
        raise InputError(f"puzzle ID {text[:40]!r}: {entry.message}")
    return Grid(entry.rows, name=text, path=None, line=None)


def load_pack(path: str) -> list[Grid | InputError]:
    """Parse a grid file (``-``: standard input; a puzzle ID stands for its grid); a file
    that cannot be read or holds no grid raises ``InputError``."""
    if looks_like_id(path) and not os.path.exists(path):
        return [parse_id(path)]
    text = read_text(path)
    beside = answers_beside(path)
    path = display_name(path)
    grids = parse_pack(text, path)
    if beside is not None:
        grids = list(with_answers(grids, parse_pack(read_text(beside), display_name(beside))))
    if not grids:
        raise InputError("no grid in this file (empty, or only comments)", path)
    return grids


def folder_grid_files(folder: str) -> list[str]:
    """The grid files of a folder, in name order: hidden files and answers files left out (an
    answers file is read with its pack, not as puzzles of its own)."""
    return [
        os.path.join(folder, name) for name in sorted(os.listdir(folder))
        if not name.startswith(".") and not os.path.splitext(name)[0].endswith(ANSWERS_MARK)
        and os.path.isfile(os.path.join(folder, name))
    ]


def collect(paths: list[str]) -> list[Grid | InputError]:
    """Every puzzle under ``paths`` (pack files, or folders of grid files, read in name order)."""
    entries: list[Grid | InputError] = []
    for path in paths:
        if os.path.isdir(path):
            names = folder_grid_files(path)
            if not names:
                entries.append(InputError("folder holds no grid files", path))
            for name in names:
                entries.extend(_load(name))
        else:
            entries.extend(_load(path))
    return entries


def _load(path: str) -> list[Grid | InputError]:
    try:
        return load_pack(path)
    except InputError as error:
        return [error]


def pick_grid(entries: list[Grid | InputError], name: str | None, index: int | None, path: str | None) -> Grid:
    """The grid of a pack that a ``--name`` (its ``# name:``) or ``--index`` (from 1) asks
    for, the first without either; a grid that breaks the format raises its error."""
    if name is not None:
        found = [e for e in entries if isinstance(e, Grid) and e.name == name]
        if not found:
            raise InputError(f"no grid named {name!r} in this pack", path)
        return found[0]
    position = 1 if index is None else index
    if not 1 <= position <= len(entries):
        raise InputError(f"--index {position}: the pack has {len(entries)} grid(s)", path)
    entry = entries[position - 1]
    if isinstance(entry, InputError):
        raise entry
    return entry


def load_grid(path: str, choose: str = "") -> Grid:
    """The single grid in a file; errors raise, and so does a file of several grids (which one
    was meant cannot be guessed; ``choose`` says how to pick one, where there is a way)."""
    entries = load_pack(path)
    if len(entries) > 1:
        raise InputError(f"this file holds {len(entries)} grids; one is expected here{choose}", display_name(path))
    entry = entries[0]
    if isinstance(entry, InputError):
        raise entry
    return entry


def format_grid(grid: Grid, solution: tuple[str, ...] | None = None) -> str:
    """The grid in the file format, with its metadata (and ``solution``, if given) above it."""
    metadata = dict(grid.metadata)
    if grid.name:
        metadata["name"] = grid.name
    if solution is not None:
        metadata["solution"] = "/".join(solution)
    order = ["name", "level"] + sorted(k for k in metadata if k not in ("name", "level", "solution"))
    order.append("solution")
    lines = [f"# {key}: {metadata[key]}" for key in order if key in metadata]
    return "\n".join(lines + list(grid.rows)) + "\n"
