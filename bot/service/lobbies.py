"""Lobbies (`Lobbies`): opening one, taking and leaving seats, the AI's seats, the
options a host sets, and starting the match."""

from __future__ import annotations

import logging
import secrets
from collections.abc import (
    Mapping,
    Sequence,
)
from typing import Any

import ai
from bot.service import errors, outbox
from bot.service.match_core import MatchCore, quoted
from bot.service.outbox import Notice
from bot.service.store import (
    ChannelBusy,
)
from bot.service.tables import (
    AI_NAME,
    MAX_SEED,
    OPTIONS_FIXED,
    RULES_VERSION,
    Table,
    ai_level,
    declared_options,
    default_pack,
    setup_options,
)
from bot.service.timing import ClockTerms
from rules.core import (
    Game,
    OptionError,
    OptionInfo,
    SeatSpec,
    find_choice,
    find_option,
)

log = logging.getLogger(__name__)


class Lobbies(MatchCore):
    """Lobbies, seats and the start."""

    async def new_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        game: str,
        variant: str | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        ai_level: str | None = None,
        terms: ClockTerms | None = None,
    ) -> Table:
        """Open a lobby in a channel, with its creator in the first seat (and with
        `ai_level`, the AI in the second: a game against it, 2 players unless the variant
        says otherwise, in a DM too), saved with its clock `terms` in one write (None:
        the stored defaults, a day and `skip`).

        A chosen `seed` is public (every shuffle can be predicted from it); without
        one a seed is drawn and kept from the players while the match is open.
        `options["pack"]` names the card pack (default: the game's own); the game's
        declared options may be given too (BadOption for a value one doesn't have), and
        any other entry is passed to its setup as it is.
        """
        rules = self.game(game)
        if ai_level is not None and not ai.plays(rules.id):
            raise errors.NoAI(f"Arbiter doesn't play {rules.name}: it referees it for the table.")
        variant = variant_id(rules, variant, alone=guild_id is None and ai_level is None)
        options = dict(options or {})
        pack = str(options.pop("pack", None) or default_pack(rules))
        try:
            declared_options(rules, variant, options)
        except OptionError as refused:
            raise errors.BadOption(refused.message) from None
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        try:
            match = await self.records.create(
                guild_id=guild_id,
                channel_id=channel_id,
                game=rules.id,
                variant=variant,
                pack=pack,
                seed=seed,
                seed_chosen=seed_chosen,
                rules_version=RULES_VERSION,
                created_by=user_id,
                host_name=name,
                options=options,
                terms=terms,
            )
        except ChannelBusy:
            raise errors.ChannelHasMatch() from None
        log.info("match %s: lobby for %s/%s in channel %s", match.id, game, variant, channel_id)
        if ai_level is not None:  # the creator's answer posts the lobby: no notice of it
            return await self.add_ai(match.id, user_id, ai_level, tell=False)
        return self._table(match, await self.records.seats(match.id))

    async def join(self, match_id: int, user_id: int, name: str) -> Table:
        """Take the next free seat of a lobby."""
        async with self._lock(match_id):
            table = await self.table(match_id)
            if table.match.status != "lobby":
                raise errors.NotLobby()
            if table.seat_of(user_id) is not None:
                raise errors.AlreadyJoined()
            most = table.variant.max_players
            added = await self.records.add_seat(
                match_id, user_id, name, max_seats=most, notices=[outbox.board(match_id)]
            )
            if not added:
                raise errors.LobbyFull(f"This lobby is full ({most} players).")
            return await self.table(match_id)

    async def leave(self, match_id: int, user_id: int) -> Table:
        """Give up a lobby seat; the lobby closes when its last person leaves (the AI
        seated there leaves with them: it never hosts). One change, so the lobby message
        is redrawn once it is done, never from a lobby left empty but open."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if table.seat_of(user_id) is None:
                raise errors.NotInMatch("You are not in this lobby.")
            if table.match.status != "lobby":
                raise errors.NotLobby("The match has started: use `/match concede` to give up.")
            await self.records.remove_seat(match_id, user_id, notices=[outbox.board(match_id)])
            table = await self.table(match_id)
            if not any(s.person for s in table.seats):
                for robot in table.seats:
                    await self.records.remove_seat(match_id, robot.user_id)
                await self.records.set_status(match_id, "cancelled", only_from="lobby")
                table = await self.table(match_id)
            return table

    async def cancel(
        self,
        match_id: int,
        user_id: int,
        *,
        moderator: bool = False,
        notices: Sequence[Notice] = (),
    ) -> Table:
        """Close a lobby (its host), or any open match (a moderator's abort, which the
        moderation service logs, telling the table with its `notices`)."""
        async with self._change(match_id):
            table = await self.table(match_id)
            status = table.match.status
            if status not in ("lobby", "active"):
                raise errors.NotActive("This match is already over.")
            if not moderator:
                if status != "lobby":
                    raise errors.NotLobby(
                        "The match has started: use `/match concede` to give up "
                        "(a moderator can stop it with `/mod abort`)."
                    )
                if table.host is None or table.host.user_id != user_id:
                    raise errors.NotHost(
                        "Only the host (the first player seated) can cancel "
                        "(a moderator can with `/mod abort`)."
                    )
            told = notices or [outbox.board(match_id)]
            await self.records.set_status(match_id, "cancelled", only_from=status, notices=told)
            log.info("match %s: cancelled by %s", match_id, user_id)
            table = await self.table(match_id)
        return table

    async def set_option(self, match_id: int, user_id: int, option: str, value: str) -> Table:
        """The host changes one of the game's options while the match is a lobby. The
        option and the value are named by id or label, in any case (BadOption, listing
        what exists, when they name none)."""
        async with self._lock(match_id):
            table = await self.table(match_id)
            if table.match.status != "lobby":
                raise errors.NotLobby(
                    "This lobby was closed." if table.match.snapshot is None else OPTIONS_FIXED
                )
            host = table.host
            if host is None or host.user_id != user_id:
                name = host.name if host is not None else "the first player seated"
                raise errors.NotHost(f"Only the host ({name}) can change the options.")
            try:
                info = find_option(table.game, option)
                if not info.belongs_to(table.match.variant):
                    raise OptionError(not_this_variant(table, info))
                chosen = {**table.match.options, info.id: find_choice(info, value)}
                declared_options(table.game, table.match.variant, chosen)
            except OptionError as refused:
                raise errors.BadOption(refused.message) from None
            if not await self.records.set_options(
                match_id, chosen, notices=[outbox.board(match_id)]
            ):
                raise errors.NotLobby(OPTIONS_FIXED)
            log.info("match %s: option %s set to %s", match_id, info.id, chosen[info.id])
            return await self.table(match_id)

    async def _hosted_lobby(self, match_id: int, user_id: int, doing: str) -> Table:
        """The lobby, when `user_id` hosts it (NotLobby, or NotHost saying who may do what
        the caller is `doing`)."""
        table = await self.table(match_id)
        if table.match.status != "lobby":
            raise errors.NotLobby()
        if table.host is None or table.host.user_id != user_id:
            raise errors.NotHost(f"Only the host (the first player seated) can {doing}.")
        return table

    async def start(self, match_id: int, user_id: int) -> Table:
        """Deal: seats in join order, set up by the game from the match seed."""
        async with self._change(match_id):
            table = await self._hosted_lobby(match_id, user_id, "start")
            info = table.variant
            count = len(table.seats)
            if not info.min_players <= count <= info.max_players:
                wanted = (
                    f"{info.min_players}"
                    if info.min_players == info.max_players
                    else f"{info.min_players} to {info.max_players}"
                )
                joined = "1 has" if count == 1 else f"{count} have"
                raise errors.WrongPlayerCount(
                    f"This match needs {wanted} players to start; {joined} joined so far."
                )
            game = table.game
            specs = [SeatSpec(seat=s.seat, name=s.name) for s in table.seats]
            match = table.match
            # Every option's value is stored as the deal used it, defaults included, so
            # the export states them and a replay never depends on a later default.
            options = {**match.options, **declared_options(game, info.id, match.options)}
            setup = setup_options(game, info.id, options, match.pack)
            state = game.setup(info.id, specs, setup, match.seed)
            teams = {s.seat: game.team_of(state, s.seat) for s in table.seats}
            if not await self.records.start(
                match_id,
                snapshot=state.model_dump_json(),
                teams=teams,
                options=options,
                notices=[outbox.start(match_id)],
            ):
                raise errors.StateChanged()
            log.info("match %s: started with %d players", match_id, count)
            table = self._table(await self.get(match_id), await self.records.seats(match_id), state)
        return table

    async def add_ai(self, match_id: int, user_id: int, level: str, *, tell: bool = True) -> Table:
        """The host seats the AI, at `level`, in the lobby's next free seat (the lobby
        message brought up to date, unless `tell` is off: a lobby not posted yet, whose
        creator's answer posts it)."""
        async with self._lock(match_id):
            table = await self._hosted_lobby(match_id, user_id, "add the AI")
            if not ai.plays(table.game.id):
                raise errors.NoAI(
                    f"Arbiter doesn't play {table.game.name}: it referees it for the table."
                )
            level = ai_level(level)
            most = table.variant.max_players
            robots = [s for s in table.seats if not s.person]
            number = f" {len(robots) + 1}" if robots else ""
            name = f"{AI_NAME}{number} ({ai.LEVEL_NAMES[level].lower()})"
            free_id = min((s.user_id for s in robots), default=0) - 1
            added = await self.records.add_seat(
                match_id,
                free_id,
                name,
                max_seats=most,
                ai=level,
                notices=[outbox.board(match_id)] if tell else [],
            )
            if not added:
                raise errors.LobbyFull(f"This lobby is full ({most} players).")
            log.info("match %s: the AI (%s) takes a seat", match_id, level)
            return await self.table(match_id)

    async def remove_ai(self, match_id: int, user_id: int) -> Table:
        """The host takes the last AI seated out of the lobby."""
        async with self._lock(match_id):
            table = await self._hosted_lobby(match_id, user_id, "remove the AI")
            robots = [s for s in table.seats if not s.person]
            if not robots:
                raise errors.NotInMatch("No AI sits in this lobby.")
            await self.records.remove_seat(
                match_id, robots[-1].user_id, notices=[outbox.board(match_id)]
            )
            return await self.table(match_id)

    async def set_practice(
        self,
        match_id: int,
        on: bool,
        *,
        user_id: int,
        kind: str,
        text: str,
        notices: Sequence[Notice],
    ) -> Table:
        """Mark an open match as practice (never rated; hints allowed) or not, with a line
        in its log (`kind`, `text`) and what to tell the table; StateChanged when it
        already is so."""
        async with self._change(match_id):
            table = await self.table(match_id)
            if table.match.status not in ("lobby", "active"):
                raise errors.NotActive("Only a lobby or a match in play can be marked.")
            marked = await self.records.set_practice(
                match_id, on, user_id=user_id, kind=kind, text=text, notices=notices
            )
            if not marked:
                raise errors.StateChanged(
                    "This match is already marked as practice."
                    if on
                    else "This match isn't marked as practice."
                )
            return await self.table(match_id)


def variant_id(game: Game, typed: str | None, *, alone: bool = False) -> str:
    """The variant `typed` names, by id or name in any case (none: the game's first);
    UnknownVariant, listing the game's variants, when it names none. `alone`: a match in
    a direct message with the bot, where only a one-player (solitaire) variant can be
    played (none named: the game's first such)."""
    solitaire = [v.id for v in game.variants.values() if v.max_players == 1]
    if alone and not solitaire:
        raise errors.UnknownVariant(
            f"{game.name} can't be played here: in a direct message with me only a "
            "solitaire game can be played. Open this match in a server's channel."
        )
    if typed is None or not typed.strip():
        return solitaire[0] if alone else next(iter(game.variants))
    wanted = typed.strip().casefold()
    for info in game.variants.values():
        if wanted in (info.id.casefold(), info.name.casefold()):
            if alone and info.max_players > 1:
                raise errors.UnknownVariant(
                    f"{info.name} needs other players: in a direct message with me only a "
                    f"solitaire game can be played ({', '.join(f'`{v}`' for v in solitaire)})."
                )
            return info.id
    known = ", ".join(f"`{v.id}` ({v.name})" for v in game.variants.values())
    raise errors.UnknownVariant(
        f"{game.name} has no variant `{quoted(typed)}`. Its variants: {known}."
    )


def not_this_variant(table: Table, info: OptionInfo) -> str:
    """Why an option can't be set in this lobby: it belongs to other variants."""
    game = table.game
    where = " and ".join(game.variants[v].name for v in info.only)
    return (
        f"{info.label} is an option of {game.name}'s {where} only, not of "
        f"{table.variant.name}: nothing changed."
    )
