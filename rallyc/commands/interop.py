"""``rallyc import`` and ``rallyc export``: tracks from and to the Rekee editor (JSON) and RGT files."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.api import check_loaded, read_stdin
from rallyc.commands.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, handles_errors
from rallyc.commands.inputs import refuse_output
from rallyc.diagnostics import Diagnostic, Severity, Sources, Span, has_errors, render_text
from rallyc.project.fileio import decode_utf8, write_atomic

__all__ = ["register"]


class Target(str, enum.Enum):
    rekee = "rekee"
    rgt = "rgt"


def _report(diags: list[Diagnostic], sources: Sources | None) -> None:
    if diags:
        typer.echo(render_text(diags, sources), err=True, nl=False)


def _write(path: Path, text: str) -> Diagnostic | None:
    try:
        write_atomic(path, text)
    except OSError as e:
        return Diagnostic.error("RC714", f"cannot write {path}: {e.strerror or e}", None, "check the output path")
    return None


def _is_std(path: Path | None) -> bool:
    """``-`` names standard input (as FILE) or standard output (as ``-o``)."""
    return path is not None and str(path) == "-"


def _shown(path: Path) -> str:
    return "<stdin>" if _is_std(path) else str(path)


def _read(path: Path) -> tuple[str | None, Diagnostic | None]:
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import read_bytes

    data: bytes | None
    if _is_std(path):
        data, err = read_stdin(), None
    else:
        data, err = read_bytes(path, str(path))
    if err is not None:
        return None, err
    assert data is not None  # read (no error)
    text, bad = decode_utf8(data)
    if text is None:
        assert bad is not None  # where the text stops being UTF-8
        line, col = bad
        return None, Diagnostic.error("RC701", "not valid JSON: the file is not UTF-8 text",
                                      Span(_shown(path), line, col, line, col + 1), "save the file as UTF-8")
    return text, None


IMPORT_EPILOG = """\b
Examples:
  rallyc import my-stage.json                  # Rekee editor file -> rallyc text on stdout
  rallyc import rx-finland.rgt -o rx.rally     # Rallyman Track Editor file -> rx.rally
  cat my-stage.json | rallyc import - -o -     # - is standard input (FILE) or output (-o)
\b
The format is told by the file's content (Rekee: `tiles`; RGT: `Tuiles`).
The written file is checked as `rallyc check` would: when it has errors it is still written (so it
can be opened and fixed) and the command exits 1 with check's diagnostics.
Exit codes: 0 done (warnings allowed), 1 problems in the file (nothing written) or in the written
file (written, see above), 2 usage or I/O error."""


def _check_written(text: str, shown: str, folder: Path) -> tuple[list[Diagnostic], Sources]:
    """The errors ``rallyc check`` would report on the text import writes (and its sources, for quoting)."""
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import load_text

    loaded = load_text(text, shown, base_dir=folder)
    return [d for d in check_loaded(loaded) if d.severity is Severity.ERROR], loaded.sources


@handles_errors("rallyc import")
def import_(
    file: Path = typer.Argument(..., metavar="FILE", help="A Rekee JSON or RGT track file (- for standard input)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the rallyc text to FILE (atomically; - for standard output)."),
) -> None:
    """Convert a Rekee (JSON) or Rallyman Track Editor (RGT) track to rallyc text."""
    # start-up: import and export only for those commands
    from rallyc.interop import import_text

    refuse_output([output], [file], prog="rallyc import")
    text, err = _read(file)
    if err is not None:
        _report([err], None)
        raise typer.Exit(EXIT_USAGE if err.code == "RC001" else EXIT_PROBLEMS)
    assert text is not None  # read (no error)
    sources = Sources()
    sources.add(_shown(file), text)
    outcome = import_text(text, _shown(file), fallback_title="stdin" if _is_std(file) else file.stem)
    diags = outcome.diagnostics
    if outcome.text is None or has_errors(diags):
        _report(diags, sources)
        raise typer.Exit(EXIT_PROBLEMS)
    to_stdout = output is None or _is_std(output)
    shown = "<import>" if to_stdout else str(output)
    folder = Path.cwd() if output is None or to_stdout else (output.parent if str(output.parent) else Path("."))
    try:
        failed, written = _check_written(outcome.text, shown, folder)
    except Exception as e:  # noqa: BLE001 - no tracebacks
        failed, written = [Diagnostic.error("RC100", f"internal error checking the imported text: {e}", None)], Sources()
    if to_stdout:
        typer.echo(outcome.text, nl=False)
    else:
        assert output is not None  # not standard output
        werr = _write(output, outcome.text)
        if werr is not None:
            _report(diags + [werr], sources)
            raise typer.Exit(EXIT_USAGE)
    if failed:
        sources.update(written)
        _report(diags + failed, sources)
        typer.echo(f"rallyc import: {shown} was written but does not pass `rallyc check`: open it and fix the "
                   "errors above", err=True)
        raise typer.Exit(EXIT_PROBLEMS)
    _report(diags, sources)
    raise typer.Exit(EXIT_OK)


EXPORT_EPILOG = """\b
Examples:
  rallyc export examples/rally-1.rally --to rekee --stage SS2 -o ss2.json
  rallyc export examples/rx-1.rally --to rgt -o rx-1.rgt
\b
Exit codes: 0 done (warnings allowed), 1 problems in the design (nothing written), 2 usage or I/O error."""


@handles_errors("rallyc export")
def export(
    file: Path = typer.Argument(..., metavar="FILE", help="A rallyc file with a stage, rally or circuit (- for "
                                                          "standard input)."),
    to: Target = typer.Option(..., "--to", help="rekee (Rekee editor JSON) or rgt (Rallyman Track Editor)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the track to FILE (atomically; - for standard output)."),
    stage: Optional[str] = typer.Option(None, "--stage", help="The stage (or circuit) to export; default the first."),
) -> None:
    """Write a compiled stage or circuit as a Rekee JSON or RGT track file."""
    # start-up: import and export only for those commands
    from rallyc.interop import export_loaded
    from rallyc.project.loader import load

    refuse_output([output], [file], prog="rallyc export")
    if _is_std(file):
        # start-up: the parser (lark) only when a file is read
        from rallyc.project.loader import decode_source, load_text

        source, err = decode_source(read_stdin(), "<stdin>")
        if err is not None:
            _report([err], None)
            raise typer.Exit(EXIT_PROBLEMS)
        assert source is not None  # decoded (no error)
        loaded = load_text(source, "<stdin>")
    else:
        loaded = load(file)
    text, diags = export_loaded(loaded, to.value, stage)
    if any(d.code == "RC001" for d in diags):
        _report(diags, loaded.sources)
        raise typer.Exit(EXIT_USAGE)
    if text is None:
        _report(diags, loaded.sources)
        unknown_stage = stage is not None and any(d.code == "RC712" for d in diags)
        raise typer.Exit(EXIT_USAGE if unknown_stage else EXIT_PROBLEMS)
    if output is None or _is_std(output):
        typer.echo(text, nl=False)
    else:
        werr = _write(output, text)
        if werr is not None:
            _report(diags + [werr], loaded.sources)
            raise typer.Exit(EXIT_USAGE)
    _report(diags, loaded.sources)
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add ``import`` and ``export`` to the app."""
    app.command("import", epilog=IMPORT_EPILOG)(import_)
    app.command("export", epilog=EXPORT_EPILOG)(export)
