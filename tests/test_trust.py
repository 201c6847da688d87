"""The trust rule for checks (issue #32), tested as the attacker would try it.

A check is a shell command; a list can arrive from anywhere. It runs only when this
home approved that exact text for that list: by ``todo add --check`` (the person's
own command wrote it) or by ``todo allow TASK --digest D`` (the person named the
digest of the text they were shown). Every vector below plants ``touch MARKER`` and
asserts the marker never appears, the person's files stay as they were where
nothing should be written, and the message says what was refused and how to
approve it. Real ``git`` repositories and real ``todo`` processes throughout; the
property test at the end runs in this process, bounded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import git
from tests.support_cli import Run, todo_in_process, todo_process

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

CHECK_NOT_ALLOWED = 9  # the exit codes docs/checks.md documents
CHECK_FAILED = 8


def todo_at(listing: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return todo_process("--file", str(listing), *args, cwd=listing.parent, env=env)


def digest(command: str) -> str:
    return hashlib.sha256(command.encode()).hexdigest()[:32]


def settled(path: Path) -> None:
    """A save made a while ago: todo has no half-written save to wait for."""
    past = os.stat(path).st_mtime - 5
    os.utime(path, (past, past))


def hint(message: str) -> list[str]:
    """The command a refusal says approves the check, as the person would type it."""
    found = re.search(r"approve that text with: (todo .*?)(?:, or complete|$)", message)
    assert found is not None, message
    words = shlex.split(found.group(1))
    assert words[0] == "todo"
    return words[1:]


def approvals(home: Path) -> bytes:
    path = home / "state" / "approved-checks"
    return path.read_bytes() if path.exists() else b""


def planted(marker: Path) -> str:
    """The attacker's list: an ordinary task, the attacker's check, and a second
    task of the same text without one (it once made the next write approve it)."""
    return (
        "# Plan\n\n## Todos\n"
        "- [ ] Write code\n"
        f"- [ ] Bump deps <!-- check: touch {marker} -->\n"
        "- [ ] Bump deps\n"
    )


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """The attacker's repository, holding a harmless list at first."""
    repo = tmp_path / "origin"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "TODO.md").write_text("# Plan\n\n## Todos\n- [ ] Write code\n- [ ] Bump deps\n")
    git(repo, "add", "TODO.md")
    git(repo, "commit", "-q", "-m", "plan")
    return repo


def plant(origin: Path, marker: Path, branch: str = "main") -> None:
    if branch != "main":
        git(origin, "checkout", "-q", "-b", branch)
    (origin / "TODO.md").write_text(planted(marker))
    git(origin, "commit", "-q", "-am", "bump deps")
    if branch != "main":
        git(origin, "checkout", "-q", "main")


def arrive(how: str, origin: Path, mine: Path, marker: Path) -> None:
    """The planted list reaches the person's clone by ``how``."""
    if how == "clone":
        plant(origin, marker)
        git(origin.parent, "clone", "-q", str(origin), str(mine))
        return
    git(origin.parent, "clone", "-q", str(origin), str(mine))
    if how == "pull-merge":
        plant(origin, marker)
        git(mine, "pull", "-q", "--no-rebase")
    elif how == "pull-rebase":
        (mine / "notes.txt").write_text("mine\n")
        git(mine, "add", "notes.txt")
        git(mine, "commit", "-q", "-m", "my own commit")
        plant(origin, marker)
        git(mine, "pull", "-q", "--rebase")
    elif how == "checkout":
        plant(origin, marker, branch="deps")
        git(mine, "fetch", "-q", "origin")
        git(mine, "checkout", "-q", "-b", "deps", "origin/deps")
    elif how == "merge":
        plant(origin, marker, branch="deps")
        git(mine, "fetch", "-q", "origin")
        git(mine, "merge", "-q", "--no-edit", "origin/deps")
    else:
        raise AssertionError(how)


# -- a pulled check runs without approval -------------------------------------------------


@pytest.mark.parametrize("how", ["clone", "pull-merge", "pull-rebase", "checkout", "merge"])
def test_a_check_that_came_through_git_is_not_approved_by_the_next_write(
    how: str, tmp_path: Path, origin: Path, home: Path
) -> None:
    marker = tmp_path / "PWNED"
    mine = tmp_path / "mine"
    arrive(how, origin, mine, marker)
    listing = mine / "TODO.md"
    assert f"check: touch {marker}" in listing.read_text()
    settled(listing)
    assert todo_at(listing, "note", "Write code", "Started on it").code == 0  # an ordinary write
    written = listing.read_bytes()
    assert approvals(home) == b""  # it approved nothing
    # The text names two tasks: refused as ambiguous, nothing run either.
    ambiguous = todo_at(listing, "done", "Bump deps")
    assert ambiguous.code == 1
    assert '2 tasks are named "Bump deps"' in ambiguous.err
    assert not marker.exists()
    assert listing.read_bytes() == written
    for ref in ("#2",):
        refused = todo_at(listing, "done", ref)
        assert refused.code == CHECK_NOT_ALLOWED, refused.err
        assert not marker.exists()
        assert listing.read_bytes() == written  # nothing written
        assert f"(touch {marker}, digest {digest(f'touch {marker}')})" in refused.err
        assert "is not approved here" in refused.err
    # The refusal's promise: the command it names approves the check, and then it runs.
    refused = todo_at(listing, "done", "#2")
    assert todo_process(*hint(refused.err)).code == 0
    assert todo_at(listing, "done", "#2").code == 0
    assert marker.exists()


def test_a_hand_edit_with_a_duplicate_text_is_not_approved_by_the_next_write(
    tmp_path: Path, home: Path
) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Bump deps", "--check", "true").code == 0  # approved: true
    listing.write_text(
        listing.read_text() + f"- [ ] Bump deps <!-- check: touch {marker} -->\n"
    )  # by hand: a second task of the same text, another check
    settled(listing)
    assert todo_at(listing, "add", "Write code").code == 0
    assert todo_at(listing, "add", "Write more code").code == 0
    before = listing.read_bytes()
    refused = todo_at(listing, "done", "#2")
    assert refused.code == CHECK_NOT_ALLOWED
    assert not marker.exists()
    assert listing.read_bytes() == before
    assert "allow '#2' --digest" in refused.err
    assert todo_at(listing, "done", "#1").code == 0  # its own check, approved: it runs
    assert not marker.exists()


def test_a_list_written_by_another_home_is_not_approved_here(tmp_path: Path, home: Path) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    other = {"TODOCLI_HOME": str(tmp_path / "other-home")}
    assert todo_at(listing, "add", "Bump deps", "--check", f"touch {marker}", env=other).code == 0
    # A second task of the same text, typed by hand below it.
    listing.write_text(listing.read_text() + "- [ ] Bump deps <!-- check: true -->\n")
    settled(listing)
    assert todo_at(listing, "add", "Write code").code == 0  # this home's ordinary write
    before = listing.read_bytes()
    for ref, code in (("Bump deps", 1), ("#1", CHECK_NOT_ALLOWED)):  # the text fits two: refused
        refused = todo_at(listing, "done", ref)
        assert refused.code == code
        assert not marker.exists()
        assert listing.read_bytes() == before
    assert approvals(home) == b""


FOREIGN = "- [ ] Bump deps <!-- check: touch {marker} -->\n- [ ] Write code\n"


@pytest.mark.parametrize("dialect", ["markdown", "snapshot", "ops", "update"])
def test_an_apply_payload_approves_no_check_in_it(dialect: str, tmp_path: Path, home: Path) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    check = f"touch {marker}"
    assert todo_at(listing, "add", "Start").code == 0
    if dialect == "markdown":
        foreign = tmp_path / "FOREIGN.md"
        foreign.write_text(FOREIGN.format(marker=marker))
        applied = todo_at(listing, "apply", "--markdown", "-i", str(foreign))
    else:
        payloads: dict[str, object] = {
            "snapshot": {"todos": [{"content": "Bump deps", "status": "pending", "check": check}]},
            "ops": {
                "ops": [{"op": "append", "phase": "Todos", "items": ["Bump deps"], "check": check}]
            },
            "update": {"merge": True, "todos": [{"content": "Bump deps", "check": check}]},
        }
        payload = json.dumps(payloads[dialect])
        applied = todo_process("--file", str(listing), "apply", stdin=payload)
    assert applied.code == 0, applied.err
    assert f"check: {check}" in listing.read_text()
    assert approvals(home) == b""
    before = listing.read_bytes()
    refused = todo_at(listing, "done", "Bump deps")
    assert refused.code == CHECK_NOT_ALLOWED
    assert not marker.exists()
    assert listing.read_bytes() == before


def test_mcp_and_a_hook_envelope_approve_no_check(tmp_path: Path, home: Path) -> None:
    from todocli.app.commands import Options
    from todocli.mcp.mcp_tools import call

    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    check = f"touch {marker}"
    options = Options(file=str(listing))
    snapshot = {"todos": [{"content": "Bump deps", "status": "in_progress", "check": check}]}
    assert not call("todo_write", snapshot, options).failed
    done = call("todo_write", {"ops": [{"op": "done", "task": "Bump deps"}]}, options)
    assert done.data is not None
    assert done.data["error"]["code"] == "CHECK_NOT_ALLOWED"
    envelope = {
        "session_id": "s1",
        "hook_event_name": "PostToolUse",
        "tool_name": "TodoWrite",
        "tool_input": {
            "todos": [
                {"content": "Ship it", "status": "pending", "activeForm": "Ship", "check": check}
            ]
        },
    }
    hooked = todo_process("--file", str(listing), "hook", "claude", stdin=json.dumps(envelope))
    assert hooked.code == 0, hooked.err
    assert f"check: {check}" in listing.read_text()  # the envelope's check is written
    assert approvals(home) == b""  # and approved by neither
    refused = todo_at(listing, "done", "Ship it")
    assert refused.code == CHECK_NOT_ALLOWED
    assert not marker.exists()


def test_a_copied_or_renamed_list_is_another_list(tmp_path: Path, home: Path) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Bump deps", "--check", f"touch {marker}").code == 0
    copy = tmp_path / "COPY.md"
    shutil.copyfile(listing, copy)
    renamed = tmp_path / "RENAMED.md"
    shutil.copyfile(listing, renamed)
    listing.unlink()
    for other in (copy, renamed):
        with other.open("a") as handle:
            handle.write("- [ ] Bump deps\n")  # a second task of the text, by hand
        settled(other)
        assert todo_at(other, "add", "Write code").code == 0  # an ordinary write
        before = other.read_bytes()
        refused = todo_at(other, "done", "#1")
        assert refused.code == CHECK_NOT_ALLOWED
        assert not marker.exists()
        assert other.read_bytes() == before


def test_a_list_reached_through_a_symlink_is_the_file_it_names(
    tmp_path: Path, origin: Path, home: Path
) -> None:
    marker = tmp_path / "PWNED"
    (origin / "deps.md").write_text(planted(marker))
    (origin / "TODO.md").unlink()
    os.symlink("deps.md", origin / "TODO.md")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "the list is deps.md")
    mine = tmp_path / "mine"
    git(tmp_path, "clone", "-q", str(origin), str(mine))
    listing = mine / "TODO.md"
    assert listing.is_symlink()
    settled(mine / "deps.md")
    assert todo_at(listing, "note", "Write code", "Started on it").code == 0  # an ordinary write
    before = (mine / "deps.md").read_bytes()
    refused = todo_at(listing, "done", "#2")  # its text names two tasks: #2 has the check
    assert refused.code == CHECK_NOT_ALLOWED
    assert not marker.exists()
    assert (mine / "deps.md").read_bytes() == before
    # Approved through the link, it is approved for the file it names, and only that.
    assert todo_process(*hint(refused.err)).code == 0
    assert todo_at(mine / "deps.md", "done", "#2").code == 0
    assert marker.exists()


@pytest.mark.parametrize(
    "variant",
    [
        "touch  {m}",  # a second blank
        "touch {m} ;",  # a trailing separator
        "t\u043euch {m}",  # a Cyrillic o
        "touch\u00a0{m}",  # a no-break space
        "touch {m}\uff1b",  # a fullwidth semicolon
    ],
)
def test_a_near_twin_of_an_approved_check_is_another_text(
    variant: str, tmp_path: Path, home: Path
) -> None:
    """The person approved ``touch PWNED`` for this list (on another task); a text
    that looks the same, or nearly, is not that text."""
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    approved = f"touch {marker}"
    assert todo_at(listing, "add", "Approved", "--check", approved).code == 0
    twin = variant.format(m=marker)
    listing.write_text(
        listing.read_text()
        + f"- [ ] Bump deps <!-- check: {twin.replace(';', '%3B')} -->\n"
        + "- [ ] Bump deps\n"  # and a second task of the text
    )
    settled(listing)
    assert todo_at(listing, "add", "Write code").code == 0  # an ordinary write
    before = listing.read_bytes()
    result = todo_at(listing, "done", "#2")
    assert result.code == CHECK_NOT_ALLOWED
    assert f"digest {digest(twin)}" in result.err
    assert not marker.exists()
    assert listing.read_bytes() == before


# -- control characters ----------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["\t", "\x07", "\x1b[2K", "\u202e", "\u200b", "\u2028"])
def test_a_check_with_a_control_character_is_refused_where_it_arrives(
    bad: str, tmp_path: Path, home: Path
) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Start").code == 0
    before = listing.read_bytes()
    check = f"true{bad}touch {marker}"
    added = todo_at(listing, "add", "Bump deps", "--check", check)
    assert added.code == 1
    assert "Check contains a newline or control character" in added.err
    assert len(added.err.strip().splitlines()) == 1
    snapshot = {"todos": [{"content": "Bump deps", "status": "pending", "check": check}]}
    applied = todo_process("--file", str(listing), "apply", stdin=json.dumps(snapshot))
    assert applied.code == 1
    assert "Check contains a newline or control character" in applied.out + applied.err
    assert listing.read_bytes() == before
    assert approvals(home) == b""


def test_a_list_holding_a_check_with_a_control_character_never_runs_it(
    tmp_path: Path, home: Path
) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    # In the comment, %07 is BEL (a hand edit, or a pull, can hold anything).
    listing.write_text(f"- [/] Bump deps <!-- check: true%07%3B touch {marker} -->\n")
    settled(listing)
    before = listing.read_bytes()
    refused = todo_at(listing, "done", "Bump deps")
    assert refused.code == CHECK_NOT_ALLOWED
    assert "holds a control character (\\x07), so it never runs and cannot be approved" in (
        refused.err
    )
    listed = todo_at(listing, "allow")
    assert "check never runs, it holds a control character (\\x07)" in listed.out
    forced = todo_at(listing, "allow", "#1", "--digest", digest(f"true\x07; touch {marker}"))
    assert forced.code == CHECK_NOT_ALLOWED
    assert "cannot be approved" in forced.err
    assert not marker.exists()
    assert listing.read_bytes() == before
    assert approvals(home) == b""


# -- a failing check is skipped ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "ref"),
    [
        # done #1: the first task of the text, its check fails (the text names two).
        (["- [/] A <!-- check: false -->", "- [x] A"], "#1"),
        # done #3: a completed task of the same text above it.
        (["- [x] A", "- [ ] B", "- [/] A <!-- check: false -->"], "#3"),
        (["- [x] A <!-- check: true -->", "- [/] A <!-- check: false -->"], "#2"),
        # told apart by an id
        (["- [x] A <!-- id: 6 -->", "- [/] A <!-- id: 7; check: false -->"], "#2"),
    ],
)
def test_a_failing_check_is_never_skipped_for_a_task_sharing_its_text(
    lines: list[str], ref: str, tmp_path: Path, home: Path
) -> None:
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Seed", "--check", "false").code == 0  # approves: false
    assert todo_at(listing, "add", "Seed2", "--check", "true").code == 0  # approves: true
    listing.write_text("\n".join(lines) + "\n")  # by hand
    settled(listing)
    before = listing.read_bytes()
    result = todo_at(listing, "done", ref)
    assert result.code == CHECK_FAILED, result.out + result.err
    assert "failed (exit 1" in result.err
    assert listing.read_bytes() == before  # the failing task stays open; nothing else moved
    # --no-check completes that very task, and its line says no check ran.
    number = next(n for n, ln in enumerate(lines, 1) if "check: false" in ln)
    assert todo_at(listing, "done", f"#{number}", "--no-check").code == 0
    assert "checked: no check ran " in listing.read_text().splitlines()[number - 1]


@pytest.mark.parametrize("above", ["- [x] A", "- [x] A <!-- check: true; checked: passed x -->"])
def test_a_batch_that_moves_lines_still_runs_the_check_it_completes(
    above: str, tmp_path: Path, home: Path
) -> None:
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Seed", "--check", "false").code == 0
    listing.write_text(f"- [ ] X\n{above}\n- [/] A <!-- check: false -->\n")
    settled(listing)
    # X goes, and #3 (numbered as the batch began) is completed: a completed "A"
    # now sits where the other was.
    ops = {"ops": [{"op": "rm", "task": "X"}, {"op": "done", "task": "#3"}]}
    result = todo_process("--file", str(listing), "apply", stdin=json.dumps(ops))
    assert result.code == CHECK_FAILED, result.out + result.err
    assert "- [/] A <!-- check: false -->" in listing.read_text().splitlines()  # still open


def test_done_by_id_runs_the_check_of_that_task(tmp_path: Path, home: Path) -> None:
    listing = tmp_path / "TODO.md"
    assert todo_at(listing, "add", "Seed", "--check", "false").code == 0
    listing.write_text("- [x] A <!-- id: 1 -->\n- [/] A <!-- id: 2; check: false -->\n")
    settled(listing)
    before = listing.read_bytes()
    payload = {"merge": True, "todos": [{"id": "2", "status": "completed"}]}
    result = todo_process("--file", str(listing), "apply", stdin=json.dumps(payload))
    assert result.code == CHECK_FAILED, result.out + result.err
    assert listing.read_bytes() == before


def test_verify_reopens_the_task_whose_check_failed_not_one_sharing_its_text(
    tmp_path: Path, home: Path
) -> None:
    listing = tmp_path / "TODO.md"
    (tmp_path / "ok").write_text("")
    assert todo_at(listing, "add", "A", "--check", "test -f ok").code == 0
    assert todo_at(listing, "done", "A").code == 0
    listing.write_text(listing.read_text() + "- [x] A\n")  # by hand: a second "A", done
    settled(listing)
    (tmp_path / "ok").unlink()
    text = listing.read_text()
    record = text.split("checked: ")[1].split(" -->")[0]
    listing.write_text(text.replace(record, "by hand"))  # evidence that proves nothing
    settled(listing)
    assert todo_at(listing, "check", "--verify").code == 1
    lines = listing.read_text().splitlines()
    assert lines[1].startswith(("- [ ] A <!-- check: test -f ok", "- [/] A <!-- check: test"))
    assert "Reopened" in lines[2]
    assert "its check failed (exit 1)" in lines[2]
    assert lines[3] == "- [x] A"  # the other "A" stays done


# -- allow approves what the person read ------------------------------------------------------


def test_allow_approves_only_the_text_whose_digest_was_shown(tmp_path: Path, home: Path) -> None:
    marker = tmp_path / "PWNED"
    listing = tmp_path / "TODO.md"
    listing.write_text("- [/] Run tests <!-- check: pytest -q -->\n")
    settled(listing)
    shown = todo_at(listing, "allow")
    assert f'#1 "Run tests": check not approved [{digest("pytest -q")}]: pytest -q' in shown.out
    # A pull (or another process) changes the check after the person read it.
    listing.write_text(f"- [/] Run tests <!-- check: touch {marker} -->\n")
    settled(listing)
    before = listing.read_bytes()
    bare = todo_at(listing, "allow", "Run tests")  # no digest: refused, with what to run
    assert bare.code == CHECK_NOT_ALLOWED
    assert f"is now: touch {marker}" in bare.err
    assert "nothing is approved without the digest of the text you read" in bare.err
    assert approvals(home) == b""
    refused = todo_at(listing, "allow", "Run tests", "--digest", digest("pytest -q"))
    assert refused.code == CHECK_NOT_ALLOWED
    assert "it is not the text whose digest you gave" in refused.err
    assert approvals(home) == b""
    assert todo_at(listing, "done", "Run tests").code == CHECK_NOT_ALLOWED
    assert not marker.exists()
    assert listing.read_bytes() == before
    # The hint is a promise: the command it prints approves the text it printed.
    assert todo_process(*hint(bare.err)).code == 0
    assert todo_at(listing, "done", "Run tests").code == 0
    assert marker.exists()


# -- the property: no check runs unless the person's allow covered it ----------------------------

TEXTS = st.sampled_from(["A", "B", "A "])  # "A " reads as "A": a third duplicate
CHECKS = st.integers(0, 2)  # which of three commands
STEP = st.one_of(
    st.tuples(st.just("add"), TEXTS, CHECKS),  # this home: todo add --check (approves)
    st.tuples(st.just("other"), TEXTS, CHECKS),  # another home's todo add --check
    st.tuples(st.just("hand"), TEXTS, CHECKS, st.sampled_from([" ", "/", "x"])),
    st.tuples(st.just("apply"), TEXTS, CHECKS),  # an ops payload from this home
    st.tuples(st.just("plain"), st.integers(0, 9)),  # an ordinary write
    st.tuples(st.just("allow"), st.integers(1, 6)),  # read, then allow with the digest
    st.tuples(st.just("done"), st.sampled_from(["A", "B", "#1", "#2", "#3", "#4", "#5"])),
)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=10))
def test_no_check_runs_unless_allowed_after_it_was_shown(
    steps: list[tuple[object, ...]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
) -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        _property(steps, folder, capsys, monkeypatch, home)
    finally:
        shutil.rmtree(folder)


def _property(
    steps: list[tuple[object, ...]],
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
) -> None:
    listing = folder / "TODO.md"
    commands = [f"touch {folder / f'ran-{k}'}" for k in range(3)]
    other_home = str(folder / "other-home")
    approved: set[str] = set()  # what this home approved, by its own acts

    def run(*args: str, stdin: str | None = None, in_home: str | None = None) -> Run:
        monkeypatch.setenv("TODOCLI_HOME", in_home or str(home))
        try:
            return todo_in_process(capsys, monkeypatch, "--file", str(listing), *args, stdin=stdin)
        finally:
            monkeypatch.setenv("TODOCLI_HOME", str(home))

    # Then done on every task, one by one: each check gets its chance to run.
    steps = steps + [("done", f"#{n}") for n in range(1, 9)]
    for step in steps:
        kind = step[0]
        if kind == "add":
            text, k = str(step[1]), int(str(step[2]))
            if run("add", text, "--check", commands[k]).code == 0:
                approved.add(commands[k])
        elif kind == "other":
            run("add", str(step[1]), "--check", commands[int(str(step[2]))], in_home=other_home)
        elif kind == "hand":
            text, k, box = str(step[1]), int(str(step[2])), str(step[3])
            now = listing.read_text() if listing.exists() else ""
            listing.write_text(now + f"- [{box}] {text} <!-- check: {commands[k]} -->\n")
            settled(listing)
        elif kind == "apply":
            text, k = str(step[1]), int(str(step[2]))
            op = {"op": "append", "phase": "Todos", "items": [text], "check": commands[k]}
            run("apply", stdin=json.dumps({"ops": [op]}))
        elif kind == "plain":
            run("add", f"Plain {step[1]}")
        elif kind == "allow":
            shown = run("allow").out
            number = int(str(step[1]))
            found = re.search(rf'^#{number} ".*": check not approved \[(\w+)\]: (.*)$', shown, re.M)
            if found is not None:
                assert run("allow", f"#{number}", "--digest", found.group(1)).code == 0
                approved.add(found.group(2))
        else:
            before = _completed_unproved(listing)
            run("done", str(step[1]))
            # Done means done: no task newly completed with a check it did not pass.
            assert _completed_unproved(listing) <= before
        ran = {c for k, c in enumerate(commands) if (folder / f"ran-{k}").exists()}
        assert ran <= approved, (ran, approved)


def _completed_unproved(listing: Path) -> int:
    """Completed tasks with a check and no record of it passing."""
    if not listing.exists():
        return 0
    lines = listing.read_text().splitlines()
    return sum(
        1
        for ln in lines
        if ln.startswith("- [x]") and "check: " in ln and "checked: passed" not in ln
    )


def test_the_refusal_names_the_list_as_typed(tmp_path: Path, home: Path) -> None:
    """The hint names this very list (``--file``), so it works from any directory."""
    listing = tmp_path / "TODO.md"
    listing.write_text("- [/] Ship <!-- check: true -->\n")
    settled(listing)
    refused = todo_at(listing, "done", "Ship")
    words = hint(refused.err)
    assert words[:2] == ["--file", str(listing)]
    assert todo_process(*words, cwd=Path(os.sep)).code == 0
    assert todo_at(listing, "done", "Ship").code == 0


def two_clones(tmp_path: Path, marker: Path) -> tuple[Path, Path]:
    """Two work trees with a ``t.sh`` each: the person's harmless, the other one
    touching ``marker``."""
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    for folder, script in ((mine, "true\n"), (theirs, f"touch {marker}\n")):
        folder.mkdir()
        git(folder, "init", "-q", "-b", "main")
        (folder / "t.sh").write_text(script)
    return mine, theirs


def test_a_session_check_approved_in_one_folder_does_not_run_in_another(
    tmp_path: Path, home: Path
) -> None:
    """A session's list lives in the home, and its checks run in the current
    folder: approving ``sh t.sh`` in one clone must not run another clone's
    ``t.sh``. The approval names the folder the check runs in."""
    marker = tmp_path / "PWNED"
    mine, theirs = two_clones(tmp_path, marker)
    session = ("--session", "s1")
    assert todo_process(*session, "add", "Tests pass", "--check", "sh t.sh", cwd=mine).code == 0
    refused = todo_process(*session, "done", "Tests pass", cwd=theirs)
    assert refused.code == CHECK_NOT_ALLOWED, refused.err
    assert not marker.exists()
    assert "not approved" in refused.err
    # Where it was approved, it runs (and passes: mine's t.sh is harmless).
    assert todo_process(*session, "done", "Tests pass", cwd=mine).code == 0
    assert not marker.exists()


def test_a_file_link_in_another_folder_does_not_carry_the_approval(
    tmp_path: Path, home: Path
) -> None:
    """``--file`` through a link placed in another folder: the checks would run in
    the link's folder, so the approval made for the list's own folder does not
    hold there."""
    marker = tmp_path / "PWNED"
    mine, theirs = two_clones(tmp_path, marker)
    listing = mine / "plan.md"
    assert todo_at(listing, "add", "Tests pass", "--check", "sh t.sh").code == 0
    os.symlink(listing, theirs / "plan.md")
    refused = todo_at(theirs / "plan.md", "done", "Tests pass")
    assert refused.code == CHECK_NOT_ALLOWED, refused.err
    assert not marker.exists()
