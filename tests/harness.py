"""How the tests and the benchmarks run simcord."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

SETTLE_POLL = 0.002  # seconds


@contextmanager
def fast_settle(poll: float = SETTLE_POLL) -> Iterator[None]:
    """simcord's settle sleeps its `idle` interval (50 ms) whenever only its own callbacks
    are pending, which is where a handler that ends with its reply leaves it: each such
    interaction would cost 50 ms of waiting that no real bot has. Poll every `poll`
    seconds instead, meanwhile."""
    import simcord

    kwdefaults = simcord.Env._settle_internal.__kwdefaults__
    assert kwdefaults is not None and "idle" in kwdefaults
    before = simcord.Env.settle.__defaults__, kwdefaults["idle"]
    simcord.Env.settle.__defaults__ = (None, poll)
    kwdefaults["idle"] = poll
    try:
        yield
    finally:
        simcord.Env.settle.__defaults__, kwdefaults["idle"] = before
