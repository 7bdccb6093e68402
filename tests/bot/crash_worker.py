"""The process the crash test kills: plays random legal actions of Tooth and Nail on a
real database (a SQLite file or a PostgreSQL database), match after match (each one
that ends is recorded and rated with its last action), and delivers the outbox to a
fake Discord, until it is killed.

    python -m tests.bot.crash_worker <database> <journal path> <seed> [--drain]

The fake Discord is the journal file: one line, the outbox row's id, for each message
it posted. Like Discord it posts one message per nonce (the publisher's own nonce of
the row): a send whose nonce it already holds returns the message posted before and
posts nothing. A row is marked delivered only after its line is on disk, and the mark
is written behind (saved with the next transaction), so a kill between the two leaves
rows that are sent again after the restart, and the nonce must keep each second send
from posting a second line.

It prints "ready" once the store is open. With `--drain` it only delivers everything
pending, then exits.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.outbox import OutboxRow
from bot.service.stats import Stats
from bot.service.store import OutboxStore, Store

GUILD = 1
HOST, GUEST = 1, 2
GAME, VARIANT = "tooth-and-nail", "2p"
DELIVER_CHANCE = 0.5  # after an action, how often the pending rows are delivered
LATENCY = 0.002  # seconds a request to the fake Discord, and its answer, take on the way


def nonce_of(row_id: int) -> str:
    """The nonce the publisher gives the message of outbox row `row_id` (the test checks
    it is `bot.publisher._nonce`'s, which this process doesn't import: Discord's client
    would double its start-up time)."""
    return f"arbiter-{row_id}"[:25]


class FakeDiscord:
    """The journal file as a channel that keeps to Discord's nonce rule."""

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.posted: dict[str, int] = {}  # nonce -> the row id whose line holds it
        if journal.exists():
            for line in journal.read_text(encoding="ascii").splitlines():
                row_id = int(line)
                self.posted[nonce_of(row_id)] = row_id

    async def send(self, row: OutboxRow) -> int:
        """Post the row's message unless its nonce was posted already; the row id of
        the message that holds the nonce. The request and the answer each take a
        moment on the way, as over a network: a kill may fall before the message is
        posted or after, before the sender hears of it."""
        await asyncio.sleep(LATENCY)
        nonce = nonce_of(row.id)
        if nonce not in self.posted:
            fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, f"{row.id}\n".encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
            self.posted[nonce] = row.id
        await asyncio.sleep(LATENCY)
        return self.posted[nonce]


async def deliver(outbox: OutboxStore, discord: FakeDiscord) -> int:
    """Deliver every pending row, lane by lane, in order; how many were delivered."""
    count = 0
    for lane in await outbox.pending_lanes():
        while rows := await outbox.next_notices(lane):
            row = rows[0]
            await discord.send(row)
            outbox.mark_delivered(row.id)
            count += 1
    return count


async def current_match(service: MatchService, rng: random.Random) -> int:
    """The match in play: the active one, else the lobby a kill left behind (started
    now), else a new one in a channel of its own."""
    open_matches = await service.records.open_in_guild(GUILD)
    for match in open_matches:
        if match.status == "active":
            return match.id
    for match in open_matches:
        table = await service.table(match.id)
        if table.seat_of(GUEST) is None:
            await service.join(match.id, GUEST, "B")
        await service.start(match.id, HOST)
        return match.id
    while True:
        try:
            table = await service.new_lobby(
                guild_id=GUILD,
                channel_id=rng.getrandbits(52) + 1,
                user_id=HOST,
                name="A",
                game=GAME,
                variant=VARIANT,
                seed=rng.getrandbits(52),
            )
        except errors.ChannelHasMatch:
            continue
        break
    match_id = table.match.id
    await service.join(match_id, GUEST, "B")
    await service.start(match_id, HOST)
    return match_id


async def play(
    service: MatchService, match_id: int, rng: random.Random, discord: FakeDiscord
) -> None:
    """Random legal actions until the match is over."""
    while True:
        table = await service.table(match_id)
        if table.outcome is not None or table.match.status != "active":
            return
        seat = rng.choice(table.to_act)
        user_id = table.user_of(seat).user_id
        view = await service.view(match_id, user_id)
        key = rng.choice(view.choices).key
        await service.act(match_id, user_id, key)
        if rng.random() < DELIVER_CHANCE:
            await deliver(service.outbox, discord)


async def main(db: str, journal: Path, seed: int, *, drain: bool) -> None:
    rng = random.Random(seed)
    store = await Store.open(db)
    try:
        service = MatchService(store)
        Stats(
            service, store.results, store.ratings
        )  # a finishing action commits its results and ratings with it
        discord = FakeDiscord(journal)
        print("ready", flush=True)
        if drain:
            await deliver(store.outbox, discord)
            return
        while True:
            await play(service, await current_match(service, rng), rng, discord)
    finally:
        await store.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    drain = "--drain" in args
    db_arg, journal_arg, seed_arg = (a for a in args if a != "--drain")
    asyncio.run(main(db_arg, Path(journal_arg), int(seed_arg), drain=drain))
