"""Long-lived boards: reposted at the bottom when buried or old, the old one pointing
there without its button; a match's thread kept open while the match is in play."""

from __future__ import annotations

from collections.abc import Mapping

import discord
import pytest
import simcord

from bot.pace import THREAD_ARCHIVED
from bot.publisher import BURIED_AFTER
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.test_moderation_settings import thread_in
from tests.bot.world import World, custom_ids


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


async def start_in(world: World, channel: simcord.ChannelHandle, variant: str) -> None:
    """A Tally match in `channel` with a 14-day clock (no deadline while time moves)."""
    players = [world.alice, world.bob, world.carol, world.dave][: 4 if variant == "melee" else 2]
    opened = await world.alice.slash(
        channel, "match new", game="tally", variant=variant, seed=5, clock="14d"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(channel.id)).id
    for player in players[1:]:
        await player.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")


async def play_one(world: World, channel: simcord.ChannelHandle) -> None:
    (player,) = await world.to_act()
    choices = await world.bot.matches.choices(channel.id, player.id)
    await player.slash(channel, "play", action=choices[0].key)


def message(channel: simcord.ChannelHandle, message_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.id == message_id)


def thread_archived(world: World, thread: simcord.ChannelHandle) -> bool:
    metadata = world.env.backend.get_channel(thread.id).thread_metadata
    assert metadata is not None
    return metadata.archived


async def test_a_buried_board_is_reposted_at_the_bottom(world: World) -> None:
    await start_in(world, world.channel, "melee")
    first = await world.board()
    for _ in range(BURIED_AFTER - 1):  # the match's first line, then one line per action
        await play_one(world, world.channel)
    assert (await world.board()).id == first.id  # fifteen lines under it: not yet
    await play_one(world, world.channel)
    board = await world.board()
    assert board.id != first.id
    assert world.channel.history()[-2].id == board.id  # the board, then the action's line
    assert custom_ids(board) == [f"arbiter:hand:{world.match_id}"]
    old = message(world.channel, first.id)
    assert old.components == []
    assert old.embeds[0].description == (
        f"The board has moved to the bottom of the channel: {board.jump_url}"
    )
    (player,) = await world.to_act()
    hand = await player.click(board, label="My hand")
    assert hand.response is not None and hand.response.ephemeral


async def test_an_old_board_is_reposted(world: World) -> None:
    await start_in(world, world.channel, "duel")
    first = await world.board()
    await world.env.advance_time(23 * 3600)
    await play_one(world, world.channel)
    assert (await world.board()).id == first.id
    await world.env.advance_time(2 * 3600)
    await play_one(world, world.channel)
    assert (await world.board()).id != first.id
    assert message(world.channel, first.id).components == []


async def test_a_match_keeps_its_thread_open(world: World) -> None:
    thread = thread_in(world, world.channel, "a long game")
    await start_in(world, thread, "duel")
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await world.env.settle()
    assert not thread_archived(world, thread)  # Discord archived it; the bot reopened it

    # An edit refused because the thread is archived reopens it and goes through.
    for route in (f"/channels/{thread.id}/messages/*", "/webhooks/*/messages/*"):
        world.env.inject_error(
            "PATCH", route, status=400, code=THREAD_ARCHIVED, message="Thread is archived"
        )
    await play_one(world, thread)
    board_id = (await world.match()).board_message_id
    board = next(m for m in thread.history() if m.id == board_id)
    assert "bob raises a banner." in (board.embeds[0].description or "")
    reopened = [
        r
        for r in world.env.http_requests
        if r.method == "PATCH" and r.path == f"/channels/{thread.id}"
    ]
    assert len(reopened) == 2 and reopened[-1].json == {"archived": False}

    # A thread a moderator locks, or that of a finished match, is left closed.
    world.env.backend.edit_channel(
        thread.id, {}, thread_metadata={"archived": True, "locked": True}
    )
    await world.env.settle()
    assert thread_archived(world, thread)
    world.env.backend.edit_channel(
        thread.id, {}, thread_metadata={"archived": False, "locked": False}
    )
    await world.concede(world.bob, thread)
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await world.env.settle()
    assert thread_archived(world, thread)
