"""Properties of the three-way merge of list files (``engine.filemerge``): a side
that changed nothing takes the other's bytes, and changes to different tasks are
all kept."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from todocli.document.markdown import parse
from todocli.engine.filemerge import merge_files

MARKERS = " x/-!"
LINES = st.one_of(
    st.builds(lambda m, n: f"- [{m}] task {n}", st.sampled_from(MARKERS), st.integers(0, 30)),
    st.builds(lambda n: f"## Phase {n}", st.integers(0, 3)),
    st.just(""),
    st.just("Some prose."),
    st.builds(lambda n: f"  > note {n}", st.integers(0, 3)),
)
FILES = st.builds(
    lambda lines, eol, last: eol.join(lines) + (eol if last else ""),
    st.lists(LINES, max_size=12),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(FILES, FILES)
def test_a_side_that_changed_nothing_takes_the_others_bytes(base: str, side: str) -> None:
    assert merge_files(base, side, base).text == side
    assert merge_files(base, base, side).text == side
    assert merge_files(base, side, side).text == side


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(MARKERS), min_size=2, max_size=10),
    st.data(),
)
def test_changes_to_different_tasks_are_all_kept(markers: list[str], data: st.DataObject) -> None:
    base = [f"- [{m}] task {n}\n" for n, m in enumerate(markers)]
    ours, theirs, expected = list(base), list(base), list(base)
    for n in range(len(markers)):
        side = data.draw(st.sampled_from(["none", "ours", "theirs"]))
        if side == "none":
            continue
        new = data.draw(st.sampled_from(MARKERS))
        line = f"- [{new}] task {n}\n"
        (ours if side == "ours" else theirs)[n] = line
        expected[n] = line
    ours.append("- [ ] added by ours\n")
    theirs.append("- [ ] added by theirs\n")
    expected += ["- [ ] added by ours\n", "- [ ] added by theirs\n"]
    merged = merge_files("".join(base), "".join(ours), "".join(theirs))
    assert merged.conflicts == 0
    assert merged.text == "".join(expected)
    assert len(list(parse(merged.text).tasks())) == len(expected)


@settings(max_examples=300, deadline=None)
@given(FILES, FILES, FILES)
def test_a_task_neither_side_touched_is_in_the_merge(base: str, ours: str, theirs: str) -> None:
    def lines(text: str) -> list[str]:
        return [t.lines[0].rstrip("\r\n") for t in parse(text).tasks()]

    merged = merge_files(base, ours, theirs)
    once = [
        line
        for line in lines(base)
        if line.startswith("- [")
        and all(lines(t).count(line) == 1 for t in (base, ours, theirs))
        and all(sum(x[6:] == line[6:] for x in lines(t)) == 1 for t in (base, ours, theirs))
    ]
    kept = lines(merged.text)
    for line in once:
        assert line in kept


# -- random branch pairs: no task lost, ids unique, every true conflict marked ---------------

NAMES = ("alpha", "bravo", "charlie", "delta", "kilo", "lima", "oscar", "quebec")
STATES = " x/-"  # pending, completed, in progress, abandoned


class Entry:
    """A task of one side as the generator made it: the base task it is (None: a
    new one), its text, marker and id."""

    def __init__(self, origin: str | None, text: str, marker: str, ident: str | None) -> None:
        self.origin = origin
        self.text = text
        self.marker = marker
        self.ident = ident

    def line(self) -> str:
        comment = f" <!-- id: {self.ident} -->" if self.ident else ""
        return f"- [{self.marker}] {self.text}{comment}\n"


HEADERS = ("## One\n", "## Two\n")


def _render(entries: list[Entry | str]) -> str:
    return "".join(e if isinstance(e, str) else e.line() for e in entries)


@st.composite
def branch_pairs(draw: st.DrawFn) -> tuple[list[Entry | str], list[Entry | str], list[Entry | str]]:
    """A base list and two sides made from it by a person's edits: a task's state
    changed, renamed (a text much like the old), moved, removed, copied whole with
    its id comment and its text changed, and new tasks added."""
    count = draw(st.integers(2, 6))
    names = NAMES[:count]
    base: list[Entry | str] = [HEADERS[0]]
    for n, name in enumerate(names):
        if n == count // 2:
            base.append(HEADERS[1])
        with_id = draw(st.booleans())
        base.append(
            Entry(name, name, draw(st.sampled_from(STATES)), str(n + 1) if with_id else None)
        )
    sides = []
    for label in ("ours", "theirs"):
        side: list[Entry | str] = []
        moved: list[Entry] = []
        for item in base:
            if isinstance(item, str):
                side.append(item)
                continue
            action = draw(
                st.sampled_from(["keep", "keep", "state", "rename", "move", "remove", "copy"])
            )
            if action == "remove":
                continue
            entry = Entry(item.origin, item.text, item.marker, item.ident)
            if action in ("state", "rename") or draw(st.booleans()):
                entry.marker = draw(st.sampled_from(STATES))
            if action == "rename" or (action == "move" and draw(st.booleans())):
                entry.text = f"{item.text} {label[0]}2"
            if action == "move":
                moved.append(entry)
                continue
            side.append(entry)
            if action == "copy" and item.ident:
                side.append(Entry(None, f"{item.text} copy by {label}", item.marker, item.ident))
        for entry in moved:
            side.insert(draw(st.integers(1, len(side))), entry)
        for k in range(draw(st.integers(0, 2))):
            new = Entry(None, f"new {k} by {label}", draw(st.sampled_from(STATES)), None)
            side.insert(draw(st.integers(1, len(side))), new)
        sides.append(side)
    return base, sides[0], sides[1]


def _halves(text: str) -> tuple[str, str, list[tuple[str, str]]]:
    """The merged text as a person keeping ours (or theirs) of each conflict would
    have it, and each conflict's two halves."""
    keep: list[list[str]] = [[], []]
    blocks: list[tuple[str, str]] = []
    part: int | None = None
    half: list[list[str]] = [[], []]
    for line in text.splitlines(keepends=True):
        if line.startswith("<<<<<<< "):
            part, half = 0, [[], []]
        elif line.startswith("=======") and part == 0:
            part = 1
        elif line.startswith(">>>>>>> ") and part == 1:
            blocks.append(("".join(half[0]), "".join(half[1])))
            keep[0] += half[0]
            keep[1] += half[1]
            part = None
        elif part is not None:
            half[part].append(line)
        else:
            keep[0].append(line)
            keep[1].append(line)
    assert part is None, "an unclosed conflict"
    return "".join(keep[0]), "".join(keep[1]), blocks


def assert_nothing_lost(
    base: list[Entry | str], ours: list[Entry | str], theirs: list[Entry | str], merged: str
) -> None:
    """No task lost (a task on both sides, or changed on the one that kept it, and
    every new task and copy, is in the merge), every id unique whichever side of
    each conflict is kept, and a task both sides gave two other states is marked."""
    as_ours, as_theirs, blocks = _halves(merged)
    for kept in (as_ours, as_theirs):
        ids = [t.meta.id for t in parse(kept).tasks() if t.meta.id]
        assert len(ids) == len(set(ids)), f"ids not unique: {ids}\n{merged}"
    texts = {t.content for t in parse(merged).tasks()}  # both halves of each conflict
    a = {e.origin: e for e in ours if isinstance(e, Entry) and e.origin}
    b = {e.origin: e for e in theirs if isinstance(e, Entry) and e.origin}
    for was in (e for e in base if isinstance(e, Entry)):
        mine, yours = a.get(was.origin or ""), b.get(was.origin or "")
        changed = [e for e in (mine, yours) if e and (e.text, e.marker) != (was.text, was.marker)]
        if (mine and yours) or changed:
            found = {e.text for e in (mine, yours) if e} & texts
            assert found, f'task "{was.text}" lost\n{merged}'
        if mine and yours and len({was.marker, mine.marker, yours.marker}) == 3:
            assert any(
                mine.line().rstrip("\n") in o.splitlines()
                and yours.line().rstrip("\n") in t.splitlines()
                for o, t in blocks
            ), f'task "{was.text}": two states, not marked\n{merged}'
    for entry in (e for side in (ours, theirs) for e in side if isinstance(e, Entry)):
        if entry.origin is None:
            assert entry.text in texts, f'new task "{entry.text}" lost\n{merged}'


@settings(max_examples=100, deadline=None)
@given(branch_pairs())
def test_random_branch_pairs_lose_no_task_keep_ids_unique_and_mark_true_conflicts(
    pair: tuple[list[Entry | str], list[Entry | str], list[Entry | str]],
) -> None:
    base, ours, theirs = pair
    merged = merge_files(_render(base), _render(ours), _render(theirs))
    assert_nothing_lost(base, ours, theirs, merged.text)
    assert merged.conflicts == len(_halves(merged.text)[2])
