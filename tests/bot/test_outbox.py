"""The fault suite: what a change must tell reaches the table exactly once, whatever
Discord or the process does between the commit and the post.

Each test injects a fault through simcord (a 500 on the public post, on the board's
edit, on a DM, on the deadline's line; a 429; a refusal that can never pass) or stops
the bot between the commit and the delivery, then checks that the line appears
exactly once afterwards, that the next decider is pinged, and that the outbox row is
marked delivered after the retries it needed. (simcord runs the publisher's waits on
its virtual clock while it settles an operation, so a retry has happened by the time
the player's command returns.) Tally (tests/bot/tally.py): alice raises a banner
first, then bob.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import pytest

from bot.publisher import BACKOFF, UNDELIVERED_LOG
from bot.service import outbox
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World
from tests.conftest import BotFactory

ALICE_MOVED = "alice raises amber."


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def messages_path(world: World) -> str:
    return f"/channels/{world.channel.id}/messages"


def count(world: World, text: str) -> int:
    """How many public messages of the channel hold this line."""
    return sum(text in line.splitlines() for line in world.public_lines())


async def undelivered(world: World) -> list[outbox.OutboxRow]:
    return [r for r in await world.bot.matches.store.outbox() if not r.done]


async def tries(world: World, kind: str) -> list[int]:
    """How many tries each delivered notice of this kind took, in order."""
    rows = await world.bot.matches.store.outbox()
    return [r.attempts for r in rows if r.notice.kind == kind and r.delivered_at]


async def pinged_last(world: World, user_id: int) -> None:
    """The latest public post notifies `user_id` and names them on its last line."""
    (*_, sent) = world.posts()
    assert sent["allowed_mentions"]["users"] == [user_id]
    assert sent["content"].splitlines()[-1].startswith(f"➡️ <@{user_id}>, your turn")


async def test_a_failed_public_post_is_retried_and_the_line_posted_once(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error("POST", messages_path(world), status=500)
    await world.alice.slash(world.channel, "play", action="banner|amber")

    assert (await world.match()).version == 1  # saved, and the reply said so
    assert count(world, ALICE_MOVED) == 1
    assert await tries(world, "action") == [2]
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []
    assert any("try 2" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_failed_board_edit_holds_the_line_back_until_both_go_through(
    world: World,
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    world.env.inject_error("PATCH", f"{messages_path(world)}/{board.id}", status=500)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert await tries(world, "action") == [2]  # the board failed first: the line waited
    edited = await world.board()
    assert edited.id == board.id and "alice raises amber." in str(edited.embeds[0].to_dict())
    assert count(world, ALICE_MOVED) == 1
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []


async def test_a_rate_limit_waits_and_posts_once(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error("POST", messages_path(world), status=429, message="slow down")
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 1
    assert await tries(world, "action") == [2]
    await pinged_last(world, world.bob.id)


async def test_lines_after_a_failure_wait_their_turn(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error("POST", messages_path(world), status=502, times=2)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert await tries(world, "action") == [3, 1]
    lines = world.public_lines()
    alice = next(i for i, text in enumerate(lines) if ALICE_MOVED in text)
    bob = next(i for i, text in enumerate(lines) if "bob raises azure." in text)
    assert alice < bob and count(world, "bob raises azure.") == 1
    await pinged_last(world, world.alice.id)


async def test_a_failed_dm_is_retried_and_sent_once(world: World) -> None:
    await world.bob.slash(world.channel, "notify on")
    await world.start("tally", "duel", [world.alice, world.bob])
    dm = world.bob.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=500)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 1 and await tries(world, "action") == [1]
    assert await tries(world, "dm") == [2]
    sent = [m for m in dm.history(viewer=world.bob) if "your turn" in m.content]
    assert len(sent) == 1 and sent[0].embeds[0].title == "Your view — Tally"


async def test_a_deadline_whose_line_fails_is_told_once_afterwards(world: World) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="tally", variant="duel", seed=7, clock="1h"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    await world.env.advance_time(3590)  # past both reminders
    world.env.inject_error("POST", messages_path(world), status=500, times=3)
    await world.env.advance_time(10)
    assert (await world.match()).version == 1  # the timeout is saved
    await world.env.advance_time(BACKOFF * 10)
    assert count(world, "⏰ alice's time ran out.") == 1
    assert await tries(world, "action") == [4]
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []


async def test_a_restart_between_commit_and_delivery_delivers_once(
    world: World, create_bot: BotFactory
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.bot.publisher.stop()  # the process stops right after the commit
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert (await world.match()).version == 1 and count(world, ALICE_MOVED) == 0
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    assert count(world, ALICE_MOVED) == 1
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []


async def test_a_crash_between_the_post_and_its_mark_posts_nothing_twice(
    world: World, create_bot: BotFactory
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 1
    # The process dies before any transaction saves the bookkeeping written behind:
    # the line went out, but neither its mark nor its message id was written down.
    store = world.bot.matches.store
    store._behind.clear()
    (waiting,) = await undelivered(world)
    assert waiting.notice.kind == "action" and "message" not in waiting.progress

    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    assert count(world, ALICE_MOVED) == 1  # found among the latest messages, not posted again
    assert await undelivered(world) == []
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert count(world, "bob raises azure.") == 1


async def test_a_post_that_can_never_succeed_is_given_up_and_noted_for_moderators(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error(
        "POST", messages_path(world), status=403, code=50013, message="Missing Permissions"
    )
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 0
    assert await undelivered(world) == []
    (row,) = [r for r in await world.bot.matches.store.outbox() if r.given_up]
    assert row.given_up == "no permission to post there"
    (entry,) = await world.bot.matches.store.log_entries(world.match_id or 0)
    assert entry.kind == UNDELIVERED_LOG and ALICE_MOVED in entry.text
    assert any("gave up" in r.getMessage() for r in caplog.records)
    # The lane goes on: the next line is posted.
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert count(world, "bob raises azure.") == 1
