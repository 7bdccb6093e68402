"""Hints for learners, through the real bot: `/hint` and the panel's 💡 Hint button in a
game against the AI, answered privately with the move the strong AI would make from the
asker's own seat; refused in a rated match until a moderator marks it as practice
(`/mod practice`, shown on the board); a practice match is never rated; the match log
says who was given a hint, not what; and a hint never depends on, or names, a card the
asker can't see."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

from ai import Budget
from bot.service.hints import RATED, Hint, hint_for, hint_text
from bot.service.tables import AI_NAME
from rules.registry import GAMES
from rules.tooth_and_nail.rules import card_name
from tests.ai.test_honest import positions, scramble
from tests.bot.test_history import pages_text
from tests.bot.test_moderation import admin
from tests.bot.world import World, answered

QUICK = Budget(playouts=30, worlds=3, per_choice=5)  # no time limit: a hint repeats


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World.build(simcord_env)


def reply_of(result: simcord.InteractionResult) -> str:
    """The text of the private answer an interaction gave."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected a private answer"
    return messages[-1].content or ""


def button_labels(message: Any) -> list[str]:
    return [
        c["label"] for row in message.components for c in row["components"] if c.get("type") == 2
    ]


async def against_the_ai(world: World) -> None:
    """alice plays Tooth & Nail against the strong AI, started, her decision first."""
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=3, ai="strong"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.click(opened.response, label="Start")
    for _ in range(30):  # past the draft, into a turn where the AI weighs its choices
        await world.bot.players.settled()
        table = await world.bot.matches.table(world.match_id)
        if (table.view or {}).get("turn", 0) >= 1 and world.alice in await world.to_act():
            return
        choices = await world.bot.matches.choices(world.channel.id, world.alice.id)
        await world.alice.slash(world.channel, "play", action=choices[0].key)
    raise AssertionError("alice never came to play a turn")


async def my_labels(world: World, player: Any) -> list[str]:
    """The labels of the player's own legal actions, as `/play` offers them."""
    offered = await player.autocomplete(world.channel, "play", "action", "")
    labels = [c.label for c in await world.bot.matches.choices(world.channel.id, player.id)]
    assert len(offered) == min(len(labels), 25)
    return labels


def named_moves(text: str) -> list[str]:
    """The moves a hint names (in bold)."""
    return text.split("**")[1::2]


@pytest.mark.engines
async def test_a_hint_against_the_ai_by_command_and_by_the_panels_button(world: World) -> None:
    await against_the_ai(world)
    labels = await my_labels(world, world.alice)

    asked = await world.alice.slash(world.channel, "hint")
    text = reply_of(asked)
    assert text.startswith(f"💡 {AI_NAME} would play: **"), text
    assert "%" in text  # the chances its search gave the move
    assert all(move in labels for move in named_moves(text))  # her own choices, as she reads them

    panel = (await world.alice.slash(world.channel, "hand")).response
    assert panel is not None and panel.ephemeral
    assert "Hint" in button_labels(panel)
    clicked = await world.alice.click(panel, label="Hint")
    again = reply_of(clicked)
    assert again == text  # the same position, the same hint (kept, not searched again)

    entries = await world.bot.store.log.entries(world.match_id or 0)
    assert [(e.user_id, e.text) for e in entries if e.kind == "hint"] == [
        (world.alice.id, "alice was given a hint."),
    ] * 2
    shown = (await world.eve.slash(world.channel, "match log")).response
    assert shown is not None
    log = pages_text(shown)
    assert "alice was given a hint." in log
    assert named_moves(text)[0] not in log  # who was given one, never what


@pytest.mark.engines
async def test_no_hint_in_a_rated_match_until_a_moderator_marks_it_practice(world: World) -> None:
    mona = admin(world)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob])
    (decider,) = await world.to_act()
    other = world.bob if decider is world.alice else world.alice

    refused = reply_of(await decider.slash(world.channel, "hint"))
    assert refused == RATED.format(ai=AI_NAME)
    assert "`/mod practice`" in refused and "ai:strong" in refused
    panel = (await decider.slash(world.channel, "hand")).response
    assert panel is not None and "Hint" not in button_labels(panel)
    assert not [e for e in await world.bot.store.log.entries(world.match_id or 0)]

    marked = await mona.slash(world.channel, "mod practice")
    assert "practice" in reply_of(marked)
    await world.bot.publisher.idle()
    board = await world.board()
    assert "🎓 Practice match: not rated" in (board.embeds[0].footer.text or "")
    assert any("marked this match as practice" in line for line in world.public_lines())

    hint = reply_of(await decider.slash(world.channel, "hint"))
    assert hint.startswith("💡 "), hint
    panel = (await decider.slash(world.channel, "hand")).response
    assert panel is not None and "Hint" in button_labels(panel)
    # Not their decision: a sentence, and nothing logged for them.
    waiting = reply_of(await other.slash(world.channel, "hint"))
    assert waiting == (
        f"A hint is for your own decision, and this one isn't yours: waiting for {decider.name}."
    )
    entries = await world.bot.store.log.entries(world.match_id or 0)
    assert [e.text for e in entries if e.kind == "hint"] == [f"{decider.name} was given a hint."]

    # Taken off again: hints are refused again.
    await mona.slash(world.channel, "mod practice", on=False)
    await world.bot.publisher.idle()
    assert world.public_lines()[-1] == (
        f"🛡️ {mona.mention} took the practice mark off this match. "
        "It will be rated, and hints are off."
    )
    assert reply_of(await decider.slash(world.channel, "hint")) == RATED.format(ai=AI_NAME)


@pytest.mark.engines
async def test_a_practice_match_is_never_rated(world: World) -> None:
    mona = admin(world)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob])
    await mona.slash(world.channel, "mod practice")
    await world.concede(world.bob)  # a concession is rated by default
    assert (await world.match()).status == "finished"
    shown = (await world.eve.slash(world.channel, "leaderboard", game="tooth-and-nail")).response
    assert shown is not None
    assert shown.embeds[0].description == "No rated match of this game this season yet."


async def test_a_hint_never_names_a_card_hidden_from_the_asker(world: World) -> None:
    await against_the_ai(world)
    hidden = 0
    for _ in range(6):  # a few of alice's decisions
        if (await world.match()).status != "active":
            break
        state = await world.state()
        theirs = {card_name(state, c) for c in state.players[1].hand}
        mine = {card_name(state, c) for c in state.players[0].hand}
        labels = await my_labels(world, world.alice)
        text = reply_of(await world.alice.slash(world.channel, "hint"))
        assert all(move in labels for move in named_moves(text))
        assert not [name for name in theirs - mine if name in text], text
        hidden += len(theirs - mine)
        await world.alice.slash(
            world.channel,
            "play",
            action=(await world.bot.matches.choices(world.channel.id, world.alice.id))[0].key,
        )
        await world.bot.players.settled()
    assert hidden  # the AI's hand held cards alice can't see


async def test_a_hint_in_a_solitaire_game(world: World) -> None:
    opened = await world.open(world.alice, "mystic-vale", "solo", seed=11)
    assert opened.response is not None
    await world.alice.click(opened.response, label="Start")
    text = reply_of(await world.alice.slash(world.channel, "hint"))
    assert text.startswith("💡 "), text
    labels = await my_labels(world, world.alice)
    assert all(move in labels for move in named_moves(text))


async def test_a_hint_in_a_solitaire_game_in_a_direct_message(world: World) -> None:
    ada = world.alice.user
    opened = await ada.slash("match new", game="mystic-vale", seed=5)  # solo by default
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(ada.dm_channel.id)).id
    await ada.click(opened.response, label="Start")
    text = reply_of(await ada.slash("hint"))
    assert text.startswith("💡 "), text
    panel = (await ada.slash("hand")).response
    assert panel is not None and "Hint" in button_labels(panel)
    assert reply_of(await ada.click(panel, label="Hint")).startswith("💡 ")


def test_a_hint_in_words() -> None:
    labels = {"a": "Attack with Thunderfoot", "b": "End your turn", "c": "Play a Troop"}
    assert hint_text(Hint("a", 0.62, "b", 0.55, legal=3, weighed=True), labels) == (
        f"💡 {AI_NAME} would play: **Attack with Thunderfoot** (you'd win about 62 % of the "
        "games it tried from there).\nNext best: **End your turn** (about 55 %)."
    )
    close = hint_text(Hint("a", 0.62, "b", 0.61, legal=3, weighed=True), labels)
    assert close.endswith("(about 61 %). The two are close.")
    assert hint_text(Hint("c", legal=3), labels) == (
        f"💡 {AI_NAME} would play: **Play a Troop** (its usual choice here: no need to weigh "
        "others)."
    )
    assert hint_text(Hint("b"), labels) == "💡 You have one move here: **End your turn**."


def test_a_hint_is_the_same_whatever_the_cards_the_asker_cannot_see() -> None:
    """Two states the asker can't tell apart give one hint: move, runner-up and chances."""
    game = GAMES["tooth-and-nail"]
    compared = 0
    for state in positions("tooth-and-nail", "2p", seed=1, every=9):
        for seat in sorted(game.to_act(state)):
            other = scramble(state, seat, random.Random(compared))
            hint = hint_for(game, state, seat, seed=5, budget=QUICK)
            assert hint_for(game, other, seat, seed=5, budget=QUICK) == hint
            compared += hint.chance is not None
        if compared >= 3:
            break
    assert compared >= 3
