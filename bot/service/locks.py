"""Per-match locks: one asyncio lock per key, alive while anyone holds or awaits it."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Hashable


class KeyedLocks:
    """`locks(key)` is the lock of `key`: the same lock for every caller while it is in
    use, forgotten once nobody holds or waits for it (so the table never grows)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def __len__(self) -> int:
        """How many keys have a lock in use."""
        return len(self._locks)

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
