"""bench/run.py's instruction mode, wired end to end (a stand-in valgrind reports a
count; the real one is too slow for a test), and its refusal without valgrind;
bench/size.py's sizes of what an agent reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "run.py"

# Runs the command it is given after callgrind's flags, and reports a count that
# grows with the length of the command line, as callgrind prints it.
FAKE_VALGRIND = """#!{python}
import subprocess, sys
args = sys.argv[1:]
while args[0].startswith("--"):  # callgrind's own options, then the command
    args = args[1:]
proc = subprocess.run(args)
sys.stderr.write(f"==1== Collected : {{1000000 * len(args)}}\\n")
sys.exit(proc.returncode)
"""


def bench(args: list[str], path: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
    env["PATH"] = path
    return subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, env=env, timeout=300
    )


def test_instructions_are_counted_for_every_agent_path_form(tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "valgrind"
    fake.write_text(FAKE_VALGRIND.format(python=sys.executable))
    fake.chmod(0o755)
    proc = bench(["--instructions"], f"{tools}{os.pathsep}{os.environ['PATH']}")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split("  ")[0]: line for line in proc.stdout.splitlines() if " M " in line}
    assert "python -c pass" in rows
    assert rows["python -c pass"].endswith("1.00x")
    forms = [name for name in rows if name != "python -c pass"]
    assert len(forms) == 12  # 5 forms on the plain list, 7 on the Claude Code one
    assert "claude: apply --json (TodoWrite)" in forms
    # The stand-in's count is 1M per word of the command run (`python -c pass`: 3),
    # and each ratio is the form's count over bare Python's.
    for name, row in rows.items():
        count, unit, ratio = (
            row.split()[1:][-4:-1] if name != "python -c pass" else row.split()[-3:]
        )
        assert unit == "M"
        assert float(count) == int(float(count)) >= 2, name
        assert ratio == f"{float(count) / 3:.2f}x", name
    assert rows["plain: show --plain"].endswith("1.5x")
    assert rows["plain: done X"].endswith("1.7x")
    assert rows["claude: apply --json (TodoWrite)"].endswith("2.0x")
    assert rows["plain: apply --json (5 ops)"].endswith("1.9x")


def test_a_missed_start_up_target_fails_the_instruction_count(tmp_path: Path) -> None:
    """The stand-in counts todo's runs 10 times over: every form misses its target,
    each is named, and the bench exits 1."""
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "valgrind"
    fake.write_text(
        FAKE_VALGRIND.format(python=sys.executable).replace(
            "1000000 * len(args)", "1000000 * len(args) * (1 if '-c' in args else 10)"
        )
    )
    fake.chmod(0o755)
    proc = bench(["--instructions"], f"{tools}{os.pathsep}{os.environ['PATH']}")
    assert proc.returncode == 1
    missed = [line for line in proc.stdout.splitlines() if line.startswith("MISSED ")]
    assert len(missed) == 12
    assert any(
        "claude: apply --json (TodoWrite)" in line and "(target 2.0x)" in line for line in missed
    )


def test_instructions_without_valgrind_is_refused_in_one_line(tmp_path: Path) -> None:
    proc = bench(["--instructions"], str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr == "--instructions needs valgrind (Debian: apt install valgrind)\n"


def test_sizes_are_printed_for_every_agent_path_output_and_meet_the_targets() -> None:
    """bench/size.py end to end, with the real ``todo`` and ``todo mcp``: a row for
    each form on each list, and the lean targets (a step on a 20-task list at most
    400 characters, its --json at most 40% of the 14,440 it was, the tool list at
    most 4,000)."""
    pytest.importorskip("mcp")
    proc = bench_size()
    assert proc.returncode == 0, proc.stderr
    rows = {}
    for line in proc.stdout.splitlines():
        name, count = line.rsplit(" chars", 1)[0].rsplit(None, 1)
        rows[name.strip()] = int(count.replace(",", ""))
    for size in (5, 10, 20):
        for form in ("show", "done", "start next", "apply ops", "apply TodoWrite"):
            assert f"{size} tasks: {form}" in rows
            assert f"{size} tasks: {form} --json" in rows
        assert f"{size} tasks: mcp todo_write text" in rows
    assert rows["20 tasks: done"] <= 400
    assert rows["20 tasks: mcp todo_write text"] <= 600
    assert rows["20 tasks (todo init): done --json"] <= 14_440 * 0.4
    assert rows["mcp tools/list"] <= 4000


def bench_size() -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "size.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def bench_hostile(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hostile.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_hostile_shapes_are_read_and_written_beside_bare_python() -> None:
    """bench/hostile.py end to end, with the real ``todo``, at 10 KB: a row for
    each shape with a read and a write time, after ``python -c pass``."""
    proc = bench_hostile(["--runs", "1", "--sizes", "10000"])
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[3].startswith("python -c pass")
    assert lines[3].endswith(" ms")
    rows = [line for line in lines[4:] if line.strip()]
    shapes = [row.rsplit("10 KB", 1)[0].strip() for row in rows]
    assert "nested markers" in shapes
    assert "blocked-by list" in shapes
    assert len(shapes) == 18
    for row in rows:
        assert row.count(" ms") == 2, row


def test_a_one_megabyte_read_over_the_limit_fails_the_bench() -> None:
    proc = bench_hostile(
        ["--runs", "1", "--sizes", "1000000", "--shapes", "long line", "--limit", "0.001"]
    )
    assert proc.returncode == 1
    missed = [line for line in proc.stdout.splitlines() if line.startswith("MISSED ")]
    assert len(missed) == 1
    assert missed[0].startswith("MISSED long line (1 MB): read in ")
    assert missed[0].endswith(" s (limit 0.001 s)")
