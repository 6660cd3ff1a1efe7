"""Engine against engine: many games of one game, in parallel, and what they say about it.

``placesat selfplay GAME`` plays ``--games N`` games from the opening (``Playable.opening``)
or a given position. Engine A plays seat 1 and engine B every other seat (with more than two
players, B plays all the others). An engine is ``best:d2`` (the game's ``best`` to a depth:
reproducible), ``best:0.5s`` (to a time per move: depends on the machine), ``random`` (a
legal move at random), or the look-ahead engine (:mod:`placesat.core.lookahead`):
``lookahead:p2:400n`` (plies, positions scored a move: reproducible) or ``lookahead:1s``
(deepening while the second lasts). ``:cpu`` makes an engine's seconds CPU seconds of its own
process (:class:`CpuDeadline`): ``best:d1:0.25s:cpu`` against ``lookahead:0.25s:cpu`` is equal
time per move even on a machine other work loads, where a wall clock gives each engine what
the load leaves it. The first :data:`DEFAULT_OPENING_PLIES` plies of every game are random
(seeded), so games with deterministic engines differ; a random ply never ends the game when
another move would not (:func:`opening_moves`).

Game ``i`` depends only on ``(seed, i)`` (its own random numbers, :func:`game_random`), so the
games and the report are the same for any number of worker processes. A game that raises is
reported as failed, with its message, and the others go on.

The report: the first player's win rate (the seat to move at the start) with a 95% Wilson
interval, every seat's wins, draws, unfinished games (cut at ``max_plies``), failed games, the
mean and spread of the game length in plies, and the most common first moves (one move for all
its images under the board's symmetries, for a game that has ``canonical_move``).
"""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from .errors import InputError
from .limits import Deadline, check_time_limit
from .parallel import WorkerCrash, run_ordered
from .play import Advice, Playable, canonical_move_text
from .signals import raise_if_stopped

RANDOM, BEST, LOOKAHEAD = "random", "best", "lookahead"
DEFAULT_ENGINE = "best:d2"
"""The engine of both sides unless told: the game's ``best`` to depth 2, reproducible."""
DEFAULT_OPENING_PLIES = 2
"""Random plies at the start of every game: two, so that each player's first move differs from
game to game (with deterministic engines, games from one start would otherwise all be one game),
while the engines play everything after (our choice: seeds say nothing of it)."""
DEFAULT_MAX_PLIES = 1000
"""A game still going after this many plies is stopped and counted as unfinished."""
DEFAULT_LOOKAHEAD = "lookahead:f2:1s"
"""The look-ahead engine unless told: the game's own engine 2 own moves deep at the root, then
the alpha-beta search deepening (1, 2, 3 ... plies) while the second a move lasts."""
CPU = "cpu"
"""The spec word that makes an engine's seconds CPU seconds (:class:`CpuDeadline`)."""
MAX_DEPTH = 12
Z_95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""


class CpuDeadline(Deadline):
    """A deadline on the CPU time of this process (``time.process_time``), within a wall-clock
    ``outer`` one (a command's --time-limit, which holds as before).

    For equal time per move on a shared machine: a wall clock gives an engine whatever CPU the
    other work leaves it, so the engine that needs more CPU loses more of its search; CPU
    seconds are the same on a loaded and an idle machine (not the same moves: the process's
    other threads count, and the clock is read between steps). Code that asks :meth:`remaining`
    and hands it to a solver as a wall-clock limit stops no later than the CPU would (wall time
    is at least a single thread's CPU); :attr:`end` is the wall-clock end the CPU left now
    would give on an idle machine, for code that reads it once.
    """

    def __init__(self, seconds: float, outer: Deadline | None = None) -> None:
        check_time_limit(seconds)
        self.outer = outer if outer is not None else Deadline.never()
        own = self.outer.remaining()
        self.seconds = seconds if own is None else min(seconds, own)
        self.cpu_end = time.process_time() + seconds

    def cpu_left(self) -> float:
        """CPU seconds left, never below zero."""
        return max(self.cpu_end - time.process_time(), 0.0)

    @property
    def end(self) -> float:  # type: ignore[override]
        own = time.monotonic() + self.cpu_left()
        return own if self.outer.end is None else min(own, self.outer.end)

    def remaining(self) -> float:
        own = self.outer.remaining()
        return self.cpu_left() if own is None else min(self.cpu_left(), own)

    def expired(self) -> bool:
        return time.process_time() >= self.cpu_end or self.outer.expired()

    def sooner(self, seconds: float | None) -> "Deadline":
        """At most ``seconds`` more CPU, and no later than this deadline."""
        if seconds is None:
            return self
        return CpuDeadline(min(seconds, self.cpu_left()), self.outer)


def move_deadline(deadline: Deadline, seconds: float | None, cpu: bool) -> Deadline:
    """A move's deadline: ``seconds`` from now (CPU seconds when ``cpu``), no later than ``deadline``."""
    if cpu and seconds is not None:
        return CpuDeadline(seconds, deadline)
    return deadline.sooner(seconds)


@dataclass(frozen=True)
class Engine:
    """How one side chooses its moves: ``random``; the game's own ``best`` with a depth and/or
    seconds per move; or the look-ahead engine (:mod:`placesat.core.lookahead`) with its plies,
    seconds and/or scored positions (nodes) per move; ``cpu``: the seconds are CPU seconds
    (:class:`CpuDeadline`)."""

    kind: str
    depth: int | None = None
    seconds: float | None = None
    nodes: int | None = None
    forced: int | None = None
    cpu: bool = False

    def __str__(self) -> str:
        if self.kind == RANDOM:
            return RANDOM
        depth = "p" if self.kind == LOOKAHEAD else "d"
        parts = ([f"{depth}{self.depth}"] if self.depth is not None else []) + ([f"f{self.forced}"] if self.forced is not None else []) \
            + ([f"{self.seconds:g}s"] if self.seconds is not None else []) + ([f"{self.nodes}n"] if self.nodes is not None else []) \
            + ([CPU] if self.cpu else [])
        return ":".join([self.kind] + parts)

    def choose(self, game: Playable, position: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The move this engine plays in ``position``."""
        if self.kind == RANDOM:
            return rng.choice(legal)
        return self.advise(game, position, Deadline.never()).move

    def advise(self, game: Playable, position: Any, deadline: Deadline) -> Advice:
        """This engine's advice in ``position``, by ``deadline`` (the sooner of it and the
        engine's own seconds)."""
        deadline = move_deadline(deadline, self.seconds, self.cpu)
        if self.kind == LOOKAHEAD:
            from .lookahead import DEFAULT_FORCED, Lookahead

            engine = Lookahead(game, plies=self.depth, forced=DEFAULT_FORCED if self.forced is None else self.forced)
            return engine.best(position, deadline, self.nodes)
        return game.best(position, deadline, self.depth)


def command_engine(spec: str, where: str = "engine") -> Engine:
    """The engine a ``best`` or ``play-vs`` command (or the API's ``best``) is asked for: a
    selfplay spec, where ``best`` and ``lookahead`` alone take the command's own clock and
    depth rather than selfplay's defaults. :class:`InputError` when it cannot be read."""
    word = spec.strip().lower()
    if word in (BEST, LOOKAHEAD):
        return Engine(word)
    return parse_engine(spec, where)


def engine_advice(engine: Engine | str, game: Playable, position: Any, deadline: Deadline, depth: int | None) -> Advice:
    """``engine``'s advice in ``position`` by ``deadline``. ``depth`` (a command's --depth) is
    the game's own engine's depth (own moves), or the depth of the look-ahead's forced search
    at its root; without it, and without ``fK`` in the spec, the game's own default (deepening
    while the clock lasts)."""
    from dataclasses import replace

    if isinstance(engine, str):
        engine = command_engine(engine)
    if engine.kind == BEST:
        return engine.advise(game, position, deadline) if depth is None else replace(engine, depth=depth).advise(game, position, deadline)
    if engine.kind == RANDOM:
        raise InputError("the random engine gives no advice: name best or lookahead")
    from .lookahead import Lookahead

    forced = depth if depth is not None else engine.forced
    return Lookahead(game, plies=engine.depth, forced=forced).best(position, move_deadline(deadline, engine.seconds, engine.cpu), engine.nodes)


_PART = re.compile(r"^(?:(?P<letter>[dp])(?P<depth>[0-9]{1,2})|f(?P<forced>[0-9]{1,2})|(?P<seconds>[0-9]+(?:\.[0-9]+)?)s|(?P<nodes>[0-9]{1,9})n|(?P<cpu>cpu))$")


def parse_engine(text: str, where: str = "engine") -> Engine:
    """An engine as written: ``random``; ``best:d2`` (the game's own ``best`` to a depth in own
    moves), ``best:0.5s`` (seconds per move) or both (``best:d3:2s``); ``lookahead:p3`` (the
    look-ahead engine to 3 plies; without ``pN`` it deepens while its clock or node budget
    lasts), with ``:1s`` (seconds per move) and/or ``:400n`` (positions scored per move: the
    same moves on any machine) and ``:f2`` (the game's forced search at its root, own moves);
    ``:cpu`` after a time makes it CPU seconds (``best:d1:0.25s:cpu``). ``best`` alone is
    :data:`DEFAULT_ENGINE`, ``lookahead`` alone :data:`DEFAULT_LOOKAHEAD`."""
    words = text.strip().lower().split(":")
    if words == [RANDOM]:
        return Engine(RANDOM)
    if words == [BEST]:
        return parse_engine(DEFAULT_ENGINE, where)
    if words == [LOOKAHEAD]:
        return parse_engine(DEFAULT_LOOKAHEAD, where)
    usage = "write random, best:d2 (a depth), best:0.5s (seconds per move), best:d2:1s, lookahead:p3:1s (plies, seconds) or lookahead:p3:400n (plies, positions scored)"
    if words[0] not in (BEST, LOOKAHEAD) or not 2 <= len(words) <= 6:
        raise InputError(f"{where}: cannot read the engine {text!r}: {usage}")
    kind = words[0]
    letter = "d" if kind == BEST else "p"
    depth = seconds = nodes = forced = None
    cpu = False
    for word in words[1:]:
        match = _PART.match(word)
        if match is None or (match["letter"] and (match["letter"] != letter or depth is not None)) or (match["cpu"] and cpu) \
                or (match["seconds"] and seconds is not None) or (match["nodes"] and (kind == BEST or nodes is not None)) \
                or (match["forced"] and (kind == BEST or forced is not None)):
            extra = ", the game's forced search at the root f2 (own moves), positions scored 400n" if kind == LOOKAHEAD else ""
            raise InputError(f"{where}: cannot read {word!r} in {text!r}: a depth is {letter}1 to {letter}{MAX_DEPTH}, a time 0.5s (CPU seconds: 0.5s:cpu){extra}")
        if match["cpu"]:
            cpu = True
        elif match["depth"]:
            depth = int(match["depth"])
            if not 1 <= depth <= MAX_DEPTH:
                raise InputError(f"{where}: the depth must be from 1 to {MAX_DEPTH}, not {depth}")
        elif match["forced"]:
            forced = int(match["forced"])
            if not 0 <= forced <= MAX_DEPTH:
                raise InputError(f"{where}: the forced search's depth must be from 0 (none) to {MAX_DEPTH}, not {forced}")
        elif match["nodes"]:
            nodes = int(match["nodes"])
            if nodes < 1:
                raise InputError(f"{where}: the positions scored per move must be at least 1, not {nodes}")
        else:
            seconds = float(match["seconds"])
            try:
                check_time_limit(seconds)
            except ValueError as error:
                raise InputError(f"{where}: the time {error}") from None
            if seconds == 0:
                raise InputError(f"{where}: the time per move must be more than 0 s")
    if cpu and seconds is None:
        raise InputError(f"{where}: {CPU!r} in {text!r} makes a time per move CPU seconds: give one, as {kind}:0.5s:cpu")
    return Engine(kind, depth, seconds, nodes, forced, cpu)


def game_random(seed: int, index: int) -> random.Random:
    """Game ``index``'s own random numbers: the same for the same seed and index, whatever
    process plays it and whatever was played before."""
    return random.Random(f"placesat-selfplay:{seed}:{index}")


@dataclass(frozen=True)
class GameJob:
    """Everything one game needs, sent to a worker process as it is."""

    game: Playable
    start: Any
    engines: tuple[Engine, Engine]
    seed: int
    index: int
    opening_plies: int = DEFAULT_OPENING_PLIES
    max_plies: int = DEFAULT_MAX_PLIES


@dataclass
class GameResult:
    """One game: its moves as typed, the winning seat (None: a draw, or not finished), how it
    ended, and the error when it failed."""

    index: int
    moves: list[str]
    winner: int | None = None
    detail: str = ""
    finished: bool = False
    error: str | None = None
    seconds: float = 0.0

    @property
    def plies(self) -> int:
        return len(self.moves)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "moves": self.moves, "winner": self.winner, "detail": self.detail,
                "finished": self.finished, "error": self.error, "plies": self.plies, "seconds": round(self.seconds, 3)}


def engine_of(engines: tuple[Engine, Engine], seat: int) -> Engine:
    """Engine A plays seat 1, engine B every other seat."""
    return engines[0] if seat == 1 else engines[1]


def opening_moves(game: Playable, position: Any, legal: Sequence[Any]) -> Sequence[Any]:
    """The moves a random opening ply chooses from: those that do not end the game, when there
    are any (an opening that ends a game at once, as a first tile with one half dot answered by
    one that closes it in LSD, measures the dice, not the game)."""
    going = [move for move in legal if game.outcome(game.play(position, move)) is None]
    return going or legal


def play_game(job: GameJob) -> GameResult:
    """Play one game to its end (or ``max_plies``): the first ``opening_plies`` plies at random,
    then each seat's engine. Every move goes through the game's rules (``Playable.play``). An
    exception ends this game only: it is the result's ``error``."""
    game = job.game
    rng = game_random(job.seed, job.index)
    position = job.start
    result = GameResult(job.index, [])
    started = time.process_time()
    try:
        for ply in range(job.max_plies + 1):
            # an engine answers a Ctrl-C with its best move so far (as `best` must): the stop
            # still ends the run here, instead of every later move being a hurried one
            raise_if_stopped()
            ended = game.outcome(position)
            if ended is not None:
                result.winner, result.detail, result.finished = ended.winner, ended.detail, True
                break
            if ply == job.max_plies:
                result.detail = f"stopped after {job.max_plies} plies"
                break
            legal = list(game.moves(position))
            if not legal:
                raise RuntimeError("the game offers no move, yet says it is not over")
            engine = engine_of(job.engines, game.to_move(position))
            if ply < job.opening_plies:
                move = rng.choice(opening_moves(game, position, legal))
            else:
                move = engine.choose(game, position, legal, rng)
            result.moves.append(game.move_text(position, move))
            position = game.play(position, move)
    except Exception as error:  # one bad game is reported; the others go on
        result.error = f"{type(error).__name__}: {error}"
    result.seconds = time.process_time() - started
    return result


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` of ``trials``, at the
    confidence ``z`` stands for (95% by default); (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    scale = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / scale
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SelfplayReport:
    """The games and what they say: see the module docstring."""

    game: str
    players: int
    first: int
    engines: tuple[Engine, Engine]
    seed: int
    opening_plies: int
    from_opening: bool
    results: list[GameResult] = field(default_factory=list)
    same_move: Callable[[str], str] | None = None
    """The move that stands for a first move and its images under the board's symmetries
    (:func:`placesat.core.play.canonical_move_text`); None: moves as played."""

    @property
    def played(self) -> list[GameResult]:
        """The games that did not fail."""
        return [r for r in self.results if r.error is None]

    @property
    def failed(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def wins(self, seat: int) -> int:
        return sum(1 for r in self.played if r.finished and r.winner == seat)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.played if r.finished and r.winner is None)

    @property
    def unfinished(self) -> int:
        return sum(1 for r in self.played if not r.finished)

    def first_win_rate(self) -> tuple[float | None, float, float]:
        """The first player's wins over the games played (draws and unfinished games are no
        win), with its 95% Wilson interval."""
        n = len(self.played)
        low, high = wilson_interval(self.wins(self.first), n)
        return (self.wins(self.first) / n if n else None), low, high

    def lengths(self) -> dict[str, float] | None:
        """Plies per finished game: mean, standard deviation (sample), min, median, max."""
        plies = [r.plies for r in self.played if r.finished]
        if not plies:
            return None
        return {"mean": statistics.fmean(plies), "sd": statistics.stdev(plies) if len(plies) > 1 else 0.0,
                "min": min(plies), "median": statistics.median(plies), "max": max(plies)}

    def first_moves(self, most: int = 5) -> list[tuple[str, int, int]]:
        """The most common first moves of the games played: (move, games, the first player's wins
        in them), most games first, then by move; moves that are one under the board's
        symmetries counted as one (:attr:`same_move`)."""
        same = self.same_move or (lambda text: text)
        counts = Counter(same(r.moves[0]) for r in self.played if r.moves)
        wins = Counter(same(r.moves[0]) for r in self.played if r.moves and r.finished and r.winner == self.first)
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:most]
        return [(move, count, wins[move]) for move, count in ranked]

    def to_json(self, with_games: bool = True) -> dict[str, Any]:
        rate, low, high = self.first_win_rate()
        out: dict[str, Any] = {
            "game": self.game, "players": self.players, "games": len(self.results), "seed": self.seed,
            "engine_a": str(self.engines[0]), "engine_b": str(self.engines[1]),
            "opening_plies": self.opening_plies, "from_opening": self.from_opening,
            "first_player": self.first, "first_player_wins": self.wins(self.first),
            "first_player_win_rate": rate, "first_player_interval": [low, high],
            "wins": {str(seat): self.wins(seat) for seat in range(1, self.players + 1)},
            "draws": self.draws, "unfinished": self.unfinished, "failed": len(self.failed),
            "length": self.lengths(),
            "first_moves": [{"move": m, "games": n, "first_player_wins": w} for m, n, w in self.first_moves()],
            "first_moves_merged_by_symmetry": self.same_move is not None,
        }
        if with_games:
            out["results"] = [r.to_json() for r in self.results]
        return out


def selfplay(
    game: Playable,
    games: int,
    seed: int = 0,
    engines: tuple[Engine, Engine] = (parse_engine(DEFAULT_ENGINE), parse_engine(DEFAULT_ENGINE)),
    start: Any = None,
    players: int = 2,
    jobs: int = 1,
    opening_plies: int = DEFAULT_OPENING_PLIES,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_game: Callable[[GameResult], None] | None = None,
) -> SelfplayReport:
    """Play ``games`` games of ``game`` from ``start`` (default: its opening for ``players``) on
    ``jobs`` worker processes, and report them (:class:`SelfplayReport`). ``on_game`` hears of
    each game as it ends, in order."""
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    from_opening = start is None
    position = game.opening(players) if from_opening else start
    report = SelfplayReport(game.name, game.players(position), game.to_move(position), engines, seed, opening_plies, from_opening)
    if getattr(game, "canonical_move", None) is not None:
        report.same_move = lambda text: canonical_move_text(game, position, text)

    def jobs_of() -> Iterator[GameJob]:
        for index in range(games):
            yield GameJob(game, position, engines, seed, index, opening_plies, max_plies)

    for job, result in run_ordered(play_game, jobs_of(), jobs):
        if isinstance(result, WorkerCrash):
            result = GameResult(job.index, [], error=f"WorkerCrash: {result}")
        report.results.append(result)
        if on_game is not None:
            on_game(result)
    return report
