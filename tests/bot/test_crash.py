"""kill -9 during a burst of game actions on a real database, again and again (on a
SQLite file, and on a PostgreSQL database).

A worker process (`tests.bot.crash_worker`) plays random legal actions of Tooth and
Nail and delivers the outbox to a fake Discord (a journal file that keeps to Discord's
nonce rule); the test kills it with SIGKILL at a random moment, then checks the
database: it is sound, every match's snapshot is the replay of its log, every action and every
start has exactly one notice, and what the fake Discord posted agrees with what the
outbox says was delivered. A last clean run delivers what is left: every outbox row
is then posted exactly once.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.folding import nonce_for
from bot.service.matches import MatchService
from bot.service.store import Store, is_postgresql
from tests.bot.crash_worker import GUILD, nonce_of
from tests.bot.outside import one, outside

ROUNDS = 32  # one kill each
SEED = 20_260_311
WAIT = (0.3, 1.2)  # seconds the worker runs once ready, before the kill
READY_TIMEOUT = 60.0
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Figures:
    """What the rounds did, printed at the end."""

    kills: int = 0
    rounds_with_new_actions: int = 0
    killed_with_pending: int = 0  # kills that left rows not yet delivered
    killed_between_send_and_mark: int = 0  # a line posted, its row not marked delivered
    starting: float = 0.0  # seconds from launching a worker until it was ready
    checking: float = 0.0  # seconds the checks after the kills took
    verified: set[tuple[int, str]] = field(default_factory=set)  # (match, fingerprint)


@dataclass(frozen=True)
class Facts:
    """What the checks found in the file."""

    actions: int
    outbox_rows: int
    pending: int
    posted_undelivered: int  # rows in the journal the outbox hasn't marked delivered
    journal_lines: int
    duplicates: int
    finished: int  # matches ended, each recorded and rated with its last action


def worker(db: str, journal: Path, seed: int, log: Path, *extra: str) -> subprocess.Popen[str]:
    with log.open("a", encoding="utf-8") as stderr:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.bot.crash_worker",
                str(db),
                str(journal),
                str(seed),
                *extra,
            ],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )


async def wait_ready(proc: subprocess.Popen[str], log: Path) -> None:
    """Until the worker has opened the store (it is killed by the caller, whatever happens)."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), READY_TIMEOUT)
    assert line == "ready\n", f"the worker didn't start: {said(log)}"


def kill(proc: subprocess.Popen[str]) -> None:
    """SIGKILL, and reap it (nothing if it is gone already)."""
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def said(log: Path) -> str:
    """What the workers wrote to stderr."""
    return log.read_text(encoding="utf-8")


def integrity(db: str) -> None:
    """SQLite's own checks of the file (PostgreSQL's server keeps its files itself)."""
    if is_postgresql(db):
        return
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def read_journal(journal: Path) -> list[int]:
    if not journal.exists():
        return []
    text = journal.read_text(encoding="ascii")
    assert not text or text.endswith("\n"), "a torn line in the journal"
    return [int(line) for line in text.splitlines()]


async def fingerprints(db: str) -> dict[int, str]:
    """For each active or finished match, a digest of everything its replay and its
    snapshot are read from (the match row, its seats, its log and what undid or renamed
    anything): the same digest, the same verdict."""
    queries = [
        "SELECT * FROM seats WHERE match_id = ? ORDER BY seat",
        "SELECT seq, seat, action FROM actions WHERE match_id = ? ORDER BY seq",
        "SELECT * FROM undone WHERE match_id = ? ORDER BY seq",
        "SELECT * FROM seat_replacements WHERE match_id = ? ORDER BY id",
    ]
    found = {}
    matches = await outside(
        db, "SELECT * FROM matches WHERE status IN ('active', 'finished') ORDER BY id"
    )
    for match in matches:
        digest = hashlib.sha256(repr(match).encode())
        for query in queries:
            digest.update(repr(await outside(db, query, match[0])).encode())
        found[match[0]] = digest.hexdigest()
    return found


async def settled(db: str) -> None:
    """Wait until the killed process's server session is gone (PostgreSQL): a COMMIT it
    sent before the kill may still be landing, and the checks below read the actions
    and the outbox at two moments (SQLite has no server: nothing lands later)."""
    if not is_postgresql(db):
        return
    others = (
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    for _ in range(100):
        if await one(db, others) == 0:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the killed process's database session never ended")


async def check(db: str, journal: Path, figures: Figures | None) -> Facts:
    """Checks 1 to 3, and the journal against the outbox. With `figures`, a match whose
    fingerprint was verified in an earlier round isn't replayed again."""
    await settled(db)
    integrity(db)
    logged = Counter(await outside(db, "SELECT match_id, seq FROM actions"))
    started = {
        r[0]
        for r in await outside(
            db, "SELECT id FROM matches WHERE status != 'lobby' AND snapshot IS NOT NULL"
        )
    }
    assert all(n == 1 for n in logged.values())
    store = await Store.open(db)
    try:
        service = MatchService(store)
        for match_id, digest in (await fingerprints(db)).items():
            if figures is not None and (match_id, digest) in figures.verified:
                continue
            assert await service.verify(match_id), f"match {match_id} doesn't replay"
            if figures is not None:
                figures.verified.add((match_id, digest))
        rows = await store.outbox.rows()
        finished = await rated_whole(store, db)
    finally:
        await store.close()

    told = Counter(
        (r.notice.match_id, r.notice.body["seq"]) for r in rows if r.notice.kind == "action"
    )
    assert set(told) == set(logged), "an action without its notice, or a notice without its action"
    assert [k for k, n in told.items() if n != 1] == [], "an action told twice"
    starts = Counter(r.notice.match_id for r in rows if r.notice.kind == "start")
    assert set(starts) == started
    assert [k for k, n in starts.items() if n != 1] == [], "a start told twice"

    posted = read_journal(journal)
    by_id = {r.id: r for r in rows}
    assert set(posted) <= set(by_id), "a line posted for a row that was never committed"
    delivered = {r.id for r in rows if r.delivered_at is not None}
    assert delivered <= set(posted), "a row marked delivered that was never posted"
    assert all(r.given_up is None for r in rows)
    assert all(nonce_of(r.id) == nonce_for(r) for r in rows), (
        "the fake Discord's nonces are not the publisher's"
    )
    undelivered_posts = [i for i in set(posted) if i not in delivered]
    lanes: dict[str, list[int]] = {}
    for row_id in dict.fromkeys(posted):
        lanes.setdefault(by_id[row_id].notice.lane, []).append(row_id)
    assert all(ids == sorted(ids) for ids in lanes.values()), "a lane posted out of order"
    # The marks are written behind, all together with the next transaction: what a kill
    # can lose is the marks of a lane's latest posts, never one before a saved mark.
    for ids in lanes.values():
        marked = [row_id in delivered for row_id in ids]
        assert marked == sorted(marked, reverse=True), "a mark saved before an earlier one"
    return Facts(
        actions=sum(logged.values()),
        outbox_rows=len(rows),
        pending=len(rows) - len(delivered),
        posted_undelivered=len(undelivered_posts),
        journal_lines=len(posted),
        duplicates=len(posted) - len(set(posted)),
        finished=finished,
    )


async def rated_whole(store: Store, db: str) -> int:
    """Every finished match has its results, rated in an order without gaps, and the
    ratings are what its results give (a rebuild changes nothing): how many finished."""
    finished = [r[0] for r in await outside(db, "SELECT id FROM matches WHERE status = 'finished'")]
    rated = dict(
        await outside(db, "SELECT match_id, MIN(rating_seq) FROM results GROUP BY match_id")
    )
    assert set(rated) == set(finished), "a finished match without its results, or results of none"
    assert sorted(rated.values()) == list(range(1, len(rated) + 1)), "a rating order with gaps"
    replayed, differing = await store.ratings.rebuild(GUILD)
    assert (replayed, differing) == (len(finished), 0), "ratings that aren't their results'"
    return len(finished)


@pytest.mark.engines
async def test_kill_9_during_play_loses_nothing_and_posts_nothing_twice(
    tmp_path: Path, database: str
) -> None:
    rng = random.Random(SEED)
    db, journal, log = database, tmp_path / "journal", tmp_path / "worker.log"
    figures = Figures()
    began = time.monotonic()
    actions = 0
    for _ in range(ROUNDS):
        launched = time.monotonic()
        proc = worker(db, journal, rng.getrandbits(32), log)
        try:
            await wait_ready(proc, log)
            figures.starting += time.monotonic() - launched
            await asyncio.sleep(rng.uniform(*WAIT))
        finally:
            kill(proc)  # never left running, even when the test fails or is interrupted
        assert proc.returncode == -signal.SIGKILL, said(log)
        figures.kills += 1

        killed = time.monotonic()
        facts = await check(db, journal, figures)
        figures.checking += time.monotonic() - killed
        assert facts.duplicates == 0, "a line posted twice"
        figures.rounds_with_new_actions += facts.actions > actions
        figures.killed_with_pending += facts.pending > 0
        figures.killed_between_send_and_mark += facts.posted_undelivered
        actions = facts.actions

    proc = worker(db, journal, rng.getrandbits(32), log, "--drain")
    try:
        out, _ = proc.communicate(timeout=READY_TIMEOUT)
    finally:
        kill(proc)
    assert proc.returncode == 0 and out == "ready\n", said(log)
    final = await check(db, journal, None)  # every match replayed once more

    posted = read_journal(journal)
    ids = [r[0] for r in await outside(db, "SELECT id FROM outbox ORDER BY id")]
    undelivered = await one(db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    assert final.duplicates == 0 and len(posted) == len(set(posted)), "a row posted twice"
    assert sorted(posted) == ids, "a row never posted"
    assert undelivered == 0 and final.pending == 0

    print(
        f"\ncrash test: {figures.kills} kills in {time.monotonic() - began:.1f}s;"
        f" {final.actions} actions committed ({figures.rounds_with_new_actions} rounds added"
        f" some); {final.outbox_rows} outbox rows, {len(posted)} delivered;"
        f" {final.duplicates} duplicates; killed with rows pending {figures.killed_with_pending}"
        f" times, between a send and its mark {figures.killed_between_send_and_mark} times;"
        f" {figures.starting:.1f}s starting workers, {figures.checking:.1f}s checking;"
        f" {final.finished} matches finished, recorded and rated"
    )
    assert figures.kills >= 30
    assert figures.rounds_with_new_actions >= ROUNDS // 2, "the kills missed the bursts"
    assert figures.killed_with_pending > 0, "no kill left a row undelivered"
    assert final.finished > 0, "no match ended: results and ratings untried"
