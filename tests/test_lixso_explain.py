"""The hint engine and the grader state one set of rules (seeds/lixso.md, "Difficulty levels"):
the same facts at each direct level, and on every puzzle the hints' highest level is the grade."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from placesat.lixso.deduce import deducer_for
from placesat.lixso.explain import Contradiction, Reasoner, explainer_for, steps_level
from placesat.lixso.model import COLOURS, Grid, load_pack
from tests.conftest import thorough
from tests.lixso_samples import random_puzzles

ROOT = Path(__file__).resolve().parent.parent


def reasoner_facts(height: int, width: int, facts: list[tuple[tuple, bool]], level: int) -> set[int] | None:
    """The literals the hint engine's direct rules of ``level`` reach from ``facts`` (None: a
    contradiction)."""
    deducer = deducer_for(height, width)
    t = deducer.template
    reasoner = Reasoner(explainer_for(height, width).board, level)
    try:
        for key, value in facts:
            reasoner.add(key, value, "given", 0)
        reasoner.run()
    except Contradiction:
        return None
    lit = lambda key: (t.colour if key[0] == "cell" else t.tile)[key[1]][key[2]]  # noqa: E731
    return {lit(key) if f.value else -lit(key) for key, f in reasoner.known.items()}


def grader_facts(height: int, width: int, facts: list[tuple[tuple, bool]], level: int) -> set[int] | None:
    """The literals unit propagation over the grading template of ``level`` reaches."""
    deducer = deducer_for(height, width)
    t = deducer.template
    engine = deducer.engine if level == 2 else deducer.direct_engine()
    lits = [(t.colour if key[0] == "cell" else t.tile)[key[1]][key[2]] * (1 if value else -1) for key, value in facts]
    ok, implied = engine.propagate(lits)
    return {x for x in implied if abs(x) <= deducer.num_vars} | set(lits) if ok else None


def random_facts(height: int, width: int, rng: random.Random) -> list[tuple[tuple, bool]]:
    """Some cells' colours (of a solution, or at random), some tiles, some facts against."""
    deducer = deducer_for(height, width)
    t = deducer.template
    from placesat.lixso.generate import random_solution

    solution = random_solution(t, rng, tiled=True)
    facts = []
    for i in rng.sample(range(height * width), rng.randint(1, height * width // 3)):
        k = COLOURS.index(solution[i // width][i % width]) if rng.random() < 0.9 else rng.randrange(4)
        facts.append((("cell", i, k), rng.random() < 0.85))
    for p in rng.sample(range(len(t.placements)), rng.randint(0, 6)):
        facts.append((("tile", p, rng.randrange(4)), rng.random() < 0.3))
    return facts


@pytest.mark.parametrize("height,width", [(6, 6), (9, 9)])
def test_the_direct_rules_in_words_reach_exactly_what_the_grader_propagates(height, width):
    rng = random.Random(f"direct-{height}x{width}")
    contradictions, rounds = 0, 60 if height * width <= 36 else 25
    for _ in range(rounds):
        facts = random_facts(height, width, rng)
        for level in (1, 2):
            words, grader = reasoner_facts(height, width, facts, level), grader_facts(height, width, facts, level)
            assert words == grader, (facts, level)
            contradictions += words is None
    assert 2 < contradictions < 2 * rounds - 2  # both kinds of state were tried


def test_level_one_facts_are_not_labelled_level_two():
    # a fact that the level-1 rules reach keeps level 1, even when a level-2 rule finds it first
    for grid in random_puzzles(6, 6, 3, "labels"):
        session = explainer_for(6, 6).session(grid)
        level_one = reasoner_facts(6, 6, [(("cell", r * 6 + c, COLOURS.index(ch)), True) for r, c, ch in grid.clues()], 1)
        assert level_one is not None
        t = deducer_for(6, 6).template
        for key, fact in session.reasoner.known.items():
            lit = (t.colour if key[0] == "cell" else t.tile)[key[1]][key[2]] * (1 if fact.value else -1)
            assert (fact.level <= 1) == (lit in level_one or fact.rule == "given"), key


def agrees(grade: int | None, highest: int, filled: bool) -> bool:
    if grade == 6:
        return not filled and highest <= 5
    return filled and highest == grade


def test_the_hints_highest_level_is_the_grade_on_random_puzzles():
    seen = set()
    for grid in random_puzzles(6, 6, 3, "ci-agree"):
        grade = deducer_for(6, 6).grade(grid).level
        highest, filled = steps_level(grid)
        assert agrees(grade, highest, filled), (grid.rows, grade, highest, filled)
        seen.add(grade)
    assert len(seen) >= 3, seen


@pytest.mark.slow
def test_the_hints_highest_level_is_the_grade_on_more_random_puzzles():
    """48 puzzles of twelve 6x6 solutions (grades 1 to 4 among them), and of 6x9 the puzzles of
    three solutions by default (grades 1 and 3, and the rectangular board: 4 s of the 6x9 part's
    15), all twelve under PLACESAT_THOROUGH=1."""
    seen = set()
    for size, solutions in (((6, 6), 12), ((6, 9), thorough(3, 12))):
        for grid in random_puzzles(*size, solutions, f"ci-agree-{size}"):
            grade = deducer_for(*size).grade(grid).level
            highest, filled = steps_level(grid)
            assert agrees(grade, highest, filled), (grid.rows, grade, highest, filled)
            seen.add(grade)
    assert seen >= {2, 3, 4}, seen


def first_of_pack(level: int) -> Grid:
    return next(g for g in load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt")) if isinstance(g, Grid))


@pytest.mark.parametrize("level", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow),
                                   pytest.param(5, marks=pytest.mark.slow), pytest.param(6, marks=pytest.mark.slow)])
def test_a_shipped_puzzles_hints_reach_its_stated_level(level):
    # the whole shipped set: benchmarks/lixso_levels_agree.py --shipped 20 (level 4-6 hints take a minute each)
    grid = first_of_pack(level)
    highest, filled = steps_level(grid)
    assert agrees(level, highest, filled), (grid.name, highest, filled)
