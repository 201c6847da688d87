"""``todo doctor``: what is wired for each agent, which list the project uses,
and what is wrong, one line each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support_cli import todo_process


def run(project: Path, home: Path, path: str) -> tuple[int, list[str]]:
    done = todo_process("doctor", cwd=project, env={"HOME": str(home), "PATH": path})
    return done.code, done.out.splitlines()


def test_doctor_says_what_is_wired_and_what_is_wrong(tmp_path: Path) -> None:
    project, home, bare, shims = (tmp_path / n for n in ("p", "h", "bare", "bin"))
    for folder in (project, home, bare, shims):
        folder.mkdir()
    (shims / "todo").symlink_to(Path(sys.executable).parent / "todo")
    assert todo_process("setup", "claude", cwd=project).code == 0
    code, lines = run(project, home, str(bare))
    assert code == 0
    assert "Claude Code: project wired" in lines
    assert "problem: the hooks run `todo`, which is not on PATH" in lines
    code, lines = run(project, home, f"{shims}{os.pathsep}{bare}")
    assert code == 0, lines
    assert not [line for line in lines if line.startswith("problem:")]
    start = {"session_id": "s9", "cwd": str(project), "hook_event_name": "SessionStart"}
    assert todo_process("hook", "claude", stdin=json.dumps(start), cwd=project).code == 0
    assert todo_process("-s", "s9", "init", "Plan").code == 0
    code, lines = run(project, home, f"{shims}{os.pathsep}{bare}")
    assert "This project's list: session s9 (written by its hooks)" in lines


def test_doctor_names_a_configuration_file_that_does_not_parse(tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    (home / ".gemini").mkdir(parents=True)
    project.mkdir()
    (home / ".gemini" / "settings.json").write_text('{"a": 1,,}')
    code, lines = run(project, home, os.environ["PATH"])
    assert code == 0
    settings = home / ".gemini" / "settings.json"
    assert any(line.startswith(f"problem: gemini: {settings}:1: not valid JSON") for line in lines)
    assert "Gemini CLI: not wired (todo setup gemini)" in lines


def test_doctor_json_lists_the_problems(tmp_path: Path) -> None:
    project, home, bare = tmp_path / "p", tmp_path / "h", tmp_path / "bare"
    for folder in (project, home, bare):
        folder.mkdir()
    assert todo_process("setup", "gemini", cwd=project).code == 0
    done = todo_process("doctor", "--json", cwd=project, env={"HOME": str(home), "PATH": str(bare)})
    data = json.loads(done.out)["data"]
    assert data["problems"] == ["the hooks run `todo`, which is not on PATH"]
    assert "Gemini CLI: project wired" in data["lines"]


def test_doctor_reports_each_agent_from_its_own_files(tmp_path: Path) -> None:
    """Codex, Cursor and OpenCode all read AGENTS.md: after ``todo setup codex`` in
    a git repository, Codex is wired and the other two are said to share Codex's
    instructions, not to be wired; ``todo setup cursor`` then wires Cursor."""
    project, home = tmp_path / "p", tmp_path / "h"
    project.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    assert todo_process("setup", "codex", cwd=project).code == 0
    code, lines = run(project, home, os.environ["PATH"])
    assert code == 0
    assert "Codex: project wired" in lines
    assert "Cursor: project instructions shared with Codex (AGENTS.md)" in lines
    assert "OpenCode: project instructions shared with Codex (AGENTS.md)" in lines
    assert not [line for line in lines if line.endswith("wired") and "Codex" not in line]
    assert todo_process("setup", "cursor", cwd=project).code == 0
    code, lines = run(project, home, os.environ["PATH"])
    assert "Cursor: project wired" in lines
    assert "OpenCode: project instructions shared with Codex, Cursor (AGENTS.md)" in lines
