"""The PostgreSQL engine: one database shared by several processes.

A pool of connections serves the process: transactions run side by side (each on a
connection of its own), and the database keeps them apart; where a read decides a write
(a seat added to a lobby) the transaction locks the match's row first. Every commit
that changes what a process may hold in memory tells the others (`announce`, a
notification on the ARBITER channel, sent by PostgreSQL only once the commit is
durable), and each process listens on a connection of its own: a process forgets what
another changed, and forgets everything while it can't listen.

Migrations are tracked in `arbiter_schema`, each applied in a transaction of its own
under an advisory lock, so processes starting together apply each one once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.service.store.engine import migrations, pending
from bot.service.store.rows import Row

log = logging.getLogger(__name__)

CHANNEL = "arbiter"  # where commits are announced
EVERYTHING = "*"  # an announcement that anything may have changed
MIGRATION_LOCK = 4_242_024  # the advisory lock the migrations are applied under
POOL_SIZE = 10  # connections per process
NOTIFY_MOST = 7000  # bytes of keys in one notification (PostgreSQL takes 8,000)
RELISTEN_AFTER = 1.0  # seconds between tries to listen again

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")


def numbered(sql: str) -> str:
    """The store's SQL with PostgreSQL's parameters: each `?` outside a quoted string
    becomes $1, $2..."""
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        if found.group(0) != "?":
            return found.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _changed(status: str) -> int:
    """How many rows a statement changed, from its status ("UPDATE 1", "INSERT 0 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Tx:
    """A transaction on one connection of the pool."""

    def __init__(self, engine: PostgresEngine, conn: asyncpg.Connection) -> None:
        self._engine = engine
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self._conn.execute(self._engine.sql(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(self._engine.sql(sql), list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(self._engine.sql(sql), *params))

    async def lock_match(self, match_id: int) -> None:
        await self._conn.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)

    async def announce(self, keys: Collection[str]) -> None:
        if not keys:
            return
        said = " ".join(sorted(keys))
        if len(said) > NOTIFY_MOST:
            said = EVERYTHING
        await self._conn.execute(
            "SELECT pg_notify($1, $2)", CHANNEL, f"{self._engine.origin} {said}"
        )


class PostgresEngine:
    """A PostgreSQL database. Open with `await PostgresEngine.open(dsn, migrations_dir)`."""

    name = "postgresql"
    clock_sql = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"

    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        self._pool = pool
        self._dsn = dsn
        self.origin = secrets.token_hex(6)  # this process, in its announcements
        self._sql: dict[str, str] = {}
        self._watchers: list[Callable[[str], None]] = []
        self._listener: asyncpg.Connection | None = None
        self._deaf = False  # not listening: anything may have changed meanwhile
        self._relisten: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, dsn: str, migrations_dir: Path) -> PostgresEngine:
        """Connect, apply pending migrations and listen to the other processes."""
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=POOL_SIZE)
        engine = cls(pool, dsn)
        try:
            await engine._migrate(migrations(migrations_dir))
            await engine._listen()
        except BaseException:
            await pool.close()
            raise
        return engine

    async def close(self) -> None:
        self._closed = True
        if self._relisten is not None:
            self._relisten.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._relisten
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        await self._pool.close()

    def sql(self, sql: str) -> str:
        """The store's SQL as PostgreSQL reads it (worked out once per statement)."""
        done = self._sql.get(sql)
        if done is None:
            done = self._sql[sql] = numbered(sql)
        return done

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._pool.fetch(self.sql(sql), *params))

    def unique_violation(self, error: BaseException) -> bool:
        return isinstance(error, asyncpg.UniqueViolationError)

    async def commit_open(self) -> None:
        """Nothing to do: a read sees only what is committed."""

    # ------------------------------------------------------------ transactions

    @asynccontextmanager
    async def transaction(
        self, committed: Callable[[], None], failed: Callable[[], None]
    ) -> AsyncIterator[_Tx]:
        async with self._pool.acquire() as conn:
            transaction = conn.transaction()
            try:
                await transaction.start()
                yield _Tx(self, conn)
            except BaseException:
                # Undone before the connection goes back, even when the caller was
                # cancelled (while it began, too).
                if conn.is_in_transaction():
                    await asyncio.shield(conn.execute("ROLLBACK"))
                raise

            async def commit() -> None:
                try:
                    await transaction.commit()
                except BaseException:
                    failed()  # whether it was saved is unknown: nothing held is trusted
                    raise
                committed()

            # The commit runs to its end even when the caller is cancelled: what is held
            # in memory must move with it, and the connection goes back to the pool idle.
            ending = asyncio.ensure_future(commit())
            try:
                await asyncio.shield(ending)
            except asyncio.CancelledError:
                await asyncio.wait([ending])
                raise

    # ------------------------------------------------------------ other processes

    def watch(self, heard: Callable[[str], None]) -> None:
        """Call `heard(key)` for each key another process's commit changed (EVERYTHING:
        anything may have)."""
        self._watchers.append(heard)

    async def changed_elsewhere(self) -> bool:
        return self._deaf

    def _tell(self, key: str) -> None:
        for heard in self._watchers:
            try:
                heard(key)
            except Exception:
                log.exception("store: a change announced by another process was not taken in")

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        origin, _, keys = payload.partition(" ")
        if origin == self.origin:
            return
        for key in keys.split(" "):
            if key:
                self._tell(key)

    async def _listen(self) -> None:
        conn = await asyncpg.connect(self._dsn)
        await conn.add_listener(CHANNEL, self._heard)
        conn.add_termination_listener(self._lost)
        self._listener = conn
        if self._deaf:
            self._deaf = False
            self._tell(EVERYTHING)  # what was announced while deaf is lost

    def _lost(self, _conn: object) -> None:
        """The listening connection is gone: everything held is forgotten, and once
        listening again, forgotten once more."""
        if self._closed:
            return
        log.warning("store: no longer hearing the other processes' changes; listening again")
        self._deaf = True
        self._listener = None
        self._tell(EVERYTHING)
        if self._relisten is None or self._relisten.done():
            self._relisten = asyncio.get_running_loop().create_task(self._listen_again())

    async def _listen_again(self) -> None:
        while not self._closed and self._listener is None:
            try:
                await self._listen()
            except Exception as error:  # the server is away: try again in a moment
                log.warning("store: can't listen to the other processes yet (%s)", error)
                await asyncio.sleep(RELISTEN_AFTER)

    # ------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        exists = await conn.fetchval("SELECT to_regclass('arbiter_schema') IS NOT NULL")
        if not exists:
            return 0
        return int(await conn.fetchval("SELECT version FROM arbiter_schema"))

    async def _migrate(self, files: list[tuple[int, Path]]) -> None:
        """Apply each pending migration in a transaction of its own, under the advisory
        lock (a process starting meanwhile waits, then finds it applied)."""
        async with self._pool.acquire() as conn:
            while True:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS arbiter_schema (version INTEGER NOT NULL)"
                    )
                    if await conn.fetchval("SELECT COUNT(*) FROM arbiter_schema") == 0:
                        await conn.execute("INSERT INTO arbiter_schema (version) VALUES (0)")
                    todo = pending(files, await self._version(conn))
                    if not todo:
                        return
                    number, path = todo[0]
                    await conn.execute(path.read_text(encoding="utf-8"))
                    await conn.execute("UPDATE arbiter_schema SET version = $1", number)
                log.info("store: migration %s applied", path.name)
