"""Laido timings: scoring finished 9-side boards, and reach with K = 4 on 9-side mid-game boards.

    .venv/bin/python benchmarks/laido_bench.py [--runs 5] [--cli]

Each figure is the median of ``--runs`` runs, timed in one process after a warm-up run (so the
one-off import of OR-Tools is left out); ``--cli`` also times the whole ``placesat`` command,
start-up included. Positions: grids/laido/full9-*.json (all 217 points filled, random),
mid9-*.json (30 stones each, grown at random), race9.json (Black needs 4 stones to win).
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import command_seconds  # noqa: E402
from placesat.laido.model import load_game  # noqa: E402
from placesat.laido.reach import reach_best, reach_win
from placesat.laido.score import score_position

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "laido"


def median_seconds(run, runs: int) -> tuple[float, object]:
    answer = run()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cli", action="store_true")
    options = parser.parse_args()
    rows = []
    for name in ("full9-1", "full9-2", "full9-3"):
        position = load_game(str(GRIDS / f"{name}.json"))
        for backend in ("sat", "cpsat"):
            seconds, score = median_seconds(lambda: score_position(position, backend=backend), options.runs)
            summary = f"{score.verdict.winner} wins ({score.verdict.describe()})"
            cli = command_seconds(["laido", "score", str(GRIDS / f"{name}.json"), "--backend", backend], options.runs, check=True) if options.cli else None
            rows.append((f"score {name}", backend, seconds, cli, summary))
    queries = [("mid9-1", "white", 4), ("mid9-2", "black", 4), ("mid9-3", "white", 4), ("race9", "black", 4), ("race9", "black", 3)]
    for name, player, k in queries:
        position = load_game(str(GRIDS / f"{name}.json"))
        for backend in ("cpsat", "sat"):
            seconds, answer = median_seconds(lambda: reach_win(position, player, k, backend), options.runs)
            summary = f"{answer.answer}" + (f", {len(answer.stones)} stone(s)" if answer.answer == "yes" else "")
            cli = command_seconds(["laido", "reach", str(GRIDS / f"{name}.json"), "-p", player, "-k", str(k), "-b", backend], options.runs, check=True) if options.cli else None
            rows.append((f"reach {name} --player {player} --stones {k}", backend, seconds, cli, summary))
    for name, player in (("mid9-3", "white"), ("race9", "black")):
        position = load_game(str(GRIDS / f"{name}.json"))
        for backend in ("cpsat", "sat"):
            seconds, answer = median_seconds(lambda: reach_best(position, player, 4, backend), options.runs)
            cli = command_seconds(["laido", "reach", str(GRIDS / f"{name}.json"), "-p", player, "-k", "4", "--best", "-b", backend], options.runs, check=True) if options.cli else None
            rows.append((f"reach {name} --player {player} --stones 4 --best", backend, seconds, cli, f"best value {answer.value}"))
    print("| query | backend | median (in process) | median (whole command) | answer |")
    print("|---|---|---|---|---|")
    for query, backend, seconds, cli, summary in rows:
        whole = f"{cli:.2f} s" if cli is not None else "-"
        print(f"| `{query}` | {backend} | {seconds:.2f} s | {whole} | {summary} |")


if __name__ == "__main__":
    main()
