"""A backend measured far slower for a command says so, in --help and once on stderr (issue 41, part 4)."""

from __future__ import annotations

import json

from placesat.cli.common import SLOW_BACKENDS


def test_the_slow_backend_is_said_once_and_the_default_is_quiet(run_cli):
    position = "grids/lsd/mid20.json"
    slow = run_cli("lsd", "reach", position, "-p", "2", "-k", "3", "-b", "cpsat", "--json")
    assert slow.returncode == 0, slow.stderr
    assert json.loads(slow.stdout)["answer"] == "no"
    assert slow.stderr.splitlines() == ["placesat: warning: " + SLOW_BACKENDS[("lsd reach", "cpsat")]]
    quiet = run_cli("lsd", "reach", position, "-p", "2", "-k", "3", "--json")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_every_slow_pair_is_in_its_commands_help(run_cli):
    for (name, backend), note in SLOW_BACKENDS.items():
        shown = run_cli(*name.split(), "--help")
        assert shown.returncode == 0
        text = " ".join(shown.stdout.split())
        assert f"Warning: {note}." in text, (name, backend)
