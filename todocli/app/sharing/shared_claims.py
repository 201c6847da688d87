"""``todo claim`` on a project plan: claims seen by every worktree of the
repository (``storage.worktrees``). Under the ledger's lock, the claim skips the
tasks other agents took in other worktrees, and what it takes goes on record.
A task stays on record once claimed (done there, it is not offered here either).

Each write goes through the one transaction (``transaction.write``)."""

from __future__ import annotations

import os

from todocli.app.transaction import write
from todocli.base import TYPE_CHECKING
from todocli.document.model import Status

if TYPE_CHECKING:
    from todocli.app import Context, Outcome


def claim_shared(ctx: Context, task: str | None) -> Outcome:
    """The claim, written under the ledger's lock."""
    from todocli.engine.claims import key
    from todocli.engine.ops import Op, OpKind
    from todocli.storage.worktrees import SharedClaims, common_dir

    top = os.path.dirname(ctx.loc.list_file)
    common = common_dir(top)
    if common is None:
        return write(ctx, [Op(OpKind.CLAIM, task=task)])
    with SharedClaims(common, ctx.settings.lock_timeout) as shared:
        ledger = shared.read()
        taken = tuple((k, v["agent"]) for k, v in ledger.items() if v["agent"] != ctx.agent)
        outcome = write(ctx, [Op(OpKind.CLAIM, task=task, taken=taken)])
        claimed = outcome.result.claimed if outcome.result is not None else None
        if claimed is None or outcome.failed:
            return outcome
        held = next(
            (
                t
                for _, t in outcome.todo.tasks()
                if t.content == claimed and t.status is Status.IN_PROGRESS
            ),
            None,
        )
        if held is not None and key(held) not in ledger:
            ledger[key(held)] = {"agent": ctx.agent or "", "worktree": top}
            shared.write(ledger)
    return outcome


def record_owned(ctx: Context, outcome: Outcome) -> None:
    """After ``start``, ``done`` or ``drop`` by a named agent on a project plan: the
    tasks it holds or closed go on the ledger, claimed or not, so another worktree
    does not offer them."""
    from todocli.engine.claims import key
    from todocli.storage.worktrees import SharedClaims, common_dir

    if outcome.failed or ctx.agent is None:
        return
    top = os.path.dirname(ctx.loc.list_file)
    common = common_dir(top)
    if common is None:
        return
    owned = [t for _, t in outcome.todo.tasks() if t.meta.owner == ctx.agent]
    if not owned:
        return
    with SharedClaims(common, ctx.settings.lock_timeout) as shared:
        ledger = shared.read()
        new = {key(t): {"agent": ctx.agent, "worktree": top} for t in owned if key(t) not in ledger}
        if new:
            shared.write(ledger | new)
