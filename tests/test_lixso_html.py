"""The play page (`placesat lixso html`): what it holds, its script's logic under node, and a
person playing it in a real browser (headless Chromium, driven by Playwright).

The browser tests need Debian's chromium (/usr/bin/chromium) and the playwright package; without
them they are skipped, loudly (.ci/run installs chromium and says when it could not)."""

from __future__ import annotations

import base64
import json
import os
import random
import re
import shutil
import subprocess
import tomllib
import warnings
from pathlib import Path

import pytest

from placesat.lixso.model import Grid, load_pack
from placesat.lixso.rules import find_violation, tiles_of
from placesat.lixso.web import unscramble
from tests.conftest import ROOT

LEVEL_1 = ROOT / "grids" / "lixso" / "level-1.txt"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
FILLS = {"I": "#f2c12e", "X": "#d64545", "S": "#4caf50", "O": "#3d6fd6"}  # solver/lixso/render.py: SVG_FILL


def shipped(count: int) -> list[Grid]:
    return [g for g in load_pack(str(LEVEL_1)) if isinstance(g, Grid)][:count]


def page_data(path: Path) -> dict:
    return page_data_of(path.read_text())


def page_data_of(text: str) -> dict:
    match = re.search(r'<script type="application/json" id="lixso-data">(.*?)</script>', text, re.S)
    assert match, "the page holds its puzzles in one JSON script element"
    return json.loads(match[1])


def secret_of(entry: dict) -> dict:
    return unscramble(entry["secret"], base64.b64decode(entry["key"]))


@pytest.fixture(scope="module")
def two_puzzles(tmp_path_factory) -> Path:
    """A pack of the first two shipped level-1 puzzles."""
    folder = tmp_path_factory.mktemp("pack")
    blocks = LEVEL_1.read_text().split("\n\n")[1:3]
    pack = folder / "two.txt"
    pack.write_text("\n\n".join(blocks) + "\n")
    return pack


@pytest.fixture(scope="module")
def page(two_puzzles, tmp_path_factory) -> Path:
    from tests.conftest import placesat_command

    out = tmp_path_factory.mktemp("page") / "play.html"
    result = subprocess.run(placesat_command() + ["lixso", "html", str(two_puzzles), "--out", str(out), "--title", "Two <starters>"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "wrote 2 puzzle(s)" in result.stderr
    return out


# --------------------------------------------------------------------------- the file


@pytest.mark.xdist_group("page")
def test_page_needs_no_network_and_hides_its_answers(page):
    text = page.read_text()
    # nothing is fetched: no external script, style sheet, font or image; the only URL is the SVG namespace
    assert re.findall(r"https?://[^\s\"']+", text) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"<script[^>]+src|<link|@import|url\(", text)
    assert "<title>Two &lt;starters&gt;</title>" in text
    for grid in shipped(2):
        solution = grid.stated_solution()
        assert solution is not None
        assert "/".join(solution) not in text and solution[0] not in text
    data = page_data(page)
    assert [p["name"] for p in data["puzzles"]] == ["L1-s2026-001", "L1-s2026-002"]
    assert [p["level"] for p in data["puzzles"]] == [1, 1]
    assert "r8c1 r9c1 r9c2" not in text  # the first hint's fact is scrambled too


@pytest.mark.xdist_group("page")
def test_page_hints_are_the_hint_commands_steps_in_its_words(page, run_cli):
    data = page_data(page)
    for grid, entry in zip(shipped(2), data["puzzles"]):
        secret = secret_of(entry)
        assert tuple(secret["solution"]) == grid.stated_solution()
        result = run_cli("lixso", "hint", str(LEVEL_1), "--name", grid.name, "--steps", "--json")
        assert result.returncode == 0, result.stderr
        expected = json.loads(result.stdout)["hints"]
        assert [{k: h[k] for k in ("fact", "level", "why", "cells")} for h in secret["hints"]] == expected
        assert secret["hintsEnd"] == "solved"
        # every "is" step's target agrees with the solution
        for step in secret["hints"]:
            target = step["target"]
            for r, c in target["cells"]:
                assert (secret["solution"][r - 1][c - 1] == target["colour"]) == target["value"]


def test_page_without_solutions_holds_no_answers_and_no_hints(run_cli, tmp_path):
    out = tmp_path / "bare.html"
    result = run_cli("lixso", "html", str(LEVEL_1), "--index", "2", "--solutions", "none", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["puzzles"] == [{"name": "L1-s2026-002", "level": 1, "hints": 0, "hints_end": "none"}]
    (entry,) = page_data(out)["puzzles"]
    assert "secret" not in entry and "key" not in entry
    assert entry["rows"] == list(shipped(2)[1].rows)


def test_hints_stop_at_the_time_budget_and_bad_grids_are_left_out(run_cli, tmp_path):
    pack = tmp_path / "mixed.txt"
    # the first grid has two solutions (an empty 2x3 grid); the second is a shipped puzzle
    pack.write_text("# name: open\n...\n...\n\n" + LEVEL_1.read_text().split("\n\n")[1] + "\n")
    out = tmp_path / "mixed.html"
    result = run_cli("lixso", "html", str(pack), "--out", str(out), "--hint-time", "0", "--json", "--jobs", "2")
    assert result.returncode == 1
    assert "open: multiple, left out" in result.stderr
    report = json.loads(result.stdout)
    assert report["left_out"] == [{"name": "open", "status": "multiple"}]
    assert report["puzzles"] == [{"name": "L1-s2026-001", "level": 1, "hints": 0, "hints_end": "budget"}]
    assert secret_of(page_data(out)["puzzles"][0])["hintsEnd"] == "budget"


def test_html_refuses_bad_usage(run_cli, tmp_path):
    out = str(tmp_path / "x.html")
    result = run_cli("lixso", "html", str(LEVEL_1), "--solutions", "maybe", "--out", out)
    assert result.returncode == 2 and "--solutions: must be embed or none" in result.stderr
    result = run_cli("lixso", "html", str(LEVEL_1), str(LEVEL_1), "--index", "1", "--out", out)
    assert result.returncode == 2 and "give one PACK" in result.stderr
    result = run_cli("lixso", "html", str(LEVEL_1), "--name", "nope", "--out", out)
    assert result.returncode == 2 and "no grid named 'nope'" in result.stderr
    assert not os.path.exists(out)


def test_a_name_cannot_end_the_pages_script():
    from placesat.lixso.web import PagePuzzle, page_html

    grid = Grid(shipped(1)[0].rows, name="</script><script>alert(1)</script> & @@STYLE@@")
    text = page_html([PagePuzzle(grid, 1, None)], title="@@SCRIPT@@ </title>")
    assert text.count("</script>") == 2  # the end of the data, the end of the script
    assert text.count("<style>") == 1 and "<title>@@SCRIPT@@ &lt;/title&gt;</title>" in text
    (entry,) = page_data_of(text)["puzzles"]
    assert entry["name"] == grid.name


def test_the_page_files_are_packaged():
    """A non-editable install holds the files the page is made of (pyproject.toml package-data)."""
    folder = ROOT / "solver" / "lixso" / "web"
    assets = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix != ".py")
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["placesat.lixso.web"]
    assert assets == sorted(listed) == ["play.css", "play.html", "play.js"]


# --------------------------------------------------------------------------- the script, under node


def test_play_script_logic_under_node(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the play page's script logic is not tested")
    from placesat.lixso.web import scramble

    rng = random.Random(33)
    grids = []
    for grid in shipped(20):
        solution = grid.stated_solution()
        empty = Grid(tuple("." * grid.width for _ in range(grid.height)))
        # the colours renamed all at once: a complete grid that keeps every rule, not the answer
        variants = [solution, tuple(row.translate(str.maketrans("IXSO", "XSOI")) for row in solution)]
        # one cell changed, and whole tiles given another colour: some break the rules, some not
        rows = [list(row) for row in solution]
        r, c = rng.randrange(grid.height), rng.randrange(grid.width)
        rows[r][c] = rng.choice([k for k in "IXSO" if k != rows[r][c]])
        variants.append(tuple("".join(row) for row in rows))
        for _ in range(3):
            rows = [list(row) for row in solution]
            colour, cells = rng.choice(tiles_of(solution))
            new = rng.choice([k for k in "IXSO" if k != colour])
            for r, c in cells:
                rows[r][c] = new
            variants.append(tuple("".join(row) for row in rows))
        for rows in variants:
            grids.append({"rows": list(rows), "perColour": 7, "valid": find_violation(empty, rows) is None})
    assert any(g["valid"] for g in grids[1:] if g["rows"] not in [list(x.stated_solution()) for x in shipped(20)])
    assert not all(g["valid"] for g in grids)
    secret = {"solution": ["IIX", "IXX"], "hints": [{"fact": "r1c1 is I — «ünïcode»"}], "hintsEnd": "solved"}
    key = bytes(range(7, 39))
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({
        "scrambled": scramble(secret, key), "key": base64.b64encode(key).decode(), "secret": secret, "grids": grids,
    }))
    result = subprocess.run([node, "--test", str(ROOT / "tests" / "js")], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, LIXSO_PLAY_CASES=str(cases)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout


# --------------------------------------------------------------------------- in a browser


def _skip_loudly(reason: str) -> None:
    # a skip alone is one letter in `pytest -q`; the warning is listed in its summary
    warnings.warn(reason)
    pytest.skip(reason)


def _browser():
    if not os.path.exists(CHROMIUM):
        _skip_loudly(f"BROWSER TESTS SKIPPED: {CHROMIUM} is missing (apt-get install chromium; .ci/run does it as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_loudly("BROWSER TESTS SKIPPED: the playwright package is missing (pip install -e '.[test]')")
    return sync_playwright


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _browser()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: LIXSO_PLAY_SCREENSHOTS (to look at them), else the test's own folder."""
    folder = Path(os.environ.get("LIXSO_PLAY_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Player:
    """A person at the page: clicks, keys, and what the page shows them."""

    def __init__(self, browser, page_path: Path, width: int, height: int) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.fetched: list[str] = []
        self.errors: list[str] = []

        def block(route) -> None:
            if not route.request.url.startswith("file://"):
                self.fetched.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        self.context.route("**/*", block)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(page_path.as_uri())

    def fill(self, cell: str) -> str:
        return self.page.locator(f'#board rect.cell[data-cell="{cell}"]').get_attribute("fill")

    def paint(self, cell: str, colour: str) -> None:
        if self.page.get_attribute(f'#palette button[data-tool="{colour}"]', "aria-checked") != "true":
            self.page.click(f'#palette button[data-tool="{colour}"]')
        self.page.click(f'#board rect.cell[data-cell="{cell}"]')

    def status(self) -> str:
        return self.page.inner_text("#status")

    def marks(self, kind: str) -> list[str]:
        return self.page.eval_on_selector_all(f'#board rect.mark.{kind}', "marks => marks.map(m => m.dataset.cell)")


@pytest.mark.xdist_group("page")  # one page and one chromium (module fixtures: made once per worker)
@pytest.mark.slow
def test_a_person_plays_a_shipped_puzzle_to_solved(browser, page, tmp_path):
    player = Player(browser, page, 1280, 800)
    grid = shipped(1)[0]
    solution = grid.stated_solution()
    open_cells = [(r, c) for r in range(grid.height) for c in range(grid.width) if grid.rows[r][c] == "."]
    name = lambda r, c: f"r{r + 1}c{c + 1}"  # noqa: E731

    # a wrong cell is named by "check", and by a hint before any step
    r, c = open_cells[0]
    wrong = next(k for k in "IXSO" if k != solution[r][c])
    player.paint(name(r, c), wrong)
    assert player.fill(name(r, c)) == FILLS[wrong]
    player.page.click("#check")
    assert player.status() == f"Wrong: {name(r, c)}."
    assert player.marks("wrong") == [name(r, c)]
    player.page.click("#hint")
    assert player.status() == f"some of your cells are wrong; fix them first: {name(r, c)} ({wrong} is not right there)"
    player.page.click("#undo")
    assert player.fill(name(r, c)) == "#fff"

    # a hint shows the first step in the hint command's words, its cells highlighted
    player.page.click("#hint")
    assert player.status().startswith("1. [level 1] an X tile lies on r8c1 r9c1 r9c2: the X clue at r9c1 needs an X tile")
    assert sorted(player.marks("fact")) == ["r8c1", "r9c1", "r9c2"]
    assert player.marks("reason") == ["r8c2"]
    player.page.screenshot(path=str(shots(tmp_path) / "hint-desktop.png"))

    # half the cells, then a reload: the progress is still there (colour by colour: fewer clicks)
    open_cells.sort(key=lambda cell: solution[cell[0]][cell[1]])
    half = len(open_cells) // 2
    for r, c in open_cells[:half]:
        player.paint(name(r, c), solution[r][c])
    player.page.reload()
    assert [player.fill(name(r, c)) for r, c in open_cells[:half]] == [FILLS[solution[r][c]] for r, c in open_cells[:half]]
    assert player.fill(name(*open_cells[half])) == "#fff"
    # tiles already whole are outlined
    assert player.page.get_attribute("#board path.tile", "d")

    for r, c in open_cells[half:]:
        player.paint(name(r, c), solution[r][c])
    assert player.status().startswith("Solved in ")
    assert "solved" in player.page.get_attribute("#puzzles li:first-child button", "class")
    player.page.screenshot(path=str(shots(tmp_path) / "solved-desktop.png"))
    assert player.fetched == [] and player.errors == []
    player.context.close()


@pytest.mark.xdist_group("page")  # one page and one chromium (module fixtures: made once per worker)
def test_keys_and_a_phone_screen(browser, page, tmp_path):
    player = Player(browser, page, 390, 844)
    player.page.click('#puzzles li:nth-child(2) button')
    assert player.page.inner_text("#name") == "L1-s2026-002"
    # the grid fits the screen's width, with cells big enough to tap
    box = player.page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] / 9 >= 36
    board = player.page.locator("#board")
    board.focus()
    first = player.page.evaluate("() => document.activeElement.id")
    assert first == "board"
    # the cursor starts on the first open cell, r1c1 here
    assert shipped(2)[1].rows[0][0] == "."
    player.page.keyboard.press("x")
    assert player.fill("r1c1") == FILLS["X"]
    player.page.keyboard.press("ArrowDown")
    player.page.keyboard.press("3")
    assert player.fill("r2c1") == FILLS["S"]
    player.page.keyboard.press("Control+z")
    assert player.fill("r2c1") == "#fff"
    player.page.keyboard.press("Control+y")
    assert player.fill("r2c1") == FILLS["S"]
    player.page.keyboard.press("Backspace")
    assert player.fill("r2c1") == "#fff"
    # a drag paints every cell it crosses, and one undo takes the whole stroke back
    assert shipped(2)[1].rows[1][:3] == "..."
    player.page.click('#palette button[data-tool="O"]')
    start, end = (player.page.locator(f'#board rect.cell[data-cell="{cell}"]').bounding_box() for cell in ("r2c1", "r2c3"))
    player.page.mouse.move(start["x"] + 5, start["y"] + 20)
    player.page.mouse.down()
    player.page.mouse.move(end["x"] + 30, end["y"] + 20, steps=8)
    player.page.mouse.up()
    assert [player.fill(f"r2c{c}") for c in (1, 2, 3)] == [FILLS["O"]] * 3
    player.page.click("#undo")
    assert [player.fill(f"r2c{c}") for c in (1, 2, 3)] == ["#fff"] * 3
    # symbols mode: letters on white
    player.page.check("#symbols")
    assert player.fill("r1c1") == "#fff"
    assert player.page.eval_on_selector_all("#board text", "ts => ts.map(t => t.textContent).join('')").count("X") >= 2
    player.page.uncheck("#symbols")
    player.page.click("#hint")
    assert player.status().startswith("some of your cells are wrong") or player.status().startswith("1. [level")
    player.page.screenshot(path=str(shots(tmp_path) / "phone.png"), full_page=True)
    assert player.fetched == [] and player.errors == []
    player.context.close()


@pytest.mark.xdist_group("page")  # one page and one chromium (module fixtures: made once per worker)
def test_pencil_marks_labels_and_the_hint_note(browser, page, tmp_path):
    """Pencil marks note candidates without painting, undo, and outlive a reload; the rows
    and columns carry the hints' names; a page whose hints were all made shows no warning."""
    player = Player(browser, page, 1280, 800)
    grid = shipped(1)[0]
    labels = player.page.eval_on_selector_all("#board text.label", "ts => ts.map(t => t.textContent)")
    assert labels == [f"c{c}" for c in range(1, grid.width + 1)] + [f"r{r}" for r in range(1, grid.height + 1)]
    assert player.page.is_hidden("#hint-note")
    empty = next(f"r{r + 1}c{c + 1}" for r in range(grid.height) for c in range(grid.width) if grid.rows[r][c] == ".")
    pencilled = lambda: player.page.eval_on_selector_all("#board text.pencil", "ts => ts.map(t => t.dataset.pencil + ':' + t.textContent)")  # noqa: E731
    player.page.click("#pencil")
    assert player.page.get_attribute("#pencil", "aria-pressed") == "true"
    player.paint(empty, "S")
    player.paint(empty, "I")
    assert player.fill(empty) == "#fff" and pencilled() == [f"{empty}:I", f"{empty}:S"]
    player.paint(empty, "S")  # the same colour again takes its mark off
    assert pencilled() == [f"{empty}:I"]
    player.page.click("#undo")
    assert pencilled() == [f"{empty}:I", f"{empty}:S"]
    player.page.reload()
    assert pencilled() == [f"{empty}:I", f"{empty}:S"]
    # a reload starts out of pencil mode; Backspace in pencil mode takes all the marks off
    assert player.page.get_attribute("#pencil", "aria-pressed") == "false"
    player.page.click("#pencil")
    assert player.page.get_attribute("#pencil", "aria-pressed") == "true"
    player.page.click(f'#board rect.cell[data-cell="{empty}"]')
    player.page.keyboard.press("Backspace")
    assert pencilled() == []
    player.page.screenshot(path=str(shots(tmp_path) / "pencil.png"))
    assert player.fetched == [] and player.errors == []
    player.context.close()


@pytest.mark.xdist_group("page")
def test_hints_cut_by_hint_time_are_said_on_the_page_and_warned_of(browser, run_cli, tmp_path):
    out = tmp_path / "cut.html"
    done = run_cli("lixso", "html", str(ROOT / "grids" / "lixso" / "level-5.txt"), "--index", "1", "--hint-time", "0.01", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "1 with hints cut short by --hint-time" in done.stderr
    assert secret_of(page_data(out)["puzzles"][0])["hintsEnd"] == "budget"
    player = Player(browser, out, 1280, 800)
    assert player.page.is_visible("#hint-note") and "--hint-time" in player.page.inner_text("#hint-note")
    player.context.close()
    slow = run_cli("lixso", "html", str(LEVEL_1), "--index", "1", "--hint-time", "500", "--out", str(tmp_path / "slow.html"))
    assert slow.returncode == 0 and "warning: hint making may take up to 8 min" in slow.stderr
