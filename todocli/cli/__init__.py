"""The command line: argv, the fast path, the Typer app, terminal output."""
