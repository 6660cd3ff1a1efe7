"""The face a game package shows a library user: its main calls by name, loaded on first use.

``import placesat.lixso`` must stay light (no numpy, OR-Tools or typer until a call needs
them), so a package lists what it re-exports from its rooms and this module loads each on
first access. Several calls carry the name of the room they live in (``placesat.lixso.solve``
the function, ``placesat.lixso.solve`` the module ``solve.py``): importing the room would
make the package's attribute the module, so a package that exports a call by that name keeps
it (the module stays in ``sys.modules``, where ``from placesat.lixso.solve import ...`` finds it).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType


class _Package(ModuleType):
    """A game package: its lazy re-exports, and its calls kept over same-named rooms."""

    def __getattr__(self, name: str):
        lazy = self.__dict__.get("_lazy_exports", {})
        if name not in lazy:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        room = lazy[name]
        if room is None:  # a subpackage: the module itself (placesat.lixso.game)
            return importlib.import_module(f"{self.__name__}.{name}")
        value = getattr(importlib.import_module(room, self.__name__), name)
        self.__dict__[name] = value  # found once, then an ordinary attribute
        return value

    def __setattr__(self, name: str, value) -> None:
        # the import system sets a package's attribute to each submodule it loads: a call
        # exported under the submodule's name stays the call
        if isinstance(value, ModuleType) and callable(self.__dict__.get(name)):
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.__dict__.get("_lazy_exports", {})))


def export(package: str, lazy: dict[str, str | None]) -> None:
    """Give ``package`` (a ``__name__``) its public face: ``lazy`` maps each re-exported name
    to the room it comes from (``".model"``), imported when the name is first used; None
    names a subpackage, imported when first named (``placesat.lixso.game``)."""
    module = sys.modules[package]
    module.__dict__["_lazy_exports"] = dict(lazy)
    module.__class__ = _Package
