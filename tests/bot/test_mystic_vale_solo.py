"""Mystic Vale's solitaire variant through the real bot: a whole game against a nemesis
in a channel and in a direct message with the bot, the board and `/hand` showing the
nemesis, the corruption track and its score, and the victory tracker on `/stats` and
`/leaderboard` afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from rules.mystic_vale import GAME as MV
from tests.bot.world import World

SOULBANE = "Soulbane ✦"
MAX_ACTIONS = 600


def fields(message: Any) -> dict[str, str]:
    return {f.name: f.value or "" for f in message.embeds[0].fields}


def choose(offered: list[dict[str, Any]]) -> str:
    """A quick table: stop at once, end the Harvest, else the first choice offered."""
    values = [str(c["value"]) for c in offered]
    for wanted in ("stop", "done"):
        if wanted in values:
            return wanted
    return values[0]


async def play_out(world: World, player: Any, *, channel: Any = None) -> int:
    """Play the match to its end with `/play`, in the channel (or, with `channel` None
    and a user as `player`, in the player's DM); returns the actions taken."""
    taken = 0
    while (await world.match()).status == "active":
        assert taken < MAX_ACTIONS, "the solitaire game does not end"
        if channel is None:
            offered = await player.autocomplete("play", "action", "")
            await player.slash("play", action=choose(offered))
        else:
            offered = await player.autocomplete(channel, "play", "action", "")
            await player.slash(channel, "play", action=choose(offered))
        taken += 1
    return taken


async def test_a_solitaire_game_in_a_channel_against_a_chosen_nemesis(world: World) -> None:
    opened = await world.alice.slash(
        world.channel, "match new", game="mystic-vale", variant="solo", seed=11
    )
    lobby = opened.response
    assert lobby is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    shown = fields(lobby)
    assert "Nemesis" in str(shown) and "Corruption track" in str(shown)
    await world.alice.slash(world.channel, "match option", name="nemesis", value="soulbane")
    await world.alice.slash(world.channel, "match option", name="leaders", value="off")
    await world.alice.click(lobby, label="Start")  # one player is enough
    assert (await world.match()).status == "active"

    full = await world.full_board(world.eve)
    on_board = {f.name or "": f.value or "" for f in full.fields}
    card = next(v for k, v in on_board.items() if k.startswith(f"😈 Nemesis: {SOULBANE}"))
    assert "Harvest (from ⌛3): discard 1 VP" in card and "⏳" in card
    track = next(v for k, v in on_board.items() if k.startswith("⌛ Corruption track (Easy side)"))
    assert "▶ **1: the right level-1 advancement**" in track and "Next" in track
    score = next(k for k in on_board if k.startswith("Nemesis score so far"))
    state = await world.state()
    # The field lists mark the nemesis' card where it lies (it covers the whole card).
    spot = MV.view(state, None)["nemesis"]["where"]
    listed = "\n".join(v for k, v in on_board.items() if "alice" in k)
    assert (f"😈 Nemesis: {SOULBANE}" in listed) == (spot in ("field", "on_deck")), listed
    assert score == f"Nemesis score so far: {MV.view(state, None)['nemesis']['score']}"

    hand = await world.alice.slash(world.channel, "hand")
    assert hand.response is not None and hand.response.ephemeral
    assert any(f.name.startswith(f"😈 Nemesis: {SOULBANE}") for f in hand.response.embeds[0].fields)

    taken = await play_out(world, world.alice, channel=world.channel)
    state = await world.state()
    assert state.phase == "over" and taken > 10
    end = world.public_lines()[-1]
    assert state.end_text in end
    won = state.winners == [0]

    stats = await world.alice.slash(world.channel, "stats")
    assert stats.response is not None
    tracker = fields(stats.response)
    (title,) = [k for k in tracker if k.startswith("Mystic Vale — solitaire")]
    assert title.endswith(f"{int(won)} beaten of 1 faced")
    assert f"**{SOULBANE}** (level 2 of 4): {int(won)} won · {int(not won)} lost" in tracker[title]

    board = await world.alice.slash(world.channel, "leaderboard", game="mystic-vale")
    assert board.response is not None
    hunters = fields(board.response)["Solitaire: the most opponents beaten, and the hardest"]
    assert f"**1.** alice — {int(won)} beaten" in hunters


@pytest.mark.engines
async def test_a_solitaire_game_in_a_direct_message_with_the_bot(world: World) -> None:
    ada = world.alice.user
    opened = await ada.slash("match new", game="mystic-vale", seed=5)  # solo by default
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    match = await world.bot.matches.open_match(ada.dm_channel.id)
    world.match_id = match.id
    assert match.guild_id is None and match.variant == "solo"
    await ada.click(lobby, label="Start")
    await world.bot.publisher.idle()
    state = await world.state()
    if state.phase == "leaders":  # leaders are on by default
        offered = await ada.autocomplete("play", "action", "")
        await ada.slash("play", action=offered[0]["value"])
    board = await world.board_in(ada.dm_channel)
    full = await ada.click(board, label="Full board")  # the whole text board, in the DM
    assert full.response is not None and full.response.ephemeral
    assert any(f.name.startswith("😈 Nemesis:") for f in full.response.embeds[0].fields)

    await play_out(world, ada)
    state = await world.state()
    assert state.phase == "over"
    # The last line the bot posted in the DM (the answers to /play, "✅ …", run beside).
    history = ada.dm_channel.history(viewer=world.alice)
    lines = [m.content for m in history if not m.content.startswith("✅")]
    assert state.end_text in lines[-1]

    stats = await world.alice.slash(world.channel, "stats")  # DM games count on /stats
    assert stats.response is not None
    assert any(k.startswith("Mystic Vale — solitaire") for k in fields(stats.response))


async def test_a_game_for_several_players_is_refused_in_a_direct_message(world: World) -> None:
    ada = world.alice.user
    refused = await ada.slash("match new", game="tooth-and-nail")
    assert refused.response is not None and refused.response.ephemeral
    assert "only a solitaire game can be played" in refused.response.content
    asked = await ada.slash("match new", game="mystic-vale", variant="2p")
    assert asked.response is not None
    assert "2 players needs other players" in asked.response.content
    assert await world.bot.store.matches.open_in(ada.dm_channel.id) is None


async def test_a_game_in_direct_messages_is_its_players_alone(world: World) -> None:
    """`/match log` and `/match export` name a match by its number: in a DM, another
    user's DM game is refused as if it did not exist, and its player still reads it."""
    ada, bea = world.alice.user, world.bob.user
    opened = await ada.slash("match new", game="mystic-vale", seed=5)
    assert opened.response is not None
    match = await world.bot.matches.open_match(ada.dm_channel.id)
    world.match_id = match.id
    await ada.click(opened.response, label="Start")
    asked = await ada.slash("match concede")
    assert asked.response is not None
    await ada.click(asked.response, label="Concede")
    assert (await world.match()).status == "finished"

    await bea.slash("match new", game="mystic-vale", seed=6)  # bea has a DM of her own
    for command in ("match log", "match export"):
        refused = await bea.slash(command, match=match.id)
        shown = refused.response
        assert shown is not None and shown.ephemeral and not shown.attachments, command
        assert f"You played no match #{match.id}" in shown.content, command
    log = await ada.slash("match log", match=match.id)
    assert log.response is not None and "Dealt in" in str(log.response.embeds[0].to_dict())
    export = await ada.slash("match export", match=match.id)
    assert export.response is not None and export.response.attachments


async def test_conceding_a_solitaire_game_is_said_to_hand_the_win_to_the_nemesis(
    world: World,
) -> None:
    """The confirmation says the nemesis wins, as the end line then does (it said
    "nobody wins", then "Blight Troll wins")."""
    opened = await world.open(world.alice, MV.id, "solo")
    assert opened.response is not None
    await world.alice.slash(world.channel, "match option", name="nemesis", value="blight-troll")
    await world.alice.click(opened.response, label="Start")
    asked = await world.alice.slash(world.channel, "match concede")
    assert asked.response is not None and asked.response.ephemeral
    assert "(**Blight Troll** wins)" in asked.response.content, asked.response.content
    assert "nobody" not in asked.response.content
    await world.alice.click(asked.response, label="Concede")
    assert "alice concedes: Blight Troll wins." in world.public_lines()[-1]


def test_the_field_list_marks_the_nemesis_card() -> None:
    """A solitaire board lists the player's field card by card: the card the nemesis
    covers reads as the nemesis, not as a blank card."""
    from bot.render import renderer_for
    from tests.rules.mv_helpers import ADA, arrange
    from tests.rules.test_mystic_vale_solo import solo

    state = solo("soulbane")
    assert state.nemesis is not None
    arrange(state, ADA, field=[state.nemesis.physical])
    fields = renderer_for("mystic-vale").board_fields(MV.view(state, None), (0,))
    listed = "\n".join(f.value for f in fields if "Ada" in f.name)
    assert f"😈 Nemesis: {SOULBANE}" in listed, listed
