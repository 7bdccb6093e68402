"""The cost of one `/play` under simcord: Arbiter beside a bot that does nothing.

Both bots run in simcord the same way, one after the other in the same
process: one server, one channel, and only the `/play` slash itself is timed
(from dispatch until simcord has settled every piece of work it caused). For
Arbiter each timed call also counts what it cost: the hops to aiosqlite's
database thread (each a round trip), the COMMITs, and the REST calls to Discord
(the publisher's included: simcord settles its work inside the call).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import discord
import simcord
from discord import app_commands
from discord.ext import commands

from bot.app import create_bot
from bot.config import Settings
from rules.core import Action
from tests.bench.engine import choose


@dataclass(frozen=True)
class Timings:
    """The timed calls of one bot, in seconds."""

    label: str
    samples: list[float]
    games: int = 0
    trips: list[int] = field(default_factory=list)  # per call: database round trips
    commits: list[int] = field(default_factory=list)  # per call: COMMITs
    rest: list[int] = field(default_factory=list)  # per call: REST calls to Discord

    @property
    def mean_ms(self) -> float:
        """Mean, in milliseconds."""
        return sum(self.samples) / len(self.samples) * 1e3

    def percentile_ms(self, q: float) -> float:
        """The nearest-rank `q` percentile (0-100), in milliseconds."""
        ordered = sorted(self.samples)
        rank = max(1, -(-len(ordered) * q // 100))
        return ordered[int(rank) - 1] * 1e3


class SqlCount:
    """Counts the hops to aiosqlite's database thread (each one a round trip, a cursor's
    fetch included) and the COMMITs among them, while `watching`."""

    def __init__(self) -> None:
        self.trips = 0
        self.commits = 0

    @contextmanager
    def watching(self) -> Iterator[None]:
        original = aiosqlite.Connection._execute
        counter = self

        async def counted(conn: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            counter.trips += 1
            if args and isinstance(args[0], str) and args[0].lstrip().upper() == "COMMIT":
                counter.commits += 1
            return await original(conn, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
        try:
            yield
        finally:
            aiosqlite.Connection._execute = original  # type: ignore[method-assign]


class ErrorCount(logging.Handler):
    """Counts the errors the bot logs (an apology with a reference is one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class DoNothingBot(commands.Bot):
    """A minimal discord.py bot: one `/play action:str` that only responds.

    With `yield_once` the handler yields to the loop once after responding.
    Without it, the handler's task ends at a moment simcord's settle loop sees
    only simcord's own done-callback pending, and it then sleeps its 50 ms idle
    interval: that call measures simcord's polling, not the bot.
    """

    def __init__(self, *, yield_once: bool) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.yield_once = yield_once

    async def setup_hook(self) -> None:
        """Register `/play` and sync it."""

        @app_commands.command(name="play", description="Do nothing.")
        async def play(interaction: discord.Interaction, action: str) -> None:
            await interaction.response.send_message(f"ok: {action}", ephemeral=True)
            if self.yield_once:
                await asyncio.sleep(0)

        self.tree.add_command(play)
        await self.tree.sync()


def _table(env: simcord.Env) -> tuple[simcord.ChannelHandle, list[simcord.MemberActor]]:
    guild = env.create_guild("Bench")
    channel = guild.create_text_channel("bench")
    return channel, [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]


async def time_do_nothing(plays: int, warmup: int, *, yield_once: bool = True) -> Timings:
    """`plays` timed `/play` calls on the do-nothing bot."""
    bot = DoNothingBot(yield_once=yield_once)
    samples: list[float] = []
    rest: list[int] = []
    try:
        async with simcord.run(bot) as env:
            channel, (alice, _) = _table(env)
            for n in range(warmup + plays):
                before = len(env.http_requests)
                start = time.perf_counter()
                result = await alice.slash(channel, "play", action=f"move {n}")
                samples.append(time.perf_counter() - start)
                rest.append(len(env.http_requests) - before)
                assert result.acknowledged
    finally:
        await bot.close()
    label = "do-nothing bot" if yield_once else "do-nothing, no yield (*)"
    return Timings(label, samples[warmup:], rest=rest[warmup:])


async def time_arbiter(plays: int, warmup: int, db_path: Path) -> Timings:
    """`plays` timed `/play` calls in 2-player Tooth & Nail matches on Arbiter, each with
    its database round trips, COMMITs and REST calls counted.

    Matches are opened, joined and started with slash commands; a new one
    starts whenever one ends. Before each timed `/play`, the player to act asks
    autocomplete for their choices (untimed) and picks one at random.
    """
    settings = Settings(
        _env_file=None, arbiter_db=str(db_path), discord_token=None, arbiter_guild=None
    )
    bot = create_bot(settings)
    errors = ErrorCount()
    watched = [logging.getLogger(name) for name in ("bot", "cogs")]
    for logger in watched:
        logger.addHandler(errors)
    chooser = random.Random(0)
    timed = Timings("Arbiter (2p Tooth & Nail)", [])
    sql = SqlCount()
    games = 0
    try:
        with sql.watching():
            async with simcord.run(bot) as env:
                channel, (alice, bob) = _table(env)
                match_id: int | None = None
                while len(timed.samples) < warmup + plays:
                    if match_id is None or (await bot.matches.get(match_id)).status != "active":
                        games += 1
                        await alice.slash(
                            channel, "match new", game="tooth-and-nail", variant="2p", seed=games
                        )
                        await bob.slash(channel, "match join")
                        await alice.slash(channel, "match start")
                        match_id = (await bot.matches.open_match(channel.id)).id
                    table = await bot.matches.table(match_id)
                    seat = chooser.choice(table.to_act)
                    player = alice if table.user_of(seat).user_id == alice.id else bob
                    offered = await player.autocomplete(channel, "play", "action", "")
                    action = choose(chooser, [Action.from_key(c["value"]) for c in offered])
                    before = (sql.trips, sql.commits, len(env.http_requests))
                    start = time.perf_counter()
                    result = await player.slash(channel, "play", action=action.key)
                    timed.samples.append(time.perf_counter() - start)
                    timed.trips.append(sql.trips - before[0])
                    timed.commits.append(sql.commits - before[1])
                    timed.rest.append(len(env.http_requests) - before[2])
                    assert result.acknowledged
    finally:
        for logger in watched:
            logger.removeHandler(errors)
        await bot.close()
    if errors.count:
        raise RuntimeError(f"Arbiter logged {errors.count} errors during the benchmark")
    return Timings(
        timed.label,
        timed.samples[warmup:],
        games,
        timed.trips[warmup:],
        timed.commits[warmup:],
        timed.rest[warmup:],
    )
