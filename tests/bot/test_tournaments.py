"""Tournaments through the service, on a real store: sign-up, seeding, rounds paired by
the rules of each format, every pairing played as a match to its end by random legal
play, results collected as the matches end, a player dropping out, a moderator's
recorded result, a round paired again, the standings at the end."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime

import pytest

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Store
from bot.service.tournaments import Event, Tournaments
from league import tournament as league
from rules.core import Game
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.playout import play_randomly

NOW = datetime(2026, 12, 4, 12, tzinfo=UTC)
GUILD, CHANNEL, MOD = 7, 700, 1


@pytest.fixture
async def service(database: str) -> AsyncIterator[Tournaments]:
    store = await Store.open(database)
    games: Mapping[str, Game] = {**GAMES, "tally": tally.GAME}
    yield Tournaments(MatchService(store, games), store.tournaments, store.results, store.ratings)
    await store.close()


async def finish_by_random_play(service: Tournaments, match_id: int, rng: random.Random) -> None:
    """Random legal moves until the match ends, then the tournament hears of it."""
    await play_randomly(service.matches, match_id, rng)
    assert (await service.matches.get(match_id)).status == "finished"
    await service.collect(match_id, now=NOW)


async def play_round(service: Tournaments, event: Event, rng: random.Random) -> Event:
    """Seat every open pairing of the round in a thread of its own, and play them out."""
    round_no = event.row.round
    for game in event.round_games():
        if game.b is None or game.points is not None:
            continue
        thread = CHANNEL * 1000 + round_no * 100 + game.board
        table = await service.seat(event.row.id, round_no, game.board, thread)
        await finish_by_random_play(service, table.match.id, rng)
    return await service.event(event.row.id)


async def signed_up(service: Tournaments, players: int, **options: object) -> Event:
    row = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=MOD,
        name="Winter Cup",
        signup_seconds=3600,
        round_seconds=86400,
        now=NOW,
        **options,  # type: ignore[arg-type]
    )
    for user in range(101, 101 + players):
        await service.join(row.id, user, f"P{user}")
    return await service.event(row.id)


@pytest.mark.engines
async def test_an_8_player_3_round_swiss_of_tooth_and_nail_with_a_drop(
    service: Tournaments,
) -> None:
    rng = random.Random(8)
    event = await signed_up(
        service, 8, game="tooth-and-nail", variant="2p", format="swiss", rounds=3, seeding="random"
    )
    event = await service.start(event.row.id, MOD, now=NOW)
    assert (event.row.status, event.row.round, event.row.rounds) == ("running", 1, 3)
    assert len(event.entrants) == 8 and len(event.round_games()) == 4
    event = await play_round(service, event, rng)
    assert event.row.round == 2  # paired as soon as round 1 ended

    leaving = event.members(event.round_games()[0].a)[0].user_id
    event = await service.drop(event.row.id, MOD, leaving, now=NOW)  # mid-round
    event = await play_round(service, event, rng)
    assert event.row.round == 3
    gone = event.entrant_of(leaving)
    third = event.round_games()
    assert all(gone not in (g.a, g.b) for g in third)
    assert [g.b for g in third].count(None) == 1  # seven left: one bye
    event = await play_round(service, event, rng)

    assert event.row.status == "finished"
    met = [frozenset((g.a, g.b)) for g in event.games if g.b is not None]
    assert len(met) == len(set(met))  # no rematch
    table = event.standings()
    assert [s.rank for s in table] == list(range(1, 9))
    keys = [(-s.points, *(-t for t in s.tiebreaks)) for s in table]
    assert keys == sorted(keys)
    assert sum(s.points for s in table) == sum(
        1 if g.b is None else 1.0 for g in event.games
    )  # every game gave out one point
    log = [kind for _, kind, _ in await service.tournaments.log(event.row.id)]
    assert log[:2] == ["start", "round"] and "drop" in log and log[-1] == "end"


async def test_moderators_record_a_result_and_pair_a_round_again(service: Tournaments) -> None:
    event = await signed_up(service, 4, game="tally", variant="duel", format="swiss", rounds=2)
    event = await service.start(event.row.id, MOD, now=NOW)
    before = event.round_games()
    again = await service.pair_again(event.row.id, MOD, now=NOW)
    assert [(g.a, g.b) for g in again.round_games()] == [(g.a, g.b) for g in before]
    first = before[0]
    table = await service.seat(event.row.id, 1, first.board, 5001)
    player = event.members(first.a)[0].user_id
    event = await service.record(event.row.id, MOD, player, "loss", now=NOW)
    assert (await service.matches.get(table.match.id)).status == "cancelled"
    decided = next(g for g in event.round_games(1) if g.board == first.board)
    assert (decided.points, decided.how) == (league.LOSS, "recorded")
    with pytest.raises(errors.BadOption, match="has a result"):
        await service.pair_again(event.row.id, MOD, now=NOW)
    with pytest.raises(errors.BadOption, match="in already"):
        await service.record(event.row.id, MOD, player, "win", now=NOW)


async def test_what_a_tournament_refuses(service: Tournaments) -> None:
    with pytest.raises(errors.BadOption, match="pairs two sides"):
        await signed_up(service, 0, game="mystic-vale", variant="3p", format="swiss", rounds=3)
    event = await signed_up(
        service, 3, game="tally", variant="teams", format="elimination", rounds=None
    )
    with pytest.raises(errors.WrongPlayerCount, match="3 signed up"):
        await service.start(event.row.id, MOD, now=NOW)
    with pytest.raises(errors.BadOption, match="signed up already"):
        await service.join(event.row.id, 101, "again")
    await service.leave(event.row.id, 101)
    await service.join(event.row.id, 104, "P104")
    await service.join(event.row.id, 105, "P105")
    started = await service.start(event.row.id, None, now=NOW)
    with pytest.raises(errors.NoTournament, match="sign-up is over"):
        await service.join(event.row.id, 106, "late")
    assert [len(started.members(e.entrant)) for e in started.entrants] == [2, 2]


async def test_a_round_decided_before_a_stop_is_followed_by_the_next(
    service: Tournaments,
) -> None:
    """The last result of a round was saved, then the process stopped before pairing the
    next one: going on from there pairs it."""
    event = await signed_up(service, 4, game="tally", variant="duel", format="swiss", rounds=2)
    event = await service.start(event.row.id, MOD, now=NOW)
    for game in event.round_games():
        await service.tournaments.decide_game(event.row.id, 1, game.board, league.WIN, "recorded")
    assert (await service.event(event.row.id)).row.round == 1  # as a stop would leave it
    event = await service.resume(event.row.id, now=NOW)
    assert event.row.round == 2 and len(event.round_games()) == 2


@pytest.mark.engines
async def test_a_match_stopped_unheard_of_is_a_loss_for_both_never_a_deadline_draw(
    service: Tournaments,
) -> None:
    """Issue 42 item 6: a moderator aborts a pairing's match and the process stops
    before the tournament hears of it: going on from there settles it as a loss for
    both. The same for the other pairing, whose round's deadline comes first: it used to
    be drawn "at the deadline". Then the next round is paired."""
    event = await signed_up(service, 4, game="tally", variant="duel", format="swiss", rounds=2)
    event = await service.start(event.row.id, MOD, now=NOW)
    first, second = event.round_games()
    tables = [await service.seat(event.row.id, 1, g.board, 5000 + g.board) for g in (first, second)]
    await service.matches.cancel(tables[0].match.id, MOD, moderator=True)
    event = await service.resume(event.row.id, now=NOW)
    decided = next(g for g in event.round_games(1) if g.board == first.board)
    assert (decided.points, decided.how, event.row.round) == (league.LOSS, "aborted", 1)
    await service.matches.cancel(tables[1].match.id, MOD, moderator=True)
    event = await service.deadline(event.row.id, 1, now=NOW)
    assert [(g.points, g.how) for g in event.round_games(1)] == [(league.LOSS, "aborted")] * 2
    assert event.row.round == 2
    table = {s.entrant: s for s in event.standings()}
    assert all((s.points, s.losses) == (0.0, 1) for s in table.values())
    log = [text for _, _, text in await service.tournaments.log(event.row.id)]
    assert not [line for line in log if "drawn" in line]


@pytest.mark.engines
async def test_the_tournaments_own_closings_are_never_read_as_aborts(
    service: Tournaments,
) -> None:
    """A closed match of an undecided game counts as stopped (a loss for both), and the
    tournament may hear of a closing at once (here before the closing returns, the
    earliest it could): so a round paired again, a recorded result and a cancelled
    tournament each decide (or unlink) the game before they close its match."""

    async def heard(match_id: int) -> None:
        await service.collect(match_id, now=NOW)

    service.matches.on_change(heard)
    event = await signed_up(service, 4, game="tally", variant="duel", format="swiss", rounds=2)
    event = await service.start(event.row.id, MOD, now=NOW)
    for game in event.round_games():
        await service.seat(event.row.id, 1, game.board, 5000 + game.board)
    event = await service.pair_again(event.row.id, MOD, now=NOW)
    first, second = event.round_games()
    assert (first.points, second.points, first.match_id) == (None, None, None)
    for game in (first, second):
        await service.seat(event.row.id, 1, game.board, 6000 + game.board)
    player = event.members(first.a)[0].user_id
    event = await service.record(event.row.id, MOD, player, "win", now=NOW)
    outcome = [(league.WIN, "recorded"), (None, None)]
    assert [(g.points, g.how) for g in event.round_games()] == outcome
    await service.cancel(event.row.id, MOD)
    event = await service.event(event.row.id)
    assert [(g.points, g.how) for g in event.round_games()] == outcome
