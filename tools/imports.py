"""Apply the import rule (todocli/base/__init__.py) to the package's files.

    python tools/imports.py             list what breaks the rule, file by file
    python tools/imports.py --types F…  in the files F, import TYPE_CHECKING from
                                        todocli.base instead of defining it
    python tools/imports.py --gather    move the idioms still in their first users'
                                        modules (GATHER) into todocli/base/__init__.py,
                                        and import them from there everywhere

The rule is checked by tests/test_layers.py. Moving an import from a function to
the top is left to a person: a name may be bound twice (``undo as restore``,
``redo as restore``), and the start-up tests must run after each move
(tests/test_startup.py, bench/run.py --instructions).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_layers import import_rule_breaches, modules  # noqa: E402

IMPORT = "from todocli.base import TYPE_CHECKING\n"


def breaches() -> int:
    """Print each file's breaches of the rule; how many files have one."""
    count = 0
    for name, path in modules():
        found = import_rule_breaches(name, path)
        if found:
            count += 1
            print(f"{path.relative_to(ROOT)}: {', '.join(sorted(found))}")
    return count


def _after_imports(tree: ast.Module) -> int:
    """The line after the module's docstring and leading imports."""
    after = 0
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not (docstring or isinstance(node, ast.Import | ast.ImportFrom)):
            break
        after = node.end_lineno or after
    return after


def _with_import(text: str, names: list[str]) -> str:
    """The text with ``from todocli.base import names`` after its leading imports."""
    lines = text.splitlines(keepends=True)
    lines.insert(_after_imports(ast.parse(text)), f"from todocli.base import {', '.join(names)}\n")
    return "".join(lines)


def _with_imported_types(text: str) -> str | None:
    """The file's text importing TYPE_CHECKING after its leading imports, its own
    definition gone; None when it defines none."""
    tree = ast.parse(text)
    own = [
        node
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" for t in node.targets)
    ]
    if not own:
        return None
    lines = text.splitlines(keepends=True)
    after = _after_imports(tree)
    for node in reversed(own):
        del lines[node.lineno - 1 : node.end_lineno]
    lines.insert(after, IMPORT)
    return "".join(lines)


def import_types(paths: list[Path]) -> None:
    """Import TYPE_CHECKING from todocli.base in each file that defines its own,
    then let ruff sort the imports and format the files."""
    changed = []
    for path in paths:
        new = _with_imported_types(path.read_text(encoding="utf-8"))
        if new is not None:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path))
    if changed:
        ruff = [sys.executable, "-m", "ruff"]
        subprocess.run([*ruff, "check", "--select", "I", "--fix", "-q", *changed], check=False)
        subprocess.run([*ruff, "format", "-q", *changed], check=False)
    print(f"{len(changed)} files now import TYPE_CHECKING from todocli.base")


# The idioms still defined where they were first used: each module, the top-level
# names moved out of it (helpers with them), and the names others import.
GATHER = {
    "todocli/document/model.py": (
        ["Choice", "_annotations", "_Fields", "_is_class_var", "Value"],
        ["Choice", "Value"],
    ),
    "todocli/storage/paths.py": (["path_key"], ["path_key"]),
    "todocli/storage/config.py": (
        ["_KEY_CHARS", "_CONTROL", "read_simple_toml", "_simple_value", "_simple_number",
         "_digit_run"],
        ["read_simple_toml"],
    ),
}  # fmt: skip
# What the moved code needs at the top of todocli/base/__init__.py.
BASE_NEEDS = [
    "from typing import Any, ClassVar, Self",
    "from collections.abc import Mapping",
]


def _name_of(node: ast.stmt) -> str | None:
    if isinstance(node, ast.ClassDef | ast.FunctionDef):
        return node.name
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _cut(path: Path, names: list[str]) -> str:
    """Remove these top-level definitions (with the comments right above them) from
    the file; their source, in the file's order."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    spans = []
    for node in tree.body:
        if _name_of(node) in names:
            start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            start -= 1
            while start > 0 and lines[start - 1].lstrip().startswith("#"):
                start -= 1
            spans.append((start, node.end_lineno or node.lineno))
    missing = set(names) - {_name_of(n) for n in tree.body}
    if missing:
        raise SystemExit(f"{path}: no top-level {sorted(missing)} (gathered already?)")
    taken = "\n\n".join("".join(lines[a:b]).strip("\n") + "\n" for a, b in spans)
    for a, b in reversed(spans):
        del lines[a:b]
    path.write_text("".join(lines), encoding="utf-8")
    return taken


def _point_imports(path: Path, module: str, moved: set[str]) -> bool:
    """In this file, import the moved names from todocli.base instead of ``module``."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    changed = False
    for node in reversed(list(ast.walk(ast.parse(text)))):
        if not (isinstance(node, ast.ImportFrom) and node.module == module and not node.level):
            continue
        names = {alias.name for alias in node.names}
        if not names & moved:
            continue
        indent = lines[node.lineno - 1][: node.col_offset]
        kept = [a for a in node.names if a.name not in moved]
        new = [f"{indent}from todocli.base import {', '.join(sorted(names & moved))}\n"]
        if kept:
            listed = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
            new.insert(0, f"{indent}from {module} import {listed}\n")
        lines[node.lineno - 1 : node.end_lineno] = new
        changed = True
    if changed:
        path.write_text("".join(lines), encoding="utf-8")
    return changed


def gather() -> None:
    """Move GATHER's definitions into todocli/base/__init__.py; every import of them,
    in the package and its tests, then names todocli.base."""
    base = ROOT / "todocli" / "base" / "__init__.py"
    pieces = []
    for relative, (names, public) in GATHER.items():
        pieces.append(_cut(ROOT / relative, names))
        # the module itself may use what moved (ruff drops the import where not)
        owner = ROOT / relative
        owner.write_text(_with_import(owner.read_text(encoding="utf-8"), public), encoding="utf-8")
    text = base.read_text(encoding="utf-8")
    text = text.replace("import atexit\n", "import atexit\nimport sys\n", 1)
    marker = "if TYPE_CHECKING:\n"
    needs = "".join(f"    {line}\n" for line in BASE_NEEDS)
    text = text.replace(marker, marker + needs, 1)
    text = text.rstrip("\n") + "\n\n\n" + "\n\n".join(pieces)
    base.write_text(text, encoding="utf-8")
    changed = [base]
    for relative, (_, public) in GATHER.items():
        module = relative.removesuffix(".py").replace("/", ".")
        for folder in ("todocli", "tests", "tools", "bench"):
            for path in sorted((ROOT / folder).rglob("*.py")):
                if _point_imports(path, module, set(public)):
                    changed.append(path)
    for relative in GATHER:
        changed.append(ROOT / relative)
    files = sorted({str(p) for p in changed})
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--select", "I,F401", "--fix", "-q", *files], check=False)
    subprocess.run([*ruff, "format", "-q", *files], check=False)
    print(f"gathered into {base.relative_to(ROOT)}; {len(files)} files changed")
    print("left to a person: uses through a module (tests/test_paths.py: paths.path_key),")
    print("which mypy names, and the homes in the table of todocli/base/__init__.py")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--types", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--gather", action="store_true")
    args = parser.parse_args()
    if args.gather:
        gather()
        return 0
    if args.types:
        import_types(args.types)
        return 0
    return 1 if breaches() else 0


if __name__ == "__main__":
    sys.exit(main())
