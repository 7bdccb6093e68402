"""The tournament desk: the Discord side of tournaments (`bot.service.tournaments`).

It keeps each open tournament's message (the sign-up, then the standings) up to date,
opens each pairing's match in a thread of the tournament's channel, hears of every match
that ends, and keeps two moments per tournament: the end of its sign-up (it starts, or is
cancelled for want of players) and the deadline of the round being played.

Everything it does is worked out again from what is stored (`settle`), so a restart in
the middle of a round finishes what was begun and repeats nothing: a pairing's thread is
found by its name before one is made, its match and the line calling its players are
saved together (the line goes out through the outbox, once), and the tournament's
message is edited, never posted anew while it exists (nor when a post of it since is
in the channel, its id lost in a stop). Only the process serving a
server's shard acts for its tournaments.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Hashable
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.host import Host
from bot.names import plain, shown_name
from bot.publisher import posted_by_me
from bot.render.tournament import standings_embed
from bot.replies import guard
from bot.service import errors
from bot.service.locks import KeyedLocks
from bot.service.scheduler import Scheduler
from bot.service.store import TournamentGame
from bot.service.tournaments import OVER, Event, Tournaments
from bot.ui.interactions import ROW_IDS, arbiter
from rules.core.text import cut

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 10080  # a week: a match's thread stays in the channel list
RETRY_AFTER = timedelta(minutes=5)  # a moment that failed is tried again after this
FIRST_SHOW_WAIT = timedelta(minutes=1)  # a message Discord didn't take: shown again then,
MAX_SHOW_WAIT = timedelta(hours=1)  # and after twice as long each time, up to this
NOT_FROM_HERE = "That button isn't from a tournament here, so nothing happened."
SIGNUP_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
}


def thread_name(event: Event, game: TournamentGame) -> str:
    """The name of a pairing's thread (how it is found again after a restart)."""
    name = f"{event.row.name} #{event.row.id} · R{game.round} T{game.board}: "
    return cut(plain(f"{name}{event.name(game.a)} v {event.name(game.b)}"), 100)


class TournamentDesk:
    """Every open tournament's message, threads and moments."""

    def __init__(self, bot: Host, service: Tournaments) -> None:
        self.bot = bot
        self.service = service
        self._scheduler = Scheduler(self._fire, discord.utils.utcnow)
        self._locks = KeyedLocks()
        self._starting: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # results being collected
        self._retry: dict[Hashable, datetime] = {}  # a moment that failed: not before then
        self._waited: dict[int, timedelta] = {}  # a message not shown: the last wait

    async def start(self) -> None:
        """Arm every open tournament's moment and, once the bot knows its servers'
        channels, settle it (what a stop interrupted)."""
        self._scheduler.clear()
        self._scheduler.start()
        self._starting = asyncio.create_task(self._settle_all())

    async def stop(self) -> None:
        """Stop the moments and what is under way."""
        for task in [self._starting, *self._tasks]:
            if task is not None:
                task.cancel()
        await self._scheduler.stop()

    async def idle(self) -> None:
        """Wait until no result is being collected."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _settle_all(self) -> None:
        await self.bot.wait_until_ready()
        for row in await self.service.tournaments.open():
            try:
                await self.settle(row.id)
            except Exception:
                log.exception("tournament %s: could not be settled", row.id)

    async def on_match_change(self, match_id: int) -> None:
        """A match changed: if it is over, its result counts for its tournament, away
        from the move that ended it (whose player is not kept waiting for the next
        round's threads)."""
        if (await self.bot.matches.get(match_id)).status not in OVER:
            return  # from memory: nothing for the moves of a match in play
        task = asyncio.create_task(self._collect(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _collect(self, match_id: int) -> None:
        try:
            event = await self.service.collect(match_id, now=discord.utils.utcnow())
            if event is not None:
                await self.settle(event.row.id)
        except Exception:
            log.exception("match %s: its tournament result could not be collected", match_id)

    async def settle(self, tournament_id: int) -> Event:
        """Bring Discord in line with the tournament: its moment armed, each pairing of
        the round seated in its thread, its message showing it as it stands."""
        async with self._locks(tournament_id):
            event = await self.service.event(tournament_id)
            if not self.service.matches.db.owns(event.row.guild_id):
                return event
            event = await self.service.resume(tournament_id, now=discord.utils.utcnow())
            self._arm(event)
            if event.row.status == "running":
                for game in event.round_games():
                    if game.b is not None and game.points is None and await self._unseated(game):
                        try:
                            await self._seat(event, game)
                        except Exception:  # the others are still seated, the message shown
                            log.exception(
                                "tournament %s: table %d could not be opened",
                                event.row.id,
                                game.board,
                            )
                event = await self.service.event(tournament_id)
            try:
                await self._show(event)
            except (discord.HTTPException, OSError) as failed:
                # Discord unreachable or refusing: shown again later, from what is stored.
                last = self._waited.get(tournament_id)
                wait = min(MAX_SHOW_WAIT, 2 * last) if last else FIRST_SHOW_WAIT
                self._waited[tournament_id] = wait
                log.warning("tournament %s: message not shown (%s)", tournament_id, failed)
                self._scheduler.arm(("show", tournament_id), discord.utils.utcnow() + wait)
            else:
                self._waited.pop(tournament_id, None)
            return event

    async def _unseated(self, game: TournamentGame) -> bool:
        """Whether a pairing still needs its match opened (or started: a stop came
        between its lobby and its start)."""
        if game.match_id is None:
            return True
        return (await self.bot.matches.get(game.match_id)).status == "lobby"

    def _arm(self, event: Event) -> None:
        row = event.row
        for key in (("signup", row.id), ("round", row.id)):
            self._scheduler.disarm(key)
        if row.status == "signup":
            self._arm_at(("signup", row.id), row.signup_until)
        elif row.status == "running" and row.round_ends is not None:
            self._arm_at(("round", row.id), row.round_ends)

    def _arm_at(self, key: Hashable, moment: str) -> None:
        when = datetime.fromisoformat(moment)
        retry = self._retry.get(key)
        self._scheduler.arm(key, max(when, retry) if retry is not None else when)

    async def _fire(self, key: Hashable) -> None:
        assert isinstance(key, tuple)
        kind, tournament_id = key
        now = discord.utils.utcnow()
        try:
            event = await self.service.event(tournament_id)
            row = event.row
            # A moment armed earlier may wake after its tournament moved on (its round
            # over early, another process's change): it acts only if still due.
            due = {"signup": row.signup_until, "round": row.round_ends}.get(kind)
            if kind != "show" and (due is None or now < datetime.fromisoformat(due)):
                kind = "show"  # not due (any more): only settled, which arms it again
            if kind == "signup" and event.row.status == "signup":
                try:
                    await self.service.start(tournament_id, None, now=now)
                except errors.WrongPlayerCount as short:
                    await self.service.cancel(tournament_id, None, why=str(short))
            elif kind == "round" and event.row.status == "running":
                await self.service.deadline(tournament_id, event.row.round, now=now)
            # ("show", id): only the settling below, which shows the message again
            self._retry.pop(key, None)
        except Exception:
            log.exception("tournament %s: its %s moment failed", tournament_id, kind)
            self._retry[key] = now + RETRY_AFTER  # not again at once, over and over
        await self.settle(tournament_id)

    async def _seat(self, event: Event, game: TournamentGame) -> None:
        """Open a pairing's match in its thread (found, or made)."""
        channel = self.bot.get_channel(event.row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: its channel is gone", event.row.id)
            return
        name = thread_name(event, game)
        # The channel's active threads are known from the gateway (a restart's included).
        thread = next((t for t in channel.threads if t.name == name), None)
        if thread is None:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        await self.service.seat(event.row.id, game.round, game.board, thread.id)

    async def _show(self, event: Event) -> None:
        """Edit the tournament's message to show it as it stands. If it is gone, it is
        posted anew, unless a post of it since is found in the channel (the process
        stopped before the new message's id was saved)."""
        row = event.row
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        game = self.bot.matches.game(row.game)
        embed = standings_embed(event, game)
        view = tournament_view(event)
        if row.message_id is not None:
            try:
                await channel.get_partial_message(row.message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass
        since = row.message_id or discord.utils.time_snowflake(
            datetime.fromisoformat(row.created_at)
        )
        found = await posted_by_me(self.bot, channel, f"Tournament #{row.id}", since)
        if found is not None:
            await channel.get_partial_message(found).edit(embed=embed, view=view)
            message_id = found
        else:
            message_id = (await channel.send(embed=embed, view=view)).id
        await self.service.tournaments.set_message(row.id, message_id)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:tournament:(?P<op>join|leave):(?P<tournament_id>[0-9]+)",
):
    """Join / Leave under a tournament's sign-up."""

    def __init__(self, op: str, tournament_id: int) -> None:
        label, style = SIGNUP_BUTTONS[op]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"arbiter:tournament:{op}:{tournament_id}"
            )
        )
        self.op = op
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["op"], int(match["tournament_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            desk = arbiter(interaction).desk
            refused = errors.NotFromHere(NOT_FROM_HERE)
            if self.tournament_id not in ROW_IDS:
                raise refused
            try:
                event = await desk.service.event(self.tournament_id)
            except errors.NoTournament:
                raise refused from None
            if event.row.channel_id != interaction.channel_id:
                raise refused
            user = interaction.user
            if self.op == "join":
                event = await desk.service.join(
                    self.tournament_id, user.id, shown_name(user.display_name)
                )
            else:
                event = await desk.service.leave(self.tournament_id, user.id)
            game = desk.bot.matches.game(event.row.game)
            await interaction.response.edit_message(
                embed=standings_embed(event, game), view=tournament_view(event)
            )


def tournament_view(event: Event) -> discord.ui.View | None:
    """The buttons under a tournament's message: Join and Leave while it signs up."""
    if event.row.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    for op in SIGNUP_BUTTONS:
        view.add_item(TournamentButton(op, event.row.id))
    return view


# The components of tournaments that outlive a restart (`cogs.tournament` registers them).
PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TournamentButton,)
