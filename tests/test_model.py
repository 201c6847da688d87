"""The light stand-ins of the model: ``Value`` (for dataclasses) and ``Choice`` (for
``enum.StrEnum``) behave as what they replace, declared once."""

from __future__ import annotations

import dataclasses
import enum
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from todocli.document.model import (
    NO_META,
    Choice,
    Meta,
    Result,
    Status,
    Task,
    TodoList,
    Value,
)
from todocli.engine import DropPolicy, Settings
from todocli.engine.ops import OpKind

CHOICES = [Status, OpKind, DropPolicy]


# -- Value ------------------------------------------------------------------------------------


@dataclasses.dataclass
class TaskDC:
    """Task as a dataclass: what a Value stands in for."""

    content: str
    status: Status = Status.PENDING
    active_form: str | None = None
    notes: tuple[str, ...] = ()
    meta: Meta = NO_META


def test_a_value_is_built_from_its_declaration_as_a_dataclass_is() -> None:
    task = Task("a", Status.COMPLETED, notes=("n",))
    twin = TaskDC("a", Status.COMPLETED, notes=("n",))
    names = [f.name for f in dataclasses.fields(TaskDC)]
    assert [getattr(task, n) for n in names] == [getattr(twin, n) for n in names]
    assert Task("a") == Task("a", Status.PENDING, None, (), NO_META)
    assert Task.__slots__ == tuple(sorted(names))
    assert Task.__init__.__qualname__ == "Task.__init__"
    with pytest.raises(AttributeError):
        task.extra = 1  # type: ignore[attr-defined]  # slots: no other attribute
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'content'"):
        Task()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        Task("a", bogus=1)  # type: ignore[call-arg]


def test_equality_hash_and_repr_come_from_the_fields() -> None:
    assert Task("a") == Task("a")
    assert hash(Task("a")) == hash(Task("a"))
    assert Task("a") != Task("b")
    assert Task("a") != TaskDC("a")  # another type with the same fields
    assert Meta() == NO_META
    assert not Meta()
    assert Meta(id="1")
    assert repr(Meta("1")) == "Meta(blocked_by=(), id='1', owner=None, priority=None)"
    assert TodoList() == TodoList("", ())
    assert Result(TodoList(), TodoList()).diff == Result(TodoList(), TodoList()).diff
    # Settings.replace and `todo config` list the fields in __slots__ order.
    assert Settings().replace(max_tasks=3) == Settings(max_tasks=3)


def test_a_field_without_a_default_after_one_with_it_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Bad\.b: a field without a default follows one"):

        class Bad(Value):
            a: int = 0
            b: int  # type: ignore[misc]  # the mistake under test


def test_a_mutable_default_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Shared\.a: a mutable default"):

        class Shared(Value):
            a: list[int] = []  # noqa: RUF012  # the mistake under test


def test_more_fields_than_the_templates_hold() -> None:
    class Wide(Value):
        f0: int
        f1: int
        f2: int
        f3: int
        f4: int
        f5: int
        f6: int
        f7: int
        f8: int
        f9: int
        f10: int
        f11: int
        f12: int
        f13: int
        f14: int
        f15: int
        f16: int = 16

    wide = Wide(*range(16))
    assert [getattr(wide, f"f{i}") for i in range(17)] == list(range(17))


def test_a_value_init_is_plain_code_built_from_source_text() -> None:
    """Each ``__init__`` is compiled from its own text, as dataclasses do: its code
    names the class's own fields as they are written, not a template's patched
    placeholders, and nothing in the package holds pre-written templates."""

    class Pair(Value):
        left: int
        right: int = 2

    code = Pair.__init__.__code__
    assert code.co_name == "__init__"
    assert code.co_filename == "<string>"
    assert code.co_varnames == ("self", "left", "right")
    assert Pair.__init__.__defaults__ == (2,)
    assert Pair.__init__.__qualname__.endswith("Pair.__init__")
    assert Pair(1) == Pair(left=1, right=2)
    import todocli.document

    assert not hasattr(todocli.document, "BY_COUNT")


def test_mypy_checks_the_calls_of_a_value(tmp_path: Path) -> None:
    """``dataclass_transform`` (for mypy only) makes every constructor call checked."""
    from mypy import api

    snippet = tmp_path / "calls.py"
    snippet.write_text(
        "from todocli.document.model import Meta, Status, Task\n"
        "from todocli.engine import Settings\n"
        'Task("ok", Status.PENDING, "Doing it")\n'
        "Task()\n"
        'Task("a", "pending")\n'
        'Task("a", bogus=1)\n'
        "Meta(id=3)\n"
        'Settings(max_tasks="many")\n'
    )
    out, _, status = api.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(snippet)]
    )
    lines = [line.split(": error: ", 1)[1] for line in out.splitlines() if ": error: " in line]
    assert status == 1
    assert lines == [
        'Missing positional argument "content" in call to "Task"  [call-arg]',
        'Argument 2 to "Task" has incompatible type "str"; expected "Status"  [arg-type]',
        'Unexpected keyword argument "bogus" for "Task"  [call-arg]',
        'Argument "id" to "Meta" has incompatible type "int"; expected "str | None"  [arg-type]',
        'Argument "max_tasks" to "Settings" has incompatible type "str"; expected "int"  '
        "[arg-type]",
    ]


# -- Choice -----------------------------------------------------------------------------------


@pytest.mark.parametrize("choice", CHOICES, ids=lambda c: c.__name__)
def test_a_choice_behaves_as_the_str_enum_it_stands_for(choice: type[Choice]) -> None:
    names = [m.name for m in choice.ALL]
    twin = enum.StrEnum(choice.__name__, [(n, n.lower()) for n in names])  # type: ignore[misc]
    assert [m.value for m in choice.ALL] == [m.value for m in twin]
    for ours, theirs in zip(choice.ALL, twin, strict=True):
        assert getattr(choice, ours.name) is ours
        assert ours.name == theirs.name
        assert repr(ours) == repr(theirs)
        assert str(ours) == str(theirs)
        assert f"{ours}" == f"{theirs}"
        assert ours == theirs.value
        assert hash(ours) == hash(theirs)
        assert choice.of(theirs.value) is ours
    with pytest.raises(ValueError, match="is not a valid") as ours_error:
        choice.of("nope")
    with pytest.raises(ValueError, match="is not a valid") as theirs_error:
        twin("nope")
    assert str(ours_error.value) == str(theirs_error.value)


def test_a_choice_member_is_declared_once() -> None:
    class Colour(Choice):
        __slots__ = ()
        RED: ClassVar[Colour]
        DARK_BLUE: ClassVar[Colour]

    assert [(m.name, m.value) for m in Colour.ALL] == [("RED", "red"), ("DARK_BLUE", "dark_blue")]
    assert Colour.of("dark_blue") is Colour.DARK_BLUE
    assert Status.ALL == (Status.PENDING, Status.IN_PROGRESS, Status.COMPLETED,
                          Status.ABANDONED, Status.BLOCKED)  # fmt: skip


# -- what the stand-ins are for ---------------------------------------------------------------


def test_the_model_and_engine_import_none_of_what_they_stand_in_for() -> None:
    probe = (
        "import sys\n"
        "import todocli.engine.ops, todocli.engine.dialects, todocli.engine.snapshot\n"
        "import todocli.storage.config, todocli.storage.paths\n"
        "heavy = {'dataclasses', 'enum', 'typing', 'inspect', 'types', 're', 'json'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
