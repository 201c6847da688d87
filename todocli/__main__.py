"""``python -m todocli`` and the ``todo`` console script.

The agent's everyday calls are served by ``cli.fastpath`` without importing Typer
or rich; everything else goes to the Typer app in ``cli.typer_app``. Both read the
command line with ``cli.command_table`` and run it through ``cli.dispatch``.
"""

from __future__ import annotations

import sys

from todocli.base import TYPE_CHECKING
from todocli.base import exit_now as exit_now  # the launcher (scripts/todo) imports it from here

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


if __name__ == "__main__":
    console()
