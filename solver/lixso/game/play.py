"""The strategic game as :class:`placesat.core.play.Playable` sees it, and its engine's advice.

A position here is a replayed record (:class:`placesat.lixso.game.rules.Game`): the record
itself, its rules and every turn, so that it saves in the game's own text format and every
move was laid by the referee. Moves are :class:`placesat.lixso.game.model.Move`, typed and
printed as in ``lixso game play`` (``I r3c4 r3c5 r4c4``).

:meth:`LixsoPlayable.best` is the one place that says why a move is recommended (``lixso
game best``, and ``play-vs``'s ``hint``). It is ``solve``'s move, with its reason:

1. *a proven result*: ``solve`` (its alpha-beta search, the time it is given, or ``depth``
   plies) proves the final margin: a win (:data:`FORCED_WIN`, "wins by force by 2 tiles: ..."
   with the line of play), a draw it holds (:data:`DEFENCE`) or a loss (:data:`FORCED_LOSS`,
   the move that loses by the fewest);
2. *a settled win by force*: ``forced`` within 1, 2, ... of the mover's turns while time
   lasts (:data:`FORCED_WIN`, "settles its win by force within 2 turns: ...");
3. *a defence*: when the other side, were it its turn now, could settle its win within its
   next turn by force, the tiles after which it no longer can (:data:`DEFENCE`, "the only
   tile that stops player 2 settling its win within 1 turn"; ``solve``'s move when it is one
   of them);
4. otherwise *the evaluation* (:data:`EVALUATION`): ``solve``'s look-ahead, with the
   estimate at its horizon named and shown: the margin plus half the difference of the
   sides' most tiles by count, for the mover. (With 3 players, whom ``solve`` does not
   play: one move ahead, own tiles plus own most by count minus the best other side's.)
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from placesat.core.andor import AndOrSearch
from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.core.signals import Stop
from placesat.core.play import DEFENCE, EVALUATION, FORCED_LOSS, FORCED_WIN, ONLY_MOVE, Advice, Outcome

from ..model import Grid, default_per_colour
from . import GAME_BACKEND
from .forced import WIN as FORCED, ForcedGame, Node, SettledTest, forced
from .model import CLUE_TOUCH_DEFAULT, Move, Position, format_text, parse_move, seating_for
from .rules import Game, replay_position

DEFAULT_OPENING = (".S....IX.", ".O.S.I..S", ".........", ".....I...", "....XI...", "OO.......", ".X....X..", ".O......S",
                   "O......O.")
"""The grid a new game starts on when none is given: the shipped 9x9 games' grid (level 4,
``grids/lixso-game/9x9-midgame.txt``)."""
SOLVE_SHARE = 0.6
"""With a deadline, the share of it ``solve`` may take before the forced-win and defence searches."""
FORCED_SHARE = 0.5
"""... and the share of what is left that the forced-win deepening may take."""
MAX_FORCED_TURNS = 3
"""Without a depth, forced wins are looked for within at most this many turns."""
THREAT_TURNS = 1
"""A threat: the other side could settle its win within this many of its turns."""
LINE_SHOWN = 6
"""At most this many moves of a line in a reason (the whole line is in ``Advice.line``)."""
PLAYING_SHARE = 0.5
"""The share of ``solve``'s time its look-ahead may take (as for the computer in ``play-vs``)."""
EVALUATION_NAME = "margin + half the difference of the sides' most tiles by count, for the mover"
EVALUATION_NAME_3 = "own tiles + own most by count - the best other side's, one move ahead"


@dataclass
class LixsoPlayable:
    """The strategic game for ``play-vs``, ``selfplay`` and ``best``: new games on ``grid``
    (default :data:`DEFAULT_OPENING`) with ``per_colour`` tiles of each colour (default as
    for the puzzle) and the clue-touch rule as given; ``backend`` for ``solve``'s root bounds."""

    grid: Grid | None = None
    per_colour: int | None = None
    clue_touch: bool = CLUE_TOUCH_DEFAULT
    backend: str = GAME_BACKEND
    name: str = "lixso-game"
    review_drop = 3
    """A fall ``review`` marks: three cells of margin."""

    # ----------------------------------------------------------------- the game

    def opening(self, players: int) -> Game:
        """No tile laid on the grid, ``players`` (2, 3 or 4) seated with the default colours."""
        grid = self.grid or Grid(DEFAULT_OPENING, "the shipped 9x9 games' grid", {"level": "4"})
        supply = self.per_colour or default_per_colour(grid.height, grid.width)
        return replay_position(Position(grid, seating_for(str(players)), supply, self.clue_touch, players_given=True))

    def players(self, position: Game) -> int:
        """How many seats play."""
        return position.rules.seating.players

    def to_move(self, position: Game) -> int:
        """The seat to move, from 1 (0 once the game is over)."""
        return position.state.to_move + 1

    def moves(self, position: Game) -> list[Move]:
        """The legal tiles of the seat to move, colour by colour, in reading order."""
        return position.moves()

    def play(self, position: Game, move: Move) -> Game:
        """The game with ``move`` laid, checked by the referee (``IllegalMove`` names the broken rule)."""
        return position.then(move)

    def outcome(self, position: Game) -> Outcome | None:
        """None while somebody can lay; then the winning side's first seat (a team's: its
        first player in turn order), or None for a draw, with the scores."""
        return position.outcome()

    def move_text(self, position: Game, move: Move) -> str:
        """The move as ``lixso game play`` reads it."""
        return str(move)

    def parse_move(self, position: Game, text: str) -> Move:
        """The legal tile a player typed, or ``InputError`` naming what is wrong (the broken rule)."""
        move = parse_move(text)
        broken = position.rules.violation(position.state, move)
        if broken is not None:
            raise InputError(f"illegal: {broken}")
        return move

    def board_text(self, position: Game, colour: bool) -> str:
        """The board as ``lixso game show`` draws it (in colour: ANSI escapes)."""
        from .render import coloured, plain

        if not colour:
            return plain(position.rules, position.state)
        from rich.console import Console

        out = io.StringIO()
        Console(file=out, force_terminal=True, color_system="standard", width=200).print(coloured(position.rules, position.state))
        return out.getvalue().rstrip("\n")

    def save_text(self, position: Game) -> str:
        """The record in the game's text format (what every ``lixso game`` command reads)."""
        return format_text(position.position)

    def read_record(self, text: str, path: str):
        """The game in ``text`` (text or JSON record: its grid and seating with no tile laid,
        and its moves, not yet replayed), for ``review``."""
        from dataclasses import replace

        from placesat.core.review import GameRecord, RecordedMove

        from .model import parse_position as parse_game

        position = parse_game(text, path)
        start = replay_position(replace(position, moves=()))
        return GameRecord(start, tuple(RecordedMove(m, _written_at(position, i)) for i, m in enumerate(position.moves)))

    # ----------------------------------------------------------------- the advice

    def evaluate(self, position: Game, seat: int, deadline: Deadline) -> float:
        """For the look-ahead engine: ``seat``'s side's tiles minus the best other side's, plus
        half the difference of their most tiles still by count (:meth:`SettledTest.most`): the
        estimate at ``solve``'s horizon, for one side."""
        rules, state = position.rules, position.state
        side = rules.seating.sides[seat - 1]
        test = SettledTest(rules, side)
        others = [o for o in range(len(state.scores)) if o != side]
        mine = state.scores[side] + test.most(state, side) / 2
        return mine - max(state.scores[o] + test.most(state, o) / 2 for o in others)

    def best(self, position: Game, deadline: Deadline, depth: int | None = None) -> Advice[Move]:
        """The recommended tile and why (see the module docstring). Answers by ``deadline``
        with the best found so far; with ``depth`` (plies for ``solve``'s look-ahead, turns
        for the forced-win search) and no deadline biting, the same answer every time. A
        Ctrl-C is raised (:meth:`advise` returns the advice found before it instead)."""
        advice, stopped = self.advise(position, deadline, depth)
        if stopped is not None:
            raise stopped
        return advice

    def advise(self, position: Game, deadline: Deadline, depth: int | None = None) -> tuple[Advice[Move], Stop | None]:
        """:meth:`best`, and the Ctrl-C or SIGTERM that cut it short (None when none did):
        the advice is then the best found before it, said so in its reason."""
        rules, state = position.rules, position.state
        if state.over:
            raise InputError("the game is over: nobody is to move")
        legal = rules.moves(state)
        if len(legal) == 1:
            return Advice(rules.move_of(*legal[0]), ONLY_MOVE, "the only tile that can be laid"), None
        if rules.seating.side_count != 2:
            try:
                return self._best_of_three(position, deadline, depth), None
            except Stop as stop:
                return Advice(rules.move_of(*legal[0]), EVALUATION, f"{stop.reason}: a legal tile, nothing looked at"), stop
        proven, chosen, estimate, looked, stopped = self._solve(position, deadline, depth)
        if proven is not None:
            return proven, stopped
        mover = rules.seating.sides[state.to_move]
        name = rules.seating.side_name(mover)
        if stopped is None:
            try:
                won = self._forced_win(position, deadline, depth)
                if won is not None:
                    return won, None
                defence = self._defence(position, deadline, chosen)
                if defence is not None:
                    return defence, None
            except TimeUp:
                pass  # the look-ahead's move stands
            except Stop as stop:
                stopped = stop
        shown = "not computed" if estimate is None else f"{estimate + 0.0:+g}"  # (+0.0: never "-0")
        reason = (f"evaluation after a {looked}-move look-ahead: {shown} for {name} ({EVALUATION_NAME}); nothing proven"
                  if looked else "a legal tile; no look-ahead finished in the time")
        if stopped is not None:
            reason = f"{stopped.reason}: the best found so far; {reason}"
        return Advice(chosen, EVALUATION, reason, evaluation=estimate, evaluation_name=EVALUATION_NAME, depth=looked), stopped

    def _solve(self, position: Game, deadline: Deadline, depth: int | None):
        """``solve``'s answer: (the advice when it proved the margin, else None; its move;
        the estimate for the mover; the look-ahead's depth)."""
        from .search import Search
        from .solve import LixsoSearch, solve

        rules, state = position.rules, position.state
        mover = rules.seating.sides[state.to_move]
        sign = 1 if mover == 0 else -1
        line: tuple[Move, ...] = ()
        if depth is None:
            remaining = deadline.remaining()
            share = deadline if remaining is None else deadline.sooner(SOLVE_SHARE * remaining)
            solution = solve(rules, state, share, self.backend, deepen_share=PLAYING_SHARE)
            stopped = solution.stopped
            value, move, looked, estimate = solution.value, solution.move, solution.depth, solution.estimate
            if not solution.move_checked:
                value = None  # a value known but a move the deadline left unchecked: no claim for it
            if move is None:  # stopped before any search finished
                move = rules.move_of(*rules.moves(state)[0])
            line = solution.line
        else:
            game = LixsoSearch(rules, deadline)
            search = Search(game, deadline)
            node = game.root(state)
            stopped = None
            try:
                found, exact, coded = search.search(node, float("-inf"), float("inf"), depth)
            except TimeUp:
                found, exact, coded = None, False, None
            except Stop as stop:
                found, exact, coded, stopped = None, False, None, stop
            value = int(found) if exact and found is not None else None
            estimate = found
            looked = depth if found is not None else 0
            if value is not None:
                # the move that decided the value need not keep it (a value counted or read off
                # the bounds comes with no move; a fail-soft bound may tie): name only a checked one
                try:
                    coded = search.keeping_move(node, value, coded)
                except TimeUp:
                    value = None
                except Stop as stop:
                    value, stopped = None, stop
            move = rules.move_of(*coded) if coded is not None else rules.move_of(*rules.moves(state)[0])
            if value is not None:
                try:
                    line = tuple(rules.move_of(*tile) for tile in search.principal_line(node, value, depth, coded))
                except (TimeUp, Stop):
                    line = (move,)
        assert move is not None
        if estimate is not None:
            estimate = sign * estimate
        if value is None:
            return None, move, estimate, looked, stopped
        margin = sign * value
        shown = _line_text(line or (move,))
        if margin > 0:
            advice = Advice(move, FORCED_WIN, f"wins by force, by {margin} tile{'s' if margin != 1 else ''}: {shown}", line or (move,),
                            depth=looked)
        elif margin == 0:
            advice = Advice(move, DEFENCE, f"holds the draw by force (perfect play: neither side wins): {shown}", line or (move,),
                            depth=looked)
        else:
            advice = Advice(move, FORCED_LOSS, f"every tile loses against best play; this one by the fewest, {-margin}: {shown}",
                            line or (move,), depth=looked)
        return advice, move, estimate, looked, stopped

    def _forced_win(self, position: Game, deadline: Deadline, depth: int | None) -> Advice[Move] | None:
        """A win the mover settles by force within 1, 2, ... turns (while the time lasts)."""
        rules, state = position.rules, position.state
        remaining = deadline.remaining()
        share = deadline if remaining is None else deadline.sooner(FORCED_SHARE * remaining)
        most = depth if depth is not None else MAX_FORCED_TURNS
        answer = forced(rules, state, most, share, self.backend, use_solve=False, record=position)
        if answer.answer != FORCED or answer.move is None:
            return None
        line = tuple(move for _, move in answer.line if move is not None)
        return Advice(answer.move, FORCED_WIN,
                      f"settles its win by force within {answer.within} of its turns (no future can catch it then): "
                      f"{_line_text(line)}", line, depth=answer.within or 0)

    def _defence(self, position: Game, deadline: Deadline, chosen: Move) -> Advice[Move] | None:
        """Were it the other side's turn now, could it settle its win within
        :data:`THREAT_TURNS` turns? Then the tiles after which it no longer can."""
        rules, state = position.rules, position.state
        seating = rules.seating
        mover = seating.sides[state.to_move]
        other = 1 - mover
        seats = len(rules.seat_colours)
        threat_seat = next((seat for step in range(1, seats) for seat in [(state.to_move + step) % seats]
                            if seating.sides[seat] == other and rules.can_lay(state, seat)), None)
        if threat_seat is None:
            return None
        game = ForcedGame(rules, other, deadline)
        search = AndOrSearch(game, deadline)
        threatened = search.wins(Node(state._replace(to_move=threat_seat), threat_seat),
                                 game.plies_for(threat_seat, THREAT_TURNS), deepen=False)
        if not threatened:
            return None
        stoppers = []
        ordered = [chosen] + [rules.move_of(k, p) for k, p in rules.moves(state) if rules.move_of(k, p) != chosen]
        for move in ordered:
            after = Node(rules.play(state, *rules.coded(move)), (state.to_move + 1) % seats)
            if not search.wins(after, game.plies_for(after.turn, THREAT_TURNS), deepen=False):
                stoppers.append(move)
        name = seating.side_name(other)
        if not stoppers:
            return Advice(chosen, FORCED_LOSS, f"every tile lets {name} settle its win within {THREAT_TURNS} turn(s);"
                          " this is the look-ahead's choice")
        if len(stoppers) == len(ordered):
            return None  # nothing to stop: every tile does
        move = stoppers[0]
        if len(stoppers) == 1:
            reason = f"the only tile that stops {name} settling its win within {THREAT_TURNS} of its turns"
        else:
            reason = f"one of {len(stoppers)} tiles that stop {name} settling its win within {THREAT_TURNS} of its turns"
        if move == chosen and len(stoppers) > 1:
            reason += " (the look-ahead's choice among them)"
        return Advice(move, DEFENCE, reason, (move,))

    def _best_of_three(self, position: Game, deadline: Deadline, depth: int | None) -> Advice[Move]:
        """3 players (three sides, which ``solve`` does not play): a forced win, else the
        evaluation one move ahead."""
        rules, state = position.rules, position.state
        try:
            won = self._forced_win(position, deadline, depth)
            if won is not None:
                return won
        except TimeUp:
            pass
        mover = rules.seating.sides[state.to_move]
        test = SettledTest(rules, mover)
        best_move, best_value = None, float("-inf")
        for k, p in rules.moves(state):
            after = rules.play(state, k, p)
            mine = after.scores[mover] + test.most(after, mover)
            theirs = max(after.scores[o] + test.most(after, o) for o in range(len(after.scores)) if o != mover)
            if mine - theirs > best_value:
                best_move, best_value = rules.move_of(k, p), mine - theirs
        assert best_move is not None
        return Advice(best_move, EVALUATION, f"evaluation ({EVALUATION_NAME_3}): {best_value:+d}; nothing proven",
                      evaluation=best_value, evaluation_name=EVALUATION_NAME_3, depth=1)


def _written_at(position: Position, number: int) -> str:
    """Where move ``number`` (from 0) stands in its file: ``line 7`` (text) or its JSON path."""
    mark = position.move_lines[number] if number < len(position.move_lines) else None
    if isinstance(mark, int):
        return f"line {mark}"
    return mark if isinstance(mark, str) else f"move {number + 1}"


def _line_text(line: tuple[Move, ...]) -> str:
    """A line of play in a reason: its first moves, then how many more."""
    shown = ", ".join(str(move) for move in line[:LINE_SHOWN])
    return shown + (f", ... ({len(line) - LINE_SHOWN} more)" if len(line) > LINE_SHOWN else "")
