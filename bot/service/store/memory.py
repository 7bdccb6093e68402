"""What the store holds of the database in memory, and when it may serve it.

The action path reads the same rows again and again; the store keeps them here: of
the last MEMORY matches used, the match row, its seats, its clocks (deadlines, pause,
seat clocks), its turn message and the tail of its log; which match is open in each
channel; the server settings; each user's DM preferences, standing answers and picture
mode; the pending notices of each outbox lane.

What is held is as the last commit left it: the store changes it only once a commit is
durable (`Database.transaction`'s `then`), so a reader served from here never sees a
change that may still be undone. Anything the store can't update exactly it forgets,
to be read again. A change made by another process reaches it as forgetting: the engine
says which matches, servers, users or lanes another process changed (PostgreSQL's
notifications), or that anything may have changed (SQLite's data version), and those
are read afresh before they are served.

A load races with commits: a row read from the database just before a commit and held
just after would hide that commit, and a row read just after a commit (or, in SQLite,
from the open group) and held before the commit's change is applied in memory would
take that change twice. So each key has a count of the changes applied to it and a
count of the transactions under way that will change it (from their first write until
their change is applied, or they fail); a load is held only if, once it has read, no
such transaction is under way and the key's count (and the memory's epoch, moved by
forgetting everything) is what it was before the read.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from bot.service.outbox import OutboxRow
from bot.service.store.rows import OPEN, MatchRow

T = TypeVar("T")

MEMORY = 2048  # matches whose rows stay in memory (the least recently used go first)
TAIL = 16  # actions of a match's log held in memory (its latest still in effect)
SMALL = 16 * MEMORY  # entries of a per-user or per-server table before it is let go
MISSING: Any = object()  # nothing of that kind is held


class Memory:
    """The rows held, by kind, with the counts that keep loads from hiding commits."""

    def __init__(self) -> None:
        self._matches: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self.channels: dict[int, int | None] = {}  # channel -> its open match (None: none)
        self._channel_of: dict[int, int] = {}  # match -> the channel held as its
        # Per server or user, by kind ("guild", "prefs", "standing", "pictures").
        self._small: dict[str, dict[int, Any]] = {}
        self.lanes: dict[str, deque[OutboxRow]] = {}  # lane -> its pending notices
        self.lane_of: dict[int, str] = {}  # a pending notice held -> its lane
        # Lanes that may hold notices this process did not write (from before it
        # started, or another process's), read back from the database as `recovered`;
        # known from the first `pending_lanes`. None: any lane may.
        self.foreign: set[str] | None = None
        # Lanes held whose notices another process added to since they were read.
        self.written_elsewhere: set[str] = set()
        self.epoch = 0  # moves when everything is forgotten
        self._changes: dict[Hashable, int] = {}  # key -> changes applied to it
        self._coming: Counter[Hashable] = Counter()  # key -> transactions that will change it

    # ------------------------------------------------------------ the counts

    def mark(self, key: Hashable) -> tuple[int, int]:
        """Where a key stands: compare before and after a read (see the module)."""
        return self.epoch, self._changes.get(key, 0)

    def steady(self, key: Hashable, mark: tuple[int, int]) -> bool:
        """Whether a load of `key` that began at `mark` may be held now."""
        return not self._coming[key] and self.mark(key) == mark

    def coming(self, key: Hashable) -> None:
        """A transaction under way will change `key` (see the module)."""
        self._coming[key] += 1

    def came(self, key: Hashable) -> None:
        """A transaction's change of `key` is applied, or it failed."""
        self._coming[key] -= 1
        if self._coming[key] <= 0:
            del self._coming[key]

    def changed(self, key: Hashable) -> None:
        """A change was applied to `key` (or it was forgotten)."""
        if len(self._changes) > 4 * SMALL:
            self._changes.clear()
            self.epoch += 1  # loads under way compare against counts let go
        self._changes[key] = self._changes.get(key, 0) + 1

    # ------------------------------------------------------------ matches

    def hit(self, match_id: int, kind: str) -> Any:
        """The `kind` held of a match (made the most recently used), or MISSING."""
        held = self._matches.get(match_id)
        if held is None or kind not in held:
            return MISSING
        self._matches.move_to_end(match_id)
        return held[kind]

    async def recall(self, match_id: int, kind: str, load: Callable[[], Awaitable[T]]) -> T:
        """The `kind` held of a match, loaded first when it isn't."""
        held = self.hit(match_id, kind)
        if held is not MISSING:
            return held
        mark = self.mark(match_id)
        value = await load()
        if self.steady(match_id, mark):
            self.hold(match_id, kind, value)
        return value

    def _held(self, match_id: int) -> dict[str, Any]:
        held = self._matches.get(match_id)
        if held is None:
            held = self._matches[match_id] = {}
            while len(self._matches) > MEMORY:
                self._matches.popitem(last=False)
        else:
            self._matches.move_to_end(match_id)
        return held

    def hold(self, match_id: int, kind: str, value: Any) -> None:
        """Hold `value` as the `kind` of a match."""
        if kind == "match":
            self.hold_match(value)
        else:
            self._held(match_id)[kind] = value

    def hold_match(self, match: MatchRow) -> None:
        """Hold a match row, and where it is open."""
        self._held(match.id)["match"] = match
        if match.status in OPEN:
            self.channels[match.channel_id] = match.id
            self._channel_of[match.id] = match.channel_id
            return
        self._channel_of.pop(match.id, None)
        if self.channels.get(match.channel_id) == match.id:
            self.channels[match.channel_id] = None

    def update(self, match_id: int, kind: str, change: Callable[[Any], Any]) -> None:
        """Change what is held of a match, if it is held (a commit's change)."""
        self.changed(match_id)
        held = self._matches.get(match_id)
        if held is not None and kind in held:
            self.hold(match_id, kind, change(held[kind]))

    def put(self, match_id: int, kind: str, value: Any) -> None:
        """Hold `value` as the `kind` of a match (a commit's change)."""
        self.changed(match_id)
        self.hold(match_id, kind, value)

    def forget(self, match_id: int) -> None:
        """Drop what is held of one match, and which channel it is open in (found from
        the match, not by walking every channel held)."""
        self.changed(match_id)
        self._matches.pop(match_id, None)
        channel = self._channel_of.pop(match_id, None)
        if channel is not None and self.channels.get(channel) == match_id:
            del self.channels[channel]

    def channel_unknown(self, channel_id: int) -> None:
        """Forget what is held of a channel (a match may have opened or closed there)."""
        self.changed(("channel", channel_id))
        match_id = self.channels.pop(channel_id, None)
        if match_id is not None:
            self._channel_of.pop(match_id, None)

    def hold_channel_free(self, channel_id: int, mark: tuple[int, int]) -> None:
        """Hold that a channel has no open match (read when the channel stood at `mark`)."""
        if not self.steady(("channel", channel_id), mark):
            return
        if len(self.channels) > SMALL:
            self.channels.clear()
            self._channel_of.clear()
        self.channels[channel_id] = None

    # ------------------------------------------------------------ servers and users

    def small(self, kind: str, key: int) -> Any:
        """What is held of a server or a user (`kind`: guild, prefs...), or MISSING."""
        return self._small.get(kind, {}).get(key, MISSING)

    async def recall_small(self, kind: str, key: int, load: Callable[[], Awaitable[T]]) -> T:
        """What is held of a server or a user, loaded first when it isn't."""
        held = self.small(kind, key)
        if held is not MISSING:
            return held
        mark = self.mark((kind, key))
        value = await load()
        if self.steady((kind, key), mark):
            table = self._small.setdefault(kind, {})
            if len(table) > SMALL:
                table.clear()
            table[key] = value
        return value

    def forget_small(self, kind: str, key: int) -> None:
        """Drop what is held of a server or a user (a commit changed it)."""
        self.changed((kind, key))
        self._small.get(kind, {}).pop(key, None)

    @staticmethod
    def keys_of(announced: str) -> list[Hashable]:
        """The keys held under a key as announced ("m:<match>", "u:<user>"...)."""
        kind, _, value = announced.partition(":")
        if kind == "l":
            return [("lane", value)]
        number = int(value)
        if kind == "m":
            return [number]
        if kind == "u":
            return [("prefs", number), ("standing", number), ("pictures", number)]
        return [({"g": "guild", "c": "channel"}[kind], number)]

    def wrote_elsewhere(self, lane: str) -> None:
        """Another process wrote notices to a lane: what it wrote is read before the
        lane is served again."""
        self.changed(("lane", lane))
        if lane in self.lanes:
            self.written_elsewhere.add(lane)
        elif self.foreign is not None:
            self.foreign.add(lane)

    # ------------------------------------------------------------ everything

    def forget_all(self) -> None:
        """Drop everything held (the next reads load it again)."""
        self.epoch += 1
        self._changes.clear()
        self._matches.clear()
        self.channels.clear()
        self._channel_of.clear()
        self._small.clear()
        self.lanes.clear()
        self.lane_of.clear()
        self.foreign = None
        self.written_elsewhere.clear()
