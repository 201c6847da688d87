"""Helpers shared by the tests."""

from __future__ import annotations

from pathlib import Path

# The shared corpus sits beside the checkout: ../shared/corpus/markdown.
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "markdown"


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.md")) if CORPUS.is_dir() else []
