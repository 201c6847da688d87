"""What a command that answers with something other than a list gives back, for the
renderers. (Its own module: the agent's everyday commands answer with a list and
need not load it.)"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


class Report:
    """What a command that answers with something other than a list gives back
    (``todo sessions``, ``history``, ``config``, ...): its data, the body of the
    ``--json`` envelope, and its text, what it prints otherwise."""

    __slots__ = ("data", "file", "rev", "session", "text")

    def __init__(
        self,
        data: dict[str, Any],
        text: str,
        *,
        session: str | None = None,
        file: str | None = None,
        rev: int | None = None,
    ) -> None:
        self.data = data
        self.text = text
        self.session = session  # the list it is about, when it is about one
        self.file = file
        self.rev = rev
