"""Forced wins: can a player make a line within D plies whatever the others play?

The target player ``P`` plays against all the others as one coalition: P needs one move that
works, the coalition one move that refutes. An opponent's line, a draw, or D plies without P's
line all count against P. The search is :class:`placesat.core.andor.AndOrSearch` (depth-bounded
AND/OR search with a transposition table and iterative deepening); this module gives it the
game, seen from P's side, with its cut-offs:

- a win at once ends P's node (:func:`placesat.lsd.rules.winning_placements`), and an opponent's
  win at once refutes the coalition's node;
- the last ply: right before P's last ply within the depth, the coalition's mover needs one move
  after which P has no win at once; only moves near P's almost-lines can change that, so the
  others are judged together by the field as it is (:func:`threat_zone`);
- hopeless nodes: P cannot win within the plies left even with help. First a count (some run of
  cells must already hold enough of P's tiles for the plies P has left), then, from
  ``reach_from`` plies on, the solver (:func:`placesat.lsd.reach.reach_win` answering "no").

Every "win" is replayed before it is given: the strategy the search found is played on the plain
rules (:mod:`placesat.lsd.rules`, checked moves) against every legal reply of every other player
(:func:`placesat.core.andor.replay_strategy`), positions met again by other move orders replayed
once (:func:`placesat.lsd.model.position_key`). A replay that does not finish in the time makes
the answer "unknown"; a strategy the rules refuse is a defect, never an answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Iterator, Sequence, TypeVar

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp, as_deadline

from .model import SIDES, SKIP, Cell, Move, Placement, Position, move_text, neighbour, position_key
from .reach import NO, reach_win
from .reach import UNKNOWN as REACH_UNKNOWN
from .rules import (
    captures,
    is_draw,
    legal_moves,
    legal_moves_unchecked,
    placements_on,
    play_turn,
    resolve_placement,
    run_gaps,
    skip_turn,
    winner,
    winning_placements_unchecked,
)
from placesat.core.andor import SearchStats, Settled, StrategyFailed, replay_strategy
from placesat.core.dfpn import DEFAULT_TABLE_MB, ForcedSearch, new_search
from placesat.core.play import Outcome

WIN, NO_WIN, UNKNOWN = "win", "no forced win", "unknown"
MAX_DEPTH = 12
"""The deepest search accepted (depth 11 already takes minutes on a mid-game position)."""
SEARCH = "id"
"""The forced search by default (:data:`placesat.core.dfpn.SEARCHES`): see docs/performance.md, "Proof-number search"."""
DEFAULT_REACH_FROM: int | None = None
"""The remaining depth from which ``hopeless`` also asks the solver (None: never); chosen by
measurement (``benchmarks/lsd_bench.py``, docs/performance.md): see seeds/lsd.md."""


T = TypeVar("T")

PACE = 64
"""Items between two looks at the clock inside a node's loops (a look costs far less than 64
placements generated or scored)."""


def paced(items: Iterable[T], deadline: Deadline) -> Iterator[T]:
    """``items``, looking at ``deadline`` every :data:`PACE` of them: a node's own loops can take
    a tenth of a second on a field of hundreds of tiles, tens of thousands of placements."""
    for count, item in enumerate(items):
        if count % PACE == 0:
            deadline.check()
        yield item


def plies_of(position: Position, player: int, depth: int) -> int:
    """How many of the next ``depth`` plies are ``player``'s (every ply passes the turn on)."""
    offset = (player - position.to_move) % position.players
    return 0 if offset >= depth else (depth - 1 - offset) // position.players + 1


def plies_for_moves(position: Position, player: int, moves: int) -> int:
    """The fewest plies that hold ``moves`` of ``player``'s own moves (every ply passes the turn
    on): ``forced -k K`` asks for a line within that many plies."""
    offset = (player - position.to_move) % position.players
    return offset + (moves - 1) * position.players + 1


def line_possible(position: Position, player: int, own_plies: int) -> bool:
    """Whether some run of cells in a row or column already holds ``player``'s tiles on all but at
    most ``own_plies`` of its cells: otherwise no line can be finished in ``own_plies`` placements."""
    length = position.line_length
    need = length - own_plies
    if need <= 0:
        return True
    mine = {c for c, t in position.field.items() if t.player == player}
    for x, y in mine:
        for dx, dy in ((1, 0), (0, 1)):
            for start in range(length):
                run = [(x + (i - start) * dx, y + (i - start) * dy) for i in range(length)]
                if sum(c in mine for c in run) >= need:
                    return True
    return False


def threat_zone(position: Position, player: int) -> set[Cell]:
    """The cells where a placement could change whether ``player`` has a win at once.

    ``player`` wins at once by placing on an empty cell whose runs of its tiles on both sides,
    in a row or a column, add up to ``length - 1``. A placement changes that only through the
    cells it fills or empties: its own cell and the tiles it captures, which are next to it. So
    what matters is every cell not holding ``player``'s tile with such runs beside it (empty, or
    holding a tile a capture could remove), its neighbours (they decide what fits there), and
    the run tiles up to ``length - 1`` away (a capture there could cut the run short enough to
    matter). The zone is those cells and their neighbours; a placement outside it leaves
    ``player``'s wins at once as they are.
    """
    length = position.line_length
    mine = {c for c, t in position.field.items() if t.player == player}
    core: set[Cell] = set()
    for cell, left, right in run_gaps(mine):
        if len(left) + len(right) >= length - 1:
            core.add(cell)
            core.update(neighbour(cell, s) for s in SIDES)
            core.update(left[: length - 1])
            core.update(right[: length - 1])
    return core | {neighbour(c, s) for c in core for s in SIDES}


@dataclass(frozen=True)
class Node:
    """A search state: the position, and the player with a line in it (known from the move that
    led to it: only the mover of a placement can gain a line, see
    :func:`placesat.lsd.rules.resolve_placement`)."""

    position: Position
    won: int | None


@dataclass
class LsdGame:
    """LSD seen from ``target``'s side, for :class:`placesat.core.andor.AndOrSearch`."""

    target: int
    reach_from: int | None = DEFAULT_REACH_FROM
    backend: str = "sat"
    deadline: Deadline = field(default_factory=Deadline.never)
    reach_calls: int = 0
    reach_cuts: int = 0

    def key(self, node: Node) -> Hashable:
        """The field, the supplies and the mover (captured tiles no longer matter)."""
        state = node.position
        return (frozenset(state.field.items()), state.supplies, state.to_move)

    def result(self, node: Node) -> bool | None:
        """A line ends the game: the target's is its goal, anybody else's is not."""
        return None if node.won is None else node.won == self.target

    def target_moves(self, node: Node) -> bool:
        """The target's own plies are the OR nodes."""
        return node.position.to_move == self.target

    def moves(self, node: Node) -> Sequence[Move]:
        """The mover's placements; a skip when it has none but somebody else has; none in a draw."""
        state = node.position
        placed = list(paced(placements_on(state.field, state.supplies[state.to_move - 1]), self.deadline))
        return placed or legal_moves_unchecked(state)

    def play(self, node: Node, move: Move) -> Node:
        """The move through the rules (:func:`placesat.lsd.rules.resolve_placement`); the moves
        come from :meth:`moves`, so they are legal."""
        state = node.position
        if move == SKIP:
            return Node(skip_turn(state), None)
        turn = resolve_placement(state, move)  # type: ignore[arg-type]
        return Node(turn.after, turn.winner)

    def settle(self, node: Node, depth: int) -> Settled[Move] | None:
        """Wins at once (the target's, or a coalition member's that ends the game), no ply of
        the target's left, and the coalition's ply before the target's last (:meth:`_last_ply`)."""
        state = node.position
        mover = state.to_move
        wins = winning_placements_unchecked(state, mover, first_only=True)
        own = plies_of(state, self.target, depth)
        if mover == self.target:
            if wins:
                return Settled(True, wins[0])
            return Settled(False) if own == 1 else None  # this ply was the target's last
        if wins:
            return Settled(False, wins[0])  # the coalition ends the game with a line of its own
        if own == 0:
            return Settled(False)
        if own == 1 and state.next_player() == self.target:
            return self._last_ply(node)
        return None

    def _last_ply(self, node: Node) -> Settled[Move]:
        """The coalition's mover, right before the target's last ply: is there a move after which
        the target has no win at once? Moves outside :func:`threat_zone` leave the target's wins
        at once as they are now, so they are judged together by the field as it is."""
        state = node.position
        zone = threat_zone(state, self.target)
        target_wins_now = bool(winning_placements_unchecked(state, self.target, first_only=True))
        if not target_wins_now:
            # the first far move refutes; generating the rest would be wasted
            supply = state.supplies[state.to_move - 1]
            far = next((m for m in paced(placements_on(state.field, supply), self.deadline) if m.cell not in zone), None)
            if far is not None:
                return Settled(False, far)
        moves = self.moves(node)
        if not moves:
            return Settled(False)
        near = [m for m in moves if isinstance(m, Placement) and m.cell in zone]
        if len(near) < len(moves) and not target_wins_now:
            return Settled(False, next(m for m in moves if m not in near))  # a skip: the field stays
        for move in paced(near, self.deadline):
            after = self.play(node, move).position
            if not winning_placements_unchecked(after, self.target, first_only=True):
                return Settled(False, move)
        return Settled(True)

    def hopeless(self, node: Node, depth: int) -> bool:
        """No run of cells holds enough of the target's tiles for its plies left
        (:func:`line_possible`); or, from ``reach_from`` plies on, the solver proves that no
        sequence of the plies left gives the target a line."""
        state = node.position
        own = plies_of(state, self.target, depth)
        if own == 0 or not line_possible(state, self.target, own):
            return True
        if self.reach_from is not None and depth >= self.reach_from:
            self.reach_calls += 1
            verdict = reach_win(state, self.target, depth, self.backend, self.deadline).answer
            if verdict == REACH_UNKNOWN:
                # the limit came inside the solver: the branch is unsettled, and so is the search
                raise TimeUp("the time limit came first")
            if verdict == NO:
                self.reach_cuts += 1
                return True
        return False

    def order(self, node: Node, moves: Sequence[Move]) -> Sequence[Move]:
        """Moves on the cells of the target's fullest runs first; then those capturing most of
        the target's tiles (for the coalition) or anyone's (for the target)."""
        state = node.position
        heat = _heat(state, self.target)
        mine = state.to_move == self.target
        colour = state.icon_colour(state.to_move)

        def score(move: Move) -> float:
            if not isinstance(move, Placement):
                return 0.0
            taken = captures(state.field, move.cell, move.icon, colour, state.icon_colours)
            hurt = sum(1 for c in taken if state.field[c].player == self.target)
            return heat.get(move.cell, 0) + (len(taken) if mine else 4 * hurt)

        scores = [score(move) for move in paced(moves, self.deadline)]
        best_first = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[i] for i in best_first]


def _heat(position: Position, player: int) -> dict[Cell, int]:
    """For each empty cell next to ``player``'s runs, how much a tile there would join up: the
    square of the run it would make, summed over rows and columns."""
    mine = {c for c, t in position.field.items() if t.player == player}
    heat: dict[Cell, int] = {}
    for cell, left, right in run_gaps(mine):
        if cell not in position.field:
            heat[cell] = heat.get(cell, 0) + (len(left) + len(right) + 1) ** 2
    return heat


@dataclass
class ForcedAnswer:
    """``answer``: "win" (``move`` wins by force within ``within`` plies), "no forced win", or
    "unknown" (the time limit came first); ``positions``: the nodes the proof searched;
    ``replayed``: the positions the strategy's replay on the rules visited (each once);
    ``note``: why an "unknown" is one when the search had found a win."""

    player: int
    depth: int
    answer: str
    move: Move | None = None
    within: int | None = None
    strategy: dict[str, Any] | None = None
    stats: SearchStats = field(default_factory=SearchStats)
    positions: int = 0
    replayed: int = 0
    reach_calls: int = 0
    reach_cuts: int = 0
    line: list[dict[str, Any]] | None = None
    line_left_out: int = 0
    line_complete: bool = True
    no_win_within: int | None = None
    note: str = ""
    tree: Any = field(default=None, repr=False, compare=False)
    """The whole replayed strategy (:class:`placesat.core.andor.StrategyNode`) of a win, for a
    proof file (:mod:`placesat.lsd.proof`)."""

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON, with the strategy's first two levels and the line of play
        (:func:`line_of_play`) when it wins; with "unknown", the depth proven not to win so far."""
        return {
            "player": self.player,
            "depth": self.depth,
            "answer": self.answer,
            "move": None if self.move is None else move_text(self.move),
            "within": self.within,
            "positions": self.positions,
            "replayed": self.replayed,
            "reach_calls": self.reach_calls,
            "reach_cuts": self.reach_cuts,
            "strategy": self.strategy,
            "line": self.line,
            "line_left_out": self.line_left_out,
            "line_complete": self.line_complete,
            "no_win_within": self.no_win_within,
            "note": self.note or None,
        }


def check_depth(depth: int) -> int:
    """``depth`` when it is from 1 to :data:`MAX_DEPTH`: a depth of 0 asks nothing a search could
    answer (whether the player has a line already is ``show``'s to say)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"--depth must be from 1 to {MAX_DEPTH}, not {depth}")
    return depth


def forced_win(
    position: Position,
    player: int,
    depth: int,
    time_limit: "Deadline | float | None" = None,
    reach_from: int | None = DEFAULT_REACH_FROM,
    backend: str = "sat",
    strategy: bool = False,
    check: bool = True,
    searcher: str | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> ForcedAnswer:
    """Can ``player`` force a line within ``depth`` plies, the others playing together against it?

    "win" with a first move and a strategy replayed on the plain rules against every legal reply
    of the others (:func:`replay_win`), its line of play (:func:`line_of_play`)
    and, with ``strategy``, the strategy's first two levels: the first move, every reply of the
    next player, and the player's answer to each when it moves next; "no forced win" (proven by
    exhausting the search); "unknown" when the time limit comes first, with the greatest depth
    proven not to win before it (``no_win_within``); a win whose replay does not finish in the
    time is "unknown" too. A win replayed before the limit stays a win; its line of play is then
    perhaps cut short (``line_complete``). Without ``check`` (for choosing a move, never for an answer
    shown as proven), a win is returned unreplayed.
    """
    check_depth(depth)
    if not 1 <= player <= position.players:
        raise InputError(f"--player must be from 1 to {position.players}, not {player}")
    deadline = as_deadline(time_limit)
    game = LsdGame(player, reach_from, backend, deadline)
    search = new_search(game, deadline, searcher or SEARCH, table_mb)
    root = Node(position, winner(position))
    answer = ForcedAnswer(player, depth, UNKNOWN, stats=search.stats)
    try:
        won = winner(position)
        if won is not None:
            answer.answer = WIN if won == player else NO_WIN
            answer.within = 0 if won == player else None
            return answer
        # a win within d plies is a win within d - 1 when ply d is not the player's: those d are skipped
        own_plies = [d for d in range(1, depth + 1) if plies_of(position, player, d) > plies_of(position, player, d - 1)]
        within = None
        for d in own_plies:
            if search.wins(root, d, deepen=False):
                within = d
                break
            answer.no_win_within = d  # settled: what an interrupted search still knows
        answer.positions = search.stats.nodes  # the strategy's replies below are searched on top
        if within is None:
            answer.answer = NO_WIN
            return answer
    except TimeUp:
        answer.answer, answer.move, answer.strategy = UNKNOWN, None, None
        answer.positions = search.stats.nodes
        answer.reach_calls, answer.reach_cuts = game.reach_calls, game.reach_cuts
        return answer
    settled_before = answer.no_win_within
    answer.answer, answer.within, answer.no_win_within = WIN, within, None
    if check:
        try:
            replayed = replay_win(search, position, player, within, deadline)
        except TimeUp:
            answer.answer, answer.within, answer.no_win_within = UNKNOWN, None, settled_before
            answer.note = f"a win within {within} plies was found, but its replay on the rules did not finish in the time"
            answer.reach_calls, answer.reach_cuts = game.reach_calls, game.reach_cuts
            return answer
        answer.replayed, answer.move, answer.tree = replayed.positions, replayed.tree.move, replayed.tree
    elif position.to_move == player:
        answer.move = search.best_move(root)
        play_turn(position, answer.move)  # the rules must accept it
    try:
        # the win is settled; writing its strategy out may still meet the time limit
        if strategy:
            answer.strategy = _strategy(search, root, player, within)
        answer.line, answer.line_left_out = line_of_play(search, root, player, within)
    except TimeUp:
        answer.line_complete = False
    finally:
        answer.reach_calls, answer.reach_cuts = game.reach_calls, game.reach_cuts
    return answer


@dataclass(frozen=True)
class Replaying:
    """A position met in a strategy's replay, and how many plies were played to reach it from
    the replay's root (the search's depth left there is the win's depth minus ``ply``)."""

    position: Position
    ply: int = 0


class RulesView:
    """The plain rules as :func:`placesat.core.andor.replay_strategy` sees them: checked moves
    (:func:`placesat.lsd.rules.legal_moves`, :func:`placesat.lsd.rules.play_turn`), the game
    over at a line (its owner wins) or when nobody can place (a draw)."""

    def to_move(self, at: Replaying) -> int:
        return at.position.to_move

    def moves(self, at: Replaying) -> Sequence[Move]:
        return legal_moves(at.position)

    def play(self, at: Replaying, move: Move) -> Replaying:
        return Replaying(play_turn(at.position, move).after, at.ply + 1)

    def outcome(self, at: Replaying) -> Outcome | None:
        won = winner(at.position)
        if won is not None:
            return Outcome(won)
        return Outcome(None) if is_draw(at.position) else None


def replay_key(at: Replaying) -> Hashable:
    """The replay's key: the position's (:func:`placesat.lsd.model.position_key`), without the
    plies played, so that move orders meeting in one position are replayed once (the replay adds
    the own moves left, which with the mover fix the plies left)."""
    return position_key(at.position)


def replay_win(search: ForcedSearch, position: Position, player: int, within: int, deadline: Deadline):
    """The strategy ``search`` proved (``player`` forces a line within ``within`` plies from
    ``position``) replayed on the plain rules against every legal reply of the others: the
    search's move, re-proven with the plies left (fast: the table is warm), where ``player``
    moves. Returns the :class:`placesat.core.andor.ReplayedStrategy`; :class:`TimeUp` when
    ``deadline`` comes first; RuntimeError when the rules refuse the strategy (a defect of the
    search, never an answer)."""

    def choose(at: Replaying) -> Move | None:
        left = within - at.ply
        node = Node(at.position, None)  # the replay asks only where the game goes on
        if left <= 0 or not search.wins(node, left, deepen=False):
            return None
        return search.best_move(node)

    try:
        return replay_strategy(RulesView(), Replaying(position), player, plies_of(position, player, within),
                               choose, deadline=deadline, key=replay_key)
    except StrategyFailed as failed:
        raise RuntimeError(f"a forced win failed its replay on the rules: {failed.reason}") from None


LINE_WIDTH = 3
"""At most this many replies of a coalition's mover are shown in a line of play (the strongest
first, by the search's own move order)."""
LINE_STEPS = 24
"""At most this many moves in a line of play; the replies beyond are counted, not shown."""


def line_of_play(
    search: ForcedSearch, node: Node, player: int, depth: int, width: int = LINE_WIDTH, steps: int = LINE_STEPS,
) -> tuple[list[dict[str, Any]], int]:
    """A proven win from ``node`` written out as a tree of moves: the target's winning move
    where it moves, the coalition's strongest ``width`` replies where it moves (each with the
    target's play against it), at most ``steps`` moves in all. Each move is
    ``{"player", "move", "wins", "replies", "left_out"}``: ``replies`` the moves that follow it,
    ``left_out`` how many replies of the next mover are not shown (each is answered all the
    same: the search proved it). Returns the moves at ``node`` and how many are left out there.
    Each target move is re-proven (fast: the table is warm)."""
    budget = [steps]

    def moves_at(node: Node, depth: int) -> tuple[list[dict[str, Any]], int]:
        game = search.game
        if node.won is not None or depth <= 0:
            return [], 0
        mover = node.position.to_move
        left_out = 0
        if mover == player:
            if not search.wins(node, depth, deepen=False):
                raise AssertionError("a line of play left a position proven to win")
            chosen = [search.best_move(node)]
        else:
            replies = _one_per_cell_first(game.order(node, game.moves(node)))
            chosen = replies[: max(0, min(width, budget[0]))]
            left_out = len(replies) - len(chosen)
        shown = []
        for move in chosen:
            budget[0] -= 1
            after = game.play(node, move)
            step: dict[str, Any] = {"player": mover, "move": move_text(move), "wins": after.won == player}
            step["replies"], step["left_out"] = moves_at(after, depth - 1)
            shown.append(step)
        return shown, left_out

    return moves_at(node, depth)


def _one_per_cell_first(moves: Sequence[Move]) -> list[Move]:
    """``moves`` in their order, but the first move on each cell before the others: three ways
    to block one cell say less than three cells blocked."""
    first: list[Move] = []
    rest: list[Move] = []
    cells: set[Any] = set()
    for move in moves:
        where = move.cell if isinstance(move, Placement) else move
        (rest if where in cells else first).append(move)
        cells.add(where)
    return first + rest


def _strategy(search: ForcedSearch, root: Node, player: int, within: int) -> dict[str, Any]:
    """The first two levels of a winning strategy, each reply re-proven (fast: the table is warm)."""
    game = search.game
    if root.position.to_move != player:
        return {"move": None, "wins_at_once": False, "replies": _replies(search, root, player, within)}
    move = search.best_move(root)
    after = game.play(root, move)
    if after.won == player:
        return {"move": move_text(move), "wins_at_once": True, "replies": []}
    return {"move": move_text(move), "wins_at_once": False, "replies": _replies(search, after, player, within - 1)}


def _replies(search: ForcedSearch, node: Node, player: int, depth: int) -> list[dict[str, Any]]:
    """Every move of the next player, with the target's winning answer when it moves right after."""
    game = search.game
    out = []
    for reply in game.moves(node):
        after = game.play(node, reply)
        entry: dict[str, Any] = {"move": move_text(reply), "answer": None}
        if after.position.to_move == player and after.won is None:
            if not search.wins(after, depth - 1, deepen=False):
                raise AssertionError(f"the reply {move_text(reply)} refutes a strategy proven to win")
            answer = search.best_move(after)
            entry["answer"] = None if answer is None else move_text(answer)
        out.append(entry)
    return out
