"""``python -m todocli`` and the ``todo`` console script.

The agent's everyday calls are served by ``cli.fastpath`` without importing Typer
or rich; everything else goes to the Typer app in ``cli.typer_app``. Both read the
command line with ``cli.command_table`` and run it through ``cli.dispatch``.
"""

from __future__ import annotations

import sys


def main() -> None:
    import gc

    # One command, then exit: the process frees everything at once, so the cyclic
    # collector (which rescans every live object, millions on a large list) only
    # costs time. `todo watch`, which runs on, turns it back on.
    gc.disable()
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        from todocli.cli.dispatch import closed_standard_streams

        closed = closed_standard_streams()
        if closed is not None:
            sys.exit(closed)
    from todocli.cli.fastpath import run

    argv = sys.argv[1:]
    code = run(argv)
    if code is None:
        from todocli.cli.typer_app import run as run_app

        code = run_app(argv)
    sys.exit(code)


if __name__ == "__main__":
    main()
