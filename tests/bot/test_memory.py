"""The open match held in memory never serves a stale state: a commit by another
connection (a second process, a restore from a backup) is noticed at the next
interaction, which reads the match afresh."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path

import pytest

from bot.service.matches import MatchService
from bot.service.store import Store
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def said(result: object) -> str:
    """The private answer of an interaction."""
    response = getattr(result, "response", None)
    assert response is not None
    return str(response.content)


async def test_an_action_taken_by_a_second_process_is_seen_by_the_next_interaction(
    world: World, db_path: Path, bot_games: Mapping[str, Game]
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    match_id = world.match_id or 0
    assert (await world.match()).version == 1  # held in memory now

    # Another process on the same database takes bob's decision.
    other = await Store.open(db_path)
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
    assert [a.seat for a in await world.bot.matches.store.actions(match_id)] == [0, 1, 0]
    assert await world.bot.matches.verify(match_id)
    hand = (await world.alice.slash(world.channel, "hand")).response
    assert hand is not None and "azure" in (hand.embeds[0].description or "") + str(
        [f.value for f in hand.embeds[0].fields]
    )


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
