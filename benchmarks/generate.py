"""Benchmark of ``rallyc generate``: issue 35's matrix, its pass figures and times.

    python benchmarks/generate.py [--seeds 1-5] [--count 3] [--classes Short,Medium,Long] [--boxes dirt-core]
                                  [--json]

For every box set (``dirt-core`` alone, ``gt-core`` alone, each expansion with its base), every class and every
seed, ``rallyc generate --par P --count N`` is run with P the median par of the published stages of that class
(the par table of docs/analyze.md, read from the file; no published stage is Long, so Long's is the Medium median
scaled by the rulebook's tiles, 18 / 14). Each design written is then checked (``rallyc check``: no error), its
class counted from its road tiles and its par measured again by ``rallyc analyze``'s Python API (defaults: 200
runs of the strong driver, seed 0). A request the boxes cannot meet (no finish tile in any GT box) is counted
as refused, with the reason. Prints one row per box set and class: designs asked, written, passing check, in
class, within 10% of par, refused, wall and CPU seconds a design (the CPU of the generate processes) and the
load average when the cell began. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: dirt-core alone, gt-core alone, and each expansion with its base
BOX_SETS = (("dirt-core",), ("dirt-core", "dirt-110"), ("dirt-core", "dirt-monte-carlo"), ("dirt-core", "dirt-rx"),
            ("dirt-core", "dirt-the-climb"), ("gt-core",), ("gt-core", "gt-adrenaline"),
            ("gt-core", "gt-championship"), ("gt-core", "gt-team-challenge"), ("gt-core", "gt-world-tour"))

_ROW = re.compile(r"^\| (?P<stage>[\w-]+ SS\d) \| (?P<tiles>\d+) \| (?P<par>\d+) ± \d+ \|.*\| (?P<cls>Short|Medium|Long) "
                  r"\| (?:Short|Medium|Long) \| (?:yes|no) \|$")


def published_pars() -> dict[str, list[float]]:
    """The strong driver's par of every published stage by its rulebook class (docs/analyze.md's table)."""
    out: dict[str, list[float]] = {}
    for line in (ROOT / "docs" / "analyze.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            out.setdefault(m["cls"], []).append(float(m["par"]))
    return out


def class_pars() -> dict[str, float]:
    """The median published par of each class; Long (none published) from Medium's, times 18 / 14 tiles."""
    pars = {cls: float(statistics.median(v)) for cls, v in published_pars().items()}
    pars.setdefault("Long", round(pars["Medium"] * 18 / 14, 1))
    return pars


def _seeds(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def _steps(path: Path) -> list[str]:
    return [s.strip() for s in path.read_text(encoding="utf-8").splitlines()
            if re.fullmatch(r"\s+\d{3}[ab]?( .*)?", s)]


def _children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes (on a loaded machine wall time says little)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cell(boxes: tuple[str, ...], length: str, par: float, seeds: list[int], count: int) -> dict:
    """Generate and verify one cell of the matrix."""
    sys.path.insert(0, str(ROOT))
    import rallyc
    from rallyc.analysis import analyze
    from rallyc.compiler.stats import stage_class

    cell = {"boxes": "+".join(boxes), "class": length, "par": par, "asked": 0, "written": 0, "check": 0,
            "in_class": 0, "on_par": 0, "refused": 0, "reason": "", "seconds": 0.0, "cpu": 0.0, "pars": [],
            "load": os.getloadavg()[0]}
    for seed in seeds:
        cell["asked"] += count
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            started = time.perf_counter()
            cpu = _children_cpu()
            r = subprocess.run([sys.executable, "-m", "rallyc", "generate", "-b", ",".join(boxes), "--class",
                                length.lower(), "--par", f"{par:g}", "--seed", str(seed), "--count", str(count),
                                "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
            cell["seconds"] += time.perf_counter() - started
            cell["cpu"] += _children_cpu() - cpu
            if r.returncode != 0:
                cell["refused"] += count
                cell["reason"] = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
                continue
            for f in sorted(out.glob("*.rally")):
                cell["written"] += 1
                if rallyc.check([str(f)]).ok:
                    cell["check"] += 1
                road = [s for s in _steps(f) if not s.startswith("201")]
                cell["in_class"] += stage_class(len(road)) == length
                measured = analyze(f, table_runs=0, against=None).stages[0].par
                cell["pars"].append(measured)
                cell["on_par"] += measured is not None and abs(measured - par) <= 0.10 * par
    return cell


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--classes", default="Short,Medium,Long")
    ap.add_argument("--boxes", action="append", help="one box set, comma-separated (repeatable; default: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pars = class_pars()
    sets = [tuple(b.split(",")) for b in args.boxes] if args.boxes else list(BOX_SETS)
    cells = []
    print(f"median published par: " + ", ".join(f"{c} {p:g} s" for c, p in pars.items()), file=sys.stderr)
    for boxes in sets:
        for length in args.classes.split(","):
            cell = run_cell(boxes, length, pars[length], _seeds(args.seeds), args.count)
            cells.append(cell)
            per, cpu = (cell[k] / max(cell["written"], 1) for k in ("seconds", "cpu"))
            times = (f"{per:.0f} s wall, {cpu:.0f} s CPU a design" if cell["written"] else
                     f"{per:.0f} s wall, {cpu:.0f} s CPU in all")
            print(f"{cell['boxes']:<28} {length:<6} par {cell['par']:>5g} s: asked {cell['asked']}, written "
                  f"{cell['written']}, check {cell['check']}, class {cell['in_class']}, within 10% {cell['on_par']}, "
                  f"refused {cell['refused']} ({times}, load {cell['load']:.1f})"
                  f"{'  ' + cell['reason'] if cell['reason'] else ''}", flush=True)
    if args.json:
        print(json.dumps(cells, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
