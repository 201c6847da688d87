"""Running a task's check, and the git state its evidence records.

A check is a shell command: run with ``sh -c`` in the project's top directory,
standard input closed, in a process group of its own that is ended whole when
the timeout (the setting ``check_timeout``) passes; of its output only a tail of
``TAIL_BYTES`` is kept, however much it prints. No lock is held while it runs
(the caller's business): a check may itself run ``todo`` on the same list.

Evidence of a run (``Meta.checked``) is one line of words:
``passed 2026-11-25T22:40:01 exit 0 2.1s commit 1a2b3c4d5e6f tree 0a9b8c7d6e5f dirty``
(commit, tree and dirty only in a git work tree; ``tree`` is the whole work tree
but the list file, as ``git write-tree`` names it), then ``digest D``; or
``no check ran 2026-...`` for ``todo done --no-check``.

The digest is what makes a record todo's own: HMAC-SHA256 (its first
``DIGEST_DIGITS`` hex digits) keyed with a secret of this home (``KEY_FILE``
under its state directory, 0600, made on first need), over the list file's real
path, the task's text, the check's text and the record's words before it. A
record typed by hand, copied from another home or another task, or written
before records were signed does not verify here, and proves nothing (``is_stale``).

Evidence holds while the work tree is the tree it names (the list file left out)
and HEAD is its commit, or a later one that changes only the list file or holds
exactly that tree (the work checked, then committed).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import selectors
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from itertools import pairwise

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

TAIL_BYTES = 4096  # the most of a check's output kept (its end)
QUIET = 0.2  # seconds of silence after which todo looks whether the check has exited
ID_DIGITS = 12  # the length commits and trees are recorded with
PASSED = "passed"
SKIPPED = "no check ran"
DIGEST = "digest"  # the word before a record's digest, its last two words
DIGEST_DIGITS = 16  # the length a record's digest is kept with
KEY_FILE = "evidence-key"  # under <home>/state: the secret records are signed with
KEY_BYTES = 32
NOT_OURS = (
    "stale: not recorded by this home "
    "(typed by hand, copied from elsewhere, or recorded before records were signed)"
)
NO_GIT_STATE = "stale: it names no commit and tree, and this is a git work tree"


class Run:
    """One run of a check: its exit code (None: it ran out of time), seconds, the
    tail of its output (standard output and error together)."""

    __slots__ = ("code", "seconds", "tail", "timed_out")

    def __init__(self, code: int | None, seconds: float, tail: str, timed_out: bool) -> None:
        self.code = code
        self.seconds = seconds
        self.tail = tail
        self.timed_out = timed_out

    @property
    def passed(self) -> bool:
        return self.code == 0 and not self.timed_out


def run_check(
    command: str,
    cwd: str,
    timeout: float,
    env: dict[str, str] | None = None,
) -> Run:
    """Run ``command`` and wait for it (at most ``timeout`` seconds, then its whole
    process group is killed). If todo itself is ended meanwhile (SIGTERM, SIGHUP,
    Ctrl-C: a harness's hook timeout), the check's group is ended first."""
    began = time.monotonic()
    # The handlers go in before the check starts: a signal that comes while it is
    # being started ends it as soon as its process group is known.
    guard = _EndWithTodo()
    try:
        proc = subprocess.Popen(
            ["sh", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )
        guard.started(proc.pid)
        return _wait(proc, timeout, began)
    finally:
        guard.restore()


SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")


class _EndWithTodo:
    """Until ``restore``, a signal that ends todo ends the check's process group
    first, then todo as the signal would have. One that comes before the check's
    group is known (``started``) waits for it."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.pending: int | None = None
        self.previous: dict[int, Any] = {}
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread may handle signals
        for name in SIGNALS:
            number = getattr(signal, name)
            self.previous[number] = signal.signal(number, self._ended) or signal.SIG_DFL

    def started(self, pid: int) -> None:
        self.pid = pid
        if self.pending is not None:
            self._end(self.pending)

    def _ended(self, number: int, frame: object) -> None:
        if self.pid is None:
            self.pending = number  # the check is being started: ended once it is
            return
        self._end(number)

    def _end(self, number: int) -> None:
        assert self.pid is not None
        _kill_group(self.pid)
        signal.signal(number, self.previous[number])
        os.kill(os.getpid(), number)  # as it would have been, the group gone

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def _wait(proc: subprocess.Popen[bytes], timeout: float, began: float) -> Run:
    assert proc.stdout is not None
    tail = bytearray()
    timed_out = False

    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        fd = proc.stdout.fileno()
        while True:
            left = timeout - (time.monotonic() - began)
            if left <= 0:
                timed_out = True
                break
            if not selector.select(min(left, QUIET)):
                if proc.poll() is not None:
                    break  # it exited; what it left running holds the pipe: ended below
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break  # every writer closed its end: the check is done
            tail += chunk
            if len(tail) > 2 * TAIL_BYTES:
                del tail[:-TAIL_BYTES]
    if timed_out:
        _kill_group(proc.pid)
    code = proc.wait()
    if not timed_out:
        _kill_group(proc.pid)  # what it left running in the background ends with it
    proc.stdout.close()
    text = bytes(tail[-TAIL_BYTES:]).decode("utf-8", "replace")
    return Run(None if timed_out else code, time.monotonic() - began, text, timed_out)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def work_dir(list_file: str, is_session: bool, cwd: str | None = None) -> str:
    """Where a list's checks run: the top of the git work tree of the list's own
    directory (a ``--file`` list) or of the current one (a session's list), else
    that directory itself."""
    start = os.path.dirname(list_file) if not is_session else (cwd or os.getcwd())
    top = _git(start, "rev-parse", "--show-toplevel")
    return top or start


class GitState:
    """Where the work tree stands: its commit, its tree (the list file left out),
    and whether it differs from the commit."""

    __slots__ = ("commit", "dirty", "tree")

    def __init__(self, commit: str | None, tree: str | None, dirty: bool) -> None:
        self.commit = commit
        self.tree = tree
        self.dirty = dirty


def git_state(top: str, list_file: str) -> GitState | None:
    """The state of the work tree at ``top``; None outside one (or without git)."""
    if _git(top, "rev-parse", "--is-inside-work-tree") != "true":
        return None
    commit = _git(top, "rev-parse", "--verify", "-q", "HEAD")
    leave_out = _leave_out(top, list_file)
    tree = _work_tree(top, leave_out)
    status = _git(top, "status", "--porcelain", "--", ".", *_exclude(leave_out))
    return GitState(commit, tree, bool(status))


def _leave_out(top: str, list_file: str) -> str | None:
    """The list file's path inside the work tree, if it is inside."""
    real_top = os.path.realpath(top)
    real = os.path.realpath(list_file)
    if os.path.commonpath([real_top, real]) != real_top:
        return None
    return os.path.relpath(real, real_top)


def _exclude(path: str | None) -> list[str]:
    return [f":(exclude,literal){path}"] if path else []


def _work_tree(top: str, leave_out: str | None) -> str | None:
    """The id of a tree of every file of the work tree (untracked ones too, ignored
    ones not) but the list file: written through a copy of the index, so the
    real one is left as it is."""
    index = _git(top, "rev-parse", "--path-format=absolute", "--git-path", "index")
    with tempfile.TemporaryDirectory(prefix="todo-check-") as scratch:
        copy = os.path.join(scratch, "index")
        if index and os.path.exists(index):
            # With its time (copy2): git trusts an entry's file times only when they
            # are older than the index's own, and reads the file again otherwise.
            shutil.copy2(index, copy)
        env = dict(os.environ, GIT_INDEX_FILE=copy)
        if _git(top, "add", "-A", "--", ".", *_exclude(leave_out), env=env) is None:
            return None
        if leave_out:
            _git(top, "rm", "-q", "--cached", "--ignore-unmatch", "--", leave_out, env=env)
        return _git(top, "write-tree", env=env)


def changed_since(top: str, commit: str, list_file: str) -> bool:
    """Whether the commits from ``commit`` to HEAD change anything but the list file."""
    return _differs(top, f"{commit}^{{commit}}", "HEAD", list_file)


def committed_other_than(top: str, tree: str, list_file: str) -> bool:
    """Whether HEAD's tree differs from ``tree`` (as ``_work_tree`` wrote it) in
    anything but the list file: a commit of exactly the tree a check passed on
    keeps its evidence."""
    return _differs(top, f"{tree}^{{tree}}", "HEAD", list_file)


def _differs(top: str, old: str, new: str, list_file: str) -> bool:
    leave_out = _leave_out(top, list_file)
    base = _git(top, "rev-parse", "--verify", "-q", old)
    if base is None:
        return True  # an object this repository does not have (or no longer): not the same
    done = subprocess.run(
        ["git", "diff", "--quiet", base, new, "--", ".", *_exclude(leave_out)],
        cwd=top,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return done.returncode != 0


def _git(cwd: str, *args: str, env: dict[str, str] | None = None) -> str | None:
    """``git ARGS``'s output, stripped; None when it fails (or there is no git)."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            check=False,
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace").strip()


def record(run: Run, when: str, state: GitState | None) -> str:
    """The evidence line of a run that passed, not yet signed (see ``sign``)."""
    words = [PASSED, when, "exit", str(run.code), f"{run.seconds:.1f}s"]
    if state is not None:
        if state.commit:
            words += ["commit", state.commit[:ID_DIGITS]]
        if state.tree:
            words += ["tree", state.tree[:ID_DIGITS]]
        if state.dirty:
            words.append("dirty")
    return " ".join(words)


def _key_path(home: str) -> str:
    return os.path.join(home, "state", KEY_FILE)


def home_key(home: str) -> bytes | None:
    """This home's secret for signing records; None when it has none yet. Only a
    regular file is read: a symlink, a FIFO or a device at its name is refused
    (opened without following or blocking, so nothing hangs)."""
    path = _key_path(home)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(
            f"cannot read the evidence key {path}: {exc.strerror} (a link there is "
            "refused: remove it, todo makes a new key)"
        ) from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StorageError(
                f"the evidence key {path} is not a regular file: remove it (todo makes a new one)"
            )
        key = handle.read().strip()
    return key or None


# A seam for tests: called after a new key is written aside, before it is put in place.
_before_key_placed: Callable[[], None] | None = None


def make_home_key(home: str) -> bytes:
    """This home's secret, made now if it has none: written whole to a file of
    its own (O_EXCL, 0600) and then linked into place, so a todo reading the key
    never sees half of one; when another todo placed one first, that one is used."""
    key = home_key(home)
    if key is not None:
        return key
    path = _key_path(home)
    aside = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(KEY_BYTES).encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        if _before_key_placed is not None:
            _before_key_placed()
        with contextlib.suppress(FileExistsError):  # another todo made one first: that one
            os.link(aside, path)
    except OSError as exc:
        raise StorageError(f"cannot make the evidence key {path}: {exc.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(aside)
    key = home_key(home)
    if key is None:
        raise StorageError(f"the evidence key {path} is empty: remove it (todo makes a new one)")
    return key


def _digest(key: bytes, list_file: str, content: str, command: str, words: str) -> str:
    signed = "\0".join((os.path.realpath(list_file), content, command, words))
    mac = hmac.new(key, signed.encode("utf-8", "surrogateescape"), hashlib.sha256)
    return mac.hexdigest()[:DIGEST_DIGITS]


def sign(home: str, list_file: str, content: str, command: str, line: str) -> str:
    """``line`` (from ``record``) with its digest: the record of ``content``'s check
    ``command`` on this list, as only this home can write it."""
    key = make_home_key(home)
    return f"{line} {DIGEST} {_digest(key, list_file, content, command, line)}"


def skipped(when: str) -> str:
    return f"{SKIPPED} {when}"


class Evidence:
    """A ``checked`` line read back: whether it passed, when, the commit and tree,
    and its digest with the words it signs (None: it has none)."""

    __slots__ = ("commit", "digest", "passed", "signed", "tree", "when")

    def __init__(
        self,
        passed: bool,
        when: str,
        commit: str | None,
        tree: str | None,
        digest: str | None = None,
        signed: str = "",
    ) -> None:
        self.passed = passed
        self.when = when
        self.commit = commit
        self.tree = tree
        self.digest = digest
        self.signed = signed

    def recorded_here(self, key: bytes | None, list_file: str, content: str, command: str) -> bool:
        """Whether this home's todo wrote this record, for this task and check."""
        if key is None or self.digest is None:
            return False
        mine = _digest(key, list_file, content, command, self.signed)
        return hmac.compare_digest(mine, self.digest)


def read_record(text: str | None) -> Evidence | None:
    """A ``checked`` line as ``sign`` or ``skipped`` wrote it; None for none."""
    if not text:
        return None
    if text.startswith(SKIPPED):
        return Evidence(False, text[len(SKIPPED) :].strip(), None, None)
    words = text.split()
    if not words or words[0] != PASSED:
        return Evidence(False, "", None, None)  # edited by hand: proves nothing
    digest = None
    if len(words) > 2 and words[-2] == DIGEST:
        digest = words[-1]
        words = words[:-2]

    pairs = dict(pairwise(words))
    return Evidence(
        True,
        words[1] if len(words) > 1 else "",
        pairs.get("commit"),
        pairs.get("tree"),
        digest,
        " ".join(words),
    )


def is_stale(
    evidence: Evidence | None,
    top: str,
    list_file: str,
    state: Callable[[], GitState | None],
    recorded_here: Callable[[Evidence], bool],
) -> str | None:
    """Why a completed task's evidence no longer holds (None: it holds).
    ``recorded_here``: whether this home's todo wrote the record."""
    if evidence is None:
        return "its check never passed"
    if not evidence.passed:
        return "no check ran" if evidence.when else "its check never passed"
    if not recorded_here(evidence):
        return NOT_OURS
    now = state()
    if now is None:
        return None  # passed outside a git work tree, and is outside one: nothing to compare
    if evidence.tree is None:
        return NO_GIT_STATE
    if _moved(evidence.commit, now.commit) and not _same_content(evidence, top, list_file):
        return f"a commit since it passed ({evidence.when})"
    if (now.tree or "")[: len(evidence.tree)] != evidence.tree:
        return f"the work tree changed since it passed ({evidence.when})"
    return None


def _moved(recorded: str | None, head: str | None) -> bool:
    """Whether HEAD is another commit than the one a record names (a record made
    before the first commit names none)."""
    if recorded is None:
        return head is not None
    return (head or "")[: len(recorded)] != recorded


def _same_content(evidence: Evidence, top: str, list_file: str) -> bool:
    """Whether the commits since a check passed leave what it checked as it was,
    the list file left out: they change nothing else, or HEAD holds exactly the
    tree it passed on (the work it checked, committed)."""
    assert evidence.tree is not None
    if evidence.commit is not None and not changed_since(top, evidence.commit, list_file):
        return True
    return not committed_other_than(top, evidence.tree, list_file)
