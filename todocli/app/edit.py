"""``todo edit``: a person edits the list in their editor; the result is checked,
written as a revision under the lock, and what changed is reported. (The front end
says how to ask the person about an edit with lines that look like tasks but are
not: see ``edit``'s ``confirm``.)"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from todocli.app.commands import Context, Outcome, expect_rev
from todocli.app.replacement import Replacement, replace_text
from todocli.base import TYPE_CHECKING
from todocli.document.markdown import parse
from todocli.document.model import Diff, Result
from todocli.errors import ConflictError, InvalidParamError, StorageError, UsageError
from todocli.storage.files import ENCODING_ERRORS, make_dir, read_text, reason

if TYPE_CHECKING:
    from todocli.app.transaction import Read


def editor_command(env: dict[str, str] | os._Environ[str]) -> list[str]:
    """$VISUAL, else $EDITOR, split like a shell would but never run by one."""
    for var in ("VISUAL", "EDITOR"):
        value = env.get(var, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError as exc:
                raise UsageError(f"${var} cannot be read ({exc}): {value!r}") from None
            if words:
                return words
    raise UsageError("set $VISUAL or $EDITOR to the editor to use (for example: EDITOR=nano)")


def edit(ctx: Context, confirm: Callable[[list[str]], bool] | None = None) -> Outcome:
    """Open the list in the editor. ``confirm`` shows the person the warnings about
    lines the reader does not take as tasks and asks whether to keep the edit
    anyway (without it, such an edit is not kept)."""
    store = ctx.store
    original = store.read()
    expect_rev(ctx, store.last_written(original)[0])  # before the person spends any effort
    command = editor_command(ctx.env)  # type: ignore[arg-type]
    make_dir(ctx.loc.state_dir)
    try:
        fd, name = tempfile.mkstemp(prefix="edit-", suffix=".md", dir=ctx.loc.state_dir)
    except OSError as exc:  # a full disk has no room for a new file either
        raise StorageError(
            f"cannot make the copy to edit in {ctx.loc.state_dir}: {reason(exc)}; "
            "nothing was written"
        ) from None
    path = Path(name)
    keep = False
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(original.encode("utf-8", ENCODING_ERRORS))
        except OSError as exc:  # not the terminal's fault: the boundary would say stdout
            raise StorageError(
                f"cannot write the copy to edit, {name}: {reason(exc)}; nothing was written"
            ) from None
        try:
            status = subprocess.run([*command, str(path)], check=False).returncode
        except OSError as exc:
            raise UsageError(f"cannot run the editor {command[0]!r}: {exc.strerror}") from None
        if status != 0:
            keep = True
            raise InvalidParamError(
                f"the editor exited with status {status}; nothing was written. "
                f"Your edit is kept in {path}"
            )
        if not os.path.exists(name):  # an editor that removed its file saved nothing
            raise InvalidParamError("the edited file is gone; nothing was written")
        keep = True  # until it is written: an edit over the limits stays for the person
        edited = read_text(name, ctx.settings.max_file_bytes, "max_file_bytes")
        keep = False
        if edited == original:
            outcome = ctx.outcome(parse(original).model(), store.rev())
            outcome.notices.append("No changes.")
            return outcome
        doc = parse(edited)
        if doc.warnings and (confirm is None or not confirm(doc.warnings)):
            keep = True
            raise InvalidParamError(
                f"the edit has lines that look like tasks but are not (above); nothing "
                f"was written. Your edit is kept in {path}"
            )

        def choose(seen: Read) -> Replacement:
            nonlocal keep
            if seen.text != original:
                keep = True
                raise ConflictError(
                    f"the list changed while you were editing; nothing was written. "
                    f"Your edit is kept in {path}"
                )
            return Replacement(edited)

        rev = replace_text(ctx, choose)[1]
        old, new = parse(original).model(), doc.model()
        result = Result(old=old, new=new, written=True, diff=Diff.between(old, new))
        return ctx.outcome(new, rev, result=result, warnings=[])
    finally:
        if not keep:
            with contextlib.suppress(OSError):
                path.unlink()
