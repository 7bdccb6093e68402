"""The AI standing in for an absent player, through the real bot on both store engines:
the `ai` timeout policy end to end, and the table's vote held to the absence it was cast
in, under time (a second vote's hour of grace) and races (a move at the vote's moment)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
import simcord

from bot.service import errors
from bot.service.tables import AI_NAME, ActResult
from tests.bot.world import World, answered

pytestmark = pytest.mark.engines

HOUR = 3600


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World.build(simcord_env)


async def open_with(world: World, host: Any, **terms: str) -> simcord.InteractionResult:
    """`/match new` of a 2-player Tooth & Nail game by `host`, with clock `terms`."""
    opened = await host.slash(
        world.channel, "match new", game="tooth-and-nail", variant="2p", seed=7, **terms
    )
    found = await world.bot.store.matches.open_in(world.channel.id)
    if found is not None:
        world.match_id = found.id
    return opened


async def start_with(world: World, **terms: str) -> Any:
    """alice opens a 2-player match with `terms`, bob joins, alice starts; the match."""
    opened = await open_with(world, world.alice, **terms)
    assert opened.response is not None and not opened.response.ephemeral
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    match = await world.match()
    assert match.status == "active"
    return match


def last_with_button(world: World, label: str) -> discord.Message:
    """The latest message of the channel with a button labelled `label`."""
    messages = list(world.channel.history())
    return next(m for m in reversed(messages) if label in str(m.components))


def ai_moves(world: World) -> int:
    """How many moves the AI made for a person, as the channel tells them."""
    return sum(line.startswith(f"🤖 {AI_NAME} plays for ") for line in world.public_lines())


async def settle(world: World) -> None:
    await world.bot.players.settled()
    await world.bot.publisher.idle()


# ------------------------------------------------------------- the ai timeout policy


async def test_a_lobby_with_the_ai_timeout_policy_opens_and_says_so(world: World) -> None:
    opened = await open_with(world, world.alice, timeout="ai")
    assert opened.response is not None and not opened.response.ephemeral
    assert (await world.match()).timeout_policy == "ai"
    terms = next(f for f in opened.response.embeds[0].fields if f.name == "Clock").value
    assert "the AI plays for the player until they are back" in terms


async def test_the_ai_plays_a_timed_out_seat_until_its_player_takes_it_back(
    world: World,
) -> None:
    """The `ai` policy: at the deadline the AI plays the seat at once, the table is told
    and the player pinged with a button to take it back; the match is not rated."""
    match = await start_with(world, timeout="ai", clock="1h")
    waiting = (await world.to_act())[0]
    other = world.bob if waiting is world.alice else world.alice
    name = (await world.bot.matches.table(match.id)).seat_of(waiting.id).name
    await world.env.advance_time(HOUR + 60)
    await settle(world)
    call = last_with_button(world, "Take my seat back")
    assert call.content.startswith(
        f"⏰ <@{waiting.id}>, your time ran out: 🤖 {AI_NAME} plays for you until you are back."
    )
    assert ai_moves(world) > 0  # it played for them, with no forfeit
    lines = "\n".join(world.public_lines())
    assert f"🤖 {AI_NAME} plays for {name}:" in lines
    assert "forfeits" not in lines
    table = await world.bot.matches.table(match.id)
    assert table.seat_of(waiting.id).by_ai and table.match.status == "active"
    board = await world.board()
    assert f"{AI_NAME} for {name}" in board.embeds[0].footer.text
    wrong = await other.click(call, label="Take my seat back")
    assert answered(wrong)[-1].ephemeral
    assert answered(wrong)[-1].content == "Only the player whose seat it is can keep it."
    back = await waiting.click(call, label="Take my seat back")
    assert answered(back)[-1].ephemeral
    assert answered(back)[-1].content == (
        "↩️ Your seat is yours again: the AI plays nothing more for you."
    )
    await settle(world)
    table = await world.bot.matches.table(match.id)
    assert not table.seat_of(waiting.id).by_ai
    assert f"↩️ {name} is back and plays their seat again." in world.public_lines()
    assert table.with_ai  # the AI played in it: never rated
    await world.concede(other)
    records = await world.bot.store.results.player_records(world.guild.id, waiting.id)
    assert records == []


async def test_a_move_of_the_player_takes_back_the_seat_the_timeout_gave_the_ai(
    create_bot: Any,
) -> None:
    """The AI answers after a human pause: a player back in time simply moves."""
    async with simcord.run(create_bot(arbiter_ai_pause=60.0)) as env:
        world = World.build(env)
        match = await start_with(world, timeout="ai", clock="1h")
        waiting = (await world.to_act())[0]
        await world.env.advance_time(HOUR + 1)
        await world.bot.publisher.idle()
        table = await world.bot.matches.table(match.id)
        assert table.seat_of(waiting.id).by_ai
        offered = await waiting.autocomplete(world.channel, "play", "action", "")
        played = await waiting.slash(world.channel, "play", action=offered[0]["value"])
        assert played.response is not None and played.response.content.startswith("✅ ")
        table = await world.bot.matches.table(match.id)
        assert not table.seat_of(waiting.id).by_ai
        assert not table.with_ai  # the AI made no move: the match stays rated


async def test_the_server_default_ai_policy_is_saved_and_used(world: World) -> None:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    saved = await mona.slash(world.channel, "settings timeout", policy="ai")
    assert "Timeout policy saved" in answered(saved)[-1].embeds[0].title
    opened = await open_with(world, world.alice)
    assert opened.response is not None and not opened.response.ephemeral
    assert (await world.match()).timeout_policy == "ai"


async def test_the_ai_policy_for_a_game_the_ai_does_not_play_is_refused_and_saves_nothing(
    world: World,
) -> None:
    """Historia's table is refereed, not played: the `ai` policy is refused in a
    sentence, and the channel holds no half-made lobby (a match opens next)."""
    refused = await world.alice.slash(
        world.channel, "match new", game="historia-command", variant="2p", timeout="ai"
    )
    reply = answered(refused)[-1]
    assert reply.ephemeral
    assert reply.content.startswith("Arbiter doesn't play Historia")
    assert await world.bot.store.matches.open_in(world.channel.id) is None
    opened = await open_with(world, world.alice)
    assert opened.response is not None and not opened.response.ephemeral


async def test_the_server_default_ai_policy_is_skip_for_a_game_the_ai_does_not_play(
    world: World,
) -> None:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "settings timeout", policy="ai")
    opened = await world.alice.slash(
        world.channel, "match new", game="historia-command", variant="2p"
    )
    assert opened.response is not None and not opened.response.ephemeral
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    assert (await world.match()).timeout_policy == "skip"


# -------------------------------------------------------------------- the table's vote


async def test_a_second_vote_gives_its_player_a_full_hour_again(world: World) -> None:
    """Clock 1 h: the table votes at half time, the player keeps the seat, the table
    votes again half a clock later: the AI waits an hour from the second call, not
    from the first (the wait of the first vote looks again when it wakes)."""
    match = await start_with(world, clock="1h")
    waiting = (await world.to_act())[0]
    other = world.bob if waiting is world.alice else world.alice
    await world.env.advance_time(30 * 60)
    first = await other.slash(world.channel, "match ai", player=waiting)
    assert answered(first)[-1].content.startswith("🗳️ The table agreed")
    await world.bot.publisher.idle()
    kept = await waiting.click(last_with_button(world, "Keep my seat"), label="Keep my seat")
    assert answered(kept)[-1].content == "✋ You keep your seat: the AI plays nothing for you."
    await world.env.advance_time(31 * 60)  # half of the clock the keep gave them
    second = await other.slash(world.channel, "match ai", player=waiting)
    assert answered(second)[-1].content.startswith("🗳️ The table agreed")
    await world.env.advance_time(40 * 60)  # past the first vote's hour, not the second's
    await world.bot.publisher.idle()  # (the AI's wait is not over: nothing to settle)
    assert ai_moves(world) == 0
    assert (await world.match()).version == match.version
    await world.env.advance_time(21 * 60)  # the second vote's hour is over
    await settle(world)
    assert ai_moves(world) > 0


async def test_a_vote_counts_only_for_the_absence_it_was_cast_in(world: World) -> None:
    """bob votes while the match waits for the absent player; she comes back and plays;
    at her next absence carol's vote alone hands nothing over."""
    match = await world.start("tooth-and-nail", "3p", [world.alice, world.bob, world.carol])
    absent = (await world.to_act())[0]
    first, second = [p for p in (world.alice, world.bob, world.carol) if p is not absent]
    name = (await world.bot.matches.table(match.id)).seat_of(absent.id).name
    await world.env.advance_time(13 * HOUR)
    asked = await first.slash(world.channel, "match ai", player=absent)
    assert "(1 of 2; waiting for" in answered(asked)[-1].content
    offered = await absent.autocomplete(world.channel, "play", "action", "")
    played = await absent.slash(world.channel, "play", action=offered[0]["value"])
    assert played.response is not None and played.response.content.startswith("✅ ")
    for _ in range(40):  # the others play until the match waits for her again
        deciding = await world.to_act()
        if absent in deciding:
            break
        offered = await deciding[0].autocomplete(world.channel, "play", "action", "")
        await deciding[0].slash(world.channel, "play", action=offered[0]["value"])
    assert absent in await world.to_act()
    await world.env.advance_time(13 * HOUR)
    again = await second.slash(world.channel, "match ai", player=absent)
    assert "(1 of 2; waiting for" in answered(again)[-1].content
    assert not (await world.bot.matches.table(match.id)).seat_of(absent.id).by_ai
    log = await world.bot.store.log.entries(match.id)
    votes = [e.text for e in log if e.kind == "ai-vote"]
    assert votes[-1] == f"🗳️ {second.name} asks that {AI_NAME} play for {name}."


async def test_a_vote_against_a_replaced_player_does_not_bind_the_new_one(world: World) -> None:
    match = await world.start("tooth-and-nail", "3p", [world.alice, world.bob, world.carol])
    absent = (await world.to_act())[0]
    first, second = [p for p in (world.alice, world.bob, world.carol) if p is not absent]
    await world.env.advance_time(13 * HOUR)
    asked = await first.slash(world.channel, "match ai", player=absent)
    assert "(1 of 2; waiting for" in answered(asked)[-1].content
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    done = await mona.slash(world.channel, "mod replace", old=absent, new=world.dave)
    assert not answered(done)[-1].content.startswith("Sorry")
    assert (await world.bot.matches.table(match.id)).seat_of(world.dave.id) is not None
    await world.env.advance_time(13 * HOUR)
    again = await second.slash(world.channel, "match ai", player=world.dave)
    assert "(1 of 2; waiting for" in answered(again)[-1].content
    assert not (await world.bot.matches.table(match.id)).seat_of(world.dave.id).by_ai


@pytest.mark.parametrize("steps", range(6))
async def test_a_vote_and_a_move_at_the_same_moment_never_hand_over_a_seat_just_played(
    world: World, steps: int
) -> None:
    """The absent player moves as the table's last vote comes in: either the vote comes
    first (and the move takes the seat back) or the move does (and the vote is refused):
    the player who moved never finds the AI in their seat."""
    match = await start_with(world)
    waiting = (await world.to_act())[0]
    other = world.bob if waiting is world.alice else world.alice
    await world.env.advance_time(13 * HOUR)
    key = (await world.bot.matches.view(match.id, waiting.id)).choices[0].key
    seat = (await world.bot.matches.table(match.id)).seat_of(waiting.id)
    assert seat is not None

    async def later(work: Any) -> Any:
        for _ in range(steps):
            await asyncio.sleep(0)
        return await work

    move = world.bot.matches.act(match.id, waiting.id, key, decisions=seat.decisions)
    vote = world.bot.clock.vote_ai(match.id, other.id, waiting.id)
    moved, voted = await asyncio.gather(move, later(vote), return_exceptions=True)
    assert isinstance(moved, ActResult), repr(moved)
    if isinstance(voted, BaseException):
        assert isinstance(voted, errors.UserError), repr(voted)
    await settle(world)
    table = await world.bot.matches.table(match.id)
    assert not table.seat_of(waiting.id).by_ai
    assert ai_moves(world) == 0
