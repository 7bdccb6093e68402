"""A simulated server for the Discord tests: one game channel, named players, and
helpers that read what a player sees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import simcord

from bot.app import ArbiterBot
from bot.service.store import MatchRow


@dataclass
class World:
    """A server with a `#games` channel and members alice, bob, carol, dave, eve and frank."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    dave: simcord.MemberActor
    eve: simcord.MemberActor
    frank: simcord.MemberActor
    match_id: int | None = None

    @classmethod
    def build(cls, env: simcord.Env) -> World:
        guild = env.create_guild("Table Top")
        channel = guild.create_text_channel("games")
        members = [
            guild.add_member(env.create_user(name))
            for name in ("alice", "bob", "carol", "dave", "eve", "frank")
        ]
        return cls(env, guild, channel, *members)

    @property
    def bot(self) -> ArbiterBot:
        bot = self.env.bot
        assert isinstance(bot, ArbiterBot)
        return bot

    def by_id(self, user_id: int) -> simcord.MemberActor:
        """The member with this user id."""
        return next(
            m
            for m in (self.alice, self.bob, self.carol, self.dave, self.eve, self.frank)
            if m.id == user_id
        )

    async def match(self) -> MatchRow:
        """The match opened last in the game channel."""
        assert self.match_id is not None, "no match opened yet"
        return await self.bot.matches.get(self.match_id)

    async def state(self) -> Any:
        """The saved state of that match, as its game's model."""
        match = await self.match()
        assert match.snapshot is not None
        return self.bot.matches.game(match.game).state_model.model_validate_json(match.snapshot)

    def public(self) -> list[discord.Message]:
        """The public messages of the game channel with text, oldest first."""
        return [
            m for m in self.channel.history(viewer=self.eve) if m.content and not m.flags.ephemeral
        ]

    def posts(self, since: int = 0) -> list[dict[str, Any]]:
        """The public messages the bot posted in the game channel since request number
        `since`: in the channel, or as the public followup of an interaction made there."""
        path = f"/channels/{self.channel.id}/messages"
        return [
            r.json
            for r in self.env.http_requests[since:]
            if r.method == "POST" and (r.path == path or self._public_followup_here(r.path, r.json))
        ]

    def _public_followup_here(self, path: str, body: Any) -> bool:
        """Whether a request posted a public followup of an interaction in the game channel."""
        parts = path.strip("/").split("/")
        if len(parts) != 3 or parts[0] != "webhooks" or not isinstance(body, dict):
            return False
        if int(body.get("flags") or 0) & 64:  # ephemeral
            return False
        backend = self.env.backend
        made = backend.interaction_tokens.get(parts[2])
        return made is not None and backend.interactions[made].channel_id == self.channel.id

    def edits_of(self, message: Any, since: int = 0) -> list[Any]:
        """The requests since request number `since` that edited `message` (a private
        view) through the token of an interaction: its redraws, without a call on the
        bot's global rate limit."""
        backend = self.env.backend
        edits = []
        for r in self.env.http_requests[since:]:
            if r.method != "PATCH" or not r.path.endswith("/messages/@original"):
                continue
            made = backend.interaction_tokens.get(r.path.strip("/").split("/")[2])
            if made is not None and backend.interactions[made].message_id == message.id:
                edits.append(r)
        return edits

    def fail_posts(self, status: int, *, code: int = 0, message: str = "", times: int = 1) -> None:
        """The game channel's next public posts fail: `times` in the channel, and the next
        one through an interaction (whose failure falls back to the channel)."""
        path = f"/channels/{self.channel.id}/messages"
        fault = {"status": status, "code": code, "message": message}
        self.env.inject_error("POST", path, times=times, **fault)
        self.env.inject_error("POST", "/webhooks/*/*", times=1, **fault)

    async def board(self) -> discord.Message:
        """The message showing the match (its lobby, then its board)."""
        return await self.board_in(self.channel)

    async def board_in(self, channel: Any) -> discord.Message:
        """The message showing the match in `channel` (the game channel, or a DM)."""
        match = await self.match()
        return next(m for m in channel.history() if m.id == match.board_message_id)

    async def open(
        self, host: simcord.MemberActor, game: str, variant: str, seed: int = 7
    ) -> simcord.InteractionResult:
        """`/match new` by `host`; remembers the match it opened."""
        opened = await host.slash(self.channel, "match new", game=game, variant=variant, seed=seed)
        self.match_id = (await self.bot.matches.open_match(self.channel.id)).id
        return opened

    async def full_board(self, viewer: simcord.MemberActor) -> discord.Embed:
        """The whole text board, as `viewer` reads it with the board's **Full board**
        button (only they see it)."""
        shown = await viewer.click(await self.board(), label="Full board")
        assert shown.response is not None and shown.response.ephemeral
        return shown.response.embeds[0]

    async def start(
        self, game: str, variant: str, players: list[simcord.MemberActor], seed: int = 7
    ) -> MatchRow:
        """Open a lobby as the first player, join the others by button, start by button."""
        host, *others = players
        opened = await self.open(host, game, variant, seed)
        assert opened.response is not None
        for player in others:
            await player.click(opened.response, label="Join")
        await host.click(opened.response, label="Start")
        match = await self.match()
        assert match.status == "active"
        return match

    async def concede(
        self, player: simcord.MemberActor, channel: simcord.ChannelHandle | None = None
    ) -> simcord.InteractionResult:
        """`/match concede` by `player`, confirmed with the confirmation's Concede button;
        the click's result."""
        asked = await player.slash(channel or self.channel, "match concede")
        assert asked.response is not None and asked.response.ephemeral
        return await player.click(asked.response, label="Concede")

    async def to_act(self) -> list[simcord.MemberActor]:
        """The players whose decision the match waits for."""
        table = await self.bot.matches.table((await self.match()).id)
        return [self.by_id(table.user_of(seat).user_id) for seat in table.to_act]

    def public_lines(self) -> list[str]:
        """Every non-ephemeral plain message of the game channel, oldest first."""
        return [
            m.content
            for m in self.channel.history(viewer=self.eve)
            if m.content and not m.flags.ephemeral
        ]


def answered(result: simcord.InteractionResult) -> list[Any]:
    """The answers an interaction gave the one who made it: its private follow-ups, else
    its response (the table's own lines may be posted as its public follow-ups)."""
    private = [m for m in result.followups if m.ephemeral]
    return private or [m for m in [result.response] if m is not None]


def private_followups(result: simcord.InteractionResult) -> list[Any]:
    """An interaction's private follow-ups (not the table's lines posted through it)."""
    return [m for m in result.followups if m.ephemeral]


def custom_ids(message: Any) -> list[str]:
    """The custom ids of every component of a message (or a response message)."""
    rows = message.components
    found: list[str] = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            custom_id = child["custom_id"] if isinstance(child, dict) else child.custom_id
            if custom_id:
                found.append(custom_id)
    return found


def buttons(message: simcord.ResponseMessage) -> list[dict[str, Any]]:
    """The buttons of a response message, as raw component payloads."""
    return [c for row in message.components for c in row["components"] if c.get("type") == 2]


def option_values(message: Any) -> list[str]:
    """The values offered by the action menu of a private view."""
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict) and child.get("type") == 3:
                return [o["value"] for o in child["options"]]
            if isinstance(child, discord.SelectMenu):
                return [o.value for o in child.options]
    return []


def menu_id(message: Any) -> str:
    """The custom id of a private view's action menu."""
    return next(c for c in custom_ids(message) if c.startswith("arbiter:act:"))


async def turn_message(world: World, viewer: simcord.MemberActor) -> discord.Message:
    """The message carrying the turn's lines and the call to decide."""
    current = await world.bot.store.matches.turn_message(world.match_id or 0)
    assert current is not None
    return next(m for m in world.channel.history(viewer=viewer) if m.id == current.message_id)


def quick(message: discord.Message) -> dict[str, str]:
    """The quick buttons under a message: custom id by label."""
    return {
        c.label or "": c.custom_id or ""
        for row in message.components
        for c in row.children
        if (c.custom_id or "").startswith("arbiter:quick:")
    }
