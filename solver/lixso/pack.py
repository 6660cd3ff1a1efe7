"""Packs read as streams: one grid at a time, whatever the pack's length.

:func:`placesat.lixso.model.collect` reads every pack whole (under the 16 MB cap of one input)
and keeps every grid; a publisher's pack of a million puzzles is neither. Here the grids
come one by one, in file order, read line by line (:mod:`placesat.core.records`): memory stays
flat in the pack's length, and only a record (a grid and its metadata) has a cap.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from ..core.errors import InputError
from ..core.inputs import STDIN, display_name
from ..core.records import StreamedInput
from .model import Grid, answers_beside, folder_grid_files, looks_like_id, parse_id, read_grids, with_answers


class PackStream:
    """Every puzzle under some paths (pack files, folders of grid files in name order, puzzle
    IDs, ``-``), in order, each a :class:`Grid` or the :class:`InputError` that says why it
    could not be read. ``fraction()`` says how much of the files has been read (None when
    some input has no known length), for progress bars."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = list(paths)
        self._inputs: list[StreamedInput] = []
        self._total: int | None = 0
        for path in self._files():
            if isinstance(path, str) and path != STDIN and os.path.isfile(path):
                self._total = None if self._total is None else self._total + os.path.getsize(path)
            elif path == STDIN:
                self._total = None

    def _files(self) -> Iterator[str | InputError]:
        for path in self.paths:
            if os.path.isdir(path):
                names = folder_grid_files(path)
                if not names:
                    yield InputError("folder holds no grid files", path)
                yield from names
            else:
                yield path

    def fraction(self) -> float | None:
        if not self._total:
            return None
        return min(sum(source.bytes_read for source in self._inputs) / self._total, 1.0)

    def __iter__(self) -> Iterator[Grid | InputError]:
        for path in self._files():
            if isinstance(path, InputError):
                yield path
            elif looks_like_id(path) and not os.path.exists(path):
                try:
                    yield parse_id(path)
                except InputError as error:
                    yield error
            else:
                yield from self._pack(path)

    def _pack(self, path: str) -> Iterator[Grid | InputError]:
        source = StreamedInput(path)
        self._inputs.append(source)
        found = False
        grids = read_grids(source, display_name(path))
        beside = answers_beside(path)
        if beside is not None:  # read alongside, a window at a time: memory stays flat
            grids = with_answers(grids, read_grids(StreamedInput(beside), display_name(beside)))
        try:
            for entry in grids:
                found = True
                yield entry
        except InputError as error:  # the file cannot be read on from here (binary, not UTF-8, gone)
            yield error
            return
        if not found:
            yield InputError("no grid in this file (empty, or only comments)", display_name(path))


def stream_pack(paths: list[str]) -> PackStream:
    """The puzzles under ``paths``, one at a time (see :class:`PackStream`)."""
    return PackStream(paths)


def repeated_names(entries: Iterable[Grid | InputError], on_repeat: Callable[[Grid], None]) -> Iterator[Grid | InputError]:
    """The same ``entries``, calling ``on_repeat(grid)`` for each grid whose name an earlier
    grid of the stream already had: a name should find one puzzle (``hint --name``, the print
    captions). The names seen are kept as 8-byte digests, so a million of them take tens of
    megabytes rather than the names' own length."""
    import hashlib

    seen: set[bytes] = set()
    for entry in entries:
        if isinstance(entry, Grid) and entry.name:
            digest = hashlib.blake2b(entry.name.encode("utf-8", "surrogatepass"), digest_size=8).digest()
            if digest in seen:
                on_repeat(entry)
            seen.add(digest)
        yield entry
