"""A query's answer as a command prints it, for the Python API (docs/api.md).

Many commands print more than the library's answer object holds: who is to move, the move in
the game's notation, the position reached. The game builds that record once (in its own
package, where the command calls it too), and the API hands it back as an :class:`Answer`:
``to_json()`` is exactly the command's ``--json`` object, and the library's answer behind it
stays reachable, by its attributes, as ``answer.result``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    """``record``: the command's ``--json`` object; ``result``: the library's answer it was
    built from (an :class:`~placesat.core.play.Advice`, a game's ``Solution``, ...), or None
    when the record is all there is. ``answer.x`` reads ``result.x``; ``answer["x"]`` reads
    the record."""

    record: dict[str, Any]
    result: Any = None

    def to_json(self) -> dict[str, Any]:
        """The command's ``--json`` object (a copy: changing it changes nothing here)."""
        return copy.deepcopy(self.record)

    def __getitem__(self, key: str) -> Any:
        return self.record[key]

    def __getattr__(self, name: str) -> Any:
        # only for names the dataclass does not have: the library's answer behind the record
        result = self.__dict__.get("result")
        if result is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(result, name)


def advice_record(game, position: Any, advice) -> dict[str, Any]:
    """``best --json`` of a game that gives no record of its own (the generic ``best`` of
    ``add_play_commands``): an :class:`~placesat.core.play.Advice` with the move and the line
    as typed (``game`` a :class:`~placesat.core.play.Playable`), the evaluation and its name,
    the depth."""
    return {
        "move": game.move_text(position, advice.move), "kind": advice.kind, "reason": advice.reason,
        "line": [step if isinstance(step, str) else str(step) for step in advice.line],
        "evaluation": advice.evaluation, "evaluation_name": advice.evaluation_name, "depth": advice.depth,
    }


def selfplay(game, start: Any, games: int, *, seed: int = 0, engine_a: str = "best:d2", engine_b: str = "best:d2",
             players: int = 2, opening_plies: int = 2, max_plies: int = 1000, jobs: int = 1):
    """``placesat selfplay``'s question for one game (``game`` a
    :class:`~placesat.core.play.Playable`) from ``start`` (None: its opening for ``players``):
    ``games`` games, engine A in seat 1 and engine B in the others, each engine as the command
    writes it (``best:d2``, ``best:0.5s``, ``random``). The
    :class:`~placesat.core.selfplay.SelfplayReport`, whose ``to_json()`` is the command's record."""
    from .selfplay import parse_engine, selfplay as play_games

    engines = (parse_engine(engine_a, "--engine-a"), parse_engine(engine_b, "--engine-b"))
    return play_games(game, games, seed, engines, start, players, jobs, opening_plies, max_plies)
