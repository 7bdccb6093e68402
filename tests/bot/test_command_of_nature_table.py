"""What Command of Nature's players see through the real bot, checked against the game's
state: the posted board (every Elemental with its space, STR, HP left and tokens; each
Sage's health; gold and AP; both markets with costs) and /hand (the question put to the
decider, the hand with each card's text, the menu's choices with what they do), in a
response window too."""

from __future__ import annotations

from typing import Any

import discord

from rules.command_of_nature import GAME as CON
from rules.command_of_nature.setup import card_of, pack_of, warriors_of
from rules.command_of_nature.state import State
from rules.command_of_nature.table import place
from tests.bot.test_command_of_nature import act, opening_seed, set_up_both
from tests.bot.world import World


def board_text(embed: discord.Embed) -> str:
    """Everything an embed shows, as one text."""
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join([*parts, embed.footer.text or ""])


def select_options(message: Any) -> list[dict[str, Any]]:
    """The options of a private view's action menu, as raw payloads."""
    for row in message.components:
        for child in row["components"]:
            if child.get("type") == 3:
                return list(child["options"])
    return []


async def state_of(world: World) -> State:
    state = await world.bot.matches.replay(world.match_id or 0)
    assert isinstance(state, State)
    return state


def check_board(text: str, state: State) -> None:
    """The board names every Elemental with its space and numbers, each Sage's health,
    each side's gold and AP, and the markets with their costs."""
    for team, side in enumerate(state.sides):
        for pos in side.formation.occupied():
            standing = side.formation.at(pos)
            assert standing is not None
            card = card_of(state, standing.card)
            left = card.hp - standing.damage  # type: ignore[union-attr]
            shown = f"`{place(state, team, pos)}` "
            shown += f"{'👑' if card.kind == 'sage' else ''}{card.shown_name} "  # type: ignore[union-attr]
            shown += f"⚔{card.strength} ♥{left}/{card.hp}"  # type: ignore[union-attr]
            assert shown in text, shown
        assert f"{side.gold} gold · {side.ap} AP" in text
    for player in state.players:
        assert player.name in text
    for market in (state.elementals, state.commands):
        for card in market.row:
            definition = card_of(state, card)
            assert f"{definition.shown_name} ({definition.cost} gold)" in text


async def test_the_posted_board_and_hand_show_the_game_as_it_stands(world: World) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    state = await state_of(world)
    if state.phase == "daybreak":
        await act(world, world.alice, "phase|actions")
        state = await state_of(world)
    board = await world.full_board(world.eve)
    text = board_text(board)
    check_board(text, state)
    assert "⚔ STR" in (board.footer.text or "")  # the game's own renderer drew it
    assert board.description and "alice's turn — Phase II (actions), 4 AP left" in (
        board.description
    )
    hand = await world.alice.slash(world.channel, "hand")
    private = hand.response
    assert private is not None and private.ephemeral
    embed = private.embeds[0]
    assert (embed.description or "").startswith("**Your turn — Phase II (actions), 4 AP left")
    shown = board_text(embed)
    for card in state.players[0].hand:
        definition = card_of(state, card)
        assert definition.shown_name in shown
    assert "Your faction actions" in shown
    options = select_options(private)
    labels = [o["label"] for o in options]
    assert len(set(labels)) == len(labels)
    assert all(o.get("description") for o in options), "every choice says what it does"


async def test_a_response_window_shows_the_defender_the_incoming_attack(world: World) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    state = await state_of(world)
    if state.phase == "daybreak":
        await act(world, world.alice, "phase|actions")
        state = await state_of(world)
    attack = next(a for a in CON.legal_actions(state, 0) if a.kind == "attack")
    await act(world, world.alice, attack.key)
    state = await state_of(world)
    asked = CON.question(state, 1)
    assert asked is not None and "— respond?" in asked
    ping = next(m for m in reversed(world.channel.history(viewer=world.eve)) if m.content)
    assert f"<@{world.bob.id}>, {asked}" in ping.content
    assert "Respond" in [c.label for row in ping.components for c in row.children]
    board = board_text(await world.full_board(world.eve))
    assert "Attack under way" in board and CON.view(state, None)["attack"] in board
    hand = await world.bob.slash(world.channel, "hand")
    assert hand.response is not None
    embed = hand.response.embeds[0]
    assert (embed.description or "").startswith(f"**{asked[:1].upper()}{asked[1:]}")
    labels = [o["label"] for o in select_options(hand.response)]
    assert "Let the attack through" in labels


async def test_a_team_board_shows_both_halves_and_the_team_hands(world: World) -> None:
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start(CON.id, "4p", players, seed=3)
    for _ in range(40):
        state = await state_of(world)
        if state.phase not in ("sage_choice", "formation"):
            break
        (player,) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await act(world, player, offered[0]["value"])
    state = await state_of(world)
    text = board_text(await world.full_board(world.eve))
    check_board(text, state)
    for side in state.sides:
        first, second = (state.players[s].name for s in side.seats)
        assert f"Left half {first}'s, right half {second}'s." in text
    decider = world.by_id(
        (await world.bot.matches.table(world.match_id or 0))
        .user_of(sorted(CON.to_act(state))[0])
        .user_id
    )
    hand = await decider.slash(world.channel, "hand")
    assert hand.response is not None
    shown = board_text(hand.response.embeds[0])
    assert "Your hand" in shown and "'s hand" in shown  # a team sees both its hands


async def test_the_set_up_shows_what_each_choice_is_and_no_sage_in_danger(world: World) -> None:
    """During the set-up a newcomer reads what sets each Sage apart (its faction actions),
    the Warriors of their Sage pack with their numbers, and a Sage not yet in play shows
    its health, not "♥0" with a warning."""
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    (chooser,) = await world.to_act()
    hand = await chooser.slash(world.channel, "hand")
    assert hand.response is not None
    shown = board_text(hand.response.embeds[0])
    assert "To choose from" in shown
    for sage in ("Cedar", "Gravel", "Porella", "Torrent"):
        assert f"**{sage}**" in shown and f"{sage}, level 4 (1 AP):" in shown
    descriptions = [o["description"] for o in select_options(hand.response)]
    assert len(set(descriptions)) == len(descriptions) == 4, descriptions
    await act(world, chooser, select_options(hand.response)[0]["value"])

    (chooser,) = await world.to_act()
    board = board_text(await world.full_board(world.eve))
    assert "♥0/" not in board and "(not set up yet)" in board
    offered = await chooser.autocomplete(world.channel, "play", "action", "")
    await act(world, chooser, offered[0]["value"])  # the second Sage
    (chooser,) = await world.to_act()
    hand = await chooser.slash(world.channel, "hand")
    assert hand.response is not None
    state = await state_of(world)
    seat = next(p.seat for p in state.players if p.name == chooser.name)
    warriors = [pack_of(state).card(w) for w in warriors_of(state, seat)]
    shown = board_text(hand.response.embeds[0])
    for warrior in warriors:
        assert f"**{warrior.shown_name}**" in shown
    options = select_options(hand.response)
    assert len({o["description"] for o in options}) == 3  # each names the Warrior left out
    assert all("⚔" in o["label"] and "♥" in o["label"] for o in options)


async def test_your_own_formation_is_in_your_hand_view(world: World) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    hand = await world.alice.slash(world.channel, "hand")
    assert hand.response is not None
    fields = {f.name: f.value or "" for f in hand.response.embeds[0].fields}
    state = await state_of(world)
    formation = fields["Your formation"]
    for pos in state.sides[state.players[0].team].formation.occupied():
        standing = state.sides[state.players[0].team].formation.at(pos)
        assert standing is not None
        assert f"`{place(state, state.players[0].team, pos)}` " in formation
    assert "level 1 (first faction action at 4)" in fields["You"]
