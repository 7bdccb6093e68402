"""Command of Nature through the real bot: whole games, and the defenders' response
window answered from the Respond button or left to run out."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.service.timing import out_of_turn_clock
from rules.command_of_nature import GAME as CON
from rules.core import SeatSpec, rng_for
from tests.bot.world import (
    World,
    custom_ids,
    menu_id,
    option_values,
    private_followups,
    turn_message,
)

MAX_ACTIONS = 3000
PREFERENCE = ("attack", "let", "fill", "choose", "sage", "formation", "summon", "phase", "done")


def opening_seed() -> int:
    """A seed whose first player is alice, the first seat (found with the engine)."""
    for seed in range(200):
        state = CON.setup("2p", [SeatSpec(seat=0, name="a"), SeatSpec(seat=1, name="b")], {}, seed)
        first = state.sides[state.start_team].seats[0]
        if first != 0:
            continue
        return seed
    raise AssertionError("no seed where alice goes first")


async def act(world: World, player: simcord.MemberActor, key: str) -> None:
    result = await player.slash(world.channel, "play", action=key)
    assert result.response is not None and result.response.content.startswith("✅ "), key


async def set_up_both(world: World) -> None:
    """Both players choose a Sage and set up their formation (first options)."""
    for _ in range(4):
        (player,) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await act(world, player, offered[0]["value"])


def pick(offered: list[dict[str, str]], step: int) -> str:
    for kind in PREFERENCE:
        keys = [o["value"] for o in offered if o["value"].split("|")[0] == kind]
        if keys:
            return keys[step % len(keys)]
    return offered[step % len(offered)]["value"]


@pytest.mark.engines
async def test_a_two_player_game_to_a_winner_through_play(world: World) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    board = await world.board()
    assert board.embeds[0].title == "Command of Nature — 2 players"
    for step in range(MAX_ACTIONS):
        if (await world.match()).status != "active":
            break
        if step % 200 == 199:
            await world.env.advance_time(16 * 60)  # let old ephemeral views lapse
        player = (await world.to_act())[0]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        assert offered, f"{player.name} must decide but was offered nothing"
        await act(world, player, pick(offered, step))
    match = await world.match()
    assert match.status == "finished"
    final = (await world.board()).embeds[0]
    assert (final.description or "").startswith("🏆 ")
    assert await world.bot.matches.verify(match.id)


async def test_an_instant_played_from_the_respond_button_during_the_attackers_turn(
    world: World,
) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    mid = world.match_id or 0
    await act(world, world.alice, "phase|actions")
    state = await world.bot.matches.replay(mid)
    attack = next(
        a.key for a in CON.legal_actions(state, 0) if a.kind == "attack"
    )  # alice has an Attack Command within reach
    await act(world, world.alice, attack)
    line = next(m for m in reversed(world.channel.history(viewer=world.eve)) if m.content)
    respond = await world.bob.click(line, label="Respond")
    private = respond.response
    assert private is not None and private.ephemeral
    answers = option_values(private)
    assert "let" in answers
    instants = [a for a in answers if a.startswith("instant|")]
    chosen = instants[0] if instants else "let"
    await world.bob.select(private, [chosen], custom_id=menu_id(private))
    assert (await world.match()).version == 7  # sages, formations, Phase II, attack, answer
    if chosen != "let":  # an Instant keeps the window open for more answers
        assert await world.to_act() == [world.bob]
    assert await world.bot.matches.verify(mid)


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons (a channel message, or an interaction's answer)."""
    found = []
    for row in message.components:
        for c in row["components"] if isinstance(row, dict) else row.children:
            found.append((c.get("label") if isinstance(c, dict) else c.label) or "")
    return found


async def test_respond_goes_once_the_attack_is_answered_and_the_defender_decides_on(
    world: World,
) -> None:
    """bob lets the attack through, Sprout falls and bob chooses which Elemental moves
    forward: no message offers Respond any more (a newcomer saw it under that question);
    the one asking him offers his hand."""
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    for player, key in [
        (world.alice, "sage|torrent"),
        (world.bob, "sage|porella"),
        (world.alice, "formation|riptide-tiger|coastal-coyote"),
        (world.bob, "formation|petal-mage|botanic-fangs"),
        (world.alice, "attack|close-strike|0.0|0.0"),
    ]:
        await act(world, player, key)
    called = await turn_message(world, world.bob)
    assert "respond?" in called.content and "Respond" in labels(called)
    await act(world, world.bob, "let")
    asked = await turn_message(world, world.bob)
    question = "choose the Elemental that moves forward to fill the gap"
    assert asked.content.endswith(f"{world.bob.mention}, {question}")
    assert labels(asked) == ["My hand", "Board"]
    assert not any("Respond" in labels(m) for m in world.channel.history(viewer=world.bob))
    # bob's answer reads as his, not under alice's command that posted the attack
    attack = next(m for m in world.channel.history(viewer=world.bob) if m.id == called.id)
    assert "bob lets the attack through." not in attack.content
    assert asked.interaction_metadata is not None
    assert asked.interaction_metadata.user.id == world.bob.id


async def test_a_defender_lets_the_attack_through_with_one_tap_under_the_call(
    world: World,
) -> None:
    """A response window is passed like a turn: the line calling the defender carries
    Let it through (theirs alone), beside Respond."""
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    for player, key in [
        (world.alice, "sage|torrent"),
        (world.bob, "sage|porella"),
        (world.alice, "formation|riptide-tiger|coastal-coyote"),
        (world.bob, "formation|petal-mage|botanic-fangs"),
        (world.alice, "attack|close-strike|0.0|0.0"),
    ]:
        await act(world, player, key)
    called = await turn_message(world, world.bob)
    assert labels(called) == ["Let it through", "Respond", "Board"]
    refused = await world.alice.click(called, label="Let it through")
    assert refused.response is not None and refused.response.ephemeral  # not hers
    let = await world.bob.click(called, label="Let it through")
    assert let.response is not None or let.followups
    assert any("bob lets the attack through." in line for line in world.public_lines())


async def test_an_unanswered_response_window_lets_the_attack_through_when_its_clock_runs_out(
    world: World,
) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    mid = world.match_id or 0
    await act(world, world.alice, "phase|actions")
    state = await world.bot.matches.replay(mid)
    attack = next(a.key for a in CON.legal_actions(state, 0) if a.kind == "attack")
    await act(world, world.alice, attack)
    assert await world.to_act() == [world.bob]
    clock = (await world.match()).clock_seconds
    await world.env.advance_time(out_of_turn_clock(clock))
    assert "⏰ bob's time ran out." in world.public_lines()[-1]
    after = await world.bot.matches.replay(mid)
    assert not after.frames or after.frames[-1].kind != "respond"  # type: ignore[attr-defined]
    assert "lets the attack through" in world.public_lines()[-1]


async def test_a_four_player_team_game_through_play(world: World) -> None:
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start(CON.id, "4p", players, seed=3)
    board = (await world.board()).embeds[0]
    assert board.title == "Command of Nature — 2 teams of 2"
    for step in range(MAX_ACTIONS):
        if (await world.match()).status != "active":
            break
        if step % 200 == 199:
            await world.env.advance_time(16 * 60)
        deciders = await world.to_act()
        player = deciders[step % len(deciders)]  # teammates take their shared turn in turn
        offered = await player.autocomplete(world.channel, "play", "action", "")
        assert offered
        await act(world, player, pick(offered, step))
    assert (await world.match()).status == "finished"
    assert await world.bot.matches.verify(world.match_id or 0)


async def test_a_turn_from_one_panel_ends_with_a_single_multi_select_discard(world: World) -> None:
    """A whole turn played from the `/hand` panel: a draw taken straight from Phase I or
    II, then End turn with 6 cards in hand asks once, as one multi-select of 1 card, and
    the same message shows each outcome in place (no new private reply)."""
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up_both(world)
    (player,) = await world.to_act()
    opened = await player.slash(world.channel, "hand")
    panel = opened.response
    assert panel is not None and panel.ephemeral
    replies = len(private_followups(opened))
    await player.select(panel, ["draw"], custom_id=menu_id(panel))
    assert panel.content.startswith("✅ You chose: Draw a card")
    state = await world.state()
    seat = state.players.index(next(p for p in state.players if p.name == player.name))
    assert len(state.players[seat].hand) == 6 and state.phase == "actions"

    (together,) = [
        c for row in panel.components for c in row["components"] if "together" in c["custom_id"]
    ]
    assert together["min_values"] == together["max_values"] == 1
    assert len(together["options"]) == 6 and "End turn" in together["placeholder"]
    assert "end" not in option_values(panel) and not any(
        v.startswith("end|") for v in option_values(panel)
    )
    chosen = together["options"][0]
    await player.select(panel, [chosen["value"]], custom_id=together["custom_id"])
    assert panel.content.startswith(f"✅ You chose: End turn, discarding {chosen['label']}")
    after = await world.state()
    assert after.active != state.active and len(after.players[seat].hand) == 5
    assert len(private_followups(opened)) == replies  # every answer was the panel itself
    other = next(p.name for p in after.players if p.name != player.name)
    assert panel.embeds[0].description.startswith(f"Not your decision now — {other}'s turn")


def first_turns() -> Iterator[tuple[int, Any]]:
    """Each seed (of the first 300) where alice goes first, with the state as her first
    turn begins, both set up with the first choices (worked out with the engine)."""
    seats = [SeatSpec(seat=0, name="alice"), SeatSpec(seat=1, name="bob")]
    for seed in range(300):
        state = CON.setup("2p", seats, {}, seed)
        if state.sides[state.start_team].seats[0] != 0:
            continue
        for n in range(4):
            (seat,) = CON.to_act(state)
            state, _ = CON.apply(
                state, seat, CON.legal_actions(state, seat)[0], rng_for(seed, n + 1)
            )
        yield seed, state


def defenceless_seed() -> tuple[int, str]:
    """A seed where alice's first attack meets a bob with no Instant Command that could
    answer it; and that attack's key."""
    for seed, state in first_turns():
        attacks = [a for a in CON.legal_actions(state, 0) if a.kind == "attack"]
        if not attacks:
            continue
        after, _ = CON.apply(state, 0, attacks[0], rng_for(seed, 5))
        if CON.to_act(after) == {1} and not any(
            a.kind == "instant" for a in CON.legal_actions(after, 1)
        ):
            return seed, attacks[0].key
    raise AssertionError("no such seed")


async def test_a_standing_answer_lets_the_attack_through_unasked_and_unseen(
    world: World,
) -> None:
    """bob lets attacks through when no Instant could answer: set privately (what it shows
    the table is said), the game answers for him at once, says so, and does not call him."""
    seed, attack = defenceless_seed()
    shown = await world.bob.slash(
        world.channel, "profile answer", preference="command-of-nature:let-without-instant", on=True
    )
    assert shown.response is not None and shown.response.ephemeral
    assert "What the table can tell from it: The table sees you answer at once" in (
        shown.response.content
    )
    assert not world.public_lines()  # nobody else saw it
    offered = await world.bob.autocomplete(world.channel, "profile answer", "preference", "")
    assert any(o["value"] == "command-of-nature:let-without-instant" for o in offered)

    await world.start(CON.id, "2p", [world.alice, world.bob], seed=seed)
    await set_up_both(world)
    posted = len(world.env.http_requests)
    await act(world, world.alice, attack)
    await world.bot.publisher.idle()
    lines = "\n".join(world.public_lines()).splitlines()
    at = lines.index("⚙️ bob's standing answer:")
    assert lines[at + 1] == "bob lets the attack through."
    assert all(
        world.bob.id not in p["allowed_mentions"].get("users", []) for p in world.posts(posted)
    )
    after = await world.state()
    assert not after.frames or after.frames[-1].kind != "respond"  # the window closed
    assert await world.bot.matches.verify(world.match_id or 0)

    off = await world.bob.slash(
        world.channel,
        "profile answer",
        preference="command-of-nature:let-without-instant",
        on=False,
    )
    assert off.response is not None and "off: you answer yourself" in off.response.content


def daybreak_seed() -> int:
    """A seed where alice begins her first turn in Phase I, a daybreak effect to use."""
    return next(seed for seed, state in first_turns() if state.phase == "daybreak")


# From each phase of the turn, the /play keys that reach it from Phase I.
TO_PHASE = {
    "daybreak": [],
    "actions": ["phase|actions"],
    "market": ["phase|actions", "phase|market"],
    "cleanup": ["phase|actions", "phase|market", "phase|cleanup"],
}


@pytest.mark.parametrize("phase", TO_PHASE)
async def test_end_turn_is_one_tap_from_every_phase(world: World, phase: str) -> None:
    """Phases I to IV: the line that calls the player carries one button that ends the
    turn there and then (in Phase IV, finishing the clean-up); bob has the turn next."""
    await world.start(CON.id, "2p", [world.alice, world.bob], seed=daybreak_seed())
    await set_up_both(world)
    for key in TO_PHASE[phase]:
        await act(world, world.alice, key)
    before = await world.state()
    assert before.phase == phase and len(before.players[0].hand) <= 5
    await world.bot.publisher.idle()
    calling = next(m for m in reversed(world.channel.history(viewer=world.eve)) if custom_ids(m))
    (quick,) = [
        c
        for row in calling.components
        for c in row.children
        if "arbiter:quick:" in (c.custom_id or "")
    ]
    assert quick.label == ("Finish: draw up to 5 cards" if phase == "cleanup" else "End turn")
    version = (await world.match()).version
    await world.alice.click(calling, custom_id=quick.custom_id)
    after = await world.state()
    assert after.active != before.active and after.phase in ("daybreak", "actions")
    assert await world.to_act() == [world.bob]
    assert (await world.match()).version == version + 1  # one tap, one action
    assert await world.bot.matches.verify(world.match_id or 0)


async def test_end_turn_is_the_first_suggestion_of_play_even_in_phase_one(
    simcord_env: simcord.Env,
) -> None:
    """Discord shows 25 suggestions at most: the way to pass comes first, so a Phase I
    with many choices never hides it."""
    world = World.build(simcord_env)
    match = await world.start("command-of-nature", "2p", [world.alice, world.bob], seed=3)
    for _ in range(10):  # the Sages and the formations
        table = await world.bot.matches.table(match.id)
        if table.view and table.view.get("phase") == "daybreak":
            break
        (player, *_) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    table = await world.bot.matches.table(match.id)
    assert table.view is not None and table.view["phase"] == "daybreak"
    (player, *_) = await world.to_act()
    offered = await player.autocomplete(world.channel, "play", "action", "")
    assert offered[0]["value"] == "end" and offered[0]["name"].startswith("End turn")


async def test_end_turn_above_five_cards_asks_privately_which_to_discard(world: World) -> None:
    """End turn is a button under the call even when the hand is above 5 cards: the
    button names no card (the table would read them); its press answers, privately, with
    a button for each card to discard, and one tap there ends the turn."""
    match = await world.start(CON.id, "2p", [world.alice, world.bob], seed=3)
    rng = random.Random(1)
    for _ in range(400):
        table = await world.bot.matches.table(match.id)
        assert table.match.status == "active"
        labels_now = [str(q.get("label")) for q in (table.view or {}).get("quick") or []]
        if any(label.startswith("End turn (discard") for label in labels_now):
            break
        (seat, *_) = table.to_act
        user = table.user_of(seat).user_id
        keys = [c.key for c in (await world.bot.matches.view(match.id, user)).choices]
        calm = [k for k in keys if not k.startswith(("end", "done"))] or keys
        await world.bot.matches.act(match.id, user, rng.choice(calm))
    else:
        raise AssertionError("no turn came to an end above 5 cards")
    await world.bot.publisher.idle()
    (player,) = await world.to_act()
    called = await turn_message(world, player)
    (end,) = [label for label in labels(called) if label and label.startswith("End turn")]
    assert end == "End turn (discard 1 card)"
    asked = await player.click(called, label=end)
    assert asked.response is not None and asked.response.ephemeral
    offered = labels(asked.response)
    assert offered and all(label.startswith("End turn, discarding ") for label in offered)
    before = (await world.match()).version
    ended = await player.click(asked.response, label=offered[0])
    assert ended.response is not None or ended.followups
    assert (await world.match()).version == before + 1
    discarded = offered[0].removeprefix("End turn, discarding ")
    assert any(f"discards {discarded}" in line for line in world.public_lines())
