"""Several agents on one plan: who holds what, and which task waits for which.

A task in progress with an owner (``meta.owner``) is that agent's claim. A task
waits while any task it depends on (``meta.blocked_by``, by id) is still open; a
dependency on an id no task carries any more (cleared, removed) is no longer
waited on. The engine (``ops``) uses these to choose what ``claim`` takes and what
starts by itself; the renderers to say who holds a task and what it waits on.

The ``claim`` op and an agent's ``start`` are here too (``claim``, ``take``):
they work on the engine's state, and ``ops`` loads this module only for a batch
with an agent or dependencies.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.model import Status, id_number
from todocli.engine import OpFailure
from todocli.errors import CycleError
from todocli.escapes import quoted

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from todocli.document.markdown import Document, TaskNode
    from todocli.document.model import Task, TodoList
    from todocli.engine.ops import Engine, Op

MOST_NAMED = 5  # tasks named per kind in "nothing to claim" before "(+N more)"


def waiting_on(tasks: Iterable[Task | TaskNode]) -> dict[int, list[int]]:
    """For each task that waits, by position (0-based), the positions of the open
    tasks it waits on."""
    items = list(tasks)
    open_ids: dict[str, int] = {}
    for i, task in enumerate(items):
        if task.meta.id and task.status.is_open:
            open_ids.setdefault(task.meta.id, i)
    if not open_ids:
        return {}
    waits: dict[int, list[int]] = {}
    for i, task in enumerate(items):
        on = sorted({open_ids[d] for d in task.meta.blocked_by if d in open_ids} - {i})
        if on:
            waits[i] = on
    return waits


def list_waiting(todo: TodoList) -> dict[int, list[int]]:
    """``waiting_on`` for a list: show numbers (1-based) of each waiting task and of
    what it waits on."""
    waits = waiting_on(t for _, t in todo.tasks())
    return {i + 1: [d + 1 for d in on] for i, on in waits.items()}


def cycle_in(
    waits: Mapping[int, list[int]], roots: Iterable[int] | None = None
) -> list[int] | None:
    """Tasks that wait on each other in a circle (``waits``: what each task waits
    on, as ``waiting_on`` gives it), in order, the first not repeated; None when
    there is none (``roots``: only a circle these tasks reach). Todo refuses to add
    a cycle, but a person may write one by hand: its tasks can never start.
    Iterative: a plan may be long."""
    state: dict[int, int] = {}  # 1: on the current path, 2: done
    for root in waits if roots is None else roots:
        if root in state or root not in waits:
            continue
        path = [root]
        todo = [iter(waits[root])]
        state[root] = 1
        while todo:
            step = next(todo[-1], None)
            if step is None:
                state[path.pop()] = 2
                todo.pop()
                continue
            seen = state.get(step)
            if seen == 1:  # round: named from its first task, wherever the walk began
                found = path[path.index(step) :]
                first = found.index(min(found))
                return found[first:] + found[:first]
            if seen is None and step in waits:
                state[step] = 1
                path.append(step)
                todo.append(iter(waits[step]))
    return None


def _pending_waits(
    tasks: Sequence[Task | TaskNode], waits: Mapping[int, list[int]]
) -> dict[int, list[int]]:
    """``waits`` between pending tasks only: a task in progress or blocked in a
    circle can still be finished (or unblocked), and its dependants then start."""
    return {
        i: [d for d in on if tasks[d].status is Status.PENDING]
        for i, on in waits.items()
        if tasks[i].status is Status.PENDING
    }


def stuck_cycle(
    tasks: Sequence[Task | TaskNode],
    waits: Mapping[int, list[int]] | None = None,
    start: int | None = None,
) -> list[int] | None:
    """Pending tasks that wait on each other in a cycle, by position (0-based), or
    None; ``start``: the cycle task ``start`` waits on (or is in), if any, so it can
    never start. ``waits``: ``waiting_on(tasks)``, if known."""
    if waits is None:
        if not any(t.meta.blocked_by for t in tasks):
            return None
        waits = waiting_on(tasks)
    return cycle_in(_pending_waits(tasks, waits), None if start is None else [start])


def dead_end(tasks: Sequence[Task | TaskNode], waits: Mapping[int, list[int]]) -> list[int] | None:
    """A cycle, when it leaves no pending task that can ever start: each waits on a
    cycle, itself or through other pending tasks. None while one can start, now or
    once the tasks in progress (or blocked) it waits on are finished."""
    pending = _pending_waits(tasks, waits)
    # A pending task that waits on no pending task starts now or later. When each
    # waits on one, following what they wait on must come round: a cycle.
    if any(t.status is Status.PENDING and not pending.get(i) for i, t in enumerate(tasks)):
        return None
    return cycle_in(pending)


def cycle_words(
    cycle: list[int], tasks: Sequence[Task | TaskNode], lead: str = "dependency cycle"
) -> str:
    """``dependency cycle #1 "A" -> #2 "B" -> #1: they wait on each other...`` for
    positions (0-based): each task's show number and text (quoted on one line),
    and what to do about it."""
    steps = [f"#{i + 1} {quoted(tasks[i].content, 60)}" for i in cycle]
    return f"{lead} {' -> '.join([*steps, f'#{cycle[0] + 1}'])}: {CYCLE_HINT}"


CYCLE_HINT = (
    "they wait on each other, so none can start; remove a blocked-by from one "
    "(todo edit) or drop one"
)


def holder(task: Task | TaskNode) -> str | None:
    """The agent that holds a task: the owner of a task in progress."""
    return task.meta.owner if task.status is Status.IN_PROGRESS else None


def next_free_id(doc: Document, floor: int = 0) -> str:
    """The next numeric id no task of the list carries, nor ever carried as far as
    ``floor`` (the highest id the list has had) tells."""
    numbers = [n for n in (id_number(t.meta.id) for t in doc.tasks()) if n is not None]
    return str(max([floor, *numbers]) + 1)


def dependencies(doc: Document) -> dict[TaskNode, tuple[str, ...]]:
    return {n: n.meta.blocked_by for n in doc.tasks() if n.meta.blocked_by}


def dependency_error(doc: Document, before: Mapping[str, tuple[str, ...]]) -> str | None:
    """What is wrong with the dependencies a batch added (``before``: each task's
    dependencies when the batch began, keyed by id, else text): one naming an id
    no task carries, or a cycle. None when they are sound. Dependencies the batch
    did not add are not judged: a finished task cleared away leaves its dependents
    pointing at an id that is gone, and that is no error."""
    deps = dependencies(doc)
    if not deps:
        return None
    by_id = {n.meta.id: n for n in doc.tasks() if n.meta.id}
    added = False
    for node, on in deps.items():
        # A set: a tuple searched for each of a long blocked-by list was quadratic.
        was = set(before.get(node.meta.id or node.content, ()))
        for dep in on:
            if dep in was:
                continue
            added = True
            if dep not in by_id:
                return (
                    f'Task "{node.content}" depends on task id "{dep}", which no task has '
                    "(see: todo show --json)"
                )
    if not added:
        return None
    cycle = _cycle(deps, by_id)
    if cycle is None:
        return None
    return "Dependency cycle: " + " -> ".join(f'"{n.content}"' for n in cycle)


def _cycle(
    deps: Mapping[TaskNode, tuple[str, ...]], by_id: Mapping[str, TaskNode]
) -> list[TaskNode] | None:
    """A cycle of the dependency graph (its tasks, the first repeated last), if any.
    Iterative depth-first search: a plan may be long."""
    state: dict[TaskNode, int] = {}  # 1: on the current path, 2: done
    for root in deps:
        if root in state:
            continue
        path = [root]
        todo = [iter(deps.get(root, ()))]
        state[root] = 1
        while todo:
            dep = next(todo[-1], None)
            if dep is None:
                state[path.pop()] = 2
                todo.pop()
                continue
            node = by_id.get(dep)
            if node is None:
                continue
            seen = state.get(node)
            if seen == 1:
                return [*path[path.index(node) :], node]
            if seen is None:
                state[node] = 1
                path.append(node)
                todo.append(iter(deps.get(node, ())))
    return None


def nothing_to_claim(doc: Document, waits: Mapping[int, list[int]]) -> str:
    """Why ``claim`` found nothing: every task done, or the open ones claimed,
    waiting (on what) or blocked."""
    tasks = list(doc.tasks())
    if not tasks:
        return "Nothing to claim: the list is empty (add tasks first: todo add)"
    if not any(t.status.is_open and not t.optional for t in tasks):
        return "Nothing to claim: every task is done" + (
            " (an optional one is claimed by its name)" if any(t.optional for t in tasks) else ""
        )
    claimed = [
        f"#{i + 1} by {t.meta.owner}" if t.meta.owner else f"#{i + 1} with no agent"
        for i, t in enumerate(tasks)
        if t.status is Status.IN_PROGRESS
    ]
    waiting = [
        f"#{i + 1} on {' and '.join(f'#{d + 1}' for d in waits[i])}"
        for i, t in enumerate(tasks)
        if t.status is Status.PENDING and i in waits
    ]
    blocked = [f"#{i + 1}" for i, t in enumerate(tasks) if t.status is Status.BLOCKED]
    parts = []
    for names, one, many in (
        (claimed, "is claimed", "are claimed"),
        (waiting, "is waiting", "are waiting"),
        (blocked, "is blocked", "are blocked"),
    ):
        if names:
            shown = ", ".join(names[:MOST_NAMED])
            more = f", +{len(names) - MOST_NAMED} more" if len(names) > MOST_NAMED else ""
            count = f"1 task {one}" if len(names) == 1 else f"{len(names)} tasks {many}"
            parts.append(f"{count} ({shown}{more})")
    return "Nothing to claim: " + "; ".join(parts)


def key(task: Task | TaskNode) -> str:
    """A task's name in the claims shared by worktrees: its id, else its text."""
    return f"id:{task.meta.id}" if task.meta.id else f"text:{task.content}"


def named(contents: Sequence[str]) -> str:
    """Tasks by their text, the first few: ``"a", "b", +3 more``."""
    shown = ", ".join(f'"{c}"' for c in contents[:MOST_NAMED])
    more = len(contents) - MOST_NAMED
    return shown + (f", +{more} more" if more > 0 else "")


# -- the claim op, and an agent's start ---------------------------------------------------


def claim(engine: Engine, op: Op) -> None:
    """Take the first pending task that waits on nothing (or the one named) for
    the batch's agent, after releasing the claims of agents idle too long."""
    agent = engine.agent
    if agent is None:
        raise OpFailure("todo claim needs an agent name: --agent NAME or TODOCLI_AGENT")
    for node in list(engine.active):
        owner = node.meta.owner
        if owner is not None and owner != agent and owner in engine.stale:
            engine.set_status(node, Status.PENDING)
            own(engine, node, None)
            engine.released.append((node.content, owner, engine.stale[owner]))
    tasks = list(engine.doc.tasks())
    waits = waiting_on(tasks)
    held = [t for t in engine.active if t.meta.owner == agent]
    limit = engine.settings.max_in_progress
    if op.task is None and limit and len(held) >= limit:
        # Already holding all it may: the claim is given again (an agent that
        # lost track of its claim asks again and gets it back).
        engine.claimed = held[0].content
        return
    if op.task is None:
        node = _first_free(engine, op, tasks, waits)
    else:
        node = _named(engine, op, tasks, waits)
    take(engine, node, agent)
    engine.claimed = node.content


def _first_free(
    engine: Engine, op: Op, tasks: list[TaskNode], waits: dict[int, list[int]]
) -> TaskNode:
    """The first pending task that waits on nothing, has no open subtask, and no
    other worktree holds."""
    elsewhere = dict(op.taken)
    busy: set[int] = set()
    if engine.doc.nests:  # a parent with open subtasks is taken through them
        from todocli.document.tree import parents

        above = zip(parents(tasks), tasks, strict=True)
        busy = {up for up, t in above if up is not None and t.status.is_open and not t.optional}
    free = [  # an optional task is claimed by its name only
        i
        for i, t in enumerate(tasks)
        if t.status is Status.PENDING and i not in waits and i not in busy and not t.optional
    ]
    found = next((i for i in free if key(tasks[i]) not in elsewhere), None)
    if found is None and free:
        names = named([tasks[i].content for i in free])
        raise OpFailure(f"Nothing to claim: claimed in other worktrees: {names}")
    if found is None:
        cycle = dead_end(tasks, waits)
        if cycle is not None:  # the plan can never drain: a code of its own
            words = cycle_words(cycle, tasks)
            raise OpFailure(f"Nothing to claim: {words}", CycleError.code)
        raise OpFailure(nothing_to_claim(engine.doc, waits))
    return tasks[found]


def _named(engine: Engine, op: Op, tasks: list[TaskNode], waits: dict[int, list[int]]) -> TaskNode:
    """The task the claim names, if this agent may take it."""
    node = engine.task(op.task)
    refuse_held(engine, node)
    elsewhere = dict(op.taken).get(key(node))
    if elsewhere is not None:
        raise OpFailure(
            f'Task "{node.content}" is claimed by agent "{elsewhere}" in another worktree'
        )
    if not node.status.is_open:
        raise OpFailure(f'Task "{node.content}" is {node.status.value}: nothing to claim')
    if node.status is Status.BLOCKED:
        raise OpFailure(f'Task "{node.content}" is blocked (todo unblock it first)')
    cycle = stuck_cycle(tasks, waits, start=tasks.index(node)) if waits else None
    if cycle is not None:  # in a cycle or waiting on one
        words = cycle_words(cycle, tasks)
        raise OpFailure(f'Task "{node.content}" cannot start: {words}', CycleError.code)
    refuse_waiting(engine, node, tasks, waits)
    return node


def start(engine: Engine, node: TaskNode, agent: str) -> None:
    """``start`` for an agent: a task another agent holds, or one that waits, is
    not taken."""
    refuse_held(engine, node)
    refuse_waiting(engine, node)
    take(engine, node, agent)


def take(engine: Engine, node: TaskNode, agent: str) -> None:
    """Start a task for an agent: the one-in-progress rule is the agent's own,
    so only its own tasks make room, and the task is marked as its claim."""
    limit = engine.settings.max_in_progress
    if limit:
        mine = [t for t in engine.active if t is not node and t.meta.owner == agent]
        for other in mine[: max(0, len(mine) - limit + 1)]:
            engine.set_status(other, Status.PENDING)
            own(engine, other, None)  # back in the pool, nobody's
    engine.set_status(node, Status.IN_PROGRESS)
    own(engine, node, agent)


def own(engine: Engine, node: TaskNode, agent: str | None) -> None:
    meta = node.meta
    if meta.owner != agent:
        engine.doc.set_meta(node, meta.replace(owner=agent))


def refuse_held(engine: Engine, node: TaskNode) -> None:
    """Another agent's claim is not taken from it."""
    held = holder(node)
    if held is not None and held != engine.agent:
        raise OpFailure(
            f'Task "{node.content}" is claimed by agent "{held}" '
            "(a claim idle for claim_timeout is released by the next todo claim)"
        )


def refuse_waiting(
    engine: Engine,
    node: TaskNode,
    tasks: list[TaskNode] | None = None,
    waits: dict[int, list[int]] | None = None,
) -> None:
    """A task whose dependencies are open is not started by an agent."""
    if tasks is None or waits is None:
        if not node.meta.blocked_by:
            return
        tasks = list(engine.doc.tasks())
        waits = waiting_on(tasks)
    on = waits.get(tasks.index(node))
    if on:
        names = ", ".join(f'#{d + 1} "{tasks[d].content}"' for d in on)
        raise OpFailure(f'Task "{node.content}" is waiting on {names}')
