"""The plain Logi-Sticks rule engine, written without any solver.

Signals are Kleene three-valued: ``True``, ``False`` and ``None`` (MUTABLE: not yet known,
because an input somewhere upstream is still open). Every rule here is stated in
``seeds/logisticks.md``; the encoder (``encode.py``) writes the same rules as constraints and the
queries replay every witness they find through this module.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable, Iterator

from placesat.core.errors import InputError
from placesat.core.inputs import parse_json_as, read_text

from .model import (
    ALL_KINDS,
    BLACK,
    CENTRE_POINTS,
    OPPOSITE,
    SIDES,
    WHITE,
    Piece,
    Placement,
    Position,
    neighbour,
    position_from_json,
    square_name,
)
from placesat.core.lattice import Point

Signal = bool | None  # None is MUTABLE


def signal_text(value: Signal) -> str:
    """``TRUE``, ``FALSE`` or ``MUTABLE``."""
    return "MUTABLE" if value is None else ("TRUE" if value else "FALSE")


def gate(piece_type: str, inputs: list[Signal]) -> Signal:
    """The output of a piece from its input values (Kleene logic; an open input is MUTABLE).

    AND is FALSE as soon as one input is FALSE and TRUE only when both are; OR is TRUE as soon
    as one input is TRUE and FALSE only when both are; XOR is known only when both inputs are.
    PASS and CAP copy their input, NOT inverts it.
    """
    if piece_type == "AND":
        if any(v is False for v in inputs):
            return False
        return True if all(v is True for v in inputs) else None
    if piece_type == "OR":
        if any(v is True for v in inputs):
            return True
        return False if all(v is False for v in inputs) else None
    if piece_type == "XOR":
        a, b = inputs
        return None if a is None or b is None else a != b
    (value,) = inputs
    if piece_type == "NOT":
        return None if value is None else not value
    return value  # PASS, CAP


# --------------------------------------------------------------------------- what a side faces


@dataclass(frozen=True)
class Facing:
    """What lies across one side of a square.

    ``what`` is ``rim`` (the edge of the board), ``centre`` (a centre stone, ``colour`` set),
    ``empty`` (an empty square), ``output`` or ``input`` (that side of the piece on ``square``).
    """

    what: str
    square: Point | None = None
    colour: str | None = None


def facing(position: Position, square: Point, side: str) -> Facing:
    """What ``side`` of ``square`` faces in ``position``."""
    other = neighbour(square, side)
    if other is None:
        return Facing("rim")
    if other in CENTRE_POINTS:
        return Facing("centre", other, position.centre[(other, OPPOSITE[side])])
    piece = position.pieces.get(other)
    if piece is None:
        return Facing("empty", other)
    return Facing("output" if OPPOSITE[side] in piece.kind.outputs else "input", other)


def feeds(position: Position, square: Point) -> list[Point]:
    """The pieces whose input is joined to an output of the piece on ``square``."""
    pieces = position.pieces
    fed = []
    for side in pieces[square].kind.outputs:
        other = neighbour(square, side)
        piece = None if other is None else pieces.get(other)
        # an output side faces an input (what facing() calls "input"); read directly, as
        # the search asks this of every piece it follows
        if piece is not None and OPPOSITE[side] in piece.kind.inputs:
            fed.append(other)
    return fed


def _reaches(position: Position, starts: Iterable[Point], goals: set[Point]) -> bool:
    """Whether some piece downstream of ``starts`` (or a start itself) is in ``goals``."""
    todo = deque(starts)
    seen = set(todo)
    while todo:
        square = todo.popleft()
        if square in goals:
            return True
        for nxt in feeds(position, square):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def capacitor_usable(position: Position, square: Point, turn: int) -> bool:
    """Whether the outputs of the piece on ``square`` may serve as a source on ``turn``.

    A Capacitor's outputs may not be played off until the turn of the player who placed it
    comes round again: with ``n`` players, from turn ``placed + n`` on. A Capacitor with no
    recorded turn is taken to be usable. Other pieces are always usable.
    """
    piece = position.pieces[square]
    if piece.kind.type != "CAP" or piece.turn is None:
        return True
    return turn >= piece.turn + position.players


# --------------------------------------------------------------------------- legality


def placement_problem(
    position: Position,
    placement: Placement,
    player: int,
    turn: int | None,
) -> str | None:
    """Why ``player`` may not make ``placement`` on ``turn``, or ``None`` when it is legal.

    A placement is legal when the square is empty and not a centre square; the player still
    has such a piece; no input side faces the rim or an input side of a neighbour; every input
    faces a source (a centre stone, or an output of a neighbouring piece that may be played off)
    or is open (faces an empty square), with only a two-input piece allowed to leave one input
    open and never both; and the new piece closes no feedback loop. ``turn=None`` skips the
    Capacitor timing rule.
    """
    square, kind = placement.square, placement.kind
    if square in CENTRE_POINTS:
        return f"{square_name(square)} is a centre square"
    if square in position.pieces:
        return f"{square_name(square)} is occupied"
    if position.supply[player][kind.type] <= 0:
        return f"player {player} has no {kind.type} left"
    sources: list[Point] = []
    sourced = 0
    for side in kind.inputs:
        seen = facing(position, square, side)
        if seen.what == "rim":
            return f"the {side} input of {kind} on {square_name(square)} faces the rim"
        if seen.what == "input":
            return f"the {side} input of {kind} on {square_name(square)} faces an input of the piece on {square_name(seen.square)}"
        if seen.what == "output" and turn is not None and not capacitor_usable(position, seen.square, turn):
            owner = position.pieces[seen.square].player
            return (
                f"the Capacitor on {square_name(seen.square)} cannot be played off until "
                f"player {owner}'s turn comes round again"
            )
        if seen.what in ("centre", "output"):
            sourced += 1
            if seen.what == "output":
                sources.append(seen.square)
    if sourced == 0:
        if len(kind.inputs) == 1:
            return f"the input of {kind} on {square_name(square)} faces no source"
        return f"both inputs of {kind} on {square_name(square)} are open"
    # The new piece fills the open inputs its outputs face; a loop would run from one of those
    # pieces back into one of the new piece's sources.
    filled = []
    for side in kind.outputs:
        seen = facing(position, square, side)
        if seen.what == "input":
            filled.append(seen.square)
    if sources and filled and _reaches(position, filled, set(sources)):
        return f"{kind} on {square_name(square)} would close a feedback loop"
    return None


def place(position: Position, placement: Placement, player: int, turn: int | None) -> Position:
    """The position after ``player`` puts ``placement`` on the board on ``turn`` (no turn order).

    Raises ``ValueError`` naming the rule when the placement is illegal. The player to move and
    the turn counter are left alone; :func:`apply_move` is the move of a game.
    """
    problem = placement_problem(position, placement, player, turn)
    if problem:
        raise ValueError(problem)
    after = position.copy()
    after.pieces[placement.square] = Piece(placement.kind, player, turn)
    after.supply[player][placement.kind.type] -= 1
    return after


def _placements(position: Position, player: int, turn: int | None) -> Iterator[Placement]:
    """The placements :func:`placement_problem` finds no problem with, square by square in
    board order, kinds in :data:`ALL_KINDS` order. The same rules, but what each side of a square
    faces is read once per square instead of once per kind and side (the search asks this of
    every position); tests/test_logisticks_deeper.py checks the two agree."""
    pieces = position.pieces
    supply = position.supply[player]
    kinds = [kind for kind in ALL_KINDS if supply[kind.type] > 0]
    if not kinds:
        return
    for row in range(8):
        for col in range(8):
            square = (row, col)
            if square in CENTRE_POINTS or square in pieces:
                continue
            faces: dict[str, tuple[str, Point | None]] = {}
            any_source = False
            for side in SIDES:
                other = neighbour(square, side)
                if other is None:
                    faces[side] = ("rim", None)
                elif other in CENTRE_POINTS:
                    faces[side] = ("centre", other)
                    any_source = True
                else:
                    piece = pieces.get(other)
                    if piece is None:
                        faces[side] = ("empty", other)
                    elif OPPOSITE[side] in piece.kind.outputs:
                        faces[side] = ("output", other)
                        any_source = True
                    else:
                        faces[side] = ("input", other)
            if not any_source:
                continue  # nothing to play off here
            for kind in kinds:
                sources: list[Point] = []
                sourced = 0
                for side in kind.inputs:
                    what, other = faces[side]
                    if what == "rim" or what == "input":
                        break
                    if what == "output":
                        if turn is not None and not capacitor_usable(position, other, turn):  # type: ignore[arg-type]
                            break
                        sources.append(other)  # type: ignore[arg-type]
                        sourced += 1
                    elif what == "centre":
                        sourced += 1
                else:
                    if sourced == 0:
                        continue  # an open one-input piece, or both inputs open
                    filled = [faces[side][1] for side in kind.outputs if faces[side][0] == "input"]
                    if sources and filled and _reaches(position, filled, set(sources)):  # type: ignore[arg-type]
                        continue  # a feedback loop
                    yield Placement(square, kind)


def placements(position: Position, player: int, turn: int | None) -> Iterator[Placement]:
    """The legal placements of ``player`` on ``turn`` one by one, in board order (what
    :func:`legal_placements` lists; a search that needs only the first few stops early)."""
    return _placements(position, player, turn)


def legal_placements(position: Position, player: int | None = None, turn: int | None = -1) -> list[Placement]:
    """Every legal placement for ``player`` (default: the player to move) on ``turn``
    (default: the position's turn; ``None`` ignores Capacitor timing), squares in board order."""
    player = position.to_move if player is None else player
    turn = position.turn if turn == -1 else turn
    return list(_placements(position, player, turn))


def can_place(position: Position, player: int, turn: int | None) -> bool:
    """Whether ``player`` has at least one legal placement on ``turn`` (None: any Capacitor usable)."""
    return next(_placements(position, player, turn), None) is not None


def apply_move(position: Position, move: Placement | None) -> Position:
    """The position after the player to move makes ``move`` (``None`` is a pass).

    A pass is allowed only when the player has no legal placement. No move is allowed once the
    game is over. Raises ``ValueError`` naming the rule otherwise.
    """
    if game_over(position):
        raise ValueError("the game is over")
    player = position.to_move
    if move is None:
        if can_place(position, player, position.turn):
            raise ValueError(f"player {player} has a legal placement, so may not pass")
        after = position.copy()
    else:
        after = place(position, move, player, position.turn)
    after.to_move = position.next_player(player)
    after.turn = position.turn + 1
    return after


# --------------------------------------------------------------------------- signals


def signals(position: Position) -> dict[Point, Signal]:
    """The output value of every piece (all outputs of a piece carry the same signal).

    An input facing a centre stone gets its colour (white TRUE, black FALSE); an input facing an
    output gets that piece's value; an open input is MUTABLE. The position must be free of loops.
    """
    values: dict[Point, Signal] = {}
    pieces = position.pieces

    def value_of(square: Point) -> Signal:
        """The signal of the piece on ``square``, its upstream pieces evaluated first."""
        if square in values:
            return values[square]
        # iterative depth-first evaluation: a long chain must not hit the recursion limit
        stack = [square]
        while stack:
            top = stack[-1]
            piece = pieces[top]
            pending = []
            inputs: list[Signal] = []
            for side in piece.kind.inputs:
                # what facing() reports, read directly (this runs for every piece of every
                # position a search or a replay meets)
                other = neighbour(top, side)
                source = None if other is None else pieces.get(other)
                if other is not None and other in CENTRE_POINTS:
                    inputs.append(position.centre[(other, OPPOSITE[side])] == WHITE)
                elif source is not None and OPPOSITE[side] in source.kind.outputs:
                    if other in values:
                        inputs.append(values[other])
                    else:
                        pending.append(other)
                else:
                    inputs.append(None)
            if pending:
                stack.extend(pending)
                if len(stack) > 4 * len(position.pieces) + 8:
                    raise ValueError("the signals run round a loop")
                continue
            values[top] = gate(piece.kind.type, inputs)
            stack.pop()
        return values[square]

    for square in position.pieces:
        value_of(square)
    return values


def _input_signal(position: Position, values: dict[Point, Signal], square: Point, side: str) -> Signal:
    """What the input on ``side`` of the piece on ``square`` reads (as :func:`signals` reads it):
    a centre stone's colour, the output it faces, MUTABLE otherwise."""
    other = neighbour(square, side)
    if other is None:
        return None
    if other in CENTRE_POINTS:
        return position.centre[(other, OPPOSITE[side])] == WHITE
    piece = position.pieces.get(other)
    if piece is not None and OPPOSITE[side] in piece.kind.outputs:
        return values[other]
    return None


def signals_after(position: Position, values: dict[Point, Signal], square: Point) -> dict[Point, Signal]:
    """:func:`signals` of ``position``, given ``values``, the signals of the same position
    without the piece on ``square`` (one placement later): only the new piece and the pieces
    downstream of it are evaluated.

    The new piece changes no input of a piece upstream of it or beside the chains it feeds: an
    input reads a centre stone, the output it faces (unchanged unless that piece changed) or
    MUTABLE. So every other piece keeps its equation and its value, and the new values are found
    by evaluating the new piece, then, each time a piece's value changes, the pieces it feeds
    again. Every equation touched is re-evaluated after its last input change, so what is left
    satisfies every piece's equation; on a loop-free board those have one solution, the values
    :func:`signals` finds. (By Kleene monotonicity a value only goes from MUTABLE to settled,
    so each piece changes at most once and the work is the pieces that change, and their
    direct successors.)"""
    new = dict(values)
    todo = [square]
    pieces = position.pieces
    while todo:
        top = todo.pop()
        piece = pieces[top]
        value = gate(piece.kind.type, [_input_signal(position, new, top, side) for side in piece.kind.inputs])
        if top in new and new[top] == value:
            continue
        new[top] = value
        for side in piece.kind.outputs:
            other = neighbour(top, side)
            fed = None if other is None else pieces.get(other)
            if fed is not None and OPPOSITE[side] in fed.kind.inputs:
                todo.append(other)
    return new


def target_signals(position: Position) -> dict[tuple[int, Point], Signal]:
    """What each target stone receives: the signal of the piece on its square (which always
    outputs towards the rim, since no input may face the rim), MUTABLE when the square is empty."""
    values = signals(position)
    return {
        (player, square): values.get(square)
        for player, square, _colour in position.target_list()
    }


def target_resolved(position: Position) -> bool:
    """Whether every target square holds a piece with a non-MUTABLE output."""
    return all(v is not None for v in target_signals(position).values())


def game_over(position: Position) -> bool:
    """The game ends when every target receives a non-MUTABLE signal, or (our addition) when no
    player has any legal placement even with every Capacitor usable, since passing cannot
    change that."""
    if target_resolved(position):
        return True
    return not any(can_place(position, player, None) for player in range(1, position.players + 1))


@dataclass(frozen=True)
class Score:
    """One player's result: points (matched targets), matched white (TRUE) targets, and black
    (FALSE) target stones owned, the second and third being the tie-breaks in order."""

    player: int
    points: int
    true_matched: int
    black_stones: int

    def key(self) -> tuple[int, int, int]:
        """The ranking key: points, then matched TRUE targets, then black stones."""
        return (self.points, self.true_matched, self.black_stones)


def matches(colour: str, value: Signal) -> bool:
    """A target is matched when it receives its own colour's signal: white TRUE, black FALSE."""
    return value is not None and value == (colour == WHITE)


def scores(position: Position) -> dict[int, Score]:
    """Each player's points: one per own target receiving a matching signal."""
    received = target_signals(position)
    result = {}
    for player in range(1, position.players + 1):
        stones = position.targets.get(player, {})
        matched = [s for s, c in stones.items() if matches(c, received[(player, s)])]
        result[player] = Score(
            player,
            len(matched),
            sum(1 for s in matched if stones[s] == WHITE),
            sum(1 for c in stones.values() if c == BLACK),
        )
    return result


def winners(position: Position) -> list[int]:
    """The winning player(s): most points, then most matched TRUE targets, then most FALSE
    target stones to begin with; players still level after that tie."""
    table = scores(position)
    best = max(score.key() for score in table.values())
    return [p for p, score in sorted(table.items()) if score.key() == best]


# --------------------------------------------------------------------------- position checks


def check_position(position: Position) -> None:
    """Raise :class:`InputError` unless every piece could stand where it stands.

    No input faces the rim or another input; each one-input piece's input faces a source and
    each two-input piece has at least one; the signals form no loop; and, where turns are
    recorded, no piece was played off a Capacitor before its owner's turn came round again.
    """
    for square, piece in sorted(position.pieces.items()):
        name = square_name(square)
        sourced = 0
        for side in piece.kind.inputs:
            seen = facing(position, square, side)
            if seen.what == "rim":
                raise InputError(f"pieces: the {side} input of {piece.kind} on {name} faces the rim")
            if seen.what == "input":
                raise InputError(
                    f"pieces: the {side} input of {piece.kind} on {name} faces an input of the piece on "
                    f"{square_name(seen.square)}"
                )
            if seen.what in ("centre", "output"):
                sourced += 1
            if seen.what == "output":
                cap = position.pieces[seen.square]
                if (
                    cap.kind.type == "CAP"
                    and cap.turn is not None
                    and piece.turn is not None
                    and cap.turn < piece.turn < cap.turn + position.players
                ):
                    raise InputError(
                        f"pieces: {piece.kind} on {name} (turn {piece.turn}) was played off the Capacitor on "
                        f"{square_name(seen.square)} (turn {cap.turn}) before player {cap.player}'s turn came round again"
                    )
        if sourced == 0:
            what = "input faces no source" if len(piece.kind.inputs) == 1 else "inputs are both open"
            raise InputError(f"pieces: {piece.kind} on {name}: its {what}")
    loop = find_loop(position)
    if loop:
        raise InputError("pieces: the signals run round a loop: " + " -> ".join(square_name(s) for s in loop))


def parse_position(text: str, path: str | None = None) -> Position:
    """Parse a position file (its format, :func:`placesat.logisticks.model.position_from_json`)
    and check its pieces against the placement rules (:func:`check_position`); ``InputError``
    naming the file when bad."""

    def checked(raw: object) -> Position:
        position = position_from_json(raw)
        check_position(position)
        return position

    return parse_json_as(text, path, checked)


def load_position(path: str) -> Position:
    """Read and check a position file (:func:`parse_position`); every failure is an
    ``InputError`` naming the file."""
    return parse_position(read_text(path), path)


def find_loop(position: Position) -> list[Point] | None:
    """A feedback loop of pieces (each feeding the next, the last feeding the first), or None."""
    colour: dict[Point, int] = {}  # 1 on the current path, 2 finished
    for start in sorted(position.pieces):
        if start in colour:
            continue
        path = [start]
        iters = [iter(feeds(position, start))]
        colour[start] = 1
        while path:
            nxt = next(iters[-1], None)
            if nxt is None:
                colour[path.pop()] = 2
                iters.pop()
                continue
            if colour.get(nxt) == 1:
                return path[path.index(nxt):]
            if nxt not in colour:
                colour[nxt] = 1
                path.append(nxt)
                iters.append(iter(feeds(position, nxt)))
    return None


# --------------------------------------------------------------------------- witnesses


@dataclass(frozen=True)
class PlannedPlacement:
    """One step of a witness line: ``player`` makes ``placement`` on ``turn``."""

    turn: int
    player: int
    placement: Placement

    def to_json(self) -> dict:
        """The step as JSON: turn, player, square, piece, inputs."""
        return {
            "turn": self.turn,
            "player": self.player,
            "square": square_name(self.placement.square),
            "piece": self.placement.kind.type,
            "inputs": self.placement.kind.orientation,
        }


@dataclass(frozen=True)
class PlannedTurn:
    """One turn of a witness line as it is played: ``player`` makes ``placement`` on ``turn``,
    or passes (``placement`` None: a player with no step on that turn waits)."""

    turn: int
    player: int
    placement: Placement | None

    def __str__(self) -> str:
        return "pass" if self.placement is None else str(self.placement)


def turns_of(position: Position, plan: list[PlannedPlacement]) -> list[PlannedTurn]:
    """Every turn of ``plan`` from ``position``'s turn to its last step, the passes between
    steps included: a plan skips the turns on which players wait, a game does not."""
    steps = {step.turn: step for step in plan}
    last = max(steps, default=position.turn - 1)
    return [
        PlannedTurn(turn, (position.to_move - 1 + turn - position.turn) % position.players + 1,
                    steps[turn].placement if turn in steps else None)
        for turn in range(position.turn, last + 1)
    ]


def replay(position: Position, plan: list[PlannedPlacement]) -> Position:
    """Play ``plan`` step by step, checking every placement with :func:`placement_problem`
    (supply, sources, open inputs, loops and Capacitor timing on the planned turn).

    A plan is a line for cooperating players: turns increase, each step is made by the player
    whose turn it is in rotation, and the turns skipped between steps are turns on which that
    player waited. Raises ``ValueError`` on the first step that breaks a rule.
    """
    current = position
    last_turn = position.turn - 1
    for step in plan:
        if step.turn <= last_turn:
            raise ValueError(f"turn {step.turn} is not after turn {last_turn}")
        expected = (position.to_move - 1 + step.turn - position.turn) % position.players + 1
        if step.player != expected:
            raise ValueError(f"turn {step.turn} belongs to player {expected}, not {step.player}")
        try:
            current = place(current, step.placement, step.player, step.turn)
        except ValueError as error:
            raise ValueError(f"turn {step.turn}: {error}") from None
        last_turn = step.turn
    current = current.copy()
    current.turn = last_turn + 1
    current.to_move = (position.to_move - 1 + current.turn - position.turn) % position.players + 1
    return current
