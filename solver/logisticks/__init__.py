"""Logi-Sticks: logic-gate pieces on a chess board carry TRUE/FALSE signals from the centre
stones to target stones at the players' edges.

Rooms as in every game package: ``model`` (position and its JSON), ``rules`` (the plain rule
engine), ``encode`` (completions as a formula), ``analyze`` (the queries), ``render``.
The rules as implemented are stated in ``seeds/logisticks.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.exports import export

if TYPE_CHECKING:
    from .analyze import Analysis
    from .model import Position

__all__ = ["parse_position", "load_position", "analyze", "Position", "Analysis", "position_to_json", "InputError"]


def analyze(position: Position | str, *, player: int | None = None, backend: str = "sat",
            time_limit: float | None = None) -> Analysis:
    """Over every way the board can still be completed (``logisticks analyze``): for each
    target (of ``player``, or everyone's) whether it can still end matched and unmatched, each
    player's best achievable score, and which MUTABLE outputs can still resolve either way.
    ``position``: a :class:`Position` or its JSON text. ``analysis.to_json()`` is
    ``logisticks analyze --json``'s answer; answers past ``time_limit`` seconds are "unknown"."""
    from .analyze import analyze as analyze_completions
    from .rules import parse_position

    if isinstance(position, str):
        position = parse_position(position)
    return analyze_completions(position, backend, player, time_limit)


export(__name__, {
    "parse_position": ".rules", "load_position": ".rules", "Position": ".model",
    "position_to_json": ".model", "Analysis": ".analyze",
})
