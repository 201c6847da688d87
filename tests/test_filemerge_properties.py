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
