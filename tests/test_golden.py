"""Golden cases: ``tests/cases/<name>/`` holds ``before.md``, ``args.txt`` (one argument
a line), an optional ``input.json`` for stdin, and the expected ``after.md`` and
``stdout.txt``. The list is the session list of a fresh home; ``$HOME`` in
``stdout.txt`` stands for that home. Regenerate with ``TODOCLI_GOLDEN_UPDATE=1``
(and then read the diff)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support_cli import todo_in_process

CASES = sorted(p for p in (Path(__file__).parent / "cases").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_case(
    case: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T17:42:33")
    listing = home / "sessions" / "default.md"
    listing.parent.mkdir(parents=True)
    listing.write_bytes((case / "before.md").read_bytes())
    args = (case / "args.txt").read_text(encoding="utf-8").splitlines()
    stdin = (case / "input.json").read_bytes() if (case / "input.json").exists() else None
    result = todo_in_process(capsys, monkeypatch, *args, stdin=stdin)
    stdout = result.out.replace(str(home), "$HOME")
    after = listing.read_bytes()
    if os.environ.get("TODOCLI_GOLDEN_UPDATE") == "1":
        (case / "after.md").write_bytes(after)
        (case / "stdout.txt").write_text(stdout, encoding="utf-8")
    assert stdout == (case / "stdout.txt").read_text(encoding="utf-8")
    assert after == (case / "after.md").read_bytes()
