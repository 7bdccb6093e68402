"""Whole Tooth & Nail matches through the real bot: from `/match new` to a winner.

The players always take a legal action the bot offers them (the first one
`/play` autocompletes, or one from the `/hand` menu), with a fixed seed, so
each game is the same every run and must end with the board naming a winner.
"""

from __future__ import annotations

import pytest
import simcord

from tests.bot.world import (
    World,
    buttons,
    custom_ids,
    menu_id,
    option_values,
    quick,
    turn_message,
)

MAX_ACTIONS = 1500


@pytest.mark.engines
async def test_a_two_player_game_to_a_winner_through_play_and_hand(
    simcord_env: simcord.Env,
) -> None:
    world = World.build(simcord_env)
    opened = await world.open(world.alice, "tooth-and-nail", "2p", seed=11)
    assert opened.response is not None
    assert opened.response.embeds[0].title == "Tooth & Nail: Factions — 2 players"
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    board = await world.board()
    first = await world.to_act()
    begins = world.public_lines()[-1].splitlines()
    assert begins[0] == "The match begins!"
    assert begins[1].startswith("🎲 Seed 11 — shuffles are predictable")
    assert begins[2].startswith("➡️ " + first[0].mention)

    for step in range(MAX_ACTIONS):
        if (await world.match()).status != "active":
            break
        player = (await world.to_act())[0]
        if step % 2:  # odd steps through the /hand menu, even ones through /play
            private = (await player.slash(world.channel, "hand")).response
            assert private is not None and private.ephemeral
            choices = option_values(private)
            assert choices, f"{player.name} must decide but the menu is empty"
            await player.select(private, [choices[0]], custom_id=menu_id(private))
            assert private.content.startswith("✅ ")
        else:
            offered = await player.autocomplete(world.channel, "play", "action", "")
            assert offered, f"{player.name} must decide but was offered nothing"
            result = await player.slash(world.channel, "play", action=offered[0]["value"])
            assert result.response is not None and result.response.content.startswith("✅ ")
    match = await world.match()
    assert match.status == "finished"
    table = await world.bot.matches.table(match.id)
    assert table.outcome is not None
    (winner,) = table.outcome.winners
    winner_name = table.user_of(winner).name
    final = await world.board()
    assert final.id != board.id  # reposted at the bottom once buried under lines
    first = next(m for m in world.channel.history() if m.id == board.id)
    assert "The board has moved" in (first.embeds[0].description or "")
    assert first.components == []
    glance = (final.embeds[0].description or "").splitlines()
    assert glance[0] == f"🏆 **{winner_name} won**"
    assert glance[-1].endswith(table.outcome.text)  # the end closes Lately
    assert (await world.full_board(world.eve)).description == f"🏆 {table.outcome.text}"
    assert table.outcome.text.endswith(f"{winner_name} wins.")
    assert custom_ids(final) == [f"arbiter:full:{match.id}"]  # no hand to open any more
    assert world.public_lines()[-1].endswith("The channel is free for a new match.")
    assert world.public_lines()[-1].count(table.outcome.text) == 1  # the end said once
    assert await world.bot.matches.verify(match.id)
    again = await world.bob.slash(world.channel, "match new", game="tooth-and-nail")
    assert again.response is not None and not again.response.ephemeral


async def test_a_four_player_team_game_through_the_hand_menus(simcord_env: simcord.Env) -> None:
    world = World.build(simcord_env)
    players = [world.alice, world.bob, world.carol, world.dave]
    await world.start("tooth-and-nail", "4p", players, seed=5)
    board = await world.board()
    shown = await world.full_board(world.eve)
    assert shown.title == "Tooth & Nail: Factions — The Enemy of My Enemy"
    teams = [(f.name or "").removeprefix("▶️ ") for f in shown.fields if "Team " in (f.name or "")]
    assert [t.split(" — to choose")[0] for t in teams] == [
        "Team 1 — alice & carol",
        "Team 2 — bob & dave",
    ]

    for turn in range(MAX_ACTIONS):
        if (await world.match()).status != "active":
            break
        if turn % 50 == 49:
            # discord.py gives each ephemeral view a 15-minute timer; let them lapse so
            # simcord's settling does not slow down (the menus are persistent items anyway).
            await world.env.advance_time(16 * 60)
        player = (await world.to_act())[0]
        board = await world.board()  # reposted at the bottom as lines bury it
        shown_hand = await player.click(board, label="My hand")
        private = shown_hand.response
        assert private is not None and private.ephemeral
        while any(b.get("label") == "Next" and not b.get("disabled") for b in buttons(private)):
            await player.click(private, label="Next")
        choices = option_values(private)
        assert choices, f"{player.name} must decide but the menu is empty"
        await player.select(private, [choices[-1]], custom_id=menu_id(private))
        assert private.content.startswith("✅ ")
    match = await world.match()
    assert match.status == "finished"
    table = await world.bot.matches.table(match.id)
    assert table.outcome is not None
    winners = sorted(table.user_of(s).name for s in table.outcome.winners)
    assert winners in (["alice", "carol"], ["bob", "dave"])
    description = (await world.full_board(world.eve)).description or ""
    assert description == f"🏆 {table.outcome.text}"
    assert table.outcome.text.endswith(f"{winners[0]} and {winners[1]} win.")
    assert await world.bot.matches.verify(match.id)


async def test_the_board_marks_drained_troops_and_counts(simcord_env: simcord.Env) -> None:
    world = World.build(simcord_env)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    seen_drained = False
    for _ in range(200):
        fields = (await world.full_board(world.eve)).fields
        if any("💤" in (f.value or "") for f in fields):
            seen_drained = True
            break
        player = (await world.to_act())[0]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        doing = [o for o in offered if o["value"] != "end"] or offered  # End turn comes first
        await player.slash(world.channel, "play", action=doing[0]["value"])
    assert seen_drained
    alice_field = next(f for f in fields if (f.name or "").removeprefix("▶️ ").startswith("alice"))
    value = alice_field.value or ""
    for part in ("Hand **", "Discard pile ", "**Command Zone** ", "**War Zone** "):
        assert part in value
    decks = next(f for f in fields if (f.name or "").startswith("Decks left"))
    assert "alice **" in (decks.value or "") and "bob **" in (decks.value or "")


@pytest.mark.parametrize(
    ("variant", "title", "seats"), [("3p", "3 players", 3), ("alliance", "Alliance", 2)]
)
async def test_every_mode_starts_and_takes_actions(
    simcord_env: simcord.Env, variant: str, title: str, seats: int
) -> None:
    world = World.build(simcord_env)
    players = [world.alice, world.bob, world.carol][:seats]
    await world.start("tooth-and-nail", variant, players, seed=2)
    assert (await world.full_board(world.eve)).title == f"Tooth & Nail: Factions — {title}"
    for _ in range(6):
        player = (await world.to_act())[0]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    assert (await world.match()).version == 6
    assert await world.bot.matches.verify((await world.match()).id)


async def test_the_board_footer_lays_its_legend_out_line_by_line(
    simcord_env: simcord.Env,
) -> None:
    """The footer reads as short lines: the match and turn, then the legend's marks a few
    to a line, then the clock and the seed's warning; no line crams them all."""
    world = World.build(simcord_env)
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    footer = (await world.full_board(world.eve)).footer.text or ""
    lines = footer.splitlines()
    assert lines[:3] == [
        f"Match #{world.match_id} · turn 0",
        "💤 drained (used; it recharges later) · (Arcane 1) Troop Type and Strength",
        "⚠️ 5 cards or fewer left · ▶️ decides now · ✦ a card of Arbiter's own design",
    ]
    assert lines[3].startswith("⏱️ ") and lines[4].startswith("🎲 Seed 11")
    assert max(len(line) for line in lines) <= 80, lines


async def test_the_alpha_player_ends_their_turn_with_one_tap_under_the_call(
    simcord_env: simcord.Env,
) -> None:
    """Every game's call carries its one-tap way to pass: Tooth & Nail's Action Step
    has End your turn under the line calling the Alpha player."""
    world = World.build(simcord_env)
    match = await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    for _ in range(10):  # the Faction picks, by /play
        table = await world.bot.matches.table(match.id)
        if table.view and table.view["phase"] == "action":
            break
        (player, *_) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    (alpha,) = await world.to_act()
    await world.bot.publisher.idle()
    message = await turn_message(world, alpha)
    assert "End your turn" in quick(message)
    before = (await world.match()).version
    ended = await alpha.click(message, label="End your turn")
    assert ended.response is not None or ended.followups
    assert (await world.match()).version == before + 1
    assert await world.to_act() != [alpha]  # the turn passed


async def test_the_recharge_step_is_taken_or_passed_with_a_tap_under_the_call(
    simcord_env: simcord.Env,
) -> None:
    """With a Troop in the Command Zone the Recharge Step asks to draw or gain an AP: the
    call carries both as buttons, and End your turn now, which passes the turn in one
    tap (the Troop gains its AP, nothing more is drawn)."""
    world = World.build(simcord_env)
    match = await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=3)
    service = world.bot.matches
    builder = None
    for _ in range(40):  # the draft, one Troop into the Command Zone, the turns round
        table = await service.table(match.id)
        (seat,) = table.to_act
        user = table.user_of(seat).user_id
        if builder == user and table.view and table.view["phase"] == "recharge":
            break
        keys = [c.key for c in (await service.view(match.id, user)).choices]
        play = [k for k in keys if k.startswith("play|") and k.endswith("|command")]
        if builder is None and play:
            builder = user
            await service.act(match.id, user, play[0])
            continue
        await service.act(match.id, user, "end" if "end" in keys else keys[0])
    else:
        raise AssertionError("no Recharge Step with a Command Zone Troop came")
    await world.bot.publisher.idle()
    alpha = world.by_id(builder)
    message = await turn_message(world, alpha)
    buttons = quick(message)
    assert list(buttons) == [
        "Recharge: draw a card",
        "Recharge: gain 1 AP",
        "End your turn now",
    ], buttons
    before = await world.state()
    me = next(p for p in before.players if p.name == alpha.name)
    hand = len(me.hand)
    passed = await alpha.click(message, custom_id=buttons["End your turn now"])
    assert passed.response is not None or passed.followups
    after = await world.state()
    assert await world.to_act() != [alpha]  # the turn passed
    assert len(next(p for p in after.players if p.name == alpha.name).hand) == hand
    assert any(f"{alpha.name} ends their turn" in line for line in world.public_lines())
