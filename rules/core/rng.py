"""Randomness derived from the match seed and the action number, never from global state."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, seq: int) -> random.Random:
    """The generator for action number `seq` of a match seeded with `seed`.

    Seeding from a string is stable across Python versions and platforms.
    """
    return random.Random(f"arbiter:{seed}:{seq}")


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """Shuffle in place (Fisher-Yates over `rng.random()`, so the order never
    depends on how a Python version implements its own shuffle)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def pick(n: int, rng: random.Random) -> int:
    """A uniformly chosen index below `n` (n > 0)."""
    return int(rng.random() * n)


class TrackingRandom(random.Random):
    """A generator that notes whether anything drew from it (every draw of a
    `random.Random` goes through `random()` or `getrandbits()`)."""

    used = False

    def random(self) -> float:
        self.used = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.used = True
        return super().getrandbits(k)
