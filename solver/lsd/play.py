"""LSD as ``best``, ``play-vs`` and ``selfplay`` see it (:class:`placesat.core.play.Playable`).

Moves are played and checked by the plain rules (:mod:`placesat.lsd.rules`), typed and printed
as ``lsd play`` and ``lsd moves`` do (``3,-1 NES+``, ``skip``), and a position is saved as the
JSON every ``lsd`` command reads.

``best`` answers in three steps, each within its share of the time (seeds/lsd.md, "best"):

1. a forced win of the player to move, deepening over its own moves
   (:func:`placesat.lsd.forced.forced_win`, replayed on the rules against every reply):
   FORCED_WIN, with the line;
2. else, a defence: when the next player could make a line at once (or force one within two
   of its moves) were it its turn, the moves after which it no longer can: DEFENCE, "the only
   move that stops player 2's line at 2,0"; FORCED_LOSS when no move does;
3. else, or among several defences, the move the evaluation prefers: EVALUATION, named and
   shown (:func:`evaluation`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE, Advice, Outcome
from placesat.core.signals import Stop

from .forced import MAX_DEPTH, WIN, forced_win, plies_for_moves, plies_of
from .model import SIDES, SKIP, Move, neighbour, on_table, Placement, Position, cell_text, dumps, move_text, new_position, parse_move, position_to_json
from .rules import (
    IllegalMove,
    is_draw,
    legal_moves,
    lines,
    play_turn,
    resolve_placement,
    winner,
    winning_placements_unchecked,
)

EVALUATION_NAME = ("runs and threats (10 per cell where a tile would win at once, plus the square of each run of 2 or more; "
                   "own minus the strongest other player's; a draw is 0; among equals, more open half dots)")
"""What :func:`evaluation` measures, as ``best`` names it."""
THREAT_WEIGHT = 10
"""What one cell where a player would win at once is worth against its runs: more than any run
short of a line (a run of 3 is worth 9)."""
LOST = -1000
"""The evaluation of a move after which the next player wins at once."""
DEFENCE_LEVELS = 2
"""How many of the next player's own moves the defence looks at, at most (1: its wins at once)."""
DEFAULT_DEPTH = 2
"""The own moves a forced win is looked for within when neither a depth nor a time limit is given."""


def own_moves_within(position: Position, player: int) -> int:
    """The most own moves of ``player`` that a search of :data:`placesat.lsd.forced.MAX_DEPTH` plies holds."""
    return plies_of(position, player, MAX_DEPTH)


def player_value(position: Position, player: int) -> int:
    """``player``'s runs and threats: 10 per empty cell where a tile of its own would complete a
    line at once (were it its turn), plus the square of the length of each of its runs of 2 or
    more tiles in a row or a column."""
    mine = {c for c, t in position.field.items() if t.player == player}
    runs = 0
    for x, y in mine:
        for dx, dy in ((1, 0), (0, 1)):
            if (x - dx, y - dy) in mine:
                continue  # counted from the run's start
            length = 1
            while (x + length * dx, y + length * dy) in mine:
                length += 1
            if length >= 2:
                runs += length * length
    threats = {m.cell for m in winning_placements_unchecked(position, player)} if winner(position) is None else set()
    return THREAT_WEIGHT * len(threats) + runs


def evaluation(position: Position, player: int) -> tuple[int, int, int]:
    """The position for ``player`` by :data:`EVALUATION_NAME`: (own minus the strongest other
    player's, own, strongest other's); :data:`LOST` when the player to move has a line to make at
    once and is not ``player`` (it is then its turn)."""
    won = winner(position)
    if won is not None:
        return (-LOST if won == player else LOST), 0, 0
    if is_draw(position):
        return 0, 0, 0
    mover = position.to_move
    if mover != player and winning_placements_unchecked(position, mover, first_only=True):
        return LOST, 0, 0
    own = player_value(position, player)
    theirs = max(player_value(position, p) for p in range(1, position.players + 1) if p != player)
    return own - theirs, own, theirs


def room(position: Position) -> int:
    """The open half dots on the field (a tile's half dot facing an empty cell on the table):
    where tiles can still go. Nobody can place once there are none, and the game is a draw."""
    return sum(1 for cell, tile in position.field.items() for side in SIDES
               if tile.dots & side and neighbour(cell, side) not in position.field and on_table(neighbour(cell, side)))


@dataclass
class _SoFar:
    """The best advice found so far: what ``best`` answers when the time or a stop comes."""

    advice: Advice[Move]


class LsdPlay:
    """LSD for play-vs and selfplay (:class:`placesat.core.play.Playable`)."""

    name = "lsd"
    review_drop = 10
    """A fall ``review`` marks: one cell of a line at once (:data:`THREAT_WEIGHT`)."""

    def opening(self, players: int) -> Position:
        """An empty field, every tile in its owner's supply (``lsd new``)."""
        return new_position(players)

    def players(self, position: Position) -> int:
        return position.players

    def to_move(self, position: Position) -> int:
        return position.to_move

    def moves(self, position: Position) -> Sequence[Move]:
        """The mover's placements in field order; a skip when it has none; none once won or drawn."""
        return legal_moves(position)

    def play(self, position: Position, move: Move) -> Position:
        """The position after ``move``, checked by the rules (:func:`placesat.lsd.rules.play_turn`)."""
        return play_turn(position, move).after

    def outcome(self, position: Position) -> Outcome | None:
        won = winner(position)
        if won is not None:
            line = lines(position.field, won, position.line_length)[0]
            return Outcome(won, f"player {won} made a line: {' '.join(cell_text(c) for c in line)}")
        if is_draw(position):
            return Outcome(None, "nobody can place a tile: a draw")
        return None

    def move_text(self, position: Position, move: Move) -> str:
        return move_text(move)

    def parse_move(self, position: Position, text: str) -> Move:
        """A typed move (``3,-1 NES+`` or ``skip``) that the rules allow here."""
        move = parse_move(text)
        try:
            play_turn(position, move)
        except IllegalMove as error:
            raise InputError(f"illegal: {error}") from None
        return move

    def board_text(self, position: Position, colour: bool) -> str:
        """The field as ``lsd show`` draws it (a winning line underlined), then each player's supply."""
        from .render import render_rich, render_text, status_lines

        won = winner(position)
        line = lines(position.field, won, position.line_length)[0] if won else ()
        if not position.field:
            board = "the field is empty: the first tile goes on 0,0\n"
        elif colour:
            from rich.console import Console

            screen = Console(force_terminal=True, highlight=False, soft_wrap=True)
            with screen.capture() as captured:
                screen.print(render_rich(position, line), end="")
            board = captured.get()
        else:
            board = render_text(position, line)
        return board + "\n".join(status_lines(position)[1:])

    def save_text(self, position: Position) -> str:
        """The position as JSON, as ``lsd new`` and ``lsd play --out`` write it."""
        return dumps(position_to_json(position))

    def canonical_move(self, position: Position, move: Move) -> Move:
        """The one move that stands for ``move`` and its images under the symmetries of the
        field that leave ``position`` as it is (:func:`placesat.lsd.model.field_symmetries`):
        the first of them by its text. On the empty field, ``0,0 E+`` stands for N+, E+, S+, W+."""
        from .model import field_symmetries, transform_move

        return min((transform_move(move, symmetry) for symmetry in field_symmetries(position)), key=move_text)

    def move_notes(self, before: Position, move: Move, after: Position) -> str:
        """The tiles ``move`` captured (seeds/lsd.md: two + one cell apart, or two x corner to
        corner, take the other icon colour's tiles between them), as play-vs announces them."""
        captured = play_turn(before, move).captured
        if not captured:
            return ""
        owners = sorted({tile.player for _, tile in captured})
        whose = ", ".join(f"player {p}'s" for p in owners)
        cells = " ".join(cell_text(cell) for cell, _ in captured)
        return f"captures {len(captured)} tile{'s' if len(captured) != 1 else ''} ({whose}) at {cells}"

    def record_text(self, start: Position, moves: list[Move]) -> str:
        """The game record (its start and its moves) as every ``lsd`` command reads it."""
        from .model import Record, record_to_json

        return dumps(record_to_json(Record(start, tuple(moves))))

    def read_record(self, text: str, path: str):
        """The game record in ``text`` (its start and its moves, not yet replayed), for
        ``review``; None for a position (no moves)."""
        from placesat.core.review import GameRecord, RecordedMove

        from .model import Record, parse_game
        from .rules import check_position

        game = parse_game(text, path)
        if not isinstance(game, Record):
            return None
        try:
            check_position(game.start)
        except InputError as error:
            raise error.located(path) from None
        return GameRecord(game.start, tuple(RecordedMove(m, f"moves[{i}]") for i, m in enumerate(game.moves)))

    def evaluate(self, position: Position, seat: int, deadline: Deadline) -> float:
        """For the look-ahead engine: :func:`evaluation`'s difference for ``seat``."""
        return float(evaluation(position, seat)[0])

    def best(self, position: Position, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
        """The recommended move: a forced win within ``depth`` own moves (deepening while the time
        lasts, when no depth is given), else the only (or the best) move that stops the next
        player's line, else the evaluation's choice (see the module docstring). Answers by
        ``deadline`` with the best found so far, and on a stop (Ctrl-C) too: the stop stays
        pending, so the caller's next look at the clock raises it."""
        legal = list(self.moves(position))
        if not legal:
            raise InputError("the game is over: there is no move to recommend")
        if len(legal) == 1:
            what = "a skip: no tile fits" if legal[0] == SKIP else "the only legal move"
            return Advice(legal[0], ONLY_MOVE, what)
        so_far = _SoFar(Advice(legal[0], EVALUATION, "no evaluation finished in the time: the first legal move",
                               evaluation_name=EVALUATION_NAME))
        if depth is None and deadline.remaining() is None:
            depth = DEFAULT_DEPTH
        try:
            return self._best(position, legal, deadline, depth, so_far)
        except (TimeUp, Stop):
            return so_far.advice

    def _best(self, position: Position, legal: list[Move], deadline: Deadline, depth: int | None, so_far: _SoFar) -> Advice[Move]:
        me = position.to_move
        wins = winning_placements_unchecked(position, me, first_only=True)
        if wins:
            return Advice(wins[0], FORCED_WIN, f"wins at once: {move_text(wins[0])} makes a line", (move_text(wins[0]),), depth=1)
        own = min(own_moves_within(position, me), depth if depth is not None else MAX_DEPTH)
        if own >= 2:
            share = None if depth is not None else 0.4 * (deadline.remaining() or 0.0)
            answer = forced_win(position, me, plies_for_moves(position, me, own), deadline.sooner(share))
            if answer.answer == WIN and answer.move is not None:
                line = _principal_line(answer.line or [])
                moves_needed = plies_of(position, me, answer.within or 1)
                return Advice(answer.move, FORCED_WIN, f"wins by force within {moves_needed} own moves: {', '.join(line)}",
                              tuple(line), depth=moves_needed)
        deadline.check()
        levels = DEFENCE_LEVELS if depth is None else max(1, min(DEFENCE_LEVELS, depth - 1))
        share = None if depth is not None else 0.6 * (deadline.remaining() or 0.0)
        threat = _defence(position, legal, levels, deadline.sooner(share))
        if threat is None:
            return self._evaluated(position, legal, deadline, so_far, None)
        level, cells, stoppers, held_out = threat
        opponent = position.next_player()
        where = " ".join(cell_text(c) for c in cells)
        how = "at once" if level == 1 else f"by force within {level} of its moves"
        if stoppers:
            if len(stoppers) == 1:
                reason = f"the only move that stops player {opponent}'s line at {where} ({how})"
                return Advice(stoppers[0], DEFENCE, reason, depth=level)
            reason = f"one of {len(stoppers)} moves that stop player {opponent}'s line at {where} ({how})"
            so_far.advice = Advice(stoppers[0], DEFENCE, reason, depth=level)
            return self._evaluated(position, stoppers, deadline, so_far, (DEFENCE, reason, level))
        reason = f"every move loses to player {opponent}'s line at {where} ({how})"
        so_far.advice = Advice(held_out[0], FORCED_LOSS, reason, depth=level)
        return self._evaluated(position, held_out, deadline, so_far, (FORCED_LOSS, reason, level))

    def _evaluated(self, position: Position, moves: list[Move], deadline: Deadline, so_far: _SoFar,
                   found: tuple[str, str, int] | None) -> Advice[Move]:
        """The move of ``moves`` with the best :func:`evaluation` after it (the first of equals);
        ``found``: the kind, reason and depth a defence already settled, the evaluation then
        choosing among its moves."""
        me = position.to_move
        best: tuple[int, int] | None = None
        for move in moves:
            deadline.check()
            after = play_turn(position, move).after
            value = evaluation(after, me)
            key = (value[0], room(after))  # among equals, the move that leaves more room to play on
            if best is None or key > best:
                best = key
                kind, reason, depth = found or (EVALUATION, "", 0)
                shown = (f"evaluation, runs and threats: yours {value[1]} vs the strongest other's {value[2]}: {value[0]:+d}"
                         if value[0] != LOST else "evaluation: every move lets the next player win at once")
                if reason:
                    shown = reason if value[0] == LOST else f"{reason}; {shown}"
                so_far.advice = Advice(move, kind, shown,
                                       evaluation=float(value[0]), evaluation_name=EVALUATION_NAME, depth=depth)
        return so_far.advice


def _principal_line(line: list[dict]) -> list[str]:
    """The first branch of a forced win's line of play: each move and the first reply shown."""
    out: list[str] = []
    steps = line
    while steps:
        out.append(steps[0]["move"])
        steps = steps[0]["replies"]
    return out


def _wins_within(position: Position, player: int, own: int, deadline: Deadline) -> Placement | Move | None:
    """A first move with which ``player``, to move in ``position``, forces a line within ``own``
    of its moves (None when it cannot); ``TimeUp`` when the time comes first. Unreplayed
    (``check=False``): the answer only chooses a defence, it is never printed as a proof."""
    if winner(position) is not None:
        return None
    found = winning_placements_unchecked(position, player, first_only=True)
    if found or own == 1:
        return found[0] if found else None
    answer = forced_win(position, player, plies_for_moves(position, player, own), deadline, check=False)
    if answer.answer == WIN:
        return answer.move
    if answer.answer != "no forced win":
        raise TimeUp("the time limit came first")
    return None


def _defence(position: Position, legal: list[Move], levels: int, deadline: Deadline):
    """The next player's threat and the moves that stop it: ``(level, cells, stoppers,
    held_out)`` for the deepest level (1 to ``levels`` of its own moves) at which it could force
    a line were it its turn now, ``cells`` where its first move would go, ``stoppers`` the moves
    after which it no longer can within ``level`` moves, ``held_out`` the moves that stopped the
    level before (all moves at level 1); None when it threatens nothing. The time coming stops
    the deepening at the last level settled."""
    opponent = position.next_player()
    if_it_moved = replace(position, to_move=opponent)
    found = None
    candidates = legal
    for level in range(1, levels + 1):
        try:
            first = _wins_within(if_it_moved, opponent, level, deadline)
            if first is None:
                continue
            if level == 1:
                cells = sorted({m.cell for m in winning_placements_unchecked(if_it_moved, opponent)})
            else:
                cells = [first.cell] if isinstance(first, Placement) else []
            stoppers = []
            for move in candidates:
                after = resolve_placement(position, move).after  # a skip is the only move: no defence is asked
                if _wins_within(after, opponent, level, deadline) is None:
                    stoppers.append(move)
        except TimeUp:
            break
        found = (level, cells, stoppers, candidates)
        if not stoppers:
            break
        candidates = stoppers
    return found


PLAYABLE = LsdPlay()
"""The one LSD :class:`placesat.core.play.Playable`."""
