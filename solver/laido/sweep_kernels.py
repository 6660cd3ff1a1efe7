"""The compiled kernels of the sweep (:mod:`solver.laido.sweep`), and how they are loaded.

They are written for numba and compiled once per machine and source (:func:`kernels`,
:mod:`solver.core.compiled`): ahead of time into a plain extension module (numba.pycc, about
ten seconds the first time), which later processes import in a millisecond without importing
numba at all; or, when that cannot be built (no C compiler), by numba's JIT with its cache in
``__pycache__`` (then about 0.9 s a process: numba's import and its loading of the cache).
Nothing here imports numba or the compiled module until a sweep runs, so a score whose groups
all go to the solver does not pay for them. The states, their codes and their trails are those
of :mod:`solver.laido.sweep`.
"""

from __future__ import annotations

import numpy as np

from ..core.compiled import kernel, load_kernels
from ..core.limits import Deadline
from .sweep import ALONE, BITS, CODE, DONE, HALF, LEFT, OFF, ON, RIGHT, STONES, WIDEST


def kernels(mode: str | None = None, deadline: Deadline | None = None) -> object:
    """The compiled kernels below (:func:`solver.core.compiled.load_kernels`): built ahead of
    time into an extension module once per machine and source, or numba's JIT when that cannot
    be done (``mode``: "ahead" or "jit"; default: the process's, ``$PLACESAT_KERNELS``);
    :class:`~solver.core.limits.TimeUp` when ``deadline`` comes during the build."""
    return load_kernels(__name__, "the Laido sweep", _signatures, mode, deadline)


def _signatures() -> dict:
    """The kernels Python calls, with the types :mod:`solver.laido.sweep` and
    :mod:`solver.laido.bound` pass them. The compiled module takes exactly these types (the JIT
    would compile again for others): every array is C-contiguous, the states and trails int64,
    the strips' tables int16."""
    from numba import types

    int64, boolean = types.int64, types.boolean
    vector, table = types.int64[::1], types.int16[::1]
    # a step's bound: the strips' tables, then per cut the strips under way, how many, and what
    # the others add (solver.laido.bound.StripBound, one step of it)
    bound = (table, types.int64[:, :, ::1], vector, types.int64[:, ::1])
    return {
        "_successors": int64(vector, vector, int64, int64, boolean, int64, int64, vector, vector, int64, int64,
                             vector, vector, int64, vector, *bound),
        "_promise": types.none(vector, vector, *bound, vector),
        "_bound": int64(int64, *bound, int64),
        "_relaxed_table": types.none(table, int64, vector, vector, vector, vector, types.boolean[::1], boolean,
                                     boolean, int64, int64, table),
        "_dealt": vector(vector, vector, vector, vector, vector),
        "_merged": int64(vector, vector, vector, int64, int64, vector, vector, int64),
    }


# The compiled kernels (numba): :func:`_successors` works out each state's successors one
# state at a time; :func:`_merged` merges equal ones and drops the dominated ones. A step's
# successors are far too many for a hash table to stay in the processor's cache (a look-up
# there costs a trip to memory, which made a first port no faster than numpy), so they are
# first dealt into buckets by a hash of the state with its DONE points off: a state, every
# state it is merged with and every state it is compared with for dominance are in one
# bucket, small enough for a table that stays in cache.

EMPTY = -1  # states are never negative: the sign bit is spare
# the lowest bit of every slot a state can hold: slots are looked at all at once through it
LOWEST_BITS = sum(1 << (BITS * slot) for slot in range(WIDEST + 1))
# the two multipliers of the splitmix64 finaliser (as int64): every bit of a state moves the
# bits that pick its bucket and its row
MIX1 = -4658895280553007687  # 0xBF58476D1CE4E5B9
MIX2 = -7723592293110705685  # 0x94D049BB133111EB
# the states of one bucket, on average: their table (twice as many rows, 16 bytes each)
# stays in the processor's level-1 cache (256 to 1024 measured the same on mono9; 2048, the
# level-2 cache, 10% slower)
BUCKET = 512


@kernel(inline="always")
def _code(state, slot):
    """The code of frontier point ``slot`` in ``state``."""
    return (state >> (BITS * slot)) & CODE


@kernel(inline="always")
def _put(state, slot, code):
    """``state`` with ``slot`` set to ``code``."""
    shift = BITS * slot
    return (state & ~(np.int64(CODE) << shift)) | (np.int64(code) << shift)


@kernel(inline="always")
def _pair(state, a, b):
    """``state`` with slots ``a`` and ``b`` made the two open ends of one piece."""
    return _put(_put(state, min(a, b), LEFT), max(a, b), RIGHT)


@kernel(inline="always")
def _done_bits(state):
    """The lowest bit of each slot of ``state`` that holds DONE (001), all slots at once:
    ``state - _done_bits(state)`` is the state with every DONE point off the path."""
    return state & ~(state >> 1) & ~(state >> 2) & LOWEST_BITS


@kernel(inline="always")
def _popcount(bits):
    """How many bits of ``bits`` (not negative) are set."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@kernel(inline="always")
def _mix(key):
    """A hash of ``key`` whose every bit depends on every bit of the key (splitmix64)."""
    h = (key ^ (key >> 30)) * MIX1
    h = (h ^ (h >> 27)) * MIX2
    return h ^ (h >> 31)


@kernel(inline="always")
def _halves(state):
    """The lowest bit of each slot of ``state`` that holds HALF (010): the pieces open from an
    edge stone."""
    return ~state & (state >> 1) & ~(state >> 2) & LOWEST_BITS


@kernel(inline="always")
def _open_ends(state):
    """The lowest bit of each slot of ``state`` with an open piece end (HALF, ALONE, LEFT or
    RIGHT: the codes 2 to 5, exactly those whose two upper bits differ)."""
    return ((state >> 2) ^ (state >> 1)) & LOWEST_BITS


@kernel(inline="always")
def _at_most_one(bits):
    """Whether at most one bit of ``bits`` is set."""
    return bits & (bits - 1) == 0


@kernel
def _open_end(state, slot, width):
    """For a path point at ``slot`` that gains a path neighbour: where the piece it ends now
    ends on the other side. -1 for a piece from an edge stone (HALF), the slot itself for a
    lone stone, the matching bracket for LEFT and RIGHT."""
    code = _code(state, slot)
    if code == HALF:
        return -1
    if code == ALONE:
        return slot
    # the matching bracket: forwards from a LEFT, backwards from a RIGHT
    step, closing = (1, RIGHT) if code == LEFT else (-1, LEFT)
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


@kernel(inline="always")
def _settled(state, leave, leaving, lonely):
    """``state`` once the points with no unvisited neighbour left it (the slots ``leave``,
    whose lowest bits are ``leaving``), or -1 when it cannot go on: a leaving point with an
    open end (it needs a neighbour it can no longer get), or a lone stone that cannot get two
    more neighbours (the lowest bits of their slots, once those left, are ``lonely``)."""
    if ((state >> 1) | (state >> 2)) & leaving:  # a code above DONE
        return -1
    for s in leave:  # highest first: the lower slots keep their place
        low = state & ((np.int64(1) << (BITS * s)) - 1)
        state = low | ((state >> (BITS * (s + 1))) << (BITS * s))
    if state & (state >> 1) & ~(state >> 2) & lonely:  # ALONE, 011
        return -1
    return state


@kernel
def _placed(grown, edge, me, width, earlier):
    """The visited point put on the path in the state ``grown``: the new state (-1 when it
    cannot go on), and whether it closes a whole path instead (it joins the open ends of two
    pieces from edge stones, or of one, being an edge stone itself, and nothing else is open).

    The point joins every visited neighbour on the path (a path point touching it that were
    not its path neighbour would be a chord), so it cannot go on next to a DONE one, nor next
    to more than two (one for an edge stone)."""
    u = w = -1
    count = 0
    for s in earlier:
        code = _code(grown, s)
        if code == DONE:
            return -1, False
        if code != OFF:
            count += 1
            if u < 0:
                u = s
            else:
                w = s
    if count > (1 if edge else 2):
        return -1, False
    if count == 0:
        if not edge:
            return _put(grown, me, ALONE), False
        if _at_most_one(_halves(grown)):  # a new piece from an edge stone: two at most
            return _put(grown, me, HALF), False
        return -1, False
    if count == 1:
        end = _open_end(grown, u, width)
        if edge:  # the piece ends here: its other end becomes an edge end
            if end < 0:
                return -1, _at_most_one(_open_ends(grown))  # the piece's own end is open
            if _at_most_one(_halves(grown)):
                return _put(_put(_put(grown, u, DONE), end, HALF), me, DONE), False
            return -1, False
        state = _put(grown, u, DONE)
        if end < 0:
            return _put(state, me, HALF), False
        return _pair(state, end, me), False
    end_u = _open_end(grown, u, width)
    end_w = _open_end(grown, w, width)
    if end_u < 0 and end_w < 0:
        ends = _open_ends(grown)  # two of them are the pieces' own ends
        return -1, _at_most_one(ends & (ends - 1))
    state = _put(_put(_put(grown, u, DONE), w, DONE), me, DONE)
    if end_u < 0 or end_w < 0:
        return _put(state, max(end_u, end_w), HALF), False
    if end_u == w and _code(grown, u) >= LEFT:
        return -1, False  # the two ends of one piece: a ring
    return _pair(state, end_u, end_w), False


@kernel
def _successors(codes, trails, start, stop, edge, me, width, earlier, leave, leaving, lonely, next_codes, next_trails, made, closing, tables, lookup, count, constant):
    """The successors of states ``start`` to ``stop`` (the visited point off the path, and on
    it where it can go), settled, written from ``made`` on in ``next_codes`` and
    ``next_trails``; ``closing`` keeps the most stones of a whole path closed here and its
    source state (it starts with the longest path already held). A successor goes when its
    stones plus its bound (:func:`_bound`, both successors' at once by :func:`_bounds`, from
    ``tables``, ``lookup``, ``count`` and ``constant``: :class:`solver.laido.bound.StripBound`
    at this step) do not exceed ``closing[0]``: it cannot beat a path already held (the state
    placing the point is looked at first, so a path it closes counts for both). Returns how
    many successors there are now."""
    low_mask = (np.int64(1) << (BITS * me)) - 1
    for i in range(start, stop):
        state = codes[i]
        stones = trails[i] >> STONES
        grown = (state & low_mask) | ((state >> (BITS * me)) << (BITS * (me + 1)))
        off = _settled(grown, leave, leaving, lonely)
        on, closes = _placed(grown, edge, me, width, earlier)
        if closes and stones + 1 > closing[0]:
            closing[0] = stones + 1
            closing[1] = i
        if on >= 0:
            on = _settled(on, leave, leaving, lonely)
        if off < 0 and on < 0:
            continue
        rest_off, rest_on = _bounds(off, on, tables, lookup, count, constant, closing[0] - stones, closing[0] - stones - 1)
        if off >= 0 and stones + rest_off > closing[0]:
            next_codes[made] = off
            next_trails[made] = (stones << STONES) | i
            made += 1
        if on >= 0 and stones + 1 + rest_on > closing[0]:
            next_codes[made] = on
            next_trails[made] = ((stones + 1) << STONES) | ON | i
            made += 1
    return made


@kernel
def _promise(codes, trails, tables, lookup, count, constant, promise):
    """Each state's stones plus its bound (:func:`_bound`), in ``promise``."""
    for i in range(len(codes)):
        promise[i] = (trails[i] >> STONES) + _bound(codes[i], tables, lookup, count, constant, -1)


@kernel(inline="always")
def _relaxed(code):
    """A sweep code as the bound's: OFF, DONE, one more neighbour wanted (HALF, LEFT, RIGHT:
    2), two (ALONE: 3)."""
    return code if code < LEFT else HALF


@kernel(inline="always")
def _entry(state, lookup, cut, s):
    """Where the entry of ``state`` starts in the table of the ``s``-th strip under way of the
    way of cutting ``cut`` (:class:`solver.laido.bound.StripBound`): its frontier's codes as
    the bound reads them, two bits each, make the pattern."""
    key = 0
    for k in range(lookup[cut, s, 1]):
        key |= _relaxed((state >> lookup[cut, s, 2 + k]) & CODE) << (2 * k)
    return lookup[cut, s, 0] + 3 * key


@kernel(inline="always")
def _bound(state, tables, lookup, count, constant, above):
    """The most stones the rest of the group can add to ``state`` by the strips' tables
    (:mod:`solver.laido.bound`): the least over the ways of cutting the strips, or the first
    that is not above ``above`` (the state is dropped then: no need for the rest); -1 when a
    strip cannot be completed at all. The path has two ends, edge stones: the strips share
    those still free (two less the pieces already open from one), so each strip's value is
    taken for the number of ends it gets and the best split is kept (with the strips whose
    frontier is empty, ``constant``). The tables count each stone twice (a stone on a line two
    strips share, once in each): the bound is half their sum."""
    ends = 2 - _popcount(_halves(state))  # the edge stones the path may still end on
    least = np.int64(1) << 40
    for cut in range(len(count)):
        best0, best1, best2 = constant[cut, 0], constant[cut, 1], constant[cut, 2]
        for s in range(count[cut]):
            at = _entry(state, lookup, cut, s)
            v0, v1, v2 = np.int64(tables[at]), np.int64(tables[at + 1]), np.int64(tables[at + 2])
            best0, best1, best2 = best0 + v0, max(best0 + v1, best1 + v0), max(best0 + v2, best1 + v1, best2 + v0)
        least = min(least, best0 if ends == 0 else best1 if ends == 1 else best2)
        if least <= 2 * above + 1:  # the tables count each stone twice: half of it is not above
            break
    return least >> 1 if least >= 0 else -1


@kernel(inline="always")
def _bounds(off, on, tables, lookup, count, constant, above_off, above_on):
    """:func:`_bound` of the two successors of one state, ``off`` and ``on`` (-1 for one that
    is not there): -1, or a number not above ``above_*``, for one that can be dropped. The two
    differ only in the slots of the point visited and its neighbours (their codes as the
    bound reads them: a piece's far end keeps its code), so a strip that holds none of those
    (its slots' bits, ``lookup[cut, s, -1]``, miss every bit where they differ) reads the
    same entry for both: it is read once."""
    ends_off = 2 - _popcount(_halves(off))
    ends_on = 2 - _popcount(_halves(on))
    differ = off ^ on
    mask_at = lookup.shape[2] - 1
    # one that is not there is not asked for
    least_off = np.int64(1) << 40 if off >= 0 else -(np.int64(1) << 40)
    least_on = np.int64(1) << 40 if on >= 0 else -(np.int64(1) << 40)
    for cut in range(len(count)):
        # the tables count each stone twice (:func:`_bound`)
        want_off = least_off > 2 * above_off + 1
        want_on = least_on > 2 * above_on + 1
        if not want_off and not want_on:
            break
        a0, a1, a2 = constant[cut, 0], constant[cut, 1], constant[cut, 2]  # off
        b0, b1, b2 = a0, a1, a2  # on
        for s in range(count[cut]):
            same = want_off and (differ & lookup[cut, s, mask_at]) == 0
            if want_off:
                at = _entry(off, lookup, cut, s)
                v0, v1, v2 = np.int64(tables[at]), np.int64(tables[at + 1]), np.int64(tables[at + 2])
                a0, a1, a2 = a0 + v0, max(a0 + v1, a1 + v0), max(a0 + v2, a1 + v1, a2 + v0)
            if want_on:
                if not same:
                    at = _entry(on, lookup, cut, s)
                    v0, v1, v2 = np.int64(tables[at]), np.int64(tables[at + 1]), np.int64(tables[at + 2])
                b0, b1, b2 = b0 + v0, max(b0 + v1, b1 + v0), max(b0 + v2, b1 + v1, b2 + v0)
        if want_off:
            least_off = min(least_off, a0 if ends_off == 0 else a1 if ends_off == 1 else a2)
        if want_on:
            least_on = min(least_on, b0 if ends_on == 0 else b1 if ends_on == 1 else b2)
    return (least_off >> 1 if least_off >= 0 else -1), (least_on >> 1 if least_on >= 0 else -1)


@kernel
def _relaxed_table(after, width, dest, earlier, pair_a, pair_b, exact, edge, takes_end, weight, impossible, table):
    """One backward step of a strip's relaxed pass (:mod:`solver.laido.bound`): ``table``, for
    each pattern of the ``width`` points of the strip's frontier before its next point (a code
    in two bits each: OFF, DONE, needs one more, needs two) and each number of edge stones the
    path may still end on (0 to 2), is the most the rest of the strip can add (each point put
    on the path adds its ``weight``: two, or one on a line the strip shares with the next; see
    :mod:`solver.laido.bound`), from ``after``, the table once that point is placed
    (``impossible`` where the rules cannot be met). Both tables hold the three numbers of ends
    side by side, at ``3 * pattern + ends``: a state's bound reads all three at once, from one
    cache line.

    The point joins the frontier last (slot ``width``); ``dest`` is where each slot goes
    after it (-1: it leaves, with no later neighbour in the strip; the others keep their
    order, so the pattern after is the pattern with the leaving slots taken out), ``earlier``
    the slots of its neighbours, ``pair_a``/``pair_b`` those of them that touch each other,
    ``exact`` the slots of points with no neighbour outside the strip, whose needs must be met
    in it. On the path, the point takes each earlier neighbour on the path as a path
    neighbour: none may be DONE, at most two (one for an edge stone, ``edge``), no two
    touching (a triangle); its need is what is left. An edge stone on the path takes one of
    the ends when ``takes_end`` (an edge stone on a shared line takes it in one of its two
    strips only).

    The patterns are worked on whole, two bits a slot (a few operations each, not a loop over
    the slots: a strip's tables hold up to 65,536 patterns a step)."""
    cap = 1 if edge else 2
    # the slots that leave, highest first, and the upper bit of those that must be met: a
    # code above DONE (2 or 3) has it
    leaving = np.empty(width + 1, np.int64)
    gone = 0
    unmet = np.int64(0)
    for k in range(width, -1, -1):
        if dest[k] < 0:
            leaving[gone] = k
            gone += 1
            if exact[k]:
                unmet |= np.int64(2) << (2 * k)
    # the lowest bit of each earlier neighbour's slot, and of each pair of them that touch
    near = np.int64(0)
    for e in earlier:
        near |= np.int64(1) << (2 * e)
    pairs = np.empty(len(pair_a), np.int64)
    for x in range(len(pair_a)):
        pairs[x] = (np.int64(1) << (2 * pair_a[x])) | (np.int64(1) << (2 * pair_b[x]))
    for key in range(1 << (2 * width)):
        off = -1 if key & unmet else _without(key, leaving, gone)
        # the earlier neighbours on the path (codes 1 to 3: either bit set), DONE ones (01)
        low, high = key & near, (key >> 1) & near
        joined = low | high
        bad = (low & ~high) != 0 or _popcount(joined) > cap
        for x in range(len(pairs)):
            bad |= joined & pairs[x] == pairs[x]  # a triangle
        on = -1
        if not bad:
            # each takes the point as one more path neighbour: its code one less (none is OFF)
            placed = (key - joined) | (np.int64(DONE + cap) - _popcount(joined)) << (2 * width)
            if not placed & unmet:
                on = _without(placed, leaving, gone)
        for ends in range(3):
            best = after[3 * off + ends] if off >= 0 else impossible
            if on >= 0 and (ends > 0 or not takes_end):
                value = after[3 * on + (ends - 1 if takes_end else ends)]
                if value != impossible and value + weight > best:
                    best = value + weight
            table[3 * key + ends] = best


@kernel(inline="always")
def _without(key, leaving, gone):
    """The pattern ``key`` with the two-bit slots ``leaving[:gone]`` (highest first) taken out,
    the slots above each moving down by one."""
    for i in range(gone):
        shift = 2 * leaving[i]
        key = (key & ((np.int64(1) << shift) - 1)) | ((key >> (shift + 2)) << shift)
    return key


@kernel
def _row_of(table, rows, state):
    """The row of ``state`` in the first ``rows`` rows of ``table`` (a power of two), or the
    empty row where it would go."""
    mask = rows - 1
    i = _mix(state) & mask
    while table[i, 0] != EMPTY and table[i, 0] != state:
        i = (i + 1) & mask
    return i


@kernel
def _dealt(codes, trails, where, dealt_codes, dealt_trails):
    """``codes`` and their ``trails`` dealt into ``dealt_codes`` and ``dealt_trails`` by
    bucket, a bucket for each family (the state with every DONE point off), about
    :data:`BUCKET` states a bucket: returns where each bucket starts (and the end). ``where``
    is room to work in."""
    n = len(codes)
    buckets = 1
    while buckets * BUCKET < n:
        buckets *= 2
    starts = np.zeros(buckets + 1, np.int64)
    for i in range(n):
        state = codes[i]
        b = (_mix(state - _done_bits(state)) >> 40) & (buckets - 1)
        where[i] = b
        starts[b + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    filled = starts[:-1].copy()
    for i in range(n):
        b = where[i]
        dealt_codes[filled[b]] = codes[i]
        dealt_trails[filled[b]] = trails[i]
        filled[b] += 1
    return starts


@kernel
def _merged(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept):
    """The states to keep of buckets ``first`` to ``last`` (:func:`_dealt`), written in
    ``kept_codes`` and ``kept_trails`` from ``kept`` on; returns how many there are now. Of
    equal states the one with most stones stays (the stones lead a trail: the greatest trail),
    and none that gives way to another.

    A state gives way to the same state with some of its DONE points off the path (any of
    them) that has as many stones: whatever completes the first completes the second the same
    way (no later neighbour of a DONE point is on the path, and an OFF point asks nothing), so
    the first can never do better. States that agree but for their DONE points are a
    *family* (one bucket holds the whole family); a state's DONE points (its bits of
    :func:`_done_bits`) include those of every state it can give way to, which therefore has
    fewer, so each family is checked in that order (fewer DONE points first) against the
    states of it already kept. (On the 9-side board all Black, seven in ten states of the
    widest step are kept when only single points and all DONE points at once are turned off,
    a little over half with any of them.)"""
    largest = 1
    for b in range(first, last):
        largest = max(largest, starts[b + 1] - starts[b])
    rows = 16
    while rows < 2 * largest:
        rows *= 2
    table = np.empty((rows, 2), np.int64)
    heads = np.empty((rows, 3), np.int64)  # per family: the family, its first and last kept
    tally = np.empty(WIDEST + 2, np.int64)
    order = np.empty(largest, np.int64)
    # the states of the bucket kept so far: DONE points, stones, the next of their family
    kept_done = np.empty(largest, np.int64)
    kept_stones = np.empty(largest, np.int64)
    kept_next = np.empty(largest, np.int64)
    for b in range(first, last):
        size = 16
        while size < 2 * (starts[b + 1] - starts[b]):
            size *= 2
        table[:size, 0] = EMPTY
        for i in range(starts[b], starts[b + 1]):
            j = _row_of(table, size, dealt_codes[i])
            if table[j, 0] == EMPTY:
                table[j, 0] = dealt_codes[i]
                table[j, 1] = dealt_trails[i]
            elif dealt_trails[i] > table[j, 1]:
                table[j, 1] = dealt_trails[i]
        # the bucket's distinct states, by how many DONE points they have (a counting sort)
        tally[:] = 0
        m = 0
        for j in range(size):
            if table[j, 0] != EMPTY:
                tally[_popcount(_done_bits(table[j, 0])) + 1] += 1
                m += 1
        for c in range(WIDEST + 1):
            tally[c + 1] += tally[c]
        for j in range(size):
            if table[j, 0] != EMPTY:
                c = _popcount(_done_bits(table[j, 0]))
                order[tally[c]] = j
                tally[c] += 1
        # each family's states kept so far, in a list from the family's row of ``heads``
        # (keyed by the family, the state with no DONE point)
        heads[:size, 0] = EMPTY
        held = 0
        for k in range(m):
            j = order[k]
            state = table[j, 0]
            bits = _done_bits(state)
            family = state - bits
            stones = table[j, 1] >> STONES
            f = _row_of(heads, size, family)
            if heads[f, 0] == EMPTY:
                heads[f, 0] = family
                heads[f, 1] = -1
                heads[f, 2] = -1
            h = heads[f, 1]
            beaten = False
            while h >= 0:
                if kept_done[h] & ~bits == 0 and kept_stones[h] >= stones:
                    beaten = True
                    break
                h = kept_next[h]
            if not beaten:
                kept_done[held] = bits
                kept_stones[held] = stones
                kept_next[held] = -1
                if heads[f, 2] < 0:
                    heads[f, 1] = held
                else:
                    kept_next[heads[f, 2]] = held
                heads[f, 2] = held
                held += 1
                kept_codes[kept] = state
                kept_trails[kept] = table[j, 1]
                kept += 1
    return kept
