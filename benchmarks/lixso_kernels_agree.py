"""What the Lixso grader's kernels answer, as one digest: compare two installs bit for bit.

    python benchmarks/lixso_kernels_agree.py [--states 3000] [--puzzles 300] [--hints 12] > answers.txt

Run with two installs (say numba's kernels and the Cython ones, issue 38) and compare the
outputs: every line is one question and a hash of its answer, the last line the digest of all.

* every shipped puzzle (grids/lixso/level-*.txt, grids/examples.txt,
  benchmarks/lixso-minimal-9x9.txt): its grade (level, hardest step, solved rows, facts),
  without and with its stated solution, and the value array of its deduction up to levels
  3, 4 and 5;
* the first ``--hints`` hints of each shipped puzzle, one after another (each accepted), in
  their JSON words: the hint chain;
* ``--states`` seeded random propagations on the 9x9 and 6x6 grids: random clues of a random
  solution plus random colour and tile literals (some false), tried (the trail in its order,
  its bits) and, every fourth, committed (the value array and counts after; not the clause
  watches, which are the propagator's bookkeeping, not an answer);
* ``--puzzles`` seeded random puzzles (random clues of a random solution): their grade.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

import numpy as np

from placesat.lixso.deduce import Deducer
from placesat.lixso.explain import Explainer
from placesat.lixso.generate import random_solution
from placesat.lixso.model import Grid, load_pack
from placesat.lixso.native import TrialState

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [*(ROOT / "grids" / "lixso").glob("level-[1-6].txt"), ROOT / "grids" / "examples.txt",
           ROOT / "benchmarks" / "lixso-minimal-9x9.txt"]


def digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=3000)
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--hints", type=int, default=12)
    args = parser.parse_args()
    lines = []

    def say(name: str, *answer: object) -> None:
        lines.append(f"{name} {digest(*answer)}")
        print(lines[-1], flush=True)

    deducers: dict[tuple[int, int], Deducer] = {}
    explainers: dict[tuple[int, int], Explainer] = {}
    for pack in sorted(SHIPPED):
        for grid in (g for g in load_pack(str(pack)) if isinstance(g, Grid)):
            size = (grid.height, grid.width)
            deducer = deducers.setdefault(size, Deducer(*size))
            where = f"{pack.name}:{grid.name}"
            for solution in (None, grid.stated_solution()):
                grade = deducer.grade(grid, solution=solution)
                say(f"grade {where} solution={solution is not None}", grade.level, grade.hardest, grade.solved_rows, grade.facts)
                for upto in (3, 4, 5):
                    deduction = deducer.start(grid, upto, solution=solution)
                    deduction.run()
                    say(f"deduction {where} upto={upto} solution={solution is not None}", deduction.value.tobytes())
            session = explainers.setdefault(size, Explainer(*size)).session(grid)
            chain = []
            for _ in range(args.hints):
                found = session.next()
                if not found:
                    break
                chain.append([hint.to_json() for hint in found])
                session.accept(found[0])
            say(f"hints {where}", chain)

    rng = random.Random(38)
    for size in ((9, 9), (6, 6)):
        deducer = deducers.setdefault(size, Deducer(*size))
        n, t = deducer.num_vars, deducer.template
        value = np.zeros(2 * n + 1, dtype=np.int8)
        value[n] = -1  # the padding position, kept false
        state = TrialState(deducer.trial_tables(), value)
        for i in range(args.states // 2):
            if i % 40 == 0:  # a fresh state now and then: commits pile up
                solution = random_solution(t, rng)
                truth = set(deducer.engine.propagate(t.solution_literals(solution))[1])
                value[:] = 0
                value[n] = -1
                state = TrialState(deducer.trial_tables(), value)
            share, wrong = rng.choice((0.02, 0.1, 0.3)), rng.choice((0.0, 0.02, 0.1))
            lits = [lit for lit in range(1, n + 1) if rng.random() < share / 8]
            lits = [lit if (lit in truth) != (rng.random() < wrong) else -lit for lit in lits]
            lits += [lit for lit in t.solution_literals(solution) if rng.random() < share]
            rng.shuffle(lits)
            keep = i % 4 == 0
            size_or_not = state.propagate(np.array(lits, dtype=np.int32) + n, keep)
            length = size_or_not if size_or_not >= 0 else -1 - size_or_not
            say(f"state {size} {i}", size_or_not, state.trail[:length].tobytes(), state.bits.tobytes(),
                state.value.tobytes(), state.count.tobytes())
        for i in range(args.puzzles // 2):
            solution = random_solution(t, rng)
            share = rng.choice((0.15, 0.25, 0.4))
            rows = tuple("".join(ch if rng.random() < share else "." for ch in row) for row in solution)
            grade = deducer.grade(Grid(rows))
            say(f"puzzle {size} {i}", rows, grade.level, grade.hardest, grade.solved_rows, grade.facts)
    print(f"all {len(lines)} {digest(lines)}")


if __name__ == "__main__":
    main()
