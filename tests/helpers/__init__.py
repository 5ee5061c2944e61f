"""Helpers shared by the test modules (imported as ``helpers.compiler``, ``helpers.render``, ``helpers.rules``).

They are plain functions, not tests: ``compiler`` compiles source text and picks out codes and lines,
``render`` builds a small Track by hand for the renderer, ``rules`` sets up sketched stages, cars and turns.
"""
