"""`/historia`: a Historia table tells Arbiter what it plays (The Ways of Command).

Each command says what happened at the table in its own words ("territory add name:
Attica", "level track: Military value: 5") and becomes one action of the match, taken
like any other through the match service (the rules check it; a refusal is their
sentence), announced on the board and in the channel, and logged under its player.
The autocompletes offer what the caller may do now, from their legal actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.names import plain
from bot.render.generic import clip
from bot.render.historia_command import (
    ACTIVATING,
    WHERE_FROM,
    territory_suggestions,
    where_from,
    whole_label,
)
from bot.replies import guard
from bot.service import errors
from bot.service.store import MatchRow
from bot.service.tables import Table, words_fit
from bot.ui.choices import choice_name
from bot.ui.interactions import defer, reply_after_save
from bot.ui.table import done_text, offer_privately
from rules.core import IllegalAction
from rules.historia_command.powers import NO_CUBE

GAME_ID = "historia-command"
AUTOCOMPLETE_LIMIT = 25
# What the command's suggestion offers when no power can be taken: the token with no
# power named, which the rules always refuse (saying why, or that a power can be picked
# now), so that picking it never activates anything, however the table changed since.
NOT_NOW = "command"
NOT_HISTORIA = (
    "This channel's match isn't a Historia table: the `/historia` commands report what a "
    "Historia table plays. Use `/play` or `/hand` here."
)

TRACKS = [
    app_commands.Choice(name="Military", value="military"),
    app_commands.Choice(name="Technology", value="technology"),
]
PLACES = [
    app_commands.Choice(name="your personal supply", value="supply"),
    app_commands.Choice(name="the Bank (general supply)", value="bank"),
    app_commands.Choice(name="the Used Pool", value="used"),
    app_commands.Choice(name="your reserve", value="reserve"),
    app_commands.Choice(name="the map (your territories)", value="map"),
]
SYMBOLS = [
    app_commands.Choice(name="Territory & Military", value="territory-military"),
    app_commands.Choice(name="Military & Technology", value="military-technology"),
    app_commands.Choice(name="Technology & Territory", value="technology-territory"),
]


@app_commands.guild_only()
class HistoriaCog(
    commands.GroupCog,
    group_name="historia",
    group_description="Report what your Historia table plays (The Ways of Command).",
):
    """Reports, activations, disputes and the result of a Historia table."""

    territory = app_commands.Group(
        name="territory", description="A territory your civilization gained or lost."
    )

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ helpers

    async def _match(self, interaction: discord.Interaction) -> MatchRow:
        assert interaction.channel_id is not None
        match = await self.bot.matches.open_match(interaction.channel_id)
        if match.game != GAME_ID:
            raise errors.UserError(NOT_HISTORIA)
        return match

    async def _act(
        self,
        interaction: discord.Interaction,
        key: str | None = None,
        *,
        make: Callable[[Table], str] | None = None,
        typed: bool = False,
        kind: str | None = None,
        ask: bool = False,
    ) -> None:
        """Take the action `key` (or the one `make(table)` builds) for the caller, answer
        privately, then announce it publicly (through this interaction: see
        `Publisher.through`). `ask`: an activation the rules refuse for a cube Arbiter
        counts none of where it is taken is answered with the question of where the
        cubes come from (see `_ask_where`)."""
        async with guard(interaction):
            await defer(interaction, ephemeral=True)
            match = await self._match(interaction)
            if make is not None:
                key = make(await self.bot.matches.table(match.id))
            assert key is not None
            user = interaction.user.id
            with self.bot.publisher.through(interaction, match.id) as carry:
                try:
                    result = await self.bot.matches.act(match.id, user, key, typed=typed, kind=kind)
                except IllegalAction as refused:
                    if not ask or refused.code != NO_CUBE:
                        raise
                    await self._ask_where(interaction, match.id, key, refused)
                    return
                reply = interaction.followup.send(done_text(result), ephemeral=True)
                if await reply_after_save(interaction, reply):
                    carry(result.table)  # its followups post the report

    async def _ask_where(
        self, interaction: discord.Interaction, match_id: int, key: str, refused: IllegalAction
    ) -> None:
        """Ask, privately, where the cubes of an activation come from, the rules having
        refused `key` for a cube Arbiter counts none of there: a button for the same
        activation with its cube from each place, with Arbiter's count there (on the
        player's word that their table has it, where Arbiter counts too few). Nothing
        changed; with nothing to offer, the refusal stands."""
        pv = await self.bot.matches.view(match_id, interaction.user.id)
        offered = where_from(pv.view, key, pv.choices)
        if not offered:
            raise refused
        question = f"{WHERE_FROM}\n{refused.message}"
        await offer_privately(interaction, pv, offered, question=question)

    async def _table(self, interaction: discord.Interaction) -> Table | None:
        """The channel's Historia match in play, for an autocomplete (None: none)."""
        if interaction.channel_id is None:
            return None
        try:
            match = await self.bot.matches.open_match(interaction.channel_id)
        except errors.NoMatchHere:
            return None
        if match.game != GAME_ID or match.status != "active":
            return None
        return await self.bot.matches.table(match.id)

    async def _offered(
        self, interaction: discord.Interaction, prefix: str | tuple[str, ...], current: str
    ) -> list[tuple[str, str, str]]:
        """The caller's legal actions whose key starts with `prefix` (or one of them) and
        that the typed words fit: (key, label, suggestion name)."""
        if interaction.channel_id is None:
            return []
        table = await self._table(interaction)
        if table is None:
            return []
        choices = await self.bot.matches.choices(interaction.channel_id, interaction.user.id)
        return [  # a suggestion shows its text as it is: names without their escapes
            (c.key, plain(c.label), choice_name(c))
            for c in choices
            if c.key.startswith(prefix) and words_fit(current, f"{plain(c.label)} {c.key}")
        ][:AUTOCOMPLETE_LIMIT]

    # ------------------------------------------------------------------ set-up

    @app_commands.command(name="civilization", description="Name the civilization you play.")
    @app_commands.describe(name="Its name, as on your board (such as Greeks or Carthage)")
    async def civilization(self, interaction: discord.Interaction, name: str) -> None:
        await self._act(interaction, f"civ|{name}")

    @app_commands.command(
        name="token", description="The two categories a Command token shows (set-up only)."
    )
    @app_commands.describe(
        symbols="The two black symbols printed on the token",
        civilization="Whose token (default: yours; the host may set anyone's)",
    )
    @app_commands.choices(symbols=SYMBOLS)
    async def token(
        self, interaction: discord.Interaction, symbols: str, civilization: str | None = None
    ) -> None:
        def make(table: Table) -> str:
            return f"token|{_seat_named(table, interaction.user.id, civilization)}|{symbols}"

        await self._act(interaction, make=make)

    @token.autocomplete("civilization")
    async def token_civilizations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The civilizations whose token the caller may set, each with its token now."""
        table = await self._table(interaction)
        if table is None:
            return []
        seats = {key.split("|")[1] for key, _, _ in await self._offered(interaction, "token|", "")}
        offered = []
        for civ in (table.view or {}).get("civs") or []:
            if str(civ.get("seat")) not in seats:
                continue
            token = (civ.get("token") or {}).get("label", "?")
            name = f"{civ.get('name')} ({civ.get('player')}) — token now {token}"
            if words_fit(current, name):
                offered.append(app_commands.Choice(name=clip(name, 100), value=str(civ["seat"])))
        return offered[:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="begin", description="Begin Era I (the host, once all are named).")
    async def begin(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "begin")

    # ------------------------------------------------------------------ reports

    @territory.command(name="add", description="Your civilization now holds a territory.")
    @app_commands.describe(name="The territory (shared with another civilization too)")
    async def territory_add(self, interaction: discord.Interaction, name: str) -> None:
        await self._act(interaction, f"territory|add|{name}")

    @territory_add.autocomplete("name")
    async def territories_to_add(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The territories others hold that fit the typed words (to share one), then the
        typed name as a new territory."""
        table = await self._table(interaction)
        if table is None:
            return []
        mine = table.seat_of(interaction.user.id)
        offered = territory_suggestions(table.view or {}, mine.seat if mine else None, current)
        return [app_commands.Choice(name=clip(name, 100), value=value) for name, value in offered]

    @territory.command(name="remove", description="Your civilization no longer holds a territory.")
    @app_commands.describe(name="One of your territories")
    async def territory_remove(self, interaction: discord.Interaction, name: str) -> None:
        await self._act(interaction, f"territory|remove|{name}")

    @territory_remove.autocomplete("name")
    async def own_territories(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's territories."""
        offered = await self._offered(interaction, "territory|remove|", current)
        return [
            app_commands.Choice(name=clip(label, 100), value=key.split("|", 2)[2])
            for key, label, _ in offered
        ]

    @app_commands.command(name="level", description="A Military or Technology level moved.")
    @app_commands.describe(
        track="Which track",
        value="The level its marker shows now (without Command's +2, which Arbiter adds)",
    )
    @app_commands.choices(track=TRACKS)
    async def level(self, interaction: discord.Interaction, track: str, value: int) -> None:
        await self._act(interaction, f"level|{track}|{value}")

    @app_commands.command(
        name="cubes", description="Cubes of yours moved from one place to another."
    )
    @app_commands.describe(count="How many cubes", source="Where they were", to="Where they went")
    @app_commands.rename(source="from")
    @app_commands.choices(source=PLACES, to=PLACES)
    async def cubes(
        self, interaction: discord.Interaction, count: int, source: str, to: str
    ) -> None:
        await self._act(interaction, f"cubes|{count}|{source}|{to}")

    @app_commands.command(name="turn", description="The table starts its next turn.")
    async def turn(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "turn")

    @app_commands.command(
        name="era-end", description="The Era ends (after its last turn): the others confirm."
    )
    async def era_end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "era")

    # ------------------------------------------------------------------ the token

    @app_commands.command(name="command", description="Activate your Command token: pick a power.")
    @app_commands.describe(power="Offers only what your civilization may take now")
    async def activate(self, interaction: discord.Interaction, power: str) -> None:
        if power == NOT_NOW or power.startswith(tuple(f"{k}|" for k in ACTIVATING)):
            await self._act(interaction, power, ask=True)
        else:  # typed words: the command action they name (never one on the player's word)
            await self._act(interaction, power, typed=True, kind="command")

    @activate.autocomplete("power")
    async def powers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The powers (with where the token's cube comes from) the caller may take now;
        when there is none, why not."""
        offered = await self._offered(interaction, tuple(f"{k}|" for k in ACTIVATING), current)
        if offered:
            return [
                app_commands.Choice(name=whole_label(label, name), value=key)
                for key, label, name in offered
            ]
        table = await self._table(interaction)
        mine = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or mine is None:
            return []
        civ = next(
            (c for c in (table.view or {}).get("civs") or [] if c.get("seat") == mine.seat), {}
        )
        why = _not_now(table, civ)
        return [app_commands.Choice(name=clip(f"Not now: {why}", 100), value=NOT_NOW)]

    # ------------------------------------------------------------------ disputes

    @app_commands.command(name="dispute", description="Another player's report is wrong: pause.")
    @app_commands.describe(report="The report's number (#5), from the recent ones")
    async def dispute(self, interaction: discord.Interaction, report: str) -> None:
        await self._act(interaction, _report_key("dispute", report))

    @dispute.autocomplete("report")
    async def disputable(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The recent reports the caller may dispute."""
        return await self._reports(interaction, "dispute", current)

    async def _reports(
        self, interaction: discord.Interaction, kind: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal actions of `kind` on a report, valued by its number."""
        offered = await self._offered(interaction, f"{kind}|", current.lstrip("#"))
        return [
            app_commands.Choice(name=clip(label, 100), value=key.split("|")[1])
            for key, label, _ in offered
        ]

    @app_commands.command(name="withdraw", description="Drop your dispute: the report stands.")
    async def withdraw(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "withdraw")

    @app_commands.command(
        name="retract",
        description="Take back a report of yours: the one disputed, or a recent one.",
    )
    @app_commands.describe(report="One of your recent reports (#5); none: the one disputed")
    async def retract(self, interaction: discord.Interaction, report: str | None = None) -> None:
        await self._act(
            interaction, "retract" if report is None else _report_key("retract", report)
        )

    @retract.autocomplete("report")
    async def own_reports(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's recent reports they may take back."""
        return await self._reports(interaction, "retract", current)

    # ------------------------------------------------------------------ the result

    @app_commands.command(name="result", description="After the last Era: who won.")
    @app_commands.describe(
        winner="The civilization that won, as the table scored it (or several sharing the win)"
    )
    async def result(self, interaction: discord.Interaction, winner: str) -> None:
        if winner.startswith("result|"):
            await self._act(interaction, winner)
            return

        def make(table: Table) -> str:  # one civilization named: its win alone
            seat = _seat_exactly(table, winner)
            return winner if seat is None else f"result|{seat}"

        await self._act(interaction, make=make, typed=True, kind="result")

    @result.autocomplete("winner")
    async def winners(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        offered = await self._offered(interaction, "result|", current)
        return [app_commands.Choice(name=clip(label, 100), value=key) for key, label, _ in offered]

    @app_commands.command(
        name="agree", description="Agree with the end of the Era, or the result, reported."
    )
    async def agree(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "agree")

    @app_commands.command(
        name="object", description="Object to the end of the Era, or the result, reported."
    )
    async def object_to(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "object")


def _not_now(table: Table, civ: dict[str, Any]) -> str:
    """Why a civilization's token can't be activated, as its view says."""
    token = civ.get("token") or {}
    phase = (table.view or {}).get("phase")
    if token.get("status") == "active":
        return f"your token is active already this Era ({token.get('power')})"
    if token.get("status") == "removed":
        return "your token was used in an earlier Era (out of the game)"
    if phase == "dispute":
        return "the match is paused by a dispute"
    if phase == "ending":
        return "the end of the Era waits for the table"
    if phase != "era":
        return "a token is activated during an Era"
    return str(token.get("why_not") or "your token can't be activated now")


def _report_key(kind: str, typed: str) -> str:
    """The action of `kind` on the report a `report:` option names ("5", "#5", or the
    suggestion's key)."""
    return f"{kind}|{typed.strip().removeprefix(f'{kind}|').lstrip('#').strip()}"


def _seat_named(table: Table, user_id: int, named: str | None) -> int:
    """The seat a `civilization:` option names: a seat number (from the suggestions), a
    civilization's or a player's name; none: the caller's own."""
    if named is None or not named.strip():
        mine = table.seat_of(user_id)
        if mine is None:
            raise errors.NotInMatch()
        return mine.seat
    seat = _seat_exactly(table, named)
    if seat is None:
        raise errors.UserError(
            f"No civilization here is called “{clip(named.strip(), 40)}”: pick one of the "
            "suggestions."
        )
    return seat


def _seat_exactly(table: Table, named: str) -> int | None:
    """The seat whose number, civilization's name or player's name `named` is (any
    case), or None."""
    wanted = named.strip().casefold()
    civs = (table.view or {}).get("civs") or []
    for civ in civs:
        if wanted in (str(civ.get("seat")), str(civ.get("name")).casefold()):
            return int(civ["seat"])
    for civ in civs:
        if wanted == str(civ.get("player")).casefold():
            return int(civ["seat"])
    return None


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(HistoriaCog(host(bot)))
