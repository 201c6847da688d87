"""The bottom of the layers: what every module may import, and the start-up idioms.

``todo`` starts once per agent step, so a standard module that costs milliseconds to
import costs them on every call. Where one would, a measured stand-in does its job,
and all of them live here, so a newcomer learns them in one place.

The rule for imports, the one place it is written (``docs/architecture.md`` points
here): a module imports at its top. An import inside a function is made only for a
module that ``KEPT_OFF`` in ``tests/test_startup.py`` names, with the reason it is
kept off and the forms it is kept off; that test runs those forms and fails if one
loads it, and ``tests/test_layers.py`` fails on an import inside a function of any
other module. Names used only in annotations are imported under ``if
TYPE_CHECKING:``, with the ``TYPE_CHECKING`` of this module (``typing`` is one of
the modules kept off).

The idioms. Cost: the instructions (callgrind, Python 3.11) an import of the
standard module adds to ``python -c pass`` (38.9 M), less the stand-in's own; about
2.9 M instructions make a millisecond (``exit_now``: 9.5 M, 3.3 ms). A stand-in that
saves under 3 ms a call goes.

================ ============= ============ ============================= ======================
idiom (home)     stands in for saves        public fallback               pinned by
================ ============= ============ ============================= ======================
TYPE_CHECKING    ``typing``    41 M, 14 ms  none needed: False at run     test_startup (typing),
(here)                                      time, true for mypy           test_layers
``Value``        dataclasses   72 M, 24 ms  none: plain classes with      test_model,
(here)                                      ``__slots__``                 test_startup
``Choice``       ``enum``      17 M, 6 ms   none: ``str`` subclasses      test_model,
(here)                                                                test_startup (enum)
``jsontext``     ``json``      30 M, 10 ms  a pure-Python encoder where   test_jsontext,
(base/)                                     ``_json`` is missing          test_startup (json)
``path_key``     ``hashlib``   11 M, 3.8 ms ``hashlib.sha256`` where the  test_paths,
(here)                                      built-in ``_sha2`` is missing test_startup (hashlib)
``read_simple_   ``tomllib``   70 M, 24 ms  ``tomllib`` for anything      test_config,
toml``                                      beyond ``key = value`` lines  test_startup (tomllib)
(here)
``ListLock``     filelock      200 M, 69 ms filelock itself where         test_locking,
(storage/lock.py)                           ``fcntl`` is missing          test_startup (fcntl)
``exit_now``     ``sys.exit``  9.5 M, 3 ms  ``sys.exit`` when an atexit   test_exit_now
(here)           teardown                   callback or a thread is owed
================ ============= ============ ============================= ======================

They are in this one module, not one module each: every call loads all of them,
and a module costs about 0.5 M instructions (1% of a call) to find and load.
``ListLock`` stays with the lock (``storage/lock.py``): only a write takes it.
"""

from __future__ import annotations

import atexit
import os
import sys

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, ClassVar, NoReturn, Self


def exit_now(code: int) -> NoReturn:
    """End the process with ``code`` without tearing the interpreter down.

    Teardown frees every module and object one by one and collects garbage a last
    time, on a process about to vanish: 9-10 million instructions, 3.3 ms (fastest
    of 60 runs) to 3.8 ms (median) of a ``todo show`` (measured against
    ``sys.exit``; with ``gc.freeze()`` before ``sys.exit`` 0.6-1.8 ms of it remain).
    Nothing of ours waits for it: output is flushed as it is written (the flush
    here finds the buffers empty) and every file is closed, and synced, by
    the code that writes it. What else could be owed an orderly exit (an ``atexit``
    callback, such as coverage's or a library's, or a thread still running) gets
    one: then this is ``sys.exit``.
    """
    threading = sys.modules.get("threading")
    # CPython's count of them, private: the only way to know none is owed (see above
    # for what skipping the teardown saves); without it, the usual exit.
    callbacks = getattr(atexit, "_ncallbacks", None)
    if (
        callbacks is None
        or callbacks() != 0
        or (threading is not None and threading.active_count() != 1)
    ):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)  # the usual exit, and whatever it says of a broken stream
    os._exit(code)


class Choice(str):
    """One of a closed set of named string values: a light stand-in for
    ``enum.StrEnum``, whose import (with ``functools`` and ``collections``) costs
    about 4 ms of every call. Members are canonical instances, compared with ``is``
    or ``==``; ``ALL`` lists them in order; ``of`` looks one up by value.

    A subclass declares each member once, as ``NAME: ClassVar[TheClass]``; its
    value is the name in lower case (``IN_PROGRESS`` is ``"in_progress"``)."""

    __slots__ = ()
    ALL: ClassVar[tuple[Choice, ...]] = ()
    _by_value: ClassVar[dict[str, Choice]] = {}
    _names: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        member = f"ClassVar[{cls.__name__}]"
        names = [name for name, kind in _annotations(vars(cls)).items() if kind == member]
        made = [str.__new__(cls, name.lower()) for name in names]
        for name, value in zip(names, made, strict=True):
            setattr(cls, name, value)
        cls.ALL = tuple(made)
        cls._by_value = {m.value: m for m in made}
        cls._names = {m.value: name for name, m in zip(names, made, strict=True)}

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return type(self)._names[self]

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {str.__repr__(self)}>"

    @classmethod
    def of(cls, value: str) -> Self:
        """The member with this value; ValueError if there is none."""
        member = cls._by_value.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a valid {cls.__name__}")
        return member  # type: ignore[return-value]  # _by_value holds cls's members


def _annotations(namespace: Mapping[str, Any]) -> dict[str, object]:
    """A class body's annotations (text: every module has ``from __future__ import
    annotations``; Python 3.14 keeps them behind ``__annotate__``)."""
    found = namespace.get("__annotations__")
    if found is None and "__annotate__" in namespace:
        found = namespace["__annotate__"](1)
    return found or {}


class _Fields(type):
    """Gives a ``Value`` class ``__slots__`` named after its ``__init__``'s
    parameters, so each field is written once, in the ``__init__`` that sets it."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _Fields:
        if any(not _is_class_var(kind) for kind in _annotations(namespace).values()):
            raise TypeError(f"{name}: a field is a parameter of __init__, not an annotation")
        init = namespace.get("__init__")
        if init is not None:
            code = init.__code__  # read, as inspect.signature reads it
            namespace["__slots__"] = tuple(sorted(code.co_varnames[1 : code.co_argcount]))
        return super().__new__(mcs, name, bases, namespace)


def _is_class_var(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar[", "typing.ClassVar["))


class Value(metaclass=_Fields):
    """Equality, hashing and repr from a class's fields (its ``__slots__``).

    A value class writes its ``__init__`` by hand, one parameter a field, each
    stored as it is; ``__slots__`` is made from those parameters. (Dataclasses would
    cost about 20 ms of every call, for ``inspect``; an ``__init__`` built from
    source text at start-up, as dataclasses build theirs, costs 7.5 million
    instructions, about 2 ms, of every call: 18 small compiles.)"""

    __slots__: ClassVar[tuple[str, ...]] = ()  # made by _Fields: the fields, sorted

    def _fields(self) -> tuple[object, ...]:
        names: tuple[str, ...] = self.__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        # A loop, not all() over a generator: values are compared for every task of a
        # list on each write, and the generators cost 0.45M instructions of a TodoWrite.
        for name in self.__slots__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is not theirs and mine != theirs:  # the same object is equal, as in a tuple
                return False
        return True

    def __hash__(self) -> int:
        return hash(self._fields())

    def replace(self, **changes: object) -> Self:
        """A copy with some fields changed (``dataclasses.replace``): a value is not
        changed once made."""
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return type(self)(**values)

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        pairs = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__name__}({pairs})"


def path_key(path: str) -> str:
    """A short, stable name for a path: the first 16 hex digits of its SHA-256.

    ``hashlib`` loads OpenSSL: the built-in module it would use for SHA-256 gives
    the same digest 3-4 ms sooner on every call (11 M instructions, 3.11 to 3.13).
    """
    data = path.encode("utf-8", "surrogateescape")
    # Its name changed in 3.12: asking for the other one first is a failed import
    # (a search of every folder on sys.path) in every write.
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]
        else:
            from _sha256 import sha256  # type: ignore[import-not-found, no-redef, unused-ignore]
    except ImportError:
        from hashlib import sha256
    return str(sha256(data).hexdigest()[:16])


_SESSION_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
# The variable the hooks hand an agent's shell: the harness session it runs in.
AGENT_SESSION = "TODOCLI_AGENT_SESSION"


def is_session_name(name: str) -> bool:
    """``[A-Za-z0-9][A-Za-z0-9._-]{0,63}``, checked without compiling a pattern."""
    return 0 < len(name) <= 64 and name[0] not in "._-" and _SESSION_CHARS.issuperset(name)


def safe_session(name: str) -> str | None:
    """A harness's session id made into a session name (SESSION_RULE): characters
    outside ``[A-Za-z0-9._-]`` become ``-``; starting alphanumeric; at most 64. A
    longer id keeps its first 47 characters and ends in 16 hex digits of its
    SHA-256: two ids that differ only past the 64th character get two lists."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in name)
    safe = safe.lstrip("._-")
    if len(safe) > 64:
        import hashlib

        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()
        safe = f"{safe[:47]}-{digest[:16]}"
    return safe or None


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


# Control characters TOML allows nowhere but as escapes (a tab is fine).
_CONTROL = frozenset(map(chr, [*range(0x09), *range(0x0A, 0x20), 0x7F]))


def read_simple_toml(text: str) -> dict[str, Any] | None:
    """Read a config made only of ``key = value`` lines (integers, decimals, booleans,
    strings without escapes), comments and blank lines; None for anything else.

    ``tomllib`` takes about 8 ms to import (and a regular expression here would
    bring ``re`` and ``enum``, 6 ms more), on every call of a tool that starts once
    per agent step; a config of a few such lines is read here instead. For anything
    beyond this subset, and for every error, ``tomllib`` decides. A property test
    checks that this reader, when it answers, agrees with ``tomllib``.
    """
    if "\r" in text.replace("\r\n", "\n") or text.startswith("\ufeff"):
        return None
    values: dict[str, Any] = {}
    for line in text.replace("\r\n", "\n").split("\n"):
        rest = line.lstrip(" \t")
        if not rest or rest[0] == "#":
            if not _CONTROL.isdisjoint(rest):
                return None
            continue
        end = 0
        while end < len(rest) and rest[end] in _KEY_CHARS:
            end += 1
        key, rest = rest[:end], rest[end:].lstrip(" \t")
        if not key or not rest.startswith("="):
            return None
        parsed = _simple_value(rest[1:].lstrip(" \t"))
        if parsed is None or key in values:
            return None  # beyond the subset, or a duplicate: tomllib words the error
        values[key] = parsed
    return values


def _simple_value(rest: str) -> object | None:
    """The value at the start of ``rest`` when only blanks and a comment follow it."""
    if rest[:1] in ('"', "'"):
        close = rest.find(rest[0], 1)
        body = rest[1:close]
        if close < 0 or not _CONTROL.isdisjoint(body) or (rest[0] == '"' and "\\" in body):
            return None
        value: object = body
        after = rest[close + 1 :]
    else:
        end = 0
        while end < len(rest) and rest[end] not in " \t#":
            end += 1
        token, after = rest[:end], rest[end:]
        if token in ("true", "false"):
            value = token == "true"
        else:
            number = _simple_number(token)
            if number is None:
                return None
            value = number
    after = after.lstrip(" \t")
    if after and (after[0] != "#" or not _CONTROL.isdisjoint(after)):
        return None
    return value


def _simple_number(token: str) -> int | float | None:
    """``[+-]?(0|[1-9](_?[0-9])*)(\\.[0-9](_?[0-9])*)?`` as an int or a float."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    whole, dot, fraction = digits.partition(".")
    if not _digit_run(whole) or (len(whole) > 1 and whole[0] == "0"):
        return None
    if dot and not _digit_run(fraction):
        return None
    return float(token) if dot else int(token)


def _digit_run(text: str) -> bool:
    """``[0-9](_?[0-9])*``: digits, single underscores only between digits."""
    return (
        bool(text)
        and text[0] != "_"
        and text[-1] != "_"
        and "__" not in text
        and all(c in "0123456789_" for c in text)
    )
