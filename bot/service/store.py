"""The SQLite store: matches, seats and the append-only action log.

All SQL in the project lives in this module. One connection serves the whole
process; an asyncio lock keeps every statement and transaction whole, so no
caller ever reads another caller's half-written transaction. Migrations
(`migrations/NNNN_name.sql`) are applied in order at open, tracked with
`PRAGMA user_version`.

What the action path reads again and again is held in memory, and kept up to date
by the store's own commits: the rows of the last MEMORY matches used (the match, its
seats, its clocks, its turn message, the tail of its log), which match is open in
each channel, the server settings, the DM preferences and the pending notices of
each outbox lane. Anything the store can't update exactly is forgotten and read
again. `sync` notices a commit made by another connection (a second process, a
restore) and forgets everything.

The publisher's bookkeeping (a notice delivered, how far its delivery got, the
turn message, the board's message) is written behind: it is saved with the next
transaction, or by the next `flush` (the publisher's, within five minutes), whichever
comes first. A crash can lose that last moment of bookkeeping, never a change; the
publisher's deliveries are idempotent against what was saved (see `bot.publisher`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import re
import sqlite3
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.service.outbox import Notice, OutboxRow

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
MEMORY = 2048  # matches whose rows stay in memory (the least recently used go first)
TAIL = 16  # actions of a match's log held in memory (its latest still in effect)
OPEN: tuple[str, ...] = ("lobby", "active")

T = TypeVar("T")

Status = Literal["lobby", "active", "finished", "cancelled", "abandoned"]

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


GROUP_MOST = 64  # transactions sharing one commit at most (bounds the wait for it)


@dataclass
class _Group:
    """Transactions that share one commit: `done` when it is over."""

    done: asyncio.Future[None]
    size: int = 0
    after: list[Callable[[], None]] = field(default_factory=list)
    written: set[str] = field(default_factory=set)


def _retrieved(done: asyncio.Future[None]) -> None:
    """A failed group's error is read even when every transaction in it was cancelled."""
    if not done.cancelled():
        done.exception()


_MISSING = object()  # nothing of that kind is held


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
    clock_seconds: int = 86400  # the clock per decision (out of turn: see bot.durations)
    timeout_policy: str = "skip"  # what N timeouts in a row lead to (see bot.service.clock)


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
class TurnMessage:
    """The public message of a match's current turn, edited as the turn goes on."""

    match_id: int
    message_id: int
    turn: str  # the turn it belongs to (`Table.turn`)
    body: str  # its lines, without the lines naming the deciders under them


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings (defaults until a moderator changes them)."""

    guild_id: int
    mod_role_id: int | None = None
    match_channels: tuple[int, ...] = ()  # where matches may be opened; empty: anywhere
    default_clock_seconds: int = 86400
    default_timeout_policy: str = "skip"
    reminder_cadence: str = "half-and-end"
    board_pictures: str = "both"  # see PICTURE_MODES


GUILD_SETTING_FIELDS = frozenset(
    {
        "mod_role_id",
        "match_channels",
        "default_clock_seconds",
        "default_timeout_policy",
        "reminder_cadence",
        "board_pictures",
    }
)
# How a board or a private view is shown: a picture and the text, the picture with the
# text it doesn't show, or the text alone.
PICTURE_MODES = {
    "both": "pictures and text",
    "pictures": "pictures only",
    "text": "text only",
}


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


@dataclass(frozen=True)
class UndoneRow:
    """A game action a moderator took back: replay skips it, the log shows it struck out."""

    seq: int
    user_id: int
    forced: bool  # it had revealed hidden cards or drawn at random
    created_at: str


@dataclass(frozen=True)
class Rename:
    """A seat renamed in the game when it changed hands, at match version `version`."""

    version: int
    seat: int
    name: str


@dataclass(frozen=True)
class Versus:
    """A player's solitaire games against one opponent (a nemesis) of a game."""

    user_id: int
    game: str
    opponent: str
    level: int  # how hard it is, 1 to 4
    wins: int
    losses: int


@dataclass(frozen=True)
class Hunter:
    """A player's solitaire record of a game: the opponents beaten, the hardest of them."""

    user_id: int
    beaten: int  # distinct opponents beaten
    hardest: int  # the highest level beaten
    wins: int
    games: int


@dataclass(frozen=True)
class Record:
    """A player's finished matches of one game in one server."""

    user_id: int
    game: str
    games: int
    wins: int
    losses: int

    @property
    def win_rate(self) -> float:
        """Wins per match played (0 before any)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Results:
    """How each seat of a finished match ended (`{seat: 'win' | 'loss' | 'draw'}`), and
    the opponent of a solitaire game (a nemesis) with its difficulty."""

    by_seat: dict[int, str]
    opponent: str | None = None
    opponent_level: int | None = None


@dataclass(frozen=True)
class Clocks:
    """The deadlines an action leaves and the DMs they call for, worked out from the
    match's clocks as they stood at `mark` (`Store.clock_mark`): saved with the action
    only if no clock of the match changed since (else left to the reconciliation after)."""

    mark: int
    deadlines: Sequence[Deadline]
    notices: Sequence[Notice] = ()


@dataclass(frozen=True)
class Deadline:
    """The running (or frozen) clock of one seat the match waits for."""

    match_id: int
    seat: int
    version: int  # the match version it was armed for: any other is stale
    decisions: int  # the seat's decision count then: once it acts, a new clock starts
    out_of_turn: bool  # a decision outside the seat's turn (a shorter clock)
    clock_seconds: int  # this clock's length
    due_at: datetime
    reminded: int = 0  # reminders sent: 1 at half time, 2 near the end
    nudged: bool = False  # a player has nudged the decider already
    frozen_at: datetime | None = None  # paused or on vacation since then; None: running


@dataclass(frozen=True)
class Pause:
    """A paused match: by all players' agreement or by a moderator, until `ends_at`."""

    match_id: int
    kind: Literal["agreed", "moderator"]
    user_id: int  # the moderator, or the last player to agree
    paused_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class SeatClock:
    """A seat's timeouts in a row and its vacation (budget spent, and the one under way)."""

    match_id: int
    seat: int
    timeouts: int = 0
    timeout_mark: int = -1  # the seat's decision count after its last timeout
    vacation_used: int = 0  # seconds
    vacation_from: datetime | None = None
    vacation_until: datetime | None = None
    vacation_mark: int = 0  # the seat's decision count when the vacation began


@dataclass(frozen=True)
class NotifyPrefs:
    """Whether a user wants turns and reminders by DM, and until when their DMs are
    known to be closed."""

    user_id: int
    enabled: bool = False
    dm_closed_until: datetime | None = None


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


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | None) -> str | None:
    """A clock's moment as stored (the clock service passes Discord's virtual-time-aware
    `utcnow()`, so the store never reads the clock for them)."""
    return moment.isoformat(timespec="milliseconds") if moment is not None else None


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


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


def _outbox_row(row: sqlite3.Row) -> OutboxRow:
    notice = Notice(row["match_id"], row["kind"], json.loads(row["body"]))
    return OutboxRow(
        id=row["id"],
        notice=notice,
        created_at=row["created_at"],
        attempts=row["attempts"],
        progress=json.loads(row["progress"]),
        last_error=row["last_error"],
        delivered_at=row["delivered_at"],
        given_up=row["given_up"],
    )


def _action_row(row: sqlite3.Row) -> ActionRow:
    return ActionRow(
        row["seq"], row["seat"], row["user_id"], row["action"], row["events"], row["created_at"]
    )


def _guild_settings(guild_id: int, row: sqlite3.Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id=guild_id)
    return GuildSettings(
        guild_id=guild_id,
        mod_role_id=row["mod_role_id"],
        match_channels=tuple(json.loads(row["match_channels"])),
        default_clock_seconds=row["default_clock_seconds"],
        default_timeout_policy=row["default_timeout_policy"],
        reminder_cadence=row["reminder_cadence"],
        board_pictures=row["board_pictures"],
    )


def _record(row: sqlite3.Row) -> Record:
    return Record(row["user_id"], row["game"], row["games"], row["wins"], row["losses"])


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
        clock_seconds=row["clock_seconds"],
        timeout_policy=row["timeout_policy"],
    )


class Store:
    """Async access to the database. Create with `await Store.open(path)`."""

    def __init__(
        self, connection: aiosqlite.Connection, now: Callable[[], datetime] = _utc_now
    ) -> None:
        self._db = connection
        self._clock = now
        self._lock = asyncio.Lock()
        self._outbox_listeners: list[Callable[[str], None]] = []
        self._written: set[str] = set()  # lanes the open transaction wrote notices to
        self._after: list[Callable[[], None]] = []  # what the open transaction's commit does
        # In memory (see the module): per match, what is loaded of it, by kind.
        self._memory: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._channels: dict[int, int | None] = {}  # channel -> its open match (None: none)
        self._channel_of: dict[int, int] = {}  # match -> the channel held as its (see above)
        self._guilds: dict[int, GuildSettings] = {}
        self._prefs: dict[int, NotifyPrefs] = {}
        self._standing: dict[int, frozenset[tuple[str, str]]] = {}  # user -> (game, pref)
        self._pictures: dict[int, str] = {}  # user -> how they see their private views
        self._lanes: dict[str, deque[OutboxRow]] = {}  # lane -> its pending notices
        self._lane_of: dict[int, str] = {}  # a pending notice held -> its lane
        # Lanes that may hold notices this process did not write (from before it
        # started), read back from the database as `recovered`; known from the first
        # `pending_lanes`. None: any lane may (not asked yet, or another connection
        # committed meanwhile).
        self._foreign: set[str] | None = None
        # Written behind: (what, key) -> (SQL, parameters, the value it saves); the latest
        # for a key wins. A row loaded meanwhile takes the value (see `_pending`).
        self._behind: dict[Hashable, tuple[str, tuple[Any, ...], Any]] = {}
        self._data_version: int | None = None
        self._clock_marks: dict[int, int] = {}  # match id -> its clock writes so far
        # Group commit (see `_transaction`): the transactions sharing the open commit,
        # how many wait for the lock to join it, and the task that commits it for them.
        self._group: _Group | None = None
        self._queued = 0
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations_dir: Path = MIGRATIONS_DIR,
        now: Callable[[], datetime] = _utc_now,
    ) -> Store:
        """Open (or create) the database, switch it to WAL and apply pending migrations.
        `now` is the time the rows' stamps are written with (the bot gives Discord's)."""
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            # FULL: a commit is on disk (the WAL synced) before it returns, so no action a
            # reply said happened is lost to a power cut.
            pragmas = ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON")
            for pragma in (*pragmas, "busy_timeout = 5000"):
                async with connection.execute(f"PRAGMA {pragma}") as cursor:
                    await cursor.fetchall()
            store = cls(connection, now)
            await store._migrate(migrations(migrations_dir))
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        """Save what is written behind, and close the connection (and its worker thread)."""
        await self.flush()
        async with self._lock:
            await self._commit_open()
            await self._db.close()

    def _now(self) -> str:
        """The moment written in rows' stamps."""
        return _iso(self._clock()) or ""

    # ------------------------------------------------------------ memory

    async def sync(self) -> None:
        """Forget everything held in memory when another connection committed since the
        last look (a second process, a restore): one round trip."""
        async with self._lock:
            rows = await self._all("PRAGMA data_version", ())
            version = int(rows[0][0])
            if self._data_version is not None and version != self._data_version:
                log.info("the database was changed by another connection: reloading")
                self.forget_all()
            self._data_version = version

    def forget_all(self) -> None:
        """Drop everything held in memory (the next reads load it again)."""
        self._memory.clear()
        self._behind.clear()  # it was written for what was read before
        for match_id in self._clock_marks:
            self._clock_marks[match_id] += 1
        self._channels.clear()
        self._channel_of.clear()
        self._guilds.clear()
        self._prefs.clear()
        self._standing.clear()
        self._lanes.clear()
        self._lane_of.clear()
        self._foreign = None

    def clock_mark(self, match_id: int) -> int:
        """A number that changes with every write to a match's clocks (its deadlines,
        pause, seat clocks): what `Clocks` were worked out from."""
        return self._clock_marks.get(match_id, 0)

    def _clocks_written(self, match_id: int) -> None:
        self._clock_marks[match_id] = self._clock_marks.get(match_id, 0) + 1

    def _forget(self, match_id: int) -> None:
        """Drop what is held of one match, and which channel it is open in (found from
        the match, not by walking every channel held: forgetting costs the same with
        10,000 matches held as with 10)."""
        self._memory.pop(match_id, None)
        channel = self._channel_of.pop(match_id, None)
        if channel is not None and self._channels.get(channel) == match_id:
            del self._channels[channel]

    def _held(self, match_id: int) -> dict[str, Any]:
        """What is held of a match (made the most recently used), by kind."""
        held = self._memory.get(match_id)
        if held is None:
            held = self._memory[match_id] = {}
            while len(self._memory) > MEMORY:
                self._memory.popitem(last=False)
        else:
            self._memory.move_to_end(match_id)
        return held

    async def _recall(self, match_id: int, kind: str, load: Callable[[], Awaitable[T]]) -> T:
        """The `kind` held of a match, loaded first when it isn't (the lock is held)."""
        held = self._held(match_id)
        if kind not in held:
            held[kind] = await load()
        return held[kind]

    async def _kept(self, match_id: int, kind: str, load: Callable[[], Awaitable[T]]) -> T:
        """The `kind` held of a match, loaded under the lock when it isn't. What is held
        is as the last commit left it, so it is read without queueing for the lock
        behind other matches' transactions."""
        held = self._hit(match_id, kind)
        if held is not _MISSING:
            return held
        async with self._lock:
            return await self._recall(match_id, kind, load)

    def _hit(self, match_id: int, kind: str) -> Any:
        """The `kind` held of a match (made the most recently used), or _MISSING."""
        held = self._memory.get(match_id)
        if held is None or kind not in held:
            return _MISSING
        self._memory.move_to_end(match_id)
        return held[kind]

    def _then(self, change: Callable[[], None]) -> None:
        """Do `change` to what is in memory once the open transaction commits."""
        self._after.append(change)

    def _hold_match(self, match: MatchRow) -> None:
        """Hold a match row as the last commit left it, and where it is open."""
        self._held(match.id)["match"] = match
        if match.status in OPEN:
            self._channels[match.channel_id] = match.id
            self._channel_of[match.id] = match.channel_id
            return
        self._channel_of.pop(match.id, None)
        if self._channels.get(match.channel_id) == match.id:
            self._channels[match.channel_id] = None

    def _hold(self, match_id: int, kind: str, value: Any) -> None:
        """Hold `value` as the `kind` of a match (post-commit)."""
        self._held(match_id)[kind] = value

    def _update(self, match_id: int, kind: str, change: Callable[[Any], Any]) -> None:
        """Change what is held of a match, if it is held (post-commit)."""
        held = self._memory.get(match_id)
        if held is not None and kind in held:
            held[kind] = change(held[kind])
            if kind == "match":
                self._hold_match(held[kind])

    # ------------------------------------------------------------ written behind

    def _write_behind(
        self, key: Hashable, sql: str, params: tuple[Any, ...], value: Any = None
    ) -> None:
        """Save this with the next transaction (or the next `flush`); `value` is what a
        load of the row must see until then."""
        self._behind.pop(key, None)  # the latest goes last
        self._behind[key] = (sql, params, value)

    def _pending(self, key: Hashable, default: Any) -> Any:
        """The value written behind for `key` and not saved yet, else `default`: what is
        read from the database until the next transaction must not undo it."""
        held = self._behind.get(key)
        return default if held is None else held[2]

    async def flush(self) -> None:
        """Save what is written behind now (in a transaction of its own, if any)."""
        async with self._lock:
            await self._flush_held()

    async def _flush_held(self) -> None:
        """`flush`, the lock held: the open group commits, and what is still written
        behind is saved in a group of its own (which begins by saving it)."""
        await self._commit_open()
        if self._behind:
            group = await self._join()
            await self._commit_open()
            await group.done  # raises what a failed commit raised

    async def _save_behind(self, db: aiosqlite.Connection, behind: dict[Hashable, Any]) -> None:
        """Write what waited behind into the open transaction."""
        grouped: dict[str, list[tuple[Any, ...]]] = {}
        for sql, params, _ in behind.values():
            grouped.setdefault(sql, []).append(params)
        for sql, rows in grouped.items():
            await db.executemany(sql, rows)

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
            # Foreign keys are off while migrations run (SQLite ignores the switch inside
            # a transaction), so a migration may rebuild a table others refer to; every
            # reference is checked before each migration commits.
            await self._db.execute("PRAGMA foreign_keys = OFF")
            try:
                for number, path in files:
                    if number <= current:
                        continue
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

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction, under the lock (taken here). Once it commits, what is
        in memory is brought up to date, and the outbox's listeners hear of each lane it
        wrote notices to; only then does the `async with` return.

        Group commit: transactions that arrive together share one commit (one fsync).
        Each runs alone, in a savepoint of the group's open transaction (one that fails
        undoes only its own writes); the last of a run that queued for the lock (or
        the GROUP_MOST-th) commits for all, and each waits for that commit outside the
        lock. A read under the lock meanwhile may see a change whose commit is under
        way (never what memory holds: that moves at the commit); a failed commit fails
        every transaction of its group, and memory is forgotten."""
        self._queued += 1
        try:
            await self._lock.acquire()
        finally:
            self._queued -= 1
        try:
            group = await self._join()
            await self._db.execute("SAVEPOINT change")
            self._written, self._after = set(), []
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK TO change")
                await self._db.execute("RELEASE change")
                raise
            else:
                await self._db.execute("RELEASE change")
                group.size += 1
                group.after += self._after
                group.written |= self._written
            finally:
                self._written, self._after = set(), []
                await self._commit_when_due(group)
        finally:
            self._lock.release()
        await asyncio.shield(group.done)

    async def _join(self) -> _Group:
        """The open group, begun (with what is written behind) if there is none; the
        lock is held."""
        if self._group is not None:
            return self._group
        await self._db.execute("BEGIN IMMEDIATE")
        group = _Group(asyncio.get_running_loop().create_future())
        group.done.add_done_callback(_retrieved)
        behind, self._behind = self._behind, {}
        try:
            await self._save_behind(self._db, behind)
        except BaseException:
            await self._db.execute("ROLLBACK")
            for key, value in behind.items():
                self._behind.setdefault(key, value)
            raise
        self._group = group
        return group

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
            self.forget_all()
            group.done.set_exception(error)
            return
        for change in group.after:
            change()
        for lane in sorted(group.written):
            for listener in self._outbox_listeners:
                listener(lane)
        group.done.set_result(None)

    async def _one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        # One hop to the database thread (a cursor's fetch and close would be two more).
        return list(await self._db.execute_fetchall(sql, params))

    # ------------------------------------------------------------------ reads

    async def get_match(self, match_id: int) -> MatchRow | None:
        """The match with this id, if any."""
        held = self._hit(match_id, "match")
        if held is not _MISSING:
            return held
        async with self._lock:
            return await self._match(match_id)

    async def _match(self, match_id: int) -> MatchRow | None:
        held = self._memory.get(match_id)
        if held is not None and "match" in held:
            self._memory.move_to_end(match_id)
            return held["match"]
        row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        match = _match_row(row)
        board = self._pending(("board", match_id), match.board_message_id)
        if board != match.board_message_id:
            match = replace(match, board_message_id=board)
        self._hold_match(match)
        return match

    async def open_match_in(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel, if any."""
        async with self._lock:
            if channel_id in self._channels:
                match_id = self._channels[channel_id]
                match = None if match_id is None else await self._match(match_id)
                if match_id is None or (match is not None and match.status in OPEN):
                    return match
            row = await self._one(
                "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if row is None:
                if len(self._channels) > 16 * MEMORY:
                    self._channels.clear()
                    self._channel_of.clear()
                self._channels[channel_id] = None
                return None
            match = _match_row(row)
            self._hold_match(match)
            return match

    async def seats(self, match_id: int) -> list[SeatRow]:
        """The seats of a match, in seat order."""
        return list(await self._kept(match_id, "seats", lambda: self._load_seats(match_id)))

    async def _load_seats(self, match_id: int) -> list[SeatRow]:
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
        return [_action_row(r) for r in rows]

    async def latest_actions(self, match_id: int, *, last: int) -> list[ActionRow]:
        """The `last` actions of a match still in effect (none undone), oldest first
        (at most TAIL)."""
        assert last <= TAIL, "only the tail of the log is held"
        tail = await self._kept(match_id, "tail", lambda: self._load_tail(match_id))
        return tail[-last:] if last else []

    async def _load_tail(self, match_id: int) -> list[ActionRow]:
        rows = await self._all(
            "SELECT seq, seat, user_id, action, events, created_at FROM actions a"
            " WHERE match_id = ? AND NOT EXISTS"
            " (SELECT 1 FROM undone u WHERE u.match_id = a.match_id AND u.seq = a.seq)"
            " ORDER BY seq DESC LIMIT ?",
            (match_id, TAIL),
        )
        return [_action_row(r) for r in reversed(rows)]

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
        now = self._now()
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
                assert match_id is not None
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (?, 0, ?, ?)",
                    (match_id, created_by, host_name),
                )
                self._forget_on_commit(match_id)  # its channel was held as free
        except sqlite3.IntegrityError as exc:
            if "matches.channel_id" in str(exc):
                raise ChannelBusy(channel_id) from exc
            raise
        async with self._lock:
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
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Seat a user in a lobby after the others; False when it is full or not a lobby."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO seats (match_id, seat, user_id, display_name)"
                " SELECT ?, COUNT(*), ?, ? FROM seats WHERE match_id = ?"
                " HAVING COUNT(*) < ?"
                " AND (SELECT status FROM matches WHERE id = ?) = 'lobby'",
                (match_id, user_id, name, match_id, max_seats, match_id),
            )
            if cursor.rowcount:
                await self._touch(db, match_id)
                await self._enqueue(db, notices)
            return cursor.rowcount == 1

    def _forget_on_commit(self, match_id: int) -> None:
        """What is held of the match is read again after the open transaction commits."""
        self._then(lambda: self._forget(match_id))

    async def remove_seat(
        self, match_id: int, user_id: int, *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Take a user out of a lobby and close the gap in the seat order."""
        async with self._transaction() as db:
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
            await self._enqueue(db, notices)
            return True

    async def set_status(
        self, match_id: int, status: Status, *, only_from: Status, notices: Sequence[Notice] = ()
    ) -> bool:
        """Move a match from one status to another; False when it was not in `only_from`."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
                (status, self._now(), match_id, only_from),
            )
            if cursor.rowcount == 1:
                self._forget_on_commit(match_id)
                await self._enqueue(db, notices)
            return cursor.rowcount == 1

    async def set_options(
        self, match_id: int, options: dict[str, Any], *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Replace a lobby's options; False when it is no longer a lobby."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(options), self._now(), match_id),
            )
            if cursor.rowcount == 1:
                self._forget_on_commit(match_id)
                await self._enqueue(db, notices)
            return cursor.rowcount == 1

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
            cursor = await db.execute(
                "UPDATE matches SET status = 'active', snapshot = ?, version = 0, updated_at = ?,"
                " options = COALESCE(?, options) WHERE id = ? AND status = 'lobby'",
                (snapshot, self._now(), None if options is None else json.dumps(options), match_id),
            )
            if cursor.rowcount != 1:
                return False
            await db.executemany(
                "UPDATE seats SET team = ? WHERE match_id = ? AND seat = ?",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
            self._forget_on_commit(match_id)
            # Dealt just now: no action is logged and no turn message posted yet, so its
            # first action reads neither.
            self._then(lambda: self._hold(match_id, "tail", []))
            self._then(lambda: self._hold(match_id, "turn", None))
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
    ) -> bool:
        """Log one action and save the state it led to, in one transaction, with what
        it must tell, (given `clocks`, unless a clock changed since they were worked out)
        the match's deadlines and their DMs, and (given `results`) the results of the
        match it finished.

        The snapshot is written only if the match is still active at
        `expected_version`; otherwise nothing changes, False comes back and what is
        held of the match is forgotten (it was out of date). The new action's sequence
        number is `expected_version + 1`, and the acting seat's decision count goes up
        by one.
        """
        seq = expected_version + 1
        now = self._now()
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, seq, status, now, match_id, expected_version),
            )
            if cursor.rowcount != 1:
                self._forget_on_commit(match_id)
                return False
            # The seat's decision count goes up with it (a trigger: migration 0010).
            await db.execute(
                "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, seat, user_id, action, events, now),
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
                    replace(s, decisions=s.decisions + 1) if s.seat == seat else s for s in seats
                ]

            self._then(lambda: self._update(match_id, "match", moved))
            self._then(lambda: self._update(match_id, "seats", counted))
            self._then(lambda: self._update(match_id, "tail", lambda t: [*t, logged][-TAIL:]))
            return True

    def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember which message shows the match (its lobby, then its board; written
        behind)."""
        self._update(match_id, "match", lambda m: replace(m, board_message_id=message_id))
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
        return await self._kept(match_id, "turn", lambda: self._load_turn(match_id))

    async def _load_turn(self, match_id: int) -> TurnMessage | None:
        row = await self._one("SELECT * FROM turn_messages WHERE match_id = ?", (match_id,))
        saved = (
            None
            if row is None
            else TurnMessage(row["match_id"], row["message_id"], row["turn"], row["body"])
        )
        return self._pending(("turn", match_id), saved)

    def set_turn_message(self, message: TurnMessage) -> None:
        """Remember (or replace) the message carrying a match's current turn (written
        behind)."""
        self._hold(message.match_id, "turn", message)
        self._write_behind(
            ("turn", message.match_id),
            "INSERT OR REPLACE INTO turn_messages (match_id, message_id, turn, body)"
            " VALUES (?, ?, ?, ?)",
            (message.match_id, message.message_id, message.turn, message.body),
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
        self._hold(match_id, "turn", None)
        self._write_behind(
            ("turn", match_id), "DELETE FROM turn_messages WHERE match_id = ?", (match_id,)
        )

    # ------------------------------------------------------------ the outbox

    def on_outbox(self, listener: Callable[[str], None]) -> None:
        """Call `listener(lane)` after each commit that wrote notices to that lane."""
        self._outbox_listeners.append(listener)

    async def _enqueue(self, db: aiosqlite.Connection, notices: Sequence[Notice]) -> None:
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
        ids = await db.execute_fetchall(
            f"INSERT INTO outbox (match_id, lane, kind, body, created_at) VALUES {values}"
            " RETURNING id",
            params,
        )
        rows = [
            OutboxRow(id=row_id, notice=n, created_at=now)
            for row_id, n in zip(sorted(r[0] for r in ids), notices, strict=True)
        ]
        self._written.update(n.lane for n in notices)

        def queue() -> None:
            for row in rows:
                lane = row.notice.lane
                pending = self._lanes.get(lane)
                if pending is None and self._foreign is not None and lane not in self._foreign:
                    # A lane only this process wrote to: its notices are all in memory,
                    # and none is read back as if a restart had come between.
                    pending = self._lanes[lane] = deque()
                if pending is not None:
                    pending.append(row)
                    self._lane_of[row.id] = lane

        self._then(queue)

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        """Write the notices of something that changes nothing else (a reminder, say)."""
        async with self._transaction() as db:
            await self._enqueue(db, notices)

    async def pending_lanes(self) -> list[str]:
        """The lanes with notices still to deliver, oldest first. From then on, a lane
        none of them is only ever written by this process: its notices are held in
        memory as they are written."""
        await self.flush()
        async with self._lock:
            rows = await self._all(
                "SELECT lane, MIN(id) AS first FROM outbox"
                " WHERE delivered_at IS NULL AND given_up IS NULL GROUP BY lane ORDER BY first",
                (),
            )
            lanes = [r["lane"] for r in rows]
            self._foreign = set(lanes) - set(self._lanes)
        return lanes

    def interrupted(self) -> None:
        """Deliveries were cut short (the publisher stopped): each notice held may have
        been under way, and is treated as if read back after a restart."""
        for pending in self._lanes.values():
            for index, row in enumerate(pending):
                pending[index] = replace(row, recovered=True)

    async def next_notices(self, lane: str, most: int = 1) -> list[OutboxRow]:
        """The oldest notices of a lane still to deliver (`most` of them at most). A
        notice read from the database rather than written by this process is
        `recovered`: its delivery may have begun before a restart."""
        async with self._lock:
            pending = self._lanes.get(lane)
            if pending is None:
                if self._foreign is not None and lane not in self._foreign:
                    return []  # every notice this process wrote to it is delivered
                await self._flush_held()  # so the rows read are current
                rows = await self._all(
                    "SELECT * FROM outbox WHERE lane = ? AND delivered_at IS NULL"
                    " AND given_up IS NULL ORDER BY id",
                    (lane,),
                )
                pending = self._lanes[lane] = deque(
                    replace(_outbox_row(r), recovered=True) for r in rows
                )
                self._lane_of.update((row.id, lane) for row in pending)
                if self._foreign is not None:
                    self._foreign.discard(lane)  # all of it is held now
            return list(itertools.islice(pending, most))

    def _settle_row(
        self, row_id: int, change: Callable[[OutboxRow], OutboxRow | None]
    ) -> OutboxRow | None:
        """Change (or, given None, take out) a pending notice held in memory; the row as
        it was (None: not held). A lane left with nothing pending is let go, when no
        notice another process wrote can be waiting in it."""
        lane = self._lane_of.get(row_id)
        pending = self._lanes.get(lane) if lane is not None else None
        if lane is None or pending is None:
            return None
        index, row = next((i, r) for i, r in enumerate(pending) if r.id == row_id)
        changed = change(row)
        if changed is not None:
            pending[index] = changed
            return row
        del pending[index]
        del self._lane_of[row_id]
        if not pending and self._foreign is not None:
            del self._lanes[lane]
        return row

    async def outbox(self, match_id: int | None = None) -> list[OutboxRow]:
        """Every notice (of one match), delivered or not, in order."""
        await self.flush()
        where, params = ("WHERE match_id = ?", (match_id,)) if match_id is not None else ("", ())
        async with self._lock:
            rows = await self._all(f"SELECT * FROM outbox {where} ORDER BY id", params)
        return [_outbox_row(r) for r in rows]

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
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                (error[:500], row_id),
            )
            row = await self._one("SELECT attempts FROM outbox WHERE id = ?", (row_id,))
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
        async with self._lock:
            held = self._guilds.get(guild_id)
            if held is not None:
                return held
            row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            settings = self._guilds[guild_id] = _guild_settings(guild_id, row)
        return settings

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; returns them all."""
        unknown = set(changes) - GUILD_SETTING_FIELDS
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        if "match_channels" in changes:
            changes["match_channels"] = json.dumps(sorted(changes["match_channels"]))
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
            self._then(lambda: self._guilds.pop(guild_id, None))
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
            cursor = await db.execute(
                "INSERT INTO match_log (match_id, version, user_id, kind, text, created_at) "
                "SELECT id, version, ?, ?, ?, ? FROM matches WHERE id = ?",
                (user_id, kind, text, self._now(), match_id),
            )
            entry_id = cursor.lastrowid
            await self._enqueue(db, notices)
            row = await self._one("SELECT * FROM match_log WHERE id = ?", (entry_id,))
        assert row is not None, f"match {match_id} does not exist"
        return _log_entry(row)

    async def log_entries(self, match_id: int) -> list[LogEntry]:
        """A match's non-game log lines, oldest first."""
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM match_log WHERE match_id = ? ORDER BY id", (match_id,)
            )
        return [_log_entry(r) for r in rows]

    async def _touch(self, db: aiosqlite.Connection, match_id: int) -> None:
        await db.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (self._now(), match_id))
        self._forget_on_commit(match_id)

    # ---- moderation, history, stats

    async def undone(self, match_id: int) -> dict[int, UndoneRow]:
        """The actions of a match a moderator took back, by sequence number."""
        async with self._lock:
            rows = await self._all(
                "SELECT seq, user_id, forced, created_at FROM undone WHERE match_id = ?",
                (match_id,),
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
            cursor = await db.execute(
                "UPDATE matches SET snapshot = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, now, match_id, expected_version),
            )
            if cursor.rowcount != 1:
                return False
            await db.execute(
                "INSERT INTO undone (match_id, seq, user_id, forced, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, user_id, int(forced), now),
            )
            await db.execute(
                "UPDATE seats SET decisions = decisions + 1 WHERE match_id = ?", (match_id,)
            )
            self._forget_on_commit(match_id)
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
            row = await self._one(
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

    async def renames(self, match_id: int) -> list[Rename]:
        """The seats renamed in the game as they changed hands, in order."""
        async with self._lock:
            rows = await self._all(
                "SELECT version, seat, new_name FROM seat_replacements"
                " WHERE match_id = ? AND version IS NOT NULL ORDER BY version",
                (match_id,),
            )
        return [Rename(row["version"], row["seat"], row["new_name"]) for row in rows]

    async def setup_names(self, match_id: int) -> dict[int, str]:
        """The name each seat was dealt in with, for the seats that changed hands since."""
        async with self._lock:
            rows = await self._all(
                "SELECT seat, old_name FROM seat_replacements WHERE match_id = ?"
                " AND id IN (SELECT MIN(id) FROM seat_replacements WHERE match_id = ?"
                " GROUP BY seat)",
                (match_id, match_id),
            )
        return {r["seat"]: r["old_name"] for r in rows}

    async def open_matches_in_guild(self, guild_id: int) -> list[MatchRow]:
        """A server's lobbies and active matches, oldest first."""
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM matches WHERE guild_id = ? AND status IN ('lobby', 'active')"
                " ORDER BY id",
                (guild_id,),
            )
        return [_match_row(r) for r in rows]

    async def latest_match_in(self, channel_id: int) -> MatchRow | None:
        """The channel's most recent match, open or not."""
        async with self._lock:
            row = await self._one(
                "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
        return _match_row(row) if row else None

    async def record_results(self, match_id: int, results: Results) -> bool:
        """Record how each seat of a finished match ended, credited to whoever holds it;
        False when they were recorded already."""
        async with self._transaction() as db:
            return await self._record_results(db, match_id, results)

    async def _record_results(
        self, db: aiosqlite.Connection, match_id: int, results: Results
    ) -> bool:
        now = self._now()
        rows = [
            (result, now, results.opponent, results.opponent_level, match_id, seat)
            for seat, result in results.by_seat.items()
        ]
        cursor = await db.executemany(
            "INSERT OR IGNORE INTO results (match_id, seat, user_id, guild_id, game,"
            " result, recorded_at, opponent, opponent_level)"
            " SELECT s.match_id, s.seat, s.user_id, m.guild_id, m.game, ?, ?, ?, ?"
            " FROM seats s JOIN matches m ON m.id = s.match_id"
            " WHERE s.match_id = ? AND s.seat = ? AND m.status = 'finished'",
            rows,
        )
        return cursor.rowcount > 0

    async def versus_records(self, guild_id: int, user_id: int) -> list[Versus]:
        """A player's solitaire records per opponent, in this server or in direct
        messages with the bot (where solitaire games are played too)."""
        async with self._lock:
            rows = await self._all(
                "SELECT user_id, game, opponent, MAX(opponent_level) AS level,"
                " SUM(result = 'win') AS wins, SUM(result = 'loss') AS losses FROM results"
                " WHERE user_id = ? AND opponent IS NOT NULL AND (guild_id = ? OR guild_id IS NULL)"
                " GROUP BY game, opponent ORDER BY game, level, opponent",
                (user_id, guild_id),
            )
        return [
            Versus(r["user_id"], r["game"], r["opponent"], r["level"] or 0, r["wins"], r["losses"])
            for r in rows
        ]

    async def hunters(self, guild_id: int, game: str, *, limit: int) -> list[Hunter]:
        """A server's best solitaire players of a game: the most opponents beaten, then
        the hardest one beaten, then the most wins (games in this server only)."""
        async with self._lock:
            rows = await self._all(
                "SELECT user_id, COUNT(DISTINCT CASE WHEN result = 'win' THEN opponent END)"
                " AS beaten, MAX(CASE WHEN result = 'win' THEN opponent_level ELSE 0 END)"
                " AS hardest, SUM(result = 'win') AS wins, COUNT(*) AS games FROM results"
                " WHERE guild_id = ? AND game = ? AND opponent IS NOT NULL GROUP BY user_id"
                " ORDER BY beaten DESC, hardest DESC, wins DESC, games, user_id LIMIT ?",
                (guild_id, game, limit),
            )
        return [
            Hunter(r["user_id"], r["beaten"], r["hardest"] or 0, r["wins"], r["games"])
            for r in rows
        ]

    async def unrecorded_matches(self) -> list[int]:
        """Finished matches whose results are not recorded yet."""
        async with self._lock:
            rows = await self._all(
                "SELECT id FROM matches m WHERE status = 'finished'"
                " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.match_id = m.id) ORDER BY id",
                (),
            )
        return [r["id"] for r in rows]

    async def player_records(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's results in a server, one record per game, most played first."""
        async with self._lock:
            rows = await self._all(
                "SELECT user_id, game, COUNT(*) AS games,"
                " SUM(result = 'win') AS wins, SUM(result = 'loss') AS losses"
                " FROM results WHERE guild_id = ? AND user_id = ?"
                " GROUP BY game ORDER BY games DESC, game",
                (guild_id, user_id),
            )
        return [_record(r) for r in rows]

    async def leaderboard(self, guild_id: int, game: str, *, limit: int) -> list[Record]:
        """A server's best players of a game: most wins, then best win rate."""
        async with self._lock:
            rows = await self._all(
                "SELECT user_id, game, COUNT(*) AS games,"
                " SUM(result = 'win') AS wins, SUM(result = 'loss') AS losses"
                " FROM results WHERE guild_id = ? AND game = ? GROUP BY user_id"
                " ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, games DESC, user_id"
                " LIMIT ?",
                (guild_id, game, limit),
            )
        return [_record(r) for r in rows]

    # ---- clocks: match clock terms, deadlines, pauses, vacations, DM preferences

    async def set_clock_terms(
        self, match_id: int, *, clock_seconds: int, timeout_policy: str
    ) -> None:
        """Set a match's clock per decision and its timeout policy."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE matches SET clock_seconds = ?, timeout_policy = ? WHERE id = ?",
                (clock_seconds, timeout_policy, match_id),
            )
            self._forget_on_commit(match_id)

    async def abandon_match(
        self, match_id: int, *, expected_version: int, notices: Sequence[Notice] = ()
    ) -> bool:
        """End an active match as abandoned (no winner) if it is still at that version."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET status = 'abandoned', updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (self._now(), match_id, expected_version),
            )
            self._forget_on_commit(match_id)
            if cursor.rowcount == 1:
                await self._enqueue(db, notices)
            return cursor.rowcount == 1

    async def deadlines(self, match_id: int) -> list[Deadline]:
        """The clocks of a match's deciding seats, in seat order."""
        async with self._lock:
            return list(await self._deadlines(match_id))

    async def _deadlines(self, match_id: int) -> list[Deadline]:
        async def load() -> list[Deadline]:
            rows = await self._all(
                "SELECT * FROM deadlines WHERE match_id = ? ORDER BY seat", (match_id,)
            )
            return [self._deadline(r) for r in rows]

        return await self._recall(match_id, "deadlines", load)

    async def deadline(self, match_id: int, seat: int) -> Deadline | None:
        """One seat's clock, if it has one."""
        async with self._lock:
            return next((d for d in await self._deadlines(match_id) if d.seat == seat), None)

    async def save_deadlines(self, match_id: int, deadlines: Iterable[Deadline]) -> None:
        """Replace all the clocks of a match with these, in one transaction."""
        async with self._transaction() as db:
            await self._replace_deadlines(db, match_id, list(deadlines))

    async def _replace_deadlines(
        self, db: aiosqlite.Connection, match_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        """Make these the match's clocks, in the open transaction (the rows they don't
        change are left as they are)."""
        self._clocks_written(match_id)
        held = self._memory.get(match_id, {}).get("deadlines")
        rows = sorted(deadlines, key=lambda d: d.seat)
        if held is None or {d.seat for d in held} - {d.seat for d in rows}:
            seats = json.dumps([d.seat for d in rows])
            await db.execute(
                "DELETE FROM deadlines WHERE match_id = ?"
                " AND seat NOT IN (SELECT value FROM json_each(?))",
                (match_id, seats),
            )
        changed = [d for d in rows if held is None or d not in held]
        if changed:
            await db.executemany(self._PUT_DEADLINE, [self._deadline_params(d) for d in changed])
        self._then(lambda: self._hold(match_id, "deadlines", rows))

    async def put_deadline(self, deadline: Deadline, *, notices: Sequence[Notice] = ()) -> None:
        """Save one seat's clock (added or replaced), with what it must tell (a reminder)."""
        async with self._transaction() as db:
            self._clocks_written(deadline.match_id)
            await db.execute(self._PUT_DEADLINE, self._deadline_params(deadline))
            await self._enqueue(db, notices)

            def put(rows: list[Deadline]) -> list[Deadline]:
                kept = [d for d in rows if d.seat != deadline.seat]
                return sorted([*kept, deadline], key=lambda d: d.seat)

            self._then(lambda: self._update(deadline.match_id, "deadlines", put))

    async def running_deadlines(self) -> list[tuple[Deadline, str]]:
        """Every clock not frozen, with the reminder cadence of its match's server."""
        async with self._lock:
            rows = await self._all(
                "SELECT d.*, COALESCE(g.reminder_cadence, ?) AS cadence FROM deadlines d"
                " JOIN matches m ON m.id = d.match_id"
                " LEFT JOIN guild_settings g ON g.guild_id = m.guild_id"
                " WHERE d.frozen_at IS NULL",
                (GuildSettings.reminder_cadence,),
            )
        return [(self._deadline(r), r["cadence"]) for r in rows]

    async def matches_to_reconcile(self) -> list[int]:
        """Matches whose clocks don't fit them: active ones without clocks for their
        current version or with stale ones, and closed ones with clocks left over."""
        async with self._lock:
            rows = await self._all(
                "SELECT id FROM matches m WHERE CASE WHEN m.status = 'active' THEN"
                " NOT EXISTS (SELECT 1 FROM deadlines d"
                "  WHERE d.match_id = m.id AND d.version = m.version)"
                " OR EXISTS (SELECT 1 FROM deadlines d"
                "  WHERE d.match_id = m.id AND d.version != m.version)"
                " ELSE EXISTS (SELECT 1 FROM deadlines d WHERE d.match_id = m.id)"
                " OR EXISTS (SELECT 1 FROM pauses p WHERE p.match_id = m.id)"
                " OR EXISTS (SELECT 1 FROM seat_clocks c"
                "  WHERE c.match_id = m.id AND c.vacation_until IS NOT NULL) END"
                " ORDER BY id",
                (),
            )
        return [r["id"] for r in rows]

    async def pause(self, match_id: int) -> Pause | None:
        """The match's pause, while it is paused."""

        async def load() -> Pause | None:
            row = await self._one("SELECT * FROM pauses WHERE match_id = ?", (match_id,))
            return self._pause(row) if row else None

        async with self._lock:
            return await self._recall(match_id, "pause", load)

    async def pauses(self) -> list[Pause]:
        """Every match paused now."""
        async with self._lock:
            rows = await self._all("SELECT * FROM pauses", ())
        return [self._pause(r) for r in rows]

    async def start_pause(self, pause: Pause) -> None:
        """Pause a match (the votes that led to it are spent)."""
        async with self._transaction() as db:
            self._clocks_written(pause.match_id)
            await db.execute("DELETE FROM pause_votes WHERE match_id = ?", (pause.match_id,))
            await db.execute(
                "INSERT INTO pauses (match_id, kind, user_id, paused_at, ends_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    pause.match_id,
                    pause.kind,
                    pause.user_id,
                    _iso(pause.paused_at),
                    _iso(pause.ends_at),
                ),
            )
            self._then(lambda: self._hold(pause.match_id, "pause", pause))

    async def end_pause(self, match_id: int) -> None:
        """The match runs again."""
        async with self._transaction() as db:
            self._clocks_written(match_id)
            await db.execute("DELETE FROM pauses WHERE match_id = ?", (match_id,))
            self._then(lambda: self._hold(match_id, "pause", None))

    async def add_pause_vote(self, match_id: int, seat: int) -> set[int]:
        """A seat asks to pause; returns every seat that has asked."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO pause_votes (match_id, seat) VALUES (?, ?)", (match_id, seat)
            )
            rows = await self._all("SELECT seat FROM pause_votes WHERE match_id = ?", (match_id,))
        return {r["seat"] for r in rows}

    async def seat_clocks(self, match_id: int) -> dict[int, SeatClock]:
        """The timeouts and vacations of a match's seats, by seat (seats never timed out
        nor away have none)."""

        async def load() -> dict[int, SeatClock]:
            rows = await self._all("SELECT * FROM seat_clocks WHERE match_id = ?", (match_id,))
            return {r["seat"]: self._seat_clock(r) for r in rows}

        async with self._lock:
            return dict(await self._recall(match_id, "clocks", load))

    async def put_seat_clock(self, clock: SeatClock) -> None:
        """Save a seat's timeouts and vacation."""
        async with self._transaction() as db:
            self._clocks_written(clock.match_id)
            await db.execute(
                "INSERT OR REPLACE INTO seat_clocks (match_id, seat, timeouts, timeout_mark,"
                " vacation_used, vacation_from, vacation_until, vacation_mark)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    clock.match_id,
                    clock.seat,
                    clock.timeouts,
                    clock.timeout_mark,
                    clock.vacation_used,
                    _iso(clock.vacation_from),
                    _iso(clock.vacation_until),
                    clock.vacation_mark,
                ),
            )
            self._then(
                lambda: self._update(clock.match_id, "clocks", lambda c: {**c, clock.seat: clock})
            )

    async def vacations(self) -> list[SeatClock]:
        """Every vacation under way."""
        async with self._lock:
            rows = await self._all("SELECT * FROM seat_clocks WHERE vacation_until IS NOT NULL", ())
        return [self._seat_clock(r) for r in rows]

    async def clear_clocks(self, match_id: int) -> None:
        """A match is over: no clock, pause or vacation of it goes on."""
        async with self._transaction() as db:
            self._clocks_written(match_id)
            for table in ("deadlines", "pauses", "pause_votes"):  # fixed names
                await db.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
            await db.execute(
                "UPDATE seat_clocks SET vacation_from = NULL, vacation_until = NULL"
                " WHERE match_id = ?",
                (match_id,),
            )
            self._forget_on_commit(match_id)

    async def notify_prefs(self, user_id: int) -> NotifyPrefs:
        """A user's DM preferences (off until they opt in)."""
        async with self._lock:
            held = self._prefs.get(user_id)
            if held is None:
                row = await self._one("SELECT * FROM notify WHERE user_id = ?", (user_id,))
                held = (
                    NotifyPrefs(user_id)
                    if row is None
                    else NotifyPrefs(user_id, bool(row["enabled"]), _when(row["dm_closed_until"]))
                )
                if len(self._prefs) > 16 * MEMORY:
                    self._prefs.clear()
                self._prefs[user_id] = held
        return held

    async def set_notify(self, user_id: int, enabled: bool) -> None:
        """Opt a user in or out of DMs (either way, their DMs count as open again)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO notify (user_id, enabled, dm_closed_until)"
                " VALUES (?, ?, NULL)",
                (user_id, int(enabled)),
            )
            self._then(lambda: self._prefs.pop(user_id, None))

    async def standing_answers(self, user_id: int) -> frozenset[tuple[str, str]]:
        """The standing answers a user has set, as (game id, preference id) pairs."""
        async with self._lock:
            held = self._standing.get(user_id)
            if held is None:
                rows = await self._all(
                    "SELECT game, preference FROM standing_answers WHERE user_id = ?", (user_id,)
                )
                held = frozenset((r["game"], r["preference"]) for r in rows)
                if len(self._standing) > 16 * MEMORY:
                    self._standing.clear()
                self._standing[user_id] = held
        return held

    async def set_standing_answer(self, user_id: int, game: str, preference: str, on: bool) -> None:
        """Set or clear one of a user's standing answers."""
        async with self._transaction() as db:
            if on:
                await db.execute(
                    "INSERT OR IGNORE INTO standing_answers (user_id, game, preference)"
                    " VALUES (?, ?, ?)",
                    (user_id, game, preference),
                )
            else:
                await db.execute(
                    "DELETE FROM standing_answers WHERE user_id = ? AND game = ?"
                    " AND preference = ?",
                    (user_id, game, preference),
                )
            self._then(lambda: self._standing.pop(user_id, None))

    async def player_pictures(self, user_id: int) -> str:
        """How a user sees their private views (a key of PICTURE_MODES)."""
        async with self._lock:
            held = self._pictures.get(user_id)
            if held is None:
                row = await self._one(
                    "SELECT pictures FROM player_settings WHERE user_id = ?", (user_id,)
                )
                held = row["pictures"] if row else "both"
                if len(self._pictures) > 16 * MEMORY:
                    self._pictures.clear()
                self._pictures[user_id] = held
        return held

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
            self._then(lambda: self._pictures.pop(user_id, None))

    async def set_dm_closed(
        self, user_id: int, until: datetime, *, notices: Sequence[Notice] = ()
    ) -> None:
        """A user's DMs are closed: no attempt before `until`."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE notify SET dm_closed_until = ? WHERE user_id = ?", (_iso(until), user_id)
            )
            self._then(lambda: self._prefs.pop(user_id, None))
            await self._enqueue(db, notices)

    _PUT_DEADLINE = (
        "INSERT OR REPLACE INTO deadlines (match_id, seat, version, decisions, out_of_turn,"
        " clock_seconds, due_at, reminded, nudged, frozen_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )

    @staticmethod
    def _deadline_params(d: Deadline) -> tuple[Any, ...]:
        return (
            d.match_id,
            d.seat,
            d.version,
            d.decisions,
            int(d.out_of_turn),
            d.clock_seconds,
            _iso(d.due_at),
            d.reminded,
            int(d.nudged),
            _iso(d.frozen_at),
        )

    @staticmethod
    def _deadline(row: sqlite3.Row) -> Deadline:
        return Deadline(
            match_id=row["match_id"],
            seat=row["seat"],
            version=row["version"],
            decisions=row["decisions"],
            out_of_turn=bool(row["out_of_turn"]),
            clock_seconds=row["clock_seconds"],
            due_at=datetime.fromisoformat(row["due_at"]),
            reminded=row["reminded"],
            nudged=bool(row["nudged"]),
            frozen_at=_when(row["frozen_at"]),
        )

    @staticmethod
    def _pause(row: sqlite3.Row) -> Pause:
        return Pause(
            match_id=row["match_id"],
            kind=row["kind"],
            user_id=row["user_id"],
            paused_at=datetime.fromisoformat(row["paused_at"]),
            ends_at=datetime.fromisoformat(row["ends_at"]),
        )

    @staticmethod
    def _seat_clock(row: sqlite3.Row) -> SeatClock:
        return SeatClock(
            match_id=row["match_id"],
            seat=row["seat"],
            timeouts=row["timeouts"],
            timeout_mark=row["timeout_mark"],
            vacation_used=row["vacation_used"],
            vacation_from=_when(row["vacation_from"]),
            vacation_until=_when(row["vacation_until"]),
            vacation_mark=row["vacation_mark"],
        )

    # ---- end of clocks
