"""What a command reads besides its arguments: ``todo apply``'s payload (stdin or
``-i FILE``) and a harness hook's JSON (``--hook``)."""

from __future__ import annotations

import os
import sys

from todocli.errors import StorageError, UsageError

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from todocli.app.commands import Options

HOOK_INPUT_BYTES = 1 << 20


def payload(input_file: str | None, limit: int) -> bytes:
    """``todo apply``'s input, at most ``limit`` bytes and one more (so that the
    reader can tell the input was too big)."""
    if input_file is not None and input_file != "-":
        try:
            with open(input_file, "rb") as handle:
                return handle.read(limit + 1)
        except OSError as exc:
            raise StorageError(f"cannot read {input_file}: {exc.strerror or exc}") from None
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("todo apply reads JSON from stdin: pipe a payload in, or use -i FILE")
    return sys.stdin.buffer.read(limit + 1)


def hook_session(options: Options) -> Options:
    """``--hook``: read the harness hook's JSON on stdin; its ``session_id`` names
    the session (made safe, as ``todo apply`` does with an envelope), unless ``-s``
    or ``TODOCLI_SESSION`` names one. So a Stop hook checks the list the agent's
    own-tool hook writes."""
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("--hook reads the hook's JSON from stdin")
    from todocli.engine.dialects import decode

    value = decode(sys.stdin.buffer.read(HOOK_INPUT_BYTES + 1), HOOK_INPUT_BYTES)
    # Augment names the session conversation_id
    session = (
        value.get("session_id", value.get("conversation_id")) if isinstance(value, dict) else None
    )
    if (
        isinstance(session, str)
        and options.session is None
        and not os.environ.get("TODOCLI_SESSION")
    ):
        from todocli.engine.agents import safe_session

        options.session = safe_session(session)
    return options
