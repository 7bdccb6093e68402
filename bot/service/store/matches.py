"""Matches: the match rows, their seats, the action log and what a moderator changed
in it (undo, a seat handed over, the AI standing in), the board and turn messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.service.outbox import Notice
from bot.service.store import rows as decode
from bot.service.store.clocks import ClockStore
from bot.service.store.database import Change, Database
from bot.service.store.match_log import LogStore
from bot.service.store.memory import MISSING, TAIL
from bot.service.store.outbox import OutboxStore
from bot.service.store.results import ResultStore
from bot.service.store.rows import (
    OPEN,
    ActionRow,
    Clocks,
    MatchRow,
    Rename,
    Results,
    SeatRow,
    Status,
    TurnMessage,
    UndoneRow,
)
from bot.service.timing import DAY, ClockTerms


class ChannelBusy(Exception):
    """The channel already holds an open (lobby or active) match."""


class MatchStore:
    """A match, its seats and its action log: read (mostly from memory) and written."""

    def __init__(
        self,
        db: Database,
        outbox: OutboxStore,
        log: LogStore,
        clocks: ClockStore,
        results: ResultStore,
    ) -> None:
        self._db = db
        self._outbox = outbox
        self._log = log
        self._clocks = clocks
        self._results = results

    async def get(self, match_id: int) -> MatchRow | None:
        """The match with this id, if any."""
        held = self._db.memory.hit(match_id, "match")
        if held is not MISSING:
            return held
        return await self._load(match_id)

    async def _load(self, match_id: int) -> MatchRow | None:
        held = self._db.memory.hit(match_id, "match")
        if held is not MISSING:
            return held
        mark = self._db.memory.mark(match_id)
        row = await self._db.one("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        match = decode.match_row(row)
        board = self._db.pending(("board", match_id), match.board_message_id)
        if board != match.board_message_id:
            match = replace(match, board_message_id=board)
        if self._db.memory.mark(match_id) == mark:
            self._db.memory.hold_match(match)
        return match

    async def open_in(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel, if any."""
        memory = self._db.memory
        if channel_id in memory.channels:
            match_id = memory.channels[channel_id]
            if match_id is None:
                return None
            match = await self._load(match_id)
            if match is not None and match.status in OPEN:
                return match
        mark = memory.mark(("channel", channel_id))
        row = await self._db.one(
            "SELECT id FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        if row is None:
            memory.hold_channel_free(channel_id, mark)
            return None
        match = await self._load(row["id"])
        return match if match is not None and match.status in OPEN else None

    async def seats(self, match_id: int) -> list[SeatRow]:
        """The seats of a match, in seat order."""

        async def load() -> list[SeatRow]:
            rows = await self._db.all(
                "SELECT seat, user_id, display_name, team, decisions, ai, ai_played FROM seats"
                " WHERE match_id = ? ORDER BY seat",
                (match_id,),
            )
            return [decode.seat_row(r) for r in rows]

        return list(await self._db.memory.recall(match_id, "seats", load))

    async def actions(self, match_id: int, *, last: int | None = None) -> list[ActionRow]:
        """The action log of a match in order (only the `last` entries when given)."""
        sql = (
            "SELECT seq, seat, user_id, action, events, created_at FROM actions WHERE match_id = ?"
        )
        params: tuple[Any, ...] = (match_id,)
        if last is not None:
            sql += " AND seq > (SELECT version FROM matches WHERE id = ?) - ?"
            params = (match_id, match_id, last)
        return [decode.action_row(r) for r in await self._db.all(sql + " ORDER BY seq", params)]

    async def latest_actions(self, match_id: int, *, last: int) -> list[ActionRow]:
        """The `last` actions of a match still in effect (none undone), oldest first
        (at most TAIL)."""
        assert last <= TAIL, "only the tail of the log is held"

        async def load() -> list[ActionRow]:
            rows = await self._db.all(
                "SELECT seq, seat, user_id, action, events, created_at FROM actions a"
                " WHERE match_id = ? AND NOT EXISTS"
                " (SELECT 1 FROM undone u WHERE u.match_id = a.match_id AND u.seq = a.seq)"
                " ORDER BY seq DESC LIMIT ?",
                (match_id, TAIL),
            )
            return [decode.action_row(r) for r in reversed(rows)]

        tail = await self._db.memory.recall(match_id, "tail", load)
        return tail[-last:] if last else []

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        variant: str,
        seed: int,
        rules_version: str,
        created_by: int,
        host_name: str,
        pack: str,
        seed_chosen: bool = False,
        options: dict[str, Any] | None = None,
        terms: ClockTerms | None = None,
    ) -> MatchRow:
        """A new lobby with its creator in seat 0. Raises ChannelBusy when the channel has one.

        `pack` is the card pack the match plays with: the game's setup receives it; `terms`
        its clock (None: a day per decision, `skip`)."""
        now = self._db.now()
        terms = terms or ClockTerms(DAY, "skip")
        try:
            async with self._db.transaction() as db:
                row = await db.fetchone(
                    "INSERT INTO matches (guild_id, channel_id, game, variant, pack, seed,"
                    " seed_chosen, rules_version, status, created_by, options, created_at,"
                    " updated_at, clock_seconds, timeout_policy)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        game,
                        variant,
                        pack,
                        seed,
                        int(seed_chosen),
                        rules_version,
                        created_by,
                        json.dumps(options or {}),
                        now,
                        now,
                        terms.clock_seconds,
                        terms.timeout_policy,
                    ),
                )
                assert row is not None
                match_id = int(row["id"])
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (?, 0, ?, ?)",
                    (match_id, created_by, host_name),
                )
                # Its channel was held as free.
                db.then(lambda: self._db.memory.channel_unknown(channel_id), f"c:{channel_id}")
        except Exception as exc:
            if self._db.engine.unique_violation(exc):  # the one open match of a channel
                raise ChannelBusy(channel_id) from exc
            raise
        match = await self._load(match_id)
        assert match is not None
        return match

    async def add_seat(
        self,
        match_id: int,
        user_id: int,
        name: str,
        *,
        max_seats: int,
        ai: str | None = None,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Seat a user (or, with `ai`, the AI at that level) in a lobby after the others;
        False when it is full or not a lobby."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)
            added = await db.execute(
                "INSERT INTO seats (match_id, seat, user_id, display_name, ai)"
                " SELECT CAST(? AS BIGINT), COUNT(*), CAST(? AS BIGINT), CAST(? AS TEXT),"
                " CAST(? AS TEXT)"
                " FROM seats WHERE match_id = ? HAVING COUNT(*) < ?"
                " AND (SELECT status FROM matches WHERE id = ?) = 'lobby'",
                (match_id, user_id, name, ai, match_id, max_seats, match_id),
            )
            if added:
                await self._touch(db, match_id)
                await self._outbox.write(db, notices)
            return added == 1

    async def remove_seat(
        self, match_id: int, user_id: int, *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Take a user out of a lobby and close the gap in the seat order."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)
            row = await db.fetchone(
                "SELECT s.seat FROM seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.user_id = ? AND m.status = 'lobby'",
                (match_id, user_id),
            )
            if row is None:
                return False
            await db.execute(
                "DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            )
            # Two steps, so the primary key never sees two rows on one seat.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE match_id = ? AND seat > ?",
                (match_id, row["seat"]),
            )
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE match_id = ? AND seat < 0", (match_id,)
            )
            await self._touch(db, match_id)
            await self._outbox.write(db, notices)
            return True

    async def set_status(
        self, match_id: int, status: Status, *, only_from: Status, notices: Sequence[Notice] = ()
    ) -> bool:
        """Move a match from one status to another; False when it was not in `only_from`."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
                (status, self._db.now(), match_id, only_from),
            )
            if changed == 1:
                db.forget(match_id)
                await self._outbox.write(db, notices)
            return changed == 1

    async def set_options(
        self, match_id: int, options: dict[str, Any], *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Replace a lobby's options; False when it is no longer a lobby."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(options), self._db.now(), match_id),
            )
            if changed == 1:
                db.forget(match_id)
                await self._outbox.write(db, notices)
            return changed == 1

    async def set_practice(
        self,
        match_id: int,
        practice: bool,
        *,
        user_id: int,
        kind: str,
        text: str,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Mark a lobby or a match in play as practice (never rated), or not, with a line
        in its log; False when it isn't open or already is so."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET practice = ?, updated_at = ?"
                " WHERE id = ? AND practice <> ? AND status IN ('lobby', 'active')",
                (int(practice), self._db.now(), match_id, int(practice)),
            )
            if changed == 1:
                await self._log.write(db, match_id, user_id, kind, text)
                db.forget(match_id)
                await self._outbox.write(db, notices)
            return changed == 1

    async def start(
        self,
        match_id: int,
        *,
        snapshot: str,
        teams: dict[int, int],
        options: dict[str, Any] | None = None,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Save the initial state and the teams of a lobby (and the options it was dealt
        with, when given); False when it is no longer a lobby."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = 'active', snapshot = ?, version = 0, updated_at = ?,"
                " options = COALESCE(?, options) WHERE id = ? AND status = 'lobby'",
                (
                    snapshot,
                    self._db.now(),
                    None if options is None else json.dumps(options),
                    match_id,
                ),
            )
            if changed != 1:
                return False
            await db.executemany(
                "UPDATE seats SET team = ? WHERE match_id = ? AND seat = ?",
                [(team, match_id, seat) for seat, team in teams.items()],
            )
            db.forget(match_id)
            # Dealt just now: no action is logged and no turn message posted yet, so its
            # first action reads neither.
            db.put(match_id, "tail", [])
            db.put(match_id, "turn", None)
            await self._outbox.write(db, notices)
            return True

    async def append_action(
        self,
        match_id: int,
        *,
        expected_version: int,
        seat: int,
        user_id: int,
        action: str,
        events: str,
        snapshot: str,
        status: Status,
        notices: Sequence[Notice] = (),
        clocks: Clocks | None = None,
        results: Results | None = None,
        by_ai: bool = False,
    ) -> bool:
        """Log one action and save the state it led to, in one transaction, with what
        it must tell, (given `clocks`, unless a clock changed since they were worked out)
        the match's deadlines and their DMs, and (given `results`) the results of the
        match it finished.

        The snapshot is written only if the match is still active at
        `expected_version`; otherwise nothing changes, False comes back and what is
        held of the match is forgotten (it was out of date). The new action's sequence
        number is `expected_version + 1`, and the acting seat's decision count goes up
        by one (`by_ai`: the AI made the move, marked on the seat for good).
        """
        seq = expected_version + 1
        now = self._db.now()
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, seq, status, now, match_id, expected_version),
            )
            if changed != 1:
                db.forget(match_id)
                return False
            # The seat's decision count goes up with it (a trigger: migration 0010).
            await db.execute(
                "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, seat, user_id, action, events, now),
            )
            if by_ai:
                await db.execute(
                    "UPDATE seats SET ai_played = 1 WHERE match_id = ? AND seat = ?",
                    (match_id, seat),
                )
            if clocks is not None and clocks.mark == self._db.clock_mark(match_id):
                await self._clocks.replace_deadlines(db, match_id, clocks.deadlines)
                notices = [*notices, *clocks.notices]
            if results is not None:
                await self._results.record_in(db, match_id, results)
            await self._outbox.write(db, notices)
            logged = ActionRow(seq, seat, user_id, action, events, now)

            def moved(match: MatchRow) -> MatchRow:
                return replace(match, snapshot=snapshot, version=seq, status=status, updated_at=now)

            def counted(seats: list[SeatRow]) -> list[SeatRow]:
                return [
                    replace(s, decisions=s.decisions + 1, ai_played=s.ai_played or by_ai)
                    if s.seat == seat
                    else s
                    for s in seats
                ]

            db.update(match_id, "match", moved)
            db.update(match_id, "seats", counted)
            db.update(match_id, "tail", lambda t: [*t, logged][-TAIL:])
            return True

    def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember which message shows the match (its lobby, then its board; written
        behind)."""
        self._db.memory.update(match_id, "match", lambda m: replace(m, board_message_id=message_id))
        self._db.write_behind(
            ("board", match_id),
            "UPDATE matches SET board_message_id = ? WHERE id = ?",
            (message_id, match_id),
            message_id,
        )

    async def recent_events(self, match_id: int, *, last: int) -> list[str]:
        """The events (JSON) of a match's `last` actions still in effect (none undone),
        oldest first."""
        return [row.events for row in await self.latest_actions(match_id, last=last)]

    async def turn_message(self, match_id: int) -> TurnMessage | None:
        """The message carrying the current turn's public lines, if there is one."""

        async def load() -> TurnMessage | None:
            row = await self._db.one("SELECT * FROM turn_messages WHERE match_id = ?", (match_id,))
            saved = (
                None
                if row is None
                else TurnMessage(
                    row["match_id"],
                    row["message_id"],
                    row["turn"],
                    row["body"],
                    row["through"],
                    row["author"],
                )
            )
            return self._db.pending(("turn", match_id), saved)

        return await self._db.memory.recall(match_id, "turn", load)

    _PUT_TURN = (
        "INSERT INTO turn_messages (match_id, message_id, turn, body, through, author)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET"
        " message_id = excluded.message_id, turn = excluded.turn, body = excluded.body,"
        " through = excluded.through, author = excluded.author"
    )

    def set_turn_message(self, message: TurnMessage) -> None:
        """Remember (or replace) the message carrying a match's current turn (written
        behind)."""
        self._db.memory.put(message.match_id, "turn", message)
        self._db.write_behind(
            ("turn", message.match_id),
            self._PUT_TURN,
            (
                message.match_id,
                message.message_id,
                message.turn,
                message.body,
                message.through,
                message.author,
            ),
            message,
        )

    async def save_turn_message(self, match_id: int) -> None:
        """Save the match's turn message now if it is only written behind: a message edited
        before its id and the mark of the notice that posted it were saved could not be
        found again after a crash (its text changed), and would be posted twice."""
        if self._db.waits(("turn", match_id)):
            await self._db.flush()

    def clear_turn_message(self, match_id: int) -> None:
        """Forget a match's turn message: its next public line starts a new one (written
        behind)."""
        self._db.memory.put(match_id, "turn", None)
        self._db.write_behind(
            ("turn", match_id), "DELETE FROM turn_messages WHERE match_id = ?", (match_id,)
        )

    async def _touch(self, db: Change, match_id: int) -> None:
        await db.execute(
            "UPDATE matches SET updated_at = ? WHERE id = ?", (self._db.now(), match_id)
        )
        db.forget(match_id)

    async def undone(self, match_id: int) -> dict[int, UndoneRow]:
        """The actions of a match a moderator took back, by sequence number."""
        rows = await self._db.all(
            "SELECT seq, user_id, forced, created_at FROM undone WHERE match_id = ?", (match_id,)
        )
        return {
            r["seq"]: UndoneRow(r["seq"], r["user_id"], bool(r["forced"]), r["created_at"])
            for r in rows
        }

    async def record_undo(
        self,
        match_id: int,
        *,
        expected_version: int,
        seq: int,
        user_id: int,
        forced: bool,
        snapshot: str,
        notices: Sequence[Notice] = (),
    ) -> bool:
        """Mark action `seq` undone and save the state without it, in one transaction.

        Only if the match is still active at `expected_version`; the version goes up by
        one (so the next action skips a number) and every seat's decision count too, so
        every menu shown before the undo is out of date. False when nothing changed.
        """
        now = self._db.now()
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET snapshot = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, now, match_id, expected_version),
            )
            if changed != 1:
                return False
            await db.execute(
                "INSERT INTO undone (match_id, seq, user_id, forced, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, user_id, int(forced), now),
            )
            await db.execute(
                "UPDATE seats SET decisions = decisions + 1 WHERE match_id = ?", (match_id,)
            )
            db.forget(match_id)
            await self._outbox.write(db, notices)
            return True

    async def replace_seat(
        self,
        match_id: int,
        *,
        expected_version: int,
        seat: int,
        new_user_id: int,
        new_name: str,
        notices: Sequence[Notice] = (),
        moderator_id: int,
        snapshot: str,
    ) -> bool:
        """Hand an active match's seat to another member (remembering who held it and
        the name the game knows it by) and save the state that knows the newcomer's
        name, in one transaction; the version goes up by one, which places the rename
        among the actions on replay. False when the match is not active at
        `expected_version`, the seat is empty or the newcomer already holds a seat."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)
            row = await db.fetchone(
                "SELECT s.user_id, s.display_name FROM seats s"
                " JOIN matches m ON m.id = s.match_id"
                " WHERE s.match_id = ? AND s.seat = ? AND m.status = 'active' AND m.version = ?"
                " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.match_id = ? AND o.user_id = ?)",
                (match_id, seat, expected_version, match_id, new_user_id),
            )
            if row is None:
                return False
            await db.execute(
                "UPDATE matches SET snapshot = ?, version = version + 1 WHERE id = ?",
                (snapshot, match_id),
            )
            await db.execute(
                "INSERT INTO seat_replacements (match_id, seat, old_user_id, old_name,"
                " new_user_id, new_name, moderator_id, created_at, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    seat,
                    row["user_id"],
                    row["display_name"],
                    new_user_id,
                    new_name,
                    moderator_id,
                    self._db.now(),
                    expected_version + 1,
                ),
            )
            # The newcomer starts clean: a fresh clock (the decision count moves on) and
            # none of the old player's timeouts in a row or vacation.
            await db.execute(
                "UPDATE seats SET user_id = ?, display_name = ?, decisions = decisions + 1"
                " WHERE match_id = ? AND seat = ?",
                (new_user_id, new_name, match_id, seat),
            )
            self._db.clocks_written(match_id)
            await db.execute(
                "DELETE FROM seat_clocks WHERE match_id = ? AND seat = ?", (match_id, seat)
            )
            # The old player's vote to pause was theirs, not the newcomer's.
            await db.execute(
                "DELETE FROM pause_votes WHERE match_id = ? AND seat = ?", (match_id, seat)
            )
            await self._touch(db, match_id)
            await self._outbox.write(db, notices)
            return True

    async def set_seat_ai(
        self, match_id: int, seat: int, ai: str | None, *, notices: Sequence[Notice] = ()
    ) -> bool:
        """Have the AI play a seat of an active match at level `ai`, or (None) give it
        back to its player; its decision count moves on, so a menu built before is stale.
        False when the match isn't active or the seat already is so."""
        async with self._db.transaction() as db:
            await db.tx.lock_match(match_id)
            changed = await db.execute(
                "UPDATE seats SET ai = ?, decisions = decisions + 1"
                " WHERE match_id = ? AND seat = ?"
                " AND COALESCE(ai, '') <> COALESCE(CAST(? AS TEXT), '')"
                " AND (SELECT status FROM matches WHERE id = ?) = 'active'",
                (ai, match_id, seat, ai, match_id),
            )
            if changed:
                self._db.clocks_written(match_id)
                await self._touch(db, match_id)
                await self._outbox.write(db, notices)
            return changed == 1

    async def renames(self, match_id: int) -> list[Rename]:
        """The seats renamed in the game as they changed hands, in order."""
        rows = await self._db.all(
            "SELECT version, seat, new_name FROM seat_replacements"
            " WHERE match_id = ? AND version IS NOT NULL ORDER BY version",
            (match_id,),
        )
        return [Rename(row["version"], row["seat"], row["new_name"]) for row in rows]

    async def setup_names(self, match_id: int) -> dict[int, str]:
        """The name each seat was dealt in with, for the seats that changed hands since."""
        rows = await self._db.all(
            "SELECT seat, old_name FROM seat_replacements WHERE match_id = ?"
            " AND id IN (SELECT MIN(id) FROM seat_replacements WHERE match_id = ?"
            " GROUP BY seat)",
            (match_id, match_id),
        )
        return {r["seat"]: r["old_name"] for r in rows}

    async def open_in_guild(self, guild_id: int) -> list[MatchRow]:
        """A server's lobbies and active matches, oldest first."""
        rows = await self._db.all(
            "SELECT * FROM matches WHERE guild_id = ? AND status IN ('lobby', 'active')"
            " ORDER BY id",
            (guild_id,),
        )
        return [decode.match_row(r) for r in rows]

    async def latest_in(self, channel_id: int) -> MatchRow | None:
        """The channel's most recent match, open or not."""
        row = await self._db.one(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return decode.match_row(row) if row else None

    async def abandon(
        self,
        match_id: int,
        *,
        expected_version: int,
        notices: Sequence[Notice] = (),
        results: Results | None = None,
    ) -> bool:
        """End an active match as abandoned (no winner) if it is still at that version,
        with the results that say who left it."""
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET status = 'abandoned', updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (self._db.now(), match_id, expected_version),
            )
            db.forget(match_id)
            if changed == 1:
                await self._outbox.write(db, notices)
                if results is not None:
                    await self._results.record_in(db, match_id, results)
            return changed == 1

    async def active_by_game(self) -> dict[str, int]:
        """The matches under way in the served shards, by game."""
        owned, params = self._db.owned("guild_id")
        rows = await self._db.all(
            "SELECT game, COUNT(*) AS n FROM matches"
            f" WHERE status = 'active' AND {owned} GROUP BY game",
            params,
        )
        return {r["game"]: int(r["n"]) for r in rows}

    async def with_ai(self) -> list[int]:
        """Active matches with a seat the AI plays (of the shards this process serves)."""
        owned, params = self._db.owned("m.guild_id")
        rows = await self._db.all(
            "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
            f" WHERE m.status = 'active' AND s.ai IS NOT NULL AND {owned} ORDER BY m.id",
            params,
        )
        return [r["id"] for r in rows]
