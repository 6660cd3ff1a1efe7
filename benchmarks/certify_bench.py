"""What a certified Lixso verdict costs: solve, re-prove on a fresh proof-logging solver, check.

    .venv/bin/python benchmarks/certify_bench.py [--pack benchmarks/lixso-minimal-9x9.txt] [--repeat 3]
        [--solvers cadical195,glucose4,lingeling] [--checkers dratify,dratify-python] [--history]

Per grid, in one process with one warm solver per grid size (as `placesat lixso solve
--certify PACK` runs): the warm solve, the proof solve (fresh solver, proof logged), each
checker's time, and the end-to-end sum. CPU seconds (time.process_time) beside wall seconds.
``--history`` also measures the other way to certify a warm solver's answer: a fresh proof
solve over everything the warm solver had been given by then (the template, every earlier
grid's blocking clause behind its selector, and the selectors switched off).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import once  # noqa: E402
from placesat.core.backend import cnf_of  # noqa: E402
from placesat.core.certify import Refutation, check, refute  # noqa: E402
from placesat.lixso.model import load_pack  # noqa: E402
from placesat.lixso.solve import LixsoSolver, Verdict  # noqa: E402


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"median {1000 * statistics.median(ordered):7.1f} ms  p95 {1000 * p95:7.1f}  max {1000 * ordered[-1]:7.1f}"


def run(pack: str, solver_name: str, checkers: list[str], history: bool) -> dict[str, list[float]]:
    grids = [g for g in load_pack(pack) if not isinstance(g, Exception)]
    solver = LixsoSolver("sat")
    solver.solve(grids[0])  # warm-up: template and solver built once, as in a pack
    figures: dict[str, list[float]] = {}
    history_clauses: list[list[int]] = []
    for grid in grids:
        report, cpu, wall = once(lambda: solver.solve(grid))
        figures.setdefault("solve cpu", []).append(cpu)
        assert report.status is Verdict.UNIQUE, grid.label()
        template = solver.compiled(grid).template
        base, top = cnf_of(template.formula)
        clue_cells = {(r, c) for r, c, _ in grid.clues()}
        cells = [(r, c) for r in range(grid.height) for c in range(grid.width)]
        block = [-lit for cell, lit in zip(cells, template.solution_literals(report.solutions[0])) if cell not in clue_cells]
        refutation, cpu_proof, wall_proof = once(lambda: refute(base, top, [block], template.clue_assumptions(grid), None, solver_name))
        assert isinstance(refutation, Refutation)
        figures.setdefault("proof solve cpu", []).append(cpu_proof)
        figures.setdefault("proof steps", []).append(refutation.steps / 1000)  # shown as thousands
        total_cpu, total_wall = cpu + cpu_proof, wall + wall_proof
        for name in checkers:
            verdict, cpu_check, wall_check = once(lambda: check(refutation, name))
            assert verdict.accepted, (grid.label(), name, verdict.reason)
            figures.setdefault(f"check {name} cpu", []).append(cpu_check)
            total_cpu, total_wall = total_cpu + cpu_check, total_wall + wall_check
        figures.setdefault("end to end cpu", []).append(total_cpu)
        figures.setdefault("end to end wall", []).append(total_wall)
        if history:
            # the warm solver's own clause set: every earlier grid's block behind a selector, switched off
            selector = top + 1 + len(history_clauses) // 2
            replay = [*history_clauses, [block[0]] + block[1:]]
            outcome, cpu_history, _ = once(lambda: refute(base, selector, replay, template.clue_assumptions(grid), None, solver_name))
            assert isinstance(outcome, Refutation)
            figures.setdefault("history proof solve cpu", []).append(cpu_history)
            history_clauses += [[-selector] + block, [-selector]]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default=str(ROOT / "benchmarks" / "lixso-minimal-9x9.txt"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--solvers", default="cadical195")
    parser.add_argument("--checkers", default="dratify")
    parser.add_argument("--history", action="store_true")
    args = parser.parse_args()
    for solver_name in args.solvers.split(","):
        runs = [run(args.pack, solver_name, args.checkers.split(","), args.history) for _ in range(args.repeat)]
        print(f"proof solver {solver_name}, {len(runs[0]['solve cpu'])} grids, median over {args.repeat} runs per grid")
        for key in runs[0]:
            per_grid = [statistics.median(r[key][i] for r in runs) for i in range(len(runs[0][key]))]
            if key == "proof steps":
                print(f"  {key:28s} median {1000 * statistics.median(per_grid):7.0f}  max {1000 * max(per_grid):7.0f}")
            else:
                print(f"  {key:28s} {summary(per_grid)}")


if __name__ == "__main__":
    main()
