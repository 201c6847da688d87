"""``todo setup`` writes other tools' files safely (``setup/files.py``), tested as
the attack: a repository the attacker commits, symlinks included, cloned by the
victim, who runs ``todo setup`` in the clone as a real process with ``HOME`` at
a home of their own (``.bashrc``, Claude Code's settings with an MCP server's
token, AWS credentials). Then what the person keeps: a file's mode, owner and
dotfiles link; a read-only file; their later edits through ``--remove``."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support_cli import Run, todo_process

BASHRC = b"# the victim's shell\nalias ll='ls -l'\n"
SETTINGS = (
    b'{\n  "mcpServers": {"db": {"command": "db-mcp", "env": {"TOKEN": "s3cr3t-token"}}}\n}\n'
)
SECRET = b"[default]\naws_secret_access_key = AKIA-VERY-SECRET\n"
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "attacker",
    "GIT_AUTHOR_EMAIL": "a@example.com",
    "GIT_COMMITTER_NAME": "attacker",
    "GIT_COMMITTER_EMAIL": "a@example.com",
}


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """The victim's home: what must come out of every attack byte for byte."""
    home = tmp_path / "victim"
    (home / ".claude").mkdir(parents=True)
    (home / ".aws").mkdir()
    (home / ".bashrc").write_bytes(BASHRC)
    (home / ".claude" / "settings.json").write_bytes(SETTINGS)
    (home / ".aws" / "credentials").write_bytes(SECRET)
    return home


def home_files(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def cloned(tmp_path: Path, plant: Callable[[Path], None]) -> Path:
    """The victim's clone of a repository whose files (links too) ``plant`` made."""
    origin = tmp_path / "attacker"
    origin.mkdir()
    git(origin, "init", "-q")
    (origin / "README.md").write_text("A useful project\n")
    plant(origin)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "init")
    git(tmp_path, "clone", "-q", str(origin), "clone")
    return tmp_path / "clone"


def link(repo: Path, name: str, to: str) -> None:
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(to)


def run_setup(clone: Path, home: Path, *args: str) -> Run:
    return todo_process("setup", *args, cwd=clone, env={"HOME": str(home), **GIT_ENV})


def repository_texts(clone: Path) -> bytes:
    """Every regular file of the work tree (``.git`` left out), joined."""
    found = [
        p.read_bytes()
        for p in clone.rglob("*")
        if ".git" not in p.relative_to(clone).parts and p.is_file() and not p.is_symlink()
    ]
    return b"\n".join(found)


# -- a planted link is never written through ---------------------------------------------


def test_a_planted_temporary_name_is_not_followed_by_setup_claude(
    tmp_path: Path, victim: Path
) -> None:
    clone = cloned(
        tmp_path,
        lambda repo: link(repo, ".claude/settings.json.todo-setup.tmp", "../../victim/.bashrc"),
    )
    before = home_files(victim)
    run = run_setup(clone, victim, "claude")
    assert run.code == 0, run.err
    assert home_files(victim) == before, "the victim's ~/.bashrc is untouched"
    settings = json.loads((clone / ".claude" / "settings.json").read_text())
    assert settings["hooks"]["Stop"][0]["hooks"][0]["command"] == "todo hook claude"
    planted = clone / ".claude" / "settings.json.todo-setup.tmp"
    assert os.readlink(planted) == "../../victim/.bashrc"  # the repository's link, unused


def test_a_planted_temporary_name_is_not_followed_by_setup_git(
    tmp_path: Path, victim: Path
) -> None:
    marker = tmp_path / "attacker-ran"

    def plant(repo: Path) -> None:  # the attributes are the shell lines it would run
        (repo / ".gitattributes").write_text(f"*.png binary\ntouch {marker}\n")
        link(repo, ".gitattributes.todo-setup.tmp", "../victim/.bashrc")
        link(repo, "TODO.md.todo-setup.tmp", "../victim/.bashrc")

    clone = cloned(tmp_path, plant)
    before = home_files(victim)
    run = run_setup(clone, victim, "git")
    assert run.code == 0, run.err
    assert home_files(victim) == before, "the victim's ~/.bashrc is untouched"
    subprocess.run(["sh", "-c", f". {victim / '.bashrc'}"], capture_output=True, check=False)
    assert not marker.exists(), "the victim's next shell runs none of the attacker's lines"
    assert "merge=todo" in (clone / ".gitattributes").read_text()
    assert (clone / "TODO.md").read_bytes() == b""


# -- a project setup stays in the project -----------------------------------------------


def test_a_committed_link_to_the_home_s_claude_folder_is_refused(
    tmp_path: Path, victim: Path
) -> None:
    clone = cloned(tmp_path, lambda repo: link(repo, ".claude", "../victim/.claude"))
    before = home_files(victim)
    run = run_setup(clone, victim, "claude")
    assert run.code == 6
    settings = clone / ".claude" / "settings.json"
    real = victim.resolve() / ".claude" / "settings.json"
    assert run.err.startswith(
        f"todo: refused {settings}: a symlink leads it to {real}, outside the project"
    ), run.err
    assert "remove the link, or wire your home with --user" in run.err
    assert home_files(victim) == before, "the user's own settings are untouched"
    assert git(clone, "status", "--porcelain") == "", "nothing written in the clone either"


def test_a_committed_link_to_a_secret_is_neither_read_nor_copied_into_the_repository(
    tmp_path: Path, victim: Path
) -> None:
    clone = cloned(tmp_path, lambda repo: link(repo, "CLAUDE.md", "../victim/.aws/credentials"))
    before = home_files(victim)
    run = run_setup(clone, victim, "claude")
    assert run.code == 6
    assert f"refused {clone / 'CLAUDE.md'}: a symlink leads it to" in run.err
    assert home_files(victim) == before
    assert b"AKIA-VERY-SECRET" not in repository_texts(clone)
    assert (clone / "CLAUDE.md").is_symlink()
    assert git(clone, "status", "--porcelain") == ""
    dry = run_setup(clone, victim, "claude", "--dry-run")  # the diff would show it
    assert dry.code == 6
    assert "AKIA" not in dry.out + dry.err


def test_a_committed_gitattributes_link_out_of_the_work_tree_is_refused_by_setup_git(
    tmp_path: Path, victim: Path
) -> None:
    clone = cloned(tmp_path, lambda repo: link(repo, ".gitattributes", "../victim/.bashrc"))
    before = home_files(victim)
    run = run_setup(clone, victim, "git")
    assert run.code == 6
    assert f"refused {clone / '.gitattributes'}: a symlink leads it to" in run.err
    assert home_files(victim) == before
    assert git(clone, "status", "--porcelain") == ""
    assert not (clone / "TODO.md").exists()


@pytest.mark.parametrize(
    ("target", "name", "into"),
    [
        ("claude", "CLAUDE.md", ".git/config"),
        ("git", ".gitattributes", ".git/config"),
        ("git", ".gitattributes", ".git/HEAD"),
    ],
)
def test_a_committed_link_into_git_s_own_folder_is_refused(
    tmp_path: Path, victim: Path, target: str, name: str, into: str
) -> None:
    # Inside the work tree's folder, but git's: setup once wrote its block into the
    # clone's .git/config (then every git command failed: "bad config line").
    clone = cloned(tmp_path, lambda repo: link(repo, name, into))
    git_files = {p: p.read_bytes() for p in (clone / ".git").rglob("*") if p.is_file()}
    run = run_setup(clone, victim, target)
    assert run.code == 6, run.err
    real = clone.resolve() / into
    assert run.err.startswith(
        f"todo: refused {clone / name}: a symlink leads it to {real}, inside git's own "
        "folder; nothing was read or written (remove the link)"
    ), run.err
    assert {p: p.read_bytes() for p in (clone / ".git").rglob("*") if p.is_file()} == git_files
    assert git(clone, "status", "--porcelain") == ""
    assert not (clone / ".claude").exists()


def test_a_link_that_stays_in_the_project_is_written_through_and_kept(
    tmp_path: Path, victim: Path
) -> None:
    def plant(repo: Path) -> None:
        (repo / "docs").mkdir()
        (repo / "docs" / "AGENT.md").write_text("# Rules\n")
        link(repo, "CLAUDE.md", "docs/AGENT.md")

    clone = cloned(tmp_path, plant)
    run = run_setup(clone, victim, "claude")
    assert run.code == 0, run.err
    assert os.readlink(clone / "CLAUDE.md") == "docs/AGENT.md"
    assert (clone / "docs" / "AGENT.md").read_text().startswith("# Rules\n\n<!-- todo setup")
    assert f"Wrote {clone / 'CLAUDE.md'} (through its link, " in run.out


# -- what the person keeps ---------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    return root


def test_a_private_settings_file_keeps_its_mode(project: Path, victim: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(SETTINGS)
    settings.chmod(0o600)
    assert run_setup(project, victim, "claude").code == 0
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert b"todo hook claude" in settings.read_bytes()
    assert run_setup(project, victim, "claude", "--remove").code == 0
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert settings.read_bytes() == SETTINGS


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to a fifo"])
def test_a_settings_path_that_is_no_regular_file_is_refused_without_blocking(
    kind: str, project: Path, victim: Path
) -> None:
    # A FIFO where the settings go once made setup wait for ever on opening it.
    settings = project / ".claude" / "settings.json"
    made = project / ".claude" / "pipe" if kind == "link to a fifo" else settings
    if kind == "folder":
        made.mkdir()
    else:
        os.mkfifo(made)
    if made != settings:
        settings.symlink_to("pipe")
    run = todo_process(
        "setup", "claude", cwd=project, env={"HOME": str(victim), **GIT_ENV}, timeout=30
    )
    assert run.code == 6, run.err
    assert run.err == f"todo: refused {made}: not a regular file; nothing was written\n"
    assert not (project / "CLAUDE.md").exists(), "no file written before the refusal"
    assert sorted(p.name for p in (project / ".claude").iterdir()) == sorted(
        {"settings.json", made.name}
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_a_settings_file_keeps_its_owner(project: Path, victim: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(SETTINGS)
    os.chown(settings, 4321, 4322)
    assert run_setup(project, victim, "claude").code == 0
    assert (settings.stat().st_uid, settings.stat().st_gid) == (4321, 4322)


def test_a_read_only_file_is_refused_and_nothing_is_written(project: Path, victim: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(SETTINGS)
    settings.chmod(0o444)
    run = run_setup(project, victim, "claude")
    assert run.code == 6
    assert run.err == (
        f"todo: refused {settings}: it is read-only; nothing was written "
        "(make it writable, chmod u+w, to let todo setup change it)\n"
    )
    assert settings.read_bytes() == SETTINGS
    assert not (project / "CLAUDE.md").exists(), "no file written before the refusal"
    assert sorted(p.name for p in (project / ".claude").iterdir()) == ["settings.json"]


def test_a_dotfiles_link_in_the_home_is_written_through_and_kept(
    tmp_path: Path, victim: Path
) -> None:
    dotfiles = victim / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_bytes(SETTINGS)
    dotfiles.chmod(0o600)
    settings = victim / ".claude" / "settings.json"
    settings.unlink()
    settings.symlink_to("../dotfiles/claude-settings.json")
    run = run_setup(tmp_path, victim, "claude", "--user")
    assert run.code == 0, run.err
    assert os.readlink(settings) == "../dotfiles/claude-settings.json"
    assert b"todo hook claude" in dotfiles.read_bytes()
    assert stat.S_IMODE(dotfiles.stat().st_mode) == 0o600
    assert run_setup(tmp_path, victim, "claude", "--user", "--remove").code == 0
    assert settings.is_symlink()
    assert dotfiles.read_bytes() == SETTINGS


# -- --remove takes out todo's bytes, as they are now -------------------------------------

PERSON = b"""{
  "model": "opus",
  "model": "sonnet",
  "ratio": 1.10,
  "huge": 1e400,
  "hooks": {"PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
  ]}
}
"""
REWRITTEN = b"""{
  "permissions": {"allow": ["Bash(npm test)"]},
  "env": {"DEBUG": "1"},
  "model": "opus",
  "model": "sonnet",
  "ratio": 1.10,
  "huge": 1e400
}
"""
RULES = b"# Project\n\nNever push to main.\n"
NEW_RULES = b"# Project\n\nUse tabs.\nNever push to main; open a pull request.\n"


def test_remove_after_the_person_rewrote_the_files_keeps_their_new_bytes(
    project: Path, victim: Path
) -> None:
    settings, memory = project / ".claude" / "settings.json", project / "CLAUDE.md"
    settings.write_bytes(PERSON)
    memory.write_bytes(RULES)
    assert run_setup(project, victim, "claude").code == 0
    settings.write_bytes(REWRITTEN)  # the person's new settings and rules, without todo's
    memory.write_bytes(NEW_RULES)
    assert run_setup(project, victim, "claude").code == 0  # setup again adds todo's back
    assert b"todo hook claude" in settings.read_bytes()
    run = run_setup(project, victim, "claude", "--remove")
    assert run.code == 0, run.err
    assert settings.read_bytes() == REWRITTEN, "duplicate keys, 1.10 and 1e400 as written"
    assert memory.read_bytes() == NEW_RULES


def test_remove_after_the_person_edited_around_todo_s_entries_takes_out_only_those(
    project: Path, victim: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(PERSON)
    assert run_setup(project, victim, "claude").code == 0
    edited = settings.read_bytes().replace(b'"ratio": 1.10,', b'"ratio": 1.10,\n  "extra": 1.0e1,')
    settings.write_bytes(edited)
    assert run_setup(project, victim, "claude", "--remove").code == 0
    assert settings.read_bytes() == PERSON.replace(
        b'"ratio": 1.10,', b'"ratio": 1.10,\n  "extra": 1.0e1,'
    )


def test_lines_the_person_typed_inside_todo_s_block_stay_and_are_named(
    project: Path, victim: Path
) -> None:
    memory = project / "CLAUDE.md"
    memory.write_bytes(RULES)
    assert run_setup(project, victim, "claude").code == 0
    text = memory.read_bytes().replace(
        b"<!-- todo setup: end -->", b"- Also: run make lint before done.\n<!-- todo setup: end -->"
    )
    memory.write_bytes(text)
    run = run_setup(project, victim, "claude", "--remove")
    assert run.code == 0, run.err
    assert memory.read_bytes() == text, "the person's line (and the block around it) kept"
    first = text.count(b"\n", 0, text.index(b"<!-- todo setup: begin")) + 1
    last = text.count(b"\n")
    assert (
        f"Claude Code: {memory}:{first}-{last}: todo's block has lines changed by hand: "
        f"left as it is; remove lines {first}-{last} yourself" in run.out
    )
    assert not (project / ".claude" / "settings.json").exists(), "made by setup: taken out"


@pytest.mark.parametrize("args", [(), ("--remove",)])
def test_a_settings_file_nested_5000_deep_is_refused_in_one_line(
    project: Path, victim: Path, args: tuple[str, ...]
) -> None:
    settings = project / ".claude" / "settings.json"
    deep = b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    settings.write_bytes(deep)
    run = run_setup(project, victim, "claude", *args)
    assert run.code == 1
    assert run.err == (
        f"todo: {settings}: nested deeper than 200 levels, more than todo setup edits; "
        "nothing was written\n"
    )
    assert settings.read_bytes() == deep


def test_a_codex_config_nested_too_deeply_for_toml_s_reader_is_refused_in_one_line(
    project: Path, victim: Path
) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    deep = b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n"
    config.write_bytes(deep)
    run = run_setup(project, victim, "codex", "--mcp")
    assert run.code == 1
    assert run.err == f"todo: {config}: nested too deeply for TOML's reader; nothing was written\n"
    assert config.read_bytes() == deep
    assert not (project / "AGENTS.md").exists()


def test_setup_s_records_keep_no_copy_of_the_person_s_files(
    project: Path, victim: Path, home: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(SETTINGS)
    assert run_setup(project, victim, "claude").code == 0
    records = (home / "state" / "setup.json").read_text()
    assert "s3cr3t-token" not in records, "the token stays in the person's file alone"
    assert json.loads(records) == {
        "claude": {str(settings): {"made": False}, str(project / "CLAUDE.md"): {"made": True}}
    }


def test_a_hook_entry_the_person_changed_stays_and_is_named(project: Path, victim: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_bytes(SETTINGS)
    assert run_setup(project, victim, "claude").code == 0
    value = json.loads(settings.read_text())
    value["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 30  # the person's own setting
    settings.write_text(json.dumps(value, indent=2) + "\n")
    run = run_setup(project, victim, "claude", "--remove")
    assert run.code == 0, run.err
    left = json.loads(settings.read_text())
    assert left["hooks"] == {"Stop": value["hooks"]["Stop"]}, "theirs kept, todo's others gone"
    assert left["mcpServers"] == json.loads(SETTINGS)["mcpServers"]
    assert (
        f"Claude Code: {settings}: the hooks.Stop entry running 'todo hook claude' was "
        "changed by hand: left as it is" in run.out
    )


@pytest.mark.parametrize("tool", ["git", "claude", "codex", "gemini"])
def test_nothing_is_written_outside_the_files_the_dry_run_lists(
    tmp_path: Path, victim: Path, tool: str
) -> None:
    """``--dry-run`` names every file the setup then writes (the empty ``TODO.md``
    that ``setup git`` makes included), and the run writes no other file of the
    project or the person's home (todo's own record in its home is todo's)."""
    clone = cloned(tmp_path, lambda origin: None)

    def snapshot() -> dict[str, bytes]:
        found = {}
        for root in (clone, victim):
            for p in root.rglob("*"):
                if p.is_file() and not (root == clone and ".git" in p.relative_to(clone).parts):
                    found[str(p)] = p.read_bytes()
        config = clone / ".git" / "config"
        found[str(config)] = config.read_bytes()
        return found

    before = snapshot()
    dry = run_setup(clone, victim, tool, "--dry-run")
    assert dry.code == 0, dry.err
    assert snapshot() == before  # a dry run writes nothing
    listed = {line[4:].split(" (")[0] for line in dry.out.splitlines() if line.startswith("+++ ")}
    done = run_setup(clone, victim, tool)
    assert done.code == 0, done.err
    after = snapshot()
    touched = {path for path in after if after[path] != before.get(path)}
    assert touched, "the setup wrote nothing"
    assert {os.path.realpath(p) for p in touched} <= {os.path.realpath(p) for p in listed}
