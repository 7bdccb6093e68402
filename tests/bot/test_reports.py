"""Error reports (`bot.service.reports`): with a Sentry DSN set, a fault of ours during a
player's move reaches Sentry with the reference the player was shown, tagged with the
match, server and shard, and nothing of the hand that was in play: not the code's local
variables, not an error text that reads like a private view. Without one, nothing is
sent. Real sentry-sdk, its reports caught by a transport of the test's own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from bot.service import reports
from rules.tooth_and_nail import State as NailState
from rules.tooth_and_nail.rules import card_def
from tests.bot.world import World

DSN = "https://public@errors.invalid/1"  # never reached: the transport keeps the reports


class Kept(Transport):
    """Keeps every event instead of sending it."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.events: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        event = envelope.get_event()
        if event is not None:
            self.events.append(event)


@pytest.fixture
def kept() -> Iterator[Kept]:
    transport = Kept()
    assert reports.start(DSN, transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.init()  # no DSN: reporting off again for the tests after this one


async def test_a_fault_during_a_move_is_reported_with_its_reference_and_no_hidden_card(
    world: World, kept: Kept, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match = await world.start("tooth-and-nail", "2p", [world.alice, world.bob])
    for _ in range(20):  # the set-up's choices, until the one to act holds cards
        state = await world.state()
        assert isinstance(state, NailState)
        table = await world.bot.matches.table(match.id)
        seat = table.to_act[0]
        user = table.user_of(seat).user_id
        choices = await world.bot.matches.choices(world.channel.id, user)
        if state.players[seat].hand:
            break
        await world.bot.matches.act(match.id, user, choices[0].key)
    names = sorted({card_def(state, card).name for card in state.players[seat].hand})
    assert names
    game = world.bot.matches.game("tooth-and-nail")

    def broken(action: Any, state: Any) -> str:
        # A local the report must drop (made here, so that the code's own lines, which a
        # report keeps, don't hold it).
        hand = {"hand": names, "note": "-".join(("SECRET", "HAND", "MARKER"))}
        raise RuntimeError(f"can't describe the move in {json.dumps(hand)}")

    monkeypatch.setattr(game, "describe", broken)
    played = await world.by_id(user).slash(world.channel, "play", action=choices[0].key)
    assert played.response is not None
    shown = re.search(r"reference `([0-9a-f]{6})`", played.response.content)
    assert shown is not None, played.response.content
    caplog.clear()  # the fault was provoked on purpose

    sentry_sdk.flush()
    (event,) = [e for e in kept.events if e.get("tags", {}).get("reference") == shown[1]]
    tags = event["tags"]
    assert tags["match"] == str(match.id)
    assert tags["guild"] == str(world.guild.id)
    assert tags["shard"] == "0"
    text = json.dumps(event)
    assert "SECRET-HAND-MARKER" not in text
    for name in names:
        assert name not in text, name
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert reports.SCRUBBED in text


def test_without_a_dsn_nothing_is_reported() -> None:
    assert not reports.start(None)
    assert not reports.start("")


def test_a_breadcrumb_keeps_no_data_and_no_private_view() -> None:
    crumb = {"message": 'state {"hand": [3, 4]}', "data": {"args": [1]}, "level": "info"}
    assert reports._plain_breadcrumb(crumb) == {"message": reports.SCRUBBED, "level": "info"}
    plain = {"message": "match 3: finished at action 40", "level": "info"}
    assert reports._plain_breadcrumb(dict(plain)) == plain
