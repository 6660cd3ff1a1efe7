"""The plain rule checker on hand-made valid and broken solutions."""

from placesat.lixso.model import Grid
from placesat.lixso.rules import find_violation, is_l_tile, tiles_of

EMPTY_6x3 = Grid(("...",) * 6)
# Six tiles, worked out by hand: I{r1c1 r1c2 r2c1} X{r1c3 r2c2 r2c3} S{r3c1 r3c2 r4c1}
# O{r3c3 r4c2 r4c3} I{r5c1 r5c2 r6c1} X{r5c3 r6c2 r6c3}; no two same-coloured tiles touch,
# and no colour is used more than ceil(6 / 4) = 2 times.
VALID_6x3 = ("IIX", "IXX", "SSO", "SOO", "IIX", "IXX")


def test_l_shapes():
    assert is_l_tile(((0, 0), (0, 1), (1, 1)))
    assert not is_l_tile(((0, 0), (0, 1), (0, 2)))  # a straight line
    assert not is_l_tile(((0, 0), (1, 1), (0, 1), (1, 0)))


def test_hand_made_valid_solution_and_its_tiles():
    assert find_violation(EMPTY_6x3, VALID_6x3) is None
    tiles = tiles_of(VALID_6x3)
    assert sorted(colour for colour, _ in tiles) == ["I", "I", "O", "S", "X", "X"]
    assert ("X", ((0, 2), (1, 1), (1, 2))) in tiles


def test_clues_that_hold_and_one_that_does_not():
    assert find_violation(Grid(("I..", "...", "..O", "...", "...", "..X")), VALID_6x3) is None
    violation = find_violation(Grid(("...", "...", "..X", "...", "...", "...")), VALID_6x3)
    assert violation.rule == "clue" and violation.cells == ((2, 2),)
    assert "r3c3" in str(violation)


def test_same_colour_tiles_touching_by_a_corner():
    # the I tile at the top and the I tile {r3c2 r3c3 r4c3} meet corner to corner (r2c1-r3c2)
    solution = ("IIX", "IXX", "SII", "SSI", "OOX", "OXX")
    violation = find_violation(EMPTY_6x3, solution)
    assert violation.rule == "touch" and len(violation.cells) == 6


def test_straight_line_and_short_groups():
    puzzle = Grid(("...",) * 3)
    assert find_violation(puzzle, ("IIX", "ISX", "SSX")).rule == "touch"  # X is a straight line
    assert find_violation(puzzle, ("IIX", "ISX", "SSO")).rule == "shape"  # X has two cells


def test_supply_cap():
    assert find_violation(EMPTY_6x3, VALID_6x3, per_colour=1).rule == "supply"


def test_uncovered_and_wrong_size():
    assert find_violation(Grid(("...",) * 3), ("II.", "IXX", "SSS")).rule == "cover"
    assert find_violation(Grid(("...",) * 3), ("IIX", "IXX")).rule == "size"
