"""A game looked at again, move by move, and the best moves of a position, ranked: the same
for every game, through :class:`placesat.core.play.Playable` only.

``review`` replays a game record on the plain rules (``Playable.parse_move`` and ``play``: an
illegal move ends the review at its ply, with what came before) and asks the game's ``best``
about every position on the way, within a time per move and a time for the whole review.

What a position is worth to a seat is one number (:class:`Standing`): ``+inf`` when it wins by
force (the engine proved it: ``forced win``, or the game is won), ``-inf`` when it loses by
force (``forced loss``, or lost), else the engine's evaluation (a game whose ``best`` proves
something less than the game, as Logi-Sticks' point by force, says so with
``forced_win_is_game_win = False``: its proofs are read as their evaluation) (in the game's own units: see
each game's ``EVALUATION_NAME``), from the view of the seat to move. With two seats what one
gains the other loses, so a position's worth to the seat that just moved is minus its worth to
the seat to move; with more seats only proven results carry over (an evaluation is the mover's).

A move is worth the position after it, seen from the seat that made it. Each ply compares the
move played with the engine's best move, both measured that way (one ``best`` call on the
position after each), and marks:

- :data:`MISSED_WIN`: the mover could win by force, and after the move played it no longer
  (provably, or as far as the engine could tell in its time) wins by force;
- :data:`INTO_LOSS`: after the move the mover loses by force, and it did not before;
- :data:`DROP`: the evaluation fell by at least the drop given (the game's units) against the
  best move.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import InputError
from .inputs import json_path, parse_json
from .limits import Deadline
from .play import FORCED_LOSS, FORCED_WIN, Advice, Playable
from .signals import raise_if_stopped

MISSED_WIN = "missed win"
"""Mistake: a forced win was there and the move let it go."""
INTO_LOSS = "into loss"
"""Mistake: the move walked into a forced loss."""
DROP = "drop"
"""Mistake: a big fall of the evaluation against the best move."""
DEFAULT_DROP = 5.0
"""A big fall, in the game's evaluation units, for a game that names none
(``Playable.review_drop``)."""
WIN, LOSS = math.inf, -math.inf


@dataclass(frozen=True)
class RecordedMove:
    """One move of a game record as written: the game's move (or its text) and where it stands
    in the file (``moves[3]``, ``results[0].moves[3]``)."""

    move: Any
    where: str
    seat: int | None = None
    """The seat the record says made the move (from 1), when it says one: checked."""


@dataclass(frozen=True)
class GameRecord:
    """A game to replay: the position it starts from (a Playable position) and its moves."""

    start: Any
    moves: tuple[RecordedMove, ...]


@dataclass(frozen=True)
class Standing:
    """What the engine says of a position for the seat to move: its worth (``+inf`` won by
    force, ``-inf`` lost by force, else the evaluation, None when the engine gave none), the
    engine's move there (None once the game is over) and its advice."""

    seat: int | None
    worth: float | None
    advice: Advice | None = None
    best_text: str | None = None

    def worth_to(self, seat: int, players: int) -> float | None:
        """The position's worth to ``seat``: its own, or (two seats) minus the mover's; with
        more seats only a proven result (the mover's win is a loss to every other seat)."""
        if self.seat is None or self.seat == seat:
            return self.worth
        if self.worth is None:
            return None
        if players == 2 or self.worth == WIN:
            return 0.0 - self.worth  # not -0.0 for an even position
        return None


def standing(game: Playable, position: Any, deadline: Deadline, depth: int | None) -> Standing:
    """Ask the engine about ``position`` (``Playable.best`` by ``deadline``, to ``depth``); an
    ended game is worth its result without asking."""
    ended = game.outcome(position)
    if ended is not None:
        # seat None: the same worth for everybody; a won game is +inf to the winner only
        if ended.winner is None:
            return Standing(None, 0.0)
        return _ended(ended.winner)
    advice = game.best(position, deadline, depth)
    proves = getattr(game, "forced_win_is_game_win", True)
    if advice.kind == FORCED_WIN and proves:
        worth: float | None = WIN
    elif advice.kind == FORCED_LOSS and proves:
        worth = LOSS
    else:
        worth = advice.evaluation
    return Standing(game.to_move(position), worth, advice, game.move_text(position, advice.move))


@dataclass(frozen=True)
class _Won(Standing):
    """An ended game with a winner: +inf to the winner, -inf to every other seat."""

    def worth_to(self, seat: int, players: int) -> float | None:
        return WIN if seat == self.seat else LOSS


def _ended(winner: int) -> Standing:
    return _Won(winner, WIN)


def worth_text(worth: float | None) -> str:
    """A worth in words: ``forced win``, ``forced loss``, ``unknown`` or the number."""
    if worth is None:
        return "unknown"
    if worth == WIN:
        return "forced win"
    if worth == LOSS:
        return "forced loss"
    return f"{worth:+g}"


def worth_json(worth: float | None) -> float | str | None:
    """A worth in JSON: the number, ``"win"``/``"loss"`` for a proven result, null for unknown."""
    if worth is None or math.isfinite(worth):
        return worth
    return "win" if worth > 0 else "loss"


# --------------------------------------------------------------------------- review


@dataclass
class MoveReview:
    """One ply of a review: who moved (seat, from 1), the move as typed, where the record has
    it, the position's worth to the mover before (what the best move keeps), the engine's best
    move, the worth after the move played, the fall against the best move and the mistakes."""

    ply: int
    seat: int
    move: str
    where: str
    best: str | None
    best_kind: str | None
    best_reason: str | None
    before: float | None
    after: float | None
    mistakes: list[str] = field(default_factory=list)
    seat_one_after: float | None = None
    """The position's worth to seat 1 after this move (what the plot draws)."""

    @property
    def drop(self) -> float | None:
        """How much the move played is worth less than the best one (evaluations only)."""
        if self.before is None or self.after is None or not (math.isfinite(self.before) and math.isfinite(self.after)):
            return None
        return self.before - self.after

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "player": self.seat, "move": self.move, "where": self.where,
                "best": self.best, "best_kind": self.best_kind, "best_reason": self.best_reason,
                "before": worth_json(self.before), "after": worth_json(self.after), "drop": self.drop,
                "mistakes": self.mistakes, "player_1_after": worth_json(self.seat_one_after)}


@dataclass
class Review:
    """A game reviewed: the plies looked at, and why the review stopped early (an illegal move,
    named with its ply and place, or the time limit), and how the game ended (None: it goes on)."""

    plies: list[MoveReview] = field(default_factory=list)
    total: int = 0
    illegal: dict[str, Any] | None = None
    stopped: str | None = None
    outcome: str | None = None
    start_worth: float | None = None
    """The start's worth to seat 1 (the plot's first point)."""


def review(game: Playable, record: GameRecord, per_move: float | None, deadline: Deadline, depth: int | None = None,
           drop: float | None = None, on_ply: Callable[[int, int], None] | None = None) -> Review:
    """Replay ``record`` on the game's rules and review each move (see the module's text).

    Each ``best`` call has ``per_move`` seconds (None: none of its own) within ``deadline``,
    and ``depth`` caps its search. Once ``deadline`` has passed, the plies not reviewed are left
    out and ``stopped`` says so. ``on_ply(done, total)`` hears of progress."""
    big = drop if drop is not None else float(getattr(game, "review_drop", DEFAULT_DROP))
    position = record.start
    players = game.players(position)
    result = Review(total=len(record.moves))

    def ask(at: Any) -> Standing:
        return standing(game, at, deadline.sooner(per_move), depth)

    here = ask(position)
    result.start_worth = here.worth_to(1, players)
    for ply, recorded in enumerate(record.moves, start=1):
        if game.outcome(position) is not None:
            result.illegal = {"ply": ply, "where": recorded.where, "move": _shown(game, position, recorded.move),
                              "message": "the game is already over"}
            break
        if recorded.seat is not None and recorded.seat != game.to_move(position):
            result.illegal = {"ply": ply, "where": recorded.where, "move": _shown(game, position, recorded.move),
                              "message": f"it is player {game.to_move(position)}'s turn, not player {recorded.seat}'s"}
            break
        try:
            text = recorded.move if isinstance(recorded.move, str) else game.move_text(position, recorded.move)
            move = game.parse_move(position, text)
            after_position = game.play(position, move)
        except Exception as error:  # the game's own IllegalMove or InputError: the review ends here
            message = error.message if isinstance(error, InputError) else str(error)
            result.illegal = {"ply": ply, "where": recorded.where, "move": _shown(game, position, recorded.move), "message": message}
            break
        raise_if_stopped()  # Ctrl-C: best answered early; the stop ends the review here
        if deadline.expired():
            result.stopped = "the time limit came first"
            break
        seat = game.to_move(position)
        after = ask(after_position)
        played_worth = after.worth_to(seat, players)
        if here.worth == WIN and here.best_text == text or here.worth == LOSS:
            # the engine's proof before the move covers it: its winning move keeps the win, and
            # from a forced loss every move loses, whatever a shorter look afterwards finds
            played_worth = here.worth
        best_worth = played_worth
        if here.advice is not None and here.best_text != text:
            best_worth = ask(game.play(position, here.advice.move)).worth_to(seat, players)
        before = here.worth if here.worth in (WIN, LOSS) else best_worth
        entry = MoveReview(ply, seat, text, recorded.where, here.best_text, here.advice.kind if here.advice else None,
                           here.advice.reason if here.advice else None, before, played_worth, seat_one_after=after.worth_to(1, players))
        entry.mistakes = mistakes(before, played_worth, big)
        result.plies.append(entry)
        if on_ply is not None:
            on_ply(ply, result.total)
        position, here = after_position, after
    ended = game.outcome(position)
    if ended is not None:
        result.outcome = ended.detail
    return result


def mistakes(before: float | None, after: float | None, big: float) -> list[str]:
    """The marks of a move worth ``after`` to its mover where the best was worth ``before``
    (see the module's text)."""
    marks = []
    if before == WIN and after != WIN:
        marks.append(MISSED_WIN)
    if after == LOSS and before != LOSS:
        marks.append(INTO_LOSS)
    if before is not None and after is not None and math.isfinite(before) and math.isfinite(after) and before - after >= big:
        marks.append(DROP)
    return marks


def _shown(game: Playable, position: Any, move: Any) -> str:
    if isinstance(move, str):
        return move
    try:
        return game.move_text(position, move)
    except Exception:  # a move the game cannot even write here: shown as stored
        return str(move)


# --------------------------------------------------------------------------- reading a record


def read_record(game: Playable, text: str, path: str, index: int | None = None, players: int = 2) -> GameRecord:
    """The game record in ``text`` (from ``path``): a ``selfplay --json`` report (its game
    ``index``, default the first; the report must start from the opening, which it says), a
    single game of one (``{"moves": [...]}`` with no other start), or the game's own record
    (``Playable.read_record(text, path)``, for the games that keep one). Bad input is an
    :class:`InputError` naming the file and the line or JSON path."""
    raw, unreadable = _json_or_none(text, path)
    if isinstance(raw, dict) and "results" in raw and "from_opening" in raw:
        return _selfplay_record(game, raw, path, index)
    if index is not None:
        raise InputError("--index applies to a selfplay report (placesat selfplay --json)", path)
    reader = getattr(game, "read_record", None)
    if reader is not None:
        found = reader(text, path)
        if found is not None:
            return found
    elif unreadable is not None:
        raise unreadable
    raise InputError(f"not a game record of {game.name}: a position has no moves to review "
                     f"(give a game record, or a placesat selfplay {game.name} --json report)", path)


def _json_or_none(text: str, path: str) -> tuple[Any, InputError | None]:
    """The JSON in ``text``, or None and why not (a game's own reader, when it has one, says
    what is wrong in its own words: its records need not be JSON)."""
    try:
        return parse_json(text, path), None
    except InputError as error:
        return None, error


def _selfplay_record(game: Playable, raw: dict, path: str, index: int | None) -> GameRecord:
    if raw.get("game") != game.name:
        raise InputError(f"game: this report is of {json.dumps(raw.get('game'))}, not {game.name}", path)
    if raw.get("from_opening") is not True:
        raise InputError("from_opening: the report's games started from a position it does not hold", path)
    results = raw.get("results")
    if not isinstance(results, list) or not results:
        raise InputError("results: no games (write the report with placesat selfplay --json)", path)
    chosen = 0 if index is None else index
    if not 0 <= chosen < len(results):
        raise InputError(f"--index must be from 0 to {len(results) - 1} (the games of the report), not {chosen}", path)
    where = json_path("results", chosen)
    entry = results[chosen]
    moves = entry.get("moves") if isinstance(entry, dict) else None
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InputError(f"{json_path(where, 'moves')}: must be a list of moves as typed", path)
    players = raw.get("players", 2)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InputError(f"players: must be 2 to 4, not {json.dumps(players)}", path)
    start = game.opening(players)
    return GameRecord(start, tuple(RecordedMove(m, json_path(json_path(where, "moves"), i)) for i, m in enumerate(moves)))


# --------------------------------------------------------------------------- the best moves, ranked


@dataclass(frozen=True)
class RankedMove:
    """One legal move and its worth to the mover (from the position after it), and whether
    that worth is proven (a forced win or loss)."""

    move: str
    worth: float | None
    reply: str | None
    ends: bool = False
    """The move ends the game (a win at once is ranked before a win by force later)."""

    @property
    def proven(self) -> str | None:
        """``forced win``, ``forced loss`` or None (an evaluation)."""
        if self.worth == WIN:
            return FORCED_WIN
        if self.worth == LOSS:
            return FORCED_LOSS
        return None

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "worth": worth_json(self.worth), "proven": self.proven, "reply": self.reply, "ends_game": self.ends}


def top_moves(game: Playable, position: Any, count: int, deadline: Deadline, depth: int | None = None,
              on_move: Callable[[int, int], None] | None = None) -> tuple[list[RankedMove], int, int]:
    """The ``count`` best legal moves of the seat to move: each move's worth is the position
    after it, asked of ``best`` (the reply's worth, turned to the mover's view); proven wins
    first (a win at once before a win later), then by evaluation, proven losses last (a loss at
    once last of all); ties in the game's move order. The time is
    shared evenly among the moves not yet asked. Returns the moves, how many were asked, and
    how many there are (moves the time did not reach are left out)."""
    legal = list(game.moves(position))
    seat = game.to_move(position)
    players = game.players(position)
    ranked: list[tuple[float, bool, int, RankedMove]] = []
    for number, move in enumerate(legal):
        left = deadline.remaining()
        if left is not None and left <= 0:
            break
        share = None if left is None else left / (len(legal) - number)
        after_position = game.play(position, move)
        after = standing(game, after_position, deadline.sooner(share), depth)
        worth = after.worth_to(seat, players)
        ends = game.outcome(after_position) is not None
        ranked.append((_order(worth), ends, number, RankedMove(game.move_text(position, move), worth, after.best_text, ends)))
        if on_move is not None:
            on_move(number + 1, len(legal))
    # among equal worths a move that ends the game first: a win at once before a win later
    ranked.sort(key=lambda item: (-item[0], -item[1] if item[0] >= 0 else item[1], item[2]))
    return [item[3] for item in ranked[:count]], len(ranked), len(legal)


def _order(worth: float | None) -> float:
    """Proven wins first, unknown worth after every evaluation but before proven losses."""
    if worth is None:
        return -1e300
    return worth


# --------------------------------------------------------------------------- the evaluation plot


def evaluation_svg(reviewed: Review, title: str) -> str:
    """The game's evaluation, ply by ply, as a plain SVG line plot: the worth to player 1 of
    the position after each ply (the start at ply 0); a proven win for player 1 is drawn on the
    top band, a proven loss on the bottom band, an unknown worth as a gap; the plies marked as
    mistakes are red dots, with their ply number."""
    points = [(0, reviewed.start_worth)] + [(p.ply, p.seat_one_after) for p in reviewed.plies]
    finite = [abs(w) for _, w in points if w is not None and math.isfinite(w)]
    scale = max(finite + [1.0])
    width, height, left, right, top, bottom = 720, 320, 64, 16, 36, 40
    inner_w, inner_h = width - left - right, height - top - bottom
    band = 18  # the proven results' bands, above and below the evaluations
    last = max(len(reviewed.plies), 1)

    def x_of(ply: int) -> float:
        return left + inner_w * ply / last

    def y_of(worth: float) -> float:
        if worth == WIN:
            return top + band / 2
        if worth == LOSS:
            return top + inner_h - band / 2
        middle, half = top + inner_h / 2, inner_h / 2 - band - 12
        return middle - half * worth / scale

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14">{_escape(title)}</text>',
           f'<rect x="{left}" y="{top}" width="{inner_w}" height="{band}" fill="#e3f2e1"/>',
           f'<rect x="{left}" y="{top + inner_h - band}" width="{inner_w}" height="{band}" fill="#f6e0e0"/>',
           f'<text x="{left - 6}" y="{top + band / 2 + 4}" text-anchor="end" fill="#2a7a2a">P1 wins</text>',
           f'<text x="{left - 6}" y="{top + inner_h - band / 2 + 4}" text-anchor="end" fill="#a33">P1 loses</text>',
           f'<line x1="{left}" y1="{top + inner_h / 2}" x2="{left + inner_w}" y2="{top + inner_h / 2}" stroke="#999" stroke-dasharray="4 3"/>',
           f'<text x="{left - 6}" y="{top + inner_h / 2 + 4}" text-anchor="end">0</text>',
           f'<text x="{left - 6}" y="{y_of(scale) + 4}" text-anchor="end">{scale:+.3g}</text>',
           f'<text x="{left - 6}" y="{y_of(-scale) + 4}" text-anchor="end">{-scale:+.3g}</text>',
           f'<rect x="{left}" y="{top}" width="{inner_w}" height="{inner_h}" fill="none" stroke="#444"/>']
    step = max(1, math.ceil(last / 12))
    for ply in range(0, last + 1, step):
        out.append(f'<text x="{x_of(ply):.1f}" y="{top + inner_h + 16}" text-anchor="middle">{ply}</text>')
    out.append(f'<text x="{left + inner_w / 2}" y="{height - 6}" text-anchor="middle">ply (worth to player 1 after it)</text>')
    run: list[str] = []
    for ply, worth in points:
        if worth is None:
            if len(run) > 1:
                out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="#1f5fbf" stroke-width="2"/>')
            run = []
            continue
        run.append(f"{x_of(ply):.1f},{y_of(worth):.1f}")
    if len(run) > 1:
        out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="#1f5fbf" stroke-width="2"/>')
    for ply, worth in points:
        if worth is not None:
            out.append(f'<circle cx="{x_of(ply):.1f}" cy="{y_of(worth):.1f}" r="2.5" fill="#1f5fbf"/>')
    for entry in reviewed.plies:
        if entry.mistakes and entry.seat_one_after is not None:
            x, y = x_of(entry.ply), y_of(entry.seat_one_after)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#d22" stroke="white"/>')
            out.append(f'<text x="{x:.1f}" y="{y - 8:.1f}" text-anchor="middle" fill="#d22">{entry.ply}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
