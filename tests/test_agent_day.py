"""An agent's day in a real project, replayed: a git repository with a project
plan (the person's backlog of four open tasks), wired with ``todo setup AGENT``
and ``todo setup git``, the hooks run as written in the harness's settings with
its documented envelopes, and the agent's shell commands run in the environment
that harness gives its shell (no env file for Gemini CLI and Codex, nor for
Claude Code in one variant). Asserted: one plan throughout, put back once per
event with the note of the task in progress, a gate that never names a backlog
task the agent did not take, the backlog byte for byte as it was but for the
task the agent took, and what the agent reads all day (the text of the hooks' replies, the output of
its commands) under 2,000 characters.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import git

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("sh") is None, reason="needs git and sh"
)

BACKLOG = ("Fix login", "Write docs", "Speed up search", "Add dark mode")
STEPS = (
    "Read the login code",
    "Reproduce the bug",
    "Fix the session check",
    "Add a regression test",
    "Run the suite",
)
TAKEN = "Write docs"  # the one backlog task the agent takes
PERSONS_TASK = "Check the logout path too"
PERSONS_NOTE = "use <= in the expiry check"
DAY_BUDGET = 2000  # characters the agent reads in the whole day


class Day:
    """One harness's day: its hooks as ``todo setup`` wrote them, its envelopes,
    the shell it gives the agent; and every character the agent read."""

    def __init__(self, tmp: Path, agent: str, shell: dict[str, str], env_file: bool) -> None:
        self.agent = agent
        self.repo = tmp / "repo"
        self.repo.mkdir()
        self.session = "3f1c2a9e-5b7d-4e21-9c4a-8d6f0b2e7a13"
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("TODOCLI_PROJECT", "CLAUDE_ENV_FILE", "PYTHONPATH")
        }
        self.env |= {"HOME": str(tmp), "GIT_CEILING_DIRECTORIES": str(tmp)}
        bin_dir = Path(sys.executable).parent
        self.env["PATH"] = f"{bin_dir}{os.pathsep}{self.env.get('PATH', '')}"
        self.env_file = tmp / "claude-env.sh" if env_file else None
        self.shell_env = dict(shell)
        self.read = 0
        self.log: list[str] = []

    # -- the person's side --------------------------------------------------------------------

    def person(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["todo", *args], cwd=self.repo, env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done

    def prepare(self) -> None:
        git(self.repo, "init", "-q")
        git(self.repo, "config", "user.email", "p@example.com")
        git(self.repo, "config", "user.name", "P")
        self.person("init", "--project", *BACKLOG)
        self.person("setup", self.agent)
        self.person("setup", "git")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-qm", "the plan")
        self.backlog = (self.repo / "TODO.md").read_bytes()

    # -- the agent's side ---------------------------------------------------------------------

    def settings(self) -> dict[str, object]:
        name = {"claude": ".claude", "gemini": ".gemini", "codex": ".codex"}[self.agent]
        file = "hooks.json" if self.agent == "codex" else "settings.json"
        found: dict[str, object] = json.loads((self.repo / name / file).read_text())
        return found

    def hook(self, event: str, **fields: object) -> str:
        """Every hook the settings run for ``event`` (its matcher permitting), as
        the harness runs them: ``sh -c COMMAND``, the envelope on stdin."""
        hooks = self.settings()["hooks"]
        assert isinstance(hooks, dict)
        envelope = {
            "session_id": self.session,
            "transcript_path": f"/home/dev/.{self.agent}/{self.session}.jsonl",
            "cwd": str(self.repo),
            "hook_event_name": event,
        } | fields
        env = dict(self.env)
        if self.env_file is not None:
            env["CLAUDE_ENV_FILE"] = str(self.env_file)
        said = ""
        for entry in hooks.get(event, []):
            matcher = entry.get("matcher")
            tool = str(fields.get("tool_name", fields.get("source", "")))
            if matcher and matcher != "*" and tool not in matcher.split("|"):
                continue
            for one in entry["hooks"]:
                done = subprocess.run(
                    ["sh", "-c", one["command"]],
                    input=json.dumps(envelope),
                    env=env,
                    capture_output=True,
                    text=True,
                    cwd=self.repo,
                )
                assert done.returncode == 0, done.stderr
                said += done.stdout
        # What reaches the model (and the person's systemMessage): the text, not the
        # protocol's JSON around it.
        self.read += len(self.context(said))
        self.log.append(f"{event}: {self.context(said)}")
        return said

    def shell(self, *args: str, code: int = 0) -> str:
        """A command the agent runs in the shell its harness gives it."""
        env = self.env | self.shell_env
        if self.env_file is not None and self.env_file.exists():
            for line in self.env_file.read_text().splitlines():
                name, _, value = line.removeprefix("export ").partition("=")
                env[name] = value
        done = subprocess.run(
            ["todo", *args], cwd=self.repo, env=env, capture_output=True, text=True
        )
        assert done.returncode == code, (args, done.stdout, done.stderr)
        self.read += len(done.stdout) + len(done.stderr)
        self.log.append(f"$ todo {' '.join(args)}: {done.stdout}{done.stderr}")
        return done.stdout

    def context(self, said: str) -> str:
        """The text a reply puts into the model's context."""
        if not said:
            return ""
        reply = json.loads(said)
        if "hookSpecificOutput" in reply:
            return str(reply["hookSpecificOutput"].get("additionalContext", ""))
        return str(reply.get("reason", reply.get("systemMessage", "")))

    def plan_file(self) -> Path:
        lists = sorted((Path(self.env["TODOCLI_HOME"]) / "sessions").glob("*"))
        assert len(lists) == 1, lists  # one plan throughout
        return lists[0]


def todos(state: dict[str, str], key: str) -> list[dict[str, str]]:
    return [
        {key: c, "status": s} | ({"activeForm": c} if key == "content" else {})
        for c, s in state.items()
    ]


def without(text: str, task: str) -> list[str]:
    """The lines of a list but those of ``task`` (its line and the notes under it)."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.startswith("- [") and task in line:
            skipping = True
            continue
        if skipping and line.startswith("  "):
            continue
        skipping = False
        out.append(line)
    return out


HARNESSES = {
    # Claude Code: SessionStart for startup/resume/clear/compact, Stop, and its own
    # TodoWrite mirrored. Its shell: the env file the SessionStart hook writes to.
    "claude": ("claude", {"CLAUDECODE": "1"}, True),
    # Without the env file: its shell's CLAUDE_CODE_SESSION_ID names the session.
    "claude-no-env-file": ("claude", {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "SID"}, False),
    # Gemini CLI passes nothing to its shell but GEMINI_CLI=1.
    "gemini": ("gemini", {"GEMINI_CLI": "1"}, False),
    # Codex: the thread id in its shell; the reply's env is not applied here.
    "codex": ("codex", {"CODEX_THREAD_ID": "SID"}, False),
}


@pytest.mark.parametrize("harness", list(HARNESSES))
def test_an_agent_s_day_in_a_project_keeps_one_plan_and_costs_under_2000_characters(
    tmp_path: Path, harness: str
) -> None:
    agent, shell, env_file = HARNESSES[harness]
    day = Day(tmp_path, agent, shell, env_file)
    day.shell_env = {k: (day.session if v == "SID" else v) for k, v in shell.items()}
    day.prepare()
    mirrored = agent in ("claude", "gemini")
    write_event = {"claude": "PostToolUse", "gemini": "AfterTool"}.get(agent, "")
    tool, key = {"claude": ("TodoWrite", "content"), "gemini": ("write_todos", "description")}.get(
        agent, ("", "")
    )

    # The session starts: nothing planned yet, nothing said.
    assert day.context(day.hook("SessionStart", source="startup")) == ""

    # A five-step plan: the agent's own tool, mirrored (or `todo init` where none is).
    state = dict.fromkeys(STEPS, "pending")
    state[STEPS[0]] = "in_progress"
    if mirrored:
        said = day.hook(write_event, tool_name=tool, tool_input={"todos": todos(state, key)})
        assert said == ""  # what it sent, it knows
    else:
        day.shell("init", "-q", *STEPS)
    day.shell("note", "-q", STEPS[0], "the check is in auth.py")
    # It takes one task of the person's backlog.
    day.shell("--project", "claim", "-q", TAKEN)

    # The person edits the plan: a task of their own, and a note on the next step.
    plan = day.plan_file()
    text = plan.read_text()
    lines = [
        line + (f"\n  > {PERSONS_NOTE}" if line.startswith(f"- [ ] {STEPS[2]}") else "")
        for line in text.splitlines()
    ]
    plan.write_text("\n".join(lines) + f"\n- [ ] {PERSONS_TASK}\n")

    # The next step, then one done with its evidence.
    state[STEPS[0]], state[STEPS[1]] = "completed", "in_progress"
    if mirrored:
        told = day.context(
            day.hook(write_event, tool_name=tool, tool_input={"todos": todos(state, key)})
        )
        assert PERSONS_TASK in told  # the person's edit, once
        assert STEPS[0] not in told  # what it sent (that step completed), it knows
    else:
        day.shell("done", "-q")
    day.shell("done", "-q", STEPS[1], "--evidence", "test_login.py::test_expired fails")

    # Compaction: the plan back once, with the person's note on the step under way.
    if agent == "claude":
        after = [day.context(day.hook("SessionStart", source="compact"))]
    else:
        event = "PreCompress" if agent == "gemini" else "PostCompact"
        prompt = "BeforeAgent" if agent == "gemini" else "UserPromptSubmit"
        assert day.hook(event, trigger="auto") == ""
        after = [day.context(day.hook(prompt, prompt="go on"))]
        assert day.hook(prompt, prompt="and on") == ""  # once
    # /clear: a new session id, the same plan; then a resume of the first.
    first = day.session
    day.session = "9b2d4f6a-1c3e-4a5b-8d7f-2e4c6a8b0d1f"
    if "CLAUDE_CODE_SESSION_ID" in day.shell_env or "CODEX_THREAD_ID" in day.shell_env:
        day.shell_env = {k: (day.session if v == first else v) for k, v in day.shell_env.items()}
    after.append(day.context(day.hook("SessionStart", source="clear")))
    cleared, day.session = day.session, first  # a resume of the first session
    day.shell_env = {k: (first if v == cleared else v) for k, v in day.shell_env.items()}
    after.append(day.context(day.hook("SessionStart", source="resume")))
    for text in after:
        assert text.count(f"In progress: {STEPS[2]}") == 1, text
        assert text.count(PERSONS_NOTE) == 1, text
        assert TAKEN in text  # the backlog task it holds is part of its plan
        assert not any(t in text for t in BACKLOG if t != TAKEN), text

    # Stop with tasks open: the gate names the plan and the taken task, never the
    # rest of the backlog; never twice in a row.
    stop, field = ("AfterAgent", "deny") if agent == "gemini" else ("Stop", "block")
    reason = day.context(gate := day.hook(stop, stop_hook_active=False))
    assert json.loads(gate)["decision"] == field
    assert len(reason) < 300, reason
    assert TAKEN in reason
    assert not any(t in reason for t in BACKLOG if t != TAKEN), reason
    assert day.hook(stop, stop_hook_active=True) == ""
    # The shell commands the gate names land in the plan the gate checks.
    day.shell("done", "-q", STEPS[2])
    day.shell("block", "-q", STEPS[3], "-r", "which expiry?")
    for step in (STEPS[4], PERSONS_TASK):
        day.shell("block", "-q", step)
    day.shell("--project", "block", "-q", TAKEN, "-r", "which docs site?")
    waiting = json.loads(day.hook(stop, stop_hook_active=False))
    assert "decision" not in waiting  # every open task waits on the person
    assert "blocked on you" in waiting["systemMessage"]

    # One plan throughout, and the backlog as it was but for the task taken.
    assert sorted(p.name for p in plan.parent.iterdir()) == [plan.name]
    now = (day.repo / "TODO.md").read_text()
    assert without(now, TAKEN) == without(day.backlog.decode(), TAKEN)
    assert f"[!] {TAKEN}" in now  # the one it took, and blocked on the person
    print(harness, day.read)
    assert day.read < DAY_BUDGET, "\n".join(day.log)
