"""`--cluster ADDRESS` (issue 35): runs on a real Dask distributed scheduler with two worker processes on this
machine give the same bytes as `--jobs 1` and `--jobs 2`; a worker lost mid-run is retried, not dropped
(``RALLYC_SLOW=1``, with the same comparison for `rallyc generate --par`).
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import distributed
import pytest
from typer.testing import CliRunner

from rallyc.analysis import DriverKind, analyze_track
from rallyc.analysis.simulate import simulate
from rallyc.commands.cli import app
import rallyc

ROOT = Path(__file__).resolve().parents[1]
RALLY_1 = ROOT / "examples" / "rally-1.rally"
SLOW = os.environ.get("RALLYC_SLOW") == "1"


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two worker processes (one thread each) on this machine."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as local:
        yield local


def _analyze(*extra: str) -> bytes:
    r = CliRunner().invoke(app, ["analyze", str(RALLY_1), "--stage", "SS1", "--runs", "6", "--table-runs", "0",
                                 "--against", "none",
                                 "-f", "json", *extra])
    assert r.exit_code == 0, (r.stderr, r.exception)
    return r.stdout_bytes


def test_analyze_gives_the_same_bytes_with_one_job_two_jobs_and_a_cluster(cluster):
    one = _analyze()
    assert _analyze("--jobs", "2") == one
    assert _analyze("--cluster", cluster.scheduler_address) == one


def test_an_unreachable_scheduler_is_a_usage_error():
    r = CliRunner().invoke(app, ["analyze", str(RALLY_1), "--stage", "SS1", "--runs", "2", "--cluster",
                                 "tcp://127.0.0.1:9"])
    assert r.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr
    assert "Traceback" not in r.stderr


if SLOW:
    def test_a_worker_lost_mid_run_is_retried_not_dropped(cluster):
        """One worker process is killed once the first runs are back; its runs are played again elsewhere."""
        track = rallyc.load(str(RALLY_1)).track("SS1")
        expected = simulate(track, 60, seed=3)
        with distributed.Client(cluster.scheduler_address) as client:
            victim = min(client.run(os.getpid).values())  # a worker process, killed as a machine dies
        killed = threading.Event()

        def progress(done: int, total: int) -> None:
            if not killed.is_set():
                killed.set()
                os.kill(victim, signal.SIGKILL)

        got = simulate(track, 60, seed=3, source=(RALLY_1, "SS1"), cluster=cluster.scheduler_address,
                       progress=progress)
        assert killed.is_set()
        with distributed.Client(cluster.scheduler_address) as client:
            assert victim not in client.run(os.getpid).values()  # it is gone (its nanny started another)
        assert [r.index for r in got] == list(range(60))
        assert got == expected

    def test_the_par_by_a_cluster_is_analyzes_par(cluster):
        local = analyze_track(rallyc.load(str(RALLY_1)).track("SS2"), runs=200, driver=DriverKind.strong)
        spread = analyze_track(rallyc.load(str(RALLY_1)).track("SS2"), runs=200, driver=DriverKind.strong,
                               source=(RALLY_1, "SS2"), cluster=cluster.scheduler_address)
        assert spread == local

    def test_generate_writes_the_same_bytes_with_one_job_two_jobs_and_a_cluster(cluster, tmp_path):
        outs = []
        for extra in ([], ["--jobs", "2"], ["--cluster", cluster.scheduler_address]):
            out = tmp_path / str(len(outs))
            r = CliRunner().invoke(app, ["generate", "-b", "dirt-core", "--class", "short", "--par", "2:00",
                                         "--seed", "5", "-o", str(out), *extra])
            assert r.exit_code == 0, (r.stderr, r.exception)
            outs.append({p.name: p.read_bytes() for p in out.iterdir()})
        assert outs[0] == outs[1] == outs[2]
