"""The trial engine against the whole compiled template: the same facts, on many random states.

Trials propagate over ``encode.propagation_clauses`` (no tile at-most-one, the supply
counted in Python) and only over the clauses a puzzle's known facts leave open. Its answers
must be exactly what unit propagation over the full template (cardinality encodings and
all) gives, or grades would change.
"""

import random

import numpy as np
import pytest

from placesat.lixso.deduce import Deducer, _TrialEngine
from placesat.lixso.model import Grid, parse_pack

from .conftest import ROOT

PACK = [g for g in parse_pack((ROOT / "benchmarks" / "lixso-minimal-9x9.txt").read_text()) if isinstance(g, Grid)]


def reference(deducer: Deducer, facts: list[int]) -> tuple[bool, set[int]]:
    """Unit propagation over the whole template: (no contradiction, colour and tile facts)."""
    ok, implied = deducer.engine.propagate(facts)
    return ok, {lit for lit in implied if abs(lit) <= deducer.num_vars} | set(facts)


def random_state(deducer: Deducer, solution, rng: random.Random, share: float) -> list[int]:
    """Facts from a solution (true ones) and some wrong ones, as a puzzle's trials would meet."""
    t = deducer.template
    facts = [t.colour[i][rng.randrange(4)] if rng.random() < 0.02 else lits["IXSO".index(solution[i // t.width][i % t.width])]
             for i, lits in enumerate(t.colour) if rng.random() < share]
    return facts


def value_array(deducer: Deducer, known: set[int]) -> np.ndarray:
    """A puzzle's value array (position num_vars + literal: 1 true, -1 false, 0 open)."""
    n = deducer.num_vars
    value = np.zeros(2 * n + 1, dtype=np.int8)
    value[n] = -1
    for lit in known:
        value[n + lit], value[n - lit] = 1, -1
    return value


@pytest.mark.parametrize("size", [(9, 9), (6, 6)])
def test_trials_reach_exactly_what_the_full_template_reaches(size):
    rng = random.Random(11)
    deducer = Deducer(*size)
    t = deducer.template
    if size == (9, 9):
        solutions = [g.stated_solution() for g in PACK[:10]]
    else:
        from placesat.lixso.generate import random_solution

        solutions = [random_solution(t, random.Random(seed)) for seed in range(4)]
    checked = contradictions = supply_spent = 0
    for solution in solutions:
        for share in (0.15, 0.3, 0.5, 0.7):
            base = random_state(deducer, solution, rng, share)
            ok, known = reference(deducer, base)
            if not ok:
                continue
            value = value_array(deducer, known)
            engine = _TrialEngine(deducer, value)
            probes = [lit for lits in t.colour for lit in lits if lit not in known and -lit not in known]
            probes += [lit for lits in t.tile for lit in lits if lit not in known and -lit not in known]
            for lit in rng.sample(probes, min(len(probes), 60)):
                got_ok, implied, mask = engine.propagate([lit])
                want_ok, want = reference(deducer, base + [lit])
                assert got_ok == want_ok, (share, lit)
                if want_ok:
                    assert known | set(implied) == want, (share, lit)
                    assert set(deducer.literals_in(mask)) == set(implied)
                    supply_spent += any(deducer.supply_cells == sum(lits[k] in want for lits in t.colour) for k in range(4))
                else:
                    contradictions += 1
                checked += 1
            # facts made permanent one after another keep matching too
            for lit in rng.sample(probes, min(len(probes), 5)):
                if lit in known or -lit in known:
                    continue
                want_ok, want = reference(deducer, base + [lit])
                if not want_ok:
                    continue
                got_ok, implied, _ = engine.commit([lit])
                assert got_ok and known | set(implied) == want
                known = want
                value[:] = value_array(deducer, known)
                base = base + [lit]
    assert checked > 500 and contradictions > 20 and supply_spent > 5, (checked, contradictions, supply_spent)
