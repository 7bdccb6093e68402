"""The table's components and flows: a player's private panel (hand, choices, pages,
hints, the DM copy), the quick buttons and menus under the board, concessions, kept
seats and disputes, and the views the publisher posts with the board."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.host import Host
from bot.names import plain
from bot.pictures import HAND_FILE
from bot.render import (
    board_embed,
    picture_files,
    private_embed,
)
from bot.render.generic import clip
from bot.replies import guard
from bot.service import errors
from bot.service.moderation import jump_url
from bot.service.store import SeatRow
from bot.service.tables import ActResult, Choice, PrivateView, Table
from bot.ui.choices import choice_option
from bot.ui.interactions import (
    COUNTS,
    CUSTOM_ID_LIMIT,
    DM_CLOSED,
    ERAS,
    HAND,
    PAGE_SIZE,
    PAGES,
    REPORTS,
    SEATS,
    USER_IDS,
    answer,
    arbiter,
    component_match,
    defer,
    edit_answer,
    in_time,
    only_choice,
    reply_after_save,
    service,
)
from rules.core import Outcome

PAGE_BUTTONS: dict[str, tuple[str, str]] = {
    "prev": ("Prev", "◀"),
    "next": ("Next", "▶"),
    "refresh": ("Refresh", "🔄"),
}


CONCEDE_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "yes": ("Concede", discord.ButtonStyle.danger),
    "no": ("Keep playing", discord.ButtonStyle.secondary),
}


QUICK_STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


MAX_QUICK = 4  # quick buttons under one message (a row holds 5; Respond may take one)


TOGETHER = "Pick exactly {count} from this menu, so nothing happened."


STALE_DISPUTE = (
    "This Dispute button is out of date (report #{number} is no longer the latest report, "
    "or it was disputed already), so nothing happened. To dispute a recent report, use "
    "`/historia dispute`."
)


STALE_BUTTONS = (
    "These buttons are out of date (the game has moved on since they were posted), so "
    "nothing happened. Use the buttons under the latest message that calls you, or `/hand`."
)


KEEP_PLAYING = "You keep playing: nothing changed."


NOT_YOUR_CONFIRMATION = (
    "This confirmation belongs to another player, so nothing happened. "
    "To give up yourself, use `/match concede`."
)


class ConcedeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:concede:(?P<op>yes|no):(?P<match_id>[0-9]+):(?P<user_id>[0-9]+)",
):
    """Concede / Keep playing under the confirmation `/match concede` asks for. Its id
    carries the player who asked: only they can use it, and only while they still play
    in the match (after a restart too)."""

    def __init__(self, op: str, match_id: int, user_id: int) -> None:
        label, style = CONCEDE_BUTTONS[op]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"arbiter:concede:{op}:{match_id}:{user_id}",
            )
        )
        self.op = op
        self.match_id = match_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConcedeButton:
        return cls(match["op"], int(match["match_id"]), int(match["user_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.user_id, USER_IDS))
            if interaction.user.id != self.user_id:
                raise errors.UserError(NOT_YOUR_CONFIRMATION)
            await defer(interaction)
            if self.op == "no":
                await interaction.edit_original_response(content=KEEP_PLAYING, view=None)
                return
            with arbiter(interaction).publisher.through(interaction, self.match_id) as carry:
                try:
                    result = await service(interaction).concede(self.match_id, self.user_id)
                except (errors.NotActive, errors.NotInMatch) as stale:
                    why = (
                        "you no longer play in it" if isinstance(stale, errors.NotInMatch) else None
                    )
                    await interaction.edit_original_response(
                        content=f"⚠️ {stale_concession(why)}", view=None
                    )
                    return
                reply = interaction.edit_original_response(content="You conceded.", view=None)
                if await reply_after_save(interaction, reply):
                    carry(result.table)  # its followup tells the table


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:hand:(?P<match_id>[0-9]+)"
):
    """The board's "My hand" button, also under a line calling a player out of turn:
    the clicker's private view, ephemeral."""

    def __init__(self, match_id: int, *, respond: bool = False) -> None:
        # "Respond" under a line that opens a response window: the same private view,
        # whose menu then holds the answers (Instants) and letting the attack through.
        super().__init__(
            discord.ui.Button(
                label="Respond" if respond else "My hand",
                emoji="🛡️" if respond else "🃏",
                style=discord.ButtonStyle.danger if respond else discord.ButtonStyle.primary,
                custom_id=f"arbiter:hand:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await show_private(interaction, self.match_id)


class FullBoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:full:(?P<match_id>[0-9]+)"
):
    """The board's "Full board" button, under its picture and summary: the whole text
    board (every card in play, the legend, every clock), ephemeral."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Full board",
                emoji="📜",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:full:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FullBoardButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            table = await service(interaction).table(self.match_id)
            embed = await text_board(arbiter(interaction), table)
            await interaction.response.send_message(embed=embed, ephemeral=True)


class KeepSeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:(?P<kind>keep|back):(?P<match_id>[0-9]+):(?P<user_id>[0-9]+)",
):
    """Under the call telling a player the AI plays their seat: theirs to keep it (the
    table voted it to the AI, which has played nothing yet) or to take it back (the AI
    stands in since their time ran out)."""

    def __init__(self, match_id: int, user_id: int, *, back: bool = False) -> None:
        kind = "back" if back else "keep"
        super().__init__(
            discord.ui.Button(
                label="Take my seat back" if back else "Keep my seat",
                emoji="↩️" if back else "✋",
                style=discord.ButtonStyle.primary,
                custom_id=f"arbiter:{kind}:{match_id}:{user_id}",
            )
        )
        self.match_id = match_id
        self.user_id = user_id
        self.back = back

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> KeepSeatButton:
        return cls(int(match["match_id"]), int(match["user_id"]), back=match["kind"] == "back")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.user_id, USER_IDS))
            if interaction.user.id != self.user_id:
                raise errors.NotInMatch("Only the player whose seat it is can keep it.")
            await service(interaction).take_back(self.match_id, self.user_id)
            await interaction.response.edit_message(view=None)
            await interaction.followup.send(
                "↩️ Your seat is yours again: the AI plays nothing more for you."
                if self.back
                else "✋ You keep your seat: the AI plays nothing for you.",
                ephemeral=True,
            )


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:view:(?P<match_id>[0-9]+):(?P<page>[0-9]+):(?P<tag>prev|next|refresh)",
):
    """Previous / next page of the action menu, and refresh, on a private view."""

    def __init__(self, match_id: int, page: int, tag: str, *, disabled: bool = False) -> None:
        label, emoji = PAGE_BUTTONS[tag]
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"arbiter:view:{match_id}:{page}:{tag}",
                row=1,
            )
        )
        self.match_id = match_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["match_id"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, (self.page, PAGES), in_dm=True)
            pv = await service(interaction).view(self.match_id, interaction.user.id)
            shown = await private_content(
                arbiter(interaction), pv, self.page, in_dm=interaction.guild is None, editing=True
            )
            await interaction.response.edit_message(content=None, **shown)
            arbiter(interaction).panels.shown(interaction, pv)


class DmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:dm:(?P<match_id>[0-9]+)"
):
    """The "Send to my DMs" button: a copy of the private view, with its menu, that stays."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Send to my DMs",
                emoji="📬",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:dm:{match_id}",
                row=1,
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            pv = await service(interaction).view(self.match_id, interaction.user.id)
            try:
                sent = await private_content(arbiter(interaction), pv, in_dm=True, editing=False)
                await interaction.user.send(**sent)
            except discord.Forbidden as error:
                if error.code == DM_CLOSED:
                    raise errors.DMsClosed() from None
                raise
            await interaction.followup.send(
                "Sent to your DMs: you can play from there, and it stays.", ephemeral=True
            )


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arbiter:hint:(?P<match_id>[0-9]+)"
):
    """The "Hint" button on a private view of a match that is never rated: what the
    strong AI would play in the clicker's place, answered privately."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Hint",
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"arbiter:hint:{match_id}",
                row=1,
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id, in_dm=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await give_hint(interaction, self.match_id)


async def give_hint(interaction: discord.Interaction, match_id: int) -> None:
    """Answer a deferred interaction, privately, with the caller's hint (see
    `bot.service.hints`)."""
    bot = arbiter(interaction)
    text = await bot.hints.ask(match_id, interaction.user.id)
    await interaction.followup.send(text, ephemeral=True)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"arbiter:act:(?P<match_id>[0-9]+):(?P<mark>s?)(?P<count>[0-9]+)",
):
    """The action menu of a private view. Its id (`arbiter:act:<match>:s<count>`)
    carries how many decisions the player had taken when it was built: once
    they decide (by this menu or another way) it applies nothing, while other
    players' decisions leave it usable. An id without the `s` comes from an
    older release and carried the match version: it is refused as out of date."""

    def __init__(
        self,
        match_id: int,
        decisions: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        outdated: bool = False,
    ) -> None:
        count = str(decisions) if outdated else f"s{decisions}"
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:act:{match_id}:{count}",
                options=options or [],
                placeholder=placeholder,
                row=0,
            )
        )
        self.match_id = match_id
        self.decisions = decisions
        self.outdated = outdated

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        return cls(int(match["match_id"]), int(match["count"]), outdated=not match["mark"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            decided = (self.decisions, COUNTS)
            await component_match(interaction, self, self.match_id, decided, in_dm=True)
            key = only_choice(self.item)
            stale = errors.OUTDATED_MENU if self.outdated else None
            await panel_step(interaction, self.match_id, self.decisions, key, stale=stale)


class TogetherSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=(
        r"arbiter:together:(?P<match_id>[0-9]+):(?P<decisions>[0-9]+):"
        r"(?P<count>[0-9]+):(?P<kind>[a-z]+)"
    ),
):
    """Cards chosen together on a private view, as one multi-select (the cards discarded
    as a turn ends above the hand size): the game's view offers them (`"together"`), the
    `count` chosen make one action's key (`<kind>|<card id>+<card id>…`, in order). Its id
    (`arbiter:together:<match>:<decisions>:<count>:<kind>`) carries how many decisions
    the player had taken, as the action menu's does."""

    def __init__(
        self,
        match_id: int,
        decisions: int,
        kind: str,
        options: list[discord.SelectOption] | None = None,
        count: int = 1,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:together:{match_id}:{decisions}:{count}:{kind}",
                options=options or [],
                placeholder=placeholder,
                min_values=count,
                max_values=count,
                row=2,
            )
        )
        self.match_id = match_id
        self.decisions = decisions
        self.count = count
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TogetherSelect:
        numbers = (int(match["match_id"]), int(match["decisions"]))
        return cls(*numbers, match["kind"], count=int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            numbers = (self.decisions, COUNTS), (self.count, HAND)
            await component_match(interaction, self, self.match_id, *numbers, in_dm=True)
            if len(self.item.values) != self.count:
                raise errors.UserError(TOGETHER.format(count=self.count))
            chosen = sorted(value.partition("#")[0] for value in self.item.values)
            key = f"{self.kind}|{'+'.join(chosen)}"
            await panel_step(interaction, self.match_id, self.decisions, key)


def together_select(pv: PrivateView) -> TogetherSelect | None:
    """The multi-select of the cards a private view's game offers to choose together
    (`"together": {"kind", "count", "label", "cards": [{"id", "name"}]}`), if any."""
    offered = pv.view.get("together")
    if not isinstance(offered, dict) or not offered.get("cards"):
        return None
    cards = [c for c in offered["cards"] if isinstance(c, dict)][:PAGE_SIZE]
    count = int(offered.get("count") or 1)
    if not 0 < count <= len(cards):
        return None
    options = [
        discord.SelectOption(label=clip(str(c.get("name")), 100), value=f"{c.get('id')}#{i}")
        for i, c in enumerate(cards)
    ]
    label = clip(str(offered.get("label") or f"Choose {count}"), 150)
    kind = str(offered.get("kind"))
    return TogetherSelect(pv.table.match.id, pv.decisions, kind, options, count, label)


async def panel_step(
    interaction: discord.Interaction,
    match_id: int,
    decisions: int,
    key: str,
    *,
    stale: str | None = None,
) -> None:
    """Take an action chosen on a private view and show the view again in place, the
    action's outcome at its top (or, for a choice out of date, why nothing happened)."""
    matches = service(interaction)
    user = interaction.user.id
    in_dm = interaction.guild is None
    bot = arbiter(interaction)
    acting = bot.panels.acting(interaction, match_id)
    with bot.publisher.through(interaction, match_id) as carry, acting:
        try:
            if stale is not None:
                raise errors.StaleChoice(stale)
            act = matches.act(match_id, user, key, decisions=decisions)
            result = await in_time(interaction, act)
        except errors.StaleChoice as refused:
            pv = await matches.view(match_id, user)
            shown = await private_content(bot, pv, in_dm=in_dm, editing=True)
            await edit_answer(interaction, content=f"⚠️ {refused.message}", **shown)
            bot.panels.shown(interaction, pv)
            return
        pv = await matches.view(match_id, user)
        shown = await private_content(bot, pv, in_dm=in_dm, editing=True)
        if await reply_after_save(
            interaction, edit_answer(interaction, content=done_text(result), **shown)
        ):
            bot.panels.shown(interaction, pv)
            carry(result.table)  # its followups post the public lines


class QuickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"arbiter:quick:(?P<match_id>[0-9]+):(?P<seat>[0-9]+):(?P<count>[0-9]+):(?P<key>\S+)",
):
    """A quick action under the message calling a player to decide (Mystic Vale's Push
    and Stop): one of their legal actions that the game's public view offers as a
    button (its `quick` key). Its id (`arbiter:quick:<match>:<seat>:<count>:<key>`)
    carries the seat it is for and how many decisions that seat had taken when it was
    posted: anyone else's click is refused, and once the seat has decided (by this
    button or another way) it applies nothing."""

    def __init__(
        self,
        match_id: int,
        seat: int,
        decisions: int,
        key: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(plain(label or key), 80),
                style=style,
                custom_id=quick_id(match_id, seat, decisions, key),
            )
        )
        self.match_id = match_id
        self.seat = seat
        self.decisions = decisions
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuickButton:
        return cls(int(match["match_id"]), int(match["seat"]), int(match["count"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(
                interaction,
                self,
                self.match_id,
                (self.seat, SEATS),
                (self.decisions, COUNTS),
                seat=self.seat,
            )
            await quick_step(interaction, self.match_id, self.seat, self.decisions, self.key)


class DisputeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"arbiter:dispute:(?P<match_id>[0-9]+):(?P<era>[0-9]+):"
        r"(?P<number>[0-9]+):(?P<seat>[0-9]+)"
    ),
):
    """**Dispute #5** under the public line of a Historia table's latest report (the game's
    public view offers it in `for_anyone`: `{key, label, not_seat}`). Its id
    (`arbiter:dispute:<match>:<era>:<report>:<reporter's seat>`) names the report: any
    seated player but its reporter may press it, while it is still the latest report and
    undisputed; the reporter, outsiders and a stale button are refused, changing nothing."""

    def __init__(self, match_id: int, era: int, number: int, seat: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(plain(label or f"Dispute #{number}"), 80),
                emoji="⚠️",
                style=discord.ButtonStyle.secondary,
                custom_id=dispute_id(match_id, era, number, seat),
            )
        )
        self.match_id = match_id
        self.era = era
        self.number = number
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DisputeButton:
        return cls(
            int(match["match_id"]), int(match["era"]), int(match["number"]), int(match["seat"])
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(
                interaction,
                self,
                self.match_id,
                (self.era, ERAS),
                (self.number, REPORTS),
                (self.seat, SEATS),
                seat=self.seat,
            )
            await defer(interaction)
            await dispute_step(interaction, self.match_id, self.era, self.number, self.seat)


# Every component of the table that outlives a restart (the lobby's: `bot.ui.lobby`;
# the match log's: `bot.history`).
PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ConcedeButton,
    HandButton,
    FullBoardButton,
    KeepSeatButton,
    PageButton,
    DmButton,
    HintButton,
    ActionSelect,
    TogetherSelect,
    QuickButton,
    DisputeButton,
)


def board_view(table: Table, *, full_board: bool) -> discord.ui.View | None:
    """The board's buttons: "My hand" while the match is in play, and "Full board" where
    the board shows its picture and a summary (`full_board`), in play or over."""
    view = discord.ui.View(timeout=None)
    if table.match.status == "active":
        view.add_item(HandButton(table.match.id))
    if full_board:
        view.add_item(FullBoardButton(table.match.id))
    return view if view.children else None


async def text_board(bot: Host, table: Table, *, picture: str | None = None) -> discord.Embed:
    """The whole text board of a match as it stands: its game's fields, every clock, the
    last public lines and the legend (with `picture`, the attached picture under it)."""
    clocks = await bot.clock.status_lines(table.match.id, table)
    lately = await bot.matches.lately(table.match.id)
    return board_embed(table, clocks, lately, picture=picture)


def quick_id(match_id: int, seat: int, decisions: int, key: str) -> str:
    """The custom id of a quick action's button (see `QuickButton`)."""
    return f"arbiter:quick:{match_id}:{seat}:{decisions}:{key}"


def quick_buttons(table: Table) -> list[QuickButton]:
    """The buttons for the quick actions the game's public view offers
    (`"quick": [{"key", "label", "style"?, "seat"?}]`), each for its seat (by default the
    active one: a player answering out of turn has a `seat` of their own) while that
    seat decides and a person plays it; none otherwise. An entry whose id would not fit
    Discord's limit is left to the menu."""
    if table.match.status != "active" or table.outcome is not None:
        return []
    found = []
    for entry in (table.view or {}).get("quick") or []:
        if not isinstance(entry, dict) or not entry.get("key"):
            continue
        seat = entry.get("seat", table.active)
        if not isinstance(seat, int) or seat not in table.to_act or table.user_of(seat).by_ai:
            continue  # not this seat's decision now, or nobody's buttons: the AI decides
        decisions = table.user_of(seat).decisions
        key = str(entry["key"])
        if len(quick_id(table.match.id, seat, decisions, key)) > CUSTOM_ID_LIMIT or re.search(
            r"\s", key
        ):
            continue
        style = QUICK_STYLES.get(str(entry.get("style")), discord.ButtonStyle.primary)
        label = str(entry.get("label") or key)
        found.append(QuickButton(table.match.id, seat, decisions, key, label, style))
    return found[:MAX_QUICK]


def dispute_id(match_id: int, era: int, number: int, seat: int) -> str:
    """The custom id of a Dispute button (see `DisputeButton`)."""
    return f"arbiter:dispute:{match_id}:{era}:{number}:{seat}"


def dispute_buttons(table: Table) -> list[DisputeButton]:
    """The Dispute buttons the game's public view offers under its latest public line
    (`"for_anyone": [{"key": "dispute|<n>", "label", "not_seat"}]`) while the match is in
    play; none otherwise."""
    if table.match.status != "active" or table.outcome is not None:
        return []
    view = table.view or {}
    era = view.get("era") if isinstance(view.get("era"), int) else 0
    found = []
    for entry in view.get("for_anyone") or []:
        if not isinstance(entry, dict):
            continue
        kind, _, number = str(entry.get("key") or "").partition("|")
        seat = str(entry.get("not_seat", ""))
        if kind != "dispute" or not number.isdigit() or not seat.isdigit():
            continue
        label = str(entry.get("label") or "")
        found.append(DisputeButton(table.match.id, era, int(number), int(seat), label))
    return found[:MAX_QUICK]


def out_of_turn(table: Table) -> set[int]:
    """The seats deciding out of turn now (none once the match is over)."""
    return set() if table.outcome is not None else set(table.to_act) & set(table.responders)


def carries_buttons(table: Table) -> bool:
    """Whether the match's latest public message carries buttons that go out of date (the
    quick actions, a Dispute button, Respond or My hand for a player deciding out of
    turn): the message that carried them before loses them."""
    return bool(quick_buttons(table) or dispute_buttons(table) or out_of_turn(table))


def turn_view(table: Table) -> discord.ui.View | None:
    """The components under a message calling players to decide: the game's quick actions
    for the active player, the Dispute button of the latest report, Respond for a player
    answering an attack (as the game's public view says in `responding`) or else My hand
    while a player decides (their panel one tap from the line that calls them), and a
    link to the board."""
    view = discord.ui.View(timeout=None)
    for button in [*quick_buttons(table), *dispute_buttons(table)]:
        view.add_item(button)
    people = {s for s in table.to_act if not table.user_of(s).by_ai}
    if table.outcome is None and table.match.status == "active" and people:
        responding = out_of_turn(table) & set((table.view or {}).get("responding") or [])
        view.add_item(HandButton(table.match.id, respond=bool(responding)))
    if table.match.board_message_id is not None and table.outcome is None:
        view.add_item(board_button(table))
    return view if view.children else None


def board_button(table: Table) -> discord.ui.Button[Any]:
    """A link to the match's board, under each turn message: the board stays in reach."""
    return discord.ui.Button(
        style=discord.ButtonStyle.link, label="Board", emoji="📋", url=jump_url(table)
    )


async def private_content(
    bot: Host, pv: PrivateView, page: int = 0, *, in_dm: bool, editing: bool
) -> dict[str, Any]:
    """A private view's message at one page of its menu, with the picture of the view
    as its player chose (`/profile pictures`); `editing`: the arguments of an edit,
    which replaces the picture (or takes it away), else those of a send."""
    user_id = pv.table.user_of(pv.seat).user_id
    mode = await bot.matches.pictures_of(user_id)
    picture = None
    if mode != "text" and pv.view:
        picture = await bot.pictures.private(pv.table.match.game, pv.view)
    text = mode != "pictures" or picture is None
    content = private_message(
        pv, page, in_dm=in_dm, picture=HAND_FILE if picture else None, text=text
    )
    content["attachments" if editing else "files"] = picture_files(picture, HAND_FILE)
    return content


def private_message(
    pv: PrivateView, page: int, *, in_dm: bool, picture: str | None = None, text: bool = True
) -> dict[str, Any]:
    """The embed and components of a private view at one page of its action menu (with
    `picture`, the attached file shown as its image; see `private_embed`)."""
    match = pv.table.match
    together = together_select(pv)
    choices = pv.choices
    if together is not None:  # those choices are made in the multi-select
        choices = [c for c in choices if not c.key.startswith(f"{together.kind}|")]
    pages = max(1, -(-len(choices) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    view = discord.ui.View(timeout=None)
    if choices:
        shown = choices[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        placeholder = "Choose an action"
        if pages > 1:
            placeholder += f" (page {page + 1} of {pages})"
        options = [choice_option(c) for c in shown]
        view.add_item(ActionSelect(match.id, pv.decisions, options, placeholder))
    if pages > 1:
        view.add_item(PageButton(match.id, max(page - 1, 0), "prev", disabled=page == 0))
        view.add_item(
            PageButton(match.id, min(page + 1, pages - 1), "next", disabled=page == pages - 1)
        )
    view.add_item(PageButton(match.id, page, "refresh"))
    if not in_dm:
        view.add_item(DmButton(match.id))
    if pv.choices and pv.table.hints:
        view.add_item(HintButton(match.id))
    if together is not None:
        view.add_item(together)
    return {"embed": private_embed(pv, picture=picture, text=text), "view": view}


def concede_question(table: Table, seat: SeatRow, outcome: Outcome | None) -> str:
    """The confirmation `/match concede` asks for: what conceding leads to for the asker
    (in a game against the game itself, its opponent wins: a solitaire nemesis)."""

    def names(seats: Iterable[int]) -> str:
        return " and ".join(f"**{table.user_of(s).name}**" for s in seats)

    if outcome is None:
        others = [s.seat for s in table.seats if s.seat != seat.seat]
        stake = f"You drop out of the game ({names(others)} play on without you)."
    else:
        mates = [s for s in outcome.losers if s != seat.seat]
        side = f"Your side — you and {names(mates)} —" if mates else "Your side"
        won = outcome.winners
        verb = "wins" if len(won) == 1 else "win"
        winner = f"**{outcome.against}** wins" if outcome.against else "nobody wins"
        stake = f"{side} loses ({names(won) + ' ' + verb if won else winner})."
    return (
        f"**Concede this match?** {stake}\n"
        "Nothing happens until you press **Concede**; **Keep playing** changes nothing."
    )


def stale_concession(why: str | None) -> str:
    """The refusal of a confirmation that is out of date: the match is over, or `why`."""
    return f"This confirmation is out of date ({why or 'the match is over'}), so nothing happened."


def concede_message(table: Table, seat: SeatRow, outcome: Outcome | None) -> dict[str, Any]:
    """The ephemeral confirmation `/match concede` answers with: the question, its buttons."""
    view = discord.ui.View(timeout=None)
    for op in CONCEDE_BUTTONS:
        view.add_item(ConcedeButton(op, table.match.id, seat.user_id))
    return {"content": concede_question(table, seat, outcome), "view": view, "ephemeral": True}


def done_text(result: ActResult) -> str:
    """What the acting player reads after an action: what they did (never its label
    alone, which reads as a button) and their private lines."""
    lines = [f"✅ {result.told}", *result.private_lines()]
    return clip("\n".join(lines), 2000)


async def show_private(interaction: discord.Interaction, match_id: int) -> None:
    """Answer with the caller's private view, ephemeral."""
    pv = await service(interaction).view(match_id, interaction.user.id)
    shown = await private_content(arbiter(interaction), pv, in_dm=False, editing=False)
    sent = await interaction.response.send_message(ephemeral=True, **shown)
    arbiter(interaction).panels.shown(interaction, pv, sent.message_id)


def not_yours(table: Table, clicker: int, seat: int) -> str:
    """The refusal of a quick button clicked by someone it isn't for."""
    if clicker in table.to_act:
        return (
            f"These buttons are {table.user_of(seat).name}'s, so nothing happened: yours are "
            "under the latest message that calls you, and in `/hand`."
        )
    names = " and ".join(table.user_of(s).name for s in table.to_act)
    if not names:
        return errors.NotYourTurn.default
    return f"It is not your decision: waiting for {names}."


async def quick_step(
    interaction: discord.Interaction, match_id: int, seat: int, decisions: int, key: str
) -> None:
    """Take the quick action a button offers, for the seat it was posted for, then
    announce it as any action is: the answer is a deferred update of the message the
    button is on, which the publisher edits with the turn's lines through it. The
    clicker reads what only they may (a card drawn, say) in a private followup. A button
    of a private question (see `offer_privately`) turns that question into what
    happened, its buttons gone."""
    matches = service(interaction)
    table = await matches.table(match_id)
    mine = table.seat_of(interaction.user.id)
    if mine is None:
        raise errors.NotInMatch()
    if table.match.status != "active":
        raise await matches.not_in_play(table.match, mine.seat)
    if mine.seat != seat:
        raise errors.NotYourTurn(not_yours(table, mine.seat, seat))
    pv = await matches.view(match_id, interaction.user.id)
    narrowed = [c for c in pv.choices if c.key.startswith(f"{key}|")]
    if pv.decisions == decisions and narrowed and key not in {c.key for c in pv.choices}:
        await offer_privately(interaction, pv, narrowed)  # the button stands for these
        return
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        try:
            act = matches.act(match_id, interaction.user.id, key, decisions=decisions)
            result = await in_time(interaction, act)
        except errors.StaleChoice:
            raise errors.StaleChoice(STALE_BUTTONS) from None
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            # A private question answered: it now says what happened, its buttons gone.
            told = edit_answer(interaction, content=done_text(result), view=None)
            if await reply_after_save(interaction, told):
                carry(result.table)  # its followups post the public lines
            return
        if not interaction.response.is_done():
            await defer(interaction)
        carry(result.table)
        if result.private_lines():
            reply = interaction.followup.send(done_text(result), ephemeral=True)
            await reply_after_save(interaction, reply)


MOST_OFFERED = 20  # choices a quick button's private answer offers as buttons (4 rows of 5)


async def offer_privately(
    interaction: discord.Interaction,
    pv: PrivateView,
    choices: list[Choice],
    question: str | None = None,
) -> None:
    """Answer a quick button that stands for several choices whose names only its player
    may read (End turn with the cards to discard), or a command the game answers with a
    question (`question`: Historia's "where do the cubes come from?"): the choices as
    buttons in a private reply, one tap each; with more than MOST_OFFERED of them, the
    player's panel, where they are chosen together."""
    table = pv.table
    buttons = [
        QuickButton(
            table.match.id, pv.seat, pv.decisions, c.key, c.label, QUICK_STYLES["secondary"]
        )
        for c in choices
        if len(quick_id(table.match.id, pv.seat, pv.decisions, c.key)) <= CUSTOM_ID_LIMIT
        and not re.search(r"\s", c.key)
    ]
    if len(buttons) != len(choices) or len(buttons) > MOST_OFFERED:
        await show_private(interaction, table.match.id)
        return
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    if question is None:
        asked = pv.question or "choose"
        question = f"**{asked[:1].upper()}{asked[1:]}**"
    await answer(interaction, content=question, view=view, ephemeral=True)


async def dispute_step(
    interaction: discord.Interaction, match_id: int, era: int, number: int, seat: int
) -> None:
    """Dispute the report a Dispute button names, for the clicker, then announce it as
    any action is. Refused without change when the clicker doesn't play in the match or
    made the report, or the button is stale: the report is no longer the latest
    undisputed one. The caller checked the button (`component_match`) and deferred the
    interaction."""
    matches = service(interaction)
    table = await matches.table(match_id)
    mine = table.seat_of(interaction.user.id)
    if mine is None:
        raise errors.NotInMatch()
    if table.match.status != "active":
        raise await matches.not_in_play(table.match, mine.seat)
    key = f"dispute|{number}"
    offered = (table.view or {}).get("for_anyone") or []
    current = any(
        isinstance(e, dict) and e.get("key") == key and str(e.get("not_seat")) == str(seat)
        for e in offered
    )
    if not current or (table.view or {}).get("era", 0) != era:
        raise errors.StaleChoice(STALE_DISPUTE.format(number=number))
    # Its reporter is refused by the rules, which say what to do instead.
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        result = await matches.act(match_id, interaction.user.id, key)
        reply = interaction.followup.send(done_text(result), ephemeral=True)
        if await reply_after_save(interaction, reply):
            carry(result.table)  # the disputed line's message, edited through it


async def ask_concede(interaction: discord.Interaction, match_id: int) -> None:
    """Answer `/match concede` with its confirmation, ephemeral (nothing changes yet);
    refused at once when the caller could not concede."""
    table, seat, outcome = await service(interaction).concession(match_id, interaction.user.id)
    await interaction.response.send_message(**concede_message(table, seat, outcome))
