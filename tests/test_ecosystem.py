"""Completions, the man page, docs that cannot drift, and packaging."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.support_cli import todo_process

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import generate  # noqa: E402 - the generator lives in tools/, not in the package


def visible_commands() -> list[str]:
    return [c.name for c in generate.spec().commands]


# -- drift ---------------------------------------------------------------------------------


def test_generated_files_match_the_command_line() -> None:
    for path, text in generate.outputs().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date: run python tools/generate.py"
        )


def test_every_command_is_in_help_readme_and_man_page() -> None:
    help_text = todo_process("--help").out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    man = (ROOT / "man" / "todo.1").read_text(encoding="utf-8")
    for name in visible_commands():
        assert re.search(rf"^\s+{re.escape(name)}\b", help_text, re.M), f"{name} not in --help"
        assert f"todo {name}" in readme or f"`todo {name}`" in readme, f"{name} not in README"
        assert f"\\fB{name}\\fR" in man, f"{name} not in the man page"


def test_every_global_option_is_in_readme_and_man_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    man = (ROOT / "man" / "todo.1").read_text(encoding="utf-8")
    for option in generate.spec().global_options:
        long = option.names[0]
        if long == "--help":
            continue
        assert long in readme, f"{long} not in README"
        assert long.replace("-", "\\-") in man, f"{long} not in the man page"


def test_every_config_key_is_documented() -> None:
    from todocli.engine import Settings
    from todocli.storage.config import INTERNAL

    configuration = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    man = (ROOT / "man" / "todo.1").read_text(encoding="utf-8")
    for key in set(Settings.__slots__) - INTERNAL:  # which limits are in force: no key
        assert f"`{key}`" in configuration, f"config key {key} not in docs/configuration.md"
        assert key.replace("_", "_") in man, f"config key {key} not in the man page"


def user_docs() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("\n") <= 300, "the README is for users: the rest goes to docs/"
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert blocks[:2] == [
        'pip install . && todo add "Try todocli" && todo\n',
        "pip install -e '.[test]' && pytest\n",
    ]
    assert readme.index(blocks[1]) < readme.index("\n## Where the list is\n")


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_docs_reaches_a_file_and_a_heading() -> None:
    for doc in user_docs():
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target:
                continue
            name, _, anchor = target.partition("#")
            path = (doc.parent / name).resolve() if name else doc
            assert path.is_file(), f"{doc.name}: {target} names no file"
            if anchor:
                headings = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)
                assert anchor in {_anchor(h) for h in headings}, f"{doc.name}: {target}"


def test_user_facing_text_speaks_of_the_product_not_of_its_making() -> None:
    internal = re.compile(r"\b[Ss]eeds? \d|\b[Ss]eed\b|\bSPEC\b|\b[Ii]ssues? \d")
    texts = {doc.name: doc.read_text(encoding="utf-8") for doc in user_docs()}
    texts["todo.1"] = (ROOT / "man" / "todo.1").read_text(encoding="utf-8")
    texts["--help"] = todo_process("--help").out
    for name, text in texts.items():
        found = internal.findall(text)
        assert not found, f"{name} speaks of {found}"


# -- the man page ---------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_man_page_renders_without_warnings() -> None:
    proc = subprocess.run(
        ["man", "--warnings", "-l", str(ROOT / "man" / "todo.1")],
        env={**os.environ, "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert "EXIT STATUS" in proc.stdout
    assert "EXAMPLES" in proc.stdout


# -- completions in real shells ---------------------------------------------------------------


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "TODOCLI_HOME": str(tmp_path / "home"),
        "TODOCLI_CONFIG": str(tmp_path / "none.toml"),
    }
    for args in (["add", "Run the tests", "Fix the bug"], ["-s", "other", "add", "Elsewhere"]):
        assert todo_process(*args, env=env).code == 0
    return env


def bash_complete(env: dict[str, str], *words: str) -> list[str]:
    script = (
        f"source {ROOT / 'completions' / 'todo.bash'}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)})\n"
        "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
        "COMPREPLY=()\n_todo\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    proc = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return [line for line in proc.stdout.split("\n") if line]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_tasks_and_sessions(shell_env: dict[str, str]) -> None:
    assert bash_complete(shell_env, "todo", "d") == ["done", "drop", "doctor", "diff"]
    assert bash_complete(shell_env, "todo", "done", "") == ["Run\\ the\\ tests", "Fix\\ the\\ bug"]
    assert bash_complete(shell_env, "todo", "start", "F") == ["Fix\\ the\\ bug"]
    assert bash_complete(shell_env, "todo", "--session", "") == ["default", "other"]
    assert bash_complete(shell_env, "todo", "-s", "other", "done", "") == ["Elsewhere"]
    assert "--note" in bash_complete(shell_env, "todo", "done", "--")
    assert bash_complete(shell_env, "todo", "schema", "") == ["ops", "snapshot", "envelope"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_runs_nothing_a_task_or_a_file_name_holds(
    shell_env: dict[str, str], tmp_path: Path
) -> None:
    """compgen -W would run a $(...) in a task's text; a candidate inserted as it is
    would run it when the line is entered. Neither may happen."""
    trap = tmp_path / "PWNED"
    shell_env = {**shell_env, "PWN": str(trap)}  # a file name holds no "/": name it by $PWN
    tasks = ["Update docs $(touch $PWN)", "`touch $PWN`"]
    listing = tmp_path / "TODO.md"
    listing.write_text("# Ph $(touch $PWN)\n" + "".join(f"- [ ] {t}\n" for t in tasks))
    (Path(shell_env["TODOCLI_HOME"]) / "sessions" / "$(touch $PWN).md").write_text("")
    done = bash_complete(shell_env, "todo", "--file", str(listing), "done", "")
    phases = bash_complete(shell_env, "todo", "--file", str(listing), "add", "--phase", "")
    names = bash_complete(shell_env, "todo", "-s", "")
    assert not trap.exists()
    assert names == ["default", "other"]  # a file that is no session name is no session
    for offered, meant in zip([*done, *phases], [*tasks, "Ph $(touch $PWN)"], strict=True):
        # Each is one quoted word: as the shell reads it back, it is the text itself.
        back = subprocess.run(
            ["bash", "-c", f"printf '%s' {offered}"],
            env=shell_env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert back.stdout == meant
    assert not trap.exists()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_completion_helper_is_served_by_the_fast_path(shell_env: dict[str, str]) -> None:
    probe = (
        "import sys\nsys.argv = ['todo', '__complete', 'tasks']\n"
        "from todocli.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write(str('typer' in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], env=shell_env, capture_output=True, text=True
    )
    assert proc.stdout.splitlines() == ["Run the tests", "Fix the bug"]
    assert proc.stderr == "False"


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completion_parses() -> None:
    proc = subprocess.run(
        ["zsh", "-n", str(ROOT / "completions" / "_todo")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_zsh_offers_an_option_that_may_be_given_again_after_it_is_given() -> None:
    """zsh offers an option once unless its spec starts with ``*``: every option the
    table marks as repeatable (``--after``) has it, and no other option does (hidden
    commands, which git and harnesses run, are not completed)."""
    from todocli.cli import command_table

    text = (ROOT / "completions" / "_todo").read_text()
    options = [o for c in command_table.COMMANDS if not c.hidden for o in c.options]
    repeatable = {n for o in options if o.many for n in o.names}
    assert "--after" in repeatable
    for o in options:
        for name in o.names:
            assert (f"'*{name}[" in text) == o.many, name
            assert f"'{name}[" in text or o.many, name


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completion_parses() -> None:
    proc = subprocess.run(
        ["fish", "--no-execute", str(ROOT / "completions" / "todo.fish")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


# -- aliases, version, config ------------------------------------------------------------------


def test_ls_and_a_are_aliases(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "c.toml")}
    assert todo_process("a", "X", env=env).code == 0
    assert todo_process("ls", env=env).out == todo_process("show", env=env).out


def test_version_comes_from_the_package_metadata() -> None:
    from importlib.metadata import version

    assert todo_process("--version").out == f"todo {version('todocli-md')}\n"


def test_config_prints_each_setting_with_its_source(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("max_tasks = 80\n")
    env = {
        "TODOCLI_HOME": str(tmp_path / "h"),
        "TODOCLI_CONFIG": str(config),
        "TODOCLI_REMIND_EVERY": "5",
    }
    out = todo_process("config", env=env).out
    assert re.search(rf"^max_tasks\s+= 80\s+# {re.escape(str(config))}$", out, re.M)
    assert re.search(r"^remind_every\s+= 5\s+# TODOCLI_REMIND_EVERY$", out, re.M)
    assert re.search(r"^max_in_progress\s+= 1\s+# default$", out, re.M)
    data = __import__("json").loads(todo_process("config", "--json", env=env).out)
    assert data["data"]["settings"]["max_tasks"] == {"value": 80, "source": str(config)}
    assert data["data"]["locations"]["home"] == str(tmp_path / "h")


# -- packaging ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_built_wheel_installs_in_a_fresh_venv_with_its_man_page(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(dist),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    wheel = next(dist.glob("todocli_md-*.whl"))
    with zipfile.ZipFile(wheel) as built:  # todo serve's page ships in the package
        shipped = set(built.namelist())
    assert {"todocli/serve/static/board.css", "todocli/serve/static/board.js"} <= shipped
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    pip = target / "bin" / "pip"
    install = subprocess.run(
        [str(pip), "install", "--quiet", str(wheel)], capture_output=True, text=True, timeout=600
    )
    assert install.returncode == 0, install.stderr
    version = subprocess.run(
        [str(target / "bin" / "todo"), "--version"], capture_output=True, text=True
    )
    assert version.returncode == 0
    assert version.stdout.startswith("todo ")
    # The console script (where a #! script does not run) is the same command.
    console = subprocess.run(
        [str(target / "bin" / "todocli"), "--version"], capture_output=True, text=True
    )
    assert console.returncode == 0, console.stderr
    assert console.stdout == version.stdout
    assert (target / "share" / "man" / "man1" / "todo.1").exists()
