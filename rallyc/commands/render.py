"""``rallyc render``: printable SVG stage maps and road books.

Exit codes: 0 written, 1 the file has errors (diagnostics printed, nothing
written), 2 usage or I/O error (unknown stage, unwritable output...).
"""

from __future__ import annotations

import sys
import time
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.diagnostics import has_errors, render_text

__all__ = ["register", "page_paths", "load_design"]

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class Page(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Scale(str, Enum):
    fit = "fit"
    real = "real"


def page_paths(output: Path, count: int) -> list[Path]:
    """``map.svg`` -> ``map-1.svg``, ``map-2.svg``... (a single page keeps its name)."""
    if count == 1:
        return [output]
    return [output.with_name(f"{output.stem}-{n}{output.suffix or '.svg'}") for n in range(1, count + 1)]


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    typer.echo(f"rallyc render: {message}", err=True)
    return typer.Exit(code)


def load_design(file: Path, stage: str | None):
    """(design, track, catalogue) of ``file``; exits with diagnostics or a usage error when it cannot."""
    from rallyc import project
    from rallyc.compiler import compile_loaded
    from rallyc.tiles.catalogue import Catalogue

    if not file.exists():
        raise _fail(f"no such file: {file}")
    loaded = project.load(file)
    result = compile_loaded(loaded)
    if result.diagnostics:
        text = render_text(result.diagnostics, loaded.sources)
        if has_errors(result.diagnostics):
            typer.echo(text, err=True, nl=False)
            raise typer.Exit(EXIT_PROBLEMS)
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    if not result.designs:
        raise _fail(f"{file} has no stage, rally or circuit to draw")
    found = None
    if stage is None:
        found = (result.designs[0], result.designs[0].tracks[0])
    else:
        found = next(((d, t) for d in result.designs for t in d.tracks if t.name == stage), None)
    if found is None:
        names = ", ".join(t.name for d in result.designs for t in d.tracks)
        raise _fail(f"no stage named `{stage}` in {file} (stages: {names})")
    design, track = found
    return design, track, catalogue


def overlay_cars(record: Path, round_no: int | None, track, stage: str | None, design_title: str | None = None):
    """(cars, round) after round ``round_no`` (default: the last) of the record's stage, for ``track``.

    Exits with a usage error when the record cannot be read, has no such stage or round, or was
    played on another track; a replay that stops at an illegal move is drawn up to there, with a warning.
    """
    from rallyc.records.load import RecordError, load_record
    from rallyc.records.replay import replay_record
    from rallyc.render.overlay import cars_after_round, last_round

    try:
        data = load_record(record)
        report = replay_record(data, record.parent)
    except RecordError as e:
        raise _fail(f"{record}: {e}")
    if design_title is not None and data.get("design") not in (None, design_title):
        raise _fail(f"{record} was played on \"{data['design']}\", not on \"{design_title}\"")
    names = [st["stage"] for st in report.stages]
    want = stage or track.name
    entry = next((st for st in report.stages if st["stage"] == want), None)
    if entry is None:
        raise _fail(f"{record} has no stage {want} (it has: {', '.join(names) or 'none'})")
    last = last_round(entry)
    if round_no is None:
        round_no = last
    if not 1 <= round_no <= last:
        raise _fail(f"{record}: stage {want} has rounds 1 to {last}, not {round_no}")
    if report.error is not None:
        typer.echo(f"rallyc render: warning: {record}: the replay stops at {report.error.path}: "
                   f"[{report.error.rule_id}] {report.error.message}", err=True)
    colours = {p["name"]: p["colour"] for p in data["players"]}
    cars = cars_after_round(entry, round_no, colours)
    missing = sorted({c.space for c in cars if c.space not in track})
    if missing:
        raise _fail(f"{record} was not played on this stage: no space {', '.join(missing)} here")
    return cars, round_no


def _write(path: Path | None, text: str) -> None:
    from rallyc.fileio import write_atomic

    if path is None or str(path) == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(path, text)
    except OSError as e:
        raise _fail(f"cannot write {path}: {e.strerror or e}")


def register(app: typer.Typer) -> None:
    """Add ``rallyc render`` to the app."""

    @app.command("render")
    def render_cmd(
        file: Path = typer.Argument(..., help="A .rally file with a stage, rally or circuit."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Stage to draw (default: the first)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o",
                                              help="SVG file to write (default: standard output). With "
                                                   "--scale real and several pages: NAME-1.svg, NAME-2.svg..."),
        page: Optional[Page] = typer.Option(None, "--page", help="Fit the map to a paper size (mm margins)."),
        landscape: bool = typer.Option(False, "--landscape", help="Turn the page sideways."),
        scale: Scale = typer.Option(Scale.fit, "--scale",
                                    help="fit: one page (or screen size); real: tiles at their physical size, "
                                         "split over pages (A4 unless --page)."),
        tile_mm: float = typer.Option(200.0, "--tile-mm", min=20.0, max=1000.0,
                                      help="Physical tile size edge to edge in mm, for --scale real "
                                           "(an assumption: measure yours)."),
        ids: bool = typer.Option(False, "--ids", help="Print every space id on the map."),
        roadbook: bool = typer.Option(False, "--roadbook",
                                      help="Write the road book (tiles to lay out, pacenotes) instead of the map."),
        record: Optional[Path] = typer.Option(None, "--record", help="A game record (JSON): draw the cars on the map."),
        round_no: Optional[int] = typer.Option(None, "--round",
                                               help="With --record: the cars after this round (default: the last)."),
        timing: bool = typer.Option(False, "--time", help="Print the render time to standard error."),
    ) -> None:
        """Draw a stage map (or its road book) as SVG."""
        from rallyc.render.document import MapOptions, render_map
        from rallyc.render.roadbook import render_roadbook

        started = time.perf_counter()
        design, track, catalogue = load_design(file, stage)
        if roadbook:
            tracks = [track] if stage else list(design.tracks)
            docs = [render_roadbook(tracks, catalogue, title=design.title, author=design.author,
                                    page=(page.value if page else "a4"))]
        else:
            options = MapOptions(page=page.value if page else None, landscape=landscape, scale=scale.value,
                                 tile_mm=tile_mm, show_ids=ids)
            if scale is Scale.real and not options.page:
                options.page = "a4"
            label = track.name + (f" {track.title}" if track.title and track.title != track.name else "")
            cars = ()
            if record is not None:
                if not record.exists():
                    raise _fail(f"no such record: {record}")
                cars, round_no = overlay_cars(record, round_no, track, stage, design.title)
                label += f" - after round {round_no}"
            elif round_no is not None:
                raise _fail("--round needs --record GAME.json")
            docs = render_map(track, catalogue, title=design.title, author=design.author, stage_label=label,
                              options=options, cars=cars)
        if len(docs) > 1 and (output is None or str(output) == "-"):
            raise _fail(f"the map needs {len(docs)} pages: name the output file with -o map.svg")
        paths = page_paths(output, len(docs)) if output is not None and str(output) != "-" else [None]
        for path, doc in zip(paths, docs):
            _write(path, doc)
        if paths[0] is not None:
            typer.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)
        if timing:
            typer.echo(f"rendered in {time.perf_counter() - started:.3f} s", err=True)
