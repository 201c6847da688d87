"""``todo serve``: the command's entry. It binds 127.0.0.1 (another address only
when asked, with a warning), prints the URL with its secret token, as Jupyter
does, and serves the board with uvicorn until Ctrl-C."""

from __future__ import annotations

import secrets
import socket
import sys

from todocli.app.output import STDERR, write
from todocli.base import TYPE_CHECKING
from todocli.errors import UsageError

if TYPE_CHECKING:
    from types import FrameType

    from todocli.app.commands import Options

INSTALL_HINT = "pip install 'todocli-md[serve]'"
LOOPBACK = "127.0.0.1"


def serve(opts: Options, *, port: int = 0, host: str = LOOPBACK, open_page: bool = False) -> int:
    """Serve the board until interrupted; the exit status."""
    if opts.if_rev is not None or opts.base is not None:
        raise UsageError("serve: --if-rev and --base are for one write, not a server")
    if not 0 <= port <= 65535:
        raise UsageError(f"serve: --port {port}: give a port from 1 to 65535 (0: any free one)")
    try:
        import uvicorn

        from todocli.serve.lists import Board
        from todocli.serve.web import allowed_hosts, make_app
    except ImportError as exc:
        name = f" (no module named {exc.name!r})" if isinstance(exc, ModuleNotFoundError) else ""
        raise UsageError(f"todo serve needs Starlette and uvicorn{name}: {INSTALL_HINT}") from None
    board = Board(opts)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on: the URL printed is good at once
    except OSError as exc:
        sock.close()
        raise UsageError(f"serve: cannot listen on {host}:{port}: {exc.strerror}") from None
    bound = sock.getsockname()[1]
    token = secrets.token_urlsafe(32)
    names = ["127.0.0.1", "localhost", "[::1]"]
    if host != LOOPBACK:
        names.append(f"[{host}]" if ":" in host else host)
        write(
            f"todo: warning: serving on {host}, not only this machine: anyone who can reach "
            "it and has the URL can change your lists\n",
            STDERR,
        )
    shown = names[-1] if host not in (LOOPBACK, "0.0.0.0", "::") else LOOPBACK
    url = f"http://{shown}:{bound}/?token={token}"
    write(f"todo board at {url}\n(Ctrl-C stops it)\n")
    app = make_app(board, token, allowed_hosts(bound, names), cookie=f"todo_token_{bound}")
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on", access_log=False
    )
    hub = app.hub

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if hub is not None:
                hub.close()  # open pages' event streams end: no wait for them
            super().handle_exit(sig, frame)

    server = Server(config)
    if open_page:
        import webbrowser

        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    sys.stdout.flush()
    return 0
