"""The store: the database and a repository per kind of record it keeps.

`Store.open` opens the database (`database.Database`: the engine, its transactions,
memory and the writes behind) and gives it to each repository. The bot opens one
store and hands each service the repositories it uses; a repository's in-transaction
helpers (`outbox.write`, `match_log.write`, `results.record_in`, ...) are how one
change writes several kinds of record at once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot.service.store.clocks import ClockStore
from bot.service.store.database import Database
from bot.service.store.engine import MIGRATIONS_DIR
from bot.service.store.leases import LeaseStore
from bot.service.store.match_log import LogStore
from bot.service.store.matches import MatchStore
from bot.service.store.outbox import OutboxStore
from bot.service.store.ratings import RatingStore
from bot.service.store.results import ResultStore
from bot.service.store.rows import utc_now
from bot.service.store.settings import SettingsStore
from bot.service.store.tournaments import TournamentStore


class Store:
    """The database and its repositories. Create with `await Store.open(target)`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.outbox = OutboxStore(db)
        self.log = LogStore(db, self.outbox)
        self.ratings = RatingStore(db)
        self.results = ResultStore(db, self.ratings)
        self.clocks = ClockStore(db, self.outbox, self.log)
        self.matches = MatchStore(db, self.outbox, self.log, self.clocks, self.results)
        self.settings = SettingsStore(db, self.outbox)
        self.tournaments = TournamentStore(db, self.outbox)
        self.leases = LeaseStore(db)

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations_dir: Path = MIGRATIONS_DIR,
        now: Callable[[], datetime] = utc_now,
    ) -> Store:
        """Open (or create) the database and apply pending migrations (see
        `Database.open`)."""
        return cls(await Database.open(target, migrations_dir=migrations_dir, now=now))

    async def close(self) -> None:
        """Save what is written behind, and close the connections."""
        await self.db.close()
