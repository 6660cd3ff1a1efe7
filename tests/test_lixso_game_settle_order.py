"""The forced search's cheaper steps give what the plain steps give (docs/performance.md,
"Lixso game forced, faster nodes (2)"): at the target's last turn, the tiles tested unordered
first give the same answer and the same tile as tested in move order; the settled test's
remembered cover and its quick "not apart" are the rule engine's cover and the plain
comparison of both sides' covers; and the counting verdicts agree with trying every future.
On seeded random 2-player games on the shipped 6x6 grids, every position along them."""

from __future__ import annotations

from placesat.lixso.game.forced import PASS, ForcedGame, Node, SettledTest

from .test_lixso_game_prune import positions_along, settled_by_trying_everything


def settle_last_turn(game: ForcedGame, node: Node, unordered_first: bool):
    """``settle`` at the target's last turn, made to take one way or the other."""
    game.last_turns, game.settling = 0, (0 if unordered_first else 10**6)
    return game.settle(node, 1)


def test_the_last_turn_gives_the_same_tile_unordered_first_or_in_order():
    settling = 0
    for seed in range(8):
        rules, states = positions_along(seed, 4)
        for state in states[:-1]:
            side = rules.seating.sides[state.to_move]
            node = Node(state, state.to_move)
            in_order = settle_last_turn(ForcedGame(rules, side), node, unordered_first=False)
            unordered = settle_last_turn(ForcedGame(rules, side), node, unordered_first=True)
            assert unordered == in_order, (seed, state)
            # the plain statement: the first tile in the move order after which the win is settled
            game = ForcedGame(rules, side)
            plain = SettledTest(rules, side, apart=False)
            first = next((move for move in game.order(node, game.moves(node))
                          if plain.settled(state if move == PASS else rules.play(state, *move))), None)
            assert in_order.value == (first is not None) and in_order.move == first, (seed, state)
            settling += in_order.value
    assert settling > 0  # some last turns had a tile that settles


def test_the_remembered_cover_and_the_quick_apart_are_the_plain_ones():
    apart = 0
    for seed in range(8):
        rules, states = positions_along(seed, 2)
        test = SettledTest(rules, 0, apart=True)
        for state in states:
            covers = []
            for colours in test.colours:
                tiles = 0
                for k in colours:
                    tiles |= state.possible[k]
                assert test.covered(tiles) == rules.cover(tiles)
                covers.append(rules.cover(tiles))
            assert test.sides_apart(state) == (not covers[0] & covers[1]), (seed, state)
            apart += test.sides_apart(state)
    assert apart > 0


def test_the_counting_verdicts_agree_with_trying_every_future():
    told = 0
    for seed in range(8):
        rules, states = positions_along(seed, 4)
        for state in states[-7:]:  # the brute force, where it is short
            for side in (0, 1):
                verdict = SettledTest(rules, side).quick(state)
                if verdict is not None:
                    told += 1
                    assert verdict == settled_by_trying_everything(rules, state, side), (seed, side, state)
    assert told > 0
