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

How it is computed (the order does not change any fixed point, so neither a grade):

* Levels 1 and 2 are one unit propagation each, in a python-sat engine shared by the
  process (clues as assumptions).
* Trials run in a small engine made per puzzle: only the clauses that the level-2 facts do
  not already satisfy (``encode.propagation_clauses``), with the facts as units and the
  supply counted beside it. A trial's answer is then just what the trial adds.
* Level L's fixed point is reached from level L-1's: each trial's answer is kept, and a
  contradiction becomes a fact at once (the next trials already know it). A kept answer
  stays true while nothing learnt since could meet it: the facts learnt since lie more
  than :data:`REACH` cells away from every cell the trial touched (each rule links cells at
  most that far apart, and different colours only within one cell), and the supply of a
  colour both touched is not close to spent. Otherwise the trial runs again.
* Dilemmas intersect the kept answers of a cell's options, stopping as soon as the
  intersection holds nothing new.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass, field
from functools import reduce
from operator import or_

import numpy as np

from ..core.backend import Formula, SatBackend
from ..core.limits import Deadline
from .encode import LixsoTemplate, build_template, propagation_clauses
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
# Two facts that share a rule are about cells at most this far apart (in rows and in
# columns): a tile's fact is about its three cells, and every rule links a tile with its own
# cells, its ring, or tiles through one of its cells, or links touching cells.
REACH = 1


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


class _ClauseTable:
    """The propagation clauses of a template as arrays, to cut out a puzzle's residual quickly."""

    def __init__(self, clauses: list[list[int]], num_vars: int) -> None:
        by_length: dict[int, list[list[int]]] = {}
        for clause in clauses:
            by_length.setdefault(len(clause), []).append(clause)
        self.num_vars = num_vars
        self.groups = [np.array(group, dtype=np.int32) for group in by_length.values()]

    def residual(self, known: list[int]) -> tuple[list[list[int]], list[int]]:
        """The clauses no known literal satisfies, and the known literals they mention."""
        n = self.num_vars
        value = np.zeros(2 * n + 1, dtype=np.int8)  # value[n + lit]: 1 true, -1 false
        facts = np.array(known, dtype=np.int32)
        value[n + facts] = 1
        value[n - facts] = -1
        mentioned = np.zeros(n + 1, dtype=bool)
        kept: list[list[int]] = []
        for group in self.groups:
            open_clauses = group[(value[n + group] != 1).all(axis=1)]
            mentioned[np.abs(open_clauses)] = True
            kept.extend(open_clauses.tolist())
        return kept, facts[mentioned[np.abs(facts)]].tolist()


class Deducer:
    """The deduction levels for one grid size; reusable across puzzles of that size.

    Two python-sat engines shared by the process do levels 1 and 2 (a puzzle's facts as
    assumptions); each :class:`Deduction` that needs trials makes its own small engine.
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
        self.num_vars = t.formula.num_vars  # the colour and tile variables; auxiliaries come after
        self.supply_cells = 3 * cap  # cells of one colour the supply allows
        self.clauses = _ClauseTable(propagation_clauses(t), self.num_vars)
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
        # the colour a positive colour literal gives its cell (-1 for tile literals), by literal
        self.colour_of = [-1] * (self.num_vars + 1)
        for lits in t.colour:
            for k, lit in enumerate(lits):
                self.colour_of[lit] = k
        # footprint[lit]: where a fact is, as a bit set with one row of cells per colour (the
        # rules within one colour) and one more row for colour facts (one colour per cell
        # links the colours of a cell); indexed by the literal itself (a negative literal
        # counts from the end of the list)
        cells = len(t.cells)
        self.footprint = [0] * (2 * self.num_vars + 1)
        for i, lits in enumerate(t.colour):
            for k, lit in enumerate(lits):
                self.footprint[lit] = self.footprint[-lit] = (1 << (k * cells + i)) | (1 << (ncol * cells + i))
        for p, lits in enumerate(t.tile):
            for k, lit in enumerate(lits):
                self.footprint[lit] = self.footprint[-lit] = reduce(or_, (1 << (k * cells + t.cell_index(c)) for c in t.placements[p]))
        # near[b]: the footprint bits that a rule can link with bit b
        self.footprint_bits = (ncol + 1) * cells
        words = -(-self.footprint_bits // 64)
        # the same as arrays, by literal + num_vars, for whole trial answers at once
        self.footprint_words = np.array(
            [[(self.footprint[lit] >> (64 * w)) & (2**64 - 1) for w in range(words)] for lit in range(-self.num_vars, self.num_vars + 1)],
            dtype=np.uint64,
        )
        self.colour_made = np.array(
            [colour_of_lit if lit > 0 else ncol for lit in range(-self.num_vars, self.num_vars + 1)
             for colour_of_lit in [self.colour_of[lit] if lit > 0 and self.colour_of[lit] >= 0 else ncol]],
            dtype=np.intp,
        )
        self.near = []
        for row in range(ncol + 1):
            reach = REACH if row < ncol else 0
            for r0, c0 in t.cells:
                self.near.append(reduce(or_, (
                    1 << (row * cells + r * t.width + c)
                    for r in range(max(0, r0 - reach), min(t.height, r0 + reach + 1))
                    for c in range(max(0, c0 - reach), min(t.width, c0 + reach + 1))
                )))

    def describe(self, lit: int) -> str:
        """A fact literal in words."""
        kind, index, k = self.meaning[abs(lit)]
        t = self.template
        if kind == "colour":
            name = cell_name(t.cells[index])
            return f"{name} is {COLOURS[k]}" if lit > 0 else f"{name} is not {COLOURS[k]}"
        cells = " ".join(cell_name(c) for c in t.placements[index])
        return f"an {COLOURS[k]} tile covers {cells}" if lit > 0 else f"no {COLOURS[k]} tile covers {cells}"

    def near_cells(self, cells: int) -> int:
        """The footprint bits a rule can link with any of ``cells`` (footprint bit sets)."""
        near, out = self.near, 0
        while cells:
            low = cells & -cells
            out |= near[low.bit_length() - 1]
            cells ^= low
        return out

    def start(self, grid: Grid, level: int, deadline: Deadline | None = None) -> "Deduction":
        """The deductions up to ``level`` for ``grid``, ready to run."""
        return Deduction(self, self.template.clue_assumptions(grid), level, deadline)

    def grade(self, grid: Grid, max_level: int = HARDEST - 1, record: bool = False, deadline: Deadline | None = None) -> Grade:
        """The weakest level (1-5) whose deductions decide every cell, or 6 when none does.

        With a lower ``max_level`` it stops as soon as that level is not enough (the grade is
        then ``max_level + 1``, "harder than max_level"). With ``record`` every step is kept
        with its reason in words, for hints. ``TimeUp`` when ``deadline`` comes first.
        """
        if max_level >= 2:
            deduction = self.start(grid, max_level, deadline)
            if deduction.complete():
                # level 2 decides it: level 1 may too (its rules are a subset)
                direct = self.start(grid, 1, deadline)
                if direct.complete():
                    deduction = direct
                    deduction.hardest = 1
            deduction.run(explain=record)
        else:
            deduction = self.start(grid, 1, deadline)
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


class _TrialEngine:
    """Unit propagation for trials on one puzzle: the clauses its known facts leave open,
    the facts as units, and the supply counted in Python."""

    def __init__(self, deducer: Deducer, known: set[int]) -> None:
        self.deducer = deducer
        facts = [lit for lit in known if abs(lit) <= deducer.num_vars]
        clauses, units = deducer.clauses.residual(facts)
        self.engine = SatBackend(Formula(deducer.num_vars, clauses), solver=PROPAGATOR)
        for lit in units:
            self.engine.add_clause([lit])
        colour_of = deducer.colour_of
        self.count = [0] * len(COLOURS)  # cells known to have each colour
        for lit in facts:
            if lit > 0 and colour_of[lit] >= 0:
                self.count[colour_of[lit]] += 1

    def propagate(self, lits: list[int], known: set[int]) -> tuple[bool, list[int], list[int]]:
        """What ``lits`` add to ``known`` by unit propagation: (no contradiction, the new
        literals, how many cells of each colour they make)."""
        deducer = self.deducer
        cap, ncol, offset = deducer.supply_cells, len(COLOURS), deducer.num_vars
        assumptions = lits
        while True:
            ok, implied = self.engine.propagate(assumptions)
            if not ok:
                return False, implied, []
            made = np.bincount(deducer.colour_made[np.array(implied, dtype=np.intp) + offset], minlength=ncol + 1)[:ncol].tolist()
            spent = [k for k, n in enumerate(made) if n and self.count[k] + n >= cap]
            if not spent:
                return True, implied, made
            if any(self.count[k] + made[k] > cap for k in spent):
                return False, implied, made
            # the supply of these colours is used up: no other cell takes them
            new = set(implied)
            extra = [
                -lit
                for k in spent
                for lit in (lits[k] for lits in deducer.template.colour)
                if lit not in new and -lit not in new and lit not in known and -lit not in known
            ]
            if not extra:
                return True, implied, made
            assumptions = assumptions + extra

    def commit(self, lits: list[int], known: set[int]) -> tuple[bool, list[int]]:
        """Make ``lits`` known for good: (no contradiction, the new literals)."""
        ok, implied, made = self.propagate(lits, known)
        if ok:
            for lit in implied:
                self.engine.add_clause([lit])
            for k, n in enumerate(made):
                self.count[k] += n
        return ok, implied


class _Answers:
    """Trial answers (what assuming a literal adds to the known facts), kept while they hold.

    One row per positive colour or tile literal; each answer's footprint is a row of a bit
    matrix, so that the answers a new fact may change are found in one pass over the rows.
    """

    def __init__(self, deducer: Deducer) -> None:
        rows = deducer.num_vars + 1  # row = variable
        self.deducer = deducer
        self.words = -(-deducer.footprint_bits // 64)
        self.foot = np.zeros((rows, self.words), dtype=np.uint64)
        self.valid = bytearray(rows)  # 1: the kept answer holds for what is known now
        self.valid_rows = np.frombuffer(self.valid, dtype=np.bool_)
        self.adds: list[frozenset[int] | None] = [None] * rows  # None: a contradiction
        self.made: list[list[int]] = [[]] * rows  # cells of each colour the answer makes
        self.most = [0] * len(COLOURS)  # the most cells of each colour any answer made

    def keep(self, lit: int, adds: frozenset[int] | None, implied: list[int], made: list[int]) -> None:
        self.adds[lit] = adds
        self.made[lit] = made
        if any(made):
            self.most = [max(a, b) for a, b in zip(self.most, made)]
        deducer = self.deducer
        self.foot[lit] = np.bitwise_or.reduce(deducer.footprint_words[np.array(implied, dtype=np.intp) + deducer.num_vars], axis=0)
        self.valid[lit] = 1

    def touched(self, near: int) -> list[int]:
        """The literals whose kept answers have facts within ``near`` (a footprint bit set)."""
        bits = np.frombuffer(near.to_bytes(self.words * 8, "little"), dtype=np.uint64)
        words = np.flatnonzero(bits)
        hit = (self.foot[:, words] & bits[words]).any(axis=1) & self.valid_rows
        return np.flatnonzero(hit).tolist()


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
        self._trials: _TrialEngine | None = None  # made on first use: most puzzles never need trials
        self._answers: _Answers | None = None
        self._queue: list[int] = []  # trials to run (again), in order
        self._queued: set[int] = set()
        self.facts: list[int] = []
        self.known: set[int] = set()
        self.contradiction = False
        self.hardest = min(level, 2)
        self.steps: list[Step] = []
        self._reported: set[int] = set()
        self.add(facts)

    def add(self, lits: list[int]) -> None:
        """Take ``lits`` as known and list everything they imply directly."""
        new = [lit for lit in lits if lit not in self.known]
        self.facts.extend(new)
        if self.contradiction or not new:
            return
        if self._trials is not None:
            ok, implied = self._trials.commit(new, self.known)
            self._grow(implied)
            self.contradiction = not ok
            return
        ok, implied = self.engine.propagate(self.facts)
        limit = self.deducer.num_vars
        self.known = {lit for lit in implied if abs(lit) <= limit} | set(self.facts)
        self.contradiction = not ok

    def _grow(self, implied: list[int]) -> None:
        """Take the facts ``implied`` as known, and put the trials they may change back in line."""
        deducer, answers = self.deducer, self._answers
        new = {lit for lit in implied if lit not in self.known}
        self.known |= new
        if answers is None or not new:
            return
        colour_of = deducer.colour_of
        made = [0] * len(COLOURS)
        for lit in new:
            if lit > 0 and colour_of[lit] >= 0:
                made[colour_of[lit]] += 1
        near = deducer.near_cells(reduce(or_, map(deducer.footprint.__getitem__, new)))
        adds = answers.adds
        for lit in answers.touched(near):
            if adds[lit] is not None and not new <= adds[lit]:  # type: ignore[operator]
                self._stale(lit)
        # a colour's supply links facts however far apart once it is nearly spent
        count, cap = self._trials.count, deducer.supply_cells  # type: ignore[union-attr]
        for k, n in enumerate(made):
            if n and count[k] + answers.most[k] >= cap:
                for lit in np.flatnonzero(answers.valid_rows).tolist():
                    kept = answers.made[lit]
                    if kept and kept[k] and count[k] + kept[k] >= cap:
                        self._stale(lit)

    def _stale(self, lit: int) -> None:
        self._answers.valid[lit] = 0  # type: ignore[union-attr]
        if lit not in self._queued:
            self._queued.add(lit)
            self._queue.append(lit)

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

        Levels are applied in turn, each to its fixed point, so that the hardest one used
        is the weakest that decides every cell. With ``until`` (a cell index), it stops as
        soon as that cell's colour is known.
        """
        if explain:
            self._record_direct()
        for level in range(3, self.level + 1):
            if self.contradiction or not self.undecided() or self._decided(until):
                return
            self.hardest = max(self.hardest, level)
            self._close(level, explain, until)

    def _decided(self, cell: int | None) -> bool:
        return cell is not None and any(lit in self.known for lit in self.deducer.template.colour[cell])

    def _learn(self, lits: list[int], level: int, explain: bool, reasons: dict[int, str]) -> None:
        """Add facts found at ``level`` (with their reasons in words when ``explain``)."""
        if explain:
            describe = self.deducer.describe
            self.steps.append(Step(level, [(describe(lit), reasons.get(lit, LEVELS[level])) for lit in lits]))
        self.add(lits)
        if explain:
            self._record_direct()

    def _trial(self, lit: int) -> frozenset[int] | None:
        """What assuming ``lit`` (a positive literal) adds to the known facts (None: a
        contradiction); the kept answer while it holds. Some facts in it may be known since."""
        answers = self._answers
        if answers is None:
            self._trials = _TrialEngine(self.deducer, self.known)
            answers = self._answers = _Answers(self.deducer)
        if answers.valid[lit]:
            return answers.adds[lit]
        ok, implied, made = self._trials.propagate([lit], self.known)  # type: ignore[union-attr]
        if not ok:
            answers.adds[lit] = None
            answers.valid[lit] = 1
            return None
        before = answers.adds[lit]
        if before is not None and len(implied) == len(before.difference(self.known)):
            # unchanged (an answer only grows as facts are learnt): keep its footprint
            answers.valid[lit] = 1
            return before
        adds = frozenset(implied)
        answers.keep(lit, adds, implied, made)
        return adds

    def _what_breaks(self, lit: int) -> str:
        """In words, how assuming ``lit`` fails: a cell left without colour or tile, if one is."""
        assert self._trials is not None
        _, implied, _ = self._trials.propagate([lit], self.known)
        gone = self.known | set(implied)
        t = self.deducer.template
        for i, lits in enumerate(t.colour):
            if all(-x in gone for x in lits):
                return f"{cell_name(t.cells[i])} is left with no possible colour"
        for i, lits in enumerate(self.deducer.covering):
            if all(-x in gone for x in lits):
                return f"no tile can cover {cell_name(t.cells[i])}"
        return "two of its direct consequences clash"

    def _options(self, cell: int, tiles: bool) -> list[int]:
        """The colours (or tiles, with ``tiles``) that ``cell`` can still take."""
        known = self.known
        lits = self.deducer.covering[cell] if tiles else self.deducer.template.colour[cell]
        return [lit for lit in lits if -lit not in known]

    def _close(self, level: int, explain: bool, until: int | None) -> None:
        """Apply the deductions of ``level`` and below until nothing new follows.

        Every open option is tried once; a contradiction becomes a fact at once, and the
        trials it may change go back in line. When the line is empty, every open option's
        answer holds for what is known now: the fixed point of trials (then dilemmas).
        """
        deadline = self.deadline
        reasons: dict[int, str] = {}
        for cell in self.undecided():
            for tiles in (False, True) if level >= 4 else (False,):
                for lit in self._options(cell, tiles):
                    if lit not in self._queued:
                        self._queued.add(lit)
                        self._queue.append(lit)
        probes = 0
        while True:
            queue, known = self._queue, self.known
            position = 0
            while position < len(queue):
                lit = queue[position]
                position += 1
                self._queued.discard(lit)
                if lit in known or -lit in known:
                    continue
                if self.deducer.meaning[lit][0] == "tile" and level < 4:
                    continue  # back in line for the level that tries tiles
                probes += 1
                if deadline is not None and probes % 64 == 0:
                    deadline.check()
                if self._trial(lit) is not None:
                    continue
                if explain:
                    reasons[-lit] = f"if {self.deducer.describe(lit)}, {self._what_breaks(lit)}"
                self._learn([-lit], 4 if self.deducer.meaning[lit][0] == "tile" else 3, explain, reasons)
                known = self.known
                if self.contradiction or self._decided(until):
                    del queue[:position]
                    return
            self._queue = []  # every trial in line was run
            if level < 5 or not self._dilemmas(explain, reasons):
                return
            if self.contradiction or self._decided(until) or not self.undecided():
                return

    def _dilemmas(self, explain: bool, reasons: dict[int, str]) -> bool:
        """Learn what every surviving option of some cell implies; whether anything was new.

        Called when no trial fails, so every option of every open cell survives.
        """
        cells = self.deducer.template.cells
        known = self.known
        found: list[int] = []
        for cell in self.undecided():
            for tiles, what in ((False, "colours remain for"), (True, "tiles can still cover")):
                options = self._options(cell, tiles)
                if len(options) < 2:
                    continue
                common: set[int] | None = None
                for lit in options:
                    adds = self._trial(lit)
                    assert adds is not None, "dilemmas follow the trials that fail"
                    common = set(adds) - known if common is None else common & adds
                    if not common:
                        break
                new = sorted((lit for lit in common or () if lit not in found), key=lambda x: (abs(x), x))
                if new:
                    found.extend(new)
                    if explain:
                        for lit in new:
                            reasons[lit] = f"{len(options)} {what} {cell_name(cells[cell])}, and each of them leads to this"
        if found:
            self._learn(found, 5, explain, reasons)
        return bool(found)
