"""Benchmark the strategic game's ``forced`` and ``best`` on the shipped positions.

    .venv/bin/python benchmarks/forced_lixso_game.py forced [--limit 60] [--most 8] [--players 2] [--positions 9x9-midgame ...] [--plain]
    .venv/bin/python benchmarks/forced_lixso_game.py best [--limit 5] [--repeat 3]

Positions: every file of ``grids/lixso-game/`` (the six 6x6 games from the start, the 9x9
game after 5 and after 8 moves).

- ``forced``: K = 1, 2, ... ``--most`` on each position, each within ``--limit`` seconds,
  until one is unknown; per K the answer, how it was decided (search, solve, bounds), the
  positions searched, CPU and wall seconds (one run each: a K that takes a minute is not
  repeated); after a win within w < K the ladder stops (every larger K wins the same way).
  The largest K settled within 10 s (wall, and CPU: the machine is shared) and within
  ``--limit`` s are the summary.
- ``best``: ``best`` within ``--limit`` seconds (its default: 5) on each position, median
  CPU and wall seconds of ``--repeat`` runs, with the kind of advice and the move.

CPU seconds are ``time.process_time``; the machine's load average is printed with each table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import once  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402
from placesat.lixso.game import forced as forced_module  # noqa: E402
from placesat.lixso.game.forced import UNKNOWN, forced  # noqa: E402
from placesat.lixso.game.model import load_position, with_seating  # noqa: E402
from placesat.lixso.game.play import LixsoPlayable  # noqa: E402
from placesat.lixso.game.rules import replay_position  # noqa: E402

POSITIONS = sorted((ROOT / "grids" / "lixso-game").glob("*.txt"))


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def game_of(path: Path, players: str | None):
    position = load_position(str(path))
    if not position.players_given and not position.moves:
        position = with_seating(position, players)
    return replay_position(position)


def run_forced(limit: float, most: int, players: str | None) -> None:
    print(f"forced, K = 1.. {most} within {limit:g} s each; {load()}")
    print(f"{'position':<18} {'K':>2} {'answer':<14} {'by':<7} {'within':>6} {'nodes':>8} {'cpu s':>7} {'wall s':>7}")
    summary = []
    for path in POSITIONS:
        game = game_of(path, players)
        in_ten = in_ten_cpu = in_limit = 0
        won = ""
        for k in range(1, most + 1):
            answer, cpu, wall = once(lambda: forced(game.rules, game.state, k, limit, record=game))
            within = "" if answer.within is None else str(answer.within)
            print(f"{path.stem:<18} {k:>2} {answer.answer:<14} {answer.how:<7} {within:>6} {answer.positions:>8} {cpu:>7.2f} {wall:>7.2f}")
            if answer.answer == UNKNOWN:
                break
            in_limit = k
            if wall <= 10:
                in_ten = k
            if cpu <= 10:
                in_ten_cpu = k
            if answer.answer == "win" and answer.within is not None and answer.within < k:
                # the same strategy wins for every larger K (the search deepens K from 1)
                won = f" (win within {answer.within}: every larger K too)"
                break
        summary.append((path.stem, in_ten, in_ten_cpu, in_limit, won))
    print()
    print(f"{'position':<18} {'largest K, 10 s wall':>21} {'10 s CPU':>9} {f'{limit:g} s wall':>9}")
    for stem, ten, ten_cpu, full, won in summary:
        print(f"{stem:<18} {ten:>21} {ten_cpu:>9} {full:>9}{won}")


def run_best(limit: float, repeat: int, players: str | None) -> None:
    print(f"best within {limit:g} s, median of {repeat} runs; {load()}")
    print(f"{'position':<18} {'kind':<12} {'move':<20} {'cpu s':>7} {'wall s':>7}")
    playable = LixsoPlayable()
    for path in POSITIONS:
        game = game_of(path, players)
        cpus, walls = [], []
        for _ in range(repeat):
            advice, cpu, wall = once(lambda: playable.best(game, Deadline(limit)))
            cpus.append(cpu)
            walls.append(wall)
        print(f"{path.stem:<18} {advice.kind:<12} {str(advice.move):<20} {statistics.median(cpus):>7.2f} {statistics.median(walls):>7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["forced", "best"])
    parser.add_argument("--limit", type=float, default=None)
    parser.add_argument("--most", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", default=None, help="For the 6x6 games, which name no players: 2, 3 or 4 (default 2).")
    parser.add_argument("--positions", nargs="+", default=None, help="Only these (file names without .txt).")
    parser.add_argument("--plain", action="store_true", help="Without the settled test's count where the sides are apart (forced.PRUNE).")
    args = parser.parse_args()
    forced_module.PRUNE = not args.plain
    if args.positions:
        POSITIONS[:] = [path for path in POSITIONS if path.stem in args.positions]
    if args.what == "forced":
        run_forced(args.limit or 60.0, args.most, args.players)
    else:
        run_best(args.limit or 5.0, args.repeat, args.players)


if __name__ == "__main__":
    main()
