"""Completion you can trust: a task's check runs before it is done, the evidence is
kept, the stop gate knows when it went stale, and a check runs only when this
user approved its exact text. Real commands, real ``todo`` processes, real git."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import git
from tests.support_cli import Run, install_launcher, start_todo, todo_process
from todocli.document.markdown import parse

TODO = f"{shlex.quote(sys.executable)} -m todocli"  # `todo` as a check runs it
CHECK_FAILED = 8  # the exit codes the README documents
CHECK_NOT_ALLOWED = 9
TAIL_BYTES = 4096  # the most of a check's output kept (todocli.app.evidence.checks.TAIL_BYTES)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "code.py").write_text("print(1)\n")
    git(repo, "add", "code.py")
    git(repo, "commit", "-q", "-m", "first")
    return repo


def todo_at(repo: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return todo_process("--file", str(repo / "TODO.md"), *args, cwd=repo, env=env)


def line(repo: Path, text: str) -> str:
    return next(ln for ln in (repo / "TODO.md").read_text().splitlines() if text in ln)


# -- the check on a task ------------------------------------------------------------------


def test_a_check_lives_in_the_metadata_comment_hidden_and_round_trips(repo: Path) -> None:
    assert todo_at(repo, "add", "Tests pass", "--check", "pytest -q; echo <done>").code == 0
    written = line(repo, "Tests pass")
    assert written == "- [/] Tests pass <!-- check: pytest -q%3B echo %3Cdone%3E -->"
    shown = todo_at(repo, "show")
    assert "pytest" not in shown.out  # hidden, as the rest of the comment is
    by_hand = "# Plan\n\n- [ ] Ship <!-- id: 4; check: make  test ;  evidence: v1.2 -->\n"
    doc = parse(by_hand)
    assert doc.text() == by_hand  # byte-exact
    (task,) = [t for _, t in doc.model().tasks()]
    assert (task.meta.id, task.meta.check, task.meta.evidence) == ("4", "make  test", "v1.2")


def test_done_runs_a_passing_check_and_records_the_evidence(repo: Path) -> None:
    todo_at(repo, "add", "Tests pass", "--check", "echo fine")
    head = git(repo, "rev-parse", "HEAD")
    (repo / "code.py").write_text("print(2)\n")  # a change not committed: dirty
    result = todo_at(repo, "done", "Tests pass")
    assert result.code == 0, result.err
    written = line(repo, "Tests pass")
    assert written.startswith("- [x] Tests pass <!-- check: echo fine; checked: passed ")
    words = written.split("checked: ")[1].removesuffix(" -->").split()
    assert words[2:4] == ["exit", "0"]
    assert words[4].endswith("s")
    assert words[words.index("commit") + 1] == head[:12]
    assert words[-3] == "dirty"
    assert words[-2] == "digest"  # signed by this home (see the forged-evidence tests)
    assert len(words[-1]) == 16
    assert int(words[-1], 16) >= 0


def test_a_failing_check_keeps_the_task_open_with_its_tail_and_exit_8(repo: Path) -> None:
    todo_at(
        repo,
        "add",
        "Tests pass",
        "--check",
        "echo first; echo 'AssertionError: 2 != 3' >&2; exit 3",
    )
    before = (repo / "TODO.md").read_bytes()
    result = todo_at(repo, "done", "Tests pass")
    assert result.code == CHECK_FAILED
    assert "failed (exit 3" in result.err
    assert "AssertionError: 2 != 3" in result.out.splitlines()  # the tail, on stdout
    assert (repo / "TODO.md").read_bytes() == before  # still in progress, nothing written
    data = json.loads(todo_at(repo, "done", "Tests pass", "--json").out)
    assert data["error"]["code"] == "CHECK_FAILED"
    assert "Tests pass: AssertionError: 2 != 3" in data["error"]["details"]
    # The hint is true as typed: it completes the task, and says no check ran.
    hint = result.err.split("; ")[-1].split(" completes it anyway")[0]
    assert hint.startswith("todo --file ")
    bin_dir = repo.parent / "bin"
    bin_dir.mkdir()
    install_launcher(bin_dir).chmod(0o755)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PATH": path}
    assert subprocess.run(hint, shell=True, cwd=repo, env=env, check=False).returncode == 0
    assert "checked: no check ran " in line(repo, "[x] Tests pass")


PYTEST_FAILURE = """\
import sys
print("=" * 30, "FAILURES", "=" * 30)
for n in range(40):
    print(f"tests/test_retry.py:{n}: in test_retry_{n}")
    print(f"    assert backoff({n}) == {n + 1}")
print("E   AssertionError: assert 3 == 4")
print("FAILED tests/test_retry.py::test_retry_39 - AssertionError", file=sys.stderr)
sys.exit(1)
"""


def test_a_failed_check_s_tail_is_printed_once_with_its_line_breaks(repo: Path) -> None:
    """A pytest-like failure of about 3,000 characters: its end is shown once, on
    stdout (the reply the agent reads; stderr keeps its one line), over lines of
    its own, at most 1,500 characters; ``--json`` carries it in error.details."""
    (repo / "fail.py").write_text(PYTEST_FAILURE)
    printed = subprocess.run([sys.executable, "fail.py"], cwd=repo, capture_output=True)
    assert len(printed.stdout + printed.stderr) > 2800
    todo_at(repo, "add", "Tests pass", "--check", f"{shlex.quote(sys.executable)} fail.py")
    before = (repo / "TODO.md").read_bytes()
    result = todo_at(repo, "done", "Tests pass")
    assert result.code == CHECK_FAILED
    assert (repo / "TODO.md").read_bytes() == before
    # The whole reply, its list's path counted as short: the path (in the hint, twice)
    # is as long as the test's folder, longer under pytest-xdist.
    said = (result.out + result.err).replace(str(repo), "REPO")
    assert len(said) < 2000, said
    assert "\\n" not in result.out + result.err  # no literal \n: the lines are lines
    lines = result.out.splitlines()
    assert "E   AssertionError: assert 3 == 4" in lines
    assert "FAILED tests/test_retry.py::test_retry_39 - AssertionError" in lines
    head = lines.index("The end of the output of #1's check:")
    tail = "\n".join(lines[head + 1 : -1])  # up to the recap
    assert len(tail) <= 1500
    assert tail.startswith("tests/test_retry.py:") or tail.startswith("    assert")  # whole lines
    assert result.out.count("assert 3 == 4") == 1
    assert result.err.count("\n") == 1  # stderr: one line, the tail not in it
    assert "assert 3 == 4" not in result.err
    assert result.err.startswith('todo: the check of #1 "Tests pass" failed (exit 1')
    as_json = todo_at(repo, "done", "Tests pass", "--json")
    assert as_json.code == CHECK_FAILED
    assert as_json.out.count("assert 3 == 4") == 1  # once, in its field
    data = json.loads(as_json.out)
    assert "Tests pass: E   AssertionError: assert 3 == 4" in data["error"]["details"]
    assert "assert 3 == 4" not in as_json.err


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_hanging_check_times_out_and_its_whole_process_group_ends(repo: Path) -> None:
    pidfile = repo / "sleeper.pid"
    check = f"sleep 300 & echo $! > {shlex.quote(str(pidfile))}; echo waiting; wait"
    todo_at(repo, "add", "Hangs", "--check", check)
    result = todo_at(repo, "done", "Hangs", env={"TODOCLI_CHECK_TIMEOUT": "2"})
    assert result.code == 8
    assert "ran out of time after 2 s" in result.err
    assert "waiting" in result.out.splitlines()
    assert line(repo, "Hangs").startswith("- [/] Hangs")
    sleeper = int(pidfile.read_text())
    import time

    deadline = time.monotonic() + 10  # reaping the orphan is the system's, not ours
    while _alive(sleeper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(sleeper)


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_todo_ended_while_its_check_runs_ends_the_check_too(repo: Path, signal_name: str) -> None:
    import signal
    import time

    pidfile = repo / "sleeper.pid"
    check = "sleep 300 & echo $! > sleeper.tmp; mv sleeper.tmp sleeper.pid; wait"  # in repo/
    todo_at(repo, "add", "Hangs", "--check", check)
    before = (repo / "TODO.md").read_bytes()
    proc = start_todo(
        "--file",
        str(repo / "TODO.md"),
        "done",
        "Hangs",
        cwd=repo,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not pidfile.exists() and time.monotonic() < deadline:  # the check has started
        time.sleep(0.02)
    sleeper = int(pidfile.read_text())
    proc.send_signal(getattr(signal, signal_name))  # a harness's hook timeout
    assert proc.wait(timeout=30) != 0
    deadline = time.monotonic() + 10  # reaping the orphan is the system's, not ours
    while _alive(sleeper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(sleeper)
    assert (repo / "TODO.md").read_bytes() == before  # nothing written


# A todo whose check is being started when the signal comes: the seam is Popen, which
# waits until the check's background child is known, then ends todo before returning.
SIGNALLED_WHILE_STARTING = """
import os, signal, subprocess, sys, time
from todocli.app.evidence import checks

real = subprocess.Popen
pidfile = sys.argv[1]

def starting(*args, **kwargs):
    proc = real(*args, **kwargs)
    deadline = time.monotonic() + 30
    while not os.path.exists(pidfile) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
    time.sleep(0.2)  # the signal is handled here, before Popen returns
    return proc

checks.subprocess.Popen = starting
checks.run_check(
    "sleep 300 & echo $! > " + pidfile + ".tmp; mv " + pidfile + ".tmp " + pidfile + "; wait",
    os.path.dirname(pidfile), 60,
)
print("the check ran to its end")
"""


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_todo_ended_while_its_check_is_being_started_ends_the_check_too(
    tmp_path: Path, signal_name: str
) -> None:
    import time

    from tests.support_cli import default_signals

    pidfile = tmp_path / "sleeper.pid"
    proc = subprocess.run(
        [sys.executable, "-c", SIGNALLED_WHILE_STARTING, str(pidfile), signal_name],
        capture_output=True,
        timeout=60,
        preexec_fn=default_signals,
        check=False,
    )
    assert proc.returncode != 0
    assert b"ran to its end" not in proc.stdout
    sleeper = int(pidfile.read_text())
    deadline = time.monotonic() + 10  # reaping the orphan is the system's, not ours
    while _alive(sleeper) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(sleeper)
    if alive:
        os.kill(sleeper, 9)
    assert not alive


def test_a_check_that_exits_leaving_a_child_behind_passes_and_the_child_ends(
    repo: Path,
) -> None:
    pidfile = repo / "child.pid"
    todo_at(repo, "add", "Serve", "--check", f"sleep 300 & echo $! > {pidfile}; echo started")
    result = todo_at(repo, "done", "Serve", env={"TODOCLI_CHECK_TIMEOUT": "60"})
    assert result.code == 0, result.err
    assert "checked: passed" in line(repo, "Serve")
    child = int(pidfile.read_text())
    import time

    deadline = time.monotonic() + 10  # reaping the orphan is the system's, not ours
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_megabytes_of_output_keep_a_bounded_tail(tmp_path: Path) -> None:
    from todocli.app.evidence import checks
    from todocli.app.evidence.checks import run_check

    assert checks.TAIL_BYTES == TAIL_BYTES
    run = run_check(
        "head -c 5000000 /dev/zero | tr '\\0' x; echo; echo THE END; exit 1", str(tmp_path), 60
    )
    assert run.code == 1
    assert len(run.tail.encode()) <= TAIL_BYTES
    assert run.tail.endswith("THE END\n")


def test_megabytes_of_output_stay_bounded_in_the_reply(repo: Path) -> None:
    todo_at(repo, "add", "Loud", "--check", "head -c 3000000 /dev/zero | tr '\\0' y; exit 1")
    result = todo_at(repo, "done", "Loud")
    assert result.code == 8
    assert len(result.out) + len(result.err) < 4 * TAIL_BYTES


def test_a_check_that_writes_its_own_list_neither_deadlocks_nor_loses_the_write(
    repo: Path,
) -> None:
    listing = shlex.quote(str(repo / "TODO.md"))
    todo_at(repo, "add", "Build", "--check", f"{TODO} --file {listing} add 'Written by the check'")
    result = todo_at(repo, "done", "Build", env={"TODOCLI_LOCK_TIMEOUT": "20"})
    assert result.code == 0, result.err
    text = (repo / "TODO.md").read_text()
    assert "Written by the check" in text  # the check's own write is kept
    assert line(repo, "Build").startswith("- [x] Build")


def test_a_task_changed_while_its_check_ran_is_not_completed(repo: Path) -> None:
    listing = (repo / "TODO.md").as_posix()
    edit = f"sed -i 's/check: true%3B/check: true%3B echo changed%3B/' {shlex.quote(listing)}"
    todo_at(repo, "add", "Moving", "--check", f"true; {edit}")
    result = todo_at(repo, "done", "Moving")
    assert result.code == CHECK_NOT_ALLOWED  # the check changed: not approved
    assert line(repo, "Moving").startswith("- [/] Moving")


def test_no_check_completes_and_says_so_and_evidence_is_kept_and_logged(
    repo: Path, home: Path
) -> None:
    todo_at(repo, "add", "Deploy", "--check", "exit 1")
    todo_at(repo, "add", "Write docs")
    assert todo_at(repo, "done", "Deploy", "--no-check").code == 0
    assert "checked: no check ran" in line(repo, "Deploy")
    assert todo_at(repo, "done", "Write docs", "--evidence", "commit 1a2b3c; see #12").code == 0
    assert "evidence: commit 1a2b3c%3B see #12" in line(repo, "Write docs")
    shown = json.loads(todo_at(repo, "show", "--json").out)["data"]["todos"]
    deploy, docs = shown
    assert deploy["check"] == "exit 1"
    assert deploy["checked"].startswith("no check ran ")
    assert docs["evidence"] == "commit 1a2b3c; see #12"
    logs = list((home / "memory" / "todos").glob("*.md"))
    log = logs[0].read_text()
    assert "- Write docs\n  - evidence: commit 1a2b3c; see #12" in log
    assert "- Deploy\n  - check: `exit 1`: no check ran" in log


# -- the stop gate ------------------------------------------------------------------------


def test_the_gate_fails_on_evidence_a_commit_made_stale(repo: Path) -> None:
    todo_at(repo, "add", "Tests pass", "--check", "true")
    todo_at(repo, "add", "Other")
    todo_at(repo, "done", "Tests pass")
    todo_at(repo, "done", "Other")
    git(repo, "add", "TODO.md")
    git(repo, "commit", "-q", "-m", "the list alone")
    assert todo_at(repo, "check").code == 0  # a commit of the list file alone does not count
    (repo / "TODO.md").write_text((repo / "TODO.md").read_text() + "\nA line by hand.\n")
    assert todo_at(repo, "check").code == 0  # nor does a change to it
    (repo / "code.py").write_text("print(3)\n")
    git(repo, "commit", "-q", "-am", "code")
    gate = todo_at(repo, "check")
    assert gate.code == 1
    assert 'Stale evidence: 1 completed task without fresh evidence: "Tests pass"' in gate.out
    data = json.loads(todo_at(repo, "check", "--json").out)
    assert data["error"]["code"] == "STALE_EVIDENCE"
    stop = json.dumps({"session_id": "s1", "hook_event_name": "Stop"})
    hooked = todo_process("--file", str(repo / "TODO.md"), "check", "--hook", stdin=stop, cwd=repo)
    assert hooked.code == 1  # the Stop hook's gate stays shut, saying why
    assert 'Stale evidence: 1 completed task without fresh evidence: "Tests pass"' in hooked.out
    assert todo_at(repo, "check", "--verify").code == 0  # it passes again: fresh evidence
    assert todo_at(repo, "check").code == 0


def _pass_on_a_dirty_tree(repo: Path) -> None:
    """A check passed on work not yet committed: a changed file and a new one
    (untracked: the check saw it, so it is part of the tree checked)."""
    (repo / "code.py").write_text("print(2)\n")
    (repo / "new.py").write_text("print('new')\n")
    todo_at(repo, "add", "Tests pass", "--check", "true")
    assert todo_at(repo, "done", "Tests pass").code == 0
    assert " dirty digest " in line(repo, "Tests pass")


@pytest.mark.parametrize("with_list", [True, False], ids=["list-committed", "list-left-out"])
def test_evidence_stays_fresh_when_the_tree_it_passed_on_is_committed(
    repo: Path, with_list: bool
) -> None:
    """Fix, done, commit: the commit holds exactly the tree the check passed on
    (the list file committed with it or not), so the evidence holds."""
    _pass_on_a_dirty_tree(repo)
    git(repo, "add", "code.py", "new.py", *(["TODO.md"] if with_list else []))
    git(repo, "commit", "-q", "-m", "the fix")
    gate = todo_at(repo, "check")
    assert gate.code == 0, gate.out + gate.err
    # Any other file changed after the commit: stale again.
    (repo / "code.py").write_text("print(3)\n")
    gate = todo_at(repo, "check")
    assert gate.code == 1
    assert '"Tests pass": the work tree changed since it passed' in gate.out
    (repo / "code.py").write_text("print(2)\n")
    assert todo_at(repo, "check").code == 0  # back to the tree it passed on
    (repo / "other.py").write_text("x = 1\n")  # a new file counts too
    assert todo_at(repo, "check").code == 1


def test_evidence_goes_stale_on_a_commit_of_another_tree(repo: Path) -> None:
    """A commit that is not the tree the check passed on: the new file left out
    (untracked files count as part of the tree checked), or a file changed and
    committed since."""
    _pass_on_a_dirty_tree(repo)
    git(repo, "add", "code.py")
    git(repo, "commit", "-q", "-m", "half the work")
    gate = todo_at(repo, "check")
    assert gate.code == 1
    assert '"Tests pass": a commit since it passed' in gate.out
    git(repo, "add", "new.py")
    git(repo, "commit", "-q", "-m", "the rest")
    assert todo_at(repo, "check").code == 0  # now HEAD holds the tree it passed on
    (repo / "code.py").write_text("print(4)\n")
    git(repo, "commit", "-q", "-am", "more")
    gate = todo_at(repo, "check")
    assert gate.code == 1
    assert '"Tests pass": a commit since it passed' in gate.out


def test_a_check_a_snapshot_changes_on_a_completed_task_has_no_evidence(repo: Path) -> None:
    todo_at(repo, "add", "Tests pass", "--check", "true")
    assert todo_at(repo, "done", "Tests pass").code == 0
    assert todo_at(repo, "check").code == 0
    snapshot = {"todos": [{"content": "Tests pass", "status": "completed", "check": "exit 0"}]}
    listing = str(repo / "TODO.md")
    assert todo_process("--file", listing, "apply", stdin=json.dumps(snapshot), cwd=repo).code == 0
    assert line(repo, "Tests pass") == "- [x] Tests pass <!-- check: exit 0 -->"
    gate = todo_at(repo, "check")
    assert gate.code == 1
    assert '"Tests pass": its check never passed' in gate.out


def test_verify_reopens_a_task_whose_check_now_fails_with_a_note(repo: Path) -> None:
    (repo / "ok").write_text("")
    todo_at(repo, "add", "Feature", "--check", "test -f ok")
    todo_at(repo, "done", "Feature")
    (repo / "ok").unlink()
    assert todo_at(repo, "check").code == 1
    result = todo_at(repo, "check", "--verify", env={"TODOCLI_NOW": "2026-11-25T23:00:00"})
    assert result.code == 1
    text = (repo / "TODO.md").read_text()
    assert "- [ ] Feature" in text or "- [/] Feature" in text
    assert "Reopened 2026-11-25T23:00:00: its check failed (exit 1)" in text


def test_verify_says_which_tasks_it_reopened_and_why(repo: Path) -> None:
    """The reply of ``check --verify`` names each task its failed check reopened,
    in plain text and in ``changes.reopened``; a check that passes is not named."""
    (repo / "ok").write_text("")
    todo_at(repo, "add", "Feature", "--check", "test -f ok")
    todo_at(repo, "add", "Docs", "--check", "true")
    todo_at(repo, "done", "Feature")
    todo_at(repo, "done", "Docs")
    (repo / "ok").unlink()
    (repo / "code.py").write_text("print(4)\n")  # both records go stale
    plain = todo_at(repo, "check", "--verify")
    assert plain.code == 1  # the reopened task is open: exit codes as before
    assert plain.out.startswith('Reopened: "Feature" (its check failed: exit 1)\nOpen tasks (1):')
    assert "Docs" not in plain.out.split("Open tasks")[0]
    (repo / "ok").write_text("")
    todo_at(repo, "done", "Feature")
    (repo / "ok").unlink()
    (repo / "code.py").write_text("print(5)\n")
    data = json.loads(todo_at(repo, "check", "--verify", "--json").out)
    assert data["changes"]["reopened"] == [
        {"content": "Feature", "reason": "its check failed: exit 1"}
    ]
    assert data["error"]["code"] == "OPEN_TASKS"
    assert json.loads(todo_at(repo, "check", "--json").out)["changes"]["reopened"] == []


# -- forged evidence: a record the gate trusts is one this home's todo wrote ---------------


def _gate_says_stale(repo: Path, why: str, env: dict[str, str] | None = None) -> None:
    """``todo check`` (text, ``--json`` and the Stop hook's gate) fails, saying the
    task's evidence is stale and why."""
    gate = todo_at(repo, "check", env=env)
    assert gate.code == 1, gate.out + gate.err
    assert f'"Tests pass": {why}' in gate.out
    data = json.loads(todo_at(repo, "check", "--json", env=env).out)
    assert data["error"]["code"] == "STALE_EVIDENCE"
    assert any(d.startswith(f"Tests pass: {why}") for d in data["error"]["details"])
    stop = json.dumps({"session_id": "s1", "hook_event_name": "Stop"})
    hooked = todo_process(
        "--file", str(repo / "TODO.md"), "check", "--hook", stdin=stop, cwd=repo, env=env
    )
    assert hooked.code == 1
    assert f'"Tests pass": {why}' in hooked.out


NOT_OURS = "stale: not recorded by this home"


def test_the_sed_attack_on_a_no_check_record_is_stale_and_verify_runs_the_check(
    repo: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    todo_at(repo, "add", "Tests pass", "--check", f"touch {marker}")
    assert todo_at(repo, "done", "Tests pass", "--no-check").code == 0
    assert "checked: no check ran 20" in line(repo, "Tests pass")
    git(repo, "add", "TODO.md")
    git(repo, "commit", "-q", "-m", "plan")
    # The attack, as the issue tells it: sed, then any later commit.
    subprocess.run(
        [
            "sed",
            "-i",
            "s/checked: no check ran [^ ]*/checked: passed 2026-11-25T22:40:01 exit 0/",
            str(repo / "TODO.md"),
        ],
        check=True,
    )
    assert "checked: passed 2026-11-25T22:40:01 exit 0 -->" in line(repo, "Tests pass")
    (repo / "code.py").write_text("print(2)\n")
    git(repo, "commit", "-q", "-am", "later work")
    _gate_says_stale(repo, NOT_OURS)
    assert not marker.exists()  # the gate itself runs nothing
    verified = todo_at(repo, "check", "--verify")
    assert verified.code == 0, verified.out + verified.err
    assert marker.exists()  # --verify ran the check
    assert todo_at(repo, "check").code == 0  # now the record is todo's own


def test_a_forged_record_with_the_true_commit_and_tree_is_still_stale(
    repo: Path, tmp_path: Path
) -> None:
    """The attacker computes the commit and the tree with git itself (what todo
    records), so the record names the work tree exactly: without this home's
    digest it proves nothing."""
    marker = tmp_path / "ran"
    todo_at(repo, "add", "Tests pass", "--check", f"touch {marker}")
    assert todo_at(repo, "done", "Tests pass", "--no-check").code == 0
    head = git(repo, "rev-parse", "HEAD")
    index = tmp_path / "index"
    env = {**os.environ, "GIT_INDEX_FILE": str(index)}
    for args in (["add", "-A", "--", "."], ["rm", "-q", "--cached", "--", "TODO.md"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    tree = subprocess.run(
        ["git", "write-tree"], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    forged = f"passed 2026-11-25T22:40:01 exit 0 0.4s commit {head[:12]} tree {tree[:12]}"
    path = repo / "TODO.md"
    old = line(repo, "Tests pass").split("checked: ")[1].removesuffix(" -->")
    path.write_text(path.read_text().replace(old, forged))
    for fake_digest in ("", " digest 0123456789abcdef"):  # none, and one made up
        path.write_text(path.read_text().replace(forged + " digest 0123456789abcdef", forged))
        path.write_text(path.read_text().replace(forged, forged + fake_digest))
        _gate_says_stale(repo, NOT_OURS)
    assert not marker.exists()
    assert todo_at(repo, "check", "--verify").code == 0
    assert marker.exists()


def test_evidence_another_home_recorded_is_stale_here(repo: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    other = {"TODOCLI_HOME": str(tmp_path / "other-home")}
    todo_at(repo, "add", "Tests pass", "--check", f"touch {marker}", env=other)
    assert todo_at(repo, "done", "Tests pass", env=other).code == 0
    assert todo_at(repo, "check", env=other).code == 0  # the home that ran it trusts it
    marker.unlink()
    before = (repo / "TODO.md").read_bytes()
    _gate_says_stale(repo, NOT_OURS)  # this home does not
    assert (repo / "TODO.md").read_bytes() == before
    assert todo_at(repo, "check", "--verify").code == 1  # still stale: nothing ran
    assert not marker.exists()  # not approved here: --verify does not run it
    listed = todo_at(repo, "allow").out  # the person reads the command and its digest
    shown = listed.split("check not approved [", 1)[1].split("]", 1)[0]
    assert todo_at(repo, "allow", "Tests pass", "--digest", shown).code == 0
    assert todo_at(repo, "check", "--verify").code == 0
    assert marker.exists()  # approved: --verify ran it, and the record is now this home's
    assert todo_at(repo, "check").code == 0


@pytest.mark.parametrize("tamper", ["digit", "when", "other task"])
def test_a_record_whose_digest_does_not_verify_is_stale(
    repo: Path, tmp_path: Path, tamper: str
) -> None:
    marker = tmp_path / "ran"
    todo_at(repo, "add", "Tests pass", "--check", f"touch {marker}")
    todo_at(repo, "add", "Docs", "--check", "true")
    assert todo_at(repo, "done", "Docs").code == 0
    assert todo_at(repo, "done", "Tests pass").code == 0
    assert todo_at(repo, "check").code == 0
    marker.unlink()
    path = repo / "TODO.md"
    record = line(repo, "Tests pass").split("checked: ")[1].removesuffix(" -->")
    if tamper == "digit":  # one digit of the digest changed
        last = record[-1]
        forged = record[:-1] + ("0" if last != "0" else "1")
    elif tamper == "when":  # a field changed, the digest kept
        forged = record.replace("passed 20", "passed 19", 1)
    else:  # the record of another task of this list, copied whole
        forged = line(repo, "Docs").split("checked: ")[1].removesuffix(" -->")
    path.write_text(path.read_text().replace(record, forged, 1))
    _gate_says_stale(repo, NOT_OURS)
    assert not marker.exists()
    assert todo_at(repo, "check", "--verify").code == 0
    assert marker.exists()


def test_a_record_without_commit_and_tree_is_stale_in_a_git_work_tree(tmp_path: Path) -> None:
    """Signed, but made outside a work tree: once the folder is one, it names no
    commit and tree to compare, so it is stale."""
    folder = tmp_path / "plain"
    folder.mkdir()
    marker = tmp_path / "ran"
    todo_at(folder, "add", "Tests pass", "--check", f"touch {marker}")
    assert todo_at(folder, "done", "Tests pass").code == 0
    assert todo_at(folder, "check").code == 0  # outside a work tree: nothing to compare
    assert " commit " not in line(folder, "Tests pass")
    marker.unlink()
    git(folder, "init", "-q")
    git(folder, "add", "TODO.md")
    git(folder, "commit", "-q", "-m", "plan")
    _gate_says_stale(folder, "stale: it names no commit and tree, and this is a git work tree")
    assert not marker.exists()
    assert todo_at(folder, "check", "--verify").code == 0
    assert marker.exists()


def test_the_home_key_is_made_once_private_and_a_racing_one_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from todocli.app.evidence import checks

    home = str(tmp_path / "h")
    assert checks.home_key(home) is None
    placed_first = b"f" * 64

    def another_todo_places_its_key() -> None:  # between writing ours aside and placing it
        Path(home, "state", checks.KEY_FILE).write_bytes(placed_first + b"\n")

    monkeypatch.setattr(checks, "_before_key_placed", another_todo_places_its_key)
    assert checks.make_home_key(home) == placed_first  # the one placed first is used
    assert os.listdir(Path(home, "state")) == [checks.KEY_FILE]  # ours, set aside, removed
    monkeypatch.setattr(checks, "_before_key_placed", None)
    fresh = str(tmp_path / "fresh")
    key = checks.make_home_key(fresh)
    path = Path(fresh, "state", checks.KEY_FILE)
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(key) == 2 * checks.KEY_BYTES
    assert checks.make_home_key(fresh) == key == checks.home_key(fresh)


@pytest.mark.parametrize("planted", ["fifo", "symlink"])
def test_a_fifo_or_link_at_the_evidence_key_is_refused_without_blocking(
    repo: Path, tmp_path: Path, planted: str
) -> None:
    """Whoever can write the home could plant a FIFO (``todo done`` hung reading
    it) or a link to a key of their choosing: both are refused in one line."""
    from todocli.app.evidence import checks

    state = Path(os.environ["TODOCLI_HOME"], "state")
    state.mkdir(parents=True, exist_ok=True)
    key = state / checks.KEY_FILE
    if planted == "fifo":
        os.mkfifo(key)
    else:
        chosen = tmp_path / "chosen-key"
        chosen.write_text("f" * 64 + "\n")
        key.symlink_to(chosen)
    todo_at(repo, "add", "Ship", "--check", "true")
    done = subprocess.run(
        [sys.executable, "-m", "todocli", "--file", str(repo / "TODO.md"), "done", "Ship"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0
    assert "evidence key" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# -- trust ----------------------------------------------------------------------------------


def test_a_check_added_by_hand_is_not_run_until_allowed(repo: Path) -> None:
    marker = repo / "ran"
    (repo / "TODO.md").write_text(f"- [/] Ship <!-- check: touch {marker} -->\n")
    refused = todo_at(repo, "done", "Ship")
    assert refused.code == 9
    assert not marker.exists()
    digest = hashlib.sha256(f"touch {marker}".encode()).hexdigest()[:32]
    assert f"check not approved [{digest}]: touch {marker}" in todo_at(repo, "allow").out
    assert not marker.exists()
    assert todo_at(repo, "allow", "Ship").code == 9  # not without the digest of what was read
    allowed = todo_at(repo, "allow", "Ship", "--digest", digest)
    assert f'allowed the check of #1 "Ship": touch {marker}' in allowed.out
    assert todo_at(repo, "done", "Ship").code == 0
    assert marker.exists()


def test_a_changed_approved_check_is_not_run(repo: Path) -> None:
    marker = repo / "ran"
    todo_at(repo, "add", "Ship", "--check", "true")
    path = repo / "TODO.md"
    path.write_text(path.read_text().replace("check: true", f"check: touch {marker}"))
    assert todo_at(repo, "done", "Ship").code == 9
    assert not marker.exists()
    assert todo_at(repo, "done", "Ship", "--no-check").code == 0  # never blocks the person


def test_a_check_that_came_with_a_git_pull_is_not_run(repo: Path, tmp_path: Path) -> None:
    todo_at(repo, "add", "Ship", "--check", "true")
    git(repo, "add", "TODO.md")
    git(repo, "commit", "-q", "-m", "plan")
    mine = tmp_path / "mine"
    git(tmp_path, "clone", "-q", str(repo), str(mine))
    marker = mine / "ran"
    assert todo_at(mine, "done", "Ship").code == 9  # another copy: not approved here
    digest = hashlib.sha256(b"true").hexdigest()[:32]
    assert todo_at(mine, "allow", "Ship", "--digest", digest).code == 0
    path = repo / "TODO.md"
    path.write_text(path.read_text().replace("check: true", "check: touch ran"))
    git(repo, "commit", "-q", "-am", "a new check")
    git(mine, "pull", "-q", "--no-rebase")
    assert "check: touch ran" in (mine / "TODO.md").read_text()
    assert todo_at(mine, "done", "Ship").code == 9
    assert not marker.exists()


def test_a_snapshot_that_completes_a_task_runs_its_check(repo: Path) -> None:
    todo_at(repo, "add", "Tests pass", "--check", "exit 4")
    payload = json.dumps({"todos": [{"content": "Tests pass", "status": "completed"}]})
    result = todo_process("--file", str(repo / "TODO.md"), "apply", stdin=payload, cwd=repo)
    assert result.code == 8
    assert line(repo, "Tests pass").startswith("- [/] Tests pass")


def test_ops_carry_a_check_and_evidence(repo: Path) -> None:
    ops = {
        "ops": [
            {"op": "append", "phase": "Todos", "items": ["Lint"], "check": "echo lint ok"},
            {"op": "append", "phase": "Todos", "items": ["Notes"]},
        ]
    }
    assert (
        todo_process("--file", str(repo / "TODO.md"), "apply", stdin=json.dumps(ops), cwd=repo).code
        == 0
    )
    done = {
        "ops": [{"op": "done", "task": "Lint"}, {"op": "done", "task": "Notes", "evidence": "PR 7"}]
    }
    # A payload's check is not approved by the payload: the person reads it first.
    digest = hashlib.sha256(b"echo lint ok").hexdigest()[:32]
    assert todo_at(repo, "allow", "Lint", "--digest", digest).code == 0
    result = todo_process(
        "--file", str(repo / "TODO.md"), "apply", stdin=json.dumps(done), cwd=repo
    )
    assert result.code == 0, result.err
    assert "checked: passed" in line(repo, "Lint")
    assert "evidence: PR 7" in line(repo, "Notes")


def test_a_check_runs_in_the_top_directory_of_the_lists_work_tree(repo: Path) -> None:
    sub = repo / "docs"
    sub.mkdir()
    todo_process(
        "--file", str(sub / "TODO.md"), "add", "Where", "--check", "test -f code.py", cwd=repo
    )
    result = todo_process("--file", str(sub / "TODO.md"), "done", "Where", cwd=Path(os.sep))
    assert result.code == 0, result.err


# -- the MCP server's tools -------------------------------------------------------------------


def test_mcp_todo_write_runs_checks_and_todo_check_gates_stale_evidence(repo: Path) -> None:
    from todocli.app.commands import Options
    from todocli.mcp.mcp_tools import call

    options = Options(file=str(repo / "TODO.md"))
    snapshot = {
        "todos": [{"content": "Tests pass", "status": "in_progress", "check": "test -f ok"}]
    }
    assert not call("todo_write", snapshot, options).failed
    assert "check: test -f ok" in line(repo, "Tests pass")
    refused = call("todo_write", {"ops": [{"op": "done", "task": "Tests pass"}]}, options)
    assert refused.data is not None
    assert refused.data["error"]["code"] == "CHECK_NOT_ALLOWED"  # MCP approves nothing
    digest = hashlib.sha256(b"test -f ok").hexdigest()[:32]
    assert todo_at(repo, "allow", "Tests pass", "--digest", digest).code == 0
    done = {"ops": [{"op": "done", "task": "Tests pass"}]}
    failed = call("todo_write", done, options)
    assert failed.failed
    assert failed.data is not None
    assert failed.data["error"]["code"] == "CHECK_FAILED"
    (repo / "ok").write_text("")
    assert not call("todo_write", done, options).failed
    assert not call("todo_check", {}, options).failed
    (repo / "code.py").write_text("print(4)  # changed\n")
    gate = call("todo_check", {}, options)
    assert gate.failed
    assert gate.data is not None
    assert gate.data["error"]["code"] == "STALE_EVIDENCE"
    assert 'Stale evidence: 1 completed task without fresh evidence: "Tests pass"' in gate.text


def test_mcp_todo_check_verify_through_the_sdk_client(repo: Path) -> None:
    """Through the MCP SDK's own client: todo_check gates stale evidence, and with
    verify runs the check again, reopening the task whose check now fails."""
    from tests.test_mcp_server import connect, envelope_of, run

    (repo / "ok").write_text("")
    todo_at(repo, "add", "Feature", "--check", "test -f ok")
    assert todo_at(repo, "done", "Feature").code == 0
    (repo / "ok").unlink()
    (repo / "code.py").write_text("print(5)\n")

    async def body() -> None:
        async with connect("--file", str(repo / "TODO.md")) as conn:
            stale = await conn.call("todo_check", {})
            assert stale.is_error
            assert envelope_of(stale)["error"]["code"] == "STALE_EVIDENCE"
            verified = await conn.call("todo_check", {"verify": True})
            assert verified.is_error
            assert envelope_of(verified)["error"]["code"] == "OPEN_TASKS"
            refused = await conn.call("todo_check", {"verify": "yes"})
            assert refused.is_error

    run(body)
    text = (repo / "TODO.md").read_text()
    assert "Reopened" in text
    assert "its check failed (exit 1)" in text
