"""One module per agent tool, and the registry that finds them.

Each tool's module (``todocli/agents/<module>.py``) holds everything about that
tool: how its payload is recognised and read (``detect``), its status words, its
reply (``reply``: the list in its shape) and its input schema (``schema``); a tool
whose calls make ids todo must learn from their result has ``created``. What
several tools share lives in ``common``. This registry names the modules and
imports one only when it is asked (as pip's command table does): a payload in
todocli's own shapes, or Claude Code's TodoWrite, loads none of them.

Adding a tool, or changing one, is its module, its fixtures, its row here and
its row in docs/agent-tools.md.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from todocli.document.model import TodoList

# The tools todo answers as (``todo show --as``, ``todo schema``), in the order
# they are listed: name → (module, the hook tool names that name this tool alone).
TOOLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "claude": ("claude_todowrite", ("TodoWrite", "TodoRead")),
    "claude-tasks": ("claude_tasks", ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")),
    "codex": ("codex", ()),
    "gemini": (
        "gemini",
        (
            "write_todos",
            "tracker_create_task",
            "tracker_update_task",
            "tracker_add_dependency",
            "tracker_get_task",
            "tracker_list_tasks",
            "tracker_visualize",
        ),
    ),
    "qwen": ("qwen", ()),
    "kimi": ("kimi", ("SetTodoList",)),
    "cursor": ("cursor", ()),
    "copilot": ("copilot", ("manage_todo_list",)),
    "amp": ("amp", ()),
    "opencode": ("opencode", ("todowrite", "todoread")),
    "kilo": ("kilo", ()),
    "roo": ("roo", ("update_todo_list",)),
    "cline": ("cline", ()),
    "openhands": ("openhands", ("task_tracker",)),
    "goose": ("goose", ()),
    "crush": ("crush", ("todos",)),
    "zed": ("zed", ()),
    "continue": ("continue_", ("Checklist",)),
    "augment": (
        "augment",
        ("add_tasks", "update_tasks", "view_tasklist", "reorganize_tasklist"),
    ),
    "droid": ("droid", ()),
    "oh-my-pi": ("oh_my_pi", ()),
}
TOOL_NAMES = tuple(TOOLS)
# Hook tool names several tools share: the payload tells which tool sent it.
SHARED = ("update_plan", "todo_write", "todo_read")
# Hook tool names that only read the list.
READS = frozenset(
    {
        "TodoRead",
        "TaskList",
        "TaskGet",
        "todo_read",
        "todoread",
        "view_tasklist",
        "tracker_get_task",
        "tracker_list_tasks",
        "tracker_visualize",
    }
)


class Detector:
    """One reader of payloads: asked, in the registry's order, when the payload
    has one of ``keys`` (or one of ``strings`` holding a string), or when a hook
    names one of ``calls``; ``function`` of ``module`` then reads it or says
    (None) that it is not its tool's."""

    __slots__ = ("calls", "function", "keys", "module", "strings", "tool")

    def __init__(
        self,
        tool: str,
        module: str,
        keys: tuple[str, ...] = (),
        *,
        strings: tuple[str, ...] = (),
        calls: tuple[str, ...] = (),
        function: str = "detect",
    ) -> None:
        self.tool, self.module, self.keys = tool, module, frozenset(keys)
        self.strings, self.calls, self.function = strings, frozenset(calls), function

    def asked(self, keys: set[str], value: dict[str, Any], tool: str | None) -> bool:
        return (
            tool in self.calls
            or not self.keys.isdisjoint(keys)
            or any(isinstance(value.get(k), str) for k in self.strings)
        )


# The order is the order of the checks: the first reader that takes a payload
# reads it. A payload no reader takes is one of todocli's own shapes (``request``).
DETECTORS: list[Detector] = [
    Detector(
        "gemini-tracker",
        "gemini_tracker",
        ("title", "type", "id", "taskId", "dependencyId", "status", "parentId"),
        calls=("tracker_create_task", "tracker_update_task", "tracker_add_dependency"),
    ),
    Detector(
        "claude-tasks",
        "claude_tasks",
        ("subject", "description", "activeForm", "metadata", "taskId"),
        calls=("TaskCreate", "TaskUpdate"),
    ),
    Detector("cline", "cline", ("task_progress",)),
    Detector("copilot", "copilot", ("todoList", "operation")),
    Detector("openhands", "openhands", ("command", "task_list")),
    Detector("zed", "zed", ("steps",)),
    Detector("cursor", "cursor", ("merge",)),
    Detector("continue", "continue_", ("checklist",)),
    Detector("continue", "continue_", ("markdown",), function="detect_markdown"),
    Detector("augment", "augment", ("markdown",), function="detect_tree"),
    Detector("goose", "goose", ("content",)),
    Detector("augment", "augment", ("tasks",), function="detect_tasks"),
    Detector("claude-tasks", "claude_tasks", ("tasks",), function="detect_list"),
    Detector("kilo", "kilo", strings=("todos",)),
    Detector("droid", "droid", strings=("todos",)),
    Detector("roo", "roo", strings=("todos",)),
]
# The tool a reader's payloads are answered as, where it is not the reader's own.
REPLY_AS = {"gemini-tracker": "gemini"}


def module(name: str) -> ModuleType:
    """A tool's module, by its module name in this package or a full dotted name
    (imported on first use). The builtin import, as ``importlib.import_module``
    does it: importing ``importlib`` itself would add 0.4 ms to every call."""
    full = name if "." in name else f"todocli.agents.{name}"
    __import__(full)
    return sys.modules[full]


def register(tool: str, module_name: str, hooks: tuple[str, ...], *detectors: Detector) -> None:
    """Add a tool (its module ``todocli.agents.<module_name>``, or a full dotted
    name) and its readers, asked after the others."""
    TOOLS[tool] = (module_name, hooks)
    DETECTORS.extend(detectors)


def _module_of(tool: str) -> ModuleType:
    return module(TOOLS[tool][0])


def is_todo_tool(name: object) -> bool:
    """Whether a hook's tool name is one of the agents' todo tools."""
    if not isinstance(name, str):
        return False
    return (
        name in SHARED
        or name in READS
        or any(name in hooks for _, hooks in TOOLS.values())
        or any(name in d.calls for d in DETECTORS)
    )


def named_by(name: str | None) -> str | None:
    """The tool a hook's tool name settles (None: several tools share it)."""
    for tool, (_, hooks) in TOOLS.items():
        if name in hooks:
            return tool
    return None


def reply_tool(dialect: str) -> str | None:
    """The tool a reader's payloads are answered as."""
    if dialect in REPLY_AS:
        return REPLY_AS[dialect]
    return dialect if dialect in TOOLS else None


def reply(tool: str, todo: TodoList) -> dict[str, Any]:
    """The list in this tool's shape (``tool`` a key of ``TOOLS``)."""
    answer: dict[str, Any] = _module_of(tool).reply(todo)
    return answer


def tool_schema(tool: str) -> dict[str, Any]:
    """The input schema of an agent's own todo tool, as that tool publishes it."""
    from todocli.engine.schema import DRAFT

    found: dict[str, Any] = _module_of(tool).schema()
    return {"$schema": DRAFT, "title": tool} | found


def created(tool: str, result: object) -> tuple[list[tuple[str, str]], bool] | None:
    """The (name, id) of each task a hook's tool call created, from its result, and
    whether the call creates one task (its id is that task's whatever its name);
    None when the tool's result says no ids."""
    for detector in DETECTORS:
        if tool in detector.calls or tool in TOOLS.get(detector.tool, ("", ()))[1]:
            found = module(detector.module)
            reader = getattr(found, "created", None)
            if reader is not None:
                ids = reader(tool, result)
                if ids is not None:
                    return ids, tool in getattr(found, "ONE_A_CALL", ())
    return None


def result_ids(dialect: str) -> tuple[str, str, str] | None:
    """For a tool whose ids todo cannot make up: who makes them, the call whose
    result says them, and the hook event that carries that result."""
    for detector in DETECTORS:
        if detector.tool == dialect:
            found = getattr(module(detector.module), "RESULT_IDS", None)
            if found is not None:
                ids: tuple[str, str, str] = found
                return ids
    return None
