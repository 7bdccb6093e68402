"""What a committed change must tell Discord, as rows of the outbox.

A service never talks to Discord: it writes notices, in the same transaction as
the change they tell of (the store's repositories take them beside each change), and
the publisher on the Discord side delivers them, in order per lane, at least once, remembering
what each delivery already did (`OutboxRow.progress`) so that no line is posted
twice. A notice holds what was true when the change was saved (an action's public
lines, who it calls to decide); what is true at delivery (the board, the
deciders' questions, the buttons) is read then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

NoticeKind = Literal["board", "start", "action", "say", "dm"]


@dataclass(frozen=True)
class Notice:
    """One thing to tell: `kind` says what, `body` holds what it needs (JSON values)."""

    match_id: int
    kind: NoticeKind
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def lane(self) -> str:
        """The queue it is delivered in, in order: a DM waits only for its user's DMs,
        anything else for its match's channel."""
        if self.kind == "dm":
            return f"dm:{self.body['user_id']}"
        return f"match:{self.match_id}"


def board(match_id: int) -> Notice:
    """Bring the match's message (its lobby or board) up to date."""
    return Notice(match_id, "board")


def start(match_id: int) -> Notice:
    """Post the board of a match that just started and the line calling its first deciders."""
    return Notice(match_id, "start")


def action(
    match_id: int,
    *,
    seq: int,
    lines: list[str],
    called: tuple[int, ...],
    turn: str,
    finished: bool,
) -> Notice:
    """An accepted action: its public `lines` (as the table reads them for good: a game
    numbering its lines numbered them at the commit), the seats it `called` to decide
    (pinged), the `turn` it led to (lines of one turn share a message), whether it ended
    the match."""
    body = {
        "seq": seq,
        "lines": lines,
        "called": list(called),
        "turn": turn,
        "finished": finished,
    }
    return Notice(match_id, "action", body)


def say(
    match_id: int,
    line: str,
    *,
    ping: tuple[int, ...] = (),
    call: bool = False,
    keep: int | None = None,
    back: bool = False,
) -> Notice:
    """A public line of its own (the clock's, a moderator's), notifying the users in
    `ping`; with `call`, followed by a line calling each player deciding then; with
    `keep`, under a button for that user to keep the seat the table handed to the AI
    (with `back`, to take back the seat the AI plays since their time ran out)."""
    body: dict[str, Any] = {"line": line, "ping": list(ping), "call": call}
    if keep is not None:
        body["keep"] = keep
        if back:
            body["back"] = True
    return Notice(match_id, "say", body)


def dm(match_id: int, user_id: int, text: str) -> Notice:
    """A direct message to a player: `text` above their private view of the match."""
    return Notice(match_id, "dm", {"user_id": user_id, "text": text})


@dataclass(frozen=True)
class OutboxRow:
    """A notice waiting in the outbox, with what its delivery did so far."""

    id: int
    notice: Notice
    created_at: str | None = None
    attempts: int = 0
    progress: dict[str, Any] = field(default_factory=dict)
    last_error: str | None = None
    delivered_at: str | None = None
    given_up: str | None = None  # why it never can be delivered
    recovered: bool = False  # read back from the database: a send may have begun before

    @property
    def done(self) -> bool:
        """Delivered, or given up for good."""
        return self.delivered_at is not None or self.given_up is not None
