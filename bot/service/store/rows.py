"""The rows the store reads and writes, as the services see them, and how each is
decoded from a database row (any engine's: a row is read by column name)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from bot.service.outbox import Notice, OutboxRow
from league.ratings import PLAYED, RATED_BY_DEFAULT, Skill

Row = Mapping[str, Any]  # a database row, read by column name

Status = Literal["lobby", "active", "finished", "cancelled", "abandoned"]
OPEN: tuple[str, ...] = ("lobby", "active")


@dataclass(frozen=True)
class MatchRow:
    """One row of `matches`."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    variant: str
    pack: str
    seed: int
    seed_chosen: bool  # a player chose the seed (so it is public); else it was drawn
    rules_version: str
    status: Status
    snapshot: str | None
    version: int
    board_message_id: int | None
    created_by: int
    options: dict[str, Any]
    created_at: str
    updated_at: str
    clock_seconds: int = 86400  # the clock per decision (out of turn: see bot.durations)
    timeout_policy: str = "skip"  # what N timeouts in a row lead to (see bot.service.clock)
    practice: bool = False  # a moderator marked it practice: never rated, hints allowed


@dataclass(frozen=True)
class SeatRow:
    """One row of `seats`: who sits where, and how many decisions that seat has taken."""

    seat: int
    user_id: int
    name: str
    team: int | None
    decisions: int = 0
    ai: str | None = None  # the level of the AI playing the seat, if one does
    ai_played: bool = False  # the AI made a move for this seat (ever: kept when taken back)

    @property
    def by_ai(self) -> bool:
        """Whether the AI plays this seat now."""
        return self.ai is not None

    @property
    def person(self) -> bool:
        """Whether a person holds the seat (and may take it back from the AI)."""
        return self.user_id > 0


@dataclass(frozen=True)
class ActionRow:
    """One entry of the action log."""

    seq: int
    seat: int
    user_id: int
    action: str
    events: str
    created_at: str


@dataclass(frozen=True)
class TurnMessage:
    """The public message of a match's current turn, edited as the turn goes on."""

    match_id: int
    message_id: int
    turn: str  # the turn it belongs to (`Table.turn`)
    body: str  # its lines, without the lines naming the deciders under them
    through: int = 0  # the last outbox notice whose lines it shows
    # The user whose command it reads as (posted as their interaction's followup); None:
    # posted in the channel, nobody's. Only its author's lines are added to it.
    author: int | None = None


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings (defaults until a moderator changes them)."""

    guild_id: int
    mod_role_id: int | None = None
    match_channels: tuple[int, ...] = ()  # where matches may be opened; empty: anywhere
    default_clock_seconds: int = 86400
    default_timeout_policy: str = "skip"
    reminder_cadence: str = "half-and-end"
    board_pictures: str = "both"  # see PICTURE_MODES
    season: int = 1  # the current season of its ratings (a moderator starts the next)
    # Which endings of a match it rates, beside a match played to its end.
    rated_endings: frozenset[str] = RATED_BY_DEFAULT


GUILD_SETTING_FIELDS = frozenset(
    {
        "mod_role_id",
        "match_channels",
        "default_clock_seconds",
        "default_timeout_policy",
        "reminder_cadence",
        "board_pictures",
        "rated_endings",
    }
)
# How a board or a private view is shown: a picture and the text, the picture with the
# text it doesn't show, or the text alone.
PICTURE_MODES = {
    "both": "pictures and text",
    "pictures": "pictures only",
    "text": "text only",
}
# What each mode shows, on a board (a server's choice; a DM game's, its player's) and
# on a player's own view: a name and what it holds.
BOARD_MODES = {
    "both": (
        "picture and summary",
        "the table's picture under a short summary (who decides and what is asked, the "
        "turn, every score, the clock, the last lines); the whole text board is one tap "
        "away, under **Full board**",
    ),
    "pictures": (
        "picture only",
        "the table's picture and who decides; the whole text board is one tap away, under "
        "**Full board**",
    ),
    "text": (
        "text only",
        "the whole board as text in the message, every card in play and the key to its "
        "marks, and no picture (for a screen reader)",
    ),
}
VIEW_MODES = {
    "both": ("picture and text", "your view drawn where it helps, with all of its text"),
    "pictures": ("picture only", "your view drawn where it helps, with the text it doesn't show"),
    "text": ("text only", "your view as text, and no picture (for a screen reader)"),
}


@dataclass(frozen=True)
class LogEntry:
    """A line of a match's log that is not a game action: who did what, and when."""

    id: int
    match_id: int
    version: int
    user_id: int | None
    kind: str
    text: str
    created_at: str


@dataclass(frozen=True)
class UndoneRow:
    """A game action a moderator took back: replay skips it, the log shows it struck out."""

    seq: int
    user_id: int
    forced: bool  # it had revealed hidden cards or drawn at random
    created_at: str


@dataclass(frozen=True)
class Rename:
    """A seat renamed in the game when it changed hands, at match version `version`."""

    version: int
    seat: int
    name: str


@dataclass(frozen=True)
class Versus:
    """A player's solitaire games against one opponent (a nemesis) of a game."""

    user_id: int
    game: str
    opponent: str
    level: int  # how hard it is, 1 to 4
    wins: int
    losses: int


@dataclass(frozen=True)
class Hunter:
    """A player's solitaire record of a game: the opponents beaten, the hardest of them."""

    user_id: int
    beaten: int  # distinct opponents beaten
    hardest: int  # the highest level beaten
    wins: int
    games: int


@dataclass(frozen=True)
class Record:
    """A player's finished matches of one game in one server."""

    user_id: int
    game: str
    games: int
    wins: int
    losses: int

    @property
    def win_rate(self) -> float:
        """Wins per match played (0 before any)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Results:
    """How each seat of a finished match ended (`{seat: 'win' | 'loss' | 'draw'}`), its
    side and place (`teams`, `places`: 1 is first), how the match ended (`ending`, see
    `league.ratings`), and the opponent of a solitaire game (a nemesis) with its
    difficulty."""

    by_seat: dict[int, str]
    opponent: str | None = None
    opponent_level: int | None = None
    with_ai: bool = False  # the AI played a seat: not rated between people
    teams: Mapping[int, int] = field(default_factory=dict)  # seat -> side (default: itself)
    places: Mapping[int, int] = field(default_factory=dict)  # seat -> place (default: by result)
    ending: str = PLAYED


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game, server and season, and how many rated matches
    made it."""

    user_id: int
    game: str
    season: int
    skill: Skill
    games: int


@dataclass(frozen=True)
class RatingChange:
    """What one rated match did to a player's rating."""

    match_id: int
    rating_seq: int
    before: Skill
    after: Skill
    at: str


@dataclass(frozen=True)
class Clocks:
    """The deadlines an action leaves and the DMs they call for, worked out from the
    match's clocks as they stood at `mark` (`Database.clock_mark`): saved with the action
    only if no clock of the match changed since (else left to the reconciliation after)."""

    mark: int
    deadlines: Sequence[Deadline]
    notices: Sequence[Notice] = ()


@dataclass(frozen=True)
class Deadline:
    """The running (or frozen) clock of one seat the match waits for."""

    match_id: int
    seat: int
    version: int  # the match version it was armed for: any other is stale
    decisions: int  # the seat's decision count then: once it acts, a new clock starts
    out_of_turn: bool  # a decision outside the seat's turn (a shorter clock)
    clock_seconds: int  # this clock's length
    due_at: datetime
    reminded: int = 0  # reminders sent: 1 at half time, 2 near the end
    nudged: bool = False  # a player has nudged the decider already
    frozen_at: datetime | None = None  # paused or on vacation since then; None: running


@dataclass(frozen=True)
class Pause:
    """A paused match: by all players' agreement or by a moderator, until `ends_at`."""

    match_id: int
    kind: Literal["agreed", "moderator"]
    user_id: int  # the moderator, or the last player to agree
    paused_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class SeatClock:
    """A seat's timeouts in a row and its vacation (budget spent, and the one under way)."""

    match_id: int
    seat: int
    timeouts: int = 0
    timeout_mark: int = -1  # the seat's decision count after its last timeout
    vacation_used: int = 0  # seconds
    vacation_from: datetime | None = None
    vacation_until: datetime | None = None
    vacation_mark: int = 0  # the seat's decision count when the vacation began


@dataclass(frozen=True)
class NotifyPrefs:
    """Whether a user wants turns and reminders by DM, and until when their DMs are
    known to be closed."""

    user_id: int
    enabled: bool = False
    dm_closed_until: datetime | None = None


def utc_now() -> datetime:
    """The moment now, in UTC (the default stamp of rows)."""
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """A moment as stored (the clock service passes Discord's virtual-time-aware
    `utcnow()`, so the store never reads the clock for them)."""
    return moment.isoformat(timespec="milliseconds") if moment is not None else None


def when(text: str | None) -> datetime | None:
    """A stored moment read back."""
    return datetime.fromisoformat(text) if text is not None else None


def log_entry(row: Row) -> LogEntry:
    """A `match_log` row."""
    return LogEntry(
        id=row["id"],
        match_id=row["match_id"],
        version=row["version"],
        user_id=row["user_id"],
        kind=row["kind"],
        text=row["text"],
        created_at=row["created_at"],
    )


def outbox_row(row: Row) -> OutboxRow:
    """An `outbox` row."""
    notice = Notice(row["match_id"], row["kind"], json.loads(row["body"]))
    return OutboxRow(
        id=row["id"],
        notice=notice,
        created_at=row["created_at"],
        attempts=row["attempts"],
        progress=json.loads(row["progress"]),
        last_error=row["last_error"],
        delivered_at=row["delivered_at"],
        given_up=row["given_up"],
    )


def action_row(row: Row) -> ActionRow:
    """An `actions` row."""
    return ActionRow(
        row["seq"], row["seat"], row["user_id"], row["action"], row["events"], row["created_at"]
    )


def guild_settings(guild_id: int, row: Row | None) -> GuildSettings:
    """A server's settings from its `guild_settings` row (the defaults when it has none)."""
    if row is None:
        return GuildSettings(guild_id=guild_id)
    return GuildSettings(
        guild_id=guild_id,
        mod_role_id=row["mod_role_id"],
        match_channels=tuple(json.loads(row["match_channels"])),
        default_clock_seconds=row["default_clock_seconds"],
        default_timeout_policy=row["default_timeout_policy"],
        reminder_cadence=row["reminder_cadence"],
        board_pictures=row["board_pictures"],
        season=row["season"],
        rated_endings=frozenset(json.loads(row["rated_endings"])),
    )


def record(row: Row) -> Record:
    """A player's tally of one game (an aggregate over `results`)."""
    return Record(row["user_id"], row["game"], row["games"], row["wins"], row["losses"])


@dataclass(frozen=True)
class TournamentRow:
    """One row of `tournaments`."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    variant: str
    format: str
    rounds: int
    seeding: str
    round_seconds: int
    at_deadline: str
    signup_until: str
    seed: int
    status: str
    round: int
    round_ends: str | None
    message_id: int | None
    created_by: int
    created_at: str


@dataclass(frozen=True)
class TournamentPlayer:
    """A player signed up for a tournament, and the entrant they play for once it began."""

    user_id: int
    name: str
    entrant: int | None


@dataclass(frozen=True)
class Entrant:
    """A side of a tournament (a player, or a team): its seed and whether it dropped out."""

    entrant: int
    seed: int
    name: str
    dropped_round: int | None


@dataclass(frozen=True)
class TournamentGame:
    """One pairing of a round: `a` against `b` (None: a bye), `a`'s points once decided
    and how, and the match playing it."""

    round: int
    board: int
    a: int
    b: int | None
    points: float | None
    how: str | None
    match_id: int | None
    thread_id: int | None


def tournament_row(row: Row) -> TournamentRow:
    """A `tournaments` row."""
    return TournamentRow(**{f: row[f] for f in TournamentRow.__dataclass_fields__})


def tournament_game(row: Row) -> TournamentGame:
    """A `tournament_games` row."""
    return TournamentGame(**{f: row[f] for f in TournamentGame.__dataclass_fields__})


def rating(row: Row) -> Rating:
    """A `ratings` row."""
    return Rating(
        row["user_id"], row["game"], row["season"], Skill(row["mu"], row["sigma"]), row["games"]
    )


def rating_change(row: Row) -> RatingChange:
    """A `rating_changes` row."""
    before = Skill(row["mu_before"], row["sigma_before"])
    return RatingChange(
        row["match_id"], row["rating_seq"], before, Skill(row["mu"], row["sigma"]), row["at"]
    )


def match_row(row: Row) -> MatchRow:
    """A `matches` row."""
    return MatchRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        variant=row["variant"],
        pack=row["pack"],
        seed=row["seed"],
        seed_chosen=bool(row["seed_chosen"]),
        rules_version=row["rules_version"],
        status=row["status"],
        snapshot=row["snapshot"],
        version=row["version"],
        board_message_id=row["board_message_id"],
        created_by=row["created_by"],
        options=json.loads(row["options"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        clock_seconds=row["clock_seconds"],
        timeout_policy=row["timeout_policy"],
        practice=bool(row["practice"]),
    )


def seat_row(row: Row) -> SeatRow:
    """A `seats` row."""
    return SeatRow(
        row["seat"],
        row["user_id"],
        row["display_name"],
        row["team"],
        row["decisions"],
        row["ai"],
        bool(row["ai_played"]),
    )


def deadline(row: Row) -> Deadline:
    """A `deadlines` row."""
    return Deadline(
        match_id=row["match_id"],
        seat=row["seat"],
        version=row["version"],
        decisions=row["decisions"],
        out_of_turn=bool(row["out_of_turn"]),
        clock_seconds=row["clock_seconds"],
        due_at=datetime.fromisoformat(row["due_at"]),
        reminded=row["reminded"],
        nudged=bool(row["nudged"]),
        frozen_at=when(row["frozen_at"]),
    )


def deadline_params(d: Deadline) -> tuple[Any, ...]:
    """A deadline as the columns of its row, in table order."""
    return (
        d.match_id,
        d.seat,
        d.version,
        d.decisions,
        int(d.out_of_turn),
        d.clock_seconds,
        iso(d.due_at),
        d.reminded,
        int(d.nudged),
        iso(d.frozen_at),
    )


def pause(row: Row) -> Pause:
    """A `pauses` row."""
    return Pause(
        match_id=row["match_id"],
        kind=row["kind"],
        user_id=row["user_id"],
        paused_at=datetime.fromisoformat(row["paused_at"]),
        ends_at=datetime.fromisoformat(row["ends_at"]),
    )


def seat_clock(row: Row) -> SeatClock:
    """A `seat_clocks` row."""
    return SeatClock(
        match_id=row["match_id"],
        seat=row["seat"],
        timeouts=row["timeouts"],
        timeout_mark=row["timeout_mark"],
        vacation_used=row["vacation_used"],
        vacation_from=when(row["vacation_from"]),
        vacation_until=when(row["vacation_until"]),
        vacation_mark=row["vacation_mark"],
    )


@dataclass(frozen=True)
class Lease:
    """Which process does a shard's background work, until when (the database's clock,
    seconds since 1970), and whether the process that runs it at the gateway asked for
    it back (`asked`: lately enough that it is alive)."""

    shard: int
    holder: str
    epoch: int
    expires_at: float
    wanted_by: str | None = None
    asked: bool = False


def lease(row: Row) -> Lease:
    """A `shard_leases` row (with `asked` worked out by the query)."""
    return Lease(
        shard=row["shard"],
        holder=row["holder"],
        epoch=row["epoch"],
        expires_at=float(row["expires_at"]),
        wanted_by=row["wanted_by"],
        asked=bool(row["asked"]),
    )
