"""Three-way merge of two versions of one list file (git's merge driver).

``merge.py`` merges an agent's snapshot into the file by each task's identity;
this merges two edited copies of a file with their common ancestor, by the same
identity (a task's id, else its text) and keeping bytes: a line neither side
touched is written back as it was.

The file is read as a sequence of units: a task (its line with its notes and
continuation lines) stands for its identity, every other line for its text. Those
sequences are merged as diff3 merges lines; so a box ticked on one side and the
next box ticked on the other are no conflict, since neither changes which units
there are. Each task is then merged field by field: its indentation and bullet,
its marker, the rest of its line (text and trailing comment), its notes (notes
appended on both sides are both kept). Only a task both sides changed to
different markers or texts is a conflict: git's conflict markers go around that
task's lines alone.

Tasks added on both sides at one place are both kept, ours first; one added on
both sides with one id and different texts keeps both, and theirs gets a new id
(its ``blocked-by`` references on their side follow it). Two tasks sharing an id
in one file are both kept, each with an id of its own (``_split_shared_ids``). A
task one side removed is removed, unless the other side changed it (then it
stays). A task without an id that one side renamed, where the other left its text
as it was, is matched by its place and a text much like the old one; one renamed
and given a state on one side, and another state on the other, is matched more
loosely (``_renamed_apart``), so that it conflicts instead of coming twice.
"""

from __future__ import annotations

from todocli.base import TYPE_CHECKING
from todocli.document.blocks import eol_of, strip_eol
from todocli.document.markdown import Document, TaskNode, parse
from todocli.document.model import id_number

if TYPE_CHECKING:
    from collections.abc import Sequence

Key = tuple[str, ...]
RENAMED = 0.6  # how alike (difflib's ratio) a new text is to the one it renames
MATCHED_PAIRS = 10_000  # the most (gone, new) task pairs compared when seeking a rename


class Unit:
    """One unit of a file: a task with its lines, or one other line."""

    __slots__ = ("key", "lines", "node")

    def __init__(self, key: Key, lines: list[str], node: TaskNode | None) -> None:
        self.key = key
        self.lines = lines
        self.node = node


class Merge:
    """The merged text, and how many tasks conflict (0: a clean merge)."""

    __slots__ = ("conflicts", "renumbered", "split", "text")

    def __init__(
        self,
        text: str,
        conflicts: int,
        renumbered: list[tuple[str, str]],
        split: list[tuple[str, str, str, str]] | None = None,
    ) -> None:
        self.text = text
        self.conflicts = conflicts
        self.renumbered = renumbered  # (their id, the id it has now)
        self.split = split or []  # (side, the id two tasks shared, the new id of one, its text)


def merge_files(
    base: str,
    ours: str,
    theirs: str,
    *,
    marker_size: int = 7,
    labels: tuple[str, str] = ("ours", "theirs"),
) -> Merge:
    """Merge ``ours`` and ``theirs``, both made from ``base``."""
    o_doc, a_doc, b_doc = parse(base), parse(ours), parse(theirs)
    split = _split_shared_ids(o_doc, a_doc, b_doc, labels)
    renumbered = _renumber_collisions(o_doc, a_doc, b_doc)
    o = _units(o_doc)
    a = _renamed(o, _units(a_doc))
    b = _renamed(o, _units(b_doc))
    a, b = _renamed_apart(o, a, b)
    versions: list[dict[Key, Unit]] = [
        {u.key: u for u in side if u.node is not None} for side in (o, a, b)
    ]
    sequence = _merge_sequence(o, a, b, versions)
    out: list[str] = []
    conflicts = 0
    written: set[Key] = set()
    for unit in sequence:
        if unit.node is None:
            out += unit.lines
            continue
        if unit.key in written:
            continue  # a task comes once
        written.add(unit.key)
        merged = _merge_task(*(v.get(unit.key) for v in versions))
        if merged is None:
            conflicts += 1
            ours_unit, theirs_unit = versions[1][unit.key], versions[2][unit.key]
            out += _conflict(ours_unit.lines, theirs_unit.lines, marker_size, labels)
        else:
            out += merged
    ends = [text.endswith(("\n", "\r")) for text in (base, ours, theirs)]
    final = ends[2] if ends[1] == ends[0] else ends[1]  # the side that changed it
    return Merge(_fix_ends(out, final), conflicts, renumbered, split)


def _task_key(node: TaskNode, seen: dict[str, int]) -> Key:
    if node.meta.id:
        return ("id", node.meta.id)
    n = seen[node.content] = seen.get(node.content, -1) + 1
    return ("text", node.content, str(n))


def _units(doc: Document) -> list[Unit]:
    units: list[Unit] = []
    seen: dict[str, int] = {}
    for seg in doc.segments():
        if isinstance(seg, TaskNode):
            units.append(Unit(_task_key(seg, seen), list(seg.lines), seg))
        else:
            units += [Unit(("line", line), [line], None) for line in seg.lines]
    return units


def _renamed(base: list[Unit], side: list[Unit]) -> list[Unit]:
    """``side`` with a task one side renamed keyed as in the base: a task without an
    id whose text the base does not hold, in the place of one the side no longer
    holds (same count of them between the same neighbours)."""
    from difflib import SequenceMatcher

    o_tasks = [u for u in base if u.node is not None]
    s_tasks = [u for u in side if u.node is not None]
    matcher = SequenceMatcher(None, [u.key for u in o_tasks], [u.key for u in s_tasks], False)
    rekey: dict[int, Key] = {}
    s_keys = {u.key for u in s_tasks}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for was, now in zip(o_tasks[i1:i2], s_tasks[j1:j2], strict=True):
            # A new text much like the old one: a rename, not a task for another.
            if (
                was.key[0] == now.key[0] == "text"
                and was.key not in s_keys
                and SequenceMatcher(None, was.key[1], now.key[1]).ratio() >= RENAMED
            ):
                rekey[id(now)] = was.key
    if not rekey:
        return side
    return [Unit(rekey[id(u)], u.lines, u.node) if id(u) in rekey else u for u in side]


def _renamed_apart(o: list[Unit], a: list[Unit], b: list[Unit]) -> tuple[list[Unit], list[Unit]]:
    """A task (without an id) a side renamed and gave another state, and the other
    side gave a third: keyed as in the base on both sides, so that it is one task
    that conflicts, not two tasks in two states. The renamed task is the side's new
    task most like the one it no longer holds (``RENAMED`` at least), wherever it
    moved; failing that, the new task in its place. Only such a conflict is matched
    so: a looser match never merges two tasks into one quietly."""
    gone_a, gone_b = _rename_candidates(o, a), _rename_candidates(o, b)
    if not gone_a and not gone_b:
        return a, b
    a_keys = {u.key: u for u in a if u.node is not None}
    b_keys = {u.key: u for u in b if u.node is not None}
    rekey: dict[int, Key] = {}
    for was in o:
        if was.node is None or was.key[0] != "text":
            continue
        mine = a_keys.get(was.key) or gone_a.get(was.key)
        yours = b_keys.get(was.key) or gone_b.get(was.key)
        if mine is None or yours is None or mine.node is None or yours.node is None:
            continue
        states = {was.node.status, mine.node.status, yours.node.status}
        if len(states) == 3:  # both sides changed its state, each to another one
            for unit in (mine, yours):
                if unit.key != was.key:
                    rekey[id(unit)] = was.key

    def keyed(side: list[Unit]) -> list[Unit]:
        return [Unit(rekey[id(u)], u.lines, u.node) if id(u) in rekey else u for u in side]

    return (keyed(a), keyed(b)) if rekey else (a, b)


def _rename_candidates(base: list[Unit], side: list[Unit]) -> dict[Key, Unit]:
    """For each base task (without an id) the side no longer holds, the side's new
    task that may be it renamed: the most alike (``RENAMED`` at least), else the
    one in its place (a change of one task for one task between the same neighbours)."""
    from difflib import SequenceMatcher

    o_tasks = [u for u in base if u.node is not None]
    s_tasks = [u for u in side if u.node is not None]
    o_keys = {u.key for u in o_tasks}
    s_keys = {u.key for u in s_tasks}
    gone = [u for u in o_tasks if u.key[0] == "text" and u.key not in s_keys]
    new = [u for u in s_tasks if u.key[0] == "text" and u.key not in o_keys]
    if not gone or not new:
        return {}
    found: dict[Key, Unit] = {}
    taken: set[int] = set()  # the side's tasks matched (their id())
    alike = []
    if len(gone) * len(new) <= MATCHED_PAIRS:
        for n, was in enumerate(gone):
            for m, now in enumerate(new):
                match = SequenceMatcher(None, was.key[1], now.key[1])
                if match.real_quick_ratio() >= RENAMED and match.quick_ratio() >= RENAMED:
                    alike.append((match.ratio(), -n, -m, was, now))
    alike.sort(key=lambda t: t[:3], reverse=True)
    for ratio, _, _, was, now in alike:
        if ratio < RENAMED:
            break
        if was.key not in found and id(now) not in taken:
            found[was.key] = now
            taken.add(id(now))
    new_ids = {id(u) for u in new}
    matcher = SequenceMatcher(None, [u.key for u in o_tasks], [u.key for u in s_tasks], False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or not i2 - i1 == j2 - j1 == 1:
            continue
        was, now = o_tasks[i1], s_tasks[j1]
        if was.key not in found and id(now) in new_ids and id(now) not in taken:
            found[was.key] = now
            taken.add(id(now))
    return found


def _split_shared_ids(
    base: Document, ours: Document, theirs: Document, labels: tuple[str, str]
) -> list[tuple[str, str, str, str]]:
    """Give a new id to each task that shares its id with another task of the same
    file (a line copied in an editor with its id comment): the one with the base's
    text keeps the id (else the one most like it, else the first), the others get
    the next free number (or ``ID-2``); a copy both sides made alike gets the same
    new id on both. Every task is then a unit of its own. Returns (side, id, new
    id, task text) for the tasks of ours and theirs that changed."""
    used = {t.meta.id for doc in (base, ours, theirs) for t in doc.tasks() if t.meta.id}
    top = [max((n for n in map(id_number, used) if n is not None), default=0)]
    minted: dict[tuple[str, str], list[str]] = {}  # (id, text) -> new ids, the same both sides

    def fresh(old: str, content: str, taken: set[str]) -> str:
        made = minted.setdefault((old, content), [])
        again = next((new for new in made if new not in taken), None)
        if again is not None:
            return again
        if id_number(old) is not None:
            top[0] += 1
            new = str(top[0])
        else:
            k = 2
            while f"{old}-{k}" in used:
                k += 1
            new = f"{old}-{k}"
        used.add(new)
        made.append(new)
        return new

    in_base: dict[str, list[tuple[str, str]]] = {}  # id -> (text, id it has now) of base tasks
    base_text = {t.meta.id: t.content for t in reversed(list(base.tasks())) if t.meta.id}
    out: list[tuple[str, str, str, str]] = []
    for name, doc in (("base", base), *zip(labels, (ours, theirs), strict=True)):
        groups: dict[str, list[TaskNode]] = {}
        for task in doc.tasks():
            if task.meta.id:
                groups.setdefault(task.meta.id, []).append(task)
        for old, tasks in groups.items():
            choices = [] if doc is base else in_base.get(old, [])
            if len(tasks) < 2 and len(choices) < 2:
                if doc is base:
                    in_base[old] = [(tasks[0].content, old)]
                continue
            given: dict[int, str] = {}
            free = list(choices)
            for task in tasks:  # a task with the text a base task of this id has: its id
                match = next((c for c in free if c[0] == task.content), None)
                if match is not None:
                    free.remove(match)
                    given[id(task)] = match[1]
            rest = [t for t in tasks if id(t) not in given]
            if rest and old not in given.values():  # the id stays with the most alike
                scores = [_alike(t.content, base_text.get(old, "")) for t in rest]
                given[id(rest[scores.index(max(scores))])] = old
            for task in rest:
                if id(task) not in given:
                    given[id(task)] = fresh(old, task.content, set(given.values()))
            if doc is base:
                in_base[old] = [(t.content, given[id(t)]) for t in tasks]
            for task in tasks:
                new = given[id(task)]
                if new != old:
                    doc.set_meta(task, task.meta.replace(id=new))
                    if doc is not base:
                        out.append((name, old, new, task.content))
    return out


def _alike(one: str, other: str) -> float:
    from difflib import SequenceMatcher

    return SequenceMatcher(None, one, other).ratio()


def _renumber_collisions(base: Document, ours: Document, theirs: Document) -> list[tuple[str, str]]:
    """Give a new id to each task theirs added under an id ours added to another
    task (agents' tools number from 1 in every clone); theirs' ``blocked-by``
    references to it follow. The ids stay unique in the merged file."""
    in_base = {t.meta.id for t in base.tasks() if t.meta.id}
    ours_new = {
        t.meta.id: t.content for t in ours.tasks() if t.meta.id and t.meta.id not in in_base
    }
    clash = [
        t for t in theirs.tasks() if t.meta.id in ours_new and ours_new[t.meta.id] != t.content
    ]
    if not clash:
        return []
    used = {t.meta.id for doc in (base, ours, theirs) for t in doc.tasks() if t.meta.id}
    top = max((n for n in map(id_number, used) if n is not None), default=0)
    new_ids: dict[str, str] = {}
    for task in clash:
        old = task.meta.id
        assert old is not None
        if old in new_ids:
            continue
        if id_number(old) is not None:
            top += 1
            fresh = str(top)
        else:
            k = 2
            while f"{old}-{k}" in used:
                k += 1
            fresh = f"{old}-{k}"
        used.add(fresh)
        new_ids[old] = fresh
    for task in list(theirs.tasks()):
        meta = task.meta
        new = meta.replace(
            id=new_ids.get(meta.id, meta.id) if meta.id else meta.id,
            blocked_by=tuple(new_ids.get(ref, ref) for ref in meta.blocked_by),
        )
        theirs.set_meta(task, new)
    return list(new_ids.items())


def _merge_sequence(
    o: list[Unit], a: list[Unit], b: list[Unit], versions: list[dict[Key, Unit]]
) -> list[Unit]:
    """The units in their merged order (diff3 over the units' keys)."""
    a_at = _matches(o, a)
    b_at = _matches(o, b)
    out: list[Unit] = []
    i = j = k = 0
    while True:
        # The stable run: units at their places in all three.
        while i < len(o) and a_at.get(i) == j and b_at.get(i) == k:
            out.append(a[j])
            i, j, k = i + 1, j + 1, k + 1
        nxt = next((n for n in range(i, len(o)) if n in a_at and n in b_at), None)
        i2, j2, k2 = (len(o), len(a), len(b)) if nxt is None else (nxt, a_at[nxt], b_at[nxt])
        if (i, j, k) == (i2, j2, k2):
            if nxt is None:
                return out
            continue
        out += _merge_chunk(o[i:i2], a[j:j2], b[k:k2], a_at, b_at, (i, j, k), versions)
        i, j, k = i2, j2, k2


def _matches(o: list[Unit], side: list[Unit]) -> dict[int, int]:
    """Which unit of the side each base unit is (by position), as a diff matches
    lines: the common head and tail first, as diff tools do, then difflib on what
    is left between. A hand edit touches a few lines of a long file; difflib's
    matching costs up to the square of what it is given, and on a file of thousands
    of equal lines (blank ones, the same task) it made a merge take minutes."""
    from difflib import SequenceMatcher

    o_keys = [u.key for u in o]
    s_keys = [u.key for u in side]
    most = min(len(o_keys), len(s_keys))
    head = 0
    while head < most and o_keys[head] == s_keys[head]:
        head += 1
    tail = 0
    while tail < most - head and o_keys[-1 - tail] == s_keys[-1 - tail]:
        tail += 1
    found = {n: n for n in range(head)}
    o_mid = o_keys[head : len(o_keys) - tail]
    s_mid = s_keys[head : len(s_keys) - tail]
    if o_mid and s_mid:
        for i, j, size in SequenceMatcher(None, o_mid, s_mid, False).get_matching_blocks():
            for n in range(size):
                found[head + i + n] = head + j + n
    shift = len(s_keys) - len(o_keys)
    for n in range(len(o_keys) - tail, len(o_keys)):
        found[n] = n + shift
    return found


def _merge_chunk(
    o: Sequence[Unit],
    a: Sequence[Unit],
    b: Sequence[Unit],
    a_at: dict[int, int],
    b_at: dict[int, int],
    start: tuple[int, int, int],
    versions: list[dict[Key, Unit]],
) -> list[Unit]:
    """A region that changed on one side or both."""
    if [u.key for u in a] == [u.key for u in b]:
        return list(a)  # the same change on both sides (its tasks are merged one by one)
    # One side changed it, or both. Every base unit here is gone from one side at least (else it
    # would be stable): it goes, unless it is a task the other side changed and
    # the removing side does not hold elsewhere (moved). What each side added is
    # kept, placed by the base unit it follows; ours first where both add at one place.
    i0, j0, k0 = start
    # Only this chunk's base units are looked up: a walk of every match for each
    # chunk was quadratic in a file of many small changes.
    a_from = {a_at[n] - j0: n - i0 for n in range(i0, i0 + len(o)) if n in a_at}
    b_from = {b_at[n] - k0: n - i0 for n in range(i0, i0 + len(o)) if n in b_at}
    placed: list[tuple[float, int, int, Unit]] = []
    for side, units, from_o in ((0, a, a_from), (1, b, b_from)):
        after = -1
        for n, unit in enumerate(units):
            if n in from_o:
                after = from_o[n]
                continue
            placed.append((after + 0.5, side, n, unit))
    kept_a = set(a_from.values())
    kept_b = set(b_from.values())
    for n, unit in enumerate(o):
        if unit.node is None:
            continue
        sides = ((kept_a, versions[2], versions[1]), (kept_b, versions[1], versions[2]))
        for keeps, remover, keeper in sides:
            kept = keeper.get(unit.key)
            if n in keeps and unit.key not in remover and kept and kept.lines != unit.lines:
                placed.append((n, 0, 0, kept))  # changed on one side, removed on the other
    placed.sort(key=lambda p: (p[0], p[1], p[2]))
    return [p[3] for p in placed]


def _merge_task(o: Unit | None, a: Unit | None, b: Unit | None) -> list[str] | None:
    """A task's merged lines, or None for a conflict."""
    if a is None or b is None:  # added on one side, or changed where the other removed it
        kept = a or b
        assert kept is not None
        return list(kept.lines)
    if a.lines == b.lines:
        return list(a.lines)
    if o is None:
        return None
    if a.lines == o.lines:
        return list(b.lines)
    if b.lines == o.lines:
        return list(a.lines)
    head = _three(_line_parts(o), _line_parts(a), _line_parts(b))
    if head is None:
        return None
    tail = _merge_tail(o.lines[1:], a.lines[1:], b.lines[1:], b)
    if tail is None:
        return None
    return ["".join(head), *tail]


def _line_parts(unit: Unit) -> tuple[str, str, str]:
    """The task line as what comes before its marker, the marker, and the rest."""
    node = unit.node
    assert node is not None  # a task's unit
    line = unit.lines[0]
    at, size = node.marker_pos, node.marker_len
    return line[:at], line[at : at + size], line[at + size :]


def _three(o: tuple[str, ...], a: tuple[str, ...], b: tuple[str, ...]) -> list[str] | None:
    out = []
    for po, pa, pb in zip(o, a, b, strict=True):
        if pa == pb or pb == po:
            out.append(pa)
        elif pa == po:
            out.append(pb)
        else:
            return None
    return out


def _merge_tail(o: list[str], a: list[str], b: list[str], theirs: Unit) -> list[str] | None:
    """A task's notes and continuation lines: one side's change, or notes appended
    on both sides (ours, then theirs, as separate notes)."""
    if a == b or b == o:
        return a
    if a == o:
        return b
    if a[: len(o)] != o or b[: len(o)] != o:
        return None
    mine, yours = a[len(o) :], b[len(o) :]
    if mine and not eol_of(mine[-1]):
        mine = [*mine[:-1], mine[-1] + (eol_of(yours[0]) or "\n")]
    prefix = theirs.node.note_prefix.rstrip(" \t") if theirs.node is not None else ""
    if prefix and strip_eol(yours[0]).strip() != prefix.strip():
        yours = [prefix + (eol_of(yours[0]) or "\n"), *yours]
    return o + mine + yours


def _conflict(ours: list[str], theirs: list[str], size: int, labels: tuple[str, str]) -> list[str]:
    eol = eol_of(ours[0]) or "\n"

    def ended(lines: list[str]) -> list[str]:
        return [line if eol_of(line) else line + eol for line in lines]

    return [
        f"{'<' * size} {labels[0]}{eol}",
        *ended(ours),
        f"{'=' * size}{eol}",
        *ended(theirs),
        f"{'>' * size} {labels[1]}{eol}",
    ]


def _fix_ends(lines: list[str], final: bool) -> str:
    """Lines joined: a line that lost its end (it was last in its file and is not
    now) gets one; the last line ends as ``final`` says."""
    eol = next((eol_of(line) for line in lines if eol_of(line)), "\n")
    out = [line if eol_of(line) else line + eol for line in lines]
    if out and not final:
        out[-1] = strip_eol(out[-1])
    return "".join(out)
