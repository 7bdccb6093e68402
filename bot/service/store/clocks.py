"""Clocks: each deciding seat's deadline, pauses and the votes for them, the votes for
the AI to stand in, and each seat's timeouts and vacation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.service.outbox import Notice
from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.match_log import LogStore
from bot.service.store.memory import MISSING
from bot.service.store.outbox import OutboxStore
from bot.service.store.rows import (
    Deadline,
    GuildSettings,
    Pause,
    SeatClock,
    SeatRow,
    iso,
)


class ClockStore:
    """The clocks of matches: deadlines, pauses, votes, seat clocks."""

    def __init__(self, db: Database, outbox: OutboxStore, log: LogStore) -> None:
        self._db = db
        self._outbox = outbox
        self._log = log

    async def deadlines(self, match_id: int) -> list[Deadline]:
        """The clocks of a match's deciding seats, in seat order."""

        async def load() -> list[Deadline]:
            rows = await self._db.all(
                "SELECT * FROM deadlines WHERE match_id = ? ORDER BY seat", (match_id,)
            )
            return [decode.deadline(r) for r in rows]

        return list(await self._db.memory.recall(match_id, "deadlines", load))

    async def deadline(self, match_id: int, seat: int) -> Deadline | None:
        """One seat's clock, if it has one."""
        return next((d for d in await self.deadlines(match_id) if d.seat == seat), None)

    async def save_deadlines(self, match_id: int, deadlines: Iterable[Deadline]) -> None:
        """Replace all the clocks of a match with these, in one transaction."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            await self.replace_deadlines(db, match_id, list(deadlines))

    async def replace_deadlines(
        self, db: Change, match_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        """Make these the match's clocks, in the open transaction (the rows they don't
        change are left as they are)."""
        self._db.clocks_written(match_id)
        held = self._db.memory.hit(match_id, "deadlines")
        held = None if held is MISSING else held
        rows = sorted(deadlines, key=lambda d: d.seat)
        if held is None or {d.seat for d in held} - {d.seat for d in rows}:
            kept = [d.seat for d in rows]
            await db.execute(
                "DELETE FROM deadlines WHERE match_id = ?"
                + (f" AND seat NOT IN ({', '.join('?' for _ in kept)})" if kept else ""),
                (match_id, *kept),
            )
        changed = [d for d in rows if held is None or d not in held]
        if changed:
            await db.executemany(self._PUT_DEADLINE, [decode.deadline_params(d) for d in changed])
        db.put(match_id, "deadlines", rows)

    async def put_deadline(self, deadline: Deadline, *, notices: Sequence[Notice] = ()) -> None:
        """Save one seat's clock (added or replaced), with what it must tell (a reminder)."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(deadline.match_id)  # clocks: one writer of a match at a time
            self._db.clocks_written(deadline.match_id)
            await db.execute(self._PUT_DEADLINE, decode.deadline_params(deadline))
            await self._outbox.write(db, notices)

            def put(rows: list[Deadline]) -> list[Deadline]:
                kept = [d for d in rows if d.seat != deadline.seat]
                return sorted([*kept, deadline], key=lambda d: d.seat)

            db.update(deadline.match_id, "deadlines", put)

    async def remind(self, deadline: Deadline, *, notices: Sequence[Notice] = ()) -> bool:
        """Save that a seat's clock reached reminder stage `deadline.reminded`, with the
        reminder, unless its clock changed meanwhile or the stage was saved already (by
        another process, say): then nothing is saved, and False comes back."""
        d = deadline
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE deadlines SET reminded = ? WHERE match_id = ? AND seat = ?"
                " AND version = ? AND decisions = ? AND reminded < ?",
                (d.reminded, d.match_id, d.seat, d.version, d.decisions, d.reminded),
            )
            if changed != 1:
                db.forget(d.match_id)
                return False
            self._db.clocks_written(d.match_id)
            await self._outbox.write(db, notices)

            def put(rows: list[Deadline]) -> list[Deadline]:
                return [deadline if row.seat == deadline.seat else row for row in rows]

            db.update(d.match_id, "deadlines", put)
            return True

    async def running_deadlines(self) -> list[tuple[Deadline, str]]:
        """Every clock not frozen, with the reminder cadence of its match's server (of the
        shards this process serves)."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            "SELECT d.*, COALESCE(g.reminder_cadence, ?) AS cadence FROM deadlines d"
            " JOIN matches m ON m.id = d.match_id"
            " LEFT JOIN guild_settings g ON g.guild_id = m.guild_id"
            f" WHERE d.frozen_at IS NULL AND {owned}",
            (GuildSettings.reminder_cadence, *params),
        )
        return [(decode.deadline(r), r["cadence"]) for r in rows]

    async def to_reconcile(self) -> list[int]:
        """Matches whose clocks don't fit them: active ones without clocks for their
        current version or with stale ones, and closed ones with clocks left over (of the
        shards this process serves)."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            f"SELECT id FROM matches m WHERE {owned} AND CASE WHEN m.status = 'active' THEN"
            " NOT EXISTS (SELECT 1 FROM deadlines d"
            "  WHERE d.match_id = m.id AND d.version = m.version)"
            " OR EXISTS (SELECT 1 FROM deadlines d"
            "  WHERE d.match_id = m.id AND d.version != m.version)"
            " ELSE EXISTS (SELECT 1 FROM deadlines d WHERE d.match_id = m.id)"
            " OR EXISTS (SELECT 1 FROM pauses p WHERE p.match_id = m.id)"
            " OR EXISTS (SELECT 1 FROM seat_clocks c"
            "  WHERE c.match_id = m.id AND c.vacation_until IS NOT NULL) END"
            " ORDER BY id",
            params,
        )
        return [r["id"] for r in rows]

    async def pause(self, match_id: int) -> Pause | None:
        """The match's pause, while it is paused."""

        async def load() -> Pause | None:
            row = await self._db.one("SELECT * FROM pauses WHERE match_id = ?", (match_id,))
            return decode.pause(row) if row else None

        return await self._db.memory.recall(match_id, "pause", load)

    async def pauses(self) -> list[Pause]:
        """Every match paused now (of the shards this process serves)."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            f"SELECT p.* FROM pauses p JOIN matches m ON m.id = p.match_id WHERE {owned}", params
        )
        return [decode.pause(r) for r in rows]

    async def start_pause(self, pause: Pause) -> None:
        """Pause a match (the votes that led to it are spent)."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(pause.match_id)  # clocks: one writer of a match at a time
            self._db.clocks_written(pause.match_id)
            await db.execute("DELETE FROM pause_votes WHERE match_id = ?", (pause.match_id,))
            await db.execute(
                "INSERT INTO pauses (match_id, kind, user_id, paused_at, ends_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    pause.match_id,
                    pause.kind,
                    pause.user_id,
                    iso(pause.paused_at),
                    iso(pause.ends_at),
                ),
            )
            db.put(pause.match_id, "pause", pause)

    async def end_pause(self, match_id: int) -> None:
        """The match runs again."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            self._db.clocks_written(match_id)
            await db.execute("DELETE FROM pauses WHERE match_id = ?", (match_id,))
            db.put(match_id, "pause", None)

    async def add_pause_vote(self, match_id: int, seat: int) -> set[int]:
        """A seat asks to pause; returns every seat that has asked."""
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO pause_votes (match_id, seat) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (match_id, seat),
            )
            rows = await db.fetch("SELECT seat FROM pause_votes WHERE match_id = ?", (match_id,))
        return {r["seat"] for r in rows}

    async def add_ai_vote(
        self, match_id: int, seat: SeatRow, voter_id: int, *, kind: str, text: str
    ) -> set[int]:
        """A player votes that the AI play `seat` for its absence now (its player and
        decision count), with `text` in the log under `kind`; returns every voter of that
        absence (a vote cast in an earlier one, or against an earlier player, is dropped)."""
        async with self._db.transaction() as db:
            await db.execute(
                "DELETE FROM ai_votes WHERE match_id = ? AND seat = ?"
                " AND (user_id <> ? OR decisions <> ?)",
                (match_id, seat.seat, seat.user_id, seat.decisions),
            )
            await db.execute(
                "INSERT INTO ai_votes (match_id, seat, voter_id, user_id, decisions)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (match_id, seat.seat, voter_id, seat.user_id, seat.decisions),
            )
            await self._log.write(db, match_id, voter_id, kind, text)
            rows = await db.fetch(
                "SELECT voter_id FROM ai_votes WHERE match_id = ? AND seat = ?",
                (match_id, seat.seat),
            )
        return {r["voter_id"] for r in rows}

    async def seat_clocks(self, match_id: int) -> dict[int, SeatClock]:
        """The timeouts and vacations of a match's seats, by seat (seats never timed out
        nor away have none)."""

        async def load() -> dict[int, SeatClock]:
            rows = await self._db.all("SELECT * FROM seat_clocks WHERE match_id = ?", (match_id,))
            return {r["seat"]: decode.seat_clock(r) for r in rows}

        return dict(await self._db.memory.recall(match_id, "clocks", load))

    async def put_seat_clock(self, clock: SeatClock) -> None:
        """Save a seat's timeouts and vacation."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(clock.match_id)  # clocks: one writer of a match at a time
            self._db.clocks_written(clock.match_id)
            await db.execute(
                "INSERT INTO seat_clocks (match_id, seat, timeouts, timeout_mark,"
                " vacation_used, vacation_from, vacation_until, vacation_mark)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET"
                " timeouts = excluded.timeouts, timeout_mark = excluded.timeout_mark,"
                " vacation_used = excluded.vacation_used,"
                " vacation_from = excluded.vacation_from,"
                " vacation_until = excluded.vacation_until,"
                " vacation_mark = excluded.vacation_mark",
                (
                    clock.match_id,
                    clock.seat,
                    clock.timeouts,
                    clock.timeout_mark,
                    clock.vacation_used,
                    iso(clock.vacation_from),
                    iso(clock.vacation_until),
                    clock.vacation_mark,
                ),
            )
            db.update(clock.match_id, "clocks", lambda c: {**c, clock.seat: clock})

    async def vacations(self) -> list[SeatClock]:
        """Every vacation under way (of the shards this process serves)."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            "SELECT c.* FROM seat_clocks c JOIN matches m ON m.id = c.match_id"
            f" WHERE c.vacation_until IS NOT NULL AND {owned}",
            params,
        )
        return [decode.seat_clock(r) for r in rows]

    async def clear(self, match_id: int) -> None:
        """A match is over: no clock, pause or vacation of it goes on."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            self._db.clocks_written(match_id)
            for table in ("deadlines", "pauses", "pause_votes", "ai_votes"):  # fixed names
                await db.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
            await db.execute(
                "UPDATE seat_clocks SET vacation_from = NULL, vacation_until = NULL"
                " WHERE match_id = ?",
                (match_id,),
            )
            db.forget(match_id)

    _PUT_DEADLINE = (
        "INSERT INTO deadlines (match_id, seat, version, decisions, out_of_turn,"
        " clock_seconds, due_at, reminded, nudged, frozen_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET"
        " version = excluded.version, decisions = excluded.decisions,"
        " out_of_turn = excluded.out_of_turn, clock_seconds = excluded.clock_seconds,"
        " due_at = excluded.due_at, reminded = excluded.reminded, nudged = excluded.nudged,"
        " frozen_at = excluded.frozen_at"
    )
