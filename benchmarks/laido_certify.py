"""What ``reach --certify`` costs Laido: each query with and without certificates (SAT backend).

    .venv/bin/python benchmarks/laido_certify.py [--runs 3] [--quick]

Each figure is the median of ``--runs`` runs of the whole query in one process (after a warm-up
run): CPU time (``time.process_time``) and wall time, on the SAT backend (the one that writes
proofs), without certificates and with them (checker: dratify's native engine). "steps" counts
the proof's steps; "certify CPU" is the part spent re-proving and checking. ``--quick`` leaves
out the two 9-side races, which take tens of seconds certified. Prints a Markdown table and the
load average.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import timed  # noqa: E402
from placesat.laido.model import load_game  # noqa: E402
from placesat.laido.reach import reach_best, reach_win  # noqa: E402

GRIDS = ROOT / "grids" / "laido"
QUERIES = [
    # (position, player, stones, best, slow)
    ("hand.json", "white", 3, False, False),
    ("branch.json", "white", 3, False, False),
    ("mid9-2.json", "black", 4, False, False),
    ("branch.json", "white", 3, True, False),
    ("race9.json", "black", 3, False, True),
    ("race9.json", "black", 4, True, True),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="leave out the 9-side races")
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| query | answer | plain CPU s | plain wall s | certified CPU s | certified wall s | steps | certify CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, player, stones, best, slow in QUERIES:
        if slow and options.quick:
            continue
        position = load_game(str(GRIDS / name))
        ask = reach_best if best else reach_win

        def query(**kw):
            return ask(position, player, stones, "sat", **kw)

        plain_cpu, plain_wall, plain = timed(query, options.runs)
        cpu, wall, answer = timed(lambda: query(checkers=("dratify",)), options.runs)
        certification = answer.certification
        assert certification.certified and answer.answer == plain.answer, certification.words()
        said = f"best value {answer.value}" if best else (f"yes, {len(answer.stones)} stone(s)" if answer.answer == "yes" else answer.answer)
        label = f"reach {name} --player {player} --stones {stones}" + (" --best" if best else "")
        print(f"| `{label}` | {said} | {plain_cpu:.2f} | {plain_wall:.2f} | {cpu:.2f} | {wall:.2f} | "
              f"{certification.steps} | {certification.seconds:.2f} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
