"""Game-tree search for two sides and an integer outcome, knowing nothing of any game.

The game is seen through :class:`SearchGame`: positions, moves, whether the side to move
maximises the outcome (side 0) or minimises it (side 1; sides need not alternate), the
outcome once the game is over, and proven bounds on the outcome. The search is alpha-beta
(fail-soft minimax) with a transposition table of proven bounds, the game's bounds as
cut-offs, and the table's best move tried first. On top of it:

- :meth:`Search.solve` finds the exact value by null-window tests (the sign first, so a
  win, loss or draw is known before the margin), with the move that achieves it; when the
  game knows the root's value without search (:meth:`SearchGame.final`), the move is still
  one proven to keep it (:meth:`Search.keeping_move`), never just any move;
- before that, under a deadline, iterative deepening with the game's estimate at the
  horizon gives a considered move early (it may take a set share of the time); when the
  deadline comes first, the best move found so far is kept and the value is what the tests
  proved.

Values are for side 0: side 0 wants them high, side 1 low. A value returned together with
``exact=True`` is a proven fail-soft bound: at most the value when it is at most the window's
alpha, at least the value when it is at least beta, the exact value in between. Only such
values enter the table; estimates never do, so a proven answer never rests on a guess.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Generic, Hashable, Protocol, Sequence, TypeVar

from placesat.core.limits import Deadline, TimeUp
from placesat.core.signals import Stop

State = TypeVar("State")
Move = TypeVar("Move")

INF = math.inf
CHECK_EVERY = 8  # nodes between looks at the clock (a node can cost milliseconds on a large grid)
DEFAULT_TABLE_LIMIT = 2_000_000  # entries; about 150-200 bytes each on 9x9 (measured), so at most ~400 MB


class SearchGame(Protocol[State, Move]):
    """What the search needs to know about a game."""

    def key(self, state: State) -> Hashable:
        """Equal for positions that have the same future (the transposition table's key)."""

    def maximising(self, state: State) -> bool:
        """Whether the side to move is side 0 (it wants the value high)."""

    def final(self, state: State) -> int | None:
        """The exact value when it is known without search (the game is over, or the game can
        count it), else None. Where it is known but moves remain, :meth:`Search.solve` still
        names a move, one proven to keep it."""

    def bounds(self, state: State) -> tuple[float, float]:
        """Proven bounds (lowest, highest) on the value with best play from here."""

    def moves(self, state: State, first: Move | None) -> Sequence[Move]:
        """The legal moves, most promising first; ``first`` (when legal) goes at the front.
        Where :meth:`final` knows the value but moves remain, and ``first`` is None, the first
        move keeps that value."""

    def play(self, state: State, move: Move) -> State:
        """The position after ``move``."""

    def estimate(self, state: State) -> float:
        """A guess of the value, for the horizon of a depth-limited search."""


@dataclass(slots=True)
class Entry:
    """What the table knows of a position: proven bounds on its value and a move to try first."""

    lower: float = -INF
    upper: float = INF
    move: object = None


@dataclass
class Answer(Generic[Move]):
    """The result of :meth:`Search.solve`.

    ``lower``/``upper`` are proven bounds on the value (equal when it is known); ``move`` is
    the best move found: one that achieves the value when the value is known, otherwise the
    choice of the deepest search that finished (None when the game is over). ``depth`` is the
    deepest iteration finished, ``nodes`` the positions visited.
    """

    lower: float
    upper: float
    move: Move | None
    estimate: float | None = None
    depth: int = 0
    nodes: int = 0
    complete: bool = False
    stats: dict = field(default_factory=dict)
    stopped: Stop | None = None
    """A Ctrl-C or SIGTERM that ended the search: what is here is what was found before it
    (the caller says so, then lets the stop end the command)."""
    move_checked: bool = False
    """Whether ``move`` is proven to keep the known value (by :meth:`Search.keeping_move`, or
    by the game's count where it counted the value); a deadline can come before the check."""

    @property
    def value(self) -> int | None:
        """The exact value, when proven."""
        return int(self.lower) if self.lower == self.upper else None


class Search(Generic[State, Move]):
    """Alpha-beta over a :class:`SearchGame` with a transposition table, under a deadline."""

    def __init__(self, game: SearchGame, deadline: Deadline | None = None, table_limit: int = DEFAULT_TABLE_LIMIT) -> None:
        self.game = game
        self.deadline = deadline or Deadline.never()
        self.table: dict[Hashable, Entry] = {}
        self.table_limit = table_limit
        self.nodes = 0
        self.horizon_reached = False
        self.cleared = 0

    # ----------------------------------------------------------------- the core

    def _store(self, key: Hashable) -> Entry:
        entry = self.table.get(key)
        if entry is None:
            if len(self.table) >= self.table_limit:
                # keep memory bounded: start again (proven bounds are lost, never wrong)
                self.table.clear()
                self.cleared += 1
            entry = self.table[key] = Entry()
        return entry

    def search(self, state: State, alpha: float, beta: float, depth: float) -> tuple[float, bool, Move | None]:
        """Fail-soft alpha-beta to ``depth`` plies (``math.inf``: to the end).

        Returns the value, whether it is proven (see the module docstring), and the move that
        decided it (a cut-off move, or the best one).
        """
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.deadline.check()
        game = self.game
        final = game.final(state)
        if final is not None:
            return final, True, None
        key = game.key(state)
        lower, upper = game.bounds(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            lower, upper, first = max(lower, entry.lower), min(upper, entry.upper), entry.move
        if lower >= beta or lower == upper:
            return lower, True, first
        if upper <= alpha:
            return upper, True, first
        if depth <= 0:
            self.horizon_reached = True
            return min(max(game.estimate(state), lower), upper), False, first
        low, high = max(alpha, lower), min(beta, upper)
        a, b = low, high
        maximising = game.maximising(state)
        best = -INF if maximising else INF
        best_move = None
        proven = True
        cut = False
        for move in game.moves(state, first):
            value, exact, _ = self.search(game.play(state, move), a, b, depth - 1)
            proven = proven and exact
            if maximising:
                if value > best or best_move is None:
                    best, best_move = value, move
                if value >= b and exact:
                    cut = True
                    break
                a = max(a, value)
            else:
                if value < best or best_move is None:
                    best, best_move = value, move
                if value <= a and exact:
                    cut = True
                    break
                b = min(b, value)
            if a >= b:  # a guess closed the window: no proof from here
                break
        best = min(max(best, lower), upper)
        entry = self._store(key)
        entry.move = best_move
        if cut or proven:
            if best <= low:
                entry.upper = min(entry.upper, best)
            elif best >= high:
                entry.lower = max(entry.lower, best)
            else:
                entry.lower = entry.upper = best
            return best, True, best_move
        return best, False, best_move

    # ----------------------------------------------------------------- the driver

    def solve(self, root: State, max_depth: int, deepen_seconds: float = 0.0) -> Answer:
        """The value of ``root`` with the move that achieves it, or as much as the deadline allows.

        ``max_depth``: no game from ``root`` lasts longer (in moves). ``deepen_seconds``: how
        long depth-limited searches (1, 2, ... plies, the estimate at the horizon) may take
        first, for a good move should the exact search not finish; one ply is always
        searched, for a move to fall back on.
        """
        game = self.game
        final = game.final(root)
        if final is not None:
            # known without search (the game is over, or the game counted it): a move is still
            # owed while one is left, and it must keep that value, checked like any other
            move = None
            try:
                if game.moves(root, None):
                    move = self.keeping_move(root, final)
            except TimeUp:
                # no time left to check it: the game's first choice, which keeps a value it
                # counted (see SearchGame.moves)
                move = next(iter(game.moves(root, None)), None)
            except Stop as stop:
                return Answer(final, final, None, final, 0, self.nodes, True, stopped=stop)
            return Answer(final, final, move, final, 0, self.nodes, True, move_checked=move is not None)
        maximising = game.maximising(root)
        lower, upper = game.bounds(root)
        answer = Answer(lower, upper, None, None, 0, 0)
        started = time.monotonic()
        budget = deepen_seconds
        try:
            for depth in range(1, max_depth):
                self.horizon_reached = False
                value, exact, move = self.search(root, -INF, INF, depth)
                answer.move, answer.estimate, answer.depth = move, value, depth
                if exact or not self.horizon_reached or time.monotonic() - started > budget / 3:
                    break  # the next ply would cost about three times as much
            lower, upper = self._bisect(root, answer, maximising)
            answer.lower, answer.upper, answer.complete = lower, upper, True
            answer.depth = max_depth
        except TimeUp:
            pass
        except Stop as stop:  # the best found so far is kept, and the stop goes on after it is shown
            answer.stopped = stop
        answer.nodes = self.nodes
        answer.stats = {"table": len(self.table), "table_cleared": self.cleared}
        return answer

    def _bisect(self, root: State, answer: Answer, maximising: bool) -> tuple[float, float]:
        """Null-window tests to the end of the game until the value is known.

        The first test is "does side 0 win?" (value >= 1), then the draw; then the margin.
        Each test that proves a bound from the mover's side also proves a move achieving it.
        """
        entry = self.table.get(self.game.key(root))
        lower, upper = self.game.bounds(root)
        if entry is not None:
            lower, upper = max(lower, entry.lower), min(upper, entry.upper)
        guesses = [1, 0]  # win? then draw?
        while lower < upper:
            self.deadline.check()
            if guesses:
                target = guesses.pop(0)
                if not lower < target <= upper:
                    continue
            else:
                target = math.floor((lower + upper) / 2) + 1  # test "value >= target"
            value, exact, move = self.search(root, target - 1, target, math.inf)
            assert exact, "a search to the end of the game is always proven"
            if value >= target:
                lower = max(lower, value)
                if maximising and move is not None:
                    answer.move = move  # it achieves at least the new lower bound
            else:
                upper = min(upper, value)
                if not maximising and move is not None:
                    answer.move = move  # it holds side 0 to at most the new upper bound
            answer.lower, answer.upper = lower, upper
        # a deadline here leaves the value known and the move unchecked (said so by the caller)
        answer.lower, answer.upper = lower, upper
        answer.move = self.keeping_move(root, lower, answer.move)
        answer.move_checked = True
        return lower, upper

    def principal_line(self, root: State, value: float, max_moves: int, first: Move | None = None,
                       line: list[Move] | None = None) -> list[Move]:
        """Best play from ``root`` whose value ``value`` is proven: at each position, the first
        move that keeps the value (``first`` at the root, then the table's), each proven by a
        null-window search, until no move is left. The moves are appended to ``line`` as they
        are found, so that a caller whose deadline cut the line short (``TimeUp``) keeps them."""
        line = [] if line is None else line
        state = root
        while len(line) < max_moves:
            self.deadline.check()
            entry = self.table.get(self.game.key(state))
            hint = first if not line else entry.move if entry is not None else None
            moves = self.game.moves(state, hint)
            if not moves:
                break
            maximising = self.game.maximising(state)
            chosen = next((move for move in moves if self._achieves(state, move, value, maximising)), None)
            if chosen is None:
                raise RuntimeError(f"no move keeps the proven value {value} after {len(line)} moves of the line")
            line.append(chosen)
            state = self.game.play(state, chosen)
        return line

    def table_line(self, root: State, first: Move | None, max_moves: int) -> list[Move]:
        """The line the searches so far prefer, when the value is not proven: ``first``, then
        the move the table remembers at each position, as long as it remembers one (no search:
        it is read off after a time limit or a Ctrl-C)."""
        line: list[Move] = []
        state = root
        move = first
        while move is not None and len(line) < max_moves and move in self.game.moves(state, None):
            line.append(move)
            state = self.game.play(state, move)
            entry = self.table.get(self.game.key(state))
            move = entry.move if entry is not None else None
        return line

    def _achieves(self, root: State, move: Move, value: float, maximising: bool) -> bool:
        """Whether ``move`` from ``root`` is proven to keep the value at ``value`` for the mover."""
        child = self.game.play(root, move)
        if maximising:
            got, _, _ = self.search(child, value - 1, value, math.inf)
            return got >= value
        got, _, _ = self.search(child, value, value + 1, math.inf)
        return got <= value

    def keeping_move(self, root: State, value: float, first: Move | None = None) -> Move:
        """A move from ``root``, whose value ``value`` is proven, that keeps it for the side to
        move, proven by a null-window search after it: ``first`` when it does, otherwise the
        first of the game's moves (in its order) that does. ``RuntimeError`` when none does:
        the value was wrong, a defect."""
        maximising = self.game.maximising(root)
        if first is not None and self._achieves(root, first, value, maximising):
            return first
        for move in self.game.moves(root, None):
            if move != first and self._achieves(root, move, value, maximising):
                return move
        raise RuntimeError(f"no move keeps the proven value {value}")
