"""The Lixso game's commands as a player meets them: options against the record, long
input lines in ``play-vs``, ``show`` on a pack, the solved line of play, the backends."""

from __future__ import annotations

import pytest

from .test_lixso_game_cli import GRID, one_line_error

NAMED = "# players: IS XO\n" + GRID.split("\n", 1)[1]


@pytest.mark.parametrize("command", [["show"], ["moves"], ["play", "@", "I r1c1 r1c2 r2c1"], ["bounds"], ["solve"], ["play-vs"]])
def test_every_command_refuses_players_that_disagree_with_the_file(run_cli, tmp_path, command):
    named = tmp_path / "named.txt"
    named.write_text(NAMED)
    args = [str(named) if word == "@" else word for word in command]
    if len(args) == 1:
        args.append(str(named))
    one_line_error(run_cli("lixso", "game", *args, "--players", "3"), "--players 3", "disagrees", "IS XO")


def test_the_coloured_board_has_the_plain_boards_characters():
    """Column numbers stand over their cells in a terminal as in a pipe: the coloured board is
    the plain board's characters with styles, empty cells as '·' (it had one more space
    before each cell)."""
    from placesat.lixso.game.model import parse_position
    from placesat.lixso.game.render import coloured, plain
    from placesat.lixso.game.rules import replay_position

    from .test_lixso_game_cli import STARTED

    game = replay_position(parse_position(STARTED))
    last = game.position.moves[-1]
    numbers = {cell: 12 for cell in last.cells}
    assert coloured(game.rules, game.state, last).plain.replace("·", ".") == plain(game.rules, game.state)
    assert coloured(game.rules, game.state, last, numbers).plain.replace("·", ".") == plain(game.rules, game.state, numbers)
    header, first = plain(game.rules, game.state).splitlines()[:2]
    assert [i for i, ch in enumerate(header) if ch.isdigit()] == [i for i, ch in enumerate(first[4:], 4) if ch.strip()]


@pytest.mark.parametrize("width", [10, 25, 40, 200])
def test_wrapped_breaks_only_between_items(width):
    from placesat.lixso.game.render import wrapped

    items = [f"{n}. I r{n}c5 r{n}c6 r{n + 1}c5" for n in range(1, 30)]
    lines = wrapped(items, width, "moves: ")
    assert lines[0].startswith("moves: ") and all(line.startswith(" " * 7) for line in lines[1:])
    assert [part for line in lines for part in line[7:].split("  ")] == items  # no item cut in two
    for line in lines:
        assert len(line) <= width or "  " not in line[7:]  # only a single item over the width


def test_show_picks_a_grid_of_a_pack_and_its_picture_has_the_score(run_cli, tmp_path):
    pack = tmp_path / "pack.txt"
    pack.write_text("# name: first\n......\n......\n\n" + "# name: second\n# players: XO IS\n# move: X r1c1 r1c2 r2c1\n......\n......\n")
    one_line_error(run_cli("lixso", "game", "show", str(pack)), "2 grids", "--name or --index")
    done = run_cli("lixso", "game", "show", str(pack), "--name", "second", "--json")
    assert done.returncode == 0, done.stderr
    assert json_of(done)["position"]["moves"] == ["X r1c1 r1c2 r2c1"] and json_of(done)["position"]["players"] == "XO IS"
    done = run_cli("lixso", "game", "moves", str(pack), "--index", "1", "--json")
    assert done.returncode == 0 and json_of(done)["to_move"]["colours"] == "IS"  # the first grid's own (default) players
    one_line_error(run_cli("lixso", "game", "show", str(pack), "--index", "3"), "--index 3: the pack has 2 grid(s)")
    one_line_error(run_cli("lixso", "game", "bounds", str(pack), "--name", "third"), "no grid named 'third'")
    picture = tmp_path / "second.svg"
    done = run_cli("lixso", "game", "show", str(pack), "--index", "2", "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    text = picture.read_text()
    assert "player 1: 1 tile · player 2: 0 tiles" in text and "player 2 (I or S) to move" in text
    assert ">second</text>" in text and ">r2</text>" in text and ">c6</text>" in text


def json_of(done):
    import json

    return json.loads(done.stdout)


def test_play_vs_skips_an_over_long_line_without_holding_it(tmp_path):
    """One line of 100 MB: skipped with one message as it is read (the process stays small),
    then the game goes on; the record is written at 'quit'."""
    import subprocess
    import threading
    import time

    from .conftest import ROOT, placesat_command

    out = tmp_path / "game.txt"
    child = subprocess.Popen(placesat_command() + ["lixso", "game", "play-vs", "grids/lixso-game/6x6-L3-1.txt", "--out", str(out)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    shown: list[bytes] = []
    peak = [0]

    def watch() -> None:
        # the child's own high-water mark (VmHWM, kB), which starts afresh at its exec; its
        # rusage would count the test process it was forked from
        while child.poll() is None:
            try:
                with open(f"/proc/{child.pid}/status") as status:
                    for line in status:
                        if line.startswith("VmHWM:"):
                            peak[0] = max(peak[0], int(line.split()[1]))
            except (OSError, ValueError):
                pass
            time.sleep(0.01)

    reader = threading.Thread(target=lambda: shown.append(child.stdout.read()))
    watcher = threading.Thread(target=watch)
    reader.start()
    watcher.start()
    chunk = b"I r1c1 " * (1 << 17)
    for _ in range(110):
        child.stdin.write(chunk)
    child.stdin.write(b"\n\xff\xfe\nquit\n")
    child.stdin.close()
    child.wait(timeout=120)
    reader.join()
    watcher.join()
    text = shown[0].decode()
    assert child.returncode == 0, child.stderr.read()
    assert "skipped a line of over 4096 bytes" in text and "skipped a line that is not UTF-8 text" in text
    assert "you stopped the game" in text and out.read_text().startswith("# name:")
    assert 0 < peak[0] < 100 * 1024, peak[0]  # kB: the 100 MB line was never held


def test_play_vs_on_a_closed_standard_input_is_one_line(run_cli):
    import subprocess

    from .conftest import ROOT, placesat_command

    done = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *placesat_command(), "lixso", "game", "play-vs",
                           "grids/lixso-game/6x6-L3-1.txt"], capture_output=True, text=True, cwd=ROOT)
    one_line_error(done, "standard input is closed")
    done = run_cli("lixso", "game", "play-vs", "grids/lixso-game/6x6-L3-1.txt", input="")
    assert done.returncode == 0 and "end of input: the game stops here" in done.stdout


def test_solve_shows_the_line_of_play_in_text_json_and_picture(run_cli, tmp_path):
    from placesat.lixso.game.model import load_position, parse_move
    from placesat.lixso.game.rules import replay_position

    position = "grids/lixso-game/9x9-endgame.txt"
    done = run_cli("lixso", "game", "solve", position, "--json")
    assert done.returncode == 0, done.stderr
    out = json_of(done)
    assert out["line_proven"] and out["line_complete"] and not out["interrupted"] and out["line"][0] == out["best_move"]
    game = replay_position(load_position(position))
    state = game.state
    for move in out["line"]:
        state = game.rules.lay(state, parse_move(move))
    assert state.over and state.scores[0] - state.scores[1] == out["value"]
    picture = tmp_path / "line.svg"
    done = run_cli("lixso", "game", "solve", position, "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "the line of play (both sides play their best" in text and "   1. player 1: " in text and "then game over:" in text
    first = parse_move(out["line"][0]).cells[0]  # the same line as --json: the search is deterministic without a limit
    rows = [line for line in text.splitlines() if line[:3].strip().isdigit() and line[3:4] == " "]
    assert len(rows) == 9 and rows[first[0]][4:].split()[first[1]] == "1"  # the line's first tile, numbered on the board
    svg = picture.read_text()
    assert "with perfect play</text>" in svg and "1. player 1: " in svg and 'fill-opacity="0.35"' in svg


@pytest.mark.timing
def test_ctrl_c_on_a_long_solve_prints_the_best_found_so_far(tmp_path):
    import signal
    import subprocess
    import time

    from .conftest import ROOT, placesat_command

    empty = tmp_path / "empty.txt"
    empty.write_text(("." * 9 + "\n") * 9)
    process = subprocess.Popen(placesat_command() + ["lixso", "game", "solve", str(empty)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    try:
        time.sleep(6)  # the first search (one ply) is done well within this, even on a loaded machine
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.decode().strip().splitlines() == ["placesat: interrupted"]
    text = out.decode()
    assert text.startswith("interrupted: what was found so far, marked as such\n")
    assert "best move: " in text and "not proven" in text and "the line the search prefers so far (not proven):" in text


def test_play_vs_undo_and_hint(run_cli, tmp_path):
    """undo takes back your move and the computer's answer (never the file's own moves); hint
    names a legal move for you with its reason."""
    import re

    from placesat.lixso.game.model import load_position, parse_move
    from placesat.lixso.game.rules import replay_position

    position = "grids/lixso-game/9x9-endgame.txt"
    out = tmp_path / "after.txt"
    done = run_cli("lixso", "game", "play-vs", position, "--think", "0.5", "--out", str(out),
                   input="S r4c1 r5c1 r5c2\nundo\nundo\nhint\nquit\n")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "the computer, player 2 (X or O), lays " in text
    assert "taken back to your last move: 8 tile(s) laid" in text
    assert "nothing to undo: you have laid no tile since this session began" in text
    assert load_position(str(out)).moves == load_position(position).moves
    hint = re.search(r"^hint: (. r\d+c\d+ r\d+c\d+ r\d+c\d+) \((.+)\)$", text, re.MULTILINE)
    assert hint is not None, text
    game = replay_position(load_position(position))
    assert game.rules.violation(game.state, parse_move(hint[1])) is None


@pytest.mark.parametrize("command", ["bounds", "solve", "play-vs"])
def test_each_command_with_a_backend_says_its_measured_default(run_cli, command):
    from placesat.lixso.game import GAME_BACKEND

    done = run_cli("lixso", "game", command, "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert f"(default {GAME_BACKEND}: measured the faster for every game command" in text and f"[default: {GAME_BACKEND}]" in text
