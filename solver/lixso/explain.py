"""Hints a person can use: the next fact about a grid, with its reason in words.

This is a small deduction engine written for explaining, not for speed or for grading. It
works on the facts a person reasons with, "cell r3c4 is (not) S" and "an S tile lies (does
not lie) on r3c3 r3c4 r4c3", and every fact it derives remembers the rule and the facts it
came from, so that a hint can name the specific cells, clues and rule involved. The rules,
by level (as in seeds/lixso.md):

1. **Direct.** A tile is impossible when it would cover a cell that cannot have its colour,
   touch (by a side or a corner) a cell of its colour outside it, or overlap a tile of its
   colour already placed; a cell that no tile of colour k can still cover is not k; a cell
   with one colour left has that colour; a cell of colour k with one k tile left through it
   lies in that tile; a cell that every k tile left through a k cell covers is k; a placed
   tile colours its cells and forbids its colour all around it.
2. **Shape and counting.** A cell that every k tile left through a k cell touches is not k;
   once a colour's cells fill its supply of tiles, the colour appears nowhere else.
3. **One-cell trial.** If giving a cell a colour leads, by the rules above, to a
   contradiction, the cell does not have that colour.
4. **One-tile trial.** The same for a tile.
5. **Dilemma.** What every tile that can still cover an open cell leads to is true.

These are the grader's levels (seeds/lixso.md, "Difficulty levels"): unit propagation over the
grading clauses reaches exactly the facts these rules reach, and trials and dilemmas are asked
of the grader's compiled engine, so a puzzle's grade is the highest level of its hints.

Every rule is sound, so every fact is true of every solution; a hint never guesses. The
facts a person can write on the grid are colours, so a hint is the easiest next colour (the
weakest level, then the fewest facts behind it); when no colour follows directly, a trial's
"cannot be" fact comes first, with the chain that refutes it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from itertools import count

from ..core.lattice import SquareLattice
from ..core.limits import Deadline
from ..core.shapes import L_TROMINO
from .model import COLOURS, EMPTY, Grid, default_per_colour
from .rules import cell_name

Key = tuple  # ("cell", index, colour) or ("tile", placement, colour)

GIVEN = "given"
TRIALS_WANTED = 6  # refuted trials gathered before the shortest is chosen: enough choice, bounded cost


@dataclass
class Fact:
    """A derived (or given) fact: ``key`` holds (``value`` True) or not, by ``rule`` from ``deps``."""

    key: Key
    value: bool
    rule: str
    level: int
    deps: tuple[tuple[Key, bool], ...] = ()
    depth: int = 0
    detail: object = None  # rule-specific: the cell a tile would touch, a trial's chain, ...


class Contradiction(Exception):
    """Two derived facts clash: the assumptions behind them cannot all hold."""

    def __init__(self, fact: Fact, other: Fact) -> None:
        super().__init__("contradiction")
        self.fact, self.other = fact, other


@dataclass
class Board:
    """The geometry of one grid size: cells, L placements, what each placement touches."""

    height: int
    width: int
    per_colour: int
    placements: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    cells_of: list[tuple[int, ...]] = field(default_factory=list)
    ring_of: list[tuple[int, ...]] = field(default_factory=list)
    through: list[list[int]] = field(default_factory=list)  # placements covering a cell
    around: list[list[int]] = field(default_factory=list)  # placements whose ring holds a cell

    @classmethod
    def of(cls, height: int, width: int, per_colour: int) -> "Board":
        lattice = SquareLattice(height, width)
        board = cls(height, width, per_colour)
        board.placements = list(L_TROMINO.placements(lattice))
        index = lattice.index
        board.through = [[] for _ in range(height * width)]
        board.around = [[] for _ in range(height * width)]
        for p, placement in enumerate(board.placements):
            cells = tuple(index(c) for c in placement)
            ring = tuple(sorted({index(n) for c in placement for n in lattice.touching(c)} - set(cells)))
            board.cells_of.append(cells)
            board.ring_of.append(ring)
            for i in cells:
                board.through[i].append(p)
            for i in ring:
                board.around[i].append(p)
        return board

    def name(self, i: int) -> str:
        return cell_name(divmod(i, self.width))

    def tile_name(self, p: int) -> str:
        return " ".join(self.name(i) for i in self.cells_of[p])


class Reasoner:
    """Facts about one grid, grown by the rules up to ``max_level`` (1 or 2), with reasons.

    Each fact keeps the weakest level it follows at: a fact first found by a level-2 rule and
    later by level-1 rules alone is lowered, with what rests on it.
    """

    def __init__(self, board: Board, max_level: int = 2) -> None:
        self.board = board
        self.max_level = max_level
        self.known: dict[Key, Fact] = {}
        self._queue: list = []
        self._order = count()
        # how many k tiles can still cover each cell (index cell * colours + k): a cell's
        # tiles are looked at only when the count says something may follow
        self._alive = [len(board.through[i]) for i in range(board.height * board.width) for _ in COLOURS]
        self._cells_of_colour = [0] * len(COLOURS)  # cells known to have each colour (the supply)

    def copy(self) -> "Reasoner":
        other = Reasoner.__new__(Reasoner)
        other.board, other.max_level = self.board, self.max_level
        other.known = dict(self.known)
        other._queue = []
        other._order = count()
        other._alive = list(self._alive)
        other._cells_of_colour = list(self._cells_of_colour)
        return other

    # ----------------------------------------------------------------- facts

    def value(self, key: Key) -> bool | None:
        fact = self.known.get(key)
        return None if fact is None else fact.value

    def add(self, key: Key, value: bool, rule: str, level: int, deps: tuple = (), detail: object = None) -> None:
        """Record a fact (unless known at a level as weak) and queue its consequences;
        ``Contradiction`` on a clash."""
        existing = self.known.get(key)
        if existing is not None and existing.value != value:
            clash = Fact(key, value, rule, level, deps, 0, detail)
            raise Contradiction(clash, existing)
        dep_facts = [self.known[k] for k, _ in deps]
        level = max([level] + [f.level for f in dep_facts])
        if existing is not None and (existing.level <= level or existing.rule == GIVEN):
            return
        depth = 1 + max([f.depth for f in dep_facts], default=-1)
        fact = Fact(key, value, rule, level, tuple(deps), depth, detail)
        self.known[key] = fact
        if existing is None:
            if key[0] == "tile" and not value:
                for i in self.board.cells_of[key[1]]:
                    self._alive[i * len(COLOURS) + key[2]] -= 1
            elif key[0] == "cell" and value:
                self._cells_of_colour[key[2]] += 1
        heapq.heappush(self._queue, (fact.level, fact.depth, next(self._order), key))

    def run(self, deadline: Deadline | None = None) -> None:
        """Apply the rules until nothing new follows (``Contradiction`` when two facts clash)."""
        steps = 0
        while self._queue:
            steps += 1
            if deadline is not None and steps % 256 == 0:
                deadline.check()
            level, _, _, key = heapq.heappop(self._queue)
            fact = self.known[key]
            if fact.level != level and fact.rule != GIVEN:
                continue  # lowered since: its consequences follow from the lower fact's turn
            if key[0] == "cell":
                self._cell_fact(key[1], key[2], fact.value)
            else:
                self._tile_fact(key[1], key[2], fact.value)

    # ----------------------------------------------------------------- rules

    def _cell_fact(self, i: int, k: int, value: bool) -> None:
        board = self.board
        me = (("cell", i, k), value)
        if value:
            for j in range(len(COLOURS)):
                if j != k:
                    self.add(("cell", i, j), False, "one colour", 1, (me,))
            for p in board.around[i]:
                self.add(("tile", p, k), False, "touch", 1, (me,), detail=i)
            self._examine(i, k)
            if self.max_level >= 2:
                self._supply(k)
        else:
            for p in board.through[i]:
                self.add(("tile", p, k), False, "cover", 1, (me,), detail=i)
            left = [j for j in range(len(COLOURS)) if self.value(("cell", i, j)) is not False]
            if len(left) == 1:
                deps = tuple((("cell", i, j), False) for j in range(len(COLOURS)) if j != left[0])
                self.add(("cell", i, left[0]), True, "last colour", 1, deps)
            elif not left:
                deps = tuple((("cell", i, j), False) for j in range(len(COLOURS)))
                raise Contradiction(Fact(("empty", i), True, "no colour", 1, deps), Fact(("empty", i), False, "no colour", 1))

    def _tile_fact(self, p: int, k: int, value: bool) -> None:
        board = self.board
        me = (("tile", p, k), value)
        if value:
            for i in board.cells_of[p]:
                self.add(("cell", i, k), True, "tile colours", 1, (me,), detail=p)
            for i in board.ring_of[p]:
                self.add(("cell", i, k), False, "tile forbids", 1, (me,), detail=p)
            for i in board.cells_of[p]:
                for q in board.through[i]:
                    if q != p:
                        self.add(("tile", q, k), False, "overlap", 1, (me,), detail=i)
        else:
            colours = len(COLOURS)
            known = self.known
            for i in board.cells_of[p]:
                cell = known.get(("cell", i, k))
                if self._alive[i * colours + k] == 0 or (cell is not None and cell.value):
                    self._examine(i, k)

    def _examine(self, i: int, k: int) -> None:
        """What the k tiles left through cell ``i`` say about it and the cells around it: with
        none, it is not k; when it is k, its tile is one of them, so a cell all of them cover
        is k and (level 2) a cell all of them touch is not k."""
        board = self.board
        known = self.known
        alive = [p for p in board.through[i] if (fact := known.get(("tile", p, k))) is None or fact.value]
        dead = [p for p in board.through[i] if p not in alive]
        if not alive:
            deps = tuple((("tile", p, k), False) for p in board.through[i])
            self.add(("cell", i, k), False, "no tile", 1, deps)
            return
        if self.value(("cell", i, k)) is not True:
            return
        me = (("cell", i, k), True)
        if len(alive) == 1:
            deps = (me,) + tuple((("tile", p, k), False) for p in dead)
            self.add(("tile", alive[0], k), True, "only tile", 1, deps, detail=i)
            return
        common = set(board.cells_of[alive[0]]).intersection(*(board.cells_of[p] for p in alive[1:])) - {i}
        for c in sorted(common):
            deps = (me,) + tuple((("tile", p, k), False) for p in dead if c not in board.cells_of[p])
            self.add(("cell", c, k), True, "every tile", 1, deps, detail=i)
        if self.max_level >= 2:
            touched = set(board.ring_of[alive[0]]).intersection(*(board.ring_of[p] for p in alive[1:]))
            for c in sorted(touched):
                deps = (me,) + tuple((("tile", p, k), False) for p in dead if c not in board.ring_of[p])
                self.add(("cell", c, k), False, "every tile touches", 2, deps, detail=i)

    def _supply(self, k: int) -> None:
        """Once a colour's cells fill its whole supply of tiles, no other cell has it."""
        cap = 3 * self.board.per_colour
        have = self._cells_of_colour[k]
        if have < cap:
            return
        coloured = [i for i in range(self.board.height * self.board.width) if self.value(("cell", i, k)) is True]
        deps = tuple((("cell", i, k), True) for i in coloured)
        if have > cap:
            raise Contradiction(Fact(("supply", k), True, "supply", 2, deps), Fact(("supply", k), False, "supply", 2))
        for i in range(self.board.height * self.board.width):
            if i not in coloured:
                self.add(("cell", i, k), False, "supply", 2, deps)


# --------------------------------------------------------------------------- words


def _colour(k: int) -> str:
    return COLOURS[k]


class Words:
    """Facts and their reasons in words, naming clues as clues."""

    def __init__(self, board: Board, reasoner: Reasoner, clues: set[int], verbose: bool = False) -> None:
        self.board, self.reasoner, self.clues = board, reasoner, clues
        self.verbose = verbose  # a trial's chain in full, however long

    def cell_ref(self, i: int, k: int | None = None) -> str:
        """``the S clue at r1c2`` for a clue, ``r1c2`` otherwise (``the S at r1c2`` when coloured)."""
        name = self.board.name(i)
        if i in self.clues:
            return f"the {_colour(self.clue_colour(i))} clue at {name}"
        given = next((j for j in range(len(COLOURS)) if self.reasoner.value(("cell", i, j)) is True), None)
        if given is not None:
            return f"the {_colour(given)} at {name}"
        if k is not None:
            return f"the {_colour(k)} at {name}"
        return name

    def clue_colour(self, i: int) -> int:
        for k in range(len(COLOURS)):
            if self.reasoner.value(("cell", i, k)) is True:
                return k
        return 0

    def fact(self, key: Key, value: bool) -> str:
        if key[0] == "cell":
            _, i, k = key
            return f"{self.board.name(i)} {'is' if value else 'is not'} {_colour(k)}"
        _, p, k = key
        return f"an {_colour(k)} tile {'lies' if value else 'cannot lie'} on {self.board.tile_name(p)}"

    def tile_death(self, fact: Fact) -> str:
        """Why one tile is impossible, briefly: 'would touch the S clue at r1c2'."""
        _, p, k = fact.key
        if fact.rule == "touch":
            return f"would touch {self.cell_ref(fact.detail, k)}"
        if fact.rule == "cover":
            i = fact.detail
            known = next((j for j in range(len(COLOURS)) if self.reasoner.value(("cell", i, j)) is True), None)
            if known is not None:
                return f"would cover {self.cell_ref(i, known)}" if i in self.clues else f"would cover {self.board.name(i)}, which is {_colour(known)}"
            return f"would cover {self.board.name(i)}, which cannot be {_colour(k)}"
        if fact.rule == "overlap":
            return f"would overlap a tile already placed at {self.board.name(fact.detail)}"
        if fact.rule.startswith("trial"):
            return "fails on trial"
        return "is ruled out"

    def group_deaths(self, deaths: list[Fact]) -> str:
        """Many tiles' reasons folded together: 'would touch the S clue at r1c2 or cover r4c4 (X)'."""
        reasons: list[str] = []
        for fact in deaths:
            text = self.tile_death(fact)
            if text not in reasons:
                reasons.append(text)
        if len(reasons) > 3:
            reasons = reasons[:3] + ["fail for other reasons"]
        return ", or ".join(reasons) if len(reasons) <= 2 else ", ".join(reasons[:-1]) + ", or " + reasons[-1]

    def why(self, fact: Fact) -> str:
        """The reason for ``fact`` in one sentence, naming what it rests on."""
        known = self.reasoner.known
        board = self.board
        rule = fact.rule
        if rule == GIVEN:
            return "given"
        if fact.key[0] == "cell":
            _, i, k = fact.key
        else:
            _, p, k = fact.key
        if rule == "every tile":
            anchor = fact.detail
            deaths = [known[key] for key, value in fact.deps[1:]]
            base = f"{self.cell_ref(anchor, k)} needs an {_colour(k)} tile, and every {_colour(k)} tile through it that could still fit covers {board.name(i)}"
            return base + (f" (the others {self.group_deaths(deaths)})" if deaths else "")
        if rule == "only tile":
            anchor = fact.detail
            deaths = [known[key] for key, value in fact.deps[1:]]
            base = f"{self.cell_ref(anchor, k)} needs an {_colour(k)} tile, and {board.tile_name(p)} is the only one that still fits"
            return base + (f" (the others {self.group_deaths(deaths)})" if deaths else "")
        if rule == "tile colours":
            tile = known[("tile", fact.detail, k)]
            if tile.rule in ("only tile",):
                return self.why(tile)
            return f"it is part of the {_colour(k)} tile on {board.tile_name(fact.detail)}"
        if rule == "tile forbids":
            return f"it touches the {_colour(k)} tile on {board.tile_name(fact.detail)}, and tiles of one colour never touch"
        if rule == "no tile":
            deaths = [known[key] for key, value in fact.deps]
            return f"every {_colour(k)} tile through {board.name(i)} {self.group_deaths(deaths)}"
        if rule == "last colour":
            others = [_colour(known[key].key[2]) for key, value in fact.deps]
            return f"it cannot be {', '.join(others[:-1])} or {others[-1]}, so only {_colour(k)} is left"
        if rule == "one colour":
            (key, _), = fact.deps
            return f"{board.name(i)} is {_colour(key[2])}"
        if rule == "touch":
            return f"it would touch {self.cell_ref(fact.detail, k)}"
        if rule == "cover":
            return self.tile_death(fact)
        if rule == "overlap":
            return self.tile_death(fact)
        if rule == "every tile touches":
            anchor = fact.detail
            deaths = [known[key] for key, value in fact.deps[1:]]
            base = (f"{self.cell_ref(anchor, k)} needs an {_colour(k)} tile, and every {_colour(k)} tile through it "
                    f"that could still fit would touch {board.name(i)}")
            return base + (f" (the others {self.group_deaths(deaths)})" if deaths else "")
        if rule == "supply":
            return (f"{3 * board.per_colour} cells are {_colour(k)} already, all that its {board.per_colour} "
                    f"tiles cover, so no other cell is {_colour(k)}")
        if rule.startswith("trial"):
            return self.trial_words(fact)
        return rule

    def trial_words(self, fact: Fact) -> str:
        """'if r2c4 were I, the I tile through it could only be ..., and that touches ...'."""
        hypothesis, chain, clash, trial = fact.detail
        inside = Words(self.board, trial, self.clues)
        key, _ = hypothesis
        if key[0] == "cell":
            start = f"if {self.board.name(key[1])} were {_colour(key[2])}"
        else:
            start = f"if an {_colour(key[2])} tile lay on {self.board.tile_name(key[1])}"
        middle, end, count = self.chain_words(inside, chain, clash)
        length = f"one trial, {count} step{'s' if count > 1 else ''} by the direct rules"
        return f"{start}, then {middle + '; and ' if middle else ''}{end} ({length})"

    def chain_words(self, inside: "Words", chain: list[Fact], clash: "Contradiction") -> tuple[str, str, int]:
        """A chain of facts to a clash in words: its steps (the middle of a long one left out
        unless verbose), the clash (worded by ``inside``, the reasoner that met it), and the
        number of steps, the clash included."""
        steps = [f"{self.fact(f.key, f.value)} ({inside.why_short(f)})" for f in chain]
        count = len(steps) + 1
        if len(steps) > 3 and not self.verbose:
            # still one step of its level, however long: the person follows one line of facts
            steps = steps[:1] + [f"... {len(steps) - 2} more steps (--verbose shows them) ..."] + steps[-1:]
        return "; then ".join(steps), inside.clash_words(clash), count

    def why_short(self, fact: Fact) -> str:
        if fact.rule in ("touch", "cover", "overlap"):
            return self.tile_death(fact)
        if fact.rule == "only tile":
            return "the only tile left through " + self.board.name(fact.detail)
        if fact.rule == "every tile":
            return "every tile left through " + self.board.name(fact.detail) + " covers it"
        if fact.rule == "every tile touches":
            return "every tile left through " + self.board.name(fact.detail) + " touches it"
        if fact.rule == "supply":
            return "that colour's supply is used up"
        if fact.rule == "no tile":
            return "no tile of that colour fits through it"
        if fact.rule == "last colour":
            return "no other colour is left"
        if fact.rule == "tile colours":
            return "part of that tile"
        if fact.rule == "tile forbids":
            return "it touches that tile"
        return fact.rule

    def clash_words(self, clash: Contradiction) -> str:
        a, b = clash.fact, clash.other
        if a.key[0] == "empty":
            return f"{self.board.name(a.key[1])} would be left with no possible colour"
        if a.key[0] == "supply":
            return f"that would take more than {self.board.per_colour} {_colour(a.key[1])} tiles"
        if a.key[0] == "cell":
            _, i, k = a.key
            positive, negative = (a, b) if a.value else (b, a)
            if negative.rule == "no tile":
                deaths = [self.reasoner.known[key] for key, _ in negative.deps if key in self.reasoner.known]
                because = f" (each {self.group_deaths(deaths)})" if deaths else ""
                if positive.rule == GIVEN:
                    return f"no {_colour(k)} tile would be left for {self.cell_ref(i, k)}{because}"
                return f"{self.board.name(i)} would have to be {_colour(k)}, but no {_colour(k)} tile could cover it{because}"
            if positive.rule == "last colour" or negative.rule == "last colour":
                return f"{self.board.name(i)} would be left with no possible colour"
            return f"{self.board.name(i)} would have to be {_colour(k)} and not {_colour(k)}"
        _, p, k = a.key
        return f"the {_colour(k)} tile on {self.board.tile_name(p)} would be both needed and impossible"


# --------------------------------------------------------------------------- hints


@dataclass
class Hint:
    """One hint: the fact, its level, the cells it rests on, and its reason in words."""

    fact: str
    level: int
    reason: str
    cells: list[tuple[int, int]]  # the cells involved (0-based), for --level-only regions
    key: Key = ()
    value: bool = True
    # further facts the same step shows (a dilemma finds several at once): learnt with it
    also: list[tuple[Key, bool]] = field(default_factory=list)

    def region(self) -> str:
        """Where to look, without the answer: the rows and columns of the cells involved."""
        rows = sorted({r for r, _ in self.cells})
        cols = sorted({c for _, c in self.cells})

        def span(word: str, xs: list[int]) -> str:
            return f"{word} {xs[0] + 1}" if xs[0] == xs[-1] else f"{word}s {xs[0] + 1}-{xs[-1] + 1}"

        return f"{span('row', rows)}, {span('column', cols)}"

    def to_json(self) -> dict:
        return {"fact": self.fact, "level": self.level, "why": self.reason, "cells": [[r + 1, c + 1] for r, c in self.cells]}


class Explainer:
    """Hints for one grid size; reusable across grids of that size."""

    def __init__(self, height: int, width: int, per_colour: int | None = None) -> None:
        cap = default_per_colour(height, width) if per_colour is None else per_colour
        self.board = Board.of(height, width, cap)

    def session(self, grid: Grid, clues: set[int] | None = None, deadline: Deadline | None = None,
                verbose: bool = False) -> "HintSession":
        """Hints for ``grid``: its coloured cells are what the person knows. ``clues``: the
        cells that are the puzzle's own clues (the rest are the person's progress); default:
        every coloured cell. ``verbose``: trial chains in full. ``Contradiction`` when the
        coloured cells clash by the rules."""
        return HintSession(self.board, grid, clues, deadline, verbose)

    def clash(self, grid: Grid, deadline: Deadline | None = None) -> str | None:
        """Where the direct rules (levels 1 and 2) find that the coloured cells of ``grid``
        cannot all hold, in the hints' words: the facts the clash rests on, in the order they
        follow, and the clash. None when the direct rules find no clash (it needs trials)."""
        reasoner = Reasoner(self.board, 2)
        clues: set[int] = set()
        given: dict = {}
        try:
            for r, row in enumerate(grid.rows):
                for c, ch in enumerate(row):
                    if ch != EMPTY:
                        clues.add(r * self.board.width + c)
                        reasoner.add(("cell", r * self.board.width + c, COLOURS.index(ch)), True, GIVEN, 0)
            given = dict(reasoner.known)
            reasoner.run(deadline)
        except Contradiction as found:
            words = Words(self.board, reasoner, clues, verbose=True)  # no command that asks has --verbose
            middle, end, count = words.chain_words(words, _clash_chain(reasoner, found, given, None), found)
            return f"{middle + '; and ' if middle else ''}{end} ({count} step{'s' if count > 1 else ''} by the direct rules)"
        return None

    def next_hints(self, grid: Grid, deadline: Deadline | None = None) -> list[Hint]:
        """The easiest next facts for ``grid``, best first (see :meth:`HintSession.next`)."""
        try:
            return self.session(grid, deadline=deadline).next()
        except Contradiction:
            return []


class HintSession:
    """What a person knows about one grid, grown hint by hint.

    The facts the rules derive are computed once; accepting a hint makes its facts known to
    the person, so the next hint rests on them instead of repeating their reasons.

    Which trials fail and what a dilemma shows are asked of the grader's compiled engine
    (:mod:`.deduce`) on the facts known here: its direct rules reach exactly the facts this
    module's rules reach (tests/test_lixso_explain.py), so a hint's level is the grade's
    level for that fact; this module then words the chosen trial.
    """

    def __init__(self, board: Board, grid: Grid, clues: set[int] | None, deadline: Deadline | None,
                 verbose: bool = False) -> None:
        self.board = board
        self.deadline = deadline
        self.verbose = verbose
        self.reasoner = Reasoner(board, 2)
        self._round: list[Hint] = []  # a dilemma round's findings not yet given (see next)
        coloured = set()
        for r, row in enumerate(grid.rows):
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    i = r * board.width + c
                    coloured.add(i)
                    self.reasoner.add(("cell", i, COLOURS.index(ch)), True, GIVEN, 0)
        self.clues = coloured if clues is None else set(clues)
        self.reasoner.run(deadline)

    # ----------------------------------------------------------------- state

    def shown(self, i: int) -> bool:
        """Whether the person already has a colour on cell ``i``."""
        return any(
            self.reasoner.known.get(("cell", i, k)) is not None
            and self.reasoner.known[("cell", i, k)].value
            and self.reasoner.known[("cell", i, k)].rule == GIVEN
            for k in range(len(COLOURS))
        )

    def complete(self) -> bool:
        return all(self.shown(i) for i in range(self.board.height * self.board.width))

    def rows(self) -> tuple[str, ...]:
        """The grid as the person has it now."""
        width = self.board.width
        out = []
        for r in range(self.board.height):
            row = []
            for c in range(width):
                i = r * width + c
                colour = next((COLOURS[k] for k in range(len(COLOURS)) if self.shown(i) and self.reasoner.value(("cell", i, k))), EMPTY)
                row.append(colour)
            out.append("".join(row))
        return tuple(out)

    def accept(self, hint: Hint) -> None:
        """The person now knows ``hint``'s facts (and, for a tile, its three colours)."""
        keys = [(hint.key, hint.value)] + list(hint.also)
        for key, value in list(keys):
            if value and key[0] == "tile":
                keys += [(("cell", i, key[2]), True) for i in self.board.cells_of[key[1]]]
        for key, value in keys:
            fact = self.reasoner.known.get(key)
            if fact is None:
                self.reasoner.add(key, value, GIVEN, 0)
            else:
                self.reasoner.known[key] = Fact(key, fact.value, GIVEN, 0)
        self.reasoner.run(self.deadline)

    # ----------------------------------------------------------------- hints

    def next(self) -> list[Hint]:
        """The easiest next facts, best first: new colours at the weakest level with the
        fewest facts behind them (a whole tile before its cells); when no colour follows by
        the direct rules, the rest of a dilemma round under way; else the refutations found
        by one-cell, then one-tile trials (shortest chain first); else a new round of
        dilemmas. Empty when none of these finds anything (the grid is complete, or it needs
        nested trials).

        A round of dilemmas is asked of every open cell on the same facts, as the grade
        does (seeds/lixso.md, level 5); its findings are given one cell at a time before any
        trial runs again, so the steps reach the grade's fixed point.
        """
        hints = self._colour_hints()
        if hints:
            return hints
        known = self.reasoner.known
        while self._round:
            hint = self._round[0]
            if all(key in known for key, _ in [(hint.key, hint.value)] + hint.also):
                self._round.pop(0)
                continue
            return [self._round.pop(0)]
        probe = _Probe(self)
        for level, kind in ((3, "cell"), (4, "tile")):
            found = self._trials(level, kind, probe)
            if found:
                return found
        self._round = self._dilemmas(probe)
        return [self._round.pop(0)] if self._round else []

    def _support(self, key: Key) -> set[Key]:
        """Every derived fact that ``key`` rests on (itself included)."""
        known = self.reasoner.known
        seen: set[Key] = set()
        stack = [key]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            fact = known[current]
            if fact.rule == GIVEN:
                continue
            seen.add(current)
            stack.extend(k for k, _ in fact.deps)
        return seen

    def _cells(self, keys: set[Key], target: Key) -> list[tuple[int, int]]:
        cells: set[int] = set()
        for key in keys | {target}:
            if key[0] == "cell":
                cells.add(key[1])
            elif key[0] == "tile":
                cells.update(self.board.cells_of[key[1]])
            fact = self.reasoner.known.get(key)
            if fact is not None and fact.rule in ("touch", "cover", "overlap", "every tile", "every tile touches", "only tile") and isinstance(fact.detail, int):
                cells.add(fact.detail)
        return sorted(divmod(i, self.board.width) for i in cells)

    def _words(self) -> Words:
        return Words(self.board, self.reasoner, self.clues, self.verbose)

    def _colour_hints(self) -> list[Hint]:
        """New colours for the grid: a whole tile where one is known, else a single cell."""
        words = self._words()
        ranked = []
        for key, fact in self.reasoner.known.items():
            if not fact.value or fact.rule == GIVEN:
                continue
            if key[0] == "cell" and not self.shown(key[1]):
                where = key[1]
            elif key[0] == "tile" and any(not self.shown(i) for i in self.board.cells_of[key[1]]):
                where = min(i for i in self.board.cells_of[key[1]] if not self.shown(i))
            else:
                continue
            support = self._support(key)
            # a tile first: it writes three cells at once, and its cells' facts rest on it
            ranked.append((fact.level, len(support), key[0] != "tile", where, key, fact, support))
        ranked.sort(key=lambda item: item[:4])
        return [
            Hint(words.fact(key, True), level, words.why(fact), self._cells(support, key), key, True)
            for level, _, _, _, key, fact, support in ranked
        ]

    def _open_cells(self) -> list[tuple[int, int, list[int]]]:
        """Undecided cells with their possible colours, tightest first."""
        reasoner = self.reasoner
        found = []
        for i in range(self.board.height * self.board.width):
            if not any(reasoner.value(("cell", i, k)) for k in range(len(COLOURS))):
                options = [k for k in range(len(COLOURS)) if reasoner.value(("cell", i, k)) is None]
                found.append((len(options), i, options))
        return sorted(found)

    def _tile_options(self, i: int) -> list[Key]:
        """The tiles (of any colour) that can still cover cell ``i``."""
        return [("tile", p, k) for p in self.board.through[i] for k in range(len(COLOURS))
                if self.reasoner.value(("tile", p, k)) is None]

    def _trials(self, level: int, kind: str, probe: "_Probe") -> list[Hint]:
        """Facts refuted by assuming them and following the direct rules to a clash: the
        grade's trials of that level (colours of open cells at level 3, the tiles that can
        still cover them at level 4), the shortest chains first."""
        reasoner = self.reasoner
        if kind == "cell":
            candidates = [("cell", i, k) for _, i, options in self._open_cells() for k in options]
        else:
            candidates = list(dict.fromkeys(key for _, i, _ in self._open_cells() for key in self._tile_options(i)))
        refuted: list[tuple[int, Key, Fact]] = []
        for key in candidates:
            if probe.fails(key):
                trial = reasoner.copy()
                trial.add(key, True, "hypothesis", level)
                try:
                    trial.run(self.deadline)
                except Contradiction as clash:
                    chain = self._chain(trial, clash, key)
                    refuted.append((len(chain), key, Fact(key, False, f"trial {level}", level, (), 0, ((key, True), chain, clash, trial))))
                else:
                    raise AssertionError(f"the grader's trial of {key} fails and this engine's does not")
                if len(refuted) >= TRIALS_WANTED:
                    break
        refuted.sort(key=lambda item: (item[0], item[1]))
        words = self._words()
        return [
            Hint(words.fact(key, False), level, words.trial_words(fact), self._cells({f.key for f in fact.detail[1]}, key), key, False)
            for _, key, fact in refuted
        ]

    def _chain(self, trial: Reasoner, clash: Contradiction, hypothesis: Key) -> list[Fact]:
        """The facts of the trial that the clash rests on, in the order they were derived."""
        return _clash_chain(trial, clash, self.reasoner.known, hypothesis)

    def _dilemmas(self, probe: "_Probe") -> list[Hint]:
        """Level 5, one round: for every open cell, what all the tiles that can still cover
        it imply, on the same facts; a hint per cell that shows something new (a colour
        first), the cells with new colours first."""
        board, words = self.board, self._words()
        found: set[tuple[Key, bool]] = set()
        hints = []
        for _, i, _ in sorted(self._open_cells(), key=lambda item: item[1]):
            if self.deadline is not None:
                self.deadline.check()
            options = self._tile_options(i)
            if len(options) < 2:
                continue
            common = probe.common(options) - found
            if not common:
                continue
            found |= common
            facts = sorted(common, key=lambda f: (not f[1], f[0][0] != "cell", f[0]))
            (key, value), also = facts[0], facts[1:]
            colours = sorted({COLOURS[k] for _, _, k in options}, key=COLOURS.index)
            reason = (f"{len(options)} tiles can still cover {board.name(i)} ({', '.join(colours)}), "
                      f"and whichever it is, the direct rules lead to this")
            if also:
                shown = also if self.verbose else also[:3]
                more = "" if len(shown) == len(also) else f", and {len(also) - len(shown)} more (--verbose lists them)"
                reason += f"; the same dilemma shows {'; '.join(words.fact(k, v) for k, v in shown)}{more}"
            cells = {i} | ({key[1]} if key[0] == "cell" else set(board.cells_of[key[1]]))
            hints.append((not (value and key[0] == "cell"), Hint(words.fact(key, value), 5, reason,
                                                                 sorted(divmod(c, board.width) for c in cells), key, value, also)))
        return [hint for _, hint in sorted(hints, key=lambda item: item[0])]


class _Probe:
    """The grader's compiled trials on the facts a hint session knows (see HintSession)."""

    def __init__(self, session: HintSession) -> None:
        from .deduce import Deduction, deducer_for

        board = session.board
        deducer = self.deducer = deducer_for(board.height, board.width, board.per_colour, session.deadline)
        t = deducer.template
        self.literal = lambda key: (t.colour if key[0] == "cell" else t.tile)[key[1]][key[2]]
        lits = [self.literal(key) if fact.value else -self.literal(key) for key, fact in session.reasoner.known.items()]
        self.deduction = Deduction(deducer, lits, 4, session.deadline)
        self.deduction._start_trials(explain=False)
        self.keys = {lit: ("cell", i, k) for i, row in enumerate(t.colour) for k, lit in enumerate(row)}
        self.keys.update({lit: ("tile", p, k) for p, row in enumerate(t.tile) for k, lit in enumerate(row)})

    def fails(self, key: Key) -> bool:
        """Whether the trial of ``key`` fails."""
        return self.deduction._trials.answer(self.literal(key)) is None  # type: ignore[union-attr]

    def common(self, options: list[Key]) -> set[tuple[Key, bool]]:
        """What every one of ``options`` implies beyond the known facts (none may fail)."""
        common = -1
        for key in options:
            mask = self.deduction._trials.answer(self.literal(key))  # type: ignore[union-attr]
            assert mask is not None, "dilemmas follow the trials that fail"
            common &= mask
            if not common:
                return set()
        return {(self.keys[abs(lit)], lit > 0) for lit in self.deducer.literals_in(common) if abs(lit) in self.keys}


_explainers: dict[tuple[int, int, int | None], Explainer] = {}


def explainer_for(height: int, width: int, per_colour: int | None = None) -> Explainer:
    """The process's explainer for a grid size."""
    key = (height, width, per_colour)
    if key not in _explainers:
        _explainers[key] = Explainer(height, width, per_colour)
    return _explainers[key]


def steps_level(grid: Grid, per_colour: int | None = None, deadline: Deadline | None = None) -> tuple[int, bool]:
    """Every hint from ``grid`` to the end, each accepted in turn (as ``hint --steps``): (the
    highest level among them, 0 when none was needed; whether they filled every cell). On a
    unique puzzle the highest level is its grade, or 5 with the grid left unfilled when it
    grades 6 (tests/test_lixso_explain.py)."""
    session = explainer_for(grid.height, grid.width, grid.per_colour(per_colour)).session(grid, deadline=deadline)
    highest = 0
    while not session.complete():
        found = session.next()
        if not found:
            return highest, False
        highest = max(highest, found[0].level)
        session.accept(found[0])
    return highest, True


def _clash_chain(trial: Reasoner, clash: Contradiction, before: dict, hypothesis: Key | None) -> list[Fact]:
    """The facts of ``trial`` that ``clash`` rests on, beyond those known ``before`` and the
    ``hypothesis`` itself, in the order they were derived: colours and tiles placed."""
    needed: dict[Key, Fact] = {}
    stack = [k for k, _ in clash.fact.deps] + ([clash.other.key] if clash.other.key in trial.known else [])
    while stack:
        key = stack.pop()
        if key in needed or key == hypothesis or key in before or key not in trial.known:
            continue
        fact = trial.known[key]
        needed[key] = fact
        stack.extend(k for k, _ in fact.deps)
    if clash.fact.key[0] in ("cell", "tile") and clash.fact.key != hypothesis:
        needed.setdefault(clash.fact.key, clash.fact)  # the fact that was about to be added
    # only the steps a person follows: colours and tiles placed, not every ruled-out tile
    shown = [f for f in needed.values() if f.value and f.rule != "one colour"]
    return sorted(shown, key=lambda f: (f.depth, f.key))
