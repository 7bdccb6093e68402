"""Two bot processes, one PostgreSQL database, one of them killed mid-burst.

Each process (`tests.bot.shard_worker`) is a real bot running two of four gateway
shards, playing matches in its own shards' servers through its services, its publisher
delivering to one fake Discord (`tests.bot.fake_discord`, which keeps Discord's nonce
rule across processes), its clocks running 300 times faster than real time so that
deadlines come due in seconds. One process is killed (SIGKILL) while both play; once its
leases run out the other takes its shards over (delivers its lanes, fires its matches'
deadlines); a new process for those shards then starts and gets them handed back. The
players then leave, the clocks end every match, and the checks run:

- every match equals its replay;
- every deadline fired exactly once: none is left, no reminder was sent twice, and the
  dead process's matches' clocks fired while it was dead;
- every outbox row was delivered exactly once: none is left, every message's nonce
  posted one message, and each line of each notice is in its channel once, in order.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.service.matches import MatchService
from bot.service.store import Store
from tests.bot.fake_discord import FakeDiscord
from tests.bot.outside import one, outside
from tests.bot.shard_worker import fast_clock

pytestmark = pytest.mark.engines("postgresql")

COUNT = 4  # gateway shards in all
TTL = 2.0  # seconds a lease holds
SPEED = 300.0  # match clocks run this many times faster than real time
PER_SHARD = 3  # matches per shard: the last of them idle (its clocks run out)
WAIT = 60.0  # seconds at most for any one thing the test waits for
PYTHON = sys.executable


def guild_of(shard: int, n: int) -> int:
    return (shard + COUNT * n) << 22


def plan_for(
    shards: list[int], db: str, discord: str, epoch: float, seed: int, log: Path
) -> dict[str, Any]:
    matches = [
        {
            "guild": guild_of(shard, n),
            "channel": 10_000 + 100 * shard + n,
            "host": 1_000 + 10 * shard + 2 * n,
            "guest": 1_001 + 10 * shard + 2 * n,
            "idle": n == PER_SHARD - 1,
        }
        for shard in shards
        for n in range(PER_SHARD)
    ]
    return {
        "log": str(log),
        "db": db,
        "discord": discord,
        "shards": shards,
        "count": COUNT,
        "ttl": TTL,
        "speed": SPEED,
        "epoch": epoch,
        "seed": seed,
        "matches": matches,
    }


class Worker:
    """A worker process and what it printed."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.said: list[str] = []

    @classmethod
    async def start(cls, plan: dict[str, Any]) -> Worker:
        proc = await asyncio.create_subprocess_exec(
            PYTHON,
            "-m",
            "tests.bot.shard_worker",
            json.dumps(plan),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(proc)

    async def says(self, word: str) -> None:
        """Wait until the worker prints `word` (its errors, if it dies first)."""
        assert self.proc.stdout is not None
        while word not in self.said:
            line = await asyncio.wait_for(self.proc.stdout.readline(), WAIT)
            if not line:
                raise AssertionError(f"worker ended before {word!r}: {await self.errors()}")
            self.said.append(line.decode().strip())

    async def errors(self) -> str:
        assert self.proc.stderr is not None
        return (await self.proc.stderr.read()).decode()[-4000:]

    def holder_of(self, holder: str) -> bool:
        return holder.split(":")[1] == str(self.proc.pid)


async def until(check: Any, what: str, database: str | None = None) -> float:
    """Poll `check()` until true; the seconds it took."""
    began = time.perf_counter()
    while not await check():
        if time.perf_counter() - began > WAIT:
            found = "" if database is None else await _open_state(database)
            raise AssertionError(f"waited {WAIT:.0f} s for {what}{found}")
        await asyncio.sleep(0.1)
    return time.perf_counter() - began


async def _open_state(database: str) -> str:
    """The matches still open, their clocks, the notices undelivered and the leases."""
    open_matches = await outside(
        database,
        "SELECT m.id, m.guild_id, m.version, d.seat, d.version, d.due_at, d.frozen_at"
        " FROM matches m LEFT JOIN deadlines d ON d.match_id = m.id WHERE m.status = 'active'",
    )
    left = await outside(
        database, "SELECT match_id, kind, attempts FROM outbox WHERE delivered_at IS NULL"
    )
    leases = await outside(database, "SELECT shard, holder, expires_at FROM shard_leases")
    return f"\nopen: {open_matches}\nundelivered: {left}\nleases: {leases}"


async def test_two_processes_share_the_work_and_survive_a_kill(
    database: str, tmp_path: Path
) -> None:
    epoch = time.time()
    seed = random.randrange(2**32)
    # Discord's clock is the processes' (in production both run on real time): a
    # process taking a lane over finds what was posted before the kill by its age.
    fake = FakeDiscord(now=fast_clock(epoch, SPEED))
    base = await fake.start()
    first_plan = plan_for([0, 1], database, base, epoch, seed, tmp_path / "first.log")
    second_plan = plan_for([2, 3], database, base, epoch, seed + 1, tmp_path / "second.log")
    for plan in (first_plan, second_plan):
        for match in plan["matches"]:
            fake.add_channel(match["channel"], match["guild"])
    workers: list[Worker] = []
    try:
        first = await Worker.start(first_plan)
        second = await Worker.start(second_plan)
        workers += [first, second]
        for worker in workers:
            await worker.says("playing")

        async def holders() -> dict[int, str]:
            rows = await outside(database, "SELECT shard, holder FROM shard_leases")
            return dict(rows)

        await until(
            lambda: _all(holders, {0: first, 1: first, 2: second, 3: second}),
            "each process to hold its own shards",
        )
        await asyncio.sleep(random.uniform(0.5, 1.5))  # both play...
        before = dict(await outside(database, "SELECT shard, epoch FROM shard_leases"))
        first.proc.send_signal(signal.SIGKILL)  # ...when the first dies
        await first.proc.wait()
        killed_at = time.perf_counter()
        dead_matches = [m["channel"] for m in first_plan["matches"]]
        moved_before = await _actions_in(database, dead_matches)

        took_over = await until(
            lambda: _all(holders, dict.fromkeys(range(COUNT), second)),
            "the survivor to take the dead process's shards",
        )
        # Taken once each (an epoch more), only once the dead process's leases ran out
        # (the database's own clock decides: see `LeaseStore.take`).
        epochs = dict(await outside(database, "SELECT shard, epoch FROM shard_leases"))
        assert all(epochs[s] == before[s] + 1 for s in (0, 1)), (before, epochs)

        async def dead_served() -> bool:  # its clocks fire, its lanes are delivered
            moved = await _actions_in(database, dead_matches)
            left = await _undelivered(database, dead_matches)
            return moved > moved_before and left == 0

        await until(dead_served, "the dead process's clocks and lanes to be served")
        served_after = time.perf_counter() - killed_at

        again = await Worker.start({**first_plan, "log": str(tmp_path / "again.log")})
        workers.append(again)
        await again.says("playing")
        await until(
            lambda: _all(holders, {0: again, 1: again, 2: second, 3: second}),
            "the shards to be handed back to the new process",
        )
        await asyncio.sleep(1.0)
        for worker in (second, again):
            worker.proc.send_signal(signal.SIGUSR1)  # the players leave
        for worker in (second, again):
            await worker.says("resting")

        async def over() -> bool:  # every match ended by its clocks, everything told
            active = await one(database, "SELECT COUNT(*) FROM matches WHERE status = 'active'")
            return active == 0 and await _undelivered(database, None) == 0

        await until(over, "every match to end and every notice to be delivered", database)
        for worker in (second, again):
            worker.proc.send_signal(signal.SIGTERM)
        for worker in (second, again):
            await worker.says("closed")
            assert await asyncio.wait_for(worker.proc.wait(), WAIT) == 0
    finally:
        for worker in workers:
            if worker.proc.returncode is None:
                worker.proc.kill()
                await worker.proc.wait()
        await fake.stop()

    await _check(database, fake)
    print(
        f"\nkill at a random moment: shards taken over after {took_over:.1f} s "
        f"(TTL {TTL:.0f} s), the dead process's matches served {served_after:.1f} s after "
        f"the kill; {fake.deduplicated} posts dropped by the nonce rule"
    )


async def _all(holders: Any, want: dict[int, Worker]) -> bool:
    held = await holders()
    return all(shard in held and w.holder_of(held[shard]) for shard, w in want.items())


async def _actions_in(database: str, channels: list[int]) -> int:
    marks = ", ".join("?" for _ in channels)
    return int(
        await one(
            database,
            "SELECT COUNT(*) FROM actions a JOIN matches m ON m.id = a.match_id"
            f" WHERE m.channel_id IN ({marks})",
            *channels,
        )
    )


async def _undelivered(database: str, channels: list[int] | None) -> int:
    where = ""
    if channels is not None:
        where = f" AND m.channel_id IN ({', '.join('?' for _ in channels)})"
    return int(
        await one(
            database,
            "SELECT COUNT(*) FROM outbox o JOIN matches m ON m.id = o.match_id"
            f" WHERE o.delivered_at IS NULL AND o.given_up IS NULL{where}",
            *(channels or ()),
        )
    )


async def _check(database: str, fake: FakeDiscord) -> None:
    assert not fake.unexpected and not fake.failed, (fake.unexpected, fake.failed)
    assert await one(database, "SELECT COUNT(*) FROM deadlines") == 0
    assert await one(database, "SELECT COUNT(*) FROM outbox WHERE given_up IS NOT NULL") == 0
    posted = fake.nonces()
    assert posted and set(posted.values()) == {1}, "a nonce posted two messages"
    store = await Store.open(database)
    try:
        service = MatchService(store)
        matches = await outside(database, "SELECT id, channel_id FROM matches ORDER BY id")
        # A channel whose match ended may hold the next one its process opened there (the
        # same seed: the same lines), so what was said is counted per channel.
        said_in: dict[int, list[str]] = {}
        rows_in: dict[int, list[Any]] = {}
        for match_id, channel_id in matches:
            assert await service.verify(match_id), f"match {match_id} differs from its replay"
            rows = await store.outbox.rows(match_id)
            rows_in.setdefault(channel_id, []).extend(rows)
            said = said_in.setdefault(channel_id, [])
            for row in rows:
                if row.notice.kind == "action":
                    said += row.notice.body["lines"]
                elif row.notice.kind == "say":
                    said.append(row.notice.body["line"])
        for channel_id, said in said_in.items():
            told = [_told(line) for line in fake.lines(channel_id) if not line.startswith("➡️")]
            reminders = Counter(line for line in said if line.startswith("⏳"))
            assert all(n == 1 for n in reminders.values()), f"a reminder sent twice: {reminders}"
            counted = Counter(told)
            for line, times in Counter(said).items():
                if counted[line] != times:
                    print(_told_in(fake, channel_id, rows_in[channel_id]))
                assert counted[line] == times, (
                    f"channel {channel_id}: {line!r} told {counted[line]} said {times}"
                )
            assert _in_order(said, told), f"channel {channel_id}: lines out of order"
    finally:
        await store.close()


def _told_in(fake: FakeDiscord, channel_id: int, rows: list[Any]) -> str:
    """What a channel received and from which process, beside what its notices said."""
    requests = [
        f"{r.method} {r.path} nonce={r.nonce} by={r.token} -> {r.status}"
        for r in fake.calls(channel_id=channel_id)
    ]
    messages = [
        f"{m.id} nonce={m.nonce} edits={m.edited}: {m.content!r}" for m in fake.messages(channel_id)
    ]
    notices = [f"{r.id} {r.notice.kind} {r.notice.body}" for r in rows]
    return "\n".join(["requests:", *requests, "messages:", *messages, "notices:", *notices])


def _told(line: str) -> str:
    """A line as the notice said it: the end's line carries the game's last sentence."""
    if line.startswith("🏆 "):
        return line.removeprefix("🏆 ").removesuffix(" The channel is free for a new match.")
    return line


def _in_order(said: list[str], told: list[str]) -> bool:
    """Whether `said` is a subsequence of `told`."""
    lines = iter(told)
    return all(any(line == seen for seen in lines) for line in said)
