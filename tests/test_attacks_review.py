"""An adversarial pass over the fixes for issue #32, each hole found tried as the
attacker would: a real ``git`` repository the person clones and pulls from, real
``todo`` processes, the attacker's command making a marker file that must never
appear.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support import git
from tests.support_cli import Run, todo_process

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

CHECK_NOT_ALLOWED = 9  # docs/checks.md


def todo_at(listing: Path, *args: str) -> Run:
    return todo_process("--file", str(listing), *args, cwd=listing.parent)


# Two texts the attacker chose whose SHA-256 digests share their first 12 hex digits
# (baeb3dc21e49): found once by a birthday search over 2**24 variants of each, about a
# minute of one core in Python. A digest the person compares can only be as long as
# the attacker cannot make two texts share it.
SHOWN = "pytest -q #864b52"
SWAPPED = "touch PWNED #603219"  # relative: a check runs at the top of the work tree


def test_allow_with_the_shown_digest_never_approves_a_colliding_swap(
    tmp_path: Path, home: Path
) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    (origin / "TODO.md").write_text(
        f"# Plan\n\n## Todos\n- [/] Run tests <!-- check: {SHOWN} -->\n"
    )
    git(origin, "add", "TODO.md")
    git(origin, "commit", "-q", "-m", "plan")
    mine = tmp_path / "mine"
    git(tmp_path, "clone", "-q", str(origin), str(mine))
    listing = mine / "TODO.md"
    shown = todo_at(listing, "allow")
    found = re.search(r"check not approved \[([0-9a-f]+)\]: (.*)", shown.out)
    assert found is not None, shown.out
    assert found.group(2) == SHOWN  # what the person read, and its digest
    # The attacker's next commit swaps the check for one sharing the shown digest's
    # first 12 digits; the person pulls before typing the allow they were shown.
    (origin / "TODO.md").write_text(
        f"# Plan\n\n## Todos\n- [/] Run tests <!-- check: {SWAPPED} -->\n"
    )
    git(origin, "commit", "-q", "-am", "tests")
    git(mine, "pull", "-q", "--no-rebase")
    pulled = listing.read_bytes()
    refused = todo_at(listing, "allow", "#1", "--digest", found.group(1))
    assert refused.code == CHECK_NOT_ALLOWED, refused.err
    assert f"is now: {SWAPPED}" in refused.err
    assert "it is not the text whose digest you gave" in refused.err
    assert not (home / "state" / "approved-checks").exists()
    assert todo_at(listing, "done", "Run tests").code == CHECK_NOT_ALLOWED
    assert not (mine / "PWNED").exists()
    assert listing.read_bytes() == pulled
