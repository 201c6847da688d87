"""``todo mcp``: the lists as an MCP server over stdio, on the official MCP SDK.

Built on the SDK's low-level ``Server``: the tools' input schemas are ``todo
schema``'s own, and each result is exactly what the command line says (the plain
text as content, the ``--json`` envelope as structured content, a failure as a
tool error). The tools themselves live in ``mcp_tools``; this module is the wire.

Change notifications: the server polls the stat of every list a client watches
(every 0.2 s, as ``todo watch`` does), so a write by any process, or a person's
editor, reaches the client. Both protocol eras are served: a handshake-era client
(``resources/subscribe``) gets ``notifications/resources/updated`` on its session;
a 2026-07-28 client's ``subscriptions/listen`` stream gets them through the SDK's
subscription bus.

Only ``todo mcp`` imports this module (through ``serve.serve``), so no other
command pays for the SDK.
"""

from __future__ import annotations

import gc
import os
from typing import Any

import anyio
import anyio.to_thread
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.session import ServerSession
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError

from todocli.app.commands import Options
from todocli.errors import NotFoundError, TodoError, UsageError
from todocli.escapes import one_line, utf8_safe
from todocli.mcp import mcp_tools
from todocli.storage.store import CHANGE_POLL_SECONDS as POLL_SECONDS

Ctx = ServerRequestContext[Any]
Signature = tuple[int, int, int] | None

# What every tool's structured content holds (``mcp_tools.structured``: the
# ``--json`` envelope less what the text content holds); the client checks
# results against it, and a test checks every tool's answer.
ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"status": {"enum": ["success", "error"]}, "data": {"type": "object"}},
    "required": ["version", "status", "data", "stats", "changes", "context", "error"],
}


def _signature(path: str) -> Signature:
    try:
        st = os.stat(path)
    except OSError:
        return None  # not there (yet): its creation is a change
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _text(text: str) -> str:
    """JSON-safe text: bytes of a list that were not UTF-8 (kept as lone surrogates)
    show as escapes, as the command line prints them."""
    return utf8_safe(text)


def _clean(value: object) -> object:
    """``_text`` for every string in a JSON value."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict):
        return {_text(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


class Watch:
    """One watched list: its file, how it looked, and who wants to hear of changes."""

    __slots__ = ("path", "seen", "streams", "subscribed")

    def __init__(self, path: str) -> None:
        self.path = path
        self.seen = _signature(path)
        self.subscribed = False  # by resources/subscribe (the handshake era)
        self.streams = 0  # open subscriptions/listen streams naming it (2026-07-28)


class Watcher:
    """The lists the client subscribed to, polled for changes.

    Over stdio a server has exactly one client, so a subscription is a flag per list;
    updates go out on the connection of the session that subscribed (an SDK
    ``ServerSession`` is made per request, but sends its notifications on the
    connection's own channel)."""

    def __init__(self, bus: InMemorySubscriptionBus) -> None:
        self.bus = bus
        self.watches: dict[str, Watch] = {}
        self.session: ServerSession | None = None

    def _watch(self, uri: str, path: str) -> Watch:
        watch = self.watches.get(uri)
        if watch is None:
            watch = self.watches[uri] = Watch(path)
        return watch

    def _release(self, uri: str) -> None:
        watch = self.watches.get(uri)
        if watch is not None and not watch.subscribed and watch.streams <= 0:
            del self.watches[uri]

    def subscribe(self, uri: str, path: str, session: ServerSession) -> None:
        self._watch(uri, path).subscribed = True
        self.session = session

    def unsubscribe(self, uri: str) -> None:
        watch = self.watches.get(uri)
        if watch is not None:
            watch.subscribed = False
            self._release(uri)

    def listen(self, targets: dict[str, str]) -> None:
        for uri, path in targets.items():
            self._watch(uri, path).streams += 1

    def unlisten(self, targets: dict[str, str]) -> None:
        for uri in targets:
            watch = self.watches.get(uri)
            if watch is not None:
                watch.streams -= 1
                self._release(uri)

    async def run(self) -> None:
        """Poll until cancelled; tell the client of every watched list that changed."""
        while True:
            await anyio.sleep(POLL_SECONDS)
            for uri, watch in list(self.watches.items()):
                now = _signature(watch.path)
                if now != watch.seen:
                    watch.seen = now
                    await self._notify(uri, watch)

    async def _notify(self, uri: str, watch: Watch) -> None:
        if watch.subscribed and self.session is not None:
            try:
                await self.session.send_resource_updated(uri)
            except Exception:  # the client is going away: nothing to tell, keep serving
                watch.subscribed = False
        if watch.streams > 0:
            await self.bus.publish(ResourceUpdated(uri=uri))


def _protocol_error(error: TodoError) -> MCPError:
    """A resource request that cannot be served, as the JSON-RPC error it is."""
    bad_request = isinstance(error, NotFoundError | UsageError)
    code = types.INVALID_PARAMS if bad_request else types.INTERNAL_ERROR
    return MCPError(code, one_line(error.message))


def build(defaults: Options) -> tuple[Server[Any], Watcher]:
    """The server over these global options, and the watcher to run beside it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("todocli-md")
    except PackageNotFoundError:  # run from a checkout that was never installed
        ours = "unknown"
    bus = InMemorySubscriptionBus()
    watcher = Watcher(bus)
    list_tools, call_tool = _tool_handlers(defaults)
    list_resources, list_templates, read_resource = _resource_handlers(defaults)
    subscribe, unsubscribe, listen = _subscription_handlers(defaults, watcher, ListenHandler(bus))
    server: Server[Any] = Server(
        "todo",
        version=ours,
        title="todocli",
        description="A markdown todo checklist for coding agents and the people beside them",
        instructions=mcp_tools.INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=listen,
    )
    return server, watcher


def _tool_handlers(defaults: Options) -> tuple[Any, Any]:
    """``tools/list`` and ``tools/call``: ``mcp_tools``' tools, their answers as
    the command line gives them."""

    async def list_tools(
        ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    title=tool.title,
                    description=tool.description,
                    input_schema=tool.input_schema,
                    output_schema=ENVELOPE_SCHEMA,
                    # (the hints MCP does not assume: destructive is its default
                    # for a tool that is not read-only, and the title is the tool's)
                    annotations=types.ToolAnnotations(
                        read_only_hint=tool.read_only, open_world_hint=False
                    ),
                )
                for tool in mcp_tools.TOOLS.values()
            ]
        )

    async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in mcp_tools.TOOLS:
            known = ", ".join(mcp_tools.TOOLS)
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name} (tools: {known})")
        # The engine blocks (file I/O, a lock held by another writer): off the loop,
        # so the poller and other requests go on meanwhile.
        reply = await anyio.to_thread.run_sync(
            mcp_tools.call, params.name, params.arguments, defaults
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_text(reply.text))],
            structured_content=_clean(reply.data),
            is_error=reply.failed,
        )

    return list_tools, call_tool


def _resource_handlers(defaults: Options) -> tuple[Any, Any, Any]:
    """``resources/list``, ``resources/templates/list`` and ``resources/read``: the
    lists as markdown."""

    async def list_resources(
        ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        try:
            found = await anyio.to_thread.run_sync(mcp_tools.resources, defaults)
        except TodoError as error:
            raise _protocol_error(error) from None
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri,
                    name=r.name,
                    description=r.description,
                    mime_type=mcp_tools.MARKDOWN,
                )
                for r in found
            ]
        )

    async def list_templates(
        ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=mcp_tools.SESSION_URI + "{session}",
                    name="session",
                    description="The todo list of a session (it need not exist yet)",
                    mime_type=mcp_tools.MARKDOWN,
                )
            ]
        )

    async def read_resource(
        ctx: Ctx, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            text = await anyio.to_thread.run_sync(mcp_tools.read, params.uri, defaults)
        except TodoError as error:
            raise _protocol_error(error) from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=params.uri, mime_type=mcp_tools.MARKDOWN, text=_text(text)
                )
            ]
        )

    return list_resources, list_templates, read_resource


def _subscription_handlers(
    defaults: Options, watcher: Watcher, listen_handler: ListenHandler
) -> tuple[Any, Any, Any]:
    """``resources/subscribe``, ``resources/unsubscribe`` and
    ``subscriptions/listen``: the lists they name watched by ``watcher``."""

    async def target(uri: str) -> str:
        try:
            found = await anyio.to_thread.run_sync(mcp_tools.resource, uri, defaults)
        except TodoError as error:
            raise _protocol_error(error) from None
        return found.path

    async def subscribe(ctx: Ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        watcher.subscribe(params.uri, await target(params.uri), ctx.session)
        return types.EmptyResult()

    async def unsubscribe(ctx: Ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        watcher.unsubscribe(params.uri)
        return types.EmptyResult()

    async def listen(
        ctx: Ctx, params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        """The SDK's stream, with the lists it names watched while it is open (a URI
        that names no list is honored and never fires, as the SDK does)."""
        targets: dict[str, str] = {}
        for uri in params.notifications.resource_subscriptions or ():
            try:
                targets[uri] = await target(uri)
            except MCPError:
                continue
        watcher.listen(targets)
        try:
            return await listen_handler(ctx, params)
        finally:
            watcher.unlisten(targets)

    return subscribe, unsubscribe, listen


async def _serve(defaults: Options) -> None:
    server, watcher = build(defaults)
    async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as group:
        group.start_soon(watcher.run)
        await server.run(read_stream, write_stream, server.create_initialization_options())
        group.cancel_scope.cancel()


def run(defaults: Options) -> int:
    """Serve one client over stdin and stdout until it hangs up."""
    gc.enable()  # this one runs on (the one-shot commands turn the collector off)
    anyio.run(_serve, defaults)
    return 0
