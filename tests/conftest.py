"""Shared fixtures: temporary databases on either store engine, and bots that are
always closed.

simcord never calls `bot.close()`, and aiosqlite's worker thread is not a
daemon, so every bot built here is remembered and closed at teardown. The bot
is imported inside the fixtures, so the rules tests never depend on it.

A test (or a module, with `pytestmark`) marked `engines` runs once per store engine:
on a SQLite file, and on a database of its own in a real PostgreSQL server, which
each test runner starts itself (`pgserver`: PostgreSQL shipped as a Python package,
started in about a second, as root too). `database` is the target either way. When
CI runs (`CI=true`), a PostgreSQL test that would be skipped fails instead.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.harness import fast_settle

# Some machines set PYTHONDONTWRITEBYTECODE: then every process the tests start (a bot
# killed and started again, an AI worker, each test runner) compiles the whole bot anew,
# about 2 s each. The tests keep compiled modules, as Python does by default.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

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


ENGINES = ("sqlite", "postgresql")
_databases = itertools.count()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "engines(*names): run the test once per store engine (or those named)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`engines` runs a test on every engine; `engines("sqlite")` on those named (a test
    of one engine's own mechanism, in a module marked for all)."""
    marker = metafunc.definition.get_closest_marker("engines")
    if marker is not None and "engine" in metafunc.fixturenames:
        metafunc.parametrize("engine", marker.args or ENGINES, indirect=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under CI, a PostgreSQL test skipped is a failure: the suite never passes without
    them."""
    outcome = yield
    report = outcome.get_result()
    callspec = getattr(item, "callspec", None)
    on_postgresql = callspec is not None and callspec.params.get("engine") == "postgresql"
    if report.skipped and on_postgresql and os.environ.get("CI") == "true":
        report.outcome = "failed"
        report.longrepr = f"PostgreSQL test skipped under CI: {report.longrepr}"


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A PostgreSQL server for this test runner, stopped at the end."""
    try:
        import pgserver

        server = pgserver.get_server(tmp_path_factory.mktemp("postgres"), cleanup_mode="stop")
    except Exception as error:  # no package, or no server that starts here
        pytest.skip(f"no PostgreSQL server could be started: {error}")
    yield server
    server.cleanup()


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The store engine of this test: SQLite, unless the test is marked `engines`."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def database(engine: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """This test's fresh database: a SQLite file, or a PostgreSQL database's address."""
    if engine == "sqlite":
        return str(db_path)
    server = request.getfixturevalue("postgres_server")
    name = f"test_{os.getpid()}_{next(_databases)}"
    server.psql(f"CREATE DATABASE {name};")
    return str(server.get_uri(name))


@pytest.fixture
def bot_games() -> Mapping[str, Game] | None:
    """The games the test bots referee (None: the registry). Override per module."""
    return None


@pytest.fixture
async def create_bot(
    database: str, bot_games: Mapping[str, Game] | None
) -> AsyncIterator[BotFactory]:
    """Build unstarted bots on this test's database (keyword arguments override settings);
    all of them are closed at teardown."""
    from bot.app import create_bot as build_bot
    from bot.config import Settings

    built: list[ArbiterBot] = []

    def build(**settings: Any) -> ArbiterBot:
        # No pace on channels (Discord's, see `bot.pace.Pace`): simcord has no rate
        # limits, and a test waiting real seconds for none would only be slow. The tests
        # of the pace itself set it.
        values = {
            "arbiter_db": database,
            "discord_token": None,
            "arbiter_channel_every": 0,
            # The AI thinks in a thread: simcord follows work handed to the loop's
            # executor, not a worker process (tests/ai and test_ai_players run one).
            "arbiter_ai_workers": 0,
            "arbiter_ai_think": 0.05,  # whole games against it, in seconds
            "arbiter_ai_pause": 0,  # it answers at once (test_ai_players times its pause)
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
