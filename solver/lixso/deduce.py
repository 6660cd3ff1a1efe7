"""What a person can deduce, level by level: grading and hints.

Deductions work on the facts "cell c has colour k" and "a k-coloured tile covers
placement p", starting from the clues. Six levels, weakest first; each can do everything
the ones below it can:

1. **Direct.** One rule at a time, from the clues: a tile that would cover a cell of
   another colour, overlap a placed tile or touch a same-coloured cell is impossible; a
   cell left with one possible tile takes it; a cell left with one colour takes it; a cell
   that every tile left through a k cell covers is k.
2. **Direct, with shape and counting.** Also: a cell that every tile left through a k cell
   touches is not k; once a colour's cells fill its supply it appears nowhere else.
3. **One-cell trial.** "If this cell were colour k, the direct consequences would leave
   some cell without a colour or a tile", so it is not k.
4. **One-tile trial.** The same for a tile: "if an I tile lay here, ... contradiction".
5. **Dilemma.** Try every tile that can still cover an open cell; whatever all the
   cases imply is true. This is the chain of L-tiles a player imagines before knowing
   whether a move works.
6. **Beyond.** Unique, but nothing above finishes it: it needs nested trials.

"Direct consequences" are unit propagation over the compiled rules (encode.GRADING_FAMILIES:
level 1 over the rules and "cover_all", level 2 also over "touch_all" and the supply); the
hint engine (explain.py) states the same rules in words and reaches the same facts, so a
puzzle's grade is the highest level of its hints (seeds/lixso.md). A puzzle's level is the
weakest level whose deductions decide every cell. Every deduction is sound and only grows
with more facts, so repeating them until nothing new appears reaches one fixed point
whatever the order: grading is deterministic, and adding a clue never makes a puzzle harder.

How it is computed (the order does not change any fixed point, so neither a grade):

* Levels 1 and 2 are one unit propagation each, in a python-sat engine shared by the
  process (clues as assumptions).
* Trials propagate in a compiled engine (:mod:`.native`, Cython) over the puzzle's value array:
  the clauses of ``encode.propagation_clauses`` with the supply counted beside them; a trial
  assigns on top of the known facts and undoes what it assigned, so its answer is just what
  the trial adds, and it costs only what it touches.
* Without hints the whole loop below (trials, re-runs, dilemmas) runs compiled too
  (:mod:`.native`, kept answers as rows of 64-bit words); hints run it here, in Python, for
  the words and the order of steps (and colour trials, for their wording). Both reach the
  same fixed point (tests/test_lixso_native.py), so the grade is the same either way.
* Level L's fixed point is reached from level L-1's: each trial's answer is kept, and failed
  trials become facts a few at a time. A kept answer stays exactly right when new facts come
  unless a rule can now link the two: the answer holds the negation of a new fact (the trial
  now fails: learnt without running it), a clause through a negated new fact is left with at
  most one literal the answer does not falsify, or the two together spend a colour's supply
  (see :meth:`Deduction._after`). Only those trials run again.
* A trial whose literal some kept answer implies cannot fail (its consequences are among
  that answer's), nor can one whose literal is true in a known solution (the generator and
  ``verify`` know it): neither is run until its answer is needed.
* From level 4 on, colour trials and colour dilemmas are left out (hints still make them,
  for their wording): a tile colours its cells, so by unit propagation a tile trial implies
  the trial of the colour it gives each of its cells. If "cell c is k" fails, then so does
  every k tile covering c, and once those are ruled out unit propagation rules out "c is k":
  tile trials reach every fact colour trials reach, and the fixed point is the same. And
  each k tile covering c implies all that "c is k" implies, while every colour c can still
  take has a tile that can still cover c; so what all of c's tiles imply includes what all
  of its colours imply, and c's colour dilemma finds nothing its tile dilemma misses.
* Dilemmas are bounded before any trial runs (by the kept answers; for an option true in a
  known solution, by that solution, since everything the option implies is true in it; for
  an option a kept answer implies, by that answer -- here, not in the compiled loop), and
  intersect exact answers only while the bound holds something new; a cell whose options'
  answers have not changed since it last gave nothing is skipped.
"""

from __future__ import annotations

import atexit
import copy
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..core.backend import SatBackend
from ..core.limits import Deadline, TimeUp
from .encode import propagation_clauses, template_for
from .model import COLOURS, HARDEST_LEVEL, Grid, default_per_colour
from .rules import cell_name

if TYPE_CHECKING:
    from .native import TrialState, TrialTables

LEVELS = {
    1: "direct: consequences of the clues, one rule at a time",
    2: "direct, with shape and counting (a cell every tile left through a coloured cell would touch; the colour supply)",
    3: "one-cell trial: a colour that leads straight to a contradiction is ruled out",
    4: "one-tile trial: a tile that leads straight to a contradiction is ruled out",
    5: "dilemma: what every tile that can still cover an open cell leads to is true",
    6: "beyond: needs nested trials (a chain of guesses)",
}
HARDEST = HARDEST_LEVEL  # LEVELS names each level up to it
PROPAGATOR = "minisat22"  # fast unit propagation through python-sat (levels 1 and 2)


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

    level: int | None  # None: the clues and the rules allow no solution
    hardest: str
    solved_rows: tuple[str, ...] | None = None  # the colours decided at that level
    steps: list[Step] = field(default_factory=list)
    # every colour and tile literal known true at the end (true in every solution): a solver
    # given them as assumptions finds the same solutions with far less search
    facts: tuple[int, ...] = ()


class _ClauseTable:
    """The propagation clauses of a template as arrays, for finding the clauses through given
    literals without a scan (the Python trial loop's :meth:`Deduction._after`).

    A literal ``lit`` sits at position ``num_vars + lit`` of a puzzle's value array (1 true, -1
    false, 0 open); the padding of short clauses points at position ``num_vars``, which is kept
    false.
    """

    def __init__(self, clauses: list[list[int]], num_vars: int) -> None:
        n = self.num_vars = num_vars
        lits = np.zeros((len(clauses), max(map(len, clauses))), dtype=np.int64)
        for i, clause in enumerate(clauses):
            lits[i, : len(clause)] = clause
        self.lits = lits
        self.pos = lits + n
        real = lits != 0
        lengths = real.sum(axis=1)
        # the occurrences of the literals of clauses longer than two: a binary clause through a
        # literal that becomes false is left unit, so unit propagation satisfies it at once
        # (:meth:`through` serves the search for clauses a new fact may leave nearly unit)
        long = real & (lengths > 2)[:, None]
        flat = self.pos[long]  # reading order, clause by clause
        order = np.argsort(flat, kind="stable")
        self.occ_clause = np.nonzero(long)[0][order]  # clause ids, by the position of their literals
        self.occ_start = np.searchsorted(flat[order], np.arange(2 * n + 2))

    def through(self, positions: np.ndarray) -> np.ndarray:
        """The clauses of more than two literals holding a literal at any of ``positions``
        (sorted, each once)."""
        starts, ends = self.occ_start[positions], self.occ_start[positions + 1]
        lengths = ends - starts
        total = int(lengths.sum())
        if not total:
            return np.zeros(0, dtype=np.int64)
        index = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(total)
        hit = np.zeros(len(self.lits), dtype=bool)
        hit[self.occ_clause[index]] = True
        return np.flatnonzero(hit)


class Deducer:
    """The deduction levels for one grid size; reusable across puzzles of that size.

    Two python-sat engines shared by the process do levels 1 and 2 (a puzzle's facts as
    assumptions); each :class:`Deduction` that needs trials fills the arrays of its own compiled
    engine (the tables it reads are made once per size, :meth:`trial_tables`).
    """

    def __init__(self, height: int, width: int, per_colour: int | None = None, deadline: Deadline | None = None) -> None:
        cap = default_per_colour(height, width) if per_colour is None else per_colour
        self.template = template_for(height, width, cap, deadline=deadline, grading=2)
        self.engine = SatBackend(self.template.formula, solver=PROPAGATOR, deadline=deadline)
        self._direct_engine: SatBackend | None = None  # see direct_engine
        t = self.template
        n = self.num_vars = t.formula.num_vars  # the colour and tile variables; auxiliaries come after
        self.supply_cells = 3 * cap  # cells of one colour the supply allows
        self.clauses = _ClauseTable(propagation_clauses(t), n)
        self._trial_tables: TrialTables | None = None
        ncol = len(COLOURS)
        # what each fact literal means, for words and for decoding
        self.meaning: dict[int, tuple[str, int, int]] = {}
        for i, lits in enumerate(t.colour):
            for k in range(ncol):
                self.meaning[lits[k]] = ("colour", i, k)
        for p, lits in enumerate(t.tile):
            for k in range(ncol):
                self.meaning[lits[k]] = ("tile", p, k)
        self.is_tile = bytearray(n + 1)
        for lits in t.tile:
            for lit in lits:
                self.is_tile[lit] = 1
        self.covering: list[list[int]] = [[] for _ in t.cells]  # tile literals covering a cell
        for p, placement in enumerate(t.placements):
            for cell in placement:
                self.covering[t.cell_index(cell)].extend(t.tile[p])
        # value-array positions of each cell's colour literals (cells x colours)
        self.colour_pos = np.array(t.colour, dtype=np.int64) + n
        # the colour a literal gives its cell, by position (ncol: none), to count the supply
        self.colour_made = np.full(2 * n + 1, ncol, dtype=np.int64)
        for k in range(ncol):
            self.colour_made[self.colour_pos[:, k]] = k
        # Sets of literals as Python ints, bit num_vars + literal: trials keep their answers so
        # (an answer becomes a mask once, by or-ing its literals' bits; every test on it is then a
        # machine-word loop in C rather than a Python loop over literals)
        self._mask_bytes = (2 * n + 1 + 7) // 8
        self._last_solution: tuple[tuple[str, ...], np.ndarray | None] | None = None  # see solution_mask
        self.colour_bits = [self.mask_at(self.colour_pos[:, k]) for k in range(ncol)]  # "cell is colour k", per k
        self.any_colour_bits = sum(self.colour_bits)

    def direct_engine(self, deadline: Deadline | None = None) -> SatBackend:
        """The level-1 engine, over the rules alone; built on first use (within ``deadline``),
        since only a puzzle that level 2 decides is asked about level 1: for the others it
        is never needed (a 21x21 grade spares 0.5 s)."""
        if self._direct_engine is None:
            t = self.template
            rules_only = template_for(t.height, t.width, t.per_colour, deadline=deadline, grading=1)
            # facts are literals of the colour and tile variables, numbered alike in both
            assert rules_only.colour == t.colour and rules_only.tile == t.tile
            self._direct_engine = SatBackend(rules_only.formula, solver=PROPAGATOR, deadline=deadline)
        return self._direct_engine

    def trial_tables(self) -> "TrialTables":
        """The propagation clauses and the supply as the arrays the compiled trial engine reads
        (made on the first trial of this size)."""
        if self._trial_tables is None:
            from .native import TrialTables

            self._trial_tables = TrialTables(
                propagation_clauses(self.template), self.num_vars, self.colour_pos, self.supply_cells, self.covering
            )
        return self._trial_tables

    def mask_at(self, positions: np.ndarray) -> int:
        """The set of literals at these value-array positions (num_vars + literal), as a mask."""
        bits = np.zeros(self._mask_bytes * 8, dtype=np.uint8)
        bits[positions] = 1
        return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")

    def mask_of(self, lits: list[int]) -> int:
        """The set of literals ``lits`` as a mask."""
        # a trial's answer is some seventy literals: or-ing their bits beats a round trip to numpy
        # (made here, not kept in a table: a table of every literal's bit grows with the square of
        # the variables, 16 MB at 21x21, and saved only 7% of this call)
        n = self.num_vars
        return reduce(or_, [1 << (n + lit) for lit in lits], 0)

    def literals_in(self, mask: int) -> list[int]:
        """The literals of a mask, in position order."""
        bits = np.unpackbits(np.frombuffer(mask.to_bytes(self._mask_bytes, "little"), dtype=np.uint8), bitorder="little")
        return (np.flatnonzero(bits) - self.num_vars).tolist()

    def describe(self, lit: int) -> str:
        """A fact literal in words."""
        kind, index, k = self.meaning[abs(lit)]
        t = self.template
        if kind == "colour":
            name = cell_name(t.cells[index])
            return f"{name} is {COLOURS[k]}" if lit > 0 else f"{name} is not {COLOURS[k]}"
        cells = " ".join(cell_name(c) for c in t.placements[index])
        return f"an {COLOURS[k]} tile covers {cells}" if lit > 0 else f"no {COLOURS[k]} tile covers {cells}"

    def solution_mask(self, grid: Grid, solution: tuple[str, ...] | None) -> np.ndarray | None:
        """Which colour and tile literals ``solution`` makes true (by variable), or None when it
        is not a solution of ``grid`` (wrong size or letters, a clue it breaks, or a rule: unit
        propagation over the whole template from its colours finds a clash).

        A literal true in some solution can never fail a trial (every known fact holds in that
        solution too), so trials of such literals need not run.
        """
        t = self.template
        if solution is None or len(solution) != t.height or any(len(row) != t.width or set(row) - set(COLOURS) for row in solution):
            return None
        if any(solution[r][c] != ch for r, c, ch in grid.clues()):
            return None
        solution = tuple(solution)
        # the generator asks about one solution for puzzle after puzzle: the last answer is kept
        # (it depends on the solution alone; read-only, as it is shared)
        if self._last_solution is not None and self._last_solution[0] == solution:
            return self._last_solution[1]
        ok, implied = self.engine.propagate(t.solution_literals(solution))
        mask = None
        if ok:
            mask = np.zeros(self.num_vars + 1, dtype=bool)
            mask[[lit for lit in implied if 0 < lit <= self.num_vars]] = True
            mask.flags.writeable = False
        self._last_solution = (solution, mask)
        return mask

    def start(self, grid: Grid, level: int, deadline: Deadline | None = None, solution: tuple[str, ...] | None = None) -> "Deduction":
        """The deductions up to ``level`` for ``grid``, ready to run (``solution``, when known,
        only saves work)."""
        return Deduction(self, self.template.clue_assumptions(grid), level, deadline, self.solution_mask(grid, solution))

    def grade(
        self,
        grid: Grid,
        max_level: int = HARDEST - 1,
        record: bool = False,
        deadline: Deadline | None = None,
        solution: tuple[str, ...] | None = None,
    ) -> Grade:
        """The weakest level (1-5) whose deductions decide every cell, or 6 when none does.

        With a lower ``max_level`` it stops as soon as that level is not enough (the grade is
        then ``max_level + 1``, "harder than max_level"). With ``record`` every step is kept
        with its reason in words, for hints. ``solution``: a solution of the grid, when one is
        known; it changes no grade, it only spares trials that cannot fail (one that is not a
        solution is ignored). ``TimeUp`` when ``deadline`` comes first.
        """
        if max_level >= 2:
            deduction = self.start(grid, max_level, deadline, solution)
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
            return Grade(None, "the clues and the rules allow no solution", None, deduction.steps)
        level = deduction.hardest if deduction.complete() else max_level + 1
        return Grade(level, LEVELS.get(level, LEVELS[HARDEST]), deduction.rows(), deduction.steps, deduction.true_facts())


_deducers: dict[tuple[int, int, int | None], Deducer] = {}
# free the native solvers while the interpreter can still run their destructors
atexit.register(_deducers.clear)


def deducer_for(height: int, width: int, per_colour: int | None = None, deadline: Deadline | None = None) -> Deducer:
    """The process's one deducer per grid size (its engines take a moment to build)."""
    key = (height, width, per_colour)
    if key not in _deducers:
        _deducers[key] = Deducer(height, width, per_colour, deadline)
    return _deducers[key]


def shown_level(grid, deadline: Deadline) -> int | None:
    """The level a puzzle is shown with (a print sheet, the play page): its stated
    ``# level:`` when it has one, else its grade; None when the time limit came first."""
    level = grid.stated_level()
    if level is not None:
        return level
    try:
        return deducer_for(grid.height, grid.width, grid.per_colour(), deadline).grade(grid, deadline=deadline).level
    except TimeUp:
        return None


def discard_deducers() -> None:
    """Drop every cached deducer (after a solver failed mid-call, none is trusted again)."""
    _deducers.clear()


class _TrialEngine:
    """Unit propagation for trials on one puzzle, with the supply counted beside the clauses
    (compiled: :mod:`.native`).

    ``value`` is the puzzle's value array (see :class:`_ClauseTable`), shared with the
    :class:`Deduction` that owns this engine: a trial assigns on top of it and undoes what it
    assigned; a commit sets the facts it finds in it.
    """

    def __init__(self, deducer: Deducer, value: np.ndarray, solution: np.ndarray | None = None) -> None:
        from .native import TrialState  # the kernels are loaded on the first trial, not before

        self.deducer = deducer
        self.value = value
        self.state = TrialState(deducer.trial_tables(), value, solution)

    @property
    def count(self) -> list[int]:
        """Cells known per colour."""
        return self.state.count.tolist()

    def _result(self, size: int) -> tuple[bool, list[int], int]:
        ok = size >= 0
        size = size if ok else -1 - size
        implied = (self.state.trail[:size] - self.deducer.num_vars).tolist()
        return ok, implied, int.from_bytes(self.state.bits.tobytes(), "little") if ok else 0

    def copy(self, value: np.ndarray) -> "_TrialEngine":
        """An independent copy over ``value`` (a copy of this engine's value array)."""
        twin = _TrialEngine.__new__(_TrialEngine)
        twin.deducer, twin.value, twin.state = self.deducer, value, self.state.copy(value)
        return twin

    def propagate(self, lits: list[int]) -> tuple[bool, list[int], int]:
        """What ``lits`` add to the known facts by unit propagation and the supply: (no
        contradiction, the new literals, the same as a mask)."""
        positions = np.array(lits, dtype=np.int32) + self.deducer.num_vars
        return self._result(self.state.propagate(positions, False))

    def answer(self, lit: int) -> int | None:
        """What the trial of ``lit`` adds to the known facts, as a mask (None: it fails)."""
        size = self.state.probe(self.deducer.num_vars + lit)
        return int.from_bytes(self.state.bits.tobytes(), "little") if size >= 0 else None

    def commit(self, lits: list[int]) -> tuple[bool, list[int], int]:
        """Make ``lits`` known for good, with all they imply (set in the value array): (no
        contradiction, the new literals, the same as a mask). On a contradiction nothing is
        set."""
        positions = np.array(lits, dtype=np.int32) + self.deducer.num_vars
        return self._result(self.state.propagate(positions, True))


# what is known of a trial (by its literal)
OPEN = 0  # not run since the facts last changed near it
ANSWERED = 1  # its answer (what it adds) is kept and holds for what is known now
SURVIVES = 2  # it cannot fail now (a kept answer implies it), but its own answer is not kept
SURE = 3  # it cannot fail: its literal is true in a known solution
# Failed trials are made facts together, up to this many at a time: each commit costs a look at
# every kept answer (about 25 trials' worth), and a few trials run meanwhile without the newest
# facts cost less (measured on the shipped level 4-6 packs: 8 and 32 were a little slower).
FAILURES_PER_COMMIT = 16
# The same for the compiled loop, where a commit costs less beside a trial: every shipped
# puzzle graded with 6 took 0.61-0.62 s against 0.65-0.67 with 16 (three rounds each, in
# turn; 4 the same as 6), and 80 carves 6.4 against 7.2 ms each (batches of 1-3 slower, 8
# the same, 64 or more 8% slower). The fixed point, so every grade and puzzle, is the same
# whatever the batch.
NATIVE_FAILURES_PER_COMMIT = 6
# the compiled trial loop comes back to check the clock after this many trials
PROBES_PER_CHECK = 256


class _KeptAnswers(Mapping):
    """The kept answers of the compiled trial loop, by trial, as masks (like the Python loop's
    dict)."""

    def __init__(self, state: "TrialState") -> None:
        self.state = state

    def _kept(self) -> np.ndarray:
        return np.flatnonzero(self.state.trials.status == ANSWERED)

    def __getitem__(self, lit: int) -> int:
        if not 0 < lit < len(self.state.trials.status) or self.state.trials.status[lit] != ANSWERED:
            raise KeyError(lit)
        return self.state.answer_mask(lit)

    def __iter__(self) -> Iterator[int]:
        return iter(self._kept().tolist())

    def __len__(self) -> int:
        return len(self._kept())


class Deduction:
    """What is known about one puzzle, grown by deductions up to ``level``.

    Facts only ever accumulate (deductions are sound), so clues can be added between runs:
    the generator grows a puzzle this way without starting over.
    """

    def __init__(self, deducer: Deducer, facts: list[int], level: int, deadline: Deadline | None = None,
                 solution: np.ndarray | None = None) -> None:
        self.deducer = deducer
        self.level = level
        self.deadline = deadline
        # by variable: true in a known solution (Deducer.solution_mask)
        self.solution = None if solution is None else bytes(solution.astype(np.uint8))
        self.engine = deducer.engine if level >= 2 else deducer.direct_engine(deadline)
        n = deducer.num_vars
        self.value = np.zeros(2 * n + 1, dtype=np.int8)  # by position num_vars + literal
        self.value[n] = -1  # the padding of the clause table
        self._trials: _TrialEngine | None = None  # made on first use: most puzzles never need trials
        self._native = False  # the trials run compiled (see _start_trials)
        self.facts: list[int] = []
        self.known: set[int] = set()
        self.contradiction = False
        self.hardest = min(level, 2)
        self.steps: list[Step] = []
        self._reported: set[int] = set()
        self.add(facts)
        if not self.facts:
            # no clue at all: the rules alone may still decide facts, or contradict each other
            # (no L-tile fits a grid one cell wide)
            self._propagate_facts()

    def add(self, lits: list[int]) -> None:
        """Take ``lits`` as known and list everything they imply directly."""
        new = [lit for lit in lits if lit not in self.known]
        self.facts.extend(new)
        if self.contradiction or not new:
            return
        if self._trials is not None and self._native:
            n = self.deducer.num_vars
            if not self._trials.state.commit(np.array(new, dtype=np.int32) + n, self.level):
                self.contradiction = True
            self._refresh_known()
            return
        if self._trials is not None:
            self._commit(new)
            return
        self._propagate_facts()

    def _propagate_facts(self) -> None:
        """What unit propagation makes of the rules with the facts, before any trial."""
        ok, implied = self.engine.propagate(self.facts)
        limit = self.deducer.num_vars
        self.known = {lit for lit in implied if abs(lit) <= limit} | set(self.facts)
        self._set(np.fromiter(self.known, dtype=np.int64, count=len(self.known)) + limit)
        self.contradiction = not ok

    def copy(self) -> "Deduction":
        """An independent copy, with every kept trial answer: clues added to the copy are
        worked out from here (only the trials they may change run again), and it reaches the
        fixed point a deduction started from all its facts reaches. The generator tries many
        clues on one puzzle's fixed point so. Not for a deduction that gives hints."""
        if self._trials is not None and not self._native:
            raise ValueError("a deduction that gives hints cannot be copied")
        twin = copy.copy(self)
        twin.value = self.value.copy()
        twin.facts, twin.known, twin._reported = list(self.facts), set(self.known), set(self._reported)
        twin.steps = list(self.steps)
        if self._trials is not None:
            twin._trials = self._trials.copy(twin.value)
            twin._state = twin._trials.state.trials.status
            twin._answers = _KeptAnswers(twin._trials.state)
        return twin

    def _set(self, positions: np.ndarray) -> None:
        self.value[positions] = 1
        self.value[2 * self.deducer.num_vars - positions] = -1

    def undecided(self) -> list[int]:
        """The cells whose colour is not known yet (by index)."""
        return np.flatnonzero((self.value[self.deducer.colour_pos] != 1).all(axis=1)).tolist()

    def complete(self) -> bool:
        return not self.contradiction and not self.undecided()

    def true_facts(self) -> tuple[int, ...]:
        """The colour and tile literals known true (positive or negative)."""
        n = self.deducer.num_vars
        lits = np.flatnonzero(self.value == 1) - n
        return tuple(lits[lits != 0].tolist())

    def rows(self) -> tuple[str, ...]:
        """The colours known so far, '.' where undecided."""
        t = self.deducer.template
        known = self.value[self.deducer.colour_pos] == 1
        letters = [next((COLOURS[k] for k in range(len(COLOURS)) if row[k]), ".") for row in known.tolist()]
        return tuple("".join(letters[r * t.width : (r + 1) * t.width]) for r in range(t.height))

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
        return cell is not None and bool((self.value[self.deducer.colour_pos[cell]] == 1).any())

    # --- trials -------------------------------------------------------------------------
    #
    # A trial's answer is what assuming its literal adds to the known facts, kept as a mask
    # (see Deducer.mask_of) while it holds for what is known now. When new facts D come, an
    # answer A stays exactly right (its closure with D is just the union) unless
    #   * A holds the negation of a fact in D: the trial now fails (learnt at once);
    #   * some clause holds the negation of a fact in D and is left with at most one literal
    #     that is neither false by D nor false by A, none of them true by A (the clause may now
    #     propagate); or
    #   * A and D together make a colour's supply spent.
    # Every other rule link between A and D would already have fired inside one of them.

    def _start_trials(self, explain: bool) -> None:
        deducer = self.deducer
        n = deducer.num_vars
        solution = None if self.solution is None else np.frombuffer(self.solution, dtype=np.uint8)
        self._trials = _TrialEngine(deducer, self.value, solution)
        # without hints the whole loop runs compiled (native.py); hints need the words and the
        # order of steps, which this module's loop gives
        self._native = not explain
        if self._native:
            self._state = self._trials.state.trials.status
            self._answers = _KeptAnswers(self._trials.state)
            return
        self._known_bits = deducer.mask_at(np.flatnonzero(self.value == 1))  # the known literals
        self._fixed = bytearray(n + 1)  # by variable: known either way
        for lit in self.known:
            self._fixed[abs(lit)] = 1
        self._state = bytearray(n + 1)
        self._answers: dict[int, int] = {}  # the kept answers, by trial (state ANSWERED)
        self._colours_in: dict[int, int] = {}  # how many cells each kept answer colours
        self._union = 0  # every literal some kept answer holds (may hold more while _union_stale)
        self._union_stale = False
        self._version = [0] * (n + 1)  # changes whenever a trial's answer may have changed
        self._survivors: list[int] = []  # trials marked SURVIVES, checked again at the end of a pass
        self._queue: deque[int] = deque()
        self._queued = bytearray(n + 1)
        self._empty_dilemma: dict[tuple[int, bool], tuple] = {}
        self._phase = 3  # the level running now

    def _enqueue(self, lit: int) -> None:
        if not self._queued[lit]:
            self._queued[lit] = 1
            self._queue.append(lit)

    def _forget(self, lit: int) -> None:
        """The trial of ``lit`` is to be run again (its answer may have changed)."""
        if self._state[lit] == ANSWERED:
            del self._answers[lit]
            self._union_stale = True
        self._state[lit] = OPEN
        self._version[lit] += 1

    def _keep(self, lit: int, mask: int) -> None:
        self._answers[lit] = mask
        self._colours_in[lit] = (mask & self.deducer.any_colour_bits).bit_count()
        self._union |= mask
        self._state[lit] = ANSWERED
        self._version[lit] += 1

    def _held(self) -> int:
        """Every literal that some kept answer holds."""
        if self._union_stale:
            union = 0
            for mask in self._answers.values():
                union |= mask
            self._union, self._union_stale = union, False
        return self._union

    def _commit(self, lits: list[int]) -> list[int]:
        """Make ``lits`` known for good, and put the trials they may change back in line;
        the trials that now fail for certain (their negations, not yet committed)."""
        assert self._trials is not None
        ok, implied, mask = self._trials.commit(lits)
        if not ok:
            self.contradiction = True
            self.known.update(lits)
            return []
        self.known.update(implied)
        self._known_bits |= mask
        for lit in implied:
            self._fixed[abs(lit)] = 1
        positions = np.array(implied, dtype=np.int64) + self.deducer.num_vars  # set in the value array by the engine
        return self._after(implied, positions, mask)

    def _after(self, implied: list[int], positions: np.ndarray, new: int) -> list[int]:
        deducer, value, state, answers = self.deducer, self.value, self._state, self._answers
        n = deducer.num_vars
        # trials now decided either way are no longer options
        for lit in implied:
            if state[abs(lit)] != OPEN:
                self._forget(abs(lit))
        negations = 2 * n - positions
        against = deducer.mask_at(negations)
        failing = [lit for lit, mask in answers.items() if mask & against]
        stale = set(failing)
        # clauses through a negated new fact that no known fact satisfies: an answer falsifying
        # all their open literals but at most one, and satisfying none, may now propagate (no
        # binary clause is among them: unit propagation has satisfied those)
        table = deducer.clauses
        clauses = table.through(negations)
        if len(clauses):
            where = table.pos[clauses]
            v = value[where]
            alive = ~(v == 1).any(axis=1)
            where, opened = where[alive], v[alive] == 0
            if len(where):
                unknown, near = ~self._known_bits, deducer.mask_at(2 * n - where[opened])
                candidates = [(lit, mask & unknown) for lit, mask in answers.items() if lit not in stale and mask & near]
                if candidates:
                    stale.update(self._fired(candidates, where, opened))
        # a colour's supply links facts however far apart once it is nearly spent
        count, cap = self._trials.count, deducer.supply_cells  # type: ignore[union-attr]
        reach = {k: max(cap - count[k], 1) for k, bits in enumerate(deducer.colour_bits) if new & bits}
        if reach:
            least, colours_in, colour_bits = min(reach.values()), self._colours_in, deducer.colour_bits
            for lit, mask in answers.items():
                if colours_in[lit] >= least and lit not in stale:
                    if any((mask & colour_bits[k]).bit_count() >= need for k, need in reach.items()):
                        stale.add(lit)
        for lit in stale:
            self._forget(lit)
            if value[n + lit] == 0:
                self._enqueue(lit)
        return [-lit for lit in failing if value[n + lit] == 0]

    def _fired(self, candidates: list[tuple[int, int]], where: np.ndarray, opened: np.ndarray) -> list[int]:
        """The trials among ``candidates`` (trial, answer less the known facts) whose answer
        leaves one of the clauses at ``where`` (positions, open where ``opened``) with at most
        one literal it does not falsify, and satisfies none of them."""
        deducer = self.deducer
        n, size = deducer.num_vars, deducer._mask_bytes
        packed = np.frombuffer(b"".join(mask.to_bytes(size, "little") for _, mask in candidates), dtype=np.uint8)
        packed = packed.reshape(len(candidates), size)
        nowhere = size * 8 - 1  # past the last literal: never set
        literals = np.where(opened, where, nowhere)
        negations = np.where(opened, 2 * n - where, nowhere)
        # only the bits these clauses look at, read straight from the bytes
        columns, inverse = np.unique(np.concatenate([literals.ravel(), negations.ravel()]), return_inverse=True)
        bits = (packed[:, columns >> 3] >> (columns & 7).astype(np.uint8)) & 1
        half = literals.size
        satisfied = bits[:, inverse[:half].reshape(literals.shape)].any(axis=2)
        falsified = bits[:, inverse[half:].reshape(negations.shape)].sum(axis=2, dtype=np.int64)
        fires = (~satisfied & (falsified > 0) & (falsified >= opened.sum(axis=1) - 1)).any(axis=1)
        return [lit for (lit, _), fire in zip(candidates, fires.tolist()) if fire]

    def _survives(self, lit: int) -> bool:
        """Whether the trial of ``lit`` is known not to fail without running it: true in the
        known solution (for good), or implied by a trial whose kept answer holds (an implied
        literal's consequences are among that trial's; checked again at the end of a pass)."""
        if self.solution is not None and self.solution[lit]:
            self._state[lit] = SURE
            return True
        if not self._held() >> (self.deducer.num_vars + lit) & 1:
            return False
        self._state[lit] = SURVIVES
        self._survivors.append(lit)
        return True

    def _unsupported(self) -> list[int]:
        """The trials marked SURVIVES whose supporting answers have all been forgotten since;
        they are open again."""
        n, state, fixed = self.deducer.num_vars, self._state, self._fixed
        marked = [lit for lit in self._survivors if state[lit] == SURVIVES and not fixed[lit]]
        held = self._held()
        self._survivors = [lit for lit in marked if held >> (n + lit) & 1]
        lost = [lit for lit in marked if not held >> (n + lit) & 1]
        for lit in lost:
            self._forget(lit)
        return lost

    def _answer_of(self, lit: int) -> int | None:
        """The kept answer of ``lit``'s trial, run now if needed (None: it fails)."""
        if self._state[lit] == ANSWERED:
            return self._answers[lit]
        assert self._trials is not None
        mask = self._trials.answer(lit)
        if mask is not None:
            self._keep(lit, mask)
        return mask

    def _learn(self, lits: list[int], level: int, explain: bool, reasons: dict[int, str]) -> list[int]:
        """Add facts found at ``level`` (with their reasons in words when ``explain``); the
        failed trials they reveal (facts to learn next, in the next batch). With ``explain``,
        those are learnt at once, one step each, and none is returned."""
        describe, is_tile = self.deducer.describe, self.deducer.is_tile
        while lits and not self.contradiction:
            if explain:
                self.steps.append(Step(level, [(describe(lit), reasons.get(lit, LEVELS[level])) for lit in lits]))
            # trials of the levels running now (tile trials only from level 4)
            lits = [lit for lit in self._commit(lits) if self._phase >= 4 or not is_tile[-lit]]
            if not explain:
                return lits
            if lits:
                level = 4 if any(is_tile[-lit] for lit in lits) else 3
                for lit in lits:
                    reasons[lit] = f"if {describe(-lit)}, {self._what_breaks(-lit)}"
            self._record_direct()
        return []

    def _what_breaks(self, lit: int) -> str:
        """In words, how assuming ``lit`` fails: a cell left without colour or tile, if one is."""
        assert self._trials is not None
        _, implied, _ = self._trials.propagate([lit])
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
        fixed = self._fixed  # options are positive literals, so the variable is the literal
        lits = self.deducer.covering[cell] if tiles else self.deducer.template.colour[cell]
        return [lit for lit in lits if not fixed[lit]]

    def _close(self, level: int, explain: bool, until: int | None) -> None:
        """Apply the deductions of ``level`` and below until nothing new follows.

        Every open option is tried once, the cells with the fewest colours left first (their
        options fail most often); a contradiction becomes a fact at once, and the trials it
        may change go back in line. A trial that cannot fail (see :meth:`_survives`) is not
        run. When the line is empty, every open option survives what is known now: the fixed
        point of trials (then dilemmas).
        """
        if self._trials is None:
            if self.deadline is not None:
                self.deadline.check()
            self._start_trials(explain)
        if self._native:
            if explain:
                raise ValueError("hints need a deduction started with them (this one ran without)")
            self._close_native(level, until)
            return
        self._phase = level
        deadline, state, fixed = self.deadline, self._state, self._fixed
        is_tile = self.deducer.is_tile
        reasons: dict[int, str] = {}
        cells = sorted(self.undecided(), key=lambda cell: len(self._options(cell, False)))
        # from level 4 on, tile trials alone reach the same fixed point (module docstring);
        # hints still try colours, for their wording
        colours = level < 4 or explain
        for tiles in ((False, True) if colours else (True,)) if level >= 4 else (False,):
            for cell in cells:
                for lit in self._options(cell, tiles):
                    if state[lit] == OPEN:
                        self._enqueue(lit)
        probes = 0
        queue, queued = self._queue, self._queued
        batch = 1 if explain else FAILURES_PER_COMMIT
        failed: list[int] = []
        trials = self._trials
        while True:
            while queue or failed:
                if queue:
                    lit = queue.popleft()
                    queued[lit] = 0
                    if fixed[lit] or state[lit] != OPEN:
                        continue
                    if is_tile[lit] and level < 4:
                        continue  # in line again when the level that tries tiles begins
                    if not colours and not is_tile[lit]:
                        continue  # from level 4 on, tile trials suffice
                    if self._survives(lit):
                        continue
                    probes += 1
                    if deadline is not None and probes % 64 == 0:
                        deadline.check()
                    mask = trials.answer(lit)
                    if mask is not None:
                        self._keep(lit, mask)
                        continue
                    if explain:
                        reasons[-lit] = f"if {self.deducer.describe(lit)}, {self._what_breaks(lit)}"
                    failed.append(-lit)
                    if len(failed) < batch and queue:
                        continue
                failed = self._learn(failed, 4 if any(is_tile[-x] for x in failed) else 3, explain, reasons)
                if self.contradiction or self._decided(until):
                    return
            lost = self._unsupported()
            if lost:
                for lit in lost:
                    self._enqueue(lit)
                continue
            if level < 5:
                return
            revealed = self._dilemmas(explain, reasons)
            if revealed is None:
                return
            failed = revealed
            if self.contradiction or self._decided(until) or not self.undecided():
                return

    def _close_native(self, level: int, until: int | None) -> None:
        """:meth:`_close` without hints, compiled (native.py): the same fixed point."""
        from .native import BROKEN, CONTRADICTION, PAUSED

        state = self._trials.state  # type: ignore[union-attr]
        state.line_up(level)
        budget = PROBES_PER_CHECK if self.deadline is not None else 1 << 62
        while True:
            code = state.close(level, -1 if until is None else until, budget, NATIVE_FAILURES_PER_COMMIT)
            if code != PAUSED:
                break
            self.deadline.check()  # type: ignore[union-attr]
        if code == BROKEN:
            raise AssertionError("a dilemma's option failed its trial, after the trials that fail")
        self.contradiction = code == CONTRADICTION
        self._refresh_known()

    def _refresh_known(self) -> None:
        n = self.deducer.num_vars
        self.known = set((np.flatnonzero(self.value == 1) - n).tolist())

    def _dilemmas(self, explain: bool, reasons: dict[int, str]) -> list[int] | None:
        """Learn what every surviving option of some cell implies: None when nothing was new,
        else the failed trials the new facts reveal (see :meth:`_learn`).

        Called when no trial fails, so every option of every open cell survives. Each cell
        whose colour is open is tried on the same facts, and what they find is learnt
        together. The common part is first bounded without running a trial: by the kept
        answers, by a known solution for an option true in it (everything such an option
        implies is true in that solution too), by the answer that implies an option marked
        SURVIVES; trials run only while that bound holds something new. A cell whose options'
        answers are all as they were when it last gave nothing is passed over.
        """
        cells = self.deducer.template.cells
        state, version, solution = self._state, self._version, self.solution
        unknown = ~self._known_bits
        solution_bits = self._solution_bits() if solution is not None else 0
        found = 0
        supporter = None
        kinds = ((False, "colours remain for"), (True, "tiles can still cover"))
        for cell in self.undecided():
            # a cell's tile dilemma finds all that its colour dilemma finds (module docstring);
            # hints still try colours, for their wording
            for tiles, what in kinds if explain else kinds[1:]:
                options = self._options(cell, tiles)
                if len(options) < 2:
                    continue
                key = tuple(options) + tuple(version[lit] for lit in options)
                if self._empty_dilemma.get((cell, tiles)) == key:
                    continue
                common = unknown
                exact: list[int] = []  # options whose answer is not in hand yet
                for lit in options:
                    if state[lit] == ANSWERED:
                        common &= self._answers[lit]
                    else:
                        if solution is not None and solution[lit]:
                            common &= solution_bits
                        elif state[lit] == SURVIVES:
                            if supporter is None:
                                supporter = self._supporters()
                            common &= supporter(lit)
                        exact.append(lit)
                    if not common:
                        break
                if solution is not None:  # the true option's answer is the smallest bound
                    exact.sort(key=lambda lit: not solution[lit])
                for lit in exact:
                    if not common:
                        break
                    adds = self._answer_of(lit)
                    assert adds is not None, "dilemmas follow the trials that fail"
                    common &= adds
                new = common & ~found
                if not new:
                    self._empty_dilemma[(cell, tiles)] = key
                    continue
                found |= new
                if explain:
                    for lit in self.deducer.literals_in(new):
                        reasons[lit] = f"{len(options)} {what} {cell_name(cells[cell])}, and each of them leads to this"
        if not found:
            return None
        lits = sorted(self.deducer.literals_in(found), key=lambda x: (abs(x), x))
        return self._learn(lits, 5, explain, reasons)

    def _supporters(self) -> Callable[[int], int]:
        """For the kept answers as they are now: a function giving, for a literal marked
        SURVIVES, the smallest kept answer that holds it (a bound on its own answer: what it
        implies, the trial that implies it implies too)."""
        lits = list(self._answers)
        masks = [self._answers[lit] for lit in lits]
        size = self.deducer._mask_bytes
        packed = np.frombuffer(b"".join(mask.to_bytes(size, "little") for mask in masks), dtype=np.uint8)
        holds = np.unpackbits(packed.reshape(len(masks), size), axis=1, bitorder="little").T.copy()  # position x answer
        sizes = np.array([mask.bit_count() for mask in masks])
        n = self.deducer.num_vars

        def smallest(lit: int) -> int:
            rows = np.flatnonzero(holds[n + lit])
            return masks[rows[np.argmin(sizes[rows])]] if len(rows) else -1  # -1: no bound

        return smallest

    def _solution_bits(self) -> int:
        """The literals true in the known solution, as a mask."""
        if not hasattr(self, "_solution_mask"):
            n = self.deducer.num_vars
            true = np.flatnonzero(np.frombuffer(self.solution, dtype=np.uint8))  # type: ignore[arg-type]
            false = np.setdiff1d(np.arange(1, n + 1), true)
            self._solution_mask = self.deducer.mask_at(np.concatenate([true + n, n - false]))
        return self._solution_mask
