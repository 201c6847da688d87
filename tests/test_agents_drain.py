"""Eight agents drain one plan with dependencies, each a loop of real ``todo``
processes (claim, a short random pause, done): every task is completed exactly
once, none is claimed twice, none starts before its dependencies are completed,
and no write is lost.

The full size runs everywhere: about 50 s on two busy cores (under the minute past
which a stress test is made opt-in, see test_reliability).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

AGENTS = 8


def make_plan(count: int, seed: int) -> tuple[str, dict[str, list[str]]]:
    """A plan of ``count`` tasks, each waiting on up to two earlier ones (a DAG by
    construction), as a person would type it; and each task's dependencies by text."""
    rng = random.Random(seed)
    lines = ["# Drain\n"]
    deps: dict[str, list[str]] = {}
    for i in range(1, count + 1):
        on = sorted(rng.sample(range(1, i), min(i - 1, rng.choice((0, 0, 1, 2)))))
        deps[f"task {i}"] = [f"task {d}" for d in on]
        tail = f"id: {i}" + (f"; blocked-by: {', '.join(map(str, on))}" if on else "")
        lines.append(f"- [ ] task {i} <!-- {tail} -->\n")
    return "".join(lines), deps


def todo_json(env: dict[str, str], *args: str) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", *args, "--json"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {}


def agent_loop(env: dict[str, str], name: str, seed: int, events: list[dict[str, Any]]) -> None:
    """Claim, pause, done, until nothing is open; every call is recorded."""
    rng = random.Random(seed)
    env = {**env, "TODOCLI_AGENT": name}
    while True:
        start = time.monotonic()
        code, data = todo_json(env, "claim")
        end = time.monotonic()
        if code != 0:
            assert code == 1, data
            if data["stats"]["total"] == data["stats"]["completed"]:
                return  # every task done
            time.sleep(rng.uniform(0.01, 0.05))
            continue
        task = data["data"]["task"]
        events.append({"kind": "claim", "task": task["content"], "start": start, "end": end})
        events[-1]["seen"] = {t["content"]: t["status"] for t in data["data"]["todos"]}
        time.sleep(rng.uniform(0, 0.03))
        start = time.monotonic()
        code, data = todo_json(env, "done")
        end = time.monotonic()
        assert code == 0, data
        events.append(
            {
                "kind": "done",
                "task": task["content"],
                "start": start,
                "end": end,
                "completed": data["changes"]["completed_tasks"],
            }
        )


def drain(tmp_path: Path, count: int) -> None:
    home = tmp_path / "home"
    (home / "sessions").mkdir(parents=True)
    text, deps = make_plan(count, seed=count)
    listing = home / "sessions" / "drain.md"
    listing.write_text(text)
    env = {
        **os.environ,
        "TODOCLI_HOME": str(home),
        "TODOCLI_SESSION": "drain",
        "TODOCLI_CONFIG": str(tmp_path / "none.toml"),
        "TODOCLI_MAX_TASKS": str(count),
        "TODOCLI_WIPE_ON_COMPLETE": "false",  # the final file keeps every task
        "TODOCLI_LOCK_TIMEOUT": "120",
    }
    logs: dict[str, list[dict[str, Any]]] = {f"agent-{k}": [] for k in range(AGENTS)}
    failures: list[BaseException] = []

    def run(name: str, seed: int) -> None:
        try:
            agent_loop(env, name, seed, logs[name])
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(n, k)) for k, n in enumerate(logs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures

    claims = {e["task"]: (n, e) for n, log in logs.items() for e in log if e["kind"] == "claim"}
    dones = {e["task"]: (n, e) for n, log in logs.items() for e in log if e["kind"] == "done"}
    every = [e for log in logs.values() for e in log]
    # Each task claimed once and completed once, by the agent that claimed it.
    assert sorted(e["task"] for e in every if e["kind"] == "claim") == sorted(deps)
    assert sorted(e["task"] for e in every if e["kind"] == "done") == sorted(deps)
    for task, (name, done) in dones.items():
        assert done["completed"] == [task], done
        assert claims[task][0] == name
    # No task started before its dependencies completed: in the list the claim
    # itself saw, under the lock, and in time (the claim ended after each
    # dependency's done began).
    for task, (_, claim) in claims.items():
        for dep in deps[task]:
            assert claim["seen"][dep] == "completed", (task, dep)
            assert claim["end"] > dones[dep][1]["start"], (task, dep)
    # The final file: every task completed, its owner the agent that did it.
    final = listing.read_text()
    for task, (name, _) in claims.items():
        line = next(ln for ln in final.splitlines() if ln.startswith(f"- [x] {task} <!--"))
        assert f"owner: {name} -->" in line, line
    assert final.count("- [x] ") == count
    assert "- [ ]" not in final
    assert "- [/]" not in final
    # No write lost: the plan as written (todo never wrote it: revision 1), then one
    # revision per claim and per done, nothing more.
    code, data = todo_json({**env, "TODOCLI_AGENT": ""}, "show")
    assert code == 0
    assert data["context"]["rev"] == 2 * count + 1
    # The completion log lists every task once.
    logs_dir = home / "memory" / "todos"
    (log_file,) = logs_dir.iterdir()
    block = log_file.read_text()
    assert f"[{count}/{count}] Completed:\n" in block
    for task in deps:
        assert block.count(f"\n- {task}\n") == 1, task


def test_eight_agents_drain_a_60_task_plan_with_dependencies(tmp_path: Path) -> None:
    # 60 tasks keep eight agents contending for the lock and waiting on dependencies
    # (each claim and done a real process); 200 cost a minute for no more coverage.
    drain(tmp_path, 60)
