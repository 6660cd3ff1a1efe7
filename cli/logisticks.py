"""``placesat logisticks``: show, moves, play, analyze, satisfy, forced, best."""

from __future__ import annotations

import json
from typing import Optional

import typer

from placesat.logisticks.analyze import analyze as run_analysis
from placesat.logisticks.analyze import satisfy as run_satisfy
from placesat.logisticks.forced import (
    MAX_MOVES,
    UNKNOWN,
    WIN,
    ForcedAnswer,
    PASS,
    check_moves,
    first_steps,
    forced as run_forced,
    line_lines,
    make_goal,
    move_words,
    play_move,
)
from placesat.logisticks.answers import advice_record, moves_record, state_record as _state_json
from placesat.logisticks.play import LogiSticks
from placesat.logisticks.model import (
    Position,
    parse_move,
    position_to_json,
    square_name,
    starting_position,
)
from placesat.logisticks.render import (
    board_segments,
    board_svg,
    piece_segments,
    plain_text,
    position_words,
    rich_text,
    target_segments,
)
from placesat.logisticks.rules import (
    apply_move,
    game_over,
    load_position,
    turns_of,
)

from .certified import certificate_backend, report_certification
from .play import TOP_JSON, add_play_commands, chosen_engine, engine_best, engine_option, show_top, top_option
from .common import (
    search_option,
    table_mb_option,
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    answer_picture,
    check_proof_file,
    proof_option,
    proof_output,
    report_proof,
    write_proof,
    backend_option,
    certify_option,
    checker_option,
    checkers_of,
    command,
    console,
    fail,
    json_option,
    make_group,
    output_folder,
    output_path,
    print_json,
    proof_dir_option,
    side_outputs,
    spinner,
    stdout_is_terminal,
    time_limit_option,
    write_output,
)
from placesat.core.limits import as_deadline
from placesat.core.signals import pending_stop

from placesat.logisticks.proof import forced_proof

app = make_group(
    """Logi-Sticks: place logic-gate pieces (AND OR XOR PASS NOT CAP) on a chess board so that
    the TRUE/FALSE signals from the centre stones reach your edge's target stones with their
    colours (white TRUE, black FALSE). Positions are JSON files (see seeds/logisticks.md);
    a move is written SQUARE PIECE INPUTS, e.g. 'd6 NOT S' or 'c5 AND NE'."""
)

POSITION_HELP = "A position file (JSON, see seeds/logisticks.md; '-' reads standard input)."


def _load(path: str) -> Position:
    return load_position(path)


def _print_rows(rows) -> None:
    """Rows of styled segments: in colour in a terminal, as plain text in a pipe."""
    if stdout_is_terminal():
        console().print(rich_text(rows))
    else:
        print(plain_text(rows))


def _print_board(position: Position, numbered: dict | None = None) -> None:
    _print_rows(board_segments(position, numbered))


@command(app)
def new(
    players: int = typer.Option(2, "--players", "-n", min=2, max=4, help="Number of players."),
    layout: str = typer.Option("alternate", "--layout", help="Target stone colours: alternate or random."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --layout random."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the position to this file instead of stdout."),
    json_output: bool = json_option("Print the position as one line of JSON (with --out: {\"written\": FILE, \"seed\": ...})."),
) -> None:
    """Print a starting position (JSON).

    Empty board, default centre stones, target stones laid out by --layout, full supplies (two
    players: five of each piece; three or four: the ten of each piece dealt out as evenly as
    possible, the first players getting any remainder). --layout random without --seed picks a
    seed and says which on standard error, so the layout can be made again.
    """
    output_path(out, json_output)  # with --out, --json is a report on standard output
    if seed is not None and layout != "random":
        fail("--seed needs --layout random (the alternate layout has nothing to draw)")
    if layout == "random" and seed is None:
        import random

        seed = random.SystemRandom().randrange(1 << 31)
        warn_seed = True
    else:
        warn_seed = False
    try:
        position = starting_position(players, layout, seed)
    except ValueError as error:
        fail(str(error))
    if warn_seed:
        typer.echo(f"seed: {seed} (--layout random --seed {seed} makes this layout again)", err=True)
    if json_output:
        if out is not None:
            write_output(out, json.dumps(position_to_json(position), indent=1) + "\n")
            print_json({"written": out, "seed": seed})
        else:
            print_json(position_to_json(position))
        return
    text = json.dumps(position_to_json(position), indent=1) + "\n"
    write_output(out or "-", text)


@command(app)
def show(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board to this SVG file."),
    json_output: bool = typer.Option(False, "--json", help="Print the position, every signal, the scores and the result as JSON."),
) -> None:
    """Show the board with every piece's owner and signal, the scores in words, whose turn.

    Each piece reads OWNER:TYPE/INPUTS=SIGNAL (1:AND/SW=T: player 1's AND reading south and
    west, outputting TRUE; F FALSE, ? MUTABLE); centre squares list their stones (nW: white
    stone on the north edge); target stones round the edges read W+/B+ matched, W-/B- wrong
    signal, W?/B? nothing yet, each edge labelled with its player (p1 south, p2 north, p3
    west, p4 east). In colour in a terminal, plain text in a pipe. --svg draws the same with
    a legend, the scores and whose turn it is.
    """
    picture_only = side_outputs(json_output, svg=svg_out)
    position = _load(position_file)
    if svg_out is not None:
        write_output(svg_out, board_svg(position, title=position_words(position)))
    if json_output:
        print_json(_state_json(position))
    elif not picture_only:
        _print_board(position)


@command(app)
def moves(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    json_output: bool = typer.Option(False, "--json", help="Print the moves as a JSON list."),
) -> None:
    """List every legal placement for the player to move (or 'pass' when there is none).

    Legal: an empty non-centre square; a piece the player still has; no input facing the rim
    or another input; inputs facing a source (centre stone or an output; a Capacitor only once
    its owner has had a turn again) or open, a two-input piece leaving at most one open; and no
    feedback loop.
    """
    position = _load(position_file)
    record = moves_record(position)
    if json_output:
        print_json(record)
        return
    found = record["moves"]
    if not found:
        print("the game is over: no moves")
        return
    print(f"turn {position.turn}, player {position.to_move}: {len(found)} legal move(s)")
    for move in found:
        print(move)


@command(app)
def play(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    move_text: str = typer.Argument(..., metavar="MOVE", help="SQUARE PIECE INPUTS, e.g. 'd6 NOT S', 'c5 AND NE', or 'pass'."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Also write the new position (JSON) to this file."),
    json_output: bool = typer.Option(False, "--json", help="Print the new position as JSON (the position format) instead of the board."),
) -> None:
    """Make MOVE for the player to move and print the new position.

    An illegal move exits with code 2 and names the rule it breaks.
    """
    position_only = side_outputs(json_output, out=out)
    position = _load(position_file)
    try:
        move = parse_move(move_text)
        after = apply_move(position, move)
    except ValueError as error:
        fail(f"illegal move {move_text!r}: {error}")
    if out is not None:
        write_output(out, json.dumps(position_to_json(after), indent=1) + "\n")
    if json_output:
        print_json(position_to_json(after))
    elif not position_only:
        _print_board(after)


def _numbered_turns(position: Position, plan: list, short: bool = False) -> list[str]:
    """Every turn of a satisfy line, the passes between its placements included, each
    placement with its number in the line (the number on the board)."""
    lines = []
    number = 0
    for each in turns_of(position, plan):
        if each.placement is not None:
            number += 1
        mark = f"#{number}" if each.placement is not None else ""
        if short:
            lines.append(f"turn {each.turn} p{each.player} {mark + ' ' if mark else ''}{each}")
        else:
            lines.append(f"  turn {each.turn:>3}  player {each.player}  {mark:>3} {each}")
    return lines


def _answer(value: Optional[bool]) -> str:
    return {True: "yes", False: "no", None: "unknown"}[value]


@command(app)
def analyze(
    ctx: typer.Context,
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: Optional[int] = typer.Option(None, "--player", "-p", min=1, max=4, help="Only this player's targets and score."),
    backend: str = backend_option(),
    time_limit: Optional[float] = time_limit_option("Seconds in all; questions not settled by then answer 'unknown', never a guess."),
    witnesses: bool = typer.Option(False, "--witnesses", help="With --json: include the placement line behind every 'possible' answer."),
    json_output: bool = typer.Option(False, "--json", help="Print the analysis as one JSON object."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board with the question and each player's best score as its title and every target's verdict under it."),
    certify: bool = certify_option("every 'no' that rests on a solver call, and every maximum's bound"),
    checker: str = checker_option(),
    proof_dir: Optional[str] = proof_dir_option(),
) -> None:
    """Circuit-satisfiability analysis over every completion of the board.

    A completion adds pieces from the remaining supplies, each legal when placed, in some
    order (players cooperating; see seeds/logisticks.md). For each target: can it still end
    matched (receive its own colour's signal), can it still end unmatched (receive the other
    signal), and the verdict (matched/unmatched when decided, open when both can happen, "no
    signal" when neither can: it can only end MUTABLE or unreached). Then each
    player's maximum achievable score, and for every MUTABLE output whether it can still
    resolve to TRUE and to FALSE. Every 'yes' was replayed move by move by the rule engine;
    every 'no' is a solver proof. Exit 0, or 1 when the time limit left something unknown.

    With --certify (SAT backend): every 'no' that rests on a solver call, and every maximum's
    bound, is re-proven on a fresh solver whose proof an independent checker replays; an answer
    whose proof is rejected is an error (exit 1) and reads 'unknown'.
    """
    if witnesses and not json_output:
        fail("--witnesses needs --json (the text names each answer, not its line)")
    checkers = checkers_of(checker, certify) or None
    backend = certificate_backend(ctx, backend, certify, proof_dir)
    output_folder(proof_dir)
    picture_only = side_outputs(json_output, svg=svg_out)
    position = _load(position_file)
    if player is not None and player > position.players:
        fail(f"--player {player}: the position has {position.players} players")
    result = run_analysis(position, backend, player, time_limit, checkers=checkers)
    complete = all(q.answer is not None for t in result.targets for q in (t.can_true, t.can_false)) and all(
        q.answer is not None for m in result.mutable for q in (m.can_true, m.can_false)
    ) and all(s.best is not None for s in result.best_scores)
    if svg_out is not None:
        write_output(svg_out, _analysis_svg(position, result, player))
    if picture_only and not json_output:
        certified = report_certification(result.certification, proof_dir, [f"placesat logisticks analyze {position_file}"])
        raise typer.Exit(EXIT_OK if complete and certified else EXIT_NOT_ALL_GOOD)
    if json_output:
        print_json(result.to_json(with_witnesses=witnesses))
        certified = report_certification(result.certification, proof_dir, [f"placesat logisticks analyze {position_file}"])
        raise typer.Exit(EXIT_OK if complete and certified else EXIT_NOT_ALL_GOOD)
    rows = [[("target  player  now  can-match  can-mismatch  verdict", "bold")]]
    for t in result.targets:
        rows.append([(f"{square_name(t.square):<8}{t.player:<8}", ""), *target_segments(t.colour, t.now),
                     (f"   {_answer(t.can_match):<11}{_answer(t.can_mismatch):<14}{t.verdict}", "")])
    rows.append([])
    for s in result.best_scores:
        best = "unknown" if s.best is None else str(s.best)
        rows.append([(f"player {s.player}: {s.now} point(s) now, at most {best} achievable", "")])
    if result.mutable:
        rows += [[], [("MUTABLE output  now          can-be-TRUE  can-be-FALSE", "bold")]]
        for m in result.mutable:
            piece = piece_segments(position.pieces[m.square], None)
            pad = " " * max(13 - sum(len(text) for text, _ in piece), 1)
            rows.append([(f"{square_name(m.square):<16}", ""), *piece,
                         (f"{pad}{_answer(m.can_true.answer):<13}{_answer(m.can_false.answer)}", "")])
    _print_rows(rows)
    print()
    print(f"{result.solver_calls} solver call(s), {len(result.witnesses)} witness line(s) replayed, {result.seconds:.3f} s ({backend})")
    if result.certification is not None:
        print(_analysis_certification(result))
    certified = report_certification(result.certification, proof_dir, [f"placesat logisticks analyze {position_file}"])
    raise typer.Exit(EXIT_OK if complete and certified else EXIT_NOT_ALL_GOOD)


def _analysis_svg(position: Position, result, player: Optional[int]) -> str:
    """The board analysed: the question and each player's best score as the title, every
    target's verdict under the board, player by player."""
    whose = f"player {player}" if player is not None else "each player"
    best = "; ".join(f"player {s.player} at most {'unknown' if s.best is None else s.best} (now {s.now})" for s in result.best_scores)
    title = f"Logi-Sticks, turn {position.turn}: what can {whose} still score? {best}"
    notes = []
    for owner in sorted({t.player for t in result.targets}):
        verdicts = ", ".join(f"{square_name(t.square)} {t.colour} {t.verdict}" for t in result.targets if t.player == owner)
        notes.append(f"player {owner}'s targets: {verdicts}")
    return board_svg(position, title=title, notes=notes)


def _analysis_certification(result) -> str:
    """What --certify established for an analysis, in one line."""
    certification = result.certification
    questions = [q for t in result.targets for q in (t.can_true, t.can_false)]
    questions += [q for m in result.mutable for q in (m.can_true, m.can_false)]
    on_board = sum(1 for q in questions if q.on_board)
    board = (f"; {on_board} 'no' answer(s) read off the board need no proof (a settled signal never "
             "changes; a square no piece can take stays empty)") if on_board else ""
    if not certification.certified:
        return certification.words() + board
    if not certification.proofs:
        return f"certified: nothing needed a proof (each maximum matches every target it counts; no 'no' rests on a solver call){board}"
    return f"{certification.words()}, behind every 'no' and every maximum above{board}"


@command(app)
def satisfy(
    ctx: typer.Context,
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: int = typer.Option(..., "--player", "-p", min=1, max=4, help="The player to satisfy."),
    score: Optional[int] = typer.Option(None, "--score", "-s", min=0, help="Points wanted (default: the player's maximum, proven optimal)."),
    backend: str = backend_option(),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = typer.Option(False, "--json", help="Print the answer and the placement line as one JSON object."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board after the line, its placements numbered in order, the question and the answer in the title."),
    certify: bool = certify_option("'impossible', or the maximum's bound"),
    checker: str = checker_option(),
    proof_dir: Optional[str] = proof_dir_option(),
) -> None:
    """A line of legal placements after which PLAYER scores its maximum (or --score points).

    The line is for cooperating players: each turn names its player and placement, or 'pass'
    for a player who waits; the board after it numbers the line's pieces in order (#1 ...).
    It was replayed move by move by the rule engine. 'impossible' (exit 1)
    is a solver proof that no completion reaches the score; 'unknown' (exit 1) means the time
    limit came first.

    With --certify (SAT backend): 'impossible', or the maximum's bound, is re-proven on a fresh
    solver whose proof an independent checker replays; a proof the checker rejects is an error
    (exit 1) and the answer 'unknown'.
    """
    checkers = checkers_of(checker, certify) or None
    backend = certificate_backend(ctx, backend, certify, proof_dir)
    output_folder(proof_dir)
    picture_only = side_outputs(json_output, svg=svg_out)
    position = _load(position_file)
    if player > position.players:
        fail(f"--player {player}: the position has {position.players} players")
    result = run_satisfy(position, player, backend, score, time_limit, checkers=checkers)
    proofs = result.certification.words() if result.certification is not None and result.certification.calls else ""
    question = f"player {player}'s best score?" if score is None else f"can player {player} score {score}?"
    numbered = {}
    if result.status == "possible":
        wanted = ("its maximum" + (f"; {proofs}" if proofs else "")) if score is None else f"at least {score}"
        answer = f"player {player} can score {result.score} ({wanted}) after {len(result.witness.plan)} placement(s)"
        short = f"{'' if score is None else 'yes: '}{result.score} point(s){' (the maximum)' if score is None else ''} after {len(result.witness.plan)} placement(s)"
        numbered = {step.placement.square: number for number, step in enumerate(result.witness.plan, start=1)}
    elif result.status == "impossible":
        answer = f"impossible: no completion gives player {player} {score} point(s) ({proofs or 'proved by the solver'})"
        short = answer
    elif result.certification is not None and result.certification.calls and not result.certification.certified:
        found = f" (a line reaching {result.score} point(s) was found)" if result.score is not None else ""
        answer = f"unknown: the answer's proof was not certified{found}: {result.certification.words()}"
        short = "unknown: the answer's proof was not certified"
    else:
        answer = short = "unknown: the time limit came before the answer"
    if json_output:
        print_json(result.to_json())
    elif picture_only:
        pass
    elif result.status == "possible":
        print(f"{answer}:")
        for line in _numbered_turns(position, result.witness.plan):
            print(line)
        print()
        _print_board(result.witness.final, numbered)
    else:
        print(answer)
    if svg_out is not None:
        board = result.witness.final if result.witness is not None else position
        notes = [] if result.witness is None else ["the line: " + "; ".join(_numbered_turns(position, result.witness.plan, short=True))]
        write_output(svg_out, board_svg(board, title=f"Logi-Sticks, {question} {short}",
                                        notes=notes, numbered=numbered))
    certified_all = report_certification(result.certification, proof_dir, [f"placesat logisticks satisfy {position_file} --player {player}"])
    raise typer.Exit(EXIT_OK if result.status == "possible" and certified_all else EXIT_NOT_ALL_GOOD)


@command(app)
def forced(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    moves: int = typer.Option(..., "--moves", "-k", help=f"Within this many of the player's own moves (1 to {MAX_MOVES}); the others' moves between them are searched in full."),
    score: Optional[int] = typer.Option(None, "--score", "-s", help="The goal: at least this many points (own targets matched) for the player."),
    target: Optional[str] = typer.Option(None, "--target", help="The goal: this one of the player's own targets matched (its square, e.g. c1)."),
    player: Optional[int] = typer.Option(None, "--player", "-p", help="The player who tries to force the goal (default: the player to move)."),
    time_limit: Optional[float] = time_limit_option(),
    reach_from: Optional[int] = typer.Option(None, "--reach-from", min=1, help="Also cut branches where the completion solver proves the goal out of reach even with everybody's help, at nodes with at least this many plies left (default: never; the path count cuts the same for less, see docs/logisticks.md)."),
    backend: str = backend_option(help_text="Solver backend for --reach-from: sat or cpsat (default sat)."),
    json_output: bool = json_option('One JSON object: {"answer": "win"|"no forced win"|"unknown", "move", "within", "against", "strategy": the replayed strategy tree, "line": the line of play, "positions", "no_win_within"}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board after the principal line of a win (its pieces numbered in order), the question and the answer as its title."),
    search: Optional[str] = search_option(),
    tt_mb: float = table_mb_option(),
    proof_out: Optional[str] = proof_option(),
) -> None:
    """Can the player force a score of at least S (or one target) within K own moves, whatever the others play?

    Every other player plays against the player (with three or four players, all of them
    together; the answer says so). Points once made stay (a settled signal never changes), so
    the goal counts as soon as it is reached, and fails if the game ends first. Searched by
    depth-bounded AND/OR search with a transposition table: a goal reached at once ends a
    branch, and branches where the open targets are too far from any settled signal for the
    pieces the plies left can add are cut. A win is replayed on the plain rules against every
    legal reply before it is printed, with its line of play (the others' strongest replies, up
    to three at each turn; the rest counted) and the board after the principal line (the
    player's moves and the reply each needed longest against, numbered #1, #2, ...).
    'no forced win' means the search was complete. Exit code 1 when the time limit came first;
    the own moves proven not to suffice before it are printed as such. --proof writes the whole
    strategy for check-proof.
    """
    answer_picture(svg_out)
    proof_output(proof_out)
    deadline = as_deadline(time_limit)  # the limit holds from here: reading the position counts
    check_moves(moves)
    position = _load(position_file)
    player = position.to_move if player is None else player
    goal = make_goal(position, player, score, target)
    if game_over(position):
        fail("the game is over: nothing more can be forced")
    with spinner(f"forced: player {player}, {goal.words()}, {moves} own move(s)"):
        answer = run_forced(position, goal, moves, deadline, reach_from, backend, searcher=search, table_mb=tt_mb)
    write_proof(proof_out, forced_proof(position, answer), answer.answer, answer.within)
    if json_output:
        print_json(answer.to_json())
    elif answer.answer == UNKNOWN:
        print(f"unknown: the time limit came first ({answer.positions} positions searched)")
        if answer.no_win_within is not None:
            print(f"settled before it: no forced {goal.words()} within {answer.no_win_within} own move(s)")
    elif answer.answer == WIN:
        _print_forced_win(position, answer)
    else:
        print(f"no forced win: {answer.against} can keep player {player} from {goal.words()} within {moves} own move(s) "
              f"(the search was complete: {answer.positions} positions)")
    if svg_out is not None:
        after, numbered, words = _after_line(position, answer)
        notes = ["the line on the board: " + "; ".join(words)] if words else []
        write_output(svg_out, board_svg(after, title=f"Logi-Sticks {position_file}: {_forced_heading(answer)}", notes=notes, numbered=numbered))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN else EXIT_OK)


@command(app, "check-proof")
def check_proof_command(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    proof_path: str = typer.Argument(..., metavar="FILE", help="A proof file written by 'forced --proof' ('-' reads standard input)."),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"file", "valid", "claim", "reason", "where", "line", "positions", "nodes", "nodes_used", "own_moves_used"}.'),
) -> None:
    """Check a proof file of a forced goal against the rules: replay every reply.

    At each of the player's turns the file's move must be legal; at every other player's turn
    the file must answer every legal reply (a pass when none is legal); every branch must reach
    the goal the file names (a score, or one target matched, read off the rules' signals) within
    the own moves it claims, before the game ends. Exit 0 valid, 1 invalid (the reason, the JSON
    path of the node and the line of play to it) or the time limit came first, 2 a file of the
    wrong shape.
    """
    from placesat.logisticks.proof import check_forced_proof

    deadline = as_deadline(time_limit)
    if proof_path == "-" and position_file == "-":
        fail("POS and FILE cannot both be '-' (standard input holds one document)")
    position = _load(position_file)
    with spinner("check-proof"):
        verdict = check_proof_file(proof_path, lambda data: check_forced_proof(position, data, deadline))
    report_proof(verdict, proof_path, json_output)


def _after_line(position: Position, answer: ForcedAnswer) -> tuple[Position, dict, list[str]]:
    """The board after a win's principal line (the player's moves, against each the reply the
    strategy needed longest to beat), its placements numbered in order, and the line in words;
    the position itself otherwise."""
    if answer.answer != WIN or answer.strategy is None:
        return position, {}, []
    board, numbered, words = position, {}, []
    for move in first_steps(position, answer.strategy, count=LINE_ON_BOARD):
        mover = board.to_move
        board = play_move(board, move)
        if move != PASS:
            numbered[move.square] = len(numbered) + 1
            words.append(f"#{len(numbered)} p{mover} {move_words(move)}")
        else:
            words.append(f"p{mover} pass")
    return board, numbered, words


LINE_ON_BOARD = 12
"""At most this many moves of the principal line are drawn on the board."""


def _print_forced_win(position: Position, answer: ForcedAnswer) -> None:
    """A forced win: the answer, its line of play as an indented tree, the board after the first move."""
    goal = answer.goal
    if answer.within == 0:
        print(f"win: player {goal.player} has {goal.words()} already")
        return
    first = f", starting with {move_words(answer.move)}" if answer.move is not None else ""
    print(f"win: player {goal.player} forces {goal.words()} within {answer.within} own move(s), whatever {answer.against} play{'s' if ' and ' not in answer.against else ''}{first}")
    print(f"replayed on the rules against every legal reply ({answer.replayed} positions)")
    if answer.line:
        print("line of play (the replies the strategy needs longest against first, each followed by the answer):")
        for text in line_lines(answer.line, answer.line_left_out):
            print(text)
    after, numbered, words = _after_line(position, answer)
    if numbered:
        print("the board after the principal line: " + ", ".join(words))
        _print_board(after, numbered)
    print(f"{answer.positions} positions searched")


def _forced_heading(answer: ForcedAnswer) -> str:
    """The question and the answer of ``forced``, for the picture's title."""
    goal = answer.goal
    asked = f"can player {goal.player} force {goal.words()} within {answer.moves} own move(s) against {answer.against}?"
    if answer.answer == WIN:
        first = f", starting with {move_words(answer.move)} (#1)" if answer.move not in (None, PASS) else ""
        said = f"Yes, within {answer.within}{first}."
    elif answer.answer == UNKNOWN:
        said = "Unknown: the time limit came first."
    else:
        said = "No: the others can stop it."
    return f"{asked} {said}"


BEST_SECONDS = 5.0
"""``best``'s time limit when none is given."""


@command(app)
def best(
    position_file: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    time_limit: Optional[float] = time_limit_option(f"Seconds for the whole command (default {BEST_SECONDS:g}); the best move found by then is the answer."),
    depth: Optional[int] = typer.Option(None, "--depth", "-d", min=1, max=MAX_MOVES, help="Search for a forced point within at most this many own moves (default: deepen while time lasts); with it the answer repeats exactly when the time limit does not bite."),
    json_output: bool = json_option('One JSON object: {"player", "move", "kind", "reason", "line", "evaluation", "evaluation_name", "depth", "interrupted"}; with --top: ' + TOP_JSON + " (a forced point is no proven result: worths are evaluations)."),
    top: Optional[int] = top_option(),
    engine_spec: str = engine_option(),
) -> None:
    """The move the engine recommends for the player to move, and why.

    The look-ahead engine (default) searches 2 plies over the evaluation below, with this
    engine at its root; --engine best is this engine alone. In this order: the only legal move; a point at once, or one forced within a few own moves
    whatever the others play ("forces a point within 2 own moves ...", the line shown); the
    move that stops the next player's point at once ("the only move that stops player 2's
    point ..." or "one of N moves ..."); else the move the evaluation prefers, the evaluation
    named and shown (points plus the closeness of the targets still open, own minus the best
    opponent's). Always answers within the time limit; on Ctrl-C, with the best move found so
    far (exit 130).
    """
    engine = chosen_engine(engine_spec)
    deadline = as_deadline(BEST_SECONDS if time_limit is None else time_limit)
    position = _load(position_file)
    if game_over(position):
        fail("the game is over: there is no move to recommend")
    if top is not None:
        raise typer.Exit(show_top(LogiSticks(), position, top, deadline, depth, json_output))
    with spinner(f"best: player {position.to_move}"):
        advice = engine_best(engine, LogiSticks(), position, deadline, depth)
    stopped = pending_stop()
    if json_output:
        print_json(advice_record(position, advice, stopped is not None))
    else:
        print(f"best for player {position.to_move}: {move_words(advice.move)}")
        print(f"{advice.kind}: {advice.reason}")
        if stopped is not None:
            print("(interrupted: the best move found so far)")
    if stopped is not None:
        raise typer.Exit(stopped.exit_code)


# play-vs and selfplay over the Playable; `best` above is Logi-Sticks' own
add_play_commands(app, LogiSticks(), _load, POSITION_HELP, "like 'd6 NOT S' or 'pass'")
