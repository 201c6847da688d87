"""Nothing a list, a log or an argument holds reaches a terminal raw (issue 11).

A list is seeded by hand with every class of dangerous character in every place
text can stand (summary, phase names, tasks, active forms, notes, the completion
log, file names), and every command that prints runs as a real process: plain,
JSON, rich on a pseudo-terminal, ``todo watch``, completion candidates, diagnostics
and usage errors. Their stdout and stderr, as bytes, must hold no C0 control but
newline and tab, no DEL, no C1 control, no byte that is not UTF-8, and no format
character (bidi controls, zero-width characters, the BOM) or line separator.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from tests.support_cli import Todo, start_todo, todo_process

# Every class at once: an OSC that retitles the window (ended by BEL), a CSI that
# clears the screen, backspace, DEL, the C1 CSI U+009B, the raw byte 0x9B (not
# UTF-8), right-to-left override, zero-width space, a BOM mid-text, line separator.
EVIL = (
    b"\x1b]0;pwned\x07\x1b[2J\x08\x7f\xc2\x9b\x9b\xe2\x80\xae\xe2\x80\x8b\xef\xbb\xbf\xe2\x80\xa8!"
)
# How the output shows it: each character as an escape, the raw byte as \x9b.
SHOWN = r"\x1b]0;pwned\x07\x1b[2J\x08\x7f\x9b\x9b\u202e\u200b\ufeff\u2028!"
# The text the list holds (bytes that are not UTF-8 read as surrogateescape).
HELD = EVIL.decode("utf-8", "surrogateescape")


def listing(extra: bytes = b"") -> bytes:
    return (
        b"# Summary " + EVIL + b"\n\n"
        b"## Phase " + EVIL + b"\n"
        b"- [/] Task " + EVIL + b" one <!-- active: Acting " + EVIL + b" -->\n"
        b"  > note " + EVIL + b"\n"
        b"- [ ] Other " + EVIL + b" two\n"
        b"- [x] Done " + EVIL + b" three\n" + extra
    )


HAND_LOG = (
    b"\n# by hand \x1b]0;log\x07 \x1b[2J \x9b \xc2\x9b \xe2\x80\xae\n- Logged " + EVIL + b"\n"
)
BAD_LOG_NAME = os.fsdecode(b"todoList-\x1b[2J\x9b.md")
BAD_SESSION_NAME = os.fsdecode(b"bad\x1b]0;x\x07\x9b.md")


def leaks(data: bytes, terminal: bool = False) -> list[str]:
    """Every raw control character in ``data``, named; empty when it is safe.

    ``terminal``: the output of rich on a pseudo-terminal, where rich's own colour,
    cursor and line-erase sequences (and the terminal's CR before each LF) are fine.
    """
    if terminal:
        data = re.sub(rb"\x1b\[[0-9;]*m|\x1b\[\?25[hl]|\x1b\[2K|\x1b\[[0-9]*A", b"", data)
        data = data.replace(b"\r", b"")
    found = {f"byte 0x{b:02x}" for b in data if (b < 0x20 and b not in b"\t\n") or b == 0x7F}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found.add(f"not UTF-8: {data[exc.start : exc.end]!r} at {exc.start}")
        text = data.decode("utf-8", "replace")
    for ch in set(text):
        if 0x80 <= ord(ch) <= 0x9F or unicodedata.category(ch) in ("Cf", "Zl", "Zp", "Cs"):
            found.add(f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".strip())
    return sorted(found)


def test_the_detector_sees_every_class() -> None:
    """The check itself must fail on the raw seed, class by class."""
    found = leaks(EVIL)
    assert {"byte 0x1b", "byte 0x07", "byte 0x08", "byte 0x7f"} <= set(found)
    assert any(f.startswith("not UTF-8") for f in found)
    assert {"U+202E RIGHT-TO-LEFT OVERRIDE", "U+200B ZERO WIDTH SPACE"} <= set(found)
    assert {"U+FEFF ZERO WIDTH NO-BREAK SPACE", "U+2028 LINE SEPARATOR"} <= set(found)
    assert "U+009B" in leaks(b"\xc2\x9b")
    assert leaks(SHOWN.encode()) == []


# -- the seeded home ------------------------------------------------------------------


class Seeded:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.list = self.home / "sessions" / "default.md"
        self.memory = self.home / "memory" / "todos"
        env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
        env.pop("NO_COLOR", None)
        self.env = {
            **env,
            "TODOCLI_HOME": str(self.home),
            "TODOCLI_CONFIG": str(root / "config.toml"),
        }

    def run(
        self, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "todocli", *args],
            input=b"",
            capture_output=True,
            env={**self.env, **(env or {})},
            timeout=60,
            check=False,
        )


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    """A home whose list, revisions, completion log, failed-write notice and file
    names all hold the seed, each put there the way it would get there."""
    s = Seeded(tmp_path_factory.mktemp("evil"))
    s.list.parent.mkdir(parents=True)
    # A completion logged by the tool itself, from a list written by hand...
    s.list.write_bytes(listing())
    assert s.run("done", "--all").returncode == 0
    (log,) = s.memory.glob("todoList-*.md")
    assert EVIL in log.read_bytes()  # the log holds the text as it was
    # ...then more added to the log by hand.
    with log.open("ab") as handle:
        handle.write(HAND_LOG)
    (s.memory / BAD_LOG_NAME).write_bytes(b"# odd name " + EVIL + b"\n")
    # A revision that holds the seed (a write over a hand-written list)...
    s.list.write_bytes(listing())
    assert s.run("add", "Fresh").returncode == 0
    # ...then a hand edit since, a failed write that echoed task text, another
    # session, and a session file with a name no session may have.
    s.list.write_bytes(listing(b"- [ ] Fresh\n- [ ] Late " + EVIL + b"\n"))
    assert s.run("start", "Task").returncode == 1
    (s.home / "sessions" / "other.md").write_bytes(listing())
    (s.home / "sessions" / BAD_SESSION_NAME).write_bytes(listing())
    return s


# Each printing command, with the exit status it should end with.
COMMANDS = [
    (["__complete", "tasks"], 0),
    (["__complete", "phases"], 0),
    (["__complete", "sessions"], 0),
    (["log"], 0),
    (["log", "--list"], 0),
    (["log", BAD_LOG_NAME], 0),
    ([], 0),
    (["show", "--plain", "--all"], 0),
    (["show", "--json"], 0),
    (["-s", "other", "show"], 0),
    (["sessions"], 0),
    (["history"], 0),
    (["diff"], 0),
    (["diff", "2"], 0),
    (["remind", "--every", "1"], 0),
    (["check"], 1),
    (["check", "--json"], 1),
    (["config"], 0),
    (["config", "--json"], 0),
    (["path"], 0),
    # errors that echo task text or arguments
    (["start", "Task"], 1),
    (["--json", "start", "Task"], 1),
    (["done", "Tas\x1b[2Jk\u202e"], 1),
    (["add", "new \x1b]0;x\x07 \u202e"], 1),
    (["start", "a", "b\x1b]0;x\x07\x9b\u202e"], 2),
    (["--session", "s\x1b[2J\u202e", "show"], 2),
    (["log", "x\x1b[2J\udc9b"], 0),
    (["log", "a/\x1b[2J"], 2),
    (["bogus\x1b[2J"], 2),
]


@pytest.mark.parametrize(("args", "code"), COMMANDS, ids=lambda v: repr(v)[:40])
def test_no_command_prints_a_raw_control(seeded: Seeded, args: list[str], code: int) -> None:
    proc = seeded.run(*args)
    assert proc.returncode == code, proc.stderr
    assert leaks(proc.stdout) == [], proc.stdout
    assert leaks(proc.stderr) == [], proc.stderr
    assert proc.stdout or proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["__complete", "tasks"],
        ["__complete", "phases"],
        ["log"],
        ["show"],
        ["sessions"],
        ["history"],
        ["diff"],
        ["check"],
        ["remind", "--every", "1"],
    ],
)
def test_the_text_is_shown_escaped_not_dropped(seeded: Seeded, args: list[str]) -> None:
    out = seeded.run(*args).stdout.decode()
    assert SHOWN in out


def test_completion_candidates_are_one_escaped_line_each(seeded: Seeded) -> None:
    tasks = seeded.run("__complete", "tasks").stdout.decode().splitlines()
    assert tasks[:3] == [f"Task {SHOWN} one", f"Other {SHOWN} two", "Fresh"]
    sessions = seeded.run("__complete", "sessions").stdout.decode().splitlines()
    # A file whose name is no session name is no session: not offered at all.
    assert sessions
    assert not any("bad" in name for name in sessions)


def test_the_completion_log_is_printed_escaped(seeded: Seeded) -> None:
    out = seeded.run("log").stdout.decode()
    assert f"- Task {SHOWN} one" in out
    assert r"# by hand \x1b]0;log\x07 \x1b[2J \x9b \x9b \u202e" in out
    listed = seeded.run("log", "--list").stdout.decode()
    assert r"todoList-\x1b[2J\x9b.md" in listed


def test_json_keeps_the_text_exactly_with_escapes_only(seeded: Seeded) -> None:
    out = seeded.run("show", "--json").stdout
    data = json.loads(out)  # still valid JSON
    contents = [t["content"] for t in data["data"]["todos"]]
    assert f"Task {HELD} one" in contents  # the same text, byte for byte
    assert data["data"]["summary"] == f"Summary {HELD}"
    assert data["data"]["todos"][0]["active_form"] == f"Acting {HELD}"
    assert b"\\u202e" in out
    assert b"\\u009b" in out
    assert b"\\udc9b" in out  # the raw byte, as surrogateescape holds it
    assert b"\\u007f" in out


def test_a_usage_error_shows_the_argument_it_echoes_escaped(seeded: Seeded) -> None:
    proc = seeded.run("start", "a", "b\x1b]0;x\x07\x1b[2J\u202e")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("todo: Got unexpected extra argument")
    assert "(b\\x1b]0;x\\x07\\x1b[2J\\u202e)" in proc.stderr.decode()  # shown, not dropped


def test_config_shows_odd_locations_escaped(seeded: Seeded) -> None:
    odd = str(seeded.root / "mem\x1b]0;x\x07\udc9b\u202e")
    for args in (["config"], ["config", "--json"]):
        proc = seeded.run(*args, env={"TODOCLI_MEMORY_DIR": odd})
        assert proc.returncode == 0
        assert leaks(proc.stdout) == []
    located = json.loads(proc.stdout)["data"]["locations"]["memory_dir"]
    assert located == odd


def test_path_of_an_odd_file_is_escaped(seeded: Seeded) -> None:
    odd = seeded.root / os.fsdecode(b"li\x1b[2Jst\x9b\xe2\x80\xae.md")
    proc = seeded.run("--file", str(odd), "path")
    assert leaks(proc.stdout) == []
    assert proc.stdout.decode().endswith("li\\x1b[2Jst\\x9b\\u202e.md\n")


# -- todo watch -----------------------------------------------------------------------


def interrupt_when(proc: subprocess.Popen[bytes], read: int, marker: bytes) -> bytes:
    """Read from ``read`` until ``marker`` shows, then Ctrl-C the process; return all."""
    import select

    seen = b""
    deadline = time.monotonic() + 30
    interrupted = False
    while True:
        if not interrupted and marker in seen:
            proc.send_signal(signal.SIGINT)
            interrupted = True
        if time.monotonic() > deadline:
            proc.kill()
            break
        ready, _, _ = select.select([read], [], [], 0.5)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            data = os.read(read, 65536)
        except OSError:  # a pseudo-terminal reports its end as EIO
            break
        if not data:
            break
        seen += data
    proc.wait(timeout=30)
    return seen


def test_watch_plain_prints_no_raw_control(seeded: Seeded) -> None:
    proc = start_todo(
        "watch",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=seeded.env,
    )
    assert proc.stdout is not None
    out = interrupt_when(proc, proc.stdout.fileno(), b"In progress:")
    proc.stdout.close()
    assert proc.returncode == 0
    assert SHOWN in out.decode()
    assert leaks(out) == []


# -- rich output on a terminal ----------------------------------------------------------


def on_a_terminal(
    seeded: Seeded, args: list[str], marker: bytes | None = None
) -> tuple[int, bytes]:
    """Run with stdout and stderr on a pseudo-terminal; Ctrl-C it once ``marker``
    shows (for ``watch``). Returns the exit status and every byte drawn."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    proc = start_todo(
        *args,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**seeded.env, "TERM": "xterm-256color", "COLUMNS": "200"},
        close_fds=True,
    )
    os.close(follower)
    try:
        drawn = interrupt_when(proc, leader, marker if marker is not None else b"\0never")
    finally:
        os.close(leader)
    return proc.returncode, drawn


TERMINAL = [
    (["show", "--all"], 0, None),
    (["-s", "other", "show"], 0, None),
    (["start", "Task"], 1, None),
    (["add", "x\u202e"], 1, None),
    (["start", "a", "b\x1b]0;x\x07\x9b\u202e"], 2, None),
    (["history"], 0, None),
    (["watch", "--all"], 0, b"Ctrl-C to stop"),
]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize(("args", "code", "marker"), TERMINAL, ids=lambda v: repr(v)[:30])
def test_rich_output_on_a_terminal_prints_no_raw_control(
    seeded: Seeded, args: list[str], code: int, marker: bytes | None
) -> None:
    status, drawn = on_a_terminal(seeded, args, marker)
    assert status == code, drawn
    assert leaks(drawn, terminal=True) == [], drawn


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_rich_output_shows_the_text_escaped(seeded: Seeded) -> None:
    _, drawn = on_a_terminal(seeded, ["--no-color", "show", "--all"])
    plain = re.sub(rb"\x1b\[[0-9;]*m", b"", drawn).decode()
    assert f"Task {SHOWN} one" in plain
    assert f"Acting {SHOWN}" in plain  # the active form of the task in progress
    assert f"note {SHOWN}" in plain


# -- input: new text holding any of these is refused ----------------------------------

CLASSES = {
    "ESC": "\x1b",
    "BEL": "\x07",
    "BS": "\x08",
    "CR": "\r",
    "DEL": "\x7f",
    "C1 CSI": "\x9b",
    "NEL": "\x85",
    "not UTF-8": "\udc9b",
    "RLO": "\u202e",
    "LRI": "\u2066",
    "ZWSP": "\u200b",
    "BOM": "\ufeff",
    "soft hyphen": "\u00ad",
    "line separator": "\u2028",
    "tag": "\U000e0041",
}


def escaped(ch: str) -> str:
    from todocli.escapes import one_line

    return one_line(ch)


@pytest.fixture
def listed(home: Path) -> Path:
    target = home / "sessions" / "default.md"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"# Todos\n- [/] A\n- [ ] B\n")
    return target


def flag_forms(bad: str) -> list[list[str]]:
    text = f"x{bad}y"
    return [
        ["add", text],
        ["add", "--phase", text, "C"],
        ["init", "--summary", text, "C"],
        ["note", "A", text],
        ["block", "B", "--reason", text],
        ["done", "A", "--note", text],
    ]


@pytest.mark.parametrize("name", list(CLASSES))
def test_flag_input_with_a_control_is_refused(todo: Todo, listed: Path, name: str) -> None:
    bad = CLASSES[name]
    before = listed.read_bytes()
    for args in flag_forms(bad):
        run = todo(*args)
        if name == "not UTF-8":  # a usage error, before any list is read: exit 2
            assert run.code == 2, (args, run.err)
            assert f"is not UTF-8 (byte {escaped(bad)} in " in run.err, run.err
        else:
            assert run.code == 1, (args, run.err)
            assert f"contains a newline or control character ({escaped(bad)})" in run.err
        assert listed.read_bytes() == before, args
        assert leaks(run.err.encode()) == []


def json_forms(bad: str) -> list[tuple[dict[str, object], str]]:
    text = f"x{bad}y"
    return [
        ({"todos": [{"content": text}]}, "todos[0].content"),
        ({"todos": [{"title": "t", "activeForm": text}]}, "todos[0].activeForm"),
        ({"todos": [{"content": "t", "active_form": text}]}, "todos[0].active_form"),
        ({"todos": [{"content": "t"}, {"content": "u", "phase": text}]}, "todos[1].phase"),
        ({"todos": [{"content": "t", "notes": ["fine", text]}]}, "todos[0].notes[1]"),
        ({"ops": [{"op": "append", "phase": "W", "items": ["ok", text]}]}, "ops[0].items[1]"),
        ({"ops": [{"op": "append", "phase": text, "items": ["ok"]}]}, "ops[0].phase"),
        ({"ops": [{"op": "note", "task": "A", "text": text}]}, "ops[0].text"),
        ({"ops": [{"op": "block", "task": "B", "reason": text}]}, "ops[0].reason"),
        (
            {"ops": [{"op": "init", "list": [{"phase": "P", "items": ["a", text]}]}]},
            "ops[0].list[0].items[1]",
        ),
        (
            {"ops": [{"op": "init", "list": [{"phase": text, "items": ["a"]}]}]},
            "ops[0].list[0].phase",
        ),
        ({"todos": [{"content": "t"}], "summary": text}, "summary"),
        (
            {"ops": [{"op": "init", "list": [{"phase": "P", "items": ["a"]}], "summary": text}]},
            "ops[0].summary",
        ),
        ({"ops": [{"op": "write", "todos": ["a"], "summary": text}]}, "ops[0].summary"),
    ]


@pytest.mark.parametrize("name", list(CLASSES))
def test_json_input_with_a_control_is_refused_naming_its_path(
    todo: Todo, listed: Path, name: str
) -> None:
    bad = CLASSES[name]
    before = listed.read_bytes()
    for payload, path in json_forms(bad):
        data = json.dumps(payload).encode()  # ensure_ascii: every character as \\uXXXX
        run = todo("--json", "apply", stdin=data)
        assert run.code == 1, (payload, run.out)
        error = json.loads(run.out)["error"]
        if name == "not UTF-8":
            # In JSON it can only be a lone surrogate escape, refused by the decoder
            # (with the path, in the message) before any op sees it.
            assert (
                error["message"] == f"{path}: a lone surrogate escape (\\ud800-\\udfff) is not text"
            )
        else:
            message = f"contains a newline or control character ({escaped(bad)})"
            assert message in error["message"], error
            assert error["details"][0]["path"] == path, error
        assert listed.read_bytes() == before, payload
        assert leaks(run.out.encode()) == []
        assert leaks(run.err.encode()) == []


@pytest.mark.parametrize("name", [n for n in CLASSES if n != "not UTF-8"])
def test_codex_s_explanation_with_a_control_is_told_escaped_and_never_kept(
    todo: Todo, listed: Path, name: str
) -> None:
    """The explanation is not kept in the list (it says why the plan changed):
    its ``Why:`` line shows every such character as an escape."""
    bad = CLASSES[name]
    plan = {"plan": [{"step": "A", "status": "in_progress"}], "explanation": f"x{bad}y"}
    run = todo("apply", stdin=json.dumps(plan).encode())
    assert run.code == 0, run.err
    why = next(line for line in run.out.splitlines() if line.startswith("Why: "))
    assert bad not in why
    assert leaks(run.out.encode()) == []
    assert bad not in listed.read_text(encoding="utf-8", errors="surrogateescape")


def test_markdown_input_with_a_control_is_refused(todo: Todo, listed: Path) -> None:
    before = listed.read_bytes()
    run = todo("apply", "--markdown", stdin="# S\n- [ ] a\u202eb\n".encode())
    assert run.code == 1
    assert "contains a newline or control character (\\u202e)" in run.err
    assert listed.read_bytes() == before


def test_a_raw_byte_in_an_argument_is_refused_by_a_real_process(listed: Path) -> None:
    """The process reads its arguments with surrogateescape: 0x9B arrives as U+DC9B."""
    before = listed.read_bytes()
    run = todo_process("add", os.fsdecode(b"x\x9by"))
    assert run.code == 2
    assert run.err == (
        'todo: TASKS is not UTF-8 (byte \\x9b in "x\\x9by"): list text is UTF-8; '
        "only a path may hold other bytes\n"
    )
    assert listed.read_bytes() == before


# A large plan's listing is escaped by a search for each ASCII control over its
# ASCII lines at once (escapes.safe_lines), not character by character: an ASCII
# control in one long line among hundreds, beside a line of wider characters, is
# still shown escaped.
ASCII_EVIL = b"\x1b]0;pwned\x07\x1b[2J\x08\x7f\x0b\x0c!"
ASCII_SHOWN = r"\x1b]0;pwned\x07\x1b[2J\x08\x7f\x0b\x0c!"


def large_listing() -> bytes:
    filler = b" ".join([b"words"] * 60)
    lines = [b"# Plan\n", b"\n", b"## Phase \xe2\x80\x94 wide\n"]
    lines += [b"- [ ] T%03d %s\n" % (n, filler) for n in range(200)]
    lines.insert(50, b"- [ ] T900 ascii " + ASCII_EVIL + b" " + filler + b"\n")
    lines.insert(90, b"  > note " + ASCII_EVIL + b"\n")
    lines.insert(120, b"- [ ] T901 wide " + EVIL + b" " + filler + b"\n")
    return b"".join(lines)


@pytest.mark.parametrize(
    "args",
    [["--plain", "show"], ["--plain", "show", "--notes"], ["--json", "show"], ["show"]],
)
def test_a_large_listing_prints_no_raw_control(tmp_path: Path, args: list[str]) -> None:
    plan = tmp_path / "plan.md"
    plan.write_bytes(large_listing())
    s = Seeded(tmp_path)
    proc = s.run("--file", str(plan), *args)
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout) > 20_000  # the long path, not the short one
    assert leaks(proc.stdout) == [], leaks(proc.stdout)
    if "--json" in args:
        content = {t["content"] for t in json.loads(proc.stdout)["data"]["todos"]}
        assert any(ASCII_EVIL.decode() in c for c in content)  # kept exactly
    else:
        out = proc.stdout.decode()
        assert ASCII_SHOWN in out
        assert SHOWN in out
