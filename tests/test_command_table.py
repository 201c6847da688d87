"""The command table is the one declaration of the command line: each command has
one body taking exactly its values, every global option lands on one side of the
list/output split, the Typer app is what the table says, and the table is cheap."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from tests.support_cli import todo_process
from todocli.app.commands import Options
from todocli.cli import command_table, dispatch
from todocli.cli.dispatch import Output
from todocli.cli.fastpath import parse, split_globals
from todocli.cli.typer_app import app


def test_every_command_has_one_body_taking_exactly_its_values() -> None:
    assert set(dispatch.HANDLERS) == {c.name for c in command_table.COMMANDS}
    for command in command_table.COMMANDS:
        params = inspect.signature(dispatch.HANDLERS[command.name]).parameters
        keyword_only = {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY}
        assert keyword_only == set(command.defaults()), command.name
        assert next(iter(params)) == "call"


def test_every_global_option_is_a_list_option_or_an_output_option() -> None:
    for option in command_table.GLOBAL_OPTIONS:
        if option.dest == "version":
            continue  # Typer answers it before any command runs
        sides = [option.dest in Options.__slots__, option.dest in Output.__slots__]
        assert sides.count(True) == 1, option.dest
    options, output = split_globals({"json": True, "keep": True, "session": "s"})
    assert (output.json, options.keep, options.session) == (True, True, "s")
    assert not hasattr(options, "json")


def test_options_take_keywords_only() -> None:
    with pytest.raises(TypeError):
        Options("s", "f")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Output(True, False)  # type: ignore[call-arg]
    assert Options(partial=True).replace(keep=True).partial is True


def test_the_typer_app_has_the_table_s_commands_and_options() -> None:
    group = typer.main.get_command(app)
    spellings = {n for p in group.params for n in [*p.opts, *p.secondary_opts]}
    table = {n for o in command_table.GLOBAL_OPTIONS for n in o.names}
    assert spellings == table
    listed = group.commands  # type: ignore[attr-defined]
    for command in command_table.COMMANDS:
        for name in (command.name, *command.aliases):
            click = listed[name]
            assert click.hidden == command.hidden, name
            options = {n for p in click.params if p.param_type_name == "option" for n in p.opts}
            assert options == {n for o in command.options for n in o.names}, name
            arguments = [p.name for p in click.params if p.param_type_name == "argument"]
            assert arguments == [a.dest for a in command.arguments], name
    assert set(listed) == set(command_table.BY_NAME)


def test_the_parser_reads_every_command_of_the_table() -> None:
    call = parse(["--json", "remind", "-e", "2", "--hook"])
    assert call is not None
    assert call.command is not None
    assert (call.command.name, call.output.json) == ("remind", True)
    assert call.values == {"every": 2, "hook": True}
    aliased = parse(["ls", "-a"])
    assert aliased is not None
    assert aliased.command is command_table.BY_NAME["show"]
    assert aliased.values == {"show_all": True, "notes": False, "tool": None}
    assert parse(["diff", "3"]).values == {"rev": 3}  # type: ignore[union-attr]
    assert parse(["diff", "x"]) is None  # Click words the bad number
    assert parse(["--version"]) is None


def test_the_table_is_cheap_to_import() -> None:
    """The fast path loads it on every call: it imports nothing of its own."""
    probe = (
        "import sys, todocli\nbefore = set(sys.modules)\nimport todocli.cli.command_table\n"
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["todocli.cli", "todocli.cli.command_table"]


def test_only_the_table_spells_an_option() -> None:
    """The parsers read every option from the table: no other module of the command
    line names one (``"--json"``, ``"-s"``) to decide anything by itself."""
    import ast
    from pathlib import Path

    spelled = {n for o in command_table.GLOBAL_OPTIONS for n in o.names}
    spelled |= {n for c in command_table.COMMANDS for o in c.options for n in o.names}
    cli = Path(command_table.__file__).parent
    found = [
        f"{module.name}:{node.lineno} {node.value}"
        for module in sorted(cli.glob("*.py"))
        if module.name != "command_table.py"
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.Constant) and node.value in spelled
    ]
    assert found == []


def test_a_usage_error_answers_in_the_form_the_table_s_switches_ask_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the options are read, the output switches are those of the table: a
    spelling the table gives --json (here a made-up ``-J``) picks the JSON envelope."""
    import json

    from todocli.cli import typer_app

    json_option = next(o for o in command_table.GLOBAL_OPTIONS if o.dest == "json")
    also_j = command_table.Option(*json_option.names, "-J", dest="json", help=json_option.help)
    table = tuple(also_j if o is json_option else o for o in command_table.GLOBAL_OPTIONS)
    monkeypatch.setattr(typer_app, "GLOBAL_OPTIONS", table)
    assert typer_app.run(["-J", "show"]) == 2  # Click does not know -J: a usage error
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["status"] == "error"
    assert typer_app.run(["show", "--no-such-option", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["status"] == "error"
    assert typer_app.run(["show", "--no-such-option"]) == 2
    plain = capsys.readouterr()
    assert (plain.out, "No such option: --no-such-option" in plain.err) == ("", True)


@pytest.mark.parametrize("name", [c.name for c in command_table.COMMANDS])
def test_an_unknown_option_of_every_command_is_one_line_on_stderr(
    name: str, tmp_path: Path
) -> None:
    """A command line Click cannot read says so in the documented line, ``todo:
    <message>`` with where help is, exit 2, and nothing on stdout: nothing ran."""
    run = todo_process(name, "--no-such-option", stdin=b"", cwd=tmp_path)
    assert (run.code, run.out) == (2, "")
    assert run.err.startswith("todo: No such option: --no-such-option")
    assert run.err.endswith(f" (see: todo {name} -h)\n")
    assert run.err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("setup", "--bogus"),
            "No such option: --bogus (Possible options: --user) (see: todo setup -h)",
        ),
        (("add", "--bogus", "x"), "No such option: --bogus (see: todo add -h)"),
        (("setup",), "Missing argument 'tool'. (see: todo setup -h)"),
        (
            ("diff", "word"),
            "Invalid value for 'rev': 'word' is not a valid int. (see: todo diff -h)",
        ),
        (("check", "--verify=x"), "Option '--verify' does not take a value. (see: todo check -h)"),
        (("statu",), "No such command 'statu'. Did you mean 'start'? (see: todo -h)"),
    ],
)
def test_a_usage_error_of_the_typer_side_is_the_documented_line(
    args: tuple[str, ...], line: str, tmp_path: Path
) -> None:
    """Click's own words, kept, on one line; with --json the error envelope on
    stdout, as the fast path's usage errors have it."""
    plain = todo_process(*args, stdin=b"", cwd=tmp_path)
    assert (plain.code, plain.out, plain.err) == (2, "", f"todo: {line}\n")
    as_json = todo_process("--json", *args, stdin=b"", cwd=tmp_path)
    envelope = json.loads(as_json.out)
    assert (as_json.code, as_json.err) == (2, f"todo: {line}\n")
    assert envelope["error"] == {"code": "USAGE", "message": line, "details": []}
