"""A tournament pairing whose match ends without being played out, through the real bot
(simcord): a moderator's `/mod abort` counts at once as a loss for both sides and the
tournament goes on (in an elimination neither side goes on; a final stopped so has no
winner); a match the clock abandons is lost by the side that ran out of time, and its
thread says so. The tournament's own closings (a recorded result, a round paired
again, the tournament cancelled) are not aborts, and a moderator can still record
another result for an aborted pairing while its round is being played."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
import simcord

from bot.service.store import TournamentGame
from bot.service.tournaments import Event
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.playout import play_randomly
from tests.bot.test_moderation import admin, answer
from tests.bot.test_tournament_discord import (
    event_of,
    lines_in,
    settled,
    signed_up,
    standings_lines,
)
from tests.bot.world import World

DAY = 86400
STOPPED = "🏆 This match was stopped before it had a result, so for the tournament it counts"


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


async def started(
    world: World, mona: simcord.MemberActor, players: list[simcord.MemberActor], **options: Any
) -> Event:
    """A Tally duel tournament opened, joined by `players` and started by the moderator,
    every pairing seated in its thread."""
    given = {"name": "Cup", "game": "tally", "variant": "duel", "seeding": "random", "seed": 3}
    await signed_up(world, mona, players, **{**given, **options})
    await mona.slash(world.channel, "tournament start")
    await settled(world)
    return await event_of(world)


def thread_of(world: World, game: TournamentGame) -> Any:
    return next(t for t in world.channel.threads if t.id == game.thread_id)


def game_at(event: Event, round_no: int, board: int) -> TournamentGame:
    return next(g for g in event.round_games(round_no) if g.board == board)


def figures_of(world: World, event: Event) -> dict[str, str]:
    """Each side's standings figures, by its name."""
    lines, _ = standings_lines(world, event)
    return {line.split(" — ")[0].split(" ", 1)[1]: line.split(" — ")[1] for line in lines}


def table_lines(world: World, event: Event) -> list[str]:
    """The lines of the round being played under the standings."""
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    field = next(f for f in shown.embeds[0].fields if (f.name or "").startswith("Round "))
    return (field.value or "").splitlines()


async def log_of(world: World, event: Event) -> list[str]:
    return [text for _, _, text in await world.bot.store.tournaments.log(event.row.id)]


@pytest.mark.engines
async def test_a_match_a_moderator_aborts_is_a_loss_for_both_at_once(world: World) -> None:
    """Issue 42 item 6: the aborted pairing waited for the round's deadline, then was
    drawn "at the deadline". It counts at once as a loss for both, its thread says so,
    and the round moves on when its other pairing ends, with no time passing."""
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave]
    event = await started(world, mona, players, format="swiss", rounds=2, deadline="1d")
    aborted, other = event.round_games()
    a, b = event.name(aborted.a), event.name(aborted.b)
    thread = thread_of(world, aborted)

    done = await mona.slash(thread, "mod abort")
    assert answer(done) == "The match is aborted."
    await settled(world)
    assert lines_in(thread, world)[-2:] == [
        f"🛡️ The match was aborted by <@{mona.id}>: nobody wins.",
        f"{STOPPED} as a loss for both sides, {a} and {b}.",
    ]
    event = await event_of(world)
    decided = game_at(event, 1, aborted.board)
    assert (decided.points, decided.how) == (0.0, "aborted")
    shown = figures_of(world, event)
    assert shown[a] == shown[b] == "**0 points** (1 loss) · Bh 0 · SB 0"
    assert f"Table {aborted.board}: {a} and {b} both lost (match stopped) ✅" in table_lines(
        world, event
    )

    await play_randomly(world.bot.matches, other.match_id, random.Random(1))
    await settled(world)
    event = await event_of(world)
    assert event.row.round == 2  # paired at once: nobody waits for round 1's deadline
    assert all(g.match_id is not None for g in event.round_games())
    log = await log_of(world, event)
    stopped = f"match #{aborted.match_id} was stopped before it had a result"
    assert f"Round 1, table {aborted.board}: {a} and {b} both lost ({stopped})." in log
    assert not [line for line in log if "deadline" in line or "drawn" in line]
    assert not [line for line in lines_in(thread, world) if "draw" in line]
    helped = (await world.alice.slash(world.channel, "help")).response
    assert helped is not None
    assert "match a moderator aborts counts at once as a loss for both sides" in (
        helped.embeds[0].description or ""
    )


@pytest.mark.engines
async def test_in_an_elimination_neither_side_of_an_aborted_pairing_goes_on(
    world: World,
) -> None:
    """Four players: a semi-final is aborted, so the winner of the other one has a bye in
    the final and wins the tournament."""
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave]
    event = await started(world, mona, players, format="elimination")
    aborted, other = event.round_games()
    a, b = event.name(aborted.a), event.name(aborted.b)
    thread = thread_of(world, aborted)
    await mona.slash(thread, "mod abort")
    await settled(world)
    assert lines_in(thread, world)[-1] == (
        f"{STOPPED} as a loss for both sides, {a} and {b}. Neither goes on to the next round."
    )

    await play_randomly(world.bot.matches, other.match_id, random.Random(2))
    await settled(world)
    event = await event_of(world)
    played = game_at(event, 1, other.board)
    winner = played.a if played.points == 1.0 else played.b
    assert event.row.status == "finished"
    assert [(g.a, g.b) for g in event.round_games(2)] == [(winner, None)]  # a bye
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    assert fields["Winner"] == f"🥇 {event.name(winner)}"
    assert (await log_of(world, event))[-1] == f"The tournament is over: {event.name(winner)} wins."


@pytest.mark.engines
async def test_an_aborted_final_leaves_the_tournament_without_a_winner(world: World) -> None:
    mona = admin(world)
    event = await started(world, mona, [world.alice, world.bob], format="elimination")
    (final,) = event.round_games()
    await mona.slash(thread_of(world, final), "mod abort")
    await settled(world)
    event = await event_of(world)
    assert event.row.status == "finished"
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    assert shown.embeds[0].title == "🏆 Cup — finished"
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    assert fields["Winner"] == "Nobody: the final was stopped before it had a result."
    assert (await log_of(world, event))[-1] == (
        "The tournament is over: nobody wins (the final was stopped before it had a result)."
    )


@pytest.mark.engines
async def test_a_match_the_clock_abandons_is_lost_by_the_side_that_ran_out_of_time(
    world: World,
) -> None:
    """The abandon timeout policy ends a match after a player runs out of time three times
    in a row. The match itself has no winner, so its thread is told at once how it
    counts for the tournament: the side that ran out of time loses, and the tournament
    goes on (here it ends) without waiting for the round's deadline."""
    mona = admin(world)
    event = await started(
        world, mona, [world.alice, world.bob], format="swiss", rounds=1, deadline="30d"
    )
    (game,) = event.round_games()
    assert game.match_id is not None
    # A tournament's match gets the default terms (a day a decision, `skip`): set up as
    # a match of the abandon policy.
    # (No command gives a tournament's match other terms: written as the store would.)
    store = world.bot.store
    async with store.db.transaction() as db:
        await db.execute(
            "UPDATE matches SET timeout_policy = 'abandon' WHERE id = ?", (game.match_id,)
        )
        db.forget(game.match_id)
    thread = thread_of(world, game)
    for _ in range(10):
        if (await world.bot.matches.get(game.match_id)).status != "active":
            break
        await world.env.advance_time(DAY)
    await settled(world)
    assert (await world.bot.matches.get(game.match_id)).status == "abandoned"
    event = await event_of(world)
    assert event.row.status == "finished"  # no wait for the round's deadline
    decided = game_at(event, 1, game.board)
    assert decided.how == "played" and decided.points in (0.0, 1.0)
    winner, loser = (game.a, game.b) if decided.points == 1.0 else (game.b, game.a)
    lines = lines_in(thread, world)
    assert "the match is abandoned, with no winner" in lines[-2]
    assert lines[-1] == (
        "🏆 For the tournament, the side that ran out of time loses: "
        f"{event.name(winner)} beat {event.name(loser)}."
    )


@pytest.mark.engines
async def test_the_tournaments_own_closings_are_not_aborts(world: World) -> None:
    """A round paired again closes its matches and starts them over; a recorded result
    closes its match with that result; a cancelled tournament closes its matches with no
    result. None of them is read as a match stopped before it had a result."""
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave]
    event = await started(world, mona, players, format="swiss", rounds=2)
    before = {g.board: g.match_id for g in event.round_games()}

    again = await mona.slash(world.channel, "tournament pair-again")
    assert answer(again) == "Round 1 is paired again."
    await settled(world)
    event = await event_of(world)
    first, second = event.round_games()
    assert all(g.points is None for g in (first, second))
    assert {first.match_id, second.match_id}.isdisjoint(before.values())  # started over

    player = world.by_id(event.members(first.a)[0].user_id)
    recorded = await mona.slash(world.channel, "tournament record", player=player, result="win")
    assert answer(recorded).startswith("Recorded: a win for ")
    await settled(world)
    decided = game_at(await event_of(world), 1, first.board)
    assert (decided.points, decided.how) == (1.0, "recorded")

    await mona.slash(world.channel, "tournament cancel")
    await settled(world)
    event = await event_of(world)
    assert event.row.status == "cancelled"
    assert game_at(event, 1, second.board).points is None
    assert lines_in(thread_of(world, second), world)[-1] == (
        f"🛡️ <@{mona.id}> cancelled the tournament: this match is closed."
    )
    for thread in world.channel.threads:
        assert not [line for line in lines_in(thread, world) if line.startswith(STOPPED)]


@pytest.mark.engines
async def test_a_moderator_records_another_result_for_an_aborted_pairing(world: World) -> None:
    """While its round is being played, `/tournament record` gives an aborted pairing
    the result the moderator decides, in place of the loss for both, and its thread is
    told."""
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave]
    event = await started(world, mona, players, format="swiss", rounds=2)
    aborted, _ = event.round_games()
    thread = thread_of(world, aborted)
    await mona.slash(thread, "mod abort")
    await settled(world)
    assert game_at(await event_of(world), 1, aborted.board).how == "aborted"

    loser = world.by_id(event.members(aborted.b)[0].user_id)
    fixed = await mona.slash(world.channel, "tournament record", player=loser, result="loss")
    assert answer(fixed).startswith("Recorded: a loss for ")
    await settled(world)
    a, b = event.name(aborted.a), event.name(aborted.b)
    assert lines_in(thread, world)[-1] == (
        f"🛡️ <@{mona.id}> recorded this game's result instead: {a} beat {b}."
    )
    event = await event_of(world)
    decided = game_at(event, 1, aborted.board)
    assert (decided.points, decided.how) == (1.0, "recorded")
    shown = figures_of(world, event)
    assert shown[a].startswith("**1 point** (1 win)")
    assert shown[b].startswith("**0 points** (1 loss)")
    again = await mona.slash(world.channel, "tournament record", player=loser, result="win")
    assert answer(again) == "That game's result is in already."


@pytest.mark.engines
async def test_a_round_moment_that_wakes_before_its_deadline_leaves_the_round_alone(
    world: World,
) -> None:
    """A moment armed for an earlier state of the tournament (a round that ended early,
    another process's change) wakes while the round has days to go: it looks again and
    leaves the round's matches playing, armed again for the real deadline."""
    mona = admin(world)
    event = await started(world, mona, [world.alice, world.bob], format="swiss", rounds=1)
    assert event.row.round_ends is not None
    world.bot.desk._scheduler.arm(("round", event.row.id), world.env.now())
    await world.env.advance_time(60)
    await settled(world)
    after = await event_of(world)
    assert after.row.status == "running"
    assert all(g.points is None for g in after.round_games())
    await world.env.advance_time(3 * DAY)  # the real deadline: its rule applies
    await settled(world)
    assert all(g.points is not None for g in (await event_of(world)).round_games())
