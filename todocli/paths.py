"""Where things live. The only module that reads the environment for locations and
asks platformdirs for the platform's defaults.

Precedence for each location: command-line flag > environment > config > default.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from todocli.errors import UsageError

SESSION_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SESSION_RULE = (
    "a session name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
)
DEFAULT_SESSION = "default"


@dataclass(frozen=True)
class Locations:
    """Every path one invocation uses."""

    home: Path
    session: str
    list_file: Path  # the markdown list
    is_session: bool  # a session list (False: a --file list)
    memory_dir: Path  # completion logs
    state_dir: Path  # lock, revisions, counters: always under the home

    @property
    def lock_file(self) -> Path:
        return self.state_dir / "lock"


def check_session(name: str) -> str:
    if not SESSION_RE.fullmatch(name):
        raise UsageError(f"invalid session name {name!r}: {SESSION_RULE}")
    return name


def default_home() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("todocli"))


def default_config_file(env: Mapping[str, str]) -> Path:
    if env.get("TODOCLI_CONFIG"):
        return Path(env["TODOCLI_CONFIG"]).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("todocli")) / "config.toml"


def resolve(
    *,
    home: str | None = None,
    session: str | None = None,
    file: str | None = None,
    memory_dir: str | None = None,
    env: Mapping[str, str] | None = None,
    config: Mapping[str, object] | None = None,
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
    home_path = Path(home_text).expanduser() if home_text else default_home()
    home_path = Path(os.path.abspath(home_path))
    chosen = pick(session, "TODOCLI_SESSION", "session")
    name = check_session(DEFAULT_SESSION if chosen is None else chosen)
    file_text = pick(file, "TODOCLI_FILE", "file")
    memory_text = pick(memory_dir, "TODOCLI_MEMORY_DIR", "memory_dir")
    memory = (
        Path(os.path.abspath(Path(memory_text).expanduser()))
        if memory_text
        else home_path / "memory" / "todos"
    )
    if file_text:
        list_file = Path(os.path.abspath(Path(file_text).expanduser()))
        # Keyed by the real path, so two names for one file share one lock.
        key = hashlib.sha256(os.path.realpath(list_file).encode()).hexdigest()[:16]
        state = home_path / "state" / "files" / key
        return Locations(home_path, name, list_file, False, memory, state)
    return Locations(
        home_path,
        name,
        home_path / "sessions" / f"{name}.md",
        True,
        memory,
        home_path / "state" / "sessions" / name,
    )
