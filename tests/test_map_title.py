"""The map's title block and `rallyc stats` say a track's length in the same words (issue 32: the map counted the
Assistance tile and, on a circuit, the Joker lap's and the Pre-grid's tiles, which `stats` leaves out)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def _stats(example: Path) -> list[dict]:
    res = runner.invoke(app, ["stats", str(example), "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    return data if isinstance(data, list) else data["stages"]


@pytest.mark.parametrize("name", ["rally-1", "rally-4", "rx-1", "track-1", "ice-track-1"])
def test_map_title_counts_the_tiles_stats_counts(name: str, tmp_path: Path):
    example = ROOT / "examples" / f"{name}.rally"
    for s in _stats(example)[:2]:
        out = tmp_path / f"{s['name']}.svg"
        res = runner.invoke(app, ["render", str(example), "--stage", s["name"], "-o", str(out)])
        assert res.exit_code == 0, res.output
        texts = ["".join(t.itertext()) for t in ET.fromstring(out.read_bytes()).iter(f"{SVG}text")]
        words = f"{s['tiles']} tiles" + (f" ({s['class']})" if s.get("class") else "")
        if s.get("laps"):
            words += f", {s['laps']} laps"
        assert any(t.endswith(words) for t in texts), (words, [t for t in texts if "tiles" in t])
