"""A reply Discord refuses never hides a saved change: whatever the player's own answer
does, the board is brought up to date, the public line is posted and the next player is
pinged. A reply that fails after the change was saved is a warning in the log, never an
apology (an apology would say something went wrong when the move in fact stands)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import pytest

from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, custom_ids, menu_id

CALLBACK = "/interactions/*/callback"  # acknowledging an interaction (or answering it at once)
EXPIRED = {"status": 404, "code": 10062, "message": "Unknown interaction"}


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def warned(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def no_apology(world: World) -> None:
    for viewer in (world.alice, world.bob):
        for message in world.channel.history(viewer=viewer):
            assert "Sorry, something went wrong" not in message.content


async def test_a_menu_pick_whose_acknowledgement_fails_is_still_announced(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    board = await world.board()
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    world.env.inject_error("POST", CALLBACK, **EXPIRED)
    await world.alice.select(private, ["banner|pink"], custom_id=menu_id(private))

    assert (await world.match()).version == 1  # saved
    assert world.public_lines()[-1] == (
        f"alice raises pink.\n➡️ {world.bob.mention}, your turn — raise a banner"
    )
    posted = [
        r.json
        for r in world.env.http_requests
        if r.method == "POST" and r.path == f"/channels/{world.channel.id}/messages"
    ]
    assert posted[-1]["allowed_mentions"] == {"parse": [], "users": [world.bob.id]}  # pinged
    assert (await world.board()).id == board.id
    assert (await world.board()).embeds[0].description == "▶️ bob raises a banner."
    no_apology(world)
    assert any("after saving it" in w for w in warned(caplog))  # the answer was the edit


async def test_a_play_whose_private_answer_fails_is_still_announced(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    world.env.inject_error("POST", CALLBACK, status=500)  # the answer, once it is saved
    await world.alice.slash(world.channel, "play", action="banner|amber")

    assert (await world.match()).version == 1
    assert world.public_lines()[-1] == (
        f"alice raises amber.\n➡️ {world.bob.mention}, your turn — raise a banner"
    )
    assert (await world.board()).embeds[0].description == "▶️ bob raises a banner."
    no_apology(world)
    assert any("after saving it" in w for w in warned(caplog))


async def test_a_start_whose_acknowledgement_fails_still_posts_the_board(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    opened = await world.open(world.alice, "tally", "duel")
    lobby = opened.response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    world.env.inject_error("POST", CALLBACK, **EXPIRED)
    await world.alice.click(lobby, label="Start")

    assert (await world.match()).status == "active"
    assert lobby.components == []  # the lobby's buttons are retired all the same
    board = await world.board()
    assert board.id != lobby.id and custom_ids(board) == [f"arbiter:hand:{world.match_id}"]
    assert world.public_lines()[-1].startswith("The match begins!")
    assert world.public_lines()[-1].endswith(f"➡️ {world.alice.mention}, your turn — raise a banner")
    no_apology(world)
    assert warned(caplog)


async def test_a_concession_whose_answer_fails_is_still_announced(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    asked = await world.bob.slash(world.channel, "match concede")
    assert asked.response is not None
    world.env.inject_error("PATCH", "/webhooks/*", status=500)  # "You conceded." fails
    await world.bob.click(asked.response, label="Concede")
    assert (await world.match()).status == "finished"
    assert (await world.board()).embeds[0].description == "🏆 **alice** won (bob conceded)."
    assert world.public_lines()[-1].endswith(
        f"🏆 {world.alice.mention} won! The channel is free for a new match."
    )
    no_apology(world)
    assert any("after saving it" in line for line in warned(caplog))


async def test_a_new_lobby_whose_answer_fails_is_posted_in_the_channel(world: World) -> None:
    world.env.inject_error("POST", CALLBACK, **EXPIRED)
    await world.alice.slash(world.channel, "match new", game="tally", variant="duel")
    match = await world.bot.matches.open_match(world.channel.id)
    world.match_id = match.id
    lobby = await world.board()
    assert lobby.embeds[0].title == "Tally — Duel"
    await world.bob.click(lobby, label="Join")
    assert "2. bob" in (await world.board()).embeds[0].fields[0].value
    no_apology(world)
