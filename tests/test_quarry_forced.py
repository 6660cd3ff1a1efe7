"""Quarry's forced wins and best move: the search against a plain minimax over the rules, on short
narrow boards and seeded random positions; the cut-offs' own claims; best on hand-worked positions;
a whole game through QuarryPlayable."""

from __future__ import annotations

import importlib

import pytest

from placesat.core.andor import replay_strategy
from placesat.core.limits import Deadline
from placesat.core.play import DEFENCE, FORCED_LOSS, FORCED_WIN, KINDS
from placesat.quarry.forced import NO_WIN, WIN, forced_win, stones_at_least, threat_zone
from placesat.quarry.model import BLACK, BLUE, PASS, PLAYERS, Board, Position, opponent, parse_move
from placesat.quarry.play import Game, QuarryPlayable, seat
from placesat.quarry.rules import State, line, placements, play, record, replay

from .quarry_brute import SMALL_STONES, cheapest_by_search, random_game


# --------------------------------------------------------------------------- the plain minimax


def minimax(state: State, target: str, own_moves: int) -> bool:
    """Whether ``target`` completes its line within ``own_moves`` of its own moves whatever the
    other plays: every move the rules allow at every turn (a pass only when no stone fits), the
    other's line or two passes ending the game against it. Written from the rules alone."""
    memo: dict = {}

    def wins(here: State, left: int) -> bool:
        if here.winner is not None:
            return here.winner == target
        if here.passes >= 2 or left == 0:
            return False
        key = (tuple(here.height), tuple(here.top), here.to_move, here.passes, left,
               tuple(tuple(sorted(here.used[p].items())) for p in PLAYERS))
        if key not in memo:
            moves = [p for p, _ in placements(here, here.to_move)] or [PASS]
            mine = here.to_move == target
            after = (play(here, m) for m in moves)
            memo[key] = any(wins(a, left - 1) for a in after) if mine else all(wins(a, left) for a in after)
        return memo[key]

    return wins(state, own_moves)


BOARDS = [Board(3, 2), Board(4, 2), Board(3, 3), Board(5, 2, "inside")]


def sample_positions(count: int, seed: int):
    """Seeded random games on the small boards, a few stones in, nobody having won."""
    for n in range(count):
        board = BOARDS[n % len(BOARDS)]
        stones = 1 + (seed + n) % 4
        position, state = random_game(board, SMALL_STONES, stones, seed * 1000 + n, first=PLAYERS[n % 2])
        if state.winner is None and not state.is_over:
            yield position, state


@pytest.mark.parametrize("seed", range(6))
def test_forced_equals_the_minimax(seed):
    checked = {WIN: 0, NO_WIN: 0}
    for position, state in sample_positions(8, seed):
        for target in PLAYERS:
            for k in (1, 2):
                expected = minimax(state, target, k)
                answer = forced_win(position, state, target, k)
                assert answer.answer == (WIN if expected else NO_WIN), (seed, target, k, position)
                checked[answer.answer] += 1
                if expected:
                    assert answer.within is not None and answer.within <= k
                    assert not minimax(state, target, answer.within - 1) if answer.within > 1 else True
    assert checked[WIN] and checked[NO_WIN]  # both answers were met


def test_forced_within_three_equals_the_minimax():
    met = set()
    for position, state in sample_positions(12, 40):
        if state.board.cells > 6:
            continue
        expected = minimax(state, state.to_move, 3)
        assert forced_win(position, state, state.to_move, 3).answer == (WIN if expected else NO_WIN), position
        met.add(expected)
    assert met == {True, False}


def test_every_win_replays_and_its_first_move_wins_by_the_minimax():
    for position, state in sample_positions(16, 7):
        me = state.to_move
        answer = forced_win(position, state, me, 2, strategy=True)
        if answer.answer != WIN or answer.within == 0:
            continue
        assert answer.replayed > 0 and answer.strategy is not None
        first = answer.move
        assert first == answer.line[0]
        after = play(state, first)
        assert after.winner == me or minimax(after, me, answer.within - 1)


def test_a_wrong_strategy_fails_its_replay():
    """The replay is a real check: a strategy that plays a losing first move is refused."""
    from placesat.core.andor import StrategyFailed

    for position, state in sample_positions(16, 7):
        me = state.to_move
        if forced_win(position, state, me, 2).answer != WIN:
            continue
        losing = next((m for m, _ in placements(state, me) if not minimax(play(state, m), me, 1)), None)
        if losing is None:
            continue
        root = Game(position, state)
        choose = lambda g: losing if g.state is state else None  # noqa: E731
        with pytest.raises(StrategyFailed):
            replay_strategy(QuarryPlayable(), root, seat(me), 2, choose)
        return
    pytest.fail("no position with a losing first move was met")


def test_the_threat_zone_holds_every_stone_that_gives_a_win():
    """A stone of the other's outside the zone never gives the target a win at once it has not."""
    from placesat.quarry.forced import cells_of
    from placesat.quarry.threats import winning_moves

    tried = 0
    for position, state in sample_positions(24, 3):
        for target in PLAYERS:
            if winning_moves(state, target) or state.to_move == target:
                continue
            zone = threat_zone(state, target)
            for placement, _ in placements(state, state.to_move):
                if any(cell in zone for cell in cells_of(state, placement)):
                    continue
                tried += 1
                assert not winning_moves(play(state, placement), target), (position, placement)
    assert tried


def test_stones_at_least_is_a_lower_bound():
    for position, state in sample_positions(16, 5):
        for player in PLAYERS:
            bound = stones_at_least(state, player)
            fewest = cheapest_by_search(state, player, lambda name: 1)
            if fewest is None:
                continue
            assert bound is not None and bound <= fewest, (position, player)


def test_forced_on_the_shipped_midgame_is_replayed():
    from placesat.quarry.model import load_position

    position = load_position("grids/quarry/midgame.json")
    state = replay(position)
    answer = forced_win(position, state, BLACK, 2)
    assert answer.answer == WIN and answer.within == 2 and answer.replayed > 100
    assert forced_win(position, state, BLACK, 1).answer == NO_WIN  # black has no win at once
    after = play(state, answer.move)
    assert after.winner is None


# --------------------------------------------------------------------------- best


def game_of(board: Board, moves: list[str], first: str = BLACK) -> Game:
    position = Position(board, SMALL_STONES, first)
    state = replay(position)
    for text in moves:
        position, state = record(position, state, parse_move(text, board, SMALL_STONES))
    return Game(position, state)


def test_best_takes_a_win_at_once():
    # black has a1, a2 on a 3 x 2 board: a block on a3 completes column a
    game = game_of(Board(3, 2), ["block a1", "block b3", "block a2", "post b2"])
    advice = QuarryPlayable().best(game, Deadline(None), depth=1)
    assert advice.kind == FORCED_WIN
    assert play(game.state, advice.move).winner == BLACK


def test_best_blocks_the_single_threat_with_the_only_move():
    # 3 x 2, black first: black post a3, blue post b2, black block b1, blue step a1 s. From above:
    #   row 1: a1 blue (2 high)  b1 black
    #   row 2: a2 blue           b2 blue (2 high)
    #   row 3: a3 black (2 high) b3 bare
    # Blue's a1-a2-b2 touches row 1 and needs b3: its last block there wins (its post and step are
    # played; a beam or arch down column b would end on black's b1). Black has no line at once (a1,
    # a2 and b2 are blue). Black's only stone that covers b3 is its last block: its step or arch
    # over b3 and a3 would overhang (a3 is 2 high), down column b it would end on blue's b2.
    game = game_of(Board(3, 2), ["post a3", "post b2", "block b1", "step a1 s"])
    assert game.state.to_move == BLACK
    advice = QuarryPlayable().best(game, Deadline(None), depth=1)
    assert advice.kind == DEFENCE
    assert QuarryPlayable().move_text(game, advice.move) == "block b3"
    assert "the only move that stops blue's win at once (block b3)" in advice.reason


def test_best_against_a_win_at_once_defends_or_says_it_is_lost():
    """Wherever the other has a win at once: DEFENCE with a move after which it has none, "the only
    move" exactly when one move does that; FORCED_LOSS exactly when no move does."""
    from placesat.quarry.threats import winning_moves

    met = set()
    for n in range(150):
        position, state = random_game(BOARDS[n % 3], SMALL_STONES, 3 + n % 5, 500 + n, first=PLAYERS[n % 2])
        if state.is_over:
            continue
        me, other = state.to_move, opponent(state.to_move)
        if winning_moves(state, me) or not winning_moves(state, other):
            continue
        if len(list(placements(state, me))) <= 1:
            continue  # the only legal move, said as such
        stoppers = [m for m, _ in placements(state, me) if not winning_moves(play(state, m), other)]
        advice = QuarryPlayable().best(Game(position, state), Deadline(None), depth=1)
        if stoppers:
            assert advice.kind == DEFENCE and advice.move in stoppers
            assert ("the only move" in advice.reason) == (len(stoppers) == 1)
        else:
            assert advice.kind == FORCED_LOSS
        met.add(advice.kind)
    assert met == {DEFENCE, FORCED_LOSS}


def test_best_finds_a_forced_win_the_minimax_confirms():
    met = 0
    for position, state in sample_positions(24, 11):
        me = state.to_move
        from placesat.quarry.threats import winning_moves

        if winning_moves(state, me) or winning_moves(state, opponent(me)) or not minimax(state, me, 2):
            continue
        advice = QuarryPlayable().best(Game(position, state), Deadline(None), depth=2)
        assert advice.kind == FORCED_WIN, position
        assert minimax(play(state, advice.move), me, 1)
        met += 1
    assert met


def test_best_stops_a_forced_win_the_minimax_confirms():
    """Where best says it stops the other's forced win within 2, the minimax agrees: the other,
    were it to move before, had one, and after best's move it has none."""
    met = 0
    for n in range(120):
        position, state = random_game(BOARDS[n % 3], SMALL_STONES, 2 + n % 4, 900 + n, first=PLAYERS[n % 2])
        if state.is_over:
            continue
        advice = QuarryPlayable().best(Game(position, state), Deadline(None), depth=2)
        if advice.kind != DEFENCE or "forced win" not in advice.reason:
            continue
        me, other = state.to_move, opponent(state.to_move)
        turned = state.copy()
        turned.to_move = other
        assert minimax(turned, other, 2)
        after = play(state, advice.move)
        assert after.winner == me or not minimax(after, other, 2)
        met += 1
    assert met


def test_best_is_deterministic_with_a_depth():
    position, state = random_game(Board(4, 3), SMALL_STONES, 3, 99)
    game = Game(position, state)
    first = QuarryPlayable().best(game, Deadline(None), depth=2)
    assert first == QuarryPlayable().best(game, Deadline(None), depth=2)
    assert first.kind in KINDS and first.reason


def test_a_whole_game_through_the_playable():
    """From the opening, best(depth=1) on both sides, each move checked by the rules, to the end
    (a 6 x 4 board with the small stone set: the default board takes half a minute)."""
    assert QuarryPlayable().opening(2).position == Position()
    playable = QuarryPlayable(Position(Board(6, 4), SMALL_STONES))
    game = playable.opening(2)
    assert playable.to_move(game) == seat(BLACK) and playable.players(game) == 2
    plies = 0
    while playable.outcome(game) is None:
        advice = playable.best(game, Deadline(None), depth=1)
        assert advice.move in playable.moves(game)
        text = playable.move_text(game, advice.move)
        assert playable.parse_move(game, text) == advice.move
        game = playable.play(game, advice.move)
        assert replay(game.position).height == game.state.height  # the record replays to the board
        plies += 1
        assert plies < 200
    outcome = playable.outcome(game)
    assert outcome.winner in (1, 2, None) and len(outcome.scores) == 2
    if outcome.winner is not None:
        assert line(game.state, PLAYERS[outcome.winner - 1]) is not None
    assert '"moves"' in playable.save_text(game)


# --------------------------------------------------------------------------- the commands


def write_game(tmp_path, game: Game) -> str:
    from placesat.quarry.model import dumps

    path = tmp_path / "game.json"
    path.write_text(dumps(game.position))
    return str(path)


def test_forced_command_answers_as_the_minimax(run_cli, tmp_path):
    import json

    # the position of test_best_blocks_the_single_threat_with_the_only_move: blue's block b3 wins
    # at once, but black moves first and can take it away
    game = game_of(Board(3, 2), ["post a3", "post b2", "block b1", "step a1 s"])
    path = write_game(tmp_path, game)
    for player, k in ((BLUE, 1), (BLACK, 1), (BLUE, 2), (BLACK, 2)):
        done = run_cli("quarry", "forced", path, "-k", str(k), "--player", player, "--json")
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert out["answer"] == ("win" if minimax(game.state, player, k) else "no forced win"), (player, k)
        assert out["title"].startswith(f"Can {player} force a line within {k} own move(s)?")


def test_forced_command_win_json_and_errors(run_cli, tmp_path):
    import json

    game = game_of(Board(3, 2), ["block a1", "block b3", "block a2", "post b2"])  # black: a block on a3 wins
    path = write_game(tmp_path, game)
    done = run_cli("quarry", "forced", path, "-k", "1", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["answer"] == "win" and out["within"] == 1
    assert out["line"][0] == out["move"] and out["strategy"]["then"] == {"reached": True}
    assert play(game.state, parse_move(out["move"], game.position.board, SMALL_STONES)).winner == BLACK
    done = run_cli("quarry", "forced", path, "-k", "0")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "--moves" in done.stderr
    # scattered-1's black K = 3 takes far more than 10 s (docs/performance.md, issue 40)
    done = run_cli("quarry", "forced", "grids/quarry/scattered-1.json", "--player", "black", "-k", "3", "--time-limit", "0.3")
    assert done.returncode == 1 and "Unknown: the time limit came first" in done.stdout


def test_best_command(run_cli, tmp_path):
    import json

    path = write_game(tmp_path, game_of(Board(3, 2), ["post a3", "post b2", "block b1", "step a1 s"]))
    done = run_cli("quarry", "best", path, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["move"] == "block b3" and out["kind"] == "defence" and out["player"] == "black"
    done = run_cli("quarry", "best", path, "--depth", "1")
    assert done.stdout.startswith("black: block b3 (defence): the only move that stops blue's win at once")


# --------------------------------------------------------------------------- a win not replayed in time


def test_a_win_whose_replay_does_not_finish_is_no_yes(monkeypatch):
    """The search finds black's win within 2 (the minimax confirms it), but the rules' replay runs
    out of time: ``forced`` answers unknown with why, ``best`` gives the move as an evaluation."""
    forced_module = importlib.import_module("placesat.quarry.forced")  # the package's forced() is the call
    play_module = importlib.import_module("placesat.quarry.play")
    from placesat.core.limits import TimeUp
    from placesat.core.play import EVALUATION
    from placesat.quarry.forced import UNKNOWN
    from placesat.quarry.threats import winning_moves

    def out_of_time(*args, **kwargs):
        raise TimeUp("the time limit came first")

    for position, state in sample_positions(24, 11):
        me = state.to_move
        if not winning_moves(state, me) and not winning_moves(state, opponent(me)) and minimax(state, me, 2):
            break
    else:
        pytest.fail("no sample position with a forced win within 2")
    assert forced_win(position, state, me, 2).answer == WIN  # with time to replay it: a yes
    monkeypatch.setattr(forced_module, "replay_win", out_of_time)
    monkeypatch.setattr(play_module, "replay_win", out_of_time)
    answer = forced_win(position, state, me, 2)
    assert answer.answer == UNKNOWN and answer.move is None and answer.line == []
    assert "its replay on the rules did not finish" in answer.note
    advice = QuarryPlayable().best(Game(position, state), Deadline(None), depth=2)
    assert advice.kind == EVALUATION and advice.line == () and advice.evaluation is not None
    assert "did not finish in the time, so no win is claimed" in advice.reason
    assert "wins by force" not in advice.reason


def test_forced_command_says_an_unreplayed_win_is_unknown(monkeypatch, tmp_path):
    """The command in-process, its replay made to run out of time: "Unknown", why, exit code 1."""
    forced_module = importlib.import_module("placesat.quarry.forced")  # the package's forced() is the call
    from placesat.core.limits import TimeUp
    from typer.testing import CliRunner

    from placesat.cli.quarry import app

    def out_of_time(*args, **kwargs):
        raise TimeUp("the time limit came first")

    path = write_game(tmp_path, game_of(Board(3, 2), ["block a1", "block b3", "block a2", "post b2"]))
    monkeypatch.setattr(forced_module, "replay_win", out_of_time)
    done = CliRunner().invoke(app, ["forced", path, "-k", "1"])
    assert done.exit_code == 1, done.output
    assert "Unknown: a win within 1 own move(s) was found, but its replay on the rules did not finish in the time." in done.output
    assert "Yes" not in done.output and "line of play" not in done.output
