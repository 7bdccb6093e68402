"""Backups and restores (issue 44): `python -m bot backup` copies a SQLite store while
a match is being played on it (SQLite's online backup, one consistent moment), checks
the copy, and refuses what it can't back up; `python -m bot migrate-store` restores the
copy, every match replaying; and a PostgreSQL store goes through pg_dump and pg_restore
and opens again with every match replaying."""

from __future__ import annotations

import asyncio
import os
import random
import re
import secrets
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.service.matches import MatchService
from bot.service.moving import copy_store
from bot.service.store import Store, migrations
from bot.service.store.backup import backup
from tests.bot.outside import outside
from tests.ops.process import environment

BOT = (sys.executable, "-m", "bot")
PG_TOOLS = ("pg_dump", "pg_restore")
WARM = 20  # moves committed before the backup starts


class Players:
    """Tooth & Nail 2p matches played on a store, one random legal action at a time
    (each committed before the next), a new match whenever one ends."""

    def __init__(self, store: Store, channel: int = 100) -> None:
        self.matches = MatchService(store)
        self.versions: dict[int, int] = {}  # match id -> its last committed version
        self.moves = 0
        self.warm = asyncio.Event()  # set once WARM moves are committed
        self._rng = random.Random(44)
        self._channel = channel  # the last one used: each match has a channel of its own

    async def start(self) -> int:
        self._channel += 1
        table = await self.matches.new_lobby(
            guild_id=1,
            channel_id=self._channel,
            user_id=1,
            name="P1",
            game="tooth-and-nail",
            variant="2p",
            seed=self._channel,
        )
        match_id = table.match.id
        await self.matches.join(match_id, 2, "P2")
        await self.matches.start(match_id, 1)
        self.versions[match_id] = (await self.matches.get(match_id)).version
        return match_id

    async def move(self, match_id: int) -> bool:
        """One random legal action; False when the match is over."""
        table = await self.matches.table(match_id)
        if table.match.status != "active":
            return False
        game = self.matches.game(table.match.game)
        assert table.match.snapshot is not None
        state = game.state_model.model_validate_json(table.match.snapshot)
        seat, action = self._rng.choice(
            [(s, a) for s in sorted(game.to_act(state)) for a in game.legal_actions(state, s)]
        )
        await self.matches.act(match_id, table.user_of(seat).user_id, action.key)
        self.versions[match_id] = (await self.matches.get(match_id)).version
        self.moves += 1
        if self.moves >= WARM:
            self.warm.set()
        return True

    async def play(self, moves: int | None = None) -> None:
        """Play `moves` actions (None: until cancelled)."""
        match_id = await self.start()
        done = 0
        while moves is None or done < moves:
            if await self.move(match_id):
                done += 1
            else:
                match_id = await self.start()
            await asyncio.sleep(0.002)  # a table's pace, and room for the loop's other work


async def run(cwd: Path, *args: str) -> tuple[int, str, str]:
    """`python -m bot ARGS` in a process of its own (this loop runs on meanwhile): its
    exit status, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        *BOT,
        *args,
        cwd=cwd,
        env=environment(cwd, {}),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def read(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


async def test_a_backup_taken_while_a_match_is_played_restores_every_match(
    tmp_path: Path,
) -> None:
    live, copy, restored = tmp_path / "arbiter.db", tmp_path / "backup.db", tmp_path / "new.db"
    store = await Store.open(live)
    assert read(live, "PRAGMA journal_mode") == [("wal",)]  # readers and the writer side by side
    players = Players(store)
    table = asyncio.get_running_loop().create_task(players.play())
    try:
        await players.warm.wait()
        before, moves = dict(players.versions), players.moves  # committed before the backup
        status, out, err = await run(tmp_path, "backup", "--to", str(copy), "--from", str(live))
        during = dict(players.versions)
        assert players.moves > moves, "no move was committed while the backup ran"
    finally:
        table.cancel()
        with pytest.raises(asyncio.CancelledError):
            await table
        await store.close()
    assert (status, err) == (0, ""), err
    held = read(copy, "SELECT id, version FROM matches")
    actions = read(copy, "SELECT COUNT(*) FROM actions")[0][0]
    schema = len(migrations())
    assert re.fullmatch(
        rf"Backed up {re.escape(str(live))} into {re.escape(str(copy))} \([\d.,]+ MB\) in "
        rf"[\d.]+ s: schema {schema}, {len(held)} match(es)?, {actions:,} actions?; "
        r"integrity check ok\.\n",
        out,
    ), out
    assert read(copy, "PRAGMA journal_mode") == [("delete",)]  # one file on its own
    assert [name for name in names(tmp_path) if "backup" in name] == ["backup.db"]
    copied = dict(held)
    for match_id, version in before.items():  # nothing committed before the backup is lost
        assert version <= copied[match_id] <= during[match_id], match_id

    kept = copy.read_bytes()
    status, out, err = await run(
        tmp_path, "migrate-store", "--from", str(copy), "--to", str(restored)
    )
    assert (status, err) == (0, ""), out + err
    # The backup is read from a copy of its own: restoring it leaves the file as it was
    # (opened as a store, it would be switched to WAL and brought to the current schema).
    assert copy.read_bytes() == kept
    assert [name for name in names(tmp_path) if "backup" in name] == ["backup.db"]
    lines = out.splitlines()
    (replays,) = [line for line in lines if line.startswith("Replayed ")]
    replayed, lobbies = map(int, re.findall(r"(\d+) (?:match|not started)", replays))
    assert replayed + lobbies == len(held) and replayed >= len(before), replays
    assert lines[-1] == "Done: Arbiter can run on the target now."
    assert sorted(read(restored, "SELECT id, version FROM matches")) == sorted(held)
    assert read(restored, "SELECT COUNT(*) FROM actions") == [(actions,)]

    store = await Store.open(restored)  # and play goes on there
    try:
        players = Players(store, channel=10_000)
        await players.play(3)
        for match_id in players.versions:
            assert await players.matches.verify(match_id)
    finally:
        await store.close()


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A SQLite store with one match played a little."""

    async def build(path: Path) -> None:
        store = await Store.open(path)
        try:
            await Players(store).play(5)
        finally:
            await store.close()

    path = tmp_path / "arbiter.db"
    asyncio.run(build(path))
    return path


NOT_COPIED = ": nothing was copied"


@pytest.mark.parametrize(
    ("source", "target", "said"),
    [
        (
            "postgresql://arbiter:s3cret@db/arbiter",
            "{dir}/backup.db",
            "The database postgresql://arbiter:***@db/arbiter is a PostgreSQL server: back it "
            "up with pg_dump instead (see 'Running it for real' in the README).",
        ),
        (
            "{dir}/none.db",
            "{dir}/backup.db",
            "There is no database file at {dir}/none.db: nothing was copied.",
        ),
        (
            "{db}",
            "{dir}/taken.db",
            "There is a file at {dir}/taken.db already: nothing was copied (to write over it, "
            "run the backup again with --replace).",
        ),
        (
            "{db}",
            "{dir}/./arbiter.db",
            "The backup can't be written over its own source, {db}: nothing was copied.",
        ),
        (
            "{db}",
            "postgresql://arbiter@db/arbiter",
            "A backup is written to a file, not to a PostgreSQL server: to move the store "
            "there, use migrate-store.",
        ),
    ],
    ids=["postgresql", "missing", "taken", "itself", "into-postgresql"],
)
def test_what_cannot_be_backed_up_is_refused(
    stored: Path, source: str, target: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def filled(text: str) -> str:
        return text.format(dir=stored.parent, db=stored)

    taken = stored.parent / "taken.db"
    taken.write_bytes(b"an earlier backup")
    before = names(stored.parent)
    assert main(["backup", "--to", filled(target), "--from", filled(source)]) == 2
    printed = capsys.readouterr()
    assert (printed.out, printed.err) == ("", filled(said) + "\n")
    assert names(stored.parent) == before
    assert taken.read_bytes() == b"an earlier backup"
    if "taken" in target:  # unless told to replace it
        assert main(["backup", "--to", str(taken), "--from", str(stored), "--replace"]) == 0
        assert read(taken, "SELECT COUNT(*) FROM matches") == [(1,)]


def test_the_store_of_the_settings_is_backed_up_by_default(
    stored: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(stored.parent)
    monkeypatch.setenv("ARBITER_DB", "arbiter.db")
    assert main(["backup", "--to", "nightly.db"]) == 0
    assert capsys.readouterr().out.startswith("Backed up arbiter.db into nightly.db (")
    monkeypatch.setenv("ARBITER_DB", "gone.db")
    assert main(["backup", "--to", "other.db"]) == 2
    assert capsys.readouterr().err == "There is no database file at gone.db: nothing was copied.\n"


def test_a_damaged_store_fails_the_check_and_writes_nothing(
    stored: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index that no longer matches its table (its definition rewritten under it)."""
    with closing(sqlite3.connect(stored, isolation_level=None)) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)")
        db.execute("CREATE INDEX notes_a ON notes (a)")
        db.executemany("INSERT INTO notes (a, b) VALUES (?, ?)", [(i, -i) for i in range(9)])
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = 'CREATE INDEX notes_a ON notes (b)'"
            " WHERE name = 'notes_a'"
        )
    target = stored.parent / "backup.db"
    assert main(["backup", "--to", str(target), "--from", str(stored)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"The copy of {stored} fails SQLite's integrity check (row "), err
    assert err.endswith(f"so the source is likely damaged too: {target} was not written.\n")
    assert names(stored.parent) == ["arbiter.db"]


@pytest.mark.engines("postgresql")
async def test_a_sqlite_backup_restores_into_postgresql(stored: Path, database: str) -> None:
    copy = stored.parent / "backup.db"
    assert backup(stored, copy).ok
    report = await copy_store(copy, database)
    assert report.ok and (report.replayed, report.not_started) == (1, 0), str(report)


@pytest.mark.engines("postgresql")
async def test_postgresql_is_backed_up_with_pg_dump_and_restored_with_pg_restore(
    database: str, postgres_server: Any, tmp_path: Path
) -> None:
    import pgserver

    tools = Path(pgserver.__file__).parent / "pginstall" / "bin"
    pg_dump, pg_restore = (str(tools / name) for name in PG_TOOLS)
    store = await Store.open(database)
    try:
        players = Players(store)
        await players.play(12)
        await players.start()  # and a second one, just dealt
    finally:
        await store.close()

    dump = tmp_path / "arbiter.dump"
    await tool(pg_dump, "--format=custom", f"--file={dump}", database)
    name = f"restored_{os.getpid()}_{secrets.token_hex(4)}"
    postgres_server.psql(f"CREATE DATABASE {name};")
    restored = str(postgres_server.get_uri(name))
    await tool(
        pg_restore, "--no-owner", "--exit-on-error", "--single-transaction",
        f"--dbname={restored}", str(dump),
    )  # fmt: skip

    tables = [row[0] for row in await outside(database, TABLES)]
    assert {"matches", "actions", "seats", "arbiter_schema"} <= set(tables)
    for table in tables:  # every row as it was (the seats' decisions counted once)
        sql = f'SELECT * FROM "{table}"'
        assert sorted(await outside(restored, sql), key=repr) == sorted(
            await outside(database, sql), key=repr
        ), table

    store = await Store.open(restored)  # the schema is taken as it is: nothing to migrate
    try:
        assert await store.db.schema_version() == len(migrations())
        players = Players(store, channel=200)
        played = [match_id for (match_id,) in await outside(restored, MATCHES)]
        assert len(played) == 2
        for match_id in played:
            assert await players.matches.verify(match_id), match_id
        await players.play(2)  # a new match: its id past the restored ones
        assert min(players.versions) > max(played)
        assert await players.matches.verify(max(players.versions))
    finally:
        await store.close()


TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
MATCHES = "SELECT id FROM matches ORDER BY id"


async def tool(*command: str) -> None:
    """Run one of PostgreSQL's tools; it must succeed, silently."""
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate()
    assert (process.returncode, err) == (0, b""), (command, out, err)
