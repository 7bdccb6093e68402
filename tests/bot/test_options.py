"""Game options in the lobby, through simcord: the lobby lists them with their values and
offers a menu per option; only the host changes them, with a menu or `/match option`,
and only before the deal; the deal, the board's footer, the export and the replay all
use the values chosen. Games without options keep their lobbies as they were."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, cast

import discord
import pytest
import simcord

from bot.__main__ import main
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Store
from bot.service.tables import OPTIONS_FIXED
from bot.ui.lobby import OptionSelect
from rules.core import Game, OptionInfo, SeatSpec, declare_options, resolve_options
from rules.registry import GAMES
from tests.bot import tally
from tests.bot.world import World, answered, custom_ids
from tests.conftest import BotFactory

RECEIVED: list[dict[str, Any]] = []  # the options each deal received, in order


class Handicap(tally.Tally):
    """Tally with two options: the tally to reach, and a bonus of two more cards in hand."""

    id: ClassVar[str] = "handicap"
    name: ClassVar[str] = "Handicap Tally"
    options: ClassVar[dict[str, OptionInfo]] = declare_options(
        OptionInfo(
            id="target",
            label="Target",
            choices={"12": "Race to 12", "20": "Race to 20"},
            default="12",
            variant_defaults={"melee": "20"},
            blurb="the tally a team must reach to win",
        ),
        OptionInfo(
            id="bonus",
            label="Bonus",
            choices={"off": "Bonus off", "on": "Bonus on"},
            default="off",
            blurb="each player starts with two more cards in hand",
        ),
        variants=tally.Tally.variants,
    )

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> tally.TallyState:
        RECEIVED.append(dict(options))
        chosen = resolve_options(self, variant, options)
        state = super().setup(variant, seats, options, seed)
        state.target = int(chosen["target"])
        if chosen["bonus"] == "on":
            for player in state.players:
                player.hand, player.deck = player.hand + player.deck[:2], player.deck[2:]
        return state


class Quad(Handicap):
    """As many options as a lobby shows."""

    id: ClassVar[str] = "quad"
    name: ClassVar[str] = "Quad Tally"
    options: ClassVar[dict[str, OptionInfo]] = declare_options(
        *Handicap.options.values(),
        *(
            OptionInfo(
                id=f"extra{n}", label=f"Extra {n}", choices={"a": "A", "b": "B"}, default="a"
            )
            for n in (1, 2)
        ),
    )


HANDICAP = Handicap()
ALL_GAMES: Mapping[str, Game] = {
    **GAMES,
    "tally": tally.GAME,
    "handicap": HANDICAP,
    "quad": Quad(),
}
LOBBY_BUTTONS = ["join", "leave", "start", "cancel"]
LOBBY_AI_BUTTONS = ["ai-easy", "ai-strong", "no-ai"]  # at a game the AI plays


@pytest.fixture
def bot_games() -> Mapping[str, Game]:
    return ALL_GAMES


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    RECEIVED.clear()
    return World.build(simcord_env)


def said(result: simcord.InteractionResult) -> str:
    """The ephemeral sentence an interaction was answered with."""
    messages = answered(result)
    assert messages and messages[-1].ephemeral, "expected an ephemeral answer"
    return messages[-1].content


def menus(message: Any) -> dict[str, list[tuple[str, str, bool]]]:
    """The select menus of a message (a response or a channel message), by custom id:
    each option's value, label and whether it is the one shown."""
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict) and child.get("type") == 3:
                found[child["custom_id"]] = [
                    (o["value"], o["label"], bool(o.get("default"))) for o in child["options"]
                ]
            elif isinstance(child, discord.SelectMenu):
                found[child.custom_id or ""] = [
                    (o.value, o.label, o.default) for o in child.options
                ]
    return found


def shown(message: Any, option: str) -> str:
    """The value an option's lobby menu shows."""
    (value,) = [
        v
        for mid, opts in menus(message).items()
        if mid.endswith(f":{option}")
        for v, _, d in opts
        if d
    ]
    return value


def options_field(message: Any) -> str:
    fields = {f.name: f.value for f in message.embeds[0].fields}
    return fields.get("Options") or ""


def menu_id(world: World, option: str) -> str:
    return f"arbiter:option:{world.match_id}:{option}"


def option_values(*values: str) -> list[discord.SelectOption]:
    """Menu options offering these values."""
    return [discord.SelectOption(label=v, value=v) for v in values]


async def post_menu(world: World, menu: OptionSelect) -> discord.Message:
    """A message carrying one option menu, as an old or forged lobby message might."""
    view = discord.ui.View(timeout=None)
    view.add_item(menu)
    await world.bot.get_partial_messageable(world.channel.id).send("A menu", view=view)
    message = world.channel.last_message
    assert message is not None
    return message


# ------------------------------------------------------------------ the lobby


async def test_the_lobby_shows_each_option_its_value_and_a_menu(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    lobby = opened.response
    assert lobby is not None
    mid = world.match_id
    assert [f.name for f in lobby.embeds[0].fields] == ["Players", "Options", "Clock"]
    assert options_field(lobby) == (
        "**Target:** Race to 12 — the tally a team must reach to win\n"
        "**Bonus:** off — each player starts with two more cards in hand"
    )
    text = lobby.embeds[0].description or ""
    assert "The host sets the options with the menus below (or `/match option`)." in text
    # The buttons keep the first row; one menu per option under them.
    rows = [[c["custom_id"] for c in row["components"]] for row in lobby.components]
    assert rows == [
        [f"arbiter:lobby:{op}:{mid}" for op in LOBBY_BUTTONS],
        [f"arbiter:option:{mid}:target"],
        [f"arbiter:option:{mid}:bonus"],
    ]
    assert menus(lobby) == {
        f"arbiter:option:{mid}:target": [("12", "Race to 12", True), ("20", "Race to 20", False)],
        f"arbiter:option:{mid}:bonus": [("off", "Bonus off", True), ("on", "Bonus on", False)],
    }
    (target, bonus) = [c for row in lobby.components[1:] for c in row["components"]]
    assert (target["placeholder"], target["min_values"], target["max_values"]) == ("Target", 1, 1)
    assert bonus["placeholder"] == "Bonus"
    status = await world.bob.slash(world.channel, "match status")
    assert status.response is not None and "**Target:** Race to 12" in options_field(
        status.response
    )


async def test_four_options_fill_the_rows_discord_allows(world: World) -> None:
    opened = await world.open(world.alice, "quad", "duel")
    lobby = opened.response
    assert lobby is not None
    rows = [[c["custom_id"] for c in row["components"]] for row in lobby.components]
    assert len(rows) == 5 and len(rows[0]) == 4
    assert [r[0].rsplit(":", 1)[1] for r in rows[1:]] == ["target", "bonus", "extra1", "extra2"]
    await world.alice.select(lobby, ["b"], custom_id=menu_id(world, "extra2"))
    assert shown(lobby, "extra2") == "b"
    assert options_field(lobby).endswith("**Extra 1:** A\n**Extra 2:** B")


async def test_a_variant_has_its_own_defaults(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "melee")
    assert opened.response is not None
    assert options_field(opened.response).startswith("**Target:** Race to 20 — ")
    assert shown(opened.response, "target") == "20"
    assert (await world.match()).options == {}  # nothing chosen yet: the defaults apply


async def test_the_host_changes_an_option_with_its_menu(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    lobby = opened.response
    assert lobby is not None
    picked = await world.alice.select(lobby, ["20"], custom_id=menu_id(world, "target"))
    assert not picked.followups  # the answer is the lobby message itself
    assert shown(lobby, "target") == "20"
    assert options_field(lobby).startswith("**Target:** Race to 20 — ")
    assert (await world.match()).options == {"target": "20"}
    await world.alice.select(lobby, ["on"], custom_id=menu_id(world, "bonus"))
    assert "**Bonus:** on — " in options_field(lobby)
    assert (await world.match()).options == {"target": "20", "bonus": "on"}
    await world.bob.click(lobby, label="Join")  # joining keeps the options and their menus
    assert (shown(lobby, "target"), shown(lobby, "bonus")) == ("20", "on")


async def test_only_the_host_changes_the_options(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    lobby = opened.response
    assert lobby is not None
    await world.bob.click(lobby, label="Join")
    refused = await world.bob.select(lobby, ["20"], custom_id=menu_id(world, "target"))
    assert said(refused) == "Only the host (alice) can change the options."
    assert shown(lobby, "target") == "12"  # the menu is put back to the saved value
    outsider = await world.eve.slash(world.channel, "match option", name="bonus", value="on")
    assert said(outsider) == "Only the host (alice) can change the options."
    assert (await world.match()).options == {}


async def test_the_host_changes_an_option_with_match_option(world: World) -> None:
    await world.open(world.alice, "handicap", "duel")
    names = await world.alice.autocomplete(world.channel, "match option", "name", "")
    assert names == [
        {
            "name": "Target (now: Race to 12) — the tally a team must reach to win",
            "value": "target",
        },
        {
            "name": "Bonus (now: off) — each player starts with two more cards in hand",
            "value": "bonus",
        },
    ]
    typed = await world.alice.autocomplete(world.channel, "match option", "name", "cards in")
    assert [c["value"] for c in typed] == ["bonus"]
    values = await world.alice.autocomplete(
        world.channel, "match option", "value", "", name="target"
    )
    assert values == [
        {"name": "Race to 12 (now)", "value": "12"},
        {"name": "Race to 20", "value": "20"},
    ]

    done = await world.alice.slash(world.channel, "match option", name="target", value="20")
    assert said(done) == "Target: now **Race to 20**."
    lobby = await world.board()  # the lobby message is edited where it stands
    assert shown(lobby, "target") == "20"
    assert "**Target:** Race to 20" in options_field(lobby)
    # Typed by label, in any case, as a phone user might.
    done = await world.alice.slash(world.channel, "match option", name="BONUS", value="bonus on")
    assert said(done) == "Bonus: now **Bonus on**."
    assert (await world.match()).options == {"target": "20", "bonus": "on"}

    unknown = await world.alice.slash(world.channel, "match option", name="speed", value="fast")
    assert said(unknown) == (
        "Handicap Tally has no option `speed`. Its options: `target` (Target), `bonus` (Bonus)."
    )
    wrong = await world.alice.slash(world.channel, "match option", name="target", value="30")
    assert said(wrong) == (
        "Target has no choice `30`. Its choices: `12` (Race to 12), `20` (Race to 20)."
    )
    assert (await world.match()).options == {"target": "20", "bonus": "on"}


async def test_a_forged_or_odd_menu_changes_nothing(world: World) -> None:
    await world.open(world.alice, "handicap", "duel")
    extra = option_values("12", "20", "99")
    forged = await post_menu(world, OptionSelect(world.match_id or 0, "target", extra))
    refused = await world.alice.select(forged, ["99"], custom_id=menu_id(world, "target"))
    assert said(refused) == (
        "Target has no choice `99`. Its choices: `12` (Race to 12), `20` (Race to 20)."
    )
    two = OptionSelect(world.match_id or 0, "target", extra[:2])
    two.item.max_values = 2
    both = await post_menu(world, two)
    refused = await world.alice.select(both, ["12", "20"], custom_id=menu_id(world, "target"))
    assert said(refused) == "Pick exactly one choice from this menu, so nothing happened."
    unknown = await post_menu(world, OptionSelect(world.match_id or 0, "speed", extra[:1]))
    refused = await world.alice.select(unknown, ["12"], custom_id=menu_id(world, "speed"))
    assert said(refused).startswith("Handicap Tally has no option `speed`.")
    huge = await post_menu(world, OptionSelect(2**64, "target", extra[:1]))
    refused = await world.alice.select(huge, ["12"], custom_id=f"arbiter:option:{2**64}:target")
    assert said(refused) == "That menu isn't from a match here, so nothing happened."
    assert (await world.match()).options == {}


async def test_a_game_without_options_keeps_its_lobby(world: World) -> None:
    for game, variant in [("tally", "duel"), ("tooth-and-nail", "2p"), ("command-of-nature", "2p")]:
        opened = await world.open(world.alice, game, variant)
        lobby = opened.response
        assert lobby is not None
        mid = world.match_id
        ops = [*LOBBY_BUTTONS, *(LOBBY_AI_BUTTONS if game != "tally" else ())]  # AI: a row
        assert custom_ids(lobby) == [f"arbiter:lobby:{op}:{mid}" for op in ops]
        assert [f.name for f in lobby.embeds[0].fields] == ["Players", "Clock"]
        assert "options" not in (lobby.embeds[0].description or "")
        refused = await world.alice.slash(world.channel, "match option", name="x", value="y")
        name = ALL_GAMES[game].name
        assert said(refused) == f"{name} has no options to choose."
        assert await world.alice.autocomplete(world.channel, "match option", "name", "") == []
        await world.alice.slash(world.channel, "match cancel")


# ------------------------------------------------------------ the deal and after


async def test_options_are_fixed_at_the_deal_and_the_deal_uses_them(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    lobby = opened.response
    assert lobby is not None
    await world.alice.select(lobby, ["on"], custom_id=menu_id(world, "bonus"))
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    match = await world.match()
    assert match.status == "active"
    assert RECEIVED == [{"target": "12", "bonus": "on", "pack": "bundled"}]
    state = tally.TallyState.model_validate_json(match.snapshot or "")
    assert state.target == 12 and all(len(p.hand) == 5 for p in state.players)
    # Every value is stored as the deal used it, the default included.
    assert match.options == {"target": "12", "bonus": "on"}
    assert menus(lobby) == {} and custom_ids(lobby) == []  # the old lobby keeps no menus
    assert options_field(lobby).startswith("**Target:** Race to 12")

    late = await world.alice.slash(world.channel, "match option", name="target", value="20")
    assert said(late) == OPTIONS_FIXED
    assert OPTIONS_FIXED == "The match has started: its options can't change any more."
    stale = await post_menu(world, OptionSelect(match.id, "target", option_values("12", "20")))
    refused = await world.alice.select(stale, ["20"], custom_id=menu_id(world, "target"))
    assert said(refused) == OPTIONS_FIXED
    assert (await world.match()).options == {"target": "12", "bonus": "on"}
    assert await world.bot.matches.verify(match.id)  # the service's replay deals alike
    assert RECEIVED[-1] == RECEIVED[0]


async def test_the_board_footer_shows_the_options(world: World) -> None:
    opened = await world.open(world.alice, "handicap", "melee")
    assert opened.response is not None
    await world.alice.select(opened.response, ["on"], custom_id=menu_id(world, "bonus"))
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    footer = (await world.board()).embeds[0].footer.text or ""
    assert footer.splitlines()[:2] == [f"Match #{world.match_id} · turn 0", "Race to 20 · Bonus on"]

    await world.concede(world.bob)
    await world.start("tally", "duel", [world.alice, world.bob])
    plain = (await world.board()).embeds[0].footer.text or ""
    assert plain.splitlines()[1].startswith("⏱️ ")  # no line of options


async def test_rules_lists_a_games_options(world: World) -> None:
    shown_rules = await world.eve.slash(world.channel, "rules", game="handicap")
    assert shown_rules.response is not None
    fields = {f.name: f.value for f in shown_rules.response.embeds[0].fields}
    assert fields["Options"] == (
        "**Target** — Race to 12 / Race to 20 (default: Race to 12): the tally a team must "
        "reach to win\n"
        "**Bonus** — Bonus off / Bonus on (default: Bonus off): each player starts with two "
        "more cards in hand"
    )
    plain = await world.eve.slash(world.channel, "rules", game="tally")
    assert plain.response is not None
    assert "Options" not in [f.name for f in plain.response.embeds[0].fields]


async def test_the_export_carries_the_options_and_the_replay_uses_them(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    assert opened.response is not None
    await world.alice.select(opened.response, ["20"], custom_id=menu_id(world, "target"))
    await world.alice.select(opened.response, ["on"], custom_id=menu_id(world, "bonus"))
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    for _ in range(8):
        (player,) = await world.to_act()
        choices = await world.bot.matches.choices(world.channel.id, player.id)
        await player.slash(world.channel, "play", action=choices[-1].key)
    await world.concede(world.bob)
    exported = await world.eve.slash(world.channel, "match export")  # over: anyone may
    (file,) = (exported.followups or [exported.response])[-1].attachments  # type: ignore[union-attr]
    document = json.loads(await file.read())
    assert document["options"] == {"target": "20", "bonus": "on"}
    assert document["snapshot"]["target"] == 20

    monkeypatch.setattr("bot.__main__.GAMES", ALL_GAMES)  # the CLI with the test game known
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("the final state matches exactly.")

    # Dealt with other options, the same log no longer reaches the same end.
    document["options"] = {"target": "20", "bonus": "off"}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "Action " in capsys.readouterr().out  # refused, or with other lines
    document["options"] = {"target": "99"}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert (
        capsys.readouterr()
        .out.strip()
        .endswith(
            "Its options don't fit this game: Target has no choice `99`. "
            "Its choices: `12` (Race to 12), `20` (Race to 20)."
        )
    )


async def test_the_menus_work_after_a_restart(world: World, create_bot: BotFactory) -> None:
    opened = await world.open(world.alice, "handicap", "duel")
    lobby = opened.response
    assert lobby is not None
    await world.bot.close()
    await world.env.restart_bot(create_bot())
    await world.alice.select(lobby, ["20"], custom_id=menu_id(world, "target"))
    assert shown(lobby, "target") == "20"
    assert (await world.match()).options == {"target": "20"}
    refused = await world.bob.select(lobby, ["12"], custom_id=menu_id(world, "target"))
    assert said(refused) == "Only the host (alice) can change the options."


# ------------------------------------------------------------------ the service


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[MatchService]:
    store = await Store.open(db_path)
    yield MatchService(store, ALL_GAMES)
    await store.close()


async def test_a_lobby_may_open_with_options_checked_like_the_hosts(service: MatchService) -> None:
    opened = await service.new_lobby(
        guild_id=1, channel_id=1, user_id=1, name="Ann", game="handicap", options={"bonus": "on"}
    )
    assert opened.match.options == {"bonus": "on"}
    assert [(i.id, v) for i, v in opened.options] == [("target", "12"), ("bonus", "on")]
    with pytest.raises(errors.BadOption, match=r"^Bonus has no choice `yes`"):
        await service.new_lobby(
            guild_id=1,
            channel_id=2,
            user_id=1,
            name="Ann",
            game="handicap",
            options={"bonus": "yes"},
        )
    await service.cancel(opened.match.id, 1)
    with pytest.raises(errors.NotLobby, match=r"^This lobby was closed\.$"):
        await service.set_option(opened.match.id, 1, "bonus", "off")


def test_the_service_refuses_a_game_whose_options_a_lobby_cannot_show() -> None:
    class Crowded(Handicap):
        options: ClassVar[dict[str, OptionInfo]] = {
            f"o{n}": OptionInfo(id=f"o{n}", label="O", choices={"a": "A", "b": "B"}, default="a")
            for n in range(5)
        }

    with pytest.raises(ValueError, match="at most 4 option menus"):
        MatchService(cast(Store, None), {"crowded": Crowded()})
