"""``rallyc check`` without typer: the report, its output file and the exit code.

:func:`run_check` is what ``rallyc check`` does once its arguments are read. Two front ends call it:
the typer command (:mod:`rallyc.commands.lang`, with ``--help`` and every usage message) and, for the
plain forms (paths, ``--format``, ``--output``, ``--select``, ``--ignore``, ``--no-cache``),
:func:`parse_check_args`
in the tiny entry point (:mod:`rallyc.__main__`), so that checking a folder does not pay for importing
typer and its parameter validation (pydantic): a check in CI should cost about as much as starting
Python with the libraries it uses. Anything :func:`parse_check_args` does not know goes to typer.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Sequence

from rallyc import __version__, api
from rallyc.commands.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, ExitCode, report_exception
from rallyc.diagnostics import render_json, render_sarif, render_text

__all__ = ["OutputFormat", "run_check", "parse_check_args"]

PROG = "rallyc check"


class OutputFormat(str, Enum):
    """What ``rallyc check`` prints: for people, or for CI systems."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
    gitlab = "gitlab"


def _rules_info() -> tuple[dict[str, str], dict[str, str]]:
    from rallyc.codes import all_codes  # every code's text: only SARIF needs it

    codes = all_codes()
    return {c: i.summary for c, i in codes.items()}, {c: i.fix for c, i in codes.items()}


def _output_problem(output: Path | None, paths: Sequence[str]) -> str | None:
    """Why ``-o`` must not be written (a folder, or one of the files to read), before any work."""
    if output is None or str(output) == "-":
        return None
    # start-up: writing an output file only when there is one
    from rallyc.commands.outputs import output_problem

    targets, _ = api.collect_files(paths)
    return output_problem(output, [t.path for t in targets])


def _exit_code(run: api.CheckResult) -> ExitCode:
    if run.io_error:
        return EXIT_USAGE
    return EXIT_OK if run.ok else EXIT_PROBLEMS


def report(run: api.CheckResult, fmt: OutputFormat) -> str:
    """The report of a check in ``fmt``."""
    if fmt is OutputFormat.json:
        return render_json(run.diagnostics, run.files)
    if fmt is OutputFormat.sarif:
        summaries, fixes = _rules_info()
        return render_sarif(run.diagnostics, __version__, summaries, fixes)
    if fmt is OutputFormat.github:
        # start-up: a CI system's format only when asked for
        from rallyc.diagnostics.ci_formats import render_github

        return render_github(run.diagnostics)
    if fmt is OutputFormat.gitlab:
        # start-up: a CI system's format only when asked for
        from rallyc.diagnostics.ci_formats import render_gitlab

        return render_gitlab(run.diagnostics)
    if not run.diagnostics:
        return f"{len(run.files)} file(s) checked, no problems\n"
    return render_text(run.diagnostics, run.sources)


def run_check(paths: Sequence[str], fmt: OutputFormat = OutputFormat.text, output: Path | None = None,
              select: Sequence[str] | None = None, ignore: Sequence[str] | None = None, no_cache: bool = False) -> int:
    """Check ``paths``, write the report (standard output, or ``output`` atomically) and give the exit code.

    Never raises: a problem is a message on standard error and exit code 2 (see :mod:`rallyc.commands.errors`).
    """
    try:
        problem = _output_problem(output, paths)
        if problem is not None:
            sys.stderr.write(f"{PROG}: {problem}\n")
            return EXIT_USAGE
        run = api.check(paths, select=select or None, ignore=ignore or None, cache=not no_cache)
        text = report(run, fmt)
        for warning in run.warnings:  # settings that tried to hide an error (it is reported all the same)
            sys.stderr.write(warning + "\n")
        if output is None or str(output) == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            # start-up: writing an output file only when there is one
            from rallyc.commands.outputs import write_output

            problem = write_output(output, text)
            if problem is not None:
                sys.stderr.write(f"{PROG}: {problem}\n")
                return EXIT_USAGE
        return _exit_code(run)
    except Exception as e:  # noqa: BLE001 - the one handler of this front end (as handles_errors for typer's)
        return report_exception(PROG, e)


_FLAGS = {"--no-cache": "no_cache"}
_VALUE_OPTIONS = {"--format": "format", "-f": "format", "--output": "output", "-o": "output",
                  "--select": "select", "--ignore": "ignore"}


def parse_check_args(args: Sequence[str]) -> dict | None:
    """The arguments of ``run_check`` from a plain ``rallyc check`` command line, or None when typer must read
    it (``--help``, an unknown option, a missing or unknown value, no path: typer prints the usage message)."""
    paths: list[str] = []
    values: dict[str, list[str]] = {"format": [], "output": [], "select": [], "ignore": []}
    flags = {name: False for name in _FLAGS.values()}
    i = 0
    only_paths = False
    while i < len(args):
        arg = args[i]
        if only_paths or arg == "-" or not arg.startswith("-"):
            paths.append(arg)
        elif arg == "--":
            only_paths = True
        elif arg in _FLAGS:
            flags[_FLAGS[arg]] = True
        elif "=" in arg and arg.split("=", 1)[0] in _VALUE_OPTIONS and arg.startswith("--"):
            name, value = arg.split("=", 1)
            values[_VALUE_OPTIONS[name]].append(value)
        elif arg in _VALUE_OPTIONS and i + 1 < len(args):
            values[_VALUE_OPTIONS[arg]].append(args[i + 1])
            i += 1
        else:
            return None
        i += 1
    if not paths or len(values["format"]) > 1 or len(values["output"]) > 1:
        return None
    try:
        fmt = OutputFormat(values["format"][0]) if values["format"] else OutputFormat.text
    except ValueError:
        return None
    output = Path(values["output"][0]) if values["output"] else None
    return dict(paths=paths, fmt=fmt, output=output, select=values["select"], ignore=values["ignore"], **flags)
