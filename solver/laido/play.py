"""Laido for ``best``, ``play-vs`` and ``selfplay``: one :class:`placesat.core.play.Playable`
over the plain rules, and the engine's advice.

Seats are the colours (Black 1, White 2): after a pie swap the first player holds seat 2. Moves
are typed and printed as ``laido play`` reads them (``q,r``, ``pass``, ``swap``); a position is
saved in Laido's position JSON.

:meth:`LaidoPlayable.best` looks, in this order and within its deadline:

1. a forced win (:func:`placesat.laido.forced.forced_win`, own moves one at a time up to the
   depth): "wins by force: ...";
2. a defence: when some of the player's moves let the other side win by force with its next
   move (``forced`` from each move's position, one own move deep) and others do not, the move
   that does not ("the only move that stops White's win at ...", or the evaluation's choice
   among "one of N moves"); when every move does, the forced loss, holding out by evaluation;
3. the evaluation: the stones each side still needs to win if the other only passed
   (``reach``'s fewest, at most :data:`EVALUATION_STONES`), theirs minus yours, for the stones
   of both sides' plans (where to build, where to block) and a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.signals import Stop
from placesat.core.play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE, Advice

from .forced import DEFAULT_BACKEND, NO_WIN, WIN, LaidoRules, Memory, forced_win, move_text, seat_of
from .model import BLACK, PASS, SWAP, WHITE, Move, Position, dumps, opponent, parse_move, position_to_json
from .reach import NO, YES, reach_win
from .render import legend_text, render_text
from .rules import IllegalMove, board_order, is_opening, legal_moves, play

NEW_SIDE = 9
"""The board a new game starts on (the usual one, seeds/laido.md)."""
BEST_DEPTH = 2
"""The most own moves ``best`` looks for a forced win when no depth is given (the time limit
usually comes first on a 9-side board)."""
EVALUATION_STONES = 4
"""The evaluation counts the stones a side needs up to this many ("more than 4" beyond)."""
EVALUATION_NAME = "stones still needed to win if the other side only passed (reach): theirs minus yours"


def point_words(move: Move) -> str:
    """A move in a sentence: ``[q, r]``, ``pass`` or ``swap``."""
    return move if isinstance(move, str) else f"[{move[0]}, {move[1]}]"


@dataclass(frozen=True)
class Need:
    """The fewest stones a side needs to win if the other only passed (None: more than the cap)."""

    stones: int | None
    plan: tuple = ()

    def words(self) -> str:
        return f"more than {EVALUATION_STONES}" if self.stones is None else str(self.stones)

    def number(self) -> int:
        return EVALUATION_STONES + 1 if self.stones is None else self.stones


class LaidoPlayable(LaidoRules):
    """Laido as play-vs and selfplay see it (see the module's text)."""

    review_drop = 2
    """A fall ``review`` marks: two stones more needed than the best move leaves."""

    def __init__(self, side: int = NEW_SIDE, backend: str = DEFAULT_BACKEND) -> None:
        super().__init__(backend)
        self.side = side
        self.memory = Memory(self)
        self._needs: dict[tuple, Need] = {}

    def opening(self, players: int) -> Position:
        """The empty board, Black to move (two players only)."""
        if players != 2:
            raise InputError(f"Laido is played by two players, not {players}")
        return Position(self.side)

    def move_text(self, position: Position, move: Move) -> str:
        """``q,r``, ``pass`` or ``swap``."""
        return move_text(move)

    def parse_move(self, position: Position, text: str) -> Move:
        """A legal move typed as ``laido play`` reads it; an :class:`InputError` saying why not."""
        move = parse_move(text, position.lattice)
        try:
            play(position, move)
        except IllegalMove as error:
            raise InputError(f"MOVE: {error}") from None
        return move

    def board_text(self, position: Position, colour: bool) -> str:
        """The board as ``laido play`` draws it, with its legend."""
        return render_text(position) + legend_text(position) + "\n"

    def save_text(self, position: Position) -> str:
        """The position JSON every ``laido`` command reads."""
        return dumps(position_to_json(position))

    def seat_name(self, position: Position, seat: int) -> str:
        """Seat 1 is black, seat 2 white (the colours, whoever swapped)."""
        return ("black", "white")[seat - 1]

    def board_text_after(self, position: Position, colour: bool, last: Move | None) -> str:
        """The board with ``last`` in brackets (a stone's point; a pass or swap shows none), and
        its legend."""
        point = last if isinstance(last, tuple) else None
        return render_text(position, last_move=point) + legend_text(position) + "\n"

    def record_text(self, start: Position, moves: list[Move]) -> str | None:
        """The game record (``{"size", "moves"}``) of a game from the empty board, Black to
        move; None from any other start (a record starts on the empty board)."""
        from .model import Record, record_to_json

        if start != Position(start.size):
            return None
        return dumps(record_to_json(Record(start.size, tuple(moves))))

    def read_record(self, text: str, path: str):
        """The game record in ``text`` (the empty board of its size and its moves, not yet
        replayed), for ``review``; None for a position (no moves)."""
        from placesat.core.review import GameRecord, RecordedMove

        from .model import Record, parse_game

        game = parse_game(text, path)
        if not isinstance(game, Record):
            return None
        return GameRecord(Position(game.size), tuple(RecordedMove(m, f"moves[{i}]") for i, m in enumerate(game.moves)))

    # ------------------------------------------------------------------ advice

    def best(self, position: Position, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
        """The move to play now and why (see the module's text); by ``deadline``, the best so far.

        ``depth`` is the most own moves the forced search looks (default :data:`BEST_DEPTH`);
        with a depth and a deadline that does not come, the answer is the same every run."""
        legal = [m for m in legal_moves(position) if m != SWAP]
        if not legal:
            raise InputError("the game is over (two passes in a row): there is no move to advise")
        mover = position.to_move
        if len(legal) == 1:
            return Advice(legal[0], ONLY_MOVE, f"the only legal move for {mover}")
        fallback = Advice(legal[0], EVALUATION, "the time limit came before any evaluation: the first legal move",
                          evaluation_name=EVALUATION_NAME)
        own = depth or BEST_DEPTH
        if len(self._needs) > Memory.FORGET_AT:
            self._needs.clear()
        try:
            # first what each side needs now: a plan to fall back on, whatever comes next
            plans = self._plans(position, _share(deadline, 0.5))
            fallback = plans or fallback
            found = forced_win(position, own, _share(deadline, 0.4), self.backend, self.memory)
            if found.answer == WIN and found.move is not None:
                return Advice(found.move, FORCED_WIN, _win_words(position, found.within, found.line),
                              tuple(move_text(m) for m in found.line), depth=found.within)
            searched = found.no_win_within or 0
            defence = self._defence(position, legal, _share(deadline, 0.5))
            return self._evaluate(position, defence, deadline, searched, fallback)
        except (TimeUp, Stop):  # a stop (Ctrl-C) too: the caller prints the best so far, then stops
            return fallback

    def evaluate(self, position: Position, seat: int, deadline: Deadline) -> float:
        """For the look-ahead engine: :meth:`evaluation` for the colour of ``seat``."""
        colour = next(c for c in (BLACK, WHITE) if seat_of(c) == seat)
        return float(self.evaluation(position, colour, deadline)[0])

    def candidates(self, position: Position, moves: Sequence[Move], deadline: Deadline) -> Sequence[Move]:
        """For the look-ahead engine (each move scored costs two ``reach`` calls): the stones of
        both sides' plans to win (where to build, where to block; the side needing fewer first)
        and a pass, at most :data:`EVALUATED_MOVES`; every move but the swap when no plan is known."""
        pool = [m for m in moves if m != SWAP]
        _, mine, theirs = self.evaluation(position, position.to_move, deadline)
        plans = [mine.plan, theirs.plan] if mine.number() <= theirs.number() else [theirs.plan, mine.plan]
        planned = list(dict.fromkeys(sorted(plans[0], key=board_order) + sorted(plans[1], key=board_order)))
        if not is_opening(position):
            planned.append(PASS)
        chosen = [m for m in planned if m in pool][:EVALUATED_MOVES]
        return chosen or pool

    def _plans(self, position: Position, deadline: Deadline) -> Advice[Move] | None:
        """The evaluation of the position as it stands, and the first stone of the plan of the
        side that needs fewer stones (the player's own to build, or the other's to block)."""
        mover = position.to_move
        try:
            score, mine, theirs = self.evaluation(position, mover, deadline)
        except (TimeUp, Stop):
            return None
        plans = [mine.plan, theirs.plan] if mine.number() <= theirs.number() else [theirs.plan, mine.plan]
        plan = next((p for p in plans if p), None)
        if plan is None:
            return None
        whose = f"{mover}'s plan to win (to build it)" if plan is mine.plan else f"{opponent(mover)}'s plan to win (to block it)"
        reason = (f"a stone of {whose}, the search cut short before anything better: "
                  f"{_evaluation_words(mine, theirs, score)} as the board stands")
        return Advice(sorted(plan, key=board_order)[0], EVALUATION, reason, evaluation=score, evaluation_name=EVALUATION_NAME)

    def _defence(self, position: Position, legal: Sequence[Move], deadline: Deadline) -> "_Defence | None":
        """Which of the player's moves let the other side win by force with its next move
        (``forced`` one own move deep from each); None when the time came before all were tried."""
        losing: dict[Move, Move | None] = {}
        try:
            for move in legal:
                after = play(position, move)
                if after.is_over:
                    lost = self.verdict(after, deadline).winner != position.to_move
                    threat = None
                else:
                    answer = forced_win(after, 1, deadline, self.backend, self.memory)
                    if answer.answer not in (WIN, NO_WIN):
                        return None
                    lost, threat = answer.answer == WIN, answer.move
                if lost:
                    losing[move] = threat
        except (TimeUp, Stop):
            return None
        return _Defence(losing, [m for m in legal if m not in losing])

    def need(self, position: Position, colour: str, deadline: Deadline) -> Need:
        """The fewest stones ``colour`` needs to win if the other side only passed (at most
        :data:`EVALUATION_STONES`), with the stones of such a win: no stone (the plain scorer),
        then ``reach`` with one stone more at a time (yes or no each: the first "yes" is the
        fewest, and a small question is cheap even on a large board)."""
        if is_opening(position) and colour != position.to_move:
            return Need(None)  # the other side cannot only pass before Black's first stone
        key = (position.black, position.white, position.to_move, position.passes, position.first_pass, colour)
        known = self._needs.get(key)
        if known is None:
            known = self._needs[key] = self._need(position, colour, deadline)
        return known

    def _need(self, position: Position, colour: str, deadline: Deadline) -> Need:
        """:meth:`need`, worked out."""
        if self.winner_after(position, colour, (), deadline) == colour:
            return Need(0)
        for stones in range(1, EVALUATION_STONES + 1):
            answer = reach_win(position, colour, stones, self.backend, fewest=False, deadline=deadline)
            if answer.answer == YES:
                return Need(len(answer.stones), answer.stones)
            if answer.answer != NO:
                raise TimeUp("the time limit came first")
            if stones >= len(position.empty_points):
                break
        return Need(None)

    def evaluation(self, position: Position, colour: str, deadline: Deadline) -> tuple[int, Need, Need]:
        """The evaluation of ``position`` for ``colour``: theirs minus yours (stones still needed)."""
        mine = self.need(position, colour, deadline)
        theirs = self.need(position, opponent(colour), deadline)
        return theirs.number() - mine.number(), mine, theirs

    def _evaluate(self, position: Position, defence: "_Defence | None", deadline: Deadline, searched: int,
                  fallback: Advice[Move]) -> Advice[Move]:
        """The evaluation's choice among the moves the defence allows, best so far at the deadline."""
        mover = position.to_move
        other = opponent(mover)
        candidates: list[Move]
        if defence is not None and defence.safe and defence.losing:
            candidates = list(defence.safe)
        elif defence is not None and not defence.safe:
            candidates = [m for m in legal_moves(position) if m != SWAP]
        else:
            candidates = []
        best: Advice[Move] | None = None
        try:
            if not candidates or len(candidates) > EVALUATED_MOVES:
                # the stones of both sides' plans: where to build and where to block
                _, mine, theirs = self.evaluation(position, mover, deadline)
                planned = list(dict.fromkeys([*mine.plan, *theirs.plan]))
                if not is_opening(position):
                    planned.append(PASS)
                pool = candidates or [m for m in legal_moves(position) if m != SWAP]
                candidates = [m for m in planned if m in pool] or pool
                candidates = candidates[:EVALUATED_MOVES]
            for move in candidates:
                after = play(position, move)
                if after.is_over:
                    won = self.verdict(after, deadline).winner == mover
                    score, mine, theirs = (EVALUATION_STONES + 1 if won else -EVALUATION_STONES - 1), Need(0 if won else None), Need(None if won else 0)
                else:
                    score, mine, theirs = self.evaluation(after, mover, deadline)
                if best is None or score > best.evaluation:
                    best = Advice(move, EVALUATION, "", evaluation=score, evaluation_name=EVALUATION_NAME)
                    best = _with_reason(best, position, defence, mine, theirs, searched, other)
        except (TimeUp, Stop):
            pass
        if best is None and defence is not None and defence.losing and defence.safe:
            # no evaluation in time, but a move that does not lose at once is known
            best = _with_reason(Advice(defence.safe[0], EVALUATION, "", evaluation_name=EVALUATION_NAME), position,
                                defence, Need(None), Need(None), searched, other)
        return fallback if best is None else best


EVALUATED_MOVES = 12
"""The most moves the evaluation scores (each costs two ``reach`` calls)."""


@dataclass(frozen=True)
class _Defence:
    """The player's moves that lose by force at the other side's next move (each with the
    other side's winning reply), and those that do not."""

    losing: dict
    safe: list


def _win_words(position: Position, within: int | None, line: Sequence[Move]) -> str:
    """"wins by force within N own moves: black [1, 2], white [0, 3], black [1, -1]"."""
    colour, steps = position.to_move, []
    for move in line:
        steps.append(f"{colour} passes" if move == PASS else f"{colour} {point_words(move)}")
        colour = opponent(colour)
    plural = "" if within == 1 else "s"
    return f"wins by force within {within} own move{plural}: " + ", ".join(steps)


def _threat(defence: _Defence) -> Move | None:
    """The other side's winning reply met most often among the player's losing moves (the
    first such in board order)."""
    counts: dict[Move, int] = {}
    for reply in defence.losing.values():
        if reply is not None:
            counts[reply] = counts.get(reply, 0) + 1
    if not counts:
        return None
    return max(sorted(counts, key=lambda m: (isinstance(m, str), () if isinstance(m, str) else board_order(m))), key=counts.__getitem__)


def _share(deadline: Deadline, fraction: float) -> Deadline:
    """A deadline ``fraction`` of the time left from now (the same deadline without a limit)."""
    left = deadline.remaining()
    return deadline if left is None else deadline.sooner(left * fraction)


def _evaluation_words(mine: Need, theirs: Need, score: float | None) -> str:
    """"evaluation (...): yours 2, theirs 3: +1"."""
    shown = "?" if score is None else f"{int(score):+d}"
    return f"evaluation ({EVALUATION_NAME}): yours {mine.words()}, theirs {theirs.words()}: {shown}"


def _with_reason(advice: Advice[Move], position: Position, defence: _Defence | None, mine: Need, theirs: Need,
                 searched: int, other: str) -> Advice[Move]:
    """The advice with its reason in words: the defence or the loss it answers, then the evaluation."""
    evaluation = ("no evaluation in the time" if advice.evaluation is None
                  else _evaluation_words(mine, theirs, advice.evaluation))
    kind, reason = EVALUATION, evaluation
    if searched:
        reason += f"; no forced win within {searched} own move{'' if searched == 1 else 's'}"
    if defence is not None and defence.losing:
        threat = _threat(defence)
        if threat == PASS:
            at = f" ({other} would pass next and win)"
        else:
            at = "" if threat is None else f" at {point_words(threat)}"
        if not defence.safe:
            kind = FORCED_LOSS
            reason = f"every move loses: {other} wins by force with its next move whatever {position.to_move} plays; {evaluation}"
        elif len(defence.safe) == 1:
            kind = DEFENCE
            reason = f"the only move that stops {other}'s win{at}"
        else:
            kind = DEFENCE
            reason = f"one of {len(defence.safe)} moves that stop {other}'s win{at}; {evaluation}"
    return Advice(advice.move, kind, reason, evaluation=advice.evaluation, evaluation_name=EVALUATION_NAME, depth=searched)
