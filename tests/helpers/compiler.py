"""Shared helpers for the compiler tests: compile source text, pick out codes and lines."""

from __future__ import annotations

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load_text


def compile_text(text: str, tmp_path=None):
    """(CompileResult, Loaded) of source text (bundled tilesets in scope)."""
    loaded = load_text(text, "t.rally", base_dir=tmp_path)
    return compile_loaded(loaded), loaded


def track_of(text: str, name: str | None = None):
    result, _ = compile_text(text)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert not errors, [(d.code, d.message) for d in errors]
    return result.designs[0].track(name)


def codes(text: str) -> list[tuple[str, int | None]]:
    result, _ = compile_text(text)
    return [(d.code, d.span.line if d.span else None) for d in result.diagnostics]


def stage(*lines: str, name: str = "S") -> str:
    body = "\n".join("  " + line for line in lines)
    return f"stage {name} {{\n{body}\n}}\n"
