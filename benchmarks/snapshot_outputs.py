"""Snapshot every output of the CLI on the examples and the bad files, to prove a restructuring byte-identical.

Run: ``python benchmarks/snapshot_outputs.py DIR [--subprocess]``, then change the code, run it again into
another folder and compare::

    python benchmarks/snapshot_outputs.py /tmp/before
    ... change ...
    python benchmarks/snapshot_outputs.py /tmp/after
    diff -r /tmp/before /tmp/after        # nothing printed: byte-identical

For every ``.rally`` file under ``examples/`` and ``tests/bad/`` (and each folder as a whole for
``check``) it runs ``check --format text|json|sarif``, ``fmt --diff``, ``compile``, ``stats`` (text and
json), ``render`` (default and ``--roadbook``), ``export --to rekee|rgt``; for a file with several stages,
``compile``, ``render`` and ``export`` also once per stage; ``replay`` (text and ``--format json``) of every
recorded game in ``examples/games/``; ``analyze --format json`` of every example with a fixed seed and a few runs;
the first suggestions of ``suggest`` after step 4 of every example stage (issue 35);
and the records of seeded bot games on every published stage (``bot-sweep/``). Each run is one file ``DIR/<input path>/<command>.txt``: the command line, the exit
code, then standard output and standard error byte for byte.

The commands run in this process through typer's test runner (several times faster than one process
each); ``--subprocess`` spawns ``python -m rallyc`` per command instead, to compare the two. Paths are
given relative to the repository and the clone's absolute path in a message is written ``<repo>``, so
the snapshot does not depend on where the clone is (compare two clones). The snapshot is deterministic: nothing in it depends on time, the machine or the order of runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from snapshot_target import prepare

ROOT = Path(__file__).resolve().parent.parent

INPUT_FOLDERS = ("examples", "tests/bad")
GAMES = "examples/games"
#: the top-level folders of an output snapshot
ENTRIES = frozenset(folder.split("/")[0] for folder in INPUT_FOLDERS) | {"bot-sweep"}


def _inputs() -> list[str]:
    """Every ``.rally`` file of the input folders, relative to the repository, sorted."""
    found = []
    for folder in INPUT_FOLDERS:
        found += [p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*.rally")]
    return sorted(found)


def _runs_for(path: str, stages: list[str]) -> list[tuple[str, list[str]]]:
    """(snapshot name, arguments) of every command run on one file."""
    runs = [(f"check-{fmt}", ["check", path, "--format", fmt]) for fmt in ("text", "json", "sarif")]
    runs += [("fmt-diff", ["fmt", "--diff", path]),
             ("compile", ["compile", path]),
             ("stats-text", ["stats", path]),
             ("stats-json", ["stats", path, "--format", "json"]),
             ("render", ["render", path]),
             ("render-roadbook", ["render", path, "--roadbook"]),
             ("export-rekee", ["export", path, "--to", "rekee"]),
             ("export-rgt", ["export", path, "--to", "rgt"])]
    if len(stages) > 1:
        for stage in stages:
            runs += [(f"compile@{stage}", ["compile", path, "--stage", stage]),
                     (f"render@{stage}", ["render", path, "--stage", stage]),
                     (f"render-roadbook@{stage}", ["render", path, "--stage", stage, "--roadbook"]),
                     (f"export-rekee@{stage}", ["export", path, "--to", "rekee", "--stage", stage]),
                     (f"export-rgt@{stage}", ["export", path, "--to", "rgt", "--stage", stage])]
    return runs


def _stages(compile_stdout: bytes) -> list[str]:
    """The stage (and circuit) names in ``rallyc compile``'s JSON, in order; none when it did not compile."""
    try:
        data = json.loads(compile_stdout)
    except ValueError:
        return []
    documents = data if isinstance(data, list) else [data]
    return [t["graph"]["name"] for doc in documents for t in doc.get("tracks", [])]


class InProcess:
    """Runs rallyc commands through typer's test runner, in this process."""

    def __init__(self) -> None:
        from typer.testing import CliRunner

        from rallyc.commands.cli import app

        self.app, self.runner = app, CliRunner()

    def __call__(self, args: list[str]) -> tuple[int, bytes, bytes]:
        result = self.runner.invoke(self.app, args, catch_exceptions=True)
        err = result.stderr_bytes or b""
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            err += f"UNCAUGHT {type(result.exception).__name__}: {result.exception}\n".encode()
        return result.exit_code, result.stdout_bytes, err


def subprocess_runner(args: list[str]) -> tuple[int, bytes, bytes]:
    """Runs one rallyc command in a new process."""
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1")
    p = subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, cwd=ROOT, env=env)
    return p.returncode, p.stdout, p.stderr


def _write(out: Path, name: str, args: list[str], result: tuple[int, bytes, bytes]) -> None:
    code, stdout, stderr = (result[0], *(_portable(b) for b in result[1:]))
    out.mkdir(parents=True, exist_ok=True)
    header = f"$ rallyc {' '.join(args)}\nexit {code}\n--- stdout\n".encode()
    (out / f"{name}.txt").write_bytes(header + stdout + b"\n--- stderr\n" + stderr)


def _portable(output: bytes) -> bytes:
    """Output with the clone's absolute path written ``<repo>`` (a few messages name a project folder)."""
    return output.replace(str(ROOT).encode(), b"<repo>")


def snapshot(target: Path, run) -> int:
    """Write every snapshot into ``target`` (an empty folder: :func:`snapshot_target.prepare`); the number of
    commands run."""
    count = 0
    for folder in INPUT_FOLDERS:
        for fmt in ("text", "json", "sarif"):
            args = ["check", folder, "--format", fmt]
            _write(target / folder, f"check-folder-{fmt}", args, run(args))
            count += 1
    for path in _inputs():
        compiled = run(["compile", path])
        for name, args in _runs_for(path, _stages(compiled[1])):
            _write(target / path, name, args, compiled if args == ["compile", path] else run(args))
            count += 1
    for game in sorted((ROOT / GAMES).glob("*.json")):
        path = game.relative_to(ROOT).as_posix()
        for name, args in (("replay", ["replay", path]), ("replay-json", ["replay", path, "--format", "json"])):
            _write(target / path, name, args, run(args))
            count += 1
    for path in _inputs():
        if path.startswith("examples/"):  # a few solo and table runs of every stage and circuit, fixed seed
            args = ["analyze", path, "--format", "json", "--runs", "4", "--table-runs", "1", "--seed", "0"]
            _write(target / path, "analyze-json", args, run(args))
            count += 1
            # the tile after step 4 of each stage: the first dozen suggestions, ranked, with why
            for stage in _stages(run(["compile", path])[1]):
                args = ["suggest", path, "--stage", stage, "--after", "4", "-n", "12"]
                _write(target / path, f"suggest@{stage}", args, run(args))
                count += 1
    return count + _bot_records(target / "bot-sweep")


def _bot_records(out: Path) -> int:
    """The records of seeded random bot games (two seeds of four cars, advanced rules varied by seed) on every stage
    of the published rallies and the Auto Tour, as JSON."""
    import rallyc
    from rallyc.records.generate import bot_record
    from rallyc.rules import Options, Player

    players = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cat", "green"), Player("Dan", "yellow")]
    files = sorted((ROOT / "examples").glob("rally-*.rally")) + [ROOT / "examples" / "auto-tour-1.rally"]
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for label, track in [(f"{f.stem}/{t.name}", t) for f in files for t in rallyc.load(f).tracks]:
        for seed in (0, 1):
            options = Options(flying_start=seed == 0, redline=seed == 1, sisu="per-stage" if seed == 1 else None)
            try:
                text = json.dumps(bot_record([track], players, seed=seed, options=options), indent=1, sort_keys=True)
            except Exception as exc:  # a bot game the referee refuses is an output too
                text = f"{type(exc).__name__}: {exc}"
            (out / f"{label.replace('/', '--')}-seed{seed}.json").write_text(text + "\n")
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path, help="an empty or new folder, or an output snapshot written before (emptied first)")
    parser.add_argument("--subprocess", action="store_true", help="one process per command (slower)")
    ns = parser.parse_args(argv)
    target = prepare(parser, ns.target, ROOT, ENTRIES)
    os.chdir(ROOT)  # commands get paths relative to the repository
    os.environ.update(COLUMNS="80", NO_COLOR="1")
    sys.path.insert(0, str(ROOT))
    t0 = time.perf_counter()
    count = snapshot(target, subprocess_runner if ns.subprocess else InProcess())
    print(f"{count} command outputs in {target} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
