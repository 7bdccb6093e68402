"""Match clocks: deadlines, reminders, timeouts, pauses, vacations and DM notices.

Every seat the game waits for has a stored deadline (`store.Deadline`): armed for a
match version, with the clock of its kind of decision (the match clock, or the
shorter out-of-turn one, see `bot.service.timing`). After every committed change the match
service calls `on_change`, which reconciles the stored deadlines with the match: a
seat that still decides the same pending decision (it has not acted, and its
decision is still in or out of turn as before) keeps its running clock; any other
decider gets a fresh one; a seat no longer deciding loses its own. A single
`Scheduler` is armed with the next moment of each clock (a reminder or the
deadline), and with the end of each pause and each vacation.

At start-up the scheduler is loaded from the store, and matches whose deadlines
don't fit their current version are reconciled, so a restart loses nothing and a
moment that passed while the bot was down fires at once.

Several processes on one database: only the process serving a match's shard (its
lease, `bot.service.leases`) fires its moments. The store reads the moments of those
shards alone, `restart` loads them again when the shards served change, a moment of a
match served elsewhere is not fired, and a match another process changed is armed again
from what it stored (`_arm_stored`).

At a deadline the game's timeout action is taken for the seat (`MatchService.
timeout`) and announced like any action; after TIMEOUTS_IN_A_ROW of them in a row,
the match's policy makes the seat forfeit (`skip`) or abandons the match
(`abandon`, `MatchService.abandon`). Both go through the match service under the
match's lock, like players' actions, so a player acting at that moment either acts
first or is told what happened. A paused match, or a seat on vacation, has its clocks
frozen: frozen rows keep their moment and are shifted by the frozen time when they run
again.

Players who opt in with `/notify on` also get, by DM, their private view each time a
decision becomes theirs, and their reminders. A closed DM is told once in the channel
(`dm_closed`, which the publisher calls), and no DM is tried for that player for
DM_RETRY_AFTER.

The clock talks to no one directly: every line and DM it sends is an outbox notice,
written with the change it tells of. Time is the `now` it is given (the Discord side
gives the clock simcord makes virtual in tests).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
from collections.abc import Callable, Hashable
from datetime import datetime, timedelta

import ai
from bot.service import errors, outbox
from bot.service.locks import KeyedLocks
from bot.service.logs import about
from bot.service.matches import MatchService
from bot.service.outbox import Notice
from bot.service.scheduler import Scheduler
from bot.service.shards import shard_of
from bot.service.store import Clocks, ClockStore, Deadline, MatchRow, Pause, SeatClock, SeatRow
from bot.service.tables import AI_NAME, VOTE_GRACE, Plan, Table
from bot.service.timing import (
    DAY,
    MAX_CLOCK,
    REMINDER_CADENCES,
    TIMEOUT_POLICIES,
    TIMEOUTS_IN_A_ROW,
    ClockTerms,
    format_duration,
    moment,
    out_of_turn_clock,
    parse_clock,
    parse_duration,
)
from rules.core.text import listed

log = logging.getLogger(__name__)

END_SHARE = 0.1  # the second reminder comes when this share of the clock is left
PAUSE_LIMIT = 7 * DAY  # a pause ends by itself after this long
VACATION_BUDGET = 3 * DAY  # per player and match
GLANCED = 2  # deadlines the board's summary names, at most (the full board has them all)
DM_RETRY_AFTER = timedelta(hours=24)  # no DM to a player whose DMs were closed, meanwhile
RETRY_AFTER = timedelta(minutes=5)  # a moment whose handling failed is tried again then

HALF, END = 1, 2  # reminder stages (Deadline.reminded)

SEAT, PAUSED, AWAY = "seat", "pause", "vacation"  # the kinds of scheduler keys

# The match a clock action is changing in this task: its own change isn't reconciled
# by the listener (the action reconciles it itself, holding the match's clock lock).
_acting: contextvars.ContextVar[int | None] = contextvars.ContextVar("acting", default=None)


def sentence(text: str) -> str:
    """Text ending as a sentence does (a full stop added unless it has one)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!", "…")) else f"{text}."


def half_point(d: Deadline) -> datetime:
    """When half of a clock is gone."""
    return d.due_at - timedelta(seconds=d.clock_seconds / 2)


def end_point(d: Deadline) -> datetime:
    """When the near-the-end reminder is due."""
    return d.due_at - timedelta(seconds=d.clock_seconds * END_SHARE)


def reminders_passed(d: Deadline, cadence: str, now: datetime) -> int:
    """The latest reminder stage whose moment has come (0: none), under a cadence."""
    if cadence != "off" and now >= end_point(d):
        return END
    if cadence == "half-and-end" and now >= half_point(d):
        return HALF
    return 0


def next_moment(d: Deadline, cadence: str) -> datetime:
    """The next moment a running clock needs attention: a reminder not sent yet under
    the cadence, else its deadline."""
    if cadence == "half-and-end" and d.reminded < HALF:
        return half_point(d)
    if cadence in ("half-and-end", "end-only") and d.reminded < END:
        return end_point(d)
    return d.due_at


def shifted(d: Deadline, now: datetime) -> Deadline:
    """A frozen clock running again: its moments moved on by the time it was frozen."""
    assert d.frozen_at is not None
    return dataclasses.replace(d, due_at=d.due_at + (now - d.frozen_at), frozen_at=None)


def left(d: Deadline, now: datetime) -> timedelta:
    """The time left on a clock (a frozen one keeps what it had)."""
    return d.due_at - (d.frozen_at or now)


def half_gone(d: Deadline, now: datetime) -> bool:
    """Whether half of a clock (or more) is gone: its decider may be nudged."""
    return left(d, now) * 2 <= timedelta(seconds=d.clock_seconds)


def on_vacation(clock: SeatClock | None) -> bool:
    """Whether a seat's vacation is under way."""
    return clock is not None and clock.vacation_until is not None


def budget_left(clock: SeatClock | None) -> int:
    """Seconds of vacation a seat has left in its match."""
    return max(0, VACATION_BUDGET - (clock.vacation_used if clock else 0))


async def stored_moments(clocks: ClockStore) -> list[tuple[Hashable, datetime]]:
    """Every moment the scheduler must keep, as stored: each running clock's next
    moment, each pause's end, each vacation's end."""
    moments: list[tuple[Hashable, datetime]] = [
        ((SEAT, d.match_id, d.seat), next_moment(d, cadence))
        for d, cadence in await clocks.running_deadlines()
    ]
    moments += [((PAUSED, p.match_id), p.ends_at) for p in await clocks.pauses()]
    moments += [
        ((AWAY, c.match_id, c.seat), c.vacation_until)
        for c in await clocks.vacations()
        if c.vacation_until is not None
    ]
    return moments


class ClockService:
    """The clocks of every match, driven by one scheduler. Public methods that change a
    clock return the public sentence and write a match-log line naming who asked (with
    `announce`, the sentence is told to the table too); refusals raise
    `errors.UserError` subclasses with a sentence."""

    def __init__(self, matches: MatchService, now: Callable[[], datetime]) -> None:
        self.matches = matches
        self.clocks = matches.clocks
        self.now = now
        self.scheduler = Scheduler(self._fire, now)
        self._lock = KeyedLocks()
        self._rearming: set[asyncio.Task[None]] = set()
        matches.plan_with(self.plan)
        self.matches.db.on_match_changed_elsewhere(self._changed_elsewhere)

    # ----------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Load every stored moment into the scheduler, start it, and reconcile the
        matches whose clocks don't fit them (after an upgrade, or a crash mid-change)."""
        self.scheduler.load(await stored_moments(self.clocks))
        self.scheduler.start()
        for match_id in await self.clocks.to_reconcile():
            await self.reconcile(match_id)

    async def stop(self) -> None:
        """Stop the scheduler (what is stored fires after the next start)."""
        await self.scheduler.stop()
        for task in list(self._rearming):
            task.cancel()

    async def restart(self) -> None:
        """The shards this process serves changed: forget every moment armed and load
        those of the matches served now. A moment being fired is not cut short (an
        action half taken, its clocks not armed): forgotten first, then loaded, so a
        clock a firing arms meanwhile is kept, and one it saved before is loaded."""
        self.scheduler.clear()
        await self.start()

    async def sweep(self) -> None:
        """Arm every moment stored for the matches this process serves that isn't armed
        (the leases call this every few renewals, see `bot.service.leases`). With several
        processes, a clock another process saved while this one took its shard over may
        have been told of before the shard was this one's and loaded before it was saved:
        it fires late, never not at all."""
        for key, at in await stored_moments(self.clocks):
            if self.scheduler.when(key) is None:
                self.scheduler.arm(key, at)

    def _changed_elsewhere(self, match_id: int) -> None:
        task = asyncio.get_running_loop().create_task(self._arm_stored(match_id))
        self._rearming.add(task)
        task.add_done_callback(self._rearming.discard)

    async def _arm_stored(self, match_id: int) -> None:
        """Arm a match's moments as stored (another process changed them), if this process
        serves it: its running clocks, its pause's end, its vacations' ends."""
        match = await self.matches.records.get(match_id)
        if match is None or not self.matches.db.owns(match.guild_id):
            return
        async with self._lock(match_id):
            rows = await self.clocks.deadlines(match_id)
            for seat in await self.matches.records.seats(match_id):
                if all(d.seat != seat.seat for d in rows):
                    self.scheduler.disarm((SEAT, match_id, seat.seat))
            await self._arm(match, rows)
            pause = await self.clocks.pause(match_id)
            if pause is None:
                self.scheduler.disarm((PAUSED, match_id))
            else:
                self.scheduler.arm((PAUSED, match_id), pause.ends_at)
            for clock in (await self.clocks.seat_clocks(match_id)).values():
                if clock.vacation_until is None:
                    self.scheduler.disarm((AWAY, match_id, clock.seat))
                else:
                    self.scheduler.arm((AWAY, match_id, clock.seat), clock.vacation_until)

    # ---------------------------------------------------------------- terms

    async def terms(
        self, guild_id: int | None, clock: str | None, policy: str | None, game: str
    ) -> ClockTerms:
        """The clock terms a new match of `game` asks for, checked, with the server's
        defaults for what it leaves out (its `ai` policy is `skip` for a game the AI
        doesn't play)."""
        settings = await self.matches.settings.guild(guild_id) if guild_id is not None else None
        rules = self.matches.game(game)
        played = ai.plays(rules.id)
        seconds = parse_clock(clock) if clock else None
        if seconds is None:
            seconds = settings.default_clock_seconds if settings else 86400
        if policy is None:
            policy = settings.default_timeout_policy if settings else TIMEOUT_POLICIES[0]
            if policy == "ai" and not played:
                policy = "skip"
        if policy not in TIMEOUT_POLICIES:
            raise errors.BadSetting(f"The timeout policy is one of {', '.join(TIMEOUT_POLICIES)}.")
        if policy == "ai" and not played:
            raise errors.BadSetting(
                f"Arbiter doesn't play {rules.name}, so it can't play for a player whose time "
                "runs out: choose the timeout `skip` or `abandon`."
            )
        return ClockTerms(seconds, policy)

    # ------------------------------------------------------------ arming

    async def settled(self, match_id: int) -> None:
        """Wait until no clock action of the match is under way (a timeout being taken
        and its clocks armed again)."""
        async with self._lock(match_id):
            pass

    async def on_change(self, match_id: int) -> None:
        """The match service's change listener: bring the match's clocks up to date."""
        if _acting.get() == match_id:
            return
        await self.reconcile(match_id)

    async def reconcile(self, match_id: int) -> None:
        """Arm, keep or drop the match's deadlines to fit its current state, and tell
        opted-in players by DM when a decision became theirs."""
        async with self._lock(match_id):
            fresh = await self._reconcile(match_id)
        await self._tell_turns(match_id, fresh)

    async def plan(self, table: Table) -> Plan:
        """The clocks an action leads to, worked out before it commits (the match
        service saves them with it, and the DMs of the decisions it makes someone's):
        `table` is the match as the action leaves it. A match it ends has no clocks left;
        nothing is planned when a player back from vacation must have their clock
        thawed first: the reconciliation after the commit does that."""
        match = table.match
        mark = self.matches.db.clock_mark(match.id)  # what the plan is worked out from
        if match.status != "active":
            return Plan(Clocks(mark, []))
        clocks = await self.clocks.seat_clocks(match.id)
        if any(self._back(clock, table) for clock in clocks.values()):
            return Plan()
        old = {d.seat: d for d in await self.clocks.deadlines(match.id)}
        paused = await self.clocks.pause(match.id) is not None
        rows, fresh = self._fit(table, old, clocks, paused)
        return Plan(Clocks(mark, rows, await self._turn_dms(table, fresh)))

    @staticmethod
    def _back(clock: SeatClock, table: Table) -> bool:
        """Whether a seat on vacation has acted since it began (so it is back)."""
        return on_vacation(clock) and table.user_of(clock.seat).decisions != clock.vacation_mark

    async def _reconcile(self, match_id: int) -> list[Deadline]:
        """Under the match's clock lock: the deadlines made to fit (saved only when
        they changed); returns the clocks of seats that just began to decide."""
        table = await self.matches.table(match_id)
        match = table.match
        if match.status != "active" or match.snapshot is None:
            if await self._has_clocks(match_id):
                await self.clocks.clear(match_id)
            for seat in table.seats:
                self.scheduler.disarm((SEAT, match_id, seat.seat))
                self.scheduler.disarm((AWAY, match_id, seat.seat))
            self.scheduler.disarm((PAUSED, match_id))
            return []
        now = self.now()
        clocks = await self.clocks.seat_clocks(match_id)
        for clock in clocks.values():
            if self._back(clock, table):
                clocks[clock.seat] = await self._come_back(clock, now)
        paused = await self.clocks.pause(match_id) is not None
        old = {d.seat: d for d in await self.clocks.deadlines(match_id)}
        rows, fresh = self._fit(table, old, clocks, paused)
        if rows != [old[seat] for seat in sorted(old)]:
            await self.clocks.save_deadlines(match_id, rows)
        for seat in old.keys() - {d.seat for d in rows}:
            self.scheduler.disarm((SEAT, match_id, seat))
        await self._arm(match, rows)
        return fresh

    async def _has_clocks(self, match_id: int) -> bool:
        """Whether a match has a deadline, a pause or a vacation under way."""
        clocks = await self.clocks.seat_clocks(match_id)
        return bool(
            await self.clocks.deadlines(match_id)
            or await self.clocks.pause(match_id) is not None
            or any(c.vacation_until is not None for c in clocks.values())
        )

    def _fit(
        self, table: Table, old: dict[int, Deadline], clocks: dict[int, SeatClock], paused: bool
    ) -> tuple[list[Deadline], list[Deadline]]:
        """The deadlines of the people `table` waits for, and which of them are new: a
        seat still deciding the same pending decision (it has not acted, and its
        decision is still in or out of turn as before) keeps its clock; any other
        decider gets a fresh one, frozen while the match is paused or they are away."""
        match = table.match
        now = self.now()
        rows, fresh = [], []
        for seat in table.to_act:
            if table.user_of(seat).by_ai:
                continue  # the AI keeps no clock: it decides at once
            # Out of turn: a seat of another team than the one whose turn it is (a
            # teammate sharing a team's turn decides in turn).
            out_of_turn = seat in table.responders
            decisions = table.user_of(seat).decisions
            kept = old.get(seat)
            if kept and (kept.decisions, kept.out_of_turn) == (decisions, out_of_turn):
                rows.append(dataclasses.replace(kept, version=match.version))
                continue
            length = out_of_turn_clock(match.clock_seconds) if out_of_turn else match.clock_seconds
            frozen = paused or on_vacation(clocks.get(seat))
            row = Deadline(
                match_id=match.id,
                seat=seat,
                version=match.version,
                decisions=decisions,
                out_of_turn=out_of_turn,
                clock_seconds=length,
                due_at=now + timedelta(seconds=length),
                frozen_at=now if frozen else None,
            )
            rows.append(row)
            if kept is None:
                fresh.append(row)
        return rows, fresh

    async def _arm(self, match: MatchRow, rows: list[Deadline]) -> None:
        """Arm the scheduler with the next moment of each running clock."""
        cadence = await self._cadence(match)
        for d in rows:
            if d.frozen_at is None:
                self.scheduler.arm((SEAT, d.match_id, d.seat), next_moment(d, cadence))
            else:
                self.scheduler.disarm((SEAT, d.match_id, d.seat))

    async def _cadence(self, match: MatchRow) -> str:
        if match.guild_id is None:
            return REMINDER_CADENCES[0]
        return (await self.matches.settings.guild(match.guild_id)).reminder_cadence

    # ------------------------------------------------------------ firing

    async def _fire(self, key: Hashable) -> None:
        """The scheduler's callback: a clock's moment, a pause's end, a vacation's end."""
        assert isinstance(key, tuple)
        kind, match_id, *rest = key
        async with self._lock(match_id):
            token = _acting.set(match_id)
            try:
                match = await self.matches.records.get(match_id)
                if match is None or not self.matches.db.owns(match.guild_id):
                    return  # another process serves its shard (it lost the lease meanwhile)
                shard = shard_of(match.guild_id, self.matches.db.shard_count)
                with about(match=match_id, guild=match.guild_id, shard=shard):
                    if kind == SEAT:
                        await self._seat_moment(match_id, rest[0])
                    elif kind == PAUSED:
                        await self._pause_over(match_id)
                    else:
                        await self._vacation_over(match_id, rest[0])
            except Exception:
                # Never drop a moment: try again later (the scheduler logs the error).
                self.scheduler.arm(key, self.now() + RETRY_AFTER)
                raise
            finally:
                _acting.reset(token)

    async def _seat_moment(self, match_id: int, seat: int) -> None:
        """A reminder or a deadline of one seat's clock."""
        d = await self.clocks.deadline(match_id, seat)
        if d is None or d.frozen_at is not None:
            return
        match = await self.matches.get(match_id)
        if match.status != "active" or d.version != match.version:
            await self._tell_turns(match_id, await self._reconcile(match_id))
            return
        now = self.now()
        if now >= d.due_at:
            await self._time_out(match, d)
            return
        cadence = await self._cadence(match)
        stage = reminders_passed(d, cadence, now)
        if stage > d.reminded:
            d = dataclasses.replace(d, reminded=stage)
            # Once, whichever process finds it due: the stage is saved only over a lower one.
            await self.clocks.remind(d, notices=await self._reminder(match_id, d, stage))
        self.scheduler.arm((SEAT, match_id, seat), next_moment(d, cadence))

    async def _reminder(self, match_id: int, d: Deadline, stage: int) -> list[Notice]:
        """The reminder of a stage of a seat's clock, in the channel and by DM."""
        table = await self.matches.table(match_id)
        user = table.user_of(d.seat).user_id
        asked = sentence(table.question(d.seat))
        when = moment(d.due_at)
        left = "Half your time is gone" if stage == HALF else "Your time is nearly up"
        text = f"{asked} {left}: decide by {when}, or the clock decides for you."
        said = outbox.say(match_id, f"⏳ <@{user}>, {text}", ping=(user,))
        dm = await self._dm(table, user, f"⏳ In <#{table.match.channel_id}>: {text}")
        return [said, *dm]

    async def _time_out(self, match: MatchRow, d: Deadline) -> None:
        """The policy acts for a seat whose clock ran out."""
        seats = {s.seat: s for s in await self.matches.records.seats(match.id)}
        seat = seats[d.seat]
        clock = (await self.clocks.seat_clocks(match.id)).get(d.seat) or SeatClock(match.id, d.seat)
        # In a row: no decision of the seat's own since its last timeout.
        in_a_row = clock.timeouts + 1 if clock.timeout_mark == seat.decisions else 1
        ends = in_a_row >= TIMEOUTS_IN_A_ROW
        # The ai policy needs another person at the table: a match against the AI alone
        # would play itself out.
        others = [s for s in seats.values() if s.seat != seat.seat and s.person and not s.by_ai]
        if match.timeout_policy == "ai" and ai.plays(match.game) and others:
            await self._stand_in(match, seat)
            return
        if ends and match.timeout_policy == "abandon":
            await self._abandon(match, seat, in_a_row)
            return
        if ends:
            line = f"⏰ {seat.name} ran out of time {in_a_row} times in a row and forfeits."
        else:
            # Not the choice's label: it may name a card only its player may see (the
            # events that follow say publicly what happened).
            line = f"⏰ {seat.name}'s time ran out."
        try:
            result = await self.matches.timeout(
                match.id, d.seat, version=d.version, forfeit=ends, note=line
            )
        except errors.StateChanged:  # the seat (or a moderator) acted at the last moment
            await self._tell_turns(match.id, await self._reconcile(match.id))
            return
        acted = result.table.user_of(d.seat).decisions
        await self.clocks.put_seat_clock(
            dataclasses.replace(clock, timeouts=in_a_row, timeout_mark=acted)
        )
        log.info("match %s: seat %d timed out (%d in a row)", match.id, d.seat, in_a_row)
        await self._tell_turns(match.id, await self._reconcile(match.id))

    async def _stand_in(self, match: MatchRow, seat: SeatRow) -> None:
        """The ai policy: the AI plays for a seat whose time ran out, until its player
        acts again (unless someone acted at the last moment)."""
        line = (
            f"⏰ <@{seat.user_id}>, your time ran out: 🤖 {AI_NAME} plays for you until you "
            "are back. Tap **Take my seat back**, or just make your next move. A match the AI "
            "played in is not rated."
        )
        said = outbox.say(match.id, line, ping=(seat.user_id,), keep=seat.user_id, back=True)
        try:
            await self.matches.hand_to_ai(
                match.id, seat.user_id, ai.Level.STRONG, version=match.version, notices=[said]
            )
        except (errors.StateChanged, errors.NotActive):
            await self._tell_turns(match.id, await self._reconcile(match.id))
            return
        log.info("match %s: the AI stands in for seat %d", match.id, seat.seat)
        await self._reconcile(match.id)

    async def _abandon(self, match: MatchRow, seat: SeatRow, in_a_row: int) -> None:
        """The abandon policy ends the match, through the match service (under the
        match's lock, like any action), unless someone acted at the last moment."""
        line = (
            f"⏰ {seat.name} ran out of time {in_a_row} times in a row: the match is "
            "abandoned, with no winner. The channel is free for a new match."
        )
        try:
            await self.matches.abandon(match.id, version=match.version, note=line, leaver=seat.seat)
        except errors.StateChanged:  # a player (or a moderator) acted at the last moment
            await self._tell_turns(match.id, await self._reconcile(match.id))
            return
        log.info("match %s: abandoned after seat %d timed out", match.id, seat.seat)
        await self._reconcile(match.id)

    # ------------------------------------------------------------ notices

    async def _tell_turns(self, match_id: int, fresh: list[Deadline]) -> None:
        """DM each opted-in player whose decision just began."""
        if not fresh:
            return
        notices = await self._turn_dms(await self.matches.table(match_id), fresh)
        if notices:
            await self.matches.outbox.enqueue(notices)

    async def _turn_dms(self, table: Table, fresh: list[Deadline]) -> list[Notice]:
        """The DMs telling opted-in players that a decision just became theirs."""
        notices = []
        for d in fresh:
            user = table.user_of(d.seat).user_id
            asked = sentence(table.question(d.seat))
            when = "Your clock is frozen." if d.frozen_at else f"Decide by {moment(d.due_at)}."
            text = f"➡️ In <#{table.match.channel_id}>, {asked} {when}"
            notices += await self._dm(table, user, text)
        return notices

    async def _dm(self, table: Table, user_id: int, text: str) -> list[Notice]:
        """The DM notice for a player who opted in (with their private view and menu);
        none while their DMs are known to be closed."""
        prefs = await self.matches.settings.notify_prefs(user_id)
        if not prefs.enabled or (prefs.dm_closed_until and self.now() < prefs.dm_closed_until):
            return []
        return [outbox.dm(table.match.id, user_id, text)]

    async def dm_closed(self, match_id: int, user_id: int) -> None:
        """A player's DMs are closed (the publisher found out): say so once in the
        channel, and try no DM for DM_RETRY_AFTER."""
        line = (
            f"📪 <@{user_id}>, I can't send you direct messages (they are closed), so "
            "your turns and reminders are only posted here. I'll try again in a day, or "
            "after you open your DMs and use `/notify on`."
        )
        await self.matches.settings.set_dm_closed(
            user_id,
            self.now() + DM_RETRY_AFTER,
            notices=[outbox.say(match_id, line, ping=(user_id,))],
        )

    async def set_notify(self, user_id: int, enabled: bool) -> str:
        """Opt a player in or out of DMs; returns the sentence telling them."""
        await self.matches.settings.set_notify(user_id, enabled)
        if enabled:
            return (
                "🔔 From now on I'll DM you your private view each time a decision becomes "
                "yours, and your reminders. `/notify off` stops it."
            )
        return "🔕 No more DMs: your turns and reminders are posted in the match's channel."

    # ------------------------------------------------------------- nudges

    async def nudge(self, match_id: int, user_id: int) -> str:
        """A seated player reminds the deciders whose clocks are at least half gone
        (once per decision); returns the sentence for the nudger."""
        async with self._lock(match_id):
            table, me = await self._seated(match_id, user_id)
            if await self.clocks.pause(match_id) is not None:
                raise errors.ClockRefused("The match is paused: nobody's clock runs.")
            now = self.now()
            waiting = [d for d in await self.clocks.deadlines(match_id) if d.seat != me.seat]
            if not waiting:
                raise errors.ClockRefused("Nobody else is deciding right now.")
            ready = [d for d in waiting if not d.nudged and not d.frozen_at and half_gone(d, now)]
            if not ready:
                raise errors.ClockRefused(self._not_yet(table, waiting))
            for d in ready:
                user = table.user_of(d.seat).user_id
                asked = sentence(table.question(d.seat))
                text = f"{me.name} nudges you: {asked} Decide by {moment(d.due_at)}."
                said = outbox.say(match_id, f"👉 <@{user}>, {text}", ping=(user,))
                dm = await self._dm(table, user, f"👉 In <#{table.match.channel_id}>, {text}")
                await self.clocks.put_deadline(
                    dataclasses.replace(d, nudged=True), notices=[said, *dm]
                )
        names = " and ".join(table.user_of(d.seat).name for d in ready)
        return f"You nudged {names}."

    async def vote_ai(self, match_id: int, voter_id: int, user_id: int) -> str:
        """A player's vote that the AI play an absent player's seat (see
        `MatchService.vote_ai`): absent means the match waits for them and at least half
        of their clock for this decision is gone, as for a nudge. The public sentence."""
        await self._seated(match_id, voter_id)
        return await self.matches.vote_ai(
            match_id, voter_id, user_id, starts=self.now() + VOTE_GRACE, absent=self._absent
        )

    async def _absent(self, table: Table, seat: SeatRow) -> None:
        """Refuses unless the match has waited for the seat half its clock or more (with
        the match's lock held: `table` is the match as it stands; a clock not yet set again
        after a change is not read as it was)."""
        if await self.clocks.pause(table.match.id) is not None:
            raise errors.ClockRefused("The match is paused: nobody is keeping it waiting.")
        mine = [d for d in await self.clocks.deadlines(table.match.id) if d.seat == seat.seat]
        if not mine:
            raise errors.ClockRefused(
                f"The match isn't waiting for {seat.name}: the AI can be voted in for a "
                "player the match waits for, once half their clock is gone."
            )
        d = mine[0]
        if d.version != table.match.version or d.decisions != seat.decisions:
            # The match moved after its clocks were last set (a move of theirs, perhaps).
            raise errors.StateChanged(
                f"The match just changed: {seat.name} may be back. Look again, and vote if "
                "they are still away."
            )
        if d.frozen_at is not None:
            raise errors.ClockRefused(f"{seat.name} is on vacation: their clock is frozen.")
        if not half_gone(d, self.now()):
            raise errors.ClockRefused(
                f"Not yet: {seat.name} still has more than half of their time for this "
                f"decision. The table can vote for the AI from {moment(half_point(d))}."
            )

    @staticmethod
    def _not_yet(table: Table, waiting: list[Deadline]) -> str:
        """Why nobody can be nudged yet, and when someone can."""
        parts = []
        for d in waiting:
            name = table.user_of(d.seat).name
            if d.nudged:
                parts.append(f"{name} was nudged already for this decision")
            elif d.frozen_at is not None:
                parts.append(f"{name}'s clock is frozen (on vacation)")
            else:
                half = moment(half_point(d))
                parts.append(f"{name} can be nudged once half their clock is gone, at {half}")
        return "Not yet: " + "; ".join(parts) + "."

    # ------------------------------------------------------ pause and resume

    async def pause(
        self, match_id: int, user_id: int, *, moderator: bool, announce: bool = False
    ) -> str:
        """Pause a match in play: at once for a moderator; for players, once every seat
        has asked (each with `/match pause`). Every clock is frozen until a resume, or
        PAUSE_LIMIT at most."""
        async with self._lock(match_id):
            table = await self.matches.table(match_id)
            if table.match.status != "active":
                raise errors.NotActive("Only a match in play can be paused.")
            pause = await self.clocks.pause(match_id)
            if pause is not None:
                raise errors.ClockRefused(
                    f"This match is paused already, until {moment(pause.ends_at)} at most."
                )
            if moderator:
                who = f"by a moderator (<@{user_id}>)"
            else:
                seat = table.seat_of(user_id)
                if seat is None:
                    raise errors.NotInMatch()
                votes = await self.clocks.add_pause_vote(match_id, seat.seat)
                missing = [s.name for s in table.seats if s.seat not in votes]
                if missing:
                    line = (
                        f"⏸️ {seat.name} asks to pause the match ({len(votes)} of "
                        f"{len(table.seats)} agree). Waiting for {' and '.join(missing)}: "
                        "each uses `/match pause`."
                    )
                    await self._log(match_id, user_id, "pause-vote", line, announce=announce)
                    return line
                who = "by all the players' agreement"
            now = self.now()
            ends = now + timedelta(seconds=PAUSE_LIMIT)
            kind = "moderator" if moderator else "agreed"
            await self.clocks.start_pause(Pause(match_id, kind, user_id, now, ends))
            rows = [
                d if d.frozen_at else dataclasses.replace(d, frozen_at=now)
                for d in await self.clocks.deadlines(match_id)
            ]
            await self.clocks.save_deadlines(match_id, rows)
            await self._arm(table.match, rows)
            self.scheduler.arm((PAUSED, match_id), ends)
            resumer = "a moderator's `/mod resume`" if moderator else "`/match resume`"
            line = (
                f"⏸️ The match is paused {who}: every clock is frozen until {resumer}, "
                f"or {moment(ends)} at the latest."
            )
            await self._log(match_id, user_id, "pause", line, announce=announce)
            return line

    async def resume(
        self, match_id: int, user_id: int, *, moderator: bool, announce: bool = False
    ) -> str:
        """End a pause: any seated player once the players agreed to it; only a
        moderator when a moderator paused."""
        async with self._lock(match_id):
            table = await self.matches.table(match_id)
            pause = await self.clocks.pause(match_id)
            if pause is None:
                raise errors.ClockRefused("This match isn't paused.")
            if not moderator:
                if table.seat_of(user_id) is None:
                    raise errors.NotInMatch()
                if pause.kind == "moderator":
                    raise errors.ClockRefused(
                        "A moderator paused this match: only a moderator can resume it."
                    )
            await self._unpause(table.match)
            who = f"A moderator (<@{user_id}>)" if moderator else f"<@{user_id}>"
            line = f"▶️ {who} resumed the match: the clocks run again."
            await self._log(match_id, user_id, "resume", line, announce=announce)
            return line

    async def _log(
        self, match_id: int, user_id: int | None, kind: str, line: str, *, announce: bool
    ) -> None:
        """Write a clock change's line in the match log (and, with `announce`, tell it to
        the table, in the same transaction)."""
        told = [outbox.say(match_id, line)] if announce else []
        await self.matches.log.add(match_id, user_id=user_id, kind=kind, text=line, notices=told)

    async def _pause_over(self, match_id: int) -> None:
        """A pause reached its limit: the clocks run again by themselves."""
        pause = await self.clocks.pause(match_id)
        if pause is None:
            return
        if self.now() < pause.ends_at:
            self.scheduler.arm((PAUSED, match_id), pause.ends_at)
            return
        table = await self.matches.table(match_id)
        # Thawed as of the limit, not of now: a bot that was down longer gives no extra time.
        await self._unpause(table.match, at=pause.ends_at)
        line = (
            f"▶️ The pause reached its limit of {format_duration(PAUSE_LIMIT)}: "
            "the clocks run again."
        )
        await self._log(match_id, None, "resume", line, announce=True)

    async def _unpause(self, match: MatchRow, *, at: datetime | None = None) -> None:
        """End a match's pause (as of `at`, default now); the clocks of seats not on
        vacation run again."""
        await self.clocks.end_pause(match.id)
        self.scheduler.disarm((PAUSED, match.id))
        clocks = await self.clocks.seat_clocks(match.id)
        await self._thaw(match, lambda seat: not on_vacation(clocks.get(seat)), at=at)

    async def _thaw(
        self, match: MatchRow, runs: Callable[[int], bool], *, at: datetime | None = None
    ) -> None:
        """Run again, as of `at` (default now), the frozen clocks of the seats `runs`
        accepts."""
        when = at or self.now()
        rows = [
            shifted(d, when) if d.frozen_at is not None and runs(d.seat) else d
            for d in await self.clocks.deadlines(match.id)
        ]
        await self.clocks.save_deadlines(match.id, rows)
        await self._arm(match, rows)

    # ------------------------------------------------------------ extend

    async def extend(self, match_id: int, seconds: int, user_id: int) -> str:
        """Give every current decider more time (a moderator's power, told to the table)."""
        if not 0 < seconds <= MAX_CLOCK:
            raise errors.ClockRefused(
                f"An extension is from 1 second to {format_duration(MAX_CLOCK)}."
            )
        async with self._lock(match_id):
            table = await self.matches.table(match_id)
            if table.match.status != "active":
                raise errors.NotActive("Only a match in play has clocks to extend.")
            rows = await self.clocks.deadlines(match_id)
            if not rows:
                raise errors.ClockRefused("Nobody is deciding in this match right now.")
            now = self.now()
            cadence = await self._cadence(table.match)
            longer = []
            for d in rows:
                d = dataclasses.replace(d, due_at=d.due_at + timedelta(seconds=seconds))
                # A reminder whose moment moved back into the future will come again.
                passed = reminders_passed(d, cadence, d.frozen_at or now)
                longer.append(dataclasses.replace(d, reminded=min(d.reminded, passed)))
            await self.clocks.save_deadlines(match_id, longer)
            await self._arm(table.match, longer)
            names = " and ".join(table.user_of(d.seat).name for d in longer)
            line = (
                f"⏱️ A moderator (<@{user_id}>) gave {names} {format_duration(seconds)} more: "
                + "; ".join(self._due_text(table, d) for d in longer)
                + "."
            )
            await self._log(match_id, user_id, "extend", line, announce=True)
            return line

    @staticmethod
    def _due_text(table: Table, d: Deadline) -> str:
        name = table.user_of(d.seat).name
        if d.frozen_at is not None:
            return f"{name} has {format_duration(left(d, d.frozen_at).total_seconds())} (frozen)"
        return f"{name} decides by {moment(d.due_at)}"

    # ------------------------------------------------------------ vacations

    async def vacation(self, match_id: int, user_id: int, duration: str) -> str:
        """Freeze a player's clock for a while, within their vacation budget for the
        match (VACATION_BUDGET, spent by the time actually away)."""
        seconds = parse_duration(duration)
        async with self._lock(match_id):
            _, seat = await self._seated(match_id, user_id)
            clock = (await self.clocks.seat_clocks(match_id)).get(seat.seat) or SeatClock(
                match_id, seat.seat
            )
            if clock.vacation_until is not None:
                raise errors.ClockRefused(
                    f"You are on vacation already, until {moment(clock.vacation_until)}: "
                    "`/match vacation end` ends it early."
                )
            budget = budget_left(clock)
            if budget <= 0:
                raise errors.ClockRefused(
                    f"You have used all of your vacation in this match "
                    f"({format_duration(VACATION_BUDGET)})."
                )
            granted = min(seconds, budget)
            now = self.now()
            until = now + timedelta(seconds=granted)
            clock = dataclasses.replace(
                clock, vacation_from=now, vacation_until=until, vacation_mark=seat.decisions
            )
            await self.clocks.put_seat_clock(clock)
            self.scheduler.arm((AWAY, match_id, seat.seat), until)
            d = await self.clocks.deadline(match_id, seat.seat)
            if d is not None and d.frozen_at is None:
                d = dataclasses.replace(d, frozen_at=now)
                await self.clocks.put_deadline(d)
                self.scheduler.disarm((SEAT, match_id, seat.seat))
            short = " (all the vacation you had left)" if granted < seconds else ""
            line = (
                f"🏖️ {seat.name} is away until {moment(until)}{short}: their clock is "
                f"frozen meanwhile. {format_duration(budget - granted)} of vacation left after."
            )
            await self._log(match_id, user_id, "vacation", line, announce=False)
            return line

    async def vacation_end(self, match_id: int, user_id: int) -> str:
        """Come back early from a vacation (the unused time stays in the budget)."""
        async with self._lock(match_id):
            _, seat = await self._seated(match_id, user_id)
            clock = (await self.clocks.seat_clocks(match_id)).get(seat.seat)
            if clock is None or not on_vacation(clock):
                raise errors.ClockRefused("You are not on vacation in this match.")
            clock = await self._come_back(clock, self.now())
            line = (
                f"🏖️ {seat.name} is back: their clock runs again "
                f"({format_duration(budget_left(clock))} of vacation left)."
            )
            await self._log(match_id, user_id, "vacation", line, announce=False)
            return line

    async def _vacation_over(self, match_id: int, seat: int) -> None:
        """A vacation reached its end (or the budget did): the clock runs again."""
        clock = (await self.clocks.seat_clocks(match_id)).get(seat)
        if clock is None or clock.vacation_until is None:
            return
        if self.now() < clock.vacation_until:
            self.scheduler.arm((AWAY, match_id, seat), clock.vacation_until)
            return
        clock = await self._come_back(clock, clock.vacation_until)
        table = await self.matches.table(match_id)
        name = table.user_of(seat).name
        spent = "their vacation budget is spent" if budget_left(clock) <= 0 else "it is over"
        line = f"🏖️ {name}'s vacation ended ({spent}): their clock runs again."
        await self._log(match_id, None, "vacation", line, announce=True)

    async def _come_back(self, clock: SeatClock, back: datetime) -> SeatClock:
        """End a seat's vacation at `back`: charge the time away, run its clock again
        (unless the match is paused)."""
        assert clock.vacation_from is not None
        away = max(0, round((back - clock.vacation_from).total_seconds()))
        clock = dataclasses.replace(
            clock,
            vacation_used=min(VACATION_BUDGET, clock.vacation_used + away),
            vacation_from=None,
            vacation_until=None,
        )
        await self.clocks.put_seat_clock(clock)
        self.scheduler.disarm((AWAY, clock.match_id, clock.seat))
        if await self.clocks.pause(clock.match_id) is None:
            match = await self.matches.get(clock.match_id)
            await self._thaw(match, lambda seat: seat == clock.seat, at=back)
        return clock

    # ------------------------------------------------------------- status

    async def status_lines(self, match_id: int, table: Table | None = None) -> list[str]:
        """The clocks of a match as lines for its status: who decides by when, a pause,
        vacations. `table`: the match as the caller already has it."""
        table = table or await self.matches.table(match_id)
        if table.match.status != "active":
            return []
        lines = []
        pause = await self.clocks.pause(match_id)
        if pause is not None:
            lines.append(f"⏸️ Paused, until {moment(pause.ends_at)} at most.")
        for d in await self.clocks.deadlines(match_id):
            out = " (out of turn)" if d.out_of_turn else ""
            lines.append(f"⏰ {self._due_text(table, d)}{out}.")
        for seat, clock in (await self.clocks.seat_clocks(match_id)).items():
            if clock.vacation_until is not None:
                name = table.user_of(seat).name
                lines.append(f"🏖️ {name} is away until {moment(clock.vacation_until)}.")
        return lines

    async def glance_lines(self, match_id: int, table: Table) -> list[str]:
        """The clocks in a line or two, for the board's summary: a pause, or who decides
        by when (the deciders due at the same moment on one line; past two moments, a
        count of the rest, which `status_lines` gives in full)."""
        if table.match.status != "active":
            return []
        pause = await self.clocks.pause(match_id)
        if pause is not None:
            return [f"⏸️ Paused, until {moment(pause.ends_at)} at most."]
        due: dict[datetime | None, list[Deadline]] = {}
        for d in sorted(await self.clocks.deadlines(match_id), key=lambda d: d.due_at):
            due.setdefault(None if d.frozen_at is not None else d.due_at, []).append(d)
        lines = []
        for when, group in list(due.items())[:GLANCED]:
            names = listed([table.user_of(d.seat).name for d in group])
            if when is None:
                lines.append(f"⏸️ {names}: clock frozen.")
            else:
                verb = "decide" if len(group) > 1 else "decides"
                lines.append(f"⏰ {names} {verb} by {moment(when)}.")
        rest = sum(len(group) for group in list(due.values())[GLANCED:])
        if rest:
            clocks = "clock" if rest == 1 else "clocks"
            lines.append(f"⏰ {rest} more {clocks}: see the full board.")
        return lines

    async def _seated(self, match_id: int, user_id: int) -> tuple[Table, SeatRow]:
        """The match in play and the caller's seat in it, or a refusal."""
        table = await self.matches.table(match_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise errors.NotInMatch()
        if table.match.status != "active":
            raise errors.NotActive("This match is not in play.")
        return table, seat
