"""Helpers shared by the tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

# The shared corpus sits beside the checkout: ../shared/corpus/markdown.
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "markdown"


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.md")) if CORPUS.is_dir() else []


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` as a named committer; its output, stripped (a failure raises)."""
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()
