"""The bot: `create_bot()` returns it configured and unstarted.

Start-up (`setup_hook`) opens the store and applies its migrations, loads the
cogs as extensions (each registers its components that outlive a restart, so buttons
on old messages still work), syncs the slash commands, to one server when
`ARBITER_GUILD` is set, starts the match clocks' scheduler and has the publisher deliver what the
outbox still holds. `close()` stops the publisher and the clocks and closes the
database.

The bot runs the gateway shards its settings name (all of them by default). On
PostgreSQL, where several processes may share the database, the clocks and the
publisher serve the shards whose leases this process holds (`bot.service.leases`),
and start again on the new ones whenever those change; on SQLite one process serves
every shard.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord.ext import commands

from bot.config import Settings
from bot.desk import TournamentDesk
from bot.health import Health
from bot.panels import Panels
from bot.pictures import PictureCache
from bot.publisher import Publisher
from bot.replies import ArbiterTree
from bot.service.clock import ClockService
from bot.service.hints import Hints
from bot.service.leases import Leases
from bot.service.logs import name_process
from bot.service.matches import MatchService
from bot.service.metrics import Metrics
from bot.service.players import DM_PAUSE, AIPlayers
from bot.service.stats import Stats
from bot.service.store import Store
from bot.service.tournaments import Tournaments
from rules.core import Game

# The cogs, each with the components of its own that outlive a restart, loaded by name
# (each module's `setup`), in the order their commands are listed.
EXTENSIONS = (
    "cogs.lobby",
    "cogs.play",
    "cogs.help",
    "cogs.moderation",
    "cogs.settings",
    "cogs.stats",
    "cogs.tournament",
    "cogs.clock",
    "cogs.profile",
    "cogs.cards",
    "cogs.historia",
)


class ArbiterBot(commands.AutoShardedBot):
    """A Discord referee. Only the `guilds` intent: it reads no messages."""

    def __init__(self, settings: Settings, games: Mapping[str, Game] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        self.metrics = Metrics()
        super().__init__(
            http_trace=self.metrics.trace(),
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=ArbiterTree,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.arbiter_shard_count,
            shard_ids=sorted(settings.shards),
        )
        self.settings = settings
        self._games = games
        self._store: Store | None = None
        self._matches: MatchService | None = None
        self._clock: ClockService | None = None
        self._players: AIPlayers | None = None
        self._stats: Stats | None = None
        self._hints: Hints | None = None
        self._desk: TournamentDesk | None = None
        self.leases: Leases | None = None
        self._serving = False  # the clocks and the publisher have started
        self.health: Health | None = None
        self.publisher = Publisher(self)
        self.panels = Panels(self)
        self.pictures = PictureCache(metrics=self.metrics)
        self.metrics.read_with(self._figures)

    @property
    def store(self) -> Store:
        """The database and its repositories (open once the bot has started)."""
        if self._store is None:
            raise RuntimeError("the bot has not started: its database is not open yet")
        return self._store

    @property
    def matches(self) -> MatchService:
        """The match service (available once the bot has started)."""
        if self._matches is None:
            raise RuntimeError("the bot has not started: its match service is not open yet")
        return self._matches

    @property
    def players(self) -> AIPlayers:
        """The AI's seats (available once the bot has started)."""
        if self._players is None:
            raise RuntimeError("the bot has not started: the AI is not seated yet")
        return self._players

    @property
    def hints(self) -> Hints:
        """Hints for learners (available once the bot has started)."""
        if self._hints is None:
            raise RuntimeError("the bot has not started: its hints are not ready yet")
        return self._hints

    @property
    def stats(self) -> Stats:
        """Results and ratings (available once the bot has started)."""
        if self._stats is None:
            raise RuntimeError("the bot has not started: its results are not read yet")
        return self._stats

    @property
    def desk(self) -> TournamentDesk:
        """The tournaments' Discord side (available once the bot has started)."""
        if self._desk is None:
            raise RuntimeError("the bot has not started: its tournaments are not open yet")
        return self._desk

    @property
    def clock(self) -> ClockService:
        """The match clocks (available once the bot has started)."""
        if self._clock is None:
            raise RuntimeError("the bot has not started: its clocks are not running yet")
        return self._clock

    async def setup_hook(self) -> None:
        """Open the store, load the cogs (`EXTENSIONS`), sync the commands, start serving."""
        await self.start_health()  # done already when run by `bot.runner`
        self._store = await Store.open(self.settings.arbiter_db, now=discord.utils.utcnow)
        if self._store.db.engine.name == "postgresql":
            # No shard's work until its lease is held (see `_serve_shards`).
            self._store.db.serve(self.settings.arbiter_shard_count, ())
        self._store.db.on_outbox(self.publisher.wake)
        self._matches = MatchService(self._store, self._games, self.metrics)
        self._clock = ClockService(self._matches, discord.utils.utcnow)
        self._matches.on_change(self._clock.on_change)
        self._matches.on_change(self.panels.on_change)
        self._players = AIPlayers(
            self._matches,
            self.settings.arbiter_ai_workers,
            pause=self.settings.arbiter_ai_pause,
            dm_pause=min(DM_PAUSE, self.settings.arbiter_ai_pause),
            think=self.settings.arbiter_ai_think,
            now=discord.utils.utcnow,
        )
        self._matches.on_change(self._players.on_change)
        self._hints = Hints(self._matches, self._players)
        self._stats = Stats(self._matches, self._store.results, self._store.ratings)
        await self._stats.catch_up()
        tournaments = Tournaments(
            self._matches, self._store.tournaments, self._store.results, self._store.ratings
        )
        self._desk = TournamentDesk(self, tournaments)
        self._matches.on_change(self._desk.on_match_change)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.arbiter_guild is not None:
            guild = discord.Object(self.settings.arbiter_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self._serve_shards(self._store)
        await self._clock.start()
        await self.publisher.start()
        await self._players.start()
        await self._desk.start()
        self._serving = True

    async def start_health(self) -> None:
        """Serve the health checks on ARBITER_HEALTH_PORT, when set, unless they are served
        already: `bot.runner` starts them before Discord is reached, so that /healthz
        answers while the process waits for it."""
        if self.health is None and self.settings.arbiter_health_port is not None:
            self.health = Health(self, self.settings.arbiter_health_port)
            await self.health.start()

    async def _serve_shards(self, store: Store) -> None:
        """Take the leases of the shards to serve (PostgreSQL), or serve them all."""
        count = self.settings.arbiter_shard_count
        if store.db.engine.name != "postgresql":
            store.db.serve(count, range(count))
            return
        self.leases = Leases(
            store.leases, count, self.settings.shards, ttl=self.settings.arbiter_lease_ttl
        )
        name_process(self.leases.holder)
        self.leases.on_change(self._served)
        self.leases.sweep_with(lambda: self.clock.sweep())
        await self.leases.start()

    async def _served(self, held: frozenset[int]) -> None:
        """The shards this process holds changed: serve those. The deliveries under way
        end first and what they did is saved, before another process may take a shard
        over (it reads that bookkeeping)."""
        leases = self.leases
        assert self._store is not None and leases is not None
        if self._serving:
            await self.publisher.stop(finish=leases.ttl / 4)
            await self._store.db.flush()
        self._store.db.serve(leases.count, held, leases.certain)
        if self._serving:
            await self.clock.restart()
            await self.publisher.start()
            await self.players.start()
            await self.desk.start()

    async def _figures(self, metrics: Metrics) -> None:
        """Bring the gauges read off the store and the leases up to date (before a
        scrape): the outbox's backlog, the matches under way, the shards served."""
        store = self._store
        if store is None:
            return
        waiting, oldest = await store.outbox.backlog()
        metrics.outbox_waiting.set(waiting)
        age = 0.0 if oldest is None else (discord.utils.utcnow() - oldest).total_seconds()
        metrics.outbox_oldest.set(max(0.0, age))
        metrics.matches_active.clear()
        for game, count in (await store.matches.active_by_game()).items():
            metrics.matches_active.labels(game).set(count)
        held = self.leases.held if self.leases is not None else self.settings.shards
        for shard in sorted(self.settings.shards):
            metrics.leases.labels(str(shard)).set(int(shard in held))

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Keep a match's thread open when Discord archives it."""
        await self.publisher.keep_open(payload)

    async def close(self) -> None:
        """Stop the clocks, disconnect, then close the database."""
        try:
            self._serving = False
            await self.publisher.stop()
            if self._players is not None:
                await self._players.stop()
            if self._desk is not None:
                await self._desk.stop()
            if self._clock is not None:
                await self._clock.stop()
            if self.leases is not None:
                await self.leases.stop()
            if self.health is not None:
                await self.health.stop()
            if "_AutoShardedClient__queue" in self.__dict__:
                await super().close()
            else:  # never connected: discord.py's sharded close needs what connect() makes
                await self.http.close()
        finally:
            store, self._store, self._matches, self._clock = self._store, None, None, None
            if store is not None:
                await store.close()


def create_bot(
    settings: Settings | None = None, *, games: Mapping[str, Game] | None = None
) -> ArbiterBot:
    """The configured, unstarted bot. `games` defaults to every game in `rules.registry`."""
    return ArbiterBot(settings or Settings(), games)
