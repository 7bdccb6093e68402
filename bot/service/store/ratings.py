"""Ratings and seasons: a server's league, match by match in the order rated, with
each change kept (the maths is `league.ratings`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence

from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.rows import (
    Rating,
    RatingChange,
)
from league.ratings import FRESH, Placing, Skill, counts, rate, sides


class RatingStore:
    """Players' ratings, their changes and servers' seasons."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def lock_league(self, db: Change, guild_id: int) -> tuple[int, frozenset[str]]:
        """Hold the server's settings row until the transaction ends (ratings are rated
        one match at a time per server, in one order on every engine), and read its
        season and rated endings."""
        await db.execute(
            "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET season = guild_settings.season",
            (guild_id, self._db.now()),
        )
        row = await db.fetchone(
            "SELECT season, rated_endings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        assert row is not None
        return row["season"], frozenset(json.loads(row["rated_endings"]))

    async def rate(self, db: Change, match_id: int, held: frozenset[str] | None = None) -> None:
        """Decide whether a match's recorded results are rated and, if so, rate it: its
        players' ratings move, the change of each is kept, and the results carry the
        match's place in the rating order (0: not rated). A match decided already (by
        another process meanwhile) is left as it is. `held`: the rated endings, read
        under the server's lock this transaction already holds."""
        first = await db.fetchone(
            "SELECT r.guild_id, r.with_ai, r.opponent, m.practice FROM results r"
            " JOIN matches m ON m.id = r.match_id WHERE r.match_id = ? LIMIT 1",
            (match_id,),
        )
        if first is None:
            return
        guild_id = first["guild_id"]
        rateable = (
            guild_id is not None
            and not first["with_ai"]
            and first["opponent"] is None
            and not first["practice"]  # a practice match is never rated
        )
        rated_endings: frozenset[str] = held or frozenset()
        if rateable and held is None:
            _, rated_endings = await self.lock_league(db, guild_id)
        rows = await db.fetch(
            "SELECT seat, user_id, game, season, team, place, ending, recorded_at, rating_seq"
            " FROM results WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        if any(r["rating_seq"] is not None for r in rows):
            return
        head = rows[0]
        game, season = head["game"], head["season"]
        placings = [
            Placing(r["user_id"], r["seat"] if r["team"] is None else r["team"], r["place"])
            for r in rows
        ]
        seq = 0
        if rateable and counts(head["ending"], rated_endings) and sides(placings) is not None:
            last = await db.fetchone(
                "SELECT MAX(rating_seq) AS seq FROM results"
                " WHERE guild_id = ? AND game = ? AND season = ? AND rating_seq > 0",
                (guild_id, game, season),
            )
            seq = ((last and last["seq"]) or 0) + 1
            league = (guild_id, game, season)
            await self._move_ratings(db, league, match_id, seq, placings, head["recorded_at"])
        await db.execute("UPDATE results SET rating_seq = ? WHERE match_id = ?", (seq, match_id))

    async def _move_ratings(
        self,
        db: Change,
        league: tuple[int, str, int],
        match_id: int,
        seq: int,
        placings: Sequence[Placing],
        at: str,
    ) -> None:
        """Rate one match from the ratings as they stand, and save what it changed."""
        users = sorted({p.user_id for p in placings})
        marks = ", ".join("?" * len(users))
        held = await db.fetch(
            "SELECT user_id, mu, sigma, games FROM ratings"
            f" WHERE guild_id = ? AND game = ? AND season = ? AND user_id IN ({marks})",
            (*league, *users),
        )
        before = {r["user_id"]: Skill(r["mu"], r["sigma"]) for r in held}
        games = {r["user_id"]: r["games"] for r in held}
        after = rate(placings, before)
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, season, user_id, mu, sigma, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, updated_at = excluded.updated_at",
            [
                (*league, u, skill.mu, skill.sigma, games.get(u, 0) + 1, at)
                for u, skill in after.items()
            ],
        )
        guild_id, game, season = league
        await db.executemany(
            "INSERT INTO rating_changes (match_id, user_id, guild_id, game, season, rating_seq,"
            " mu_before, sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (match_id, u, guild_id, game, season, seq, was.mu, was.sigma, s.mu, s.sigma, at)
                for u, s in after.items()
                for was in [before.get(u, FRESH)]
            ],
        )

    async def undecided(self) -> list[int]:
        """The matches whose results were recorded before ratings existed, in the order
        they were recorded."""
        rows = await self._db.all(
            "SELECT match_id, MIN(recorded_at) AS at FROM results WHERE rating_seq IS NULL"
            " GROUP BY match_id ORDER BY at, match_id"
        )
        return [r["match_id"] for r in rows]

    async def rate_undecided(self, match_id: int, teams: Mapping[int, int]) -> None:
        """Rate, or mark unrated, results recorded before ratings existed, each seat on
        its side (`teams`: seat -> side, which those results didn't keep)."""
        async with self._db.transaction() as db:
            await db.executemany(
                "UPDATE results SET team = ? WHERE match_id = ? AND seat = ? AND team IS NULL",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
            await self.rate(db, match_id)

    async def rebuild(self, guild_id: int) -> tuple[int, int]:
        """Work a server's ratings out again from its rated results alone, in their
        rating order, and store them in place of the ones held: (matches replayed,
        players whose stored rating differed)."""
        async with self._db.transaction() as db:
            await self.lock_league(db, guild_id)
            rows = await db.fetch(
                "SELECT match_id, seat, user_id, game, season, COALESCE(team, seat) AS team,"
                " place, rating_seq, recorded_at FROM results WHERE guild_id = ? AND rating_seq > 0"
                " ORDER BY game, season, rating_seq, seat",
                (guild_id,),
            )
            held = {
                (r["game"], r["season"], r["user_id"]): (r["mu"], r["sigma"], r["games"])
                for r in await db.fetch(
                    "SELECT game, season, user_id, mu, sigma, games FROM ratings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            }
            await db.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            matches = itertools.groupby(
                rows, key=lambda r: (r["game"], r["season"], r["rating_seq"], r["match_id"])
            )
            replayed = 0
            for (game, season, seq, match_id), group in matches:
                seats = list(group)
                placings = [Placing(r["user_id"], r["team"], r["place"]) for r in seats]
                at = seats[0]["recorded_at"]
                await self._move_ratings(db, (guild_id, game, season), match_id, seq, placings, at)
                replayed += 1
            rebuilt = {
                (r["game"], r["season"], r["user_id"]): (r["mu"], r["sigma"], r["games"])
                for r in await db.fetch(
                    "SELECT game, season, user_id, mu, sigma, games FROM ratings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            }
        keys = held.keys() | rebuilt.keys()
        return replayed, sum(1 for key in keys if held.get(key) != rebuilt.get(key))

    async def top(self, guild_id: int, game: str, season: int, *, limit: int) -> list[Rating]:
        """A server's best rated players of a game in a season, by `Skill.shown`."""
        rows = await self._db.all(
            "SELECT user_id, game, season, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND game = ? AND season = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (guild_id, game, season, limit),
        )
        return [decode.rating(r) for r in rows]

    async def of_player(self, guild_id: int, user_id: int, season: int) -> list[Rating]:
        """A player's ratings in a server's season, one per game they were rated in."""
        rows = await self._db.all(
            "SELECT user_id, game, season, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND user_id = ? AND season = ? ORDER BY games DESC, game",
            (guild_id, user_id, season),
        )
        return [decode.rating(r) for r in rows]

    async def history(
        self, guild_id: int, user_id: int, game: str, season: int, *, limit: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and season, oldest first."""
        rows = await self._db.all(
            "SELECT match_id, rating_seq, mu_before, sigma_before, mu, sigma, at"
            " FROM rating_changes WHERE guild_id = ? AND user_id = ? AND game = ?"
            " AND season = ? ORDER BY rating_seq DESC LIMIT ?",
            (guild_id, user_id, game, season, limit),
        )
        return [decode.rating_change(r) for r in reversed(rows)]

    async def new_season(self, guild_id: int, user_id: int) -> int:
        """Start a server's next season (its ratings start afresh; the old ones stay);
        its number."""
        async with self._db.transaction() as db:
            season, _ = await self.lock_league(db, guild_id)
            season += 1
            await db.execute(
                "UPDATE guild_settings SET season = ?, updated_at = ? WHERE guild_id = ?",
                (season, self._db.now(), guild_id),
            )
            await db.execute(
                "INSERT INTO seasons (guild_id, season, started_at, started_by)"
                " VALUES (?, ?, ?, ?)",
                (guild_id, season, self._db.now(), user_id),
            )
            db.then(lambda: self._db.memory.forget_small("guild", guild_id), f"g:{guild_id}")
        return season
