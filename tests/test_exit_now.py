"""The process ends without tearing the interpreter down (``__main__.exit_now``),
unless something is owed an orderly exit; nothing it printed or wrote is lost."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support_cli import install_launcher

ROOT = Path(__file__).resolve().parent.parent
# An object whose finalizer speaks when the interpreter is torn down.
TEARDOWN = textwrap.dedent(
    """
    import sys
    class Witness:
        def __del__(self):
            sys.stderr.write("torn down\\n")
    witness = Witness()
    """
)


# Buffered as usual (a test run may set PYTHONUNBUFFERED): what is left to flush
# at the end is what exit_now must not lose.
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", TEARDOWN + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=BUFFERED,
        check=False,
    )


def test_it_exits_with_the_code_and_skips_the_teardown() -> None:
    proc = python(
        """
        sys.stdout.write("printed, not yet flushed")
        from todocli.__main__ import exit_now
        exit_now(4)
        """
    )
    assert proc.returncode == 4
    assert proc.stdout == "printed, not yet flushed"
    assert "torn down" not in proc.stderr


def test_an_atexit_callback_gets_the_usual_exit() -> None:
    proc = python(
        """
        import atexit
        atexit.register(lambda: sys.stdout.write("callback ran\\n"))
        from todocli.__main__ import exit_now
        exit_now(3)
        """
    )
    assert proc.returncode == 3
    assert proc.stdout == "callback ran\n"
    assert "torn down" in proc.stderr


def test_without_the_private_count_of_callbacks_it_is_the_usual_exit() -> None:
    """``atexit._ncallbacks`` is CPython's; a Python without it gets ``sys.exit``."""
    proc = python(
        """
        import atexit
        del atexit._ncallbacks
        from todocli.__main__ import exit_now
        exit_now(5)
        """
    )
    assert proc.returncode == 5
    assert "torn down" in proc.stderr


def test_a_running_thread_gets_the_usual_exit() -> None:
    proc = python(
        """
        import threading, time
        def late():
            time.sleep(0.3)
            sys.stdout.write("thread finished\\n")
        threading.Thread(target=late).start()
        from todocli.__main__ import exit_now
        exit_now(0)
        """
    )
    assert proc.returncode == 0
    assert proc.stdout == "thread finished\n"
    assert "torn down" in proc.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_stdout_that_cannot_be_flushed_gets_the_usual_exit() -> None:
    code = (
        "import sys\nsys.stdout.write('x' * 10)\n"
        "from todocli.__main__ import exit_now\nexit_now(0)\n"
    )
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-c", code],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=BUFFERED,
            check=False,
        )
    # The interpreter's own exit reports the failed flush, as it does without exit_now.
    assert proc.returncode == 120
    assert "No space left on device" in proc.stderr


def test_the_todocli_console_script_ends_as_todo_does(tmp_path: Path) -> None:
    """The entry point pyproject.toml declares for ``todocli`` runs the command and
    skips the teardown, with the command's exit status."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = declared["todocli"].split(":")
    home = {"TODOCLI_HOME": str(tmp_path / "home"), "TODOCLI_CONFIG": str(tmp_path / "c")}
    code = f"""
        sys.argv = ["todocli", "add", "Try todocli"]
        from {module} import {function} as entry
        entry()
        """
    proc = subprocess.run(
        [sys.executable, "-c", TEARDOWN + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**BUFFERED, **home},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Added: Try todocli\n")
    assert "torn down" not in proc.stderr
    missing = subprocess.run(
        [
            sys.executable,
            "-c",
            TEARDOWN
            + textwrap.dedent(code.replace('"add", "Try todocli"', '"done", "No such task"')),
        ],
        capture_output=True,
        text=True,
        env={**BUFFERED, **home},
        check=False,
    )
    assert missing.returncode == 1


@pytest.mark.parametrize("entry", ["launcher", "python -m todocli"])
def test_every_byte_of_a_long_listing_reaches_a_pipe(entry: str, tmp_path: Path) -> None:
    """A few hundred kilobytes through a pipe, to a reader slower than the writer:
    all of it arrives, in order, and the exit status is the command's."""
    home = tmp_path / "home"
    (home / "sessions").mkdir(parents=True)
    lines = [f"- [ ] task {i} " + "x" * 40 for i in range(5000)]
    (home / "sessions" / "default.md").write_text("# Plan\n\n## Work\n" + "\n".join(lines) + "\n")
    env = {
        **BUFFERED,
        "TODOCLI_HOME": str(home),
        "TODOCLI_CONFIG": str(tmp_path / "c.toml"),
    }
    if entry == "launcher":
        command = [sys.executable, str(install_launcher(tmp_path))]
    else:
        command = [sys.executable, "-m", "todocli"]
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\ntime.sleep(0.3)\nsys.stdout.write(sys.stdin.read())",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert reader.stdin is not None
    writer = subprocess.run(
        [*command, "show", "--plain"], stdout=reader.stdin, stderr=subprocess.PIPE, env=env
    )
    out, _ = reader.communicate(timeout=60)
    assert writer.returncode == 0, writer.stderr
    text = out.decode()
    assert text.count("[ ] task ") == 5000
    assert f"#5000 [ ] task 4999 {'x' * 40}" in text
    assert text.endswith("\n")
    missing = subprocess.run(
        [*command, "done", "no such task"], capture_output=True, env=env, check=False
    )
    assert missing.returncode == 1
    assert b"not found" in missing.stdout + missing.stderr
