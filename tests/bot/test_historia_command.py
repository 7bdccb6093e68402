"""Historia: The Ways of Command through the real bot. The table reports what it plays
with `/historia` (civilizations named, territories, levels, cubes, turns); Arbiter
decides who may activate a Command token. A 3-civilization Era (a tie refusing an
activation with the rule, one accepted, a report disputed with the Dispute button, the
match paused, the report taken back, another dispute withdrawn, the turns, the Era's
end and its summary); a whole 2-civilization game through the three Eras to the result
agreed; the posted board and `/hand` checked against the game's state as it goes;
pings that say what to do, and none during an Era, when no clock runs; outsiders,
reporters and forged or stale Dispute buttons refused without change; the Dispute
button kept after a restart and under the latest report; `/mod undo` of a report; a
6-civilization board with long names within Discord's limits."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
import simcord

from bot.render import board_embed, private_embed
from bot.render.generic import clip
from bot.service.store import SeatRow
from bot.service.tables import PrivateView, Table
from bot.ui.table import DisputeButton
from rules.core import Action, SeatSpec, rng_for
from rules.historia_command import GAME as HC
from rules.historia_command import State
from rules.historia_command.standings import CATEGORY_NAMES, eligible_by, level, standings, why_not
from tests.bot.test_render import table as sample_table
from tests.bot.world import World, answered, custom_ids, option_values

EMBED_LIMIT = 6000
PAUSED = "Paused by "
OWN = "Report #{n} is yours: if it is wrong, take it back with `/historia retract report:{n}`."
STALE = "This Dispute button is out of date (report #{n} is no longer the latest report"
PLACES = {
    "supply": "personal supply",
    "bank": "Bank",
    "used": "Used Pool",
    "reserve": "reserve",
    "map": "map",
}


# ------------------------------------------------------------------ reading the game


def said(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer: its last follow-up, else its response."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content


async def report(world: World, player: simcord.MemberActor, command: str, **options: Any) -> str:
    """`/historia <command>` by `player`: what they were told, privately."""
    return said(await player.slash(world.channel, f"historia {command}", **options))


async def done(world: World, player: simcord.MemberActor, command: str, **options: Any) -> str:
    """A report that must be accepted."""
    answer = await report(world, player, command, **options)
    assert answer.startswith("✅ "), (command, options, answer)
    return answer


def fetch(world: World, message_id: int) -> discord.Message:
    """A message of the game channel as it is now."""
    return next(m for m in world.channel.history(viewer=world.eve) if m.id == message_id)


def dispute_ids(message: Any) -> list[str]:
    return [c for c in custom_ids(message) if c.startswith("arbiter:dispute:")]


async def turn_message(world: World) -> discord.Message:
    """The message carrying the current turn's lines."""
    current = await world.bot.store.matches.turn_message(world.match_id or 0)
    assert current is not None
    return next(m for m in world.channel.history(viewer=world.eve) if m.id == current.message_id)


def field(embed: discord.Embed, start: str) -> tuple[str, str]:
    found = [f for f in embed.fields if (f.name or "").startswith(start)]
    assert found, (start, [f.name for f in embed.fields])
    return found[0].name or "", found[0].value or ""


def has_field(embed: discord.Embed, start: str) -> bool:
    return any((f.name or "").startswith(start) for f in embed.fields)


# ------------------------------------------------------------------ the board and /hand


def civ_title(civ: Any, *, you: bool = False) -> str:
    """How a civilization's field is titled: its name and player, or that it has none."""
    if not civ.name:
        return f"{'You — ' if you else ''}{civ.player} — no civilization named yet"
    return f"🏛️ {'You — ' if you else ''}{civ.name} ({civ.player})"


def check_standings(value: str, state: State) -> None:
    """Each category from first to last: the one alone in first marked 🥇, the one alone
    in last 🔻, ties said as ties."""
    lines = value.splitlines()
    for category, row in standings(state).items():
        line = next(x for x in lines if x.startswith(f"**{CATEGORY_NAMES[category]}**: "))
        names = {s: state.civ(s).name for s in row.values}
        if len(set(row.values.values())) == 1:
            assert "all tied at" in line and "no leader" in line, line
            continue
        if len(row.first) == 1:
            (top,) = row.first
            assert f"🥇 {names[top]} {row.values[top]}" in line, line
        else:
            assert "(tied for first: no leader)" in line, line
            assert "🥇" not in line
        if len(row.last) == 1:
            (bottom,) = row.last
            assert f"🔻 {names[bottom]} {row.values[bottom]}" in line, line
        else:
            assert "(tied for last)" in line, line
        for seat, value in row.values.items():
            assert f"{names[seat]}" in line and f" {value}" in line


def check_civ(value: str, state: State, seat: int) -> None:
    """A civilization's field: its token (eligible now, or why not, or its power), its
    territories with the shared ones marked, its levels with Command's +2, its cubes."""
    civ = state.civ(seat)
    token = civ.token
    assert f"🪙 **Token {CATEGORY_NAMES[token.symbols[0]]} & " in value
    if token.status == "active":
        assert "⚡ **" in value and "until the end of the Era" in value
    elif token.status == "removed":
        assert "used in an earlier Era" in value
    elif state.phase == "era":
        by = eligible_by(state, seat)
        if by is None:
            assert f"🔒 not now: {why_not(state, seat)}" in value, value
        else:
            assert "✅" in value and f"first in {CATEGORY_NAMES[by]}" in value
    count = len(civ.territories)
    if count == 0:
        assert "🗺️ no territory" in value
    else:
        assert f"🗺️ {count} territor{'y' if count == 1 else 'ies'}" in value
    shared = {
        t for t in civ.territories if any(t in o.territories for o in state.civs if o.seat != seat)
    }
    for territory in civ.territories:
        assert (f"{territory} ⇄" if territory in shared else territory) in value
    for track, icon in (("military", "⚔️"), ("technology", "🔬")):
        base, now = civ.levels[track], level(civ, track)
        shown = f"{icon} {CATEGORY_NAMES[track]} {base}"
        if now != base:
            shown += f" +{now - base} Command = **{now}**"
        assert shown in value, (shown, value)
    held = [f"{PLACES[p]} {civ.cubes[p]}" for p in PLACES if civ.cubes[p]]
    held += ["Command token 1"] if token.status == "active" else []  # its cube
    assert f"🧊 Cubes: {' · '.join(held)}\n" in value


def check_board(embed: discord.Embed, state: State) -> None:
    """The posted board against the state, within Discord's limits."""
    assert len(embed) <= EMBED_LIMIT and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    outcome = HC.outcome(state)
    if outcome is not None:
        assert embed.description == f"🏆 {outcome.text}"
    else:
        prompt = HC.view(state, None)["prompt"]
        assert embed.description == (f"▶️ {prompt}" if HC.to_act(state) else prompt)
    _, value = field(embed, "Standings — ")
    check_standings(value, state)
    for civ in state.civs:
        _, value = field(embed, civ_title(civ))
        check_civ(value, state, civ.seat)
    if state.reports:
        # The latest reports, each line whole (as many of the last five as fit).
        _, value = field(embed, "Recent reports")
        assert "…" not in value
        recent = state.reports[-5:]
        shown = [r for r in recent if f"`#{r.number}` " in value]
        assert shown and shown == recent[len(recent) - len(shown) :], value
        mark = {"disputed": "⚠️ disputed", "stands": "✅ stands", "retracted": "↩️ taken back"}
        for report in shown:
            line = next(x for x in value.splitlines() if x.startswith(f"`#{report.number}` "))
            assert report.text in line
            if report.status:
                assert mark[report.status] in line
    else:
        assert not has_field(embed, "Recent reports")
    assert has_field(embed, "⚠️ Paused — report #") == (state.dispute is not None)
    if state.dispute is not None:
        assert has_field(embed, f"⚠️ Paused — report #{state.dispute.report} is disputed")
    assert not has_field(embed, "Lately")  # the numbered reports say it


def check_hand(private: Any, state: State, seat: int) -> None:
    """/hand against the state: what the game asks (or where the table is), the player's
    civilization, the standings, the menu with every legal action and what it does."""
    embed = private.embeds[0]
    assert len(embed) <= EMBED_LIMIT
    question = HC.question(state, seat)
    to_act = HC.to_act(state)
    if question is not None:
        assert embed.description == f"**{question[:1].upper()}{question[1:]}**"
    elif not to_act:
        assert embed.description == HC.view(state, None)["prompt"]
        assert "waiting for" not in (embed.description or "").casefold()
    civ = state.civ(seat)
    _, value = field(embed, civ_title(civ, you=True))
    check_civ(value, state, seat)
    _, standing = field(embed, "Standings — ")
    check_standings(standing, state)
    legal = HC.legal_actions(state, seat)
    assert option_values(private) == [a.key for a in legal[:25]]
    menu = [
        o
        for row in private.components
        for c in row["components"]
        if c["type"] == 3
        for o in c["options"]
    ]
    for option, action in zip(menu, legal, strict=False):
        assert option["label"] == clip(HC.describe(action, state), 100)


async def look(world: World, *players: simcord.MemberActor) -> State:
    """Check the posted board, and each player's /hand, against the state."""
    state = await world.state()
    check_board((await world.full_board(world.eve)), state)
    table = await world.bot.matches.table(world.match_id or 0)
    for player in players:
        seat = table.seat_of(player.id)
        assert seat is not None
        private = (await player.slash(world.channel, "hand")).response
        assert private is not None and private.ephemeral
        check_hand(private, state, seat.seat)
    return state


async def named_table(
    world: World, players: list[simcord.MemberActor], names: list[str], seed: int = 7
) -> State:
    """A match started, each civilization named with `/historia civilization`, Era I
    begun by the host."""
    await world.start(HC.id, f"{len(players)}p", players, seed=seed)
    for player, name in zip(players, names, strict=True):
        await done(world, player, "civilization", name=name)
    await done(world, players[0], "begin")
    return await world.state()


# ------------------------------------------------------------------ a three-civilization Era


async def test_a_three_civilization_era_through_the_real_bot(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    await world.start(HC.id, "3p", [alice, bob, carol])
    # The set-up: each player is called to name their civilization.
    opening = world.public()[-1]
    lines = opening.content.splitlines()
    state = await world.state()
    for seat, player in enumerate((alice, bob, carol)):
        asked = HC.question(state, seat)
        assert asked is not None and "`/historia civilization`" in asked
        assert f"➡️ {player.mention}, {asked}" in lines
    assert world.posts()[-1]["allowed_mentions"]["users"] == sorted(
        p.id for p in (alice, bob, carol)
    )
    await look(world, alice, bob)

    assert (await done(world, alice, "civilization", name="Greeks")) == (
        "✅ Your civilization is the Greeks."
    )
    taken = await report(world, bob, "civilization", name="greeks")
    assert taken == "alice plays Greeks already."
    await done(world, bob, "civilization", name="Egyptians")
    early = await report(world, alice, "begin")
    assert early == "Every civilization needs a name first (waiting for carol)."
    since = len(world.env.http_requests)
    await done(world, carol, "civilization", name="Persians")
    # Everyone is named: the host is called to begin, in a new message that pings her.
    (called,) = world.posts(since)
    assert called["allowed_mentions"]["users"] == [alice.id]
    asked = HC.question(await world.state(), 0)
    assert asked is not None and "begin Era I" in asked
    assert called["content"].splitlines()[-1] == f"➡️ {alice.mention}, {asked}"
    # Tokens: the host sets anyone's, a player only their own.
    refused = await report(world, bob, "token", symbols="territory-military", civilization="0")
    assert refused == "Only the host sets another civilization's token."
    offered = await alice.autocomplete(world.channel, "historia token", "civilization", "pers")
    assert offered == [
        {"name": "Persians (carol) — token now Technology & Territory", "value": "2"}
    ]
    await done(world, alice, "token", symbols="territory-military", civilization="2")
    assert (await world.state()).civ(2).token.symbols == ("territory", "military")
    await done(world, carol, "token", symbols="technology-territory")
    assert (await report(world, bob, "begin")) == "The host, alice, begins the first Era."
    await done(world, alice, "begin")

    # The Era: nobody is called, and nothing says "waiting for".
    state = await look(world, alice, bob, carol)
    assert HC.to_act(state) == set() and state.phase == "era"
    era_line = await turn_message(world)
    assert "➡️" not in era_line.content.splitlines()[-1]
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None and status.response.content == ""
    assert "waiting for" not in (status.response.embeds[0].description or "").casefold()

    # Reports: Greeks and Egyptians tie for first in Territory (Attica shared).
    await done(world, alice, "territory add", name="Attica")
    await done(world, alice, "territory add", name="Macedonia")
    offered = await bob.autocomplete(world.channel, "historia territory add", "name", "att")
    assert offered == [
        {"name": "Attica — shared with Greeks", "value": "Attica"},
        {"name": "att — a new territory (nobody holds it)", "value": "att"},
    ]
    await done(world, bob, "territory add", name="Nile")
    await done(world, bob, "territory add", name="Attica")
    await done(world, carol, "territory add", name="Persis")
    await done(world, alice, "level", track="military", value=3)
    await done(world, bob, "level", track="military", value=4)
    await done(world, alice, "cubes", count=2, **{"from": "supply", "to": "used"})
    await done(world, bob, "cubes", count=1, **{"from": "supply", "to": "used"})
    state = await look(world, alice, bob)
    assert state.civ(1).territories == ["Nile", "Attica"]
    board = await world.full_board(world.eve)
    _, shared = field(board, "Shared territories")
    assert shared.startswith("⇄ **Attica** — Greeks & Egyptians")
    # A report's public line starts with its number, as the Dispute button names it.
    latest = state.reports[-1]
    assert (await turn_message(world)).content.splitlines()[-1].startswith(f"`#{latest.number}` 🧊")

    # The Greeks' token is blocked by the tie: the menu offers nothing, the rule is cited.
    offered = await alice.autocomplete(world.channel, "historia command", "power", "")
    reason = why_not(state, 0)
    assert reason.startswith("tied for first in Territory with Egyptians (2); not first in")
    assert [o["name"] for o in offered] == [clip(f"Not now: {reason}", 100)]
    version = (await world.match()).version
    refused = await report(world, alice, "command", power=offered[0]["value"])
    assert refused == f"Your token is blocked: {reason}."
    typed = await report(world, alice, "command", power="military")
    assert typed.endswith(f"isn't possible now: Your token is blocked: {reason}.")
    assert (await world.match()).version == version  # nothing changed

    # The Egyptians lead Military alone: their menu offers each power, with what it does.
    offered = await bob.autocomplete(world.channel, "historia command", "power", "")
    legal = [a.key for a in HC.legal_actions(state, 1) if a.kind in ("command", "vouch")]
    assert [o["value"] for o in offered] == legal[:25] and legal
    military = next(o for o in offered if o["value"] == "command|military|used")
    label = HC.describe(Action.from_key("command|military|used"), state)
    assert label.startswith("Command: +2 Military") and military["name"].startswith(label)
    await done(world, bob, "command", power="command|military|used")
    state = await look(world, bob)
    assert state.civ(1).token.status == "active" and level(state.civ(1), "military") == 6
    activation = state.reports[-1]
    lines = (await turn_message(world)).content
    assert f"`#{activation.number}` 🪖 Egyptians activate their Command token" in lines

    # The Dispute button sits under the report: refused to its reporter and to outsiders.
    message = await turn_message(world)
    (button,) = dispute_ids(message)
    assert button == f"arbiter:dispute:{world.match_id}:1:{activation.number}:1"
    mine = await bob.click(message, custom_id=button)
    assert said(mine).startswith(OWN.format(n=activation.number))
    outsider = await world.eve.click(message, custom_id=button)
    assert said(outsider) == "You are not playing in this match."
    assert await world.state() == state
    since = len(world.env.http_requests)
    pressed = await carol.click(message, custom_id=button)
    assert said(pressed).startswith(f"✅ You disputed report #{activation.number}: ")
    state = await look(world, alice, bob, carol)
    assert state.phase == "dispute" and state.dispute is not None
    # The disputer is called; the button is gone.
    (called,) = world.posts(since)
    assert called["allowed_mentions"]["users"] == [carol.id]
    asked = HC.question(state, 2)
    assert asked is not None and f"#{activation.number}" in asked
    assert called["content"].splitlines()[-1] == f"➡️ {carol.mention}, {asked}"
    assert dispute_ids(await turn_message(world)) == []
    assert dispute_ids(fetch(world, message.id)) == []  # it came off the report's message
    copy = await post_button(world, DisputeButton(world.match_id or 0, 1, activation.number, 1))
    again = await alice.click(copy, custom_id=button)  # as a message not edited would keep it
    assert said(again).startswith(STALE.format(n=activation.number))
    # Paused: another report, a turn, are refused with the pause's sentence.
    paused = await report(world, alice, "territory add", name="Thrace")
    assert paused.startswith(PAUSED) and "`/historia retract`" in paused
    assert (await report(world, alice, "turn")).startswith(PAUSED)
    assert (await world.state()) == state
    hand = (await bob.slash(world.channel, "hand")).response
    assert hand is not None
    assert (hand.embeds[0].description or "").startswith(
        f"**Your report #{activation.number} is disputed by carol.** If it was wrong, take it "
        "back with `/historia retract`"
    )
    assert "It is your report: take it back with `/historia retract`." in "\n".join(
        f.value or "" for f in hand.embeds[0].fields
    )
    # The Egyptians take it back: the token is face up, its cube back in the Used Pool.
    refused = await report(world, alice, "retract")
    assert refused == "Only bob, who made the report, takes it back."
    await done(world, bob, "retract")
    state = await look(world, alice, bob, carol)
    assert state.phase == "era" and state.civ(1).token.status == "available"
    assert state.civ(1).cubes["used"] == 1 and level(state.civ(1), "military") == 4
    assert state.report(activation.number).status == "retracted"  # type: ignore[union-attr]

    # Another dispute, by command, withdrawn: the report stands.
    await done(world, carol, "level", track="technology", value=2)
    offered = await alice.autocomplete(world.channel, "historia dispute", "report", "")
    numbers = [o["value"] for o in offered]
    disputed = str(state.reports[-1].number + 1)
    assert numbers[-1] == disputed
    await done(world, alice, "dispute", report=f"#{disputed}")
    assert (await report(world, carol, "withdraw")) == (
        "Only alice, who raised the dispute, withdraws it."
    )
    await done(world, alice, "withdraw")
    state = await look(world, carol)
    assert state.report(int(disputed)).status == "stands"  # type: ignore[union-attr]

    # The turns, then the end of the Era with its summary.
    early = await report(world, bob, "era-end")
    assert early.startswith("An Era has 4 turns and this is turn 1")
    for turn in (2, 3, 4):
        since = len(world.env.http_requests)
        await done(world, (alice, bob, carol)[turn % 3], "turn")
        # a new turn starts a message of its own (the board may move down above it)
        (sent,) = [p for p in world.posts(since) if p.get("content")]
        assert sent["content"].startswith("`#")
        assert f"🔄 Turn {turn} of 4 begins" in sent["content"].splitlines()[0]
        assert sent["allowed_mentions"] == {"parse": []}  # nobody is pinged
    assert (await report(world, alice, "turn")).startswith("This is turn 4 of 4")
    state = await look(world, alice)
    # The end of the Era takes effect once the others agree: each is called to answer.
    since = len(world.env.http_requests)
    await done(world, carol, "era-end")
    state = await look(world, alice, bob, carol)
    assert state.phase == "ending" and HC.to_act(state) == {0, 1}
    (called,) = world.posts(since)
    assert called["allowed_mentions"]["users"] == sorted([alice.id, bob.id])
    _, ending = field((await world.full_board(world.eve)), "⏳ End of Era I reported")
    assert "Waiting for: alice, bob" in ending
    assert (await report(world, alice, "turn")).startswith("The end of Era I waits for alice")
    await done(world, alice, "agree")
    await done(world, bob, "agree")
    state = await look(world, alice, bob, carol)
    assert (state.era, state.turn, state.phase) == (2, 1, "era")
    summary = (await turn_message(world)).content
    assert "⏳ **End of Era I.**" in summary
    assert "Era I summary — Command: no token was activated." in summary
    assert "Era II begins, turn 1." in summary
    board = await world.full_board(world.eve)
    assert not has_field(board, "Recent reports")  # the Era's reports are settled
    _, past = field(board, "Command tokens used in past Eras")
    assert past == "Era I: no token activated"
    assert await world.bot.matches.verify(world.match_id or 0)


# ------------------------------------------------------------------ a whole game


@pytest.mark.engines
async def test_a_two_civilization_game_through_three_eras_to_the_result(world: World) -> None:
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    for era in (1, 2, 3):
        # Era I the Greeks lead Territory alone and activate their token; Era II Carthage
        # leads Technology and activates theirs; Era III both tokens are out of the game.
        leader, other = (alice, bob) if era % 2 else (bob, alice)
        seat = 0 if leader is alice else 1
        if leader is alice:  # the Greeks' token: Territory & Military
            for n in range(era + 1):
                await done(world, leader, "territory add", name=f"Land {era}-{n}")
        else:  # Carthage's: Military & Technology
            await done(world, leader, "level", track="technology", value=era + 1)
        await done(world, leader, "cubes", count=1, **{"from": "supply", "to": "reserve"})
        power = ("technology", "military", "cubes")[era - 1]
        offered = await leader.autocomplete(world.channel, "historia command", "power", power)
        if era < 3:
            key = f"command|{power}|reserve"
            assert key in [o["value"] for o in offered]
            await done(world, leader, "command", power=key)
            state = await look(world, alice, bob)
            assert state.civ(seat).token.status == "active"
        else:
            assert [o["name"] for o in offered] == [
                "Not now: your token was used in an earlier Era (out of the game)"
            ]
            refused = await report(world, leader, "command", power=offered[0]["value"])
            assert refused == "Your token was used in an earlier Era and is out of the game."
        for _ in range(3):
            await done(world, other, "turn")
        await done(world, other, "era-end")
        await done(world, leader, "agree")
        state = await look(world, alice, bob)
        assert state.civ(seat).token.status == "removed"
        for track in ("military", "technology"):  # the +2 lapsed
            assert level(state.civ(seat), track) == state.civ(seat).levels[track]  # type: ignore[arg-type]
    assert state.phase == "final" and HC.to_act(state) == set()
    board = await world.full_board(world.eve)
    assert board.description == "The last Era is over — report who won (`/historia result`)"
    _, past = field(board, "Command tokens used in past Eras")
    assert past.splitlines() == [
        "Era I: Greeks: +2 Technology",
        "Era II: Carthage: +2 Military",
        "Era III: no token activated",
    ]
    # The result: reported, objected to, reported again, agreed.
    offered = await alice.autocomplete(world.channel, "historia result", "winner", "")
    assert offered == [
        {"name": "Greeks (alice) won", "value": "result|0"},
        {"name": "Carthage (bob) won", "value": "result|1"},
        {"name": "Shared win: Greeks and Carthage (alice, bob)", "value": "result|0|1"},
    ]
    since = len(world.env.http_requests)
    await done(world, alice, "result", winner="result|0")
    (called,) = world.posts(since)
    assert called["allowed_mentions"]["users"] == [bob.id]
    asked = HC.question(await world.state(), 1)
    assert asked is not None and "Greeks" in asked
    assert called["content"].splitlines()[-1] == f"➡️ {bob.mention}, {asked}"
    _, result = field((await world.full_board(world.eve)), "🏆 Result reported")
    assert "Waiting for: bob" in result
    await done(world, bob, "object")
    await done(world, bob, "result", winner="carthage")
    await done(world, alice, "agree")
    state = await world.state()
    assert state.phase == "over" and state.winners == [1]
    check_board((await world.full_board(world.eve)), state)
    assert world.public()[-1].content.splitlines()[-1] == (
        "🏆 The table agrees: Carthage won (bob). The channel is free for a new match."
    )
    assert dispute_ids(world.public()[-1]) == []
    assert await world.bot.matches.verify(world.match_id or 0)
    match = await world.match()
    assert match.status == "finished"
    # Notified: both to name, alice to begin, the leader of each Era to confirm its end,
    # each to answer a result, the winner; nobody during an Era.
    notified = [p["allowed_mentions"].get("users") for p in world.posts()]
    assert [n for n in notified if n] == [
        sorted([alice.id, bob.id]),
        [alice.id],
        [alice.id],
        [bob.id],
        [alice.id],
        [bob.id],
        [alice.id],
        [bob.id],
    ]
    assert "your turn" not in "\n".join(m.content for m in world.public())


# ------------------------------------------------------------------ pings and clocks


async def test_no_clock_runs_and_nobody_is_pinged_during_an_era(world: World) -> None:
    alice, bob = world.alice, world.bob
    await world.start(HC.id, "2p", [alice, bob])
    store = world.bot.store
    assert {d.seat for d in await store.clocks.deadlines(world.match_id or 0)} == {0, 1}
    await done(world, alice, "civilization", name="Greeks")
    await done(world, bob, "civilization", name="Carthage")
    await done(world, alice, "begin")
    assert await store.clocks.deadlines(world.match_id or 0) == []
    since = len(world.env.http_requests)
    await done(world, bob, "territory add", name="Sicily")
    version = (await world.match()).version
    await world.env.advance_time(30 * 24 * 3600)
    assert (await world.match()).version == version  # nobody timed out
    assert all("⏰" not in m.content and "⏳ <@" not in m.content for m in world.public())
    for sent in world.posts(since):
        assert sent["allowed_mentions"] == {"parse": []}
    # A dispute runs the disputer's clock; at its end the dispute is dropped.
    await done(world, alice, "dispute", report="1")
    assert {d.seat for d in await store.clocks.deadlines(world.match_id or 0)} == {0}
    await world.env.advance_time(2 * 24 * 3600)
    state = await world.state()
    assert state.phase == "era" and state.reports[-1].status == "stands"
    assert "⏰ alice's time ran out." in "\n".join(m.content for m in world.public())


async def test_the_turn_s_lines_go_on_below_and_the_dispute_button_follows(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    first = await turn_message(world)
    for n in range(12):
        await done(world, (alice, bob)[n % 2], "territory add", name=f"Isle {n}")
    messages = [m for m in world.public() if m.id >= first.id]
    assert len(messages) >= 2
    assert all(len(m.content.splitlines()) <= 8 for m in messages)
    # Only the newest carries the button, for the latest report.
    state = await world.state()
    assert [dispute_ids(m) for m in messages[:-1]] == [[]] * (len(messages) - 1)
    assert dispute_ids(messages[-1]) == [
        f"arbiter:dispute:{world.match_id}:1:{state.reports[-1].number}:{state.reports[-1].seat}"
    ]


# ------------------------------------------------------------------ refusals


async def test_outsiders_and_other_tables_are_refused(world: World) -> None:
    await named_table(world, [world.alice, world.bob], ["Greeks", "Carthage"])
    state = await world.state()
    assert (await report(world, world.eve, "territory add", name="Crete")) == (
        "You are not playing in this match."
    )
    assert (await report(world, world.alice, "level", track="military", value=99)) == (
        "A Military level is a whole number from 0 to 30."
    )
    assert (
        await report(world, world.alice, "cubes", count=11, **{"from": "supply", "to": "bank"})
    ) == ("A number of cubes is a whole number from 1 to 10.")
    assert await world.state() == state
    elsewhere = world.guild.create_text_channel("cards")
    await world.alice.slash(elsewhere, "match new", game="tooth-and-nail", variant="2p")
    answer = said(await world.alice.slash(elsewhere, "historia turn"))
    assert answer.startswith("This channel's match isn't a Historia table")


async def post_button(world: World, button: DisputeButton, channel: Any = None) -> discord.Message:
    """A message carrying one Dispute button, as an old or forged message might."""
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    where = channel or world.channel
    await world.bot.get_partial_messageable(where.id).send("A button", view=view)
    message = where.last_message
    assert message is not None
    return message


async def test_forged_and_stale_dispute_buttons_change_nothing(world: World) -> None:
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, alice, "territory add", name="Thrace")
    state = await world.state()
    mid = world.match_id or 0
    gone = "That button isn't from a match here, so nothing happened."
    cases = [
        (DisputeButton(2**64, 1, 2, 0), gone),
        (DisputeButton(mid, 1000, 2, 0), gone),
        (DisputeButton(mid, 1, 0, 0), gone),
        (DisputeButton(mid, 1, 10**7, 0), gone),
        (DisputeButton(mid, 1, 2, 1000), gone),
        (DisputeButton(mid + 1, 1, 2, 0), gone),
        (DisputeButton(mid, 1, 1, 0), STALE.format(n=1)),  # not the latest report
        (DisputeButton(mid, 2, 2, 0), STALE.format(n=2)),  # another Era's report #2
        (DisputeButton(mid, 1, 2, 1), STALE.format(n=2)),  # not bob's report
    ]
    for button, refusal in cases:
        message = await post_button(world, button)
        clicked = await bob.click(message, custom_id=button.item.custom_id)
        assert said(clicked).startswith(refusal), button.item.custom_id
    # A button naming this match, pressed in another server or in DMs, is refused too.
    other = world.env.create_guild("Elsewhere")
    there = other.create_text_channel("games")
    bob_there = other.add_member(bob.user)
    real = DisputeButton(mid, 1, 2, 0)
    message = await post_button(world, real, there)
    assert said(await bob_there.click(message, custom_id=real.item.custom_id)) == gone
    user = await world.bot.fetch_user(bob.id)
    view = discord.ui.View(timeout=None)
    view.add_item(DisputeButton(mid, 1, 2, 0))
    await user.send("A button", view=view)
    dm = bob.user.dm_channel.last_message
    assert dm is not None
    assert said(await bob.user.click(dm, custom_id=real.item.custom_id)) == gone
    assert await world.state() == state
    # The genuine one works.
    clicked = await bob.click(await turn_message(world), custom_id=real.item.custom_id)
    assert said(clicked).startswith("✅ You disputed report #2:")
    assert (await world.state()).phase == "dispute"


@pytest.mark.engines
async def test_a_restart_keeps_the_dispute_button_working(world: World, create_bot: Any) -> None:
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "level", track="technology", value=2)
    message = await turn_message(world)
    (button,) = dispute_ids(message)
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    clicked = await bob.click(message, custom_id=button)
    assert said(clicked).startswith("✅ You disputed report #1:")
    state = await world.state()
    assert state.phase == "dispute" and state.dispute is not None and state.dispute.by == 1


async def test_a_moderator_undoes_a_report_and_the_button_follows(world: World) -> None:
    alice, bob = world.alice, world.bob
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    before = await world.state()
    await done(world, bob, "level", track="military", value=5)
    undone = said(await mona.slash(world.channel, "mod undo"))
    assert undone == "The last action is undone."
    state = await world.state()
    assert state == before and state.civ(1).levels["military"] == 0
    check_board((await world.full_board(world.eve)), state)
    line = world.public()[-1]
    assert line.content.startswith(f"🛡️ ↩️ {mona.mention} undid the last action: ")
    assert "Carthage: Military 0 → 5." in line.content
    # The Dispute button of the report now latest is under the moderator's line.
    assert dispute_ids(line) == [f"arbiter:dispute:{world.match_id}:1:1:0"]
    assert await world.bot.matches.verify(world.match_id or 0)
    entries = await world.bot.store.log.entries(world.match_id or 0)
    assert any("undid action" in e.text and e.user_id == mona.id for e in entries)
    rows = await world.bot.matches.effective(world.match_id or 0)
    assert [(r.seat, r.user_id) for r in rows][-1] == (0, alice.id)  # each report: its player


# ------------------------------------------------------------------ the table's other faces


async def test_the_lobby_rules_and_help_offer_the_game(world: World) -> None:
    offered = await world.alice.autocomplete(world.channel, "match new", "variant", "", game=HC.id)
    assert [o["value"] for o in offered] == ["2p", "3p", "4p", "5p", "6p"]
    assert offered[0]["name"].startswith("2 civilizations — A Historia table of 2")
    shown = await world.alice.slash(world.channel, "rules", game=HC.id)
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.title == HC.name and embed.description == HC.rules_summary
    assert "**6p** — 6 civilizations" in (embed.fields[0].value or "")
    helped = (await world.alice.slash(world.channel, "help")).response
    assert helped is not None
    assert "**/historia**" in (helped.embeds[0].description or "")


def test_a_six_civilization_board_with_long_names_fits_discord() -> None:
    seats = [SeatSpec(seat=i, name=f"player{i}" * 3) for i in range(6)]
    state = HC.setup("6p", seats, {}, 1)
    step = 0

    def act(seat: int, key: str) -> None:
        nonlocal state, step
        step += 1
        state, _ = HC.apply(state, seat, Action.from_key(key), rng_for(1, step))

    for seat in range(6):
        act(seat, f"civ|{('The Long Named People Number ' + str(seat))[:32]}")
    act(0, "begin")
    for seat in range(6):
        for n in range(12):
            act(seat, f"territory|add|{('The Territory Of Far Reaches ' + str(n))[:32]}")
        act(seat, f"level|military|{seat + 1}")
        act(seat, f"level|technology|{seat + 1}")
        act(seat, "cubes|2|supply|reserve")
    act(5, "command|technology|reserve")
    sample = sample_table({}, 4)
    match = dataclasses.replace(sample.match, game=HC.id, variant="6p", options={})
    rows = [SeatRow(s, 100 + s, spec.name, s) for s, spec in enumerate(seats)]
    table = Table(match, rows, HC, HC.view(state, None), tuple(HC.to_act(state)), None)
    clock = ["⏰ someone decides by <t:1767312000:f> (<t:1767312000:R>)."]
    embed = board_embed(table, clock, ["x" * 300] * 5)
    assert len(embed) <= EMBED_LIMIT and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    names = [f.name or "" for f in embed.fields]
    assert names[0].startswith("Standings — Era I, turn 1 (") and names[-1] == "Clock"
    for title in ("Command powers in force", "Shared territories", "Recent reports"):
        assert has_field(embed, title), names
    for civ in state.civs:
        _, value = field(embed, civ_title(civ))
        assert "🗺️ 12 territories" in value  # counted, past the budget
        assert "⇄ shared:" in value  # the shared ones still named
        check_civ_levels = f"⚔️ Military {civ.levels['military']}"
        assert check_civ_levels in value
    for seat in range(6):
        pv = PrivateView(table, seat, HC.view(state, seat), [], ["y" * 300] * 8, 0)
        private = private_embed(pv)
        assert len(private) <= EMBED_LIMIT and len(private.fields) <= 25
