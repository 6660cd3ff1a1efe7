"""Logi-Sticks completions as a Boolean formula.

A *completion* of a position is a set of pieces added to empty squares from the remaining
supplies such that the pieces can be put down one at a time, each legal when placed (the
relaxation of seeds/logisticks.md: any interleaving of players, Capacitor waits absorbed by
waiting turns). The encoder describes the *final board* of a completion and relies on this fact,
argued in the rule statement and checked against a brute-force enumerator in the tests:

    a final board is reachable from the position by legal placements exactly when
    (1) no input side faces the rim or an input side of a neighbour,
    (2) every added one-input piece's input faces a source (a centre stone or an output), and
        every added two-input piece has at least one input facing a source,
    (3) the signal graph (output side -> facing input side) has no loop, and
    (4) no more pieces of a type are added than the supplies hold.

Given (1)-(4), placing the added pieces in an order compatible with the signal graph places each
piece after all of its sources, so each is legal when placed; conversely a legal line keeps
(1)-(4) true at every step. Condition (3) has two encodings giving the same answers:
``levels`` (in full: a level per square, order-encoded as ``level >= k``, strictly growing
along every signal join) and ``lazy`` (only the 576 loops of at most ten squares up front; a
longer loop is cut with one clause when a model shows it, and the queries re-solve until the
model is loop-free, adding the ``levels`` clauses to the live solver if loops keep coming).
``lazy`` is the default of the queries: its formula is a third of the size and measured faster
on both backends.

Signals are two Booleans per square, ``is_true`` and ``is_false``; neither means MUTABLE (or
empty). Each piece's pair is defined exactly by Kleene logic from its input pairs; since the
graph is loop-free, the values of every model are the values the rule engine computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Sequence, Union

from placesat.core.backend import Formula
from placesat.core.lattice import Point

from .model import (
    ALL_KINDS,
    BOARD,
    CENTRE_POINTS,
    OPPOSITE,
    PIECE_TYPES,
    SIDES,
    WHITE,
    Kind,
    Piece,
    Placement,
    Position,
    neighbour,
)
from .rules import find_loop, signals

Lit = Union[int, bool]  # a formula literal, or a constant


def _clause(formula, lits: Sequence[Lit]) -> None:
    """Add the clause, simplifying constants: a True literal satisfies it, False ones drop."""
    out = []
    for lit in lits:
        if lit is True:
            return
        if lit is False:
            continue
        out.append(lit)
    formula.add_clause(out)


def _neg(lit: Lit) -> Lit:
    return (not lit) if isinstance(lit, bool) else -lit


def _define(formula: Formula, guard: Lit, out: Lit, terms: list[list[Lit]]) -> None:
    """Under ``guard``: ``out`` holds exactly when one of the conjunctions ``terms`` holds."""
    for term in terms:  # term -> out
        _clause(formula, [_neg(guard)] + [_neg(lit) for lit in term] + [out])
    # out -> some term: distribute (terms are at most two literals, at most two terms)
    for choice in product(*terms) if terms else [()]:
        _clause(formula, [_neg(guard), _neg(out)] + list(choice))


def gate_terms(piece_type: str, ins: list[tuple[Lit, Lit]]) -> tuple[list[list[Lit]], list[list[Lit]]]:
    """The Kleene truth table of a piece type as DNF over its inputs' (is_true, is_false) pairs:
    (terms for the output being TRUE, terms for it being FALSE)."""
    if piece_type in ("PASS", "CAP"):
        (a,) = ins
        return [[a[0]]], [[a[1]]]
    if piece_type == "NOT":
        (a,) = ins
        return [[a[1]]], [[a[0]]]
    a, b = ins
    if piece_type == "AND":
        return [[a[0], b[0]]], [[a[1]], [b[1]]]
    if piece_type == "OR":
        return [[a[0]], [b[0]]], [[a[1], b[1]]]
    return [[a[0], b[1]], [a[1], b[0]]], [[a[0], b[0]], [a[1], b[1]]]  # XOR


@dataclass
class CompletionEncoding:
    """The formula of a position's completions and the variables a query needs.

    ``kind_var[s][k]``: an added piece of kind ``k`` stands on empty square ``s``.
    ``is_true[s]`` / ``is_false[s]``: the piece on ``s`` outputs TRUE / FALSE (constants where
    the value is already settled in the position, since a settled signal never changes).
    """

    position: Position
    formula: Formula = field(default_factory=Formula)
    kind_var: dict[Point, dict[Kind, int]] = field(default_factory=dict)
    is_true: dict[Point, Lit] = field(default_factory=dict)
    is_false: dict[Point, Lit] = field(default_factory=dict)
    has_input: dict[tuple[Point, str], Lit] = field(default_factory=dict)
    has_output: dict[tuple[Point, str], Lit] = field(default_factory=dict)
    occupied: dict[Point, Lit] = field(default_factory=dict)
    loops: str = "levels"

    def value_lit(self, square: Point, value: bool) -> Lit:
        """The literal "the piece on ``square`` outputs ``value``"."""
        return self.is_true[square] if value else self.is_false[square]

    def added_placements(self, model) -> list[Placement]:
        """The pieces a model adds, in board order."""
        return [
            Placement(square, kind)
            for square, kinds in sorted(self.kind_var.items())
            for kind, var in kinds.items()
            if model.value(var)
        ]

    def model_loops(self, model) -> list[list[Point]]:
        """Feedback loops on the final board of ``model`` (possible only with ``loops="lazy"``):
        one, then another with a piece of each found loop taken off, until none is left."""
        final = self.position.copy()
        for placement in self.added_placements(model):
            final.pieces[placement.square] = Piece(placement.kind, 0, None)
        found = []
        while (loop := find_loop(final)) is not None:
            found.append(loop)
            del final.pieces[loop[0]]
        return found

    def add_levels(self, sink) -> None:
        """Condition (3) in full, into ``sink`` (a :class:`Formula` or a live backend: anything
        with ``new_var`` and ``add_clause``): a level per square, one Boolean per
        ``level >= k``, that grows by at least one along every signal join. After this no model
        has a loop, so ``loops`` becomes ``"levels"``."""
        live = [s for s, occ in self.occupied.items() if occ is not False]
        levels = len(live)
        at_least: dict[Point, list[Lit]] = {}
        for square in live:
            ladder: list[Lit] = [True] + [sink.new_var() for _ in range(levels - 1)] + [False]
            for k in range(1, levels - 1):
                sink.add_clause([-ladder[k + 1], ladder[k]])
            at_least[square] = ladder
        for u in live:
            for side in SIDES:
                v = neighbour(u, side)
                if v is None or v not in at_least:
                    continue
                edge_out, edge_in = self.has_output[(u, side)], self.has_input[(v, OPPOSITE[side])]
                if edge_out is False or edge_in is False:
                    continue
                for k in range(levels):
                    _clause(sink, [_neg(edge_out), _neg(edge_in), _neg(at_least[u][k]), at_least[v][k + 1]])
        self.loops = "levels"

    def loop_cut(self, loop: list[Point]) -> list[Lit]:
        """The clause "not every join of this loop is present": each piece feeding the next."""
        clause: list[Lit] = []
        for u, v in zip(loop, loop[1:] + loop[:1]):
            side = next(d for d in SIDES if neighbour(u, d) == v)
            clause += [_neg(self.has_output[(u, side)]), _neg(self.has_input[(v, OPPOSITE[side])])]
        return clause


def short_rings(longest: int) -> list[list[Point]]:
    """Every loop of side-adjacent non-centre squares with at most ``longest`` squares, once each
    (starting from its first square in board order, in one direction)."""
    squares = [p for p in BOARD.points if p not in CENTRE_POINTS]
    order = {p: i for i, p in enumerate(squares)}
    adjacent = {p: [q for q in BOARD.side_neighbours(p) if q in order] for p in squares}
    rings: list[list[Point]] = []
    for first in squares:
        path, on_path = [first], {first}

        def extend(last: Point) -> None:
            for nxt in adjacent[last]:
                if nxt == first and len(path) >= 4 and order[path[1]] < order[path[-1]]:
                    rings.append(list(path))
                elif nxt not in on_path and order[nxt] > order[first]:
                    # the way back to the first square must still fit
                    if abs(nxt[0] - first[0]) + abs(nxt[1] - first[1]) > longest - len(path):
                        continue
                    path.append(nxt)
                    on_path.add(nxt)
                    extend(nxt)
                    path.pop()
                    on_path.discard(nxt)

        extend(first)
    return rings


def encode_completions(position: Position, loops: str = "levels", ring_length: int = 10) -> CompletionEncoding:
    """Encode every completion of ``position`` (conditions (1)-(4) of the module docstring) with
    each square's Kleene signal.

    ``loops="levels"`` encodes condition (3) in full; ``loops="lazy"`` forbids only the loops of
    at most ``ring_length`` squares up front and leaves longer ones to
    :meth:`CompletionEncoding.loop_cut`, added when a model shows one (the queries do this until
    a model is loop-free)."""
    enc = CompletionEncoding(position, loops=loops)
    f = enc.formula
    pieces = position.pieces
    squares = [p for p in BOARD.points if p not in CENTRE_POINTS]
    supply = {t: sum(position.supply[p][t] for p in position.supply) for t in PIECE_TYPES}
    settled = signals(position)

    # ---- which kinds may go on each empty square: statically excluded are inputs facing the
    # rim, inputs facing an existing piece's input, and types no supply holds.
    for square in squares:
        if square in pieces:
            continue
        candidates = []
        for kind in ALL_KINDS:
            if supply[kind.type] == 0:
                continue
            ok = True
            for side in kind.inputs:
                other = neighbour(square, side)
                if other is None:
                    ok = False
                elif other in pieces and OPPOSITE[side] in pieces[other].kind.inputs:
                    ok = False
            if ok:
                candidates.append(kind)
        if candidates:
            enc.kind_var[square] = {kind: f.new_var() for kind in candidates}
            f.add_at_most_one(list(enc.kind_var[square].values()))

    # ---- side literals: has_input / has_output on each side of each square
    has_input = enc.has_input
    has_output = enc.has_output
    occupied = enc.occupied
    for square in squares:
        if square in pieces:
            kind = pieces[square].kind
            occupied[square] = True
            for side in SIDES:
                has_input[(square, side)] = side in kind.inputs
                has_output[(square, side)] = side in kind.outputs
            continue
        kinds = enc.kind_var.get(square, {})
        if not kinds:
            occupied[square] = False
            for side in SIDES:
                has_input[(square, side)] = has_output[(square, side)] = False
            continue
        occ = f.new_var()
        occupied[square] = occ
        _clause(f, [-occ] + list(kinds.values()))
        for var in kinds.values():
            f.add_implication(var, occ)
        for side in SIDES:
            for table, wanted in ((has_input, True), (has_output, False)):
                members = [v for k, v in kinds.items() if (side in k.inputs) == wanted]
                if not members:
                    table[(square, side)] = False
                    continue
                lit = f.new_var()
                table[(square, side)] = lit
                _clause(f, [-lit] + members)
                for var in members:
                    f.add_implication(var, lit)

    def source(square: Point, side: str) -> Lit:
        """An input on ``side`` of ``square`` would face a source."""
        other = neighbour(square, side)
        if other is None:
            return False
        if other in CENTRE_POINTS:
            return True
        return has_output[(other, OPPOSITE[side])]

    # ---- (1) no input faces an input (pairs of empty squares; the rest was pruned above)
    for square in squares:
        for side in ("E", "S"):
            other = neighbour(square, side)
            if other is None or other in CENTRE_POINTS:
                continue
            _clause(f, [_neg(has_input[(square, side)]), _neg(has_input[(other, OPPOSITE[side])])])

    # ---- (2) added pieces have a source
    for square, kinds in enc.kind_var.items():
        for kind, var in kinds.items():
            _clause(f, [-var] + [source(square, side) for side in kind.inputs])

    # ---- (4) supplies
    for piece_type in PIECE_TYPES:
        added = [v for kinds in enc.kind_var.values() for k, v in kinds.items() if k.type == piece_type]
        if len(added) > supply[piece_type]:
            f.add_at_most(added, supply[piece_type])

    # ---- signals
    for square in squares:
        if square in pieces and settled[square] is not None:
            enc.is_true[square] = settled[square] is True
            enc.is_false[square] = settled[square] is False
        elif occupied[square] is False:
            enc.is_true[square] = enc.is_false[square] = False
        else:
            enc.is_true[square], enc.is_false[square] = f.new_var(), f.new_var()
            f.add_clause([-enc.is_true[square], -enc.is_false[square]])
            if occupied[square] is not True:
                f.add_implication(enc.is_true[square], occupied[square])
                f.add_implication(enc.is_false[square], occupied[square])

    def arriving(square: Point, side: str) -> tuple[Lit, Lit]:
        """The (is_true, is_false) pair an input on ``side`` of ``square`` receives; an open input
        (empty neighbour) receives neither, i.e. MUTABLE."""
        other = neighbour(square, side)
        assert other is not None
        if other in CENTRE_POINTS:
            white = position.centre[(other, OPPOSITE[side])] == WHITE
            return white, not white
        return enc.is_true[other], enc.is_false[other]

    for square in squares:
        if square in pieces:
            if settled[square] is not None:
                continue  # settled values are constants and stay settled
            placed = [(True, pieces[square].kind)]
        else:
            placed = [(var, kind) for kind, var in enc.kind_var.get(square, {}).items()]
        for guard, kind in placed:
            true_terms, false_terms = gate_terms(kind.type, [arriving(square, s) for s in kind.inputs])
            _define(f, guard, enc.is_true[square], true_terms)
            _define(f, guard, enc.is_false[square], false_terms)

    # ---- (3) no loop
    if loops == "lazy":
        for ring in short_rings(ring_length):
            for cycle in (ring, ring[::-1]):
                _clause(f, enc.loop_cut(cycle))
        return enc
    enc.add_levels(f)
    return enc
