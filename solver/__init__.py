"""placesat: compile the placement rules of board games and puzzles into SAT and CP-SAT.

Installed as one package, ``placesat``, from the repository's folders: ``solver/`` is
``placesat`` itself (``placesat.core``, ``placesat.lixso``, ...), ``cli/`` is ``placesat.cli``.
Three floors, every import pointing down: ``placesat.cli`` -> ``placesat.<game>`` ->
``placesat.core``; importing ``placesat`` or a game loads no command line.

The Python API (docs/api.md): each game's main calls by name, ``placesat.lixso.solve``,
``placesat.laido.score``, ``placesat.lsd.reach``, ``placesat.quarry.reach``,
``placesat.logisticks.analyze``, ``placesat.lixso.game.solve`` ...; a game package is loaded
when first named (``import placesat`` alone loads none). The shipped grids are package data:
``placesat.data.path("lixso/level-1.txt")``. Bad input raises
:class:`placesat.InputError`, with the message the command line prints.
"""

import importlib as _importlib

from .core.errors import InputError

__version__ = "0.2.0"

GAMES = ("lixso", "laido", "lsd", "quarry", "logisticks")

__all__ = ["InputError", "__version__", "data", "playable", *GAMES]

PLAYABLE = {
    "lsd": ("lsd.play", "LsdPlay"),
    "quarry": ("quarry.play", "QuarryPlayable"),
    "logisticks": ("logisticks.play", "LogiSticks"),
    "lixso-game": ("lixso.game.play", "LixsoPlayable"),
    "laido": ("laido.play", "LaidoPlayable"),
}
"""Each game as ``placesat selfplay GAME`` names it: the room and class of its
:class:`placesat.core.play.Playable`."""


def playable(name: str, *args, **options):
    """A new :class:`~placesat.core.play.Playable` of the game ``name`` (a key of
    :data:`PLAYABLE`), made with ``args`` and ``options`` (Laido's board side, a backend):
    what engines, benchmarks and tests play on. Only that game is imported."""
    if name not in PLAYABLE:
        raise InputError(f"no game {name!r}: one of {', '.join(sorted(PLAYABLE))}")
    room, cls = PLAYABLE[name]
    return getattr(_importlib.import_module(f".{room}", __name__), cls)(*args, **options)


def __getattr__(name: str):
    # placesat.lixso without importing it first: the game is loaded on first use (and the
    # shipped grids, placesat.data, when first named)
    if name in GAMES or name == "data":
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
