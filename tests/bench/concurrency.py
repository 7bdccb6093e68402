"""Concurrency: accepted actions per second and their latency when many matches act at once.

N Tooth & Nail 2-player matches (N = 1, 10, 100) are opened in N channels of one
database; then one driver per channel takes random legal actions as fast as the service
answers, all drivers at once, ACTIONS_EACH actions each (a match that ends is followed
by a new one in its channel). Timed: each `act` (from the call to its return: the
action is committed then), and the wall time of the whole burst. The same again through
the running bot (simcord, the publisher delivering every notice to Discord, at no
channel pace) counts until the publisher is idle too.
"""

from __future__ import annotations

import asyncio
import logging
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import quantiles

from bot.service.matches import MatchService
from bot.service.store import Store
from tests.bench.taps import running_bot

GAME, VARIANT = "tooth-and-nail", "2p"
COUNTS = (1, 10, 100)
ACTIONS_EACH = {1: 300, 10: 60, 100: 12}  # actions each driver takes, by N
HOST, GUEST = 1, 2


@dataclass(frozen=True)
class Burst:
    """N matches acting at once."""

    matches: int
    publisher: bool
    actions: int
    seconds: float
    latencies: list[float]

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds

    def quantile(self, q: int) -> float:
        """The q-th percentile latency, in seconds."""
        if len(self.latencies) < 2:
            return self.latencies[0] if self.latencies else float("nan")
        return quantiles(self.latencies, n=100, method="inclusive")[q - 1]


async def _open(service: MatchService, channel_id: int, seed: int) -> int:
    """A started match in the channel."""
    table = await service.new_lobby(
        guild_id=1,
        channel_id=channel_id,
        user_id=HOST,
        name="A",
        game=GAME,
        variant=VARIANT,
        seed=seed,
    )
    await service.join(table.match.id, GUEST, "B")
    await service.start(table.match.id, HOST)
    return table.match.id


async def _drive(
    service: MatchService, channel_id: int, match_id: int, actions: int, seed: int
) -> list[float]:
    """Random legal actions in one channel's match (a new one when it ends, untimed);
    how long each `act` took."""
    rng = random.Random(seed)
    took: list[float] = []
    while len(took) < actions:
        table = await service.table(match_id)
        if table.match.status != "active":
            match_id = await _open(service, channel_id, rng.getrandbits(32))
            continue
        seat = rng.choice(table.to_act)
        user_id = table.user_of(seat).user_id
        view = await service.view(match_id, user_id)
        key = rng.choice(view.choices).key
        began = time.perf_counter()
        await service.act(match_id, user_id, key)
        took.append(time.perf_counter() - began)
    return took


async def _burst(
    service: MatchService,
    channels: list[int],
    matches: int,
    publisher: bool,
    settle: Callable[[], Awaitable[None]],
) -> Burst:
    ids = [await _open(service, channel, 100 + i) for i, channel in enumerate(channels)]
    await settle()
    each = ACTIONS_EACH[matches]
    began = time.perf_counter()
    drivers = [
        _drive(service, channel, m, each, 7 + i)
        for i, (channel, m) in enumerate(zip(channels, ids, strict=True))
    ]
    results = await asyncio.gather(*drivers)
    await settle()
    seconds = time.perf_counter() - began
    latencies = [t for took in results for t in took]
    return Burst(matches, publisher, len(latencies), seconds, latencies)


async def measure_service(matches: int, tmp: Path) -> Burst:
    """N matches at the service layer alone."""
    store = await Store.open(tmp / f"service-{matches}.db")
    try:

        async def nothing() -> None:
            return None

        channels = list(range(1000, 1000 + matches))
        return await _burst(MatchService(store), channels, matches, False, nothing)
    finally:
        await store.close()


async def measure_with_publisher(matches: int, tmp: Path) -> Burst:
    """N matches through the running bot, the publisher delivering as they go (keeping
    to no channel pace: Discord's, which bounds one channel to a few requests a second
    by design, is not what one process can deliver)."""
    async with running_bot(tmp / f"bot-{matches}.db", paced=False) as (env, bot):
        guild = env.create_guild("Crowd")
        channels = [guild.create_text_channel(f"t{i}").id for i in range(matches)]
        return await _burst(bot.matches, channels, matches, True, bot.publisher.idle)


async def measure_concurrency() -> list[Burst]:
    """Every N, alone and with the publisher."""
    logging.getLogger("discord").setLevel(logging.WARNING)
    logging.getLogger("bot").setLevel(logging.WARNING)
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in COUNTS:
            found.append(await measure_service(n, Path(tmp)))
        for n in COUNTS:
            found.append(await measure_with_publisher(n, Path(tmp)))
    return found


def concurrency_table(rows: list[Burst]) -> list[str]:
    """The concurrency section, with each figure's ratio to one match alone."""
    lines = [
        f"Matches acting at once ({GAME} {VARIANT}, random legal actions, each driver as fast",
        "as the service answers; latency: one `act`, committed when it returns)",
        f"  {'matches':>8}  {'publisher':<10}{'actions':>8}{'actions/s':>11}{'× one':>7}"
        f"{'p50 ms':>9}{'p99 ms':>9}",
    ]
    single = {r.publisher: r.per_second for r in rows if r.matches == 1}
    for r in rows:
        ratio = r.per_second / single[r.publisher] if single.get(r.publisher) else float("nan")
        lines.append(
            f"  {r.matches:>8}  {'with' if r.publisher else 'without':<10}{r.actions:>8}"
            f"{r.per_second:>11,.0f}{ratio:>7.2f}{r.quantile(50) * 1e3:>9.1f}"
            f"{r.quantile(99) * 1e3:>9.1f}"
        )
    return lines
