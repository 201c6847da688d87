"""The package's layers, pinned: each folder imports only from the layers below it.

    cli/  mcp/      front ends: the command table, argv, the Typer app, terminal
                    output and the error boundary; the MCP server
       app/         the commands' bodies and their plain and JSON rendering, shared
                    by both front ends (the MCP server reaches them without cli/);
                    by job in folders of one layer: wiring/ (setup, doctor, the
                    gate, git's merge driver), evidence/ (checks, approvals,
                    proofs), sharing/ (several agents on one plan)
      storage/      files, locks, transactions, history, settings on disk
      agents/       one module per agent tool (its payload, words, reply, schema)
      engine/       operations, snapshots, merges, JSON input
      document/     the task model and the lossless markdown reader and writer
    base/, errors, escapes      the base every layer may use: TYPE_CHECKING, the
                                start-up idioms (todocli/base/__init__.py)

Every import counts, including those inside functions and under ``TYPE_CHECKING``:
a type-only import upward is still a dependency a reader has to follow.

And no import circle between any two modules of the package, counting the imports
inside functions (a circle an import moved into a function hides still runs, only
later). Imports under ``if TYPE_CHECKING:`` are left out of that check: they never
run (mypy alone reads them), so a module may name the types of a module that
imports it (``app.evidence.proof`` names ``commands.Context``) without a
circle.

And no room too large to hold in the head: no module over 700 lines, no class over
650 (the lossless ``Document`` is one job and may stay whole), no function over 80.
The places still over are named in a list that may only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_startup import KEPT_OFF

PACKAGE = Path(__file__).resolve().parent.parent / "todocli"

# Rank of each layer: a module may import from its own rank and below. The two
# front ends share a rank but may not import each other (see FRONT_ENDS).
RANK = {
    "base": 0,
    "errors": 0,
    "escapes": 0,
    "document": 1,
    "engine": 2,
    "agents": 3,
    "storage": 4,
    "app": 5,
    "cli": 6,
    "mcp": 6,
    "serve": 6,
    "__init__": 9,  # the package facade re-exports the document API
    "__main__": 9,  # the console script starts the command line
}
FRONT_ENDS = {"cli", "mcp", "serve"}
# Libraries only a front end may load (the core never imports Typer or rich).
FRONT_END_LIBRARIES = {
    *("typer", "click", "rich", "mcp", "pydantic", "anyio", "starlette", "uvicorn")
}
# The one sanctioned crossing: `todo mcp` is a command of the command line, and it
# starts the server (loaded only when that command runs); `todo serve` the same.
ALLOWED = {("cli", "mcp"), ("cli", "serve")}


def layer_of(module: str) -> str:
    """The layer of a dotted module name inside todocli (``todocli.engine.ops``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(relative.parts)
        if name.endswith(".__init__") and name != "todocli.__init__":
            name = name[: -len(".__init__")]
        found.append((name, path))
    return found


def _for_types(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (the name, or ``typing.TYPE_CHECKING``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes(tree: ast.AST, types: bool) -> list[ast.AST]:
    """Every node of the tree; without ``types``, none of an ``if TYPE_CHECKING:``
    body (its ``else:`` runs, and is kept)."""
    found: list[ast.AST] = []
    waiting = [tree]
    while waiting:
        node = waiting.pop()
        found.append(node)
        if not types and isinstance(node, ast.If) and _for_types(node):
            waiting.extend(node.orelse)
            continue
        waiting.extend(ast.iter_child_nodes(node))
    return found


def imports_of(path: Path, package: str, *, types: bool = True) -> set[str]:
    """Every module this file imports, absolute, wherever the import statement is;
    without ``types``, leaving out those under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in _nodes(tree, types):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            names.add(stem)
            # `from todocli.engine import ops` imports the module todocli.engine.ops
            names.update(f"{stem}.{alias.name}" for alias in node.names)
    return names


def test_every_module_sits_in_a_known_layer() -> None:
    unknown = {name for name, _ in modules() if layer_of(name) not in RANK}
    assert not unknown, f"modules outside the layers: {sorted(unknown)}"


@pytest.mark.parametrize(("name", "path"), modules(), ids=[name for name, _ in modules()])
def test_imports_point_down_the_layers(name: str, path: Path) -> None:
    own = layer_of(name)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    wrong = []
    for target in imports_of(path, package):
        top = target.split(".")[0]
        if top in FRONT_END_LIBRARIES and own not in FRONT_ENDS:
            wrong.append(f"{target} (a front end's library)")
        if top != "todocli" or target == "todocli":
            continue
        other = layer_of(target)
        if other not in RANK or other == own or (own, other) in ALLOWED:
            continue
        if RANK[other] > RANK[own] or (own in FRONT_ENDS and other in FRONT_ENDS):
            wrong.append(f"{target} ({other} is above or beside {own})")
    assert not wrong, f"{name} imports upward: {sorted(wrong)}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    # The checker itself must be able to fail: a document module importing storage.
    probe = tmp_path / "probe.py"
    probe.write_text("def later():\n    from todocli.storage import store\n", encoding="utf-8")
    found = imports_of(probe, "todocli.document")
    assert "todocli.storage.store" in found
    assert RANK[layer_of("todocli.storage.store")] > RANK["document"]


def package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def import_graph(found: list[tuple[str, Path]]) -> dict[str, set[str]]:
    """Each module to the modules of the same package it imports when it runs."""
    known = {name for name, _ in found}
    graph: dict[str, set[str]] = {}
    for name, path in found:
        imported = imports_of(path, package_of(name, path), types=False)
        graph[name] = {target for target in imported if target in known and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (a path back to its start) through each group of modules that
    import each other, directly or round a longer way."""
    found: list[list[str]] = []
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        # the modules start reaches, each with the path that reached it first
        paths = {start: [start]}
        waiting = [start]
        circle: list[str] | None = None
        while waiting and circle is None:
            node = waiting.pop(0)
            for target in sorted(graph[node]):
                if target == start:
                    circle = [*paths[node], start]
                    break
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    waiting.append(target)
        if circle is not None:
            found.append(circle)
            done.update(circle)
    return found


def test_no_import_circle_counting_imports_inside_functions() -> None:
    found = circles(import_graph(modules()))
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_check_sees_a_circle_hidden_in_a_function(tmp_path: Path) -> None:
    # The checker itself must be able to fail: two modules that import each other,
    # one of them only inside a function, and a third that names the first only for
    # its types (that import never runs, so it closes no circle).
    folder = tmp_path / "todocli" / "app"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "a.py").write_text("from todocli.app.b import thing\n", encoding="utf-8")
    (folder / "b.py").write_text(
        "def thing():\n    from todocli.app import a\n\n"
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from todocli.app.c import C\n",
        encoding="utf-8",
    )
    (folder / "c.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from todocli.app.b import thing\n"
        "else:\n    import os\n",
        encoding="utf-8",
    )
    found = [
        ("todocli.app", folder / "__init__.py"),
        *((f"todocli.app.{n}", folder / f"{n}.py") for n in "abc"),
    ]
    graph = import_graph(found)
    assert graph["todocli.app.c"] == set()
    assert circles(graph) == [["todocli.app.a", "todocli.app.b", "todocli.app.a"]]


# -- sizes ---------------------------------------------------------------------------------

MAX_MODULE_LINES = 700
MAX_CLASS_LINES = 650
MAX_FUNCTION_LINES = 80  # a method or a nested function too; from `def` to its last line
SIZE_EXEMPT = {"document/markdown.py:Document"}  # the lossless document: one job


def sizes_over(package: Path) -> dict[str, int]:
    """Each module, class and function of the package over its limit, with its
    length in lines: ``path`` for a module, ``path:Qualified.name`` for the rest."""
    over: dict[str, int] = {}
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            over[name] = len(text.splitlines())
        waiting: list[tuple[ast.AST, str]] = [(ast.parse(text), "")]
        while waiting:
            node, prefix = waiting.pop()
            for child in ast.iter_child_nodes(node):
                if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    waiting.append((child, prefix))
                    continue
                qualified = prefix + child.name
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                limit = MAX_CLASS_LINES if isinstance(child, ast.ClassDef) else MAX_FUNCTION_LINES
                key = f"{name}:{qualified}"
                if lines > limit and key not in SIZE_EXEMPT:
                    over[key] = lines
                waiting.append((child, qualified + "."))
    return over


def test_no_module_class_or_function_is_over_its_size() -> None:
    over = sizes_over(PACKAGE)
    assert not over, f"over the size limits (module 700, class 650, function 80 lines): {over}"


def test_the_size_check_sees_a_long_method_and_module(tmp_path: Path) -> None:
    # The checker itself must be able to fail: a method of 81 lines in a module of 701.
    body = "".join(f"        x = {i}\n" for i in range(80))
    module = "class A:\n    def long(self) -> None:\n" + body
    module += "\n" * (MAX_MODULE_LINES + 1 - len(module.splitlines()))
    (tmp_path / "probe.py").write_text(module, encoding="utf-8")
    assert sizes_over(tmp_path) == {"probe.py": 701, "probe.py:A.long": 81}


# -- one rule for imports (written in todocli/base/__init__.py) -------------------------
#
# An import inside a function names a module of KEPT_OFF (tests/test_startup.py checks
# that the forms keeping it off load none of it); every other import is at the top.
# ``TYPE_CHECKING`` is defined once, in todocli.base, and imported from there.

# Modules whose every import waits, for a reason other than start-up's table.
LATE = {
    # run() turns the collector off before it imports the command line: where no
    # launcher did (python -m todocli, the todocli script) the collector would
    # otherwise rescan what those imports make, 3.6 M instructions.
    "todocli/__main__.py": "after gc.disable()",
}


def _kept_off(name: str) -> bool:
    return any(name == entry or name.startswith(entry + ".") for entry in KEPT_OFF)


def late_imports(path: Path, package: str) -> set[str]:
    """The modules imported inside this file's functions that KEPT_OFF does not name
    (for ``from a import b``, the module ``a.b`` when there is one, else ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    known = {name for name, _ in modules()}
    found: set[str] = set()
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if not _kept_off(a.name))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    stem = ".".join([*base, node.module] if node.module else base)
                else:
                    stem = node.module or ""
                for alias in node.names:
                    full = f"{stem}.{alias.name}"
                    if not (_kept_off(stem) or _kept_off(full)):
                        found.add(full if full in known else stem)
    return found


def own_type_checking(path: Path) -> bool:
    """Whether the file assigns ``TYPE_CHECKING`` itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" for t in node.targets)
        for node in ast.walk(tree)
    )


def import_rule_breaches(name: str, path: Path) -> set[str]:
    relative = path.relative_to(PACKAGE.parent).as_posix()
    found = set() if relative in LATE else late_imports(path, package_of(name, path))
    if own_type_checking(path) and relative != "todocli/base/__init__.py":
        found.add("TYPE_CHECKING")
    return found


@pytest.mark.parametrize(("name", "path"), modules(), ids=[name for name, _ in modules()])
def test_imports_inside_functions_only_for_what_start_up_keeps_off(name: str, path: Path) -> None:
    relative = path.relative_to(PACKAGE.parent).as_posix()
    found = import_rule_breaches(name, path)
    assert not found, (
        f"{relative}: imports inside functions of modules start-up does not keep off "
        f"(move them to the top, or name the module in KEPT_OFF with its reason, or run "
        f"python tools/imports.py --types FILE for its own TYPE_CHECKING): {sorted(found)}"
    )


def test_the_import_rule_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    # The checker itself must be able to fail: a module imported late with no entry,
    # beside one the table names, and a TYPE_CHECKING of the file's own.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "TYPE_CHECKING = False\n"
        "def later():\n    import csv\n    from rich.console import Console\n"
        "    from todocli.app import history\n",
        encoding="utf-8",
    )
    assert late_imports(probe, "todocli.app") == {"csv"}
    assert own_type_checking(probe)
