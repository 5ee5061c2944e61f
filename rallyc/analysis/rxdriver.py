"""Deprecated: the strong driver of races on a circuit moved to :mod:`rallyc.analysis.circuit_driver` (issue 30);
this alias stays for one release."""

from __future__ import annotations

import warnings

from rallyc.analysis.circuit_driver import CircuitAhead, RxWeights, StrongRxDriver, bypassed_stretch

__all__ = ["CircuitAhead", "RxWeights", "StrongRxDriver", "bypassed_stretch"]

warnings.warn("rallyc.analysis.rxdriver is deprecated: import from rallyc.analysis.circuit_driver", DeprecationWarning,
              stacklevel=2)
