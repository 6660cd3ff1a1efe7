"""The game-independent AND/OR search and the strategy replay, on a game small enough to know.

The game: a pile of stones, two seats; a move takes 1 or 2 stones; whoever takes the last stone
wins. The seat to move wins exactly when the pile is not a multiple of 3 (take the rest of the
pile modulo 3, and answer the other's k with 3 - k), and then within ceil(n / 3) own moves.
"""

from __future__ import annotations

import pytest

from placesat.core.andor import AndOrSearch, StrategyFailed, replay_strategy
from placesat.core.play import Outcome


class Pile:
    """The pile game as a Playable (positions: (stones, seat to move, seat that took last))."""

    name = "pile"

    def opening(self, players: int):
        return (7, 1, None)

    def players(self, position) -> int:
        return 2

    def to_move(self, position) -> int:
        return position[1]

    def moves(self, position):
        stones = position[0]
        return [take for take in (1, 2) if take <= stones]

    def play(self, position, move):
        stones, seat, _ = position
        assert 1 <= move <= min(2, stones)
        return (stones - move, 3 - seat, seat)

    def outcome(self, position):
        return Outcome(winner=position[2]) if position[0] == 0 else None


class PileGame:
    """The pile game seen from ``target``'s side, for AndOrSearch (no cut-offs)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.rules = Pile()

    def key(self, state):
        return state

    def result(self, state):
        ended = self.rules.outcome(state)
        return None if ended is None else ended.winner == self.target

    def target_moves(self, state):
        return state[1] == self.target

    def moves(self, state):
        return self.rules.moves(state)

    def play(self, state, move):
        return self.rules.play(state, move)

    def settle(self, state, depth):
        return None

    def hopeless(self, state, depth):
        return False

    def order(self, state, moves):
        return moves


def own_moves_to_win(stones: int) -> int | None:
    """By hand (see the module docstring): None when the seat to move loses."""
    return None if stones % 3 == 0 else -(-stones // 3)


@pytest.mark.parametrize("stones", range(1, 13))
def test_search_and_replay_agree_with_the_hand_rule(stones):
    game = PileGame(target=1)
    root = (stones, 1, None)
    need = own_moves_to_win(stones)
    for own in range(1, 6):
        plies = 2 * own - 1  # the target's own moves, and the others' replies between them
        search = AndOrSearch(game)
        wins = search.wins(root, plies)
        assert wins == (need is not None and need <= own), (stones, own)
        if wins:
            replayed = replay_strategy(Pile(), root, 1, own, search.best_move)
            assert replayed.own_moves_used == need


def test_a_strategy_that_does_not_win_is_refused():
    root = (4, 1, None)  # the winning move takes 1 (leaving 3)
    with pytest.raises(StrategyFailed, match="the game ended without the goal"):
        replay_strategy(Pile(), root, 1, 3, lambda position: min(2, position[0]))  # greedy: loses from 4
    with pytest.raises(StrategyFailed, match="own moves ran out"):
        replay_strategy(Pile(), root, 1, 1, lambda position: position[0] % 3 or 1)
    with pytest.raises(StrategyFailed, match="not legal"):
        replay_strategy(Pile(), (1, 1, None), 1, 2, lambda position: 2)


def test_a_settled_node_without_a_move_is_finished_at_once():
    # choose gives nothing: only a goal reached at once is found, so 2 stones (take both) passes
    # and 4 stones (no win at once) fails
    assert replay_strategy(Pile(), (2, 1, None), 1, 1, lambda position: None).tree.move == 2
    with pytest.raises(StrategyFailed, match="gives no move"):
        replay_strategy(Pile(), (4, 1, None), 1, 2, lambda position: None)


def test_the_replayed_tree_holds_every_reply():
    search = AndOrSearch(PileGame(1))
    root = (5, 1, None)
    assert search.wins(root, 3)
    tree = replay_strategy(Pile(), root, 1, 2, search.best_move).tree
    assert tree.move == 2  # 5 -> 3
    replies = tree.then.replies
    assert [reply for reply, _ in replies] == [1, 2]
    assert [node.move for _, node in replies] == [2, 1]  # 2 left: take 2; 1 left: take 1
    assert all(node.then.reached for _, node in replies)
    assert tree.to_json(str) == {"move": "2", "then": {"replies": [
        {"reply": "1", "then": {"move": "2", "then": {"reached": True}}},
        {"reply": "2", "then": {"move": "1", "then": {"reached": True}}},
    ]}}
