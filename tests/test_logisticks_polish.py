"""Logi-Sticks as a player uses it: the verdict words, new --json, the random layout's seed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from placesat.logisticks.analyze import NO_SIGNAL, Question, TargetVerdict

PLACESAT = str(Path(sys.executable).with_name("placesat"))


@pytest.mark.parametrize(
    "can_true, can_false, colour, verdict",
    [
        (False, False, "W", NO_SIGNAL),  # only MUTABLE or unreached: neither matched nor unmatched
        (True, False, "W", "matched"),
        (False, True, "W", "unmatched"),
        (False, True, "B", "matched"),  # a black target is matched by FALSE
        (True, True, "B", "open"),
        (None, False, "W", "unknown"),
    ],
)
def test_target_verdict_words(can_true, can_false, colour, verdict):
    target = TargetVerdict(1, (0, 0), colour, None, Question((0, 0), True, can_true), Question((0, 0), False, can_false))
    assert target.verdict == verdict


def test_new_json_and_the_random_seed(tmp_path):
    done = subprocess.run([PLACESAT, "logisticks", "new", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 1
    assert json.loads(done.stdout)["players"] == 2
    done = subprocess.run([PLACESAT, "logisticks", "new", "--layout", "random"], capture_output=True, text=True, timeout=60)
    seed = int(done.stderr.split()[1])  # "seed: N (...)"
    again = subprocess.run([PLACESAT, "logisticks", "new", "--layout", "random", "--seed", str(seed)],
                           capture_output=True, text=True, timeout=60)
    assert again.stdout == done.stdout and again.stderr == ""
    out = tmp_path / "start.json"
    done = subprocess.run([PLACESAT, "logisticks", "new", "--json", "--out", str(out), "--layout", "random", "--seed", "5"],
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == {"written": str(out), "seed": 5} and json.loads(out.read_text())["players"] == 2


def test_stdin_in_show_and_moves():
    start = subprocess.run([PLACESAT, "logisticks", "new"], capture_output=True, text=True, timeout=60).stdout
    for command in (["show", "-", "--json"], ["moves", "-", "--json"]):
        done = subprocess.run([PLACESAT, "logisticks", *command], input=start, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        json.loads(done.stdout)
