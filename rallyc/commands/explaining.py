"""``rallyc explain`` without typer: what it prints and its exit code.

:func:`run_explain` is what ``rallyc explain`` does once its argument is read. Two front ends call it: the typer
command (:mod:`rallyc.commands.lang`, with ``--help`` and every usage message) and, for the plain forms
(``rallyc explain`` and ``rallyc explain CODE``), the tiny entry point (:mod:`rallyc.__main__`), so that
looking a code up costs about what starting Python costs: no typer, no pydantic (typer's parameter
validation), nothing of the compiler.
"""

from __future__ import annotations

import difflib
import sys
from typing import Sequence

from rallyc.codes import all_codes
from rallyc.codes.explain import explain_text, normalise_code
from rallyc.commands.errors import EXIT_OK, EXIT_USAGE

__all__ = ["run_explain", "parse_explain_args"]


def _explain_rule(rule_id: str) -> int:
    """Print a rule's statement (``rallyc explain CORE-JUMP-04``) and give 0, or say it is unknown and give 2."""
    # start-up: the rule statements (TOML) only when a rule is looked up
    from rallyc.data import rulebook

    statement = rulebook.get(rule_id)
    if statement is not None:
        sys.stdout.write(statement.text())
        return EXIT_OK
    close = rulebook.suggest(rule_id)
    hint = ("did you mean " + " or ".join(close) + "?") if close else \
        "rule IDs look like CORE-JUMP-04 (docs/options.md); `rallyc explain` lists every code"
    sys.stderr.write(f"rallyc explain: unknown rule or code {rule_id}; {hint}\n")
    return EXIT_USAGE


def run_explain(code: str | None) -> int:
    """Print what a diagnostic code or a rule ID means (every code with its summary when ``code`` is None) and give
    the exit code: 0, or 2 for an unknown code or rule."""
    codes = all_codes()
    if code is None:
        sys.stdout.write("".join(f"{c}  {info.severity:<7}  {info.summary}\n" for c, info in codes.items()))
        return EXIT_OK
    # start-up: the rule statements (TOML) only when a rule is looked up
    from rallyc.data.rulebook import looks_like_rule_id

    if looks_like_rule_id(code) and not normalise_code(code).startswith("RC"):
        return _explain_rule(code)
    text = explain_text(code)
    if text is None:
        close = difflib.get_close_matches(normalise_code(code), list(codes), n=3, cutoff=0.6)
        hint = ("did you mean " + " or ".join(close) + "?") if close else "run `rallyc explain` to list every code"
        sys.stderr.write(f"rallyc explain: unknown code {code}; {hint}\n")
        return EXIT_USAGE
    sys.stdout.write(text)
    return EXIT_OK


def parse_explain_args(args: Sequence[str]) -> dict | None:
    """The arguments of :func:`run_explain` from a plain ``rallyc explain [CODE]`` command line, or None when typer
    must read it (an option such as ``--help``, ``--``, more than one argument: typer prints the usage message)."""
    if not args:
        return {"code": None}
    if len(args) == 1 and not args[0].startswith("-"):
        return {"code": args[0]}
    return None
