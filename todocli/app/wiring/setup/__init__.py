"""``todo setup TOOL``: wire todo into an agent's own configuration.

One module per target (its files and what goes in each), found through
``TARGETS`` as the agents' registry finds theirs: a new target is one module and
one row. Every edit only adds, keeping each byte already there; running it again
changes nothing; ``--mcp`` registers ``todo mcp`` too; ``--dry-run`` prints the
diff and writes nothing; ``--remove`` takes out the bytes it added, found in the
file as it is now (never a copy of earlier bytes): what the person changed stays,
and is named for them. Which files todo wrote, and which it made, is kept under
the home (``state/setup.json``). Every write goes through ``files``: a project
setup never reads or writes where a link leads outside the project, and no
temporary name is predictable.
"""

from __future__ import annotations

import json
import os
import sys

from todocli import agents
from todocli.app.report import Report
from todocli.app.wiring.setup import files
from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError, UsageError
from todocli.storage import agent_sessions

if TYPE_CHECKING:
    from types import ModuleType

    from todocli.app.wiring.setup.edits import Edit

# name → module of todocli.app.wiring.setup (or a full dotted name): the agents whose
# descriptor names them a setup target (``SETUP``), then git. Each has LABEL (its
# name for people) and edits(base, user) -> list[Edit] (what goes in which file,
# under ``base``: the project, or the user's home); optionally FOLDER (its folder
# in a home: ``todo doctor`` finds the agent by it), mcp(base, user) (the MCP
# server's registration, for ``--mcp``), NOTE (a line said after writing) and
# root(base) (the folder a project setup stays in, when not ``base`` itself).
TARGETS: dict[str, str] = {name: name for name in agents.TARGETS} | {"git": "git"}


def target(name: str) -> ModuleType:
    """A target's module (``UsageError`` naming the others for an unknown one)."""
    if name not in TARGETS:
        raise UsageError(f"todo setup: unknown tool {name!r} (use {', '.join(TARGETS)})")
    module = TARGETS[name]
    full = module if "." in module else f"todocli.app.wiring.setup.{module}"
    __import__(full)
    return sys.modules[full]


class Records:
    """The files each target wrote, and whether todo made them (``made``: a
    removal that leaves one empty deletes it): ``state/setup.json`` under the
    home. No file's content is kept. (Records of earlier releases kept the bytes
    from before, ``before``: ``None`` there meant todo made the file.)"""

    def __init__(self, home: str) -> None:
        self.path = os.path.join(home, "state", "setup.json")
        text = files.read(self.path)
        try:
            data = json.loads(text) if text else {}
        except (ValueError, RecursionError):
            data = {}
        self.data: dict[str, dict[str, dict[str, object]]] = {}
        if not isinstance(data, dict):
            return
        for tool, written in data.items():
            if not isinstance(written, dict):
                continue
            for path, record in written.items():
                if isinstance(record, dict):  # earlier releases' copies of the bytes go
                    self.data.setdefault(tool, {})[path] = {"made": _made(record)}
                    for flag in ("unended", "folder"):
                        if record.get(flag):
                            self.data[tool][path][flag] = True

    def get(self, tool: str, path: str) -> dict[str, object] | None:
        return self.data.get(tool, {}).get(path)

    def made(self, tool: str, path: str) -> bool:
        return bool((self.get(tool, path) or {}).get("made"))

    def unended(self, tool: str, path: str) -> bool:
        """Whether todo's block began by ending the file's last line (it had no
        line ending): that line ending is todo's, and a removal takes it too."""
        return bool((self.get(tool, path) or {}).get("unended"))

    def wrote(self, tool: str, path: str, made: bool, unended: bool) -> None:
        files_of = self.data.setdefault(tool, {})
        if path in files_of:
            made, unended = self.made(tool, path), self.unended(tool, path) or unended
        files_of[path] = {"made": made, "unended": unended} if unended else {"made": made}

    def made_folder(self, tool: str, folder: str) -> None:
        """A folder this target's setup made (a removal that leaves it empty
        deletes it; one that was there before is never recorded)."""
        self.data.setdefault(tool, {})[folder] = {"made": True, "folder": True}

    def folders(self, tool: str) -> list[str]:
        """The folders this target's setup made, the deepest first."""
        made = [p for p, r in self.data.get(tool, {}).items() if r.get("folder")]
        return sorted(made, key=lambda p: (-p.count(os.sep), p))

    def forget(self, tool: str, path: str) -> None:
        record = self.data.get(tool, {}).pop(path, None)
        if record is not None and record.get("made"):
            for other in self.others(tool, path):  # the last to leave deletes it
                self.data[other][path]["made"] = True
        if tool in self.data and not self.data[tool]:
            del self.data[tool]

    def others(self, tool: str, path: str) -> list[str]:
        """The other targets that wrote this file (a block they share stays)."""
        return [t for t, files in self.data.items() if t != tool and path in files]

    def save(self) -> None:
        text = json.dumps(self.data, indent=1, sort_keys=True) + "\n"
        files.write(files.locate(self.path, None), text, self.path)


def _made(record: dict[str, object]) -> bool:
    """Whether todo made the file (earlier releases: no bytes from before)."""
    if "made" in record:
        return bool(record["made"])
    return "before" in record and record["before"] is None


def _diff(path: str, old: str | None, new: str | None) -> str:
    import difflib

    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        (new or "").splitlines(keepends=True),
        "/dev/null" if old is None else path,
        "/dev/null" if new is None else path,
    )
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    if not shown and old != new:  # no line to show: a new empty file, or one emptied
        what = "a new, empty file" if old is None else "removed" if new is None else "emptied"
        return f"--- {'/dev/null' if old is None else path}\n+++ {path} ({what})\n"
    return shown


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
    plan: str | None = None,
) -> Report:
    """Add (or ``remove``) the target's configuration in the project (the current
    directory) or, with ``user``, the user's home; with ``mcp``, ``todo mcp``
    registered as one of its MCP servers too. Every file is read and checked
    first: one its parser refuses stops the whole call, with nothing written."""
    module = target(tool)
    base = (user_home or os.path.expanduser("~")) if user else (project or os.getcwd())
    records = Records(home)
    named = _named_plan(home, module, tool, base, user, plan)
    edits = _edits(module, tool, base, user, mcp=mcp, remove=remove, records=records, plan=named)
    by_file: dict[str, list[Edit]] = {}
    for edit in edits:
        by_file.setdefault(edit.path, []).append(edit)
    # A project's files stay inside it (the module's ``root``: git's work tree).
    confine = None if user else getattr(module, "root", lambda folder: folder)(base)
    plans = _plans(tool, by_file, confine, remove, records)
    left = [line for edit in edits for line in edit.left]
    if dry_run:
        lines = [_diff(path, old, new).rstrip("\n") for path, _, old, new in plans]
        head = (
            f"{module.LABEL}: nothing to change." if not plans else f"{module.LABEL}: would change:"
        )
        lines.insert(0, head)
    else:
        changed = _write(tool, plans, by_file, remove, records, confine or base)
        lines = _told(module, changed, remove, left)
        if named is not None:
            _record_plan(home, confine or base, None if remove else named)
    lines += [f"{module.LABEL}: {line}" for line in left]
    data = {
        "tool": tool,
        "scope": "user" if user else "project",
        "files": [p for p, _, _, _ in plans],
        "dry_run": dry_run,
        "removed": remove,
    }
    return Report(data, "\n".join(lines) + "\n")


def _edits(
    module: ModuleType,
    tool: str,
    base: str,
    user: bool,
    *,
    mcp: bool,
    remove: bool,
    records: Records,
    plan: str | None = None,
) -> list[Edit]:
    """What the target adds to which file, its MCP server's registration too when
    asked (or, for a removal, where todo wrote it)."""
    edits: list[Edit] = module.edits(base, user, plan) if plan else module.edits(base, user)
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
    return edits


def _named_plan(
    home: str, module: ModuleType, tool: str, base: str, user: bool, given: str | None
) -> str | None:
    """``todo setup git --plan PATH``: the plan it names (as a path under the work
    tree's top); without ``--plan``, the one named before in this clone, if any."""
    if tool != "git":
        if given is not None:
            raise UsageError("--plan names a repository's plan: todo setup git --plan PATH")
        return None
    if user:
        return None  # refused by the target itself, with its own message
    top = module.root(base)
    if given is not None:
        return str(module.plan_name(top, given))
    return agent_sessions.named_plan(home, top)


def _record_plan(home: str, top: str, name: str | None) -> None:
    """Keep (or, ``None``, forget) the plan this clone names: ``agent_sessions.named_plan``."""
    record = agent_sessions.plan_record(home, os.path.realpath(top))
    if name is None:
        if os.path.lexists(record):
            files.delete(record)
        return
    os.makedirs(os.path.dirname(record), exist_ok=True)
    files.write(files.locate(record, None), name + "\n", record)


Plan = tuple[str, str, str | None, str | None]  # path, where its bytes are, old, new


def _plans(
    tool: str,
    by_file: dict[str, list[Edit]],
    confine: str | None,
    remove: bool,
    records: Records,
) -> list[Plan]:
    """Each file that changes: its path, where its bytes are, its text before and
    after (None: no file)."""
    plans: list[Plan] = []
    for path, file_edits in by_file.items():
        # Where the bytes go, refused before anything is read from outside the project.
        real = files.locate(path, confine if all(e.confined for e in file_edits) else None)
        old = files.read(real)
        new: str | None = old or ""
        if remove:
            new = _removed(tool, path, old, file_edits, records)
        else:
            for edit in file_edits:
                assert new is not None
                new = edit.add(new)
        made = old is None and any(edit.creates for edit in file_edits)
        if new != old and (made or not (old is None and new == "")):
            plans.append((path, real, old, new))
    return plans


def _write(
    tool: str,
    plans: list[Plan],
    by_file: dict[str, list[Edit]],
    remove: bool,
    records: Records,
    top: str,
) -> list[str]:
    """Write the planned files (every one refused before the first is written),
    and record them; the paths written, named as the person sees them."""
    for path, real, _, new in plans:
        if new is not None:
            files.writable(real, path)
    changed = []
    for path, real, old, new in plans:
        if new is None:
            files.delete(real)
        else:
            for folder in _missing_folders(real):
                records.made_folder(tool, folder)
            files.write(real, new, path)
        if remove and not any(edit.left for edit in by_file[path]):
            records.forget(tool, path)
        elif not remove and new is not None:
            unended = any(getattr(edit, "unended", False) for edit in by_file[path])
            records.wrote(tool, path, made=old is None, unended=unended)
        plain = os.path.normpath(os.path.join(os.path.realpath(top), os.path.relpath(path, top)))
        changed.append(path if real == plain else f"{path} (through its link, {real})")
    # A file that already held all this target asks for (another agent's setup
    # wrote the AGENTS.md it reads) is this target's too: ``doctor`` says so, and
    # a removal for the other agent leaves the block this one reads.
    # A removal that leaves a shared block for the other agent forgets it too.
    planned = {path for path, _, _, _ in plans}
    kept = [p for p in by_file if p not in planned and (records.get(tool, p) is None) != remove]
    kept = [p for p in kept if remove or os.path.isfile(p)]
    for path in kept:
        if not remove:
            records.wrote(tool, path, made=False, unended=False)
        elif not any(edit.left for edit in by_file[path]):
            records.forget(tool, path)
    folders = _remove_folders(tool, records) if remove else False
    if changed or kept or folders:
        records.save()
    return changed


def _missing_folders(path: str) -> list[str]:
    """The folders above ``path`` that are not there yet (writing it makes them)."""
    missing = []
    folder = os.path.dirname(path)
    while folder and not os.path.lexists(folder):
        missing.append(folder)
        folder = os.path.dirname(folder)
    return missing


def _remove_folders(tool: str, records: Records) -> bool:
    """Delete each folder this target's setup made that a removal left empty; one
    holding anything else stays (and is no longer todo's once none of the
    target's files is left). Whether it had any to look at."""
    made = records.folders(tool)
    for folder in made:
        if os.path.isdir(folder) and not os.path.islink(folder) and not os.listdir(folder):
            try:
                os.rmdir(folder)
            except OSError as exc:
                raise StorageError(f"cannot remove {folder}: {exc.strerror}") from None
        files_left = [p for p, r in records.data.get(tool, {}).items() if not r.get("folder")]
        if not os.path.isdir(folder) or not files_left:
            records.forget(tool, folder)
    return bool(made)


def _told(module: ModuleType, changed: list[str], remove: bool, left: list[str]) -> list[str]:
    """What a run that wrote (or had nothing to write) says."""
    label = module.LABEL
    if changed:
        verb = "Removed from" if remove else "Wrote"
        lines = [f"{label}: {verb} {path}" for path in changed]
        note = getattr(module, "NOTE", "")
        if note and not remove:
            lines.append(f"{label}: {note}")
        return lines
    if left:
        return []
    state = "nothing of todo's to remove" if remove else "already set up, nothing changed"
    return [f"{label}: {state}."]


def _removed(
    tool: str, path: str, old: str | None, edits: list[Edit], records: Records
) -> str | None:
    """The file as it is now without the target's additions, each taken out as
    text (a block another target wrote too stays); a file todo made, left empty,
    is deleted (``None``)."""
    if old is None:
        return None
    new = old
    shared = records.others(tool, path)
    for edit in edits:
        if shared and edit.fmt == "markdown":
            continue
        edit.unended = records.unended(tool, path)
        new = edit.remove(new)
    if records.made(tool, path) and not shared and new.strip() in ("", "{}"):
        return None
    return new
