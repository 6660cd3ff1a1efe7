"""Packs at a publisher's scale: puzzles per second, and peak memory as the pack grows.

    .venv/bin/python benchmarks/lixso_packs.py make N OUT      # N 9x9 puzzles from the shipped packs
    .venv/bin/python benchmarks/lixso_packs.py memory N [N ...] [--command verify] [--jobs 1]
    .venv/bin/python benchmarks/lixso_packs.py rate [--jobs 1 2 local:2] [--repeat 3]
    .venv/bin/python benchmarks/lixso_packs.py generate --level 3 --count 40 [--jobs 1 2 local:2]
    .venv/bin/python benchmarks/lixso_packs.py chunks [--cluster local:2] [--items 2000] [--sizes 1 8 64]

``make`` writes copies of the 120 shipped 9x9 puzzles (levels 1-6) under new names, cycling
through them, so a pack of any length holds puzzles whose verdicts are known (never shipped:
a million puzzles is about 230 MB). ``memory`` makes packs of each size in a temporary folder
and runs ``placesat lixso COMMAND`` on each under ``/usr/bin/time -v``: peak resident memory
(maximum RSS of the parent; workers are forked and measured by the same tool only for the
parent) beside wall and CPU seconds. ``rate`` verifies the shipped packs (levels checked) and
reports puzzles per second; ``generate`` times ``lixso generate``; a ``--jobs`` value that is
not a number is a ``--cluster`` address. ``chunks`` measures the cluster path's own cost per
task and per item, on a function that does nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "grids" / "lixso"
PLACESAT = [str(Path(sys.executable).parent / "placesat")]


def shipped_records() -> list[str]:
    """The shipped 9x9 puzzles as records of text with their answers inline (each '# solution:'
    checked by verify, as in the packs made before answers were kept apart), without a name."""
    from placesat.lixso.model import Grid, format_grid, load_pack

    records = []
    for level in range(1, 7):
        for grid in load_pack(str(LEVELS / f"level-{level}.txt")):
            bare = Grid(grid.rows, metadata={k: v for k, v in grid.metadata.items() if k != "name"})
            records.append(format_grid(bare).rstrip("\n"))
    return records


def make(count: int, out: Path, levels: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> None:
    records = [r for r in shipped_records() if int(re.search(r"# level: (\d)", r)[1]) in levels]
    with open(out, "w") as handle:
        for i in range(count):
            handle.write(f"# name: P{i + 1:07d}\n{records[i % len(records)]}\n\n")


def measure(argv: list[str]) -> dict:
    """Run argv under /usr/bin/time -v: wall, user+system CPU seconds, peak RSS in MB."""
    result = subprocess.run(["/usr/bin/time", "-v"] + argv, capture_output=True, text=True,
                            env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})
    fields = dict(re.findall(r"^\s*(.+?): (.+)$", result.stderr, re.M))
    wall = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
    seconds = sum(float(part) * 60**k for k, part in enumerate(reversed(wall)))
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    return {"wall": seconds, "cpu": cpu, "rss_mb": int(fields["Maximum resident set size (kbytes)"]) / 1024,
            "code": result.returncode, "lines": result.stdout.count("\n")}


def memory(sizes: list[int], command: str, jobs: int, levels: tuple[int, ...]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            pack = Path(folder) / f"pack-{n}.txt"
            make(n, pack, levels)
            extra = ["--jobs", str(jobs)] if command == "verify" else []
            row = measure(PLACESAT + ["lixso", command, str(pack), "--json"] + extra)
            size = pack.stat().st_size / 1e6
            print(f"{command} {n:>9} puzzles ({size:7.1f} MB, levels {','.join(map(str, levels))}, jobs {jobs}): "
                  f"peak {row['rss_mb']:6.1f} MB, wall {row['wall']:8.1f} s, CPU {row['cpu']:8.1f} s, "
                  f"{n / row['wall']:8.1f} puzzles/s, exit {row['code']}, {row['lines']} lines", flush=True)
            pack.unlink()


def where(jobs: str) -> list[str]:
    """``--jobs N``, or ``--cluster ADDRESS`` for a value that is not a number."""
    return ["--jobs", jobs] if jobs.isdigit() else ["--cluster", jobs]


def rate(jobs_list: list[str], repeat: int) -> None:
    for level in range(1, 7):
        pack = LEVELS / f"level-{level}.txt"
        for jobs in jobs_list:
            rows = [measure(PLACESAT + ["lixso", "verify", str(pack), "--json"] + where(jobs)) for _ in range(repeat)]
            walls = sorted(r["wall"] for r in rows)
            cpus = sorted(r["cpu"] for r in rows)
            print(f"verify level-{level} (20 puzzles) jobs {jobs}: median wall {walls[len(walls) // 2]:.2f} s"
                  f" ({20 / walls[len(walls) // 2]:.1f} puzzles/s), CPU {cpus[len(cpus) // 2]:.2f} s", flush=True)


def generate(level: int, count: int, jobs_list: list[str], extra: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for jobs in jobs_list:
            out = Path(folder) / f"gen-{jobs}.txt"
            start = time.monotonic()
            row = measure(PLACESAT + ["lixso", "generate", "--level", str(level), "--count", str(count), "--seed", "7",
                                      "--out", str(out)] + where(jobs) + extra)
            print(f"generate level {level} x{count} jobs {jobs} {' '.join(extra)}: wall {row['wall']:.1f} s, "
                  f"CPU {row['cpu']:.1f} s, {count / row['wall']:.2f} puzzles/s, peak {row['rss_mb']:.0f} MB, "
                  f"exit {row['code']} ({time.monotonic() - start:.1f} s)", flush=True)


def _nothing(item: int) -> int:
    return item


def chunks(address: str, items: int, sizes: list[int]) -> None:
    """The cluster path's own cost: a function that does nothing, over ``items`` items, in
    chunks of each size (seconds per task and per item, start-up excluded)."""
    sys.path.insert(0, str(ROOT))
    from placesat.core.cluster import Cluster

    start = time.monotonic()
    with Cluster(address) as cluster:
        print(f"cluster {address}: connected and checked in {time.monotonic() - start:.2f} s", flush=True)
        for size in sizes:
            begin = time.monotonic()
            for _ in cluster.run_ordered(_nothing, range(items), chunk=size):
                pass
            spent = time.monotonic() - begin
            tasks = -(-items // size)
            print(f"  chunk {size:4d}: {items} items in {spent:.2f} s: {1000 * spent / tasks:.2f} ms per task, "
                  f"{1e6 * spent / items:.0f} us per item", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("make")
    p.add_argument("count", type=int)
    p.add_argument("out", type=Path)
    p = sub.add_parser("memory")
    p.add_argument("sizes", type=int, nargs="+")
    p.add_argument("--command", default="verify")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--levels", default="1,2,3,4,5,6")
    p = sub.add_parser("rate")
    p.add_argument("--jobs", nargs="+", default=["1", "2", "local:2"])
    p.add_argument("--repeat", type=int, default=3)
    p = sub.add_parser("generate")
    p.add_argument("--level", type=int, default=3)
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--jobs", nargs="+", default=["1", "2", "local:2"])
    p.add_argument("extra", nargs="*")
    p = sub.add_parser("chunks")
    p.add_argument("--cluster", default="local:2")
    p.add_argument("--items", type=int, default=2000)
    p.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64])
    args = parser.parse_args()
    if args.what == "make":
        make(args.count, args.out)
    elif args.what == "memory":
        memory(args.sizes, args.command, args.jobs, tuple(int(x) for x in args.levels.split(",")))
    elif args.what == "rate":
        rate(args.jobs, args.repeat)
    elif args.what == "chunks":
        chunks(args.cluster, args.items, args.sizes)
    else:
        generate(args.level, args.count, args.jobs, args.extra)


if __name__ == "__main__":
    main()
