"""Historia: The Ways of Command through the real bot, continued: report numbers fixed
when committed (another Command's reports, an undo, a restart), what a newcomer met,
and the board within a phone's width (the table, its checks and helpers are
`test_historia_command.py`'s).
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import simcord

from rules.historia_command import GAME as HC
from rules.historia_command import State
from rules.historia_command.standings import level
from tests.bot.test_historia_command import (
    dispute_ids,
    done,
    field,
    look,
    named_table,
    report,
    said,
    turn_message,
)
from tests.bot.test_moderation import admin
from tests.bot.world import World, answered

# ------------------------------------------------------------------ numbers, fixed when committed


async def test_a_report_line_delivered_late_keeps_its_number(world: World) -> None:
    """A line's text is fixed when its change is committed: a report whose line is
    delivered after a later report still starts with its own number."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await world.bot.publisher.stop()  # the lines wait in the outbox
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "territory add", name="Sicily")
    await world.bot.publisher.start()
    await world.bot.publisher.idle()
    lines = "\n".join(world.public_lines()).splitlines()
    assert "`#1` 🗺️ Greeks add Attica (1 territory)." in lines
    assert "`#2` 🗺️ Carthage adds Sicily (1 territory)." in lines


async def test_the_match_log_numbers_reports_as_the_board_and_dispute_do(world: World) -> None:
    """One numbering: `/match log` shows each report with the number the board and the
    Dispute button give it, and no action numbers of its own."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "level", track="military", value=2)
    await done(world, alice, "dispute", report="2")
    shown = await world.eve.slash(world.channel, "match log")
    assert shown.response is not None
    log = (shown.response.embeds[0].description or "").splitlines()
    assert "`#1` 🗺️ Greeks add Attica (1 territory)." in log
    assert any(line.startswith("`#2` 📈 Carthage: Military 0 → 2.") for line in log), log
    assert any(line.startswith("⚠️ alice disputes report #2") for line in log), log
    assert not any(line.startswith(("`1`", "`2`", "`3`", "`4`", "`5`")) for line in log), log


async def test_the_not_now_suggestion_explains_and_never_activates_the_token(
    world: World,
) -> None:
    """A suggestion that explains never acts: picked after the standings changed (the
    token may be activated now), it still activates nothing and says what to do."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "cubes", count=2, **{"from": "supply", "to": "bank"})
    (suggestion,) = await alice.autocomplete(world.channel, "historia command", "power", "")
    assert suggestion["name"].startswith("Not now: ")
    blocked = await report(world, alice, "command", power=suggestion["value"])
    assert blocked.startswith("Your token is blocked: ")
    await done(world, alice, "territory add", name="Attica")  # first in Territory now
    version = (await world.match()).version
    answer = await report(world, alice, "command", power=suggestion["value"])
    assert answer == "Your token can be activated now: pick a power in `/historia command`."
    assert (await world.match()).version == version
    assert (await world.state()).civ(0).token.status == "available"


async def test_three_claims_on_one_shared_territory_read_as_three(world: World) -> None:
    """Three civilizations scoring the same shared territory by Command all claim it
    (not "both"), and cancel out."""
    alice, bob, carol = world.alice, world.bob, world.carol
    players = [alice, bob, carol]
    await named_table(world, players, ["Greeks", "Egyptians", "Persians"])
    for player in players:
        await done(world, player, "territory add", name="Gaul")
        await done(world, player, "cubes", count=1, **{"from": "supply", "to": "reserve"})
    await done(world, alice, "territory add", name="Attica")  # first in Territory
    await done(world, alice, "command", power="command|shared|reserve")
    await done(world, bob, "level", track="military", value=1)  # first in Military
    await done(world, bob, "command", power="command|shared|reserve")
    await done(world, carol, "level", track="technology", value=1)  # first in Technology
    await done(world, carol, "command", power="command|shared|reserve")
    _, shared = field((await world.full_board(world.eve)), "Shared territories")
    assert shared.splitlines()[0] == (
        "⇄ **Gaul** — Greeks, Egyptians & Persians: Greeks, Egyptians & Persians all claim "
        "it — they cancel out"
    )


async def test_a_reporter_takes_back_their_own_report(world: World) -> None:
    """A report its own reporter got wrong is taken back by them, no dispute needed:
    `/historia retract` suggests their recent reports, and the board strikes it out."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "territory add", name="Sicily")
    hand = (await alice.slash(world.channel, "hand")).response
    assert hand is not None
    assert "Your reports you may take back: #1 (`/historia retract report:`)" in "\n".join(
        f.value or "" for f in hand.embeds[0].fields
    )
    offered = await alice.autocomplete(world.channel, "historia retract", "report", "")
    assert offered == [
        {"name": "Take back your report #1: Greeks add Attica (1 territory).", "value": "1"}
    ]
    refused = await report(world, alice, "retract", report="2")
    assert refused == "Report #2 is bob's: dispute it if it is wrong."
    await done(world, alice, "retract", report="#1")
    state = await look(world, alice, bob)
    assert state.civ(0).territories == [] and state.phase == "era"
    assert state.report(1).status == "retracted"  # type: ignore[union-attr]
    assert "↩️ alice takes report #1 back." in (await turn_message(world)).content


def under_another_command(world: World, owners: dict[str, simcord.MemberActor]) -> list[str]:
    """The public lines naming a civilization (`owners`: whose it is) that sit under a
    command of someone else: a followup reads as "<user> used /historia"."""
    found = []
    for message in world.public():
        made = message.interaction_metadata
        for line in message.content.splitlines():
            civs = [civ for civ in owners if civ in line]
            if made is not None and len(civs) == 1 and owners[civs[0]].id != made.user.id:
                found.append(f"{made.user.name}: {line}")
    return found


async def test_a_report_never_appears_under_another_player_s_command(world: World) -> None:
    """Each report reads as its reporter's: another player's next command neither has it
    edited into the message it posted nor carries it as its followup (a line that had
    to wait goes out in the channel)."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    owners = {"Greeks": alice, "Carthage": bob}
    for n in range(4):
        await done(world, (alice, bob)[n % 2], "territory add", name=f"Isle {n}")
    assert under_another_command(world, owners) == []
    # Alice's answer and her line's delivery fail: the line waits, and bob reports.
    world.fail_posts(502, times=2)
    await alice.slash(world.channel, "historia territory add", name="Attica")
    await done(world, bob, "territory add", name="Sicily")
    await world.bot.publisher.idle()
    assert under_another_command(world, owners) == []
    told = "\n".join(world.public_lines())
    assert told.count("Greeks add Attica") == 1 and told.count("Carthage adds Sicily") == 1
    sicily = next(m for m in world.public() if "Carthage adds Sicily" in m.content)
    assert sicily.interaction_metadata is not None
    assert sicily.interaction_metadata.user.id == bob.id  # his own, through his command


async def test_each_command_is_acknowledged_as_what_happened_not_as_its_label(
    world: World,
) -> None:
    """A newcomer read "✅ Play Romans" as a button: each `/historia` command's private
    answer says what happened, addressed to its player."""
    alice, bob = world.alice, world.bob
    await world.start(HC.id, "2p", [alice, bob])

    async def told(player: simcord.MemberActor, command: str, **options: Any) -> str:
        return await done(world, player, command, **options)

    assert await told(alice, "civilization", name="Romans") == (
        "✅ Your civilization is the Romans."
    )
    assert await told(bob, "civilization", name="Carthage") == "✅ Your civilization is Carthage."
    assert await told(bob, "token", symbols="territory-military") == (
        "✅ Your Command token shows Territory & Military."
    )
    assert await told(alice, "begin") == "✅ Era I has begun: report what changes as you play."
    assert await told(alice, "territory add", name="Latium") == "✅ You hold Latium now."
    assert await told(alice, "territory remove", name="Latium") == ("✅ You no longer hold Latium.")
    assert await told(bob, "level", track="military", value=4) == (
        "✅ Your Military level is 4 now."
    )
    assert await told(bob, "cubes", count=1, **{"from": "supply", "to": "used"}) == (
        "✅ You moved 1 cube from your personal supply to the Used Pool."
    )
    assert (await told(bob, "command", power="command|military|used")).startswith(
        "✅ You activated your Command token: +2 Military"
    )
    number = (await world.state()).reports[-1].number
    assert await told(alice, "dispute", report=str(number)) == (
        f"✅ You disputed report #{number}: the match is paused until it is settled."
    )
    assert await told(alice, "withdraw") == "✅ You withdrew your dispute: the report stands."
    await done(world, alice, "territory add", name="Latium")
    number = (await world.state()).reports[-1].number
    assert await told(alice, "retract", report=str(number)) == f"✅ You took report #{number} back."
    assert await told(bob, "turn") == "✅ Turn 2 of 4 has begun."
    for _ in range(2):
        await done(world, bob, "turn")
    assert await told(bob, "era-end") == (
        "✅ You reported the end of Era I: the others are asked to agree."
    )
    assert await told(alice, "object") == "✅ You objected: Era I goes on."
    await done(world, bob, "era-end")
    assert await told(alice, "agree") == "✅ You agreed that Era I is over."


async def test_the_board_says_in_one_line_who_can_activate_now_and_why(world: World) -> None:
    """One line of the board's standings names every civilization that can activate its
    token now and by which categories, or says that none can."""
    alice, bob, carol = world.alice, world.bob, world.carol
    await named_table(world, [alice, bob, carol], ["Greeks", "Egyptians", "Persians"])
    _, standing = field((await world.full_board(world.eve)), "Standings — ")
    assert "🔒 **No token can be activated now** (each civilization's field says why)" in (
        standing.splitlines()
    )
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "level", track="military", value=2)
    _, standing = field((await world.full_board(world.eve)), "Standings — ")
    assert (
        "✅ **Can activate now**: Greeks (first in Territory, not last in Military) · "
        "Egyptians (first in Military, not last in Technology)"
    ) in standing.splitlines()


# ------------------------------------------------------------------ what a newcomer met (issue 21)


async def test_territory_add_suggests_the_territory_held_first_and_the_typed_name_below_as_new(
    world: World,
) -> None:
    """A typo doesn't make a new territory unnoticed: `territory add` suggests the
    territories others hold that fit the typed words first, and the typed name only
    below them, marked as a new territory (not at all when a civilization holds it)."""
    alice, bob, carol = world.alice, world.bob, world.carol
    await named_table(world, [alice, bob, carol], ["Greeks", "Carthage", "Persians"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, carol, "territory add", name="Attica")

    async def offered(player: simcord.MemberActor, typed: str) -> list[dict[str, str]]:
        return await player.autocomplete(world.channel, "historia territory add", "name", typed)

    shared = {"name": "Attica — shared with Greeks & Persians", "value": "Attica"}
    assert await offered(bob, "att") == [
        shared,
        {"name": "att — a new territory (nobody holds it)", "value": "att"},
    ]
    assert await offered(bob, " attica ") == [shared]  # held already: not offered as new
    assert await offered(bob, "Sicily") == [
        {"name": "Sicily — a new territory (nobody holds it)", "value": "Sicily"}
    ]
    assert await offered(alice, "attica") == []  # hers already: nothing to add
    assert await offered(alice, "att") == [
        {"name": "att — a new territory (nobody holds it)", "value": "att"}
    ]
    # The first suggestion picked shares the territory.
    picked = (await offered(bob, "att"))[0]["value"]
    await done(world, bob, "territory add", name=picked)
    assert (await world.state()).civ(1).territories == ["Attica"]


async def test_each_cubes_power_choice_is_described_with_the_cubes_its_label_names(
    world: World,
) -> None:
    """Label and description agree: in the /hand menu each choice of the cubes power is
    described with the number of cubes its label takes ("Take no cube…" is never
    described as "up to 2 of your cubes"). With no cube reported anywhere but the
    personal supply, each is offered on the player's word, its description first saying
    what Arbiter counts."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")  # first in Territory
    hand = (await alice.slash(world.channel, "hand")).response
    assert hand is not None
    menu = [
        o
        for row in hand.components
        for c in row["components"]
        if c["type"] == 3
        for o in c["options"]
        if o["value"].startswith(("command|cubes|", "vouch|cubes|"))
    ]
    assert len(menu) == 9  # 0, 1 or 2 cubes, the token's cube from each of 3 places
    taken = {0: "no cube", 1: "1 cube", 2: "2 cubes"}
    for option in menu:
        assert option["value"].startswith("vouch|"), "Arbiter counts none anywhere"
        n = int(option["value"].rsplit("|", 1)[1])
        label, detail = option["label"], option.get("description") or ""
        assert label.startswith(f"Command: Take {taken[n]} from the general supply"), label
        assert label.endswith(f" — my table has {'them' if n else 'it'}"), label
        assert detail.startswith("Arbiter counts 0 in "), (label, detail)
        assert f" · {taken[n]} " in detail, (label, detail)
        assert "up to" not in detail, (label, detail)


def activation(state: State, seat: int, rest: str) -> str:
    """The key of an activation (`rest`: its power, source and cubes) as the seat's menu
    offers it: as Arbiter counts the cubes, or on the player's word."""
    (key,) = [a.key for a in HC.legal_actions(state, seat) if a.key.endswith(f"|{rest}")]
    return key


async def test_the_boards_recent_reports_are_whole_lines_never_cut(world: World) -> None:
    """The board's recent reports show each report's line whole: when they don't all fit,
    fewer of them, the latest kept and the earlier ones pointed to in `/match log`;
    never a line cut with "…"."""
    alice, bob = world.alice, world.bob
    greeks, carthage = "The Hellenic Cities Of Antiquity", "The Many Peoples Of Old Carthage"
    land = "The Territory Of Far Reaches One"
    await named_table(world, [alice, bob], [greeks, carthage])
    await done(world, alice, "territory add", name=land)
    # Activations whose lines say where the cubes were counted: long lines.
    for source in ("reserve", "bank", "used"):
        key = activation(await world.state(), 0, f"cubes|{source}|2")
        await done(world, alice, "command", power=key)
        if source != "used":
            number = (await world.state()).reports[-1].number
            await done(world, alice, "retract", report=str(number))
    await done(world, bob, "territory add", name=land)
    state = await look(world, alice, bob)
    recent = state.reports[-5:]
    assert sum(len(r.text) for r in recent) > 1024  # more than a field holds
    _, value = field((await world.full_board(world.eve)), "Recent reports")
    assert "…" not in value
    shown = [r for r in recent if f"`#{r.number}` " in value]
    assert 0 < len(shown) < len(recent) and shown == recent[len(recent) - len(shown) :]
    for r in shown:
        assert r.text in value, (r.text, value)  # whole
    earlier = recent[: len(recent) - len(shown)]
    assert value.splitlines()[0] == (
        f"*Earlier: {', '.join(f'#{r.number}' for r in earlier)} — in `/match log`*"
    )


async def test_the_cubes_line_counts_the_cube_on_an_activated_token(world: World) -> None:
    """A civilization's cubes on the board, in /hand and in a cube move's line count the
    cube sitting on its activated token, so all ten are there; once the token leaves at
    the end of the Era, that cube is back where it came from."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, alice, "command", power="vouch|military|reserve")  # none counted there

    def cubes_of(value: str) -> str:
        return next(line for line in value.splitlines() if line.startswith("🧊 "))

    _, greeks = field((await world.full_board(world.eve)), "🏛️ Greeks (alice)")
    assert cubes_of(greeks) == "🧊 Cubes: personal supply 9 · Command token 1"
    hand = (await alice.slash(world.channel, "hand")).response
    assert hand is not None
    _, mine = field(hand.embeds[0], "🏛️ You — Greeks (alice)")
    assert cubes_of(mine) == "🧊 Cubes: personal supply 9 · Command token 1"
    await done(world, alice, "cubes", count=2, **{"from": "supply", "to": "used"})
    line = (await turn_message(world)).content.splitlines()[-1]
    assert line.endswith(
        "(personal supply 7, Bank 0, Used Pool 2, reserve 0, map 0, Command token 1)."
    ), line
    for _ in range(3):
        await done(world, alice, "turn")
    await done(world, alice, "era-end")
    await done(world, bob, "agree")
    state = await look(world, alice)
    _, greeks = field((await world.full_board(world.eve)), "🏛️ Greeks (alice)")
    assert cubes_of(greeks) == "🧊 Cubes: personal supply 7 · Used Pool 2 · reserve 1"
    assert sum(state.civ(0).cubes.values()) == 10


async def test_reports_are_numbered_once_for_the_whole_game(world: World) -> None:
    """Report numbers run on across the Eras, one numbering for the whole game: Era II's
    first report follows Era I's last on its line, on the board, on its Dispute button,
    in `/historia dispute` and `retract`, and in `/match log`, where no number is given
    twice."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")  # #1
    await done(world, bob, "territory add", name="Sicily")  # #2
    for _ in range(3):
        await done(world, alice, "turn")  # #3, #4, #5
    await done(world, alice, "era-end")
    await done(world, bob, "agree")
    assert (await world.state()).era == 2
    await done(world, alice, "level", track="military", value=2)
    lines = (await turn_message(world)).content.splitlines()
    assert "`#6` 📈 Greeks: Military 0 → 2." in lines, lines
    _, reports = field((await world.full_board(world.eve)), "Recent reports")
    assert reports.startswith("`#6` Greeks: Military 0 → 2."), reports
    assert dispute_ids(await turn_message(world)) == [f"arbiter:dispute:{world.match_id}:2:6:0"]
    offered = await bob.autocomplete(world.channel, "historia dispute", "report", "")
    assert [o["value"] for o in offered] == ["6"]
    offered = await alice.autocomplete(world.channel, "historia retract", "report", "")
    assert [o["value"] for o in offered] == ["6"]
    await done(world, alice, "level", track="technology", value=1)  # #7
    clicked = await bob.click(
        await turn_message(world), custom_id=dispute_ids(await turn_message(world))[0]
    )
    assert said(clicked).startswith("✅ You disputed report #7: ")
    await done(world, alice, "retract")
    await done(world, alice, "retract", report="6")
    state = await look(world, alice, bob)
    assert [(r.number, r.status) for r in state.reports] == [(6, "retracted"), (7, "retracted")]
    log = await whole_log(world)
    numbers = [line.split("`")[1] for line in log if line.startswith("`#")]
    assert numbers == [f"#{n}" for n in range(1, 8)], log


async def whole_log(world: World) -> list[str]:
    """Every line of `/match log`, its pages turned back to the first."""
    shown = await world.eve.slash(world.channel, "match log")
    message = shown.response
    assert message is not None
    pages = [message.embeds[0].description or ""]
    while not (message.embeds[0].footer.text or "").startswith("Log page 1 of"):
        await world.eve.click(message, label="Older")
        pages.insert(0, message.embeds[0].description or "")
    return "\n".join(pages).splitlines()


def saved_as_before_one_numbering(db_path: Path, match_id: int) -> None:
    """The match's snapshot as a release before reports were numbered once for the whole
    game saved it: without the count of reports."""
    with closing(sqlite3.connect(db_path)) as db:
        (snapshot,) = db.execute(
            "SELECT snapshot FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        old = json.loads(snapshot)
        del old["reported"]
        db.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (json.dumps(old), match_id))
        db.commit()


async def test_a_match_saved_before_one_numbering_numbers_on_and_can_be_undone(
    world: World, db_path: Path
) -> None:
    """Old matches stay readable and playable: a match saved before reports were numbered
    once for the game numbers its next report after its latest one, and its log still
    replays to its board, so a moderator can undo."""
    alice, bob = world.alice, world.bob
    mona = admin(world)
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "level", track="military", value=2)
    mid = world.match_id or 0
    saved_as_before_one_numbering(db_path, mid)
    await done(world, alice, "territory add", name="Thrace")
    assert "`#3` 🗺️ Greeks add Thrace (2 territories)." in (await turn_message(world)).content
    saved_as_before_one_numbering(db_path, mid)
    assert said(await mona.slash(world.channel, "mod undo")) == "The last action is undone."
    assert await world.bot.matches.verify(mid)
    await done(world, bob, "territory add", name="Sicily")
    state = await look(world, alice, bob)
    assert [r.number for r in state.reports] == [1, 2, 3]


PHONE = 120  # characters: three short lines on a phone


async def test_the_refusals_met_most_fit_a_phone_and_keep_their_reason(world: World) -> None:
    """The refusals a table meets most are a sentence a player reads on a phone, each
    still saying why: a token blocked (a tie for first, not first, last in the other
    category), a report while the match is paused or the end of the Era waits, a report
    of one's own disputed, one that can't be taken back, the "Not now" suggestion picked
    once the token can be activated."""
    alice, bob, carol = world.alice, world.bob, world.carol
    players = [alice, bob, carol]
    await named_table(world, players, ["Greeks", "Egyptians", "Persians"])
    refusals: list[tuple[str, tuple[str, ...]]] = []

    async def refused(player: simcord.MemberActor, command: str, *why: str, **options: Any) -> str:
        version = (await world.match()).version
        answer = await report(world, player, command, **options)
        assert (await world.match()).version == version, answer  # nothing changed
        refusals.append((answer, why))
        return answer

    # Territory: Greeks and Egyptians tied for first; Military: Egyptians first.
    await done(world, alice, "territory add", name="Attica")
    await done(world, bob, "territory add", name="Nile")
    await done(world, alice, "level", track="military", value=1)
    await done(world, bob, "level", track="military", value=3)
    await refused(
        alice,
        "command",
        "tied for first in Territory with Egyptians (1)",
        "not first in Military (1; Egyptians 3)",
        power="command",
    )
    # Persians first in Technology, but alone last in Territory (their other symbol).
    await done(world, carol, "level", track="technology", value=2)
    await refused(carol, "command", "last in Territory (0)", power="command")
    await done(world, alice, "territory add", name="Thrace")  # Greeks first in Territory
    await refused(alice, "command", "can be activated now", "/historia command", power="command")
    # A report of one's own disputed, or changed since: why not, and what to do instead.
    await done(world, bob, "level", track="military", value=4)
    n = (await world.state()).reports[-1].number
    message = await turn_message(world)
    mine = said(await bob.click(message, custom_id=dispute_ids(message)[0]))
    refusals.append((mine, (f"#{n} is yours", f"/historia retract report:{n}")))
    await done(world, bob, "level", track="military", value=5)
    await refused(bob, "retract", f"#{n}", "later report", report=str(n))
    # Paused by a dispute: who settles it, and how.
    await done(world, carol, "dispute", report=str(n + 1))
    await refused(
        alice,
        "territory add",
        "Paused",
        f"#{n + 1}",
        "bob",
        "carol",
        "/historia retract",
        "/historia withdraw",
        name="Gaul",
    )
    await done(world, carol, "withdraw")
    # The end of the Era reported: who it waits for.
    for _ in range(3):
        await done(world, alice, "turn")
    await done(world, alice, "era-end")
    await refused(bob, "turn", "Era I", "bob, carol", "/historia agree", "/historia object")
    for answer, why in refusals:
        assert len(answer) <= PHONE, (len(answer), answer)
        for words in why:
            assert words in answer, (words, answer)


def button_labels(message: Any) -> list[str]:
    """The labels of a message's buttons."""
    found = []
    for row in message.components:
        for c in row["components"] if isinstance(row, dict) else row.children:
            found.append((c.get("label") if isinstance(c, dict) else c.label) or "")
    return found


def cubes_of(value: str) -> str:
    """The cubes line of a civilization's field."""
    return next(line for line in value.splitlines() if line.startswith("🧊 "))


@pytest.mark.engines
async def test_the_cubes_power_with_an_empty_bank_and_reserve_takes_no_cube_silently(
    world: World,
) -> None:
    """The reviewer's table: the Greeks' cubes all in their personal supply (the Bank
    and the reserve at 0), the token can be activated. `/historia command` offers the
    cubes power with its cube from the Bank only on alice's word ("my table has
    them"), never as if Arbiter counted them; typed words naming it are refused and
    change nothing; picked, her reply, the public line and the board say in the open
    what Arbiter didn't count: the token's cube was one counted in her personal supply
    (10 -> 9) and the 2 cubes were in the general supply (added: 11)."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")  # first in Territory
    _, greeks = field(await world.full_board(world.eve), "🏛️ Greeks (alice)")
    assert cubes_of(greeks) == "🧊 Cubes: personal supply 10"
    offered = await alice.autocomplete(world.channel, "historia command", "power", "bank")
    values = [o["value"] for o in offered]
    assert "command|cubes|bank|2" not in values
    (two,) = [o for o in offered if o["value"] == "vouch|cubes|bank|2"]
    assert two["name"] == (
        "Command: Take 2 cubes from the general supply (its cube from the Bank) — my table has them"
    )
    # Typed words never give the player's word for them: refused, nothing changed.
    version = (await world.match()).version
    typed = await report(world, alice, "command", power="take 2 cubes bank")
    assert "Arbiter counts no cube of yours in the Bank (Used Pool 0, reserve 0)" in typed
    assert (await world.match()).version == version
    told = await done(world, alice, "command", power=two["value"])
    assert told == (
        "✅ You activated your Command token: Take 2 cubes from the general supply (its cube "
        "from the Bank). Arbiter counted no cube of yours in the Bank, and none of the 2 in "
        "the general supply: its count follows your word."
    )
    line = (await turn_message(world)).content.splitlines()[-1]
    assert line.endswith(
        "2 cubes from the general supply into their personal supply (now 11). Arbiter "
        "counted none of Greeks' cubes in the Bank: on their word, one counted in their "
        "personal supply is there. On their word, the general supply had 2 of Greeks' cubes "
        "that Arbiter didn't count (added to their count)."
    ), line
    state = await look(world, alice, bob)
    _, greeks = field(await world.full_board(world.eve), "🏛️ Greeks (alice)")
    assert cubes_of(greeks) == "🧊 Cubes: personal supply 11 · Command token 1"
    assert state.civ(0).added_cubes == 2 and state.civ(0).token.cube_from == "bank"


@pytest.mark.engines
async def test_a_cube_arbiter_counts_none_of_where_it_is_taken_is_asked_for(
    world: World,
) -> None:
    """alice picks the +2 Military suggestion she was offered while she had a cube in
    the Bank, after reporting it moved to the Used Pool: Arbiter counts none there now.
    Nothing is activated: she is asked, privately, where the cube comes from, a button
    for each place with Arbiter's count there (the Bank and her reserve on her word that
    her table has one). Her tap on the Used Pool activates the token; the question says
    what happened, its buttons gone, and the board counts the cube on the token. bob,
    asked the same of his empty reserve, answers that his table has one there: the line
    says so, and his count is corrected in the open."""
    alice, bob = world.alice, world.bob
    await named_table(world, [alice, bob], ["Greeks", "Carthage"])
    await done(world, alice, "territory add", name="Attica")  # first in Territory
    await done(world, alice, "cubes", count=1, **{"from": "supply", "to": "bank"})
    offered = await alice.autocomplete(world.channel, "historia command", "power", "military")
    stale = next(o["value"] for o in offered if o["value"] == "command|military|bank")
    await done(world, alice, "cubes", count=1, **{"from": "bank", "to": "used"})
    version = (await world.match()).version
    asked = await alice.slash(world.channel, "historia command", power=stale)
    (question,) = answered(asked)
    assert question.ephemeral
    assert question.content == (
        "🧊 **Where do the cubes come from?**\n"
        "Arbiter counts no cube of yours in the Bank (Used Pool 1, reserve 0): take the "
        "token's cube from another place, or say your table has one there."
    )
    assert button_labels(question) == [
        "Its cube from the Bank: my table has it (Arbiter counts 0)",
        "Its cube from the Used Pool (Arbiter counts 1)",
        "Its cube from your reserve: my table has it (Arbiter counts 0)",
    ]
    assert (await world.match()).version == version, "asking changes nothing"
    await alice.click(question, label="Its cube from the Used Pool (Arbiter counts 1)")
    shown = next(m for m in world.channel.history(viewer=alice) if m.id == question.id)
    assert shown.content == (
        "✅ You activated your Command token: +2 Military (its cube from the Used Pool)."
    )
    assert button_labels(shown) == []
    state = await look(world, alice, bob)
    assert state.civ(0).token.cube_from == "used" and level(state.civ(0), "military") == 2
    _, greeks = field(await world.full_board(world.eve), "🏛️ Greeks (alice)")
    assert cubes_of(greeks) == "🧊 Cubes: personal supply 9 · Command token 1"
    # bob: first in Technology, not last in Military, his reserve empty: his table has
    # one there.
    await done(world, bob, "level", track="technology", value=2)
    await done(world, bob, "level", track="military", value=3)
    asked = await bob.slash(world.channel, "historia command", power="command|technology|reserve")
    (question,) = answered(asked)
    mine = "Its cube from your reserve: my table has it (Arbiter counts 0)"
    assert mine in button_labels(question)
    await bob.click(question, label=mine)
    lines = (await turn_message(world)).content.splitlines()
    line = next(x for x in lines if "Carthage activates" in x)
    assert line.endswith(
        "a cube from its reserve on it: **+2 Technology**. Arbiter counted none of Carthage's "
        "cubes in its reserve: on its word, one counted in its personal supply is there."
    ), line
    state = await look(world, alice, bob)
    _, carthage = field(await world.full_board(world.eve), "🏛️ Carthage (bob)")
    assert cubes_of(carthage) == "🧊 Cubes: personal supply 9 · Command token 1"
    assert state.civ(1).token.cube_from == "reserve" and state.civ(1).added_cubes == 0
