"""The reference rules interpreter for Rallyman: DIRT (core rulebook and its advanced rules).

python-chess style: build a :class:`Stage` from a compiled :class:`~rallyc.compiler.track.Track` and
:class:`Player` s, ask :meth:`Stage.to_move` and :meth:`Stage.legal_plans`, and :meth:`Stage.play` a
:class:`Turn`; an illegal turn raises :class:`IllegalMove` naming the rule. :class:`Rally` chains stages;
:class:`Race` referees an RX race on a circuit. :class:`GameState` steps any of them from outside, one question at a
time (a player's decision or chance), with undo, clone and a state that serialises.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rallyc.rules.core.dice import Die
    from rallyc.rules.core.errors import IllegalMove, RulesError, StageOver
    from rallyc.rules.core.machine import CHANCE, GameState, MachineError, Pending, Plan, Question
    from rallyc.rules.core.options import Options
    from rallyc.rules.core.race import Race, RaceResult
    from rallyc.rules.rally import Rally, StageRecord
    from rallyc.rules.core.stage import Carry, Player, Stage, StageResult
    from rallyc.rules.core.state import Car, Card
    from rallyc.rules.core.turn import CardClaim, Outcome, Roll, Turn, ZeroSide

__all__ = ["Die", "IllegalMove", "RulesError", "StageOver", "Options", "Race", "RaceResult", "Rally", "StageRecord", "Carry", "Player",
           "Stage", "StageResult",
           "Car", "Card", "CardClaim", "Outcome", "Roll", "Turn", "ZeroSide",
           "GameState", "Plan", "Pending", "Question", "CHANCE", "MachineError"]

# start-up: the names are read from their modules on first use (PEP 562), so that importing one module of the
# package (the stage's referee, for `rallyc replay`) does not import the others with it (the machine that steps a
# game from outside, every variant)
_HOME = {"Die": "core.dice", "IllegalMove": "core.errors", "RulesError": "core.errors", "StageOver": "core.errors",
         "CHANCE": "core.machine", "GameState": "core.machine", "MachineError": "core.machine", "Pending": "core.machine",
         "Plan": "core.machine", "Question": "core.machine", "Options": "core.options", "Race": "core.race",
         "RaceResult": "core.race", "Rally": "rally", "StageRecord": "rally", "Carry": "core.stage",
         "Player": "core.stage", "Stage": "core.stage", "StageResult": "core.stage", "Car": "core.state",
         "Card": "core.state", "CardClaim": "core.turn", "Outcome": "core.turn", "Roll": "core.turn",
         "Turn": "core.turn", "ZeroSide": "core.turn"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
