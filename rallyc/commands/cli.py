"""The ``rallyc`` command: a typer app whose commands live in :mod:`rallyc.commands`."""

from __future__ import annotations

import typer

from rallyc import __version__
from rallyc.commands import command_modules
from rallyc.commands.console import console_survives_any_code_page

app = typer.Typer(
    name="rallyc",
    help="Rallyman: DIRT tracks as code: check, format, compile, replay and render rally designs.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rallyc {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Rallyman: DIRT tracks as code."""


for _module in command_modules():
    _module.register(app)


def main(prog_name: str | None = None) -> None:
    """Run the typer app (:mod:`rallyc.__main__` is the console entry point, which calls this)."""
    console_survives_any_code_page()
    app(prog_name=prog_name)


if __name__ == "__main__":  # pragma: no cover
    main()
