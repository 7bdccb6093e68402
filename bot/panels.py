"""Open panels: a player's `/hand` message follows the game while it can be edited.

A private view (`/hand`, the board's "My hand", the panel's own menus and pages) is an
ephemeral answer to an interaction, and the interaction's token lets the bot edit that
answer for 15 minutes, with a call that spends none of the bot's global rate limit.
While a panel is that fresh it is redrawn in place after a change when it no longer
shows its player's decision: the decision came back to them (an attack answered, a
teammate done, the turn come round: "🔔 Back to you"), or their decision count moved on
without the panel (they decided another way: a button under the turn's message, `/play`,
a game's command, another panel; or a timeout, an undo), so its menu is never out of
date. The panel a choice was made on shows its outcome itself. Nothing here is kept
across a restart: a panel older than that is refreshed by its player.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord

from bot.host import Host
from bot.service import errors
from bot.service.tables import PrivateView
from bot.ui.table import private_content

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


def _message_of(interaction: discord.Interaction) -> int | None:
    """The message a component was used on (a panel's own menu or page)."""
    return interaction.message.id if interaction.message is not None else None


@dataclass
class Panel:
    """A private view shown to one player of one match, as last drawn."""

    interaction: discord.Interaction  # the one whose answer it is now
    deciding: bool  # whether it showed a decision of theirs
    decisions: int  # their decision count then: the one its menu carries
    # One redraw at a time, each reading the match when its turn comes: they land in order.
    drawing: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def editable(self) -> bool:
        """Whether Discord still lets its answer be edited."""
        return discord.utils.utcnow() - self.interaction.created_at <= EDITABLE_FOR


class Panels:
    """The fresh panels of every match, by (match id, user id), then by message: a new
    panel replaces the ones before it, and another that comes back to life (its menu or
    Refresh used once its answer could no longer be edited) is followed beside it."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._open: dict[tuple[int, int], dict[int, Panel]] = {}
        self._acting: Counter[int] = Counter()  # messages whose own menu is taking an action
        self._missed: set[int] = set()  # of those, the ones a change was not shown on
        self._tasks: set[asyncio.Task[None]] = set()

    def shown(
        self, interaction: discord.Interaction, pv: PrivateView, message_id: int | None = None
    ) -> None:
        """A private view was just drawn as `interaction`'s answer (`message_id`: the
        message it posted; else the one its component is on), in a server channel (a
        copy in one's DMs is a message of its own, kept up to date by DM)."""
        if interaction.guild is None:
            return
        key = (pv.table.match.id, interaction.user.id)
        message = message_id or _message_of(interaction) or interaction.id
        panels = self._open.setdefault(key, {})
        if _opens_a_panel(interaction):
            for old in panels.values():
                if old.editable:
                    self._start(self._replaced(old))
            panels.clear()
        panels[message] = Panel(interaction, pv.question is not None, pv.decisions)

    @contextmanager
    def acting(self, interaction: discord.Interaction, match_id: int) -> Iterator[None]:
        """While a panel's own menu takes an action: the change is shown on that panel by
        the menu's answer, so it is not redrawn meanwhile; a change made by someone else
        meanwhile is looked at once the answer is drawn."""
        message = _message_of(interaction)
        if message is None:
            yield
            return
        self._acting[message] += 1
        try:
            yield
        finally:
            self._acting[message] -= 1
            if not self._acting[message]:
                del self._acting[message]
                if message in self._missed:
                    self._missed.discard(message)
                    self._start(self.on_change(match_id))

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
        match that no longer shows its player's decision: they decided since (any other
        way than on it; or a timeout or an undo moved their decisions on), or the decision
        is theirs now and was not when it was drawn."""
        fresh = [
            (user, message, panel)
            for (match, user), panels in list(self._open.items())
            if match == match_id
            for message, panel in list(panels.items())
            if self._fresh(match, user, panel)
        ]
        if not fresh:
            return
        table = await self.bot.matches.table(match_id)
        deciders = {table.user_of(seat).user_id for seat in table.to_act}
        for user, message, panel in fresh:
            seat = table.seat_of(user)
            if seat is None:
                continue
            if message in self._acting:
                self._missed.add(message)  # its own answer may show the change; see `acting`
                continue
            deciding = user in deciders
            if seat.decisions != panel.decisions:
                self._start(self._redraw(match_id, user, message, panel, back=False))
            elif deciding and not panel.deciding:
                self._start(self._redraw(match_id, user, message, panel, back=True))
            panel.deciding, panel.decisions = deciding, seat.decisions

    def _fresh(self, match_id: int, user_id: int, panel: Panel) -> bool:
        """Whether the panel can still be edited; forgotten once it can't."""
        if panel.editable:
            return True
        self._forget(match_id, user_id, panel)
        return False

    def _forget(self, match_id: int, user_id: int, panel: Panel) -> None:
        panels = self._open.get((match_id, user_id), {})
        for message, held in list(panels.items()):
            if held is panel:
                del panels[message]
        if not panels:
            self._open.pop((match_id, user_id), None)

    def _held(self, match_id: int, user_id: int, panel: Panel) -> bool:
        """Whether the panel is still followed (not replaced, or drawn again, meanwhile)."""
        return any(held is panel for held in self._open.get((match_id, user_id), {}).values())

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait until no redraw is under way (tests use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _redraw(
        self, match_id: int, user_id: int, message: int, panel: Panel, *, back: bool
    ) -> None:
        """Draw the panel (on `message`) again as the match stands (`back`: because the
        decision came back to its player, said on top; not drawn if it went away again)."""
        async with panel.drawing:
            if not self._held(match_id, user_id, panel):
                return  # a newer panel was drawn meanwhile, or this one by its own menu
            try:
                pv = await self.bot.matches.view(match_id, user_id)
            except errors.UserError:
                self._forget(match_id, user_id, panel)  # no longer seated, or no such match
                return
            if back and pv.question is None:
                return  # no longer theirs
            shown = await private_content(self.bot, pv, in_dm=False, editing=True)
            if not self._held(match_id, user_id, panel) or message in self._acting:
                return  # its own menu's answer draws it now
            content = back_to_you(pv) if back else brought_up_to_date(pv)
            try:
                await panel.interaction.edit_original_response(content=content, **shown)
            except discord.HTTPException:
                # The panel was dismissed or its token lapsed: its player opens a new one.
                log.info("match %s: panel of user %s could not be redrawn", match_id, user_id)
                self._forget(match_id, user_id, panel)


LINES_ON_TOP = 1500  # characters: the panel's text above its embed (Discord allows 2,000)


def back_to_you(pv: PrivateView) -> str:
    """The lines on top of a panel redrawn because the decision came back: everything
    from the player's own last decision on, as they saw it."""
    return _from_my_move("🔔 Back to you.", pv)


def brought_up_to_date(pv: PrivateView) -> str:
    """The lines on top of a panel redrawn because its player's decisions moved on
    without it (a choice made another way, a timeout, an undo): the same story."""
    return _from_my_move("🔄 Up to date.", pv)


def _from_my_move(head: str, pv: PrivateView) -> str:
    """`head`, then the lines from the player's own last decision on (when that is too
    long for the message, the oldest lines are left out and counted)."""
    lines = pv.since_mine or pv.recent[-1:]
    if not lines:
        return head
    head += " From your last move on:"
    shown: list[str] = []
    for line in reversed(lines):  # the latest lines matter most
        if len("\n".join([head, line, *shown])) > LINES_ON_TOP - 40:
            break
        shown.insert(0, line)
    left_out = len(lines) - len(shown) + (1 if pv.more_before else 0)
    more = [f"…and {left_out} earlier line{'s' if left_out != 1 else ''} (`/match log`)."]
    return "\n".join([head, *(more if left_out else []), *(f"• {s}" for s in shown)])
