"""A real ``todo serve`` board for the tests: uvicorn on a free loopback port, in a
thread of the test's process, over the test's home; and plain HTTP to it."""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="todo serve needs uvicorn (the serve extra)")
pytest.importorskip("starlette", reason="todo serve needs Starlette (the serve extra)")

from todocli.app import Options  # noqa: E402 - after the skip: the serve extra first
from todocli.serve.lists import Board  # noqa: E402
from todocli.serve.web import allowed_hosts, make_app  # noqa: E402

TOKEN = "test-token-" + "x" * 20


class Served:
    """A running board: its port and token, and requests to it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.token = TOKEN
        self.host = f"127.0.0.1:{port}"

    @property
    def url(self) -> str:
        return f"http://{self.host}/?token={self.token}"

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = {"Host": self.host} | dict(headers or {})
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        got = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        conn.close()
        return got

    def page(self) -> str:
        status, _, body = self.request("GET", f"/?token={self.token}")
        assert status == 200, body
        return body.decode()

    def act(self, **body: object) -> tuple[int, dict[str, object]]:
        status, _, raw = self.request(
            "POST", "/api/act", body, {"X-Todo-Token": self.token, "Origin": f"http://{self.host}"}
        )
        answer = json.loads(raw)
        assert isinstance(answer, dict)
        return status, answer


@contextmanager
def served(env: Mapping[str, str] | None = None) -> Iterator[Served]:
    """A board over the test's home (``TODOCLI_HOME``), until the block ends."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    board = Board(Options(), dict(os.environ if env is None else env))
    app = make_app(board, TOKEN, allowed_hosts(port), cookie=f"todo_token_{port}")
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the board did not start in 10 s"
        time.sleep(0.01)
    try:
        yield Served(port)
    finally:
        if app.hub is not None:
            app.hub.close()
        server.should_exit = True
        thread.join(10)
        sock.close()


class Events:
    """The board's event stream, read as a page's EventSource reads it."""

    def __init__(self, board: Served) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=5)
        self.conn.request("GET", f"/events?token={board.token}", headers={"Host": board.host})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.next()[0] == ""  # the retry line: the stream is open

    def next(self) -> tuple[str, dict[str, str]]:
        """The next event: its name and data ('' and {} for a comment or retry)."""
        event, data = "", "{}"
        while True:
            line = self.response.readline().decode()
            if line in ("\n", ""):
                return event, json.loads(data)
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: "):
                data = line[6:]

    def close(self) -> None:
        self.conn.close()
