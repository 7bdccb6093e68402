"""Open panels: a player's `/hand` message comes back to life when the decision does.

A private view (`/hand`, the board's "My hand", the panel's own menus and pages) is an
ephemeral answer to an interaction, and the interaction's token lets the bot edit that
answer for 15 minutes, with a call that spends none of the bot's global rate limit.
While a panel is that fresh, a change made by someone else that hands the decision back
to its player (an attack answered, a teammate done, the turn come round) redraws it in
place, so the player does not have to tap Refresh. A panel already showing a decision
is left alone: its menu still works, and its player is the one changing it. Nothing
here is kept across a restart: a panel older than that is refreshed by its player.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.service import errors
from bot.service.matches import PrivateView
from bot.ui import private_content

if TYPE_CHECKING:
    from bot.app import ArbiterBot

log = logging.getLogger(__name__)

# Discord lets an interaction's answer be edited for 15 minutes; a minute is kept spare
# so an edit under way never meets an expired token.
EDITABLE_FOR = timedelta(minutes=14)


REPLACED = "🔁 This panel was replaced by a newer one: use that one (or `/hand`)."


def _opens_a_panel(interaction: discord.Interaction) -> bool:
    """Whether an interaction's answer is a new panel (`/hand`, the board's My hand),
    not an older panel's own menu or page drawn again."""
    if interaction.type == discord.InteractionType.application_command:
        return True
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    return custom_id.startswith("arbiter:hand:")


@dataclass
class Panel:
    """The latest private view shown to one player of one match."""

    interaction: discord.Interaction
    deciding: bool  # whether it showed a decision of theirs when drawn


class Panels:
    """The fresh panels of every match, by (match id, user id): at most one per player,
    the one they touched last."""

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        self._open: dict[tuple[int, int], Panel] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def shown(self, interaction: discord.Interaction, pv: PrivateView) -> None:
        """A private view was just drawn as `interaction`'s answer, in a server channel
        (a copy in one's DMs is a message of its own, kept up to date by DM)."""
        if interaction.guild is None:
            return
        key = (pv.table.match.id, interaction.user.id)
        old = self._open.get(key)
        self._open[key] = Panel(interaction, deciding=pv.question is not None)
        editable = (
            old is not None and discord.utils.utcnow() - old.interaction.created_at <= EDITABLE_FOR
        )
        if old is not None and editable and _opens_a_panel(interaction):
            task = asyncio.get_running_loop().create_task(self._replaced(old))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _replaced(panel: Panel) -> None:
        """An older panel, once a newer one is open: it says so, and loses its menu (its
        choices would only be refused as out of date)."""
        try:
            await panel.interaction.edit_original_response(
                content=REPLACED, embeds=[], attachments=[], view=None
            )
        except discord.HTTPException:
            log.info("an older panel could not be marked as replaced")

    async def on_change(self, match_id: int) -> None:
        """After a committed change: redraw, in the background, each fresh panel of the
        match whose player has a decision now and had none when it was last drawn (or
        has decided since, by another way)."""
        fresh = [
            (user, panel)
            for (match, user), panel in list(self._open.items())
            if match == match_id and self._fresh(match, user, panel)
        ]
        if not fresh:
            return
        table = await self.bot.matches.table(match_id)
        deciders = {table.user_of(seat).user_id for seat in table.to_act}
        for user, panel in fresh:
            deciding = user in deciders
            if deciding and not panel.deciding:
                task = asyncio.get_running_loop().create_task(self._redraw(match_id, user, panel))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            panel.deciding = deciding

    def _fresh(self, match_id: int, user_id: int, panel: Panel) -> bool:
        """Whether the panel can still be edited; forgotten once it can't."""
        if discord.utils.utcnow() - panel.interaction.created_at <= EDITABLE_FOR:
            return True
        del self._open[(match_id, user_id)]
        return False

    async def idle(self) -> None:
        """Wait until no redraw is under way (tests use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _redraw(self, match_id: int, user_id: int, panel: Panel) -> None:
        try:
            pv = await self.bot.matches.view(match_id, user_id)
        except errors.UserError:
            self._open.pop((match_id, user_id), None)  # no longer seated, or no such match
            return
        if pv.question is None or self._open.get((match_id, user_id)) is not panel:
            return  # no longer theirs, or a newer panel was drawn meanwhile
        shown = await private_content(self.bot, pv, in_dm=False, editing=True)
        try:
            await panel.interaction.edit_original_response(content=back_to_you(pv), **shown)
        except discord.HTTPException:
            # The panel was dismissed or its token lapsed: its player opens a new one.
            log.info("match %s: panel of user %s could not be redrawn", match_id, user_id)
            self._open.pop((match_id, user_id), None)


BACK_TO_YOU = 1500  # characters: the panel's text above its embed (Discord allows 2,000)


def back_to_you(pv: PrivateView) -> str:
    """The lines on top of a panel redrawn because the decision came back: everything
    from the player's own last decision on, as they saw it (when that is too long for
    the message, the oldest lines are left out and counted)."""
    lines = pv.since_mine or pv.recent[-1:]
    if not lines:
        return "🔔 Back to you."
    head = "🔔 Back to you. From your last move on:"
    shown: list[str] = []
    for line in reversed(lines):  # the latest lines matter most
        if len("\n".join([head, line, *shown])) > BACK_TO_YOU - 40:
            break
        shown.insert(0, line)
    left_out = len(lines) - len(shown) + (1 if pv.more_before else 0)
    more = [f"…and {left_out} earlier line{'s' if left_out != 1 else ''} (`/match log`)."]
    return "\n".join([head, *(more if left_out else []), *(f"• {s}" for s in shown)])
