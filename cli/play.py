"""``play-vs`` (a person against the engine, in the terminal), ``best`` and ``selfplay``, the
same for every game: each sees its game only through :class:`placesat.core.play.Playable`.

A game's CLI module wires them with one call, :func:`add_play_commands` (``play-vs``, and
``best`` with ``best=True`` when the game has no ``best`` of its own), and is listed in
:data:`PLAY_GAMES` for ``placesat selfplay GAME``. This module only reads, calls and prints.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Optional

import typer

from placesat.core.errors import InputError
from placesat.core.limits import Deadline
from placesat.core.play import Advice, Playable, board_after, game_record_text, move_notes, moves_lines, seat_name
from placesat.core.signals import Stop, raise_if_stopped

from .common import (
    EXIT_NOT_ALL_GOOD,
    EXIT_OK,
    command,
    fail,
    json_option,
    print_json,
    progress,
    seconds_callback,
    spinner,
    stdout_is_terminal,
    warn,
    write_output,
)

PLAY_GAMES = {"lsd": "placesat.cli.lsd", "laido": "placesat.cli.laido", "lixso-game": "placesat.cli.lixso_game", "logisticks": "placesat.cli.logisticks", "quarry": "placesat.cli.quarry"}
"""The games ``placesat selfplay`` knows, each with the CLI module that calls
:func:`add_play_commands` for it (importing the module registers the game)."""

DEFAULT_THINK = 3.0
"""Seconds the engine thinks per move in play-vs when neither --think nor --depth is given."""

MAX_TYPED_LINE = 4096
"""The longest line play-vs reads as one typed word or move, in bytes (a move is a few dozen
characters). A longer line is skipped as it is read, never held: one 200 MB line took 2 GB."""


@dataclass(frozen=True)
class PlaySetup:
    """A game as the commands here need it: its Playable, how a POS argument is loaded (an
    ``InputError`` for bad input), and the help texts of a position and of a move."""

    playable: Playable
    load_position: Callable[[str], Any]
    position_help: str
    move_help: str


REGISTERED: dict[str, PlaySetup] = {}
"""Every game :func:`add_play_commands` was called for, by ``Playable.name``."""

REGISTERS_ON_DEMAND: dict[str, Callable[[], PlaySetup]] = {}
"""Games registered only when ``placesat selfplay`` asks for them (:func:`register_on_demand`)."""


# --------------------------------------------------------------------------- reading typed lines


class SkippedLine(Exception):
    """A typed line that is no move and cannot be shown: too long, or not text."""


def typed_line(move_example: str, limit: int = MAX_TYPED_LINE) -> Optional[str]:
    """The next line of standard input (None at its end, or when it can no longer be read);
    :class:`SkippedLine` for a line over ``limit`` bytes (read to its end in small pieces, so
    it is never held) or not UTF-8. ``move_example`` ends the message of a skipped long line
    ("a move is ...")."""
    stream = sys.stdin.buffer
    try:
        data = stream.readline(limit + 1)
        if len(data) > limit and not data.endswith(b"\n"):
            while True:
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
            raise SkippedLine(f"skipped a line of over {limit} bytes: {move_example}")
    except OSError:
        return None  # the terminal or pipe went away: as at the end of input
    if not data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SkippedLine("skipped a line that is not UTF-8 text") from None


def check_stdin() -> None:
    """A closed standard input (``<&-``) is bad input for a command that reads moves from it."""
    if sys.stdin is None:
        fail("standard input is closed: play-vs reads your moves from it")


# --------------------------------------------------------------------------- advice


ENGINE_HELP = ("The engine: lookahead (the default: a look-ahead search over the game's evaluation, the game's own "
               "forced search at its root; lookahead:p3 looks 3 plies, lookahead:400n scores at most 400 positions a move) "
               "or best (the game's own engine alone, as before).")
DEFAULT_PLAY_ENGINE = "lookahead"


def engine_option() -> Any:
    """``--engine SPEC`` for ``best`` and ``play-vs``: which engine advises (:func:`chosen_engine`)."""
    return typer.Option(DEFAULT_PLAY_ENGINE, "--engine", metavar="SPEC", help=ENGINE_HELP)


def chosen_engine(spec: str) -> Any:
    """The engine ``--engine`` names (:func:`placesat.core.selfplay.command_engine`); one line
    and exit 2 when it cannot be read."""
    from placesat.core.selfplay import command_engine

    try:
        return command_engine(spec, "--engine")
    except InputError as error:
        fail(str(error))


def engine_best(engine: Any, game: Playable, position: Any, deadline: Deadline, depth: Optional[int]) -> Advice:
    """``engine``'s advice by ``deadline`` (:func:`placesat.core.selfplay.engine_advice`)."""
    from placesat.core.selfplay import engine_advice

    return engine_advice(engine, game, position, deadline, depth)


def advice_json(game: Playable, position: Any, advice: Advice) -> dict[str, Any]:
    """An Advice as JSON: the move as typed, the kind, the reason, the line (as typed), the
    evaluation and its name, the depth (placesat.core.answers.advice_record)."""
    from placesat.core.answers import advice_record

    return advice_record(game, position, advice)


def advice_line(game: Playable, position: Any, advice: Advice) -> str:
    """An Advice in one line: the move, its kind, the reason."""
    return f"{game.move_text(position, advice.move)} ({advice.kind}): {advice.reason}"


def _level(think: Optional[float], depth: Optional[int]) -> tuple[Optional[float], Optional[int]]:
    """The engine's level: --think seconds and/or --depth; a depth alone plays without a clock
    (the same moves on any machine), neither means :data:`DEFAULT_THINK` seconds."""
    if think is None and depth is None:
        return DEFAULT_THINK, None
    return think, depth


def _level_words(think: Optional[float], depth: Optional[int]) -> str:
    parts = ([f"to depth {depth}"] if depth is not None else []) + ([f"up to {think:g} s a move"] if think is not None else [])
    return " and ".join(parts)


# --------------------------------------------------------------------------- play-vs


def _wrapped_items(items: list[str], head: str) -> list[str]:
    """``items`` after ``head``, comma-separated, lines broken only between items."""
    import shutil

    width = shutil.get_terminal_size((100, 24)).columns if sys.stdout.isatty() else 100
    lines, line = [], head
    for number, item in enumerate(items):
        piece = item + ("," if number < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip():
            lines.append(line)
            line = " " * len(head) + piece
        else:
            line = f"{line} {piece}" if line.strip() else line + piece
    lines.append(line)
    return lines


HELP_WORDS = ("type a move, or one of: moves (the legal moves), hint (the engine's move for you, with its reason), "
              "undo (take back your last move and the engine's replies), board, save FILE (the position, in the game's format), "
              "help, quit")


def play_vs_session(setup: PlaySetup, path: str, seat: int, think: Optional[float], depth: Optional[int], json_output: bool,
                    out: Optional[str] = None, engine_spec: str = DEFAULT_PLAY_ENGINE) -> int:
    """The play-vs loop: the person plays ``seat``, the engine every other seat; returns the exit code.

    Each engine move is printed with its reason, the board after every turn (text mode), the
    result at the end. With ``json_output`` each event is one JSON line on stdout (``start``,
    ``move``, ``hint``, ``undo``, ``moves``, ``board``, ``saved``, ``refused``, ``end``,
    ``stopped``) and what a person reads goes to stderr. ``out``: where the game is written
    when it ends or is stopped (:func:`placesat.core.play.game_record_text`).
    """
    from placesat.core.session import PlaySession

    engine = chosen_engine(engine_spec)
    check_stdin()
    game = setup.playable
    position = setup.load_position(path)
    players = game.players(position)
    if not 1 <= seat <= players:
        fail(f"--as must be from 1 to {players} (the seats of this game), not {seat}")
    think, depth = _level(think, depth)
    session = PlaySession(game, position)
    colour = stdout_is_terminal() and not json_output
    start = position

    def write_game() -> None:
        if out is not None:
            write_output(out, game_record_text(game, start, [played.move for played in session.history], session.position))
            say(f"wrote the game to {out}")

    def say(text: str) -> None:
        typer.echo(text, err=json_output)

    def event(what: str, **fields: Any) -> None:
        if json_output:
            print_json({"event": what, **fields})

    def to_move() -> Optional[int]:
        return None if game.outcome(session.position) is not None else game.to_move(session.position)

    def name(seat_number: int) -> str:
        return seat_name(game, session.position, seat_number)

    def show_board() -> None:
        if json_output:
            return
        last = session.history[-1].move if session.history else None
        typer.echo(board_after(game, session.position, colour, last))
        ended = game.outcome(session.position)
        if ended is None:
            mover = game.to_move(session.position)
            typer.echo(f"{name(mover)} to move" + (" (you)" if mover == seat else ""))

    def notes_of(played) -> str:
        return move_notes(game, played.before, played.move, session.position)

    def engine_advice(position: Any) -> Advice:
        with spinner("the engine is thinking"):
            advice = engine_best(engine, game, position, Deadline(think), depth)
        raise_if_stopped()  # a Ctrl-C while it thought: best answered early, and the stop ends the game here
        return advice

    others = "the others" if players > 2 else name(3 - seat)
    event("start", you=seat, seat_name=name(seat), players=players, to_move=to_move(), think=think, depth=depth)
    say(f"you play {name(seat)}; the engine plays {others}, {_level_words(think, depth)}. Type help for the words.")
    show_board()
    while True:
        ended = game.outcome(session.position)
        if ended is not None:
            result = "a draw" if ended.winner is None else ("you win" if ended.winner == seat else "you lose")
            event("end", winner=ended.winner, detail=ended.detail, result=result.replace("you ", ""), moves=session.moves_text())
            say(f"the game is over: {ended.detail}: {result}")
            write_game()
            return EXIT_OK
        position = session.position
        mover = game.to_move(position)
        if mover != seat:
            advice = engine_advice(position)
            played = session.play(advice.move)
            notes = notes_of(played)
            event("move", by="engine", player=mover, to_move=to_move(), notes=notes, **advice_json(game, position, advice))
            say(f"the engine ({name(mover)}) plays {played.text}: {advice.reason}")
            if notes:
                say(f"the engine's move {notes}")
            show_board()
            continue
        legal = game.moves(position)
        only = f" (your only move: {game.move_text(position, legal[0])})" if len(legal) == 1 else ""
        typer.echo(f"{name(seat)}, your move{only}> ", nl=False, err=json_output)
        sys.stdout.flush()
        try:
            line = typed_line(f"type a move ({setup.move_help}) or a word (help)")
        except Stop:
            typer.echo("", err=json_output)  # the stop's own line starts on a line of its own, not after the prompt
            raise
        except SkippedLine as skipped:
            say("")
            say(str(skipped))
            event("refused", message=str(skipped))
            continue
        if line is None:
            say("")
            say("end of input: the game stops here")
            event("stopped", reason="end of input", moves=session.moves_text())
            write_game()
            return EXIT_OK
        text = line.strip()
        if not sys.stdin.isatty():
            say(text)  # a piped move is shown after its prompt, as if typed
        if not text or text.startswith("#"):
            continue
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q") and not rest:
            say("you stopped the game")
            event("stopped", reason="quit", moves=session.moves_text())
            write_game()
            return EXIT_OK
        if word in ("help", "h", "?") and not rest:
            say(HELP_WORDS + f". A move: {setup.move_help}")
            continue
        if word in ("moves", "m") and not rest:
            texts = [game.move_text(position, move) for move in legal]
            event("moves", player=seat, moves=texts)
            if not json_output:
                grouped = moves_lines(game, position)
                if grouped is not None:
                    say(f"{len(texts)} legal move(s):")
                    for group in grouped:
                        head, _, items = group.partition(": ")
                        for shown in _wrapped_items(items.split(", ") if items else [], f"  {head}:" if items else f"  {head}"):
                            say(shown)
                else:
                    for shown in _wrapped_items(texts, f"{len(texts)} legal move(s):"):
                        say(shown)
            continue
        if word in ("board", "b", "show") and not rest:
            event("board", board=game.board_text(position, False), to_move=mover)
            show_board()
            continue
        if word == "undo" and not rest:
            taken = session.undo(seat)
            if not taken:
                say("nothing to undo: you have made no move since this session began")
                event("refused", message="nothing to undo")
                continue
            event("undo", taken_back=[p.text for p in taken], to_move=to_move())
            say(f"taken back: {', '.join(p.text for p in taken)}")
            show_board()
            continue
        if word == "hint" and not rest:
            advice = engine_advice(position)
            event("hint", player=seat, **advice_json(game, position, advice))
            say(f"hint: {advice_line(game, position, advice)}")
            continue
        if word == "save":
            target = rest.strip()
            if not target:
                say("save needs a file name: save FILE")
                event("refused", message="save needs a file name")
                continue
            try:
                write_output(target, game.save_text(position))
            except Exception as error:  # a file that cannot be written ends nothing: the game goes on
                message = error.message if isinstance(error, InputError) else str(error)
                say(f"not saved: {message}")
                event("refused", message=f"not saved: {message}")
                continue
            say(f"saved the position to {target}")
            event("saved", path=target)
            continue
        try:
            move = game.parse_move(position, text)
        except InputError as error:
            say(error.message)
            event("refused", input=text, message=error.message)
            continue
        played = session.play(move)
        notes = notes_of(played)
        event("move", by="you", player=seat, move=played.text, to_move=to_move(), notes=notes)
        if notes:
            say(f"your move {notes}")
        show_board()


def register_game(playable: Playable, load_position: Callable[[str], Any], position_help: str, move_help: str) -> PlaySetup:
    """Make a game known to ``placesat selfplay`` (by ``playable.name``, which must be its key in
    :data:`PLAY_GAMES`) without adding commands: for a game whose group keeps a ``play-vs`` of
    its own. :func:`add_play_commands` calls it."""
    setup = PlaySetup(playable, load_position, position_help, move_help)
    REGISTERED[playable.name] = setup
    return setup


def register_on_demand(name: str, register: Callable[[], PlaySetup]) -> None:
    """Make game ``name`` known to ``placesat selfplay`` through ``register`` (which calls
    :func:`register_game`), called only when selfplay asks for the game: for a CLI module
    imported by every command of its group, whose engine would otherwise be imported by all
    of them (the Lixso game's: 28 ms on every ``placesat lixso`` command)."""
    REGISTERS_ON_DEMAND[name] = register


def add_play_commands(app: typer.Typer, playable: Playable, load_position: Callable[[str], Any], position_help: str,
                      move_help: str, best: bool = False) -> PlaySetup:
    """Give a game's command group ``play-vs`` (and ``best``, with ``best=True``) over its
    Playable, and register the game for ``placesat selfplay`` (:data:`REGISTERED`).

    ``load_position(path)`` reads a POS argument (``-``: standard input) and raises
    :class:`placesat.core.errors.InputError` for bad input; ``move_help`` says how a move is
    typed ("like '3,-1 NES+' or 'skip'")."""
    setup = register_game(playable, load_position, position_help, move_help)

    def play_vs(
        path: str = typer.Argument(..., metavar="POS", help=position_help),
        seat: int = typer.Option(1, "--as", metavar="SEAT", help="The seat you play, from 1 (default 1); the engine plays every other seat."),
        think: Optional[float] = typer.Option(None, "--think", metavar="SECONDS", callback=seconds_callback,
                                              help=f"Seconds the engine thinks per move (default {DEFAULT_THINK:g}, unless --depth is given)."),
        depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="How deep the engine looks, in its own moves: with no --think, the same moves on any machine."),
        json_output: bool = json_option("One JSON object per event (start, move, hint, undo, moves, board, saved, refused, end, stopped); prompts go to stderr."),
        out: Optional[str] = typer.Option(None, "--out", "-o", metavar="FILE",
                                          help="Write the game here when it ends or you stop: its record (the start and every move, what 'review' reads) where the game keeps records, else the position."),
        engine: str = engine_option(),
    ) -> None:
        from .common import output_path

        if out == "-":
            fail("--out must name a file: the game itself is played on standard output")
        output_path(out)
        raise typer.Exit(play_vs_session(setup, path, seat, think, depth, json_output, out, engine))

    play_vs.__doc__ = f"""Play against the engine in the terminal, from POS.

    Type your moves ({move_help}), one per line; or a word: 'moves' lists your legal moves,
    'hint' gives the engine's move for you with its reason, 'undo' takes back your last move
    and the engine's replies (moves of this session only), 'board' shows the board, 'save
    FILE' writes the position in the game's own format, 'help', 'quit'. The engine's reason
    is printed after each of its moves, the board after every turn, the result at the end. A
    bad move is one line and the game goes on. End of input or 'quit' stops (exit 0); Ctrl-C
    stops at once (exit 130); a closed standard input is one line (exit 2).
    """
    command(app, "play-vs")(play_vs)
    if best:
        add_best_command(app, setup)
    add_review_command(app, lambda: setup)
    return setup


def add_best_command(app: typer.Typer, setup: PlaySetup) -> None:
    """``best POS``: the move the engine recommends, with its reason (``--time-limit``,
    ``--depth``, ``--json``)."""
    from .common import time_limit_option

    game = setup.playable

    def best(
        path: str = typer.Argument(..., metavar="POS", help=setup.position_help),
        time_limit: Optional[float] = time_limit_option("Seconds for the whole command (default 5); past it, the best move found so far."),
        depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="Look at most this deep, in own moves (with no --time-limit: no clock, the same answer on any machine)."),
        json_output: bool = json_option('One JSON object: {"move", "kind", "reason", "line", "evaluation", "evaluation_name", "depth"}; with --top: ' + TOP_JSON + "."),
        top: Optional[int] = top_option(),
        engine_spec: str = engine_option(),
    ) -> None:
        from placesat.core.limits import TimeLimit

        engine = chosen_engine(engine_spec)
        limit = time_limit if time_limit is not None or depth is not None else TimeLimit(5.0)
        deadline = Deadline(limit)
        position = setup.load_position(path)
        if game.outcome(position) is not None:
            fail(f"{path}: the game is over: {game.outcome(position).detail}")
        if top is not None:
            raise typer.Exit(show_top(game, position, top, deadline, depth, json_output))
        with spinner("looking for the best move"):
            advice = engine_best(engine, game, position, deadline, depth)
        if json_output:
            print_json(advice_json(game, position, advice))
        else:
            print(f"best: {advice_line(game, position, advice)}")
        sys.stdout.flush()
        raise_if_stopped()  # Ctrl-C: the best found so far is printed, then the stop ends the command
        raise typer.Exit(EXIT_OK)

    best.__doc__ = """The move the engine recommends for the player to move, with its reason.

    In order: a forced win (deepening while the time lasts): 'forced win', with the line; else
    the move that stops a line the next player could make at once or force ('defence'; 'forced
    loss' when none does); else the move the evaluation prefers ('evaluation', named and shown).
    Answers within --time-limit (default 5 s) with the best found so far, and on Ctrl-C too
    (then exit 130). --depth alone plays without a clock: the same answer on any machine.
    """
    command(app, "best")(best)


# --------------------------------------------------------------------------- best --top


def top_option() -> Any:
    """``--top N``: ``best`` ranks the N best moves instead of naming one."""
    return typer.Option(None, "--top", min=1, max=1000, metavar="N",
                        help="The N best moves, each with its worth to you (the engine's look at the position after it; "
                             "'forced win'/'forced loss' when proven), best first. The time is shared among all the legal moves.")


TOP_JSON = '{"player", "moves": [{"move", "worth" (a number, "win", "loss" or null), "proven", "reply", "ends_game"}], "weighed", "legal"}'


def show_top(game: Playable, position: Any, count: int, deadline: Deadline, depth: Optional[int], json_output: bool) -> int:
    """Print the ``count`` best moves of ``position`` (:func:`placesat.core.review.top_moves`);
    the exit code (1 when the time left some moves unweighed)."""
    from placesat.core.review import top_moves, worth_text

    bar = progress("weighing the moves")
    with bar:
        task = bar.add_task("moves", total=len(game.moves(position)))
        ranked, weighed, legal = top_moves(game, position, count, deadline, depth, lambda done, total: bar.update(task, completed=done))
    seat = game.to_move(position)
    if json_output:
        print_json({"player": seat, "moves": [entry.to_json() for entry in ranked], "weighed": weighed, "legal": legal})
    else:
        print(f"the {len(ranked)} best of {legal} moves for player {seat}:")
        for number, entry in enumerate(ranked, start=1):
            reply = f"; the reply {entry.reply}" if entry.reply else ""
            print(f"{number}. {entry.move}: {worth_text(entry.worth)}{' (proven)' if entry.proven else ''}{reply}")
        if weighed < legal:
            print(f"the time limit came first: {legal - weighed} moves not weighed")
        if any(entry.worth is None for entry in ranked):
            print(f"unknown: the engine gave no evaluation of the position after the move (most often its share of the time, "
                  f"{legal} moves sharing it, ran out: a longer --time-limit helps)")
    sys.stdout.flush()
    raise_if_stopped()
    return EXIT_NOT_ALL_GOOD if weighed < legal else EXIT_OK


# --------------------------------------------------------------------------- review


DEFAULT_TIME_PER_MOVE = 0.5
"""Seconds ``review`` gives the engine on each position unless told."""
DEFAULT_REVIEW_LIMIT = 120.0
"""Seconds a whole ``review`` takes at most unless told."""


def add_review_command(app: typer.Typer, setup_of: Callable[[], PlaySetup]) -> None:
    """``review RECORD``: a game record replayed and each move set against the engine's best
    (:func:`placesat.core.review.review`); ``setup_of()`` gives the game (called when the
    command runs, so a group can register its engine on demand)."""
    from .common import output_path, time_limit_option

    def review_command(
        path: str = typer.Argument(..., metavar="RECORD", help="A game record: the game's own (JSON or text, as its commands write it), or a 'placesat selfplay --json' report ('-' reads standard input)."),
        time_per_move: Optional[float] = typer.Option(DEFAULT_TIME_PER_MOVE, "--time-per-move", metavar="SECONDS", callback=seconds_callback,
                                                      help=f"Seconds the engine looks at each position (default {DEFAULT_TIME_PER_MOVE:g}); a move that is not the engine's costs two looks."),
        time_limit: Optional[float] = time_limit_option(f"Seconds for the whole review (default {DEFAULT_REVIEW_LIMIT:g}); the plies past it are left out, and said to be."),
        depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="How deep the engine looks, in own moves (with --time-per-move 0: no clock per move, the same review on any machine)."),
        drop: Optional[float] = typer.Option(None, "--drop", min=0, help="A fall of the evaluation against the best move marked as a mistake, in the game's evaluation units (default: the game's own)."),
        index: Optional[int] = typer.Option(None, "--index", min=0, help="For a selfplay report: the game to review, from 0 (default 0)."),
        svg_out: Optional[str] = typer.Option(None, "--svg", metavar="FILE", help="Write the evaluation plot (worth to player 1 after each ply; mistakes in red) as SVG."),
        json_output: bool = json_option('A JSON list of per-move objects {"ply", "player", "move", "where", "best", "best_kind", "best_reason", "before", "after", "drop", "mistakes", "player_1_after"}; a last {"end": ...} object says how the review ended.'),
    ) -> None:
        from placesat.core.inputs import read_text
        from placesat.core.limits import TimeLimit
        from placesat.core.review import evaluation_svg, read_record, review

        setup = setup_of()
        game = setup.playable
        if svg_out == "-":
            fail("--svg must name a file: the review itself goes to standard output")
        svg_path = output_path(svg_out, option="--svg")
        limit = time_limit if time_limit is not None else TimeLimit(DEFAULT_REVIEW_LIMIT)
        per_move = time_per_move if time_per_move else None
        if per_move is None and depth is None:
            fail("--time-per-move 0 needs a --depth: the engine would have no bound of its own")
        record = read_record(game, read_text(path), path, index)
        bar = progress(f"review {game.name}")
        with bar:
            task = bar.add_task("plies", total=len(record.moves))
            reviewed = review(game, record, per_move, Deadline(limit), depth, drop, lambda done, total: bar.update(task, completed=done))
        end = {"plies": len(record.moves), "reviewed": len(reviewed.plies), "illegal": reviewed.illegal,
               "stopped": reviewed.stopped, "outcome": reviewed.outcome}
        if svg_path is not None:
            write_output(svg_path, evaluation_svg(reviewed, f"placesat {game.name} review: {path}"))
        if json_output:
            print_json([entry.to_json() for entry in reviewed.plies] + [{"end": end}])
        else:
            for line in review_lines(reviewed, lambda seat: seat_name(game, record.start, seat)):
                print(line)
        sys.stdout.flush()
        raise_if_stopped()
        raise typer.Exit(EXIT_NOT_ALL_GOOD if reviewed.illegal or reviewed.stopped else EXIT_OK)

    review_command.__doc__ = """Replay a game record and set each move against the engine's best.

    Every move is checked by the plain rules; an illegal one ends the review at its ply (named,
    with its place in the file), with the plies before it reviewed (exit 1). For each ply: the
    move, the engine's best move there (by the game's 'best' within --time-per-move), the worth
    of both to the player who moved (the engine's evaluation of the position after each, or a
    forced win or loss when proven), and the marks: 'missed win' (a forced win was there and
    the move let it go), 'into loss' (the move walks into a forced loss), 'drop' (the
    evaluation fell by --drop or more against the best move). The whole review keeps to
    --time-limit; plies past it are left out and said to be (exit 1).
    """
    command(app, "review")(review_command)


def review_lines(reviewed, name: Callable[[int], str] = lambda seat: f"player {seat}") -> list[str]:
    """A review in words: one line per ply (the seat as ``name`` gives it), then how it ended."""
    from placesat.core.review import worth_text

    lines = []
    for entry in reviewed.plies:
        said = f"{entry.ply}. {name(entry.seat)} {entry.move}"
        if entry.best is not None and entry.best != entry.move:
            said += f" (best {entry.best}, {entry.best_kind})"
        elif entry.best is not None:
            said += " (the engine's move)"
        said += f": before {worth_text(entry.before)}, after {worth_text(entry.after)}"
        if entry.mistakes:
            said += " <- " + ", ".join(entry.mistakes)
        lines.append(said)
    marked = sum(1 for entry in reviewed.plies if entry.mistakes)
    lines.append(f"reviewed {len(reviewed.plies)} of {reviewed.total} plies; {marked} marked as mistakes")
    if reviewed.illegal is not None:
        bad = reviewed.illegal
        lines.append(f"ply {bad['ply']} ({bad['where']}), {bad['move']}: {bad['message']}; the review stops there")
    if reviewed.stopped is not None:
        lines.append(f"{reviewed.stopped}: plies {len(reviewed.plies) + 1} to {reviewed.total} are not reviewed")
    if reviewed.outcome is not None:
        lines.append(f"the game is over: {reviewed.outcome}")
    return lines


# --------------------------------------------------------------------------- selfplay


def playing_game(name: str) -> PlaySetup:
    """The registered game called ``name`` (its CLI module imported); a usage error otherwise."""
    module = PLAY_GAMES.get(name)
    if module is None:
        fail(f"GAME: selfplay knows {', '.join(sorted(PLAY_GAMES))}, not {name!r}")
    importlib.import_module(module)
    if name not in REGISTERED:
        REGISTERS_ON_DEMAND[name]()
    return REGISTERED[name]


def selfplay_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="The game: " + ", ".join(sorted(PLAY_GAMES)) + "."),
    games: int = typer.Option(..., "--games", "-n", min=1, max=1_000_000, help="How many games."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the random plies: game i depends only on (seed, i)."),
    engine_a: str = typer.Option("best:d2", "--engine-a", metavar="SPEC", help="Seat 1's engine: best:d2 (the game's own, to a depth: reproducible), best:0.5s (seconds per move), best:d3:2s, random, or lookahead:f2:1s / lookahead:p2:600n (the look-ahead engine: deepest plies, root forced search, seconds or positions scored per move); add :cpu to count a time in CPU seconds (best:d1:0.25s:cpu)."),
    engine_b: str = typer.Option("best:d2", "--engine-b", metavar="SPEC", help="Every other seat's engine (same forms)."),
    position_path: Optional[str] = typer.Option(None, "--position", metavar="POS", help="Start every game here instead of the opening."),
    players: int = typer.Option(2, "--players", min=2, max=4, help="Players of the opening (without --position)."),
    opening_plies: int = typer.Option(2, "--opening-plies", min=0, max=100, help="Random plies at the start of every game, so games differ (default 2)."),
    max_plies: int = typer.Option(1000, "--max-plies", min=1, max=100_000, help="Stop a game after this many plies (counted as unfinished)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=256, help="Worker processes (the report is the same for any number)."),
    json_output: bool = json_option("One JSON object: the report, and every game with its moves."),
) -> None:
    """Engine against engine: many games, and the first player's win rate, draws, game length and first moves.

    Engine A plays seat 1 and engine B every other seat (with 3-4 players, B plays them all).
    Each game starts from the game's opening (or --position) with --opening-plies random plies
    (seeded), then the engines play it out; every move goes through the game's rules. The
    report: the first player's win rate with a 95% Wilson interval, each seat's wins, draws,
    the mean and spread of the game length in plies, and the most common first moves. A game
    that fails is reported and the others go on (exit 1 then).
    """
    from placesat.core.selfplay import parse_engine, selfplay

    setup = playing_game(game_name)
    engines = (parse_engine(engine_a, "--engine-a"), parse_engine(engine_b, "--engine-b"))
    start = setup.load_position(position_path) if position_path is not None else None
    bar = progress(f"selfplay {game_name}")
    with bar:
        task = bar.add_task("games", total=games)

        def heard(result) -> None:
            bar.advance(task)
            if result.error is not None:
                warn(f"game {result.index} failed after {result.plies} plies: {result.error}")

        report = selfplay(setup.playable, games, seed, engines, start, players, jobs, opening_plies, max_plies, heard)
    code = EXIT_NOT_ALL_GOOD if report.failed else EXIT_OK
    if json_output:
        print_json(report.to_json())
        raise typer.Exit(code)
    for line in report_lines(report, position_path):
        print(line)
    raise typer.Exit(code)


def report_lines(report, position_path: Optional[str] = None) -> list[str]:
    """A selfplay report in words."""
    start = f"from {position_path}" if position_path else f"from the opening ({report.players} players)"
    engine_b_seats = "player 2" if report.players == 2 else f"players 2-{report.players}"
    lines = [f"selfplay {report.game}: {len(report.results)} games {start}; engine A {report.engines[0]} plays player 1, "
             f"engine B {report.engines[1]} plays {engine_b_seats}; {report.opening_plies} random opening plies, seed {report.seed}"]
    rate, low, high = report.first_win_rate()
    played = len(report.played)
    if rate is not None:
        lines.append(f"player {report.first} (moves first) wins {report.wins(report.first)} of {played}: {100 * rate:.1f}%"
                     f" (95% Wilson interval {100 * low:.1f}%-{100 * high:.1f}%)")
    others = ", ".join(f"player {seat} {report.wins(seat)}" for seat in range(1, report.players + 1) if seat != report.first)
    lines.append(f"wins: {others}; draws {report.draws}; unfinished {report.unfinished}; failed {len(report.failed)}")
    length = report.lengths()
    if length:
        lines.append(f"game length: mean {length['mean']:.1f} plies, sd {length['sd']:.1f}, min {length['min']}, "
                     f"median {length['median']:g}, max {length['max']}")
    firsts = report.first_moves()
    if firsts:
        merged = " (each with its images under the board's symmetries)" if report.same_move is not None else ""
        lines.append(f"most common first moves{merged}: " + "; ".join(f"{move} {count} (player {report.first} won {wins})" for move, count, wins in firsts))
    return lines
