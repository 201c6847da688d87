"""Storage: the lock, atomic writes, revisions and the state kept beside a list.

Everything but the list itself lives under the home (``Locations.state_dir``), so a
``--file TODO.md`` in a person's project gets no lock or history files next to it.
A list is written to a temporary file in its own directory, fsynced, and moved over
the old one with ``os.replace``: a killed process leaves the old or the new file,
never a torn one. A list that is a symlink stays one: the write goes to its target.

Files are read and written as UTF-8 with ``surrogateescape``, so even bytes that are
not UTF-8 come back out exactly as they went in.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from todocli.errors import BusyError, StorageError
from todocli.paths import Locations

KEEP_REVISIONS = 100  # the spec asks for at least 50
TEMP_SUFFIX = ".todo-tmp"
STALE_TEMP_SECONDS = 30
ENCODING_ERRORS = "surrogateescape"


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    return exc.strerror or str(exc)


def read_text(path: Path) -> str:
    """The file's text; an empty string when it does not exist yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except IsADirectoryError:
        raise StorageError(f"cannot read {path}: it is a directory") from None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {_reason(exc)}") from None
    return data.decode("utf-8", ENCODING_ERRORS)


def make_dir(path: Path) -> None:
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create directory {path}: {_reason(exc)}") from None
    if not path.is_dir():
        raise StorageError(f"cannot create directory {path}: a file is in the way")


def atomic_write(path: Path, text: str) -> None:
    """Replace the file's content in one step (temp file, fsync, os.replace)."""
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise StorageError(f"cannot write {path}: it is a directory")
    make_dir(target.parent)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o600
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {_reason(exc)}") from None
    _remove_stale_temps(target)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8", ENCODING_ERRORS))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = ""
        _fsync_dir(target.parent)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {_reason(exc)}") from None
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _remove_stale_temps(target: Path) -> None:
    """Remove temp files a killed writer of this file left behind.

    Writers hold the list's lock, so another writer's temp file can only be a
    dead one's; the age check spares a writer that reached the same file through
    another home (and so another lock).
    """
    prefix = f".{target.name}."
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    cutoff = time.time() - STALE_TEMP_SECONDS
    for name in names:
        if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            path = target.parent / name
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < cutoff:
                    path.unlink()


def _fsync_dir(path: Path) -> None:
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
        self.state_file = loc.state_dir / "state.json"
        self.revs_dir = loc.state_dir / "revs"

    # -- the list ------------------------------------------------------------------------

    def read(self) -> str:
        return read_text(self.loc.list_file)

    def exists(self) -> bool:
        return self.loc.list_file.exists()

    # -- state ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        try:
            raw = self.state_file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StorageError(f"cannot read {self.state_file}: {_reason(exc)}") from None
        try:
            data = json.loads(raw)
        except ValueError:
            return {}  # a damaged state file is rebuilt; it holds nothing irreplaceable
        return data if isinstance(data, dict) else {}

    def save_state(self, state: dict[str, Any]) -> None:
        make_dir(self.loc.state_dir)
        state["list"] = str(self.loc.list_file)
        atomic_write(self.state_file, json.dumps(state, indent=1, sort_keys=True) + "\n")

    @staticmethod
    def rev(state: dict[str, Any]) -> int:
        value = state.get("rev", 0)
        return value if isinstance(value, int) else 0

    # -- revisions -----------------------------------------------------------------------

    def revision(self, rev: int) -> str | None:
        """The text written as revision ``rev``, if it is still kept."""
        try:
            return (self.revs_dir / f"{rev:08d}.md").read_bytes().decode("utf-8", ENCODING_ERRORS)
        except OSError:
            return None

    def revisions(self) -> list[int]:
        try:
            names = os.listdir(self.revs_dir)
        except OSError:
            return []
        return sorted(int(n[:-3]) for n in names if n.endswith(".md") and n[:-3].isdigit())

    def commit(self, text: str, state: dict[str, Any]) -> int:
        """Write the list and record it as the next revision; return its number.

        Call with the lock held. The list is written first: if anything after it
        fails, the list is still whole and the next write notices the hand edit.
        """
        atomic_write(self.loc.list_file, text)
        rev = self.rev(state) + 1
        make_dir(self.revs_dir)
        atomic_write(self.revs_dir / f"{rev:08d}.md", text)
        for old in self.revisions()[:-KEEP_REVISIONS]:
            with contextlib.suppress(OSError):
                os.unlink(self.revs_dir / f"{old:08d}.md")
        state["rev"] = rev
        self.save_state(state)
        return rev

    # -- the lock ------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the list's lock (a kernel lock: a killed holder releases it)."""
        from filelock import FileLock, Timeout

        make_dir(self.loc.state_dir)
        lock = FileLock(str(self.loc.lock_file), timeout=self.lock_timeout)
        try:
            lock.acquire()
        except Timeout:
            raise BusyError(
                f"another todo process holds the lock {self.loc.lock_file} "
                f"(waited {self.lock_timeout:g} s; raise lock_timeout to wait longer)"
            ) from None
        except OSError as exc:
            raise StorageError(f"cannot lock {self.loc.lock_file}: {_reason(exc)}") from None
        try:
            yield
        finally:
            lock.release()
