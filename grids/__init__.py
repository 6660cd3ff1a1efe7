"""The grids and positions shipped with placesat, as package data: ``placesat.data``.

This folder is ``grids/`` in the repository and the package ``placesat.data`` once installed
(pyproject.toml maps it, and its package-data carries every file), so a wheel's users load
the shipped puzzles as the repository's do::

    import placesat
    pack = placesat.lixso.load_pack(placesat.data.path("lixso/level-5.txt"))

Files are named by their path under ``grids/``, with ``/``: ``examples.txt``,
``lixso/level-1.txt`` (and its ``.answers.txt``), ``lixso-game/9x9-endgame.txt``,
``laido/hand.json``, ``lsd/double-threat.json``, ``quarry/midgame.json``,
``logisticks/late.json``; :func:`names` lists them all.
"""

from __future__ import annotations

from importlib.resources import files

from placesat.core.errors import InputError

__all__ = ["path", "names", "read_text"]

# what a shipped file may be (this module is the only other thing in the package)
_KINDS = (".txt", ".json")


def names(folder: str | None = None) -> list[str]:
    """Every shipped file's name (``"lixso/level-1.txt"``, ``"laido/proofs/empty2.proof.json"``:
    folders at any depth), sorted; ``folder`` (``"lixso"``,
    ``"laido"``, ...) keeps those in it."""
    found = []

    def walk(entry, prefix: str) -> None:
        for inner in entry.iterdir():
            if inner.is_file() and inner.name.endswith(_KINDS):
                found.append(prefix + inner.name)
            elif inner.is_dir() and not inner.name.startswith(("_", ".")):
                walk(inner, f"{prefix}{inner.name}/")

    walk(files(__name__), "")
    return sorted(name for name in found if folder is None or name.startswith(folder.rstrip("/") + "/"))


def path(name: str) -> str:
    """The path of the shipped file ``name`` (``"lixso/level-5.txt"``), as every ``load_*``
    call takes it (a Lixso pack's answers file is found beside it, as for any pack).
    ``InputError`` when no such file is shipped."""
    if name not in names():
        raise InputError(f"no shipped file {name!r} (placesat.data.names() lists them)")
    return str(files(__name__).joinpath(*name.split("/")))


def read_text(name: str) -> str:
    """The text of the shipped file ``name`` (see :func:`path`)."""
    with open(path(name), encoding="utf-8") as handle:
        return handle.read()
