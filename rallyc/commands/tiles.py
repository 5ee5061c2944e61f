"""The tile commands: ``rallyc tiles list`` and ``rallyc tiles show``.

Tiles come from the bundled tilesets (one per box); ``--project`` adds the tilesets a
project file defines or includes, which replace bundled ones of the same name.
Exit codes: 0 done, 1 unknown tile (with a did-you-mean) or a --project file with errors, 2 usage or I/O error.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.api import read_stdin
from rallyc.commands.errors import EXIT_PROBLEMS, EXIT_USAGE, handles_errors
from rallyc.diagnostics import has_errors, render_text
from rallyc.tiles.catalogue import Catalogue, TileInfo, road_summary

__all__ = ["register", "list_rows", "load_catalogue"]


class ListFormat(str, Enum):
    text = "text"
    json = "json"


def load_catalogue(file: Path | None) -> Catalogue:
    """The catalogue of the bundled tilesets, or of everything a project file has in scope."""
    # start-up: the parser (lark) only when a file is read
    from rallyc.project import loader as project

    if file is None:
        return Catalogue.from_tilesets(project.bundled_tilesets())
    if str(file) == "-":
        text, err = project.decode_source(read_stdin(), "<stdin>")
        if err is not None:
            typer.echo(render_text([err]), err=True, nl=False)
            raise typer.Exit(EXIT_PROBLEMS)
        assert text is not None  # decoded (no error)
        loaded = project.load_text(text, "<stdin>")
    else:
        loaded = project.load(file)
    if loaded.diagnostics:
        typer.echo(render_text(loaded.diagnostics, loaded.sources), err=True, nl=False)
        if has_errors(loaded.diagnostics):
            # a file that cannot be read is an I/O error; errors in its text are problems found
            unreadable = any(d.code == "RC001" and d.span is None for d in loaded.diagnostics)
            raise typer.Exit(EXIT_USAGE if unreadable else EXIT_PROBLEMS)
    return Catalogue.from_tilesets(loaded.tilesets)


def _order(tile: TileInfo) -> tuple:
    return (tile.number, tile.side)


def list_rows(catalogue: Catalogue, box: str | None = None) -> list[dict]:
    """One row per tile side (sorted by number, then side): id, box, surface, danger, copies, roads."""
    tiles = catalogue.in_box(box) if box else list(catalogue)
    return [
        {
            "id": t.id,
            "box": t.box,
            "surface": t.surface,
            "danger": t.danger[0] if t.danger[0] == t.danger[1] else "/".join(t.danger),
            "copies": t.copies,
            "roads": [road_summary(r) for r in t.roads],
        }
        for t in sorted(tiles, key=_order)
    ]


def _text_table(rows: list[dict]) -> str:
    out = []
    for r in rows:
        roads = "; ".join(r["roads"]) if r["roads"] else "scenery"
        out.append(f"{r['id']:<5} {r['box']:<18} {r['surface']:<8} {r['danger']:<7} x{r['copies']}  {roads}")
    return "\n".join(out) + ("\n" if out else "")


TILES_EPILOG = """\b
Examples:
  rallyc tiles list --box dirt-core
  rallyc tiles show 217a"""

LIST_EPILOG = """\b
Examples:
  rallyc tiles list                          # every bundled tile side
  rallyc tiles list --box dirt-rx --format json
  rallyc tiles list --project my-rally.rally # with the tilesets my-rally.rally defines
\b
Exit codes: 0 done, 1 the --project file has errors, 2 usage or I/O error (unknown box, missing file)."""

SHOW_EPILOG = """\b
Examples:
  rallyc tiles show 217a                     # roads, zones, limits and features as text
  rallyc tiles show filler1a                 # aliases work (this is 902a)
  rallyc tiles show 217a -o 217a.svg         # also draw it, every space id labelled
\b
Exit codes: 0 done, 1 unknown tile (with a did-you-mean) or the --project file has errors, 2 usage or I/O error."""


def register(app: typer.Typer) -> None:
    """Add the ``tiles`` command group to the app."""
    tiles = typer.Typer(name="tiles", help="List and show the tiles in scope (bundled boxes, or a project's).",
                        no_args_is_help=True, epilog=TILES_EPILOG)

    @tiles.command("list", epilog=LIST_EPILOG)
    @handles_errors("rallyc tiles list")
    def list_cmd(
        box: Optional[str] = typer.Option(None, "--box", help="Only the tiles of this box (tileset), e.g. dirt-core."),
        fmt: ListFormat = typer.Option(ListFormat.text, "--format", "-f", help="text or json."),
        project: Optional[Path] = typer.Option(None, "--project", "-p",
                                               help="A .rally file whose own tilesets replace bundled ones "
                                                    "(- for standard input)."),
        old_file: Optional[Path] = typer.Option(None, "--file", hidden=True,
                                                help="Deprecated spelling of --project."),
    ) -> None:
        """List every tile side: id, box, surface, danger, copies and its roads."""
        file = _project(project, old_file, "rallyc tiles list")
        catalogue = load_catalogue(file)
        if box is not None and box not in catalogue.boxes():
            typer.echo(f"rallyc tiles list: no box named `{box}`; boxes: {', '.join(catalogue.boxes())}", err=True)
            raise typer.Exit(EXIT_USAGE)
        rows = list_rows(catalogue, box)
        if fmt is ListFormat.json:
            typer.echo(json.dumps(rows, indent=2, sort_keys=True))
        else:
            typer.echo(_text_table(rows), nl=False)

    @tiles.command("show", epilog=SHOW_EPILOG)
    @handles_errors("rallyc tiles show")
    def show_cmd(
        tile_id: str = typer.Argument(..., metavar="ID", help="A tile side, e.g. 217a (aliases such as filler1a work)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Also draw the tile to this SVG file (- : the SVG alone on "
                                                   "standard output)."),
        project: Optional[Path] = typer.Option(None, "--project", "-p",
                                               help="A .rally file whose own tilesets replace bundled ones "
                                                    "(- for standard input)."),
        old_file: Optional[Path] = typer.Option(None, "--file", "-f", hidden=True,
                                                help="Deprecated spelling of --project."),
    ) -> None:
        """Print a tile side as text (surface, danger, copies, roads, zones); with -o draw it as SVG."""
        file = _project(project, old_file, "rallyc tiles show")
        if output is not None and str(output) != "-":
            # start-up: writing an output file only when there is one
            from rallyc.commands.outputs import output_problem

            problem = output_problem(output, [file])
            if problem is not None:
                typer.echo(f"rallyc tiles show: {problem}", err=True)
                raise typer.Exit(EXIT_USAGE)
        catalogue = load_catalogue(file)
        tile = catalogue.get(tile_id)
        if tile is None:
            close = catalogue.suggest(tile_id)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            typer.echo(f"rallyc tiles show: unknown tile `{tile_id}`{hint}", err=True)
            raise typer.Exit(EXIT_PROBLEMS)
        render = _tile_renderer() if output is not None else None
        if render is not None and output is not None and str(output) == "-":
            typer.echo(render(tile, catalogue), nl=False)
            return
        typer.echo(tile.describe(), nl=False)
        if render is not None and output is not None:
            _write_svg(render(tile, catalogue), output)

    app.add_typer(tiles)


def _project(project: Optional[Path], old_file: Optional[Path], prog: str) -> Optional[Path]:
    """The ``--project`` file; ``--file`` (and ``tiles show -f``) still work for one release, with a warning."""
    if old_file is None:
        return project
    if project is not None:
        typer.echo(f"{prog}: give --project only (--file is its old spelling)", err=True)
        raise typer.Exit(EXIT_USAGE)
    typer.echo(f"{prog}: warning: --file is deprecated and will be removed; write --project (-p)", err=True)
    return old_file


def _tile_renderer():
    """``rallyc.render.tile.render_tile_svg``, or exit 2 when this build cannot draw tiles."""
    try:
        # start-up: the maps (svgwrite) only when one is drawn
        from rallyc.render.tile import render_tile_svg
    except ModuleNotFoundError as e:
        if e.name not in ("rallyc.render.tile", "rallyc.render"):
            raise
        typer.echo("rallyc tiles show: drawing tiles is not available in this build (rallyc.render.tile is missing)",
                   err=True)
        raise typer.Exit(EXIT_USAGE)
    return render_tile_svg


def _write_svg(svg: str, output: Path) -> None:
    # start-up: writing an output file only when there is one
    from rallyc.commands.outputs import write_output

    problem = write_output(output, svg)
    if problem is not None:
        typer.echo(f"rallyc tiles show: {problem}", err=True)
        raise typer.Exit(EXIT_USAGE)
    typer.echo(f"wrote {output}", err=True)
