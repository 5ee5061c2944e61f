"""``rallyc compile`` (the space graph as JSON) and ``rallyc stats`` (figures per stage).

Exit codes: 0 clean, 1 the file has errors (diagnostics on stderr, nothing
written), 2 usage or I/O error. Output files are written atomically.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from rallyc.commands.errors import handles_errors
from rallyc.commands.inputs import compile_file, pick, refuse_output, unknown_stage, write_or_print


class StatsFormat(str, Enum):
    text = "text"
    json = "json"


def compile_json(result, stage: Optional[str] = None, file: Path | str = "") -> str:
    """The JSON text `rallyc compile` writes: one design, or ``{"designs": [...]}`` when a file has several."""
    # start-up: the compiler (networkx) only when a file is compiled
    from rallyc.compiler.export import design_to_dict, dumps

    picked = pick(result, stage, file)
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
    @handles_errors("rallyc compile")
    def compile_cmd(
        file: Path = typer.Argument(..., help="The .rally file (stage, rally or circuit), or - for standard input."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the JSON to FILE (atomically)."),
    ) -> None:
        """Compile a track to its space graph (JSON node-link form, schemas/track.schema.json)."""
        refuse_output([output], [file])
        result, _ = compile_file(file)
        write_or_print(output, compile_json(result, stage, file))

    @app.command("stats", epilog=STATS_EPILOG)
    @handles_errors("rallyc stats")
    def stats_cmd(
        file: Path = typer.Argument(..., help="The .rally file, or - for standard input."),
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="Only this stage."),
        fmt: StatsFormat = typer.Option(StatsFormat.text, "--format", "-f", help="text or json."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to FILE (atomically)."),
    ) -> None:
        """Per stage: length in tiles and spaces, rulebook class, surfaces, danger, tiles needed, pacenotes."""
        # start-up: the compiler (networkx) only when a file is compiled
        from rallyc.compiler.stats import track_stats

        refuse_output([output], [file])
        names: list[str] = []
        stats: list[dict] = []
        chosen: list[int] = []  # the design holding ``stage`` (the first one that does)

        def each(design: int, track, catalogue) -> None:
            # each track is read once checked and then dropped: a file of many stages holds one track at a time
            names.append(track.name)
            if stage is None or (track.name == stage and chosen in ([], [design])):
                chosen[:] = [design]
                stats.append(track_stats(track, catalogue))

        compile_file(file, keep_tracks=False, each_track=each)
        if stage is not None and not stats:
            raise unknown_stage(stage, names, file)
        if fmt is StatsFormat.json:
            text = json.dumps({"stages": stats}, indent=2, sort_keys=True) + "\n"
        else:
            text = stats_text(stats)
        write_or_print(output, text)
