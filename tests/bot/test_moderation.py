"""Moderator powers through the real bot: who may use them, and what players see after.

A moderator is a member with Manage Server, or with the role set by `/settings
mod-role`. Every power is logged in the match log under the moderator's id and
announced in the channel.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import discord
import pytest
import simcord

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Store
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered, menu_id, option_values

NOT_MODERATOR = "Only moderators can do that"


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def add_member(world: World, name: str, *roles: simcord.RoleHandle) -> simcord.MemberActor:
    """A new member of the server, with these roles."""
    return world.guild.add_member(world.env.create_user(name), roles=list(roles))


def admin(world: World) -> simcord.MemberActor:
    """A member whose role has Manage Server."""
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return add_member(world, "mona", role)


def answer(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer (its last private follow-up, else its response;
    the table's own lines may be posted as its public follow-ups)."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content or (messages[-1].embeds[0].description or "")


async def log_texts(world: World) -> list[tuple[int | None, str]]:
    entries = await world.bot.store.log.entries((await world.match()).id)
    return [(e.user_id, e.text) for e in entries]


async def hand_of(world: World, player: simcord.MemberActor) -> str:
    """The hand field of a player's private view."""
    shown = (await player.slash(world.channel, "hand")).response
    assert shown is not None and shown.ephemeral
    return shown.embeds[0].fields[0].value or ""


MOD_COMMANDS: list[tuple[str, dict[str, object]]] = [
    ("mod abort", {}),
    ("mod ai", {"player": "bob"}),
    ("mod kick", {"player": "bob"}),
    ("mod replace", {"old": "bob", "new": "carol"}),
    ("mod undo", {}),
    ("mod undo", {"force": True}),
    ("mod pause", {}),
    ("mod resume", {}),
    ("mod extend", {"by": "1h"}),
    ("mod matches", {}),
    ("mod new-season", {}),
    ("mod rebuild-ratings", {}),
    ("mod practice", {}),
    ("mod practice", {"on": False}),
]


async def test_every_mod_command_is_refused_to_a_non_moderator(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    lines = world.public_lines()
    members = {"bob": world.bob, "carol": world.carol}
    for name, options in MOD_COMMANDS:
        given = {k: members.get(v, v) if isinstance(v, str) else v for k, v in options.items()}
        for outsider in (world.eve, world.alice):  # a spectator, a player
            refused = await outsider.slash(world.channel, name, **given)
            assert answer(refused).startswith(NOT_MODERATOR), name
    match = await world.match()
    assert (match.status, match.version) == ("active", 1)
    assert world.public_lines() == lines
    assert await log_texts(world) == []
    assert sorted(
        c for c in world.eve.available_commands(world.channel) if c.startswith("mod")
    ) == [
        "mod abort",
        "mod ai",
        "mod extend",
        "mod kick",
        "mod matches",
        "mod new-season",
        "mod pause",
        "mod practice",
        "mod rebuild-ratings",
        "mod replace",
        "mod resume",
        "mod undo",
    ]


async def test_the_configured_moderator_role_grants_the_powers(world: World) -> None:
    mona = admin(world)
    referees = world.guild.create_role("Referees")
    rita = add_member(world, "rita", referees)
    await world.start("tally", "duel", [world.alice, world.bob])
    refused = await rita.slash(world.channel, "mod matches")
    assert answer(refused).startswith(NOT_MODERATOR)
    denied = await rita.slash(world.channel, "settings mod-role", role=referees)
    assert answer(denied).startswith(NOT_MODERATOR)

    saved = await mona.slash(world.channel, "settings mod-role", role=referees)
    assert f"<@&{referees.id}>" in answer(saved)
    listed = await rita.slash(world.channel, "mod matches")
    assert "#1 Tally — Duel" in answer(listed)
    aborted = await rita.slash(world.channel, "mod abort")
    assert answer(aborted) == "The match is aborted."
    assert (await world.match()).status == "cancelled"
    assert await log_texts(world) == [(rita.id, "rita (moderator) aborted the match.")]


async def test_abort_ends_the_match_logs_it_and_frees_the_channel(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    await mona.slash(world.channel, "mod abort")
    assert (await world.match()).status == "cancelled"
    assert world.public_lines()[-1] == f"🛡️ The match was aborted by {mona.mention}: nobody wins."
    board = await world.board()
    assert board.embeds[0].description == "🛑 This match was stopped by a moderator."
    assert board.components == []
    again = await mona.slash(world.channel, "mod abort")
    assert "no open match in this channel" in answer(again)
    fresh = await world.carol.slash(world.channel, "match new", game="tally")
    assert fresh.response is not None and not fresh.response.ephemeral


async def test_replace_hands_the_seat_and_hand_over_and_locks_out_the_old_player(
    world: World,
) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    bob_hand = await hand_of(world, world.bob)
    old_menu = (await world.bob.slash(world.channel, "hand")).response
    assert old_menu is not None
    await world.bob.click(old_menu, label="Send to my DMs")
    dm = world.bob.user.dm_channel.last_message
    assert dm is not None

    done = await mona.slash(world.channel, "mod replace", old=world.bob, new=world.carol)
    assert answer(done) == "carol now holds the seat."
    assert world.public_lines()[-1].startswith(
        f"🛡️ {world.carol.mention} takes over bob's seat (moderator {mona.mention})"
    )
    assert await hand_of(world, world.carol) == bob_hand
    assert (await world.to_act()) == [world.carol]

    refused = await world.bob.slash(world.channel, "hand")
    assert answer(refused) == "You are not playing in this match."
    blocked = await world.bob.slash(world.channel, "play", action="banner|azure")
    assert answer(blocked) == "You are not playing in this match."
    await world.bob.select(old_menu, ["banner|azure"], custom_id=menu_id(old_menu))
    await world.bob.user.select(dm, ["banner|azure"], custom_id=menu_id(dm))
    assert await world.bob.autocomplete(world.channel, "play", "action", "") == []
    # Only the replacement moved the match on (it renamed the seat in the game):
    # nothing the old player did was applied.
    assert (await world.match()).version == 2
    board = (await world.board()).embeds[0]
    assert [f.name for f in board.fields if "carol" in (f.name or "")]  # the game knows carol

    played = await world.carol.slash(world.channel, "play", action="banner|azure")
    assert answer(played) == "✅ You chose: Raise the azure banner"
    assert world.public_lines()[-1].startswith("carol raises azure.")
    match = await world.match()
    assert match.version == 3
    assert await world.bot.matches.verify(match.id)  # dealt as bob, renamed carol on replay
    assert await log_texts(world) == [(mona.id, "mona (moderator) handed bob's seat to carol.")]

    seated = await mona.slash(world.channel, "mod replace", old=world.carol, new=world.alice)
    assert answer(seated) == "That member already plays in this match."
    outsider = await mona.slash(world.channel, "mod replace", old=world.eve, new=world.dave)
    assert answer(outsider) == "That member doesn't play in this match."


async def test_undo_is_refused_after_a_draw_and_allowed_with_force(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    before = await hand_of(world, world.alice)
    stale = (await world.alice.slash(world.channel, "hand")).response
    assert stale is not None
    card = option_values(stale)[0]
    # Past 15 minutes Discord no longer lets the bot redraw that panel (to follow her
    # move, then the undo).
    await world.env.advance_time(15 * 60)
    await world.alice.slash(world.channel, "play", action=card)  # plays, then draws
    assert (await world.match()).version == 3

    refused = await mona.slash(world.channel, "mod undo")
    assert answer(refused) == (
        "The last action can't be taken back: it revealed hidden cards. "
        "Use `force:true` to undo it anyway."
    )
    assert (await world.match()).version == 3

    forced = await mona.slash(world.channel, "mod undo", force=True)
    assert answer(forced) == "The last action is undone."
    match = await world.match()
    assert match.version == 4 and match.status == "active"
    assert await hand_of(world, world.alice) == before
    assert world.public_lines()[-1].startswith(
        f"🛡️ ↩️ {mona.mention} undid the last action (forced: it revealed hidden cards): "
        f"alice plays a {card.split('|')[1]}. alice draws a card."
    )
    assert await world.bot.matches.verify(match.id)
    (entry,) = await log_texts(world)
    assert entry[0] == mona.id and "undid action 3 (forced: it revealed hidden cards)" in entry[1]

    # A menu shown before the undo applies nothing: it is refreshed instead.
    await world.alice.select(stale, [card], custom_id=menu_id(stale))
    assert stale.content.startswith("⚠️ This menu is out of date")
    assert (await world.match()).version == 4
    await world.alice.slash(world.channel, "play", action=card)
    assert [row.seq for row in await world.bot.store.matches.actions(match.id)] == [
        1,
        2,
        3,
        5,
    ]
    assert await world.bot.matches.verify(match.id)


async def test_undo_of_a_coin_flip_needs_force_and_of_a_choice_does_not(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob], seed=3)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    undone = await mona.slash(world.channel, "mod undo")  # raising a banner hides nothing
    assert answer(undone) == "The last action is undone."
    assert (await world.to_act()) == [world.alice]
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    for _ in range(20):  # play until a card of 4 or more opens a challenge
        (player,) = await world.to_act()
        choices = await world.bot.matches.choices(world.channel.id, player.id)
        keys = [c.key for c in choices]
        if "challenge" in keys:
            await player.slash(world.channel, "play", action="challenge")
            break
        await player.slash(world.channel, "play", action=keys[-1])
    else:
        pytest.fail("no challenge came up")
    refused = await mona.slash(world.channel, "mod undo")
    assert "it drew at random" in answer(refused)
    assert "revealed" not in answer(refused)
    await mona.slash(world.channel, "mod undo", force=True)
    assert (await world.to_act()) == [player]  # the challenge is open again
    assert await world.bot.matches.verify((await world.match()).id)


async def test_undo_of_a_tooth_and_nail_faction_choice_needs_no_force(world: World) -> None:
    mona = admin(world)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    (first,) = await world.to_act()
    await first.slash(world.channel, "play", action="Choose the Ostra Vulture")
    undone = await mona.slash(world.channel, "mod undo")
    assert answer(undone) == "The last action is undone."
    assert "Choose the Ostra Vulture" in [
        c.label for c in await world.bot.matches.choices(world.channel.id, first.id)
    ]
    nothing = await mona.slash(world.channel, "mod undo")
    assert answer(nothing) == "There is no game action left to undo in this match."
    assert await world.bot.matches.verify((await world.match()).id)


async def test_kick_forfeits_the_seat(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    kicked = await mona.slash(world.channel, "mod kick", player=world.bob)
    assert answer(kicked) == "bob was removed."
    match = await world.match()
    assert match.status == "finished"
    table = await world.bot.matches.table(match.id)
    assert table.outcome is not None and table.outcome.winners == [0]
    lines = world.public_lines()
    assert lines[-2] == f"🛡️ {mona.mention} removed bob from the match: the seat forfeits."
    assert lines[-1].startswith("bob concedes.")
    assert await log_texts(world) == [
        (mona.id, "mona (moderator) removed bob from the match: the seat forfeits.")
    ]


async def test_kick_in_a_game_with_elimination_lets_the_others_play_on(world: World) -> None:
    mona = admin(world)
    players = [world.alice, world.bob, world.carol]
    await world.start("tooth-and-nail", "3p", players, seed=2)
    outsider = await mona.slash(world.channel, "mod kick", player=world.eve)
    assert answer(outsider) == "That member doesn't play in this match."
    await mona.slash(world.channel, "mod kick", player=world.carol)
    match = await world.match()
    assert match.status == "active"
    assert world.carol not in await world.to_act()
    assert await world.bot.matches.verify(match.id)


async def test_mod_matches_lists_the_servers_open_matches_with_links(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    other = world.guild.create_text_channel("arena")
    await world.carol.slash(other, "match new", game="tally", variant="melee")
    shown = await mona.slash(world.channel, "mod matches")
    text = answer(shown)
    board = await world.board()
    assert text.splitlines() == [
        f"**[#1 Tally — Duel](https://discord.com/channels/{world.guild.id}/{world.channel.id}"
        f"/{board.id})** in <#{world.channel.id}> · waiting for alice · alice, bob",
        text.splitlines()[1],
    ]
    assert f"in <#{other.id}> · lobby · carol" in text.splitlines()[1]


async def test_pause_resume_and_extend_go_through_the_clocks_and_are_logged(
    world: World,
) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    paused = await mona.slash(world.channel, "mod pause")
    assert answer(paused) == "Done."
    assert world.public_lines()[-1].startswith(
        f"⏸️ The match is paused by a moderator (<@{mona.id}>)"
    )
    again = await mona.slash(world.channel, "mod pause")
    assert answer(again).startswith("This match is paused already")
    await mona.slash(world.channel, "mod resume")
    assert world.public_lines()[-1] == (
        f"▶️ A moderator (<@{mona.id}>) resumed the match: the clocks run again."
    )
    await mona.slash(world.channel, "mod extend", by="2h")
    assert world.public_lines()[-1].startswith(
        f"⏱️ A moderator (<@{mona.id}>) gave alice 2 hours more"
    )
    await mona.slash(world.channel, "mod extend")  # one more full clock
    assert world.public_lines()[-1].startswith(
        f"⏱️ A moderator (<@{mona.id}>) gave alice 1 day more"
    )
    unreadable = await mona.slash(world.channel, "mod extend", by="later")
    assert "isn't a duration" in answer(unreadable)
    kinds = [e.kind for e in await world.bot.store.log.entries((await world.match()).id)]
    assert kinds == ["pause", "resume", "extend", "extend"]


async def test_undos_walk_back_one_action_at_a_time(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        service = MatchService(store, {"tally": tally.GAME})
        table = await service.new_lobby(
            guild_id=1, channel_id=1, user_id=1, name="A", game="tally", variant="muster", seed=1
        )
        for user, name in ((2, "B"), (3, "C")):
            await service.join(table.match.id, user, name)
        await service.start(table.match.id, 1)
        for user, colour in ((1, "amber"), (2, "azure"), (3, "beige")):
            await service.act(table.match.id, user, f"banner|{colour}")
        first = await service.undo(table.match.id, 9)
        second = await service.undo(table.match.id, 9)
        assert (first.seq, second.seq) == (3, 2)
        assert second.lines == ["B raises azure."] and second.reasons == []
        assert set(second.table.to_act) == {1, 2}
        match = await service.get(table.match.id)
        assert match.version == 5
        assert [s.decisions for s in await store.matches.seats(match.id)] == [3, 3, 3]
        assert [r.seq for r in await service.effective(match.id)] == [1]
        await service.act(match.id, 3, "banner|azure", decisions=3)
        assert [r.seq for r in await service.effective(match.id)] == [1, 6]
        assert await service.verify(match.id)
        with pytest.raises(errors.StaleChoice):
            await service.act(match.id, 2, "banner|black", decisions=2)  # a menu from before
    finally:
        await store.close()


async def test_durations_of_thousands_of_digits_get_a_sentence_everywhere(world: World) -> None:
    """The red team's finding: `/match new clock:`, `/match vacation start duration:`,
    `/mod extend by:` and `/settings clock` with a duration of thousands of digits raised
    an unhandled ValueError. Each now refuses it with a sentence and changes nothing."""
    huge = "9" * 5000 + "m"
    refused = "is far longer than any duration Arbiter keeps"
    opened = await world.alice.slash(world.channel, "match new", game="tally", clock=huge)
    assert refused in answer(opened)
    assert await world.bot.store.matches.open_in(world.channel.id) is None
    lobby = await world.alice.slash(world.channel, "match new", game="tally", clock="1h")
    assert lobby.response is not None
    await world.bob.click(lobby.response, label="Join")
    await world.alice.click(lobby.response, label="Start")
    before = await world.bot.matches.open_match(world.channel.id)
    away = await world.alice.slash(world.channel, "match vacation start", duration=huge)
    assert refused in answer(away)
    mona = admin(world)
    extended = await mona.slash(world.channel, "mod extend", by=huge)
    assert refused in answer(extended)
    settings = await mona.slash(world.channel, "settings clock", duration=huge)
    assert refused in answer(settings)
    assert await world.bot.matches.open_match(world.channel.id) == before
    deadlines = await world.bot.store.clocks.deadlines(before.id)
    assert all(d.frozen_at is None for d in deadlines)
