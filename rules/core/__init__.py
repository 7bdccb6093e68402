"""The contract every game implements, and the pieces games share."""

from rules.core.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    SeatSpec,
    VariantInfo,
    fresh_copy,
    passing,
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
    "fresh_copy",
    "passing",
    "rng_for",
    "shuffle",
]
