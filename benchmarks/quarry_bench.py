"""Quarry timings: reach from the empty board and from 20-stone mid-games, threats, race.

    .venv/bin/python benchmarks/quarry_bench.py [--runs 5] [--cli] [--hard]

Each figure is the median of ``--runs`` runs in one process after one warm-up run (so the one-off
import of OR-Tools is left out), as CPU time (``time.process_time``, this process and its solver
threads) beside wall time; the machine's load average is printed before and after, since the
machine is shared. ``--cli`` also times the whole ``placesat quarry`` command (start-up and
imports included). ``--hard`` adds a position outside the targets: a two-high wall of blue stones
across the board, which black must climb over (see docs/performance.md).

Positions: issue-27 (a 22-stone mid-game from issue 27, in benchmarks/quarry_positions.py),
grids/quarry/empty.json (the standard 10 x 9 board), midgame.json, midgame-2.json,
midgame-3.json (20 stones each, both players a race apart), scattered-1.json, scattered-2.json
(20 stones placed at random), all made by benchmarks/quarry_positions.py; for threats also the
black-wins game one move before black's win (black has many winning stones).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import command_seconds, timed  # noqa: E402
from benchmarks.quarry_positions import ISSUE_27  # noqa: E402
from placesat.quarry.model import BLACK, BLUE, Position, load_position, parse_move, position_from_json
from placesat.quarry.reach import POINTS, STONES, race, reach
from placesat.quarry.rules import State, record, replay
from placesat.quarry.threats import threats

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids" / "quarry"
MIDGAMES = ("midgame", "midgame-2", "midgame-3", "scattered-1", "scattered-2")


def one_before_the_end(name: str) -> State:
    position = load_position(str(GRIDS / f"{name}.json"))
    return replay(Position(position.board, position.stones, position.first, position.moves[:-1]))


def wall_position() -> tuple[Position, State]:
    """Blue's two-high wall across row 5 (bridge, arch, two posts); black holds a1, a10, i1."""
    position = Position(first=BLUE)
    state = replay(position)
    for text in ("bridge a5 e", "block a1", "arch e5 e", "block i1", "post h5", "block a10", "post i5"):
        position, state = record(position, state, parse_move(text, position.board, position.stones))
    return position, state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cli", action="store_true")
    parser.add_argument("--hard", action="store_true")
    options = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    rows = []
    cases = [("empty", BLACK)] + [(name, player) for name in MIDGAMES for player in (BLACK, BLUE)]
    for name, player in cases:
        state = replay(load_position(str(GRIDS / f"{name}.json")))
        for objective in (STONES, POINTS):
            cpu, wall, answer = timed(lambda: reach(state, player, objective), options.runs)
            value = answer.stones if objective == STONES else answer.points
            cli = command_seconds(["quarry", "reach", str(GRIDS / f"{name}.json"), "-p", player, "--objective", objective], options.runs) if options.cli else None
            rows.append((f"reach {name} -p {player} --objective {objective}", cpu, wall, cli, f"{answer.answer}, {value}"))
    issue = replay(position_from_json(ISSUE_27))
    for objective, limit in ((STONES, None), (POINTS, None), (STONES, 3)):
        cpu, wall, answer = timed(lambda: reach(issue, BLUE, objective, max_stones=limit), options.runs)
        value = answer.stones if objective == STONES else answer.points
        more = f" --max-stones {limit}" if limit else ""
        rows.append((f"reach issue-27 -p blue --objective {objective}{more}", cpu, wall, None, f"{answer.answer}, {value}"))
    for name in MIDGAMES:
        state = replay(load_position(str(GRIDS / f"{name}.json")))
        cpu, wall, answer = timed(lambda: race(state), max(1, options.runs // 2))
        rows.append((f"race {name}", cpu, wall, None, ", ".join(f"{p} {a.stones}" for p, a in answer.fewest_stones.items())))
    for name, state in [(n, replay(load_position(str(GRIDS / f"{n}.json")))) for n in MIDGAMES] + [("black-wins, one move before", one_before_the_end("black-wins"))]:
        cpu, wall, answer = timed(lambda: threats(state), options.runs)
        rows.append((f"threats {name}", cpu, wall, None, ", ".join(f"{p} {len(v)}" for p, v in answer.items())))
    if options.hard:
        _, state = wall_position()
        for objective in (STONES, POINTS):
            cpu, wall, answer = timed(lambda: reach(state, BLACK, objective), 1)
            value = answer.stones if objective == STONES else answer.points
            rows.append((f"reach wall -p black --objective {objective}", cpu, wall, None, f"{answer.answer}, {value}"))
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    print("| query | CPU s (median) | wall s (median) | whole command s | answer |")
    print("|---|---|---|---|---|")
    for query, cpu, wall, cli, summary in rows:
        whole = f"{cli:.2f}" if cli is not None else "-"
        print(f"| `{query}` | {cpu:.3f} | {wall:.3f} | {whole} | {summary} |")


if __name__ == "__main__":
    main()
