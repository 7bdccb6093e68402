"""Shard leases on one PostgreSQL database: each process takes its own shards, stands
in for those whose process died, hands them back when that process returns, lets its
own go at once when it stops, and stops working a shard once it can't be sure of its
lease; a store serves only the shards it holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

import pytest

from bot.service.clock import ClockService, stored_moments
from bot.service.leases import SWEEP_EVERY, Leases
from bot.service.matches import MatchService
from bot.service.outbox import Notice
from bot.service.shards import parse_shards, shard_of
from bot.service.store import Deadline, Store
from tests.bot import tally

pytestmark = pytest.mark.engines("postgresql")

COUNT = 4
TTL = 1.0


def guild_of(shard: int, n: int = 1) -> int:
    """A server whose events come through `shard` (of COUNT)."""
    return (shard + COUNT * n) << 22


@pytest.fixture
async def stores(database: str) -> AsyncIterator[Callable[[], asyncio.Future[Store]]]:
    """Stores on the test's database (one per process), closed at the end."""
    opened: list[Store] = []

    async def open_one() -> Store:
        store = await Store.open(database)
        opened.append(store)
        return store

    yield open_one  # type: ignore[misc]
    for store in opened:
        await store.close()


def process(store: Store, mine: set[int]) -> Leases:
    """A process's leases, ticked by hand (no background pace)."""
    return Leases(store.leases, COUNT, mine, ttl=TTL, margin=0.3)


def test_a_server_is_in_the_shard_discord_deals_it_to() -> None:
    assert shard_of(None, 4) == 0  # direct messages
    assert [shard_of(guild_of(s), COUNT) for s in range(COUNT)] == [0, 1, 2, 3]
    assert parse_shards("0,2-3", 4) == {0, 2, 3}
    with pytest.raises(ValueError, match="outside 0-3"):
        parse_shards("4", 4)


async def test_each_process_takes_its_own_shards(stores: Callable[..., object]) -> None:
    a = process(await stores(), {0, 1})  # type: ignore[misc]
    b = process(await stores(), {2, 3})  # type: ignore[misc]
    await a.tick()  # alone at first: it stands in for the others too
    assert a.held == {0, 1, 2, 3}
    await b.tick()  # asks for its own back
    assert b.held == set()
    await a.tick()  # hands them over
    assert a.held == {0, 1}
    await b.tick()
    assert b.held == {2, 3}
    leases = await a.store.all()
    assert {lease.shard: lease.holder for lease in leases} == {
        0: a.holder,
        1: a.holder,
        2: b.holder,
        3: b.holder,
    }


async def test_a_dead_process_s_shards_are_taken_over_once_its_leases_run_out(
    stores: Callable[..., object],
) -> None:
    a = process(await stores(), {0, 1})  # type: ignore[misc]
    b = process(await stores(), {2, 3})  # type: ignore[misc]
    for leases in (b, a, b, a):
        await leases.tick()
    assert (a.held, b.held) == ({0, 1}, {2, 3})
    # a dies (kill -9: it renews no more, releases nothing).
    await b.tick()
    assert b.held == {2, 3}, "taken before the lease ran out"
    await asyncio.sleep(TTL + 0.1)
    await b.tick()
    assert b.held == {0, 1, 2, 3}
    # a starts again, a new process: it asks back, b hands over, a serves its own.
    again = process(await stores(), {0, 1})  # type: ignore[misc]
    await again.tick()
    assert again.held == set()
    await b.tick()
    assert b.held == {2, 3}
    await again.tick()
    assert again.held == {0, 1}


async def test_a_clean_stop_lets_the_shards_go_at_once(stores: Callable[..., object]) -> None:
    a = process(await stores(), {0, 1})  # type: ignore[misc]
    b = process(await stores(), {2, 3})  # type: ignore[misc]
    for leases in (b, a, b, a):
        await leases.tick()
    lost: list[frozenset[int]] = []

    async def heard(held: frozenset[int]) -> None:
        lost.append(held)

    a.on_change(heard)
    await a.stop()
    assert lost == [frozenset()], "its shards' work stops before its leases go"
    await b.tick()  # no waiting for the TTL
    assert b.held == {0, 1, 2, 3}


async def test_a_holder_that_cannot_renew_stops_working_before_another_may_take_over(
    stores: Callable[..., object], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await stores()  # type: ignore[misc]
    a = process(store, {0, 1})
    await a.tick()
    assert a.held == {0, 1, 2, 3} and a.sure

    async def unreachable(*_: object) -> list[object]:
        raise OSError("the database is away")

    monkeypatch.setattr(store.leases, "renew", unreachable)
    await a._tick_logged()  # fails: still sure for a while
    assert a.held == {0, 1, 2, 3}
    await asyncio.sleep(TTL - 0.3 + 0.05)  # past TTL - margin, before the database's TTL
    await a._tick_logged()
    assert a.held == set() and not a.sure


async def test_a_store_serves_only_the_shards_it_holds(stores: Callable[..., object]) -> None:
    store = await stores()  # type: ignore[misc]
    matches = {}
    for shard in range(COUNT):
        match = await store.matches.create(
            guild_id=guild_of(shard),
            channel_id=100 + shard,
            game="tally",
            variant="duel",
            seed=1,
            rules_version="1",
            created_by=1,
            host_name="alice",
            pack="none",
        )
        matches[shard] = match.id
        await store.outbox.enqueue([Notice(match.id, "say", {"text": f"shard {shard}"})])
        assert await store.matches.add_seat(match.id, 2, "bob", max_seats=2)
        assert await store.matches.start(match.id, snapshot="{}", teams={})
        await store.clocks.save_deadlines(
            match.id,
            [
                Deadline(
                    match_id=match.id,
                    seat=0,
                    version=0,
                    decisions=0,
                    out_of_turn=False,
                    clock_seconds=600,
                    due_at=datetime(2030, 1, 1, tzinfo=UTC),
                )
            ],
        )
    store.db.serve(COUNT, {1, 3})
    lanes = await store.outbox.pending_lanes()
    assert lanes == [f"match:{matches[1]}", f"match:{matches[3]}"]
    assert await store.outbox.next_notices(f"match:{matches[0]}") == []
    (row,) = await store.outbox.next_notices(f"match:{matches[1]}")
    assert row.notice.body == {"text": "shard 1"}
    served = {key[1] for key, _ in await stored_moments(store.clocks)}
    assert served == {matches[1], matches[3]}
    assert (store.db.owns(guild_of(1)), store.db.owns(guild_of(2)), store.db.owns(None)) == (
        True,
        False,
        False,
    )


async def test_work_refused_while_unsure_starts_again_once_renewed(
    stores: Callable[..., object],
) -> None:
    """A delivery asked while the leases were not certain (a late renewal) was refused:
    the next renewal tells the listeners again, which start the shards' work again."""
    a = process(await stores(), {0, 1, 2, 3})  # type: ignore[misc]
    await a.tick()
    heard: list[frozenset[int]] = []

    async def listener(held: frozenset[int]) -> None:
        heard.append(held)

    a.on_change(listener)
    await a.tick()
    assert heard == [] and a.certain()
    a._sure_until = 0.0  # the renewal came late: the leases ran past their certain time
    assert not a.certain()
    await a.tick()
    assert heard == [frozenset({0, 1, 2, 3})] and a.certain()


async def test_the_sweepers_run_every_few_renewals_while_shards_are_held(
    stores: Callable[..., object],
) -> None:
    a = process(await stores(), {0})  # type: ignore[misc]
    swept: list[int] = []

    async def sweeper() -> None:
        swept.append(a._renewals)

    a.sweep_with(sweeper)
    for _ in range(2 * SWEEP_EVERY):
        await a.tick()
    assert swept == [SWEEP_EVERY, 2 * SWEEP_EVERY]


async def test_a_sweep_arms_each_clock_stored_for_a_served_shard_that_is_not_armed(
    stores: Callable[..., object],
) -> None:
    """What a sweep is for: a clock another process saved that this one never armed."""
    store = await stores()  # type: ignore[misc]
    service = MatchService(store, {"tally": tally.GAME})
    clock = ClockService(service, lambda: datetime.now(UTC))
    service.on_change(clock.on_change)
    table = await service.new_lobby(
        guild_id=guild_of(1), channel_id=1, user_id=1, name="A", game="tally", seed=1
    )
    await service.join(table.match.id, 2, "B")
    await service.start(table.match.id, 1)
    stored = await store.clocks.deadlines(table.match.id)
    assert stored and len(clock.scheduler) == len(stored)
    clock.scheduler.clear()  # as if saved elsewhere, never armed here
    store.db.serve(COUNT, {0})  # its shard served elsewhere: nothing to arm
    await clock.sweep()
    assert len(clock.scheduler) == 0
    store.db.serve(COUNT, {1})
    await clock.sweep()
    assert len(clock.scheduler) == len(stored)
