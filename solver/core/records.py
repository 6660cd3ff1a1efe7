"""Reading a long text input line by line: memory flat in its length, a cap on each line.

:func:`placesat.core.inputs.read_text` reads a whole input under one cap, which is right for one
grid or one position and wrong for a pack of a million puzzles. Here the input is read as a
stream of lines: any length in all, each line under :data:`MAX_LINE_BYTES` (a longer one is
skipped without being kept, and said to be too long, so that the lines after it are still
read). The same safety holds as for whole inputs: a FIFO, a device, a socket or a folder is
refused before it is read; a NUL byte or text that is not UTF-8 ends the input with an
:class:`placesat.core.errors.InputError` naming the line and column.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterator

from .errors import InputError
from .inputs import MAX_INPUT_BYTES, STDIN, display_name, open_regular

MAX_LINE_BYTES = MAX_INPUT_BYTES
"""The longest line read; a longer one is skipped (what a whole input may hold, one line may)."""

_BLOCK = 1 << 20


class StreamedInput:
    """The lines of one input, as ``(line number from 1, text)``; ``text`` is None for a line
    longer than the cap (skipped). ``bytes_read`` says how far the reading has come."""

    def __init__(self, path: str, line_limit: int = MAX_LINE_BYTES) -> None:
        self.path = path
        self.name = display_name(path)
        self.line_limit = line_limit
        self.bytes_read = 0

    def size(self) -> int | None:
        """The input's length in bytes, when it is a file (None for standard input)."""
        if self.path == STDIN:
            return None
        try:
            return os.stat(self.path).st_size
        except OSError:
            return None

    def __iter__(self) -> Iterator[tuple[int, str | None]]:
        if self.path == STDIN:
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise InputError("standard input is closed", self.name)
            yield from self._lines(stream)
            return
        handle = _open_regular(self.path)
        with handle:
            try:
                yield from self._lines(handle)
            except OSError as error:
                raise InputError(f"cannot read: {error.strerror or error}", self.name) from None

    def _lines(self, handle: Any) -> Iterator[tuple[int, str | None]]:
        number = 0
        first = True
        while True:
            raw = handle.readline(self.line_limit + 1)
            if not raw:
                return
            self.bytes_read += len(raw)
            if len(raw) > self.line_limit and not raw.endswith(b"\n"):
                # too long: skip to its end without keeping it
                while True:
                    rest = handle.readline(_BLOCK)
                    self.bytes_read += len(rest)
                    if not rest or rest.endswith(b"\n"):
                        break
                number += 1
                yield number, None
                first = False
                continue
            if first:
                first = False
                if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark is not part of the text
                    raw = raw[3:]
            # a line ends at \n, \r\n or \r, as inputs.split_lines counts them
            body = raw[:-1] if raw.endswith(b"\n") else raw
            if body.endswith(b"\r") and raw.endswith(b"\n"):
                body = body[:-1]
            parts = body.split(b"\r") if b"\r" in body else [body]
            for part in parts:
                number += 1
                yield number, self._decode(part, number)

    def _decode(self, data: bytes, number: int) -> str:
        if b"\x00" in data:
            raise InputError("binary data (NUL byte), not a text file", self.name, number, data.index(b"\x00") + 1)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            column = len(data[: error.start].decode("utf-8", errors="replace")) + 1
            raise InputError("not UTF-8 text", self.name, number, column) from None


def _open_regular(path: str) -> Any:
    """A regular file opened for reading, read in blocks of :data:`_BLOCK` (see inputs.open_regular)."""
    return open_regular(path, buffering=_BLOCK)


class RecordLog:
    """A file that grows by whole records: each :meth:`append` is one write of the whole
    record at the end of the file, so a process killed at any moment leaves every record it
    appended complete, and never part of one (a power cut may still cut the last: whoever
    resumes drops an incomplete tail, see :meth:`truncate`). Written records reach the disk
    (``fsync``) at least every ``sync_seconds`` and when the log is closed. ``-`` is standard
    output (flushed after each record)."""

    def __init__(self, path: str, fresh: bool = True, sync_seconds: float = 1.0) -> None:
        import time

        from .outputs import OutputError, resolve_output

        self.path = path
        self.sync_seconds = sync_seconds
        self._clock = time.monotonic
        self._synced = self._clock()
        self._dirty = False
        if path == "-":
            self.descriptor = None
            return
        target = resolve_output(path)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0) | (os.O_TRUNC if fresh else 0)
        try:
            self.descriptor = os.open(target, flags, 0o666)
        except OSError as error:
            raise OutputError(f"cannot write: {error.strerror or error}", path) from None

    def append(self, text: str) -> None:
        """Add one whole record at the end."""
        data = text.encode("utf-8")
        if self.descriptor is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        view = memoryview(data)
        while view:  # a regular file takes it in one write; a short one is carried on
            view = view[os.write(self.descriptor, view):]
        self._dirty = True
        if self._clock() - self._synced >= self.sync_seconds:
            self.sync()

    def sync(self) -> None:
        """Make what was appended reach the disk."""
        if self.descriptor is not None and self._dirty:
            os.fsync(self.descriptor)
            self._dirty = False
        self._synced = self._clock()

    def close(self) -> None:
        if self.descriptor is not None:
            try:
                self.sync()
            finally:
                os.close(self.descriptor)
                self.descriptor = None

    def __enter__(self) -> "RecordLog":
        return self

    def __exit__(self, *exc: object) -> bool:
        self.close()
        return False


def truncate(path: str, length: int) -> None:
    """Cut ``path`` to its first ``length`` bytes (an incomplete last record dropped)."""
    os.truncate(path, length)
