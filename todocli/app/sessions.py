"""``todo sessions`` lists every session; ``todo gc`` removes old ones (their
completion logs stay)."""

from __future__ import annotations

import os
import re
import shutil
import time
from datetime import datetime
from pathlib import Path

from todocli.app.commands import Context
from todocli.app.report import Report
from todocli.document.markdown import parse
from todocli.errors import StorageError, UsageError
from todocli.storage.files import kind_of, read_text
from todocli.storage.paths import is_session_name

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


def sessions(ctx: Context) -> Report:
    files = _session_files(ctx)
    if not files:
        return Report({"sessions": []}, f"No sessions in {Path(ctx.loc.home) / 'sessions'}.\n")
    width = max(len(f.stem) for f in files)
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
        lines.append(
            f"{current} {path.stem:<{width}}  {done}/{stats['total']} done  updated {when}  {recap}"
        )
        rows.append(
            {
                "name": path.stem,
                "current": is_current,
                "done": done,
                "total": stats["total"],
                "updated": when,
                "recap": recap,
            }
        )
    return Report({"sessions": rows}, "\n".join(lines) + "\n")


def gc(ctx: Context, older_than: str = "30d") -> Report:
    """Remove sessions not written for longer than the duration; logs stay."""
    age = parse_duration(older_than)
    cutoff = time.time() - age
    removed = []
    for path in _session_files(ctx):
        if _odd(path) is not None:
            continue  # not a session list: not ours to remove
        try:
            if path.stat().st_mtime >= cutoff:
                continue
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StorageError(f"cannot remove {path}: {exc.strerror}") from None
        shutil.rmtree(Path(ctx.loc.home) / "state" / "sessions" / path.stem, ignore_errors=True)
        removed.append(path.stem)
    data = {"removed": removed, "older_than": older_than}
    if not removed:
        return Report(data, f"No session is older than {older_than}.\n")
    plural = "s" if len(removed) > 1 else ""
    return Report(data, f"Removed {len(removed)} session{plural}: {', '.join(removed)}\n")
