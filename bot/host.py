"""What the bot's parts (the publisher, the panels, the tournament desk, the health
checks, the components) and the cogs use of the bot, named without its class:
`bot.app` builds the bot from those parts and loads the cogs as extensions, so none of
them imports it back. `Host` lists the bot's services and the few Discord client calls
the parts make; a part the others reach through the bot is a small protocol here."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol, cast

import discord
from discord.ext import commands

from bot.config import Settings
from bot.pictures import Picture, PictureCache
from bot.service.clock import ClockService
from bot.service.hints import Hints
from bot.service.leases import Leases
from bot.service.matches import MatchService
from bot.service.metrics import Metrics
from bot.service.stats import Stats
from bot.service.tables import PrivateView, Table
from bot.service.tournaments import Event, Tournaments


class Delivery(Protocol):
    """The publisher, as a component sees it (`bot.publisher.Publisher`)."""

    def through(
        self, interaction: discord.Interaction, match_id: int
    ) -> AbstractContextManager[Callable[[Table], None]]:
        """While `interaction` acts in a match: its answer carries the action's delivery."""
        ...

    async def board_mode(self, table: Table) -> str:
        """How the table's board is shown: a picture or text."""
        ...

    async def board_picture(self, table: Table, mode: str) -> Picture | None:
        """The table's board drawn (None where it is shown as text)."""
        ...


class OpenPanels(Protocol):
    """The private panels open in servers (`bot.panels.Panels`)."""

    def shown(
        self, interaction: discord.Interaction, pv: PrivateView, message_id: int | None = None
    ) -> None:
        """A private view was just drawn as `interaction`'s answer."""
        ...

    def acting(
        self, interaction: discord.Interaction, match_id: int
    ) -> AbstractContextManager[None]:
        """While a panel's own menu takes an action."""
        ...


class Desk(Protocol):
    """The tournaments' Discord side (`bot.desk.TournamentDesk`)."""

    service: Tournaments

    async def settle(self, tournament_id: int) -> Event:
        """Bring Discord in line with the tournament."""
        ...


class Host(Protocol):
    """The bot, as its parts and cogs use it (`bot.app.ArbiterBot`)."""

    settings: Settings
    metrics: Metrics
    pictures: PictureCache
    publisher: Delivery
    panels: OpenPanels
    leases: Leases | None

    @property
    def matches(self) -> MatchService: ...

    @property
    def clock(self) -> ClockService: ...

    @property
    def hints(self) -> Hints: ...

    @property
    def stats(self) -> Stats: ...

    @property
    def desk(self) -> Desk: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def shards(self) -> dict[int, discord.ShardInfo]: ...

    def is_ready(self) -> bool: ...

    async def wait_until_ready(self) -> None: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(
        self,
        id: int,
        *,
        guild_id: int | None = None,
        type: discord.ChannelType | None = None,
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


def host(bot: commands.Bot | discord.Client) -> Host:
    """The bot an extension is loaded into, or an interaction came to (`bot.app` builds
    it with every part `Host` names)."""
    return cast(Host, bot)
