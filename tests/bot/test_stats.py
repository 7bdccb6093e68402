"""Results of finished matches: recorded once per seat, shown by `/stats` and
`/leaderboard`; cancelled and abandoned matches count for nobody."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
import simcord

from bot.service.matches import MatchService
from bot.service.stats import Stats
from bot.service.store import Store
from league.ratings import Placing, Skill, replay
from rules.core import Game
from rules.mystic_vale.scoring import finish_game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.test_moderation import admin, answer
from tests.bot.world import World

pytestmark = pytest.mark.engines  # the cross-server reads, the same on every engine

ALICE, BOB = 101, 102


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return {**GAMES, "tally": tally.GAME}


async def finish(
    world: World,
    game: str,
    variant: str,
    players: list[simcord.MemberActor],
    loser: simcord.MemberActor,
) -> None:
    """A match of `players` that `loser` concedes at once."""
    await world.start(game, variant, players)
    await world.concede(loser)
    assert (await world.match()).status == "finished"


def embed_of(result: simcord.InteractionResult) -> tuple[str, str, list[tuple[str, str]]]:
    assert result.response is not None and not result.response.ephemeral
    embed = result.response.embeds[0]
    fields = [(f.name or "", f.value or "") for f in embed.fields]
    return embed.title or "", embed.description or "", fields


async def test_stats_and_leaderboard_after_a_few_matches(world: World) -> None:
    mona = admin(world)
    alice, bob, carol = world.alice, world.bob, world.carol
    await finish(world, "tally", "duel", [alice, bob], loser=bob)
    await finish(world, "tally", "duel", [alice, carol], loser=alice)
    await finish(world, "tally", "teams", [alice, bob, carol, world.dave], loser=bob)
    await finish(world, "tooth-and-nail", "2p", [bob, alice], loser=bob)
    await world.start("tally", "duel", [bob, carol])
    await mona.slash(world.channel, "mod abort")  # cancelled: not counted

    # The same matches rated by hand: each a list of (player, side, place).
    tally_skills, _ = replay(
        [
            [Placing(alice.id, 0, 1), Placing(bob.id, 1, 2)],
            [Placing(alice.id, 0, 2), Placing(carol.id, 1, 1)],
            [
                Placing(alice.id, 0, 1),
                Placing(bob.id, 1, 2),
                Placing(carol.id, 0, 1),
                Placing(world.dave.id, 1, 2),
            ],
        ]
    )
    nail_skills, _ = replay([[Placing(bob.id, 0, 2), Placing(alice.id, 1, 1)]])

    def rated(skill: Skill, games: int) -> str:
        plural = "" if games == 1 else "es"
        return (
            f"**{skill.shown:.1f}** 🆕 (skill {skill.mu:.1f} ± {skill.sigma:.1f}) · "
            f"{games} rated match{plural}"
        )

    shown = await alice.slash(world.channel, "stats")
    title, _, fields = embed_of(shown)
    assert title == "alice — results on this server"
    (ratings_name, ratings), *records = fields
    assert ratings_name == "Ratings, season 1"
    assert ratings.splitlines()[0] == f"**Tally**: {rated(tally_skills[alice.id], 3)}"
    assert ratings.splitlines()[2] == (
        f"**Tooth & Nail: Factions**: {rated(nail_skills[alice.id], 1)}"
    )
    assert "A rating is" not in ratings
    # What a rating is, in the footer's small print: an embed shows `-#` as typed.
    assert shown.response is not None
    footer = shown.response.embeds[0].footer.text or ""
    assert footer.startswith("A rating is the skill estimate less three times its uncertainty")
    assert footer.endswith("Matches, wins and losses count every season.")
    assert all(
        not line.lstrip().startswith(("-#", "#"))
        for _, value in fields
        for line in value.splitlines()
    )
    assert records == [
        ("Tally", "3 matches · 2 wins · 1 loss · 67% won"),
        ("Tooth & Nail: Factions", "1 match · 1 win · 0 losses · 100% won"),
    ]
    _, _, (_, *bobs) = embed_of(await carol.slash(world.channel, "stats", player=bob))
    assert bobs == [
        ("Tally", "2 matches · 0 wins · 2 losses · 0% won"),
        ("Tooth & Nail: Factions", "1 match · 0 wins · 1 loss · 0% won"),
    ]
    _, nothing, _ = embed_of(await carol.slash(world.channel, "stats", player=world.eve))
    assert nothing == "No finished match yet."

    title, board, _ = embed_of(await world.eve.slash(world.channel, "leaderboard", game="tally"))
    assert title == "Tally — leaderboard, season 1"
    by_rating = sorted(tally_skills.items(), key=lambda item: -item[1].shown)
    games = {alice.id: 3, bob.id: 2, carol.id: 2, world.dave.id: 1}
    # By name: an embed shows a mention as a name only where the reader's app has that
    # member loaded (and never in the sandbox).
    names = {m.id: m.name for m in (alice, bob, carol, world.dave)}
    assert board.splitlines() == [
        f"**{n}.** {names[user]} — {rated(skill, games[user])}"
        for n, (user, skill) in enumerate(by_rating, start=1)
    ]
    assert [user for user, _ in by_rating][:2] == [carol.id, alice.id]
    with pytest.raises(simcord.OptionError):
        await world.eve.slash(world.channel, "leaderboard", game="chess")


async def conceded(service: MatchService, channel: int) -> int:
    """A Tally duel Bob concedes at once; its id."""
    table = await service.new_lobby(
        guild_id=1, channel_id=channel, user_id=ALICE, name="Alice", game="tally"
    )
    await service.join(table.match.id, BOB, "Bob")
    await service.start(table.match.id, ALICE)
    await service.concede(table.match.id, BOB)
    return table.match.id


async def test_results_are_recorded_once_and_caught_up_after_a_stop(
    service: MatchService, store: Store
) -> None:
    first = await conceded(service, 1)  # finished while no listener was there
    stats = Stats(service, store.results, store.ratings)
    service.on_change(stats.record)
    await stats.catch_up()
    second = await conceded(service, 2)
    for match_id in (first, second):
        await stats.record(match_id)  # again: nothing more
    (record,) = await stats.player(1, ALICE)
    assert (record.games, record.wins, record.losses) == (2, 2, 0)
    assert await store.results.unrecorded() == []


async def test_an_abandoned_match_counts_for_nobody(service: MatchService, store: Store) -> None:
    table = await service.new_lobby(
        guild_id=1, channel_id=1, user_id=ALICE, name="Alice", game="tally"
    )
    await service.join(table.match.id, BOB, "Bob")
    await service.start(table.match.id, ALICE)
    assert await service.records.abandon(table.match.id, expected_version=0)
    stats = Stats(service, store.results, store.ratings)
    await stats.record(table.match.id)
    assert await stats.player(1, ALICE) == []
    assert await stats.ratings(1, "tally", 1) == []


async def test_the_nemesis_victory_tracker_counts_per_nemesis_and_ranks_the_hunters(
    database: str,
) -> None:
    """Solitaire games are recorded won or lost against their nemesis (a lost one too,
    which has no winner), in a server or in a DM; `versus` counts them per nemesis, and
    the hunters' board ranks the most nemeses beaten, then the hardest beaten."""
    store = await Store.open(database)
    try:
        service = MatchService(store)
        stats = Stats(service, store.results, store.ratings)
        service.on_change(stats.record)
        played = [  # (player, guild, nemesis, won)
            (ALICE, 1, "plague-scarabs", True),
            (ALICE, None, "soulbane", True),  # in a DM with the bot
            (ALICE, 1, "soulbane", False),
            (BOB, 1, "watcher-in-the-wood", True),
        ]
        for channel, (user, guild, nemesis, won) in enumerate(played, start=1):
            table = await service.new_lobby(
                guild_id=guild,
                channel_id=channel,
                user_id=user,
                name="P",
                game="mystic-vale",
                variant="solo",
                options={"nemesis": nemesis, "leaders": "off"},
            )
            await service.start(table.match.id, user)
            state = service._state(table.game, (await service.get(table.match.id)))
            if won:  # the nemesis is given nothing and the player every VP: they win
                state.nemesis.pile, state.nemesis.vp = [], 0
                state.players[0].vp = 99
            finish_game(state, by_concession=not won)
            await store.matches.append_action(
                table.match.id,
                expected_version=0,
                seat=0,
                user_id=user,
                action='{"kind": "concede", "args": []}',
                events="[]",
                snapshot=state.model_dump_json(),
                status="finished",
            )
            await service.changed(table.match.id)
        versus = await stats.versus(1, ALICE)
        assert [(v.opponent, v.level, v.wins, v.losses) for v in versus] == [
            ("Plague Scarabs ✦", 1, 1, 0),
            ("Soulbane ✦", 2, 1, 1),  # the DM game counts too
        ]
        hunters = await stats.hunters(1, "mystic-vale")
        assert [(h.user_id, h.beaten, h.hardest, h.wins, h.games) for h in hunters] == [
            (BOB, 1, 4, 1, 1),  # as many beaten as Alice here, but the hardest: level 4
            (ALICE, 1, 1, 1, 2),  # in this server: Plague Scarabs beaten, Soulbane lost
        ]
    finally:
        await store.close()


async def test_ratings_through_the_bot_history_seasons_and_a_rebuild(world: World) -> None:
    """A moderator's removal is not rated unless the server says so; `/stats game:`
    shows what each rated match did; a new season starts afresh and keeps the old
    table readable; a rebuild finds every rating right."""
    mona = admin(world)
    alice, bob = world.alice, world.bob
    await finish(world, "tally", "duel", [alice, bob], loser=bob)  # a concession: rated
    await world.start("tally", "duel", [alice, bob])
    await mona.slash(world.channel, "mod kick", player=bob)  # removed: not rated
    assert (await world.match()).status == "finished"
    (a, b) = await world.bot.stats.ratings(world.guild.id, "tally", 1)
    assert (a.user_id, a.games, b.user_id, b.games) == (alice.id, 1, bob.id, 1)

    await mona.slash(world.channel, "settings ratings", ending="moderators", rated=True)
    await world.start("tally", "duel", [alice, bob])
    await mona.slash(world.channel, "mod kick", player=bob)  # now rated
    title, line, (latest,) = embed_of(
        await bob.slash(world.channel, "stats", player=alice, game="tally")
    )
    assert title == "alice — Tally, season 1"
    assert "2 rated matches 🆕" not in line and "· 2 rated matches" in line
    changes = latest[1].splitlines()
    assert latest[0] == "Latest rated matches" and len(changes) == 2
    assert changes[0].endswith(")") and " → **" in changes[0] and "(+" in changes[0]

    done = await mona.slash(world.channel, "mod rebuild-ratings")
    assert answer(done) == "Rated 2 matches again: every rating was already right."

    started = await mona.slash(world.channel, "mod new-season")
    assert answer(started) == "Season 2 has begun."
    (told,) = [m for m in started.followups if not m.ephemeral]  # the channel is told
    assert told.content.startswith(f"🏁 <@{mona.id}> started season 2: every rating starts")
    title, empty, _ = embed_of(await alice.slash(world.channel, "leaderboard", game="tally"))
    assert (title, empty) == (
        "Tally — leaderboard, season 2",
        "No rated match of this game this season yet.",
    )
    title, old, _ = embed_of(
        await alice.slash(world.channel, "leaderboard", game="tally", season=1)
    )
    assert title == "Tally — leaderboard, season 1 (an earlier season)"
    assert old.splitlines()[0].startswith("**1.** alice — **")
    refused = await alice.slash(world.channel, "leaderboard", game="tally", season=3)
    assert answer(refused) == "This server's seasons run from 1 to 2: season 3 hasn't begun."
    refused = await alice.slash(world.channel, "mod new-season")
    assert "moderator" in answer(refused).lower()


async def test_an_abandoned_match_is_rated_only_where_the_server_rates_abandons(
    service: MatchService, store: Store
) -> None:
    """The seat that ran out of time loses, the others tie ahead of it; wins and losses
    still count the match for nobody."""
    for guild, rated in ((1, False), (2, True)):
        if rated:
            await store.settings.update_guild(guild, rated_endings={"abandons"})
        table = await service.new_lobby(
            guild_id=guild, channel_id=guild, user_id=ALICE, name="Alice", game="tally"
        )
        await service.join(table.match.id, BOB, "Bob")
        await service.start(table.match.id, ALICE)
        await service.abandon(table.match.id, version=0, note="Bob ran out of time.", leaver=1)
        stats = Stats(service, store.results, store.ratings)
        assert await stats.player(guild, ALICE) == []
        rows = await stats.ratings(guild, "tally", 1)
        if not rated:
            assert rows == []
            continue
        skills, _ = replay([[Placing(ALICE, 0, 1), Placing(BOB, 1, 2)]])
        assert [(r.user_id, r.skill) for r in rows] == [(ALICE, skills[ALICE]), (BOB, skills[BOB])]
