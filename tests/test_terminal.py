"""``todo show`` on a real terminal (a pseudo-terminal): colour, NO_COLOR, escaping."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support_cli import start_todo

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def on_a_terminal(args: list[str], env: dict[str, str], columns: int = 100) -> str:
    """Run ``python -m todocli ARGS`` with stdout on a pseudo-terminal; return what it drew."""
    leader, follower = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = start_todo(
        *args,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.PIPE,
        env={"TERM": "xterm-256color", "COLUMNS": str(columns), **env},
        close_fds=True,
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=30)
    os.close(leader)
    assert proc.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


def colour_codes(screen: str) -> list[str]:
    """SGR parameters that set a colour (30-49, 90-107); bold and dim are not colour."""
    found = []
    for params in re.findall(r"\x1b\[([0-9;]*)m", screen):
        for code in params.split(";"):
            if code.isdigit() and (30 <= int(code) <= 49 or 90 <= int(code) <= 107):
                found.append(code)
    return found


@pytest.fixture
def listed(tmp_path: Path) -> dict[str, str]:
    target = tmp_path / "TODO.md"
    target.write_bytes(
        b"# Release\n\n## Work\n- [x] Tag [bold]v1[/bold]\n- [/] Clear \x1b[2J screen"
        b" <!-- active: Clearing -->\n  > a note\n- [ ] Ship\n"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "TERM")}
    env.update({"TODOCLI_HOME": str(tmp_path / "home"), "TODOCLI_FILE": str(target)})
    return env


def test_show_on_a_terminal_is_coloured(
    listed: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    screen = on_a_terminal(["show"], listed)
    assert colour_codes(screen)
    assert "Ship" in screen
    assert "Clearing" in screen  # the active form of the task in progress
    assert "a note" in screen  # its notes


@pytest.mark.parametrize(
    ("args", "env"),
    [(["show"], {"NO_COLOR": "1"}), (["show"], {"TERM": "dumb"}), (["show", "--no-color"], {})],
)
def test_no_color_turns_colour_off(
    listed: dict[str, str], args: list[str], env: dict[str, str]
) -> None:
    screen = on_a_terminal(args, {**listed, **env})
    assert colour_codes(screen) == []
    assert "Ship" in screen


def test_task_text_is_shown_literally(listed: dict[str, str]) -> None:
    screen = on_a_terminal(["show"], {**listed, "NO_COLOR": "1"})
    assert "[bold]v1[/bold]" in screen  # markup is text
    assert "Clear \\x1b[2J screen" in screen  # the escape is shown, not obeyed
    assert "\x1b[2J" not in screen


def test_a_terminal_shows_who_holds_a_task_and_what_one_waits_on(tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_text(
        "- [/] Build <!-- id: 1; owner: agent-2 -->\n- [ ] Ship <!-- blocked-by: 1 -->\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "TERM"}
    env.update(
        {"TODOCLI_HOME": str(tmp_path / "home"), "TODOCLI_FILE": str(target), "NO_COLOR": "1"}
    )
    screen = re.sub(r"\x1b\[[0-9;]*m", "", on_a_terminal(["show"], env))  # styles apart
    assert "#1 [/] Build (owner: agent-2)" in screen
    assert "#2 [ ] Ship (waiting on #1)" in screen
