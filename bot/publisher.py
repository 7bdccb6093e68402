"""The publisher: the one door from the outbox to Discord.

The services write what a change must tell (`bot.service.outbox`) in the change's own
transaction; the store tells the publisher which lane got something new, and one task
per lane delivers its notices in order, each at least once: a notice is marked
delivered only after Discord took it, and what its delivery already did (the board
brought up to date, the message it posted) is written down as it goes, so a retry,
after a failure or a restart, goes on from there and never posts a line twice. A send
carries the notice's nonce, which Discord holds to for a few minutes, and a send that
was under way when the process stopped is looked for among the channel's latest
messages before it is sent again.

A failure that may pass (a 5xx, a rate limit, a timeout) is retried with a growing
wait (BACKOFF, at most MAX_WAIT; a 429's own `retry_after` when it gives one), and the
lane waits meanwhile: its lines stay in order. A failure that never can pass (the
channel is gone, the bot lost access to it) gives the notice up, with a log line and a
line in the match log, where moderators see it. At start-up every pending notice is
delivered.

How a match's public messages look (one message per turn, the deciders named under
it, the quick buttons, the board kept in reach) is described on `Publisher`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

import discord

from bot.folding import (
    FOLD_MOST,
    FOLDS,
    Content,
    Sent,
    Via,
    adds_to,
    author_of,
    board_nonce_for,
    by_author,
    drop_stale,
    folded,
    gist,
    joined,
    mentioning,
    nonce_for,
    row_vias,
    still_deciding,
    under_tail,
)
from bot.host import Host
from bot.pace import NEVER, THREAD_ARCHIVED, Never, Pace, Retry, backoff, classify
from bot.pictures import BOARD_FILE, Picture
from bot.render import (
    LOBBY_STARTED,
    MESSAGE_LIMIT,
    end_lines,
    ending_of,
    glance_embed,
    lobby_embed,
    ping_lines,
    renderer_for,
    seed_notice,
)
from bot.service import errors
from bot.service.logs import about
from bot.service.outbox import OutboxRow
from bot.service.scheduler import Scheduler
from bot.service.shards import shard_of
from bot.service.store import TurnMessage
from bot.service.tables import Table
from bot.ui.interactions import DM_CLOSED
from bot.ui.lobby import lobby_view
from bot.ui.table import (
    KeepSeatButton,
    board_view,
    carries_buttons,
    dispute_buttons,
    private_content,
    text_board,
    turn_view,
)

log = logging.getLogger(__name__)


T = TypeVar("T")


NEVER |= {50013: "no permission to post there", DM_CLOSED: "their direct messages are closed"}


BURIED_AFTER = 8  # messages posted under a board (about a phone's screen) before it is reposted


OLD_AFTER = timedelta(hours=24)  # a board older than this is reposted too


LOOK_BACK = 20  # messages searched for a send that was under way at a crash


SAVE = "save"  # the saver's one key


UNDELIVERED_LOG = "undelivered"  # the kind of the match-log line of a notice given up


BOARD_MOVED = "The board has moved to the bottom of the channel"


VIA_WAIT = 2.0  # seconds a lane waits for the interaction that made the action it delivers


NOT_BOARDS = (BOARD_MOVED, LOBBY_STARTED)  # how a match's messages read that no longer show it


class Publisher:
    """Delivers the outbox, keeping each match's message current.

    The match's message is its lobby, then its board; every notice of a match first
    brings it up to date (the latest saved state), so it never shows an older board.

    The public lines of one turn share one message (the turn message, kept in the store
    so a restart changes nothing): each action's lines are added to it by an edit. A new
    one is posted when the turn changes, when the lines would not fit, when the edit
    fails, or when someone must be called to decide, since Discord notifies no mention
    added by an edit: the new message then ends with the line calling them ("➡️ @Basil,
    your turn — …"). A new one is posted too when the lines are not its author's: a
    message posted as an interaction's followup reads as that player's command ("Ada
    used /play"), so a public line never joins a message under someone else's command;
    a player's own lines go in a followup of their own, and lines no one's command made
    (the AI's, a clock's, a standing answer, a player's whose interaction was lost) in
    the channel, where the bot's own messages read as nobody's (see `adds_to`). Under
    its lines a turn message names each player deciding, with what
    the game asks of them now (kept up to date by each edit), and notifies only those
    just called. It carries the game's quick actions for the player whose turn it is as
    buttons (see `bot.ui.table.QuickButton`), right under the line that calls them, where a
    notification leads: each edit brings them up to date, and a message that no longer
    carries the turn loses them. The Dispute button of a Historia table's latest report
    rides the same way, under the message with the report's line (or under a moderator's
    line after an undo), and a game's renderer may cap the lines of one message
    (`turn_lines`: a Historia turn holds many reports), so that the latest line and its
    button stay at the bottom.

    A board in play stays in reach: once BURIED_AFTER messages were posted under it
    (counted since this process posted it) or it is older than OLD_AFTER, it is posted
    again at the bottom and the old one, its button removed, links there. A match in a
    thread keeps the thread open: Discord's auto-archive is undone while the match is in
    play, and a request refused because the thread is archived is retried once it is
    reopened.

    Exempt calls first: an action made through an interaction hands it over once it is
    answered (`through`), and the delivery of that action's notice posts through its
    followups and edits the message its button is on through its answer; a message
    posted as a followup is edited through that interaction's followups while its token
    serves (15 minutes): all outside Discord's global limit. Only the interaction's own
    action is told through it: actions delivered together go out one author at a time.
    The channel's own routes serve the rest, and take over whenever an interaction's
    route fails or its token has run out.

    The channel's routes are used at its pace (`Pace`: Discord takes about 5 messages per
    5 s in a channel), and whatever waits in a lane meanwhile goes out together
    (`folded`): the board is edited once, with the latest state, and the waiting
    actions' lines are added or posted as one, in order, calling every player they
    called who still decides.
    """

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # lanes written to while their task was reading
        self._stopped = True  # nothing is delivered before `start` (other processes' wakes)
        self._started = False  # delivering since its last start
        self._posted: dict[int, int] = {}  # match id -> messages posted since its board
        self._quick: dict[int, int] = {}  # match id -> the message with its quick buttons
        # match id -> the message saying the AI is thinking, and its text without that
        self._thinking: dict[int, tuple[int, str]] = {}
        self._last_post: dict[str, Sent] = {}  # lane -> the message it posted (or found) last
        self._via: dict[tuple[int, int], Via] = {}  # (match id, action seq) -> its interaction
        self._posters: dict[int, Via] = {}  # message id -> the interaction whose followup it is
        settings = bot.settings
        self._pace = Pace(settings.arbiter_channel_burst, settings.arbiter_channel_every)
        self._expected: dict[int, list[asyncio.Event]] = {}  # match id -> interactions acting
        # Saves the delivery bookkeeping a transaction didn't take along (the store
        # writes it behind: see `bot.service.store`) within `arbiter_save_after`.
        self._saver = Scheduler(self._save, discord.utils.utcnow)
        self._save_after = timedelta(seconds=settings.arbiter_save_after)

    # ------------------------------------------------------------ the lanes

    async def start(self) -> None:
        """Deliver whatever is still pending (from before a restart)."""
        self._stopped = False
        self._started = True
        for lane in await self.bot.matches.outbox.pending_lanes():
            self.wake(lane)
        self._saver.start()

    async def stop(self, *, finish: float = 0.0) -> None:
        """Stop delivering (what is pending is delivered after the next start). Given
        `finish`, each lane first has that many seconds to end the delivery it is in (a
        request on its way is answered, and what it did recorded), as before another
        process takes the lanes over."""
        self._stopped = True
        self._via.clear()
        self._posters.clear()
        await self._saver.stop()
        running = list(self._lanes.values())
        self._lanes.clear()
        if finish > 0 and running:
            await asyncio.wait(running, timeout=finish)
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._started:
            self.bot.matches.outbox.interrupted()  # a send may have been under way
        self._started = False

    async def _save(self, _key: object) -> None:
        await self.bot.matches.db.flush()  # nothing to do if a transaction took it along

    def _save_soon(self) -> None:
        if self._saver.when(SAVE) is None:
            self._saver.arm(SAVE, discord.utils.utcnow() + self._save_after)

    def wake(self, lane: str) -> None:
        """A lane has something new: deliver it (the store calls this after each commit)."""
        if self._stopped:
            return
        task = self._lanes.get(lane)
        if task is not None and not task.done():
            self._again.add(lane)
            return
        loop = asyncio.get_running_loop()
        self._lanes[lane] = loop.create_task(self._drain(lane), name=f"outbox {lane}")

    async def idle(self) -> None:
        """Wait until every lane has delivered what it can (tests and shutdown use it)."""
        while running := [t for t in self._lanes.values() if not t.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    async def _drain(self, lane: str) -> None:
        matches = self.bot.matches
        while not self._stopped:
            self._again.discard(lane)
            rows = await matches.outbox.next_notices(lane, FOLD_MOST)
            if not rows:
                if lane in self._again:
                    continue
                return
            if rows[0].notice.kind in FOLDS and await self._paced(rows[0]):
                rows = await matches.outbox.next_notices(
                    lane, FOLD_MOST
                )  # what came meanwhile joins
            batch = folded(rows)
            first = batch[0]
            match = await self.bot.matches.get(first.notice.match_id)
            if not matches.db.owns(match.guild_id):
                return  # no longer this process's to deliver (see `bot.service.leases`)
            shard = shard_of(match.guild_id, matches.db.shard_count)
            try:
                with about(match=match.id, guild=match.guild_id, shard=shard):
                    await self._deliver(batch)
            except Retry as failed:
                attempts = await matches.outbox.note_failure(first.id, failed.why)
                wait = failed.wait if failed.wait is not None else backoff(attempts)
                log.warning(
                    "outbox %s: %s notice %d failed (%s); try %d in %.0f s",
                    lane,
                    first.notice.kind,
                    first.id,
                    failed.why,
                    attempts + 1,
                    wait,
                )
                await asyncio.sleep(wait)
                continue
            except Never as refused:
                for row in batch:
                    await self._give_up(row, str(refused))
                continue
            except Exception:
                # A fault of ours: logged with its reference, and the lane goes on.
                log.exception("outbox %s: notice %d could not be delivered", lane, first.id)
                for row in batch:
                    await matches.outbox.give_up(row.id, "an error in the bot (see the log)")
                    self.bot.metrics.gave_up("fault")
                continue
            for row in batch:
                matches.outbox.mark_delivered(row.id)
            self._save_soon()

    async def _paced(self, row: OutboxRow) -> bool:
        """Wait until the notice's channel takes a request at once; whether it had to."""
        match = await self.bot.matches.get(row.notice.match_id)
        return await self._pace.ready(match.channel_id)

    async def _give_up(self, row: OutboxRow, why: str) -> None:
        """A notice that can never be delivered: logged, and noted in the match log."""
        matches = self.bot.matches
        notice = row.notice
        await matches.outbox.give_up(row.id, why)
        self.bot.metrics.gave_up("refused")
        log.warning("outbox: gave up notice %d of match %s: %s", row.id, notice.match_id, why)
        if notice.kind == "dm":
            if why == NEVER[DM_CLOSED]:
                await self.bot.clock.dm_closed(notice.match_id, int(notice.body["user_id"]))
            return
        what = {"board": "The board", "start": "The board"}.get(notice.kind, "A public line")
        await matches.log.add(
            notice.match_id,
            user_id=None,
            kind=UNDELIVERED_LOG,
            text=f"⚠️ {what} could not be posted in Discord ({why}): {gist(notice.body)}",
        )

    # ------------------------------------------------------------ interactions

    @contextlib.contextmanager
    def through(
        self, interaction: discord.Interaction, match_id: int
    ) -> Iterator[Callable[[Table], None]]:
        """While an interaction acts in a match: once it is answered, `carry(table)` hands
        it to the delivery of the action (or the start) that led to `table` (see `Via`).
        A lane delivering one of the match's actions meanwhile waits for it (VIA_WAIT at
        most)."""
        waiting = asyncio.Event()
        self._expected.setdefault(match_id, []).append(waiting)

        def carry(table: Table) -> None:
            if self._stopped or not interaction.response.is_done():
                return  # not delivering now, or unanswered (it has no followups yet)
            for held in (self._via, self._posters):
                drop_stale(held)
            seq = table.match.version  # the action's own number (a start's is 0)
            self._via[(match_id, seq)] = Via.of(interaction)

        try:
            yield carry
        finally:
            acting = self._expected.get(match_id, [])
            acting.remove(waiting)
            if not acting:
                self._expected.pop(match_id, None)
            waiting.set()

    async def _via_for(self, match_id: int, seq: int) -> Via | None:
        """The interaction that made the action `seq`, if it was handed over (waiting for
        the ones still acting in the match) and its token still serves."""
        acting = self._expected.get(match_id)
        if (match_id, seq) not in self._via and acting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in acting)), VIA_WAIT)
        via = self._via.pop((match_id, seq), None)
        return via if via is not None and via.fresh else None

    # ------------------------------------------------------------ delivery

    async def _deliver(self, batch: list[OutboxRow]) -> None:
        """Carry out a notice, or several folded into one (see `folded`), going on from
        what an earlier try already did: the board is brought up to date once, and the
        actions' lines go out together."""
        first = batch[0]
        notice = first.notice
        if notice.kind == "dm":
            await self._dm(first)
            return
        # What a change tells is shown once it settled: its clocks armed, so the board
        # names the right deadlines.
        await self.bot.matches.settled(notice.match_id)
        await self.bot.clock.settled(notice.match_id)
        table = await self.bot.matches.table(notice.match_id)
        match_id = table.match.id
        matches = self.bot.matches
        seqs = [int(r.notice.body["seq"]) for r in batch if r.notice.kind == "action"]
        # A lobby's steps and its start are number 0 (see `through`).
        seqs += [0] if notice.kind == "start" or table.match.snapshot is None else []
        via_of = {seq: via for seq in seqs if (via := await self._via_for(match_id, seq))}
        vias = list(via_of.values())
        if not all(row.progress.get("board") for row in batch):
            posted = await self._board_posted_before(table, first)
            if posted is not None:  # a crash kept its id from being saved
                await self.bot.matches.set_board_message(match_id, posted)
                table = await self.bot.matches.table(match_id)
            if notice.kind == "start" and posted is None:
                await self._retire_lobby(table, vias)
                await self._post(table, vias, first)
            else:  # the same edit again changes nothing
                posting = [
                    await self._posts_anew(
                        table, row, author_of(row, via_of), row_vias(row, via_of)
                    )
                    for row in batch
                ]
                await self._show(table, vias, first, posting=any(posting))
            batch = [replace(row, progress={**row.progress, "board": True}) for row in batch]
            for row in batch:
                matches.outbox.note_progress(row.id, row.progress)
            first = batch[0]
        if notice.kind == "start":
            if "message" in first.progress:
                return  # posted before a failure or a restart
            parts = ("The match begins!", seed_notice(table.match))
            lines = ["\n".join(part for part in parts if part)]
            author = vias[0].interaction.user.id if vias else None
            await self._lines(batch, table, lines, table.to_act, table.turn, False, vias, author)
        elif notice.kind == "say":
            await self._say(first, table)
        else:
            # Not those posted before a failure or a restart, nor those the turn's message
            # shows already (its lines were saved, their notices' marks were not).
            shown = await matches.records.turn_message(match_id)
            through = shown.through if shown is not None else 0
            told = [
                r
                for r in batch
                if r.notice.kind == "action" and "message" not in r.progress and r.id > through
            ]
            told = await self._not_shown(table, told)
            # Lines of several actions by one author read as one action's: every line in
            # order, every player called and still deciding pinged, the turn and the end
            # the last one's. Each author's go through their own interaction (or, made
            # without one, in the channel): never under another player's command.
            for run in by_author(told, via_of):
                lines = [line for r in run for line in r.notice.body["lines"]]
                called = [s for r in run for s in r.notice.body["called"] if s in table.to_act]
                last = run[-1].notice.body
                turn, finished = str(last["turn"]), bool(last["finished"])
                mine = [v for r in run for v in row_vias(r, via_of)]
                author = author_of(run[0], via_of)
                called = tuple(dict.fromkeys(called))
                await self._lines(run, table, lines, called, turn, finished, mine, author)

    async def _not_shown(self, table: Table, rows: list[OutboxRow]) -> list[OutboxRow]:
        """The action notices of `rows` still to tell. One read back after a restart (or
        by the process taking its lane over) may have been posted as a message of its
        own, its bookkeeping lost: the players' moves since may now have it added to the
        turn's message instead, so it is looked for among the channel's latest messages
        first, whichever way it would be told; found, it is marked posted there, and that
        message is the turn's from then on."""
        matches = self.bot.matches
        left: list[OutboxRow] = []
        for row in rows:
            body = row.notice.body
            if left or not row.recovered or row.created_at is None or body["finished"]:
                left.append(row)
                continue
            lane = row.notice.lane
            since = discord.utils.time_snowflake(datetime.fromisoformat(row.created_at))
            found = await self._sent_before(
                table, list(body["lines"]), since, self._last_post.get(lane)
            )
            if found is None:
                left.append(row)
                continue
            self._last_post[lane] = found
            matches.outbox.note_progress(row.id, {**row.progress, "message": found.id})
            turn = TurnMessage(
                table.match.id, found.id, str(body["turn"]), found.body, row.id, found.author
            )
            matches.records.set_turn_message(turn)
        return left

    async def _dm(self, row: OutboxRow) -> None:
        user_id = int(row.notice.body["user_id"])
        try:
            view = await self.bot.matches.view(row.notice.match_id, user_id)
        except errors.UserError:
            return  # no longer seated (replaced by a moderator meanwhile): nothing to tell
        content = await private_content(self.bot, view, in_dm=True, editing=False)
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(row.notice.body["text"], nonce=nonce_for(row), **content)
        except discord.HTTPException as error:
            raise classify(error) from error

    async def _say(self, row: OutboxRow, table: Table) -> None:
        """A public line of its own, after which the lines start a new turn message."""
        body = row.notice.body
        matches = self.bot.matches
        if row.progress.get("message") is None:
            lines = [body["line"]]
            ping = [int(u) for u in body["ping"]]
            if body.get("call") and table.outcome is None:
                lines += ping_lines(table, table.to_act)
                ping += [table.user_of(s).user_id for s in table.to_act]
            # The latest report's Dispute button follows the line (after an undo, say);
            # a player the AI plays for gets theirs to keep the seat (or take it back).
            view = turn_view(table) if dispute_buttons(table) else None
            if body.get("keep") is not None:
                view = discord.ui.View(timeout=None)
                keep = KeepSeatButton(
                    table.match.id, int(body["keep"]), back=body.get("back", False)
                )
                view.add_item(keep)
            text = joined(lines)
            message = await self._send(row, table, text, ping, view=view, fixed=lines[0])
            self._posted_for([row], message.id)
            # A Dispute button follows the latest line; Keep my seat stays under its call
            # while the AI plays on (a press once the seat is back is told so).
            if view is not None and body.get("keep") is None:
                await self._quick_on(table, message.id, [])
        matches.records.clear_turn_message(table.match.id)

    async def _lines(
        self,
        rows: list[OutboxRow],
        table: Table,
        lines: list[str],
        called: tuple[int, ...],
        turn: str,
        finished: bool,
        vias: list[Via],
        author: int | None,
    ) -> None:
        """Add the public lines of `rows` to the turn's message, or post them in a new one
        that notifies the players in `called` (see the class), through `vias` where they
        can. `author`: the user whose own command made them (None: nobody's, the AI's or
        a clock's, say); they are added only to a message reading as theirs or nobody's."""
        matches = self.bot.matches
        match_id = table.match.id
        if finished:
            matches.records.clear_turn_message(match_id)
            await self._quick_on(table, None, vias)
            await self._thought(table, None, None, vias)
            outcome = table.outcome
            winners = [table.user_of(s).user_id for s in outcome.winners] if outcome else []
            *said, end = end_lines(table, lines) or [""]
            text = joined([under_tail(said, end), end])
            message = await self._send(rows[0], table, text, winners, vias=vias)
            self._posted_for(rows, message.id)
            return
        current = await matches.records.turn_message(match_id)
        most = renderer_for(table.match.game).turn_lines  # a long turn goes on below
        if (
            current is not None
            and current.turn == turn
            and not called
            and adds_to(current, table, author, vias)
        ):
            body = joined([current.body, *lines])
            fits = most is None or len(body.splitlines()) <= most
            if fits:
                await matches.records.save_turn_message(match_id)
            if fits and await self._edit_turn(table, current.message_id, body, vias):
                matches.records.set_turn_message(
                    dataclasses.replace(current, body=body, through=rows[-1].id)
                )
                # the lane's lines go on after these (see `_sent_before`), not after the
                # ones the message was posted with
                lane = rows[0].notice.lane
                self._last_post[lane] = Sent(current.message_id, body, current.author)
                return
        deciding = still_deciding(table, called) if table.outcome is None else []
        tail = joined(ping_lines(table, deciding))
        body = under_tail(lines, tail)
        users = [table.user_of(s).user_id for s in called]  # the others were told already
        view = turn_view(table)
        text = joined([body, tail])
        message = await self._send(rows[0], table, text, users, view=view, fixed=body, vias=vias)
        self._posted_for(rows, message.id)
        matches.records.set_turn_message(
            TurnMessage(match_id, message.id, turn, message.body, rows[-1].id, message.author)
        )
        await self._quick_on(table, message.id if carries_buttons(table) else None, vias)
        await self._thought(table, message.id, body, vias)

    def _posted_for(self, rows: list[OutboxRow], message_id: int) -> None:
        """Note that the message with these notices' lines is posted (a retry skips them)."""
        for row in rows:
            self.bot.matches.outbox.note_progress(row.id, {**row.progress, "message": message_id})

    # ------------------------------------------------------------ requests

    def _channel(self, table: Table) -> discord.PartialMessageable:
        match = table.match
        return self.bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)

    async def _content(self, table: Table) -> Content:
        """The match's message: its lobby, or its board as the server (in DMs, the
        player) chose to see boards: its picture under a short summary, the full text
        board a tap away; the picture alone; or the whole board as text."""
        if table.match.snapshot is None:
            return Content({"embed": lobby_embed(table), "view": lobby_view(table)})
        match_id = table.match.id
        mode = await self.board_mode(table)
        picture = await self.board_picture(table, mode)
        if picture is None:
            embed = await text_board(self.bot, table)
        else:
            clocks = await self.bot.clock.glance_lines(match_id, table)
            lately = await self.bot.matches.lately(match_id)
            embed = glance_embed(
                table, clocks, lately, picture=BOARD_FILE, summary=mode != "pictures"
            )
        view = board_view(table, full_board=picture is not None)
        return Content({"embed": embed, "view": view}, picture)

    async def board_mode(self, table: Table) -> str:
        """How the match's board is shown (one of PICTURE_MODES): as its server chose,
        or in DMs its player."""
        match = table.match
        if match.guild_id is not None:
            return (await self.bot.matches.settings.guild(match.guild_id)).board_pictures
        return await self.bot.matches.pictures_of(table.seats[0].user_id)

    async def board_picture(self, table: Table, mode: str) -> Picture | None:
        """The table's picture for its board in this mode (None: text only, a game
        without one, or one that could not be drawn)."""
        if mode == "text" or table.view is None:
            return None
        ending = ending_of(table)
        return await self.bot.pictures.board(table.match.game, table.view, table.to_act, ending)

    async def keep_open(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Reopen a thread Discord archived while its match is in play (a thread a
        moderator locked stays closed)."""
        metadata = payload.data.get("thread_metadata") or {}
        if not metadata.get("archived") or metadata.get("locked"):
            return
        match = await self.bot.matches.records.open_in(payload.thread_id)
        if match is None or match.status != "active":
            return
        try:
            await self._unarchive(payload.thread_id)
        except discord.HTTPException:
            log.warning("match %s: could not reopen its thread", match.id, exc_info=True)

    async def _unarchive(self, channel_id: int) -> None:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        if isinstance(channel, discord.Thread):
            await channel.edit(archived=False)
            log.info("thread %s: reopened for its match", channel_id)

    async def _open(self, table: Table, call: Callable[[], Awaitable[T]]) -> T:
        """Run a request on the match channel's routes, at its pace (see `Pace`); when
        Discord refuses it because the thread is archived, reopen the thread and run it
        again."""
        await self._pace.turn(table.match.channel_id)
        try:
            return await call()
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
        await self._unarchive(table.match.channel_id)
        return await call()

    def _stale(self, table: Table, message_id: int, *, posting: bool) -> bool:
        """Whether a board in play is old enough to repost, or buried under messages
        while a new message is posted anyway (`posting`): a turn's lines edited into its
        message never move the board."""
        if table.match.status != "active":
            return False
        age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
        buried = posting and self._posted.get(table.match.id, 0) >= BURIED_AFTER
        return buried or age > OLD_AFTER

    async def _posts_anew(
        self, table: Table, row: OutboxRow, author: int | None, vias: list[Via]
    ) -> bool:
        """Whether delivering this notice, made by `author`'s command (None: nobody's)
        through `vias`, posts a message (rather than editing the turn's one), as far as
        can be told before it is delivered."""
        notice = row.notice
        if notice.kind != "action":
            return notice.kind != "board"
        body = notice.body
        if body["finished"] or any(s in table.to_act for s in body["called"]):
            return True
        current = await self.bot.matches.records.turn_message(table.match.id)
        if current is None or not adds_to(current, table, author, vias):
            return True
        return current.turn != str(body["turn"])

    async def _retire_lobby(self, table: Table, vias: list[Via]) -> None:
        """Take the buttons off the lobby message of a match that started."""
        lobby = table.match.board_message_id
        if lobby is None:
            return
        try:
            await self._edit(
                table, lobby, vias, lambda: {"embed": lobby_embed(table), "view": None}
            )
        except discord.HTTPException:
            log.info("match %s: its lobby message is gone", table.match.id)

    async def _show(
        self, table: Table, vias: list[Via], row: OutboxRow, *, posting: bool = False
    ) -> None:
        """Bring the match's message up to date for a notice (posting it when it has none
        or is gone; reposting it when it is stale, see `_stale`)."""
        message_id = table.match.board_message_id
        if message_id is None:
            await self._post(table, vias, row)
            return
        if table.match.status != "active":
            self._posted.pop(table.match.id, None)
        if self._stale(table, message_id, posting=posting):
            await self._repost(table, message_id, vias, row)
            return
        content = await self._content(table)
        try:
            await self._edit(table, message_id, vias, content.editing)
        except discord.NotFound:
            await self._post(table, vias, row)
        except discord.HTTPException as error:
            raise classify(error) from error

    async def _repost(self, table: Table, old_id: int, vias: list[Via], row: OutboxRow) -> None:
        """Post the board again at the bottom; the old one says where it went."""
        posted = await self._post(table, vias, row)
        # (made from the channel: a followup's message knows no server)
        link = self._channel(table).get_partial_message(posted.id).jump_url
        moved = discord.Embed(
            title=f"{table.game.name} — {table.variant.name}",
            description=f"{BOARD_MOVED}: {link}",
            colour=discord.Colour.dark_grey(),
        )
        moved.set_footer(text=f"Match #{table.match.id}")
        try:
            await self._edit(
                table, old_id, vias, lambda: {"embed": moved, "view": None, "attachments": []}
            )
        except discord.HTTPException:
            log.info("match %s: could not mark its old board as moved", table.match.id)

    async def _post(self, table: Table, vias: list[Via], row: OutboxRow) -> discord.Message:
        """Post the match's message for a notice (as an acting interaction's followup where
        one serves); the public lines after it start a new turn message. Its nonce is the
        notice's own board nonce: a post tried again (a lost answer, another process
        taking the lane over) is the one message."""
        channel = self._channel(table)
        content = await self._content(table)
        followed = await self._follow_up(table, vias, content.sending)
        message = followed[0] if followed is not None else None
        if message is None:
            nonce = board_nonce_for(row)
            try:
                message = await self._open(
                    table, lambda: channel.send(nonce=nonce, **content.sending())
                )
            except discord.HTTPException as error:
                raise classify(error) from error
        await self.bot.matches.set_board_message(table.match.id, message.id)
        self.bot.matches.records.clear_turn_message(table.match.id)
        self._posted[table.match.id] = 0
        return message

    async def _edit_turn(self, table: Table, message_id: int, body: str, vias: list[Via]) -> bool:
        """Edit the turn's message to `body` and a line for each player deciding now;
        False when that no longer fits or the edit failed (a new message is posted
        instead)."""
        content = joined([body, *ping_lines(table, table.to_act)])
        if len(content) > MESSAGE_LIMIT:
            return False
        users = [table.user_of(s).user_id for s in table.to_act]
        fields = {
            "content": content,
            "allowed_mentions": mentioning(users),
            "view": turn_view(table),
        }
        try:
            await self._edit(table, message_id, vias, lambda: fields)
        except discord.HTTPException:
            log.warning("match %s: could not edit its turn message", table.match.id, exc_info=True)
            return False
        if carries_buttons(table):
            await self._quick_on(table, message_id, vias)
        elif self._quick.get(table.match.id) == message_id:
            del self._quick[table.match.id]  # the edit took its buttons off
        await self._thought(table, message_id, body, vias)
        return True

    async def _thought(
        self, table: Table, message_id: int | None, body: str | None, vias: list[Via]
    ) -> None:
        """Remember the message (`message_id`, its text `body` without the calls) that
        says the AI is thinking, if the match's latest does; an older one that said so
        is edited to its lines alone, since the AI has moved. (Remembered by this process
        only, as the quick buttons are.)"""
        match_id = table.match.id
        old = self._thinking.pop(match_id, None)
        thinking = table.outcome is None and any(table.user_of(s).by_ai for s in table.to_act)
        if message_id is not None and body is not None and thinking:
            self._thinking[match_id] = (message_id, body)
        if old is None or old[0] == message_id:
            return
        try:
            await self._edit(table, old[0], vias, lambda: {"content": old[1]})
        except discord.HTTPException:
            log.info("match %s: could not take the AI's thinking line off", match_id)

    async def _quick_on(self, table: Table, message_id: int | None, vias: list[Via]) -> None:
        """Remember the message carrying the match's quick buttons now (None: no message
        does); the one that carried them before loses its buttons, which could only be
        refused as out of date. (Remembered by this process only: after a restart an
        older message keeps its buttons, still refused.)"""
        match_id = table.match.id
        old = self._quick.pop(match_id, None)
        if message_id is not None:
            self._quick[match_id] = message_id
        if old is None or old == message_id:
            return
        try:
            await self._edit(table, old, vias, lambda: {"view": None})
        except discord.HTTPException:
            log.info("match %s: could not take the old quick buttons off", match_id)

    async def _edit(
        self,
        table: Table,
        message_id: int,
        vias: list[Via],
        fields: Callable[[], dict[str, Any]],
    ) -> None:
        """Edit one of the match's messages to `fields()` (asked anew for each try: a
        picture's file is read once): outside the global limit where an interaction
        serves, through the answer of one whose button is on it, else through the
        followups of the one that posted it; else (or when those fail) in the channel."""
        routes: list[Callable[[], Awaitable[Any]]] = []
        answer = next((v for v in vias if v.edits(message_id)), None)
        if answer is not None:
            routes.append(lambda: answer.interaction.edit_original_response(**fields()))
        poster = self._posters.get(message_id)
        if poster is not None and poster.fresh:
            followup = poster.interaction.followup
            routes.append(lambda: followup.edit_message(message_id, **fields()))
        for route in routes:
            try:
                await route()
                return
            except discord.HTTPException:
                log.info("match %s: an edit through an interaction failed", table.match.id)
        message = self._channel(table).get_partial_message(message_id)
        await self._open(table, lambda: message.edit(**fields()))

    async def _send(
        self,
        row: OutboxRow,
        table: Table,
        text: str,
        users: Iterable[int],
        *,
        view: discord.ui.View | None = None,
        fixed: str | None = None,
        vias: list[Via] | None = None,
    ) -> Sent:
        """Post a notice's public message, once: for a notice read back after a restart
        (its send may have been under way when the process stopped, or done but not yet
        written down) the message is first looked for among the channel's latest ones, by
        its first part, `fixed` (the notice's own lines: what follows them, the deciders'
        lines, is read at delivery and may have changed since; the whole text if None).
        A message of the match is only ever edited once its id is saved (see
        `MatchStore.save_turn_message`), so a message that must be found still reads so."""
        lane = row.notice.lane
        mine = (fixed or text).split("\n")
        if row.recovered and row.created_at is not None:
            since = discord.utils.time_snowflake(datetime.fromisoformat(row.created_at))
            found = await self._sent_before(table, mine, since, self._last_post.get(lane))
            if found is not None:
                self._last_post[lane] = found
                return found
        channel = self._channel(table)
        fields: dict[str, Any] = {"content": text, "allowed_mentions": mentioning(users)}
        fields |= {"view": view} if view is not None else {}
        followed = await self._follow_up(table, vias or [], lambda: fields)
        if followed is not None:
            message, author = followed[0], followed[1].interaction.user.id
        else:
            author = None
            try:
                message = await self._open(
                    table, lambda: channel.send(nonce=nonce_for(row), **fields)
                )
            except discord.HTTPException as error:
                raise classify(error) from error
        if table.match.status == "active":
            self._posted[table.match.id] = self._posted.get(table.match.id, 0) + 1
        sent = self._last_post[lane] = Sent(message.id, "\n".join(mine), author)
        return sent

    async def _follow_up(
        self, table: Table, vias: list[Via], fields: Callable[[], dict[str, Any]]
    ) -> tuple[discord.Message, Via] | None:
        """Post a public message as the followup of the latest of `vias` that posts in the
        match's channel (which can then edit it, see `_edit`), and which one; None when
        none can (the channel's route posts it then)."""
        via = next((v for v in reversed(vias) if v.posts_in(table)), None)
        if via is None:
            return None
        try:
            message = await via.interaction.followup.send(wait=True, **fields())
        except discord.HTTPException:
            log.info("match %s: a followup failed; posting in the channel", table.match.id)
            return None
        self._posters[message.id] = via
        return message, via

    async def _board_posted_before(self, table: Table, row: OutboxRow) -> int | None:
        """For a notice read back after a restart: a message showing this match (its
        lobby or board) that the bot posted since the notice was written and that the
        match doesn't know as its own (its id lost in the crash), if any."""
        if not row.recovered or row.created_at is None:
            return None
        since = discord.utils.time_snowflake(datetime.fromisoformat(row.created_at))
        match = table.match

        def a_board(message: discord.Message) -> bool:
            shown = message.embeds[0]
            return message.id != match.board_message_id and not (
                (shown.description or "").startswith(NOT_BOARDS)
            )

        try:
            channel = self.bot.get_channel(match.channel_id) or await self.bot.fetch_channel(
                match.channel_id
            )
        except discord.HTTPException:
            log.info("match %s: could not read its channel's latest messages", match.id)
            return None
        if not isinstance(channel, discord.abc.Messageable):
            return None
        found = await posted_by_me(self.bot, channel, f"Match #{match.id}", since, a_board)
        if found is not None:
            log.info("match %s: found its board posted before a restart", match.id)
        return found

    async def _sent_before(
        self, table: Table, lines: list[str], since: int, last: Sent | None
    ) -> Sent | None:
        """The bot's message with `lines` among the channel's messages since the
        snowflake `since` (when the send began), if any. Several notices posted together
        share a message, so the lines are looked for where the lane's `last` message
        found or posted left off, then at the start of any later message."""
        me = self.bot.user
        channel_id = table.match.channel_id
        since = max(since, last.id) if last is not None else since
        try:
            channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                return None
            after = discord.Object(since - 1)
            async for message in channel.history(limit=LOOK_BACK, after=after):
                if me is None or message.author.id != me.id:
                    continue
                at = last.lines if last is not None and message.id == last.id else 0
                shown = message.content.split("\n")
                if shown[at : at + len(lines)] == lines:
                    log.info("match %s: found a line posted before a restart", table.match.id)
                    made = message.interaction_metadata
                    author = made.user.id if made is not None else None
                    return Sent(message.id, "\n".join(shown[: at + len(lines)]), author)
        except discord.HTTPException:
            log.info("match %s: could not read its channel's latest messages", table.match.id)
        return None


async def posted_by_me(
    bot: discord.Client,
    channel: discord.abc.Messageable,
    mark: str,
    since: int,
    also: Callable[[discord.Message], bool] = lambda _: True,
) -> int | None:
    """The id of a message the bot posted in `channel` after the snowflake `since` whose
    embed's footer is `mark` or begins with it ("Match #12 · …"), and that `also` takes,
    among the channel's latest; None if there is none or the channel can't be read. It
    finds a message whose post was under way when the process stopped."""
    me = bot.user
    if me is None:
        return None
    try:
        async for message in channel.history(limit=LOOK_BACK, after=discord.Object(since - 1)):
            footer = (message.embeds[0].footer.text or "") if message.embeds else ""
            if (
                message.author.id == me.id
                and (footer == mark or footer.startswith((f"{mark} ", f"{mark}\n")))
                and also(message)
            ):
                return message.id
    except discord.HTTPException:
        log.info("%s: could not read the latest messages of channel %s", mark, channel)
    return None
