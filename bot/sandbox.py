"""`python -m bot --sandbox`: try Arbiter in a browser, without a Discord token.

The real, unmodified bot runs under simcord (an in-memory Discord) on a
simulated server with one game channel and six players. simcord's local
preview serves a page, on 127.0.0.1 only, where a person plays every seat by
switching between the players. Matches are kept in a throwaway database in a
temporary directory, deleted when the sandbox stops, so every run starts fresh.

The page itself never moves the simulated clock (`env.advance_time` from here
would collide with a click arriving at that moment and leave the page stuck);
simcord's own timers carry it forward in real time, so match clocks and
reminders run as they would on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import simcord
from simcord.preview import Preview

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from rules.registry import GAMES

# How long the page waits for an action to be done (simcord's default is 5 s): the moves
# the AI makes in a row after it, each thought over and posted at the channel's pace,
# are part of it. Past it the page says the outcome is uncertain and shows an old state.
# Any of the bot's timers due within it is waited for too (so nothing the bot saves
# for later waits minutes: see `sandbox_settings`).
SETTLE_SECONDS = 30.0
SERVER = "Arbiter Sandbox"
BOT_NAME = "Arbiter"  # simcord names its bot user "TestBot"
CHANNEL = "game-table"
PLAYERS: tuple[tuple[str, str], ...] = (
    ("ada", "Ada"),
    ("basil", "Basil"),
    ("cleo", "Cleo"),
    ("dev", "Dev"),
    ("emil", "Emil"),
    ("faye", "Faye"),  # six: a Historia table seats up to six civilizations
)


def _listed(words: list[str]) -> str:
    return f"{', '.join(words[:-1])} and {words[-1]}" if len(words) > 1 else "".join(words)


SEATS = _listed([display for _, display in PLAYERS])
# What this page can't show, and how to see a tournament through without it.
THREADS = (
    f"**This page shows #{CHANNEL} only**: a thread (each table of a tournament plays in "
    "one) can't be opened here, and a link to a thread or a message (`<#…>` in the "
    "standings, **Board**, `/mod matches`) opens Discord's own site, where this sandbox "
    "isn't. To see a tournament through here, record each table's result as Ada with "
    "`/tournament record player: result:`: the standings and the next round follow as "
    "on Discord."
)
GAME_IDS = ", ".join(f"`{game_id}`" for game_id in GAMES)
WELCOME = f"""\
**Welcome to the Arbiter sandbox.** You can play every seat here: {SEATS}.
**This page doesn't update by itself**: an action shows what followed it once all is \
done (the AI's moves too); for anything later (a clock's reminder), press \
**Refresh preview** (top of the page).
1. As Ada, type `/match new`, choose a game ({GAME_IDS}), then a variant: the menu \
says what each one is. On this page a menu of suggestions opens once you type in the box: \
type a space to see them all.
2. Switch player with **Viewing as** at the top of the page: the others press **Join**, \
then Ada presses **Start**.
3. On your turn: `/hand` (or **My hand** on the board) opens your panel, for your eyes only: \
your cards and a menu of your moves, updated in place as you play; `/play action:` offers the \
same moves as you type (a space: all of them). `/match status` says whose turn it is and \
links to the board; `/card` shows any card's text; `/help` lists every command.
4. Ada is this server's moderator: `/mod`, `/settings` and `/tournament new` (a whole \
event, each pairing's match in a thread) are hers.
{THREADS}"""


@dataclass(frozen=True)
class Sandbox:
    """A running sandbox: the simulated Discord, its game channel, players and page."""

    env: simcord.Env
    channel: simcord.ChannelHandle
    players: tuple[simcord.MemberActor, ...]
    preview: Preview

    @property
    def bot(self) -> ArbiterBot:
        """The bot under the simulation."""
        bot = self.env.bot
        assert isinstance(bot, ArbiterBot)
        return bot

    @property
    def url(self) -> str:
        """The page's address; it carries the page's access key."""
        return self.preview.url


def sandbox_settings(db_path: Path) -> Settings:
    """Settings for the sandbox bot: its own database, no token, commands synced globally,
    the AI thinking in a thread (simcord follows work handed to the event loop's
    executor, not a worker process). The page shows an action once everything it led to
    is done, within SETTLE_SECONDS: so the AI acts without a pause to read along by,
    which would only be waited out, and the delivery bookkeeping is saved at once rather
    than minutes later, a timer every action near it would wait for."""
    return Settings(
        arbiter_db=str(db_path),
        discord_token=None,
        arbiter_guild=None,
        arbiter_ai_workers=0,
        arbiter_ai_pause=0.0,
        arbiter_save_after=0.0,
    )


@contextlib.asynccontextmanager
async def open_sandbox(db_path: Path, *, port: int | None = None) -> AsyncIterator[Sandbox]:
    """Start the bot under simcord with the sandbox's server, and serve its page.

    `port` pins the page's port on 127.0.0.1 (default: a free one). On exit the
    page closes, simcord shuts down and the bot is closed.
    """
    bot = create_bot(sandbox_settings(db_path))
    try:
        async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
            assert bot.user is not None
            await bot.user.edit(username=BOT_NAME)  # PATCH /users/@me, as on Discord
            guild = env.create_guild(SERVER)
            channel = guild.create_text_channel(CHANNEL, topic="Play a match here.")
            moderators = guild.create_role(
                "Moderators", permissions=discord.Permissions(manage_guild=True)
            )
            players = tuple(
                guild.add_member(
                    env.create_user(name, global_name=display),
                    roles=[moderators] if n == 0 else [],
                )
                for n, (name, display) in enumerate(PLAYERS)
            )
            await guild.create_webhook(channel, "Sandbox guide").send(WELCOME)
            async with env.preview(channel, viewers=players, layout="channel", port=port) as page:
                yield Sandbox(env, channel, players, page)
    finally:
        await bot.close()


def instructions(url: str) -> str:
    """What the terminal says once the page is up."""
    players = ", ".join(display for _, display in PLAYERS)
    return (
        f"Arbiter sandbox: the real bot on a simulated Discord server, no token needed.\n\n"
        f"  Open {url}\n\n"
        f"You are in #{CHANNEL} with {len(PLAYERS)} players ({players});\n"
        f"switch between them with 'Viewing as' at the top of the page.\n"
        f"The page doesn't update by itself: an action shows what followed it once\n"
        f"all is done (the AI's moves too); press 'Refresh preview' for anything later.\n"
        f"Start with /match new: a game ({', '.join(GAMES)}),\n"
        f"then a variant; join as the others, start as Ada, then take turns with /play\n"
        f"and /hand.\n"
        f"The page shows #{CHANNEL} only: a tournament's tables play in threads it\n"
        f"can't open (links to them lead to Discord's own site). See a tournament\n"
        f"through by recording each table's result as Ada: /tournament record.\n"
        f"Matches live in a throwaway database, deleted when the sandbox stops.\n"
        f"Stop with Ctrl+C here, or 'End preview session' on the page."
    )


async def run_sandbox(port: int | None = None) -> None:
    """Run the sandbox until its page is closed, Ctrl+C or SIGTERM; then stop cleanly."""
    if not logging.getLogger().handlers:  # warnings and the bot's error reports to stderr
        discord.utils.setup_logging(level=logging.WARNING)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled: list[signal.Signals] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows: Ctrl+C still works
            loop.add_signal_handler(signum, stop.set)
            handled.append(signum)
    try:
        with tempfile.TemporaryDirectory(prefix="arbiter-sandbox-") as tmp:
            async with open_sandbox(Path(tmp) / "arbiter-sandbox.db", port=port) as sandbox:
                print(instructions(sandbox.url), flush=True)
                waits = [
                    asyncio.create_task(sandbox.preview.wait_closed()),
                    asyncio.create_task(stop.wait()),
                ]
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in waits:
                        task.cancel()
                    await asyncio.gather(*waits, return_exceptions=True)
                print("\nStopping the sandbox...", file=sys.stderr, flush=True)
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
    print("Sandbox stopped.", file=sys.stderr, flush=True)
