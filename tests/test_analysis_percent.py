"""Shares of runs in `rallyc analyze`'s text: a share that is neither none nor all never reads 0% or 100%
(Rally 1 SS1 printed a corner where one run in 200 lost control as "0% of runs")."""

from __future__ import annotations

import pytest

from rallyc.analysis.report import percent


@pytest.mark.parametrize("share, text", [
    (0.0, "0%"), (1.0, "100%"), (0.52, "52%"), (0.045, "4%"), (0.005, "0.5%"), (1 / 200, "0.5%"),
    (199 / 200, "99.5%"), (0.0004, "<0.1%"), (0.9996, ">99.9%"), (1.21, "121%"),
])
def test_percent(share, text):
    assert percent(share) == text
