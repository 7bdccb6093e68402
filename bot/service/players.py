"""The AI at the table: after each change of a match, when a seat the AI plays is to
decide, it waits a short, human pause (so the table can read along), decides away from
the event loop (`ai.decide` in a worker process, or a thread) and acts through the match
service like anyone: the same lock, log, outbox and undo. Nothing is kept between two
decisions, so a restart loses nothing: `start` finds the matches waiting for the AI and
it decides again.

A decision has a deadline: one that fails or runs past it (a worker process that died
or hangs) is logged with a reference, the worker pool is started anew, and the easy
level decides in the bot's own process instead (failing that, the first legal action),
so a seat the AI plays is never left waiting."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import TypeVar

import ai
from ai import partners
from bot.service import errors, lifeline
from bot.service.logs import about
from bot.service.matches import MatchService
from bot.service.store.rows import utc_now
from bot.service.tables import AITurn
from rules.core import IllegalAction

log = logging.getLogger(__name__)

T = TypeVar("T")

PAUSE = 2.0  # seconds the AI waits before it acts in a channel, so its moves can be read
DM_PAUSE = 0.7  # and in a direct message, where one person plays against it
MOST_IN_A_ROW = 400  # decisions one wake-up takes at most (a game is over long before)
DEADLINE = 20.0  # seconds a decision in a worker may take, a new worker's start included


class AIPlayers:
    """Plays every seat the AI holds in the matches this process serves."""

    def __init__(
        self,
        matches: MatchService,
        workers: int = 0,
        pause: float = PAUSE,
        dm_pause: float = DM_PAUSE,
        think: float | None = None,
        deadline: float = DEADLINE,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.matches = matches
        self.workers = workers  # worker processes to think in (0: the loop's thread pool)
        self._pool: ProcessPoolExecutor | None = None
        self.deadline = deadline
        self.now = now
        self.pause = pause
        self.dm_pause = dm_pause
        self.think = think  # seconds a decision may take at most (None: the level's own)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._due: set[int] = set()  # matches changed since their task last looked

    async def start(self) -> None:
        """Look at every match in play with an AI seat (after a restart, or a shard
        taken over): those waiting for the AI get their decision."""
        for match_id in await self.matches.records.with_ai():
            self.wake(match_id)

    async def stop(self) -> None:
        """Stop deciding (a decision under way is dropped: the next start takes it up)
        and the worker processes."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._drop_pool()

    def _executor(self) -> Executor | None:
        """The worker pool to think in, started when there is none (None: a thread).
        Its workers end with the bot's process, even one killed without a word."""
        if self.workers > 0 and self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lifeline.follow,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _drop_pool(self) -> None:
        """Let the worker pool go, its processes ended (a hung one too); the next
        decision starts a new one."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()

    async def on_change(self, match_id: int) -> None:
        """A match changed: the AI may have a decision to make in it."""
        self.wake(match_id)

    def wake(self, match_id: int) -> None:
        self._due.add(match_id)
        if match_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(match_id))
            self._tasks[match_id] = task

    async def settled(self) -> None:
        """Wait until the AI has nothing left to do (tests, and a graceful stop)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _run(self, match_id: int) -> None:
        try:
            with about(match=match_id):
                while match_id in self._due:
                    self._due.discard(match_id)
                    await self._play(match_id)
        except Exception:
            log.exception("match %s: the AI could not play", match_id)
        finally:
            del self._tasks[match_id]

    async def _play(self, match_id: int) -> None:
        """Decide and act while the match waits for the AI."""
        # The AI seats that left the decision to a teammate, at the match's version.
        handed: tuple[int, set[int]] = (0, set())
        for _ in range(MOST_IN_A_ROW):
            turn = await self.matches.ai_turn(match_id, handed)
            if turn is None:
                return
            pause = self.dm_pause if turn.table.match.guild_id is None else self.pause
            while True:
                if turn.not_before is not None:  # the table voted the seat: its player may keep it
                    pause = max(pause, (turn.not_before - self.now()).total_seconds())
                await asyncio.sleep(pause)
                turn = await self.matches.ai_turn(match_id, handed)  # as it is after the pause
                if turn is None:
                    return
                # A vote cast again while this one slept gives its player a new grace.
                if turn.not_before is None or turn.not_before <= self.now():
                    break
                pause = 0.0
            key = await self._decide(turn)
            # None: a move on, left to a partner still playing (`ai.partners.hands_over`).
            if key is None:
                version = turn.table.match.version
                handed = (version, (handed[1] if handed[0] == version else set()))
                handed[1].add(turn.seat.seat)
                continue
            try:
                await self.matches.act(
                    match_id, turn.seat.user_id, key, decisions=turn.seat.decisions, by_ai=True
                )
            except (errors.StaleChoice, errors.StateChanged, IllegalAction):
                continue  # someone else moved first (or took the seat back): look again
            except errors.UserError:
                return  # the match is over or gone

    async def _decide(self, turn: AITurn) -> str | None:
        """The AI's action key for the turn, by its deadline; past it, or when thinking
        failed, the fallback's. None: the move is left to a teammate (`ai.partners.hands_over`)."""
        loop = asyncio.get_running_loop()
        match = turn.table.match
        level = turn.seat.ai or ai.Level.STRONG.value
        people = tuple(turn.people)
        args = (match.game, turn.snapshot, turn.seat.seat, level, turn.seed, self.think, people)
        metrics = self.matches.metrics
        started = time.perf_counter()
        try:
            key = await self.run(partners.decide_saved, *args)
            metrics.decided(match.game, level, time.perf_counter() - started)
            return key
        except Exception as error:  # a worker that hung or died again, a fault of ours
            reference = secrets.token_hex(3)
            log.error(
                "the AI could not decide for seat %s in time [ref %s]; the easy level"
                " decides instead",
                turn.seat.seat,
                reference,
                exc_info=error,
            )
            self._drop_pool()
        key = await loop.run_in_executor(None, fallback, *args)
        metrics.decided(match.game, level, time.perf_counter() - started, fallback=True)
        return key

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """Run `work(*args)` (a module-level function) where the AI thinks, by the
        deadline: in the worker pool (a dead worker is replaced once) or a thread. A
        worker that hangs past the deadline is ended: TimeoutError."""
        try:
            return await self._run_by_deadline(work, *args)
        except BrokenProcessPool:
            log.warning("the AI's worker process died: a new one thinks")
            self._drop_pool()
            return await self._run_by_deadline(work, *args)

    async def _run_by_deadline(self, work: Callable[..., T], *args: object) -> T:
        thinking = asyncio.get_running_loop().run_in_executor(self._executor(), work, *args)
        try:
            return await asyncio.wait_for(thinking, self.deadline)
        except TimeoutError:  # the worker may be hung: the next decision starts a new one
            self._drop_pool()
            raise


def fallback(
    game: str,
    snapshot: str,
    seat: int,
    level: str,
    seed: int,
    think: float | None,
    people: tuple[int, ...] = (),
) -> str | None:
    """The easy level's action key for a saved state (its own short budget; None: left
    to a teammate); failing that, the first legal action's."""
    try:
        return partners.decide_saved(game, snapshot, seat, ai.Level.EASY.value, seed, think, people)
    except Exception:
        log.exception("the easy level could not decide either: the first legal action")
        return ai.first_legal_saved(game, snapshot, seat)


__all__ = ["DM_PAUSE", "PAUSE", "AIPlayers"]
