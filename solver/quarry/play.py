"""Quarry for ``best``, ``play-vs`` and ``selfplay``: the game as :class:`placesat.core.play.Playable`.

A position here is a :class:`Game`: the record (what is saved, in the game's own JSON) and the
state on the board after it (what the rules play on). Seats: black is 1, blue is 2 (the order
of :data:`placesat.quarry.model.PLAYERS`), whoever moved first.

``best`` recommends, in this order (the first that applies):

1. a win at once ("wins at once: ... completes the line");
2. when the other player has a win at once, the moves after which it has none: "the only move
   that stops blue's win at once (...)", or "one of N moves that stop ...", the evaluation
   choosing among them; when no move stops it, "every move leaves blue a win at once";
3. a forced win within K own moves, K deepening while the time lasts (``forced``): "wins by
   force within K moves: a, b, c" (the principal line, the other's strongest reply between),
   once the rules have replayed it against every reply; when that replay does not finish in
   the time, the search's first move as an evaluation, with no win claimed;
4. when the other, were it to move, could force a win within 2 of its moves: the first move (on
   the other's cheapest paths first) after which it cannot, "stops blue's forced win ...";
5. otherwise the evaluation's choice: the cells still to cover on the cheapest path between the
   zones (:func:`placesat.quarry.forced.line_gap`, the relaxation under ``reach``: heights
   forgotten), the other's minus one's own; then the same in stones at least (those cells
   against the largest stones left); then the cheaper stone in tournament points; never a move
   that leaves the other a win at once while another move does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE, Advice
from placesat.core.signals import Stop

from .forced import NO_WIN, WIN, MAX_MOVES, QuarryGame, forced_win, line_gap, replay_win, stones_for_gap, still_wins
from .model import PASS, PLAYERS, Move, Position, dumps, move_text, opponent, parse_move
from .referee import Game, QuarryReferee, seat
from .rules import IllegalMove, State, legal_moves, line, play
from .threats import winning_moves

EVALUATION_NAME = "cells still to cover between the zones, the other's minus yours"
DEFAULT_DEPTH = 2
"""The forced search's depth (own moves) when neither a depth nor a time limit is given."""
DEFENCE_MOVES = 2
CANDIDATES = 12
"""The look-ahead engine scores this many building moves and this many cutting moves a node."""
"""How far ahead ``best`` looks for the other's forced win to stop (its own moves)."""


@dataclass
class _SoFar:
    advice: Advice


class QuarryPlayable(QuarryReferee):
    """Quarry as :class:`placesat.core.play.Playable` sees a game, over the plain rules;
    ``start``: the new game :meth:`opening` gives (default: the empty default board, 10 x 9,
    zones outside, the default stones, black first)."""

    name = "quarry"
    review_drop = 2
    """A fall ``review`` marks: two cells more to cover than the best move leaves."""

    def __init__(self, start: Position | None = None) -> None:
        self.start = start or Position()

    def opening(self, players: int = 2) -> Game:
        """The new game this playable starts from."""
        if players != 2:
            raise InputError(f"Quarry is a game for 2 players, not {players}")
        return Game.of(self.start)

    def move_text(self, position: Game, move: Move) -> str:
        """``beam c3 s``, ``arch d4 e down``, ``pass``: as ``quarry play`` reads it."""
        return move_text(move, position.state.stones)

    def parse_move(self, position: Game, text: str) -> Move:
        """A typed move that the rules allow here; the refusal names the rule it breaks."""
        move = parse_move(text, position.position.board, position.position.stones)
        try:
            play(position.state, move)
        except IllegalMove as error:
            raise InputError(f"illegal: {error.message}") from None
        return move

    def board_text(self, position: Game, colour: bool) -> str:
        """The top view as ``quarry show`` draws it, its legend, and whose turn it is."""
        from .render import legend_text, render_text

        state = position.state
        won = line(state, state.winner) if state.winner else None
        board = render_text(state, won, colour=colour)
        if colour:
            from rich.console import Console

            screen = Console(force_terminal=True, highlight=False, soft_wrap=True)
            with screen.capture() as captured:
                screen.print(board, end="", markup=True)
            board = captured.get()
        if state.winner is not None:
            status = f"{state.winner} has won"
        elif state.is_over:
            status = "game over: neither player could move (no winner)"
        else:
            status = f"{state.to_move} to move"
        return board + legend_text(state) + "\n" + status

    def save_text(self, position: Game) -> str:
        """The record as JSON, as ``quarry new`` and ``quarry play --out`` write it."""
        return dumps(position.position)

    def seat_name(self, position: Game, seat: int) -> str:
        """The stones' colours: seat 1 black, seat 2 blue (seeds/quarry.md)."""
        return PLAYERS[seat - 1]

    def moves_lines(self, position: Game) -> list[str]:
        """The legal moves one stone to a line, each stone's placements sorted by column, row,
        direction and face (``brick: a1 e, a2 e, ...``); a pass alone."""
        grouped: dict[str, list[tuple[tuple, str]]] = {}
        for move in legal_moves(position.state):
            text = move_text(move, position.state.stones)
            if move == PASS:
                grouped.setdefault(text, []).append(((), ""))
                continue
            stone, cell, *rest = text.split()
            key = (cell[0], int(cell[1:]) if cell[1:].isdigit() else 0, tuple(rest))
            grouped.setdefault(stone, []).append((key, " ".join([cell, *rest])))
        lines = []
        for stone, placed in grouped.items():
            shown = ", ".join(words for _, words in sorted(placed))
            lines.append(f"{stone}: {shown}" if shown else stone)
        return lines

    def read_record(self, text: str, path: str):
        """The game in ``text`` (its board and stones with no move yet, and its moves, not yet
        replayed), for ``review``; each move's player is checked against the turn."""
        from dataclasses import replace

        from placesat.core.review import GameRecord, RecordedMove

        from .model import parse_position

        position = parse_position(text, path)
        start = Game.of(replace(position, moves=()))
        return GameRecord(start, tuple(RecordedMove(p.move, f"moves[{i}]", seat(p.player)) for i, p in enumerate(position.moves)))

    def evaluate(self, position: Game, seat_: int, deadline: Deadline) -> float:
        """For the look-ahead engine: :func:`_evaluation` for ``seat_`` as one number (the cells
        still to cover, the other's minus its own, first; the stones at least to break ties)."""
        value, _ = _evaluation(position.state, PLAYERS[seat_ - 1])
        return value[0] * 100 + value[1]

    def candidates(self, position: Game, moves: Sequence[Move], deadline: Deadline) -> Sequence[Move]:
        """For the look-ahead engine (an engine choice, seeds/quarry.md): every move when either
        side has a win at once (the wins, and the stops among all moves, must be seen); else the
        :data:`CANDIDATES` moves that best build the mover's cheapest paths and the
        :data:`CANDIDATES` that best cut the other's (:meth:`QuarryGame.order`), and a pass."""
        state = position.state
        me = state.to_move
        if len(moves) <= 2 * CANDIDATES or winning_moves(state, me, first_only=True) or winning_moves(state, opponent(me), first_only=True):
            return moves
        build = QuarryGame(me).order(state, moves)[:CANDIDATES]
        cut = QuarryGame(opponent(me)).order(state, moves)[:CANDIDATES]
        return list(dict.fromkeys([*build, *cut, *([PASS] if PASS in moves else [])]))

    def best(self, position: Game, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
        """The recommended move (see the module docstring for the order of reasons), answered by
        ``deadline`` with the best found so far, and on a stop (Ctrl-C) too: the stop stays
        pending, so the caller's next look at the clock raises it. ``depth`` caps the forced
        search (own moves; 1: wins and defences at once and the evaluation only)."""
        state = position.state
        legal = list(legal_moves(state))
        if not legal:
            raise InputError("the game is over: there is no move to recommend")
        if len(legal) == 1:
            return Advice(legal[0], ONLY_MOVE, "a pass: no stone fits" if legal[0] == PASS else "the only legal move")
        so_far = _SoFar(Advice(legal[0], EVALUATION, "nothing finished in the time: the first legal move", evaluation_name=EVALUATION_NAME))
        try:
            return self._best(position, legal, deadline, depth, so_far)
        except (TimeUp, Stop):
            return so_far.advice

    def _best(self, position: Game, legal: list[Move], deadline: Deadline, depth: int | None, so_far: _SoFar) -> Advice[Move]:
        state = position.state
        me = state.to_move
        other = opponent(me)
        text = lambda m: move_text(m, state.stones)  # noqa: E731
        wins = winning_moves(state, me)
        if wins:
            first = wins[0][0]
            return Advice(first, FORCED_WIN, f"wins at once: {text(first)} completes the line", (text(first),), depth=1)
        deadline.check()
        against = winning_moves(state, other)
        if against:
            return self._stop_win_at_once(state, legal, [p for p, _ in against], deadline, so_far)
        # a quick evaluation first, so that a time limit always has an answer to give
        self._evaluated(state, legal, deadline, so_far, None)
        if depth is None and deadline.remaining() is None:
            depth = DEFAULT_DEPTH  # no clock to stop the deepening: a fixed depth
        top = MAX_MOVES if depth is None else min(depth, MAX_MOVES)
        # the time: most to a forced win within 2 (found in about a second on the full board),
        # then to the other's forced win within 2, and what is left to deeper wins
        found = self._forced(position, 2, min(2, top), deadline, None if depth is not None else 0.6)
        if found is not None:
            return found
        if depth is None or depth >= DEFENCE_MOVES:
            share = None if depth is not None else 0.7 * (deadline.remaining() or 0.0)
            try:
                stop = self._stop_forced_win(position, legal, deadline.sooner(share))
            except TimeUp:
                stop = None
            if stop is not None:
                move, plan = stop
                reason = f"stops {other}'s forced win within {DEFENCE_MOVES} of its moves ({plan})"
                value, shown = _evaluation(play(state, move), me)
                return Advice(move, DEFENCE, f"{reason}; {shown}", evaluation=float(value[0]), evaluation_name=EVALUATION_NAME, depth=DEFENCE_MOVES)
        found = self._forced(position, 3, top, deadline, None if depth is not None else 0.5)
        if found is not None:
            return found
        return so_far.advice

    def _forced(self, position: Game, low: int, top: int, deadline: Deadline, share: float | None) -> Advice[Move] | None:
        """A forced win within ``low`` to ``top`` own moves, deepening; each depth gets ``share``
        of the time left (None: no share, the whole deadline). None when none is found in time."""
        state = position.state
        for k in range(low, top + 1):
            limit = deadline if share is None else deadline.sooner(share * (deadline.remaining() or 0.0))
            answer = forced_win(position.position, state, state.to_move, k, limit, check=False)
            if answer.answer == WIN and answer.move is not None:
                within = answer.within or k
                try:
                    replay_win(answer, position.position, state, within, deadline)
                except TimeUp:
                    # a win is claimed only once the rules have replayed it against every reply:
                    # the search's find alone is advice by evaluation, said as such
                    value, shown = _evaluation(play(state, answer.move), state.to_move)
                    found = move_text(answer.move, state.stones)
                    reason = (f"the search found a win within {within} own moves starting with {found}, but its replay "
                              f"on the rules did not finish in the time, so no win is claimed; {shown}")
                    return Advice(answer.move, EVALUATION, reason, evaluation=float(value[0]), evaluation_name=EVALUATION_NAME, depth=within)
                said = tuple(move_text(m, state.stones) for m in answer.line)
                return Advice(answer.move, FORCED_WIN, f"wins by force within {answer.within} own moves (replayed on the rules against every reply): {', '.join(said)}", said, depth=within)
            if answer.no_win_within != k:
                return None  # the time share ran out: no deeper search can finish
        return None

    def _stop_win_at_once(self, state: State, legal: list[Move], against: list, deadline: Deadline, so_far: _SoFar) -> Advice[Move]:
        """The moves after which the other has no win at once (none of its present ones, and no
        new one the move makes); the evaluation chooses among them."""
        me = state.to_move
        other = opponent(me)
        where = ", ".join(p.text(state.stones) for p in against[:3]) + (f" and {len(against) - 3} more" if len(against) > 3 else "")
        stoppers = []
        for move in legal:
            deadline.check()
            after = play(state, move)
            if any(still_wins(after, other, p) for p in against):
                continue
            if not winning_moves(after, other, first_only=True):
                stoppers.append(move)
        if not stoppers:
            reason = f"every move leaves {other} a win at once ({where})"
            so_far.advice = Advice(legal[0], FORCED_LOSS, reason, depth=1)
            return self._evaluated(state, legal, deadline, so_far, (FORCED_LOSS, reason, 1), avoid_loss=False)
        if len(stoppers) == 1:
            return Advice(stoppers[0], DEFENCE, f"the only move that stops {other}'s win at once ({where})", depth=1)
        reason = f"one of {len(stoppers)} moves that stop {other}'s win at once ({where})"
        so_far.advice = Advice(stoppers[0], DEFENCE, reason, depth=1)
        return self._evaluated(state, stoppers, deadline, so_far, (DEFENCE, reason, 1), avoid_loss=False)

    def _stop_forced_win(self, position: Game, legal: list[Move], deadline: Deadline) -> tuple[Move, str] | None:
        """When the other, were it to move now, could force a win within :data:`DEFENCE_MOVES` of
        its moves: the first of ``legal`` (those cutting its cheapest paths first) after which it
        cannot, with its plan in words; None when it has no such win, or no move stops it."""
        state = position.state
        me = state.to_move
        other = opponent(me)
        turned = state.copy()
        turned.to_move = other
        threat = forced_win(position.position, turned, other, DEFENCE_MOVES, deadline, check=False)
        if threat.answer != WIN:
            return None
        # found by the search alone (no replay: the claim is what the move is for, and the move
        # itself is checked by the same search after it); the first move of the other's plan
        plan = f"it would start with {move_text(threat.line[0], state.stones)}" if threat.line else "it has one"
        ordered = QuarryGame(other).order(state, legal)
        for move in ordered:
            deadline.check()
            after = play(state, move)
            if after.winner == me:
                return move, f"and wins; {plan}"  # (a win at once is found before this is asked)
            if winning_moves(after, other, first_only=True):
                continue
            answer = forced_win(position.position, after, other, DEFENCE_MOVES, deadline, check=False)
            if answer.answer == NO_WIN:
                return move, plan
            if answer.answer != WIN:
                raise TimeUp("the time limit came first")  # unknown is no stop
        return None

    def _evaluated(self, state: State, moves: list[Move], deadline: Deadline, so_far: _SoFar,
                   found: tuple[str, str, int] | None, avoid_loss: bool = True) -> Advice[Move]:
        """The move of ``moves`` with the best :func:`_evaluation` after it, then the cheaper stone
        (tournament points), the first of equals; with ``avoid_loss``, never one that leaves the
        other a win at once while another does not."""
        me = state.to_move
        other = opponent(me)
        scored = []
        for count, move in enumerate(moves):
            if count % 32 == 0:
                deadline.check()
            after = play(state, move)
            value, shown = _evaluation(after, me)
            points = 0 if move == PASS else state.stones[move.stone].points  # type: ignore[union-attr]
            scored.append((value, -points, -count, move, shown))
        scored.sort(key=lambda s: s[:3], reverse=True)
        kind, reason, depth = found or (EVALUATION, "", 0)
        for value, _, _, move, shown in scored:
            deadline.check()
            if avoid_loss and winning_moves(play(state, move), other, first_only=True):
                continue
            so_far.advice = Advice(move, kind, f"{reason}; {shown}" if reason else shown, evaluation=float(value[0]), evaluation_name=EVALUATION_NAME, depth=depth)
            return so_far.advice
        value, _, _, move, shown = scored[0]
        so_far.advice = Advice(move, FORCED_LOSS if found is None else kind,
                               (reason + "; " if reason else "") + f"every move leaves {other} a win at once; {shown}",
                               evaluation=float(value[0]), evaluation_name=EVALUATION_NAME, depth=1)
        return so_far.advice


NO_LINE = 99
"""The cells 'to cover' when no line is possible any more (beyond every real count)."""


def _evaluation(state: State, me: str) -> tuple[tuple[int, int], str]:
    """How far ahead ``me`` is: the cells the other still has to cover between the zones minus
    its own (:func:`placesat.quarry.forced.line_gap`), then the same in stones at least
    (:func:`placesat.quarry.forced.stones_at_least`); and the words for it."""
    other = opponent(me)
    if state.winner == me:
        return (NO_LINE, NO_LINE), "evaluation: the line is complete"
    cells = {p: line_gap(state, p) for p in (me, other)}
    need = {p: stones_for_gap(state, p, cells[p]) for p in (me, other)}
    gaps = {p: NO_LINE if cells[p] is None else cells[p] for p in cells}
    stones = {p: NO_LINE if need[p] is None else need[p] for p in need}
    value = (gaps[other] - gaps[me], stones[other] - stones[me])

    def said(p: str) -> str:
        return "no line left" if need[p] is None else f"{gaps[p]}"

    return value, f"evaluation, cells still to cover between the zones: yours {said(me)} vs {other}'s {said(other)}: {value[0]:+d}"
