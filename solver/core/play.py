"""What `best`, `play-vs` and `selfplay` need to know about a game, the same for every game.

Each game gives one object that follows :class:`Playable` (in ``solver/<game>/play.py``),
built over its plain rule engine (``rules.py``) and its own ``forced``/``best`` queries. The
terminal loop of ``play-vs`` (``cli/play.py``) and the ``selfplay`` runner
(``solver/core/selfplay.py``) see a game only through it, so a game gains both by writing it.

A game that also gives an evaluation (``evaluate``, and optionally ``candidates``:
:class:`placesat.core.lookahead.Evaluated`) is played by the look-ahead engine too, the
default of ``best`` and ``play-vs``.

Seats are counted from 1, as in every ``to_move`` the toolkit prints. Positions are values:
``play`` returns a new position and never changes the one it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, Sequence, TypeVar

from placesat.core.limits import Deadline

P = TypeVar("P")
M = TypeVar("M")

FORCED_WIN = "forced win"
"""Advice kind: the move wins whatever the others play (``line`` holds the principal line)."""
DEFENCE = "defence"
"""Advice kind: the move stops a win the others could otherwise force (or make at once)."""
EVALUATION = "evaluation"
"""Advice kind: nothing was proven in the time; the move the evaluation prefers."""
ONLY_MOVE = "only move"
"""Advice kind: there is one legal move."""
FORCED_LOSS = "forced loss"
"""Advice kind: every move loses against best play; the move that holds out longest."""
KINDS = (FORCED_WIN, DEFENCE, EVALUATION, ONLY_MOVE, FORCED_LOSS)


@dataclass(frozen=True)
class Advice(Generic[M]):
    """The move an engine recommends, and why, in the game's words.

    ``reason`` is a sentence a player reads ("wins by force: c3, d4, e5", "the only move that
    stops Black's win at r3c4", "evaluation: fewest stones still needed, yours 3 vs theirs 5:
    +2"). ``evaluation`` is the number the evaluation gave (None for a proven result) and
    ``evaluation_name`` names what it measures; ``depth`` is how far the search proved or looked.
    """

    move: M
    kind: str
    reason: str
    line: tuple = ()
    evaluation: float | None = None
    evaluation_name: str | None = None
    depth: int = 0


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seat (from 1), or None for a draw; ``detail`` in words
    ("Black made a line", "scores 12-9")."""

    winner: int | None
    detail: str = ""
    scores: tuple[int, ...] = field(default=())


class Playable(Protocol[P, M]):
    """One game, as play-vs and selfplay see it."""

    name: str
    """The game's command-group name ("quarry", "laido", ...)."""

    def opening(self, players: int) -> P:
        """The position a new game starts from (selfplay's default start)."""

    def players(self, position: P) -> int:
        """How many seats play."""

    def to_move(self, position: P) -> int:
        """The seat to move, from 1."""

    def moves(self, position: P) -> Sequence[M]:
        """The legal moves, in a fixed order (the same position gives the same list); empty
        only when the game is over."""

    def play(self, position: P, move: M) -> P:
        """The position after ``move`` (checked by the plain rule engine)."""

    def outcome(self, position: P) -> Outcome | None:
        """None while the game goes on."""

    def move_text(self, position: P, move: M) -> str:
        """``move`` as a player types it (what :meth:`parse_move` reads back)."""

    def parse_move(self, position: P, text: str) -> M:
        """The legal move a player typed; raises :class:`placesat.core.errors.InputError`
        with a one-line reason otherwise."""

    def board_text(self, position: P, colour: bool) -> str:
        """The board as the game's terminal view draws it."""

    def save_text(self, position: P) -> str:
        """The position in the game's own file format (what its commands read)."""

    def best(self, position: P, deadline: Deadline, depth: int | None = None) -> Advice[M]:
        """The recommended move for the side to move: a forced win if one is found, else the
        defence against a forced or immediate win of the others, else the evaluation's choice.
        Answers by ``deadline`` with the best found so far; ``depth`` caps the search (for
        play that repeats exactly, whatever the machine's speed)."""


# --------------------------------------------------------------------------- what a game may add
#
# A Playable may also have these (each optional; the helpers below stand in for a game without):
#   seat_name(position, seat) -> str            the seat in the game's words ("black")
#   move_notes(before, move, after) -> str      what a move did beyond itself ("captures ...")
#   board_text_after(position, colour, last)    the board with the last move shown
#   moves_lines(position) -> list[str]          the legal moves as the game lists them
#   read_record(text, path) -> GameRecord|None  its own game record (placesat.core.review)
#   review_drop: float                          a big fall of its evaluation (review)
#   forced_win_is_game_win: bool                False when ``best``'s forced win is less than the game
#   record_text(start, moves) -> str | None     a game record of ``moves`` from ``start`` in the
#                                               game's own format (None: it cannot hold this one)
#   canonical_move(position, move) -> move      one move for a move and its images under the
#                                               board's symmetries fixing position (selfplay)


def seat_name(game: Playable, position: object, seat: int) -> str:
    """Seat ``seat`` in the game's own words (``player 2`` unless the game names its seats)."""
    named = getattr(game, "seat_name", None)
    return named(position, seat) if named is not None else f"player {seat}"


def move_notes(game: Playable, before: object, move: object, after: object) -> str:
    """What ``move`` did beyond being laid, in words (captures...); empty when nothing."""
    notes = getattr(game, "move_notes", None)
    return notes(before, move, after) if notes is not None else ""


def board_after(game: Playable, position: object, colour: bool, last: object | None) -> str:
    """The board with ``last`` (the move that led to it, None at the start) shown, when the
    game can show it; else its plain board."""
    shown = getattr(game, "board_text_after", None)
    return shown(position, colour, last) if shown is not None else game.board_text(position, colour)


def canonical_move_text(game: Playable, position: object, text: str) -> str:
    """The move typed ``text`` as the one that stands for it and its images under the board's
    symmetries that leave ``position`` as it is (``Playable.canonical_move``); ``text`` as it is
    for a game without symmetries to merge."""
    canonical = getattr(game, "canonical_move", None)
    if canonical is None:
        return text
    return game.move_text(position, canonical(position, game.parse_move(position, text)))


def game_record_text(game: Playable, start: object, moves: Sequence[object], final: object) -> str:
    """The game from ``start`` through ``moves`` (reaching ``final``) in the game's own format:
    its record when it keeps records of such games (``Playable.record_text``), else the final
    position as ``save_text`` writes it (a game whose positions hold their moves, as Quarry's,
    is a record then too)."""
    recorded = getattr(game, "record_text", None)
    text = recorded(start, list(moves)) if recorded is not None else None
    return text if text is not None else game.save_text(final)


def moves_lines(game: Playable, position: object) -> list[str] | None:
    """The legal moves as the game lists them (None: one comma-separated list of the moves)."""
    listed = getattr(game, "moves_lines", None)
    return listed(position) if listed is not None else None
