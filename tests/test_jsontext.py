"""JSON output written without the json package is json's own output, byte for
byte: the C encoder used directly, the pure-Python one, and ``render.json_text``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.app.render import json_text
from todocli.base import jsontext
from todocli.document.model import Status
from todocli.escapes import json_safe

# Every kind of code point: C0 and C1 controls, DEL, quotes and backslashes, lone
# surrogates (those surrogateescape makes of bytes that are not UTF-8, and others),
# format and bidi characters, line separators, astral characters.
TEXT = st.text(
    st.one_of(
        st.characters(blacklist_categories=()),
        st.sampled_from(['"', "\\", "\x00", "\x1b", "\x7f", "\x9b", "\udc80", "\udcff", "\ud800"]),
        st.sampled_from(["\u202e", "\u200b", "\ufeff", "\u2028", "\U000e0001", "\U0001f600"]),
    )
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**300), max_value=10**300),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
    st.sampled_from(Status.ALL),  # str subclasses are written as their text
)
KEYS = st.one_of(TEXT, st.integers(), st.floats(), st.booleans(), st.none())
DATA = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(KEYS, inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=1500)
@given(DATA)
def test_dumps_is_json_dumps(value: object) -> None:
    expected = json.dumps(value, ensure_ascii=False)
    assert jsontext.dumps(value) == expected
    assert "".join(jsontext._chunks(value)) == expected  # where _json is missing


@settings(max_examples=500)
@given(DATA)
def test_json_text_is_the_escaped_json_dumps(value: object) -> None:
    """What ``--json`` prints: json's text with the terminal-unsafe characters escaped."""
    assert json_text(value) == json_safe(json.dumps(value, ensure_ascii=False)) + "\n"


@pytest.mark.parametrize("pure", [False, True])
def test_what_json_refuses_is_refused_alike(pure: bool) -> None:
    dumps = (lambda v: "".join(jsontext._chunks(v))) if pure else jsontext.dumps
    for value in ({1, 2}, {"a": object()}, {(1, 2): "tuple key"}):
        with pytest.raises(TypeError) as ours:
            dumps(value)
        with pytest.raises(TypeError) as theirs:
            json.dumps(value, ensure_ascii=False)
        assert str(ours.value) == str(theirs.value)


def test_no_json_import(tmp_path: object) -> None:
    """The point of it: writing JSON does not load the json package."""
    import subprocess
    import sys

    code = (
        "import sys; from todocli.base import jsontext; "
        "jsontext.dumps({'a': [1, 2.5, None, 'é\\x1b']}); print('json' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"
