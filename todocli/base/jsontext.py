"""JSON text out, without importing the ``json`` package.

``dumps(value)`` is ``json.dumps(value, ensure_ascii=False)``, byte for byte: the
same separators, key order, escapes and numbers. ``import json`` costs 7-8 ms
(30 M instructions, 3.11 to 3.13) of every ``--json`` call (its decoder compiles
regular expressions, and ``re`` comes with them); the C encoder it would call is
in the small ``_json`` module (0.2 ms), used here directly, as
``dialects.loads_json`` uses its scanner.
Where ``_json`` is missing (not CPython) a pure-Python encoder of the same output
runs. ``tests/test_jsontext.py`` compares both with ``json.dumps`` over arbitrary
data.
"""

from __future__ import annotations


def dumps(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False)``: one line, ``", "`` and ``": "``
    between items, non-ASCII text as it is, C0 controls, ``"`` and ``\\`` escaped."""
    if isinstance(value, str):
        return _string(value)
    try:
        from _json import encode_basestring, make_encoder
    except ImportError:  # not CPython
        return "".join(_chunks(value))
    # What json.dumps builds (json.encoder.JSONEncoder.iterencode, one line), anew
    # each time as there: the markers of an encoding that failed may be left behind.
    encoder = make_encoder(
        {},  # markers: a list or dict holding itself is an error, not a hang
        _unserializable,  # default
        encode_basestring,  # strings as ensure_ascii=False writes them
        None,  # indent
        ": ",  # key separator
        ", ",  # item separator
        False,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan
    )
    return "".join(encoder(value, 0))


def _unserializable(value: object) -> object:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


# -- the pure-Python encoder -----------------------------------------------------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_table: dict[int, str] | None = None


def _string(text: str) -> str:
    """A JSON string: ``"`` and ``\\`` escaped, C0 controls as json writes them."""
    global _table
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{str.__str__(text)}"'
    if _table is None:
        _table = {c: _SHORT.get(chr(c), f"\\u{c:04x}") for c in range(0x20)}
        _table |= {ord(c): e for c, e in _SHORT.items()}
    return '"' + text.translate(_table) + '"'


def _number(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    if isinstance(key, str):
        return _string(key)
    if key is True or key is False or key is None:
        return '"' + {True: "true", False: "false", None: "null"}[key] + '"'
    if isinstance(key, int):
        return f'"{int.__repr__(key)}"'
    if isinstance(key, float):
        return f'"{_number(key)}"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _chunks(value: object, out: list[str] | None = None) -> list[str]:
    """The pieces of ``value``'s JSON text (types tried in json's encoder's order)."""
    out = [] if out is None else out
    if isinstance(value, str):
        out.append(_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_number(value))
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, element in enumerate(value):
            if i:
                out.append(", ")
            _chunks(element, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for i, (key, element) in enumerate(value.items()):
            out.append((", " if i else "") + _key(key) + ": ")
            _chunks(element, out)
        out.append("}")
    else:
        _unserializable(value)
    return out
