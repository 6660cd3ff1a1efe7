"""The bounds against brute force on small grids, against every game played out, and across backends.

The brute force knows only the referee (``GameRules.violation``): it enumerates every set
of tiles a side could add, tile by tile, each checked by the referee.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from placesat.lixso.game.bounds import bounds
from placesat.lixso.game.model import Move, seating_for
from placesat.lixso.game.rules import GameRules
from placesat.lixso.model import Grid

GRIDS = [
    (".I....", "......", "O...S.", ".I..X."),
    ("......", "......", "......"),
    (".....S", "XI.O..", ".X....", "......", "I..SI.", "......"),
]


def legal_for_side(rules: GameRules, state, side: int) -> list[tuple[int, Move]]:
    """Every (seat, move) some seat of ``side`` could lay now, by the referee."""
    found = []
    for seat in rules.seating.seats_of(side):
        for colour in rules.seating.seats[seat]:
            for cells in rules.placements:
                move = Move(colour, cells)
                if rules.violation(state, move, seat) is None:
                    found.append((seat, move))
    return found


def tile_sets(rules: GameRules, state, side: int):
    """Every set of tiles ``side`` could add (as the state after them and their number)."""
    options = legal_for_side(rules, state, side)

    def grow(state, start: int, count: int):
        yield state, count
        for index in range(start, len(options)):
            seat, move = options[index]
            if rules.violation(state, move, seat) is None:
                yield from grow(rules.play(state, *rules.coded(move), seat), index + 1, count + 1)

    yield from grow(state, 0, 0)


def brute_bounds(rules: GameRules, state, side: int) -> tuple[int, int]:
    """(most, sure) by enumeration, with the definitions of seeds/lixso.md."""
    seating = rules.seating
    other_colours = {k for seat, owner in enumerate(seating.sides) if owner != side for k in seating.seats[seat]}
    others = [(seat, move) for o in range(seating.side_count) if o != side for seat, move in legal_for_side(rules, state, o)]
    unblockable = [
        (seat, move)
        for seat, move in legal_for_side(rules, state, side)
        if move.colour not in other_colours and not any(set(move.cells) & set(m.cells) for _, m in others)
    ]
    most = 0
    blocking = None
    for after, count in tile_sets(rules, state, side):
        most = max(most, count)
        if unblockable and all(rules.violation(after, move, seat) is not None for seat, move in unblockable):
            blocking = count if blocking is None else min(blocking, count)
    if not unblockable:
        return most, 0
    supply = min(rules.per_colour - sum(1 for colour, _ in rules.tiles(state) if colour == move.colour) for _, move in unblockable)
    return most, min(supply if blocking is None else blocking, supply)


def random_position(rows, players: str, moves: int, seed: int, per_colour: int = 2, clue_touch: bool = True):
    """A game on ``rows`` after ``moves`` random legal moves (seeded)."""
    rules = GameRules(Grid(rows), seating_for(players), per_colour, clue_touch)
    rng = random.Random(seed)
    state = rules.start()
    for _ in range(moves):
        if state.over:
            break
        state = rules.play(state, *rng.choice(rules.moves(state)))
    return rules, state


CASES = [
    (GRIDS[0], "2", 0, 1, True),
    (GRIDS[0], "2", 2, 2, False),
    (GRIDS[0], "4", 1, 3, True),
    (GRIDS[1], "2", 1, 4, True),
    (GRIDS[1], "3", 2, 5, True),
    (GRIDS[2], "2", 5, 6, True),
    (GRIDS[2], "4", 6, 7, True),
    (GRIDS[2], "2", 7, 8, False),
]


@pytest.mark.parametrize("rows, players, moves, seed, clue_touch", CASES)
def test_bounds_match_brute_force(rows, players, moves, seed, clue_touch):
    rules, state = random_position(rows, players, moves, seed, per_colour=2 if len(rows) < 6 else 3, clue_touch=clue_touch)
    found = bounds(rules, state, "sat")
    for figures in found.sides:
        assert (figures.most, figures.sure) == brute_bounds(rules, state, figures.side), figures
        assert len(figures.most_tiles) == figures.most


@pytest.mark.parametrize("rows, players, moves, seed, clue_touch", CASES[:6])
def test_both_backends_agree(rows, players, moves, seed, clue_touch):
    rules, state = random_position(rows, players, moves, seed, per_colour=2 if len(rows) < 6 else 3, clue_touch=clue_touch)
    sat = bounds(rules, state, "sat")
    cpsat = bounds(rules, state, "cpsat")
    assert [(s.most, s.sure, s.unblockable) for s in sat.sides] == [(s.most, s.sure, s.unblockable) for s in cpsat.sides]


def every_game_end(rules: GameRules, state):
    """The final state of every way the game can go on from ``state``."""
    if state.over:
        yield state
        return
    for move in rules.moves(state):
        yield from every_game_end(rules, rules.play(state, *move))


@pytest.mark.parametrize("rows, players, moves, seed", [(GRIDS[0], "2", 2, 11), (GRIDS[0], "4", 2, 12), (GRIDS[2], "2", 6, 13), (GRIDS[2], "4", 7, 14)])
def test_every_game_ends_within_the_bounds(rows, players, moves, seed):
    """Sure and most hold in every game played out from the position, and who can still win
    or is sure to win agrees with the games' ends."""
    rules, state = random_position(rows, players, moves, seed, per_colour=2 if len(rows) < 6 else 3)
    found = bounds(rules, state, "sat")
    ends = list(every_game_end(rules, state))
    assert ends
    for figures in found.sides:
        added = [end.scores[figures.side] - state.scores[figures.side] for end in ends]
        assert figures.sure <= min(added) and max(added) <= figures.most
        wins = any(end.scores[figures.side] > max(s for o, s in enumerate(end.scores) if o != figures.side) for end in ends)
        if wins:
            assert found.can_win(figures.side)
        if found.sure_win(figures.side):
            assert all(end.scores[figures.side] > max(s for o, s in enumerate(end.scores) if o != figures.side) for end in ends)


def test_an_unblockable_region_gives_a_sure_count():
    """Player 1 owns a corner no X or O tile can enter (I clues around it, the clue-touch rule
    keeps X and O off nothing, but the clues cover the cells): at least one tile there is sure."""
    rows = ("II....", "I.....", "......")
    rules = GameRules(Grid(rows), seating_for("2"), 2, clue_touch=True)
    found = bounds(rules, rules.start(), "sat")
    player_1 = found.sides[0]
    assert player_1.unblockable >= 1 and player_1.sure >= 1
    assert brute_bounds(rules, rules.start(), 0) == (player_1.most, player_1.sure)


def test_game_over_has_nothing_left():
    rules, state = random_position(GRIDS[1], "2", 20, 3)
    assert state.over
    found = bounds(rules, state)
    assert all(s.most == 0 and s.sure == 0 for s in found.sides)


@pytest.mark.parametrize("height, width", [(2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (3, 7), (6, 6)])
def test_colour_cap_holds_by_brute_force(height, width):
    """No grid holds more tiles of one colour than colour_cap (so a supply that large never
    binds and may be left out of the model): the most by branch and bound, on empty grids."""
    from placesat.lixso.game.encode import colour_cap
    from placesat.lixso.game.solve import LixsoSearch

    rules = GameRules(Grid(("." * width,) * height), seating_for("2"), height * width, clue_touch=False)
    most = LixsoSearch(rules, use_symmetry=False).solo_most(rules.start(), (0,))
    assert 1 <= most <= colour_cap(rules)


def test_a_binding_supply_on_a_wide_grid_agrees_across_backends():
    """A supply smaller than what fits is counted through covered cells: both backends find
    the same most, and the tiles reaching it are within the supply (replayed by the referee)."""
    rules = GameRules(Grid(("......I.", "........", "..X.....", "........")), seating_for("2"), 2, clue_touch=True)
    state = rules.start()
    sat, cpsat = bounds(rules, state, "sat"), bounds(rules, state, "cpsat")
    assert [(s.most, s.sure) for s in sat.sides] == [(s.most, s.sure) for s in cpsat.sides]
    for figures in sat.sides:
        assert figures.most == 4 and len(figures.most_tiles) == 4  # two of each colour: the supply binds
        assert all(sum(1 for m in figures.most_tiles if m.colour == k) <= 2 for k in figures.colours)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_the_time_limit_holds_on_a_30x30_grid(backend):
    """An empty 30x30 grid with a supply of 300: building the model and optimising stop at the
    deadline ("unknown"), instead of one uninterruptible encoding of a large count (a 5 s limit
    took 12-41 s and 1.3 GB). The bound on the wall time is generous: the machine is shared."""
    import time

    from placesat.core.limits import Deadline

    rules = GameRules(Grid(("." * 30,) * 30), seating_for("2"), 300, clue_touch=True)
    started = time.monotonic()
    found = bounds(rules, rules.start(), backend, Deadline(1.5))
    assert time.monotonic() - started < 15
    assert not found.known() and found.can_win(0) is None


# positions whose side models mix a binding supply (counted by its tiles) with a colour whose
# supply cannot bind (counted by the cells covered), the last two in their sure models too:
# (grid, players, moves, seed, side)
MIXED = [(GRIDS[0], "2", 2, 0, 1), (GRIDS[0], "4", 2, 2, 1), (GRIDS[0], "2", 3, 9, 1), (GRIDS[0], "4", 3, 8, 0)]


@pytest.mark.parametrize("rows, players, moves, seed, side", MIXED)
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_the_solver_optimum_of_a_mixed_count_is_the_most(rows, players, moves, seed, side, backend):
    """A colour whose supply binds counts its tiles through a unary counter, the others count
    covered cells: the optimum of that objective, solved outright (no greedy shortcut), is
    the brute force's most, and the sure figures agree with it too."""
    from placesat.core.backend import make_backend
    from placesat.lixso.game.encode import MOST, side_model

    rules, state = random_position(rows, players, moves, seed, per_colour=2)
    model = side_model(rules, state, side, MOST)
    assert model.unit == 3 and {weight for _, weight in model.counted} == {1, 3}  # both kinds of count
    result = make_backend(backend, model.formula).maximize(model.objective(1))
    chosen = [model.tiles[var] for var in model.tiles if result.value(var)]
    most, sure = brute_bounds(rules, state, side)
    assert model.tiles_counted(result.objective) == len(chosen) == most
    figures = bounds(rules, state, backend).sides[side]
    assert (figures.most, figures.sure) == (most, sure)


def test_a_unary_count_is_exact_both_ways():
    """The counter's outputs "at least j of these" are true exactly when so, and no more than
    its bound may hold: every assignment of four literals, by the solver's propagation."""
    from itertools import product

    from placesat.core.backend import Formula, Status, make_backend
    from placesat.core.limits import Deadline
    from placesat.lixso.game.encode import _unary_count

    formula = Formula()
    group = formula.new_vars(4)
    outputs = _unary_count(formula, group, 2, Deadline.never())
    solver = make_backend("sat", formula)
    for values in product((False, True), repeat=4):
        fixed = [var if value else -var for var, value in zip(group, values)]
        result = solver.solve(fixed)
        if sum(values) > 2:
            assert result.status is Status.UNSAT
            continue
        assert [result.value(out) for out in outputs] == [sum(values) >= j for j in (1, 2)]


OPENINGS = Path(__file__).resolve().parent.parent / "grids" / "lixso-game"


@pytest.mark.parametrize("name", ["9x9-opening.txt", "9x9-opening-4p.txt"])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_a_9x9_opening_answers(name, backend):
    """Issue 37: a 9x9 puzzle grid with its clues and no tile laid (2 players; 4 players in two
    teams), where the greedy set falls one tile short for team A, so a solver must prove the
    most. Counted in covered cells it ran past 100 s; here a generous limit must not bite.
    Each side has two colours of seven tiles, so it lays at most 14 (counting); the 14 tiles
    found are replayed on the referee; and every tile a side could lay can still be covered
    by a tile of the other side (the referee's legal tiles), so nothing is sure (0)."""
    from placesat.core.limits import Deadline
    from placesat.lixso.game.model import load_position
    from placesat.lixso.game.rules import replay_position

    game = replay_position(load_position(str(OPENINGS / name)))
    found = bounds(game.rules, game.state, backend, Deadline(60))
    assert found.known()
    legal = [legal_for_side(game.rules, game.state, side) for side in (0, 1)]
    for figures in found.sides:
        assert figures.most == 14 == 2 * game.rules.per_colour and len(figures.most_tiles) == 14
        theirs = {cell for _, move in legal[1 - figures.side] for cell in move.cells}
        assert all(set(move.cells) & theirs for _, move in legal[figures.side])
        assert figures.sure == 0 and figures.unblockable == 0
