"""Kilo Code's ``todowrite``: OpenCode's, whose ``todos`` may also come as the
array written in a JSON string."""

from __future__ import annotations

from todocli.agents import opencode
from todocli.agents.common import S
from todocli.agents.parsed import Parsed
from todocli.agents.request import only, snapshot_items
from todocli.base import TYPE_CHECKING
from todocli.engine.dialects import loads_json

if TYPE_CHECKING:
    from typing import Any

# What it is: read into the registry by tools/generate.py.
NAME = "kilo"
RANK = 11
PRIORITY = 30
STRINGS = ("todos",)

reply = opencode.reply


def detect(value: dict[str, Any], tool: str | None) -> Parsed | None:
    text = value.get("todos")
    if not isinstance(text, str):
        return None
    only(value, {"todos"}, "todos")
    if not text.lstrip().startswith("["):
        return None
    try:
        parsed = loads_json(text, "todos: the array in the string: ")
    except ValueError:
        return None
    if isinstance(parsed, list):
        return Parsed("kilo", snapshot_items(parsed, "todos"))
    return None


def schema() -> dict[str, Any]:
    base = opencode.schema()
    return base | {"properties": {"todos": {"anyOf": [base["properties"]["todos"], S]}}}


def score(value: dict[str, Any], tool: str | None) -> float:
    """A JSON array written in the string."""
    text = value.get("todos")
    return 1.0 if isinstance(text, str) and text.lstrip().startswith("[") else 0.0
