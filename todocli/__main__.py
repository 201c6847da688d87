"""``python -m todocli`` and the ``todo`` console script.

The agent's everyday calls are served by ``cli.fastpath`` without importing Typer
or rich; everything else goes to the Typer app in ``cli.typer_app``. Both read the
command line with ``cli.command_table`` and run it through ``cli.dispatch``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import NoReturn


def main() -> None:
    """What a caller in the same process runs: the command, then ``sys.exit`` as
    usual."""
    sys.exit(run(sys.argv[1:]))


def console() -> NoReturn:
    """The ``todocli`` console script (the same command where a ``#!`` script such
    as ``todo`` does not run): the command, then ``exit_now``."""
    exit_now(run(sys.argv[1:]))


def run(argv: list[str]) -> int:
    """Run one command line; its exit status."""
    import gc

    # One command, then exit: the process frees everything at once, so the cyclic
    # collector (which rescans every live object, millions on a large list) only
    # costs time. `todo watch`, which runs on, turns it back on.
    gc.disable()
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        from todocli.cli.dispatch import closed_standard_streams

        closed = closed_standard_streams()
        if closed is not None:
            return closed
    from todocli.cli.fastpath import run as run_fast

    code = run_fast(argv)
    if code is None:
        from todocli.cli.typer_app import run as run_app

        code = run_app(argv)
    return code


def exit_now(code: int) -> NoReturn:
    """End the process with ``code`` without tearing the interpreter down.

    Teardown frees every module and object one by one and collects garbage a last
    time, on a process about to vanish: 9-10 million instructions, 3.3 ms (fastest
    of 60 runs) to 3.8 ms (median) of a ``todo show`` (measured 2026-11-25 against
    ``sys.exit``; with ``gc.freeze()`` before ``sys.exit`` 0.6-1.8 ms of it remain).
    Nothing of ours waits for it: output is flushed as it is written (the flush
    here finds the buffers empty) and every file is closed, and synced, by
    the code that writes it. What else could be owed an orderly exit (an ``atexit``
    callback, such as coverage's or a library's, or a thread still running) gets
    one: then this is ``sys.exit``.
    """
    import atexit
    import os

    threading = sys.modules.get("threading")
    # CPython's count of them, private: the only way to know none is owed (see above
    # for what skipping the teardown saves); without it, the usual exit.
    callbacks = getattr(atexit, "_ncallbacks", None)
    if (
        callbacks is None
        or callbacks() != 0
        or (threading is not None and threading.active_count() != 1)
    ):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)  # the usual exit, and whatever it says of a broken stream
    os._exit(code)


if __name__ == "__main__":
    console()
