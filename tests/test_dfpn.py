"""The proof-number search (placesat.core.dfpn) against plain minimax and the iterative-deepening
search: on a toy game (m,n,k: k in a row on an m x n board), with tables too small to hold the
search, under a deadline; and every game's ``forced`` with both searches on small positions (the
games' own test files check the default search against their brute force)."""

from __future__ import annotations

import random

import pytest

from placesat.core.andor import AndOrSearch, Settled
from placesat.core.dfpn import SEARCHES, ProofNumberSearch, new_search
from placesat.core.errors import InputError
from placesat.core.limits import Deadline, TimeUp


class KInARow:
    """k in a row on an m x n board, seen from ``target`` (1 or 2); a state is (cells, mover)."""

    def __init__(self, m: int, n: int, k: int, target: int) -> None:
        self.n, self.target = n, target
        self.lines = []
        for r in range(m):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(k)]
                    if all(0 <= a < m and 0 <= b < n for a, b in cells):
                        self.lines.append([a * n + b for a, b in cells])
        self.cells = m * n

    def empty(self):
        return (0,) * self.cells, 1

    def key(self, state):
        return state

    def winner(self, state):
        cells = state[0]
        for line in self.lines:
            if cells[line[0]] and all(cells[i] == cells[line[0]] for i in line):
                return cells[line[0]]
        return None

    def result(self, state):
        won = self.winner(state)
        if won is not None:
            return won == self.target
        return False if all(state[0]) else None

    def target_moves(self, state):
        return state[1] == self.target

    def moves(self, state):
        return [i for i, v in enumerate(state[0]) if not v]

    def play(self, state, move):
        cells = list(state[0])
        cells[move] = state[1]
        return tuple(cells), 3 - state[1]

    def settle(self, state, depth):
        return None

    def hopeless(self, state, depth):
        return False

    def order(self, state, moves):
        return moves


class WithSettle(KInARow):
    """The same game with a cut-off: the target's last ply is settled by looking for a line at once."""

    def settle(self, state, depth):
        if depth == 1 and self.target_moves(state):
            for move in self.moves(state):
                if self.result(self.play(state, move)) is True:
                    return Settled(True, move)
            return Settled(False)
        return None


def minimax(game: KInARow, state, depth: int, memo: dict | None = None) -> bool:
    """Plain minimax (each state and depth worked out once): can the target reach its goal
    within ``depth`` plies?"""
    memo = {} if memo is None else memo
    if (state, depth) in memo:
        return memo[state, depth]
    ended = game.result(state)
    if ended is not None:
        return ended
    if depth <= 0:
        return False
    children = (minimax(game, game.play(state, move), depth - 1, memo) for move in game.moves(state))
    value = memo[state, depth] = any(children) if game.target_moves(state) else all(children)
    return value


def random_state(game: KInARow, rng: random.Random, stones: int):
    while True:
        state = game.empty()
        for _ in range(stones):
            state = game.play(state, rng.choice(game.moves(state)))
            if game.result(state) is not None:
                break
        else:
            return state


def boards(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        m, n, k = rng.choice([(3, 3, 3), (3, 4, 3), (4, 4, 3)])
        kind = rng.choice([KInARow, WithSettle])
        game = kind(m, n, k, rng.choice([1, 2]))
        yield game, random_state(game, rng, rng.randrange(2, 7) if m * n > 9 else rng.randrange(1, 5))


def test_dfpn_equals_minimax_and_the_iterative_search():
    seen = {True: 0, False: 0}
    for game, state in boards(40, 1):
        search = ProofNumberSearch(game)
        for depth in range(0, 6):
            expected = minimax(game, state, depth)
            assert search.wins(state, depth, deepen=False) == expected, (state, depth)
            assert AndOrSearch(game).wins(state, depth, deepen=False) == expected
            seen[expected] += 1
            if expected and game.target_moves(state) and game.result(state) is None and depth > 0:
                move = search.best_move(state)
                assert move is not None and minimax(game, game.play(state, move), depth - 1)
            elif not expected and not game.target_moves(state) and game.result(state) is None and depth > 0:
                refutation = search.best_move(state)  # a reply after which no win is left
                assert refutation is not None and not minimax(game, game.play(state, refutation), depth - 1)
    assert seen[True] >= 15 and seen[False] >= 15


def test_a_win_at_once_and_a_proof_reused_for_more_plies():
    game = KInARow(3, 3, 3, 1)
    state = ((1, 1, 0, 2, 2, 0, 0, 0, 0), 1)  # X to play c1 for the top row
    search = ProofNumberSearch(game)
    assert search.wins(state, 1) and search.best_move(state) == 2
    nodes = search.stats.nodes
    assert search.wins(state, 5, deepen=False) and search.stats.nodes == nodes  # from the table, no search
    assert not ProofNumberSearch(KInARow(3, 3, 3, 2)).wins(state, 2)  # O cannot stop it and win


def test_a_tiny_table_gives_the_same_answers_and_never_grows_past_its_cap():
    for game, state in boards(12, 2):
        expected = [minimax(game, state, depth) for depth in range(1, 6)]
        # room for a few dozen entries: far less than the searches below make
        search = ProofNumberSearch(game, table_mb=0.02)
        assert [search.wins(state, depth, deepen=False) for depth in range(1, 6)] == expected
        assert search.most_used <= search.capacity
        assert sum(entry.cost for entry in search.table.values()) == search.used
    big = KInARow(4, 4, 3, 1)
    search = ProofNumberSearch(big, table_mb=0.02)
    assert search.wins(big.empty(), 5, deepen=False) == minimax(big, big.empty(), 5)
    assert search.evicted > 0 and search.most_used <= search.capacity


def test_the_iterative_search_keeps_to_its_cap_too():
    for game, state in boards(12, 4):
        search = AndOrSearch(game, table_mb=0.02)
        assert [search.wins(state, depth, deepen=False) for depth in range(1, 6)] == [minimax(game, state, d) for d in range(1, 6)]
        assert search.most_entries * search.entry_bytes <= search.capacity
    big = KInARow(4, 4, 3, 1)
    search = AndOrSearch(big, table_mb=0.02)
    assert search.wins(big.empty(), 5) == minimax(big, big.empty(), 5)
    assert search.evicted > 0 and search.most_entries * search.entry_bytes <= search.capacity


def test_the_deadline_holds_and_the_search_goes_on_after_it():
    game = KInARow(4, 4, 3, 1)
    search = ProofNumberSearch(game, Deadline(0))
    with pytest.raises(TimeUp):
        search.wins(game.empty(), 7)
    search.deadline = Deadline.never()  # what was stored before the limit is sound
    assert search.wins(game.empty(), 5, deepen=False) == minimax(game, game.empty(), 5)


def test_choosing_a_search():
    game = KInARow(3, 3, 3, 1)
    assert isinstance(new_search(game, None, "dfpn", 1), ProofNumberSearch)
    assert isinstance(new_search(game, None, "id"), AndOrSearch)
    with pytest.raises(InputError, match="--search"):
        new_search(game, None, "bfs")
    with pytest.raises(ValueError):
        ProofNumberSearch(game, table_mb=0)


# --- every game's forced, with both searches ---------------------------------------------------


def _answers(ask, ks):
    return {search: [(a.answer, a.within) for a in (ask(k, search) for k in ks)] for search in SEARCHES}


def test_laido_both_searches():
    from placesat.laido.forced import forced_win

    from .test_laido_forced import CASES, random_position

    for seed, side, empty in CASES[:2]:
        position = random_position(random.Random(1000 * side + 10 * empty + seed), side, empty)
        answers = _answers(lambda k, s: forced_win(position, k, searcher=s), (1, 2, 3))
        assert answers["dfpn"] == answers["id"], position


def test_lsd_both_searches():
    from placesat.lsd.forced import forced_win

    from .lsd_brute import forced_win as minimax
    from .lsd_brute import random_position

    rng = random.Random(5)
    met = set()
    for _ in range(25):
        position = random_position(rng, rng.choice([2, 4]), moves=rng.randint(4, 14), kinds=rng.choice([4, 5]), per_kind=3)
        from placesat.lsd.rules import is_over

        if is_over(position):
            continue
        for depth in (2, 3):
            expected = minimax(position, position.to_move, depth)
            for search in SEARCHES:
                answer = forced_win(position, position.to_move, depth, searcher=search, table_mb=1)
                assert (answer.answer == "win") == expected, (position, depth, search)
            met.add(expected)
    assert met == {True, False}


def test_quarry_both_searches():
    from placesat.quarry.forced import forced_win
    from placesat.quarry.model import PLAYERS

    from .test_quarry_forced import minimax, sample_positions

    for position, state in sample_positions(6, 3):
        for target in PLAYERS:
            expected = minimax(state, target, 2)
            for search in SEARCHES:
                assert (forced_win(position, state, target, 2, searcher=search).answer == "win") == expected


def test_logisticks_both_searches():
    from placesat.logisticks.forced import Goal, forced

    from .test_logisticks_forced import cases, minimax

    for seed in (9, 79):
        position, player, goals = cases(seed)
        for score, target in goals:
            for own in (1, 2):
                expected = minimax(position, player, score, target, own)
                for search in SEARCHES:
                    got = forced(position, Goal(player, score=score, target=target), own, searcher=search)
                    assert (got.answer == "win") == expected, (seed, score, target, own, search)


def test_lixso_game_both_searches():
    from placesat.lixso.game.forced import forced

    from .test_lixso_game_forced import CASES, brute_force, late_position

    for seed, players, laid, turns in CASES[:12]:
        rules, state = late_position(seed, players, laid)
        if state.over:
            continue
        expected = brute_force(rules, state, turns)
        for search in SEARCHES:
            answer = forced(rules, state, turns, use_solve=False, use_bounds=False, searcher=search)
            assert (answer.answer == "win") == expected, (seed, players, laid, turns, search)


@pytest.mark.parametrize("args", [
    ["laido", "forced", "grids/laido/mid9-1.json", "-k", "2"],
    ["quarry", "forced", "grids/quarry/scattered-2.json", "-k", "3"],
    ["lsd", "forced", "grids/lsd/mid20.json", "-p", "1", "-d", "11"],
    ["logisticks", "forced", "grids/logisticks/late.json", "-k", "4", "--score", "4"],
    ["lixso", "game", "forced", "grids/lixso-game/9x9-midgame.txt", "-k", "6"],
], ids=["laido", "quarry", "lsd", "logisticks", "lixso"])
def test_forced_commands_hold_the_time_limit_with_dfpn(run_cli, args):
    result = run_cli(*args, "--time-limit", "0.5", "--search", "dfpn", "--tt-mb", "16")
    assert result.returncode == 1 and "unknown" in result.stdout.lower(), (result.stdout, result.stderr)


def test_search_options_refuse_bad_values(run_cli):
    for option in (["--search", "bfs"], ["--tt-mb", "0"]):
        result = run_cli("laido", "forced", "grids/laido/forced3.json", "-k", "1", *option)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_ctrl_c_on_a_dfpn_forced_search():
    import signal
    import subprocess
    import time

    from .conftest import ROOT, placesat_command

    process = subprocess.Popen(placesat_command() + ["quarry", "forced", "grids/quarry/scattered-2.json", "-k", "3", "--search", "dfpn"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        time.sleep(4)  # in the search by then, even on a loaded machine (K = 3 takes a minute)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.decode().strip().splitlines() == ["placesat: interrupted"]


class DepthCut:
    """A one-player game whose cut depends on the plies left, as Quarry's do: from the start,
    ``a`` leads nowhere and ``b`` needs one more move, ``w``, to win; with one ply left, ``settle``
    keeps ``a`` alone (``b`` cannot win in time: a sound cut at that depth only)."""

    target = 1
    _kept = None

    def key(self, state):
        return state

    def result(self, state):
        return True if state == "won" else (False if state == "a" else None)

    def target_moves(self, state):
        return True

    def moves(self, state):
        if state == "start":
            return ["a"] if self._kept == state else ["a", "b"]
        return ["w"]

    def play(self, state, move):
        return {"a": "a", "b": "b", "w": "won"}[move]

    def settle(self, state, depth):
        self._kept = state if state == "start" and depth < 2 else None
        return None

    def hopeless(self, state, depth):
        return False

    def order(self, state, moves):
        return moves


def test_a_position_met_deeper_lists_its_moves_again():
    """A move list kept for fewer plies is not the one for more: the win within 2 plies is
    found after the search within 1 (the entry's moves are asked again at the new depth)."""
    search = ProofNumberSearch(DepthCut())
    assert not search.wins("start", 1, deepen=False)
    assert search.wins("start", 2, deepen=False)
    assert search.best_move("start") == "b"
    assert ProofNumberSearch(DepthCut()).wins("start", 2, deepen=False)
