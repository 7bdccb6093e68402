"""How Discord's answers and pace are met: which failures may pass (retried with a
growing wait) and which never can, and each channel's pace (a burst, then one request
every so often) that the publisher keeps to."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

log = logging.getLogger(__name__)


THREAD_ARCHIVED = 50083  # Discord: "Operation cannot be performed on an archived thread"


# Discord's answers that no retry can change: the channel or the user is gone, or the
# bot may not post there (missing access, missing permissions).
NEVER = {10003: "the channel is gone", 10013: "the user is gone", 50001: "no access to the channel"}


BACKOFF = 2.0  # seconds before the first retry; doubled each time


MAX_WAIT = 300.0  # the longest wait between two tries


class Retry(Exception):
    """A delivery failed in a way that may pass: try again after `wait` seconds (None:
    the lane's own backoff)."""

    def __init__(self, why: str, wait: float | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.wait = wait


class Never(Exception):
    """A delivery that can never succeed."""


def classify(error: discord.HTTPException) -> Exception:
    """What a failed request means for its notice: Never or Retry."""
    if error.code in NEVER:
        return Never(NEVER[error.code])
    if isinstance(error, discord.NotFound):
        return Never("the channel is gone")
    if error.status == 400:
        # A request Discord finds malformed is the bot's fault, and is refused again at
        # every try: retrying it would hold up every later notice of its lane.
        log.error("a request Discord refused as malformed: %s", error.text)
        return Never(f"Discord refused the message as malformed ({error.code})")
    wait = getattr(error, "retry_after", None)
    if error.status == 429 and wait is None:
        with contextlib.suppress(Exception):
            wait = float(error.response.headers.get("Retry-After"))
    return Retry(f"{error.status} {error.text or ''}".strip(), wait)


def backoff(attempts: int) -> float:
    """The wait before the next try of a notice that failed `attempts` times."""
    return min(MAX_WAIT, BACKOFF * 2 ** max(0, attempts - 1))


class Pace:
    """Spaces requests on each channel's routes: `burst` at once, then one every `every`
    seconds (0: no pace). A request waits its turn; the lane waiting meanwhile gathers
    what it will deliver next in one go (see `Publisher`)."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = burst
        self.every = every
        self._due: dict[int, float] = {}  # channel id -> when its bucket is full again

    async def turn(self, channel_id: int) -> None:
        """Wait until a request on this channel's routes keeps to the pace (and count it)."""
        if self.every <= 0:
            return
        wait = self._wait(channel_id)
        now = self._now()
        # Each request pushes the moment the bucket is full again `every` later.
        self._due[channel_id] = max(now, self._due.get(channel_id, now)) + self.every
        if wait > 0:
            await asyncio.sleep(wait)

    async def ready(self, channel_id: int) -> bool:
        """Wait until a request on this channel would go at once; whether it had to."""
        wait = self._wait(channel_id) if self.every > 0 else 0.0
        if wait > 0:
            await asyncio.sleep(wait)
        return wait > 0

    def _wait(self, channel_id: int) -> float:
        """How long the next request on this channel must wait: until the bucket is full
        again at most `burst` requests ahead."""
        now = self._now()
        due = max(now, self._due.get(channel_id, now)) + self.every
        return max(0.0, due - now - self.burst * self.every)

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()
