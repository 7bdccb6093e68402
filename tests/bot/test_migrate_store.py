"""Moving a server to PostgreSQL (issue 24): `python -m bot migrate-store` copies a SQLite
file with matches of all four games in every state (a lobby, in play, finished,
abandoned, an undone action, a seat handed over, pending outbox rows, armed deadlines,
a pause, a vacation, server and player settings) into PostgreSQL; every row arrives as
it was, every match replays there, and play goes on there. A target that holds rows is
refused unless told to replace them."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import shutil
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.__main__ import main
from bot.service.clock import ClockService
from bot.service.matches import MatchService
from bot.service.moving import copy_store
from bot.service.stats import Stats
from bot.service.store import Store, TurnMessage, migrations
from bot.service.store.transfer import TransferRefused, shown
from rules.registry import GAMES
from tests.bot.outside import one, outside

pytestmark = pytest.mark.engines("postgresql")

GUILD = 1
MODERATOR = 99
NEWCOMER = 77
# The tables of the issue; all of them hold rows in the source.
TABLES = {
    "matches", "seats", "actions", "undone", "seat_replacements", "results", "guild_settings",
    "match_log", "deadlines", "pauses", "pause_votes", "seat_clocks", "notify",
    "turn_messages", "outbox", "standing_answers", "player_settings",
}  # fmt: skip
STEPS = 8  # random legal actions taken in each match in play
SEQ = "sqlite_sequence"  # SQLite's own bookkeeping
Row = tuple[object, ...]


@dataclass
class Source:
    """A SQLite file built through the services, and which match is which."""

    path: Path
    ids: dict[str, int] = field(default_factory=dict)


def now() -> datetime:
    return datetime.now(UTC)


class Services:
    """The services a bot builds on a store (without Discord)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.matches = MatchService(store)
        self.clock = ClockService(self.matches, now)
        self.matches.on_change(self.clock.on_change)
        Stats(self.matches, store.results, store.ratings)

    async def start(
        self, game: str, variant: str, players: int, channel: int, *, begin: bool = True
    ) -> int:
        """A match of `players` seated (users 1, 2...); started unless `begin` is False."""
        table = await self.matches.new_lobby(
            guild_id=GUILD,
            channel_id=channel,
            user_id=1,
            name="P1",
            game=game,
            variant=variant,
            seed=channel,
        )
        for user in range(2, players + 1):
            await self.matches.join(table.match.id, user, f"P{user}")
        if begin:
            await self.matches.start(table.match.id, 1)
        return table.match.id

    async def play(self, match_id: int, steps: int, rng: random.Random) -> None:
        """Take `steps` random legal actions (fewer if the match ends)."""
        for _ in range(steps):
            table = await self.matches.table(match_id)
            if table.match.status != "active":
                return
            game = self.matches.game(table.match.game)
            assert table.match.snapshot is not None
            state = game.state_model.model_validate_json(table.match.snapshot)
            legal = [
                (seat, action)
                for seat in sorted(game.to_act(state))
                for action in game.legal_actions(state, seat)
            ]
            seat, action = rng.choice(legal)
            await self.matches.act(match_id, table.user_of(seat).user_id, action.key)


async def build(path: Path) -> Source:
    """Matches of every game in every state, and every kind of row beside them."""
    source = Source(path)
    store = await Store.open(path)
    services = Services(store)
    matches, clock, ids = services.matches, services.clock, source.ids
    rng = random.Random(24)
    try:
        ids["cancelled"] = await services.start("tooth-and-nail", "2p", 1, 10, begin=False)
        await matches.cancel(ids["cancelled"], 1)
        ids["lobby"] = await services.start("tooth-and-nail", "2p", 2, 10, begin=False)
        for number, game in enumerate(GAMES, start=1):
            ids[game] = await services.start(game, "2p", 2, 100 + number)
            await services.play(ids[game], STEPS, rng)
        ids["solo"] = await services.start("mystic-vale", "solo", 1, 110)
        await services.play(ids["solo"], STEPS, rng)
        ids["four"] = await services.start("tooth-and-nail", "4p", 4, 111)
        await services.play(ids["four"], STEPS, rng)

        ids["finished"] = await services.start("command-of-nature", "2p", 2, 120)
        await services.play(ids["finished"], 4, rng)
        await matches.concede(ids["finished"], 2)
        ids["abandoned"] = await services.start("mystic-vale", "2p", 2, 121)
        await services.play(ids["abandoned"], 4, rng)
        version = (await matches.get(ids["abandoned"])).version
        await matches.abandon(
            ids["abandoned"], version=version, note="Abandoned at its deadline.", leaver=0
        )

        await matches.undo(ids["tooth-and-nail"], MODERATOR, force=True)
        await services.play(ids["tooth-and-nail"], 2, rng)
        await matches.replace_seat(
            ids["historia-command"], 2, NEWCOMER, "Newcomer", moderator_id=MODERATOR
        )
        await services.play(ids["historia-command"], 2, rng)
        await clock.pause(ids["command-of-nature"], MODERATOR, moderator=True)
        await clock.pause(ids["four"], 1, moderator=False)  # one vote of four
        await clock.vacation(ids["mystic-vale"], 2, "1d")

        await store.settings.update_guild(
            GUILD, mod_role_id=5, match_channels=[101, 102], default_clock_seconds=7200
        )
        await clock.set_notify(1, True)
        await clock.set_notify(2, True)
        await clock.dm_closed(ids["mystic-vale"], 2)
        await store.settings.set_standing_answer(
            3, "command-of-nature", next(iter(GAMES["command-of-nature"].preferences)), True
        )
        await store.settings.set_player_pictures(3, "text")
        table = await matches.table(ids["tooth-and-nail"])
        store.matches.set_turn_message(
            TurnMessage(table.match.id, 5551, table.turn, "the turn's lines")
        )
        store.matches.set_board_message(table.match.id, 5550)
        # Some notices delivered, one given up, one failed once; the rest still pending.
        notices = await store.outbox.rows()
        for row in notices[:5]:
            store.outbox.mark_delivered(row.id)
        await store.outbox.give_up(notices[5].id, "the channel is gone")
        await store.outbox.note_failure(notices[6].id, "503 Service Unavailable")
        await store.db.flush()
    finally:
        await store.close()
    return source


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Source:
    """The source, built once per test runner (each test copies it)."""
    return asyncio.run(build(tmp_path_factory.mktemp("source") / "arbiter.db"))


@pytest.fixture
def source(built: Source, tmp_path: Path) -> Source:
    """This test's own copy of the source file."""
    path = tmp_path / "arbiter.db"
    shutil.copyfile(built.path, path)
    return Source(path, dict(built.ids))


async def contents(sqlite: Path, database: str) -> dict[str, tuple[list[Row], list[Row]]]:
    """Each table's rows in the SQLite file and in the other database, sorted, read with
    connections of their own (the columns by name, in SQLite's order)."""
    found = {}
    names = await outside(
        str(sqlite), "SELECT name FROM sqlite_master WHERE type = 'table' AND name != ?", SEQ
    )
    for (table,) in names:
        columns = await outside(str(sqlite), "SELECT name FROM pragma_table_info(?)", table)
        picked = ", ".join('"' + column + '"' for (column,) in columns)
        sql = f'SELECT {picked} FROM "{table}"'
        found[table] = (
            sorted(await outside(str(sqlite), sql), key=repr),
            sorted(await outside(database, sql), key=repr),
        )
    return found


async def test_a_sqlite_file_moves_to_postgresql_and_plays_on(
    source: Source, database: str
) -> None:
    report = await copy_store(source.path, database)
    assert report.ok, str(report)
    copied = await contents(source.path, database)
    assert set(copied) >= set(report.copied) >= TABLES
    for table, (before, after) in copied.items():
        assert before == after, table
        assert report.copied.get(table, 0) == len(before), table
    assert all(copied[table][0] for table in TABLES)  # the source holds every kind of row
    started = len(source.ids) - 2  # all but the lobby and the cancelled one
    assert (report.replayed, report.not_started, report.failed) == (started, 2, {})
    assert str(report).endswith("Done: Arbiter can run on the target now.")

    store = await Store.open(database)
    try:
        services = Services(store)
        matches = services.matches
        assert await store.outbox.pending_lanes()  # the publisher delivers them at start-up
        last_notice = await one(database, "SELECT MAX(id) FROM outbox")
        for game in GAMES:
            match_id = source.ids[game]
            assert (await matches.get(match_id)).status == "active"
            assert await store.clocks.deadlines(match_id)  # armed in the source
            await services.play(match_id, 3, random.Random(game))
            assert await matches.verify(match_id)
            version = (await matches.get(match_id)).version
            assert {d.version for d in await store.clocks.deadlines(match_id)} == {
                version
            }  # re-armed
        assert await one(database, "SELECT MIN(id) FROM outbox WHERE id > ?", last_notice)
        assert (await store.matches.seats(source.ids["historia-command"]))[1].user_id == NEWCOMER
        lobby = await services.start("tooth-and-nail", "2p", 2, 999, begin=False)
        assert lobby == max(source.ids.values()) + 1  # past the copied ids
        await matches.start(lobby, 1)
        await services.play(lobby, 3, random.Random(lobby))
        assert await matches.verify(lobby)
    finally:
        await store.close()


async def test_a_target_holding_rows_is_refused_unless_replaced(
    source: Source, database: str
) -> None:
    first = await copy_store(source.path, database)
    store = await Store.open(database)
    services = Services(store)
    await services.start("mystic-vale", "2p", 2, 999)  # the target moves on
    await store.close()
    held = await one(database, "SELECT COUNT(*) FROM matches")
    rows = [await one(database, f'SELECT COUNT(*) FROM "{table}"') for table in first.copied]
    with pytest.raises(TransferRefused) as refused:
        await copy_store(source.path, database)
    assert str(refused.value) == (
        f"The target database isn't empty (it holds {held} matches and {sum(rows) - held} "
        "other rows): nothing was copied. To empty it and copy over it, run the move again "
        "with --replace."
    )
    assert await one(database, "SELECT COUNT(*) FROM matches") == held  # untouched

    again = await copy_store(source.path, database, replace=True)
    assert again.ok, str(again)
    assert again.emptied > sum(first.copied.values())
    assert again.copied == first.copied
    for table, (before, after) in (await contents(source.path, database)).items():
        assert before == after, table
    assert "earlier rows were removed first" in str(again)


async def test_a_copy_that_arrives_changed_fails_its_checks(source: Source, database: str) -> None:
    """A target that changes rows as they arrive (here, every match's seed): the rows
    differ, and the matches no longer replay to their saved states (but Historia's: the
    referee of a table deals nothing, so its seed changes nothing)."""
    await (await Store.open(database)).close()
    conn = await asyncpg.connect(database)
    try:
        await conn.execute(GARBLE)
    finally:
        await conn.close()
    report = await copy_store(source.path, database)
    assert not report.ok
    assert report.differing == ["matches"]
    dealt = [
        v for k, v in source.ids.items() if k not in ("lobby", "cancelled", "historia-command")
    ]
    assert (sorted(report.failed), report.failed_before, report.replayed) == (sorted(dealt), {}, 1)
    text = str(report)
    assert "These tables do not hold the same rows in both databases: matches." in text
    assert f"Match {source.ids['mystic-vale']} does not replay on the target: " in text
    assert text.endswith("The check FAILED: keep running Arbiter on the source, and report this.")


GARBLE = """
CREATE FUNCTION garble() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.seed := NEW.seed + 1;
    RETURN NEW;
END
$$;
CREATE TRIGGER garble BEFORE INSERT ON matches FOR EACH ROW EXECUTE FUNCTION garble();
"""


async def test_one_database_is_not_copied_into_itself(source: Source, database: str) -> None:
    await copy_store(source.path, database)
    with pytest.raises(TransferRefused) as refused:
        await copy_store(database, database, replace=True)
    assert str(refused.value) == SAME.format("database")
    with pytest.raises(TransferRefused) as refused:
        await copy_store(source.path, source.path.parent / "." / source.path.name, replace=True)
    assert str(refused.value) == SAME.format("file")
    assert await one(database, "SELECT COUNT(*) FROM matches") == len(source.ids)


SAME = "The source and the target are the same {}: nothing was copied."


async def test_postgresql_moves_to_a_sqlite_file_too(
    source: Source, database: str, tmp_path: Path
) -> None:
    """Any engine to any: back from PostgreSQL into a SQLite file holding rows, replaced
    (its append-only log emptied for it, and append-only again after)."""
    await copy_store(source.path, database)
    target = tmp_path / "back.db"
    shutil.copyfile(source.path, target)
    triggers = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    before = await outside(str(target), triggers)
    report = await copy_store(database, target, replace=True)
    assert report.ok, str(report)
    assert report.emptied == sum(report.copied.values())
    for table, (rows, copied) in (await contents(source.path, str(target))).items():
        assert rows == copied, table
    assert await outside(str(target), triggers) == before
    with closing(sqlite3.connect(target)) as db, pytest.raises(sqlite3.IntegrityError):
        db.execute("DELETE FROM actions")


async def test_postgresql_moves_to_another_postgresql_database(
    source: Source, database: str, postgres_server: Any
) -> None:
    await copy_store(source.path, database)
    name = f"moved_{os.getpid()}_{secrets.token_hex(4)}"
    postgres_server.psql(f"CREATE DATABASE {name};")
    other = str(postgres_server.get_uri(name))
    report = await copy_store(database, other)
    assert report.ok, str(report)
    for table, (rows, copied) in (await contents(source.path, other)).items():
        assert rows == copied, table


async def test_a_row_the_target_refuses_leaves_it_as_it_was(source: Source, database: str) -> None:
    """SQLite keeps what a column of another type is given; PostgreSQL refuses it, and
    the whole copy with it."""
    with closing(sqlite3.connect(source.path)) as db, db:
        db.execute("INSERT INTO notify (user_id, enabled) VALUES (5, 'yes')")
    with pytest.raises(TransferRefused) as refused:
        await copy_store(source.path, database)
    assert str(refused.value).startswith("Copying the table notify failed, so nothing was copied: ")
    assert await one(database, "SELECT COUNT(*) FROM matches") == 0


async def test_an_older_sqlite_file_is_read_at_the_current_schema_and_left_as_it_was(
    tmp_path: Path, database: str
) -> None:
    """An older file (a backup, say) is brought up to date in a copy of its own: the
    file itself keeps its schema, and an older Arbiter can still open it."""
    older = tmp_path / "migrations"
    older.mkdir()
    for _, path in migrations()[:9]:
        shutil.copy(path, older)
    path = tmp_path / "old.db"
    await (await Store.open(path, migrations_dir=older)).close()
    report = await copy_store(path, database)
    assert report.ok and not any(report.copied.values())
    assert await one(str(path), "PRAGMA user_version") == 9
    target = await Store.open(database)
    try:
        assert await target.db.schema_version() == len(migrations())
    finally:
        await target.close()


def test_the_command_line(
    source: Source, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    move = ["migrate-store", "--from", str(source.path), "--to", database]
    assert main(move) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"Copied {source.path} into {shown(database)} in ")
    assert main(move) == 2
    assert "run the move again with --replace" in capsys.readouterr().err
    assert main([*move, "--replace"]) == 0
    assert "Done: Arbiter can run on the target now." in capsys.readouterr().out
    missing = ["migrate-store", "--from", str(source.path.parent / "none.db"), "--to", database]
    assert main(missing) == 2
    assert capsys.readouterr().err.startswith("There is no database file at ")


def test_a_password_is_not_shown() -> None:
    assert shown("postgresql://arbiter:s3cret@db:5432/arbiter") == (
        "postgresql://arbiter:***@db:5432/arbiter"
    )
    assert shown("postgresql://arbiter@db/arbiter") == "postgresql://arbiter@db/arbiter"
    assert shown("arbiter.db") == "arbiter.db"
