"""``todo mcp``'s tools without the SDK: the same answers as the command line, every
failure a reply (never an exception), the install hint when the SDK is missing, and
no other command importing it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support_cli import todo_process
from todocli.app.commands import Options
from todocli.errors import NotFoundError, UsageError
from todocli.mcp import mcp_tools
from todocli.mcp.mcp_tools import call

DEFAULTS = Options()
SDK_MODULES = {"mcp", "mcp_types", "anyio", "pydantic", "starlette", "httpx2", "uvicorn"}


def session_file(home: Path, name: str = "default") -> Path:
    return home / "sessions" / f"{name}.md"


# -- the command's edges ----------------------------------------------------------------------

NO_SDK = """
import sys

class NoSDK:
    '''Finds the MCP SDK nowhere, as on an install without the mcp extra.'''

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("mcp", "mcp_types"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoSDK())
sys.argv = ["todo", *sys.argv[1:]]
from todocli.__main__ import main
main()
"""


def test_without_the_sdk_todo_mcp_exits_2_with_the_install_hint(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", NO_SDK, "mcp"],
        input=b"",
        capture_output=True,
        env={**os.environ, "TODOCLI_HOME": str(tmp_path / "h")},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == b""  # stdout would be the protocol's: nothing there
    err = proc.stderr.decode()
    assert err.count("\n") == 1
    assert err.startswith("todo: todo mcp needs the MCP SDK")
    assert "pip install 'todocli-md[mcp]'" in err
    # The blocker is real: the other commands run as ever without the SDK.
    proc = subprocess.run(
        [sys.executable, "-c", NO_SDK, "add", "Still works"],
        capture_output=True,
        env={**os.environ, "TODOCLI_HOME": str(tmp_path / "h")},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_a_broken_sdk_is_as_a_missing_one_exit_2_with_its_reason(tmp_path: Path) -> None:
    # Installed but broken (a half-upgraded environment): importing it raises an
    # ImportError that is not ModuleNotFoundError. It was an internal error, exit 3.
    broken = tmp_path / "site" / "mcp"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError(\"cannot import name 'Tool'\")\n")
    script = (
        f"import sys\nsys.path.insert(0, {str(tmp_path / 'site')!r})\n"
        + NO_SDK.split("sys.meta_path.insert(0, NoSDK())\n")[1]
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "mcp"],
        input=b"",
        capture_output=True,
        env={**os.environ, "TODOCLI_HOME": str(tmp_path / "h")},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert err.count("\n") == 1
    assert err.startswith("todo: todo mcp needs the MCP SDK (it failed to import: cannot import")
    assert "pip install 'todocli-md[mcp]'" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-s", "../bad", "mcp"], "invalid session name '../bad'"),
        (["mcp", "--if-rev", "3"], "--if-rev is for one write: pass if_rev to todo_write"),
    ],
)
def test_a_bad_start_fails_on_stderr_only(argv: list[str], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", *argv],
        input=b"",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == b""  # stdout is the protocol's
    err = proc.stderr.decode()
    assert err.count("\n") == 1
    assert message in err


PROBE = """
import sys
sys.argv = ["todo", *sys.argv[1:]]
from todocli.__main__ import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)))
"""

OTHER_COMMANDS = [
    ["show"],
    ["done", "X"],
    ["apply"],
    ["check"],
    ["--help"],
    ["schema"],
    ["history"],
    ["config"],
    ["sessions"],
]


@pytest.mark.parametrize("argv", OTHER_COMMANDS, ids=[" ".join(a) for a in OTHER_COMMANDS])
def test_no_other_command_imports_the_sdk(argv: list[str], tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        input=b'{"todos": [{"content": "X"}]}',
        capture_output=True,
        env={**os.environ, "TODOCLI_HOME": str(tmp_path / "h")},
        timeout=60,
        check=False,
    )
    modules = set(proc.stderr.decode().split("MODULES ", 1)[1].split())
    assert not {m.partition(".")[0] for m in modules} & SDK_MODULES
    assert not modules & {"todocli.mcp.mcp_server", "todocli.mcp.mcp_tools"}


# -- the tools ----------------------------------------------------------------------------------


def test_todo_read_and_todo_check_say_what_the_command_line_says(home: Path) -> None:
    assert todo_process("init", "Lint", "Test").code == 0
    read = call("todo_read", {}, DEFAULTS)
    assert not read.failed
    assert read.text == todo_process("show", "--plain").out
    assert read.data is not None
    assert read.data["context"]["rev"] == 1

    check = call("todo_check", {}, DEFAULTS)
    cli = todo_process("check")
    assert check.failed  # open tasks: the gate is shut, as exit 1 says
    assert check.text == cli.out
    assert check.data is not None
    assert check.data["error"]["code"] == "OPEN_TASKS"


def test_if_rev_makes_a_stale_write_fail_with_conflict(home: Path) -> None:
    first = call("todo_write", {"todos": [{"content": "A"}]}, DEFAULTS)
    assert first.data is not None
    rev = first.data["context"]["rev"]
    assert not call("todo_write", {"ops": [{"op": "done"}], "if_rev": rev}, DEFAULTS).failed
    before = session_file(home).read_bytes() if session_file(home).exists() else b""
    stale = call("todo_write", {"todos": [{"content": "B"}], "if_rev": rev}, DEFAULTS)
    assert stale.failed
    assert stale.data is not None
    assert stale.data["error"]["code"] == "CONFLICT"
    assert (session_file(home).read_bytes() if session_file(home).exists() else b"") == before
    bad = call("todo_write", {"todos": [], "if_rev": "1"}, DEFAULTS)
    assert bad.text == "Errors: if_rev: expected a revision number, got '1'\n"


def test_markdown_replaces_the_list_as_apply_markdown_does(home: Path, tmp_path: Path) -> None:
    plan = "# Ship it\n\n## Build\n- [x] Lint\n- [ ] Test\n"
    reply = call("todo_write", {"markdown": plan}, DEFAULTS)
    other = {"TODOCLI_HOME": str(tmp_path / "cli")}
    cli = todo_process("apply", "--markdown", stdin=plan, env=other)
    assert not reply.failed
    assert reply.text == cli.out
    assert session_file(home).read_bytes() == session_file(tmp_path / "cli").read_bytes()
    mixed = call("todo_write", {"markdown": plan, "todos": []}, DEFAULTS)
    assert mixed.failed
    assert 'not with "todos"' in mixed.text
    assert call("todo_write", {"markdown": 3}, DEFAULTS).failed


def test_arguments_are_checked(home: Path) -> None:
    # A session that does not exist yet is an empty list, as on the command line.
    fresh = call("todo_read", {"session": "never-made"}, DEFAULTS)
    assert not fresh.failed
    assert fresh.text == "Todo list is empty.\n"
    # null is "not given" (some clients send every optional argument).
    assert call("todo_read", {"session": None}, DEFAULTS).text == "Todo list is empty.\n"
    unknown = call("todo_read", {"all": True}, DEFAULTS)
    assert unknown.text == 'Errors: unknown argument "all" (todo_read takes: session)\n'
    assert call("todo_check", {"if_rev": 1}, DEFAULTS).failed  # only todo_write takes it
    bad = call("todo_write", {"todos": [], "session": "a/b"}, DEFAULTS)
    assert bad.data is not None
    assert bad.data["error"]["code"] == "USAGE"
    assert not session_file(home).exists()


def test_an_unexpected_exception_is_an_internal_error_reply(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("todocli.app.commands.show", broken)
    reply = call("todo_read", {}, DEFAULTS)
    assert reply.failed
    assert reply.text == "Errors: internal error: RuntimeError: boom\n"
    assert reply.data is not None
    assert reply.data["error"]["code"] == "INTERNAL_ERROR"


def test_warnings_about_the_file_reach_the_agent(home: Path) -> None:
    session_file(home).parent.mkdir(parents=True)
    session_file(home).write_text("- [ ] Fine\n- [?] Odd\n")
    reply = call("todo_read", {}, DEFAULTS)
    cli = todo_process("show", "--plain")
    # The command line's stdout, then its stderr warning lines.
    assert reply.text == cli.out + cli.err
    assert cli.err.startswith("todo: warning: Line 2: ")
    assert reply.data is not None
    assert len(reply.data["warnings"]) == 1


# -- resources ----------------------------------------------------------------------------------


def test_resources_name_the_lists_and_nothing_else(home: Path, tmp_path: Path) -> None:
    (home / "sessions").mkdir(parents=True)
    for name in ("b", "a", ".hidden", "not a name"):
        (home / "sessions" / f"{name}.md").write_text("- [ ] x\n")
    assert [r.uri for r in mcp_tools.resources(DEFAULTS)] == [
        "todo://sessions/default",
        "todo://sessions/a",
        "todo://sessions/b",
    ]
    assert mcp_tools.resource("todo://sessions/new", DEFAULTS).path == str(
        home / "sessions" / "new.md"
    )
    with pytest.raises(UsageError, match="invalid session name"):
        mcp_tools.resource("todo://sessions/../../etc/passwd", DEFAULTS)
    with pytest.raises(NotFoundError, match="unknown resource"):
        mcp_tools.resource("file:///etc/passwd", DEFAULTS)

    project = tmp_path / "TODO.md"
    on_file = Options(file=str(project))
    first = mcp_tools.resources(on_file)[0]
    assert first.uri == project.as_uri()
    assert mcp_tools.resource(project.as_uri(), on_file).path == str(project)


def test_a_resource_shows_bytes_that_are_not_utf8_as_escapes(home: Path) -> None:
    session_file(home).parent.mkdir(parents=True)
    session_file(home).write_bytes(b"- [ ] caf\xe9\n")
    # As `todo show` prints the byte (\xe9), not as the lone surrogate it is read as.
    assert mcp_tools.read("todo://sessions/default", DEFAULTS) == "- [ ] caf\\xe9\n"
    assert mcp_tools.read("todo://sessions/missing", DEFAULTS) == ""


def test_a_lone_surrogate_in_arguments_is_a_tool_error_naming_the_field(home: Path) -> None:
    from todocli.app.commands import Options
    from todocli.mcp.mcp_tools import call

    reply = call("todo_write", {"todos": [{"content": "x \ud800"}]}, Options())
    assert reply.failed
    assert reply.text.startswith("Errors: todos[0].content: a lone surrogate escape")
    reply.text.encode("utf-8")  # the reply itself can be sent
