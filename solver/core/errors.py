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
