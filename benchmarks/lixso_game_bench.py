"""Benchmark the Lixso strategic game: bounds on 9x9, endgame solving on 9x9, the shipped 6x6 games.

    .venv/bin/python benchmarks/lixso_game_bench.py bounds [--repeat 5] [--cli]
    .venv/bin/python benchmarks/lixso_game_bench.py endgames [--limit 60] [--games 3]
    .venv/bin/python benchmarks/lixso_game_bench.py sixes [--limit 900]

Positions come from the shipped level-4 9x9 puzzles (``grids/lixso/level-4.txt``) played by
a fixed greedy policy, the same for both sides: the first tile of the search's move order
(the one that takes the most of the other side's legal tiles and costs the mover the
fewest of its own). It is deterministic, so the positions are the same on every run.

- ``bounds``: ``bounds`` for both sides, in process (one warm-up call excluded), median CPU
  and wall seconds of ``--repeat`` runs per position; with ``--cli``, also the installed
  command as typed (start-up and imports included; CPU from the child's resource usage).
- ``endgames``: for each game, ``solve`` from move N, N - 1, ... back towards the start,
  each within ``--limit`` seconds, until one is not solved: the largest endgame solved is
  the earliest move solved, given as empty cells and legal moves at that point.
- ``sixes``: each shipped 6x6 game from the start, 2 and 4 players: value and best move.

CPU seconds are ``time.process_time``; the machine's load average is printed with each table.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import once  # noqa: E402
from solver.core.limits import Deadline  # noqa: E402
from solver.lixso.game.bounds import bounds  # noqa: E402
from solver.lixso.game.model import Position, format_text, load_position, seating_for, with_seating  # noqa: E402
from solver.lixso.game.rules import GameRules, State, replay_position  # noqa: E402
from solver.lixso.game.solve import LixsoSearch, solve  # noqa: E402
from solver.lixso.model import load_pack  # noqa: E402

PUZZLES = ROOT / "grids" / "lixso" / "level-4.txt"
SIXES = sorted((ROOT / "grids" / "lixso-game").glob("6x6-*.txt"))


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def greedy_game(index: int, players: str = "2") -> tuple[GameRules, list[State], Position]:
    """Puzzle ``index`` of the level-4 pack played to the end by the greedy policy."""
    grid = load_pack(str(PUZZLES))[index]
    position = Position(grid, seating_for(players), 7)
    rules = replay_position(position).rules
    chooser = LixsoSearch(rules, use_symmetry=False)
    states = [rules.start()]
    moves = []
    while not states[-1].over:
        move = chooser.moves(chooser.root(states[-1]), None)[0]
        moves.append(rules.move_of(*move))
        states.append(rules.play(states[-1], *move))
    record = Position(grid, seating_for(players), 7, moves=tuple(moves))
    return rules, states, record


def empty_cells(rules: GameRules, state: State) -> int:
    return rules.cell_count - 3 * sum(state.scores)


def bench_bounds(args) -> None:
    print(f"bounds, 9x9, 2 players ({load()})")
    print("| position | empty cells | backend | median CPU s | median wall s | most / sure per side |")
    print("|---|---|---|---|---|---|")
    cases = []
    for index in range(args.games):
        rules, states, record = greedy_game(index)
        for ply in (0, 8, 16):
            if ply < len(states):
                cases.append((f"game {index + 1} after {ply} moves", rules, states[ply], record, ply))
    for name, rules, state, _, _ in cases:
        for backend in ("sat", "cpsat"):
            bounds(rules, state, backend)  # warm-up (imports, first solver)
            cpus, walls = [], []
            for _ in range(args.repeat):
                result, cpu, wall = once(lambda: bounds(rules, state, backend))
                cpus.append(cpu)
                walls.append(wall)
            figures = " / ".join(f"{s.most}, {s.sure}" for s in result.sides)
            print(f"| {name} | {empty_cells(rules, state)} | {backend} | {statistics.median(cpus):.3f} | {statistics.median(walls):.3f} | {figures} |")
    if args.cli:
        print()
        print("| position | whole command, median CPU s | median wall s |")
        print("|---|---|---|")
        command = [str(Path(sys.executable).with_name("placesat")), "lixso", "game", "bounds"]
        for name, rules, state, record, ply in cases:
            path = Path("/tmp") / f"lixso-game-bench-{os.getpid()}.txt"
            path.write_text(format_text(Position(record.grid, record.seating, 7, moves=record.moves[:ply])))
            cpus, walls = [], []
            for _ in range(args.repeat):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                subprocess.run(command + [str(path)], check=True, capture_output=True)
                walls.append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            path.unlink()
            print(f"| {name} | {statistics.median(cpus):.2f} | {statistics.median(walls):.2f} |")


def bench_endgames(args) -> None:
    print(f"endgames, 9x9, 2 players, solve within {args.limit:g} s each ({load()})")
    print("| game | from move | empty cells | legal moves | value | CPU s | wall s | positions |")
    print("|---|---|---|---|---|---|---|---|")
    for index in range(args.games):
        rules, states, _ = greedy_game(index)
        for ply in range(len(states) - 2, -1, -1):
            state = states[ply]
            solution, cpu, wall = once(lambda: solve(rules, state, Deadline(args.limit)))
            value = "unknown" if solution.value is None else f"{solution.value:+d}"
            print(f"| {index + 1} | {ply} | {empty_cells(rules, state)} | {len(rules.moves(state))} | {value} | {cpu:.2f} | {wall:.2f} | {solution.nodes} |", flush=True)
            if solution.value is None:
                break


def bench_sixes(args) -> None:
    print(f"the shipped 6x6 games from the start, solve within {args.limit:g} s ({load()})")
    print("| game | players | value (side A) | result | best first move | CPU s | wall s | positions |")
    print("|---|---|---|---|---|---|---|---|")
    for path in SIXES:
        for players in ("2", "4"):
            game = replay_position(with_seating(load_position(str(path)), players))
            solution, cpu, wall = once(lambda: solve(game.rules, game.state, Deadline(args.limit)))
            value = solution.value
            who = game.rules.seating.side_name
            result = "unknown" if value is None else "draw" if value == 0 else f"{who(0 if value > 0 else 1)} wins by {abs(value)}"
            shown = "unknown" if value is None else f"{value:+d}"
            print(f"| {path.stem} | {players} | {shown} | {result} | {solution.move} | {cpu:.1f} | {wall:.1f} | {solution.nodes} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("bounds", "endgames", "sixes"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--cli", action="store_true")
    args = parser.parse_args()
    {"bounds": bench_bounds, "endgames": bench_endgames, "sixes": bench_sixes}[args.what](args)


if __name__ == "__main__":
    main()
