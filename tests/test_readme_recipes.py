"""The README's agent loop and hook commands, and the recipes in docs/, work as
written: they are taken from the document itself and run in a real bash."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
SEVERAL_AGENTS = README.parent / "docs" / "several-agents.md"
AGENT_TOOLS = README.parent / "docs" / "agent-tools.md"
WIRING = README.parent / "docs" / "wiring.md"
pytestmark = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("jq") is None, reason="needs bash and jq"
)


def block_after(heading: str, fence: str, doc: Path = README) -> str:
    text = doc.read_text(encoding="utf-8")
    start = text.index(heading)
    match = re.search(rf"```{fence}\n(.*?)```", text[start:], re.S)
    assert match, f"no {fence} block after {heading!r} in {doc.name}"
    return match.group(1)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    shims = tmp_path / "bin"
    shims.mkdir()
    todo = Path(sys.executable).parent / "todo"
    assert todo.exists(), "the todo script is installed beside this Python"
    (shims / "todo").symlink_to(todo)
    return {
        **os.environ,
        "PATH": f"{shims}:{os.environ['PATH']}",
        "TODOCLI_HOME": str(tmp_path / "home"),
        "TODOCLI_CONFIG": str(tmp_path / "none.toml"),
    }


def shim(env: dict[str, str], name: str, status: int, message: str = "") -> None:
    path = Path(env["PATH"].split(":")[0]) / name
    path.write_text(f"#!/bin/sh\necho '{message or name}'\nexit {status}\n")
    path.chmod(0o755)


def test_the_agent_loop_runs_every_step_and_logs_the_finished_list(
    env: dict[str, str], tmp_path: Path
) -> None:
    for name in ("ruff", "mypy", "pytest"):
        shim(env, name, 0)
    script = block_after("### A bash agent loop", "bash")
    done = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# task1-" in done.stdout
    assert "[3/3] Completed:\n- Lint\n- Types\n- Tests\n" in done.stdout


def test_the_agent_loop_stops_on_a_failing_step_with_the_reason_kept(
    env: dict[str, str], tmp_path: Path
) -> None:
    shim(env, "ruff", 0)
    shim(env, "mypy", 1, "error: 3 type errors")
    shim(env, "pytest", 0)
    script = block_after("### A bash agent loop", "bash")
    failed = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert failed.returncode == 1
    listing = json.loads(
        subprocess.run(
            ["todo", "-s", "checks", "--json"], env=env, capture_output=True, text=True
        ).stdout
    )
    types = listing["data"]["todos"][1]
    assert (types["content"], types["status"]) == ("Types", "blocked")
    assert types["notes"] == ["Blocked: error: 3 type errors"]


def hook_commands() -> dict[str, str]:
    config = json.loads(block_after("### Hooks (Claude Code)", "json", WIRING))
    return {event: entries[0]["hooks"][0]["command"] for event, entries in config["hooks"].items()}


def stdin_of(event: str, **more: object) -> str:
    """What Claude Code hands a hook command on stdin (the fields these use)."""
    return json.dumps({"session_id": "3f1c2a9e-5b7d", "hook_event_name": event, **more})


def test_the_stop_hook_blocks_with_exit_2_while_tasks_are_open(env: dict[str, str]) -> None:
    stop = hook_commands()["Stop"]
    # The session the agent's own-tool hook writes: named after the session_id.
    subprocess.run(
        ["todo", "-s", "3f1c2a9e-5b7d", "add", "A"], env=env, check=True, capture_output=True
    )
    subprocess.run(["todo", "add", "elsewhere"], env=env, check=True, capture_output=True)
    blocked = subprocess.run(
        ["sh", "-c", stop], env=env, input=stdin_of("Stop"), capture_output=True, text=True
    )
    assert blocked.returncode == 2
    assert "Open tasks (1):\n  - A [in_progress] (Todos)" in blocked.stderr
    subprocess.run(
        ["todo", "-s", "3f1c2a9e-5b7d", "done", "A"], env=env, check=True, capture_output=True
    )
    allowed = subprocess.run(
        ["sh", "-c", stop], env=env, input=stdin_of("Stop"), capture_output=True, text=True
    )
    assert allowed.returncode == 0


def test_the_prompt_hook_prints_a_reminder_every_third_prompt(env: dict[str, str]) -> None:
    remind = hook_commands()["UserPromptSubmit"]
    subprocess.run(
        ["todo", "-s", "3f1c2a9e-5b7d", "add", "A"], env=env, check=True, capture_output=True
    )
    prompt = stdin_of("UserPromptSubmit", prompt="go on")
    outs = [
        subprocess.run(["sh", "-c", remind], env=env, input=prompt, capture_output=True, text=True)
        for _ in range(3)
    ]
    assert [o.returncode for o in outs] == [0, 0, 0]
    assert [o.stdout for o in outs][:2] == ["", ""]
    assert outs[2].stdout.startswith("<reminder>Update your todos.</reminder>\n")


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "agents" / "hooks"


@pytest.mark.parametrize(
    ("heading", "event", "fixture"),
    [
        ("### Hooks for the agent's own todo tool (Claude Code)", "PostToolUse",
         "claude-code-posttooluse-todowrite"),
        ("### Hooks for the agent's own todo tool (Gemini CLI)", "AfterTool",
         "gemini-aftertool-write-todos"),
    ],
)  # fmt: skip
def test_the_todo_tool_hook_records_the_agents_list_and_reports_hand_edits(
    env: dict[str, str], heading: str, event: str, fixture: str
) -> None:
    config = json.loads(block_after(heading, "json", WIRING))
    (entry,) = config["hooks"][event]
    command = entry["hooks"][0]["command"]
    envelope = json.loads((FIXTURES / f"{fixture}.json").read_text())["stdin"]
    assert re.fullmatch(entry["matcher"], envelope["tool_name"])
    first = subprocess.run(
        ["sh", "-c", command], input=json.dumps(envelope), env=env, capture_output=True, text=True
    )
    assert (first.returncode, first.stdout) == (0, "")
    session = envelope["session_id"]
    path = subprocess.run(
        ["todo", "-s", session, "path"], env=env, capture_output=True, text=True
    ).stdout.strip()
    text = Path(path).read_text()
    assert "- [/] Add the --json flag to export" in text
    Path(path).write_text(text + "- [ ] Added by hand\n")
    second = subprocess.run(
        ["sh", "-c", command], input=json.dumps(envelope), env=env, capture_output=True, text=True
    )
    assert second.returncode == 0
    reply = json.loads(second.stdout)["hookSpecificOutput"]
    assert reply["hookEventName"] == event
    assert "Added by hand" in reply["additionalContext"]


def test_the_augment_hook_records_the_ids_augment_gives(
    env: dict[str, str], tmp_path: Path
) -> None:
    heading = "### Hooks for the agent's own todo tool (Augment)"
    script = tmp_path / "todo-hook.sh"
    script.write_text(block_after(heading, "sh", AGENT_TOOLS))
    script.chmod(0o755)
    config = json.loads(block_after(heading, "json", AGENT_TOOLS))
    (entry,) = config["hooks"]["PostToolUse"]
    for tool in ("add_tasks", "update_tasks", "reorganize_tasklist"):
        assert re.fullmatch(entry["matcher"], tool)
    assert not re.fullmatch(entry["matcher"], "launch-process")
    envelope = json.loads((FIXTURES / "augment-posttooluse-add-tasks.json").read_text())["stdin"]
    run = subprocess.run(
        [str(script)], input=json.dumps(envelope), env=env, capture_output=True, text=True
    )
    assert (run.returncode, run.stdout) == (0, "")
    listing = subprocess.run(
        ["todo", "--json", "-s", envelope["conversation_id"]],
        env=env,
        capture_output=True,
        text=True,
    )
    todos = json.loads(listing.stdout)["data"]["todos"]
    assert [t["id"] for t in todos] == [
        "8n1WPVYv5XwFXr7BX7cZGX",
        "kYCHAkovGRZgr6DF55yrzF",
        "vKiAwtc9AwjLxMXmfNP7En",
    ]


def test_the_gemini_hook_takes_the_trackers_calls_too(env: dict[str, str]) -> None:
    config = json.loads(
        block_after("### Hooks for the agent's own todo tool (Gemini CLI)", "json", WIRING)
    )
    (entry,) = config["hooks"]["AfterTool"]
    envelope = json.loads((FIXTURES / "gemini-aftertool-tracker-create-task.json").read_text())[
        "stdin"
    ]
    assert re.fullmatch(entry["matcher"], envelope["tool_name"])
    assert not re.fullmatch(entry["matcher"], "run_shell_command")
    command = entry["hooks"][0]["command"]
    run = subprocess.run(
        ["sh", "-c", command], input=json.dumps(envelope), env=env, capture_output=True, text=True
    )
    assert (run.returncode, run.stdout) == (0, "")
    listing = subprocess.run(
        ["todo", "--json", "-s", envelope["session_id"]], env=env, capture_output=True, text=True
    )
    assert [t["id"] for t in json.loads(listing.stdout)["data"]["todos"]] == ["3f9a2c"]


def test_the_parallel_agents_recipe_drains_the_plan_in_dependency_order(
    env: dict[str, str], tmp_path: Path
) -> None:
    script = block_after(
        "## A plan drained by N parallel agents from one shell script", "bash", SEVERAL_AGENTS
    )
    done = subprocess.run(
        ["bash", "-c", script],
        env={**env, "N": "4"},
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    taken = [line.split(": ", 1) for line in done.stdout.splitlines() if line.startswith("agent-")]
    order = [task for _, task in taken]
    # Each task taken once, and never before the tasks it comes after.
    assert sorted(order) == ["Build", "Docs", "Ship", "Tests"]
    assert order[0] == "Build"
    assert order[-1] == "Ship"
    assert {agent for agent, _ in taken} <= {f"agent-{i}" for i in range(1, 5)}
    assert "[4/4] Completed:\n- Build\n- Tests\n- Docs\n- Ship\n" in done.stdout


def test_the_parallel_agents_recipe_ends_on_a_cycle_written_by_hand(
    env: dict[str, str], tmp_path: Path
) -> None:
    script = block_after(
        "## A plan drained by N parallel agents from one shell script", "bash", SEVERAL_AGENTS
    )
    plan = "todo add -q --agent planner Ship --after Tests --after Docs\n"
    assert plan in script
    # A person makes Build wait on Tests, which waits on Build: nothing can start.
    edit = (
        "sed -i 's/^- \\[ \\] Build <!-- id: 1 -->$/- [ ] Build <!-- id: 1; blocked-by: 2 -->/'"
        ' "$(todo path)"\n'
    )
    proc = subprocess.Popen(
        ["bash", "-c", script.replace(plan, plan + edit)],
        env={**env, "N": "3"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        start_new_session=True,  # its agents in the background are ended with it
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the drain loop did not end on a dependency cycle")
    assert not [line for line in out.splitlines() if line.startswith("agent-")]
    cycle = '#1 "Build" -> #2 "Tests" -> #1'
    assert err.count(f"todo: Nothing to claim: dependency cycle {cycle}") == 3
    shown = subprocess.run(
        ["todo", "-s", "release", "show"], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert f"Dependency cycle {cycle}" in shown.stdout


MAN_PAGE = README.parent / "man" / "todo.1"


def man_examples() -> list[str]:
    """The man page's EXAMPLES, one shell line each, as roff has them (``\\-`` is -)."""
    text = MAN_PAGE.read_text(encoding="utf-8").split(".SH EXAMPLES", 1)[1].split(".SH ", 1)[0]
    blocks = re.findall(r"\.RS\n(.*?)\.RE", text, re.S)
    return [line.replace("\\-", "-") for block in blocks for line in block.splitlines()]


def test_the_man_page_examples_do_what_they_say(env: dict[str, str], tmp_path: Path) -> None:
    lines = man_examples()
    agent = lines[: lines.index("todo                      # show the list")]

    def sh(line: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["sh", "-c", line], env=env, capture_output=True, text=True, cwd=tmp_path
        )

    for line in agent[:-1]:
        done = sh(line)
        assert done.returncode == 0, (line, done.stdout + done.stderr)
    listing = json.loads(sh("todo --json").stdout)["data"]["todos"]
    # Nothing the agent did not mean to drop is gone: Patch done, the test started.
    assert [(t["content"], t["status"]) for t in listing] == [
        ("Reproduce", "completed"),
        ("Patch", "completed"),
        ("Add a test", "in_progress"),
    ]
    gate = sh(agent[-1])
    assert gate.stdout.endswith("tasks are still open\n")
    (tmp_path / "TODO.md").write_text("- [ ] One\n- [ ] Two\n- [ ] Three\n")
    by_number = next(line for line in lines if "--file TODO.md" in line)
    result = sh(by_number)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "TODO.md").read_text().splitlines()[2] == "- [x] Three"


def test_every_error_exit_code_is_documented_in_the_readme_and_the_man_page() -> None:
    from todocli import errors
    from todocli.app.evidence import proof
    from todocli.app.wiring import gate

    readme = README.read_text(encoding="utf-8")
    man = MAN_PAGE.read_text(encoding="utf-8")
    # errors.py, and the modules that define the gate's and a check's errors beside
    # the only code raising them (off every other call's start-up).
    kinds = [
        k
        for module in (errors, gate, proof)
        for k in vars(module).values()
        if isinstance(k, type) and issubclass(k, errors.TodoError)
    ]
    assert errors.CycleError in kinds
    assert {"OpenTasksError", "CheckFailedError", "CheckNotAllowedError"} <= {
        k.__name__ for k in kinds
    }
    for kind in kinds:
        row = re.search(rf"^\| {kind.exit_code} \| (.*)$", readme, re.M)
        assert row is not None, f"exit {kind.exit_code} ({kind.__name__}) is in the README table"
        assert f".TP\n\\fB{kind.exit_code}\\fR\n" in man, f"exit {kind.exit_code} in the man page"
        if kind.exit_code >= 4:  # these codes name their error
            assert f"`{kind.code}`" in row.group(1)
            assert f"\\fB{kind.code}\\fR" in man
