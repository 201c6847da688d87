"""The product speaks of itself: its code, its tests and their names say what a thing
is in the product's terms, never which working document of its making asked for it
(numbered source documents, a specification file that is not in the repository); and
the architecture picture draws the imports as they are."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.test_layers import imports_of, layer_of, modules

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
THIS = Path(__file__).name
# A numbered source document ("Seed 003's limit"), or the specification file and its
# sections ("SPEC 3"): words of the making, not of the product.
PROCESS_WORDS = re.compile(r"(?i:\bseeds? \d)|SPEC\.md|\bSPEC\b")
# In a name (snake_case or kebab-case): the word seed or spec as one of its parts.
PROCESS_NAME = re.compile(r"(?:^|[_\-.])(?:seeds?|specs?)(?:[_\-.]|$)", re.I)


def process_words_in(files: list[Path]) -> list[str]:
    found = []
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            if PROCESS_WORDS.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_package_speaks_only_of_the_product() -> None:
    files = [p for p in sorted((ROOT / "todocli").rglob("*")) if p.is_file()]
    files = [p for p in files if "__pycache__" not in p.parts]
    assert len(files) > 50, "the package's files are found"
    found = process_words_in(files)
    assert not found, "process words in todocli/:\n" + "\n".join(found)


def test_the_tests_speak_only_of_the_product() -> None:
    # This file names the words it looks for.
    found = process_words_in([p for p in sorted(TESTS.rglob("*.py")) if p.name != THIS])
    assert not found, "process words in tests/:\n" + "\n".join(found)


def names_of_tests() -> list[str]:
    """Every name a test is known by: its file, its function or class, a golden case."""
    names = [case.name for case in (TESTS / "cases").iterdir() if case.is_dir()]
    for path in sorted(TESTS.rglob("*.py")):
        names.append(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.append(node.name)
    return names


def test_every_test_is_named_in_the_products_words() -> None:
    names = names_of_tests()
    assert "test_the_format_example_reads_into_its_model_and_is_its_canonical_form" in names
    assert "format-example-done" in names
    wrong = sorted({name for name in names if PROCESS_NAME.search(name)})
    assert not wrong, f"tests named for a working document: {wrong}"


def test_the_name_check_sees_a_process_word() -> None:
    assert PROCESS_NAME.search("test_spec_example_reads")
    assert PROCESS_NAME.search("seed-format-done")
    assert not PROCESS_NAME.search("test_respects_the_limit")
    assert PROCESS_WORDS.search("Seed 003's limit of 50 tasks")
    assert PROCESS_WORDS.search("see SPEC.md")
    assert PROCESS_WORDS.search("(SPEC 3)")
    assert not PROCESS_WORDS.search("the CommonMark spec, a random seed")


# -- the architecture picture ---------------------------------------------------------


def layers_imported_by(layer: str) -> set[str]:
    found = set()
    for name, path in modules():
        if layer_of(name) != layer:
            continue
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found |= {layer_of(t) for t in imports_of(path, package) if t.startswith("todocli.")}
    return found - {layer}


def test_storage_and_agents_sit_side_by_side_as_drawn() -> None:
    assert "agents" not in layers_imported_by("storage")
    assert "storage" not in layers_imported_by("agents")
    assert {"storage", "agents"} <= layers_imported_by("app")
    picture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn = re.search(r"```\n(.*?)```", picture, re.S)
    assert drawn, "docs/architecture.md draws the layers"
    rows = drawn.group(1).splitlines()
    [row] = [r for r in rows if "storage/" in r]
    assert "agents/" in row, "storage/ and agents/ are drawn on one row, neither above"
