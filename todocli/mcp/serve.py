"""``todo mcp``: the command's entry. It starts the server (``mcp_server``, the
only module that loads the MCP SDK) and says in one line what stops it: the SDK
missing, a bad session, home or config, standard output gone. Apart from
``mcp_tools`` (the tools, which the server imports), so that neither imports the
other's importer.
"""

from __future__ import annotations

import sys

from todocli.app.output import STDERR, OutputError, write
from todocli.base import TYPE_CHECKING
from todocli.errors import TodoError, UsageError
from todocli.mcp.mcp_tools import default_resource
from todocli.storage.files import reason

if TYPE_CHECKING:
    from todocli.app.commands import Options

INSTALL_HINT = "pip install 'todocli-md[mcp]'"


def serve(opts: Options) -> int:
    """``todo mcp``: serve over stdio until the client hangs up; the exit status.

    Stdout belongs to the protocol: the command line's error boundary says a failure
    in one line on stderr and nothing on stdout (the table marks ``mcp`` so)."""
    if opts.if_rev is not None:
        raise UsageError("mcp: --if-rev is for one write: pass if_rev to todo_write")
    default_resource(opts)  # a bad session, home or config fails now, not per call
    try:
        from todocli.mcp import mcp_server
    except ImportError as exc:  # missing, or installed but broken: the same remedy
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            why = f" (no module named {exc.name!r})"
        else:
            why = f" (it failed to import: {exc})"
        raise UsageError(f"todo mcp needs the MCP SDK{why}: {INSTALL_HINT}") from None
    if sys.stdin is not None and sys.stdin.isatty():
        write(
            "todo: serving MCP on stdin and stdout until end of input (an agent starts "
            "this: see the README's MCP section)\n",
            STDERR,
        )
    try:
        return mcp_server.run(opts)
    except TodoError:
        raise
    except Exception as exc:  # the server itself failed
        broken = _os_error(exc)
        if broken is None:
            raise  # the boundary reports it as an internal error

        # stdout full or gone: as every command says it
        raise OutputError(f"cannot write to standard output: {reason(broken)}") from None


def _os_error(exc: BaseException) -> OSError | None:
    """The OSError behind a failure, also inside the task groups the SDK runs in."""
    if isinstance(exc, OSError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _os_error(inner)
            if found is not None:
                return found
    return None
