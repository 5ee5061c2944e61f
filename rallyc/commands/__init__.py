"""The CLI commands, one module per area; each module has ``register(app)``.

:data:`COMMANDS` lists every command of ``rallyc``, in the order ``rallyc --help`` lists them, with the module
that declares it and the first paragraph of its help. The typer app (:mod:`rallyc.commands.cli`) imports a command's
module only when that command runs (or its own ``--help`` is asked for), and lists the commands in
``rallyc --help`` from this table, so that ``rallyc compile`` does not import the referee's or the server's
commands, and ``rallyc --help`` imports none of them (issue 33, docs/startup.md). Nothing is imported on
importing this package, so that the typer-free fast paths (:mod:`rallyc.commands.checking`) stay cheap.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType


class Listed:
    """A command as ``rallyc --help`` lists it: the module whose ``register(app)`` declares it, and the first
    paragraph of its help (``tests/test_command_imports.py`` holds it equal to the command's own ``--help``).
    A plain class, not a dataclass: ``rallyc --version`` imports this package (for the console's code page), and
    ``dataclasses`` would cost it 18 modules."""

    __slots__ = ("module", "summary")

    def __init__(self, module: str, summary: str) -> None:
        self.module = module
        self.summary = summary


COMMANDS: dict[str, Listed] = {
    "check": Listed("lang", "Check track files: syntax, includes, names, geometry, route, RX and inventory rules."),
    "fmt": Listed("lang", "Rewrite track files in the canonical layout (comments kept, meaning unchanged)."),
    "explain": Listed("lang", "Explain a diagnostic code (what it means, an example that triggers it, how to fix it) "
                              "or a rule of the rulebooks (its statement in rallyc's words, with its book and "
                              "section)."),
    "compile": Listed("build", "Compile a track to its space graph (JSON node-link form, "
                               "schemas/track.schema.json)."),
    "stats": Listed("build", "Per stage: length in tiles and spaces, rulebook class, surfaces, danger, tiles needed, "
                             "pacenotes."),
    "replay": Listed("replay", "Replay a recorded game: order of play, each turn, stage times, rally "
                               "classification."),
    "play": Listed("play", "Play a game at the table: rallyc referees every step, keeps the times, and the journal "
                           "loses nothing."),
    "serve": Listed("serve", "Serve a game at the table to browsers: the map, the legal moves as buttons, the dice "
                             "entry and the rally sheet. Every step is checked by the rules and written to the "
                             "journal before the page moves on."),
    "sheet": Listed("sheet", "The rally sheet of a recorded game: stage times, penalties, positions after every stage "
                             "(an RX race's finishing order, an Auto Tour's standings), printable."),
    "render": Listed("render", "Draw a stage map (or its road book) as SVG, PDF or PNG."),
    "import": Listed("interop", "Convert a Rekee (JSON) or Rallyman Track Editor (RGT) track to rallyc text."),
    "export": Listed("interop", "Write a compiled stage or circuit as a Rekee JSON or RGT track file."),
    "suggest": Listed("authoring", "Every tile side that can legally follow a step of a stage: road, turn word, "
                                   "cell, what it adds."),
    "lsp": Listed("authoring", "Run the rallyc language server on standard input/output (for editors)."),
    "analyze": Listed("analyze", "Par time, spread, risk of every corner, where time goes and the length class of "
                                 "each stage."),
    "generate": Listed("generate", "Generate stages (or rallies) from the tiles you own, in a length class, near a "
                                   "par time."),
    "tiles": Listed("tiles", "List and show the tiles in scope (bundled boxes, or a project's)."),
}


def command_module(name: str) -> ModuleType:
    """The module that declares command ``name`` (imported now)."""
    return import_module(f"rallyc.commands.{COMMANDS[name].module}")


def command_modules() -> list[ModuleType]:
    """Every command module, each once, in the order their commands are listed by ``rallyc --help``."""
    names = dict.fromkeys(listed.module for listed in COMMANDS.values())
    return [import_module(f"rallyc.commands.{n}") for n in names]
