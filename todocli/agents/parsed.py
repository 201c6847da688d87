"""What an agent tool's payload asks for, as its reader (``detect``) gives it:
a query, a whole list or updates. Loaded with a tool's reader, not for todocli's
own shapes nor Claude Code's TodoWrite: a class costs every call that makes it
about 70,000 instructions.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from todocli.engine.snapshot import Item


class Parsed:
    """What a tool's payload asks for: a query (``items`` None), a whole list, or
    updates (``merge``). Made once, never changed."""

    __slots__ = ("dialect", "items", "merge", "summary", "warnings")

    def __init__(
        self,
        dialect: str,
        items: list[Item] | None = None,
        summary: str | None = None,
        merge: bool = False,
        warnings: list[str] | None = None,
    ) -> None:
        self.dialect = dialect
        self.items = items  # None: a read
        self.summary = summary
        self.merge = merge
        self.warnings = tuple(warnings or ())
