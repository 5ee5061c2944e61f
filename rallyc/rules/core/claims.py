"""What a record claims the rules decided, checked against the referee: a race turn's laps, weather and Joker
once the turn is played, a rally's stage times and classification, a race's result.

Each check raises :class:`~rallyc.rules.core.errors.IllegalMove` naming the rule, its path relative to the claim's
object (the replay puts the record's path in front).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, NotRequired, Sequence, TypedDict

from rallyc.rules.core.errors import IllegalMove

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.race import RaceResult, RxOutcome
    from rallyc.rules.rally import Rally, StageRecord
    from rallyc.rules.core.stage import Stage
    from rallyc.rules.core.turn import Turn

__all__ = ["check_left", "check_stage_times", "check_classification", "check_race_result", "format_time",
           "ClassificationClaim"]


class ClassificationClaim(TypedDict):
    """A row of a rally record's ``classification``: a player and, optionally, the overall time claimed."""

    name: str
    overall: NotRequired[int]


def format_time(seconds: int | None) -> str:
    """``175`` -> ``2:55`` (CORE-STAGEEND-08's example); ``None`` -> ``--``."""
    if seconds is None:
        return "--"
    sign = "-" if seconds < 0 else ""
    m, s = divmod(abs(seconds), 60)
    return f"{sign}{m}:{s:02d}"


def check_left(turn: "Turn", out: "RxOutcome") -> None:
    """A race turn's claims of what it left against its outcome: the laps completed (RX-END-01), the weather
    after it (RX-WEATHER-04), the Joker (RX-JOKER-03)."""
    if turn.laps is not None and turn.laps != out.laps:
        raise IllegalMove("RX-END-01", f"{out.player} has completed {out.laps} lap(s), not {turn.laps}", "laps")
    if turn.weather is not None and turn.weather != out.weather:
        raise IllegalMove("RX-WEATHER-04", f"the weather turns {out.weather or 'nowhere'} after this turn, "
                                           f"not {turn.weather}", "weather")
    if turn.joker is not None and turn.joker != out.joker:
        raise IllegalMove("RX-JOKER-03", f"{out.player}'s Joker is {out.joker}, not {turn.joker}", "joker")


def check_stage_times(claims: Mapping[str, int], rec: "StageRecord", stage: "Stage") -> None:
    """The claimed stage times against the referee's (CORE-STAGEEND-08; a retired car's CORE-RETIRE-03)."""
    times = rec.times
    for name, claimed in claims.items():
        if name not in times:
            raise IllegalMove("CORE-RALLY-01", f"no player {name!r}", f"times.{name}")
        if claimed != times[name]:
            rule = "CORE-RETIRE-03" if stage.cars[name].status == "retired" else "CORE-STAGEEND-08"
            raise IllegalMove(rule, f"{name}'s stage time is {times[name]} s "
                                    f"({format_time(times[name])}), not {claimed} s", f"times.{name}")


def check_classification(claims: Sequence[ClassificationClaim], rally: "Rally") -> None:
    """The claimed rally classification against the referee's: each position (CORE-RALLY-15; a Technical
    Head-to-Head's, first across the line, CUSTOM-05) and overall time (CORE-RALLY-14)."""
    classification = rally.classification()
    first_across = bool(rally.stages) and rally.stages[-1].result.ranking is not None
    for i, row in enumerate(claims):
        if i >= len(classification) or row["name"] != classification[i][0]:
            rule = "CUSTOM-05" if first_across else "CORE-RALLY-15"
            raise IllegalMove(rule, f"position {i + 1} is "
                                    f"{classification[i][0] if i < len(classification) else 'nobody'}",
                              f"classification[{i}].name")
        if "overall" in row and row["overall"] != classification[i][1]:
            raise IllegalMove("CORE-RALLY-14", f"{row['name']}'s overall time is {classification[i][1]} s",
                              f"classification[{i}].overall")


def check_race_result(claims: Mapping[str, list[str]], result: "RaceResult") -> None:
    """The claimed result of a race against the referee's: the finishing order (RX-END-03), the disqualified
    (RX-JOKER-04) and the retired (CORE-RETIRE-01)."""
    for key, rule in (("order", "RX-END-03"), ("disqualified", "RX-JOKER-04"), ("retired", "CORE-RETIRE-01")):
        got = getattr(result, key)
        if key in claims and claims[key] != got:
            raise IllegalMove(rule, f"the {key} is {got or 'nobody'}, not {claims[key]}", f"result.{key}")
