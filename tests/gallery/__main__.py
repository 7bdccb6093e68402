"""`python -m tests.gallery [--out DIR]`: screenshots of what players see, for the README.

For each scene below the real bot runs in the sandbox (`bot.sandbox`: simcord, a
throwaway database in a temporary directory, the preview page on 127.0.0.1). The
sandbox's players open a match with a fixed seed through `/match new`, Join (the host
sets the scene's options with `/match option`) and Start, and play scripted moves
through `/play action:`, each chosen from the choices the command's autocomplete offers.
The board's picture, as the bot attached it, is saved as it is (`<scene>-picture.png`).
Headless Chromium then opens the preview page, as one player looks at the channel
(`<scene>-board.png`, and the board message alone on a page 390 and 1400 px wide,
`<scene>-board-390.png` and `-1400.png`, the message's height and the picture's shown
size printed; then the whole text board its Full board button answers with,
`<scene>-full.png`; for some
scenes also the message calling the decider, with its buttons: `<scene>-turn.png`),
types `/hand` in the message box and looks at the private reply (`<scene>-hand.png`),
then clicks its menu of actions open (`<scene>-menu.png`) and, for some scenes, picks a
choice from it and looks at the same message updated in place, mid-turn
(`<scene>-panel.png`).

Deterministic (fixed seeds, fixed move preferences, simcord's virtual clock) and bounded
in time. Needs `apt-get install -y chromium` and `.venv/bin/pip install -e '.[gallery]'`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import logging
import math
import random
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import discord

from bot.sandbox import PLAYERS, Sandbox, open_sandbox
from tests.bot.playout import play_randomly

if TYPE_CHECKING:
    import simcord
    from playwright.async_api import Browser, Page, Route

CHROMIUM = Path("/usr/bin/chromium")
INSTALL = "apt-get install -y chromium\n  .venv/bin/pip install -e '.[gallery]'"
DEFAULT_OUT = Path(__file__).resolve().parent / "png"
VIEWPORT = {"width": 1400, "height": 1000}
SHOWN_AT = (390, 1400)  # page widths (a phone's, a desktop's) the board's picture is measured at
RUN_SECONDS = 420  # the whole run, scenes and browser included
WAIT_MS = 15_000  # any one wait on the page
MAX_HEIGHT = 4000  # the viewport grows to show a tall message whole, up to this
GROW_TRIES = 8  # a message's picture grows with the page (up to its own size)
MENU_ROOM = 160  # below a menu's box: the composer, and room for the menu to open
MAX_MOVES = 200  # a scene that reaches no position worth showing by then fails
NAMES = dict(PLAYERS)  # the sandbox's players: user name -> the name the page shows
TOURNAMENT_SEED = 26  # the tournament picture's random moves


@dataclass(frozen=True)
class Scene:
    """A position worth showing: a match opened with a fixed seed, then scripted moves.

    Each move is taken by the player the match waits for, through `/play action:`,
    with the choice autocomplete offers that best fits `prefer`: the first pattern (a
    regular expression matching a choice's whole key) that fits any offered choice
    picks among those that fit it, rotating with the move number so that the moves
    vary; when none fits, the first choice offered. After `moves` moves, play goes on
    until one of the choices offered fits `until` (say, the middle of a turn). The
    pictures show the last player the match waits for (or the seat `viewer`, counted
    from 0 in joining order). The host sets `options` in the lobby first; `turn` adds a
    picture of the message that calls the decider, with its buttons.
    """

    game: str
    variant: str
    players: int
    seed: int
    moves: int
    prefer: tuple[str, ...]
    until: str | None = None
    viewer: int | None = None
    options: tuple[tuple[str, str], ...] = ()  # set by the host with `/match option`
    turn: bool = False  # also `<scene>-turn.png`: the message calling the decider
    # also `<scene>-panel.png`: the `/hand` panel after a choice from its open menu (the
    # first that fits these patterns, like `prefer`), updated in place mid-turn
    panel: tuple[str, ...] = ()
    # Instead of `/play` moves: commands in order, each by a seat (counted from 0) with
    # its options ("a table that reports as it plays", Historia's, waits for nobody).
    script: tuple[tuple[int, str, tuple[tuple[str, Any], ...]], ...] = ()
    ai: str | None = None  # the AI, at this level, takes the seats past `players`

    @property
    def slug(self) -> str:
        """The scene's name, which starts its file names."""
        return f"{self.game}-{self.variant}" + ("-ai" if self.ai else "")


TOOTH_AND_NAIL = (  # build both zones, attack once troops stand in the War Zone
    r"faction\|.*",
    r"keep\|yes",
    r"recharge\|draw",
    r"play\|.*",
    r"attack\|[^|]*\|none",
    r"end",
)
COMMAND_OF_NATURE = (  # set up, then attack, summon and play cards before moving on
    r"sage\|.*",
    r"formation\|.*",
    r"attack\|.*",
    r"summon\|.*",
    r"play\|.*",
    r"let",
    r"phase\|actions",
    r"buy\|.*",
    r"phase\|.*",
    r"done",
)

MYSTIC_VALE = (  # leaders, then harvest what the field gives and buy what it pays for
    r"leader\|.*",
    r"vale\|.*",
    r"upgrade",
    r"buy\|.*",
    r"use",
    r"choose\|.*",
    r"done",
    r"stop",
)

MID_TURN = r"(play|attack)\|.*"  # Tooth & Nail: an Action Step with something to do
PHASE_II = r"(attack|summon|play)\|.*"  # Command of Nature: the actions phase
HARVEST = r"(buy|vale)\|.*"  # Mystic Vale: a Harvest with something to buy
PLANTING = r"push"  # Mystic Vale: a Planting, Push or Stop


def _say(seat: int, command: str, **options: Any) -> tuple[int, str, tuple[tuple[str, Any], ...]]:
    return (seat, f"historia {command}", tuple(options.items()))


HISTORIA_3P = (  # Era I under way: a shared territory claimed, a power in force, a tie
    _say(0, "civilization", name="Greeks"),
    _say(1, "civilization", name="Egyptians"),
    _say(2, "civilization", name="Persians"),
    _say(0, "begin"),
    _say(0, "territory add", name="Attica"),
    _say(0, "territory add", name="Macedonia"),
    _say(1, "territory add", name="Nile Delta"),
    _say(0, "territory add", name="Ionia"),
    _say(1, "territory add", name="Ionia"),
    _say(2, "territory add", name="Persis"),
    _say(0, "level", track="military", value=2),
    _say(1, "level", track="military", value=3),
    _say(1, "level", track="technology", value=2),
    _say(2, "level", track="technology", value=4),
    _say(0, "cubes", count=1, **{"from": "supply", "to": "bank"}),
    _say(1, "cubes", count=2, **{"from": "supply", "to": "used"}),
    _say(0, "command", power="command|shared|bank"),
    _say(1, "command", power="command|technology|used"),
    _say(1, "turn"),
    _say(2, "territory add", name="Babylon"),
)
HISTORIA_4P = (  # a report disputed: the match is paused until the table settles it
    _say(0, "civilization", name="Romans"),
    _say(1, "civilization", name="Carthage"),
    _say(2, "civilization", name="Gauls"),
    _say(3, "civilization", name="Iberians"),
    _say(0, "begin"),
    _say(0, "territory add", name="Latium"),
    _say(1, "territory add", name="Africa"),
    _say(2, "territory add", name="Gallia"),
    _say(3, "territory add", name="Hispania"),
    _say(1, "territory add", name="Hispania"),
    _say(1, "level", track="military", value=4),
    _say(3, "dispute", report="6"),
)

SCENES: tuple[Scene, ...] = (
    Scene(
        "tooth-and-nail",
        "2p",
        2,
        seed=11,
        moves=18,
        prefer=TOOTH_AND_NAIL,
        until=MID_TURN,
        panel=(r"play\|.*",),
    ),
    Scene("tooth-and-nail", "4p", 4, seed=5, moves=30, prefer=TOOTH_AND_NAIL, until=MID_TURN),
    Scene(
        "tooth-and-nail",
        "2p",
        1,
        seed=11,
        moves=10,
        prefer=TOOTH_AND_NAIL,
        until=MID_TURN,
        ai="strong",
        turn=True,
    ),
    Scene(
        "command-of-nature",
        "2p",
        2,
        seed=3,
        moves=19,
        prefer=COMMAND_OF_NATURE,
        until=PHASE_II,
        panel=(r"summon\|.*", r"draw"),
    ),
    Scene("command-of-nature", "4p", 4, seed=3, moves=28, prefer=COMMAND_OF_NATURE, until=PHASE_II),
    Scene(
        "mystic-vale",
        "2p",
        2,
        seed=11,
        moves=90,
        prefer=MYSTIC_VALE,
        until=HARVEST,
        options=(("leaders", "on"),),
    ),
    Scene("mystic-vale", "4p", 4, seed=5, moves=110, prefer=MYSTIC_VALE, until=PLANTING, turn=True),
    Scene(
        "mystic-vale",
        "solo",
        1,
        seed=11,
        moves=14,
        prefer=MYSTIC_VALE,
        until=HARVEST,
        options=(("leaders", "off"), ("nemesis", "fallen-druid"), ("track", "standard")),
    ),
    Scene(
        "historia-command",
        "3p",
        3,
        seed=1,
        moves=0,
        prefer=(),
        viewer=2,
        script=HISTORIA_3P,
        turn=True,
    ),
    Scene("historia-command", "4p", 4, seed=1, moves=0, prefer=(), viewer=1, script=HISTORIA_4P),
)


class GalleryError(Exception):
    """The gallery cannot be made; the message says why."""


class BotErrors(logging.Handler):
    """Remembers the errors the bot logs (an apology with a reference, say)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record's message if it comes from the bot."""
        if record.name.split(".")[0] in ("bot", "cogs"):
            self.seen.append(record.getMessage())


@dataclass(frozen=True)
class Position:
    """Where a scene stopped: the board's message and whose view to show."""

    board_message_id: int
    viewer: simcord.MemberActor
    turn_message_id: int | None = None  # the message calling the decider


def require_browser() -> None:
    """Stop with the install commands if Chromium or Playwright is missing."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"Chromium ({CHROMIUM})")
    if importlib.util.find_spec("playwright") is None:
        missing.append("Playwright (the Python package)")
    if missing:
        raise SystemExit(
            f"The gallery needs {' and '.join(missing)}. Install them with:\n  {INSTALL}"
        )


def pick(offered: list[dict[str, Any]], prefer: tuple[str, ...], move: int) -> dict[str, Any]:
    """The offered choice a scene's preferences take at this move (see `Scene`)."""
    for pattern in prefer:
        fits = [c for c in offered if re.fullmatch(pattern, str(c["value"]))]
        if fits:
            return fits[move % len(fits)]
    return offered[0]


async def play_scene(scene: Scene, sandbox: Sandbox) -> Position:
    """Open the scene's match, join, start and play its moves through the commands."""
    channel, seats = sandbox.channel, sandbox.players[: scene.players]
    host, *others = seats
    against = {"ai": scene.ai} if scene.ai else {}
    lobby = await host.slash(
        channel, "match new", game=scene.game, variant=scene.variant, seed=scene.seed, **against
    )
    if lobby.response is None or not lobby.response.embeds:
        raise GalleryError(f"{scene.slug}: /match new opened no lobby")
    for player in others:
        await player.click(lobby.response, label="Join")
    for name, value in scene.options:
        await host.slash(channel, "match option", name=name, value=value)
    await host.click(lobby.response, label="Start")
    match = await sandbox.bot.matches.open_match(channel.id)
    if match.status != "active":
        raise GalleryError(f"{scene.slug}: the match did not start ({match.status})")

    if scene.script:
        return await play_script(scene, sandbox, match.id)

    async def deciding() -> simcord.MemberActor:
        table = await sandbox.bot.matches.table(match.id)
        while table.to_act and all(table.user_of(s).by_ai for s in table.to_act):
            await sandbox.bot.players.settled()  # the AI's move, after its pause
            table = await sandbox.bot.matches.table(match.id)
        if not table.to_act:
            raise GalleryError(f"{scene.slug}: nobody is to act (the match is over?)")
        user_id = table.user_of(table.to_act[0]).user_id
        return next(p for p in seats if p.id == user_id)

    for move in range(MAX_MOVES + 1):
        player = await deciding()
        offered = await player.autocomplete(channel, "play", "action", "")
        if not offered:
            raise GalleryError(f"{scene.slug}: move {move}: {player.name} is offered nothing")
        if move >= scene.moves and (
            scene.until is None or any(re.fullmatch(scene.until, c["value"]) for c in offered)
        ):
            names = "; ".join(str(c["name"]) for c in offered)
            print(
                f"  then {NAMES[player.name]} decides, offered {len(offered)}: {names}", flush=True
            )
            break
        if move == MAX_MOVES:
            raise GalleryError(f"{scene.slug}: no choice fits {scene.until!r} in {move} moves")
        choice = pick(offered, scene.prefer, move)
        played = await player.slash(channel, "play", action=str(choice["value"]))
        reply = played.response.content if played.response is not None else ""
        if not reply.startswith("✅"):
            raise GalleryError(f"{scene.slug}: move {move}: {choice['value']} refused: {reply}")
        print(f"  {move + 1:>2}. {NAMES[player.name]}: {choice['name']}", flush=True)

    viewer = seats[scene.viewer] if scene.viewer is not None else player
    match = await sandbox.bot.matches.get(match.id)
    if match.board_message_id is None:
        raise GalleryError(f"{scene.slug}: the match has no board message")
    turn = await sandbox.bot.store.matches.turn_message(match.id)
    return Position(match.board_message_id, viewer, turn.message_id if turn else None)


async def play_script(scene: Scene, sandbox: Sandbox, match_id: int) -> Position:
    """Run a scene's commands, each by its seat; every one must be accepted."""
    channel, seats = sandbox.channel, sandbox.players[: scene.players]
    for step, (seat, command, options) in enumerate(scene.script):
        player = seats[seat]
        done = await player.slash(channel, command, **dict(options))
        replies = [m.content for m in [*done.followups, done.response] if m is not None]
        if not any(r.startswith("✅") for r in replies):
            raise GalleryError(f"{scene.slug}: step {step}: /{command} refused: {replies}")
        print(f"  {step + 1:>2}. {NAMES[player.name]}: /{command} {dict(options)}", flush=True)
    viewer = seats[scene.viewer or 0]
    match = await sandbox.bot.matches.get(match_id)
    if match.board_message_id is None:
        raise GalleryError(f"{scene.slug}: the match has no board message")
    turn = await sandbox.bot.store.matches.turn_message(match_id)
    return Position(match.board_message_id, viewer, turn.message_id if turn else None)


# The preview page (simcord/preview/static): `window.simcordPreview` reports its state.
READY = "() => Boolean(window.simcordPreview && window.simcordPreview.ready)"
VIEWING = "(id) => window.simcordPreview.ready && window.simcordPreview.viewerId === id"
SETTLED_STATUS = (
    """() => !document.getElementById("action-status").textContent.startsWith("Loading")"""
)
SEQUENCE = "() => (window.simcordPreview.lastAction || {}).sequence || 0"
SETTLED = """(before) => {
  const s = window.simcordPreview, a = s.lastAction;
  return s.ready && a && a.sequence > before && a.settlement === "settled" ? a : null;
}"""
AWAY = (VIEWPORT["width"] - 8, 56)  # the mouse rests on the channel's header, hovering nothing
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
IMAGES = "() => [...document.images].every((i) => i.complete)"  # pictures loaded: no layout shift


async def view_as(page: Page, name: str) -> None:
    """Pick a player in the page's "Viewing as" select and wait for their view."""
    (viewer_id,) = await page.select_option("#viewer-picker", label=name)
    await page.wait_for_function(VIEWING, arg=viewer_id)
    await page.wait_for_function(SETTLED_STATUS)  # the toolbar's status catches up too


async def run_command(page: Page, command: str) -> str:
    """Type a slash command without options in the message box, pick it from the
    command list and send it, as a person would; the id of the reply message."""
    before = await page.evaluate(SEQUENCE)
    box = page.locator("#channel-composer-input")
    await box.click()
    await box.press_sequentially(command)
    active = page.locator("#command-picker-listbox .command-entry[aria-selected='true'] strong")
    await active.filter(has_text=re.compile(f"^{re.escape(command)}$")).wait_for()
    await page.keyboard.press("Enter")  # picks the command from the list
    await page.locator(".command-chip", has_text=command).wait_for()
    await page.keyboard.press("Enter")  # sends it
    action = await (await page.wait_for_function(SETTLED, arg=before)).json_value()
    replies = [o["messageId"] for o in action.get("outcomes", []) if o.get("kind") == "response"]
    if action.get("rejected") or not replies:
        raise GalleryError(f"the page did not run {command}: {action}")
    return str(replies[0])


async def shoot(
    page: Page, message_id: int | str, path: Path, *, block: Literal["start", "end"]
) -> None:
    """Scroll a message of the channel into view (`block`: "start" or "end") and save
    the page as a PNG; the viewport grows (and stays grown) for a message taller than
    the channel."""
    message = page.locator(f"#channel-message-list [data-message-id='{message_id}']")
    await message.wait_for()
    await page.wait_for_function(IMAGES)
    for _ in range(GROW_TRIES):  # the channel's height follows the viewport's a frame late
        await page.evaluate(FRAMES)
        height = await message.evaluate("(e) => e.getBoundingClientRect().height")
        room = await page.locator("#channel-timeline").evaluate(
            "(e) => Math.min(e.clientHeight, window.innerHeight - e.getBoundingClientRect().top)"
        )
        viewport = page.viewport_size or VIEWPORT
        if height + 32 <= room or viewport["height"] >= MAX_HEIGHT:
            break
        taller = min(MAX_HEIGHT, viewport["height"] + math.ceil(height + 32 - room))
        await page.set_viewport_size({"width": VIEWPORT["width"], "height": taller})
        await page.wait_for_function(READY)
    await message.evaluate("(e, block) => e.scrollIntoView({block})", block)
    await page.mouse.move(*AWAY)
    await page.evaluate(FRAMES)
    await page.wait_for_function(READY)
    await page.screenshot(path=str(path))


async def shown_at(page: Page, message_id: int | str, path: Path, width: int) -> str:
    """The board message as a `width` px wide page shows it, saved as a PNG of that
    message alone; how tall the message is there and what its picture measures
    ("message 612 px tall, picture 400×225 px")."""
    await page.set_viewport_size({"width": width, "height": VIEWPORT["height"]})
    await page.wait_for_function(READY)
    message = page.locator(f"#channel-message-list [data-message-id='{message_id}']")
    await page.wait_for_function(IMAGES)
    tall = await message.evaluate("(e) => e.getBoundingClientRect().height")
    height = min(MAX_HEIGHT, max(VIEWPORT["height"], math.ceil(tall) + 240))
    await page.set_viewport_size({"width": width, "height": height})  # the message whole
    await page.wait_for_function(READY)
    await message.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    await page.mouse.move(width - 8, 56)
    await page.evaluate(FRAMES)
    box = await message.locator("img.embed-image").first.bounding_box()
    if box is None:
        raise GalleryError(f"no picture on the board at {width} px")
    tall = await message.evaluate("(e) => e.getBoundingClientRect().height")
    await message.screenshot(path=str(path))
    await page.set_viewport_size(VIEWPORT)
    await page.wait_for_function(READY)
    await page.evaluate(FRAMES)
    return f"message {round(tall)} px tall, picture {round(box['width'])}×{round(box['height'])} px"


async def press(page: Page, message_id: int | str, label: str) -> str:
    """Click a message's button by its label, as a person would; the id of the reply."""
    message = page.locator(f"#channel-message-list [data-message-id='{message_id}']")
    before = await page.evaluate(SEQUENCE)
    await message.get_by_role("button", name=label).click()
    action = await (await page.wait_for_function(SETTLED, arg=before)).json_value()
    replies = [o["messageId"] for o in action.get("outcomes", []) if o.get("kind") == "response"]
    if action.get("rejected") or not replies:
        raise GalleryError(f"the page did not press {label}: {action}")
    return str(replies[0])


async def open_menu(page: Page, message_id: int | str) -> None:
    """Click a message's select menu open, so that its options show."""
    message = page.locator(f"#channel-message-list [data-message-id='{message_id}']")
    trigger = message.locator(".select-trigger").first
    await page.wait_for_function(IMAGES)
    await message.evaluate("(e) => e.scrollIntoView({block: 'end'})")
    await page.evaluate(FRAMES)
    box = await trigger.bounding_box()
    viewport = page.viewport_size or VIEWPORT
    if box is not None and box["y"] + box["height"] + MENU_ROOM > viewport["height"]:
        # The menu lies below the channel's bottom edge: grow the page to reach it.
        taller = min(MAX_HEIGHT, math.ceil(box["y"] + box["height"] + MENU_ROOM))
        await page.set_viewport_size({"width": viewport["width"], "height": taller})
        await page.wait_for_function(READY)
        await message.evaluate("(e) => e.scrollIntoView({block: 'end'})")
        await page.evaluate(FRAMES)
    await trigger.click()
    await message.locator(".preview-select.is-open .select-options").wait_for()
    await page.mouse.move(*AWAY)
    await page.evaluate(FRAMES)


async def choose_from_menu(page: Page, message_id: int | str, prefer: tuple[str, ...]) -> None:
    """Click, in a message's open menu, the first option that fits `prefer` (else the
    first), and wait until the bot has answered."""
    message = page.locator(f"#channel-message-list [data-message-id='{message_id}']")
    options = message.locator(".preview-select.is-open .select-option")
    values = [await o.get_attribute("data-value") or "" for o in await options.all()]
    fits = [v for pattern in prefer for v in values if re.fullmatch(pattern, v)]
    chosen = (fits or values)[0]
    before = await page.evaluate(SEQUENCE)
    await message.locator(f".preview-select.is-open .select-option[data-value='{chosen}']").click()
    await page.wait_for_function(SETTLED, arg=before)
    await message.get_by_text("✅", exact=False).first.wait_for()  # the outcome, on top
    await page.wait_for_function(READY)
    await page.mouse.move(*AWAY)
    await page.evaluate(FRAMES)


@contextlib.asynccontextmanager
async def page_on(sandbox: Sandbox, browser: Browser, viewer: str) -> AsyncIterator[Page]:
    """The sandbox's page in a browser that reaches nothing else, as `viewer` sees it."""
    address = urlsplit(sandbox.url)
    origin = f"{address.scheme}://{address.netloc}"
    blocked: list[str] = []

    async def loopback_only(route: Route) -> None:
        url = route.request.url
        if url == origin or url.startswith(origin + "/"):
            await route.continue_()
        else:
            blocked.append(url)
            await route.abort()

    context = await browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    try:
        await context.route("**/*", loopback_only)
        page = await context.new_page()
        page.set_default_timeout(WAIT_MS)
        await page.goto(sandbox.url)
        await page.wait_for_function(READY)
        if await page.get_attribute("#messages-toggle", "aria-expanded") == "true":
            await page.click("#messages-toggle")  # hide the list of messages: more table
        await view_as(page, viewer)
        yield page
    finally:
        await context.close()
        for url in blocked:
            print(f"  (blocked a request off the sandbox: {url})", file=sys.stderr)


async def capture_scene(
    scene: Scene, sandbox: Sandbox, position: Position, browser: Browser, out: Path
) -> list[Path]:
    """The scene's board as its viewer sees the channel (and, for a `turn` scene, the
    message calling the decider), then that player's `/hand` with its menu closed and
    open; the files written."""
    written: list[Path] = []
    async with page_on(sandbox, browser, NAMES[position.viewer.name]) as page:
        board = out / f"{scene.slug}-board.png"
        await shoot(page, position.board_message_id, board, block="start")
        for width in SHOWN_AT:
            at = out / f"{scene.slug}-board-{width}.png"
            shown = await shown_at(page, position.board_message_id, at, width)
            print(f"{scene.slug}: the board at {width} px: {shown}", flush=True)
            written.append(at)
        # The whole text board, a tap away under the picture.
        full = out / f"{scene.slug}-full.png"
        reply = await press(page, position.board_message_id, "Full board")
        await page.set_viewport_size(VIEWPORT)
        await shoot(page, reply, full, block="end")
        written.append(full)
        turn = out / f"{scene.slug}-turn.png"
        if scene.turn and position.turn_message_id is not None:
            await shoot(page, position.turn_message_id, turn, block="end")
            written.append(turn)
        hand = out / f"{scene.slug}-hand.png"
        reply = await run_command(page, "/hand")
        await page.set_viewport_size(VIEWPORT)
        await shoot(page, reply, hand, block="end")
        # The same view with its menu open. A view carrying its picture can be taller
        # than the page the preview lets a menu open in, so this one is asked for as
        # text only (`/profile pictures`), as a player may.
        menu = out / f"{scene.slug}-menu.png"
        await sandbox.bot.matches.set_pictures(position.viewer.id, "text")
        reply = await run_command(page, "/hand")
        await page.set_viewport_size(VIEWPORT)
        await shoot(page, reply, out / f"{scene.slug}-menu.png", block="end")
        await open_menu(page, reply)
        await page.screenshot(path=str(menu))
        if scene.panel:
            panel = out / f"{scene.slug}-panel.png"
            await choose_from_menu(page, reply, scene.panel)
            await page.set_viewport_size(VIEWPORT)
            await shoot(page, reply, panel, block="end")
            written.append(panel)
    return [board, hand, menu, *written]


async def tournament_standings(sandbox: Sandbox, browser: Browser, out: Path) -> list[Path]:
    """A Swiss tournament of the sandbox's six players in its second round (the first
    played out, one match of the second over, by fixed random moves): its standings
    message as Ada, the moderator who runs it, sees the channel."""
    ada, channel = sandbox.players[0], sandbox.channel
    opened = await ada.slash(
        channel,
        "tournament new",
        name="Winter Cup",
        game="tooth-and-nail",
        variant="2p",
        format="swiss",
        rounds=3,
        seeding="random",
        deadline="2d",
        seed=TOURNAMENT_SEED,
    )
    if opened.response is None:
        raise GalleryError("tournament: /tournament new posted no sign-up")
    for player in sandbox.players:
        await player.click(opened.response, label="Join")
    await ada.slash(channel, "tournament start")
    desk, matches = sandbox.bot.desk, sandbox.bot.matches
    rng = random.Random(TOURNAMENT_SEED)
    for round_no, played in ((1, 3), (2, 1)):
        event = await desk.service.in_channel(channel.id, channel.guild.id)
        if event.row.round != round_no:
            raise GalleryError(f"tournament: round {round_no} was not paired")
        for game in [g for g in event.round_games() if g.match_id is not None][:played]:
            await play_randomly(matches, game.match_id, rng)
        await desk.idle()
    await sandbox.bot.publisher.idle()
    event = await desk.service.in_channel(channel.id, channel.guild.id)
    assert event.row.message_id is not None
    path = out / "tournament-standings.png"
    async with page_on(sandbox, browser, NAMES[ada.name]) as page:
        await shoot(page, event.row.message_id, path, block="start")
    print(f"  round {event.row.round}, {len(event.games)} pairings so far", flush=True)
    return [path]


async def save_picture(scene: Scene, sandbox: Sandbox, position: Position, out: Path) -> list[Path]:
    """The board's picture as the bot attached it (`<scene>-picture.png`), full size."""
    board = next((m for m in sandbox.channel.history() if m.id == position.board_message_id), None)
    if board is None or not board.attachments:
        raise GalleryError(f"{scene.slug}: the board carries no picture")
    path = out / f"{scene.slug}-picture.png"
    path.write_bytes(await board.attachments[0].read())
    return [path]


async def make_gallery(
    scenes: tuple[Scene, ...], out: Path, *, tournament: bool = True
) -> list[Path]:
    """Play every scene in its own sandbox and save its pictures into `out` (a
    directory), and (`tournament`) a tournament's standings."""
    from playwright.async_api import async_playwright

    written: list[Path] = []
    errors = BotErrors()
    logging.getLogger().addHandler(errors)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox"]
        )
        try:
            if tournament:
                print("tournament:", flush=True)
                with tempfile.TemporaryDirectory(prefix="arbiter-gallery-") as tmp:
                    async with open_sandbox(Path(tmp) / "arbiter-gallery.db") as sandbox:
                        written += await tournament_standings(sandbox, browser, out)
                        failures = [*map(str, sandbox.env.errors), *errors.seen]
                        if failures:
                            raise GalleryError(f"tournament: the bot failed: {failures}")
            for scene in scenes:
                print(f"{scene.slug} (seed {scene.seed}):", flush=True)
                with tempfile.TemporaryDirectory(prefix="arbiter-gallery-") as tmp:
                    async with open_sandbox(Path(tmp) / "arbiter-gallery.db") as sandbox:
                        position = await play_scene(scene, sandbox)
                        written += await save_picture(scene, sandbox, position, out)
                        written += await capture_scene(scene, sandbox, position, browser, out)
                        failures = [*map(str, sandbox.env.errors), *errors.seen]
                        if failures:
                            raise GalleryError(f"{scene.slug}: the bot failed: {failures}")
        finally:
            await browser.close()
            logging.getLogger().removeHandler(errors)
    return written


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, make the gallery and list the files written."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.gallery", description="Screenshots of what players see."
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the PNGs go")
    parser.add_argument(
        "--only",
        action="append",
        choices=[s.slug for s in SCENES] + ["tournament"],
        help="make only this scene (repeatable)",
    )
    args = parser.parse_args(argv)
    require_browser()
    scenes = tuple(s for s in SCENES if not args.only or s.slug in args.only)
    tournament = not args.only or "tournament" in args.only
    args.out.mkdir(parents=True, exist_ok=True)
    discord.utils.setup_logging(level=logging.WARNING)
    started = time.perf_counter()
    try:
        making = make_gallery(scenes, args.out, tournament=tournament)
        written = asyncio.run(asyncio.wait_for(making, RUN_SECONDS))
    except TimeoutError:
        print(f"The gallery took over {RUN_SECONDS} s and was stopped.", file=sys.stderr)
        return 1
    except GalleryError as error:
        print(f"The gallery failed: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    print(f"{len(written)} pictures in {time.perf_counter() - started:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
