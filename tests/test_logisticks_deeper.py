"""Logi-Sticks' cheaper search nodes (issue 40, deeper forced search) against the plain rules:
the move generator against :func:`placement_problem` square by square and kind by kind, the
signals worked out from the parent's (:func:`signals_after`) against a fresh evaluation, along
seeded random games with 2 and 4 players (Capacitors placed and waiting included); the
target's second-to-last moves refuted quietly (:meth:`LogiGame._threatening`) against the
plain search, and the lemma it rests on (:func:`_new_threat_squares`)."""

from __future__ import annotations

import random
from dataclasses import replace

from placesat.logisticks.forced import Goal, Node, _new_threat_squares, goal_moves
from placesat.logisticks.model import ALL_KINDS, BOARD, CENTRE_POINTS, Placement
from placesat.logisticks.rules import apply_move, legal_placements, placement_problem, scores, signals, signals_after

from .logisticks_brute import playout_position, random_start
from .test_logisticks_prune import search


def random_games(seeds: range, players: int, moves: int):
    """Every position along seeded random games from the start (each move a random legal one)."""
    for seed in seeds:
        rng = random.Random(seed)
        position = random_start(seed, players)
        for _ in range(moves):
            options = legal_placements(position)
            move = rng.choice(options) if options else None
            yield position, move
            position = apply_move(position, move)


def test_the_move_generator_is_placement_problem():
    checked = 0
    for position, _ in random_games(range(2), 2, 36):
        for player in range(1, position.players + 1):
            for turn in (position.turn, None):
                plain = [Placement(square, kind) for square in sorted(BOARD.points) if square not in CENTRE_POINTS
                         for kind in ALL_KINDS
                         if placement_problem(position, Placement(square, kind), player, turn) is None]
                assert legal_placements(position, player, turn) == plain
                checked += len(plain)
    assert checked > 500


def test_signals_after_one_placement_are_the_signals():
    settled_later = 0
    for players in (2, 4):
        for position, move in random_games(range(8), players, 44):
            if move is None:
                continue
            before = signals(position)
            after = apply_move(position, move)
            fresh = signals(after)
            assert signals_after(after, before, move.square) == fresh
            settled_later += sum(1 for square, value in before.items() if value is None and fresh[square] is not None)
    assert settled_later > 0  # some placements settled pieces already on the board


def test_quiet_refutations_keep_every_answer():
    # seeded random 2-player mid-games with six pieces left: the target's second-to-last
    # moves refuted quietly (LogiGame._threatening) change no answer of the plain search
    plain_nodes = pruned_nodes = cut = wins = 0
    for seed in range(6):
        position = playout_position(seed, 18 + seed % 12, 6, 2)
        player = position.to_move
        for more in (1, 2):
            goal = Goal(player, score=scores(position)[player].points + more)
            for own in (2, 3):
                plain, plain_count, _ = search(position, goal, own, prune=False)
                pruned, pruned_count, cuts = search(position, goal, own, prune=True, cut="threats_cut")
                assert plain == pruned, (seed, more, own)
                plain_nodes += plain_count
                pruned_nodes += pruned_count
                cut += cuts
                wins += plain
    assert cut > 0 and wins > 0  # the cut was used, and some answers are wins
    assert pruned_nodes < plain_nodes


def test_quiet_refutations_with_four_players():
    # each of the three others places in turn (LogiGame._quiet_replies); seed 0 is a win
    # within 2 own moves, seed 2 not (the cut leaves 12 of the plain search's 132 positions)
    plain_nodes = pruned_nodes = cut = 0
    for seed in (0, 2):
        position = playout_position(seed, 16 + seed % 8, 8, 4)
        player = position.to_move
        goal = Goal(player, score=scores(position)[player].points + 1)
        plain, plain_count, _ = search(position, goal, 2, prune=False)
        pruned, pruned_count, cuts = search(position, goal, 2, prune=True, cut="threats_cut")
        assert plain == pruned, seed
        plain_nodes += plain_count
        pruned_nodes += pruned_count
        cut += cuts
    assert cut > 0
    assert pruned_nodes <= plain_nodes


def test_new_goal_moves_lie_next_to_the_new_piece_downstream():
    # the lemma of _new_threat_squares, on the positions along random games: after a placement
    # of the player to move, every goal move of the next player (one point more, same turn)
    # that it did not have without the placement lies where _new_threat_squares says
    checked = new = 0
    for position, move in random_games(range(8), 2, 40):
        if move is None:
            continue
        nxt = position.next_player()
        goal = Goal(nxt, score=scores(position)[nxt].points + 1)
        before = replace(position, to_move=nxt, turn=position.turn + 1)
        wanted = {square for square, _ in goal.open_targets(position, signals(position))}
        after = apply_move(position, move)
        if goal.reached(after):
            continue
        fresh = set(goal_moves(Node(after), goal)) - set(goal_moves(Node(before), goal))
        where = _new_threat_squares(after, move.square, wanted)
        assert where is None or all(g.square in where for g in fresh), (move, fresh)
        checked += 1
        new += bool(fresh)
    assert checked > 100 and new > 0
