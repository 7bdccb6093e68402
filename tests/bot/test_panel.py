"""A whole turn of each game played from one `/hand` panel: every choice is a select on
the same ephemeral message, which is updated in place with the outcome on top, and no
other private reply is made (after an answer out of turn, Refresh brings it up to date);
when the turn passes, the panel says whom the table waits for."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

from bot.service.tables import saved_events
from rules.registry import GAMES
from tests.bot.test_command_of_nature import opening_seed
from tests.bot.world import (
    World,
    menu_id,
    option_values,
    private_followups,
    quick,
    turn_message,
)

MOVE_ON = ("end", "done", "stop", "phase")  # what ends a turn, best first
MOST = 40  # selects in one turn, at most


async def set_up(world: World) -> None:
    """Take the set-up decisions (a Sage, a formation, a leader, a faction…) with /play,
    until someone has the turn."""
    for _ in range(12):
        table = await world.bot.matches.table(world.match_id or 0)
        if table.active is not None:
            return
        (player, *_) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    raise AssertionError("the set-up never ended")


@pytest.mark.parametrize(
    ("game", "variant"),
    [("tooth-and-nail", "2p"), ("command-of-nature", "2p"), ("mystic-vale", "2p")],
)
async def test_a_whole_turn_is_played_from_one_panel(world: World, game: str, variant: str) -> None:
    await world.start(game, variant, [world.alice, world.bob], seed=5)
    await set_up(world)
    table = await world.bot.matches.table(world.match_id or 0)
    active, turn = table.active, table.turn
    assert active is not None
    player = world.by_id(table.user_of(active).user_id)
    opened = await player.slash(world.channel, "hand")
    panel = opened.response
    assert panel is not None and panel.ephemeral
    selects = 0
    while True:
        table = await world.bot.matches.table(world.match_id or 0)
        if (table.active, table.turn) != (active, turn) or table.outcome is not None:
            break
        assert selects < MOST, "the turn never ended"
        if active not in table.to_act:  # an answer out of turn (a response window)
            (other, *_) = await world.to_act()
            offered = await other.autocomplete(world.channel, "play", "action", "")
            keys = [o["value"] for o in offered]
            await other.slash(world.channel, "play", action="let" if "let" in keys else keys[0])
            await player.click(panel, label="Refresh")
            continue
        values = option_values(panel)
        assert values, f"{player.name} has the turn but the panel offers nothing"
        # Two of the game's own actions, then the choice that moves on.
        moving_on = [v for k in MOVE_ON for v in values if v.split("|")[0] == k]
        chosen = moving_on[0] if moving_on and selects >= 2 else values[0]
        await player.select(panel, [chosen], custom_id=menu_id(panel))
        selects += 1
        assert panel.content.startswith("✅ "), panel.content  # the outcome, on top
    assert not private_followups(opened), "every answer was the panel itself"
    assert 1 <= selects <= MOST
    waiting = GAMES[game].name
    assert panel.embeds[0].title == f"Your view — {waiting}"
    if table.outcome is None and player.id not in [table.user_of(s).user_id for s in table.to_act]:
        assert (panel.embeds[0].description or "").startswith("Not your decision now")


async def test_a_panel_comes_back_to_life_when_the_decision_returns(world: World) -> None:
    """alice attacks from her panel; bob lets the attack through from his Respond
    button; alice's panel, not touched since, shows her decision again in place (an
    edit of the interaction's own answer: no call on the bot's global rate limit), and
    nothing is redrawn once Discord would no longer let it be."""
    await world.start("command-of-nature", "2p", [world.alice, world.bob], seed=opening_seed())
    await set_up(world)
    await world.alice.slash(world.channel, "play", action="phase|actions")
    opened = await world.alice.slash(world.channel, "hand")
    panel = opened.response
    assert panel is not None
    attack = next(v for v in option_values(panel) if v.startswith("attack|"))
    await world.alice.select(panel, [attack], custom_id=menu_id(panel))
    assert option_values(panel) == []  # bob answers now
    assert panel.embeds[0].description.startswith("Not your decision now")

    sent = len(world.env.http_requests)
    line = next(m for m in reversed(world.channel.history(viewer=world.eve)) if m.content)
    respond = await world.bob.click(line, label="Respond")
    assert respond.response is not None
    await world.bob.select(respond.response, ["let"], custom_id=menu_id(respond.response))
    while await world.to_act() == [world.bob]:  # what the attack leaves bob to decide
        offered = await world.bob.autocomplete(world.channel, "play", "action", "")
        await world.bob.slash(world.channel, "play", action=offered[0]["value"])
    await world.bot.publisher.idle()
    # Bob has answered: no message asking him keeps its Respond button.
    responds = [
        m for m in world.channel.history(viewer=world.eve) if "Respond" in str(m.components)
    ]
    assert responds == []
    # Everything from her attack on, not only the last line: her attack, bob letting it
    # through, what the attack destroyed or the damage taken, and bob's decisions after it.
    lines = panel.content.splitlines()
    assert lines[0] == "🔔 Back to you. From your last move on:"
    assert lines[1].startswith("• alice plays "), lines  # her attack
    assert "• bob lets the attack through." in lines
    assert len(lines) > 2 and all(line.startswith("• ") for line in lines[1:])
    table = await world.bot.matches.table(world.match_id or 0)
    actions = await world.bot.store.matches.actions(table.match.id)
    mine = max(a.seq for a in actions if a.seat == table.seat_of(world.alice.id).seat)
    since = [a for a in actions if a.seq > mine]
    assert len(lines) - 1 >= len(since)  # a line at least for each action since hers
    lately = " ".join(f["value"] for f in panel.embeds[0].to_dict()["fields"])
    assert "bob lets the attack through" in lately
    assert option_values(panel) and not panel.embeds[0].description.startswith("Not your")
    assert len(world.edits_of(panel, sent)) == 1  # redrawn once, through its own token

    # alice ends her turn; 15 minutes on, her panel's token has lapsed: when the turn
    # comes round it is not redrawn (she opens a new one).
    await world.alice.slash(world.channel, "play", action="end")
    await world.env.advance_time(15 * 60)
    sent = len(world.env.http_requests)
    await world.bob.slash(world.channel, "play", action="end")
    assert await world.to_act() == [world.alice]
    assert not any(r.path.endswith("/@original") for r in world.env.http_requests[sent:])


async def test_an_older_panel_says_it_was_replaced_when_a_newer_one_opens(world: World) -> None:
    """Two /hand panels: the first one says a newer one replaced it and loses its menu,
    so nothing can be chosen from an out-of-date panel."""
    await world.start("command-of-nature", "2p", [world.alice, world.bob], seed=opening_seed())
    first = (await world.alice.slash(world.channel, "hand")).response
    assert first is not None and option_values(first)
    second = (await world.alice.slash(world.channel, "hand")).response
    assert second is not None
    await world.bot.panels.idle()
    assert first.content.startswith("🔁 This panel was replaced by a newer one")
    assert not first.components and not first.embeds
    assert second.embeds and not second.content.startswith("🔁")


# ------------------------------------------------- a panel follows decisions made elsewhere

UP_TO_DATE = "🔄 Up to date. From your last move on:"
SAFE_PUSHES = 15  # a Mystic Vale seed whose first Planting pushes 4 times without a Spoil


async def follows(world: World, player: simcord.MemberActor, panel: Any) -> None:
    """`panel` shows the player's decision as it stands: its menu carries their decision
    count (a choice from it is not out of date), and it says whom the table waits for
    when that is someone else."""
    table = await world.bot.matches.table(world.match_id or 0)
    seat = table.seat_of(player.id)
    assert seat is not None
    if option_values(panel):
        assert menu_id(panel).endswith(f":s{seat.decisions}"), (menu_id(panel), seat)
    waiting = panel.embeds[0].description.startswith("Not your decision now")
    assert waiting == (seat.seat not in table.to_act and bool(table.to_act))


async def with_a_quick_button(world: World, game: str) -> simcord.MemberActor:
    """A 2-player match played by /play (first choices) until the player whose turn it
    is has a quick button under the message calling them; that player."""
    await world.start(game, "2p", [world.alice, world.bob], seed=7)
    for _ in range(30):
        (player, *_) = await world.to_act()
        await world.bot.publisher.idle()
        if quick(await turn_message(world, player)):
            return player
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    raise AssertionError("no quick button came")


@pytest.mark.parametrize(
    ("game", "button"),
    [
        ("mystic-vale", "Stop and harvest"),
        ("command-of-nature", "End turn"),
        ("tooth-and-nail", "End your turn"),
    ],
)
async def test_an_open_panel_follows_a_quick_button_under_the_turn_message(
    world: World, game: str, button: str
) -> None:
    """The player's panel is open on their decision; they decide with the button under
    the message calling them instead. The panel is redrawn in place, through its own
    token: it shows the decision now (or whom the table waits for) with a menu that
    works, what the button did on top."""
    player = await with_a_quick_button(world, game)
    opened = await player.slash(world.channel, "hand")
    panel = opened.response
    assert panel is not None and option_values(panel)
    message = await turn_message(world, player)
    assert button in quick(message), quick(message)
    since = len(world.env.http_requests)
    await player.click(message, custom_id=quick(message)[button])
    await world.bot.panels.idle()
    assert len(world.edits_of(panel, since)) == 1
    lines = panel.content.splitlines()
    assert lines[0] == UP_TO_DATE, panel.content
    assert all(line.startswith("• ") for line in lines[1:]) and len(lines) > 1
    await follows(world, player, panel)
    if option_values(panel):  # still theirs (a Harvest): the redrawn menu takes a choice
        await player.select(panel, [option_values(panel)[0]], custom_id=menu_id(panel))
        assert panel.content.startswith("✅ "), panel.content


async def test_an_open_panel_follows_play_and_the_copy_in_dms(world: World) -> None:
    """A Mystic Vale Planting: the planter's panel is open; they push with /play, then
    stop from the copy of their view in their DMs. Each time the panel follows, and the
    Harvest is chosen from it."""
    await world.start("mystic-vale", "2p", [world.alice, world.bob], seed=SAFE_PUSHES)
    (planter,) = await world.to_act()
    panel = (await planter.slash(world.channel, "hand")).response
    assert panel is not None and "push" in option_values(panel)
    await planter.slash(world.channel, "play", action="push")
    await world.bot.panels.idle()
    assert panel.content.startswith(UP_TO_DATE) and "stop" in option_values(panel)
    await follows(world, planter, panel)

    await planter.click(panel, label="Send to my DMs")
    copy = planter.user.dm_channel.last_message
    assert copy is not None
    await planter.user.select(copy, ["stop"], custom_id=menu_id(copy))
    await world.bot.panels.idle()
    assert panel.content.startswith(UP_TO_DATE)
    await follows(world, planter, panel)
    assert option_values(panel)  # the Harvest
    await planter.select(panel, [option_values(panel)[0]], custom_id=menu_id(panel))
    assert panel.content.startswith("✅ "), panel.content


async def test_two_open_panels_follow_each_other(world: World) -> None:
    """A panel whose answer can no longer be edited is not marked replaced when a newer
    one opens, and its menu comes back to life once used: then both are open. A choice
    on either one redraws the other; the one chosen on shows its own outcome."""
    await world.start("mystic-vale", "2p", [world.alice, world.bob], seed=SAFE_PUSHES)
    (planter,) = await world.to_act()
    first = (await planter.slash(world.channel, "hand")).response
    assert first is not None
    await world.env.advance_time(15 * 60)
    second = (await planter.slash(world.channel, "hand")).response
    assert second is not None
    await world.bot.panels.idle()
    assert not first.content.startswith("🔁")  # too old to be edited
    await planter.click(first, label="Refresh")

    since = len(world.env.http_requests)
    await planter.select(first, ["push"], custom_id=menu_id(first))
    await world.bot.panels.idle()
    assert first.content.startswith("✅ ") and not world.edits_of(first, since)
    assert second.content.startswith(UP_TO_DATE)
    await follows(world, planter, second)

    since = len(world.env.http_requests)
    await planter.select(second, ["stop"], custom_id=menu_id(second))
    await world.bot.panels.idle()
    assert second.content.startswith("✅ ") and not world.edits_of(second, since)
    assert first.content.startswith(UP_TO_DATE)
    await follows(world, planter, first)


async def test_an_open_panel_follows_a_game_s_own_command_and_a_dispute(world: World) -> None:
    """Historia: each player's panel is open; alice reports with `/historia`, bob disputes
    it with the button under the report. Each one's panel follows their own move."""
    await world.start("historia-command", "2p", [world.alice, world.bob], seed=7)
    for player, name in ((world.alice, "Greeks"), (world.bob, "Carthage")):
        await player.slash(world.channel, "historia civilization", name=name)
    await world.alice.slash(world.channel, "historia begin")
    alices = (await world.alice.slash(world.channel, "hand")).response
    bobs = (await world.bob.slash(world.channel, "hand")).response
    assert alices is not None and bobs is not None

    await world.alice.slash(world.channel, "historia territory add", name="Sicily")
    await world.bot.panels.idle()
    assert alices.content.startswith(UP_TO_DATE), alices.content
    assert "Sicily" in alices.content  # her report's line
    await follows(world, world.alice, alices)
    assert not bobs.content  # his decisions did not move

    await world.bot.publisher.idle()
    report = await turn_message(world, world.bob)
    await world.bob.click(report, label="Dispute #1")
    await world.bot.panels.idle()
    assert bobs.content.startswith(UP_TO_DATE), bobs.content
    await follows(world, world.bob, bobs)


async def test_back_to_you_tells_the_ai_s_turn_from_its_start(world: World) -> None:
    """Tooth & Nail against the AI: alice ends her turn with her panel open, the AI plays
    its turn, and her panel, redrawn as the decision comes back, tells every line from
    her move on, in order: the AI's turn, its draw and its AP (what the game did by
    itself as her turn ended) before the AI's own moves."""
    opened = await world.alice.slash(
        world.channel, "match new", game="tooth-and-nail", seed=3, ai="easy"
    )
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    await world.alice.click(opened.response, label="Start")
    for _ in range(20):
        await world.bot.players.settled()
        offered = [
            o["value"] for o in await world.alice.autocomplete(world.channel, "play", "action", "")
        ]
        if "end" in offered:
            break
        await world.alice.slash(world.channel, "play", action=offered[0])
    else:
        raise AssertionError("alice never had a turn to end")
    panel = (await world.alice.slash(world.channel, "hand")).response
    assert panel is not None
    await world.alice.slash(world.channel, "play", action="end")
    await world.bot.players.settled()
    await world.bot.panels.idle()
    assert await world.to_act() == [world.alice]

    table = await world.bot.matches.table(world.match_id)
    seat = table.seat_of(world.alice.id)
    assert seat is not None
    actions = await world.bot.store.matches.actions(world.match_id)
    ended = max(i for i, a in enumerate(actions) if a.seat == seat.seat)
    told = [
        text
        for a in actions[ended:]
        for e in saved_events(a.events)
        if (text := e.text_for(seat.seat))
    ]
    ai = re.escape(table.user_of(1 - seat.seat).name)
    assert told[0].startswith("alice ends their turn"), told
    assert re.fullmatch(rf"Turn \d+: {ai} is the Alpha player\.", told[1]), told
    assert re.fullmatch(rf"{ai} draws \d+ cards?\.", told[2]), told
    assert re.fullmatch(rf"{ai} gains \d+ AP\.", told[3]), told
    lines = panel.content.splitlines()
    assert lines[0] == "🔔 Back to you. From your last move on:"
    assert lines[1:] == [f"• {line}" for line in told]
