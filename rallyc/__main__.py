"""The ``rallyc`` command and ``python -m rallyc``: a tiny entry point.

It answers ``rallyc --version`` and runs the plain forms of ``rallyc check`` (paths, ``--format``,
``--output``, ``--select``, ``--ignore``, ``--no-cache``: :func:`rallyc.commands.checking.parse_check_args`) and of
``rallyc explain`` (no argument or one code: :func:`rallyc.commands.explaining.parse_explain_args`), and starts the
language server for a plain ``rallyc lsp`` (:func:`rallyc.commands.serving.run_lsp`), before the typer CLI is
imported, so that they cost about what starting Python with the libraries they use costs.
Everything else, ``--help`` and every usage message included, goes to the typer app
(:func:`rallyc.commands.cli.main`).
"""

import sys

from rallyc import __version__
from rallyc.commands.console import console_survives_any_code_page


def main() -> None:
    """Console entry point."""
    console_survives_any_code_page()
    args = sys.argv[1:]
    if args == ["--version"]:
        sys.stdout.write(f"rallyc {__version__}\n")
        return
    if args[:1] == ["check"]:
        # start-up: the check without typer, imported only for `rallyc check`
        from rallyc.commands.checking import parse_check_args, run_check

        parsed = parse_check_args(args[1:])
        if parsed is not None:
            sys.exit(int(run_check(**parsed)))
    if args[:1] == ["explain"]:
        # start-up: explaining a code without typer, imported only for `rallyc explain`
        from rallyc.commands.explaining import parse_explain_args, run_explain

        parsed = parse_explain_args(args[1:])
        if parsed is not None:
            sys.exit(int(run_explain(**parsed)))
    if args == ["lsp"]:
        # start-up: the language server as an editor starts it, without typer
        from rallyc.commands.serving import run_lsp

        run_lsp()
        return
    from rallyc.commands.cli import main as cli_main  # the typer app: imported only when needed

    cli_main(prog_name="rallyc")


if __name__ == "__main__":
    main()
