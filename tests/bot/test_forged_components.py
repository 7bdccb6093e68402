"""Forged and foreign clicks on every persistent component (issue 11, finding 5).

A component's custom id comes back from the client, so a forged client can send any id
that fits Discord's 100 characters, from anywhere. Every persistent component of the bot
(the `PERSISTENT_ITEMS` of `bot.ui.lobby`, `bot.ui.table` and `bot.history`) is clicked here with a
78-digit number (or as many digits as fit) in each numeric part of its id, with an id
naming no match, from another server and from DMs; each menu also with no value and
with two. Each is refused with a sentence, changes nothing and logs no error (see
tests/bot/conftest.py). A new component fails here until it has a sample and the checks.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Sequence
from typing import Any, cast

import discord
import pytest
import simcord

from bot import desk, history
from bot.app import EXTENSIONS
from bot.history import LogButton
from bot.service.matches import MatchService
from bot.ui import lobby, table
from bot.ui.choices import choice_option
from bot.ui.interactions import CUSTOM_ID_LIMIT, MAX_ROW_ID, PAGE_SIZE
from bot.ui.lobby import LobbyButton, OptionSelect, option_menu
from bot.ui.table import (
    TOGETHER,
    ActionSelect,
    ConcedeButton,
    DisputeButton,
    DmButton,
    FullBoardButton,
    HandButton,
    HintButton,
    KeepSeatButton,
    PageButton,
    QuickButton,
    TogetherSelect,
    dispute_buttons,
    quick_buttons,
)
from rules.historia_command import GAME as HC
from rules.mystic_vale import GAME as MV
from tests.bot.world import World

Item = discord.ui.DynamicItem[Any]

REGISTERED: tuple[type[Item], ...] = (
    *lobby.PERSISTENT_ITEMS,
    *table.PERSISTENT_ITEMS,
    *history.PERSISTENT_ITEMS,
)
HUGE = "9" * 78  # far beyond SQLite's integers (SQLite raised OverflowError)
FEWEST_DIGITS = 20  # a forged number shortened to fit the id is still beyond any row id
NO_MATCH = "999999"  # a match id in range that names no match
NO_SEAT = "99"  # a seat in range that the match doesn't have
# A private view sent to DMs carries these.
DM_CARRIED = {PageButton, ActionSelect, TogetherSelect, HintButton}
ONE_CHOICE = "Pick exactly one choice from this menu, so nothing happened."


def not_here(item: Item) -> str:
    thing = "menu" if isinstance(item.item, discord.ui.Select) else "button"
    return f"That {thing} isn't from a match here, so nothing happened."


@dataclasses.dataclass(frozen=True)
class Sample:
    """A genuine component of a live match, where it lives and who would use it."""

    item: Item
    world: World  # the match's channel and id
    clicker: simcord.MemberActor
    values: tuple[str, str] | None = None  # a menu: a value to send, and another one


@dataclasses.dataclass(frozen=True)
class Tables:
    """Three matches of one server: Mystic Vale in play (alice, bob) in #games, a Mystic
    Vale lobby (alice hosting) in #lobby, a Historia table (alice, bob) in #historia
    where alice's report is the latest."""

    play: World
    lobby: World
    historia: World


@pytest.fixture
async def tables(simcord_env: simcord.Env) -> Tables:
    play = World.build(simcord_env)
    await play.start(MV.id, "2p", [play.alice, play.bob], seed=7)
    lobby = dataclasses.replace(play, channel=play.guild.create_text_channel("lobby"))
    await lobby.open(lobby.alice, MV.id, "2p")
    historia = dataclasses.replace(play, channel=play.guild.create_text_channel("historia"))
    await historia.start(HC.id, "2p", [play.alice, play.bob])
    for player, name in ((play.alice, "Greeks"), (play.bob, "Carthage")):
        await player.slash(historia.channel, "historia civilization", name=name)
    await play.alice.slash(historia.channel, "historia begin")
    added = await play.alice.slash(historia.channel, "historia territory add", name="Attica")
    told = [m.content for m in [added.response, *added.followups] if m is not None]
    assert told[-1].startswith("✅ "), told
    return Tables(play, lobby, historia)


async def samples(tables: Tables) -> dict[type[Item], Sample]:
    """A genuine instance of every persistent component, as the bot would post it."""
    play, lobby, historia = tables.play, tables.lobby, tables.historia
    matches: MatchService = play.bot.matches
    game = await matches.table(play.match_id or 0)
    (decider,) = await play.to_act()
    pv = await matches.view(game.match.id, decider.id)
    menu = [choice_option(c) for c in pv.choices[:PAGE_SIZE]]
    together = [discord.SelectOption(label=v, value=v) for v in ("vale#0", "spirit#1")]
    (quick, *_) = quick_buttons(game)
    (dispute,) = dispute_buttons(await matches.table(historia.match_id or 0))
    leaders = MV.options["leaders"]
    lobby_id = lobby.match_id or 0
    return {
        LobbyButton: Sample(LobbyButton("join", lobby_id), lobby, play.carol),
        OptionSelect: Sample(
            OptionSelect(lobby_id, leaders.id, option_menu(leaders, "off")),
            lobby,
            play.alice,
            ("on", "off"),
        ),
        ConcedeButton: Sample(ConcedeButton("yes", game.match.id, play.bob.id), play, play.bob),
        HandButton: Sample(HandButton(game.match.id), play, play.bob),
        FullBoardButton: Sample(FullBoardButton(game.match.id), play, play.bob),
        KeepSeatButton: Sample(KeepSeatButton(game.match.id, play.bob.id), play, play.bob),
        PageButton: Sample(PageButton(game.match.id, 0, "next"), play, play.bob),
        DmButton: Sample(DmButton(game.match.id), play, play.bob),
        HintButton: Sample(HintButton(game.match.id), play, decider),
        ActionSelect: Sample(
            ActionSelect(game.match.id, pv.decisions, menu),
            play,
            decider,
            (pv.choices[0].key, pv.choices[1].key),
        ),
        QuickButton: Sample(quick, play, decider),
        TogetherSelect: Sample(
            TogetherSelect(game.match.id, pv.decisions, "end", together, 1, "Choose"),
            play,
            decider,
            ("vale#0", "spirit#1"),
        ),
        DisputeButton: Sample(dispute, historia, play.bob),
        LogButton: Sample(LogButton(game.match.id, 0, "older"), play, play.eve),
    }


# ------------------------------------------------------------------ forging ids


def spliced(found: re.Match[str], parts: dict[str, str]) -> str:
    """The id `found` matched, with its named parts replaced by `parts`."""
    pieces, last = [], 0
    for name in sorted(found.re.groupindex, key=found.re.groupindex.__getitem__):
        start, end = found.span(name)
        pieces += [found.string[last:start], parts[name]]
        last = end
    return "".join([*pieces, found.string[last:]])


def forged(found: re.Match[str], name: str, number: str) -> str:
    """The id with `number` in its part `name`, within Discord's 100 characters: other
    parts are shortened where their pattern allows, and if that is not enough the
    number loses digits (never below FEWEST_DIGITS)."""
    parts = {**found.groupdict(), name: number}
    for other in parts:
        if len(spliced(found, parts)) <= CUSTOM_ID_LIMIT:
            break
        for short in ("1", "x"):
            trial = {**parts, other: short}
            shorter = other != name and len(short) < len(parts[other])
            if shorter and found.re.fullmatch(spliced(found, trial)):
                parts = trial
                break
    excess = len(spliced(found, parts)) - CUSTOM_ID_LIMIT
    if excess > 0:
        assert len(number) - excess >= FEWEST_DIGITS, f"{name} of {found.string} can't be forged"
        parts[name] = number[excess:]
    custom_id = spliced(found, parts)
    assert found.re.fullmatch(custom_id) and len(custom_id) <= CUSTOM_ID_LIMIT
    return custom_id


def forgeries(item: Item) -> list[str]:
    """Ids a forged client might send for this component: a huge number in each numeric
    part in turn, a match id naming no match (in range, then just beyond it), and a seat
    the match doesn't have."""
    found = type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id)
    assert found is not None, item.custom_id
    numeric = [name for name, value in found.groupdict().items() if value and value.isdigit()]
    assert "match_id" in numeric, f"{type(item).__name__}'s id names no match"
    ids = [forged(found, name, HUGE) for name in numeric]
    ids += [forged(found, "match_id", n) for n in (NO_MATCH, str(MAX_ROW_ID + 1))]
    if "seat" in numeric:
        ids.append(forged(found, "seat", NO_SEAT))
    return ids


async def rebuilt(
    item: Item, custom_id: str | None = None, *, least: int = 1, most: int = 1
) -> Item:
    """A fresh component as the bot rebuilds it from an id (this one's, or `custom_id`),
    with this one's menu options; a menu takes from `least` to `most` values."""
    kind = type(item)
    found = kind.__discord_ui_compiled_template__.fullmatch(custom_id or item.custom_id)
    assert found is not None
    made = await kind.from_custom_id(cast(Any, None), item.item, found)
    assert made.custom_id == found.string
    if isinstance(item.item, discord.ui.Select):
        assert isinstance(made.item, discord.ui.Select)
        made.item.options = list(item.item.options)
        made.item.min_values, made.item.max_values = least, most
    return made


# ------------------------------------------------------------------ clicking


async def post(
    world: World, where: simcord.ChannelHandle | simcord.UserHandle, item: Item
) -> discord.Message:
    """A message the bot posts carrying one component, in a channel or a user's DMs."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    if isinstance(where, simcord.UserHandle):
        await (await world.bot.fetch_user(where.id)).send("A component", view=view)
        message = where.dm_channel.last_message
    else:
        await world.bot.get_partial_messageable(where.id).send("A component", view=view)
        message = where.last_message
    assert message is not None
    return message


async def use(
    actor: simcord.MemberActor | simcord.UserHandle,
    message: discord.Message,
    item: Item,
    values: Sequence[str] = (),
) -> list[simcord.ResponseMessage]:
    """Click the component (a menu: send `values`); the messages answering the click."""
    if isinstance(item.item, discord.ui.Select):
        result = await actor.select(message, list(values), custom_id=item.custom_id)
    else:
        result = await actor.click(message, custom_id=item.custom_id)
    return [m for m in [result.response, *result.followups] if m is not None]


async def fingerprint(world: World) -> list[Any]:
    """Everything the store holds about every match: rows, seats, actions, log."""
    store = world.bot.store
    found = []
    for match_id in range(1, 100):
        match = await store.matches.get(match_id)
        if match is None:
            break
        found.append(
            (
                match,
                await store.matches.seats(match_id),
                await store.matches.actions(match_id),
                await store.log.entries(match_id),
                await store.matches.undone(match_id),
            )
        )
    return found


# ------------------------------------------------------------------ the tests


def subclasses(kind: type) -> list[type]:
    return [k for sub in kind.__subclasses__() for k in (sub, *subclasses(sub))]


def test_every_persistent_component_of_the_bot_is_registered() -> None:
    """Every DynamicItem the bot or its cogs define is in one of the registries the bot
    adds at start-up (so its components survive a restart), and so is tested below (a
    tournament's, in tests/bot/test_tournament_discord.py)."""
    for extension in EXTENSIONS:  # with bot.app, every module of the bot and its cogs
        importlib.import_module(extension)
    defined = {
        kind
        for kind in subclasses(discord.ui.DynamicItem)
        if kind.__module__.split(".")[0] in ("bot", "cogs")
    }
    assert defined and defined <= {*REGISTERED, *desk.PERSISTENT_ITEMS}


@pytest.mark.parametrize("kind", REGISTERED, ids=lambda kind: kind.__name__)
async def test_a_forged_or_foreign_click_is_refused_and_changes_nothing(
    tables: Tables, kind: type[Item]
) -> None:
    found = await samples(tables)
    assert kind in found, f"{kind.__name__} needs a sample in this test"
    sample = found[kind]
    world, clicker = sample.world, sample.clicker
    value = sample.values[:1] if sample.values else ()
    refusal = not_here(sample.item)
    before = await fingerprint(world)

    async def refused(
        where: Any,
        actor: Any,
        item: Item,
        told: str = refusal,
        *,
        values: Sequence[str] = value,
        least: int = 1,
        most: int = 1,
    ) -> None:
        message = await post(world, where, await rebuilt(item, least=least, most=most))
        answers = await use(actor, message, item, values)
        assert [m.content for m in answers] == [told], item.custom_id
        if isinstance(actor, simcord.MemberActor):
            assert answers[0].ephemeral and not answers[0].embeds, "only a sentence, privately"
        assert await fingerprint(world) == before, item.custom_id

    # A forged id, from the match's own channel, by the player it would be for.
    for custom_id in forgeries(sample.item):
        await refused(world.channel, clicker, await rebuilt(sample.item, custom_id))
    # The genuine id, from another server (by the same user), and from DMs: the
    # clicker's own (only a private view's components work there, for its player)
    # and those of a member who plays in no match.
    other = world.env.create_guild("Elsewhere")
    there = other.create_text_channel("games")
    await refused(there, other.add_member(clicker.user), sample.item)
    if kind not in DM_CARRIED:
        await refused(clicker.user, clicker.user, sample.item)
    await refused(world.frank.user, world.frank.user, sample.item)
    # A menu sent with no value, or with two, from the right place by the right player.
    if isinstance(sample.item.item, discord.ui.Select):
        assert sample.values is not None
        one = TOGETHER.format(count=1) if kind is TogetherSelect else ONE_CHOICE
        await refused(world.channel, clicker, sample.item, one, values=(), least=0)
        await refused(world.channel, clicker, sample.item, one, values=sample.values, most=2)
    # The genuine one, where it belongs, is believed: the refusals above withheld a click
    # that would have worked.
    message = await post(world, world.channel, await rebuilt(sample.item))
    answers = await use(clicker, message, sample.item, value)
    assert refusal not in [m.content for m in answers]
