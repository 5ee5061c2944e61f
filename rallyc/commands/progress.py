"""A progress line for long runs (analyze, generate): standard error, rewritten in place, on a terminal only."""

from __future__ import annotations

import sys

__all__ = ["Progress"]


class Progress:
    """One line on standard error, rewritten in place, only when standard error is a terminal (a log or a pipe
    gets nothing)."""

    def __init__(self, prog: str) -> None:
        self.prog = prog
        self.on = sys.stderr.isatty()
        self.width = 0

    def __call__(self, message: str) -> None:
        """Show ``message`` in place of the last one."""
        if not self.on:
            return
        line = f"{self.prog}: {message}"
        sys.stderr.write("\r" + line.ljust(self.width))
        sys.stderr.flush()
        self.width = len(line)

    def runs(self, what: str):
        """A ``progress(done, total)`` callback that shows ``WHAT: done/total runs`` (None off a terminal: the
        runs are then not cut into small tasks for it)."""
        if not self.on:
            return None
        return lambda done, total: self(f"{what}: {done}/{total} runs")

    def done(self) -> None:
        """Clear the line (before the results are printed)."""
        if self.on and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0
