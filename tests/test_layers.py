"""The package's layers, pinned: each folder imports only from the layers below it.

    cli/  mcp/      front ends: the command table, argv, the Typer app, terminal
                    output and the error boundary; the MCP server
       app/         the commands' bodies and their plain and JSON rendering, shared
                    by both front ends (the MCP server reaches them without cli/)
      storage/      files, locks, transactions, history, settings on disk
      agents/       one module per agent tool (its payload, words, reply, schema)
      engine/       operations, snapshots, merges, JSON input
      document/     the task model and the lossless markdown reader and writer
    errors, escapes, jsontext   the base every layer may use

Every import counts, including those inside functions and under ``TYPE_CHECKING``:
a type-only import upward is still a dependency a reader has to follow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "todocli"

# Rank of each layer: a module may import from its own rank and below. The two
# front ends share a rank but may not import each other (see FRONT_ENDS).
RANK = {
    "errors": 0,
    "escapes": 0,
    "jsontext": 0,
    "document": 1,
    "engine": 2,
    "agents": 3,
    "storage": 4,
    "app": 5,
    "cli": 6,
    "mcp": 6,
    "__init__": 9,  # the package facade re-exports the document API
    "__main__": 9,  # the console script starts the command line
}
FRONT_ENDS = {"cli", "mcp"}
# Libraries only a front end may load (the core never imports Typer or rich).
FRONT_END_LIBRARIES = {"typer", "click", "rich", "mcp", "pydantic", "anyio"}
# The one sanctioned crossing: `todo mcp` is a command of the command line, and it
# starts the server (loaded only when that command runs).
ALLOWED = {("cli", "mcp")}


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


def imports_of(path: Path, package: str) -> set[str]:
    """Every module this file imports, absolute, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
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
