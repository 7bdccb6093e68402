"""The store: matches, seats, the append-only action log, and what goes with them.

This is the interface the services use, and all the SQL of the project, written once
for both engines (`bot.service.store.engine`): SQLite, one file for one process (the
default), or PostgreSQL, one database for several processes. What the action path
reads again and again is served from memory (`bot.service.store.memory`, which says
what it holds and when it may serve it), kept up to date by the store's own commits
and told of other processes' by the engine.

The publisher's bookkeeping (a notice delivered, how far its delivery got, the turn
message, the board's message) is written behind: it is saved with the next
transaction, or by the next `flush` (the publisher's, within five minutes), whichever
comes first. A crash can lose that last moment of bookkeeping, never a change; the
publisher's deliveries are idempotent against what was saved (see `bot.publisher`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.service.outbox import Notice, OutboxRow
from bot.service.shards import shard_of
from bot.service.store import rows as decode
from bot.service.store.engine import MIGRATIONS_DIR, POSTGRESQL, Engine, Tx
from bot.service.store.memory import MISSING, TAIL, Memory
from bot.service.store.rows import (
    GUILD_SETTING_FIELDS,
    OPEN,
    PICTURE_MODES,
    ActionRow,
    Clocks,
    Deadline,
    Entrant,
    GuildSettings,
    Hunter,
    Lease,
    LogEntry,
    MatchRow,
    NotifyPrefs,
    Pause,
    Rating,
    RatingChange,
    Record,
    Rename,
    Results,
    Row,
    SeatClock,
    SeatRow,
    Status,
    TournamentGame,
    TournamentPlayer,
    TournamentRow,
    TurnMessage,
    UndoneRow,
    Versus,
    iso,
    utc_now,
    when,
)
from bot.service.timing import DAY, ClockTerms
from league.ratings import FRESH, Placing, Skill, counts, rate, sides

log = logging.getLogger(__name__)

USER_KINDS = ("prefs", "standing", "pictures")  # what is held per user


class ChannelBusy(Exception):
    """The channel already holds an open (lobby or active) match."""


def is_postgresql(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server (else it is a SQLite file)."""
    return str(target).startswith(("postgresql://", "postgres://"))


class _Change:
    """An open transaction of the store: its statements, and what its commit changes
    in memory (`then`), which lanes it wrote notices to, and which keys it changed
    (told to other processes)."""

    def __init__(self, tx: Tx, memory: Memory) -> None:
        self.tx = tx
        self._memory = memory
        self.after: list[Callable[[], None]] = []
        self.written: set[str] = set()
        self.keys: set[str] = set()
        self.coming: list[Hashable] = []  # the keys held in memory it will change

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.tx.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.tx.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.tx.fetch(sql, params)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        found = await self.tx.fetch(sql, params)
        return found[0] if found else None

    def settle(self) -> None:
        """Its changes are applied in memory, or it failed: loads may be held again."""
        coming, self.coming = self.coming, []
        for key in coming:
            self._memory.came(key)

    def then(self, change: Callable[[], None], *keys: str) -> None:
        """Do `change` to what is in memory once the transaction commits; `keys` are
        what it changes ("m:<match>", "g:<server>", "u:<user>", "c:<channel>"): from now
        until then, no load of them is held (see `bot.service.store.memory`)."""
        self.after.append(change)
        for key in keys:
            self.keys.add(key)
            for held in self._memory.keys_of(key):
                self._memory.coming(held)
                self.coming.append(held)


class Store:
    """Async access to the database. Create with `await Store.open(target)`."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = utc_now) -> None:
        self.engine = engine
        self._clock = now
        self._memory = Memory()
        self._outbox_listeners: list[Callable[[str], None]] = []
        # Written behind: (what, key) -> (SQL, parameters, the value it saves); the latest
        # for a key wins. A row loaded meanwhile takes the value (see `_pending`). One
        # transaction at a time carries what waits (so a later value never lands first).
        self._behind: dict[Hashable, tuple[str, tuple[Any, ...], Any]] = {}
        self._carrier: asyncio.Future[None] | None = None  # done when its carrier ends
        self._carried: dict[Hashable, tuple[str, tuple[Any, ...], Any]] = {}  # by it
        self._written_behind = 0  # values written behind so far
        self._saved_behind = 0  # of those, how many were saved (or forgotten) at most
        self._clock_marks: dict[int, int] = {}  # match id -> its clock writes so far
        # The shards whose background work this process does (see `serve`); None: all.
        self._shards: tuple[int, frozenset[int]] | None = None
        self.shard_count = 1  # the gateway's shards in all (see `serve`)
        self._sure: Callable[[], bool] | None = None  # whether the leases are certain
        self._match_listeners: list[Callable[[int], None]] = []
        self._timers: list[Callable[[float], None]] = []  # hear each transaction's seconds
        engine.watch(self._heard)

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations_dir: Path = MIGRATIONS_DIR,
        now: Callable[[], datetime] = utc_now,
    ) -> Store:
        """Open (or create) the database and apply pending migrations: a PostgreSQL
        server given a `postgresql://` address, else a SQLite file. `now` is the time the
        rows' stamps are written with (the bot gives Discord's)."""
        engine: Engine
        if is_postgresql(target):
            from bot.service.store.postgresql import PostgresEngine

            engine = await PostgresEngine.open(str(target), migrations_dir / POSTGRESQL)
        else:
            from bot.service.store.sqlite import SQLiteEngine

            engine = await SQLiteEngine.open(target, migrations_dir)
        return cls(engine, now)

    async def close(self) -> None:
        """Save what is written behind, and close the connections."""
        await self.flush()
        await self.engine.close()

    def _now(self) -> str:
        """The moment written in rows' stamps."""
        return iso(self._clock()) or ""

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.engine.read(sql, params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        found = await self.engine.read(sql, params)
        return found[0] if found else None

    # ------------------------------------------------------------ memory

    async def sync(self) -> None:
        """Forget everything held in memory when another connection may have committed
        something this process wasn't told of (a second process, a restore)."""
        if await self.engine.changed_elsewhere():
            log.info("the database was changed by another connection: reloading")
            self.forget_all()

    def forget_all(self) -> None:
        """Drop everything held in memory (the next reads load it again)."""
        self._forget_held()
        self._behind.clear()  # it was written for what was read before
        self._saved_behind = self._written_behind

    def _forget_held(self) -> None:
        self._memory.forget_all()
        for match_id in self._clock_marks:
            self._clock_marks[match_id] += 1

    def _heard(self, key: str) -> None:
        """Another process committed a change to `key` (see `Tx.announce`): what is held
        of it is read again; a lane it wrote to is delivered from there."""
        if key == "*":
            self._forget_held()
            return
        kind, _, value = key.partition(":")
        memory = self._memory
        if kind == "l":
            memory.wrote_elsewhere(value)
            for listener in self._outbox_listeners:
                listener(value)
            return
        number = int(value)
        if kind == "m":
            memory.forget(number)
            self._clocks_written(number)
            for listener in self._match_listeners:
                listener(number)
        elif kind == "g":
            memory.forget_small("guild", number)
        elif kind == "u":
            for user_kind in USER_KINDS:
                memory.forget_small(user_kind, number)
        elif kind == "c":
            memory.channel_unknown(number)

    def clock_mark(self, match_id: int) -> int:
        """A number that changes with every write to a match's clocks (its deadlines,
        pause, seat clocks): what `Clocks` were worked out from."""
        return self._clock_marks.get(match_id, 0)

    def _clocks_written(self, match_id: int) -> None:
        self._clock_marks[match_id] = self._clock_marks.get(match_id, 0) + 1

    def _forget(self, db: _Change, match_id: int) -> None:
        """What is held of the match is read again after the transaction commits."""
        db.then(lambda: self._memory.forget(match_id), f"m:{match_id}")

    def _update(self, db: _Change, match_id: int, kind: str, change: Callable[[Any], Any]) -> None:
        """Change what is held of a match, if it is held, once the transaction commits."""
        db.then(lambda: self._memory.update(match_id, kind, change), f"m:{match_id}")

    def _put(self, db: _Change, match_id: int, kind: str, value: Any) -> None:
        """Hold `value` as the `kind` of a match once the transaction commits."""
        db.then(lambda: self._memory.put(match_id, kind, value), f"m:{match_id}")

    def _forget_user(self, db: _Change, kind: str, user_id: int) -> None:
        db.then(lambda: self._memory.forget_small(kind, user_id), f"u:{user_id}")

    def on_match_changed_elsewhere(self, listener: Callable[[int], None]) -> None:
        """Call `listener(match_id)` when another process changed a match."""
        self._match_listeners.append(listener)

    # ------------------------------------------------------------ shards

    def serve(
        self, count: int, shards: Iterable[int], sure: Callable[[], bool] | None = None
    ) -> None:
        """Do the background work of these shards only (of `count` in all): deadlines and
        outbox lanes are read for their matches alone, and a lane's notices are held in
        memory only if their match is one of theirs; while `sure()` says no (the leases
        may have run out), none at all. The lanes held are let go: each is read again,
        as it stands now."""
        owned = frozenset(shards)
        self.shard_count = count
        self._shards = None if owned >= frozenset(range(count)) else (count, owned)
        self._sure = sure
        memory = self._memory
        memory.lanes.clear()
        memory.lane_of.clear()
        memory.written_elsewhere.clear()
        memory.foreign = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process does the background work of a server's matches now."""
        if self._sure is not None and not self._sure():
            return False
        if self._shards is None:
            return True
        count, owned = self._shards
        return shard_of(guild_id, count) in owned

    def _owned(self, column: str) -> tuple[str, tuple[int, ...]]:
        """A condition that a server id `column` is of a shard this process serves."""
        if self._shards is None:
            return "1 = 1", ()
        count, owned = self._shards
        marks = ", ".join("?" for _ in owned) or "NULL"
        return f"(COALESCE({column}, 0) >> 22) % ? IN ({marks})", (count, *sorted(owned))

    _LEASE = (
        "shard, holder, epoch, expires_at, wanted_by,"
        " CASE WHEN wanted_at > {now} - ? THEN 1 ELSE 0 END AS asked"
    )

    async def renew_leases(self, holder: str, ttl: float) -> list[Lease]:
        """Run the leases `holder` holds on for `ttl` seconds more; the ones it still holds
        (with whether their gateway's process asked for them back within `ttl`)."""
        now = self.engine.clock_sql
        async with self._transaction() as db:
            rows = await db.fetch(
                f"UPDATE shard_leases SET expires_at = {now} + ? WHERE holder = ?"
                f" RETURNING {self._LEASE.format(now=now)}",
                (ttl, holder, ttl),
            )
        return sorted((decode.lease(r) for r in rows), key=lambda lease: lease.shard)

    async def take_lease(self, shard: int, holder: str, ttl: float) -> Lease | None:
        """The lease of a shard for `holder`, if nobody holds it (never held, or run out);
        None when another process holds it."""
        now = self.engine.clock_sql
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO shard_leases (shard, holder, epoch, expires_at)"
                f" VALUES (?, ?, 1, {now} + ?) ON CONFLICT (shard) DO UPDATE SET"
                " holder = excluded.holder, epoch = shard_leases.epoch + 1,"
                " expires_at = excluded.expires_at, wanted_by = NULL, wanted_at = NULL"
                f" WHERE shard_leases.expires_at < {now}"
                f" RETURNING {self._LEASE.format(now=now)}",
                (shard, holder, ttl, ttl),
            )
        return None if row is None else decode.lease(row)

    async def ask_back(self, shard: int, holder: str) -> None:
        """`holder` runs the shard at the gateway and wants its lease back from the process
        standing in for it."""
        async with self._transaction() as db:
            await db.execute(
                f"UPDATE shard_leases SET wanted_by = ?, wanted_at = {self.engine.clock_sql}"
                " WHERE shard = ? AND holder != ?",
                (holder, shard, holder),
            )

    async def hand_over(self, shard: int, holder: str, to: str, ttl: float) -> bool:
        """Give a lease `holder` holds to the process `to`; False if it no longer held it."""
        async with self._transaction() as db:
            moved = await db.execute(
                f"UPDATE shard_leases SET holder = ?, epoch = epoch + 1,"
                f" expires_at = {self.engine.clock_sql} + ?, wanted_by = NULL, wanted_at = NULL"
                " WHERE shard = ? AND holder = ?",
                (to, ttl, shard, holder),
            )
        return moved == 1

    async def release_leases(self, holder: str) -> None:
        """Let every lease `holder` holds run out now (it stops: another may take them)."""
        async with self._transaction() as db:
            await db.execute("UPDATE shard_leases SET expires_at = 0 WHERE holder = ?", (holder,))

    async def leases(self) -> list[Lease]:
        """Every shard's lease, in shard order."""
        rows = await self._all(
            f"SELECT {self._LEASE.format(now=self.engine.clock_sql)} FROM shard_leases"
            " ORDER BY shard",
            (0,),
        )
        return [decode.lease(r) for r in rows]

    # ------------------------------------------------------------ transactions

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Change]:
        """One write transaction. Once it commits, what is in memory is brought up to
        date and the outbox's listeners hear of each lane it wrote notices to; only
        then does the `async with` return. It saves what waits behind, unless another
        transaction under way carries it."""
        behind: dict[Hashable, tuple[str, tuple[Any, ...], Any]] = {}
        carrier: asyncio.Future[None] | None = None
        if self._carrier is None and self._behind:
            behind, self._behind = self._behind, {}
            self._carried = behind
            carrier = self._carrier = asyncio.get_running_loop().create_future()
        taken = self._written_behind
        done = False
        change: _Change | None = None
        started = time.perf_counter()
        try:

            def committed() -> None:
                assert change is not None
                for after in change.after:
                    after()
                for lane in sorted(change.written):
                    for listener in self._outbox_listeners:
                        listener(lane)
                change.settle()

            def failed() -> None:
                self.forget_all()
                if change is not None:
                    change.settle()

            async with self.engine.transaction(committed, failed) as tx:
                change = _Change(tx, self._memory)
                await self._save_behind(change, behind)
                yield change
                await tx.announce(change.keys)
                done = True
            if carrier is not None:
                self._saved_behind = max(self._saved_behind, taken)
        except BaseException:
            if not done:  # undone with it: saved by the next one
                for key, value in behind.items():
                    self._behind.setdefault(key, value)
            raise
        finally:
            if change is not None and not done:
                change.settle()  # undone: it changes nothing (else its commit settles it)
            if carrier is not None:
                self._carrier = None
                self._carried = {}
                carrier.set_result(None)
            for timer in self._timers:
                timer(time.perf_counter() - started)

    # ------------------------------------------------------------ written behind

    def _write_behind(
        self, key: Hashable, sql: str, params: tuple[Any, ...], value: Any = None
    ) -> None:
        """Save this with the next transaction (or the next `flush`); `value` is what a
        load of the row must see until then."""
        self._behind.pop(key, None)  # the latest goes last
        self._behind[key] = (sql, params, value)
        self._written_behind += 1

    def _pending(self, key: Hashable, default: Any) -> Any:
        """The value written behind for `key` and not saved yet (waiting, or carried by a
        transaction under way), else `default`: what is read from the database until
        then must not undo it."""
        held = self._behind.get(key) or self._carried.get(key)
        return default if held is None else held[2]

    async def flush(self) -> None:
        """Save what is written behind now: once this returns, everything written behind
        before the call is saved (by a transaction of its own, or by the one carrying
        it)."""
        wanted = self._written_behind
        while self._saved_behind < wanted:
            if self._carrier is not None:
                await asyncio.shield(self._carrier)
            elif self._behind:
                async with self._transaction():
                    pass
            else:
                return  # forgotten meanwhile (see `forget_all`): nothing left to save

    async def _save_behind(self, db: _Change, behind: dict[Hashable, Any]) -> None:
        """Write what waited behind into the open transaction (the other processes are
        told of the matches whose board or turn message it moves)."""
        grouped: dict[str, list[tuple[Any, ...]]] = {}
        for key, (sql, params, _) in behind.items():
            grouped.setdefault(sql, []).append(params)
            if isinstance(key, tuple) and key[0] in ("board", "turn"):
                db.keys.add(f"m:{key[1]}")
        for sql, rows in grouped.items():
            await db.executemany(sql, rows)

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return await self.engine.schema_version()

    # ------------------------------------------------------------------ reads

    async def get_match(self, match_id: int) -> MatchRow | None:
        """The match with this id, if any."""
        held = self._memory.hit(match_id, "match")
        if held is not MISSING:
            return held
        return await self._match(match_id)

    async def _match(self, match_id: int) -> MatchRow | None:
        held = self._memory.hit(match_id, "match")
        if held is not MISSING:
            return held
        mark = self._memory.mark(match_id)
        row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        match = decode.match_row(row)
        board = self._pending(("board", match_id), match.board_message_id)
        if board != match.board_message_id:
            match = replace(match, board_message_id=board)
        if self._memory.mark(match_id) == mark:
            self._memory.hold_match(match)
        return match

    async def open_match_in(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel, if any."""
        memory = self._memory
        if channel_id in memory.channels:
            match_id = memory.channels[channel_id]
            if match_id is None:
                return None
            match = await self._match(match_id)
            if match is not None and match.status in OPEN:
                return match
        mark = memory.mark(("channel", channel_id))
        row = await self._one(
            "SELECT id FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        if row is None:
            memory.hold_channel_free(channel_id, mark)
            return None
        match = await self._match(row["id"])
        return match if match is not None and match.status in OPEN else None

    async def seats(self, match_id: int) -> list[SeatRow]:
        """The seats of a match, in seat order."""

        async def load() -> list[SeatRow]:
            rows = await self._all(
                "SELECT seat, user_id, display_name, team, decisions, ai, ai_played FROM seats"
                " WHERE match_id = ? ORDER BY seat",
                (match_id,),
            )
            return [decode.seat_row(r) for r in rows]

        return list(await self._memory.recall(match_id, "seats", load))

    async def actions(self, match_id: int, *, last: int | None = None) -> list[ActionRow]:
        """The action log of a match in order (only the `last` entries when given)."""
        sql = (
            "SELECT seq, seat, user_id, action, events, created_at FROM actions WHERE match_id = ?"
        )
        params: tuple[Any, ...] = (match_id,)
        if last is not None:
            sql += " AND seq > (SELECT version FROM matches WHERE id = ?) - ?"
            params = (match_id, match_id, last)
        return [decode.action_row(r) for r in await self._all(sql + " ORDER BY seq", params)]

    async def latest_actions(self, match_id: int, *, last: int) -> list[ActionRow]:
        """The `last` actions of a match still in effect (none undone), oldest first
        (at most TAIL)."""
        assert last <= TAIL, "only the tail of the log is held"

        async def load() -> list[ActionRow]:
            rows = await self._all(
                "SELECT seq, seat, user_id, action, events, created_at FROM actions a"
                " WHERE match_id = ? AND NOT EXISTS"
                " (SELECT 1 FROM undone u WHERE u.match_id = a.match_id AND u.seq = a.seq)"
                " ORDER BY seq DESC LIMIT ?",
                (match_id, TAIL),
            )
            return [decode.action_row(r) for r in reversed(rows)]

        tail = await self._memory.recall(match_id, "tail", load)
        return tail[-last:] if last else []

    # ----------------------------------------------------------------- writes

    async def create_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        variant: str,
        seed: int,
        rules_version: str,
        created_by: int,
        host_name: str,
        pack: str,
        seed_chosen: bool = False,
        options: dict[str, Any] | None = None,
        terms: ClockTerms | None = None,
    ) -> MatchRow:
        """A new lobby with its creator in seat 0. Raises ChannelBusy when the channel has one.

        `pack` is the card pack the match plays with: the game's setup receives it; `terms`
        its clock (None: a day per decision, `skip`)."""
        now = self._now()
        terms = terms or ClockTerms(DAY, "skip")
        try:
            async with self._transaction() as db:
                row = await db.fetchone(
                    "INSERT INTO matches (guild_id, channel_id, game, variant, pack, seed,"
                    " seed_chosen, rules_version, status, created_by, options, created_at,"
                    " updated_at, clock_seconds, timeout_policy)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        game,
                        variant,
                        pack,
                        seed,
                        int(seed_chosen),
                        rules_version,
                        created_by,
                        json.dumps(options or {}),
                        now,
                        now,
                        terms.clock_seconds,
                        terms.timeout_policy,
                    ),
                )
                assert row is not None
                match_id = int(row["id"])
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (?, 0, ?, ?)",
                    (match_id, created_by, host_name),
                )
                # Its channel was held as free.
                db.then(lambda: self._memory.channel_unknown(channel_id), f"c:{channel_id}")
        except Exception as exc:
            if self.engine.unique_violation(exc):  # the one open match of a channel
                raise ChannelBusy(channel_id) from exc
            raise
        match = await self._match(match_id)
        assert match is not None
        return match

    async def add_seat(
        self,
        match_id: int,
        user_id: int,
        name: str,
        *,
        max_seats: int,
        ai: str | None = None,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Seat a user (or, with `ai`, the AI at that level) in a lobby after the others;
        False when it is full or not a lobby."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)
            added = await db.execute(
                "INSERT INTO seats (match_id, seat, user_id, display_name, ai)"
                " SELECT CAST(? AS BIGINT), COUNT(*), CAST(? AS BIGINT), CAST(? AS TEXT),"
                " CAST(? AS TEXT)"
                " FROM seats WHERE match_id = ? HAVING COUNT(*) < ?"
                " AND (SELECT status FROM matches WHERE id = ?) = 'lobby'",
                (match_id, user_id, name, ai, match_id, max_seats, match_id),
            )
            if added:
                await self._touch(db, match_id)
                await self._enqueue(db, notices)
            return added == 1

    async def remove_seat(
        self, match_id: int, user_id: int, *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Take a user out of a lobby and close the gap in the seat order."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)
            row = await db.fetchone(
                "SELECT s.seat FROM seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.user_id = ? AND m.status = 'lobby'",
                (match_id, user_id),
            )
            if row is None:
                return False
            await db.execute(
                "DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            )
            # Two steps, so the primary key never sees two rows on one seat.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE match_id = ? AND seat > ?",
                (match_id, row["seat"]),
            )
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE match_id = ? AND seat < 0", (match_id,)
            )
            await self._touch(db, match_id)
            await self._enqueue(db, notices)
            return True

    async def set_status(
        self, match_id: int, status: Status, *, only_from: Status, notices: Sequence[Notice] = ()
    ) -> bool:
        """Move a match from one status to another; False when it was not in `only_from`."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
                (status, self._now(), match_id, only_from),
            )
            if changed == 1:
                self._forget(db, match_id)
                await self._enqueue(db, notices)
            return changed == 1

    async def set_options(
        self, match_id: int, options: dict[str, Any], *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Replace a lobby's options; False when it is no longer a lobby."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(options), self._now(), match_id),
            )
            if changed == 1:
                self._forget(db, match_id)
                await self._enqueue(db, notices)
            return changed == 1

    async def set_practice(
        self,
        match_id: int,
        practice: bool,
        *,
        user_id: int,
        kind: str,
        text: str,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Mark a lobby or a match in play as practice (never rated), or not, with a line
        in its log; False when it isn't open or already is so."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET practice = ?, updated_at = ?"
                " WHERE id = ? AND practice <> ? AND status IN ('lobby', 'active')",
                (int(practice), self._now(), match_id, int(practice)),
            )
            if changed == 1:
                await self._log(db, match_id, user_id, kind, text)
                self._forget(db, match_id)
                await self._enqueue(db, notices)
            return changed == 1

    async def start_match(
        self,
        match_id: int,
        *,
        snapshot: str,
        teams: dict[int, int],
        options: dict[str, Any] | None = None,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Save the initial state and the teams of a lobby (and the options it was dealt
        with, when given); False when it is no longer a lobby."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = 'active', snapshot = ?, version = 0, updated_at = ?,"
                " options = COALESCE(?, options) WHERE id = ? AND status = 'lobby'",
                (snapshot, self._now(), None if options is None else json.dumps(options), match_id),
            )
            if changed != 1:
                return False
            await db.executemany(
                "UPDATE seats SET team = ? WHERE match_id = ? AND seat = ?",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
            self._forget(db, match_id)
            # Dealt just now: no action is logged and no turn message posted yet, so its
            # first action reads neither.
            self._put(db, match_id, "tail", [])
            self._put(db, match_id, "turn", None)
            await self._enqueue(db, notices)
            return True

    async def append_action(
        self,
        match_id: int,
        *,
        expected_version: int,
        seat: int,
        user_id: int,
        action: str,
        events: str,
        snapshot: str,
        status: Status,
        notices: Sequence[Notice] = (),
        clocks: Clocks | None = None,
        results: Results | None = None,
        by_ai: bool = False,
    ) -> bool:
        """Log one action and save the state it led to, in one transaction, with what
        it must tell, (given `clocks`, unless a clock changed since they were worked out)
        the match's deadlines and their DMs, and (given `results`) the results of the
        match it finished.

        The snapshot is written only if the match is still active at
        `expected_version`; otherwise nothing changes, False comes back and what is
        held of the match is forgotten (it was out of date). The new action's sequence
        number is `expected_version + 1`, and the acting seat's decision count goes up
        by one (`by_ai`: the AI made the move, marked on the seat for good).
        """
        seq = expected_version + 1
        now = self._now()
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, seq, status, now, match_id, expected_version),
            )
            if changed != 1:
                self._forget(db, match_id)
                return False
            # The seat's decision count goes up with it (a trigger: migration 0010).
            await db.execute(
                "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, seat, user_id, action, events, now),
            )
            if by_ai:
                await db.execute(
                    "UPDATE seats SET ai_played = 1 WHERE match_id = ? AND seat = ?",
                    (match_id, seat),
                )
            if clocks is not None and clocks.mark == self.clock_mark(match_id):
                await self._replace_deadlines(db, match_id, clocks.deadlines)
                notices = [*notices, *clocks.notices]
            if results is not None:
                await self._record_results(db, match_id, results)
            await self._enqueue(db, notices)
            logged = ActionRow(seq, seat, user_id, action, events, now)

            def moved(match: MatchRow) -> MatchRow:
                return replace(match, snapshot=snapshot, version=seq, status=status, updated_at=now)

            def counted(seats: list[SeatRow]) -> list[SeatRow]:
                return [
                    replace(s, decisions=s.decisions + 1, ai_played=s.ai_played or by_ai)
                    if s.seat == seat
                    else s
                    for s in seats
                ]

            self._update(db, match_id, "match", moved)
            self._update(db, match_id, "seats", counted)
            self._update(db, match_id, "tail", lambda t: [*t, logged][-TAIL:])
            return True

    def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember which message shows the match (its lobby, then its board; written
        behind)."""
        self._memory.update(match_id, "match", lambda m: replace(m, board_message_id=message_id))
        self._write_behind(
            ("board", match_id),
            "UPDATE matches SET board_message_id = ? WHERE id = ?",
            (message_id, match_id),
            message_id,
        )

    async def recent_events(self, match_id: int, *, last: int) -> list[str]:
        """The events (JSON) of a match's `last` actions still in effect (none undone),
        oldest first."""
        return [row.events for row in await self.latest_actions(match_id, last=last)]

    async def turn_message(self, match_id: int) -> TurnMessage | None:
        """The message carrying the current turn's public lines, if there is one."""

        async def load() -> TurnMessage | None:
            row = await self._one("SELECT * FROM turn_messages WHERE match_id = ?", (match_id,))
            saved = (
                None
                if row is None
                else TurnMessage(
                    row["match_id"],
                    row["message_id"],
                    row["turn"],
                    row["body"],
                    row["through"],
                    row["author"],
                )
            )
            return self._pending(("turn", match_id), saved)

        return await self._memory.recall(match_id, "turn", load)

    _PUT_TURN = (
        "INSERT INTO turn_messages (match_id, message_id, turn, body, through, author)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET"
        " message_id = excluded.message_id, turn = excluded.turn, body = excluded.body,"
        " through = excluded.through, author = excluded.author"
    )

    def set_turn_message(self, message: TurnMessage) -> None:
        """Remember (or replace) the message carrying a match's current turn (written
        behind)."""
        self._memory.put(message.match_id, "turn", message)
        self._write_behind(
            ("turn", message.match_id),
            self._PUT_TURN,
            (
                message.match_id,
                message.message_id,
                message.turn,
                message.body,
                message.through,
                message.author,
            ),
            message,
        )

    async def save_turn_message(self, match_id: int) -> None:
        """Save the match's turn message now if it is only written behind: a message edited
        before its id and the mark of the notice that posted it were saved could not be
        found again after a crash (its text changed), and would be posted twice."""
        if ("turn", match_id) in self._behind:
            await self.flush()

    def clear_turn_message(self, match_id: int) -> None:
        """Forget a match's turn message: its next public line starts a new one (written
        behind)."""
        self._memory.put(match_id, "turn", None)
        self._write_behind(
            ("turn", match_id), "DELETE FROM turn_messages WHERE match_id = ?", (match_id,)
        )

    # ------------------------------------------------------------ the outbox

    def on_transaction(self, listener: Callable[[float], None]) -> None:
        """Call `listener(seconds)` as each write transaction ends, committed or not."""
        self._timers.append(listener)

    def on_outbox(self, listener: Callable[[str], None]) -> None:
        """Call `listener(lane)` after each commit that wrote notices to that lane."""
        self._outbox_listeners.append(listener)

    async def _enqueue(self, db: _Change, notices: Sequence[Notice]) -> None:
        """Write notices in the open transaction: they are saved with the change or not at all."""
        if not notices:
            return
        now = self._now()
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
        memory = self._memory
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

    async def _served_elsewhere(self, db: _Change, match_ids: set[int]) -> set[int]:
        """The matches among these whose shards another process serves."""
        if self._shards is None:
            return set()
        guilds: dict[int, int | None] = {}
        for match_id in match_ids:
            held = self._memory.hit(match_id, "match")
            if held is not MISSING:
                guilds[match_id] = held.guild_id
        unknown = sorted(match_ids - guilds.keys())
        if unknown:
            rows = await db.fetch(
                f"SELECT id, guild_id FROM matches WHERE id IN ({', '.join('?' for _ in unknown)})",
                unknown,
            )
            guilds.update((r["id"], r["guild_id"]) for r in rows)
        return {match_id for match_id, guild in guilds.items() if not self.owns(guild)}

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        """Write the notices of something that changes nothing else (a reminder, say)."""
        async with self._transaction() as db:
            await self._enqueue(db, notices)

    async def pending_lanes(self) -> list[str]:
        """The lanes with notices still to deliver, oldest first. From then on, a lane
        none of them is only ever written by this process: its notices are held in
        memory as they are written."""
        await self.flush()
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            "SELECT o.lane, MIN(o.id) AS first FROM outbox o JOIN matches m ON m.id = o.match_id"
            f" WHERE o.delivered_at IS NULL AND o.given_up IS NULL AND {owned}"
            " GROUP BY o.lane ORDER BY first",
            params,
        )
        lanes = [r["lane"] for r in rows]
        self._memory.foreign = set(lanes) - set(self._memory.lanes)
        return lanes

    def interrupted(self) -> None:
        """Deliveries were cut short (the publisher stopped): each notice held may have
        been under way, and is treated as if read back after a restart."""
        for pending in self._memory.lanes.values():
            for index, row in enumerate(pending):
                pending[index] = replace(row, recovered=True)

    async def next_notices(self, lane: str, most: int = 1) -> list[OutboxRow]:
        """The oldest notices of a lane still to deliver (`most` of them at most). A
        notice read from the database rather than written by this process is
        `recovered`: its delivery may have begun before a restart."""
        memory = self._memory
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
        memory = self._memory
        await self.flush()  # so the rows read are current
        await self.engine.commit_open()  # and only what is committed is read
        owned, params = self._owned("m.guild_id")
        while True:  # until no commit wrote to the lane during the read
            mark = memory.mark(("lane", lane))
            memory.written_elsewhere.discard(lane)
            rows = await self._all(
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
        if row.id in self._memory.lane_of:
            return
        index = len(pending)
        while index and pending[index - 1].id > row.id:
            index -= 1
        pending.insert(index, row)
        self._memory.lane_of[row.id] = lane

    def _settle_row(
        self, row_id: int, change: Callable[[OutboxRow], OutboxRow | None]
    ) -> OutboxRow | None:
        """Change (or, given None, take out) a pending notice held in memory; the row as
        it was (None: not held). A lane left with nothing pending is let go, when no
        notice another process wrote can be waiting in it."""
        memory = self._memory
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

    async def outbox(self, match_id: int | None = None) -> list[OutboxRow]:
        """Every notice (of one match), delivered or not, in order."""
        await self.flush()
        where, params = ("WHERE match_id = ?", (match_id,)) if match_id is not None else ("", ())
        rows = await self._all(f"SELECT * FROM outbox {where} ORDER BY id", params)
        return [decode.outbox_row(r) for r in rows]

    async def outbox_backlog(self) -> tuple[int, datetime | None]:
        """The notices of the served shards still to deliver, and when the oldest of them
        was written (None: none waits). What is delivered but waits to be saved behind
        counts as delivered; nothing is flushed to find out."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            "SELECT o.id, o.created_at FROM outbox o JOIN matches m ON m.id = o.match_id"
            f" WHERE o.delivered_at IS NULL AND o.given_up IS NULL AND {owned}",
            params,
        )
        delivered = {
            key[1]
            for waiting in (self._behind, self._carried)
            for key, (_, marked, _) in waiting.items()
            if isinstance(key, tuple) and key[0] == "outbox" and marked[1] is not None
        }
        stamps = [decode.when(r["created_at"]) for r in rows if r["id"] not in delivered]
        return len(stamps), min((s for s in stamps if s is not None), default=None)

    async def active_by_game(self) -> dict[str, int]:
        """The matches under way in the served shards, by game."""
        owned, params = self._owned("guild_id")
        rows = await self._all(
            "SELECT game, COUNT(*) AS n FROM matches"
            f" WHERE status = 'active' AND {owned} GROUP BY game",
            params,
        )
        return {r["game"]: int(r["n"]) for r in rows}

    _MARK = (
        "UPDATE outbox SET progress = COALESCE(?, progress),"
        " delivered_at = COALESCE(?, delivered_at), attempts = attempts + ? WHERE id = ?"
    )

    def note_progress(self, row_id: int, progress: dict[str, Any]) -> None:
        """Remember what delivering a notice has done so far (a retry goes on from there;
        written behind)."""
        self._settle_row(row_id, lambda row: replace(row, progress=dict(progress)))
        self._write_behind(("outbox", row_id), self._MARK, (json.dumps(progress), None, 0, row_id))

    async def note_failure(self, row_id: int, error: str) -> int:
        """Count a failed delivery of a notice; how many attempts it has had."""
        async with self._transaction() as db:
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
        self._write_behind(("outbox", row_id), self._MARK, (progress, self._now(), 1, row_id))

    async def give_up(self, row_id: int, why: str) -> None:
        """A notice that can never be delivered (the channel is gone, access was taken)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET given_up = ?, attempts = attempts + 1 WHERE id = ?",
                (why[:500], row_id),
            )
        self._settle_row(row_id, lambda row: None)

    # ------------------------------------------------------------ server settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it has none stored)."""

        async def load() -> GuildSettings:
            row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            return decode.guild_settings(guild_id, row)

        return await self._memory.recall_small("guild", guild_id, load)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; returns them all."""
        unknown = set(changes) - GUILD_SETTING_FIELDS
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        if "match_channels" in changes:
            changes["match_channels"] = json.dumps(sorted(changes["match_channels"]))
        if "rated_endings" in changes:
            changes["rated_endings"] = json.dumps(sorted(changes["rated_endings"]))
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, self._now()),
            )
            for name, value in changes.items():  # names checked against the allow-list
                await db.execute(
                    f"UPDATE guild_settings SET {name} = ?, updated_at = ? WHERE guild_id = ?",
                    (value, self._now(), guild_id),
                )
            db.then(lambda: self._memory.forget_small("guild", guild_id), f"g:{guild_id}")
        return await self.guild_settings(guild_id)

    # ------------------------------------------------------------ match log

    async def add_log_entry(
        self,
        match_id: int,
        *,
        user_id: int | None,
        kind: str,
        text: str,
        notices: Sequence[Notice] = (),
    ) -> LogEntry:
        """Write a line into a match's log (a moderator action, a timeout, a pause), with
        what it must tell the table."""
        async with self._transaction() as db:
            entry = await self._log(db, match_id, user_id, kind, text)
            await self._enqueue(db, notices)
        return entry

    async def _log(
        self, db: _Change, match_id: int, user_id: int | None, kind: str, text: str
    ) -> LogEntry:
        """Write a line into a match's log, at its version now (in `db`'s transaction)."""
        row = await db.fetchone(
            "INSERT INTO match_log (match_id, version, user_id, kind, text, created_at)"
            " SELECT id, version, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT),"
            " CAST(? AS TEXT) FROM matches WHERE id = ? RETURNING *",
            (user_id, kind, text, self._now(), match_id),
        )
        assert row is not None, f"match {match_id} does not exist"
        return decode.log_entry(row)

    async def log_entries(self, match_id: int) -> list[LogEntry]:
        """A match's non-game log lines, oldest first."""
        rows = await self._all(
            "SELECT * FROM match_log WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [decode.log_entry(r) for r in rows]

    async def _touch(self, db: _Change, match_id: int) -> None:
        await db.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (self._now(), match_id))
        self._forget(db, match_id)

    # ---- moderation, history, stats

    async def undone(self, match_id: int) -> dict[int, UndoneRow]:
        """The actions of a match a moderator took back, by sequence number."""
        rows = await self._all(
            "SELECT seq, user_id, forced, created_at FROM undone WHERE match_id = ?", (match_id,)
        )
        return {
            r["seq"]: UndoneRow(r["seq"], r["user_id"], bool(r["forced"]), r["created_at"])
            for r in rows
        }

    async def record_undo(
        self,
        match_id: int,
        *,
        expected_version: int,
        seq: int,
        user_id: int,
        forced: bool,
        snapshot: str,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Mark action `seq` undone and save the state without it, in one transaction.

        Only if the match is still active at `expected_version`; the version goes up by
        one (so the next action skips a number) and every seat's decision count too, so
        every menu shown before the undo is out of date. False when nothing changed.
        """
        now = self._now()
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET snapshot = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, now, match_id, expected_version),
            )
            if changed != 1:
                return False
            await db.execute(
                "INSERT INTO undone (match_id, seq, user_id, forced, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, user_id, int(forced), now),
            )
            await db.execute(
                "UPDATE seats SET decisions = decisions + 1 WHERE match_id = ?", (match_id,)
            )
            self._forget(db, match_id)
            await self._enqueue(db, notices)
            return True

    async def replace_seat(
        self,
        match_id: int,
        *,
        expected_version: int,
        seat: int,
        new_user_id: int,
        new_name: str,
        notices: Sequence[Notice] = (),
        moderator_id: int,
        snapshot: str,
    ) -> bool:
        """Hand an active match's seat to another member (remembering who held it and
        the name the game knows it by) and save the state that knows the newcomer's
        name, in one transaction; the version goes up by one, which places the rename
        among the actions on replay. False when the match is not active at
        `expected_version`, the seat is empty or the newcomer already holds a seat."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)
            row = await db.fetchone(
                "SELECT s.user_id, s.display_name FROM seats s"
                " JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.seat = ? AND m.status = 'active' AND m.version = ?"
                " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.match_id = ? AND o.user_id = ?)",
                (match_id, seat, expected_version, match_id, new_user_id),
            )
            if row is None:
                return False
            await db.execute(
                "UPDATE matches SET snapshot = ?, version = version + 1 WHERE id = ?",
                (snapshot, match_id),
            )
            await db.execute(
                "INSERT INTO seat_replacements (match_id, seat, old_user_id, old_name,"
                " new_user_id, new_name, moderator_id, created_at, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    seat,
                    row["user_id"],
                    row["display_name"],
                    new_user_id,
                    new_name,
                    moderator_id,
                    self._now(),
                    expected_version + 1,
                ),
            )
            # The newcomer starts clean: a fresh clock (the decision count moves on) and
            # none of the old player's timeouts in a row or vacation.
            await db.execute(
                "UPDATE seats SET user_id = ?, display_name = ?, decisions = decisions + 1"
                " WHERE match_id = ? AND seat = ?",
                (new_user_id, new_name, match_id, seat),
            )
            self._clocks_written(match_id)
            await db.execute(
                "DELETE FROM seat_clocks WHERE match_id = ? AND seat = ?", (match_id, seat)
            )
            # The old player's vote to pause was theirs, not the newcomer's.
            await db.execute(
                "DELETE FROM pause_votes WHERE match_id = ? AND seat = ?", (match_id, seat)
            )
            await self._touch(db, match_id)
            await self._enqueue(db, notices)
            return True

    async def set_seat_ai(
        self, match_id: int, seat: int, ai: str | None, *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Have the AI play a seat of an active match at level `ai`, or (None) give it
        back to its player; its decision count moves on, so a menu built before is stale.
        False when the match isn't active or the seat already is so."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)
            changed = await db.execute(
                "UPDATE seats SET ai = ?, decisions = decisions + 1"
                " WHERE match_id = ? AND seat = ?"
                " AND COALESCE(ai, '') <> COALESCE(CAST(? AS TEXT), '')"
                " AND (SELECT status FROM matches WHERE id = ?) = 'active'",
                (ai, match_id, seat, ai, match_id),
            )
            if changed:
                self._clocks_written(match_id)
                await self._touch(db, match_id)
                await self._enqueue(db, notices)
            return changed == 1

    async def renames(self, match_id: int) -> list[Rename]:
        """The seats renamed in the game as they changed hands, in order."""
        rows = await self._all(
            "SELECT version, seat, new_name FROM seat_replacements"
            " WHERE match_id = ? AND version IS NOT NULL ORDER BY version",
            (match_id,),
        )
        return [Rename(row["version"], row["seat"], row["new_name"]) for row in rows]

    async def setup_names(self, match_id: int) -> dict[int, str]:
        """The name each seat was dealt in with, for the seats that changed hands since."""
        rows = await self._all(
            "SELECT seat, old_name FROM seat_replacements WHERE match_id = ?"
            " AND id IN (SELECT MIN(id) FROM seat_replacements WHERE match_id = ?"
            " GROUP BY seat)",
            (match_id, match_id),
        )
        return {r["seat"]: r["old_name"] for r in rows}

    async def open_matches_in_guild(self, guild_id: int) -> list[MatchRow]:
        """A server's lobbies and active matches, oldest first."""
        rows = await self._all(
            "SELECT * FROM matches WHERE guild_id = ? AND status IN ('lobby', 'active')"
            " ORDER BY id",
            (guild_id,),
        )
        return [decode.match_row(r) for r in rows]

    async def latest_match_in(self, channel_id: int) -> MatchRow | None:
        """The channel's most recent match, open or not."""
        row = await self._one(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return decode.match_row(row) if row else None

    async def record_results(self, match_id: int, results: Results) -> bool:
        """Record how each seat of a finished match ended, credited to whoever holds it;
        False when they were recorded already."""
        async with self._transaction() as db:
            return await self._record_results(db, match_id, results)

    async def _record_results(self, db: _Change, match_id: int, results: Results) -> bool:
        """Write the results (each seat's side, place and the match's season with them),
        then rate the match; False when they were recorded already."""
        found = await db.fetchone("SELECT guild_id FROM matches WHERE id = ?", (match_id,))
        guild_id = None if found is None else found["guild_id"]
        season, rated_endings = 1, None
        if guild_id is not None and not results.with_ai and results.opponent is None:
            season, rated_endings = await self._lock_league(db, guild_id)
        elif guild_id is not None:
            held = await db.fetchone(
                "SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            season = 1 if held is None else held["season"]
        places = {"win": 1, "draw": 2, "loss": 3}
        now = self._now()
        recorded = 0
        for seat, result in results.by_seat.items():
            recorded += await db.execute(
                "INSERT INTO results (match_id, seat, user_id, guild_id, game,"
                " result, recorded_at, opponent, opponent_level, with_ai,"
                " team, place, ending, season)"
                " SELECT s.match_id, s.seat, s.user_id, m.guild_id, m.game, CAST(? AS TEXT),"
                " CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER),"
                " CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER)"
                " FROM seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.seat = ? AND m.status IN ('finished', 'abandoned')"
                " ON CONFLICT DO NOTHING",
                (
                    result,
                    now,
                    results.opponent,
                    results.opponent_level,
                    int(results.with_ai),
                    results.teams.get(seat, seat),
                    results.places.get(seat, places[result]),
                    results.ending,
                    season,
                    match_id,
                    seat,
                ),
            )
        if recorded:
            await self._rate(db, match_id, rated_endings)
        return recorded > 0

    async def versus_records(self, guild_id: int, user_id: int) -> list[Versus]:
        """A player's solitaire records per opponent, in this server or in direct
        messages with the bot (where solitaire games are played too)."""
        rows = await self._all(
            "SELECT user_id, game, opponent, MAX(opponent_level) AS level,"
            " COUNT(*) FILTER (WHERE result = 'win') AS wins,"
            " COUNT(*) FILTER (WHERE result = 'loss') AS losses FROM results"
            " WHERE user_id = ? AND opponent IS NOT NULL AND (guild_id = ? OR guild_id IS NULL)"
            " GROUP BY user_id, game, opponent ORDER BY game, level, opponent",
            (user_id, guild_id),
        )
        return [
            Versus(r["user_id"], r["game"], r["opponent"], r["level"] or 0, r["wins"], r["losses"])
            for r in rows
        ]

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each of these players was seated under in their latest recorded match
        in a server (a player with none is left out)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(
            "SELECT r.user_id, s.display_name FROM results r"
            " JOIN seats s ON s.match_id = r.match_id AND s.user_id = r.user_id"
            f" WHERE r.guild_id = ? AND r.user_id IN ({marks}) ORDER BY r.match_id",
            (guild_id, *user_ids),
        )
        return {r["user_id"]: r["display_name"] for r in rows}  # the latest match's last

    async def hunters(self, guild_id: int, game: str, *, limit: int) -> list[Hunter]:
        """A server's best solitaire players of a game: the most opponents beaten, then
        the hardest one beaten, then the most wins (games in this server only)."""
        rows = await self._all(
            "SELECT user_id, COUNT(DISTINCT CASE WHEN result = 'win' THEN opponent END)"
            " AS beaten, MAX(CASE WHEN result = 'win' THEN opponent_level ELSE 0 END)"
            " AS hardest, COUNT(*) FILTER (WHERE result = 'win') AS wins, COUNT(*) AS games"
            " FROM results WHERE guild_id = ? AND game = ? AND opponent IS NOT NULL"
            " GROUP BY user_id ORDER BY beaten DESC, hardest DESC, wins DESC, games, user_id"
            " LIMIT ?",
            (guild_id, game, limit),
        )
        return [
            Hunter(r["user_id"], r["beaten"], r["hardest"] or 0, r["wins"], r["games"])
            for r in rows
        ]

    async def unrecorded_matches(self) -> list[int]:
        """Finished matches whose results are not recorded yet."""
        rows = await self._all(
            "SELECT id FROM matches m WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.match_id = m.id) ORDER BY id",
        )
        return [r["id"] for r in rows]

    # An abandoned match counts for nobody's wins and losses (it is kept for ratings).
    _COUNTED = "ending <> 'abandoned'"
    _TALLY = (
        "SELECT user_id, game, COUNT(*) AS games,"
        " COUNT(*) FILTER (WHERE result = 'win') AS wins,"
        " COUNT(*) FILTER (WHERE result = 'loss') AS losses FROM results"
    )

    async def player_records(
        self, guild_id: int, user_id: int, *, with_ai: bool = False
    ) -> list[Record]:
        """A player's results in a server, one record per game, most played first: of
        the matches between people, or (`with_ai`) of those the AI played in, DMs
        included."""
        where = "(guild_id = ? OR guild_id IS NULL)" if with_ai else "guild_id = ?"
        rows = await self._all(
            f"{self._TALLY} WHERE {where} AND user_id = ? AND with_ai = ? AND {self._COUNTED}"
            " GROUP BY user_id, game ORDER BY games DESC, game",
            (guild_id, user_id, int(with_ai)),
        )
        return [decode.record(r) for r in rows]

    # ---- ratings and seasons

    async def _lock_league(self, db: _Change, guild_id: int) -> tuple[int, frozenset[str]]:
        """Hold the server's settings row until the transaction ends (ratings are rated
        one match at a time per server, in one order on every engine), and read its
        season and rated endings."""
        await db.execute(
            "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET season = guild_settings.season",
            (guild_id, self._now()),
        )
        row = await db.fetchone(
            "SELECT season, rated_endings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        assert row is not None
        return row["season"], frozenset(json.loads(row["rated_endings"]))

    async def _rate(self, db: _Change, match_id: int, held: frozenset[str] | None = None) -> None:
        """Decide whether a match's recorded results are rated and, if so, rate it: its
        players' ratings move, the change of each is kept, and the results carry the
        match's place in the rating order (0: not rated). A match decided already (by
        another process meanwhile) is left as it is. `held`: the rated endings, read
        under the server's lock this transaction already holds."""
        first = await db.fetchone(
            "SELECT r.guild_id, r.with_ai, r.opponent, m.practice FROM results r"
            " JOIN matches m ON m.id = r.match_id WHERE r.match_id = ? LIMIT 1",
            (match_id,),
        )
        if first is None:
            return
        guild_id = first["guild_id"]
        rateable = (
            guild_id is not None
            and not first["with_ai"]
            and first["opponent"] is None
            and not first["practice"]  # a practice match is never rated
        )
        rated_endings: frozenset[str] = held or frozenset()
        if rateable and held is None:
            _, rated_endings = await self._lock_league(db, guild_id)
        rows = await db.fetch(
            "SELECT seat, user_id, game, season, team, place, ending, recorded_at, rating_seq"
            " FROM results WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        if any(r["rating_seq"] is not None for r in rows):
            return
        head = rows[0]
        game, season = head["game"], head["season"]
        placings = [
            Placing(r["user_id"], r["seat"] if r["team"] is None else r["team"], r["place"])
            for r in rows
        ]
        seq = 0
        if rateable and counts(head["ending"], rated_endings) and sides(placings) is not None:
            last = await db.fetchone(
                "SELECT MAX(rating_seq) AS seq FROM results"
                " WHERE guild_id = ? AND game = ? AND season = ? AND rating_seq > 0",
                (guild_id, game, season),
            )
            seq = ((last and last["seq"]) or 0) + 1
            league = (guild_id, game, season)
            await self._move_ratings(db, league, match_id, seq, placings, head["recorded_at"])
        await db.execute("UPDATE results SET rating_seq = ? WHERE match_id = ?", (seq, match_id))

    async def _move_ratings(
        self,
        db: _Change,
        league: tuple[int, str, int],
        match_id: int,
        seq: int,
        placings: Sequence[Placing],
        at: str,
    ) -> None:
        """Rate one match from the ratings as they stand, and save what it changed."""
        users = sorted({p.user_id for p in placings})
        marks = ", ".join("?" * len(users))
        held = await db.fetch(
            "SELECT user_id, mu, sigma, games FROM ratings"
            f" WHERE guild_id = ? AND game = ? AND season = ? AND user_id IN ({marks})",
            (*league, *users),
        )
        before = {r["user_id"]: Skill(r["mu"], r["sigma"]) for r in held}
        games = {r["user_id"]: r["games"] for r in held}
        after = rate(placings, before)
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, season, user_id, mu, sigma, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, updated_at = excluded.updated_at",
            [
                (*league, u, skill.mu, skill.sigma, games.get(u, 0) + 1, at)
                for u, skill in after.items()
            ],
        )
        guild_id, game, season = league
        await db.executemany(
            "INSERT INTO rating_changes (match_id, user_id, guild_id, game, season, rating_seq,"
            " mu_before, sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (match_id, u, guild_id, game, season, seq, was.mu, was.sigma, s.mu, s.sigma, at)
                for u, s in after.items()
                for was in [before.get(u, FRESH)]
            ],
        )

    async def undecided_results(self) -> list[int]:
        """The matches whose results were recorded before ratings existed, in the order
        they were recorded."""
        rows = await self._all(
            "SELECT match_id, MIN(recorded_at) AS at FROM results WHERE rating_seq IS NULL"
            " GROUP BY match_id ORDER BY at, match_id"
        )
        return [r["match_id"] for r in rows]

    async def rate_undecided(self, match_id: int, teams: Mapping[int, int]) -> None:
        """Rate, or mark unrated, results recorded before ratings existed, each seat on
        its side (`teams`: seat -> side, which those results didn't keep)."""
        async with self._transaction() as db:
            await db.executemany(
                "UPDATE results SET team = ? WHERE match_id = ? AND seat = ? AND team IS NULL",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
            await self._rate(db, match_id)

    async def rebuild_ratings(self, guild_id: int) -> tuple[int, int]:
        """Work a server's ratings out again from its rated results alone, in their
        rating order, and store them in place of the ones held: (matches replayed,
        players whose stored rating differed)."""
        async with self._transaction() as db:
            await self._lock_league(db, guild_id)
            rows = await db.fetch(
                "SELECT match_id, seat, user_id, game, season, COALESCE(team, seat) AS team,"
                " place, rating_seq, recorded_at FROM results WHERE guild_id = ? AND rating_seq > 0"
                " ORDER BY game, season, rating_seq, seat",
                (guild_id,),
            )
            held = {
                (r["game"], r["season"], r["user_id"]): (r["mu"], r["sigma"], r["games"])
                for r in await db.fetch(
                    "SELECT game, season, user_id, mu, sigma, games FROM ratings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            }
            await db.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            matches = itertools.groupby(
                rows, key=lambda r: (r["game"], r["season"], r["rating_seq"], r["match_id"])
            )
            replayed = 0
            for (game, season, seq, match_id), group in matches:
                seats = list(group)
                placings = [Placing(r["user_id"], r["team"], r["place"]) for r in seats]
                at = seats[0]["recorded_at"]
                await self._move_ratings(db, (guild_id, game, season), match_id, seq, placings, at)
                replayed += 1
            rebuilt = {
                (r["game"], r["season"], r["user_id"]): (r["mu"], r["sigma"], r["games"])
                for r in await db.fetch(
                    "SELECT game, season, user_id, mu, sigma, games FROM ratings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            }
        keys = held.keys() | rebuilt.keys()
        return replayed, sum(1 for key in keys if held.get(key) != rebuilt.get(key))

    async def ratings(self, guild_id: int, game: str, season: int, *, limit: int) -> list[Rating]:
        """A server's best rated players of a game in a season, by `Skill.shown`."""
        rows = await self._all(
            "SELECT user_id, game, season, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND game = ? AND season = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (guild_id, game, season, limit),
        )
        return [decode.rating(r) for r in rows]

    async def player_ratings(self, guild_id: int, user_id: int, season: int) -> list[Rating]:
        """A player's ratings in a server's season, one per game they were rated in."""
        rows = await self._all(
            "SELECT user_id, game, season, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND user_id = ? AND season = ? ORDER BY games DESC, game",
            (guild_id, user_id, season),
        )
        return [decode.rating(r) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, season: int, *, limit: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and season, oldest first."""
        rows = await self._all(
            "SELECT match_id, rating_seq, mu_before, sigma_before, mu, sigma, at"
            " FROM rating_changes WHERE guild_id = ? AND user_id = ? AND game = ?"
            " AND season = ? ORDER BY rating_seq DESC LIMIT ?",
            (guild_id, user_id, game, season, limit),
        )
        return [decode.rating_change(r) for r in reversed(rows)]

    async def new_season(self, guild_id: int, user_id: int) -> int:
        """Start a server's next season (its ratings start afresh; the old ones stay);
        its number."""
        async with self._transaction() as db:
            season, _ = await self._lock_league(db, guild_id)
            season += 1
            await db.execute(
                "UPDATE guild_settings SET season = ?, updated_at = ? WHERE guild_id = ?",
                (season, self._now(), guild_id),
            )
            await db.execute(
                "INSERT INTO seasons (guild_id, season, started_at, started_by)"
                " VALUES (?, ?, ?, ?)",
                (guild_id, season, self._now(), user_id),
            )
            db.then(lambda: self._memory.forget_small("guild", guild_id), f"g:{guild_id}")
        return season

    # ---- tournaments

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        game: str,
        variant: str,
        format: str,
        rounds: int,
        seeding: str,
        round_seconds: int,
        at_deadline: str,
        signup_until: str,
        seed: int,
        created_by: int,
    ) -> TournamentRow:
        """Open a tournament's sign-up."""
        now = self._now()
        async with self._transaction() as db:
            (row,) = await db.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, variant, format,"
                " rounds, seeding, round_seconds, at_deadline, signup_until, seed, created_by,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    name,
                    game,
                    variant,
                    format,
                    rounds,
                    seeding,
                    round_seconds,
                    at_deadline,
                    signup_until,
                    seed,
                    created_by,
                    now,
                ),
            )
        return decode.tournament_row(row)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by its id."""
        row = await self._one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else decode.tournament_row(row)

    async def open_tournaments(self, guild_id: int | None = None) -> list[TournamentRow]:
        """The tournaments signing up or running (of a server, or of every server this
        process serves)."""
        owned, params = self._owned("guild_id")
        where = f"status IN ('signup', 'running') AND {owned}"
        if guild_id is not None:
            where += " AND guild_id = ?"
            params = (*params, guild_id)
        rows = await self._all(f"SELECT * FROM tournaments WHERE {where} ORDER BY id", params)
        return [decode.tournament_row(r) for r in rows]

    async def tournaments_in(self, channel_id: int) -> list[TournamentRow]:
        """The tournaments run from a channel, the latest first."""
        rows = await self._all(
            "SELECT * FROM tournaments WHERE channel_id = ? ORDER BY id DESC", (channel_id,)
        )
        return [decode.tournament_row(r) for r in rows]

    async def tournament_players(self, tournament_id: int) -> list[TournamentPlayer]:
        """Who signed up, in the order they did."""
        rows = await self._all(
            "SELECT user_id, name, entrant FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return [TournamentPlayer(r["user_id"], r["name"], r["entrant"]) for r in rows]

    async def sign_up(self, tournament_id: int, user_id: int, name: str, *, join: bool) -> bool:
        """Add a player to a tournament still signing up (`join`), or take them off it;
        False when nothing changed (already in, not in, or sign-up over)."""
        async with self._transaction() as db:
            open_ = await db.fetchone(
                "SELECT id FROM tournaments WHERE id = ? AND status = 'signup'", (tournament_id,)
            )
            if open_ is None:
                return False
            if join:
                return bool(
                    await db.execute(
                        "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (tournament_id, user_id, name, self._now()),
                    )
                )
            return bool(
                await db.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
            )

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's sides, best seed first."""
        rows = await self._all(
            "SELECT entrant, seed, name, dropped_round FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,),
        )
        return [Entrant(r["entrant"], r["seed"], r["name"], r["dropped_round"]) for r in rows]

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every pairing so far, round by round, table by table."""
        rows = await self._all(
            "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board",
            (tournament_id,),
        )
        return [decode.tournament_game(r) for r in rows]

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        entrants: Sequence[Entrant],
        members: dict[int, int],
        rounds: int,
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """End the sign-up: the sides and their seeds, each player's side (`members`:
        user -> entrant), the rounds to play. False unless it was still signing up."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?"
                " WHERE id = ? AND status = 'signup'",
                (rounds, tournament_id),
            )
            if not changed:
                return False
            await db.executemany(
                "INSERT INTO tournament_entrants (tournament_id, entrant, seed, name)"
                " VALUES (?, ?, ?, ?)",
                [(tournament_id, e.entrant, e.seed, e.name) for e in entrants],
            )
            await db.executemany(
                "UPDATE tournament_players SET entrant = ? WHERE tournament_id = ? AND user_id = ?",
                [(entrant, tournament_id, user) for user, entrant in members.items()],
            )
            await self._tournament_notes(db, tournament_id, notes)
            return True

    async def begin_round(
        self,
        tournament_id: int,
        *,
        round_no: int,
        games: Sequence[TournamentGame],
        ends: str,
        again: bool = False,
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """Pair a round: the one after the round being played, or (`again`) the round
        being played anew, its games replaced while none has a result. False if the
        tournament moved on meanwhile (another process or task paired it first, a
        result came in)."""
        unplayed = (
            " AND NOT EXISTS (SELECT 1 FROM tournament_games g"
            " WHERE g.tournament_id = tournaments.id AND g.round = ?"
            " AND g.how IN ('played', 'recorded', 'deadline', 'aborted'))"
        )
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET round = ?, round_ends = ?"
                " WHERE id = ? AND status = 'running' AND round = ?" + (unplayed if again else ""),
                (round_no, ends, tournament_id, round_no if again else round_no - 1)
                + ((round_no,) if again else ()),
            )
            if not changed:
                return False
            await db.execute(
                "DELETE FROM tournament_games WHERE tournament_id = ? AND round = ?",
                (tournament_id, round_no),
            )
            await db.executemany(
                "INSERT INTO tournament_games (tournament_id, round, board, a, b, points, how)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, g.round, g.board, g.a, g.b, g.points, g.how) for g in games],
            )
            await self._tournament_notes(db, tournament_id, notes)
            return True

    async def seat_game(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        match_id: int,
        thread_id: int,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """The match (in its thread) that plays a pairing, with what it tells its
        players; False if it had one."""
        async with self._transaction() as db:
            seated = await db.execute(
                "UPDATE tournament_games SET match_id = ?, thread_id = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ? AND match_id IS NULL",
                (match_id, thread_id, tournament_id, round_no, board),
            )
            if seated:
                await self._enqueue(db, notices)
            return bool(seated)

    async def decide_game(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        points: float,
        how: str,
        notes: Sequence[tuple[int | None, str, str]] = (),
        *,
        notices: Sequence[Notice] = (),
        replacing: str | None = None,
    ) -> bool:
        """A pairing's result (`a`'s points), with what it tells its thread; False if it
        had one already (unless the one it had was decided the way `replacing` names)."""
        unless = " OR how = ?" if replacing is not None else ""
        async with self._transaction() as db:
            decided = await db.execute(
                "UPDATE tournament_games SET points = ?, how = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ?"
                f" AND (points IS NULL{unless}) AND b IS NOT NULL",
                (points, how, tournament_id, round_no, board)
                + ((replacing,) if replacing is not None else ()),
            )
            if decided:
                await self._enqueue(db, notices)
                await self._tournament_notes(db, tournament_id, notes)
            return bool(decided)

    async def deadline_passed(
        self,
        tournament_id: int,
        round_no: int,
        notices: Sequence[Notice] = (),
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """A round's deadline has been dealt with (its moment is cleared, with what that
        tells); False if it was already, or the tournament moved on."""
        async with self._transaction() as db:
            passed = await db.execute(
                "UPDATE tournaments SET round_ends = NULL WHERE id = ? AND round = ?"
                " AND status = 'running' AND round_ends IS NOT NULL",
                (tournament_id, round_no),
            )
            if passed:
                await self._enqueue(db, notices)
                await self._tournament_notes(db, tournament_id, notes)
            return bool(passed)

    async def match_results(self, match_id: int) -> dict[int, str]:
        """How each seat of a match ended, as recorded (`{seat: 'win' | 'loss' | 'draw'}`)."""
        rows = await self._all("SELECT seat, result FROM results WHERE match_id = ?", (match_id,))
        return {r["seat"]: r["result"] for r in rows}

    async def game_of_match(self, match_id: int) -> tuple[int, int, int] | None:
        """The tournament, round and table a match plays, if it plays one."""
        row = await self._one(
            "SELECT tournament_id, round, board FROM tournament_games WHERE match_id = ?",
            (match_id,),
        )
        return None if row is None else (row["tournament_id"], row["round"], row["board"])

    async def drop_entrant(
        self, tournament_id: int, entrant: int, round_no: int, note: tuple[int | None, str, str]
    ) -> bool:
        """An entrant paired no more from `round_no` on; False if it had dropped already."""
        async with self._transaction() as db:
            dropped = await db.execute(
                "UPDATE tournament_entrants SET dropped_round = ?"
                " WHERE tournament_id = ? AND entrant = ? AND dropped_round IS NULL",
                (round_no, tournament_id, entrant),
            )
            if dropped:
                await self._tournament_notes(db, tournament_id, [note])
            return bool(dropped)

    async def end_tournament(
        self, tournament_id: int, status: str, note: tuple[int | None, str, str]
    ) -> bool:
        """Finish or cancel a tournament still open; False if it wasn't."""
        async with self._transaction() as db:
            ended = await db.execute(
                "UPDATE tournaments SET status = ?, round_ends = NULL"
                " WHERE id = ? AND status IN ('signup', 'running')",
                (status, tournament_id),
            )
            if ended:
                await self._tournament_notes(db, tournament_id, [note])
            return bool(ended)

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """The message showing a tournament (its sign-up, then its standings)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def add_tournament_note(
        self, tournament_id: int, user_id: int | None, kind: str, text: str
    ) -> None:
        """Write a line in a tournament's log."""
        async with self._transaction() as db:
            await self._tournament_notes(db, tournament_id, [(user_id, kind, text)])

    async def tournament_log(self, tournament_id: int) -> list[tuple[int | None, str, str]]:
        """What was done to a tournament, oldest first: (user, kind, text)."""
        rows = await self._all(
            "SELECT user_id, kind, text FROM tournament_log WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        return [(r["user_id"], r["kind"], r["text"]) for r in rows]

    async def _tournament_notes(
        self, db: _Change, tournament_id: int, notes: Iterable[tuple[int | None, str, str]]
    ) -> None:
        await db.executemany(
            "INSERT INTO tournament_log (tournament_id, user_id, kind, text, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(tournament_id, user, kind, text, self._now()) for user, kind, text in notes],
        )

    # ---- clocks: match clock terms, deadlines, pauses, vacations, DM preferences

    async def abandon_match(
        self,
        match_id: int,
        *,
        expected_version: int,
        notices: Sequence[Notice] = (),
        results: Results | None = None,
    ) -> bool:
        """End an active match as abandoned (no winner) if it is still at that version,
        with the results that say who left it."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = 'abandoned', updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (self._now(), match_id, expected_version),
            )
            self._forget(db, match_id)
            if changed == 1:
                await self._enqueue(db, notices)
                if results is not None:
                    await self._record_results(db, match_id, results)
            return changed == 1

    async def deadlines(self, match_id: int) -> list[Deadline]:
        """The clocks of a match's deciding seats, in seat order."""

        async def load() -> list[Deadline]:
            rows = await self._all(
                "SELECT * FROM deadlines WHERE match_id = ? ORDER BY seat", (match_id,)
            )
            return [decode.deadline(r) for r in rows]

        return list(await self._memory.recall(match_id, "deadlines", load))

    async def deadline(self, match_id: int, seat: int) -> Deadline | None:
        """One seat's clock, if it has one."""
        return next((d for d in await self.deadlines(match_id) if d.seat == seat), None)

    async def save_deadlines(self, match_id: int, deadlines: Iterable[Deadline]) -> None:
        """Replace all the clocks of a match with these, in one transaction."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            await self._replace_deadlines(db, match_id, list(deadlines))

    async def _replace_deadlines(
        self, db: _Change, match_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        """Make these the match's clocks, in the open transaction (the rows they don't
        change are left as they are)."""
        self._clocks_written(match_id)
        held = self._memory.hit(match_id, "deadlines")
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
        self._put(db, match_id, "deadlines", rows)

    async def put_deadline(self, deadline: Deadline, *, notices: Sequence[Notice] = ()) -> None:
        """Save one seat's clock (added or replaced), with what it must tell (a reminder)."""
        async with self._transaction() as db:
            await db.tx.lock_match(deadline.match_id)  # clocks: one writer of a match at a time
            self._clocks_written(deadline.match_id)
            await db.execute(self._PUT_DEADLINE, decode.deadline_params(deadline))
            await self._enqueue(db, notices)

            def put(rows: list[Deadline]) -> list[Deadline]:
                kept = [d for d in rows if d.seat != deadline.seat]
                return sorted([*kept, deadline], key=lambda d: d.seat)

            self._update(db, deadline.match_id, "deadlines", put)

    async def remind(self, deadline: Deadline, *, notices: Sequence[Notice] = ()) -> bool:
        """Save that a seat's clock reached reminder stage `deadline.reminded`, with the
        reminder, unless its clock changed meanwhile or the stage was saved already (by
        another process, say): then nothing is saved, and False comes back."""
        d = deadline
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE deadlines SET reminded = ? WHERE match_id = ? AND seat = ?"
                " AND version = ? AND decisions = ? AND reminded < ?",
                (d.reminded, d.match_id, d.seat, d.version, d.decisions, d.reminded),
            )
            if changed != 1:
                self._forget(db, d.match_id)
                return False
            self._clocks_written(d.match_id)
            await self._enqueue(db, notices)

            def put(rows: list[Deadline]) -> list[Deadline]:
                return [deadline if row.seat == deadline.seat else row for row in rows]

            self._update(db, d.match_id, "deadlines", put)
            return True

    async def running_deadlines(self) -> list[tuple[Deadline, str]]:
        """Every clock not frozen, with the reminder cadence of its match's server (of the
        shards this process serves)."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            "SELECT d.*, COALESCE(g.reminder_cadence, ?) AS cadence FROM deadlines d"
            " JOIN matches m ON m.id = d.match_id"
            " LEFT JOIN guild_settings g ON g.guild_id = m.guild_id"
            f" WHERE d.frozen_at IS NULL AND {owned}",
            (GuildSettings.reminder_cadence, *params),
        )
        return [(decode.deadline(r), r["cadence"]) for r in rows]

    async def matches_with_ai(self) -> list[int]:
        """Active matches with a seat the AI plays (of the shards this process serves)."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
            f" WHERE m.status = 'active' AND s.ai IS NOT NULL AND {owned} ORDER BY m.id",
            params,
        )
        return [r["id"] for r in rows]

    async def matches_to_reconcile(self) -> list[int]:
        """Matches whose clocks don't fit them: active ones without clocks for their
        current version or with stale ones, and closed ones with clocks left over (of the
        shards this process serves)."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
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
            row = await self._one("SELECT * FROM pauses WHERE match_id = ?", (match_id,))
            return decode.pause(row) if row else None

        return await self._memory.recall(match_id, "pause", load)

    async def pauses(self) -> list[Pause]:
        """Every match paused now (of the shards this process serves)."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            f"SELECT p.* FROM pauses p JOIN matches m ON m.id = p.match_id WHERE {owned}", params
        )
        return [decode.pause(r) for r in rows]

    async def start_pause(self, pause: Pause) -> None:
        """Pause a match (the votes that led to it are spent)."""
        async with self._transaction() as db:
            await db.tx.lock_match(pause.match_id)  # clocks: one writer of a match at a time
            self._clocks_written(pause.match_id)
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
            self._put(db, pause.match_id, "pause", pause)

    async def end_pause(self, match_id: int) -> None:
        """The match runs again."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            self._clocks_written(match_id)
            await db.execute("DELETE FROM pauses WHERE match_id = ?", (match_id,))
            self._put(db, match_id, "pause", None)

    async def add_pause_vote(self, match_id: int, seat: int) -> set[int]:
        """A seat asks to pause; returns every seat that has asked."""
        async with self._transaction() as db:
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
        async with self._transaction() as db:
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
            await self._log(db, match_id, voter_id, kind, text)
            rows = await db.fetch(
                "SELECT voter_id FROM ai_votes WHERE match_id = ? AND seat = ?",
                (match_id, seat.seat),
            )
        return {r["voter_id"] for r in rows}

    async def seat_clocks(self, match_id: int) -> dict[int, SeatClock]:
        """The timeouts and vacations of a match's seats, by seat (seats never timed out
        nor away have none)."""

        async def load() -> dict[int, SeatClock]:
            rows = await self._all("SELECT * FROM seat_clocks WHERE match_id = ?", (match_id,))
            return {r["seat"]: decode.seat_clock(r) for r in rows}

        return dict(await self._memory.recall(match_id, "clocks", load))

    async def put_seat_clock(self, clock: SeatClock) -> None:
        """Save a seat's timeouts and vacation."""
        async with self._transaction() as db:
            await db.tx.lock_match(clock.match_id)  # clocks: one writer of a match at a time
            self._clocks_written(clock.match_id)
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
            self._update(db, clock.match_id, "clocks", lambda c: {**c, clock.seat: clock})

    async def vacations(self) -> list[SeatClock]:
        """Every vacation under way (of the shards this process serves)."""
        owned, params = self._owned("m.guild_id")
        rows = await self._all(
            "SELECT c.* FROM seat_clocks c JOIN matches m ON m.id = c.match_id"
            f" WHERE c.vacation_until IS NOT NULL AND {owned}",
            params,
        )
        return [decode.seat_clock(r) for r in rows]

    async def clear_clocks(self, match_id: int) -> None:
        """A match is over: no clock, pause or vacation of it goes on."""
        async with self._transaction() as db:
            await db.tx.lock_match(match_id)  # clocks: one writer of a match at a time
            self._clocks_written(match_id)
            for table in ("deadlines", "pauses", "pause_votes", "ai_votes"):  # fixed names
                await db.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
            await db.execute(
                "UPDATE seat_clocks SET vacation_from = NULL, vacation_until = NULL"
                " WHERE match_id = ?",
                (match_id,),
            )
            self._forget(db, match_id)

    async def notify_prefs(self, user_id: int) -> NotifyPrefs:
        """A user's DM preferences (off until they opt in)."""

        async def load() -> NotifyPrefs:
            row = await self._one("SELECT * FROM notify WHERE user_id = ?", (user_id,))
            if row is None:
                return NotifyPrefs(user_id)
            return NotifyPrefs(user_id, bool(row["enabled"]), when(row["dm_closed_until"]))

        return await self._memory.recall_small("prefs", user_id, load)

    async def set_notify(self, user_id: int, enabled: bool) -> None:
        """Opt a user in or out of DMs (either way, their DMs count as open again)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, enabled, dm_closed_until) VALUES (?, ?, NULL)"
                " ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled,"
                " dm_closed_until = NULL",
                (user_id, int(enabled)),
            )
            self._forget_user(db, "prefs", user_id)

    async def standing_answers(self, user_id: int) -> frozenset[tuple[str, str]]:
        """The standing answers a user has set, as (game id, preference id) pairs."""

        async def load() -> frozenset[tuple[str, str]]:
            rows = await self._all(
                "SELECT game, preference FROM standing_answers WHERE user_id = ?", (user_id,)
            )
            return frozenset((r["game"], r["preference"]) for r in rows)

        return await self._memory.recall_small("standing", user_id, load)

    async def set_standing_answer(self, user_id: int, game: str, preference: str, on: bool) -> None:
        """Set or clear one of a user's standing answers."""
        async with self._transaction() as db:
            if on:
                await db.execute(
                    "INSERT INTO standing_answers (user_id, game, preference)"
                    " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (user_id, game, preference),
                )
            else:
                await db.execute(
                    "DELETE FROM standing_answers WHERE user_id = ? AND game = ?"
                    " AND preference = ?",
                    (user_id, game, preference),
                )
            self._forget_user(db, "standing", user_id)

    async def player_pictures(self, user_id: int) -> str:
        """How a user sees their private views (a key of PICTURE_MODES)."""

        async def load() -> str:
            row = await self._one(
                "SELECT pictures FROM player_settings WHERE user_id = ?", (user_id,)
            )
            return row["pictures"] if row else "both"

        return await self._memory.recall_small("pictures", user_id, load)

    async def set_player_pictures(self, user_id: int, mode: str) -> None:
        """Set how a user sees their private views."""
        if mode not in PICTURE_MODES:
            raise ValueError(f"unknown picture mode: {mode!r}")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO player_settings (user_id, pictures) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET pictures = excluded.pictures",
                (user_id, mode),
            )
            self._forget_user(db, "pictures", user_id)

    async def set_dm_closed(
        self, user_id: int, until: datetime, *, notices: Sequence[Notice] = ()
    ) -> None:
        """A user's DMs are closed: no attempt before `until`."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE notify SET dm_closed_until = ? WHERE user_id = ?", (iso(until), user_id)
            )
            self._forget_user(db, "prefs", user_id)
            await self._enqueue(db, notices)

    _PUT_DEADLINE = (
        "INSERT INTO deadlines (match_id, seat, version, decisions, out_of_turn,"
        " clock_seconds, due_at, reminded, nudged, frozen_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET"
        " version = excluded.version, decisions = excluded.decisions,"
        " out_of_turn = excluded.out_of_turn, clock_seconds = excluded.clock_seconds,"
        " due_at = excluded.due_at, reminded = excluded.reminded, nudged = excluded.nudged,"
        " frozen_at = excluded.frozen_at"
    )
