"""placesat as a package: one version, read from one place; a wheel that installs one top-level
name, placesat, whose command runs outside the repository; a read-only install."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import placesat

ROOT = Path(__file__).resolve().parent.parent
PLACESAT = Path(sys.executable).parent / "placesat"


def test_the_version_has_one_source():
    """pyproject.toml reads the version from placesat.__version__ (dynamic): the installed
    metadata and --version say the same, and pyproject.toml holds no number of its own."""
    assert version("placesat") == placesat.__version__
    out = subprocess.run([sys.executable, "-m", "placesat", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"placesat {placesat.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "\nversion =" not in pyproject.split("[tool.setuptools")[0]


def test_the_changelog_has_this_release():
    assert f"## {placesat.__version__}\n" in (ROOT / "CHANGELOG.md").read_text()
