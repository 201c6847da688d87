"""The registry's tables, made from the agent modules' descriptors: by
``tools/generate.py`` (which writes them into ``todocli/agents/__init__.py``, as
pygments writes its ``_mapping.py``) and by ``register`` (a tool added at run
time: a plugin, or a test's).

A module's descriptor is a few constants and one function:

- ``NAME``: the tool's name (``todo show --as``, ``todo schema``, ``Parsed.dialect``);
  ``REPLY_AS``: the tool it is answered as, where that is another's;
- ``RANK``: its place in the list of tools (one with a ``reply`` is listed);
- ``CALLS``: the hook tool names that name it alone; ``SHARED``: those it shares
  with other tools; ``READS``: of either, the calls that only read;
- ``KEYS``: payload keys that make it a candidate; ``STRINGS``: the same, when the
  key holds a string; ``ITEM_KEYS`` / ``ITEM_STATUSES``: keys of the first item of
  a ``todos`` array, or status words of its items, that make it a candidate;
- ``score(value, tool)``: how surely a candidate's payload is its own (0: not);
  a module with ``detect`` reads it (``PRIORITY`` orders readers that score the
  same), one without is the tool whose shape todocli's own reader read;
- ``DEFAULT``: the tool answered as when no other claims a payload;
- ``SETUP`` (its place among ``todo setup``'s targets, a module of the same name
  in ``todocli.app.wiring.setup``), ``PROGRAM`` (its command, when not its name: ``todo
  doctor`` looks for it), ``HOOK`` (``todo hook NAME``: its stop gate's decision,
  and how the session reaches its shell: the variable naming a file its shell
  runs first, ``reply`` (the SessionStart reply's ``env``), or ""); ``SHELL``: the
  variable its shell gets holding the session id ("" when none), and the one that
  marks a shell it started;
- ``RESULT_IDS``, ``created``, ``ONE_A_CALL``: ids its calls' results give.
"""

from __future__ import annotations

import pkgutil
import sys

from todocli import agents
from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

# The registry's tables, in the order they are written.
TABLES = (
    "TOOLS",
    "DEFAULT",
    "REPLY_AS",
    "READERS",
    "CALL_MODULES",
    "KEYS",
    "STRINGS",
    "ITEMS",
    "STATUSES",
    "SHARED",
    "READS",
    "CREATES",
    "RESULT_IDS",
    "HOOKS",
    "SHELLS",
    "TARGETS",
    "PROGRAMS",
)


def package_modules() -> list[ModuleType]:
    """Every module of ``todocli.agents`` that describes a tool."""
    found = []
    for info in pkgutil.iter_modules(agents.__path__):
        one = agents.module(info.name)
        if isinstance(getattr(one, "NAME", None), str):
            found.append(one)
    return found


def _key(module: ModuleType) -> str:
    return module.__name__.removeprefix("todocli.agents.")


def _index(modules: list[ModuleType], attribute: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for one in modules:
        for word in getattr(one, attribute, ()):
            out[word] = (*out.get(word, ()), _key(one))
    return out


def tables(modules: list[ModuleType]) -> dict[str, Any]:
    """The registry's tables for these modules."""
    listed = sorted(modules, key=lambda m: (getattr(m, "RANK", sys.maxsize), _key(m)))
    tools = {
        m.NAME: (_key(m), tuple(getattr(m, "CALLS", ()))) for m in listed if hasattr(m, "reply")
    }
    for one in listed:
        answer = getattr(one, "REPLY_AS", None)
        if answer in tools:
            module, calls = tools[answer]
            tools[answer] = (module, calls + tuple(getattr(one, "CALLS", ())))
    readers = [m for m in listed if hasattr(m, "detect")]
    readers.sort(key=lambda m: -getattr(m, "PRIORITY", 0))
    targets = sorted((m for m in listed if hasattr(m, "SETUP")), key=lambda m: m.SETUP)
    return {
        "TOOLS": tools,
        "DEFAULT": next((m.NAME for m in listed if getattr(m, "DEFAULT", False)), ""),
        "REPLY_AS": {m.NAME: m.REPLY_AS for m in listed if hasattr(m, "REPLY_AS")},
        "READERS": tuple(_key(m) for m in readers),
        "CALL_MODULES": {call: _key(m) for m in listed for call in getattr(m, "CALLS", ())},
        "KEYS": _index(listed, "KEYS"),
        "STRINGS": _index(listed, "STRINGS"),
        "ITEMS": _index(listed, "ITEM_KEYS"),
        "STATUSES": _index(listed, "ITEM_STATUSES"),
        "SHARED": tuple(sorted({c for m in listed for c in getattr(m, "SHARED", ())})),
        "READS": frozenset(c for m in listed for c in getattr(m, "READS", ())),
        "CREATES": {
            c: _key(m) for m in listed if hasattr(m, "created") for c in getattr(m, "CALLS", ())
        },
        "RESULT_IDS": {m.NAME: m.RESULT_IDS for m in listed if hasattr(m, "RESULT_IDS")},
        "HOOKS": {m.NAME: m.HOOK for m in listed if hasattr(m, "HOOK")},
        "SHELLS": {m.NAME: m.SHELL for m in listed if hasattr(m, "SHELL")},
        "TARGETS": tuple(m.NAME for m in targets),
        "PROGRAMS": {m.NAME: getattr(m, "PROGRAM", m.NAME) for m in targets},
    }


def problems(module: ModuleType) -> list[str]:
    """What a module's descriptor lacks (``tests/test_agent_registry.py`` asks)."""
    name = _key(module)
    out = []
    asked = ("KEYS", "STRINGS", "ITEM_KEYS", "ITEM_STATUSES")
    if any(getattr(module, a, ()) for a in asked) and not callable(getattr(module, "score", None)):
        out.append(f"{name}: a candidate for payloads, with no score")
    if hasattr(module, "detect") and not hasattr(module, "score"):
        out.append(f"{name}: a reader with no score")
    if not hasattr(module, "reply") and not hasattr(module, "REPLY_AS"):
        out.append(f"{name}: neither a reply nor a tool it is answered as")
    return out


def register(name: str) -> None:
    """Add the tool of module ``name`` (a full dotted name) to the registry, its
    readers asked after the others that score the same."""
    add(tables([agents.module(name)]))


def add(new: dict[str, Any]) -> None:
    """Add tables made by ``tables`` to the registry (as the generated ones are
    read: the modules they name are imported only when a payload asks)."""
    for table, value in new.items():
        old = getattr(agents, table)
        if isinstance(old, dict):
            merged = dict(old)
            for key, more in value.items():
                merged[key] = (*old[key], *more) if table in _INDEXES and key in old else more
            value = merged
        elif isinstance(old, tuple):
            value = (*old, *(v for v in value if v not in old))
        elif isinstance(old, frozenset):
            value = old | value
        elif old:
            value = old  # the default stays
        setattr(agents, table, value)
    agents.TOOL_NAMES = tuple(agents.TOOLS)


_INDEXES = {"KEYS", "STRINGS", "ITEMS", "STATUSES"}
