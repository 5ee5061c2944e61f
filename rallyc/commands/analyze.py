"""``rallyc analyze``: how a stage plays, from many simulated runs of a strong driver.

Exit codes: 0 done, 1 the file has errors (nothing analysed), 2 usage or I/O error.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from rallyc.commands.cluster import cluster_errors
from rallyc.commands.inputs import compile_file, fail, pick, refuse_output, write_or_print
from rallyc.commands.progress import Progress
from rallyc.tiles.catalogue import Catalogue


class AnalyzeFormat(str, Enum):
    text = "text"
    json = "json"


class DriverChoice(str, Enum):
    strong = "strong"
    greedy = "greedy"
    random = "random"


class AgainstChoice(str, Enum):
    greedy = "greedy"
    random = "random"
    strong = "strong"
    none = "none"


ANALYZE_EPILOG = """\b
Examples:
  rallyc analyze examples/rally-1.rally --stage SS1 --runs 20 --table-runs 2   # a quick look (seconds)
  rallyc analyze examples/rally-1.rally        # every stage: par time, riskiest corners; not run: slow
  rallyc analyze examples/rally-1.rally --stage SS2 --runs 1000 --jobs 2         # not run: slow
  rallyc analyze examples/rally-1.rally -f json -o analysis.json                 # not run: slow
  rallyc analyze examples/rally-1.rally --stage SS1 --heat-map ss1-risk.svg      # not run: slow
\b
The same --seed gives the same figures whatever --jobs or --cluster (a Dask scheduler's address,
tcp://HOST:8786: pip install 'rallyc[cluster]'). The par time is the median stage time of the
solo runs, with a 95% error; the length class is compared with the playing time of --table-runs
four-car runs (an assumed 58 s a turn). Each stage's (circuit's) solo runs are driven again by the
--against driver (default: greedy for the strong driver, none for the others) with the same seeds:
its par (race) beside the analysed one, and the seconds (turns) the analysed driver gains.
\b
Exit codes: 0 done, 1 the file has errors, 2 usage or I/O error."""


def _heat_map_path(base: Path, stage: str, several: bool) -> Path:
    if not several:
        return base
    return base.with_name(f"{base.stem}-{stage}{base.suffix or '.svg'}")


def _with_circuits(text: str, rx: list, fmt: AnalyzeFormat, stages: bool) -> str:
    """The stages' output with the RX circuits' figures added (a ``circuits`` list in JSON)."""
    import json

    # start-up: the analysis (referee and drivers) only for `rallyc analyze`
    from rallyc.analysis.circuit_report import circuits_text

    if fmt is AnalyzeFormat.json:
        doc = json.loads(text)
        doc["circuits"] = [c.to_dict() for c in rx]
        return json.dumps(doc, sort_keys=True, indent=2) + "\n"
    return (text if stages else "") + circuits_text(rx)


def register(app: typer.Typer) -> None:
    """Add ``rallyc analyze`` to the app."""

    @app.command("analyze", epilog=ANALYZE_EPILOG)
    def analyze_cmd(
        file: Path = typer.Argument(..., help="The .rally file (a stage or a rally), or - for standard input."),
        stage: Optional[List[str]] = typer.Option(None, "--stage", "-s", help="Only this stage (repeatable)."),
        runs: Optional[int] = typer.Option(None, "--runs", "-n", min=1, max=100_000,
                                           help="Solo runs per stage (default 200) or RX circuit (default 40)."),
        table_runs: Optional[int] = typer.Option(None, "--table-runs", min=0, max=10_000,
                                                 help="Four-car runs per stage (default 20: playing time) or RX "
                                                      "circuit (default 8: finishing places); 0: none."),
        seed: int = typer.Option(0, "--seed", min=0, max=2**31 - 1, help="Seed of the runs."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=64, help="Processes to spread the runs over."),
        cluster: Optional[str] = typer.Option(None, "--cluster", help="A Dask scheduler's address "
                                              "(tcp://HOST:8786) to spread the runs over its workers (the same "
                                              "figures); needs: pip install 'rallyc[cluster]'."),
        driver: DriverChoice = typer.Option(DriverChoice.strong, "--driver", help="strong, greedy or random."),
        against: Optional[AgainstChoice] = typer.Option(
            None, "--against", help="Drive each stage's solo runs again with this driver and compare (greedy, random, "
                                    "strong or none; default greedy for the strong driver, else none)."),
        fmt: AnalyzeFormat = typer.Option(AnalyzeFormat.text, "--format", "-f", help="text or json."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to FILE (atomically)."),
        heat_map: Optional[Path] = typer.Option(None, "--heat-map",
                                                help="Write the risk heat map SVG (NAME-STAGE.svg for several)."),
    ) -> None:
        """Par time, spread, risk of every corner, where time goes and the length class of each stage."""
        # start-up: the analysis (referee and drivers) only for `rallyc analyze`
        from rallyc.analysis import DriverKind, analyze_track
        from rallyc.analysis.output import heat_label, heat_map as draw_heat_map
        from rallyc.analysis.output import to_json, to_text
        from rallyc.analysis.report import rally_warnings

        refuse_output([output, heat_map], [file])
        result, loaded = compile_file(file)
        wanted = list(dict.fromkeys(stage or []))
        picked = [(d, t) for d, s in pick(result, wanted[0] if len(wanted) == 1 else None, file)
                  for t in d.tracks if (s is None or t.name == s) and (not wanted or t.name in wanted)]
        missing = [w for w in wanted if w not in {t.name for _, t in picked}]
        if missing:
            raise fail(f"no stage named `{missing[0]}` in {file}")
        stages = [(d, t) for d, t in picked if t.kind == "stage"]
        circuits = [(d, t) for d, t in picked if t.kind == "circuit"]
        if not stages and not circuits:
            raise fail(f"{file} has no stage or RX circuit to analyse")
        source_ok = str(file) != "-"
        if cluster is not None and not source_ok:
            raise fail("--cluster needs a file (its workers compile it again), not standard input")
        other = against or (AgainstChoice.greedy if driver is DriverChoice.strong else AgainstChoice.none)
        analyses = []
        progress = Progress("rallyc analyze")
        for _, track in stages:
            with cluster_errors("rallyc analyze"):
                analyses.append(analyze_track(track, runs=200 if runs is None else runs,
                                              table_runs=20 if table_runs is None else table_runs, seed=seed,
                                              jobs=jobs if source_ok else 1, driver=DriverKind(driver.value),
                                              source=(file, track.name) if source_ok else None,
                                              against=None if other is AgainstChoice.none
                                              else DriverKind(other.value),
                                              cluster=cluster, progress=progress.runs(track.name)))
        progress.done()
        warnings = rally_warnings(analyses)
        text = to_json(analyses, warnings) if fmt is AnalyzeFormat.json else to_text(analyses, warnings)
        rx: list = []
        if circuits:
            # start-up: the analysis (referee and drivers) only for `rallyc analyze`
            from rallyc.analysis.circuit_report import analyze_circuit

            try:
                with cluster_errors("rallyc analyze"):
                    rx = [analyze_circuit(track, runs=40 if runs is None else runs,
                                          table_runs=8 if table_runs is None else table_runs, seed=seed,
                                          jobs=jobs if source_ok else 1, driver=DriverKind(driver.value),
                                          source=(file, track.name) if source_ok else None,
                                          design_options=design.options,
                                          against=None if other is AgainstChoice.none else DriverKind(other.value),
                                          cluster=cluster)
                          for design, track in circuits]
            except ValueError as exc:  # the design's custom race is no race (a Time Trial, Technical Track rules)
                raise fail(f"{file}: {exc}") from None
            text = _with_circuits(text, rx, fmt, bool(stages))
        if heat_map is not None:
            # start-up: the maps (svgwrite) only when one is drawn
            from rallyc.render.document import MapOptions, render_map

            catalogue = Catalogue.from_tilesets(loaded.tilesets)
            drawn = list(zip(stages, analyses)) + list(zip(circuits, rx))  # stages, then RX circuits
            for (design, track), analysis in drawn:
                svg = render_map(track, catalogue, title=design.title, author=design.author,
                                 stage_label=heat_label(analysis), options=MapOptions(page="a4"))[0]
                write_or_print(_heat_map_path(heat_map, track.name, len(drawn) > 1), draw_heat_map(svg, analysis))
        write_or_print(output, text)
