"""The store's engines: one schema in two dialects, migrations applied once on each (by
processes starting together, too), a database newer than the code refused with a
sentence, and the SQL written once read alike by both."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.service.store import MIGRATIONS_DIR, NewerSchema, Store, is_postgresql, migrations
from bot.service.store.engine import POSTGRESQL
from bot.service.store.postgresql import numbered
from tests.bot.outside import one

pytestmark = pytest.mark.engines


def copied(tmp_path: Path) -> Path:
    """A copy of the migrations, both dialects, to add to."""
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, directory)
    return directory


def add(directory: Path, number: int, name: str, sql: str) -> None:
    """A migration in both dialects."""
    for folder in (directory, directory / POSTGRESQL):
        (folder / f"{number:04d}_{name}.sql").write_text(sql, encoding="utf-8")


@pytest.mark.engines("sqlite")
def test_both_dialects_hold_the_same_migrations() -> None:
    sqlite = [path.name for _, path in migrations()]
    postgresql = [path.name for _, path in migrations(MIGRATIONS_DIR / POSTGRESQL)]
    assert sqlite == postgresql and len(sqlite) >= 12


async def test_migrations_run_in_order_once_and_a_gap_is_refused(
    database: str, tmp_path: Path
) -> None:
    directory = copied(tmp_path)
    extra = len(migrations()) + 1
    add(directory, extra, "notes", "CREATE TABLE notes (id INTEGER);")
    store = await Store.open(database, migrations_dir=directory)
    assert await store.db.schema_version() == extra
    await store.close()
    again = await Store.open(database, migrations_dir=directory)  # nothing left to apply
    assert await again.db.schema_version() == extra
    await again.close()
    add(directory, extra + 2, "gap", "SELECT 1;")
    with pytest.raises(RuntimeError, match="breaks the sequence"):
        await Store.open(database, migrations_dir=directory)


async def test_a_database_newer_than_the_code_is_refused_with_a_sentence(
    database: str, tmp_path: Path
) -> None:
    directory = copied(tmp_path)
    known = len(migrations())
    add(directory, known + 1, "later", "CREATE TABLE later (id INTEGER);")
    await (await Store.open(database, migrations_dir=directory)).close()
    with pytest.raises(NewerSchema) as refused:
        await Store.open(database)  # this code knows one migration fewer
    assert str(refused.value).startswith(
        f"This database is at schema version {known + 1}, written by a newer Arbiter: this "
        f"one knows the migrations up to {known}."
    )


async def test_a_failed_migration_leaves_the_schema_where_it_was(
    database: str, tmp_path: Path
) -> None:
    directory = copied(tmp_path)
    known = len(migrations())
    add(directory, known + 1, "broken", "CREATE TABLE half (id INTEGER);\nNOT SQL AT ALL;")
    with pytest.raises(Exception):  # noqa: B017 - each engine says it in its own words
        await Store.open(database, migrations_dir=directory)
    store = await Store.open(database)
    try:
        assert await store.db.schema_version() == known
    finally:
        await store.close()
    assert not await one(
        database,
        "SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'"
        if not is_postgresql(database)
        else "SELECT COUNT(*) FROM pg_tables WHERE tablename = 'half'",
    )


@pytest.mark.engines("postgresql")
async def test_processes_starting_together_apply_each_migration_once(database: str) -> None:
    stores = await asyncio.gather(*(Store.open(database) for _ in range(4)))
    try:
        assert {await s.db.schema_version() for s in stores} == {len(migrations())}
        assert await one(database, "SELECT COUNT(*) FROM arbiter_schema") == 1
    finally:
        for store in stores:
            await store.close()


@pytest.mark.engines("sqlite")
def test_postgresql_numbers_the_parameters_but_not_a_question_mark_in_a_string() -> None:
    assert numbered("SELECT ? WHERE a = '?' AND b = ? AND c = 'it''s ?'") == (
        "SELECT $1 WHERE a = '?' AND b = $2 AND c = 'it''s ?'"
    )


async def test_a_discord_sized_id_and_seed_round_trip(database: str) -> None:
    """Discord's ids and the largest seed a player may choose fit either engine."""
    store = await Store.open(database)
    try:
        big = (1 << 62) + 12345
        match = await store.matches.create(
            guild_id=big,
            channel_id=big + 1,
            game="tally",
            variant="duel",
            seed=2**53 - 1,
            rules_version="1",
            created_by=big + 2,
            host_name="alice",
            pack="none",
        )
        assert (match.guild_id, match.channel_id, match.seed) == (big, big + 1, 2**53 - 1)
        assert (await store.matches.seats(match.id))[0].user_id == big + 2
    finally:
        await store.close()
