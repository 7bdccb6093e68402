"""The outbox: the notices a change must tell Discord, written in the change's own
transaction, held in memory by lane, and marked as their delivery goes (see
`bot.publisher`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.service.outbox import Notice, OutboxRow
from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.memory import MISSING


class OutboxStore:
    """The notices to deliver, by lane."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def write(self, db: Change, notices: Sequence[Notice]) -> None:
        """Write notices in the open transaction: they are saved with the change or not at all."""
        if not notices:
            return
        now = self._db.now()
        values = ", ".join("(?, ?, ?, ?, ?)" for _ in notices)
        params = [
            value
            for n in notices
            for value in (n.match_id, n.lane, n.kind, json.dumps(n.body), now)
        ]
        ids = await db.fetch(
            f"INSERT INTO outbox (match_id, lane, kind, body, created_at) VALUES {values}"
            " RETURNING id",
            params,
        )
        rows = [
            OutboxRow(id=row_id, notice=n, created_at=now)
            for row_id, n in zip(sorted(r["id"] for r in ids), notices, strict=True)
        ]
        lanes = {n.lane for n in notices}
        db.written.update(lanes)
        memory = self._db.memory
        elsewhere = await self._served_elsewhere(db, {n.match_id for n in notices})

        def queue() -> None:
            for lane in lanes:
                memory.changed(("lane", lane))
            for row in rows:
                if row.notice.match_id in elsewhere:
                    continue  # its match's shard is served by another process
                lane = row.notice.lane
                pending = memory.lanes.get(lane)
                if pending is None and memory.foreign is not None and lane not in memory.foreign:
                    # A lane only this process wrote to: its notices are all in memory,
                    # and none is read back as if a restart had come between.
                    pending = memory.lanes[lane] = deque()
                if pending is not None:
                    self._hold_row(lane, pending, row)

        db.then(queue, *(f"l:{lane}" for lane in lanes))

    async def _served_elsewhere(self, db: Change, match_ids: set[int]) -> set[int]:
        """The matches among these whose shards another process serves."""
        if self._db.shards is None:
            return set()
        guilds: dict[int, int | None] = {}
        for match_id in match_ids:
            held = self._db.memory.hit(match_id, "match")
            if held is not MISSING:
                guilds[match_id] = held.guild_id
        unknown = sorted(match_ids - guilds.keys())
        if unknown:
            rows = await db.fetch(
                f"SELECT id, guild_id FROM matches WHERE id IN ({', '.join('?' for _ in unknown)})",
                unknown,
            )
            guilds.update((r["id"], r["guild_id"]) for r in rows)
        return {match_id for match_id, guild in guilds.items() if not self._db.owns(guild)}

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        """Write the notices of something that changes nothing else (a reminder, say)."""
        async with self._db.transaction() as db:
            await self.write(db, notices)

    async def pending_lanes(self) -> list[str]:
        """The lanes with notices still to deliver, oldest first. From then on, a lane
        none of them is only ever written by this process: its notices are held in
        memory as they are written."""
        await self._db.flush()
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            "SELECT o.lane, MIN(o.id) AS first FROM outbox o JOIN matches m ON m.id = o.match_id"
            f" WHERE o.delivered_at IS NULL AND o.given_up IS NULL AND {owned}"
            " GROUP BY o.lane ORDER BY first",
            params,
        )
        lanes = [r["lane"] for r in rows]
        self._db.memory.foreign = set(lanes) - set(self._db.memory.lanes)
        return lanes

    def interrupted(self) -> None:
        """Deliveries were cut short (the publisher stopped): each notice held may have
        been under way, and is treated as if read back after a restart."""
        for pending in self._db.memory.lanes.values():
            for index, row in enumerate(pending):
                pending[index] = replace(row, recovered=True)

    async def next_notices(self, lane: str, most: int = 1) -> list[OutboxRow]:
        """The oldest notices of a lane still to deliver (`most` of them at most). A
        notice read from the database rather than written by this process is
        `recovered`: its delivery may have begun before a restart."""
        memory = self._db.memory
        pending = memory.lanes.get(lane)
        if pending is not None and lane in memory.written_elsewhere:
            rows = await self._read_lane(lane)
            pending = memory.lanes.get(lane)
            if pending is not None:
                for row in rows:
                    self._hold_row(lane, pending, row)
        if pending is None:
            if memory.foreign is not None and lane not in memory.foreign:
                return []  # every notice this process wrote to it is delivered
            rows = await self._read_lane(lane)
            pending = memory.lanes[lane] = deque()
            for row in rows:
                self._hold_row(lane, pending, row)
            if memory.foreign is not None:
                memory.foreign.discard(lane)  # all of it is held now
        return list(itertools.islice(pending, most))

    async def _read_lane(self, lane: str) -> list[OutboxRow]:
        """A lane's notices still to deliver, as committed (of the shards this process
        serves), read as `recovered`: this process didn't write them, or may have been
        delivering them when it stopped."""
        memory = self._db.memory
        await self._db.flush()  # so the rows read are current
        await self._db.engine.commit_open()  # and only what is committed is read
        owned, params = self._db.owned("m.guild_id")
        while True:  # until no commit wrote to the lane during the read
            mark = memory.mark(("lane", lane))
            memory.written_elsewhere.discard(lane)
            rows = await self._db.all(
                "SELECT o.* FROM outbox o JOIN matches m ON m.id = o.match_id"
                " WHERE o.lane = ? AND o.delivered_at IS NULL"
                f" AND o.given_up IS NULL AND {owned} ORDER BY o.id",
                (lane, *params),
            )
            if memory.steady(("lane", lane), mark):
                break
            await asyncio.sleep(0)  # the commit under way applies its notices first
        return [replace(decode.outbox_row(r), recovered=True) for r in rows]

    def _hold_row(self, lane: str, pending: deque[OutboxRow], row: OutboxRow) -> None:
        """Hold a notice among its lane's pending ones, in id order, once."""
        if row.id in self._db.memory.lane_of:
            return
        index = len(pending)
        while index and pending[index - 1].id > row.id:
            index -= 1
        pending.insert(index, row)
        self._db.memory.lane_of[row.id] = lane

    def _settle_row(
        self, row_id: int, change: Callable[[OutboxRow], OutboxRow | None]
    ) -> OutboxRow | None:
        """Change (or, given None, take out) a pending notice held in memory; the row as
        it was (None: not held). A lane left with nothing pending is let go, when no
        notice another process wrote can be waiting in it."""
        memory = self._db.memory
        lane = memory.lane_of.get(row_id)
        pending = memory.lanes.get(lane) if lane is not None else None
        if lane is None or pending is None:
            return None
        index, row = next((i, r) for i, r in enumerate(pending) if r.id == row_id)
        changed = change(row)
        if changed is not None:
            pending[index] = changed
            return row
        del pending[index]
        del memory.lane_of[row_id]
        if not pending and memory.foreign is not None:
            del memory.lanes[lane]
            if lane in memory.written_elsewhere:  # read again before it is served
                memory.written_elsewhere.discard(lane)
                memory.foreign.add(lane)
        return row

    async def rows(self, match_id: int | None = None) -> list[OutboxRow]:
        """Every notice (of one match), delivered or not, in order."""
        await self._db.flush()
        where, params = ("WHERE match_id = ?", (match_id,)) if match_id is not None else ("", ())
        rows = await self._db.all(f"SELECT * FROM outbox {where} ORDER BY id", params)
        return [decode.outbox_row(r) for r in rows]

    async def backlog(self) -> tuple[int, datetime | None]:
        """The notices of the served shards still to deliver, and when the oldest of them
        was written (None: none waits). What is delivered but waits to be saved behind
        counts as delivered; nothing is flushed to find out."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            "SELECT o.id, o.created_at FROM outbox o JOIN matches m ON m.id = o.match_id"
            f" WHERE o.delivered_at IS NULL AND o.given_up IS NULL AND {owned}",
            params,
        )
        delivered = {
            key[1]
            for key, marked in self._db.unsaved()
            if isinstance(key, tuple) and key[0] == "outbox" and marked[1] is not None
        }
        stamps = [decode.when(r["created_at"]) for r in rows if r["id"] not in delivered]
        return len(stamps), min((s for s in stamps if s is not None), default=None)

    _MARK = (
        "UPDATE outbox SET progress = COALESCE(?, progress),"
        " delivered_at = COALESCE(?, delivered_at), attempts = attempts + ? WHERE id = ?"
    )

    def note_progress(self, row_id: int, progress: dict[str, Any]) -> None:
        """Remember what delivering a notice has done so far (a retry goes on from there;
        written behind)."""
        self._settle_row(row_id, lambda row: replace(row, progress=dict(progress)))
        self._db.write_behind(
            ("outbox", row_id), self._MARK, (json.dumps(progress), None, 0, row_id)
        )

    async def note_failure(self, row_id: int, error: str) -> int:
        """Count a failed delivery of a notice; how many attempts it has had."""
        async with self._db.transaction() as db:
            row = await db.fetchone(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?"
                " RETURNING attempts",
                (error[:500], row_id),
            )
        attempts = 0 if row is None else int(row["attempts"])
        self._settle_row(row_id, lambda held: replace(held, attempts=attempts, last_error=error))
        return attempts

    def mark_delivered(self, row_id: int) -> None:
        """A notice is delivered: it is never sent again (written behind, with how its
        delivery went, when that is held)."""
        held = self._settle_row(row_id, lambda row: None)
        progress = None if held is None else json.dumps(held.progress)
        self._db.write_behind(("outbox", row_id), self._MARK, (progress, self._db.now(), 1, row_id))

    async def give_up(self, row_id: int, why: str) -> None:
        """A notice that can never be delivered (the channel is gone, access was taken)."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE outbox SET given_up = ?, attempts = attempts + 1 WHERE id = ?",
                (why[:500], row_id),
            )
        self._settle_row(row_id, lambda row: None)
