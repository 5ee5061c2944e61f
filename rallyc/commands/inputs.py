"""Reading the design a command works on, and writing what it produces: the same for every command.

:func:`compile_file` reads a ``.rally`` file (``-``: standard input), compiles it and exits with the
right code when it cannot (2: I/O or usage, 1: problems in the file, located on standard error);
:func:`pick` finds a stage by name; :func:`refuse_output` and :func:`write_or_print` guard ``-o``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterable, Optional

import typer

from rallyc import api
from rallyc.commands.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, fail
from rallyc.diagnostics import render_text

__all__ = ["EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE", "fail", "compile_file", "pick", "unknown_stage",
           "refuse_output", "write_or_print", "BOXES_HELP", "boxes_option"]

#: the help of ``--boxes``, the same in every command that takes it (read by :func:`rallyc.tiles.boxes.box_list`)
BOXES_HELP = ("Boxes you own: a comma-separated list or the option repeated (--boxes dirt-core,dirt-110); a box "
              "given twice is owned twice.")


def boxes_option(default_from: str) -> Any:
    """The ``--boxes`` / ``-b`` option, declared alike by every command that takes the boxes a designer owns;
    ``default_from`` says where the boxes come from without it."""
    return typer.Option(None, "--boxes", "-b", help=f"{BOXES_HELP} {default_from}")



def compile_file(file: Path, prog: str = "rallyc", **reading):
    """(result, loaded) of a file (``-``: standard input) compiled by :func:`rallyc.api.compile`; exits 2 on I/O
    problems, 1 on errors in the file. ``reading``: ``keep_tracks`` and ``each_track`` of :func:`rallyc.api.compile`.

    Diagnostics go to standard error. A file that is not rallyc text (binary, not UTF-8, too
    large) has problems of its own (exit 1, located); a missing file or a folder is an I/O error;
    a file with nothing to compile is RC312 (exit 1).
    """
    if str(file) != "-" and file.is_dir():
        raise fail(f"{file} is a folder, not a .rally file", prog=prog)
    if str(file) != "-" and not file.exists():
        raise fail(f"no such file: {file}", prog=prog)
    compiled = api.compile(file, **reading)
    if compiled.problem == "internal":
        raise fail(f"internal error in the compiler: {compiled.internal} (please report it)", prog=prog)
    sources = compiled.loaded.sources if compiled.loaded is not None else None
    found = compiled.diagnostics
    if compiled.problem == "empty":  # the file's own diagnostics, then "defines nothing" in a report of its own
        found, nothing = found[:-1], found[-1:]
    if found:
        typer.echo(render_text(found, sources), err=True, nl=False)
    if compiled.problem == "empty":
        typer.echo(render_text(nothing, sources), err=True, nl=False)
    if compiled.problem is not None:
        raise typer.Exit(EXIT_USAGE if compiled.problem == "io" else EXIT_PROBLEMS)
    return compiled.result, compiled.loaded


def pick(result, stage: Optional[str], file: Path | str = "", prog: str = "rallyc"):
    """[(design, track name or None)]: every design, or the one holding ``stage``; exits 2 for an unknown stage."""
    if stage is None:
        return [(d, None) for d in result.designs]
    for d in result.designs:
        if any(t.name == stage for t in d.tracks):
            return [(d, stage)]
    raise unknown_stage(stage, [t.name for d in result.designs for t in d.tracks], file, prog)


def unknown_stage(stage: str, names: list[str], file: Path | str = "", prog: str = "rallyc") -> SystemExit:
    """The usage error (exit 2) for a ``--stage`` that names none of the file's stages ``names``."""
    where = f" in {file}" if str(file) else ""
    return fail(f"no stage named `{stage}`{where} (stages: {', '.join(names)})", prog=prog)


def refuse_output(outputs: Iterable[Optional[Path]], inputs: Iterable[Path | str | None],
                  prog: str = "rallyc") -> None:
    """Exit 2 before any work when an output names a folder or one of the inputs."""
    # start-up: writing an output file only when there is one
    from rallyc.commands.outputs import output_problem

    given = [None if i is None or str(i) == "-" else Path(i) for i in inputs]
    for output in outputs:
        if output is None or str(output) == "-":
            continue
        problem = output_problem(output, given)
        if problem is not None:
            raise fail(problem, prog=prog)


def write_or_print(output: Optional[Path], text: str, prog: str = "rallyc") -> None:
    """Write ``text`` to ``output`` atomically, or to standard output (None or ``-``); exit 2 if it cannot."""
    # start-up: writing an output file only when there is one
    from rallyc.commands.outputs import write_output

    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    problem = write_output(output, text)
    if problem is not None:
        raise fail(problem, prog=prog)
