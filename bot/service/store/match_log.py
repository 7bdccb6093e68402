"""A match's own log: the lines that are not game actions (a moderator's change, a
timeout, a pause, a vote).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.outbox import Notice
from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.outbox import OutboxStore
from bot.service.store.rows import (
    LogEntry,
)


class LogStore:
    """The lines of matches' logs."""

    def __init__(self, db: Database, outbox: OutboxStore) -> None:
        self._db = db
        self._outbox = outbox

    async def add(
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
        async with self._db.transaction() as db:
            entry = await self.write(db, match_id, user_id, kind, text)
            await self._outbox.write(db, notices)
        return entry

    async def write(
        self, db: Change, match_id: int, user_id: int | None, kind: str, text: str
    ) -> LogEntry:
        """Write a line into a match's log, at its version now (in `db`'s transaction)."""
        row = await db.fetchone(
            "INSERT INTO match_log (match_id, version, user_id, kind, text, created_at)"
            " SELECT id, version, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT),"
            " CAST(? AS TEXT) FROM matches WHERE id = ? RETURNING *",
            (user_id, kind, text, self._db.now(), match_id),
        )
        assert row is not None, f"match {match_id} does not exist"
        return decode.log_entry(row)

    async def entries(self, match_id: int) -> list[LogEntry]:
        """A match's non-game log lines, oldest first."""
        rows = await self._db.all(
            "SELECT * FROM match_log WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [decode.log_entry(r) for r in rows]
