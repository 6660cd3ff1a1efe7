"""Reachable wins: can a player have a line within K plies if everybody helps?

Every player moves in turn (a placement, or a skip only when it cannot place); the question is
whether some sequence of at most K plies ends with the target player's line, nobody having won
before. The plies are unrolled into one formula (:func:`placesat.lsd.encode.encode_reach`) and
solved; the moves of a model are replayed on :mod:`placesat.lsd.rules`, and the answer printed is
that replay. A "no" is an unsatisfiable formula: a proof.

The skip rule ("only when stuck") is added lazily: the formula first lets any ply skip, which
can only make more sequences possible, so its "no" is already a proof; when a model skips on
a ply where the replay finds a legal placement, that ply's stuck clauses are added and the
solver asked again. Among the winning sequences the shortest is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from placesat.core.backend import Status, make_backend
from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp, as_deadline

from .encode import ReachEncoding, encode_reach
from .model import SKIP, Move, Position, move_text
from .rules import IllegalMove, Turn, can_place, is_draw, play_turn, winner

YES, NO, UNKNOWN = "yes", "no", "unknown"
MAX_PLIES = 24
"""The most plies a reach query unrolls (more would take far longer than anyone waits)."""


class SolverFailure(RuntimeError):
    """A solver answer that the plain rules contradict: a defect in the encoding."""


@dataclass
class ReachAnswer:
    """``answer``: "yes" (``moves`` lead to ``player``'s line), "no" (no sequence of at most
    ``plies`` plies does) or "unknown" (the time limit came first)."""

    player: int
    plies: int
    answer: str
    moves: list[Move] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    solver_calls: int = 0
    shortest: bool = True
    """False when the time limit came while a shorter sequence was looked for: the "yes" and its
    sequence stand (replayed by the rules), but a shorter one may exist."""

    @property
    def line_plies(self) -> int:
        """The number of plies of the winning sequence."""
        return len(self.moves)

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON: the moves with who plays them and what they capture."""
        return {
            "player": self.player,
            "plies_allowed": self.plies,
            "answer": self.answer,
            "moves": [
                {"move": move_text(t.move), "player": t.before.to_move, "captures": [list(c) for c, _ in t.captured]}
                for t in self.turns
            ],
            "solver_calls": self.solver_calls,
            "shortest": self.shortest,
        }


def check_plies(plies: int) -> int:
    """``plies`` when it is from 0 to :data:`MAX_PLIES`."""
    if not 0 <= plies <= MAX_PLIES:
        raise InputError(f"--plies must be from 0 to {MAX_PLIES}, not {plies}")
    return plies


def reach_win(
    position: Position,
    player: int,
    plies: int,
    backend: str = "sat",
    time_limit: "Deadline | float | None" = None,
) -> ReachAnswer:
    """Is there a sequence of at most ``plies`` legal plies after which ``player`` has a line and
    nobody won before? The shortest such sequence, replayed by the rules; or a proven "no"; or
    "unknown" when the time limit (a :class:`Deadline` or seconds) comes first."""
    check_plies(plies)
    if not 1 <= player <= position.players:
        raise InputError(f"--player must be from 1 to {position.players}, not {player}")
    deadline = as_deadline(time_limit)
    try:
        return _reach(position, player, plies, backend, deadline)
    except TimeUp:
        return ReachAnswer(player, plies, UNKNOWN)


def _reach(position: Position, player: int, plies: int, backend: str, deadline: Deadline) -> ReachAnswer:
    won = winner(position)
    if won is not None:
        return ReachAnswer(player, plies, YES if won == player else NO)
    # an empty field with a mover without tiles: the skip is forced, and the encoding assumes a first tile
    prefix: list[Turn] = []
    while not position.field and not can_place(position, position.to_move) and not is_draw(position) and len(prefix) < plies:
        prefix.append(play_turn(position, SKIP))
        position = prefix[-1].after
    left = plies - len(prefix)
    if is_draw(position):
        return ReachAnswer(player, plies, NO)
    movers = []
    mover = position.to_move
    for _ in range(left):
        movers.append(mover)
        mover = position.next_player(mover)
    mine = [t for t in range(1, left + 1) if movers[t - 1] == player]
    if not mine:
        return ReachAnswer(player, plies, NO)
    encoding = encode_reach(position, player, mine[-1], deadline)
    solver = make_backend(backend, encoding.formula, deadline=deadline)
    search = _Search(encoding, solver, deadline, position)
    try:
        found = search.winning_line(mine[-1])
        if found is None:
            return ReachAnswer(player, plies, NO, solver_calls=search.calls)
        shortest = True
        try:
            for t in mine:
                if t >= len(found):
                    break
                shorter = search.winning_line(t)
                if shorter is not None:
                    found = shorter
                    break
        except TimeUp:
            shortest = False  # the sequence found answers the question; only its length is open
    finally:
        solver.close()
    turns = prefix + found
    return ReachAnswer(player, plies, YES, [t.move for t in turns], turns, search.calls, shortest)


class _Search:
    """Solver calls on one encoding, with the skip rule added ply by ply where a model broke it."""

    def __init__(self, encoding: ReachEncoding, solver, deadline: Deadline, position: Position) -> None:
        self.encoding = encoding
        self.solver = solver
        self.deadline = deadline
        self.position = position
        self.refined: set[int] = set()
        self.calls = 0

    def winning_line(self, by: int) -> list[Turn] | None:
        """A replayed sequence in which the target player wins by ply ``by``, or None (proven)."""
        while True:
            self.deadline.check()
            self.calls += 1
            result = self.solver.solve([self.encoding.goal(by)], time_limit=self.deadline.remaining())
            if result.status is Status.UNKNOWN:
                raise TimeUp("the time limit came first")
            if result.status is Status.UNSAT:
                return None
            end = next(t for t in range(1, by + 1) if result.value(self.encoding.goal(t)))
            moves = self.encoding.moves(result.value, end)
            turns, broken_skip = self._replay(moves)
            if broken_skip is None:
                return turns
            self._refine(broken_skip)

    def _replay(self, moves: list[Move]) -> tuple[list[Turn], int | None]:
        """The turns of a model's moves, up to the first win; or the first ply whose skip the rules
        refuse (the mover could place). Anything else the rules refuse is a defect."""
        position = self.position
        turns: list[Turn] = []
        for t, move in enumerate(moves, start=1):
            if move == SKIP and can_place(position, position.to_move):
                if t in self.refined:
                    raise SolverFailure(f"ply {t}: the solver skipped although its stuck clauses were added")
                return turns, t
            try:
                turn = play_turn(position, move)
            except IllegalMove as error:
                raise SolverFailure(f"ply {t}: the solver's move {move_text(move)} is illegal: {error}") from None
            turns.append(turn)
            position = turn.after
            if turn.winner is not None:
                if turn.winner != self.encoding.player:
                    raise SolverFailure(f"ply {t}: player {turn.winner} wins first in the solver's sequence")
                return turns, None
        raise SolverFailure(f"the solver's sequence of {len(moves)} plies does not end in a win for player {self.encoding.player}")

    def _refine(self, ply: int) -> None:
        self.refined.add(ply)
        for clause in self.encoding.stuck_clauses(ply, self.solver.new_var):
            self.solver.add_clause(clause)
