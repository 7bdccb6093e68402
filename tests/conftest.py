"""Shared fixtures: temporary databases, and bots that are always closed.

simcord never calls `bot.close()`, and aiosqlite's worker thread is not a
daemon, so every bot built here is remembered and closed at teardown. The bot
is imported inside the fixtures, so the rules tests never depend on it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.harness import fast_settle

if TYPE_CHECKING:
    from bot.app import ArbiterBot
    from rules.core import Game

BotFactory = Callable[..., "ArbiterBot"]


@pytest.fixture(autouse=True, scope="session")
def _settle_poll() -> Iterator[None]:
    """simcord's settle polls every 2 ms, not 50 (see `tests.harness.fast_settle`)."""
    try:
        import simcord  # noqa: F401
    except ImportError:  # the rules tests run without the bot's test dependencies
        yield
        return
    with fast_settle():
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file for this test."""
    return tmp_path / "arbiter.db"


@pytest.fixture
def bot_games() -> Mapping[str, Game] | None:
    """The games the test bots referee (None: the registry). Override per module."""
    return None


@pytest.fixture
async def create_bot(
    db_path: Path, bot_games: Mapping[str, Game] | None
) -> AsyncIterator[BotFactory]:
    """Build unstarted bots on this test's database (keyword arguments override settings);
    all of them are closed at teardown."""
    from bot.app import create_bot as build_bot
    from bot.config import Settings

    built: list[ArbiterBot] = []

    def build(**settings: Any) -> ArbiterBot:
        # No pace on channels (Discord's, see `bot.publisher.Pace`): simcord has no rate
        # limits, and a test waiting real seconds for none would only be slow. The tests
        # of the pace itself set it.
        values = {
            "arbiter_db": str(db_path),
            "discord_token": None,
            "arbiter_channel_every": 0,
            **settings,
        }
        bot = build_bot(Settings(_env_file=None, **values), games=bot_games)
        built.append(bot)
        return bot

    yield build
    for bot in built:
        await bot.close()


@pytest.fixture
def simcord_bot(create_bot: BotFactory) -> ArbiterBot:
    """The bot the simcord plugin's `simcord_env` runs."""
    return create_bot()
