"""LSD's field symmetries (solver/lsd/model.py) and selfplay's first moves merged under them."""

from __future__ import annotations

from placesat.core.play import canonical_move_text
from placesat.core.selfplay import GameResult, SelfplayReport, parse_engine
from placesat.lsd.model import SYMMETRIES, field_symmetries, move_text, parse_move, transform_move
from placesat.lsd.play import LsdPlay
from placesat.lsd.rules import legal_moves, play_turn, winner

from .test_review import GAME


def test_every_symmetry_maps_a_game_onto_an_equal_game():
    """Brute force over the eight symmetries: the game's moves, moved, are legal move by move,
    capture as many tiles and end with the same winner; the legal moves map onto each other."""
    game = LsdPlay()
    for symmetry in SYMMETRIES:
        plain, moved = game.opening(2), game.opening(2)
        for text in GAME:
            move = parse_move(text)
            image = transform_move(move, symmetry)
            assert {move_text(transform_move(m, symmetry)) for m in legal_moves(plain)} == {move_text(m) for m in legal_moves(moved)}
            turn, turned = play_turn(plain, move), play_turn(moved, image)
            assert len(turn.captured) == len(turned.captured)
            plain, moved = turn.after, turned.after
        assert winner(plain) == winner(moved) == 1


def test_the_first_moves_fall_into_one_class_per_kind():
    """On the empty field every symmetry holds, and the first tile goes on 0,0: its turnings
    and mirror images are one move, so there is one class per kind in the supply."""
    game = LsdPlay()
    start = game.opening(2)
    assert field_symmetries(start) == list(SYMMETRIES)
    firsts = list(legal_moves(start))
    classes = {canonical_move_text(game, start, move_text(m)) for m in firsts}
    kinds = {m.kind for m in firsts}
    assert len(classes) == len(kinds)
    assert canonical_move_text(game, start, "0,0 N+") == canonical_move_text(game, start, "0,0 W+")
    after = play_turn(start, parse_move("0,0 NE+")).after  # a field with one mirror symmetry only
    assert len(field_symmetries(after)) == 2


def test_selfplay_report_merges_first_moves():
    engine = parse_engine("random")
    report = SelfplayReport("lsd", 2, 1, (engine, engine), 0, 2, True)
    report.results = [GameResult(0, ["0,0 N+"], 1, "", True), GameResult(1, ["0,0 S+"], 2, "", True), GameResult(2, ["0,0 NSx"], 1, "", True)]
    assert report.first_moves()[0][1:] == (1, 1)  # not merged without the game's hook
    game = LsdPlay()
    start = game.opening(2)
    report.same_move = lambda text: canonical_move_text(game, start, text)
    ranked = report.first_moves()
    assert ranked[0][1:] == (2, 1) and ranked[0][0] == canonical_move_text(game, start, "0,0 E+")
    assert report.to_json()["first_moves_merged_by_symmetry"] is True
