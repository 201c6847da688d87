"""``todo setup TOOL``: real configuration files in each agent's format, merged
byte for byte, parsed by their own parsers (json, tomllib); set up again, dry
run, removed; and each written hook command run as the agent runs it (``sh -c``),
with the agent's documented envelope on stdin."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.support_cli import todo_process

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "agents" / "hooks"
TARGETS = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "opencode", "cline")

CLAUDE_SETTINGS = """{
  "permissions": {
    "allow": ["Bash(npm test)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "./audit.sh"}]
      }
    ]
  },
  "model": "opus"
}
"""
MEMORY = "# My project\n\nUse tabs. Never push to main.\n"
CODEX_CONFIG = """# my Codex settings
model = "gpt-5"

[mcp_servers.docs]
command = "docs-server"  # keep me
"""
GEMINI_SETTINGS = '{"theme": "Dracula", "mcpServers": {"docs": {"command": "docs"}}}\n'


def envelope(name: str) -> dict[str, object]:
    found: dict[str, object] = json.loads((FIXTURES / f"{name}.json").read_text())["stdin"]
    return found


def only_added(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with text inserted and nothing else changed."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return all(tag in ("equal", "insert") for tag, *_ in matcher.get_opcodes())


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text(CLAUDE_SETTINGS)
    (root / "CLAUDE.md").write_text(MEMORY)
    (root / ".codex").mkdir()
    (root / ".codex" / "config.toml").write_text(CODEX_CONFIG)
    (root / "AGENTS.md").write_text(MEMORY)
    (root / ".gemini").mkdir()
    (root / ".gemini" / "settings.json").write_text(GEMINI_SETTINGS)
    return root


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    """The environment an agent runs its hooks in: ``todo`` on the PATH."""
    shims = tmp_path / "bin"
    shims.mkdir()
    launcher = Path(sys.executable).parent / "todo"
    assert launcher.exists(), "the todo script is installed beside this Python"
    (shims / "todo").symlink_to(launcher)
    return {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"}


def setup(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    run = todo_process("setup", *args, cwd=project)
    return subprocess.CompletedProcess(args, run.code, run.out, run.err)


@pytest.mark.parametrize("tool", ["claude", "codex", "gemini"])
def test_setup_keeps_every_byte_and_runs_twice_to_the_same_bytes(project: Path, tool: str) -> None:
    before = snapshot(project)
    first = setup(project, tool)
    assert first.returncode == 0, first.stderr
    after = snapshot(project)
    for name, old in before.items():
        assert only_added(old.decode(), after[name].decode()), name
    assert setup(project, tool).stdout.endswith("already set up, nothing changed.\n")
    assert snapshot(project) == after
    for name, data in after.items():  # each file read by its own format's parser
        if name.endswith(".json"):
            json.loads(data)
        elif name.endswith(".toml"):
            tomllib.loads(data.decode())
    config = json.loads(
        after[
            {
                "claude": ".claude/settings.json",
                "codex": ".codex/hooks.json",
                "gemini": ".gemini/settings.json",
            }[tool]
        ]
    )
    commands = [h["command"] for e in config["hooks"]["SessionStart"] for h in e["hooks"]]
    assert commands == [f"todo hook {tool}"]
    memory = {"claude": "CLAUDE.md", "codex": "AGENTS.md", "gemini": "GEMINI.md"}[tool]
    assert "todo done" in after[memory].decode()
    if tool == "claude":
        assert config["permissions"] == {"allow": ["Bash(npm test)"]}
        assert config["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "./audit.sh"
    if tool == "codex":
        assert after[".codex/config.toml"] == before[".codex/config.toml"]


@pytest.mark.parametrize("tool", ["claude", "codex", "gemini"])
def test_dry_run_prints_the_diff_and_writes_nothing(project: Path, tool: str) -> None:
    before = snapshot(project)
    run = setup(project, tool, "--dry-run")
    assert run.returncode == 0
    assert f"+++ {project}" in run.stdout
    added = [line for line in run.stdout.splitlines() if line.startswith("+")]
    assert any(f'"command": "todo hook {tool}"' in line for line in added)
    assert snapshot(project) == before


@pytest.mark.parametrize("tool", TARGETS)
def test_remove_puts_back_the_exact_bytes(project: Path, tool: str) -> None:
    before = snapshot(project)
    assert setup(project, tool).returncode == 0
    assert snapshot(project) != before
    removed = setup(project, tool, "--remove")
    assert removed.returncode == 0, removed.stderr
    assert snapshot(project) == before
    assert setup(project, tool, "--remove").stdout.endswith("nothing of todo's to remove.\n")


def test_remove_after_the_person_edited_keeps_their_edit(project: Path) -> None:
    assert setup(project, "claude").returncode == 0
    settings = project / ".claude" / "settings.json"
    value = json.loads(settings.read_text())
    value["model"] = "sonnet"
    settings.write_text(json.dumps(value, indent=4))
    assert setup(project, "claude", "--remove").returncode == 0
    left = json.loads(settings.read_text())
    assert left["model"] == "sonnet"
    assert "todo hook claude" not in settings.read_text()
    assert left["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "./audit.sh"
    assert (project / "CLAUDE.md").read_text() == MEMORY


def test_a_file_that_does_not_parse_is_refused_with_its_line_and_nothing_written(
    project: Path,
) -> None:
    settings = project / ".claude" / "settings.json"
    text = '{\n  "model": "opus",\n}\n'  # a trailing comma
    settings.write_text(text)
    before = snapshot(project)
    run = setup(project, "claude")
    assert run.returncode == 1
    # The line json names (the comma's on Python 3.13, the brace's before).
    with pytest.raises(json.JSONDecodeError) as refused:
        json.loads(text)
    assert f"{settings}:{refused.value.lineno}: not valid JSON" in run.stderr
    assert snapshot(project) == before


def test_a_toml_file_that_does_not_parse_is_refused_with_its_line(tmp_path: Path) -> None:
    from todocli.app.wiring.setup.edits import check
    from todocli.errors import InvalidParamError

    with pytest.raises(InvalidParamError, match=r"^c\.toml:2: not valid TOML"):
        check("c.toml", 'a = 1\nb = "\n', "toml")


def test_user_scope_writes_in_the_home(tmp_path: Path) -> None:
    home, project = tmp_path / "user", tmp_path / "p"
    home.mkdir()
    project.mkdir()
    run = todo_process("setup", "gemini", "--user", cwd=project, env={"HOME": str(home)})
    assert run.code == 0, run.err
    config = json.loads((home / ".gemini" / "settings.json").read_text())
    assert config["hooks"]["AfterAgent"][0]["hooks"][0]["command"] == "todo hook gemini"
    assert "todo init" in (home / ".gemini" / "GEMINI.md").read_text()
    assert list(project.iterdir()) == []


def test_an_unknown_tool_is_a_usage_error(project: Path) -> None:
    run = setup(project, "vim")
    assert run.returncode == 2
    assert "unknown tool 'vim' (use claude, codex, gemini" in run.stderr


# -- the written hooks, run as the agent runs them -------------------------------------------


def hook_commands(config: dict[str, object], event: str) -> list[tuple[str | None, str]]:
    hooks = config["hooks"]
    assert isinstance(hooks, dict)
    return [(e.get("matcher"), h["command"]) for e in hooks[event] for h in e["hooks"]]


def run_hook(command: str, stdin: Mapping[str, object], env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        ["sh", "-c", command], input=json.dumps(stdin), env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")
def test_claude_hooks_as_written_mirror_the_plan_restore_it_and_gate_the_stop(
    project: Path, shell_env: dict[str, str]
) -> None:
    assert setup(project, "claude").returncode == 0
    config = json.loads((project / ".claude" / "settings.json").read_text())
    ((matcher, post),) = hook_commands(config, "PostToolUse")
    write = envelope("claude-code-posttooluse-todowrite") | {"cwd": str(project)}
    assert matcher is not None
    assert str(write["tool_name"]) in matcher.split("|")
    code, out = run_hook(post, write, shell_env)
    assert (code, out) == (0, "")  # mirrored: what the agent sent, it knows
    ((matcher, start),) = hook_commands(config, "SessionStart")
    assert matcher == "startup|resume|clear|compact"
    base = {"session_id": write["session_id"], "cwd": str(project), "transcript_path": "/t"}
    for source in ("compact", "resume", "clear"):
        stdin = base | {"hook_event_name": "SessionStart", "source": source}
        if source == "clear":  # /clear starts a new session id: the project's plan goes on
            stdin["session_id"] = "after-clear"
        code, out = run_hook(start, stdin, shell_env)
        assert code == 0
        reply = json.loads(out)["hookSpecificOutput"]
        assert reply["hookEventName"] == "SessionStart"
        text = reply["additionalContext"]
        assert text.count("In progress: Add the --json flag to export") == 1, text
        assert text.startswith("Your todo plan (todo ...):")
    ((_, stop),) = hook_commands(config, "Stop")
    stdin = base | {"hook_event_name": "Stop", "stop_hook_active": False}
    code, out = run_hook(stop, stdin, shell_env)
    assert code == 0
    blocked = json.loads(out)
    assert blocked["decision"] == "block"
    assert "3 todo tasks still open" in blocked["reason"]
    assert "drop TASK if not needed" in blocked["reason"]
    code, out = run_hook(stop, stdin | {"stop_hook_active": True}, shell_env)
    assert (code, out) == (0, "")  # never blocks twice in a row


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")
def test_gemini_hooks_as_written_answer_in_json_only(
    project: Path, shell_env: dict[str, str]
) -> None:
    assert setup(project, "gemini").returncode == 0
    config = json.loads((project / ".gemini" / "settings.json").read_text())
    ((_, after_tool),) = hook_commands(config, "AfterTool")
    write = envelope("gemini-aftertool-write-todos") | {"cwd": str(project)}
    code, out = run_hook(after_tool, write, shell_env)
    assert (code, out) == (0, "")  # mirrored: nothing new for the agent, nothing said
    base = {"session_id": write["session_id"], "cwd": str(project), "timestamp": "t"}
    ((_, start),) = hook_commands(config, "SessionStart")
    code, out = run_hook(
        start, base | {"hook_event_name": "SessionStart", "source": "resume"}, shell_env
    )
    assert (
        "Add the --json flag to export"
        in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    )
    ((_, after_agent),) = hook_commands(config, "AfterAgent")
    stdin = base | {
        "hook_event_name": "AfterAgent",
        "stop_hook_active": False,
        "prompt": "p",
        "prompt_response": "r",
    }
    code, out = run_hook(after_agent, stdin, shell_env)
    assert code == 0
    assert json.loads(out)["decision"] == "deny"  # Gemini's word: another turn
    code, out = run_hook(after_agent, stdin | {"stop_hook_active": True}, shell_env)
    assert (code, out) == (0, "")


# -- --mcp: todo mcp registered as one of the agent's MCP servers ---------------------------


def test_mcp_registers_the_server_in_codex_s_toml_and_removes_it_byte_exact(
    project: Path,
) -> None:
    before = snapshot(project)
    assert setup(project, "codex", "--mcp").returncode == 0
    text = (project / ".codex" / "config.toml").read_text()
    assert only_added(CODEX_CONFIG, text)
    config = tomllib.loads(text)
    assert config["mcp_servers"]["todo"] == {"command": "todo", "args": ["mcp"]}
    assert config["mcp_servers"]["docs"] == {"command": "docs-server"}
    assert setup(project, "codex", "--mcp").stdout.endswith("already set up, nothing changed.\n")
    assert setup(project, "codex", "--remove").returncode == 0
    assert snapshot(project) == before


@pytest.mark.parametrize(
    ("tool", "file", "where"),
    [
        ("claude", ".mcp.json", "mcpServers"),
        ("gemini", ".gemini/settings.json", "mcpServers"),
        ("qwen", ".qwen/settings.json", "mcpServers"),
        ("cursor", ".cursor/mcp.json", "mcpServers"),
        ("copilot", ".vscode/mcp.json", "servers"),
        ("opencode", "opencode.json", "mcp"),
    ],
)
def test_mcp_registers_the_server_in_the_agent_s_json(
    project: Path, tool: str, file: str, where: str
) -> None:
    before = snapshot(project)
    assert setup(project, tool, "--mcp").returncode == 0, tool
    server = json.loads((project / file).read_text())[where]["todo"]
    command = server["command"]
    assert (command if isinstance(command, list) else [command, *server["args"]]) == [
        "todo",
        "mcp",
    ]
    if tool == "gemini":
        settings = json.loads((project / file).read_text())
        assert settings["mcpServers"]["docs"] == {"command": "docs"}
        assert settings["theme"] == "Dracula"
    assert setup(project, tool, "--remove").returncode == 0
    assert snapshot(project) == before


def test_a_todo_server_registered_by_hand_is_neither_doubled_nor_removed(project: Path) -> None:
    mine = '{"mcpServers": {"todo": {"command": "/opt/todo", "args": ["mcp", "-s", "x"]}}}\n'
    (project / ".mcp.json").write_text(mine)
    assert setup(project, "claude", "--mcp").returncode == 0
    assert (project / ".mcp.json").read_text() == mine
    assert setup(project, "claude", "--remove").returncode == 0
    assert (project / ".mcp.json").read_text() == mine


def test_mcp_for_an_agent_whose_servers_todo_does_not_write_is_a_usage_error(
    project: Path,
) -> None:
    before = snapshot(project)
    run = setup(project, "cline", "--mcp")
    assert run.returncode == 2
    assert "todo setup cline --mcp: Cline keeps its MCP servers where todo does not write" in (
        run.stderr
    )
    assert snapshot(project) == before


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")
def test_codex_hooks_as_written_restore_the_plan_and_gate_the_stop(
    project: Path, shell_env: dict[str, str]
) -> None:
    assert setup(project, "codex").returncode == 0
    config = json.loads((project / ".codex" / "hooks.json").read_text())
    # Codex's envelope (developers.openai.com/codex/hooks): the common fields, then
    # SessionStart's source, Stop's stop_hook_active and last assistant message.
    base = {
        "session_id": "019a-codex",
        "transcript_path": None,
        "cwd": str(project),
        "model": "gpt-5.1-codex",
    }
    assert todo_process("-s", "019a-codex", "init", "Patch", "Test").code == 0
    ((matcher, start),) = hook_commands(config, "SessionStart")
    assert matcher is None  # every source: startup, resume, clear
    code, out = run_hook(
        start, base | {"hook_event_name": "SessionStart", "source": "resume"}, shell_env
    )
    assert code == 0
    assert (
        "[0/2] In progress: Patch. Pending: Test."
        in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    )
    ((_, stop),) = hook_commands(config, "Stop")
    stdin = base | {
        "hook_event_name": "Stop",
        "turn_id": "t1",
        "stop_hook_active": False,
        "last_assistant_message": "Done.",
    }
    code, out = run_hook(stop, stdin, shell_env)
    assert (code, json.loads(out)["decision"]) == (0, "block")
    code, out = run_hook(stop, stdin | {"stop_hook_active": True}, shell_env)
    assert (code, out) == (0, "")


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")
def test_qwen_s_tool_hook_as_written_mirrors_todo_write(
    project: Path, shell_env: dict[str, str]
) -> None:
    assert setup(project, "qwen").returncode == 0
    config = json.loads((project / ".qwen" / "settings.json").read_text())
    ((matcher, post),) = hook_commands(config, "PostToolUse")
    write = envelope("qwen-code-posttooluse-todo-write")
    assert matcher == write["tool_name"]
    code, out = run_hook(post, write, shell_env)
    assert (code, out) == (0, "")  # mirrored: nothing new for the agent, nothing said
    listing = todo_process("-s", str(write["session_id"]), "--json").out
    assert len(json.loads(listing)["data"]["todos"]) == 4


def test_every_target_is_in_the_readme_the_completions_and_the_docs() -> None:
    import re

    from todocli.app.wiring.setup import TARGETS
    from todocli.cli.command_table import BY_NAME

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    assert set(re.findall(r"`todo setup (\w+)`", readme)) == set(TARGETS)
    (tool,) = BY_NAME["setup"].arguments
    assert tool.complete == tuple(TARGETS)
    wiring = (root / "docs" / "wiring.md").read_text()
    for name in TARGETS:
        assert f"| `{name}` |" in wiring, name


def tree(root: Path) -> set[str]:
    """Every file and folder under ``root``, git's own folder left out."""
    return {str(p.relative_to(root)) for p in root.rglob("*") if ".git" not in p.parts}


@pytest.fixture
def empty_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.mark.parametrize("mcp", [(), ("--mcp",)])
@pytest.mark.parametrize("tool", [*TARGETS, "git"])
def test_dry_run_names_every_file_the_run_creates(
    empty_repo: Path, tool: str, mcp: tuple[str, ...]
) -> None:
    """In an empty git repository, the files a real run creates are exactly the
    new files ``--dry-run`` names (``+++ PATH (a new ...)`` or a diff from
    ``/dev/null``)."""
    dry = setup(empty_repo, tool, "--dry-run", *mcp)
    if dry.returncode == 2:  # this target keeps its MCP servers where todo does not write
        assert mcp
        assert "--mcp" in dry.stderr
        return
    assert dry.returncode == 0, dry.stderr
    assert tree(empty_repo) == set()  # a dry run writes nothing
    named = {
        str(Path(line[4:].split(" (")[0]).relative_to(empty_repo))
        for line in dry.stdout.splitlines()
        if line.startswith("+++ ")
    }
    assert setup(empty_repo, tool, *mcp).returncode == 0
    made = {p for p in tree(empty_repo) if (empty_repo / p).is_file()}
    assert made, "the setup wrote nothing"
    assert made == {p for p in named if not p.startswith(".git/")}


@pytest.mark.parametrize(("tool", "mcp"), [("codex", "--mcp"), ("gemini", "--mcp"), ("claude", "")])
def test_remove_leaves_no_folder_it_made(empty_repo: Path, tool: str, mcp: str) -> None:
    """``.codex/``, ``.gemini/``, ``.claude/`` made by setup go with ``--remove``:
    the project is as it was."""
    assert setup(empty_repo, tool, *filter(None, [mcp])).returncode == 0
    assert any((empty_repo / p).is_dir() for p in tree(empty_repo))
    removed = setup(empty_repo, tool, "--remove")
    assert removed.returncode == 0, removed.stderr
    assert tree(empty_repo) == set()


def test_remove_keeps_a_folder_that_was_there_or_holds_the_person_s_files(
    empty_repo: Path,
) -> None:
    """A folder the person had before setup stays, empty; one setup made that now
    holds a file of the person's stays with it."""
    (empty_repo / ".codex").mkdir()
    assert setup(empty_repo, "codex").returncode == 0
    assert setup(empty_repo, "codex", "--remove").returncode == 0
    assert tree(empty_repo) == {".codex"}
    assert setup(empty_repo, "gemini").returncode == 0
    (empty_repo / ".gemini" / "notes.md").write_text("mine\n")
    assert setup(empty_repo, "gemini", "--remove").returncode == 0
    assert tree(empty_repo) == {".codex", ".gemini", ".gemini/notes.md"}


def test_a_block_two_agents_read_stays_until_the_last_is_removed(empty_repo: Path) -> None:
    """``setup cursor`` after ``setup codex`` finds the AGENTS.md block in place
    and counts it as Cursor's too: removing Codex keeps it, removing Cursor then
    deletes the file Codex's setup made."""
    assert setup(empty_repo, "codex").returncode == 0
    assert setup(empty_repo, "cursor").stdout == "Cursor: already set up, nothing changed.\n"
    assert setup(empty_repo, "codex", "--remove").returncode == 0
    assert "todo" in (empty_repo / "AGENTS.md").read_text()
    assert setup(empty_repo, "cursor", "--remove").returncode == 0
    assert tree(empty_repo) == set()
