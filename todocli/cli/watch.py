"""``todo watch``: a live view for a person watching an agent work. It re-renders
when the list changes, until Ctrl-C: a rich live view on a terminal, else the plain
view again after each change, or with --json one envelope a line (JSON Lines)."""

from __future__ import annotations

import gc
import os
import time

from todocli.app.commands import Context, show
from todocli.app.output import write
from todocli.app.render import plain, to_json
from todocli.escapes import one_line
from todocli.storage.store import CHANGE_POLL_SECONDS as POLL_SECONDS


def _signature(ctx: Context) -> tuple[int, int, int] | None:
    try:
        st = os.stat(ctx.loc.list_file)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def empty_text(ctx: Context) -> str:
    """What an empty list says: where the list finished last was logged, if one was."""
    logged = ctx.store.state().get("log")
    if isinstance(logged, str):
        where = one_line(os.path.join(ctx.loc.memory_dir, logged))
        return f"The list was completed and logged to {where} (todo log); nothing open.\n"
    return "Todo list is empty.\n"


def watch(
    ctx: Context,
    *,
    rich: bool,
    color: bool,
    json: bool,
    show_all: bool = False,
    once: bool = False,
) -> int:
    """Re-render on every change. Returns the exit status (0 on Ctrl-C). ``rich``:
    the live view for a terminal (else plain text, or JSON Lines with ``json``);
    ``color``: whether it may use colour (the caller reads the output options)."""
    gc.enable()  # this one runs on: collect the cycles each re-render leaves
    try:
        if rich:
            return _live(ctx, color=color, show_all=show_all, once=once)
        return _plain(ctx, json=json, once=once)
    except KeyboardInterrupt:
        return 0


def _live(ctx: Context, *, color: bool, show_all: bool, once: bool) -> int:
    from rich.console import Console, Group
    from rich.live import Live
    from rich.text import Text

    from todocli.cli.render_rich import tree

    console = Console(no_color=not color, highlight=False, markup=False, emoji=False)

    def view() -> Group:
        outcome = show(ctx, with_rev=True, seen=False)  # a person's live view
        where = Text(f"{one_line(outcome.file)}  (rev {outcome.rev}; Ctrl-C to stop)", style="dim")
        if outcome.todo.tasks():
            return Group(where, tree(outcome.todo, show_all))
        return Group(where, Text(empty_text(ctx).rstrip("\n"), style="dim"))

    seen = _signature(ctx)
    with Live(view(), console=console, auto_refresh=False, transient=False) as live:
        live.refresh()
        while not once:
            time.sleep(POLL_SECONDS)
            now = _signature(ctx)
            if now != seen:
                seen = now
                live.update(view(), refresh=True)
    return 0


def _plain(ctx: Context, *, json: bool, once: bool) -> int:
    def view() -> str:
        shown = show(ctx, with_rev=json, seen=False)  # a person's live view
        if json:
            return to_json(shown)
        return plain(shown) if shown.todo.tasks() else empty_text(ctx)

    seen = _signature(ctx)
    write(view())
    while not once:
        time.sleep(POLL_SECONDS)
        now = _signature(ctx)
        if now != seen:
            seen = now
            write(view() if json else "\n" + view())
    return 0
