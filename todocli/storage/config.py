"""Read the settings: config file (TOML), then ``TODOCLI_<KEY>`` environment twins.

A missing config file means defaults; a malformed one is a usage error naming the
file and the line.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING, Value, read_simple_toml
from todocli.engine import DropPolicy, Settings
from todocli.errors import UsageError
from todocli.storage.files import read_bytes

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CONFIG_BYTES = 64 * 1024  # a config is a few lines; more is not a config
# Location keys the config file may also hold (flags and environment win).
LOCATION_KEYS = ("home", "session", "memory_dir")


class Config(Value):
    def __init__(
        self,
        settings: Settings,
        locations: dict[str, object],  # home / session / memory_dir from the file
        sources: dict[str, str],  # for each setting: "default", the file, or the variable
        path: str,
    ) -> None:
        self.settings = settings
        self.locations = locations
        self.sources = sources
        self.path = path


# Fields of ``Settings`` that no file or variable sets: which limits are in force.
INTERNAL = frozenset({"plan"})
# The range of each numeric setting: limits a person may want raised, but never
# past what the machine can do (a read of 2**63 bytes, a lock wait of a year).
RANGES: dict[str, tuple[float, float]] = {
    "max_tasks": (1, 1_000_000),
    "max_field_bytes": (1, 1 << 20),
    "plan_max_tasks": (1, 1_000_000),
    "plan_max_field_bytes": (1, 1 << 20),
    "max_note_bytes": (1, 1 << 20),
    "max_input_bytes": (1, 1 << 30),
    "max_file_bytes": (1, 1 << 30),
    "max_in_progress": (0, 1_000_000),
    "remind_every": (0, 1_000_000),
    "lock_timeout": (0, 86_400),
    "clear_delay": (-1, 1e9),  # seconds; -1 (or any negative): never
    "claim_timeout": (0, 1e9),  # seconds, or a duration such as "30m"
    "check_timeout": (0, 1e9),  # seconds, or a duration such as "10m"
    "save_pause": (0.05, 10),  # seconds: an editor's longest pause within one save
}
# What a write prints: what changed and the recap, or the whole list as well.
REPLIES = ("lean", "full")
# The units a duration setting may be written in ("90s", "30m", "2h", "1d").
DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def _convert(key: str, value: object, where: str) -> object:
    default = getattr(Settings(), key)
    if key == "snapshot_drop":
        try:
            return DropPolicy.of(str(value).lower())
        except ValueError:
            raise UsageError(f"{where}: snapshot_drop must be warn, reject or allow") from None
    if key == "reply":
        text = str(value).strip().lower()
        if text not in REPLIES:
            raise UsageError(f"{where}: reply must be lean or full, got {value!r}")
        return text
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
    if key in ("claim_timeout", "check_timeout") and isinstance(value, str):
        value = _duration(value)
    try:
        if isinstance(value, bool) or (kind is int and isinstance(value, float)):
            raise ValueError  # max_tasks = 3.7 is no count (it would be cut to 3)
        converted = kind(value)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"{where}: {key} must be a number, got {value!r}") from None
    low, high = RANGES[key]
    # `not low <= x <= high` also refuses nan, which no comparison holds for.
    if not low <= converted <= high:
        raise UsageError(
            f"{where}: {key} must be a number from {_number(low)} to {_number(high)}, got {value!r}"
        )
    return converted


def _duration(text: str) -> object:
    """``"30m"`` → 1800.0; anything else is handed back for the number check."""
    body = text.strip()
    unit = DURATION_UNITS.get(body[-1:])
    if unit is None:
        return text
    try:
        return float(body[:-1]) * unit
    except ValueError:
        return text


def _number(bound: float) -> str:
    return str(int(bound)) if bound == int(bound) else str(bound)


def _read_file(path: str) -> dict[str, Any]:
    data = read_bytes(path, CONFIG_BYTES)
    if data is None:
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"config file {path} is not valid UTF-8") from None
    simple = read_simple_toml(text)
    if simple is not None:
        return simple
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        last_line = data.count(b"\n") + 1
        message = str(exc).replace("(at end of document)", f"(at the end, line {last_line})")
        raise UsageError(f"config file {path}: {message}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise UsageError(f"config file {path}: values nested too deeply") from None


def load(path: str, env: Mapping[str, str]) -> Config:
    """Settings from the file at ``path`` and the environment."""
    data = _read_file(path)
    names = set(Settings.__slots__) - INTERNAL
    values: dict[str, object] = {}
    sources = dict.fromkeys(names, "default")
    locations: dict[str, object] = {}
    for key, value in data.items():
        if key in LOCATION_KEYS:
            if not isinstance(value, str) or not value:
                # A number or a list would become a folder named "5" or "[1, 2]"
                # in whatever directory todo runs in.
                raise UsageError(f"config file {path}: {key} must be a non-empty string")
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
