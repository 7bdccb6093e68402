"""What every part of the match service stands on (`MatchCore`): the per-match lock
and the listeners told after a change, reading a match and working out its table
(decoded once per version), the seat a player holds, refusals worded for players, and
`_commit`, which saves an action with everything it must tell."""

from __future__ import annotations

import asyncio
import difflib
import logging
from collections import Counter, OrderedDict
from collections.abc import (
    AsyncIterator,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import NoReturn, Protocol

from pydantic import BaseModel

from bot.service import errors, outbox
from bot.service.locks import KeyedLocks
from bot.service.logs import about
from bot.service.metrics import Metrics
from bot.service.outbox import Notice
from bot.service.store import (
    ActionRow,
    ClockStore,
    Database,
    LogStore,
    MatchRow,
    MatchStore,
    OutboxStore,
    Rename,
    SeatRow,
    SettingsStore,
    Status,
)
from bot.service.tables import (
    ABANDONED,
    AI_LOG,
    DECODED,
    EVENTS,
    FORFEIT_LOG,
    FORFEITED,
    LAST_ABANDONED,
    SUGGESTIONS,
    ActResult,
    ChangeListener,
    Plan,
    Planner,
    Replayer,
    Table,
    Worked,
    called_seats,
    setup_options,
    words_fit,
)
from league.ratings import PLAYED
from rules.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    SeatSpec,
    check_options,
    rng_for,
)
from rules.registry import GAMES

log = logging.getLogger(__name__)


class MatchRepositories(Protocol):
    """The repositories the match service uses (a `Store` has them all)."""

    @property
    def db(self) -> Database: ...
    @property
    def matches(self) -> MatchStore: ...
    @property
    def log(self) -> LogStore: ...
    @property
    def settings(self) -> SettingsStore: ...
    @property
    def clocks(self) -> ClockStore: ...
    @property
    def outbox(self) -> OutboxStore: ...


class MatchCore:
    """The match service's common ground; its parts are `MatchService`'s bases."""

    def __init__(
        self,
        store: MatchRepositories,
        games: Mapping[str, Game] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.games: Mapping[str, Game] = GAMES if games is None else games
        for game in self.games.values():
            check_options(game)  # a lobby must be able to show them
        self.db = store.db
        self.records = store.matches
        self.log = store.log
        self.settings = store.settings
        self.clocks = store.clocks
        self.outbox = store.outbox
        self.metrics = metrics or Metrics()
        self.db.on_transaction(self.metrics.transaction)
        self._lock = KeyedLocks()
        self._listeners: list[ChangeListener] = []
        self._planners: list[Planner] = []
        self._changing: Counter[int] = Counter()  # match id -> changes under way
        self._calm = asyncio.Condition()
        # What was last worked out of each match's saved state, by match id: decoded
        # once per version, not once per reader.
        self._worked: OrderedDict[int, Worked] = OrderedDict()

    @asynccontextmanager
    async def _change(self, match_id: int) -> AsyncIterator[None]:
        """Hold the match's lock for a change; once it is committed and the lock let go,
        tell the listeners (`changed`). Until they are done the match is not `settled`."""
        self._changing[match_id] += 1
        try:
            with about(match=match_id):
                async with self._lock(match_id):
                    yield
                await self.changed(match_id)
        finally:
            self._changing[match_id] -= 1
            if not self._changing[match_id]:
                del self._changing[match_id]
            async with self._calm:
                self._calm.notify_all()

    async def settled(self, match_id: int) -> None:
        """Wait until no change of the match is under way (its listeners included): what
        is read then is the match as the change left it, its clocks armed."""
        async with self._calm:
            await self._calm.wait_for(lambda: match_id not in self._changing)

    def plan_with(self, planner: Planner) -> None:
        """Have `planner` work out, before each action commits, what the commit saves
        beside it (see `Plan`)."""
        self._planners.append(planner)

    def on_change(self, listener: ChangeListener) -> None:
        """Call `listener(match_id)` after every committed change to a match (start, an
        action, a concession, a cancellation...), outside the match's lock."""
        self._listeners.append(listener)

    async def changed(self, match_id: int) -> None:
        """Tell the listeners a match changed; whoever commits a change calls this after."""
        for listener in self._listeners:
            try:
                await listener(match_id)
            except Exception:
                # A listener's failure must not undo or hide a change already committed.
                log.exception("match %s: change listener %r failed", match_id, listener)

    def game(self, game_id: str) -> Game:
        """The game with this id."""
        try:
            return self.games[game_id]
        except KeyError:
            raise errors.UnknownGame(f"I don't know a game called `{game_id}`.") from None

    async def get(self, match_id: int) -> MatchRow:
        """The match with this id."""
        match = await self.records.get(match_id)
        if match is None:
            raise errors.MatchNotFound()
        return match

    async def open_match(self, channel_id: int) -> MatchRow:
        """The lobby or active match of a channel or thread (what is held in memory is
        checked first against other connections' commits: see `Database.sync`)."""
        await self.db.sync()
        match = await self.records.open_in(channel_id)
        if match is None:
            last = await self.records.latest_in(channel_id)
            if last is not None and last.status == "abandoned":
                raise errors.NoMatchHere(LAST_ABANDONED)
            raise errors.NoMatchHere()
        return match

    def _state(self, game: Game, match: MatchRow) -> BaseModel:
        """The match's state, decoded from its snapshot once (the rules never change a
        state in place: each action returns a new one)."""
        assert match.snapshot is not None, "a started match always has a snapshot"
        state = self._worked_from(game, match).state
        assert state is not None
        return state

    def _worked_from(self, game: Game, match: MatchRow) -> Worked:
        """What is worked out of the match's saved state (decoding it when it changed)."""
        held = self._worked.get(match.id)
        if held is None or held.snapshot != match.snapshot:
            state = None
            if match.snapshot is not None:
                state = game.state_model.model_validate_json(match.snapshot)
            held = Worked(match.snapshot, state)
        self._hold(match.id, held)
        return held

    def _hold(self, match_id: int, worked: Worked) -> None:
        self._worked[match_id] = worked
        self._worked.move_to_end(match_id)
        while len(self._worked) > DECODED:
            self._worked.popitem(last=False)

    def _table(
        self, match: MatchRow, seats: list[SeatRow], state: BaseModel | None = None
    ) -> Table:
        """The public table of a match; given `state`, of the match in that state (worked
        out afresh: it may be one the match isn't saved in, like an undo's before it
        commits), else as saved (worked out once per version)."""
        game = self.game(match.game)
        if state is not None:
            return self._work_out(game, match, seats, state)
        worked = self._worked_from(game, match)
        if worked.table is None:
            worked.table = self._work_out(game, match, seats, worked.state)
        elif worked.table.match != match or worked.table.seats != seats:
            # The same state: what was worked out of it holds; the row and the seats
            # are the ones read now (a board message, a decision count, a name).
            worked.table = replace(worked.table, match=match, seats=seats)
        return worked.table

    @staticmethod
    def _work_out(
        game: Game, match: MatchRow, seats: list[SeatRow], state: BaseModel | None
    ) -> Table:
        """The public table of a match in `state` (None: not dealt yet)."""
        if state is None:
            return Table(match, seats, game, None, (), None)
        to_act = tuple(sorted(game.to_act(state)))
        active = game.active_seat(state)
        responders = (
            ()
            if active is None
            else tuple(s for s in to_act if game.team_of(state, s) != game.team_of(state, active))
        )
        questions = {s: q for s in to_act if (q := game.question(state, s))}
        return Table(
            match=match,
            seats=seats,
            game=game,
            view=game.view(state, None),
            to_act=to_act,
            outcome=game.outcome(state),
            responders=responders,
            active=active,
            questions=questions,
            teams={s.seat: game.team_of(state, s.seat) for s in seats},
        )

    async def table(self, match_id: int) -> Table:
        """The match with its seats and public view."""
        match = await self.get(match_id)
        return self._table(match, await self.records.seats(match_id))

    async def _take_back(
        self, match: MatchRow, seat: SeatRow
    ) -> tuple[MatchRow, list[SeatRow], SeatRow]:
        """Give a seat the AI played back to its player (the caller holds the lock)."""
        back = f"↩️ {seat.name} is back and plays their seat again."
        if not await self.records.set_seat_ai(
            match.id, seat.seat, None, notices=[outbox.say(match.id, back)]
        ):
            raise errors.StateChanged()
        await self.log.add(match.id, user_id=None, kind=AI_LOG, text=back)
        seats = await self.records.seats(match.id)
        return match, seats, next(s for s in seats if s.seat == seat.seat)

    def _before(self, match: MatchRow, seats: list[SeatRow]) -> tuple[tuple[int, ...], str]:
        """Who was to act before an action, and in which turn (see `ActResult.called`)."""
        table = self._table(match, seats)
        return table.to_act, table.turn

    async def _seated(
        self, match_id: int, user_id: int
    ) -> tuple[MatchRow, list[SeatRow], SeatRow, BaseModel]:
        match = await self.get(match_id)
        seats = await self.records.seats(match_id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise errors.NotInMatch()
        if match.status != "active":
            raise await self.not_in_play(match, seat.seat)
        return match, seats, seat, self._state(self.game(match.game), match)

    async def not_in_play(self, match: MatchRow, seat: int | None) -> errors.UserError:
        """The refusal of an action in a match that isn't in play, saying what became of
        it: not started yet, abandoned at its deadline, over (for a seat the clock made
        forfeit: that it forfeited)."""
        if match.status == "lobby":
            return errors.NotActive("The match hasn't started yet.")
        if match.status == "abandoned":
            return errors.MatchAbandoned(ABANDONED)
        gone = None if seat is None else await self._forfeited(match, seat)
        return gone or errors.NotActive("This match is over.")

    async def _forfeited(self, match: MatchRow, seat: int) -> errors.Forfeited | None:
        """The refusal for a seat the clock made forfeit (a forfeit still in effect),
        saying whether the match is over or the others play on; None for any other seat."""
        versions = {e.version for e in await self.log.entries(match.id) if e.kind == FORFEIT_LOG}
        if not versions:
            return None
        for row in await self.effective(match.id):
            if row.seq in versions and row.seat == seat:
                over = match.status != "active"
                then = "the match is over" if over else "the others play on without you"
                return errors.Forfeited(FORFEITED.format(then=then))
        return None

    def _refuse(
        self, game: Game, state: BaseModel, seat: int, key: str, match: MatchRow
    ) -> NoReturn:
        """Explain why `key` is not legal: the rules' own sentence when they have one."""
        action = Action.from_key(key)
        try:
            game.apply(state, seat, action, rng_for(match.seed, match.version + 1))
        except IllegalAction:
            raise
        except Exception:
            log.debug("match %s: unparseable action key %r", match.id, key, exc_info=True)
        raise errors.UnknownAction()

    def _match_typed(
        self,
        game: Game,
        state: BaseModel,
        seat: int,
        legal: list[Action],
        text: str,
        match: MatchRow,
        kind: str | None = None,
    ) -> Action:
        """The legal action typed text names: its exact key, else its exact label (any
        case), else the only label containing the text, else the only label holding
        every typed word (any order, any case). Text naming an action the seat could
        try but not now gets the rules' reason; a stale key (a suggestion picked before
        the match moved) the rules' own refusal; other text a sentence pointing to the
        suggestions, with a few close ones."""
        typed = text.strip()
        for action in legal:
            if action.key == typed:
                return action
        labels = [(a, game.describe(a, state)) for a in legal]
        wanted = typed.casefold()
        exact = [a for a, label in labels if label.casefold() == wanted]
        if len(exact) == 1:
            return exact[0]
        within = [a for a, label in labels if wanted and wanted in label.casefold()]
        if len(within) == 1:
            return within[0]
        fits = [(a, label) for a, label in labels if wanted and words_fit(wanted, label)]
        if len(fits) == 1:
            return fits[0][0]
        if not fits:
            if "|" in typed:
                self._refuse(game, state, seat, typed, match)
            self._refuse_named(game, state, seat, legal, wanted, match, kind)
        quoted = f"“{typed[:100]}”"
        if fits:
            head = f"{quoted} fits {len(fits)} of your actions: pick one of the suggestions."
            shown = [label for _, label in fits]
        else:
            head = (
                f"{quoted} isn't one of your actions right now: pick one of the suggestions "
                "that appear as you type."
            )
            shown = _closest(wanted, [label for _, label in labels])
        listed = "\n".join(f"• {label[:100]}" for label in shown[:SUGGESTIONS])
        more = "\n…" if len(shown) > SUGGESTIONS else ""
        raise errors.UnknownAction(f"{head}\n{listed}{more}" if listed else head)

    def _refuse_named(
        self,
        game: Game,
        state: BaseModel,
        seat: int,
        legal: list[Action],
        wanted: str,
        match: MatchRow,
        kind: str | None = None,
    ) -> None:
        """When text (case-folded) names an action the seat might try but may not now (one
        of the game's candidates, of `kind` if given, matched like a legal one, the best
        single match), raise the rules' refusal of it; else return."""
        if not wanted:
            return
        keys = {a.key for a in legal}
        named: list[tuple[tuple[bool, bool, float], Action, str]] = []
        for action in game.candidates(state, seat):
            if action.key in keys or (kind is not None and action.kind != kind):
                continue
            try:
                label = game.describe(action, state)
            except Exception:  # a game may not know how to name what it would refuse
                continue
            folded = label.casefold()
            if not words_fit(wanted, label):
                continue
            ratio = difflib.SequenceMatcher(None, wanted, folded).ratio()
            named.append(((folded == wanted, wanted in folded, ratio), action, label))
        if not named:
            return
        _, action, label = max(named, key=lambda n: n[0])
        try:
            game.apply(state, seat, action, rng_for(match.seed, match.version + 1))
        except IllegalAction as refused:
            raise IllegalAction(
                refused.code, f"“{label}” isn't possible now: {refused.message}"
            ) from None
        except Exception:
            log.debug("match %s: candidate %r failed", match.id, action.key, exc_info=True)
            return
        log.warning("match %s: candidate %r is legal but not listed", match.id, action.key)

    @staticmethod
    def _waiting_for(seats: list[SeatRow], to_act: set[int]) -> str:
        names = [s.name for s in seats if s.seat in to_act]
        if not names:
            return "It is not your decision right now."
        return f"It is not your decision: waiting for {' and '.join(names)}."

    async def _commit(
        self,
        match: MatchRow,
        seats: list[SeatRow],
        seat: SeatRow,
        action: Action,
        label: str,
        state: BaseModel,
        events: list[Event],
        *,
        before: tuple[tuple[int, ...], str],
        lead: Sequence[str] = (),
        first: Sequence[Notice] = (),
        quiet: Collection[int] = (),
        ending: str = PLAYED,
        by_ai: bool = False,
    ) -> ActResult:
        """Append the action and the notice telling the table of it (after `first`), in
        one transaction. `before`: who was to act, and the turn, before it; `lead`:
        public lines that come before its events'; `quiet`: seats not called, since a
        standing answer decides for them next; `ending`: how the match ended, if the
        action ends it (see `league.ratings`); `by_ai`: the AI made the move. The match
        as the commit leaves it is worked out here, once: the notice reads who decides
        next from it, and the result carries it (nothing is read back)."""
        game = self.game(match.game)
        finished = game.outcome(state) is not None
        seq = match.version + 1
        snapshot = state.model_dump_json()
        status: Status = "finished" if finished else "active"
        after = replace(match, snapshot=snapshot, version=seq, status=status)
        counted = [
            replace(s, decisions=s.decisions + 1, ai_played=s.ai_played or by_ai)
            if s.seat == seat.seat
            else s
            for s in seats
        ]
        table = self._table(after, counted, state)
        lines = [*lead, *(e.text for e in events if e.text)] or [f"**{seat.name}**: {label}"]
        told = outbox.action(
            match.id,
            seq=seq,
            lines=lines,
            called=tuple(
                s
                for s in called_seats(before, (table.to_act, table.turn), finished=finished)
                if s not in quiet
            ),
            turn=table.turn,
            finished=finished,
        )
        plan = Plan()
        for planner in self._planners:
            plan |= await planner(table)
        saved = await self.records.append_action(
            match.id,
            expected_version=match.version,
            seat=seat.seat,
            user_id=seat.user_id,
            action=action.model_dump_json(),
            events=EVENTS.dump_json(events).decode(),
            snapshot=snapshot,
            status=status,
            notices=[*first, told],
            clocks=plan.clocks,
            results=None if plan.results is None else replace(plan.results, ending=ending),
            by_ai=by_ai,
        )
        if not saved:
            # What was held of the match was out of date (another process, a restore):
            # the store forgot it, and the next try reads it afresh.
            raise errors.StateChanged()
        self.metrics.applied(match.game, match.variant)
        self._hold(match.id, Worked(snapshot, state, table))
        if finished:
            log.info("match %s: finished at action %d", match.id, seq)
        return ActResult(
            table=table,
            seat=seat.seat,
            label=label,
            events=events,
            before=before[0],
            turn_before=before[1],
        )

    async def setup_seats(self, match_id: int) -> list[SeatSpec]:
        """The seats as the game dealt them: a seat handed to another member keeps the
        name it was dealt in with."""
        names = await self.records.setup_names(match_id)
        return [
            SeatSpec(seat=s.seat, name=names.get(s.seat, s.name))
            for s in await self.records.seats(match_id)
        ]

    async def effective(self, match_id: int) -> list[ActionRow]:
        """The logged actions still in effect (not undone), in order."""
        undone = await self.records.undone(match_id)
        return [row for row in await self.records.actions(match_id) if row.seq not in undone]

    def _rebuild(
        self,
        match: MatchRow,
        specs: list[SeatSpec],
        rows: Iterable[ActionRow],
        renames: Iterable[Rename],
    ) -> BaseModel:
        game = self.game(match.game)
        options = setup_options(game, match.variant, match.options, match.pack)
        state = game.setup(match.variant, specs, options, match.seed)
        replayer = Replayer(game, state, match.seed, renames)
        for row in rows:
            replayer.step(row.seq, row.seat, Action.model_validate_json(row.action))
        return replayer.finish()


def quoted(text: str, limit: int = 40) -> str:
    """Text a player typed, short enough to quote back (and without backticks)."""
    text = " ".join(text.replace("`", "'").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _closest(typed: str, labels: list[str]) -> list[str]:
    """The labels nearest to typed text: most words in common, then most alike."""
    words = set(typed.split())

    def score(label: str) -> tuple[int, float]:
        folded = label.casefold()
        shared = len(words & set(folded.split()))
        return shared, difflib.SequenceMatcher(None, typed, folded).ratio()

    ranked = sorted(labels, key=score, reverse=True)
    near = [label for label in ranked if score(label)[0] or score(label)[1] >= 0.5]
    return near or ranked
