"""The one escaping function: which characters it shows as escapes, and how."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from todocli import escapes
from todocli.escapes import first_unsafe, json_safe, one_line, safe

GUARDED_categories = ("Cc", "Cf", "Cs", "Zl", "Zp")


def guarded(ch: str) -> bool:
    """What must never reach a terminal raw, by unicodedata (not by our table)."""
    return unicodedata.category(ch) in GUARDED_categories


@pytest.fixture(scope="module")
def categories() -> list[str]:
    """Every code point's general category, by this Python's Unicode database."""
    return [unicodedata.category(chr(c)) for c in range(0x110000)]


def test_format_characters_are_the_ones_unicodedata_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether a character is a format character (Cf) is asked of ``unicodedata``,
    not of a table of our own: a category it reports is the one that counts."""

    class Database:
        @staticmethod
        def category(ch: str) -> str:
            return "Cf" if ch == "\ue000" else unicodedata.category(ch)

    monkeypatch.setitem(sys.modules, "unicodedata", Database)
    assert escapes.shown_as("\ue000") == "\\ue000"  # private use, Cf by this database
    assert escapes.shown_as("\ue001") is None  # private use, as Python has it: kept


def test_exactly_the_controls_formats_surrogates_and_separators_are_escaped(
    categories: list[str],
) -> None:
    """Over the whole code space, by unicodedata: C0, DEL, C1, Cf, the surrogates and
    U+2028/9 are escaped, as printable ASCII; every other character is kept."""
    wanted = {c for c, cat in enumerate(categories) if cat in GUARDED_categories}
    changed = {}
    for c in range(0x110000):
        shown = one_line(chr(c))
        if shown != chr(c):
            changed[c] = shown
    assert sorted(map(hex, wanted - changed.keys())) == []
    assert {hex(c) for c in changed.keys() - wanted if categories[c] != "Cn"} == set()
    assert [hex(c) for c, e in changed.items() if not (e.isascii() and e.isprintable())] == []
    assert all(e.startswith("\\") for e in changed.values())


@pytest.mark.parametrize(
    ("text", "lines", "line"),
    [
        ("a\x1bb", "a\\x1bb", "a\\x1bb"),
        ("bell\x07", "bell\\x07", "bell\\x07"),
        ("back\x08", "back\\x08", "back\\x08"),
        ("del\x7f", "del\\x7f", "del\\x7f"),
        ("csi\x9b", "csi\\x9b", "csi\\x9b"),
        ("raw\udc9b", "raw\\x9b", "raw\\x9b"),  # the byte 0x9B, as surrogateescape holds it
        ("lone\ud800", "lone\\ud800", "lone\\ud800"),
        ("rlo\u202e", "rlo\\u202e", "rlo\\u202e"),
        ("zw\u200bsp", "zw\\u200bsp", "zw\\u200bsp"),
        ("bom\ufeffmid", "bom\\ufeffmid", "bom\\ufeffmid"),
        ("alm\u061c", "alm\\u061c", "alm\\u061c"),
        ("shy\u00ad", "shy\\u00ad", "shy\\u00ad"),
        ("ls\u2028ps\u2029", "ls\\u2028ps\\u2029", "ls\\u2028ps\\u2029"),
        ("tag\U000e0041", "tag\\U000e0041", "tag\\U000e0041"),
        ("two\nlines\tand tab\r", "two\nlines\tand tab\\r", "two\\nlines\\tand tab\\r"),
        ("plain — é 字 🙂", "plain — é 字 🙂", "plain — é 字 🙂"),
        ("nbsp\u00a0stays", "nbsp\u00a0stays", "nbsp\u00a0stays"),
    ],
)
def test_safe_and_one_line(text: str, lines: str, line: str) -> None:
    assert safe(text) == lines
    assert one_line(text) == line


def test_multi_line_text_with_one_bad_line() -> None:
    text = "fine — line\nbad \u202e line\n\ttabbed\n"
    assert safe(text) == "fine — line\nbad \\u202e line\n\ttabbed\n"


@given(st.text())
def test_nothing_guarded_survives_and_escaping_is_idempotent(text: str) -> None:
    shown = safe(text)
    assert not [ch for ch in shown if guarded(ch) and ch not in "\n\t"]
    assert not [ch for ch in one_line(text) if guarded(ch)]
    assert safe(shown) == shown
    assert one_line(one_line(text)) == one_line(text)
    shown.encode("utf-8")  # no surrogate left: always encodable


JSON_VALUES = st.recursive(
    st.text() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
)


@given(JSON_VALUES)
def test_json_stays_valid_and_lossless_with_nothing_raw(value: object) -> None:
    document = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(document) == value
    assert not [ch for ch in document if guarded(ch)]


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("fine", None),
        ("é 字 🙂", None),
        ("nb\u00a0sp", None),
        ("a\tb", "\t"),
        ("x\u202ey\x1b", "\u202e"),
    ],
)
def test_first_unsafe(text: str, bad: str | None) -> None:
    assert first_unsafe(text) == bad


def test_the_module_imports_only_unicodedata() -> None:
    """No re: start-up is the product (unicodedata, 0.1 ms, only when asked)."""
    tree = ast.parse(Path(escapes.__file__).read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    names = [getattr(n, "module", None) or n.names[0].name for n in imports]
    assert names == ["__future__", "unicodedata"]


def test_the_agent_path_loads_no_re_to_escape(tmp_path: Path) -> None:
    """A list full of characters to escape takes the slow path; still no re."""
    home = tmp_path / "home"
    (home / "sessions").mkdir(parents=True)
    (home / "sessions" / "default.md").write_bytes(
        b"# Todos\n- [/] a \x1b[2J \xc2\x9b \x9b \xe2\x80\xae \xef\xbb\xbf\n- [ ] b \xe2\x80\x8b\n"
    )
    probe = (
        "import sys\n"
        "sys.argv = ['todo', 'show', '--plain']\n"
        "from todocli.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        env={**os.environ, "TODOCLI_HOME": str(home), "TODOCLI_CONFIG": str(tmp_path / "c.toml")},
        check=False,
    )
    assert b"\\u202e" in proc.stdout  # the slow path ran
    modules = set(proc.stderr.decode().split("MODULES ", 1)[1].split())
    assert "re" not in modules


def test_quoted_user_text_is_one_line_and_bounded() -> None:
    from todocli.escapes import QUOTE_LIMIT, quoted

    assert quoted("Run tests") == '"Run tests"'
    assert quoted("a\nb\x1b") == '"a\\nb\\x1b"'
    long = quoted("z" * 10_000)
    assert long == '"' + "z" * QUOTE_LIMIT + "…(+" + str(10_000 - QUOTE_LIMIT) + ' characters)"'
    assert quoted("z" * QUOTE_LIMIT) == '"' + "z" * QUOTE_LIMIT + '"'


@pytest.mark.parametrize("notation", [escapes.LINES, escapes.LINE, escapes.JSON])
@pytest.mark.parametrize("code", range(0x80))
def test_a_long_ascii_text_is_escaped_character_by_character(notation: str, code: int) -> None:
    """Past 1,000 characters ASCII text is searched for each control in turn: any
    one ASCII character in it, alone or beside any other, is shown as it is shown
    on its own."""
    ch = chr(code)
    for text in ("a" * 1000 + ch + "b", ch + "\x1b" + "c" * 1000):
        expected = "".join(escapes.escape(c, notation) for c in text)
        assert escapes.escape(text, notation) == expected


@given(
    st.lists(
        st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=400) | st.text(max_size=40),
        max_size=30,
    )
)
def test_lines_are_escaped_as_their_text_is(lines: list[str]) -> None:
    """``safe_lines`` looks at the ASCII lines together and the others one by one:
    the same text as ``safe`` of all of them, whichever line holds what."""
    assert "\n".join(escapes.safe_lines(lines)) == safe("\n".join(lines))


@given(
    st.lists(
        st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=1200) | st.text(max_size=40),
        max_size=30,
    )
)
def test_all_shown_says_whether_safe_leaves_every_text_as_it_is(texts: list[str]) -> None:
    """``all_shown`` looks at the ASCII texts together and the others one by one:
    yes exactly when ``safe`` changes none of them."""
    assert escapes.all_shown(texts) == all(safe(text) == text for text in texts)


def test_a_control_in_a_long_ascii_line_beside_a_wide_line_is_escaped() -> None:
    lines = ["x" * 2000, "wide — line", "ascii \x1b[2J bell \x07", "y" * 500]
    assert escapes.safe_lines(lines)[2] == "ascii \\x1b[2J bell \\x07"


@given(JSON_VALUES)
def test_a_value_is_shown_in_json_exactly_when_json_safe_changes_nothing(value: object) -> None:
    """``json_shown`` looks at the strings of a value (DEL alone in ASCII ones): it
    says yes exactly when ``json_safe`` leaves the document of the value as it is,
    so the document is not read through again."""
    document = json.dumps(value, ensure_ascii=False)
    assert escapes.json_shown(value) == (json_safe(document) == document)


def test_text_already_shown_is_taken_as_it_is_in_a_json_value() -> None:
    text = safe("Phase — \x1b[2J \u202e\n")
    assert escapes.json_shown({"text": escapes.Shown(text), "n": [1, None, ("é",)]})
    assert not escapes.json_shown({"list": [{"content": "bad \u202e"}]})
    assert not escapes.json_shown(["ascii \x7f"])


def test_a_large_json_document_is_made_safe_from_its_values() -> None:
    """Past 200,000 characters, a document that is not ASCII is kept as it is when
    its values hold nothing to escape, and escaped as ``json_safe`` does when one
    does."""
    value: dict[str, object] = {
        "text": escapes.Shown(safe("Phase — done \x1b\n") * 20_000),
        "todos": [{"content": "task " * 10} for _ in range(100)],
    }
    document = json.dumps(value, ensure_ascii=False)
    assert len(document) > 200_000
    assert escapes.json_document(document, value) is document
    value["todos"] = [{"content": "bad \u202e"}]
    document = json.dumps(value, ensure_ascii=False)
    assert escapes.json_document(document, value) == json_safe(document) != document
