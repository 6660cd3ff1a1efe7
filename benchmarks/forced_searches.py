"""Every game's ``forced`` with each search (issue 40): the largest K settled within a CPU budget.

    .venv/bin/python benchmarks/forced_searches.py [--games laido quarry lixso logisticks lsd]
        [--searches id dfpn] [--cpu 10] [--table-mb 256]

For each game's shipped benchmark positions (the rows of docs/performance.md, docs/quarry.md and
docs/logisticks.md: the same positions and questions) and each search, ``forced`` is asked for
K = 1, 2, ... (LSD: depth in plies) on its own clock of ``--cpu`` CPU seconds (a deadline read
on ``time.process_time``, so the machine's load does not shorten it; the solver calls inside
get eight times the CPU seconds left as their wall limit, the machine being shared), until an answer is "unknown" or a win (a win
within W settles every K from W on). Each K prints its answer, the positions searched and the
CPU and wall seconds (one run each: a budget that bites is the measurement; a win's replay on
the rules is inside the budget). The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import once  # noqa: E402
from placesat.core.limits import Deadline  # noqa: E402

GRIDS = ROOT / "grids"
WALL_PER_CPU = 8.0
"""The wall seconds a solver call inside may take per CPU second left (see :class:`CpuDeadline`)."""


class CpuDeadline(Deadline):
    """A deadline on this process's CPU seconds instead of the wall clock."""

    def __init__(self, seconds: float) -> None:
        super().__init__(None)
        self.seconds = seconds
        self.cpu_end = time.process_time() + seconds
        self.end = time.monotonic() + 1e9  # "has a limit" for code that asks

    def remaining(self) -> float | None:
        # a solver call's own limit is wall seconds: on a machine shared several times over, the
        # CPU seconds left would cut it short long before it had them; the CPU clock is read at
        # every node, so a call that overruns is caught right after it
        return max(self.cpu_end - time.process_time(), 0.0) * WALL_PER_CPU

    def expired(self) -> bool:
        return time.process_time() >= self.cpu_end


Row = tuple[str, Callable, int]
"""A row's name, ``ask(k, deadline, searcher, table_mb)`` giving the answer, and the largest K to try."""


def laido_rows() -> list[Row]:
    from placesat.laido.forced import forced_win
    from placesat.laido.model import load_game

    rows = []
    for name in ("mid9-1", "mid9-2", "mid9-3", "race9"):
        position = load_game(str(GRIDS / "laido" / f"{name}.json"))
        rows.append((f"laido {name}", lambda k, d, s, mb, p=position: forced_win(p, k, d, searcher=s, table_mb=mb), 6))
    return rows


def quarry_rows() -> list[Row]:
    from placesat.quarry.forced import forced_win
    from placesat.quarry.model import load_position, opponent
    from placesat.quarry.rules import replay

    rows = []
    for name in ("midgame", "midgame-2", "midgame-3", "scattered-1", "scattered-2"):
        position = load_position(str(GRIDS / "quarry" / f"{name}.json"))
        state = replay(position)
        for player in (state.to_move, opponent(state.to_move)):
            rows.append((f"quarry {name} {player}",
                         lambda k, d, s, mb, p=position, st=state, pl=player: forced_win(p, st, pl, k, d, searcher=s, table_mb=mb), 6))
    return rows


def lixso_rows() -> list[Row]:
    from placesat.lixso.game.forced import forced
    from placesat.lixso.game.model import load_position, with_seating
    from placesat.lixso.game.rules import replay_position

    rows = []
    for name in ("9x9-midgame", "6x6-L4-2", "6x6-L6-1"):
        position = load_position(str(GRIDS / "lixso-game" / f"{name}.txt"))
        if not position.players_given and not position.moves:
            position = with_seating(position, None)  # 2 players, as forced_lixso_game.py
        game = replay_position(position)
        rows.append((f"lixso {name}", lambda k, d, s, mb, g=game: forced(g.rules, g.state, k, d, searcher=s, table_mb=mb, record=g), 10))
    return rows


def logisticks_rows() -> list[Row]:
    from placesat.logisticks.forced import Goal, forced
    from placesat.logisticks.rules import load_position, scores

    rows = []
    for name in ("midgame", "late", "four-players", "start"):
        position = load_position(str(GRIDS / "logisticks" / f"{name}.json"))
        for more in (1, 2):
            goal = Goal(position.to_move, score=scores(position)[position.to_move].points + more)
            rows.append((f"logisticks {name} +{more}", lambda k, d, s, mb, p=position, g=goal: forced(p, g, k, d, searcher=s, table_mb=mb), 6))
    return rows


def lsd_rows() -> list[Row]:
    from placesat.lsd.forced import forced_win
    from placesat.lsd.model import load_game

    rows = []
    for name, player in (("mid20", 1), ("mid20", 2), ("four20", 1)):
        position = load_game(str(GRIDS / "lsd" / f"{name}.json"))
        rows.append((f"lsd {name} p{player}", lambda k, d, s, mb, p=position, pl=player: forced_win(p, pl, k, d, searcher=s, table_mb=mb), 12))
    return rows


GAMES = {"laido": laido_rows, "quarry": quarry_rows, "lixso": lixso_rows, "logisticks": logisticks_rows, "lsd": lsd_rows}


def ladder(ask: Callable, most: int, searcher: str, cpu: float, table_mb: float) -> tuple[str, list[str]]:
    """The largest K settled within ``cpu`` CPU seconds each, and a note per K tried."""
    settled, notes = "0", []
    for k in range(1, most + 1):
        answer, used, wall = once(lambda: ask(k, CpuDeadline(cpu), searcher, table_mb))
        notes.append(f"K={k} {answer.answer}, {answer.positions} positions, {used:.2f} s CPU ({wall:.1f} s wall)")
        if answer.answer == "unknown":
            break
        settled = str(k)
        if answer.answer == "win":
            settled = f"every K (win within {k})"
            break
    return settled, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--searches", nargs="+", default=["id", "dfpn"])
    parser.add_argument("--cpu", type=float, default=10.0)
    parser.add_argument("--table-mb", type=float, default=256.0)
    parser.add_argument("--rows", nargs="*", help="only the rows whose name contains one of these")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for game in args.games:
        for name, ask, most in GAMES[game]():
            if args.rows and not any(part in name for part in args.rows):
                continue
            for searcher in args.searches:
                settled, notes = ladder(ask, most, searcher, args.cpu, args.table_mb)
                print(f"{name} [{searcher}]: largest K in {args.cpu:g} s CPU: {settled}; " + "; ".join(notes), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
