"""Writing for a terminal, a pipe or a completion script, shared by both front ends:
every character that could drive a terminal escaped, and stdout's failures told
apart from stderr's."""

from __future__ import annotations

import sys

from todocli.base import TYPE_CHECKING
from todocli.errors import StorageError
from todocli.escapes import Shown, one_line, safe
from todocli.storage.files import reason

if TYPE_CHECKING:
    from typing import TextIO

    from todocli.app.commands import Outcome


class OutputError(StorageError):
    """Standard output could not be written (closed, or its disk full)."""


STDERR = "stderr"  # write(..., STDERR): to whatever sys.stderr is then, even None


def write(text: str | list[str], stream: TextIO | str | None = None) -> None:
    """Write text for a terminal, a pipe or a completion script: every character
    that could drive a terminal (see ``escapes``) shown as an escape, as UTF-8.

    Everything the command line prints goes through here, so nothing a list, a log
    or an argument holds reaches a terminal raw. (JSON is made safe before, as
    ``\\uXXXX`` escapes: ``render.json_text``; escaping it again changes nothing.)
    A failing stdout is an ``OutputError``; a failing or closed stderr is ignored
    (there is nowhere left to say so). A ``Shown`` text is not read through again
    (a large plan's: megabytes). A list is lines ``safe`` has shown
    (``render.plain_lines``), each written with a newline and encoded on its own:
    one line of wider characters (the dash of ``todo show``'s phase line) leaves
    the others as they are, not widened and encoded a character at a time.
    """
    if isinstance(text, str) and not isinstance(text, Shown):
        text = safe(text)
    if stream == STDERR or (stream is not None and stream is sys.stderr):
        out, to_stdout = sys.stderr, False
    else:
        out = sys.stdout if stream is None else stream
        to_stdout = stream is None or stream is sys.stdout
    if out is None:
        if to_stdout:
            raise OutputError("standard output is closed")
        return
    try:
        buffer = getattr(out, "buffer", None)
        if buffer is not None:
            out.flush()
            if isinstance(text, str):
                buffer.write(text.encode("utf-8", "backslashreplace"))
            else:
                # Without arguments: a codec looked up by name costs 300 instructions a line.
                try:
                    encoded = [line.encode() for line in text] or [b""]
                except UnicodeEncodeError:  # a lone surrogate in a line ``safe`` has not shown
                    encoded = [line.encode("utf-8", "backslashreplace") for line in text]
                encoded.append(b"")  # the last newline, without copying the rest again
                buffer.write(b"\n".join(encoded))
            buffer.flush()
        else:
            out.write(text if isinstance(text, str) else "\n".join(text) + "\n")
    except BrokenPipeError:
        if to_stdout:
            raise
    except OSError as exc:
        if to_stdout:
            raise OutputError(f"cannot write to standard output: {reason(exc)}") from None


def failure_message(outcome: Outcome) -> str:
    """The one stderr line of a failure."""
    from todocli.app.render import error_lines

    if outcome.error is not None:
        return one_line(outcome.error.message)
    assert outcome.result is not None
    lines = error_lines(outcome.result)
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    return one_line(lines[0]) + more


WARNINGS_CHARS = 499  # what one call may print of warnings on stderr, at most


def warning_lines(warnings: list[str]) -> list[str]:
    """``todo: warning: ...`` lines for stderr, together under ``WARNINGS_CHARS``
    whatever a plan holds: a long warning is shortened with an ellipsis, and those
    past the budget are counted on a last line."""
    lines: list[str] = []
    room = WARNINGS_CHARS - 40  # kept for the count of those left out
    for n, warning in enumerate(warnings):
        line = f"todo: warning: {one_line(warning)}"
        if len(line) + 1 > room:
            if room > 80:
                line = line[: room - 2] + "…"
            else:
                lines.append(f"todo: warning: (+{len(warnings) - n} more warnings)\n")
                break
        lines.append(line + "\n")
        room -= len(line) + 1
    return lines
