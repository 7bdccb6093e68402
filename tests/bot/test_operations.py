"""Running Arbiter as a service: the shard flags, the health checks, and log lines that
name the shard, server and match they are about."""

from __future__ import annotations

import io
import json
import logging
import socket
from collections.abc import Mapping
from pathlib import Path

import aiohttp
import pytest
import simcord

from bot import __main__ as entry
from bot.config import Settings
from bot.service import logs
from bot.service.matches import MatchService
from bot.service.store import Store
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World
from tests.conftest import BotFactory


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_shard_flags_reach_the_settings_and_a_wrong_one_is_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    ran: list[Settings] = []
    monkeypatch.setattr(entry, "run_bot", lambda settings: ran.append(settings) or 0)
    assert entry.main(["--shard-count", "4", "--shards", "2-3"]) == 0
    assert (ran[0].arbiter_shard_count, ran[0].shards) == (4, {2, 3})
    assert entry.main(["--shard-count", "4", "--shards", "4"]) == 2
    assert capsys.readouterr().err.strip() == "shard 4 is outside 0-3 (of 4 shards)"
    assert entry.main(["--shards", "0,x"]) == 2
    assert "is not a shard number" in capsys.readouterr().err


@pytest.mark.engines
async def test_the_health_checks_answer_over_http(create_bot: BotFactory, engine: str) -> None:
    port = free_port()
    bot = create_bot(arbiter_health_port=port)
    async with simcord.run(bot), aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/healthz") as alive:
            assert alive.status == 200
        async with http.get(f"http://127.0.0.1:{port}/readyz") as ready:
            report = await ready.json()
        assert ready.status == 200, report
        assert report["engine"] == engine and report["schema"] >= 14
        assert (report["shards"], report["connected"], report["problems"]) == ([0], [0], [])
        if engine == "postgresql":
            assert report["serving"] == [0] and report["holder"]
    await bot.close()
    with pytest.raises(aiohttp.ClientConnectionError):  # its port is let go on close
        async with aiohttp.ClientSession() as http:
            await http.get(f"http://127.0.0.1:{port}/healthz")


async def test_a_store_that_is_gone_is_not_ready(world: World) -> None:
    from bot.health import Health

    health = Health(world.bot, free_port())
    assert (await health.report())["ready"]
    await world.bot.store.db.engine.close()  # the database is away
    report = await health.report()
    assert not report["ready"] and report["problems"][0].startswith("database:")


async def test_a_log_line_names_the_match_its_server_and_its_shard(db_path: Path) -> None:
    """What the match service logs while it changes a match carries the match; an
    interaction or a delivery adds its server and shard (`logs.about`)."""
    stream = io.StringIO()
    out = logs.handler("json")
    assert isinstance(out, logging.StreamHandler)
    out.setStream(stream)
    root = logging.getLogger("bot")
    root.addHandler(out)
    level = root.level
    root.setLevel(logging.INFO)
    store = await Store.open(db_path)
    try:
        service = MatchService(store, {"tally": tally.GAME})
        table = await service.new_lobby(
            guild_id=(5 << 22), channel_id=7, user_id=1, name="A", game="tally", seed=1
        )
        await service.join(table.match.id, 2, "B")
        await service.start(table.match.id, 1)
        with logs.about(guild=5 << 22, shard=1):
            await service.concede(table.match.id, 2)  # logs the match's end
    finally:
        await store.close()
        root.removeHandler(out)
        root.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    (finished,) = [line for line in lines if "finished" in line["message"]]
    assert finished["match"] == table.match.id
    assert (finished["guild"], finished["shard"], finished["level"]) == (5 << 22, 1, "INFO")
    text = logs.TextFormatter()
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "hello", (), None)
    with logs.about(match=3, shard=0):
        logs.Context().filter(record)
    assert text.format(record).endswith(" bot [shard=0 match=3] hello")
