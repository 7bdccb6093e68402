"""Boards and private views rendered from views alone: complete, partial and oversized."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.render import action_text, board_embed, private_embed
from bot.render.tooth_and_nail import ToothAndNailRenderer
from bot.service.store import MatchRow, SeatRow
from bot.service.tables import ActResult, PrivateView, Table
from rules.core import Event
from rules.registry import GAMES

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def troop(name: str, drained: bool = False) -> dict[str, Any]:
    return {"name": name, "strength": 2, "type": "Arcane", "drained": drained}


def tn_view(players: int, *, troops: int = 2) -> dict[str, Any]:
    teams = 2 if players == 4 else players
    return {
        "game": "tooth-and-nail",
        "variant": "4p" if players == 4 else "2p",
        "phase": "action",
        "turn": 3,
        "alpha": 0,
        "to_act": [0],
        "prompt": "Ann is taking their Action Step.",
        "limits": {"command": 3, "war": 6},
        "available_factions": [],
        "teams": [
            {
                "team": t,
                "seats": [s for s in range(players) if s % teams == t],
                "deck": 40,
                "discard_count": 3,
                "discard_top": "Thunderfoot",
                "removed_count": 1,
                "face_down_removed": 0,
            }
            for t in range(teams)
        ],
        "players": [
            {
                "seat": s,
                "name": NAMES[s],
                "team": s % teams,
                "factions": ["Ostra Vulture"],
                "command_card": "Ostra Vulture",
                "hand_count": 4,
                "ap": 2,
                "eliminated": False,
                "command_zone": [troop("Thunderfoot", drained=True)],
                "war_zone": [troop(f"Icewind Captain {i}") for i in range(troops)],
            }
            for s in range(players)
        ],
        "outcome": None,
    }


def table(view: dict[str, Any], players: int) -> Table:
    variant = "4p" if players == 4 else "2p"
    match = MatchRow(
        id=9,
        guild_id=1,
        channel_id=2,
        game="tooth-and-nail",
        variant=variant,
        pack="Arbiter core pack",
        seed=1,
        seed_chosen=False,
        rules_version="0",
        status="active",
        snapshot="{}",
        version=5,
        board_message_id=None,
        created_by=1,
        options={},
        created_at="",
        updated_at="",
    )
    seats = [SeatRow(s, 100 + s, NAMES[s], s % 2) for s in range(players)]
    return Table(match, seats, GAMES["tooth-and-nail"], view, (0,), None)


def test_the_board_shows_zones_drained_troops_piles_and_whose_turn() -> None:
    embed = board_embed(table(tn_view(2), 2))
    assert embed.description == "▶️ Ann is taking their Action Step."
    decks, ann, ben = embed.fields[:3]
    assert decks.name == "Decks left — a deck that runs out loses"
    assert decks.value == "Ann **40** · Ben **40**"
    assert ann.name == "▶️ Ann — Alpha player: it's their turn"
    value = ann.value or ""
    assert "Faction: Ostra Vulture\nAP **2** left · Hand **4** cards" in value
    assert "Discard pile 3 (top: Thunderfoot) · 1 removed from the game" in value
    assert "Discard pile" in (ben.value or "")
    assert "**Command Zone** 1/3: 💤 Thunderfoot (Arcane 2)" in value
    assert "**War Zone** 2/6: Icewind Captain 0 (Arcane 2) · Icewind Captain 1 (Arcane 2)" in value
    assert ben.name == "Ben"


def test_team_games_show_each_shared_deck_once() -> None:
    embed = board_embed(table(tn_view(4), 4))
    assert [f.name for f in embed.fields[:7]] == [
        "Decks left — a deck that runs out loses",
        "Team 1 — Ann & Cat",
        "▶️ Ann (Team 1) — Alpha player: it's their turn",
        "Cat (Team 1)",
        "Team 2 — Ben & Dan",
        "Ben (Team 2)",
        "Dan (Team 2)",
    ]
    assert embed.fields[0].value == "Team 1 (Ann & Cat) **40** · Team 2 (Ben & Dan) **40**"
    assert all("Deck" not in (f.value or "") for f in embed.fields[1:])


def test_missing_keys_render_as_dashes_not_errors() -> None:
    sparse = {"players": [{"seat": 0, "name": "Ann"}], "to_act": [0]}
    fields = ToothAndNailRenderer().board_fields(sparse, (0,))
    assert fields[0].value == "—"  # no decks to show
    assert fields[1].name == "▶️ Ann — to decide now"
    assert "Faction: not chosen yet" in fields[1].value
    assert "**Command Zone** 0/?: empty" in fields[1].value


def test_a_huge_board_stays_within_discord_limits() -> None:
    view = tn_view(4, troops=40)
    for player in view["players"]:
        player["war_zone"] = [troop("A very long troop name indeed " * 3) for _ in range(40)]
    embed = board_embed(table(view, 4))
    assert len(embed) <= 6000
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


def test_the_private_view_lists_the_hand_and_the_command_card() -> None:
    view = tn_view(2)
    view.update(
        me=0,
        decision="Take your actions.",
        hand=[{"id": "x", "name": "Thunderfoot", "strength": 2, "type": "Arcane", "text": ""}],
    )
    view["players"][0]["command_card_text"] = "War Screech: the opposing player discards."
    pv = PrivateView(
        table(view, 2), 0, view, [], ["You draw Thunderfoot."], decisions=0, question="take …"
    )
    embed = private_embed(pv)
    assert embed.description == "**Take …**"  # the game's question, capitalised
    names = [f.name for f in embed.fields]
    assert names == [
        "You — Ann",
        "Your hand (1) — a Command Ability works once its Troop is in your Command Zone",
        "Your Command Zone — Command Abilities, 0 AP each",
        "Your Faction Command card: Ostra Vulture",
        "Lately",
    ]
    assert embed.fields[1].value == "**Thunderfoot** (Arcane 2)"


def test_the_public_line_names_the_next_decider_only_when_the_decision_moves_on() -> None:
    ann_turn = table(tn_view(2), 2)  # Ann (seat 0) is to act
    played = Event(kind="play", text="Ann plays Thunderfoot into their War Zone.", seat=0)
    carrying_on = action_text(
        ActResult(
            table=ann_turn,
            seat=0,
            label="Play",
            events=[played],
            before=(0,),
            turn_before=ann_turn.turn,
        )
    )
    assert carrying_on == "Ann plays Thunderfoot into their War Zone."
    ended = Event(kind="end", text="Ann ends their turn.", seat=0)
    ben_turn = dataclasses.replace(
        ann_turn, to_act=(1,), questions={1: "your turn — Action Step, 3 AP left"}
    )
    handed_on = action_text(
        ActResult(
            table=ben_turn,
            seat=0,
            label="End",
            events=[ended],
            before=(0,),
            turn_before=ann_turn.turn,
        )
    )
    # Addressed to the player called, saying what to do; never in the third person.
    assert handed_on == "Ann ends their turn.\n➡️ <@101>, your turn — Action Step, 3 AP left"


def test_the_command_of_nature_board_shows_formations_tokens_wallets_and_markets() -> None:
    from bot.render.command_of_nature import CommandOfNatureRenderer
    from rules.command_of_nature import GAME as CON
    from tests.rules.test_command_of_nature_setup import set_up

    state = set_up("4p")
    front = state.sides[0].formation.at((0, 0))
    assert front is not None
    front.damage, front.shields, front.boosts = 1, 2, 3
    renderer = CommandOfNatureRenderer()
    fields = renderer.board_fields(CON.view(state, None), (0, 2))
    first, second, markets = fields
    assert first.name.startswith("▶️ ") and "gold" in first.name and "AP" in first.name
    assert not second.name.startswith("▶️ ")  # not their decision
    hp = CON.view(state, None)["sides"][0]["formation"][0][0]["hp"]
    assert "**Row I** (front): `Ia` " in first.value and f"♥{hp - 1}/{hp} 🛡2 ⚡3" in first.value
    assert first.value.count("level 1") == 2  # both teammates' boards
    assert "👑" in first.value and "Left half" in first.value
    assert markets.name.startswith("Markets") and "in the deck" in markets.value
    total = sum(len(f.name) + len(f.value) for f in fields)
    assert total < 6000 and all(len(f.value) <= 1024 for f in fields)
    private = renderer.private_fields(CON.view(state, 0))
    assert [f.name for f in private] == [
        "You",
        "Your formation",
        "Your hand (5)",
        f"{state.players[2].name}'s hand (5)",
        "Your faction actions (1 AP, one a turn)",
    ]
