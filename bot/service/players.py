"""The AI at the table: after each change of a match, when a seat the AI plays is to
decide, it waits a short, human pause (so the table can read along), decides away from
the event loop (`ai.decide` in a worker process, or a thread) and acts through the match
service like anyone: the same lock, log, outbox and undo. Nothing is kept between two
decisions, so a restart loses nothing: `start` finds the matches waiting for the AI and
it decides again."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

import ai
from bot.service import errors
from bot.service.logs import about
from bot.service.matches import AITurn, MatchService
from rules.core import IllegalAction

log = logging.getLogger(__name__)

PAUSE = 2.0  # seconds the AI waits before it acts in a channel, so its moves can be read
DM_PAUSE = 0.7  # and in a direct message, where one person plays against it
MOST_IN_A_ROW = 400  # decisions one wake-up takes at most (a game is over long before)


class AIPlayers:
    """Plays every seat the AI holds in the matches this process serves."""

    def __init__(
        self,
        matches: MatchService,
        executor: Executor | None = None,
        pause: float = PAUSE,
        dm_pause: float = DM_PAUSE,
        think: float | None = None,
    ) -> None:
        self.matches = matches
        self.executor = executor  # None: the event loop's default thread pool
        self.pause = pause
        self.dm_pause = dm_pause
        self.think = think  # seconds a decision may take at most (None: the level's own)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._due: set[int] = set()  # matches changed since their task last looked

    async def start(self) -> None:
        """Look at every match in play with an AI seat (after a restart, or a shard
        taken over): those waiting for the AI get their decision."""
        for match_id in await self.matches.store.matches_with_ai():
            self.wake(match_id)

    async def stop(self) -> None:
        """Stop deciding (a decision under way is dropped: the next start takes it up)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

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
        for _ in range(MOST_IN_A_ROW):
            turn = await self.matches.ai_turn(match_id)
            if turn is None:
                return
            await asyncio.sleep(self.dm_pause if turn.table.match.guild_id is None else self.pause)
            turn = await self.matches.ai_turn(match_id)  # as it stands after the pause
            if turn is None:
                return
            key = await self._decide(turn)
            try:
                await self.matches.act(
                    match_id, turn.seat.user_id, key, decisions=turn.seat.decisions, by_ai=True
                )
            except (errors.StaleChoice, errors.StateChanged, IllegalAction):
                continue  # someone else moved first (or took the seat back): look again
            except errors.UserError:
                return  # the match is over or gone

    async def _decide(self, turn: AITurn) -> str:
        loop = asyncio.get_running_loop()
        match = turn.table.match
        return await loop.run_in_executor(
            self.executor,
            ai.decide_saved,
            match.game,
            turn.snapshot,
            turn.seat.seat,
            turn.seat.ai or ai.Level.STRONG.value,
            turn.seed,
            self.think,
        )


__all__ = ["DM_PAUSE", "PAUSE", "AIPlayers"]
