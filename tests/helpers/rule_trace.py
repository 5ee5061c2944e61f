"""pytest plugin: rule coverage by behaviour.

During the session it collects every rule ID the referee reports (applied by an outcome or named by a
refusal, :mod:`rallyc.rules.trace`). ``tests/test_rule_coverage.py`` runs last and compares that set (plus
the rules of the codes ``check`` reports) with the rule inventory. With ``RALLYC_RULE_TRACE=FILE`` the set is
also written to FILE at the end of the session (used when the coverage test runs in a partial session).

Under pytest-xdist (the README's ``-n auto``) each worker sees part of the session: the workers leave the coverage
test out, hand their IDs and the modules they ran to the controller, and the controller runs the coverage test
once every worker is done, in a child pytest given the merged IDs (``RALLYC_RULE_IDS``); its failure fails the
session.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from rallyc.rules import trace

#: rule IDs the referee reported in this session
SEEN: set[str] = set()
#: the test modules that had items in this session, and those whose tests ran (in this process or, on the
#: pytest-xdist controller, in any worker)
MODULES: set[str] = set()
RAN: set[str] = set()
#: a pytest-xdist worker left the coverage test to the controller
HANDED_OVER = "coverage_handed_over"
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
    if last and hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller runs it at the end
        items[:] = items[:-len(last)]
        config.hook.pytest_deselected(items=last)
        config.workeroutput[HANDED_OVER] = True  # type: ignore[attr-defined]


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    RAN.add(Path(location[0]).name)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """pytest-xdist controller: merge what a worker reported."""
    out = getattr(node, "workeroutput", {})
    SEEN.update(out.get("rule_ids", ()))
    RAN.update(out.get("ran", ()))
    if out.get(HANDED_OVER):
        MODULES.add(COVERAGE_MODULE)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    out = os.environ.get("RALLYC_RULE_TRACE")
    if out:
        Path(out).write_text("\n".join(sorted(SEEN)) + "\n", encoding="utf-8")
    config = session.config
    if hasattr(config, "workerinput"):
        config.workeroutput["rule_ids"] = sorted(SEEN)  # type: ignore[attr-defined]
        config.workeroutput["ran"] = sorted(RAN)  # type: ignore[attr-defined]
    elif COVERAGE_MODULE in MODULES and RAN:
        _run_coverage_on_controller(session)


def _run_coverage_on_controller(session: pytest.Session) -> None:
    """The coverage test the workers left out, run in a child pytest with the IDs they reported."""
    root = Path(__file__).resolve().parents[2]
    every = {p.name for p in (root / "tests").glob("test_*.py")} - {COVERAGE_MODULE}
    env = dict(os.environ)
    env.pop("RALLYC_RULE_TRACE", None)
    with tempfile.TemporaryDirectory() as tmp:
        if every <= RAN:  # the whole session ran: its IDs are the coverage's (else the child collects its own)
            ids = Path(tmp) / "rule-ids.txt"
            ids.write_text("\n".join(sorted(SEEN)) + "\n", encoding="utf-8")
            env["RALLYC_RULE_IDS"] = str(ids)
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-rfE",
                              f"tests/{COVERAGE_MODULE}"], cwd=root, env=env, capture_output=True, text=True)
    writer = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = run.stdout.rstrip().splitlines()
    if writer is not None:
        writer.write_line(f"rule coverage (tests/{COVERAGE_MODULE}, after the workers): {lines[-1] if lines else ''}")
        if run.returncode != 0:
            writer.write_line(run.stdout[-6000:] + run.stderr[-2000:])
    if run.returncode != 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
