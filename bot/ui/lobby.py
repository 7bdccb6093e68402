"""The lobby's components and flows: joining and leaving a seat, the AI's seats, the
options a host sets, and starting the match."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.names import shown_name
from bot.render import (
    host_left,
    lobby_embed,
    short_choice,
)
from bot.render.generic import clip
from bot.replies import guard
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.tables import AI_NAME, Table
from bot.ui.interactions import (
    arbiter,
    component_match,
    defer,
    only_choice,
    reply_after_save,
    service,
)
from rules.core import OptionError, OptionInfo, find_option

log = logging.getLogger(__name__)


LOBBY_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


# A row of their own under the lobby's buttons, at a game the AI plays.
LOBBY_AI_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "ai-easy": ("🤖 Add AI (easy)", discord.ButtonStyle.secondary),
    "ai-strong": ("🤖 Add AI (strong)", discord.ButtonStyle.secondary),
    "no-ai": ("Remove AI", discord.ButtonStyle.secondary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"arbiter:lobby:(?P<op>join|leave|start|cancel|ai-easy|ai-strong|no-ai)"
        r":(?P<match_id>[0-9]+)"
    ),
):
    """Join / Leave / Start / Cancel under a lobby message, and the AI's buttons."""

    def __init__(
        self, op: str, match_id: int, *, disabled: bool = False, row: int | None = None
    ) -> None:
        label, style = {**LOBBY_BUTTONS, **LOBBY_AI_BUTTONS}[op]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=f"arbiter:lobby:{op}:{match_id}",
                row=row,
            )
        )
        self.op = op
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["op"], int(match["match_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            await defer(interaction)
            await lobby_step(interaction, self.op, self.match_id, on_lobby_message=True)


class OptionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"arbiter:option:(?P<match_id>[0-9]+):(?P<option>[a-z][a-z0-9_-]*)",
):
    """One of a lobby's option menus (`arbiter:option:<match>:<option id>`): the host picks
    the option's value, and the lobby message shows it."""

    def __init__(
        self,
        match_id: int,
        option: str,
        choices: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"arbiter:option:{match_id}:{option}",
                options=choices or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.match_id = match_id
        self.option = option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OptionSelect:
        return cls(int(match["match_id"]), match["option"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction):
            await component_match(interaction, self, self.match_id)
            value = only_choice(self.item)
            await defer(interaction)
            await option_step(interaction, self.match_id, self.option, value, on_lobby_message=True)


def lobby_view(table: Table) -> discord.ui.View | None:
    """The lobby's buttons while it is open (Start only once enough players have joined,
    Join only while a seat is free),
    and under them one menu per game option, showing its value; none once it started or
    closed."""
    if table.match.status != "lobby":
        return None
    short = len(table.seats) < table.variant.min_players
    options = table.options
    view = discord.ui.View(timeout=None)
    with_ai = table.ai_welcome
    row = 0 if options or with_ai else None  # else Discord's own layout
    full = len(table.seats) >= table.variant.max_players
    for op in LOBBY_BUTTONS:
        disabled = (op == "start" and short) or (op == "join" and full)
        view.add_item(LobbyButton(op, table.match.id, disabled=disabled, row=row))
    if with_ai:
        robots = any(not s.person for s in table.seats)
        for op in LOBBY_AI_BUTTONS:
            disabled = not robots if op == "no-ai" else full
            view.add_item(LobbyButton(op, table.match.id, disabled=disabled, row=1))
    for number, (info, value) in enumerate(options, start=1 + with_ai):
        choices = option_menu(info, value)
        view.add_item(
            OptionSelect(table.match.id, info.id, choices, clip(info.label, 150), row=number)
        )
    return view


def option_menu(info: OptionInfo, value: str) -> list[discord.SelectOption]:
    """An option's choices as its lobby menu offers them, the current one selected."""
    return [
        discord.SelectOption(label=clip(label, 100), value=choice, default=choice == value)
        for choice, label in info.choices.items()
    ]


async def lobby_step(
    interaction: discord.Interaction, op: str, match_id: int, *, on_lobby_message: bool
) -> None:
    """Join, leave, start or cancel a lobby, then update the lobby message.

    From a lobby button the answer is the edited lobby message itself; from a
    slash command it is an ephemeral confirmation and the lobby message is
    edited where it stands. The caller has deferred the interaction when it came
    from a lobby button; a slash command is deferred here.
    """
    if not on_lobby_message:
        await defer(interaction, ephemeral=True)
    matches = service(interaction)
    user = interaction.user
    # Its answer given, the interaction carries what the step tells the channel: the
    # lobby brought up to date, or the board and the first call (see `Publisher.through`).
    with arbiter(interaction).publisher.through(interaction, match_id) as carry:
        if op == "join":
            table = await matches.join(match_id, user.id, shown_name(user.display_name))
            seat = table.seat_of(user.id)
            done = f"You joined the lobby (seat {seat.seat + 1 if seat else '?'})."
        elif op == "leave":
            table = await matches.leave(match_id, user.id)
            done = "You left the lobby."
            if host_left(table):
                done = (
                    "You left, and nobody else had taken a seat, so the lobby closed. "
                    "Open a new one with `/match new`."
                )
        elif op == "start":
            table = await matches.start(match_id, user.id)
            done = "The match has started."
        elif op in ("ai-easy", "ai-strong"):
            table = await matches.add_ai(match_id, user.id, op.removeprefix("ai-"))
            done = f"{AI_NAME} takes a seat."
        elif op == "no-ai":
            table = await matches.remove_ai(match_id, user.id)
            done = f"{AI_NAME} left the lobby."
        else:
            # Moderators stop other people's matches with /mod abort, which logs who did it.
            table = await matches.cancel(match_id, user.id)
            done = "The match was cancelled."
        await _lobby_answer(interaction, table, done, on_lobby_message)
        carry(table)


async def _lobby_answer(
    interaction: discord.Interaction, table: Table, done: str, on_lobby_message: bool
) -> None:
    """Answer a lobby step: with the lobby message brought up to date when the step came
    from it, else privately with `done`."""
    if on_lobby_message:
        reply = interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
        await reply_after_save(interaction, reply)
        if host_left(table):  # the message says so; the one who closed it is told too
            await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))
    else:
        await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))


async def option_step(
    interaction: discord.Interaction,
    match_id: int,
    option: str,
    value: str,
    *,
    on_lobby_message: bool,
) -> None:
    """The host sets one of a lobby's options (named by id or label), then the lobby
    message shows it.

    From a lobby menu the answer is the edited lobby message itself (a refusal also
    puts the clicker's menu back to the option's value); from `/match option` it is an
    ephemeral confirmation, and the lobby message is edited where it stands. The caller
    has deferred the interaction when it came from a menu.
    """
    if not on_lobby_message:
        await defer(interaction, ephemeral=True)
    matches = service(interaction)
    try:
        table = await matches.set_option(match_id, interaction.user.id, option, value)
    except errors.UserError:
        if on_lobby_message:
            await _show_lobby(interaction, match_id)
        raise
    if on_lobby_message:
        reply = interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
        if await reply_after_save(interaction, reply):
            return
    else:
        info = find_option(table.game, option)
        value = table.option_values[info.id]
        done = f"{info.label}: now **{info.choices[value]}**."
        await reply_after_save(interaction, interaction.followup.send(done, ephemeral=True))


async def _show_lobby(interaction: discord.Interaction, match_id: int) -> None:
    """Edit a lobby message to the lobby as it stands (its menus show the saved values;
    a match that started loses them); a failure is only logged."""
    try:
        table = await service(interaction).table(match_id)
        await interaction.edit_original_response(embed=lobby_embed(table), view=lobby_view(table))
    except (discord.HTTPException, errors.UserError):
        log.info("could not show lobby %s again after a refusal", match_id, exc_info=True)


async def option_name_choices(
    matches: MatchService, channel_id: int | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The options of a channel's lobby, as `/match option name:` suggests them while
    typed: each by its label, with its value now and what it changes."""
    table = await _open_lobby(matches, channel_id)
    if table is None:
        return []
    wanted = typed.casefold().strip()
    offered = []
    for info, value in table.options:
        if wanted not in f"{info.id} {info.label} {info.blurb}".casefold():
            continue
        name = f"{info.label} (now: {short_choice(info, value)})"
        if info.blurb:
            name += f" — {info.blurb}"
        offered.append(app_commands.Choice(name=clip(name, 100), value=info.id))
    return offered[:25]


async def option_value_choices(
    matches: MatchService, channel_id: int | None, option: str | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The choices of the option named in `/match option name:`, as `value:` suggests
    them while typed (the current one marked)."""
    table = await _open_lobby(matches, channel_id)
    if table is None or not option:
        return []
    try:
        info = find_option(table.game, option)
    except OptionError:
        return []
    now = table.option_values[info.id]
    wanted = typed.casefold().strip()
    return [
        app_commands.Choice(name=clip(label + (" (now)" if value == now else ""), 100), value=value)
        for value, label in info.choices.items()
        if wanted in f"{value} {label}".casefold()
    ][:25]


async def _open_lobby(matches: MatchService, channel_id: int | None) -> Table | None:
    """The lobby open in a channel, if there is one."""
    if channel_id is None:
        return None
    match = await matches.records.open_in(channel_id)
    if match is None or match.status != "lobby":
        return None
    return await matches.table(match.id)


# Every component of this module that outlives a restart.
PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LobbyButton, OptionSelect)
