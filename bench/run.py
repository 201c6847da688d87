#!/usr/bin/env python3
"""Benchmark todocli against a bare interpreter measured in the same run.

Standard library only. Builds its fixtures in a temporary home, times every case
interleaved with the others (so drift in machine load hits all of them alike),
takes the median of at least 15 runs each, prints each figure with its ratio to
``python -c pass`` on the same interpreter, and exits 1 when a start-up target
is missed:

- ``todo show --plain``, ``todo show --json``, ``todo done X``, ``todo apply`` and
  ``todo apply --json`` (5 ops) on two 20-task lists, a plain one and a Claude Code
  one (every task with an active form, written by ``todo apply`` of a TodoWrite
  payload, which is also sent again, changed, as that list's agent would): median
  within ``START_UP_TARGETS`` of bare Python (a read 1.5x, a flag write 1.7x, a
  JSON form 1.9x, a full TodoWrite snapshot 2.0x), and faster than todo.txt-cli's
  ``ls`` when that is installed;
- a 10,000-task list shows, or takes one ``done``, in under 0.25 s; a 1,000-op
  batch on it in under 0.5 s;
- cost grows linearly: from 10,000 to 100,000 tasks the work (time minus bare
  start-up) grows no more than 15 times;
- peak RSS of an agent-path call under 25 MB (read from ``/proc/self/status``
  ``VmHWM`` as the call exits: ``wait4``'s ``ru_maxrss`` would also count the
  benchmark's own memory, copied into the child by ``fork`` before ``exec``).

Usage: ``python bench/run.py [--runs N] [--quick]`` (``--quick`` skips 100,000).
Run it from an installed checkout: it calls the ``todo`` script beside this Python.

``--instructions`` counts instead of timing: the instructions each agent-path form
executes, from one run under valgrind's callgrind, with its ratio to ``python -c
pass``. The counts do not drift with the machine's load, so they compare two
versions of the code exactly; this mode checks the start-up targets in
``START_UP_TARGETS`` (a read 1.5x, a flag write 1.7x, a JSON form 1.9x, a full
TodoWrite snapshot 2.0x) and exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# Start-up targets of the agent-path forms, against `python -c pass` in the same run
# (instructions with --instructions, else the median time), first match by name: a
# read, a flag write, a JSON form (a payload in, or --json out), a full TodoWrite
# snapshot.
START_UP_TARGETS = (
    ("show --plain", 1.5),
    ("done X", 1.7),
    ("(TodoWrite)", 2.0),
    ("", 1.9),
)


def start_up_target(name: str) -> float:
    return next(limit for part, limit in START_UP_TARGETS if part in name)


RSS_LIMIT_MB = 25.0


def todo_command() -> list[str]:
    script = Path(sys.executable).parent / "todo"
    return [str(script)] if script.exists() else [sys.executable, "-m", "todocli"]


def write_list(path: Path, count: int) -> None:
    lines = ["# Benchmark", "", "## Work"]
    lines += [f"- [{'/' if i == 0 else ' '}] task {i}" for i in range(count)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


FIVE_OPS = json.dumps(
    {
        "ops": [
            {"op": "done", "task": "task 0"},
            {"op": "note", "task": "task 1", "text": "looked into it"},
            {"op": "start", "task": "task 1"},
            {"op": "append", "phase": "Work", "items": ["task 20"]},
            {"op": "block", "task": "task 5", "reason": "waiting"},
        ]
    }
).encode()


def todo_write(done: int) -> bytes:
    """Claude Code's TodoWrite payload for 20 tasks: the first ``done`` completed,
    the next in progress, every task with its active form."""
    todos = [
        {
            "content": f"task {i}",
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
            "activeForm": f"Working on task {i}",
        }
        for i in range(20)
    ]
    return json.dumps({"todos": todos}).encode()


def write_claude_list(home: Path, todo: list[str], env: dict[str, str]) -> None:
    """A Claude Code list, written the way it is in use: by ``todo apply``."""
    made = subprocess.run([*todo, "apply"], input=todo_write(0), env=env, capture_output=True)
    text = (home / "sessions" / "default.md").read_text()
    if made.returncode != 0 or text.count("<!-- active: ") != 20:
        raise SystemExit(f"todo apply did not write the Claude Code list: {made.stderr!r}")


def agent_cases(
    label: str,
    pristine: Path,
    todo: list[str],
    env_for: Callable[[str], dict[str, str]],
    payloads: dict[str, bytes],
) -> list[Case]:
    """Every agent-path form on one list (a form that writes starts from a copy of
    the pristine home each time)."""
    shutil.copytree(pristine, pristine.with_name(label))
    cases = [
        Case(f"{label}: show --plain", [*todo, "show", "--plain"], env_for(label)),
        Case(f"{label}: show --json", [*todo, "show", "--json"], env_for(label)),
        Case(f"{label}: done X", [*todo, "done", "task 0"], env_for(f"{label}-d"), reset=pristine),
    ]
    for name, payload in payloads.items():
        for flags in ([], ["--json"]):
            cases.append(
                Case(
                    f"{label}: " + " ".join(["apply", *flags, f"({name})"]),
                    [*todo, "apply", *flags],
                    env_for(f"{label}-a{len(cases)}"),
                    payload,
                    reset=pristine,
                )
            )
    return cases


class Case:
    """One command to time, with the state it starts from."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        env: dict[str, str],
        stdin: bytes = b"",
        reset: Path | None = None,
    ) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.stdin = stdin
        self.reset = reset  # a home to restore before each run (untimed)
        self.times: list[float] = []

    def run_once(self) -> None:
        if self.reset is not None:
            home = Path(self.env["TODOCLI_HOME"])
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(self.reset, home)
            # Flush the reset to disk now, untimed: otherwise the timed call's own
            # fsync would pay for writing out the files just copied.
            os.sync()
        start = time.perf_counter()
        proc = subprocess.Popen(
            self.argv,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert proc.stdin is not None
        assert proc.stderr is not None
        proc.stdin.write(self.stdin)
        proc.stdin.close()
        code = proc.wait()
        elapsed = time.perf_counter() - start
        err = proc.stderr.read()
        if code not in (0, 1) or b"Traceback" in err:
            raise SystemExit(f"{self.name}: exit {code}: {err.decode(errors='replace')}")
        self.times.append(elapsed)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


PROBE = """
import atexit, sys
def report():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write("PEAK " + line.split()[1] + "\\n")
atexit.register(report)
args = sys.argv[1:]
if args:
    sys.argv = ["todo", *args]
    from todocli.__main__ import main
    main()
"""


def peak_rss_mb(args: list[str], env: dict[str, str], stdin: bytes) -> float:
    """The call's own peak resident memory, as the kernel counts it for its image."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], input=stdin, env=env, capture_output=True, check=False
    )
    for line in proc.stderr.decode(errors="replace").splitlines():
        if line.startswith("PEAK "):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no peak RSS reported for {args}: {proc.stderr.decode(errors='replace')}")


def interleave(cases: list[Case], runs: int) -> None:
    for case in cases:  # one untimed warm-up each: disk caches, bytecode
        case.run_once()
        case.times.clear()
    for round_ in range(runs):
        order = cases[round_ % len(cases) :] + cases[: round_ % len(cases)]
        for case in order:
            case.run_once()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs per case (at least 15)")
    parser.add_argument("--quick", action="store_true", help="skip the 100,000-task point")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the agent-path forms' instructions under valgrind (report only)",
    )
    args = parser.parse_args()
    runs = max(args.runs, 15)
    if args.instructions and shutil.which("valgrind") is None:
        print("--instructions needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        return 2

    import todocli

    # Installed packages ship bytecode; an editable checkout may not have it yet.
    compileall.compile_dir(str(Path(todocli.__file__).parent), quiet=1)
    todo = todo_command()
    work = Path(tempfile.mkdtemp(prefix="todocli-bench-"))
    try:
        if args.instructions:
            return count_instructions(work, todo)
        return run(work, todo, runs, args.quick)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bench_env(work: Path) -> tuple[dict[str, str], Callable[[str], dict[str, str]]]:
    """The environment of bare Python, and of todo on the home named."""
    base_env = {key: value for key, value in os.environ.items() if not key.startswith("TODOCLI_")}
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)
    config = work / "config.toml"
    config.write_text("max_tasks = 1000000\nmax_input_bytes = 100000000\n")

    def env_for(name: str) -> dict[str, str]:
        return {**base_env, "TODOCLI_HOME": str(work / name), "TODOCLI_CONFIG": str(config)}

    return base_env, env_for


def agent_path(
    work: Path, todo: list[str], base_env: dict[str, str], env_for: Callable[[str], dict[str, str]]
) -> tuple[Case, list[Case]]:
    """Bare Python, and every agent-path form on 20 tasks, plain and with active forms."""
    small = work / "small-pristine"
    write_list(small / "sessions" / "default.md", 20)
    claude = work / "claude-pristine"
    write_claude_list(claude, todo, env_for("claude-pristine"))
    bare = Case("python -c pass", [sys.executable, "-c", "pass"], base_env)
    agent = agent_cases("plain", small, todo, env_for, {"5 ops": FIVE_OPS})
    agent += agent_cases(
        "claude", claude, todo, env_for, {"5 ops": FIVE_OPS, "TodoWrite": todo_write(1)}
    )
    return bare, agent


def instructions(case: Case) -> int:
    """The instructions one run of the case executes (callgrind's count), from its
    starting state, with every file of its home dated long ago: a list changed
    within the last 100 ms makes todo wait for a save that may be under way."""
    home = Path(case.env.get("TODOCLI_HOME", "/nonexistent"))
    if case.reset is not None:
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(case.reset, home)
    for folder, _, files in os.walk(home):
        for name in [*files, "."]:
            os.utime(os.path.join(folder, name), (1e9, 1e9), follow_symlinks=False)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *case.argv],
        input=case.stdin,
        env=case.env,
        capture_output=True,
        check=False,
    )
    found = re.search(rb"Collected : (\d+)", proc.stderr)
    if proc.returncode not in (0, 1) or found is None:
        raise SystemExit(f"{case.name}: exit {proc.returncode}: {proc.stderr[-2000:]!r}")
    return int(found.group(1))


def count_instructions(work: Path, todo: list[str]) -> int:
    base_env, env_for = bench_env(work)
    bare, agent = agent_path(work, todo, base_env, env_for)
    print(f"machine: Python {sys.version.split()[0]} ({sys.executable}), valgrind callgrind")
    print(f"\n{'case':<38} {'instructions':>14} {'ratio':>7} {'target':>7}")
    base = min(instructions(bare) for _ in range(2))
    print(f"{bare.name:<38} {base / 1e6:12.1f} M {1:6.2f}x")
    missed = []
    for case in agent:
        count = instructions(case)
        ratio, limit = count / base, start_up_target(case.name)
        print(f"{case.name:<38} {count / 1e6:12.1f} M {ratio:6.2f}x {limit:6.1f}x")
        if round(ratio, 2) > limit:
            missed.append(f"{case.name}: {ratio:.2f}x python -c pass (target {limit}x)")
    for line in missed:
        print(f"MISSED {line}")
    return 1 if missed else 0


def run(work: Path, todo: list[str], runs: int, quick: bool) -> int:
    base_env, env_for = bench_env(work)

    # -- the agent path on 20 tasks, plain and with active forms ---------------------------
    bare, agent = agent_path(work, todo, base_env, env_for)
    help_case = Case("todo --help", [*todo, "--help"], env_for("plain"))
    cases = [bare, *agent, help_case]
    todo_txt = shutil.which("todo-txt") or shutil.which("todo.sh")
    if todo_txt:
        txt_dir = work / "todotxt"
        txt_dir.mkdir()
        (txt_dir / "todo.txt").write_text("".join(f"task {i}\n" for i in range(20)))
        (txt_dir / "config").write_text(
            f'export TODO_DIR="{txt_dir}"\n'
            'export TODO_FILE="$TODO_DIR/todo.txt"\n'
            'export DONE_FILE="$TODO_DIR/done.txt"\n'
            'export REPORT_FILE="$TODO_DIR/report.txt"\n'
        )
        check = subprocess.run(
            [todo_txt, "-d", str(txt_dir / "config"), "ls"], capture_output=True, text=True
        )
        if check.returncode != 0 or "task 19" not in check.stdout:
            raise SystemExit(f"todo-txt ls does not list its fixture: {check.stdout}{check.stderr}")
        cases.append(Case("todo-txt ls", [todo_txt, "-d", str(txt_dir / "config"), "ls"], base_env))
    interleave(cases, runs)

    failures: list[str] = []
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]} ({sys.executable})")
    print(f"runs: median of {runs}, interleaved\n")
    print(f"{'case':<38} {'median':>10} {'ratio':>7}")
    for case in cases:
        ratio = case.median / bare.median
        print(f"{case.name:<38} {case.median * 1000:8.1f} ms {ratio:6.2f}x")
    for case in agent:
        ratio, limit = case.median / bare.median, start_up_target(case.name)
        if ratio > limit:
            failures.append(f"{case.name}: {ratio:.2f}x bare Python (target {limit}x)")
        if todo_txt and case.median >= cases[-1].median:
            failures.append(f"{case.name}: not faster than todo-txt ls")
    if not todo_txt:
        print("(todo.txt-cli is not installed: no comparison with its ls)")

    # -- scale ---------------------------------------------------------------------------------
    sizes = [1_000, 10_000] + ([] if quick else [100_000])
    print(f"\n{'scale':<30} " + " ".join(f"{n:>12,}" for n in sizes))
    rows: dict[str, dict[int, float]] = {"show": {}, "done": {}, "1000-op batch": {}}
    scale_runs = max(5, runs // 3)
    for n in sizes:
        pristine = work / f"scale-{n}-pristine"
        write_list(pristine / "sessions" / "default.md", n)
        batch = json.dumps(
            {
                "ops": [
                    {"op": "done", "task": f"task {i}"}
                    if i % 2
                    else {"op": "note", "task": f"task {i}", "text": "n"}
                    for i in range(1000)
                ]
            }
        ).encode()
        scale_cases = [
            Case("show", [*todo, "show", "--plain"], env_for(f"scale-{n}"), reset=pristine),
            Case(
                "done", [*todo, "done", f"task {n // 2}"], env_for(f"scale-{n}-d"), reset=pristine
            ),
            Case("1000-op batch", [*todo, "apply"], env_for(f"scale-{n}-b"), batch, reset=pristine),
        ]
        interleave(scale_cases, scale_runs)
        for case in scale_cases:
            rows[case.name][n] = case.median
    for name, points in rows.items():
        print(f"{name:<30} " + " ".join(f"{points[n] * 1000:9.1f} ms" for n in sizes))
    limits = {"show": 0.25, "done": 0.25, "1000-op batch": 0.5}
    for name, limit in limits.items():
        if rows[name][10_000] >= limit:
            failures.append(
                f"10,000 tasks, {name}: {rows[name][10_000]:.3f} s (target < {limit} s)"
            )
    if not quick:
        for name, points in rows.items():
            growth = (points[100_000] - bare.median) / max(points[10_000] - bare.median, 1e-9)
            print(f"  {name}: 10k -> 100k work grows {growth:.1f}x (linear: ~10x)")
            if growth > 15:
                failures.append(f"{name}: work grows {growth:.1f}x from 10k to 100k tasks")

    # -- memory ----------------------------------------------------------------------------------
    print(f"\n{'peak RSS (agent path)':<38}")
    if not Path("/proc/self/status").exists():
        print("(no /proc: peak RSS not measured)")
    else:
        print(f"{'python -c pass':<38} {peak_rss_mb([], base_env, b''):8.1f} MB")
        for case in agent:
            if case.reset is not None:
                home = Path(case.env["TODOCLI_HOME"])
                shutil.rmtree(home, ignore_errors=True)
                shutil.copytree(case.reset, home)
            mb = peak_rss_mb(case.argv[len(todo) :], case.env, case.stdin)
            print(f"{case.name:<38} {mb:8.1f} MB")
            if mb >= RSS_LIMIT_MB:
                failures.append(f"{case.name}: peak RSS {mb:.1f} MB (target < {RSS_LIMIT_MB} MB)")

    if failures:
        print("\nMISSED TARGETS:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print("\nAll start-up targets met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
