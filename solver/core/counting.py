"""Unary counters written as plain clauses into a :class:`Formula`.

:meth:`Formula.add_count` states one fixed bound. When an encoder needs many "at least k"
facts about the same sum (for several thresholds k), a shared counter is much smaller on the
SAT side than one cardinality constraint per threshold.
"""

from __future__ import annotations

from typing import Sequence

from .backend import Formula
from .limits import Deadline


def at_least_outputs(formula: Formula, lits: Sequence[int], upto: int, deadline: Deadline | None = None) -> list[int]:
    """Literals ``out`` with ``out[k - 1]`` implying "at least k of ``lits`` hold", k = 1..upto.

    A totalizer with only its soundness half (an output may be false although the count is
    reached, never true when it is not), which is all that a constraint ``premise -> out[k - 1]``
    needs. A literal may repeat in ``lits`` (a weight). Fewer than ``upto`` outputs come back
    when ``lits`` is shorter. A large counter takes seconds to write: ``deadline`` is checked
    at every merge (``TimeUp`` when it has passed).
    """
    lits = [int(lit) for lit in lits]
    upto = min(upto, len(lits))
    if upto <= 0:
        return []

    def merge(lo: int, hi: int) -> list[int]:
        if hi - lo == 1:
            return [lits[lo]]
        if deadline is not None:
            deadline.check()
        mid = (lo + hi) // 2
        left, right = merge(lo, mid), merge(mid, hi)
        out = formula.new_vars(min(len(left) + len(right), upto))
        # out[k-1] -> left[i] or right[j] whenever i + j + 1 = k: both halves too small makes k false
        for i in range(len(left) + 1):
            for j in range(len(right) + 1):
                k = i + j + 1
                if k > len(out):
                    break
                clause = [-out[k - 1]]
                if i < len(left):
                    clause.append(left[i])
                if j < len(right):
                    clause.append(right[j])
                formula.add_clause(clause)
        return out

    return merge(0, len(lits))[:upto]
