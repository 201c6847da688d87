"""Which checks this user approved, as direnv approves an ``.envrc``.

A check is a command, and a list can arrive from elsewhere (a git pull, a hand
edit, another home): a check runs only when this home approved that exact text
for that list. A check written through this home's own ``todo`` is approved as it
is written; any other is approved with ``todo allow``. The store is one file under
the home's state directory: a line per approval, the SHA-256 of the list's real
path and the command.
"""

from __future__ import annotations

import hashlib
import os

FILE_NAME = "approved-checks"


def _store(home: str) -> str:
    return os.path.join(home, "state", FILE_NAME)


def _key(list_file: str, command: str) -> str:
    text = f"{os.path.realpath(list_file)}\0{command}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _approved(home: str) -> set[str]:
    try:
        with open(_store(home), encoding="ascii", errors="replace") as handle:
            return {line.strip() for line in handle if line.strip()}
    except OSError:
        return set()


def is_approved(home: str, list_file: str, command: str) -> bool:
    return _key(list_file, command) in _approved(home)


def approve(home: str, list_file: str, commands: list[str]) -> None:
    """Approve these commands for this list (appended; each line is whole)."""
    known = _approved(home)
    new = [k for k in dict.fromkeys(_key(list_file, c) for c in commands) if k not in known]
    if not new:
        return
    path = _store(home)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="ascii") as handle:
        handle.write("".join(f"{k}\n" for k in new))
