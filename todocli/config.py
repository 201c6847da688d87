"""Read the settings: config file (TOML), then ``TODOCLI_<KEY>`` environment twins.

A missing config file means defaults; a malformed one is a usage error naming the
file and the line.
"""

from __future__ import annotations

from todocli.errors import UsageError
from todocli.model import Value
from todocli.settings import DropPolicy, Settings

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# Location keys the config file may also hold (flags and environment win).
LOCATION_KEYS = ("home", "session", "memory_dir")


class Config(Value):
    __slots__ = ("locations", "path", "settings", "sources")

    def __init__(
        self,
        settings: Settings,
        locations: dict[str, object],
        sources: dict[str, str],
        path: str,
    ) -> None:
        self.settings = settings
        self.locations = locations  # home / session / memory_dir from the file
        self.sources = sources  # for each setting: "default", the file, or the variable
        self.path = path


def _convert(key: str, value: object, where: str) -> object:
    default = getattr(Settings(), key)
    if key == "snapshot_drop":
        try:
            return DropPolicy(str(value).lower())
        except ValueError:
            raise UsageError(f"{where}: snapshot_drop must be warn, reject or allow") from None
    if key == "wipe_on_complete":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise UsageError(f"{where}: wipe_on_complete must be true or false")
    kind = type(default)
    try:
        if isinstance(value, bool):
            raise ValueError
        converted = kind(value)
    except (TypeError, ValueError):
        raise UsageError(f"{where}: {key} must be a number, got {value!r}") from None
    if key in ("max_tasks", "max_field_bytes", "max_note_bytes", "max_input_bytes") and (
        converted <= 0
    ):
        raise UsageError(f"{where}: {key} must be greater than 0")
    if key in ("max_in_progress", "remind_every", "lock_timeout") and converted < 0:
        raise UsageError(f"{where}: {key} must not be negative")
    return converted


def _read_file(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise UsageError(f"config file {path} is a directory") from None
    except OSError as exc:
        raise UsageError(f"cannot read config file {path}: {exc.strerror}") from None
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"config file {path} is not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        last_line = data.count(b"\n") + 1
        message = str(exc).replace("(at end of document)", f"(at the end, line {last_line})")
        raise UsageError(f"config file {path}: {message}") from None


def load(path: str, env: Mapping[str, str]) -> Config:
    """Settings from the file at ``path`` and the environment."""
    data = _read_file(path)
    names = set(Settings.__slots__)
    values: dict[str, object] = {}
    sources = dict.fromkeys(names, "default")
    locations: dict[str, object] = {}
    for key, value in data.items():
        if key in LOCATION_KEYS:
            locations[key] = value
            continue
        if key not in names:
            known = ", ".join(sorted(names | set(LOCATION_KEYS)))
            raise UsageError(f"config file {path}: unknown key {key!r} (known: {known})")
        values[key] = _convert(key, value, f"config file {path}")
        sources[key] = path
    for key in names:
        var = f"TODOCLI_{key.upper()}"
        if env.get(var):
            values[key] = _convert(key, env[var], f"environment variable {var}")
            sources[key] = var
    return Config(Settings().replace(**values), locations, sources, path)
