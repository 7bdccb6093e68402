"""Game options: how a game declares them, and the value each takes in a match.

A game lists its options with `declare_options` in its class body, so a declaration
Discord could not show (more than MAX_OPTIONS menus, two options with one id, a
default for a variant the game doesn't have) fails at import. `resolve_options`
gives every declared option's value for a variant from what the lobby chose; the
lookups by typed text (`find_option`, `find_choice`) serve commands where a player
types a name. Refusals are `OptionError`s carrying a sentence for the player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.core.contract import PACK_OPTION, Game, OptionInfo

# Discord shows at most 5 rows of components under a message; the lobby's buttons take
# one, and each option's select menu a whole row.
MAX_OPTIONS = 4


class OptionError(ValueError):
    """An option or a value the game doesn't have; `message` is a sentence for players."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def declare_options(
    *options: OptionInfo, variants: Iterable[str] | None = None
) -> dict[str, OptionInfo]:
    """A game's `options` mapping, by id, in the order given. ValueError (at import, in a
    class body) for more than MAX_OPTIONS options, two with one id, or a variant
    default naming none of `variants` (when given)."""
    declared: dict[str, OptionInfo] = {}
    for info in options:
        if info.id in declared:
            raise ValueError(f"two options are called {info.id!r}")
        declared[info.id] = info
    _check(declared, variants)
    return declared


def check_options(game: Game) -> None:
    """Refuse (ValueError) a game whose `options` the lobby can't show: see
    `declare_options`; the keys must be the options' ids too."""
    for key, info in game.options.items():
        if key != info.id:
            raise ValueError(f"{game.id}: option {info.id!r} is listed under {key!r}")
    try:
        _check(game.options, game.variants)
    except ValueError as error:
        raise ValueError(f"{game.id}: {error}") from None


def _check(options: Mapping[str, OptionInfo], variants: Iterable[str] | None) -> None:
    if len(options) > MAX_OPTIONS:
        raise ValueError(
            f"{len(options)} options declared: a lobby shows at most {MAX_OPTIONS} option menus "
            "(Discord allows 5 rows of components and the lobby's buttons take one)"
        )
    if variants is None:
        return
    known = set(variants)
    for info in options.values():
        for variant in info.variant_defaults:
            if variant not in known:
                raise ValueError(f"option {info.id!r}: a default for unknown variant {variant!r}")
        for variant in info.only:
            if variant not in known:
                raise ValueError(f"option {info.id!r}: it belongs to unknown variant {variant!r}")


def resolve_options(game: Game, variant: str, chosen: Mapping[str, Any]) -> dict[str, str]:
    """The value of every option `game` declares, in its order, for a match of `variant`:
    the one chosen, else the variant's default, else the option's default. `chosen` may
    also hold the card pack (`"pack"`), which is left out; any other entry must be a
    declared option with one of its values, else OptionError says which is wrong."""
    for key, value in chosen.items():
        if key == PACK_OPTION:
            continue
        info = game.options.get(key)
        if info is None:
            raise OptionError(_no_option(game, str(key)))
        if not isinstance(value, str) or value not in info.choices:
            raise OptionError(_no_choice(info, str(value)))
    return {key: chosen.get(key, info.default_for(variant)) for key, info in game.options.items()}


def find_option(game: Game, typed: str) -> OptionInfo:
    """The option typed text names, by id or label in any case; OptionError, listing the
    game's options, when it names none."""
    wanted = typed.strip().casefold()
    for info in game.options.values():
        if wanted in (info.id.casefold(), info.label.casefold()):
            return info
    raise OptionError(_no_option(game, typed))


def find_choice(info: OptionInfo, typed: str) -> str:
    """The value typed text names among an option's choices, by value or label in any case;
    OptionError, listing the choices, when it names none."""
    wanted = typed.strip().casefold()
    for value, label in info.choices.items():
        if wanted in (value.casefold(), label.casefold()):
            return value
    raise OptionError(_no_choice(info, typed))


def _quoted(text: str, limit: int = 40) -> str:
    """Text a player typed, short enough to quote back (and without backticks)."""
    text = " ".join(text.replace("`", "'").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _no_option(game: Game, typed: str) -> str:
    if not game.options:
        return f"{game.name} has no options to choose."
    known = ", ".join(f"`{o.id}` ({o.label})" for o in game.options.values())
    return f"{game.name} has no option `{_quoted(typed)}`. Its options: {known}."


def _no_choice(info: OptionInfo, typed: str) -> str:
    known = ", ".join(f"`{value}` ({label})" for value, label in info.choices.items())
    return f"{info.label} has no choice `{_quoted(typed)}`. Its choices: {known}."
