"""Mystic Vale through the real bot: whole 2- and 4-player games played to the end, the
Planting decided with the Push and Stop buttons under the line that calls the player
(and by `/play` and the `/hand` menu), with at least one Spoil; the leaders option set
in the lobby and seen on the board and in the game; the posted board and `/hand`
checked against the game's state as play goes on (every field card's slots, the
on-deck card, the decay, tokens, the commons with costs, the vales, the Harvest pool);
the quick buttons refused to anyone but the decider, out of date once used, working
after a restart; and a large 4-player board within Discord's limits."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import discord
import pytest
import simcord

from bot.render import board_embed, private_embed
from bot.render.generic import clip
from bot.service.store import SeatRow
from bot.service.tables import Table
from bot.ui.table import STALE_BUTTONS, QuickButton
from rules.core import Action, SeatSpec, rng_for
from rules.mystic_vale import GAME as MV
from rules.mystic_vale import State
from rules.mystic_vale.cards import SLOTS
from rules.mystic_vale.harvest import price
from rules.mystic_vale.moves import card_label, name_of
from rules.mystic_vale.state import CURSED_LAND
from rules.mystic_vale.symbols import decay_count, field_total, pack_of
from rules.mystic_vale.text import card_text, cost_text
from rules.mystic_vale.turn import can_spoil
from tests.bot.test_render import table as sample_table
from tests.bot.world import World, custom_ids, menu_id, option_values, quick, turn_message

MAX_MOVES = 1500
CHECK_EVERY = 5  # moves between two looks at the board
HAND_EVERY = 10  # moves between two looks at the decider's /hand
EMBED_LIMIT = 6000
SPOIL_AT = 4


# ------------------------------------------------------------------ reading the state


async def state_of(world: World) -> State:
    state: State = await world.state()
    return state


def told(result: Any) -> list[str]:
    """What the one who interacted read privately: the answer, and any private follow-up
    (a click only acknowledged answers with the clicked message, which is public, and
    the table's own lines may be posted as its public follow-ups)."""
    said = [result.response] if result.response is not None and result.response.ephemeral else []
    return [m.content for m in [*said, *result.followups] if m.ephemeral]


def slot_shown(state: State, stack: list[Any]) -> str:
    """A slot as the board writes it: the top layer, and the eclipse it covers."""
    names = [
        ("Cursed Land" if layer == CURSED_LAND else "Fertile Soil")
        if isinstance(layer, str)
        else name_of(state, layer)
        for layer in stack
    ]
    if not names:
        return "–"
    covered = f" (covering {', '.join(names[:-1])})" if len(names) > 1 else ""
    return names[-1] + covered


def card_shown(state: State, card_id: int) -> str:
    """A player card as the board writes it after its number."""
    card = state.card(card_id)
    parts = []
    if card.leader is not None:
        player = state.players[card.owner]
        upgraded = card.upgraded or (player.leader == card.leader and player.leader_upgraded)
        name = pack_of(state).leader(card.leader).shown_name
        parts.append(f"👑 {name}" + (" (upgraded)" if upgraded else ""))
    if any(card.slots[s] for s in SLOTS):
        parts.append(" | ".join(slot_shown(state, card.slots[s]) for s in SLOTS))
    return " · ".join(parts) or "blank"


def number(card_id: int) -> str:
    return f"`#{card_id % 20 + 1}`"


def shown_cost(counts: Any) -> str:
    """A cost as the board writes it: the cards' words, joined by "+"."""
    return cost_text(counts).replace(" · ", " + ")


def for_sale(state: State, instance: int, *, slot: bool = True, row: int | None = None) -> str:
    """A card of the commons as the board writes it (its level too in a row of another
    level)."""
    card = pack_of(state).card(state.cards[instance])
    where = f"{card.slot}, " if slot else ""  # type: ignore[union-attr]
    if row is not None and card.level != row:  # type: ignore[union-attr]
        where = f"level {card.level}, {where}"  # type: ignore[union-attr]
    return f"{card.shown_name} ({where}{shown_cost(card.cost)})"  # type: ignore[union-attr]


# ------------------------------------------------------------------ reading the board


def player_text(embed: discord.Embed, name: str) -> tuple[str, str]:
    """A player's field title and value on the board (a continuation joined on)."""
    heads = (f"{name} · ", f"{name} — ")
    fields = [f for f in embed.fields if (f.name or "").removeprefix("▶️ ").startswith(heads)]
    assert fields, [f.name for f in embed.fields]
    return fields[0].name or "", "\n".join(f.value or "" for f in fields)


def field_value(embed: discord.Embed, title: str) -> str:
    return next(f.value or "" for f in embed.fields if (f.name or "").startswith(title))


def check_cards(value: str, state: State, seat: int) -> None:
    """Every field card and the on-deck card with its number and slots; no card of the
    deck, whose order is hidden."""
    player = state.players[seat]
    lines = value.splitlines()
    for card_id in player.field:
        line = next((x for x in lines if x.startswith("`#") and number(card_id) in x), None)
        assert line is not None, (number(card_id), value)
        assert line.endswith(f" {card_shown(state, card_id)}"), (line, card_shown(state, card_id))
    if player.on_deck is not None:
        expected = f"**On deck**: {number(player.on_deck)} {card_shown(state, player.on_deck)}"
        assert expected in value, (expected, value)
    else:
        assert "**On deck**: none" in value
    for card_id in player.deck:
        assert number(card_id) not in value, "a card of the deck was shown"
    assert f"**Decay {decay_count(state, seat)} of {SPOIL_AT}**" in value


def check_board(embed: discord.Embed, state: State) -> None:
    """The posted board against the state: whose turn, the VP pool, every player's
    tokens, mana token, leader, vales, Reserve and cards, the Harvest pool, the commons
    and the vales with their costs; within Discord's limits."""
    assert len(embed) <= EMBED_LIMIT and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    public = MV.view(state, None)
    if state.phase == "over":
        outcome = MV.outcome(state)
        assert outcome is not None and embed.description == f"🏆 {outcome.text}"
    else:
        assert embed.description == f"▶️ {public['prompt']}"
    pool = embed.fields[0].name or ""
    assert (pool.startswith("🔔 Last round") if state.last_round else "") or (
        pool.startswith(f"VP pool: {state.pool} left")
    ), pool
    to_act = MV.to_act(state)
    for player in state.players:
        title, value = player_text(embed, player.name)
        assert title.startswith("▶️ ") == (player.seat in to_act), title
        curses = f"{player.curses} curse" + ("" if player.curses == 1 else "s")
        assert title.endswith(f" · {player.vp} VP · {curses}"), title
        token = "**active** (+1 mana)" if player.mana_token else "inactive"
        assert f"Mana token {token} · deck {len(player.deck)} · discard {len(player.discard)}" in (
            value
        )
        check_cards(value, state, player.seat)
        for vale in player.vales:
            assert name_of(state, vale) in value
        for instance in player.reserved:
            assert for_sale(state, instance) in value
        if player.leader is not None:
            assert f"Leader: **{pack_of(state).leader(player.leader).shown_name}**" in value
    commons = field_value(embed, "Commons")
    for level, row in state.commons.rows.items():
        shown = [for_sale(state, i, row=level) if i is not None else "–" for i in row]
        assert f"**{level}** ({len(state.commons.decks[level])} left): {' · '.join(shown)}" in (
            commons
        )
    for instance in state.commons.level4:
        assert for_sale(state, instance) in commons
    if state.commons.fertile:
        assert f"**Fertile Soils** ({len(state.commons.fertile)} left, 2 mana each)" in commons
    vales = field_value(embed, "Vales")
    for level, row in state.commons.vale_rows.items():
        for instance in row:
            if instance is not None:
                assert for_sale(state, instance, slot=False, row=level) in vales
    harvest = state.harvest
    if state.phase == "harvest" and harvest is not None:
        pool_text = field_value(embed, "🌾")
        assert f"**{harvest.mana} mana**" in pool_text
        left = 2 - harvest.buys
        assert f"then {left} advancement{'' if left == 1 else 's'} (mana)" in pool_text


def check_hand(private: Any, state: State, seat: int) -> None:
    """A /hand against the state: the question, the player's own line and cards, what
    their cards do, their Reserve and leader in full, the menu with every legal action."""
    embed = private.embeds[0]
    assert len(embed) <= EMBED_LIMIT
    question = MV.question(state, seat)
    if question is not None:
        assert embed.description == f"**{question[:1].upper()}{question[1:]}**"
    player = state.players[seat]
    mine = next(f for f in embed.fields if (f.name or "").removeprefix("▶️ ").startswith("You — "))
    value = "\n".join(
        f.value or "" for f in embed.fields if (f.name or "").startswith((mine.name or "?")[:12])
    )
    assert f"deck {len(player.deck)} · discard {len(player.discard)}" in value
    check_cards(value, state, seat)
    text = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    for card_id in [*player.field, *([player.on_deck] if player.on_deck is not None else [])]:
        for stack in state.card(card_id).slots.values():
            for layer in stack:
                if isinstance(layer, int):
                    card = pack_of(state).card(state.cards[layer])
                    assert clip(card_text(card), 200)[:-1] in text, card.shown_name
    for instance in player.reserved:
        assert card_text(pack_of(state).card(state.cards[instance]))[:60] in text
    if player.leader is not None:
        for side in card_text(pack_of(state).leader(player.leader)).split("\n"):
            assert side[:80] in text
    about = (MV.view(state, seat).get("decision") or {}).get("about")
    if about:  # what the decision is about: the card whose ability asks, with its text
        assert f"About: {about['name']}\n{clip(about['text'], 1024)}" in text
    if state.phase == "planting" and not state.frames and seat == state.active:
        assert "Push or stop?\n**Push**: your on-deck card joins your field" in text
    legal = MV.legal_actions(state, seat)
    options = [o for row in private.components for o in _select_options(row)]
    assert [o["value"] for o in options] == [a.key for a in legal[:25]]
    for option, action in zip(options, legal, strict=False):
        assert option["label"] == clip(MV.describe(action, state), 100)


def _select_options(row: Any) -> list[dict[str, Any]]:
    children = row["components"] if isinstance(row, dict) else row.children
    return [o for c in children if isinstance(c, dict) and c.get("type") == 3 for o in c["options"]]


# ------------------------------------------------------------------ playing


def choose(state: State, seat: int, move: int) -> str:
    """A fixed policy: push while the decay is low (and, one turn in three, at 3 too, where
    one more decay Spoils), then buy vales, upgrade the leader, buy the dearest
    advancement, use every ability; the first choice of any other decision."""
    legal = [a.key for a in MV.legal_actions(state, seat)]
    if "push" in legal or "stop" in legal:
        decay = decay_count(state, seat)
        bold = state.turn % 3 == 1
        if "push" in legal and (decay < SPOIL_AT - 1 or (bold and decay < SPOIL_AT)):
            return "push"
        return "stop"
    pack = pack_of(state)

    def worth(key: str) -> int:
        kind, *args = key.split("|")
        if kind == "vale":
            return 100 + sum(pack.vale(state.cards[int(args[0])]).cost.counts().values())
        if kind == "upgrade":
            return 90
        return sum(pack.advancement(state.cards[int(args[0])]).cost.counts().values())

    buys = [k for k in legal if k.split("|")[0] in ("vale", "upgrade", "buy")]
    if buys:
        return max(buys, key=worth)
    for key in ("use", "done"):
        if key in legal:
            return key
    return legal[move % len(legal)]


async def seat_of(world: World, player: simcord.MemberActor) -> int:
    table = await world.bot.matches.table(world.match_id or 0)
    seat = table.seat_of(player.id)
    assert seat is not None
    return seat.seat


async def play_out(world: World, players: list[simcord.MemberActor]) -> dict[str, int]:
    """Play the match to its end, each move by the player the game waits for: Planting
    through the Push and Stop buttons every other move (else `/play`), every seventh
    other move from the `/hand` menu; the board checked every few moves and the
    decider's /hand now and then. How many moves went by each way, how many pushes by
    button Spoiled, how many of the boards checked showed a leader in a field."""
    ways = dict.fromkeys(
        ("button", "play", "menu", "Spoils by a Push button", "boards with a leader in a field"), 0
    )
    for move in range(MAX_MOVES):
        if (await world.match()).status != "active":
            break
        state = await state_of(world)
        (player,) = await world.to_act()
        seat = await seat_of(world, player)
        if move % CHECK_EVERY == 0:
            check_board((await world.full_board(world.eve)), state)
            fields = [c for p in state.players for c in p.field]
            ways["boards with a leader in a field"] += any(
                state.card(c).leader is not None for c in fields
            )
        if move % 60 == 59:
            await world.env.advance_time(16 * 60)  # let the ephemeral views' timers lapse
        key = choose(state, seat, move)
        if key in ("push", "stop") and move % 2 == 0:
            message = await turn_message(world, player)
            labels = {b["key"]: b["label"] for b in MV.view(state, None)["quick"]}
            buttons = quick(message)
            assert set(buttons) == set(labels.values()), (buttons, labels)
            if key == "push" and can_spoil(state, seat):
                assert labels["push"].startswith(f"Push (decay {decay_count(state, seat)} of 4: ")
            elif key == "push":
                decay = decay_count(state, seat)
                assert labels["push"] == f"Push (decay {decay} of 4: you can't Spoil now)"
            clicked = await player.click(message, custom_id=buttons[labels[key]])
            assert not told(clicked), told(clicked)
            ways["button"] += 1
            (last,) = await world.bot.store.matches.actions(world.match_id or 0, last=1)
            ways["Spoils by a Push button"] += "Spoils with" in last.events
        elif move % HAND_EVERY == 3:
            private = (await player.slash(world.channel, "hand")).response
            assert private is not None and private.ephemeral
            check_hand(private, state, seat)
            if key not in option_values(private):
                continue  # past the menu's first page: the next move plays it
            done = await player.select(private, [key], custom_id=menu_id(private))
            assert done.response is not None and done.response.content.startswith("✅ "), key
            ways["menu"] += 1
        else:
            played = await player.slash(world.channel, "play", action=key)
            assert played.response is not None, key
            assert played.response.content.startswith("✅ "), played.response.content
            ways["play"] += 1
        after = await state_of(world)
        assert after != state, f"move {move} ({key}) changed nothing"
    return ways


async def spoils(world: World) -> list[str]:
    """The public lines telling of a Spoil in a Planting Phase (after a push)."""
    rows = await world.bot.store.matches.actions(world.match_id or 0)
    return [
        line for row in rows for line in re.findall(r'"text":"([^"]*Spoils with[^"]*)"', row.events)
    ]


async def finish(world: World) -> None:
    """The match is over: the board says how it ended, the last line too, and the log
    replays to the saved state."""
    state = await state_of(world)
    outcome = MV.outcome(state)
    assert outcome is not None and outcome.reason == "score"
    check_board((await world.full_board(world.eve)), state)
    assert any(outcome.text in line for line in world.public_lines()[-2:])
    assert await world.bot.matches.verify(world.match_id or 0)


# ------------------------------------------------------------------ whole games


@pytest.mark.engines
async def test_a_two_player_game_with_leaders_set_in_the_lobby_to_the_end(world: World) -> None:
    opened = await world.open(world.alice, MV.id, "2p", seed=11)
    lobby = opened.response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    chosen = await world.alice.select(
        lobby, ["on"], custom_id=f"arbiter:option:{world.match_id}:leaders"
    )
    assert "**Leaders:** on" in (chosen.response or lobby).embeds[0].fields[1].value  # type: ignore[union-attr]
    await world.alice.click(lobby, label="Start")
    board = await world.full_board(world.eve)
    assert "\nLeaders on\n" in (board.footer.text or "")
    # Both choose a leader from /hand, each reading their two in full.
    state = await state_of(world)
    for player in (world.alice, world.bob):
        seat = await seat_of(world, player)
        private = (await player.slash(world.channel, "hand")).response
        assert private is not None
        shown = "\n".join(f.value or "" for f in private.embeds[0].fields)
        for leader in state.players[seat].leader_options:
            assert pack_of(state).leader(leader).shown_name in shown
        done = await player.select(private, [option_values(private)[0]], custom_id=menu_id(private))
        assert done.response is not None and done.response.content.startswith(
            "✅ You chose: Choose "
        )
    state = await state_of(world)
    assert all(p.leader for p in state.players)
    ways = await play_out(world, [world.alice, world.bob])
    assert min(ways.values()) > 0, ways
    assert await spoils(world), "no Spoil in the whole game"
    await finish(world)


async def test_the_lobby_s_leaders_option_reads_as_off_when_it_is_off(world: World) -> None:
    """The lobby's line for the leaders option, off by default, says what the option
    decides rather than what playing with leaders is like (which read as on)."""
    opened = await world.open(world.alice, MV.id, "2p")
    assert opened.response is not None
    lines = "\n".join(f.value or "" for f in opened.response.embeds[0].fields).splitlines()
    (line,) = [line for line in lines if line.startswith("**Leaders:**")]
    assert line == (
        "**Leaders:** off — whether each player keeps one of two titans dealt as a leader, "
        "sleeved into a blank card"
    )


async def test_a_four_player_game_with_leaders_set_by_command_to_the_end(world: World) -> None:
    players = [world.alice, world.bob, world.carol, world.dave]
    opened = await world.open(world.alice, MV.id, "4p", seed=5)
    assert opened.response is not None
    for player in players[1:]:
        await player.click(opened.response, label="Join")
    set_by = await world.alice.slash(world.channel, "match option", name="leaders", value="on")
    assert set_by.response is not None
    assert set_by.response.content == "Leaders: now **Leaders on**."
    await world.alice.click(opened.response, label="Start")
    for _ in players:  # each chooses their first leader, by /play
        (player, *_) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    state = await state_of(world)
    assert state.phase == "planting"
    board = await world.full_board(world.eve)
    assert "\nLeaders on\n" in (board.footer.text or "")
    check_board(board, state)
    ways = await play_out(world, players)
    assert min(ways.values()) > 0, ways
    assert await spoils(world), "no Spoil in the whole game"
    await finish(world)


# ------------------------------------------------------------------ the quick buttons


async def opening(world: World) -> tuple[State, simcord.MemberActor, simcord.MemberActor]:
    """A 2-player match in its first Planting: the state, who plants, the other player."""
    await world.start(MV.id, "2p", [world.alice, world.bob], seed=7)
    state = await state_of(world)
    (planter,) = await world.to_act()
    other = world.bob if planter is world.alice else world.alice
    return state, planter, other


async def test_the_decider_is_called_with_push_and_stop_showing_the_spoil_risk(
    world: World,
) -> None:
    state, planter, _ = await opening(world)
    seat = await seat_of(world, planter)
    message = await turn_message(world, planter)
    question = MV.question(state, seat)
    assert message.content.endswith(f"<@{planter.id}>, {question}")
    buttons = quick(message)
    push = next(label for label in buttons if label.startswith("Push"))
    assert re.fullmatch(r"Push \(decay \d of 4: field \d, on deck [+-]\d\)", push), push
    assert "Stop and harvest" in buttons
    decisions = (await world.bot.matches.table(world.match_id or 0)).user_of(seat).decisions
    assert buttons[push] == f"arbiter:quick:{world.match_id}:{seat}:{decisions}:push"
    assert "arbiter:hand:" in " ".join(custom_ids(await world.board()))  # the board keeps My hand


async def test_the_push_button_counts_the_decay_as_the_board_does_and_names_its_parts(
    world: World,
) -> None:
    """The Push button's first number is the board's "Decay N of 4" (field and on-deck
    card together), and the two parts that add up to it say what they are."""
    state, planter, _ = await opening(world)
    seat = await seat_of(world, planter)
    _, value = player_text((await world.full_board(world.eve)), state.players[seat].name)
    (decay,) = re.findall(r"\*\*Decay (\d) of 4\*\*", value)
    push = next(label for label in quick(await turn_message(world, planter)) if "Push" in label)
    shows = field_total(state, seat)
    field = max(0, shows["decay"] - shows["growth"])
    assert push == f"Push (decay {decay} of 4: field {field}, on deck {int(decay) - field:+d})"


async def test_a_turn_message_tells_each_prep_in_one_line_naming_every_card(
    world: World,
) -> None:
    """The Prep that ends a turn turns up a card at a time; the turn message tells it in
    one line (every card named, planted and left on deck), not a line per card."""
    state, planter, _ = await opening(world)
    for key in ("stop", "done"):
        played = await planter.slash(world.channel, "play", action=key)
        assert played.response is not None and played.response.content.startswith("✅ ")
    state = await state_of(world)
    prepped = state.players[1 - state.active]
    assert len(prepped.field) >= 2
    lines = "\n".join(world.public_lines()[-2:]).splitlines()
    told = [line for line in lines if " plants " in line or " face up" in line]
    assert len(told) == 1, lines
    labels = [card_label(state, c) for c in [*prepped.field, prepped.on_deck or 0]]
    assert told[0].startswith(f"{prepped.name} plants {labels[0]}, then turns up and plants ")
    assert told[0].endswith(f", and turns {labels[-1]} face up on deck."), told[0]


async def test_the_harvest_menu_says_what_each_card_does_and_where_a_cut_one_is_whole(
    world: World,
) -> None:
    """Under each card to buy, the `/hand` menu gives its price and what it shows and
    does (its slot and level are in the label, not said again); a text too long for the
    option ends pointing to `/card`, where it is whole."""
    _, planter, _ = await opening(world)
    await planter.slash(world.channel, "play", action="stop")
    private = (await planter.slash(world.channel, "hand")).response
    assert private is not None
    options = [o for row in private.components for o in _select_options(row)]
    buys = [o for o in options if o["value"].startswith(("buy|", "vale|"))]
    assert buys and all(len(o.get("description") or "") <= 100 for o in options)
    assert not any("slot. Cost" in o["description"] for o in buys)
    cut = [o["description"] for o in buys if not o["description"].endswith(".")]
    assert cut and all(d.endswith("… full text: /card") for d in cut), cut


async def test_every_buy_play_suggests_shows_its_cost_beside_its_whole_label(
    world: World,
) -> None:
    """With the commons rows full, each buy `/play` suggests reads its label whole and
    then its cost ("Buy Howlstone Cairn ✦ (level 1, bottom; level-1 row, 1 of 3)" once
    lost its cost: with its detail it passed Discord's 100 characters)."""
    _, planter, _ = await opening(world)
    await planter.slash(world.channel, "play", action="stop")
    state = await state_of(world)
    seat = await seat_of(world, planter)
    assert all(None not in state.commons.rows[level] for level in (1, 2))
    offered = await planter.autocomplete(world.channel, "play", "action", "")
    names = {o["value"]: o["name"] for o in offered}
    buys = [a for a in MV.legal_actions(state, seat) if a.kind in ("buy", "vale")]
    assert len(buys) >= 6 and len(offered) < 25  # every buy is offered
    pack = pack_of(state)
    for action in buys:
        card = state.cards[int(action.args[0])]
        if action.kind == "buy":
            cost = cost_text(price(state, seat, pack.advancement(card)))
        else:
            cost = cost_text(pack.vale(card).cost)
        name = names[action.key]
        assert name.startswith(f"{MV.describe(action, state)} — {cost}"), name
        assert len(name) <= 100


async def test_the_harvest_question_and_the_board_count_the_same_buys_left(
    world: World,
) -> None:
    """Once an advancement is bought no vale can be: `/hand` asks for one more
    advancement, as the board's Harvest counts it, in words that agree with the number."""
    state, planter, _ = await opening(world)
    await planter.slash(world.channel, "play", action="stop")
    state = await state_of(world)
    seat = await seat_of(world, planter)
    buy = next(a.key for a in MV.legal_actions(state, seat) if a.kind == "buy")
    await planter.slash(world.channel, "play", action=buy)
    private = (await planter.slash(world.channel, "hand")).response
    assert private is not None
    asked = private.embeds[0].description or ""
    assert asked.endswith(": buy up to 1 advancement (mana), then end your Harvest**"), asked
    harvest = field_value((await world.full_board(world.eve)), "🌾")
    assert "Buys left: 0 vales (spirits), then 1 advancement (mana)" in harvest, harvest


async def test_a_two_player_concession_ends_naming_who_conceded(world: World) -> None:
    """The other player conceding ends a 2-player game with a line that names them."""
    await opening(world)
    await world.concede(world.bob)
    end = world.public_lines()[-1].splitlines()[-1]
    assert end == "🏆 bob conceded: alice wins. The channel is free for a new match.", end


async def test_quick_buttons_refuse_others_and_are_stale_once_used(world: World) -> None:
    state, planter, other = await opening(world)
    message = await turn_message(world, planter)
    stop = quick(message)["Stop and harvest"]
    refused = await other.click(message, custom_id=stop)
    assert told(refused) == [f"It is not your decision: waiting for {planter.name}."]
    outsider = await world.eve.click(message, custom_id=stop)
    assert told(outsider) == ["You are not playing in this match."]
    assert await state_of(world) == state
    # The push is taken; its message now carries the next decision's buttons. The old
    # ones, kept on a message the bot could not edit, apply nothing.
    push = next(cid for label, cid in quick(message).items() if label.startswith("Push"))
    path = f"/channels/{world.channel.id}/messages/{message.id}"
    # In the channel, through the click, or through the followups that posted it:
    for route in (path, "/webhooks/*/messages/@original", f"/webhooks/*/messages/{message.id}"):
        world.env.inject_error("PATCH", route, status=500, code=0, message="edit failed", times=2)
    pushed = await planter.click(message, custom_id=push)
    assert not told(pushed)
    after = await state_of(world)
    assert after.players[0].field != state.players[0].field or (
        after.players[1].field != state.players[1].field
    )
    again = await planter.click(message, custom_id=push)
    assert told(again) == [STALE_BUTTONS]
    assert await state_of(world) == after
    newer = await turn_message(world, planter)
    assert newer.id != message.id  # the turn's lines went on in a new message
    world.env.errors.clear()


def counted_calls(world: World, since: int) -> tuple[list[str], list[str]]:
    """The requests made since request number `since`: those counted against the bot's
    global limit, and those through interactions (exempt), as "METHOD path"."""
    made = [f"{r.method} {r.path}" for r in world.env.http_requests[since:]]
    exempt = [m for m in made if m.split(" ", 1)[1].startswith(("/interactions/", "/webhooks/"))]
    return [m for m in made if m not in exempt], exempt


async def test_a_push_by_its_quick_button_is_told_through_the_click(world: World) -> None:
    """Exempt calls first: the press answers with its message's deferred update; the
    next call to decide is the click's followup, and the pressed message loses its
    buttons through the click. The board, posted as the Start click's followup, is
    edited through that click's followups: nothing counts against Discord's global
    limit."""
    _, planter, _ = await opening(world)
    message = await turn_message(world, planter)
    board = await world.board()
    push = next(cid for label, cid in quick(message).items() if label.startswith("Push"))
    since = len(world.env.http_requests)
    pushed = await planter.click(message, custom_id=push)
    limited, exempt = counted_calls(world, since)
    assert limited == []
    assert any(m.endswith("/messages/@original") and m.startswith("PATCH") for m in exempt)
    assert any(m.endswith(f"/messages/{board.id}") and m.startswith("PATCH") for m in exempt)
    assert pushed.response is not None and pushed.response.id == message.id
    assert quick(pushed.response) == {}  # out of date: taken off through the click
    (called,) = [m for m in pushed.followups if not m.ephemeral]
    current = await turn_message(world, planter)
    assert current.id == called.id and "plants" in current.content and quick(current)


@pytest.mark.engines
async def test_a_restart_keeps_the_quick_buttons_working(world: World, create_bot: Any) -> None:
    state, planter, _ = await opening(world)
    message = await turn_message(world, planter)
    await world.env.bot.close()
    await world.env.restart_bot(create_bot())
    stop = quick(message)["Stop and harvest"]
    clicked = await planter.click(message, custom_id=stop)
    assert not told(clicked)
    after = await state_of(world)
    assert after.phase == "harvest" and after.active == state.active
    # In the Harvest the one quick action is its end (the Stop button is gone)
    assert list(quick(await turn_message(world, planter))) == ["End your Harvest, buying nothing"]


async def post_button(world: World, button: QuickButton) -> discord.Message:
    """A message carrying one quick button, as an old or forged message might."""
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    await world.bot.get_partial_messageable(world.channel.id).send("A button", view=view)
    message = world.channel.last_message
    assert message is not None
    return message


NOT_HERE = "That button isn't from a match here, so nothing happened."


async def test_a_forged_quick_button_changes_nothing(world: World) -> None:
    state, planter, _ = await opening(world)
    seat = await seat_of(world, planter)
    decisions = (await world.bot.matches.table(world.match_id or 0)).user_of(seat).decisions
    cases = [
        (QuickButton(2**64, seat, decisions, "stop"), NOT_HERE),
        (QuickButton(world.match_id or 0, 2**40, 0, "stop"), NOT_HERE),
        (
            QuickButton(world.match_id or 0, seat, decisions, "buy|99999"),
            "Cards are bought in your Harvest Phase.",
        ),
    ]
    for button, said in cases:
        message = await post_button(world, button)
        clicked = await planter.click(message, custom_id=button.item.custom_id)
        assert told(clicked) == [said], button.item.custom_id
    assert await state_of(world) == state


# ------------------------------------------------------------------ a large board


def test_a_large_four_player_board_stays_within_discord_s_limits() -> None:
    """A long 4-player game's largest board, with its last lines and the clock: within
    6000 characters and 25 fields, every field within 1024, every card of every field
    shown."""
    seats = [SeatSpec(seat=i, name=n) for i, n in enumerate(("alice", "bob", "carol", "dave"))]
    state = MV.setup("4p", seats, {"leaders": "on"}, 7)
    picks = random.Random(7)
    largest: tuple[int, State, list[str]] = (0, state, [])
    lines: list[str] = []
    for move in range(700):
        if MV.outcome(state) is not None:
            break
        seat = sorted(MV.to_act(state))[0]
        action = picks.choice(MV.legal_actions(state, seat))
        state, events = MV.apply(state, seat, action, rng_for(7, move + 1))
        lines = [*lines, *(e.text for e in events if e.text)][-5:]
        size = sum(len(p.field) for p in state.players)
        if size > largest[0]:
            largest = (size, state, lines)
    _, state, lines = largest
    assert max(len(p.field) for p in state.players) >= 12, "not a large position"
    sample = sample_table({}, 4)
    match = dataclasses.replace(sample.match, game=MV.id, variant="4p", options={"leaders": "on"})
    seats_rows = [SeatRow(s, 100 + s, n.name, s) for s, n in enumerate(seats)]
    table = Table(match, seats_rows, MV, MV.view(state, None), tuple(MV.to_act(state)), None)
    clock = ["⏰ alice decides by <t:1767312000:f> (<t:1767312000:R>)."]
    embed = board_embed(table, clock, lines)
    assert len(embed) <= EMBED_LIMIT and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    assert [f.name for f in embed.fields][-2:] == ["Lately", "Clock"]
    for player in state.players:
        _, value = player_text(embed, player.name)
        for card_id in player.field:
            assert number(card_id) in value
    for seat in range(4):
        private = private_embed(_private(table, state, seat))
        assert len(private) <= EMBED_LIMIT and len(private.fields) <= 25


def posted_board(state: State) -> discord.Embed:
    """The board the bot posts for this position (of a 2-player match)."""
    sample = sample_table({}, len(state.players))
    match = dataclasses.replace(sample.match, game=MV.id, variant=state.variant, options={})
    seats = [SeatRow(p.seat, 100 + p.seat, p.name, p.seat) for p in state.players]
    table = Table(match, seats, MV, MV.view(state, None), tuple(MV.to_act(state)), None)
    return board_embed(table, [], [])


def test_the_board_gives_the_level_of_a_card_refilled_from_the_next_level() -> None:
    """A row whose deck ran out is refilled from the next level's deck: the board shows
    the level of a level-2 card lying in the level-1 row."""
    seats = [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")]
    state = MV.setup("2p", seats, {}, 7)
    shrine = next(i for i, c in enumerate(state.cards) if c == "gravemoss-shrine")
    for pile in [*state.commons.decks.values(), *state.commons.rows.values()]:
        if shrine in pile:
            pile[pile.index(shrine)] = state.commons.rows[1][0]
    state.commons.rows[1][0] = shrine
    commons = field_value(posted_board(state), "Commons")
    level_one = commons.splitlines()[0]
    assert level_one.startswith(
        "**1** ("
    ) and "left): Gravemoss Shrine ✦ (level 2, top, 4 mana) · " in (level_one)


def _private(table: Table, state: State, seat: int) -> Any:
    from bot.service.tables import PrivateView

    return PrivateView(table, seat, MV.view(state, seat), [], [], 0, MV.question(state, seat))


def test_the_public_view_offers_push_and_stop_then_the_end_of_the_harvest() -> None:
    """The quick buttons follow the turn: Push and Stop in Planting, then in the Harvest
    its end (buying nothing, until something is bought)."""
    seats = [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")]
    state = MV.setup("2p", seats, {}, 7)
    assert state.phase == "planting"
    offered = MV.view(state, None)["quick"]
    assert [q["key"] for q in offered] == ["push", "stop"]
    assert offered[1]["label"] == MV.describe(Action(kind="stop"), state)
    state, _ = MV.apply(state, state.active, Action(kind="stop"), rng_for(7, 1))
    assert state.phase == "harvest"
    (done,) = MV.view(state, None)["quick"]
    assert (done["key"], done["label"]) == ("done", "End your Harvest, buying nothing")


async def test_rules_summarises_the_game_and_its_leaders_option(world: World) -> None:
    offered = await world.alice.autocomplete(world.channel, "match new", "variant", "", game=MV.id)
    assert [o["value"] for o in offered] == ["2p", "3p", "4p", "solo"]
    shown = await world.alice.slash(world.channel, "rules", game=MV.id)
    assert shown.response is not None and shown.response.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title == "Mystic Vale" and embed.description == MV.rules_summary
    fields = {f.name: f.value or "" for f in embed.fields}
    assert fields["Variants"].startswith("**2p** — 2 players")
    assert fields["Options"].startswith(
        "**Leaders** — Leaders off / Leaders on (default: Leaders off)"
    )


async def test_a_hurried_turn_is_stop_then_end_the_harvest_from_the_call(world: World) -> None:
    """A player in a hurry passes a turn in two taps under the message that calls them:
    Stop and harvest, then the end of the Harvest (buying nothing), which the same
    message offers once they stopped; the next player is called. The call carries My
    hand too, their panel one tap away."""
    _, planter, other = await opening(world)
    message = await turn_message(world, planter)
    assert "arbiter:hand:" in " ".join(custom_ids(message))
    stopped = await planter.click(message, custom_id=quick(message)["Stop and harvest"])
    assert not told(stopped)
    state = await state_of(world)
    assert state.phase == "harvest"
    message = await turn_message(world, planter)
    buttons = quick(message)
    assert "End your Harvest, buying nothing" in buttons, buttons
    ended = await planter.click(message, custom_id=buttons["End your Harvest, buying nothing"])
    assert not told(ended)
    assert await world.to_act() == [other]
    assert (await state_of(world)).active == await seat_of(world, other)


def test_a_choice_of_a_few_cards_is_offered_as_buttons() -> None:
    """A choice of up to four options the active player makes (the field card to sleeve
    an advancement into, a free Fertile Soil) is one tap under the call: each option is a
    quick button, as the menu names it."""
    seats = [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")]
    rng = random.Random(3)
    for seed in range(20):
        state = MV.setup("2p", seats, {}, seed)
        for n in range(600):
            if state.phase == "over":
                break
            seat = sorted(MV.to_act(state))[0]
            legal = MV.legal_actions(state, seat)
            options = [a for a in legal if a.kind == "choose"]
            if options and seat == state.active and len(options) <= 4:
                quick = MV.view(state, None)["quick"]
                assert [q["key"] for q in quick if q["key"].startswith("choose|")] == [
                    a.key for a in options
                ]
                assert all(
                    q["label"] == MV.describe(a, state)
                    for q, a in zip(
                        [q for q in quick if q["key"].startswith("choose|")], options, strict=True
                    )
                )
                return
            state, _ = MV.apply(state, seat, rng.choice(legal), rng_for(seed, n))
    raise AssertionError("no choice of a few options came up")
