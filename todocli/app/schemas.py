"""``todo schema``: the JSON Schema of ``todo apply``'s input, or of an agent's own
todo tool, ready to register as a tool's parameters."""

from __future__ import annotations

import json

from todocli.app.report import Report
from todocli.errors import UsageError


def schema(kind: str | None = None) -> Report:
    """``ops``, ``snapshot``, an agent's tool name, or None (either of the first two)."""
    from todocli.agents import TOOLS, tool_schema
    from todocli.engine.schema import schema as build

    if kind in TOOLS:
        found = tool_schema(kind)
    elif kind in (None, "ops", "snapshot"):
        found = build(kind)
    else:
        names = ", ".join(TOOLS)
        raise UsageError(f"schema: unknown schema {kind!r} (use ops, snapshot or {names})")
    return Report({"schema": found}, json.dumps(found, indent=2) + "\n")
