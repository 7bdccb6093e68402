"""Results of finished matches, per seat and player, read back for `/stats` and
`/leaderboard` (shown by `bot.render.stats`).

A match's result is recorded once, with the action that finishes it (in the same
transaction: see `Plan`), and at start-up for any finished match not recorded yet
(one that finished before results were recorded so). Cancelled and abandoned matches count for
nobody: only a finished match with winners is recorded, or a solitaire game (won or
lost against its nemesis, which the record names: the nemesis victory tracker). A match
the AI played a seat of is recorded for its people apart: their record against Arbiter,
never in the records and leaderboards between people.
"""

from __future__ import annotations

import logging

from bot.service.matches import MatchService, Plan, Table
from bot.service.store import Hunter, Record, Results, Versus

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


class Stats:
    """Records results and reads them back, per server."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        matches.plan_with(self.plan)

    async def plan(self, table: Table) -> Plan:
        """The results an action that finishes a match saves with it."""
        results = self.results(table)
        return Plan(results=results) if results is not None else Plan()

    @staticmethod
    def results(table: Table) -> Results | None:
        """How each seat of a finished match ended; None for a match that counts for
        nobody (not finished, or no winner outside a solitaire game)."""
        outcome = table.outcome
        if table.match.status != "finished" or outcome is None:
            return None
        if not (outcome.winners or outcome.against):
            return None
        by_seat = {
            s.seat: "win"
            if s.seat in outcome.winners
            else "loss"
            if s.seat in outcome.losers
            else "draw"
            for s in table.seats
            if s.person  # the AI's own seats count for no one
        }
        return Results(
            by_seat, outcome.against, outcome.against_level or None, with_ai=table.with_ai
        )

    async def record(self, match_id: int) -> None:
        """Record a finished match's result for each seat (once; anything else is ignored)."""
        results = self.results(await self.matches.table(match_id))
        if results is not None and await self.matches.store.record_results(match_id, results):
            log.info("match %s: results recorded", match_id)

    async def catch_up(self) -> None:
        """Record every finished match whose result is missing."""
        for match_id in await self.matches.store.unrecorded_matches():
            await self.record(match_id)

    async def player(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's records in a server, one per game."""
        return await self.matches.store.player_records(guild_id, user_id)

    async def against_ai(self, guild_id: int, user_id: int) -> list[Record]:
        """A player's records in matches the AI played in (not rated), per game."""
        return await self.matches.store.player_records(guild_id, user_id, with_ai=True)

    async def versus(self, guild_id: int, user_id: int) -> list[Versus]:
        """A player's solitaire records per opponent (the nemesis victory tracker)."""
        return await self.matches.store.versus_records(guild_id, user_id)

    async def leaderboard(self, guild_id: int, game: str) -> list[Record]:
        """A server's best players of a game."""
        self.matches.game(game)  # an unknown game is refused by name
        return await self.matches.store.leaderboard(guild_id, game, limit=LEADERBOARD_SIZE)

    async def hunters(self, guild_id: int, game: str) -> list[Hunter]:
        """A server's best solitaire players of a game: most opponents beaten, hardest."""
        self.matches.game(game)
        return await self.matches.store.hunters(guild_id, game, limit=LEADERBOARD_SIZE)
