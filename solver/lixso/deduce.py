"""What a person can deduce, level by level: grading and hints.

Deductions work on the facts "cell c has colour k" and "a k-coloured tile covers
placement p", starting from the clues. Six levels, weakest first; each can do everything
the ones below it can:

1. **Direct.** One rule at a time, from the clues: a tile that would cover a cell of
   another colour, overlap a placed tile or touch a same-coloured cell is impossible; a
   cell left with one possible tile takes it; a cell whose possible tiles share a colour
   takes that colour.
2. **Direct, with counting and shape.** Also: no 2x2 block is all one colour; two touching
   cells of one colour lie in one tile; three cells of one colour in an L are that tile;
   once a colour's supply is spent it appears nowhere else.
3. **One-cell trial.** "If this cell were colour k, the direct consequences would leave
   some cell without a colour or a tile", so it is not k.
4. **One-tile trial.** The same for a tile: "if an I tile lay here, ... contradiction".
5. **Dilemma.** Try every colour a cell can still take, or every tile that can still
   cover it; whatever all the surviving cases imply is true. This is the chain of
   L-tiles a player imagines before knowing whether a move works.
6. **Beyond.** Unique, but nothing above finishes it: it needs nested trials.

"Direct consequences" are unit propagation over the compiled rules (level 1 over the
rules alone, level 2 and up over the rules with the redundant shape and supply
constraints). A puzzle's level is the weakest level whose deductions decide every cell.
Every deduction is sound and only grows with more facts, so repeating them until nothing
new appears reaches one fixed point whatever the order: grading is deterministic, and
adding a clue never makes a puzzle harder.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass, field

from ..core.backend import SatBackend
from ..core.limits import Deadline
from .encode import LixsoTemplate, build_template
from .model import COLOURS, Grid, default_per_colour
from .rules import cell_name

LEVELS = {
    1: "direct: consequences of the clues, one rule at a time",
    2: "direct, with counting and shape facts (no 2x2 block of one colour, colour supply)",
    3: "one-cell trial: a colour that leads straight to a contradiction is ruled out",
    4: "one-tile trial: a tile that leads straight to a contradiction is ruled out",
    5: "dilemma: what every remaining colour or tile of a cell implies is true",
    6: "beyond: needs nested trials (a chain of guesses)",
}
HARDEST = max(LEVELS)
PROPAGATOR = "minisat22"  # fast unit propagation through python-sat


@dataclass
class Step:
    """One round of deductions at one ``level``: each new fact in words, with its reason."""

    level: int
    findings: list[tuple[str, str]]  # (fact, why)

    @property
    def facts(self) -> list[str]:
        return [fact for fact, _ in self.findings]

    def to_json(self) -> dict:
        return {"level": self.level, "findings": [{"fact": f, "why": why} for f, why in self.findings]}


@dataclass
class Grade:
    """The level of a puzzle and what deciding it took."""

    level: int | None  # None: the clues contradict each other (no solution)
    hardest: str
    solved_rows: tuple[str, ...] | None = None  # the colours decided at that level
    steps: list[Step] = field(default_factory=list)


class _Templates:
    """Compiled templates per grid size (full, and the rules alone), shared in this process."""

    cache: dict[tuple[int, int, int, bool], LixsoTemplate] = {}

    @classmethod
    def get(cls, height: int, width: int, per_colour: int, full: bool = True, deadline: Deadline | None = None) -> LixsoTemplate:
        key = (height, width, per_colour, full)
        if key not in cls.cache:
            if full:
                cls.cache[key] = build_template(height, width, per_colour, deadline=deadline)
            else:
                cls.cache[key] = build_template(height, width, per_colour, redundant=frozenset(), supply=False, deadline=deadline)
        return cls.cache[key]


class Deducer:
    """The deduction levels for one grid size; reusable across puzzles of that size.

    Two python-sat engines do the unit propagation: a shared one that takes a puzzle's facts
    as assumptions (to list everything they imply), and one per :class:`Deduction` that
    holds its facts as permanent units, so that each trial propagates only what is new.
    """

    def __init__(self, height: int, width: int, per_colour: int | None = None, deadline: Deadline | None = None) -> None:
        cap = default_per_colour(height, width) if per_colour is None else per_colour
        self.template = _Templates.get(height, width, cap, deadline=deadline)
        self.rules_only = _Templates.get(height, width, cap, full=False, deadline=deadline)
        # facts are literals of the colour and tile variables, numbered alike in both
        assert self.rules_only.colour == self.template.colour and self.rules_only.tile == self.template.tile
        self.engine = SatBackend(self.template.formula, solver=PROPAGATOR, deadline=deadline)
        self.direct_engine = SatBackend(self.rules_only.formula, solver=PROPAGATOR, deadline=deadline)
        t = self.template
        ncol = len(COLOURS)
        # what each fact literal means, for words and for decoding
        self.meaning: dict[int, tuple[str, int, int]] = {}
        for i, lits in enumerate(t.colour):
            for k in range(ncol):
                self.meaning[lits[k]] = ("colour", i, k)
        for p, lits in enumerate(t.tile):
            for k in range(ncol):
                self.meaning[lits[k]] = ("tile", p, k)
        self.covering: list[list[int]] = [[] for _ in t.cells]  # tile literals covering a cell
        for p, placement in enumerate(t.placements):
            for cell in placement:
                self.covering[t.cell_index(cell)].extend(t.tile[p])

    def describe(self, lit: int) -> str:
        """A fact literal in words."""
        kind, index, k = self.meaning[abs(lit)]
        t = self.template
        if kind == "colour":
            name = cell_name(t.cells[index])
            return f"{name} is {COLOURS[k]}" if lit > 0 else f"{name} is not {COLOURS[k]}"
        cells = " ".join(cell_name(c) for c in t.placements[index])
        return f"an {COLOURS[k]} tile covers {cells}" if lit > 0 else f"no {COLOURS[k]} tile covers {cells}"

    def start(self, grid: Grid, level: int, deadline: Deadline | None = None) -> "Deduction":
        """The deductions up to ``level`` for ``grid``, ready to run."""
        return Deduction(self, self.template.clue_assumptions(grid), level, deadline)

    def grade(self, grid: Grid, max_level: int = HARDEST - 1, record: bool = False, deadline: Deadline | None = None) -> Grade:
        """The weakest level (1-5) whose deductions decide every cell, or 6 when none does.

        With a lower ``max_level`` it stops as soon as that level is not enough (the grade is
        then ``max_level + 1``, "harder than max_level"). With ``record`` every step is kept
        with its reason in words, for hints. ``TimeUp`` when ``deadline`` comes first.
        """
        deduction = self.start(grid, 1, deadline)
        deduction.run(explain=record)
        if not deduction.complete() and max_level >= 2:
            deduction = self.start(grid, max_level, deadline)
            deduction.run(explain=record)
        if deduction.contradiction:
            return Grade(None, "the clues contradict each other", None, deduction.steps)
        level = deduction.hardest if deduction.complete() else max_level + 1
        return Grade(level, LEVELS.get(level, LEVELS[HARDEST]), deduction.rows(), deduction.steps)


_deducers: dict[tuple[int, int, int | None], Deducer] = {}
# free the native solvers while the interpreter can still run their destructors
atexit.register(_deducers.clear)


def deducer_for(height: int, width: int, per_colour: int | None = None, deadline: Deadline | None = None) -> Deducer:
    """The process's one deducer per grid size (its engines take a moment to build)."""
    key = (height, width, per_colour)
    if key not in _deducers:
        _deducers[key] = Deducer(height, width, per_colour, deadline)
    return _deducers[key]


def discard_deducers() -> None:
    """Drop every cached deducer (after a solver failed mid-call, none is trusted again)."""
    _deducers.clear()


class Deduction:
    """What is known about one puzzle, grown by deductions up to ``level``.

    Facts only ever accumulate (deductions are sound), so clues can be added between runs:
    the generator grows a puzzle this way without starting over.
    """

    def __init__(self, deducer: Deducer, facts: list[int], level: int, deadline: Deadline | None = None) -> None:
        self.deducer = deducer
        self.level = level
        self.deadline = deadline
        self.engine = deducer.engine if level >= 2 else deducer.direct_engine
        self._trial: SatBackend | None = None  # made on first use: most puzzles never need trials
        self.facts: list[int] = []
        self.known: set[int] = set()
        self.contradiction = False
        self.hardest = min(level, 2)
        self.steps: list[Step] = []
        self._reported: set[int] = set()
        self.add(facts)

    def add(self, lits: list[int]) -> None:
        """Take ``lits`` as known and list everything they imply directly."""
        for lit in lits:
            if lit not in self.known:
                self.facts.append(lit)
                if self._trial is not None:
                    self._trial.add_clause([lit])
        ok, implied = self.engine.propagate(self.facts)
        self.known = set(implied) | set(self.facts)
        self.contradiction = self.contradiction or not ok

    @property
    def trial(self) -> SatBackend:
        """The engine for trials: the full rules with every known fact as a permanent unit."""
        if self._trial is None:
            self._trial = SatBackend(self.deducer.template.formula, solver=PROPAGATOR)
            for lit in self.facts:
                self._trial.add_clause([lit])
        return self._trial

    def undecided(self) -> list[int]:
        """The cells whose colour is not known yet (by index)."""
        known = self.known
        return [i for i, lits in enumerate(self.deducer.template.colour) if not any(lit in known for lit in lits)]

    def complete(self) -> bool:
        return not self.contradiction and not self.undecided()

    def rows(self) -> tuple[str, ...]:
        """The colours known so far, '.' where undecided."""
        t = self.deducer.template
        known = self.known
        return tuple(
            "".join(
                next((COLOURS[k] for k, lit in enumerate(t.colour[r * t.width + c]) if lit in known), ".")
                for c in range(t.width)
            )
            for r in range(t.height)
        )

    def _new_facts(self, lits) -> list[int]:
        """The colour and tile facts among ``lits`` not known yet, in a fixed order."""
        meaning, known = self.deducer.meaning, self.known
        return sorted((lit for lit in lits if abs(lit) in meaning and lit not in known), key=lambda x: (abs(x), x))

    def _record_direct(self) -> None:
        meaning = self.deducer.meaning
        fresh = self.known - self._reported - set(self.facts)
        new = sorted(lit for lit in fresh if lit > 0 and lit in meaning and meaning[lit][0] == "colour")
        self._reported |= self.known
        if new:
            at = min(self.level, 2)
            why = "it follows from the clues, one rule at a time" if at == 1 else "it follows directly, counting the colour supply and the shape facts too"
            self.steps.append(Step(at, [(self.deducer.describe(lit), why) for lit in new]))

    def run(self, explain: bool = False, until: int | None = None) -> None:
        """Deduce until every cell is decided or nothing new follows at this level.

        Each round applies the weakest level that yields something, all of its findings at
        once, then their direct consequences. With ``until`` (a cell index), it stops as soon
        as that cell's colour is known.
        """
        if explain:
            self._record_direct()
        colour = self.deducer.template.colour
        while not self.contradiction and self.undecided():
            if self.deadline is not None:
                self.deadline.check()
            if until is not None and any(lit in self.known for lit in colour[until]):
                return
            step, found = self._round(explain)
            if step is None:
                return
            self.hardest = max(self.hardest, step.level)
            if explain:
                self.steps.append(step)
            self.add(found)
            if explain:
                self._record_direct()

    def _trials(self, lits: list[int]) -> dict[int, list[int] | None]:
        """What assuming each literal in turn adds to the known facts (None: a contradiction)."""
        outcome: dict[int, list[int] | None] = {}
        propagate = self.trial.propagate
        deadline = self.deadline
        for number, lit in enumerate(lits):
            if deadline is not None and number % 64 == 0:
                deadline.check()
            if lit not in outcome:
                ok, implied = propagate([lit])
                outcome[lit] = implied if ok else None
        return outcome

    def _what_breaks(self, lit: int) -> str:
        """In words, how assuming ``lit`` fails: a cell left without colour or tile, if one is."""
        _, implied = self.trial.propagate([lit])
        gone = self.known | set(implied)
        t = self.deducer.template
        for i, lits in enumerate(t.colour):
            if all(-x in gone for x in lits):
                return f"{cell_name(t.cells[i])} is left with no possible colour"
        for i, lits in enumerate(self.deducer.covering):
            if all(-x in gone for x in lits):
                return f"no tile can cover {cell_name(t.cells[i])}"
        return "two of its direct consequences clash"

    def _round(self, explain: bool) -> tuple[Step | None, list[int]]:
        """Every deduction of the weakest level above 1 that yields something now, as one step."""
        deducer, known, level = self.deducer, self.known, self.level
        t = deducer.template
        if level < 3:
            return None, []
        undecided = self.undecided()
        colour_options = {i: [lit for lit in t.colour[i] if -lit not in known] for i in undecided}
        colour_trials = self._trials([lit for i in undecided for lit in colour_options[i]])
        found: list[int] = []
        reasons: dict[int, str] = {}

        def contradictions(trials: dict[int, list[int] | None]) -> None:
            for lit, implied in trials.items():
                if implied is None and -lit not in found:
                    found.append(-lit)
                    if explain:
                        reasons[-lit] = f"if {deducer.describe(lit)}, {self._what_breaks(lit)}"

        def dilemmas(options: dict[int, list[int]], trials: dict[int, list[int] | None], what: str) -> None:
            for i, lits in options.items():
                alive = [set(trials[lit]) for lit in lits if trials[lit] is not None]  # type: ignore[arg-type]
                if len(alive) < 2:
                    continue
                new = [lit for lit in self._new_facts(set.intersection(*alive)) if lit not in found]
                if new:
                    found.extend(new)
                    if explain:
                        because = (
                            f"{len(alive)} {what} {cell_name(t.cells[i])}, and each of them leads to this"
                        )
                        for lit in new:
                            reasons[lit] = because

        def step(at: int) -> tuple[Step, list[int]]:
            return Step(at, [(deducer.describe(lit), reasons.get(lit, LEVELS[at])) for lit in found]), found

        contradictions(colour_trials)
        if found:
            return step(3)
        if level < 4:
            return None, []
        tile_options = {i: [lit for lit in deducer.covering[i] if -lit not in known] for i in undecided}
        tile_trials = self._trials([lit for i in undecided for lit in tile_options[i]])
        contradictions(tile_trials)
        if found:
            return step(4)
        if level < 5:
            return None, []
        dilemmas(colour_options, colour_trials, "colours remain for")
        dilemmas(tile_options, tile_trials, "tiles can still cover")
        if found:
            return step(5)
        return None, []
