"""The settings the engine and the store obey, with the spec's defaults.

Reading them from the config file and the environment is ``config.py``'s job; this
module only says what they are.
"""

from __future__ import annotations

from todocli.document.model import Choice, Value

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import ClassVar


class DropPolicy(Choice):
    """What a snapshot that removes open tasks does."""

    __slots__ = ()
    ALL: ClassVar[tuple[DropPolicy, ...]]
    WARN: ClassVar[DropPolicy]
    REJECT: ClassVar[DropPolicy]
    ALLOW: ClassVar[DropPolicy]


DropPolicy._define(WARN="warn", REJECT="reject", ALLOW="allow")


class Settings(Value):
    """Limits and switches; every field is a config key (and a TODOCLI_<KEY> variable)."""

    __slots__ = (
        "clear_delay",
        "lock_timeout",
        "max_field_bytes",
        "max_file_bytes",
        "max_in_progress",
        "max_input_bytes",
        "max_note_bytes",
        "max_tasks",
        "remind_every",
        "snapshot_drop",
        "wipe_on_complete",
    )

    def __init__(
        self,
        max_tasks: int = 50,
        max_field_bytes: int = 200,
        max_note_bytes: int = 2000,
        max_input_bytes: int = 1024 * 1024,
        max_file_bytes: int = 4 * 1024 * 1024,
        max_in_progress: int = 1,
        snapshot_drop: DropPolicy = DropPolicy.WARN,
        wipe_on_complete: bool | None = None,
        clear_delay: float = -1.0,
        lock_timeout: float = 10.0,
        remind_every: int = 3,
    ) -> None:
        self.max_tasks = max_tasks
        self.max_field_bytes = max_field_bytes
        self.max_note_bytes = max_note_bytes
        self.max_input_bytes = max_input_bytes
        self.max_file_bytes = max_file_bytes  # the most a list (or a revision) may hold
        self.max_in_progress = max_in_progress  # 0: unlimited
        self.snapshot_drop = snapshot_drop
        self.wipe_on_complete = wipe_on_complete  # None: on for sessions, off for --file lists
        self.clear_delay = clear_delay  # seconds; negative: never auto-clear
        self.lock_timeout = lock_timeout
        self.remind_every = remind_every

    def replace(self, **changes: object) -> Settings:
        """A copy with some fields changed."""
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Settings(**values)
