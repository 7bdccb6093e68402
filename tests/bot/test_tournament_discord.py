"""A tournament through the real bot (simcord): a moderator opens it, players join by
button, each pairing is played in its own thread (called by name, with its board) by
random legal play, the results come in as the matches end, a player drops out, the bot
restarts in the middle of a round, a round's deadline passes, and the standings message
shows the end. Nothing is posted twice."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import discord
import simcord

from bot.desk import NOT_FROM_HERE, TournamentButton
from bot.service.tournaments import Event
from tests.bot.playout import play_randomly
from tests.bot.test_moderation import add_member, admin, answer
from tests.bot.world import World

DAY = 86400


async def settled(world: World) -> None:
    """Every result collected (the desk's work after a match ends), every line posted."""
    await world.bot.desk.idle()
    await world.bot.publisher.idle()


async def event_of(world: World) -> Event:
    return await world.bot.desk.service.in_channel(world.channel.id, world.guild.id, ended=True)


async def signed_up(
    world: World, mona: simcord.MemberActor, players: list[simcord.MemberActor], **options: Any
) -> Any:
    """`/tournament new` in the channel by the moderator, then each player presses Join
    (the sign-up message, updated in place, is returned)."""
    opened = await mona.slash(world.channel, "tournament new", **options)
    signup = opened.response
    assert signup is not None and not signup.ephemeral
    for player in players:
        await player.click(signup, label="Join")
    return signup


async def play_round(world: World, rng: random.Random, *, leave: int = 0) -> Event:
    """Play the open matches of the round being played (all but `leave` of them)."""
    event = await event_of(world)
    open_ = [g for g in event.round_games() if g.b is not None and g.points is None]
    for game in open_[: len(open_) - leave]:
        assert game.match_id is not None, "every pairing is seated in its thread"
        await play_randomly(world.bot.matches, game.match_id, rng)
    await settled(world)
    return await event_of(world)


def threads_of(world: World) -> dict[str, Any]:
    return {t.name: t for t in world.channel.threads}


def lines_in(thread: Any, world: World) -> list[str]:
    return [m.content for m in thread.history(viewer=world.eve) if m.content]


async def test_an_8_player_swiss_of_tooth_and_nail_through_discord(
    world: World, create_bot: Any
) -> None:
    rng = random.Random(26)
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave, world.eve, world.frank]
    players += [add_member(world, "gus"), add_member(world, "hal")]
    signup = await signed_up(
        world,
        mona,
        players,
        name="Winter Cup",
        game="tooth-and-nail",
        variant="2p",
        format="swiss",
        rounds=3,
        signup="1h",
        deadline="1d",
        seeding="random",
    )
    assert signup.embeds[0].title == "🏆 Winter Cup — sign-up open"
    field = signup.embeds[0].fields[0]  # shown at once, by name
    assert (field.name, field.value) == (
        "Signed up (8)",
        "alice, bob, carol, dave, eve, frank, gus, hal",
    )
    refused = await world.alice.slash(world.channel, "tournament start")
    assert "moderator" in answer(refused).lower()
    started = await mona.slash(world.channel, "tournament start")
    assert answer(started) == "Started: round 1 is paired."

    event = await event_of(world)
    assert (event.row.status, event.row.round) == ("running", 1)
    await settled(world)
    round_one = [g for g in event.round_games()]
    assert len(round_one) == 4 and all(g.thread_id for g in round_one)
    for game in round_one:
        thread = next(t for t in world.channel.threads if t.id == game.thread_id)
        users = [p.user_id for p in event.members(game.a) + event.members(game.b)]
        first = lines_in(thread, world)[0]
        assert first.startswith("🏆 **Winter Cup**, round 1, table")
        assert all(f"<@{u}>" in first for u in users)

    event = await play_round(world, rng)
    assert event.row.round == 2

    # Round 2: one match played, a player drops out of another, then a restart.
    open_ = [g for g in event.round_games() if g.b is not None]
    await play_randomly(world.bot.matches, open_[0].match_id, rng)
    by_id = {p.id: p for p in players}
    leaving = by_id[event.members(open_[1].a)[0].user_id]
    their_thread = next(t for t in world.channel.threads if t.id == open_[1].thread_id)
    dropped = await leaving.slash(their_thread, "tournament drop")  # from their match
    assert answer(dropped).endswith("is out of the tournament.")
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    event = await play_round(world, rng)
    assert event.row.round == 3
    gone = event.entrant_of(leaving.id)
    assert all(gone not in (g.a, g.b) for g in event.round_games())

    # Round 3: one match is still going when the round's deadline passes.
    event = await play_round(world, rng, leave=1)
    late = next(g for g in event.round_games() if g.b is not None and g.points is None)
    await play_randomly(world.bot.matches, late.match_id, rng, stop_before_end=True)
    await world.env.advance_time(DAY + 60)
    await settled(world)
    event = await event_of(world)
    assert event.row.status == "finished"
    assert next(g for g in event.games if g.board == late.board and g.round == 3).points is not None

    # Nothing twice: one thread per pairing, one call line in each.
    names = Counter(t.name for t in world.channel.threads)
    assert all(n == 1 for n in names.values())
    assert len(names) == sum(1 for g in event.games if g.b is not None and g.how != "dropped")
    for thread in world.channel.threads:
        calls = [line for line in lines_in(thread, world) if line.startswith("🏆 **Winter Cup**")]
        assert len(calls) == 1, thread.name

    # The standings message, kept up to date, shows the end as the service ranks it.
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    embed = shown.embeds[0]
    assert embed.title == "🏆 Winter Cup — finished"
    lines = dict((f.name, f.value) for f in embed.fields)["Standings"].splitlines()
    for line, standing in zip(lines, event.standings(), strict=True):
        assert line.startswith(f"**{standing.rank}.** {event.name(standing.entrant)}")
    assert "(dropped out)" in lines[[s.entrant for s in event.standings()].index(gone)]
    assert shown.components == []  # no Join button any more
    logged = await world.eve.slash(world.channel, "tournament log")
    assert logged.response is not None
    text = logged.response.embeds[0].description or ""
    assert f"{event.name(gone)} dropped out (themselves)." in text
    assert text.splitlines()[-1].startswith("• The tournament is over:")


async def test_a_4_team_round_robin_of_command_of_nature_through_discord(world: World) -> None:
    """Eight players make four teams of two (by rating: all new, so in sign-up order,
    the first with the last); every team meets every other once. A team drops out in
    round 2 (its last game is lost unplayed) and round 3's last match is still going
    at its deadline."""
    rng = random.Random(4)
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave, world.eve, world.frank]
    players += [add_member(world, "gus"), add_member(world, "hal")]
    await signed_up(
        world,
        mona,
        players,
        name="Nature League",
        game="command-of-nature",
        variant="4p",
        format="round-robin",
        deadline="2d",
    )
    await mona.slash(world.channel, "tournament start")
    event = await event_of(world)
    assert event.row.rounds == 3 and len(event.entrants) == 4
    assert [len(event.members(e.entrant)) for e in event.entrants] == [2, 2, 2, 2]
    assert {p.user_id for p in event.members(1)} == {world.alice.id, players[-1].id}
    for game in event.round_games():
        table = await world.bot.matches.table(game.match_id)
        sides = {table.teams[s.seat] for s in table.seats if event.entrant_of(s.user_id) == game.a}
        assert len(sides) == 1  # teammates sit on one side

    event = await play_round(world, rng)
    assert event.row.round == 2
    by_id = {p.id: p for p in players}
    quitter = by_id[event.members(event.round_games()[0].b)[0].user_id]
    await mona.slash(world.channel, "tournament drop", player=quitter)
    event = await play_round(world, rng)
    assert event.row.round == 3
    gone = event.entrant_of(quitter.id)
    (forfeited,) = [g for g in event.round_games() if gone in (g.a, g.b)]
    assert forfeited.how == "dropped" and forfeited.match_id is None

    late = next(g for g in event.round_games() if g.points is None)
    await play_randomly(world.bot.matches, late.match_id, rng, stop_before_end=True)
    await world.env.advance_time(2 * DAY + 60)
    await settled(world)
    event = await event_of(world)
    assert event.row.status == "finished"
    assert len({frozenset((g.a, g.b)) for g in event.games}) == 6
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    assert shown.embeds[0].title == "🏆 Nature League — finished"
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    winner = event.name(event.standings()[0].entrant)
    assert fields["Winner"] == f"🥇 {winner}"


async def test_a_forged_or_foreign_join_is_refused_and_changes_nothing(world: World) -> None:
    """The Join button's id names its tournament: a huge number, a tournament that
    doesn't exist, the genuine one clicked in another channel or server or in DMs —
    each refused with a sentence, nobody signed up."""
    options = {"name": "Cup", "game": "tooth-and-nail", "variant": "2p", "format": "elimination"}
    await signed_up(world, admin(world), [], **options)
    event = await event_of(world)
    real = TournamentButton("join", event.row.id)
    elsewhere = world.guild.create_text_channel("elsewhere")
    other = world.env.create_guild("Elsewhere").create_text_channel("games")
    cases = [
        (world.channel, TournamentButton("join", int("9" * 70))),
        (world.channel, TournamentButton("join", 999999)),
        (elsewhere, real),
        (other, real),
        (world.alice.user, real),
    ]
    for where, item in cases:
        view = discord.ui.View(timeout=None)
        view.add_item(item)
        if isinstance(where, simcord.UserHandle):
            await (await world.bot.fetch_user(where.id)).send("A button", view=view)
            message, actor = where.dm_channel.last_message, where
        else:
            await world.bot.get_partial_messageable(where.id).send("A button", view=view)
            message = where.last_message
            actor = world.alice
            if where is other:
                actor = other.guild.add_member(world.alice.user)
        result = await actor.click(message, custom_id=item.custom_id)
        assert result.response is not None and result.response.content == NOT_FROM_HERE
    assert (await event_of(world)).players == []


async def test_what_opening_a_tournament_refuses(world: World) -> None:
    mona = admin(world)
    world.env.backend.create_thread(world.channel.id, "chat", world.alice.id)
    thread = next(t for t in world.channel.threads if t.name == "chat")
    options = {"name": "Cup", "game": "tooth-and-nail", "variant": "2p", "format": "swiss"}
    cases = [
        (world.alice, world.channel, {**options, "rounds": 3}, "moderator"),
        (mona, thread, {**options, "rounds": 3}, "Open a tournament in a text channel"),
        (mona, world.channel, options, "A Swiss tournament plays 1 to 12 rounds."),
        (mona, world.channel, {**options, "variant": "3p", "rounds": 2}, "pairs two sides"),
        (mona, world.channel, {**options, "rounds": 2, "deadline": "1m"}, "a round ten minutes"),
        # typed, not picked from the suggestions (the option is free text)
        (mona, world.channel, {**options, "rounds": 2, "format": "ladder"}, "format is one of"),
    ]
    for who, where, given, told in cases:
        refused = await who.slash(where, "tournament new", **given)
        assert told in answer(refused), (given, answer(refused))
    assert await world.bot.store.tournaments.in_channel(world.channel.id) == []


async def test_a_round_paired_just_before_a_stop_is_seated_after_the_restart(
    world: World, create_bot: Any
) -> None:
    """The round was paired and saved, then the process stopped before any thread was
    opened: once the restarted bot knows its channels, each pairing gets its thread,
    its match and one call."""
    mona = admin(world)
    players = [world.alice, world.bob, world.carol, world.dave]
    await signed_up(
        world,
        mona,
        players,
        name="Cup",
        game="tooth-and-nail",
        variant="2p",
        format="round-robin",
    )
    event = await event_of(world)
    service = world.bot.desk.service
    await service.start(event.row.id, mona.id, now=discord.utils.utcnow())  # no desk
    assert world.channel.threads == []
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.bot.wait_until_ready()
    await world.env.settle()
    await settled(world)
    event = await event_of(world)
    assert all(g.match_id is not None for g in event.round_games())
    assert len(world.channel.threads) == 2
    for thread in world.channel.threads:
        calls = [line for line in lines_in(thread, world) if line.startswith("🏆 **Cup**")]
        assert len(calls) == 1


async def test_standings_discord_refused_are_shown_again_later(world: World) -> None:
    """The final result comes in while Discord refuses the standings edit (twice):
    the message is shown again a minute later, then after two more, as the end."""
    mona = admin(world)
    await signed_up(
        world,
        mona,
        [world.alice, world.bob],
        name="Final",
        game="tooth-and-nail",
        variant="2p",
        format="elimination",
    )
    await mona.slash(world.channel, "tournament start")
    event = await event_of(world)
    path = f"/channels/{world.channel.id}/messages/{event.row.message_id}"
    world.env.inject_error("PATCH", path, status=503, times=2)
    (game,) = event.round_games()
    await play_randomly(world.bot.matches, game.match_id, random.Random(1))
    await settled(world)
    assert (await event_of(world)).row.status == "finished"

    message_id = event.row.message_id

    def title() -> str:
        shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == message_id)
        return shown.embeds[0].title or ""

    assert title() == "🏆 Final — round 1 of 1"  # the edit was refused
    await world.env.advance_time(61)
    await settled(world)
    assert title() == "🏆 Final — round 1 of 1"  # refused again: next in two minutes
    await world.env.advance_time(121)
    await settled(world)
    assert title() == "🏆 Final — finished"


async def test_a_standings_post_cut_short_by_a_stop_is_found_not_posted_twice(
    world: World, create_bot: Any
) -> None:
    """Someone deleted the tournament's message; the bot posted it anew and stopped
    before saving the new message's id. After the restart the new message is found in
    the channel and kept up to date: the channel shows the tournament once."""
    mona = admin(world)
    signup = await signed_up(
        world,
        mona,
        [world.alice, world.bob],
        name="Cup",
        game="tooth-and-nail",
        variant="2p",
        format="swiss",
        rounds=1,
    )
    event = await event_of(world)
    tidy = world.guild.create_role("Tidy", permissions=discord.Permissions(manage_messages=True))
    await add_member(world, "tess", tidy).delete(signup)
    store = world.bot.store

    async def stopped(*_: object) -> None:
        raise RuntimeError("the process stopped here")

    store.tournaments.set_message = stopped  # type: ignore[method-assign]
    try:
        await world.bot.desk.settle(event.row.id)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the post was to be cut short")

    def shown() -> list[Any]:
        mark = f"Tournament #{event.row.id}"
        return [
            m
            for m in world.channel.history(viewer=world.eve)
            if m.embeds and (m.embeds[0].footer.text or "").startswith(mark)
        ]

    (posted,) = shown()
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.bot.wait_until_ready()
    await world.env.settle()
    await settled(world)
    assert [m.id for m in shown()] == [posted.id]
    assert (await event_of(world)).row.message_id == posted.id
    await world.carol.click(posted, label="Join")  # the buttons of the message found work
    assert shown()[0].embeds[0].fields[0].name == "Signed up (3)"


async def test_tournament_new_suggests_variants_and_formats_after_a_space(world: World) -> None:
    variants = await world.alice.autocomplete(
        world.channel, "tournament new", "variant", " ", game="tooth-and-nail"
    )
    assert "2p" in [v["value"] for v in variants]
    formats = await world.alice.autocomplete(world.channel, "tournament new", "format", " ")
    assert [f["value"] for f in formats] == ["swiss", "round-robin", "elimination"]
    typed = await world.alice.autocomplete(world.channel, "tournament new", "format", "robin ")
    assert [f["value"] for f in typed] == ["round-robin"]


async def test_tournament_new_offers_only_the_variants_a_tournament_plays(world: World) -> None:
    """Two sides a game: 2-player variants and two-team ones; never 3 or 4 players each
    on their own, nor solitaire."""
    tooth = await world.alice.autocomplete(
        world.channel, "tournament new", "variant", "", game="tooth-and-nail"
    )
    assert [v["value"] for v in tooth] == ["2p", "alliance", "4p"]
    vale = await world.alice.autocomplete(
        world.channel, "tournament new", "variant", "", game="mystic-vale"
    )
    assert [v["value"] for v in vale] == ["2p"]
    typed = await world.alice.autocomplete(
        world.channel, "tournament new", "variant", "3 players", game="tooth-and-nail"
    )
    assert typed == []
    unchosen = await world.alice.autocomplete(world.channel, "tournament new", "variant", "")
    assert [v["value"] for v in unchosen] == ["2p", "alliance", "4p"]
    assert "Mystic Vale" not in next(v["name"] for v in unchosen if v["value"] == "4p")
    # /match new still offers every variant.
    lobby = await world.alice.autocomplete(
        world.channel, "match new", "variant", "", game="tooth-and-nail"
    )
    assert [v["value"] for v in lobby] == ["2p", "3p", "alliance", "4p"]


def standings_lines(world: World, event: Event) -> tuple[list[str], str]:
    """The lines of the standings message's Standings field, and its footer."""
    shown = next(m for m in world.channel.history(viewer=world.eve) if m.id == event.row.message_id)
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    return fields["Standings"].splitlines(), shown.embeds[0].footer.text or ""


async def test_a_bye_reads_as_a_point_and_a_round_won_each_said_once(world: World) -> None:
    """Three players: one sits out round 1 with a bye. In a single elimination the bye is
    a round won at once and a point, as the footer says; every figure is named once."""
    mona = admin(world)
    await signed_up(
        world,
        mona,
        [world.alice, world.bob, world.carol],
        name="Knockout",
        game="tooth-and-nail",
        variant="2p",
        format="elimination",
        seeding="random",
        seed=5,
    )
    await mona.slash(world.channel, "tournament start")
    await settled(world)
    event = await event_of(world)
    (bye,) = [g.a for g in event.round_games() if g.b is None]
    lines, footer = standings_lines(world, event)
    assert "ranked by rounds won, then points, then seed." in footer
    assert "Points: a win 1, a draw ½, a bye 1." in footer
    assert "Rounds won: a bye, a win" in footer
    by_name = {line.split(" — ")[0].split(" ", 1)[1]: line.split(" — ")[1] for line in lines}
    assert by_name[event.name(bye)] == "**1 round won** · 1 point (1 bye)"
    others = [figures for name, figures in by_name.items() if name != event.name(bye)]
    assert others == ["**0 rounds won** · 0 points"] * 2
    assert lines[0].startswith(f"**1.** {event.name(bye)} — ")

    # Swiss: points first, the games beside them, the tie-breaks by their short names.
    await mona.slash(world.channel, "tournament cancel")
    await signed_up(
        world,
        mona,
        [world.alice, world.bob, world.carol],
        name="Swiss",
        game="tooth-and-nail",
        variant="2p",
        format="swiss",
        rounds=2,
        seeding="random",
        seed=5,
    )
    await mona.slash(world.channel, "tournament start")
    await settled(world)
    event = await event_of(world)
    (bye,) = [g.a for g in event.round_games() if g.b is None]
    lines, footer = standings_lines(world, event)
    assert "ranked by points, then Buchholz (Bh), then Sonneborn-Berger (SB), then wins" in footer
    assert lines[0] == f"**1.** {event.name(bye)} — **1 point** (1 bye) · Bh 0 · SB 0"
    assert all(line.count("point") == 1 for line in lines)
