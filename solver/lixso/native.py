"""Lixso trials: the unit propagator, and the trial loop of grading (compiled: ``_grader.pyx``).

What :mod:`.deduce` calls a trial's "direct consequences": unit propagation over
``encode.propagation_clauses`` with the colour supply counted beside the clauses (once a colour
has ``3 * per_colour`` cells, no other cell takes it; one more is a contradiction). The least
set of literals closed under both rules is the same whatever order they fire in, so this
engine reaches exactly what unit propagation over the whole compiled template reaches
(tests/test_lixso_propagate.py checks it against python-sat on random states).

The engine works on a puzzle's value array (position ``num_vars + literal``: 1 true, -1 false,
0 open), the array the deduction keeps. A trial assigns on top of it and undoes what it
assigned, so it costs only what it touches; a commit keeps what it assigned.

* Binary clauses are implication lists: the literals a literal makes true.
* Longer clauses are watched: each watches two of its literals, and is read only when a
  watched literal becomes false, to move that watch to another literal or, when there is
  none, to draw its conclusion (the other watch true, or a contradiction). Watches need no
  undoing: a trial's watches are as good after it is undone (every literal it made false is
  open again), so undoing a trial is clearing the values it set. As in MiniSat, each state
  keeps its own copy of the clauses with the watches first, and each watch-list entry a
  "blocker" (a literal of the clause: when it is true the clause is not read at all).
* "False" for a watch is *done* false: made false by a literal whose consequences have been
  drawn (a known fact, or a trail entry already propagated), not merely assigned. So a clause
  draws its conclusion at the step where the literals falsified so far leave it one literal,
  the step at which the counting method before it read it (a count of false literals per
  clause, raised at every occurrence of every step's literal). Clauses concluding at one step
  do so in clause order, so the trail comes out in the very order it did: hints read it (which
  cell a failed trial leaves without colour, on a contradiction's partial trail), and
  tests/test_lixso_watches.py checks it against a plain reference.
* A trial's answer comes back as its trail (positions, in the order they were set) and as
  a bit set in 64-bit words (bit ``num_vars + literal``), which :mod:`.deduce` reads as one
  Python integer.

Around it, the loop that grading runs to each level's fixed point (:func:`_close`): the loop
of ``deduce.Deduction._close`` (which hints still run, for their words), with each trial's
kept answer as a row of 64-bit words, the same rules for which answers a new fact may change,
and the dilemmas over the tiles that can still cover each open cell.

The kernels below are the algorithm, in plain Python (marked :func:`kernel`); ``_grader.pyx``
is the same functions line for line in Cython, which ``pip install`` compiles into the
extension module ``placesat.lixso._grader`` (setup.py). :func:`kernels` hands out that module,
or these functions when it is missing (no C compiler at install: correct, a few hundred times
slower a trial, and said once on stderr). tests/test_lixso_native.py runs both on the same states.
This module does not import the compiled one until a trial runs, so commands that never grade
(``placesat lixso solve``) do not load it.
"""

from __future__ import annotations

import copy
from collections import namedtuple

import numpy as np

from ..core.compiled import kernel, load_kernels

_INT = np.int32

Tables = namedtuple("Tables", "imp_start imp_to occ_start occ_clause cl_start cl_lits colour_of colour_cells cap cover_start cover_lits")

Watches = namedtuple("Watches", "lits watching watch_count done due")
# lits: each longer clause's literals (positions), clause c from cl_start[c] + c on: its two
# watched literals first, then the others, then -1; watching: by position p, the clauses
# watching the literal p makes false (its negation), from 2 * occ_start[p] on, watch_count[p]
# pairs (where the clause starts in lits, a literal of it: its blocker, true means satisfied);
# done: 1 where the literal is true and its consequences are drawn; due: room for the clauses
# concluding at one step


class TrialTables:
    """The clauses and the supply of one grid size, as the arrays the kernels read.

    ``clauses``: the propagation clauses (literals, no unit clause); ``colour_pos``: value-array
    positions of each cell's colour literals (cells x colours); ``cap``: cells one colour may
    take; ``covering``: each cell's tile literals (the options of its tile dilemma).
    """

    def __init__(self, clauses: list[list[int]], num_vars: int, colour_pos: np.ndarray, cap: int,
                 covering: list[list[int]]) -> None:
        n = self.num_vars = num_vars
        size = 2 * n + 1
        self.cap = cap
        lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
        assert lengths.min() >= 2, "unit clauses belong to the known facts"
        flat = np.fromiter((lit for clause in clauses for lit in clause), dtype=np.int64, count=int(lengths.sum())) + n
        starts = np.concatenate([[0], np.cumsum(lengths)])
        # binary clause (a or b): a false makes b true, b false makes a true; indexed by the
        # literal that becomes true (the negation of the one made false)
        binary = np.flatnonzero(lengths == 2)
        a, b = flat[starts[binary]], flat[starts[binary] + 1]
        trigger = np.concatenate([2 * n - a, 2 * n - b])
        implied = np.concatenate([b, a])
        order = np.argsort(trigger, kind="stable")
        self.imp_start = np.searchsorted(trigger[order], np.arange(size + 1)).astype(_INT)
        self.imp_to = implied[order].astype(_INT)
        # longer clauses: their literals, and for each position the clauses its negation is in
        long = np.flatnonzero(lengths > 2)
        long_lengths = lengths[long]
        self.cl_start = np.concatenate([[0], np.cumsum(long_lengths)]).astype(_INT)
        members = np.concatenate([flat[starts[c] : starts[c + 1]] for c in long.tolist()])
        self.cl_lits = members.astype(_INT)
        owner = np.repeat(np.arange(len(long)), long_lengths)
        trigger = 2 * n - members  # the literal whose truth makes this member false
        order = np.argsort(trigger, kind="stable")
        self.occ_start = np.searchsorted(trigger[order], np.arange(size + 1)).astype(_INT)
        self.occ_clause = owner[order].astype(_INT)
        # the colour a position's literal gives its cell (-1: none), and each colour's cells
        self.colour_of = np.full(size, -1, dtype=_INT)
        for k in range(colour_pos.shape[1]):
            self.colour_of[colour_pos[:, k]] = k
        self.colour_cells = np.ascontiguousarray(colour_pos.T).astype(_INT)  # colours x cells
        self.words = (size + 63) // 64
        self.cover_start = np.concatenate([[0], np.cumsum([len(lits) for lits in covering])]).astype(_INT)
        self.cover_lits = np.array([lit for lits in covering for lit in lits], dtype=_INT)
        self.arrays = Tables(
            self.imp_start, self.imp_to, self.occ_start, self.occ_clause, self.cl_start, self.cl_lits,
            self.colour_of, self.colour_cells, np.int64(cap), self.cover_start, self.cover_lits,
        )

    def unwatched(self) -> Watches:
        """Room for one state's watches (:func:`_watch` fills it)."""
        clauses, size = len(self.cl_start) - 1, 2 * self.num_vars + 1
        return Watches(np.zeros(len(self.cl_lits) + clauses, dtype=_INT), np.zeros(2 * len(self.occ_clause), dtype=_INT),
                       np.zeros(size, dtype=_INT), np.zeros(size, dtype=np.int8), np.zeros(max(clauses, 1), dtype=_INT))

    def colour_counts(self, value: np.ndarray) -> np.ndarray:
        """How many cells ``value`` gives each colour."""
        return (value[self.colour_cells] == 1).sum(axis=1).astype(np.int64)




# what is known of a trial, by its variable (the literals tried are positive), as in deduce.py
OPEN, ANSWERED, SURVIVES, SURE = 0, 1, 2, 3
# how a run of the trial loop ends
DONE = 0  # the fixed point of the level
CONTRADICTION = 1  # the known facts contradict each other
DECIDED = 2  # the cell asked about is decided
PAUSED = 3  # the probe budget is spent: call again (after checking the clock)
BROKEN = 4  # a dilemma's option failed its trial: a bug, never an answer

Trials = namedtuple(
    "Trials",
    "value watches count trail bits scratch status answers answer_colours version clock union flags "
    "queue ends queued survivors survivor_count solution solution_bits cell_tick cell_options "
    "failed failed_count mark stamp facts chosen",
)
# flags: [0] the union of kept answers is stale, [1] contradiction


def kernels() -> object:
    """The kernels below, compiled (the extension module ``_grader``) or, when it is missing
    or ``$PLACESAT_KERNELS`` is "python", as they are here
    (:func:`placesat.core.compiled.load_kernels`)."""
    return load_kernels(__name__, "the Lixso grader", "placesat.lixso._grader")


class TrialState:
    """One puzzle's trials: its propagation state over ``value`` (the value array it shares
    with its deduction) and, for the compiled trial loop, what is known of every trial.

    ``solution``: by variable, true in a known solution (or None); ``compiled``: the kernels to
    run (default: :func:`kernels`).
    """

    def __init__(self, tables: TrialTables, value: np.ndarray, solution: np.ndarray | None = None,
                 compiled: object | None = None) -> None:
        self.tables = tables
        size, words = 2 * tables.num_vars + 1, tables.words
        self.value = value
        self.kernels = compiled if compiled is not None else kernels()
        self.watches = tables.unwatched()
        self.kernels._watch(tables.arrays, value, self.watches)
        self.count = tables.colour_counts(value)
        self.trail = np.zeros(size, dtype=_INT)
        self.bits = np.zeros(words, dtype=np.uint64)
        self.scratch = np.zeros(1, dtype=_INT)
        self._trials: Trials | None = None
        self._solution = solution

    @property
    def trials(self) -> Trials:
        """The arrays of the compiled trial loop (made on first use)."""
        if self._trials is None:
            t = self.tables
            n, size, words = t.num_vars, 2 * t.num_vars + 1, t.words
            solution = np.zeros(n + 1, dtype=np.uint8) if self._solution is None else self._solution.astype(np.uint8)
            solution_bits = np.zeros(words, dtype=np.uint64)
            if self._solution is not None:
                true = np.flatnonzero(solution[1:]) + 1
                false = np.flatnonzero(solution[1:] == 0) + 1
                self.kernels._set_bits(solution_bits, np.concatenate([n + true, n - false]).astype(_INT))
            cells = t.colour_cells.shape[1]
            self._trials = Trials(
                self.value, self.watches, self.count, self.trail, self.bits, self.scratch,
                np.zeros(n + 1, dtype=np.uint8), np.zeros((n + 1, words), dtype=np.uint64),
                np.zeros((n + 1, len(self.count)), dtype=_INT), np.zeros(n + 1, dtype=np.int64),
                np.zeros(1, dtype=np.int64), np.zeros(words, dtype=np.uint64), np.zeros(2, dtype=np.int64),
                np.zeros(n + 1, dtype=_INT), np.zeros(2, dtype=np.int64), np.zeros(n + 1, dtype=np.uint8),
                np.zeros(n + 1, dtype=_INT), np.zeros(1, dtype=np.int64), solution, solution_bits,
                np.full(cells, -1, dtype=np.int64), np.zeros(cells, dtype=_INT),
                np.zeros(size, dtype=_INT), np.zeros(1, dtype=np.int64),
                np.zeros(len(t.cl_start) - 1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.zeros(size, dtype=_INT), np.zeros(len(t.cl_start) - 1, dtype=_INT),
            )
        return self._trials

    def copy(self, value: np.ndarray) -> "TrialState":
        """An independent copy over ``value`` (a copy of this state's value array), with
        everything known of every trial: the copy goes on from here without touching this one."""
        twin = copy.copy(self)  # tables, kernels and solution shared; the state's arrays copied below
        twin.value = value
        twin.watches = Watches(*(array.copy() for array in self.watches))
        twin.count = self.count.copy()
        twin.trail, twin.bits, twin.scratch = self.trail.copy(), self.bits.copy(), self.scratch.copy()
        twin._trials = None
        if self._trials is not None:
            # the first six (the watches, several arrays) are the propagation state's own, shared as in __init__
            shared = (value, twin.watches, twin.count, twin.trail, twin.bits, twin.scratch)
            twin._trials = Trials(*shared, *(array.copy() for array in self._trials[len(shared):]))
        return twin

    def propagate(self, positions: np.ndarray, keep: bool) -> int:
        """Assume the literals at ``positions`` and propagate: the length of the trail (the
        positions set, first ``trail[0]``...), negative (-1 - length) on a contradiction.
        With ``keep`` (and no contradiction) the assignments stay; otherwise they are undone.
        ``bits`` holds the trail as a bit set either way."""
        return self.kernels._propagate(self.tables.arrays, self.value, self.watches, self.count, self.trail,
                                       self.bits, positions, len(positions), keep)

    def probe(self, position: int) -> int:
        """:meth:`propagate` of one literal, undone after."""
        self.scratch[0] = position
        return self.propagate(self.scratch, False)

    def answer_mask(self, lit: int) -> int:
        """The kept answer of the trial of ``lit`` as a mask (bit ``num_vars + literal``)."""
        return int.from_bytes(self.trials.answers[lit].tobytes(), "little")

    def commit(self, positions: np.ndarray, level: int) -> bool:
        """Make the literals at ``positions`` facts, with all they imply, and send the trials
        they may change back in line: False on a contradiction."""
        ok = self.kernels._commit(self.tables.arrays, self.trials, positions, len(positions), level) >= 0
        self.trials.failed_count[0] = 0  # they are back in line: the next run finds them failing
        return ok

    def close(self, level: int, until: int, budget: int, batch: int) -> int:
        """Run the trials (and from level 5 the dilemmas) of ``level`` towards their fixed point;
        at most about ``budget`` trials (then PAUSED: call again). ``until``: a cell index, or -1;
        ``batch``: how many failed trials are made facts together."""
        return self.kernels._close(self.tables.arrays, self.trials, level, until, budget, batch)

    def line_up(self, level: int) -> None:
        """Put every open option of ``level`` in line: colours at level 3, tiles from level 4."""
        self.kernels._line_up(self.tables.arrays, self.trials, level)


@kernel
def _set_bits(bits, positions):
    for p in positions:
        bits[p >> 6] |= np.uint64(1) << np.uint64(p & 63)


@kernel
def _has_bit(bits, p):
    return (bits[p >> 6] >> np.uint64(p & 63)) & np.uint64(1) != 0


@kernel
def _assign(value, count, colour_of, trail, size, p):
    """Make the literal at position ``p`` true (its negation false) at the end of the trail
    (``size`` long so far), counting the colour it gives; the trail's new length."""
    value[p] = 1
    value[value.shape[0] - 1 - p] = -1
    trail[size] = p
    k = colour_of[p]
    if k >= 0:
        count[k] += 1
    return size + 1


@kernel
def _watch(T, value, W):
    """Fresh watches over ``value`` (its true literals known facts, done): each longer clause
    watches its first two literals ``value`` does not make false, or, when it has fewer, the
    first false ones after them (a clause the facts satisfy or, not closed under propagation,
    decide); each watch listed in clause order under the position that makes it false, the
    other watch its blocker."""
    cl_start, cl_lits = T.cl_start, T.cl_lits
    lits, done = W.lits, W.done
    top = value.shape[0] - 1
    for p in range(top + 1):
        W.watch_count[p] = 0
        done[p] = 1 if value[p] == 1 else 0
    for c in range(cl_start.shape[0] - 1):
        first = -1
        second = -1
        for false in (False, True):
            for i in range(cl_start[c], cl_start[c + 1]):
                q = cl_lits[i]
                if (value[q] == -1) != false or second >= 0:
                    continue
                if first < 0:
                    first = q
                else:
                    second = q
        s = cl_start[c] + c
        lits[s] = first
        lits[s + 1] = second
        at = s + 2
        for i in range(cl_start[c], cl_start[c + 1]):
            q = cl_lits[i]
            if q != first and q != second:
                lits[at] = q
                at += 1
        lits[at] = -1
        _listen(T, W, top - first, s, second)
        _listen(T, W, top - second, s, first)


@kernel
def _listen(T, W, p, s, blocker):
    """Put the clause at ``s`` (in ``W.lits``) in the watch list of position ``p``."""
    k = T.occ_start[p] + W.watch_count[p]
    W.watching[2 * k] = s
    W.watching[2 * k + 1] = blocker
    W.watch_count[p] += 1


@kernel
def _propagate(T, value, W, count, trail, bits, positions, npos, keep):
    imp_start, imp_to, occ_start = T.imp_start, T.imp_to, T.occ_start
    colour_of, colour_cells, cap = T.colour_of, T.colour_cells, T.cap
    lits, watching, watch_count, done, due = W.lits, W.watching, W.watch_count, W.done, W.due
    top = value.shape[0] - 1  # 2 * num_vars: the negation of position p is top - p
    size = 0
    ok = True
    for i in range(npos):
        p = positions[i]
        if value[p] == 1:
            continue  # already known, as MiniSat passes over a true assumption
        if value[p] == -1:
            ok = False
            break
        size = _assign(value, count, colour_of, trail, size, p)
    head = 0
    processed = 0  # trail entries marked done (undone on the way back)
    while ok and head < size:
        p = trail[head]
        head += 1
        k = colour_of[p]
        if k >= 0 and count[k] >= cap:
            if count[k] > cap:
                ok = False
                break
            # the colour's supply is spent: no other cell takes it
            for j in range(colour_cells.shape[1]):
                q = colour_cells[k, j]
                if value[q] == 0:
                    size = _assign(value, count, colour_of, trail, size, top - q)
        for j in range(imp_start[p], imp_start[p + 1]):
            q = imp_to[j]
            if value[q] == 1:
                continue
            if value[q] == -1:
                ok = False
                break
            size = _assign(value, count, colour_of, trail, size, q)
        if not ok:
            break
        done[p] = 1
        processed = head
        # the clauses watching the literal p makes false: unless satisfied (the blocker, or the
        # other watch, true), each moves that watch to a literal not done false, if it has one;
        # those left are due (every literal but the other watch is done false)
        gone = top - p
        base = occ_start[p]
        kept = 0
        ndue = 0
        for j in range(base, base + watch_count[p]):
            s = watching[2 * j]
            blocker = watching[2 * j + 1]
            if value[blocker] != 1:
                if lits[s] == gone:  # the watch made false goes second
                    lits[s] = lits[s + 1]
                    lits[s + 1] = gone
                blocker = lits[s]
                if value[blocker] != 1:
                    moved = False
                    i = s + 2
                    while lits[i] >= 0:
                        q = lits[i]
                        if done[top - q] == 0:
                            lits[s + 1] = q
                            lits[i] = gone
                            _listen(T, W, top - q, s, blocker)
                            moved = True
                            break
                        i += 1
                    if moved:
                        continue
                    due[ndue] = s
                    ndue += 1
            watching[2 * (base + kept)] = s
            watching[2 * (base + kept) + 1] = blocker
            kept += 1
        watch_count[p] = kept
        # the due clauses conclude in clause order (insertion sort: they are few)
        for i in range(1, ndue):
            s = due[i]
            j = i
            while j > 0 and due[j - 1] > s:
                due[j] = due[j - 1]
                j -= 1
            due[j] = s
        for i in range(ndue):
            q = lits[due[i]]
            if value[q] == 1:
                continue
            if value[q] == -1:
                ok = False
                break
            size = _assign(value, count, colour_of, trail, size, q)
    bits[:] = 0
    for i in range(size):
        p = trail[i]
        bits[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    if ok and keep:
        return size
    for i in range(processed):
        done[trail[i]] = 0
    for i in range(size):
        p = trail[i]
        value[p] = 0
        value[top - p] = 0
        k = colour_of[p]
        if k >= 0:
            count[k] -= 1
    return size if ok else -1 - size


# --- the trial loop: deduce.Deduction._close, as a kernel ------------------------------------
#
# The same fixed point as the Python loop in deduce.py (which hints use, for the words and the
# order of steps), reached the same way: kept answers, re-run only when a new fact may change
# them (see deduce.Deduction._after), trials that cannot fail not run, failed trials made
# facts a few at a time, then the dilemmas of each open cell.


@kernel
def _enqueue(S, x):
    if not S.queued[x]:
        S.queued[x] = 1
        S.queue[S.ends[1] % S.queue.shape[0]] = x
        S.ends[1] += 1


@kernel
def _forget(S, x):
    if S.status[x] == ANSWERED:
        S.flags[0] = 1
    S.status[x] = OPEN
    S.clock[0] += 1
    S.version[x] = S.clock[0]


@kernel
def _keep(T, S, x, size):
    """Keep the answer on the trail (``size`` long) as the trial of ``x``'s."""
    S.answers[x, :] = S.bits
    union = S.union
    union |= S.bits
    S.answer_colours[x, :] = 0
    for i in range(size):
        k = T.colour_of[S.trail[i]]
        if k >= 0:
            S.answer_colours[x, k] += 1
    S.status[x] = ANSWERED
    S.clock[0] += 1
    S.version[x] = S.clock[0]


@kernel
def _held(S, p):
    """Whether some kept answer holds the literal at position ``p``."""
    if S.flags[0]:
        union = S.union
        union[:] = 0
        for x in range(S.status.shape[0]):
            if S.status[x] == ANSWERED:
                union |= S.answers[x]
        S.flags[0] = 0
    return _has_bit(S.union, p)


@kernel
def _survives(S, x, n):
    """Whether the trial of ``x`` is known not to fail without running it (deduce._survives)."""
    if S.solution[x]:
        S.status[x] = SURE
        return True
    if not _held(S, n + x):
        return False
    S.status[x] = SURVIVES
    S.survivors[S.survivor_count[0]] = x
    S.survivor_count[0] += 1
    return True


@kernel
def _unsupported(S, n):
    """Open again (and in line) the trials marked SURVIVES that no kept answer holds now."""
    kept = 0
    lost = 0
    for i in range(S.survivor_count[0]):
        x = S.survivors[i]
        if S.status[x] != SURVIVES or S.value[n + x] != 0:
            continue
        if _held(S, n + x):
            S.survivors[kept] = x
            kept += 1
        else:
            _forget(S, x)
            _enqueue(S, x)
            lost += 1
    S.survivor_count[0] = kept
    return lost


@kernel
def _after(T, S, size, level, n):
    """The new facts are ``S.facts[:size]`` (positions): forget the kept answers they may
    change and put those trials back in line; the trials that now fail for certain go to
    ``S.failed`` (tiles only from level 4). See deduce.Deduction._after for why this is exact."""
    value, status, answers = S.value, S.status, S.answers
    top = 2 * n
    words = answers.shape[1]
    facts = S.facts
    for i in range(size):
        x = abs(facts[i] - n)
        if status[x] != OPEN:
            _forget(S, x)
    against = np.zeros(words, dtype=np.uint64)
    made = np.zeros(S.count.shape[0], dtype=np.bool_)
    for i in range(size):
        q = top - facts[i]
        against[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
        k = T.colour_of[facts[i]]
        if k >= 0:
            made[k] = True
    stale = np.zeros(n + 1, dtype=np.bool_)
    # an answer holding the negation of a new fact: the trial now fails
    for x in range(1, n + 1):
        if status[x] != ANSWERED:
            continue
        row = answers[x]
        for w in range(words):
            if row[w] & against[w]:
                stale[x] = True
                if value[n + x] == 0 and (level >= 4 or T.colour_of[n + x] >= 0):
                    S.failed[S.failed_count[0]] = n - x
                    S.failed_count[0] += 1
                break
    # clauses through a negated new fact that no known fact satisfies: an answer falsifying all
    # their open literals but one (at least one), and satisfying none, may now propagate
    S.stamp[0] += 1
    stamp = S.stamp[0]
    chosen = S.chosen
    chosen_count = 0
    near = np.zeros(words, dtype=np.uint64)
    for i in range(size):
        p = facts[i]
        for j in range(T.occ_start[p], T.occ_start[p + 1]):
            c = T.occ_clause[j]
            if S.mark[c] == stamp:
                continue
            S.mark[c] = stamp
            satisfied = False
            for m in range(T.cl_start[c], T.cl_start[c + 1]):
                if value[T.cl_lits[m]] == 1:
                    satisfied = True
                    break
            if satisfied:
                continue
            chosen[chosen_count] = c
            chosen_count += 1
            for m in range(T.cl_start[c], T.cl_start[c + 1]):
                q = T.cl_lits[m]
                if value[q] == 0:
                    near[(top - q) >> 6] |= np.uint64(1) << np.uint64((top - q) & 63)
    if chosen_count:
        for x in range(1, n + 1):
            if status[x] != ANSWERED or stale[x]:
                continue
            row = answers[x]
            touches = False
            for w in range(words):
                if row[w] & near[w]:
                    touches = True
                    break
            if not touches:
                continue
            for i in range(chosen_count):
                c = chosen[i]
                open_count = 0
                falsified = 0
                satisfied = False
                for m in range(T.cl_start[c], T.cl_start[c + 1]):
                    q = T.cl_lits[m]
                    if value[q] != 0:
                        continue
                    open_count += 1
                    if _has_bit(row, q):
                        satisfied = True
                        break
                    if _has_bit(row, top - q):
                        falsified += 1
                if not satisfied and falsified > 0 and falsified >= open_count - 1:
                    stale[x] = True
                    break
    # a colour's supply links facts however far apart once it is nearly spent
    for k in range(S.count.shape[0]):
        if not made[k]:
            continue
        reach = max(T.cap - S.count[k], 1)
        for x in range(1, n + 1):
            if status[x] == ANSWERED and not stale[x] and S.answer_colours[x, k] >= reach:
                stale[x] = True
    for x in range(1, n + 1):
        if stale[x]:
            _forget(S, x)
            if value[n + x] == 0:
                _enqueue(S, x)


@kernel
def _commit(T, S, positions, npos, level):
    """Make the literals at ``positions`` facts (with all they imply) and update the trials
    (:func:`_after`): the number of new facts, or -1 on a contradiction."""
    n = S.status.shape[0] - 1
    size = _propagate(T, S.value, S.watches, S.count, S.trail, S.bits, positions, npos, True)
    if size < 0:
        S.flags[1] = 1
        return -1
    S.facts[:size] = S.trail[:size]
    _after(T, S, size, level, n)
    return size


@kernel
def _decided(T, S, cell, n):
    for k in range(T.colour_cells.shape[0]):
        if S.value[T.colour_cells[k, cell]] == 1:
            return True
    return False


@kernel
def _line_up(T, S, level):
    """Put the open options of ``level`` in line (colours at level 3, tiles from level 4), the
    cells with the fewest colours left first (their options fail most often)."""
    n = S.status.shape[0] - 1
    colours, cells = T.colour_cells.shape[0], T.colour_cells.shape[1]
    for left in range(1, colours + 1):
        for cell in range(cells):
            count = 0
            for k in range(colours):
                if S.value[T.colour_cells[k, cell]] == 0:
                    count += 1
            if count != left or _decided(T, S, cell, n):
                continue
            if level < 4:
                for k in range(colours):
                    x = T.colour_cells[k, cell] - n
                    if S.value[n + x] == 0 and S.status[x] == OPEN:
                        _enqueue(S, x)
            else:
                for j in range(T.cover_start[cell], T.cover_start[cell + 1]):
                    x = T.cover_lits[j]
                    if S.value[n + x] == 0 and S.status[x] == OPEN:
                        _enqueue(S, x)


@kernel
def _close(T, S, level, until, budget, batch):
    n = S.status.shape[0] - 1
    probes = 0
    while True:
        while S.ends[0] < S.ends[1] or S.failed_count[0]:
            if S.ends[0] < S.ends[1]:
                if probes >= budget and not S.failed_count[0]:
                    return PAUSED
                x = S.queue[S.ends[0] % S.queue.shape[0]]
                S.ends[0] += 1
                S.queued[x] = 0
                if S.value[n + x] != 0 or S.status[x] != OPEN:
                    continue
                tile = T.colour_of[n + x] < 0
                if tile != (level >= 4):
                    continue  # tiles are tried from level 4, and from then on they suffice
                if _survives(S, x, n):
                    continue
                probes += 1
                S.scratch[0] = n + x
                size = _propagate(T, S.value, S.watches, S.count, S.trail, S.bits, S.scratch, 1, False)
                if size >= 0:
                    _keep(T, S, x, size)
                    continue
                S.failed[S.failed_count[0]] = n - x
                S.failed_count[0] += 1
                if S.failed_count[0] < batch and S.ends[0] < S.ends[1]:
                    continue
            count = S.failed_count[0]
            S.failed_count[0] = 0
            pending = S.failed[:count].copy()
            if _commit(T, S, pending, count, level) < 0:
                return CONTRADICTION
            if until >= 0 and _decided(T, S, until, n):
                S.failed_count[0] = 0  # back in line already (see _after)
                return DECIDED
        if _unsupported(S, n):
            continue
        if level < 5:
            return DONE
        found = _dilemmas(T, S, level, n)
        if found == -3:
            return BROKEN
        if found == -2:
            return CONTRADICTION
        if found < 0:
            return DONE
        undecided = False
        for cell in range(T.colour_cells.shape[1]):
            if not _decided(T, S, cell, n):
                undecided = True
                break
        if not undecided or (until >= 0 and _decided(T, S, until, n)):
            S.failed_count[0] = 0  # back in line already (see _after)
            return DONE if not undecided else DECIDED


@kernel
def _dilemmas(T, S, level, n):
    """Learn what all the tiles that can still cover a cell imply, for every open cell (see
    deduce.Deduction._dilemmas): -1 when nothing was new, -2 on a contradiction, -3 when an
    option's trial fails (a bug), else the number of new facts (the failed trials they reveal
    are in ``S.failed``)."""
    value, status, answers = S.value, S.status, S.answers
    words = answers.shape[1]
    unknown = np.zeros(words, dtype=np.uint64)
    for p in range(value.shape[0]):
        if value[p] != 1:
            unknown[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    found = np.zeros(words, dtype=np.uint64)
    common = np.zeros(words, dtype=np.uint64)
    options = np.zeros(T.cover_lits.shape[0], dtype=_INT)
    exact = np.zeros(T.cover_lits.shape[0], dtype=_INT)
    anything = False
    for cell in range(T.colour_cells.shape[1]):
        if _decided(T, S, cell, n):
            continue
        count = 0
        changed = False
        for j in range(T.cover_start[cell], T.cover_start[cell + 1]):
            x = T.cover_lits[j]
            if value[n + x] == 0:
                options[count] = x
                count += 1
                if S.version[x] > S.cell_tick[cell]:
                    changed = True
        if count < 2:
            continue
        if not changed and S.cell_options[cell] == count:
            continue  # its options' answers are as they were when it last gave nothing
        common[:] = unknown
        empty = False
        exact_count = 0
        for i in range(count):
            x = options[i]
            if status[x] == ANSWERED:
                common &= answers[x]
            else:
                if S.solution[x]:
                    common &= S.solution_bits  # all it implies is true in that solution
                exact[exact_count] = x
                exact_count += 1
            empty = not common.any()
            if empty:
                break
        # the option true in the known solution first: its answer is the smallest bound
        first = 0
        for i in range(exact_count):
            if S.solution[exact[i]]:
                exact[first], exact[i] = exact[i], exact[first]
                first += 1
        for i in range(exact_count):
            if empty:
                break
            x = exact[i]
            S.scratch[0] = n + x
            size = _propagate(T, value, S.watches, S.count, S.trail, S.bits, S.scratch, 1, False)
            if size < 0:
                return -3  # cannot happen: dilemmas follow the trials that fail
            _keep(T, S, x, size)
            common &= answers[x]
            empty = not common.any()
        new = False
        for w in range(words):
            if common[w] & ~found[w]:
                new = True
                found[w] |= common[w]
        if not new:
            S.cell_tick[cell] = S.clock[0]
            S.cell_options[cell] = count
            continue
        anything = True
    if not anything:
        return -1
    lits = np.zeros(value.shape[0], dtype=_INT)
    size = 0
    for p in range(value.shape[0]):
        if _has_bit(found, p):
            lits[size] = p
            size += 1
    added = _commit(T, S, lits, size, level)
    return -2 if added < 0 else added
