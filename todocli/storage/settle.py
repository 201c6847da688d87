"""Waiting out a save under way (``Store.settle``): only a call that finds the list
changed by someone else, lately or left empty, loads this module.

An editor's save is not one step: it may empty the file and write it a moment
later, or rename the old file away and write a new one. The list is watched until
todo has seen it unchanged (the same bytes, size, time and inode) for the
setting ``save_pause`` on its own clock (``files.monotonic``): a save in chunks,
with a pause between them shorter than that, is taken whole.
"""

from __future__ import annotations

import time

from todocli.base import TYPE_CHECKING
from todocli.storage import files

if TYPE_CHECKING:
    from todocli.storage.store import Store

POLL_SECONDS = 0.02


def pause(seconds: float) -> None:
    """Wait a moment for a save under way (a seam: tests make an editor's save land
    while a reader waits here, and move ``files.monotonic`` on instead of sleeping)."""
    time.sleep(seconds)


def wait_for_save(store: Store, text: str, last: str | None, longest: float) -> str:
    """The list once it has been still for ``store.quiet_ns`` and is no longer
    ``unfinished``, or as it is after ``longest`` seconds. ``text``: the list as
    just read; ``last``: what todo last wrote."""
    started = files.monotonic()
    quiet = store.quiet_ns / 1e9
    deadline = started + longest
    looked = _look(store, text)
    still_since = started
    while files.monotonic() < deadline:
        pause(POLL_SECONDS)
        text = store.read()
        now = files.monotonic()
        look = _look(store, text)
        if look != looked:
            looked, still_since = look, now
        elif now - still_since >= quiet and not store.unfinished(text, last):
            break
    return text


def _look(store: Store, text: str) -> tuple[str, tuple[int, int, int, int] | None]:
    """What ``wait_for_save`` compares from one look to the next: the bytes just
    read and the status of the very file they were read from."""
    return text, None if store._seen is None else store._seen[1]
