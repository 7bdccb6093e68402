"""Randomness derived from the match seed and the action number, never from global state."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
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


def deal_again(piles: Sequence[MutableSequence[int]], rng: random.Random) -> None:
    """Deal the cards of `piles` again at random among them, each pile keeping its size:
    how a seat that sees none of them imagines them. The cards are sorted first, so where
    they lie ends up depending only on which cards they are and on `rng`, never on where
    they lay before."""
    pool = sorted(card for pile in piles for card in pile)
    shuffle(pool, rng)
    start = 0
    for pile in piles:
        size = len(pile)
        pile[:] = pool[start : start + size]
        start += size


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
