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

from rallyc.diagnostics import has_errors, render_text

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class StatsFormat(str, Enum):
    text = "text"
    json = "json"


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    typer.echo(f"rallyc: {message}", err=True)
    return typer.Exit(code)


def _compile(file: Path):
    """(result, loaded) of a file; exits 2 on I/O problems and 1 on errors (diagnostics to stderr)."""
    from rallyc.compiler import compile_loaded
    from rallyc.project import load

    if not file.exists() or file.is_dir():
        raise _fail(f"no such file: {file}")
    loaded = load(file, str(file))
    if any(d.code in ("RC001", "RC101", "RC102") for d in loaded.diagnostics):
        typer.echo(render_text(loaded.diagnostics, loaded.sources), err=True, nl=False)
        raise typer.Exit(EXIT_USAGE)
    try:
        result = compile_loaded(loaded)
    except Exception as e:  # noqa: BLE001 - never a traceback
        raise _fail(f"internal error in the compiler: {type(e).__name__}: {e} (please report it)")
    if result.diagnostics:
        typer.echo(render_text(result.diagnostics, loaded.sources), err=True, nl=False)
    if has_errors(result.diagnostics):
        raise typer.Exit(EXIT_PROBLEMS)
    if not result.designs:
        raise _fail(f"{file} has no stage, rally or circuit", EXIT_PROBLEMS)
    return result, loaded


def _pick(result, stage: Optional[str]):
    """[(design, track name or None)] to output."""
    if stage is None:
        return [(d, None) for d in result.designs]
    for d in result.designs:
        if any(t.name == stage for t in d.tracks):
            return [(d, stage)]
    names = ", ".join(t.name for d in result.designs for t in d.tracks)
    raise _fail(f"no stage named `{stage}` (stages: {names})")


def _write(output: Optional[Path], text: str) -> None:
    from rallyc.commands.lang import atomic_write

    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    try:
        atomic_write(output, text)
    except OSError as e:
        raise _fail(f"cannot write {output}: {e.strerror or e}")


def compile_json(result, stage: Optional[str] = None) -> str:
    """The JSON text `rallyc compile` writes: one design, or ``{"designs": [...]}`` when a file has several."""
    from rallyc.compiler.export import design_to_dict, dumps

    picked = _pick(result, stage)
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


def register(app: typer.Typer) -> None:
    """Add ``rallyc compile`` and ``rallyc stats`` to the app."""

    @app.command("compile")
    def compile_cmd(
        file: Path = typer.Argument(..., help="The .rally file (stage, rally or circuit)."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the JSON to FILE (atomically)."),
    ) -> None:
        """Compile a track to its space graph (JSON node-link form, schemas/track.schema.json)."""
        result, _ = _compile(file)
        _write(output, compile_json(result, stage))

    @app.command("stats")
    def stats_cmd(
        file: Path = typer.Argument(..., help="The .rally file."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        fmt: StatsFormat = typer.Option(StatsFormat.text, "--format", "-f", help="text or json."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to FILE (atomically)."),
    ) -> None:
        """Per stage: length in tiles and spaces, rulebook class, surfaces, danger, tiles needed, pacenotes."""
        from rallyc.compiler.stats import track_stats
        from rallyc.project import load  # noqa: F401
        from rallyc.tiles.catalogue import Catalogue

        result, loaded = _compile(file)
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        stats = [track_stats(t, catalogue) for d, s in _pick(result, stage) for t in d.tracks
                 if s is None or t.name == s]
        if fmt is StatsFormat.json:
            text = json.dumps({"stages": stats}, indent=2, sort_keys=True) + "\n"
        else:
            text = stats_text(stats)
        _write(output, text)
