"""Group commit: changes of different matches that arrive together share one commit, and
each is on disk before the call that made it returns."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Store
from tests.bot import tally

ALICE, BOB = 101, 102
MATCHES = 30


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(store, {"tally": tally.GAME})


async def started(service: MatchService, count: int) -> list[int]:
    """`count` started Tally matches, each in a channel of its own."""
    ids = []
    for channel in range(1, count + 1):
        table = await service.new_lobby(
            guild_id=1, channel_id=channel, user_id=ALICE, name="A", game="tally", seed=channel
        )
        await service.join(table.match.id, BOB, "B")
        await service.start(table.match.id, ALICE)
        ids.append(table.match.id)
    return ids


def saved_actions(db_path: Path, match_id: int) -> int:
    """The match's actions as another connection reads them (what is on disk)."""
    with sqlite3.connect(db_path) as other:
        (count,) = other.execute(
            "SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)
        ).fetchone()
    return int(count)


def count_commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many commits the store makes from now on (one entry per commit)."""
    made: list[int] = []
    commit = store._commit

    async def counted(group: object) -> None:
        made.append(1)
        await commit(group)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_commit", counted)
    return made


async def test_actions_arriving_together_share_commits_and_each_is_saved_when_it_returns(
    service: MatchService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await started(service, MATCHES)
    commits = count_commits(service.store, monkeypatch)
    seen: dict[int, int] = {}

    async def act(match_id: int) -> None:
        await service.act(match_id, ALICE, "banner|amber")
        seen[match_id] = saved_actions(db_path, match_id)  # read at once, from outside

    await asyncio.gather(*(act(m) for m in ids))
    assert seen == dict.fromkeys(ids, 1), "an action returned before it was on disk"
    assert len(commits) < MATCHES / 3, f"{len(commits)} commits for {MATCHES} actions"
    for match_id in ids:
        assert (await service.get(match_id)).version == 1
        assert await service.verify(match_id)


async def test_one_action_alone_commits_at_once(
    service: MatchService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (match_id,) = await started(service, 1)
    commits = count_commits(service.store, monkeypatch)
    await service.act(match_id, ALICE, "banner|amber")
    assert commits == [1]
    assert saved_actions(db_path, match_id) == 1


async def test_a_change_refused_in_a_group_undoes_only_its_own_writes(
    service: MatchService, db_path: Path
) -> None:
    ids = await started(service, 5)

    async def busy_lobby() -> None:
        # The channel of the first match is taken: refused inside the group, after its
        # insert began.
        await service.new_lobby(
            guild_id=1, channel_id=1, user_id=BOB, name="B", game="tally", seed=1
        )

    results = await asyncio.gather(
        *(service.act(m, ALICE, "banner|amber") for m in ids),
        busy_lobby(),
        return_exceptions=True,
    )
    assert isinstance(results[-1], errors.ChannelHasMatch)
    assert not any(isinstance(r, BaseException) for r in results[:-1])
    assert [saved_actions(db_path, m) for m in ids] == [1] * 5
    with sqlite3.connect(db_path) as other:
        (lobbies,) = other.execute("SELECT COUNT(*) FROM matches").fetchone()
    assert lobbies == 5


async def test_a_caller_cancelled_while_its_group_commits_leaves_the_change_saved(
    service: MatchService, db_path: Path
) -> None:
    ids = await started(service, 10)
    tasks = [asyncio.ensure_future(service.act(m, ALICE, "banner|amber")) for m in ids]
    await asyncio.sleep(0)  # all of them queued for the store
    for _ in range(200):  # until the first is waiting on its group's commit
        if service.store._group is not None:
            break
        await asyncio.sleep(0)
    tasks[0].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert not any(isinstance(r, BaseException) for r in done[1:])
    await service.store.flush()
    # The cancelled caller's change stands or was never made: nothing is half-saved,
    # and every other change is on disk.
    assert [saved_actions(db_path, m) for m in ids[1:]] == [1] * 9
    first = saved_actions(db_path, ids[0])
    assert (await service.get(ids[0])).version == first
    assert await service.verify(ids[0])
