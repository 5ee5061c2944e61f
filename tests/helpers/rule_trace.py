"""pytest plugin: rule coverage by behaviour.

During the session it collects every rule ID the referee reports (applied by an outcome or named by a
refusal, :mod:`rallyc.rules.trace`). ``tests/test_rule_coverage.py`` runs last and compares that set (plus
the rules of the codes ``check`` reports) with the rule inventory. With ``RALLYC_RULE_TRACE=FILE`` the set is
also written to FILE at the end of the session (used when the coverage test runs in a partial session).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rallyc.rules import trace

#: rule IDs the referee reported in this session
SEEN: set[str] = set()
#: the test modules that had items in this session
MODULES: set[str] = set()
COVERAGE_MODULE = "test_rule_coverage.py"


def _collect(ids: tuple[str, ...]) -> None:
    SEEN.update(ids)


def pytest_configure(config: pytest.Config) -> None:
    trace.observe(_collect)


def pytest_unconfigure(config: pytest.Config) -> None:
    trace.unobserve(_collect)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The coverage test runs after every other test of the session."""
    last = [i for i in items if i.path.name == COVERAGE_MODULE]
    items[:] = [i for i in items if i.path.name != COVERAGE_MODULE] + last
    MODULES.update(i.path.name for i in items if i.path.name != COVERAGE_MODULE)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    out = os.environ.get("RALLYC_RULE_TRACE")
    if out:
        Path(out).write_text("\n".join(sorted(SEEN)) + "\n", encoding="utf-8")
