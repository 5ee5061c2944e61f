"""``rallyc generate``: stages and rallies from the tiles you own, written with their maps.

Exit codes: 0 written, 1 the project file has errors (printed), 2 usage or I/O problem (an unknown box or
feature, a file that exists without --force, no stage found).
"""

from __future__ import annotations

import os
import re
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from rallyc.commands.errors import EXIT_PROBLEMS, fail, handles_errors
from rallyc.commands.inputs import boxes_option
from rallyc.commands.cluster import cluster_errors
from rallyc.commands.progress import Progress
from rallyc.project.config import ConfigError, load_config
from rallyc.tiles.boxes import box_list

__all__ = ["register", "parse_par"]

PROG = "rallyc generate"


class LengthClass(str, Enum):
    short = "short"
    medium = "medium"
    long = "long"


def parse_par(text: str) -> float:
    """``M:SS`` (``2:00``) or seconds (``120``) as seconds; ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+):([0-5]\d)\s*", text)
    seconds: float
    if m:
        seconds = int(m.group(1)) * 60 + int(m.group(2))
    elif re.fullmatch(r"\s*\d+(\.\d+)?\s*", text):
        seconds = float(text)
    else:
        raise ValueError(f"--par takes M:SS or seconds (2:00 or 120), not {text!r}")
    if seconds <= 0:
        raise ValueError("--par must be more than 0 seconds")
    return float(seconds)


def _names(values: Optional[List[str]]) -> list[str]:
    """A list option given repeated, comma- or space-separated: ``--boxes dirt-core,dirt-110``."""
    return [v for raw in (values or []) for v in raw.replace(",", " ").split()]


def _project(project: Path, out_dir: Path):
    """(catalogue, ``use`` lines to compile with from the project's folder, ``use`` lines of the written files,
    the project file to copy into the output folder or None)."""
    # start-up: the parser only when a project is read
    from rallyc.project import loader as projects
    from rallyc.diagnostics import has_errors, render_text
    from rallyc.tiles.catalogue import Catalogue

    if not project.is_file():
        raise fail(f"no such project file: {project}", prog=PROG)
    loaded = projects.load(project)
    if loaded.diagnostics:
        typer.echo(render_text(loaded.diagnostics, loaded.sources), err=True, nl=False)
        if has_errors(loaded.diagnostics):
            raise typer.Exit(EXIT_PROBLEMS)
    here = project.resolve()
    out = out_dir.resolve()
    if here.parent == out or out in here.parents:
        return Catalogue.from_tilesets(loaded.tilesets), [here.name], [here.relative_to(out).as_posix()], None
    # an included file must lie in the including file's folder or below it (RC111): copy the project there
    return Catalogue.from_tilesets(loaded.tilesets), [here.name], [here.name], here


GENERATE_EPILOG = """\b
Examples:
  rallyc generate --boxes dirt-core --class short -o stages/
  rallyc generate -b dirt-core,dirt-110 --class medium --features jump,water --seed 3 --count 3 -o out/
  rallyc generate -b dirt-core --class short --rally 2 -o rallies/      # a rally of 2 stages
\b
Each design is a .rally file with its map (SVG). --par 2:00 tunes each stage to that par as
`rallyc analyze` measures it (minutes a design). See docs/generate.md."""


def register(app: typer.Typer) -> None:
    """Add ``rallyc generate`` to the app."""

    @app.command("generate", epilog=GENERATE_EPILOG)
    @handles_errors(PROG)
    def generate_cmd(
        output: Path = typer.Option(..., "--output", "-o", help="Folder to write the designs and maps into "
                                                                "(made when missing)."),
        length: LengthClass = typer.Option(..., "--class", case_sensitive=False,
                                           help="Length class by the rulebook: short (about 10 tiles), medium (14), "
                                                "long (18)."),
        boxes: Optional[List[str]] = boxes_option("Default: the settings' boxes."),
        surface: Optional[List[str]] = typer.Option(None, "--surface", help="Road tiles of these surfaces only "
                                                    "(gravel, asphalt, snow...). Repeat or list."),
        features: Optional[List[str]] = typer.Option(None, "--features", help="Features every design has: jump, "
                                                     "water, shortcut, hairpin, climb. Repeat or list."),
        par: Optional[str] = typer.Option(None, "--par", help="Par time, M:SS or seconds, as `rallyc analyze` "
                                          "measures it (within 10%)."),
        seed: int = typer.Option(0, "--seed", min=0, max=2**31 - 1, help="Seed: the same seed, the same designs."),
        count: int = typer.Option(1, "--count", "-n", min=1, max=1000, help="Designs to write (all different)."),
        rally: Optional[int] = typer.Option(None, "--rally", min=1, max=10,
                                            help="Write rallies of this many stages instead of single stages."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=64, help="Processes to spread each measure's runs "
                                 "over (the same designs)."),
        cluster: Optional[str] = typer.Option(None, "--cluster", help="A Dask scheduler's address (tcp://HOST:8786) "
                                              "to spread each measure's runs over its workers (the same designs); "
                                              "needs: pip install 'rallyc[cluster]'."),
        force: bool = typer.Option(False, "--force", help="Overwrite files that exist."),
        project: Optional[Path] = typer.Option(None, "--project", "-p",
                                               help="A .rally file whose tilesets are in scope (they replace "
                                                    "bundled ones of the same name)."),
    ) -> None:
        """Generate stages (or rallies) from the tiles you own, in a length class, near a par time."""
        # start-up: the generator (compiler, referee and drivers) only for `rallyc generate`
        from rallyc.commands.outputs import write_output
        from rallyc.design import GenerateError, Generator, Request

        try:
            par_seconds = parse_par(par) if par is not None else None
        except ValueError as e:
            raise fail(str(e), prog=PROG)
        names = box_list(boxes) or []
        if not names:
            try:  # the settings' default boxes, as `rallyc check` uses them
                config = load_config(Path.cwd())
            except ConfigError as e:
                raise fail(str(e), prog=PROG)
            names = list(config.boxes or [])
        if not names:
            raise fail("say which boxes you own: --boxes dirt-core (or `boxes` in the settings file)", prog=PROG)
        if output.exists() and not output.is_dir():
            raise fail(f"{output} is a file; -o takes a folder", prog=PROG)
        copy_from = None
        if project is not None:
            catalogue, uses, written, copy_from = _project(project, output)
            base_dir = project.resolve().parent
        else:
            # start-up: the tile catalogue only when generating
            from rallyc.project import loader as projects
            from rallyc.tiles.catalogue import Catalogue

            catalogue, uses, written, base_dir = Catalogue.from_tilesets(projects.bundled_tilesets()), [], [], \
                Path.cwd()
        surfaces = tuple(_names(surface)) or None
        known = sorted({t.surface for t in catalogue})
        if surfaces and set(surfaces) - set(known):
            raise fail("no surface " + ", ".join(sorted(set(surfaces) - set(known))) + "; surfaces: "
                       + ", ".join(known), prog=PROG)
        request = Request(tuple(names), length.value.capitalize(), par_seconds, frozenset(_names(features)),
                          surfaces, seed, count, rally, jobs=jobs, cluster=cluster)
        progress = Progress(PROG)
        try:
            generator = Generator(catalogue, request, base_dir, uses,
                                  progress, written)
        except GenerateError as e:
            raise fail(str(e), prog=PROG)
        planned = [output / n for n in generator.output_names()]
        if copy_from is not None:
            planned.append(output / copy_from.name)
        existing = [p for p in planned if p.exists() and not (p == output / getattr(copy_from, "name", "")
                                                              and _same_bytes(p, copy_from))]
        if existing and not force:
            raise fail(f"{existing[0]} exists" + (f" (and {len(existing) - 1} more)" if len(existing) > 1 else "")
                       + "; pass --force to overwrite, or choose another folder", prog=PROG)
        try:
            with cluster_errors(PROG):
                designs = generator.designs()
        except GenerateError as e:
            progress.done()
            raise fail(str(e), prog=PROG)
        progress.done()
        output.mkdir(parents=True, exist_ok=True)
        if copy_from is not None:
            _write(output / copy_from.name, copy_from.read_text(encoding="utf-8"), write_output)
        for design in designs:
            _write(output / f"{design.name}.rally", design.text, write_output)
            maps = _maps(design, catalogue)
            for (stage, svg) in maps:
                svg_name = f"{design.name}-{stage}.svg" if rally else f"{design.name}.svg"
                _write(output / svg_name, svg, write_output)
            for st in design.stages:
                par_text = f", par {st.par:g} s" if st.par is not None else ""
                typer.echo(f"{output / (design.name + '.rally')}: {st.road_tiles} road tiles "
                           f"({request.length}){par_text}" + (f", {', '.join(sorted(st.features))}"
                                                              if st.features else ""))


def _same_bytes(a: Path, b: Optional[Path]) -> bool:
    return b is not None and a.is_file() and os.path.getsize(a) == os.path.getsize(b) and a.read_bytes() == \
        b.read_bytes()


def _write(path: Path, text: str, write_output) -> None:
    problem = write_output(path, text)
    if problem is not None:
        raise fail(problem, prog=PROG)


def _maps(design, catalogue) -> list[tuple[str, str]]:
    """(stage name, SVG) of every stage: the map `rallyc render FILE --stage NAME` draws."""
    # start-up: the maps (svgwrite) only when one is drawn
    from rallyc.render.document import MapOptions, render_map

    out = []
    for track in design.design.tracks:
        label = track.name + (f" {track.title}" if track.title and track.title != track.name else "")
        docs = render_map(track, catalogue, title=design.design.title, author=design.design.author,
                          stage_label=label, options=MapOptions())
        out.append((track.name, docs[0]))
    return out

