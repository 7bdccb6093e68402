"""Arbiter at the table, through the real bot: one person plays each game against the AI
to the end (in a channel and in a DM), an absent player's seat is handed to the AI and
taken back, and the AI's turns show in the channel and on the board like anyone's."""

from __future__ import annotations

import os
import signal
from typing import Any

import discord
import pytest
import simcord

import ai
from ai import Budget, Level
from bot.service.matches import MatchService
from bot.service.players import AIPlayers
from bot.service.store import Store
from bot.service.tables import AI_NAME, AITurn
from tests.bot.world import World, answered, buttons

MAX_STEPS = 1500
GLANCE = Budget(playouts=6, worlds=1, per_choice=1)  # how the person picks their moves


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World.build(simcord_env)


async def play_against_the_ai(
    world: World, person: Any, where: Any, match_id: int
) -> tuple[int, int]:
    """Play the person's decisions and let the AI play its own, until the match ends;
    the decisions each side took. The person plays with `/play`, an action `/play`
    offers: the one a quick look of the easy AI from their seat picks (a newcomer who
    knows what they want), so a game lasts as long as a real one."""
    mine = 0
    on = () if where is None else (where,)
    for _ in range(MAX_STEPS):
        table = await world.bot.matches.table(match_id)
        if table.match.status != "active":
            return mine, await moves_of_the_ai(world, match_id)
        deciders = [table.user_of(s) for s in table.to_act]
        seat = next((s for s in deciders if s.user_id == person.id and not s.by_ai), None)
        if seat is not None:
            offered = [c["value"] for c in await person.autocomplete(*on, "play", "action", "")]
            assert offered, "the player must decide but was offered nothing"
            table = await world.bot.matches.table(match_id)  # the AI may have moved meanwhile
            state = table.game.state_model.model_validate_json(table.match.snapshot or "")
            wanted = ai.decide(table.game, state, seat.seat, Level.EASY, seed=mine, budget=GLANCE)
            key = wanted.key if wanted.key in offered else offered[0]
            played = await person.slash(*on, "play", action=key)
            assert played.response is not None
            if not played.response.content.startswith("✅ "):
                moved = (await world.bot.matches.get(match_id)).version != table.match.version
                assert moved, played.response.content  # refused only when the AI moved first
                continue
            mine += 1
        else:
            assert all(s.by_ai for s in deciders), "the match waits for nobody who can act"
            await world.bot.players.settled()
            await world.bot.publisher.idle()
            after = await world.bot.matches.get(match_id)
            assert after.version > table.match.version, "the AI did not play"
    raise AssertionError("the match did not end")


async def until_the_ai_decides(world: World, level: str) -> int:
    """alice opens a Tooth & Nail game against the AI and plays (her first offered
    action each time) until the AI is to decide; the match's version then."""
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=3, ai=level
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.click(opened.response, label="Start")
    for _ in range(20):
        table = await world.bot.matches.table(world.match_id)
        if any(table.user_of(s).by_ai for s in table.to_act):
            return table.match.version
        offered = await world.alice.autocomplete(world.channel, "play", "action", "")
        await world.alice.slash(world.channel, "play", action=offered[0]["value"])
    raise AssertionError("the AI never came to decide")


async def moves_of_the_ai(world: World, match_id: int) -> int:
    """How many moves of the match the AI made (under a user id of no one)."""
    return sum(row.user_id < 0 for row in await world.bot.store.matches.actions(match_id))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("game", "level"),
    [("tooth-and-nail", "strong"), ("command-of-nature", "strong"), ("mystic-vale", "easy")],
)
async def test_one_person_plays_a_two_player_game_against_the_ai_in_a_channel(
    world: World, game: str, level: str
) -> None:
    opened = await world.alice.slash(world.channel, "match new", game=game, seed=3, ai=level)
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    players = next(f for f in lobby.embeds[0].fields if f.name == "Players").value
    assert players == f"1. alice (host)\n2. 🤖 {AI_NAME} ({level})"
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.click(lobby, label="Start")
    mine, theirs = await play_against_the_ai(world, world.alice, world.channel, world.match_id)
    assert mine and theirs
    table = await world.bot.matches.table(world.match_id)
    assert table.outcome is not None and await world.bot.matches.verify(world.match_id)
    await world.bot.publisher.idle()
    lines = "\n".join(world.public_lines())
    # Called like anyone, not pinged; once it has moved, no message still says it thinks.
    assert f"🤖 **{AI_NAME} ({level})** is thinking…" not in lines
    assert f"🤖 {AI_NAME} ({level})" in lines or f"{AI_NAME} ({level})" in lines
    board = await world.board()
    assert f"🤖 AI at the table: {AI_NAME} ({level}) (not rated)" in board.embeds[0].footer.text


async def test_a_game_against_the_ai_in_a_direct_message(world: World) -> None:
    ada = world.alice.user
    opened = await ada.slash("match new", game="tooth-and-nail", seed=4, ai="strong")
    lobby = opened.response
    assert lobby is not None
    match = await world.bot.matches.open_match(ada.dm_channel.id)
    assert match.guild_id is None and match.variant == "2p"
    world.match_id = match.id
    await ada.click(lobby, label="Start")
    await world.bot.publisher.idle()
    mine, theirs = await play_against_the_ai(world, ada, None, match.id)
    assert mine and theirs
    table = await world.bot.matches.table(match.id)
    assert table.outcome is not None and await world.bot.matches.verify(match.id)
    said = [m.content for m in ada.dm_channel.history(viewer=world.alice) if m.content]
    assert any("🏆" in line for line in said)


async def test_the_lobby_buttons_seat_and_remove_the_ai(world: World) -> None:
    opened = await world.open(world.alice, "command-of-nature", "4p")
    lobby = opened.response
    assert lobby is not None
    assert f"**🤖 Add AI** seats {AI_NAME}" in (lobby.embeds[0].description or "")
    refused = await world.bob.click(lobby, label="🤖 Add AI (easy)")  # bob is no host
    assert answered(refused)[-1].ephemeral
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="🤖 Add AI (easy)")
    await world.alice.click(lobby, label="🤖 Add AI (strong)")
    players = next(f for f in lobby.embeds[0].fields if f.name == "Players").value
    assert players.splitlines() == [
        "1. alice (host)",
        "2. bob",
        f"3. 🤖 {AI_NAME} (easy)",
        f"4. 🤖 {AI_NAME} 2 (strong)",
    ]
    adds = [b for b in buttons(lobby) if "Add AI" in b.get("label", "")]
    assert len(adds) == 2 and all(b.get("disabled") for b in adds)  # the lobby is full
    await world.alice.click(lobby, label="Remove AI")
    players = next(f for f in lobby.embeds[0].fields if f.name == "Players").value
    assert f"{AI_NAME} 2" not in players and len(players.splitlines()) == 3


async def test_an_absent_players_seat_is_handed_to_the_ai_and_taken_back(
    create_bot: Any,
) -> None:
    async with simcord.run(create_bot(arbiter_ai_pause=60.0)) as env:
        await absent_player_handed_to_the_ai_and_back(World.build(env))


async def absent_player_handed_to_the_ai_and_back(world: World) -> None:
    """The AI takes a minute to answer here, so dave has time to take his seat back."""
    players = [world.alice, world.bob, world.carol, world.dave]
    match = await world.start("tooth-and-nail", "4p", players, seed=5)
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    done = await mona.slash(world.channel, "mod ai", player=world.dave, level="strong")
    assert "plays for dave" in answered(done)[-1].content
    for _ in range(MAX_STEPS):  # the others play on; the AI plays dave's decisions
        table = await world.bot.matches.table(match.id)
        deciders = [table.user_of(s) for s in table.to_act]
        if any(s.user_id == world.dave.id for s in deciders):
            await world.env.advance_time(61)
            await world.bot.publisher.idle()
            if "🤖 Arbiter plays for dave:" in "\n".join(world.public_lines()):
                break
            continue
        person = world.by_id(deciders[0].user_id)
        offered = await person.autocomplete(world.channel, "play", "action", "")
        await person.slash(world.channel, "play", action=offered[0]["value"])
    lines = "\n".join(world.public_lines())
    assert "🤖 Arbiter plays for dave:" in lines
    board = await world.board()
    assert f"{AI_NAME} for dave" in board.embeds[0].footer.text
    entries = [e.text for e in await world.bot.store.log.entries(match.id)]
    assert any("plays for dave" in e for e in entries)
    # dave is back: his next move takes the seat back.
    for _ in range(MAX_STEPS):
        table = await world.bot.matches.table(match.id)
        if table.seat_of(world.dave.id).seat in table.to_act:
            break
        person = world.by_id(table.user_of(table.to_act[0]).user_id)
        offered = await person.autocomplete(world.channel, "play", "action", "")
        await person.slash(world.channel, "play", action=offered[0]["value"])
    # His move takes the seat back (the AI would answer in a minute).
    offered = await world.dave.autocomplete(world.channel, "play", "action", "")
    played = await world.dave.slash(world.channel, "play", action=offered[0]["value"])
    assert played.response is not None and played.response.content.startswith("✅ ")
    table = await world.bot.matches.table(match.id)
    assert not table.seat_of(world.dave.id).by_ai
    await world.bot.publisher.idle()
    assert "↩️ dave is back and plays their seat again." in "\n".join(world.public_lines())
    assert await world.bot.matches.verify(match.id)


async def test_the_ai_thinks_in_a_worker_process(database: str) -> None:
    """The AI players' service, with the worker process the bot runs by default."""
    await play_a_game_against_the_ai(database, AIPlayers)


async def test_a_dead_ai_worker_is_replaced_and_the_ai_plays_on(database: str) -> None:
    """A worker process killed after each decision (BrokenProcessPool): the next
    decision starts a new worker, and the match goes on."""

    class Killed(AIPlayers):
        async def _decide(self, turn: AITurn) -> str:
            key = await super()._decide(turn)
            for process in list(getattr(self._pool, "_processes", {}).values()):
                os.kill(process.pid, signal.SIGKILL)
            return key

    await play_a_game_against_the_ai(database, Killed)


async def test_an_ai_decision_past_its_deadline_is_taken_by_the_fallback(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """No worker answers within the deadline (a new worker takes longer to start): the
    easy level decides in the bot's process each time, and the failure is logged with a
    reference."""
    await play_a_game_against_the_ai(database, AIPlayers, deadline=0.001)
    assert "could not decide for seat 1 in time [ref " in caplog.text
    caplog.clear()  # logged on purpose


async def play_a_game_against_the_ai(
    database: str, players_type: type[AIPlayers], deadline: float = 20.0
) -> None:
    """ada plays Tooth & Nail against the AI in one worker process (her first legal
    action each time) for 40 decisions or to the end: the AI answered every time."""
    store = await Store.open(database)
    service = MatchService(store)
    players = players_type(service, workers=1, pause=0, dm_pause=0, deadline=deadline)
    try:
        service.on_change(players.on_change)
        table = await service.new_lobby(
            guild_id=None,
            channel_id=9,
            user_id=1,
            name="ada",
            game="tooth-and-nail",
            seed=2,
            ai_level="easy",
        )
        match_id = table.match.id
        await service.start(match_id, 1)
        for _ in range(40):  # ada takes her first legal action each time
            await players.settled()
            table = await service.table(match_id)
            if table.match.status != "active":
                break
            assert all(table.user_of(s).user_id == 1 for s in table.to_act), "AI stuck"
            offered = await service.choices(9, 1)
            await service.act(match_id, 1, offered[0].key)
        acted = [row.user_id for row in await store.matches.actions(match_id)]
        assert set(acted) == {1, -1}  # ada and the AI (seated under a user id of no one)
        assert acted.count(-1) >= 3
    finally:
        await players.stop()
        await store.close()


async def test_the_ai_waits_a_human_pause_before_it_acts_in_a_channel(create_bot: Any) -> None:
    bot = create_bot(arbiter_ai_pause=2.0)
    async with simcord.run(bot) as env:
        world = World.build(env)
        version = await until_the_ai_decides(world, "easy")
        await env.advance_time(1.0)
        assert (await world.match()).version == version  # still "thinking" for the table
        await env.advance_time(1.5)
        await world.bot.players.settled()
        assert (await world.match()).version > version


async def test_games_with_the_ai_are_in_stats_apart_and_not_on_the_leaderboard(
    world: World,
) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=8, ai="easy"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.click(opened.response, label="Start")
    await play_against_the_ai(world, world.alice, world.channel, world.match_id)
    results = await world.bot.store.results.player_records(
        world.guild.id, world.alice.id, with_ai=True
    )
    assert [(r.game, r.games) for r in results] == [("tooth-and-nail", 1)]
    stats = (await world.alice.slash(world.channel, "stats")).response
    assert stats is not None
    shown = {f.name: f.value for f in stats.embeds[0].fields}
    assert shown == {
        "🤖 With Arbiter, the AI (not rated)": shown.get("🤖 With Arbiter, the AI (not rated)")
    }
    assert "**Tooth & Nail: Factions**: 1 match" in shown["🤖 With Arbiter, the AI (not rated)"]
    board = (await world.alice.slash(world.channel, "leaderboard", game="tooth-and-nail")).response
    assert board is not None
    assert board.embeds[0].description == "No rated match of this game this season yet."


async def test_a_restart_while_the_ai_is_to_decide_loses_nothing(create_bot: Any) -> None:
    bot = create_bot(arbiter_ai_pause=60.0)
    async with simcord.run(bot) as env:
        world = World.build(env)
        version = await until_the_ai_decides(world, "strong")  # it waits a minute
        await bot.close()  # mid-pause: nothing of the AI's decision is kept
        await env.restart_bot(create_bot(arbiter_ai_pause=60.0))
        assert (await world.match()).version == version
        await env.advance_time(61)
        await world.bot.players.settled()
        assert (await world.match()).version > version  # the new process decided
        assert await world.bot.matches.verify(world.match_id)


async def test_the_table_votes_an_absent_players_seat_to_the_ai(world: World) -> None:
    match = await world.start("tooth-and-nail", "3p", [world.alice, world.bob, world.carol])
    carol = await world.bot.matches.table(match.id)
    refused = await world.carol.slash(world.channel, "match ai", player=world.carol)
    assert answered(refused)[-1].ephemeral  # not one's own seat
    waiting = (await world.to_act())[0]  # the player the match waits for
    voters = [p for p in (world.alice, world.bob, world.carol) if p is not waiting]
    name = carol.seat_of(waiting.id).name
    early = await voters[0].slash(world.channel, "match ai", player=waiting)
    assert answered(early)[-1].ephemeral
    assert answered(early)[-1].content.startswith(f"Not yet: {name} still has more than half")
    await world.env.advance_time(12 * 3600)  # half of the day's clock
    asked = await voters[0].slash(world.channel, "match ai", player=waiting)
    assert asked.response is not None and not asked.response.ephemeral
    assert f"(1 of 2; waiting for {carol.seat_of(voters[1].id).name}" in asked.response.content
    table = await world.bot.matches.table(match.id)
    assert not table.seat_of(waiting.id).by_ai
    agreed = await voters[1].slash(world.channel, "match ai", player=waiting)
    assert agreed.response is not None
    assert agreed.response.content.startswith(f"🗳️ The table agreed: 🤖 Arbiter plays for {name}")
    table = await world.bot.matches.table(match.id)
    assert table.seat_of(waiting.id).by_ai
    entries = [(e.kind, e.user_id) for e in await world.bot.store.log.entries(match.id)]
    assert entries[-3:] == [
        ("ai-vote", voters[0].id),
        ("ai-vote", voters[1].id),
        ("ai-agreed", waiting.id),
    ]
    # The player is called, and the AI gives them an hour to keep the seat.
    await world.bot.publisher.idle()
    call = keep_my_seat(world)
    assert call.content.startswith(f"🗳️ <@{waiting.id}>, the table asks that 🤖 Arbiter play")
    await world.env.advance_time(30 * 60)
    await world.bot.publisher.idle()
    assert (await world.match()).version == match.version  # not yet
    await world.env.advance_time(31 * 60)
    await world.bot.players.settled()
    assert (await world.match()).version > match.version  # the hour is over: it played


async def test_in_a_two_player_match_the_absent_player_keeps_their_seat_by_a_tap(
    world: World,
) -> None:
    """The opponent's word alone hands nothing over at once: the seat must be absent,
    and its player is called and may keep it."""
    match = await world.start("tooth-and-nail", "2p", [world.alice, world.bob])
    waiting = (await world.to_act())[0]
    other = world.bob if waiting is world.alice else world.alice
    early = await other.slash(world.channel, "match ai", player=waiting)
    assert answered(early)[-1].content.startswith("Not yet: ")
    await world.env.advance_time(13 * 3600)
    agreed = await other.slash(world.channel, "match ai", player=waiting)
    assert agreed.response is not None
    assert agreed.response.content.startswith("🗳️ The table agreed: 🤖 Arbiter plays for ")
    await world.bot.publisher.idle()
    call = keep_my_seat(world)
    wrong = await other.click(call, label="Keep my seat")
    assert answered(wrong)[-1].content == "Only the player whose seat it is can keep it."
    kept = await waiting.click(call, label="Keep my seat")
    assert answered(kept)[-1].content == "✋ You keep your seat: the AI plays nothing for you."
    table = await world.bot.matches.table(match.id)
    assert not any(s.by_ai for s in table.seats)
    await world.env.advance_time(2 * 3600)
    await world.bot.players.settled()
    assert (await world.match()).version == match.version  # the AI played nothing
    await world.bot.publisher.idle()
    assert not table.with_ai  # nothing was played for them: the match stays rated
    lines = "\n".join(world.public_lines())
    assert "is back and plays their seat again." in lines


async def test_a_match_the_ai_played_in_is_not_rated_after_the_seat_is_taken_back(
    world: World,
) -> None:
    """Taking the seat back doesn't make the match one between people: the AI's moves
    stay in it, so it is never rated (the board keeps saying so)."""
    match = await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=4)
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "mod ai", player=world.bob, level="easy")
    for _ in range(40):  # alice plays on until the AI has made a move for bob
        await world.bot.players.settled()
        if moves_for(world, "bob"):
            break
        offered = await world.alice.autocomplete(world.channel, "play", "action", "")
        await world.alice.slash(world.channel, "play", action=offered[0]["value"])
    assert moves_for(world, "bob")
    back = await mona.slash(world.channel, "mod ai", player=world.bob, level="off")
    assert "bob" in answered(back)[-1].content
    table = await world.bot.matches.table(match.id)
    assert not any(s.by_ai for s in table.seats)
    await world.bot.publisher.idle()
    board = await world.board()
    assert f"🤖 {AI_NAME} played in this match (not rated)" in board.embeds[0].footer.text
    await world.concede(world.alice)
    assert (await world.match()).status == "finished"
    shown = (await world.bob.slash(world.channel, "leaderboard", game="tooth-and-nail")).response
    assert shown is not None
    assert shown.embeds[0].description == "No rated match of this game this season yet."
    records = await world.bot.store.results.player_records(world.guild.id, world.bob.id)
    assert records == []  # not a match between people either


def keep_my_seat(world: World) -> Any:
    """The latest message of the channel with a Keep my seat button."""
    messages = list(world.channel.history())
    return next(m for m in reversed(messages) if "Keep my seat" in str(m.components))


def moves_for(world: World, name: str) -> int:
    """How many moves the AI made for a person's seat, as the channel tells them."""
    return sum(f"🤖 {AI_NAME} plays for {name}:" in line for line in world.public_lines())


@pytest.mark.parametrize("level", ["strong", "easy"])
async def test_a_game_against_the_ai_opens_one_lobby(world: World, level: str) -> None:
    """`/match new … ai:` posts its lobby once: the creator's answer, with its buttons
    (seating the AI tells no one else to post it), in a channel and in a DM."""
    opened = await world.alice.slash(world.channel, "match new", game="tooth-and-nail", ai=level)
    assert opened.response is not None
    await world.bot.publisher.idle()
    lobbies = [
        m for m in world.channel.history() if m.embeds and "Players" in str(m.embeds[0].to_dict())
    ]
    assert [m.id for m in lobbies] == [opened.response.id]
    bob = world.bob.user
    in_dm = await bob.slash("match new", game="tooth-and-nail", ai=level)
    assert in_dm.response is not None
    await world.bot.publisher.idle()
    lobbies = [
        m
        for m in bob.dm_channel.history(viewer=world.bob)
        if m.embeds and "Players" in str(m.embeds[0].to_dict())
    ]
    assert [m.id for m in lobbies] == [in_dm.response.id]


async def test_the_thinking_line_goes_once_the_ai_has_moved(create_bot: Any) -> None:
    """While the AI decides, the channel says it is thinking; once it has moved, no
    message says so any more (the old one keeps its lines alone)."""
    async with simcord.run(create_bot(arbiter_ai_pause=60.0)) as env:
        world = World.build(env)
        await until_the_ai_decides(world, "strong")
        await world.bot.publisher.idle()
        thinking = f"🤖 **{AI_NAME} (strong)** is thinking…"
        assert any(thinking in line for line in world.public_lines())
        await env.advance_time(61)
        await world.bot.players.settled()
        await world.bot.publisher.idle()
        table = await world.bot.matches.table(world.match_id or 0)
        still = any(table.user_of(s).by_ai for s in table.to_act)
        shown = [line for line in world.public_lines() if thinking in line]
        assert len(shown) == (1 if still else 0)  # only the latest call, while it thinks


async def test_an_ai_teammate_leaves_ending_the_teams_turn_to_its_person(world: World) -> None:
    """Command of Nature for four: alice and bob each play with the AI as their partner.
    On their team's turn the AI plays its part, but the team's turn goes on until the
    person ends it: a person doesn't end the turn while their partner is still playing."""
    opened = await world.open(world.alice, "command-of-nature", "4p", seed=11)
    lobby = opened.response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="🤖 Add AI (easy)")
    await world.alice.click(lobby, label="🤖 Add AI (strong)")
    await world.alice.click(lobby, label="Start")
    match_id = (await world.match()).id
    ended = 0
    for _ in range(60):
        await world.bot.players.settled()
        table = await world.bot.matches.table(match_id)
        if ended >= 4 or table.match.status != "active":
            break
        (person,) = [world.by_id(table.user_of(s).user_id) for s in table.to_act if s < 2]
        mine = next(s.seat for s in table.seats if s.user_id == person.id)
        if table.questions[mine].startswith("your team's turn"):  # not answering an attack
            side = table.teams[mine]
            (partner,) = [s for s, team in table.teams.items() if s != mine and team == side]
            assert partner in table.to_act  # the turn is still open to the AI partner
            played = await person.slash(world.channel, "play", action="end")
            assert played.response is not None and played.response.content.startswith("✅ ")
            ended += 1
        else:
            key = (await world.bot.matches.choices(world.channel.id, person.id))[0].key
            await person.slash(world.channel, "play", action=key)
    assert ended >= 4
