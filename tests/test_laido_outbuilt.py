"""Laido's plans cut (:meth:`placesat.laido.forced.LaidoGame.outbuilt`, :mod:`placesat.laido.plans`):
the other side's plans are real connection parts worth what they claim, and the forced search
with the cut gives the plain search's answers (and the brute force's where it is short) with
fewer positions in all, on random small boards where the cut fires."""

from __future__ import annotations

import random

from placesat.core.andor import AndOrSearch
from placesat.laido.forced import LaidoGame, Memory
from placesat.laido.model import BLACK, WHITE, Position, load_game
from placesat.laido.plans import PlanPool, plan_candidates, plan_group, plan_value, spare_points
from placesat.laido.rules import groups, is_connection_part, neighbour_table, value_by_search
from tests.test_laido_forced import brute_forced, random_position


def search(position: Position, own: int, outbuild: bool) -> tuple[bool, int, int]:
    game = LaidoGame(position.to_move, memory=Memory(), outbuild=outbuild, anchor=position)
    found = AndOrSearch(game)
    wins = any(found.wins(position, 2 * k - 1, deepen=False) for k in range(1, own + 1))
    return wins, found.stats.nodes, game.outbuilt_cuts


def test_a_plan_is_a_connection_part_worth_at_least_its_value():
    for seed in range(6):
        position = random_position(random.Random(300 + seed), 3, 9 + seed % 3)
        for colour in (BLACK, WHITE):
            for plan in plan_candidates(position, colour):
                group = plan_group(position, colour, plan)
                assert group is not None  # a candidate runs over empty points and its own stones
                stones = position.stones(colour) | (plan.points - position.stones(colour))
                (real,) = [g for g in groups(position.lattice, stones) if plan.path[0] in g]
                assert real == group
                assert is_connection_part(position.lattice, group, plan.path)
                assert value_by_search(position.lattice, group) >= plan_value(plan, group)


def test_a_plan_through_the_other_colour_is_spoilt():
    position = Position(3, black=frozenset({(0, 0)}))
    plan = next(p for p in plan_candidates(Position(3), WHITE) if (0, 0) in p.points)
    assert plan_group(position, WHITE, plan) is None
    assert plan_group(position, BLACK, plan) is not None


def test_spare_points_touch_no_chosen_group_but_its_own():
    position = load_game("grids/laido/mid9-2.json")
    pool = PlanPool(position, WHITE)
    found = pool.outbuilt(position, 7, 4, 6)
    assert found is not None and len(found.plans) == 4
    empty = set(position.empty_points)
    news = [plan.points & empty for plan, _, _ in found.plans]
    for i, a in enumerate(news):  # a stone of black's spoils one plan at most
        assert all(a.isdisjoint(b) for b in news[i + 1:])
    spare = spare_points(position, [(plan.points & empty, group) for plan, group, _ in found.plans])
    assert len(spare) == found.spare >= 6
    joined = neighbour_table(position.lattice)
    for (plan, group, value), new in zip(found.plans, news):
        assert value > 7
        for point in spare - new:
            assert not any(q in group for q in joined[point])


# (side, empty points, seed of random_position): boards where the cut fires
CUT_BOARDS = [(3, 9, 9101), (3, 9, 9104), (4, 20, 9204), (4, 20, 9205)]


def test_the_cut_keeps_every_answer_and_searches_less():
    plain_nodes = cut_nodes = cuts = 0
    for side, empty, seed in CUT_BOARDS:
        position = random_position(random.Random(seed), side, empty)
        for own in (1, 2):
            plain, plain_count, _ = search(position, own, outbuild=False)
            pruned, pruned_count, fired = search(position, own, outbuild=True)
            assert plain == pruned, (position, own)
            if side == 3:
                assert pruned == brute_forced(position, own), (position, own)
            plain_nodes += plain_count
            cut_nodes += pruned_count
            cuts += fired
    assert cuts > 0
    assert cut_nodes < plain_nodes, (cut_nodes, plain_nodes)


def test_the_mid_game_is_cut_at_the_root():
    # mid9-2: Black's best group with 3 more stones is worth 7 (reach --best); White has four
    # plans worth 8 or more that 3 stones of Black's cannot all spoil
    position = load_game("grids/laido/mid9-2.json")
    game = LaidoGame(position.to_move, memory=Memory(), anchor=position)
    found = AndOrSearch(game)
    assert not found.wins(position, 5, deepen=False)
    assert found.stats.nodes == 1 and game.outbuilt_cuts == 1
