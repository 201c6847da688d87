"""The lock a write takes: one list's, or the worktree ledger's (``worktrees``).

The lock filelock takes, without filelock's import cost on POSIX: filelock 4
imports ``asyncio``-era machinery (``dataclasses``, ``inspect``, ``logging``,
``decimal``...), about 25 ms, more than the whole start-up budget of an agent's
call. Its Unix lock is one ``flock(2)`` on the lock file, opened without
truncation and never unlinked. On POSIX ``ListLock`` takes exactly that lock on
exactly that file, so a ``filelock.FileLock`` on the same path and this lock
exclude each other (``tests/test_locking.py`` proves it both ways); elsewhere it
uses filelock itself. A killed holder's lock is released by the kernel. Only a
write loads this module: a read takes no lock.
"""

from __future__ import annotations

import os
import time

from todocli.base import TYPE_CHECKING
from todocli.errors import BusyError, StorageError
from todocli.storage.files import make_dir, reason
from todocli.storage.paths import check_private_dir

if TYPE_CHECKING:
    from types import TracebackType

    from todocli.storage.store import Store

LOCK_POLL_SECONDS = 0.01


class LockTimeout(Exception):
    """The lock was not free within the timeout."""


def take_lock(lock_file: str, timeout: float, busy: str) -> ListLock:
    """Take the lock at ``lock_file`` (its folder made, and checked to be this
    user's), waiting up to ``timeout``; ``BusyError(busy)`` when it stays taken."""
    folder = os.path.dirname(lock_file)
    make_dir(folder)
    runtime = os.path.dirname(folder)
    # In a private folder (the user's runtime folder) all is safe below it; in a
    # shared one (the temporary folder) ours must be ours alone.
    if not check_private_dir(os.path.dirname(runtime)) and not check_private_dir(runtime):
        raise StorageError(
            f"cannot lock {lock_file}: {runtime} is not a private folder of this user"
        )
    lock = ListLock(lock_file, timeout)
    try:
        lock.__enter__()
    except LockTimeout:
        raise BusyError(busy) from None
    except OSError as exc:
        raise StorageError(f"cannot lock {lock_file}: {reason(exc)}") from None
    return lock


class ListLock:
    """An exclusive lock on ``path`` for a ``with`` block, waiting up to ``timeout``."""

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd = -1
        self._fallback: object = None

    def __enter__(self) -> ListLock:
        try:
            import fcntl
        except ImportError:  # not POSIX: filelock knows the platform's lock
            self._acquire_filelock()
            return self
        deadline = time.monotonic() + max(self.timeout, 0)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        while True:
            fd = os.open(self.path, flags, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
            except BaseException:
                os.close(fd)
                raise
            else:
                if os.fstat(fd).st_nlink:  # not a lock file someone just removed
                    self._fd = fd
                    return self
                os.close(fd)
            if time.monotonic() >= deadline:
                raise LockTimeout(self.path)
            time.sleep(LOCK_POLL_SECONDS)

    def _acquire_filelock(self) -> None:
        from filelock import FileLock, Timeout

        lock = FileLock(self.path, timeout=self.timeout)
        try:
            lock.acquire()
        except Timeout:
            raise LockTimeout(self.path) from None
        self._fallback = lock

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._fallback is not None:
            self._fallback.release()  # type: ignore[attr-defined]
            self._fallback = None
            return
        if self._fd >= 0:
            import fcntl

            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = -1


class Held:
    """A store's list lock, held for a ``with`` block (``Store.locked``); BUSY (exit
    5) after the timeout. Here, not beside the store, as only a write makes one."""

    def __init__(self, store: Store, timeout: float | None = None) -> None:
        self.store = store
        self.timeout = store.lock_timeout if timeout is None else timeout
        self.lock: ListLock | None = None

    def __enter__(self) -> Held:
        lock_file = self.store.loc.lock_file
        busy = (
            f"another todo process holds the lock {lock_file} "
            f"(waited {self.timeout:g} s; raise lock_timeout to wait longer)"
        )
        lock = take_lock(lock_file, self.timeout, busy)
        self.lock = lock
        self.store.holding = True
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.lock is not None:
            self.store.holding = False
            self.lock.__exit__(kind, error, trace)
            self.lock = None
