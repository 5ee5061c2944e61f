"""The options that set a game at the table up, shared by ``rallyc play`` and ``rallyc serve`` (one declaration, one
help text, one reading): ``--stage``, ``--rally``, ``--players``, ``--cars``, ``--colours``, ``--options``,
``--race-format``, ``--seat``, ``--dice``, ``--seed``; and :func:`table_setup`, which reads them into a
:class:`rallyc.table.setup.TableSetup` (a usage error, exit 2, names the option that does not fit)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, List, Optional

import typer

from rallyc.commands.errors import EXIT_USAGE, fail
from rallyc.model.options import OPTIONS, OptionSpec

__all__ = ["Stage", "Rally", "Players", "Cars", "Colours", "Options", "RaceFormat", "SeatOption", "Dice", "Seed",
           "options_help", "parse_options", "seats", "table_setup"]

Stage = Annotated[Optional[str], typer.Option("--stage", "-s", help="The stage (or circuit) to play (default: the "
                                                                    "first).")]
Rally = Annotated[bool, typer.Option("--rally", help="Play every stage of the design, one after the other.")]
Players = Annotated[Optional[str], typer.Option("--players", "-p", help="The players, in seat order: Ann,Bob.")]
Cars = Annotated[Optional[str], typer.Option("--cars", help="One car per player, with its tires if you like: "
                                                            "r5:asphalt,r4:snow (default: the game's).")]
Colours = Annotated[Optional[str], typer.Option("--colours", help="One colour per player (default: red, blue, "
                                                                  "green, yellow...).")]


def _written(spec: OptionSpec) -> str:
    """``flying_start``, ``sisu[=per-stage|per-rally|assistance]``, ``race_type=head-to-head|time-trial``."""
    if spec.values is None:
        return spec.record_name
    words = "|".join(spec.values)
    return f"{spec.record_name}[={words}]" if spec.value_optional else f"{spec.record_name}={words}"


def options_help() -> str:
    """The help of ``--options``: the registry's game options (those of a design's ``options`` line), as records
    spell them, each with its words."""
    names = ", ".join(_written(o) for o in OPTIONS.values() if o.in_options_line)
    return f"Game options, e.g. flying_start,sisu=per-rally,handbrake (a name alone is true): {names} (docs/options.md)."


Options = Annotated[Optional[str], typer.Option("--options", help=options_help())]
RaceFormat = Annotated[Optional[str], typer.Option("--race-format", help="A race on a circuit: rx (default) or "
                                                                         "ice.")]
SeatOption = Annotated[Optional[List[str]], typer.Option("--seat", help="A bot in a seat: NAME=random|greedy|strong "
                                                                        "(repeatable).")]
Dice = Annotated[str, typer.Option("--dice", help="typed: the players roll the physical dice and the faces are "
                                                  "entered; auto: rallyc rolls (seeded).")]
Seed = Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1, help="The seed of the bots and of --dice auto.")]


def _option_value(text: str) -> Any:
    low = text.casefold()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low.lstrip("-").isdigit():
        return int(low)
    return text


def parse_options(text: str | None) -> dict[str, Any]:
    """``flying_start,sisu=per-rally,laps=3`` as a record's options (a name alone is true)."""
    out: dict[str, Any] = {}
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        name, eq, value = item.partition("=")
        out[name.strip()] = _option_value(value.strip()) if eq else True
    return out


def seats(players: str, cars: str | None, colours: str | None, seat: list[str], prog: str) -> tuple[Any, ...]:
    """The seats from ``--players``, ``--cars`` (``car`` or ``car:tires`` per player), ``--colours`` and
    ``--seat NAME=DRIVER``; a usage error of ``prog`` names what does not fit."""
    # start-up: the table only for a game
    from rallyc.table.setup import COLOURS, DRIVERS, Seat

    names = [n.strip() for n in players.split(",") if n.strip()]
    if not names:
        raise fail("--players: name the players, e.g. --players Ann,Bob", EXIT_USAGE, prog)
    car_list = [c.strip() for c in cars.split(",")] if cars else []
    colour_list = [c.strip() for c in colours.split(",")] if colours else list(COLOURS)
    for given, what in ((car_list, "--cars"), (colour_list, "--colours")):
        if given and len(given) != len(names) and (what == "--cars" or colours):
            raise fail(f"{what}: one per player ({len(names)}), not {len(given)}", EXIT_USAGE, prog)
    if len(colour_list) < len(names):
        raise fail(f"--players: {len(names)} players and {len(colour_list)} colours: name one per player with "
                   f"--colours", EXIT_USAGE, prog)
    drivers: dict[str, str] = {}
    for item in seat:
        name, eq, driver = item.partition("=")
        if not eq or name not in names or driver not in DRIVERS[1:]:
            raise fail(f"--seat {item}: NAME=DRIVER, a player of --players and one of {', '.join(DRIVERS[1:])}",
                       EXIT_USAGE, prog)
        drivers[name] = driver
    out = []
    for i, name in enumerate(names):
        car, _, tires = car_list[i].partition(":") if car_list else ("", "", "")
        out.append(Seat(name, colour_list[i], car or None, tires or None, drivers.get(name, "person")))
    return tuple(out)


def table_setup(file: Path, stage: str | None, rally: bool, players: str, cars: str | None, colours: str | None,
                options: str | None, race_format: str | None, seat: list[str] | None, dice: str, seed: int,
                prog: str) -> Any:
    """The :class:`~rallyc.table.setup.TableSetup` the options give (``file`` made absolute); the referee checks it
    when the game is started."""
    # start-up: the table only for a game
    from rallyc.table.setup import TableSetup

    return TableSetup(str(file.resolve()), seats(players, cars, colours, seat or [], prog), stage, rally, race_format,
                      None, parse_options(options), seed, dice)
