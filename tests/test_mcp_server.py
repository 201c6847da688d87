"""``todo mcp`` as a real subprocess over stdio, driven by the MCP SDK's own client.

Every test bounds its waits (``anyio.fail_after``), so a server that hangs fails the
test instead of blocking CI.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "mcp", reason="the MCP SDK is not installed (pip install -e '.[test]' brings it)"
)

import anyio
import jsonschema
import mcp.types as types
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from tests.support_cli import start_todo, todo_process
from todocli.engine import schema
from todocli.mcp.mcp_server import ENVELOPE_SCHEMA
from todocli.storage import paths
from todocli.storage.lock import ListLock

pytestmark = pytest.mark.filterwarnings(
    # The handshake-era calls (resources/subscribe) are what today's agents send.
    "ignore::mcp.shared.exceptions.MCPDeprecationWarning"
)

TEST_SECONDS = 60  # a whole test, server start-up included (the SDK takes ~1 s to import)
NOTICE_SECONDS = 15  # one change notification (the server polls every 0.2 s)

CLAUDE_TODOS = {
    "todos": [
        {"content": "Reproduce the bug", "status": "completed", "activeForm": "Reproducing"},
        {"content": "Patch the check", "status": "in_progress", "activeForm": "Patching"},
        {"content": "Add a test", "status": "pending", "activeForm": "Adding a test"},
    ]
}


class Connection:
    """A client session to a running ``todo mcp``, and the resource updates it got."""

    def __init__(self, session: ClientSession, updates: MemoryObjectReceiveStream[str]) -> None:
        self.session = session
        self.updates = updates

    async def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        result = await self.session.call_tool(name, arguments)
        assert isinstance(result, types.CallToolResult)
        return result

    async def next_update(self) -> str:
        """The next update (the tests' edits are whole saves, see ``save``: each
        change is one update, and the tests count them)."""
        with anyio.fail_after(NOTICE_SECONDS):
            return await self.updates.receive()


def save(path: Path, text: str) -> None:
    """A person's editor saving ``path`` whole (a new file renamed over it): the
    server sees one change, never an emptied file on its way to being filled."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".swp")
    fresh.write_text(text)
    os.replace(fresh, path)


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test's environment (its TODOCLI_HOME, and PYTHONPATH naming this checkout)."""
    return {**os.environ, **(extra or {})}


@asynccontextmanager
async def connect(
    *args: str, env: dict[str, str] | None = None, errlog: Path | None = None
) -> AsyncIterator[Connection]:
    """Start ``python -m todocli [ARGS] mcp`` and open a handshake-era session to it,
    as Claude Code, Codex, Gemini CLI, Cursor and VS Code do."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "todocli", *args, "mcp"], env=server_env(env)
    )
    send, receive = anyio.create_memory_object_stream[str](100)

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            send.send_nowait(message.params.uri)

    with open(errlog or os.devnull, "w", encoding="utf-8") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()
            yield Connection(session, receive)


def run(body: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(TEST_SECONDS):
            await body()

    anyio.run(bounded)


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def envelope_of(result: types.CallToolResult) -> dict[str, Any]:
    data = result.structured_content
    assert isinstance(data, dict)
    jsonschema.validate(data, ENVELOPE_SCHEMA)  # every answer keeps the declared shape
    return data


def session_file(home: Path, name: str = "default") -> Path:
    return home / "sessions" / f"{name}.md"


# -- tools ----------------------------------------------------------------------------------


def test_lists_four_tools_whose_write_schema_is_todo_schemas() -> None:
    async def body() -> None:
        async with connect() as conn:
            listed = {t.name: t for t in (await conn.session.list_tools()).tools}
        assert set(listed) == {"todo_write", "todo_read", "todo_check", "todo_claim"}
        write = listed["todo_write"].input_schema
        assert write["type"] == "object"  # what MCP requires at the root
        # In brief: every op named (todo schema ops has them in full)
        ops = write["properties"]["ops"]["description"]
        for op in schema.OP_SCHEMAS:
            assert op["properties"]["op"]["const"] in ops
        assert write["properties"]["todos"]["type"] == "array"
        assert {"session", "if_rev", "markdown", "agent"} <= set(write["properties"])
        assert set(listed["todo_read"].input_schema["properties"]) == {"session"}
        assert set(listed["todo_check"].input_schema["properties"]) == {
            "session",
            "agent",
            "verify",
        }
        claim = listed["todo_claim"].input_schema["properties"]
        assert set(claim) == {"task", "agent", "session", "if_rev"}
        for name in ("todo_read", "todo_check"):
            annotations = listed[name].annotations
            assert annotations is not None
            assert annotations.read_only_hint is True
        claim_hints = listed["todo_claim"].annotations
        assert claim_hints is not None
        assert claim_hints.read_only_hint is False
        for tool in listed.values():
            assert tool.output_schema == ENVELOPE_SCHEMA
            assert tool.description

    run(body)


def test_todo_write_takes_a_claude_code_payload_as_todo_apply_does(
    home: Path, tmp_path: Path
) -> None:
    async def body() -> None:
        async with connect() as conn:
            result = await conn.call("todo_write", CLAUDE_TODOS)
        assert not result.is_error
        data = envelope_of(result)
        assert data["status"] == "success"
        assert [t["status"] for t in data["data"]["todos"]] == [
            "completed",
            "in_progress",
            "pending",
        ]
        assert data["context"]["session"] == "default"
        assert data["context"]["rev"] == 1
        # what the text or the call's own arguments hold is not repeated
        assert "params_input" not in data["context"]
        assert "text" not in data
        assert "old_todos" not in data["changes"]

        # The command line, on a list of its own, says and writes the same.
        other = tmp_path / "cli-home"
        cli = todo_process(
            "apply", stdin=json.dumps(CLAUDE_TODOS), env={"TODOCLI_HOME": str(other)}
        )
        assert cli.code == 0
        assert text_of(result) == cli.out
        assert session_file(home).read_bytes() == session_file(other).read_bytes()
        assert "- [/] Patch the check <!-- active: Patching -->" in session_file(home).read_text()

    run(body)


def test_the_tool_list_is_under_4000_characters() -> None:
    async def body() -> None:
        async with connect() as conn:
            listed = await conn.session.list_tools()
        wire = json.dumps(listed.model_dump(mode="json", by_alias=True, exclude_none=True))
        assert len(wire) <= 4000, len(wire)

    run(body)


def test_a_step_on_a_20_task_list_and_a_hand_note_reach_the_agent(home: Path) -> None:
    """The result of a step (one task done, the next started) is lean on a
    20-task list, and a note the person typed under a pending task is in it."""
    names = [f"Step {i:02d} of the bug fix plan" for i in range(20)]
    todos = [{"content": n, "status": "pending", "activeForm": n} for n in names]
    todos[0]["status"] = "in_progress"

    async def body() -> None:
        async with connect() as conn:
            await conn.call("todo_write", {"todos": todos})
            path = session_file(home)
            text = path.read_text()
            line = next(x for x in text.splitlines() if f"] {names[5]}" in x)
            path.write_text(text.replace(line, f"{line}\n  > ask before touching the CI", 1))
            step = {"ops": [{"op": "done", "task": names[0]}, {"op": "start", "task": names[1]}]}
            result = await conn.call("todo_write", step)
        assert not result.is_error
        text = text_of(result)
        assert f'  note on "{names[5]}": "ask before touching the CI"' in text
        assert len(text) <= 600
        data = envelope_of(result)
        assert len(data["data"]["todos"]) == 20

    run(body)


def test_todo_write_takes_ops_and_todo_read_shows_the_list(home: Path) -> None:
    async def body() -> None:
        plan = {"ops": [{"op": "init", "list": [{"phase": "Build", "items": ["Lint", "Test"]}]}]}
        progress = {
            "ops": [
                {"op": "done", "task": "Lint"},
                {"op": "note", "task": "Test", "text": "run the slow ones too"},
            ]
        }
        async with connect() as conn:
            planned = await conn.call("todo_write", plan)
            written = await conn.call("todo_write", progress)
            read = await conn.call("todo_read", {})
        assert not planned.is_error
        assert text_of(planned).startswith("Added: Lint; Test\n")
        assert not written.is_error
        assert text_of(written).startswith("Completed: Lint\nStarted: Test\n")
        assert session_file(home).read_text() == (
            "## Build\n- [x] Lint\n- [/] Test\n  > run the slow ones too\n"
        )
        assert not read.is_error
        cli = todo_process("show", "--plain")
        assert text_of(read) == cli.out  # the very text `todo show` prints
        assert envelope_of(read)["context"]["rev"] == envelope_of(written)["context"]["rev"]

    run(body)


def test_a_bad_call_is_a_tool_error_and_the_next_call_works(home: Path) -> None:
    async def body() -> None:
        bad = {"todos": [{"content": "A", "status": "working"}]}
        async with connect() as conn:
            assert not (await conn.call("todo_write", {"todos": [{"content": "Keep me"}]})).is_error
            before = session_file(home).read_bytes()
            rejected = await conn.call("todo_write", bad)
            typo = await conn.call("todo_write", {"todoz": []})
            wrong_type = await conn.call("todo_read", {"session": 7})
            unknown_arg = await conn.call("todo_check", {"sesion": "x"})
            claim_arg = await conn.call("todo_claim", {"agent": "a", "foo": 1})
            good = await conn.call(
                "todo_write", {"ops": [{"op": "append", "phase": "Todos", "items": ["B"]}]}
            )
        for result in (rejected, typo, wrong_type, unknown_arg, claim_arg):
            assert result.is_error
            assert envelope_of(result)["status"] == "error"
        # The same message the command line gives, and nothing written.
        cli = todo_process("apply", stdin=json.dumps(bad))
        assert cli.code == 1
        assert text_of(rejected).splitlines()[0] == cli.out.splitlines()[0]
        assert text_of(rejected).startswith('Errors: todos[0].status: unknown status "working"')
        # The first line is the error; the list as it stands follows, as after an
        # engine's rejection (stderr has the error alone).
        first = text_of(rejected).splitlines()[0]
        assert cli.err == "todo: " + first.removeprefix("Errors: ") + "\n"
        assert text_of(rejected).endswith("[0/1] Pending: Keep me.\n")
        assert envelope_of(rejected)["error"]["code"] == "INVALID_PARAM"
        assert 'unknown key "todoz"' in text_of(typo)
        assert text_of(wrong_type) == "Errors: session: expected a string, got int\n"
        assert 'unknown argument "sesion"' in text_of(unknown_arg)
        assert "(todo_check takes: session, agent, verify)" in text_of(unknown_arg)
        # What a tool takes is what its schema lists, not a list kept by hand.
        assert 'unknown argument "foo" (todo_claim takes: task, agent, session, if_rev)' in (
            text_of(claim_arg)
        )
        assert not good.is_error
        # Nothing of the bad calls was written: the good one appended to what was there.
        assert before == b"# Todos\n- [ ] Keep me\n"
        assert session_file(home).read_bytes() == b"# Todos\n- [/] Keep me\n- [ ] B\n"

    run(body)


# The first message of a client that speaks raw JSON-RPC over the server's stdio.
RAW_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}


def test_bad_json_and_an_unknown_tool_do_not_stop_the_server(tmp_path: Path) -> None:
    """Raw JSON-RPC: a line that is not JSON, a torn message, an unknown tool, then a
    real call, all answered by the same server."""

    def call(n: int, name: str, arguments: dict[str, Any]) -> str:
        params = {"name": name, "arguments": arguments}
        return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params})

    lines = [
        "this is not JSON",
        json.dumps(RAW_INITIALIZE),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "todo_wri',
        call(3, "todo_nope", {}),
        call(4, "todo_write", {"ops": [{"op": "append", "phase": "P", "items": ["X"]}]}),
    ]
    replies: dict[object, dict[str, Any]] = {}
    errors = tmp_path / "server.err"

    async def body() -> None:
        with open(errors, "wb") as err:
            process = await anyio.open_process(
                [sys.executable, "-m", "todocli", "mcp"], env=server_env(), stderr=err
            )
            async with process:
                assert process.stdin is not None
                assert process.stdout is not None
                await process.stdin.send("".join(line + "\n" for line in lines).encode())
                pending = b""
                async for chunk in process.stdout:
                    *complete, pending = (pending + chunk).split(b"\n")
                    for line in complete:
                        message = json.loads(line)
                        replies[message.get("id")] = message
                    if 4 in replies:
                        break
                await process.stdin.aclose()  # the client hangs up: the server ends
                assert await process.wait() == 0

    run(body)
    assert replies[1]["result"]["serverInfo"]["name"] == "todo"
    assert replies[3]["error"]["code"] == types.INVALID_PARAMS
    assert "Unknown tool: todo_nope" in replies[3]["error"]["message"]
    assert replies[4]["result"]["isError"] is False
    assert "Added: X" in replies[4]["result"]["content"][0]["text"]
    assert b"Traceback" not in errors.read_bytes()


def test_a_lock_timeout_and_a_storage_error_are_tool_errors(home: Path, tmp_path: Path) -> None:
    async def body() -> None:
        lock = paths.resolve(home=str(home), session="default").lock_file
        os.makedirs(os.path.dirname(lock), exist_ok=True)
        async with connect(env={"TODOCLI_LOCK_TIMEOUT": "0.3"}) as conn:
            with ListLock(lock, timeout=5):  # another writer holds the list
                busy = await conn.call("todo_write", {"todos": [{"content": "A"}]})
            assert busy.is_error
            assert envelope_of(busy)["error"]["code"] == "BUSY", text_of(busy)
            assert text_of(busy).startswith("Errors: ")
            assert not session_file(home).exists()

            blocked = home / "sessions" / "other.md"
            blocked.mkdir(parents=True)  # a directory where the list should be
            storage = await conn.call(
                "todo_write", {"todos": [{"content": "A"}], "session": "other"}
            )
            assert storage.is_error
            assert envelope_of(storage)["error"]["code"] == "STORAGE"
            assert "it is a directory" in text_of(storage)

            fine = await conn.call("todo_write", {"todos": [{"content": "A"}]})
            assert not fine.is_error
        assert session_file(home).read_text() == "# Todos\n- [ ] A\n"

    run(body)


def test_todo_check_is_the_stop_gate(home: Path) -> None:
    async def body() -> None:
        async with connect() as conn:
            await conn.call(
                "todo_write",
                {"todos": [{"content": "A", "status": "in_progress"}, {"content": "B"}]},
            )
            open_ = await conn.call("todo_check", {})
            cli = todo_process("check")
            await conn.call("todo_write", {"ops": [{"op": "done"}]})  # every task
            passed = await conn.call("todo_check", {})
        assert open_.is_error
        assert cli.code == 1
        assert text_of(open_) == cli.out
        assert text_of(open_).startswith("Open tasks (2):\n  - A [in_progress] (Todos)\n")
        assert envelope_of(open_)["error"]["code"] == "OPEN_TASKS"
        assert not passed.is_error
        assert text_of(passed).startswith("Nothing open.")

    run(body)


def test_agents_on_mcp_claim_work_and_finish_their_own_tasks(home: Path) -> None:
    """Two agents' servers on one plan (one named by --agent, one by each call's
    agent argument) claim distinct tasks, finish their own, and pass their own
    stop gates; the list records the owners, as `todo claim` does on the shell."""

    async def body() -> None:
        plan = {"ops": [{"op": "init", "list": [{"phase": "Work", "items": ["A", "B", "C"]}]}]}
        async with connect("--agent", "w1") as one, connect() as two:
            await two.call("todo_write", {**plan, "agent": "lead"})  # starts nothing
            first = await one.call("todo_claim", {})
            second = await two.call("todo_claim", {"agent": "w2"})
            gate_busy = await one.call("todo_check", {})
            await one.call("todo_write", {"ops": [{"op": "done", "task": "A"}]})
            gate_free = await one.call("todo_check", {})
            gate_w2 = await two.call("todo_check", {"agent": "w2"})
            taken = await two.call("todo_claim", {"agent": "w3", "task": "B"})
            third = await one.call("todo_claim", {})
            nothing = await one.call("todo_claim", {"agent": "w3"})
            nameless = await two.call("todo_claim", {})
            bad = await two.call("todo_claim", {"agent": "../w"})
            typo = await two.call("todo_read", {"agent": "w2"})
        assert not first.is_error
        assert not second.is_error
        assert envelope_of(first)["data"]["task"]["content"] == "A"
        assert envelope_of(first)["data"]["task"]["owner"] == "w1"
        assert envelope_of(second)["data"]["task"]["content"] == "B"
        assert envelope_of(second)["data"]["task"]["owner"] == "w2"
        assert gate_busy.is_error
        assert not gate_free.is_error
        assert gate_w2.is_error  # w2 still holds B
        assert taken.is_error
        assert "w2" in text_of(taken)  # the holder is named
        assert envelope_of(third)["data"]["task"]["content"] == "C"
        assert nothing.is_error
        assert nameless.is_error
        assert "needs an agent name" in text_of(nameless)
        assert bad.is_error
        assert "invalid agent name '../w' (agent)" in text_of(bad)
        assert typo.is_error
        assert 'unknown argument "agent"' in text_of(typo)
        text = session_file(home).read_text()
        assert "- [x] A <!-- owner: w1 -->" in text
        assert "- [/] B <!-- owner: w2 -->" in text
        assert "- [/] C <!-- owner: w1 -->" in text

    run(body)


def test_the_session_argument_and_global_options_pick_the_list(home: Path, tmp_path: Path) -> None:
    async def body() -> None:
        project = tmp_path / "TODO.md"
        async with connect("--session", "work") as conn:
            await conn.call("todo_write", {"todos": [{"content": "In work"}]})
            await conn.call("todo_write", {"todos": [{"content": "In other"}], "session": "other"})
            bad = await conn.call("todo_read", {"session": "../escape"})
        assert session_file(home, "work").read_text() == "# Todos\n- [ ] In work\n"
        assert session_file(home, "other").read_text() == "# Todos\n- [ ] In other\n"
        assert bad.is_error
        assert "invalid session name '../escape'" in text_of(bad)

        async with connect(env={"TODOCLI_SESSION": "envsession"}) as conn:
            await conn.call("todo_write", {"todos": [{"content": "From env"}]})
        assert session_file(home, "envsession").read_text() == "# Todos\n- [ ] From env\n"

        async with connect("--file", str(project)) as conn:
            await conn.call("todo_write", {"todos": [{"content": "In the project"}]})
            elsewhere = await conn.call("todo_read", {"session": "work"})
            resources = (await conn.session.list_resources()).resources
        assert project.read_text() == "# Todos\n- [ ] In the project\n"
        assert "In work" in text_of(elsewhere)  # a named session wins over --file
        assert resources[0].uri == project.as_uri()
        assert resources[0].mime_type == "text/markdown"

    run(body)


# -- resources ------------------------------------------------------------------------------


def test_sessions_are_listed_and_read_as_markdown(home: Path) -> None:
    async def body() -> None:
        assert todo_process("-s", "alpha", "add", "One").code == 0
        assert todo_process("-s", "beta", "add", "Two").code == 0
        async with connect() as conn:
            listed = (await conn.session.list_resources()).resources
            templates = (await conn.session.list_resource_templates()).resource_templates
            alpha = await conn.session.read_resource("todo://sessions/alpha")
            fresh = await conn.session.read_resource("todo://sessions/not-yet")
            with pytest.raises(MCPError, match="unknown resource"):
                await conn.session.read_resource("todo://elsewhere/x")
            with pytest.raises(MCPError, match="invalid session name"):
                await conn.session.read_resource("todo://sessions/..")
        # The server's own list first (even before it exists), then every session.
        assert [r.uri for r in listed] == [
            "todo://sessions/default",
            "todo://sessions/alpha",
            "todo://sessions/beta",
        ]
        assert templates[0].uri_template == "todo://sessions/{session}"
        content = alpha.contents[0]
        assert isinstance(content, types.TextResourceContents)
        assert content.text == session_file(home, "alpha").read_text() == "# Todos\n- [/] One\n"
        assert content.mime_type == "text/markdown"
        fresh_content = fresh.contents[0]
        assert isinstance(fresh_content, types.TextResourceContents)
        assert fresh_content.text == ""

    run(body)


def test_a_subscription_hears_of_another_process_and_of_an_editor(
    home: Path, tmp_path: Path
) -> None:
    async def body() -> None:
        errlog = tmp_path / "server.err"
        async with connect(errlog=errlog) as conn:
            # A session that does not exist yet can be watched.
            await conn.session.subscribe_resource("todo://sessions/later")
            await conn.session.subscribe_resource("todo://sessions/quiet")
            added = await anyio.run_process(
                [sys.executable, "-m", "todocli", "-s", "later", "add", "From a shell"],
                env=server_env(),
                check=False,
            )
            assert added.returncode == 0
            assert await conn.next_update() == "todo://sessions/later"

            # A person's editor writes the file directly (no lock, no todo).
            save(session_file(home, "later"), "- [x] From a shell\n- [ ] Typed by hand\n")
            assert await conn.next_update() == "todo://sessions/later"
            read = await conn.session.read_resource("todo://sessions/later")
            content = read.contents[0]
            assert isinstance(content, types.TextResourceContents)
            assert "Typed by hand" in content.text

            # The server's own writes are changes too.
            await conn.call("todo_write", {"ops": [{"op": "done"}], "session": "later"})
            assert await conn.next_update() == "todo://sessions/later"

            # Unsubscribed: silence (a change to the other watched list still arrives).
            await conn.session.unsubscribe_resource("todo://sessions/later")
            save(session_file(home, "later"), "- [ ] Again\n")
            save(session_file(home, "quiet"), "- [ ] Now\n")
            assert await conn.next_update() == "todo://sessions/quiet"
            with anyio.move_on_after(1):
                extra = await conn.updates.receive()
                pytest.fail(f"no update expected after unsubscribing, got {extra}")
        assert "Traceback" not in errlog.read_text()

    run(body)


def test_a_2026_client_listens_on_a_subscription_stream(home: Path) -> None:
    """The 2026-07-28 protocol has no resources/subscribe: its subscriptions/listen
    stream gets the same updates."""
    from mcp import Client

    async def body() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "todocli", "mcp"], env=server_env()
        )
        async with Client(stdio_client(params)) as client:  # stdio, era negotiated
            assert client.protocol_version == "2026-07-28"
            result = await client.call_tool("todo_write", CLAUDE_TODOS)
            assert isinstance(result, types.CallToolResult)
            assert not result.is_error
            async with client.listen(resource_subscriptions=["todo://sessions/default"]) as sub:
                added = await anyio.run_process(
                    [sys.executable, "-m", "todocli", "add", "Another"],
                    env=server_env(),
                    check=False,
                )
                assert added.returncode == 0
                events = []
                with anyio.fail_after(NOTICE_SECONDS):
                    async for event in sub:
                        events.append(event)
                        break
            assert [getattr(e, "uri", None) for e in events] == ["todo://sessions/default"]

    run(body)


# -- the README's registrations -------------------------------------------------------------


def test_the_readme_registers_the_same_command_with_every_agent(home: Path) -> None:
    import re
    import tomllib

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## MCP\n") : readme.index("\n## Commands\n")]
    commands: list[list[str]] = []
    for fence, block in re.findall(r"```(\w+)\n(.*?)```", section, re.S):
        block = "\n".join(line.removeprefix("  ") for line in block.splitlines())
        if fence == "json":
            config = json.loads(block)
            servers = config.get("mcpServers") or config["servers"]  # VS Code: "servers"
            entry = servers["todo"]
            assert entry.get("type", "stdio") == "stdio"
            commands.append([entry["command"], *entry["args"]])
        elif fence == "toml":
            entry = tomllib.loads(block)["mcp_servers"]["todo"]
            commands.append([entry["command"], *entry["args"]])
        elif "claude mcp add" in block:
            commands.append(block.split(" -- ", 1)[1].split())
    assert len(commands) == 5  # Claude Code, Codex, Gemini CLI, Cursor, VS Code
    assert all(command == ["todo", "mcp"] for command in commands), commands

    async def body() -> None:
        # As an agent starts it: the installed `todo` script, not `python -m todocli`.
        todo = Path(sys.executable).parent / "todo"
        params = StdioServerParameters(command=str(todo), args=["mcp"], env=server_env())
        with open(os.devnull, "w", encoding="utf-8") as err:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = (await session.list_tools()).tools
        assert {t.name for t in tools} == {"todo_write", "todo_read", "todo_check", "todo_claim"}

    run(body)


def test_text_that_is_not_utf8_is_answered_not_dropped(home: Path) -> None:
    """A list holding bytes that are not UTF-8 is read with escapes: a reply that
    cannot be encoded would never be sent at all. A call the SDK cannot read does
    not stop the server."""
    import queue
    import subprocess
    import threading

    listing = session_file(home)
    listing.parent.mkdir(parents=True)
    listing.write_bytes(b"# Todos\n- [ ] caf\xe9 \xff\n")
    process = start_todo(
        "mcp",
        env=server_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    out = process.stdout
    assert out is not None
    lines: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        for line in out:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()

    def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write((json.dumps(message) + "\n").encode())  # ensure_ascii: \ud800
        process.stdin.flush()

    def reply(n: int) -> dict[str, Any]:
        while True:
            message = json.loads(lines.get(timeout=30))
            if message.get("id") == n:
                return dict(message)

    def tool(n: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        params = {"name": name, "arguments": arguments}
        send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params})
        return dict(reply(n)["result"])

    try:
        send(RAW_INITIALIZE)
        reply(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        # The SDK's JSON reader refuses a lone surrogate escape and drops the message
        # unanswered, as it drops a line that is not JSON (README, MCP): the server
        # goes on. (Our own check refuses it too, for a transport that lets it in.)
        send(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {
                    "name": "todo_write",
                    "arguments": {"todos": [{"content": "x \ud800", "status": "pending"}]},
                },
            }
        )
        read = tool(3, "todo_read", {})
        assert read["isError"] is False
        assert "caf\\xe9 \\xff" in read["content"][0]["text"]
        assert listing.read_bytes() == b"# Todos\n- [ ] caf\xe9 \xff\n"
    finally:
        process.kill()
        process.wait()
