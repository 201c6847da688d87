"""``todo setup TOOL``: wire todo into an agent's own configuration.

One module per target (its files and what goes in each), found through
``TARGETS`` as the agents' registry finds theirs: a new target is one module and
one row. Every edit only adds, keeping each byte already there; running it again
changes nothing; ``--mcp`` registers ``todo mcp`` too; ``--dry-run`` prints the
diff and writes nothing; ``--remove``
takes out what it added. What each file held before todo first changed it is
kept under the home (``state/setup.json``), so a removal puts back exactly those
bytes when nothing else changed the file since; otherwise it takes out its own
entries alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from todocli.app.report import Report
from todocli.errors import StorageError, UsageError

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from types import ModuleType

    from todocli.app.setup.edits import Edit

# name → module of todocli.app.setup (or a full dotted name). Each has LABEL (its
# name for people) and edits(base, user) -> list[Edit] (what goes in which file,
# under ``base``: the project, or the user's home); optionally FOLDER (its folder
# in a home: ``todo doctor`` finds the agent by it), mcp(base, user) (the MCP
# server's registration, for ``--mcp``) and NOTE (a line said after writing).
TARGETS: dict[str, str] = {
    "claude": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "cursor": "cursor",
    "copilot": "copilot",
    "qwen": "qwen",
    "opencode": "opencode",
    "cline": "cline",
    "git": "git",
}


def target(name: str) -> ModuleType:
    """A target's module (``UsageError`` naming the others for an unknown one)."""
    if name not in TARGETS:
        raise UsageError(f"todo setup: unknown tool {name!r} (use {', '.join(TARGETS)})")
    module = TARGETS[name]
    full = module if "." in module else f"todocli.app.setup.{module}"
    __import__(full)
    return sys.modules[full]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8"
        raise StorageError(f"cannot read {path}: {reason}; nothing was written") from None


def _write(path: str, text: str | None) -> None:
    try:
        if text is None:
            os.remove(path)
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # Beside a project's files, which a clone decides: a new name no one can
        # guess, created exclusively (a link planted there is never written through).
        temporary = f"{path}.{os.urandom(6).hex()}.todo-setup.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        with open(os.open(temporary, flags, 0o666), "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _digest(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


class Records:
    """What each file held before a target first changed it, and the digest of
    what todo last wrote there: ``state/setup.json`` under the home."""

    def __init__(self, home: str) -> None:
        self.path = os.path.join(home, "state", "setup.json")
        text = _read(self.path)
        try:
            self.data: dict[str, dict[str, dict[str, str | None]]] = (
                json.loads(text) if text else {}
            )
        except ValueError:
            self.data = {}

    def get(self, tool: str, path: str) -> dict[str, str | None] | None:
        return self.data.get(tool, {}).get(path)

    def wrote(self, tool: str, path: str, before: str | None, after: str) -> None:
        entry = self.data.setdefault(tool, {}).setdefault(path, {"before": before})
        entry["after"] = _digest(after)

    def forget(self, tool: str, path: str) -> None:
        self.data.get(tool, {}).pop(path, None)
        if tool in self.data and not self.data[tool]:
            del self.data[tool]

    def others(self, tool: str, path: str) -> list[str]:
        """The other targets that wrote this file (a block they share stays)."""
        return [t for t, files in self.data.items() if t != tool and path in files]

    def save(self) -> None:
        _write(self.path, json.dumps(self.data, indent=1, sort_keys=True) + "\n")


def _diff(path: str, old: str | None, new: str | None) -> str:
    import difflib

    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        (new or "").splitlines(keepends=True),
        "/dev/null" if old is None else path,
        "/dev/null" if new is None else path,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def setup(
    home: str,
    tool: str,
    *,
    user: bool = False,
    dry_run: bool = False,
    remove: bool = False,
    mcp: bool = False,
    project: str | None = None,
    user_home: str | None = None,
) -> Report:
    """Add (or ``remove``) the target's configuration in the project (the current
    directory) or, with ``user``, the user's home; with ``mcp``, ``todo mcp``
    registered as one of its MCP servers too. Every file is read and checked
    first: one its parser refuses stops the whole call, with nothing written."""
    module = target(tool)
    base = (user_home or os.path.expanduser("~")) if user else (project or os.getcwd())
    edits: list[Edit] = module.edits(base, user)
    records = Records(home)
    servers = getattr(module, "mcp", None)
    if mcp and servers is None:
        raise UsageError(
            f"todo setup {tool} --mcp: {module.LABEL} keeps its MCP servers where todo "
            "does not write; register `todo mcp` there (see docs/mcp.md)"
        )
    if servers is not None and (mcp or remove):
        for edit in servers(base, user):
            # Removed only from a file todo wrote for this target: a server the
            # person registered by hand stays.
            if mcp or records.get(tool, edit.path) is not None:
                edit.optional = True
                edits.append(edit)
    by_file: dict[str, list[Edit]] = {}
    for edit in edits:
        by_file.setdefault(edit.path, []).append(edit)
    plans: list[tuple[str, str | None, str | None]] = []
    for path, file_edits in by_file.items():
        old = _read(path)
        new: str | None = old or ""
        if remove:
            new = _removed(tool, path, old, file_edits, records)
        else:
            for edit in file_edits:
                assert new is not None
                new = edit.add(new)
        made = old is None and any(edit.creates for edit in file_edits)
        if new != old and (made or not (old is None and new == "")):
            plans.append((path, old, new))
    lines: list[str] = []
    changed = []
    for path, old, new in plans:
        if dry_run:
            lines.append(_diff(path, old, new).rstrip("\n"))
            continue
        _write(path, new)
        if remove:
            records.forget(tool, path)
        elif new is not None:
            records.wrote(tool, path, old, new)
        changed.append(path)
    if changed:
        records.save()
    label = module.LABEL
    verb = "Removed from" if remove else "Wrote"
    if dry_run:
        head = f"{label}: nothing to change." if not plans else f"{label}: would change:"
        lines.insert(0, head)
    elif changed:
        lines = [f"{label}: {verb} {path}" for path in changed]
        note = getattr(module, "NOTE", "")
        if note and not remove:
            lines.append(f"{label}: {note}")
    else:
        state = "nothing of todo's to remove" if remove else "already set up, nothing changed"
        lines = [f"{label}: {state}."]
    data = {
        "tool": tool,
        "scope": "user" if user else "project",
        "files": [p for p, _, _ in plans],
        "dry_run": dry_run,
        "removed": remove,
    }
    return Report(data, "\n".join(lines) + "\n")


def _removed(
    tool: str, path: str, old: str | None, edits: list[Edit], records: Records
) -> str | None:
    """The file without the target's additions: the bytes it had before, when
    todo's were the last to change it; else the file with todo's entries taken
    out (a block another target wrote too stays)."""
    if old is None:
        return None
    record = records.get(tool, path)
    if (
        record is not None
        and record.get("after") == _digest(old)
        and not records.others(tool, path)
    ):
        return record.get("before")
    new = old
    shared = records.others(tool, path)
    for edit in edits:
        if shared and edit.fmt == "markdown":
            continue
        new = edit.remove(new)
    return new if new.strip() or record is None or record.get("before") else None
