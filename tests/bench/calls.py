"""Calls: what Discord is asked per accepted action, over a whole game through the bot.

Each game and variant is played under simcord as in the taps section (a quick button
when it is the move wanted, else a select on the live panel; a player in a hurry), to
its end or DECISIONS decisions, and every REST request the bot makes is sorted by what
it costs a bot token:

- **exempt**: the interaction endpoints (the callback, the original response and
  followups), which Discord keeps out of the global limit;
- **global**: every other request, counted against the bot's 50 requests per second;
- **channel**: the global ones on a channel's message routes (post, edit, delete), which
  also share that channel's own pace (about 5 per 5 s).

The figures are per accepted action (the match's saved actions, set-up included), with
the ceiling they imply for one token (50 / global per action) and, per way of acting
(a quick button under the turn's message, a select on the panel), the global calls a
decision cost. Lobby and start are counted apart from play.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import simcord

from bot.app import ArbiterBot
from bot.service.metrics import route_class
from rules.registry import GAMES
from tests.bench.taps import MODES, PLAYERS, Player, Turn, decide, hurry, running_bot

DECISIONS = 300  # decisions played per mode at most (a game in a hurry may never end)
BY_POST = 20 * 60  # seconds between two decisions in a game by post: every token run out
POSTED_DECISIONS = 100  # decisions played per mode by post
GLOBAL_LIMIT = 50  # requests per second per bot token (interaction endpoints exempt)
CHANNEL = re.compile(r"^/channels/\d+/messages(/\d+)?$")
IDS = re.compile(r"/\d+")


def cost(path: str) -> str:
    """The class of one request: exempt, channel (a global one on a message route) or
    global."""
    if route_class(path) == "interaction":
        return "exempt"
    if CHANNEL.match(path):
        return "channel"
    return "global"


def route(method: str, path: str) -> str:
    """A request's route with its ids taken out (for the per-route breakdown)."""
    return f"{method} {IDS.sub('/{id}', path)}"


@dataclass
class Calls:
    """One mode's requests."""

    label: str
    actions: int = 0
    ended: bool = False
    setup: Counter[str] = field(default_factory=Counter)  # lobby and start, by class
    play: Counter[str] = field(default_factory=Counter)  # everything after, by class
    routes: Counter[str] = field(default_factory=Counter)  # global-limit calls, by route
    ways: dict[str, Counter[str]] = field(default_factory=dict)  # way -> class -> calls
    decisions: Counter[str] = field(default_factory=Counter)  # way -> decisions taken

    @property
    def global_per_action(self) -> float:
        spent = self.play["global"] + self.play["channel"] + self.setup_global
        return spent / max(1, self.actions)

    @property
    def setup_global(self) -> int:
        return self.setup["global"] + self.setup["channel"]

    def per(self, klass: str) -> float:
        return (self.play[klass] + self.setup[klass]) / max(1, self.actions)

    def line(self) -> str:
        g = self.global_per_action
        ceiling = GLOBAL_LIMIT / g if g else float("inf")
        ways = "  ".join(
            f"{way} {(c['global'] + c['channel']) / max(1, self.decisions[way]):.2f}"
            for way, c in sorted(self.ways.items())
        )
        return (
            f"  {self.label:<16}{self.actions:>8}{g:>8.2f}{self.per('channel'):>9.2f}"
            f"{self.per('exempt'):>8.2f}{ceiling:>9.0f}   {ways}"
            f"{'' if self.ended else '  (not ended)'}"
        )


def _tally(requests: list[Any], into: Counter[str]) -> None:
    into.update(cost(r.path) for r in requests)


async def play_mode(game_id: str, variant: str, players: int, between: float = 0) -> Calls:
    """Play one match of a mode to its end, counting the requests; with `between`, that
    many seconds pass after each decision (a game by post), and it stops after
    POSTED_DECISIONS."""
    figures = Calls(f"{game_id.split('-')[0][:8]} {variant}")
    async with running_bot() as (env, bot):
        await _play(env, bot, game_id, variant, players, figures, between)
    return figures


async def _play(
    env: simcord.Env,
    bot: ArbiterBot,
    game_id: str,
    variant: str,
    count: int,
    figures: Calls,
    between: float,
) -> None:
    guild = env.create_guild("Calls")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in PLAYERS[:count]]
    host, *others = members
    since = len(env.http_requests)
    opened = await host.slash(channel, "match new", game=game_id, variant=variant, seed=3)
    assert opened.response is not None
    for member in others:
        await member.click(opened.response, label="Join")
    await host.click(opened.response, label="Start")
    _tally(env.http_requests[since:], figures.setup)
    match_id = (await bot.matches.open_match(channel.id)).id
    by_id = {m.id: Player(m) for m in members}
    turn = Turn()
    for step in range(POSTED_DECISIONS if between else DECISIONS):
        if between and step:
            await env.advance_time(between)
        table = await bot.matches.table(match_id)
        if table.match.status != "active":
            figures.ended = True
            break
        seat = table.to_act[0]
        player = by_id[table.user_of(seat).user_id]
        since = len(env.http_requests)
        way = await decide(bot, channel, table, seat, player, hurry, turn, step, None)
        spent = figures.ways.setdefault(way, Counter())
        _tally(env.http_requests[since:], spent)
        figures.decisions[way] += 1
    await bot.publisher.idle()
    for way in figures.ways.values():
        figures.play.update(way)
    figures.routes = Counter(
        route(r.method, r.path) for r in env.http_requests if cost(r.path) != "exempt"
    )
    figures.actions = len(await bot.store.matches.actions(match_id))


async def measure_calls() -> tuple[list[Calls], list[Calls]]:
    """Every mode the taps section plays: in a hurry, and by post."""
    logging.getLogger("discord").setLevel(logging.WARNING)
    hurried = [await play_mode(g, v, n) for g, v, n, _ in MODES]
    posted = [await play_mode(g, v, n, BY_POST) for g, v, n, _ in MODES]
    return hurried, posted


def calls_table(measured: tuple[list[Calls], list[Calls]]) -> list[str]:
    """The calls section."""
    hurried, posted = measured
    rows = hurried + posted
    header = (
        f"  {'mode':<16}{'actions':>8}{'global':>8}{'channel':>9}{'exempt':>8}{'ceiling':>9}"
        "   global per decision, by way"
    )
    lines = [
        "Discord calls per accepted action, a whole game through the bot (global: counted",
        "against the token's 50/s; channel: those on a channel's message routes; exempt:",
        "interaction endpoints; ceiling: accepted actions/s per token)",
        "- a player in a hurry (every interaction's token still serves):",
        header,
    ]
    lines += [row.line() for row in hurried]
    lines += [
        f"- by post: {BY_POST // 60} minutes between decisions (every token run out),"
        f" {POSTED_DECISIONS} decisions:",
        header,
    ]
    lines += [row.line() for row in posted]
    lines += [
        f"  {GAMES['historia-command'].name}: not measured here: a Historia table reports"
        " as it plays; its tests count its calls"
    ]
    every: Counter[str] = Counter()
    for row in rows:
        every.update(row.routes)
    lines.append(
        "  global routes over every game: " + ", ".join(f"{r} {n}" for r, n in every.most_common(6))
    )
    return lines
