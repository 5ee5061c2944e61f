"""``rallyc lsp`` without typer: start the language server, or say what is missing.

:func:`run_lsp` is what ``rallyc lsp`` does. The typer command (:mod:`rallyc.commands.authoring`, with ``--help``)
and the tiny entry point (:mod:`rallyc.__main__`, for the plain ``rallyc lsp`` an editor runs) both call it, so
that the server answers ``initialize`` without first paying for typer and its parameter validation (pydantic).
"""

from __future__ import annotations

from rallyc.commands.errors import needs_extra

__all__ = ["run_lsp"]


def run_lsp() -> None:
    """Run the language server on standard input/output until the client says exit; exit 2 with a message when
    pygls is not installed."""
    try:
        # start-up: pygls only for `rallyc lsp`
        from rallyc.lsp.server import serve
    except ImportError as e:
        raise needs_extra("rallyc lsp", "the language server needs pygls 2", "lsp", e)
    serve()
