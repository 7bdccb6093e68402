"""SQLite commit rates: the project's store against bare aiosqlite, on temp files."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite
from pydantic import TypeAdapter

from bot.service.store import Store
from rules.core import Event, rng_for
from rules.tooth_and_nail import GAME
from tests.bench.engine import choose, new_game

_EVENTS = TypeAdapter(list[Event])


@dataclass(frozen=True)
class Commits:
    """How many commits one writer made in how long."""

    label: str
    commits: int
    seconds: float
    row_bytes: int

    @property
    def per_second(self) -> float:
        """Commits per second."""
        return self.commits / self.seconds


@dataclass(frozen=True)
class Move:
    """One logged move as the match service writes it: action, events and snapshot (JSON)."""

    action: str
    events: str
    snapshot: str


def mid_game_move(actions: int = 40) -> Move:
    """A realistic row: the `actions`-th move of a random 2-player game."""
    state = new_game("2p", 0)
    chooser = random.Random(0)
    for seq in range(1, actions + 1):
        if GAME.outcome(state) is not None:
            break
        seat = chooser.choice(sorted(GAME.to_act(state)))
        action = choose(chooser, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action, rng_for(0, seq))
    return Move(
        action.model_dump_json(), _EVENTS.dump_json(events).decode(), state.model_dump_json()
    )


async def store_commits(path: Path, move: Move, budget: float) -> Commits:
    """Append actions through `MatchStore.append_action` (action + snapshot, one transaction)."""
    store = await Store.open(path)
    try:
        match = await store.matches.create(
            guild_id=1,
            channel_id=1,
            game="tooth-and-nail",
            variant="2p",
            pack="Arbiter core pack",
            seed=0,
            rules_version="1",
            created_by=1,
            host_name="alice",
        )
        await store.matches.add_seat(match.id, 2, "bob", max_seats=2)
        await store.matches.start(match.id, snapshot=move.snapshot, teams={0: 0, 1: 1})
        version = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            saved = await store.matches.append_action(
                match.id,
                expected_version=version,
                seat=version % 2,
                user_id=1 + version % 2,
                action=move.action,
                events=move.events,
                snapshot=move.snapshot,
                status="active",
            )
            assert saved
            version += 1
        seconds = time.perf_counter() - start
    finally:
        await store.close()
    size = len(move.action) + len(move.events) + len(move.snapshot)
    return Commits("MatchStore.append_action", version, seconds, size)


async def raw_commits(path: Path, payload: str, budget: float) -> Commits:
    """One INSERT and a commit per transaction on a bare aiosqlite connection (WAL too)."""
    async with aiosqlite.connect(str(path)) as db:
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        await db.commit()
        commits = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            await db.execute("INSERT INTO rows (body) VALUES (?)", (payload,))
            await db.commit()
            commits += 1
        seconds = time.perf_counter() - start
    return Commits("aiosqlite INSERT+commit", commits, seconds, len(payload))
