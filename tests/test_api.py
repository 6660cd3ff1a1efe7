"""The Python API (docs/api.md): every example on the page runs, each call is the library's own,
and importing a game loads no solver and no command line."""

from __future__ import annotations

import doctest
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import placesat

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("placesat.lixso", "placesat.lixso.game", "placesat.laido", "placesat.lsd", "placesat.quarry", "placesat.logisticks")


def test_every_example_in_the_api_page_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name the shipped files from the repository's root
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, globs={},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False,
    )
    assert tried > 30
    assert failures == 0


@pytest.mark.parametrize("package", GAMES)
def test_every_exported_name_is_there_and_every_call_is_documented(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isfunction(value):
            assert value.__doc__, f"{package}.{name} has no docstring"
            assert "return" in inspect.get_annotations(value), f"{package}.{name} has no return type"
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package, call, room", [
    ("placesat.lixso", "solve", "placesat.lixso.solve"),
    ("placesat.lixso", "generate", "placesat.lixso.generate"),
    ("placesat.lixso", "verify", "placesat.lixso.verify"),
    ("placesat.lixso.game", "solve", "placesat.lixso.game.solve"),
    ("placesat.laido", "score", "placesat.laido.score"),
    ("placesat.lsd", "reach", "placesat.lsd.reach"),
    ("placesat.lsd", "forced", "placesat.lsd.forced"),
    ("placesat.quarry", "reach", "placesat.quarry.reach"),
    ("placesat.logisticks", "analyze", "placesat.logisticks.analyze"),
])
def test_a_call_keeps_its_name_when_the_room_of_that_name_is_imported(package, call, room):
    """placesat.lixso.solve is the call even after placesat.lixso.solve (solve.py) is imported;
    the room stays importable by its name."""
    module = importlib.import_module(package)
    loaded = importlib.import_module(room)
    assert inspect.ismodule(loaded) and loaded.__name__ == room
    assert inspect.isfunction(getattr(module, call))
    assert getattr(module, call).__module__ == package


def test_the_re_exports_are_the_library_objects_themselves():
    from placesat.core.errors import InputError
    from placesat.lixso.model import Grid, load_pack
    from placesat.lixso.solve import SolveReport

    assert placesat.InputError is InputError
    assert placesat.lixso.load_pack is load_pack
    assert placesat.lixso.Grid is Grid and placesat.lixso.SolveReport is SolveReport
    assert placesat.lixso.solve.__annotations__["return"] == "SolveReport"


def test_errors_are_the_commands_input_errors():
    with pytest.raises(placesat.InputError) as caught:
        placesat.lixso.parse_grid("..I\n..\n")
    assert str(caught.value).startswith("2:")
    with pytest.raises(placesat.InputError, match="2 grids"):
        placesat.lixso.parse_grid("...\n...\n\n...\n...\n")
    with pytest.raises(placesat.InputError, match="no such file"):
        placesat.lsd.load_game("no/such/file.json")
    threat = placesat.lsd.load_game(str(ROOT / "grids" / "lsd" / "double-threat.json"))
    with pytest.raises(placesat.InputError, match="--player must be from 1 to 2, not 3"):
        placesat.lsd.reach(threat, player=3, plies=1)


def test_a_solve_from_text_is_the_solve_of_the_parsed_grid():
    pack = placesat.lixso.load_pack(str(ROOT / "grids" / "lixso" / "level-1.txt"))  # its answers read beside it
    grid = next(entry for entry in pack if isinstance(entry, placesat.lixso.Grid))
    from_text = placesat.lixso.solve(placesat.lixso.format_grid(grid))
    assert from_text.status.value == "unique"
    assert from_text.solutions == placesat.lixso.solve(grid).solutions
    assert from_text.solutions[0] == grid.stated_solution()


def test_importing_the_games_loads_no_solver_and_no_command_line():
    code = ("import sys, placesat.lixso, placesat.lixso.game, placesat.laido, placesat.lsd, placesat.quarry, "
            "placesat.logisticks; print(sorted(m for m in ('numpy', 'ortools', 'typer', 'pysat', 'numba', "
            "'placesat.cli') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_import_placesat_alone_loads_no_game():
    code = "import sys, placesat; print(sorted(m for m in sys.modules if m.startswith('placesat.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['placesat.core', 'placesat.core.errors']"
