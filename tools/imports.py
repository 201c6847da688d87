"""Apply the import rule (todocli/base/__init__.py) to the package's files.

    python tools/imports.py             list what breaks the rule, file by file
    python tools/imports.py --types F…  in the files F, import TYPE_CHECKING from
                                        todocli.base instead of defining it

The rule is checked by tests/test_layers.py (its TO_CONVERT lists the files still
waiting). Moving an import from a function to the top is left to a person: a name
may be bound twice (``undo as restore``, ``redo as restore``), and the start-up
tests must run after each move (tests/test_startup.py, bench/run.py --instructions).
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
    after = 0  # the line after the leading docstring and imports
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not (docstring or isinstance(node, ast.Import | ast.ImportFrom)):
            break
        after = node.end_lineno or after
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--types", nargs="+", type=Path, metavar="FILE")
    args = parser.parse_args()
    if args.types:
        import_types(args.types)
        return 0
    return 1 if breaches() else 0


if __name__ == "__main__":
    sys.exit(main())
