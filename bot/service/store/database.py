"""The database: the engine, its transactions, and what is held of it in memory.

`Database` is the unit of work every repository of the store writes through: one
transaction at a time per change (`transaction`), the bookkeeping written behind
(`write_behind`, saved with the next transaction or `flush`), what the action path
reads held in memory (`bot.service.store.memory`, kept up to date by this process's
commits and told of other processes' by the engine), and which shards' background work
this process does. The SQL of each kind of record is in its repository beside it
(`matches`, `outbox`, `clocks`, ...), written once for both engines
(`bot.service.store.engine`): SQLite, one file for one process (the default), or
PostgreSQL, one database for several processes.

The publisher's bookkeeping (a notice delivered, how far its delivery got, the turn
message, the board's message) is written behind: it is saved with the next
transaction, or by the next `flush` (the publisher's, within five minutes), whichever
comes first. A crash can lose that last moment of bookkeeping, never a change; the
publisher's deliveries are idempotent against what was saved (see `bot.publisher`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.service.shards import shard_of
from bot.service.store.engine import MIGRATIONS_DIR, POSTGRESQL, Engine, Tx
from bot.service.store.memory import Memory
from bot.service.store.rows import Row, iso, utc_now

log = logging.getLogger(__name__)

USER_KINDS = ("prefs", "standing", "pictures")  # what is held per user


def is_postgresql(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server (else it is a SQLite file)."""
    return str(target).startswith(("postgresql://", "postgres://"))


class Change:
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

    def forget(self, match_id: int) -> None:
        """What is held of the match is read again after the transaction commits."""
        self.then(lambda: self._memory.forget(match_id), f"m:{match_id}")

    def update(self, match_id: int, kind: str, change: Callable[[Any], Any]) -> None:
        """Change what is held of a match, if it is held, once the transaction commits."""
        self.then(lambda: self._memory.update(match_id, kind, change), f"m:{match_id}")

    def put(self, match_id: int, kind: str, value: Any) -> None:
        """Hold `value` as the `kind` of a match once the transaction commits."""
        self.then(lambda: self._memory.put(match_id, kind, value), f"m:{match_id}")

    def forget_user(self, kind: str, user_id: int) -> None:
        """What is held of a user of that kind is read again after the commit."""
        self.then(lambda: self._memory.forget_small(kind, user_id), f"u:{user_id}")


class Database:
    """The engine, its transactions and memory. Create with `await Database.open(target)`."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = utc_now) -> None:
        self.engine = engine
        self._clock = now
        self.memory = Memory()
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
        self.shards: tuple[int, frozenset[int]] | None = None
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
    ) -> Database:
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

    def now(self) -> str:
        """The moment written in rows' stamps."""
        return iso(self._clock()) or ""

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.engine.read(sql, params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        found = await self.engine.read(sql, params)
        return found[0] if found else None

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
        self.memory.forget_all()
        for match_id in self._clock_marks:
            self._clock_marks[match_id] += 1

    def _heard(self, key: str) -> None:
        """Another process committed a change to `key` (see `Tx.announce`): what is held
        of it is read again; a lane it wrote to is delivered from there."""
        if key == "*":
            self._forget_held()
            return
        kind, _, value = key.partition(":")
        memory = self.memory
        if kind == "l":
            memory.wrote_elsewhere(value)
            for listener in self._outbox_listeners:
                listener(value)
            return
        number = int(value)
        if kind == "m":
            memory.forget(number)
            self.clocks_written(number)
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

    def clocks_written(self, match_id: int) -> None:
        self._clock_marks[match_id] = self._clock_marks.get(match_id, 0) + 1

    def on_match_changed_elsewhere(self, listener: Callable[[int], None]) -> None:
        """Call `listener(match_id)` when another process changed a match."""
        self._match_listeners.append(listener)

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
        self.shards = None if owned >= frozenset(range(count)) else (count, owned)
        self._sure = sure
        memory = self.memory
        memory.lanes.clear()
        memory.lane_of.clear()
        memory.written_elsewhere.clear()
        memory.foreign = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process does the background work of a server's matches now."""
        if self._sure is not None and not self._sure():
            return False
        if self.shards is None:
            return True
        count, owned = self.shards
        return shard_of(guild_id, count) in owned

    def owned(self, column: str) -> tuple[str, tuple[int, ...]]:
        """A condition that a server id `column` is of a shard this process serves."""
        if self.shards is None:
            return "1 = 1", ()
        count, owned = self.shards
        marks = ", ".join("?" for _ in owned) or "NULL"
        return f"(COALESCE({column}, 0) >> 22) % ? IN ({marks})", (count, *sorted(owned))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Change]:
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
        change: Change | None = None
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
                change = Change(tx, self.memory)
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

    def write_behind(
        self, key: Hashable, sql: str, params: tuple[Any, ...], value: Any = None
    ) -> None:
        """Save this with the next transaction (or the next `flush`); `value` is what a
        load of the row must see until then."""
        self._behind.pop(key, None)  # the latest goes last
        self._behind[key] = (sql, params, value)
        self._written_behind += 1

    def waits(self, key: Hashable) -> bool:
        """Whether a value written behind for `key` still waits for a transaction."""
        return key in self._behind

    def unsaved(self) -> list[tuple[Hashable, tuple[Any, ...]]]:
        """What is written behind and not saved yet (waiting, or carried by a transaction
        under way): each key with its parameters."""
        return [
            (key, params)
            for waiting in (self._behind, self._carried)
            for key, (_, params, _) in waiting.items()
        ]

    def pending(self, key: Hashable, default: Any) -> Any:
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
                async with self.transaction():
                    pass
            else:
                return  # forgotten meanwhile (see `forget_all`): nothing left to save

    async def _save_behind(self, db: Change, behind: dict[Hashable, Any]) -> None:
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

    def on_transaction(self, listener: Callable[[float], None]) -> None:
        """Call `listener(seconds)` as each write transaction ends, committed or not."""
        self._timers.append(listener)

    def on_outbox(self, listener: Callable[[str], None]) -> None:
        """Call `listener(lane)` after each commit that wrote notices to that lane."""
        self._outbox_listeners.append(listener)
