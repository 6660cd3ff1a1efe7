"""The kernels of the sweep (:mod:`placesat.laido.sweep`): their definition, in Python, and
how they are loaded.

The functions marked :func:`placesat.core.compiled.kernel` below are the sweep's inner loops.
They are compiled when placesat is installed, from ``_sweep.pyx`` (Cython: the same functions
under the same names, which Python calls the same way) into ``placesat.laido._sweep``;
:func:`kernels` gives that module, or, on an install without it (no C compiler at install),
these very functions, which give the same answers, bit for bit, far more slowly (the user is
told once). Nothing is compiled at run time. The states, their codes and their trails are
those of :mod:`placesat.laido.sweep_frontier`, the sweep's and the bound's alike; the numbers
are Python's, made to behave as int64 where it matters (:func:`_mix`).
"""

from __future__ import annotations

import numpy as np

from ..core.compiled import kernel, load_kernels
from .sweep_frontier import ALONE, BITS, CODE, DONE, HALF, LEFT, OFF, ON, RIGHT, STONES, WORD


def kernels() -> object:
    """The sweep's kernels: the module compiled at install (``placesat.laido._sweep``), else
    the Python functions of this module (:func:`placesat.core.compiled.load_kernels`). The
    kernels that hold states take states of one int64 word; those for states of two words, a
    tuple of two, have ``_wide`` added to their names."""
    return load_kernels(__name__, "the Laido sweep", "placesat.laido._sweep")


# The kernels: :func:`_successors` works out each state's successors one
# state at a time; :func:`_merged` merges equal ones and drops the dominated ones. A step's
# successors are far too many for a hash table to stay in the processor's cache (a look-up
# there costs a trip to memory, which made a first port no faster than numpy), so they are
# first dealt into buckets by a hash of the state with its DONE points off: a state, every
# state it is merged with and every state it is compared with for dominance are in one
# bucket, small enough for a table that stays in cache.

EMPTY = -1  # states are never negative: the sign bit is spare
# the lowest bit of every slot a word can hold: slots are looked at all at once through it
LOWEST_BITS = sum(1 << (BITS * slot) for slot in range(WORD))
# the 63 bits of a word a state uses (the sign bit spare)
FULL = (1 << (BITS * WORD)) - 1
# not a code: the mark of the open piece ends (HALF, ALONE, LEFT, RIGHT) for :func:`_marks`
OPEN = 6
# the two multipliers of the splitmix64 finaliser (as int64): every bit of a state moves the
# bits that pick its bucket and its row
MIX1 = -4658895280553007687  # 0xBF58476D1CE4E5B9
MIX2 = -7723592293110705685  # 0x94D049BB133111EB
# the states of one bucket, on average: their table (twice as many rows, 16 bytes each, 24
# for states of two words)
# stays in the processor's level-1 cache (256 to 1024 measured the same on mono9; 2048, the
# level-2 cache, 10% slower)
BUCKET = 512

# A state is one int64 word, or a tuple of two for a frontier wider than WIDEST (the
# compiled module has each kernel twice, one for each: the functions below that look at
# ``isinstance(state, tuple)`` are the only ones that know). In arrays, a state of two words
# takes two places one after the other; ``like``, a state of the kind the arrays hold, tells
# a kernel which. A state read from an array becomes a Python int.


@kernel
def _words(like):
    """The int64 words of a state like ``like``: 1 or 2."""
    if isinstance(like, tuple):
        return 2
    return 1


@kernel
def _load(array, i, like):
    """The ``i``-th state of ``array``, of the kind of ``like``."""
    if isinstance(like, tuple):
        return (int(array[2 * i]), int(array[2 * i + 1]))
    return int(array[i])


@kernel
def _store(array, i, state):
    """``state`` put at place ``i`` of ``array``."""
    if isinstance(state, tuple):
        array[2 * i] = state[0]
        array[2 * i + 1] = state[1]
    else:
        array[i] = state


@kernel
def _absent(like):
    """No state (a successor that cannot go on), of the kind of ``like``: -1 in each word."""
    if isinstance(like, tuple):
        return (-1, -1)
    return -1


@kernel
def _is_absent(state):
    """Whether ``state`` is no state (:func:`_absent`)."""
    if isinstance(state, tuple):
        return state[0] < 0
    return state < 0


@kernel
def _code(state, slot):
    """The code of frontier point ``slot`` in ``state``."""
    if isinstance(state, tuple):
        return (state[slot // WORD] >> (BITS * (slot % WORD))) & CODE
    return (state >> (BITS * slot)) & CODE


@kernel
def _code_at(state, shift):
    """The code at bit ``shift`` of ``state`` (the slot's three times: both words read as one
    number of 126 bits)."""
    if isinstance(state, tuple):
        return (state[shift // (BITS * WORD)] >> (shift % (BITS * WORD))) & CODE
    return (state >> shift) & CODE


@kernel
def _put_word(word, slot, code):
    """``word`` with its ``slot`` set to ``code``."""
    shift = BITS * slot
    return (word & ~(CODE << shift)) | (code << shift)


@kernel
def _put(state, slot, code):
    """``state`` with ``slot`` set to ``code``."""
    if isinstance(state, tuple):
        if slot < WORD:
            return (_put_word(state[0], slot, code), state[1])
        return (state[0], _put_word(state[1], slot - WORD, code))
    return _put_word(state, slot, code)


@kernel
def _pair(state, a, b):
    """``state`` with slots ``a`` and ``b`` made the two open ends of one piece."""
    return _put(_put(state, min(a, b), LEFT), max(a, b), RIGHT)


@kernel
def _grown_word(word, me):
    """``word`` with an OFF slot put in at ``me``, the slots from there on one up (the top
    slot goes past the word's 63 bits)."""
    low = word & ((1 << (BITS * me)) - 1)
    return low | ((word >> (BITS * me)) << (BITS * (me + 1)))


@kernel
def _grown(state, me):
    """``state`` with an OFF slot put in at ``me`` for the point visited, the slots from
    there on one up (its top slot is spare)."""
    if isinstance(state, tuple):
        if me < WORD:  # the first word's top slot moves up into the second word
            top = (state[0] >> (BITS * (WORD - 1))) & CODE
            return (_grown_word(state[0], me) & FULL, (state[1] << BITS) | top)
        return (state[0], _grown_word(state[1], me - WORD))
    return _grown_word(state, me)


@kernel
def _removed_word(word, slot):
    """``word`` with ``slot`` taken out, the slots above it one down."""
    low = word & ((1 << (BITS * slot)) - 1)
    return low | ((word >> (BITS * (slot + 1))) << (BITS * slot))


@kernel
def _removed(state, slot):
    """``state`` with ``slot`` taken out, the slots above it one down."""
    if isinstance(state, tuple):
        if slot < WORD:  # the second word's first slot moves down into the first word
            return (_removed_word(state[0], slot) | ((state[1] & CODE) << (BITS * (WORD - 1))), state[1] >> BITS)
        return (state[0], _removed_word(state[1], slot - WORD))
    return _removed_word(state, slot)


@kernel
def _marks_word(word, which):
    """The lowest bit of each slot of ``word`` that holds DONE (001), HALF (010), ALONE (011)
    or, for ``which`` OPEN, an open piece end (HALF, ALONE, LEFT or RIGHT: the codes 2 to 5,
    exactly those whose two upper bits differ), all slots at once."""
    if which == DONE:
        return word & ~(word >> 1) & ~(word >> 2) & LOWEST_BITS
    if which == HALF:
        return ~word & (word >> 1) & ~(word >> 2) & LOWEST_BITS
    if which == ALONE:
        return word & (word >> 1) & ~(word >> 2) & LOWEST_BITS
    return ((word >> 2) ^ (word >> 1)) & LOWEST_BITS


@kernel
def _marks(state, which):
    """:func:`_marks_word` of each word of ``state``: ``_minus(state, _marks(state, DONE))``
    is the state with every DONE point off the path; the pieces open from an edge stone are
    ``_marks(state, HALF)``."""
    if isinstance(state, tuple):
        return (_marks_word(state[0], which), _marks_word(state[1], which))
    return _marks_word(state, which)


@kernel
def _minus(state, marks):
    """``state`` less ``marks`` (some of its slots' lowest bits), word by word."""
    if isinstance(state, tuple):
        return (state[0] - marks[0], state[1] - marks[1])
    return state - marks


@kernel
def _meets(a, b):
    """Whether the marks ``a`` and ``b`` have a bit in common."""
    if isinstance(a, tuple):
        return (a[0] & b[0]) | (a[1] & b[1]) != 0
    return a & b != 0


@kernel
def _within(a, b):
    """Whether every bit of the marks ``a`` is one of ``b``."""
    if isinstance(a, tuple):
        return (a[0] & ~b[0]) | (a[1] & ~b[1]) == 0
    return a & ~b == 0


@kernel
def _differ(a, b):
    """The bits where the states ``a`` and ``b`` differ."""
    if isinstance(a, tuple):
        return (a[0] ^ b[0], a[1] ^ b[1])
    return a ^ b


@kernel
def _popcount(bits):
    """How many bits of ``bits`` (not negative) are set."""
    bits = int(bits)  # a Python int: the last product would overflow a numpy int64 (harmlessly, but noisily)
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@kernel
def _count(marks):
    """How many bits of the marks ``marks`` are set."""
    if isinstance(marks, tuple):
        return _popcount(marks[0]) + _popcount(marks[1])
    return _popcount(marks)


@kernel
def _at_most_one(marks):
    """Whether at most one bit of ``marks`` is set."""
    if isinstance(marks, tuple):
        return _count(marks) <= 1
    return marks & (marks - 1) == 0


@kernel
def _mix(key):
    """A hash of ``key`` whose every bit depends on every bit of the key (splitmix64; each
    product wrapped to int64, as a machine's is)."""
    key = int(key)
    h = _int64((key ^ (key >> 30)) * MIX1)
    h = _int64((h ^ (h >> 27)) * MIX2)
    return h ^ (h >> 31)


def _int64(number):
    """``number`` wrapped to int64 (modulo 2**64, between -2**63 and 2**63 - 1)."""
    return ((number + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


@kernel
def _hash(state):
    """A hash of ``state`` (:func:`_mix` of each word)."""
    if isinstance(state, tuple):
        return _mix(state[0] ^ _mix(state[1]))
    return _mix(state)


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


@kernel
def _settled(state, leave, leaving, lonely):
    """``state`` once the points with no unvisited neighbour left it (the slots ``leave``,
    whose lowest bits are ``leaving``), or -1 when it cannot go on: a leaving point with an
    open end (it needs a neighbour it can no longer get), or a lone stone that cannot get two
    more neighbours (the lowest bits of their slots, once those left, are ``lonely``)."""
    if _meets(_marks(state, OPEN), leaving):
        return _absent(state)
    for s in leave:  # highest first: the lower slots keep their place
        state = _removed(state, s)
    if _meets(_marks(state, ALONE), lonely):
        return _absent(state)
    return state


@kernel
def _placed(grown, edge, me, width, earlier):
    """The visited point put on the path in the state ``grown``: the new state (-1 when it
    cannot go on: :func:`_absent`), and whether it closes a whole path instead (it joins the open ends of two
    pieces from edge stones, or of one, being an edge stone itself, and nothing else is open).

    The point joins every visited neighbour on the path (a path point touching it that were
    not its path neighbour would be a chord), so it cannot go on next to a DONE one, nor next
    to more than two (one for an edge stone)."""
    none = _absent(grown)
    u = w = -1
    count = 0
    for s in earlier:
        code = _code(grown, s)
        if code == DONE:
            return none, False
        if code != OFF:
            count += 1
            if u < 0:
                u = s
            else:
                w = s
    if count > (1 if edge else 2):
        return none, False
    if count == 0:
        if not edge:
            return _put(grown, me, ALONE), False
        if _at_most_one(_marks(grown, HALF)):  # a new piece from an edge stone: two at most
            return _put(grown, me, HALF), False
        return none, False
    if count == 1:
        end = _open_end(grown, u, width)
        if edge:  # the piece ends here: its other end becomes an edge end
            if end < 0:
                return none, _at_most_one(_marks(grown, OPEN))  # the piece's own end is open
            if _at_most_one(_marks(grown, HALF)):
                return _put(_put(_put(grown, u, DONE), end, HALF), me, DONE), False
            return none, False
        state = _put(grown, u, DONE)
        if end < 0:
            return _put(state, me, HALF), False
        return _pair(state, end, me), False
    end_u = _open_end(grown, u, width)
    end_w = _open_end(grown, w, width)
    if end_u < 0 and end_w < 0:
        # two of the open ends are the pieces' own ends
        return none, _count(_marks(grown, OPEN)) <= 2
    state = _put(_put(_put(grown, u, DONE), w, DONE), me, DONE)
    if end_u < 0 or end_w < 0:
        return _put(state, max(end_u, end_w), HALF), False
    if end_u == w and _code(grown, u) >= LEFT:
        return none, False  # the two ends of one piece: a ring
    return _pair(state, end_u, end_w), False


@kernel
def _successors(codes, trails, start, stop, edge, me, width, earlier, leave, leaving, lonely, next_codes, next_trails, made, closing, tables, lookup, count, constant):
    """The successors of states ``start`` to ``stop`` (the visited point off the path, and on
    it where it can go), settled, written from ``made`` on in ``next_codes`` and
    ``next_trails``; ``closing`` keeps the most stones of a whole path closed here and its
    source state (it starts with the longest path already held). A successor goes when its
    stones plus its bound (:func:`_bound`, both successors' at once by :func:`_bounds`, from
    ``tables``, ``lookup``, ``count`` and ``constant``: :class:`placesat.laido.bound.StripBound`
    at this step) do not exceed ``closing[0]``: it cannot beat a path already held (the state
    placing the point is looked at first, so a path it closes counts for both). Returns how
    many successors there are now. The states are of the kind of ``leaving`` and ``lonely``
    (one word or two: :func:`_load`)."""
    for i in range(start, stop):
        state = _load(codes, i, leaving)
        stones = trails[i] >> STONES
        grown = _grown(state, me)
        off = _settled(grown, leave, leaving, lonely)
        on, closes = _placed(grown, edge, me, width, earlier)
        if closes and stones + 1 > closing[0]:
            closing[0] = stones + 1
            closing[1] = i
        if not _is_absent(on):
            on = _settled(on, leave, leaving, lonely)
        if _is_absent(off) and _is_absent(on):
            continue
        rest_off, rest_on = _bounds(off, on, tables, lookup, count, constant, closing[0] - stones, closing[0] - stones - 1)
        if not _is_absent(off) and stones + rest_off > closing[0]:
            _store(next_codes, made, off)
            next_trails[made] = (stones << STONES) | i
            made += 1
        if not _is_absent(on) and stones + 1 + rest_on > closing[0]:
            _store(next_codes, made, on)
            next_trails[made] = ((stones + 1) << STONES) | ON | i
            made += 1
    return made


@kernel
def _promise(codes, trails, tables, lookup, count, constant, promise, like):
    """Each state's stones plus its bound (:func:`_bound`), in ``promise`` (the states of the
    kind of ``like``)."""
    for i in range(len(trails)):
        promise[i] = (trails[i] >> STONES) + _bound(_load(codes, i, like), tables, lookup, count, constant, -1)


@kernel
def _relaxed(code):
    """A sweep code as the bound's: OFF, DONE, one more neighbour wanted (HALF, LEFT, RIGHT:
    2), two (ALONE: 3)."""
    return code if code < LEFT else HALF


@kernel
def _entry(state, lookup, cut, s):
    """Where the entry of ``state`` starts in the table of the ``s``-th strip under way of the
    way of cutting ``cut`` (:class:`placesat.laido.bound.StripBound`): its frontier's codes as
    the bound reads them, two bits each, make the pattern."""
    key = 0
    for k in range(lookup[cut, s, 1]):
        key |= _relaxed(_code_at(state, lookup[cut, s, 2 + k])) << (2 * k)
    return lookup[cut, s, 0] + 3 * key


@kernel
def _strip_marks(lookup, cut, s, like):
    """The bits of the slots of the ``s``-th strip under way of the way of cutting ``cut`` in
    a state like ``like``: the last two numbers of its row of ``lookup``, one for each word."""
    last = lookup.shape[2] - 1
    if isinstance(like, tuple):
        return (lookup[cut, s, last - 1], lookup[cut, s, last])
    return lookup[cut, s, last - 1]


@kernel
def _bound(state, tables, lookup, count, constant, above):
    """The most stones the rest of the group can add to ``state`` by the strips' tables
    (:mod:`placesat.laido.bound`): the least over the ways of cutting the strips, or the first
    that is not above ``above`` (the state is dropped then: no need for the rest); -1 when a
    strip cannot be completed at all. The path has two ends, edge stones: the strips share
    those still free (two less the pieces already open from one), so each strip's value is
    taken for the number of ends it gets and the best split is kept (with the strips whose
    frontier is empty, ``constant``). The tables count each stone twice (a stone on a line two
    strips share, once in each): the bound is half their sum."""
    ends = 2 - _count(_marks(state, HALF))  # the edge stones the path may still end on
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


@kernel
def _bounds(off, on, tables, lookup, count, constant, above_off, above_on):
    """:func:`_bound` of the two successors of one state, ``off`` and ``on`` (:func:`_absent`
    for one that is not there): -1, or a number not above ``above_*``, for one that can be
    dropped. The two differ only in the slots of the point visited and its neighbours (their
    codes as the bound reads them: a piece's far end keeps its code), so a strip that holds
    none of those (its slots' bits, :func:`_strip_marks`, miss every bit where they differ)
    reads the same entry for both: it is read once."""
    ends_off = 2 - _count(_marks(off, HALF))
    ends_on = 2 - _count(_marks(on, HALF))
    differ = _differ(off, on)
    # one that is not there is not asked for
    least_off = np.int64(1) << 40 if not _is_absent(off) else -(np.int64(1) << 40)
    least_on = np.int64(1) << 40 if not _is_absent(on) else -(np.int64(1) << 40)
    for cut in range(len(count)):
        # the tables count each stone twice (:func:`_bound`)
        want_off = least_off > 2 * above_off + 1
        want_on = least_on > 2 * above_on + 1
        if not want_off and not want_on:
            break
        a0, a1, a2 = constant[cut, 0], constant[cut, 1], constant[cut, 2]  # off
        b0, b1, b2 = a0, a1, a2  # on
        for s in range(count[cut]):
            same = want_off and not _meets(differ, _strip_marks(lookup, cut, s, off))
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
    """One backward step of a strip's relaxed pass (:mod:`placesat.laido.bound`): ``table``, for
    each pattern of the ``width`` points of the strip's frontier before its next point (a code
    in two bits each: OFF, DONE, needs one more, needs two) and each number of edge stones the
    path may still end on (0 to 2), is the most the rest of the strip can add (each point put
    on the path adds its ``weight``: two, or one on a line the strip shares with the next; see
    :mod:`placesat.laido.bound`), from ``after``, the table once that point is placed
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


@kernel
def _without(key, leaving, gone):
    """The pattern ``key`` with the two-bit slots ``leaving[:gone]`` (highest first) taken out,
    the slots above each moving down by one."""
    for i in range(gone):
        shift = 2 * leaving[i]
        key = (key & ((1 << shift) - 1)) | ((key >> (shift + 2)) << shift)
    return key


@kernel
def _row_state(table, row, like):
    """The state ``row`` of ``table`` starts with (its first one or two numbers), of the kind
    of ``like``."""
    if isinstance(like, tuple):
        return (int(table[row, 0]), int(table[row, 1]))
    return int(table[row, 0])


@kernel
def _put_row(table, row, state):
    """``state`` put at the start of ``row`` of ``table``."""
    if isinstance(state, tuple):
        table[row, 0] = state[0]
        table[row, 1] = state[1]
    else:
        table[row, 0] = state


@kernel
def _row_of(table, rows, state):
    """The row of ``state`` in the first ``rows`` rows of ``table`` (a power of two; a row
    starts with its state, its first word EMPTY when free), or the empty row where it would
    go."""
    mask = rows - 1
    i = _hash(state) & mask
    while table[i, 0] != EMPTY and _row_state(table, i, state) != state:
        i = (i + 1) & mask
    return i


@kernel
def _dealt(codes, trails, where, dealt_codes, dealt_trails, like):
    """``codes`` and their ``trails`` dealt into ``dealt_codes`` and ``dealt_trails`` by
    bucket, a bucket for each family (the state with every DONE point off), about
    :data:`BUCKET` states a bucket: returns where each bucket starts (and the end). ``where``
    is room to work in; the states are of the kind of ``like``."""
    n = len(trails)
    buckets = 1
    while buckets * BUCKET < n:
        buckets *= 2
    starts = np.zeros(buckets + 1, np.int64)
    for i in range(n):
        state = _load(codes, i, like)
        b = (_hash(_minus(state, _marks(state, DONE))) >> 40) & (buckets - 1)
        where[i] = b
        starts[b + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    filled = starts[:-1].copy()
    for i in range(n):
        b = where[i]
        _store(dealt_codes, filled[b], _load(codes, i, like))
        dealt_trails[filled[b]] = trails[i]
        filled[b] += 1
    return starts


@kernel
def _merged(dealt_codes, dealt_trails, starts, first, last, kept_codes, kept_trails, kept, like):
    """The states to keep of buckets ``first`` to ``last`` (:func:`_dealt`), written in
    ``kept_codes`` and ``kept_trails`` from ``kept`` on; returns how many there are now (the
    states of the kind of ``like``). Of equal states the one with most stones stays (the
    stones lead a trail: the greatest trail), and none that gives way to another.

    A state gives way to the same state with some of its DONE points off the path (any of
    them) that has as many stones: whatever completes the first completes the second the same
    way (no later neighbour of a DONE point is on the path, and an OFF point asks nothing), so
    the first can never do better. States that agree but for their DONE points are a
    *family* (one bucket holds the whole family); a state's DONE points (its marks of DONE,
    :func:`_marks`) include those of every state it can give way to, which therefore has
    fewer, so each family is checked in that order (fewer DONE points first) against the
    states of it already kept. (On the 9-side board all Black, seven in ten states of the
    widest step are kept when only single points and all DONE points at once are turned off,
    a little over half with any of them.)"""
    words = _words(like)
    largest = 1
    for b in range(first, last):
        largest = max(largest, starts[b + 1] - starts[b])
    rows = 16
    while rows < 2 * largest:
        rows *= 2
    table = np.empty((rows, words + 1), np.int64)  # per row: the state, its greatest trail
    # per family: the family (the state with no DONE point), its first and last kept
    heads = np.empty((rows, words + 2), np.int64)
    tally = np.empty(words * WORD + 2, np.int64)  # by DONE points: 0 to the slots of a state
    order = np.empty(largest, np.int64)
    # the states of the bucket kept so far: DONE points, stones, the next of their family
    kept_done = np.empty(words * largest, np.int64)
    kept_stones = np.empty(largest, np.int64)
    kept_next = np.empty(largest, np.int64)
    for b in range(first, last):
        size = 16
        while size < 2 * (starts[b + 1] - starts[b]):
            size *= 2
        table[:size, 0] = EMPTY
        for i in range(starts[b], starts[b + 1]):
            state = _load(dealt_codes, i, like)
            j = _row_of(table, size, state)
            if table[j, 0] == EMPTY:
                _put_row(table, j, state)
                table[j, words] = dealt_trails[i]
            elif dealt_trails[i] > table[j, words]:
                table[j, words] = dealt_trails[i]
        # the bucket's distinct states, by how many DONE points they have (a counting sort)
        tally[:] = 0
        m = 0
        for j in range(size):
            if table[j, 0] != EMPTY:
                tally[_count(_marks(_row_state(table, j, like), DONE)) + 1] += 1
                m += 1
        for c in range(len(tally) - 1):
            tally[c + 1] += tally[c]
        for j in range(size):
            if table[j, 0] != EMPTY:
                c = _count(_marks(_row_state(table, j, like), DONE))
                order[tally[c]] = j
                tally[c] += 1
        # each family's states kept so far, in a list from the family's row of ``heads``
        heads[:size, 0] = EMPTY
        held = 0
        for k in range(m):
            j = order[k]
            state = _row_state(table, j, like)
            bits = _marks(state, DONE)
            family = _minus(state, bits)
            stones = table[j, words] >> STONES
            f = _row_of(heads, size, family)
            if heads[f, 0] == EMPTY:
                _put_row(heads, f, family)
                heads[f, words] = -1
                heads[f, words + 1] = -1
            h = heads[f, words]
            beaten = False
            while h >= 0:
                if _within(_load(kept_done, h, like), bits) and kept_stones[h] >= stones:
                    beaten = True
                    break
                h = kept_next[h]
            if not beaten:
                _store(kept_done, held, bits)
                kept_stones[held] = stones
                kept_next[held] = -1
                if heads[f, words + 1] < 0:
                    heads[f, words] = held
                else:
                    kept_next[heads[f, words + 1]] = held
                heads[f, words + 1] = held
                held += 1
                _store(kept_codes, kept, state)
                kept_trails[kept] = table[j, words]
                kept += 1
    return kept


# the same kernels for states of two words (under these names in the compiled module too)
_successors_wide, _promise_wide, _dealt_wide, _merged_wide = _successors, _promise, _dealt, _merged
