"""The clock's parts on their own: durations, the scheduler, and the migration that
rebuilt `matches` (on a database that already holds matches)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from collections.abc import Hashable
from datetime import datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.service import errors
from bot.service.scheduler import Scheduler
from bot.service.store import Store, migrations
from bot.service.timing import (
    DAY,
    HOUR,
    MINUTE,
    format_duration,
    out_of_turn_clock,
    parse_clock,
    parse_duration,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30m", 30 * MINUTE),
        ("24h", DAY),
        ("3d", 3 * DAY),
        ("1d 12h", DAY + 12 * HOUR),
        ("1d12h", DAY + 12 * HOUR),
        (" 2 Hours ", 2 * HOUR),
        ("1 week", 7 * DAY),
        ("90s", 90),
        ("1h, 30 minutes", 90 * MINUTE),
    ],
)
def test_durations_are_read_as_typed(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "30", "m30", "3 parsecs", "-5m", "1.5h", "1h soon"])
def test_what_is_not_a_duration_gets_a_sentence(text: str) -> None:
    with pytest.raises(errors.BadDuration, match="isn't a duration I understand"):
        parse_duration(text)


@pytest.mark.parametrize("text", ["9" * 5000 + "m", "1" * 8 + "s", "1m " * 20, "9" * 4301])
def test_a_duration_too_long_to_be_one_is_refused_before_it_is_read(text: str) -> None:
    """The red team's durations of thousands of digits: a sentence, not a ValueError."""
    with pytest.raises(errors.BadDuration, match="far longer than any duration"):
        parse_duration(text)


def test_zero_is_no_time_at_all() -> None:
    with pytest.raises(errors.BadDuration, match="no time at all"):
        parse_duration("0h")


def test_a_clock_runs_from_five_minutes_to_fourteen_days() -> None:
    assert parse_clock("5m") == 5 * MINUTE
    assert parse_clock("14d") == 14 * DAY
    for text, asked in (("4m", "4 minutes"), ("15d", "15 days")):
        with pytest.raises(errors.BadDuration) as refused:
            parse_clock(text)
        assert refused.value.message == (
            f"A clock must be from 5 minutes to 14 days per decision (you asked for {asked})."
        )


def test_out_of_turn_clocks_are_a_quarter_and_at_least_five_minutes() -> None:
    assert out_of_turn_clock(DAY) == 6 * HOUR
    assert out_of_turn_clock(HOUR) == 15 * MINUTE
    assert out_of_turn_clock(10 * MINUTE) == 5 * MINUTE
    assert out_of_turn_clock(5 * MINUTE) == 5 * MINUTE


def test_durations_read_in_words() -> None:
    assert format_duration(3 * DAY) == "3 days"
    assert format_duration(DAY + 12 * HOUR) == "1 day 12 hours"
    assert format_duration(DAY + 5 * MINUTE) == "1 day"
    assert format_duration(90 * MINUTE) == "1 hour 30 minutes"
    assert format_duration(1) == "1 second"
    assert format_duration(0) == "0 seconds"


# ---------------------------------------------------------------- scheduler


def soon(seconds: float) -> datetime:
    return discord.utils.utcnow() + timedelta(seconds=seconds)


async def test_the_scheduler_fires_in_time_order_and_honours_re_arming() -> None:
    fired: list[Hashable] = []
    done = asyncio.Event()

    async def fire(key: Hashable) -> None:
        fired.append(key)
        if key == "last":
            done.set()

    scheduler = Scheduler(fire, discord.utils.utcnow)
    scheduler.load([("b", soon(0.04)), ("a", soon(0.02)), ("gone", soon(0.01))])
    scheduler.start()
    scheduler.disarm("gone")
    scheduler.arm("c", soon(0.03))
    scheduler.arm("a", soon(0.05))  # re-armed: only the later moment counts
    scheduler.arm("last", soon(0.06))
    await asyncio.wait_for(done.wait(), 2)
    await scheduler.stop()
    assert fired == ["c", "b", "a", "last"]
    assert len(scheduler) == 0


async def test_an_earlier_moment_wakes_the_scheduler_early() -> None:
    fired = asyncio.Event()

    async def fire(key: Hashable) -> None:
        fired.set()

    scheduler = Scheduler(fire, discord.utils.utcnow)
    scheduler.load([("late", soon(3600))])
    scheduler.start()
    await asyncio.sleep(0.01)  # asleep until the late one
    started = time.perf_counter()
    scheduler.arm("early", soon(0.02))
    await asyncio.wait_for(fired.wait(), 2)
    assert time.perf_counter() - started < 1
    assert scheduler.when("late") is not None
    await scheduler.stop()


async def test_a_failing_entry_is_logged_and_the_next_still_fires(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fired: list[Hashable] = []

    async def fire(key: Hashable) -> None:
        if key == "bad":
            raise RuntimeError("broken")
        fired.append(key)

    scheduler = Scheduler(fire, discord.utils.utcnow)
    scheduler.load([("bad", soon(0)), ("good", soon(0.01))])
    scheduler.start()
    for _ in range(200):
        if fired:
            break
        await asyncio.sleep(0.01)
    await scheduler.stop()
    assert fired == ["good"]
    assert "firing 'bad' failed" in caplog.text
    caplog.clear()


# ---------------------------------------------------------------- migration


async def test_the_clock_migration_keeps_every_row_and_allows_abandoned(tmp_path: Path) -> None:
    """0004 rebuilds `matches` (to change its status CHECK) under live references."""
    old = tmp_path / "old-migrations"
    old.mkdir()
    for number, path in migrations():
        if number <= 3:
            shutil.copy(path, old / path.name)
    db_path = tmp_path / "arbiter.db"
    await (await Store.open(db_path, migrations_dir=old)).close()

    db = sqlite3.connect(db_path)
    now = "2026-01-01T00:00:00.000+00:00"
    db.execute(
        "INSERT INTO guild_settings (guild_id, default_clock_seconds, default_timeout_policy,"
        " updated_at) VALUES (10, 7200, 'abandon', ?)",
        (now,),
    )
    for match_id, guild, channel, status in (
        (1, 10, 100, "finished"),
        (2, 10, 100, "active"),
        (3, 20, 200, "lobby"),
        (5, None, 300, "cancelled"),
    ):
        db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, game, variant, seed, rules_version,"
            " status, snapshot, version, created_by, created_at, updated_at, seed_chosen)"
            " VALUES (?, ?, ?, 'tally', 'duel', 7, '1', ?, '{}', 1, 1, ?, ?, 1)",
            (match_id, guild, channel, status, now, now),
        )
        db.execute(
            "INSERT INTO seats (match_id, seat, user_id, display_name, decisions)"
            " VALUES (?, 0, 1, 'alice', 1)",
            (match_id,),
        )
        db.execute(
            "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
            " VALUES (?, 1, 0, 1, '{}', '[]', ?)",
            (match_id, now),
        )
    db.execute(
        "INSERT INTO match_log (match_id, version, kind, text, created_at)"
        " VALUES (2, 1, 'note', 'kept', ?)",
        (now,),
    )
    db.execute("DELETE FROM sqlite_sequence")
    db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('matches', 9)")
    db.commit()
    before = db.execute("SELECT * FROM seats ORDER BY match_id").fetchall()
    db.close()

    store = await Store.open(db_path)
    try:
        assert await store.db.schema_version() == len(migrations())
        two = await store.matches.get(2)
        assert two is not None
        assert (two.status, two.version, two.seed_chosen) == ("active", 1, True)
        assert (two.clock_seconds, two.timeout_policy) == (7200, "abandon")  # its server's
        three = await store.matches.get(3)
        assert three is not None and (three.clock_seconds, three.timeout_policy) == (86400, "skip")
        assert len(await store.matches.actions(2)) == 1
        assert [e.text for e in await store.log.entries(2)] == ["kept"]
        assert await store.matches.abandon(2, expected_version=1)
        assert (await store.matches.get(2)).status == "abandoned"  # type: ignore[union-attr]
        fresh = await store.matches.create(
            guild_id=10,
            channel_id=100,  # free again: the abandoned match is closed
            game="tally",
            variant="duel",
            seed=1,
            rules_version="1",
            created_by=1,
            host_name="alice",
            pack="bundled",
        )
        assert fresh.id == 10  # the id counter was kept
    finally:
        await store.close()

    db = sqlite3.connect(db_path)
    kept = db.execute("SELECT * FROM seats WHERE match_id < 10 ORDER BY match_id").fetchall()
    assert [row[: len(before[0])] for row in kept] == before  # later migrations add columns
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute("UPDATE matches SET status = 'lost' WHERE id = 1")
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute("UPDATE matches SET status = 'lobby' WHERE id = 1")  # 10 is open there
    db.close()


async def test_a_migration_that_breaks_references_is_rolled_back(tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    for _, path in migrations():
        shutil.copy(path, directory / path.name)
    db_path = tmp_path / "arbiter.db"
    store = await Store.open(db_path, migrations_dir=directory)
    await store.matches.create(
        guild_id=1,
        channel_id=1,
        game="tally",
        variant="duel",
        seed=1,
        rules_version="1",
        created_by=1,
        host_name="alice",
        pack="bundled",
    )
    await store.close()
    number = len(migrations()) + 1
    (directory / f"{number:04d}_orphans.sql").write_text("DELETE FROM matches;")
    with pytest.raises(RuntimeError, match=r"breaks references in \['seats'\]"):
        await Store.open(db_path, migrations_dir=directory)
    store = await Store.open(db_path)  # the real migrations: nothing was lost
    try:
        assert await store.db.schema_version() == number - 1
        assert await store.matches.get(1) is not None
    finally:
        await store.close()
