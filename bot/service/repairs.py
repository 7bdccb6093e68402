"""A moderator's repairs and the record (`Repairs`): undoing the last action, seating
another player, replaying a match from its seed and checking it against its state."""

from __future__ import annotations

import logging
from collections.abc import (
    Sequence,
)
from dataclasses import replace

from pydantic import BaseModel

from bot.service import errors, outbox
from bot.service.match_core import MatchCore
from bot.service.outbox import Notice
from bot.service.tables import EVENTS, Replayer, Table, UndoResult, replay_step
from rules.core import (
    Action,
    rng_for,
)
from rules.core.rng import TrackingRandom

log = logging.getLogger(__name__)


class Repairs(MatchCore):
    """Undo, replacement and replay."""

    async def undo(self, match_id: int, user_id: int, *, force: bool = False) -> UndoResult:
        """Take back the last game action still in effect (a moderator's power).

        Refused, unless `force`, when it revealed hidden cards (any of its events says
        so) or drew at random (found by applying it again to the state before it with a
        generator that notes any draw). The log stays append-only: the undo is recorded
        beside it, and the version moves on so menus shown before it are out of date.
        """
        async with self._change(match_id):
            match = await self.get(match_id)
            if match.status != "active":
                raise errors.NotActive("Only a match in play can have an action undone.")
            game = self.game(match.game)
            rows = await self.effective(match_id)
            if not rows:
                raise errors.NothingToUndo()
            *kept, last = rows
            renames = await self.records.renames(match_id)
            earlier = [r for r in renames if r.version < last.seq]
            later = [r for r in renames if r.version > last.seq]
            before = self._rebuild(match, await self.setup_seats(match_id), kept, earlier)
            rng = TrackingRandom()
            rng.setstate(rng_for(match.seed, last.seq).getstate())
            action = Action.model_validate_json(last.action)
            after, _ = replay_step(game, before, last.seat, action, rng)
            if Replayer(game, after, match.seed, later).finish() != self._state(game, match):
                raise errors.UndoRefused(
                    "This match's log no longer replays to its board (the rules changed "
                    "since it began), so I can't take an action back safely."
                )
            events = EVENTS.validate_json(last.events)
            reasons = [
                reason
                for reason, applies in (
                    ("it revealed hidden cards", any(e.reveals for e in events)),
                    ("it drew at random", rng.used),
                )
                if applies
            ]
            # The seats renamed since that action keep their new names.
            undone = Replayer(game, before, match.seed, later).finish()
            if reasons and not force:
                raise errors.UndoRefused(
                    f"The last action can't be taken back: {' and '.join(reasons)}. "
                    "Use `force:true` to undo it anyway."
                )
            lines = [e.text for e in events if e.text]
            seats = await self.records.seats(match_id)
            table = self._table(match, seats, undone)
            result = UndoResult(table, last.seq, last.seat, lines, reasons)
            saved = await self.records.record_undo(
                match_id,
                expected_version=match.version,
                seq=last.seq,
                user_id=user_id,
                forced=bool(reasons),
                snapshot=undone.model_dump_json(),
                notices=[outbox.say(match_id, result.line(user_id), call=True)],
            )
            if not saved:
                raise errors.StateChanged()
            log.info("match %s: action %d undone by %s", match_id, last.seq, user_id)
            seats = await self.records.seats(match_id)
            table = self._table(await self.get(match_id), seats, undone)
        return replace(result, table=table)

    async def replace_seat(
        self,
        match_id: int,
        old_user_id: int,
        new_user_id: int,
        new_name: str,
        *,
        moderator_id: int,
        notices: Sequence[Notice] = (),
    ) -> Table:
        """Hand a seat of a match in play, its hand and its private view to another
        member (a moderator's power, told to the table by its `notices`); the old player
        can no longer act or see it."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if table.match.status != "active":
                raise errors.NotActive("Only a match in play can have a player replaced.")
            seat = table.seat_of(old_user_id)
            if seat is None:
                raise errors.NotInMatch("That member doesn't play in this match.")
            if table.seat_of(new_user_id) is not None:
                raise errors.AlreadySeated()
            state = self._state(table.game, table.match)
            replaced = await self.records.replace_seat(
                match_id,
                expected_version=table.match.version,
                seat=seat.seat,
                new_user_id=new_user_id,
                new_name=new_name,
                moderator_id=moderator_id,
                snapshot=table.game.rename(state, seat.seat, new_name).model_dump_json(),
                notices=notices,
            )
            if not replaced:
                raise errors.StateChanged()
            log.info("match %s: seat %d handed to %s", match_id, seat.seat, new_user_id)
            table = await self.table(match_id)
        return table

    async def replay(self, match_id: int) -> BaseModel:
        """The state rebuilt from the seed and the action log alone (undone actions
        skipped; each other one drawing from the generator of its own number)."""
        match = await self.get(match_id)
        if match.snapshot is None:
            raise errors.NotActive("The match hasn't started yet.")
        return self._rebuild(
            match,
            await self.setup_seats(match_id),
            await self.effective(match_id),
            await self.records.renames(match_id),
        )

    async def verify(self, match_id: int) -> bool:
        """Whether replaying the log gives exactly the saved snapshot."""
        match = await self.get(match_id)
        if match.snapshot is None:
            return True
        replayed = await self.replay(match_id)
        return replayed == self._state(self.game(match.game), match)
