# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The Lixso grader's kernels compiled (Cython): the kernels of :mod:`placesat.lixso.native`, the
same names, arguments, answers and steps, in C types.

:mod:`.native` holds the kernels in plain Python, where their rules are stated and commented;
this module is what ``pip install`` compiles from them (setup.py), and what
:func:`placesat.core.compiled.load_kernels` hands out when it imports. Each function here is the
one of the same name there, line for line; the comments here are about C only. A change there
is a change here (tests/test_lixso_native.py runs both on the same states and compares).

C notes, once:

* The arguments ``T`` and ``S`` are native's namedtuples of arrays (``Tables``, ``Trials``);
  the entry points (``def``) unpack them once into :class:`Tables` and :class:`Trials`, typed
  views of the same arrays (nothing copied), and the work runs in ``cdef`` functions on those.
  ``S.union`` is ``S.union_`` here (``union`` is a word of C).
* Positions and sizes are ``Py_ssize_t``; an array's element type is the dtype native.py gives
  it (int32 positions, int8 values, uint64 words of bits).
* No bounds checks and no negative indices (the directives above), as under numba: the
  indices are positions of the value array, variables and cells, in range by construction.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

import numpy as np

# what is known of a trial, and how a run of the trial loop ends: native.py's numbers
cdef enum:
    OPEN = 0
    ANSWERED = 1
    SURVIVES = 2
    SURE = 3
cdef enum:
    DONE = 0
    CONTRADICTION = 1
    DECIDED = 2
    PAUSED = 3
    BROKEN = 4

# for tests/test_lixso_native.py: the numbers above, as native.py names them
CODES = {"OPEN": OPEN, "ANSWERED": ANSWERED, "SURVIVES": SURVIVES, "SURE": SURE,
         "DONE": DONE, "CONTRADICTION": CONTRADICTION, "DECIDED": DECIDED, "PAUSED": PAUSED, "BROKEN": BROKEN}


cdef class Tables:
    """native.Tables (the clauses and the supply of one grid size), as typed views."""
    cdef const int32_t[::1] imp_start, imp_to, occ_start, occ_clause, cl_start, cl_lits, colour_of
    cdef const int32_t[:, ::1] colour_cells
    cdef int64_t cap
    cdef const int32_t[::1] cover_start, cover_lits

    def __init__(self, T):
        self.imp_start, self.imp_to = T.imp_start, T.imp_to
        self.occ_start, self.occ_clause = T.occ_start, T.occ_clause
        self.cl_start, self.cl_lits = T.cl_start, T.cl_lits
        self.colour_of, self.colour_cells, self.cap = T.colour_of, T.colour_cells, T.cap
        self.cover_start, self.cover_lits = T.cover_start, T.cover_lits


cdef class Watches:
    """native.Watches (the watches of one puzzle's longer clauses), as typed views."""
    cdef int32_t[::1] lits, watching, watch_count
    cdef int8_t[::1] done
    cdef int32_t[::1] due

    def __init__(self, W):
        self.lits, self.watching, self.watch_count, self.done, self.due = W.lits, W.watching, W.watch_count, W.done, W.due


cdef class Trials:
    """native.Trials (one puzzle's propagation state and what is known of its trials), as typed
    views of the same arrays."""
    cdef int8_t[::1] value
    cdef Watches watches
    cdef int64_t[::1] count
    cdef int32_t[::1] trail
    cdef uint64_t[::1] bits
    cdef int32_t[::1] scratch
    cdef uint8_t[::1] status
    cdef uint64_t[:, ::1] answers
    cdef int32_t[:, ::1] answer_colours
    cdef int64_t[::1] version, clock
    cdef uint64_t[::1] union_
    cdef int64_t[::1] flags
    cdef int32_t[::1] queue
    cdef int64_t[::1] ends
    cdef uint8_t[::1] queued
    cdef int32_t[::1] survivors
    cdef int64_t[::1] survivor_count
    cdef uint8_t[::1] solution
    cdef uint64_t[::1] solution_bits
    cdef int64_t[::1] cell_tick
    cdef int32_t[::1] cell_options, failed
    cdef int64_t[::1] failed_count, mark, stamp
    cdef int32_t[::1] facts, chosen

    def __init__(self, S):
        self.value, self.count, self.trail, self.bits, self.scratch = S.value, S.count, S.trail, S.bits, S.scratch
        self.watches = _watches(S.watches)
        self.status, self.answers, self.answer_colours = S.status, S.answers, S.answer_colours
        self.version, self.clock, self.union_, self.flags = S.version, S.clock, S.union, S.flags
        self.queue, self.ends, self.queued = S.queue, S.ends, S.queued
        self.survivors, self.survivor_count = S.survivors, S.survivor_count
        self.solution, self.solution_bits = S.solution, S.solution_bits
        self.cell_tick, self.cell_options = S.cell_tick, S.cell_options
        self.failed, self.failed_count = S.failed, S.failed_count
        self.mark, self.stamp, self.facts, self.chosen = S.mark, S.stamp, S.facts, S.chosen


# --- the entry points Python calls (TrialState): unpack, then run the kernel below ---------


def _set_bits(uint64_t[::1] bits, const int32_t[:] positions):
    cdef Py_ssize_t i, p
    for i in range(positions.shape[0]):
        p = positions[i]
        bits[p >> 6] |= _bit(p)


# the last tables unpacked, and the namedtuple they came from (kept alive here, so that
# ``is`` cannot meet a new object at its address): hints call _propagate once a trial, on
# the same tables, and unpacking them each time cost a tenth of the hints' time
cdef object _last_T = None
cdef Tables _last_tables = None


cdef Tables _tables(T):
    global _last_T, _last_tables
    if T is not _last_T:
        _last_tables = Tables(T)
        _last_T = T
    return _last_tables


# the same for the watches of the last state propagated
cdef object _last_W = None
cdef Watches _last_watches = None


cdef Watches _watches(W):
    global _last_W, _last_watches
    if W is not _last_W:
        _last_watches = Watches(W)
        _last_W = W
    return _last_watches


def _watch(T, int8_t[::1] value, W):
    watch_all(_tables(T), value, _watches(W))


def _propagate(T, int8_t[::1] value, W, int64_t[::1] count, int32_t[::1] trail,
               uint64_t[::1] bits, const int32_t[:] positions, Py_ssize_t npos, bint keep):
    return propagate(_tables(T), value, _watches(W), count, trail, bits, positions, npos, keep)


def _commit(T, S, const int32_t[:] positions, Py_ssize_t npos, Py_ssize_t level):
    return commit(_tables(T), Trials(S), positions, npos, level)


def _close(T, S, Py_ssize_t level, Py_ssize_t until, Py_ssize_t budget, Py_ssize_t batch):
    return close(_tables(T), Trials(S), level, until, budget, batch)


def _line_up(T, S, Py_ssize_t level):
    line_up(_tables(T), Trials(S), level)


# --- bits ------------------------------------------------------------------------------------


cdef inline uint64_t _bit(Py_ssize_t p) noexcept:
    """The bit of position ``p`` in its 64-bit word (``np.uint64(1) << np.uint64(p & 63)``)."""
    return (<uint64_t>1) << (p & 63)


cdef inline bint _has_bit(const uint64_t[::1] bits, Py_ssize_t p) noexcept:
    return (bits[p >> 6] >> (p & 63)) & 1 != 0


cdef inline bint _any(const uint64_t[::1] bits) noexcept:
    """``bits.any()``."""
    cdef Py_ssize_t w
    for w in range(bits.shape[0]):
        if bits[w]:
            return True
    return False


# --- the propagator ----------------------------------------------------------------------------


cdef inline Py_ssize_t _assign(int8_t[::1] value, int64_t[::1] count, const int32_t[::1] colour_of,
                               int32_t[::1] trail, Py_ssize_t size, Py_ssize_t p) noexcept:
    value[p] = 1
    value[value.shape[0] - 1 - p] = -1
    trail[size] = <int32_t>p
    cdef Py_ssize_t k = colour_of[p]
    if k >= 0:
        count[k] += 1
    return size + 1


cdef void watch_all(Tables T, const int8_t[::1] value, Watches W) noexcept:
    """native._watch."""
    cdef const int32_t[::1] cl_start = T.cl_start, cl_lits = T.cl_lits
    cdef int32_t[::1] lits = W.lits
    cdef int8_t[::1] done = W.done
    cdef Py_ssize_t top = value.shape[0] - 1
    cdef Py_ssize_t p, c, i, q, first, second, s, at, w
    cdef bint false
    for p in range(top + 1):
        W.watch_count[p] = 0
        done[p] = 1 if value[p] == 1 else 0
    for c in range(cl_start.shape[0] - 1):
        first = -1
        second = -1
        for w in range(2):  # for false in (False, True)
            false = w == 1
            for i in range(cl_start[c], cl_start[c + 1]):
                q = cl_lits[i]
                if (value[q] == -1) != false or second >= 0:
                    continue
                if first < 0:
                    first = q
                else:
                    second = q
        s = cl_start[c] + c
        lits[s] = <int32_t>first
        lits[s + 1] = <int32_t>second
        at = s + 2
        for i in range(cl_start[c], cl_start[c + 1]):
            q = cl_lits[i]
            if q != first and q != second:
                lits[at] = <int32_t>q
                at += 1
        lits[at] = -1
        _listen(T, W, top - first, s, second)
        _listen(T, W, top - second, s, first)


cdef inline void _listen(Tables T, Watches W, Py_ssize_t p, Py_ssize_t s, Py_ssize_t blocker) noexcept:
    cdef Py_ssize_t k = T.occ_start[p] + W.watch_count[p]
    W.watching[2 * k] = <int32_t>s
    W.watching[2 * k + 1] = <int32_t>blocker
    W.watch_count[p] += 1


cdef Py_ssize_t propagate(Tables T, int8_t[::1] value, Watches W, int64_t[::1] count, int32_t[::1] trail,
                          uint64_t[::1] bits, const int32_t[:] positions, Py_ssize_t npos, bint keep) noexcept:
    """native._propagate."""
    cdef const int32_t[::1] imp_start = T.imp_start, imp_to = T.imp_to, occ_start = T.occ_start
    cdef const int32_t[::1] colour_of = T.colour_of
    cdef const int32_t[:, ::1] colour_cells = T.colour_cells
    cdef int32_t[::1] lits = W.lits, watching = W.watching, watch_count = W.watch_count, due = W.due
    cdef int8_t[::1] done = W.done
    cdef int64_t cap = T.cap
    cdef Py_ssize_t top = value.shape[0] - 1  # 2 * num_vars: the negation of position p is top - p
    cdef Py_ssize_t size = 0, head = 0, processed = 0
    cdef Py_ssize_t i, j, p, q, k, s, blocker, gone, base, kept, ndue
    cdef bint ok = True, moved
    for i in range(npos):
        p = positions[i]
        if value[p] == 1:
            continue
        if value[p] == -1:
            ok = False
            break
        size = _assign(value, count, colour_of, trail, size, p)
    while ok and head < size:
        p = trail[head]
        head += 1
        k = colour_of[p]
        if k >= 0 and count[k] >= cap:
            if count[k] > cap:
                ok = False
                break
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
        gone = top - p
        base = occ_start[p]
        kept = 0
        ndue = 0
        for j in range(base, base + watch_count[p]):
            s = watching[2 * j]
            blocker = watching[2 * j + 1]
            if value[blocker] != 1:
                if lits[s] == gone:
                    lits[s] = lits[s + 1]
                    lits[s + 1] = <int32_t>gone
                blocker = lits[s]
                if value[blocker] != 1:
                    moved = False
                    i = s + 2
                    while lits[i] >= 0:
                        q = lits[i]
                        if done[top - q] == 0:
                            lits[s + 1] = <int32_t>q
                            lits[i] = <int32_t>gone
                            _listen(T, W, top - q, s, blocker)
                            moved = True
                            break
                        i += 1
                    if moved:
                        continue
                    due[ndue] = <int32_t>s
                    ndue += 1
            watching[2 * (base + kept)] = <int32_t>s
            watching[2 * (base + kept) + 1] = <int32_t>blocker
            kept += 1
        watch_count[p] = <int32_t>kept
        for i in range(1, ndue):
            s = due[i]
            j = i
            while j > 0 and due[j - 1] > s:
                due[j] = due[j - 1]
                j -= 1
            due[j] = <int32_t>s
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
        bits[p >> 6] |= _bit(p)
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


# --- the trial loop: deduce.Deduction._close, compiled (native.py says how) --------------------


cdef inline void _enqueue(Trials S, Py_ssize_t x) noexcept:
    if not S.queued[x]:
        S.queued[x] = 1
        S.queue[S.ends[1] % S.queue.shape[0]] = <int32_t>x
        S.ends[1] += 1


cdef inline void _forget(Trials S, Py_ssize_t x) noexcept:
    if S.status[x] == ANSWERED:
        S.flags[0] = 1
    S.status[x] = OPEN
    S.clock[0] += 1
    S.version[x] = S.clock[0]


cdef void _keep(Tables T, Trials S, Py_ssize_t x, Py_ssize_t size) noexcept:
    """native._keep."""
    cdef Py_ssize_t w, i, k
    for w in range(S.bits.shape[0]):  # S.answers[x, :] = S.bits; union |= S.bits
        S.answers[x, w] = S.bits[w]
        S.union_[w] |= S.bits[w]
    S.answer_colours[x, :] = 0
    for i in range(size):
        k = T.colour_of[S.trail[i]]
        if k >= 0:
            S.answer_colours[x, k] += 1
    S.status[x] = ANSWERED
    S.clock[0] += 1
    S.version[x] = S.clock[0]


cdef bint _held(Trials S, Py_ssize_t p) noexcept:
    """native._held."""
    cdef Py_ssize_t x, w
    if S.flags[0]:
        S.union_[:] = 0
        for x in range(S.status.shape[0]):
            if S.status[x] == ANSWERED:
                for w in range(S.union_.shape[0]):  # union |= S.answers[x]
                    S.union_[w] |= S.answers[x, w]
        S.flags[0] = 0
    return _has_bit(S.union_, p)


cdef bint _survives(Trials S, Py_ssize_t x, Py_ssize_t n) noexcept:
    """native._survives."""
    if S.solution[x]:
        S.status[x] = SURE
        return True
    if not _held(S, n + x):
        return False
    S.status[x] = SURVIVES
    S.survivors[S.survivor_count[0]] = <int32_t>x
    S.survivor_count[0] += 1
    return True


cdef Py_ssize_t _unsupported(Trials S, Py_ssize_t n) noexcept:
    """native._unsupported."""
    cdef Py_ssize_t kept = 0, lost = 0, i, x
    for i in range(S.survivor_count[0]):
        x = S.survivors[i]
        if S.status[x] != SURVIVES or S.value[n + x] != 0:
            continue
        if _held(S, n + x):
            S.survivors[kept] = <int32_t>x
            kept += 1
        else:
            _forget(S, x)
            _enqueue(S, x)
            lost += 1
    S.survivor_count[0] = kept
    return lost


cdef int _after(Tables T, Trials S, Py_ssize_t size, Py_ssize_t level, Py_ssize_t n) except -1:
    """native._after (its docstring says why what it forgets is exact). -1 only when numpy
    cannot give it its scratch arrays."""
    cdef int8_t[::1] value = S.value
    cdef uint8_t[::1] status = S.status
    cdef uint64_t[:, ::1] answers = S.answers
    cdef Py_ssize_t top = 2 * n
    cdef Py_ssize_t words = answers.shape[1]
    cdef int32_t[::1] facts = S.facts
    cdef Py_ssize_t i, j, m, w, x, p, q, c, k, chosen_count, open_count, falsified
    cdef int64_t stamp, reach
    cdef bint satisfied, touches
    cdef const uint64_t[::1] row
    for i in range(size):
        x = abs(facts[i] - n)
        if status[x] != OPEN:
            _forget(S, x)
    cdef uint64_t[::1] against = np.zeros(words, dtype=np.uint64)
    cdef uint8_t[::1] made = np.zeros(S.count.shape[0], dtype=np.uint8)
    for i in range(size):
        q = top - facts[i]
        against[q >> 6] |= _bit(q)
        k = T.colour_of[facts[i]]
        if k >= 0:
            made[k] = True
    cdef uint8_t[::1] stale = np.zeros(n + 1, dtype=np.uint8)
    for x in range(1, n + 1):
        if status[x] != ANSWERED:
            continue
        row = answers[x]
        for w in range(words):
            if row[w] & against[w]:
                stale[x] = True
                if value[n + x] == 0 and (level >= 4 or T.colour_of[n + x] >= 0):
                    S.failed[S.failed_count[0]] = <int32_t>(n - x)
                    S.failed_count[0] += 1
                break
    S.stamp[0] += 1
    stamp = S.stamp[0]
    cdef int32_t[::1] chosen = S.chosen
    chosen_count = 0
    cdef uint64_t[::1] near = np.zeros(words, dtype=np.uint64)
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
            chosen[chosen_count] = <int32_t>c
            chosen_count += 1
            for m in range(T.cl_start[c], T.cl_start[c + 1]):
                q = T.cl_lits[m]
                if value[q] == 0:
                    near[(top - q) >> 6] |= _bit(top - q)
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
    return 0


cdef Py_ssize_t commit(Tables T, Trials S, const int32_t[:] positions, Py_ssize_t npos, Py_ssize_t level) except -2:
    """native._commit (-1: a contradiction; -2 only when numpy fails)."""
    cdef Py_ssize_t n = S.status.shape[0] - 1
    cdef Py_ssize_t size = propagate(T, S.value, S.watches, S.count, S.trail, S.bits, positions, npos, True)
    if size < 0:
        S.flags[1] = 1
        return -1
    S.facts[:size] = S.trail[:size]
    _after(T, S, size, level, n)
    return size


cdef bint _decided(Tables T, Trials S, Py_ssize_t cell, Py_ssize_t n) noexcept:
    cdef Py_ssize_t k
    for k in range(T.colour_cells.shape[0]):
        if S.value[T.colour_cells[k, cell]] == 1:
            return True
    return False


cdef void line_up(Tables T, Trials S, Py_ssize_t level) noexcept:
    """native._line_up."""
    cdef Py_ssize_t n = S.status.shape[0] - 1
    cdef Py_ssize_t colours = T.colour_cells.shape[0], cells = T.colour_cells.shape[1]
    cdef Py_ssize_t left, cell, count, k, j, x
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


cdef Py_ssize_t close(Tables T, Trials S, Py_ssize_t level, Py_ssize_t until, Py_ssize_t budget,
                      Py_ssize_t batch) except -1:
    """native._close (-1 only when numpy fails)."""
    cdef Py_ssize_t n = S.status.shape[0] - 1
    cdef Py_ssize_t probes = 0, x, size, count, found, cell
    cdef bint tile, undecided
    cdef int32_t[::1] pending
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
                    continue
                if _survives(S, x, n):
                    continue
                probes += 1
                S.scratch[0] = <int32_t>(n + x)
                size = propagate(T, S.value, S.watches, S.count, S.trail, S.bits, S.scratch, 1, False)
                if size >= 0:
                    _keep(T, S, x, size)
                    continue
                S.failed[S.failed_count[0]] = <int32_t>(n - x)
                S.failed_count[0] += 1
                if S.failed_count[0] < batch and S.ends[0] < S.ends[1]:
                    continue
            count = S.failed_count[0]
            S.failed_count[0] = 0
            pending = np.empty(count, dtype=np.int32)  # S.failed[:count].copy(): _after adds to S.failed
            pending[:] = S.failed[:count]
            if commit(T, S, pending, count, level) < 0:
                return CONTRADICTION
            if until >= 0 and _decided(T, S, until, n):
                S.failed_count[0] = 0
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
            S.failed_count[0] = 0
            return DONE if not undecided else DECIDED


cdef Py_ssize_t _dilemmas(Tables T, Trials S, Py_ssize_t level, Py_ssize_t n) except -4:
    """native._dilemmas (-4 only when numpy fails)."""
    cdef int8_t[::1] value = S.value
    cdef uint8_t[::1] status = S.status
    cdef uint64_t[:, ::1] answers = S.answers
    cdef Py_ssize_t words = answers.shape[1]
    cdef Py_ssize_t p, w, cell, count, j, x, i, exact_count, first, size, added
    cdef bint anything = False, changed, empty, new
    cdef uint64_t[::1] unknown = np.zeros(words, dtype=np.uint64)
    for p in range(value.shape[0]):
        if value[p] != 1:
            unknown[p >> 6] |= _bit(p)
    cdef uint64_t[::1] found = np.zeros(words, dtype=np.uint64)
    cdef uint64_t[::1] common = np.zeros(words, dtype=np.uint64)
    cdef int32_t[::1] options = np.zeros(T.cover_lits.shape[0], dtype=np.int32)
    cdef int32_t[::1] exact = np.zeros(T.cover_lits.shape[0], dtype=np.int32)
    for cell in range(T.colour_cells.shape[1]):
        if _decided(T, S, cell, n):
            continue
        count = 0
        changed = False
        for j in range(T.cover_start[cell], T.cover_start[cell + 1]):
            x = T.cover_lits[j]
            if value[n + x] == 0:
                options[count] = <int32_t>x
                count += 1
                if S.version[x] > S.cell_tick[cell]:
                    changed = True
        if count < 2:
            continue
        if not changed and S.cell_options[cell] == count:
            continue
        common[:] = unknown
        empty = False
        exact_count = 0
        for i in range(count):
            x = options[i]
            if status[x] == ANSWERED:
                for w in range(words):  # common &= answers[x]
                    common[w] &= answers[x, w]
            else:
                if S.solution[x]:
                    for w in range(words):  # common &= S.solution_bits
                        common[w] &= S.solution_bits[w]
                exact[exact_count] = <int32_t>x
                exact_count += 1
            empty = not _any(common)
            if empty:
                break
        first = 0
        for i in range(exact_count):
            if S.solution[exact[i]]:
                exact[first], exact[i] = exact[i], exact[first]
                first += 1
        for i in range(exact_count):
            if empty:
                break
            x = exact[i]
            S.scratch[0] = <int32_t>(n + x)
            size = propagate(T, value, S.watches, S.count, S.trail, S.bits, S.scratch, 1, False)
            if size < 0:
                return -3
            _keep(T, S, x, size)
            for w in range(words):  # common &= answers[x]
                common[w] &= answers[x, w]
            empty = not _any(common)
        new = False
        for w in range(words):
            if common[w] & ~found[w]:
                new = True
                found[w] |= common[w]
        if not new:
            S.cell_tick[cell] = S.clock[0]
            S.cell_options[cell] = <int32_t>count
            continue
        anything = True
    if not anything:
        return -1
    cdef int32_t[::1] lits = np.zeros(value.shape[0], dtype=np.int32)
    size = 0
    for p in range(value.shape[0]):
        if _has_bit(found, p):
            lits[size] = <int32_t>p
            size += 1
    added = commit(T, S, lits, size, level)
    return -2 if added < 0 else added
