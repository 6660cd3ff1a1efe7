"""Start-up: a command loads only what it runs (issue 41, part 2; figures in docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys

from typer.main import get_command

from placesat.cli.main import build


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"],
                          capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_a_lixso_command_does_not_import_the_game_engine():
    """The Lixso game registers for selfplay on demand: importing the lixso group (which every
    ``placesat lixso`` command does) leaves the game's engine unloaded."""
    loaded = _modules_after("import placesat.cli.lixso")
    assert "placesat.cli.lixso_game" in loaded
    assert "placesat.lixso.game.play" not in loaded
    assert "placesat.lixso.game.forced" not in loaded


def test_selfplay_registers_the_lixso_game_when_asked():
    from placesat.cli.play import REGISTERED, playing_game

    setup = playing_game("lixso-game")
    assert setup.playable.name == "lixso-game"
    assert REGISTERED["lixso-game"] is setup
    assert playing_game("lixso-game") is setup  # registered once


def _commands(argv: list[str]) -> dict:
    group = get_command(build(argv)).commands["lixso"]
    return group.commands


def test_a_named_command_is_the_only_one_built():
    assert set(_commands(["placesat", "lixso", "solve", "x.txt"])) == {"solve"}
    assert set(_commands(["placesat", "lixso", "--help"])) > {"solve", "grade", "generate", "game"}
    game = _commands(["placesat", "lixso", "game", "solve", "--time-limit", "1", "pos.txt"])
    assert set(game) == {"game"} and set(game["game"].commands) == {"solve"}
    # a word that names no command keeps them all, so click's message is the usual one
    assert set(_commands(["placesat", "lixso", "solv"])) > {"solve", "grade"}


def test_a_misspelt_command_still_gets_the_usual_usage_error(run_cli):
    done = run_cli("lixso", "solv", "grids/examples.txt")
    assert done.returncode == 2
    assert done.stderr.strip() == "placesat: error: No such command 'solv' (see 'placesat lixso --help')"
    shown = run_cli("lixso", "solve", "--help")
    assert shown.returncode == 0 and shown.stdout.startswith("Usage: placesat lixso solve [OPTIONS] FILES...")
