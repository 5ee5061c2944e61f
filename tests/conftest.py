"""Fixtures shared by the test modules.

Plain helper functions live in the ``helpers`` package beside this file (``helpers.compiler``,
``helpers.render``, ``helpers.rules``, ``helpers.paths``); pytest puts this folder on ``sys.path``, so
test modules import them as ``from helpers.compiler import codes``. Every input a test reads is inside
the repository: ``examples/``, ``tests/bad/`` and ``tests/data/`` (copies of the shared facts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from helpers.paths import BAD, DATA, EXAMPLES, ROOT

@pytest.fixture(scope="session")
def root() -> Path:
    """The repository's top folder."""
    return ROOT


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """``examples/``: published designs and recorded games."""
    return EXAMPLES


@pytest.fixture(scope="session")
def bad_dir() -> Path:
    """``tests/bad/``: one bad file per kind of mistake."""
    return BAD


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``tests/data/``: copies of the shared facts (catalogue, published layouts, rule inventory)."""
    return DATA


@pytest.fixture
def mini_track():
    """A small hand-built stage Track for the renderer (independent of the compiler)."""
    from helpers.render import mini_track as build

    return build()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (helpers.browser), one per test module."""
    from helpers.browser import headless_chromium

    with headless_chromium() as d:
        yield d
