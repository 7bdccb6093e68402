"""A match's history: its log in plain words, its export, and the replay of an export.

The log (`/match log`) is what the table saw: the public line of every game action
(undone ones struck out) and the match-log lines (moderator actions, timeouts,
pauses), in the order they happened; never a private line, never the seed.

The export (`/match export`) is a JSON document with everything a replay needs:
the game, variant, pack and options, the seed, the seats as they were dealt, every
action (its number, seat, key, whether it was undone, and its public lines) and
the final state. `replay_export` (used by `python -m bot replay FILE`) deals again
from the seed, applies the actions still in effect, each with the generator of its
own number, and says whether it reaches the final state exactly, or where it first
parts from it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from pydantic import TypeAdapter, ValidationError

from bot.render import renderer_for
from bot.render.generic import clip
from bot.replies import guard
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import MatchRow, Rename
from bot.service.tables import RULES_VERSION, Replayer, setup_options
from bot.ui.interactions import PAGES, component_match, service
from rules.core import Action, Event, Game, IllegalAction, OptionError, SeatSpec

EXPORT_FORMAT = "arbiter-match"
EXPORT_VERSION = 2  # 2: seats renamed in the game when they changed hands
PAGE_LINES = 15  # log lines on one page
PAGE_CHARS = 3600  # and at most this many characters (an embed description holds 4096)
LINE_CHARS = 400
LOG_ICONS = {"moderator": "🛡️ "}  # other kinds of log lines carry their own

_EVENTS = TypeAdapter(list[Event])


def _public(events_json: str) -> list[str]:
    """The public lines of a logged action's events."""
    return [e.text for e in _EVENTS.validate_json(events_json) if e.text]


# ----------------------------------------------------------------------- the log


async def pick_match(
    matches: MatchService,
    guild_id: int | None,
    channel_id: int,
    match_id: int | None,
    user_id: int,
) -> MatchRow:
    """The match a history command is about: the one numbered, else the channel's latest,
    open or over. A numbered match must belong to this server; in a direct message (no
    server) it must be a game of the user's own, since a DM game is its player's alone."""
    if match_id is not None:
        match = await matches.records.get(match_id)
        if match is None or match.guild_id != guild_id:
            raise errors.MatchNotFound(_not_found(guild_id, match_id))
        if guild_id is None and not any(
            s.user_id == user_id for s in await matches.records.seats(match_id)
        ):
            raise errors.MatchNotFound(_not_found(guild_id, match_id))
        return match
    match = await matches.records.latest_in(channel_id)
    if match is None:
        raise errors.NoMatchHere("No match was ever played in this channel.")
    return match


def _not_found(guild_id: int | None, match_id: int) -> str:
    if guild_id is None:
        return f"You played no match #{match_id} in your direct messages with me."
    return f"This server has no match #{match_id}."


async def log_lines(matches: MatchService, match_id: int) -> list[str]:
    """The match's history in plain words, oldest first."""
    match = await matches.get(match_id)
    if match.snapshot is None:
        return []
    seats = await matches.setup_seats(match_id)
    names = {s.seat: s.name for s in seats}
    undone = await matches.records.undone(match_id)
    # A game that numbers its own lines (Historia's reports) is read by those numbers.
    numbered = not renderer_for(match.game).numbers_lines
    # A game action sorts by its number; a log line after the actions up to the match
    # version it was written at (an undo's line after the action it took back).
    ordered: list[tuple[tuple[int, int, int], str]] = []
    for row in await matches.records.actions(match_id):
        text = " ".join(_public(row.events)) or f"{names.get(row.seat, 'A player')} decides."
        text = clip(text, LINE_CHARS)
        if row.seq in undone:
            text = f"~~{text}~~ *(undone)*"
        ordered.append(((row.seq, 0, row.seq), f"`{row.seq}` {text}" if numbered else text))
    for entry in await matches.log.entries(match_id):
        icon = LOG_ICONS.get(entry.kind, "")
        ordered.append(((entry.version, 1, entry.id), icon + clip(entry.text, LINE_CHARS)))
    ordered.sort(key=lambda item: item[0])
    dealt = "🎬 Dealt in: " + ", ".join(s.name for s in seats) + "."
    return [dealt, *(line for _, line in ordered)]


def log_pages(lines: list[str]) -> list[str]:
    """Lines grouped into pages of at most PAGE_LINES lines and PAGE_CHARS characters."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and (len(pages[-1]) >= PAGE_LINES or size + len(line) + 1 > PAGE_CHARS):
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return ["\n".join(page) for page in pages]


async def log_message(matches: MatchService, match_id: int, page: int | None) -> dict[str, Any]:
    """The embed and Older / Newer buttons of one page of the log (None: the newest)."""
    match = await matches.get(match_id)
    game = matches.game(match.game)
    pages = log_pages(await log_lines(matches, match_id))
    last = len(pages) - 1
    page = last if page is None else min(max(page, 0), last)
    embed = discord.Embed(
        title=f"Match #{match.id} — {game.name} — {game.variants[match.variant].name}",
        description=pages[page] or "Nothing has happened yet: the match hasn't started.",
        colour=discord.Colour.blurple(),
    )
    embed.set_footer(text=f"Log page {page + 1} of {len(pages)}")
    view = discord.ui.View(timeout=None)
    view.add_item(LogButton(match_id, max(page - 1, 0), "older", disabled=page == 0))
    view.add_item(LogButton(match_id, min(page + 1, last), "newer", disabled=page == last))
    return {"embed": embed, "view": view}


class LogButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:log:(?P<match_id>[0-9]+):(?P<page>[0-9]+):(?P<tag>older|newer)",
):
    """Older / Newer under a page of a match's log: anyone in the match's server may turn
    the pages."""

    def __init__(self, match_id: int, page: int, tag: str, *, disabled: bool = False) -> None:
        label, emoji = {"older": ("Older", "◀"), "newer": ("Newer", "▶")}[tag]
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"arbiter:log:{match_id}:{page}:{tag}",
            )
        )
        self.match_id = match_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LogButton:
        return cls(int(match["match_id"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.page, PAGES))
            shown = await log_message(service(interaction), self.match_id, self.page)
            await interaction.response.edit_message(**shown)


# The log's components that outlive a restart (the bot registers them with `bot.ui`'s).
PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LogButton,)


# -------------------------------------------------------------------- the export


async def export_match(
    matches: MatchService, match_id: int, *, moderator: bool, user_id: int
) -> dict[str, Any]:
    """The match as a JSON-able document that replays it. While it is open (its seed
    predicts every shuffle) only a moderator who doesn't play in it may have it."""
    match = await matches.get(match_id)
    if match.status in ("lobby", "active"):
        if not moderator:
            raise errors.ExportRefused()
        if any(s.user_id == user_id for s in await matches.records.seats(match_id)):
            raise errors.ExportRefused(
                "You play in this match: its export would show you every hand and shuffle. "
                "Export it once it is over."
            )
    if match.snapshot is None:
        raise errors.NotActive("This match never started: there is nothing to export.")
    teams = {s.seat: s.team for s in await matches.records.seats(match_id)}
    undone = await matches.records.undone(match_id)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "match": match.id,
        "game": match.game,
        "variant": match.variant,
        "pack": match.pack,
        "options": match.options,
        "seed": match.seed,
        "seed_chosen": match.seed_chosen,
        "rules_version": match.rules_version,
        "status": match.status,
        "seats": [
            {"seat": s.seat, "name": s.name, "team": teams.get(s.seat)}
            for s in await matches.setup_seats(match_id)
        ],
        "actions": [
            {
                "seq": row.seq,
                "seat": row.seat,
                "key": Action.model_validate_json(row.action).key,
                "undone": row.seq in undone,
                "lines": _public(row.events),
            }
            for row in await matches.records.actions(match_id)
        ],
        "renames": [
            {"version": r.version, "seat": r.seat, "name": r.name}
            for r in await matches.records.renames(match_id)
        ],
        "snapshot": json.loads(match.snapshot),
    }


async def export_file(
    matches: MatchService, match_id: int, *, moderator: bool, user_id: int
) -> discord.File:
    """The export of a match as a file to attach (see `export_match`)."""
    document = await export_match(matches, match_id, moderator=moderator, user_id=user_id)
    data = io.BytesIO(json.dumps(document, indent=1, ensure_ascii=False).encode())
    return discord.File(data, filename=f"arbiter-match-{match_id}.json")


# -------------------------------------------------------------------- the replay


@dataclass(frozen=True)
class ReplayReport:
    """Whether an export replays to its final state, in sentences."""

    ok: bool
    lines: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(self.lines)


def replay_export(document: Mapping[str, Any], games: Mapping[str, Game]) -> ReplayReport:
    """Deal the exported match again from its seed, apply every action still in effect,
    and compare with the exported final state: equal, or where it first differs (an
    action refused, an action whose public lines changed, or a part of the state)."""
    try:
        return _replay(document, games)
    except (KeyError, TypeError, ValueError, ValidationError) as error:
        return ReplayReport(False, [f"This is not a complete Arbiter export: {error!r}."])


def _replay(document: Mapping[str, Any], games: Mapping[str, Game]) -> ReplayReport:
    if document.get("format") != EXPORT_FORMAT:
        return ReplayReport(False, ["This is not an Arbiter match export."])
    game = games.get(document["game"])
    if game is None:
        return ReplayReport(False, [f"This bot doesn't know the game `{document['game']}`."])
    variant = document["variant"]
    notes = [f"Match #{document['match']}: {game.name}, {variant}."]
    if document["rules_version"] != RULES_VERSION:
        notes.append(
            f"Exported with rules {document['rules_version']}; replaying with {RULES_VERSION}."
        )
    seed = int(document["seed"])
    specs = [SeatSpec(seat=s["seat"], name=s["name"]) for s in document["seats"]]
    try:
        options = setup_options(game, variant, dict(document["options"]), document["pack"])
    except OptionError as refused:
        return ReplayReport(False, [*notes, f"Its options don't fit this game: {refused.message}"])
    renames = [
        Rename(int(r["version"]), int(r["seat"]), r["name"]) for r in document.get("renames", [])
    ]
    replayer = Replayer(game, game.setup(variant, specs, options, seed), seed, renames)
    applied = skipped = 0
    for entry in document["actions"]:
        if entry["undone"]:
            skipped += 1
            continue
        seq, seat, key = int(entry["seq"]), int(entry["seat"]), entry["key"]
        where = f"Action {seq} (seat {seat}, `{key}`)"
        try:
            events = replayer.step(seq, seat, Action.from_key(key))
        except IllegalAction as refusal:
            return ReplayReport(False, [*notes, f"{where} was refused: {refusal.message}"])
        except (LookupError, TypeError, ValueError) as error:
            return ReplayReport(False, [*notes, f"{where} could not be applied: {error!r}"])
        lines = [e.text for e in events if e.text]
        if "lines" in entry and lines != entry["lines"]:
            return ReplayReport(
                False,
                [
                    *notes,
                    f"{where} differs: the export says {entry['lines']!r}, "
                    f"the replay says {lines!r}.",
                ],
            )
        applied += 1
    state = replayer.finish()
    expected = game.state_model.model_validate(document["snapshot"])
    done = f"Replayed {applied} actions from the seed ({skipped} undone, skipped)"
    if state == expected:
        return ReplayReport(True, [*notes, f"{done}: the final state matches exactly."])
    path, wanted, got = first_difference(
        expected.model_dump(mode="json"), state.model_dump(mode="json")
    )
    return ReplayReport(
        False,
        [
            *notes,
            f"{done}, but the final state differs at `{path}`: "
            f"the export has {clip(repr(wanted), 300)}, the replay {clip(repr(got), 300)}.",
        ],
    )


def first_difference(a: Any, b: Any, path: str = "state") -> tuple[str, Any, Any]:
    """The first place two JSON-like values differ (dict keys in order, then list
    items), with the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key), b.get(key)
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
    return path, a, b
