"""What ``--certify`` costs Logi-Sticks: ``analyze`` and ``satisfy`` with and without certificates.

    .venv/bin/python benchmarks/logisticks_certify.py [--runs 5] [--random 10]

Each figure is the median of ``--runs`` runs of the whole query in one process (after a
warm-up run): CPU time (``time.process_time``) and wall time, the SAT backend, without
certificates and with them (checker: dratify's native engine). "proofs" and "steps" count the
proofs made and their steps in all; "certify CPU" is the part spent re-proving and checking.
``--random N`` adds one run each on N random mid-game positions (16 random legal moves;
``logisticks_analyze.midgame_positions``) and prints median and max of the extra cost.
Prints Markdown tables and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.logisticks_analyze import midgame_positions  # noqa: E402
from benchmarks.timing import timed  # noqa: E402
from placesat.logisticks.analyze import analyze, satisfy  # noqa: E402
from placesat.logisticks.rules import load_position  # noqa: E402

POSITIONS = ["midgame.json", "late.json", "four-players.json", "start.json"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--random", type=int, default=0)
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| query | plain CPU s | plain wall s | certified CPU s | certified wall s | proofs | steps | certify CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    queries = [(f"analyze {name}", lambda path=str(ROOT / "grids" / "logisticks" / name), **kw: analyze(load_position(path), **kw))
               for name in POSITIONS]
    late = str(ROOT / "grids" / "logisticks" / "late.json")
    queries.append(("satisfy late.json -p 2 (max 6)", lambda **kw: satisfy(load_position(late), 2, **kw)))
    queries.append(("satisfy late.json -p 2 --score 7 (impossible)", lambda **kw: satisfy(load_position(late), 2, at_least=7, **kw)))
    for name, query in queries:
        plain_cpu, plain_wall, _ = timed(query, options.runs)
        cpu, wall, answer = timed(lambda: query(checkers=("dratify",)), options.runs)
        certification = answer.certification
        assert certification.certified, certification.words()
        print(f"| {name} | {plain_cpu:.3f} | {plain_wall:.3f} | {cpu:.3f} | {wall:.3f} | {len(certification.proofs)} | "
              f"{certification.steps} | {certification.seconds:.3f} |", flush=True)
    if options.random:
        extra, share = [], []
        for position in midgame_positions(options.random):
            c = time.process_time()
            analyze(position)
            plain = time.process_time() - c
            c = time.process_time()
            answer = analyze(position, checkers=("dratify",))
            certified = time.process_time() - c
            assert answer.certification.certified
            extra.append(certified - plain)
            share.append(answer.certification.seconds)
        print()
        print("| random mid-game positions | extra CPU s, median | extra CPU s, max | certify CPU s, median | certify CPU s, max |")
        print("|---|---|---|---|---|")
        print(f"| {options.random} | {statistics.median(extra):.3f} | {max(extra):.3f} | {statistics.median(share):.3f} | {max(share):.3f} |")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
