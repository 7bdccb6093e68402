"""What a newcomer sees around a match, through simcord: `/match new`'s variant
suggestions, the lobby's count and Start button, the confirmation `/match concede`
asks for, the end of a match said once, and the sandbox's bot by its name."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import discord
import pytest
import simcord

from bot.sandbox import open_sandbox
from bot.ui.table import KEEP_PLAYING, NOT_YOUR_CONFIRMATION, ConcedeButton
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered, buttons, custom_ids
from tests.conftest import BotFactory


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def answer(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer (its last follow-up, else its response)."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content


def disabled(message: Any, label: str) -> bool:
    """Whether the button `label` of a lobby message (a response or a channel message) is
    disabled."""
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict) and child.get("label") == label:
                return bool(child.get("disabled", False))
            if isinstance(child, discord.Button) and child.label == label:
                return child.disabled
    raise AssertionError(f"no {label} button")


def start_disabled(message: Any) -> bool:
    """Whether the Start button of a lobby message is disabled."""
    return disabled(message, "Start")


def description(message: Any) -> str:
    return message.embeds[0].description or ""


# ------------------------------------------------------------- /match new


async def test_variant_suggestions_are_the_chosen_games_own_with_what_each_is(
    world: World,
) -> None:
    nature = await world.alice.autocomplete(
        world.channel, "match new", "variant", "", game="command-of-nature"
    )
    assert [c["value"] for c in nature] == ["2p", "4p"]
    assert nature[0]["name"] == (
        "2 players — One against one: your Sage and formation against theirs."
    )
    assert nature[1]["name"].startswith("2 teams of 2 — Seats 1 & 3 against 2 & 4")

    tooth = await world.alice.autocomplete(
        world.channel, "match new", "variant", "", game="tooth-and-nail"
    )
    assert [c["value"] for c in tooth] == ["2p", "3p", "alliance", "4p"]
    assert tooth[3]["name"].startswith("The Enemy of My Enemy — Two teams of two")
    typed = await world.alice.autocomplete(
        world.channel, "match new", "variant", "TEAM", game="tooth-and-nail"
    )
    assert [c["value"] for c in typed] == ["4p"]

    # Before a game is chosen: every variant id, with the games that have it.
    unchosen = await world.alice.autocomplete(world.channel, "match new", "variant", "")
    ids = ["2p", "3p", "alliance", "4p", "solo", "5p", "6p", "duel", "melee", "teams", "muster"]
    assert [c["value"] for c in unchosen] == ids
    names = {c["value"]: c["name"] for c in unchosen}
    # Four games have a 2p: their names are cut short, never what to do first.
    assert names["2p"].startswith("2p — Tooth & Nail: Factions or Command of Nature or Mystic ")
    assert names["2p"].endswith("… (choose the game first)") and len(names["2p"]) == 100
    assert names["6p"] == "6p — Historia: The Ways of Command (choose the game first)"


def test_every_variant_says_what_it_is_within_one_suggestion() -> None:
    for game in GAMES.values():
        for info in game.variants.values():
            assert info.blurb.strip(), f"{game.id} {info.id} has no blurb"
            assert len(f"{info.name} — {info.blurb}") <= 100, f"{game.id} {info.id}"


async def test_a_typed_unknown_variant_is_refused_with_the_games_variants(world: World) -> None:
    refused = await world.alice.slash(
        world.channel, "match new", game="command-of-nature", variant="5p"
    )
    assert answer(refused) == (
        "Command of Nature has no variant `5p`. Its variants: `2p` (2 players), "
        "`4p` (2 teams of 2)."
    )
    assert await world.bot.store.matches.open_in(world.channel.id) is None

    by_name = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", variant="the enemy of my enemy"
    )
    assert by_name.response is not None and not by_name.response.ephemeral
    assert (await world.bot.matches.open_match(world.channel.id)).variant == "4p"


# ------------------------------------------------------------------ lobby


async def test_start_is_disabled_until_enough_players_have_joined(world: World) -> None:
    opened = await world.open(world.alice, "command-of-nature", "2p")
    lobby = opened.response
    assert lobby is not None
    text = description(lobby)
    assert text.startswith("One against one: your Sage and formation against theirs.")
    assert "**1 of 2 seats taken — waiting for 1 more player.**" in text
    assert "The host, **alice**, can press **Start** once 2 players have joined." in text
    assert lobby.embeds[0].fields[0].name == "Players"
    assert lobby.embeds[0].fields[0].value == "1. alice (host)"
    assert start_disabled(lobby)
    with pytest.raises(simcord.SetupError):
        await world.alice.click(lobby, label="Start")
    early = await world.alice.slash(world.channel, "match start")
    assert answer(early) == "This match needs 2 players to start; 1 has joined so far."

    await world.bob.click(lobby, label="Join")
    assert not start_disabled(lobby)
    assert "**2 of 2 seats taken.**" in description(lobby)
    assert "The host, **alice**, can press **Start** now." in description(lobby)

    await world.bob.slash(world.channel, "match leave")  # the lobby message is edited too
    board = await world.board()
    assert start_disabled(board)
    assert "1 of 2 seats taken — waiting for 1 more player" in description(board)

    await world.bob.slash(world.channel, "match join")
    assert not start_disabled(await world.board())
    await world.alice.click(await world.board(), label="Start")
    assert (await world.match()).status == "active"


async def test_a_lobby_with_room_to_spare_says_so(world: World) -> None:
    opened = await world.open(world.alice, "tally", "melee")  # 2 to 4 players
    lobby = opened.response
    assert lobby is not None
    assert "1 of 4 seats taken — waiting for at least 1 more player" in description(lobby)
    assert "once at least 2 players have joined" in description(lobby)
    await world.bob.click(lobby, label="Join")
    assert "2 of 4 seats taken — enough to start, and 2 more can join" in description(lobby)
    assert "Press **Join** to take a seat, or the host, **alice**" in description(lobby)
    assert not start_disabled(lobby)
    assert "needs" not in description(lobby)


async def test_a_full_lobby_offers_no_seat(world: World) -> None:
    opened = await world.open(world.alice, "command-of-nature", "2p")
    lobby = opened.response
    assert lobby is not None
    assert "No one else around? **🤖 Add AI**" in description(lobby)
    assert not disabled(lobby, "Join")

    await world.bob.click(lobby, label="Join")
    assert "**2 of 2 seats taken.**" in description(lobby)
    assert "No one else around" not in description(lobby)
    assert "Press **Join**" not in description(lobby)
    assert disabled(lobby, "Join")
    with pytest.raises(simcord.SetupError):
        await world.carol.click(lobby, label="Join")
    assert not disabled(lobby, "Leave") and not disabled(lobby, "Start")

    await world.bob.slash(world.channel, "match leave")  # a seat is free again
    board = await world.board()
    assert not disabled(board, "Join")
    assert "No one else around? **🤖 Add AI**" in description(board)


async def test_a_lobby_opened_against_the_ai_is_full(world: World) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=3, ai="strong"
    )
    lobby = opened.response
    assert lobby is not None
    assert "No one else around" not in description(lobby)
    assert disabled(lobby, "Join")


async def test_a_host_alone_who_leaves_is_told_the_lobby_closed(world: World) -> None:
    opened = await world.open(world.alice, "command-of-nature", "2p")
    lobby = opened.response
    assert lobby is not None
    left = await world.alice.click(lobby, label="Leave")
    closed = "its host left and nobody else had taken a seat"
    assert closed in description(lobby)
    assert lobby.components == []  # no button left to press
    told = answer(left)
    assert told.startswith("You left, and nobody else had taken a seat, so the lobby closed.")
    assert (await world.match()).status == "cancelled"

    # By command, the same; and a host who leaves bob behind hands him the lobby.
    await world.open(world.alice, "command-of-nature", "2p")
    await world.bob.slash(world.channel, "match join")
    assert answer(await world.alice.slash(world.channel, "match leave")) == "You left the lobby."
    board = await world.board()
    assert "The host, **bob**" in description(board)
    left = await world.bob.slash(world.channel, "match leave")
    assert answer(left).startswith("You left, and nobody else had taken a seat")
    assert closed in description(await world.board())


async def test_a_host_who_leaves_the_ai_alone_closes_the_lobby(world: World) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=3, ai="strong"
    )
    lobby = opened.response
    assert lobby is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    left = await world.alice.click(lobby, label="Leave")
    assert answer(left).startswith("You left, and nobody else had taken a seat")
    assert "its host left and nobody else had taken a seat" in description(lobby)
    assert next(f for f in lobby.embeds[0].fields if f.name == "Players").value == "—"
    assert (await world.match()).status == "cancelled"
    assert await world.bot.store.matches.open_in(world.channel.id) is None


# ---------------------------------------------------------------- concede


async def test_concede_asks_first_and_keep_playing_changes_nothing(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    lines = world.public_lines()
    asked = await world.bob.slash(world.channel, "match concede")
    question = asked.response
    assert question is not None and question.ephemeral
    assert question.content.startswith("**Concede this match?** Your side loses (**alice** wins).")
    concede, keep = buttons(question)
    assert (concede["label"], concede["style"]) == ("Concede", discord.ButtonStyle.danger.value)
    assert keep["label"] == "Keep playing"
    assert (await world.match()).status == "active"

    kept = await world.bob.click(question, label="Keep playing")
    assert kept.response is not None and kept.response.content == KEEP_PLAYING
    assert kept.response.components == []
    match = await world.match()
    assert (match.status, match.version) == ("active", 0)
    assert world.public_lines() == lines

    again = await world.bob.slash(world.channel, "match concede")
    assert again.response is not None
    done = await world.bob.click(again.response, label="Concede")
    assert done.response is not None and done.response.content == "You conceded."
    assert (await world.match()).status == "finished"
    assert world.public_lines()[-1].startswith("bob concedes.")


async def test_the_question_says_who_loses_with_you_and_who_plays_on(world: World) -> None:
    await world.start("tally", "teams", [world.alice, world.bob, world.carol, world.dave])
    team = await world.bob.slash(world.channel, "match concede")
    assert answer(team).startswith(
        "**Concede this match?** Your side — you and **dave** — loses "
        "(**alice** and **carol** win)."
    )
    await world.concede(world.bob)

    await world.start("tooth-and-nail", "3p", [world.alice, world.bob, world.carol])
    alone = await world.bob.slash(world.channel, "match concede")
    assert answer(alone).startswith(
        "**Concede this match?** You drop out of the game "
        "(**alice** and **carol** play on without you)."
    )
    assert (await world.match()).status == "active"


async def test_only_a_seated_player_is_asked(world: World) -> None:
    await world.open(world.alice, "tally", "duel")
    early = await world.alice.slash(world.channel, "match concede")
    assert answer(early) == "The match hasn't started yet."
    await world.bob.slash(world.channel, "match join")
    await world.alice.slash(world.channel, "match start")
    outsider = await world.eve.slash(world.channel, "match concede")
    assert answer(outsider) == "You are not playing in this match."
    assert custom_ids(outsider.response) == []


async def test_only_the_asking_players_confirmation_concedes(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    mid = world.match_id or 0
    shown = discord.ui.View(timeout=None)
    shown.add_item(ConcedeButton("yes", mid, world.alice.id))  # Alice's, in the open
    await world.bot.get_partial_messageable(world.channel.id).send("Alice's", view=shown)
    message = world.channel.last_message
    assert message is not None

    refused = await world.bob.click(message, label="Concede")
    assert answer(refused) == NOT_YOUR_CONFIRMATION
    assert (await world.match()).status == "active"

    await world.alice.click(message, label="Concede")
    board = await world.board()
    assert board.embeds[0].description == "🏆 **bob** won (alice conceded)."


@pytest.mark.parametrize(
    "game", ["tooth-and-nail", "command-of-nature", "mystic-vale", "historia-command"]
)
async def test_the_end_of_every_game_is_announced_once(world: World, game: str) -> None:
    """The end is said once, in the line that frees the channel: the game's own sentence
    (who lost, why, who won) is not posted again above it."""
    await world.start(game, "2p", [world.alice, world.bob])
    await world.concede(world.bob)
    table = await world.bot.matches.table(world.match_id or 0)
    assert table.outcome is not None and table.outcome.text
    last = world.public_lines()[-1]
    assert last.count(table.outcome.text) == 1, last
    assert last.endswith(f"🏆 {table.outcome.text} The channel is free for a new match.")


async def test_a_stale_confirmation_is_refused(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    late = (await world.bob.slash(world.channel, "match concede")).response
    assert late is not None
    await world.concede(world.alice)
    refused = await world.bob.click(late, label="Concede")
    assert refused.response is not None
    assert refused.response.content == (
        "⚠️ This confirmation is out of date (the match is over), so nothing happened."
    )
    assert refused.response.components == []
    assert (await world.board()).embeds[0].description == "🏆 **bob** won (alice conceded)."

    await world.start("tally", "duel", [world.alice, world.bob])
    replaced = (await world.bob.slash(world.channel, "match concede")).response
    assert replaced is not None
    await world.bot.matches.replace_seat(
        world.match_id or 0, world.bob.id, world.eve.id, "eve", moderator_id=world.carol.id
    )
    refused = await world.bob.click(replaced, label="Concede")
    assert refused.response is not None
    assert refused.response.content == (
        "⚠️ This confirmation is out of date (you no longer play in it), so nothing happened."
    )
    assert (await world.match()).status == "active"


@pytest.mark.engines
async def test_a_confirmation_still_works_after_a_restart(
    world: World, create_bot: BotFactory
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    asked = (await world.bob.slash(world.channel, "match concede")).response
    assert asked is not None
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    done = await world.bob.click(asked, label="Concede")
    assert done.response is not None and done.response.content == "You conceded."
    assert (await world.match()).status == "finished"
    assert world.public_lines()[-1].endswith(
        f"🏆 {world.alice.mention} won! The channel is free for a new match."
    )


# ---------------------------------------------------------------- sandbox


def page_of(url: str) -> dict[str, Any]:
    """What the sandbox's page shows its first viewer (its `/api/pages` payload)."""
    address = urlsplit(url)
    request = urllib.request.Request(
        f"http://127.0.0.1:{address.port}/api/pages",
        data=b"{}",
        method="POST",
        headers={"X-Simcord-Capability": address.fragment, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        page: dict[str, Any] = json.loads(response.read())
    return page


async def test_the_sandbox_bot_is_called_arbiter(tmp_path: Path) -> None:
    async with open_sandbox(tmp_path / "sandbox.db") as sandbox:
        assert sandbox.bot.user is not None and sandbox.bot.user.name == "Arbiter"
        host = sandbox.players[0]
        await host.slash(sandbox.channel, "match new", game="command-of-nature")
        lobby = sandbox.channel.history(viewer=host)[-1]
        assert lobby.author.name == "Arbiter"
        page = await asyncio.to_thread(page_of, sandbox.url)
        authors = {m["author"]["name"] for m in page["messages"].values()}
        assert authors == {"Sandbox guide", "Arbiter"}
        assert "TestBot" not in json.dumps(page)
        assert not sandbox.env.errors


async def test_the_sandbox_guide_says_a_space_opens_the_suggestions(tmp_path: Path) -> None:
    """The sandbox's page asks for suggestions only once something is typed in an option
    (Discord asks as soon as it is focused): its guide says a space shows them all, and
    the bot offers every choice for a space as for nothing typed."""
    async with open_sandbox(tmp_path / "sandbox.db") as sandbox:
        host = sandbox.players[0]
        guide = sandbox.channel.history(viewer=host)[0].content
        assert "type a space to see them all" in guide
        every = {v for g in GAMES.values() for v in g.variants}
        for game, offered in (
            ({"game": "tooth-and-nail"}, {"2p", "3p", "alliance", "4p"}),
            ({}, every),
        ):
            spaced = await host.autocomplete(sandbox.channel, "match new", "variant", " ", **game)
            empty = await host.autocomplete(sandbox.channel, "match new", "variant", "", **game)
            assert spaced == empty and {c["value"] for c in empty} == offered
        assert not sandbox.env.errors
