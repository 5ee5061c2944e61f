"""Deprecated: the simulated races on a circuit moved to :mod:`rallyc.analysis.circuit_runs`, the greedy driver with a
Joker plan to :mod:`rallyc.analysis.circuit_driver` (issue 30); this alias stays for one release."""

from __future__ import annotations

import warnings

from rallyc.analysis.circuit_driver import JokerDriver
from rallyc.analysis.circuit_runs import (DISQUALIFIED, FINISHED, MAX_RACE_TURNS, RACING, RETIRED, CarRace,
                                          CircuitRules, RaceRun, circuit_rules, joker_plan, play_races,
                                          simulate_races)

__all__ = ["CarRace", "CircuitRules", "RaceRun", "circuit_rules", "simulate_races", "MAX_RACE_TURNS", "JokerDriver",
           "joker_plan", "play_races", "FINISHED", "RETIRED", "DISQUALIFIED", "RACING"]

warnings.warn("rallyc.analysis.rxsim is deprecated: import from rallyc.analysis.circuit_runs (JokerDriver: "
              "rallyc.analysis.circuit_driver)", DeprecationWarning, stacklevel=2)
