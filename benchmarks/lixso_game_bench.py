"""Benchmark the Lixso strategic game: every command on the positions players meet, endgame solving on 9x9, the shipped 6x6 games.

    .venv/bin/python benchmarks/lixso_game_bench.py typical [--quick] [--commands bounds,solve,...] [--time-limit 1] [--bounds-limit 60] [--backend sat] [--each]
    .venv/bin/python benchmarks/lixso_game_bench.py endgames [--limit 60] [--games 3]
    .venv/bin/python benchmarks/lixso_game_bench.py sixes [--limit 900]
    .venv/bin/python benchmarks/lixso_game_bench.py backends [--repeat 5] [--cli]

- ``typical``: the positions players meet (:func:`typical_positions`): the puzzle grids of
  the shipped packs, 9x9 (the first puzzle of each of levels 1-6, ``grids/lixso/level-*.txt``)
  and 6x6 (the shipped 6x6 games of levels 3, 4 and 6, ``grids/lixso-game/6x6-L*-1.txt``),
  with 0, 2, 6 and 12 tiles laid by seeded random legal moves, for 2, 3 and 4 players (108
  positions; ``--quick``: levels 1 and 6 at 9x9 and level 3 at 6x6, 2 and 4 players, 24).
  Each command once per position, in process: ``bounds`` (within ``--bounds-limit``, 60 s:
  it should answer far sooner),
  ``solve``, ``best``, ``forced -k 1`` and ``forced -k 2`` within ``--time-limit`` seconds each (default 1);
  median and max CPU per command and grid size, and how many answers were "unknown" (the
  limit came first). A game over before its 12th tile, and ``solve`` with three players
  (it is for two sides), are left out. ``--each`` prints every position's figures too.

Positions for ``endgames`` come from the shipped level-4 9x9 puzzles (``grids/lixso/level-4.txt``)
played by a fixed greedy policy, the same for both sides: the first tile of the search's move order
(the one that takes the most of the other side's legal tiles and costs the mover the
fewest of its own). It is deterministic, so the positions are the same on every run.

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
import random
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
from placesat.lixso.game.model import Position, load_position, seating_for, with_seating  # noqa: E402
from placesat.lixso.game.rules import GameRules, State, replay_position  # noqa: E402
from placesat.lixso.game.solve import PLAYING_SHARE, LixsoSearch, solve  # noqa: E402
from placesat.lixso.model import default_per_colour, load_pack  # noqa: E402

PUZZLES = ROOT / "grids" / "lixso" / "level-4.txt"
SIXES = sorted((ROOT / "grids" / "lixso-game").glob("6x6-*.txt"))
LEVELS = (1, 2, 3, 4, 5, 6)
SIX_LEVELS = (3, 4, 6)
LAID = (0, 2, 6, 12)
PLAYERS = ("2", "3", "4")
COMMANDS = ("bounds", "solve", "best", "forced-1", "forced-2")


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


def typical_positions(quick: bool = False) -> list[tuple[str, Position]]:
    """The positions players meet: a shipped puzzle grid with 0, 2, 6 or 12 tiles laid (fewer
    when the game ends first), for 2, 3 and 4 players, each tile a random legal move of the
    seat to move (seeded by the grid, the players and the count, so the same on every run)."""
    grids = [(f"9x9 L{level}", load_pack(str(ROOT / "grids" / "lixso" / f"level-{level}.txt"))[0])
             for level in ((1, 6) if quick else LEVELS)]
    grids += [(f"6x6 L{level}", load_position(str(ROOT / "grids" / "lixso-game" / f"6x6-L{level}-1.txt")).grid)
              for level in ((3,) if quick else SIX_LEVELS)]
    found = []
    for name, grid in grids:
        for players in (("2", "4") if quick else PLAYERS):
            start = with_seating(Position(grid, seating_for("2"), default_per_colour(grid.height, grid.width)), players)
            rules = replay_position(start).rules
            for laid in LAID:
                draw = random.Random(f"{name} {players} {laid}")
                state, moves = rules.start(), []
                while len(moves) < laid and not state.over:
                    move = draw.choice(rules.moves(state))
                    moves.append(rules.move_of(*move))
                    state = rules.play(state, *move)
                found.append((f"{name} {players}p {len(moves)} laid", start.with_moves(moves)))
    return found


def typical_commands(limit: float, bounds_limit: float, backend: str) -> dict:
    """Each command as the command line runs it, on a replayed game, within ``limit`` seconds
    (``bounds`` within ``bounds_limit``: it should answer long before); each gives (its answer
    in a few words, whether the limit came first), or None when the command refuses the
    position (``solve`` with three players)."""
    from placesat.lixso.game.forced import UNKNOWN, forced
    from placesat.lixso.game.play import LixsoPlayable

    def run_bounds(game):
        found = bounds(game.rules, game.state, backend, Deadline(bounds_limit))
        return " / ".join(f"{s.most},{s.sure}" for s in found.sides), not found.known()

    def run_solve(game):
        if game.rules.seating.side_count != 2:
            return None  # solve is for two sides; it refuses three players who play for themselves
        found = solve(game.rules, game.state, Deadline(limit), backend)
        return "unknown" if found.value is None else f"{found.value:+d}", found.value is None

    def run_best(game):
        advice = LixsoPlayable(backend=backend).best(game, Deadline(limit))
        return advice.kind, False  # best always answers: its move by the time limit

    def run_forced(turns):
        def run(game):
            answer = forced(game.rules, game.state, turns, Deadline(limit), backend, record=game)
            return answer.answer, answer.answer == UNKNOWN
        return run

    return {"bounds": run_bounds, "solve": run_solve, "best": run_best, "forced-1": run_forced(1), "forced-2": run_forced(2)}


def bench_typical(args) -> None:
    commands = typical_commands(args.time_limit, args.bounds_limit, args.backend)
    chosen = [c for c in args.commands.split(",") if c]
    for command in chosen:
        if command not in commands:
            raise SystemExit(f"unknown command {command!r}; choose from {', '.join(COMMANDS)}")
    positions = [(name, replay_position(position)) for name, position in typical_positions(args.quick)]
    commands["bounds"](positions[0][1])  # warm-up (imports, first solver)
    print(f"typical positions: {len(positions)}; backend {args.backend}; time limit {args.time_limit:g} s "
          f"(bounds: {args.bounds_limit:g} s); one run each, in process ({load()})")
    cpu: dict[tuple[str, str], list[float]] = {}
    unknown: dict[tuple[str, str], int] = {}
    if args.each:
        print("| position | command | CPU s | answer |")
        print("|---|---|---|---|")
    for name, game in positions:
        size = name.split()[0]
        for command in chosen:
            if game.state.over:
                continue  # nobody is to move: the commands refuse it
            outcome, seconds, _ = once(lambda: commands[command](game))
            if outcome is None:
                continue
            answer, timed_out = outcome
            for key in ((command, size), (command, "all")):
                cpu.setdefault(key, []).append(seconds)
                unknown[key] = unknown.get(key, 0) + timed_out
            if args.each:
                print(f"| {name} | {command} | {seconds:.3f} | {answer} |", flush=True)
    print()
    print("| command | grids | positions | median CPU s | max CPU s | unknown |")
    print("|---|---|---|---|---|---|")
    for command in chosen:
        for size in ("6x6", "9x9", "all"):
            times = cpu.get((command, size))
            if times:
                print(f"| {command} | {size} | {len(times)} | {statistics.median(times):.3f} | {max(times):.3f} | {unknown[(command, size)]} |")


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
    parser.add_argument("what", choices=("typical", "endgames", "sixes", "backends"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--cli", action="store_true")
    parser.add_argument("--time-limit", type=float, default=1.0, help="typical: seconds for solve, best and forced")
    parser.add_argument("--bounds-limit", type=float, default=60.0, help="typical: seconds for bounds (it should need far less)")
    parser.add_argument("--quick", action="store_true", help="typical: 24 positions instead of 108")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="typical: which, comma-separated, of " + ", ".join(COMMANDS))
    parser.add_argument("--backend", default="sat", choices=("sat", "cpsat"))
    parser.add_argument("--each", action="store_true", help="typical: every position's figures too")
    args = parser.parse_args()
    {"typical": bench_typical, "endgames": bench_endgames, "sixes": bench_sixes, "backends": bench_backends}[args.what](args)


if __name__ == "__main__":
    main()
