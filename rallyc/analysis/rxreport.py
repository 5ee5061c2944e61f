"""Deprecated: a circuit's report moved to :mod:`rallyc.analysis.circuit_report` (issue 30); this alias stays for one
release."""

from __future__ import annotations

import warnings

from rallyc.analysis.circuit_report import (CircuitAnalysis, GridPlace, JokerLap, LapTimes, analyse_circuit,
                                            analyze_circuit, circuit_text, circuits_text)

__all__ = ["JokerLap", "LapTimes", "GridPlace", "CircuitAnalysis", "analyse_circuit", "analyze_circuit", "circuit_text",
           "circuits_text"]

warnings.warn("rallyc.analysis.rxreport is deprecated: import from rallyc.analysis.circuit_report", DeprecationWarning,
              stacklevel=2)
