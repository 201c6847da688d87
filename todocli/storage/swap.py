"""Replacing a file and getting back the one it replaced, in one step.

``os.replace`` unlinks whatever is at the target when it lands: an editor's save
that lands between a writer's last look and its replace is gone, unseen. Linux's
``renameat2(RENAME_EXCHANGE)`` swaps the two names instead, so the file replaced
is still there, under the temporary name, to be checked (and put back).

Python's standard library does not offer it; this calls the C library's through
``ctypes``, imported only for a write a person may race. Where the call is missing
(not Linux, an old C library) or refused (a file system that cannot swap),
``exchange`` says so and the caller replaces as before.
"""

from __future__ import annotations

import errno
import os

from todocli.base import TYPE_CHECKING

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# What says "this system or file system cannot swap", rather than a real failure.
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP}

if TYPE_CHECKING:
    from collections.abc import Callable

    Renameat2 = Callable[[int, bytes, int, bytes, int], int]

_found: dict[str, Renameat2 | None] = {}  # the function, once looked up


def _renameat2() -> Renameat2 | None:
    """The C library's ``renameat2``, or None where there is none."""
    if "renameat2" not in _found:
        _found["renameat2"] = None
        try:
            import ctypes

            function = ctypes.CDLL(None, use_errno=True).renameat2
        except (ImportError, OSError, AttributeError):
            pass
        else:
            at, name = ctypes.c_int, ctypes.c_char_p
            function.argtypes = [at, name, at, name, ctypes.c_uint]
            function.restype = ctypes.c_int
            _found["renameat2"] = function
    return _found["renameat2"]


def exchange(a: str, b: str) -> bool:
    """Swap the files named ``a`` and ``b`` (both must exist) in one step. False
    when this system cannot (nothing was done); OSError for any other failure."""
    call = _renameat2()
    if call is None:
        return False
    if call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    import ctypes

    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), a, None, b)
