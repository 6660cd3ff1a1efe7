"""Errors that carry where in the input something went wrong."""

from __future__ import annotations


class InputError(Exception):
    """Bad input from a user: a file that cannot be read, or a position or grid that breaks the format.

    ``str(error)`` is one line in the usual ``path:line:column: message`` shape, leaving out
    the parts that are not known. The CLI prints it and exits with code 2.
    """

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def located(self, path: str) -> "InputError":
        """The same error, naming ``path`` as its file when it did not name one yet."""
        if self.path is None:
            self.path = path
        return self

    def __str__(self) -> str:
        where = [str(part) for part in (self.path, self.line, self.column) if part is not None]
        return ":".join(where) + ": " + self.message if where else self.message


MAX_INPUT_BYTES = 16 * 1024 * 1024


def read_text(path: str) -> str:
    """Read a user's file as UTF-8 text, turning every way that can fail into an ``InputError``."""
    import os

    if not os.path.exists(path):
        raise InputError("no such file", path)
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", path)
    try:
        size = os.path.getsize(path)
        if size > MAX_INPUT_BYTES:
            raise InputError(f"file too large ({size} bytes; the limit is {MAX_INPUT_BYTES})", path)
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", path) from None
    if b"\x00" in data:
        raise InputError("binary data (NUL byte), not a text file", path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError("not UTF-8 text", path, line, column) from None
