"""``placesat lixso game``: the strategic game for 2 or 4 players (and 3), on a Lixso grid.

This module only parses, calls and prints. It is imported by ``cli/lixso.py`` for every
``placesat lixso`` command, so the game's library is imported inside the commands.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from placesat.lixso.game import GAME_BACKEND

from .common import (
    search_option,
    table_mb_option,
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    backend_option,
    check_proof_file,
    proof_option,
    proof_output,
    report_proof,
    write_proof,
    command,
    console,
    fail,
    json_option,
    make_group,
    output_path,
    print_json,
    seconds_callback,
    side_outputs,
    spinner,
    time_limit_option,
    warn,
    write_output,
)
from .play import TOP_JSON, add_review_command, check_stdin, chosen_engine, engine_best, engine_option, PlaySetup, register_game, register_on_demand, show_top, SkippedLine, top_option, typed_line

app = make_group(
    """The Lixso strategic game: players take turns laying L-tiles of their colours on a
    Lixso grid (clues respected, same-coloured tiles never touching); a player who cannot
    lay passes; when nobody can, the side with the most tiles wins. 2 players (two colours
    each), 4 players (one colour each, in two teams) or 3 (one colour each, the fourth
    shared). A position is a grid file whose header names the players and lists the tiles
    laid ('# players: IS XO', '# move: I r1c1 r1c2 r2c1'), or JSON; a plain puzzle file or
    puzzle ID is the start of a game. See seeds/lixso.md."""
)

POSITION_HELP = "A position (grid file with '# players:' and '# move:' lines, or JSON), a puzzle file, a pack (with --name or --index) or a puzzle ID; '-' reads standard input."
PLAYERS_HELP = "For a grid whose file does not say: 2, 3 or 4 players, or their colours in turn order (IS XO; I X S; I X O S). Default 2 (player 1: I and S)."
NO_CLUE_TOUCH_HELP = "Drop the clue-touch rule (a tile may then touch a clue of its colour that it does not cover)."
BACKEND_HELP = (f"Solver backend: sat or cpsat (default {GAME_BACKEND}: measured the faster for every game command,"
                " e.g. bounds on 9x9 positions 0.002-0.06 s CPU against 0.009-0.05 s).")
MOVE_HELP = "A tile: its colour and its three cells, e.g. 'I r3c4 r3c5 r4c4' (rows and columns from 1)."


def _players_option():
    return typer.Option(None, "--players", "-p", metavar="PLAYERS", help=PLAYERS_HELP)


def _clue_touch_option():
    return typer.Option(False, "--no-clue-touch-rule", help=NO_CLUE_TOUCH_HELP)


def _name_option():
    return typer.Option(None, "--name", help="When POS is a pack: the grid with this '# name:' (its game lines are those above it).")


def _index_option():
    return typer.Option(None, "--index", min=1, help="When POS is a pack: the grid at this position (from 1).")


def _load(path: str, players: Optional[str], no_clue_touch: bool, name: Optional[str] = None, index: Optional[int] = None):
    """The position replayed (every move checked), with warnings for what it ignores."""
    from placesat.lixso.game.model import load_position, with_seating, without_clue_touch
    from placesat.lixso.game.rules import replay_position

    position = with_seating(load_position(path, name, index), players)
    if no_clue_touch:
        position = without_clue_touch(position)
    note = position.level_warning()
    if note:
        warn(note)
    for key in position.ignored:
        warn(f"ignored an unknown header line: {key}")
    return replay_position(position)


def _width() -> int:
    """How wide a line may be: the terminal's width; no limit when the output is piped."""
    import shutil

    return shutil.get_terminal_size((100, 24)).columns if sys.stdout.isatty() else sys.maxsize


def _print_board(game, last=None, numbers=None) -> None:
    from placesat.lixso.game.render import coloured, plain

    if sys.stdout.isatty():
        console().print(coloured(game.rules, game.state, last, numbers))
    else:
        print(plain(game.rules, game.state, numbers))


def _numbered(items: list[str]) -> list[str]:
    return [f"{number}. {item}" for number, item in enumerate(items, start=1)]


def _print_game(game) -> None:
    from placesat.lixso.game.render import setup_line, status_lines, wrapped

    for line in wrapped(f"{game.position.grid.label()}: {setup_line(game)}".split(" "), _width(), separator=" "):
        print(line)
    _print_board(game, game.position.moves[-1] if game.position.moves else None)
    if game.position.moves:
        for line in wrapped(_numbered([str(m) for m in game.position.moves]), _width(), "moves: "):
            print(line)
    for line in status_lines(game):
        print(line)


def _legal_lines(game) -> list[str]:
    """The legal tiles of the player to move, colour by colour, wrapped between tiles."""
    from placesat.lixso.game.render import wrapped

    rules, state = game.rules, game.state
    legal = [rules.move_of(k, p) for k, p in rules.moves(state)]
    lines = [f"{rules.seating.seat_name(state.to_move)} to move: {len(legal)} legal tile(s)"]
    for colour in rules.seating.seats[state.to_move]:
        mine = [" ".join(str(m).split()[1:]) for m in legal if m.colour == colour]
        if mine:
            items = [cells + "," for cells in mine[:-1]] + mine[-1:]
            lines.extend(wrapped(items, _width(), f"{colour} ({len(mine)}): ", " "))
    return lines


@command(app)
def new(
    path: str = typer.Argument(..., metavar="PUZZLE", help="A puzzle file, a pack (with --name or --index) or a puzzle ID; '-' reads standard input."),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    out: str = typer.Option("-", "--out", "-o", help="Where to write the position (JSON if the name ends in .json, else the text format; '-', the default: standard output)."),
) -> None:
    """A new game on a puzzle's grid: no tile laid, player 1 to move.

    The position is the grid with the game's header lines (the players in turn order and
    their colours, '# players: IS XO'; the colour supply and the clue-touch rule when they
    are not the grid's defaults) and no '# move:' line yet; 'play POS MOVE --out POS' then
    adds the moves one by one. The text format and JSON are described in seeds/lixso.md.
    A position that already holds moves is refused: a new game starts from a puzzle.
    """
    import json

    from placesat.lixso.game.model import format_text, position_to_json

    output_path(out)
    game = _load(path, players, no_clue_touch_rule, name, index)
    if game.position.moves:
        fail(f"{path}: this position already holds {len(game.position.moves)} move(s); a new game starts from a puzzle")
    position = game.position
    text = json.dumps(position_to_json(position), indent=1) + "\n" if out.endswith(".json") else format_text(position)
    write_output(out, text)


@command(app)
def show(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    json_output: bool = json_option("One JSON object: the position, each side's tiles, who is to move, the winner."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture: tiles numbered by the move that laid them."),
) -> None:
    """Show POS: the board, the moves, the score, and who is to move (or who won).

    Every move of the record is checked by the rules; the first illegal one is named, with
    the rule it breaks (exit 2).
    """
    from placesat.lixso.game.render import svg
    from placesat.lixso.game.rules import game_json

    picture_only = side_outputs(json_output, svg=svg_out)
    game = _load(path, players, no_clue_touch_rule, name, index)
    if json_output:
        print_json(game_json(game))
    elif not picture_only:
        _print_game(game)
    if svg_out is not None:
        from placesat.lixso.game.render import colours_line, record_labels, status_lines

        footer = [colours_line(game)] + status_lines(game)
        write_output(svg_out, svg(game.rules, game.state, game.position.grid.label(), record_labels(game.position.moves), footer=footer))


@command(app)
def moves(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    json_output: bool = json_option('One JSON object: {"to_move", "moves": ["I r1c1 r1c2 r2c1", ...]}.'),
) -> None:
    """Every tile the player to move may lay, colour by colour."""
    game = _load(path, players, no_clue_touch_rule, name, index)
    if json_output:
        from placesat.lixso.game.answers import moves_record

        print_json(moves_record(game))
        return
    if game.state.over:
        print("the game is over: nobody can lay a tile")
        return
    for line in _legal_lines(game):
        print(line)


@command(app)
def play(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    move: str = typer.Argument(..., metavar="MOVE", help=MOVE_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the new position here (JSON if the name ends in .json, else the text format; '-': standard output)."),
    json_output: bool = json_option("One JSON object: the new position, each side's tiles, who is to move, the winner."),
) -> None:
    """Lay MOVE in POS for the player to move, and show the position after it.

    An illegal move is refused with the rule it breaks (exit 2): turn, shape, empty, clue,
    touch, clue-touch, supply, or the game being over.
    """
    from placesat.core.errors import InputError
    from placesat.lixso.game.model import format_text, parse_move, position_to_json
    from placesat.lixso.game.rules import IllegalMove, replay_position

    position_only = side_outputs(json_output, out=out)
    game = _load(path, players, no_clue_touch_rule, name, index)
    try:
        chosen = parse_move(move)
    except InputError as error:
        fail(f"MOVE {move!r}: {error.message}")
    try:
        game.rules.lay(game.state, chosen)
    except IllegalMove as error:
        fail(f"MOVE {chosen} is illegal: {error.violation}")
    after = replay_position(game.position.with_move(chosen))
    if out is not None:
        import json

        text = json.dumps(position_to_json(after.position), indent=1) + "\n" if out.endswith(".json") else format_text(after.position)
        write_output(out, text)
    if json_output:
        from placesat.lixso.game.rules import game_json

        print_json(game_json(after))
    elif not position_only:
        _print_game(after)


@command(app)
def bounds(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    backend: str = backend_option(GAME_BACKEND, BACKEND_HELP),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option("One JSON object: per side laid / most / sure / final range and a tile set reaching the most; who can still win."),
) -> None:
    """How many tiles each side can still lay, at most and for sure, and who can still win.

    Most: the most tiles the side could still lay if nobody else laid another (a greedy set
    when it reaches what counting allows, else solver maximisation; the tiles that reach it
    are replayed by the rules). Sure: the fewest it
    lays whatever anybody does, counted from the tiles nobody else can ever block (0 when
    every tile it could lay can still be blocked). A side whose count plus its most cannot
    pass what another side is sure of can no longer win. Exit 1 when the time limit came
    first (the figures not found are 'unknown').
    """
    from placesat.core.limits import Deadline
    from placesat.lixso.game.answers import bounds_record
    from placesat.lixso.game.bounds import bounds as side_bounds

    deadline = Deadline(time_limit)
    game = _load(path, players, no_clue_touch_rule, name, index)
    with spinner("bounds"):
        result = side_bounds(game.rules, game.state, backend, deadline)
    code = EXIT_OK if result.known() else EXIT_NOT_ALL_GOOD
    if json_output:
        print_json(bounds_record(game, result))
        raise typer.Exit(code)

    def shown(value) -> str:
        return "unknown" if value is None else str(value)

    for figures in result.sides:
        low = "unknown" if figures.sure is None else figures.laid + figures.sure
        high = "unknown" if figures.most is None else figures.laid + figures.most
        print(f"{figures.name} ({', '.join(figures.colours)}): {figures.laid} laid; can add at most {shown(figures.most)},"
              f" surely {shown(figures.sure)} ({figures.unblockable} tile(s) nobody else can block); ends with {low}-{high}")
    for figures in result.sides:
        win, draw, sure = result.can_win(figures.side), result.can_draw(figures.side), result.sure_win(figures.side)
        if win is None:
            verdict = "unknown"
        elif sure:
            verdict = "wins whatever happens"
        elif win:
            verdict = "can still win"
        elif draw:
            verdict = "can no longer win, at best a draw"
        else:
            verdict = "can no longer win or draw"
        mover = " (to move)" if result.to_move == figures.side else ""
        print(f"{figures.name}{mover}: {verdict}")
    for figures in result.sides:
        if figures.most_tiles:
            print(f"{figures.name} alone could lay: " + ", ".join(str(m) for m in figures.most_tiles))
    raise typer.Exit(code)


def _solution_words(game, solution) -> list[str]:
    """A solution in words, for the side to move."""
    from placesat.lixso.game.render import status_lines
    from placesat.lixso.game.solve import DRAW, LOSS, UNKNOWN, WIN

    seating = game.rules.seating
    if solution.to_move is None:
        return status_lines(game)[-1:]
    side = solution.to_move
    me, other = seating.side_name(side), seating.side_name(1 - side)
    sign = 1 if side == 0 else -1
    low, high = sorted((sign * solution.lower, sign * solution.upper))
    outcome = solution.outcome
    lines = []
    if solution.stopped is not None:
        lines.append(f"{solution.stopped.reason}: what was found so far, marked as such")
    if outcome == WIN and low == high:
        lines.append(f"{me} (to move) wins by {int(low)} with perfect play")
    elif outcome == LOSS and low == high:
        lines.append(f"{me} (to move) loses by {int(-high)} with perfect play")
    elif outcome == DRAW:
        lines.append(f"{me} (to move): a draw with perfect play")
    elif outcome == WIN:
        lines.append(f"{me} (to move) wins with perfect play, by {int(low)} to {int(high)} tiles (the margin is not proven yet)")
    elif outcome == LOSS:
        lines.append(f"{me} (to move) loses with perfect play, by {int(-high)} to {int(-low)} tiles (the margin is not proven yet)")
    else:
        assert outcome == UNKNOWN
        cause = solution.stopped.reason if solution.stopped is not None else "the time limit came first"
        proven = f"its final margin over {other} lies from {int(low):+d} to {int(high):+d}" if high - low < 1000 else "nothing proven yet"
        lines.append(f"unknown: {cause} for {me} (to move); {proven}")
    if solution.move is not None:
        if solution.value is not None and solution.move_checked:
            how = "achieves it"
        elif solution.value is not None:
            how = "the search's choice; the time limit came before it was checked against the value"
        elif solution.depth:
            how = f"best found so far, by a {solution.depth}-move look-ahead; not proven"
        else:
            how = "a legal move; no search finished"
        lines.append(f"best move: {solution.move} ({how})")
    elif solution.stopped is not None and not game.state.over:
        lines.append("no move found before the stop")
    return lines


def _who(seating, seat: int) -> str:
    """Whose a move is: the player (2 players) or the colour's player and team (4)."""
    return seating.seat_name(seat) if seating.players == 4 else seating.side_name(seating.sides[seat])


def _line_of_play(game, solution):
    """The position after the solution's line of play, and the line in words: each move with
    whose it is, numbered from 1, then how the game stands at its end."""
    from placesat.lixso.game.render import status_lines
    from placesat.lixso.game.rules import replay_position

    if not solution.line:
        return game, []
    after = replay_position(game.position.with_moves(solution.line))
    if solution.line_proven and solution.line_complete:
        head = "the line of play (both sides play their best: every move keeps the result):"
    elif solution.line_proven:
        head = "the line of play, as far as the time allowed (every move keeps the result):"
    else:
        head = "the line the search prefers so far (not proven):"
    seating = game.rules.seating
    first = len(game.position.moves)
    words = [head] + [f"{number:>4}. {_who(seating, turn.seat)}: {turn.move}"
                      for number, turn in enumerate(after.turns[first:], start=1)]
    end = status_lines(after)[-1]
    words.append(f"      then {end}" if after.state.over else f"      ... ({end}: the line stops here)")
    return after, words


def _line_numbers(solution) -> dict:
    """Every cell of the line's tiles with the tile's number in the line."""
    return {cell: number for number, move in enumerate(solution.line, start=1) for cell in move.cells}


@command(app)
def solve(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    backend: str = backend_option(GAME_BACKEND, BACKEND_HELP.replace("Solver backend:", "Solver backend for the root bounds:")),
    time_limit: Optional[float] = time_limit_option("Seconds for the whole command; past it: the best move and line found so far and 'unknown' (exit 1)."),
    json_output: bool = json_option("One JSON object: outcome for the side to move, value (side A's final margin), bounds, best move, the line of play, positions searched."),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture: the position after the line of play, its tiles numbered in order, the answer as its title."),
) -> None:
    """The result of POS with perfect play (win, loss or draw, and by how many tiles), a best move and the line of play.

    Alpha-beta search with a transposition table, the bounds as cut-offs, and the grid's
    symmetries. For 2 sides (2 or 4 players). Small positions only: a 6x6 game from the
    start takes seconds to a minute, a 9x9 game from about its fifth or sixth tile on (see
    docs/performance.md). The line of play is best play on both sides to the end of the game, each move
    proven to keep the result, shown on the board with its tiles numbered in order. Past
    --time-limit: the best move and line found so far and what was proven (exit 1); Ctrl-C
    prints the same, marked as such, then stops (exit 130).
    """
    from placesat.core.limits import Deadline
    from placesat.lixso.game.answers import solution_record
    from placesat.lixso.game.render import svg
    from placesat.lixso.game.solve import solve as solve_position

    picture_only = side_outputs(json_output, svg=svg_out)
    deadline = Deadline(time_limit)
    game = _load(path, players, no_clue_touch_rule, name, index)
    with spinner("solving"):
        solution = solve_position(game.rules, game.state, deadline, backend)
    known = solution.value is not None and solution.stopped is None
    after, line_words = _line_of_play(game, solution)
    answer = _solution_words(game, solution)
    if json_output:
        print_json(solution_record(game, solution))
    elif not picture_only:
        for line in answer:
            print(line)
        for line in line_words:
            print(line)
        if solution.line:
            _print_board(after, numbers=_line_numbers(solution))
        print(f"searched {solution.nodes} position{'s' if solution.nodes != 1 else ''} in {solution.seconds:.2f} s")
    if svg_out is not None:
        labels = {move.cells[0]: str(number) for number, move in enumerate(solution.line, start=1)}
        title = "\n".join([game.position.grid.label()] + (answer[:2] if solution.stopped is not None else answer[:1]))
        from placesat.lixso.game.render import colours_line

        footer = [colours_line(game)] + [line.strip() for line in line_words]
        write_output(svg_out, svg(after.rules, after.state, title, labels, frozenset(labels), footer))
    if solution.stopped is not None:
        sys.stdout.flush()
        raise solution.stopped
    raise typer.Exit(EXIT_OK if known else EXIT_NOT_ALL_GOOD)


def _undo(game, mine: int, first_move: int):
    """The game taken back to before the last move the player of side ``mine`` laid in this
    session (from record move ``first_move`` on), the other side's answers with it: it is
    then that player's turn again. None when there is no such move."""
    from placesat.lixso.game.model import Position
    from placesat.lixso.game.rules import replay_position

    seating = game.rules.seating
    turns = game.turns
    last = next((number for number in range(len(turns) - 1, first_move - 1, -1) if seating.sides[turns[number].seat] == mine), None)
    if last is None:
        return None
    position = game.position
    kept = Position(position.grid, position.seating, position.per_colour, position.clue_touch, position.moves[:last],
                    position.path, position.move_lines[:last], position.ignored, position.players_given)
    return replay_position(kept)


DEFAULT_PLAY_THINK = 5.0
"""Seconds the computer thinks per move in play-vs when neither --think nor --depth is given."""


@command(app, "play-vs")
def play_vs(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    you: int = typer.Option(1, "--as", "--you", min=1, max=2, metavar="SEAT", help="The side you play: 1 (player 1 / team A) or 2; the computer plays the other (--you: the same)."),
    think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=seconds_callback, help="Seconds the computer thinks per move (default 5, unless --depth is given)."),
    depth: Optional[int] = typer.Option(None, "--depth", min=1, max=60, help="How deep the computer looks (as 'best --depth'): with no --think, the same moves on any machine."),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    backend: str = backend_option(GAME_BACKEND, BACKEND_HELP),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Write the game record here when the game ends or you stop (text format, or JSON for a .json name)."),
    json_output: bool = json_option("One JSON object per move and one at the end, instead of the board (prompts go to stderr)."),
) -> None:
    """Play against the computer in the terminal.

    Type your moves as 'I r3c4 r3c5 r4c4' (colour and three cells). Also: 'moves' lists your
    legal tiles, 'board' shows the board, 'hint' gives the engine's move for you with its
    reason (as 'best' does, within --think seconds), 'undo' takes back your last move and the computer's
    answer, 'save FILE' writes the game so far (the record: text, or JSON for a .json name;
    written whole or not at all), 'quit' stops. The computer answers with 'solve' under
    --think seconds, or with 'best --depth' when --depth is given. Moves can be piped in, one per line. End of input or 'quit' stops
    the game (exit 0, the record written with --out); Ctrl-C stops at once (exit 130).
    """
    import json

    from placesat.core.errors import InputError
    from placesat.core.limits import Deadline
    from placesat.lixso.game.model import format_text, parse_move, position_to_json
    from placesat.lixso.game.render import status_lines
    from placesat.lixso.game.rules import IllegalMove, game_json, replay_position
    from placesat.lixso.game.solve import PLAYING_SHARE, LixsoSearch, solve as solve_position

    if out == "-":
        fail("--out must name a file: the game itself is played on standard output")
    check_stdin()
    output_path(out)
    game = _load(path, players, no_clue_touch_rule, name, index)
    if game.rules.seating.side_count != 2:
        fail("play-vs needs two sides (2 or 4 players)")
    LixsoSearch(game.rules)  # refuses anything the computer could not play
    mine = you - 1
    seating = game.rules.seating
    first_move = len(game.position.moves)  # undo takes back moves of this session only

    def say(text: str) -> None:
        typer.echo(text, err=json_output)

    def record_text(target: str) -> str:
        return json.dumps(position_to_json(game.position), indent=1) + "\n" if target.endswith(".json") else format_text(game.position)

    def save() -> None:
        if out is not None:
            write_output(out, record_text(out))

    if think is None and depth is None:
        think = DEFAULT_PLAY_THINK

    if not json_output:
        _print_game(game)
    say(f"you play {seating.side_name(mine)} ({', '.join(seating.colours_of(mine))}); the computer plays"
        f" {seating.side_name(1 - mine)} ({', '.join(seating.colours_of(1 - mine))})")
    while not game.state.over:
        seat = game.state.to_move
        if seating.sides[seat] == mine:
            typer.echo(f"{seating.seat_name(seat)}, your move> ", nl=False, err=json_output)
            sys.stdout.flush()
            try:
                line = typed_line("a move is a colour and three cells, e.g. I r3c4 r3c5 r4c4")
            except SkippedLine as skipped:
                say("")
                say(str(skipped))
                continue
            if line is None:
                say("")
                say("end of input: the game stops here")
                save()
                raise typer.Exit(EXIT_OK)
            text = line.strip()
            if not sys.stdin.isatty():
                say(text)  # a piped move is shown after its prompt, as if typed
            if not text or text.startswith("#"):
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                say("you stopped the game")
                save()
                raise typer.Exit(EXIT_OK)
            if word in ("moves", "m"):
                for listed in _legal_lines(game):
                    say(listed)
                continue
            if word in ("board", "b", "show"):
                _print_game(game)
                continue
            if word in ("help", "h", "?"):
                say("type a tile as 'I r3c4 r3c5 r4c4'; or moves, board, hint, undo, save FILE, quit")
                continue
            if word == "save" or word.startswith("save "):
                target = text[4:].strip()
                if not target:
                    say("save needs a file name: save FILE")
                    continue
                try:
                    write_output(target, record_text(target))
                except Exception as error:  # a file that cannot be written ends nothing: the game goes on
                    say(f"not saved: {error.message if isinstance(error, InputError) else error}")
                    continue
                say(f"saved the game to {target}")
                if json_output:
                    print_json({"saved": target})
                continue
            if word == "undo":
                taken_back = _undo(game, mine, first_move)
                if taken_back is None:
                    say("nothing to undo: you have laid no tile since this session began")
                    continue
                game = taken_back
                say(f"taken back to your last move: {len(game.position.moves)} tile(s) laid")
                if json_output:
                    print_json({"by": "you", "undo": True, **game_json(game)})
                else:
                    _print_board(game)
                    for status in status_lines(game):
                        print(status)
                continue
            if word == "hint":
                from placesat.lixso.game.play import LixsoPlayable

                with spinner("looking for a hint"):
                    advice = LixsoPlayable(backend=backend).best(game, Deadline(think), depth)
                say(f"hint: {advice.move} ({advice.reason})")
                continue
            try:
                chosen = parse_move(text)
                game.rules.lay(game.state, chosen)
            except InputError as error:
                say(f"not a move: {error.message}")
                continue
            except IllegalMove as error:
                say(f"illegal: {error.violation}")
                continue
            who = "you"
        elif depth is not None:
            from placesat.lixso.game.play import LixsoPlayable

            with spinner("the computer is thinking"):
                advice = LixsoPlayable(backend=backend).best(game, Deadline(think), depth)
            chosen = advice.move
            who = "computer"
            say(f"the computer, {seating.seat_name(seat)}, lays {chosen}: {advice.reason}")
        else:
            with spinner("the computer is thinking"):
                solution = solve_position(game.rules, game.state, Deadline(think), backend, deepen_share=PLAYING_SHARE)
            if solution.stopped is not None:
                raise solution.stopped  # Ctrl-C stops the game at once
            chosen = solution.move
            assert chosen is not None
            who = "computer"
            outcome = solution.outcome_for(1 - mine)
            verdict = {"win": "it wins", "loss": "it loses", "draw": "a draw"}.get(outcome, "")
            detail = f"; with perfect play {verdict}" if verdict and solution.value is not None else ""
            say(f"the computer, {seating.seat_name(seat)}, lays {chosen}{detail}")
        game = replay_position(game.position.with_move(chosen))
        if json_output:
            print_json({"by": who, "move": str(chosen), **game_json(game)})
        else:
            _print_board(game, chosen)
            for status in status_lines(game):
                print(status)
    save()
    if json_output:
        print_json({"over": True, **game_json(game)})
    raise typer.Exit(EXIT_OK)


def _against(seating, side: int) -> str:
    """Who plays against ``side`` in a forced-win search, in words."""
    if seating.players == 2:
        return seating.side_name(1 - side)
    if seating.players == 4:
        return f"{seating.side_name(1 - side)} (its two players together)"
    others = [seating.side_name(o) for o in range(seating.side_count) if o != side]
    return f"{' and '.join(others)} together"


def _turns(k: int) -> str:
    return "its next turn" if k == 1 else f"its next {k} turns"


def _forced_words(game, answer) -> list[str]:
    """A forced-win answer in words: the question's answer, who played against whom, and how
    it relates to ``solve``."""
    from placesat.lixso.game.forced import NO_WIN, UNKNOWN, WIN

    seating = game.rules.seating
    me = answer.side_name
    if seating.players == 4:
        me_long = f"{me} (its two players choosing together)"
    else:
        me_long = me
    k = answer.turns
    lines = []
    if answer.answer == WIN:
        if answer.within == 0:
            how = "by the solver's bounds" if answer.how == "bounds" else "by counting"
            lines.append(f"win: {me}'s win is settled already ({how}): no way the game can still go leaves it behind")
        else:
            first = "passing its first turn (it can lay no tile)" if answer.passes else f"starting with {answer.move}"
            if answer.how == "solve":
                lines.append(f"win: {me_long} wins with perfect play, so it settles its win within {_turns(answer.within)}, {first}")
            else:
                lines.append(f"win: {me_long} settles its win within {_turns(answer.within)}, {first}")
            lines.append(f"against {_against(seating, answer.side)}: the strategy was replayed on the rules against every"
                         f" reply ({answer.strategy_positions} positions)")
    elif answer.answer == NO_WIN:
        if answer.how == "bounds":
            lines.append(f"no forced win: {me} cannot win at all, even if nobody else laid another tile (the solver's bounds)")
        else:
            lines.append(f"no forced win: {_against(seating, answer.side)} can keep {me}'s win from being settled"
                         f" for {_turns(k)} ({answer.positions} position{'s' if answer.positions != 1 else ''} searched)")
    else:
        assert answer.answer == UNKNOWN
        lines.append(f"unknown: the time limit came first ({answer.positions} positions searched)")
        if answer.no_win_within is not None:
            lines.append(f"settled before it: no forced win within {answer.no_win_within} turn(s)")
    if seating.players > 2 and not (answer.answer == WIN and answer.within):
        lines.append(f"({me_long} against {_against(seating, answer.side)})")
    if answer.how == "solve":
        lines.append(f"(the game cannot last beyond {k} of {me}'s turns, so this is solve's question: does {me} win"
                     " with perfect play? answered by solve's own search)")
    elif answer.answer != UNKNOWN and answer.how == "search":
        lines.append(f"(settled: {me} then ends ahead however the game goes on; 'solve' says who wins with perfect"
                     " play, however long the game takes)")
    return lines


def _forced_heading(answer) -> list[str]:
    """The answer of ``forced`` in short lines, for a picture's title."""
    from placesat.lixso.game.forced import NO_WIN, WIN

    if answer.answer == WIN and answer.within:
        first = "passing first" if answer.passes else f"first 1: {answer.move}"
        return [f"win: {answer.side_name} settles it", f"within {answer.within} turn(s),", first]
    if answer.answer == WIN:
        return [f"win: settled already for {answer.side_name}"]
    if answer.answer == NO_WIN:
        return [f"no forced win for {answer.side_name}", f"within {answer.turns} turn(s)"]
    return ["unknown: the time limit came first"]


@command(app)
def forced(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    moves_k: int = typer.Option(..., "--moves", "-k", metavar="K", help="Within this many of its own turns (a turn it must pass counts); 1 to 60."),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    backend: str = backend_option(GAME_BACKEND, BACKEND_HELP.replace("Solver backend:", "Solver backend for the root bounds:")),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"answer": "win"|"no forced win"|"unknown", "move", "within", "decided_by", "against", "line", "no_win_within", "positions"}.'),
    svg_out: Optional[str] = typer.Option(None, "--svg", help="Also write a picture: the position after the line of play, its tiles numbered in order, the answer as its title."),
    search: Optional[str] = search_option(),
    tt_mb: float = table_mb_option(),
    proof_out: Optional[str] = proof_option(),
) -> None:
    """Can the side to move settle its win within K of its turns, whatever the others do?

    Settled: every way the game can still go, its own later tiles included, ends with the
    side ahead (a lead that can no longer be caught; a game over with the side ahead is
    settled too). With 3 or 4 players all the others play together against the side to
    move (4 players: the team to move, its two players choosing together). A win prints
    its first move and a line of play (the others' strongest reply at each turn) on the
    board, numbered; the strategy is replayed on the rules against every reply before it
    is printed. When K turns hold the whole game the question is solve's (does the side to
    move win with perfect play?) and solve's search answers it. --proof writes the whole
    strategy for check-proof (a win settled already has none). Exit 1 when the time limit
    came first.
    """
    from placesat.core.limits import Deadline
    from placesat.lixso.game.forced import UNKNOWN, check_turns, forced as forced_win
    from placesat.lixso.game.proof import forced_proof

    picture_only = side_outputs(json_output, svg=svg_out)
    proof_output(proof_out)
    deadline = Deadline(time_limit)
    check_turns(moves_k)
    game = _load(path, players, no_clue_touch_rule, name, index)
    if game.state.over:
        fail(f"{path}: the game is over: nobody is to move")
    with spinner(f"forced: {moves_k} turn(s)"):
        answer = forced_win(game.rules, game.state, moves_k, deadline, backend, record=game, searcher=search, table_mb=tt_mb)
    write_proof(proof_out, forced_proof(game, answer), answer.answer, answer.within)
    line = [move for _, move in answer.line if move is not None]
    after, numbers = game, {}
    if line:
        from placesat.lixso.game.rules import replay_position

        after = replay_position(game.position.with_moves(line))
        numbers = {cell: number for number, move in enumerate(line, start=1) for cell in move.cells}
    words = _forced_words(game, answer)
    if json_output:
        from placesat.lixso.game.answers import forced_record

        print_json(forced_record(game, answer))
    elif not picture_only:
        for text in words:
            print(text)
        if answer.line:
            seating = game.rules.seating
            print("line of play (the others' strongest reply at each of their turns):")
            for number, (seat, move) in enumerate(answer.line, start=1):
                print(f"{number:>4}. {_who(seating, seat)}: {move if move is not None else 'passes (no tile fits)'}")
            _print_board(after, numbers=numbers)
    if svg_out is not None:
        from placesat.lixso.game.render import svg

        labels = {move.cells[0]: str(number) for number, move in enumerate(line, start=1)}
        write_output(svg_out, svg(after.rules, after.state, "\n".join([game.position.grid.label(), *_forced_heading(answer)]),
                                  labels, frozenset(labels)))
    raise typer.Exit(EXIT_NOT_ALL_GOOD if answer.answer == UNKNOWN else EXIT_OK)


@command(app, "check-proof")
def check_proof_command(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    proof_path: str = typer.Argument(..., metavar="FILE", help="A proof file written by 'forced --proof' ('-' reads standard input)."),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    time_limit: Optional[float] = time_limit_option(),
    json_output: bool = json_option('One JSON object: {"file", "valid", "claim", "reason", "where", "line", "positions", "nodes", "nodes_used", "own_moves_used"}.'),
) -> None:
    """Check a proof file of a forced win against the rules: replay every reply.

    At each of the side's turns the file's tile must be legal; at every other seat's turn the
    file must answer every legal tile (a pass where none fits); every branch must end with the
    side's win settled (every way the game can still go ends with it ahead: the exact settled
    test) within the turns the proof claims. POS must be the position the proof starts from,
    with the same players. Exit 0 valid, 1 invalid (the reason, the JSON path of the node and
    the line of play to it) or the time limit came first, 2 a file of the wrong shape.
    """
    from placesat.core.limits import Deadline
    from placesat.lixso.game.proof import check_forced_proof

    deadline = Deadline(time_limit)
    if proof_path == "-" and path == "-":
        fail("POS and FILE cannot both be '-' (standard input holds one document)")
    game = _load(path, players, no_clue_touch_rule, name, index)
    with spinner("check-proof"):
        verdict = check_proof_file(proof_path, lambda data: check_forced_proof(game, data, deadline))
    report_proof(verdict, proof_path, json_output)


DEFAULT_THINK = 5.0
"""Seconds ``best`` thinks when neither --time-limit nor --depth says."""


@command(app)
def best(
    path: str = typer.Argument(..., metavar="POS", help=POSITION_HELP),
    players: Optional[str] = _players_option(),
    no_clue_touch_rule: bool = _clue_touch_option(),
    name: Optional[str] = _name_option(),
    index: Optional[int] = _index_option(),
    backend: str = backend_option(GAME_BACKEND, BACKEND_HELP.replace("Solver backend:", "Solver backend for the bounds:")),
    time_limit: Optional[float] = time_limit_option("Seconds to think (default 5, none with --depth alone); the best move found by then is given."),
    depth: Optional[int] = typer.Option(None, "--depth", "-d", min=1, max=60, help="Look this many moves ahead (and look for forced wins within this many turns) instead of using the time: the same answer every time."),
    json_output: bool = json_option('One JSON object: {"to_move", "move", "kind", "reason", "line", "evaluation", "evaluation_name", "depth"}; with --top: ' + TOP_JSON + "."),
    top: Optional[int] = top_option(),
    engine_spec: str = engine_option(),
) -> None:
    """The move the engine recommends for the player to move, and why.

    The look-ahead engine (default) searches 2 plies over the evaluation (the sides' tiles
    and half their most by count), with this engine at its root; --engine best is this
    engine alone: solve's move, with its reason: a result proven with perfect play (wins by force, and
    by how many tiles, with the line of play; holds a draw; loses by the fewest), else a
    win settled by force within a few turns ('forced'), else the only tiles that stop the
    other side settling its win at its next turn, else the evaluation of solve's look-ahead
    (the margin plus half the difference of the sides' most tiles by count), named and
    shown. 'hint' in play-vs gives the same. Answers within --time-limit (default 5 s);
    Ctrl-C gives the best move found so far.
    """
    from placesat.core.limits import Deadline
    from placesat.core.signals import pending_stop
    from placesat.lixso.game.play import LixsoPlayable

    engine = chosen_engine(engine_spec)
    # with --depth alone the answer is the same every time: no default limit then
    deadline = Deadline(time_limit if time_limit is not None or depth is not None else DEFAULT_THINK)
    game = _load(path, players, no_clue_touch_rule, name, index)
    if game.state.over:
        fail(f"{path}: the game is over: nobody is to move")
    if top is not None:
        raise typer.Exit(show_top(LixsoPlayable(backend=backend), game, top, deadline, depth, json_output))
    with spinner("thinking"):
        if engine.kind == "best":
            advice, stopped = LixsoPlayable(backend=backend).advise(game, deadline, depth)
        else:
            advice, stopped = engine_best(engine, LixsoPlayable(backend=backend), game, deadline, depth), pending_stop()
    if json_output:
        from placesat.lixso.game.answers import advice_record

        print_json(advice_record(game, advice))
    else:
        print(f"{game.rules.seating.seat_name(game.state.to_move)} to move")
        print(f"best: {advice.move} ({advice.kind})")
        print(f"why: {advice.reason}")
        if len(advice.line) > 1:
            after = _replayed(game, advice.line)
            print("the line, numbered on the board:")
            _print_board(after, numbers={cell: n for n, move in enumerate(advice.line, start=1) for cell in move.cells})
    if stopped is not None:
        sys.stdout.flush()
        raise stopped
    raise typer.Exit(EXIT_OK)


def _replayed(game, line):
    """The game after ``line``."""
    from placesat.lixso.game.rules import replay_position

    return replay_position(game.position.with_moves(line))


def _game_only(path: str):
    """The game in ``path`` replayed to its last move, for placesat selfplay --position."""
    return _load(path, None, False)


def _register_for_selfplay() -> PlaySetup:
    """The Lixso game is known to ``placesat selfplay`` (it keeps its own play-vs, whose hint is best)."""
    from placesat.lixso.game.play import LixsoPlayable

    return register_game(LixsoPlayable(), _game_only, POSITION_HELP, "like 'I r3c4 r3c5 r4c4'")


# on demand: this module is imported by every lixso command, and the game's engine takes a while
register_on_demand("lixso-game", _register_for_selfplay)


def _review_setup() -> PlaySetup:
    """The Lixso game's Playable for ``review``, registered on first use."""
    from .play import REGISTERED

    return REGISTERED.get("lixso-game") or _register_for_selfplay()


add_review_command(app, _review_setup)
