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
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import quantiles
from typing import Any

from tests.bench.concurrency import _drive, _open

MATCHES = 16
ACTIONS_EACH = 200
PROCESSES = (1, 2, 4)


@dataclass(frozen=True)
class StoreRun:
    """One engine, one number of processes."""

    engine: str
    processes: int
    actions: int
    seconds: float
    latencies: list[float]
    cpu: float  # seconds of CPU the bot processes spent
    server_cpu: float  # seconds of CPU PostgreSQL's processes spent
    busy: float  # share of the machine's cores busy meanwhile (every process)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds

    def quantile(self, q: int) -> float:
        return quantiles(self.latencies, n=100, method="inclusive")[q - 1]


async def _worker(target: str, channels: list[int]) -> None:
    """A process's part: open its matches, say "ready", wait for "go", drive them, print
    its latencies (JSON), and close once told "bye"."""
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
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
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
            limit=1 << 24,  # the latencies come back on one line
        )
        for part in parts
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
    began = time.perf_counter()
    server_before, machine_before = _server_cpu(), _machine()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    found: list[dict[str, Any]] = []
    for proc in procs:
        assert proc.stdout is not None
        found.append(json.loads(await proc.stdout.readline()))
    seconds = time.perf_counter() - began
    # (before the processes close: their server processes go with their connections)
    server = _server_cpu() - server_before
    busy, total = (after - before for after, before in zip(_machine(), machine_before, strict=True))
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"bye\n")
        await proc.stdin.drain()
        await proc.wait()
    latencies = [t for f in found for t in f["latencies"]]
    cpu = sum(f["cpu"] for f in found)
    return StoreRun(
        engine, processes, len(latencies), seconds, latencies, cpu, server, busy / total
    )


TICKS = os.sysconf("SC_CLK_TCK")


def _server_cpu() -> float:
    """Seconds of CPU every PostgreSQL process on the machine has spent so far."""
    spent = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)
            if fields[0].endswith("(postgres"):
                utime, stime = fields[1].split()[11:13]
                spent += int(utime) + int(stime)
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return spent / TICKS


def _machine() -> tuple[int, int]:
    """The machine's CPU time so far: (busy, all), in ticks."""
    numbers = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = numbers[3] + numbers[4]  # idle, iowait
    return sum(numbers) - idle, sum(numbers)


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
        f"{'p99 ms':>8}{'bot CPU s':>10}{'db CPU s':>9}{'cores busy':>11}",
    ]
    one = {r.engine: r.per_second for r in runs if r.processes == 1}
    for r in runs:
        lines.append(
            f"  {r.engine:<12}{r.processes:>10}{r.per_second:>11,.0f}"
            f"{r.per_second / one[r.engine]:>7.2f}{r.quantile(50) * 1000:>8.1f}"
            f"{r.quantile(99) * 1000:>8.1f}{r.cpu:>10.1f}{r.server_cpu:>9.1f}{r.busy:>11.0%}"
        )
    return lines


if __name__ == "__main__":
    asyncio.run(_worker(sys.argv[1], json.loads(sys.argv[2])))
