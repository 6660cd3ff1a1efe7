# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Laido sweep's kernels, compiled when placesat is installed (Cython).

The same kernels as :mod:`placesat.laido.sweep_kernels`, which defines them in Python and
explains them: the same names, the same arguments and the same answers, bit for bit
(``tests/test_laido_sweep_kernels.py`` holds the two to it). Read that module first; the
comments here are only for what C needs.

What differs, and why:

* A state is an ``int64_t`` (one word) or a ``Two`` (two words, ``word[0]`` and ``word[1]``:
  the Python's tuple ``state[0]``, ``state[1]``). The kernels that hold states are written
  once over the fused type ``State``; ``if State is Two`` is decided as each version is
  compiled, as numba's ``isinstance(state, tuple)`` was. Python calls the one-word kernels by
  their names (``_successors``) and the two-word ones with ``_wide`` added
  (``_successors_wide``), which take the marks and ``like`` as tuples of two ints.
* A step's bound, four arrays in Python (``tables, lookup, count, constant``), is one
  ``Bound`` of pointers here, made once a call, so that the loops over the states do not pass
  (and count references to) four array views a state.
* Two answers (:func:`_placed`'s state and whether it closes a path) come back through a
  pointer; the two states of a row are compared by :func:`_same` (C has no ``==`` for a
  struct).
* Shifts that may push bits past the sign, and the hash's multiplications, are done on
  ``uint64_t``: C leaves signed overflow undefined, numpy and numba wrap around; a right
  shift of a negative ``int64_t`` copies its sign, as numpy's does.
"""

from libc.stdint cimport int16_t, int64_t, uint64_t

import numpy as np

from . import sweep_frontier as _frontier

# the codes and sizes of sweep_frontier (checked below, when the module is imported)
cdef enum:
    OFF = 0
    DONE = 1
    HALF = 2
    ALONE = 3
    LEFT = 4
    RIGHT = 5
    OPEN = 6  # not a code: the mark of the open piece ends (sweep_kernels.OPEN)
    BITS = 3
    CODE = 7
    WORD = 21
    STONES = 32
    BUCKET = 512
    EMPTY = -1

cdef int64_t ON = (<int64_t>1) << 31
# the lowest bit of every slot of a word, the 63 bits a state uses, the hash's multipliers:
# as in sweep_kernels
cdef int64_t LOWEST_BITS = 0
for _slot in range(WORD):
    LOWEST_BITS |= (<int64_t>1) << (BITS * _slot)
cdef int64_t FULL = <int64_t>(((<uint64_t>1) << (BITS * WORD)) - 1)
cdef uint64_t MIX1 = 0xBF58476D1CE4E5B9ULL
cdef uint64_t MIX2 = 0x94D049BB133111EBULL

if (OFF, DONE, HALF, ALONE, LEFT, RIGHT, BITS, CODE, WORD, STONES, ON) != (
        _frontier.OFF, _frontier.DONE, _frontier.HALF, _frontier.ALONE, _frontier.LEFT, _frontier.RIGHT,
        _frontier.BITS, _frontier.CODE, _frontier.WORD, _frontier.STONES, _frontier.ON):
    raise ImportError("placesat.laido._sweep was built for other codes than sweep_frontier's: reinstall placesat")


ctypedef struct Two:
    int64_t word[2]

ctypedef fused State:
    int64_t
    Two


# --- states: one word or two ----------------------------------------------------------------

cdef inline int64_t _words(State like) noexcept nogil:
    if State is Two:
        return 2
    else:
        return 1


cdef inline State _load(const int64_t *array, int64_t i, State like) noexcept nogil:
    if State is Two:
        like.word[0] = array[2 * i]
        like.word[1] = array[2 * i + 1]
        return like
    else:
        return array[i]


cdef inline void _store(int64_t *array, int64_t i, State state) noexcept nogil:
    if State is Two:
        array[2 * i] = state.word[0]
        array[2 * i + 1] = state.word[1]
    else:
        array[i] = state


cdef inline State _absent(State like) noexcept nogil:
    if State is Two:
        like.word[0] = -1
        like.word[1] = -1
        return like
    else:
        return -1


cdef inline bint _is_absent(State state) noexcept nogil:
    if State is Two:
        return state.word[0] < 0
    else:
        return state < 0


cdef inline bint _same(State a, State b) noexcept nogil:
    """Whether the states ``a`` and ``b`` are equal (Python's ``==``)."""
    if State is Two:
        return a.word[0] == b.word[0] and a.word[1] == b.word[1]
    else:
        return a == b


cdef inline int64_t _code(State state, int64_t slot) noexcept nogil:
    if State is Two:
        return (state.word[slot // WORD] >> (BITS * (slot % WORD))) & CODE
    else:
        return (state >> (BITS * slot)) & CODE


cdef inline int64_t _code_at(State state, int64_t shift) noexcept nogil:
    if State is Two:
        return (state.word[shift // (BITS * WORD)] >> (shift % (BITS * WORD))) & CODE
    else:
        return (state >> shift) & CODE


cdef inline int64_t _put_word(int64_t word, int64_t slot, int64_t code) noexcept nogil:
    cdef int64_t shift = BITS * slot
    return (word & ~((<int64_t>CODE) << shift)) | (code << shift)


cdef inline State _put(State state, int64_t slot, int64_t code) noexcept nogil:
    if State is Two:  # ``state`` is a copy: changed in place
        if slot < WORD:
            state.word[0] = _put_word(state.word[0], slot, code)
        else:
            state.word[1] = _put_word(state.word[1], slot - WORD, code)
        return state
    else:
        return _put_word(state, slot, code)


cdef inline State _pair(State state, int64_t a, int64_t b) noexcept nogil:
    return _put(_put(state, min(a, b), LEFT), max(a, b), RIGHT)


cdef inline int64_t _grown_word(int64_t word, int64_t me) noexcept nogil:
    cdef int64_t low = word & (((<int64_t>1) << (BITS * me)) - 1)
    # the top slot may go past the sign bit: shifted unsigned
    return low | <int64_t>(<uint64_t>(word >> (BITS * me)) << (BITS * (me + 1)))


cdef inline State _grown(State state, int64_t me) noexcept nogil:
    cdef int64_t top
    if State is Two:
        if me < WORD:  # the first word's top slot moves up into the second word
            top = (state.word[0] >> (BITS * (WORD - 1))) & CODE
            state.word[1] = <int64_t>(<uint64_t>state.word[1] << BITS) | top
            state.word[0] = _grown_word(state.word[0], me) & FULL
        else:
            state.word[1] = _grown_word(state.word[1], me - WORD)
        return state
    else:
        return _grown_word(state, me)


cdef inline int64_t _removed_word(int64_t word, int64_t slot) noexcept nogil:
    cdef int64_t low = word & (((<int64_t>1) << (BITS * slot)) - 1)
    return low | ((word >> (BITS * (slot + 1))) << (BITS * slot))


cdef inline State _removed(State state, int64_t slot) noexcept nogil:
    if State is Two:
        if slot < WORD:  # the second word's first slot moves down into the first word
            state.word[0] = _removed_word(state.word[0], slot) | ((state.word[1] & CODE) << (BITS * (WORD - 1)))
            state.word[1] = state.word[1] >> BITS
        else:
            state.word[1] = _removed_word(state.word[1], slot - WORD)
        return state
    else:
        return _removed_word(state, slot)


cdef inline int64_t _marks_word(int64_t word, int64_t which) noexcept nogil:
    if which == DONE:
        return word & ~(word >> 1) & ~(word >> 2) & LOWEST_BITS
    if which == HALF:
        return ~word & (word >> 1) & ~(word >> 2) & LOWEST_BITS
    if which == ALONE:
        return word & (word >> 1) & ~(word >> 2) & LOWEST_BITS
    return ((word >> 2) ^ (word >> 1)) & LOWEST_BITS


cdef inline State _marks(State state, int64_t which) noexcept nogil:
    if State is Two:
        state.word[0] = _marks_word(state.word[0], which)
        state.word[1] = _marks_word(state.word[1], which)
        return state
    else:
        return _marks_word(state, which)


cdef inline State _minus(State state, State marks) noexcept nogil:
    if State is Two:
        state.word[0] -= marks.word[0]
        state.word[1] -= marks.word[1]
        return state
    else:
        return state - marks


cdef inline bint _meets(State a, State b) noexcept nogil:
    if State is Two:
        return (a.word[0] & b.word[0]) | (a.word[1] & b.word[1]) != 0
    else:
        return a & b != 0


cdef inline bint _within(State a, State b) noexcept nogil:
    if State is Two:
        return (a.word[0] & ~b.word[0]) | (a.word[1] & ~b.word[1]) == 0
    else:
        return a & ~b == 0


cdef inline State _differ(State a, State b) noexcept nogil:
    if State is Two:
        a.word[0] ^= b.word[0]
        a.word[1] ^= b.word[1]
        return a
    else:
        return a ^ b


cdef inline int64_t _popcount(int64_t bits) noexcept nogil:
    cdef uint64_t x = <uint64_t>bits  # not negative; the last product wraps, as numba's did
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int64_t>(((x * 0x0101010101010101ULL) >> 56) & 0xFF)


cdef inline int64_t _count(State marks) noexcept nogil:
    if State is Two:
        return _popcount(marks.word[0]) + _popcount(marks.word[1])
    else:
        return _popcount(marks)


cdef inline bint _at_most_one(State marks) noexcept nogil:
    if State is Two:
        return _count(marks) <= 1
    else:
        return marks & (marks - 1) == 0


cdef inline int64_t _mix(int64_t key) noexcept nogil:
    # the products wrap around (unsigned); the shifts copy the sign (signed), as numba's
    cdef int64_t h = <int64_t>(<uint64_t>(key ^ (key >> 30)) * MIX1)
    h = <int64_t>(<uint64_t>(h ^ (h >> 27)) * MIX2)
    return h ^ (h >> 31)


cdef inline int64_t _hash(State state) noexcept nogil:
    if State is Two:
        return _mix(state.word[0] ^ _mix(state.word[1]))
    else:
        return _mix(state)


ctypedef struct Slots:
    # some slots of a frontier (a step's ``earlier`` or ``leave``): passed to the functions
    # below as a pointer and a count, not as an array view (a struct of 200 bytes)
    const int64_t *slot
    Py_ssize_t count


cdef inline Slots _slots(const int64_t[::1] array) noexcept nogil:
    cdef Slots slots
    slots.slot = &array[0]
    slots.count = array.shape[0]
    return slots


cdef inline int64_t _open_end(State state, int64_t slot, int64_t width) noexcept nogil:
    cdef int64_t code = _code(state, slot), step, closing, depth, other, there
    if code == HALF:
        return -1
    if code == ALONE:
        return slot
    # the matching bracket: forwards from a LEFT, backwards from a RIGHT
    if code == LEFT:
        step, closing = 1, RIGHT
    else:
        step, closing = -1, LEFT
    depth = 1
    other = slot + step
    while 0 <= other < width:
        there = _code(state, other)
        if there == code:
            depth += 1
        elif there == closing:
            depth -= 1
            if depth == 0:
                return other
        other += step
    return -1  # unreachable: the brackets always match


cdef inline State _settled(State state, const Slots leave, State leaving, State lonely) noexcept nogil:
    cdef Py_ssize_t k
    if _meets(_marks(state, OPEN), leaving):
        return _absent(state)
    for k in range(leave.count):  # highest first: the lower slots keep their place
        state = _removed(state, leave.slot[k])
    if _meets(_marks(state, ALONE), lonely):
        return _absent(state)
    return state


cdef inline State _placed(State grown, bint edge, int64_t me, int64_t width, const Slots earlier,
                          bint *closes) noexcept nogil:
    """The state and, in ``closes``, whether it closes a whole path (the Python's pair)."""
    cdef State none = _absent(grown), state
    cdef int64_t u = -1, w = -1, count = 0, code, end, end_u, end_w, s
    cdef Py_ssize_t k
    closes[0] = False
    for k in range(earlier.count):
        s = earlier.slot[k]
        code = _code(grown, s)
        if code == DONE:
            return none
        if code != OFF:
            count += 1
            if u < 0:
                u = s
            else:
                w = s
    if count > (1 if edge else 2):
        return none
    if count == 0:
        if not edge:
            return _put(grown, me, ALONE)
        if _at_most_one(_marks(grown, HALF)):  # a new piece from an edge stone: two at most
            return _put(grown, me, HALF)
        return none
    if count == 1:
        end = _open_end(grown, u, width)
        if edge:  # the piece ends here: its other end becomes an edge end
            if end < 0:
                closes[0] = _at_most_one(_marks(grown, OPEN))  # the piece's own end is open
                return none
            if _at_most_one(_marks(grown, HALF)):
                return _put(_put(_put(grown, u, DONE), end, HALF), me, DONE)
            return none
        state = _put(grown, u, DONE)
        if end < 0:
            return _put(state, me, HALF)
        return _pair(state, end, me)
    end_u = _open_end(grown, u, width)
    end_w = _open_end(grown, w, width)
    if end_u < 0 and end_w < 0:
        # two of the open ends are the pieces' own ends
        closes[0] = _count(_marks(grown, OPEN)) <= 2
        return none
    state = _put(_put(_put(grown, u, DONE), w, DONE), me, DONE)
    if end_u < 0 or end_w < 0:
        return _put(state, max(end_u, end_w), HALF)
    if end_u == w and _code(grown, u) >= LEFT:
        return none  # the two ends of one piece: a ring
    return _pair(state, end_u, end_w)


# --- the bound ------------------------------------------------------------------------------

ctypedef struct Bound:
    # a step's bound: the strips' tables, then per way of cutting the strips under way (rows of
    # ``lookup``), how many, and what the others add (placesat.laido.bound.StripBound)
    const int16_t *tables
    const int64_t *lookup
    Py_ssize_t per_cut, per_strip, last  # lookup[cut, s, k] is lookup[cut * per_cut + s * per_strip + k]
    const int64_t *count
    Py_ssize_t cuts
    const int64_t *constant  # constant[cut, e] is constant[3 * cut + e]


cdef Bound _step_bound(const int16_t[::1] tables, const int64_t[:, :, ::1] lookup, const int64_t[::1] count,
                       const int64_t[:, ::1] constant):
    cdef Bound bound
    if constant.shape[1] != 3 or constant.shape[0] != count.shape[0] or lookup.shape[0] != count.shape[0]:
        raise ValueError("a step's bound: lookup, count and constant disagree")
    bound.tables = &tables[0]
    bound.lookup = &lookup[0, 0, 0]
    bound.per_cut = lookup.strides[0] // sizeof(int64_t)
    bound.per_strip = lookup.strides[1] // sizeof(int64_t)
    bound.last = lookup.shape[2] - 1
    bound.count = &count[0]
    bound.cuts = count.shape[0]
    bound.constant = &constant[0, 0]
    return bound


cdef inline int64_t _lookup(const Bound *bound, int64_t cut, int64_t s, int64_t k) noexcept nogil:
    return bound.lookup[cut * bound.per_cut + s * bound.per_strip + k]


cdef inline int64_t _relaxed(int64_t code) noexcept nogil:
    # code if code < LEFT else HALF, without a branch (the compiler made one, which the
    # processor guesses wrong about as often as right: a fifth of _successors' time)
    cdef int64_t open_pair = -(code >> 2)  # every bit set for LEFT and RIGHT (4, 5), else none
    return (code & ~open_pair) | (HALF & open_pair)


cdef inline int64_t _entry(State state, const Bound *bound, int64_t cut, int64_t s) noexcept nogil:
    cdef int64_t key = 0, k
    for k in range(_lookup(bound, cut, s, 1)):
        key |= _relaxed(_code_at(state, _lookup(bound, cut, s, 2 + k))) << (2 * k)
    return _lookup(bound, cut, s, 0) + 3 * key


cdef inline State _strip_marks(const Bound *bound, int64_t cut, int64_t s, State like) noexcept nogil:
    if State is Two:
        like.word[0] = _lookup(bound, cut, s, bound.last - 1)
        like.word[1] = _lookup(bound, cut, s, bound.last)
        return like
    else:
        return _lookup(bound, cut, s, bound.last - 1)


cdef inline int64_t _bound_of(State state, const Bound *bound, int64_t above) noexcept nogil:
    """:func:`_bound` (the Python's ``_bound``, which takes the bound's four arrays)."""
    cdef int64_t ends = 2 - _count(_marks(state, HALF))  # the edge stones the path may still end on
    cdef int64_t least = (<int64_t>1) << 40
    cdef int64_t best0, best1, best2, v0, v1, v2, at, cut, s
    for cut in range(bound.cuts):
        best0, best1, best2 = bound.constant[3 * cut], bound.constant[3 * cut + 1], bound.constant[3 * cut + 2]
        for s in range(bound.count[cut]):
            at = _entry(state, bound, cut, s)
            v0, v1, v2 = bound.tables[at], bound.tables[at + 1], bound.tables[at + 2]
            best0, best1, best2 = best0 + v0, max(best0 + v1, best1 + v0), max(best0 + v2, best1 + v1, best2 + v0)
        least = min(least, best0 if ends == 0 else best1 if ends == 1 else best2)
        if least <= 2 * above + 1:  # the tables count each stone twice: half of it is not above
            break
    return least >> 1 if least >= 0 else -1


cdef inline (int64_t, int64_t) _bounds(State off, State on, const Bound *bound, int64_t above_off,
                                       int64_t above_on) noexcept nogil:
    cdef int64_t ends_off = 2 - _count(_marks(off, HALF))
    cdef int64_t ends_on = 2 - _count(_marks(on, HALF))
    cdef State differ = _differ(off, on)
    # one that is not there is not asked for
    cdef int64_t least_off = ((<int64_t>1) << 40) if not _is_absent(off) else -((<int64_t>1) << 40)
    cdef int64_t least_on = ((<int64_t>1) << 40) if not _is_absent(on) else -((<int64_t>1) << 40)
    cdef int64_t a0, a1, a2, b0, b1, b2, v0 = 0, v1 = 0, v2 = 0, at, cut, s
    cdef bint want_off, want_on, same
    for cut in range(bound.cuts):
        # the tables count each stone twice (:func:`_bound`)
        want_off = least_off > 2 * above_off + 1
        want_on = least_on > 2 * above_on + 1
        if not want_off and not want_on:
            break
        a0, a1, a2 = bound.constant[3 * cut], bound.constant[3 * cut + 1], bound.constant[3 * cut + 2]  # off
        b0, b1, b2 = a0, a1, a2  # on
        for s in range(bound.count[cut]):
            same = want_off and not _meets(differ, _strip_marks(bound, cut, s, off))
            if want_off:
                at = _entry(off, bound, cut, s)
                v0, v1, v2 = bound.tables[at], bound.tables[at + 1], bound.tables[at + 2]
                a0, a1, a2 = a0 + v0, max(a0 + v1, a1 + v0), max(a0 + v2, a1 + v1, a2 + v0)
            if want_on:
                if not same:
                    at = _entry(on, bound, cut, s)
                    v0, v1, v2 = bound.tables[at], bound.tables[at + 1], bound.tables[at + 2]
                b0, b1, b2 = b0 + v0, max(b0 + v1, b1 + v0), max(b0 + v2, b1 + v1, b2 + v0)
        if want_off:
            least_off = min(least_off, a0 if ends_off == 0 else a1 if ends_off == 1 else a2)
        if want_on:
            least_on = min(least_on, b0 if ends_on == 0 else b1 if ends_on == 1 else b2)
    return (least_off >> 1 if least_off >= 0 else -1), (least_on >> 1 if least_on >= 0 else -1)


# --- a step's successors, and each state's promise ----------------------------------------------

cdef int64_t _successors_of(const int64_t[::1] codes, const int64_t[::1] trails, int64_t start, int64_t stop,
                            bint edge, int64_t me, int64_t width, const int64_t[::1] earlier,
                            const int64_t[::1] leave, State leaving, State lonely, int64_t[::1] next_codes,
                            int64_t[::1] next_trails, int64_t made, int64_t[::1] closing,
                            const Bound *bound) noexcept:
    cdef State state, grown, off, on
    cdef int64_t i, stones, rest_off, rest_on
    # closing[0] and closing[1], kept in locals while the states are looked at (the stores in
    # next_codes and next_trails would otherwise make the compiler read them again each time)
    cdef int64_t closing_stones = closing[0], closing_source = closing[1]
    cdef bint closes
    cdef Slots earlier_slots = _slots(earlier), leave_slots = _slots(leave)
    for i in range(start, stop):
        state = _load(&codes[0], i, leaving)
        stones = trails[i] >> STONES
        grown = _grown(state, me)
        off = _settled(grown, leave_slots, leaving, lonely)
        on = _placed(grown, edge, me, width, earlier_slots, &closes)
        if closes and stones + 1 > closing_stones:
            closing_stones = stones + 1
            closing_source = i
        if not _is_absent(on):
            on = _settled(on, leave_slots, leaving, lonely)
        if _is_absent(off) and _is_absent(on):
            continue
        rest_off, rest_on = _bounds(off, on, bound, closing_stones - stones, closing_stones - stones - 1)
        if not _is_absent(off) and stones + rest_off > closing_stones:
            _store(&next_codes[0], made, off)
            next_trails[made] = (stones << STONES) | i
            made += 1
        if not _is_absent(on) and stones + 1 + rest_on > closing_stones:
            _store(&next_codes[0], made, on)
            next_trails[made] = ((stones + 1) << STONES) | ON | i
            made += 1
    closing[0], closing[1] = closing_stones, closing_source
    return made


cdef void _promise_of(const int64_t[::1] codes, const int64_t[::1] trails, const Bound *bound,
                      int64_t[::1] promise, State like) noexcept:
    cdef Py_ssize_t i
    for i in range(trails.shape[0]):
        promise[i] = (trails[i] >> STONES) + _bound_of(_load(&codes[0], i, like), bound, -1)


# --- merging a step's successors ---------------------------------------------------------------

ctypedef struct Rows:
    # a table of rows of ``width`` numbers (the Python's two-dimensional arrays)
    int64_t *at
    Py_ssize_t width


cdef Rows _rows(int64_t[:, ::1] array):
    cdef Rows rows
    rows.at = &array[0, 0]
    rows.width = array.shape[1]
    return rows


cdef inline State _row_state(Rows table, int64_t row, State like) noexcept nogil:
    return _load(table.at + row * table.width, 0, like)


cdef inline void _put_row(Rows table, int64_t row, State state) noexcept nogil:
    _store(table.at + row * table.width, 0, state)


cdef inline int64_t _row_of(Rows table, int64_t rows, State state) noexcept nogil:
    cdef int64_t mask = rows - 1
    cdef int64_t i = _hash(state) & mask
    while table.at[i * table.width] != EMPTY and not _same(_row_state(table, i, state), state):
        i = (i + 1) & mask
    return i


cdef _dealt_of(const int64_t[::1] codes, const int64_t[::1] trails, int64_t[::1] where, int64_t[::1] dealt_codes,
               int64_t[::1] dealt_trails, State like):
    cdef Py_ssize_t n = trails.shape[0], i
    cdef int64_t buckets = 1, b
    cdef State state
    while buckets * BUCKET < n:
        buckets *= 2
    starts_array = np.zeros(buckets + 1, np.int64)
    cdef int64_t[::1] starts = starts_array
    for i in range(n):
        state = _load(&codes[0], i, like)
        b = (_hash(_minus(state, _marks(state, DONE))) >> 40) & (buckets - 1)
        where[i] = b
        starts[b + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    cdef int64_t[::1] filled = starts_array[:buckets].copy()
    for i in range(n):
        b = where[i]
        _store(&dealt_codes[0], filled[b], _load(&codes[0], i, like))
        dealt_trails[filled[b]] = trails[i]
        filled[b] += 1
    return starts_array


cdef int64_t _merged_of(const int64_t[::1] dealt_codes, const int64_t[::1] dealt_trails, const int64_t[::1] starts,
                        int64_t first, int64_t last, int64_t[::1] kept_codes, int64_t[::1] kept_trails, int64_t kept,
                        State like):
    cdef int64_t words = _words(like), largest = 1, rows = 16, size, held, m, c, h, f, stones
    cdef int64_t b, i, j, k
    cdef State state, bits, family
    cdef bint beaten
    for b in range(first, last):
        largest = max(largest, starts[b + 1] - starts[b])
    while rows < 2 * largest:
        rows *= 2
    # (the arrays are held in Python names while their rows are in use)
    table_array = np.empty((rows, words + 1), np.int64)  # per row: the state, its greatest trail
    # per family: the family (the state with no DONE point), its first and last kept
    heads_array = np.empty((rows, words + 2), np.int64)
    cdef Rows table = _rows(table_array), heads = _rows(heads_array)
    cdef int64_t[::1] tally = np.empty(words * WORD + 2, np.int64)  # by DONE points: 0 to the slots of a state
    cdef int64_t[::1] order = np.empty(largest, np.int64)
    # the states of the bucket kept so far: DONE points, stones, the next of their family
    cdef int64_t[::1] kept_done = np.empty(words * largest, np.int64)
    cdef int64_t[::1] kept_stones = np.empty(largest, np.int64)
    cdef int64_t[::1] kept_next = np.empty(largest, np.int64)
    for b in range(first, last):
        size = 16
        while size < 2 * (starts[b + 1] - starts[b]):
            size *= 2
        for j in range(size):
            table.at[j * table.width] = EMPTY
        for i in range(starts[b], starts[b + 1]):
            state = _load(&dealt_codes[0], i, like)
            j = _row_of(table, size, state)
            if table.at[j * table.width] == EMPTY:
                _put_row(table, j, state)
                table.at[j * table.width + words] = dealt_trails[i]
            elif dealt_trails[i] > table.at[j * table.width + words]:
                table.at[j * table.width + words] = dealt_trails[i]
        # the bucket's distinct states, by how many DONE points they have (a counting sort)
        tally[:] = 0
        m = 0
        for j in range(size):
            if table.at[j * table.width] != EMPTY:
                tally[_count(_marks(_row_state(table, j, like), DONE)) + 1] += 1
                m += 1
        for c in range(tally.shape[0] - 1):
            tally[c + 1] += tally[c]
        for j in range(size):
            if table.at[j * table.width] != EMPTY:
                c = _count(_marks(_row_state(table, j, like), DONE))
                order[tally[c]] = j
                tally[c] += 1
        # each family's states kept so far, in a list from the family's row of ``heads``
        for j in range(size):
            heads.at[j * heads.width] = EMPTY
        held = 0
        for k in range(m):
            j = order[k]
            state = _row_state(table, j, like)
            bits = _marks(state, DONE)
            family = _minus(state, bits)
            stones = table.at[j * table.width + words] >> STONES
            f = _row_of(heads, size, family)
            if heads.at[f * heads.width] == EMPTY:
                _put_row(heads, f, family)
                heads.at[f * heads.width + words] = -1
                heads.at[f * heads.width + words + 1] = -1
            h = heads.at[f * heads.width + words]
            beaten = False
            while h >= 0:
                if _within(_load(&kept_done[0], h, like), bits) and kept_stones[h] >= stones:
                    beaten = True
                    break
                h = kept_next[h]
            if not beaten:
                _store(&kept_done[0], held, bits)
                kept_stones[held] = stones
                kept_next[held] = -1
                if heads.at[f * heads.width + words + 1] < 0:
                    heads.at[f * heads.width + words] = held
                else:
                    kept_next[heads.at[f * heads.width + words + 1]] = held
                heads.at[f * heads.width + words + 1] = held
                held += 1
                _store(&kept_codes[0], kept, state)
                kept_trails[kept] = table.at[j * table.width + words]
                kept += 1
    return kept


# --- the strips' tables of the bound ----------------------------------------------------------------

cdef inline int64_t _without(int64_t key, const int64_t[::1] leaving, int64_t gone) noexcept nogil:
    cdef int64_t i, shift
    for i in range(gone):
        shift = 2 * leaving[i]
        key = (key & (((<int64_t>1) << shift) - 1)) | ((key >> (shift + 2)) << shift)
    return key


def _relaxed_table(const int16_t[::1] after, int64_t width, const int64_t[::1] dest, const int64_t[::1] earlier,
                   const int64_t[::1] pair_a, const int64_t[::1] pair_b, exact, bint edge, bint takes_end,
                   int64_t weight, int64_t impossible, int16_t[::1] table):
    """sweep_kernels._relaxed_table (``exact``: numpy booleans, read as bytes)."""
    cdef const unsigned char[::1] exact_ = np.asarray(exact, np.bool_).view(np.uint8)
    cdef int64_t cap = 1 if edge else 2
    if width > 30:
        raise ValueError(f"a strip's frontier of {width} points: its patterns do not fit one word")
    # the slots that leave, highest first, and the upper bit of those that must be met: a
    # code above DONE (2 or 3) has it
    cdef int64_t[::1] leaving = np.empty(width + 1, np.int64)
    cdef int64_t gone = 0, unmet = 0, near = 0, k, x, e, key, off, on, low, high, joined, placed, ends, best, value
    cdef bint bad
    for k in range(width, -1, -1):
        if dest[k] < 0:
            leaving[gone] = k
            gone += 1
            if exact_[k]:
                unmet |= (<int64_t>2) << (2 * k)
    # the lowest bit of each earlier neighbour's slot, and of each pair of them that touch
    for x in range(earlier.shape[0]):
        near |= (<int64_t>1) << (2 * earlier[x])
    cdef int64_t[::1] pairs = np.empty(pair_a.shape[0], np.int64)
    for x in range(pair_a.shape[0]):
        pairs[x] = ((<int64_t>1) << (2 * pair_a[x])) | ((<int64_t>1) << (2 * pair_b[x]))
    for key in range((<int64_t>1) << (2 * width)):
        off = -1 if key & unmet else _without(key, leaving, gone)
        # the earlier neighbours on the path (codes 1 to 3: either bit set), DONE ones (01)
        low, high = key & near, (key >> 1) & near
        joined = low | high
        bad = (low & ~high) != 0 or _popcount(joined) > cap
        for x in range(pairs.shape[0]):
            bad |= joined & pairs[x] == pairs[x]  # a triangle
        on = -1
        if not bad:
            # each takes the point as one more path neighbour: its code one less (none is OFF)
            placed = (key - joined) | ((DONE + cap - _popcount(joined)) << (2 * width))
            if not placed & unmet:
                on = _without(placed, leaving, gone)
        for ends in range(3):
            best = after[3 * off + ends] if off >= 0 else impossible
            if on >= 0 and (ends > 0 or not takes_end):
                value = after[3 * on + (ends - 1 if takes_end else ends)]
                if value != impossible and value + weight > best:
                    best = value + weight
            table[3 * key + ends] = <int16_t>best


# --- what Python calls: one word a state, and two (``_wide``) ---------------------------------------

cdef Two _two(object state) except *:
    """A state of two words from Python's tuple of two ints."""
    cdef Two two
    two.word[0], two.word[1] = state
    return two


def _successors(const int64_t[::1] codes, const int64_t[::1] trails, int64_t start, int64_t stop, bint edge,
                int64_t me, int64_t width, const int64_t[::1] earlier, const int64_t[::1] leave, int64_t leaving,
                int64_t lonely, int64_t[::1] next_codes, int64_t[::1] next_trails, int64_t made,
                int64_t[::1] closing, const int16_t[::1] tables, const int64_t[:, :, ::1] lookup,
                const int64_t[::1] count, const int64_t[:, ::1] constant):
    """sweep_kernels._successors, states of one word."""
    cdef Bound bound = _step_bound(tables, lookup, count, constant)
    return _successors_of(codes, trails, start, stop, edge, me, width, earlier, leave, leaving, lonely,
                          next_codes, next_trails, made, closing, &bound)


def _successors_wide(const int64_t[::1] codes, const int64_t[::1] trails, int64_t start, int64_t stop, bint edge,
                     int64_t me, int64_t width, const int64_t[::1] earlier, const int64_t[::1] leave, leaving,
                     lonely, int64_t[::1] next_codes, int64_t[::1] next_trails, int64_t made,
                     int64_t[::1] closing, const int16_t[::1] tables, const int64_t[:, :, ::1] lookup,
                     const int64_t[::1] count, const int64_t[:, ::1] constant):
    """sweep_kernels._successors, states of two words."""
    cdef Bound bound = _step_bound(tables, lookup, count, constant)
    return _successors_of(codes, trails, start, stop, edge, me, width, earlier, leave, _two(leaving),
                          _two(lonely), next_codes, next_trails, made, closing, &bound)


def _promise(const int64_t[::1] codes, const int64_t[::1] trails, const int16_t[::1] tables,
             const int64_t[:, :, ::1] lookup, const int64_t[::1] count, const int64_t[:, ::1] constant,
             int64_t[::1] promise, int64_t like):
    """sweep_kernels._promise, states of one word."""
    cdef Bound bound = _step_bound(tables, lookup, count, constant)
    _promise_of(codes, trails, &bound, promise, like)


def _promise_wide(const int64_t[::1] codes, const int64_t[::1] trails, const int16_t[::1] tables,
                  const int64_t[:, :, ::1] lookup, const int64_t[::1] count, const int64_t[:, ::1] constant,
                  int64_t[::1] promise, like):
    """sweep_kernels._promise, states of two words."""
    cdef Bound bound = _step_bound(tables, lookup, count, constant)
    _promise_of(codes, trails, &bound, promise, _two(like))


def _bound(int64_t state, const int16_t[::1] tables, const int64_t[:, :, ::1] lookup, const int64_t[::1] count,
           const int64_t[:, ::1] constant, int64_t above):
    """sweep_kernels._bound, a state of one word (for tests)."""
    cdef Bound bound = _step_bound(tables, lookup, count, constant)
    return _bound_of(state, &bound, above)


def _dealt(const int64_t[::1] codes, const int64_t[::1] trails, int64_t[::1] where, int64_t[::1] dealt_codes,
           int64_t[::1] dealt_trails, int64_t like):
    """sweep_kernels._dealt, states of one word."""
    return _dealt_of(codes, trails, where, dealt_codes, dealt_trails, like)


def _dealt_wide(const int64_t[::1] codes, const int64_t[::1] trails, int64_t[::1] where, int64_t[::1] dealt_codes,
                int64_t[::1] dealt_trails, like):
    """sweep_kernels._dealt, states of two words."""
    return _dealt_of(codes, trails, where, dealt_codes, dealt_trails, _two(like))


def _merged(const int64_t[::1] dealt_codes, const int64_t[::1] dealt_trails, const int64_t[::1] starts,
            int64_t first, int64_t last, int64_t[::1] kept_codes, int64_t[::1] kept_trails, int64_t kept,
            int64_t like):
    """sweep_kernels._merged, states of one word."""
    return _merged_of(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept, like)


def _merged_wide(const int64_t[::1] dealt_codes, const int64_t[::1] dealt_trails, const int64_t[::1] starts,
                 int64_t first, int64_t last, int64_t[::1] kept_codes, int64_t[::1] kept_trails, int64_t kept,
                 like):
    """sweep_kernels._merged, states of two words."""
    return _merged_of(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept, _two(like))
