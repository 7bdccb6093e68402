"""Gateway shards: which shard a match belongs to.

Discord deals a bot's servers among its gateway shards by id: a server's events come
through shard `(server id >> 22) % shard count`, direct messages through shard 0. A
match belongs to the shard of its server (a match in a DM, to shard 0), and so do its
deadlines and its outbox lanes: the process that holds the shard's lease does that
background work (see `bot.service.leases`).
"""

from __future__ import annotations


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a server's events come through (DMs: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def parse_shards(text: str, count: int) -> frozenset[int]:
    """Shard numbers written "0,1" or "0-3", checked against the count; a sentence when
    they don't fit."""
    shards: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            numbers = range(int(low), int(high) + 1) if dash else range(int(low), int(low) + 1)
        except ValueError:
            raise ValueError(f"{part!r} is not a shard number (write them 0,1 or 0-3)") from None
        shards.update(numbers)
    if not shards:
        raise ValueError("no shard given (write them 0,1 or 0-3)")
    outside = sorted(s for s in shards if not 0 <= s < count)
    if outside:
        raise ValueError(f"shard {outside[0]} is outside 0-{count - 1} (of {count} shards)")
    return frozenset(shards)
