"""The bot's process, run the way a service manager or a container expects.

`main(settings)` sets up logging as `discord.Client.run` would; `run(settings)` serves
the health checks (ARBITER_HEALTH_PORT) at once, before Discord is reached, then logs in
and connects. While Discord can't be reached
(no network, a server error) it says so in one log line and tries again after a pause
that doubles from 5 s up to 5 min. SIGTERM or SIGINT stops it at any moment: the bot
closes cleanly (publisher, clocks, AI workers, leases, health checks, database) and the
process exits 0. A token Discord refuses, or a database newer than the code, is a
sentence on stderr and exit 2: trying again would change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Iterator

import aiohttp
import discord

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from bot.service import logs, reports
from bot.service.store import NewerSchema

log = logging.getLogger(__name__)

FIRST_PAUSE = 5.0  # seconds before the first new try to reach Discord
LONGEST_PAUSE = 300.0  # the pause doubles up to this

BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN: it is not a bot token, or it was reset. Copy the "
    "token again from the Discord developer portal (your application, Bot, Reset Token) "
    "into DISCORD_TOKEN."
)


def main(settings: Settings) -> int:
    """Log as `discord.Client.run` would, run the bot until it is stopped, and return
    the process's exit status."""
    out = logs.handler(settings.arbiter_log_format)
    discord.utils.setup_logging(handler=out, formatter=out.formatter, root=True)
    reports.start(settings.sentry_dsn)
    return asyncio.run(run(settings))


def pauses() -> Iterator[float]:
    """The waits between two tries to reach Discord: 5 s, doubling, at most 5 min."""
    pause = FIRST_PAUSE
    while True:
        yield pause
        pause = min(pause * 2, LONGEST_PAUSE)


def unreachable(error: BaseException) -> bool:
    """Whether `error` says Discord could not be reached (for now), rather than that
    something is wrong with this process or its settings."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, aiohttp.ClientError | discord.GatewayNotFound | TimeoutError)


async def run(
    settings: Settings, *, make_bot: Callable[[Settings], ArbiterBot] = create_bot
) -> int:
    """Run a bot until SIGTERM or SIGINT (0), or until it can't go on (1, or 2 when
    trying again would not help); returns the exit status."""
    assert settings.discord_token is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still ends it
            loop.add_signal_handler(signum, _stopping, signum, stop)
            handled.append(signum)
    bot = make_bot(settings)
    try:
        await bot.start_health()
        waits = pauses()
        while True:
            status = await _serve(bot, settings.discord_token, stop)
            if isinstance(status, int):
                return status
            pause = next(waits)
            log.warning("can't reach Discord (%s): trying again in %d s", status, pause)
            # Discord is away: a new bot for the next try (a login that failed part way
            # leaves one that can't start again), the same health checks.
            health, bot.health = bot.health, None
            await bot.close()
            bot = make_bot(settings)
            bot.health = health
            if health is not None:
                health.bot = bot
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)
            if stop.is_set():
                return 0
    finally:
        await bot.close()
        for signum in handled:
            loop.remove_signal_handler(signum)
        log.info("stopped")


def _stopping(signum: signal.Signals, stop: asyncio.Event) -> None:
    if not stop.is_set():
        log.info("%s: stopping", signum.name)
    stop.set()


async def _serve(bot: ArbiterBot, token: str, stop: asyncio.Event) -> int | str:
    """Log in and stay connected until stopped (0) or until the bot ends: 0 when it
    closed cleanly, 2 when its token or database is refused, 1 on an unexpected
    error; why, when Discord could not be reached (to try again)."""
    serving = asyncio.create_task(bot.start(token), name="arbiter")
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait((serving, stopping), return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not serving.done():  # stopped: as discord.py's own run, cancel, then close
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await serving
        return 0
    error = serving.exception()
    if error is None:
        return 0
    if isinstance(error, discord.LoginFailure) or (
        isinstance(error, discord.ConnectionClosed) and error.code == 4004  # the gateway's
    ):
        print(BAD_TOKEN, file=sys.stderr, flush=True)
        return 2
    if isinstance(error, NewerSchema):
        print(error, file=sys.stderr, flush=True)
        return 2
    if unreachable(error):
        text = str(error).strip()
        return f"{type(error).__name__}: {text}" if text else type(error).__name__
    log.error("stopped by an unexpected error", exc_info=error)
    return 1
