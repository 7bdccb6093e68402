"""Shard leases: which process does the background work of each gateway shard, for
how long (see `bot.service.leases`).
"""

from __future__ import annotations

from bot.service.store import rows as decode
from bot.service.store.database import Database
from bot.service.store.rows import (
    Lease,
)


class LeaseStore:
    """The shards' leases."""

    def __init__(self, db: Database) -> None:
        self._db = db

    _LEASE = (
        "shard, holder, epoch, expires_at, wanted_by,"
        " CASE WHEN wanted_at > {now} - ? THEN 1 ELSE 0 END AS asked"
    )

    async def renew(self, holder: str, ttl: float) -> list[Lease]:
        """Run the leases `holder` holds on for `ttl` seconds more; the ones it still holds
        (with whether their gateway's process asked for them back within `ttl`)."""
        now = self._db.engine.clock_sql
        async with self._db.transaction() as db:
            rows = await db.fetch(
                f"UPDATE shard_leases SET expires_at = {now} + ? WHERE holder = ?"
                f" RETURNING {self._LEASE.format(now=now)}",
                (ttl, holder, ttl),
            )
        return sorted((decode.lease(r) for r in rows), key=lambda lease: lease.shard)

    async def take(self, shard: int, holder: str, ttl: float) -> Lease | None:
        """The lease of a shard for `holder`, if nobody holds it (never held, or run out);
        None when another process holds it."""
        now = self._db.engine.clock_sql
        async with self._db.transaction() as db:
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
        async with self._db.transaction() as db:
            await db.execute(
                f"UPDATE shard_leases SET wanted_by = ?, wanted_at = {self._db.engine.clock_sql}"
                " WHERE shard = ? AND holder != ?",
                (holder, shard, holder),
            )

    async def hand_over(self, shard: int, holder: str, to: str, ttl: float) -> bool:
        """Give a lease `holder` holds to the process `to`; False if it no longer held it."""
        async with self._db.transaction() as db:
            moved = await db.execute(
                f"UPDATE shard_leases SET holder = ?, epoch = epoch + 1,"
                f" expires_at = {self._db.engine.clock_sql} + ?, wanted_by = NULL, wanted_at = NULL"
                " WHERE shard = ? AND holder = ?",
                (to, ttl, shard, holder),
            )
        return moved == 1

    async def release(self, holder: str) -> None:
        """Let every lease `holder` holds run out now (it stops: another may take them)."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE shard_leases SET expires_at = 0 WHERE holder = ?", (holder,))

    async def all(self) -> list[Lease]:
        """Every shard's lease, in shard order."""
        rows = await self._db.all(
            f"SELECT {self._LEASE.format(now=self._db.engine.clock_sql)} FROM shard_leases"
            " ORDER BY shard",
            (0,),
        )
        return [decode.lease(r) for r in rows]
