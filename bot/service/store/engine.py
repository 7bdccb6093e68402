"""What the store asks of a database engine, and the migrations both engines apply.

The store (`bot.service.store.store`) writes its SQL once, in the part of SQL both
engines read alike, with `?` for each parameter; an engine runs it (PostgreSQL's
numbers the parameters). An engine keeps transactions whole, says when another
process changed the database, and applies the migrations of its dialect:
`migrations/NNNN_name.sql` for SQLite, `migrations/postgresql/NNNN_name.sql` for
PostgreSQL, the same numbers and names in both (the same schema, written twice only
where the dialects differ).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from bot.service.store.rows import Row

MIGRATIONS_DIR = Path(__file__).resolve().parents[3] / "migrations"
POSTGRESQL = "postgresql"  # the folder, beside SQLite's files, of PostgreSQL's migrations

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class NewerSchema(RuntimeError):
    """The database was written by a newer Arbiter than this one."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"This database is at schema version {found}, written by a newer Arbiter: this "
            f"one knows the migrations up to {known}. Run the newer Arbiter, or restore a "
            "backup taken before it was upgraded."
        )
        self.found = found
        self.known = known


class Tx(Protocol):
    """One open transaction."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement and read the rows it returns."""
        ...

    async def lock_match(self, match_id: int) -> None:
        """Hold the match's row until the transaction ends (a read that decides a write:
        another transaction wanting the same match waits)."""
        ...

    async def announce(self, keys: Collection[str]) -> None:
        """Tell the other processes, once this commits, which keys it changed ("m:<match>",
        "g:<server>", "u:<user>", "c:<channel>", "l:<lane>"): they forget what they hold
        of them."""
        ...


class Engine(Protocol):
    """A database the store runs on."""

    name: str  # "sqlite" or "postgresql"
    clock_sql: str  # the database's clock in SQL: seconds since 1970, as a real number

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows as the last commit left them (in SQLite, as the open group left them)."""
        ...

    def transaction(
        self, committed: Callable[[], None], failed: Callable[[], None]
    ) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: an exception inside undoes its writes; once its commit is
        durable, `committed()` runs (in commit order), before the `async with` returns; a
        commit that fails runs `failed()` and raises."""
        ...

    async def changed_elsewhere(self) -> bool:
        """Whether another connection may have committed something since the last look
        that this process wasn't told of (then nothing held in memory is trusted)."""
        ...

    def watch(self, heard: Callable[[str], None]) -> None:
        """Call `heard(key)` for each key another process's commit changed (see
        `Tx.announce`; "*": anything may have)."""
        ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def commit_open(self) -> None:
        """Commit what is written but not committed yet (SQLite's open group), so that a
        read after this sees only what is committed."""
        ...

    def unique_violation(self, error: BaseException) -> bool:
        """Whether `error` is a uniqueness constraint refusing a row."""
        ...

    async def close(self) -> None:
        """Close every connection."""
        ...


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The numbered migration files of a folder, in order. Numbers must run 1, 2, 3...
    without gaps."""
    found = []
    for path in directory.glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append((int(match.group(1)), path))
    found.sort()
    for expected, (number, path) in enumerate(found, start=1):
        if number != expected:
            raise RuntimeError(f"migration {path.name!r} breaks the sequence (expected {expected})")
    return found


def pending(files: Sequence[tuple[int, Path]], current: int) -> list[tuple[int, Path]]:
    """The migrations still to apply to a database at `current`; NewerSchema when it is
    past the last one known."""
    known = files[-1][0] if files else 0
    if current > known:
        raise NewerSchema(current, known)
    return [(number, path) for number, path in files if number > current]
