"""The SQLite store: matches, seats and the append-only action log.

All SQL in the project lives in this module. One connection serves the whole
process; an asyncio lock keeps every statement and transaction whole, so no
caller ever reads another caller's half-written transaction. Migrations
(`migrations/NNNN_name.sql`) are applied in order at open, tracked with
`PRAGMA user_version`.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

Status = Literal["lobby", "active", "finished", "cancelled"]

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class ChannelBusy(Exception):
    """The channel already holds an open (lobby or active) match."""


@dataclass(frozen=True)
class MatchRow:
    """One row of `matches`."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    variant: str
    pack: str
    seed: int
    seed_chosen: bool  # a player chose the seed (so it is public); else it was drawn
    rules_version: str
    status: Status
    snapshot: str | None
    version: int
    board_message_id: int | None
    created_by: int
    options: dict[str, Any]
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class SeatRow:
    """One row of `seats`: who sits where, and how many decisions that seat has taken."""

    seat: int
    user_id: int
    name: str
    team: int | None
    decisions: int = 0


@dataclass(frozen=True)
class ActionRow:
    """One entry of the action log."""

    seq: int
    seat: int
    user_id: int
    action: str
    events: str
    created_at: str


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings (defaults until a moderator changes them)."""

    guild_id: int
    mod_role_id: int | None = None
    match_channels: tuple[int, ...] = ()  # where matches may be opened; empty: anywhere
    default_clock_seconds: int = 86400
    default_timeout_policy: str = "skip"
    reminder_cadence: str = "half-and-end"


GUILD_SETTING_FIELDS = frozenset(
    {
        "mod_role_id",
        "match_channels",
        "default_clock_seconds",
        "default_timeout_policy",
        "reminder_cadence",
    }
)


@dataclass(frozen=True)
class LogEntry:
    """A line of a match's log that is not a game action: who did what, and when."""

    id: int
    match_id: int
    version: int
    user_id: int | None
    kind: str
    text: str
    created_at: str


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The numbered migration files, in order. Numbers must run 1, 2, 3... without gaps."""
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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _log_entry(row: sqlite3.Row) -> LogEntry:
    return LogEntry(
        id=row["id"],
        match_id=row["match_id"],
        version=row["version"],
        user_id=row["user_id"],
        kind=row["kind"],
        text=row["text"],
        created_at=row["created_at"],
    )


def _match_row(row: sqlite3.Row) -> MatchRow:
    return MatchRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        variant=row["variant"],
        pack=row["pack"],
        seed=row["seed"],
        seed_chosen=bool(row["seed_chosen"]),
        rules_version=row["rules_version"],
        status=row["status"],
        snapshot=row["snapshot"],
        version=row["version"],
        board_message_id=row["board_message_id"],
        created_by=row["created_by"],
        options=json.loads(row["options"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class Store:
    """Async access to the database. Create with `await Store.open(path)`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, migrations_dir: Path = MIGRATIONS_DIR) -> Store:
        """Open (or create) the database, switch it to WAL and apply pending migrations."""
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            for pragma in ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000"):
                async with connection.execute(f"PRAGMA {pragma}") as cursor:
                    await cursor.fetchall()
            store = cls(connection)
            await store._migrate(migrations(migrations_dir))
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (and its worker thread)."""
        async with self._lock:
            await self._db.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._lock:
            return await self._user_version()

    async def _user_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def _migrate(self, files: Iterable[tuple[int, Path]]) -> None:
        async with self._lock:
            current = await self._user_version()
            for number, path in files:
                if number <= current:
                    continue
                script = path.read_text(encoding="utf-8")
                # executescript commits first, so the script and the version bump
                # go in one explicit transaction written into the script itself.
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number:d};\nCOMMIT;"
                )

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; the caller already holds the lock."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        else:
            await self._db.execute("COMMIT")

    async def _one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        async with self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _all(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        async with self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # ------------------------------------------------------------------ reads

    async def get_match(self, match_id: int) -> MatchRow | None:
        """The match with this id, if any."""
        async with self._lock:
            row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        return _match_row(row) if row else None

    async def open_match_in(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel, if any."""
        async with self._lock:
            row = await self._one(
                "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
        return _match_row(row) if row else None

    async def seats(self, match_id: int) -> list[SeatRow]:
        """The seats of a match, in seat order."""
        async with self._lock:
            rows = await self._all(
                "SELECT seat, user_id, display_name, team, decisions FROM seats"
                " WHERE match_id = ? ORDER BY seat",
                (match_id,),
            )
        return [
            SeatRow(r["seat"], r["user_id"], r["display_name"], r["team"], r["decisions"])
            for r in rows
        ]

    async def actions(self, match_id: int, *, last: int | None = None) -> list[ActionRow]:
        """The action log of a match in order (only the `last` entries when given)."""
        sql = (
            "SELECT seq, seat, user_id, action, events, created_at FROM actions WHERE match_id = ?"
        )
        params: tuple[Any, ...] = (match_id,)
        if last is not None:
            sql += " AND seq > (SELECT version FROM matches WHERE id = ?) - ?"
            params = (match_id, match_id, last)
        async with self._lock:
            rows = await self._all(sql + " ORDER BY seq", params)
        return [
            ActionRow(r["seq"], r["seat"], r["user_id"], r["action"], r["events"], r["created_at"])
            for r in rows
        ]

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
    ) -> MatchRow:
        """A new lobby with its creator in seat 0. Raises ChannelBusy when the channel has one.

        `pack` is the card pack the match plays with: the game's setup receives it."""
        now = _now()
        async with self._lock:
            try:
                async with self._transaction() as db:
                    cursor = await db.execute(
                        "INSERT INTO matches (guild_id, channel_id, game, variant, pack, seed,"
                        " seed_chosen, rules_version, status, created_by, options, created_at,"
                        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
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
                        ),
                    )
                    match_id = cursor.lastrowid
                    await db.execute(
                        "INSERT INTO seats (match_id, seat, user_id, display_name)"
                        " VALUES (?, 0, ?, ?)",
                        (match_id, created_by, host_name),
                    )
            except sqlite3.IntegrityError as exc:
                if "matches.channel_id" in str(exc):
                    raise ChannelBusy(channel_id) from exc
                raise
            row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        assert row is not None
        return _match_row(row)

    async def add_seat(self, match_id: int, user_id: int, name: str, *, max_seats: int) -> bool:
        """Seat a user in a lobby after the others; False when it is full or not a lobby."""
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO seats (match_id, seat, user_id, display_name)"
                " SELECT ?, COUNT(*), ?, ? FROM seats WHERE match_id = ?"
                " HAVING COUNT(*) < ?"
                " AND (SELECT status FROM matches WHERE id = ?) = 'lobby'",
                (match_id, user_id, name, match_id, max_seats, match_id),
            )
            if cursor.rowcount:
                await self._touch(db, match_id)
            return cursor.rowcount == 1

    async def remove_seat(self, match_id: int, user_id: int) -> bool:
        """Take a user out of a lobby and close the gap in the seat order."""
        async with self._lock, self._transaction() as db:
            row = await self._one(
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
            return True

    async def set_status(self, match_id: int, status: Status, *, only_from: Status) -> bool:
        """Move a match from one status to another; False when it was not in `only_from`."""
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
                (status, _now(), match_id, only_from),
            )
            return cursor.rowcount == 1

    async def start_match(self, match_id: int, *, snapshot: str, teams: dict[int, int]) -> bool:
        """Save the initial state and the teams of a lobby; False when it is no longer a lobby."""
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET status = 'active', snapshot = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (snapshot, _now(), match_id),
            )
            if cursor.rowcount != 1:
                return False
            await db.executemany(
                "UPDATE seats SET team = ? WHERE match_id = ? AND seat = ?",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
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
    ) -> bool:
        """Log one action and save the state it led to, in one transaction.

        The snapshot is written only if the match is still active at
        `expected_version`; otherwise nothing changes and False comes back.
        The new action's sequence number is `expected_version + 1`, and the
        acting seat's decision count goes up by one.
        """
        seq = expected_version + 1
        now = _now()
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, seq, status, now, match_id, expected_version),
            )
            if cursor.rowcount != 1:
                return False
            await db.execute(
                "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, seat, user_id, action, events, now),
            )
            await db.execute(
                "UPDATE seats SET decisions = decisions + 1 WHERE match_id = ? AND seat = ?",
                (match_id, seat),
            )
            return True

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember which message shows the match (its lobby, then its board)."""
        async with self._lock, self._transaction() as db:
            await db.execute(
                "UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id)
            )

    # ------------------------------------------------------------ server settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it has none stored)."""
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(
            guild_id=guild_id,
            mod_role_id=row["mod_role_id"],
            match_channels=tuple(json.loads(row["match_channels"])),
            default_clock_seconds=row["default_clock_seconds"],
            default_timeout_policy=row["default_timeout_policy"],
            reminder_cadence=row["reminder_cadence"],
        )

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; returns them all."""
        unknown = set(changes) - GUILD_SETTING_FIELDS
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        if "match_channels" in changes:
            changes["match_channels"] = json.dumps(sorted(changes["match_channels"]))
        async with self._lock, self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, _now()),
            )
            for name, value in changes.items():  # names checked against the allow-list
                await db.execute(
                    f"UPDATE guild_settings SET {name} = ?, updated_at = ? WHERE guild_id = ?",
                    (value, _now(), guild_id),
                )
        return await self.guild_settings(guild_id)

    # ------------------------------------------------------------ match log

    async def add_log_entry(
        self, match_id: int, *, user_id: int | None, kind: str, text: str
    ) -> LogEntry:
        """Write a line into a match's log (a moderator action, a timeout, a pause)."""
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO match_log (match_id, version, user_id, kind, text, created_at) "
                "SELECT id, version, ?, ?, ?, ? FROM matches WHERE id = ?",
                (user_id, kind, text, _now(), match_id),
            )
            entry_id = cursor.lastrowid
        row = await self._one("SELECT * FROM match_log WHERE id = ?", (entry_id,))
        assert row is not None, f"match {match_id} does not exist"
        return _log_entry(row)

    async def log_entries(self, match_id: int) -> list[LogEntry]:
        """A match's non-game log lines, oldest first."""
        rows = await self._all(
            "SELECT * FROM match_log WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [_log_entry(r) for r in rows]

    async def _touch(self, db: aiosqlite.Connection, match_id: int) -> None:
        await db.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (_now(), match_id))
