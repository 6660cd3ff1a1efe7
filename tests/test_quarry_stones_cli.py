"""`placesat quarry stones`: the stone set in use, listed and drawn."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

GRIDS = Path(__file__).resolve().parent.parent / "grids" / "quarry"
NS = "{http://www.w3.org/2000/svg}"

# seeds/quarry.md, "The stones": name, count per player, points, cubes
SEEDS_TABLE = [
    ("block", 5, 1, 1), ("brick", 3, 4, 2), ("post", 3, 4, 2), ("beam", 3, 9, 3), ("corner", 2, 9, 3),
    ("step", 2, 9, 3), ("pillar", 2, 9, 3), ("span", 2, 16, 4), ("arch", 2, 25, 5), ("bridge", 1, 36, 6),
]


def test_stones_json_lists_the_default_set_as_the_seeds_give_it(run_cli):
    done = run_cli("quarry", "stones", "--json")
    assert done.returncode == 0
    listed = json.loads(done.stdout)["stones"]
    assert [(s["name"], s["count"], s["points"], s["cubes"]) for s in listed] == SEEDS_TABLE
    assert sum(s["count"] for s in listed) == 25
    faces = {s["name"]: [f["name"] for f in s["faces"]] for s in listed}
    assert [n for n, f in faces.items() if f == ["up", "down"]] == ["step", "arch", "bridge"]
    assert all("left" not in s for s in listed)


def test_stones_of_a_position_count_what_each_player_has_left(run_cli):
    raw = json.loads((GRIDS / "midgame.json").read_text())
    used = {p: Counter(m["stone"] for m in raw["moves"] if m.get("player") == p and "stone" in m) for p in ("black", "blue")}
    listed = json.loads(run_cli("quarry", "stones", str(GRIDS / "midgame.json"), "--json").stdout)["stones"]
    for stone in listed:
        assert stone["left"] == {p: stone["count"] - used[p][stone["name"]] for p in ("black", "blue")}
    assert any(stone["left"]["black"] != stone["count"] for stone in listed)


def test_stones_text_and_svg(run_cli, tmp_path):
    picture = tmp_path / "stones.svg"
    done = run_cli("quarry", "stones", "--svg", str(picture))
    assert done.returncode == 0
    rows = {line.split()[0]: line.split()[1:4] for line in done.stdout.splitlines()[2:12]}
    assert rows["arch"] == ["5", "25", "2"] and rows["bridge"] == ["6", "36", "1"]
    root = ElementTree.fromstring(picture.read_text())
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "arch (up)" in texts and "arch (down)" in texts and "block" in texts
    cubes = sum(c for _, _, _, c in SEEDS_TABLE) + 3 + 5 + 6  # the second faces of step, arch, bridge
    assert len(root.findall(f".//{NS}polygon")) == 3 * cubes


def test_stones_file_and_refusals(run_cli, tmp_path):
    stones = tmp_path / "stones.json"
    stones.write_text(json.dumps({"stones": [{"name": "block", "count": 3, "faces": [{"layers": ["#"], "base": "e"}]}]}))
    listed = json.loads(run_cli("quarry", "stones", "--stones", str(stones), "--json").stdout)["stones"]
    assert [(s["name"], s["count"], s["points"], s["cubes"]) for s in listed] == [("block", 3, 1, 1)]
    both = run_cli("quarry", "stones", str(GRIDS / "midgame.json"), "--stones", str(stones))
    assert both.returncode == 2 and both.stderr.startswith("placesat: error:")
