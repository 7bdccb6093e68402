"""Tournaments: their sign-up, sides, rounds and pairings, and their own log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.service.outbox import Notice
from bot.service.store import rows as decode
from bot.service.store.database import Change, Database
from bot.service.store.outbox import OutboxStore
from bot.service.store.rows import (
    Entrant,
    TournamentGame,
    TournamentPlayer,
    TournamentRow,
)


class TournamentStore:
    """Tournaments, their players, rounds, pairings and log."""

    def __init__(self, db: Database, outbox: OutboxStore) -> None:
        self._db = db
        self._outbox = outbox

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        game: str,
        variant: str,
        format: str,
        rounds: int,
        seeding: str,
        round_seconds: int,
        at_deadline: str,
        signup_until: str,
        seed: int,
        created_by: int,
    ) -> TournamentRow:
        """Open a tournament's sign-up."""
        now = self._db.now()
        async with self._db.transaction() as db:
            (row,) = await db.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, variant, format,"
                " rounds, seeding, round_seconds, at_deadline, signup_until, seed, created_by,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    name,
                    game,
                    variant,
                    format,
                    rounds,
                    seeding,
                    round_seconds,
                    at_deadline,
                    signup_until,
                    seed,
                    created_by,
                    now,
                ),
            )
        return decode.tournament_row(row)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by its id."""
        row = await self._db.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else decode.tournament_row(row)

    async def open(self, guild_id: int | None = None) -> list[TournamentRow]:
        """The tournaments signing up or running (of a server, or of every server this
        process serves)."""
        owned, params = self._db.owned("guild_id")
        where = f"status IN ('signup', 'running') AND {owned}"
        if guild_id is not None:
            where += " AND guild_id = ?"
            params = (*params, guild_id)
        rows = await self._db.all(f"SELECT * FROM tournaments WHERE {where} ORDER BY id", params)
        return [decode.tournament_row(r) for r in rows]

    async def in_channel(self, channel_id: int) -> list[TournamentRow]:
        """The tournaments run from a channel, the latest first."""
        rows = await self._db.all(
            "SELECT * FROM tournaments WHERE channel_id = ? ORDER BY id DESC", (channel_id,)
        )
        return [decode.tournament_row(r) for r in rows]

    async def players(self, tournament_id: int) -> list[TournamentPlayer]:
        """Who signed up, in the order they did."""
        rows = await self._db.all(
            "SELECT user_id, name, entrant FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return [TournamentPlayer(r["user_id"], r["name"], r["entrant"]) for r in rows]

    async def sign_up(self, tournament_id: int, user_id: int, name: str, *, join: bool) -> bool:
        """Add a player to a tournament still signing up (`join`), or take them off it;
        False when nothing changed (already in, not in, or sign-up over)."""
        async with self._db.transaction() as db:
            open_ = await db.fetchone(
                "SELECT id FROM tournaments WHERE id = ? AND status = 'signup'", (tournament_id,)
            )
            if open_ is None:
                return False
            if join:
                return bool(
                    await db.execute(
                        "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (tournament_id, user_id, name, self._db.now()),
                    )
                )
            return bool(
                await db.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
            )

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's sides, best seed first."""
        rows = await self._db.all(
            "SELECT entrant, seed, name, dropped_round FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,),
        )
        return [Entrant(r["entrant"], r["seed"], r["name"], r["dropped_round"]) for r in rows]

    async def games(self, tournament_id: int) -> list[TournamentGame]:
        """Every pairing so far, round by round, table by table."""
        rows = await self._db.all(
            "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board",
            (tournament_id,),
        )
        return [decode.tournament_game(r) for r in rows]

    async def start(
        self,
        tournament_id: int,
        *,
        entrants: Sequence[Entrant],
        members: dict[int, int],
        rounds: int,
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """End the sign-up: the sides and their seeds, each player's side (`members`:
        user -> entrant), the rounds to play. False unless it was still signing up."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?"
                " WHERE id = ? AND status = 'signup'",
                (rounds, tournament_id),
            )
            if not changed:
                return False
            await db.executemany(
                "INSERT INTO tournament_entrants (tournament_id, entrant, seed, name)"
                " VALUES (?, ?, ?, ?)",
                [(tournament_id, e.entrant, e.seed, e.name) for e in entrants],
            )
            await db.executemany(
                "UPDATE tournament_players SET entrant = ? WHERE tournament_id = ? AND user_id = ?",
                [(entrant, tournament_id, user) for user, entrant in members.items()],
            )
            await self._notes(db, tournament_id, notes)
            return True

    async def begin_round(
        self,
        tournament_id: int,
        *,
        round_no: int,
        games: Sequence[TournamentGame],
        ends: str,
        again: bool = False,
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """Pair a round: the one after the round being played, or (`again`) the round
        being played anew, its games replaced while none has a result. False if the
        tournament moved on meanwhile (another process or task paired it first, a
        result came in)."""
        unplayed = (
            " AND NOT EXISTS (SELECT 1 FROM tournament_games g"
            " WHERE g.tournament_id = tournaments.id AND g.round = ?"
            " AND g.how IN ('played', 'recorded', 'deadline', 'aborted'))"
        )
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET round = ?, round_ends = ?"
                " WHERE id = ? AND status = 'running' AND round = ?" + (unplayed if again else ""),
                (round_no, ends, tournament_id, round_no if again else round_no - 1)
                + ((round_no,) if again else ()),
            )
            if not changed:
                return False
            await db.execute(
                "DELETE FROM tournament_games WHERE tournament_id = ? AND round = ?",
                (tournament_id, round_no),
            )
            await db.executemany(
                "INSERT INTO tournament_games (tournament_id, round, board, a, b, points, how)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, g.round, g.board, g.a, g.b, g.points, g.how) for g in games],
            )
            await self._notes(db, tournament_id, notes)
            return True

    async def seat_game(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        match_id: int,
        thread_id: int,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """The match (in its thread) that plays a pairing, with what it tells its
        players; False if it had one."""
        async with self._db.transaction() as db:
            seated = await db.execute(
                "UPDATE tournament_games SET match_id = ?, thread_id = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ? AND match_id IS NULL",
                (match_id, thread_id, tournament_id, round_no, board),
            )
            if seated:
                await self._outbox.write(db, notices)
            return bool(seated)

    async def decide_game(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        points: float,
        how: str,
        notes: Sequence[tuple[int | None, str, str]] = (),
        *,
        notices: Sequence[Notice] = (),
        replacing: str | None = None,
    ) -> bool:
        """A pairing's result (`a`'s points), with what it tells its thread; False if it
        had one already (unless the one it had was decided the way `replacing` names)."""
        unless = " OR how = ?" if replacing is not None else ""
        async with self._db.transaction() as db:
            decided = await db.execute(
                "UPDATE tournament_games SET points = ?, how = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ?"
                f" AND (points IS NULL{unless}) AND b IS NOT NULL",
                (points, how, tournament_id, round_no, board)
                + ((replacing,) if replacing is not None else ()),
            )
            if decided:
                await self._outbox.write(db, notices)
                await self._notes(db, tournament_id, notes)
            return bool(decided)

    async def deadline_passed(
        self,
        tournament_id: int,
        round_no: int,
        notices: Sequence[Notice] = (),
        notes: Sequence[tuple[int | None, str, str]] = (),
    ) -> bool:
        """A round's deadline has been dealt with (its moment is cleared, with what that
        tells); False if it was already, or the tournament moved on."""
        async with self._db.transaction() as db:
            passed = await db.execute(
                "UPDATE tournaments SET round_ends = NULL WHERE id = ? AND round = ?"
                " AND status = 'running' AND round_ends IS NOT NULL",
                (tournament_id, round_no),
            )
            if passed:
                await self._outbox.write(db, notices)
                await self._notes(db, tournament_id, notes)
            return bool(passed)

    async def game_of_match(self, match_id: int) -> tuple[int, int, int] | None:
        """The tournament, round and table a match plays, if it plays one."""
        row = await self._db.one(
            "SELECT tournament_id, round, board FROM tournament_games WHERE match_id = ?",
            (match_id,),
        )
        return None if row is None else (row["tournament_id"], row["round"], row["board"])

    async def drop_entrant(
        self, tournament_id: int, entrant: int, round_no: int, note: tuple[int | None, str, str]
    ) -> bool:
        """An entrant paired no more from `round_no` on; False if it had dropped already."""
        async with self._db.transaction() as db:
            dropped = await db.execute(
                "UPDATE tournament_entrants SET dropped_round = ?"
                " WHERE tournament_id = ? AND entrant = ? AND dropped_round IS NULL",
                (round_no, tournament_id, entrant),
            )
            if dropped:
                await self._notes(db, tournament_id, [note])
            return bool(dropped)

    async def end(self, tournament_id: int, status: str, note: tuple[int | None, str, str]) -> bool:
        """Finish or cancel a tournament still open; False if it wasn't."""
        async with self._db.transaction() as db:
            ended = await db.execute(
                "UPDATE tournaments SET status = ?, round_ends = NULL"
                " WHERE id = ? AND status IN ('signup', 'running')",
                (status, tournament_id),
            )
            if ended:
                await self._notes(db, tournament_id, [note])
            return bool(ended)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The message showing a tournament (its sign-up, then its standings)."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def log(self, tournament_id: int) -> list[tuple[int | None, str, str]]:
        """What was done to a tournament, oldest first: (user, kind, text)."""
        rows = await self._db.all(
            "SELECT user_id, kind, text FROM tournament_log WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        return [(r["user_id"], r["kind"], r["text"]) for r in rows]

    async def _notes(
        self, db: Change, tournament_id: int, notes: Iterable[tuple[int | None, str, str]]
    ) -> None:
        await db.executemany(
            "INSERT INTO tournament_log (tournament_id, user_id, kind, text, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(tournament_id, user, kind, text, self._db.now()) for user, kind, text in notes],
        )
