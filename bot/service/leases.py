"""Shard leases: which process does each shard's background work.

Several processes share one PostgreSQL database, each running some of the bot's
gateway shards. Whatever no Discord event starts, a match's deadlines firing and its
outbox being delivered, must be done by exactly one process: the one holding the lease
of the match's shard (`bot.service.shards`), a row of `shard_leases` with a holder and
a moment it runs out.

Why rows with an expiry, and not PostgreSQL's advisory locks: an advisory lock lives
as long as the connection that took it, so the shard's owner would be whichever process
holds one particular connection open, and a connection dropped by the network would let
another process in while the first goes on working, unaware. A lease says until when
it holds in the database's own clock; its holder renews it every TTL/3 and stops its
work on its own once it can't be sure it still holds it (its last renewal's request
left more than TTL - MARGIN ago, by its own clock, which is behind the database's
reckoning of the same renewal), so two processes never work a shard at once: the
store's `owns` answers no for every shard meanwhile, and the publisher and the clocks
ask it before each delivery and each moment fired. A process whose event loop stalled
past that point finds out before it does anything more, and serves again once a
renewal succeeds. The renewals are paced by real time (a thread's sleep), never by the
event loop's clock, which may be stalled or virtual (tests).

- A process takes the leases of its own shards (those it runs at the gateway) when
  they are free, and asks for them back when another holds them.
- It stands in for any other shard whose lease has run out (its process died or
  stopped), so nothing is left undone, and hands the shard over as soon as the process
  that runs it at the gateway asks for it back: it stops the shard's work, then gives
  the lease to that process in one update.
- On a clean stop it lets its leases run out at once, so another process takes over at
  its next renewal instead of after the TTL.

Each change of what this process holds is told to `on_change(held)`, which the bot
uses to start or stop the shards' deadlines and lanes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Future

from bot.service.store import LeaseStore

log = logging.getLogger(__name__)

TTL = 15.0  # seconds a lease holds without renewal
MARGIN = 0.2  # share of the TTL before its end at which a holder stops trusting its leases

Held = Callable[[frozenset[int]], Awaitable[None]]
SWEEP_EVERY = 12  # renewals between two calls of the sweepers (a minute at the default TTL)


def process_name() -> str:
    """This process among the others: its host, its pid and a random part (a restarted
    process is a new holder)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    """The leases this process holds, renewed in the background."""

    def __init__(
        self,
        store: LeaseStore,
        count: int,
        mine: Iterable[int],
        *,
        ttl: float = TTL,
        margin: float | None = None,
        holder: str | None = None,
    ) -> None:
        self.store = store
        self.count = count
        self.mine = frozenset(mine)  # the shards this process runs at the gateway
        self.ttl = ttl
        self.margin = ttl * MARGIN if margin is None else margin  # seconds
        self.holder = holder or process_name()
        self.held: frozenset[int] = frozenset()
        self._told = False  # the listeners have heard what is held
        self._lapsed = False  # work was refused for want of certainty since the last renewal
        self._sure_until = 0.0  # perf_counter: the held leases are certain until then
        self._listeners: list[Held] = []
        self._sweepers: list[Callable[[], Awaitable[None]]] = []
        self._renewals = 0
        self._turn = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._pacer: threading.Thread | None = None
        self._ticking: Future[None] | None = None

    def on_change(self, listener: Held) -> None:
        """Call `listener(held)` whenever the shards this process holds change."""
        self._listeners.append(listener)

    def sweep_with(self, sweeper: Callable[[], Awaitable[None]]) -> None:
        """Call `sweeper()` every SWEEP_EVERY renewals, real time (the clocks arm what
        they missed: see `ClockService.sweep`)."""
        self._sweepers.append(sweeper)

    @property
    def sure(self) -> bool:
        """Whether the leases held are certainly still this process's."""
        return time.perf_counter() < self._sure_until

    def certain(self) -> bool:
        """`sure`, asked before doing a shard's work: a no is remembered, and once a
        renewal succeeds the listeners hear again what is held (the work refused meanwhile
        is started again)."""
        if self.sure:
            return True
        self._lapsed = True
        return False

    async def start(self) -> None:
        """Take what can be taken now, then renew in the background."""
        self._loop = asyncio.get_running_loop()
        self._stopping.clear()
        await self.tick()
        self._pacer = threading.Thread(target=self._pace, name="leases", daemon=True)
        self._pacer.start()

    async def stop(self) -> None:
        """Stop renewing, stop the shards' work, and let the leases run out now."""
        self._stopping.set()
        if self._pacer is not None:
            await asyncio.to_thread(self._pacer.join)
            self._pacer = None
        if self._ticking is not None:
            with contextlib.suppress(Exception):
                await asyncio.wrap_future(self._ticking)
        async with self._turn:
            await self._hold(frozenset())
            with contextlib.suppress(Exception):
                await self.store.release(self.holder)

    def _pace(self) -> None:
        """The thread: a renewal every TTL/3 of real time, run on the event loop (one at a
        time; a renewal still running when the next is due makes it wait)."""
        assert self._loop is not None
        while not self._stopping.wait(self.ttl / 3):
            if self._ticking is not None and not self._ticking.done():
                continue
            try:
                self._ticking = asyncio.run_coroutine_threadsafe(self._tick_logged(), self._loop)
            except RuntimeError:  # the loop is closed
                return

    async def _tick_logged(self) -> None:
        try:
            await self.tick()
        except Exception as error:  # the database is away, say: tried again at the next
            log.warning("leases: a renewal failed (%s: %s)", type(error).__name__, error)
            await self._fence()

    async def tick(self) -> None:
        """Renew what is held, hand back what is asked for, take what is free."""
        async with self._turn:
            if self._stopping.is_set() and self._pacer is not None:
                return
            asked_at = time.perf_counter()
            renewed = await self.store.renew(self.holder, self.ttl)
            if self._lapsed or not self.sure:
                self._lapsed = False
                self._told = False  # sure again: the shards' work starts again
            self._sure_until = asked_at + self.ttl - self.margin
            held = {lease.shard for lease in renewed}
            # Hand back the shards their gateway's process asked for (alive: it asked
            # within the TTL), after stopping their work here.
            wanted = {
                lease.shard: lease.wanted_by
                for lease in renewed
                if lease.shard not in self.mine and lease.asked and lease.wanted_by
            }
            if wanted:
                await self._hold(frozenset(held - wanted.keys()))
                for shard, to in sorted(wanted.items()):
                    if await self.store.hand_over(shard, self.holder, to, self.ttl):
                        log.info("leases: shard %d handed back to %s", shard, to)
                held -= wanted.keys()
            # Take the free ones: this process's own first, then any other run out.
            for shard in sorted(self.mine - held) + sorted(set(range(self.count)) - self.mine):
                if shard in held:
                    continue
                taken = await self.store.take(shard, self.holder, self.ttl)
                if taken is not None:
                    held.add(shard)
                    how = "its own" if shard in self.mine else "standing in"
                    log.info("leases: shard %d taken (%s, epoch %d)", shard, how, taken.epoch)
                elif shard in self.mine:
                    await self.store.ask_back(shard, self.holder)
            await self._hold(frozenset(held))
            self._renewals += 1
            if self.held and self._renewals % SWEEP_EVERY == 0:
                for sweeper in self._sweepers:
                    await sweeper()

    async def _fence(self) -> None:
        """A renewal failed: once the leases can't be trusted, stop the shards' work."""
        async with self._turn:
            if not self.sure and self.held:
                log.warning("leases: renewals failing; stopping the work of shards %s", self.held)
                await self._hold(frozenset())

    async def _hold(self, held: frozenset[int]) -> None:
        if held == self.held and self._told:
            return
        self._told = True  # the first tick tells, even of nothing held
        gained, lost = held - self.held, self.held - held
        self.held = held
        log.info(
            "leases: serving shards %s (gained %s, lost %s)",
            sorted(held),
            sorted(gained),
            sorted(lost),
        )
        for listener in self._listeners:
            await listener(held)
