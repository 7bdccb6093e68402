"""Choices as Discord shows them: autocomplete entries and select options cut to
Discord's lengths, the games and variants to pick from, and the choices a command offers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.names import plain
from bot.render.generic import clip
from bot.service.store import VIEW_MODES
from bot.service.tables import Choice
from rules.core import Game
from rules.core.text import shorten

CHOICE_NAME = 100  # Discord: an autocomplete choice's name


JOIN = " — "


# Of an autocomplete name, what the detail keeps at least: its start, what the choice
# costs ("9 mana · 3 curses", "1 AP"), always shows.
DETAIL_LEAST = 30


def choice_name(choice: Choice) -> str:
    """An action as autocomplete offers it: "label — detail" in Discord's 100 characters.
    A detail that doesn't fit is cut short at a word, never so short that what the choice
    costs (its detail's start) is lost: the label is cut short for it if need be."""
    label, detail = plain(choice.label), plain(choice.detail)
    if not detail:
        return clip(label, CHOICE_NAME)
    if len(label) + len(JOIN) + len(detail) <= CHOICE_NAME:
        return f"{label}{JOIN}{detail}"
    room = max(CHOICE_NAME - len(JOIN) - len(label), DETAIL_LEAST)
    return f"{clip(label, CHOICE_NAME - len(JOIN) - room)}{JOIN}{shorten(detail, room)}"


OPTION_TEXT = 100  # Discord: a select option's label and description


SEE_CARD = " … /card"  # ends a description cut short: the card's full text is there


def choice_option(choice: Choice) -> discord.SelectOption:
    """An action as the menu of a private view offers it, its detail underneath (cut
    short, it says where the full text is)."""
    detail = plain(choice.detail)
    if len(detail) > OPTION_TEXT:
        detail = shorten(detail, OPTION_TEXT - len(SEE_CARD)).removesuffix("…") + SEE_CARD
    return discord.SelectOption(
        label=clip(plain(choice.label), OPTION_TEXT),
        value=choice.key,
        description=detail or None,
    )


def game_choices(games: Mapping[str, Game]) -> list[app_commands.Choice[str]]:
    """One choice per game, by name."""
    return [app_commands.Choice(name=g.name, value=g.id) for g in games.values()][:25]


BOARD_CHOICES = [  # /settings pictures (the reply says in full what the mode shows)
    app_commands.Choice(name=name, value=key)
    for key, name in {
        "both": "Picture and summary (default): the whole text board one tap away",
        "pictures": "Picture only: who decides, the whole text board one tap away",
        "text": "Text only: the whole board in the message, no picture (screen readers)",
    }.items()
]


VIEW_CHOICES = [  # /profile pictures
    app_commands.Choice(name=clip(f"{name}: {shows}", 100), value=key)
    for key, (name, shows) in VIEW_MODES.items()
]


def variant_choices(
    games: Mapping[str, Game],
    game_id: str | None,
    typed: str,
    only: Callable[[Game, str], bool] | None = None,
) -> list[app_commands.Choice[str]]:
    """The variants `/match new` suggests as `typed` is typed: those of the game already
    chosen, each by its name and blurb; before a game is chosen, every variant id with
    the games that have it. With `only`, just the variants it accepts (a game's id and
    a variant's)."""
    typed = typed.casefold().strip()
    game = games.get(game_id or "")

    def fits(each: Game, variant: str) -> bool:
        return only is None or only(each, variant)

    if game is not None:
        offered = [
            (info.id, f"{info.name} — {info.blurb}" if info.blurb else info.name)
            for info in game.variants.values()
            if typed in f"{info.id} {info.name} {info.blurb}".casefold() and fits(game, info.id)
        ]
    else:
        owners: dict[str, list[str]] = {}
        for each in games.values():
            for info in each.variants.values():
                if fits(each, info.id):
                    owners.setdefault(info.id, []).append(each.name)
        after = " (choose the game first)"
        offered = [
            (v, f"{v} — {clip(' or '.join(names), 100 - len(v) - 3 - len(after))}{after}")
            for v, names in owners.items()
            if typed in v.casefold()
        ]
    return [app_commands.Choice(name=clip(n, 100), value=v) for v, n in offered][:25]


def offer_choices(command: app_commands.Command[Any, ..., Any], **choices: list[Any]) -> None:
    """Set the choices of a cog instance's own copy of a command's options.

    The games come from the service, known only when the cog is built, and
    `app_commands.choices` would change the parameter shared with the class.
    """
    for name, values in choices.items():
        params = command._params
        params[name] = dataclasses.replace(params[name], choices=values)


def named_choices(named: dict[str, str], typed: str) -> list[app_commands.Choice[str]]:
    """Suggestions of a fixed set of values (value: its name) that the typed text fits,
    spaces around it ignored (a space alone: all of them)."""
    wanted = typed.casefold().strip()
    return [
        app_commands.Choice(name=clip(label, 100), value=value)
        for value, label in named.items()
        if wanted in f"{value} {label}".casefold()
    ][:25]
