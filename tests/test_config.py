"""The config file: the quick reader agrees with tomllib, and settings come from the
file and the environment."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support_cli import todo_process
from todocli.base import read_simple_toml
from todocli.engine import DropPolicy
from todocli.errors import UsageError
from todocli.storage.config import load

KEYS = st.sampled_from(["max_tasks", "snapshot_drop", "a", "b-c", "x_1", "bad key", ""])
VALUES = st.sampled_from(
    [
        "1",
        "0",
        "-3",
        "+4",
        "1_000",
        "01",
        "1__0",
        "1.5",
        "0.25",
        "-0.5",
        "1.",
        ".5",
        "1e3",
        "true",
        "false",
        "True",
        '"warn"',
        "'reject'",
        '"a\\\\b"',
        '"tab\\there"',
        '"x',
        "[1]",
        '"caf\u00e9"',
        "inf",
        "nan",
        "0x10",
        "{}",
        "",
    ]
)
LINES = st.one_of(
    st.tuples(
        st.sampled_from(["", " ", "\t"]),
        KEYS,
        st.sampled_from(["=", " = ", "\t=\t", ":"]),
        VALUES,
        st.sampled_from(["", " ", " # note", "#x", " #\x01"]),
    ).map("".join),
    st.sampled_from(["", "# comment", "   ", "[table]", "a.b = 1", "\ufeff", "x = 1 2"]),
)


@settings(max_examples=1500)
@given(st.lists(LINES, max_size=6), st.sampled_from(["\n", "\r\n", "\r"]))
def test_the_quick_reader_agrees_with_tomllib_whenever_it_answers(
    lines: list[str], eol: str
) -> None:
    text = eol.join(lines)
    quick = read_simple_toml(text)
    if quick is None:
        return
    assert quick == tomllib.loads(text)


def test_typical_configs_are_read_without_tomllib() -> None:
    text = (
        "# limits\nmax_tasks = 200\nsnapshot_drop = 'reject'\n"
        "clear_delay = 60.5\nwipe_on_complete = false\n"
    )
    assert read_simple_toml(text) == {
        "max_tasks": 200,
        "snapshot_drop": "reject",
        "clear_delay": 60.5,
        "wipe_on_complete": False,
    }


def test_settings_come_from_the_file_then_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("max_tasks = 200\nsnapshot_drop = 'reject'\n")
    config = load(str(path), {"TODOCLI_MAX_TASKS": "7"})
    assert (config.settings.max_tasks, config.settings.snapshot_drop) == (7, DropPolicy.REJECT)
    assert config.sources["max_tasks"] == "TODOCLI_MAX_TASKS"
    assert config.sources["snapshot_drop"] == str(path)
    assert config.sources["max_in_progress"] == "default"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("max_tasks = [\n", "line"),
        ("max_tasks = 1\nmax_tasks = 2\n", "line 2"),
        ("bogus = 1\n", "unknown key 'bogus'"),
        ("max_tasks = 'many'\n", "max_tasks must be a number"),
        ("max_tasks = 0\n", "max_tasks must be a number from 1 to 1000000, got 0"),
        ("snapshot_drop = 'maybe'\n", "snapshot_drop must be warn, reject or allow"),
    ],
)
def test_a_malformed_config_is_a_usage_error_naming_the_file(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(UsageError) as caught:
        load(str(path), {})
    assert str(path) in caught.value.message
    assert words in caught.value.message


@pytest.mark.parametrize("value", ["[" * 2000 + "]" * 2000, "{b=" * 2000 + "}" * 2000])
def test_values_nested_beyond_reason_are_a_usage_error_not_a_crash(
    tmp_path: Path, value: str
) -> None:
    """tomllib reads nesting by recursion: a file nested thousands deep is a config
    error naming the file (exit 2), never Python's RecursionError. Run as a real
    ``todo``: in this test process another library may have raised the recursion
    limit, and tomllib would then read the file."""
    path = tmp_path / "config.toml"
    path.write_text(f"a = {value}\n")
    run = todo_process("config", env={"TODOCLI_CONFIG": str(path)})
    assert run.code == 2
    assert "nested too deeply" in run.err
    assert str(path) in run.err
    assert "Traceback" not in run.err
