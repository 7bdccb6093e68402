"""The match clocks' scheduler with many stored deadlines: load and arm at start-up,
arm one at a time, fire them all; memory measured with tracemalloc."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import discord

from bot.service.clock import SEAT, stored_moments
from bot.service.scheduler import Scheduler
from bot.service.store import Deadline, Store

SEATS = 4  # deadlines per match


@dataclass(frozen=True)
class SchedulerFigures:
    """What loading, arming and firing `deadlines` cost."""

    deadlines: int
    read_seconds: float  # reading the stored deadlines (the store's query and rows)
    load_seconds: float  # reading them and arming the scheduler, as at start-up
    arm_seconds: float  # arming each key again, one call each
    fire_seconds: float  # firing every key once all are due (a no-op callback)
    peak_bytes: int  # the most memory in use while loading
    held_bytes: int  # the memory the armed scheduler keeps


async def fill(path: Path, deadlines: int) -> None:
    """A database holding `deadlines` running deadlines (SEATS per match), due over a week."""
    store = await Store.open(path)
    try:
        now = discord.utils.utcnow()
        for n in range(deadlines // SEATS):
            match = await store.matches.create(
                guild_id=1,
                channel_id=1000 + n,
                game="tooth-and-nail",
                variant="4p",
                seed=n,
                rules_version="bench",
                created_by=1,
                host_name="host",
                pack="Arbiter core pack",
            )
            due = now + timedelta(minutes=5 + n)
            await store.clocks.save_deadlines(
                match.id,
                [
                    Deadline(match.id, seat, 0, 0, seat != 0, 86400, due + timedelta(seconds=seat))
                    for seat in range(SEATS)
                ],
            )
    finally:
        await store.close()


async def measure_scheduler(path: Path, deadlines: int = 10_000) -> SchedulerFigures:
    """Fill a database, then time the scheduler's start-up load, re-arming and firing."""
    await fill(path, deadlines)
    store = await Store.open(path)
    try:
        started = time.perf_counter()
        await store.clocks.running_deadlines()
        read = time.perf_counter() - started

        fired: list[Hashable] = []
        done = asyncio.Event()

        async def fire(key: Hashable) -> None:
            fired.append(key)
            if len(fired) == deadlines:
                done.set()

        started = time.perf_counter()
        scheduler = Scheduler(fire, discord.utils.utcnow)
        scheduler.load(await stored_moments(store.clocks))
        load = time.perf_counter() - started
        assert len(scheduler) == deadlines
        peak, held = await _memory(store)

        now = discord.utils.utcnow()
        keys = [(SEAT, match_id, seat) for match_id, seat in _keys(deadlines)]
        started = time.perf_counter()
        for key in keys:
            scheduler.arm(key, now)  # all due: the next step fires them
        arm = time.perf_counter() - started

        started = time.perf_counter()
        scheduler.start()
        await asyncio.wait_for(done.wait(), 60)
        fire_all = time.perf_counter() - started
        await scheduler.stop()
    finally:
        await store.close()
    return SchedulerFigures(
        deadlines=deadlines,
        read_seconds=read,
        load_seconds=load,
        arm_seconds=arm,
        fire_seconds=fire_all,
        peak_bytes=peak,
        held_bytes=held,
    )


async def _memory(store: Store) -> tuple[int, int]:
    """The memory a start-up load takes at its peak, and what the armed scheduler holds
    (measured apart from the timings: tracemalloc slows everything it watches)."""
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        scheduler = Scheduler(_ignore, discord.utils.utcnow)
        scheduler.load(await stored_moments(store.clocks))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - baseline, held - baseline


async def _ignore(key: Hashable) -> None:
    """A callback for a scheduler that never runs."""


def _keys(deadlines: int) -> list[tuple[int, int]]:
    return [(m, s) for m in range(1, deadlines // SEATS + 1) for s in range(SEATS)]


def scheduler_table(f: SchedulerFigures) -> list[str]:
    """The scheduler section."""
    per = 1e6 / f.deadlines
    return [
        f"Clock scheduler: {f.deadlines:,} stored deadlines ({SEATS} seats × "
        f"{f.deadlines // SEATS:,} matches)",
        f"  {'step':<46}{'total ms':>10}{'µs each':>9}",
        f"  {'read the stored deadlines':<46}{f.read_seconds * 1e3:>10.1f}"
        f"{f.read_seconds * per:>9.1f}",
        f"  {'load and arm them (start-up)':<46}{f.load_seconds * 1e3:>10.1f}"
        f"{f.load_seconds * per:>9.1f}",
        f"  {'arm each again, one call each':<46}{f.arm_seconds * 1e3:>10.1f}"
        f"{f.arm_seconds * per:>9.1f}",
        f"  {'fire them all (no-op callback)':<46}{f.fire_seconds * 1e3:>10.1f}"
        f"{f.fire_seconds * per:>9.1f}",
        f"  memory (tracemalloc): {f.peak_bytes / 2**20:.1f} MiB at the peak of the load, "
        f"{f.held_bytes / 2**20:.1f} MiB held by the armed scheduler "
        f"({f.held_bytes / f.deadlines:.0f} bytes a deadline)",
    ]
