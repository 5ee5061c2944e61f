"""Reading the design a command works on, and writing what it produces: the same for every command.

:func:`compile_file` reads a ``.rally`` file (``-``: standard input), compiles it and exits with the
right code when it cannot (2: I/O or usage, 1: problems in the file, located on standard error);
:func:`pick` finds a stage by name; :func:`refuse_output` and :func:`write_or_print` guard ``-o``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Optional

import typer

from rallyc.diagnostics import Diagnostic, Span, has_errors, render_text

__all__ = ["EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE", "fail", "compile_file", "pick", "refuse_output",
           "write_or_print"]

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def fail(message: str, code: int = EXIT_USAGE, prog: str = "rallyc") -> typer.Exit:
    """Print ``prog: message`` on standard error and give the Exit to raise."""
    typer.echo(f"{prog}: {message}", err=True)
    return typer.Exit(code)


def compile_file(file: Path, prog: str = "rallyc"):
    """(result, loaded) of a file (``-``: standard input); exits 2 on I/O problems, 1 on errors in the file.

    Diagnostics go to standard error. A file that is not rallyc text (binary, not UTF-8, too
    large) has problems of its own (exit 1, located); a missing file or a folder is an I/O error;
    a file with nothing to compile is RC312 (exit 1).
    """
    from rallyc.compiler import compile_loaded
    from rallyc.project import decode_source, load, load_text

    if str(file) == "-":
        from rallyc.commands.lang import _read_stdin

        text, err = decode_source(_read_stdin(), "<stdin>")
        if err is not None:
            typer.echo(render_text([err]), err=True, nl=False)
            raise typer.Exit(EXIT_PROBLEMS)
        loaded = load_text(text, "<stdin>", base_dir=Path.cwd())
    elif file.is_dir():
        raise fail(f"{file} is a folder, not a .rally file", prog=prog)
    elif not file.exists():
        raise fail(f"no such file: {file}", prog=prog)
    else:
        loaded = load(file, str(file))
    if any(d.code in ("RC001", "RC101", "RC102") for d in loaded.diagnostics):
        typer.echo(render_text(loaded.diagnostics, loaded.sources), err=True, nl=False)
        io = any(d.code == "RC001" and d.span is None for d in loaded.diagnostics)
        raise typer.Exit(EXIT_USAGE if io else EXIT_PROBLEMS)
    try:
        result = compile_loaded(loaded)
    except Exception as e:  # noqa: BLE001 - never a traceback
        raise fail(f"internal error in the compiler: {type(e).__name__}: {e} (please report it)", prog=prog)
    if result.diagnostics:
        typer.echo(render_text(result.diagnostics, loaded.sources), err=True, nl=False)
    if has_errors(result.diagnostics):
        raise typer.Exit(EXIT_PROBLEMS)
    if not result.designs:
        shown = "<stdin>" if str(file) == "-" else str(file)
        nothing = Diagnostic.error("RC312", f"{shown} defines no stage, rally or circuit", Span(shown, 1, 1, 1, 2),
                                   "add a `stage NAME { ... }`, a `rally` or a `circuit`")
        typer.echo(render_text([nothing], loaded.sources), err=True, nl=False)
        raise typer.Exit(EXIT_PROBLEMS)
    return result, loaded


def pick(result, stage: Optional[str], file: Path | str = "", prog: str = "rallyc"):
    """[(design, track name or None)]: every design, or the one holding ``stage``; exits 2 for an unknown stage."""
    if stage is None:
        return [(d, None) for d in result.designs]
    for d in result.designs:
        if any(t.name == stage for t in d.tracks):
            return [(d, stage)]
    names = ", ".join(t.name for d in result.designs for t in d.tracks)
    where = f" in {file}" if str(file) else ""
    raise fail(f"no stage named `{stage}`{where} (stages: {names})", prog=prog)


def refuse_output(outputs: Iterable[Optional[Path]], inputs: Iterable[Path | str | None],
                  prog: str = "rallyc") -> None:
    """Exit 2 before any work when an output names a folder or one of the inputs."""
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
    from rallyc.commands.outputs import write_output

    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    problem = write_output(output, text)
    if problem is not None:
        raise fail(problem, prog=prog)
