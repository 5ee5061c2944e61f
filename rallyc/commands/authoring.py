"""Authoring commands: ``rallyc suggest`` (the next tile of a stage) and ``rallyc lsp`` (the language server).

Both import their engines inside the command, so they add nothing to the start-up
of the other commands.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from rallyc.api import read_stdin
from rallyc.commands.inputs import EXIT_PROBLEMS, EXIT_USAGE, boxes_option, fail
from rallyc.commands.serving import run_lsp
from rallyc.project.config import ConfigError, load_config
from rallyc.diagnostics import render_text
from rallyc.model.codes import STOPPING

__all__ = ["register", "suggest_text"]


class SuggestFormat(str, Enum):
    text = "text"
    json = "json"


def _load(file: Path):
    """The loaded file (``-``: standard input); exits 2 on I/O problems, 1 when it does not parse."""
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import decode_source, load, load_text

    if str(file) == "-":
        text, err = decode_source(read_stdin(), "<stdin>")
        if err is not None:
            typer.echo(render_text([err]), err=True, nl=False)
            raise typer.Exit(EXIT_PROBLEMS)
        assert text is not None  # decoded (no error)
        loaded = load_text(text, "<stdin>", base_dir=Path.cwd())
    elif file.is_dir():
        raise fail(f"{file} is a folder, not a .rally file", prog="rallyc suggest")
    elif not file.exists():
        raise fail(f"no such file: {file}", prog="rallyc suggest")
    else:
        loaded = load(file, str(file))
    # a file that does not read or parse (the codes that stop compilation, RC117 CR-only lines among them, and
    # RC104..RC107) is reported as `rallyc check` reports it
    bad = [d for d in loaded.diagnostics if d.code in STOPPING or "RC101" <= d.code <= "RC107"]
    if bad:
        typer.echo(render_text(bad, loaded.sources), err=True, nl=False)
        raise typer.Exit(EXIT_USAGE if any(d.span is None for d in bad) else EXIT_PROBLEMS)
    return loaded


def suggest_text(result, shown: list) -> str:
    """The text report of ``rallyc suggest``: a header, then one line per suggestion."""
    # start-up: the stage classes are only read when a result is written
    from rallyc.model.stage_length import stage_class

    if result.cell is not None:
        where = f"the next tile lies on cell {result.cell.q} {result.cell.r}, entered from world edge {result.entry}"
    elif result.after:
        where = f"step {result.after} is a dead end"
    else:
        where = "the start tile, laid on cell 0 0 at rot 0 in the route form"
    out = [f"stage {result.stage}, after step {result.after}: {where}"]
    finish = "the finish line is laid" if result.finish_laid else "no finish line yet"
    out.append(f"{result.road_tiles} road tile(s) so far (class {stage_class(result.road_tiles)}), {finish}")
    out.append("scope: " + (f"boxes {', '.join(result.boxes)} (copies left counted)" if result.boxes
                            else "every tile side in scope, copies not limited"))
    out.append(f"finish: {result.bound}")
    if not shown:
        out.append("no tile can follow this step")
        return "\n".join(out) + "\n"
    out.append("")
    out.append(f"{'step':<22} {'turn':<9} {'cell':<7} {'rot':<3} {'finish':<11} {'copies':<6} adds / notes")
    for s in shown:
        notes = list(s.adds)
        if not s.length_ok:
            notes.append("outside the length class")
        if s.bridge:
            notes.append("bridge: the same tile driven again")
        notes += [f"PROBLEM: {p}" for p in s.problems]
        copies = "-" if s.copies_left is None else str(s.copies_left)
        out.append(f"{s.text:<22} {s.turn:<9} {f'{s.q} {s.r}':<7} {s.rot:<3} {s.finish.value:<11} {copies:<6} "
                   + (", ".join(notes) or "-"))
        if s.why:
            out.append(f"    why: {s.why}")
    return "\n".join(out) + "\n"


SUGGEST_EPILOG = """\b
Examples:
  rallyc suggest my-rally.rally --stage SS1                # after the last step
  rallyc suggest my-rally.rally --stage SS1 --after 4      # what could be step 5
  rallyc suggest my-rally.rally -s SS1 --boxes dirt-core,dirt-110 -f json
  rallyc suggest my-rally.rally -s SS1 -b dirt-core -b dirt-core  # two core boxes
  rallyc suggest my-rally.rally -s SS1 --all               # illegal ones too, with why
\b
Exit codes: 0 done, 1 the file does not parse, 2 usage or I/O error."""


LSP_EPILOG = """\b
Examples:
  rallyc lsp                # started by an editor: LSP on standard input/output
\b
Needs the `lsp` extra: pip install 'rallyc[lsp]'. See docs/editors.md."""


def register(app: typer.Typer) -> None:
    """Add ``rallyc suggest`` and ``rallyc lsp`` to the app."""

    @app.command("suggest", epilog=SUGGEST_EPILOG)
    def suggest_cmd(
        file: Path = typer.Argument(..., help="The .rally file, or - for standard input."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="The stage (needed when the file has several)."),
        after: Optional[int] = typer.Option(None, "--after", "-a", help="Suggest what follows this step "
                                            "(default: the last step; 0: the start tile)."),
        boxes: Optional[List[str]] = boxes_option("Replaces the file's `boxes` lines and the settings' boxes."),
        fmt: SuggestFormat = typer.Option(SuggestFormat.text, "--format", "-f", help="text or json."),
        show_all: bool = typer.Option(False, "--all", help="Also list tiles that would make the stage illegal."),
        limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, help="At most N suggestions."),
    ) -> None:
        """Every tile side that can legally follow a step of a stage: road, turn word, cell, what it adds."""
        # start-up: the route search only when a route is suggested
        from rallyc.suggest import SuggestError, suggest
        from rallyc.tiles.boxes import box_list

        loaded = _load(file)
        names = box_list(boxes)
        if names is None and not any(d.boxes for d in loaded.documents):
            try:  # the settings' default boxes, as `rallyc check` uses them
                config = load_config(Path.cwd() if str(file) == "-" else file.resolve().parent)
            except ConfigError as e:
                raise fail(str(e), prog="rallyc suggest")
            names = list(config.boxes) if config.boxes else None
        try:
            result = suggest(loaded, stage, after, names)
        except SuggestError as e:
            raise fail(str(e), prog="rallyc suggest")
        shown = [s for s in result.suggestions if show_all or s.legal]
        if limit is not None:
            shown = shown[:limit]
        if fmt is SuggestFormat.json:
            data = result.to_dict()
            data["suggestions"] = [s.to_dict() for s in shown]
            typer.echo(json.dumps(data, indent=2, sort_keys=True))
        else:
            typer.echo(suggest_text(result, shown), nl=False)

    @app.command("lsp", epilog=LSP_EPILOG)
    def lsp_cmd() -> None:
        """Run the rallyc language server on standard input/output (for editors)."""
        run_lsp()
