"""The Discord surface shared by the cogs: persistent components and the messages
that carry them (the publisher, `bot.publisher`, posts the public ones).

Every component is a `DynamicItem` whose custom id carries what a click needs
(`arbiter:hand:<match id>`), so buttons and menus on old messages, in channels
and in DMs, keep working after a restart: the handler is rebuilt from the id
and everything else comes from the store. An id comes back from the client, so it is
believed only through `component_match`, the first thing every component's callback
asks: a forged id, or one used in another server, is refused with a sentence before
anything is read or changed.

A change a player makes (an action, a lobby step) is saved with what it must tell the
table (outbox notices, in the same transaction); the reply tells the player at once, and
the publisher posts the public side. The interaction is deferred before any work
(Discord allows 3 seconds), and a private reply that fails after the change was saved is
only logged: the public board and line still follow.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.host import Host, host
from bot.names import plain, shown_name
from bot.pictures import HAND_FILE
from bot.render import (
    board_embed,
    host_left,
    lobby_embed,
    picture_files,
    private_embed,
    short_choice,
)
from bot.render.generic import clip
from bot.replies import guard, where
from bot.service import errors
from bot.service.matches import AI_NAME, ActResult, Choice, MatchService, PrivateView, Table
from bot.service.moderation import jump_url
from bot.service.store import VIEW_MODES, MatchRow, SeatRow
from rules.core import Game, OptionError, OptionInfo, Outcome, find_option
from rules.core.text import shorten

log = logging.getLogger(__name__)

PAGE_SIZE = 25  # options in one select menu
MAX_ROW_ID = 2**63 - 1  # the largest id SQLite hands out: a custom id naming more is forged
DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"
DEFER_AFTER = 1.5  # seconds of work after which an interaction is deferred (Discord waits 3)

T = TypeVar("T")

PAGE_BUTTONS: dict[str, tuple[str, str]] = {
    "prev": ("Prev", "◀"),
    "next": ("Next", "▶"),
    "refresh": ("Refresh", "🔄"),
}

LOBBY_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}
# A row of their own under the lobby's buttons, at a game the AI plays.
LOBBY_AI_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "ai-easy": ("🤖 Add AI (easy)", discord.ButtonStyle.secondary),
    "ai-strong": ("🤖 Add AI (strong)", discord.ButtonStyle.secondary),
    "no-ai": ("Remove AI", discord.ButtonStyle.secondary),
}


CONCEDE_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "yes": ("Concede", discord.ButtonStyle.danger),
    "no": ("Keep playing", discord.ButtonStyle.secondary),
}
QUICK_STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_QUICK = 4  # quick buttons under one message (a row holds 5; Respond may take one)
MAX_SEAT = 99  # no game seats more: a custom id naming a larger seat is forged
CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom id
MAX_ERA = 99  # no game counts more Eras: a Dispute id naming more is forged
MAX_REPORT = 10**6  # nor more reports
MAX_PAGE = 10**6  # nor does any menu or log have more pages
# What each number in a component's id may be; a number outside is forged (see
# `component_match`). A match id is a row id; a count of decisions or versions counts rows.
ROW_IDS = range(1, MAX_ROW_ID + 1)
COUNTS = range(MAX_ROW_ID + 1)
USER_IDS = range(1, 2**64)  # Discord's ids are 64-bit snowflakes
SEATS = range(MAX_SEAT + 1)
PAGES = range(MAX_PAGE + 1)
ERAS = range(MAX_ERA + 1)
REPORTS = range(1, MAX_REPORT + 1)
HAND = range(1, PAGE_SIZE + 1)  # cards chosen together: a menu holds at most 25
ONE_CHOICE = "Pick exactly one choice from this menu, so nothing happened."
TOGETHER = "Pick exactly {count} from this menu, so nothing happened."
STALE_DISPUTE = (
    "This Dispute button is out of date (report #{number} is no longer the latest report, "
    "or it was disputed already), so nothing happened. To dispute a recent report, use "
    "`/historia dispute`."
)
STALE_BUTTONS = (
    "These buttons are out of date (the game has moved on since they were posted), so "
    "nothing happened. Use the buttons under the latest message that calls you, or `/hand`."
)

KEEP_PLAYING = "You keep playing: nothing changed."
NOT_YOUR_CONFIRMATION = (
    "This confirmation belongs to another player, so nothing happened. "
    "To give up yourself, use `/match concede`."
)


def arbiter(interaction: discord.Interaction) -> Host:
    """The bot an interaction reached."""
    return host(interaction.client)


def service(interaction: discord.Interaction) -> MatchService:
    """The match service of the bot an interaction reached."""
    return arbiter(interaction).matches


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge an interaction before doing any work: a component's message will be
    edited in place, a command gets a private "thinking…" answer. If Discord refuses
    (the interaction expired), the work still goes on: its result is announced publicly."""
    try:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException:
        log.warning("could not acknowledge %s; going on", where(interaction), exc_info=True)


async def in_time(
    interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False
) -> T:
    """Do `work` and return what it gives, keeping Discord's 3 seconds: when it is still
    running DEFER_AFTER after the interaction was made, the interaction is deferred (see
    `defer`) while it goes on. Work done sooner is answered directly, with one request
    instead of two. The work is never cut short by the interaction's end."""
    task = asyncio.ensure_future(work)
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    try:
        return await asyncio.wait_for(
            asyncio.shield(task), min(DEFER_AFTER, max(0.0, DEFER_AFTER - waited))
        )
    except TimeoutError:
        await defer(interaction, ephemeral=ephemeral)
    return await asyncio.shield(task)


def answer(interaction: discord.Interaction, **content: Any) -> Awaitable[object]:
    """The reply to an interaction that `in_time` may have deferred: its response, or
    the follow-up of the deferred one."""
    if interaction.response.is_done():
        return interaction.followup.send(**content)
    return interaction.response.send_message(**content)


def edit_answer(interaction: discord.Interaction, **content: Any) -> Awaitable[object]:
    """The reply to a component's interaction that edits its message in place, once
    `in_time` is done (deferred or not)."""
    if interaction.response.is_done():
        return interaction.edit_original_response(**content)
    return interaction.response.edit_message(**content)


async def reply_after_save(interaction: discord.Interaction, reply: Awaitable[object]) -> bool:
    """Send the private reply to a change that is already saved; False when it failed.
    A failure is logged, not reported: the change stands, and the public announcement
    follows anyway."""
    try:
        await reply
    except discord.HTTPException:
        log.warning("could not reply to %s after saving it", where(interaction), exc_info=True)
        return False
    return True


async def component_match(
    interaction: discord.Interaction,
    component: discord.ui.DynamicItem[Any],
    match_id: int,
    *numbers: tuple[int, range],
    in_dm: bool = False,
    seat: int | None = None,
) -> MatchRow:
    """The match a persistent component's id names, once the id is believed; every
    component's callback asks this first. Believed: the match id and each other number
    of the id (`numbers`: each with the range it must be in) in range, the `seat` it
    names (if any) one of the match's, and the match this server's, or the match played
    in this DM (a solitaire game), or, for a component a DM carries (`in_dm`: a private
    view's), one the clicker plays in when clicked in a DM. Anything else was forged or
    copied from elsewhere: NotFromHere, before anything is changed (or shown)."""
    thing = "menu" if isinstance(component.item, discord.ui.Select) else "button"
    refused = errors.NotFromHere(f"That {thing} isn't from a match here, so nothing happened.")
    if match_id not in ROW_IDS or any(number not in fits for number, fits in numbers):
        raise refused
    store = service(interaction).store
    await store.sync()  # another process, a restore: what memory holds is checked first
    match = await store.get_match(match_id)
    if match is None:
        raise refused
    if interaction.guild_id is not None:
        if match.guild_id != interaction.guild_id:
            raise refused
    elif match.guild_id is None and match.channel_id == interaction.channel_id:
        pass  # a match played in this very DM (a solitaire game)
    elif not in_dm or all(s.user_id != interaction.user.id for s in await store.seats(match_id)):
        raise refused
    if seat is not None and all(s.seat != seat for s in await store.seats(match_id)):
        raise refused
    return match


def only_choice(menu: discord.ui.Select[Any]) -> str:
    """The one value a menu sent (each of ours takes exactly one); a refusal otherwise
    (a forged client's none, or several)."""
    if len(menu.values) != 1:
        raise errors.UserError(ONE_CHOICE)
    return menu.values[0]


# ------------------------------------------------------------------ choices


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


# --------------------------------------------------------------- components


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"arbiter:lobby:(?P<op>join|leave|start|cancel|ai-easy|ai-strong|no-ai)"
        r":(?P<match_id>[0-9]+)"
    ),
):
    """Join / Leave / Start / Cancel under a lobby message, and the AI's buttons."""

    def __init__(
        self, op: str, match_id: int, *, disabled: bool = False, row: int | None = None
    ) -> None:
        label, style = {**LOBBY_BUTTONS, **LOBBY_AI_BUTTONS}[op]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=f"arbiter:lobby:{op}:{match_id}",
                row=row,
            )
        )
        self.op = op
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["op"], int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await defer(interaction)
            await lobby_step(interaction, self.op, self.match_id, on_lobby_message=True)


class OptionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"arbiter:option:(?P<match_id>[0-9]+):(?P<option>[a-z][a-z0-9_-]*)",
):
    """One of a lobby's option menus (`arbiter:option:<match>:<option id>`): the host picks
    the option's value, and the lobby message shows it."""

    def __init__(
        self,
        match_id: int,
        option: str,
        choices: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:option:{match_id}:{option}",
                options=choices or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.match_id = match_id
        self.option = option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OptionSelect:
        return cls(int(match["match_id"]), match["option"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            value = only_choice(self.item)
            await defer(interaction)
            await option_step(interaction, self.match_id, self.option, value, on_lobby_message=True)


class ConcedeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:concede:(?P<op>yes|no):(?P<match_id>[0-9]+):(?P<user_id>[0-9]+)",
):
    """Concede / Keep playing under the confirmation `/match concede` asks for. Its id
    carries the player who asked: only they can use it, and only while they still play
    in the match (after a restart too)."""

    def __init__(self, op: str, match_id: int, user_id: int) -> None:
        label, style = CONCEDE_BUTTONS[op]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"arbiter:concede:{op}:{match_id}:{user_id}",
            )
        )
        self.op = op
        self.match_id = match_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConcedeButton:
        return cls(match["op"], int(match["match_id"]), int(match["user_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.user_id, USER_IDS))
            if interaction.user.id != self.user_id:
                raise errors.UserError(NOT_YOUR_CONFIRMATION)
            await defer(interaction)
            if self.op == "no":
                await interaction.edit_original_response(content=KEEP_PLAYING, view=None)
                return
            with arbiter(interaction).publisher.through(interaction, self.match_id) as carry:
                try:
                    result = await service(interaction).concede(self.match_id, self.user_id)
                except (errors.NotActive, errors.NotInMatch) as stale:
                    why = (
                        "you no longer play in it" if isinstance(stale, errors.NotInMatch) else None
                    )
                    await interaction.edit_original_response(
                        content=f"⚠️ {stale_concession(why)}", view=None
                    )
                    return
                reply = interaction.edit_original_response(content="You conceded.", view=None)
                if await reply_after_save(interaction, reply):
                    carry(result.table)  # its followup tells the table


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:hand:(?P<match_id>[0-9]+)"
):
    """The board's "My hand" button, also under a line calling a player out of turn:
    the clicker's private view, ephemeral."""

    def __init__(self, match_id: int, *, respond: bool = False) -> None:
        # "Respond" under a line that opens a response window: the same private view,
        # whose menu then holds the answers (Instants) and letting the attack through.
        super().__init__(
            discord.ui.Button(
                label="Respond" if respond else "My hand",
                emoji="🛡️" if respond else "🃏",
                style=discord.ButtonStyle.danger if respond else discord.ButtonStyle.primary,
                custom_id=f"arbiter:hand:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await show_private(interaction, self.match_id)


class FullBoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:full:(?P<match_id>[0-9]+)"
):
    """The board's "Full board" button, under its picture and summary: the whole text
    board (every card in play, the legend, every clock), ephemeral."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Full board",
                emoji="📜",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:full:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FullBoardButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            table = await service(interaction).table(self.match_id)
            embed = await text_board(arbiter(interaction), table)
            await interaction.response.send_message(embed=embed, ephemeral=True)


class KeepSeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:(?P<kind>keep|back):(?P<match_id>[0-9]+):(?P<user_id>[0-9]+)",
):
    """Under the call telling a player the AI plays their seat: theirs to keep it (the
    table voted it to the AI, which has played nothing yet) or to take it back (the AI
    stands in since their time ran out)."""

    def __init__(self, match_id: int, user_id: int, *, back: bool = False) -> None:
        kind = "back" if back else "keep"
        super().__init__(
            discord.ui.Button(
                label="Take my seat back" if back else "Keep my seat",
                emoji="↩️" if back else "✋",
                style=discord.ButtonStyle.primary,
                custom_id=f"arbiter:{kind}:{match_id}:{user_id}",
            )
        )
        self.match_id = match_id
        self.user_id = user_id
        self.back = back

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> KeepSeatButton:
        return cls(int(match["match_id"]), int(match["user_id"]), back=match["kind"] == "back")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.user_id, USER_IDS))
            if interaction.user.id != self.user_id:
                raise errors.NotInMatch("Only the player whose seat it is can keep it.")
            await service(interaction).take_back(self.match_id, self.user_id)
            await interaction.response.edit_message(view=None)
            await interaction.followup.send(
                "↩️ Your seat is yours again: the AI plays nothing more for you."
                if self.back
                else "✋ You keep your seat: the AI plays nothing for you.",
                ephemeral=True,
            )


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:view:(?P<match_id>[0-9]+):(?P<page>[0-9]+):(?P<tag>prev|next|refresh)",
):
    """Previous / next page of the action menu, and refresh, on a private view."""

    def __init__(self, match_id: int, page: int, tag: str, *, disabled: bool = False) -> None:
        label, emoji = PAGE_BUTTONS[tag]
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"arbiter:view:{match_id}:{page}:{tag}",
                row=1,
            )
        )
        self.match_id = match_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["match_id"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.page, PAGES), in_dm=True)
            pv = await service(interaction).view(self.match_id, interaction.user.id)
            shown = await private_content(
                arbiter(interaction), pv, self.page, in_dm=interaction.guild is None, editing=True
            )
            await interaction.response.edit_message(content=None, **shown)
            arbiter(interaction).panels.shown(interaction, pv)


class DmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:dm:(?P<match_id>[0-9]+)"
):
    """The "Send to my DMs" button: a copy of the private view, with its menu, that stays."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Send to my DMs",
                emoji="📬",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:dm:{match_id}",
                row=1,
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            pv = await service(interaction).view(self.match_id, interaction.user.id)
            try:
                sent = await private_content(arbiter(interaction), pv, in_dm=True, editing=False)
                await interaction.user.send(**sent)
            except discord.Forbidden as error:
                if error.code == DM_CLOSED:
                    raise errors.DMsClosed() from None
                raise
            await interaction.followup.send(
                "Sent to your DMs: you can play from there, and it stays.", ephemeral=True
            )


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:hint:(?P<match_id>[0-9]+)"
):
    """The "Hint" button on a private view of a match that is never rated: what the
    strong AI would play in the clicker's place, answered privately."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Hint",
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:hint:{match_id}",
                row=1,
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, in_dm=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await give_hint(interaction, self.match_id)


async def give_hint(interaction: discord.Interaction, match_id: int) -> None:
    """Answer a deferred interaction, privately, with the caller's hint (see
    `bot.service.hints`)."""
    bot = arbiter(interaction)
    text = await bot.hints.ask(match_id, interaction.user.id)
    await interaction.followup.send(text, ephemeral=True)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"arbiter:act:(?P<match_id>[0-9]+):(?P<mark>s?)(?P<count>[0-9]+)",
):
    """The action menu of a private view. Its id (`arbiter:act:<match>:s<count>`)
    carries how many decisions the player had taken when it was built: once
    they decide (by this menu or another way) it applies nothing, while other
    players' decisions leave it usable. An id without the `s` comes from an
    older release and carried the match version: it is refused as out of date."""

    def __init__(
        self,
        match_id: int,
        decisions: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        outdated: bool = False,
    ) -> None:
        count = str(decisions) if outdated else f"s{decisions}"
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:act:{match_id}:{count}",
                options=options or [],
                placeholder=placeholder,
                row=0,
            )
        )
        self.match_id = match_id
        self.decisions = decisions
        self.outdated = outdated

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        return cls(int(match["match_id"]), int(match["count"]), outdated=not match["mark"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            decided = (self.decisions, COUNTS)
            await component_match(interaction, self, self.match_id, decided, in_dm=True)
            key = only_choice(self.item)
            stale = errors.OUTDATED_MENU if self.outdated else None
            await panel_step(interaction, self.match_id, self.decisions, key, stale=stale)


class TogetherSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=(
        r"arbiter:together:(?P<match_id>[0-9]+):(?P<decisions>[0-9]+):"
        r"(?P<count>[0-9]+):(?P<kind>[a-z]+)"
    ),
):
    """Cards chosen together on a private view, as one multi-select (the cards discarded
    as a turn ends above the hand size): the game's view offers them (`"together"`), the
    `count` chosen make one action's key (`<kind>|<card id>+<card id>…`, in order). Its id
    (`arbiter:together:<match>:<decisions>:<count>:<kind>`) carries how many decisions
    the player had taken, as the action menu's does."""

    def __init__(
        self,
        match_id: int,
        decisions: int,
        kind: str,
        options: list[discord.SelectOption] | None = None,
        count: int = 1,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:together:{match_id}:{decisions}:{count}:{kind}",
                options=options or [],
                placeholder=placeholder,
                min_values=count,
                max_values=count,
                row=2,
            )
        )
        self.match_id = match_id
        self.decisions = decisions
        self.count = count
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TogetherSelect:
        numbers = (int(match["match_id"]), int(match["decisions"]))
        return cls(*numbers, match["kind"], count=int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            numbers = (self.decisions, COUNTS), (self.count, HAND)
            await component_match(interaction, self, self.match_id, *numbers, in_dm=True)
            if len(self.item.values) != self.count:
                raise errors.UserError(TOGETHER.format(count=self.count))
            chosen = sorted(value.partition("#")[0] for value in self.item.values)
            key = f"{self.kind}|{'+'.join(chosen)}"
            await panel_step(interaction, self.match_id, self.decisions, key)


def together_select(pv: PrivateView) -> TogetherSelect | None:
    """The multi-select of the cards a private view's game offers to choose together
    (`"together": {"kind", "count", "label", "cards": [{"id", "name"}]}`), if any."""
    offered = pv.view.get("together")
    if not isinstance(offered, dict) or not offered.get("cards"):
        return None
    cards = [c for c in offered["cards"] if isinstance(c, dict)][:PAGE_SIZE]
    count = int(offered.get("count") or 1)
    if not 0 < count <= len(cards):
        return None
    options = [
        discord.SelectOption(label=clip(str(c.get("name")), 100), value=f"{c.get('id')}#{i}")
        for i, c in enumerate(cards)
    ]
    label = clip(str(offered.get("label") or f"Choose {count}"), 150)
    kind = str(offered.get("kind"))
    return TogetherSelect(pv.table.match.id, pv.decisions, kind, options, count, label)


async def panel_step(
    interaction: discord.Interaction,
    match_id: int,
    decisions: int,
    key: str,
    *,
    stale: str | None = None,
) -> None:
    """Take an action chosen on a private view and show the view again in place, the
    action's outcome at its top (or, for a choice out of date, why nothing happened)."""
    matches = service(interaction)
    user = interaction.user.id
    in_dm = interaction.guild is None
    bot = arbiter(interaction)
    acting = bot.panels.acting(interaction, match_id)
    with bot.publisher.through(interaction, match_id) as carry, acting:
        try:
            if stale is not None:
                raise errors.StaleChoice(stale)
            act = matches.act(match_id, user, key, decisions=decisions)
            result = await in_time(interaction, act)
        except errors.StaleChoice as refused:
            pv = await matches.view(match_id, user)
            shown = await private_content(bot, pv, in_dm=in_dm, editing=True)
            await edit_answer(interaction, content=f"⚠️ {refused.message}", **shown)
            bot.panels.shown(interaction, pv)
            return
        pv = await matches.view(match_id, user)
        shown = await private_content(bot, pv, in_dm=in_dm, editing=True)
        if await reply_after_save(
            interaction, edit_answer(interaction, content=done_text(result), **shown)
        ):
            bot.panels.shown(interaction, pv)
            carry(result.table)  # its followups post the public lines


class QuickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:quick:(?P<match_id>[0-9]+):(?P<seat>[0-9]+):(?P<count>[0-9]+):(?P<key>\S+)",
):
    """A quick action under the message calling a player to decide (Mystic Vale's Push
    and Stop): one of their legal actions that the game's public view offers as a
    button (its `quick` key). Its id (`arbiter:quick:<match>:<seat>:<count>:<key>`)
    carries the seat it is for and how many decisions that seat had taken when it was
    posted: anyone else's click is refused, and once the seat has decided (by this
    button or another way) it applies nothing."""

    def __init__(
        self,
        match_id: int,
        seat: int,
        decisions: int,
        key: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(plain(label or key), 80),
                style=style,
                custom_id=quick_id(match_id, seat, decisions, key),
            )
        )
        self.match_id = match_id
        self.seat = seat
        self.decisions = decisions
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuickButton:
        return cls(int(match["match_id"]), int(match["seat"]), int(match["count"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(
                interaction,
                self,
                self.match_id,
                (self.seat, SEATS),
                (self.decisions, COUNTS),
                seat=self.seat,
            )
            await quick_step(interaction, self.match_id, self.seat, self.decisions, self.key)


class DisputeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"arbiter:dispute:(?P<match_id>[0-9]+):(?P<era>[0-9]+):"
        r"(?P<number>[0-9]+):(?P<seat>[0-9]+)"
    ),
):
    """**Dispute #5** under the public line of a Historia table's latest report (the game's
    public view offers it in `for_anyone`: `{key, label, not_seat}`). Its id
    (`arbiter:dispute:<match>:<era>:<report>:<reporter's seat>`) names the report: any
    seated player but its reporter may press it, while it is still the latest report and
    undisputed; the reporter, outsiders and a stale button are refused, changing nothing."""

    def __init__(self, match_id: int, era: int, number: int, seat: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(plain(label or f"Dispute #{number}"), 80),
                emoji="⚠️",
                style=discord.ButtonStyle.secondary,
                custom_id=dispute_id(match_id, era, number, seat),
            )
        )
        self.match_id = match_id
        self.era = era
        self.number = number
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DisputeButton:
        return cls(
            int(match["match_id"]), int(match["era"]), int(match["number"]), int(match["seat"])
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(
                interaction,
                self,
                self.match_id,
                (self.era, ERAS),
                (self.number, REPORTS),
                (self.seat, SEATS),
                seat=self.seat,
            )
            await defer(interaction)
            await dispute_step(interaction, self.match_id, self.era, self.number, self.seat)


# Every component of this module that outlives a restart (see `bot.history` for the log's).
PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    OptionSelect,
    ConcedeButton,
    HandButton,
    FullBoardButton,
    KeepSeatButton,
    PageButton,
    DmButton,
    HintButton,
    ActionSelect,
    TogetherSelect,
    QuickButton,
    DisputeButton,
)


# ------------------------------------------------------------------- views


def lobby_view(table: Table) -> discord.ui.View | None:
    """The lobby's buttons while it is open (Start only once enough players have joined,
    Join only while a seat is free),
    and under them one menu per game option, showing its value; none once it started or
    closed."""
    if table.match.status != "lobby":
        return None
    short = len(table.seats) < table.variant.min_players
    options = table.options
    view = discord.ui.View(timeout=None)
    with_ai = table.ai_welcome
    row = 0 if options or with_ai else None  # else Discord's own layout
    full = len(table.seats) >= table.variant.max_players
    for op in LOBBY_BUTTONS:
        disabled = (op == "start" and short) or (op == "join" and full)
        view.add_item(LobbyButton(op, table.match.id, disabled=disabled, row=row))
    if with_ai:
        robots = any(not s.person for s in table.seats)
        for op in LOBBY_AI_BUTTONS:
            disabled = not robots if op == "no-ai" else full
            view.add_item(LobbyButton(op, table.match.id, disabled=disabled, row=1))
    for number, (info, value) in enumerate(options, start=1 + with_ai):
        choices = option_menu(info, value)
        view.add_item(
            OptionSelect(table.match.id, info.id, choices, clip(info.label, 150), row=number)
        )
    return view


def option_menu(info: OptionInfo, value: str) -> list[discord.SelectOption]:
    """An option's choices as its lobby menu offers them, the current one selected."""
    return [
        discord.SelectOption(label=clip(label, 100), value=choice, default=choice == value)
        for choice, label in info.choices.items()
    ]


def board_view(table: Table, *, full_board: bool) -> discord.ui.View | None:
    """The board's buttons: "My hand" while the match is in play, and "Full board" where
    the board shows its picture and a summary (`full_board`), in play or over."""
    view = discord.ui.View(timeout=None)
    if table.match.status == "active":
        view.add_item(HandButton(table.match.id))
    if full_board:
        view.add_item(FullBoardButton(table.match.id))
    return view if view.children else None


async def text_board(bot: Host, table: Table, *, picture: str | None = None) -> discord.Embed:
    """The whole text board of a match as it stands: its game's fields, every clock, the
    last public lines and the legend (with `picture`, the attached picture under it)."""
    clocks = await bot.clock.status_lines(table.match.id, table)
    lately = await bot.matches.lately(table.match.id)
    return board_embed(table, clocks, lately, picture=picture)


def quick_id(match_id: int, seat: int, decisions: int, key: str) -> str:
    """The custom id of a quick action's button (see `QuickButton`)."""
    return f"arbiter:quick:{match_id}:{seat}:{decisions}:{key}"


def quick_buttons(table: Table) -> list[QuickButton]:
    """The buttons for the quick actions the game's public view offers
    (`"quick": [{"key", "label", "style"?, "seat"?}]`), each for its seat (by default the
    active one: a player answering out of turn has a `seat` of their own) while that
    seat decides and a person plays it; none otherwise. An entry whose id would not fit
    Discord's limit is left to the menu."""
    if table.match.status != "active" or table.outcome is not None:
        return []
    found = []
    for entry in (table.view or {}).get("quick") or []:
        if not isinstance(entry, dict) or not entry.get("key"):
            continue
        seat = entry.get("seat", table.active)
        if not isinstance(seat, int) or seat not in table.to_act or table.user_of(seat).by_ai:
            continue  # not this seat's decision now, or nobody's buttons: the AI decides
        decisions = table.user_of(seat).decisions
        key = str(entry["key"])
        if len(quick_id(table.match.id, seat, decisions, key)) > CUSTOM_ID_LIMIT or re.search(
            r"\s", key
        ):
            continue
        style = QUICK_STYLES.get(str(entry.get("style")), discord.ButtonStyle.primary)
        label = str(entry.get("label") or key)
        found.append(QuickButton(table.match.id, seat, decisions, key, label, style))
    return found[:MAX_QUICK]


def dispute_id(match_id: int, era: int, number: int, seat: int) -> str:
    """The custom id of a Dispute button (see `DisputeButton`)."""
    return f"arbiter:dispute:{match_id}:{era}:{number}:{seat}"


def dispute_buttons(table: Table) -> list[DisputeButton]:
    """The Dispute buttons the game's public view offers under its latest public line
    (`"for_anyone": [{"key": "dispute|<n>", "label", "not_seat"}]`) while the match is in
    play; none otherwise."""
    if table.match.status != "active" or table.outcome is not None:
        return []
    view = table.view or {}
    era = view.get("era") if isinstance(view.get("era"), int) else 0
    found = []
    for entry in view.get("for_anyone") or []:
        if not isinstance(entry, dict):
            continue
        kind, _, number = str(entry.get("key") or "").partition("|")
        seat = str(entry.get("not_seat", ""))
        if kind != "dispute" or not number.isdigit() or not seat.isdigit():
            continue
        label = str(entry.get("label") or "")
        found.append(DisputeButton(table.match.id, era, int(number), int(seat), label))
    return found[:MAX_QUICK]


def out_of_turn(table: Table) -> set[int]:
    """The seats deciding out of turn now (none once the match is over)."""
    return set() if table.outcome is not None else set(table.to_act) & set(table.responders)


def carries_buttons(table: Table) -> bool:
    """Whether the match's latest public message carries buttons that go out of date (the
    quick actions, a Dispute button, Respond or My hand for a player deciding out of
    turn): the message that carried them before loses them."""
    return bool(quick_buttons(table) or dispute_buttons(table) or out_of_turn(table))


def turn_view(table: Table) -> discord.ui.View | None:
    """The components under a message calling players to decide: the game's quick actions
    for the active player, the Dispute button of the latest report, Respond for a player
    answering an attack (as the game's public view says in `responding`) or else My hand
    while a player decides (their panel one tap from the line that calls them), and a
    link to the board."""
    view = discord.ui.View(timeout=None)
    for button in [*quick_buttons(table), *dispute_buttons(table)]:
        view.add_item(button)
    people = {s for s in table.to_act if not table.user_of(s).by_ai}
    if table.outcome is None and table.match.status == "active" and people:
        responding = out_of_turn(table) & set((table.view or {}).get("responding") or [])
        view.add_item(HandButton(table.match.id, respond=bool(responding)))
    if table.match.board_message_id is not None and table.outcome is None:
        view.add_item(board_button(table))
    return view if view.children else None


def board_button(table: Table) -> discord.ui.Button[Any]:
    """A link to the match's board, under each turn message: the board stays in reach."""
    return discord.ui.Button(
        style=discord.ButtonStyle.link, label="Board", emoji="📋", url=jump_url(table)
    )


async def private_content(
    bot: Host, pv: PrivateView, page: int = 0, *, in_dm: bool, editing: bool
) -> dict[str, Any]:
    """A private view's message at one page of its menu, with the picture of the view
    as its player chose (`/profile pictures`); `editing`: the arguments of an edit,
    which replaces the picture (or takes it away), else those of a send."""
    user_id = pv.table.user_of(pv.seat).user_id
    mode = await bot.matches.pictures_of(user_id)
    picture = None
    if mode != "text" and pv.view:
        picture = await bot.pictures.private(pv.table.match.game, pv.view)
    text = mode != "pictures" or picture is None
    content = private_message(
        pv, page, in_dm=in_dm, picture=HAND_FILE if picture else None, text=text
    )
    content["attachments" if editing else "files"] = picture_files(picture, HAND_FILE)
    return content


def private_message(
    pv: PrivateView, page: int, *, in_dm: bool, picture: str | None = None, text: bool = True
) -> dict[str, Any]:
    """The embed and components of a private view at one page of its action menu (with
    `picture`, the attached file shown as its image; see `private_embed`)."""
    match = pv.table.match
    together = together_select(pv)
    choices = pv.choices
    if together is not None:  # those choices are made in the multi-select
        choices = [c for c in choices if not c.key.startswith(f"{together.kind}|")]
    pages = max(1, -(-len(choices) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    view = discord.ui.View(timeout=None)
    if choices:
        shown = choices[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        placeholder = "Choose an action"
        if pages > 1:
            placeholder += f" (page {page + 1} of {pages})"
        options = [choice_option(c) for c in shown]
        view.add_item(ActionSelect(match.id, pv.decisions, options, placeholder))
    if pages > 1:
        view.add_item(PageButton(match.id, max(page - 1, 0), "prev", disabled=page == 0))
        view.add_item(
            PageButton(match.id, min(page + 1, pages - 1), "next", disabled=page == pages - 1)
        )
    view.add_item(PageButton(match.id, page, "refresh"))
    if not in_dm:
        view.add_item(DmButton(match.id))
    if pv.choices and pv.table.hints:
        view.add_item(HintButton(match.id))
    if together is not None:
        view.add_item(together)
    return {"embed": private_embed(pv, picture=picture, text=text), "view": view}


def concede_question(table: Table, seat: SeatRow, outcome: Outcome | None) -> str:
    """The confirmation `/match concede` asks for: what conceding leads to for the asker
    (in a game against the game itself, its opponent wins: a solitaire nemesis)."""

    def names(seats: Iterable[int]) -> str:
        return " and ".join(f"**{table.user_of(s).name}**" for s in seats)

    if outcome is None:
        others = [s.seat for s in table.seats if s.seat != seat.seat]
        stake = f"You drop out of the game ({names(others)} play on without you)."
    else:
        mates = [s for s in outcome.losers if s != seat.seat]
        side = f"Your side — you and {names(mates)} —" if mates else "Your side"
        won = outcome.winners
        verb = "wins" if len(won) == 1 else "win"
        winner = f"**{outcome.against}** wins" if outcome.against else "nobody wins"
        stake = f"{side} loses ({names(won) + ' ' + verb if won else winner})."
    return (
        f"**Concede this match?** {stake}\n"
        "Nothing happens until you press **Concede**; **Keep playing** changes nothing."
    )


def stale_concession(why: str | None) -> str:
    """The refusal of a confirmation that is out of date: the match is over, or `why`."""
    return f"This confirmation is out of date ({why or 'the match is over'}), so nothing happened."


def concede_message(table: Table, seat: SeatRow, outcome: Outcome | None) -> dict[str, Any]:
    """The ephemeral confirmation `/match concede` answers with: the question, its buttons."""
    view = discord.ui.View(timeout=None)
    for op in CONCEDE_BUTTONS:
        view.add_item(ConcedeButton(op, table.match.id, seat.user_id))
    return {"content": concede_question(table, seat, outcome), "view": view, "ephemeral": True}


def done_text(result: ActResult) -> str:
    """What the acting player reads after an action: what they did (never its label
    alone, which reads as a button) and their private lines."""
    lines = [f"✅ {result.told}", *result.private_lines()]
    return clip("\n".join(lines), 2000)


# ------------------------------------------------------------------- flows


async def show_private(interaction: discord.Interaction, match_id: int) -> None:
    """Answer with the caller's private view, ephemeral."""
    pv = await service(interaction).view(match_id, interaction.user.id)
    shown = await private_content(arbiter(interaction), pv, in_dm=False, editing=False)
    sent = await interaction.response.send_message(ephemeral=True, **shown)
    arbiter(interaction).panels.shown(interaction, pv, sent.message_id)


def not_yours(table: Table, clicker: int, seat: int) -> str:
    """The refusal of a quick button clicked by someone it isn't for."""
    if clicker in table.to_act:
        return (
            f"These buttons are {table.user_of(seat).name}'s, so nothing happened: yours are "
            "under the latest message that calls you, and in `/hand`."
        )
    names = " and ".join(table.user_of(s).name for s in table.to_act)
    if not names:
        return errors.NotYourTurn.default
    return f"It is not your decision: waiting for {names}."


async def quick_step(
    interaction: discord.Interaction, match_id: int, seat: int, decisions: int, key: str
) -> None:
    """Take the quick action a button offers, for the seat it was posted for, then
    announce it as any action is: the answer is a deferred update of the message the
    button is on, which the publisher edits with the turn's lines through it. The
    clicker reads what only they may (a card drawn, say) in a private followup. A button
    of a private question (see `offer_privately`) turns that question into what
    happened, its buttons gone."""
    matches = service(interaction)
    table = await matches.table(match_id)
    mine = table.seat_of(interaction.user.id)
    if mine is None:
        raise errors.NotInMatch()
    if table.match.status != "active":
        raise await matches.not_in_play(table.match, mine.seat)
    if mine.seat != seat:
        raise errors.NotYourTurn(not_yours(table, mine.seat, seat))
    pv = await matches.view(match_id, interaction.user.id)
    narrowed = [c for c in pv.choices if c.key.startswith(f"{key}|")]
    if pv.decisions == decisions and narrowed and key not in {c.key for c in pv.choices}:
        await offer_privately(interaction, pv, narrowed)  # the button stands for these
        return
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        try:
            act = matches.act(match_id, interaction.user.id, key, decisions=decisions)
            result = await in_time(interaction, act)
        except errors.StaleChoice:
            raise errors.StaleChoice(STALE_BUTTONS) from None
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            # A private question answered: it now says what happened, its buttons gone.
            told = edit_answer(interaction, content=done_text(result), view=None)
            if await reply_after_save(interaction, told):
                carry(result.table)  # its followups post the public lines
            return
        if not interaction.response.is_done():
            await defer(interaction)
        carry(result.table)
        if result.private_lines():
            reply = interaction.followup.send(done_text(result), ephemeral=True)
            await reply_after_save(interaction, reply)


MOST_OFFERED = 20  # choices a quick button's private answer offers as buttons (4 rows of 5)


async def offer_privately(
    interaction: discord.Interaction,
    pv: PrivateView,
    choices: list[Choice],
    question: str | None = None,
) -> None:
    """Answer a quick button that stands for several choices whose names only its player
    may read (End turn with the cards to discard), or a command the game answers with a
    question (`question`: Historia's "where do the cubes come from?"): the choices as
    buttons in a private reply, one tap each; with more than MOST_OFFERED of them, the
    player's panel, where they are chosen together."""
    table = pv.table
    buttons = [
        QuickButton(
            table.match.id, pv.seat, pv.decisions, c.key, c.label, QUICK_STYLES["secondary"]
        )
        for c in choices
        if len(quick_id(table.match.id, pv.seat, pv.decisions, c.key)) <= CUSTOM_ID_LIMIT
        and not re.search(r"\s", c.key)
    ]
    if len(buttons) != len(choices) or len(buttons) > MOST_OFFERED:
        await show_private(interaction, table.match.id)
        return
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    if question is None:
        asked = pv.question or "choose"
        question = f"**{asked[:1].upper()}{asked[1:]}**"
    await answer(interaction, content=question, view=view, ephemeral=True)


async def dispute_step(
    interaction: discord.Interaction, match_id: int, era: int, number: int, seat: int
) -> None:
    """Dispute the report a Dispute button names, for the clicker, then announce it as
    any action is. Refused without change when the clicker doesn't play in the match or
    made the report, or the button is stale: the report is no longer the latest
    undisputed one. The caller checked the button (`component_match`) and deferred the
    interaction."""
    matches = service(interaction)
    table = await matches.table(match_id)
    mine = table.seat_of(interaction.user.id)
    if mine is None:
        raise errors.NotInMatch()
    if table.match.status != "active":
        raise await matches.not_in_play(table.match, mine.seat)
    key = f"dispute|{number}"
    offered = (table.view or {}).get("for_anyone") or []
    current = any(
        isinstance(e, dict) and e.get("key") == key and str(e.get("not_seat")) == str(seat)
        for e in offered
    )
    if not current or (table.view or {}).get("era", 0) != era:
        raise errors.StaleChoice(STALE_DISPUTE.format(number=number))
    # Its reporter is refused by the rules, which say what to do instead.
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        result = await matches.act(match_id, interaction.user.id, key)
        reply = interaction.followup.send(done_text(result), ephemeral=True)
        if await reply_after_save(interaction, reply):
            carry(result.table)  # the disputed line's message, edited through it


async def ask_concede(interaction: discord.Interaction, match_id: int) -> None:
    """Answer `/match concede` with its confirmation, ephemeral (nothing changes yet);
    refused at once when the caller could not concede."""
    table, seat, outcome = await service(interaction).concession(match_id, interaction.user.id)
    await interaction.response.send_message(**concede_message(table, seat, outcome))


async def lobby_step(
    interaction: discord.Interaction, op: str, match_id: int, *, on_lobby_message: bool
) -> None:
    """Join, leave, start or cancel a lobby, then update the lobby message.

    From a lobby button the answer is the edited lobby message itself; from a
    slash command it is an ephemeral confirmation and the lobby message is
    edited where it stands. The caller has deferred the interaction when it came
    from a lobby button; a slash command is deferred here.
    """
    if not on_lobby_message:
        await defer(interaction, ephemeral=True)
    matches = service(interaction)
    user = interaction.user
    # Its answer given, the interaction carries what the step tells the channel: the
    # lobby brought up to date, or the board and the first call (see `Publisher.through`).
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        if op == "join":
            table = await matches.join(match_id, user.id, shown_name(user.display_name))
            seat = table.seat_of(user.id)
            done = f"You joined the lobby (seat {seat.seat + 1 if seat else '?'})."
        elif op == "leave":
            table = await matches.leave(match_id, user.id)
            done = "You left the lobby."
            if host_left(table):
                done = (
                    "You left, and nobody else had taken a seat, so the lobby closed. "
                    "Open a new one with `/match new`."
                )
        elif op == "start":
            table = await matches.start(match_id, user.id)
            done = "The match has started."
        elif op in ("ai-easy", "ai-strong"):
            table = await matches.add_ai(match_id, user.id, op.removeprefix("ai-"))
            done = f"{AI_NAME} takes a seat."
        elif op == "no-ai":
            table = await matches.remove_ai(match_id, user.id)
            done = f"{AI_NAME} left the lobby."
        else:
            # Moderators stop other people's matches with /mod abort, which logs who did it.
            table = await matches.cancel(match_id, user.id)
            done = "The match was cancelled."
        await _lobby_answer(interaction, table, done, on_lobby_message)
        carry(table)


async def _lobby_answer(
    interaction: discord.Interaction, table: Table, done: str, on_lobby_message: bool
) -> None:
    """Answer a lobby step: with the lobby message brought up to date when the step came
    from it, else privately with `done`."""
    if on_lobby_message:
        reply = interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
        await reply_after_save(interaction, reply)
        if host_left(table):  # the message says so; the one who closed it is told too
            await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))
    else:
        await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))


async def option_step(
    interaction: discord.Interaction,
    match_id: int,
    option: str,
    value: str,
    *,
    on_lobby_message: bool,
) -> None:
    """The host sets one of a lobby's options (named by id or label), then the lobby
    message shows it.

    From a lobby menu the answer is the edited lobby message itself (a refusal also
    puts the clicker's menu back to the option's value); from `/match option` it is an
    ephemeral confirmation, and the lobby message is edited where it stands. The caller
    has deferred the interaction when it came from a menu.
    """
    if not on_lobby_message:
        await defer(interaction, ephemeral=True)
    matches = service(interaction)
    try:
        table = await matches.set_option(match_id, interaction.user.id, option, value)
    except errors.UserError:
        if on_lobby_message:
            await _show_lobby(interaction, match_id)
        raise
    if on_lobby_message:
        reply = interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
        if await reply_after_save(interaction, reply):
            return
    else:
        info = find_option(table.game, option)
        value = table.option_values[info.id]
        done = f"{info.label}: now **{info.choices[value]}**."
        await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))


async def _show_lobby(interaction: discord.Interaction, match_id: int) -> None:
    """Edit a lobby message to the lobby as it stands (its menus show the saved values;
    a match that started loses them); a failure is only logged."""
    try:
        table = await service(interaction).table(match_id)
        await interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
    except (discord.HTTPException, errors.UserError):
        log.info("could not show lobby %s again after a refusal", match_id, exc_info=True)


async def option_name_choices(
    matches: MatchService, channel_id: int | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The options of a channel's lobby, as `/match option name:` suggests them while
    typed: each by its label, with its value now and what it changes."""
    table = await _open_lobby(matches, channel_id)
    if table is None:
        return []
    wanted = typed.casefold().strip()
    offered = []
    for info, value in table.options:
        if wanted not in f"{info.id} {info.label} {info.blurb}".casefold():
            continue
        name = f"{info.label} (now: {short_choice(info, value)})"
        if info.blurb:
            name += f" — {info.blurb}"
        offered.append(app_commands.Choice(name=clip(name, 100), value=info.id))
    return offered[:25]


def named_choices(named: dict[str, str], typed: str) -> list[app_commands.Choice[str]]:
    """Suggestions of a fixed set of values (value: its name) that the typed text fits,
    spaces around it ignored (a space alone: all of them)."""
    wanted = typed.casefold().strip()
    return [
        app_commands.Choice(name=clip(label, 100), value=value)
        for value, label in named.items()
        if wanted in f"{value} {label}".casefold()
    ][:25]


async def option_value_choices(
    matches: MatchService, channel_id: int | None, option: str | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The choices of the option named in `/match option name:`, as `value:` suggests
    them while typed (the current one marked)."""
    table = await _open_lobby(matches, channel_id)
    if table is None or not option:
        return []
    try:
        info = find_option(table.game, option)
    except OptionError:
        return []
    now = table.option_values[info.id]
    wanted = typed.casefold().strip()
    return [
        app_commands.Choice(name=clip(label + (" (now)" if value == now else ""), 100), value=value)
        for value, label in info.choices.items()
        if wanted in f"{value} {label}".casefold()
    ][:25]


async def _open_lobby(matches: MatchService, channel_id: int | None) -> Table | None:
    """The lobby open in a channel, if there is one."""
    if channel_id is None:
        return None
    match = await matches.store.open_match_in(channel_id)
    if match is None or match.status != "lobby":
        return None
    return await matches.table(match.id)
