"""Edits to a JSON file that keep every byte of what was there: a new member or
array element is inserted as text, indented as its neighbours are; nothing else
is rewritten. (``json`` reads the document; this finds where each value sits.)"""

from __future__ import annotations

import json

from todocli.base import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WS = " \t\r\n"


class Node:
    """A value of the document and where it is: ``start``/``end`` its span (and
    ``key``: where its key starts, in an object); for an object, its members (key →
    node, the last of a duplicated key, as ``json`` reads it); for an array, its
    items; for both, ``children`` in the document's order."""

    __slots__ = ("children", "end", "items", "key", "members", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.end = start
        self.key = start
        self.members: dict[str, Node] | None = None
        self.items: list[Node] | None = None
        self.children: list[Node] = []


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _scan(text: str, i: int) -> Node:
    node = Node(i)
    c = text[i]
    if c == "{":
        node.members = {}
        i = _skip(text, i + 1)
        while text[i] != "}":
            key_start = i
            end = _string_end(text, i)
            key = json.loads(text[i:end])
            i = _skip(text, _skip(text, end) + 1)  # past the colon
            value = _scan(text, i)
            value.key = key_start
            node.members[key] = value
            node.children.append(value)
            i = _skip(text, value.end)
            if text[i] == ",":
                i = _skip(text, i + 1)
        node.end = i + 1
    elif c == "[":
        node.items = []
        i = _skip(text, i + 1)
        while text[i] != "]":
            value = _scan(text, i)
            node.items.append(value)
            node.children.append(value)
            i = _skip(text, value.end)
            if text[i] == ",":
                i = _skip(text, i + 1)
        node.end = i + 1
    elif c == '"':
        node.end = _string_end(text, i)
    else:
        while i < len(text) and text[i] not in _WS + ",]}":
            i += 1
        node.end = i
    return node


def _rescan(text: str, node: Node) -> Node:
    """``node`` found again in ``text`` with its CRLF line endings made LF."""
    plain = text.replace("\r\n", "\n")
    start = node.start - text.count("\r\n", 0, node.start)
    return _scan(plain, start)


# Deeper than any agent's settings; well inside Python's recursion limit, which
# ``json`` and the scan below would otherwise hit (a RecursionError).
MAX_DEPTH = 200


def depth(text: str) -> int:
    """How deep the document's arrays and objects nest (strings skipped)."""
    deepest = level = 0
    i, size = 0, len(text)
    while i < size:
        c = text[i]
        if c == '"':
            i += 1
            while i < size and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "[{":
            level += 1
            deepest = max(deepest, level)
        elif c in "]}":
            level -= 1
        i += 1
    return deepest


def parse(text: str) -> tuple[Any, Node]:
    """The document's value and its tree of spans. Raises ``ValueError``
    (``json.JSONDecodeError``, with its line) for text that is not JSON, or that
    nests deeper than ``MAX_DEPTH``."""
    if depth(text) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    value = json.loads(text)
    return value, _scan(text, _skip(text, 0))


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    line = text[start:at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dump(value: object, indent: str, unit: str) -> str:
    """``value`` as JSON, one level of ``unit`` per nesting, continued at ``indent``."""
    if not unit:
        return json.dumps(value, ensure_ascii=False)
    body = json.dumps(value, ensure_ascii=False, indent=len(unit.expandtabs()))
    if "\t" in unit:
        body = "\n".join(
            "\t" * ((len(line) - len(line.lstrip(" "))) // len(unit.expandtabs()))
            + line.lstrip(" ")
            for line in body.split("\n")
        )
    return body.replace("\n", "\n" + indent)


def _insert(text: str, node: Node, piece_of: Callable[[str, str], str]) -> str:
    """Insert into the container ``node`` a new last entry, made by ``piece_of``
    (given the entry's indent and one level's unit), with the file's line ending."""
    if "\r\n" in text:
        made = _insert(text.replace("\r\n", "\n"), _rescan(text, node), piece_of)
        return made.replace("\n", "\r\n")
    children = list(node.members.values()) if node.members is not None else node.items or []
    close = node.end - 1
    outer = _line_indent(text, node.start)
    multiline = "\n" in text[node.start : node.end]
    if children:
        last = children[-1]
        indent = _line_indent(text, last.start) if multiline else ""
        unit = indent[len(outer) :] if multiline and indent.startswith(outer) else ""
        sep = "\n" + indent if multiline else " "
        piece = piece_of(indent, unit or ("  " if multiline else ""))
        return text[: last.end] + "," + sep + piece + text[last.end :]
    # An empty container: its entry goes on a line of its own, two spaces in.
    indent = outer + "  "
    piece = piece_of(indent, "  ")
    return text[: node.start + 1] + "\n" + indent + piece + "\n" + outer + text[close:]


def add_member(text: str, path: list[str], key: str, value: object) -> str:
    """``text`` with ``key: value`` added to the object at ``path`` (objects made
    on the way where missing). The key must not be there already."""
    _, root = parse(text)
    node = root
    for i, name in enumerate(path):
        assert node.members is not None
        if name not in node.members:
            nested: object = {key: value}
            for outer in reversed(path[i + 1 :]):
                nested = {outer: nested}
            return _add(text, node, name, nested)
        node = node.members[name]
    return _add(text, node, key, value)


def _add(text: str, node: Node, key: str, value: object) -> str:
    if node.members is None:
        raise ValueError("not an object")

    def piece(indent: str, unit: str) -> str:
        return json.dumps(key, ensure_ascii=False) + ": " + _dump(value, indent, unit)

    return _insert(text, node, piece)


def append_item(text: str, path: list[str], value: object) -> str:
    """``text`` with ``value`` appended to the array at ``path`` (made, with the
    objects on the way, where missing)."""
    _, root = parse(text)
    node = root
    for i, name in enumerate(path):
        if node.members is None:
            raise ValueError(f"{'.'.join(path[:i]) or 'the document'} is not an object")
        if name not in node.members:
            nested: object = [value]
            for outer in reversed(path[i + 1 :]):
                nested = {outer: nested}
            return _add(text, node, name, nested)
        node = node.members[name]
    if node.items is None:
        raise ValueError(f"{'.'.join(path)} is not an array")

    def piece(indent: str, unit: str) -> str:
        return _dump(value, indent, unit)

    return _insert(text, node, piece)


def _find(root: Node, path: list[str]) -> Node | None:
    node: Node | None = root
    for name in path:
        node = None if node is None or node.members is None else node.members.get(name)
    return node


def _cut(text: str, node: Node, child: Node) -> str:
    """``text`` without ``child`` of the container ``node``: its span and the comma
    and spacing that set it apart, every other byte kept."""
    children = node.children
    k = next(i for i, c in enumerate(children) if c is child)
    if len(children) == 1:  # the container as it was before the first entry: empty
        return text[: node.start + 1] + text[node.end - 1 :]
    if k == len(children) - 1:  # the last: from the end of the one before it
        return text[: children[k - 1].end] + text[child.end :]
    return text[: child.key] + text[children[k + 1].key :]


def _prune(text: str, path: list[str]) -> str:
    """``text`` without the containers on ``path`` a removal left empty."""
    for size in range(len(path), 0, -1):
        _, root = parse(text)
        node, parent = _find(root, path[:size]), _find(root, path[: size - 1])
        if node is None or parent is None or node.children:
            break
        if node.members is None and node.items is None:  # a scalar: not a container
            break
        text = _cut(text, parent, node)
    return text


def remove_items(text: str, path: list[str], match: Callable[[Any], bool]) -> str:
    """``text`` without the items of the array at ``path`` that ``match`` (their
    value), each taken out as text; containers left empty on the way go too."""
    removed = False
    while True:
        _, root = parse(text)
        node = _find(root, path)
        if node is None or node.items is None:
            break
        found = next((c for c in node.items if match(json.loads(text[c.start : c.end]))), None)
        if found is None:
            break
        text, removed = _cut(text, node, found), True
    return _prune(text, path) if removed else text


def remove_member(text: str, path: list[str], key: str) -> str:
    """``text`` without ``key`` of the object at ``path`` (taken out as text);
    containers left empty on the way go too."""
    _, root = parse(text)
    node = _find(root, path)
    if node is None or node.members is None or key not in node.members:
        return text
    return _prune(_cut(text, node, node.members[key]), path)
