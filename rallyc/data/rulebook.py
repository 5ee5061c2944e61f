"""The rule statements ``rallyc explain RULE-ID`` prints: ``rules.toml`` beside this module, one table per rule
ID of the rule inventory, each rule paraphrased in rallyc's own words with its book and section."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from difflib import get_close_matches
from functools import lru_cache
from importlib.resources import files

__all__ = ["RuleStatement", "Reading", "statements", "readings_of", "get", "suggest", "normalize_id",
           "looks_like_rule_id", "BOOKS", "KINDS"]

#: the books, as the ``book`` field names them
BOOKS = {"Core": "Rallyman: DIRT core rulebook", "MC": "Rallyman: DIRT Monte-Carlo rulebook",
         "RX": "Rallyman: DIRT RX rulebook"}
#: what each ``kind`` means
KINDS = {"track": "a property of a track, stage, rally or tour file", "move": "the legality of a placement or move",
         "resolve": "how a roll or event is resolved", "score": "times, positions and standings",
         "setup": "setting up the game", "option": "in force only when its optional rule is switched on"}
_BASIS = {"implied": "implied by the text, not stated", "example": "taken from an example in the book",
          "reading": "our reading of an ambiguous passage"}


@dataclass(frozen=True)
class RuleStatement:
    """One rule: its stable ID, where the rulebooks have it, and what it says in rallyc's words."""

    id: str
    group: str
    book: str
    section: str
    kind: str
    basis: str
    statement: str

    def text(self) -> str:
        """What ``rallyc explain RULE-ID`` prints: the statement, where it is, and the named readings the referee
        takes of it (:func:`readings_of`)."""
        lines = [f"{self.id} ({self.kind}): {self.statement}", "",
                 f"Book: {BOOKS.get(self.book, self.book)}",
                 f"Section: {self.section}",
                 f"Group: {self.group}; kind: {self.kind} ({KINDS.get(self.kind, self.kind)})"]
        if self.basis in _BASIS:
            lines.append(f"Basis: {_BASIS[self.basis]}")
        for reading in readings_of(self.id):
            lines += ["", *reading.lines()]
        lines += ["", "The statement is rallyc's paraphrase; the rulebook's own wording is the authority."]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Reading:
    """A named reading of ``components.toml`` (``[readings.NAME]``): what the referee takes where the text is silent
    or ambiguous, the rules it reads (``rules``), its value and the other choices a rules file may make."""

    name: str
    value: object
    choices: tuple
    why: str

    def lines(self) -> list[str]:
        """The reading as ``rallyc explain`` prints it."""
        others = [c for c in self.choices if c != self.value]
        alt = (f"; other choice{'s' if len(others) > 1 else ''}: {', '.join(map(str, others))} (`rallyc replay "
               f"--rules FILE` with [readings.{self.name}] value = ...)") if others else ""
        return [f"Reading {self.name} (named in components.toml): {self.value}{alt}.", self.why]


@lru_cache(maxsize=1)
def _readings() -> dict[str, list[Reading]]:
    """Rule ID -> the named readings that say which rules they read."""
    data = tomllib.loads(files(__package__).joinpath("components.toml").read_text(encoding="utf-8"))
    out: dict[str, list[Reading]] = {}
    for name, entry in sorted(data.get("readings", {}).items()):
        reading = Reading(name, entry.get("value"), tuple(entry.get("choices", ())), entry.get("why", ""))
        for rule in entry.get("rules", ()):
            out.setdefault(rule, []).append(reading)
    return out


def readings_of(rule_id: str) -> list[Reading]:
    """The named readings of ``components.toml`` that read the rule ``rule_id`` (their ``rules`` list)."""
    return _readings().get(normalize_id(rule_id), [])


@lru_cache(maxsize=1)
def statements() -> dict[str, RuleStatement]:
    """Every rule statement by ID, in inventory order."""
    data = tomllib.loads(files(__package__).joinpath("rules.toml").read_text(encoding="utf-8"))
    return {rid: RuleStatement(rid, **fields) for rid, fields in data.items()}


_ID = re.compile(r"^([A-Za-z]+(?:-[A-Za-z]+)*)-(\d{1,3})$")


def looks_like_rule_id(text: str) -> bool:
    """``CORE-JUMP-04``, ``core-jump-4``, ``IMPROV-01``: letters, hyphens and a number (not ``RC130``)."""
    return _ID.match(text.strip()) is not None


def normalize_id(text: str) -> str:
    """``core-jump-4`` -> ``CORE-JUMP-04``."""
    m = _ID.match(text.strip())
    if m is None:
        return text.strip().upper()
    return f"{m.group(1).upper()}-{int(m.group(2)):02d}"


def get(rule_id: str) -> RuleStatement | None:
    """The statement of a rule ID (any case, number with or without its leading zero), or None."""
    return statements().get(normalize_id(rule_id))


def suggest(rule_id: str, n: int = 3) -> list[str]:
    """The closest rule IDs to a mistyped one."""
    return get_close_matches(normalize_id(rule_id), list(statements()), n=n, cutoff=0.6)
