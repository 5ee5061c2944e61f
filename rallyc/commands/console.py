"""The console streams of the command line (a module of its own: the entry point and the typer app share it)."""

import sys

__all__ = ["console_survives_any_code_page"]


def console_survives_any_code_page() -> None:
    """A character the console cannot show (a Windows code page) is printed as an escape (``\\u4e2d``)
    instead of ending the command with UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
        except (AttributeError, ValueError):  # replaced by a test runner, or already closed
            pass
