"""`/match log`, `/match export` and `python -m bot replay FILE`.

The log shows what the table saw, page by page; the export carries everything a
replay needs; replaying an export of random games of every game and variant (with
undos and a replaced seat along the way) must reach the exported final state.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from subprocess import PIPE
from typing import Any

import pytest
import simcord

from bot.__main__ import main
from bot.history import export_match, first_difference, replay_export
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import MatchRow, Store
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.test_moderation import admin, answer
from tests.bot.world import World

ALL_GAMES: Mapping[str, Game] = {**GAMES, "tally": tally.GAME}
MODERATOR = 999
NEWCOMER = 500
MAX_ACTIONS = 600
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return ALL_GAMES


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[MatchService]:
    store = await Store.open(db_path)
    yield MatchService(store, ALL_GAMES)
    await store.close()


async def play_random(
    service: MatchService, game: str, variant: str, seed: int, *, channel: int = 1
) -> MatchRow:
    """A match of random legal actions to its end, with a forced undo after the 5th
    action and the first seat handed to a newcomer after the 8th."""
    players = service.game(game).variants[variant].min_players
    table = await service.new_lobby(
        guild_id=1, channel_id=channel, user_id=100, name="P0", game=game, variant=variant
    )
    for n in range(1, players):
        await service.join(table.match.id, 100 + n, f"P{n}")
    await service.start(table.match.id, 100)
    pick = random.Random(seed)
    for step in range(MAX_ACTIONS):
        table = await service.table(table.match.id)
        if table.match.status != "active":
            break
        user = table.user_of(pick.choice(table.to_act)).user_id
        choices = await service.choices(channel, user)
        await service.act(table.match.id, user, pick.choice(choices).key)
        if step == 5:
            await service.undo(table.match.id, MODERATOR, force=True)
        if step == 8 and table.match.status == "active":
            await service.replace_seat(
                table.match.id,
                table.user_of(0).user_id,
                NEWCOMER,
                "Newcomer",
                moderator_id=MODERATOR,
            )
    return await service.get(table.match.id)


VARIANTS = [(game.id, variant) for game in ALL_GAMES.values() for variant in game.variants]


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
async def test_export_then_replay_reproduces_random_games(
    service: MatchService, game: str, variant: str
) -> None:
    for seed in range(2):
        match = await play_random(service, game, variant, seed, channel=seed + 1)
        document = await export_match(service, match.id, moderator=True, user_id=0)
        document = json.loads(json.dumps(document))  # as read back from the file
        assert any(a["undone"] for a in document["actions"])
        report = replay_export(document, ALL_GAMES)
        assert report.ok, str(report)
        assert str(report).endswith("the final state matches exactly.")


async def test_a_replay_says_where_a_tampered_export_first_differs(
    service: MatchService,
) -> None:
    match = await play_random(service, "tally", "duel", 4)
    document = await export_match(service, match.id, moderator=True, user_id=0)
    assert document["status"] == "finished"
    assert document["seats"][0]["name"] == "P0"  # the name the seat was dealt in with

    reseeded = {**document, "seed": document["seed"] + 1}
    report = replay_export(reseeded, ALL_GAMES)
    assert not report.ok and "Action " in str(report)

    edited = json.loads(json.dumps(document))
    edited["snapshot"]["tallies"]["0"] += 1
    report = replay_export(edited, ALL_GAMES)
    assert not report.ok
    assert "the final state differs at `state.tallies.0`" in str(report)

    assert not replay_export({"format": "something else"}, ALL_GAMES).ok
    assert "not a complete Arbiter export" in str(replay_export({"format": "arbiter-match"}, {}))


def test_first_difference_finds_the_first_path() -> None:
    assert first_difference({"a": [1, 2], "b": 1}, {"a": [1, 3], "b": 2}) == ("state.a[1]", 2, 3)
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == ("state.a (length)", 1, 2)
    assert first_difference({"a": 1}, {"b": 1}) == ("state.a", 1, None)


async def test_the_cli_replays_an_export_file(service: MatchService, tmp_path: Path) -> None:
    match = await play_random(service, "tooth-and-nail", "2p", 1)
    document = await export_match(service, match.id, moderator=False, user_id=0)
    good = tmp_path / "match.json"
    good.write_text(json.dumps(document), encoding="utf-8")
    cli = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "replay", str(good), cwd=ROOT, stdout=PIPE, stderr=PIPE
    )
    out, err = await cli.communicate()
    assert cli.returncode == 0, (out + err).decode()
    assert out.decode().strip().endswith("the final state matches exactly.")

    document["seed"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def last_answer(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The last message of an answer (a deferred one's first follow-up fills its response)."""
    message = (result.followups or [result.response])[-1]
    assert message is not None
    return message


def pages_text(message: Any) -> str:
    embed = message.embeds[0]
    return f"{embed.title}\n{embed.description}\n{embed.footer.text}"


async def test_match_log_pages_through_what_the_table_saw(world: World) -> None:
    mona = admin(world)
    opened = await world.alice.slash(world.channel, "match new", game="tally", variant="melee")
    assert opened.response is not None  # a drawn seed: it must never show
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    for player in (world.bob, world.carol, world.dave):
        await player.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    for _ in range(80):
        if (await world.match()).status != "active":
            break
        (player,) = await world.to_act()
        choices = await world.bot.matches.choices(world.channel.id, player.id)
        await player.slash(world.channel, "play", action=choices[-1].key)
        if (await world.match()).version == 5:  # alice's first card, and her draw
            await mona.slash(world.channel, "mod undo", force=True)
    match = await world.match()

    shown = await world.eve.slash(world.channel, "match log")
    log = shown.response
    assert log is not None and not log.ephemeral  # public
    pages = [pages_text(log)]
    assert pages[0].startswith(f"Match #{match.id} — Tally — Melee")
    total = int(pages[0].rsplit(" of ", 1)[1])
    assert total >= 2 and pages[0].endswith(f"Log page {total} of {total}")  # the newest
    for _ in range(total - 1):
        await world.carol.click(log, label="Older")
        pages.insert(0, pages_text(log))
    assert pages[0].endswith(f"Log page 1 of {total}")
    text = "\n".join(pages)
    assert "🎬 Dealt in: alice, bob, carol, dave." in text
    assert "`1` alice raises " in text
    assert "`5` ~~alice plays a" in text and "alice draws a card.~~ *(undone)*" in text
    assert "🛡️ mona (moderator) undid action 5 (forced: it revealed hidden cards)" in text
    assert "You draw" not in text  # a private line never shows
    assert str(match.seed) not in text
    await world.carol.click(log, label="Newer")
    assert pages_text(log) == pages[1]

    earlier = await world.eve.slash(world.channel, "match log", match=match.id)
    assert earlier.response is not None
    missing = await world.eve.slash(world.channel, "match log", match=match.id + 50)
    assert answer(missing) == f"This server has no match #{match.id + 50}."


async def test_export_of_an_open_match_is_for_moderators_only(world: World) -> None:
    mona = admin(world)
    await world.start("tally", "duel", [world.alice, world.bob])
    await world.alice.slash(world.channel, "play", action="banner|amber")
    refused = await world.alice.slash(world.channel, "match export")
    assert answer(refused) == errors.ExportRefused.default

    exported = await mona.slash(world.channel, "match export")
    sent = last_answer(exported)
    assert sent.ephemeral and sent.content.startswith("Match #1: replay it with")
    document = json.loads(await sent.attachments[0].read())
    assert document["seed"] == 7 and document["actions"][0]["key"] == "banner|amber"
    assert replay_export(document, ALL_GAMES).ok

    await world.concede(world.bob)
    after = await world.eve.slash(world.channel, "match export")  # over: anyone may
    (file,) = last_answer(after).attachments
    finished = json.loads(await file.read())
    assert finished["status"] == "finished"
    assert [a["key"] for a in finished["actions"]] == ["banner|amber", "concede"]
    assert replay_export(finished, ALL_GAMES).ok


async def test_a_moderator_who_plays_cannot_export_an_open_match(service: MatchService) -> None:
    """The export of an open match shows every hand and shuffle: not to someone seated."""
    table = await service.new_lobby(
        guild_id=1, channel_id=5, user_id=100, name="P0", game="tally", variant="duel"
    )
    await service.join(table.match.id, 101, "P1")
    match = (await service.start(table.match.id, 100)).match
    seated = 100
    with pytest.raises(errors.ExportRefused, match="You play in this match"):
        await export_match(service, match.id, moderator=True, user_id=seated)
    assert (await export_match(service, match.id, moderator=True, user_id=999))["seed"]
