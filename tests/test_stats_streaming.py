"""`rallyc stats` reads each track once it is checked and drops it, as `rallyc check` does (issue 10).

A file of many stages once kept every stage's space graph alive until the last stage's figures were
printed. Measured with tracemalloc as a ratio between two runs of the same process (never a time); the
figures are the ones the kept tracks give.
"""

import json
from pathlib import Path

from typer.testing import CliRunner

from helpers.memory import many_stages_file, peak
from rallyc import api
from rallyc.commands.cli import app
from rallyc.compiler.stats import track_stats
from rallyc.project.loader import load_text
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
def _stats(*args: str) -> str:
    result = CliRunner().invoke(app, ["stats", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_stats_holds_one_track_at_a_time(tmp_path):
    """What `rallyc stats` holds grows with the file's text and its figures, not with its tracks' graphs."""
    small, large = many_stages_file(tmp_path, 15), many_stages_file(tmp_path, 45)
    _stats(str(small[1]))  # warm: imports, parser tables, the tile catalogue

    def keeping(text: str, path: Path) -> int:
        return peak(lambda: api.compile_loaded(load_text(text, str(path))))

    def stats(text: str, path: Path) -> int:
        return peak(lambda: _stats(str(path), "--format", "json"))

    kept = keeping(*large) - keeping(*small)
    streamed = stats(*large) - stats(*small)
    assert streamed * 2 < kept, (streamed, kept)


def test_streamed_figures_are_those_of_the_kept_tracks():
    """Every example's figures, in order, as `track_stats` gives them on the tracks a full compile keeps."""
    for path in sorted((ROOT / "examples").glob("*.rally")):
        compiled = api.compile(path)
        if compiled.problem is not None:
            continue
        assert compiled.loaded is not None
        catalogue = Catalogue.from_tilesets(compiled.loaded.tilesets)
        kept = [track_stats(t, catalogue) for d in compiled.designs for t in d.tracks]
        assert json.loads(_stats(str(path), "--format", "json")) == {"stages": kept}, path


def test_stats_of_one_stage_and_of_an_unknown_one():
    rally = str(ROOT / "examples" / "rally-1.rally")
    whole = json.loads(_stats(rally, "--format", "json"))["stages"]
    assert json.loads(_stats(rally, "--stage", "SS2", "--format", "json"))["stages"] == \
        [s for s in whole if s["name"] == "SS2"]
    result = CliRunner().invoke(app, ["stats", rally, "--stage", "SS9"])
    assert result.exit_code == 2
    assert "no stage named `SS9`" in result.output and "(stages: SS1, SS2, SS3)" in result.output
