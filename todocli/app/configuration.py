"""What an invocation runs with: ``todo config`` (every setting with where it came
from, and the locations) and ``todo path`` (the list's file)."""

from __future__ import annotations

from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.escapes import one_line
from todocli.storage.config import INTERNAL


def path(ctx: Context) -> Report:
    file = ctx.loc.list_file
    return Report({"path": file}, one_line(file) + "\n", session=_session(ctx), file=file)


def config(ctx: Context) -> Report:
    settings, sources = ctx.settings, ctx.config.sources
    names = tuple(n for n in settings.__slots__ if n not in INTERNAL)
    locations = {
        "home": ctx.loc.home,
        "session": _session(ctx),
        "list": ctx.loc.list_file,
        "memory_dir": ctx.loc.memory_dir,
        "config": ctx.config.path,
    }
    data = {
        "settings": {
            n: {"value": _plain_value(getattr(settings, n)), "source": sources[n]} for n in names
        },
        "locations": locations,
    }
    width = max(len(n) for n in names)
    lines = ["# settings (value, then where it came from)"]
    for n in names:
        value = _plain_value(getattr(settings, n))
        shown = "(session: on; --file: off)" if value is None else repr(value).lower()
        if isinstance(value, str):
            shown = f'"{value}"'
        lines.append(f"{n:<{width}} = {shown:<28} # {sources[n]}")
    lines.append("")
    lines.append("# locations")
    lines += [
        f"{k:<{width}} = {v if v is not None else '(a --file list)'}" for k, v in locations.items()
    ]
    text = "".join(f"{one_line(line)}\n" for line in lines)  # a path may hold a newline
    return Report(data, text, session=_session(ctx), file=ctx.loc.list_file)


def _session(ctx: Context) -> str | None:
    return ctx.loc.session if ctx.loc.is_session else None


def _plain_value(value: object) -> object:
    return str(value) if isinstance(value, str) else value
