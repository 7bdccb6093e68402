"""What the publisher delivers together and through which door: notices of one lane
folded into one delivery, grouped by who made them, the interaction (`Via`) whose
routes carry an action's own lines, the content of a board message, and the nonces
that keep a send from being made twice."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import discord

from bot.pictures import BOARD_FILE, Picture
from bot.render import (
    MESSAGE_LIMIT,
    picture_files,
)
from bot.service.outbox import OutboxRow
from bot.service.store import TurnMessage
from bot.service.tables import Table
from rules.core.text import clip

log = logging.getLogger(__name__)


VIA_FRESH = timedelta(minutes=14)  # an interaction's token serves 15 minutes


FOLD_MOST = 50  # notices of one lane delivered together at most


# Characters of lines delivered together at most: with the deciders' lines (or the end's)
# under them, they fit in one message.
FOLD_CHARS = MESSAGE_LIMIT - 500


FOLDS = ("board", "action")  # the kinds of notice that fold into one delivery


@dataclasses.dataclass(frozen=True)
class Via:
    """The interaction that made an action, answered: its exempt routes (outside
    Discord's global rate limit) carry what the action's notice posts and edits. Its
    followups post in its channel; `message_id` is the message its component is on
    when its answer was that message's (deferred) update, edited through it."""

    interaction: discord.Interaction
    message_id: int | None

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Via:
        """The routes an answered interaction offers."""
        update = interaction.response.type in (
            discord.InteractionResponseType.deferred_message_update,
            discord.InteractionResponseType.message_update,
        )
        message = interaction.message
        on = message.id if update and message is not None and not message.flags.ephemeral else None
        return cls(interaction, on)

    def posts_in(self, table: Table) -> bool:
        """Whether its followups land in the match's channel, while its token serves."""
        return self.interaction.channel_id == table.match.channel_id and self.fresh

    def edits(self, message_id: int) -> bool:
        """Whether it can edit this message through its answer, while its token serves."""
        return self.message_id == message_id and self.fresh

    @property
    def fresh(self) -> bool:
        return discord.utils.utcnow() - self.interaction.created_at < VIA_FRESH


@dataclasses.dataclass(frozen=True)
class Sent:
    """A notice's public message, posted or found posted: its id, and its lines up to
    and including the notice's own (those of notices posted with it before it too)."""

    id: int
    body: str
    author: int | None = None  # whose command it reads as (a followup); None: nobody's

    @property
    def lines(self) -> int:
        """How many of the message's lines are notices' lines delivered so far."""
        return len(self.body.split("\n"))


@dataclasses.dataclass(frozen=True)
class Content:
    """A match message's embed and buttons, and the table's picture to attach (each
    request gets its own file object: a retry sends it again)."""

    fields: dict[str, Any]
    picture: Picture | None = None

    def sending(self) -> dict[str, Any]:
        """The arguments of a send."""
        return {**self.fields, "files": picture_files(self.picture, BOARD_FILE)}

    def editing(self) -> dict[str, Any]:
        """The arguments of an edit (which replaces the picture, or takes it away)."""
        return {**self.fields, "attachments": picture_files(self.picture, BOARD_FILE)}


def folded(rows: list[OutboxRow]) -> list[OutboxRow]:
    """The notices of a lane (oldest first) delivered together: the first, and while it
    and the next are boards or actions, the next (up to the match's end). A notice read
    back after a restart goes alone: its delivery may have begun as it was."""
    batch = rows[:1]
    size = _size(rows[0])
    for row in rows[1:]:
        if any(r.notice.kind not in FOLDS or r.recovered for r in (batch[0], row)):
            break
        size += _size(row)
        if size > FOLD_CHARS:
            break  # the rest goes next, in a message of its own
        batch.append(row)
        if row.notice.kind == "action" and row.notice.body["finished"]:
            break
    return batch


def author_of(row: OutboxRow, via_of: dict[int, Via]) -> int | None:
    """The user whose own command made a notice's action: the one whose interaction
    carries it (None: none does, as for the AI's move, a clock's or a standing answer)."""
    vias = row_vias(row, via_of)
    return vias[0].interaction.user.id if vias else None


def row_vias(row: OutboxRow, via_of: dict[int, Via]) -> list[Via]:
    """The interaction that made a notice's action, if it carries it."""
    via = via_of.get(int(row.notice.body.get("seq", -1)))
    return [via] if via is not None else []


def adds_to(current: TurnMessage, table: Table, author: int | None, vias: list[Via]) -> bool:
    """Whether lines made by `author`'s command (None: nobody's) through `vias` are added
    to the turn's message rather than posted anew: never to a message reading as another
    player's command. To a message the bot posted in the channel (nobody's), an author's
    lines are added only through their own answer on it or when they have no followup to
    post with: a followup of their own spends none of the global limit, an edit there
    would."""
    if current.author == author:
        return True
    if current.author is not None:
        return False
    return any(v.edits(current.message_id) for v in vias) or not any(
        v.posts_in(table) for v in vias
    )


def by_author(rows: list[OutboxRow], via_of: dict[int, Via]) -> list[list[OutboxRow]]:
    """Action notices in runs of one author each, in order (see `author_of`)."""
    runs: list[list[OutboxRow]] = []
    for row in rows:
        if runs and author_of(runs[-1][0], via_of) == author_of(row, via_of):
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def drop_stale(held: dict[Any, Via]) -> None:
    """Forget the interactions whose tokens no longer serve. They are held about in the
    order they came, so only the oldest are looked at: the cost is what is dropped,
    not what is held (a busy bot holds thousands)."""
    while held:
        key, via = next(iter(held.items()))
        if via.fresh:
            return
        del held[key]


def _size(row: OutboxRow) -> int:
    """The characters of a notice's lines, as a message shows them."""
    return sum(len(line) + 1 for line in row.notice.body.get("lines", []))


def nonce_for(row: OutboxRow) -> str:
    """The nonce of a notice's message: Discord posts one message per nonce for a while."""
    return f"arbiter-{row.id}"[:25]


def board_nonce_for(row: OutboxRow) -> str:
    """The nonce of the board a notice posts (at most one: a first post, a repost, or a
    post replacing a board that is gone)."""
    return f"arbiter-b{row.id}"[:25]


def gist(body: dict[str, Any]) -> str:
    """A notice's text, short, for the match log."""
    text = " ".join(str(line) for line in body.get("lines", [])) or str(body.get("line", ""))
    return clip(text, 300) or "the match's board"


def joined(lines: Iterable[str]) -> str:
    return "\n".join(line for line in lines if line)


def under_tail(lines: Iterable[str], tail: str) -> str:
    """`lines` joined, cut short if need be to fit in one message above `tail`."""
    return clip(joined(lines), MESSAGE_LIMIT - len(tail) - 1)


def still_deciding(table: Table, called: Iterable[int]) -> list[int]:
    """The seats deciding now, the ones just called last (their lines end the message)."""
    called = list(called)
    return [s for s in table.to_act if s not in called] + called


def mentioning(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (nobody when none): no @everyone, no roles.
    A seat the AI holds has no one's id (below zero): nobody to notify there."""
    users = [u for u in users if u > 0]
    if not users:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(u) for u in sorted(set(users))],
    )
