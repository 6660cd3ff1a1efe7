"""``placesat lsd``: play LSD positions, list threats, and ask for reachable and forced wins."""

from __future__ import annotations

import itertools
import json
import sys
from typing import Optional

import typer

from placesat.core.errors import InputError
from placesat.core.limits import as_deadline
from placesat.lsd.model import (
    SKIP,
    THREE_PLAYERS,
    Move,
    Placement,
    Position,
    Record,
    cell_text,
    dumps,
    load_game,
    load_tileset,
    move_text,
    new_position,
    parse_move,
    position_to_json,
    DEFAULT_TILESET,
)
from placesat.lsd.answers import move_outcome_json, play_record, show_record, threats_record
from placesat.lsd.play import PLAYABLE
from placesat.lsd.proof import forced_proof
from placesat.lsd.forced import MAX_DEPTH, WIN, check_depth, forced_win, plies_for_moves
from placesat.lsd.reach import MAX_PLIES, NO, UNKNOWN, check_plies, reach_win
from placesat.lsd.render import LEGEND, line_of_play_lines, render_rich, render_svg, render_text, status_lines
from placesat.lsd.rules import (
    IllegalMove,
    Turn,
    check_position,
    lines,
    move_outcomes,
    play_turn,
    replay,
    winner,
    winning_placements,
)

from .common import (
    search_option,
    table_mb_option,
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    answer_picture,
    backend_option,
    check_proof_file,
    command,
    console,
    fail,
    json_option,
    make_group,
    output_path,
    print_json,
    proof_option,
    proof_output,
    report_proof,
    side_outputs,
    spinner,
    stdout_is_terminal,
    time_limit_option,
    write_output,
    write_proof,
)
from .play import add_play_commands

app = make_group(
    """LSD (Linearity, Simplicity, Duality): square tiles with half dots and capturing icons on an
    unbounded grid. A tile must complete a dot and obstruct none; two + one cell apart or two x
    corner to corner capture the tiles of the other icon colour between them; four tiles of your
    colour in a row win (three with four players). Positions are JSON, moves are written like
    '3,-1 NES+' (cell, dots after turning, icon) or 'skip' (see seeds/lsd.md)."""
)

POSITION_HELP = "A position or game record (JSON; '-' reads standard input). A record is replayed, each move checked."


def _load(path: str) -> tuple[Position, list[Turn]]:
    """The position in ``path`` (a record: the position after its last move), checked, and the
    turns of a record."""
    game = load_game(path)
    start = game.start if isinstance(game, Record) else game
    try:
        check_position(start)
    except InputError as error:
        raise error.located(path) from None
    if isinstance(game, Position):
        return game, []
    try:
        turns = replay(game)
    except IllegalMove as error:
        fail(f"{path}: {error}")
    return (turns[-1].after if turns else game.start), turns


def _player(position: Position, player: int) -> int:
    if not 1 <= player <= position.players:
        fail(f"--player must be from 1 to {position.players}, not {player}")
    return player


def _show_board(position: Position, highlight=(), marks=None) -> None:
    """The board in colour in a terminal, as plain text in a pipe."""
    if not position.field:
        print("the field is empty: the first tile goes on 0,0")
        return
    if stdout_is_terminal():
        console().print(render_rich(position, highlight, marks), end="")
    else:
        print(render_text(position, highlight, marks), end="")


def _winning_line(position: Position) -> tuple:
    won = winner(position)
    return lines(position.field, won, position.line_length)[0] if won else ()


@command(app)
def new(
    players: int = typer.Option(2, "--players", "-n", help="2 or 4 (3 is refused: see seeds/lsd.md)."),
    tileset: Optional[str] = typer.Option(None, "--tileset", help='A tile set file: JSON counts per kind, like {"N+": 2, "NEx": 2} (see seeds/lsd.md). Default: the five dot patterns, each twice with + and twice with x.'),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the position to this file instead of standard output."),
    json_output: bool = json_option("Print the position as JSON on one line."),
) -> None:
    """A starting position: an empty field, every tile in its owner's supply, player 1 to move.

    With 2 players, player 1 has black icons and player 2 white ones; with 4, icon colours
    alternate around the table (black, white, black, white) and three in a row win.
    """
    output_path(out)
    if players == 3:
        fail(THREE_PLAYERS)
    if players not in (2, 4):
        fail(f"--players must be 2 or 4, not {players}")
    position = new_position(players, load_tileset(tileset) if tileset else DEFAULT_TILESET)
    if json_output and out is None:
        print_json(position_to_json(position))
    else:
        write_output(out or "-", dumps(position_to_json(position)))


@command(app)
def show(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the field to this SVG file."),
    json_output: bool = json_option('One JSON object: {"position", "to_move", "winner", "line", "draw"}.'),
) -> None:
    """Show the field: each tile's owner, icon and icon colour, its dots, and whose turn it is.

    Tiles read like 1+b (player 1, icon +, black) and are filled with their owner's colour in a
    terminal; a completed dot is a filled circle on the line between two tiles, an open half
    dot an empty one. A winning line is underlined.
    """
    picture_only = side_outputs(json_output, svg=svg_out)
    position, _ = _load(path)
    line = _winning_line(position)
    if svg_out is not None:
        write_output(svg_out, render_svg(position, highlight=line, title=f"LSD {path}"))
    if json_output:
        print_json(show_record(position))
        return
    if picture_only:
        return
    _show_board(position, highlight=line)
    print(LEGEND)
    for text in status_lines(position):
        print(text)


def _capture_note(turn: Turn) -> str:
    return _notes([c for c, _ in turn.captured], turn.winner)


def _notes(taken: list, won: int | None) -> str:
    """What a move captures and whether it wins, after two spaces ('' when neither)."""
    notes = []
    if taken:
        notes.append("captures " + " ".join(cell_text(c) for c in taken))
    if won is not None:
        notes.append(f"wins (player {won})")
    return "  " + "; ".join(notes) if notes else ""


# Up to this many moves are gathered before anything is printed, so that a list that ends
# within it starts with its count as it always did; a longer one is printed as it is found
# (a field of thousands of tiles has hundreds of thousands of placements) and counted at the end
MOVES_HELD = 2000


@command(app)
def moves(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    json_output: bool = json_option('One JSON object: {"to_move", "moves": [{"move", "captures", "wins"}], "count"}, written as the moves are found.'),
) -> None:
    """Every legal move of the player to move: each placement with its rotation and what it
    would capture (and whether it wins), or 'skip' when there is none.

    A placement reads CELL DOTS ICON: '3,-1 NES+' puts a + tile on cell (3, -1) turned so that
    its half dots are on the N, E and S sides. None once the game is won or drawn. Moves are
    printed as they are found; a list longer than 2,000 ends with its count rather than
    starting with it.
    """
    position, _ = _load(path)
    found = move_outcomes(position)
    if json_output:
        _stream_json_moves(position, found)
        return
    held = list(itertools.islice(found, MOVES_HELD))
    if not held:
        print("the game is over: " + (f"player {winner(position)} has won" if winner(position) else "a draw"))
        return
    if held[0][0] == SKIP:
        print(f"player {position.to_move} cannot place a tile and must skip")
        return
    rest = next(found, None)
    if rest is None:
        print(f"player {position.to_move} to move: {len(held)} placement(s)")
        for move, taken, wins in held:
            print(_move_line(move, taken, wins, position.to_move))
        return
    print(f"player {position.to_move} to move; placements as they are found (the count at the end):")
    count = 0
    for move, taken, wins in itertools.chain(held, [rest], found):
        sys.stdout.write(_move_line(move, taken, wins, position.to_move) + "\n")
        count += 1
    print(f"player {position.to_move}: {count} placement(s)")


def _move_line(move: Move, taken: list, wins: bool, mover: int) -> str:
    """A move with what it would capture and whether it would win (``moves``)."""
    return move_text(move) + _notes(taken, mover if wins else None)


def _stream_json_moves(position: Position, found) -> None:
    """``moves --json``: the object written piece by piece as the moves are found (the same
    object print_json writes, with the count added)."""
    out = sys.stdout
    to_move = position.to_move
    count = 0
    for move, taken, wins in found:
        if count == 0:
            out.write('{"to_move":%s,"moves":[' % json.dumps(to_move))
        else:
            out.write(",")
        out.write(json.dumps(move_outcome_json(move, taken, wins), separators=(",", ":")))
        count += 1
    if count == 0:
        out.write('{"to_move":null,"moves":[')
    out.write('],"count":%d}\n' % count)
    out.flush()


@command(app)
def play(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    move_texts: list[str] = typer.Argument(..., metavar="MOVE...", help="Moves in order, each like '3,-1 NES+' (quote it) or 'skip'."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the position reached to this file (JSON)."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the position reached."),
    json_output: bool = json_option('One JSON object: {"moves": [{"move", "player", "captures", "wins"}], "position", ...}.'),
) -> None:
    """Play one or more moves on POS, each checked, and show the position reached.

    Each placement must come from the mover's supply, fit (dots meet dots, empty sides meet
    empty sides, at least one dot completed) and then captures what it captures; a skip is
    allowed only when the mover cannot place. Nothing may follow a win.
    """
    file_only = side_outputs(json_output, out=out, svg=svg_out)
    position, _ = _load(path)
    turns = []
    for i, text in enumerate(move_texts):
        move = parse_move(text, f"MOVE {i + 1}")
        try:
            turn = play_turn(position, move)
        except IllegalMove as error:
            fail(f"MOVE {i + 1} ({text.strip()}): {error}")
        turns.append(turn)
        position = turn.after
    if out is not None:
        write_output(out, dumps(position_to_json(position)))
    line = _winning_line(position)
    if svg_out is not None:
        write_output(svg_out, render_svg(position, highlight=line or [t.move.cell for t in turns[-1:] if t.move != SKIP], title=f"LSD {path}"))
    if json_output:
        print_json(play_record(turns, position))
        return
    if file_only:
        return
    for turn in turns:
        print(f"player {turn.before.to_move}: {move_text(turn.move)}{_capture_note(turn)}")
    last = [t.move.cell for t in turns[-1:] if isinstance(t.move, Placement)]
    _show_board(position, highlight=line or last)
    for text in status_lines(position)[:1]:
        print(text)


@command(app)
def threats(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    json_output: bool = json_option('One JSON object: {"threats": {"1": ["3,-1 NES+", ...], ...}}.'),
) -> None:
    """For each player, the placements that would win at once if it were their turn.

    A placement wins when it completes a line of the player's own colour (after its captures,
    which never take the mover's own tiles). The cells are marked * on the board.
    """
    position, _ = _load(path)
    if json_output:
        print_json(threats_record(position))
        return
    found = {p: winning_placements(position, p) for p in range(1, position.players + 1)}
    if winner(position) is not None:
        print(f"the game is over: player {winner(position)} has won")
        return
    marks = {m.cell: "*" for wins in found.values() for m in wins}
    _show_board(position, marks=marks)
    for player, wins in found.items():
        cells = sorted({m.cell for m in wins})
        if not wins:
            print(f"player {player}: no immediate win")
            continue
        print(f"player {player}: {len(wins)} winning placement(s) on {len(cells)} cell(s)")
        for cell in cells:
            print(f"  {cell_text(cell)}: " + " ".join(move_text(m).split(" ", 1)[1] for m in wins if m.cell == cell))


def _ply_marks(turns: list[Turn]) -> dict:
    """Each placement's ply number on its cell, for the field before the sequence (a cell
    filled twice, after a capture, shows both numbers when they fit in a cell)."""
    marks: dict = {}
    for number, turn in enumerate(turns, start=1):
        if isinstance(turn.move, Placement):
            cell = turn.move.cell
            both = f"{marks[cell]},{number}" if cell in marks else str(number)
            marks[cell] = both if len(both) <= 3 else str(number)
    return marks


def _turn_line(turn: Turn) -> str:
    return f"player {turn.before.to_move}: {move_text(turn.move)}{_capture_note(turn)}"


@command(app)
def reach(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: int = typer.Option(..., "--player", "-p", help="The player who is to have a line (1 to the number of players)."),
    plies: int = typer.Option(..., "--plies", "-k", help=f"At most this many plies, every player's counted (0 to {MAX_PLIES})."),
    backend: str = backend_option(command_name="lsd reach"),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"answer": "yes"|"no"|"unknown", "moves": [{"move", "player", "captures"}], ...}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="With a yes: also write a picture of the position reached, the placed tiles numbered in order, the question and the answer as its title."),
) -> None:
    """Can PLAYER have a line within K plies if everybody helps?

    Every player moves in turn, placing a tile, or skipping only when they cannot place; the
    question is whether some such sequence of K plies or fewer ends with PLAYER's line, nobody
    having won before. The plies are compiled to SAT or CP-SAT (bounded model checking over the
    cells they can reach, captures included). 'yes' comes with the shortest sequence, replayed
    by the plain rules, its plies numbered on the field before them (and on the tiles in the
    picture); 'no' is a proof. Exit code 1 when the time limit came first; if it comes while a
    shorter sequence is looked for, the one found is printed, said to be perhaps not the shortest.
    """
    deadline = as_deadline(time_limit)  # the limit holds from here: reading the position counts
    answer_picture(svg_out)
    check_plies(plies)
    position, _ = _load(path)
    _player(position, player)
    with spinner(f"reach: player {player}, {plies} plies"):
        answer = reach_win(position, player, plies, backend, deadline)
    if json_output:
        print_json(answer.to_json())
    elif answer.answer == UNKNOWN:
        print("unknown: the time limit came first")
    elif answer.answer == NO:
        print(f"no: player {player} cannot have a line within {plies} plies, whatever anybody plays")
    else:
        unsure = "" if answer.shortest else " (the time limit came before a shorter sequence was ruled out)"
        print(f"yes: player {player} has a line after {len(answer.moves)} plies{unsure}:")
        for number, turn in enumerate(answer.turns, start=1):
            print(f"  {number}. " + _turn_line(turn))
        if answer.turns:
            marks = _ply_marks(answer.turns)
            if marks:
                print("where the tiles go, numbered in order, on the field before them:")
                _show_board(position, marks=marks)
            print("the field after them:")
            final = answer.turns[-1].after
            _show_board(final, highlight=_winning_line(final))
    if svg_out is not None and answer.turns:
        final = answer.turns[-1].after
        numbers = {t.move.cell: n for n, t in enumerate(answer.turns, start=1) if isinstance(t.move, Placement) and t.move.cell in final.field}
        steps = ", ".join(f"{n}. {_turn_line(t)}" for n, t in enumerate(answer.turns, start=1))
        heading = f"Can player {player} have a line within {plies} plies if everybody helps? Yes, after {len(answer.turns)}: {steps}"
        write_output(svg_out, render_svg(final, highlight=_winning_line(final), title=f"LSD {path}: player {player} reaches a line", heading=heading, numbers=numbers))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN else EXIT_OK)


@command(app)
def forced(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: Optional[int] = typer.Option(None, "--player", "-p", help="The player who tries to force a line (default: the player to move)."),
    moves: Optional[int] = typer.Option(None, "--moves", "-k", min=1, help=f"Within this many of PLAYER's own moves (the plies they take, every player's counted, at most {MAX_DEPTH}). Give this or --depth."),
    depth: Optional[int] = typer.Option(None, "--depth", "-d", help=f"Within this many plies, every player's counted (1 to {MAX_DEPTH}; the player's own plies are among them). Give this or --moves."),
    time_limit: Optional[float] = time_limit_option(),
    reach_from: Optional[int] = typer.Option(None, "--reach-from", min=1, help="Also cut branches where the solver proves that PLAYER cannot win even with help, at nodes with at least this many plies left (default: never; it costs more than it saves on our benchmarks, see docs/performance.md)."),
    backend: str = backend_option(help_text="Solver backend for --reach-from: sat or cpsat (default sat)."),
    json_output: bool = json_option('One JSON object: {"answer": "win"|"no forced win"|"unknown", "move", "positions", "replayed": the positions of the strategy replayed on the rules, "strategy": {first move, every reply with the answer}, "line": the line of play as a tree, "no_win_within", "note": why an unknown is one when a win was found but its replay did not finish}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the position with the question and the answer as its title, the first move of a win marked 1."),
    search: Optional[str] = search_option(),
    tt_mb: float = table_mb_option(),
    proof_out: Optional[str] = proof_option(),
) -> None:
    """Can PLAYER force a line within K of its own moves (-k) or D plies (-d), whatever the others play?

    The others play together against PLAYER; an opponent's line or a draw is no win. K own
    moves are the plies up to PLAYER's K-th move (with 2 players and PLAYER to move, -k 2 is
    -d 3). Searched
    by depth-bounded AND/OR search with a transposition table: a win at once ends a branch, the
    last ply is judged by the cells near PLAYER's almost-lines, and branches where PLAYER has
    too few tiles in any row for the plies left are cut. A win is replayed on the plain rules
    against every legal reply of the others before it is printed (a replay that does not finish
    in the time gives 'unknown'). It prints its first move and its line of play: PLAYER's move, under it the others' strongest
    replies (up to three at each turn, 24 moves in all; the rest counted), each with PLAYER's
    answer, then the board with the first move marked 1. Exit code 1 when the time limit came
    first; what was settled before it (no forced win within fewer plies) is printed as such.
    --proof writes the whole strategy for check-proof.
    """
    answer_picture(svg_out)
    proof_output(proof_out)
    deadline = as_deadline(time_limit)  # the limit holds from here: reading the position counts
    if (moves is None) == (depth is None):
        fail("give one of --moves K (PLAYER's own moves) and --depth D (plies)")
    if depth is not None:
        check_depth(depth)
    position, _ = _load(path)
    player = position.to_move if player is None else _player(position, player)
    if moves is not None:
        depth = plies_for_moves(position, player, moves)
        if depth > MAX_DEPTH:
            fail(f"--moves {moves}: player {player}'s {moves} moves take {depth} plies here, more than {MAX_DEPTH}")
    with spinner(f"forced: player {player}, depth {depth}"):
        answer = forced_win(position, player, depth, deadline, reach_from, backend, strategy=json_output, searcher=search, table_mb=tt_mb)
    write_proof(proof_out, forced_proof(position, answer), answer.answer, answer.within)
    if json_output:
        print_json(answer.to_json())
    elif answer.answer == UNKNOWN:
        print(f"unknown: the time limit came first ({answer.positions} positions searched)")
        if answer.no_win_within is not None:
            print(f"settled before it: no forced win within {answer.no_win_within} plies")
        if answer.note:
            print(answer.note)
    elif answer.answer == WIN:
        if answer.move is None:
            how = "has won already" if answer.within == 0 else "wins whatever the player to move does"
            print(f"win: player {player} {how}" + ("" if answer.within == 0 else f", within {answer.within} plies"))
        else:
            print(f"win: player {player} forces a line within {answer.within} plies, starting with {move_text(answer.move)}")
        _print_line_of_play(position, answer)
        replayed = f", the strategy replayed on the rules against every reply ({answer.replayed} positions)" if answer.replayed else ""
        print(f"{answer.positions} positions searched{replayed}")
    else:
        own = f" ({moves} of its own moves)" if moves is not None else ""
        print(f"no forced win: the others can stop player {player} for {depth} plies{own} ({answer.positions} positions searched)")
    if svg_out is not None:
        write_output(svg_out, render_svg(position, marks=_first_move_mark(answer), title=f"LSD {path}", heading=_forced_heading(answer)))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN else EXIT_OK)


@command(app, "check-proof")
def check_proof_command(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    proof_path: str = typer.Argument(..., metavar="FILE", help="A proof file written by 'forced --proof' ('-' reads standard input)."),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"file", "valid", "claim", "reason", "where", "line", "positions", "nodes", "nodes_used", "own_moves_used"}.'),
) -> None:
    """Check a proof file of a forced win against the rules: replay every reply.

    At each of PLAYER's turns the file's move must be legal; at every other player's turn the
    file must answer every legal move; every branch must end with PLAYER's line within the own
    moves the proof claims. Exit 0 valid, 1 invalid (the reason, the JSON path of the node and
    the line of play to it) or the time limit came first, 2 a file of the wrong shape.
    """
    from placesat.lsd.proof import check_forced_proof

    deadline = as_deadline(time_limit)
    if proof_path == "-" and path == "-":
        fail("POS and FILE cannot both be '-' (standard input holds one document)")
    position, _ = _load(path)
    with spinner("check-proof"):
        verdict = check_proof_file(proof_path, lambda data: check_forced_proof(position, data, deadline))
    report_proof(verdict, proof_path, json_output)


def _first_move_mark(answer) -> dict:
    """The cell of a forced win's first move, marked 1 (none when another player moves first)."""
    return {answer.move.cell: "1"} if isinstance(answer.move, Placement) else {}


def _print_line_of_play(position: Position, answer) -> None:
    """A forced win's line of play as an indented tree, then the board with the first move marked."""
    if answer.line:
        print("line of play (the others' strongest replies first, each followed by the answer):")
        for text in line_of_play_lines(answer.line, answer.line_left_out, position.players, position.to_move):
            print(text)
    if not answer.line_complete:
        print("(the time limit came before the whole line of play was written out; the win itself is proven)")
    marks = _first_move_mark(answer)
    if marks:
        _show_board(position, marks=marks)
        print("1 on the board: the first move")


def _forced_heading(answer) -> str:
    """The question and the answer of ``forced``, for the picture's title."""
    asked = f"Can player {answer.player} force a line within {answer.depth} plies?"
    if answer.answer == WIN:
        first = f", starting with {move_text(answer.move)} (marked 1)" if answer.move is not None else ""
        said = f"Yes: player {answer.player} wins within {answer.within} plies{first}."
    elif answer.answer == UNKNOWN:
        said = "Unknown: the time limit came first."
    else:
        said = "No: the others can stop it."
    return f"{asked} {said}"


MOVE_HELP = "like '3,-1 NES+' (cell, dots after turning, icon) or 'skip'"


def _position_only(path: str) -> Position:
    """The position in ``path`` (a record: after its last move), for play-vs, best and selfplay."""
    return _load(path)[0]


add_play_commands(app, PLAYABLE, _position_only, POSITION_HELP, MOVE_HELP, best=True)
