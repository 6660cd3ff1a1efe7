"""Look for slow Quarry reach questions: seeded random mid-games, each player, both objectives.

    .venv/bin/python benchmarks/quarry_hunt.py [--games 20] [--stones 16 20 24] [--time-limit 60] [--save DIR]

The games are made by benchmarks/quarry_positions.py's policies (the reaching one and the
scattered one), with black or blue moving first; game ``n`` of a policy uses seed ``1000 + n``,
so the list is the same on every run. Each question is timed once (CPU beside wall seconds); the
table lists the slowest first. ``--save DIR`` writes the positions of the ten slowest questions
as JSON, to replay them with ``placesat quarry reach``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.quarry_positions import midgame  # noqa: E402
from benchmarks.timing import once  # noqa: E402
from placesat.quarry.model import PLAYERS, dumps  # noqa: E402
from placesat.quarry.reach import OBJECTIVES, reach  # noqa: E402
from placesat.quarry.rules import replay  # noqa: E402

FIRST_SEED = 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per policy and length")
    parser.add_argument("--stones", type=int, nargs="+", default=[16, 20, 24])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--save", default=None)
    options = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    rows = []
    for stones in options.stones:
        for scattered in (False, True):
            for n in range(options.games):
                seed = FIRST_SEED + n
                name = f"{'scattered' if scattered else 'reaching'}-{stones}-seed{seed}"
                try:
                    position = midgame(seed, stones, scattered, first=PLAYERS[n % 2])
                except RuntimeError:
                    continue  # no quiet move left: not a mid-game
                state = replay(position)
                for player in PLAYERS:
                    for objective in OBJECTIVES:
                        answer, cpu, wall = once(lambda: reach(state, player, objective, time_limit=options.time_limit))
                        value = answer.stones if objective == "stones" else answer.points
                        rows.append((cpu, wall, name, player, objective, f"{answer.answer} {value}", position))
                        print(f"{name} {player} {objective}: {answer.answer} {value}, CPU {cpu:.2f} s, wall {wall:.2f} s", file=sys.stderr, flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    rows.sort(key=lambda row: -row[0])
    cpus = sorted(row[0] for row in rows)
    print(f"{len(rows)} questions; CPU s: median {cpus[len(cpus) // 2]:.2f}, slowest {cpus[-1]:.2f}")
    print("| game | player | objective | answer | CPU s | wall s |")
    print("|---|---|---|---|---|---|")
    for cpu, wall, name, player, objective, summary, _ in rows[:15]:
        print(f"| {name} | {player} | {objective} | {summary} | {cpu:.2f} | {wall:.2f} |")
    if options.save:
        Path(options.save).mkdir(parents=True, exist_ok=True)
        for cpu, wall, name, player, objective, summary, position in rows[:10]:
            (Path(options.save) / f"{name}.json").write_text(dumps(position))


if __name__ == "__main__":
    main()
