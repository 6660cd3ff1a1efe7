"""LSD's forced wins replayed on the plain rules against every reply, and the position key the
replay shares transpositions by."""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from placesat.core.andor import AndOrSearch, StrategyFailed, replay_strategy
from placesat.core.limits import Deadline, TimeUp
from placesat.lsd.forced import (
    NO_WIN,
    UNKNOWN,
    WIN,
    LsdGame,
    Node,
    Replaying,
    RulesView,
    forced_win,
    plies_of,
    replay_key,
    replay_win,
)
from placesat.lsd.model import Tile, load_game, parse_move, position_key
from placesat.lsd.rules import is_over, legal_moves, play, winner

from .lsd_brute import forced_win as minimax
from .lsd_brute import random_position

forced_module = importlib.import_module("placesat.lsd.forced")  # the package exports a function of that name
GRIDS = Path(__file__).resolve().parent.parent / "grids" / "lsd"


def _proven(position, player, depth):
    """A search that proved ``player``'s win within ``depth`` plies."""
    search = AndOrSearch(LsdGame(player))
    assert search.wins(Node(position, winner(position)), depth, deepen=False)
    return search


# --- the position key -------------------------------------------------------------------------


def _transposition():
    """Two move orders (a, b, c and c, b, a) from double-threat.json reaching one position."""
    start = load_game(str(GRIDS / "double-threat.json"))
    first = legal_moves(start)
    for a in first:
        after_a = play(start, a)
        for b in legal_moves(after_a)[:6]:
            after_b = play(after_a, b)
            for c in legal_moves(after_b):
                if c.cell == a.cell or c not in first:
                    continue
                try:
                    other = play(play(play(start, c), b), a)
                except Exception:  # the other order is not legal: try the next
                    continue
                one = play(after_b, c)
                if one == other and list(one.field) != list(other.field):
                    return one, other
    raise AssertionError("no transposition found")


def test_two_move_orders_give_the_same_key():
    one, other = _transposition()
    assert list(one.field) != list(other.field)  # the dicts hold the tiles in different orders
    assert position_key(one) == position_key(other)
    assert hash(position_key(one)) == hash(position_key(other))
    assert replay_key(Replaying(one, 3)) == replay_key(Replaying(other, 5))  # the plies played are no part


def test_every_part_of_a_position_is_in_its_key():
    base = load_game(str(GRIDS / "mid20.json"))
    cell, tile = next(iter(base.field.items()))
    field_without = {c: t for c, t in base.field.items() if c != cell}
    turned = dict(base.field)
    turned[cell] = Tile(tile.player, tile.dots ^ 1, tile.icon)
    owned = dict(base.field)
    owned[cell] = Tile(tile.player % base.players + 1, tile.dots, tile.icon)
    captured = list(base.captured)
    captured[0] = ((tile.kind, 1),) + tuple(captured[0])
    supplies = list(base.supplies)
    supplies[0] = supplies[0][1:]
    variants = [
        replace(base, players=4),
        replace(base, icon_colours=tuple(reversed(base.icon_colours))),
        replace(base, tileset=base.tileset[1:]),
        replace(base, field=field_without),
        replace(base, field=turned),
        replace(base, field=owned),
        replace(base, captured=tuple(captured)),
        replace(base, supplies=tuple(supplies)),
        replace(base, to_move=base.next_player()),
    ]
    keys = {position_key(base)} | {position_key(v) for v in variants}
    assert len(keys) == len(variants) + 1


# --- the replay -------------------------------------------------------------------------------


def test_the_double_threat_win_is_replayed_against_every_reply():
    position = load_game(str(GRIDS / "double-threat.json"))
    answer = forced_win(position, 1, 3)
    assert answer.answer == WIN and answer.within == 3 and answer.replayed > 0
    replayed = replay_win(_proven(position, 1, 3), position, 1, 3, Deadline.never())
    first = replayed.tree.move
    after = play(position, first)
    assert [reply for reply, _ in replayed.tree.then.replies] == legal_moves(after)
    for reply, node in replayed.tree.then.replies:
        assert winner(play(play(after, reply), node.move)) == 1
    assert replayed.own_moves_used == 2


def test_random_wins_are_replayed_and_transpositions_shared():
    """Wins of 2 and 4 players (checked against minimax) all pass the replay; without the key
    (positions unhashable: nothing shared) the replay gives the same tree, visiting more."""
    rng = random.Random(2)
    wins = {2: 0, 4: 0}
    shared = 0
    for _ in range(40):
        players = rng.choice([2, 4])
        position = random_position(rng, players, moves=rng.randint(4, 14), kinds=rng.choice([4, 5]), per_kind=3)
        if is_over(position):
            continue
        player = rng.randint(1, players)
        for depth in (2, 3, 5):  # transpositions need two plies of one other player: 5 plies
            answer = forced_win(position, player, depth)
            if depth <= 3:
                assert (answer.answer == WIN) == minimax(position, player, depth)
            if answer.answer != WIN or answer.within == 0:
                continue
            assert answer.replayed > 0
            wins[players] += 1
            search = _proven(position, player, answer.within)
            keyed = replay_win(search, position, player, answer.within, Deadline.never())
            plain = _replay(search, position, player, answer.within, key=None)
            assert keyed.tree == plain.tree and keyed.positions <= plain.positions
            shared += keyed.positions < plain.positions
    assert wins[2] >= 3 and wins[4] >= 3 and shared >= 1, (wins, shared)


def _replay(search, position, player, within, key, mutate=None):
    """The replay :func:`replay_win` makes, with the key given and the chooser perhaps mutated."""

    def choose(at):
        node = Node(at.position, None)
        left = within - at.ply
        if left <= 0 or not search.wins(node, left, deepen=False):
            return None
        move = search.best_move(node)
        return mutate(at, move) if mutate else move

    return replay_strategy(RulesView(), Replaying(position), player, plies_of(position, player, within), choose, key=key)


def test_a_wrong_strategy_is_refused():
    position = load_game(str(GRIDS / "double-threat.json"))
    search = _proven(position, 1, 3)

    def wrong_answer(at, move):
        """After player 2's first reply, a legal move of player 1 that does not win at once."""
        if at.ply != 2:
            return move
        return next(m for m in legal_moves(at.position) if winner(play(at.position, m)) != 1)

    def wrong_first(at, move):
        """A first move other than the search's: one that leaves player 2 a block of every threat."""
        if at.ply != 0:
            return move
        return next(m for m in legal_moves(at.position) if not minimax(play(at.position, m), 1, 2))

    for mutate in (wrong_answer, wrong_first):
        with pytest.raises(StrategyFailed):
            _replay(search, position, 1, 3, replay_key, mutate)
    _replay(search, position, 1, 3, replay_key)  # unchanged, it wins


def test_a_replay_the_time_cuts_short_is_unknown(monkeypatch):
    position = load_game(str(GRIDS / "double-threat.json"))

    def out_of_time(*args, **kwargs):
        raise TimeUp("the time limit came first")

    monkeypatch.setattr(forced_module, "replay_win", out_of_time)
    answer = forced_win(position, 1, 3)
    assert answer.answer == UNKNOWN and answer.move is None and answer.within is None
    assert answer.no_win_within == 1  # the depth settled before the win was found stays known
    assert "its replay on the rules did not finish" in answer.note and answer.to_json()["note"] == answer.note


def test_a_strategy_the_rules_refuse_is_an_error(monkeypatch):
    position = load_game(str(GRIDS / "double-threat.json"))
    monkeypatch.setattr(AndOrSearch, "best_move", lambda self, state: legal_moves(state.position)[-1])
    with pytest.raises(RuntimeError, match="failed its replay"):
        forced_win(position, 1, 3)


def test_no_win_and_unreplayed_answers_replay_nothing():
    position = load_game(str(GRIDS / "mid20.json"))
    assert forced_win(position, 1, 3).answer == NO_WIN
    double = load_game(str(GRIDS / "double-threat.json"))
    unchecked = forced_win(double, 1, 3, check=False)
    assert unchecked.answer == WIN and unchecked.replayed == 0 and unchecked.move == parse_move("1,2 EW+")


def test_a_mid_game_win_of_three_own_moves_is_replayed():
    """mid20-win3.json: mid20.json with a tile more of player 1's (6,-5 N+), player 1 to move,
    who forces a line within 3 own moves (5 plies) but not 2; the replay accepts the search's
    strategy, and refuses it with player 1's second move changed."""
    position = load_game(str(GRIDS / "mid20-win3.json"))
    assert forced_win(position, 1, 3).answer == NO_WIN
    answer = forced_win(position, 1, 5)
    assert answer.answer == WIN and answer.within == 5 and answer.replayed > 0
    search = _proven(position, 1, 5)
    tree = _replay(search, position, 1, 5, replay_key).tree
    assert [reply for reply, _ in tree.then.replies] == legal_moves(play(position, tree.move))

    def wrong_second(at, move):
        """Player 1's second move swapped for the first legal one that is not the search's."""
        return next(m for m in legal_moves(at.position) if m != move) if at.ply == 2 else move

    with pytest.raises(StrategyFailed):
        _replay(search, position, 1, 5, replay_key, wrong_second)


def test_the_command_says_the_win_was_replayed(run_cli):
    path = str(GRIDS / "mid20-win3.json")
    done = run_cli("lsd", "forced", path, "-k", "3")
    assert done.returncode == 0, done.stderr
    assert "win: player 1 forces a line within 5 plies" in done.stdout
    assert "the strategy replayed on the rules against every reply (150 positions)" in done.stdout
    done = run_cli("lsd", "forced", path, "-k", "3", "--json")
    answer = json.loads(done.stdout)
    assert answer["answer"] == "win" and answer["replayed"] == 150
    done = run_cli("lsd", "forced", str(GRIDS / "mid20.json"), "-k", "3", "--json")
    assert json.loads(done.stdout)["replayed"] == 0  # a "no" has nothing to replay
