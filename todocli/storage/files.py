"""Files on disk: only regular files, bounded reads, private folders, atomic replaces.

Everything the tool reads or writes (lists, revisions, state, logs, configs) goes
through here, so three rules hold everywhere at once:

- Only regular files. A FIFO, a device, a socket or a folder where a file should be
  is refused (``StorageError``, exit 6, naming the path and what it is) before it is
  opened for writing, and opened for reading without blocking: a FIFO never hangs
  a call and ``/dev/null`` is never replaced by a list.
- Every read is bounded: a file over its limit is an error that names the limit,
  never memory exhaustion.
- Folders are created private (0700), each missing level of them.

Text is UTF-8 with ``surrogateescape``: bytes that are not UTF-8 come back out
exactly as they went in. Paths are strings (``pathlib`` costs start-up).
"""

from __future__ import annotations

import os
import stat
import time

from todocli.base import TYPE_CHECKING
from todocli.errors import ConflictError, StorageError

if TYPE_CHECKING:
    from collections.abc import Callable

ENCODING_ERRORS = "surrogateescape"
TEMP_SUFFIX = ".todo-tmp"
PENDING = ".pending"  # a file a write stages beside its place (see ``commit``)
# A file read less than this after its last change is compared by its bytes, not by
# its time: a file system with 1-second timestamps gives a second save within the
# same second the time of the first (see ``Store._holds``).
RACY_NS = 1_000_000_000
# The kill tests' seam: "NAME:N" kills this process (SIGKILL) the N-th time it
# reaches a kill point named NAME ("*": any), one step of a write. Read once here:
# unset, each kill point costs one comparison.
_KILL_AT = os.environ.get("TODOCLI_KILL_AT", "")
# The race tests' seam, the same way: "NAME:N" stops this process (SIGSTOP) at a
# stop point (``stop_point``) or a kill point, for the test to make an editor's
# save land at that very step and then let it go on (SIGCONT).
_STOP_AT = os.environ.get("TODOCLI_STOP_AT", "")
_reached = [0, 0]
STALE_TEMP_SECONDS = 30
# What the tool's own bookkeeping files may hold: they are small by construction.
SMALL_FILE_BYTES = 1024 * 1024
_ENOSPC = 28
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class ListChangedError(ConflictError):
    """The list changed on disk between reading it and replacing it (an editor saved
    it, or a writer that does not share the lock): the write must be done again."""

    def __init__(self) -> None:
        super().__init__(
            "the list changed on disk while it was being written (an editor saving it?); "
            "nothing was written: try again"
        )


def now_ns() -> int:
    """The wall clock (ns), the one compared with file times (a seam: a test sets
    the time a file was changed and the time todo looks, instead of sleeping to
    the edge of a second)."""
    return time.time_ns()


def monotonic() -> float:
    """todo's own clock (seconds), for how long a list has stayed still (a seam: a
    test moves it on where a waiting call pauses, instead of sleeping)."""
    return time.monotonic()


def kill_point(name: str) -> None:
    """A step of a write is done: the kill tests may stop the process here."""
    if _KILL_AT or _STOP_AT:
        _kill_at(name)


def stop_point(name: str) -> None:
    """A moment the race tests may stop this process at (no write step: the kill
    tests do not kill here)."""
    if _STOP_AT:
        _kill_at(name, stop_only=True)


def _kill_at(name: str, stop_only: bool = False) -> None:
    import signal

    for index, (seam, how) in enumerate(((_KILL_AT, "SIGKILL"), (_STOP_AT, "SIGSTOP"))):
        if stop_only and how == "SIGKILL":
            continue
        wanted, _, nth = seam.rpartition(":")
        if wanted in ("*", name):
            _reached[index] += 1
            if str(_reached[index]) == nth:
                if how == "SIGKILL":
                    os.write(2, f"todo: killed at {name}\n".encode())
                os.kill(os.getpid(), getattr(signal, how))


def reason(exc: OSError) -> str:
    if exc.errno == _ENOSPC:
        return "no space left on the device"
    return exc.strerror or str(exc)


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular(path: str, what: str, verb: str = "read") -> StorageError:
    return StorageError(f"cannot {verb} {path}: it is {what}, not a regular file")


def read_bytes(path: str, limit: int, setting: str | None = None) -> bytes | None:
    """The file's bytes, or None when it does not exist.

    Opened without blocking and checked to be a regular file before anything is
    read; more than ``limit`` bytes is an error naming the limit (and the setting
    that raises it, when there is one).
    """
    return read_with_stat(path, limit, setting)[0]


def read_with_stat(
    path: str, limit: int, setting: str | None = None
) -> tuple[bytes | None, os.stat_result | None]:
    """``read_bytes``, with the status of the very file that was read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, None
    except IsADirectoryError:
        raise not_regular(path, "a directory") from None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {reason(exc)}") from None
    try:
        info = os.fstat(fd)
        what = kind_of(info.st_mode)
        if what is not None:
            raise not_regular(path, what)
        if info.st_size > limit:
            raise _too_big(path, info.st_size, limit, setting)
        chunks = []
        size = 0
        want = min(info.st_size, limit) + 1  # st_size can be stale: read to the end
        while size <= limit:
            chunk = os.read(fd, min(want, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            want = 1 << 16
        if size > limit:
            raise _too_big(path, size, limit, setting)
        return b"".join(chunks), info
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {reason(exc)}") from None
    finally:
        os.close(fd)


def _too_big(path: str, size: int, limit: int, setting: str | None) -> StorageError:
    more = f"; raise {setting} to read it" if setting else ""
    return StorageError(
        f"cannot read {path}: it is over the limit of {limit} bytes "
        f"({'at least ' if size == limit + 1 else ''}{size} bytes{more})"
    )


def signature(info: os.stat_result | None) -> tuple[int, int, int, int] | None:
    """What tells one version of a file from another without reading it: device,
    inode (a save by rename makes a new one), size and modification time."""
    if info is None:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def stat_signature(path: str) -> tuple[int, int, int, int] | None:
    try:
        return signature(os.stat(path))
    except OSError:
        return None


def read_text(path: str, limit: int = SMALL_FILE_BYTES, setting: str | None = None) -> str:
    """The file's text; an empty string when it does not exist yet."""
    data = read_bytes(path, limit, setting)
    return "" if data is None else data.decode("utf-8", ENCODING_ERRORS)


def check_writable_target(path: str, follow: bool = True) -> int | None:
    """The permission bits of the regular file at ``path`` (None: it does not exist,
    or, not to be followed, it is a symlink that the new file replaces); anything
    that is not a regular file, or that may not be written, is refused before
    anything is written."""
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {reason(exc)}") from None
    if stat.S_ISLNK(info.st_mode):
        return None
    what = kind_of(info.st_mode)
    if what is not None:
        raise not_regular(path, what, "write")
    # The replace would go through any file's permissions (it writes the folder, not
    # the file): a list made read-only (no write bit for anyone: root is no exception)
    # or not writable by this user is refused, as an editor would.
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise StorageError(f"cannot write {path}: the file is read-only")
    return info.st_mode & 0o7777


def make_dir(path: str) -> None:
    """Create a folder and each missing folder above it with mode 0700.

    (``os.makedirs(mode=...)`` gives the mode to the last level only: the levels
    above it would be created with the umask's default, world-readable.)
    """
    missing = []
    current = os.path.abspath(path)
    while not os.path.isdir(current):
        # Asked again: another process may have made it since (then it is no obstacle).
        if os.path.lexists(current) and not os.path.isdir(current):
            raise _in_the_way(path, current)
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            if not os.path.isdir(folder):
                raise _in_the_way(path, folder) from None
        except OSError as exc:
            raise StorageError(f"cannot create directory {path}: {reason(exc)}") from None


def _in_the_way(path: str, blocker: str) -> StorageError:
    """The error naming what is in the way (a folder above ``path``, it may be)."""
    if blocker == os.path.abspath(path):
        return StorageError(f"cannot create directory {path}: a file is in the way")
    return StorageError(f"cannot create directory {path}: {blocker} is not a directory")


def atomic_write(
    path: str,
    text: str,
    durable: bool = True,
    precondition: Callable[[], None] | None = None,
    replaced: Callable[[str], None] | None = None,
    tag: str | None = None,
    follow: bool = False,
) -> None:
    """Replace the file's content in one step (temp file, fsync, os.replace).

    The target must be a regular file or not exist yet. ``follow`` (a list, which
    stays a symlink if it is one): a symlink at ``path`` is written through, to its
    target. Otherwise (todo's own files) a symlink there is replaced by the new file,
    never written through. The temporary file is created exclusively
    (``O_EXCL``, ``O_NOFOLLOW``) under a name no one can guess.
    ``durable=False`` skips the fsyncs: still atomic (a reader or a crash sees the
    old or the new file), but a power cut may lose it. For revision copies and
    bookkeeping, never for the list itself. ``precondition`` runs just before the
    replace and may raise to call it off (the temporary file is removed).

    ``replaced``, where the system can swap two files in one step, is given the
    name the file just replaced then has, and may raise to call the write off: the
    swap is undone. So a save that lands after the last look is still caught (an
    ``os.replace`` would unlink it unseen). See ``swap``.

    ``tag``: the temporary file is named ``temp_path(target, tag)``, so that a
    journal naming the tag finds it after a kill (see ``Store.commit``).
    """
    target = os.path.realpath(path) if follow else os.path.abspath(path)
    mode = check_writable_target(target, follow)
    owner = None
    if mode is not None and hasattr(os, "geteuid") and os.geteuid() == 0:
        info = os.stat(target)
        owner = (info.st_uid, info.st_gid)
    folder, name = os.path.split(target)
    make_dir(folder)
    if tag is None:
        # A journaled write's temporary files are its journal's to clear; beside a
        # list, an old one may be a person's save a killed swap parked (see
        # ``takeback.put_back_parked``): nothing but that journal may remove it.
        _remove_stale_temps(folder, name)
    tmp = ""
    made: os.stat_result | None = None
    try:
        fd, tmp = _make_temp(folder, name, tag)
        made = os.fstat(fd)
        kill_point("made")  # a temporary file with nothing in it yet
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8", ENCODING_ERRORS))
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
            # Through the open file, not its name: nothing else is ever changed.
            os.fchmod(handle.fileno(), 0o600 if mode is None else mode)
            if owner is not None and owner != (os.getuid(), os.getgid()):
                # As root, the new file would be root's: give it back to its owner,
                # who could not write their own list any more.
                os.fchown(handle.fileno(), *owner)
        kill_point("temp")
        if precondition is not None:
            precondition()  # last look at the target, as close to the replace as can be
        if replaced is None or mode is None or not _swap_in(tmp, target, replaced):
            os.replace(tmp, target)
        tmp = ""
        kill_point("replace")
        if durable:
            _fsync_dir(folder)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {reason(exc)}") from None
    finally:
        if tmp and made is not None:
            _remove_ours(tmp, made)


def _swap_in(tmp: str, target: str, replaced: Callable[[str], None]) -> bool:
    """Swap the temporary file in for the target and let ``replaced`` judge the file
    it replaced (then under the temporary name): removed if it passes, put back if
    not. False when the system cannot swap (nothing was done)."""
    from todocli.storage.swap import exchange

    ours = os.lstat(tmp)
    if not exchange(tmp, target):
        return False
    kill_point("swap")
    try:
        replaced(tmp)
    except BaseException:
        exchange(tmp, target)  # the replaced file back where it was
        kill_point("swap-back")
        if not _same_file(os.lstat(tmp), ours):
            # An editor saved again since the swap (its new file took our file's
            # place): its newer save goes back to the target, its older stays here
            # (for the caller to remove: ``Store.commit``).
            exchange(tmp, target)
            kill_point("swap-again")
        raise
    kill_point("swapped")
    os.unlink(tmp)
    return True


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _remove_ours(tmp: str, ours: os.stat_result) -> None:
    """Remove the temporary file if it is still the one made here (after a swap
    it may name another's file, which must not be lost)."""
    try:
        if _same_file(os.lstat(tmp), ours):
            os.unlink(tmp)
    except OSError:
        pass


def append(path: str, data: bytes, separator: bytes = b"") -> Callable[[], None]:
    """Append to a regular file (created 0600), fsynced; ``separator`` goes first
    when the file already has content. Returns how to take the append back (a
    write that fails after it must leave the file as it was); a failed append
    takes itself back."""
    make_dir(os.path.dirname(path))
    existed = check_writable_target(path) is not None
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {reason(exc)}") from None
    before = -1  # unknown until fstat: nothing of ours to cut yet

    def take_back() -> None:  # best effort: used while undoing a failed write
        try:
            if not existed:
                os.unlink(path)  # not even a new empty file stays
            elif before >= 0:
                os.truncate(path, before)
        except OSError:
            pass

    try:
        info = os.fstat(fd)
        what = kind_of(info.st_mode)
        if what is not None:  # swapped in since the check above
            raise not_regular(path, what, "write")
        before = info.st_size
        payload = (separator if before else b"") + data
        written = 0
        while written < len(payload):
            written += os.write(fd, payload[written:])
        os.fsync(fd)
    except BaseException as exc:
        os.close(fd)
        take_back()
        if isinstance(exc, OSError):
            raise StorageError(f"cannot write {path}: {reason(exc)}") from None
        raise
    os.close(fd)
    return take_back


def remove(path: str) -> None:
    """Remove a file if it is there (best effort)."""
    try:  # noqa: SIM105 - contextlib would cost start-up for one suppress
        os.unlink(path)
    except OSError:
        pass


def temp_path(target: str, tag: str) -> str:
    """The temporary file ``atomic_write`` writes beside ``target`` under ``tag``."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.{tag}{TEMP_SUFFIX}")


def _make_temp(folder: str, name: str, tag: str | None = None) -> tuple[int, str]:
    """A new file beside the target, created exclusively (``tempfile`` costs more to
    import than this does to write); named by ``tag`` when one is given."""
    # O_EXCL alone refuses a symlink or anything else already at the name; each
    # name is unguessable besides (a journaled write's tag is random too).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    if tag is not None:
        tmp = temp_path(os.path.join(folder, name), tag)
        return os.open(tmp, flags, 0o600), tmp
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}{TEMP_SUFFIX}")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {name}")


def _remove_stale_temps(folder: str, name: str) -> None:
    """Remove temp files a killed writer of this file left behind: for the home's
    own bookkeeping files, written with no journal (a list and its staged files
    are journaled: ``atomic_write`` with a tag never sweeps).

    Writers hold the file's lock, so another writer's temp file can only be a
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
