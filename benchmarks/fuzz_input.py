"""Seeded fuzz run over careless input: mutated .rally files, Rekee/RGT track files and game records.

    python benchmarks/fuzz_input.py                      # the full run of issue 11: 10,000 / 2,000 / 1,000
    python benchmarks/fuzz_input.py --rally 200 --tracks 50 --records 20 --seed 7
    python benchmarks/fuzz_input.py --jobs 2 --report fuzz.json

Every input goes through the real command, in process (``typer.testing.CliRunner`` on ``rallyc.commands.cli.app``):
``rallyc check`` and ``rallyc fmt --check`` for ``.rally`` files, ``rallyc import -o`` (and ``check`` of what
it wrote) for track files, ``rallyc replay`` for records. An input *fails* when the command raises (a
traceback), exits with a code other than 0, 1 or 2, gives an error without ``file:line:column`` (or a
plain I/O message), runs over the time limit (10 s) or the memory limit (1 GB, ``RLIMIT_AS`` of the
worker). The run prints the counts and the first failing inputs (saved under ``--keep`` for replaying).

Mutations are chosen by a ``random.Random(seed)`` per input (``seed * 1_000_003 + index``), so one input
can be regenerated alone (``--only KIND:INDEX``). Records replay on tracks compiled once per worker (the
track files are not mutated; the referee's own speed is measured elsewhere).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT = 10
MEMORY_LIMIT = 1 << 30

#: fragments that careless input is made of
_WORDS = ["stage", "rally", "circuit", "tileset", "tile", "road", "use", "boxes", "token", "at", "rot", "laps",
          "reversed", "left", "right", "jump", "chicane", "limit", "water", "corner", "inside", "outside",
          "slide", "plain", "{", "}", "\n", "\r", "\r\n", '"', "#", "-", ".", ",", "201a", "202b", "203a",
          "405a", "999z", "\t", "\x00", "\x1b", "\ufeff", "\ufffe", "\uffff", "\u202e", "é", "中"]
_NUMBERS = ["0", "-1", "7", "9", "10", "100001", "-100001", "9" * 8, "9" * 20, "1" + "0" * 310, "9" * 4400,
            "1e400", "NaN", "-0", "3.5", "00"]


def _mutate_text(text: str, rng: random.Random) -> str:
    """A few random edits: numbers, words, lines and characters."""
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if op == 0 and (nums := list(re.finditer(r"-?\d+(?:\.\d+)?", text))):
            m = rng.choice(nums)
            text = text[:m.start()] + rng.choice(_NUMBERS) + text[m.end():]
        elif op == 1:
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(_WORDS) + text[i:]
        elif op == 2 and text:
            i = rng.randrange(len(text))
            text = text[:i] + text[i + rng.randint(1, 40):]
        elif op == 3:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            text = "\n".join(lines)
        elif op == 4:
            lines = text.split("\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == 5 and text:
            i = rng.randrange(len(text))
            text = text[:i] + chr(rng.choice([0, 9, 10, 13, 27, 34, 35, 123, 125, 0xFFFE, 0x2028, 0xD7FF,
                                              rng.randrange(32, 0x3000)])) + text[i + 1:]
        else:
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] if rng.random() < 0.5 else text[cut:]
    return text


def _mutate_json(text: str, rng: random.Random) -> str:
    """Edits of a JSON document: values replaced, keys duplicated or invented, then (sometimes) text edits."""
    try:
        data = json.loads(text)
    except ValueError:
        return _mutate_text(text, rng)
    nodes: list[tuple[object, object]] = []

    def walk(node):
        if isinstance(node, dict):
            for k in list(node):
                nodes.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                nodes.append((node, i))
                walk(node[i])

    walk(data)
    for _ in range(rng.randint(1, 3)):
        if not nodes:
            break
        parent, key = rng.choice(nodes)
        choice = rng.randrange(6)
        try:
            if choice == 0:
                parent[key] = rng.choice([None, True, -1, 0, 10 ** 14, 10 ** 20, 1.5, "", "x", [], {}, "S" * 300,
                                          "N X S | F", "| |", "!purple N S | F N", "\u0000", "\ufffe"])
            elif choice == 1 and isinstance(parent, list):
                del parent[key]
                nodes = [(p, k) for p, k in nodes if p is not parent]
            elif choice == 2 and isinstance(parent, dict):
                parent[rng.choice(["extra", "Tuiles", "tiles", "spare_tire", "sketch", "q"])] = parent[key]
            elif choice == 3 and isinstance(parent, list):
                parent.append(parent[key])
            elif choice == 4 and isinstance(parent[key], str):
                parent[key] = _mutate_text(parent[key], rng)
            else:
                parent[key] = rng.choice([int("9" * 30), -(10 ** 6), 7, 0])
        except (IndexError, KeyError, TypeError):
            pass
    out = json.dumps(data, indent=rng.choice([None, 1, 2]), ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.15:  # a key written twice
        out = re.sub(r'\{"(\w+)": ', lambda m: '{"%s": 1, "%s": ' % (m.group(1), m.group(1)), out, count=1)
    if rng.random() < 0.25:
        out = _mutate_text(out, rng)
    return out


@dataclass
class Outcome:
    kind: str
    index: int
    status: str  # ok, traceback, exit, unlocated, timeout, memory
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Corpus:
    rally: list[tuple[str, str]] = field(default_factory=list)
    tracks: list[tuple[str, str]] = field(default_factory=list)
    records: list[tuple[str, str]] = field(default_factory=list)


def corpus() -> Corpus:
    c = Corpus()
    for p in sorted((ROOT / "examples").glob("*.rally")) + sorted((ROOT / "tests" / "bad").glob("*.rally")):
        c.rally.append((p.name, p.read_text(encoding="utf-8", errors="replace")))
    for p in sorted((ROOT / "tests" / "data" / "interop").glob("*")):
        if p.suffix in (".json", ".rgt"):
            c.tracks.append((p.name, p.read_text(encoding="utf-8-sig", errors="replace")))
    for p in sorted((ROOT / "examples" / "games").glob("*.json")):
        c.records.append((p.name, p.read_text(encoding="utf-8")))
    return c


def make_input(kind: str, index: int, seed: int, c: Corpus) -> tuple[str, str]:
    """(file name, text) of input ``index`` of ``kind`` (``rally``, ``tracks`` or ``records``)."""
    rng = random.Random(seed * 1_000_003 + index * 7 + {"rally": 0, "tracks": 1, "records": 2}[kind])
    name, text = rng.choice(getattr(c, kind))
    mutated = _mutate_text(text, rng) if kind == "rally" else _mutate_json(text, rng)
    return name, mutated


_LOCATED = re.compile(r"[^\s:]+:\d+:\d+:")


def _located(output: str) -> bool:
    """Every error line names file:line:column, or is a plain usage/I/O message (``rallyc...:`` / ``error:``)."""
    for line in output.splitlines():
        if "error[" in line and not _LOCATED.match(line):
            if not re.match(r"^error\[RC(001|100|101|102|118|119)\]", line):
                return False
    return True


_TRACK_CACHE: dict = {}


def _cached_tracks(real):
    def record_stages(data, base_dir):
        key = json.dumps({k: data.get(k) for k in ("track", "design", "sketch", "assistance")}, sort_keys=True) + \
            json.dumps([s.get("stage") for s in data.get("stages", []) if isinstance(s, dict)])
        if key not in _TRACK_CACHE:
            try:
                _TRACK_CACHE[key] = ("ok", real(data, base_dir))
            except Exception as e:  # noqa: BLE001 - replayed as raised
                _TRACK_CACHE[key] = ("raise", e)
        status, value = _TRACK_CACHE[key]
        if status == "raise":
            raise value
        return value

    return record_stages


def _setup_worker() -> None:
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):
        pass
    import rallyc.records.start as start

    # the importer of rallyc.records.stages.record_stages that sets up stage records and RX race records
    start.record_stages = _cached_tracks(start.record_stages)
    # warm up outside the time limit: the grammar tables and the bundled tilesets are read once per worker
    from typer.testing import CliRunner

    from rallyc.commands.cli import app

    CliRunner().invoke(app, ["check", str(ROOT / "examples" / "rally-1.rally")])


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_one(job: tuple[str, int, int]) -> Outcome:
    """Run input ``index`` of ``kind`` through its commands; the outcome says how it went."""
    from typer.testing import CliRunner

    from rallyc.commands.cli import app

    kind, index, seed = job
    c = _CORPUS
    name, text = make_input(kind, index, seed, c)
    start = time.perf_counter()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with tempfile.TemporaryDirectory(prefix="rallyc-fuzz-") as tmp:
            folder = Path(tmp)
            if kind == "records":
                for p in (ROOT / "examples").glob("*.rally"):
                    (folder / p.name).write_bytes(p.read_bytes())
                (folder / "games").mkdir()
                f = folder / "games" / name
            else:
                f = folder / name
            f.write_text(text, encoding="utf-8", errors="surrogatepass")
            if kind == "rally":
                runs = [["check", str(f)], ["fmt", "--check", str(f)]]
            elif kind == "tracks":
                runs = [["import", str(f), "-o", str(folder / "out.rally")]]
            else:
                runs = [["replay", str(f)]]
            for argv in runs:
                result = CliRunner().invoke(app, argv)
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    return Outcome(kind, index, "traceback", f"{' '.join(argv[:1])}: "
                                   f"{type(result.exception).__name__}: {result.exception}"[:300])
                if result.exit_code not in (0, 1, 2):
                    return Outcome(kind, index, "exit", f"{argv[0]} exit {result.exit_code}")
                if "Traceback" in result.output or "internal error" in result.output:
                    return Outcome(kind, index, "traceback", result.output[-300:])
                if not _located(result.output):
                    return Outcome(kind, index, "unlocated", result.output[:300])
                if kind == "tracks" and argv[0] == "import" and result.exit_code == 0 \
                        and (folder / "out.rally").exists():
                    again = CliRunner().invoke(app, ["check", str(folder / "out.rally")])
                    if again.exit_code == 1:
                        return Outcome(kind, index, "import-0-check-1", again.output[:300])
    except _Timeout:
        return Outcome(kind, index, "timeout", f"over {TIME_LIMIT} s")
    except MemoryError:
        return Outcome(kind, index, "memory", "over 1 GB")
    finally:
        signal.alarm(0)
    return Outcome(kind, index, "ok", seconds=time.perf_counter() - start)


_CORPUS = corpus()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rally", type=int, default=10_000)
    ap.add_argument("--tracks", type=int, default=2_000)
    ap.add_argument("--records", type=int, default=1_000)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", help="KIND:INDEX: run one input and print it")
    ap.add_argument("--keep", type=Path, help="write failing inputs into this folder")
    ap.add_argument("--report", type=Path, help="write the counts and failures as JSON")
    args = ap.parse_args(argv)
    if args.only:
        kind, index = args.only.split(":")
        name, text = make_input(kind, int(index), args.seed, _CORPUS)
        sys.stdout.write(text)
        _setup_worker()
        print(run_one((kind, int(index), args.seed)), file=sys.stderr)
        return 0
    jobs = ([("rally", i, args.seed) for i in range(args.rally)] + [("tracks", i, args.seed) for i in range(args.tracks)]
            + [("records", i, args.seed) for i in range(args.records)])
    start = time.perf_counter()
    counts: dict[str, dict[str, int]] = {}
    failures: list[Outcome] = []
    slowest = Outcome("", -1, "", seconds=0.0)
    with mp.get_context("fork").Pool(args.jobs, initializer=_setup_worker, maxtasksperchild=500) as pool:
        for n, out in enumerate(pool.imap_unordered(run_one, jobs, chunksize=8), start=1):
            counts.setdefault(out.kind, {}).setdefault(out.status, 0)
            counts[out.kind][out.status] += 1
            if out.status != "ok":
                failures.append(out)
            elif out.seconds > slowest.seconds:
                slowest = out
            if n % 500 == 0:
                print(f"  {n}/{len(jobs)} inputs, {len(failures)} failing, {time.perf_counter() - start:.0f} s",
                      file=sys.stderr)
    elapsed = time.perf_counter() - start
    print(f"fuzz seed {args.seed}: {len(jobs)} inputs in {elapsed:.0f} s on {args.jobs} worker(s); "
          f"slowest passing input {slowest.kind}:{slowest.index} {slowest.seconds:.2f} s")
    for kind in ("rally", "tracks", "records"):
        if kind in counts:
            print(f"  {kind:8} " + ", ".join(f"{k} {v}" for k, v in sorted(counts[kind].items())))
    for f in failures[:20]:
        print(f"  FAIL {f.kind}:{f.index} {f.status}: {f.detail.strip()[:200]}")
    if args.keep and failures:
        args.keep.mkdir(parents=True, exist_ok=True)
        for f in failures:
            name, text = make_input(f.kind, f.index, args.seed, _CORPUS)
            (args.keep / f"{f.kind}-{f.index}-{name}").write_text(text, encoding="utf-8", errors="surrogatepass")
    if args.report:
        args.report.write_text(json.dumps({"seed": args.seed, "seconds": round(elapsed), "counts": counts,
                                           "failures": [f.__dict__ for f in failures]}, indent=1, sort_keys=True),
                               encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
