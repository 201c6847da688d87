"""What todo refuses in JSON that Python's reader takes: a key given twice and a
number JSON has not (NaN, Infinity, one too large for a float); and the one line
that says what is wrong with an input that is not JSON. ``dialects`` reads JSON
and loads this module only when a document has one of these, or none at all: an
agent's valid payload makes neither error class.
"""

from __future__ import annotations

from todocli.errors import InvalidParamError


class DuplicateKeyError(ValueError):
    """A JSON object with the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class NotJSONError(ValueError):
    """Python's reader takes NaN and Infinity; JSON has no such numbers, and echoing
    them back (context.params_input) would make the output invalid JSON too."""


def is_refusal(error: BaseException) -> bool:
    """Whether the reader's error is one of these refusals (not the reader's own)."""
    return isinstance(error, (DuplicateKeyError, NotJSONError))


def invalid_input(error: ValueError, kind: type[InvalidParamError]) -> InvalidParamError:
    """The one line (an error of ``kind``) for JSON input that failed to read."""
    if isinstance(error, NotJSONError):
        return kind(f"invalid JSON: {error}")
    if isinstance(error, DuplicateKeyError):
        return kind(
            f'duplicate key "{error.key}" in a JSON object: each key may appear once '
            "(JSON parsers disagree on which one wins)"
        )
    import json  # json.JSONDecodeError: the reader's own words for what it read

    if isinstance(error, json.JSONDecodeError):
        return kind(f"invalid JSON: {error.msg} (line {error.lineno}, column {error.colno})")
    return kind(f"invalid JSON: {error}")  # e.g. an over-long integer
