"""What the table sees, through the real bot: every game drawn by its own renderer, the
private view headed by what the game asks, choices that explain themselves, refusals
that give the rules' reason, pings that say what to do (once), one public message per
turn, the last lines on the board, deadlines as Discord timestamps, and endings told
in the game's own words."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import pytest
import simcord

from bot.render import LATELY_FIELD, RENDERERS, private_embed, renderer_for
from bot.render.generic import Renderer, clip
from bot.service import outbox
from bot.service.store import TurnMessage
from bot.service.tables import ActResult, Choice, Table
from bot.ui.choices import choice_name
from rules.core import Game, Outcome
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered
from tests.conftest import BotFactory

TIMESTAMP = r"<t:(\d+):f> \(<t:\1:R>\)"  # an absolute time, then a relative one
TOOTH_AND_NAIL = (  # build both zones, attack once troops stand in the War Zone
    r"faction\|.*",
    r"keep\|yes",
    r"recharge\|draw",
    r"play\|.*",
    r"attack\|[^|]*\|none",
    r"end",
)


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


def answer(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral answer: its last follow-up, else its response."""
    messages = answered(result)
    assert messages and all(m.ephemeral for m in messages), "expected an ephemeral answer"
    return messages[-1].content


def headline(result: simcord.InteractionResult) -> str:
    assert result.response is not None and result.response.ephemeral
    return result.response.embeds[0].description or ""


# ------------------------------------------------------------- every game's own board


def test_every_game_has_a_renderer_of_its_own() -> None:
    for game_id in GAMES:
        assert game_id in RENDERERS, f"{game_id} has no renderer: register one in bot.render"
        assert type(RENDERERS[game_id]) is not Renderer, f"{game_id} uses the generic renderer"


VARIANTS = [(game.id, variant) for game in GAMES.values() for variant in game.variants]


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS)
async def test_each_game_and_variant_is_drawn_by_its_renderer_and_asks_the_decider(
    world: World, game_id: str, variant: str
) -> None:
    game = GAMES[game_id]
    players = [world.alice, world.bob, world.carol, world.dave, world.eve, world.frank]
    await world.start(game_id, variant, players[: game.variants[variant].min_players])
    table = await world.bot.matches.table(world.match_id or 0)
    # The board is its picture under a summary; the whole text board, with the legend
    # of its marks, is one tap away.
    glance = (await world.board()).embeds[0]
    renderer = renderer_for(game_id)
    assert glance.image.url == "attachment://board.png" and not glance.fields
    assert renderer.legend and renderer.legend not in (glance.footer.text or "")
    embed = await world.full_board(world.eve)
    assert renderer.legend in (embed.footer.text or "")
    drawn = [f.name for f in renderer.board_fields(table.view or {}, table.to_act)]
    assert [f.name for f in embed.fields][: len(drawn)] == drawn

    state = await world.state()
    for player in players[: game.variants[variant].min_players]:
        seat = table.seat_of(player.id)
        assert seat is not None
        shown = headline(await player.slash(world.channel, "hand"))
        question = game.question(state, seat.seat)
        if seat.seat in table.to_act:
            assert question, f"{game_id} {variant}: the decider is asked nothing"
            assert shown == f"**{question[:1].upper()}{question[1:]}**"
        else:
            assert question is None
            assert shown.startswith("Not your decision now — ")


# ------------------------------------------------------------------- the private view


async def test_the_decider_reads_the_question_and_the_others_who_decides(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    assert headline(await world.alice.slash(world.channel, "hand")) == (
        "**Your turn — raise a banner**"
    )
    # Never "waiting for alice" on alice's own view; bob is told who decides and what.
    assert headline(await world.bob.slash(world.channel, "hand")) == (
        "Not your decision now — alice raises a banner."
    )


async def test_menu_options_and_suggestions_say_what_a_choice_does(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    private = (await world.alice.slash(world.channel, "hand")).response
    assert private is not None
    (menu,) = [c for row in private.components for c in row["components"] if c["type"] == 3]
    for option in menu["options"]:
        value = option["value"].split("|")[1]
        assert option["label"] == f"Play a {value}"
        assert option["description"].startswith(f"+{value} to your tally")
    offered = await world.alice.autocomplete(world.channel, "play", "action", "")
    assert [o["name"] for o in offered] == [
        f"Play a {o['value'][-1]} — +{o['value'][-1]} to your tally"
        + (" · may be challenged" if int(o["value"][-1]) >= 4 else "")
        for o in offered
    ]


def test_a_suggestion_shows_its_detail_cut_short_never_losing_its_cost() -> None:
    assert choice_name(Choice("k", "Play a 2", "+2 to your tally")) == "Play a 2 — +2 to your tally"
    assert choice_name(Choice("k", "Play a 2")) == "Play a 2"
    assert choice_name(Choice("k", "L" * 150)) == clip("L" * 150, 100)
    # A detail too long beside its label is cut short, never losing its start (the cost),
    # the label cut short for it if need be.
    long = Choice("k", "L" * 90, "3 mana · a detail that does not fit")
    assert choice_name(long) == clip("L" * 90, 67) + " — 3 mana · a detail that does…"
    cut = choice_name(Choice("k", "L" * 60, "3 mana · Shows 1 decay. " + "When played: x " * 5))
    assert cut == "L" * 60 + " — 3 mana · Shows 1 decay. When…"
    crowded = choice_name(Choice("k", "L" * 95, "9 mana · 3 curses · Shows 2 decay · 1 sky"))
    assert crowded == clip("L" * 95, 67) + " — 9 mana · 3 curses · Shows 2…"


# ------------------------------------------------------------- typed text and refusals


async def test_typed_words_match_in_any_order(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    offered = await world.alice.autocomplete(world.channel, "play", "action", "crimson RAISE")
    assert offered == [{"name": "Raise the crimson banner", "value": "banner|crimson"}]
    played = await world.alice.slash(world.channel, "play", action="banner  crimson")
    assert (
        played.response is not None
        and played.response.content == "✅ You chose: Raise the crimson banner"
    )


async def test_an_action_not_possible_now_is_refused_with_the_rules_reason(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|crimson")
    taken = await world.bob.slash(world.channel, "play", action="crimson banner")
    assert answer(taken) == (
        "“Raise the crimson banner” isn't possible now: Someone already raised that banner."
    )
    await world.bob.slash(world.channel, "play", action="banner|azure")
    state = await world.state()
    missing = next(v for v in range(1, 6) if v not in state.players[0].hand)
    refused = await world.alice.slash(world.channel, "play", action=f"{missing} play")
    assert answer(refused) == (f"“Play a {missing}” isn't possible now: You hold no {missing}.")
    typo = await world.alice.slash(world.channel, "play", action="plya")
    assert "isn't one of your actions right now" in answer(typo)
    assert (await world.match()).version == 2


# ------------------------------------------------------------------------------- pings


def test_a_seat_is_called_when_it_newly_decides_or_a_new_turn_begins() -> None:
    table = Table(
        match=None,  # type: ignore[arg-type]
        seats=[],
        game=tally.GAME,
        view={"turn": 3},
        to_act=(0, 2),
        outcome=None,
        active=0,
    )

    def called(before: tuple[int, ...], turn: str | None) -> tuple[int, ...]:
        return ActResult(table, 0, "x", [], before=before, turn_before=turn).called

    assert called((0, 2), table.turn) == ()  # carrying on, a teammate already deciding
    assert called((1,), table.turn) == (0, 2)  # the decision comes back to them
    assert called((0,), table.turn) == (2,)
    assert called((0, 2), "2|1") == (0, 2)  # a new turn
    assert called((0, 2), None) == (0, 2)  # unknown before: call everyone deciding


async def test_a_turn_s_lines_share_one_message_and_each_player_is_pinged_once(
    world: World,
) -> None:
    await world.start("tooth-and-nail", "2p", [world.alice, world.bob], seed=11)
    carried_on = 0
    for move in range(24):
        (player,) = await world.to_act()
        offered = await player.autocomplete(world.channel, "play", "action", "")
        choice = next(
            (
                fits[move % len(fits)]
                for pattern in TOOTH_AND_NAIL
                if (fits := [c for c in offered if re.fullmatch(pattern, str(c["value"]))])
            ),
            offered[0],
        )
        before = await world.bot.matches.table(world.match_id or 0)
        messages, since = len(world.public()), len(world.env.http_requests)
        made = world.public()[-1].interaction_metadata  # whose command the message reads as
        await player.slash(world.channel, "play", action=choice["value"])
        table = await world.bot.matches.table(world.match_id or 0)
        requests = [(r.method, r.path.split("/")[1]) for r in world.env.http_requests[since:]]
        last = world.public()[-1]
        if table.to_act == before.to_act and table.turn == before.turn:  # carrying on
            if made is not None and made.user.id != player.id:
                # The message the other player's command posted (calling this one) is
                # not theirs to carry these lines: a message of the player's own, which
                # pings nobody, still outside the global limit.
                assert len(world.public()) == messages + 1
                assert last.interaction_metadata is not None
                assert last.interaction_metadata.user.id == player.id
                (sent,) = [p for p in world.posts(since) if p.get("content")]  # (a board too)
                assert sent["allowed_mentions"] == {"parse": []}
                assert all(path != "channels" for _, path in requests)
                continue
            carried_on += 1
            assert len(world.public()) == messages, "a turn's lines share its message"
            # the private answer, the board and the turn's message (both edits: the
            # public side is the publisher's, beside the answer, through the followups
            # of the clicks that posted them, outside the global limit)
            assert sorted(requests) == [
                ("PATCH", "webhooks"),
                ("PATCH", "webhooks"),
                ("POST", "interactions"),
            ]
        else:
            assert len(world.public()) == messages + 1
            (sent,) = world.posts(since)
            deciders = [table.user_of(s).user_id for s in table.to_act]
            assert sent["allowed_mentions"] == {"parse": [], "users": deciders}
        # The message ends calling the decider, addressed to them, with the question now.
        (seat,) = table.to_act
        assert last.content.splitlines()[-1] == (
            f"➡️ <@{table.user_of(seat).user_id}>, {table.question(seat)}"
        )
    assert carried_on >= 5
    for message in world.public():  # a ping is never in the third person
        for line in message.content.splitlines():
            if "<@" in line:
                assert re.fullmatch(r"➡️ <@\d+>, [^@]+", line), line


@pytest.mark.engines
async def test_simultaneous_deciders_are_pinged_once_and_a_restart_keeps_the_message(
    world: World, create_bot: BotFactory
) -> None:
    players = [world.alice, world.bob, world.carol]
    await world.start("tally", "muster", players)
    (opening,) = world.posts()[-1:]
    assert opening["allowed_mentions"]["users"] == sorted(p.id for p in players)
    first = world.public()[-1]  # alice's Start posted it: it reads as her command

    await world.bot.close()
    await world.env.restart_bot(create_bot())
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    assert world.posts(since) == []  # nobody new to call: her opening message is edited
    assert world.public()[-1].id == first.id  # the same message after a restart
    assert world.public()[-1].content.splitlines()[-3:] == [
        "alice raises amber.",
        f"➡️ {world.bob.mention}, your turn — raise a banner",
        f"➡️ {world.carol.mention}, your turn — raise a banner",
    ]
    since = len(world.env.http_requests)
    await world.carol.slash(world.channel, "play", action="banner|cyan")
    (own,) = world.posts(since)  # not under alice's command: carol's own, pinging nobody
    assert own["allowed_mentions"] == {"parse": []}
    assert own["content"].splitlines() == [
        "carol raises cyan.",
        f"➡️ {world.bob.mention}, your turn — raise a banner",
    ]
    assert (made := world.public()[-1].interaction_metadata) is not None
    assert made.user.id == world.carol.id
    since = len(world.env.http_requests)
    await world.bob.slash(world.channel, "play", action="banner|azure")
    (called,) = world.posts(since)  # the banners are up: alice's turn, a new message
    assert called["allowed_mentions"]["users"] == [world.alice.id]
    assert called["content"].splitlines() == [
        "bob raises azure.",
        f"➡️ {world.alice.mention}, your turn — play a card (your tally: 0)",
    ]


async def test_a_lost_or_full_turn_message_is_followed_by_a_new_one(world: World) -> None:
    await world.start("tally", "muster", [world.alice, world.bob, world.carol])
    first = world.public()[-1]
    for route in (f"/channels/{world.channel.id}/messages/{first.id}", f"/webhooks/*/{first.id}"):
        world.env.inject_error("PATCH", route, status=404, code=10008, message="Unknown Message")
    since = len(world.env.http_requests)
    await world.carol.slash(world.channel, "play", action="banner|cyan")
    (sent,) = world.posts(since)
    assert sent["content"].splitlines() == [
        "carol raises cyan.",
        f"➡️ {world.alice.mention}, your turn — raise a banner",
        f"➡️ {world.bob.mention}, your turn — raise a banner",
    ]
    assert sent["allowed_mentions"] == {"parse": []}  # nobody is notified twice

    store = world.bot.store
    current = await store.matches.turn_message(world.match_id or 0)
    assert isinstance(current, TurnMessage)
    store.matches.set_turn_message(dataclasses.replace(current, body="x" * 1960))
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "play", action="banner|amber")
    (sent,) = world.posts(since)  # it would not fit in 2000 characters
    assert sent["content"].splitlines()[0] == "alice raises amber."


async def test_lines_after_an_announcement_start_a_message_below_it(world: World) -> None:
    await world.start("tally", "muster", [world.alice, world.bob, world.carol])
    opening = world.public()[-1]
    match_id = world.match_id or 0
    await world.bot.store.outbox.enqueue([outbox.say(match_id, "⏸️ A line of its own.")])
    await world.bot.publisher.idle()
    since = len(world.env.http_requests)
    await world.carol.slash(world.channel, "play", action="banner|cyan")
    (sent,) = world.posts(since)
    assert world.public()[-2].content == "⏸️ A line of its own."
    assert world.public()[-3].id == opening.id  # left as it was
    # Below the announcement: what happened, and who still decides (told once already).
    assert sent["content"].splitlines() == [
        "carol raises cyan.",
        f"➡️ {world.alice.mention}, your turn — raise a banner",
        f"➡️ {world.bob.mention}, your turn — raise a banner",
    ]
    assert sent["allowed_mentions"] == {"parse": []}


async def test_a_response_window_calls_the_defender_with_a_respond_button(world: World) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    await world.bob.slash(world.channel, "play", action="banner|azure")
    hand = await world.bot.matches.view(world.match_id or 0, world.alice.id)
    big = next(c.key for c in hand.choices if int(c.key.split("|")[1]) >= 4)
    await world.alice.slash(world.channel, "play", action=big)
    line = world.public()[-1]
    assert line.content.splitlines()[-1] == (
        f"➡️ {world.bob.mention}, alice plays a {big[-1]} — challenge it?"
    )
    labels = [c.label for row in line.components for c in row.children]  # type: ignore[union-attr]
    assert labels == ["Respond", "Board"]


# ------------------------------------------------------------------------ the board


async def test_the_board_shows_the_last_lines_and_its_deadlines_as_timestamps(
    world: World,
) -> None:
    await world.start("tally", "duel", [world.alice, world.bob])
    for key, player in (("banner|amber", world.alice), ("banner|azure", world.bob)):
        await player.slash(world.channel, "play", action=key)
    fields = {f.name: f.value for f in (await world.board()).embeds[0].fields}
    assert fields[LATELY_FIELD] == "alice raises amber.\nbob raises azure."
    assert re.fullmatch(f"⏰ alice decides by {TIMESTAMP}\\.", fields["Clock"] or "")

    await world.bot.matches.undo(world.match_id or 0, world.eve.id)
    await world.bot.publisher.idle()
    fields = {f.name: f.value for f in (await world.board()).embeds[0].fields}
    assert fields[LATELY_FIELD] == "alice raises amber."  # the undone line is gone
    status = await world.eve.slash(world.channel, "match status")
    assert status.response is not None and status.response.ephemeral
    fields = {f.name: f.value for f in status.response.embeds[0].fields}
    assert re.fullmatch(f"⏰ bob decides by {TIMESTAMP}\\.", fields["Clock"] or "")


async def test_the_end_is_told_in_the_game_s_own_words(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tally.Tally.outcome

    def told(self: tally.Tally, state: Any) -> Outcome | None:
        outcome = plain(self, state)
        if outcome is None:
            return None
        return outcome.model_copy(update={"text": "bob ran away: alice wins."})

    monkeypatch.setattr(tally.Tally, "outcome", told)
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.concede(world.bob)
    assert (await world.board()).embeds[0].description == "🏆 bob ran away: alice wins."
    assert world.public()[-1].content.splitlines()[-1] == (
        "🏆 bob ran away: alice wins. The channel is free for a new match."
    )
    pv = await world.bot.matches.view(world.match_id or 0, world.alice.id)
    assert private_embed(pv).description == "🏆 bob ran away: alice wins."
