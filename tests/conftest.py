import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT.parent / "shared" / "data" / "lixso-sample.txt"


def placesat_command() -> list[str]:
    """The installed ``placesat`` command of the environment running the tests."""
    script = Path(sys.executable).parent / "placesat"
    return [str(script)] if script.exists() else [sys.executable, "-m", "placesat.cli.main"]


@pytest.fixture
def run_cli():
    """Run the installed command; returns the CompletedProcess (text mode)."""

    def run(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess:
        env = dict(os.environ, COLUMNS="120")
        return subprocess.run(
            placesat_command() + list(args),
            capture_output=True,
            text=True,
            cwd=cwd or ROOT,
            input=input,
            env=env,
            timeout=300,
        )

    return run
