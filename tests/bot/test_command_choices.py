"""Every choice a command offers is taken, on both store engines: each fixed choice of
every slash command (its `choices`, its `Literal` values, the games filled in at start)
is sent through the real bot where it applies, and answered as a player would be
answered, never with "something went wrong" (the database refusing a value the command
offered left a channel blocked once: the `ai` timeout policy). A command given choices
later must be walked here too: the test fails for one it does not know."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord
from discord import app_commands

from tests.bot.test_moderation import admin
from tests.bot.world import World, answered

pytestmark = pytest.mark.engines

SORRY = "Sorry, something went wrong"

Call = Callable[["Walk", str, Any], Awaitable[simcord.InteractionResult]]


def offered(world: World) -> dict[str, dict[str, list[Any]]]:
    """Each command's fixed choices, by its name and its option's name."""
    found: dict[str, dict[str, list[Any]]] = {}
    for command in world.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            if parameter.choices:
                options = found.setdefault(command.qualified_name, {})
                options[parameter.display_name] = [c.value for c in parameter.choices]
    return found


class Walk:
    """The table the choices are tried at: a moderator, and a fresh channel whenever a
    command's use takes one up (a lobby, a tournament)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.mona = admin(world)
        self._channels = itertools.count(1)
        self._matches: dict[str, Any] = {}

    def channel(self) -> Any:
        return self.world.guild.create_text_channel(f"walk-{next(self._channels)}")

    async def match_of(self, game: str, variant: str) -> Any:
        """A channel with a match of `game` in play (alice and bob), opened once."""
        if game not in self._matches:
            channel = self.channel()
            w = self.world
            opened = await w.alice.slash(channel, "match new", game=game, variant=variant, seed=5)
            assert opened.response is not None and not opened.response.ephemeral, opened
            await w.bob.click(opened.response, label="Join")
            await w.alice.click(opened.response, label="Start")
            self._matches[game] = channel
        return self._matches[game]


async def match_new(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
    given = {"game": "tooth-and-nail", option: value}
    return await walk.world.alice.slash(walk.channel(), "match new", **given)


def by_player(command: str) -> Call:
    async def call(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
        return await walk.world.alice.slash(walk.world.channel, command, **{option: value})

    return call


def by_moderator(command: str, **rest: Any) -> Call:
    async def call(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
        return await walk.mona.slash(walk.world.channel, command, **{**rest, option: value})

    return call


async def mod_ai(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
    channel = await walk.match_of("tooth-and-nail", "2p")
    return await walk.mona.slash(channel, "mod ai", player=walk.world.bob, **{option: value})


def historia(command: str, **rest: Any) -> Call:
    async def call(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
        channel = await walk.match_of("historia-command", "2p")
        return await walk.world.alice.slash(channel, command, **{**rest, option: value})

    return call


async def historia_cubes(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
    """Cubes moved from (or to) each place, the other end another place."""
    other = "bank" if value == "supply" else "supply"
    ends = {"from": other, "to": other, option: value}
    return await historia("historia cubes", count=1, **ends)(walk, option, value)


TOURNAMENT = {
    "name": "Cup",
    "game": "tooth-and-nail",
    "variant": "2p",
    "format": "swiss",
    "rounds": 1,
}


async def tournament_new(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
    given = {**TOURNAMENT, option: value}
    return await walk.mona.slash(walk.channel(), "tournament new", **given)


async def tournament_record(walk: Walk, option: str, value: Any) -> simcord.InteractionResult:
    """A result recorded in a tournament of two (its one pairing seated and in play)."""
    w, channel = walk.world, walk.channel()
    opened = await walk.mona.slash(channel, "tournament new", **TOURNAMENT, seed=3)
    assert opened.response is not None and not opened.response.ephemeral
    for player in (w.alice, w.bob):
        await player.click(opened.response, label="Join")
    await walk.mona.slash(channel, "tournament start")
    await w.bot.desk.idle()
    return await walk.mona.slash(channel, "tournament record", player=w.alice, **{option: value})


WALKS: dict[str, Call] = {
    "match new": match_new,
    "rules": by_player("rules"),
    "leaderboard": by_player("leaderboard"),
    "stats": by_player("stats"),
    "profile pictures": by_player("profile pictures"),
    "settings channels": by_moderator("settings channels"),
    "settings timeout": by_moderator("settings timeout"),
    "settings reminders": by_moderator("settings reminders"),
    "settings pictures": by_moderator("settings pictures"),
    "settings ratings": by_moderator("settings ratings", rated=True),
    "mod ai": mod_ai,
    "historia token": historia("historia token"),
    "historia level": historia("historia level", value=3),
    "historia cubes": historia_cubes,
    "tournament new": tournament_new,
    "tournament record": tournament_record,
}


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World.build(simcord_env)


async def test_every_command_with_choices_is_walked(world: World) -> None:
    assert set(offered(world)) == set(WALKS)


@pytest.mark.parametrize("command", sorted(WALKS))
async def test_every_choice_a_command_offers_is_answered_in_words(
    world: World, command: str
) -> None:
    walk = Walk(world)
    options = offered(world)[command]
    for option, values in options.items():
        for value in values:
            done = await WALKS[command](walk, option, value)
            replies = answered(done)
            assert replies, f"/{command} {option}:{value} was not answered"
            text = replies[-1].content or ""
            embeds = " ".join(e.description or e.title or "" for e in replies[-1].embeds)
            assert text or embeds, f"/{command} {option}:{value} answered nothing to read"
            assert SORRY not in text, f"/{command} {option}:{value}: {text}"
    await world.bot.publisher.idle()
