"""Writing another tool's file safely: the one way every ``todo setup`` write
goes (the records under todo's home too).

- **Where.** ``locate`` gives the file the bytes go to: the path itself, or the
  file its links lead to. In a project setup (``project``), a path whose real
  path leaves the project (a symlink, or a symlinked folder, committed in the
  repository), or leads into git's own ``.git`` folder, is refused with the path,
  before anything is read from it; a link that stays inside the project is
  written through. In the home (``--user``) a link is the person's own
  (dotfiles): written through to its target.
- **How.** ``write`` makes a temporary file in the target's folder, exclusively
  (``O_CREAT|O_EXCL|O_NOFOLLOW``) under an unpredictable name, so no name planted
  beside the target is followed; writes and syncs it; gives it the target's mode
  and owner; and renames it over the target (``os.replace``). A read-only target,
  or one that is not a regular file, is refused with its path.
"""

from __future__ import annotations

import contextlib
import os
import stat

from todocli.errors import StorageError

_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)  # not on Windows: O_EXCL alone never follows there
    | getattr(os, "O_CLOEXEC", 0)
)

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # not on Windows, where there is no FIFO to open


def locate(path: str, project: str | None) -> str:
    """The file ``path`` names once its links are followed. With ``project``,
    a real path outside the project's folder is refused (nothing read)."""
    real = os.path.realpath(path)
    if project is not None:
        root = os.path.realpath(project)
        if os.path.commonpath([root, real]) != root:
            raise StorageError(
                f"refused {path}: a symlink leads it to {real}, outside the project "
                f"{root}; nothing was read or written (remove the link, or wire your "
                "home with --user)"
            )
        # git's own folder is no file of the project's: a link into it (CLAUDE.md to
        # .git/config) had setup write its block there and break the repository.
        # Any letter case: on a case-insensitive disk .GIT is that folder.
        inside = os.path.relpath(real, root).split(os.sep)
        if any(part.casefold() == ".git" for part in inside):
            raise StorageError(
                f"refused {path}: a symlink leads it to {real}, inside git's own folder; "
                "nothing was read or written (remove the link)"
            )
    return real


def read(path: str) -> str | None:
    """The file's text (``None``: there is none). Opened without waiting
    (``O_NONBLOCK``: a FIFO planted there would block the open, and the read, for
    ever) and refused unless it is a regular file."""
    try:
        descriptor = os.open(path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}; nothing was written") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise StorageError(f"refused {path}: not a regular file; nothing was written")
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, encoding="utf-8", newline="", closefd=False) as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8"
        raise StorageError(f"cannot read {path}: {reason}; nothing was written") from None
    finally:
        os.close(descriptor)


def writable(path: str, named: str | None = None) -> os.stat_result | None:
    """The status of the file at ``path`` (``None``: none yet), refused when it is
    read-only or not a regular file (``named``: the path the person gave)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot write {named or path}: {exc.strerror}") from None
    shown = named or path
    if not stat.S_ISREG(status.st_mode):
        raise StorageError(f"refused {shown}: not a regular file; nothing was written")
    # The mode bits, not os.access alone: root may write anything.
    if not status.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise StorageError(
            f"refused {shown}: it is read-only; nothing was written "
            "(make it writable, chmod u+w, to let todo setup change it)"
        )
    return status


def write(path: str, text: str, named: str | None = None) -> None:
    """Replace the file at ``path`` (its real path: see ``locate``) with ``text``,
    keeping its mode and owner; a new file gets the umask's mode."""
    status = writable(path, named)
    folder = os.path.dirname(path) or "."
    temporary = ""
    try:
        os.makedirs(folder, exist_ok=True)
        for _ in range(16):
            temporary = os.path.join(
                folder, f".{os.path.basename(path)}.{os.urandom(8).hex()}.todo-setup"
            )
            try:
                descriptor = os.open(temporary, _FLAGS, 0o666)
                break
            except FileExistsError:
                continue
        else:
            raise StorageError(f"cannot write {named or path}: no free temporary name")
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            if status is not None:
                os.fchmod(descriptor, stat.S_IMODE(status.st_mode))
                mine = os.fstat(descriptor)
                if (mine.st_uid, mine.st_gid) != (status.st_uid, status.st_gid):
                    os.fchown(descriptor, status.st_uid, status.st_gid)
            os.fsync(descriptor)
        os.replace(temporary, path)
        temporary = ""
    except OSError as exc:
        raise StorageError(f"cannot write {named or path}: {exc.strerror or exc}") from None
    finally:
        if temporary:
            with contextlib.suppress(OSError):
                os.remove(temporary)


def delete(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StorageError(f"cannot remove {path}: {exc.strerror}") from None
