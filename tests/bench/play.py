"""The cost of one `/play` under simcord: Arbiter beside a bot that does nothing.

Both bots run in simcord the same way, one after the other in the same
process: one server, one channel, and only the `/play` slash itself is timed
(from dispatch until simcord has settled every piece of work it caused), in real
time and in the process's CPU time (every thread's: aiosqlite's included). For
Arbiter each timed call also counts what it cost: the hops to aiosqlite's
database thread (each a round trip), the COMMITs, and the REST calls to Discord
(the publisher's included: simcord settles its work inside the call).

simcord settles a call for at most `Harness.settle` seconds (its own default, 5): a
bot's timer due later is not waited for. After each call simcord's virtual clock
moves on `Harness.pace` seconds (players that far apart), untimed: work the bot put
off until then (the store writes the publisher's bookkeeping behind, saved with the
next transaction or once its delay is over) runs in that pause, and what it costs is
counted as the call's, apart ("after"). Were the virtual clock to stand still, such a
timer would fire on simcord's real-time fallback instead, in the middle of whatever
call is under way then.

Three questions are asked of Arbiter's action path: what a `/play` costs in each
game played with `/play` (`time_arbiter`), whether it costs more late in a long
match than early (`time_windows`), and whether it costs more with many open matches
in the database than with one (`time_crowd`).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

import aiosqlite
import discord
import simcord
from discord import app_commands
from discord.ext import commands

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from bot.service import outbox
from bot.service.metrics import Metrics
from bot.service.store import MatchRow, Store
from rules.core import Game
from rules.registry import GAMES
from tests.bench.engine import MODES, SHORT_NAMES, Policy
from tests.harness import fast_settle

NAMES = ("alice", "bob", "carol", "dave")  # the players of the timed channel, in seat order
Span = tuple[int, int]  # action numbers of a match, first and last included
# Why a game with no mode in `engine.MODES` is not timed with `/play`.
NOT_PLAYED = {
    "historia-command": "its table reports what it plays with the `/historia` commands, not "
    "`/play` (and during an Era the rules wait for nobody)",
}


@dataclass(frozen=True)
class Harness:
    """How simcord runs the calls: it settles each for at most `settle` seconds, and
    moves its virtual clock on `pace` seconds after each (untimed; 0: not at all)."""

    settle: float = 5.0
    pace: float = 1.0
    poll: float = 0.0005  # seconds: how often simcord's settle polls (see `fast_settle`)


HARNESS = Harness()


@dataclass(frozen=True)
class Mode:
    """A game and variant the bench plays: how many players, and the random policy that
    picks their actions (the engine benchmark's)."""

    game: Game
    variant: str
    players: int
    policy: Policy

    @property
    def label(self) -> str:
        """Short: "T&N 2p"."""
        return f"{SHORT_NAMES[self.game.id]} {self.variant}"


def find_mode(spec: str) -> Mode:
    """The mode named `game-id:variant` (`mystic-vale:2p`) among the engine's modes."""
    game_id, _, variant = spec.partition(":")
    for game, known, players, policy in MODES:
        if game.id == game_id and known == variant:
            return Mode(game, variant, players, policy)
    names = ", ".join(f"{game.id}:{known}" for game, known, _, _ in MODES)
    raise ValueError(f"unknown mode {spec!r}; known: {names}")


def not_timed() -> list[str]:
    """A line for each game of the registry that no mode plays, saying why."""
    played = {game.id for game, *_ in MODES}
    return [
        f"{game.name} ({game_id}) is not timed: "
        f"{NOT_PLAYED.get(game_id, 'the engine benchmark has no random policy for it')}."
        for game_id, game in GAMES.items()
        if game_id not in played
    ]


@dataclass(frozen=True)
class Call:
    """One timed `/play` on Arbiter and what it cost."""

    seconds: float
    cpu: float  # seconds of the process's CPU time
    trips: int  # database round trips, in the call and in the pause after it
    commits: int  # COMMITs, the same
    rest: int  # REST calls to Discord, the same
    after: tuple[int, int, int]  # the round trips, COMMITs and REST calls of the pause
    seq: int  # the action of its match it was to be (the match's version + 1)
    accepted: bool  # the match moved on by one action


@dataclass(frozen=True)
class Timings:
    """The timed calls of one bot, in seconds; the counts are of accepted calls only,
    each call's pause after it included (`after` alone: what the pause cost)."""

    label: str
    samples: list[float]
    games: int = 0
    trips: list[int] = field(default_factory=list)  # per call: database round trips
    commits: list[int] = field(default_factory=list)  # per call: COMMITs
    rest: list[int] = field(default_factory=list)  # per call: REST calls to Discord
    refused: int = 0  # calls the bot refused (none expected: every action is legal)
    cpu: list[float] = field(default_factory=list)  # per call: CPU seconds
    after: list[tuple[int, int, int]] = field(default_factory=list)  # per call: the pause's

    @classmethod
    def of(cls, label: str, calls: list[Call], games: int = 0) -> Timings:
        """The figures of these calls."""
        accepted = [c for c in calls if c.accepted]
        return cls(
            label,
            [c.seconds for c in calls],
            games,
            [c.trips for c in accepted],
            [c.commits for c in accepted],
            [c.rest for c in accepted],
            len(calls) - len(accepted),
            [c.cpu for c in calls],
            [c.after for c in accepted],
        )

    @property
    def mean_ms(self) -> float:
        """Mean, in milliseconds."""
        return sum(self.samples) / len(self.samples) * 1e3

    def later(self, which: int) -> list[int]:
        """Per accepted call, what its pause cost: round trips (0), COMMITs (1), REST (2)."""
        return [counts[which] for counts in self.after]

    @property
    def cpu_ms(self) -> float:
        """Mean CPU time, in milliseconds."""
        return sum(self.cpu) / len(self.cpu) * 1e3 if self.cpu else float("nan")

    def percentile_ms(self, q: float) -> float:
        """The nearest-rank `q` percentile (0-100), in milliseconds."""
        ordered = sorted(self.samples)
        rank = max(1, -(-len(ordered) * q // 100))
        return ordered[int(rank) - 1] * 1e3


class SqlCount:
    """Counts the hops to aiosqlite's database thread (each one a round trip, a cursor's
    fetch included) and the COMMITs among them, while `watching`."""

    def __init__(self) -> None:
        self.trips = 0
        self.commits = 0

    @contextmanager
    def watching(self) -> Iterator[None]:
        original = aiosqlite.Connection._execute
        counter = self

        async def counted(conn: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            counter.trips += 1
            if args and isinstance(args[0], str) and args[0].lstrip().upper() == "COMMIT":
                counter.commits += 1
            return await original(conn, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
        try:
            yield
        finally:
            aiosqlite.Connection._execute = original  # type: ignore[method-assign]


class ErrorCount(logging.Handler):
    """Counts the errors the bot logs (an apology with a reference is one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class DoNothingBot(commands.Bot):
    """A minimal discord.py bot: one `/play action:str` that only answers.

    With `traffic` it also makes the Discord requests an accepted action of Arbiter's
    makes beside its answer: it edits one message of the channel (Arbiter's board) and
    another (the turn's message), both posted at the first call. That is the floor of
    any bot that shows an action the way Arbiter does, with no game and no database.
    """

    def __init__(self, *, traffic: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.traffic = traffic
        self.shown: list[discord.Message] = []

    async def setup_hook(self) -> None:
        """Register `/play` and sync it."""

        @app_commands.command(name="play", description="Do nothing.")
        async def play(interaction: discord.Interaction, action: str) -> None:
            await interaction.response.send_message(f"ok: {action}", ephemeral=True)
            if not self.traffic:
                return
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            if not self.shown:
                self.shown = [await channel.send("board"), await channel.send("turn")]
            for message in self.shown:
                await message.edit(content=f"{message.content[:5]} after {action}")

        self.tree.add_command(play)
        await self.tree.sync()


async def time_do_nothing(
    plays: int,
    warmup: int,
    *,
    traffic: bool = False,
    harness: Harness = HARNESS,
) -> Timings:
    """`plays` timed `/play` calls on the do-nothing bot, paced as Arbiter's are."""
    label = "do-nothing bot" if not traffic else "do-nothing + 2 edits"
    return await time_bot(DoNothingBot(traffic=traffic), label, plays, warmup, harness)


async def time_bot(
    bot: commands.Bot, label: str, plays: int, warmup: int, harness: Harness
) -> Timings:
    """`plays` timed `/play` calls on a bot of the benchmark's own, after `warmup`
    untimed ones; the bot is closed after."""
    samples: list[float] = []
    cpu: list[float] = []
    rest: list[int] = []
    try:
        with fast_settle(harness.poll):
            await _time_calls(bot, plays + warmup, harness, samples, cpu, rest)
    finally:
        await bot.close()
    return Timings(label, samples[warmup:], rest=rest[warmup:], cpu=cpu[warmup:])


async def _time_calls(
    bot: commands.Bot,
    calls: int,
    harness: Harness,
    samples: list[float],
    cpu: list[float],
    rest: list[int],
) -> None:
    """Time `calls` `/play` on the do-nothing bot."""
    async with simcord.run(bot, settle_timeout=harness.settle) as env:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("bench")
        alice = guild.add_member(env.create_user("alice"))
        for n in range(calls):
            before = len(env.http_requests)
            start, start_cpu = time.perf_counter(), time.process_time()
            result = await alice.slash(channel, "play", action=f"move {n}")
            samples.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            assert result.acknowledged
            if harness.pace:
                await env.advance_time(harness.pace)
            rest.append(len(env.http_requests) - before)


@dataclass(frozen=True)
class Sample:
    """What one accepted `/play` of Arbiter wrote and requested: the action's row and the
    snapshot after it, and the JSON bodies of its answer and of its board's and turn
    message's edits (as simcord logged them)."""

    snapshot: str
    action: str
    events: str
    answer: dict[str, Any]
    board: dict[str, Any]
    turn: dict[str, Any]


def _view_of(components: list[dict[str, Any]]) -> discord.ui.View | None:
    """A view with the buttons of logged components (their rows, labels, ids, styles)."""
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(components):
        for item in row.get("components", []):
            view.add_item(
                discord.ui.Button(
                    label=item.get("label"),
                    custom_id=item.get("custom_id"),
                    url=item.get("url"),  # a link button (the Board link) has no id
                    style=discord.ButtonStyle(item.get("style", 1)),
                    row=number,
                )
            )
    return view if view.children else None


class IoFloorBot(commands.Bot):
    """Arbiter's own I/O for one accepted action, and nothing else: a `/play` that commits
    the sample's action through Arbiter's `Store` (on a file, with its pragmas: one
    transaction writing the action, the snapshot and a notice, synced first as the
    service does), then answers with the sample's answer and edits two messages with its
    board's and turn message's bodies. No game, no rendering, no clocks, no publisher:
    the cost of keeping a match durable and its table shown, which no work on the rules
    or the service can take away."""

    def __init__(self, sample: Sample, db_path: Path) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.sample = sample
        self.db_path = db_path
        self.shown: list[discord.Message] = []
        self.version = 0

    async def setup_hook(self) -> None:
        """Open the store with one match in play, and register `/play`."""
        store = self.store = await Store.open(self.db_path, now=discord.utils.utcnow)
        sample = self.sample
        match = await store.matches.create(
            guild_id=None,
            channel_id=1,
            game="bench",
            variant="bench",
            seed=0,
            rules_version="bench",
            created_by=1,
            host_name="alice",
            pack="bench",
        )
        await store.matches.start(match.id, snapshot=sample.snapshot, teams={0: 0})
        board = discord.Embed.from_dict(sample.board["embeds"][0])
        board_view = _view_of(sample.board.get("components", []))
        turn_view = _view_of(sample.turn.get("components", []))

        @app_commands.command(name="play", description="Commit and show the sample.")
        async def play(interaction: discord.Interaction, action: str) -> None:
            await store.db.sync()
            saved = await store.matches.append_action(
                match.id,
                expected_version=self.version,
                seat=0,
                user_id=1,
                action=sample.action,
                events=sample.events,
                snapshot=sample.snapshot,
                status="active",
                notices=[outbox.say(match.id, sample.turn["content"])],
            )
            assert saved
            self.version += 1
            await interaction.response.send_message(sample.answer["content"], ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            if not self.shown:
                self.shown = [await channel.send(embed=board), await channel.send("turn")]
            await self.shown[0].edit(embed=board, view=board_view)
            await self.shown[1].edit(content=sample.turn["content"], view=turn_view)

        self.tree.add_command(play)
        await self.tree.sync()

    async def close(self) -> None:
        """Close the store, then the bot."""
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()


async def time_io_floor(
    sample: Sample, plays: int, warmup: int, db_path: Path, *, harness: Harness = HARNESS
) -> Timings:
    """`plays` timed `/play` calls on the I/O floor bot repeating `sample`."""
    return await time_bot(IoFloorBot(sample, db_path), "Arbiter's I/O", plays, warmup, harness)


@dataclass
class Seating:
    """A channel, its players in seat order, and the match last opened there."""

    channel: simcord.ChannelHandle
    players: list[simcord.MemberActor]
    match_id: int | None = None
    active: bool = False  # that match is under way


class ArbiterTable:
    """Arbiter under simcord, with one game channel (`main`) and its players: opens
    matches of one mode with slash commands and plays them with `/play`, every call
    timed and counted. A new match opens whenever the last one ended."""

    def __init__(
        self, env: simcord.Env, bot: ArbiterBot, mode: Mode, sql: SqlCount, seed: int, pace: float
    ) -> None:
        self.env = env
        self.pace = pace
        self.bot = bot
        self.mode = mode
        self.sql = sql
        self.seed = seed
        self.games = 0  # matches opened in `main`
        self.chooser = random.Random(seed)
        self.crowd_chooser = random.Random(-1 - seed)  # for the others: `chooser` is main's
        self.guild = env.create_guild("Bench")
        self.main = self.seat_players("bench", NAMES[: mode.players])
        self.others: list[Seating] = []  # the matches `fill` made, least recently played first
        self.sample: Sample | None = None  # the latest accepted call of `main` going on

    def seat_players(self, channel: str, names: tuple[str, ...]) -> Seating:
        """A new text channel and a new member for each name."""
        return Seating(
            self.guild.create_text_channel(channel),
            [self.guild.add_member(self.env.create_user(name)) for name in names],
        )

    def move(self, channel: str) -> None:
        """Go on in a new channel, with the same players (the match open in the old one
        stays as it is)."""
        self.main = Seating(self.guild.create_text_channel(channel), self.main.players)

    async def open(self) -> None:
        """A new match in `main`, dealt from the next seed: `/match new` by the first
        player, `/match join` by the others, `/match start`."""
        self.games += 1
        host, *others = self.main.players
        channel = self.main.channel
        await host.slash(
            channel,
            "match new",
            game=self.mode.game.id,
            variant=self.mode.variant,
            seed=self.seed + self.games,
        )
        for player in others:
            await player.slash(channel, "match join")
        await host.slash(channel, "match start")
        match = await self.bot.matches.open_match(channel.id)
        assert match.status == "active", match.status
        self.main.match_id, self.main.active = match.id, True

    async def play(self, at: Seating | None = None, chooser: random.Random | None = None) -> Call:
        """One timed `/play` in `at` (default `main`, where a match opens first if none is
        under way) by a player to act, of the action the mode's policy picks from their
        legal actions, read from the match's snapshot (untimed); then the pause."""
        at = at or self.main
        chooser = chooser or self.chooser
        if not at.active:
            assert at is self.main, "only the main channel opens its own matches"
            await self.open()
        assert at.match_id is not None
        table = await self.bot.matches.table(at.match_id)
        seat = chooser.choice(table.to_act)
        user_id = table.user_of(seat).user_id
        player = next(p for p in at.players if p.id == user_id)
        game, match = table.game, table.match
        assert match.snapshot is not None
        state = game.state_model.model_validate_json(match.snapshot)
        action = self.mode.policy(chooser, game.legal_actions(state, seat))

        before = self.counts()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = await player.slash(at.channel, "play", action=action.key)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        assert result.acknowledged
        during = self.counts()
        if self.pace:
            await self.env.advance_time(self.pace)
        end = self.counts()
        trips, commits, rest = (end[i] - before[i] for i in range(3))
        after = (end[0] - during[0], end[1] - during[1], end[2] - during[2])

        now = await self.bot.matches.get(at.match_id)
        at.active = now.status == "active"
        accepted = now.version == match.version + 1
        if accepted and at is self.main and at.active:
            await self._keep_sample(now, self.env.http_requests[before[2] : end[2]])
        return Call(seconds, cpu, trips, commits, rest, after, match.version + 1, accepted)

    async def _keep_sample(self, match: MatchRow, requests: list[simcord.HttpLogEntry]) -> None:
        """Keep this call's writes and requests as the sample the I/O floor repeats, when
        it made the usual three requests: its answer, the board's edit, the turn's edit."""
        edits = [r for r in requests if r.method == "PATCH" and r.json]
        answers = [r for r in requests if r.path.endswith("/callback") and r.json]
        board = [r for r in edits if r.json.get("embeds")]
        turn = [r for r in edits if r.json.get("content")]
        if len(requests) != 3 or not (answers and board and turn):
            return
        (logged,) = await self.bot.store.matches.actions(match.id, last=1)
        assert match.snapshot is not None
        self.sample = Sample(
            snapshot=match.snapshot,
            action=logged.action,
            events=logged.events,
            answer=answers[0].json["data"],
            board=board[0].json,
            turn=turn[0].json,
        )

    def counts(self) -> tuple[int, int, int]:
        """Round trips, COMMITs and REST calls so far."""
        return self.sql.trips, self.sql.commits, len(self.env.http_requests)

    async def fill(self, matches: int, actions: int) -> float:
        """`matches` more matches of the mode, each in a channel of its own with players
        of its own, opened, joined and started through the match service, then
        `actions` `/play` calls in each (another random stream than `main`'s); the
        seconds it took, with the publisher's work settled."""
        start = time.perf_counter()
        service = self.bot.matches
        seatings = self.others
        for n in range(matches):
            names = tuple(f"p{n}-{i}" for i in range(self.mode.players))
            at = self.seat_players(f"crowd-{n}", names)
            host, *others = at.players
            lobby = await service.new_lobby(
                guild_id=self.guild.id,
                channel_id=at.channel.id,
                user_id=host.id,
                name=host.name,
                game=self.mode.game.id,
                variant=self.mode.variant,
                seed=10_000 + n,
            )
            at.match_id = lobby.match.id
            for player in others:
                await service.join(at.match_id, player.id, player.name)
            started = await service.start(at.match_id, host.id)
            at.active = started.match.status == "active"
            seatings.append(at)
            await self.env.advance_time(self.pace)  # the publisher's posts, settled
        for _ in range(actions):
            for at in seatings:
                if at.active:
                    await self.play(at, self.crowd_chooser)
        await self.env.settle(timeout=60)
        return time.perf_counter() - start

    async def play_others(self, calls: int) -> list[Call]:
        """`calls` timed `/play` calls among the matches `fill` made, each in the least
        recently played one still under way."""
        played = []
        while len(played) < calls:
            at = next((o for o in self.others if o.active), None)
            if at is None:
                break
            played.append(await self.play(at, self.crowd_chooser))
            self.others.remove(at)
            self.others.append(at)
        return played


class Unmetered(Metrics):
    """Metrics that count nothing: Arbiter as it would be without them."""

    def applied(self, game: str, variant: str) -> None:
        pass

    def refused(self, game: str, variant: str, error: BaseException) -> None:
        pass

    @contextmanager
    def handling_of(self, kind: str, name: str) -> Iterator[None]:
        yield

    def transaction(self, seconds: float) -> None:
        pass

    def decided(self, game: str, level: str, seconds: float, *, fallback: bool = False) -> None:
        pass

    def drawn(self, game: str, seconds: float) -> None:
        pass

    def gave_up(self, reason: str) -> None:
        pass


@asynccontextmanager
async def arbiter(
    db_path: Path,
    mode: Mode,
    *,
    seed: int = 0,
    harness: Harness = HARNESS,
    paced: bool = True,
    metered: bool = True,
) -> AsyncIterator[ArbiterTable]:
    """Arbiter on a new database at `db_path`, running under simcord with a table for
    `mode` (unless `paced`, keeping to no channel pace; unless `metered`, counting no
    metrics); a RuntimeError once it is closed if it logged any error meanwhile."""
    settings = Settings(
        _env_file=None,
        arbiter_db=str(db_path),
        discord_token=None,
        arbiter_guild=None,
        **({} if paced else {"arbiter_channel_every": 0}),
    )
    bot = create_bot(settings)
    if not metered:
        bot.metrics = bot.pictures.metrics = Unmetered()
    errors = ErrorCount()
    watched = [logging.getLogger(name) for name in ("bot", "cogs")]
    for logger in watched:
        logger.addHandler(errors)
    sql = SqlCount()
    try:
        with sql.watching(), fast_settle(harness.poll):
            async with simcord.run(bot, settle_timeout=harness.settle) as env:
                yield ArbiterTable(env, bot, mode, sql, seed, harness.pace)
    finally:
        for logger in watched:
            logger.removeHandler(errors)
        await bot.close()
    if errors.count:
        raise RuntimeError(f"Arbiter logged {errors.count} errors during the benchmark")


async def time_arbiter(
    mode: Mode,
    plays: int,
    warmup: int,
    db_path: Path,
    *,
    harness: Harness = HARNESS,
    pictures: str | None = None,
) -> tuple[Timings, Sample | None]:
    """`plays` timed `/play` calls in matches of `mode` on Arbiter, after `warmup`
    untimed ones, each with its database round trips, COMMITs and REST calls counted;
    and the sample of what one of them wrote and requested (see `Sample`). `pictures`:
    the server's board pictures setting (the default otherwise)."""
    async with arbiter(db_path, mode, harness=harness) as table:
        if pictures is not None:
            store = table.bot.store
            await store.settings.update_guild(table.guild.id, board_pictures=pictures)
        calls = [await table.play() for _ in range(warmup + plays)]
    return Timings.of(f"Arbiter ({mode.label})", calls[warmup:], table.games), table.sample


@dataclass(frozen=True)
class MetricsCost:
    """`/play` with the metrics counted and without, in alternating rounds of one mode."""

    mode: Mode
    on: list[Timings]
    off: list[Timings]

    @staticmethod
    def cpu(rounds: list[Timings]) -> float:
        """Mean CPU ms per call over these rounds."""
        return fmean(t.cpu_ms for t in rounds)

    @property
    def share(self) -> float:
        """What the metrics add to a call's CPU time, as a share of it without them."""
        return self.cpu(self.on) / self.cpu(self.off) - 1.0

    @property
    def noise(self) -> float:
        """The spread of a round's CPU time between rounds of the same kind, as a share:
        what a difference below it can't tell from chance."""
        spreads = [stdev(t.cpu_ms for t in rounds) for rounds in (self.on, self.off)]
        return max(spreads) / self.cpu(self.off)


async def time_metrics(
    mode: Mode,
    plays: int,
    warmup: int,
    tmp: Path,
    *,
    rounds: int = 3,
    harness: Harness = HARNESS,
) -> MetricsCost:
    """`rounds` of `plays` timed `/play` calls with the metrics and as many without,
    alternating (so that the machine's drift falls on both), each on a new database."""
    on: list[Timings] = []
    off: list[Timings] = []
    for n in range(rounds):
        for metered, kept in ((True, on), (False, off)):
            db_path = tmp / f"metrics-{n}-{int(metered)}.db"
            async with arbiter(db_path, mode, harness=harness, metered=metered) as table:
                calls = [await table.play() for _ in range(warmup + plays)]
            kept.append(Timings.of(f"Arbiter ({mode.label})", calls[warmup:], table.games))
    return MetricsCost(mode, on, off)


@dataclass(frozen=True)
class GameFigures:
    """One mode's `/play` on Arbiter, the do-nothing bot's timed just before it, and
    Arbiter's I/O alone for one of its actions, timed after (None: no call of the mode's
    made the usual three requests)."""

    mode: Mode
    bare: Timings
    arbiter: Timings
    io: Timings | None

    @property
    def mean_ratio(self) -> float:
        """Arbiter's mean over the bare bot's."""
        return self.arbiter.mean_ms / self.bare.mean_ms

    @property
    def p99_ratio(self) -> float:
        """Arbiter's p99 over the bare bot's."""
        return self.arbiter.percentile_ms(99) / self.bare.percentile_ms(99)


async def time_games(
    modes: list[Mode], plays: int, warmup: int, tmp: Path, *, harness: Harness = HARNESS
) -> list[GameFigures]:
    """Each mode in turn: the do-nothing bot's `/play`, then Arbiter's, on a new database,
    then Arbiter's I/O floor repeating one of its actions."""
    figures = []
    for mode in modes:
        bare = await time_do_nothing(plays, warmup, harness=harness)
        db_path = tmp / f"play-{mode.game.id}-{mode.variant}.db"
        timed, sample = await time_arbiter(mode, plays, warmup, db_path, harness=harness)
        io = None
        if sample is not None:
            io_path = tmp / f"io-{mode.game.id}-{mode.variant}.db"
            io = await time_io_floor(sample, plays, warmup, io_path, harness=harness)
        figures.append(GameFigures(mode, bare, timed, io))
    return figures


@dataclass(frozen=True)
class Windows:
    """`/play` early and late in long matches of one mode."""

    mode: Mode
    early: Timings
    late: Timings
    early_span: Span  # the action numbers timed early
    late_span: Span  # and late
    asked_late: Span  # the late actions asked for (later than `late_span` if none got there)
    lengths: list[int]  # the actions each match opened lasted, or was played to
    pooled: int  # the matches whose calls the windows hold


async def time_windows(
    mode: Mode,
    early: Span,
    late: Span,
    matches: int,
    tries: int,
    db_path: Path,
    *,
    harness: Harness = HARNESS,
) -> Windows:
    """Matches of `mode` played with `/play` until `matches` of them reached action
    `late[1]` or `tries` were opened; the calls of actions `early` and `late` pooled
    over the matches that reached it. If none did, the late window is the last actions
    of the longest match before the one that ended it."""
    asked = late
    runs: list[list[Call]] = []
    async with arbiter(db_path, mode, harness=harness) as table:
        while len(runs) < max(1, tries) and sum(r[-1].seq >= late[1] for r in runs) < matches:
            table.move(f"long-{len(runs) + 1}")
            calls = [await table.play()]
            while table.main.active and calls[-1].seq < late[1]:
                calls.append(await table.play())
            runs.append(calls)
    lengths = [r[-1].seq for r in runs]
    full = [r for r in runs if r[-1].seq >= late[1]][:matches]
    if not full:
        longest = max(runs, key=len)
        last = longest[-1].seq - 1  # the action before the one that ended the match
        late = (max(early[1] + 1, last - (late[1] - late[0])), last)
        full = [longest]

    def window(span: Span) -> list[Call]:
        return [c for r in full for c in r if span[0] <= c.seq <= span[1]]

    return Windows(
        mode,
        Timings.of(f"actions {early[0]}–{early[1]}", window(early)),
        Timings.of(f"actions {late[0]}–{late[1]}", window(late)),
        early,
        late,
        asked,
        lengths,
        len(full),
    )


@dataclass(frozen=True)
class Crowd:
    """`/play` with the timed match alone in the database, and among many open ones."""

    mode: Mode
    alone: Timings
    crowded: Timings
    elsewhere: Timings  # in the crowded database, each call in another of the others
    open_matches: int  # matches open in the crowded database, the timed one included
    crowd_actions: int  # `/play` calls made in each of the others
    fill_seconds: float  # how long making the others took


async def time_crowd(
    mode: Mode,
    plays: int,
    warmup: int,
    open_matches: int,
    crowd_actions: int,
    tmp: Path,
    *,
    harness: Harness = HARNESS,
) -> Crowd:
    """The same `/play` calls in the same matches (same seeds, same picks) twice, each
    time on a new database: first with the timed match alone, then with
    `open_matches - 1` other started matches in other channels, made first. Then
    `plays` more in the crowded database, each in the least recently played other
    match (the store holds only its most recently used matches in memory). Both keep to
    no channel pace: the others are started through the service, so the publisher posts
    their boards in their channels, and a second apart (the pause) would keep every
    one of their lanes waiting on Discord's pace, which is not what this measures."""
    async with arbiter(tmp / "alone.db", mode, harness=harness, paced=False) as table:
        alone = [await table.play() for _ in range(warmup + plays)]
    async with arbiter(tmp / "crowd.db", mode, harness=harness, paced=False) as table:
        fill_seconds = await table.fill(open_matches - 1, crowd_actions)
        crowded = [await table.play() for _ in range(warmup + plays)]
        elsewhere = await table.play_others(plays)
    return Crowd(
        mode,
        Timings.of("1 open match", alone[warmup:]),
        Timings.of(f"{open_matches:,} open matches", crowded[warmup:]),
        Timings.of(f"{open_matches:,}, another each", elsewhere),
        open_matches,
        crowd_actions,
        fill_seconds,
    )


def growth(before: list[float], after: list[float]) -> tuple[float, float]:
    """How much the mean grew from `before` to `after`, and twice its standard error."""
    spread = sum(stdev(s) ** 2 / len(s) for s in (before, after) if len(s) > 1)
    return fmean(after) - fmean(before), 2 * spread**0.5
