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
(model.py)                                  ``__slots__``                 test_startup
``Choice``       ``enum``      17 M, 6 ms   none: ``str`` subclasses      test_model,
(model.py)                                                                test_startup (enum)
``jsontext``     ``json``      30 M, 10 ms  a pure-Python encoder where   test_jsontext,
(base/)                                     ``_json`` is missing          test_startup (json)
``path_key``     ``hashlib``   11 M, 3.8 ms ``hashlib.sha256`` where the  test_paths,
(paths.py)                                  built-in ``_sha2`` is missing test_startup (hashlib)
``read_simple_   ``tomllib``   70 M, 24 ms  ``tomllib`` for anything      test_config,
toml``                                      beyond ``key = value`` lines  test_startup (tomllib)
(config.py)
``ListLock``     filelock      200 M, 69 ms filelock itself where         test_locking,
(store.py)                                  ``fcntl`` is missing          test_startup (fcntl)
``exit_now``     ``sys.exit``  9.5 M, 3 ms  ``sys.exit`` when an atexit   test_exit_now
(here)           teardown                   callback or a thread is owed
================ ============= ============ ============================= ======================

``Value``, ``Choice``, ``path_key`` and ``read_simple_toml`` still live where they
are used first (``document/model.py``, ``storage/paths.py``, ``storage/config.py``);
they come here as they are, into this module, not one of their own: every call
loads all of them, and a module costs about 0.5 M instructions (1% of a call) to
find and load. ``ListLock`` stays with the store that takes it (only a write does).
"""

from __future__ import annotations

import atexit
import os
import sys

TYPE_CHECKING = False  # mypy reads it as true; at run time nothing is imported for types
if TYPE_CHECKING:
    from typing import NoReturn


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
