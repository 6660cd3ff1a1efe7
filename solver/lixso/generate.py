"""Generate Lixso puzzles with exactly one solution, at a chosen level.

For levels 1-5 a puzzle is grown rather than carved: starting from a random full solution
and no clues, the deductions of the target level run; while some cell is undecided, the
solution's colour of one such cell (chosen at random) becomes a clue, and the deductions
go on from where they were. When every cell is decided, the clues decide the solution by
deductions of that level, so the puzzle is unique. If the level below can finish it too,
clues are dropped in random order, each only while the target level still suffices, until
the level below no longer can; the grade is then exactly the target (when no clue can go,
a new solution is tried). With ``minimal``, clues are dropped further while the target
level suffices.

Level 6 puzzles are carved: clues are removed from a full solution, in random order, as
long as the solver proves the solution unique; the result is kept when level 5 cannot
finish it.

Every puzzle's randomness comes from its own seed (the pack seed and its index), so the
same seed gives the same pack however many worker processes share the work.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.backend import SatBackend
from .deduce import HARDEST, Deducer, deducer_for
from .encode import LixsoTemplate
from .model import COLOURS, Grid
from .solve import LixsoSolver, Verdict

MAX_ATTEMPTS = 200


class GenerationFailed(Exception):
    """No puzzle of the asked kind could be made (an ordinary failure, reported per puzzle)."""
RANDOM_SOLUTION_SOLVER = "cadical195"  # the python-sat solver that honours preferred phases


@dataclass
class Generated:
    """A generated puzzle, its unique solution and its level."""

    grid: Grid
    solution: tuple[str, ...]
    level: int
    attempts: int


def random_solution(template: LixsoTemplate, rng: random.Random) -> tuple[str, ...]:
    """A random full solution: a SAT model found with a random preferred colour per cell.

    The preference is given as CaDiCaL's initial phases (MiniSat and Glucose ignore phases
    set through python-sat 1.9, and would return the same model every time).
    """
    engine = SatBackend(template.formula, solver=RANDOM_SOLUTION_SOLVER)
    phases = []
    for lits in template.colour:
        preferred = rng.randrange(len(COLOURS))
        phases.extend(lit if k == preferred else -lit for k, lit in enumerate(lits))
    engine._solver.set_phases(phases)
    result = engine.solve()
    engine.close()
    if not result:
        raise GenerationFailed(f"no {template.height}x{template.width} grid can be covered with this colour supply")
    return template.decode(result.model)


def _puzzle(solution: tuple[str, ...], clues: set[int], width: int, name: str) -> Grid:
    rows = [
        "".join(solution[r][c] if r * width + c in clues else "." for c in range(width))
        for r in range(len(solution))
    ]
    return Grid(tuple(rows), name=name)


def _grow(deducer: Deducer, solution: tuple[str, ...], level: int, rng: random.Random) -> set[int]:
    """Clues (cell indices) that level ``level`` decides completely, grown one at a time."""
    template = deducer.template
    width = template.width
    target = deducer.start(Grid(tuple("." * width for _ in solution)), level)
    clues: set[int] = set()
    while True:
        target.run()
        if target.complete():
            return clues
        cell = rng.choice(target.undecided())
        clues.add(cell)
        target.add([template.colour[cell][COLOURS.index(solution[cell // width][cell % width])]])


def _decides(deducer: Deducer, solution: tuple[str, ...], clues: set[int], level: int) -> bool:
    """Whether deductions up to ``level`` decide every cell from these clues."""
    deduction = deducer.start(_puzzle(solution, clues, deducer.template.width, ""), level)
    deduction.run()
    return deduction.complete()


def _can_drop(deducer: Deducer, solution: tuple[str, ...], clues: set[int], cell: int, level: int) -> bool:
    """Whether ``level`` still decides every cell without the clue at ``cell``.

    ``clues`` must be decided completely at ``level``. Then deducing the dropped cell's
    colour from the other clues is enough: with it, the deductions reach everything the
    full clue set reaches. So the deductions can stop as soon as that cell is known.
    """
    deduction = deducer.start(_puzzle(solution, clues - {cell}, deducer.template.width, ""), level)
    deduction.run(until=cell)
    colour = deducer.template.colour[cell]
    return not deduction.contradiction and any(lit in deduction.known for lit in colour)


def _harden(deducer: Deducer, solution: tuple[str, ...], clues: set[int], level: int, rng: random.Random) -> set[int] | None:
    """Drop clues in random order until level ``level`` still decides every cell and ``level - 1`` does not.

    A clue the level below can do without goes (the puzzle keeps its level and loses a
    clue); the first clue that only the target level can do without goes last. None when
    no clue is of either kind.
    """
    if level == 1 or not _decides(deducer, solution, clues, level - 1):
        return clues
    order = sorted(clues)
    rng.shuffle(order)
    for cell in order:
        if _can_drop(deducer, solution, clues, cell, level - 1):
            clues = clues - {cell}
        elif _can_drop(deducer, solution, clues, cell, level):
            return clues - {cell}
    return None


def _prune(deducer: Deducer, solution: tuple[str, ...], clues: set[int], level: int, rng: random.Random) -> set[int]:
    """Drop clues, in random order, while level ``level`` still decides every cell."""
    order = sorted(clues)
    rng.shuffle(order)
    for cell in order:
        if _can_drop(deducer, solution, clues, cell, level):
            clues = clues - {cell}
    return clues


def generate_one(height: int, width: int, level: int, seed: str, name: str, per_colour: int | None = None, minimal: bool = False) -> Generated:
    """One puzzle of exactly ``level``, unique, from the seed string ``seed``.

    With ``minimal``, clues are then dropped while the level still suffices (slower); level
    6 puzzles are always minimal (no clue can go without losing uniqueness).
    """
    if not 1 <= level <= HARDEST:
        raise ValueError(f"level must be 1 to {HARDEST}")
    rng = random.Random(seed)
    deducer = deducer_for(height, width, per_colour)
    template = deducer.template
    for attempt in range(1, MAX_ATTEMPTS + 1):
        solution = random_solution(template, rng)
        if level < HARDEST:
            clues = _harden(deducer, solution, _grow(deducer, solution, level, rng), level, rng)
            if clues is None:
                continue
            if minimal:
                clues = _prune(deducer, solution, clues, level, rng)
        else:
            clues = _carve(solution, rng, per_colour, name)
            grade = deducer.grade(_puzzle(solution, clues, width, name), max_level=HARDEST - 1)
            if grade.level != HARDEST:
                continue
        return Generated(_puzzle(solution, clues, width, name), solution, level, attempt)
    raise GenerationFailed(f"no level-{level} puzzle found in {MAX_ATTEMPTS} attempts")


def _carve(solution: tuple[str, ...], rng: random.Random, per_colour: int | None, name: str) -> set[int]:
    """Remove clues from the full solution, in random order, while the solution stays unique."""
    height, width = len(solution), len(solution[0])
    solver = LixsoSolver("sat", per_colour)
    clues = set(range(height * width))
    order = list(range(height * width))
    rng.shuffle(order)
    for cell in order:
        trial = clues - {cell}
        if solver.solve(_puzzle(solution, trial, width, name)).status is Verdict.UNIQUE:
            clues = trial
    return clues


@dataclass(frozen=True)
class Order:
    """One puzzle to generate: its size, level, seed string and name."""

    height: int
    width: int
    level: int
    seed: str
    name: str
    per_colour: int | None = None
    minimal: bool = False


def fulfil(order: Order) -> Generated | str:
    """Generate one ordered puzzle (for worker processes); a failure comes back as its message.

    Only :class:`GenerationFailed` is a failure; an interrupt or a defect goes on up.
    """
    try:
        return generate_one(order.height, order.width, order.level, order.seed, order.name, order.per_colour, order.minimal)
    except GenerationFailed as error:
        return str(error)


def orders(count: int, level: int, height: int, width: int, seed: int, per_colour: int | None = None, minimal: bool = False) -> list[Order]:
    """The orders for a pack: puzzle ``i`` gets the seed string ``"<seed>:<size>:<level>:<i>"``."""
    return [
        Order(height, width, level, f"{seed}:{height}x{width}:{level}:{i}", f"L{level}-s{seed}-{i + 1:03d}", per_colour, minimal)
        for i in range(count)
    ]


def minimal_unique(height: int, width: int, seed: str, name: str, per_colour: int | None = None) -> tuple[Grid, tuple[str, ...]]:
    """A random puzzle from which no clue can be removed without losing uniqueness, and its solution.

    Whatever its level: these are the hard case for a solver (the benchmark packs).
    """
    rng = random.Random(seed)
    solution = random_solution(deducer_for(height, width, per_colour).template, rng)
    clues = _carve(solution, rng, per_colour, name)
    return _puzzle(solution, clues, width, name), solution
