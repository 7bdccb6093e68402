"""What the store holds in memory stays as the database has it when reads and commits
overlap: a load never hides a commit nor takes its change twice, a lane's notice is
held once, what is written behind is seen and saved while a transaction carries it, and
a lane another process wrote to is read again (on both engines)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.service.outbox import Notice
from bot.service.store import Store, TurnMessage
from tests.bot.outside import one, outside

pytestmark = pytest.mark.engines


async def lobby(store: Store, channel: int) -> int:
    match = await store.matches.create(
        guild_id=1,
        channel_id=channel,
        game="tally",
        variant="duel",
        seed=1,
        rules_version="1",
        created_by=100 + channel,
        host_name="alice",
        pack="none",
    )
    return match.id


async def test_a_load_overlapping_a_commit_neither_hides_it_nor_counts_it_twice(
    store: Store, database: str
) -> None:
    match_id = await lobby(store, 10)
    assert await store.matches.add_seat(match_id, 201, "bob", max_seats=2)
    assert await store.matches.start(match_id, snapshot="{}", teams={})
    other = await lobby(store, 11)
    store.db.memory.forget(match_id)  # nothing of the match held: the reads below load it
    action = asyncio.create_task(
        store.matches.append_action(
            match_id,
            expected_version=0,
            seat=0,
            user_id=110,
            action='"a"',
            events="[]",
            snapshot='{"v": 1}',
            status="active",
        )
    )
    await asyncio.sleep(0)  # the action is under way
    seats = asyncio.create_task(store.matches.seats(match_id))
    tail = asyncio.create_task(store.matches.latest_actions(match_id, last=16))
    await asyncio.gather(action, seats, tail, store.matches.set_options(other, {"x": 1}))
    held = [(s.seat, s.decisions) for s in await store.matches.seats(match_id)]
    saved = await outside(
        database, "SELECT seat, decisions FROM seats WHERE match_id = ? ORDER BY seat", match_id
    )
    assert held == [tuple(row) for row in saved] == [(0, 1), (1, 0)]
    assert [a.seq for a in await store.matches.latest_actions(match_id, last=16)] == [1]


async def test_a_notice_read_while_its_commit_is_under_way_is_held_once(store: Store) -> None:
    match_id = await lobby(store, 10)
    other = await lobby(store, 11)
    notice = Notice(match_id, "say", {"text": "hi"})
    written = asyncio.create_task(store.outbox.enqueue([notice]))
    await asyncio.sleep(0)
    read = asyncio.create_task(store.outbox.next_notices(notice.lane, 10))
    await asyncio.gather(written, read, store.matches.set_options(other, {"x": 1}))
    (row,) = await store.outbox.next_notices(notice.lane, 10)
    store.outbox.mark_delivered(row.id)
    assert await store.outbox.next_notices(notice.lane, 10) == []


async def test_a_lane_read_cut_short_is_read_again(store: Store) -> None:
    match_id = await lobby(store, 10)
    notice = Notice(match_id, "say", {"text": "hi"})
    await store.outbox.enqueue([notice])
    store.db.forget_all()  # as after a restart: the lane is read back
    read = asyncio.create_task(store.outbox.next_notices(notice.lane, 10))
    await asyncio.sleep(0)
    read.cancel()  # the publisher stops while it reads
    with contextlib.suppress(asyncio.CancelledError):
        await read
    assert [r.notice.body["text"] for r in await store.outbox.next_notices(notice.lane, 10)] == [
        "hi"
    ]


@pytest.mark.engines("postgresql")  # in SQLite no read runs beside a transaction's body
async def test_what_a_transaction_carries_from_behind_is_read_as_written(
    store: Store, database: str
) -> None:
    match_id = await lobby(store, 10)
    other = await lobby(store, 11)
    store.matches.set_turn_message(TurnMessage(match_id, 111, "t1", "old"))
    await store.db.flush()
    store.matches.set_turn_message(TurnMessage(match_id, 222, "t2", "new"))
    inside, go = asyncio.Event(), asyncio.Event()

    async def carrier() -> None:  # a transaction of another match carries it
        async with store.db.transaction() as db:
            inside.set()
            await go.wait()
            await db.execute("UPDATE matches SET updated_at = updated_at WHERE id = ?", (other,))

    carrying = asyncio.create_task(carrier())
    await inside.wait()
    store.db.memory.forget(match_id)  # read afresh meanwhile (another process's change, say)
    held = await store.matches.turn_message(match_id)
    assert held is not None and held.message_id == 222
    go.set()
    await carrying
    held = await store.matches.turn_message(match_id)
    assert held is not None and held.message_id == 222
    assert await one(database, "SELECT message_id FROM turn_messages") == 222


async def test_save_turn_message_returns_once_it_is_saved_even_while_another_carries_it(
    store: Store, database: str
) -> None:
    match_id = await lobby(store, 10)
    other = await lobby(store, 11)
    store.matches.set_board_message(other, 5)  # carried by the next transaction
    first = asyncio.create_task(store.matches.set_options(other, {"a": 1}))
    await asyncio.sleep(0)
    store.matches.set_turn_message(TurnMessage(match_id, 777, "t1", "body"))  # waits behind it
    carrier = store.db._carrier
    assert carrier is not None

    async def next_carrier() -> None:
        await carrier  # woken at the same moment as the save below
        await store.matches.set_options(other, {"b": 2})

    async def saved() -> object:
        await store.matches.save_turn_message(match_id)
        return await one(
            database, "SELECT message_id FROM turn_messages WHERE match_id = ?", match_id
        )

    *_, seen = await asyncio.gather(first, next_carrier(), saved())
    assert seen == 777


@pytest.mark.engines("postgresql")
async def test_a_lane_another_process_wrote_to_is_read_again_once_it_empties(
    database: str,
) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        await first.outbox.pending_lanes()
        await second.outbox.pending_lanes()
        match_id = await lobby(first, 10)
        lane = f"match:{match_id}"
        await first.outbox.enqueue([Notice(match_id, "say", {"text": "A"})])
        (a,) = await first.outbox.next_notices(lane, 10)  # the first is delivering A...
        await second.outbox.enqueue(
            [Notice(match_id, "say", {"text": "B"})]
        )  # ...B comes elsewhere
        for _ in range(200):  # until the first process hears of it
            if lane in first.db.memory.written_elsewhere:
                break
            await asyncio.sleep(0.01)
        first.outbox.mark_delivered(a.id)  # A done: the lane held empties
        assert [r.notice.body["text"] for r in await first.outbox.next_notices(lane, 10)] == ["B"]
    finally:
        await first.close()
        await second.close()
