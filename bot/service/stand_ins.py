"""When a player is away (`StandIns`): the AI taking a seat over, by its player's
wish or the table's vote, and giving it back; the AI's turn; a clock's timeout and a
match abandoned."""

from __future__ import annotations

import logging
from collections.abc import (
    Awaitable,
    Callable,
    Collection,
    Sequence,
)
from dataclasses import replace
from datetime import datetime

import ai
from bot.service import errors, outbox
from bot.service.match_core import MatchCore
from bot.service.outbox import Notice
from bot.service.store import (
    SeatRow,
)
from bot.service.store.rows import when
from bot.service.tables import (
    ABANDON_LOG,
    AI_AGREED_LOG,
    AI_HANDOVERS,
    AI_LOG,
    AI_NAME,
    AI_VOTE_LOG,
    CONCEDE,
    FORFEIT_LOG,
    TIMEOUT_LOG,
    VOTE_GRACE,
    ActResult,
    AITurn,
    Table,
    ai_level,
)
from bot.service.timing import moment
from league import ratings
from league.ratings import PLAYED, TIMEOUT
from rules.core import (
    Action,
    rng_for,
)

log = logging.getLogger(__name__)


class StandIns(MatchCore):
    """The AI in a player's seat, and time running out."""

    async def hand_to_ai(
        self,
        match_id: int,
        user_id: int,
        level: str,
        *,
        version: int | None = None,
        notices: Sequence[Notice] = (),
    ) -> Table:
        """Have the AI play a player's seat for them until they act again (a moderator's
        or the timeout policy's decision, told by `notices`); with `version`,
        StateChanged unless the match is still there."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if version is not None and table.match.version != version:
                raise errors.StateChanged()
            seat = table.seat_of(user_id)
            if seat is None:
                raise errors.NotInMatch("That member doesn't play in this match.")
            await self._hand_over(table, seat, level, notices, agreed=False)
            return await self.table(match_id)

    async def _hand_over(
        self, table: Table, seat: SeatRow, level: str, notices: Sequence[Notice], *, agreed: bool
    ) -> None:
        """Hand a seat to the AI, logged (the caller holds the lock); with `agreed`, the
        table's vote did."""
        match_id = table.match.id
        if table.match.status != "active":
            raise errors.NotActive("Only a match in play can have a seat handed to the AI.")
        if not ai.plays(table.game.id):
            raise errors.NoAI()
        level = ai_level(level)
        if not await self.records.set_seat_ai(match_id, seat.seat, level, notices=notices):
            raise errors.StateChanged(f"{AI_NAME} already plays for {seat.name}.")
        await self.log.add(
            match_id,
            user_id=seat.user_id if agreed else None,
            kind=AI_AGREED_LOG if agreed else AI_LOG,
            text=f"{AI_NAME} ({level}) plays for {seat.name}"
            + (" (the table agreed)." if agreed else "."),
        )
        log.info("match %s: the AI (%s) plays seat %d", match_id, level, seat.seat)

    async def vote_ai(
        self,
        match_id: int,
        voter_id: int,
        user_id: int,
        *,
        starts: datetime,
        absent: Callable[[Table, SeatRow], Awaitable[None]],
    ) -> str:
        """A player asks that the AI play an absent player's seat (`absent` refuses
        unless they are, checked here under the match's lock, so a move of theirs either
        comes first and ends the vote, or after it). Once every other person at the table
        has asked in this absence (a vote counts only for it: the seat's player and
        decision then), the AI plays the seat (at the strong level) until its player acts
        again, its first move not before `starts`: the player is called, and may keep
        their seat until then. The public sentence of where the vote stands."""
        async with self._change(match_id):
            table = await self.table(match_id)
            voter, seat = table.seat_of(voter_id), table.seat_of(user_id)
            if voter is None or not voter.person:
                raise errors.NotInMatch("Only the players of this match can vote for that.")
            if table.match.status != "active":
                raise errors.NotActive("Only a match in play can have a seat handed to the AI.")
            if seat is None:
                raise errors.NotInMatch("That member doesn't play in this match.")
            if seat.seat == voter.seat:
                raise errors.NotInMatch(
                    "You can't vote for your own seat: a moderator can hand it over "
                    "(`/mod ai`), or just let your clock run out at a table whose timeout is `ai`."
                )
            if seat.by_ai:
                raise errors.StateChanged(f"{AI_NAME} already plays for {seat.name}.")
            if not ai.plays(table.game.id):
                raise errors.NoAI()
            await absent(table, seat)
            votes = await self.clocks.add_ai_vote(
                match_id,
                seat,
                voter_id,
                kind=AI_VOTE_LOG,
                text=f"🗳️ {voter.name} asks that {AI_NAME} play for {seat.name}.",
            )
            voters = [s for s in table.seats if s.person and not s.by_ai and s.seat != seat.seat]
            missing = [s.name for s in voters if s.user_id not in votes]
            if missing:
                return (
                    f"🗳️ {voter.name} asks that 🤖 {AI_NAME} play for {seat.name} until they "
                    f"are back ({len(voters) - len(missing)} of {len(voters)}; waiting for "
                    f"{', '.join(missing)}: `/match ai player:` them too)."
                )
            told = outbox.say(
                match_id,
                f"🗳️ <@{seat.user_id}>, the table asks that 🤖 {AI_NAME} play for you until "
                f"you are back. It makes its first move {moment(starts)} unless you keep your "
                "seat: tap **Keep my seat**, or just make your move.",
                ping=(seat.user_id,),
                keep=seat.user_id,
            )
            await self._hand_over(table, seat, ai.Level.STRONG, [told], agreed=True)
        return (
            f"🗳️ The table agreed: 🤖 {AI_NAME} plays for {seat.name} from {moment(starts)}, "
            "unless they keep their seat (any move of theirs takes it back)."
        )

    async def take_back(self, match_id: int, user_id: int) -> Table:
        """A player takes their seat back from the AI."""
        async with self._change(match_id):
            match, _, seat, _ = await self._seated(match_id, user_id)
            if not seat.by_ai:
                raise errors.NotInMatch(f"{seat.name} plays their own seat already.")
            await self._take_back(match, seat)
            return await self.table(match_id)

    async def ai_turn(
        self, match_id: int, handed_over: tuple[int, Collection[int]] = (0, ())
    ) -> AITurn | None:
        """What the AI has to decide in a match now, if anything: the first seat it plays
        that the game waits for, but for the seats that left the decision at a version
        to a teammate (`handed_over`: the version and those seats)."""
        table = await self.table(match_id)
        if table.match.status != "active" or table.outcome is not None:
            return None
        version, handed = handed_over
        passed = handed if version == table.match.version else ()
        for seat in table.seats:
            if seat.by_ai and seat.seat in table.to_act and seat.seat not in passed:
                state = self._state(table.game, table.match)
                starts = await self._vote_grace(table, seat) if seat.person else None
                return AITurn(table, seat, state.model_dump_json(), starts)
        return None

    async def _vote_grace(self, table: Table, seat: SeatRow) -> datetime | None:
        """When the AI may first move for a seat the table voted it, while its player may
        still keep it (None: at once)."""
        handovers = [e for e in await self.log.entries(table.match.id) if e.kind in AI_HANDOVERS]
        last = handovers[-1] if handovers else None
        if last is None or last.kind != AI_AGREED_LOG or last.user_id != seat.user_id:
            return None
        since = table.match.version - last.version
        moved = since and any(
            a.seat == seat.seat for a in await self.records.actions(table.match.id, last=since)
        )
        handed = when(last.created_at)
        return None if moved or handed is None else handed + VOTE_GRACE

    async def timeout(
        self,
        match_id: int,
        seat: int,
        *,
        version: int,
        forfeit: bool = False,
        note: str | None = None,
    ) -> ActResult:
        """The system acts for a seat whose clock ran out: the game's timeout action, or
        a forfeit (a concession), logged under the seat's user, with `note` in the match
        log and leading its public lines (under the match's lock, so a player acting
        next reads what happened).
        StateChanged unless the match is still active at `version` and (for the action)
        waiting for the seat."""
        async with self._change(match_id):
            match = await self.get(match_id)
            if match.status != "active" or match.version != version:
                raise errors.StateChanged()
            seats = await self.records.seats(match_id)
            row = next(s for s in seats if s.seat == seat)
            game = self.game(match.game)
            state = self._state(game, match)
            rng = rng_for(match.seed, version + 1)
            before = self._before(match, seats)
            if forfeit:
                action, label = Action(kind=CONCEDE), f"{row.name} forfeits"
                new_state, events = game.concede(state, seat, rng)
            elif seat in game.to_act(state):
                action = game.timeout_action(state, seat)
                label = game.describe(action, state)
                new_state, events = game.apply(state, seat, action, rng)
            else:
                raise errors.StateChanged()
            lead = [note] if note is not None else []
            ending = TIMEOUT if forfeit else PLAYED
            result = await self._commit(
                match,
                seats,
                row,
                action,
                label,
                new_state,
                events,
                before=before,
                lead=lead,
                ending=ending,
            )
            if note is not None:
                kind = FORFEIT_LOG if forfeit else TIMEOUT_LOG
                await self.log.add(match_id, user_id=None, kind=kind, text=note)
        return result

    async def abandon(self, match_id: int, *, version: int, note: str, leaver: int) -> Table:
        """The system ends a match as abandoned, with no winner (the abandon timeout
        policy), and writes `note` in its log, under the match's lock like any action: a
        player acting at the same moment either acts first or is told the match was
        abandoned. `note` is told to the table too; the results recorded say `leaver`'s
        seat left it (rated if the server rates abandons). StateChanged unless the match
        is still active at `version`."""
        async with self._change(match_id):
            told = [outbox.say(match_id, note)]
            match = await self.get(match_id)
            gone = replace(match, status="abandoned")
            gone_table = self._table(gone, await self.records.seats(match_id))
            results = gone_table.results(ending=ratings.ABANDONED, leaver=leaver)
            saved = await self.records.abandon(
                match_id, expected_version=version, notices=told, results=results
            )
            if not saved:
                raise errors.StateChanged()
            await self.log.add(match_id, user_id=None, kind=ABANDON_LOG, text=note)
            log.info("match %s: abandoned at its deadline", match_id)
            table = await self.table(match_id)
        return table
