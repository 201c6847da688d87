"""Storage: the lock, atomic writes, revisions and the state kept beside a list.

Everything but the list itself lives under the home (``Locations.state_dir``), so a
``--file TODO.md`` in a person's project gets no lock or history files next to it.
A list is written to a temporary file in its own directory, fsynced, and moved over
the old one with ``os.replace``: a killed process leaves the old or the new file,
never a torn one. A list that is a symlink stays one: the write goes to its target.

Files are read and written as UTF-8 with ``surrogateescape``, so even bytes that are
not UTF-8 come back out exactly as they went in. Paths are strings (see ``paths``).
"""

from __future__ import annotations

import os
import time

from todocli.errors import BusyError, StorageError

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any

    from todocli.locking import ListLock
    from todocli.paths import Locations

KEEP_REVISIONS = 100  # the spec asks for at least 50
ENCODING_ERRORS = "surrogateescape"
TEMP_SUFFIX = ".todo-tmp"
STALE_TEMP_SECONDS = 30
_ENOSPC = 28


def _reason(exc: OSError) -> str:
    if exc.errno == _ENOSPC:
        return "no space left on the device"
    return exc.strerror or str(exc)


def read_text(path: str) -> str:
    """The file's text; an empty string when it does not exist yet."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return ""
    except IsADirectoryError:
        raise StorageError(f"cannot read {path}: it is a directory") from None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {_reason(exc)}") from None
    return data.decode("utf-8", ENCODING_ERRORS)


def make_dir(path: str) -> None:
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except FileExistsError:
        pass  # a file is in the way: reported just below
    except OSError as exc:
        raise StorageError(f"cannot create directory {path}: {_reason(exc)}") from None
    if not os.path.isdir(path):
        raise StorageError(f"cannot create directory {path}: a file is in the way")


def atomic_write(path: str, text: str, durable: bool = True) -> None:
    """Replace the file's content in one step (temp file, fsync, os.replace).

    ``durable=False`` skips the fsyncs: still atomic (a reader or a crash sees the
    old or the new file), but a power cut may lose it. For revision copies and
    bookkeeping, never for the list itself.
    """
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise StorageError(f"cannot write {path}: it is a directory")
    folder, name = os.path.split(target)
    make_dir(folder)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o600
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {_reason(exc)}") from None
    _remove_stale_temps(folder, name)
    tmp = ""
    try:
        fd, tmp = _make_temp(folder, name)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8", ENCODING_ERRORS))
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = ""
        if durable:
            _fsync_dir(folder)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {_reason(exc)}") from None
    finally:
        if tmp:
            try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
                os.unlink(tmp)
            except OSError:
                pass


def _make_temp(folder: str, name: str) -> tuple[int, str]:
    """A new file beside the target, created exclusively (``tempfile`` costs more to
    import than this does to write)."""
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}{TEMP_SUFFIX}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {name}")


def _remove_stale_temps(folder: str, name: str) -> None:
    """Remove temp files a killed writer of this file left behind.

    Writers hold the list's lock, so another writer's temp file can only be a
    dead one's; the age check spares a writer that reached the same file through
    another home (and so another lock).
    """
    prefix = f".{name}."
    try:
        names = os.listdir(folder)
    except OSError:
        return
    cutoff = time.time() - STALE_TEMP_SECONDS
    for entry in names:
        if entry.startswith(prefix) and entry.endswith(TEMP_SUFFIX):
            stale = os.path.join(folder, entry)
            try:
                if os.stat(stale).st_mtime < cutoff:
                    os.unlink(stale)
            except OSError:
                pass


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the replace still happened
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Store:
    """One list's file, lock, revisions and state."""

    def __init__(self, loc: Locations, lock_timeout: float = 10) -> None:
        self.loc = loc
        self.lock_timeout = lock_timeout
        self.state_file = os.path.join(loc.state_dir, "state.json")
        self.revs_dir = os.path.join(loc.state_dir, "revs")
        self.remind_file = os.path.join(loc.state_dir, "remind")
        self.failed_file = os.path.join(loc.state_dir, "failed")

    # -- the list ------------------------------------------------------------------------

    def read(self) -> str:
        return read_text(self.loc.list_file)

    # -- state ---------------------------------------------------------------------------
    # What an everyday write needs is cheap to read: the revision is the newest
    # revision file, and the reminder's counter and the failed-write notice are small
    # text files tied to a revision (a new write makes them stale without touching
    # them). state.json holds the rest (completion log, auto-clear times, undo), read
    # only by the commands that need it.

    def state(self) -> dict[str, Any]:
        raw = read_text(self.state_file)
        if not raw:
            return {}
        import json

        try:
            data = json.loads(raw)
        except ValueError:
            return {}  # a damaged state file is rebuilt; it holds nothing irreplaceable
        return data if isinstance(data, dict) else {}

    def save_state(self, state: dict[str, Any]) -> None:
        import json

        make_dir(self.loc.state_dir)
        state["list"] = self.loc.list_file
        atomic_write(self.state_file, json.dumps(state, indent=1, sort_keys=True) + "\n", False)

    def rev(self) -> int:
        """The current revision: the newest one written (0 before the first write)."""
        revs = self.revisions()
        return revs[-1] if revs else 0

    def _words(self, path: str) -> list[str]:
        return read_text(path).split("\n")

    def remind_counter(self) -> tuple[int, int, str, str]:
        """The reminder's bookkeeping: the revision it counts for, rounds counted,
        the hand edit last told of (a hash) and the failure last told of (a token)."""
        parts = self._words(self.remind_file)[0].split()
        if len(parts) == 4 and parts[0].isdigit() and parts[1].isdigit():
            return int(parts[0]), int(parts[1]), parts[2], parts[3]
        return -1, 0, "-", "-"

    def save_remind_counter(self, rev: int, rounds: int, hand_seen: str, told: str) -> None:
        make_dir(self.loc.state_dir)
        atomic_write(self.remind_file, f"{rev} {rounds} {hand_seen or '-'} {told or '-'}\n", False)

    def restart_rounds(self) -> None:
        """A successful call that wrote nothing still counts as the agent updating its
        list: the next round starts the count again."""
        counted_at, _, hand_seen, told = self.remind_counter()
        if counted_at >= 0:
            self.save_remind_counter(counted_at, 0, hand_seen, told)

    def failed(self) -> tuple[int, str, str] | None:
        """The last call's failure, as (revision it failed at, token, message)."""
        lines = self._words(self.failed_file)
        if len(lines) >= 3 and lines[0].isdigit():
            return int(lines[0]), lines[1], lines[2]
        return None

    def save_failed(self, rev: int, message: str) -> None:
        make_dir(self.loc.state_dir)
        token = os.urandom(4).hex()  # each failure is told of once, even at one revision
        atomic_write(self.failed_file, f"{rev}\n{token}\n{message.replace(chr(10), ' ')}\n", False)

    def clear_failed(self) -> None:
        if os.path.exists(self.failed_file):
            try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
                os.unlink(self.failed_file)
            except OSError:
                pass

    # -- revisions -----------------------------------------------------------------------

    def revision_path(self, rev: int) -> str:
        return os.path.join(self.revs_dir, f"{rev:08d}.md")

    def revision(self, rev: int) -> str | None:
        """The text written as revision ``rev``, if it is still kept."""
        try:
            with open(self.revision_path(rev), "rb") as handle:
                return handle.read().decode("utf-8", ENCODING_ERRORS)
        except OSError:
            return None

    def revisions(self) -> list[int]:
        try:
            names = os.listdir(self.revs_dir)
        except OSError:
            return []
        return sorted(int(n[:-3]) for n in names if n.endswith(".md") and n[:-3].isdigit())

    def commit(self, text: str) -> int:
        """Write the list and record it as the next revision; return its number.

        Call with the lock held. The list is written first: if anything after it
        fails, the list is still whole and the next write notices the hand edit.
        """
        revs = self.revisions()
        rev = (revs[-1] if revs else 0) + 1
        atomic_write(self.loc.list_file, text)
        make_dir(self.revs_dir)
        atomic_write(self.revision_path(rev), text, durable=False)  # a copy: history
        for old in revs[: max(0, len(revs) + 1 - KEEP_REVISIONS)]:
            try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
                os.unlink(self.revision_path(old))
            except OSError:
                pass
        return rev

    # -- the lock ------------------------------------------------------------------------

    def locked(self) -> Held:
        """Hold the list's lock for a ``with`` block."""
        return Held(self)


class Held:
    """The list's lock, held for a ``with`` block; BUSY (exit 5) after the timeout."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock: ListLock | None = None

    def __enter__(self) -> Held:
        from todocli.locking import ListLock, LockTimeout

        loc = self.store.loc
        make_dir(loc.state_dir)
        lock = ListLock(loc.lock_file, self.store.lock_timeout)
        try:
            lock.__enter__()
        except LockTimeout:
            raise BusyError(
                f"another todo process holds the lock {loc.lock_file} "
                f"(waited {self.store.lock_timeout:g} s; raise lock_timeout to wait longer)"
            ) from None
        except OSError as exc:
            raise StorageError(f"cannot lock {loc.lock_file}: {_reason(exc)}") from None
        self.lock = lock
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.lock is not None:
            self.lock.__exit__(kind, error, trace)
            self.lock = None
