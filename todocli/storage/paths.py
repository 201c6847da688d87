"""Where things live. The only module that reads the environment for locations and
asks platformdirs for the platform's defaults.

Precedence for each location: command-line flag > environment > config > default.

Paths are plain strings (``os.path``), not ``pathlib``: the agent's path starts a
process per call, and ``pathlib`` alone costs a few milliseconds to import.
"""

from __future__ import annotations

import os
import sys

from todocli.base import AGENT_SESSION, TYPE_CHECKING, Value, is_session_name, path_key
from todocli.errors import UsageError
from todocli.escapes import one_line

if TYPE_CHECKING:
    from collections.abc import Mapping

SESSION_RULE = (
    "a session name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
)
DEFAULT_SESSION = "default"
APP = "todocli"


class Locations(Value):
    """Every path one invocation uses."""

    def __init__(
        self,
        home: str,
        session: str,
        list_file: str,  # the markdown list
        is_session: bool,  # a session list (False: a --file list)
        memory_dir: str,  # completion logs
        state_dir: str,  # lock, revisions, counters: always under the home
        project: bool = False,  # the work tree's TODO.md, found from the current folder
        agent_plan: str | None = None,  # the plan of the agent session this call runs in
    ) -> None:
        self.home = home
        self.session = session
        self.list_file = list_file
        self.is_session = is_session
        self.memory_dir = memory_dir
        self.state_dir = state_dir
        self.project = project
        self.agent_plan = agent_plan

    @property
    def on_agent_plan(self) -> bool:
        """A call of an agent session on its own plan (its shell and its mirrored
        todo tool are one agent there)."""
        return self.agent_plan is not None and self.is_session and self.session == self.agent_plan

    @property
    def is_backlog(self) -> bool:
        """A work tree's project plan: found, ``--project``, or named with ``--file``."""
        if self.project:
            return True
        folder, name = os.path.split(self.list_file)
        return (
            not self.is_session
            and name == PROJECT_PLAN
            and os.path.lexists(os.path.join(folder, ".git"))
        )

    @property
    def lock_file(self) -> str:
        """Not under the home: see ``lock_path``."""
        return lock_path(self.list_file)


def runtime_dir() -> str:
    """Where this user's locks live: the same folder for every ``todo`` process of
    the user, whatever its home, config or environment.

    ``TODOCLI_LOCK_DIR`` when it is set (every process that writes one list must
    then set the same: for tests and unusual machines). Otherwise, on POSIX,
    ``/tmp/todocli-UID``: a fixed place, because the obvious ones move with the
    environment (``$XDG_RUNTIME_DIR`` and ``$TMPDIR`` are set in a login shell and
    not under cron, ssh or sudo; ``/run/user/UID`` exists only while the user is
    logged in), and two processes that disagree would not exclude each other. It is
    checked to be this user's own and private when a lock is taken. Elsewhere:
    platformdirs' user runtime folder.
    """
    chosen = os.environ.get("TODOCLI_LOCK_DIR")
    if chosen:
        return os.path.abspath(os.path.expanduser(chosen))
    if hasattr(os, "getuid"):
        return f"/tmp/{APP}-{os.getuid()}"
    import platformdirs

    return str(platformdirs.user_runtime_dir(APP))


def _private_dir(path: str, uid: int) -> bool:
    """A real folder (no symlink) owned by ``uid`` that no one else may enter."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (info.st_mode & 0o170000) == 0o040000 and info.st_uid == uid and not info.st_mode & 0o077


def lock_path(list_file: str) -> str:
    """The lock of a list: keyed by the list's real path, so two spellings of one
    file, two homes and two configs all take the same lock."""
    key = path_key(os.path.realpath(list_file))
    return os.path.join(runtime_dir(), "locks", f"{key}.lock")


def check_private_dir(path: str) -> bool:
    """Whether a folder the tool made for its locks is still this user's own and
    private (a folder in a shared temporary folder could be someone else's)."""
    return _private_dir(path, os.getuid()) if hasattr(os, "getuid") else True


def check_session(name: str) -> str:
    if not is_session_name(name):
        raise UsageError(f"invalid session name '{one_line(name)}': {SESSION_RULE}")
    return name


AGENT_RULE = "an agent name is 1 to 64 of A-Z a-z 0-9 . _ - @, starting with a letter or digit"
_AGENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-@")


def agent_name(flag: str | None, env: Mapping[str, str], flag_name: str = "--agent") -> str | None:
    """The agent an invocation works for: ``--agent`` (or the argument ``flag_name``
    names), else ``TODOCLI_AGENT``, else None (one agent: today's rules). It is
    written into the list as an owner, so it is one line of safe characters, of
    bounded length."""
    name = flag if flag is not None else env.get("TODOCLI_AGENT") or None
    if name is None:
        return None
    if 0 < len(name) <= 64 and name[0] not in "._-@" and _AGENT_CHARS.issuperset(name):
        return name

    where = flag_name if flag is not None else "TODOCLI_AGENT"
    raise UsageError(f"invalid agent name '{one_line(name)}' ({where}): {AGENT_RULE}")


def _plain_linux() -> bool:
    """Linux, not Android: where platformdirs' answer is the XDG rule below."""
    env = os.environ
    android = hasattr(sys, "getandroidapilevel") or (
        env.get("ANDROID_DATA") == "/data" and env.get("ANDROID_ROOT") == "/system"
    )
    return sys.platform.startswith("linux") and not android


def _xdg_dir(variable: str, default: str) -> str | None:
    """platformdirs' Unix rule for a user directory, or None when it is not the
    simple case (a HOME that is set but not absolute): then ask platformdirs."""
    path = os.environ.get(variable, "")
    if os.path.isabs(path):
        return os.path.join(path, APP)
    home = os.environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        return None
    expanded = os.path.expanduser(default)
    return os.path.join(expanded, APP) if os.path.isabs(expanded) else None


def default_home() -> str:
    """``platformdirs.user_data_dir("todocli")``; computed without importing it on
    plain Linux (a test proves the two agree)."""
    if _plain_linux():
        fast = _xdg_dir("XDG_DATA_HOME", "~/.local/share")
        if fast is not None:
            return fast
    import platformdirs

    return platformdirs.user_data_dir(APP)


def default_config_file(env: Mapping[str, str]) -> str:
    """``TODOCLI_CONFIG``, else ``platformdirs.user_config_dir("todocli")/config.toml``."""
    if env.get("TODOCLI_CONFIG"):
        return os.path.expanduser(env["TODOCLI_CONFIG"])
    directory = _xdg_dir("XDG_CONFIG_HOME", "~/.config") if _plain_linux() else None
    if directory is None:
        import platformdirs

        directory = platformdirs.user_config_dir(APP)
    return os.path.join(directory, "config.toml")


PROJECT_PLAN = "TODO.md"
_OFF = ("0", "off", "false", "no")


def project_plan(start: str, env: Mapping[str, str], home: str | None = None) -> str | None:
    """The project plan for a command run in ``start``: ``TODO.md`` at the top of
    the git work tree (or the plan ``todo setup git --plan`` named for it in
    ``home``), found as git finds ``.git`` (a folder, or the file a linked
    worktree has), walking up from ``start``, and never above the work tree's top
    nor past ``GIT_CEILING_DIRECTORIES``. None outside a work tree, when its top
    has no such file, or when ``TODOCLI_PROJECT`` is 0 or off. A few ``stat``
    calls and one small read, no ``git`` process: it runs on every call of an agent."""
    if env.get("TODOCLI_PROJECT", "").lower() in _OFF:
        return None
    ceilings = {os.path.abspath(c) for c in env.get("GIT_CEILING_DIRECTORIES", "").split(":") if c}
    folder = start
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            named = None
            # A plan the work tree names (todo setup git --plan): one stat when none is.
            if home and os.path.isdir(os.path.join(home, "state", "projects")):
                from todocli.storage.agent_sessions import named_plan

                named = named_plan(home, folder)
            plan = os.path.join(folder, named or PROJECT_PLAN)
            # A FIFO or a device there (or a link to one) is the plan too, to be
            # refused when read: never silently another list. A folder is not.
            return plan if os.path.exists(plan) and not os.path.isdir(plan) else None
        parent = os.path.dirname(folder)
        if parent == folder or parent in ceilings:
            return None
        folder = parent


def plan_outside(list_file: str) -> str | None:
    """For a project plan (``TODO.md`` at the top of a work tree, or the file ``todo
    setup git --plan`` named below it: a file a clone brings): where it leads when a
    symlink on its way (the file, or a folder between it and the work tree's top)
    takes it outside the work tree or into its ``.git``; None when it stays inside.
    todo neither reads nor writes such a plan: a repository would otherwise have it
    write a file of the person's (a link to ``~/.bashrc``, a folder linked to
    ``~``) or git's own. ``TODO.md`` at the top, no link: two ``lstat`` calls."""
    folder = os.path.dirname(list_file)
    top = folder
    while not os.path.lexists(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:  # no work tree above: its own folder stands for the top
            top = folder
            break
        top = parent
    if top == folder and not os.path.islink(list_file):
        return None
    real_top = os.path.realpath(top)
    real = os.path.realpath(list_file)
    git = os.path.join(real_top, ".git")
    if os.path.commonpath([real_top, real]) == real_top and os.path.commonpath([git, real]) != git:
        return None
    return real


# -- the agent session a call runs in ------------------------------------------------------
#
# Which list is an agent session's plan, for every door (a hook event, a shell
# command the agent runs, MCP, the stop gate, the plan put back, `todo`, `todo
# watch`): a list named by the call (``--file``, ``--session``, ``--project``,
# ``TODOCLI_FILE``, ``TODOCLI_SESSION``) is that list; else a call made in a hooked
# agent's session uses that session's plan, the list its hook record names; else
# the config's, the project plan, ``default``. A call is in an agent session when
# ``TODOCLI_AGENT_SESSION`` (which the hooks hand the agent's shell) names a hooked
# session, or the harness's own variable does (its shell's session id), or, for a
# harness that passes none to its shell, when its shell's marker is set and the
# harness hooked a session in this folder or one above it (the newest there).

# fmt: off
# -- generated by tools/generate.py from the agents' descriptors --
AGENT_SHELLS: tuple[tuple[str, str, str], ...] = (
    ("claude", "CLAUDE_CODE_SESSION_ID", "CLAUDECODE"),
    ("codex", "CODEX_THREAD_ID", "CODEX_THREAD_ID"),
    ("gemini", "", "GEMINI_CLI"),
    ("qwen", "QWEN_CODE_SESSION_ID", "QWEN_CODE"),
)
# -- end of the generated lists --
# fmt: on


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us
        return None


def resolve(
    *,
    home: str | None = None,
    session: str | None = None,
    file: str | None = None,
    memory_dir: str | None = None,
    env: Mapping[str, str] | None = None,
    config: Mapping[str, object] | None = None,
    project: bool = False,
) -> Locations:
    """Work out the locations from flags, the environment and the config."""
    env = os.environ if env is None else env
    config = config or {}

    def pick(flag: str | None, var: str, key: str) -> str | None:
        if flag is not None:
            return flag  # even empty: an explicit "" is checked, not ignored
        if env.get(var):
            return env[var]
        value = config.get(key)
        return str(value) if value else None

    home_text = pick(home, "TODOCLI_HOME", "home")
    if home_text == "":
        raise UsageError("--home needs a directory")
    home_path = os.path.abspath(os.path.expanduser(home_text) if home_text else default_home())
    start = _cwd()
    hooked = None
    if env.get(AGENT_SESSION) or any(env.get(m) or (v and env.get(v)) for _, v, m in AGENT_SHELLS):
        from todocli.storage.agent_sessions import agent_session  # an agent harness's shell

        hooked = agent_session(home_path, env, start, AGENT_SHELLS)
    named = session if session is not None else env.get("TODOCLI_SESSION") or None
    if hooked and named is None and file is None and not env.get("TODOCLI_FILE") and not project:
        session = hooked  # the agent session's plan: before the config's list
    chosen = pick(session, "TODOCLI_SESSION", "session")
    name = check_session(DEFAULT_SESSION if chosen is None else chosen)
    file_text = pick(file, "TODOCLI_FILE", "file")
    if file_text == "":
        raise UsageError("--file needs a path (it was given an empty one)")
    memory_text = pick(memory_dir, "TODOCLI_MEMORY_DIR", "memory_dir")
    if memory_text == "":
        raise UsageError("--memory-dir needs a directory (it was given an empty one)")
    memory = (
        os.path.abspath(os.path.expanduser(memory_text))
        if memory_text
        else os.path.join(home_path, "memory", "todos")
    )
    plan = None
    if project and file_text:
        raise UsageError("--project and --file name two lists: give one")
    if project:
        plan = (
            project_plan(start, dict(env) | {"TODOCLI_PROJECT": ""}, home_path) if start else None
        )
        if plan is None:
            raise UsageError(
                "--project: no project plan here (TODO.md at the top of a git work tree; "
                "make one with: todo init --project)"
            )
    elif not file_text and chosen is None:
        plan = project_plan(start, env, home_path) if start is not None else None
    if (file_text and not project) or plan:
        list_file = plan or os.path.abspath(os.path.expanduser(file_text or ""))
        # Keyed by the real path, so two names for one file share one history.
        state = os.path.join(home_path, "state", "files", path_key(os.path.realpath(list_file)))
        return Locations(home_path, name, list_file, False, memory, state, plan is not None, hooked)
    return Locations(
        home_path,
        name,
        os.path.join(home_path, "sessions", f"{name}.md"),
        True,
        memory,
        os.path.join(home_path, "state", "sessions", name),
        agent_plan=hooked,
    )
