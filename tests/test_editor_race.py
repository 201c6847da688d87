"""An editor's save that lands after a write's last look, before its replace.

The window is two system calls wide, but a process can be paused inside it. Where
a person edits the list, the write swaps its file in (``renameat2`` with
``RENAME_EXCHANGE``) and checks the file it replaced: a save found there is put
back and the batch applied again to it. Here the editor's save is made to land
exactly in that window.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support_cli import Todo
from todocli.storage import swap
from todocli.storage.store import Store


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def save_by_rename(path: Path, text: str) -> None:
    """As an editor with a safe save: a new file, renamed over the old one."""
    tmp = path.with_name(".editor-save")
    tmp.write_text(text)
    os.rename(tmp, path)


def editor_saves_after_the_last_look(
    monkeypatch: pytest.MonkeyPatch, path: Path, line: str
) -> list[str]:
    """Make an editor's save land once, just after the write's last look."""
    saved: list[str] = []
    last_look = Store._still_seen

    def look_then_save(self: Store) -> None:
        last_look(self)
        if not saved:
            saved.append(line)
            save_by_rename(path, path.read_text() + line)

    monkeypatch.setattr(Store, "_still_seen", look_then_save)
    return saved


needs_swap = pytest.mark.skipif(
    swap._renameat2() is None, reason="this system has no renameat2 to swap files with"
)


@needs_swap
@pytest.mark.parametrize("command", [["done", "A"], ["add", "C"], ["note", "A", "n"]])
def test_a_save_landing_after_the_last_look_is_kept_when_a_person_edits_the_list(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    assert todo("init", "A", "B").code == 0
    path = listing(home)
    path.write_text(path.read_text() + "- [ ] typed by hand\n")
    assert todo("start", "B").code == 0  # finds the hand edit: a person is near
    saved = editor_saves_after_the_last_look(monkeypatch, path, "- [ ] saved in the window\n")
    run = todo(*command)
    assert run.code == 0, run.err
    assert saved
    text = path.read_text()
    assert "- [ ] typed by hand\n" in text
    assert "- [ ] saved in the window\n" in text  # os.replace would have unlinked it
    assert {"done": "- [x] A", "add": "- [ ] C", "note": "  > n"}[command[0]] in text
    assert not [p.name for p in path.parent.iterdir() if p.name.startswith(".")]


def test_without_a_person_near_the_write_replaces_as_before(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No hand edit on record: no swap (its cost is paid only where a person edits),
    and a save in the window is lost as the README says."""
    assert todo("init", "A", "B").code == 0
    path = listing(home)
    exchanged: list[tuple[str, str]] = []

    def exchange(a: str, b: str) -> bool:
        exchanged.append((a, b))
        return False

    monkeypatch.setattr(swap, "exchange", exchange)
    editor_saves_after_the_last_look(monkeypatch, path, "- [ ] saved in the window\n")
    assert todo("done", "A").code == 0
    assert exchanged == []
    assert "saved in the window" not in path.read_text()


@needs_swap
def test_exchange_swaps_two_files_and_says_when_it_cannot(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("first")
    b.write_text("second")
    assert swap.exchange(str(a), str(b)) is True
    assert (a.read_text(), b.read_text()) == ("second", "first")
    with pytest.raises(FileNotFoundError):
        swap.exchange(str(tmp_path / "missing"), str(b))


def test_a_fifo_where_the_person_marker_goes_does_not_hang_the_write(tmp_path: Path) -> None:
    """The marker is bookkeeping written while the lock is held: a FIFO there must
    neither block the write nor be written to."""
    import subprocess
    import sys

    env = {
        **os.environ,
        "TODOCLI_HOME": str(tmp_path / "h"),
        "TODOCLI_CONFIG": str(tmp_path / "c.toml"),
    }
    command = [sys.executable, "-m", "todocli"]
    assert subprocess.run([*command, "init", "A", "B"], env=env, check=False).returncode == 0
    state = tmp_path / "h" / "state" / "sessions" / "default"
    os.mkfifo(state / "person")
    path = tmp_path / "h" / "sessions" / "default.md"
    path.write_text(path.read_text() + "- [ ] typed by hand\n")
    done = subprocess.run(
        [*command, "done", "A"], env=env, capture_output=True, timeout=20, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "- [x] A" in path.read_text()
