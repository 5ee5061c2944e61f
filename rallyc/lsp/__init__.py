"""The rallyc language server (``rallyc lsp``, needs the ``lsp`` extra: pygls 2).

:mod:`rallyc.lsp.analysis` answers the questions (diagnostics, completion, hover,
definition, symbols, formatting, fixes) on plain text; :mod:`rallyc.lsp.server`
speaks the protocol.
"""
