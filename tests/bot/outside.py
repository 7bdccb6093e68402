"""What another process sees of a test's database: rows read through a connection of
their own, on either engine."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

import asyncpg

from bot.service.store import is_postgresql
from bot.service.store.postgresql import numbered


async def outside(database: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows `sql` reads (with `?` parameters), through a connection of its own."""
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            return [tuple(row) for row in await conn.fetch(numbered(sql), *params)]
        finally:
            await conn.close()
    with closing(sqlite3.connect(database)) as db:
        return db.execute(sql, params).fetchall()


async def one(database: str, sql: str, *params: Any) -> Any:
    """The one value `sql` reads, through a connection of its own."""
    rows = await outside(database, sql, *params)
    assert len(rows) == 1 and len(rows[0]) == 1, rows
    return rows[0][0]
