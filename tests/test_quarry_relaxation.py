"""The top-view relaxation reach proves bounds with: it never refuses a set of stones the rules
can build (checked at the cheapest cost found by search over moves), and a stone that needs a new
cube under it is held up by the bottom of a stack, never by a stone that needs holding up itself."""

from __future__ import annotations

import pytest

from placesat.core.backend import Status, make_backend
from placesat.quarry.encode import add_line, candidates, encode_build
from placesat.quarry.model import BLACK, BLUE, PLAYERS, Board, cell_name
from placesat.quarry.reach import POINTS, STONES
from placesat.quarry.stones import default_stones

from .quarry_brute import SMALL_STONES, cheapest_by_search, random_game
from .test_quarry_reach import CRAFTED, cost_of, game


def relaxation_status(state, player, objective, budget):
    """Whether the top-view relaxation has a line for ``player`` within ``budget``."""
    costs = {kind.name: (1 if objective == STONES else kind.points) for kind in state.stones.kinds}
    found = candidates(state, player, budgets=[(costs, budget)])
    encoding = encode_build(state, player, found, top_view_only=True)
    if add_line(state, encoding) is None:
        return Status.UNSAT
    encoding.add_budget([(lit, costs[name]) for name, lits in encoding.used.items() for lit in lits], budget)
    return make_backend("cpsat", encoding.formula).solve().status


def small_positions():
    yield from ((f"crafted-{i}", game(board, stones, moves)) for i, (board, stones, moves, _) in enumerate(CRAFTED))
    for seed in range(10):
        yield f"random-{seed}", random_game(Board(5, 3), SMALL_STONES, 6, 200 + seed, avoid_threats=True)[1]


@pytest.mark.parametrize("name,state", list(small_positions()), ids=lambda x: x if isinstance(x, str) else "")
def test_relaxation_keeps_the_cheapest_answer(name, state):
    """At the cheapest cost the rules allow (search over moves), the relaxation still has a line:
    "none within a budget" there is a proof. In 13 of the 44 questions the cheapest answer lays
    a stone on a new one (no flat answer costs as little)."""
    for player in PLAYERS:
        for objective in (STONES, POINTS):
            cheapest = cheapest_by_search(state, player, cost_of(state, objective))
            if cheapest is None or cheapest == 0:
                continue
            assert relaxation_status(state, player, objective, cheapest) is Status.SAT, (name, player, objective, cheapest)


def beam_and_arch_over_a_post():
    """Blue's Post at b2 (two high); black's Beam and Arch laid over it from a2 eastwards rest
    with both ends one level up at a2 and c2, whatever height they take."""
    state = game(Board(3, 3), default_stones(), ["post b2"], first=BLUE)
    cells = {(1, 0), (1, 1), (1, 2)}
    found = candidates(state, BLACK)
    over = [c for c in found if c.stone in ("beam", "arch") and set(c.cells) == cells]
    assert {c.stone for c in over} == {"beam", "arch"} and all(c.base >= 1 for c in over)
    return state, found, over


def test_two_stones_do_not_hold_each_other_up():
    state, _, over = beam_and_arch_over_a_post()
    encoding = encode_build(state, BLACK, over, top_view_only=True)
    solver = make_backend("cpsat", encoding.formula)
    assert solver.solve([encoding.chosen[0]]).status is Status.UNSAT
    assert solver.solve([encoding.chosen[1]]).status is Status.UNSAT
    assert solver.solve(list(encoding.chosen)).status is Status.UNSAT  # each on the other: no building


def test_a_stack_bottom_holds_a_propped_stone_up():
    state, found, over = beam_and_arch_over_a_post()
    posts = [c for c in found if c.stone == "post" and c.base == 0 and set(c.cells) <= {(1, 0), (1, 2)}]
    assert sorted(cell_name(c.at) for c in posts) == ["a2", "c2"]
    encoding = encode_build(state, BLACK, over + posts, top_view_only=True)
    solver = make_backend("cpsat", encoding.formula)
    beam = next(lit for c, lit in zip(encoding.candidates, encoding.chosen) if c.stone == "beam")
    both_posts = [lit for c, lit in zip(encoding.candidates, encoding.chosen) if c.stone == "post"]
    assert solver.solve([beam]).status is Status.SAT
    assert solver.solve([beam, -both_posts[0]]).status is Status.UNSAT  # one end not held up
    assert solver.solve([beam] + both_posts).status is Status.SAT
