"""Copying a server's database into another (`python -m bot migrate-store`, see
`bot.service.moving`, which then replays every match there): every row of every table
copied with its ids, in one transaction on the target, then compared table by table.

Both databases are opened as the bot opens them, so each is first brought to the
current schema (an older SQLite file is upgraded in place). The tables, their columns,
their keys and the order their references impose are read from the databases' own
catalogues, so a table added by a later migration is copied without a change here
(bar the processes' own, NOT_CARRIED). The source is read as one consistent moment
(SQLite: under its write lock; PostgreSQL: a repeatable-read transaction), a page of
rows at a time. Stop the bot before a move: what it writes to the source afterwards is
not carried over.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

from bot.service.store.database import is_postgresql
from bot.service.store.engine import POSTGRESQL, Tx
from bot.service.store.rows import Row
from bot.service.store.store import Store

PAGE = 500  # rows read, and written, at a time
EVERYTHING = "*"  # told to other processes of the target: forget all you hold

# Tables filled after others they don't refer to. Migration 0010's trigger counts each
# inserted action into its seat's `decisions`; the actions go in while there is no seat
# to count into, and the seats then arrive with the source's counts, so no count is
# doubled. Chosen over switching the trigger off (`session_replication_role`, which
# takes a superuser on PostgreSQL, or ALTER TABLE ... DISABLE TRIGGER, its owner and a
# lock of the table) because it needs no privilege and is the same on both engines; the
# row comparison after the copy would catch a count gone wrong.
FILLED_AFTER: Mapping[str, tuple[str, ...]] = {"seats": ("actions",)}
# Tables of the processes running on a database rather than of the server's matches:
# neither copied nor counted as the target holding something, nor emptied. A shard's
# lease names a process of the source; the target's processes take their own.
NOT_CARRIED = frozenset({"shard_leases"})

Fetch = Callable[[str, Sequence[Any]], Awaitable[list[Row]]]


class TransferRefused(Exception):
    """The copy was not made; the message says why, in a sentence."""


@dataclass
class TransferReport:
    """What a copy did and what its checks found."""

    source: str  # as shown: a PostgreSQL address without its password
    target: str
    copied: dict[str, int] = field(default_factory=dict)  # table -> rows, in copy order
    emptied: int = 0  # rows the target held before (with `replace`)
    differing: list[str] = field(default_factory=list)  # tables not the same on both sides
    replayed: int = 0  # matches whose log replays to their saved state on the target
    not_started: int = 0  # lobbies, open or cancelled: nothing to replay
    failed: dict[int, str] = field(default_factory=dict)  # match id -> why not
    failed_before: dict[int, str] = field(default_factory=dict)  # ... nor in the source
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Every table the same on both sides, and no match replaying worse than it did
        in the source."""
        return not self.differing and not self.failed

    def __str__(self) -> str:
        width = max((len(name) for name in self.copied), default=0)
        lines = [f"Copied {self.source} into {self.target} in {self.seconds:.1f} s; rows:"]
        lines += [f"  {name:<{width}}  {self.copied[name]:>9,}" for name in sorted(self.copied)]
        if self.emptied:
            lines.append(f"The target's {self.emptied:,} earlier rows were removed first.")
        if self.differing:
            lines.append(
                "These tables do not hold the same rows in both databases: "
                + ", ".join(self.differing)
                + "."
            )
        else:
            lines.append("Every table holds the same rows in both databases.")
        replayed = f"{self.replayed:,} match{'es' if self.replayed != 1 else ''}"
        lines.append(
            f"Replayed {replayed} from their logs to their saved states; "
            f"{self.not_started:,} not started (nothing to replay)."
        )
        for match_id, why in self.failed.items():
            lines.append(f"Match {match_id} does not replay on the target: {why}")
        for match_id, why in self.failed_before.items():
            lines.append(
                f"Match {match_id} does not replay, on the target as in the source "
                f"(the move changed nothing): {why}"
            )
        if self.ok:
            lines.append("Done: Arbiter can run on the target now.")
        else:
            lines.append("The check FAILED: keep running Arbiter on the source, and report this.")
        return "\n".join(lines)


async def copy_rows(
    source: str | Path,
    target: str | Path,
    *,
    replace: bool,
    report: TransferReport,
    read_from: Path | None = None,
) -> tuple[Store, Store]:
    """Copy every row of `source` into `target` and compare them table by table (into
    `report`); the two stores, open, for the checks that follow. TransferRefused when the
    target holds rows already and `replace` is not given (then it is emptied first), or
    when either database can't be opened. `read_from`: a copy of a SQLite source to
    read instead (opening a store brings it to the current schema, which must not
    change a backup being restored)."""
    check_files(source, target)
    readable = await _open(read_from or source, "source")
    try:
        writable = await _open(target, "target")
        try:
            tables, digests = await _copy(readable, writable, replace, report)
            await _compare(writable, tables, digests, report)
        except BaseException:
            await writable.close()
            raise
    except BaseException:
        await readable.close()
        raise
    return readable, writable


async def started_matches(store: Store) -> tuple[list[int], int]:
    """The matches that were dealt (in id order), and how many are lobbies still."""
    rows = await store.db.engine.read(
        "SELECT id, CASE WHEN snapshot IS NULL THEN 1 ELSE 0 END AS fresh FROM matches ORDER BY id"
    )
    dealt = [int(r["id"]) for r in rows if not r["fresh"]]
    return dealt, len(rows) - len(dealt)


def shown(database: str | Path) -> str:
    """A database as a report names it: a PostgreSQL address without its password."""
    text = str(database)
    if not is_postgresql(text):
        return text
    scheme, _, rest = text.partition("://")
    where, at, host = rest.rpartition("@")
    user, _, password = where.partition(":")
    return f"{scheme}://{user}:***@{host}" if at and password else text


def check_files(source: str | Path, target: str | Path) -> None:
    """Refuse a SQLite source that isn't there (opening it would create it), and a SQLite
    file copied into itself (TransferRefused)."""
    if not is_postgresql(source) and not Path(source).is_file():
        raise TransferRefused(f"There is no database file at {source}: nothing was copied.")
    if is_postgresql(source) or is_postgresql(target):
        return  # two PostgreSQL addresses are told apart once connected (`_copy`)
    first, second = Path(source), Path(target)
    same = first.resolve() == second.resolve() or (
        first.exists() and second.exists() and first.samefile(second)
    )
    if same:
        raise TransferRefused("The source and the target are the same file: nothing was copied.")


async def _open(database: str | Path, role: str) -> Store:
    """Open a database (migrating it to the current schema), or say why it can't be."""
    try:
        return await Store.open(database)
    except Exception as error:
        raise TransferRefused(
            f"The {role} database {shown(database)} can't be opened: {error}"
        ) from error


# ---------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class _Table:
    """A table as the copy sees it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # its primary key (read in pages by it); empty: read at once
    serial: tuple[str, ...]  # PostgreSQL's identity columns (their sequences move on)
    parents: frozenset[str]  # the tables it refers to


def quoted(name: str) -> str:
    """An identifier read from the catalogue, quoted for either engine."""
    return '"' + name.replace('"', '""') + '"'


_SQLITE = {
    "tables": "SELECT name FROM sqlite_master WHERE type = 'table'"
    " AND substr(name, 1, 7) != 'sqlite_' ORDER BY name",
    "columns": "SELECT name, pk, 0 AS serial FROM pragma_table_info(?) ORDER BY cid",
    "parents": 'SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)',
}
_POSTGRESQL = {
    "tables": "SELECT CAST(c.relname AS TEXT) AS name FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
    " AND c.relname != 'arbiter_schema' ORDER BY 1",
    "columns": "SELECT CAST(a.attname AS TEXT) AS name,"
    " CASE WHEN EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid"
    " AND i.indisprimary AND a.attnum = ANY (i.indkey)) THEN 1 ELSE 0 END AS pk,"
    " CASE WHEN a.attidentity != '' THEN 1 ELSE 0 END AS serial"
    " FROM pg_attribute a WHERE a.attrelid = CAST(CAST(? AS TEXT) AS regclass)"
    " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
    "parents": "SELECT DISTINCT CAST(p.relname AS TEXT) AS parent FROM pg_constraint f"
    " JOIN pg_class p ON p.oid = f.confrelid"
    " WHERE f.contype = 'f' AND f.conrelid = CAST(CAST(? AS TEXT) AS regclass)",
}


async def _catalogue(engine: str, fetch: Fetch) -> dict[str, _Table]:
    """Every table of a database's schema (the migrations' own bookkeeping aside)."""
    sql = _POSTGRESQL if engine == POSTGRESQL else _SQLITE
    tables = {}
    for row in await fetch(sql["tables"], ()):
        name = row["name"]
        # PostgreSQL reads the name as an identifier (quoted); SQLite's pragmas as text.
        named = quoted(name) if engine == POSTGRESQL else name
        columns = await fetch(sql["columns"], (named,))
        parents = await fetch(sql["parents"], (named,))
        tables[name] = _Table(
            name,
            tuple(c["name"] for c in columns),
            tuple(c["name"] for c in columns if c["pk"]),
            tuple(c["name"] for c in columns if c["serial"]),
            frozenset(p["parent"] for p in parents) - {name},
        )
    return tables


def filling_order(tables: Mapping[str, _Table]) -> list[str]:
    """The tables in the order they are filled: each after those it refers to (and
    after those FILLED_AFTER names)."""
    graph = {
        name: {t for t in (*table.parents, *FILLED_AFTER.get(name, ())) if t in tables}
        for name, table in sorted(tables.items())
    }
    return list(TopologicalSorter(graph).static_order())


def _carried(source: Mapping[str, _Table], target: Mapping[str, _Table]) -> list[_Table]:
    """The target's tables the copy fills, in the order it fills them (the target's
    tables the source lacks are none of Arbiter's: they are left alone). Refused when
    the source has a table, or a column, the target lacks: both were just brought to
    this Arbiter's schema, so they never should."""
    missing = sorted(
        name
        for name, table in source.items()
        if name not in NOT_CARRIED
        and (name not in target or set(table.columns) != set(target[name].columns))
    )
    if missing:
        raise TransferRefused(
            "The source and the target don't have the same tables and columns "
            f"({', '.join(missing)}), though both are at this Arbiter's schema: nothing "
            "was copied."
        )
    shared = {name: table for name, table in target.items() if name in source}
    return [shared[name] for name in filling_order(shared) if name not in NOT_CARRIED]


# ---------------------------------------------------------------- the copy


async def pages(fetch: Fetch, table: _Table) -> AsyncIterator[list[tuple[Any, ...]]]:
    """A table's rows (its columns in `table.columns` order), a page at a time, in the
    order of its primary key."""
    select = f"SELECT {', '.join(map(quoted, table.columns))} FROM {quoted(table.name)}"
    if not table.key:
        rows = await fetch(select, ())
        if rows:
            yield [tuple(row[c] for c in table.columns) for row in rows]
        return
    key = ", ".join(map(quoted, table.key))
    order = f" ORDER BY {key} LIMIT {PAGE}"
    after: tuple[Any, ...] | None = None
    while True:
        if after is None:
            rows = await fetch(select + order, ())
        else:
            marks = ", ".join("?" for _ in after)
            rows = await fetch(f"{select} WHERE ({key}) > ({marks}){order}", after)
        if rows:
            yield [tuple(row[c] for c in table.columns) for row in rows]
        if len(rows) < PAGE:
            return
        after = tuple(rows[-1][c] for c in table.key)


def digest(rows: Iterable[tuple[Any, ...]]) -> int:
    """A sum of the rows' hashes that doesn't depend on their order (both engines
    return the same Python values for the same row)."""
    total = 0
    for row in rows:
        total += int.from_bytes(hashlib.blake2b(repr(row).encode(), digest_size=16).digest())
    return total % 2**128


async def _copy(
    readable: Store, writable: Store, replace: bool, report: TransferReport
) -> tuple[list[_Table], dict[str, int]]:
    """Copy every table in one transaction on the target; the tables, in copy order, and
    the digest of each one's rows as read from the source."""
    source, target = readable.db.engine, writable.db.engine
    digests: dict[str, int] = {}
    async with source.transaction(_nothing, _nothing) as reading:
        if source.name == POSTGRESQL:
            await reading.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        held = await _catalogue(source.name, reading.fetch)
        async with target.transaction(writable.db.forget_all, writable.db.forget_all) as writing:
            if source.name == target.name == POSTGRESQL:
                await _not_the_same_database(reading, writing)
            order = _carried(held, await _catalogue(target.name, writing.fetch))
            found = {t.name: await _count(writing.fetch, t) for t in order}
            if any(found.values()):
                if not replace:
                    raise TransferRefused(_not_empty(found))
                await _empty(target.name, writing, order)
                report.emptied = sum(found.values())
            for table in order:
                try:
                    report.copied[table.name], digests[table.name] = await _copy_table(
                        reading, writing, table
                    )
                except Exception as error:  # the target's transaction is undone
                    raise TransferRefused(
                        f"Copying the table {table.name} failed, so nothing was copied: {error}"
                    ) from error
            if target.name == POSTGRESQL:
                await _move_sequences(writing, order)
            await writing.announce({EVERYTHING})  # a bot already on the target forgets
    return order, digests


async def _copy_table(reading: Tx, writing: Tx, table: _Table) -> tuple[int, int]:
    """Copy one table's rows; how many, and their digest."""
    insert = (
        f"INSERT INTO {quoted(table.name)} ({', '.join(map(quoted, table.columns))})"
        f" VALUES ({', '.join('?' for _ in table.columns)})"
    )
    count = total = 0
    async for page in pages(reading.fetch, table):
        await writing.executemany(insert, page)
        count += len(page)
        total += digest(page)
    return count, total % 2**128


def _nothing() -> None:
    """The source's transaction only reads: nothing to do when it ends."""


async def _not_the_same_database(reading: Tx, writing: Tx) -> None:
    """Refuse two PostgreSQL addresses of one database: an advisory lock the source's
    transaction takes can't be taken by the target's when they share the database
    (advisory locks belong to a database)."""
    key = secrets.randbits(62)
    await reading.fetch("SELECT pg_advisory_xact_lock(?)", (key,))
    free = await writing.fetch("SELECT pg_try_advisory_xact_lock(?) AS free", (key,))
    if not free[0]["free"]:
        raise TransferRefused(
            "The source and the target are the same database: nothing was copied."
        )


async def _count(fetch: Fetch, table: _Table) -> int:
    rows = await fetch(f"SELECT COUNT(*) AS n FROM {quoted(table.name)}", ())
    return int(rows[0]["n"])


def _not_empty(found: Mapping[str, int]) -> str:
    """Why a target that holds rows is refused."""
    matches = found.get("matches", 0)
    others = sum(found.values()) - matches
    held = []
    if matches:
        held.append(f"{matches:,} match{'es' if matches != 1 else ''}")
    if others:
        held.append(f"{others:,} other row{'s' if others != 1 else ''}")
    return (
        f"The target database isn't empty (it holds {' and '.join(held)}): nothing was "
        "copied. To empty it and copy over it, run the move again with --replace."
    )


async def _empty(engine: str, writing: Tx, order: Sequence[_Table]) -> None:
    """Remove every row of the target (the caller asked to replace what it holds).

    The action log refuses deletes (migration 0001's triggers). PostgreSQL's TRUNCATE
    fires no row trigger; SQLite has none, so its triggers are set aside for the
    deletes and put back as they were, in the same transaction."""
    if engine == POSTGRESQL:
        await writing.execute(f"TRUNCATE TABLE {', '.join(quoted(t.name) for t in order)}")
        return
    triggers = await writing.fetch(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL"
        " ORDER BY name",
    )
    for trigger in triggers:
        await writing.execute(f"DROP TRIGGER {quoted(trigger['name'])}")
    for table in reversed(order):  # those referring to others first
        await writing.execute(f"DELETE FROM {quoted(table.name)}")
    for trigger in triggers:
        await writing.execute(trigger["sql"])


async def _move_sequences(writing: Tx, order: Sequence[_Table]) -> None:
    """Start each PostgreSQL identity past the ids copied, so a new row never takes one
    (SQLite's AUTOINCREMENT follows the largest id inserted by itself)."""
    for table in order:
        for column in table.serial:
            await writing.fetch(
                f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({quoted(column)}),"
                f" 0) + 1, false) FROM {quoted(table.name)}",
                (quoted(table.name), column),
            )


# ---------------------------------------------------------------- the checks


async def _compare(
    writable: Store, tables: Sequence[_Table], digests: Mapping[str, int], report: TransferReport
) -> None:
    """Read every table back from the target, as committed: the same number of rows,
    and the same rows, as read from the source."""
    for table in tables:
        count = total = 0
        async for page in pages(writable.db.engine.read, table):
            count += len(page)
            total += digest(page)
        if count != report.copied[table.name] or total % 2**128 != digests[table.name]:
            report.differing.append(table.name)
