"""Claims shared by the worktrees of one repository.

Each worktree has its own ``TODO.md`` (its branch's), merged back later; what an
agent claimed in one must be seen by ``todo claim`` in the others before then.
So a project plan's claims are also written to one ledger per repository, in
git's common directory (``.git/todo/claims.json``, shared by every worktree), under
a lock of its own taken as the list's is. Found by reading ``.git`` (a folder, or
a linked worktree's ``gitdir:`` file and its ``commondir``): no ``git`` process.
"""

from __future__ import annotations

import json
import os

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError
from todocli.storage.files import atomic_write, make_dir, reason
from todocli.storage.lock import take_lock
from todocli.storage.paths import lock_path

if TYPE_CHECKING:
    from types import TracebackType

    from todocli.storage.lock import ListLock

LEDGER = os.path.join("todo", "claims.json")


def common_dir(top: str) -> str | None:
    """git's common directory for the work tree at ``top``, or None."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not first.startswith("gitdir:"):
        return None
    git_dir = os.path.normpath(os.path.join(top, first[len("gitdir:") :].strip()))
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            common = handle.readline().strip()
    except (OSError, UnicodeDecodeError):
        return git_dir  # a separate git dir that is its own common dir
    return os.path.normpath(os.path.join(git_dir, common))


class SharedClaims:
    """The ledger: task key -> the agent that claimed it (and in which work tree),
    locked for a ``with`` block."""

    def __init__(self, common: str, timeout: float) -> None:
        self.path = os.path.join(common, LEDGER)
        self.timeout = timeout
        self._lock: ListLock | None = None

    def __enter__(self) -> SharedClaims:
        busy = f"another todo process holds the lock of {self.path} (waited {self.timeout:g} s)"
        lock = take_lock(lock_path(self.path), self.timeout, busy)
        self._lock = lock
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._lock is not None:
            self._lock.__exit__(kind, error, trace)
            self._lock = None

    def read(self) -> dict[str, dict[str, str]]:
        """Every claim on record (a damaged ledger reads as none)."""
        try:
            with open(self.path, encoding="utf-8") as handle:
                data = json.load(handle)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            if isinstance(exc, OSError):
                raise StorageError(f"cannot read {self.path}: {reason(exc)}") from None
            return {}
        claims = data.get("claims") if isinstance(data, dict) else None
        if not isinstance(claims, dict):
            return {}
        return {
            key: value
            for key, value in claims.items()
            if isinstance(value, dict) and isinstance(value.get("agent"), str)
        }

    def write(self, claims: dict[str, dict[str, str]]) -> None:
        make_dir(os.path.dirname(self.path))
        text = json.dumps({"version": 1, "claims": claims}, indent=1, sort_keys=True) + "\n"
        atomic_write(self.path, text)
