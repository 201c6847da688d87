"""``todo serve``: the board over real HTTP (uvicorn on a loopback port): the token,
Host and Origin checks, GETs that change nothing, escaping, the lists it shows,
the actions through the command line's own bodies, and live events."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import git
from tests.support_serve import Events, served

HAND_PAUSE = 0.15  # over TODOCLI_SAVE_PAUSE (0.1 s in the tests): a save is taken as done


def todo(*args: str, cwd: Path | None = None) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", *args], capture_output=True, text=True, cwd=cwd
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def two_lists(home: Path) -> Path:
    todo("init", "Write the parser", "Run tests")
    todo("note", "Run tests", "<script>alert(1)</script> & more")
    todo("--session", "other", "init", "Deploy", "Tell the team")
    return home / "sessions" / "default.md"


def test_nothing_is_served_without_the_token(two_lists: Path) -> None:
    with served() as board:
        for path in ("/", "/static/board.js", "/events", "/history?list=session:default"):
            status, _, body = board.request("GET", path)
            assert status == 403, path
            assert b"token" in body
        status, _, _ = board.request("GET", "/?token=wrong")
        assert status == 403
        status, headers, _ = board.request("GET", f"/?token={board.token}")
        assert status == 200
        cookie = headers["set-cookie"].split(";")[0]
        assert cookie == f"todo_token_{board.port}={board.token}"
        assert "httponly" in headers["set-cookie"].lower()
        # Then the page's own requests carry the cookie (the stylesheet, the script).
        status, _, body = board.request("GET", "/static/board.css", headers={"Cookie": cookie})
        assert status == 200
        assert b"prefers-color-scheme: dark" in body


def test_a_foreign_host_or_origin_is_refused(two_lists: Path) -> None:
    before = two_lists.read_bytes()
    with served() as board:
        path = f"/?token={board.token}"
        # DNS rebinding: another name that resolves to this machine
        status, _, body = board.request("GET", path, headers={"Host": f"evil.example:{board.port}"})
        assert status == 403
        assert b"Host" in body
        status, _, _ = board.request("GET", path, headers={"Origin": "http://evil.example"})
        assert status == 403
        act = {"list": "session:default", "action": "done", "task": "Run tests", "rev": 2}
        token = {"X-Todo-Token": board.token}
        status, _, body = board.request(
            "POST", "/api/act", act, token | {"Origin": "http://evil.example"}
        )
        assert status == 403
        assert b"Origin" in body
        status, _, _ = board.request(
            "POST", "/api/act", act, token | {"Sec-Fetch-Site": "cross-site"}
        )
        assert status == 403
        # The cookie is no token for a change: only the header is.
        cookie = {"Cookie": f"todo_token_{board.port}={board.token}"}
        status, _, _ = board.request("POST", f"/api/act?token={board.token}", act, cookie)
        assert status == 403
    assert two_lists.read_bytes() == before  # nothing was written


def test_get_never_changes_a_list(two_lists: Path, home: Path) -> None:
    before = two_lists.read_bytes()
    revs = sorted(os.listdir(home / "state" / "sessions" / "default" / "revs"))
    with served() as board:
        query = f"token={board.token}&list=session:default&action=done&task=Run+tests&rev=2"
        for path in ("/", "/api/act", "/history"):
            board.request("GET", f"{path}?{query}")
        status, _, _ = board.request("GET", f"/api/act?{query}")
        assert status == 405  # an action is a POST, never a GET
    assert two_lists.read_bytes() == before
    assert sorted(os.listdir(home / "state" / "sessions" / "default" / "revs")) == revs


def test_the_page_shows_every_list_escaped(two_lists: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "TODO.md").write_text("# Plan\n\n- [ ] Ship <b>it</b>\n- [!] Wait for review\n")
    env = {k: v for k, v in os.environ.items() if k != "TODOCLI_PROJECT"}
    todo("block", "Write the parser", "--reason", "waiting on <i>the spec</i>")
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        with served(env) as board:
            html = board.page()
    finally:
        os.chdir(cwd)
    assert 'data-list="session:default"' in html
    assert 'data-list="session:other"' in html
    assert 'data-list="project"' in html
    assert "Project plan (repo)" in html
    # Every text escaped: a note, a task, a reason (the one <script> is the board's own)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html
    assert html.count("<script") == 1
    assert "Ship &lt;b&gt;it&lt;/b&gt;" in html
    assert "blocked: waiting on &lt;i&gt;the spec&lt;/i&gt;" in html
    assert "<i>" not in html
    assert "<b>" not in html
    # status, grouping, who wrote it, a list needing the person stands out
    assert '<li class="task blocked" data-task="Write the parser">' in html
    assert "<h3>Plan</h3>" in html
    assert "by todo block" in html
    assert 'class="list needs-you"' in html
    # Read-only without scripts: every control is disabled until the script runs
    assert 'aria-label="Run tests" title="Alt+Up, Alt+Down: move it" disabled>' in html


def test_done_changes_exactly_that_task(two_lists: Path) -> None:
    before = two_lists.read_text()
    with served() as board:
        status, answer = board.act(list="session:default", action="done", task="Run tests", rev=2)
    assert status == 200, answer
    assert answer["ok"] is True
    after = two_lists.read_text()
    assert after == before.replace("- [ ] Run tests", "- [x] Run tests")
    assert "(todo serve done)" in todo("history")


def test_a_stale_page_keeps_the_hand_edit(two_lists: Path) -> None:
    with served() as board:
        rev = int(board.page().split('data-rev="', 1)[1].split('"', 1)[0])
        # A person's editor adds a task after the page was shown.
        two_lists.write_text(two_lists.read_text() + "- [ ] Added by hand\n")
        time.sleep(HAND_PAUSE)
        status, answer = board.act(list="session:default", action="done", task="Run tests", rev=rev)
        assert status == 200, answer
        text = two_lists.read_text()
        assert "- [x] Run tests" in text
        assert "- [ ] Added by hand" in text
        # A task renamed by hand meanwhile: refused, and the page gets the list as it is.
        two_lists.write_text(text.replace("Write the parser", "Write the lexer"))
        time.sleep(HAND_PAUSE)
        status, answer = board.act(
            list="session:default", action="start", task="Write the parser", rev=rev
        )
        assert status == 409
        assert "not found" in str(answer["message"])
        assert "Write the lexer" in str(answer["html"])
    assert "Write the lexer" in two_lists.read_text()


def test_undo_and_redo_from_the_page(two_lists: Path) -> None:
    with served() as board:
        _, answer = board.act(list="session:default", action="add", text="Write docs", rev=2)
        assert answer["ok"], answer
        assert "- [ ] Write docs" in two_lists.read_text()
        # An undo from a page that has not seen the add is refused: it would take back
        # what the person did not see.
        status, answer = board.act(list="session:default", action="undo", rev=2)
        assert status == 409
        assert "Write docs" in str(answer["html"])
        assert "- [ ] Write docs" in two_lists.read_text()
        _, answer = board.act(list="session:default", action="undo", rev=3)
        assert answer["ok"], answer
        assert "Write docs" not in two_lists.read_text()
        _, answer = board.act(list="session:default", action="redo", rev=4)
        assert answer["ok"], answer
        assert "- [ ] Write docs" in two_lists.read_text()
    history = todo("history")
    assert "todo serve undo" in history
    assert "todo serve redo" in history


def test_block_unblock_note_start(two_lists: Path) -> None:
    with served() as board:
        for action, text in (("block", "needs <the> key"), ("unblock", ""), ("note", "n1")):
            status, answer = board.act(
                list="session:default", action=action, task="Run tests", text=text, rev=0
            )
            assert status == 200, answer
        status, answer = board.act(list="session:default", action="start", task="Run tests", rev=0)
        assert status == 200, answer
        status, answer = board.act(list="nowhere", action="done", task="Run tests", rev=0)
        assert status == 404
        status, answer = board.act(list="session:default", action="rm", task="Run tests", rev=0)
        assert status == 400
    text = two_lists.read_text()
    assert "- [/] Run tests" in text
    assert "Blocked: needs <the> key" in text
    assert "n1" in text


def test_a_write_reaches_the_page_within_300_ms(
    two_lists: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_SAVE_PAUSE", "0.5")  # the default: a save is not waited for
    with served() as board:
        events = Events(board)
        try:
            time.sleep(0.2)  # the watcher has seen the lists as they are
            todo("done", "Run tests")  # an agent's todo, another process
            landed = time.monotonic()
            event, data = events.next()
            assert event == "list"
            assert time.monotonic() - landed < 0.3
            assert data["key"] == "session:default"
            assert "task completed" in data["html"]
            # A person's editor save, too.
            saved = time.monotonic()
            two_lists.write_text(two_lists.read_text() + "- [ ] Typed by hand\n")
            event, data = events.next()
            assert time.monotonic() - saved < 0.3  # no wait for the save pause
            assert "Typed by hand" in data["html"]
            # A new list: the whole board.
            todo("--session", "third", "init", "Brand new")
            event, data = events.next()
            assert event == "board"
            assert 'data-list="session:third"' in data["html"]
        finally:
            events.close()


def start_serve(*args: str, host: str = "127.0.0.1") -> tuple[subprocess.Popen[str], str]:
    """A real ``todo serve`` process, and the URL it printed (checked to be on ``host``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "todocli", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(f"todo board at http://{host}:"):
        proc.kill()
        raise AssertionError(line + proc.communicate(timeout=10)[1])
    return proc, line.split()[-1]


def test_todo_serve_prints_its_url_with_the_token(two_lists: Path) -> None:
    proc, url = start_serve()
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            html = response.read().decode()
        assert 'data-list="session:default"' in html
        assert "Run tests" in html
        token = url.split("token=", 1)[1]
        assert len(token) >= 40  # 32 random bytes
    finally:
        proc.terminate()
        proc.wait(10)


def test_todo_serve_refuses_what_a_server_does_not_take(two_lists: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", "--if-rev", "3", "serve"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "--if-rev" in proc.stderr


def test_edit_renames_exactly_that_task_and_move_reorders_its_lines(two_lists: Path) -> None:
    todo("add", "Ship it")
    todo("note", "Ship it", "after the review")
    before = two_lists.read_text()
    with served() as board:
        status, answer = board.act(
            list="session:default", action="edit", task="Run tests", text="Run all tests", rev=0
        )
        assert status == 200, answer
        renamed = two_lists.read_text()
        assert renamed == before.replace("- [ ] Run tests", "- [ ] Run all tests")
        # Dropped on the first task, from below: it takes that task's place.
        status, answer = board.act(
            list="session:default", action="move", task="Ship it", text="Write the parser", rev=0
        )
        assert status == 200, answer
        lines = two_lists.read_text().splitlines()
        assert lines[1:4] == ["- [ ] Ship it", "  > after the review", "- [/] Write the parser"]
        assert sorted(lines) == sorted(renamed.splitlines())  # the same lines, moved
        # From above: after the task it was dropped on.
        status, answer = board.act(
            list="session:default", action="move", task="Ship it", text="Run all tests", rev=0
        )
        assert status == 200, answer
        assert two_lists.read_text().splitlines()[-2:] == ["- [ ] Ship it", "  > after the review"]
        status, answer = board.act(
            list="session:default", action="edit", task="Ship it", text="a <!-- b", rev=0
        )
        assert status == 400
        assert "<!--" in str(answer["message"])
        status, answer = board.act(
            list="session:default", action="move", task="Gone", text="Ship it", rev=0
        )
        assert status == 409
    history = todo("history")
    assert "todo serve edit" in history
    assert "todo serve move" in history


def test_the_history_page_says_who_changed_what(two_lists: Path) -> None:
    with served() as board:
        board.act(list="session:default", action="done", task="Run tests", rev=0)
        status, _, body = board.request(
            "GET", f"/history?list=session%3Adefault&token={board.token}"
        )
        assert status == 200
        html = body.decode()
        assert "<td>todo serve done</td>" in html
        assert "<td>todo note</td>" in html
        assert "<th>What changed</th>" in html
        assert "<td>&quot;Run tests&quot; pending -&gt; completed</td>" in html
        assert "<td>no task added, removed or changed state</td>" in html  # the note
        assert "<td>todo init</td>" in html
        status, _, _ = board.request("GET", f"/history?list=..%2Fetc&token={board.token}")
        assert status == 404  # a list the board does not show: no path reaches the disk


def test_another_address_only_when_asked_and_with_a_warning(two_lists: Path) -> None:
    proc, url = start_serve("--host", "127.0.0.2", host="127.0.0.2")
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200
            policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "warning: serving on 127.0.0.2, not only this machine" in err


def test_a_list_with_git_conflict_markers_stands_out(two_lists: Path) -> None:
    text = two_lists.read_text()
    two_lists.write_text(text + "<<<<<<< ours\n- [ ] A\n=======\n- [ ] B\n>>>>>>> theirs\n")
    with served() as board:
        html = board.page()
    section = html.split('data-list="session:default"', 1)[1].split("</section>", 1)[0]
    assert "conflict markers" in section
    assert 'class="list needs-you" id="l-73657373696f6e3a64656661756c74"' in html


def test_a_done_task_whose_check_is_stale_stands_out(two_lists: Path) -> None:
    todo("add", "--check", "true", "Build it")
    todo("done", "--no-check", "Build it")
    with served() as board:
        html = board.page()
    assert '<span class="stale">check stale: no check ran</span>' in html
    assert "A done task's check is stale" in html
    assert 'class="list needs-you" id="l-73657373696f6e3a64656661756c74"' in html


def test_subtasks_are_set_in_under_their_parent(home: Path) -> None:
    """A Kiro-shaped plan (``1.`` with ``1.1`` and ``1.2`` nested, ``2.`` after):
    each subtask's item says how deep it is, in the file's order."""
    plan = home / "sessions" / "kiro.md"
    plan.parent.mkdir(parents=True, exist_ok=True)
    plan.write_text(
        "# Tasks\n\n- [ ] 1. Set up\n  - [ ] 1.1 Create folders\n    - [ ] 1.1.1 Name them\n"
        "  - [ ] 1.2 Write config\n- [ ] 2. Build\n"
    )
    time.sleep(HAND_PAUSE)
    with served() as board:
        html = board.page()
    items = [
        'data-task="1. Set up">',
        'data-task="1.1 Create folders" data-depth="1">',
        'data-task="1.1.1 Name them" data-depth="2">',
        'data-task="1.2 Write config" data-depth="1">',
        'data-task="2. Build">',
    ]
    places = [html.index(text) for text in items]
    assert places == sorted(places)  # the file's order


def test_a_list_says_which_agent_session_it_is_the_plan_of(two_lists: Path, tmp_path: Path) -> None:
    start = {
        "session_id": "other",
        "cwd": str(tmp_path / "site"),
        "hook_event_name": "SessionStart",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", "hook", "claude"],
        input=json.dumps(start),
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    with served() as board:
        html = board.page()
    other = html[html.index('data-list="session:other"') :]
    assert "the plan of claude in site" in other[: other.index("</p>")]
    default = html[html.index('data-list="session:default"') :]
    assert "the plan of" not in default[: default.index("</p>")]


def test_no_check_is_added_or_changed_from_the_page(two_lists: Path) -> None:
    """A task's check is the command line's (`todo add --check`, approved by `todo
    allow`): an edit, an add or a note carrying a check's comment is refused or
    stays text, and no task of the list has a check after it."""
    before = two_lists.read_text()
    with served() as board:
        for action, text in (
            ("edit", "Run tests <!-- check: touch /tmp/todo-pwned -->"),
            ("add", "Sneak <!-- check: true -->"),
        ):
            status, answer = board.act(
                list="session:default", action=action, task="Run tests", text=text, rev=0
            )
            assert status in (400, 409), answer  # refused, as the command line refuses it
            assert answer["ok"] is False
        assert two_lists.read_text() == before
        status, _ = board.act(
            list="session:default",
            action="note",
            task="Run tests",
            text="<!-- check: true -->",
            rev=0,
        )
    listing = json.loads(todo("--json", "show"))
    assert all("check" not in task for task in listing["data"]["todos"])
