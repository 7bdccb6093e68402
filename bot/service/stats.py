"""Results of finished matches, per seat and player, read back for `/stats` and
`/leaderboard` (shown by `bot.render.stats`).

A match's result is recorded once, with the action that finishes it (in the same
transaction: see `Plan`), and at start-up for any finished match not recorded yet
(one that finished before results were recorded so). Cancelled matches count for nobody, and
abandoned ones count in nobody's wins and losses: a finished match with winners is
recorded, or a solitaire game (won or lost against its nemesis, which the record names:
the nemesis victory tracker), and an abandoned one for ratings alone.

Ratings (`league.ratings`) move with the results, in the same transaction: a match
between people in a server, played to its end or ended in a way the server rates
(`/settings ratings`), one season at a time. A match
the AI played a seat of is recorded for its people apart: their record against Arbiter,
never in the records and leaderboards between people.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import (
    Hunter,
    Rating,
    RatingChange,
    RatingStore,
    Record,
    ResultStore,
    Versus,
)
from bot.service.tables import Plan, Table

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10
HISTORY_SIZE = 10  # rating changes `/stats` shows for a game


class Stats:
    """Records results and reads them back, per server."""

    def __init__(self, matches: MatchService, results: ResultStore, ratings: RatingStore) -> None:
        self.matches = matches
        self._results = results
        self._ratings = ratings
        matches.plan_with(self.plan)

    async def plan(self, table: Table) -> Plan:
        """The results an action that finishes a match saves with it."""
        results = table.results()
        return Plan(results=results) if results is not None else Plan()

    async def record(self, match_id: int) -> None:
        """Record a finished match's result for each seat (once; anything else is ignored)."""
        results = (await self.matches.table(match_id)).results()
        if results is not None and await self._results.record(match_id, results):
            log.info("match %s: results recorded", match_id)

    async def catch_up(self) -> None:
        """Record every finished match whose result is missing, and rate the results
        recorded before ratings were."""
        for match_id in await self._results.unrecorded():
            await self.record(match_id)
        undecided = await self._ratings.undecided()
        for match_id in undecided:
            await self._ratings.rate_undecided(match_id, (await self.matches.table(match_id)).teams)
        if undecided:
            log.info("ratings: %d earlier matches decided", len(undecided))

    async def player(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's records in a server, one per game."""
        return await self._results.player_records(guild_id, user_id)

    async def against_ai(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's records in matches the AI played in (not rated), per game."""
        return await self._results.player_records(guild_id, user_id, with_ai=True)

    async def versus(self, guild_id: int, user_id: int) -> list[Versus]:
        """A player's solitaire records per opponent (the nemesis victory tracker)."""
        return await self._results.versus_records(guild_id, user_id)

    async def season(self, guild_id: int, season: int | None = None) -> int:
        """The season asked for (refused unless it has begun), or the server's current one."""
        current = (await self.matches.settings.guild(guild_id)).season
        if season is None:
            return current
        if not 1 <= season <= current:
            raise errors.NoSuchSeason(
                f"This server's seasons run from 1 to {current}: season {season} "
                + ("hasn't begun." if season > current else "doesn't exist.")
            )
        return season

    async def ratings(self, guild_id: int, game: str, season: int) -> list[Rating]:
        """A server's best rated players of a game in a season."""
        self.matches.game(game)
        return await self._ratings.top(guild_id, game, season, limit=LEADERBOARD_SIZE)

    async def player_ratings(self, guild_id: int, user_id: int, season: int) -> list[Rating]:
        """A player's ratings in a season, per game."""
        return await self._ratings.of_player(guild_id, user_id, season)

    async def history(
        self, guild_id: int, user_id: int, game: str, season: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and season, oldest first."""
        self.matches.game(game)
        return await self._ratings.history(guild_id, user_id, game, season, limit=HISTORY_SIZE)

    async def rebuild(self, guild_id: int) -> tuple[int, int]:
        """Work the server's ratings out again from its results: (matches, players
        whose stored rating differed)."""
        replayed, differing = await self._ratings.rebuild(guild_id)
        log.info("guild %s: %d matches rated again, %d differed", guild_id, replayed, differing)
        return replayed, differing

    async def new_season(self, guild_id: int, moderator_id: int) -> int:
        """Start the server's next season; its number."""
        season = await self._ratings.new_season(guild_id, moderator_id)
        log.info("guild %s: season %d started by %s", guild_id, season, moderator_id)
        return season

    async def names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """What the table called each of these players in their latest match here."""
        return await self._results.player_names(guild_id, list(dict.fromkeys(user_ids)))

    async def hunters(self, guild_id: int, game: str) -> list[Hunter]:
        """A server's best solitaire players of a game: most opponents beaten, hardest."""
        self.matches.game(game)
        return await self._results.hunters(guild_id, game, limit=LEADERBOARD_SIZE)
