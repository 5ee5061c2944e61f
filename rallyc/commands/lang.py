"""The language commands: ``rallyc check``, ``rallyc fmt`` and ``rallyc explain``.

Exit codes (every rallyc command, :class:`rallyc.commands.errors.ExitCode`): 0 clean (warnings
allowed), 1 problems found, 2 usage or I/O error. The checking itself is :func:`rallyc.api.check`.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import List, Optional

import typer

from rallyc import api
from rallyc.commands.checking import OutputFormat, run_check
from rallyc.commands.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, handles_errors
from rallyc.commands.explaining import run_explain
from rallyc.diagnostics import Sources, render_text
from rallyc.project.fileio import write_atomic

__all__ = ["register"]


CHECK_EPILOG = """\b
Examples:
  rallyc check my-rally.rally
  rallyc check examples/ tilesets/          # folders are searched for *.rally
  cat stage.rally | rallyc check -          # - reads standard input
  rallyc check . --format sarif --output rallyc.sarif
  rallyc check . --format github            # annotations in a GitHub Actions log
  rallyc check . --format gitlab -o gl-code-quality.json
\b
Exit codes: 0 clean (warnings allowed), 1 problems found, 2 usage or I/O error.
--select, --ignore, the settings and `# rallyc: ignore` hide warnings, never errors.
Run `rallyc explain CODE` to learn what a code means and how to fix it."""


def check(
    paths: List[str] = typer.Argument(..., metavar="PATH",
                                      help="Files, folders (searched for *.rally) or - for standard input."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f",
                                        help="text for people, json (schemas/diagnostics.schema.json), sarif "
                                             "(SARIF 2.1.0), github (Actions annotations) or gitlab (Code "
                                             "Quality JSON) for CI."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to FILE instead of stdout."),
    select: Optional[List[str]] = typer.Option(None, "--select", metavar="CODES",
                                               help="Report only these codes or prefixes (RC3,RC604); replaces "
                                                    "the settings' select. Errors are always reported."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", metavar="CODES",
                                               help="Do not report these codes or prefixes; adds to the "
                                                    "settings' ignore. Errors cannot be ignored."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Check every file again (read and keep no results "
                                                            "in the user cache)."),
) -> None:
    """Check track files: syntax, includes, names, geometry, route, RX and inventory rules."""
    raise typer.Exit(run_check(paths, format, output, select, ignore, no_cache))


# ------------------------------------------------------------------ fmt


FMT_EPILOG = """\b
Examples:
  rallyc fmt my-rally.rally                 # rewrite in place (atomically)
  rallyc fmt --check .                      # CI: exit 1 and list files that would change
  rallyc fmt --diff tilesets/               # show what would change, write nothing
  rallyc fmt - < messy.rally > tidy.rally   # - formats standard input to standard output
\b
Files with syntax errors are reported and never rewritten.
Exit codes: 0 done (or nothing to change), 1 files would change (--check) or have
errors, 2 usage or I/O error."""


@handles_errors("rallyc fmt")
def fmt(
    paths: List[str] = typer.Argument(..., metavar="PATH",
                                      help="Files, folders (searched for *.rally) or - for standard input."),
    check_only: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if any file would change."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff of the changes; write nothing."),
) -> None:
    """Rewrite track files in the canonical layout (comments kept, meaning unchanged)."""
    # start-up: the parser (lark) only when a file is read
    from rallyc.project.loader import decode_source, read_source

    code = EXIT_OK
    targets, problems = api.collect_files(paths)
    if problems:
        typer.echo(render_text(problems), err=True, nl=False)
        code = EXIT_USAGE
    changed = unchanged = 0
    for t in targets:
        if t.path is None:
            text, err = decode_source(api.read_stdin(), t.display)
        else:
            text, err = read_source(t.path, t.display)
        if err is not None:
            typer.echo(render_text([err]), err=True, nl=False)
            code = max(code, EXIT_USAGE if err.code == "RC001" else EXIT_PROBLEMS)
            continue
        assert text is not None  # read (no error)
        new, diags = api.format(text, t.display)
        if new is None:
            sources = Sources()
            sources.add(t.display, text)
            typer.echo(render_text(diags, sources), err=True, nl=False)
            typer.echo(f"{t.display}: not formatted (fix the errors first)", err=True)
            code = max(code, EXIT_PROBLEMS)
            continue
        if t.path is None and not check_only and not diff:
            typer.echo(new, nl=False)
            continue
        if new == text:
            unchanged += 1
            continue
        changed += 1
        if diff:
            typer.echo("".join(difflib.unified_diff(
                text.splitlines(keepends=True), new.splitlines(keepends=True),
                fromfile=f"a/{t.display}", tofile=f"b/{t.display}")), nl=False)
        if check_only:
            typer.echo(f"would reformat {t.display}", err=True)
            code = max(code, EXIT_PROBLEMS)
        elif not diff:
            assert t.path is not None  # standard input is written to standard output above
            # through a symbolic link to its target: the link itself stays a link
            write_atomic(Path(os.path.realpath(t.path)), new)
            typer.echo(f"reformatted {t.display}", err=True)
    if targets and not (len(targets) == 1 and targets[0].path is None):
        verb = "would be reformatted" if (check_only or diff) else "reformatted"
        typer.echo(f"{changed} file(s) {verb}, {unchanged} unchanged", err=True)
    raise typer.Exit(code)


# ------------------------------------------------------------------ explain


EXPLAIN_EPILOG = """\b
Examples:
  rallyc explain RC130      # what "unknown tile" means, an example, the fix
  rallyc explain 130        # the RC prefix may be left out
  rallyc explain            # list every code with its summary
  rallyc explain CORE-JUMP-04   # a rule of the rulebooks, in rallyc's words, with its section"""


def explain(
    code: Optional[str] = typer.Argument(None, metavar="[CODE|RULE-ID]",
                                         help="A diagnostic code such as RC130, or a rule ID such as CORE-JUMP-04."),
) -> None:
    """Explain a diagnostic code (what it means, an example that triggers it, how to fix it) or a rule of the
    rulebooks (its statement in rallyc's words, with its book and section)."""
    raise typer.Exit(run_explain(code))


def register(app: typer.Typer) -> None:
    """Add ``check``, ``fmt`` and ``explain`` to the app."""
    app.command("check", epilog=CHECK_EPILOG)(check)
    app.command("fmt", epilog=FMT_EPILOG)(fmt)
    app.command("explain", epilog=EXPLAIN_EPILOG)(explain)
