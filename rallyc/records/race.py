"""Deprecated: RX race records moved to the module of each concern (issue 30), this alias stays for one release.

The report is :mod:`rallyc.records.report` (:class:`RaceReport`), the replay :mod:`rallyc.records.replay`
(:func:`replay_race`), the setup :mod:`rallyc.records.start` (:func:`race_setup`, :func:`race_track`,
:func:`race_engine`), a turn's JSON :mod:`rallyc.records.convert` (:func:`rx_turn_from_json`,
:func:`rx_turn_to_json`) and the bot's records :mod:`rallyc.records.generate` (:func:`bot_race_record`).
"""

from __future__ import annotations

import warnings

from rallyc.records.convert import rx_turn_from_json, rx_turn_to_json
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race
from rallyc.records.report import RaceReport
from rallyc.records.start import race_engine, race_setup, race_track

__all__ = ["RaceReport", "race_setup", "rx_turn_from_json", "rx_turn_to_json", "replay_race", "race_track", "race_engine",
           "bot_race_record"]

warnings.warn("rallyc.records.race is deprecated: import from rallyc.records.replay, .report, .start, .convert or "
              ".generate (see the module's docstring)", DeprecationWarning, stacklevel=2)
