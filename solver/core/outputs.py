"""Writing results: atomically, and only ever over a regular file.

An atomic write puts the text in a temporary file beside the target and renames it over
the target, so a reader never sees half a file and an interrupted command leaves the old
one whole. A rename replaces whatever the name points at, so the target is checked
first: a device, a FIFO, a socket or a directory is refused (renaming over ``/dev/null``
as root would replace the device node), and a symbolic link is followed, so its target
file is replaced and the link stays.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile

from .errors import InputError

STDOUT = "-"
"""The output path that means standard output."""


class OutputError(InputError):
    """An output path that cannot be written (bad usage: exit code 2)."""


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
