"""The list lock excludes, and is excluded by, a filelock.FileLock on the same file."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from todocli.storage.lock import ListLock, LockTimeout

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the flock path is POSIX")


def test_a_filelock_holder_blocks_our_lock(tmp_path: Path) -> None:
    path = str(tmp_path / "lock")
    with FileLock(path), pytest.raises(LockTimeout):
        ListLock(path, timeout=0.2).__enter__()
    with ListLock(path, timeout=0.2):
        pass  # free again once filelock released it


def test_our_lock_blocks_a_filelock_in_another_process(tmp_path: Path) -> None:
    path = str(tmp_path / "lock")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from todocli.storage.lock import ListLock\n"
            f"with ListLock({path!r}, 5):\n"
            "    print('held', flush=True)\n"
            "    sys.stdin.read()\n",  # until the test lets go
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(Timeout):
        FileLock(path, timeout=0.3).acquire()
    holder.stdin.close()
    holder.wait(timeout=60)
    lock = FileLock(path, timeout=1)
    lock.acquire()
    lock.release()


def test_two_of_our_locks_exclude_each_other_and_wait(tmp_path: Path) -> None:
    path = str(tmp_path / "lock")
    with ListLock(path, timeout=1), pytest.raises(LockTimeout):
        ListLock(path, timeout=0.1).__enter__()
    started = time.monotonic()
    with ListLock(path, timeout=1):
        assert time.monotonic() - started < 0.5
