"""Backing up a SQLite store while the bot runs (`python -m bot backup`).

The copy is made with SQLite's online backup API, every page in one step: that step
reads the source in one read transaction, so the copy is the database as one commit
left it, whatever the bot commits meanwhile. The store runs in WAL mode (see
`bot.service.store.sqlite`), where a reader and the writer don't wait for each other:
the bot goes on playing while the copy is made (it only can't checkpoint past the
copy's moment until the copy is done). A plain file copy would not do: it can catch
the file halfway through a checkpoint, and it misses what is still in the `-wal` file.

The copy is written beside the target under a temporary name, switched out of WAL mode
(one self-contained file), checked (SQLite's integrity check, the schema version, the
matches and actions it holds), and only then renamed into place: a backup that failed
never replaces an earlier one. A PostgreSQL store is backed up with PostgreSQL's own
tools (pg_dump and pg_restore); a backup is restored with `migrate-store`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from bot.service.store.database import is_postgresql
from bot.service.store.transfer import shown

BUSY_WAIT = 30.0  # seconds the copy waits for a lock (the bot's commits are short)
SIDE_FILES = ("-wal", "-journal")  # a file SQLite would apply to a database beside it


class BackupRefused(Exception):
    """No backup was written; the message says why, in a sentence."""


@dataclass
class BackupReport:
    """What a backup copied, and what the check of the copy found."""

    source: str
    target: str
    size: int = 0  # bytes of the copy
    schema: int = 0  # the last migration applied to it
    matches: int = 0
    actions: int = 0
    problems: list[str] = field(default_factory=list)  # SQLite's integrity check's
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        if not self.ok:
            first = self.problems[0]
            more = len(self.problems) - 1
            return (
                f"The copy of {self.source} fails SQLite's integrity check ({first}"
                f"{f'; {more:,} more' if more else ''}), so the source is likely damaged "
                f"too: {self.target} was not written."
            )
        matches = f"{self.matches:,} match{'es' if self.matches != 1 else ''}"
        actions = f"{self.actions:,} action{'s' if self.actions != 1 else ''}"
        return (
            f"Backed up {self.source} into {self.target} ({self.size / 1e6:,.1f} MB) in "
            f"{self.seconds:.1f} s: schema {self.schema}, {matches}, {actions}; "
            "integrity check ok."
        )


def backup(source: str | Path, target: str | Path, *, replace: bool = False) -> BackupReport:
    """Copy the SQLite database `source` into the file `target` as one consistent moment
    (the bot may be running on it), and check the copy. BackupRefused, with nothing
    written, when either isn't a SQLite file, the source isn't there or is the target,
    the target exists (unless `replace`), or the copy can't be made. A copy that fails
    the integrity check isn't written either (the report says so)."""
    began = time.monotonic()
    _refuse(source, target, replace)
    source, target = Path(source), Path(target)
    report = BackupReport(str(source), str(target))
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        try:
            _copy(source, part, report)
        except (sqlite3.Error, OSError) as error:
            raise BackupRefused(
                f"The backup of {source} failed, so nothing was written: {error}"
            ) from error
        if report.ok:
            report.size = part.stat().st_size
            os.replace(part, target)
            _sync_folder(target.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
    report.seconds = time.monotonic() - began
    return report


def _refuse(source: str | Path, target: str | Path, replace: bool) -> None:
    """Refuse what can't be backed up, or can't be written, before anything is done."""
    if is_postgresql(source):
        raise BackupRefused(
            f"The database {shown(source)} is a PostgreSQL server: back it up with pg_dump "
            "instead (see 'Running it for real' in the README)."
        )
    if is_postgresql(target):
        raise BackupRefused(
            "A backup is written to a file, not to a PostgreSQL server: to move the store "
            "there, use migrate-store."
        )
    first, second = Path(source), Path(target)
    if not first.is_file():
        raise BackupRefused(f"There is no database file at {source}: nothing was copied.")
    if first.resolve() == second.resolve() or (second.exists() and first.samefile(second)):
        raise BackupRefused(
            f"The backup can't be written over its own source, {source}: nothing was copied."
        )
    if second.exists() and not second.is_file():
        raise BackupRefused(f"{target} is not a file: name the backup's file.")
    if second.exists() and not replace:
        raise BackupRefused(
            f"There is a file at {target} already: nothing was copied (to write over it, "
            "run the backup again with --replace)."
        )
    beside = [f"{second.name}{end}" for end in SIDE_FILES if Path(f"{second}{end}").exists()]
    if beside:
        raise BackupRefused(
            f"{target} has {' and '.join(beside)} beside it (it may be open, or was left "
            "after a crash), which SQLite would apply to the backup: nothing was copied."
        )
    if not second.parent.is_dir():
        raise BackupRefused(f"There is no folder {second.parent} to write the backup into.")


def _copy(source: Path, part: Path, report: BackupReport) -> None:
    """Copy `source` into the new file `part` in one step, and check the copy."""
    # mode=rw: opening never creates a database where there is none.
    reading = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_WAIT)
    with closing(reading), closing(sqlite3.connect(part, isolation_level=None)) as writing:
        found = reading.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
            ("matches", "actions"),
        ).fetchone()[0]
        if found != 2:
            raise BackupRefused(f"{source} is not an Arbiter database: nothing was copied.")
        reading.backup(writing, pages=-1)  # every page in one step: one moment
        # The copy arrives in the source's WAL mode; one file on its own is a backup.
        writing.execute("PRAGMA journal_mode = DELETE").fetchall()
        report.problems = [
            str(row[0]) for row in writing.execute("PRAGMA integrity_check") if row[0] != "ok"
        ]
        if report.problems:
            return
        report.schema = int(writing.execute("PRAGMA user_version").fetchone()[0])
        report.matches = int(writing.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        report.actions = int(writing.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (where the system lets a folder be synced)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
