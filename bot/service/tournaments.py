"""Tournaments a moderator runs: a sign-up, then rounds of pairings (`league.tournament`),
each pairing played as a match of its own, the results collected as the matches end.

A tournament pairs two sides a game: a 2-player variant pairs players, a variant of two
teams pairs teams, formed at the start from the players who signed up (by rating, the
strongest with the weakest; at random, in a shuffled order). Everything is worked out
from what is stored (the players, the sides and their seeds, the games and how each
ended), so a round paired again, the standings after a restart, or the next round after
a crash come out the same.

The Discord side seats each pairing's match in a thread of the tournament's channel
(`seat`), and this service hears of every match that ends (`collect`)."""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.service import errors, outbox
from bot.service.matches import MatchService
from bot.service.store import (
    Entrant,
    RatingStore,
    ResultStore,
    TournamentGame,
    TournamentPlayer,
    TournamentRow,
    TournamentStore,
)
from bot.service.store.rows import iso
from bot.service.tables import Table
from league import tournament as league
from league.ratings import FRESH, REMOVED
from rules.core import Game, SeatSpec

log = logging.getLogger(__name__)

SEEDINGS = ("rating", "random")
OVER = ("finished", "abandoned", "cancelled")  # a match's ends: each decides its game
ABORTED = "aborted"  # how a game ended whose match was stopped before it had a result
RESULTS = ("played", "recorded", "deadline", ABORTED)  # results a round paired again would lose
HAS_RESULT = "A game of this round has a result: it can't be paired again."
OPEN = ("signup", "running")
AT_DEADLINE = ("forfeit", "moderator")
MOST_ROUNDS = 12
MOST_PLAYERS = 128
SIGNUP_RANGE = range(60, 30 * 86400 + 1)  # seconds: a minute to 30 days
ROUND_RANGE = range(600, 30 * 86400 + 1)  # ten minutes to 30 days


@dataclass(frozen=True)
class Event:
    """A tournament as it stands: its row, who signed up, its sides and its games."""

    row: TournamentRow
    players: list[TournamentPlayer]
    entrants: list[Entrant]
    games: list[TournamentGame]

    @property
    def seeds(self) -> list[int]:
        """The entrants, best seed first."""
        return [e.entrant for e in self.entrants]

    def dropped(self, before: int | None = None) -> set[int]:
        """The entrants who dropped out (by round `before`, if given)."""
        return {
            e.entrant
            for e in self.entrants
            if e.dropped_round is not None and (before is None or e.dropped_round <= before)
        }

    def played(self, *, rounds_before: int | None = None) -> list[league.Game]:
        """The games as the league reads them (those of rounds before one, if given)."""
        return [
            league.Game(g.round, g.a, g.b, g.points, both_lost=g.how == ABORTED)
            for g in self.games
            if rounds_before is None or g.round < rounds_before
        ]

    def round_games(self, round_no: int | None = None) -> list[TournamentGame]:
        """The games of a round (default: the one being played)."""
        wanted = self.row.round if round_no is None else round_no
        return [g for g in self.games if g.round == wanted]

    def standings(self) -> list[league.Standing]:
        """Every entrant ranked, with the format's tie-breaks."""
        return league.standings(self.row.format, self.seeds, self.played(), self.dropped())

    def winner(self) -> int | None:
        """Who wins the tournament as it stands (None: nobody, a single elimination whose
        final both sides lost)."""
        if self.row.format == league.ELIMINATION:
            return league.champion(self.seeds, self.played(), self.dropped())
        return self.standings()[0].entrant

    def entrant_of(self, user_id: int) -> int | None:
        """The side a player plays for."""
        return next((p.entrant for p in self.players if p.user_id == user_id), None)

    def members(self, entrant: int) -> list[TournamentPlayer]:
        """The players of a side, in their sign-up order."""
        return [p for p in self.players if p.entrant == entrant]

    def name(self, entrant: int | None) -> str:
        """A side's name ("a bye" for none)."""
        return next((e.name for e in self.entrants if e.entrant == entrant), "a bye")


def discord_time(moment: str) -> str:
    """A stored moment as Discord shows it, in each reader's own time zone."""
    stamp = int(datetime.fromisoformat(moment).timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def call_line(event: Event, round_no: int, board: int, users: list[int]) -> str:
    """The line in a pairing's thread that calls its players: whose match it is, its
    deadline and what happens then, and how to leave the tournament."""
    pings = " ".join(f"<@{u}>" for u in users)
    then = (
        "the seats still to move forfeit"
        if event.row.at_deadline == "forfeit"
        else "a moderator records the result"
    )
    ends = (
        f" Deadline {discord_time(event.row.round_ends)}: if it isn't over by then, {then}."
        if event.row.round_ends
        else ""
    )
    return (
        f"🏆 **{event.row.name}**, round {round_no}, table {board}: {pings}, this is your "
        f"match.{ends} (`/tournament drop` leaves the tournament.)"
    )


def side_seats(game: Game, variant: str) -> list[list[int]]:
    """The seats of each side of a variant, as the game deals them (side by side)."""
    count = game.variants[variant].max_players
    specs = [SeatSpec(seat=s, name=f"P{s + 1}") for s in range(count)]
    state = game.setup(variant, specs, {}, 0)
    sides: dict[int, list[int]] = {}
    for s in range(count):
        sides.setdefault(game.team_of(state, s), []).append(s)
    return list(sides.values())


def pairs_two_sides(game: Game, variant: str) -> bool:
    """Whether a tournament can play a variant: two sides a game (two players, or two
    teams)."""
    return len(side_seats(game, variant)) == 2


class Tournaments:
    """Sign-ups, seeding, pairings, results and moderators' corrections of tournaments."""

    def __init__(
        self,
        matches: MatchService,
        tournaments: TournamentStore,
        results: ResultStore,
        ratings: RatingStore,
    ) -> None:
        self.matches = matches
        self.tournaments = tournaments
        self.results = results
        self.ratings = ratings

    async def event(self, tournament_id: int) -> Event:
        """A tournament as it stands."""
        row = await self.tournaments.get(tournament_id)
        if row is None:
            raise errors.NoTournament()
        return Event(
            row,
            await self.tournaments.players(tournament_id),
            await self.tournaments.entrants(tournament_id),
            await self.tournaments.games(tournament_id),
        )

    async def in_channel(self, channel_id: int, guild_id: int, *, ended: bool = False) -> Event:
        """The open tournament run from a channel (`ended`: or else its last one)."""
        rows = await self.tournaments.in_channel(channel_id)
        row = next((r for r in rows if r.status in OPEN), None)
        if row is None and ended and rows:
            row = rows[0]
        if row is None or row.guild_id != guild_id:
            raise errors.NoTournament()
        return await self.event(row.id)

    # ------------------------------------------------------------ sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game: str,
        variant: str,
        format: str,
        rounds: int | None,
        signup_seconds: int,
        round_seconds: int,
        seeding: str = "rating",
        at_deadline: str = "forfeit",
        seed: int | None = None,
        now: datetime,
    ) -> TournamentRow:
        """Open a tournament's sign-up in a channel (one open tournament a channel). A
        chosen `seed` (random seeding, the matches' deals) is public, as a match's is."""
        rules = self.matches.game(game)
        if variant not in rules.variants:
            raise errors.BadOption(f"{rules.name} has no variant {variant!r}.")
        if not pairs_two_sides(rules, variant):
            raise errors.BadOption(
                f"A tournament pairs two sides a game: {rules.variants[variant].name} of "
                f"{rules.name} has more. Choose a 2-player or a two-team variant."
            )
        if format not in league.FORMATS:
            raise errors.BadOption(f"The format is one of {', '.join(league.FORMATS)}.")
        if seeding not in SEEDINGS or at_deadline not in AT_DEADLINE:
            raise errors.BadOption(
                "Seeding is by rating or random; at the deadline, forfeit or moderator."
            )
        if signup_seconds not in SIGNUP_RANGE or round_seconds not in ROUND_RANGE:
            raise errors.BadOption(
                "The sign-up lasts a minute to 30 days, and a round ten minutes to 30 days."
            )
        if format == league.SWISS and not 1 <= (rounds or 0) <= MOST_ROUNDS:
            raise errors.BadOption(f"A Swiss tournament plays 1 to {MOST_ROUNDS} rounds.")
        running = [t for t in await self.tournaments.in_channel(channel_id) if t.status in OPEN]
        if running:
            raise errors.BadOption("This channel already runs a tournament.")
        return await self.tournaments.create(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            game=rules.id,
            variant=variant,
            format=format,
            rounds=rounds or 0,
            seeding=seeding,
            round_seconds=round_seconds,
            at_deadline=at_deadline,
            signup_until=iso(now + timedelta(seconds=signup_seconds)),
            seed=secrets.randbits(53) if seed is None else seed,
            created_by=user_id,
        )

    async def join(self, tournament_id: int, user_id: int, name: str) -> Event:
        """Sign a player up."""
        event = await self.event(tournament_id)
        if event.row.status != "signup":
            raise errors.NoTournament("The sign-up is over.")
        if len(event.players) >= MOST_PLAYERS:
            raise errors.BadOption(f"The tournament is full ({MOST_PLAYERS} players).")
        if not await self.tournaments.sign_up(tournament_id, user_id, name, join=True):
            raise errors.BadOption("You are signed up already.")
        return await self.event(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> Event:
        """Take a player off the sign-up."""
        if not await self.tournaments.sign_up(tournament_id, user_id, "", join=False):
            raise errors.BadOption("You aren't signed up (or the sign-up is over).")
        return await self.event(tournament_id)

    # ------------------------------------------------------------ the start

    async def start(self, tournament_id: int, user_id: int | None, *, now: datetime) -> Event:
        """End the sign-up (a moderator, or its time running out): form and seed the
        sides, and pair the first round."""
        event = await self.event(tournament_id)
        row = event.row
        if row.status != "signup":
            raise errors.NoTournament("This tournament has started already.")
        rules = self.matches.game(row.game)
        size = len(side_seats(rules, row.variant)[0])
        players = event.players
        if len(players) < 2 * size or len(players) % size:
            wanted = "two players" if size == 1 else f"an even number of players, {2 * size} up"
            raise errors.WrongPlayerCount(f"A tournament needs {wanted}; {len(players)} signed up.")
        order = await self._seeded(row, players)
        sides = self._sides(order, size)
        entrants = [
            Entrant(n, n, " & ".join(p.name for p in side), None)
            for n, side in enumerate(sides, start=1)
        ]
        members = {p.user_id: n for n, side in enumerate(sides, start=1) for p in side}
        rounds = league.rounds_needed(row.format, len(entrants), row.rounds or None)
        who = "the sign-up time" if user_id is None else f"<@{user_id}>"
        note = (user_id, "start", f"Started by {who} with {len(entrants)} entrants.")
        if not await self.tournaments.start(
            tournament_id, entrants=entrants, members=members, rounds=rounds, notes=[note]
        ):
            raise errors.StateChanged()
        log.info("tournament %s: started, %d entrants", tournament_id, len(entrants))
        return await self._pair(await self.event(tournament_id), 1, now=now)

    async def _seeded(self, row: TournamentRow, players: list[TournamentPlayer]) -> list:
        """The players best first: by rating this season (the unrated as new players,
        then in sign-up order), or shuffled from the tournament's seed."""
        if row.seeding == "random":
            order = list(players)
            random.Random(row.seed).shuffle(order)
            return order
        season = (await self.matches.settings.guild(row.guild_id)).season
        rated = await self.ratings.top(row.guild_id, row.game, season, limit=10**6)
        shown = {r.user_id: r.skill.shown for r in rated}
        return sorted(players, key=lambda p: -shown.get(p.user_id, FRESH.shown))

    @staticmethod
    def _sides(order: list[TournamentPlayer], size: int) -> list[list[TournamentPlayer]]:
        """Players best first into sides of `size`: alone, or the best with the weakest,
        the second with the second weakest... (the sides, in that order, are the seeds)."""
        if size == 1:
            return [[p] for p in order]
        half = len(order) // 2
        return [[order[i], order[len(order) - 1 - i]] for i in range(half)]

    # ------------------------------------------------------------ rounds

    async def _pair(
        self, event: Event, round_no: int, *, now: datetime, again: bool = False
    ) -> Event:
        """Pair a round (again: in place of its pairings) and decide its byes, and the
        games of an entrant who dropped out (their opponent wins)."""
        row = event.row
        # Paired again, a round leaves out who dropped out during it too.
        dropped = event.dropped(round_no + 1 if again else round_no)
        played = event.played(rounds_before=round_no)
        if row.format == league.SWISS:
            pairs = league.swiss_round(event.seeds, played, dropped)
        elif row.format == league.ROUND_ROBIN:
            pairs = league.round_robin_round(event.seeds, round_no)
        else:
            pairs = league.elimination_round(event.seeds, played, round_no, dropped)
        pairs = sorted(pairs, key=lambda p: p[1] is None)  # byes at the last tables
        games = []
        for board, (a, b) in enumerate(pairs, start=1):
            points, how = (league.WIN, "bye") if b is None else (None, None)
            if b is not None and (a in dropped or b in dropped):
                points = (
                    league.DRAW
                    if a in dropped and b in dropped
                    else (league.LOSS if a in dropped else league.WIN)
                )
                how = "dropped"
            games.append(TournamentGame(round_no, board, a, b, points, how, None, None))
        ends = iso(now + timedelta(seconds=row.round_seconds))
        what = "paired again" if again else "paired"
        note = (
            None,
            "round",
            f"Round {round_no} {what}: "
            + "; ".join(f"table {g.board}: {event.name(g.a)} v {event.name(g.b)}" for g in games),
        )
        if not await self.tournaments.begin_round(
            row.id, round_no=round_no, games=games, ends=ends, again=again, notes=[note]
        ):
            if again:
                raise errors.BadOption(HAS_RESULT)
            return await self.event(row.id)  # paired meanwhile, by another task or process
        log.info("tournament %s: round %d %s", row.id, round_no, what)
        return await self._advance(await self.event(row.id), now=now)

    async def seat(self, tournament_id: int, round_no: int, board: int, channel_id: int) -> Table:
        """Open and start the match of a pairing in its channel (a thread), the two
        sides' players in the seats the variant gives each side, with a line calling
        them. Done again after a crash part-way, it finishes what was begun."""
        event = await self.event(tournament_id)
        game = next(g for g in event.round_games(round_no) if g.board == board)
        if game.match_id is None:
            match_id = await self._lobby(event, game, channel_id)
            users = [s.user_id for s in (await self.matches.table(match_id)).seats]
            line = call_line(event, round_no, board, users)
            called = outbox.say(match_id, line, ping=tuple(users))
            if not await self.tournaments.seat_game(
                tournament_id, round_no, board, match_id, channel_id, notices=[called]
            ):
                raise errors.StateChanged()
        else:
            match_id = game.match_id
        table = await self.matches.table(match_id)
        if table.match.status == "lobby":
            assert table.host is not None
            table = await self.matches.start(match_id, table.host.user_id)
        return table

    async def _lobby(self, event: Event, game: TournamentGame, channel_id: int) -> int:
        """The lobby of a pairing's match, its players seated side by side (the one
        begun in the channel before a crash, if there is one)."""
        assert game.b is not None
        row = event.row
        rules = self.matches.game(row.game)
        by_seat: dict[int, TournamentPlayer] = {}
        for side, entrant in zip(side_seats(rules, row.variant), (game.a, game.b), strict=True):
            for seat, player in zip(side, event.members(entrant), strict=True):
                by_seat[seat] = player
        host, *others = [by_seat[s] for s in sorted(by_seat)]
        try:
            match_id = (await self.matches.open_match(channel_id)).id
        except errors.NoMatchHere:
            seed = random.Random(f"{row.seed}:{game.round}:{game.board}").randrange(2**53)
            table = await self.matches.new_lobby(
                guild_id=row.guild_id,
                channel_id=channel_id,
                user_id=host.user_id,
                name=host.name,
                game=row.game,
                variant=row.variant,
                seed=seed,
            )
            match_id = table.match.id
        seated = {s.user_id for s in (await self.matches.table(match_id)).seats}
        for player in others:
            if player.user_id not in seated:
                await self.matches.join(match_id, player.user_id, player.name)
        return match_id

    async def collect(self, match_id: int, *, now: datetime) -> Event | None:
        """Hear of a match that changed: once a tournament's match is over, its game is
        decided and the round moves on when every game of it is decided. None for a
        match of no tournament, or one not over."""
        if (await self.matches.get(match_id)).status not in OVER:
            return None  # read from memory: no query for the moves of a match in play
        found = await self.tournaments.game_of_match(match_id)
        if found is None:
            return None
        tournament_id, round_no, board = found
        event = await self.event(tournament_id)
        game = next(g for g in event.round_games(round_no) if g.board == board)
        await self._decide_played(event, game)
        return await self._advance(await self.event(tournament_id), now=now)

    async def _decide_played(self, event: Event, game: TournamentGame) -> bool:
        """Decide a game by how its match ended: a side whose seats all won, won; all
        lost, lost (a match abandoned at a deadline: the side that left lost, as its
        thread is told); else a draw. A match stopped before it had a result is a loss
        for both (`_decide_stopped`). False for a match not over, or a game decided
        already (the tournament closes a match of its own only once its game is
        decided, or is no game of it any more)."""
        assert game.match_id is not None
        table = await self.matches.table(game.match_id)
        status = table.match.status
        if status == "cancelled":
            return await self._decide_stopped(event, game)
        mine = {s.seat for s in table.seats if event.entrant_of(s.user_id) == game.a}
        if status == "finished" and table.outcome is not None:
            won, lost = set(table.outcome.winners), set(table.outcome.losers)
        elif status == "abandoned":
            results = await self.results.of_match(game.match_id)
            won = {s for s, r in results.items() if r != "loss"}
            lost = {s for s, r in results.items() if r == "loss"}
        else:
            return False
        points = (
            league.WIN
            if mine and mine <= won and not mine & lost
            else league.LOSS
            if mine and mine <= lost
            else league.DRAW
        )
        line = self._result_line(event, game, points)
        note = (
            None,
            "result",
            f"Round {game.round}, table {game.board}: {line} (match #{game.match_id}).",
        )
        told: list[outbox.Notice] = []
        if status == "abandoned":  # the match says nobody won: the thread learns who did
            why = "" if points == league.DRAW else ", the side that ran out of time loses"
            told = [outbox.say(game.match_id, f"🏆 For the tournament{why}: {line}.")]
        return await self.tournaments.decide_game(
            event.row.id, game.round, game.board, points, "played", [note], notices=told
        )

    async def _decide_stopped(self, event: Event, game: TournamentGame) -> bool:
        """A game whose match was stopped before it had a result (a moderator's abort, its
        lobby closed) is a loss for both sides, at once, and its thread is told (in a
        single elimination neither goes on). False in a tournament no longer running
        (its cancelling closed the match)."""
        assert game.match_id is not None
        if event.row.status != "running":
            return False
        a, b = event.name(game.a), event.name(game.b)
        line = (
            "🏆 This match was stopped before it had a result, so for the tournament it "
            f"counts as a loss for both sides, {a} and {b}."
        )
        if event.row.format == league.ELIMINATION:
            line += " Neither goes on to the next round."
        note = (
            None,
            "result",
            f"Round {game.round}, table {game.board}: {a} and {b} both lost (match "
            f"#{game.match_id} was stopped before it had a result).",
        )
        told = [outbox.say(game.match_id, line)]
        return await self.tournaments.decide_game(
            event.row.id, game.round, game.board, league.LOSS, ABORTED, [note], notices=told
        )

    @staticmethod
    def _result_line(event: Event, game: TournamentGame, points: float) -> str:
        a, b = event.name(game.a), event.name(game.b)
        if points == league.DRAW:
            return f"{a} and {b} draw"
        return f"{a} beat {b}" if points == league.WIN else f"{b} beat {a}"

    async def resume(self, tournament_id: int, *, now: datetime) -> Event:
        """Go on from where a tournament was left: a match that ended unheard of (a stop
        between its end and its result) counts, and a round whose games are all decided
        is followed by the next (or the end)."""
        event = await self.event(tournament_id)
        for game in event.round_games():
            if game.points is None and game.match_id is not None:
                await self._decide_played(event, game)
        return await self._advance(await self.event(tournament_id), now=now)

    async def _advance(self, event: Event, *, now: datetime) -> Event:
        """Once every game of the round is decided: the next round, or the end."""
        row = event.row
        if row.status != "running" or not all(
            g.points is not None or g.b is None for g in event.round_games()
        ):
            return event
        if row.round >= row.rounds:
            winner = event.winner()
            result = (
                f"{event.name(winner)} wins"
                if winner is not None
                else "nobody wins (the final was stopped before it had a result)"
            )
            note = (None, "end", f"The tournament is over: {result}.")
            await self.tournaments.end(row.id, "finished", note)
            log.info("tournament %s: finished", row.id)
            return await self.event(row.id)
        return await self._pair(event, row.round + 1, now=now)

    async def deadline(self, tournament_id: int, round_no: int, *, now: datetime) -> Event:
        """A round's deadline came: each of its matches still being played goes to the
        tournament's rule. `forfeit`: the seats the match waits for forfeit (all on one
        side: that side loses; on both sides: the game is drawn and the match closed);
        `moderator`: the match plays on and its thread is told a moderator will record
        the result. Dealt with once: the round's moment is cleared with it."""
        event = await self.event(tournament_id)
        row = event.row
        late = [g for g in event.round_games(round_no) if g.points is None and g.b is not None]
        if row.at_deadline == "moderator":
            line = (
                f"⏰ Round {round_no}'s deadline has passed: a moderator will record this "
                "match's result (`/tournament record`)."
            )
            notices = [outbox.say(g.match_id, line) for g in late if g.match_id is not None]
            notes = [
                (
                    None,
                    "deadline",
                    f"Round {round_no}, table {g.board}: over time, for a moderator to record.",
                )
                for g in late
            ]
            await self.tournaments.deadline_passed(row.id, round_no, notices, notes)
            return await self.event(tournament_id)
        note = (None, "deadline", f"Round {round_no}'s deadline passed.")
        if not await self.tournaments.deadline_passed(row.id, round_no, notes=[note]):
            return event
        for game in late:
            await self._forfeit_at_deadline(event, game)
        return await self._advance(await self.event(tournament_id), now=now)

    async def _forfeit_at_deadline(self, event: Event, game: TournamentGame) -> None:
        """The seats a pairing's match waits for at the deadline forfeit (a match that
        ended meanwhile counts as it ended)."""
        note = f"⏰ Round {game.round}'s deadline has passed"
        table = None if game.match_id is None else await self.matches.table(game.match_id)
        if table is not None and table.match.status in OVER:
            await self._decide_played(event, game)
            return
        waiting = [] if table is None else [table.user_of(s) for s in table.to_act]
        sides = {event.entrant_of(s.user_id) for s in waiting}
        if table is not None and table.match.status == "active" and len(sides) == 1:
            seat = waiting[0]
            try:
                await self.matches.timeout(
                    table.match.id,
                    seat.seat,
                    version=table.match.version,
                    forfeit=True,
                    note=f"{note}: {seat.name} forfeits.",
                )
            except errors.StateChanged:  # it moved that moment (its own clock): look again
                await self._forfeit_at_deadline(event, game)
                return
            await self._decide_played(event, game)
            return
        line = (None, "deadline", f"Round {game.round}, table {game.board}: drawn at the deadline.")
        # Decided before its match is closed: a closed match of an undecided game is one
        # stopped before it had a result (`_decide_stopped`).
        decided = await self.tournaments.decide_game(
            event.row.id, game.round, game.board, league.DRAW, "deadline", [line]
        )
        if decided and table is not None and table.match.status in ("lobby", "active"):
            told = [outbox.say(table.match.id, f"{note}: the match is drawn.")]
            with contextlib.suppress(errors.NotActive):  # it ended at the last moment
                await self.matches.cancel(table.match.id, 0, moderator=True, notices=told)

    # ------------------------------------------------------------ moderators

    async def record(
        self, tournament_id: int, moderator_id: int, user_id: int, result: str, *, now: datetime
    ) -> Event:
        """A moderator records the result of a player's game this round (played
        elsewhere, or not played at all): "win", "loss" or "draw" for that player's side.
        The game's match, if one is still open, is closed without a winner. A game whose
        match was stopped (a loss for both) may be given its result so too, while its
        round is being played."""
        event = await self.event(tournament_id)
        entrant = event.entrant_of(user_id)
        game = next(
            (g for g in event.round_games() if entrant in (g.a, g.b) and g.b is not None),
            None,
        )
        if event.row.status != "running" or game is None:
            raise errors.BadOption("That player has no game this round.")
        if game.points is not None and game.how != ABORTED:
            raise errors.BadOption("That game's result is in already.")
        mine = {"win": league.WIN, "draw": league.DRAW, "loss": league.LOSS}[result]
        points = mine if entrant == game.a else 1.0 - mine
        said = self._result_line(event, game, points)
        note = (
            moderator_id,
            "record",
            f"<@{moderator_id}> recorded round {game.round}, table {game.board}: {said}.",
        )
        told: list[outbox.Notice] = []
        if game.how == ABORTED and game.match_id is not None:
            line = f"🛡️ <@{moderator_id}> recorded this game's result instead: {said}."
            told = [outbox.say(game.match_id, line)]
        # Decided before its match is closed: a closed match of an undecided game is one
        # stopped before it had a result (`_decide_stopped`).
        if not await self.tournaments.decide_game(
            tournament_id,
            game.round,
            game.board,
            points,
            "recorded",
            [note],
            notices=told,
            replacing=ABORTED,
        ):
            raise errors.BadOption("That game's result is in already.")
        line = f"🛡️ <@{moderator_id}> recorded this game's result: the match is closed."
        await self._close_matches([game], moderator_id, line)
        return await self._advance(await self.event(tournament_id), now=now)

    async def drop(
        self, tournament_id: int, moderator_id: int | None, user_id: int, *, now: datetime
    ) -> Event:
        """A player's side leaves the tournament (a moderator, or the player): paired no
        more; a game of theirs still open this round is lost (its match conceded)."""
        event = await self.event(tournament_id)
        entrant = event.entrant_of(user_id)
        if event.row.status != "running" or entrant is None or entrant in event.dropped():
            raise errors.BadOption("That player isn't in the tournament any more.")
        who = "themselves" if moderator_id in (None, user_id) else f"by <@{moderator_id}>"
        note = (moderator_id, "drop", f"{event.name(entrant)} dropped out ({who}).")
        await self.tournaments.drop_entrant(tournament_id, entrant, event.row.round + 1, note)
        game = next(
            (g for g in event.round_games() if entrant in (g.a, g.b) and g.points is None),
            None,
        )
        if game is not None and game.b is not None:
            match = None if game.match_id is None else await self.matches.get(game.match_id)
            if match is not None and match.status == "active":
                await self.matches.concede(match.id, user_id, ending=REMOVED)
                return await self.event(tournament_id)  # `collect` decides it
            points = league.LOSS if entrant == game.a else league.WIN
            await self.tournaments.decide_game(
                tournament_id, game.round, game.board, points, "dropped"
            )
        return await self._advance(await self.event(tournament_id), now=now)

    async def pair_again(self, tournament_id: int, moderator_id: int, *, now: datetime) -> Event:
        """A moderator pairs the current round again (its matches, closed unplayed,
        start over): refused once a game of the round has a result."""
        event = await self.event(tournament_id)
        games = event.round_games()
        if event.row.status != "running" or any(g.how in RESULTS for g in games):
            raise errors.BadOption(HAS_RESULT)
        # Paired again before the old matches are closed: by then they play no game of
        # the tournament, so closing them decides nothing.
        paired = await self._pair(event, event.row.round, now=now, again=True)
        line = f"🛡️ <@{moderator_id}> paired round {event.row.round} again: this match is closed."
        await self._close_matches(games, moderator_id, line)
        return paired

    async def _close_matches(
        self, games: list[TournamentGame], moderator_id: int, line: str
    ) -> None:
        """Close the games' matches still open, telling each thread why."""
        for game in games:
            if game.match_id is None:
                continue
            if (await self.matches.get(game.match_id)).status in ("lobby", "active"):
                told = [outbox.say(game.match_id, line)]
                await self.matches.cancel(game.match_id, moderator_id, moderator=True, notices=told)

    async def cancel(
        self, tournament_id: int, moderator_id: int | None, *, why: str | None = None
    ) -> Event:
        """A moderator ends a tournament before its end (or its sign-up ends with too
        few players, `why`): nobody wins it."""
        text = f"<@{moderator_id}> cancelled the tournament." if moderator_id else why
        note = (moderator_id, "cancel", text or "Cancelled.")
        if not await self.tournaments.end(tournament_id, "cancelled", note):
            raise errors.NoTournament("This tournament is over already.")
        event = await self.event(tournament_id)
        if moderator_id is not None:
            line = f"🛡️ <@{moderator_id}> cancelled the tournament: this match is closed."
            await self._close_matches(event.round_games(), moderator_id, line)
        return event
