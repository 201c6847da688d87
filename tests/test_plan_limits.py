"""Plans someone else keeps, at any size, through real ``todo`` processes: their own
limits (an agent's session list keeps its own), ``show --as TOOL | apply`` taking
back what it printed, replies bounded whatever the plan holds, and a task's text
as its item's whole first paragraph."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import CORPUS, corpus_files
from tests.support_cli import Run, todo_process
from todocli.agents import TOOLS

REPLY = 600  # a write's reply, at most (characters)
WARNINGS = 500  # what a call prints on stderr, at most


def tasks_in(text: str) -> int:
    return len(re.findall(r"^- \[.\] ", text, re.M))


def unmarked(text: str) -> str:
    """The text with every task's marker blanked and its hidden state left out
    (which task starts next after a ``done``, and how the file says so, is the
    file's convention, not what these tests pin)."""
    text = re.sub(r" <!-- state: [a-z_]+ -->$", "", text, flags=re.M)
    return re.sub(r"^- \[.\] ", "- [ ] ", text, flags=re.M)


def on(path: Path, *args: str, stdin: str | None = None, **env: str) -> Run:
    return todo_process("--file", str(path), *args, stdin=stdin, env=env or None)


def speckit(count: int, pad: int = 0) -> str:
    """A spec-kit ``tasks.md`` of ``count`` tasks in phases of 30."""
    lines = ["# Tasks: Feature", ""]
    for n in range(1, count + 1):
        if n % 30 == 1:
            lines += [f"## Phase {n // 30 + 1}", ""]
        lines.append(f"- [ ] T{n:03d} [P] [US1] Build part {n} in src/part{n}.py" + " x" * pad)
        if n % 30 == 0:
            lines.append("")
    return "\n".join(lines) + "\n"


def test_a_269_task_plan_takes_an_add_and_names_its_own_limit(tmp_path: Path) -> None:
    plan = tmp_path / "tasks.md"
    plan.write_text(speckit(269))
    run = on(plan, "add", "T270 Write the release notes")
    assert run.code == 0, run.err
    assert tasks_in(plan.read_text()) == 270
    # The plan's limit is its own setting, and a refusal names it.
    refused = on(plan, "add", "T271 One more", TODOCLI_PLAN_MAX_TASKS="270")
    assert refused.code == 1
    assert "the limit is 270 (plan_max_tasks)" in refused.err
    assert tasks_in(plan.read_text()) == 270


def test_the_session_list_keeps_its_limits(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "home")}
    tasks = [f"Task {n}" for n in range(50)]
    assert todo_process("init", *tasks, env=env).code == 0
    run = todo_process("add", "Task 50", env=env)
    assert (run.code, "the limit is 50 (max_tasks)" in run.err) == (1, True)
    long = todo_process("add", "y" * 201, env=env)
    assert (long.code, "the limit is 200 (max_field_bytes)" in long.err) == (1, True)


def test_tasks_of_400_bytes_are_done_noted_and_added(tmp_path: Path) -> None:
    plan = tmp_path / "tasks.md"
    text = speckit(3, pad=170)
    plan.write_text(text)
    first = text.splitlines()[4][6:]
    assert len(first.encode()) > 380
    assert on(plan, "done", first).code == 0
    after = plan.read_text()
    assert f"- [x] {first}\n" in after
    assert unmarked(after) == text  # no other byte changed
    assert on(plan, "note", first, "checked by hand").code == 0
    assert on(plan, "add", "T004 " + "z " * 200).code == 0
    assert tasks_in(plan.read_text()) == 4


# -- show --as TOOL | apply ------------------------------------------------------------

# Every shape a plan someone else wrote takes: long texts, a text held twice, a
# zero-width space, two tasks in progress, a cancelled one, hundreds of tasks.
GENERATED = (
    "# Roadmap\n\n## Phase 1\n\n"
    + "".join(f"- [ ] Step {n}: " + "long words " * 30 + "\n" for n in range(120))
    + "- [x] Commit\n- [ ] Commit\n- [/] Wire\u200b it\n- [/] Test it\n- [-] Dropped\n"
    + "\n## Phase 2\n\n"
    + "".join(f"- [ ] Later {n}\n" for n in range(150))
)
ROUND_TRIP_TOOLS = TOOLS


def round_trip(plan: Path, tool: str, home: Path) -> tuple[Run, bytes]:
    env = {"TODOCLI_HOME": str(home)}
    shown = todo_process("--file", str(plan), "show", "--as", tool, env=env)
    assert shown.code == 0, shown.err
    before = plan.read_bytes()
    run = todo_process("--file", str(plan), "apply", stdin=shown.out, env=env)
    return run, before


@pytest.mark.parametrize("tool", ROUND_TRIP_TOOLS)
def test_what_show_as_prints_apply_takes_back_unchanged(tmp_path: Path, tool: str) -> None:
    plan = tmp_path / "ROADMAP.md"
    plan.write_text(GENERATED)
    run, before = round_trip(plan, tool, tmp_path / "home")
    assert run.code == 0, run.out + run.err
    assert plan.read_bytes() == before


def test_oh_my_pi_s_reply_carries_notes_active_forms_and_blocks_back(tmp_path: Path) -> None:
    """oh-my-pi's reply is one ``write`` op of the whole list: a note, an active
    form, a blocked task with its reason and a text held twice come back as they
    were."""
    plan = tmp_path / "TODO.md"
    plan.write_text(
        "# Plan\n\n## Build\n"
        "- [/] Parse <!-- active: Parsing -->\n  > keep the bytes\n"
        "- [!] Ship\n  > blocked: waiting on review\n"
        "- [ ] Commit\n- [x] Commit\n"
    )
    run, before = round_trip(plan, "oh-my-pi", tmp_path / "home")
    assert run.code == 0, run.out + run.err
    assert plan.read_bytes() == before


# Corpus plans that todo's own output was refused on: texts over 200 bytes, texts
# held twice, zero-width characters, two tasks in progress, 700 tasks.
REFUSED = ("004-", "011-", "016-", "030-", "049-", "063-", "067-", "070-", "071-", "073-")


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus beside this checkout ({CORPUS})")
@pytest.mark.parametrize("tool", ROUND_TRIP_TOOLS)
def test_corpus_plans_round_trip_through_every_tool(tmp_path: Path, tool: str) -> None:
    for source in [p for p in corpus_files() if p.name.startswith(REFUSED)]:
        plan = tmp_path / source.name
        plan.write_bytes(source.read_bytes())
        run, _ = round_trip(plan, tool, tmp_path / "home" / source.name)
        assert run.code == 0, f"{source.name}: {run.out}{run.err}"
        assert plan.read_bytes() == source.read_bytes(), source.name


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus beside this checkout ({CORPUS})")
def test_every_corpus_plan_round_trips_through_claude(tmp_path: Path) -> None:
    for source in corpus_files():
        plan = tmp_path / source.name
        plan.write_bytes(source.read_bytes())
        run, _ = round_trip(plan, "claude", tmp_path / "home" / source.name)
        assert run.code == 0, f"{source.name}: {run.out}{run.err}"
        assert plan.read_bytes() == source.read_bytes(), source.name


# -- replies bounded on a 1,500-task plan of 1 KB tasks -----------------------------------


def big_plan(mark: str = " ", word: str = "word") -> str:
    lines = ["# Plan", ""]
    for n in range(1500):
        lines.append(f"- [{mark}] Task {n:04d} " + f"{word}{n} " * (1000 // (len(word) + 6)))
    return "\n".join(lines) + "\n"


def task_text(text: str, n: int) -> str:
    return text.splitlines()[2 + n][6:].rstrip()


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("big")
    return folder / "PLAN.md", {"TODOCLI_HOME": str(folder / "home")}


def bounded(run: Run) -> None:
    assert run.code == 0, run.err[:500]
    assert len(run.out) < REPLY, run.out
    assert len(run.err) < WARNINGS, run.err


def test_a_done_and_a_note_reply_briefly_on_a_big_plan(big: tuple[Path, dict[str, str]]) -> None:
    plan, env = big
    text = big_plan()
    plan.write_text(text)
    done = todo_process("--file", str(plan), "done", task_text(text, 0), env=env)
    bounded(done)
    assert done.out.startswith("Completed: Task 0000 word0")
    assert "…" in done.out  # the task's text shortened
    note = todo_process("--file", str(plan), "note", task_text(text, 1), "n" * 1900, env=env)
    bounded(note)


def test_a_write_after_a_regeneration_summarises_it(big: tuple[Path, dict[str, str]]) -> None:
    plan, env = big
    text = big_plan()
    plan.write_text(text)
    assert todo_process("--file", str(plan), "done", task_text(text, 0), env=env).code == 0
    regenerated = big_plan(mark="x")  # every task changed by hand (a pull, a regeneration)
    plan.write_text(regenerated)
    run = todo_process("--file", str(plan), "add", "One more task", env=env)
    bounded(run)
    assert "edited by hand" in run.out
    assert "more changed" in run.out  # counted, not listed


# -- a task's text is its paragraph -----------------------------------------------------


def test_continuation_lines_are_part_of_the_task(tmp_path: Path) -> None:
    plan = tmp_path / "TODO.md"
    text = "- [ ] Write the parser\n  for nested lists\n- [ ] Ship\n"
    plan.write_text(text)
    shown = json.loads(on(plan, "--json", "show").out)
    assert [t["content"] for t in shown["data"]["todos"]] == [
        "Write the parser for nested lists",
        "Ship",
    ]
    run = on(plan, "done", "Write the parser for nested lists")
    assert run.code == 0, run.err
    assert "Completed: Write the parser for nested lists" in run.out
    assert "In progress: Ship" in run.out
    # The file keeps its lines: only markers changed.
    after = plan.read_text()
    assert after.startswith("- [x] Write the parser\n  for nested lists\n")
    assert unmarked(after) == text


def test_warnings_on_stderr_stay_short_on_a_plan_full_of_repeats(tmp_path: Path) -> None:
    plan = tmp_path / "PLAN.md"
    steps = "".join(
        f"## Task {n}\n\n- [ ] Write the test\n- [ ] Step 5: Commit\n\n" for n in range(200)
    )
    plan.write_text(steps)
    run = on(plan, "add", "One more task")
    assert run.code == 0, run.err[:500]
    assert run.err.startswith("todo: warning: ")
    assert len(run.err) < WARNINGS, run.err


def test_the_hook_reply_is_bounded_on_a_big_plan(tmp_path: Path) -> None:
    plan, env = tmp_path / "PLAN.md", {"TODOCLI_HOME": str(tmp_path / "home")}
    plan.write_text(big_plan())
    shown = todo_process("--file", str(plan), "show", "--as", "claude", env=env)
    todos = json.loads(shown.out)["todos"]
    todos[0]["status"] = "completed"
    hook = {"hook_event_name": "PostToolUse", "tool_name": "TodoWrite", "session_id": "s1"}
    payload = json.dumps({**hook, "tool_input": {"todos": todos}})
    run = todo_process("--file", str(plan), "apply", stdin=payload, env=env)
    assert run.code == 0, run.err[:500]
    told = json.loads(run.out)["hookSpecificOutput"]["additionalContext"]
    assert told.startswith("Completed: Task 0000 word0")
    assert len(told) < REPLY, told
    assert len(run.err) < WARNINGS, run.err
