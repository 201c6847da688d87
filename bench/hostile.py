#!/usr/bin/env python3
"""Hostile lists: the shapes that made reading (and so every write) quadratic,
each read and written at 10 KB, 100 KB and 1 MB.

Standard library only. Each shape is a list file an adversary (or an accident)
could leave where the list should be: thousands of list markers nested on one line
(``- - - ... [ ] x``), one ``blocked-by`` list thousands of ids long, a comment of
thousands of ``<!--``, a million blank lines, a note of thousands of lines... For
each shape and size this times, as the median of ``--runs`` runs of the installed
``todo`` (a new process each, as an agent calls it), a read (``todo --file F --plain
show``) and a write (``todo --file F add``, on a fresh copy each run), beside a
bare ``python -c pass`` measured in the same run. Reading stays linear: 100 KB
costs about ten times what 10 KB does, not a hundred.

Exits 1 when a read of a 1 MB file takes more than ``--limit`` seconds (1 s).

Usage: ``python bench/hostile.py [--runs N] [--sizes 10000,...] [--shapes a,b]
[--limit S]``. Run it from an installed checkout: it calls the ``todo`` script
beside this Python.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SIZES = (10_000, 100_000, 1_000_000)
MEGABYTE = 1_000_000
PAST = 60.0  # seconds a list's (and its folder's) times are set back before a call
HEAD = "# Todos\n- [ ] top\n"


def fill(unit: str, size: int, head: str = HEAD, tail: str = "") -> str:
    """``head``, ``unit`` repeated to make about ``size`` characters, ``tail``."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def blocked_by(size: int) -> str:
    ids: list[str] = []
    total = 0
    while total < size:
        ids.append(str(len(ids) + 2))
        total += len(ids[-1]) + 2
    return f"# Todos\n- [ ] x <!-- id: 1; blocked-by: {', '.join(ids)} -->\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "nested markers": lambda n: fill("- ", n, tail="[ ] x\n"),
    "nested ordered markers": lambda n: fill("1. ", n, tail="[ ] x\n"),
    "quoted items": lambda n: fill("> - ", n, tail="[ ] x\n"),
    "quote markers": lambda n: fill(">", n, tail=" - [ ] x\n"),
    "deep item then lazy lines": lambda n: fill("- ", n // 2, tail="p\n") + "x\n" * (n // 4),
    "deep item then blank lines": lambda n: fill("- ", n // 2, tail="p\n") + "\n" * (n // 2),
    "deep item then indented blank": lambda n: fill("- ", n // 2, tail="p\n") + "  \n" * (n // 6),
    "blank lines": lambda n: fill("\n", n),
    "paragraph lines": lambda n: fill("x\n", n),
    "indented lines": lambda n: fill("  x\n", n),
    "note lines": lambda n: fill("  > n\n", n),
    "blocked-by list": blocked_by,
    "metadata fields": lambda n: fill("id: 1; ", n, head="# Todos\n- [ ] x <!-- ", tail="-->\n"),
    "comment openers": lambda n: fill("<!--", n, head="# Todos\n- [ ] x ", tail=" -->\n"),
    "long line": lambda n: fill("word ", n, head="# Todos\n- [ ] ", tail="\n"),
    "thematic markers": lambda n: fill("- ", n, tail="-\n"),
    "unclosed comments": lambda n: fill("<!-- x\n", n),
    "fence lines": lambda n: fill("```\n", n),
}


def todo_command() -> list[str]:
    script = Path(sys.executable).parent / "todo"
    return [str(script)] if script.exists() else [sys.executable, "-m", "todocli"]


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or b"Traceback" in proc.stderr:
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr[-2000:]!r}")
    return elapsed


def settled(path: Path) -> None:
    """A list just written is waited on as a save perhaps still under way (the
    setting save_pause, storage/store.py), which is not the cost measured: its
    times and its folder's are set back, as a list saved a while ago has them."""
    past = time.time() - PAST
    for changed in (path, path.parent):
        os.utime(changed, (past, past))


def measure(root: Path, text: str, runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median seconds of a read and of a write of a list holding ``text`` (each in
    a home of its own: what one records of a list would change what the other does)."""
    reader = {**env, "TODOCLI_HOME": str(root / "reader")}
    writer = {**env, "TODOCLI_HOME": str(root / "writer")}
    lists = root / "lists"  # apart from the homes, whose files change their folder's time
    lists.mkdir(exist_ok=True)
    pristine = lists / "pristine.md"
    pristine.write_text(text)
    work = lists / "list.md"
    reads, writes = [], []
    for _ in range(runs):
        settled(pristine)  # the write before it changed their folder
        reads.append(timed([*todo_command(), "--file", str(pristine), "--plain", "show"], reader))
        shutil.copyfile(pristine, work)
        settled(work)
        writes.append(timed([*todo_command(), "--file", str(work), "add", "a new task"], writer))
    return statistics.median(reads), statistics.median(writes)


def size_name(size: int) -> str:
    return f"{size // MEGABYTE} MB" if size >= MEGABYTE else f"{size // 1000} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each case (median)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="file sizes")
    parser.add_argument("--shapes", default="", help="only these shapes (comma-separated)")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds a 1 MB read may take")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    names = [s for s in args.shapes.split(",") if s] or list(SHAPES)
    unknown = [name for name in names if name not in SHAPES]
    if unknown:
        print(f"unknown shape: {', '.join(unknown)} (shapes: {', '.join(SHAPES)})", file=sys.stderr)
        return 2
    missed = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
        env["TODOCLI_HOME"] = str(root / "home")
        bare = statistics.median(
            timed([sys.executable, "-c", "pass"], env) for _ in range(max(args.runs, 3))
        )
        version = sys.version.split()[0]
        print(f"machine: Python {version} ({sys.executable}), {os.cpu_count()} cores")
        print(f"\n{'shape':<24} {'size':>6} {'read':>9} {'write':>9}")
        print(f"{'python -c pass':<24} {'':>6} {bare * 1000:7.1f} ms")
        for name in names:
            for size in sizes:
                read, write = measure(root, SHAPES[name](size), args.runs, env)
                print(
                    f"{name:<24} {size_name(size):>6} {read * 1000:7.1f} ms {write * 1000:7.1f} ms",
                    flush=True,
                )
                if size >= MEGABYTE and read > args.limit:
                    missed.append(f"{name} ({size_name(size)}): read in {read:.2f} s")
    for line in missed:
        print(f"MISSED {line} (limit {args.limit:g} s)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
