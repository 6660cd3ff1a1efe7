"""Quarry: Shaun R. Mather's stacking connection game. Stones of cubes are laid and stacked on a
10 x 9 board; a player wins when, seen from above, its colour joins one Quarry zone to the other.

Rooms, as in every game package: ``stones`` (the stone table), ``model`` (board, positions, moves,
JSON and text), ``rules`` (the plain referee, no solver), ``encode`` (one-sided building as SAT /
CP-SAT constraints), ``reach`` (cheapest wins: encode, solve, decode, order, replay on ``rules``),
``threats`` (one-move wins and blocks, by the rules alone), ``render`` (text and SVG). The rules
as implemented, with every interpretation, are in ``seeds/quarry.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from ..core.limits import Deadline
    from .model import Position
    from .reach import ReachAnswer
    from .rules import State

__all__ = [
    "parse_position", "load_position", "replay", "reach",
    "Position", "State", "ReachAnswer", "position_to_json", "InputError",
]


def state_of(position: Position | State | str) -> State:
    """The state after every move of a position (each checked by the rules), from a
    :class:`Position`, its JSON text, or a :class:`State` (as it is)."""
    from .model import parse_position
    from .rules import State, replay

    if isinstance(position, State):
        return position
    return replay(parse_position(position) if isinstance(position, str) else position)


def reach(position: Position | State | str, player: str, *, objective: str = "stones", max_stones: int | None = None,
          backend: str = "cpsat", time_limit: Deadline | float | None = None) -> ReachAnswer:
    """The cheapest way for ``player`` (``"black"`` or ``"blue"``) to join one Quarry zone to
    the other, seen from above, if the opponent does nothing (``quarry reach``): fewest stones
    (``objective="stones"``) or fewest points given up (``"points"``), with at most
    ``max_stones`` stones. "possible" with the stones in building order (replayed by the
    rules), "impossible" (proved), or "unknown" past ``time_limit`` seconds.
    ``answer.to_json(state_of(position))`` is ``quarry reach --json``'s answer."""
    from .reach import reach as cheapest_win

    return cheapest_win(state_of(position), player, objective, max_stones, backend, time_limit)


__all__.append("state_of")

export(__name__, {
    "parse_position": ".model", "load_position": ".model", "Position": ".model",
    "position_to_json": ".model", "replay": ".rules", "State": ".rules", "ReachAnswer": ".reach",
})
