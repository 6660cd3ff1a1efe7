"""Quarry's second-to-last move without playing most stones out: the stones after which a player
has a win at once (:func:`placesat.quarry.forced.threat_stones`) against their definition (lay the
stone, then ask :func:`placesat.quarry.threats.winning_moves`), and the bit-mask move generator
(:func:`placesat.quarry.rules.placements`) against every anchor checked by
:func:`placesat.quarry.rules.resting_level`, on seeded random positions and the shipped mid-games."""

from __future__ import annotations

from pathlib import Path

from placesat.quarry.forced import laid_by, threat_stones
from placesat.quarry.model import PLAYERS, Board, Placement, load_position
from placesat.quarry.rules import placements, replay, resting_level
from placesat.quarry.threats import winning_moves

from .quarry_brute import SMALL_STONES, random_game

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"
MIDGAMES = ("midgame", "midgame-2", "midgame-3", "scattered-1", "scattered-2")


def positions(count: int):
    """Seeded random games on boards long enough for lines of several stones, then the shipped mid-games."""
    boards = [Board(7, 2), Board(6, 3), Board(5, 4), Board(8, 3), Board(6, 4)]
    for seed in range(count):
        _, state = random_game(boards[seed % len(boards)], SMALL_STONES, 1 + seed % 7, seed, first=PLAYERS[seed % 2])
        if not state.is_over:
            yield state
    for name in MIDGAMES:
        yield replay(load_position(str(GRIDS / f"{name}.json")))


def every_anchor(state, player):
    """Every placement the rules allow, each anchor of each listed orientation checked in turn."""
    found = []
    for kind in state.stones.kinds:
        if state.left(player, kind.name) <= 0:
            continue
        for orientation in kind.orientations:
            for r in range(state.board.length):
                for c in range(state.board.width):
                    base, broken, _ = resting_level(state, player, orientation, (r, c))
                    if broken is None:
                        found.append((Placement(kind.name, orientation.face, orientation.direction, (r, c)), base))
    return found


def test_the_generator_lists_what_every_anchor_checked_allows():
    checked = 0
    for state in positions(40):
        for player in PLAYERS:
            assert list(placements(state, player)) == every_anchor(state, player)
            checked += 1
    assert checked > 80


def test_threat_stones_are_the_stones_that_leave_a_win_at_once():
    threats = none = 0
    for state in positions(120):
        for player in PLAYERS:
            legal = [p for p, _ in placements(state, player)]
            expected = [m for m in legal if winning_moves(laid_by(state, player, m), player, first_only=True)]
            assert threat_stones(state, player, legal) == expected
            assert threat_stones(state, player, legal[::2], legal=legal) == [m for m in legal[::2] if m in expected]
            threats += bool(expected)
            none += not expected
    assert threats > 20 and none > 20, (threats, none)
