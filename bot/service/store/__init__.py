"""The store: the database behind the services (see `bot.service.store.store`)."""

from bot.service.store.clocks import ClockStore
from bot.service.store.database import Database, is_postgresql
from bot.service.store.engine import MIGRATIONS_DIR, NewerSchema, migrations
from bot.service.store.leases import LeaseStore
from bot.service.store.match_log import LogStore
from bot.service.store.matches import ChannelBusy, MatchStore
from bot.service.store.memory import MEMORY, TAIL
from bot.service.store.outbox import OutboxStore
from bot.service.store.ratings import RatingStore
from bot.service.store.results import ResultStore
from bot.service.store.rows import (
    BOARD_MODES,
    GUILD_SETTING_FIELDS,
    OPEN,
    PICTURE_MODES,
    VIEW_MODES,
    ActionRow,
    Clocks,
    Deadline,
    Entrant,
    GuildSettings,
    Hunter,
    LogEntry,
    MatchRow,
    NotifyPrefs,
    Pause,
    Rating,
    RatingChange,
    Record,
    Rename,
    Results,
    SeatClock,
    SeatRow,
    Status,
    TournamentGame,
    TournamentPlayer,
    TournamentRow,
    TurnMessage,
    UndoneRow,
    Versus,
)
from bot.service.store.settings import SettingsStore
from bot.service.store.store import Store
from bot.service.store.tournaments import TournamentStore

__all__ = [
    "BOARD_MODES",
    "GUILD_SETTING_FIELDS",
    "MEMORY",
    "MIGRATIONS_DIR",
    "OPEN",
    "PICTURE_MODES",
    "TAIL",
    "VIEW_MODES",
    "ActionRow",
    "ChannelBusy",
    "ClockStore",
    "Clocks",
    "Database",
    "Deadline",
    "Entrant",
    "GuildSettings",
    "Hunter",
    "LeaseStore",
    "LogEntry",
    "LogStore",
    "MatchRow",
    "MatchStore",
    "NewerSchema",
    "NotifyPrefs",
    "OutboxStore",
    "Pause",
    "Rating",
    "RatingChange",
    "RatingStore",
    "Record",
    "Rename",
    "ResultStore",
    "Results",
    "SeatClock",
    "SeatRow",
    "SettingsStore",
    "Status",
    "Store",
    "TournamentGame",
    "TournamentPlayer",
    "TournamentRow",
    "TournamentStore",
    "TurnMessage",
    "UndoneRow",
    "Versus",
    "is_postgresql",
    "migrations",
]
