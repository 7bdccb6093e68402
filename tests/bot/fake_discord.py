"""A fake Discord REST API, served over HTTP, for tests that run real bots in several
processes against one Discord.

The test process runs the server (`await FakeDiscord(...).start()` gives its base URL);
each bot process points discord.py at it before it creates its bot:

    discord.http.Route.BASE = base_url  # "http://127.0.0.1:<port>/api/v10"

and then logs in (`await bot.login(token)`: no gateway) and plays through its services;
its publisher delivers over REST. Every process talks to the same server, so Discord's
nonce rule holds across them: a message posted with `enforce_nonce` (discord.py sends
it with every nonce) whose nonce the same author already used in that channel within
NONCE_WINDOW is not posted again; the earlier message is the answer.

What it serves is what discord.py's login and command sync and Arbiter's publisher
call (anything else is logged, recorded in `unexpected` and answered 404):

- GET /users/@me, GET /oauth2/applications/@me (login);
- PUT /applications/{id}/commands and /applications/{id}/guilds/{id}/commands (the
  command sync: the commands echoed with ids, the same ids at every sync);
- POST, GET (history: `limit`, `before`, `after`, `around`, newest first as Discord
  answers) /channels/{id}/messages; GET, PATCH /channels/{id}/messages/{id}, JSON or
  multipart (`payload_json` and `files[n]`);
- GET, PATCH /channels/{id} (a server's text channel, a thread, a DM);
- POST /users/@me/channels (a DM: its id is `dm_channel_id(user)`, the same for every
  process, as Discord's).

A channel exists once the test names its server (`channel_guilds`, `add_channel`); a
request about any other answers Discord's 404 "Unknown Channel". A thread archived by
`archive` refuses posts and edits with 50083 until a PATCH reopens it.

What happened is plain data, read by the test: every message of every channel
(`messages`, `lines`, `FakeMessage`: its content, embeds, nonce, how often it was posted
and edited, each edit's content), `deduplicated` (the posts the nonce rule answered
with an earlier message), `nonces()`, and every request in order (`requests`). Ids are
snowflakes of the moment they are made, as Discord's (the publisher reads a board's age
from its id, and looks for a message by the time its send began), each greater than
the last.

The server runs in the event loop of the process that started it: that process waits
for its workers without blocking the loop (`asyncio.create_subprocess_exec`, not
`subprocess.run`), or every worker's request waits as well.

`inject_error` makes the next requests matching a method and a path fail, as in an
outage. Note what discord.py's HTTP client makes of some statuses: 500, 502, 504 and 524
are retried by discord.py itself (up to 5 tries, waiting 1, 3, 5... seconds), so a
caller only sees them when every try fails; a 503 reaches the caller at once. A 429 is
answered as Discord does (`retry_after`, and the `Via` header that tells discord.py it
is Discord's and not Cloudflare's), which discord.py waits out and retries by itself.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import mimetypes
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import BodyPartReader, web

log = logging.getLogger(__name__)

DISCORD_EPOCH = 1420070400000  # ms: the first second of 2015, where snowflakes count from
NONCE_WINDOW = timedelta(minutes=10)  # Discord holds a nonce "for a few minutes"
DM_BASE = 1 << 62  # DM channel ids: DM_BASE + the user id (within PostgreSQL's bigint)
BOT_USER_ID = 4_000_000_000_000_000_001
APPLICATION_ID = BOT_USER_ID  # a bot's application and its user share an id
OWNER_ID = 4_000_000_000_000_000_002
API_PREFIX = re.compile(r"^/api/v\d+(?=/)")

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
THREAD_ARCHIVED = 50083

TEXT, DM, PUBLIC_THREAD = 0, 1, 11  # channel types


def dm_channel_id(user_id: int) -> int:
    """The id of the DM channel with a user (every process is given the same)."""
    return DM_BASE + int(user_id)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def user_object(user_id: int, name: str | None = None, *, bot: bool = False) -> dict[str, Any]:
    """A user as Discord describes one."""
    return {
        "id": str(user_id),
        "username": name or f"user{user_id}",
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


@dataclass
class Attachment:
    """A file attached to a message (its bytes kept while it is attached)."""

    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None

    def payload(self, base: str, channel_id: int) -> dict[str, Any]:
        url = f"{base}/attachments/{channel_id}/{self.id}/{self.filename}"
        shown = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        return shown | ({"description": self.description} if self.description else {})


@dataclass
class FakeMessage:
    """A message as the fake Discord holds it, and what was done to it."""

    id: int
    channel_id: int
    author_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    nonce: str | None
    created_at: datetime
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    notified: list[int] = field(default_factory=list)  # users its post notified
    posts: int = 1  # POSTs answered with it: 1, and one per post the nonce rule dropped
    edits: list[str] = field(default_factory=list)  # its content after each edit
    edited_at: datetime | None = None

    @property
    def edited(self) -> int:
        """How many times it was edited."""
        return len(self.edits)

    @property
    def lines(self) -> list[str]:
        return self.content.splitlines()

    @property
    def filenames(self) -> list[str]:
        return [a.filename for a in self.attachments]


@dataclass
class FakeChannel:
    """A server's text channel, a thread or a DM, and its messages."""

    id: int
    type: int
    guild_id: int | None = None
    parent_id: int | None = None  # a thread's channel
    recipient_id: int | None = None  # a DM's user
    archived: bool = False
    locked: bool = False
    messages: list[FakeMessage] = field(default_factory=list)  # oldest first


@dataclass
class Request:
    """One request the fake Discord answered, in the order they came."""

    method: str
    path: str  # without the /api/vN prefix, without the query
    route: str  # the route's template ("/channels/{channel_id}/messages"); "?" if unknown
    channel_id: int | None
    query: dict[str, str]
    status: int = 0
    nonce: str | None = None
    token: str = ""  # the bot token it came with (which process, when several share it)


@dataclass
class Fault:
    """An injected failure: the next `times` requests matching it (None: all) fail."""

    method: str
    path: str
    status: int
    code: int
    message: str
    times: int | None
    retry_after: float | None
    applied: bool  # the request takes effect, then its answer is the error
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        return path.startswith(self.path) or fnmatch.fnmatchcase(path, self.path)


class DiscordError(Exception):
    """An answer in Discord's error format."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class Body:
    """A request's JSON (`payload_json` in a multipart body) and its uploaded files, by
    their index n in `files[n]`."""

    data: Any
    files: dict[int, tuple[str, bytes]]

    @property
    def payload(self) -> dict[str, Any]:
        """The JSON when it is an object (the command sync sends a list)."""
        return self.data if isinstance(self.data, dict) else {}


Handler = Callable[..., Any]


class FakeDiscord:
    """The fake Discord (see the module). `channel_guilds` names each server channel's
    server; `now` is its clock (for the nonce window and timestamps)."""

    def __init__(
        self,
        channel_guilds: Mapping[int, int] | None = None,
        *,
        token: str | None = None,
        bot_user_id: int = BOT_USER_ID,
        application_id: int = APPLICATION_ID,
        bot_name: str = "Arbiter",
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.token = token  # when set, other tokens are refused with a 401
        self.bot_user_id = bot_user_id
        self.application_id = application_id
        self.bot_name = bot_name
        self.now = now
        self.channels: dict[int, FakeChannel] = {}
        self.requests: list[Request] = []
        self.unexpected: list[Request] = []  # requests on no route served here
        self.failed: list[Request] = []  # requests the fake itself failed to handle
        self.aborted: list[Request] = []  # requests cut off by their client (a kill)
        self.deduplicated = 0
        self.faults: list[Fault] = []
        self.commands: dict[tuple[int | None, str], dict[str, Any]] = {}  # (guild, name) ->
        self._nonces: dict[tuple[int, int, str], tuple[int, datetime]] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._last_id = 0
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        for method, template, handler in (
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("PUT", "/applications/{application_id}/commands", self._sync),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._sync),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("POST", "/channels/{channel_id}/messages", self._post),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit),
        ):
            # (the templates hold no character special to a regular expression)
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>\\d+)", template)
            self._routes.append((method, template, re.compile(f"^{pattern}$"), handler))
        for channel_id, guild_id in (channel_guilds or {}).items():
            self.add_channel(channel_id, guild_id)

    # ------------------------------------------------------------ the server

    async def start(self, port: int = 0) -> str:
        """Serve on 127.0.0.1 (any free port by default); the base URL for
        `discord.http.Route.BASE`."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        host, bound = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{bound}/api/v10"
        return self.base_url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ set-up and faults

    def add_channel(self, channel_id: int, guild_id: int, *, thread_of: int | None = None) -> None:
        """A server's text channel (or, `thread_of` its channel, a public thread)."""
        kind = PUBLIC_THREAD if thread_of is not None else TEXT
        known = self.channels.get(channel_id)
        if known is not None:
            known.guild_id, known.type, known.parent_id = guild_id, kind, thread_of
            return
        self.channels[channel_id] = FakeChannel(channel_id, kind, guild_id, parent_id=thread_of)

    def archive(self, channel_id: int) -> None:
        """Archive a thread, as Discord does after a while without messages."""
        channel = self.channels[channel_id]
        assert channel.type == PUBLIC_THREAD, "only a thread is archived"
        channel.archived = True

    def inject_error(
        self,
        method: str,
        path: str,
        *,
        status: int = 503,
        code: int = 0,
        message: str = "Service Unavailable (injected by the test)",
        times: int | None = 1,
        retry_after: float | None = None,
        applied: bool = False,
    ) -> Fault:
        """Make the next `times` requests (None: every one from now on) whose method is
        `method` ("*": any) and whose path (without /api/vN) starts with `path`, or
        matches it as an fnmatch pattern ("/channels/*/messages"), fail with `status`
        and Discord's error `code`. `applied`: the request takes effect first (a message
        is posted), and only its answer is the error, as when a reply is lost. A 429
        answers `retry_after` (1 s by default). The fault is returned (its `hits`)."""
        if status == 429 and retry_after is None:
            retry_after = 1.0
        fault = Fault(method.upper(), path, status, code, message, times, retry_after, applied)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    # ------------------------------------------------------------ what happened

    def messages(self, channel_id: int) -> list[FakeMessage]:
        """The channel's messages as they are now, oldest first."""
        channel = self.channels.get(channel_id)
        return list(channel.messages) if channel is not None else []

    def message(self, message_id: int) -> FakeMessage:
        return self._messages[message_id]

    def lines(self, channel_id: int) -> list[str]:
        """Every line of every message of the channel, as they read now, in order."""
        return [line for m in self.messages(channel_id) for line in m.lines]

    def nonces(self) -> Counter[str]:
        """How many messages were posted with each nonce (each should be 1)."""
        return Counter(
            m.nonce for c in self.channels.values() for m in c.messages if m.nonce is not None
        )

    def calls(
        self, method: str | None = None, route: str | None = None, channel_id: int | None = None
    ) -> list[Request]:
        """The requests with this method, route template and channel (None: any)."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method)
            and (route is None or r.route == route)
            and (channel_id is None or r.channel_id == channel_id)
        ]

    # ------------------------------------------------------------ dispatch

    async def _handle(self, request: web.Request) -> web.Response:
        api = API_PREFIX.match(request.path) is not None
        path = API_PREFIX.sub("", request.path, count=1)
        method = request.method
        found = None
        for route_method, template, pattern, handler in self._routes if api else []:
            matched = pattern.match(path)
            if matched and route_method == method:
                found = (template, handler, {k: int(v) for k, v in matched.groupdict().items()})
                break
        template = found[0] if found else "?"
        params = found[2] if found else {}
        record = Request(method, path, template, params.get("channel_id"), dict(request.query))
        record.token = request.headers.get("Authorization", "").removeprefix("Bot ")
        self.requests.append(record)
        try:
            if self.token is not None and request.headers.get("Authorization") != (
                f"Bot {self.token}"
            ):
                raise DiscordError(401, 0, "401: Unauthorized")
            if found is None:
                self.unexpected.append(record)
                log.warning("fake Discord: unexpected %s %s", method, request.path_qs)
                raise DiscordError(404, 0, "404: Not Found")
            fault = self._fault(method, path)
            if fault is not None and not fault.applied:
                return self._failure(record, fault)
            body = await self._body(request)
            record.nonce = _nonce(body.payload) if method == "POST" else None
            status, answer = await found[1](record, body, **params)
            if fault is not None:
                return self._failure(record, fault)
        except DiscordError as error:
            record.status = error.status
            return _json({"message": error.message, "code": error.code}, error.status)
        except ConnectionResetError:
            # The client went away mid-request (a process killed while it sent): the
            # request never arrived whole, so nothing was done.
            record.status = 499
            self.aborted.append(record)
            raise
        except Exception as error:
            # A request this fake can't read: a 400 (which no client retries), recorded.
            log.exception("fake Discord: %s %s failed", method, request.path_qs)
            self.failed.append(record)
            record.status = 400
            return _json({"message": f"The fake Discord failed: {error!r}", "code": 0}, 400)
        record.status = status
        return _json(answer, status)

    def _fault(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path):
                fault.hits += 1
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                return fault
        return None

    def _failure(self, record: Request, fault: Fault) -> web.Response:
        record.status = fault.status
        error: dict[str, Any] = {"message": fault.message, "code": fault.code}
        headers = {}
        if fault.status == 429:
            error |= {"retry_after": fault.retry_after, "global": False}
            headers = {"Retry-After": str(fault.retry_after), "Via": "1.1 google"}
        return _json(error, fault.status, headers)

    @staticmethod
    async def _body(request: web.Request) -> Body:
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: dict[int, tuple[str, bytes]] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader), "no nested multipart"
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                    continue
                index = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                if index is None:
                    raise DiscordError(400, 50035, f"Invalid Form Body: a part {part.name!r}")
                files[int(index[1])] = (part.filename or "file", bytes(await part.read()))
            return Body(payload, files)
        text = await request.text() if request.can_read_body else ""
        return Body(json.loads(text) if text else None, {})

    # ------------------------------------------------------------ ids and objects

    def _snowflake(self) -> int:
        """A new id: its time is now (the bot reads a message's age from its id), and
        each is greater than the last."""
        ms = int(self.now().timestamp() * 1000)
        self._last_id = max(self._last_id + 1, (ms - DISCORD_EPOCH) << 22)
        return self._last_id

    def _bot_user(self) -> dict[str, Any]:
        return user_object(self.bot_user_id, self.bot_name, bot=True)

    def _channel(self, channel_id: int) -> FakeChannel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def _channel_object(self, channel: FakeChannel) -> dict[str, Any]:
        last = str(channel.messages[-1].id) if channel.messages else None
        if channel.type == DM:
            assert channel.recipient_id is not None
            recipient = user_object(channel.recipient_id)
            return {"id": str(channel.id), "type": DM, "last_message_id": last, "flags": 0} | {
                "recipients": [recipient]
            }
        shown: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": f"channel-{channel.id}",
            "position": 0,
            "parent_id": str(channel.parent_id) if channel.parent_id is not None else None,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if channel.type == TEXT:
            return shown | {"topic": None, "nsfw": False, "permission_overwrites": []}
        created = _iso(self.now())
        return shown | {
            "owner_id": str(self.bot_user_id),
            "message_count": len(channel.messages),
            "total_message_sent": len(channel.messages),
            "member_count": 1,
            "thread_metadata": {
                "archived": channel.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": created,
                "locked": channel.locked,
                "create_timestamp": created,
            },
        }

    def _message_object(self, message: FakeMessage) -> dict[str, Any]:
        mentioned = [int(u) for u in re.findall(r"<@!?(\d+)>", message.content)]
        origin = self.base_url.split("/api/")[0]
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": self._bot_user(),
            "content": message.content,
            "timestamp": _iso(message.created_at),
            "edited_timestamp": _iso(message.edited_at) if message.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [user_object(u) for u in dict.fromkeys(mentioned)],
            "mention_roles": [],
            "attachments": [a.payload(origin, message.channel_id) for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": 0,
            "nonce": message.nonce,
            "flags": message.flags,
        }

    def _attachments(
        self, body: Body, kept: list[Attachment], *, replace: bool
    ) -> list[Attachment]:
        """The attachments a post or an edit leaves: those `attachments` names (an
        uploaded file by its index, a kept one by its id), then any file it didn't name;
        without `attachments`, the kept ones (when not `replace`) and the files."""
        named = body.payload.get("attachments")
        files = dict(body.files)
        result: list[Attachment] = []
        if named is None:
            result = [] if replace else list(kept)
        else:
            by_id = {a.id: a for a in kept}
            for entry in named:
                key = int(entry["id"])
                if key in files:
                    filename, data = files.pop(key)
                    name = entry.get("filename") or filename
                    result.append(self._attachment(name, data, entry.get("description")))
                elif key in by_id:
                    result.append(by_id[key])
        for filename, data in files.values():
            result.append(self._attachment(filename, data, None))
        return result

    def _attachment(self, filename: str, data: bytes, description: str | None) -> Attachment:
        kind = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return Attachment(self._snowflake(), filename, data, kind, description)

    # ------------------------------------------------------------ routes

    async def _me(self, _record: Request, _body: Body) -> tuple[int, Any]:
        return 200, self._bot_user() | {"verified": True, "mfa_enabled": False, "flags": 0}

    async def _application(self, _record: Request, _body: Body) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_object(OWNER_ID, "owner"),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "bot": self._bot_user(),
        }

    async def _sync(
        self, _record: Request, body: Body, application_id: int, guild_id: int | None = None
    ) -> tuple[int, Any]:
        if application_id != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        commands = body.data if isinstance(body.data, list) else []
        answer = []
        for command in commands:
            key = (guild_id, command["name"])
            known = self.commands.get(key)
            ids = (known["id"], known["version"]) if known else (self._snowflake(),) * 2
            shown = {
                **command,
                "id": str(ids[0]),
                "application_id": str(self.application_id),
                "version": str(ids[1]),
                "type": command.get("type", 1),
                "description": command.get("description", ""),
                "default_member_permissions": command.get("default_member_permissions"),
                "nsfw": command.get("nsfw", False),
            }
            if guild_id is not None:
                shown["guild_id"] = str(guild_id)
            self.commands[key] = shown
            answer.append(shown)
        return 200, answer

    async def _open_dm(self, _record: Request, body: Body) -> tuple[int, Any]:
        user_id = int(body.payload["recipient_id"])
        channel_id = dm_channel_id(user_id)
        channel = self.channels.get(channel_id)
        if channel is None:
            channel = FakeChannel(channel_id, DM, recipient_id=user_id)
            self.channels[channel_id] = channel
        return 200, self._channel_object(channel)

    async def _get_channel(self, _record: Request, _body: Body, channel_id: int) -> tuple[int, Any]:
        return 200, self._channel_object(self._channel(channel_id))

    async def _edit_channel(self, _record: Request, body: Body, channel_id: int) -> tuple[int, Any]:
        channel = self._channel(channel_id)
        if channel.type == PUBLIC_THREAD:
            channel.archived = bool(body.payload.get("archived", channel.archived))
            channel.locked = bool(body.payload.get("locked", channel.locked))
        return 200, self._channel_object(channel)

    def _writable(self, channel_id: int) -> FakeChannel:
        channel = self._channel(channel_id)
        if channel.archived:
            raise DiscordError(400, THREAD_ARCHIVED, "Thread is archived")
        return channel

    async def _post(self, _record: Request, body: Body, channel_id: int) -> tuple[int, Any]:
        channel = self._writable(channel_id)
        payload = body.payload
        nonce = _nonce(payload)
        now = self.now()
        key = (channel_id, self.bot_user_id, nonce) if nonce is not None else None
        if key is not None and payload.get("enforce_nonce"):
            held = self._nonces.get(key)
            if held is not None and now - held[1] < NONCE_WINDOW and held[0] in self._messages:
                earlier = self._messages[held[0]]
                earlier.posts += 1
                self.deduplicated += 1
                return 200, self._message_object(earlier)
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=channel_id,
            author_id=self.bot_user_id,
            content=str(payload.get("content") or ""),
            embeds=[_embed(e) for e in payload.get("embeds") or []],
            components=list(payload.get("components") or []),
            attachments=self._attachments(body, [], replace=True),
            nonce=nonce,
            created_at=now,
            flags=int(payload.get("flags") or 0),
            allowed_mentions=payload.get("allowed_mentions"),
        )
        message.notified = _notified(message.content, message.allowed_mentions)
        channel.messages.append(message)
        self._messages[message.id] = message
        if key is not None and payload.get("enforce_nonce"):
            self._nonces[key] = (message.id, now)
        return 200, self._message_object(message)

    def _known(self, channel_id: int, message_id: int) -> FakeMessage:
        self._channel(channel_id)
        message = self._messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            raise DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def _get_message(
        self, _record: Request, _body: Body, channel_id: int, message_id: int
    ) -> tuple[int, Any]:
        return 200, self._message_object(self._known(channel_id, message_id))

    async def _edit(
        self, _record: Request, body: Body, channel_id: int, message_id: int
    ) -> tuple[int, Any]:
        self._writable(channel_id)
        message = self._known(channel_id, message_id)
        payload = body.payload
        if "content" in payload:
            message.content = str(payload["content"] or "")
        if "embeds" in payload:
            message.embeds = [_embed(e) for e in payload["embeds"] or []]
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            message.flags = int(payload["flags"])
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        if "attachments" in payload or body.files:
            message.attachments = self._attachments(body, message.attachments, replace=False)
        message.edited_at = self.now()
        message.edits.append(message.content)
        return 200, self._message_object(message)

    async def _history(self, record: Request, _body: Body, channel_id: int) -> tuple[int, Any]:
        """The channel's messages newest first, as Discord answers: the latest `limit`
        (1 to 100, 50 by default), those just `before` a message, those just `after`
        one (the oldest after it, still newest first), or those `around` one."""
        channel = self._channel(channel_id)
        query = record.query
        try:
            limit = min(100, max(1, int(query.get("limit", 50))))
        except ValueError as error:
            raise DiscordError(400, 50035, "Invalid Form Body: limit") from error
        held = channel.messages
        if "around" in query:
            around = int(query["around"])
            at = next((i for i, m in enumerate(held) if m.id >= around), len(held))
            start = max(0, at - limit // 2)
            chosen = held[start : start + limit]
        elif "after" in query:
            after = int(query["after"])
            chosen = [m for m in held if m.id > after][:limit]
        elif "before" in query:
            before = int(query["before"])
            chosen = [m for m in held if m.id < before][-limit:]
        else:
            chosen = held[-limit:]
        return 200, [self._message_object(m) for m in reversed(chosen)]


def _json(data: Any, status: int, headers: Mapping[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py reads the body as JSON only then (aiohttp's
    # json_response would add "; charset=utf-8", which discord.py takes for text).
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _nonce(payload: dict[str, Any]) -> str | None:
    nonce = payload.get("nonce")
    return str(nonce) if nonce is not None else None


def _embed(embed: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich", **embed}


def _notified(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """The users a new message's mentions notify, as its allowed mentions let them."""
    mentioned = [int(u) for u in dict.fromkeys(re.findall(r"<@!?(\d+)>", content))]
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    users = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in users]
