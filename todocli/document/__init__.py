"""The document: the task model and the lossless markdown reader and writer.

This module also holds the body of every ``Value``'s ``__init__``, one function
per number of fields: a value class's ``__init__`` is a copy of the code of one of
these with the placeholder names replaced by its fields (``model._init``). They
are written out, rather than compiled as each class is made, so that they come
compiled in the ``.pyc`` (compiling them cost half a millisecond of every call);
and here, in a module every call loads anyway, because a module of their own
would cost a tenth of one. tests/test_model.py checks them against
``model.init_source``.
"""

# ruff: noqa: ANN401  # the copies' self is any Value
from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import Any


def _1(self: Any, a0: object) -> None:
    self.a0 = a0


def _2(self: Any, a0: object, a1: object) -> None:
    self.a0 = a0
    self.a1 = a1


def _3(self: Any, a0: object, a1: object, a2: object) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2


def _4(self: Any, a0: object, a1: object, a2: object, a3: object) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3


def _5(self: Any, a0: object, a1: object, a2: object, a3: object, a4: object) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4


def _6(self: Any, a0: object, a1: object, a2: object, a3: object, a4: object, a5: object) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5


def _7(
    self: Any, a0: object, a1: object, a2: object, a3: object, a4: object, a5: object, a6: object
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6


def _8(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7


def _9(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8


def _10(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9


def _11(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10


def _12(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11


def _13(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12


def _14(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
    a13: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12
    self.a13 = a13


def _15(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
    a13: object,
    a14: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12
    self.a13 = a13
    self.a14 = a14


def _16(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
    a13: object,
    a14: object,
    a15: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12
    self.a13 = a13
    self.a14 = a14
    self.a15 = a15


def _17(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
    a13: object,
    a14: object,
    a15: object,
    a16: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12
    self.a13 = a13
    self.a14 = a14
    self.a15 = a15
    self.a16 = a16


def _18(
    self: Any,
    a0: object,
    a1: object,
    a2: object,
    a3: object,
    a4: object,
    a5: object,
    a6: object,
    a7: object,
    a8: object,
    a9: object,
    a10: object,
    a11: object,
    a12: object,
    a13: object,
    a14: object,
    a15: object,
    a16: object,
    a17: object,
) -> None:
    self.a0 = a0
    self.a1 = a1
    self.a2 = a2
    self.a3 = a3
    self.a4 = a4
    self.a5 = a5
    self.a6 = a6
    self.a7 = a7
    self.a8 = a8
    self.a9 = a9
    self.a10 = a10
    self.a11 = a11
    self.a12 = a12
    self.a13 = a13
    self.a14 = a14
    self.a15 = a15
    self.a16 = a16
    self.a17 = a17


BY_COUNT = (None, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18)
