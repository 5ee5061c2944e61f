"""Exit codes and error handling shared by every command: one table, one decorator.

Every command exits 0 when all went well (warnings allowed), 1 when it found problems in the user's
files, 2 for a usage or I/O problem. No command prints a traceback: :func:`handles_errors` turns an
exception into one line on standard error (``rallyc CMD: what``) and exit code 2.
"""

from __future__ import annotations

import functools
import sys
from enum import IntEnum
from typing import Callable, TypeVar

__all__ = ["ExitCode", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE", "fail", "handles_errors", "report_exception",
           "error_line", "record_error_line", "needs_extra"]


class ExitCode(IntEnum):
    """The exit codes of every rallyc command."""

    #: done; no problem found (warnings allowed)
    OK = 0
    #: problems in the user's files (errors found, a file that would change under ``fmt --check``)
    PROBLEMS = 1
    #: a usage or I/O problem: a missing file, a bad option, an unwritable output, a bad settings file
    USAGE = 2


EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = ExitCode.OK, ExitCode.PROBLEMS, ExitCode.USAGE

F = TypeVar("F", bound=Callable[..., object])


def fail(message: str, code: int = EXIT_USAGE, prog: str = "rallyc") -> SystemExit:
    """Print ``prog: message`` on standard error and give the exit to raise."""
    sys.stderr.write(f"{prog}: {message}\n")
    sys.stderr.flush()
    return SystemExit(int(code))


def error_line(where: str, message: str, code: str | None = None, severity: str = "error") -> str:
    """One located problem in ``rallyc check``'s form, for every command: ``file:line:col: error[CODE]: message``
    (``where`` is ``file:line:col``, or just ``file`` when the place is not known; without a code,
    ``file:line:col: error: message``)."""
    head = f"{severity}[{code}]" if code else severity
    return f"{where}: {head}: {message}" if where else f"{head}: {message}"


def record_error_line(e, severity: str = "error") -> str:
    """A game record's problem (a :class:`rallyc.records.load.RecordError`, or a replay's illegal event with
    ``file``, ``line``, ``column``, ``path``, ``rule_id`` and ``message``) as :func:`error_line`: the rule ID in
    the brackets, the JSON path before the message."""
    where = e.file or "<record>"
    if e.line is not None:
        where += f":{e.line}:{e.column}"
    message = f"{e.path}: {e.message}" if e.path else e.message
    return error_line(where, message, e.rule_id, severity)


def needs_extra(prog: str, what: str, extra: str, e: ImportError) -> SystemExit:
    """The exit (2) of a command whose feature lives in an extra that is not installed, after saying which module
    is missing and how to install it: ``rallyc lsp: the language server needs pygls 2 (pygls);
    install it with pip install 'rallyc[lsp]'``. Features with heavier dependencies are extras
    (``[project.optional-dependencies]`` in pyproject.toml), imported only by their command (docs/development.md)."""
    return fail(f"{what} ({e.name or e}); install it with pip install 'rallyc[{extra}]'", EXIT_USAGE, prog)


def _passes_through(e: BaseException) -> bool:
    # typer's (click's) own exits and usage errors are typer's to handle
    return type(e).__module__.split(".")[0] in ("typer", "click")


def report_exception(prog: str, e: Exception) -> int:
    """Say on standard error what went wrong and give the exit code.

    A settings problem (:class:`ConfigError`) or an OSError is a usage/I/O problem (exit 2, the file named);
    a :class:`DiagnosticError` prints its located diagnostics (exit 1); anything else is a bug in rallyc,
    reported in one line (exit 2), never as a traceback.
    """
    # start-up: the settings and the diagnostics only when something went wrong (`rallyc explain` needs neither)
    from rallyc.project.config import ConfigError
    from rallyc.diagnostics import DiagnosticError, render_text

    if isinstance(e, ConfigError):
        message = str(e)
    elif isinstance(e, DiagnosticError):
        sys.stderr.write(render_text(e.diagnostics))
        sys.stderr.flush()
        return EXIT_PROBLEMS
    elif isinstance(e, OSError):
        message = f"{e.strerror or e}: {e.filename or ''}"
    else:
        message = f"internal error: {type(e).__name__}: {e} (this is a bug in rallyc)"
    fail(message, EXIT_USAGE, prog)
    return EXIT_USAGE


def handles_errors(prog: str) -> Callable[[F], F]:
    """Decorate a command: an exception it raises becomes a message on standard error and an exit code
    (:func:`report_exception`); typer's own exits and usage errors pass through."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def run(*args, **kwargs):
            try:
                return command(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - the one place exceptions become exit codes
                if _passes_through(e):
                    raise
                raise SystemExit(int(report_exception(prog, e))) from None

        return run  # type: ignore[return-value]

    return decorate
