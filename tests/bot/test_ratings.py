"""Ratings as the store keeps them: moved with each recorded result in its transaction,
as the server's settings and seasons say, and worked out again from the results alone
to the same numbers (`/mod rebuild-ratings`)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service.matches import MatchService
from bot.service.stats import Stats
from bot.service.store import Results, Store
from league.ratings import (
    ENDING_CHOICES,
    PLAYED,
    Placing,
    Skill,
    counts,
    replay,
    sides,
)

pytestmark = pytest.mark.engines  # the same numbers on every engine

ENDINGS = [PLAYED, *(e for c in ENDING_CHOICES.values() for e in c)]
VARIANT = {2: "duel", 3: "melee", 4: "teams"}


async def finished(service: MatchService, guild: int, channel: int, users: list[int]) -> int:
    """A Tally match of `users` in `guild`, over (all but the host concede); its id."""
    host, *others = users
    table = await service.new_lobby(
        guild_id=guild,
        channel_id=channel,
        user_id=host,
        name=f"P{host}",
        game="tally",
        variant=VARIANT[len(users)],
    )
    match_id = table.match.id
    for user in others:
        await service.join(match_id, user, f"P{user}")
    await service.start(match_id, host)
    for user in others:
        if (await service.get(match_id)).status == "active":
            await service.concede(match_id, user)
    assert (await service.get(match_id)).status == "finished"
    return match_id


def random_results(rng: random.Random, seats: int) -> Results:
    """Any finish: free-for-all or (with four) two teams of two, random places, a
    random ending, now and then with the AI at the table."""
    teams = {s: s % 2 for s in range(seats)} if seats == 4 and rng.random() < 0.5 else {}
    side = {s: teams.get(s, s) for s in range(seats)}
    place_of = {t: rng.randint(1, seats) for t in set(side.values())}
    places = {s: place_of[side[s]] for s in range(seats)}
    best = min(places.values())
    by_seat = {s: "win" if places[s] == best else "loss" for s in range(seats)}
    return Results(
        by_seat,
        with_ai=rng.random() < 0.1,
        teams=teams,
        places=places,
        ending=rng.choice(ENDINGS),
    )


async def rated_matches(store: Store) -> dict[tuple[int, str, int], list[list[Placing]]]:
    """The rated results, read back as they are stored: per server, game and season,
    each match's placings in rating order."""
    rows = await store.db.engine.read(
        "SELECT guild_id, game, season, rating_seq, user_id, team, place FROM results"
        " WHERE rating_seq > 0 ORDER BY guild_id, game, season, rating_seq, seat"
    )
    leagues: dict[tuple[int, str, int], dict[int, list[Placing]]] = {}
    for r in rows:
        league = leagues.setdefault((r["guild_id"], r["game"], r["season"]), {})
        league.setdefault(r["rating_seq"], []).append(Placing(r["user_id"], r["team"], r["place"]))
    for league in leagues.values():
        assert sorted(league) == list(range(1, len(league) + 1))  # one order, no gap
    return {key: [league[n] for n in sorted(league)] for key, league in leagues.items()}


async def stored_ratings(store: Store) -> dict[tuple[int, str, int], dict[int, tuple]]:
    rows = await store.db.engine.read(
        "SELECT guild_id, game, season, user_id, mu, sigma, games FROM ratings"
    )
    out: dict[tuple[int, str, int], dict[int, tuple]] = {}
    for r in rows:
        out.setdefault((r["guild_id"], r["game"], r["season"]), {})[r["user_id"]] = (
            r["mu"],
            r["sigma"],
            r["games"],
        )
    return out


async def test_ratings_rebuilt_from_500_random_results_equal_the_stored_ones(
    service: MatchService, store: Store
) -> None:
    rng = random.Random(2026)
    players = list(range(1001, 1013))
    expected_rated = 0
    for n in range(500):
        guild = rng.choice((1, 2))
        if rng.random() < 0.03:
            chosen = {c for c in ENDING_CHOICES if rng.random() < 0.5}
            await store.settings.update_guild(guild, rated_endings=chosen)
        if rng.random() < 0.01:
            await store.ratings.new_season(guild, 1)
        seats = rng.choice((2, 2, 3, 4))
        users = rng.sample(players, seats)
        match_id = await finished(service, guild, n, users)
        results = random_results(rng, seats)
        settings = await store.settings.guild(guild)
        assert await store.results.record(match_id, results)
        assert not await store.results.record(match_id, results)  # once only
        placings = [
            Placing(u, results.teams.get(s, s), results.places[s]) for s, u in enumerate(users)
        ]
        rated = (
            not results.with_ai
            and counts(results.ending, settings.rated_endings)
            and sides(placings) is not None
        )
        expected_rated += rated
        (row,) = await store.db.engine.read(
            "SELECT MAX(rating_seq) AS seq, MIN(season) AS season FROM results WHERE match_id = ?",
            (match_id,),
        )
        assert (row["seq"] > 0) == rated, (n, results)
        assert row["season"] == settings.season

    matches = await rated_matches(store)
    assert sum(len(m) for m in matches.values()) == expected_rated > 200
    held = await stored_ratings(store)
    for league, played in matches.items():
        skills, games = replay(played)
        assert held[league] == {u: (s.mu, s.sigma, games[u]) for u, s in skills.items()}
    assert set(held) == set(matches)

    replayed = [await store.ratings.rebuild(guild) for guild in (1, 2)]
    assert sum(r for r, _ in replayed) == expected_rated
    assert [d for _, d in replayed] == [0, 0]
    assert await stored_ratings(store) == held


async def test_a_new_season_starts_every_rating_afresh_and_keeps_the_old(
    service: MatchService, store: Store
) -> None:
    first = await finished(service, 1, 1, [1, 2])
    assert await store.results.record(first, Results({0: "win", 1: "loss"}))
    (alice, bob) = await store.ratings.top(1, "tally", 1, limit=10)
    assert (alice.user_id, bob.user_id) == (1, 2)
    assert await store.ratings.new_season(1, 99) == 2
    assert (await store.settings.guild(1)).season == 2
    assert await store.ratings.top(1, "tally", 2, limit=10) == []
    second = await finished(service, 1, 2, [1, 2])
    assert await store.results.record(second, Results({0: "loss", 1: "win"}))
    now = {r.user_id: r for r in await store.ratings.top(1, "tally", 2, limit=10)}
    assert now[2].skill.mu > now[1].skill.mu and now[2].games == 1  # afresh
    assert await store.ratings.top(1, "tally", 1, limit=10) == [alice, bob]  # kept
    history = await store.ratings.history(1, 2, "tally", 2, limit=10)
    assert [h.before for h in history] == [Skill()]


async def test_results_from_before_ratings_are_rated_at_start_up(
    service: MatchService, store: Store
) -> None:
    """Results a bot recorded before ratings existed come through the migration
    undecided and without their sides; the first start-up gives each seat its side
    from the match and rates them in the order they were recorded."""
    duels = [await finished(service, 1, c, [1, 2]) for c in range(3)]
    teams = await finished(service, 1, 9, [1, 2, 3, 4])  # seats 0 & 2 against 1 & 3
    stats = Stats(service, store.results, store.ratings)
    for match_id in duels:
        await stats.record(match_id)
    await stats.record(teams)
    expected = await stored_ratings(store)
    (row,) = await store.db.engine.read(
        "SELECT COUNT(DISTINCT team) AS sides FROM results WHERE match_id = ?", (teams,)
    )
    assert row["sides"] == 2
    async with store.db.transaction() as db:  # as migration 0016 leaves older results
        await db.execute("UPDATE results SET rating_seq = NULL, team = NULL")
        await db.execute("DELETE FROM rating_changes")
        await db.execute("DELETE FROM ratings")
    await stats.catch_up()
    assert await store.ratings.undecided() == []
    assert await stored_ratings(store) == expected
    await stats.catch_up()  # nothing more
    assert await stored_ratings(store) == expected


async def test_two_processes_deciding_the_same_earlier_results_rate_them_once(
    service: MatchService, store: Store, database: str
) -> None:
    """Two processes starting together both find the results undecided: the second to
    take the server's lock finds them decided and leaves them."""
    match_id = await finished(service, 1, 1, [1, 2])
    await Stats(service, store.results, store.ratings).record(match_id)
    expected = await stored_ratings(store)
    async with store.db.transaction() as db:
        await db.execute("UPDATE results SET rating_seq = NULL")
        await db.execute("DELETE FROM rating_changes")
        await db.execute("DELETE FROM ratings")
    other = await Store.open(database)
    try:
        (found,) = await store.ratings.undecided()
        assert await other.ratings.undecided() == [found]
        await asyncio.gather(
            store.ratings.rate_undecided(found, {0: 0, 1: 1}),
            other.ratings.rate_undecided(found, {0: 0, 1: 1}),
        )
    finally:
        await other.close()
    assert await stored_ratings(store) == expected
