"""LSD's cheaper win-at-once test (issue 40): the completing cells, counted run by run, against
the runs :func:`placesat.lsd.rules.run_gaps` lists."""

from __future__ import annotations

import random

from placesat.lsd.model import on_table
from placesat.lsd.rules import completing_cells, run_gaps

from .lsd_brute import random_position


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
