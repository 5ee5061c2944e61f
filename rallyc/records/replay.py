"""Replay a game record under the rules: every turn validated, results computed, first error located.

One module for every game form: a rally's stages (:func:`replay_record`) and an RX, Ice or custom race
(:func:`replay_race`, which :func:`replay_record` calls for a record with a ``race``). The game is set up by
:mod:`rallyc.records.start`, its turns played by :func:`rallyc.records.drive.play_turns` and written into the report
of :mod:`rallyc.records.report`; what differs between the forms is the setup, the end of a stage or of the race, and
the claims checked there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rallyc.compilation.collector import paused
from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.records.drive import play_turns
from rallyc.records.explain import once
from rallyc.records.load import RecordError, record_problem
from rallyc.records.report import RACE, STAGE, RaceReport, ReplayReport, format_time, race_result_json
from rallyc.records.stages import default_components, record_stages, record_tracks
from rallyc.records.start import race_start, race_track, record_cards, start_rally
from rallyc.records.game_options import record_design
from rallyc.records.tracks import one_look
from rallyc.rules.core.claims import check_classification, check_race_result, check_stage_times
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.rally import Rally
from rallyc.rules.core.stage import Stage
from rallyc.rules.variants.technical_h2h import TechnicalHeadToHead
from rallyc.rules.core.trace import game_log

# the report (rallyc.records.report), the setup (rallyc.records.start) and the stages' tracks (rallyc.records.stages)
# stay importable from here, where they were
__all__ = ["ReplayReport", "RaceReport", "replay_record", "replay_race", "start_rally", "record_cards", "record_tracks",
           "record_stages", "default_components", "format_time"]

#: a die's Full Contact keys (RX-PUSH, RX-THROUGH), which need format rallyc-game/2
_CONTACT_KEYS = ("push", "through", "push_to")


# the collector paused, no young collection after: a replay makes no cyclic garbage (tests/test_replay_garbage.py),
# and that collection would walk every young object, the record the caller has just read among them
@paused()
@one_look()
def replay_record(data: dict[str, Any], base_dir: Path | str = ".", components: Components | None = None,
                  tracks: list[Track] | None = None, flippers: list[Flipper | None] | None = None, explain: bool = True
                  ) -> "ReplayReport | RaceReport":
    """Replay a parsed record; the report holds the first illegal event (``report.error``) if any.

    ``flippers`` go with given ``tracks`` (see :func:`record_stages`). ``explain=False`` leaves each turn's
    rule IDs (``applied``, ``rallyc replay --explain``: the turn's rule log) out of the report; the rules the game
    applied outside its turns are the report's ``applied`` (its game log)."""
    with game_log() as game:
        report = _replay_record(data, base_dir, components, tracks, flippers, explain)
    report.applied = once(game)
    return report


def _replay_record(data: dict[str, Any], base_dir: Path | str, components: Components | None, tracks: list[Track] | None,
                   flippers: list[Flipper | None] | None, explain: bool) -> "ReplayReport | RaceReport":
    problem = record_problem(data)  # a record built in Python has seen no schema check
    if problem is not None:
        raise RecordError(problem[1], path=problem[0])
    components = components or default_components()
    base = base_dir if isinstance(base_dir, Path) else Path(base_dir)
    if "race" in data:  # an RX, Ice or custom race
        return replay_race(data, base, components, tracks[0] if tracks else None, explain=explain)
    rally, tracks, title = start_rally(data, base, components, tracks, flippers)
    report = ReplayReport(title=data.get("title", title))
    try:
        for si, st in enumerate(data["stages"]):
            _replay_stage(rally, st, f"$.stages[{si}]", tracks[si].name, report, explain)
        report.classification = [{"name": n, "overall": t} for n, t in rally.classification()]
        try:
            check_classification(data.get("classification", []), rally)
        except IllegalMove as e:
            raise e.at("$")
    except IllegalMove as e:
        report.error = e.kept()  # no frames kept: they would hold the report, a cycle
    return report


def _replay_stage(rally: Rally, st: dict[str, Any], sp: str, name: str, report: ReplayReport, explain: bool) -> None:
    """One stage of the record (``st``, at path ``sp``) started, played turn by turn and ended, its entry added to
    the report as it goes (a stage left unfinished by an error keeps the rounds played)."""
    try:
        stage = rally.start_stage(st.get("order"), st.get("tires"))
    except IllegalMove as e:
        raise e.at(sp)
    entry: dict[str, Any] = {"stage": name, "order": list(stage.start_order), "rounds": []}
    report.stages.append(entry)
    play_turns(stage, st["turns"], f"{sp}.turns", entry["rounds"], STAGE, explain)
    _end_stage(rally, stage, st, sp, entry)
    report.after_stage.append([{"name": n, "overall": t} for n, t in rally.classification()])


def _end_stage(rally: Rally, stage: Stage, st: dict[str, Any], sp: str, entry: dict[str, Any]) -> None:
    """The end of a stage (spare tires between stages, checkpoint penalties): its times, Assistance and the damage
    carried into the report's ``entry``, then the record's claimed stage times checked by the referee."""
    try:
        rec = rally.end_stage(spare_between=st.get("spare_tire", []), penalties=st.get("checkpoint"))
    except IllegalMove as e:
        raise e.at(sp)
    res = rec.result
    entry["times"] = dict(sorted(rec.times.items()))
    if isinstance(stage, TechnicalHeadToHead):
        entry["focus"] = True  # the Flat Out's tokens are Focus tokens (CUSTOM-07)
    entry["assistance"] = rec.assistance
    entry["carried"] = dict(sorted(rec.carried.items()))
    entry["detail"] = {n: {"cards": res.cards[n], "tokens": res.tokens[n], "penalty": 5 * rec.penalties.get(n, 0),
                           "status": stage.cars[n].status} for n in sorted(res.times)}
    try:
        check_stage_times(st.get("times", {}), rec, stage)
    except IllegalMove as e:
        raise e.at(sp)


@one_look()
def replay_race(data: dict[str, Any], base_dir: Path | str = ".", components: Components | None = None,
                track: Track | None = None, explain: bool = True) -> RaceReport:
    """Replay an RX race record; the report holds the first illegal event (``report.error``) if any.
    ``explain=False`` leaves each turn's rule IDs (``applied``) out of the report."""
    if components is None:
        components = default_components()
    own_track = track is None
    base = base_dir if isinstance(base_dir, Path) else Path(base_dir)
    if track is None:
        track, title = race_track(data, base)
    else:
        title = data.get("title", "")
    design = record_design(data, base) if own_track else None
    start = race_start(data, design, track, components)
    race, weather = start()
    fmt = race.format
    _check_contact_format(data)
    report = RaceReport(title=data.get("title", title), circuit=track.name, laps=race.laps.laps, format=fmt.name,
                        weather=weather,
                        grid=[{"player": n, "space": race.cars[n].space} for n in race.grid_order])
    try:
        play_turns(race, data["race"]["turns"], "$.race.turns", report.rounds, RACE, explain)
        res = race.result()
        report.result = race_result_json(res)
        try:
            check_race_result(data["race"].get("result", {}), res)
        except IllegalMove as e:
            raise e.at("$.race")
    except IllegalMove as e:
        report.error = e.kept()  # no frames kept: they would hold the report, a cycle
    return report


def _check_contact_format(data: dict[str, Any]) -> None:
    """A Full Contact key on a die (RX-PUSH, RX-THROUGH) needs format rallyc-game/2: :class:`RecordError` at the
    first in a rallyc-game/1 record."""
    if data.get("format") != "rallyc-game/1":
        return
    for ti, tj in enumerate(data["race"]["turns"]):
        for key in ("dice", "relaid"):
            for di, d in enumerate(tj.get(key, [])):
                for k in _CONTACT_KEYS:
                    if k in d:
                        raise RecordError(f"a Full Contact `{k}` needs format rallyc-game/2",
                                          path=f"$.race.turns[{ti}].{key}[{di}].{k}")
