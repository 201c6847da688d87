"""Which checks this user approved, as direnv approves an ``.envrc``.

A check is a command, and a list can arrive from elsewhere (a git pull, a hand
edit, another home): a check runs only when this home approved that exact text
for that list, run in that folder. A check written through this home's own ``todo``
is approved as it is written; any other is approved with ``todo allow``. The store
is one file under the home's state directory: a line per approval, the SHA-256 of
the list's real path, the real path of the folder its checks run in (``where``:
``checks.work_dir``) and the command. The folder is part of it because a check
names files there: a session's list approved in one clone, or a ``--file`` link to
a list, must not run the same words against another folder's scripts.

Only two acts approve: ``todo add --check CMD`` (this person's own command gave
that text) and ``todo allow TASK --digest D`` (the person names the digest of the
text they were shown). No other write approves anything: not a payload, a
snapshot, a hook's envelope, MCP, a pull or a hand edit. A check holding a control
or format character (``unsafe``) is never approved and never runs.
"""

from __future__ import annotations

import hashlib
import os

from todocli.escapes import first_unsafe

FILE_NAME = "approved-checks"


def _store(home: str) -> str:
    return os.path.join(home, "state", FILE_NAME)


def _key(list_file: str, where: str, command: str) -> str:
    text = f"{os.path.realpath(list_file)}\0{os.path.realpath(where)}\0{command}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _approved(home: str) -> set[str]:
    try:
        with open(_store(home), encoding="ascii", errors="replace") as handle:
            return {line.strip() for line in handle if line.strip()}
    except OSError:
        return set()


DIGEST_DIGITS = 32  # the digest of a check's text ``todo allow`` shows and takes


def digest(command: str) -> str:
    """The short digest of a check's exact text: what ``todo allow`` shows beside
    it, and what ``todo allow TASK --digest D`` must name to approve that text."""
    return hashlib.sha256(command.encode("utf-8", "surrogateescape")).hexdigest()[:DIGEST_DIGITS]


def unsafe(command: str) -> str | None:
    """The first character of a check that makes it one never run nor approved: a
    control character (tab and newline too), a format character (Unicode Cf: bidi
    overrides, zero-width ones), a line separator, a byte that is not UTF-8."""
    return first_unsafe(command)


def is_approved(home: str, list_file: str, where: str, command: str) -> bool:
    """Whether ``command`` may run for this list in the folder ``where``."""
    if unsafe(command) is not None:
        return False
    return _key(list_file, where, command) in _approved(home)


def approve(home: str, list_file: str, where: str, commands: list[str]) -> None:
    """Approve these commands for this list, run in ``where`` (appended; each line
    is whole). A command ``unsafe`` finds a character in is left out."""
    known = _approved(home)
    keys = (_key(list_file, where, c) for c in commands if unsafe(c) is None)
    new = [k for k in dict.fromkeys(keys) if k not in known]
    if not new:
        return
    path = _store(home)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="ascii") as handle:
        handle.write("".join(f"{k}\n" for k in new))
