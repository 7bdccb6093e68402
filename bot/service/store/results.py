"""Results: how each seat of a finished match ended, and the records, names and
solitaire tables read from them (rating them is `bot.service.store.ratings`').
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.ratings import RatingStore
from bot.service.store.rows import (
    Hunter,
    Record,
    Results,
    Versus,
)


class ResultStore:
    """The results of finished matches, and the records read from them."""

    def __init__(self, db: Database, ratings: RatingStore) -> None:
        self._db = db
        self._ratings = ratings

    async def record(self, match_id: int, results: Results) -> bool:
        """Record how each seat of a finished match ended, credited to whoever holds it;
        False when they were recorded already."""
        async with self._db.transaction() as db:
            return await self.record_in(db, match_id, results)

    async def record_in(self, db: Change, match_id: int, results: Results) -> bool:
        """Write the results (each seat's side, place and the match's season with them),
        then rate the match; False when they were recorded already."""
        found = await db.fetchone("SELECT guild_id FROM matches WHERE id = ?", (match_id,))
        guild_id = None if found is None else found["guild_id"]
        season, rated_endings = 1, None
        if guild_id is not None and not results.with_ai and results.opponent is None:
            season, rated_endings = await self._ratings.lock_league(db, guild_id)
        elif guild_id is not None:
            held = await db.fetchone(
                "SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            season = 1 if held is None else held["season"]
        places = {"win": 1, "draw": 2, "loss": 3}
        now = self._db.now()
        recorded = 0
        for seat, result in results.by_seat.items():
            recorded += await db.execute(
                "INSERT INTO results (match_id, seat, user_id, guild_id, game,"
                " result, recorded_at, opponent, opponent_level, with_ai,"
                " team, place, ending, season)"
                " SELECT s.match_id, s.seat, s.user_id, m.guild_id, m.game, CAST(? AS TEXT),"
                " CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER),"
                " CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER)"
                " FROM seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.seat = ? AND m.status IN ('finished', 'abandoned')"
                " ON CONFLICT DO NOTHING",
                (
                    result,
                    now,
                    results.opponent,
                    results.opponent_level,
                    int(results.with_ai),
                    results.teams.get(seat, seat),
                    results.places.get(seat, places[result]),
                    results.ending,
                    season,
                    match_id,
                    seat,
                ),
            )
        if recorded:
            await self._ratings.rate(db, match_id, rated_endings)
        return recorded > 0

    async def versus_records(self, guild_id: int, user_id: int) -> list[Versus]:
        """A player's solitaire records per opponent, in this server or in direct
        messages with the bot (where solitaire games are played too)."""
        rows = await self._db.all(
            "SELECT user_id, game, opponent, MAX(opponent_level) AS level,"
            " COUNT(*) FILTER (WHERE result = 'win') AS wins,"
            " COUNT(*) FILTER (WHERE result = 'loss') AS losses FROM results"
            " WHERE user_id = ? AND opponent IS NOT NULL AND (guild_id = ? OR guild_id IS NULL)"
            " GROUP BY user_id, game, opponent ORDER BY game, level, opponent",
            (user_id, guild_id),
        )
        return [
            Versus(r["user_id"], r["game"], r["opponent"], r["level"] or 0, r["wins"], r["losses"])
            for r in rows
        ]

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each of these players was seated under in their latest recorded match
        in a server (a player with none is left out)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._db.all(
            "SELECT r.user_id, s.display_name FROM results r"
            " JOIN seats s ON s.match_id = r.match_id AND s.user_id = r.user_id"
            f" WHERE r.guild_id = ? AND r.user_id IN ({marks}) ORDER BY r.match_id",
            (guild_id, *user_ids),
        )
        return {r["user_id"]: r["display_name"] for r in rows}  # the latest match's last

    async def hunters(self, guild_id: int, game: str, *, limit: int) -> list[Hunter]:
        """A server's best solitaire players of a game: the most opponents beaten, then
        the hardest one beaten, then the most wins (games in this server only)."""
        rows = await self._db.all(
            "SELECT user_id, COUNT(DISTINCT CASE WHEN result = 'win' THEN opponent END)"
            " AS beaten, MAX(CASE WHEN result = 'win' THEN opponent_level ELSE 0 END)"
            " AS hardest, COUNT(*) FILTER (WHERE result = 'win') AS wins, COUNT(*) AS games"
            " FROM results WHERE guild_id = ? AND game = ? AND opponent IS NOT NULL"
            " GROUP BY user_id ORDER BY beaten DESC, hardest DESC, wins DESC, games, user_id"
            " LIMIT ?",
            (guild_id, game, limit),
        )
        return [
            Hunter(r["user_id"], r["beaten"], r["hardest"] or 0, r["wins"], r["games"])
            for r in rows
        ]

    # An abandoned match counts for nobody's wins and losses (it is kept for ratings).
    _COUNTED = "ending <> 'abandoned'"

    _TALLY = (
        "SELECT user_id, game, COUNT(*) AS games,"
        " COUNT(*) FILTER (WHERE result = 'win') AS wins,"
        " COUNT(*) FILTER (WHERE result = 'loss') AS losses FROM results"
    )

    async def player_records(
        self, guild_id: int, user_id: int, *, with_ai: bool = False
    ) -> list[Record]:
        """A player's results in a server, one record per game, most played first: of
        the matches between people, or (`with_ai`) of those the AI played in, DMs
        included."""
        where = "(guild_id = ? OR guild_id IS NULL)" if with_ai else "guild_id = ?"
        rows = await self._db.all(
            f"{self._TALLY} WHERE {where} AND user_id = ? AND with_ai = ? AND {self._COUNTED}"
            " GROUP BY user_id, game ORDER BY games DESC, game",
            (guild_id, user_id, int(with_ai)),
        )
        return [decode.record(r) for r in rows]

    async def of_match(self, match_id: int) -> dict[int, str]:
        """How each seat of a match ended, as recorded (`{seat: 'win' | 'loss' | 'draw'}`)."""
        rows = await self._db.all(
            "SELECT seat, result FROM results WHERE match_id = ?", (match_id,)
        )
        return {r["seat"]: r["result"] for r in rows}

    async def unrecorded(self) -> list[int]:
        """Finished matches whose results are not recorded yet."""
        rows = await self._db.all(
            "SELECT id FROM matches m WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.match_id = m.id) ORDER BY id",
        )
        return [r["id"] for r in rows]
