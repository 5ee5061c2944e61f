"""What a command says when its runs cannot go to a Dask cluster (``--cluster``)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from rallyc.commands.errors import fail, needs_extra

__all__ = ["cluster_errors"]


@contextmanager
def cluster_errors(prog: str) -> Iterator[None]:
    """Exit 2 with what to install (the ``cluster`` extra missing) or why the scheduler cannot be reached."""
    # start-up: the analysis only when runs are spread
    from rallyc.analysis.cluster import ClusterUnavailable

    try:
        yield
    except ImportError as e:
        if (e.name or "").split(".")[0] not in ("distributed", "dask"):
            raise
        raise needs_extra(prog, "--cluster needs Dask distributed", "cluster", e) from None
    except ClusterUnavailable as e:
        raise fail(str(e), prog=prog) from None
