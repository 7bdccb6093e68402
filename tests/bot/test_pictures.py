"""Pictures of the table through the real bot: every game and variant's board carries a
PNG of the table that decodes, has the canvas's width and changes when the game does;
the server chooses pictures and text, pictures only or text only; a player chooses for
their own view; `/match status` shows the picture too."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

import bot.pictures
from bot.pictures import BOARD_FILE, HAND_FILE
from bot.pictures.canvas import RED, WIDTH, WIDTHS, band_height
from bot.render import ending_of, renderer_for
from bot.service.timing import HOUR
from rules.registry import GAMES
from tests.bot.test_moderation import admin
from tests.bot.world import World

VARIANTS = [(g.id, v.id, v.min_players) for g in GAMES.values() for v in g.variants.values()]


async def board_png(world: World) -> bytes:
    """The board message's picture: attached as board.png and shown as its image."""
    board = await world.board()
    (embed,) = board.embeds
    assert embed.image.url is not None and embed.image.url.endswith(BOARD_FILE)
    (attached,) = board.attachments
    assert attached.filename == BOARD_FILE
    return await attached.read()


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.width in (WIDTH, *WIDTHS)
    return image


async def take_a_turn_step(world: World, step: int = 0) -> None:
    """Whoever decides takes an offered choice (through /play), a different one each
    step."""
    (player, *_) = await world.to_act()
    offered = await player.autocomplete(world.channel, "play", "action", "")
    chosen = offered[step % len(offered)]["value"]
    result = await player.slash(world.channel, "play", action=chosen)
    assert result.response is not None and result.response.content.startswith("✅"), chosen


@pytest.mark.parametrize(("game", "variant", "players"), VARIANTS)
async def test_every_board_carries_a_picture_of_the_table(
    world: World, game: str, variant: str, players: int
) -> None:
    seated = [world.alice, world.bob, world.carol, world.dave, world.eve, world.frank][:players]
    await world.start(game, variant, seated, seed=3)
    first = await board_png(world)
    decoded(first)
    before = (await world.match()).version
    for step in range(5):
        if (await world.match()).status != "active" or not await world.to_act():
            break
        await take_a_turn_step(world, step)
    if (await world.match()).version > before:
        assert await board_png(world) != first, "the picture did not follow the game"


def labels(message: discord.Message) -> list[str | None]:
    """The labels of a message's buttons."""
    return [c.label for row in message.components for c in getattr(row, "children", [])]


async def test_a_server_chooses_text_only_or_pictures_only(world: World) -> None:
    """The default board is the picture under a summary, the whole text board a tap
    away; text only puts the whole text board in the message (with the legend, no
    picture); pictures only keeps the picture and who decides."""
    mona = admin(world)
    await world.start("command-of-nature", "2p", [world.alice, world.bob])
    board = await world.board()
    glance = board.embeds[0]
    assert glance.image.url and not glance.fields
    summary = (glance.description or "").splitlines()
    assert summary[0].startswith("▶️ ")  # who decides, then every side's Sage
    assert summary[1] == "**Set-up** · alice: no Sage yet · bob: no Sage yet"
    assert labels(board) == ["My hand", "Full board"]
    renderer = renderer_for("command-of-nature")
    assert renderer.legend not in (glance.footer.text or "")
    full = await world.full_board(world.eve)
    assert any("gold" in f.name for f in full.fields) and not full.image.url
    assert renderer.legend in (full.footer.text or "")

    await mona.slash(world.channel, "settings pictures", mode="text")
    await take_a_turn_step(world)
    board = await world.board()
    assert not board.attachments and not board.embeds[0].image.url
    assert any(f.name.startswith("▶️") or "gold" in f.name for f in board.embeds[0].fields)
    assert renderer.legend in (board.embeds[0].footer.text or "")
    assert labels(board) == ["My hand"]

    await mona.slash(world.channel, "settings pictures", mode="pictures")
    await take_a_turn_step(world)
    board = await world.board()
    decoded(await board_png(world))
    assert not board.embeds[0].fields
    assert len((board.embeds[0].description or "").splitlines()) == 1  # who decides
    assert labels(board) == ["My hand", "Full board"]


async def test_a_player_chooses_for_their_own_view(world: World) -> None:
    await world.start("command-of-nature", "2p", [world.alice, world.bob], seed=3)
    for _ in range(4):  # the Sages and the formations
        await take_a_turn_step(world)
    (player,) = await world.to_act()
    shown = (await player.slash(world.channel, "hand")).response
    assert shown is not None and shown.embeds[0].image.url.endswith(HAND_FILE)
    assert any(f.name.startswith("Your hand") for f in shown.embeds[0].fields)

    said = await player.slash(world.channel, "profile pictures", mode="text")
    assert said.response is not None
    assert said.response.content.startswith("🖼️ Your private views: **text only** — your view as")
    plain = (await player.slash(world.channel, "hand")).response
    assert plain is not None and not plain.embeds[0].image.url and not plain.attachments

    await player.slash(world.channel, "profile pictures", mode="pictures")
    only = (await player.slash(world.channel, "hand")).response
    assert only is not None and only.embeds[0].image.url.endswith(HAND_FILE)
    assert not any(f.name.startswith("Your hand") for f in only.embeds[0].fields)
    other = (await world.bob.slash(world.channel, "hand")).response if player != world.bob else None
    if other is not None:  # one player's choice is theirs alone
        assert any(f.name.startswith("Your hand") for f in other.embeds[0].fields)


async def test_match_status_shows_the_picture(world: World) -> None:
    await world.start("mystic-vale", "2p", [world.alice, world.bob])
    status = await world.carol.slash(world.channel, "match status")
    shown = status.response
    assert shown is not None and shown.ephemeral
    assert shown.embeds[0].image.url.endswith(BOARD_FILE)
    assert isinstance(shown.embeds[0], discord.Embed)


ODD_NAME = "Zo\u2029e\x85\x1c\x1d\x1e\r\nX"  # breaks and separators the layout engine refused


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_name_with_line_breaks_and_separators_is_drawn_and_the_match_goes_on(
    world: World, game: str
) -> None:
    odd = world.guild.add_member(world.env.create_user(ODD_NAME))
    await world.start(game, "2p", [world.alice, odd], seed=3)
    decoded(await board_png(world))
    players = {world.alice.id: world.alice, odd.id: odd}
    for step in range(3):
        await world.bot.publisher.idle()
        assert await world.bot.store.outbox.pending_lanes() == []  # every notice went out
        told = "\n".join(world.public_lines())
        table = await world.bot.matches.table((await world.match()).id)
        player = players[table.user_of(table.to_act[0]).user_id]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[step % len(offered)]["value"])
        await world.bot.publisher.idle()
        decoded(await board_png(world))
        assert "\n".join(world.public_lines()) != told  # the move was told


async def test_a_picture_that_cannot_be_drawn_leaves_the_board_in_text(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("raqm_layout() failed.")

    monkeypatch.setattr(bot.pictures, "board", broken)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    await world.bot.publisher.idle()
    board = await world.board()
    assert not board.attachments and not board.embeds[0].image.url
    assert board.embeds[0].fields  # the table as text
    assert any(line.startswith("➡️") or "<@" in line for line in world.public_lines())
    assert "a picture could not be drawn [ref " in caplog.text
    caplog.clear()  # logged on purpose


async def test_a_stopped_match_is_redrawn_with_nobody_to_act(world: World) -> None:
    """/mod abort: the text says the match was stopped, and so does the picture (a band
    across its top; nobody is marked to act), not the decision it was waiting for."""
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    before = decoded(await board_png(world))
    mona = admin(world)
    await mona.slash(world.channel, "mod abort")
    await world.bot.publisher.idle()
    board = await world.board()
    assert board.embeds[0].description.startswith("🛑 **Stopped by a moderator**")
    after = decoded(await board_png(world))
    table = await world.bot.matches.table((await world.match()).id)
    assert table.stopped is not None and after.width == before.width
    assert after.convert("RGB").getpixel((2, 2)) == RED  # the band
    ending = ending_of(table)
    drawn = await world.bot.pictures.board(table.game.id, table.view or {}, (), ending)
    assert drawn is not None and drawn.box("label", "ending").text == (table.stopped,)
    assert drawn.box("label", "ending").h == band_height(drawn.width, table.stopped)
    assert drawn.height == after.height
    assert not drawn.boxes("mark", "decides")  # nobody is to act
    assert drawn.box("label", "prompt").text == (table.stopped,)  # not whose turn it was


async def test_an_abandoned_match_is_redrawn_saying_so(world: World) -> None:
    """A match abandoned at its deadline (the `abandon` timeout policy): the picture's
    band says so, and nobody is marked to act."""
    opened = await world.alice.slash(
        world.channel,
        "match new",
        game="tooth-and-nail",
        variant="2p",
        seed=3,
        clock="1h",
        timeout="abandon",
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    for _ in range(10):
        if (await world.match()).status != "active":
            break
        await world.env.advance_time(HOUR)
    assert (await world.match()).status == "abandoned"
    await world.bot.publisher.idle()
    after = decoded(await board_png(world))
    assert after.convert("RGB").getpixel((2, 2)) == RED  # the band
    table = await world.bot.matches.table((await world.match()).id)
    assert table.stopped == "This match was abandoned (a player ran out of time): nobody won."
    drawn = await world.bot.pictures.board(table.game.id, table.view or {}, (), ending_of(table))
    assert drawn is not None and drawn.box("label", "ending").text == (table.stopped,)
    assert drawn.box("label", "ending").h == band_height(drawn.width, table.stopped)
    assert after.height == drawn.height
    assert not drawn.boxes("mark", "decides")


async def test_a_conceded_match_is_redrawn_with_its_result(world: World) -> None:
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    before = await board_png(world)
    await world.concede(world.alice)
    await world.bot.publisher.idle()
    assert (await world.match()).status == "finished"
    assert await board_png(world) != before


async def test_profile_show_includes_the_pictures_choice(world: World) -> None:
    await world.alice.slash(world.channel, "profile pictures", mode="text")
    shown = (await world.alice.slash(world.channel, "profile show")).response
    assert shown is not None and shown.ephemeral
    assert "🖼️ **Your private views**: text only" in shown.content
