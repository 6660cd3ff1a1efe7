"""LSD's deeper forced search (issue 40): the target's second-to-last moves the other refutes
at once dropped without nodes (:meth:`placesat.lsd.forced.LsdGame._threatening`) against the
plain search on seeded random 2-player positions (the same answers, fewer positions), and the
completing cells counted against the runs :func:`placesat.lsd.rules.run_gaps` lists."""

from __future__ import annotations

import importlib
import random

from placesat.lsd.forced import forced_win
from placesat.lsd.model import on_table
from placesat.lsd.rules import completing_cells, is_over, run_gaps

from .lsd_brute import random_position

lsd_forced = importlib.import_module("placesat.lsd.forced")  # the package's ``forced`` is a function


def test_threatening_keeps_every_answer(monkeypatch):
    rng = random.Random(11)
    plain_nodes = pruned_nodes = cut = tried = 0
    answers = set()
    for _ in range(14):
        position = random_position(rng, 2, moves=rng.randint(4, 12), kinds=5, per_kind=3)
        if is_over(position):
            continue
        for player in (1, 2):
            for depth in (3, 4, 5):
                monkeypatch.setattr(lsd_forced, "PRUNE", False)
                plain = forced_win(position, player, depth)
                monkeypatch.setattr(lsd_forced, "PRUNE", True)
                pruned = forced_win(position, player, depth)
                assert plain.answer == pruned.answer, (position, player, depth)
                answers.add(plain.answer)
                plain_nodes += plain.positions
                pruned_nodes += pruned.positions
                tried += 1
    assert tried > 30 and len(answers) == 2  # wins and no wins among them
    assert pruned_nodes < plain_nodes


def test_completing_cells_are_the_gaps_of_long_enough_runs():
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        position = random_position(rng, rng.choice([2, 4]), moves=rng.randint(6, 24), kinds=5, per_kind=4)
        for player in range(1, position.players + 1):
            mine = {c for c, t in position.field.items() if t.player == player}
            length = position.line_length
            expected = {cell for cell, left, right in run_gaps(mine)
                        if len(left) + len(right) >= length - 1 and cell not in position.field and on_table(cell)}
            assert set(completing_cells(position.field, player, length)) == expected
            checked += len(expected)
    assert checked > 0
