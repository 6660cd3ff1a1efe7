"""Reading what a user hands us: files, standard input, text lines and JSON, safely.

Everything here turns a bad input into an :class:`placesat.core.errors.InputError` that
names the file and, where it can, the line and column or the JSON path. Nothing here
blocks on a FIFO, reads a device without end, or lets a hostile JSON document raise
anything but that one error.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
from typing import Any, Callable, Iterator, TypeVar

from .errors import InputError

STDIN = "-"
"""The path that means standard input."""

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The most we read from one input; a larger one is refused, never read to its end."""

MAX_JSON_DEPTH = 64
"""Deepest nesting of JSON arrays and objects accepted; our formats need fewer than ten."""

MAX_JSON_DIGITS = 30
"""Longest integer literal accepted in JSON; every number our formats use is far shorter."""

_CHUNK = 1 << 16

T = TypeVar("T")


def display_name(path: str) -> str:
    """How messages name an input: ``<stdin>`` for ``-``, the path otherwise."""
    return "<stdin>" if path == STDIN else path


def read_bytes(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file, or of standard input when ``path`` is ``-``.

    A FIFO, a device, a socket or a directory is refused before it is read (opening a
    FIFO would wait for a writer; a device may never end); the size is capped while
    reading, since ``st_size`` says nothing about a stream.
    """
    if path == STDIN:
        return _read_capped(standard_input(), "<stdin>", limit)
    with open_regular(path) as handle:
        try:
            return _read_capped(handle, path, limit)
        except OSError as error:
            raise InputError(f"cannot read: {error.strerror or error}", path) from None


def open_regular(path: str, buffering: int = -1) -> Any:
    """A regular file opened for reading in binary, or an :class:`InputError`: a FIFO, a
    device, a socket or a directory is refused before it is opened for reading (opening a FIFO
    would wait for a writer; a device may never end), and again on what was opened, should the
    path have changed in between."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", path) from None
    _require_regular(info.st_mode, path)
    try:
        # O_NONBLOCK: if the path became a FIFO since the stat, open() must not wait for a writer
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", path) from None
    handle = os.fdopen(descriptor, "rb", buffering=buffering)
    _require_regular(os.fstat(handle.fileno()).st_mode, path)
    return handle


def standard_input() -> Any:
    """Standard input as a binary stream; an :class:`InputError` when it is closed (Python
    sets ``sys.stdin`` to None when descriptor 0 was closed at start: ``placesat ... - <&-``)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError("standard input is closed", "<stdin>")
    return stream


def _require_regular(mode: int, path: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = (
        "a directory" if stat.S_ISDIR(mode)
        else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
        else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket" if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise InputError(f"is {kind}, not a regular file (use - to read standard input)", path)


def _read_capped(handle: Any, name: str, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while True:
        block = handle.read(min(_CHUNK, limit + 1 - size))
        if not block:
            return b"".join(parts)
        parts.append(block)
        size += len(block)
        if size > limit:
            raise InputError(f"input too large (more than {limit} bytes)", name)


def decode_text(data: bytes, path: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); binary or other encodings are refused."""
    name = display_name(path)
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line, column = _byte_position(data, offset)
        raise InputError("binary data (NUL byte), not a text file", name, line, column)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, column = _byte_position(data, error.start)
        raise InputError("not UTF-8 text", name, line, column) from None


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    head = data[:offset].decode("utf-8", errors="replace")
    lines = split_lines(head)
    return len(lines), len(lines[-1]) + 1


def read_text(path: str, limit: int = MAX_INPUT_BYTES) -> str:
    """A user's file (or standard input for ``-``) as text; every failure is an ``InputError``."""
    return decode_text(read_bytes(path, limit), path)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as a text editor counts them: broken at ``\\n``, ``\\r\\n`` or ``\\r``.

    Unlike :meth:`str.splitlines`, a form feed, a vertical tab or U+2028 is a character in
    its line, so line numbers in messages match what the user sees.
    """
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines or [""]


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number from 1, line)`` for each line of ``text`` (see :func:`split_lines`)."""
    if not text:
        return iter(())
    return enumerate(split_lines(text), start=1)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column (from 1) of character ``offset`` in ``text``."""
    lines = split_lines(text[:offset] + "x")
    return len(lines), len(lines[-1])


_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")


def parse_integer(text: str, where: str) -> int:
    """An integer typed by a person (a coordinate in a move, a number in a text line).

    The same limits as JSON numbers hold (:data:`MAX_JSON_DIGITS` digits at most), and only
    ASCII digits count: Python's ``int`` would also read a full-width ``９`` or an Arabic-Indic
    digit, and a 5,000-digit number would meet the interpreter's own conversion limit.
    """
    stripped = text.strip()
    if not _INTEGER_TEXT.fullmatch(stripped):
        raise InputError(f"{where}: {stripped[:20]!r} is not a whole number")
    digits = len(stripped.lstrip("+-"))
    if digits > MAX_JSON_DIGITS:
        raise InputError(f"{where}: a number with {digits} digits (the most accepted is {MAX_JSON_DIGITS})")
    return int(stripped)


# --------------------------------------------------------------------------- JSON


class _JsonObject(dict):
    """A decoded JSON object that remembers keys it saw twice (reported with their path)."""

    duplicates: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    result = _JsonObject()
    duplicates = []
    for key, value in pairs:
        if key in result:
            duplicates.append(key)
        result[key] = value
    result.duplicates = duplicates
    return result


class _RejectedLiteral(ValueError):
    def __init__(self, message: str, literal: str) -> None:
        super().__init__(message)
        self.literal = literal


def _parse_int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_JSON_DIGITS:
        raise _RejectedLiteral(f"a number with {digits} digits (the most accepted is {MAX_JSON_DIGITS})", literal)
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _RejectedLiteral(f"the number {literal[:20]} is out of range", literal)
    return value


def _parse_constant(name: str) -> float:
    raise _RejectedLiteral(f"{name} is not JSON (only finite numbers are)", name)


_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_INNERMOST_PAIR = re.compile(r"\[\]|\{\}")
_DIGITS_ONLY = str.maketrans({**{chr(c): " " for c in range(128)}, **{d: "9" for d in "0123456789"}})
_BRACKETS_ONLY = str.maketrans({chr(c): None for c in range(128) if chr(c) not in "[]{}"})


def _check_depth(text: str, path: str) -> None:
    """Refuse nesting deeper than :data:`MAX_JSON_DEPTH` before the decoder recurses into it."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line, column = line_and_column(text, match.start())
                raise InputError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep", display_name(path), line, column)
        elif token in "]}":
            depth -= 1


class _DuplicateKey(ValueError):
    """An object gave a key twice: the careful decoder then finds its path."""


def _plain_object(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey()
    return result


def _surely_within_limits(text: str) -> bool:
    """Whether ``text`` certainly nests no deeper than :data:`MAX_JSON_DEPTH` and holds no
    digit run longer than :data:`MAX_JSON_DIGITS` outside its strings.

    Every step is one pass of the regular-expression engine or of ``str.translate`` over the
    text, not a Python loop per token (16 MB took 9 s that way, against 0.9 s for the decoder
    itself): strings are blanked, and the nesting is peeled one level a pass, innermost pairs
    first. A False may be
    wrong (unbalanced brackets, say); :func:`parse_json` then takes the careful way, which
    finds and places the problem, so it never decides an answer.
    """
    skeleton = _STRING.sub('""', text)
    if "9" * (MAX_JSON_DIGITS + 1) in skeleton.translate(_DIGITS_ONLY):
        return False
    if skeleton.count("[") + skeleton.count("{") <= MAX_JSON_DEPTH:
        return True
    brackets = skeleton.translate(_BRACKETS_ONLY)  # other characters than ASCII stay, and end the peeling
    for _ in range(MAX_JSON_DEPTH):
        brackets, peeled = _INNERMOST_PAIR.subn("", brackets)
        if not brackets:
            return True
        if not peeled:
            return False
    return False


def parse_json(text: str, path: str) -> Any:
    """Decode a JSON document strictly.

    Refused, each with the place it happens: syntax errors, nesting deeper than
    :data:`MAX_JSON_DEPTH`, integers longer than :data:`MAX_JSON_DIGITS` digits, NaN and
    Infinity, and an object with the same key twice (named by its JSON path).

    A document that passes the quick checks is decoded by the plain decoder with two light
    hooks; anything they doubt is decoded again the careful way, which names the place.
    """
    if _surely_within_limits(text):
        try:
            return json.loads(text, object_pairs_hook=_plain_object, parse_float=_parse_float, parse_constant=_parse_constant)
        except (json.JSONDecodeError, _RejectedLiteral, _DuplicateKey, RecursionError):
            pass  # the careful decoder says what and where
    return _parse_json_carefully(text, path)


def _parse_json_carefully(text: str, path: str) -> Any:
    """:func:`parse_json` token by token where it matters: slower, and it places every refusal."""
    name = display_name(path)
    _check_depth(text, path)
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        line, column = line_and_column(text, error.pos)
        raise InputError(f"malformed JSON: {error.msg}", name, line, column) from None
    except _RejectedLiteral as error:
        where = text.find(error.literal)
        line, column = line_and_column(text, where) if where >= 0 else (None, None)
        raise InputError(str(error), name, line, column) from None
    except RecursionError:  # a guard behind _check_depth, should the decoder ever recurse deeper
        raise InputError("JSON nested too deeply", name) from None
    duplicate = _first_duplicate(value, "")
    if duplicate is not None:
        raise InputError(f"{duplicate}: the same key appears twice in one object", name)
    return _plain(value)


def _plain(value: Any) -> Any:
    """The careful decoder's objects as plain dicts, as the quick way gives them."""
    if isinstance(value, dict):
        return {key: _plain(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_plain(child) for child in value]
    return value


def _first_duplicate(value: Any, where: str) -> str | None:
    """The JSON path of the first key given twice in one object, or None."""
    stack = [(value, where)]
    while stack:
        node, here = stack.pop()
        if isinstance(node, _JsonObject):
            if node.duplicates:
                return json_path(here, node.duplicates[0])
            stack.extend((child, json_path(here, key)) for key, child in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((child, json_path(here, i)) for i, child in reversed(list(enumerate(node))))
    return None


def load_json(path: str) -> Any:
    """Read and strictly decode the JSON document at ``path`` (``-``: standard input)."""
    return parse_json(read_text(path), path)


def parse_json_as(text: str, path: str | None, build: Callable[[Any], T]) -> T:
    """Decode ``text`` strictly (:func:`parse_json`) and make a model of it with ``build``.

    ``build`` raises :class:`InputError` naming the JSON path of a bad field; the error then
    also names the file, so every message reads ``file: json.path: what is wrong``.
    """
    raw = parse_json(text, path or "<input>")
    try:
        return build(raw)
    except InputError as error:
        raise error.located(display_name(path)) if path else error


def load_json_as(path: str, build: Callable[[Any], T]) -> T:
    """Read the JSON document at ``path`` (``-``: standard input) and make a model of it (see
    :func:`parse_json_as`)."""
    return parse_json_as(read_text(path), path, build)


def json_path(parent: str, key: str | int) -> str:
    """The JSON path of ``key`` inside ``parent``: ``moves[3]``, ``tiles[0].at``, ``size``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def shown(value: Any, width: int = 40) -> str:
    """A decoded JSON value as a short piece of JSON for an error message."""
    text = json.dumps(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def expect_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an integer from ``lo`` to ``hi``; ``true``, ``1.0`` and ``"1"`` are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        span = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
        raise InputError(f"{where}: must be an integer{span}, not {shown(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        low = "" if lo is None else str(lo)
        high = "" if hi is None else str(hi)
        span = f"from {low} to {high}" if lo is not None and hi is not None else (f"at least {low}" if lo is not None else f"at most {high}")
        raise InputError(f"{where}: must be {span}, not {value}")
    return value


def expect_str(value: Any, where: str, choices: tuple[str, ...] | None = None) -> str:
    """``value`` as a string (one of ``choices`` when given)."""
    if not isinstance(value, str) or (choices is not None and value not in choices):
        wanted = "one of " + ", ".join(json.dumps(c) for c in choices) if choices else "a string"
        raise InputError(f"{where}: must be {wanted}, not {shown(value)}")
    return value


def expect_bool(value: Any, where: str) -> bool:
    """``value`` as ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise InputError(f"{where}: must be true or false, not {shown(value)}")
    return value


def expect_list(value: Any, where: str, what: str = "a list") -> list:
    """``value`` as a JSON array."""
    if not isinstance(value, list):
        raise InputError(f"{where}: must be {what}, not {shown(value)}")
    return value


def expect_object(value: Any, where: str, keys: tuple[str, ...] | None = None, what: str = "an object") -> dict:
    """``value`` as a JSON object; with ``keys``, any other key is refused by name."""
    if not isinstance(value, dict):
        raise InputError(f"{where or 'the document'}: must be {what}, not {shown(value)}")
    if keys is not None:
        for key in value:
            if key not in keys:
                raise InputError(f"{json_path(where, key)}: unknown key (expected {', '.join(keys)})")
    return value
