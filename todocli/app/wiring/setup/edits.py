"""What ``todo setup`` adds to one file of an agent's configuration, and how it
takes it out again. Each edit only adds: to a JSON file a hook entry or a member
(inserted as text, every other byte kept: ``jsonedit``), to a markdown or TOML
file one block between marker lines, appended at its end."""

from __future__ import annotations

import json

from todocli.app.wiring.setup import jsonedit
from todocli.base import TYPE_CHECKING
from todocli.errors import InvalidParamError

if TYPE_CHECKING:
    from typing import Any


class Edit:
    """One addition to the file at ``path`` (``fmt``: json, toml or markdown).
    ``optional``: added only when asked (``--mcp``), removed only from a file todo
    wrote for that target."""

    fmt = "json"
    optional = False
    creates = False  # made even when it stays empty (a project plan)

    confined = True  # in a project setup, refused where it leads outside the project
    unended = False  # a block: added after a last line that had no line ending

    def __init__(self, path: str) -> None:
        self.path = path
        self.left: list[str] = []  # what a removal left for the person to take out

    def add(self, text: str) -> str:
        """``text`` with the addition (unchanged when it is there already)."""
        raise NotImplementedError

    def remove(self, text: str) -> str:
        """``text`` without the addition (unchanged when it is not there)."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


def check(path: str, text: str, fmt: str) -> object:
    """The parsed file; a file its own parser refuses is refused here, with its
    path and line, before anything is written."""
    if fmt == "json":
        if not text.strip():
            return {}
        if jsonedit.depth(text) > jsonedit.MAX_DEPTH:
            raise InvalidParamError(_too_deep(path))
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidParamError(
                f"{path}:{exc.lineno}: not valid JSON ({exc.msg}, column {exc.colno}); "
                "nothing was written: fix the file or move it aside"
            ) from None
        if not isinstance(value, dict):
            raise InvalidParamError(f"{path}:1: expected a JSON object; nothing was written")
        return value
    if fmt == "toml":
        import tomllib

        try:
            return tomllib.loads(text)
        except RecursionError:  # tomllib reads nested arrays and tables recursively
            raise InvalidParamError(
                f"{path}: nested too deeply for TOML's reader; nothing was written"
            ) from None
        except tomllib.TOMLDecodeError as exc:
            line = getattr(exc, "lineno", None)
            if line is None:  # before 3.14 the line is only in the message
                import re

                found = re.search(r"line (\d+)", str(exc))
                line = int(found.group(1)) if found else 1
            raise InvalidParamError(
                f"{path}:{line}: not valid TOML ({exc}); nothing was written: fix the file"
            ) from None
    return text


def _too_deep(path: str) -> str:
    return (
        f"{path}: nested deeper than {jsonedit.MAX_DEPTH} levels, more than todo setup "
        "edits; nothing was written"
    )


class HookEntry(Edit):
    """``{"matcher": M, "hooks": [{"type": "command", "command": C}]}`` in the array
    at ``where`` (Claude Code, Codex, Gemini CLI and Qwen Code share the shape)."""

    def __init__(
        self, path: str, where: list[str], command: str, matcher: str | None = None
    ) -> None:
        super().__init__(path)
        self.where = where
        self.command = command
        self.matcher = matcher

    def _entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {} if self.matcher is None else {"matcher": self.matcher}
        entry["hooks"] = [{"type": "command", "command": self.command}]
        return entry

    def _ours(self, entry: object) -> bool:
        hooks = entry.get("hooks") if isinstance(entry, dict) else None
        return isinstance(hooks, list) and any(
            isinstance(h, dict) and h.get("command") == self.command for h in hooks
        )

    def _entries(self, value: object) -> list[Any]:
        for name in self.where:
            value = value.get(name) if isinstance(value, dict) else None
        return value if isinstance(value, list) else []

    def add(self, text: str) -> str:
        value = check(self.path, text, "json")
        if any(self._ours(e) for e in self._entries(value)):
            return text
        base = text if text.strip() else "{}\n"
        try:
            return jsonedit.append_item(base, self.where, self._entry())
        except ValueError as exc:
            raise InvalidParamError(f"{self.path}: {exc}; nothing was written") from None

    def remove(self, text: str) -> str:
        """Only the entry as todo wrote it goes, taken out as text; one the person
        changed since stays, and is named for them to take out."""
        entries = self._entries(check(self.path, text, "json"))
        mine = self._entry()
        if any(self._ours(e) and e != mine for e in entries):
            self.left.append(
                f"{self.path}: the {'.'.join(self.where)} entry running {self.command!r} "
                "was changed by hand: left as it is (remove it yourself if you want it gone)"
            )
        return jsonedit.remove_items(text, self.where, lambda entry: entry == mine)

    def describe(self) -> str:
        on = f" ({self.matcher})" if self.matcher else ""
        return f"hook {'.'.join(self.where[1:])}{on}: {self.command}"


class Member(Edit):
    """``key: value`` in the object at ``where`` (an MCP server's registration)."""

    def __init__(self, path: str, where: list[str], key: str, value: object) -> None:
        super().__init__(path)
        self.where, self.key, self.value = where, key, value

    def _parent(self, value: object) -> object:
        for name in self.where:
            value = value.get(name) if isinstance(value, dict) else None
        return value

    def add(self, text: str) -> str:
        parent = self._parent(check(self.path, text, "json"))
        if isinstance(parent, dict) and self.key in parent:
            return text
        base = text if text.strip() else "{}\n"
        try:
            return jsonedit.add_member(base, self.where, self.key, self.value)
        except ValueError as exc:
            raise InvalidParamError(f"{self.path}: {exc}; nothing was written") from None

    def remove(self, text: str) -> str:
        parent = self._parent(check(self.path, text, "json"))
        if not isinstance(parent, dict) or self.key not in parent:
            return text
        if parent[self.key] != self.value:  # changed by the person since: theirs now
            self.left.append(
                f"{self.path}: {'.'.join([*self.where, self.key])} was changed by hand: "
                "left as it is (remove it yourself if you want it gone)"
            )
            return text
        return jsonedit.remove_member(text, self.where, self.key)

    def describe(self) -> str:
        return f"{'.'.join([*self.where, self.key])}: {json.dumps(self.value)}"


BEGIN = "todo setup: begin"
END = "todo setup: end"


class Block(Edit):
    """Lines appended between two marker lines: an instruction block in the
    markdown file an agent reads (``fmt`` markdown), a table of a TOML file
    (``toml``: checked by tomllib), or lines of any file that takes ``#`` comments
    (another ``fmt``: not checked)."""

    def __init__(
        self, path: str, body: str, fmt: str = "markdown", table: list[str] | None = None
    ) -> None:
        super().__init__(path)
        self.fmt = fmt
        self.table = table  # a TOML table the block defines: there already, nothing added
        self.body = body.rstrip("\n") + "\n"
        if fmt == "markdown":
            self.begin, self.end = f"<!-- {BEGIN} -->\n", f"<!-- {END} -->\n"
        else:  # TOML, and the files git reads (config, .gitattributes): # comments
            self.begin, self.end = f"# {BEGIN}\n", f"# {END}\n"

    def _span(self, text: str) -> tuple[int, int] | None:
        begin, end_line = self.begin, self.end
        if "\r\n" in text:
            begin, end_line = begin.replace("\n", "\r\n"), end_line.replace("\n", "\r\n")
        start = text.find(begin)
        if start < 0 or (start and text[start - 1] != "\n"):
            return None
        end = text.find(end_line, start)
        return None if end < 0 else (start, end + len(end_line))

    def add(self, text: str) -> str:
        parsed = check(self.path, text, self.fmt)
        if self._span(text) is not None:
            return text
        if self.table is not None:
            for name in self.table:
                parsed = parsed.get(name) if isinstance(parsed, dict) else None
            if parsed is not None:
                return text
        self.unended = bool(text) and not text.endswith("\n")
        lead = "" if not text else ("\n\n" if self.unended else "\n")
        added = lead + self.begin + self.body + self.end
        if "\r\n" in text:  # the file's own line ending
            added = added.replace("\n", "\r\n")
        new = text + added
        check(self.path, new, self.fmt)
        return new

    def remove(self, text: str) -> str:
        """The block taken out as it was written; one whose lines the person
        changed stays whole, and is named for them to take out."""
        span = self._span(text)
        if span is None:
            return text
        start, end = span
        block = text[start:end].replace("\r\n", "\n")
        if block != self.begin + self.body + self.end:
            first = text.count("\n", 0, start) + 1
            last = text.count("\n", 0, end)
            self.left.append(
                f"{self.path}:{first}-{last}: todo's block has lines changed by hand: left "
                f"as it is; remove lines {first}-{last} yourself, keeping the lines you want"
            )
            return text
        before = text[:start]
        for blank in ("\r\n\r\n", "\n\n"):
            if before.endswith(blank):  # the blank line the block was set apart with
                # and, where the last line had none, the line ending todo gave it
                before = before[: -len(blank) if self.unended else -len(blank) // 2]
                break
        return before + text[end:]

    def describe(self) -> str:
        first = self.body.splitlines()[0] if self.body else ""
        return f"block {first}"


class Plan(Edit):
    """A file that must exist, whatever it holds (a project plan): made empty when
    missing, never changed; a removal takes it out only as setup made it (empty,
    untouched since), through the record of what was there before."""

    fmt = "plan"
    creates = True

    def add(self, text: str) -> str:
        return text

    def remove(self, text: str) -> str:
        return text

    def describe(self) -> str:
        return "the project plan"
