"""Writing results: atomically, and only ever over a regular file.

An atomic write puts the text in a temporary file beside the target and renames it over
the target, so a reader never sees half a file and an interrupted command leaves the old
one whole. A rename replaces whatever the name points at, so the target is checked
first: a device, a FIFO, a socket or a directory is refused (renaming over ``/dev/null``
as root would replace the device node), and a symbolic link is followed, so its target
file is replaced and the link stays.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import tempfile

from .errors import InputError

STDOUT = "-"
"""The output path that means standard output."""


class OutputError(InputError):
    """An output path that cannot be written (bad usage: exit code 2)."""


EXIT_OUTPUT_FAILED = 74
"""The exit code when an output could not be written for a reason of the machine, not of the
command line: a full disk, an I/O error, a closed standard output (``EX_IOERR`` of sysexits)."""


class OutputFailed(Exception):
    """Writing an output failed for a reason of the machine (exit code 74): the command's
    answer did not all arrive, and saying so is the honest end."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(f"{path}: {message}" if path else message)


_MACHINE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
"""Errors of writing that no command line can mend: the disk or the device is at fault."""


class _StandardOutputRaw(io.RawIOBase):
    """File descriptor 1 as a raw stream whose failures say what failed: a full device or an
    I/O error becomes :class:`OutputFailed` ("standard output: No space left on device"), a
    descriptor that was closed before the program started becomes one too. A reader that went
    away (``EPIPE``) stays a ``BrokenPipeError``, which the program ends quietly with 141."""

    def __init__(self, open_at_start: bool) -> None:
        super().__init__()
        self.open_at_start = open_at_start

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if not self.open_at_start:
            raise OSError(errno.EBADF, "standard output is closed")
        return 1

    def isatty(self) -> bool:
        return self.open_at_start and os.isatty(1)

    def write(self, data) -> int:
        if not self.open_at_start:
            raise OutputFailed("standard output is closed")
        try:
            return os.write(1, data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailed(f"cannot write standard output: {error.strerror or error}") from None


def guard_standard_output() -> None:
    """Make ``sys.stdout`` report a closed or failing standard output as :class:`OutputFailed`.

    Python sets ``sys.stdout`` to None when descriptor 1 is closed at start (``placesat ...
    >&-``), and a full device (``> /dev/full``) raises a bare ``OSError`` from whichever print
    happens to flush: both ended in a traceback or an internal error. Call this once, at the
    program's start, before anything is printed.
    """
    current = sys.stdout
    open_at_start = current is not None
    if open_at_start:
        try:
            os.fstat(1)
        except OSError:
            open_at_start = False
    encoding = getattr(current, "encoding", None) or "utf-8"
    errors = getattr(current, "errors", None) or "strict"
    line_buffering = bool(getattr(current, "line_buffering", False))
    write_through = bool(getattr(current, "write_through", False))
    raw = _StandardOutputRaw(open_at_start)
    # buffered as the interpreter had it (PYTHONUNBUFFERED or -u: not at all)
    buffer = raw if isinstance(getattr(current, "buffer", None), io.RawIOBase) else io.BufferedWriter(raw)
    sys.stdout = io.TextIOWrapper(buffer, encoding=encoding, errors=errors, line_buffering=line_buffering, write_through=write_through)


def resolve_output(path: str) -> str:
    """The file an output path really names: symlinks followed; refused unless it is a
    regular file or does not exist yet in a writable folder.

    Call it before the work starts, so a bad ``--out`` fails at once, not after it.
    """
    if path == STDOUT:
        return path
    if not path:
        raise OutputError("empty output path")
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"cannot write: {error.strerror or error}", path) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = (
            "a directory" if stat.S_ISDIR(info.st_mode)
            else "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode)
            else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "not a regular file"
        )
        raise OutputError(f"is {kind}; only a regular file (or a new path) is written", path)
    folder = os.path.dirname(target) or "."
    # the folder as the user wrote it, unless a link leads elsewhere: then where it leads
    shown = folder if os.path.islink(path) else os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write: the folder {shown} does not exist", path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write: the folder {shown} is not writable", path)
    if info is not None and not os.access(target, os.W_OK):
        raise OutputError("cannot write: permission denied", path)
    return target


def write_atomic(path: str, data: str | bytes) -> None:
    """Replace ``path`` (``-``: standard output) with ``data``, atomically.

    The new file keeps the permission bits of the file it replaces (or gets the usual
    ones for a new file). Raises :class:`OutputError` when it cannot be written; then
    nothing is left behind.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if path == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.flush()
        return
    target = resolve_output(path)
    folder = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    temporary = None
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        if error.errno in _MACHINE_ERRORS:
            raise OutputFailed(f"cannot write: {error.strerror or error}", path) from None
        raise OutputError(f"cannot write: {error.strerror or error}", path) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def prepare_output_folder(path: str) -> str:
    """A folder that outputs will be written into, created (with its parents) when missing;
    refused when the path is something else or cannot be written. Call it before the work."""
    if not path or path == STDOUT:
        raise OutputError("an output folder is needed here, not standard output", path or None)
    if os.path.exists(path) and not os.path.isdir(path):
        raise OutputError("is not a folder; certificates are written into a folder", path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create the folder: {error.strerror or error}", path) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError("cannot write: the folder is not writable", path)
    return path
