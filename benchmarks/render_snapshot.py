"""Snapshot every SVG the renderer draws for the examples, to prove a render change byte-identical (or show its diff).

Run: ``python benchmarks/render_snapshot.py DIR``, change the renderer, run it again into another folder and
compare with ``diff -r``. Wider than ``snapshot_outputs.py`` (which renders each file only by default and
as a road book): for every ``.rally`` file in ``examples/`` and every stage, circuit and area route in it,
the map on screen, fitted to each paper size in each orientation, without scenery, with ``--ids``, the road
book (screen and A4), real scale (every page), the cars of every recorded game after round 1 and after the
last round, and every tile side of the bundled tilesets drawn alone (``rallyc tiles show -o``). Each run is
one file ``DIR/<input>/<name>.txt``: the command line, the exit code, standard output and error, then each
file written, byte for byte. Runs in this process (typer's test runner).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from snapshot_target import prepare

ROOT = Path(__file__).resolve().parent.parent
#: the top-level folders of a render snapshot (the maps of examples/, the tile sheets)
ENTRIES = frozenset({"examples", "tiles"})

MAP_VARIANTS: tuple[tuple[str, list[str]], ...] = (
    ("screen", []),
    ("a4", ["--page", "a4"]),
    ("a4-landscape", ["--page", "a4", "--landscape"]),
    ("a4-portrait", ["--page", "a4", "--portrait"]),
    ("letter", ["--page", "letter"]),
    ("a3-landscape", ["--page", "a3", "--landscape"]),
    ("a4-no-scenery", ["--page", "a4", "--no-scenery"]),
    ("ids", ["--ids"]),
    ("roadbook", ["--roadbook"]),
    ("roadbook-a4", ["--roadbook", "--page", "a4"]),
    ("real", ["--scale", "real"]),
)


class Runner:
    """Runs rallyc commands through typer's test runner; files written go to a scratch folder."""

    def __init__(self) -> None:
        from typer.testing import CliRunner

        from rallyc.commands.cli import app

        self.app, self.runner = app, CliRunner()

    def __call__(self, args: list[str], writes: bool) -> bytes:
        with tempfile.TemporaryDirectory() as scratch:
            full = args + (["-o", str(Path(scratch) / "out.svg")] if writes else [])
            result = self.runner.invoke(self.app, full, catch_exceptions=True)
            text = f"$ rallyc {' '.join(args)}\nexit {result.exit_code}\n--- stdout\n".encode()
            text += result.stdout_bytes + b"\n--- stderr\n" + (result.stderr_bytes or b"")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                text += f"UNCAUGHT {type(result.exception).__name__}: {result.exception}\n".encode()
            for written in sorted(Path(scratch).iterdir()):
                text += f"\n--- file {written.name}\n".encode() + written.read_bytes()
            return text.replace(scratch.encode(), b"<out>").replace(str(ROOT).encode(), b"<repo>")


def _stages(run: Runner, path: str) -> list[str]:
    out = run(["compile", path], writes=False)
    body = out.split(b"--- stdout\n", 1)[1].rsplit(b"\n--- stderr\n", 1)[0]
    try:
        data = json.loads(body)
    except ValueError:
        return []
    documents = data if isinstance(data, list) else [data]
    return [t["graph"]["name"] for doc in documents for t in doc.get("tracks", [])]


def _games() -> dict[str, list[tuple[str, str]]]:
    """Recorded games by the example file they play (the record's ``track``): (record path, stage)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for game in sorted((ROOT / "examples/games").glob("*.json")):
        data = json.loads(game.read_text())
        track = data.get("track")
        if isinstance(track, str) and (game.parent / track).is_file():
            key = (game.parent / track).resolve().relative_to(ROOT).as_posix()
            for stage in data.get("stages", []):
                found.setdefault(key, []).append((game.relative_to(ROOT).as_posix(), stage["stage"]))
    return found


def snapshot(target: Path) -> int:
    """Write every snapshot into ``target`` (an empty folder: :func:`snapshot_target.prepare`); the number of
    commands run."""
    run = Runner()
    count = 0

    def write(folder: str, name: str, args: list[str], writes: bool = True) -> None:
        nonlocal count
        out = target / folder
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name.replace('/', '_')}.txt").write_bytes(run(args, writes))
        count += 1

    games = _games()
    for file in sorted((ROOT / "examples").glob("*.rally")):
        path = file.relative_to(ROOT).as_posix()
        for stage in _stages(run, path) or [""]:
            pick = ["--stage", stage] if stage else []
            for name, extra in MAP_VARIANTS:
                write(path, f"{stage}@{name}", ["render", path, *pick, *extra])
        for record, stage in games.get(path, []):
            name = f"{Path(record).stem}@{stage}"
            write(path, f"{name}@first", ["render", path, "--stage", stage, "--record", record, "--round", "1"])
            write(path, f"{name}@last", ["render", path, "--stage", stage, "--record", record])
    tiles = run(["tiles", "list", "--format", "json"], writes=False)
    body = tiles.split(b"--- stdout\n", 1)[1].rsplit(b"\n--- stderr\n", 1)[0]
    try:
        ids = [t["id"] for t in json.loads(body)]
    except (ValueError, KeyError, TypeError):
        ids = []
    for tile in ids:
        write("tiles", tile, ["tiles", "show", tile, "-o", "-"], writes=False)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path, help="an empty or new folder, or a render snapshot written before (emptied first)")
    ns = parser.parse_args(argv)
    target = prepare(parser, ns.target, ROOT, ENTRIES)
    os.chdir(ROOT)
    os.environ.update(COLUMNS="80", NO_COLOR="1")
    sys.path.insert(0, str(ROOT))
    t0 = time.perf_counter()
    count = snapshot(target)
    print(f"{count} renders in {target} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
