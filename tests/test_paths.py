"""Locations: the default home and config paths are platformdirs' own, computed
without importing it on plain Linux."""

from __future__ import annotations

import os
import sys

import platformdirs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.base import path_key
from todocli.storage import paths

ENV_VALUES = st.sampled_from(
    [None, "", " ", "relative/dir", "/abs/dir", "/abs/dir/", "~/tilde", "/with space"]
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fast rule is Linux's")
@settings(max_examples=300, deadline=None)
@given(data_home=ENV_VALUES, config_home=ENV_VALUES, home=ENV_VALUES)
def test_default_home_and_config_match_platformdirs(
    data_home: str | None, config_home: str | None, home: str | None
) -> None:
    saved = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME")}
    try:
        for key, value in (
            ("XDG_DATA_HOME", data_home),
            ("XDG_CONFIG_HOME", config_home),
            ("HOME", home),
        ):
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        try:
            expected_home = platformdirs.user_data_dir("todocli")
        except RuntimeError:
            expected_home = None
        try:
            expected_config = os.path.join(platformdirs.user_config_dir("todocli"), "config.toml")
        except RuntimeError:
            expected_config = None
        if expected_home is not None:
            assert paths.default_home() == expected_home
        if expected_config is not None:
            assert paths.default_config_file({}) == expected_config
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def test_a_file_list_keeps_its_state_under_the_home_keyed_by_real_path(tmp_path: object) -> None:
    loc = paths.resolve(home="/h", file="/p/TODO.md", env={})
    assert loc.state_dir.startswith("/h/state/files/")
    assert not loc.is_session
    assert paths.resolve(home="/h", file="/p/./TODO.md", env={}).state_dir == loc.state_dir


@settings(max_examples=500)
@given(st.text(st.characters(blacklist_categories=()), max_size=40))
def test_path_key_is_hashlib_sha256(path: str) -> None:
    """The lock's name is the SHA-256 hashlib would give (without loading OpenSSL),
    so every todo, whatever its build, takes the same lock for one list."""
    import hashlib

    try:
        data = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate outside U+DC80..U+DCFF: no path has it
        return
    assert path_key(path) == hashlib.sha256(data).hexdigest()[:16]
