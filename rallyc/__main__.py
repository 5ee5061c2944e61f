"""The ``rallyc`` command and ``python -m rallyc``: a tiny entry point.

It answers ``rallyc --version`` and runs the plain forms of ``rallyc check`` (paths, ``--format``,
``--output``, ``--select``, ``--ignore``, ``--no-cache``: :func:`rallyc.commands.checking.parse_check_args`) before the
typer CLI is imported, so that they cost about what starting Python with the libraries they use costs.
Everything else, ``--help`` and every usage message included, goes to the typer app
(:func:`rallyc.cli.main`).
"""

import sys


def _console_survives_any_code_page() -> None:
    """A character the console cannot show (a Windows code page) is printed as an escape (``\\u4e2d``)
    instead of ending the command with UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
        except (AttributeError, ValueError):  # replaced by a test runner, or already closed
            pass


def main() -> None:
    """Console entry point."""
    _console_survives_any_code_page()
    args = sys.argv[1:]
    if args == ["--version"]:
        from rallyc import __version__

        sys.stdout.write(f"rallyc {__version__}\n")
        return
    if args[:1] == ["check"]:
        from rallyc.commands.checking import parse_check_args, run_check

        parsed = parse_check_args(args[1:])
        if parsed is not None:
            sys.exit(int(run_check(**parsed)))
    from rallyc.cli import main as cli_main  # the typer app: imported only when needed

    cli_main(prog_name="rallyc")


if __name__ == "__main__":
    main()
