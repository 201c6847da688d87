"""``todo sessions`` lists every session; ``todo gc`` removes old ones (their
completion logs stay)."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime
from pathlib import Path

from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.base import is_session_name
from todocli.document.markdown import parse
from todocli.errors import StorageError, UsageError
from todocli.escapes import one_line
from todocli.storage.files import kind_of, read_text
from todocli.storage.paths import resolve
from todocli.storage.store import Store

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_duration(text: str) -> float:
    """``90s``, ``15m``, ``12h``, ``30d``, ``2w`` → seconds."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([smhdw])\s*", text)
    if not m:
        raise UsageError(f"invalid duration {text!r}: use a number and s, m, h, d or w (e.g. 30d)")
    return float(m.group(1)) * _UNITS[m.group(2)]


def _session_files(ctx: Context) -> list[Path]:
    folder = Path(ctx.loc.home) / "sessions"
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise StorageError(f"cannot list {folder}: {exc.strerror}") from None
    return [folder / n for n in names if n.endswith(".md") and is_session_name(n[:-3])]


def _odd(path: Path) -> str | None:
    """What is wrong with an entry that is not a session list (None: nothing)."""
    try:
        what = kind_of(path.stat().st_mode)
    except OSError as exc:
        return exc.strerror or str(exc)
    return f"{what}, not a regular file" if what else None


def _session_store(ctx: Context, name: str) -> Store:
    loc = resolve(home=ctx.loc.home, session=name, memory_dir=ctx.loc.memory_dir, env={})
    return Store(
        loc, ctx.settings.lock_timeout, ctx.settings.max_file_bytes, ctx.settings.save_pause
    )


def _finish_removals(ctx: Context) -> None:
    """Sessions whose removal was killed after their list went: what is left of
    them (revisions, state) goes too."""
    folder = Path(ctx.loc.home) / "state" / "sessions"
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    for name in names:
        if is_session_name(name) and (folder / name / "journal").exists():
            store = _session_store(ctx, name)
            with store.locked():
                store.recover()


def sessions(ctx: Context) -> Report:
    files = _session_files(ctx)
    if not files:
        return Report({"sessions": []}, f"No sessions in {Path(ctx.loc.home) / 'sessions'}.\n")
    width = max(len(f.stem) for f in files)
    from todocli.app.hooks import records

    hooked: dict[str, tuple[str, str]] = {}  # each list an agent's hooks write
    for one in records(ctx.loc.home).values():
        if isinstance(one.get("list"), str):
            hooked[one["list"]] = (str(one.get("agent", "")), str(one.get("project", "")))
    lines = []
    rows: list[dict[str, object]] = []
    for path in files:
        is_current = ctx.loc.is_session and path.stem == ctx.loc.session
        current = "*" if is_current else " "
        try:
            odd = _odd(path)
            if odd is not None:
                raise StorageError(odd)
            text = read_text(str(path), ctx.settings.max_file_bytes, "max_file_bytes")
            when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        except (StorageError, OSError) as exc:
            # One odd entry must not hide the others: it is listed, and skipped.
            problem = exc.message if isinstance(exc, StorageError) else exc.strerror
            lines.append(f"{current} {path.stem:<{width}}  skipped: {problem}")
            rows.append({"name": path.stem, "current": is_current, "skipped": problem})
            continue
        todo = parse(text).model()
        stats = todo.stats()
        done = stats["completed"] + stats["abandoned"]
        recap = todo.recap()
        agent, project = hooked.get(path.stem) or (None, None)
        by = f"  {agent} in {one_line(project)}" if agent and project else ""
        lines.append(
            f"{current} {path.stem:<{width}}  {done}/{stats['total']} done  updated {when}"
            f"{by}  {recap}"
        )
        rows.append(
            {
                "name": path.stem,
                "current": is_current,
                "done": done,
                "total": stats["total"],
                "updated": when,
                "recap": recap,
                "agent": agent,
                "project": project,
            }
        )
    return Report({"sessions": rows}, "\n".join(lines) + "\n")


def gc(ctx: Context, older_than: str = "30d") -> Report:
    """Remove sessions not written for longer than the duration; logs stay.

    Each under its list's lock, looked at again there: a write that landed since
    the first look (the list is newer, or another file) keeps its session. A
    removal killed half-way is finished first.
    """
    age = parse_duration(older_than)
    cutoff = time.time() - age
    _finish_removals(ctx)
    removed = []
    for path in _session_files(ctx):
        if _odd(path) is not None:
            continue  # not a session list: not ours to remove
        try:
            seen = path.stat()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StorageError(f"cannot remove {path}: {exc.strerror}") from None
        if seen.st_mtime >= cutoff:
            continue
        store = _session_store(ctx, path.stem)
        with store.locked():
            store.recover()  # a killed writer's half-done write first (a person's save back)
            try:
                now = os.stat(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StorageError(f"cannot remove {path}: {exc.strerror}") from None
            if (now.st_dev, now.st_ino) != (seen.st_dev, seen.st_ino) or now.st_mtime >= cutoff:
                continue  # written since the first look
            store.delete()
        removed.append(path.stem)
    data = {"removed": removed, "older_than": older_than}
    if not removed:
        return Report(data, f"No session is older than {older_than}.\n")
    plural = "s" if len(removed) > 1 else ""
    return Report(data, f"Removed {len(removed)} session{plural}: {', '.join(removed)}\n")
