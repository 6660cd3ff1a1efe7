"""Benchmark the Lixso strategic game: bounds on 9x9, endgame solving on 9x9, the shipped 6x6 games.

    .venv/bin/python benchmarks/lixso_game_bench.py bounds [--repeat 5] [--cli]
    .venv/bin/python benchmarks/lixso_game_bench.py endgames [--limit 60] [--games 3]
    .venv/bin/python benchmarks/lixso_game_bench.py sixes [--limit 900]
    .venv/bin/python benchmarks/lixso_game_bench.py backends [--repeat 5] [--cli]

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
- ``backends``: each game command that takes ``--backend`` (bounds; solve, whose root
  bounds use it; play-vs, the computer's solve with its share of look-ahead) on a set of
  positions where a solver has work to do, with sat and with cpsat: median CPU and wall
  seconds of ``--repeat`` runs in process (a warm-up excluded); with ``--cli``, the whole
  bounds command (imports included: ortools is the heavier).

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

from benchmarks.timing import once, timed  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402
from placesat.lixso.game.bounds import bounds  # noqa: E402
from placesat.lixso.game.model import Position, format_text, load_position, seating_for, with_seating  # noqa: E402
from placesat.lixso.game.rules import GameRules, State, replay_position  # noqa: E402
from placesat.lixso.game.solve import PLAYING_SHARE, LixsoSearch, solve  # noqa: E402
from placesat.lixso.model import load_pack  # noqa: E402

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


def backend_positions() -> list[tuple[str, GameRules, State]]:
    """The shipped 9x9 games, greedy level-4 games after 4 to 16 moves, and an empty 9x9
    (there the greedy set settles the bounds and no solver runs). An empty 9x9 with a supply
    of 12, or 15x15 with 30, is no case: neither backend proves the most within a minute."""
    from placesat.lixso.model import Grid

    rules = GameRules(Grid(("." * 9,) * 9), seating_for("2"), 7)
    cases = [("empty 9x9", rules, rules.start())]
    for path in ("9x9-midgame.txt", "9x9-endgame.txt"):
        game = replay_position(load_position(str(ROOT / "grids" / "lixso-game" / path)))
        cases.append((path, game.rules, game.state))
    for index in range(3):
        rules, states, _ = greedy_game(index)
        for ply in (4, 8, 12, 16):
            if ply < len(states):
                cases.append((f"level-4 #{index + 1} after {ply} greedy moves", rules, states[ply]))
    return cases


def bench_backends(args) -> None:
    print(f"each game command's backend, median of {args.repeat} runs in process ({load()})")
    print("| command | position | sat CPU s | sat wall s | cpsat CPU s | cpsat wall s | answer |")
    print("|---|---|---|---|---|---|---|")
    commands = {
        "bounds": lambda rules, state, backend: bounds(rules, state, backend, Deadline(60)),
        "solve": lambda rules, state, backend: solve(rules, state, Deadline(30), backend),
        "play-vs (--think 5)": lambda rules, state, backend: solve(rules, state, Deadline(5), backend, deepen_share=PLAYING_SHARE),
    }
    for command, run in commands.items():
        for name, rules, state in backend_positions():
            if command != "bounds" and (name.startswith("empty") or "midgame" in name or name.endswith((" 4 greedy moves", " 8 greedy moves"))):
                continue  # a search that runs to its limit whatever the backend (measured: 30 s, unknown)
            row = []
            for backend in ("sat", "cpsat"):
                cpu, wall, answer = timed(lambda: run(rules, state, backend), args.repeat)
                row += [f"{cpu:.3f}", f"{wall:.3f}"]
            shown = " / ".join(f"{s.most}, {s.sure}" for s in answer.sides) if command == "bounds" else (
                "unknown" if answer.value is None else f"{answer.value:+d}")
            print(f"| {command} | {name} | {' | '.join(row)} | {shown} |", flush=True)
    if args.cli:
        print()
        print("| whole command | sat CPU s | sat wall s | cpsat CPU s | cpsat wall s |")
        print("|---|---|---|---|---|")
        path = Path("/tmp") / f"lixso-game-bench-{os.getpid()}.txt"
        path.write_text(("." * 9 + "\n") * 9)
        for command in (["bounds"], ["solve", "--time-limit", "5"]):
            row = []
            for backend in ("sat", "cpsat"):
                cpus, walls = [], []
                for _ in range(args.repeat):
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    started = time.perf_counter()
                    subprocess.run([str(Path(sys.executable).with_name("placesat")), "lixso", "game", *command[:1], str(path),
                                    *command[1:], "--backend", backend], capture_output=True)
                    walls.append(time.perf_counter() - started)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                row += [f"{statistics.median(cpus):.2f}", f"{statistics.median(walls):.2f}"]
            print(f"| {' '.join(command)} (empty 9x9) | {' | '.join(row)} |", flush=True)
        path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("bounds", "endgames", "sixes", "backends"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--cli", action="store_true")
    args = parser.parse_args()
    {"bounds": bench_bounds, "endgames": bench_endgames, "sixes": bench_sixes, "backends": bench_backends}[args.what](args)


if __name__ == "__main__":
    main()
