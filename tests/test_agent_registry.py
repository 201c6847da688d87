"""The agent tools' registry: one module per tool, found by the registry, imported
on demand; the engine imports in no circle and names no tool.

A tool's module holds everything about it (``todocli/agents/<tool>.py``); the
tests here pin that shape, not any one tool's behaviour (``test_agents``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

import todocli.agents as agents
from tests.support_cli import Todo
from tests.test_layers import PACKAGE, imports_of, modules
from todocli.agents.descriptors import TABLES, register

# -- one module per tool ---------------------------------------------------------------------

PROBE_TOOL = """
from todocli.agents.common import S, checklist, obj
from todocli.agents.checklist import CHECKLIST, lines
from todocli.document.model import Status

NAME = "probe"
CALLS = ("probe_write",)
KEYS = ("probe_list",)


def score(value, tool):
    return 1.0 if "probe_list" in value else 0.0


def detect(value, tool):
    if "probe_list" not in value:
        return None
    return lines(value["probe_list"], "probe_list", CHECKLIST, "probe")


def reply(todo):
    marks = {s: s.marker for s in Status.ALL}
    return {"probe_list": checklist(todo, marks)}


def schema():
    return obj({"probe_list": S}, ["probe_list"])
"""


@pytest.fixture
def probe_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new agent tool, in a module of its own outside the package, registered."""
    folder = tmp_path / "probe_tools"  # a package of its own, outside todocli
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "probe_agent_tool.py").write_text(PROBE_TOOL, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for table in (*TABLES, "TOOL_NAMES"):  # each put back after the test
        monkeypatch.setattr(agents, table, getattr(agents, table))
    for name in ("probe_tools", "probe_tools.probe_agent_tool"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    register("probe_tools.probe_agent_tool")
    return "probe"


def test_a_tool_in_a_module_of_its_own_is_read_answered_and_described(
    todo: Todo, probe_tool: str
) -> None:
    sent = {"probe_list": "- [ ] one\n- [x] two"}
    run = todo("apply", "--json", stdin=json.dumps(sent))
    assert run.code == 0, run.err
    data = json.loads(run.out)["data"]
    # detection: its payload became the list
    assert [(t["content"], t["status"]) for t in data["todos"]] == [
        ("one", "pending"),
        ("two", "completed"),
    ]
    # reply: the answer is in its own shape
    assert data["reply_tool"] == "probe"
    assert data["reply"] == sent
    shown = todo("show", "--as", "probe")
    assert json.loads(shown.out) == sent
    # schema: `todo schema` gives its own
    schema = json.loads(todo("schema", "probe").out)
    assert schema["title"] == "probe"
    assert schema["required"] == ["probe_list"]
    # a hook naming its tool is a todo tool's call, answered in its shape
    hook = {"tool_name": "probe_write", "tool_input": {"probe_list": "- [x] one\n- [ ] two"}}
    run = todo("apply", "--json", stdin=json.dumps(hook))
    assert run.code == 0, run.err
    data = json.loads(run.out)["data"]
    assert data["reply_tool"] == "probe"
    assert [t["status"] for t in data["todos"]] == ["completed", "pending"]


@pytest.mark.parametrize("tool", list(agents.TOOLS))
def test_every_listed_tool_has_its_module_with_reply_and_schema(tool: str) -> None:
    found = import_module(f"todocli.agents.{agents.TOOLS[tool][0]}")
    assert callable(found.reply), f"{tool}: no reply in its module"
    assert callable(found.schema), f"{tool}: no schema in its module"


@pytest.mark.parametrize("reader", agents.READERS)
def test_every_reader_the_registry_asks_is_in_its_tools_module(reader: str) -> None:
    found = import_module(f"todocli.agents.{reader}")
    assert callable(getattr(found, "detect", None))
    assert callable(getattr(found, "score", None))


# -- start-up: a payload loads only the module of the tool it is --------------------------------

PROBE = (
    "import sys\n"
    "sys.argv = ['todo', *sys.argv[1:]]\n"
    "from todocli.__main__ import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)))\n"
)
SHARED = {"todocli.agents", "todocli.agents.common", "todocli.agents.request"}
SHARED |= {"todocli.agents.echo", "todocli.agents.parsed"}  # parsed: every reader's result


def tool_modules_loaded(args: list[str], payload: object, home: Path) -> set[str]:
    env = {**os.environ, "TODOCLI_HOME": str(home), "TODOCLI_CONFIG": str(home / "c.toml")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    names = done.stderr.decode().rsplit("MODULES ", 1)[1].split()
    return {n for n in names if n.startswith("todocli.agents")} - SHARED


@pytest.mark.parametrize(
    ("payload", "loaded"),
    [
        ({"todos": [{"content": "a", "status": "pending"}]}, {"claude_todowrite"}),
        ({"plan": [{"step": "a", "status": "pending"}]}, {"codex"}),
        # todocli's own ops ask for no tool's reply: no tool's module
        ({"ops": [{"op": "init", "list": [{"phase": "P", "items": ["a"]}]}]}, set()),
        ({"task_progress": "- [ ] a"}, {"cline", "checklist"}),
    ],
    ids=["TodoWrite", "Codex plan", "ops", "Cline"],
)
def test_a_payload_loads_only_its_own_tools_module(
    payload: object, loaded: set[str], tmp_path: Path
) -> None:
    got = tool_modules_loaded(["apply", "--json"], payload, tmp_path)
    assert got == {f"todocli.agents.{name}" for name in loaded}


# -- the engine: no circle, no tool ------------------------------------------------------------


def import_graph(prefixes: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module under ``prefixes`` → the modules under them it imports (anywhere
    in the file, inside functions too), leaving out the imports under ``if
    TYPE_CHECKING:``: they never run, so a room of the engine may name the type of
    the ``Engine`` that imports it (the rule of tests/test_layers.py)."""
    found = {name: path for name, path in modules() if name.startswith(prefixes)}
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph[name] = {
            t for t in imports_of(path, package, types=False) if t in found and t != name
        }
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of the graph, if it has any (depth-first, with a stack)."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        todo = [iter(sorted(graph[start]))]
        state[start] = 1
        while todo:
            step = next(todo[-1], None)
            if step is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(step) == 1:
                return [*path[path.index(step) :], step]
            elif step not in state:
                state[step] = 1
                path.append(step)
                todo.append(iter(sorted(graph[step])))
    return None


def test_the_engine_and_the_agents_import_in_no_circle() -> None:
    circle = cycle_in(import_graph(("todocli.engine", "todocli.agents")))
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_circle_check_finds_a_circle() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) is None


# Tools and their calls, as products and hooks name them.
TOOL_WORDS = {
    "Claude", "TodoWrite", "TaskCreate", "TaskUpdate", "Codex", "Gemini", "Qwen", "Kimi",
    "Cursor", "Copilot", "VS Code", "Amp", "OpenCode", "Kilo", "Roo", "Cline", "OpenHands",
    "Goose", "Crush", "Zed", "Augment", "Droid", "oh-my-pi", "Factory",
}  # fmt: skip
TOOL_WORDS |= {
    name for _, hooks in agents.TOOLS.values() for name in hooks if name not in ("todos",)
}


def test_the_engine_names_no_agent_tool() -> None:
    import re

    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(TOOL_WORDS))) + r")\b")
    named = []
    for path in sorted((PACKAGE / "engine").glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found = pattern.search(line)
            if found:
                named.append(f"{path.name}:{n}: {found.group(0)}")
    assert not named, "the engine names agent tools:\n" + "\n".join(named)


# -- values: a request is made once ------------------------------------------------------------


def test_a_request_is_made_once_and_never_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    from todocli.agents.envelope import envelope
    from todocli.agents.request import request
    from todocli.engine.dialects import Request, from_markdown

    def set_once(self: Request, name: str, value: object) -> None:
        if hasattr(self, name):
            raise AssertionError(f"Request.{name} changed after it was made")
        object.__setattr__(self, name, value)

    monkeypatch.setattr(Request, "__setattr__", set_once)
    created = {
        "tool_name": "TaskCreate",
        "tool_input": {"subject": "a", "description": "d"},
        "tool_response": {"task": {"id": "7", "subject": "a"}},
        "session_id": "s1",
    }
    made = envelope(created)
    assert made.hook is not None
    assert made.hook.session == "s1"
    assert made.ops[0].todos is not None
    assert made.ops[0].todos[0].meta is not None
    assert made.ops[0].todos[0].meta.id == "7"
    other = envelope({"tool_name": "Bash", "tool_input": {"command": "ls"}})
    assert other.ignored
    roo = request({"todos": "[ ] a\nnot an item"})
    assert roo.dialect == "roo"
    assert roo.warnings
    assert from_markdown("# Todos\n- [ ] a\n").ops


# -- the registry: generated from the modules' descriptors --------------------------------------


def test_the_generated_registry_is_current() -> None:
    """The tables in todocli/agents/__init__.py are what the modules' descriptors
    make now (python tools/generate.py writes them)."""
    from todocli.agents.descriptors import package_modules, tables

    made = tables(package_modules())
    assert set(made) == set(TABLES)
    for table, value in made.items():
        assert getattr(agents, table) == value, f"{table} is stale: run tools/generate.py"


def test_every_agent_module_describes_itself_whole() -> None:
    from todocli.agents.descriptors import package_modules, problems

    found = package_modules()
    assert len(found) == 22  # 21 tools answered as themselves, and Gemini's tracker
    assert [line for one in found for line in problems(one)] == []


# A tool whose payload is a todos array, as one module: its items carry an
# "estimate" (no other tool's do), which it reads and todocli does not keep.
TASKLET_TOOL = """
from todocli.agents.common import S, array, marks, obj, tasks
from todocli.agents.parsed import Parsed
from todocli.agents.request import snapshot_items

NAME = "tasklet"
RANK = 99
CALLS = ("tasklet_write",)
ITEM_KEYS = ("estimate",)


def score(value, tool):
    return 0.95 if "estimate" in marks(value)[0] else 0.0


def detect(value, tool):
    todos = [{k: v for k, v in t.items() if k != "estimate"} for t in value["todos"]]
    return Parsed("tasklet", snapshot_items(todos, "todos"))


def reply(todo):
    return {"todos": [{"content": t.content, "estimate": "?"} for t in tasks(todo)]}


def schema():
    item = obj({"content": S, "estimate": S}, ["content"])
    return obj({"todos": array(item)}, ["todos"])
"""
TASKLET_PROBE = (
    "import sys\n"
    "from todocli.agents.descriptors import add\n"
    "add({tables})\n"
    "sys.argv = ['todo', *sys.argv[1:]]\n"
    "from todocli.__main__ import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)))\n"
)


def test_a_todos_array_tool_is_one_module_and_a_todowrite_loads_only_claudes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool's module, its tables made here (as tools/generate.py makes the
    package's) and added to the registry in a fresh process."""
    from todocli.agents.descriptors import tables

    folder = tmp_path / "lib" / "tasklet_tools"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "tasklet.py").write_text(TASKLET_TOOL, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    for name in ("tasklet_tools", "tasklet_tools.tasklet"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    probe = TASKLET_PROBE.format(tables=repr(tables([import_module("tasklet_tools.tasklet")])))
    env = {**os.environ, "TODOCLI_HOME": str(tmp_path), "TODOCLI_CONFIG": str(tmp_path / "c")}
    env["PYTHONPATH"] = str(tmp_path / "lib")

    def run(payload: object) -> tuple[dict[str, Any], set[str]]:
        done = subprocess.run(
            [sys.executable, "-c", probe, "apply", "--json"],
            input=json.dumps(payload).encode(),
            capture_output=True,
            env=env,
            check=False,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        names = done.stderr.decode().rsplit("MODULES ", 1)[1].split()
        return json.loads(done.stdout)["data"], set(names)

    # its payload: detected by its score, answered in its shape
    mine = {"todos": [{"content": "a", "status": "pending", "estimate": "2h"}]}
    data, loaded = run(mine)
    assert data["reply_tool"] == "tasklet"
    assert data["reply"] == {"todos": [{"content": "a", "estimate": "?"}]}
    assert [t["content"] for t in data["todos"]] == ["a"]
    assert "tasklet_tools.tasklet" in loaded
    # a Claude Code TodoWrite: its module is not even imported
    todo_write = {"todos": [{"content": "a", "status": "pending", "activeForm": "Doing a"}]}
    data, loaded = run(todo_write)
    assert data["reply_tool"] == "claude"
    assert "tasklet_tools.tasklet" not in loaded
    tools = {n for n in loaded if n.startswith("todocli.agents")} - SHARED
    assert tools == {"todocli.agents.claude_todowrite", "todocli.agents.descriptors"}


def test_the_generator_lists_a_new_tool_from_its_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regenerated with the new module among the package's, the registry names it
    as a candidate for items with its key, and lists it to answer as."""
    from todocli.agents.descriptors import package_modules, tables

    folder = tmp_path / "tasklet_tools"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "tasklet.py").write_text(TASKLET_TOOL, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("tasklet_tools", "tasklet_tools.tasklet"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    made = tables([*package_modules(), import_module("tasklet_tools.tasklet")])
    assert made["ITEMS"]["estimate"] == ("tasklet_tools.tasklet",)
    assert made["TOOLS"]["tasklet"] == ("tasklet_tools.tasklet", ("tasklet_write",))
    assert list(made["TOOLS"])[-1] == "tasklet"  # listed by its rank
    assert made["READERS"][-1] == "tasklet_tools.tasklet"  # asked last at equal scores


def test_setup_doctor_hooks_and_completions_read_the_descriptors() -> None:
    """todo setup's targets, todo hook's harnesses and the words their help and
    completions name are the registry's, made from the agent modules. (The
    command table, loaded by every call, keeps them as words: importing the
    registry there costs 0.8M instructions, 2% of every call.)"""
    from todocli.app import hooks
    from todocli.app.wiring.setup import TARGETS, target
    from todocli.cli import command_table

    assert list(TARGETS) == [*agents.TARGETS, "git"]
    for name in agents.TARGETS:
        assert target(name).LABEL  # each agent's setup module is there
    commands = {c.name: c for c in command_table.COMMANDS}
    hook_help = commands["hook"].arguments[0].help
    assert hook_help == f"The harness: {', '.join(agents.HOOKS)}."
    assert commands["hook"].arguments[0].complete == tuple(agents.HOOKS)
    assert commands["setup"].arguments[0].complete == (*agents.TARGETS, "git")
    assert commands["setup"].arguments[0].help == f"{', '.join(agents.TARGETS)}; git."
    assert agents.HOOKS["gemini"][0] == "deny"  # its stop gate's word
    assert hooks.NO_QUIRKS == ("block", "")
    assert set(agents.PROGRAMS) == set(agents.TARGETS)
