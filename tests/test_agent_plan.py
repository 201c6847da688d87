"""Which list is an agent session's plan: one rule (``storage.agent_sessions``) for
every door, and the person's backlog beside it, never the agent's to wipe.

A git repository with a project plan (``TODO.md``, the backlog); a session hooked
by a real ``todo hook``; then the doors: the agent's shell (by each harness's way
of reaching it), ``todo`` with no arguments, MCP, and a person's own shell."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import git
from tests.support_cli import Run, todo_process
from todocli.app.commands import Options
from todocli.mcp.mcp_tools import call

SESSION = "3f1c2a9e-5b7d-4e21-9c4a-8d6f0b2e7a13"
BACKLOG = ("Fix login", "Write docs", "Speed up search")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A work tree whose TODO.md is the person's backlog."""
    monkeypatch.delenv("TODOCLI_PROJECT")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    (top / "TODO.md").write_text("".join(f"- [ ] {t}\n" for t in BACKLOG))
    (top / "src").mkdir()
    return top


def run(repo: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> Run:
    return todo_process(*args, env=env, cwd=repo, stdin=stdin)


def hooked(repo: Path, agent: str, session: str = SESSION, event: str = "SessionStart") -> Run:
    envelope = {"session_id": session, "cwd": str(repo), "hook_event_name": event}
    done = run(repo, "hook", agent, stdin=json.dumps(envelope | {"source": "startup"}))
    assert done.code == 0, done.err
    return done


def plan_text(home: Path, name: str = SESSION) -> str:
    return (home / "sessions" / f"{name}.md").read_text()


SHELLS = {
    # How each harness's shell reaches the session, with no env file.
    "claude": {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": SESSION},
    "claude-marker-only": {"CLAUDECODE": "1"},
    "codex": {"CODEX_THREAD_ID": SESSION},
    "gemini": {"GEMINI_CLI": "1"},
    "qwen": {"QWEN_CODE": "1", "QWEN_CODE_SESSION_ID": SESSION},
    "env-file": {"TODOCLI_AGENT_SESSION": SESSION},  # what Claude's env file exports
}


@pytest.mark.parametrize("shell", list(SHELLS))
def test_every_door_of_a_hooked_session_uses_its_plan_and_a_person_the_backlog(
    repo: Path, home: Path, shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = shell.split("-")[0] if shell != "env-file" else "claude"
    hooked(repo, agent)
    env = SHELLS[shell]
    backlog = (repo / "TODO.md").read_bytes()
    # The agent's shell, from a folder below the project's top.
    assert run(repo / "src", "init", "-q", "Read the code", "Patch it", env=env).code == 0
    assert "[/] Read the code" in plan_text(home)
    assert (repo / "TODO.md").read_bytes() == backlog  # its steps are not the backlog's
    shown = run(repo, env=env)
    assert "Read the code" in shown.out
    assert "Fix login" not in shown.out
    assert run(repo, "path", env=env).out == f"{home / 'sessions' / SESSION}.md\n"
    # A person's own shell: the project plan, as ever.
    assert "Fix login" in run(repo).out
    # MCP, started by the harness with its shell's environment, in the project.
    monkeypatch.chdir(repo)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    read = call("todo_read", {}, Options())
    assert "Read the code" in read.text
    # The list a call names is that list, in the agent's shell too.
    assert "Fix login" in run(repo, "--project", env=env).out
    assert run(repo, "-s", "other", "add", "-q", "Elsewhere", env=env).code == 0
    assert "Elsewhere" in plan_text(home, "other")


def test_a_session_no_hook_recorded_changes_nothing(repo: Path, home: Path) -> None:
    """A harness's shell whose session todo's hooks never saw (not wired): the
    person's rules, the project plan."""
    env = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "never-hooked", "GEMINI_CLI": "1"}
    assert run(repo, "add", "-q", "A step", env=env).code == 0
    assert "A step" in (repo / "TODO.md").read_text()
    assert not (home / "sessions").exists()


def test_gemini_s_shell_finds_the_newest_session_it_hooked_in_the_project(
    repo: Path, home: Path
) -> None:
    hooked(repo, "gemini", "first")
    hooked(repo, "gemini", "second")  # a new session (after /clear) with no list of its own
    assert run(repo, "init", "-q", "Plan", env={"GEMINI_CLI": "1"}).code == 0
    assert "Plan" in plan_text(home, "second")
    # Claude's marker in the same project is not Gemini's session.
    assert run(repo, "add", "-q", "Claude's", env={"CLAUDECODE": "1"}).code == 0
    assert "Claude's" in (repo / "TODO.md").read_text()


def test_the_agent_takes_backlog_tasks_but_never_replaces_or_drops_the_person_s(
    repo: Path, home: Path
) -> None:
    hooked(repo, "claude")
    env = SHELLS["env-file"]
    before = (repo / "TODO.md").read_text()
    refusals = (
        ("--project", "init", "Mine"),
        ("--project", "rm", "Fix login"),
        ("--project", "drop", "Write docs"),
        ("--project", "clear", "--all"),
    )
    for args in refusals:
        refused = run(repo, *args, env=env)
        assert refused.code == 1, (args, refused.out, refused.err)
        assert refused.err.count("\n") == 1
        assert "the project's backlog (TODO.md) is the person's" in refused.err
        assert (repo / "TODO.md").read_text() == before  # nothing written
        assert not (repo / ".gitattributes").exists()
    snapshot = json.dumps({"todos": [{"content": "Mine", "status": "pending"}]})
    assert run(repo, "--project", "apply", env=env, stdin=snapshot).code == 1
    assert (repo / "TODO.md").read_text() == before
    # It takes one: it is its own (the owner is its plan's name), part of its plan.
    assert run(repo, "--project", "claim", "-q", "Write docs", env=env).code == 0
    text = (repo / "TODO.md").read_text()
    # The backlog never used [/]: the task in progress keeps its state in its comment.
    assert f"- [ ] Write docs <!-- owner: {SESSION}; state: in_progress -->" in text
    stop = {"session_id": SESSION, "cwd": str(repo), "hook_event_name": "Stop"}
    reason = json.loads(run(repo, "hook", "claude", stdin=json.dumps(stop)).out)["reason"]
    assert "Write docs (backlog)" in reason
    assert "Fix login" not in reason  # the rest of the backlog is not its plan
    assert "todo --project done|block TASK" in reason
    gate = run(repo, "check", env=env)  # the gate of the manual recipes, the same plan
    assert gate.code == 1
    assert gate.out == ("Taken from the backlog (todo --project): Write docs\n[0/0] No tasks.\n")
    # It closes what it took, and adds an idea; the person's tasks stay as they were.
    assert run(repo, "--project", "done", "-q", "Write docs", env=env).code == 0
    assert run(repo, "--project", "add", "-q", "An idea", env=env).code == 0
    after = (repo / "TODO.md").read_text()
    assert "- [ ] Fix login\n" in after
    assert "- [ ] Speed up search\n" in after
    assert "- [x] Write docs" in after
    assert json.loads(run(repo, "hook", "claude", stdin=json.dumps(stop)).out or "{}") == {}
    assert run(repo, "check", env=env).code == 0


def test_a_person_may_still_replace_the_backlog(repo: Path) -> None:
    assert run(repo, "--project", "init", "-q", "New plan").code == 0
    assert "New plan" in (repo / "TODO.md").read_text()


def test_todo_write_after_todo_init_of_the_same_plan_replaces_it(
    tmp_path: Path, home: Path
) -> None:
    """The shell and the mirrored tool of one session are one agent: the tool's
    snapshot replaces the plan the shell made (it has seen it), not doubles it."""
    hooked(tmp_path, "claude")
    env = SHELLS["env-file"]
    assert run(tmp_path, "init", "-q", "Plan the work", "Build it", "Test it", env=env).code == 0
    todos = [
        {"content": c, "status": s, "activeForm": c}
        for c, s in (
            ("Planning the work", "completed"),
            ("Building it", "in_progress"),
            ("Testing it", "pending"),
        )
    ]
    envelope = {
        "session_id": SESSION,
        "cwd": str(tmp_path),
        "hook_event_name": "PostToolUse",
        "tool_name": "TodoWrite",
        "tool_input": {"todos": todos},
    }
    reply = run(tmp_path, "hook", "claude", stdin=json.dumps(envelope))
    told = json.loads(reply.out)["hookSpecificOutput"]["additionalContext"]
    assert "this snapshot dropped 3 open tasks" in told  # said, with the way back
    text = plan_text(home)
    assert [line[:5] for line in text.splitlines() if line.startswith("- [")] == [
        "- [x]",
        "- [/]",
        "- [ ]",
    ]
    # The way back the reply names works as typed.
    undo = told.split("get them back with: ")[1].split(")")[0]
    assert run(tmp_path, *undo.split()[1:]).code == 0
    assert "Plan the work" in plan_text(home)


def test_project_outside_a_project_and_with_file_is_one_usage_line(tmp_path: Path) -> None:
    outside = run(tmp_path, "--project")
    assert outside.code == 2
    assert outside.err == (
        "todo: --project: no project plan here (TODO.md at the top of a git work tree; "
        "make one with: todo init --project)\n"
    )
    both = run(tmp_path, "--project", "--file", "x.md")
    assert (both.code, both.err) == (2, "todo: --project and --file name two lists: give one\n")


def test_the_hooks_hand_the_shell_the_session_not_the_list(tmp_path: Path) -> None:
    """Claude Code's env file and Codex's reply name the session; the rule finds
    its plan (which a /clear continues under another session id)."""
    env_file = tmp_path / "env.sh"
    start = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "SessionStart"}
    done = todo_process(
        "hook", "claude", stdin=json.dumps(start), env={"CLAUDE_ENV_FILE": str(env_file)}
    )
    assert done.code == 0
    assert env_file.read_text() == "export TODOCLI_AGENT_SESSION=s1\n"
    codex = json.loads(
        todo_process("hook", "codex", stdin=json.dumps(start | {"session_id": "c1"})).out
    )
    assert codex["hookSpecificOutput"]["env"] == {"TODOCLI_AGENT_SESSION": "c1"}
    assert os.environ.get("TODOCLI_AGENT_SESSION") is None


def test_todo_watch_in_the_agent_s_shell_watches_its_plan(repo: Path, home: Path) -> None:
    """``todo watch --json`` (one envelope a line) run in the agent's shell, in the
    project: its plan, not the backlog, and a later write to it is seen."""
    import subprocess

    from tests.support_cli import start_todo

    hooked(repo, "gemini")
    env = {**os.environ, "GEMINI_CLI": "1"}
    assert run(repo, "init", "-q", "Read the code", env={"GEMINI_CLI": "1"}).code == 0
    proc = start_todo(
        "watch", "--json", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=repo
    )
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert [t["content"] for t in first["data"]["todos"]] == ["Read the code"]
        assert run(repo, "add", "-q", "Patch it", env={"GEMINI_CLI": "1"}).code == 0
        second = json.loads(proc.stdout.readline())
        assert [t["content"] for t in second["data"]["todos"]] == ["Read the code", "Patch it"]
    finally:
        proc.kill()
        proc.wait()


def test_check_hook_and_apply_of_an_envelope_use_the_hooked_session_s_plan(
    tmp_path: Path, home: Path
) -> None:
    """The manual recipes' doors: a Stop hook running `todo check --hook`, and a
    PostToolUse hook running `todo apply`, for a session /clear continued under a
    new id: both reach the plan the session continued, not a list of the new id."""
    hooked(tmp_path, "claude", "first")
    assert (
        run(tmp_path, "init", "-q", "Plan", "Build", env={"TODOCLI_AGENT_SESSION": "first"}).code
        == 0
    )
    hooked(tmp_path, "claude", "second")  # /clear: a new id continues the open plan
    stop = {"session_id": "second", "cwd": str(tmp_path), "hook_event_name": "Stop"}
    gate = run(tmp_path, "check", "--hook", stdin=json.dumps(stop))
    assert gate.code == 1
    assert "Plan" in gate.out
    write = {
        "session_id": "second",
        "cwd": str(tmp_path),
        "hook_event_name": "PostToolUse",
        "tool_name": "TodoWrite",
        "tool_input": {
            "todos": [
                {"content": "Plan", "status": "completed", "activeForm": "Planning"},
                {"content": "Build", "status": "in_progress", "activeForm": "Building"},
            ]
        },
    }
    assert run(tmp_path, "apply", "-q", stdin=json.dumps(write)).code == 0
    assert "- [x] Plan" in plan_text(home, "first")
    assert not (home / "sessions" / "second.md").exists()
