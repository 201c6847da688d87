"""``todo log``: the completion logs, where a block is appended each time a list is
finished (see ``storage.memory``)."""

from __future__ import annotations

import os

from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.errors import UsageError
from todocli.escapes import one_line
from todocli.storage.files import read_text


def log(ctx: Context, name: str | None = None, *, list_all: bool = False) -> Report:
    """This list's completion log, a named one, or (``list_all``) the list of logs."""
    directory = ctx.loc.memory_dir
    if list_all:
        try:
            names = sorted(n for n in os.listdir(directory) if n.endswith(".md"))
        except OSError:
            names = []
        paths = [os.path.join(directory, n) for n in names]
        if not paths:
            return Report({"logs": []}, f"No completion logs in {directory}.\n")
        # A name may hold a newline: one line each, escaped.
        return Report({"logs": paths}, "".join(f"{one_line(p)}\n" for p in paths))
    if name is None:
        logged = ctx.store.state().get("log")  # state.json: read for this command only
        if not isinstance(logged, str):
            text = "No completions logged for this list yet.\n"
            return Report({"log": None, "content": None}, text)
        name = logged
    if os.sep in name or name in ("", ".", ".."):
        raise UsageError(f"log: {name!r} is not a log file name (see: todo log --list)")
    path = os.path.join(directory, name)
    text = read_text(path, ctx.settings.max_file_bytes, "max_file_bytes")
    if not text:
        return Report({"log": path, "content": None}, f"No completion log {path}.\n")
    return Report({"log": path, "content": text}, text if text.endswith("\n") else text + "\n")
