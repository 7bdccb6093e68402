"""The contract every game implements, and the pieces games share."""

from rules.core.contract import (
    PACK_OPTION,
    Action,
    Event,
    Game,
    IllegalAction,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    Seat,
    SeatSpec,
    VariantInfo,
    fresh_copy,
    passing,
)
from rules.core.options import (
    MAX_OPTIONS,
    OptionError,
    check_options,
    declare_options,
    find_choice,
    find_option,
    resolve_options,
)
from rules.core.rng import deal_again, rng_for, shuffle

__all__ = [
    "MAX_OPTIONS",
    "PACK_OPTION",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "OptionError",
    "OptionInfo",
    "Outcome",
    "PreferenceInfo",
    "Seat",
    "SeatSpec",
    "VariantInfo",
    "check_options",
    "deal_again",
    "declare_options",
    "find_choice",
    "find_option",
    "fresh_copy",
    "passing",
    "resolve_options",
    "rng_for",
    "shuffle",
]
