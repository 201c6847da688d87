"""The board's web app (Starlette): the page, its static files, server-sent
events from watching the list files, and the actions, each a POST.

Safe by default, as Jupyter's server: nothing is served without the secret token
(in the URL the command prints, then a cookie of this port); the ``Host`` header
must name this server (against DNS rebinding) and an ``Origin``, when sent, must
be this server's (against cross-site requests); a change is made only by a POST
that carries the token in a header, which no other site's page can set."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from importlib.resources import files

from anyio import to_thread
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from todocli.app.output import STDERR, write
from todocli.base import TYPE_CHECKING
from todocli.errors import TodoError
from todocli.serve import page
from todocli.serve.lists import PROJECT, SESSION, Board, Refused

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable

    from starlette.requests import Request
    from starlette.types import ASGIApp, Receive, Scope, Send

HEADER = "x-todo-token"
STATIC = {"board.css": "text/css", "board.js": "text/javascript"}
POLL = 0.05  # seconds between two looks at the lists' files (stat only)
KEEPALIVE = 15.0  # seconds between two comments on an idle event stream


def allowed_hosts(
    port: int, names: Iterable[str] = ("127.0.0.1", "localhost", "[::1]")
) -> set[str]:
    """The ``Host`` values naming this server."""
    return {f"{name}:{port}" for name in names}


class Guard:
    """The checks every request passes before the app sees it: Host, Origin, token."""

    def __init__(self, app: ASGIApp, token: str, hosts: set[str], cookie: str) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts
        self.cookie = cookie
        self.hub: Hub | None = None  # the app's, to end its event streams on exit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # a WebSocket: the board has none to offer
            await send({"type": "websocket.close", "code": 1008})
            return
        refused = self.refusal(scope)
        if refused is not None:
            await Response(refused + "\n", 403, media_type="text/plain")(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if headers.get("host", "") not in self.hosts:
            return "Refused: this server answers only to its own address (Host)."
        origin = headers.get("origin")
        if origin is not None and origin.removeprefix("http://") not in self.hosts:
            return "Refused: a request from another site (Origin)."
        if headers.get("sec-fetch-site") == "cross-site":
            return "Refused: a request from another site (Sec-Fetch-Site)."
        if scope["method"] == "GET" or scope["method"] == "HEAD":
            given = _query_token(scope) or _cookie(headers.get("cookie", ""), self.cookie)
        elif scope["method"] == "POST":
            given = headers.get(HEADER, "")
        else:
            return "Refused: only GET and POST."
        if not given or not secrets.compare_digest(given, self.token):
            return "Refused: the token is missing or wrong (open the URL todo serve printed)."
        return None


def _query_token(scope: Scope) -> str:
    query: bytes = scope.get("query_string", b"")
    for pair in query.decode("latin-1").split("&"):
        name, _, value = pair.partition("=")
        if name == "token":
            return value
    return ""


def _cookie(header: str, name: str) -> str:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return ""


class Hub:
    """Watches the lists' files (their ``stat``, never their pages) and tells every
    open page what changed: a list's new HTML, or the whole board when lists came
    or went."""

    def __init__(self, board: Board, poll: float = POLL) -> None:
        self.board = board
        self.poll = poll
        self.queues: set[asyncio.Queue[str | None]] = set()
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing = False

    def start(self) -> None:
        if self.task is None:
            self.loop = asyncio.get_running_loop()
            self.task = self.loop.create_task(self.watch())

    def close(self) -> None:
        """End every open event stream (from any thread): the server stops without
        waiting for pages that would keep them open."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._close)

    def _close(self) -> None:
        self.closing = True
        for queue in self.queues:
            queue.put_nowait(None)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def watch(self) -> None:
        """Look at the files until stopped; a look that fails is tried again (a
        list or a setting being rewritten), and said once on stderr."""
        said = False
        while True:
            try:
                await self._watch()
            except Exception as exc:  # the watcher must outlive one bad look
                if not said:
                    write(f"todo serve: watching the lists failed once: {exc}\n", STDERR)
                    said = True
                await asyncio.sleep(self.poll * 10)

    async def _watch(self) -> None:
        folder = self.board.sessions_dir()
        where: dict[str, str] = {}
        seen: dict[str, tuple[int, ...] | None] = {}
        listed: tuple[int, ...] | None = ()
        while True:
            now_listed = _signature(folder)
            if now_listed != listed:
                fresh = await to_thread.run_sync(self.board.files)
                if listed != () and set(fresh) != set(where):
                    self.send("board", {"html": await to_thread.run_sync(self.render_all)})
                    seen = {key: _signature(path) for key, path in fresh.items()}
                where, listed = fresh, now_listed
            for key, path in where.items():
                signature = _signature(path)
                if key in seen and seen[key] != signature:
                    html = await to_thread.run_sync(self.render, key)
                    self.send("list", {"key": key, "html": html})
                seen[key] = signature
            await asyncio.sleep(self.poll)

    def send(self, event: str, data: dict[str, str]) -> None:
        message = f"event: {event}\ndata: {json.dumps(data)}\n\n"
        for queue in self.queues:
            queue.put_nowait(message)

    def render(self, key: str) -> str:
        try:
            return page.section(self.board.read(key))
        except (TodoError, Refused) as error:
            title = key[len(SESSION) :] if key != PROJECT else "Project plan"
            return page.unreadable(key, title, getattr(error, "message", str(error)))

    def render_all(self) -> str:
        return "".join(self.render(key) for key in self.board.listed())

    async def events(self) -> AsyncIterator[str]:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queues.add(queue)
        try:
            yield "retry: 1000\n\n"
            while not self.closing:
                try:
                    message = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    message = ": still here\n\n"
                if message is None:
                    return
                yield message
        finally:
            self.queues.discard(queue)


def _signature(path: str) -> tuple[int, ...] | None:
    """What changes when a file is written: its inode, size and time (None: gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def make_app(board: Board, token: str, hosts: set[str], cookie: str = "todo_token") -> Guard:
    """The board's app behind its guard."""
    hub = Hub(board)
    static = files("todocli.serve") / "static"

    async def home(request: Request) -> Response:
        html = page.page(token, await to_thread.run_sync(hub.render_all))
        response = HTMLResponse(html, headers=_no_store())
        if request.query_params.get("token"):
            response.set_cookie(cookie, token, httponly=True, samesite="strict")
        return response

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:  # a name from the table, never a path from the request
            return Response("Not found\n", 404, media_type="text/plain")
        return Response((static / name).read_bytes(), media_type=STATIC[name])

    async def events(request: Request) -> Response:
        return StreamingResponse(hub.events(), media_type="text/event-stream", headers=_no_store())

    async def history(request: Request) -> Response:
        key = request.query_params.get("list", "")
        try:
            rows = await to_thread.run_sync(board.history, key)
        except Refused as error:
            return Response(error.message + "\n", error.status, media_type="text/plain")
        title = key[len(SESSION) :] if key.startswith(SESSION) else "Project plan"
        return HTMLResponse(page.history_page(title, rows), headers=_no_store())

    async def act(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"ok": False, "message": "not JSON"}, 400)
        if not isinstance(body, dict):
            return JSONResponse({"ok": False, "message": "expected an object"}, 400)
        key = str(body.get("list", ""))
        rev = body.get("rev")
        args = (
            key,
            str(body.get("action", "")),
            str(body.get("task") or ""),
            str(body.get("text") or ""),
            rev if isinstance(rev, int) and not isinstance(rev, bool) else -1,
        )
        try:
            await to_thread.run_sync(board.act, *args)
        except Refused as error:
            html = await to_thread.run_sync(hub.render, key) if error.status == 409 else ""
            return JSONResponse({"ok": False, "message": error.message, "html": html}, error.status)
        html = await to_thread.run_sync(hub.render, key)
        return JSONResponse({"ok": True, "message": "", "html": html})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()  # the files are watched from the start: no change is missed
        yield
        await hub.stop()

    app = Starlette(
        routes=[
            Route("/", home),
            Route("/static/{name}", asset),
            Route("/events", events),
            Route("/history", history),
            Route("/api/act", act, methods=["POST"]),
        ],
        lifespan=lifespan,
    )
    guard = Guard(app, token, hosts, cookie)
    guard.hub = hub
    return guard


# The page runs its own script and styles only, and no other site may frame it.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _no_store() -> dict[str, str]:
    return {
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": POLICY,
        "Referrer-Policy": "no-referrer",
    }
