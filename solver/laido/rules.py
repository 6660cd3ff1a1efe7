"""The rules of Laido, written plainly, without any solver.

This module is the referee: it finds groups and edge stones, checks that a set of stones is a
connection part, enumerates connection parts by search (for small groups), computes values,
decides the winner, and plays moves (placements, passes, the pie-rule swap). The solver-based
queries (:mod:`placesat.laido.score`, :mod:`placesat.laido.reach`) replay their answers here.

The rules as implemented, with every interpretation, are stated in ``seeds/laido.md``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

from placesat.core.lattice import HexLattice, Point

from .model import BLACK, PASS, SWAP, WHITE, Move, Position, Record, opponent

LONGEST = "longest"
SHORTEST = "shortest"
READINGS = (LONGEST, SHORTEST)


def board_order(point: Point) -> tuple[int, int]:
    """The sort key that lists points row by row (r, then q), as the board is printed."""
    return (point[1], point[0])


# --------------------------------------------------------------------------- groups


def groups(lattice: HexLattice, stones: Iterable[Point]) -> list[frozenset[Point]]:
    """The groups of a colour: maximal sets of its stones connected along board lines.

    Listed by their first stone in board order.
    """
    joined = neighbour_table(lattice)
    remaining = set(stones)
    found: list[frozenset[Point]] = []
    for start in sorted(remaining, key=board_order):
        if start not in remaining:
            continue
        remaining.discard(start)
        group = {start}
        queue = deque([start])
        while queue:
            point = queue.popleft()
            # a stone off the board (input not yet checked) still gets the lattice's answer
            for nxt in joined[point] if point in joined else lattice.neighbours(point):
                if nxt in remaining:
                    remaining.discard(nxt)
                    group.add(nxt)
                    queue.append(nxt)
        found.append(frozenset(group))
    return found


@lru_cache(maxsize=None)
def neighbour_table(lattice: HexLattice) -> dict[Point, tuple[Point, ...]]:
    """Each point's neighbours on the board, listed once per board (:func:`groups` runs at
    every leaf of a forced search, and asking the lattice each time was most of its cost)."""
    return {p: tuple(lattice.neighbours(p)) for p in lattice.points}


def edge_stones(lattice: HexLattice, group: Iterable[Point]) -> list[Point]:
    """The stones of ``group`` that stand on the rim of the board, in board order."""
    return sorted((p for p in group if lattice.is_edge(p)), key=board_order)


# --------------------------------------------------------------------------- connection parts


def is_connection_part(lattice: HexLattice, group: Iterable[Point], part: Sequence[Point]) -> bool:
    """Whether ``part`` (a sequence of stones, in path order) is a connection part of ``group``.

    A connection part is an inclusion-minimal connected set of the group's stones holding two
    edge stones. Such a set is exactly a chordless path whose two ends are edge stones and whose
    other stones are not: a path because a minimal connected set holding two given points is a
    path between them, chordless because a chord would leave a smaller connected set with both
    ends, and with no edge stone inside because the part up to that stone would already do.
    """
    stones = set(group)
    if len(part) < 2 or len(set(part)) != len(part) or not set(part) <= stones:
        return False
    if not lattice.is_edge(part[0]) or not lattice.is_edge(part[-1]):
        return False
    if any(lattice.is_edge(p) for p in part[1:-1]):
        return False
    index = {p: i for i, p in enumerate(part)}
    for i, point in enumerate(part):
        for nxt in lattice.neighbours(point):
            j = index.get(nxt)
            # consecutive stones must touch, and no other two may (no chord)
            if j is not None and abs(i - j) != 1:
                return False
        if i + 1 < len(part) and part[i + 1] not in lattice.neighbours(point):
            return False
    return True


class SearchTooLarge(Exception):
    """The brute-force search met more paths than it was allowed to look at."""


def connection_parts(
    lattice: HexLattice, group: Iterable[Point], limit: int | None = None
) -> Iterator[tuple[Point, ...]]:
    """Every connection part of ``group``, each once, by depth-first search over chordless paths.

    A path starts at an edge stone and grows one neighbour at a time, never onto a stone that
    touches an earlier stone of the path (that would be a chord); it ends when it reaches a
    second edge stone. Exponential in the worst case: ``limit`` bounds the number of partial
    paths explored (:class:`SearchTooLarge` when exceeded). Meant for small groups and tests.
    """
    stones = frozenset(group)
    rank = {p: i for i, p in enumerate(sorted(stones, key=board_order))}
    explored = 0

    def extend(path: list[Point], on_path: set[Point]) -> Iterator[tuple[Point, ...]]:
        nonlocal explored
        explored += 1
        if limit is not None and explored > limit:
            raise SearchTooLarge(f"more than {limit} partial paths")
        last = path[-1]
        for nxt in lattice.neighbours(last):
            if nxt not in stones or nxt in on_path:
                continue
            if any(n in on_path and n != last for n in lattice.neighbours(nxt)):
                continue
            if lattice.is_edge(nxt):
                if rank[path[0]] < rank[nxt]:  # each path once, from its lower end
                    yield (*path, nxt)
                continue
            path.append(nxt)
            on_path.add(nxt)
            yield from extend(path, on_path)
            on_path.discard(nxt)
            path.pop()

    for start in edge_stones(lattice, stones):
        yield from extend([start], {start})


def shortest_connection_part(lattice: HexLattice, group: Iterable[Point]) -> tuple[Point, ...] | None:
    """A connection part with the fewest stones, by breadth-first search; None if there is none.

    A shortest path between two edge stones that passes through no other edge stone has no
    chord (a chord would shorten it), so it is a connection part; conversely every connection
    part is such a path. A connected group has one as soon as it holds two edge stones.
    """
    stones = frozenset(group)
    best: tuple[Point, ...] | None = None
    for start in edge_stones(lattice, stones):
        parent: dict[Point, Point | None] = {start: None}
        queue = deque([start])
        found = None
        while queue and found is None:
            point = queue.popleft()
            for nxt in lattice.neighbours(point):
                if nxt in stones and nxt not in parent:
                    parent[nxt] = point
                    if lattice.is_edge(nxt):
                        found = nxt
                        break
                    queue.append(nxt)
        if found is None:
            continue
        path = [found]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])  # type: ignore[arg-type]
        if best is None or len(path) < len(best):
            best = tuple(reversed(path))
    return best


def best_connection_part_by_search(
    lattice: HexLattice, group: Iterable[Point], reading: str = LONGEST, limit: int | None = None
) -> tuple[Point, ...] | None:
    """The connection part the owner takes, by exhaustive search: the longest (or shortest).

    Ties are broken by board order so the answer is repeatable. None when the group has no
    connection part (fewer than two edge stones).
    """
    if reading == SHORTEST:
        return shortest_connection_part(lattice, group)
    best: tuple[Point, ...] | None = None
    for part in connection_parts(lattice, group, limit):
        if best is None or len(part) > len(best):
            best = part
    return best


def group_value(group: Iterable[Point], part: Sequence[Point] | None) -> int:
    """Value = stones in the connection part minus stones in the surplus part = 2|part| - |group|.

    A group without a connection part has an empty connection part: value -|group|.
    """
    size = len(set(group))
    return 2 * len(part) - size if part else -size


def value_by_search(lattice: HexLattice, group: Iterable[Point], reading: str = LONGEST) -> int:
    """The value of a group by exhaustive search (small groups only)."""
    return group_value(group, best_connection_part_by_search(lattice, group, reading))


# --------------------------------------------------------------------------- the winner


PASS_TIEBREAK = "pass"
HILLS_TIEBREAK = "hills"
TIEBREAKS = (PASS_TIEBREAK, HILLS_TIEBREAK)
"""How a full tie in group values is broken: ``"pass"`` (the seed's rule: the half point for
the player who passed first) or ``"hills"`` (the newer published rule: fewer stones in the more
central hills, then the half point if the hills tie too). See ``seeds/laido.md``."""


@dataclass(frozen=True)
class Verdict:
    """Who wins and which comparison decided it.

    ``decided_by`` is ``"value"`` (the values at ``rank`` differ), ``"groups"`` (at ``rank`` one
    player has run out of groups; the player who still has one wins), ``"hills"`` (a full tie
    in values, broken at hill ``rank``, counted from 0 at the centre, where ``black`` and
    ``white`` are the stones each has there) or ``"half point"`` (the player who passed first
    wins). ``pass_made`` says whether that first pass was made, or is the one the player to
    move would make if the game ended now.
    """

    winner: str
    decided_by: str
    rank: int | None = None
    black: int | None = None
    white: int | None = None
    pass_made: bool = True
    no_groups: bool = False

    def to_json(self) -> dict[str, object]:
        """The verdict as JSON."""
        return {"kind": self.decided_by, "rank": self.rank, "black": self.black, "white": self.white}

    def describe(self) -> str:
        """One line in words."""
        if self.decided_by == "value":
            return f"comparison {self.rank}: black {self.black} vs white {self.white}"
        if self.decided_by == "groups":
            loser = opponent(self.winner)
            return f"comparison {self.rank}: {loser} has no group left"
        tie = "no group on the board" if self.no_groups else "every group value ties"
        if self.decided_by == "hills":
            where = "the centre point" if self.rank == 0 else f"hill {self.rank} from the centre"
            return (
                f"{tie}; fewer stones in the more central hills: at {where} "
                f"black has {self.black}, white {self.white}"
            )
        if self.pass_made:
            return f"{tie}: the half point goes to {self.winner}, who passed first"
        return f"{tie}: the half point goes to {self.winner}, who is to move and would pass first (nobody has passed yet)"


def sorted_values(values: Iterable[int]) -> list[int]:
    """A player's group values, highest first: the order in which they are compared."""
    return sorted(values, reverse=True)


def hill_counts(lattice: HexLattice, stones: Iterable[Point]) -> list[int]:
    """How many of ``stones`` stand on each hill, from the centre out: hill ``d`` is the ring of
    points at distance ``d`` from the centre (hill 0 is the centre point, the last the rim)."""
    counts = [0] * (lattice.radius + 1)
    for q, r in stones:
        counts[max(abs(q), abs(r), abs(q + r))] += 1
    return counts


def compare(
    black_values: Iterable[int],
    white_values: Iterable[int],
    first_pass: str,
    tiebreak: str = PASS_TIEBREAK,
    hills: tuple[Sequence[int], Sequence[int]] | None = None,
    pass_made: bool = True,
) -> Verdict:
    """The end-of-game comparison.

    Both players' group values are sorted from highest; the first values are compared, then the
    second, and so on, until a pair differs: the higher value wins. When one player has run out
    of groups while the other still has one, the player with the group wins (a group, whatever
    its value, beats no group). If every comparison ties and both run out together: with the
    ``"hills"`` tiebreak the player with fewer stones on the first hill (from the centre out,
    ``hills`` = black's and white's :func:`hill_counts`) where the counts differ wins; otherwise,
    or when every hill ties too, the player who passed first (``first_pass``) wins with the
    extra half point.
    """
    black = sorted_values(black_values)
    white = sorted_values(white_values)
    for i in range(max(len(black), len(white))):
        b = black[i] if i < len(black) else None
        w = white[i] if i < len(white) else None
        if b is None or w is None:
            return Verdict(WHITE if b is None else BLACK, "groups", i + 1, b, w)
        if b != w:
            return Verdict(BLACK if b > w else WHITE, "value", i + 1, b, w)
    empty = not black and not white
    if tiebreak == HILLS_TIEBREAK:
        if hills is None:
            raise ValueError("the hills tiebreak needs both players' hill counts")
        for d, (b, w) in enumerate(zip(*hills)):
            if b != w:
                return Verdict(BLACK if b < w else WHITE, "hills", d, b, w, no_groups=empty)
    return Verdict(first_pass, "half point", pass_made=pass_made, no_groups=empty)


def first_pass_if_ended_now(position: Position) -> str:
    """Who will have passed first if the game ends now, both players passing from here.

    The recorded first pass if there was one; otherwise the player to move, who passes first.
    """
    return position.first_pass or position.to_move


def verdict_of(position: Position, black_values: Iterable[int], white_values: Iterable[int], tiebreak: str = PASS_TIEBREAK) -> Verdict:
    """The winner of ``position`` with these group values, were the game to end now (both
    players passing from here; see :func:`first_pass_if_ended_now`)."""
    lattice = position.lattice
    hills = (hill_counts(lattice, position.black), hill_counts(lattice, position.white))
    return compare(
        black_values, white_values, first_pass_if_ended_now(position), tiebreak, hills, position.first_pass is not None
    )


# --------------------------------------------------------------------------- moves


class IllegalMove(Exception):
    """A move the rules do not allow in this position."""


def is_opening(position: Position) -> bool:
    """The start of the game: an empty board, Black to move, no pass yet."""
    return not position.black and not position.white and position.to_move == BLACK and position.passes == 0


def swap_allowed(position: Position) -> bool:
    """The pie rule: right after Black's first stone, White may take over Black's side (once)."""
    return (
        len(position.black) == 1
        and not position.white
        and position.to_move == WHITE
        and position.passes == 0
        and position.first_pass is None
        and not position.swapped
    )


def legal_moves(position: Position) -> list[Move]:
    """Every legal move: each empty point, a pass (not as the very first move), and a swap when allowed."""
    if position.is_over:
        return []
    moves: list[Move] = list(position.empty_points)
    if not is_opening(position):
        moves.append(PASS)
    if swap_allowed(position):
        moves.append(SWAP)
    return moves


def play(position: Position, move: Move) -> Position:
    """The position after ``move`` by the player to move; :class:`IllegalMove` if not allowed.

    A placement puts a stone of the mover's colour on an empty point and resets the run of
    passes. A pass adds to that run; the second consecutive pass ends the game. The first move
    must be a stone (the pie rule has Black place one). A swap (the pie rule) leaves the board
    as it is and White still to move: the players exchange colours, so the player who placed
    Black's first stone now plays White.
    """
    if position.is_over:
        raise IllegalMove("the game is over (two consecutive passes)")
    mover = position.to_move
    if move == PASS:
        if is_opening(position):
            raise IllegalMove("the first move must place a black stone (pie rule)")
        return replace(
            position,
            to_move=opponent(mover),
            passes=position.passes + 1,
            first_pass=position.first_pass or mover,
        )
    if move == SWAP:
        if not swap_allowed(position):
            raise IllegalMove("a swap is allowed only as White's answer to Black's first stone")
        return replace(position, swapped=True)
    point = move
    if point not in position.lattice:
        raise IllegalMove(f"point [{point[0]}, {point[1]}] is off the board")
    if position.colour_at(point) is not None:
        raise IllegalMove(f"point [{point[0]}, {point[1]}] already holds a {position.colour_at(point)} stone")
    if mover == BLACK:
        return replace(position, black=position.black | {point}, to_move=WHITE, passes=0)
    return replace(position, white=position.white | {point}, to_move=BLACK, passes=0)


def replay(record: Record) -> list[Position]:
    """Every position of a game record: the empty board, then one after each move.

    An illegal move is an :class:`IllegalMove` whose message names it (``moves[3]: ...``).
    """
    positions = [Position(record.size)]
    for i, move in enumerate(record.moves):
        try:
            positions.append(play(positions[-1], move))
        except IllegalMove as error:
            raise IllegalMove(f"moves[{i}]: {error}") from None
    return positions


def stones_available(position: Position, player: str, stones: int) -> int:
    """How many stones ``player`` can still add, up to ``stones``, while the other side only passes.

    None once the game is over, or when the other side is to move and its pass ends the game;
    never more than the board's empty points.
    """
    if position.is_over:
        return 0
    if position.to_move != player and position.passes == 1:
        return 0
    return min(max(stones, 0), len(position.empty_points))


def finish_with(position: Position, player: str, stones: Sequence[Point]) -> tuple[list[Move], Position]:
    """Play on until the game ends: ``player`` places ``stones`` in order, then passes; the
    other side passes on each of its turns. Returns the moves and the final position.
    """
    queue = list(stones)
    moves: list[Move] = []
    current = position
    while not current.is_over:
        move: Move = queue.pop(0) if current.to_move == player and queue else PASS
        current = play(current, move)
        moves.append(move)
    if queue:
        raise IllegalMove(f"the game ends before {player} can place {len(queue)} more stone(s)")
    return moves, current
