"""The match service: the only path from Discord to the rules.

Every operation loads the match from the store, asks the game, and commits
before it returns, so a reply built from its result never announces
something that was not saved. One writer per match: a per-match lock in this
process, and a version check in the store's UPDATE for anything beyond it.

A menu is tied to its seat's decision count, not to the match's version: a
decision another seat takes meanwhile (two players discarding at once) never
spoils it, while the same menu used twice is refused the second time.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import random
import secrets
import sys
from collections import Counter, OrderedDict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache
from importlib import metadata
from typing import Any, NoReturn

from pydantic import BaseModel, TypeAdapter

import ai
from bot.service import errors, outbox
from bot.service.locks import KeyedLocks
from bot.service.logs import about
from bot.service.metrics import Metrics
from bot.service.outbox import Notice
from bot.service.store import (
    PICTURE_MODES,
    TAIL,
    ActionRow,
    ChannelBusy,
    Clocks,
    MatchRow,
    Rename,
    Results,
    SeatRow,
    Status,
    Store,
)
from bot.service.store.rows import when
from bot.service.timing import TIMEOUTS_IN_A_ROW, ClockTerms, moment
from league import ratings
from league.ratings import CONCEDED, PLAYED, TIMEOUT
from rules.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    OptionError,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    SeatSpec,
    VariantInfo,
    check_options,
    find_choice,
    find_option,
    resolve_options,
    rng_for,
)
from rules.core.rng import TrackingRandom
from rules.core.text import clip
from rules.registry import GAMES

log = logging.getLogger(__name__)

CONCEDE = "concede"
MAX_SEED = 2**53 - 1  # the largest integer a Discord option carries
RECENT_ACTIONS = 6
SINCE_MINE = TAIL  # actions looked back through for what happened since a seat decided
LATELY = 5  # public lines the board shows under "Lately"
MAX_STANDING = 8  # standing answers taken one after another after a change, at most
RULES_VERSION = metadata.version("arbiter")  # the release whose rules dealt and refereed a match
NO_PACK = "bundled"  # the pack recorded for a game that has no card packs
SUGGESTIONS = 5  # close actions listed when typed text matches none
OPTIONS_FIXED = "The match has started: its options can't change any more."
# The kinds of the match-log lines the clock's actions write (under the match's lock).
TIMEOUT_LOG, FORFEIT_LOG, ABANDON_LOG = "timeout", "forfeit", "abandon"
AI_LOG = "ai"  # the AI took a seat over for its player, or gave it back
AI_VOTE_LOG = "ai-vote"  # a player asked that the AI play a seat
AI_AGREED_LOG = "ai-agreed"  # the table's vote handed a seat to the AI (user: its player)
VOTE_GRACE = timedelta(hours=1)  # the AI's first move for a seat the table voted it waits
AI_HANDOVERS = (AI_LOG, AI_AGREED_LOG)
STOPPED = {  # a match that ended without a result, by its status
    "cancelled": "This match was stopped by a moderator.",
    "abandoned": "This match was abandoned (a player ran out of time): nobody won.",
}  # the log's lines of seats going to the AI or back
AI_NAME = "Arbiter"  # the AI player's name at the table
ABANDONED = (
    f"The match was abandoned at its deadline (a player ran out of time {TIMEOUTS_IN_A_ROW} "
    "times in a row), so nothing happened: nobody won."
)
LAST_ABANDONED = (
    "There is no open match in this channel: the last one was abandoned at its deadline "
    f"(a player ran out of time {TIMEOUTS_IN_A_ROW} times in a row), with no winner. "
    "Start one with `/match new`."
)
FORFEITED = (
    f"You forfeited at your deadline (you ran out of time {TIMEOUTS_IN_A_ROW} times in a row), "
    "so nothing happened: {then}."
)

_EVENTS = TypeAdapter(list[Event])


@lru_cache(maxsize=1024)
def saved_events(events: str) -> tuple[Event, ...]:
    """The events saved with an action (decoded once: the log is append-only, and the
    views and the board read its tail again and again)."""
    return tuple(_EVENTS.validate_json(events))


DECODED = 128  # matches whose decoded state and public table stay in memory (the rows: more)

ChangeListener = Callable[[int], Awaitable[None]]


@dataclass
class Worked:
    """What the match service worked out of one saved state of a match: the state
    decoded from `snapshot` (None: not dealt yet), and its public table once asked."""

    snapshot: str | None
    state: BaseModel | None
    table: Table | None = None
    choices: dict[int, list[Choice]] = field(default_factory=dict)  # seat -> its legal actions


@dataclass(frozen=True)
class Plan:
    """What another service adds to an action's commit: the match's clocks as the action
    leaves them (the clock's; None: left for the reconciliation after it), and the
    results of the match it finished (the stats')."""

    clocks: Clocks | None = None
    results: Results | None = None

    def __or__(self, other: Plan) -> Plan:
        """Both plans: what either gives."""
        return Plan(self.clocks or other.clocks, self.results or other.results)


Planner = Callable[["Table"], Awaitable[Plan]]


def default_pack(game: Game) -> str:
    """The pack a game's matches play with unless their options name one (NO_PACK for
    a game without card packs)."""
    return game.default_pack or NO_PACK


def declared_options(game: Game, variant: str, stored: Mapping[str, Any]) -> dict[str, str]:
    """The value of every option `game` declares for a match of `variant` whose stored
    options are `stored` (the lobby's choices, else the defaults); the stored entries the
    game doesn't declare are left out. OptionError for a stored value the option lacks."""
    return resolve_options(game, variant, {k: v for k, v in stored.items() if k in game.options})


def setup_options(game: Game, variant: str, stored: Mapping[str, Any], pack: str) -> dict[str, Any]:
    """The options a match's setup receives: its stored options, every option the game
    declares resolved (see `declared_options`), and the card pack it records."""
    return {**stored, **declared_options(game, variant, stored), "pack": pack}


def replay_step(
    game: Game, state: BaseModel, seat: int, action: Action, rng: random.Random
) -> tuple[BaseModel, list[Event]]:
    """Apply one logged action (a concession included) as the service first did."""
    if action.kind == CONCEDE:
        return game.concede(state, seat, rng)
    return game.apply(state, seat, action, rng)


class Replayer:
    """Re-applies a match's log to its dealt state: each action with the generator of
    its own number, and each seat renamed at the point where it changed hands."""

    def __init__(self, game: Game, state: BaseModel, seed: int, renames: Iterable[Rename]) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self._renames = sorted(renames, key=lambda r: r.version)

    def _rename_until(self, version: int) -> None:
        while self._renames and self._renames[0].version < version:
            rename = self._renames.pop(0)
            self.state = self.game.rename(self.state, rename.seat, rename.name)

    def step(self, seq: int, seat: int, action: Action) -> list[Event]:
        """Apply logged action number `seq` (the renames before it first)."""
        self._rename_until(seq)
        self.state, events = replay_step(
            self.game, self.state, seat, action, rng_for(self.seed, seq)
        )
        return events

    def finish(self) -> BaseModel:
        """The state once the renames after the last action are applied too."""
        self._rename_until(sys.maxsize)
        return self.state


def ai_level(typed: str) -> ai.Level:
    """The AI level a player named (BadOption, listing them, for another word)."""
    try:
        return ai.Level(typed.strip().lower())
    except ValueError:
        levels = ", ".join(f"`{level.value}`" for level in ai.Level)
        raise errors.BadOption(f"The AI plays at one of these levels: {levels}.") from None


def words_fit(typed: str, label: str) -> bool:
    """Whether every word of typed text appears in a label, in any order and any case
    ("bruiser war" fits "Play Emberhide Bruiser into your War Zone")."""
    folded = label.casefold()
    return all(word in folded for word in typed.casefold().split())


def turn_key(turn: Any, active: int | None, over: bool) -> str:
    """The identity of a turn: the public view's turn number and whose turn it is."""
    return "over" if over else f"{turn}|{active}"


@dataclass(frozen=True)
class Choice:
    """One legal action as a menu shows it: its label, and what it costs and leads to."""

    key: str
    label: str
    detail: str = ""


@dataclass(frozen=True)
class AITurn:
    """A decision the AI owes: the match, the seat, the state as saved (the AI reads
    only its seat's part of it, see `ai.search`)."""

    table: Table
    seat: SeatRow
    snapshot: str
    not_before: datetime | None = None  # a seat the table voted: its player may keep it

    @property
    def seed(self) -> int:
        """The search's seed: the match and the moment, never the match's secret seed."""
        return self.table.match.id * 1_000_003 + self.table.match.version

    @property
    def people(self) -> frozenset[int]:
        """The seats persons play: the AI leaves a move on to them (`ai.partners.hands_over`)."""
        return frozenset(s.seat for s in self.table.seats if not s.by_ai)


@dataclass(frozen=True)
class Table:
    """A match as anyone may see it: its row, its seats and the public view."""

    match: MatchRow
    seats: list[SeatRow]
    game: Game
    view: dict[str, Any] | None
    to_act: tuple[int, ...]
    outcome: Outcome | None
    responders: tuple[int, ...] = ()  # deciders answering out of turn (a response window)
    active: int | None = None  # whose turn it is (the game's active seat)
    questions: Mapping[int, str] = field(default_factory=dict)  # what each decider is asked
    teams: Mapping[int, int] = field(default_factory=dict)  # seat -> its side

    @property
    def turn(self) -> str:
        """The turn the match is in (the view's turn number and whose turn), "over" once
        it ended: public lines of one turn share a message."""
        return turn_key((self.view or {}).get("turn"), self.active, self.outcome is not None)

    def question(self, seat: int) -> str:
        """What the game asks of a deciding seat, addressed to them."""
        return self.questions.get(seat) or "your decision"

    @property
    def variant(self) -> VariantInfo:
        """The variant being played."""
        return self.game.variants[self.match.variant]

    @property
    def options(self) -> list[tuple[OptionInfo, str]]:
        """Every option of the game this match's variant has, in order, with its value."""
        values = self.option_values
        variant = self.match.variant
        return [
            (info, values[key])
            for key, info in self.game.options.items()
            if info.belongs_to(variant)
        ]

    @property
    def option_values(self) -> dict[str, str]:
        """The value of every option the game declares in this match, by option id."""
        return declared_options(self.game, self.match.variant, self.match.options)

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat a user holds, if any."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> SeatRow:
        """The row of a seat."""
        return next(s for s in self.seats if s.seat == seat)

    @property
    def host(self) -> SeatRow | None:
        """Seat 0 hosts the lobby: it starts or cancels it."""
        return self.seats[0] if self.seats else None

    @property
    def stopped(self) -> str | None:
        """Why the match ended without a result, as the table reads it (None: it is in
        play, or it has a result)."""
        if self.outcome is not None or self.view is None:
            return None
        return STOPPED.get(self.match.status)

    @property
    def ai_welcome(self) -> bool:
        """Whether the AI may take a seat at this table (a game it plays, not alone)."""
        return ai.plays(self.game.id) and self.variant.max_players > 1

    @property
    def with_ai(self) -> bool:
        """Whether the AI plays (or played) a seat of this match."""
        return any(s.by_ai or s.ai_played or not s.person for s in self.seats)

    @property
    def never_rated(self) -> bool:
        """Whether the match can never be rated, so its players may ask for hints: the
        AI plays (or played) in it, a solitaire game, a game in a DM, or a moderator
        marked it as practice."""
        return (
            self.match.practice
            or self.with_ai
            or self.match.guild_id is None
            or self.variant.max_players == 1
        )

    @property
    def hints(self) -> bool:
        """Whether its players may ask for a hint: a game the AI plays, never rated."""
        return ai.plays(self.game.id) and self.never_rated

    def results(self, *, ending: str = PLAYED, leaver: int | None = None) -> Results | None:
        """How each seat counts, as this table shows the match ended (its result, side
        and place; recorded with the change that ended it and rated from there); None
        for a match that counts for nobody: not over, over with no winner outside a
        solitaire game, or abandoned with nobody to blame. An abandoned match (`leaver`:
        the seat that ran out of time) puts the leaver's side last, every other first."""
        match self.match.status, self.outcome:
            case "finished", Outcome() as outcome if outcome.winners or outcome.against:
                places = {s: i for i, group in enumerate(outcome.places, 1) for s in group}
                result = {
                    s: "win" if s in outcome.winners else "loss" if s in outcome.losers else "draw"
                    for s in places.keys() | {s.seat for s in self.seats}
                }
                default = {"win": 1, "draw": 2, "loss": 3}
                opponent, level = outcome.against, outcome.against_level or None
            case "abandoned", _ if leaver is not None and ending == ratings.ABANDONED:
                gone = self.teams.get(leaver, leaver)
                result = {
                    s.seat: "loss" if self.teams.get(s.seat, s.seat) == gone else "draw"
                    for s in self.seats
                }
                places, default = {}, {"draw": 1, "loss": 2}
                opponent, level = None, None
            case _:
                return None
        people = [s.seat for s in self.seats if s.person]  # the AI's own seats count for no one
        return Results(
            {s: result[s] for s in people},
            opponent,
            level,
            with_ai=self.with_ai,
            teams={s: self.teams.get(s, s) for s in people},
            places={s: places.get(s, default[result[s]]) for s in people},
            ending=ending,
        )


def called_seats(
    before: tuple[tuple[int, ...], str | None],
    after: tuple[tuple[int, ...], str],
    *,
    finished: bool,
) -> tuple[int, ...]:
    """The seats an action called to decide, from who was to act and the turn before and
    after it: the ones to ping. All of them in a new turn (or when the turn before is
    unknown); else the ones who didn't decide before (the player carrying on with their
    own turn, or a teammate already deciding, is not called again); none at the end."""
    if finished:
        return ()
    (deciding, turn_before), (to_act, turn) = before, after
    if turn_before is None or turn_before != turn:
        return to_act
    return tuple(s for s in to_act if s not in deciding)


@dataclass(frozen=True)
class ActResult:
    """An accepted, committed action and what it led to."""

    table: Table
    seat: int
    label: str
    events: list[Event]
    before: tuple[int, ...] = ()  # the seats to act before it
    turn_before: str | None = None  # the turn it was taken in (None: unknown)
    told: str = ""  # what its player reads it did (`Game.acknowledge`), when they made it

    @property
    def called(self) -> tuple[int, ...]:
        """The seats it called to decide (see `called_seats`)."""
        table = self.table
        after = (table.to_act, table.turn)
        return called_seats((self.before, self.turn_before), after, finished=bool(table.outcome))

    def private_lines(self) -> list[str]:
        """What the acting seat reads of the events (its private versions where it has them)."""
        return [e.text_for(self.seat) for e in self.events if str(self.seat) in e.private]


@dataclass(frozen=True)
class UndoResult:
    """A game action taken back: the match without it, and what it had done."""

    table: Table
    seq: int
    seat: int
    lines: list[str]  # the public lines the action had produced
    reasons: list[str]  # why it needed force (it revealed hidden cards, it drew at random)

    @property
    def what(self) -> str:
        """What the action had done, in words."""
        return " ".join(self.lines) or f"{self.table.user_of(self.seat).name}'s decision"

    @property
    def forced(self) -> str:
        """ " (forced: why)" when it needed force, else nothing."""
        return f" (forced: {' and '.join(self.reasons)})" if self.reasons else ""

    def line(self, moderator_id: int) -> str:
        """The public line telling the table a moderator took the action back."""
        return f"🛡️ ↩️ <@{moderator_id}> undid the last action{self.forced}: {clip(self.what, 1200)}"


@dataclass(frozen=True)
class PrivateView:
    """What one seated player may see, and the decisions open to them."""

    table: Table
    seat: int
    view: dict[str, Any]
    choices: list[Choice]
    recent: list[str]
    decisions: int  # how many decisions this seat has taken: a menu built now carries it
    question: str | None = None  # what the game asks of this seat now; None: nothing
    # The lines from this seat's own last decision on (its own lines, then everyone's
    # after), as it reads them (of the latest SINCE_MINE actions), and whether earlier
    # ones were left out.
    since_mine: list[str] = field(default_factory=list)
    more_before: bool = False


def _applied_as_is(
    game: Game, state: BaseModel, seat: int, key: str, rng: random.Random
) -> tuple[Action, tuple[BaseModel, list[Event]]] | None:
    """The action a key names, applied, when `apply` accepts it as it is; None when it
    refuses. By the contract `apply` accepts exactly the legal actions (and those of the
    game's `open_kinds` it finds right), so an accepted key needs no legal list worked
    out: that list is for the keys it refuses (typed words, and the refusal's reason)."""
    action = Action.from_key(key)
    try:
        return action, game.apply(state, seat, action, rng)
    except IllegalAction:
        return None


class MatchService:
    """Lobbies, moves, views and replays, for every game in `games`."""

    def __init__(
        self, store: Store, games: Mapping[str, Game] | None = None, metrics: Metrics | None = None
    ) -> None:
        self.store = store
        self.games: Mapping[str, Game] = GAMES if games is None else games
        for game in self.games.values():
            check_options(game)  # a lobby must be able to show them
        self.metrics = metrics or Metrics()
        store.on_transaction(self.metrics.transaction)
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

    # ---------------------------------------------------------------- helpers

    def game(self, game_id: str) -> Game:
        """The game with this id."""
        try:
            return self.games[game_id]
        except KeyError:
            raise errors.UnknownGame(f"I don't know a game called `{game_id}`.") from None

    async def get(self, match_id: int) -> MatchRow:
        """The match with this id."""
        match = await self.store.get_match(match_id)
        if match is None:
            raise errors.MatchNotFound()
        return match

    async def open_match(self, channel_id: int) -> MatchRow:
        """The lobby or active match of a channel or thread (what is held in memory is
        checked first against other connections' commits: see `Store.sync`)."""
        await self.store.sync()
        match = await self.store.open_match_in(channel_id)
        if match is None:
            last = await self.store.latest_match_in(channel_id)
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
        return self._table(match, await self.store.seats(match_id))

    # ---------------------------------------------------------------- lobbies

    async def new_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        game: str,
        variant: str | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        ai_level: str | None = None,
        terms: ClockTerms | None = None,
    ) -> Table:
        """Open a lobby in a channel, with its creator in the first seat (and with
        `ai_level`, the AI in the second: a game against it, 2 players unless the variant
        says otherwise, in a DM too), saved with its clock `terms` in one write (None:
        the stored defaults, a day and `skip`).

        A chosen `seed` is public (every shuffle can be predicted from it); without
        one a seed is drawn and kept from the players while the match is open.
        `options["pack"]` names the card pack (default: the game's own); the game's
        declared options may be given too (BadOption for a value one doesn't have), and
        any other entry is passed to its setup as it is.
        """
        rules = self.game(game)
        if ai_level is not None and not ai.plays(rules.id):
            raise errors.NoAI(f"Arbiter doesn't play {rules.name}: it referees it for the table.")
        variant = variant_id(rules, variant, alone=guild_id is None and ai_level is None)
        options = dict(options or {})
        pack = str(options.pop("pack", None) or default_pack(rules))
        try:
            declared_options(rules, variant, options)
        except OptionError as refused:
            raise errors.BadOption(refused.message) from None
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        try:
            match = await self.store.create_match(
                guild_id=guild_id,
                channel_id=channel_id,
                game=rules.id,
                variant=variant,
                pack=pack,
                seed=seed,
                seed_chosen=seed_chosen,
                rules_version=RULES_VERSION,
                created_by=user_id,
                host_name=name,
                options=options,
                terms=terms,
            )
        except ChannelBusy:
            raise errors.ChannelHasMatch() from None
        log.info("match %s: lobby for %s/%s in channel %s", match.id, game, variant, channel_id)
        if ai_level is not None:  # the creator's answer posts the lobby: no notice of it
            return await self.add_ai(match.id, user_id, ai_level, tell=False)
        return self._table(match, await self.store.seats(match.id))

    async def join(self, match_id: int, user_id: int, name: str) -> Table:
        """Take the next free seat of a lobby."""
        async with self._lock(match_id):
            table = await self.table(match_id)
            if table.match.status != "lobby":
                raise errors.NotLobby()
            if table.seat_of(user_id) is not None:
                raise errors.AlreadyJoined()
            most = table.variant.max_players
            added = await self.store.add_seat(
                match_id, user_id, name, max_seats=most, notices=[outbox.board(match_id)]
            )
            if not added:
                raise errors.LobbyFull(f"This lobby is full ({most} players).")
            return await self.table(match_id)

    async def leave(self, match_id: int, user_id: int) -> Table:
        """Give up a lobby seat; the lobby closes when its last person leaves (the AI
        seated there leaves with them: it never hosts). One change, so the lobby message
        is redrawn once it is done, never from a lobby left empty but open."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if table.seat_of(user_id) is None:
                raise errors.NotInMatch("You are not in this lobby.")
            if table.match.status != "lobby":
                raise errors.NotLobby("The match has started: use `/match concede` to give up.")
            await self.store.remove_seat(match_id, user_id, notices=[outbox.board(match_id)])
            table = await self.table(match_id)
            if not any(s.person for s in table.seats):
                for robot in table.seats:
                    await self.store.remove_seat(match_id, robot.user_id)
                await self.store.set_status(match_id, "cancelled", only_from="lobby")
                table = await self.table(match_id)
            return table

    async def cancel(
        self,
        match_id: int,
        user_id: int,
        *,
        moderator: bool = False,
        notices: Sequence[Notice] = (),
    ) -> Table:
        """Close a lobby (its host), or any open match (a moderator's abort, which the
        moderation service logs, telling the table with its `notices`)."""
        async with self._change(match_id):
            table = await self.table(match_id)
            status = table.match.status
            if status not in ("lobby", "active"):
                raise errors.NotActive("This match is already over.")
            if not moderator:
                if status != "lobby":
                    raise errors.NotLobby(
                        "The match has started: use `/match concede` to give up "
                        "(a moderator can stop it with `/mod abort`)."
                    )
                if table.host is None or table.host.user_id != user_id:
                    raise errors.NotHost(
                        "Only the host (the first player seated) can cancel "
                        "(a moderator can with `/mod abort`)."
                    )
            told = notices or [outbox.board(match_id)]
            await self.store.set_status(match_id, "cancelled", only_from=status, notices=told)
            log.info("match %s: cancelled by %s", match_id, user_id)
            table = await self.table(match_id)
        return table

    async def set_option(self, match_id: int, user_id: int, option: str, value: str) -> Table:
        """The host changes one of the game's options while the match is a lobby. The
        option and the value are named by id or label, in any case (BadOption, listing
        what exists, when they name none)."""
        async with self._lock(match_id):
            table = await self.table(match_id)
            if table.match.status != "lobby":
                raise errors.NotLobby(
                    "This lobby was closed." if table.match.snapshot is None else OPTIONS_FIXED
                )
            host = table.host
            if host is None or host.user_id != user_id:
                name = host.name if host is not None else "the first player seated"
                raise errors.NotHost(f"Only the host ({name}) can change the options.")
            try:
                info = find_option(table.game, option)
                if not info.belongs_to(table.match.variant):
                    raise OptionError(not_this_variant(table, info))
                chosen = {**table.match.options, info.id: find_choice(info, value)}
                declared_options(table.game, table.match.variant, chosen)
            except OptionError as refused:
                raise errors.BadOption(refused.message) from None
            if not await self.store.set_options(match_id, chosen, notices=[outbox.board(match_id)]):
                raise errors.NotLobby(OPTIONS_FIXED)
            log.info("match %s: option %s set to %s", match_id, info.id, chosen[info.id])
            return await self.table(match_id)

    async def _hosted_lobby(self, match_id: int, user_id: int, doing: str) -> Table:
        """The lobby, when `user_id` hosts it (NotLobby, or NotHost saying who may do what
        the caller is `doing`)."""
        table = await self.table(match_id)
        if table.match.status != "lobby":
            raise errors.NotLobby()
        if table.host is None or table.host.user_id != user_id:
            raise errors.NotHost(f"Only the host (the first player seated) can {doing}.")
        return table

    async def start(self, match_id: int, user_id: int) -> Table:
        """Deal: seats in join order, set up by the game from the match seed."""
        async with self._change(match_id):
            table = await self._hosted_lobby(match_id, user_id, "start")
            info = table.variant
            count = len(table.seats)
            if not info.min_players <= count <= info.max_players:
                wanted = (
                    f"{info.min_players}"
                    if info.min_players == info.max_players
                    else f"{info.min_players} to {info.max_players}"
                )
                joined = "1 has" if count == 1 else f"{count} have"
                raise errors.WrongPlayerCount(
                    f"This match needs {wanted} players to start; {joined} joined so far."
                )
            game = table.game
            specs = [SeatSpec(seat=s.seat, name=s.name) for s in table.seats]
            match = table.match
            # Every option's value is stored as the deal used it, defaults included, so
            # the export states them and a replay never depends on a later default.
            options = {**match.options, **declared_options(game, info.id, match.options)}
            setup = setup_options(game, info.id, options, match.pack)
            state = game.setup(info.id, specs, setup, match.seed)
            teams = {s.seat: game.team_of(state, s.seat) for s in table.seats}
            if not await self.store.start_match(
                match_id,
                snapshot=state.model_dump_json(),
                teams=teams,
                options=options,
                notices=[outbox.start(match_id)],
            ):
                raise errors.StateChanged()
            log.info("match %s: started with %d players", match_id, count)
            table = self._table(await self.get(match_id), await self.store.seats(match_id), state)
        return table

    # ------------------------------------------------------------------ play

    async def act(
        self,
        match_id: int,
        user_id: int,
        key: str,
        *,
        decisions: int | None = None,
        typed: bool = False,
        kind: str | None = None,
        by_ai: bool = False,
    ) -> ActResult:
        """Apply one of the caller's legal actions, committed before this returns.

        `decisions` is the caller's decision count when their menu was built; when
        they have decided since (the same menu used twice), nothing is applied and
        StaleChoice is raised. Other seats' decisions never make a menu stale.
        `typed` text may also name an action by its label (see `_match_typed`); with
        `kind`, only an action of that kind (a game command's own shortcut).

        A key of one of the game's `open_kinds` is the player's own words: `apply` checks
        it, whoever is seated. At such a table a seat the game doesn't wait for may act
        too, so a refusal gives the rules' reason rather than "not your decision".

        `by_ai`: the AI acts for the seat (StaleChoice once it no longer plays it). A
        player who acts in a seat the AI was playing for them takes it back first.
        A refusal is counted (`Metrics.refused`) by the match's game and variant.
        """
        try:
            async with self._change(match_id):
                result, told = await self._act(
                    match_id, user_id, key, decisions, typed, kind, by_ai
                )
        except (errors.UserError, IllegalAction) as refused:
            # Read only when refused: an accepted move reads its match once, in `_act`.
            try:
                match = await self.get(match_id)
                where = (match.game, match.variant)
            except errors.UserError:
                where = ("", "")
            self.metrics.refused(*where, refused)
            raise
        return replace(result, told=told)

    async def _act(
        self,
        match_id: int,
        user_id: int,
        key: str,
        decisions: int | None,
        typed: bool,
        kind: str | None,
        by_ai: bool,
    ) -> tuple[ActResult, str]:
        """`act`'s work, under the match's lock: the result and what the game tells the
        actor of it."""
        match, seats, seat, state = await self._seated(match_id, user_id)
        lead: list[str] = []
        if by_ai and not seat.by_ai:
            raise errors.StaleChoice()
        if by_ai and seat.person:
            lead = [f"🤖 {AI_NAME} plays for {seat.name}:"]
        if seat.by_ai and not by_ai:
            match, seats, seat = await self._take_back(match, seat)
        elif decisions is not None and decisions != seat.decisions:
            raise errors.StaleChoice()
        game = self.game(match.game)
        rng = rng_for(match.seed, match.version + 1)
        applied = _applied_as_is(game, state, seat.seat, key, rng)
        if applied is not None:
            action, (new_state, events) = applied
        else:
            action = await self._resolve(game, match, seats, seat, state, key, typed, kind)
            rng = rng_for(match.seed, match.version + 1)  # the refused try may have drawn
            new_state, events = game.apply(state, seat.seat, action, rng)
        label = game.describe(action, state)
        told = game.acknowledge(action, state, seat.seat)
        before = self._before(match, seats)
        answers = await self._standing(game, new_state, seats)
        result = await self._commit(
            match,
            seats,
            seat,
            action,
            label,
            new_state,
            events,
            before=before,
            lead=lead,
            quiet=answers,
            by_ai=by_ai,
        )
        await self._answer_standing(result, answers)
        return result, told

    # ------------------------------------------------------------- the AI

    async def add_ai(self, match_id: int, user_id: int, level: str, *, tell: bool = True) -> Table:
        """The host seats the AI, at `level`, in the lobby's next free seat (the lobby
        message brought up to date, unless `tell` is off: a lobby not posted yet, whose
        creator's answer posts it)."""
        async with self._lock(match_id):
            table = await self._hosted_lobby(match_id, user_id, "add the AI")
            if not ai.plays(table.game.id):
                raise errors.NoAI(
                    f"Arbiter doesn't play {table.game.name}: it referees it for the table."
                )
            level = ai_level(level)
            most = table.variant.max_players
            robots = [s for s in table.seats if not s.person]
            number = f" {len(robots) + 1}" if robots else ""
            name = f"{AI_NAME}{number} ({ai.LEVEL_NAMES[level].lower()})"
            free_id = min((s.user_id for s in robots), default=0) - 1
            added = await self.store.add_seat(
                match_id,
                free_id,
                name,
                max_seats=most,
                ai=level,
                notices=[outbox.board(match_id)] if tell else [],
            )
            if not added:
                raise errors.LobbyFull(f"This lobby is full ({most} players).")
            log.info("match %s: the AI (%s) takes a seat", match_id, level)
            return await self.table(match_id)

    async def remove_ai(self, match_id: int, user_id: int) -> Table:
        """The host takes the last AI seated out of the lobby."""
        async with self._lock(match_id):
            table = await self._hosted_lobby(match_id, user_id, "remove the AI")
            robots = [s for s in table.seats if not s.person]
            if not robots:
                raise errors.NotInMatch("No AI sits in this lobby.")
            await self.store.remove_seat(
                match_id, robots[-1].user_id, notices=[outbox.board(match_id)]
            )
            return await self.table(match_id)

    async def set_practice(
        self,
        match_id: int,
        on: bool,
        *,
        user_id: int,
        kind: str,
        text: str,
        notices: Sequence[Notice],
    ) -> Table:
        """Mark an open match as practice (never rated; hints allowed) or not, with a line
        in its log (`kind`, `text`) and what to tell the table; StateChanged when it
        already is so."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if table.match.status not in ("lobby", "active"):
                raise errors.NotActive("Only a lobby or a match in play can be marked.")
            marked = await self.store.set_practice(
                match_id, on, user_id=user_id, kind=kind, text=text, notices=notices
            )
            if not marked:
                raise errors.StateChanged(
                    "This match is already marked as practice."
                    if on
                    else "This match isn't marked as practice."
                )
            return await self.table(match_id)

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
        if not await self.store.set_seat_ai(match_id, seat.seat, level, notices=notices):
            raise errors.StateChanged(f"{AI_NAME} already plays for {seat.name}.")
        await self.store.add_log_entry(
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
            votes = await self.store.add_ai_vote(
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

    async def _take_back(
        self, match: MatchRow, seat: SeatRow
    ) -> tuple[MatchRow, list[SeatRow], SeatRow]:
        """Give a seat the AI played back to its player (the caller holds the lock)."""
        back = f"↩️ {seat.name} is back and plays their seat again."
        if not await self.store.set_seat_ai(
            match.id, seat.seat, None, notices=[outbox.say(match.id, back)]
        ):
            raise errors.StateChanged()
        await self.store.add_log_entry(match.id, user_id=None, kind=AI_LOG, text=back)
        seats = await self.store.seats(match.id)
        return match, seats, next(s for s in seats if s.seat == seat.seat)

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
        handovers = [
            e for e in await self.store.log_entries(table.match.id) if e.kind in AI_HANDOVERS
        ]
        last = handovers[-1] if handovers else None
        if last is None or last.kind != AI_AGREED_LOG or last.user_id != seat.user_id:
            return None
        since = table.match.version - last.version
        moved = since and any(
            a.seat == seat.seat for a in await self.store.actions(table.match.id, last=since)
        )
        handed = when(last.created_at)
        return None if moved or handed is None else handed + VOTE_GRACE

    async def _standing(
        self, game: Game, state: BaseModel, seats: list[SeatRow]
    ) -> dict[int, Action]:
        """The deciders of `state` whose players set a standing answer that applies now
        (see `Game.standing_answer`), with the action each takes."""
        if not game.preferences or game.outcome(state) is not None:
            return {}
        found = {}
        for seat in sorted(game.to_act(state)):
            row = next(s for s in seats if s.seat == seat)
            chosen = frozenset(
                p for g, p in await self.store.standing_answers(row.user_id) if g == game.id
            )
            action = game.standing_answer(state, seat, chosen) if chosen else None
            if action is not None:
                found[seat] = action
        return found

    async def standing_answers_of(self, user_id: int) -> list[tuple[Game, PreferenceInfo, bool]]:
        """Every standing answer a player may set, game by game, and whether they set it."""
        chosen = await self.store.standing_answers(user_id)
        return [
            (game, info, (game.id, info.id) in chosen)
            for game in self.games.values()
            for info in game.preferences.values()
        ]

    async def set_standing_answer(
        self, user_id: int, spec: str, on: bool
    ) -> tuple[Game, PreferenceInfo]:
        """Set or clear one of a player's standing answers, named "<game id>:<id>"."""
        game_id, _, preference = spec.partition(":")
        game = self.games.get(game_id)
        info = game.preferences.get(preference) if game is not None else None
        if game is None or info is None:
            known = ", ".join(
                f"`{g.id}:{i.id}`" for g in self.games.values() for i in g.preferences.values()
            )
            raise errors.UserError(f"There is no standing answer `{spec}`. There are: {known}.")
        await self.store.set_standing_answer(user_id, game.id, info.id, on)
        return game, info

    async def pictures_of(self, user_id: int) -> str:
        """How a player sees their private views (a key of `PICTURE_MODES`)."""
        return await self.store.player_pictures(user_id)

    async def set_pictures(self, user_id: int, mode: str) -> None:
        """Set how a player sees their private views."""
        if mode not in PICTURE_MODES:
            raise errors.UserError(f"Pictures are one of {', '.join(PICTURE_MODES)}.")
        await self.store.set_player_pictures(user_id, mode)

    async def _answer_standing(self, result: ActResult, answers: dict[int, Action]) -> None:
        """Take the standing answers a change left due, one logged action each (told as
        such), and those each of them leaves due in turn. The caller holds the lock."""
        for _ in range(MAX_STANDING):
            table = result.table
            if not answers or table.outcome is not None:
                return
            seat, action = next(iter(answers.items()))
            match, seats, game = table.match, table.seats, table.game
            state = self._state(game, match)
            rng = rng_for(match.seed, match.version + 1)
            new_state, events = game.apply(state, seat, action, rng)
            row = table.user_of(seat)
            answers = await self._standing(game, new_state, seats)
            result = await self._commit(
                match,
                seats,
                row,
                action,
                game.describe(action, state),
                new_state,
                events,
                before=self._before(match, seats),
                lead=[f"⚙️ {row.name}'s standing answer:"],
                quiet=answers,
            )

    async def _resolve(
        self,
        game: Game,
        match: MatchRow,
        seats: list[SeatRow],
        seat: SeatRow,
        state: BaseModel,
        key: str,
        typed: bool,
        kind: str | None,
    ) -> Action:
        """The action a key `apply` refused as it is stands for (typed words matched to
        a label, see `act`), or the refusal saying why it can't be taken."""
        to_act = game.to_act(state)
        legal = game.legal_actions(state, seat.seat)
        action = next((a for a in legal if a.key == key), None)
        if action is None and Action.from_key(key).kind in game.open_kinds:
            action = Action.from_key(key)  # the player's own words: `apply` checks them
        elif seat.seat not in to_act and not legal:
            gone = await self._forfeited(match, seat.seat)
            if gone is not None:
                raise gone
            if not game.open_kinds:
                raise errors.NotYourTurn(self._waiting_for(seats, to_act))
        if action is None and typed:
            offered = [a for a in legal if kind is None or a.kind == kind]
            action = self._match_typed(game, state, seat.seat, offered, key, match, kind)
        elif action is None:
            self._refuse(game, state, seat.seat, key, match)
        return action

    async def concede(
        self,
        match_id: int,
        user_id: int,
        *,
        first: Sequence[Notice] = (),
        ending: str = CONCEDED,
    ) -> ActResult:
        """Give up at any moment of an active match (logged like any action); `first`
        tells the table something before the concession's lines, and `ending` says how
        the match ended if it ends it (a moderator's kick: REMOVED)."""
        async with self._change(match_id):
            match, seats, seat, state = await self._seated(match_id, user_id)
            game = self.game(match.game)
            action = Action(kind=CONCEDE)
            rng = rng_for(match.seed, match.version + 1)
            before = self._before(match, seats)
            new_state, events = game.concede(state, seat.seat, rng)
            label = f"{seat.name} concedes"
            result = await self._commit(
                match,
                seats,
                seat,
                action,
                label,
                new_state,
                events,
                before=before,
                first=first,
                ending=ending,
            )
        return result

    async def concession(
        self, match_id: int, user_id: int
    ) -> tuple[Table, SeatRow, Outcome | None]:
        """What `concede` would do, without doing it: the match, the seat given up and
        the outcome (None when the others play on). Refused as `concede` would be."""
        match, seats, seat, state = await self._seated(match_id, user_id)
        game = self.game(match.game)
        after, _ = game.concede(state, seat.seat, rng_for(match.seed, match.version + 1))
        return self._table(match, seats, state), seat, game.outcome(after)

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
            seats = await self.store.seats(match_id)
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
                await self.store.add_log_entry(match_id, user_id=None, kind=kind, text=note)
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
            gone_table = self._table(gone, await self.store.seats(match_id))
            results = gone_table.results(ending=ratings.ABANDONED, leaver=leaver)
            saved = await self.store.abandon_match(
                match_id, expected_version=version, notices=told, results=results
            )
            if not saved:
                raise errors.StateChanged()
            await self.store.add_log_entry(match_id, user_id=None, kind=ABANDON_LOG, text=note)
            log.info("match %s: abandoned at its deadline", match_id)
            table = await self.table(match_id)
        return table

    def _before(self, match: MatchRow, seats: list[SeatRow]) -> tuple[tuple[int, ...], str]:
        """Who was to act before an action, and in which turn (see `ActResult.called`)."""
        table = self._table(match, seats)
        return table.to_act, table.turn

    async def _seated(
        self, match_id: int, user_id: int
    ) -> tuple[MatchRow, list[SeatRow], SeatRow, BaseModel]:
        match = await self.get(match_id)
        seats = await self.store.seats(match_id)
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
        versions = {
            e.version for e in await self.store.log_entries(match.id) if e.kind == FORFEIT_LOG
        }
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
        saved = await self.store.append_action(
            match.id,
            expected_version=match.version,
            seat=seat.seat,
            user_id=seat.user_id,
            action=action.model_dump_json(),
            events=_EVENTS.dump_json(events).decode(),
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

    # ------------------------------------------------------- moderator powers

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
            renames = await self.store.renames(match_id)
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
            events = _EVENTS.validate_json(last.events)
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
            seats = await self.store.seats(match_id)
            table = self._table(match, seats, undone)
            result = UndoResult(table, last.seq, last.seat, lines, reasons)
            saved = await self.store.record_undo(
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
            seats = await self.store.seats(match_id)
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
            replaced = await self.store.replace_seat(
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

    # ----------------------------------------------------------------- views

    async def view(self, match_id: int, user_id: int) -> PrivateView:
        """The caller's private view, their legal actions and their recent private lines."""
        match = await self.get(match_id)
        seats = await self.store.seats(match_id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise errors.NotInMatch()
        if match.snapshot is None:
            raise errors.NotActive("The match hasn't started yet.")
        game = self.game(match.game)
        state = self._state(game, match)
        table = self._table(match, seats)
        active = match.status == "active"
        choices = self._choices(game, match, seat.seat) if active else []
        question = game.question(state, seat.seat) if active else None
        rows = await self.store.latest_actions(match_id, last=SINCE_MINE)
        recent = [
            e.text_for(seat.seat)
            for row in rows[-RECENT_ACTIONS:]
            for e in saved_events(row.events)
        ]
        mine = max((i for i, row in enumerate(rows) if row.seat == seat.seat), default=None)
        # From the seat's own last action on, its lines included: they hold what the game
        # did by itself after the decision (the turn passed, the next player's draw).
        since = [
            text
            for row in rows[mine or 0 :]
            for e in saved_events(row.events)
            if (text := e.text_for(seat.seat))
        ]
        return PrivateView(
            table,
            seat.seat,
            game.view(state, seat.seat),
            choices,
            recent,
            seat.decisions,
            question=question,
            since_mine=since,
            more_before=mine is None and len(rows) == SINCE_MINE,
        )

    def _choices(self, game: Game, match: MatchRow, seat: int) -> list[Choice]:
        """A seat's legal actions in the match as saved, with their labels (worked out
        once per version: a menu, its autocomplete and a redraw ask the same)."""
        worked = self._worked_from(game, match)
        choices = worked.choices.get(seat)
        if choices is None:
            state = worked.state
            assert state is not None, "a match in play has a state"
            choices = worked.choices[seat] = [
                Choice(a.key, game.describe(a, state), game.explain(a, state, seat))
                for a in game.legal_actions(state, seat)
            ]
        return list(choices)

    async def choices(self, channel_id: int, user_id: int, typed: str = "") -> list[Choice]:
        """The caller's legal actions in a channel's match that typed text fits (every
        word in the label, in any order; or the text within the key); empty when none
        is theirs. The ones the game puts under its call (its `quick` choices: the way
        to pass, to end a turn) come first, so Discord's 25 suggestions never hide them."""
        await self.store.sync()
        match = await self.store.open_match_in(channel_id)
        if match is None or match.status != "active":
            return []
        seats = await self.store.seats(match.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            return []
        wanted = typed.strip().casefold()
        view = self._table(match, seats).view or {}  # worked out once per version
        quick = [e.get("key") for e in view.get("quick") or []]
        fitting = [
            c
            for c in self._choices(self.game(match.game), match, seat.seat)
            if words_fit(wanted, c.label) or wanted in c.key.casefold()
        ]
        return sorted(fitting, key=lambda c: quick.index(c.key) if c.key in quick else len(quick))

    async def card_texts(self, channel_id: int) -> list[tuple[Game, dict[str, str]]]:
        """The cards `/card` looks up from a channel: its match's pack (its latest match
        in the channel), else every game's bundled pack."""
        match = await self.store.latest_match_in(channel_id)
        if match is not None and match.game in self.games:
            game = self.game(match.game)
            return [(game, game.card_texts(match.pack))]
        return [(game, game.card_texts(None)) for game in self.games.values()]

    async def lately(self, match_id: int, *, lines: int = LATELY) -> list[str]:
        """The last public lines of a match, oldest first (undone actions left out)."""
        shown: list[str] = []
        for events in await self.store.recent_events(match_id, last=lines):
            shown.extend(e.text for e in saved_events(events) if e.text)
        return shown[-lines:]

    async def repost(self, match_id: int) -> None:
        """Have the match's message (its lobby or board) posted, or brought up to date."""
        await self.store.enqueue([outbox.board(match_id)])

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the message that shows the match."""
        self.store.set_board_message(match_id, message_id)

    # ---------------------------------------------------------------- replay

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
            await self.store.renames(match_id),
        )

    async def setup_seats(self, match_id: int) -> list[SeatSpec]:
        """The seats as the game dealt them: a seat handed to another member keeps the
        name it was dealt in with."""
        names = await self.store.setup_names(match_id)
        return [
            SeatSpec(seat=s.seat, name=names.get(s.seat, s.name))
            for s in await self.store.seats(match_id)
        ]

    async def effective(self, match_id: int) -> list[ActionRow]:
        """The logged actions still in effect (not undone), in order."""
        undone = await self.store.undone(match_id)
        return [row for row in await self.store.actions(match_id) if row.seq not in undone]

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

    async def verify(self, match_id: int) -> bool:
        """Whether replaying the log gives exactly the saved snapshot."""
        match = await self.get(match_id)
        if match.snapshot is None:
            return True
        replayed = await self.replay(match_id)
        return replayed == self._state(self.game(match.game), match)


def variant_id(game: Game, typed: str | None, *, alone: bool = False) -> str:
    """The variant `typed` names, by id or name in any case (none: the game's first);
    UnknownVariant, listing the game's variants, when it names none. `alone`: a match in
    a direct message with the bot, where only a one-player (solitaire) variant can be
    played (none named: the game's first such)."""
    solitaire = [v.id for v in game.variants.values() if v.max_players == 1]
    if alone and not solitaire:
        raise errors.UnknownVariant(
            f"{game.name} can't be played here: in a direct message with me only a "
            "solitaire game can be played. Open this match in a server's channel."
        )
    if typed is None or not typed.strip():
        return solitaire[0] if alone else next(iter(game.variants))
    wanted = typed.strip().casefold()
    for info in game.variants.values():
        if wanted in (info.id.casefold(), info.name.casefold()):
            if alone and info.max_players > 1:
                raise errors.UnknownVariant(
                    f"{info.name} needs other players: in a direct message with me only a "
                    f"solitaire game can be played ({', '.join(f'`{v}`' for v in solitaire)})."
                )
            return info.id
    known = ", ".join(f"`{v.id}` ({v.name})" for v in game.variants.values())
    raise errors.UnknownVariant(
        f"{game.name} has no variant `{_quoted(typed)}`. Its variants: {known}."
    )


def not_this_variant(table: Table, info: OptionInfo) -> str:
    """Why an option can't be set in this lobby: it belongs to other variants."""
    game = table.game
    where = " and ".join(game.variants[v].name for v in info.only)
    return (
        f"{info.label} is an option of {game.name}'s {where} only, not of "
        f"{table.variant.name}: nothing changed."
    )


def _quoted(text: str, limit: int = 40) -> str:
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
