"""``placesat laido``: score a position, ask what a few more stones can reach, step through a game."""

from __future__ import annotations

from typing import Optional

import typer

from solver.core.backend import Status
from solver.laido.model import COLOURS, PASS, SWAP, Position, Record, load_game, move_json, position_to_json
from solver.laido.reach import DEFAULT_REACH_BACKEND, NO, UNKNOWN, BestAnswer, ReachAnswer, reach_best, reach_win
from solver.laido.render import legend_text, render_svg, render_text
from solver.laido.rules import READINGS, IllegalMove, legal_moves, replay
from solver.laido.score import Score, score_position

from .common import (
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    backend_option,
    command,
    fail,
    json_option,
    make_group,
    output_path,
    print_json,
    time_limit_option,
    write_output,
)

app = make_group(
    """Laido: stones on the points of a hexagonal board of triangles. A group's value is the
    size of its connection part (a chordless path between two edge stones) minus the rest
    of the group; the player whose sorted group values compare higher wins.
    Positions and game records are JSON with points as [q, r] (see seeds/laido.md)."""
)

POSITION_HELP = "A position or game record (JSON; '-' reads standard input). A record is replayed, each move checked."
READING_HELP = (
    "Which connection part a group counts: 'longest' (the owner picks the one worth most; default) "
    "or 'shortest' (a smallest one)."
)


def _load(path: str, upto: int | None = None) -> tuple[Position, Record | None, list[Position]]:
    """The position in ``path`` (for a record: after ``upto`` moves, default all), the record if
    it is one, and the positions of the record move by move."""
    game = load_game(path)
    if isinstance(game, Position):
        if upto is not None:
            fail("--upto applies to a game record, not to a position")
        return game, None, [game]
    try:
        positions = replay(game)
    except IllegalMove as error:
        fail(f"{path}: {error}")
    if upto is not None:
        if not 0 <= upto <= len(game.moves):
            fail(f"--upto must be from 0 to {len(game.moves)} (the number of moves in {path})")
        positions = positions[: upto + 1]
    return positions[-1], game, positions


def _write_svg(target: str, picture: str) -> None:
    write_output(target, picture)


def _parts(score: Score) -> list[tuple]:
    return [g.connection_part for groups in score.groups.values() for g in groups if g.connection_part]


def _point(p: tuple[int, int]) -> str:
    return f"[{p[0]}, {p[1]}]"


def _print_score(score: Score) -> None:
    position = score.position
    print(render_text(position, _parts(score)), end="")
    print(legend_text(position))
    for colour in COLOURS:
        values = score.values(colour)
        print(f"{colour}: values {', '.join(map(str, values)) if values else '(no group)'}")
        for group in sorted(score.groups[colour], key=lambda g: -g.value):
            part = group.connection_part
            where = " ".join(_point(p) for p in part) if part else "none (fewer than two edge stones)"
            print(f"  group of {len(group.stones)} from {_point(min(group.stones, key=lambda p: (p[1], p[0])))}: value {group.value}; connection part ({len(part or ())}): {where}")
    verdict = score.verdict
    state = "game over" if position.is_over else "if both players passed now"
    if verdict is not None:
        print(f"winner ({state}): {verdict.winner} - {verdict.describe()}")


@command(app)
def score(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    reading: str = typer.Option("longest", "--reading", help=READING_HELP),
    backend: str = backend_option("sat"),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"black": {"values", "groups"}, "white": ..., "winner", "decided_by", ...}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture with each connection part drawn."),
) -> None:
    """Score POS: each group's connection part and value, the winner and what decided it.

    Every group is listed with its size, connection part and value, then each player's values
    from highest, the winner and the comparison that decided it.

    Values are compared highest first, then second, and so on; a player who runs out of groups
    first loses; a full tie goes to the player who passed first. A game not yet over is scored
    as if both players passed now.
    """
    if reading not in READINGS:
        fail(f"unknown reading {reading!r}; choose one of: {', '.join(READINGS)}")
    output_path(svg_out)
    position, _, _ = _load(path)
    result = score_position(position, reading, backend, time_limit)
    if json_output:
        print_json(result.to_json())
    elif result.status is Status.UNKNOWN:
        print("unknown: the time limit came before every group was scored")
    else:
        _print_score(result)
    if svg_out is not None:
        _write_svg(svg_out, render_svg(position, _parts(result), title=f"Laido {path}"))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if result.status is Status.UNKNOWN else EXIT_OK)


@command(app)
def reach(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: str = typer.Option(..., "--player", "-p", help="black or white: the player who adds stones."),
    stones: int = typer.Option(..., "--stones", "-k", min=0, help="At most this many stones to add (more than the empty points is the same as all of them)."),
    best: bool = typer.Option(False, "--best", help="Instead: the highest value the player's best group can reach."),
    backend: str = backend_option(DEFAULT_REACH_BACKEND, f"Solver backend: sat or cpsat (default {DEFAULT_REACH_BACKEND} here)."),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option("One JSON object: answer (yes/no/unknown), stones, moves, final score."),
) -> None:
    """Can PLAYER win by adding at most K stones while the other side only passes?

    The player places its stones on its turns, the other side passes on each of its turns, and
    the game ends with two passes. Prints the fewest stones that win (replayed and re-scored by
    the plain rules) or 'no'. A full tie goes to the player who passed first: when nobody has
    passed, that is the other side, unless the player is to move and adds no stone. With --best:
    the highest value the player's best group can reach. Uses the longest reading.
    """
    if player not in COLOURS:
        fail(f"--player must be black or white, not {player!r}")
    position, _, _ = _load(path)
    query = reach_best if best else reach_win
    answer = query(position, player, stones, backend, time_limit)
    if json_output:
        print_json(answer.to_json())
    elif isinstance(answer, BestAnswer):
        _print_best(answer)
    else:
        _print_reach(answer)
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN else EXIT_OK)


def _print_reach(answer: ReachAnswer) -> None:
    if answer.answer == UNKNOWN:
        print("unknown: the time limit came first")
    elif answer.answer == NO:
        print(f"no: {answer.player} cannot win with at most {answer.limit} more stone(s)")
    elif answer.final is not None and answer.final.verdict is not None:
        added = " ".join(_point(p) for p in answer.stones) or "none (passing is enough)"
        print(f"yes: {answer.player} wins by adding {len(answer.stones)} stone(s): {added}")
        moves = ", ".join(m if isinstance(m, str) else _point(m) for m in answer.moves)
        print(f"moves to the end: {moves}")
        for colour in COLOURS:
            print(f"{colour}: values {', '.join(map(str, answer.final.values(colour))) or '(no group)'}")
        print(f"decided by {answer.final.verdict.describe()}")


def _print_best(answer: BestAnswer) -> None:
    if answer.answer == UNKNOWN:
        print("unknown: the time limit came first")
    elif answer.answer == NO:
        print(f"no: {answer.player} can have no group")
    elif answer.group is not None:
        added = " ".join(_point(p) for p in answer.stones) or "none"
        print(f"best value for {answer.player} with at most {answer.limit} more stone(s): {answer.value}")
        print(f"stones to add: {added}")
        part = " ".join(_point(p) for p in answer.group.connection_part or ())
        print(f"that group: {len(answer.group.stones)} stones; connection part: {part or 'none'}")


@command(app)
def play(
    path: str = typer.Argument(..., metavar="RECORD", help="A game record (JSON with \"size\" and \"moves\")."),
    upto: Optional[int] = typer.Option(None, "--upto", "-n", help="Stop after this many moves (default: all)."),
    json_output: bool = json_option("One JSON object: the moves with the state after each, and the final position."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the position reached."),
) -> None:
    """Step through a game record, move by move, and show the board reached.

    Each move is listed with who made it and the state after it. Every move is checked: a stone
    on an empty point, a pass (not as the first move), a swap only as White's answer to Black's
    first stone (the pie rule: the players exchange colours, the board stays, White moves next);
    nothing after two passes in a row.
    """
    output_path(svg_out)
    position, record, positions = _load(path, upto)
    if record is None:
        fail(f"{path}: this is a position, not a game record (it has no \"moves\")")
    steps = []
    for number, (before, after) in enumerate(zip(positions, positions[1:]), start=1):
        move = record.moves[number - 1]
        steps.append(
            {
                "number": number,
                "colour": before.to_move,
                "move": move_json(move),
                "to_move": after.to_move,
                "passes": after.passes,
                "game_over": after.is_over,
            }
        )
    if json_output:
        print_json({"moves": steps, "position": position_to_json(position)})
    else:
        for step in steps:
            move = step["move"]
            text = {PASS: "passes", SWAP: "swaps (pie rule: the players exchange colours)"}.get(move, "") if isinstance(move, str) else f"plays [{move[0]}, {move[1]}]"
            print(f"{step['number']:>3}. {step['colour']} {text}" + ("  - game over" if step["game_over"] else ""))
        print(render_text(position), end="")
        state = "game over" if position.is_over else f"{position.to_move} to move"
        swapped = "; the players swapped colours" if position.swapped else ""
        print(f"after {len(steps)} move(s): {state}{swapped}")
    if svg_out is not None:
        _write_svg(svg_out, render_svg(position, title=f"Laido {path}"))


@command(app)
def moves(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    upto: Optional[int] = typer.Option(None, "--upto", "-n", help="For a record: the position after this many moves."),
    json_output: bool = json_option('One JSON object: {"to_move", "moves": [[q, r], ..., "pass", "swap"]}.'),
) -> None:
    """The legal moves in POS for the player to move.

    Every empty point, a pass (not as the very first move of the game), and a swap when the pie
    rule allows it. None once the game is over.
    """
    position, _, _ = _load(path, upto)
    legal = legal_moves(position)
    if json_output:
        print_json({"to_move": None if position.is_over else position.to_move, "moves": [move_json(m) for m in legal]})
        return
    if position.is_over:
        print("the game is over: no legal move")
        return
    points = [m for m in legal if not isinstance(m, str)]
    other = [m for m in legal if isinstance(m, str)]
    print(f"{position.to_move} to move: {len(points)} empty point(s)" + (f", or {' or '.join(other)}" if other else ""))
    print(" ".join(_point(p) for p in points))  # type: ignore[arg-type]
