"""How many tiles each side can still lay: at most, and for sure; and who can still win.

For each side, two optimisations over :mod:`placesat.lixso.game.encode`'s tile sets:

- *most*: the most tiles the side could still lay if no other side laid any more (a greedy
  set when it reaches the counting cap, else a solver maximisation). No game gives the side
  more (the others' tiles only take cells away), so a side whose count plus its most stays
  below what another side is sure of cannot win any more. The tiles that reach it are
  replayed on the referee, laid one by one by the side alone;
- *sure*: the fewest tiles the side lays whatever everybody does (see the encoder: every
  tile no other side can block must be blocked by the side itself before the game can end).
  It is 0 when every tile the side could lay can still be blocked by someone else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from placesat.core.backend import Status, make_backend
from placesat.core.limits import Deadline, TimeUp

from . import GAME_BACKEND
from .encode import MOST, SURE, count_cap, side_colours, side_model
from .model import Move
from .rules import COLOURS, GameRules, State


class BoundsBug(RuntimeError):
    """A solver answer the referee rejects: a defect in the encoder, never bad input."""


@dataclass
class SideBounds:
    """One side's figures: tiles laid so far, and the most / fewest it can still add (None: the
    time limit came first). ``most_tiles`` reach ``most`` (replayed); ``unblockable`` counts
    the tiles behind ``sure``."""

    side: int
    name: str
    colours: str
    laid: int
    most: int | None = None
    sure: int | None = None
    most_tiles: list[Move] = field(default_factory=list)
    unblockable: int = 0

    def to_json(self) -> dict:
        """The figures as JSON (sides numbered from 1)."""
        return {
            "side": self.side + 1, "name": self.name, "colours": self.colours, "laid": self.laid,
            "most": self.most, "sure": self.sure,
            "final_low": None if self.sure is None else self.laid + self.sure,
            "final_high": None if self.most is None else self.laid + self.most,
            "most_tiles": [str(move) for move in self.most_tiles], "unblockable": self.unblockable,
        }


@dataclass
class Bounds:
    """Every side's figures, and what they say about the result."""

    sides: list[SideBounds]
    to_move: int | None  # the side to move, None when the game is over

    def known(self) -> bool:
        """Whether every figure was found before the time limit."""
        return all(s.most is not None and s.sure is not None for s in self.sides)

    def can_win(self, side: int) -> bool | None:
        """Whether ``side`` may still end with more tiles than every other (None: unknown).

        No: its most stays at or below what some other side is sure of."""
        if not self.known():
            return None
        me = self.sides[side]
        best = me.laid + me.most  # type: ignore[operator]
        return all(best > other.laid + other.sure for other in self.sides if other.side != side)  # type: ignore[operator]

    def can_draw(self, side: int) -> bool | None:
        """Whether ``side`` may still end level with the best of the others, or better."""
        if not self.known():
            return None
        me = self.sides[side]
        best = me.laid + me.most  # type: ignore[operator]
        return all(best >= other.laid + other.sure for other in self.sides if other.side != side)  # type: ignore[operator]

    def sure_win(self, side: int) -> bool | None:
        """Whether ``side`` wins whatever happens: its sure count beats every other side's most."""
        if not self.known():
            return None
        me = self.sides[side]
        low = me.laid + me.sure  # type: ignore[operator]
        return all(low > other.laid + other.most for other in self.sides if other.side != side)  # type: ignore[operator]

    def to_json(self) -> dict:
        """Every side's figures and the verdicts, as JSON (who is to move is the position's:
        :func:`.rules.to_move_json`)."""
        return {
            "sides": [s.to_json() for s in self.sides],
            "can_win": [self.can_win(s.side) for s in self.sides],
            "can_draw": [self.can_draw(s.side) for s in self.sides],
            "sure_win": [self.sure_win(s.side) for s in self.sides],
        }


def side_bounds(
    rules: GameRules,
    state: State,
    side: int,
    backend: str = GAME_BACKEND,
    deadline: Deadline | None = None,
) -> SideBounds:
    """One side's most and sure counts (see the module docstring); None where time ran out."""
    deadline = deadline or Deadline.never()
    colours = side_colours(rules, side)
    figures = SideBounds(side, rules.seating.side_name(side), "".join(COLOURS[k] for k in colours), state.scores[side])
    if not any(state.possible[k] for k in colours):
        figures.most = figures.sure = 0
        return figures
    try:
        figures.most, chosen = _most(rules, state, side, backend, deadline)
        if chosen is not None:
            figures.most_tiles = _replayed(rules, state, side, chosen)
        figures.sure, figures.unblockable = _sure(rules, state, side, backend, deadline)
    except TimeUp:
        pass
    return figures


def _most(rules: GameRules, state: State, side: int, backend: str, deadline: Deadline) -> tuple[int | None, list | None]:
    """The most tiles and a set reaching it.

    Counting caps it (every colour's supply left or legal tiles left), and early in a game
    the cap is reached: a greedy set in reading order that reaches it settles the question
    without a solver (a solver would have to prove the cap by climbing one tile at a time,
    a pigeonhole proof, slow for SAT, and its "at least" constraints are large in CNF).
    """
    greedy = _greedy(rules, state, side, deadline)
    if len(greedy) == count_cap(rules, state, side):
        return len(greedy), greedy
    model = side_model(rules, state, side, MOST, deadline)
    solver = make_backend(backend, model.formula, deadline=deadline)
    try:
        result = solver.maximize(model.objective(1), time_limit=deadline.remaining())
    finally:
        solver.close()
    if result.status is Status.UNKNOWN:
        raise TimeUp("the time limit came first")
    if result.status is Status.UNSAT:
        raise BoundsBug("no tile set at all, yet the empty set always fits")
    chosen = [model.tiles[var] for var in model.tiles if result.value(var)]
    if result.objective is None or model.tiles_counted(result.objective) != len(chosen):
        raise BoundsBug(f"the solver counts {result.objective} covered cells but chose {len(chosen)} tiles")
    if len(chosen) < len(greedy):
        raise BoundsBug(f"the solver's most ({len(chosen)}) is below a greedy set ({len(greedy)})")
    return len(chosen), chosen


def _greedy(rules: GameRules, state: State, side: int, deadline: Deadline) -> list[tuple[int, int]]:
    """Tiles laid for ``side`` alone, colour by colour, each the first still legal in reading order."""
    chosen = []
    for colour in side_colours(rules, side):
        seat = _seat_for(rules, side, colour)
        while state.possible[colour]:
            if len(chosen) % 32 == 0:
                deadline.check()
            placement = (state.possible[colour] & -state.possible[colour]).bit_length() - 1
            state = rules.play(state, colour, placement, seat)
            chosen.append((colour, placement))
    return chosen


def _sure(rules: GameRules, state: State, side: int, backend: str, deadline: Deadline) -> tuple[int | None, int]:
    """The fewest tiles the side surely lays, and how many unblockable tiles it rests on."""
    model = side_model(rules, state, side, SURE, deadline)
    if not model.unblockable:
        return 0, 0
    supply = min(model.remaining[k] for k in {k for k, _ in model.unblockable})
    solver = make_backend(backend, model.formula, deadline=deadline)
    try:
        result = solver.maximize(model.objective(-1), time_limit=deadline.remaining())
    finally:
        solver.close()
    if result.status is Status.UNKNOWN:
        raise TimeUp("the time limit came first")
    if result.status is Status.UNSAT:
        return supply, len(model.unblockable)  # only using up a supply can end the game
    chosen = [model.tiles[var] for var in model.tiles if result.value(var)]
    if result.objective is None or model.tiles_counted(result.objective) != len(chosen):
        raise BoundsBug(f"the solver counts {result.objective} covered cells but chose {len(chosen)} tiles")
    _check_blocks(rules, state, side, chosen, model.unblockable)
    return min(len(chosen), supply), len(model.unblockable)


def bounds(rules: GameRules, state: State, backend: str = GAME_BACKEND, deadline: Deadline | None = None) -> Bounds:
    """Every side's bounds (see :func:`side_bounds`)."""
    deadline = deadline or Deadline.never()
    sides = [side_bounds(rules, state, side, backend, deadline) for side in range(rules.seating.side_count)]
    to_move = None if state.over else rules.seating.sides[state.to_move]
    return Bounds(sides, to_move)


def _seat_for(rules: GameRules, side: int, colour: int) -> int:
    return next(seat for seat in rules.seating.seats_of(side) if colour in rules.seat_colours[seat])


def _replayed(rules: GameRules, state: State, side: int, chosen: list[tuple[int, int]]) -> list[Move]:
    """Lay ``chosen`` one by one for ``side`` alone, each checked by the referee."""
    moves = []
    for colour, placement in chosen:
        move = rules.move_of(colour, placement)
        seat = _seat_for(rules, side, colour)
        broken = rules.violation(state, move, seat)
        if broken is not None:
            raise BoundsBug(f"the solver's tile {move} breaks a rule: {broken}")
        state = rules.play(state, colour, placement, seat)
        moves.append(move)
    return moves


def _check_blocks(rules: GameRules, state: State, side: int, chosen: list[tuple[int, int]], unblockable: list[tuple[int, int]]) -> None:
    """The sure bound's set must fit and leave no unblockable tile legal (checked by the referee)."""
    _replayed(rules, state, side, chosen)
    for colour, placement in chosen:
        state = rules.play(state, colour, placement, _seat_for(rules, side, colour))
    for colour, placement in unblockable:
        move = rules.move_of(colour, placement)
        if rules.violation(state, move, _seat_for(rules, side, colour)) is None:
            raise BoundsBug(f"the sure bound's tile set leaves {move} legal")
