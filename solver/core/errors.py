"""Errors that carry where in the input something went wrong."""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    """``text`` with every control character written as an escape, as ``repr`` writes it
    (``\\x1b``, ``\\n``, ``\\u2028``): line breaks, terminal escape sequences and the
    invisible marks that turn text around (bidirectional overrides).

    Names, keys and values from input pass through here before they reach a message or a
    terminal: a key holding a line break made a one-line error two lines (a file could fake a
    "Traceback" line), and a ``# name:`` holding an escape sequence retitled the terminal's
    window or cleared the screen.
    """
    if _UNPRINTABLE.search(text) is None:
        return text
    return _UNPRINTABLE.sub(lambda match: repr(match.group())[1:-1], text)


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
        return escape_controls(":".join(where) + ": " + self.message if where else self.message)
