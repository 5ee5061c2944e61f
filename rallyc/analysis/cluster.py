"""Runs on a Dask distributed cluster (``--cluster ADDRESS``, the ``cluster`` extra, imported only here).

Each task is one chunk of run indices, played by the same module-level function a local process pool calls;
the results come back in task order whatever worker played them, so a cluster gives the same figures as
``--jobs 1``. A worker lost mid-run is no failure of the task: the scheduler gives its tasks to another
worker (Dask's own rescheduling, up to its ``allowed-failures``); a task that raises is retried
:data:`RETRIES` times before the error is reported.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Sequence

__all__ = ["ClusterUnavailable", "cluster_map", "RETRIES"]

#: retries of a task that raised (a worker lost is rescheduled by the scheduler, not counted here)
RETRIES = 2
#: seconds to wait for the scheduler to answer
CONNECT_TIMEOUT = 10


class ClusterUnavailable(RuntimeError):
    """The scheduler cannot be reached."""


def cluster_map(address: str, fn: Callable[[Any], Any], tasks: Sequence[Any],
                progress: Callable[[int, int], None] | None = None) -> list[Any]:
    """``[fn(t) for t in tasks]`` on the cluster whose scheduler is at ``address``; ``progress(done, total)`` is
    called as tasks come back."""
    # the optional extra (ImportError when it is not installed: the command says what to install)
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {e}") from e
    with client:
        batch = uuid.uuid4().hex
        futures = [client.submit(fn, t, key=f"rallyc-{batch}-{i}", pure=False, retries=RETRIES)
                   for i, t in enumerate(tasks)]
        done = 0
        for _ in as_completed(futures, loop=client.loop):
            done += 1
            if progress is not None:
                progress(done, len(tasks))
        return client.gather(futures)
