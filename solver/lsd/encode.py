"""The rules of LSD as SAT / CP-SAT constraints: bounded model checking of a few plies.

:func:`encode_reach` unrolls K plies from a position into one formula, a layer of cell
states per ply: which player's tile stands on a cell after ply ``t``, with which icon and
which half dots, and which tile the mover of ply ``t`` places where (or that it skips). The
movers are fixed (the turn passes to the left every ply, a skip included), so a tile's owner
and icon colour are known from the ply that places it.

Only what the rules can tell apart is encoded: a cell holds (owner, ``+`` or ``x``, the four
sides' dots); a supply is counted per kind (dot pattern up to rotation, icon). Cells a tile
cannot reach by ply ``t`` (more than ``t`` steps from the field) are constantly empty in
layer ``t`` and get no variables, and a cell keeps the literals of the layer before wherever
no placement or capture can change it.

Per ply ``t`` (mover ``m``, icon colour ``k``), in the order of
:func:`placesat.lsd.rules.resolve_placement`:

- exactly one of: a placement on one candidate cell, or a skip; the placed tile's rotation is
  one of the masks of the mover's kinds, its kind counted against the mover's supply;
- the cell is empty before; a dotted side meets a dot or an empty cell, an empty side meets
  no dot; some neighbour's dot faces the tile (a dot is completed);
- a tile is captured exactly when its icon colour is not ``k`` and the placed tile and a
  partner with the same icon in colour ``k`` (the layer before) flank it (``+``, in a row or
  column) or make a 2x2 block with it (``x``, corner to corner);
- the new layer: the placed tile appears, captured tiles vanish, everything else stays;
- the winning check on the new layer, after the captures.

"Ended" literals ``e[t]`` (monotone) mark that the target player ``P`` has won by ply ``t``:
``e[t]`` can first hold on a ply of ``P`` whose layer holds a line of ``P``'s; until it holds,
no other mover may have a line after its ply (nobody won before); after it, every ply is a
skip. Asking for ``e[K]`` asks for a win within ``K`` plies.

A skip is allowed only when the mover cannot place. That condition ("for every cell and every
mask it still has: does not fit") is a large set of clauses; :meth:`ReachEncoding.stuck_clauses`
gives it per ply, so a query may add it only for plies where a model skipped (without it the
formula is a relaxation: its "no" is already a proof).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

from placesat.core.backend import Formula
from placesat.core.limits import Deadline

from .model import ICONS, OPPOSITE, PLUS, SIDES, Cell, Kind, Placement, Position, neighbour, on_table, rotations
from .rules import FIRST_CELL

_PERPENDICULAR = {s: tuple(o for o in SIDES if o not in (s, OPPOSITE[s])) for s in SIDES}


@dataclass
class CellState:
    """The literals of one cell in one layer: occupied; owned by each player; a ``+`` icon
    (meaningful when occupied); a half dot on each side (N, E, S, W), false when empty."""

    occupied: int
    owner: tuple[int, ...]
    plus: int
    dots: tuple[int, int, int, int]

    def dot(self, side: int) -> int:
        """The literal 'occupied, with a half dot on ``side``'."""
        return self.dots[SIDES.index(side)]


@dataclass
class Ply:
    """The literals of one ply: where the mover places (or that it skips) and what."""

    number: int
    mover: int
    at: dict[Cell, int]
    skip: int
    dots: tuple[int, int, int, int]
    plus: int
    masks: dict[int, int]
    patterns: dict[int, int]
    captured: dict[Cell, int] = field(default_factory=dict)


@dataclass
class ReachEncoding:
    """The unrolled plies: the formula, every layer's cell states, every ply's choices, and the
    ``ended`` literals (``ended[t]``: the target player has won by ply ``t``)."""

    formula: Formula
    position: Position
    player: int
    plies: list[Ply]
    layers: list[dict[Cell, CellState]]
    ended: list[int]
    true: int
    empty: CellState
    stuck: Callable[[int, Callable[[], int]], list[list[int]]]

    def state(self, t: int, cell: Cell) -> CellState:
        """The literals of ``cell`` after ply ``t`` (0: the position)."""
        return self.layers[t].get(cell, self.empty)

    def stuck_clauses(self, t: int, new_var: Callable[[], int]) -> list[list[int]]:
        """Clauses saying that a skip on ply ``t`` is allowed only when the mover cannot place
        (auxiliary variables from ``new_var``)."""
        return self.stuck(t, new_var)

    def goal(self, t: int) -> int:
        """The literal 'the target player has won by ply ``t``'."""
        return self.ended[t]

    def moves(self, value: Callable[[int], bool], upto: int) -> list:
        """The moves of a model, plies 1 to ``upto``: placements and skips."""
        from .model import SKIP

        found: list = []
        for ply in self.plies[:upto]:
            cells = [c for c, lit in ply.at.items() if value(lit)]
            if not cells:
                found.append(SKIP)
                continue
            dots = sum(side for side, lit in zip(SIDES, ply.dots) if value(lit))
            found.append(Placement(cells[0], dots, PLUS if value(ply.plus) else ICONS[1]))
        return found


def earliest_plies(position: Position, plies: int, deadline: Deadline | None = None) -> dict[Cell, int]:
    """For every cell a tile may stand on within ``plies`` plies, the first ply that may place one.

    A placement touches a tile already there, so a tile placed on ply ``t`` is at most ``t``
    steps (sides shared) from the field: the distance. A cell of the field may be emptied by a
    capture on ply 1 and refilled from ply 2. On an empty field the first tile goes on
    :data:`placesat.lsd.rules.FIRST_CELL`.
    """
    if not position.field:
        x0, y0 = FIRST_CELL
        return {
            (x0 + dx, y0 + dy): 1 + abs(dx) + abs(dy)
            for dx in range(-plies, plies + 1)
            for dy in range(-plies, plies + 1)
            if 1 + abs(dx) + abs(dy) <= plies
        }
    first = {cell: 2 for cell in position.field} if plies >= 2 else {}
    frontier = list(position.field)
    seen = set(position.field)
    for distance in range(1, plies + 1):
        nxt = []
        for count, cell in enumerate(frontier):
            if deadline is not None and count % 256 == 0:
                deadline.check()  # a field of hundreds of tiles has thousands of cells at each distance
            for side in SIDES:
                other = neighbour(cell, side)
                if other not in seen and on_table(other):
                    seen.add(other)
                    first[other] = distance
                    nxt.append(other)
        frontier = nxt
    return first


def encode_reach(position: Position, player: int, plies: int, deadline: Deadline | None = None) -> ReachEncoding:
    """Unroll ``plies`` plies from ``position`` (the field must be non-empty, or the mover of the
    first ply must have a tile), with the target ``player``; see the module docstring."""
    return _Encoder(position, player, plies, deadline or Deadline.never()).build()


class _Encoder:
    def __init__(self, position: Position, player: int, plies: int, deadline: Deadline) -> None:
        self.position = position
        self.player = player
        self.count = plies
        self.deadline = deadline
        self.formula = Formula()
        self.true = self.formula.new_var()
        self.formula.add_clause([self.true])
        self.false = -self.true
        n = position.players
        self.empty = CellState(self.false, (self.false,) * n, self.false, (self.false,) * 4)
        self.earliest = earliest_plies(position, plies, deadline)
        self.movers = []
        mover = position.to_move
        for _ in range(plies):
            self.movers.append(mover)
            mover = position.next_player(mover)
        self.plies: list[Ply] = []
        self.layers: list[dict[Cell, CellState]] = [self._layer0()]
        self.ended = [self.false]

    # ----------------------------------------------------------------- helpers

    def var(self) -> int:
        return self.formula.new_var()

    def clause(self, lits) -> None:
        """Add a clause, dropping constant-false literals and skipping satisfied clauses."""
        kept = []
        for lit in lits:
            if lit == self.true:
                return
            if lit != self.false:
                kept.append(lit)
        self.formula.add_clause(kept)

    def _layer0(self) -> dict[Cell, CellState]:
        t, f = self.true, self.false
        layer = {}
        for cell, tile in self.position.field.items():
            owner = tuple(t if p == tile.player else f for p in range(1, self.position.players + 1))
            dots = tuple(t if tile.dots & s else f for s in SIDES)
            layer[cell] = CellState(t, owner, t if tile.icon == PLUS else f, dots)  # type: ignore[arg-type]
        return layer

    def colour_players(self, colour: str, same: bool) -> list[int]:
        """The players whose icon colour is (``same``) or is not ``colour``."""
        return [p for p in range(1, self.position.players + 1) if (self.position.icon_colour(p) == colour) == same]

    # ----------------------------------------------------------------- build

    def build(self) -> ReachEncoding:
        uses: dict[tuple[int, Kind], list[int]] = {}
        for t in range(1, self.count + 1):
            self.deadline.check()
            ply = self._choose(t, uses)
            self.plies.append(ply)
            self._connect(t, ply)
            self._capture(t, ply)
            self.layers.append(self._frame(t, ply))
            self._win(t, ply)
        self._supply(uses)
        return ReachEncoding(
            self.formula, self.position, self.player, self.plies, self.layers, self.ended, self.true, self.empty, self._stuck
        )

    def _choose(self, t: int, uses: dict[tuple[int, Kind], list[int]]) -> Ply:
        """Where and what the mover of ply ``t`` places, or its skip."""
        mover = self.movers[t - 1]
        cells = sorted(c for c, first in self.earliest.items() if first <= t)  # on an empty field: FIRST_CELL first
        skip = self.var()
        at = {c: self.var() for c in cells}
        self.formula.add_exactly_one(list(at.values()) + [skip])
        if self.ended[-1] != self.false:
            self.clause([-self.ended[-1], skip])  # nothing is played after the win
        supply = self.position.supplies[mover - 1]
        patterns_held = sorted({k[0] for k, n in supply if n > 0})
        masks = {m: self.var() for p in patterns_held for m in rotations(p)}
        self.formula.add_exactly_one(list(masks.values()) + [skip])
        dots = tuple(self.var() for _ in SIDES)
        for side, lit in zip(SIDES, dots):
            self.clause([-lit] + [v for m, v in masks.items() if m & side])
            for m, v in masks.items():
                self.clause([-v, lit] if m & side else [-v, -lit])
        plus = self.var()
        patterns = {}
        for p in patterns_held:
            used = self.var()
            members = [masks[m] for m in rotations(p)]
            self.clause([-used] + members)
            for v in members:
                self.clause([-v, used])
            patterns[p] = used
            for icon in ICONS:
                kind_used = self.var()
                self.clause([-used, -plus if icon == PLUS else plus, kind_used])
                uses.setdefault((mover, (p, icon)), []).append(kind_used)
        return Ply(t, mover, at, skip, dots, plus, masks, patterns)  # type: ignore[arg-type]

    def _supply(self, uses: dict[tuple[int, Kind], list[int]]) -> None:
        """No player places more tiles of a kind than its supply holds."""
        for (mover, kind), lits in uses.items():
            held = dict(self.position.supplies[mover - 1]).get(kind, 0)
            if held < len(lits):
                self.formula.add_at_most(lits, held)

    def _connect(self, t: int, ply: Ply) -> None:
        """A placement goes on an empty cell, meets every neighbour's side (dot to dot, empty to
        empty) and completes at least one dot. The first tile of the game needs none of this."""
        if not self.position.field and t == 1:
            return
        before = self.layers[t - 1]
        for cell, at in ply.at.items():
            self.deadline.check()
            state = before.get(cell, self.empty)
            self.clause([-at, -state.occupied])
            completed = []
            for side, mine in zip(SIDES, ply.dots):
                other = before.get(neighbour(cell, side), self.empty)
                facing = other.dot(OPPOSITE[side])
                self.clause([-at, -mine, -other.occupied, facing])
                self.clause([-at, mine, -facing])
                completed.append(facing)
            self.clause([-at] + completed)

    def _capture(self, t: int, ply: Ply) -> None:
        """``captured[v]`` holds exactly when the placement captures the tile on ``v``."""
        before = self.layers[t - 1]
        colour = self.position.icon_colour(ply.mover)
        partners = self.colour_players(colour, True)
        victims = self.colour_players(colour, False)
        for cell in sorted(before):
            self.deadline.check()
            state = before[cell]
            victim_lits = [state.owner[p - 1] for p in victims if state.owner[p - 1] != self.false]
            if not victim_lits:
                continue
            triggers = []  # (placed-cell literal, icon is plus, partner state)
            for side in SIDES:
                at = ply.at.get(neighbour(cell, side))
                if at is None:
                    continue
                across = before.get(neighbour(cell, OPPOSITE[side]))
                if across is not None:
                    triggers.append((at, True, across))
                for other_side in _PERPENDICULAR[side]:
                    corner = before.get(neighbour(cell, other_side))
                    if corner is not None:
                        triggers.append((at, False, corner))
            triggers = [
                (at, is_plus, partner)
                for at, is_plus, partner in triggers
                if any(partner.owner[p - 1] != self.false for p in partners)
                and partner.plus != (self.false if is_plus else self.true)
            ]
            if not triggers:
                continue
            captured = self.var()
            ply.captured[cell] = captured
            self.clause([-captured] + victim_lits)
            reasons = []
            for at, is_plus, partner in triggers:
                icon = ply.plus if is_plus else -ply.plus
                partner_icon = partner.plus if is_plus else -partner.plus
                partner_lits = [partner.owner[p - 1] for p in partners]
                for owner in partner_lits:
                    for victim in victim_lits:
                        self.clause([-at, -icon, -partner_icon, -owner, -victim, captured])
                reason = self.var()
                reasons.append(reason)
                self.clause([-reason, at])
                self.clause([-reason, icon])
                self.clause([-reason, partner_icon])
                self.clause([-reason] + partner_lits)
            self.clause([-captured] + reasons)

    def _frame(self, t: int, ply: Ply) -> dict[Cell, CellState]:
        """The layer after ply ``t``: the placed tile appears, captured tiles vanish, the rest stays."""
        before = self.layers[t - 1]
        layer: dict[Cell, CellState] = {}
        n = self.position.players
        for cell in set(before) | set(ply.at):
            self.deadline.check()
            placed = ply.at.get(cell, self.false)
            captured = ply.captured.get(cell, self.false)
            old = before.get(cell, self.empty)
            if placed == self.false and captured == self.false:
                layer[cell] = old
                continue
            new = CellState(self.var(), tuple(self.var() for _ in range(n)), self.var(), tuple(self.var() for _ in SIDES))  # type: ignore[arg-type]
            pairs = [(old.occupied, new.occupied), (old.plus, new.plus)]
            pairs += list(zip(old.owner, new.owner)) + list(zip(old.dots, new.dots))
            for was, now in pairs:
                self.clause([placed, captured, -was, now])
                self.clause([placed, captured, was, -now])
            for now in (new.occupied, *new.owner, *new.dots):
                self.clause([-captured, -now])
            self.clause([-placed, new.occupied])
            for p, now in enumerate(new.owner, start=1):
                self.clause([-placed, now] if p == ply.mover else [-placed, -now])
            self.clause([-placed, -ply.plus, new.plus])
            self.clause([-placed, ply.plus, -new.plus])
            for mine, now in zip(ply.dots, new.dots):
                self.clause([-placed, -mine, now])
                self.clause([-placed, mine, -now])
            layer[cell] = new
        return layer

    def windows(self, t: int, player: int) -> list[tuple[Cell, ...]]:
        """The runs of cells where ``player`` could have a line after ply ``t``: every cell holds
        its tile already or may get one on its plies up to ``t``, enough of them to fill the run."""
        length = self.position.line_length
        own_plies = [s for s in range(1, t + 1) if self.movers[s - 1] == player]
        held = {c for c, tile in self.position.field.items() if tile.player == player}
        possible = held | {c for c, first in self.earliest.items() if any(first <= s for s in own_plies)}
        runs = []
        for x, y in possible:
            self.deadline.check()
            for dx, dy in ((1, 0), (0, 1)):
                run = tuple((x + i * dx, y + i * dy) for i in range(length))
                if all(c in possible for c in run) and sum(c in held for c in run) + len(own_plies) >= length:
                    runs.append(run)
        return sorted(runs)

    def _win(self, t: int, ply: Ply) -> None:
        """The winning check after ply ``t``'s captures, and the ``ended`` literals."""
        layer = self.layers[t]
        before = self.ended[-1]
        runs = self.windows(t, ply.mover)
        if ply.mover != self.player:
            for run in runs:  # nobody else may win before the target player
                self.clause([before] + [-layer.get(c, self.empty).owner[ply.mover - 1] for c in run])
            self.ended.append(before)
            return
        if not runs:
            self.ended.append(before)
            return
        now = self.var()
        self.clause([-before, now])
        lines = []
        for run in runs:
            line = self.var()
            for c in run:
                self.clause([-line, layer.get(c, self.empty).owner[self.player - 1]])
            lines.append(line)
        self.clause([-now, before] + lines)
        self.ended.append(now)

    # ----------------------------------------------------------------- skips

    def _available(self, t: int, ply: Ply, new_var: Callable[[], int], out: list[list[int]]) -> dict[int, int]:
        """Per dot pattern, a literal that must hold while the mover still has a tile of it."""
        supply = self.position.supplies[ply.mover - 1]
        earlier = [p for p in self.plies[: t - 1] if p.mover == ply.mover]
        literals = {}
        for pat in ply.patterns:
            held = sum(n for (p, _), n in supply if p == pat)
            if held > len(earlier):
                literals[pat] = self.true
                continue
            # not available only if `held` earlier plies used the pattern: every set of
            # len(earlier) - held + 1 earlier plies holds one that used it
            lit = new_var()
            for subset in itertools.combinations(earlier, len(earlier) - held + 1):
                out.append([lit] + [p.patterns[pat] for p in subset])
            literals[pat] = lit
        return literals

    def _stuck(self, t: int, new_var: Callable[[], int]) -> list[list[int]]:
        """A skip on ply ``t`` only when no mask the mover still has fits any cell."""
        ply = self.plies[t - 1]
        before = self.layers[t - 1]
        out: list[list[int]] = []
        if not self.position.field and t == 1:
            # the first tile fits anywhere: a skip only without any tile
            available = self._available(t, ply, new_var, out)
            for lit in available.values():
                out.append([-ply.skip, -lit])
            return self._simplified(out)
        available = self._available(t, ply, new_var, out)
        blank: dict[tuple[Cell, int], int] = {}

        def blank_side(cell: Cell, side: int) -> int:
            """A literal that holds only if ``cell`` is occupied without a dot on ``side``."""
            key = (cell, side)
            if key not in blank:
                state = before.get(cell, self.empty)
                if state.occupied == self.false:
                    blank[key] = self.false
                else:
                    lit = new_var()
                    out.append([-lit, state.occupied])
                    out.append([-lit, -state.dot(side)])
                    blank[key] = lit
            return blank[key]

        ended = self.ended[t - 1]
        for cell in ply.at:
            facing = {side: before.get(neighbour(cell, side), self.empty).dot(OPPOSITE[side]) for side in SIDES}
            if all(lit == self.false for lit in facing.values()):
                continue
            occupied = before.get(cell, self.empty).occupied
            for pat, have in available.items():
                for mask in rotations(pat):
                    rest = [occupied] + [blank_side(neighbour(cell, s), OPPOSITE[s]) if mask & s else facing[s] for s in SIDES]
                    for side in SIDES:
                        if mask & side and facing[side] != self.false:
                            out.append([-ply.skip, ended, -have] + rest + [-facing[side]])
        return self._simplified(out)

    def _simplified(self, clauses: list[list[int]]) -> list[list[int]]:
        kept = []
        for clause in clauses:
            if self.true in clause:
                continue
            kept.append([lit for lit in clause if lit != self.false])
        return kept


def all_stuck_clauses(encoding: ReachEncoding) -> list[list[int]]:
    """Every ply's skip condition, with auxiliary variables taken from the encoding's formula
    (for a formula built once with every rule in it, as the tests use)."""
    clauses = []
    for t in range(1, len(encoding.plies) + 1):
        clauses.extend(encoding.stuck_clauses(t, encoding.formula.new_var))
    return clauses


__all__ = ["CellState", "Ply", "ReachEncoding", "all_stuck_clauses", "earliest_plies", "encode_reach"]
