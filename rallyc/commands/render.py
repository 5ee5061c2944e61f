"""``rallyc render``: printable stage maps and road books (SVG, PDF, PNG).

Exit codes: 0 written, 1 the file has errors (diagnostics printed, nothing
written), 2 usage or I/O error (unknown stage, unwritable output...).
"""

from __future__ import annotations

import re
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.commands.errors import error_line, handles_errors, record_error_line
from rallyc.commands.inputs import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, compile_file, fail, pick, refuse_output, \
    write_or_print
from rallyc.tiles.catalogue import Catalogue

__all__ = ["register", "page_paths", "write_pages", "manifest_path", "load_design", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE"]


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


def _fail(message: str, code: int = EXIT_USAGE) -> SystemExit:
    return fail(message, code, prog="rallyc render")


def load_design(file: Path, stage: str | None):
    """(design, track, catalogue) of ``file``; exits with diagnostics or a usage error when it cannot."""
    result, loaded = compile_file(file, prog="rallyc render")
    return design_of(result, loaded, file, stage)


def design_of(result, loaded, file: Path, stage: str | None):
    """(design, track, catalogue) of a compiled file; exits with a usage error for an unknown stage."""

    (design, name), = pick(result, stage, file, prog="rallyc render")[:1]
    return design, design.track(name), Catalogue.from_tilesets(loaded.tilesets)


def area_docs(area, loaded, roadbook: bool, record: Path | None, page, scale, tile_mm: float, ids: bool,
              landscape: bool | None) -> list[str]:
    """The map of a rally area (every stage's route on it) or the road books of its stages."""
    # start-up: the maps (svgwrite) only when one is drawn
    from rallyc.render.area import render_area
    from rallyc.render.document import MapOptions
    from rallyc.render.roadbook import render_roadbook

    tracks = [area.tracks[n] for n in area.routes if n in area.tracks]
    if not tracks:
        raise _fail(f'no stage runs over area "{area.title}": nothing to draw')
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    if roadbook:
        return render_roadbook(tracks, catalogue, title=area.title, author=area.author,
                               page=(page.value if page else "a4"), landscape=bool(landscape))
    unsupported = [name for name, used in (("--record", record is not None), ("--page", page is not None),
                                           ("--scale real", scale is Scale.real)) if used]
    if unsupported:
        raise _fail(f"{', '.join(unsupported)}: draw one stage of the area with --stage STAGE; "
                    "the map of the whole area is screen-sized")
    return [render_area(area.title, area.author, tracks, catalogue, MapOptions(tile_mm=tile_mm, show_ids=ids))]


def overlay_cars(record: Path, round_no: int | None, track, stage: str | None, design_title: str | None = None):
    """(cars, round) after round ``round_no`` (default: the last) of the record's stage (or RX race), for ``track``.

    Exits with a usage error when the record cannot be read, has no such stage or round, or was
    played on another track; a replay that stops at an illegal move is drawn up to there, with a warning.
    """
    # start-up: the referee and the record schema (jsonschema) only for replays
    from rallyc.records.load import RecordError, load_record
    from rallyc.records.replay import replay_record
    from rallyc.render.overlay import cars_after_round, last_round

    try:
        data = load_record(record)
        report = replay_record(data, record.parent)
    except RecordError as e:
        typer.echo(record_error_line(e), err=True)
        raise typer.Exit(EXIT_USAGE)
    if design_title is not None and data.get("design") not in (None, design_title):
        raise _fail(f"{record} was played on \"{data['design']}\", not on \"{design_title}\"")
    colours = {p["name"]: p["colour"] for p in data["players"]}
    if "race" in data:
        return _race_cars(record, report, round_no, track, colours)
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
    _warn_replay_error(record, report)
    cars = cars_after_round(entry, round_no, colours)
    missing = sorted({c.space for c in cars if c.space not in track})
    if missing:
        raise _fail(f"{record} was not played on this stage: no space {', '.join(missing)} here")
    return cars, round_no


def _warn_replay_error(record: Path, report) -> None:
    if report.error is not None:
        # start-up: the record schema (jsonschema) only for replays
        from rallyc.records.load import locate, read_record_text

        e = report.error
        line, column = locate(read_record_text(record), e.path)
        typer.echo(error_line(f"{record}:{line}:{column}", f"the replay stops at {e.path}: {e.message}", e.rule_id,
                              "warning"), err=True)


def _race_cars(record: Path, report, round_no: int | None, track, colours: dict[str, str]):
    """(cars, round) of an RX race record (``rallyc.records.report.RaceReport``) after ``round_no``."""
    # start-up: the maps (svgwrite) only when one is drawn
    from rallyc.render.overlay import last_round, race_cars_after_round

    if report.circuit != track.name:
        raise _fail(f"{record} is a race on {report.circuit}, not on {track.name}")
    last = last_round({"rounds": report.rounds})
    if round_no is None:
        round_no = last
    if not 1 <= round_no <= last:
        raise _fail(f"{record}: the race on {report.circuit} has rounds 1 to {last}, not {round_no}")
    _warn_replay_error(record, report)
    cars = race_cars_after_round(report.grid, report.rounds, round_no, colours, report.laps)
    missing = sorted({c.space for c in cars if c.space not in track})
    if missing:
        raise _fail(f"{record} was not raced on this circuit: no space {', '.join(missing)} here")
    return cars, round_no


RENDER_EPILOG = """\b
Examples:
  rallyc render examples/rally-1.rally --stage SS1 -o ss1.svg          # the map, sized for a screen
  rallyc render examples/rally-1.rally --page a4 -o ss1.svg            # fit to A4 (portrait or landscape)
  rallyc render examples/rally-1.rally --scale real --format pdf -o ss1.pdf  # 1:1 pages + road book, one PDF
  rallyc render examples/rally-1.rally --scale real -o ss1.svg        # ss1-1.svg (assembly), ss1-2.svg...
  rallyc render examples/rally-4.rally --roadbook -o roadbook.svg     # tiles to lay out, pacenotes
  rallyc render examples/area-1.rally --stage "Col des Mines" -o area.svg  # a rally area, every stage's route
  rallyc render examples/rally-4.rally --record examples/games/rally-4-full.json --round 5 -o r5.svg
  rallyc render examples/rx-1.rally --record examples/games/rx-1-race.json --round 5 --format png -o rx5.png
\b
Several pages in SVG or PNG go to NAME-1.svg, NAME-2.svg... beside a list .NAME.pages of the pages
written; a later run removes the pages of that list it does not write again, and no other file.
\b
Exit codes: 0 written, 1 the file has errors (nothing written), 2 usage or I/O error."""


class Format(str, Enum):
    svg = "svg"
    pdf = "pdf"
    png = "png"


def manifest_path(output: Path) -> Path:
    """The list of the pages a multi-page run wrote: ``.NAME.pages`` beside ``NAME.svg``."""
    return output.with_name(f".{output.stem}.pages")


def _previous_pages(output: Path) -> list[Path]:
    """The pages the last multi-page run into ``output`` wrote (from its list), existing or not."""
    try:
        lines = manifest_path(output).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    pattern = re.compile(rf"^{re.escape(output.stem)}-\d+{re.escape(output.suffix)}$")
    return [output.with_name(name) for name in lines if pattern.match(name)]


def write_pages(output: Path, docs: list, prog: str = "rallyc render") -> list[Path]:
    """Write ``docs`` (text or bytes) as ``output`` (one) or NAME-1.EXT... (several), removing the pages a
    previous run wrote beyond these (listed in ``.NAME.pages``) and nothing else."""
    # start-up: writing an output file only when there is one
    from rallyc.commands.outputs import write_output

    paths = page_paths(output, len(docs))
    old = _previous_pages(output)
    for path, doc in zip(paths, docs):
        problem = write_output(path, doc)
        if problem is not None:
            raise _fail(problem)
    keep = {p.name for p in paths}
    for stale in old:
        if stale.name not in keep and stale.is_file():
            stale.unlink()
    listing = manifest_path(output)
    if len(docs) > 1:
        problem = write_output(listing, "".join(f"{p.name}\n" for p in paths))
        if problem is not None:
            raise _fail(problem)
    elif old and listing.is_file():
        listing.unlink()
    return paths


def write_viewer(output: Path, data: dict, report, base_dir: Path, inputs: list) -> None:
    """Write the replay viewer of a replayed record (``rallyc replay GAME --html FILE``); exit 2 if it cannot."""
    # start-up: the referee and the record schema (jsonschema) only for replays
    from rallyc.records.load import RecordError
    from rallyc.records.stages import record_stages
    from rallyc.records.start import race_track
    from rallyc.render.viewer import viewer_html

    refuse_output([output], inputs, prog="rallyc replay")
    try:
        tracks = [race_track(data, base_dir)[0]] if "race" in data else record_stages(data, base_dir)[0]
    except RecordError as e:
        typer.echo(record_error_line(e), err=True)
        raise typer.Exit(EXIT_USAGE)
    catalogue = None
    if "track" in data:
        # start-up: the parser (lark) only when a file is read
        from rallyc.project.loader import load

        catalogue = Catalogue.from_tilesets(load((base_dir / data["track"]).resolve()).tilesets)
    page = viewer_html(data, report, tracks, catalogue)
    write_or_print(output, page, prog="rallyc replay")
    typer.echo(f"wrote {output}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``rallyc render`` to the app."""

    @app.command("render", epilog=RENDER_EPILOG)
    @handles_errors("rallyc render")
    def render_cmd(
        file: Path = typer.Argument(..., help="A .rally file with a stage, rally or circuit."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Stage to draw (default: the first)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o",
                                              help="File to write (default: standard output). Several pages: "
                                                   "NAME-1.svg, NAME-2.svg... (or one PDF)."),
        page: Optional[Page] = typer.Option(None, "--page", help="Fit the map to a paper size (10 mm margins)."),
        landscape: Optional[bool] = typer.Option(None, "--landscape/--portrait",
                                                 help="Page orientation (default: the one that prints the map "
                                                      "larger; real scale: the one with fewer pages)."),
        scale: Scale = typer.Option(Scale.fit, "--scale",
                                    help="fit: one page (or screen size); real: tiles at their physical size, "
                                         "an assembly page then 1:1 pages (A4 unless --page)."),
        tile_mm: float = typer.Option(200.0, "--tile-mm", min=20.0, max=1000.0,
                                      help="Physical tile size edge to edge in mm, for --scale real "
                                           "(an assumption: measure yours)."),
        no_scenery: bool = typer.Option(False, "--no-scenery",
                                        help="Leave the scenery fillers out (the map prints larger)."),
        fmt_: Format = typer.Option(Format.svg, "--format", "-f",
                                    help="svg; pdf (every page in one PDF; with --scale real the road book "
                                         "too); png. PDF and PNG need: pip install 'rallyc[pdf]'."),
        ids: bool = typer.Option(False, "--ids", help="Print every space id on the map."),
        roadbook: bool = typer.Option(False, "--roadbook",
                                      help="Write the road book (tiles to lay out, pacenotes) instead of the map."),
        record: Optional[Path] = typer.Option(None, "--record", help="A game record (JSON): draw the cars on the map."),
        round_no: Optional[int] = typer.Option(None, "--round",
                                               help="With --record: the cars after this round (default: the last)."),
        timing: bool = typer.Option(False, "--time", help="Print the render time to standard error."),
        bleed: Optional[float] = typer.Option(None, "--bleed", min=0.0, max=20.0,
                                              help="For a print shop: set each page (--page or --scale real) "
                                                   "on a sheet BLEED mm larger on every side, with crop marks."),
    ) -> None:
        """Draw a stage map (or its road book) as SVG, PDF or PNG."""
        # start-up: the maps (svgwrite) only when one is drawn
        from rallyc.render.document import MapOptions, render_map
        from rallyc.render.roadbook import render_roadbook

        started = time.perf_counter()
        if roadbook:
            ignored = [name for name, used in (("--record", record is not None), ("--round", round_no is not None),
                                               ("--scale real", scale is Scale.real), ("--ids", ids)) if used]
            if ignored:
                raise _fail(f"{', '.join(ignored)} cannot be used with --roadbook (the road book has no map)")
        if round_no is not None and record is None:
            raise _fail("--round needs --record GAME.json")
        if bleed is not None and page is None and scale is not Scale.real and not roadbook:
            raise _fail("--bleed needs a paper size: --page a4 (or --scale real)")
        if record is not None and not record.exists():
            raise _fail(f"no such record: {record}")
        to_stdout = output is None or str(output) == "-"
        if fmt_ is not Format.svg:
            # optional dependency (cairo): only for PNG and PDF output
            from rallyc.render.export import ExportUnavailable, _cairo

            try:
                _cairo()
            except ExportUnavailable as e:
                raise _fail(str(e))
        refuse_output([output], [file, record], prog="rallyc render")
        result, loaded = compile_file(file, prog="rallyc render")
        area = next((a for a in result.areas if a.title == stage), None) if stage is not None else None
        if area is None:
            design, track, catalogue = design_of(result, loaded, file, stage)
            doc_title = f"{design.title} - {track.name}"
        else:
            doc_title = f"{area.title} - area"
        if area is not None:
            docs = area_docs(area, loaded, roadbook, record, page, scale, tile_mm, ids, landscape)
        elif roadbook:
            tracks = [track] if stage else list(design.tracks)
            docs = render_roadbook(tracks, catalogue, title=design.title, author=design.author,
                                   page=(page.value if page else "a4"), landscape=bool(landscape))
        else:
            options = MapOptions(page=page.value if page else None, landscape=landscape, scale=scale.value,
                                 tile_mm=tile_mm, show_ids=ids, scenery=not no_scenery)
            if scale is Scale.real and not options.page:
                options.page = "a4"
            label = track.name + (f" {track.title}" if track.title and track.title != track.name else "")
            cars = ()
            if record is not None:
                cars, round_no = overlay_cars(record, round_no, track, stage, design.title)
                label += f" - after round {round_no}"
            docs = render_map(track, catalogue, title=design.title, author=design.author, stage_label=label,
                              options=options, cars=cars)
            if scale is Scale.real and fmt_ is Format.pdf:
                docs += render_roadbook([track], catalogue, title=design.title, author=design.author,
                                        page=options.page or "a4")
        if bleed is not None:
            # start-up: the print-shop sheet only when asked for
            from rallyc.render.printshop import with_crop_marks

            docs = [with_crop_marks(doc, bleed) for doc in docs]
        pages: list[str] | list[bytes] = docs
        if fmt_ is Format.pdf:
            # optional dependency (cairo): only for PNG and PDF output
            from rallyc.render.export import svgs_to_pdf

            pages = [svgs_to_pdf(docs, title=doc_title)]
        elif fmt_ is Format.png:
            # optional dependency (cairo): only for PNG and PDF output
            from rallyc.render.export import svg_to_png

            pages = [svg_to_png(doc) for doc in docs]
        if len(pages) > 1 and to_stdout:
            raise _fail(f"the output has {len(pages)} pages: name the output file with -o map.{fmt_.value}")
        if to_stdout:
            doc = pages[0]
            if isinstance(doc, bytes):
                if sys.stdout.isatty():
                    raise _fail(f"{fmt_.value.upper()} is binary: name the output file with -o map.{fmt_.value}")
                sys.stdout.buffer.write(doc)
                sys.stdout.flush()
            else:
                write_or_print(None, doc, prog="rallyc render")
        else:
            assert output is not None
            refuse_output(page_paths(output, len(pages)), [file, record], prog="rallyc render")
            paths = write_pages(output, pages)
            typer.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)
        if timing:
            typer.echo(f"rendered in {time.perf_counter() - started:.3f} s", err=True)
