"""The Lixso strategic game for 2 or 4 players (and 3), played on a Lixso grid.

The rooms, as in every game package:

- ``model``: positions (game records) and their text and JSON formats, players, moves;
- ``rules``: the plain rule engine, without any solver: the referee that names a broken
  rule, and the fast bit-set engine the search runs on (each checks the other in the tests);
- ``encode``: the tile sets one side can still lay, as constraints (through the backend);
- ``bounds``: the query on them: most and sure tiles per side, who can still win;
- ``search``: a game-tree search that knows nothing of Lixso (alpha-beta, transposition
  table, bounds as cut-offs, deadline), so that another game could use it;
- ``solve``: Lixso for that search, and the query: the value with perfect play and a move;
- ``render``: the board as text, in colour, and as SVG.

The rules as implemented are stated in ``seeds/lixso.md`` ("The strategic game").
"""

from __future__ import annotations

GAME_BACKEND = "sat"
"""The backend of every game command that has one (bounds; solve and play-vs, whose root
bounds use it). Measured per command (benchmarks/lixso_game_bench.py backends, median CPU
of 5 runs on 9x9 positions where a solver has work to do): bounds 0.002-0.06 s with sat
against 0.009-0.046 s with cpsat, sat the faster on 14 of 15 positions; solve and play-vs
alike (their search does not depend on the backend); and cpsat adds OR-Tools' import."""

from typing import TYPE_CHECKING  # noqa: E402

from ...core.errors import InputError  # noqa: E402
from ...core.exports import export  # noqa: E402

if TYPE_CHECKING:
    from .model import Position
    from .solve import Solution

__all__ = ["parse_position", "load_position", "solve", "Position", "Solution", "position_to_json", "format_text",
           "InputError", "GAME_BACKEND"]


def solve(position: Position | str, *, time_limit: float | None = None, backend: str = GAME_BACKEND) -> Solution:
    """The result of a position with perfect play (``lixso game solve``): the final margin
    (side A's tiles minus side B's), a best move and the line of play, each move checked by the
    referee. ``position``: a :class:`Position` or its text (or JSON; see
    :func:`parse_position`). Past ``time_limit`` seconds, the best move found so far and the
    bounds proven (``solution.value`` None). ``solution.to_json()`` holds the answer."""
    from ...core.limits import Deadline
    from .model import parse_position
    from .rules import replay_position
    from .solve import solve as perfect_play

    game = replay_position(parse_position(position) if isinstance(position, str) else position)
    solution = perfect_play(game.rules, game.state, Deadline(time_limit), backend)
    if solution.stopped is not None:
        raise solution.stopped
    return solution


export(__name__, {
    "parse_position": ".model", "load_position": ".model", "Position": ".model", "Solution": ".solve",
    "position_to_json": ".model", "format_text": ".model",
})
