"""A bot process of the two-process test: a real Arbiter bot running some gateway shards
against a shared PostgreSQL database, its publisher delivering to a fake Discord over
HTTP, playing matches in the servers of its own shards through its services.

    python -m tests.bot.shard_worker PLAN_JSON

The plan (JSON) gives: `db` (the database's address), `log` (a file for its log),
`discord` (the fake Discord's API base), `shards` and `count`, `ttl` (seconds a lease
holds), `speed` and `epoch` (the match clocks run `speed` times faster than real time
from `epoch`, the same for every process, so deadlines come due in a test's seconds),
`seed`, and `matches`: the matches to open, each {guild, channel, host, guest, idle}.
An idle match is started and left alone, so its clocks run out and its deadlines fire;
the others are played by random legal actions, all at once, until the players leave
(SIGUSR1: the bot serves on, its clocks and its publisher, so the matches end by their
clocks) or the process is stopped (SIGTERM: a clean close) or killed.

It prints "ready" once its bot has started, then "playing" once every match is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import sys
from datetime import UTC, datetime
from typing import Any

import discord

from bot.service import errors, logs, scheduler
from bot.service.timing import ClockTerms

CLOCK = 300  # seconds per decision, match time (the shortest clock a match may have)
PAUSE = (0.01, 0.08)  # real seconds between a match's actions


def fast_clock(epoch: float, speed: float) -> Any:
    """Discord's `utcnow`, running `speed` times faster from `epoch` (seconds since 1970)."""
    start = datetime.fromtimestamp(epoch, UTC)
    real = discord.utils.utcnow

    def now() -> datetime:
        return start + (real() - start) * speed

    return now


async def open_match(bot: Any, spec: dict[str, Any], seed: int) -> int:
    """The match of a plan entry: the one open in its channel (a process before this one
    opened it), else a new one; started, with a short clock."""
    service = bot.matches
    try:
        match = await service.open_match(spec["channel"])
        match_id = match.id
    except errors.NoMatchHere:
        table = await service.new_lobby(
            guild_id=spec["guild"],
            channel_id=spec["channel"],
            user_id=spec["host"],
            name=f"host{spec['host']}",
            game="tooth-and-nail",
            variant="2p",
            seed=seed,
            terms=ClockTerms(CLOCK, "skip"),
        )
        match_id = table.match.id
    table = await service.table(match_id)
    if table.match.status == "lobby":
        if table.seat_of(spec["guest"]) is None:
            await service.join(match_id, spec["guest"], f"guest{spec['guest']}")
        await service.start(match_id, spec["host"])
    return match_id


async def play(bot: Any, match_id: int, rng: random.Random) -> None:
    """Random legal actions until the match is over."""
    service = bot.matches
    while True:
        table = await service.table(match_id)
        if table.outcome is not None or table.match.status != "active":
            return
        seat = rng.choice(table.to_act)
        user_id = table.user_of(seat).user_id
        view = await service.view(match_id, user_id)
        with contextlib.suppress(errors.UserError):  # a clock acted first, say: look again
            await service.act(match_id, user_id, rng.choice(view.choices).key)
        await asyncio.sleep(rng.uniform(*PAUSE))


async def main(plan: dict[str, Any]) -> None:
    out = logging.FileHandler(plan["log"])
    out.addFilter(logs.Context())
    out.setFormatter(logs.TextFormatter())
    logging.basicConfig(level=logging.INFO, handlers=[out])
    discord.http.Route.BASE = plan["discord"]
    discord.utils.utcnow = fast_clock(plan["epoch"], plan["speed"])
    # The scheduler sleeps until its next moment by the event loop's clock, which runs at
    # the real pace: with match time `speed` times faster, it naps a moment at most and
    # reads the (fast) clock again, as after a jump of the wall clock.
    scheduler.MAX_SLEEP = 0.05
    from bot.app import create_bot
    from bot.config import Settings

    settings = Settings(
        _env_file=None,
        discord_token=f"worker-{os.getpid()}",
        arbiter_db=plan["db"],
        arbiter_shard_count=plan["count"],
        arbiter_shards=",".join(str(s) for s in plan["shards"]),
        arbiter_lease_ttl=plan["ttl"],
        arbiter_channel_every=0,
    )
    bot = create_bot(settings)
    stop, rest = asyncio.Event(), asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, rest.set)
    await bot.login(settings.discord_token or "")
    print("ready", flush=True)
    rng = random.Random(plan["seed"])
    ids = [await open_match(bot, spec, rng.getrandbits(52)) for spec in plan["matches"]]
    print("playing", flush=True)
    players = [
        asyncio.create_task(play(bot, match_id, random.Random(rng.getrandbits(64))))
        for match_id, spec in zip(ids, plan["matches"], strict=True)
        if not spec["idle"]
    ]
    await asyncio.wait(
        [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(rest.wait())],
        return_when=asyncio.FIRST_COMPLETED,
    )
    for task in players:  # the players leave; the bot serves on (clocks, outbox) until stopped
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    print("resting", flush=True)
    await stop.wait()
    await bot.close()
    print("closed", flush=True)


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
    sys.exit(0)
