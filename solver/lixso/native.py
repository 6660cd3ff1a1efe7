"""Unit propagation for Lixso trials, compiled with numba.

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
* Longer clauses keep a count of their false literals; a clause is read only when the count
  says at most one literal is left, so undoing a trial is decrementing the counts it raised.
* A trial's answer comes back as its trail (positions, in the order they were set) and as
  a bit set in 64-bit words (bit ``num_vars + literal``), which :mod:`.deduce` reads as one
  Python integer.

numba is imported here alone, and this module only on a deduction's first trial, so that
commands that never grade (``placesat lixso solve``) do not pay its import. Kernels are cached
on disk (``cache=True``): the first run on a machine compiles them, once.
"""

from __future__ import annotations

import numba
import numpy as np

_INT = np.int32


class TrialTables:
    """The clauses and the supply of one grid size, as the arrays the kernels read.

    ``clauses``: the propagation clauses (literals, no unit clause); ``colour_pos``: value-array
    positions of each cell's colour literals (cells x colours); ``cap``: cells one colour may
    take.
    """

    def __init__(self, clauses: list[list[int]], num_vars: int, colour_pos: np.ndarray, cap: int) -> None:
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

    def false_counts(self, value: np.ndarray) -> np.ndarray:
        """How many literals of each longer clause ``value`` makes false."""
        false = (value[self.cl_lits] == -1).astype(_INT)
        return np.add.reduceat(false, self.cl_start[:-1]).astype(_INT)

    def colour_counts(self, value: np.ndarray) -> np.ndarray:
        """How many cells ``value`` gives each colour."""
        return (value[self.colour_cells] == 1).sum(axis=1).astype(np.int64)


class TrialState:
    """One puzzle's propagation state over ``value`` (shared, kept consistent by commits)."""

    def __init__(self, tables: TrialTables, value: np.ndarray) -> None:
        self.tables = tables
        self.value = value
        self.nfalse = tables.false_counts(value)
        self.count = tables.colour_counts(value)
        self.trail = np.zeros(2 * tables.num_vars + 1, dtype=_INT)
        self.bits = np.zeros(tables.words, dtype=np.uint64)
        self.lits = np.zeros(2 * tables.num_vars + 1, dtype=_INT)

    def propagate(self, positions: np.ndarray, keep: bool) -> int:
        """Assume the literals at ``positions`` and propagate: the length of the trail (the
        positions set, first ``trail[0]``...), negative (-1 - length) on a contradiction.
        With ``keep`` (and no contradiction) the assignments stay; otherwise they are undone.
        ``bits`` holds the trail as a bit set either way."""
        t = self.tables
        return _propagate(
            t.imp_start, t.imp_to, t.occ_start, t.occ_clause, t.cl_start, t.cl_lits, t.colour_of, t.colour_cells,
            t.cap, self.value, self.nfalse, self.count, self.trail, self.bits, positions, keep,
        )

    def probe(self, position: int) -> int:
        """:meth:`propagate` of one literal, undone after."""
        self.lits[0] = position
        return self.propagate(self.lits[:1], False)


@numba.njit(cache=True, nogil=True)
def _propagate(imp_start, imp_to, occ_start, occ_clause, cl_start, cl_lits, colour_of, colour_cells,
               cap, value, nfalse, count, trail, bits, positions, keep):  # pragma: no cover - compiled
    top = value.shape[0] - 1  # 2 * num_vars: the negation of position p is top - p
    size = 0
    ok = True
    for i in range(positions.shape[0]):
        p = positions[i]
        if value[p] == 1:
            continue  # already known, as MiniSat passes over a true assumption
        if value[p] == -1:
            ok = False
            break
        value[p] = 1
        value[top - p] = -1
        trail[size] = p
        size += 1
        k = colour_of[p]
        if k >= 0:
            count[k] += 1
    head = 0
    processed = 0  # trail entries whose clause counts are raised (undone on the way back)
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
                    value[q] = -1
                    value[top - q] = 1
                    trail[size] = top - q
                    size += 1
        for j in range(imp_start[p], imp_start[p + 1]):
            q = imp_to[j]
            if value[q] == 1:
                continue
            if value[q] == -1:
                ok = False
                break
            value[q] = 1
            value[top - q] = -1
            trail[size] = q
            size += 1
            kq = colour_of[q]
            if kq >= 0:
                count[kq] += 1
        if not ok:
            break
        for j in range(occ_start[p], occ_start[p + 1]):
            nfalse[occ_clause[j]] += 1
        processed = head
        for j in range(occ_start[p], occ_start[p + 1]):
            c = occ_clause[j]
            start, end = cl_start[c], cl_start[c + 1]
            if nfalse[c] < end - start - 1:
                continue
            left = -1
            open_count = 0
            satisfied = False
            for i in range(start, end):
                v = value[cl_lits[i]]
                if v == 1:
                    satisfied = True
                    break
                if v == 0:
                    open_count += 1
                    left = cl_lits[i]
            if satisfied:
                continue
            if open_count == 0:
                ok = False
                break
            if open_count == 1:
                value[left] = 1
                value[top - left] = -1
                trail[size] = left
                size += 1
                kq = colour_of[left]
                if kq >= 0:
                    count[kq] += 1
    bits[:] = 0
    for i in range(size):
        p = trail[i]
        bits[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    if ok and keep:
        return size
    for i in range(processed):
        p = trail[i]
        for j in range(occ_start[p], occ_start[p + 1]):
            nfalse[occ_clause[j]] -= 1
    for i in range(size):
        p = trail[i]
        value[p] = 0
        value[top - p] = 0
        k = colour_of[p]
        if k >= 0:
            count[k] -= 1
    return size if ok else -1 - size
