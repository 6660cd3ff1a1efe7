"""A reference grader for Lixso, written straight from the level definitions, for cross-checking
the fast one in solver/lixso/deduce.py.

Nothing is kept between trials: every trial is one unit propagation over the whole compiled
template (cardinality encodings and all) from the facts known so far, as assumptions. Trials are
tried again and again until a whole round finds nothing, each fact used as soon as it is found
(their fixed point does not depend on the order); at that fixed point, level 5 tries one round
of dilemmas, all on the same facts, over the cells whose colour is still open, and learns what
they find together; then trials again.
Slow (about a second for a level-5 9x9 puzzle), and simple enough to read against
seeds/lixso.md.
"""

from __future__ import annotations

from placesat.lixso.deduce import Deducer
from placesat.lixso.model import COLOURS, Grid


def reference_grade(deducer: Deducer, grid: Grid) -> tuple[int | None, tuple[str, ...] | None]:
    """(the puzzle's level, or None when its clues contradict each other; the colours decided
    at that level, '.' where undecided)."""
    t = deducer.template
    n = deducer.num_vars
    facts = t.clue_assumptions(grid)

    def closure(engine, assumed: list[int]) -> set[int] | None:
        ok, implied = engine.propagate(assumed)
        return {lit for lit in implied if abs(lit) <= n} | set(assumed) if ok else None

    def rows(known: set[int]) -> tuple[str, ...]:
        letters = [next((COLOURS[k] for k, lit in enumerate(lits) if lit in known), ".") for lits in t.colour]
        return tuple("".join(letters[r * t.width : (r + 1) * t.width]) for r in range(t.height))

    def complete(known: set[int]) -> bool:
        return all(any(lit in known for lit in lits) for lits in t.colour)

    known = closure(deducer.engine, facts)
    if known is None:
        return None, None
    if complete(known):
        direct = closure(deducer.direct_engine(), facts)
        return (1 if direct is not None and complete(direct) else 2), rows(known)

    def open_options(cell: int, tiles: bool) -> list[int]:
        lits = deducer.covering[cell] if tiles else t.colour[cell]
        return [lit for lit in lits if lit not in known and -lit not in known]

    cells = range(len(t.cells))
    for level in (3, 4, 5):
        while True:
            found = False
            # trials: an option whose consequences clash is ruled out
            for tiles in (False, True) if level >= 4 else (False,):
                for cell in cells:
                    for lit in open_options(cell, tiles):
                        if lit in known or -lit in known:
                            continue
                        if closure(deducer.engine, facts + [lit]) is None:
                            facts.append(-lit)
                            known = closure(deducer.engine, facts)
                            if known is None:
                                return None, None
                            found = True
            if not found and level == 5:
                # a dilemma round: every cell whose colour is still open, each on the same facts
                # (what they find is learnt together, then trials again)
                round_facts: set[int] = set()
                for cell in [c for c in cells if not any(lit in known for lit in t.colour[c])]:
                    for tiles in (False, True):
                        options = open_options(cell, tiles)
                        if len(options) < 2:
                            continue
                        common: set[int] | None = None
                        for lit in options:
                            after = closure(deducer.engine, facts + [lit])
                            assert after is not None, "at the trials' fixed point every option survives"
                            common = after if common is None else common & after
                        round_facts |= (common or set()) - known
                if round_facts:
                    facts.extend(sorted(round_facts))
                    known = closure(deducer.engine, facts)
                    if known is None:
                        return None, None
                    found = True
            if complete(known):
                return level, rows(known)
            if not found:
                break
    return 6, rows(known)
