"""Every bot test fails if the bot logged an unexpected error (an apology with a reference);
the `world` every bot test plays in; the `fake` Discord served over HTTP."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import discord
import pytest
import simcord

from bot.service.matches import MatchService
from bot.service.store import Store
from tests.bot import tally
from tests.bot.fake_discord import FakeDiscord
from tests.bot.world import World

# The fake Discord's channel and its server (see `fake`).
CHANNEL, GUILD = 900, 7


@pytest.fixture(autouse=True)
def no_unexpected_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test if `bot` or `cogs` logged an error; a test that provokes one on
    purpose inspects it and calls `caplog.clear()`."""
    yield
    unexpected = [
        r
        for r in caplog.get_records("call")
        if r.name.split(".")[0] in ("bot", "cogs") and r.levelno >= logging.ERROR
    ]
    assert not unexpected, "\n".join(r.getMessage() for r in unexpected)


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    """The simulated server every bot test plays in (see `World`)."""
    return World.build(simcord_env)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord (`tests.bot.fake_discord`) with CHANNEL in GUILD, discord.py
    pointed at it meanwhile."""
    fake = FakeDiscord({CHANNEL: GUILD})
    base = await fake.start()
    before = discord.http.Route.BASE
    discord.http.Route.BASE = base
    try:
        yield fake
    finally:
        discord.http.Route.BASE = before
        await fake.stop()


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """The store on the test's database (each engine, for a test marked `engines`)."""
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    """A match service on `store` that also plays Tally, the test game."""
    return MatchService(store, {"tally": tally.GAME})
