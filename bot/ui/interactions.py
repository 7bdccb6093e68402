"""How a component or command is answered: the bot and match service it reached, deferring
before work (Discord allows 3 seconds), answering once or editing the answer, and
`component_match`, which believes a custom id (it comes back from the client) only for
a match of the server it was used in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.host import Host, host
from bot.replies import where
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import MatchRow

log = logging.getLogger(__name__)


PAGE_SIZE = 25  # options in one select menu


MAX_ROW_ID = 2**63 - 1  # the largest id SQLite hands out: a custom id naming more is forged


DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"


DEFER_AFTER = 1.5  # seconds of work after which an interaction is deferred (Discord waits 3)


T = TypeVar("T")


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
    matches = service(interaction)
    await matches.db.sync()  # another process, a restore: what memory holds is checked first
    match = await matches.records.get(match_id)
    if match is None:
        raise refused
    if interaction.guild_id is not None:
        if match.guild_id != interaction.guild_id:
            raise refused
    elif match.guild_id is None and match.channel_id == interaction.channel_id:
        pass  # a match played in this very DM (a solitaire game)
    elif not in_dm or all(
        s.user_id != interaction.user.id for s in await matches.records.seats(match_id)
    ):
        raise refused
    if seat is not None and all(s.seat != seat for s in await matches.records.seats(match_id)):
        raise refused
    return match


def only_choice(menu: discord.ui.Select[Any]) -> str:
    """The one value a menu sent (each of ours takes exactly one); a refusal otherwise
    (a forged client's none, or several)."""
    if len(menu.values) != 1:
        raise errors.UserError(ONE_CHOICE)
    return menu.values[0]
