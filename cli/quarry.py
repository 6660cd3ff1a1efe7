"""``placesat quarry``: the stacking connection game: positions, moves, cheapest wins, threats."""

from __future__ import annotations

import json
from typing import Optional

import typer

from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp
from placesat.quarry.model import (
    DEFAULT_LENGTH, DEFAULT_WIDTH, OUTSIDE, PASS, PLAYERS, ZONE_READINGS, Position, check_board, dumps,
    load_position, move_text, parse_move, position_to_json,
)
from placesat.quarry.reach import (
    DEFAULT_REACH_BACKEND, IMPOSSIBLE, OBJECTIVES, POSSIBLE, STONES, UNKNOWN, Race, ReachAnswer, race as race_query,
    reach as reach_query,
)
from placesat.quarry.render import legend_numbered, legend_text, render_isometric, render_panels, render_stones, render_svg, render_text
from placesat.core.signals import pending_stop
from placesat.quarry.forced import MAX_MOVES as FORCED_MOST, UNKNOWN as FORCED_UNKNOWN, WIN as FORCED_WIN_ANSWER, check_moves as check_forced_moves, forced_win
from placesat.quarry.answers import advice_record, forced_record, moves_record, played_record, stones_record, threats_record
from placesat.quarry.answers import block_record, block_title as _block_title, laid_after as _laid_after
from placesat.quarry.answers import forced_title as _forced_title, line_after as _line_after, race_record, race_title as _race_title
from placesat.quarry.answers import state_record as _state_json, status_words as _status
from placesat.quarry.play import Game as QuarryGameSoFar, QuarryPlayable
from placesat.quarry.rules import State, line, placements, play as rules_play, record, replay, tournament_points
from placesat.quarry.stones import StoneSet, default_stones, load_stones
from placesat.quarry.threats import blocks, threats as threats_query

from .play import TOP_JSON, add_play_commands, chosen_engine, engine_best, engine_option, show_top, top_option
from .common import (
    EXIT_NOT_ALL_GOOD, answer_picture, backend_option, check_proof_file, command, console, fail, json_option, make_group,
    output_path, print_json, proof_option, proof_output, report_proof, search_option, side_outputs, spinner,
    stdout_is_terminal, table_mb_option, time_limit_option, write_output, write_proof,
)

from placesat.quarry.proof import forced_proof

app = make_group(
    """Quarry (Shaun R. Mather): lay and stack stones of cubes on a 10 x 9 board; a player wins
    when, seen from above, its colour joins one Quarry zone to the other. Positions are JSON game
    records (see seeds/quarry.md); a move is typed as STONE CELL [DIR] [FACE], like 'beam c3 s'
    or 'arch d4 e down', or 'pass'."""
)

POSITION_HELP = "A position (JSON game record; '-' reads standard input). Every move is replayed and checked."
PLAYER_HELP = "black or blue."
VIEWS = ("top", "iso")
BEST_TIME = 5.0
"""``best``'s default time limit, in seconds."""


def _load(path: str) -> tuple[Position, State]:
    position = load_position(path)
    try:
        return position, replay(position)
    except InputError as error:
        raise error.located(path) from None


def _player(value: Optional[str], state: State) -> str:
    if value is None:
        return state.to_move
    if value not in PLAYERS:
        fail(f"--player must be black or blue, not {value!r}")
    return value


def _supply_text(state: State, player: str) -> str:
    left = state.supply(player)
    return ", ".join(f"{name} {n}" for name, n in left.items() if n) or "none"


def _show_board(state: State, winning: list | None = None) -> None:
    out = console()
    out.print(render_text(state, winning, colour=stdout_is_terminal()), end="", markup=True)
    out.print(legend_text(state), markup=False)


@command(app)
def new(
    length: int = typer.Option(DEFAULT_LENGTH, "--length", help="Rows from one Quarry zone to the other (with --zones inside: including the zones)."),
    width: int = typer.Option(DEFAULT_WIDTH, "--width", help="Columns across the board (at most 26, a to z)."),
    zones: str = typer.Option(OUTSIDE, "--zones", help="outside: the Quarry zones lie beyond the first and last rows (default); inside: the first and last two rows are the zones, and stones may go there."),
    stones: Optional[str] = typer.Option(None, "--stones", metavar="FILE", help='A stone file (JSON {"stones": [...]}, see seeds/quarry.md) instead of the default 25 stones.'),
    first: str = typer.Option("black", "--first", help="Who moves first: black or blue."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the position here instead of printing it."),
    json_output: bool = json_option("Print the position as one line of JSON."),
) -> None:
    """A new game: the empty board and each player's stones, as a position file.

    The board, the zone reading and the stones are kept in the position, so every later command
    plays by them.
    """
    if zones not in ZONE_READINGS:
        fail(f"--zones must be {' or '.join(ZONE_READINGS)}, not {zones!r}")
    if first not in PLAYERS:
        fail(f"--first must be black or blue, not {first!r}")
    output_path(out)
    try:
        board = check_board(length, width, zones)
    except InputError as error:
        fail(f"--{error.message}")
    kinds = default_stones() if stones is None else load_stones(stones)
    position = Position(board, kinds, first)
    text = json.dumps(position_to_json(position), separators=(",", ":")) + "\n" if json_output else dumps(position)
    if out is not None:
        write_output(out, text)
    else:
        typer.echo(text, nl=False)


@command(app)
def show(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture (SVG)."),
    view: str = typer.Option("top", "--view", help="The picture: top (the top view, heights shaded; default) or iso (the cubes, isometric)."),
    json_output: bool = json_option('One JSON object: {"to_move", "winner", "heights", "top", "left", "tournament_points", "line"}.'),
) -> None:
    """Show POS: the top view (colour and height of every cell), whose turn it is, the stones each
    player has left, and the tournament points so far (the winner's doubled)."""
    if view not in VIEWS:
        fail(f"--view must be top or iso, not {view!r}")
    picture_only = side_outputs(json_output, svg=svg_out)
    _, state = _load(path)
    won = line(state, state.winner) if state.winner else None
    if json_output:
        print_json(_state_json(state))
    elif not picture_only:
        _show_board(state, won)
        typer.echo(_status(state) + f" after {len(state.laid)} stone(s)")
        points = tournament_points(state)
        for player in PLAYERS:
            typer.echo(f"{player} has left: {_supply_text(state, player)} ({points[player]} tournament points)")
    if svg_out is not None:
        picture = render_isometric(state, f"Quarry {path}") if view == "iso" else render_svg(state, won, f"Quarry {path}")
        write_output(svg_out, picture)


@command(app)
def moves(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Whose moves (default: the player to move)."),
    stone: Optional[str] = typer.Option(None, "--stone", help="Only this stone (a name or its prefix)."),
    json_output: bool = json_option('One JSON object: {"player", "moves": {stone: [{"move", "height"}]}}.'),
) -> None:
    """The legal placements in POS, grouped by stone, each once (a Brick laid east from a1 is the
    one laid west from b1), with the height it would rest at. 'pass' when none fits."""
    _, state = _load(path)
    who = _player(player, state)
    only = None
    if stone is not None:
        kind = state.stones.find(stone)
        if kind is None:
            fail(f"--stone: unknown stone {stone!r} (stones: {', '.join(state.stones.names)})")
        only = (kind.name,)
    if json_output:
        print_json(moves_record(state, who, only))
        return
    grouped: dict[str, list[tuple[str, int]]] = {}
    for placement, base in placements(state, who, only):
        grouped.setdefault(placement.stone, []).append((placement.text(state.stones), base))
    if state.is_over:
        typer.echo(f"no moves: {_status(state)}")
        return
    total = sum(len(v) for v in grouped.values())
    typer.echo(f"{who}: {total} legal placement(s)" + ("" if total else f"; {who} must pass"))
    for name, listed in grouped.items():
        # the stone's name once per group: each entry is the rest of the move, as typed after it
        entries = [m.split(" ", 1)[1] + (f" @{h}" if h else "") for m, h in listed]
        typer.echo(f"{name} ({state.left(who, name)} left, {len(listed)} ways): " + ", ".join(entries))
    if total:
        typer.echo("(type a move as STONE and an entry, e.g. '" + grouped[next(iter(grouped))][0][0] + "'; @N: rests at height N)")


@command(app)
def play(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    move: str = typer.Argument(..., metavar="MOVE", help="STONE CELL [DIR] [FACE] (e.g. 'beam c3 s', 'arch d4 e down'), or 'pass'."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the position after the move here."),
    json_output: bool = json_option('One JSON object: {"player", "move", "height", "winner", "position"}.'),
) -> None:
    """Play MOVE for the player to move in POS; an illegal move is refused naming the rule it breaks.

    Prints the board after the move and whether it won; --out writes the new position.
    """
    position_only = side_outputs(json_output, out=out)
    position, state = _load(path)
    parsed = parse_move(move, position.board, position.stones)
    player = state.to_move
    after_position, after = record(position, state, parsed)
    height = after.laid[-1].base if parsed != PASS else None
    if json_output:
        print_json(played_record(player, parsed, height, state, after, after_position))
    elif not position_only:
        rests = f" (rests at height {height})" if height is not None else ""
        typer.echo(f"{player} plays {move_text(parsed, state.stones)}{rests}")
        won = line(after, after.winner) if after.winner else None
        _show_board(after, won)
        typer.echo(_status(after))
    if out is not None:
        write_output(out, dumps(after_position))


def _show_line(answer: ReachAnswer, state: State) -> None:
    """An answer's line on the board: its title, then the top view after its stones, each new
    stone numbered in building order."""
    typer.echo(answer.title(state))
    out = console()
    out.print(render_text(answer.after(state), answer.line, colour=stdout_is_terminal(), new_from=len(state.laid)), end="", markup=True)
    out.print(legend_numbered(state), markup=False)


def _reach_lines(answer: ReachAnswer, state: State) -> list[str]:
    what = "stone(s)" if answer.objective == STONES else "point(s)"
    within = f" within {answer.max_stones} stone(s)" if answer.max_stones is not None else ""
    if answer.answer == UNKNOWN:
        return [f"{answer.player}: unknown (the time limit came first)"]
    if answer.answer == IMPOSSIBLE:
        reason = answer.reason or f"no set of its stones{within} completes a line (proved)"
        return [f"{answer.player}: impossible: {reason}"]
    if not answer.moves:
        return [f"{answer.player}: {answer.reason or 'a line is already complete'}"]
    cost = answer.stones if answer.objective == STONES else answer.points
    head = f"{answer.player}: {cost} {what} at the fewest{within}: {answer.stones} stone(s), {answer.points} point(s) given up"
    steps = [f"  {i}. {p.text(state.stones)}" + (f" (height {b})" if b else "") for i, (p, b) in enumerate(answer.moves, 1)]
    return [head, "  in this order (the opponent passing):"] + steps


@command(app)
def reach(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Whose line (default: the player to move)."),
    objective: str = typer.Option(STONES, "--objective", help="stones (fewest stones; default) or points (fewest tournament points given up)."),
    max_stones: Optional[int] = typer.Option(None, "--max-stones", "-k", min=0, help="At most this many stones."),
    backend: str = backend_option(DEFAULT_REACH_BACKEND, f"Solver backend: sat or cpsat (default {DEFAULT_REACH_BACKEND}: its LP proves the bounds).", "quarry reach"),
    time_limit: Optional[float] = time_limit_option(),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board after the answer's stones."),
    json_output: bool = json_option('One JSON object: {"answer": possible|impossible|unknown, "stones", "points", "moves", "line"}.'),
) -> None:
    """The cheapest way for PLAYER to complete a line if the opponent does nothing.

    Fewest of its remaining stones (or, with --objective points, fewest tournament points given
    up), proved by the solver; the stones are printed in an order that lays them legally (each
    replayed by the plain rules, the line complete with the last one). 'impossible' is a proof
    that no set of its stones (within --max-stones) makes a line.
    """
    if objective not in OBJECTIVES:
        fail(f"--objective must be stones or points, not {objective!r}")
    answer_picture(svg_out)
    _, state = _load(path)
    who = _player(player, state)
    with spinner(f"reach for {who}..."):
        answer = reach_query(state, who, objective, max_stones, backend, time_limit)
    if json_output:
        print_json(answer.to_json(state))
    else:
        for text in _reach_lines(answer, state):
            typer.echo(text)
        if answer.answer == POSSIBLE and answer.moves:
            _show_line(answer, state)
    if svg_out is not None and answer.answer == POSSIBLE:
        write_output(svg_out, render_svg(answer.after(state), answer.line, f"Quarry {path}", new_from=len(state.laid), heading=answer.title(state)))
    if answer.answer == UNKNOWN:
        raise typer.Exit(EXIT_NOT_ALL_GOOD)


@command(app)
def threats(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    json_output: bool = json_option('One JSON object: {"black": [{"move", "height"}], "blue": [...], "to_move"}.'),
) -> None:
    """Every single stone that would win at once, for each player (as if it were that player's
    turn), found by the plain rules."""
    _, state = _load(path)
    if json_output:
        print_json(threats_record(state))
        return
    found = threats_query(state)
    if state.is_over:
        typer.echo(f"no threats: {_status(state)}")
        return
    for player in PLAYERS:
        listed = found[player]
        turn = " (to move)" if player == state.to_move else ""
        if listed:
            typer.echo(f"{player}{turn} wins at once with {len(listed)} move(s): " + ", ".join(m.text(state.stones) for m, _ in listed))
        else:
            typer.echo(f"{player}{turn}: no winning move")


@command(app)
def block(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Who blocks (default: the player to move)."),
    time_limit: Optional[float] = time_limit_option(),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture: an opponent's winning stone now, and the board after the first blocking move."),
    json_output: bool = json_option('One JSON object: {"player", "opponent_threats", "blocks": [{"move", "height", "wins", "cells"}], "title"}; {"answer": "unknown"} when the time limit comes first.'),
) -> None:
    """The moves for PLAYER after which the opponent has no winning stone, or 'none'.

    A move that wins at once counts (the game ends). When the opponent has no threat now, a move
    can still create one (a stone the opponent can then cross over), so every move is checked.
    On a large board that takes a while: past --time-limit the answer is unknown (exit 1).
    """
    deadline = Deadline(time_limit)
    answer_picture(svg_out)
    _, state = _load(path)
    who = _player(player, state)
    other = PLAYERS[1] if who == PLAYERS[0] else PLAYERS[0]
    try:
        with spinner(f"checking {who}'s moves..."):
            legal = list(placements(state, who))
            found = blocks(state, who, legal, deadline)
            now = threats_query(state)[other]
    except TimeUp:
        if json_output:
            print_json({"player": who, "answer": "unknown"})
        else:
            typer.echo("unknown: the time limit came before every move was checked")
        raise typer.Exit(EXIT_NOT_ALL_GOOD)
    title = _block_title(state, who, other, now, found, legal)
    if json_output:
        print_json(block_record(state, who, now, found, legal))
    else:
        typer.echo(f"{other} has {len(now)} winning move(s) now; {who} has {len(legal)} legal placement(s)")
        if not found:
            typer.echo(f"none: every move leaves {other} a winning stone" if legal else f"none: {who} cannot lay any stone")
        elif len(found) == len(legal) and not now:
            hint = f" ('placesat quarry best {path}' recommends a move)" if who == state.to_move else ""
            typer.echo(f"every move leaves {other} no winning stone: there is nothing to block{hint}")
        else:
            typer.echo(f"{len(found)} move(s) leave {other} no winning stone:")
            typer.echo(", ".join(b.placement.text(state.stones) + (" (wins)" if b.wins else "") for b in found))
            first = found[0]
            after, _ = _laid_after(state, who, first.placement, first.base)
            typer.echo(title)
            out = console()
            out.print(render_text(after, line(after, who), colour=stdout_is_terminal(), new_from=len(state.laid)), end="", markup=True)
            out.print(legend_numbered(state), markup=False)
    if svg_out is not None and (now or (found and len(found) < len(legal))):
        panels = []
        if now:
            threat, base = now[0]
            shown, _ = _laid_after(state, other, threat, base)
            panels.append((shown, line(shown, other), len(state.laid), f"{other.capitalize()} wins now with 1. {threat.text(state.stones)}"))
        if found:
            first = found[0]
            after, _ = _laid_after(state, who, first.placement, first.base)
            panels.append((after, line(after, who), len(state.laid), f"{who.capitalize()} blocks with 1. {first.placement.text(state.stones)}"))
        write_output(svg_out, render_panels(panels, title, f"Quarry {path}"))


@command(app)
def race(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    backend: str = backend_option(DEFAULT_REACH_BACKEND, f"Solver backend: sat or cpsat (default {DEFAULT_REACH_BACKEND})."),
    time_limit: Optional[float] = time_limit_option(),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture: each player's fewest-stones line on its own board, side by side."),
    json_output: bool = json_option('One JSON object: {"to_move", "fewest_stones": {player: reach}, "fewest_points": {...}, "lead", "title"}.'),
) -> None:
    """Each player's cheapest win side by side, if the other did nothing: fewest stones and
    fewest points, and who is ahead by how much; each fewest-stones line on the board."""
    answer_picture(svg_out)
    _, state = _load(path)
    with spinner("racing..."):
        result = race_query(state, backend, time_limit)
    lead = result.lead()
    if json_output:
        print_json(race_record(state, result))
    else:
        _print_race(result, state, lead)
    if svg_out is not None:
        panels = [(a.after(state), a.line, len(state.laid), a.title(state)) for a in result.fewest_stones.values()]
        write_output(svg_out, render_panels(panels, _race_title(result, lead), f"Quarry {path}"))
    if any(a.answer == UNKNOWN for a in list(result.fewest_stones.values()) + list(result.fewest_points.values())):
        raise typer.Exit(EXIT_NOT_ALL_GOOD)


def _measure(answer: ReachAnswer, value: int) -> str:
    if answer.answer == POSSIBLE:
        return str(value)
    return answer.answer


def _print_race(result: Race, state: State, lead: dict) -> None:
    typer.echo(f"{'':8}{'fewest stones':>15}{'fewest points':>15}")
    for player in PLAYERS:
        stones_answer, points_answer = result.fewest_stones[player], result.fewest_points[player]
        turn = " *" if player == state.to_move and not state.is_over else ""
        typer.echo(f"{player + turn:8}{_measure(stones_answer, stones_answer.stones):>15}{_measure(points_answer, points_answer.points):>15}")
    typer.echo("(* to move)")
    for measure, word in (("stones", "stone(s)"), ("points", "point(s)")):
        verdict, ahead, by = lead[measure]["verdict"], lead[measure]["ahead"], lead[measure]["by"]
        if verdict == "unknown":
            typer.echo(f"by {measure}: unknown (the time limit came before both answers)")
        elif verdict == "neither":
            typer.echo(f"by {measure}: neither can complete a line")
        elif verdict == "level":
            tempo = f"; {state.to_move}, to move, is a tempo ahead" if measure == "stones" and not state.is_over else ""
            typer.echo(f"by {measure}: level{tempo}")
        elif by is None:
            typer.echo(f"by {measure}: {ahead} is ahead (the other cannot complete a line)")
        else:
            typer.echo(f"by {measure}: {ahead} is ahead by {by} {word}")
    for player in PLAYERS:
        answer = result.fewest_stones[player]
        for text in _reach_lines(answer, state):
            typer.echo(text)
        if answer.answer == POSSIBLE and answer.moves:
            _show_line(answer, state)


@command(app)
def stones(
    path: Optional[str] = typer.Argument(None, metavar="[POS]", help="A position: list its stones and how many each player has left."),
    stone_file: Optional[str] = typer.Option(None, "--stones", metavar="FILE", help='A stone file (JSON {"stones": [...]}, see seeds/quarry.md) instead of the default stones.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of every stone, each face in cubes."),
    json_output: bool = json_option('One JSON object: {"stones": [{"name", "count", "points", "cubes", "faces", "left"}]}.'),
) -> None:
    """The stone set in use: each stone's name, cubes, faces (with their layers, bottom up, and
    base: e end, - rests on anything, o open), points and count per player; with POS, the
    position's stones and how many each player has left. --svg draws each stone."""
    if path is not None and stone_file is not None:
        fail("give POS or --stones, not both: a position keeps the stones it was made with")
    picture_only = side_outputs(json_output, svg=svg_out)
    left: Optional[dict[str, dict[str, int]]] = None
    if path is not None:
        _, state = _load(path)
        kinds: StoneSet = state.stones
        left = {p: state.supply(p) for p in PLAYERS}
        source = path
    elif stone_file is not None:
        kinds, source = load_stones(stone_file), stone_file
    else:
        kinds, source = default_stones(), "the default stones"
    record = stones_record(kinds, source, left)
    listed = record["stones"]
    if json_output:
        print_json(record)
    elif not picture_only:
        counts = "left (black, blue)" if left is not None else "each"
        typer.echo(f"Quarry stones: {source}")
        typer.echo(f"{'stone':8}{'cubes':>6}{'points':>7}{counts:>20}  faces: layers bottom up | base")
        for row in listed:
            have = f"{row['left']['black']}, {row['left']['blue']} of {row['count']}" if left is not None else str(row["count"])
            faces = "; ".join(f"{f['name']}: {' '.join(f['layers'])} | {f['base']}" for f in row["faces"])
            typer.echo(f"{row['name']:8}{row['cubes']:>6}{row['points']:>7}{have:>20}  {faces}")
        typer.echo("(layers and base are top views, rows split by /: # a cube; e an end, - rests on anything, o open)")
    if svg_out is not None:
        write_output(svg_out, render_stones(kinds, left, f"Quarry stones: {source}"))


@command(app)
def forced(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    moves: int = typer.Option(..., "--moves", "-k", help=f"Within this many of PLAYER's own moves (1 to {FORCED_MOST})."),
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Who tries to force a line (default: the player to move)."),
    time_limit: Optional[float] = time_limit_option(),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture of the board after the line of play, its stones numbered, with the question and the answer as its title."),
    json_output: bool = json_option('One JSON object: {"answer": "win"|"no forced win"|"unknown", "move", "within", "line", "positions", "replayed", "no_win_within", "strategy": the replayed tree (the player\'s move, then every reply), "title"}.'),
    search: Optional[str] = search_option(),
    tt_mb: float = table_mb_option(),
    proof_out: Optional[str] = proof_option(),
) -> None:
    """Can PLAYER complete a line within K of its own moves, whatever the other plays?

    Searched by depth-bounded AND/OR search with a transposition table, by the plain rules: a
    win at once ends a branch, a player facing a win at once tries only the moves that take it
    away, the other's move before PLAYER's last is judged by where a winning stone could lie,
    and branches where PLAYER's stones left cannot cover its cheapest path between the zones in
    time are cut. A win is replayed on the rules against every reply of the other before it is
    printed, with its line of play (the other's strongest reply between PLAYER's moves) on the
    board. --proof writes the whole strategy for check-proof. Exit code 1 when the time limit came
    first; what was settled before it is printed.
    """
    deadline = Deadline(time_limit)  # the limit holds from here: reading the position counts
    answer_picture(svg_out)
    proof_output(proof_out)
    check_forced_moves(moves)
    position, state = _load(path)
    who = _player(player, state)
    with spinner(f"forced: {who} within {moves} own move(s)..."):
        answer = forced_win(position, state, who, moves, deadline, strategy=json_output or proof_out is not None, searcher=search, table_mb=tt_mb)
    write_proof(proof_out, forced_proof(position, state, answer), answer.answer, answer.within)
    title = _forced_title(answer, state)
    after, laid = _line_after(state, answer.line)
    if json_output:
        print_json(forced_record(answer, state))
    else:
        typer.echo(title)
        if answer.answer == FORCED_WIN_ANSWER and answer.line:
            typer.echo("line of play (the other's strongest reply between, by the search's order; every reply was replayed):")
            for number, (mover, move) in enumerate(laid, 1):
                typer.echo(f"  {number}. {mover} {move_text(move, state.stones)}")
            out = console()
            out.print(render_text(after, line(after, who), colour=stdout_is_terminal(), new_from=len(state.laid)), end="", markup=True)
            out.print(legend_numbered(state), markup=False)
        typer.echo(f"{answer.positions} positions searched" + (f", {answer.replayed} replayed on the rules" if answer.replayed else ""))
    if svg_out is not None:
        write_output(svg_out, render_svg(after, line(after, who), f"Quarry {path}", new_from=len(state.laid), heading=title))
    if answer.answer == FORCED_UNKNOWN:
        raise typer.Exit(EXIT_NOT_ALL_GOOD)


@command(app, "check-proof")
def check_proof_command(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    proof_path: str = typer.Argument(..., metavar="FILE", help="A proof file written by 'forced --proof' ('-' reads standard input)."),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"file", "valid", "claim", "reason", "where", "line", "positions", "nodes", "nodes_used", "own_moves_used"}.'),
) -> None:
    """Check a proof file of a forced win against the rules: replay every reply.

    At each of the player's turns the file's move must be legal; at each of the other's turns
    the file must answer every legal reply; every branch must end with the player's line
    completed within the own moves the proof claims. Exit 0 valid, 1 invalid (the reason, the
    JSON path of the node and the line of play to it) or the time limit came first, 2 a file of
    the wrong shape.
    """
    from placesat.quarry.proof import check_forced_proof

    deadline = Deadline(time_limit)
    if proof_path == "-" and path == "-":
        fail("POS and FILE cannot both be '-' (standard input holds one document)")
    position, state = _load(path)
    with spinner("check-proof"):
        verdict = check_proof_file(proof_path, lambda data: check_forced_proof(position, state, data, deadline))
    report_proof(verdict, proof_path, json_output)


@command(app)
def best(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    time_limit: Optional[float] = time_limit_option(f"Answer within this many seconds, with the best move found so far (default {BEST_TIME:g})."),
    depth: Optional[int] = typer.Option(None, "--depth", min=1, max=FORCED_MOST, help="Search forced wins within at most this many own moves (1: wins and defences at once and the evaluation only); the same position then gets the same answer on any machine, unless the time limit comes first."),
    json_output: bool = json_option('One JSON object: {"move", "kind", "reason", "line", "evaluation", "evaluation_name", "depth", "player"}; with --top: ' + TOP_JSON + "."),
    top: Optional[int] = top_option(),
    engine_spec: str = engine_option(),
) -> None:
    """The move the engine recommends for the player to move, and why.

    The look-ahead engine (default) searches 2 plies over the evaluation below, with this
    engine at its root; --engine best is this engine alone. In order: a win at once; the only move(s) that stop the other's win at once; a forced win
    (deepening while the time lasts, replayed on the rules); the move that stops the other's
    forced win within 2 of its moves; else the evaluation's choice, named and shown (stones
    still needed at least, by the cells still to cover between the zones against the stones
    left: the other's minus yours). Ctrl-C answers with the best found so far.
    """
    engine = chosen_engine(engine_spec)
    deadline = Deadline(BEST_TIME if time_limit is None else time_limit)
    game = QuarryGameSoFar.of(_load(path)[0])
    state = game.state
    if state.is_over:
        fail(f"{path}: the game is over: {_status(state)}; there is no move to recommend")
    if top is not None:
        raise typer.Exit(show_top(QuarryPlayable(), game, top, deadline, depth, json_output))
    with spinner(f"best move for {state.to_move}..."):
        advice = engine_best(engine, QuarryPlayable(), game, deadline, depth)
    said = move_text(advice.move, state.stones)
    if json_output:
        print_json(advice_record(state, advice))
    else:
        typer.echo(f"{state.to_move}: {said} ({advice.kind}): {advice.reason}")
        after = rules_play(state, advice.move)
        out = console()
        out.print(render_text(after, line(after, state.to_move), colour=stdout_is_terminal(), new_from=len(state.laid)), end="", markup=True)
        out.print(legend_numbered(state), markup=False)
    stop = pending_stop()
    if stop is not None:  # Ctrl-C: the best found so far was printed above
        typer.echo(f"placesat: {stop.reason}: the move shown is the best found before it", err=True)
        raise typer.Exit(stop.exit_code)


def _game_so_far(path: str) -> QuarryGameSoFar:
    """The game in ``path`` with its board, for play-vs and selfplay."""
    return QuarryGameSoFar.of(_load(path)[0])


# play-vs and selfplay over the Playable; `best` above is Quarry's own
add_play_commands(app, QuarryPlayable(), _game_so_far, POSITION_HELP, "like 'block e1' or 'beam c8 s', as 'quarry moves' lists them, or 'pass'")
