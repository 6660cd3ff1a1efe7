"""The look-ahead engine: a selective alpha-beta search over any :class:`placesat.core.play.Playable`
that also gives an evaluation (:class:`Evaluated`), with the game's own forced search at the root.

How it chooses a move, for the side to move (two players; with more, the game's own ``best``):

1. the game's ``best`` to :attr:`Lookahead.forced` own moves (its forced search: a win at once
   or by force, the defence against the other's forced win, the only move) with a share of the
   time (on a clock, after its one-move ``best`` with the whole time: :meth:`Lookahead._root_advice`):
   a proven win, an only move, or a stop of a forced win deeper than the look-ahead sees,
   is played as it says;
2. otherwise an alpha-beta (negamax) search, deepening one ply at a time (1, 2, 3 ... plies) up
   to :attr:`Lookahead.plies`, or, without that cap, until the clock or the node budget runs out
   (at most :data:`MAX_PLIES`): at every node each candidate move (``Evaluated.candidates``, all
   the legal moves unless the game narrows them) is played and scored — a finished game by its
   outcome (a win sooner is worth more), any other position by the game's evaluation for the
   side that moved — and only the :attr:`Lookahead.width` best-scored ones are searched deeper
   (the game's ``best`` move is always among them at the root), and more, one at a time, while
   every move searched loses. A reply that wins at once is therefore never missed, however
   narrow the width (every candidate is played and scored), nor a move that stops one (at the
   root, when every candidate loses, the moves the game left out are searched too). When the
   search's move is the game's own choice, or the search finished no more than one ply (the
   evaluation of each move alone, which the game's engine weighed already with its defences),
   the game's advice is the answer (its words say best why); otherwise the search's, kind
   ``evaluation``, with its value and the game's choice named. A move proven won or lost
   within the look-ahead answers at any depth.

Why alpha-beta and not Monte Carlo tree search: the games' evaluations are informative and
costly (a millisecond and more in Python; Laido's asks ``reach``), so a move affords a few hundred
evaluated positions. A narrow alpha-beta spends them on the replies that matter (the other side's
strongest by its own evaluation, and every immediate win); a few hundred random playouts would
say little, and the games' long random games make playouts costlier still.

Budgets: ``seconds`` (the clock: what a player waits, or the CPU the engine spends, with a
:class:`placesat.core.selfplay.CpuDeadline`; not repeatable, since a loaded machine searches
less) and ``nodes`` (positions scored: the same moves on any machine, for reproducible selfplay).
With both, the first to run out ends the search; the deepest finished iteration answers, or an
unfinished one's best so far: it searches the previous answer first (then the game's own
advice), so a move it found better at its depth is better. A position's scored moves are kept
for the rest of the move (by the moves that lead to it), so each iteration scores only the
positions the one before did not reach: deepening costs about what the deepest iteration costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from .errors import InputError
from .limits import Deadline, TimeUp
from .play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE, Advice, Outcome, Playable
from .signals import Stop, pending_stop

WIN = 1_000_000.0
"""The value of a won game for the winner (less one per ply it takes: a sooner win is better)."""
DEFAULT_WIDTH = 6
"""Moves searched deeper at every node: the best-scored, after every candidate was scored."""
DEFAULT_PLIES = 3
"""The deepest iteration (plies: own move, the other's reply, own move again) when neither a cap
nor a budget is given (without a clock or a node budget, deepening would never stop)."""
MAX_PLIES = 12
"""The deepest iteration with a budget and no cap: a short game's tree is searched to its end
sooner, and a deeper one only repeats it."""
DEFAULT_FORCED = 2
"""The game's ``best`` at the root looks this many own moves deep (2: it finds a win forced
within two own moves, and stops the other's, which two plies of search cannot see) (0: the search alone; None:
the game's own default, deepening while the clock lasts)."""
FORCED_SHARE = 0.6
"""With a clock, the share of the time the game's ``best`` at the root may take."""


class Evaluated(Protocol):
    """What the look-ahead needs from a game beyond :class:`placesat.core.play.Playable`."""

    def evaluate(self, position: Any, seat: int, deadline: Deadline) -> float:
        """How good an unfinished ``position`` is for ``seat`` (higher is better; the game's
        evaluation, comparable between positions; far below :data:`WIN` in size)."""

    def candidates(self, position: Any, moves: Sequence[Any], deadline: Deadline) -> Sequence[Any]:
        """The moves of ``moves`` worth scoring (in a fixed order); a game with cheap moves
        gives them all, one with a costly evaluation may narrow them (never to none). Optional:
        without it, every legal move is scored."""


class OutOfNodes(Exception):
    """The node budget is spent."""


@dataclass
class _Budget:
    deadline: Deadline
    nodes: int | None
    used: int = 0

    def spend(self) -> None:
        self.used += 1
        if self.nodes is not None and self.used > self.nodes:
            raise OutOfNodes()
        self.deadline.check()  # every position: an evaluation costs far more than the clock's reading


@dataclass(frozen=True)
class _Scored:
    value: float
    order: int
    move: Any
    after: Any
    over: bool


class Lookahead:
    """The look-ahead engine over ``game`` (a Playable that is also :class:`Evaluated`)."""

    def __init__(self, game: Playable, width: int = DEFAULT_WIDTH, plies: int | None = DEFAULT_PLIES, forced: int | None = DEFAULT_FORCED) -> None:
        self.game = game
        self.width = width
        self.plies = plies
        """The deepest iteration; None: deepen while the clock or the node budget lasts (to
        :data:`MAX_PLIES`; :data:`DEFAULT_PLIES` when there is neither)."""
        self.forced = forced
        self.finished = 0
        """The deepest iteration the last :meth:`best` finished (0: none; for measuring)."""
        self._partial: tuple[Any, float, int] | None = None
        self._seen: dict[Any, list[_Scored]] = {}
        self._refuted: dict[Any, Any] = {}

    def best(self, position: Any, deadline: Deadline, nodes: int | None = None) -> Advice:
        """The move for the side to move, with its reason (module docstring), by ``deadline``
        and within ``nodes`` scored positions (None: no such budget)."""
        game = self.game
        legal = list(game.moves(position))
        if not legal:
            raise InputError("the game is over: there is no move to recommend")
        if len(legal) == 1:
            return Advice(legal[0], ONLY_MOVE, "the only legal move")
        if self.forced != 0 or game.players(position) != 2:
            root = self._root_advice(position, deadline)
            if pending_stop() is not None:
                return root  # Ctrl-C: the game's own answer so far, as it words it
        else:
            root = Advice(legal[0], EVALUATION, "nothing was searched in the time: the first legal move")
        if game.players(position) != 2 or root.kind in (FORCED_WIN, ONLY_MOVE) or (root.kind == DEFENCE and root.depth >= 2):
            return root
        budget = _Budget(deadline, nodes)
        answer: tuple[Any, float, int] | None = None
        deepest = self.deepest(deadline, nodes)
        self._seen, self._refuted = {}, {}
        try:
            scored = self._scored(position, budget, also=(root.move,))  # once: the same for every iteration
            self.finished = 0
            for plies in range(1, deepest + 1):
                self._partial = None
                answer = self._root(position, plies, budget, root.move, answer, scored)
                self.finished = plies
                if abs(answer[1]) >= WIN - deepest:
                    break  # a result proven within the look-ahead: deeper cannot change it
        except (TimeUp, OutOfNodes, Stop):
            # the best found so far; a stop stays pending for the caller
            if self._partial is not None:
                answer = self._partial
        finally:
            self._seen, self._refuted = {}, {}
        if answer is None:
            return root
        move, value, plies = answer
        if move == root.move and value < WIN / 2:
            return root  # the look-ahead agrees: the game's own advice says best why
        if plies < 2 and abs(value) < WIN / 2:
            # one ply is the evaluation of each move alone, which the game's own engine weighed
            # already, with more than the evaluation (its defences): it answers (at 0.25 s a move
            # on Quarry and Logi-Sticks the search often finishes no more)
            return root
        return Advice(move, EVALUATION, self._reason(position, root, move, value, plies),
                      evaluation=value, evaluation_name="look-ahead", depth=plies)

    def _root_advice(self, position: Any, deadline: Deadline) -> Advice:
        """The game's own advice at the root: its ``best`` to :attr:`forced` own moves with
        :data:`FORCED_SHARE` of the time. On a clock, with two players and a depth of 2 or more,
        the game's one-move engine first, with the whole time (its evaluation and its defences
        at once: what ``best:d1`` answers in the same time), then the deeper one with its share
        of what is left, whose answer counts only when it proved something (a win, a defence, a
        loss) or looked deeper than the first: cut short, a game's deeper search may know less
        than its one-move answer (on Quarry at 0.15 s, often not one move evaluated)."""
        game = self.game
        advise = getattr(game, "advise", None)  # a game whose best raises a Ctrl-C: its answer before it

        def ask(limit: Deadline, depth: int | None) -> Advice:
            return advise(position, limit, depth)[0] if advise is not None else game.best(position, limit, depth)

        remaining = deadline.remaining()
        depth = self.forced or None  # None: the game's own default (deepening while the clock lasts)
        if remaining is None:
            return ask(deadline, depth)
        if depth is None or depth < 2 or game.players(position) != 2:
            return ask(deadline.sooner(FORCED_SHARE * remaining), depth)
        first = ask(deadline, 1)
        if first.kind in (FORCED_WIN, ONLY_MOVE) or pending_stop() is not None or deadline.expired():
            return first
        deeper = ask(deadline.sooner(FORCED_SHARE * (deadline.remaining() or 0.0)), depth)
        if deeper.kind in (FORCED_WIN, DEFENCE, FORCED_LOSS, ONLY_MOVE) or deeper.depth > first.depth:
            return deeper
        return first

    def deepest(self, deadline: Deadline, nodes: int | None) -> int:
        """The deepest iteration this move may reach: the cap, or with none, :data:`MAX_PLIES`
        while a clock or a node budget will stop it (:data:`DEFAULT_PLIES` otherwise)."""
        if self.plies is not None:
            return self.plies
        return MAX_PLIES if nodes is not None or deadline.remaining() is not None else DEFAULT_PLIES

    def _reason(self, position: Any, root: Advice, move: Any, value: float, plies: int) -> str:
        text = self.game.move_text(position, move)
        if value >= WIN - MAX_PLIES - 1:
            return f"wins within {plies} plies whatever the other plays (look-ahead)"
        if value <= -WIN + MAX_PLIES + 1:
            return f"every move loses within {plies} plies against best replies; {text} holds out as long as any (look-ahead)"
        head = f"look-ahead {plies} plies ({self.width} best-scored moves a node): {value + 0.0:+g} for the mover"
        return f"{head}; the game's own advice was {self.game.move_text(position, root.move)} ({root.kind})"

    def _scored(self, position: Any, budget: _Budget, also: Sequence[Any] = (), narrow: bool = True,
                left_out: Sequence[Any] = (), path: tuple | None = None) -> list[_Scored]:
        """Every candidate move (and ``also``; every legal move but ``left_out`` when not
        ``narrow``), played and scored for the side that moves, best first. With ``path`` (the
        moves from the root to ``position``), kept for the rest of the move: a later iteration
        that reaches the position again scores nothing."""
        key = None
        if path is not None:
            try:
                key = path if hash(path) is not None else None
            except TypeError:  # moves that cannot be hashed: scored each time
                key = None
            if key is not None and key in self._seen:
                return self._seen[key]
        game = self.game
        mover = game.to_move(position)
        moves = list(game.moves(position))
        narrowed = getattr(game, "candidates", None)
        if not narrow:
            moves = [m for m in moves if m not in left_out]
        elif narrowed is not None:
            moves = list(narrowed(position, moves, budget.deadline)) or moves
            moves += [m for m in also if m not in moves]
        out = []
        for order, move in enumerate(moves):
            budget.spend()
            after = game.play(position, move)
            ended = game.outcome(after)
            if ended is not None:
                out.append(_Scored(_final(ended, mover), order, move, after, True))
            else:
                out.append(_Scored(float(game.evaluate(after, mover, budget.deadline)), order, move, after, False))  # type: ignore[attr-defined]
        out.sort(key=lambda s: (-s.value, s.order))
        if key is not None:
            self._seen[key] = out
        return out

    def _root(self, position: Any, plies: int, budget: _Budget, advised: Any,
              previous: tuple[Any, float, int] | None, scored: list[_Scored]) -> tuple[Any, float, int]:
        """One iteration at the root over its ``scored`` moves: (move, value, plies); the
        previous answer is searched first (then the game's own advice), and an unfinished
        iteration answers (as ``_partial``, the budget's exception going on) only once it has
        searched it."""
        first = previous[0] if previous is not None and previous[2] >= 2 else advised  # one ply does not answer
        chosen = scored[: self.width]
        for wanted in (advised, first):
            if not any(s.move == wanted for s in chosen):
                chosen += [s for s in scored if s.move == wanted]
        chosen.sort(key=lambda s: (s.move != first, s.move != advised, -s.value, s.order))
        rest = [s for s in scored if s not in chosen]
        best: tuple[Any, float, int] | None = None
        alpha = -2 * WIN
        try:
            for count, s in enumerate(chosen + rest):
                if count >= len(chosen) and best is not None and best[1] > -WIN / 2:
                    break  # past the width only while every move searched loses
                value = s.value if s.over or plies == 1 else self._deeper(position, s.after, plies - 1, 1, alpha, 2 * WIN, budget, (s.move,))
                if best is None or value > best[1]:
                    best = (s.move, value, plies)
                    alpha = max(alpha, value)
            if best is not None and best[1] <= -WIN / 2:
                # every candidate loses: the moves the game left out, in case one does not
                for s in self._scored(position, budget, narrow=False, left_out=[s.move for s in scored]):
                    value = s.value if s.over or plies == 1 else self._deeper(position, s.after, plies - 1, 1, alpha, 2 * WIN, budget, (s.move,))
                    if value > best[1]:
                        best = (s.move, value, plies)
                        alpha = max(alpha, value)
                    if value > -WIN / 2:
                        break
        except (TimeUp, OutOfNodes, Stop):
            # the previous answer was searched first at this depth: a move found better at
            # this depth is better; otherwise the previous iteration answers
            self._partial = best
            raise
        assert best is not None
        return best

    def _deeper(self, position: Any, after: Any, plies: int, ply: int, alpha: float, beta: float, budget: _Budget, path: tuple) -> float:
        """The value of ``after`` (a move from ``position``) for the side that moved, within
        (alpha, beta): the other's value negated, or its own when it moves again (as in the
        Lixso game when the other has no tile left)."""
        if self.game.to_move(after) == self.game.to_move(position):
            return self._negamax(after, plies, ply, alpha, beta, budget, path)
        return -self._negamax(after, plies, ply, -beta, -alpha, budget, path)

    def _negamax(self, position: Any, plies: int, ply: int, alpha: float, beta: float, budget: _Budget, path: tuple) -> float:
        """The value of ``position`` (reached by ``path`` from the root) for its side to move,
        ``plies`` more plies deep."""
        scored = self._scored(position, budget, path=path)
        if not scored:
            return 0.0
        top = scored[0]
        if plies == 1 or top.over and top.value > 0:
            return top.value - ply if top.value >= WIN / 2 else top.value
        # the move that was best here in the iteration before (or cut it off) first: alpha-beta
        # cuts most when the best move comes first, and a shallower search's best usually is
        # (within the width, so the moves searched stay the same)
        first = self._refuted.get(path)
        order = scored
        if first is not None and any(s.move == first for s in scored[: self.width]):
            order = [s for s in scored if s.move == first] + [s for s in scored if s.move != first]
        value = -2 * WIN
        best = None
        for count, s in enumerate(order):
            if count >= self.width and value > -WIN / 2:
                break  # past the width only while every move searched loses
            here = s.value if s.over else self._deeper(position, s.after, plies - 1, ply + 1, alpha, beta, budget, path + (s.move,))
            if s.over and here >= WIN / 2:
                here -= ply
            if here > value:
                value, best = here, s.move
            alpha = max(alpha, here)
            if alpha >= beta:
                break
        if best is not None:
            try:
                self._refuted[path] = best
            except TypeError:  # moves that cannot be hashed: no memory between iterations
                pass
        return value


def _final(ended: Outcome, mover: int) -> float:
    """A finished game's value for ``mover``: won, drawn (0) or lost."""
    if ended.winner is None:
        return 0.0
    return WIN if ended.winner == mover else -WIN
