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

from todocli.base import Choice, Value
from todocli.document.model import NO_META, Meta, Result, Status, Task, TodoList
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
    parent: int | None = None
    optional: bool = False


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
    assert repr(Meta("1")) == (
        "Meta(blocked_by=(), check=None, checked=None, evidence=None, id='1', owner=None, "
        "priority=None, state=None)"
    )
    assert TodoList() == TodoList("", ())
    assert Result(TodoList(), TodoList()).diff == Result(TodoList(), TodoList()).diff
    # Settings.replace and `todo config` list the fields in __slots__ order.
    assert Settings().replace(max_tasks=3) == Settings(max_tasks=3)


def test_a_field_declared_as_an_annotation_is_refused() -> None:
    """A field is a parameter of the hand-written ``__init__``; an annotated field
    (as a dataclass declares one) would be a slot nothing sets, so it is refused."""
    with pytest.raises(TypeError, match=r"Bad: a field is a parameter of __init__"):

        class Bad(Value):
            a: int = 0


def test_a_values_slots_are_its_init_parameters_and_its_init_is_the_source() -> None:
    """``__slots__`` are named after ``__init__``'s parameters; the ``__init__`` is
    the one written in the class, compiled with its module (no code made at run
    time, no code object patched)."""

    class Pair(Value):
        def __init__(self, right: int, left: int = 2) -> None:
            self.right = right
            self.left = left

    assert Pair.__slots__ == ("left", "right")
    assert Pair.__init__.__code__.co_filename == __file__
    assert Pair(1) == Pair(right=1, left=2)
    assert Pair(1).replace(left=5) == Pair(1, 5)
    with pytest.raises(AttributeError):
        Pair(1).other = 3  # type: ignore[attr-defined]  # slots: no other attribute


def test_every_value_class_sets_each_of_its_fields() -> None:
    """Every value class of the package sets every slot in its ``__init__`` (a
    forgotten ``self.x = x`` would fail here, not on a user's list)."""
    import inspect

    import todocli.agents.envelope
    import todocli.agents.request
    import todocli.app.commands
    import todocli.engine.merge
    import todocli.engine.snapshot
    import todocli.storage.config  # noqa: F401  # every module that defines a value

    def every(cls: type[Value]) -> list[type[Value]]:
        return [cls, *(sub for direct in cls.__subclasses__() for sub in every(direct))]

    classes = [cls for cls in every(Value)[1:] if cls.__module__.startswith("todocli.")]
    assert len(classes) >= 18
    for cls in classes:
        params = inspect.signature(cls.__init__).parameters
        args = {name: object() for name in list(params)[1:]}
        made = cls(**args)
        assert {name: getattr(made, name) for name in cls.__slots__} == args, cls


def test_mypy_checks_the_calls_of_a_value(tmp_path: Path) -> None:
    """mypy checks every constructor call against the hand-written ``__init__``."""
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


def test_a_value_equals_itself_field_for_field_as_a_tuple_would() -> None:
    """Fields are compared as a tuple compares its items: the same object is equal
    to itself (a NaN too), so a value always equals itself."""

    class Pair(Value):
        def __init__(self, left: object, right: object) -> None:
            self.left = left
            self.right = right

    nan = float("nan")
    assert Pair(nan, 1) == Pair(nan, 1)
    assert Pair(nan, 1) != Pair(float("nan"), 1)  # two NaNs: unequal, as in a tuple
    assert Pair(1, [2]) == Pair(1, [2])
    assert Pair(1, 2) != Pair(1, 3)
