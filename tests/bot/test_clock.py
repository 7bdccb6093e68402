"""Match clocks through the real bot, on simcord's virtual clock: reminders, deadlines
and the timeout policy, restarts, DMs, vacations, pauses, nudges, out-of-turn clocks.

Tally (tests/bot/tally.py): alice raises a banner first; a played card of 4 or more
opens an out-of-turn decision (challenge or let it stand) for the opponent.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import pytest
import simcord

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Deadline, Store
from bot.service.tables import ActResult, Table
from bot.service.timing import HOUR, MINUTE, out_of_turn_clock
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered, menu_id
from tests.conftest import BotFactory

pytestmark = pytest.mark.engines

CLOCK = HOUR
T = TypeVar("T")


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def answer(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer (its last follow-up, else its response)."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content


def public(result: simcord.InteractionResult) -> str:
    """The text of a public answer."""
    assert result.response is not None and not result.response.ephemeral
    return result.response.content


async def start(
    world: World,
    players: list[simcord.MemberActor] | None = None,
    *,
    variant: str = "duel",
    clock: str = "1h",
    **options: str,
) -> int:
    """Open a Tally lobby with a clock, seat the players, start; returns the match id."""
    host, *others = players or [world.alice, world.bob]
    opened = await host.slash(
        world.channel, "match new", game="tally", variant=variant, seed=7, clock=clock, **options
    )
    assert opened.response is not None, answer(opened)
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    for player in others:
        await player.click(opened.response, label="Join")
    await host.click(opened.response, label="Start")
    assert (await world.match()).status == "active"
    return world.match_id


async def deadline(world: World, seat: int) -> Deadline:
    found = await world.bot.store.clocks.deadline((await world.match()).id, seat)
    assert found is not None
    return found


async def log_texts(world: World) -> list[str]:
    return [e.text for e in await world.bot.store.log.entries((await world.match()).id)]


def posts_to(world: World, channel_id: int) -> list[dict[str, object]]:
    """The bodies of the messages the bot posted in a channel."""
    return [
        r.json
        for r in world.env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


async def test_the_clock_is_chosen_at_match_new_and_shown(world: World) -> None:
    bad = await world.alice.slash(world.channel, "match new", game="tally", clock="soonish")
    assert answer(bad).startswith("“soonish” isn't a duration I understand")
    long = await world.alice.slash(world.channel, "match new", game="tally", clock="3w")
    assert answer(long) == (
        "A clock must be from 5 minutes to 14 days per decision (you asked for 21 days)."
    )
    assert await world.bot.store.matches.open_in(world.channel.id) is None

    opened = await world.alice.slash(
        world.channel, "match new", game="tally", clock="2h", timeout="abandon"
    )
    assert opened.response is not None
    clock_field = opened.response.embeds[0].fields[1]
    assert clock_field.name == "Clock"
    assert clock_field.value.startswith("2 hours per decision, 30 minutes out of turn.")
    assert clock_field.value.endswith("after 3 times in a row the match is abandoned.")
    match = await world.bot.matches.open_match(world.channel.id)
    assert (match.clock_seconds, match.timeout_policy) == (2 * HOUR, "abandon")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    world.match_id = match.id
    footer = (await world.board()).embeds[0].footer.text or ""
    assert "⏱️ 2 hours a decision, 30 minutes out of turn" in footer


async def test_the_server_default_clock_applies_without_a_choice(world: World) -> None:
    await world.bot.store.settings.update_guild(
        world.guild.id, default_clock_seconds=3 * HOUR, default_timeout_policy="abandon"
    )
    await world.alice.slash(world.channel, "match new", game="tally")
    match = await world.bot.matches.open_match(world.channel.id)
    assert (match.clock_seconds, match.timeout_policy) == (3 * HOUR, "abandon")


async def test_reminders_at_half_time_and_near_the_end_mention_the_decider(world: World) -> None:
    await start(world)
    await world.env.advance_time(29 * MINUTE)
    assert not any("⏳" in line for line in world.public_lines())
    await world.env.advance_time(MINUTE)
    half = world.public_lines()[-1]
    # What to do, then by when: the date and time and how far off it is.
    assert re.fullmatch(
        f"⏳ {world.alice.mention}, your turn — raise a banner. Half your time is gone: "
        r"decide by <t:(\d+):f> \(<t:\1:R>\), or the clock decides for you.",
        half,
    )
    assert posts_to(world, world.channel.id)[-1]["allowed_mentions"] == {
        "parse": [],
        "users": [world.alice.id],
    }
    await world.env.advance_time(24 * MINUTE)  # 6 minutes left: a tenth of the clock
    assert world.public_lines()[-1].startswith(
        f"⏳ {world.alice.mention}, your turn — raise a banner. Your time is nearly up"
    )
    assert (await deadline(world, 0)).reminded == 2
    assert (await world.match()).version == 0


async def test_end_only_and_off_cadences(world: World) -> None:
    store = world.bot.store
    await store.settings.update_guild(world.guild.id, reminder_cadence="end-only")
    await start(world)
    await world.env.advance_time(50 * MINUTE)
    assert not any("⏳" in line for line in world.public_lines())
    await world.env.advance_time(5 * MINUTE)
    assert (
        [line for line in world.public_lines() if "⏳" in line]
        == [line for line in world.public_lines() if "nearly up" in line]
        != []
    )
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await store.settings.update_guild(world.guild.id, reminder_cadence="off")
    before = len(world.public_lines())
    await world.env.advance_time(59 * MINUTE)
    assert len(world.public_lines()) == before  # no reminder for bob at all


async def test_a_deadline_ends_the_turn_and_is_logged(world: World) -> None:
    await start(world)
    await world.env.advance_time(CLOCK)
    match = await world.match()
    assert match.version == 1
    assert world.public_lines()[-1] == (
        "⏰ alice's time ran out.\n"
        "alice raises amber.\n"
        f"➡️ {world.bob.mention}, your turn — raise a banner"
    )
    assert "⏰ alice's time ran out." in await log_texts(world)
    assert (await world.board()).embeds[0].description == "▶️ bob raises a banner."
    assert await world.bot.matches.verify(match.id)
    bob = await deadline(world, 1)
    assert (bob.version, bob.clock_seconds, bob.out_of_turn) == (1, CLOCK, False)


async def play_first(world: World, player: simcord.MemberActor) -> None:
    """The player takes their first legal action by `/play`."""
    view = await world.bot.matches.view((await world.match()).id, player.id)
    await player.slash(world.channel, "play", action=view.choices[0].key)


async def test_three_timeouts_in_a_row_make_the_seat_forfeit(world: World) -> None:
    match_id = await start(world)
    for _ in range(10):  # nobody plays: alice's third timeout comes first
        if (await world.match()).status != "active":
            break
        await world.env.advance_time(CLOCK)
    table = await world.bot.matches.table(match_id)
    assert table.match.status == "finished"
    assert table.outcome is not None and table.outcome.winners == [1]
    forfeit = "⏰ alice ran out of time 3 times in a row and forfeits."
    assert forfeit in await log_texts(world)
    assert world.public_lines()[-1].startswith(f"{forfeit}\nalice concedes.")
    assert await world.bot.store.clocks.deadlines(match_id) == []
    assert await world.bot.matches.verify(match_id)


async def test_a_seat_s_own_action_resets_its_timeouts(world: World) -> None:
    match_id = await start(world)
    store = world.bot.store
    await world.env.advance_time(CLOCK)  # alice: 1
    await play_first(world, world.bob)
    await world.env.advance_time(CLOCK)  # alice: 2
    assert (await store.clocks.seat_clocks(match_id))[0].timeouts == 2
    while world.alice not in await world.to_act():
        await play_first(world, world.bob)
    await play_first(world, world.alice)  # her own decision
    while world.alice not in await world.to_act():
        await play_first(world, world.bob)
    await world.env.advance_time(CLOCK)  # alice: 1 again, not 3
    assert (await store.clocks.seat_clocks(match_id))[0].timeouts == 1
    assert (await world.match()).status == "active"


async def test_the_abandon_policy_ends_the_match_with_no_winner(world: World) -> None:
    match_id = await start(world, timeout="abandon")
    for _ in range(10):
        if (await world.match()).status != "active":
            break
        await world.env.advance_time(CLOCK)
    match = await world.match()
    assert match.status == "abandoned"
    assert world.public_lines()[-1] == (
        "⏰ alice ran out of time 3 times in a row: the match is abandoned, with no winner. "
        "The channel is free for a new match."
    )
    board = await world.board()
    assert board.embeds[0].description == (
        "🛑 This match was abandoned (a player ran out of time): nobody won."
    )
    assert board.components == []
    assert await world.bot.store.clocks.deadlines(match_id) == []
    again = await world.carol.slash(world.channel, "match new", game="tally")
    assert again.response is not None and not again.response.ephemeral


async def test_a_restart_before_the_deadline_still_fires_it_on_time(
    world: World, create_bot: BotFactory
) -> None:
    await start(world)
    await world.env.advance_time(20 * MINUTE)
    old = world.bot
    await old.close()
    await world.env.restart_bot(create_bot())
    assert world.bot is not old
    await world.env.advance_time(10 * MINUTE)  # half time, in the new process
    assert world.public_lines()[-1].startswith(f"⏳ {world.alice.mention}, your turn — raise")
    await world.env.advance_time(30 * MINUTE - 1)
    assert (await world.match()).version == 0
    await world.env.advance_time(1)
    assert (await world.match()).version == 1
    assert world.public_lines()[-1].startswith("⏰ alice's time ran out")


async def test_a_restart_after_a_deadline_passed_fires_it_at_once(
    world: World, create_bot: BotFactory
) -> None:
    await start(world)
    await world.bot.close()
    await world.env.advance_time(2 * CLOCK)  # the bot is down when the deadline passes
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    assert (await world.match()).version == 1
    assert world.public_lines()[-1].startswith("⏰ alice's time ran out")


async def test_opted_in_players_get_their_turn_by_dm(world: World) -> None:
    turned_on = await world.bob.slash(world.channel, "notify on")
    assert answer(turned_on).startswith("🔔 From now on I'll DM you")
    await start(world)
    assert world.bob.user.dm_channel.last_message is None  # not his decision yet
    await world.alice.slash(world.channel, "play", action="banner|amber")
    dm = world.bob.user.dm_channel.last_message
    assert dm is not None
    assert re.fullmatch(
        rf"➡️ In <#{world.channel.id}>, your turn — raise a banner\. "
        r"Decide by <t:(\d+):f> \(<t:\1:R>\)\.",
        dm.content,
    )
    assert dm.embeds[0].title == "Your view — Tally"
    await world.bob.user.select(dm, ["banner|azure"], custom_id=menu_id(dm))  # plays from DMs
    assert (await world.match()).version == 2
    await world.env.advance_time(30 * MINUTE)
    assert world.alice.user.dm_channel.last_message is None  # alice never opted in
    await world.bob.slash(world.channel, "notify off")
    sent = len(posts_to(world, world.bob.user.dm_channel.id))
    while world.bob not in await world.to_act():
        await play_first(world, world.alice)
    assert len(posts_to(world, world.bob.user.dm_channel.id)) == sent


async def test_a_closed_dm_falls_back_to_the_channel_and_is_not_retried(world: World) -> None:
    await world.bob.slash(world.channel, "notify on")
    dm_id = world.bob.user.dm_channel.id
    world.env.inject_error(
        "POST",
        f"/channels/{dm_id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await start(world)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert (await world.match()).version == 1  # nothing stalled
    fallback = [line for line in world.public_lines() if line.startswith("📪")]
    assert fallback == [
        f"📪 {world.bob.mention}, I can't send you direct messages (they are closed), so your "
        "turns and reminders are only posted here. I'll try again in a day, or after you open "
        "your DMs and use `/notify on`."
    ]
    await world.env.advance_time(30 * MINUTE)  # bob's half-time reminder
    assert "Half your time is gone" in world.public_lines()[-1]
    assert world.public_lines()[-1].startswith(f"⏳ {world.bob.mention}, your turn")
    await world.env.advance_time(24 * MINUTE)
    assert world.public_lines()[-1].startswith(f"⏳ {world.bob.mention}, your turn")
    assert "Your time is nearly up" in world.public_lines()[-1]
    tried = [r for r in world.env.http_requests if r.path == f"/channels/{dm_id}/messages"]
    assert len(tried) == 1, "the DM is tried once, then left alone"
    assert [line for line in world.public_lines() if line.startswith("📪")] == fallback


async def test_an_exhausted_vacation_budget_restarts_the_clock(world: World) -> None:
    match_id = await start(world)
    await world.env.advance_time(10 * MINUTE)
    away = await world.alice.slash(world.channel, "match vacation start", duration="5d")
    assert public(away).startswith("🏖️ alice is away until <t:")
    assert "(all the vacation you had left)" in public(away)
    assert (await deadline(world, 0)).frozen_at is not None
    await world.env.advance_time(3 * 24 * HOUR)
    assert (await world.match()).version == 0  # frozen all along
    assert world.public_lines()[-1] == (
        "🏖️ alice's vacation ended (their vacation budget is spent): their clock runs again."
    )
    assert (await deadline(world, 0)).frozen_at is None
    again = await world.alice.slash(world.channel, "match vacation start", duration="1h")
    assert answer(again) == "You have used all of your vacation in this match (3 days)."
    await world.env.advance_time(50 * MINUTE - 1)  # the 50 minutes she had left
    assert (await world.match()).version == 0
    await world.env.advance_time(1)
    assert (await world.match()).version == 1
    assert (await world.bot.store.clocks.seat_clocks(match_id))[0].vacation_used == 3 * 24 * HOUR


async def test_a_vacation_ends_early_and_keeps_the_rest_of_the_budget(world: World) -> None:
    match_id = await start(world)
    await world.bob.slash(world.channel, "match vacation start", duration="1d")
    await world.env.advance_time(2 * HOUR)
    assert (await world.match()).version == 1  # alice was not on vacation: she timed out
    assert (await deadline(world, 1)).frozen_at is not None  # bob's new clock starts frozen
    back = await world.bob.slash(world.channel, "match vacation end")
    assert (
        public(back) == "🏖️ bob is back: their clock runs again (2 days 22 hours of vacation left)."
    )
    assert (await deadline(world, 1)).frozen_at is None
    await world.bob.slash(world.channel, "match vacation start", duration="1d")
    await world.bob.slash(world.channel, "play", action="banner|azure")  # acting ends it
    clock = (await world.bot.store.clocks.seat_clocks(match_id))[1]
    assert clock.vacation_until is None
    twice = await world.bob.slash(world.channel, "match vacation end")
    assert answer(twice) == "You are not on vacation in this match."


async def test_pause_by_agreement_freezes_every_clock_until_resumed(world: World) -> None:
    await start(world)
    await world.env.advance_time(20 * MINUTE)
    asked = await world.alice.slash(world.channel, "match pause")
    assert public(asked) == (
        "⏸️ alice asks to pause the match (1 of 2 agree). Waiting for bob: each uses `/match pause`."
    )
    early = await world.alice.slash(world.channel, "match resume")
    assert answer(early) == "This match isn't paused."
    paused = await world.bob.slash(world.channel, "match pause")
    assert public(paused).startswith(
        "⏸️ The match is paused by all the players' agreement: every clock is frozen until "
        "`/match resume`, or <t:"
    )
    await world.env.advance_time(3 * CLOCK)
    assert (await world.match()).version == 0
    assert not any("⏳" in line for line in world.public_lines())
    nudge = await world.bob.slash(world.channel, "match nudge")
    assert answer(nudge) == "The match is paused: nobody's clock runs."
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None and status.response.ephemeral
    clocks = next(f.value for f in status.response.embeds[0].fields if f.name == "Clock")
    assert (clocks or "").startswith("⏸️ Paused")
    resumed = await world.bob.slash(world.channel, "match resume")
    assert public(resumed) == f"▶️ {world.bob.mention} resumed the match: the clocks run again."
    await world.env.advance_time(40 * MINUTE - 1)  # what alice had left
    assert (await world.match()).version == 0
    await world.env.advance_time(1)
    assert (await world.match()).version == 1
    texts = await log_texts(world)
    assert any(t.startswith("⏸️ The match is paused") for t in texts)
    assert any(t.startswith("▶️") for t in texts)


async def test_a_pause_ends_by_itself_after_seven_days(world: World) -> None:
    await start(world)
    await world.alice.slash(world.channel, "match pause")
    await world.bob.slash(world.channel, "match pause")
    await world.env.advance_time(7 * 24 * HOUR - 1)
    assert (await world.match()).version == 0  # never timed out while paused
    await world.env.advance_time(1)
    assert world.public_lines()[-1] == (
        "▶️ The pause reached its limit of 7 days: the clocks run again."
    )
    await world.env.advance_time(CLOCK)
    assert (await world.match()).version == 1


async def test_a_pause_that_ran_out_while_the_bot_was_down_gives_no_extra_time(
    world: World, create_bot: BotFactory
) -> None:
    await start(world)
    await world.env.advance_time(20 * MINUTE)  # 40 of alice's 60 minutes left
    await world.alice.slash(world.channel, "match pause")
    await world.bob.slash(world.channel, "match pause")
    await world.bot.close()
    await world.env.advance_time(7 * 24 * HOUR + 30 * MINUTE)  # down past the limit
    await world.env.restart_bot(create_bot())
    await world.env.advance_time(1)
    resumed = "▶️ The pause reached its limit of 7 days: the clocks run again."
    assert resumed in world.public_lines()[-2:]
    # The clock ran again at the limit, half an hour ago: 10 minutes are left, not 40.
    await world.env.advance_time(10 * MINUTE - 2)
    assert (await world.match()).version == 0
    await world.env.advance_time(2)
    assert (await world.match()).version == 1


async def test_a_moderator_pause_is_resumed_only_by_a_moderator(world: World) -> None:
    match_id = await start(world)
    clock = world.bot.clock
    line = await clock.pause(match_id, world.eve.id, moderator=True)
    assert line.startswith(f"⏸️ The match is paused by a moderator (<@{world.eve.id}>)")
    refused = await world.alice.slash(world.channel, "match resume")
    assert answer(refused) == "A moderator paused this match: only a moderator can resume it."
    extended = await clock.extend(match_id, 30 * MINUTE, world.eve.id)
    assert extended == (
        f"⏱️ A moderator (<@{world.eve.id}>) gave alice 30 minutes more: "
        "alice has 1 hour 30 minutes (frozen)."
    )
    assert (await clock.resume(match_id, world.eve.id, moderator=True)).startswith("▶️")
    await world.env.advance_time(CLOCK + 30 * MINUTE - 1)
    assert (await world.match()).version == 0
    await world.env.advance_time(1)
    assert (await world.match()).version == 1
    entries = await world.bot.store.log.entries(match_id)
    assert [(e.kind, e.user_id) for e in entries[:3]] == [
        ("pause", world.eve.id),
        ("extend", world.eve.id),
        ("resume", world.eve.id),
    ]


async def test_nudge_is_refused_before_half_the_clock_then_allowed_once(world: World) -> None:
    await start(world)
    await world.env.advance_time(10 * MINUTE)
    early = await world.bob.slash(world.channel, "match nudge")
    assert answer(early).startswith(
        "Not yet: alice can be nudged once half their clock is gone, at <t:"
    )
    own = await world.alice.slash(world.channel, "match nudge")
    assert answer(own) == "Nobody else is deciding right now."
    outsider = await world.eve.slash(world.channel, "match nudge")
    assert answer(outsider) == "You are not playing in this match."
    await world.env.advance_time(20 * MINUTE)
    nudged = await world.bob.slash(world.channel, "match nudge")
    assert answer(nudged) == "You nudged alice."
    assert world.public_lines()[-1].startswith(
        f"👉 {world.alice.mention}, bob nudges you: your turn — raise a banner. Decide by <t:"
    )
    again = await world.bob.slash(world.channel, "match nudge")
    assert answer(again) == "Not yet: alice was nudged already for this decision."


async def test_an_out_of_turn_decision_gets_the_shorter_clock(world: World) -> None:
    match_id = await start(world)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    hand = await world.bot.matches.view(match_id, world.alice.id)
    big = next(c.key for c in hand.choices if int(c.key.split("|")[1]) >= 4)
    await world.alice.slash(world.channel, "play", action=big)
    window = await deadline(world, 1)
    assert window.out_of_turn and window.clock_seconds == out_of_turn_clock(CLOCK) == 15 * MINUTE
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None and status.response.ephemeral
    clocks = next(f.value for f in status.response.embeds[0].fields if f.name == "Clock") or ""
    assert re.match(r"⏰ bob decides by <t:(\d+):f> \(<t:\1:R>\)", clocks)
    assert clocks.endswith("(out of turn).")
    await world.env.advance_time(15 * MINUTE)
    lines = world.public_lines()[-1].splitlines()
    assert lines[0] == "⏰ bob's time ran out."
    turn = await deadline(world, 1)  # now bob's own turn: the full clock
    assert (turn.out_of_turn, turn.clock_seconds) == (False, CLOCK)


async def test_players_deciding_at_once_keep_their_running_clocks(world: World) -> None:
    await start(world, [world.alice, world.bob, world.carol], variant="muster")
    before = {seat: await deadline(world, seat) for seat in (0, 1, 2)}
    await world.env.advance_time(10 * MINUTE)
    await world.carol.slash(world.channel, "play", action="banner|cyan")
    for seat in (0, 1):
        kept = await deadline(world, seat)
        assert kept.due_at == before[seat].due_at and kept.version == 1
    assert await world.bot.store.clocks.deadline(world.match_id or 0, 2) is None


async def test_tooth_and_nail_deadlines_keep_a_real_game_going(world: World) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", variant="2p", seed=3, clock="5m"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    versions = []
    for _ in range(5):  # nobody plays: each deadline takes the game's timeout action
        await world.env.advance_time(5 * MINUTE)
        versions.append((await world.match()).version)
    assert versions == [1, 2, 3, 4, 5]
    table = await world.bot.matches.table(world.match_id)
    assert table.match.status == "finished"  # the first player's third timeout: a forfeit
    assert table.outcome is not None and len(table.outcome.winners) == 1
    assert await world.bot.matches.verify(world.match_id)


async def test_a_moment_that_fails_is_tried_again_later(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await start(world)
    service = world.bot.matches
    real = service.timeout
    calls = []

    async def flaky(*args: object, **kwargs: object) -> object:
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("database on fire")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "timeout", flaky)
    await world.env.advance_time(CLOCK)
    assert (await world.match()).version == 0
    assert "database on fire" in caplog.text
    caplog.clear()
    await world.env.advance_time(5 * MINUTE)
    assert (await world.match()).version == 1
    assert len(calls) == 2


# ------------------------------------------ clock actions racing a player's action


@asynccontextmanager
async def racing(
    db_path: Path, variant: str, players: int
) -> AsyncIterator[tuple[MatchService, Table]]:
    """A match service on a real store and a match it started, with `players` seated as
    users 1, 2, ...: Tally for two, Mystic Vale for three (where a forfeit leaves the
    others playing), on a fresh database at `db_path`; the store is closed after."""
    store = await Store.open(db_path)
    service = MatchService(store, {**GAMES, "tally": tally.GAME})
    game = "tally" if players == 2 else "mystic-vale"
    try:
        lobby = await service.new_lobby(
            guild_id=1, channel_id=1, user_id=1, name="P1", game=game, variant=variant, seed=3
        )
        for user in range(2, players + 1):
            await service.join(lobby.match.id, user, f"P{user}")
        yield service, await service.start(lobby.match.id, 1)
    finally:
        await store.close()


async def later(steps: int, work: Awaitable[T]) -> T:
    """`work`, after yielding to the event loop `steps` times (shifting an interleaving)."""
    for _ in range(steps):
        await asyncio.sleep(0)
    return await work


async def test_a_player_acting_as_the_abandon_fires_acts_first_or_is_told(
    tmp_path: Path,
) -> None:
    """Issue 11, finding 4: the clock's abandon took no match lock, so a player acting at
    that moment was told "The match changed… Try again", though the match was over. Now
    it goes through the match service under the match's lock: the player's action is
    applied before it (and the abandon gives way), or refused saying what happened."""
    outcomes = set()
    for clock_first in (False, True):
        for steps in range(6):
            db_path = tmp_path / f"race-{clock_first}-{steps}.db"
            async with racing(db_path, "duel", 2) as (service, table):
                match_id, version = table.match.id, table.match.version
                play = service.act(match_id, 1, "banner|amber")
                abandon = service.abandon(
                    match_id, version=version, note="⏰ P1 timed out.", leaver=0
                )
                if clock_first:
                    abandoned, acted = await asyncio.gather(
                        abandon, later(steps, play), return_exceptions=True
                    )
                else:
                    acted, abandoned = await asyncio.gather(
                        play, later(steps, abandon), return_exceptions=True
                    )
                match = await service.get(match_id)
                entries = [(e.kind, e.text) for e in await service.log.entries(match_id)]
                if isinstance(acted, ActResult):
                    assert isinstance(abandoned, errors.StateChanged)  # the clock gave way
                    assert (match.status, match.version, entries) == ("active", version + 1, [])
                    outcomes.add("acted first")
                    continue
                assert isinstance(acted, errors.MatchAbandoned), repr(acted)
                assert acted.message == (
                    "The match was abandoned at its deadline (a player ran out of time 3 "
                    "times in a row), so nothing happened: nobody won."
                )
                assert isinstance(abandoned, Table) and abandoned.match.status == "abandoned"
                assert (match.status, match.version) == ("abandoned", version)
                assert entries == [("abandon", "⏰ P1 timed out.")]
                outcomes.add("told")
    assert outcomes == {"acted first", "told"}


@pytest.mark.parametrize(
    ("variant", "players", "then"),
    [("duel", 2, "the match is over"), ("3p", 3, "the others play on without you")],
)
async def test_a_player_whose_seat_the_clock_forfeits_acts_first_or_is_told(
    tmp_path: Path, variant: str, players: int, then: str
) -> None:
    """The same race with a forfeit (the skip policy's third timeout): the player's own
    action comes first, or they read that they forfeited: the match is over (two
    players), or the others play on without them (three players of Mystic Vale)."""
    for clock_first in (False, True):
        db_path = tmp_path / f"race-{clock_first}.db"
        async with racing(db_path, variant, players) as (service, table):
            match_id, version = table.match.id, table.match.version
            seat = table.to_act[0]
            user = table.user_of(seat).user_id
            key = (await service.view(match_id, user)).choices[0].key
            play = service.act(match_id, user, key)
            forfeit = service.timeout(
                match_id, seat, version=version, forfeit=True, note="⏰ P1 forfeits."
            )
            if clock_first:
                forfeited, acted = await asyncio.gather(forfeit, play, return_exceptions=True)
            else:
                acted, forfeited = await asyncio.gather(play, forfeit, return_exceptions=True)
            if not clock_first:
                assert isinstance(acted, ActResult), repr(acted)
                assert isinstance(forfeited, errors.StateChanged)
                continue
            assert isinstance(forfeited, ActResult), repr(forfeited)
            told = (
                "You forfeited at your deadline (you ran out of time 3 times in a row), so "
                f"nothing happened: {then}."
            )
            assert isinstance(acted, errors.Forfeited) and acted.message == told
            entries = await service.log.entries(match_id)
            assert [(e.kind, e.version) for e in entries] == [("forfeit", version + 1)]
            with pytest.raises(errors.Forfeited):  # and so is any later action
                await service.act(match_id, user, key)


async def test_after_an_abandon_the_next_play_is_told_the_match_was_abandoned(
    world: World,
) -> None:
    """Through Discord: the third timeout in a row with the abandon policy ends the
    match; alice's next `/play`, and the private menu she opened before, say so."""
    await start(world, timeout="abandon")
    hand = await world.alice.slash(world.channel, "hand")
    assert hand.response is not None
    for _ in range(10):
        if (await world.match()).status != "active":
            break
        await world.env.advance_time(CLOCK)
    assert (await world.match()).status == "abandoned"
    played = await world.alice.slash(world.channel, "play", action="banner|amber")
    assert answer(played) == (
        "There is no open match in this channel: the last one was abandoned at its deadline "
        "(a player ran out of time 3 times in a row), with no winner. "
        "Start one with `/match new`."
    )
    menu = menu_id(hand.response)
    chosen = await world.alice.select(hand.response, ["banner|azure"], custom_id=menu)
    assert answer(chosen) == (
        "The match was abandoned at its deadline (a player ran out of time 3 times in a row), "
        "so nothing happened: nobody won."
    )
