"""One-move wins and blocks against brute force: every legal stone played and the line looked for."""

from __future__ import annotations

import pytest

from placesat.quarry.model import BLACK, BLUE, PLAYERS, Board, Position, opponent, parse_move
from placesat.quarry.rules import State, lay, line, placements, record, replay
from placesat.quarry.stones import default_stones
from placesat.quarry.threats import blocks, threats, winning_moves

from .quarry_brute import SMALL_STONES, random_game


def brute_wins(state: State, player: str) -> set:
    found = set()
    for placement, base in placements(state, player):
        after = state.copy()
        lay(after, player, placement, base)
        if line(after, player) is not None:
            found.add(placement)
    return found


def brute_blocks(state: State, player: str, legal: list) -> set:
    """The placements after which ``player`` has a line, or the opponent has no winning move
    (found by trying every one of the opponent's moves)."""
    other = opponent(player)
    blocking = set()
    for placement, base in legal:
        after = state.copy()
        lay(after, player, placement, base)
        if line(after, player) is not None or not brute_wins(after, other):
            blocking.add(placement)
    return blocking


@pytest.mark.parametrize("seed", range(10))
def test_threats_match_brute_force(seed):
    # random mid-games on the standard board, stopped before anyone wins: threats are common
    _, state = random_game(Board(), default_stones(), 18 + seed % 5, seed)
    found = threats(state)
    for player in PLAYERS:
        assert {p for p, _ in found[player]} == brute_wins(state, player)


def test_some_positions_have_threats():
    counts = [sum(len(v) for v in threats(random_game(Board(), default_stones(), 22, seed)[1]).values()) for seed in range(10)]
    assert sum(1 for c in counts if c) >= 3


def test_known_threat():
    stones = default_stones()
    position = Position(Board(), stones)
    state = replay(position)
    for text in ("span c1 s", "block a1", "span c5 s", "block i1"):
        position, state = record(position, state, parse_move(text, position.board, stones))
    wins = {p.text(stones) for p, _ in winning_moves(state, BLACK)}
    # c1-c8 stand: a brick on c9-c10 wins, or a beam down column b or d beside c8; one block is
    # not enough, and a beam from c8 would hang over c9 and c10 (c8 is a level higher)
    assert {"brick c9 s", "beam b8 s", "beam d8 s"} <= wins
    assert "block c9" not in wins and "beam c8 s" not in wins
    assert winning_moves(state, BLUE) == []


@pytest.mark.parametrize("seed", range(4))
def test_blocks_match_brute_force(seed):
    _, state = random_game(Board(5, 3), SMALL_STONES, 4, seed)
    player = state.to_move
    legal = list(placements(state, player))
    got = {b.placement for b in blocks(state, player, legal)}
    expected = brute_blocks(state, player, legal)
    assert got == expected


@pytest.mark.parametrize("moves, can_block", [
    (["beam a1 s", "block c1", "block b5"], True),
    # blue holds a1 and a3-a5: a black stone on a2 is crossed by a blue beam a1-a3 on top
    (["beam b2 s", "block a1", "block c4", "beam a3 s"], False),
])
def test_blocks_against_threats_match_brute_force(moves, can_block):
    position = Position(Board(5, 3), SMALL_STONES)
    state = replay(position)
    for text in moves:
        position, state = record(position, state, parse_move(text, position.board, position.stones))
    player = state.to_move
    other = opponent(player)
    assert winning_moves(state, other)  # the opponent threatens to win
    legal = list(placements(state, player))
    got = {b.placement for b in blocks(state, player, legal)}
    expected = brute_blocks(state, player, legal)
    assert got == expected and bool(got) == can_block and len(got) < len(legal)


@pytest.mark.parametrize("seed", range(6))
def test_the_masks_and_the_quick_checks_agree_with_the_rules(seed):
    """side_masks is sides as bits; placements(touching=) lists exactly the placements meeting
    every set, in order; may_win_at_once is false only where brute force finds no winning stone."""
    from placesat.quarry.threats import cell_mask, colour_mask, may_win_at_once, reach_of, side_masks, sides

    _, state = random_game(Board(6, 4), SMALL_STONES, 2 + seed % 5, 300 + seed, first=PLAYERS[seed % 2])
    width = state.board.width
    for player in PLAYERS:
        marks = sides(state, player)
        assert side_masks(state, player) == (sum(1 << i for i, on in enumerate(marks.first) if on), sum(1 << i for i, on in enumerate(marks.second) if on))
        assert cell_mask(marks.first) == side_masks(state, player)[0]
        if not may_win_at_once(state.board, colour_mask(state, player), reach_of(state, player)):
            assert not brute_wins(state, player)
        every = list(placements(state, player))
        for needs in ((0b1011 << width,), (0b11 << (2 * width), 0b110 << (2 * width))):
            def meets(p):
                r0, c0 = p.at
                cells = {(r0 + col.dr) * width + c0 + col.dc for col in state.stones[p.stone].orientation(p.face, p.direction).columns}
                return all(any(need >> i & 1 for i in cells) for need in needs)
            assert list(placements(state, player, touching=needs)) == [(p, b) for p, b in every if meets(p)]
