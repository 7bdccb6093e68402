"""Moving a server's database to another (`python -m bot migrate-store`): every row
copied with its ids and compared (`bot.service.store.transfer`), then every match
replayed on the target from its log to its saved state. A match that doesn't replay
there is replayed on the source too, to tell what the move broke from what it found."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from bot.service.matches import MatchService
from bot.service.store import is_postgresql
from bot.service.store.backup import BackupRefused, backup
from bot.service.store.transfer import (
    TransferRefused,
    TransferReport,
    check_files,
    copy_rows,
    shown,
    started_matches,
)
from rules.core import Game


async def copy_store(
    source: str | Path,
    target: str | Path,
    *,
    replace: bool = False,
    games: Mapping[str, Game] | None = None,
) -> TransferReport:
    """Copy every row of the `source` database into `target` (a SQLite file, or a
    `postgresql://` address, either way), then check the copy. TransferRefused when the
    target holds rows already and `replace` is not given (then it is emptied first), or
    when either database can't be opened. `games`: the games the matches are replayed
    with (the registry's by default)."""
    began = time.monotonic()
    report = TransferReport(shown(source), shown(target))
    with tempfile.TemporaryDirectory(prefix="arbiter-move-") as scratch:
        await _copy_and_check(source, target, replace, games, report, Path(scratch))
    report.seconds = time.monotonic() - began
    return report


async def _copy_and_check(
    source: str | Path,
    target: str | Path,
    replace: bool,
    games: Mapping[str, Game] | None,
    report: TransferReport,
    scratch: Path,
) -> None:
    """`copy_store`'s work, a SQLite source read from a copy made in `scratch`: the
    source itself is never changed (a backup restored is still the backup it was)."""
    copy = None
    if not is_postgresql(source):
        check_files(source, target)
        copy = scratch / "source.db"
        try:
            backup(source, copy)
        except BackupRefused as refused:
            raise TransferRefused(str(refused)) from refused
    readable, writable = await copy_rows(
        source, target, replace=replace, report=report, read_from=copy
    )
    try:
        on_target = MatchService(writable, games)
        on_source: MatchService | None = None
        dealt, report.not_started = await started_matches(writable)
        for match_id in dealt:
            why = await _replays(on_target, match_id)
            if why is None:
                report.replayed += 1
                continue
            on_source = on_source or MatchService(readable, games)
            if await _replays(on_source, match_id) is None:
                report.failed[match_id] = why
            else:
                report.failed_before[match_id] = why
    finally:
        await writable.close()
        await readable.close()


async def _replays(service: MatchService, match_id: int) -> str | None:
    """None when the match's log replays to its saved state; else why not."""
    try:
        if await service.verify(match_id):
            return None
    except Exception as error:
        return f"its log can't be replayed ({type(error).__name__}: {error})"
    return "replaying its log gives another state than the one saved."
