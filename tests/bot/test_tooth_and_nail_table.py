"""What Tooth & Nail players see through the real bot: the posted board and the `/hand`
reply, checked against the game's own state at every step of a 2 player and a 4 player
match played through `/play` (with a fixed seed and a fixed preference of moves).

The board must show every Troop on the table with its Troop Type and Strength (drained
ones marked), every deck's count, whose turn it is and who decides; the decider's
`/hand` must state what the game asks of them, list their hand with each card's text,
and offer every legal action with its label and what it costs and leads to.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import discord
import simcord

from bot.render.generic import clip
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.rules import card_def
from rules.tooth_and_nail.text import troop_text
from tests.bot.world import World, answered

# Moves the players prefer (regular expressions over action keys, the first that fits any
# legal action wins): build both zones, attack, answer every question.
PREFER = (
    r"faction\|.*",
    r"command_card\|.*",
    r"recharge\|draw",
    r"keep\|yes",
    r"attack\|[^|]*\|none",
    r"play\|.*\|war",
    r"play\|.*\|command",
    r"formation\|.*",
    r"ability\|.*",
    r"end",
)
MAX_MOVES = 400
CHECK_EVERY = 2  # moves between two looks at the board and the decider's /hand


async def state_of(world: World) -> State:
    """The game's state as the bot saved it."""
    match = await world.match()
    assert match.snapshot is not None
    return State.model_validate_json(match.snapshot)


def choose(state: State, seat: int, move: int) -> str:
    """The key of the move the preferences take (rotating among those that fit)."""
    legal = [a.key for a in GAME.legal_actions(state, seat)]
    for pattern in PREFER:
        fits = [k for k in legal if re.fullmatch(pattern, k)]
        if fits:
            return fits[move % len(fits)]
    return legal[0]


def shown_troop(state: State, card: int, drained: bool = False) -> str:
    """A Troop as every screen names it: "Cinder Cub ✦ (Arcane 1)", drained marked 💤."""
    d = card_def(state, card)
    text = f"{d.shown_name} ({d.type} {d.strength})"
    return f"💤 {text}" if drained else text


def player_field(embed: discord.Embed, name: str) -> discord.embeds._EmbedFieldProxy:
    """The board field of one player (its name starts with theirs, after the ▶️ mark)."""
    fields = [f for f in embed.fields if (f.name or "").removeprefix("▶️ ").startswith(name)]
    assert len(fields) == 1, [f.name for f in embed.fields]
    return fields[0]


def select_options(message: Any) -> list[dict[str, Any]]:
    """The options of a private view's action menu: label, value and description."""
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict) and child.get("type") == 3:
                return list(child["options"])
            if isinstance(child, discord.SelectMenu):
                return [
                    {"label": o.label, "value": o.value, "description": o.description}
                    for o in child.options
                ]
    return []


def check_board(embed: discord.Embed, state: State) -> None:
    """The posted board against the state: prompt, decks, players, Troops, AP, hands."""
    public = GAME.view(state, None)
    assert embed.description == f"▶️ {public['prompt']}"
    if state.phase == "faction_choice":
        still = next(f for f in embed.fields if (f.name or "").startswith("Factions still"))
        for faction in public["available_factions"]:
            assert f"**{faction['name']}** — {faction['identity']}" in (still.value or "")
        for team in state.teams:
            names = " & ".join(state.players[s].name for s in team.seats)
            if len(team.seats) > 1:  # a team drafts as one
                field = next(f for f in embed.fields if names in (f.name or ""))
                deciding = set(team.seats) <= GAME.to_act(state)
                assert (field.name or "").startswith("▶️ ") == deciding, field.name
                continue
            field = player_field(embed, names)
            assert (field.name or "").startswith("▶️ ") == (team.seats[0] in GAME.to_act(state))
        return
    decks = next(f for f in embed.fields if (f.name or "").startswith("Decks left"))
    assert public["goal"] in (decks.name or "")
    for team in state.teams:
        count = len(team.deck)
        names = [state.players[s].name for s in team.seats]
        expected = f"**{count}**" + (" ⚠️" if count <= 5 else "")
        if len(names) > 1:
            assert f"Team {team.team + 1} ({' & '.join(names)}) {expected}" in (decks.value or "")
            team_field = next(
                f for f in embed.fields if f.name == f"Team {team.team + 1} — {' & '.join(names)}"
            )
            for faction in GAME.view(state, None)["teams"][team.team]["factions"]:
                assert faction in (team_field.value or "")
        else:
            assert f"{names[0]} {expected}" in (decks.value or "")
    waiting = GAME.to_act(state)
    for player in state.players:
        field = player_field(embed, player.name)
        title, value = field.name or "", field.value or ""
        assert title.startswith("▶️ ") == (player.seat in waiting), title
        if player.seat == state.alpha:
            assert "Alpha player: it's their turn" in title
            assert f"AP **{player.ap}** left" in value
        assert f"Hand **{len(player.hand)}** cards" in value
        for zone_name, zone in (
            ("Command Zone", player.command_zone),
            ("War Zone", player.war_zone),
        ):
            limit = state.limits["command" if zone_name == "Command Zone" else "war"]
            assert f"**{zone_name}** {len(zone)}/{limit}" in value
            for troop in zone:
                assert shown_troop(state, troop.card, troop.drained) in value, (troop, value)


def check_hand(private: Any, state: State, seat: int) -> None:
    """A decider's /hand against the state: the question, the hand with its card text,
    the menu with every legal action's label and explanation."""
    embed = private.embeds[0]
    question = GAME.question(state, seat)
    assert question is not None
    assert embed.description == f"**{question[:1].upper()}{question[1:]}**"
    hand_text = "\n".join(
        f.value or "" for f in embed.fields if (f.name or "").startswith("Your hand")
    )
    count = len(state.players[seat].hand)
    if state.phase == "faction_choice":
        offered = "\n".join(
            f.value or "" for f in embed.fields if (f.name or "").startswith("Factions to choose")
        )
        for faction in GAME.view(state, seat)["available_factions"]:
            assert f"**{faction['name']}** — {faction['identity']}" in offered
            assert faction["formation_brief"] in offered and faction["ability_brief"] in offered
    if state.phase in ("faction_choice", "command_choice"):
        assert count == 0 and not any("Your hand" in (f.name or "") for f in embed.fields)
    else:
        assert any((f.name or "").startswith(f"Your hand ({count})") for f in embed.fields)
    for troop_id, copies in Counter(state.cards[c] for c in state.players[seat].hand).items():
        card = next(c for c in state.players[seat].hand if state.cards[c] == troop_id)
        d = card_def(state, card)
        times = f" ×{copies}" if copies > 1 else ""
        assert f"**{d.shown_name}** ({d.type} {d.strength}){times}" in hand_text, hand_text
        assert troop_text(d) in hand_text
    options = select_options(private)
    legal = GAME.legal_actions(state, seat)
    assert [o["value"] for o in options] == [a.key for a in legal[:25]]
    for option, action in zip(options, legal, strict=False):
        assert option["label"] == clip(GAME.describe(action, state), 100)
        assert option["description"] == GAME.explain(action, state, seat)


async def play_and_look(world: World, moves: int) -> State:
    """Play up to `moves` moves by `/play`, each by the player the game waits for; every
    few moves, check the posted board and that player's /hand against the state."""
    for move in range(moves):
        if (await world.match()).status != "active":
            break
        state = await state_of(world)
        player = (await world.to_act())[0]
        seat = next(
            s.seat
            for s in (await world.bot.matches.table(world.match_id or 0)).seats
            if s.user_id == player.id
        )
        if move % CHECK_EVERY == 0:
            check_board((await world.full_board(world.eve)), state)
            private = (await player.slash(world.channel, "hand")).response
            assert private is not None and private.ephemeral
            check_hand(private, state, seat)
        if move % 50 == 49:
            await world.env.advance_time(16 * 60)  # let the ephemeral views' timers lapse
        result = await player.slash(world.channel, "play", action=choose(state, seat, move))
        assert result.response is not None and result.response.content.startswith("✅ ")
    return await state_of(world)


async def test_a_two_player_match_shows_the_table_and_the_hand_as_the_game_has_them(
    simcord_env: simcord.Env,
) -> None:
    world = World.build(simcord_env)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    state = await play_and_look(world, MAX_MOVES)
    assert GAME.outcome(state) is not None, "the match should end within the moves played"
    final = await world.full_board(world.eve)
    assert final.description == f"🏆 {GAME.outcome(state).text}"
    assert await world.bot.matches.verify((await world.match()).id)


async def test_a_four_player_match_groups_each_team_with_its_shared_deck(
    simcord_env: simcord.Env,
) -> None:
    world = World.build(simcord_env)
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start("tooth-and-nail", "4p", players, seed=5)
    board = await world.full_board(world.eve)
    # The draft: no decks yet, both teams named with their players.
    teams = [f.name for f in board.fields if "Team " in (f.name or "")]
    assert teams == ["Team 1 — alice & carol", "▶️ Team 2 — bob & dave — to choose a Faction now"]
    assert (
        board.description
        == "▶️ Waiting for bob or dave to choose a Faction for their team (draft pick 1 of 6)"
    )
    state = await play_and_look(world, 90)
    assert state.phase in ("recharge", "action", "over")
    board = await world.full_board(world.eve)
    names = [f.name or "" for f in board.fields]
    team_one = names.index("Team 1 — alice & carol")
    assert [n.removeprefix("▶️ ").split(" —")[0] for n in names[team_one + 1 : team_one + 3]] == [
        "alice (Team 1)",
        "carol (Team 1)",
    ]
    assert await world.bot.matches.verify((await world.match()).id)


async def test_typing_a_move_the_rules_refuse_gets_the_reason_naming_the_card(
    simcord_env: simcord.Env,
) -> None:
    world = World.build(simcord_env)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    # Play until the Alpha player has a drained Troop in their War Zone and still acts.
    for move in range(MAX_MOVES):
        state = await state_of(world)
        alpha = state.alpha
        if (
            alpha is not None
            and GAME.to_act(state) == {alpha}
            and not state.frames
            and any(t.drained for t in state.players[alpha].war_zone)
        ):
            break
        player = (await world.to_act())[0]
        seat = next(iter(GAME.to_act(state)))
        await player.slash(world.channel, "play", action=choose(state, seat, move))
    else:
        raise AssertionError("no drained attacker came up")
    drained = next(t for t in state.players[alpha].war_zone if t.drained)
    name = card_def(state, drained.card).name
    player = world.by_id(
        (await world.bot.matches.table(world.match_id or 0)).user_of(alpha).user_id
    )
    result = await player.slash(world.channel, "play", action=f"Attack with {name}")
    messages = answered(result)
    text = messages[-1].content if messages[-1] is not None else ""
    if any(
        not t.drained and state.cards[t.card] == state.cards[drained.card]
        for t in state.players[alpha].war_zone
    ):
        assert text.startswith("✅ ")  # a non-drained copy attacks instead
    else:
        assert f"{name} is drained" in text, text


async def test_typing_an_attack_with_a_troop_still_in_the_hand_gets_the_rule(
    simcord_env: simcord.Env,
) -> None:
    """Only Troops in the War Zone attack: naming one still in the hand is refused with
    that rule, not with "isn't one of your actions"."""
    world = World.build(simcord_env)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    for move in range(20):
        state = await state_of(world)
        alpha = state.alpha
        if alpha is not None and GAME.to_act(state) == {alpha} and not state.frames:
            break
        player = (await world.to_act())[0]
        await player.slash(
            world.channel, "play", action=choose(state, next(iter(GAME.to_act(state))), move)
        )
    else:
        raise AssertionError("no Action Step came up")
    war = {state.cards[t.card] for t in state.players[alpha].war_zone}
    card = next(c for c in state.players[alpha].hand if state.cards[c] not in war)
    troop = card_def(state, card)
    player = world.by_id(
        (await world.bot.matches.table(world.match_id or 0)).user_of(alpha).user_id
    )
    result = await player.slash(world.channel, "play", action=f"attack with {troop.name}")
    messages = answered(result)
    text = messages[-1].content if messages[-1] is not None else ""
    assert text == (
        f"“Attack with {troop.name} ({troop.type} {troop.strength})” isn't possible now: "
        f"{troop.name} is not in your War Zone (it is in your hand): only War Zone Troops attack."
    )
