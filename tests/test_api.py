"""The Python API (docs/api.md): every example on the page runs, each call is the library's own,
and importing a game loads no solver and no command line."""

from __future__ import annotations

import doctest
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import placesat

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("placesat.lixso", "placesat.lixso.game", "placesat.laido", "placesat.lsd", "placesat.quarry", "placesat.logisticks")


def _page_sections() -> dict[str, str]:
    """docs/api.md cut at its ``## `` headings: each section's examples stand on their own."""
    text = (ROOT / "docs" / "api.md").read_text()
    parts = text.split("\n## ")
    return {"(top)": parts[0], **{part.split("\n", 1)[0]: part for part in parts[1:]}}


def test_the_api_page_has_examples_in_every_section():
    examples = {title: doctest.DocTestParser().get_examples(text) for title, text in _page_sections().items()}
    assert all(examples.values()), [title for title, found in examples.items() if not found]
    assert sum(map(len, examples.values())) > 80


@pytest.mark.parametrize("section", sorted(_page_sections()))
def test_every_example_in_the_api_page_runs(section, monkeypatch):
    """Each section's examples, run as doctests (from the repository's root: the examples name
    the shipped files by their path, as well as through placesat.data)."""
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(_page_sections()[section], {"placesat": placesat}, section, "docs/api.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("package", GAMES)
def test_every_exported_name_is_there_and_every_call_is_documented(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isfunction(value):
            assert value.__doc__, f"{package}.{name} has no docstring"
            assert "return" in inspect.get_annotations(value), f"{package}.{name} has no return type"
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package, call, room", [
    ("placesat.lixso", "solve", "placesat.lixso.solve"),
    ("placesat.lixso", "generate", "placesat.lixso.generate"),
    ("placesat.lixso", "verify", "placesat.lixso.verify"),
    ("placesat.lixso.game", "solve", "placesat.lixso.game.solve"),
    ("placesat.laido", "score", "placesat.laido.score"),
    ("placesat.lsd", "reach", "placesat.lsd.reach"),
    ("placesat.lsd", "forced", "placesat.lsd.forced"),
    ("placesat.quarry", "reach", "placesat.quarry.reach"),
    ("placesat.logisticks", "analyze", "placesat.logisticks.analyze"),
    ("placesat.lixso", "hint", "placesat.lixso.hint"),
    ("placesat.lixso.game", "bounds", "placesat.lixso.game.bounds"),
    ("placesat.lixso.game", "forced", "placesat.lixso.game.forced"),
    ("placesat.laido", "reach", "placesat.laido.reach"),
    ("placesat.laido", "forced", "placesat.laido.forced"),
    ("placesat.laido", "play", "placesat.laido.play"),
    ("placesat.lsd", "play", "placesat.lsd.play"),
    ("placesat.quarry", "threats", "placesat.quarry.threats"),
    ("placesat.quarry", "forced", "placesat.quarry.forced"),
    ("placesat.quarry", "play", "placesat.quarry.play"),
    ("placesat.logisticks", "forced", "placesat.logisticks.forced"),
    ("placesat.logisticks", "play", "placesat.logisticks.play"),
])
def test_a_call_keeps_its_name_when_the_room_of_that_name_is_imported(package, call, room):
    """placesat.lixso.solve is the call even after placesat.lixso.solve (solve.py) is imported;
    the room stays importable by its name."""
    module = importlib.import_module(package)
    loaded = importlib.import_module(room)
    assert inspect.ismodule(loaded) and loaded.__name__ == room
    assert inspect.isfunction(getattr(module, call))
    assert getattr(module, call).__module__ == package


def test_the_re_exports_are_the_library_objects_themselves():
    from placesat.core.errors import InputError
    from placesat.lixso.model import Grid, load_pack
    from placesat.lixso.solve import SolveReport

    assert placesat.InputError is InputError
    assert placesat.lixso.load_pack is load_pack
    assert placesat.lixso.Grid is Grid and placesat.lixso.SolveReport is SolveReport
    assert placesat.lixso.solve.__annotations__["return"] == "SolveReport"


def test_errors_are_the_commands_input_errors():
    with pytest.raises(placesat.InputError) as caught:
        placesat.lixso.parse_grid("..I\n..\n")
    assert str(caught.value).startswith("2:")
    with pytest.raises(placesat.InputError, match="2 grids"):
        placesat.lixso.parse_grid("...\n...\n\n...\n...\n")
    with pytest.raises(placesat.InputError, match="no such file"):
        placesat.lsd.load_game("no/such/file.json")
    threat = placesat.lsd.load_game(str(ROOT / "grids" / "lsd" / "double-threat.json"))
    with pytest.raises(placesat.InputError, match="--player must be from 1 to 2, not 3"):
        placesat.lsd.reach(threat, player=3, plies=1)


def test_a_solve_from_text_is_the_solve_of_the_parsed_grid():
    pack = placesat.lixso.load_pack(str(ROOT / "grids" / "lixso" / "level-1.txt"))  # its answers read beside it
    grid = next(entry for entry in pack if isinstance(entry, placesat.lixso.Grid))
    from_text = placesat.lixso.solve(placesat.lixso.format_grid(grid))
    assert from_text.status.value == "unique"
    assert from_text.solutions == placesat.lixso.solve(grid).solutions
    assert from_text.solutions[0] == grid.stated_solution()


def test_playable_makes_each_game_by_its_selfplay_name():
    for name in placesat.PLAYABLE:
        game = placesat.playable(name, 5) if name == "laido" else placesat.playable(name)
        start = game.opening(2)
        assert game.to_move(start) == 1 and game.outcome(start) is None and list(game.moves(start))
    with pytest.raises(placesat.InputError, match="no game 'chess'"):
        placesat.playable("chess")


def test_importing_the_games_loads_no_solver_and_no_command_line():
    code = ("import sys, placesat.lixso, placesat.lixso.game, placesat.laido, placesat.lsd, placesat.quarry, "
            "placesat.logisticks; print(sorted(m for m in ('numpy', 'ortools', 'typer', 'pysat', 'numba', "
            "'placesat.cli') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_import_placesat_alone_loads_no_game():
    code = "import sys, placesat; print(sorted(m for m in sys.modules if m.startswith('placesat.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['placesat.core', 'placesat.core.errors']"


# --------------------------------------------------------------------------- API == CLI --json

# fields that measure the run, not the answer
TIMINGS = {"seconds", "elapsed", "time", "nodes", "positions"}


def _steady(record):
    """A JSON record without the fields that differ from run to run (times, counts of work)."""
    if isinstance(record, dict):
        return {key: _steady(value) for key, value in record.items() if key not in TIMINGS}
    if isinstance(record, list):
        return [_steady(value) for value in record]
    return record


def _data(name: str) -> str:
    return placesat.data.path(name)


LIXSO_GAME = "lixso-game/9x9-endgame.txt"
# a 2x3 grid with no clue: many solutions, so solve and hint give their reasons
OPEN_GRID = "# name: open\n...\n...\n"

# the command's arguments, and the same question through the API: each on a shipped grid
# (or a small one written out), each cheap
SAME_AS_THE_COMMAND = {
    "lixso solve": (["lixso", "solve", _data("examples.txt")],
                    lambda: [placesat.lixso.solve(grid) for grid in placesat.lixso.load_pack(_data("examples.txt"))]),
    "lixso solve, not unique": (["lixso", "solve", "{open}"], lambda: [placesat.lixso.solve(OPEN_GRID)]),
    "lixso grade": (["lixso", "grade", _data("examples.txt")],
                    lambda: [placesat.lixso.grade(grid) for grid in placesat.lixso.load_pack(_data("examples.txt"))]),
    "lixso hint": (["lixso", "hint", _data("examples.txt")], lambda: placesat.lixso.hint(placesat.lixso.load_pack(_data("examples.txt"))[0])),
    "lixso hint --level-only": (
        ["lixso", "hint", _data("lixso/level-1.txt"), "--index", "2", "--level-only"],
        lambda: placesat.lixso.hint(placesat.lixso.load_pack(_data("lixso/level-1.txt"))[1], level_only=True)),
    "lixso hint --steps, not unique": (["lixso", "hint", "{open}", "--steps", "--show-solution"],
                                      lambda: placesat.lixso.hint(OPEN_GRID, steps=True, show_solution=True)),
    "lixso verify": (["lixso", "verify", _data("lixso/level-2.txt")], lambda: placesat.lixso.verify(_data("lixso/level-2.txt"))),
    "lixso game moves": (["lixso", "game", "moves", _data(LIXSO_GAME)], lambda: placesat.lixso.game.moves(_data_text(LIXSO_GAME))),
    "lixso game bounds": (["lixso", "game", "bounds", _data(LIXSO_GAME)],
                          lambda: placesat.lixso.game.bounds(placesat.lixso.game.load_position(_data(LIXSO_GAME)))),
    "lixso game solve": (["lixso", "game", "solve", _data(LIXSO_GAME)],
                         lambda: placesat.lixso.game.solve(placesat.lixso.game.load_position(_data(LIXSO_GAME)))),
    "lixso game forced": (["lixso", "game", "forced", _data(LIXSO_GAME), "--moves", "2"],
                          lambda: placesat.lixso.game.forced(placesat.lixso.game.load_position(_data(LIXSO_GAME)), 2)),
    "lixso game best": (["lixso", "game", "best", _data(LIXSO_GAME), "--depth", "2", "--engine", "lookahead:p2:300n"],
                        lambda: placesat.lixso.game.best(placesat.lixso.game.load_position(_data(LIXSO_GAME)), depth=2, engine="lookahead:p2:300n")),
    "laido score": (["laido", "score", _data("laido/game.json")], lambda: placesat.laido.score(placesat.laido.load_game(_data("laido/game.json")))),
    "laido moves": (["laido", "moves", _data("laido/forced3.json")], lambda: placesat.laido.moves(_data_text("laido/forced3.json"))),
    "laido reach": (["laido", "reach", _data("laido/forced3.json"), "--player", "black", "--stones", "2"],
                    lambda: placesat.laido.reach(placesat.laido.load_game(_data("laido/forced3.json")), "black", 2)),
    "laido reach --best": (["laido", "reach", _data("laido/forced3.json"), "--player", "white", "--stones", "1", "--best"],
                           lambda: placesat.laido.reach(placesat.laido.load_game(_data("laido/forced3.json")), "white", 1, best=True)),
    "laido forced": (["laido", "forced", _data("laido/forced3.json"), "--moves", "2"],
                     lambda: placesat.laido.forced(placesat.laido.load_game(_data("laido/forced3.json")), 2)),
    # a long limit: the game's own engine at the root has a share of it, and on a loaded machine
    # the default 5 s cut its defence short (then the answer is the evaluation's, another move)
    "laido best": (["laido", "best", _data("laido/forced3.json"), "--depth", "1", "--engine", "lookahead:p2:300n", "--time-limit", "120"],
                   lambda: placesat.laido.best(placesat.laido.load_game(_data("laido/forced3.json")), depth=1, engine="lookahead:p2:300n",
                                               time_limit=120)),
    "lsd show": (["lsd", "show", _data("lsd/mid20-win3.json")], lambda: placesat.lsd.show(placesat.lsd.load_game(_data("lsd/mid20-win3.json")))),
    "lsd moves": (["lsd", "moves", _data("lsd/double-threat.json")], lambda: placesat.lsd.moves(_data_text("lsd/double-threat.json"))),
    "lsd threats": (["lsd", "threats", "{threats}"], lambda: placesat.lsd.threats(_lsd_threats())),
    "lsd play": (["lsd", "play", _data("lsd/double-threat.json"), "1,2 W+", "-2,2 E+"],
                 lambda: placesat.lsd.play(placesat.lsd.load_game(_data("lsd/double-threat.json")), ["1,2 W+", "-2,2 E+"])),
    "lsd reach": (["lsd", "reach", _data("lsd/double-threat.json"), "--player", "1", "--plies", "3"],
                  lambda: placesat.lsd.reach(placesat.lsd.load_game(_data("lsd/double-threat.json")), 1, 3)),
    "lsd forced": (["lsd", "forced", _data("lsd/double-threat.json"), "--player", "1", "--depth", "3"],
                   lambda: placesat.lsd.forced(placesat.lsd.load_game(_data("lsd/double-threat.json")), 1, 3)),
    "lsd best": (["lsd", "best", _data("lsd/double-threat.json"), "--depth", "1", "--engine", "lookahead:p2:300n"],
                 lambda: placesat.lsd.best(placesat.lsd.load_game(_data("lsd/double-threat.json")), depth=1, engine="lookahead:p2:300n")),
    "quarry moves": (["quarry", "moves", _data("quarry/midgame.json"), "--stone", "span"],
                     lambda: placesat.quarry.moves(_data_text("quarry/midgame.json"), stone="span")),
    "quarry threats": (["quarry", "threats", _data("quarry/midgame-2.json")],
                       lambda: placesat.quarry.threats(placesat.quarry.load_position(_data("quarry/midgame-2.json")))),
    "quarry reach": (["quarry", "reach", _data("quarry/midgame.json"), "--player", "black"],
                     lambda: _quarry_reach("quarry/midgame.json", "black")),
    "quarry show": (["quarry", "show", _data("quarry/black-wins.json")],
                    lambda: placesat.quarry.show(placesat.quarry.load_position(_data("quarry/black-wins.json")))),
    "quarry forced": (["quarry", "forced", _data("quarry/midgame.json"), "--moves", "2"],
                      lambda: placesat.quarry.forced(placesat.quarry.load_position(_data("quarry/midgame.json")), 2)),
    "quarry block": (["quarry", "block", "{blocking}"], lambda: placesat.quarry.block(_quarry_blocking())),
    "quarry race": (["quarry", "race", _data("quarry/midgame.json")],
                    lambda: placesat.quarry.race(placesat.quarry.load_position(_data("quarry/midgame.json")))),
    "quarry stones": (["quarry", "stones"], lambda: placesat.quarry.stones()),
    "quarry stones of a position": (["quarry", "stones", _data("quarry/midgame.json")],
                                    lambda: placesat.quarry.stones(_data_text("quarry/midgame.json"), source=_data("quarry/midgame.json"))),
    "quarry best": (["quarry", "best", _data("quarry/midgame.json"), "--depth", "1", "--engine", "lookahead:p2:300n"],
                    lambda: placesat.quarry.best(placesat.quarry.load_position(_data("quarry/midgame.json")), depth=1, engine="lookahead:p2:300n")),
    "logisticks moves": (["logisticks", "moves", _data("logisticks/late.json")],
                         lambda: placesat.logisticks.moves(_data_text("logisticks/late.json"))),
    "logisticks analyze": (["logisticks", "analyze", _data("logisticks/late.json")],
                           lambda: placesat.logisticks.analyze(placesat.logisticks.load_position(_data("logisticks/late.json")))),
    "logisticks satisfy": (["logisticks", "satisfy", _data("logisticks/late.json"), "--player", "2"],
                           lambda: placesat.logisticks.satisfy(placesat.logisticks.load_position(_data("logisticks/late.json")), 2)),
    "logisticks forced": (["logisticks", "forced", _data("logisticks/late.json"), "--moves", "1", "--score", "1"],
                          lambda: placesat.logisticks.forced(placesat.logisticks.load_position(_data("logisticks/late.json")), 1, score=1)),
    # a node budget: the look-ahead's answer then does not hang on the machine's load
    "logisticks best": (["logisticks", "best", _data("logisticks/late.json"), "--depth", "1", "--engine", "lookahead:p2:300n"],
                        lambda: placesat.logisticks.best(placesat.logisticks.load_position(_data("logisticks/late.json")), depth=1,
                                                         engine="lookahead:p2:300n")),
    "logisticks best, its own engine": (["logisticks", "best", _data("logisticks/late.json"), "--depth", "1", "--engine", "best"],
                                        lambda: placesat.logisticks.best(placesat.logisticks.load_position(_data("logisticks/late.json")),
                                                                         depth=1, engine="best")),
    "lixso game show": (["lixso", "game", "show", _data(LIXSO_GAME)], lambda: placesat.lixso.game.show(_data_text(LIXSO_GAME))),
    "lixso game play": (["lixso", "game", "play", _data(LIXSO_GAME), "S r4c1 r5c1 r5c2"],
                        lambda: placesat.lixso.game.play(placesat.lixso.game.load_position(_data(LIXSO_GAME)), "S r4c1 r5c1 r5c2")),
    "laido play, a record": (["laido", "play", _data("laido/game.json")], lambda: placesat.laido.play(placesat.laido.load_game(_data("laido/game.json")))),
    "laido play, a move": (["laido", "play", _data("laido/forced3.json"), "-2,1"],
                           lambda: placesat.laido.play(placesat.laido.load_game(_data("laido/forced3.json")), "-2,1")),
    "quarry play": (["quarry", "play", _data("quarry/midgame.json"), "span f1 e"],
                    lambda: placesat.quarry.play(placesat.quarry.load_position(_data("quarry/midgame.json")), "span f1 e")),
    "logisticks show": (["logisticks", "show", _data("logisticks/midgame.json")],
                        lambda: placesat.logisticks.show(placesat.logisticks.load_position(_data("logisticks/midgame.json")))),
    "logisticks play": (["logisticks", "play", _data("logisticks/late.json"), "d6 CAP S"],
                        lambda: placesat.logisticks.play(placesat.logisticks.load_position(_data("logisticks/late.json")), "d6 CAP S")),
}
# selfplay: random engines, so that the games are quick and the same on both sides (seeded)
RANDOM = ["--engine-a", "random", "--engine-b", "random", "--seed", "3"]
SAME_AS_THE_COMMAND.update({
    f"selfplay {name}": (["selfplay", name, "--games", "3", "--max-plies", "40", *RANDOM],
                         lambda game=game: game.selfplay(3, seed=3, engine_a="random", engine_b="random", max_plies=40))
    for name, game in (("laido", placesat.laido), ("lsd", placesat.lsd), ("quarry", placesat.quarry),
                       ("logisticks", placesat.logisticks), ("lixso-game", placesat.lixso.game))
})
SAME_AS_THE_COMMAND["selfplay lsd --position"] = (
    ["selfplay", "lsd", "--games", "2", "--position", _data("lsd/double-threat.json"), "--engine-a", "best:d1", "--engine-b", "random"],
    lambda: placesat.lsd.selfplay(2, placesat.lsd.load_game(_data("lsd/double-threat.json")), engine_a="best:d1", engine_b="random"))


def _quarry_blocking():
    """A position where Blue can block Black's winning stones: black has laid a brick on g9."""
    return placesat.quarry.play(placesat.quarry.load_position(_data("quarry/midgame.json")), "brick g9 s").position


def _lsd_threats():
    """A position where both players have a line at once: two plies into double-threat.json."""
    start = placesat.lsd.load_game(_data("lsd/double-threat.json"))
    return placesat.lsd.play(start, ["1,2 W+", "1,-1 NESW+"]).position


class _Stated:
    """An answer whose record needs the state it was asked on (quarry reach names the stones)."""

    def __init__(self, answer, state) -> None:
        self.answer, self.state = answer, state

    def to_json(self) -> dict:
        return self.answer.to_json(self.state)


def _quarry_reach(name: str, player: str) -> _Stated:
    position = placesat.quarry.load_position(_data(name))
    return _Stated(placesat.quarry.reach(position, player), placesat.quarry.state_of(position))


def _data_text(name: str) -> str:
    return placesat.data.read_text(name)


@pytest.mark.parametrize("command", sorted(SAME_AS_THE_COMMAND))
def test_each_call_answers_what_its_command_prints_with_json(command, run_cli, tmp_path):
    """The API's record (``to_json()``) is the command's ``--json`` output on the same input,
    field for field (times and counts of work aside): one per line where the command answers
    grid by grid."""
    args, call = SAME_AS_THE_COMMAND[command]
    grid, threats, blocking = tmp_path / "open.txt", tmp_path / "threats.json", tmp_path / "blocking.json"
    grid.write_text(OPEN_GRID)
    threats.write_text(json.dumps(placesat.lsd.position_to_json(_lsd_threats())))
    blocking.write_text(json.dumps(placesat.quarry.position_to_json(_quarry_blocking())))
    done = run_cli(*[arg.format(open=grid, threats=threats, blocking=blocking) for arg in args], "--json")
    assert done.returncode in (0, 1), done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    answered = call()
    records = [answer.to_json() for answer in answered] if isinstance(answered, list) else [answered.to_json()]
    assert _steady(records) == _steady(printed)
    assert printed and all(records)


def _cli_json(run_cli, *args: str) -> dict:
    done = run_cli(*args, "--json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_check_and_id_answer_what_their_commands_print(run_cli, tmp_path):
    """check on a solution that breaks a rule, and on the stated one; id for every grid."""
    pack = _data("examples.txt")
    grid = placesat.lixso.load_pack(pack)[0]
    solution = tmp_path / "solution.txt"
    rows = list(grid.stated_solution())
    rows[0] = ("X" if rows[0][0] != "X" else "I") + rows[0][1:]  # a tile broken at r1c1
    solution.write_text("\n".join(rows) + "\n")
    checked = placesat.lixso.check(grid, placesat.lixso.parse_grid(solution.read_text()))
    assert checked["valid"] is False and [1, 1] in checked["cells"]
    assert checked.to_json() == _cli_json(run_cli, "lixso", "check", pack, str(solution), "--index", "1")
    assert placesat.lixso.check(grid)["valid"] is True
    ids = run_cli("lixso", "id", pack, "--json")
    assert [json.loads(line)["id"] for line in ids.stdout.splitlines()] == [
        placesat.lixso.puzzle_id(entry) for entry in placesat.lixso.load_pack(pack)]


def test_print_and_html_write_what_their_commands_write(run_cli, tmp_path):
    """The calls that write files (a PDF, a page) report the same record as their commands
    (the file, what went in, what was left out and why) and write the file."""
    grid = placesat.lixso.load_pack(_data("examples.txt"))[0]
    both = tmp_path / "both.txt"  # one puzzle, and a grid with many solutions: left out
    both.write_text(placesat.lixso.format_grid(grid) + "\n" + OPEN_GRID)
    sheet = tmp_path / "sheet.pdf"
    printed = _cli_json(run_cli, "lixso", "print", str(both), "--out", str(sheet), "--solutions")
    from_cli = sheet.read_bytes()
    sheet.unlink()
    made = placesat.lixso.print_sheets(str(both), str(sheet), solutions=True)
    assert made.to_json() == printed and printed["printed"] == [grid.label()] and printed["left_out"][0]["status"] == "multiple"
    assert sheet.read_bytes()[:5] == b"%PDF-" and len(sheet.read_bytes()) > len(from_cli) // 2
    picture = tmp_path / "open.svg"
    (tmp_path / "open.txt").write_text(OPEN_GRID)
    drawn = _cli_json(run_cli, "lixso", "draw", str(tmp_path / "open.txt"), "--out", str(picture))
    from_cli = picture.read_text()
    picture.unlink()
    answer = placesat.lixso.draw(OPEN_GRID, str(picture))
    assert answer.to_json() == drawn and drawn["status"] == "multiple"
    assert picture.read_text() == from_cli and "more than one solution" in from_cli
    page = tmp_path / "page.html"
    shown = _cli_json(run_cli, "lixso", "html", str(both), "--out", str(page), "--hint-time", "5")
    page.unlink()
    assert placesat.lixso.html_page(str(both), str(page), hint_time=5).to_json() == shown
    assert page.read_text().lstrip().lower().startswith("<!doctype html")


def test_generate_makes_the_puzzles_its_command_writes(run_cli, tmp_path):
    """The same level, count and seed: the command's pack holds the call's grids, its answers
    file their solutions, and its --json lists each puzzle as the call's to_json()."""
    out = tmp_path / "made.txt"
    record = _cli_json(run_cli, "lixso", "generate", "--level", "1", "--count", "2", "--seed", "7", "--out", str(out))
    made = placesat.lixso.generate(level=1, count=2, seed=7)
    assert record["puzzles"] == [puzzle.to_json() for puzzle in made]
    written = placesat.lixso.load_pack(str(out))
    assert [grid.rows for grid in written] == [puzzle.grid.rows for puzzle in made]
    assert [grid.stated_solution() for grid in written] == [puzzle.solution for puzzle in made]


@pytest.mark.parametrize("command, made", [
    (["laido", "new", "--side", "7"], lambda: placesat.laido.record_to_json(placesat.laido.new(7))),
    (["laido", "new", "--position"], lambda: placesat.laido.position_to_json(placesat.laido.new(position=True))),
    (["lsd", "new", "--players", "4"], lambda: placesat.lsd.position_to_json(placesat.lsd.new(4))),
    (["quarry", "new", "--first", "blue"], lambda: placesat.quarry.position_to_json(placesat.quarry.new(first="blue"))),
    (["logisticks", "new", "--players", "3", "--layout", "random", "--seed", "5"],
     lambda: placesat.logisticks.position_to_json(placesat.logisticks.new(3, "random", 5))),
])
def test_a_new_game_is_the_one_its_command_starts(command, made, run_cli):
    assert _cli_json(run_cli, *command) == made()
