"""The bot: `create_bot()` returns it configured and unstarted.

Start-up (`setup_hook`) opens the store and applies its migrations, loads the
cogs, registers the persistent components (so buttons on old messages work
after a restart), syncs the slash commands, to one server when `ARBITER_GUILD` is
set, starts the match clocks' scheduler and has the publisher deliver what the
outbox still holds. `close()` stops the publisher and the clocks and closes the
database.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord.ext import commands

from bot import history
from bot.config import Settings
from bot.panels import Panels
from bot.pictures import PictureCache
from bot.publisher import Publisher
from bot.replies import ArbiterTree
from bot.service.clock import ClockService
from bot.service.matches import MatchService
from bot.service.stats import Stats
from bot.service.store import Store
from bot.ui import PERSISTENT_ITEMS
from cogs.cards import CardsCog
from cogs.clock import NotifyCog
from cogs.help import HelpCog
from cogs.historia import HistoriaCog
from cogs.lobby import MatchCog
from cogs.moderation import ModerationCog
from cogs.play import PlayCog
from cogs.profile import ProfileCog
from cogs.settings import SettingsCog
from cogs.stats import StatsCog
from rules.core import Game


class ArbiterBot(commands.Bot):
    """A Discord referee. Only the `guilds` intent: it reads no messages."""

    def __init__(self, settings: Settings, games: Mapping[str, Game] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=ArbiterTree,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._games = games
        self._store: Store | None = None
        self._matches: MatchService | None = None
        self._clock: ClockService | None = None
        self.publisher = Publisher(self)
        self.panels = Panels(self)
        self.pictures = PictureCache()

    @property
    def matches(self) -> MatchService:
        """The match service (available once the bot has started)."""
        if self._matches is None:
            raise RuntimeError("the bot has not started: its match service is not open yet")
        return self._matches

    @property
    def clock(self) -> ClockService:
        """The match clocks (available once the bot has started)."""
        if self._clock is None:
            raise RuntimeError("the bot has not started: its clocks are not running yet")
        return self._clock

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, register persistent components, sync commands."""
        self._store = await Store.open(self.settings.arbiter_db, now=discord.utils.utcnow)
        self._store.on_outbox(self.publisher.wake)
        self._matches = MatchService(self._store, self._games)
        self._clock = ClockService(self._matches, discord.utils.utcnow)
        self._matches.on_change(self._clock.on_change)
        self._matches.on_change(self.panels.on_change)
        stats = Stats(self._matches)
        await stats.catch_up()
        for cog in (MatchCog(self), PlayCog(self), HelpCog(self)):
            await self.add_cog(cog)
        for cog in (ModerationCog(self), SettingsCog(self), StatsCog(self)):
            await self.add_cog(cog)
        await self.add_cog(NotifyCog(self))
        await self.add_cog(ProfileCog(self))
        await self.add_cog(CardsCog(self))
        await self.add_cog(HistoriaCog(self))
        self.add_dynamic_items(*PERSISTENT_ITEMS, *history.PERSISTENT_ITEMS)
        if self.settings.arbiter_guild is not None:
            guild = discord.Object(self.settings.arbiter_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self._clock.start()
        await self.publisher.start()

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Keep a match's thread open when Discord archives it."""
        await self.publisher.keep_open(payload)

    async def close(self) -> None:
        """Stop the clocks, disconnect, then close the database."""
        try:
            await self.publisher.stop()
            if self._clock is not None:
                await self._clock.stop()
            await super().close()
        finally:
            store, self._store, self._matches, self._clock = self._store, None, None, None
            if store is not None:
                await store.close()


def create_bot(
    settings: Settings | None = None, *, games: Mapping[str, Game] | None = None
) -> ArbiterBot:
    """The configured, unstarted bot. `games` defaults to every game in `rules.registry`."""
    return ArbiterBot(settings or Settings(), games)
