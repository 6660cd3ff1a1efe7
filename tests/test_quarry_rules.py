"""The Quarry referee: the scan's pictured examples, where stones come to rest, the top view, the
winning line, turns, passes and tournament points."""

from __future__ import annotations

from pathlib import Path

import pytest

from placesat.quarry.model import BLACK, BLUE, INSIDE, PASS, Board, Placement, Position, load_position, parse_move
from placesat.quarry.rules import IllegalMove, State, check_placement, line, placements, play, record, replay, tournament_points

from .quarry_brute import SMALL_STONES, all_placements, literal_legal_bases, random_game

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"


def load(name: str) -> tuple[Position, State]:
    position = load_position(str(GRIDS / f"{name}.json"))
    return position, replay(position)


def move(state: State, text: str):
    return parse_move(text, state.board, state.stones)


# The scan's pictures are lost; each position is our reading of a caption (seeds/quarry.md), and
# the move is the pictured one, played by black.
PICTURED = [
    ("crossing-beam", "beam c5 e", None),  # ends on own blocks, middle over blue's brick
    ("overhanging-span", "span c5 e", "overhang"),  # rests on the block at c5, hangs over d5-f5
    ("overhanging-corner", "corner c5 e", "overhang"),  # a tip on the block, the rest over the board
    ("step-placement", "step c5 e down", None),  # the step's raised end on own block
    ("step-on-opponent", "step c5 e down", "end on the opponent"),  # ... on blue's block
    ("span-cutting-off", "span c5 e", None),  # ends on own blocks, middles over blue's beam and block
    ("arch-over-beam", "arch d4 s", None),  # legs on the board, the opening over blue's beam
    ("post-keeps-from-crossing", "post d5", None),  # then blue cannot cross c5-e5 (below)
]


@pytest.mark.parametrize("name, text, broken", PICTURED)
def test_pictured_examples(name, text, broken):
    position, state = load(name)
    assert state.to_move == BLACK and state.winner is None
    if broken is None:
        after = play(state, move(state, text))
        assert after.laid[-1].player == BLACK
    else:
        with pytest.raises(IllegalMove, match=broken):
            play(state, move(state, text))


def test_crossing_beam_rests_on_both_colours():
    _, state = load("crossing-beam")
    after = play(state, move(state, "beam c5 e"))
    assert after.laid[-1].base == 1
    assert [after.top_at((4, c)) for c in (2, 3, 4)] == [BLACK, BLACK, BLACK]  # c5 d5 e5, d5 was blue
    assert [after.height_at((4, c)) for c in (2, 3, 4)] == [2, 2, 2]


def test_span_cuts_off_the_opponent():
    _, state = load("span-cutting-off")
    # blue's beam d4-d6 is one region before: d5 shows blue
    assert state.top_at((4, 3)) == BLUE
    after = play(state, move(state, "span c5 e"))
    assert after.top_at((4, 3)) == BLACK and after.top_at((4, 4)) == BLACK
    assert after.top_at((3, 3)) == BLUE and after.top_at((5, 3)) == BLUE  # d4 and d6 now apart


def test_arch_over_a_beam_shows_the_arch_and_covers_the_opening():
    _, state = load("arch-over-beam")
    after = play(state, move(state, "arch d4 s"))
    assert after.top_at((4, 3)) == BLACK  # d5: the arch's bar over blue's beam
    assert after.height_at((4, 3)) == 2 and after.height_at((3, 3)) == 2
    # nothing may ever go under the arch's bar, even into the open cell of another arch
    _, empty = load("empty")
    arched = play(empty, move(empty, "arch d4 s"))
    assert arched.height_at((4, 3)) == 2  # the open cell d5 counts as covered
    with pytest.raises(IllegalMove):
        play(arched, move(arched, "block d5"))  # would rest at height 2, on the arch: blue's colour


def test_post_keeps_the_opponent_from_crossing():
    _, state = load("post-keeps-from-crossing")
    with_block = play(state, move(state, "block d5"))
    assert play(with_block, move(with_block, "beam c5 e")).laid[-1].base == 1  # blue crosses a block
    with_post = play(state, move(state, "post d5"))
    with pytest.raises(IllegalMove, match="overhang"):
        play(with_post, move(with_post, "beam c5 e"))  # the post stands a level higher than blue's ends


def test_step_upright_and_upside_down():
    _, state = load("empty")
    upright = play(state, move(state, "step c5 e"))
    assert upright.height_at((4, 2)) == 2 and upright.height_at((4, 3)) == 1
    with pytest.raises(IllegalMove, match="overhang"):
        play(state, move(state, "step c5 e down"))  # its raised end would hang over the board


@pytest.mark.parametrize("name, winner", [("black-wins", BLACK), ("blue-wins", BLUE)])
def test_the_scan_s_wins(name, winner):
    _, state = load(name)
    assert state.winner == winner
    found = line(state, winner)
    assert found[0][0] == 0 and found[-1][0] == state.board.length - 1
    assert all(state.top_at(cell) == winner for cell in found)
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(found, found[1:]))
    assert line(state, BLACK if winner == BLUE else BLUE) is None
    with pytest.raises(IllegalMove, match="game is over"):
        play(state, move(state, "block i9"))


def test_blue_wins_by_crossing_over_black():
    _, state = load("blue-wins")
    assert state.laid[-1].base == 1 and state.top_at((4, 4)) == BLUE  # e5 over black's beam


def test_diagonal_does_not_connect():
    position = Position(Board(3, 2))
    state = replay(position)
    for text in ("block a1", "block b1", "block b2", "block a2"):
        position, state = record(position, state, move(state, text))
    # black a1 and b2 touch only at a corner; blue holds the other two
    for text in ("block a3", "block b3"):
        position, state = record(position, state, move(state, text))
    assert state.winner is None and line(state, BLACK) is None


def test_too_high_and_off_the_board():
    position, state = load("empty")
    for text in ("pillar a1", "pillar i10", "post a1"):
        position, state = record(position, state, move(state, text))
    assert state.height_at((0, 0)) == 5
    with pytest.raises(IllegalMove, match="too high"):
        check_placement(state, state.to_move, move(state, "block a1"))
    with pytest.raises(IllegalMove, match="off the board"):
        check_placement(state, state.to_move, move(state, "span g1 e"))


def test_stones_run_out():
    position, state = load("empty")
    for i in range(5):
        position, state = record(position, state, move(state, f"block a{2 * i + 1}"))
        position, state = record(position, state, move(state, f"block i{2 * i + 1}"))
    with pytest.raises(IllegalMove, match="no block left"):
        play(state, move(state, "block e5"))


def test_replay_names_the_move_and_the_rule():
    from placesat.quarry.model import Played

    position, state = load("crossing-beam")
    on_blue = position.with_move(Played(BLACK, move(state, "block d5")))
    with pytest.raises(IllegalMove, match=r"^moves\[4\]: block d5: end on the opponent: .* would rest on blue's stone"):
        replay(on_blue)
    twice = position.with_move(Played(BLUE, move(state, "block a1")))
    with pytest.raises(IllegalMove, match=r"^moves\[4\]: it is black's turn, not blue's"):
        replay(twice)


def test_recorded_height_is_checked():
    from placesat.quarry.model import Played

    _, state = load("crossing-beam")
    base = Position(state.board, state.stones, BLACK, load("crossing-beam")[0].moves)
    under = base.with_move(Played(BLACK, move(state, "beam c5 e"), 0))
    with pytest.raises(IllegalMove, match="never placed under another"):
        replay(under)


def test_pass_only_when_nothing_fits():
    from placesat.quarry.stones import stones_from_json

    _, state = load("empty")
    with pytest.raises(IllegalMove, match="may not pass"):
        play(state, PASS)
    one_block = stones_from_json([{"name": "block", "count": 1, "faces": [{"layers": ["#"], "base": "e"}]}])
    state = replay(Position(Board(2, 1), one_block))
    state = play(state, move(state, "block a1"))
    state = play(state, move(state, "block a2"))
    assert list(placements(state, BLACK)) == [] and state.to_move == BLACK
    state = play(state, PASS)
    assert not state.is_over
    state = play(state, PASS)
    assert state.is_over and state.winner is None
    with pytest.raises(IllegalMove, match="neither player could move"):
        play(state, PASS)


def test_tournament_points_winner_double():
    _, state = load("black-wins")
    points = tournament_points(state)
    full = state.stones.total_points
    assert points[BLACK] == 2 * (full - 16 - 16 - 4)
    assert points[BLUE] == full - 1 - 1


def test_zones_inside_reading():
    board = Board(6, 2, INSIDE)
    assert board.goal_rows() == ((0, 1), (4, 5))
    position = Position(board)
    state = replay(position)
    # a span from row 2 (in the first zone) to row 5 (in the second) wins
    after = play(state, move(state, "span a2 s"))
    assert after.winner == BLACK
    short = play(state, move(state, "beam a3 s"))
    assert short.winner is None  # a3-a5 touches the second zone only


@pytest.mark.parametrize("seed", range(6))
def test_drop_matches_the_literal_rules(seed):
    """The engine lowers each stone to where it touches; the literal reading of the rules over the
    cubes must accept exactly that height, or nothing when the engine refuses."""
    board = Board(5, 4)
    _, state = random_game(board, SMALL_STONES, 10, seed)
    for player in (BLACK, BLUE):
        legal = {p: b for p, b in placements(state, player)}
        for placement in all_placements(state.stones, board):
            if state.left(player, placement.stone) <= 0:
                continue
            try:
                base = check_placement(state, player, placement)
                expected = {base}
            except IllegalMove:
                expected = set()
            assert literal_legal_bases(state, player, placement) == expected, placement
            if expected:
                assert any(p == placement or _same(state, p, placement) for p in legal)


def _same(state: State, a: Placement, b: Placement) -> bool:
    def cubes(p: Placement):
        o = state.stones[p.stone].orientation(p.face, p.direction)
        return p.stone, frozenset((p.at[0] + r, p.at[1] + c, z) for r, c, z in o.cubes)

    return cubes(a) == cubes(b)
