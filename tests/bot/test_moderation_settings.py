"""`/settings`: moderators change the server's settings; they persist and take effect."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
import simcord

from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.test_moderation import NOT_MODERATOR, admin, answer
from tests.bot.world import World
from tests.conftest import BotFactory


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def thread_in(world: World, parent: simcord.ChannelHandle, name: str) -> simcord.ChannelHandle:
    """A public thread in `parent`, opened by alice."""
    world.env.backend.create_thread(parent.id, name, world.alice.id)
    return next(t for t in parent.threads if t.name == name)


async def test_every_settings_command_is_refused_to_a_non_moderator(world: World) -> None:
    role = world.guild.create_role("Referees")
    for name, options in [
        ("settings mod-role", {"role": role}),
        ("settings channels", {"action": "add", "channel": world.channel}),
        ("settings clock", {"duration": "1h"}),
        ("settings timeout", {"policy": "abandon"}),
        ("settings reminders", {"cadence": "off"}),
        ("settings ratings", {"ending": "abandons", "rated": True}),
        ("settings show", {}),
    ]:
        refused = await world.eve.slash(world.channel, name, **options)
        assert answer(refused).startswith(NOT_MODERATOR), name
    settings = await world.bot.store.settings.guild(world.guild.id)
    assert settings.mod_role_id is None and settings.match_channels == ()


async def test_settings_are_saved_shown_and_survive_a_restart(
    world: World, create_bot: BotFactory
) -> None:
    mona = admin(world)
    role = world.guild.create_role("Referees")
    await mona.slash(world.channel, "settings mod-role", role=role)
    clock = await mona.slash(world.channel, "settings clock", duration="3d")
    assert "**Default clock:** 3 days per decision" in answer(clock)
    await mona.slash(world.channel, "settings timeout", policy="abandon")
    await mona.slash(world.channel, "settings reminders", cadence="end-only")
    await mona.slash(world.channel, "settings channels", action="add", channel=world.channel)
    await mona.slash(world.channel, "settings pictures", mode="pictures")
    await mona.slash(world.channel, "settings ratings", ending="abandons", rated=True)
    await mona.slash(world.channel, "settings ratings", ending="concessions", rated=False)

    await world.bot.close()
    await world.env.restart_bot(create_bot())
    shown = await mona.slash(world.channel, "settings show")
    assert answer(shown).splitlines() == [
        f"**Moderator role:** <@&{role.id}>",
        f"**Match channels:** <#{world.channel.id}>",
        "**Default clock:** 3 days per decision",
        "**Timeout policy:** abandon",
        "**Reminders:** end-only",
        "**Boards:** picture only: the table's picture and who decides; the whole text board "
        "is one tap away, under **Full board**",
        "**Ratings:** season 1; rated: matches played to the end, forfeits at a deadline, "
        "matches abandoned at a deadline (the one who left loses); not rated: concessions, "
        "a moderator's removal of a player",
    ]
    await mona.slash(world.channel, "settings mod-role")
    cleared = await mona.slash(world.channel, "settings show")
    assert "**Moderator role:** none (Manage Server only)" in answer(cleared)


async def test_a_clock_out_of_range_or_unreadable_is_refused(world: World) -> None:
    mona = admin(world)
    short = await mona.slash(world.channel, "settings clock", duration="2m")
    assert answer(short).startswith("A clock must be from 5 minutes to 14 days")
    nonsense = await mona.slash(world.channel, "settings clock", duration="soon")
    assert "isn't a duration" in answer(nonsense)
    settings = await world.bot.store.settings.guild(world.guild.id)
    assert settings.default_clock_seconds == 86400
    with pytest.raises(simcord.OptionError):
        await mona.slash(world.channel, "settings timeout", policy="explode")


async def test_match_channels_restrict_where_matches_open(world: World) -> None:
    mona = admin(world)
    arena = world.guild.create_text_channel("arena")
    await mona.slash(world.channel, "settings channels", action="add", channel=arena)

    refused = await world.alice.slash(world.channel, "match new", game="tally")
    assert answer(refused) == (
        f"On this server, matches are opened only in <#{arena.id}> (or in threads there)."
    )
    assert await world.bot.store.matches.open_in(world.channel.id) is None
    opened = await world.alice.slash(arena, "match new", game="tally")
    assert opened.response is not None and not opened.response.ephemeral
    thread = thread_in(world, arena, "table two")
    in_thread = await world.bob.slash(thread, "match new", game="tally")
    assert in_thread.response is not None and not in_thread.response.ephemeral

    missing = await mona.slash(world.channel, "settings channels", action="remove")
    assert answer(missing) == "Name the channel to remove."
    absent = await mona.slash(
        world.channel, "settings channels", action="remove", channel=world.channel
    )
    assert answer(absent) == f"<#{world.channel.id}> isn't in the list."
    await mona.slash(world.channel, "settings channels", action="clear")
    anywhere = await world.alice.slash(world.channel, "match new", game="tally")
    assert anywhere.response is not None and not anywhere.response.ephemeral
