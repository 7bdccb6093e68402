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

import asyncio
import io
import logging
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from PIL import Image

from bot.folding import FOLD_CHARS, folded
from bot.pace import BACKOFF
from bot.pictures.canvas import is_wide
from bot.publisher import UNDELIVERED_LOG, Publisher
from bot.render import MESSAGE_LIMIT
from bot.service import outbox
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World
from tests.conftest import BotFactory

pytestmark = pytest.mark.engines

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
    return [r for r in await world.bot.store.outbox.rows() if not r.done]


async def tries(world: World, kind: str) -> list[int]:
    """How many tries each delivered notice of this kind took, in order."""
    rows = await world.bot.store.outbox.rows()
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
    world.fail_posts(500)
    await world.alice.slash(world.channel, "play", action="banner|amber")

    assert (await world.match()).version == 1  # saved, and the reply said so
    assert count(world, ALICE_MOVED) == 1
    assert await tries(world, "action") == [2]
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []
    assert any("try 2" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_line_calling_the_next_player_is_the_interaction_s_followup(world: World) -> None:
    """Exempt calls first: the action's new turn message is posted as the public followup
    of the /play that made it, and the board, posted as the Start click's followup, is
    edited through that click's followups: no call counts against the global limit."""
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    since = len(world.env.http_requests)
    played = await world.alice.slash(world.channel, "play", action="banner|amber")
    made = [f"{r.method} {r.path}" for r in world.env.http_requests[since:]]
    limited = [
        m for m in made if not m.split(" ", 1)[1].startswith(("/interactions/", "/webhooks/"))
    ]
    assert limited == []
    assert any(m.startswith("PATCH /webhooks/") and m.endswith(f"/{board.id}") for m in made)
    (line,) = [m for m in played.followups if not m.ephemeral]
    assert line.content.startswith(ALICE_MOVED)
    assert count(world, ALICE_MOVED) == 1
    await pinged_last(world, world.bob.id)


async def play_in_turn(world: World, times: int) -> list[str]:
    """`times` actions by /play, each the deciding player's first choice; their public
    lines, in order."""
    played = []
    for _ in range(times):
        (player,) = await world.to_act()
        choice = (await world.bot.matches.choices(world.channel.id, player.id))[0]
        before = (await world.match()).version
        await player.slash(world.channel, "play", action=choice.key)
        assert (await world.match()).version == before + 1
        rows = await world.bot.store.outbox.rows(world.match_id)
        played += rows[-1].notice.body["lines"]
    return played


def told_lines(world: World) -> list[str]:
    """The lines of the channel's public messages, in order, but those calling players."""
    lines = [line for text in world.public_lines() for line in text.splitlines()]
    return [line for line in lines if not line.startswith("➡️")]


def channel_calls(world: World, since: int) -> list[str]:
    """The requests on the game channel's message routes since request number `since`."""
    path = messages_path(world)
    return [
        f"{r.method} {r.path}"
        for r in world.env.http_requests[since:]
        if r.path == path or r.path.startswith(f"{path}/")
    ]


async def test_a_burst_of_ten_actions_reaches_the_channel_in_five_calls_at_most(
    world: World, create_bot: BotFactory
) -> None:
    """Ten actions in one channel within 2 s (made at once, as players' clicks arriving
    together would be), with every interaction's token long run out: the lane keeps to
    the channel's pace, and what waits meanwhile goes out together. Every line arrives
    once, in order, and the player deciding at the end is called."""
    await world.bot.close()
    await world.env.restart_bot(create_bot(arbiter_channel_every=5 / 3))  # Discord's pace
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.env.advance_time(20 * 60)  # the Start click's token no longer serves
    service = world.bot.matches
    since = len(world.env.http_requests)

    played = []
    for _ in range(10):
        (player,) = await world.to_act()
        choice = (await service.choices(world.channel.id, player.id))[0]
        await service.act(world.match_id or 0, player.id, choice.key)
        rows = await service.outbox.rows(world.match_id)
        played += rows[-1].notice.body["lines"]
    await world.bot.publisher.idle()  # the lane keeps to the pace: a few seconds

    calls = channel_calls(world, since)
    assert 1 <= len(calls) <= 5, calls
    assert told_lines(world)[-len(played) :] == played
    (deciding,) = await world.to_act()
    await pinged_last(world, deciding.id)
    assert await undelivered(world) == []


async def test_notices_waiting_together_edit_the_board_once_and_post_their_lines_once(
    world: World,
) -> None:
    """While the publisher is stopped, three actions wait; delivered together, the board
    is edited once with the latest state and their lines share one message, in order,
    calling only the player deciding now."""
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    publisher = world.bot.publisher
    await publisher.stop()
    played = await play_in_turn(world, 3)
    since = len(world.env.http_requests)
    await publisher.start()
    await publisher.idle()

    calls = channel_calls(world, since)
    assert calls.count(f"PATCH {messages_path(world)}/{board.id}") == 1
    (message,) = world.posts(since)
    assert [line for line in message["content"].splitlines() if not line.startswith("➡️")] == (
        played
    )
    assert told_lines(world)[-len(played) :] == played
    (deciding,) = await world.to_act()
    await pinged_last(world, deciding.id)
    assert played[-1] in str((await world.board()).embeds[0].to_dict())
    assert await undelivered(world) == []


async def test_a_long_backlog_goes_out_in_messages_discord_takes_every_line_once_in_order(
    world: World,
) -> None:
    """Forty Tooth & Nail actions wait while Discord takes nothing: more lines than one
    message holds. Delivered, they go out together only as far as a message holds them:
    no request is refused as too long, and every line arrives once, in order."""
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=7)
    publisher = world.bot.publisher
    await publisher.stop()
    service = world.bot.matches
    for _ in range(40):
        table = await service.table(world.match_id or 0)
        if table.match.status != "active":
            break
        user_id = table.user_of(table.to_act[0]).user_id
        view = await service.view(world.match_id or 0, user_id)
        await service.act(world.match_id or 0, user_id, view.choices[-1].key)
    waiting = [r for r in await service.outbox.rows(world.match_id) if not r.done]
    played = [line for r in waiting for line in r.notice.body.get("lines", [])]
    assert sum(len(line) + 1 for line in played) > MESSAGE_LIMIT  # the case in question
    since = len(world.env.http_requests)
    await publisher.start()
    await publisher.idle()

    sent = [r.json or {} for r in world.env.http_requests[since:] if r.method in ("POST", "PATCH")]
    assert all(len(fields.get("content") or "") <= MESSAGE_LIMIT for fields in sent)
    assert told_lines(world)[-len(played) :] == played
    assert await undelivered(world) == []


def test_notices_fold_only_as_far_as_one_message_holds_their_lines() -> None:
    """The first notice always goes; the next join it while their lines fit in a message
    with room for the deciders' lines below."""
    line = "x" * 99  # a hundred characters, with its line break

    def waiting(row_id: int, lines: list[str]) -> outbox.OutboxRow:
        told = outbox.action(1, seq=row_id, lines=lines, called=(), turn="1", finished=False)
        return outbox.OutboxRow(id=row_id, notice=told)

    rows = [waiting(n, [line] * 5) for n in range(1, 10)]
    batch = folded(rows)
    assert [r.id for r in batch] == [1, 2, 3]  # 1,500 characters: a fourth would pass 1,500
    assert sum(len(line) + 1 for r in batch for line in r.notice.body["lines"]) <= FOLD_CHARS
    long = waiting(1, ["y" * 3000])
    assert folded([long, *rows[1:]]) == [long]


async def test_a_request_discord_finds_malformed_is_given_up_and_the_lane_goes_on(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A 400 is refused again at every try: the notice is given up, logged and noted
    for moderators, and the next line is posted (the lane is not held up behind it)."""
    await world.start("tally", "duel", [world.alice, world.bob])
    world.fail_posts(400, code=50035, message="Invalid Form Body")
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 0
    (row,) = [r for r in await world.bot.store.outbox.rows() if r.given_up]
    assert row.attempts == 1 and "malformed" in (row.given_up or "")
    (entry,) = await world.bot.store.log.entries(world.match_id or 0)
    assert entry.kind == UNDELIVERED_LOG and ALICE_MOVED in entry.text
    assert any("malformed" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the error was provoked on purpose
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert count(world, "bob raises azure.") == 1
    assert await undelivered(world) == []


async def test_a_failed_followup_posts_the_line_in_the_channel_once(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error("POST", "/webhooks/*/*", status=500)
    played = await world.alice.slash(world.channel, "play", action="banner|amber")
    assert not [m for m in played.followups if not m.ephemeral]
    assert count(world, ALICE_MOVED) == 1
    assert await tries(world, "action") == [1]  # the channel took it at the first try
    await pinged_last(world, world.bob.id)


async def test_a_failed_board_edit_holds_the_line_back_until_both_go_through(
    world: World,
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    for route in (f"{messages_path(world)}/{board.id}", f"/webhooks/*/{board.id}"):
        world.env.inject_error("PATCH", route, status=500)  # whichever route edits it
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert await tries(world, "action") == [2]  # the board failed first: the line waited
    edited = await world.board()
    assert edited.id == board.id and "alice raises amber." in str(edited.embeds[0].to_dict())
    assert count(world, ALICE_MOVED) == 1
    await pinged_last(world, world.bob.id)
    assert await undelivered(world) == []


async def test_a_rate_limit_waits_and_posts_once(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.fail_posts(429, message="slow down")
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 1
    assert await tries(world, "action") == [2]
    await pinged_last(world, world.bob.id)


async def test_lines_after_a_failure_wait_their_turn(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.fail_posts(502, times=2)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert await tries(world, "action") == [3, 1]
    # (bob's line, waiting behind alice's, may go out with it: in order all the same)
    assert told_lines(world)[-2:] == [ALICE_MOVED, "bob raises azure."]
    assert count(world, ALICE_MOVED) == 1 and count(world, "bob raises azure.") == 1
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
    store = world.bot.store
    store.db._behind.clear()
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
    world.fail_posts(403, code=50013, message="Missing Permissions")
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert count(world, ALICE_MOVED) == 0
    assert await undelivered(world) == []
    (row,) = [r for r in await world.bot.store.outbox.rows() if r.given_up]
    assert row.given_up == "no permission to post there"
    (entry,) = await world.bot.store.log.entries(world.match_id or 0)
    assert entry.kind == UNDELIVERED_LOG and ALICE_MOVED in entry.text
    assert any("gave up" in r.getMessage() for r in caplog.records)
    # The lane goes on: the next line is posted.
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert count(world, "bob raises azure.") == 1


async def test_a_crash_after_a_backlog_was_posted_and_edited_posts_no_line_twice(
    world: World, create_bot: BotFactory
) -> None:
    """A backlog (Discord away while three changes were saved) is delivered as one post
    edited twice; the process dies before the bookkeeping of that post is saved. After
    the restart the post is found although its text changed since, and every line is in
    the channel exactly once."""
    await world.bot.publisher.stop()  # Discord takes nothing for a while
    await world.start("tally", "muster", [world.alice, world.bob, world.carol, world.dave])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    assert count(world, "The match begins!") == 0
    await world.bot.publisher.start()
    await world.bot.publisher.idle()
    (posted,) = [t for t in world.public_lines() if "The match begins!" in t]
    assert "alice raises amber." in posted and "bob raises azure." in posted  # edited in

    world.bot.store.db._behind.clear()  # the process dies before anything is saved
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    await world.carol.slash(world.channel, "play", action="banner|beige")
    for line in ("alice raises amber.", "bob raises azure.", "carol raises beige."):
        assert count(world, line) == 1, line
    assert sum("The match begins!" in t for t in world.public_lines()) == 1
    assert await undelivered(world) == []


async def test_lines_read_back_one_by_one_are_each_told_once_when_they_read_alike(
    world: World, create_bot: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backlog read back after a restart goes out notice by notice: the first banner is
    edited into the start's message, and the next, whose line reads the same, is not
    taken for it (it is looked for after the lines that message shows now, not after
    those it was posted with), so no banner's line is lost."""
    apply = tally.Tally.apply

    def alike(self: tally.Tally, *args: Any) -> Any:  # every banner's line reads the same
        state, events = apply(self, *args)
        return state, [
            e.model_copy(update={"text": "A banner goes up."}) if e.kind == "banner" else e
            for e in events
        ]

    monkeypatch.setattr(tally.Tally, "apply", alike)
    await world.bot.publisher.stop()
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start("tally", "muster", players)
    for player, colour in zip(players, ("amber", "azure", "beige", "black"), strict=True):
        await player.slash(world.channel, "play", action=f"banner|{colour}")
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.bot.publisher.idle()
    shown = [line for text in world.public_lines() for line in text.splitlines()]
    assert shown.count("A banner goes up.") == 4
    assert await undelivered(world) == []


# The channel requests delivering each backlog below takes, by how it waits: written by
# the process delivering it, its notices go out together; read back after a restart,
# each goes alone (its delivery may have begun before). The lobby's retirement included.
BACKLOG_REQUESTS = {"waiting": 7, "read back": 22}  # Respond taken off the older call
PICTURE_BACKLOG_REQUESTS = {"waiting": 7, "read back": 12}  # the call carries End turn
CRASHES = [
    (waits, crash_after)
    for waits, most in BACKLOG_REQUESTS.items()
    for crash_after in range(1, most + 2)
]
PICTURE_CRASHES = [
    (waits, crash_after)
    for waits, most in PICTURE_BACKLOG_REQUESTS.items()
    for crash_after in range(1, most + 2)
]


async def backlog(world: World) -> None:
    """While Discord takes nothing: a Muster match of four starts, every banner is
    raised (lines edited into the start's message), and two cards are played (each calls
    another player: a new message)."""
    await world.bot.publisher.stop()
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start("tally", "muster", players)
    for player, colour in zip(players, ("amber", "azure", "beige", "black"), strict=True):
        await player.slash(world.channel, "play", action=f"banner|{colour}")
    for _ in range(2):
        (player,) = await world.to_act()
        view = await world.bot.matches.view(world.match_id or 0, player.id)
        await player.slash(world.channel, "play", action=view.choices[0].key)
    assert world.public_lines() == []


async def picture_backlog(world: World) -> None:
    """While Discord takes nothing: a Tooth & Nail match (whose board carries a picture)
    starts and its set-up decisions are taken."""
    await world.bot.publisher.stop()
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=7)
    for _ in range(3):
        (player, *_) = await world.to_act()
        view = await world.bot.matches.view(world.match_id or 0, player.id)
        await player.slash(world.channel, "play", action=view.choices[0].key)
    assert world.public_lines() == []


async def told(world: World) -> Counter[str]:
    """Every public line the outbox holds (the start's first line, each action's lines)."""
    lines: Counter[str] = Counter()
    for row in await world.bot.store.outbox.rows():
        if row.notice.kind == "start":
            lines["The match begins!"] += 1
        lines.update(row.notice.body.get("lines", []))
    return lines


async def crash_delivering(
    world: World, create_bot: BotFactory, waits: str, crash_after: int, requests_taken: int
) -> None:
    """Deliver the backlog waiting in the outbox (after a restart first, when it is `read
    back`), the process dying right after its `crash_after`-th request to Discord, before
    any bookkeeping written behind is saved; then restart. (`requests_taken` is what the
    whole delivery takes: a crash after it checks that no request goes untested.)"""
    if waits == "read back":
        await world.bot.close()
        bot = create_bot()
    else:
        bot = world.bot
    publisher = bot.publisher
    requests = 0

    async def dies_after(table: object, call: object) -> object:
        nonlocal requests
        result = await Publisher._open(publisher, table, call)  # type: ignore[arg-type]
        requests += 1
        if requests == crash_after:
            raise asyncio.CancelledError  # the process stops here
        return result

    publisher._open = dies_after  # type: ignore[method-assign]
    if waits == "read back":
        await world.env.restart_bot(bot)
    else:
        await publisher.start()
    await publisher.idle()
    assert requests == min(crash_after, requests_taken), "the count of requests is out of date"
    bot.store.db._behind.clear()
    await bot.close()
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)


async def every_line_once_in_order(world: World) -> None:
    expected = await told(world)
    shown = [line for text in world.public_lines() for line in text.splitlines()]
    assert Counter(line for line in shown if line in expected) == expected
    ordered = list(dict.fromkeys(line for line in shown if line in expected))
    assert ordered == list(expected), "lines out of order"
    assert await undelivered(world) == []


@pytest.mark.parametrize(("waits", "crash_after"), CRASHES)
async def test_a_crash_at_any_request_of_a_backlog_posts_every_line_once_in_order(
    world: World, create_bot: BotFactory, waits: str, crash_after: int
) -> None:
    """The process dies right after its `crash_after`-th request to Discord while it
    delivers a backlog, before any bookkeeping written behind is saved; after the restart
    every line of every notice is in the channel exactly once, in order."""
    await backlog(world)
    await crash_delivering(world, create_bot, waits, crash_after, BACKLOG_REQUESTS[waits])
    await every_line_once_in_order(world)


@pytest.mark.parametrize(("waits", "crash_after"), PICTURE_CRASHES)
async def test_a_crash_delivering_a_board_with_its_picture_posts_one_board_and_every_line_once(
    world: World, create_bot: BotFactory, waits: str, crash_after: int
) -> None:
    """As above, for a board that carries the table's picture: after the restart there
    is one board, its picture attached (the current one, decoding, 16:9 or wider),
    and every line once, in order."""
    await picture_backlog(world)
    await crash_delivering(world, create_bot, waits, crash_after, PICTURE_BACKLOG_REQUESTS[waits])
    boards = [m for m in world.channel.history() if m.embeds and m.embeds[0].image.url]
    assert len(boards) == 1, "the board was posted twice"
    (attached,) = boards[0].attachments
    picture = Image.open(io.BytesIO(await attached.read()))
    assert is_wide(picture.width, picture.height)
    await every_line_once_in_order(world)
