"""The stores: accepted actions per second and their latency, on SQLite in one process
and on one PostgreSQL server shared by 1, 2 and 4 processes.

MATCHES Tooth & Nail 2-player matches are dealt among the processes (each its own
channels, as a process serves its own shards' servers); in each process one driver per
match takes random legal actions through the match service as fast as it answers, all at
once, ACTIONS_EACH actions each. The processes open their matches, then start together.
Timed: each `act` (from the call to its return: committed then) and the wall time from
the start until the last process is done. PostgreSQL is a real server started here
(pgserver), on this machine's cores beside the processes.

    python -m tests.bench --store postgresql
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import quantiles
from typing import Any

from tests.bench.concurrency import _drive, _open

MATCHES = 16
ACTIONS_EACH = 60
PROCESSES = (1, 2, 4)


@dataclass(frozen=True)
class StoreRun:
    """One engine, one number of processes."""

    engine: str
    processes: int
    actions: int
    seconds: float
    latencies: list[float]
    cpu: float  # seconds of CPU the processes spent (the server's not counted)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds

    def quantile(self, q: int) -> float:
        return quantiles(self.latencies, n=100, method="inclusive")[q - 1]


async def _worker(target: str, channels: list[int]) -> None:
    """A process's part: open its matches, say "ready", wait for "go", drive them, print
    its latencies (JSON)."""
    import resource

    from bot.service.matches import MatchService
    from bot.service.store import Store

    store = await Store.open(target)
    try:
        service = MatchService(store)
        ids = [await _open(service, c, 100 + c) for c in channels]
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        began = time.perf_counter()
        results = await asyncio.gather(
            *(
                _drive(service, c, m, ACTIONS_EACH, 7 + c)
                for c, m in zip(channels, ids, strict=True)
            )
        )
        seconds = time.perf_counter() - began
        usage = resource.getrusage(resource.RUSAGE_SELF)
        print(
            json.dumps(
                {
                    "latencies": [t for took in results for t in took],
                    "seconds": seconds,
                    "cpu": usage.ru_utime + usage.ru_stime,
                }
            ),
            flush=True,
        )
    finally:
        await store.close()


async def _run(engine: str, target: str, processes: int, first_channel: int) -> StoreRun:
    channels = list(range(first_channel, first_channel + MATCHES))
    parts = [channels[i::processes] for i in range(processes)]
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bench.stores",
            target,
            json.dumps(part),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for part in parts
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
    began = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    found: list[dict[str, Any]] = []
    for proc in procs:
        assert proc.stdout is not None
        found.append(json.loads(await proc.stdout.readline()))
        await proc.wait()
    seconds = time.perf_counter() - began
    latencies = [t for f in found for t in f["latencies"]]
    return StoreRun(
        engine, processes, len(latencies), seconds, latencies, sum(f["cpu"] for f in found)
    )


async def measure_stores(engines: tuple[str, ...] = ("sqlite", "postgresql")) -> list[StoreRun]:
    """SQLite in one process, then PostgreSQL in 1, 2 and 4."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="arbiter-stores-") as tmp:
        if "sqlite" in engines:
            runs.append(await _run("sqlite", str(Path(tmp) / "one.db"), 1, 1000))
        if "postgresql" in engines:
            import pgserver

            server = pgserver.get_server(Path(tmp) / "postgres", cleanup_mode="stop")
            try:
                for n, processes in enumerate(PROCESSES):
                    server.psql(f"CREATE DATABASE bench{n};")
                    target = str(server.get_uri(f"bench{n}"))
                    runs.append(await _run("postgresql", target, processes, 1000))
            finally:
                server.cleanup()
    return runs


def stores_table(runs: list[StoreRun]) -> list[str]:
    """The stores section."""
    lines = [
        f"Stores: {MATCHES} Tooth & Nail matches acting at once, {ACTIONS_EACH} random legal"
        " actions each, dealt among the processes (service layer; the database on this"
        " machine)",
        f"  {'engine':<12}{'processes':>10}{'actions/s':>11}{'× one':>7}{'p50 ms':>8}"
        f"{'p99 ms':>8}{'CPU s':>7}",
    ]
    one = {r.engine: r.per_second for r in runs if r.processes == 1}
    for r in runs:
        lines.append(
            f"  {r.engine:<12}{r.processes:>10}{r.per_second:>11,.0f}"
            f"{r.per_second / one[r.engine]:>7.2f}{r.quantile(50) * 1000:>8.1f}"
            f"{r.quantile(99) * 1000:>8.1f}{r.cpu:>7.1f}"
        )
    return lines


if __name__ == "__main__":
    asyncio.run(_worker(sys.argv[1], json.loads(sys.argv[2])))
