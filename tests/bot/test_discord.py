"""What players see, driving the real bot through simcord, with the small Tally game.

Tally (tests/bot/tally.py) has a 30-option first decision (two menu pages), a
hidden hand, private draws and an out-of-turn decision, so every part of the
generic surface is exercised here; the Tooth & Nail tests play real games.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import discord
import pytest
import simcord

from bot.app import ArbiterBot
from bot.ui.interactions import PAGE_SIZE
from bot.ui.table import private_message
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered, custom_ids, menu_id, option_values
from tests.conftest import BotFactory


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def ephemeral_text(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer: its last private follow-up, else its response. (A
    deferred click's response is the clicked message itself, perhaps public: a refusal
    follows it; public follow-ups are the match's own lines, posted through it.)"""
    messages = answered(result)
    assert messages, "the interaction got no answer"
    assert all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content


async def test_lobby_buttons_seat_players_and_start_posts_the_board(world: World) -> None:
    opened = await world.open(world.alice, "tally", "duel")
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert custom_ids(lobby) == [
        f"arbiter:lobby:{op}:1" for op in ("join", "leave", "start", "cancel")
    ]
    assert "1. alice (host)" in lobby.embeds[0].fields[0].value

    await world.bob.click(lobby, label="Join")
    assert "2. bob" in lobby.embeds[0].fields[0].value
    joins = [c for row in lobby.components for c in row["components"] if c.get("label") == "Join"]
    assert [c.get("disabled") for c in joins] == [True]  # no seat left
    full = await world.carol.slash(world.channel, "match join")  # as a stale lobby would
    assert ephemeral_text(full) == "This lobby is full (2 players)."
    not_host = await world.bob.click(lobby, label="Start")
    assert "Only the host" in ephemeral_text(not_host)

    await world.alice.click(lobby, label="Start")
    assert lobby.components == []  # the lobby's buttons are gone
    board = await world.board()
    assert board.id != lobby.id
    assert custom_ids(board) == ["arbiter:hand:1"]
    assert board.embeds[0].title == "Tally — Duel"
    assert world.public_lines()[-1] == (
        "The match begins!\n"
        "🎲 Seed 7 — shuffles are predictable (for testing or replays).\n"
        f"➡️ {world.alice.mention}, your turn — raise a banner"
    )


async def test_slash_lobby_commands_and_one_open_match_per_channel(world: World) -> None:
    await world.open(world.alice, "tally", "melee")
    busy = await world.bob.slash(world.channel, "match new", game="tally")
    assert "already has an open match" in ephemeral_text(busy)
    joined = await world.bob.slash(world.channel, "match join")
    assert ephemeral_text(joined) == "You joined the lobby (seat 2)."
    assert "2. bob" in (await world.board()).embeds[0].fields[0].value
    left = await world.bob.slash(world.channel, "match leave")
    assert ephemeral_text(left) == "You left the lobby."
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None and status.response.ephemeral
    assert "1 of 4 seats taken" in (status.response.embeds[0].description or "")
    refused = await world.bob.slash(world.channel, "match cancel")
    assert "Only the host" in ephemeral_text(refused)
    await world.alice.slash(world.channel, "match cancel")
    assert (await world.board()).components == []
    nothing = await world.alice.slash(world.channel, "match status")
    assert "no open match in this channel" in ephemeral_text(nothing)
    again = await world.bob.slash(world.channel, "match new", game="tally")
    assert again.response is not None and not again.response.ephemeral


async def test_hand_is_ephemeral_and_invisible_to_everyone_else(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    shown = await world.alice.slash(world.channel, "hand")
    private = shown.response
    assert private is not None and private.ephemeral
    assert private.embeds[0].fields[0].name == "Your hand (3)"
    for viewer in (world.bob, world.carol, world.eve):
        assert private.id not in [m.id for m in world.channel.history(viewer=viewer)]
    assert private.id in [m.id for m in world.channel.history(viewer=world.alice)]
    board_hand = await world.bob.click(await world.board(), label="My hand")
    assert board_hand.response is not None and board_hand.response.ephemeral
    assert board_hand.response.id not in [m.id for m in world.channel.history(viewer=world.alice)]
    assert board_hand.response.embeds[0].description == (
        "Not your decision now — alice raises a banner."
    )


async def test_play_autocomplete_filters_and_applies_then_updates_the_board(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    offered = await world.alice.autocomplete(world.channel, "play", "action", "")
    assert len(offered) == 25
    typed = await world.alice.autocomplete(world.channel, "play", "action", "CRIM")
    assert typed == [{"name": "Raise the crimson banner", "value": "banner|crimson"}]
    assert await world.bob.autocomplete(world.channel, "play", "action", "") == []
    assert await world.eve.autocomplete(world.channel, "play", "action", "") == []

    played = await world.alice.slash(world.channel, "play", action="banner|crimson")
    assert ephemeral_text(played) == "✅ You chose: Raise the crimson banner"
    assert (
        world.public_lines()[-1]
        == f"alice raises crimson.\n➡️ {world.bob.mention}, your turn — raise a banner"
    )
    sent = world.posts()
    # Only whoever decides next is pinged: no @everyone, no roles.
    assert sent[-1]["allowed_mentions"] == {"parse": [], "users": [world.bob.id]}
    assert (await world.board()).id == board.id  # edited in place
    assert (await world.board()).embeds[0].description == "▶️ bob raises a banner."

    stale = await world.bob.slash(world.channel, "play", action="banner|crimson")
    assert ephemeral_text(stale) == "Someone already raised that banner."
    assert (await world.match()).version == 1


async def test_outsider_and_out_of_turn_are_told_and_nothing_changes(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    lines = world.public_lines()
    outsider = await world.eve.slash(world.channel, "play", action="banner|amber")
    assert ephemeral_text(outsider) == "You are not playing in this match."
    early = await world.bob.slash(world.channel, "play", action="banner|amber")
    assert ephemeral_text(early) == "It is not your decision: waiting for alice."
    hand = await world.eve.click(await world.board(), label="My hand")
    assert ephemeral_text(hand) == "You are not playing in this match."
    assert world.public_lines() == lines
    assert (await world.match()).version == 0


async def test_menu_pages_apply_and_refresh_the_private_message(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    first_page = option_values(private)
    assert len(first_page) == 25
    await world.alice.click(private, label="Next")
    second_page = option_values(private)
    assert len(second_page) == 5 and not set(second_page) & set(first_page)
    await world.alice.click(private, label="Prev")
    assert option_values(private) == first_page
    await world.alice.click(private, label="Next")

    await world.alice.select(private, ["banner|white"], custom_id=menu_id(private))
    assert private.content == "✅ You chose: Raise the white banner"
    assert option_values(private) == []  # now it is Bob's decision
    assert private.embeds[0].description == "Not your decision now — bob raises a banner."
    assert world.public_lines()[-1].startswith("alice raises white.")


@pytest.mark.parametrize("offered", [24, 25, 26, 50, 51])
async def test_every_choice_is_on_exactly_one_menu_page(world: World, offered: int) -> None:
    """A menu holds 25 options: at exactly 25 every choice is on the one page, with no
    page buttons; past it the pages hold every choice once, in order."""
    await world.start("tally", "duel", [world.alice, world.bob])
    pv = await world.bot.matches.view(world.match_id or 0, world.alice.id)
    choices = (pv.choices * 2)[:offered]
    pv = dataclasses.replace(pv, choices=choices)
    pages = -(-offered // PAGE_SIZE)
    seen: list[str] = []
    for page in range(pages):
        view = private_message(pv, page, in_dm=False)["view"]
        items = [getattr(c, "item", c) for c in view.children]
        (menu,) = [c for c in items if isinstance(c, discord.ui.Select)]
        seen += [o.value for o in menu.options]
        labels = {getattr(c, "label", None) for c in items}
        assert ({"Prev", "Next"} <= labels) == (pages > 1)
    assert seen == [c.key for c in choices]


async def test_a_menu_its_player_has_decided_past_applies_nothing(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    old = (await world.bob.slash(world.channel, "hand")).response
    assert old is not None
    old_menu = menu_id(old)
    # Too old to be redrawn when Bob decides elsewhere (a fresh panel follows him).
    await world.env.advance_time(15 * 60)
    await world.bob.slash(world.channel, "play", action="banner|azure")
    result = await world.bob.select(old, ["banner|black"], custom_id=old_menu)
    assert result.response is not None
    assert old.content.startswith("⚠️ This menu is out of date (you have decided since")
    assert (await world.match()).version == 2
    assert option_values(old) == []  # refreshed: now it is Alice's decision


async def test_send_to_dms_puts_a_playable_copy_in_the_dms(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    sent = await world.alice.click(private, label="Send to my DMs")
    assert ephemeral_text(sent).startswith("Sent to your DMs")
    dm = world.alice.user.dm_channel.last_message
    assert dm is not None and dm.embeds[0].title == "Your view — Tally"
    assert "arbiter:dm:1" not in custom_ids(dm)
    await world.alice.user.select(dm, ["banner|coral"], custom_id=menu_id(dm))
    assert world.public_lines()[-1].startswith("alice raises coral.")
    refreshed = world.alice.user.dm_channel.last_message
    assert refreshed is not None and refreshed.content == "✅ You chose: Raise the coral banner"
    assert world.bob.user.dm_channel.last_message is None


async def test_closed_dms_are_reported_and_change_nothing(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    world.env.inject_error(
        "POST",
        f"/channels/{world.alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    result = await world.alice.click(private, label="Send to my DMs")
    assert "I can't send you direct messages" in ephemeral_text(result)
    assert world.alice.user.dm_channel.last_message is None
    assert (await world.match()).version == 0


@pytest.mark.engines
async def test_restart_mid_game_keeps_buttons_menus_and_the_game(
    world: World, create_bot: BotFactory
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    bob_private = (await world.bob.slash(world.channel, "hand")).response
    assert bob_private is not None
    await world.bob.click(bob_private, label="Send to my DMs")
    dm = world.bob.user.dm_channel.last_message
    assert dm is not None
    board = await world.board()

    old = world.bot
    await old.close()
    await world.env.restart_bot(create_bot())
    assert world.bot is not old

    await world.bob.user.select(dm, ["banner|azure"], custom_id=menu_id(dm))
    assert world.public_lines()[-1].startswith("bob raises azure.")
    hand = await world.alice.click(board, label="My hand")
    assert hand.response is not None and hand.response.ephemeral
    key = option_values(hand.response)[0]
    await world.alice.select(hand.response, [key], custom_id=menu_id(hand.response))
    match = await world.match()
    assert match.version == 3
    assert await world.bot.matches.verify(match.id)


@pytest.mark.engines
async def test_restart_keeps_lobby_buttons(world: World, create_bot: BotFactory) -> None:
    opened = await world.open(world.alice, "tally", "duel")
    lobby = opened.response
    assert lobby is not None
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    assert (await world.match()).status == "active"
    assert custom_ids(await world.board()) == [f"arbiter:hand:{world.match_id}"]


async def test_concede_ends_the_match_and_frees_the_channel(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    conceded = await world.concede(world.bob)
    assert ephemeral_text(conceded) == "You conceded."
    board = await world.board()
    assert board.embeds[0].description == "🏆 **alice** won (bob conceded)."
    assert board.components == []
    assert world.public_lines()[-1].endswith(
        f"🏆 {world.alice.mention} won! The channel is free for a new match."
    )
    fresh = await world.carol.slash(world.channel, "match new", game="tally")
    assert fresh.response is not None and not fresh.response.ephemeral


@pytest.mark.engines
async def test_a_whole_team_game_through_hand_menus(world: World) -> None:
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start("tally", "teams", players)
    for _ in range(200):
        match = await world.match()
        if match.status != "active":
            break
        (player,) = await world.to_act()
        private = (await player.slash(world.channel, "hand")).response
        assert private is not None
        await player.select(private, [option_values(private)[-1]], custom_id=menu_id(private))
    match = await world.match()
    assert match.status == "finished"
    assert (await world.board()).embeds[0].description.startswith("🏆 ")  # type: ignore[union-attr]
    assert await world.bot.matches.verify(match.id)


async def test_help_and_rules(world: World) -> None:
    shown = await world.eve.slash(world.channel, "help")
    assert shown.response is not None and shown.response.ephemeral
    assert "/match new" in (shown.response.embeds[0].description or "")
    rules = await world.eve.slash(world.channel, "rules", game="tally")
    assert rules.response is not None
    assert rules.response.embeds[0].title == "Tally"
    assert "Raise a banner" in (rules.response.embeds[0].description or "")
    with pytest.raises(simcord.OptionError):
        await world.eve.slash(world.channel, "rules", game="chess")
    # In DMs: help, the rules, and what a solitaire game played there needs.
    in_dms = sorted(world.eve.user.available_commands())
    assert in_dms[:5] == ["card", "hand", "help", "hint", "match ai"]
    assert "rules" in in_dms and "play" in in_dms
    assert not any(c.startswith(("mod ", "settings", "stats", "leaderboard")) for c in in_dms)
    in_dm = await world.eve.user.slash("rules", game="tooth-and-nail")
    assert in_dm.response is not None
    assert in_dm.response.embeds[0].title == "Tooth & Nail: Factions"


async def test_help_names_every_command_and_subcommand(world: World) -> None:
    shown = await world.eve.slash(world.channel, "help")
    assert shown.response is not None
    text = shown.response.embeds[0].description or ""
    for command in world.bot.tree.get_commands():
        assert f"/{command.name}" in text, command.name
        for sub in getattr(command, "commands", []):
            assert sub.name in text, f"/{command.name} {sub.name}"


async def test_an_unexpected_error_gets_an_apology_with_a_reference(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.bot.matches, "view", broken)
    result = await world.alice.slash(world.channel, "hand")
    text = ephemeral_text(result)
    assert text.startswith("Sorry, something went wrong on my side.")
    reference = text.rsplit("`", 2)[1]
    (record,) = [r for r in caplog.records if reference in r.getMessage()]
    assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])
    caplog.clear()


def test_create_bot_is_unstarted_and_reads_only_guild_events(create_bot: BotFactory) -> None:
    bot = create_bot()
    assert isinstance(bot, ArbiterBot)
    assert bot.intents.value == discord.Intents(guilds=True).value
    assert not bot.intents.message_content
    with pytest.raises(RuntimeError):
        bot.matches  # noqa: B018 - the service opens in setup_hook


async def test_players_deciding_at_once_do_not_spoil_each_others_menus(world: World) -> None:
    await world.start("tally", "muster", [world.alice, world.bob, world.carol])
    assert {p.name for p in await world.to_act()} == {"alice", "bob", "carol"}
    menus = {}
    for player in (world.alice, world.bob, world.carol):
        shown = (await player.slash(world.channel, "hand")).response
        assert shown is not None
        menus[player.name] = shown
    await world.carol.slash(world.channel, "play", action="banner|cyan")
    for player, colour in ((world.alice, "amber"), (world.bob, "azure")):
        menu = menus[player.name]
        await player.select(menu, [f"banner|{colour}"], custom_id=menu_id(menu))
        assert menu.content == f"✅ You chose: Raise the {colour} banner"
    assert (await world.match()).version == 3

    # Alice's turn: the same menu used twice (here, shown twice: the first panel too old
    # to be marked as replaced when the second opens, the second too old to follow the
    # first) applies once.
    first = (await world.alice.slash(world.channel, "hand")).response
    await world.env.advance_time(15 * 60)
    second = (await world.alice.slash(world.channel, "hand")).response
    await world.env.advance_time(15 * 60)
    assert first is not None and second is not None
    assert menu_id(first) == menu_id(second) == f"arbiter:act:{world.match_id}:s1"
    play = option_values(first)[0]
    await world.alice.select(first, [play], custom_id=menu_id(first))
    assert first.content.startswith("✅ You chose: Play a ")
    await world.alice.select(second, [play], custom_id=menu_id(second))
    assert second.content.startswith("⚠️ This menu is out of date")
    assert (await world.match()).version == 4


async def test_a_menu_from_an_older_release_is_refreshed_not_applied(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    await world.alice.click(private, label="Send to my DMs")
    dm_channel = world.alice.user.dm_channel
    old = discord.ui.View(timeout=None)
    old.add_item(  # the menu id of earlier releases: the match version, without the "s"
        discord.ui.Select(
            custom_id=f"arbiter:act:{world.match_id}:0",
            options=[discord.SelectOption(label="Raise the amber banner", value="banner|amber")],
        )
    )
    await world.bot.get_partial_messageable(dm_channel.id).send("An old menu", view=old)
    message = dm_channel.last_message
    assert message is not None
    await world.alice.user.select(
        message, ["banner|amber"], custom_id=f"arbiter:act:{world.match_id}:0"
    )
    assert (await world.match()).version == 0  # nothing applied
    refreshed = dm_channel.last_message
    assert refreshed is not None and refreshed.content.startswith("⚠️ This menu is out of date")
    assert menu_id(refreshed) == f"arbiter:act:{world.match_id}:s0"


async def test_play_accepts_a_typed_label_or_a_unique_part_of_one(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    exact = await world.alice.slash(world.channel, "play", action="raise the CRIMSON banner")
    assert ephemeral_text(exact) == "✅ You chose: Raise the crimson banner"
    part = await world.bob.slash(world.channel, "play", action="  Azur ")
    assert ephemeral_text(part) == "✅ You chose: Raise the azure banner"
    assert (await world.match()).version == 2

    vague = await world.alice.slash(world.channel, "play", action="Play")
    text = ephemeral_text(vague)
    assert text.startswith("“Play” fits ") and "pick one of the suggestions" in text
    assert text.splitlines()[1].startswith("• Play a ")
    wrong = await world.alice.slash(world.channel, "play", action="Raise the teal banner")
    text = ephemeral_text(wrong)
    assert text.startswith("“Raise the teal banner” isn't one of your actions right now")
    assert 1 <= len(text.splitlines()[1:]) <= 5
    assert (await world.match()).version == 2


async def test_play_takes_a_tooth_and_nail_faction_by_its_name(world: World) -> None:
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    (first,) = await world.to_act()
    chosen = await first.slash(world.channel, "play", action="Choose the Ostra Vulture")
    assert ephemeral_text(chosen) == "✅ You chose: Choose the Ostra Vulture"
    assert (await world.match()).version == 1


SEED_NOTICE = "Seed 42 — shuffles are predictable (for testing or replays)."


async def test_a_chosen_seed_is_announced_on_the_lobby_and_the_board(world: World) -> None:
    opened = await world.open(world.alice, "tally", "duel", seed=42)
    assert opened.response is not None
    assert SEED_NOTICE in (opened.response.embeds[0].description or "")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    assert SEED_NOTICE in world.public_lines()[-1]
    assert SEED_NOTICE in ((await world.board()).embeds[0].footer.text or "")
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None
    assert SEED_NOTICE in (status.response.embeds[0].footer.text or "")


async def test_a_drawn_seed_is_never_shown_while_the_match_is_open(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    opened = await world.alice.slash(world.channel, "match new", game="tally", variant="duel")
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.slash(world.channel, "match status")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    await world.alice.slash(world.channel, "play", action="banner|amber")
    hand = (await world.bob.slash(world.channel, "hand")).response
    assert hand is not None
    await world.bob.click(hand, label="Send to my DMs")
    await world.bob.slash(world.channel, "match status")

    seed = str((await world.match()).seed)
    shown = []
    for player in (world.alice, world.bob, world.eve):
        messages = list(world.channel.history(viewer=player))
        if player.user.dm_channel.last_message is not None:
            messages.append(player.user.dm_channel.last_message)
        for message in messages:
            shown.append(message.content)
            shown.extend(str(embed.to_dict()) for embed in message.embeds)
    assert len(shown) > 10
    assert not [text for text in shown if seed in text or "Seed " in text]
    assert not [r for r in caplog.records if seed in r.getMessage()]


async def test_a_response_window_posts_a_respond_button_for_the_defending_side(
    world: World,
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    hand = await world.bot.matches.view(world.match_id or 0, world.alice.id)
    big = next(c.key for c in hand.choices if int(c.key.split("|")[1]) >= 4)
    await world.alice.slash(world.channel, "play", action=big)  # bob may challenge, out of turn
    line = next(
        m for m in reversed(world.channel.history(viewer=world.eve)) if not m.flags.ephemeral
    )
    assert line.content.splitlines()[-1].startswith(f"➡️ {world.bob.mention}")
    respond = await world.bob.click(line, label="Respond")
    private = respond.response
    assert private is not None and private.ephemeral
    choices = option_values(private)
    assert sorted(choices) == ["allow", "challenge"]  # the answers open to the defender
    await world.bob.select(private, [choices[0]], custom_id=menu_id(private))
    assert (await world.match()).version == 4
    # A line that doesn't open a response carries no Respond button.
    calm = [m for m in world.channel.history(viewer=world.eve) if not m.flags.ephemeral]
    assert not any(
        c.label == "Respond"
        for m in calm[-1:]
        for row in m.components
        for c in getattr(row, "children", [])
    )
