"""The agent sessions hooks reported, and the plan a work tree names: read by
``paths.resolve`` only in an agent harness's shell (one of ``paths.AGENT_SHELLS``'
variables set) or in a work tree, so a person's everyday call loads none of it.

The rule these serve is ``paths.resolve``'s (see its comment): a call in a hooked
agent's session uses that session's plan.
"""

from __future__ import annotations

import os

from todocli.base import AGENT_SESSION, TYPE_CHECKING, is_session_name, path_key, safe_session

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


def hooked_dir(home: str) -> str:
    """The hooked sessions' records (``<id>.json``, ``<id>.list``) and, under
    ``current/``, the newest session each harness hooked in each folder."""
    return os.path.join(home, "state", "hooked")


def current_path(home: str, agent: str, folder: str) -> str:
    return os.path.join(hooked_dir(home), "current", f"{agent}-{path_key(folder)}")


def _read_name(path: str) -> str | None:
    """A session name kept alone in a small file, or None."""
    try:
        with open(path, encoding="utf-8") as handle:
            name = handle.read(100).strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if is_session_name(name) else None


def hooked_plan(home: str, session: str) -> str | None:
    """The plan (a session list's name) of a hooked session, or None when no hook
    recorded that session."""
    return _read_name(os.path.join(hooked_dir(home), f"{session}.list"))


def _newest_here(home: str, agent: str, start: str | None) -> str | None:
    folder = start
    while folder:
        found = _read_name(current_path(home, agent, folder))
        if found:
            return found
        parent = os.path.dirname(folder)
        folder = parent if parent != folder else None
    return None


def agent_session(
    home: str,
    env: Mapping[str, str],
    start: str | None,
    shells: Sequence[tuple[str, str, str]],
) -> str | None:
    """The plan of the agent session this call runs in, or None (the rule of
    ``paths.resolve``): ``shells`` are the harnesses' shell variables,
    ``paths.AGENT_SHELLS``."""
    given = env.get(AGENT_SESSION)
    if given:
        return hooked_plan(home, given) if is_session_name(given) else None
    for agent, variable, marker in shells:
        raw = env.get(variable) if variable else None
        if raw:
            session = safe_session(raw)
            plan = hooked_plan(home, session) if session else None
            if plan:
                return plan
        if raw or env.get(marker):
            session = _newest_here(home, agent, start)
            plan = hooked_plan(home, session) if session else None
            if plan:
                return plan
    return None


def plan_record(home: str, top: str) -> str:
    """Where ``todo setup git --plan PATH`` records the plan it named for the work
    tree ``top`` (in this home: this clone's choice, as git's own config is)."""
    return os.path.join(home, "state", "projects", path_key(top))


def named_plan(home: str, top: str) -> str | None:
    """The plan ``todo setup git --plan`` named for ``top``: its path under the top,
    or None (then ``TODO.md``). A record that is not a plain relative path inside
    the work tree (outside git's folder) is no plan."""
    try:
        with open(plan_record(home, top), encoding="utf-8") as handle:
            name = handle.read(4097).strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if plan_path_error(name) is None else None


def plan_path_error(name: str) -> str | None:
    """Why ``name`` cannot be a work tree's plan (a path relative to its top), or None."""
    parts = name.split("/")
    if not name or len(name) > 4096 or os.path.isabs(name) or "\\" in name:
        return "a path inside the work tree, relative to its top"
    if any(p in ("", ".", "..") for p in parts) or parts[0].lower() == ".git":
        return "a path inside the work tree, outside .git, without . or .."
    if any(c.isspace() or c in '*?[]!#"' or ord(c) < 32 for c in name):
        return "no spaces, quotes or glob characters (.gitattributes names it)"
    return None
