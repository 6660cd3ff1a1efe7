"""The grid file format: packs, metadata, and every kind of bad input, one by one."""

import pytest

from placesat.core.errors import InputError
from placesat.lixso.model import Grid, format_grid, load_pack, parse_pack


def only_error(text: str) -> InputError:
    (entry,) = parse_pack(text, "p.txt")
    assert isinstance(entry, InputError), entry
    return entry


def test_pack_with_metadata_comments_and_lower_case():
    text = "# a pack\n\n# name: first\n# level: 3\n.x.\nI..\n..o\n\n\n# name: second\n...\n...\n"
    first, second = parse_pack(text, "p.txt")
    assert first == Grid((".X.", "I..", "..O"), name="first")
    assert first.metadata["level"] == "3" and first.stated_level() == 3
    assert first.line == 5
    assert first.clues() == [(0, 1, "X"), (1, 0, "I"), (2, 2, "O")]
    assert second.rows == ("...", "...") and second.name == "second"


def test_metadata_must_sit_directly_above_its_grid():
    (grid,) = parse_pack("# name: lost\n\n...\n...\n...\n")
    assert grid.name == "" and grid.metadata == {}


def test_solution_metadata_round_trips():
    grid = Grid(("I..", "...", "..."), name="g")
    text = format_grid(grid, ("IIX", "IXX", "SSS"))
    (again,) = parse_pack(text)
    assert again.rows == grid.rows and again.name == "g"
    assert again.stated_solution() == ("IIX", "IXX", "SSS")


def test_unknown_character_names_line_and_column():
    error = only_error("...\n.Z.\n...\n")
    assert (error.path, error.line, error.column) == ("p.txt", 2, 2)
    assert "unknown character 'Z'" in str(error)
    assert str(error).startswith("p.txt:2:2: ")


def test_space_inside_a_row_is_an_unknown_character():
    error = only_error("...\n. .\n...\n")
    assert (error.line, error.column) == (2, 2)


def test_ragged_rows():
    error = only_error("...\n....\n...\n")
    assert (error.line, error.column) == (2, 4) and "ragged" in error.message
    error = only_error("...\n..\n...\n")
    assert (error.line, error.column) == (2, 3)


def test_size_not_divisible_by_three():
    error = only_error("....\n....\n")
    assert error.line == 1 and "not divisible by 3" in error.message


def test_absurd_size():
    error = only_error(("." * 201 + "\n") * 3)
    assert "at most 900 cells (30x30) and 60 cells on a side" in error.message


def test_one_bad_grid_leaves_the_others():
    entries = parse_pack("...\n...\n...\n\n.Q.\n...\n...\n\nIII\n...\n...\n", "p.txt")
    assert [isinstance(e, InputError) for e in entries] == [False, True, False]
    assert isinstance(entries[0], Grid) and isinstance(entries[2], Grid)
    assert entries[1].line == 5


def test_a_bad_grid_is_named_by_its_name():
    entries = parse_pack("# name: broken\n.Q.\n...\n", "p.txt")
    assert str(entries[0]) == "p.txt:2:2: grid 'broken': unknown character 'Q': a cell is '.' or one of I X S O"
    assert entries[0].label() == "broken"


def test_trailing_whitespace_and_crlf_are_accepted():
    (grid,) = parse_pack("..I  \r\n...\r\n...\r\n")
    assert grid.rows == ("..I", "...", "...")


@pytest.mark.parametrize(
    "content, expected",
    [
        (None, "no such file"),
        (b"", "no grid in this file"),
        (b"# only a comment\n", "no grid in this file"),
        (b"...\x00\n", "binary data"),
        (b"..\xff\n", "not UTF-8"),
    ],
)
def test_file_level_errors(tmp_path, content, expected):
    path = tmp_path / "g.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        load_pack(str(path))
    assert expected in str(caught.value)
    assert str(path) in str(caught.value)


def test_directory_is_not_a_file(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        load_pack(str(tmp_path))


def test_non_utf8_position_is_reported(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"...\n.\xe9.\n")
    with pytest.raises(InputError) as caught:
        load_pack(str(path))
    assert (caught.value.line, caught.value.column) == (2, 2)
