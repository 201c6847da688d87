"""The JSON shortcut of ``todo apply`` gives what ``json.loads`` gives."""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.engine.dialects import (
    InputError,
    _finite,
    _object,
    _ScannerContext,
    decode,
    loads_json,
)
from todocli.engine.json_refusals import NotJSONError

# JSON has no NaN or Infinity: todo refuses them (see the last test).
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=15,
)


def strict_loads(text: str) -> object:
    """``json.loads`` as strict as todo: no key twice, no NaN, no Infinity."""
    return json.loads(
        text,
        object_pairs_hook=_object,
        parse_float=_finite,
        parse_constant=_ScannerContext.parse_constant,
    )


def same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or (
        isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    )


@settings(max_examples=1000)
@given(JSON, st.sampled_from(["", " ", "\n", "\t\r\n "]))
def test_valid_documents_decode_as_json_loads_decodes_them(value: object, pad: str) -> None:
    text = pad + json.dumps(value, indent=None if len(pad) % 2 else 1) + pad
    assert same(loads_json(text), json.loads(text))


@settings(max_examples=1000)
@given(st.text(st.sampled_from(list('{}[]",:0123456789.eE-+ tnrufalsNI\\\x00')), max_size=16))
def test_any_text_decodes_or_fails_as_json_loads_does(text: str) -> None:
    def outcome(loader: Callable[[str], object]) -> tuple[str, object]:
        try:
            return "value", json.dumps(loader(text), sort_keys=True)
        except ValueError as error:
            return type(error).__name__, str(error)

    assert outcome(loads_json) == outcome(strict_loads)


def test_an_over_long_integer_is_invalid_input_not_a_crash() -> None:
    with pytest.raises(InputError) as caught:
        decode(b"[" + b"1" * 5000 + b"]", 1 << 20)
    assert caught.value.message.startswith("invalid JSON: ")


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "[1e999]", "-1e400"])
def test_numbers_json_does_not_have_are_refused(text: str) -> None:
    with pytest.raises(NotJSONError):
        loads_json(text)
    with pytest.raises(InputError) as caught:
        decode(text.encode(), 1 << 20)
    assert caught.value.message.startswith("invalid JSON: ")
