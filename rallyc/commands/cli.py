"""The ``rallyc`` command: a typer app whose commands live in :mod:`rallyc.commands`.

The app is built lazily (issue 33): its group (:class:`RallycGroup`) holds the commands by name
(:data:`rallyc.commands.COMMANDS`) and imports a command's module and builds its click command the first
time that command is asked for, so ``rallyc compile ...`` imports and builds only ``compile`` (and ``stats``,
declared in the same module); ``rallyc --help`` lists every command from the table without importing any.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from rallyc import __version__
from rallyc.commands import COMMANDS, command_module
from rallyc.commands.console import console_survives_any_code_page

#: how the app shows help and errors; the commands are built with the same settings
_MARKUP = None
_PRETTY_EXCEPTIONS = False


class _Commands(MutableMapping[str, Any]):
    """The commands by name (every name of :data:`COMMANDS`, in its order, then any added); a command is built when
    it is first looked up, with the other commands its module declares."""

    def __init__(self) -> None:
        self.built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self.built and name in COMMANDS:
            declared = typer.Typer(rich_markup_mode=_MARKUP, pretty_exceptions_enable=_PRETTY_EXCEPTIONS)
            command_module(name).register(declared)
            self.built.update(typer.main.get_group(declared).commands)
        return self.built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*COMMANDS, *self.built]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*COMMANDS, *self.built]))


class RallycGroup(TyperGroup):
    """rallyc's command group: builds a command when it runs; lists the commands without building them."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Commands()
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        commands = self.commands
        assert isinstance(commands, _Commands)
        if self._listing and cmd_name in COMMANDS and cmd_name not in commands.built:
            # the listing of `rallyc --help` needs each command's first paragraph only: from the table
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name].summary, rich_markup_mode=_MARKUP)
        return commands.get(cmd_name)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    name="rallyc",
    help="Rallyman: DIRT tracks as code: check, format, compile, replay and render rally designs.",
    cls=RallycGroup,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=_PRETTY_EXCEPTIONS,
    rich_markup_mode=_MARKUP,
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


def main(prog_name: str | None = None) -> None:
    """Run the typer app (:mod:`rallyc.__main__` is the console entry point, which calls this)."""
    console_survives_any_code_page()
    app(prog_name=prog_name)


if __name__ == "__main__":  # pragma: no cover
    main()
