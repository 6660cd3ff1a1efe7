"""The sweep's kernels compiled at install (placesat.laido._sweep, Cython) against their
definition in Python (placesat.laido.sweep_kernels): the same answers, bit for bit, kernel by
kernel and sweep by sweep; and an install without them still scores, saying so once."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import types

import numpy as np
import pytest

from placesat.core.lattice import HexLattice
from placesat.laido import sweep_kernels
from placesat.laido.model import BLACK, WHITE, Position, dumps, position_to_json
from placesat.laido.rules import groups, is_connection_part
from placesat.laido.score import SWEEP_FROM
from placesat.laido.sweep import NO_LIMITS, longest_connection_part, plan_sweep

# the kernels Python calls (sweep.py, bound.py), each state-holding one for one word and two
CALLED = ("_successors", "_promise", "_dealt", "_merged", "_relaxed_table", "_bound",
          "_successors_wide", "_promise_wide", "_dealt_wide", "_merged_wide")


@pytest.fixture
def compiled():
    """The compiled module (there when placesat was installed with a C compiler: this
    machine, CI)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler here: the install could not compile the kernels")
    module = sweep_kernels.kernels()
    assert isinstance(module, types.ModuleType) and module.__name__ == "placesat.laido._sweep"
    return module


def test_the_compiled_module_has_every_kernel_python_calls(compiled):
    for name in CALLED:
        assert callable(getattr(compiled, name)) and callable(getattr(sweep_kernels, name)), name


class _Recorder:
    """The compiled kernels, each call's arguments kept (copies, as they were before the call)
    with what it returned and the arrays as it left them."""

    def __init__(self, compiled: types.ModuleType) -> None:
        self.compiled = compiled
        self.calls: list[tuple[str, tuple, object, tuple]] = []

    def __getattr__(self, name: str):
        function = getattr(self.compiled, name)

        def record(*args):
            before = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            answer = function(*args)
            after = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            self.calls.append((name, before, answer, after))
            return answer

        return record


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


def _replayed_in_python(calls) -> dict[str, int]:
    """Each recorded call made again by the Python kernel on the same arguments: the same
    answer, and every array left the same (the parts a kernel writes, and the rest). Returns
    how many calls of each kernel were compared. (A strip's tables are made again by each
    sweep of a group: the same call is made once.)"""
    compared: dict[str, int] = {}
    seen = set()
    for name, before, answer, after in calls:
        key = (name, *(a.tobytes() if isinstance(a, np.ndarray) else a for a in before))
        if key in seen:
            continue
        seen.add(key)
        args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in before)
        again = getattr(sweep_kernels, name)(*args)
        assert _same(again, answer), name
        for k, (left, expected) in enumerate(zip(args, after)):
            assert _same(left, expected), (name, k)
        compared[name] = compared.get(name, 0) + 1
    return compared


def test_each_kernel_call_of_sweeps_is_made_the_same_by_python(compiled, monkeypatch):
    """Every call the sweep makes to the compiled kernels, on groups that use them all (the
    bound's tables, the quick sweeps' promises, states of one word and of two), made again by
    the Python kernels: the same answers and the same arrays, bit for bit."""
    from placesat.laido import bound, sweep

    recorder = _Recorder(compiled)
    monkeypatch.setattr(sweep_kernels, "kernels", lambda: recorder)
    # every group with the bound and the quick sweeps (the sweep keeps them for larger ones),
    # its strips narrower (tables of 4 ** 6 patterns, not 4 ** 8: Python makes them again)
    monkeypatch.setattr(sweep, "BOUND_FROM", 0)
    monkeypatch.setattr(bound, "STRIP", 4)
    monkeypatch.setattr(sweep, "BEAM", 20)
    monkeypatch.setattr(sweep, "WIDER_BEAM", 40)
    rng = random.Random(38)
    six, five = HexLattice(6), HexLattice(5)
    cases = [(six, max(groups(six, [p for p in six.points if rng.random() < 0.75]), key=len)), (five, frozenset(five.points))]
    for lattice, group in cases:
        for words in (1, 2):
            longest_connection_part(lattice, group, NO_LIMITS, words=words)
    compared = _replayed_in_python(recorder.calls)
    assert set(compared) == set(CALLED) - {"_bound"}, compared
    # _bound (the tests' own: the sweep asks _bounds and _promise), of states from the last
    # steps read with the tables of a middle step (any number is a state the kernels can read)
    plan = plan_sweep(five, five.points)
    steps = sweep._steps(five, plan)
    tables = bound.strip_bound(five, plan, steps)
    t = len(steps) // 2
    rows = [row for name, row, _, _ in recorder.calls if name == "_successors"]
    states = [int(s) for s in rows[-1][0][:200]] + [0, 1]
    for state in states:
        args = (state, tables.tables, tables.lookups[t], tables.count[t], tables.constant[t], -1)
        assert compiled._bound(*args) == sweep_kernels._bound(*args)


def test_whole_sweeps_find_the_same_parts_compiled_and_in_python(compiled, monkeypatch):
    """Random groups of small boards, one word and two: the very same parts (ties broken the
    same way), which the plain rules accept."""
    rng = random.Random(3)
    cases = []
    for _ in range(12):
        lattice = HexLattice(rng.choice([4, 5]))
        stones = [p for p in lattice.points if rng.random() < rng.choice([0.6, 0.8, 1.0])]
        cases += [(lattice, group) for group in groups(lattice, stones) if len(group) > 4]
    found = {}
    for chosen in (compiled, sweep_kernels):
        monkeypatch.setattr(sweep_kernels, "kernels", lambda chosen=chosen: chosen)
        for k, (lattice, group) in enumerate(cases):
            for words in (1, 2):
                found.setdefault((k, words), []).append(longest_connection_part(lattice, group, NO_LIMITS, words=words))
    for (k, _), (by_compiled, by_python) in found.items():
        assert by_compiled == by_python
        assert by_compiled is None or is_connection_part(cases[k][0], cases[k][1], by_compiled)
    assert sum(parts[0] is not None for parts in found.values()) > 20


def test_an_install_without_the_compiled_module_scores_in_python_and_says_so_once(tmp_path):
    """``placesat laido score`` with the compiled module missing (as after an install with no C
    compiler): the same score, and one line on standard error saying the sweep runs as plain
    Python and how to get it compiled."""
    lattice = HexLattice(7)
    black = frozenset(p for p in lattice.points if p[1] < 0)
    white = frozenset(lattice.points) - black
    position = Position(7, black, white, WHITE, 2, BLACK)
    assert plan_sweep(lattice, white).cost >= SWEEP_FROM  # scored by the sweep, not the solver
    board = tmp_path / "halves7.json"
    board.write_text(dumps(position_to_json(position)))
    # the command, once with the compiled module hidden (an import of it fails, as when absent)
    hide = "import sys; sys.modules['placesat.laido._sweep'] = None; "
    run = "from placesat.cli.entry import main; sys.argv = ['placesat', 'laido', 'score', '--json', sys.argv[1]]; main()"
    results = []
    for prefix in ("import sys; ", hide):
        results.append(subprocess.run([sys.executable, "-c", prefix + run, str(board)], capture_output=True, text=True, timeout=120))
    shown, hidden = results
    assert shown.returncode == hidden.returncode == 0, hidden.stderr
    assert json.loads(shown.stdout) == json.loads(hidden.stdout)
    assert "plain Python" not in shown.stderr
    said = [line for line in hidden.stderr.splitlines() if "plain Python" in line]
    assert said == ["placesat: the Laido sweep runs as plain Python (much slower): this install has no compiled "
                    "kernels; reinstall with a C compiler present: pip install --force-reinstall --no-cache-dir placesat"]
