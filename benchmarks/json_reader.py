"""The strict JSON reader (solver.core.inputs.parse_json) against Python's plain json.loads.

Builds an LSD-shaped position of about 24 MB in memory (160,000 tiles, indented as a person's
editor would save it; never written to disk) and times both readers: medians of --runs runs
after a warm-up, CPU seconds beside wall seconds. The careful token-by-token reader, which
the strict one falls back on only to place a refusal, is timed once for comparison.

    .venv/bin/python benchmarks/json_reader.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import once, timed  # noqa: E402

from placesat.core.inputs import _parse_json_carefully, parse_json  # noqa: E402


def big_position(tiles: int, seed: int = 1) -> str:
    """An LSD-shaped JSON document with ``tiles`` tiles at distinct random cells."""
    rng = random.Random(seed)
    cells: set[tuple[int, int]] = set()
    while len(cells) < tiles:
        cells.add((rng.randint(-1000, 1000), rng.randint(-1000, 1000)))
    field = [{"at": list(cell), "player": rng.randint(1, 4), "dots": "NES", "icon": "x"} for cell in sorted(cells)]
    return json.dumps({"players": 4, "field": field, "captured": [{}, {}, {}, {}], "to_move": 1}, indent=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tiles", type=int, default=160_000)
    args = parser.parse_args()
    text = big_position(args.tiles)
    print(f"document: {len(text) / 1e6:.1f} MB, {args.tiles} tiles")
    for label, read in (("json.loads (plain)", lambda: json.loads(text)), ("parse_json (strict)", lambda: parse_json(text, "big.json"))):
        cpu, wall, _ = timed(read, args.runs)
        print(f"{label:28s} CPU {cpu:5.2f} s   wall {wall:5.2f} s   (median of {args.runs})")
    _, cpu, wall = once(lambda: _parse_json_carefully(text, "big.json"))
    print(f"{'careful reader (fallback)':28s} CPU {cpu:5.2f} s   wall {wall:5.2f} s   (one run)")


if __name__ == "__main__":
    main()
