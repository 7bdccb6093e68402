"""The open match held in memory never serves a stale state: a commit by another
connection (a second process, a restore from a backup) is noticed at the next
interaction, which reads the match afresh."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path

import pytest

from bot.service.matches import MatchService
from bot.service.store import Store, TurnMessage
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.outside import one
from tests.bot.world import World

pytestmark = pytest.mark.engines


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def said(result: object) -> str:
    """The private answer of an interaction."""
    response = getattr(result, "response", None)
    assert response is not None
    return str(response.content)


async def test_an_action_taken_by_a_second_process_is_seen_by_the_next_interaction(
    world: World, database: str, bot_games: Mapping[str, Game]
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    match_id = world.match_id or 0
    assert (await world.match()).version == 1  # held in memory now

    # Another process on the same database takes bob's decision.
    other = await Store.open(database)
    try:
        await MatchService(other, bot_games).act(match_id, world.bob.id, "banner|azure")
    finally:
        await other.close()

    refused = await world.bob.slash(world.channel, "play", action="banner|azure")
    assert said(refused).startswith("It is not your decision: waiting for alice")
    offered = await world.alice.autocomplete(world.channel, "play", "action", "")
    assert offered and all(str(c["value"]).startswith("play|") for c in offered)
    played = await world.alice.slash(world.channel, "play", action=offered[0]["value"])
    assert said(played).startswith("✅ ")
    assert (await world.match()).version == 3
    assert [a.seat for a in await world.bot.store.matches.actions(match_id)] == [0, 1, 0]
    assert await world.bot.matches.verify(match_id)
    hand = (await world.alice.slash(world.channel, "hand")).response
    assert hand is not None and "azure" in (hand.embeds[0].description or "") + str(
        [f.value for f in hand.embeds[0].fields]
    )


@pytest.mark.engines("sqlite")
async def test_a_database_restored_from_a_backup_is_played_from_the_backup(
    world: World, db_path: Path, tmp_path: Path
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    backup = tmp_path / "backup.db"
    with closing(sqlite3.connect(db_path)) as live, closing(sqlite3.connect(backup)) as copy:
        live.backup(copy)
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert (await world.match()).version == 2

    with closing(sqlite3.connect(backup)) as copy, closing(sqlite3.connect(db_path)) as live:
        copy.backup(live)  # the moderators restore last night's backup

    again = await world.bob.slash(world.channel, "play", action="banner|teal")
    assert said(again).startswith("✅ ")
    match = await world.match()
    assert match.version == 2
    state = await world.state()
    assert [p.banner for p in state.players] == ["amber", "teal"]
    assert await world.bot.matches.verify(match.id)


async def test_a_pause_that_lands_while_an_action_commits_freezes_the_new_clocks(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    bot = world.bot
    store = bot.store
    plain = store.matches.append_action
    paused: list[bool] = []

    async def pausing_first(match_id: int, **saved: object) -> bool:
        # A moderator's /mod pause runs after the clock planned the action's deadlines,
        # before the action commits (it holds the clock's lock, not the match's).
        if not paused:
            paused.append(True)
            await bot.clock.pause(match_id, world.frank.id, moderator=True)
        return await plain(match_id, **saved)  # type: ignore[arg-type]

    monkeypatch.setattr(store.matches, "append_action", pausing_first)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    match_id = world.match_id or 0
    assert await store.clocks.pause(match_id) is not None
    clocks = await store.clocks.deadlines(match_id)
    assert [d.seat for d in clocks] == [1]
    assert all(d.frozen_at is not None for d in clocks), "bob's clock runs during the pause"


async def _lobby(store: Store) -> int:
    match = await store.matches.create(
        guild_id=1,
        channel_id=10,
        game="tally",
        variant="duel",
        seed=1,
        rules_version="1",
        created_by=100,
        host_name="alice",
        pack="none",
    )
    return match.id


async def test_a_board_message_written_behind_is_read_back_before_it_is_saved(
    database: str,
) -> None:
    store = await Store.open(database)
    try:
        match_id = await _lobby(store)
        await store.matches.get(match_id)
        assert await store.matches.add_seat(match_id, 101, "bob", max_seats=2)  # forgets the row
        store.matches.set_board_message(match_id, 999)  # the lobby's post, meanwhile
        held = await store.matches.get(match_id)
        assert held is not None and held.board_message_id == 999
        await store.db.flush()
        saved = await one(database, "SELECT board_message_id FROM matches WHERE id = ?", match_id)
        assert saved == 999
    finally:
        await store.close()


@pytest.mark.engines("sqlite")  # it holds SQLite's group commit halfway
async def test_a_turn_message_written_while_a_transaction_commits_is_not_undone(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(database)
    try:
        match_id = await _lobby(store)
        store.matches.set_turn_message(TurnMessage(match_id, 1, "t1", "old"))
        await store.db.flush()
        # A transaction that forgets the match is under way, its change made and its
        # commit to come, when the publisher posts a new turn message.
        reached, go = asyncio.Event(), asyncio.Event()
        commit = store.db.engine._commit  # type: ignore[attr-defined]

        async def held(group: object) -> None:
            reached.set()
            await go.wait()
            await commit(group)

        monkeypatch.setattr(store.db.engine, "_commit", held)
        terms = asyncio.create_task(store.matches.set_options(match_id, {}))
        await reached.wait()
        assert not terms.done()
        store.matches.set_turn_message(TurnMessage(match_id, 2, "t2", "new"))
        go.set()
        await terms
        held_message = await store.matches.turn_message(match_id)
        assert held_message is not None and held_message.message_id == 2
    finally:
        await store.close()
