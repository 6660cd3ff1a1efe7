"""``placesat laido``: start a game, score a position, ask what a few more stones can reach, step through a game."""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import typer

from placesat.core.backend import Status
from placesat.laido.answers import advice_record, moves_record, play_record, score_record
from placesat.core.errors import InputError
from placesat.laido.model import (
    COLOURS,
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    SWAP,
    Move,
    Position,
    Record,
    dumps,
    load_game,
    parse_move,
    position_to_json,
    record_to_json,
)
from placesat.core.limits import Deadline, as_deadline
from placesat.core.signals import raise_if_stopped
from placesat.laido.forced import DEFAULT_BACKEND as FORCED_BACKEND
from placesat.laido.forced import MAX_MOVES, NO_WIN as NO_FORCED_WIN, UNKNOWN as FORCED_UNKNOWN, WIN as FORCED_WIN, check_moves, forced_win
from placesat.laido.play import BEST_DEPTH, LaidoPlayable
from placesat.laido.proof import forced_proof
from placesat.laido.reach import DEFAULT_REACH_BACKEND, NO, UNKNOWN, BestAnswer, ReachAnswer, reach_best, reach_win
from placesat.laido.render import legend_text, render_svg, render_text, step_mark
from placesat.laido.rules import PASS_TIEBREAK, READINGS, TIEBREAKS, IllegalMove, legal_moves, play as play_move, replay
from placesat.laido.score import Score, score_position

from .play import TOP_JSON, add_play_commands, chosen_engine, engine_best, engine_option, show_top, top_option
from .common import (
    search_option,
    table_mb_option,
    EXIT_NOT_ALL_GOOD,
    check_proof_file,
    proof_option,
    proof_output,
    report_proof,
    write_proof,
    EXIT_OK,
    backend_option,
    certify_option,
    checker_option,
    checkers_of,
    command,
    fail,
    json_option,
    make_group,
    output_folder,
    output_path,
    print_json,
    proof_dir_option,
    side_outputs,
    spinner,
    time_limit_option,
    write_output,
)
from .certified import certificate_backend, report_certification

app = make_group(
    """Laido: stones on the points of a hexagonal board of triangles. A group's value is the
    size of its connection part (a chordless path between two edge stones) minus the rest
    of the group; the player whose sorted group values compare higher wins.
    Positions and game records are JSON with points as [q, r] (see seeds/laido.md)."""
)

POSITION_HELP = "A position or game record (JSON; '-' reads standard input). A record is replayed, each move checked."
TIEBREAK_HELP = (
    "How a full tie in group values is broken: 'pass' (the half point for the player who passed "
    "first; the rule text's, default) or 'hills' (the newer published rule: fewer stones in the "
    "more central hills, hill by hill from the centre; then the half point)."
)
READING_HELP = (
    "Which connection part a group counts: 'longest' (the owner picks the one worth most; default) "
    "or 'shortest' (a smallest one)."
)


def _upto_option() -> object:
    """``--upto N``: a game record replayed up to move N (every command that takes a position)."""
    return typer.Option(None, "--upto", "-n", min=0, help="For a game record: the position after this many moves (default: all of them).")


def _load(path: str, upto: int | None = None) -> tuple[Position, Record | None, list[Position]]:
    """The position in ``path`` (for a record: after ``upto`` moves, default all), the record if
    it is one, and the positions of the record move by move."""
    try:
        game = load_game(path)
    except InputError as error:
        if error.message == "no such file":  # the path of a game not started yet, most likely
            error.message = f"no such file (a new game: placesat laido new --out {path})"
        raise
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


def _check_tiebreak(tiebreak: str) -> None:
    if tiebreak not in TIEBREAKS:
        fail(f"--tiebreak: unknown tiebreak {tiebreak!r}; choose one of: {', '.join(TIEBREAKS)}")


def _last_move(record: Record | None, positions: list[Position]) -> Move | None:
    """The move that led to the last position of a record (None for a position file)."""
    if record is None or len(positions) < 2:
        return None
    return record.moves[len(positions) - 2]


def _parts(score: Score) -> list[tuple]:
    return [g.connection_part for groups in score.groups.values() for g in groups if g.connection_part]


def _point(p: tuple[int, int]) -> str:
    return f"[{p[0]}, {p[1]}]"


def _turn(position: Position) -> str:
    return "game over" if position.is_over else f"{position.to_move} to move"


def _verdict_line(score: Score) -> str:
    """The winner and why, in words."""
    verdict = score.verdict
    state = "game over" if score.position.is_over else "if both players passed now"
    return f"winner ({state}): {verdict.winner} - {verdict.describe()}" if verdict else "winner: unknown"


def _caption(score: Score, last: Move | None) -> list[str]:
    """The lines under an SVG board: each player's values, the verdict, the last move, the turn."""
    if score.status is Status.UNKNOWN:
        lines = ["values unknown: the time limit came before every group was scored"]
    else:
        lines = [f"{c}: values {', '.join(map(str, score.values(c))) or '(no group)'}" for c in COLOURS]
    lines.append(_verdict_line(score))
    if last is not None:
        lines.append(f"last move: {last if isinstance(last, str) else _point(last)}; {_turn(score.position)}")
    else:
        lines.append(_turn(score.position))
    return lines


def _print_score(score: Score, last: Move | None = None) -> None:
    position = score.position
    print(render_text(position, _parts(score), last if isinstance(last, tuple) else None), end="")
    print(legend_text(position))
    for colour in COLOURS:
        values = score.values(colour)
        print(f"{colour}: values {', '.join(map(str, values)) if values else '(no group)'}")
        for group in sorted(score.groups[colour], key=lambda g: -g.value):
            part = group.connection_part
            where = " ".join(_point(p) for p in part) if part else "none (fewer than two edge stones)"
            print(f"  group of {len(group.stones)} from {_point(min(group.stones, key=lambda p: (p[1], p[0])))}: value {group.value}; connection part ({len(part or ())}): {where}")
    if last is not None:
        print(f"last move: {last if isinstance(last, str) else _point(last)}")
    print(_verdict_line(score))


NEW_SIDE = 9  # the usual board (seeds/laido.md)
BEST_TIME = 5.0  # best's default time limit: a player waits a few seconds


@command(app)
def new(
    side: int = typer.Option(NEW_SIDE, "--side", "-s", help=f"Points on each side of the board, {MIN_SIZE} to {MAX_SIZE} (9 is the usual board; 7 and 11 are also played)."),
    position: bool = typer.Option(False, "--position", help="Write a position (the stones and whose turn) instead of a game record (the moves)."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the new game to this file instead of standard output."),
    json_output: bool = json_option("Print the new game as one line of JSON."),
) -> None:
    """A new game on an empty board, Black to move: a game record to play into.

    The record is {"size": 9, "moves": []}; `play FILE MOVE --out FILE` appends each move
    (a point [q, r], "pass" or "swap"), so the file keeps the whole game. With --position:
    {"size": 9, "black": [], "white": [], "to_move": "black", "passes": 0, "first_pass": null,
    "swapped": false}, which `play` rewrites as the position after each move. Points are axial
    [q, r] with the centre [0, 0] (seeds/laido.md has both shapes).
    """
    output_path(out)
    if not MIN_SIZE <= side <= MAX_SIZE:
        fail(f"--side must be from {MIN_SIZE} to {MAX_SIZE}, not {side}")
    game = position_to_json(Position(side)) if position else record_to_json(Record(side))
    if json_output and out is None:
        print_json(game)
    else:
        write_output(out or "-", dumps(game))


@command(app)
def score(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    reading: str = typer.Option("longest", "--reading", help=READING_HELP),
    backend: str = backend_option("sat"),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"black": {"values", "groups"}, "white": ..., "winner", "decided_by", ...}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture with each connection part drawn, the coordinates on the rims, the score and the last move."),
    tiebreak: str = typer.Option(PASS_TIEBREAK, "--tiebreak", help=TIEBREAK_HELP),
    upto: Optional[int] = _upto_option(),
) -> None:
    """Score POS: each group's connection part and value, the winner and what decided it.

    Every group is listed with its size, connection part and value, then each player's values
    from highest, the winner and the comparison that decided it.

    Values are compared highest first, then second, and so on; a player who runs out of groups
    first loses; a full tie goes to the player who passed first (or, with --tiebreak hills, to
    the player with fewer stones in the more central hills). A game not yet over is scored as if
    both players passed now.
    """
    if reading not in READINGS:
        fail(f"unknown reading {reading!r}; choose one of: {', '.join(READINGS)}")
    _check_tiebreak(tiebreak)
    picture_only = side_outputs(json_output, svg=svg_out)
    position, record, positions = _load(path, upto)
    last = _last_move(record, positions)
    with spinner("scoring the groups"):
        result = score_position(position, reading, backend, time_limit, tiebreak)
    if json_output:
        print_json(score_record(result, last))
    elif not picture_only and result.status is Status.UNKNOWN:
        print("unknown: the time limit came before every group was scored")
    elif not picture_only:
        _print_score(result, last)
    if svg_out is not None:
        point = last if isinstance(last, tuple) else None
        verdict = "unknown: the time limit came first" if result.status is Status.UNKNOWN else _verdict_line(result)
        write_output(svg_out, render_svg(position, _parts(result), title=f"Laido, {position.size} points a side: {verdict}",
                                         caption=_caption(result, last), last_move=point))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if result.status is Status.UNKNOWN else EXIT_OK)


@command(app)
def reach(
    ctx: typer.Context,
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: str = typer.Option(..., "--player", "-p", help="black or white: the player who adds stones."),
    stones: int = typer.Option(..., "--stones", "-k", min=0, help="At most this many stones to add (more than the empty points is the same as all of them)."),
    best: bool = typer.Option(False, "--best", help="Instead: the highest value the player's best group can reach."),
    backend: str = backend_option(DEFAULT_REACH_BACKEND, f"Solver backend: sat or cpsat (default {DEFAULT_REACH_BACKEND} here).", "laido reach"),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option("One JSON object: answer (yes/no/unknown), stones, moves, final score."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board the answer reaches: the new stones numbered in order, each connection part drawn, the question and the answer as its title, the coordinates q,r round the rims."),
    tiebreak: str = typer.Option(PASS_TIEBREAK, "--tiebreak", help=TIEBREAK_HELP),
    certify: bool = certify_option("a 'no', the fewest stones of a 'yes' and the --best value"),
    checker: str = checker_option(),
    proof_dir: Optional[str] = proof_dir_option(),
    upto: Optional[int] = _upto_option(),
) -> None:
    """Can PLAYER win by adding at most K stones while the other side only passes?

    The player places its stones on its turns, the other side passes on each of its turns, and
    the game ends with two passes. Prints the fewest stones that win (replayed and re-scored by
    the plain rules) or 'no'. A full tie goes to the player who passed first: when nobody has
    passed, that is the other side, unless the player is to move and adds no stone. With --best:
    the highest value the player's best group can reach. Uses the longest reading. The board
    reached is shown with the new stones numbered in the order they are played (--svg draws it).

    With --certify (SAT backend): a 'no', the fewest stones of a 'yes' and the --best value are
    re-proven on a fresh solver whose proof an independent checker replays; a proof the checker
    rejects is an error (exit 1) and a 'no' or a --best value becomes 'unknown'.
    """
    if player not in COLOURS:
        fail(f"--player must be black or white, not {player!r}")
    _check_tiebreak(tiebreak)
    checkers = checkers_of(checker, certify) or None
    backend = certificate_backend(ctx, backend, certify, proof_dir)
    output_folder(proof_dir)
    picture_only = side_outputs(json_output, svg=svg_out)
    position, _, _ = _load(path, upto)
    with spinner("reach") as shown:
        if best:
            answer = reach_best(position, player, stones, backend, time_limit, progress=shown.update, checkers=checkers)
        else:
            answer = reach_win(position, player, stones, backend, time_limit, progress=shown.update, tiebreak=tiebreak, checkers=checkers)
    if json_output:
        print_json(answer.to_json())
    elif picture_only:
        pass
    elif isinstance(answer, BestAnswer):
        _print_best(position, answer)
    else:
        _print_reach(position, answer)
    if svg_out is not None:
        write_output(svg_out, _reach_svg(position, answer))
    certified = report_certification(answer.certification, proof_dir, [f"placesat laido reach {path}: {answer.answer}"])
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN or not certified else EXIT_OK)


def _certified_words(answer: ReachAnswer | BestAnswer) -> str:
    """`` (certified: ...)`` after an answer that rests on certified solver calls, else nothing."""
    certification = answer.certification
    if certification is None or not certification.calls:
        return ""
    return f" ({certification.words()})"


def _reached(position: Position, answer: ReachAnswer | BestAnswer) -> tuple[Position, dict, list]:
    """The board an answer reaches, its new stones numbered in the order they are played, and
    the connection parts to mark on it."""
    if isinstance(answer, ReachAnswer):
        placed = [m for m in answer.moves if not isinstance(m, str)]
        numbered = {point: number for number, point in enumerate(placed, start=1)}
        if answer.final is not None:
            return answer.final.position, numbered, _parts(answer.final)
        return position, {}, []
    numbered = {point: number for number, point in enumerate(answer.stones, start=1)}
    reached = replace(position, **{answer.player: position.stones(answer.player) | set(answer.stones)})
    part = answer.group.connection_part if answer.group is not None else None
    return reached, numbered, [part] if part else []


def _print_board_reached(position: Position, answer: ReachAnswer | BestAnswer) -> None:
    """The board an answer reaches, its new stones numbered (1, 2, ...), and how to read it."""
    reached, numbered, parts = _reached(position, answer)
    if not numbered:
        return
    print(render_text(reached, parts, numbered=numbered), end="")
    print(legend_text(reached, numbered=answer.player))


def _stones(count: int, more: str = "") -> str:
    return f"{count} {more}stone{'' if count == 1 else 's'}"


def _reach_words(answer: ReachAnswer | BestAnswer) -> tuple[str, str]:
    """The question and the answer of a reach, in a few words (a picture's title)."""
    player, limit, added = answer.player, answer.limit, len(answer.stones)
    if isinstance(answer, BestAnswer):
        question = f"{player}'s best group with at most {_stones(limit, 'more ')}?"
        if answer.answer == UNKNOWN:
            return question, "unknown (the time limit came first, or the proof was rejected)"
        if answer.answer == NO:
            return question, f"{player} can have no group"
        return question, f"{player} reaches a group worth {answer.value} in {_stones(added)}"
    question = f"can {player} win with at most {_stones(limit, 'more ')}?"
    if answer.answer == UNKNOWN:
        return question, "unknown (the time limit came first, or the proof was rejected)"
    if answer.answer == NO:
        return question, f"no: {player} cannot win with at most {_stones(limit)}"
    return question, f"yes: {player} wins in {_stones(added)}" if added else f"yes: {player} wins by passing"


def _reach_svg(position: Position, answer: ReachAnswer | BestAnswer) -> str:
    """The board an answer reaches with its new stones numbered, the question and the answer
    as the title, the score (or the group) under it."""
    reached, numbered, parts = _reached(position, answer)
    question, words = _reach_words(answer)
    caption = []
    if isinstance(answer, ReachAnswer) and answer.final is not None and answer.final.verdict is not None:
        caption = [f"{c}: values {', '.join(map(str, answer.final.values(c))) or '(no group)'}" for c in COLOURS]
        caption.append(f"decided by {answer.final.verdict.describe()}")
    if numbered:
        caption.append(("the new stones in the order played: " if isinstance(answer, ReachAnswer) else "the new stones: ") + ", ".join(f"{n} {_point(p)}" for p, n in sorted(numbered.items(), key=lambda i: i[1])))
    return render_svg(reached, parts, title=f"Laido: {question} {words}", caption=caption, numbered=numbered)


def _print_reach(position: Position, answer: ReachAnswer) -> None:
    if answer.answer == UNKNOWN:
        rejected = answer.certification is not None and answer.certification.rejected
        print("unknown: the proof of 'no' was rejected" if rejected else "unknown: the time limit came first")
    elif answer.answer == NO:
        print(f"no: {answer.player} cannot win with at most {answer.limit} more stone(s){_certified_words(answer)}")
    elif answer.final is not None and answer.final.verdict is not None:
        added = " ".join(_point(p) for p in answer.stones) or "none (passing is enough)"
        print(f"yes: {answer.player} wins by adding {len(answer.stones)} stone(s): {added}")
        if _certified_words(answer):
            print(f"no fewer stones win{_certified_words(answer)}")
        moves = ", ".join(m if isinstance(m, str) else _point(m) for m in answer.moves)
        print(f"moves to the end: {moves}")
        for colour in COLOURS:
            print(f"{colour}: values {', '.join(map(str, answer.final.values(colour))) or '(no group)'}")
        print(f"decided by {answer.final.verdict.describe()}")
        _print_board_reached(position, answer)


def _print_best(position: Position, answer: BestAnswer) -> None:
    if answer.answer == UNKNOWN:
        rejected = answer.certification is not None and answer.certification.rejected
        print("unknown: the proof of the best value was rejected" if rejected else "unknown: the time limit came first")
    elif answer.answer == NO:
        print(f"no: {answer.player} can have no group{_certified_words(answer)}")
    elif answer.group is not None:
        added = " ".join(_point(p) for p in answer.stones) or "none"
        print(f"best value for {answer.player} with at most {answer.limit} more stone(s): {answer.value}{_certified_words(answer)}")
        print(f"stones to add: {added}")
        part = " ".join(_point(p) for p in answer.group.connection_part or ())
        print(f"that group: {len(answer.group.stones)} stones; connection part: {part or 'none'}")
        _print_board_reached(position, answer)


def _describe_move(before: Position, move: Move) -> str:
    """A move in words, naming the colour and, after a pie swap, which player holds it."""
    who = before.to_move
    if before.swapped:
        # after the swap the player who placed Black's first stone plays White
        who += " (the first player)" if who == "white" else " (the second player)"
    if move == PASS:
        return f"{who} passes"
    if move == SWAP:
        return "white swaps (pie rule): the players exchange colours; the first player now plays white and moves next"
    return f"{who} plays {_point(move)}"  # type: ignore[arg-type]


@command(app)
def play(
    path: str = typer.Argument(..., metavar="GAME", help=POSITION_HELP),
    move: Optional[str] = typer.Argument(None, metavar="[MOVE]", help="A move to add: a point q,r (such as 2,-1), pass, or swap (the pie rule)."),
    upto: Optional[int] = _upto_option(),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="With MOVE: write the game after it (a record stays a record, a position a position)."),
    json_output: bool = json_option("One JSON object: the moves with the state after each, the final position, and the score once the game is over."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the position reached."),
    tiebreak: str = typer.Option(PASS_TIEBREAK, "--tiebreak", help=TIEBREAK_HELP),
    backend: str = backend_option("sat"),
) -> None:
    """Step through a game record, or add MOVE to a game and show the board reached.

    Without MOVE: each move of the record is listed with who made it (after a pie swap, which
    player holds each colour) and the board reached is shown; a finished game ends with the
    winner and why. With MOVE: the move is checked and played (a stone on an empty point, a
    pass, or a swap as White's answer to Black's first stone), and --out writes the game after
    it, so a game can be played move by move. Every move is checked: nothing after two passes
    in a row, no pass as the very first move. A new game: `new --out FILE`.
    """
    _check_tiebreak(tiebreak)
    file_only = side_outputs(json_output, out=out, svg=svg_out)
    if out is not None and move is None:
        fail("--out needs a MOVE to add")
    position, record, positions = _load(path, upto)
    if record is None and move is None:
        fail(f"{path}: this is a position, not a game record: give a MOVE to play on it")
    was_record = record is not None
    if move is not None:
        played = parse_move(move, position.lattice)
        try:
            after = play_move(position, played)
        except IllegalMove as error:
            fail(f"MOVE: {error}")
        if record is not None:
            record = Record(record.size, record.moves[: len(positions) - 1] + (played,))
            positions = positions + [after]
        else:
            record = Record(position.size, (played,))  # for the listing only: one step
            positions = [position, after]
        position = after
    steps = []
    for number, (before, after) in enumerate(zip(positions, positions[1:]), start=1):
        step_move = record.moves[number - 1]
        steps.append((number, before, step_move, after))
    final = None
    if position.is_over:
        with spinner("scoring the final position"):
            final = score_position(position, backend=backend, tiebreak=tiebreak)
    last = steps[-1][2] if steps else None
    if out is not None:
        game = record_to_json(record) if was_record else position_to_json(position)
        write_output(out, dumps(game))
    if json_output:
        print_json(play_record(steps, position, final))
    elif not file_only:
        for number, before, m, after in steps:
            print(f"{number:>3}. {_describe_move(before, m)}" + ("  - game over" if after.is_over else ""))
        print(render_text(position, _parts(final) if final else None, last if isinstance(last, tuple) else None), end="")
        swapped = "; the players swapped colours" if position.swapped else ""
        print(f"after {len(steps)} move(s): {_turn(position)}{swapped}")
        if final is not None:
            for colour in COLOURS:
                print(f"{colour}: values {', '.join(map(str, final.values(colour))) or '(no group)'}")
            print(_verdict_line(final))
        if out is not None:
            print(f"written to {out}")
    if svg_out is not None:
        caption = _caption(final, last) if final else [_turn(position)]
        point = last if isinstance(last, tuple) else None
        title = f"Laido, {position.size} points a side, after {len(steps)} move(s): {_verdict_line(final) if final else _turn(position)}"
        write_output(svg_out, render_svg(position, _parts(final) if final else None, title=title, caption=caption, last_move=point))
    if final is not None and final.status is Status.UNKNOWN:
        raise typer.Exit(EXIT_NOT_ALL_GOOD)


@command(app)
def moves(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    upto: Optional[int] = _upto_option(),
    json_output: bool = json_option('One JSON object: {"to_move", "moves": [[q, r], ..., "pass", "swap"]}.'),
) -> None:
    """The legal moves in POS for the player to move.

    Every empty point, a pass (not as the very first move of the game), and a swap when the pie
    rule allows it. None once the game is over.
    """
    position, _, _ = _load(path, upto)
    if json_output:
        print_json(moves_record(position))
        return
    legal = legal_moves(position)
    if position.is_over:
        print("the game is over: no legal move")
        return
    points = [m for m in legal if not isinstance(m, str)]
    other = [m for m in legal if isinstance(m, str)]
    print(f"{position.to_move} to move: {len(points)} empty point(s)" + (f", or {' or '.join(other)}" if other else ""))
    print(" ".join(_point(p) for p in points))  # type: ignore[arg-type]


@command(app)
def forced(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    own_moves: int = typer.Option(..., "--moves", "-k", help=f"Within this many own moves of the player to move (a stone or a pass each; 1 to {MAX_MOVES})."),
    time_limit: Optional[float] = time_limit_option(),
    backend: str = backend_option(FORCED_BACKEND, f"Solver backend of the cut-offs: sat or cpsat (default {FORCED_BACKEND} here)."),
    json_output: bool = json_option('One JSON object: {"answer": "win"|"no forced win"|"unknown", "move", "within", "line", "strategy": first levels of the replayed tree, "positions", "no_win_within"}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board at the end of the line of play, its stones numbered in order, the question and the answer as its title."),
    upto: Optional[int] = _upto_option(),
    search: Optional[str] = search_option(),
    tt_mb: float = table_mb_option(),
    proof_out: Optional[str] = proof_option(),
) -> None:
    """Can the player to move force a win within K own moves, whatever the other side plays?

    A win: the game over with the player as the winner, or the other side to move in a position
    the player wins however the game goes on, even if it only passes from then on (the other
    side's reach with every empty point says no). A side that is behind never has to pass, so
    this is what can be forced before the board fills (seeds/laido.md, "Forced wins"). Searched
    by depth-bounded AND/OR search with a transposition table; branches where the player cannot
    win even if the other side only passed are cut (reach). A win is replayed on the plain rules
    against every legal reply before it is printed, with its line of play (the other side's
    longest defence) on the board. --proof writes the whole strategy for check-proof. Exit code 1
    when the time limit came first.
    """
    answer_picture = side_outputs(json_output, svg=svg_out)
    proof_output(proof_out)
    deadline = as_deadline(time_limit)
    check_moves(own_moves)
    position, _, _ = _load(path, upto)
    if position.is_over:
        fail(f"{path}: the game is over (two passes in a row): nobody moves any more")
    with spinner(f"forced: {position.to_move}, {own_moves} own move(s)"):
        answer = forced_win(position, own_moves, deadline, backend, searcher=search, table_mb=tt_mb)
    write_proof(proof_out, forced_proof(position, answer), answer.answer)
    if json_output:
        print_json(answer.to_json())
    elif not answer_picture:
        _print_forced(position, answer)
    if svg_out is not None:
        reached, numbered = _line_board(position, answer.line)
        write_output(svg_out, render_svg(reached, title=f"Laido: {_forced_heading(answer)}", numbered=numbered,
                                         caption=[_line_words(position, answer.line)] if answer.line else []))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == FORCED_UNKNOWN else EXIT_OK)


@command(app, "check-proof")
def check_proof_command(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    proof_path: str = typer.Argument(..., metavar="FILE", help="A proof file written by 'forced --proof' ('-' reads standard input)."),
    time_limit: Optional[float] = time_limit_option(),
    backend: str = backend_option(FORCED_BACKEND, f"Solver backend of the decided test: sat or cpsat (default {FORCED_BACKEND} here)."),
    json_output: bool = json_option('One JSON object: {"file", "valid", "claim", "reason", "where", "line", "positions", "nodes", "nodes_used", "own_moves_used"}.'),
    upto: Optional[int] = _upto_option(),
) -> None:
    """Check a proof file of a forced win against the rules: replay every reply.

    At each of the player's turns the file's move must be legal; at each of the other side's
    turns the file must answer every legal reply (the pie swap too); every branch must end,
    within the own moves the proof claims, with the game over and the player the winner, or the
    other side to move in a decided position (its reach with every empty point says no: the
    one step taken from the solver). Exit 0 valid, 1 invalid (the reason, the JSON path of the
    node and the line of play to it) or the time limit came first, 2 a file of the wrong shape.
    """
    from placesat.laido.proof import check_forced_proof

    deadline = as_deadline(time_limit)
    if proof_path == "-" and path == "-":
        fail("POS and FILE cannot both be '-' (standard input holds one document)")
    position, _, _ = _load(path, upto)
    with spinner("check-proof"):
        verdict = check_proof_file(proof_path, lambda data: check_forced_proof(position, data, backend, deadline))
    report_proof(verdict, proof_path, json_output)


def _line_board(position: Position, line: list) -> tuple[Position, dict]:
    """The board at the end of a line of play and its stones numbered in the order played."""
    numbered, current = {}, position
    for move in line:
        if not isinstance(move, str):
            numbered[move] = len(numbered) + 1
        current = play_move(current, move)
    return current, numbered


def _line_words(position: Position, line: list) -> str:
    """``1 black [1, 2], 2 white [0, 3], black passes, ...``: the line with the board's numbers."""
    words, colour, number = [], position.to_move, 0
    for move in line:
        if isinstance(move, str):
            words.append(f"{colour} {move}es" if move == PASS else f"{colour} {move}s")
        else:
            number += 1
            words.append(f"{step_mark(number)} {colour} {_point(move)}")
        colour = "white" if colour == "black" else "black"
    return ", ".join(words)


def _forced_heading(answer) -> str:
    """The question and the answer of ``forced`` in one sentence (the picture's title)."""
    asked = f"can {answer.player} force a win within {_own(answer.moves)}?"
    if answer.answer == FORCED_WIN:
        return f"{asked} yes: within {_own(answer.within)}, starting with {_move_words(answer.move)}"
    if answer.answer == FORCED_UNKNOWN:
        return f"{asked} unknown: the time limit came first"
    return f"{asked} no: the other side can stop it"


def _own(count: int | None) -> str:
    return f"{count} own move{'' if count == 1 else 's'}"


def _move_words(move) -> str:
    return move if isinstance(move, str) else _point(move)


def _print_forced(position: Position, answer) -> None:
    other = "white" if answer.player == "black" else "black"
    if answer.answer == FORCED_UNKNOWN:
        print(f"unknown: the time limit came first ({answer.positions} positions searched)")
        if answer.no_win_within:
            print(f"settled before it: no forced win within {_own(answer.no_win_within)}")
        return
    if answer.answer == NO_FORCED_WIN:
        print(f"no forced win: {other} can stop {answer.player} for {_own(answer.moves)} ({answer.positions} positions searched)")
        return
    print(f"win: {answer.player} forces a win within {_own(answer.within)}, starting with {_move_words(answer.move)}")
    print("a win: the game over as the winner, or "
          f"{other} to move in a position {answer.player} wins even if it only passes from then on")
    print(f"line of play ({other}'s longest defence): {_line_words(position, answer.line)}")
    print(f"replayed on the rules against every reply of {other}: {answer.replayed_positions} positions; "
          f"{answer.positions} positions searched, {answer.reach_calls} reach calls")
    reached, numbered = _line_board(position, answer.line)
    if numbered:
        print(render_text(reached, numbered=numbered), end="")
        print("1 2 3 ...: the line's stones in the order played (both colours, as listed above)")


@command(app)
def best(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    time_limit: float = typer.Option(BEST_TIME, "--time-limit", "-t", min=0.0, metavar="SECONDS", help=f"Answer within this many seconds, with the best found so far (default {BEST_TIME:g})."),
    depth: Optional[int] = typer.Option(None, "--depth", "-d", min=1, max=MAX_MOVES, help=f"Look for a forced win within at most this many own moves (default {BEST_DEPTH}); with a depth the answer is the same every run unless the time limit comes first."),
    backend: str = backend_option(FORCED_BACKEND, f"Solver backend: sat or cpsat (default {FORCED_BACKEND} here)."),
    json_output: bool = json_option('One JSON object: {"move", "kind", "reason", "line", "evaluation", "evaluation_name", "depth"}; with --top: ' + TOP_JSON + "."),
    upto: Optional[int] = _upto_option(),
    top: Optional[int] = top_option(),
    engine_spec: str = engine_option(),
) -> None:
    """The move the engine recommends for the player to move, and why.

    The look-ahead engine (default) searches 2 plies over the evaluation below, with this
    engine at its root; --engine best is this engine alone. In this order, within the time limit: a forced win ("wins by force: ..."); the move that
    stops the other side's forced win with its next move ("the only move that stops white's
    win at ..."); or the move the evaluation prefers: the stones each side still needs to win
    if the other only passed (reach, up to 4), theirs minus yours. Ctrl-C prints the best
    found so far, then stops.
    """
    chosen = chosen_engine(engine_spec)
    position, _, _ = _load(path, upto)
    if position.is_over:
        fail(f"{path}: the game is over (two passes in a row): there is no move to advise")
    engine = LaidoPlayable(position.size, backend)
    if top is not None:
        raise typer.Exit(show_top(engine, position, top, Deadline(time_limit), depth, json_output))
    with spinner(f"best: {position.to_move} to move"):
        advice = engine_best(chosen, engine, position, Deadline(time_limit), depth)
    if json_output:
        print_json(advice_record(advice))
    else:
        print(f"best for {position.to_move}: {_move_words(advice.move)} ({advice.kind})")
        print(advice.reason)
    raise_if_stopped()


def _position_only(path: str) -> Position:
    """The position in ``path`` (a record: after its last move), for play-vs and selfplay."""
    return _load(path)[0]


# play-vs and selfplay over the Playable; `best` above is Laido's own (with --backend, --upto)
add_play_commands(app, LaidoPlayable(), _position_only, POSITION_HELP, "like '3,-1', 'pass' or 'swap'")
