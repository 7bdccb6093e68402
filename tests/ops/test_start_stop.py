"""`python -m bot` starts and stops the way a container needs: its health check answers
before Discord is reached, it waits for an unreachable Discord without crashing, a
SIGTERM ends it cleanly with exit 0, and a token or a database it can't use is a
sentence and exit 2."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot import runner
from bot.__main__ import NO_TOKEN
from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from tests.ops.process import Process, environment, free_port

BOT = (sys.executable, "-m", "bot")


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[Process, int]]:
    """`python -m bot` with a token Discord never sees, in an empty directory; and the
    port of its health checks."""
    port = free_port()
    env = environment(
        tmp_path,
        {
            "DISCORD_TOKEN": "MTIz.not-a.token",
            "ARBITER_DB": str(tmp_path / "arbiter.db"),
            "ARBITER_HEALTH_PORT": str(port),
        },
    )
    process = Process(BOT, tmp_path, env)
    yield process, port
    process.end()


def test_it_is_alive_before_discord_answers_and_sigterm_stops_it(
    started: tuple[Process, int],
) -> None:
    process, port = started
    status, body = process.get(f"http://127.0.0.1:{port}/healthz")
    assert (status, body) == (200, {"alive": True})
    status, report = process.get(f"http://127.0.0.1:{port}/readyz")
    assert status == 503 and not report["ready"], report
    assert report["connected"] == [] and report["problems"], report
    (line,) = process.wait_for_lines("can't reach Discord")
    assert "trying again in 5 s" in line
    assert process.popen.poll() is None  # it waits; it did not end
    status, took = process.stop()
    assert status == 0, process.text()
    assert took < 5, took  # at once, not at the end of its pause
    text = process.text()
    assert "SIGTERM: stopping" in text and "Traceback" not in text, text
    with pytest.raises(OSError):  # the health checks stopped with it
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)


def test_an_unreachable_discord_is_tried_again_later_each_time(
    started: tuple[Process, int],
) -> None:
    """A token that can't be checked does not end the process (a container would be
    restarted in a loop): it waits 5 s, then 10 s... and answers its health check."""
    process, port = started
    first, second = process.wait_for_lines("can't reach Discord", count=2, timeout=15)
    assert "trying again in 5 s" in first and "trying again in 10 s" in second
    assert "Cannot connect to host discord.com" in first
    assert process.get(f"http://127.0.0.1:{port}/healthz")[0] == 200
    assert process.lines("logging in") and process.popen.poll() is None
    status, took = process.stop()
    assert (status, took < 5) == (0, True), process.text()


def test_without_a_token_it_says_where_to_get_one(tmp_path: Path) -> None:
    process = Process(BOT, tmp_path, environment(tmp_path, {}))
    try:
        assert process.popen.wait(20) == 2
    finally:
        process.end()
    assert process.text().strip() == NO_TOKEN


# The runner in this process: what Discord's answers make of it.


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token="MTIz.not-a.token",
        arbiter_db=str(tmp_path / "arbiter.db"),
        arbiter_health_port=free_port(),
        arbiter_ai_workers=0,
    )


async def test_a_token_discord_refuses_is_a_sentence_and_exit_2(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refused(self: ArbiterBot, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(ArbiterBot, "login", refused)
    assert await runner.run(settings) == 2
    assert capsys.readouterr().err.strip() == runner.BAD_TOKEN
    await no_answer(settings)


async def test_a_database_newer_than_the_code_is_a_sentence_and_exit_2(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(settings.arbiter_db) as db:
        db.execute("PRAGMA user_version = 9999")

    async def logged_in(self: ArbiterBot, token: str) -> None:
        await self.setup_hook()  # as discord.py does, once Discord accepted the token

    monkeypatch.setattr(ArbiterBot, "login", logged_in)
    assert await runner.run(settings) == 2
    assert "schema version 9999, written by a newer Arbiter" in capsys.readouterr().err


async def test_each_try_has_a_new_bot_behind_the_same_health_checks(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A login that failed part way leaves a bot that can't start again: the next try
    has a fresh one, and the health checks, never stopped, report on it."""
    monkeypatch.setattr(runner, "FIRST_PAUSE", 0.01)
    failures = [
        aiohttp.ClientConnectionError("Cannot connect to host discord.com:443"),
        discord.DiscordServerError(SimpleNamespace(status=503, reason="Unavailable"), "down"),
    ]
    made: list[ArbiterBot] = []
    connected = asyncio.Event()

    async def start(self: ArbiterBot, token: str) -> None:
        if failures:
            raise failures.pop(0)
        connected.set()
        await asyncio.Event().wait()  # connected until cancelled

    def make(settings: Settings) -> ArbiterBot:
        made.append(create_bot(settings))
        return made[-1]

    closed: list[ArbiterBot] = []
    close = ArbiterBot.close

    async def closing(self: ArbiterBot) -> None:
        closed.append(self)
        await close(self)

    monkeypatch.setattr(ArbiterBot, "start", start)
    monkeypatch.setattr(ArbiterBot, "close", closing)
    running = asyncio.create_task(runner.run(settings, make_bot=make))
    await asyncio.wait_for(connected.wait(), 10)
    assert len(made) == 3 and made[2].health is not None and made[2].health.bot is made[2]
    assert made[0].health is None and made[1].health is None
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{settings.arbiter_health_port}/healthz"
        async with http.get(url) as alive:
            assert alive.status == 200
    os.kill(os.getpid(), signal.SIGTERM)  # handled by the runner's loop, as in a container
    assert await asyncio.wait_for(running, 10) == 0
    assert closed == made  # each closed once, the one connected last
    await no_answer(settings)


def test_the_pause_doubles_up_to_five_minutes() -> None:
    waits = runner.pauses()
    assert [next(waits) for _ in range(9)] == [5, 10, 20, 40, 80, 160, 300, 300, 300]


def test_what_counts_as_discord_being_away() -> None:
    down = SimpleNamespace(status=502, reason="Bad Gateway")
    assert runner.unreachable(discord.DiscordServerError(down, "down"))
    assert runner.unreachable(aiohttp.ClientConnectionError())
    assert runner.unreachable(TimeoutError())
    wrong = SimpleNamespace(status=403, reason="Forbidden")
    assert not runner.unreachable(discord.Forbidden(wrong, "no"))
    assert not runner.unreachable(discord.LoginFailure("Improper token has been passed."))
    assert not runner.unreachable(ValueError("a bug"))


async def no_answer(settings: Settings) -> None:
    """The health checks were stopped: their port is let go."""
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http:
            await http.get(f"http://127.0.0.1:{settings.arbiter_health_port}/healthz")
