"""``rallyc compile`` (the space graph as JSON) and ``rallyc stats`` (figures per stage).

Exit codes: 0 clean, 1 the file has errors (diagnostics on stderr, nothing
written), 2 usage or I/O error. Output files are written atomically.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.diagnostics import Diagnostic, Span, has_errors, render_text

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class StatsFormat(str, Enum):
    text = "text"
    json = "json"


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    typer.echo(f"rallyc: {message}", err=True)
    return typer.Exit(code)


def _compile(file: Path):
    """(result, loaded) of a file (``-``: standard input); exits 2 on I/O problems, 1 on errors in the file.

    Diagnostics go to standard error. A file that is not rallyc text (binary, not UTF-8, too
    large) has problems of its own (exit 1, located); a missing file or a folder is an I/O error.
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
        raise _fail(f"{file} is a folder, not a .rally file")
    elif not file.exists():
        raise _fail(f"no such file: {file}")
    else:
        loaded = load(file, str(file))
    if any(d.code in ("RC001", "RC101", "RC102") for d in loaded.diagnostics):
        typer.echo(render_text(loaded.diagnostics, loaded.sources), err=True, nl=False)
        io = any(d.code == "RC001" and d.span is None for d in loaded.diagnostics)
        raise typer.Exit(EXIT_USAGE if io else EXIT_PROBLEMS)
    try:
        result = compile_loaded(loaded)
    except Exception as e:  # noqa: BLE001 - never a traceback
        raise _fail(f"internal error in the compiler: {type(e).__name__}: {e} (please report it)")
    if result.diagnostics:
        typer.echo(render_text(result.diagnostics, loaded.sources), err=True, nl=False)
    if has_errors(result.diagnostics):
        raise typer.Exit(EXIT_PROBLEMS)
    if not result.designs:
        shown = "<stdin>" if str(file) == "-" else str(file)
        nothing = Diagnostic.error("RC312", f"{shown} defines no stage, rally or circuit", Span(shown, 1, 1, 1, 2),
                                   "add a `stage NAME { ... }`, a `rally` or a `circuit` to compile")
        typer.echo(render_text([nothing], loaded.sources), err=True, nl=False)
        raise typer.Exit(EXIT_PROBLEMS)
    return result, loaded


def _pick(result, stage: Optional[str], file: Path | str = ""):
    """[(design, track name or None)] to output; exits 2 for an unknown stage name."""
    if stage is None:
        return [(d, None) for d in result.designs]
    for d in result.designs:
        if any(t.name == stage for t in d.tracks):
            return [(d, stage)]
    names = ", ".join(t.name for d in result.designs for t in d.tracks)
    where = f" in {file}" if str(file) else ""
    raise _fail(f"no stage named `{stage}`{where} (stages: {names})")


def _refuse_output(output: Optional[Path], file: Path) -> None:
    """Exit 2 before any work when ``-o`` names a folder or the input file."""
    from rallyc.commands.outputs import output_problem

    if output is None or str(output) == "-":
        return
    problem = output_problem(output, [None if str(file) == "-" else file])
    if problem is not None:
        raise _fail(problem)


def _write(output: Optional[Path], text: str) -> None:
    from rallyc.commands.outputs import write_output

    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    problem = write_output(output, text)
    if problem is not None:
        raise _fail(problem)


def compile_json(result, stage: Optional[str] = None, file: Path | str = "") -> str:
    """The JSON text `rallyc compile` writes: one design, or ``{"designs": [...]}`` when a file has several."""
    from rallyc.compiler.export import design_to_dict, dumps

    picked = _pick(result, stage, file)
    docs = [design_to_dict(d, s) for d, s in picked]
    if len(docs) == 1:
        return dumps(docs[0])
    return dumps({"format": "rallyc-designs", "designs": docs})


def stats_text(stats: list[dict]) -> str:
    out = []
    for s in stats:
        cls = f" ({s['class']})" if s.get("class") else ""
        laps = f", {s['laps']} laps" if s.get("laps") else ""
        sp = s["spaces"]
        line = f"{s['name']}: {s['tiles']} tiles{cls}{laps}, {sp['total']} spaces"
        if sp["shortest"] is not None:
            what = "a lap" if s["kind"] == "circuit" else "from start to finish"
            line += f", {sp['shortest']}-{sp['longest']} spaces {what}"
        out.append(line)
        out.append("  surfaces: " + ", ".join(f"{k} {v}" for k, v in s["surfaces"].items()))
        out.append("  danger: " + ", ".join(f"{k} {v}" for k, v in s["danger"].items()))
        for box, tiles in s["boxes"].items():
            out.append(f"  {box}: " + ", ".join(f"{t}" + (f" x{n}" if n > 1 else "") for t, n in tiles.items()))
        if s["pacenotes"]:
            out.append("  pacenotes:")
            out.extend("    " + n for n in s["pacenotes"])
    return "\n".join(out) + "\n"


COMPILE_EPILOG = """\b
Examples:
  rallyc compile examples/rally-1.rally                 # every stage, JSON on stdout
  rallyc compile examples/rally-1.rally --stage SS2 -o ss2.json
  cat stage.rally | rallyc compile -                    # - reads standard input
\b
Exit codes: 0 compiled, 1 the file has errors (nothing written), 2 usage or I/O error."""

STATS_EPILOG = """\b
Examples:
  rallyc stats examples/rally-1.rally                   # every stage, as text
  rallyc stats examples/rx-1.rally --format json -o rx-1-stats.json
  rallyc stats examples/rally-1.rally --stage SS3
\b
Exit codes: 0 done, 1 the file has errors (nothing written), 2 usage or I/O error."""


def register(app: typer.Typer) -> None:
    """Add ``rallyc compile`` and ``rallyc stats`` to the app."""

    @app.command("compile", epilog=COMPILE_EPILOG)
    def compile_cmd(
        file: Path = typer.Argument(..., help="The .rally file (stage, rally or circuit), or - for standard input."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the JSON to FILE (atomically)."),
    ) -> None:
        """Compile a track to its space graph (JSON node-link form, schemas/track.schema.json)."""
        _refuse_output(output, file)
        result, _ = _compile(file)
        _write(output, compile_json(result, stage, file))

    @app.command("stats", epilog=STATS_EPILOG)
    def stats_cmd(
        file: Path = typer.Argument(..., help="The .rally file, or - for standard input."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        fmt: StatsFormat = typer.Option(StatsFormat.text, "--format", "-f", help="text or json."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to FILE (atomically)."),
    ) -> None:
        """Per stage: length in tiles and spaces, rulebook class, surfaces, danger, tiles needed, pacenotes."""
        from rallyc.compiler.stats import track_stats
        from rallyc.tiles.catalogue import Catalogue

        _refuse_output(output, file)
        result, loaded = _compile(file)
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        stats = [track_stats(t, catalogue) for d, s in _pick(result, stage, file) for t in d.tracks
                 if s is None or t.name == s]
        if fmt is StatsFormat.json:
            text = json.dumps({"stages": stats}, indent=2, sort_keys=True) + "\n"
        else:
            text = stats_text(stats)
        _write(output, text)
