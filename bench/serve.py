#!/usr/bin/env python3
"""Benchmark ``todo serve``: the page's first load, an update's latency, idle CPU.

Runs the real command (``python -m todocli serve``) over a temporary home and
exits 1 when a target is missed:

- the page's first load with 20 lists of 20 tasks: median of 15 loads under
  ``LOAD_TARGET`` (300 ms), over HTTP on loopback;
- an update's latency, from a list file's write (a ``todo done`` in this process's
  own child, timed from its exit, and a person's save, timed from the write) to
  its event on an open page's stream: p50 and p95 over 50 writes, p95 under
  ``LIVE_TARGET`` (300 ms);
- the server's CPU while idle with 10 lists and one page open: its user and system
  time over ``IDLE_SECONDS`` (from ``/proc/PID/stat``), under 1% of a core.

Usage: ``python bench/serve.py [--writes N]`` (needs the serve extra).
Standard library only, besides the package under test.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD_TARGET = 0.300
LIVE_TARGET = 0.300
IDLE_TARGET = 0.01  # of one core
IDLE_SECONDS = 10.0


def make_home(home: Path, lists: int, tasks: int) -> None:
    sessions = home / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    for n in range(lists):
        lines = [f"- [ ] task {i} of list {n}" for i in range(tasks)]
        (sessions / f"list{n:02d}.md").write_text("# Todos\n\n" + "\n".join(lines) + "\n")


def start(env: dict[str, str]) -> tuple[subprocess.Popen[str], str, int, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "todocli", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().split()[-1]
    host = url.split("//", 1)[1].split("/", 1)[0]
    port = int(host.rsplit(":", 1)[1])
    token = url.split("token=", 1)[1]
    return proc, host, port, token


def get(host: str, port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Host": host})
    body = conn.getresponse().read()
    conn.close()
    return body


def first_load(env: dict[str, str]) -> float:
    proc, host, port, token = start(env)
    try:
        times = []
        for _ in range(15):
            began = time.perf_counter()
            body = get(host, port, f"/?token={token}")
            times.append(time.perf_counter() - began)
            assert body.count(b'class="task ') == 400, "the page lacks tasks"
        return statistics.median(times)
    finally:
        proc.terminate()
        proc.wait(10)


class Stream:
    def __init__(self, host: str, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", f"/events?token={token}", headers={"Host": host})
        self.response = self.conn.getresponse()
        self.event()  # the retry line

    def event(self) -> str:
        name = ""
        while True:
            line = self.response.readline().decode()
            if line in ("\n", ""):
                return name
            if line.startswith("event: "):
                name = line[7:].strip()


def latency(env: dict[str, str], home: Path, writes: int) -> tuple[list[float], list[float]]:
    proc, host, port, token = start(env)
    stream = Stream(host, port, token)
    time.sleep(0.3)
    by_todo: list[float] = []
    by_hand: list[float] = []
    target = home / "sessions" / "list00.md"
    try:
        for i in range(writes):
            subprocess.run(
                [sys.executable, "-m", "todocli", "-s", f"list{1 + i % 19:02d}", "add", f"b {i}"],
                env=env,
                check=True,
                capture_output=True,
            )
            landed = time.perf_counter()
            assert stream.event() == "list"
            by_todo.append(time.perf_counter() - landed)
            text = target.read_text() + f"- [ ] typed {i}\n"
            began = time.perf_counter()
            target.write_text(text)
            assert stream.event() == "list"
            by_hand.append(time.perf_counter() - began)
    finally:
        stream.conn.close()
        proc.terminate()
        proc.wait(10)
    return by_todo, by_hand


def idle_cpu(env: dict[str, str]) -> float:
    proc, host, port, token = start(env)
    stream = Stream(host, port, token)
    try:
        time.sleep(1.0)  # started, watching
        before = cpu_seconds(proc.pid)
        time.sleep(IDLE_SECONDS)
        return (cpu_seconds(proc.pid) - before) / IDLE_SECONDS
    finally:
        stream.conn.close()
        proc.terminate()
        proc.wait(10)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=50)
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
        env |= {"TODOCLI_HOME": str(home), "TODOCLI_PROJECT": "0"}
        make_home(home, 20, 20)
        load = first_load(env)
        ok = load < LOAD_TARGET
        failed |= not ok
        print(
            f"first load, 20 lists of 20 tasks: {load * 1000:.1f} ms (median of 15)"
            f"  {'ok' if ok else 'MISSED'} (< {LOAD_TARGET * 1000:.0f} ms)"
        )
        by_todo, by_hand = latency(env, home, args.writes)
        for who, values in (("todo add", by_todo), ("a person's save", by_hand)):
            p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
            ok = p95 < LIVE_TARGET
            failed |= not ok
            print(
                f"update, {who} to the page: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"
                f" over {len(values)} writes  {'ok' if ok else 'MISSED'} (p95 < 300 ms)"
            )
        sessions = home / "sessions"
        for extra in sorted(sessions.iterdir())[10:]:
            extra.unlink()  # ten lists open
        share = idle_cpu(env)
        ok = share < IDLE_TARGET
        failed |= not ok
        print(
            f"idle CPU, 10 lists and one page open: {share * 100:.2f}% of a core"
            f" over {IDLE_SECONDS:.0f} s  {'ok' if ok else 'MISSED'} (< 1%)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
