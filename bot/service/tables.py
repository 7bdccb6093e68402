"""A match as the service reads it and answers with: the public `Table`, a seat's
`PrivateView`, what an action or an undo did (`ActResult`, `UndoResult`), what the AI
is asked (`AITurn`), replaying saved actions (`Replayer`), and the names of the
match-log lines and sentences the service writes."""

from __future__ import annotations

import random
import sys
from collections.abc import (
    Awaitable,
    Callable,
    Iterable,
    Mapping,
)
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from importlib import metadata
from typing import Any

from pydantic import BaseModel, TypeAdapter

import ai
from bot.service import errors
from bot.service.store import (
    TAIL,
    Clocks,
    MatchRow,
    Rename,
    Results,
    SeatRow,
)
from bot.service.timing import TIMEOUTS_IN_A_ROW
from league import ratings
from league.ratings import PLAYED
from rules.core import (
    Action,
    Event,
    Game,
    OptionInfo,
    Outcome,
    VariantInfo,
    resolve_options,
    rng_for,
)
from rules.core.text import clip

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


EVENTS = TypeAdapter(list[Event])


@lru_cache(maxsize=1024)
def saved_events(events: str) -> tuple[Event, ...]:
    """The events saved with an action (decoded once: the log is append-only, and the
    views and the board read its tail again and again)."""
    return tuple(EVENTS.validate_json(events))


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
