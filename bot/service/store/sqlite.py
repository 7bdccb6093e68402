"""The SQLite engine: one file, one connection, group commit.

One connection serves the whole process; an asyncio lock keeps every statement and
transaction whole, so no caller ever reads another caller's half-written transaction.
Migrations are tracked with `PRAGMA user_version`.

Group commit: transactions that arrive together share one commit (one fsync). Each
runs alone, in a savepoint of the group's open transaction (one that fails undoes only
its own writes); the last of a run that queued for the lock (or the GROUP_MOST-th)
commits for all, and each waits for that commit outside the lock. A read under the lock
meanwhile may see a change whose commit is under way (never what the store holds in
memory: that moves at the commit); a failed commit fails every transaction of its group.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.store.engine import migrations, pending
from bot.service.store.rows import Row

GROUP_MOST = 64  # transactions sharing one commit at most (bounds the wait for it)


@dataclass
class _Group:
    """Transactions that share one commit: `done` when it is over."""

    done: asyncio.Future[None]
    size: int = 0
    members: list[tuple[Callable[[], None], Callable[[], None]]] = field(default_factory=list)


def _retrieved(done: asyncio.Future[None]) -> None:
    """A failed group's error is read even when every transaction in it was cancelled."""
    if not done.cancelled():
        done.exception()


class _Tx:
    """A transaction of the group (a savepoint of its open transaction)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._db.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._db.execute_fetchall(sql, params))

    async def lock_match(self, match_id: int) -> None:
        """Nothing to do: the group's transaction began IMMEDIATE, so no other writer
        runs until it ends."""

    async def announce(self, keys: Collection[str]) -> None:
        """Nothing to do: another process sees SQLite's data version move (see
        `changed_elsewhere`)."""


class SQLiteEngine:
    """One SQLite file. Open with `await SQLiteEngine.open(path)`."""

    name = "sqlite"
    clock_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._data_version: int | None = None
        # The transactions sharing the open commit, how many wait for the lock to join
        # it, and the task that commits it for them.
        self._group: _Group | None = None
        self._queued = 0
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | Path, migrations_dir: Path) -> SQLiteEngine:
        """Open (or create) the file, switch it to WAL and apply pending migrations."""
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            # FULL: a commit is on disk (the WAL synced) before it returns, so no action a
            # reply said happened is lost to a power cut.
            pragmas = ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON")
            for pragma in (*pragmas, "busy_timeout = 5000"):
                async with connection.execute(f"PRAGMA {pragma}") as cursor:
                    await cursor.fetchall()
            engine = cls(connection)
            await engine._migrate(migrations(migrations_dir))
        except BaseException:
            await connection.close()
            raise
        return engine

    async def close(self) -> None:
        async with self._lock:
            await self._commit_open()
            await self._db.close()

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return await self._all(sql, params)

    async def _all(self, sql: str, params: Sequence[Any]) -> list[Row]:
        # One hop to the database thread (a cursor's fetch and close would be two more).
        return list(await self._db.execute_fetchall(sql, params))

    async def changed_elsewhere(self) -> bool:
        """One round trip: SQLite's data version moves with every other connection's
        commit."""
        async with self._lock:
            version = int((await self._all("PRAGMA data_version", ()))[0][0])
            changed = self._data_version is not None and version != self._data_version
            self._data_version = version
        return changed

    def watch(self, heard: Callable[[str], None]) -> None:
        """Nothing to watch: another process's commits show in `changed_elsewhere`."""

    def unique_violation(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error)

    # ------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._user_version()

    async def _user_version(self) -> int:
        return int((await self._all("PRAGMA user_version", ()))[0][0])

    async def _migrate(self, files: list[tuple[int, Path]]) -> None:
        async with self._lock:
            todo = pending(files, await self._user_version())
            # Foreign keys are off while migrations run (SQLite ignores the switch inside
            # a transaction), so a migration may rebuild a table others refer to; every
            # reference is checked before each migration commits.
            await self._db.execute("PRAGMA foreign_keys = OFF")
            try:
                for number, path in todo:
                    await self._apply(number, path.name, path.read_text(encoding="utf-8"))
            finally:
                await self._db.execute("PRAGMA foreign_keys = ON")

    async def _apply(self, number: int, name: str, script: str) -> None:
        """One migration and its version bump in one transaction, refused (rolled back)
        when it leaves a reference to a missing row."""
        try:
            # executescript commits first, so the transaction is opened in the script.
            await self._db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number:d};"
            )
            broken = await self._all("PRAGMA foreign_key_check", ())
            if broken:
                tables = sorted({row[0] for row in broken})
                raise RuntimeError(f"migration {name!r} breaks references in {tables}")
        except BaseException:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    # ------------------------------------------------------------ group commit

    @asynccontextmanager
    async def transaction(
        self, committed: Callable[[], None], failed: Callable[[], None]
    ) -> AsyncIterator[_Tx]:
        self._queued += 1
        try:
            await self._lock.acquire()
        finally:
            self._queued -= 1
        try:
            group = await self._join()
            await self._db.execute("SAVEPOINT change")
            try:
                yield _Tx(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK TO change")
                await self._db.execute("RELEASE change")
                raise
            else:
                # A member before its savepoint is released: the release runs on even if
                # this caller is cancelled meanwhile, and the group's commit must then
                # still bring memory up to date with it.
                group.size += 1
                group.members.append((committed, failed))
                await self._db.execute("RELEASE change")
            finally:
                await self._commit_when_due(group)
        finally:
            self._lock.release()
        await asyncio.shield(group.done)

    async def _join(self) -> _Group:
        """The open group, begun if there is none; the lock is held."""
        if self._group is None:
            await self._db.execute("BEGIN IMMEDIATE")
            done = asyncio.get_running_loop().create_future()
            done.add_done_callback(_retrieved)
            self._group = _Group(done)
        return self._group

    async def _commit_when_due(self, group: _Group) -> None:
        """Commit the open group now when no transaction waits to join it (or it is
        full); else leave it to the committer, which queues for the lock behind them."""
        if self._group is not group:
            return
        if self._queued == 0 or group.size >= GROUP_MOST:
            await self._commit_open()
        elif self._committer is None or self._committer.done():
            self._committer = asyncio.get_running_loop().create_task(self._commit_later())

    async def _commit_later(self) -> None:
        async with self._lock:
            await self._commit_open()

    async def commit_open(self) -> None:
        """Commit the open group now, if there is one."""
        async with self._lock:
            await self._commit_open()

    async def _commit_open(self) -> None:
        """Commit the open group, if any (the lock is held). The commit runs to its end
        even when the caller is cancelled: the whole group waits on it."""
        group, self._group = self._group, None
        if group is not None:
            await asyncio.shield(self._commit(group))

    async def _commit(self, group: _Group) -> None:
        try:
            await self._db.execute("COMMIT")
        except BaseException as error:
            # Whether it was saved is unknown here: nothing held in memory is trusted.
            with contextlib.suppress(Exception):
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
            for _, failed in group.members:
                failed()
            group.done.set_exception(error)
            return
        for committed, _ in group.members:
            committed()
        group.done.set_result(None)
