"""The engine: operations on a list, snapshots, merges; it knows no agent tool
(those are ``todocli.agents``).

This module holds the settings the engine and the store obey, with their
defaults (reading them from the config file and the environment is
``storage/config.py``'s job), and ``OpFailure``, the one error every room of the
engine raises for an op it cannot apply (``ops`` runs the batch; the rest are its
rooms, and each imports it from here: none imports ``ops`` but for types). Here,
not in modules of their own, because every call reads the settings and loads this
package anyway.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Choice, Value
from todocli.errors import InvalidParamError

if TYPE_CHECKING:
    from typing import ClassVar


class DropPolicy(Choice):
    """What a snapshot that removes open tasks does."""

    __slots__ = ()
    ALL: ClassVar[tuple[DropPolicy, ...]]
    WARN: ClassVar[DropPolicy]
    REJECT: ClassVar[DropPolicy]
    ALLOW: ClassVar[DropPolicy]


# The limits a plan has its own keys for (``Settings.for_plan``).
_PLAN_LIMITS = ("max_tasks", "max_field_bytes")


class Settings(Value):
    """Limits and switches; every field is a config key (and a TODOCLI_<KEY> variable)."""

    def __init__(
        self,
        max_tasks: int = 50,
        max_field_bytes: int = 200,
        max_note_bytes: int = 2000,
        max_input_bytes: int = 1024 * 1024,
        max_file_bytes: int = 4 * 1024 * 1024,  # the most a list (or a revision) may hold
        max_in_progress: int = 1,  # 0: unlimited
        snapshot_drop: DropPolicy = DropPolicy.WARN,
        wipe_on_complete: bool | None = None,  # None: on for sessions, off for --file lists
        clear_delay: float = -1.0,  # seconds; negative: never auto-clear
        lock_timeout: float = 10.0,
        remind_every: int = 3,
        claim_timeout: float = 1800.0,  # seconds an agent may not write before its claim lapses
        reply: str = "lean",  # what a write prints: "lean" (changes, recap), "full" (+ list)
        check_timeout: float = 600.0,  # seconds a task's check may run before it is ended
        save_pause: float = 0.5,  # seconds a changed list must stay still to count as saved
        plan_max_tasks: int = 10_000,  # max_tasks for a project or --file plan
        plan_max_field_bytes: int = 8192,  # max_field_bytes for a project or --file plan
        plan: bool = False,  # the limits in force are a plan's (not a config key)
    ) -> None:
        self.max_tasks = max_tasks
        self.max_field_bytes = max_field_bytes
        self.max_note_bytes = max_note_bytes
        self.max_input_bytes = max_input_bytes
        self.max_file_bytes = max_file_bytes
        self.max_in_progress = max_in_progress
        self.snapshot_drop = snapshot_drop
        self.wipe_on_complete = wipe_on_complete
        self.clear_delay = clear_delay
        self.lock_timeout = lock_timeout
        self.remind_every = remind_every
        self.claim_timeout = claim_timeout
        self.reply = reply
        self.check_timeout = check_timeout
        self.save_pause = save_pause
        self.plan_max_tasks = plan_max_tasks
        self.plan_max_field_bytes = plan_max_field_bytes
        self.plan = plan

    def for_plan(self) -> Settings:
        """The settings for a plan someone else keeps (a project's or a ``--file``
        plan): its own task and text limits, so that what it already holds is read
        and edited; an agent's session list keeps ``max_tasks`` and
        ``max_field_bytes``."""
        return self.replace(
            max_tasks=self.plan_max_tasks,
            max_field_bytes=self.plan_max_field_bytes,
            # A plan's own snapshot (each text twice in some tools' shapes) comes back.
            max_input_bytes=max(self.max_input_bytes, 4 * self.max_file_bytes),
            plan=True,
        )

    def key(self, name: str) -> str:
        """The config key a limit in force comes from, for a message naming it."""
        return f"plan_{name}" if self.plan and name in _PLAN_LIMITS else name


class OpFailure(Exception):
    """An operation that cannot be applied; the batch records it and goes on."""

    def __init__(self, message: str, code: str = InvalidParamError.code, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path
