"""Cheapest wins: reach against uniform-cost search over moves on small boards, both backends,
the encoding's candidate sets against what the rules can build, and the answers replayed."""

from __future__ import annotations

import pytest

from placesat.core.backend import Status, make_backend
from placesat.quarry.encode import add_line, candidates, encode_build
from placesat.quarry.model import BLACK, BLUE, PLAYERS, Board, Position, parse_move
from placesat.quarry.reach import IMPOSSIBLE, POINTS, POSSIBLE, STONES, building_order, race, reach, replay_building
from placesat.quarry.rules import State, lay, line, placements, record, replay
from placesat.quarry.stones import default_stones, stones_from_json

from .quarry_brute import SMALL_STONES, cheapest_by_search, random_game

BACKENDS = ("cpsat", "sat")


def game(board: Board, stones, moves: list[str], first: str = BLACK) -> State:
    position = Position(board, stones, first)
    state = replay(position)
    for text in moves:
        position, state = record(position, state, parse_move(text, board, stones))
    return state


def check_answer(state: State, player: str, objective: str, backend: str, expected: int | None) -> None:
    answer = reach(state, player, objective, backend=backend)
    if expected is None:
        assert answer.answer == IMPOSSIBLE
        return
    assert answer.answer == POSSIBLE
    assert (answer.stones if objective == STONES else answer.points) == expected
    # the answer's own replay, again: legal in this order and winning with the last stone only
    after = state.copy()
    for i, (placement, base) in enumerate(answer.moves):
        assert line(after, player) is None
        lay(after, player, placement, base)
    assert line(after, player) == answer.line or line(after, player) is not None


def cost_of(state: State, objective: str):
    return (lambda name: 1) if objective == STONES else (lambda name: state.stones[name].points)


WALL_STONES = stones_from_json([
    {"name": "block", "count": 3, "points": 1, "faces": [{"layers": ["#"], "base": "e"}]},
    {"name": "post", "count": 3, "points": 4, "faces": [{"layers": ["#", "#"], "base": "e"}]},
    {"name": "beam", "count": 1, "points": 9, "faces": [{"layers": ["###"], "base": "e-e"}]},
    {"name": "arch", "count": 1, "points": 25, "faces": [{"layers": ["#.#", "###"], "base": "eoe"}, {"layers": ["###", "#.#"], "base": "e-e"}]},
])

CRAFTED = [
    # blue's beam walls off row 3: black crosses with the arch, or with blocks and the beam on top
    (Board(5, 3), SMALL_STONES, ["block a1", "beam a3 e"], BLACK),
    # a wall of blue posts, two high: black must stack to height 2 on both sides to cross
    (Board(5, 3), WALL_STONES, ["block a1", "post a3", "block c1", "post b3", "block a5", "post c3"], BLACK),
    # the same wall with zones inside: the first and last two rows are zones
    (Board(6, 3, "inside"), WALL_STONES, ["block a1", "post a3", "block c1", "post b3", "block a6", "post c3"], BLACK),
]


@pytest.mark.parametrize("case", range(len(CRAFTED)))
@pytest.mark.parametrize("objective", [STONES, POINTS])
def test_crafted_crossings_against_search(case, objective):
    board, stones, moves, player = CRAFTED[case]
    state = game(board, stones, moves)
    expected = cheapest_by_search(state, player, cost_of(state, objective))
    for backend in BACKENDS:
        check_answer(state, player, objective, backend, expected)


def test_crossing_a_post_wall_needs_posts():
    board, stones, moves, player = CRAFTED[1]
    state = game(board, stones, moves)
    answer = reach(state, player, STONES)
    assert answer.answer == POSSIBLE
    assert any(base == 2 for _, base in answer.moves)  # something rests at height 2, over the wall


@pytest.mark.parametrize("seed", range(8))
def test_random_small_positions_against_search(seed):
    _, state = random_game(Board(5, 3), SMALL_STONES, 6, seed, avoid_threats=True)
    for player in PLAYERS:
        for objective in (STONES, POINTS):
            expected = cheapest_by_search(state, player, cost_of(state, objective))
            for backend in BACKENDS:
                check_answer(state, player, objective, backend, expected)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_random_6x4_positions_against_search(seed):
    _, state = random_game(Board(6, 4), SMALL_STONES, 6, 100 + seed, avoid_threats=True)
    for player in PLAYERS:
        expected = cheapest_by_search(state, player, cost_of(state, STONES))
        for backend in BACKENDS:
            check_answer(state, player, STONES, backend, expected)


def test_max_stones_and_impossible():
    board, stones, moves, player = CRAFTED[1]
    state = game(board, stones, moves)
    fewest = reach(state, player, STONES).stones
    for backend in BACKENDS:
        assert reach(state, player, STONES, max_stones=fewest - 1, backend=backend).answer == IMPOSSIBLE
        assert reach(state, player, STONES, max_stones=fewest, backend=backend).stones == fewest
    # with one block and nothing else, a 5-row board cannot be crossed
    only_block = stones_from_json([{"name": "block", "count": 1, "faces": [{"layers": ["#"], "base": "e"}]}])
    lone = game(Board(5, 3), only_block, [])
    assert reach(lone, BLACK).answer == IMPOSSIBLE


def test_game_over_answers_without_solver():
    stones = default_stones()
    won = game(Board(3, 2), stones, ["beam a1 s"])
    assert won.winner == BLACK
    assert reach(won, BLACK).answer == POSSIBLE and reach(won, BLACK).stones == 0
    lost = reach(won, BLUE)
    assert lost.answer == IMPOSSIBLE and "game is over" in lost.reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_model_of_the_building_constraints_can_be_laid(backend):
    """Soundness of the encoding: any set of candidates it accepts has a building order in which
    the rules accept every stone (here on a small board with stacking, crossing and arches)."""
    state = game(Board(3, 3), SMALL_STONES, ["block b2", "block a1"])
    found = candidates(state, BLACK)
    encoding = encode_build(state, BLACK, found)
    solver = make_backend(backend, encoding.formula)
    models, _ = solver.enumerate(encoding.chosen, limit=400)
    assert len(models) >= 100
    stacked = 0
    for model in models:
        chosen = [c for c, lit in zip(encoding.candidates, encoding.chosen) if model[lit]]
        order = building_order(chosen)
        assert order is not None
        replay_building(state, BLACK, order)  # raises if the rules refuse a stone
        stacked += any(c.base > 0 for c in chosen)
    assert stacked > 0


def test_every_buildable_set_is_a_model():
    """Completeness of the encoding: every set of stones the rules can lay in two or three
    moves (the opponent passing) satisfies the constraints."""
    state = game(Board(3, 2), SMALL_STONES, ["block a2", "block b1"])
    found = candidates(state, BLACK)
    index = {(c.stone, c.cubes): i for i, c in enumerate(found)}
    encoding = encode_build(state, BLACK, found)
    solver = make_backend("sat", encoding.formula)
    sets = set()
    frontier = [(state, ())]
    for _ in range(3):
        nxt = []
        for here, chosen in frontier:
            for placement, base in placements(here, BLACK):
                after = here.copy()
                lay(after, BLACK, placement, base)
                laid = after.laid[-1]
                key = index[(laid.placement.stone, laid.cubes)]
                sets.add(frozenset(chosen + (key,)))
                nxt.append((after, chosen + (key,)))
        frontier = nxt[:400]
    assert len(sets) > 50
    for chosen in sets:
        assumptions = [lit if i in chosen else -lit for i, lit in enumerate(encoding.chosen)]
        assert solver.solve(assumptions).status is Status.SAT


# an L of three columns: the corner two cubes high, one tip low, the other tip raised. Two hooks
# can interlock (each one's raised tip on the other's low tip), which no order can build
HOOK = {"name": "hook", "count": 2, "points": 1, "faces": [{"layers": ["##/..", ".#/.#"], "base": "ee/.e"}]}
HOOKS = stones_from_json([HOOK, {"name": "block", "count": 1, "points": 1, "faces": [{"layers": ["#"], "base": "e"}]}])


@pytest.mark.parametrize("backend", BACKENDS)
def test_interlocking_stones_are_cut_off(backend):
    hooks_only = stones_from_json([HOOK])
    state = game(Board(2, 2), hooks_only, [])
    # each hook's raised tip needs a cube under it; only another hook could give it, interlocked
    found = candidates(state, BLACK)
    encoding = encode_build(state, BLACK, found)
    assert add_line(state, encoding) is not None
    assert make_backend(backend, encoding.formula).solve().status is Status.SAT  # the encoding alone says yes
    assert reach(state, BLACK, backend=backend).answer == IMPOSSIBLE  # but no order lays it
    with_block = game(Board(2, 2), HOOKS, [])
    answer = reach(with_block, BLACK, backend=backend)
    assert answer.answer == POSSIBLE and answer.stones == 2
    assert [p.stone for p, _ in answer.moves] == ["block", "hook"]


@pytest.mark.slow
def test_empty_standard_board():
    """Ten rows need three stones (a span or bridge covers four); the fewest points is 16."""
    state = game(Board(), default_stones(), [])
    stones = reach(state, BLACK, STONES)
    assert (stones.answer, stones.stones) == (POSSIBLE, 3)
    points = reach(state, BLACK, POINTS)
    assert (points.answer, points.points) == (POSSIBLE, 16)


def test_race_reports_both_players():
    board, stones, moves, _ = CRAFTED[0]
    state = game(board, stones, moves)
    result = race(state)
    for player in PLAYERS:
        assert result.fewest_stones[player].stones == reach(state, player, STONES).stones
        assert result.fewest_points[player].points == reach(state, player, POINTS).points
    assert result.fewest_stones[BLACK].stones == 2  # checked by search in test_crafted_crossings
    lead = result.lead()
    diff = result.fewest_stones[BLUE].stones - result.fewest_stones[BLACK].stones
    assert lead["stones"] == {"verdict": "ahead" if diff else "level", "ahead": BLACK if diff > 0 else BLUE if diff < 0 else None, "by": abs(diff)}
