"""The settings the engine and the store obey, with the spec's defaults.

Reading them from the config file and the environment is ``config.py``'s job; this
module only says what they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DropPolicy(StrEnum):
    """What a snapshot that removes open tasks does."""

    WARN = "warn"
    REJECT = "reject"
    ALLOW = "allow"


@dataclass(frozen=True)
class Settings:
    max_tasks: int = 50
    max_field_bytes: int = 200
    max_note_bytes: int = 2000
    max_input_bytes: int = 1024 * 1024
    max_in_progress: int = 1  # 0: unlimited
    snapshot_drop: DropPolicy = DropPolicy.WARN
    wipe_on_complete: bool | None = None  # None: on for sessions, off for --file lists
    clear_delay: float = -1.0  # seconds; negative: never auto-clear
    lock_timeout: float = 10.0
    remind_every: int = 3
