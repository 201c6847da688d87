"""Private interpreter and library APIs: only those that save at least 3 ms of a call
(measured, the figure beside them), each with a fallback to the public API that gives
the same answer on every supported Python."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "todocli"

# The private modules that pay for themselves, and what each saves on every call.
ALLOWED = {
    "_json": "import json costs 7-8 ms of every --json call and every payload read",
    "_sha2": "hashlib (OpenSSL) costs 3-4 ms of every call (Python 3.12 and later)",
    "_sha256": "the same module before Python 3.12",
}

SUPPORTED = ("3.11", "3.12", "3.13")


def private_imports() -> list[tuple[str, str]]:
    """(file, name) of every import of a private module (or from one) in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if any(part.startswith("_") and part != "__future__" for part in name.split(".")):
                    found.append((str(path.relative_to(PACKAGE.parent)), name))
    return found


def test_only_private_modules_that_save_3_ms_are_imported() -> None:
    """No ``_ctypes`` (ctypes costs 2 ms, only on the rare write that swaps), no
    ``typer._click`` (Typer names its errors publicly): only the listed ones."""
    unexpected = [(file, name) for file, name in private_imports() if name not in ALLOWED]
    assert unexpected == []


def runs_as(path: str, version: str) -> bool:
    """``path`` is a Python of ``version`` that runs: a pyenv shim on PATH may name a
    version that is not installed (or not selected), and then fails when run."""
    try:
        done = subprocess.run(
            [path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def interpreters() -> list[str]:
    """Every supported Python found on this machine, each one run once first."""
    found = []
    for version in SUPPORTED:
        pyenv = Path(os.path.expanduser("~/.pyenv/versions"))
        builds = sorted(pyenv.glob(f"{version}.*/bin/python{version}"), reverse=True)
        candidates = [str(path) for path in builds] + [shutil.which(f"python{version}") or ""]
        path = next((c for c in candidates if c and runs_as(c, version)), None)
        if path is not None:
            found.append(path)
    return found


# Runs each function with its private module and with it blocked (an import of a
# module set to None in sys.modules fails, as on a Python that lacks it), and checks
# both against the public API.
CHECK = r"""
import hashlib, json, sys
data = {"a": [1, 2.5, None, True, "é\n\"", {"b": []}], "c": -0.0, "d": "\x1f\u2028"}
text = json.dumps(data)
paths = ["/home/me/todo.md", "/tmp/é/x", "/a\udcff"]
reference = (
    json.dumps(data, ensure_ascii=False),
    json.loads(text),
    [hashlib.sha256(p.encode("utf-8", "surrogateescape")).hexdigest()[:16] for p in paths],
)

def run():
    from todocli.base.jsontext import dumps
    from todocli.engine.dialects import loads_json
    from todocli.storage.paths import path_key
    return (dumps(data), loads_json(text), [path_key(p) for p in paths])

assert run() == reference, "private path"
for name in ("_json", "_sha2", "_sha256"):
    sys.modules[name] = None
for name in [m for m in sys.modules if m.startswith("todocli")]:
    del sys.modules[name]
assert run() == reference, "fallback"
print("ok", sys.version_info[:2])
"""


@pytest.mark.parametrize("python", interpreters())
def test_each_private_path_and_its_fallback_agree_with_the_public_api(python: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    done = subprocess.run(
        [python, "-c", CHECK], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")


def test_a_python_is_used_only_after_it_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pyenv build and a shim on PATH that name a Python but fail when run (the
    version is not installed) are passed over: no test is collected for them."""
    broken = "#!/bin/sh\necho 'pyenv: python3.11: command not found' >&2\nexit 127\n"
    build = tmp_path / "home" / ".pyenv" / "versions" / "3.11.99" / "bin"
    shims = tmp_path / "shims"
    for folder in (build, shims):
        folder.mkdir(parents=True)
        for version in SUPPORTED:
            script = folder / f"python{version}"
            script.write_text(broken)
            script.chmod(0o755)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(shims))
    assert interpreters() == []
