"""Advanced rules in force (Core: Advanced Rules, Monte-Carlo: Handbrake turn, Weather) for a stage or a rally."""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["Options", "SISU_ALLOCATIONS"]

#: when a used SISU token comes back (CORE-ADV-15)
SISU_ALLOCATIONS = ("per-stage", "per-rally", "assistance")


@dataclass(frozen=True)
class Options:
    """Switches for the optional rules; all off by default (the core game)."""

    #: CORE-ADV-01..06: start from Gear 0 with the Gear 2 die
    flying_start: bool = False
    #: CORE-ADV-07..08: Brake die as a Coast die in top gear
    redline: bool = False
    #: CORE-ADV-09..10: 5-second penalties between stages
    checkpoints: bool = False
    #: CORE-ADV-11..15: None (no SISU tokens) or the allocation
    sisu: str | None = None
    #: CORE-ADV-16: Leader dice replaced by Coast dice
    one_shot: bool = False
    #: MC-HANDBRAKE-01..04 (Monte-Carlo advanced rule): outside -> inside mid-corner
    handbrake: bool = False
    #: MC-WEATHER-01..07 (Monte-Carlo advanced rule): Weather tokens in the Damage bag flip snow/asphalt tiles
    weather: bool = False

    def __post_init__(self) -> None:
        if self.sisu is not None and self.sisu not in SISU_ALLOCATIONS:
            raise ValueError(f"sisu must be one of {SISU_ALLOCATIONS} or None, not {self.sisu!r}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Options":
        data = dict(data or {})
        return cls(**{k.replace("-", "_"): v for k, v in data.items()})
