"""Undo and redo: every state of the list a person could have seen is a revision,
and undo puts back exactly the bytes the list had before the change it takes back."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support_cli import Todo, todo_in_process, todo_process
from todocli.base import path_key
from todocli.errors import StorageError
from todocli.storage.store import Store

PERSONS_FILE = b"# Project\n\nSome prose a person wrote.\n\n- [ ] task 1\n- [ ] task 2\n"


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def revisions(todo: Todo, *args: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(todo(*args, "history", "--json").out)["data"][
        "revisions"
    ]
    return rows


# -- the tester's reproductions --------------------------------------------------------------


def test_undo_after_the_first_write_to_a_persons_file_puts_it_back(tmp_path: Path) -> None:
    """A person's TODO.md, todo's first write to it, undo: the person's bytes, not an
    empty file (a real process, as the tester ran it)."""
    path = tmp_path / "TODO.md"
    path.write_bytes(PERSONS_FILE)
    assert todo_process("--file", str(path), "done", "task 1").code == 0
    undone = todo_process("--file", str(path), "undo")
    assert undone.code == 0, undone.err
    assert path.read_bytes() == PERSONS_FILE


def test_undo_never_empties_a_file_todo_found_already_there(tmp_path: Path) -> None:
    """Revision 0 (the empty list) was never a state of a person's file: undo with no
    write yet, or undo walked back past todo's first write, says there is nothing to
    undo and leaves the person's bytes as they are (real processes)."""
    path = tmp_path / "TODO.md"
    path.write_bytes(PERSONS_FILE)
    never = todo_process("--file", str(path), "undo")
    assert (never.code, path.read_bytes()) == (1, PERSONS_FILE), never.err
    assert "nothing to undo" in never.err
    assert todo_process("--file", str(path), "done", "task 1").code == 0
    assert todo_process("--file", str(path), "undo").code == 0
    assert path.read_bytes() == PERSONS_FILE
    further = todo_process("--file", str(path), "undo")
    assert (further.code, path.read_bytes()) == (1, PERSONS_FILE), further.err
    assert "as todo first found it" in further.err


def test_a_file_todo_never_wrote_is_a_revision_by_hand(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_bytes(PERSONS_FILE)
    todo("--file", str(path), "done", "task 1")
    rows = revisions(todo, "--file", str(path))
    assert [(r["rev"], r["by_hand"]) for r in rows] == [(2, False), (1, True)]
    shown = todo("--file", str(path), "history").out.splitlines()
    assert shown[1].endswith("[0/2] Pending: task 1; task 2.  (by hand)")


def test_undo_after_a_write_that_took_in_a_hand_edit_puts_the_hand_edit_back(
    todo: Todo, home: Path
) -> None:
    todo("add", "A", "B")
    listing(home).write_bytes(listing(home).read_bytes() + b"- [ ] H typed by hand\n")
    edited = listing(home).read_bytes()
    todo("done", "A")
    undone = todo("undo")
    assert undone.code == 0
    assert "Removed: H typed by hand" not in undone.out
    assert listing(home).read_bytes() == edited


def test_undo_walks_back_through_every_state_hand_edits_included(todo: Todo, home: Path) -> None:
    todo("add", "A")
    first = listing(home).read_bytes()
    listing(home).write_bytes(first + b"Prose by hand.\n")
    by_hand = listing(home).read_bytes()
    todo("add", "B")
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == by_hand
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == first
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == b""
    assert todo("undo").code == 1


# -- redo ---------------------------------------------------------------------------------


def test_redo_takes_successive_undos_back_and_a_write_ends_the_chain(
    todo: Todo, home: Path
) -> None:
    todo("add", "A")
    todo("add", "B")
    states = [listing(home).read_bytes()]
    todo("add", "C")
    states.append(listing(home).read_bytes())
    todo("undo")
    todo("undo")
    redone = todo("redo")
    assert redone.code == 0
    assert "Restored revision #2 (now #6)." in redone.out
    assert listing(home).read_bytes() == states[0]
    todo("undo")  # an undo after a redo takes the redo back
    assert listing(home).read_text() == "# Todos\n- [/] A\n"
    todo("redo")
    todo("redo")
    assert listing(home).read_bytes() == states[1]
    nothing = todo("redo")
    assert (nothing.code, nothing.err) == (
        1,
        "todo: nothing to redo: no undo since the last change (see: todo history)\n",
    )
    todo("undo")
    todo("add", "D")
    assert todo("redo").code == 1  # a new write ends what can be redone
    assert "D" in listing(home).read_text()


def test_redo_after_a_hand_edit_has_nothing_to_redo_and_keeps_the_edit(
    todo: Todo, home: Path
) -> None:
    todo("add", "A")
    todo("add", "B")
    todo("undo")
    listing(home).write_bytes(listing(home).read_bytes() + b"by hand\n")
    edited = listing(home).read_bytes()
    assert todo("redo").code == 1
    assert listing(home).read_bytes() == edited


# -- every hint that promises the lines back keeps its promise ----------------------------------


def test_the_hint_after_a_snapshot_dropped_open_tasks_brings_the_persons_file_back(
    todo: Todo, tmp_path: Path
) -> None:
    path = tmp_path / "TODO.md"
    path.write_bytes(b"# Plan\n\nWhy we do this.\n\n- [ ] A\n- [ ] B\n- [ ] C\n")
    seen = (
        '{"todos": [{"content": "A", "status": "in_progress"}, '
        '{"content": "B", "status": "pending"}, {"content": "C", "status": "pending"}]}'
    )
    todo("--file", str(path), "apply", stdin=seen)  # the agent has seen B and C
    path.write_bytes(path.read_bytes().replace(b"Why we do this.", b"Why we do this, edited."))
    before = path.read_bytes()
    dropped = todo(
        "--file", str(path), "apply", stdin='{"todos": [{"content": "A", "status": "completed"}]}'
    )
    hint = f"todo --file {shlex.quote(str(path))} undo"
    assert f'dropped 2 open tasks: "B", "C" (get them back with: {hint})' in dropped.out
    assert todo(*shlex.split(hint)[1:]).code == 0
    assert path.read_bytes() == before


def test_the_hints_name_the_list_they_are_about_when_typed_in_another_shell(
    tmp_path: Path,
) -> None:
    """A hint is typed by a person in a shell of their own, without the agent's
    ``--file`` or ``--session``: it names the list, so typed as printed it acts on that
    list, not on the default session's (real processes; the path has a space)."""
    path = tmp_path / "my list" / "TODO.md"
    path.parent.mkdir()
    path.write_bytes(b"- [ ] A\n- [ ] B\n")
    assert todo_process("add", "in the default session").code == 0
    default = Path(os.environ["TODOCLI_HOME"], "sessions", "default.md")
    untouched = default.read_bytes()
    seen = (
        '{"todos": [{"content": "A", "status": "in_progress"}, '
        '{"content": "B", "status": "pending"}]}'
    )
    assert todo_process("--file", str(path), "apply", stdin=seen).code == 0
    before = path.read_bytes()
    dropped = todo_process(
        "--file", str(path), "apply", stdin='{"todos": [{"content": "A", "status": "pending"}]}'
    )
    hint = dropped.out.split("(get it back with: ")[1].split(")\n")[0]
    assert todo_process(*shlex.split(hint)[1:]).code == 0
    assert path.read_bytes() == before
    assert default.read_bytes() == untouched
    # A session other than the default: the redo after an undo over a hand edit.
    assert todo_process("--session", "s1", "add", "X").code == 0
    session = Path(os.environ["TODOCLI_HOME"], "sessions", "s1.md")
    session.write_bytes(session.read_bytes() + b"- [ ] typed by hand\n")
    edited = session.read_bytes()
    undone = todo_process("--session", "s1", "undo")
    assert "(get it back with: todo --session s1 redo)." in undone.out, undone.out
    hint = undone.out.split("(get it back with: ")[1].split(").")[0]
    assert todo_process(*shlex.split(hint)[1:]).code == 0
    assert session.read_bytes() == edited
    assert default.read_bytes() == untouched


def test_the_hint_after_a_write_overrode_a_hand_edit_brings_the_hand_edit_back(
    todo: Todo, home: Path
) -> None:
    todo("add", "A", "B")
    listing(home).write_text(listing(home).read_text().replace("- [ ] B", "- [x] B"))
    edited = listing(home).read_bytes()
    payload = (
        '{"todos": [{"content": "A", "status": "in_progress"}, '
        '{"content": "B", "status": "abandoned"}]}'
    )
    result = todo("apply", stdin=payload)
    assert 'overrode hand edits to "B" (get them back with: todo undo)' in result.out
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == edited


def test_the_hint_after_an_undo_over_a_hand_edit_brings_the_hand_edit_back(
    todo: Todo, home: Path
) -> None:
    todo("add", "A")
    listing(home).write_bytes(b"# Todos\r\n- [/] A\r\n- [ ] typed by hand\r\n")
    edited = listing(home).read_bytes()
    undone = todo("undo")
    assert "The hand edit is kept as revision #2 (get it back with: todo redo)." in undone.out
    assert listing(home).read_text() == "# Todos\n- [/] A\n"
    assert todo("redo").code == 0
    assert listing(home).read_bytes() == edited


def _editor(tmp_path: Path, body: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\npath = sys.argv[-1]\n{body}\n")
    return f"{sys.executable} {script}"


def test_the_hint_after_an_edit_with_odd_lines_gives_the_edit_back(
    todo: Todo, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    body = "open(path, 'ab').write(b'- [?] odd\\r\\nprose\\n')"
    monkeypatch.setenv("EDITOR", _editor(tmp_path, body))
    result = todo("edit")
    assert result.code == 1
    kept = Path(result.err.split("Your edit is kept in ")[1].strip())
    assert kept.read_bytes() == b"# Todos\n- [/] A\n- [?] odd\r\nprose\n"


def test_the_hint_after_the_list_changed_while_editing_gives_the_edit_back(
    todo: Todo, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    body = (
        f"open({str(listing(home))!r}, 'ab').write(b'- [ ] meanwhile\\n')\n"
        "open(path, 'ab').write(b'- [ ] mine\\n')"
    )
    monkeypatch.setenv("EDITOR", _editor(tmp_path, body))
    result = todo("edit")
    assert result.code == 4
    kept = Path(result.err.split("Your edit is kept in ")[1].strip())
    assert kept.read_bytes() == b"# Todos\n- [/] A\n- [ ] mine\n"
    assert listing(home).read_bytes() == b"# Todos\n- [/] A\n- [ ] meanwhile\n"


# -- how the record of a hand edit fits with the rest -------------------------------------------


def test_a_write_that_fails_records_no_hand_edit(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    listing(home).write_bytes(listing(home).read_bytes() + b"by hand\n")

    def fail(*args: object, **kwargs: object) -> int:
        raise StorageError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(Store, "commit", fail)
        assert todo("add", "B").code == 6
        assert todo("undo").code == 6
    revs = sorted(os.listdir(home / "state" / "sessions" / "default" / "revs"))
    assert revs == ["00000001.by", "00000001.md"]  # the copy, and which command wrote it
    assert todo("done", "nothing like it").code != 0  # no write: nothing to record
    assert [r["rev"] for r in revisions(todo)] == [1]


def test_a_writer_stopped_after_taking_in_a_hand_edit_leaves_it_to_undo(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed between the list's replace and its copies' renames: the hand edit's
    revision and the write's are both staged, with the journal that names them; the
    next call finishes the write, and undo still gives the hand edit back."""
    todo("add", "A", "B")
    listing(home).write_bytes(listing(home).read_bytes() + b"typed by hand\n")
    edited = listing(home).read_bytes()
    real_replace = os.replace

    def stopped_before_rename(src: str, dst: str) -> None:
        if src.endswith(".pending"):
            raise OSError("the writer was killed here")
        real_replace(src, dst)

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", stopped_before_rename)
        assert todo("done", "A").code == 0
    revs = home / "state" / "sessions" / "default" / "revs"
    assert sorted(p.name for p in revs.iterdir()) == [
        "00000001.by",
        "00000001.md",
        "00000002.hand.pending",
        "00000002.md.pending",
        "00000003.by",  # recorded once the list landed
        "00000003.md.pending",
    ]
    assert (revs.parent / "journal").exists()
    written = listing(home).read_bytes()
    assert json.loads(todo("--json", "add", "C").out)["context"]["rev"] == 4  # 3 adopted
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == written
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == edited


def test_an_agents_view_names_the_revision_its_write_made_over_a_hand_edit(
    todo: Todo, home: Path
) -> None:
    todo("add", "A", "B")
    # A paragraph of its own (right under B it would go on B's text, as GitHub reads it).
    listing(home).write_bytes(listing(home).read_bytes() + b"\nProse by hand.\n")
    payload = '{"todos": [{"content": "A", "status": "completed"}, {"content": "B"}]}'
    written = json.loads(todo("--json", "apply", stdin=payload).out)
    assert written["context"]["rev"] == 3  # 2 is the hand edit
    view = home / "state" / "sessions" / "default" / "views" / "default.md"
    assert view.read_text() == "<!-- todo view: 3 -->\n"


def test_if_rev_still_means_todos_writes_not_hand_edits(todo: Todo, home: Path) -> None:
    todo("add", "A")
    listing(home).write_bytes(listing(home).read_bytes() + b"by hand\n")
    assert todo("add", "B", "--if-rev", "1").code == 0  # hand edit #2, the write #3
    assert json.loads(todo("--json").out)["context"]["rev"] == 3
    assert todo("add", "C", "--if-rev", "1").code == 4


def test_todo_edit_records_the_hand_edit_it_opened_on(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    todo("add", "A")
    listing(home).write_bytes(listing(home).read_bytes() + b"by hand\n")
    edited = listing(home).read_bytes()
    editor = tmp_path / "editor"
    editor.write_text('#!/bin/sh\nprintf -- "- [ ] from the editor\\n" >> "$1"\n')
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    assert todo("edit").code == 0
    assert todo("undo").code == 0
    assert listing(home).read_bytes() == edited


def test_marks_of_pruned_revisions_go_with_them(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("todocli.storage.store.KEEP_REVISIONS", 3)
    todo("add", "A")
    for n in range(3):
        listing(home).write_bytes(listing(home).read_bytes() + f"hand {n}\n".encode())
        todo("add", f"T{n}")
    # Revisions 2, 4 and 6 record hand edits; three revisions are kept, and a mark
    # (by hand, or which command wrote it) goes with its revision.
    names = sorted(os.listdir(home / "state" / "sessions" / "default" / "revs"))
    assert names == [
        "00000005.by",
        "00000005.md",
        "00000006.hand",
        "00000006.md",
        "00000007.by",
        "00000007.md",
    ]
    assert [(r["rev"], r["by_hand"]) for r in revisions(todo)] == [
        (7, False),
        (6, True),
        (5, False),
    ]


# -- the property: undo and redo give back exactly the bytes -----------------------------------

HAND_EDITS = st.sampled_from(
    [
        b"",
        b"- [ ] h\n",
        b"Prose by hand.\r\n",
        b"# Heading\n\n- [x] a\n",
        b"- [ ] a\n- [ ] no final newline",
    ]
)
# An agent's full snapshot (Claude Code's TodoWrite), under a name or none: first
# snapshots included, each removes only what its agent saw, and undo takes it back too.
SNAPSHOTS = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["pending", "completed"])),
    max_size=3,
    unique_by=lambda item: item[0],
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), HAND_EDITS, st.booleans()),
        st.tuples(st.just("snapshot"), st.sampled_from(["", "one"]), SNAPSHOTS),
        st.tuples(st.sampled_from(["add", "done", "start"]), st.sampled_from(["a", "b"])),
        st.tuples(st.sampled_from(["undo", "redo"])),
        st.tuples(st.just("undo")),  # undo twice as often: long chains
    ),
    max_size=14,
)


class History:
    """What the revisions must hold, told from outside: every revision is a state the
    file was seen in, and the undo chain walks back through them."""

    def __init__(self) -> None:
        self.states = [b""]  # revision n's bytes; revision 0 is the empty list
        self.hand: set[int] = set()
        self.base: int | None = None  # where an unbroken undo chain stands
        self.redo: list[int] = []

    def took(self, before: bytes, after: bytes, rev: int) -> None:
        """A write turned ``before`` into ``after`` as revision ``rev``."""
        last = len(self.states) - 1
        if before != self.states[last]:  # the state a person left: recorded first
            self.states.append(before)
            self.hand.add(last + 1)
        self.states.append(after)
        assert rev == len(self.states) - 1, "every state before a write is a revision"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=STEPS)
def test_undo_and_redo_give_back_exactly_the_bytes(
    steps: list[tuple[object, ...]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        _run_steps(steps, folder / "TODO.md", capsys, monkeypatch)
    finally:
        shutil.rmtree(folder)


def _run_steps(
    steps: list[tuple[object, ...]],
    path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = History()
    rev = 0
    for step in steps:
        before = path.read_bytes() if path.exists() else b""
        if step[0] == "hand":
            _, text, append = step
            assert isinstance(text, bytes)
            path.write_bytes(before + text if append else text)
            past = os.stat(path).st_mtime - 5  # an old save: no settling to wait for
            os.utime(path, (past, past))
            os.utime(path.parent, (past, past))
            continue
        edited = before != model.states[rev]
        chain = model.base is not None and not edited  # an unbroken run of undos and redos
        at, can = -1, False
        if step[0] == "undo":
            at = model.base if chain and model.base is not None else rev + 1 if edited else rev
            # Revision 0 is not a state of a file todo found already there.
            can = at > 1 or (at == 1 and not edited and 1 not in model.hand)
        elif step[0] == "redo":
            can = chain and bool(model.redo)
        args, stdin = [*map(str, step)], None
        if step[0] == "snapshot":
            _, agent, items = step
            assert isinstance(items, list)
            args = ["apply", "--agent", str(agent)] if agent else ["apply"]
            stdin = json.dumps({"todos": [{"content": c, "status": s} for c, s in items]})
        run = todo_in_process(
            capsys, monkeypatch, "--file", str(path), "--json", *args, stdin=stdin
        )
        after = path.read_bytes() if path.exists() else b""
        data = json.loads(run.out)
        wrote = data["status"] == "success" and data["context"]["rev"] != rev
        if step[0] in ("undo", "redo"):
            assert wrote == can, f"{step[0]} writes exactly when there is something to take back"
        if not wrote:
            assert after == before, f"{step}: nothing written, nothing changed"
            continue
        model.took(before, after, data["context"]["rev"])
        rev = data["context"]["rev"]
        if step[0] == "undo":
            assert after == model.states[at - 1], "undo: the bytes before the change it undid"
            model.redo = [*model.redo, at] if chain else [at]
            model.base = at - 1
        elif step[0] == "redo":
            at = model.redo.pop()
            assert after == model.states[at], "redo: the bytes before the undo it takes back"
            model.base = at
        else:
            model.base, model.redo = None, []
    rows = json.loads(
        todo_in_process(capsys, monkeypatch, "--file", str(path), "--json", "history").out
    )["data"]["revisions"]
    revs = Path(os.environ["TODOCLI_HOME"], "state", "files", path_key(str(path.resolve())), "revs")
    for row in rows:
        kept = (revs / f"{row['rev']:08d}.md").read_bytes()
        assert kept == model.states[row["rev"]], "each revision holds the state it names"
    assert {row["rev"] for row in rows if row.get("by_hand")} == model.hand
