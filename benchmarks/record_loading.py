"""Loading game records: turns per second, the compiled-once schema check against jsonschema, in one run.

    python benchmarks/record_loading.py            # every record of examples/games, best of 5

``before``: what ``parse_record`` did until issue 11 (a new ``Draft202012Validator`` per record, every
error collected and sorted); ``after``: ``rallyc.records.load.parse_record`` (strict JSON, the schema
checked by ``jsonschema-rs``, its validator built once, ``jsonschema`` only for the messages of an invalid record).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def before(text: str) -> dict:
    import jsonschema

    from rallyc.records.load import record_schema

    data = json.loads(text)
    validator = jsonschema.Draft202012Validator(record_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(list(e.absolute_path)), list(map(str, e.absolute_path))))
    assert not errors
    return data


def after(text: str) -> dict:
    from rallyc.records.load import parse_record

    return parse_record(text)


def turns(data: dict) -> int:
    if "race" in data:
        return len(data["race"]["turns"])
    return sum(len(s["turns"]) for s in data["stages"])


def main() -> int:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples" / "games").glob("*.json"))]
    total = sum(turns(json.loads(t)) for t in texts)
    after(texts[0])  # compile the schema once, outside the timing
    results = {}
    for name, fn in (("before", before), ("after", after)):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for t in texts:
                fn(t)
            best = min(best, time.perf_counter() - t0)
        results[name] = best
        print(f"{name:7} {len(texts)} records, {total} turns: {best:.3f} s, {total / best:,.0f} turns/s")
    print(f"speed-up {results['before'] / results['after']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
