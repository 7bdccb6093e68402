"""Taps: how many taps a turn takes, played through the real bot, counted as a newcomer
on a phone counts them, from the message that calls them (nobody types `/hand`).

Each game and variant is played under simcord. A decision is one tap on a button under
the message that calls the player (a quick action: Mystic Vale's Push, Stop and the end
of the Harvest, Tooth & Nail's Recharge Step and End your turn, Command of Nature's End
turn) when the button is the move wanted; else it is taken on the private view (the live
panel that updates in place): a tap to open its menu and one to pick (a tap on **Next**
for each page the wanted choice lies beyond), or, for cards chosen together, a tap to
open the multi-select, one per card and, for more than one, one to close it. A button
that stands for several choices whose names are private (Command of Nature's End turn
with cards to discard) answers with them as buttons only its player sees: a tap more.
The panel is opened when it does not show the player's decision: one tap on **My
hand** (or **Respond**) under the message that calls them, or two (**Board**, then **My
hand** on the board) when that message has neither. The bot redraws an open panel
when the decision comes back to it (for as long as Discord lets it).

Two players are measured. One in a hurry passes every other turn of theirs as fast as
the game allows (End turn, Stop, the end of the Harvest, letting an attack through) and
plays the turns between as the sensible player does, so that the turns they pass come
with a table built up (Command Zone Troops, drained ones, a full field); only the turns
passed are counted. The sensible player plays routine turns (in Command of Nature two
actions and one buy, then End turn; in Tooth & Nail up to two plays; in Mystic Vale one
push, then stop and one purchase). Both have set the game's standing answers (`/profile
answer`) once, before the match. A turn is the span of decisions while one player (or
team) has the turn, the others' answers in it (a response window) included; set-up
decisions are not counted. The players answer at once.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

import simcord

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from bot.ui.interactions import PAGE_SIZE
from rules.registry import GAMES
from tests.harness import fast_settle

PLAYERS = ("alice", "bob", "carol", "dave")
MODES: list[tuple[str, str, int, dict[str, str]]] = [
    ("tooth-and-nail", "2p", 2, {}),
    ("tooth-and-nail", "3p", 3, {}),
    ("tooth-and-nail", "alliance", 2, {}),
    ("tooth-and-nail", "4p", 4, {}),
    ("command-of-nature", "2p", 2, {}),
    ("command-of-nature", "4p", 4, {}),
    ("mystic-vale", "2p", 2, {}),
    ("mystic-vale", "4p", 4, {}),
    ("mystic-vale", "solo", 1, {}),
]
NOT_MEASURED = {
    "historia-command": "a Historia table plays on the table and reports to Arbiter as it goes: "
    "nobody has a turn to take in it",
}
# The choices that move the game on, best first (by key kind): a player in a hurry takes
# the first offered.
MOVE_ON = ("end", "done", "stop", "let", "pass", "phase", "finish", "skip", "decline", "no")
MAX_DECISIONS = 1500
MAX_TURNS = 60  # turns counted per match (a table in a hurry may never end one)


@dataclass
class Turn:
    """One turn's taps."""

    taps: int = 0  # every tap: buttons, the panel opened, a menu opened, a choice, a page
    panel: int = 0  # decisions taken on the panel (the rest by a button)


@dataclass
class Figures:
    """One mode under one policy."""

    label: str
    policy: str
    turns: list[Turn] = field(default_factory=list)
    ended: bool = False

    def quantile(self, attr: str, q: float) -> float:
        values = sorted(getattr(t, attr) for t in self.turns)
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))]

    def line(self) -> str:
        n = len(self.turns)
        taps = [t.taps for t in self.turns]
        panel = [t.panel for t in self.turns]
        return (
            f"  {self.label:<16}{self.policy:<10}{n:>6}{median(taps) if taps else 0:>8.1f}"
            f"{self.quantile('taps', 0.9):>6.0f}{max(taps, default=0):>6}"
            f"{median(panel) if panel else 0:>8.1f}{'' if self.ended else '  (not ended)':>14}"
        )


Policy = Callable[["Choices", Any, int], str | None]


@dataclass
class Choices:
    """What a player can do now: quick buttons under the latest message, the panel's menu
    (all its pages), and cards chosen together."""

    quick: list[str]
    menu: list[str]
    together: dict[str, Any] | None
    view: dict[str, Any]
    question: str


def kind(key: str) -> str:
    return key.split("|", 1)[0]


def hurry(choices: Choices, state: Any, step: int) -> str | None:
    """The choice that moves the game on (one without a card to name first); the cards
    chosen together (None: the multi-select's first cards) when they end the turn."""
    offered = choices.quick + choices.menu
    for wanted in MOVE_ON:
        if wanted in offered:
            return wanted
    if choices.together is not None:
        return None
    for wanted in MOVE_ON:
        for key in offered:
            if kind(key) == wanted:
                return key
    return offered[0] if offered else None


ROUTINE = {
    # per game: the kinds a sensible player takes, and how many of each in a turn
    "command-of-nature": (("summon", "attack", "play", "draw"), 2, ("buy",), 1),
    "tooth-and-nail": (("play", "deploy", "summon", "attack", "recruit"), 2, (), 0),
    "mystic-vale": (("push",), 1, ("buy", "vale"), 1),
}
# Steps a sensible player takes as they come, rather than passing them: Tooth & Nail's
# Recharge Step (a card drawn for each Command Zone Troop, a War Zone Troop recharged).
STEPS = ("recharge|draw", "ready|")


class Hurried:
    """A player who passes every other turn of theirs as fast as the game allows (see
    `hurry`) and plays the turns between as `sensible`; only the turns passed count."""

    def __init__(self, game: str) -> None:
        self.routine = sensible(game)
        self.seen: dict[Any, bool] = {}  # turn -> passed
        self.turns: dict[Any, int] = {}  # the active seat -> their turns so far

    def passes(self, turn_id: Any) -> bool:
        """Whether this turn is one passed in a hurry (decided when it is first seen)."""
        if turn_id not in self.seen:
            seat = turn_id[0] if isinstance(turn_id, tuple) else None
            count = self.turns[seat] = self.turns.get(seat, 0) + 1
            self.seen[turn_id] = count % 2 == 0
        return self.seen[turn_id]

    def __call__(self, choices: Choices, turn_id: Any, step: int) -> str | None:
        if self.passes(turn_id):
            return hurry(choices, turn_id, step)
        return self.routine(choices, turn_id, step)


def sensible(game: str) -> Policy:
    """A routine turn: up to N of the game's main actions, then one purchase, then on."""
    main, most, buys, most_buys = ROUTINE[game]
    taken: dict[str, int] = {}

    def choose(choices: Choices, turn_id: Any, step: int) -> str | None:
        done = taken.setdefault(str(turn_id), 0)
        offered = choices.quick + choices.menu
        if "respond" in choices.question.casefold() or any(kind(k) == "let" for k in offered):
            return hurry(choices, turn_id, step)
        for key in offered:
            if key.startswith(STEPS):
                return key
        if done < most:
            for key in offered:
                if kind(key) in main:
                    taken[str(turn_id)] = done + 1
                    return key
        bought = taken.get(f"{turn_id}:buy", 0)
        if bought < most_buys:
            for key in offered:
                if kind(key) in buys:
                    taken[f"{turn_id}:buy"] = bought + 1
                    return key
        return hurry(choices, turn_id, step)

    return choose


class Player:
    """A member playing from their panel and the buttons under the latest message."""

    def __init__(self, actor: simcord.MemberActor) -> None:
        self.actor = actor
        self.panel: Any = None


async def play_mode(game_id: str, variant: str, players: int, policy_name: str) -> Figures:
    """Play one match of a mode to its end (or MAX_DECISIONS) and count each turn."""
    game = GAMES[game_id]
    figures = Figures(f"{game_id.split('-')[0][:8]} {variant}", policy_name)
    policy = Hurried(game_id) if policy_name == "hurry" else sensible(game_id)
    async with running_bot() as (env, bot):
        await _play(env, bot, game, variant, players, policy, figures)
    return figures


@asynccontextmanager
async def running_bot(
    db: Path | None = None, *, paced: bool = True
) -> AsyncIterator[tuple[simcord.Env, ArbiterBot]]:
    """A new bot on a new database (in a temporary directory unless `db` is given),
    running under simcord, which settles each interaction as soon as it is done; unless
    `paced`, its requests in a channel keep to no pace."""
    with tempfile.TemporaryDirectory() as tmp, fast_settle():
        path = db or Path(tmp) / "bench.db"
        pace = {} if paced else {"arbiter_channel_every": 0}
        settings = Settings(_env_file=None, arbiter_db=str(path), discord_token=None, **pace)
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                yield env, bot
        finally:
            await bot.close()


async def _play(
    env: simcord.Env,
    bot: ArbiterBot,
    game: Any,
    variant: str,
    count: int,
    policy: Policy,
    figures: Figures,
) -> None:
    guild = env.create_guild("Taps")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in PLAYERS[:count]]
    host, *others = members
    opened = await host.slash(channel, "match new", game=game.id, variant=variant, seed=3)
    lobby = opened.response
    assert lobby is not None
    for member in others:
        await member.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    for member in members:  # each player sets the game's standing answers once
        for preference in game.preferences:
            await member.slash(
                channel, "profile answer", preference=f"{game.id}:{preference}", on=True
            )
    match_id = (await bot.matches.open_match(channel.id)).id
    by_id = {m.id: Player(m) for m in members}
    current: Any = None
    turn = Turn()
    for step in range(MAX_DECISIONS):
        table = await bot.matches.table(match_id)
        if table.match.status != "active":
            figures.ended = True
            break
        key = (table.active, table.turn) if table.active is not None else None
        if key != current:
            if current is not None and counted(policy, current):
                figures.turns.append(turn)
            current, turn = key, Turn()
            if len(figures.turns) >= MAX_TURNS:
                break
        seat = table.to_act[0]
        player = by_id[table.user_of(seat).user_id]
        await decide(bot, channel, table, seat, player, policy, turn, step, current)
    last = current is not None and turn.taps and len(figures.turns) < MAX_TURNS
    if last and counted(policy, current):
        figures.turns.append(turn)


def counted(policy: Policy, turn_id: Any) -> bool:
    """Whether a turn counts for the policy's figures (a hurried player's passed ones)."""
    return not isinstance(policy, Hurried) or policy.passes(turn_id)


async def decide(
    bot: ArbiterBot,
    channel: Any,
    table: Any,
    seat: int,
    player: Player,
    policy: Policy,
    turn: Turn,
    step: int,
    turn_id: Any,
) -> str:
    """One decision: the quick button if it is the choice wanted, else the panel; which
    of the two ("quick" or "panel")."""
    actor = player.actor
    pv = await bot.matches.view(table.match.id, actor.id)
    quick = _quick_buttons(channel, actor, table)
    menu = [c.key for c in pv.choices]
    together = pv.view.get("together") if isinstance(pv.view.get("together"), dict) else None
    if together is not None:
        menu = [k for k in menu if not k.startswith(f"{together['kind']}|")]
    choices = Choices(list(quick), menu, together, pv.view, pv.question or "")
    wanted = policy(choices, turn_id, step)
    counted = turn.taps
    if wanted is not None and wanted in quick and wanted not in menu:
        # A button standing for several choices (End turn with cards to discard): its
        # press answers with them, privately, each a button of its own.
        await actor.click(quick[wanted][0], custom_id=quick[wanted][1])
        turn.taps += 1
        quick = {k: v for k, v in _quick_buttons(channel, actor, table).items() if k in menu}
        choices = Choices(list(quick), menu, together, pv.view, pv.question or "")
        wanted = policy(choices, turn_id, step)
    if wanted is not None and wanted in quick:
        await actor.click(quick[wanted][0], custom_id=quick[wanted][1])
        turn.taps += 1
        return "quick"
    turn.panel += 1
    if player.panel is None or not _shows(player.panel, menu, together):
        # A tap on My hand (or Respond) under the call; without one, Board then My hand.
        turn.taps += 1 if _hand_button(channel, actor, table) else 2
        player.panel = (await actor.slash(channel, "hand")).response
    panel = player.panel
    if wanted is None:
        assert together is not None
        values = [o["value"] for o in _select(panel, "arbiter:together")["options"]]
        await actor.select(
            panel, values[: together["count"]], custom_id=_select_id(panel, "together")
        )
        count = together["count"]
        turn.taps += 1 + count + (count > 1)  # open, a tap per card, close (one closes it)
    else:
        index = menu.index(wanted)
        for _ in range(index // PAGE_SIZE):
            await actor.click(panel, label="Next")
            turn.taps += 1
        await actor.select(panel, [wanted], custom_id=_select_id(panel, "arbiter:act"))
        turn.taps += 2  # open the menu, pick
    assert turn.taps > counted
    return "panel"


def _hand_button(channel: Any, actor: Any, table: Any) -> bool:
    """Whether the latest message calling this player carries My hand (or Respond)."""
    for message in reversed(list(channel.history(viewer=actor))[-5:]):
        if f"<@{actor.id}>" not in (message.content or ""):
            continue
        ids = [
            getattr(child, "custom_id", None) or ""
            for row in message.components
            for child in getattr(row, "children", [])
        ]
        return f"arbiter:hand:{table.match.id}" in ids
    return False


def _shows(panel: Any, menu: list[str], together: dict[str, Any] | None) -> bool:
    """Whether the panel, as the player sees it now, offers their current decision (a
    panel is redrawn when the decision comes back to its player, while Discord lets it)."""
    shown: list[str] = []
    chosen_together = False
    for row in panel.components:
        for child in row["components"]:
            custom_id = str(child.get("custom_id", ""))
            if custom_id.startswith("arbiter:act:"):
                shown = [o["value"] for o in child["options"]]
            chosen_together |= custom_id.startswith("arbiter:together:")
    return shown == menu[:PAGE_SIZE] and chosen_together == (together is not None)


def _quick_buttons(channel: Any, actor: Any, table: Any) -> dict[str, tuple[Any, str]]:
    """The quick buttons for this player under the channel's latest messages: key ->
    (message, custom id)."""
    found: dict[str, tuple[Any, str]] = {}
    for message in list(channel.history(viewer=actor))[-5:]:
        for row in message.components:
            for child in getattr(row, "children", []):
                custom_id = getattr(child, "custom_id", None) or ""
                if custom_id.startswith("arbiter:quick:") and not getattr(child, "disabled", False):
                    _, _, match, seat, _count, key = custom_id.split(":", 5)
                    if (
                        int(match) == table.match.id
                        and table.user_of(int(seat)).user_id == actor.id
                    ):
                        found[key] = (message, custom_id)
    return found


def _select(panel: Any, prefix: str) -> dict[str, Any]:
    for row in panel.components:
        for child in row["components"]:
            if str(child.get("custom_id", "")).startswith(prefix):
                return child
    raise AssertionError(f"no {prefix} on the panel")


def _select_id(panel: Any, prefix: str) -> str:
    return str(
        _select(panel, prefix if prefix.startswith("arbiter") else f"arbiter:{prefix}")["custom_id"]
    )


async def measure_taps() -> list[Figures]:
    """Every mode under both policies."""
    logging.getLogger("discord").setLevel(logging.WARNING)
    found = []
    for game_id, variant, players, _ in MODES:
        for policy in ("hurry", "sensible"):
            found.append(await play_mode(game_id, variant, players, policy))
    return found


def taps_table(rows: list[Figures]) -> list[str]:
    """The taps section."""
    lines = [
        "Taps per turn through the bot, as a newcomer counts them from the message that calls",
        "them (a button: 1; the panel opened: 1 under the call, 2 by the board; a menu: open",
        "and pick, a tap per page; hurry: the turns passed; panel: decisions taken there)",
        f"  {'mode':<16}{'policy':<10}{'turns':>6}{'median':>8}{'p90':>6}{'max':>6}{'panel':>8}",
    ]
    lines += [row.line() for row in rows]
    lines += [f"  {GAMES[g].name}: not measured: {why}." for g, why in NOT_MEASURED.items()]
    return lines
