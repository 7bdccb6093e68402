"""Opening matches as they pile up: what a lobby costs at the 10th and the 10,000th match
opened on one store (the service and the store only, no Discord)."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import discord

from bot.service.matches import MatchService
from bot.service.store import Store

MATCHES = 10_000
WINDOW = 10  # matches averaged around each point
WARMUP = 20  # untimed lobbies first (the first ones load the game's pack)
POINTS = (10, 1_000, MATCHES)


@dataclass(frozen=True)
class Creation:
    """Mean milliseconds to open a lobby around each point."""

    at: dict[int, float]


async def measure_creation(matches: int = MATCHES) -> Creation:
    """Open `matches` lobbies, each in its own channel, timing each."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "creation.db"), now=discord.utils.utcnow)
        service = MatchService(store)
        try:
            for n in range(WARMUP + matches):
                started = time.perf_counter()
                await service.new_lobby(
                    guild_id=1,
                    channel_id=1_000 + n,
                    user_id=7,
                    name="host",
                    game="tooth-and-nail",
                    variant="2p",
                )
                if n >= WARMUP:
                    times.append(time.perf_counter() - started)
        finally:
            await store.close()
    points = [p for p in POINTS if p <= matches]
    return Creation({p: sum(times[p - WINDOW : p]) / WINDOW * 1e3 for p in points})


def creation_table(figures: Creation) -> list[str]:
    """The creation section."""
    first, *_, last = figures.at
    growth = figures.at[last] / figures.at[first] - 1
    lines = [
        f"Opening a lobby as matches pile up (one store, after {WARMUP} untimed, mean of"
        f" {WINDOW} before each point)   target: the 10,000th within 20 % of the 10th",
        "  " + "".join(f"{f'match {p:,}':>16}" for p in figures.at),
        "  " + "".join(f"{f'{ms:.2f} ms':>16}" for ms in figures.at.values()),
        f"  the last against the first: {growth:+.0%}",
    ]
    return lines
