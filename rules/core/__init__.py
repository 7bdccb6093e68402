"""The contract every game implements, and the pieces games share."""

from rules.core.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    SeatSpec,
    VariantInfo,
)
from rules.core.rng import rng_for, shuffle

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "SeatSpec",
    "VariantInfo",
    "rng_for",
    "shuffle",
]
