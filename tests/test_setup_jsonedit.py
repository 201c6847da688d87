"""The JSON edits ``todo setup`` makes only insert: whatever the document's layout
(one line, two or four spaces, tabs, CRLF), the result parses, holds exactly the
value asked for, and keeps every byte that was there, in order."""

from __future__ import annotations

import copy
import difflib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.app.wiring.setup import jsonedit

KEYS = st.sampled_from(["hooks", "Stop", "mcpServers", "a", "b", "naïve", 'q"uote'])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=8,
)
LAYOUTS = st.sampled_from([None, 2, 4, "\t", 0])


def only_added(before: str, after: str) -> bool:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return all(tag in ("equal", "insert") for tag, *_ in matcher.get_opcodes())


def expected_append(document: Any, path: list[str], value: object) -> Any:
    result = copy.deepcopy(document)
    node = result
    for name in path[:-1]:
        node = node.setdefault(name, {})
    node.setdefault(path[-1], []).append(value)
    return result


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(KEYS, VALUES, max_size=4),
    st.lists(KEYS, min_size=1, max_size=3),
    VALUES,
    LAYOUTS,
    st.booleans(),
)
def test_appending_only_inserts_and_gives_the_value_asked_for(
    document: dict[str, Any],
    path: list[str],
    value: object,
    layout: int | str | None,
    crlf: bool,
) -> None:
    text = json.dumps(document, indent=layout, ensure_ascii=False) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    node: Any = document
    for name in path:  # only where every step on the way is an object, the last an array
        if not isinstance(node, dict):
            return
        node = node.get(name, {} if name != path[-1] else [])
    if not isinstance(node, list):
        return
    result = jsonedit.append_item(text, path, value)
    assert json.loads(result) == expected_append(document, path, value)
    assert only_added(text, result)
    if crlf:
        assert "\n" not in result.replace("\r\n", "")


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4), KEYS, VALUES, LAYOUTS)
def test_adding_a_member_only_inserts(
    document: dict[str, Any], key: str, value: object, layout: int | str | None
) -> None:
    servers = document.get("mcpServers", {})
    if not isinstance(servers, dict) or key in servers:
        return
    text = json.dumps(document, indent=layout, ensure_ascii=False)
    result = jsonedit.add_member(text, ["mcpServers"], key, value)
    expected = copy.deepcopy(document)
    expected.setdefault("mcpServers", {})[key] = value
    assert json.loads(result) == expected
    assert only_added(text, result)


def _has_empty_container_on(document: Any, path: list[str]) -> bool:
    node = document
    for name in path:
        if not isinstance(node, dict) or name not in node:
            return False
        node = node[name]
        if node in ([], {}):
            return True
    return False


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(KEYS, VALUES, max_size=4),
    st.lists(KEYS, min_size=1, max_size=3),
    LAYOUTS,
    st.booleans(),
)
def test_removing_what_was_appended_gives_back_every_byte(
    document: dict[str, Any], path: list[str], layout: int | str | None, crlf: bool
) -> None:
    text = json.dumps(document, indent=layout, ensure_ascii=False) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    node: Any = document
    for name in path:
        if not isinstance(node, dict):
            return
        node = node.get(name, {} if name != path[-1] else [])
    # An empty container on the way is taken out with the entry (as setup prunes).
    if not isinstance(node, list) or _has_empty_container_on(document, path):
        return
    entry = {"hooks": [{"type": "command", "command": "todo hook x"}]}
    added = jsonedit.append_item(text, path, entry)
    assert jsonedit.remove_items(added, path, lambda item: item == entry) == text


def test_removing_an_entry_keeps_the_person_s_number_and_key_spellings() -> None:
    text = '{"a": 1.10, "a": 2, "big": 1e400, "hooks": {"Stop": [1, {"x": 1}, 2.50]}}\n'
    assert jsonedit.remove_items(text, ["hooks", "Stop"], lambda item: item == {"x": 1}) == (
        '{"a": 1.10, "a": 2, "big": 1e400, "hooks": {"Stop": [1, 2.50]}}\n'
    )
    assert jsonedit.remove_member(text, [], "big") == (
        '{"a": 1.10, "a": 2, "hooks": {"Stop": [1, {"x": 1}, 2.50]}}\n'
    )
