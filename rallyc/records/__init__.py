"""Game records: JSON files (schema ``schemas/game.schema.json``), loading with located errors,
conversion to and from :class:`rallyc.rules.Turn`, and the replay that checks a record against the rules."""

from rallyc.records.convert import turn_from_json, turn_to_json
from rallyc.records.load import RecordError, load_record, parse_record
from rallyc.records.replay import ReplayReport, replay_record

__all__ = ["RecordError", "load_record", "parse_record", "turn_from_json", "turn_to_json", "ReplayReport",
           "replay_record"]
