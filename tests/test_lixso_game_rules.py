"""The game's rules: each rule on hand-made positions, the fast engine against the referee on
random games, turns and passes, and the solo puzzle's solutions replayed as games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from placesat.core.errors import InputError
from placesat.lixso.game.model import Move, parse_move, parse_position, seating_for
from placesat.lixso.game.rules import COLOUR_INDEX, OVER, GameRules, IllegalMove, replay_position
from placesat.lixso.model import COLOURS, Grid, load_pack
from placesat.lixso.rules import tiles_of

ROOT = Path(__file__).resolve().parent.parent
SMALL = (".I....", "......", "O...S.", ".I..X.")


def rules_for(rows, players="2", per_colour=2, clue_touch=True) -> GameRules:
    return GameRules(Grid(tuple(rows)), seating_for(players), per_colour, clue_touch)


def referee_moves(rules: GameRules, state, seat=None) -> set[tuple[int, int]]:
    """Every (colour, placement) the referee allows, checked one by one."""
    seat = state.to_move if seat is None else seat
    return {
        (COLOUR_INDEX[k], p)
        for k in rules.seating.seats[seat]
        for p, cells in enumerate(rules.placements)
        if rules.violation(state, Move(k, cells), seat) is None
    }


def lay_all(rules: GameRules, texts: list[str]):
    state = rules.start()
    for text in texts:
        state = rules.lay(state, parse_move(text))
    return state


@pytest.mark.parametrize(
    "before, move, rule",
    [
        ([], "X r2c5 r2c6 r1c6", "turn"),
        ([], "I r1c1 r1c3 r2c1", "shape"),
        ([], "I r3c6 r3c7 r4c6", "shape"),
        (["I r1c4 r1c5 r2c5", "X r3c2 r3c3 r2c2"], "S r1c5 r1c6 r2c6", "empty"),
        ([], "S r4c1 r4c2 r3c1", "clue"),
        (["I r1c5 r1c6 r2c6", "X r3c2 r3c3 r2c2"], "I r3c5 r3c6 r4c6", "clue"),
        (["I r1c5 r1c6 r2c6", "X r3c2 r3c3 r2c2"], "I r2c4 r3c4 r2c3", "touch"),
        ([], "I r2c3 r2c4 r1c4", "clue-touch"),
    ],
)
def test_each_rule_is_named(before, move, rule):
    rules = rules_for(SMALL)
    state = lay_all(rules, before)
    broken = rules.violation(state, parse_move(move))
    assert broken is not None and broken.rule == rule, broken
    with pytest.raises(IllegalMove):
        rules.lay(state, parse_move(move))


def test_clue_touch_rule_can_be_dropped():
    move = parse_move("I r2c3 r2c4 r1c4")  # touches the I clue at r1c2 without covering it
    assert rules_for(SMALL).violation(rules_for(SMALL).start(), move).rule == "clue-touch"
    loose = rules_for(SMALL, clue_touch=False)
    assert loose.violation(loose.start(), move) is None


def test_supply():
    rules = rules_for(("......", "......", "......"), per_colour=1)
    state = lay_all(rules, ["I r1c1 r1c2 r2c1", "X r1c3 r1c4 r2c3"])
    assert rules.violation(state, parse_move("I r3c5 r3c6 r2c6")).rule == "supply"
    assert rules.violation(state, parse_move("S r3c5 r3c6 r2c6")) is None


def test_an_i_tile_may_cover_an_i_clue():
    rules = rules_for(SMALL)
    assert rules.violation(rules.start(), parse_move("I r3c2 r4c2 r4c3")) is None


def test_game_over_is_a_violation():
    rules = rules_for(("...", "..."), per_colour=1)
    state = lay_all(rules, ["I r1c1 r1c2 r2c1", "X r1c3 r2c2 r2c3"])
    assert state.to_move == OVER  # the grid is full
    assert rules.violation(state, parse_move("S r1c1 r1c2 r2c1")).rule == "over"


@pytest.mark.parametrize("players", ["2", "3", "4"])
@pytest.mark.parametrize("clue_touch", [True, False])
def test_fast_engine_agrees_with_the_referee_on_random_games(players, clue_touch):
    """At every turn: the fast engine's moves are exactly the referee's; the seat to move is the
    first after the last mover that can lay; the skipped seats cannot; the game ends exactly
    when nobody can lay; no colour ever regains a legal tile."""
    grids = [SMALL, (".....S", "XI.O..", ".X....", "......", "I..SI.", "......")]
    for number in range(6):
        rows = grids[number % 2]
        rules = rules_for(rows, players, per_colour=2 + number % 2, clue_touch=clue_touch)
        rng = random.Random(number)
        state = rules.start()
        last = len(rules.seating.seats) - 1
        seen = list(state.possible)
        while True:
            seats = len(rules.seating.seats)
            can = [bool(referee_moves(rules, state, seat)) for seat in range(seats)]
            if not any(can):
                assert state.to_move == OVER
                break
            expected = next((last + step) % seats for step in range(1, seats + 1) if can[(last + step) % seats])
            assert state.to_move == expected
            legal = referee_moves(rules, state)
            assert set(rules.moves(state)) == legal
            for k in range(len(COLOURS)):
                assert state.possible[k] & ~seen[k] == 0  # nothing comes back
            seen = list(state.possible)
            last = state.to_move
            state = rules.play(state, *rng.choice(sorted(legal)))
        assert sum(state.scores) == sum(mask.bit_count() for mask in state.placed)


def test_three_players_share_the_fourth_colour():
    rules = rules_for(("." * 9,) * 3, "3", per_colour=2)
    assert rules.seating.seats == ("IO", "XO", "SO")
    state = lay_all(rules, ["O r1c1 r1c2 r2c1", "O r1c4 r1c5 r2c5", "S r3c1 r3c2 r2c2"])
    assert state.scores == (1, 1, 1)  # a shared tile counts for whoever laid it
    assert rules.violation(state, parse_move("O r3c8 r3c9 r2c9")).rule == "supply"  # the O supply is shared


def test_four_players_play_in_the_order_I_X_O_S():
    rules = rules_for(("......",) * 6, "4", per_colour=3)
    state = rules.start()
    order = []
    for _ in range(8):
        order.append(rules.seating.seats[state.to_move])
        state = rules.play(state, *rules.moves(state)[0])
    assert "".join(order) == "IXOSIXOS"


def test_a_player_who_cannot_lay_passes_and_play_goes_on():
    # every L on this grid covers a clue: I and S can lay nothing, X and O one tile each
    rows = ("X.O", ".O.")
    rules = rules_for(rows, "4", per_colour=1)
    state = rules.start()
    assert not rules.can_lay(state, 0) and rules.seating.seats[state.to_move] == "X"
    text = "# players: 4\n# move: X r1c1 r1c2 r2c1\n# move: O r1c3 r2c2 r2c3\n" + "\n".join(rows) + "\n"
    game = replay_position(parse_position(text))
    assert [turn.seat for turn in game.turns] == [1, 2]
    assert game.turns[0].passed == () and game.turns[1].passed == (3, 0, 1)
    assert game.state.over and game.state.scores == (0, 2)


def test_replay_names_the_bad_move_and_its_line():
    text = "# players: 2\n# move: I r1c5 r1c6 r2c6\n# move: X r1c4 r2c4 r2c5\n# move: S r1c2 r1c3 r2c3\n" + "\n".join(SMALL) + "\n"
    with pytest.raises(InputError) as caught:
        replay_position(parse_position(text, "game.txt"))
    error = caught.value
    assert error.path == "game.txt" and error.line == 4
    assert "move 3 (S r1c2 r1c3 r2c3) is illegal: clue:" in error.message


def _solo_games(count: int):
    pack = [g for g in load_pack(str(ROOT / "grids" / "lixso" / "level-3.txt"))][:count]
    for grid in pack:
        tiles = tiles_of(grid.stated_solution())
        yield grid, tiles


def test_a_solved_puzzle_replayed_tile_by_tile_is_a_legal_two_player_game():
    for grid, tiles in _solo_games(4):
        per = {k: [cells for colour, cells in tiles if colour == k] for k in COLOURS}
        sides = ["IS", "XO"]
        if sum(len(per[k]) for k in "IS") < sum(len(per[k]) for k in "XO"):
            sides.reverse()  # the side with 14 tiles of the 27 moves first
        rules = GameRules(grid, seating_for(" ".join(sides)), 7)
        queues = [[(k, cells) for k in side for cells in per[k]] for side in sides]
        state = rules.start()
        laid = 0
        while not state.over:
            colour, cells = queues[state.to_move].pop()
            move = Move(colour, cells)
            assert rules.violation(state, move) is None
            state = rules.lay(state, move)
            laid += 1
        assert laid == 27 and not queues[0] and not queues[1]
        assert sorted(state.scores) == [13, 14]


def test_a_solved_puzzle_replayed_tile_by_tile_is_a_legal_four_player_game():
    for grid, tiles in _solo_games(4):
        per = {k: [cells for colour, cells in tiles if colour == k] for k in COLOURS}
        order = sorted(COLOURS, key=lambda k: -len(per[k]))  # the colour with 6 tiles plays last
        rules = GameRules(grid, seating_for(" ".join(order)), 7)
        state = rules.start()
        while not state.over:
            colour = rules.seating.seats[state.to_move]
            state = rules.lay(state, Move(colour, per[colour].pop()))
        assert all(not left for left in per.values())
        assert sum(state.scores) == 27
