"""Records and analysis modules moved by issue 30 keep their old path for one release: importing it warns
(DeprecationWarning) and gives the very objects of the module each name moved to."""

from __future__ import annotations

import importlib
import sys

import pytest

#: old module -> {name: the module it lives in now}
MOVED = {
    "rallyc.records.race": {
        "RaceReport": "rallyc.records.report", "replay_race": "rallyc.records.replay",
        "race_setup": "rallyc.records.start", "race_track": "rallyc.records.start",
        "race_engine": "rallyc.records.start", "rx_turn_from_json": "rallyc.records.convert",
        "rx_turn_to_json": "rallyc.records.convert", "bot_race_record": "rallyc.records.generate",
    },
    "rallyc.analysis.rxsim": {
        "simulate_races": "rallyc.analysis.circuit_runs", "circuit_rules": "rallyc.analysis.circuit_runs",
        "CircuitRules": "rallyc.analysis.circuit_runs", "RaceRun": "rallyc.analysis.circuit_runs",
        "joker_plan": "rallyc.analysis.circuit_runs", "play_races": "rallyc.analysis.circuit_runs",
        "JokerDriver": "rallyc.analysis.circuit_driver",
    },
    "rallyc.analysis.rxreport": {
        "CircuitAnalysis": "rallyc.analysis.circuit_report", "analyze_circuit": "rallyc.analysis.circuit_report",
        "circuits_text": "rallyc.analysis.circuit_report",
    },
    "rallyc.analysis.rxdriver": {
        "StrongRxDriver": "rallyc.analysis.circuit_driver", "CircuitAhead": "rallyc.analysis.circuit_driver",
    },
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_path_warns_and_gives_the_moved_objects(old: str) -> None:
    sys.modules.pop(old, None)  # a first import warns: another test may have imported it before
    with pytest.warns(DeprecationWarning, match=old.replace(".", r"\.") + " is deprecated"):
        module = importlib.import_module(old)
    for name, home in MOVED[old].items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name
        assert name in module.__all__


def test_replay_still_exports_what_it_exported() -> None:
    """``rallyc.records.replay`` kept its names (the report and the setup moved beside it)."""
    import rallyc.records.replay as replay
    from rallyc.records.report import ReplayReport, format_time
    from rallyc.records.stages import record_stages, record_tracks
    from rallyc.records.start import record_cards, start_rally

    assert (replay.ReplayReport, replay.start_rally, replay.record_cards, replay.format_time,
            replay.record_stages, replay.record_tracks) == (ReplayReport, start_rally, record_cards, format_time,
                                                            record_stages, record_tracks)
