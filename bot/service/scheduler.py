"""One task that fires moments in time order: the timer behind every match clock.

The scheduler knows keys and moments, nothing about matches: its owner (the clock
service) loads every stored moment at start-up, arms and disarms keys as clocks
change, and is called back with a key once its moment has come. It keeps one
min-heap and sleeps until its earliest entry — never one sleep per match — and
wakes early when an earlier moment is armed. Time is the `now` it is given (the
bot gives the clock simcord makes virtual in tests), and no sleep lasts more than
MAX_SLEEP, so a wall clock that jumps is caught up with soon.

A key armed again replaces its moment: the old heap entry stays behind and is
skipped when it comes up (the heap is rebuilt when such leftovers pile up).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterable
from datetime import datetime

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0  # seconds: the longest nap before the wall clock is read again

Fire = Callable[[Hashable], Awaitable[None]]


class Scheduler:
    """Calls `fire(key)` once each armed key's moment has come, in time order."""

    def __init__(self, fire: Fire, now: Callable[[], datetime]) -> None:
        self._fire = fire
        self._now = now
        self._armed: dict[Hashable, tuple[datetime, int]] = {}  # key -> (moment, ticket)
        self._heap: list[tuple[datetime, int, Hashable]] = []
        self._tickets = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._napping = False  # the task is asleep, until `_nap_until` (None: no entry)
        self._nap_until: datetime | None = None
        self._waking = False  # the nap was cut short on purpose (not a stop)

    def __len__(self) -> int:
        """How many keys are armed."""
        return len(self._armed)

    def when(self, key: Hashable) -> datetime | None:
        """The moment a key is armed for, if it is armed."""
        armed = self._armed.get(key)
        return armed[0] if armed else None

    def load(self, entries: Iterable[tuple[Hashable, datetime]]) -> None:
        """Arm many keys at once (at start-up): one heap build instead of a push each."""
        for key, moment in entries:
            ticket = next(self._tickets)
            self._armed[key] = (moment, ticket)
            self._heap.append((moment, ticket, key))
        heapq.heapify(self._heap)
        self._wake_if_before(min((m for m, _ in self._armed.values()), default=None))

    def arm(self, key: Hashable, moment: datetime) -> None:
        """Fire `key` at `moment` (instead of any moment it had)."""
        if self._armed.get(key, (None,))[0] == moment:
            return
        ticket = next(self._tickets)
        self._armed[key] = (moment, ticket)
        heapq.heappush(self._heap, (moment, ticket, key))
        if len(self._heap) > 2 * len(self._armed) + 64:
            self._heap = [(m, t, k) for k, (m, t) in self._armed.items()]
            heapq.heapify(self._heap)
        self._wake_if_before(moment)

    def disarm(self, key: Hashable) -> None:
        """Forget a key (nothing happens if it wasn't armed)."""
        self._armed.pop(key, None)

    def clear(self) -> None:
        """Forget every key."""
        self._armed.clear()
        self._heap.clear()

    def start(self) -> None:
        """Start the task (in the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="scheduler")

    async def stop(self) -> None:
        """Stop the task and wait until it has (an entry being fired is interrupted)."""
        task, self._task = self._task, None
        if task is not None:
            self._waking = False
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _wake_if_before(self, moment: datetime | None) -> None:
        """Cut the current nap short if `moment` comes before its end: the task is
        cancelled, and its loop takes that cancellation as a wake-up call."""
        if not self._napping or self._waking or self._task is None or moment is None:
            return
        if self._nap_until is None or moment < self._nap_until:
            self._waking = True
            self._task.cancel()

    def _next(self) -> tuple[datetime, Hashable] | None:
        """The earliest armed entry (leftovers of re-armed or disarmed keys dropped)."""
        while self._heap:
            moment, ticket, key = self._heap[0]
            if self._armed.get(key) == (moment, ticket):
                return moment, key
            heapq.heappop(self._heap)
        return None

    async def _run(self) -> None:
        while True:
            upcoming = self._next()
            now = self._now()
            if upcoming is not None and upcoming[0] <= now:
                heapq.heappop(self._heap)
                del self._armed[upcoming[1]]
                try:
                    await self._fire(upcoming[1])
                except Exception:
                    log.exception("scheduler: firing %r failed", upcoming[1])
                continue
            delay = MAX_SLEEP
            if upcoming is not None:
                delay = min(delay, (upcoming[0] - now).total_seconds())
            # A plain sleep in this task (a sleep in a task of its own would be simpler
            # to cut short, but simcord settles each of its wake-ups 50 ms slower).
            self._nap_until = upcoming[0] if upcoming is not None else None
            self._napping = True
            try:
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                if not self._waking or self._task is None:
                    raise  # stopped
                task = asyncio.current_task()
                assert task is not None
                task.uncancel()
            finally:
                self._napping = self._waking = False
                self._nap_until = None
