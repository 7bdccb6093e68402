"""Tooth & Nail: Factions, rule by rule.

One test per rule of the rulebook (/work/shared/rulebooks/tooth-and-nail-factions.txt),
named after it, with the section it comes from in the docstring. The rulebook's own
examples (Scout's Recharge, Hank's Red Claw Elder, Jeb's Thunderfoot, Dread March) are
played out as written. Positions are real games arranged by moving cards (see
tn_helpers), so every card stays in exactly one place.

Jeb is always seat 0 and the start player; Justin is seat 1 (Scout is seat 2 in the
3 player game; Britt, John and Jackie are seats 1, 2 and 3 in the 4 player game).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.core.packs import PackError
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.cards import BUNDLED_PACK, bundled_pack, parse_pack
from rules.tooth_and_nail.text import faction_text, op_text, troop_label, troop_text
from tests.rules.tn_helpers import (
    BRITT,
    JACKIE,
    JEB,
    JOHN,
    JUSTIN,
    NAMES,
    PLAYERS,
    SCOUT,
    act,
    all_cards,
    assert_conserved,
    battlefield,
    drafted,
    field,
    give,
    keys,
    new_game,
    play,
    set_hand,
    settle,
    stack,
    to_discard,
    trim_deck,
    troop_ids,
)

PACK = bundled_pack()
TROOPS = [(f.id, t.id) for f in PACK.factions for t in f.troops]
FACTIONS = [f.id for f in PACK.factions]


def refused(state: State, key: str, seat: int | None = None) -> IllegalAction:
    """Apply an action that must be refused; check the refusal changed nothing and is
    not offered as a legal action either. Returns the refusal."""
    before = state.model_dump_json()
    who = seat if seat is not None else min(GAME.to_act(state) or {0})
    with pytest.raises(IllegalAction) as caught:
        act(state, key, who)
    assert state.model_dump_json() == before
    assert key not in keys(state, who)
    return caught.value


def until_turn_of(state: State, seat: int) -> State:
    """End turns (taking no actions) until `seat` is the Alpha player."""
    for _ in range(12):
        if state.alpha == seat and state.phase in ("recharge", "action"):
            return state
        state = play(state, "end")
    raise AssertionError(f"seat {seat} never got a turn")


def is_sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text.endswith((".", "?", "!")) and "|" not in text


# =========================================================================== Set-up


def test_set_up_2p_the_other_player_chooses_a_faction_first_then_the_start_player():
    """Standard 2 Player Game Set Up: "the other player takes the Faction deck of his
    choice ... The start player then does the same."
    """
    for start in (0, 1):
        state = new_game("2p", start=start)
        other = 1 - start
        assert GAME.to_act(state) == {other}
        assert keys(state, start) == []
        state, _ = act(state, "faction|marauders", other)
        assert GAME.to_act(state) == {start}
        state, _ = act(state, "faction|ostra-vulture", start)
        assert state.players[other].factions == ["marauders"]
        assert state.players[start].factions == ["ostra-vulture"]
        assert state.alpha == start  # the start player takes the first turn


def test_set_up_3p_the_start_player_chooses_last_and_turns_go_clockwise():
    """Standard 3 Player Game: "Player turns take place in clock-wise order. The start
    player is the last player to choose his Faction."
    """
    state = new_game("3p", start=0)
    choosers = []
    for faction in ("marauders", "ostra-vulture", "loamshell-wardens"):
        (seat,) = GAME.to_act(state)
        choosers.append(seat)
        state, _ = act(state, f"faction|{faction}", seat)
    assert choosers == [JUSTIN, SCOUT, JEB]
    alphas = [state.alpha]
    for _ in range(3):
        state = play(state, "end")
        alphas.append(state.alpha)
    assert alphas == [JEB, JUSTIN, SCOUT, JEB]


def test_set_up_alliance_draft_order_is_other_start_other_start():
    """Alliance: Set Up: "After the start player has chosen his first Faction, the other
    player chooses a second Faction. Then, the start player chooses a second Faction."
    """
    state = new_game("alliance", start=0)
    choosers = []
    for faction in ("marauders", "ostra-vulture", "loamshell-wardens", "skitterwen-brood"):
        (seat,) = GAME.to_act(state)
        choosers.append(seat)
        state, _ = act(state, f"faction|{faction}", seat)
    assert choosers == [JUSTIN, JEB, JUSTIN, JEB]
    assert state.players[JUSTIN].factions == ["marauders", "loamshell-wardens"]
    assert state.players[JEB].factions == ["ostra-vulture", "skitterwen-brood"]


def test_set_up_4p_teams_pick_in_turn_beginning_with_the_other_team_either_member_may_pick():
    """The Enemy of My Enemy: "Beginning with the Other Team, each Team chooses a
    Faction ... This continues until each Team has selected 3 Factions."
    """
    state = new_game("4p", start=0)  # Jeb is the Alpha player: Jeb & John are the Alpha Team
    other_team, alpha_team = {BRITT, JACKIE}, {JEB, JOHN}
    # Whoever of the team answers first picks for the team: here the second member each time.
    pickers = [JACKIE, JOHN, BRITT, JEB, JACKIE]
    for i, (faction, picker) in enumerate(zip(FACTIONS, pickers, strict=False)):
        assert GAME.to_act(state) == (other_team if i % 2 == 0 else alpha_team)
        state, events = act(state, f"faction|{faction}", picker)
    # The sixth pick has a single Faction left: the Alpha Team takes it unasked.
    assert events[1].text == "Jeb and John take the Quillspark Tinkerers, the only Faction left."
    assert state.phase == "command_choice"
    other = state.teams[state.players[BRITT].team].factions
    alpha = state.teams[state.players[JEB].team].factions
    assert other == [FACTIONS[0], FACTIONS[2], FACTIONS[4]]
    assert alpha == [FACTIONS[1], FACTIONS[3], FACTIONS[5]]


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_set_up_a_chosen_faction_cannot_be_chosen_again(variant: str):
    """Set Up: each player (team) takes a Faction deck of his choice; a deck that has
    been taken is no longer there to take."""
    state = new_game(variant, start=0)
    first = min(GAME.to_act(state))
    state, _ = act(state, "faction|marauders", first)
    nxt = min(GAME.to_act(state))
    assert "faction|marauders" not in keys(state, nxt)
    assert len(keys(state, nxt)) == 5
    assert "Marauders" not in [f["name"] for f in GAME.view(state, None)["available_factions"]]
    error = refused(state, "faction|marauders", nxt)
    assert error.code in ("faction-taken", "not-an-option")
    assert is_sentence(error.message)


@pytest.mark.parametrize("variant", ["2p", "3p"])
def test_set_up_faction_command_card_is_placed_face_up_automatically(variant: str):
    """Standard Set Up: "Each player places his chosen Faction Command Card face up in
    his play area" (no choice to make with one Faction)."""
    state = drafted(variant)
    public = GAME.view(state, None)
    for p in state.players:
        assert p.command_card == p.factions[0]
        shown = public["players"][p.seat]
        assert shown["command_card"] == PACK.faction(p.factions[0]).shown_name
        assert PACK.faction(p.factions[0]).formation.name in shown["command_card_text"]


def test_set_up_each_faction_deck_is_6_troops_times_5_copies():
    """The Factions: "6 Unique Troop Cards (5 copies of each) ... a total of 30 Troop
    cards per Faction Deck"; the start player then draws 5 on the first turn."""
    state = drafted("2p")
    for team in state.teams:
        owned = team.deck + team.discard + state.players[team.seats[0]].hand
        counts = Counter(troop_ids(state, owned))
        faction = PACK.faction(team.factions[0])
        assert counts == {t.id: 5 for t in faction.troops}
    assert len(state.teams[JEB].deck) == 25 and len(state.players[JEB].hand) == 5
    assert len(state.teams[JUSTIN].deck) == 30 and state.players[JUSTIN].hand == []
    assert_conserved(state)


def test_alliance_set_up_two_factions_shuffled_together_top_10_removed_face_down():
    """Alliance: Set Up: "Each player then shuffles together his chosen Faction decks and
    removes the top 10 cards of the deck from the game and sets them face down."
    """
    state = drafted("alliance")
    for team in state.teams:
        seat = team.seats[0]
        owned = team.deck + team.face_down + state.players[seat].hand
        assert len(owned) == 60
        assert len(team.face_down) == 10
        counts = Counter(troop_ids(state, owned))
        assert counts == {t.id: 5 for f in team.factions for t in PACK.faction(f).troops}
        assert len(team.deck) + len(state.players[seat].hand) == 50
        view_team = GAME.view(state, None)["teams"][team.team]
        assert view_team["face_down_removed"] == 10
    # Face down: no view tells which cards they are, not even their owner's.
    changed = state.model_copy(deep=True)
    team = changed.teams[JEB]
    aside = set(troop_ids(changed, team.face_down))
    swap = [c for c in team.deck if changed.cards[c] not in aside][:10]
    assert len(swap) == 10
    for i, new in enumerate(swap):
        team.deck[team.deck.index(new)], team.face_down[i] = team.face_down[i], new
    assert_conserved(changed)
    for seat in (None, JEB, JUSTIN):
        assert GAME.view(changed, seat) == GAME.view(state, seat)


def test_alliance_faction_command_card_is_chosen_before_the_first_turn_and_fixed():
    """Alliance: Faction Ability Cards: "before the start player takes his first turn, the
    players decide which Faction Command card he will use ... set for the entirety of the
    game, and cannot be changed."
    """
    state = new_game("alliance", start=0)
    for faction in ("marauders", "ostra-vulture", "loamshell-wardens", "scorchmane-riders"):
        state, _ = act(state, f"faction|{faction}")
    assert state.phase == "command_choice"
    assert state.players[JEB].hand == [] and state.turn == 0  # no turn has begun
    assert GAME.to_act(state) == {JUSTIN}
    assert keys(state, JUSTIN) == ["command_card|marauders", "command_card|loamshell-wardens"]
    state, _ = act(state, "command_card|loamshell-wardens")
    assert keys(state, JEB) == ["command_card|ostra-vulture", "command_card|scorchmane-riders"]
    state, _ = act(state, "command_card|scorchmane-riders")
    assert state.phase == "action" and state.alpha == JEB
    assert state.players[JEB].command_card == "scorchmane-riders"
    assert state.players[JUSTIN].command_card == "loamshell-wardens"
    # Fixed: no later chance to change it, and the Faction Ability is the chosen card's.
    assert not any(k.startswith("command_card") for k in keys(state, JEB))
    assert refused(state, "command_card|ostra-vulture", JEB).code == "not-now"
    field(state, JEB, "command", "cinder-cub")
    field(state, JEB, "command", "emberhide-bruiser")
    deck = len(state.teams[JUSTIN].deck)
    state, events = act(state, "faction_ability|cinder-cub|emberhide-bruiser")
    assert "Stoke the Blaze" in events[0].text
    assert len(state.teams[JUSTIN].deck) == deck - 1


def test_4p_each_player_sets_a_different_command_card_from_the_team_three():
    """The Enemy of My Enemy: "each player selects a Faction Command Card from the cards
    that were selected by his team. The remaining Faction Command Card is moved to the
    side."
    """
    state = new_game("4p", start=0)
    for faction in FACTIONS[:5]:  # the sixth, the only one left, is taken unasked
        state, _ = act(state, f"faction|{faction}", min(GAME.to_act(state)))
    assert state.phase == "command_choice"
    chosen: dict[int, str] = {}
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        team = state.teams[state.players[seat].team]
        mate = next(s for s in team.seats if s != seat)
        offered = [k.split("|")[1] for k in keys(state, seat)]
        assert set(offered) <= set(team.factions)
        if mate in chosen:
            assert chosen[mate] not in offered and len(offered) == 2
        else:
            assert offered == team.factions
        chosen[seat] = offered[-1]
        state, _ = act(state, f"command_card|{offered[-1]}", seat)
    assert state.phase == "action"
    for team in state.teams:
        cards = [state.players[s].command_card for s in team.seats]
        assert len(set(cards)) == 2 and set(cards) < set(team.factions)


def test_4p_each_team_shuffles_its_three_factions_into_one_deck():
    """The Enemy of My Enemy: "each Team shuffles together all 3 of the Faction decks it
    selected, forming 1 large deck."
    """
    state = drafted("4p")
    for team in state.teams:
        owned = team.deck + [c for s in team.seats for c in state.players[s].hand]
        assert len(owned) == 90
        counts = Counter(troop_ids(state, owned))
        assert counts == {t.id: 5 for f in team.factions for t in PACK.faction(f).troops}
    assert len(state.teams[0].deck) == 85  # Jeb drew his 5 from the team's deck


# =========================================================================== Recharge


def test_recharge_first_turn_draws_5_cards_and_gains_3_ap():
    """Recharge Step: "During the Recharge Step of each player's first turn of the game,
    he draws 5 cards and gains 3 Action Point Cards."
    """
    state = drafted("2p")
    assert len(state.players[JEB].hand) == 5 and state.players[JEB].ap == 3
    state = play(state, "end")
    assert state.alpha == JUSTIN
    assert len(state.players[JUSTIN].hand) == 5 and state.players[JUSTIN].ap == 3
    assert len(state.teams[JUSTIN].deck) == 25


def test_recharge_later_turns_draw_1_card_and_gain_1_ap():
    """Recharge Step: "Draws 1 card from his deck and gains 1 Action Point Card" (with no
    Troop in the Command Zone, nothing more)."""
    state = until_turn_of(play(drafted("2p"), "end"), JEB)
    assert state.phase == "action" and state.frames == []
    assert len(state.players[JEB].hand) == 6
    assert state.players[JEB].ap == 1
    assert len(state.teams[JEB].deck) == 24


def test_recharge_scout_example_draw_draw_ap_for_three_command_zone_troops():
    """Recharge Step example: "Scout has 3 Troops in her Command Zone. For the first Troop,
    she chooses to draw 1 card ... again ... draw 1 card ... for the third Troop, she
    chooses to gain 1 Action Point Card." Then all Command Zone Troops are recharged."""
    state = play(drafted("3p"), "end", "end")
    assert state.alpha == SCOUT
    for troop_id in ("mudback-sage", "lichen-tender", "shellwright-engineer"):
        field(state, SCOUT, "command", troop_id, drained=True)
    hand = len(state.players[SCOUT].hand)
    state = play(state, "end", "end", "end")
    assert state.alpha == SCOUT and state.phase == "recharge"
    # "Draws 1 card from his deck and gains 1 Action Point Card" came first.
    assert len(state.players[SCOUT].hand) == hand + 1 and state.players[SCOUT].ap == 1
    for choice in ("draw", "draw", "ap"):
        assert keys(state, SCOUT) == ["recharge|draw", "recharge|ap", "end"]
        state, _ = act(state, f"recharge|{choice}")
    assert state.phase == "action"
    assert len(state.players[SCOUT].hand) == hand + 3
    assert state.players[SCOUT].ap == 2
    assert [t.drained for t in state.players[SCOUT].command_zone] == [False, False, False]


def test_recharge_one_war_zone_troop_of_the_players_choice():
    """Recharge Step: "Recharges all Troops in his Command Zone; Recharges 1 Troop in his
    War Zone" — the player chooses which, when there is a choice."""
    state = play(drafted("2p"), "end")
    field(state, JEB, "war", "thunderfoot", drained=True)
    field(state, JEB, "war", "icewind-captain", drained=True)
    field(state, JEB, "war", "icewind-captain", drained=True)
    state = play(state, "end")
    assert state.alpha == JEB and GAME.to_act(state) == {JEB}
    assert keys(state, JEB) == ["ready|icewind-captain", "ready|thunderfoot", "end"]
    state, events = act(state, "ready|icewind-captain")
    assert "Icewind Captain" in events[0].text
    drained = [(troop_ids(state, [t.card])[0], t.drained) for t in state.players[JEB].war_zone]
    assert drained == [
        ("thunderfoot", True),
        ("icewind-captain", False),
        ("icewind-captain", True),
    ]
    assert state.phase == "action"


def test_recharge_a_turn_ended_from_the_recharge_step_draws_nothing_more():
    """Recharge Step, then "once a player has completed these 2 steps, his turn ends": a
    player may pass from the Recharge Step in one decision. Each Command Zone Troop still
    to count gains 1 AP (returned unused as the turn ends), the War Zone Troop recharged
    is the strongest kind drained there, and the turn passes."""
    state = play(drafted("3p"), "end", "end")
    for troop_id in ("mudback-sage", "lichen-tender", "shellwright-engineer"):
        field(state, SCOUT, "command", troop_id, drained=True)
    field(state, SCOUT, "war", "pebblegrind-hauler", drained=True)
    field(state, SCOUT, "war", "barkplate-sentinel", drained=True)
    state = play(state, "end", "end", "end")
    assert state.alpha == SCOUT and state.phase == "recharge"
    state, _ = act(state, "recharge|draw")  # the first Troop draws; then the player passes
    hand, deck = len(state.players[SCOUT].hand), len(state.teams[SCOUT].deck)
    assert GAME.explain(Action(kind="end"), state, SCOUT) == (
        "draws nothing more · recharges Barkplate Sentinel (Tech 3) in your War Zone · "
        "Jeb's turn next"
    )
    assert GAME.describe(Action(kind="end"), state) == "End your turn now"
    state, events = act(state, "end")
    assert state.alpha != SCOUT and state.phase in ("recharge", "action")
    assert len(state.players[SCOUT].hand) == hand and len(state.teams[SCOUT].deck) == deck
    assert [t.drained for t in state.players[SCOUT].command_zone] == [False, False, False]
    drained = {troop_ids(state, [t.card])[0]: t.drained for t in state.players[SCOUT].war_zone}
    assert drained == {"pebblegrind-hauler": True, "barkplate-sentinel": False}
    said = [e.text for e in events]
    assert any("recharges Barkplate Sentinel" in line for line in said), said
    assert any(line.startswith("Scout ends their turn") for line in said), said
    assert_conserved(state)


def test_recharge_war_zone_needs_no_choice_when_the_drained_troops_are_alike():
    """Recharge Step: one War Zone Troop is recharged; with only one kind of drained Troop
    there is nothing to choose, and still only one is recharged."""
    state = play(drafted("2p"), "end")
    field(state, JEB, "war", "thunderfoot", drained=True)
    field(state, JEB, "war", "thunderfoot", drained=True)
    field(state, JEB, "war", "icewind-captain")
    state = play(state, "end")
    assert state.phase == "action" and state.frames == []
    assert [t.drained for t in state.players[JEB].war_zone].count(True) == 1


def test_ap_never_above_five():
    """Action Point Cards: "A player can never have more than 5 Action Point Cards in his
    hand."
    """
    state = drafted("2p")
    state.players[JEB].ap = 5
    field(state, JEB, "command", "icewind-captain")  # Drain an opposing Troop; gain 1 AP.
    state, events = act(state, "ability|icewind-captain")
    state, _ = settle(state)
    assert state.players[JEB].ap == 5
    assert any("already holds 5 AP" in e.text for e in events)


def test_alliance_recharge_counts_all_four_command_zone_troops():
    """Recharge Step in Alliance (up to 4 Command Zone Troops): 1 AP, then one choice per
    Command Zone Troop — four AP choices reach exactly the 5 AP a player may hold."""
    state = play(drafted("alliance"), "end")
    for troop_id in ("thunderfoot", "tuh-tusk-shaman", "icewind-captain", "red-claw-elder"):
        field(state, JEB, "command", troop_id)
    state = play(state, "end", "recharge|ap", "recharge|ap", "recharge|ap")
    assert keys(state, JEB) == ["recharge|draw", "recharge|ap", "end"]  # a fourth choice
    state = play(state, "recharge|ap")
    assert state.players[JEB].ap == 5 and state.phase == "action"


def test_unused_ap_are_returned_at_the_end_of_the_turn():
    """Ending the Turn: "He returns any unused Action Point cards from his hand to the side
    of the play area."
    """
    state = drafted("2p")
    state, events = act(state, "end")
    assert state.players[JEB].ap == 0
    assert "returning 3 unused AP" in events[0].text
    state = play(state, "end")
    assert state.players[JEB].ap == 1  # 1 gained, nothing carried over


def test_there_is_no_maximum_hand_size():
    """The Cards: "There is no maximum hand size." """
    state = drafted("2p")
    set_hand(state, JEB, *[t.id for t in PACK.faction("marauders").troops] * 2)
    assert len(state.players[JEB].hand) == 12
    state = play(state, "end", "end")
    assert len(state.players[JEB].hand) == 13
    assert state.phase == "action" and not any(k.startswith("discard") for k in keys(state, JEB))


# =========================================================================== Action Step


@pytest.mark.parametrize("zone", ["command", "war"])
def test_playing_a_troop_costs_1_ap_and_it_enters_non_drained(zone: str):
    """Action Step: "Play a Troop card from his hand into his Command Zone or War Zone"
    for 1 Action Point; "Troops enter play right side up, or Non-Drained."
    """
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "icewind-captain")
    state, events = act(state, f"play|thunderfoot|{zone}")
    player = state.players[JEB]
    troops = player.command_zone if zone == "command" else player.war_zone
    assert troop_ids(state, [t.card for t in troops]) == ["thunderfoot"]
    assert troops[0].drained is False
    assert player.ap == 2
    assert troop_ids(state, player.hand) == ["icewind-captain"]
    assert "Thunderfoot" in events[0].text


@pytest.mark.parametrize(
    ("variant", "zone", "limit", "label"),
    [
        ("2p", "command", 3, "Command Zone"),
        ("2p", "war", 6, "War Zone"),
        ("3p", "command", 3, "Command Zone"),
        ("3p", "war", 6, "War Zone"),
        ("alliance", "command", 4, "Command Zone"),
        ("alliance", "war", 8, "War Zone"),
        ("4p", "command", 4, "Command Zone"),
        ("4p", "war", 8, "War Zone"),
    ],
)
def test_zone_limits_refuse_a_troop_into_a_full_zone(variant, zone, limit, label):
    """Command and War Zones: at most 3 Troops in the Command Zone and 6 in the War Zone;
    Alliance and The Enemy of My Enemy: "up to 8 Troops in the War Zone and up to 4
    Troops in the Command Zone."
    """
    state = drafted(variant)
    set_hand(state, JEB, "thunderfoot", "thunderfoot")
    ids = ["tuh-tusk-shaman", "icewind-captain", "red-claw-elder", "rimeforge-sledger"] * 2
    for troop_id in ids[: limit - 1]:
        field(state, JEB, zone, troop_id)
    state, _ = act(state, f"play|thunderfoot|{zone}")  # the last free place
    assert len(GAME.view(state, None)["players"][JEB][f"{zone}_zone"]) == limit
    error = refused(state, f"play|thunderfoot|{zone}")
    assert error.code == "zone-full"
    assert error.message == f"Your {label} holds at most {limit} Troops."


def test_playing_a_troop_needs_an_action_point():
    """Action Step: playing a Troop costs 1 Action Point; "The Alpha player is limited only
    by the number of Action Point Cards he has to spend."
    """
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "thunderfoot", "thunderfoot", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")  # a 0 AP ability keeps the turn open
    state = play(state, "play|thunderfoot|war", "play|thunderfoot|war", "play|thunderfoot|war")
    assert state.players[JEB].ap == 0
    for zone in ("command", "war"):
        error = refused(state, f"play|thunderfoot|{zone}")
        assert error.code == "no-ap"
        assert error.message == "Playing Thunderfoot costs 1 AP and you have none left this turn."
    assert keys(state, JEB) == ["ability|icewind-captain", "end"]


def test_the_turn_ends_once_the_alpha_player_can_do_nothing_else():
    """Ending the Turn: "Once the Alpha player has completed all of the Actions he is able
    to, or wishes to, his turn ends" — with no AP and nothing free to use, it ends by itself."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "thunderfoot", "thunderfoot", "thunderfoot")
    state = play(state, "play|thunderfoot|war", "play|thunderfoot|war")
    assert state.alpha == JEB
    state, events = act(state, "play|thunderfoot|war")
    assert "Jeb ends their turn with nothing left to do." in [e.text for e in events]
    assert state.alpha == JUSTIN and state.players[JEB].ap == 0


def test_command_ability_hank_red_claw_elder_example_no_copy_in_hand_removes_it():
    """Command Ability Example: "Hank uses the Command Ability of a Red Claw Elder in his
    Command Zone. He Drains the Troop, and completes the Troop's Command ability. He does
    not have another Red Claw Elder in his hand to discard, so the Red Claw Elder is
    removed from the game." It costs 0 Action Points."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot")
    elder = field(state, JEB, "command", "red-claw-elder")
    # Red Claw Elder: destroy a drained opposing Troop with Strength 2 or less.
    seer = field(state, JUSTIN, "war", "gizzard-seer", drained=True)
    state, events = act(state, "ability|red-claw-elder")
    # Asked whenever his hand holds a card, so the question reveals nothing; with no
    # copy of the Elder, letting it leave is his only answer.
    assert keys(state, JEB) == ["keep|no"]
    state, more = act(state, "keep|no")
    texts = [e.text for e in events + more]
    assert texts[0] == "Jeb uses Red Claw Elder's Command Ability."
    assert "Justin's Gizzard Seer is destroyed." in texts
    assert "Jeb's Red Claw Elder is removed from the game." in texts
    assert state.players[JEB].ap == 3
    assert state.players[JEB].command_zone == []
    assert state.teams[JEB].removed == [elder]
    assert state.teams[JUSTIN].discard[-1] == seer
    assert state.players[JUSTIN].war_zone == []


def test_command_ability_troop_stays_if_a_same_named_troop_is_discarded_from_hand():
    """Using Command Abilities: "he must remove the Troop from the game, unless he can
    discard a Troop of the same name from his hand. If he is able to ... the Troop in his
    Command Zone remains in play" (drained)."""
    state = drafted("2p")
    (copy,) = set_hand(state, JEB, "red-claw-elder")
    elder = field(state, JEB, "command", "red-claw-elder")
    state, _ = act(state, "ability|red-claw-elder")
    assert keys(state, JEB) == ["keep|yes", "keep|no"]
    state, _ = act(state, "keep|yes")
    assert [(t.card, t.drained) for t in state.players[JEB].command_zone] == [(elder, True)]
    assert state.teams[JEB].discard[-1] == copy
    assert state.players[JEB].hand == [] and state.teams[JEB].removed == []


def test_command_abilities_are_performed_one_at_a_time_and_all_may_be_used():
    """Using Command Abilities: "He may even use all of them if he so chooses. Command Zone
    Abilities are performed one at a time" — no second ability while the first waits for
    a choice."""
    state = drafted("2p")
    set_hand(state, JEB)
    field(state, JEB, "command", "red-claw-elder")
    field(state, JEB, "command", "icewind-captain")
    field(state, JEB, "war", "thunderfoot")  # an attack left keeps the turn open
    field(state, JUSTIN, "war", "gizzard-seer", drained=True)
    field(state, JUSTIN, "war", "marrowpick-scout", drained=True)
    state, _ = act(state, "ability|red-claw-elder")
    assert keys(state, JEB) == ["target|1|war|gizzard-seer|1", "target|1|war|marrowpick-scout|1"]
    assert refused(state, "ability|icewind-captain").code == "not-now"
    state = play(state, "target|1|war|marrowpick-scout|1", "ability|icewind-captain")
    assert state.players[JEB].command_zone == []
    assert state.players[JEB].ap == 4
    assert [t.drained for t in state.players[JUSTIN].war_zone] == [True]


def test_a_drained_troop_cannot_use_its_command_ability():
    """Important Game Terms: "Generally, a Drained Troop cannot be used by the player";
    using a Command Ability drains the Troop."""
    state = drafted("2p")
    field(state, JEB, "command", "icewind-captain", drained=True)
    error = refused(state, "ability|icewind-captain")
    assert error.code == "drained"
    assert error.message == "Icewind Captain is drained: it recharges in your Recharge Step."


def test_a_war_zone_troops_command_ability_is_ignored():
    """Troop Cards: "a player can only use abilities of Troops in his Command Zone; once a
    Troop is played in the War Zone, its Command Ability is ignored."
    """
    state = drafted("2p")
    field(state, JEB, "war", "icewind-captain")
    assert refused(state, "ability|icewind-captain").code == "no-troop"


def test_faction_ability_drains_two_command_zone_troops_for_0_ap():
    """Using Faction Abilities: "It costs the player no Action Points to use his Faction
    Ability. However, it does require the player to Drain 2 Troops in his Command Zone."
    Marauders: SPREADING CHILL — the opposing player discards a card at random."""
    state = drafted("2p")
    field(state, JEB, "command", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    hand = set_hand(state, JUSTIN, "gizzard-seer", "marrowpick-scout")
    state, events = act(state, "faction_ability|icewind-captain|thunderfoot")
    assert "Spreading Chill" in events[0].text
    assert [t.drained for t in state.players[JEB].command_zone] == [True, True]
    assert state.players[JEB].ap == 3
    assert len(state.players[JUSTIN].hand) == 1
    assert state.teams[JUSTIN].discard[-1] in hand


def test_faction_ability_needs_two_non_drained_command_zone_troops():
    """Using Faction Abilities: the cost is draining 2 Troops in the Command Zone, so two
    non-drained ones are needed."""
    state = drafted("2p")
    field(state, JEB, "command", "thunderfoot")
    field(state, JEB, "command", "icewind-captain", drained=True)
    assert not any(k.startswith("faction_ability") for k in keys(state, JEB))
    error = refused(state, "faction_ability|icewind-captain|thunderfoot")
    assert error.code == "drain-two" and is_sentence(error.message)


def test_non_formation_attack_thunderfoot_example():
    """Non-formation Attacks example: "Jeb initiates a Non-formation Attack against Justin
    with his Thunderfoot. The Thunderfoot is an Arcane Troop with a Strength Value of 2.
    He Drains the Thunderfoot and discards 1 Action Point card ... He doesn't have any
    other Arcane cards in his hand, so he cannot Boost the Attack. The Attack deals 2
    damage to Justin's deck. Justin puts the top 2 cards of his deck into his discard
    pile."
    """
    state = drafted("2p")
    set_hand(state, JEB, "icewind-captain", "rimeforge-sledger")  # Tech only
    field(state, JEB, "war", "thunderfoot")
    top = stack(state, JUSTIN, "gizzard-seer", "marrowpick-scout")
    deck = len(state.teams[JUSTIN].deck)
    assert [k for k in keys(state, JEB) if k.startswith("attack")] == ["attack|thunderfoot|none"]
    state, events = act(state, "attack|thunderfoot|none")  # no Arcane card: no Boost offered
    assert state.frames == []
    assert state.players[JEB].war_zone[0].drained
    assert state.players[JEB].ap == 2
    assert len(state.teams[JUSTIN].deck) == deck - 2
    assert state.teams[JUSTIN].discard == top
    assert events[-1].text == (
        "Justin's deck takes 2 damage (Gizzard Seer, Marrowpick Scout to the discard pile)."
    )


def test_boost_removes_a_same_troop_type_card_from_hand_from_the_game_for_plus_1_once():
    """Non-formation Attacks: "To Boost ... the Alpha player removes 1 card from his hand
    from the game that matches the Attacking Troop's Troop Type. Boosting an Attack adds
    1 to the damage ... An Attack can only be Boosted once."
    """
    state = drafted("2p")
    shaman, _, captain = set_hand(
        state, JEB, "tuh-tusk-shaman", "red-claw-elder", "icewind-captain"
    )
    field(state, JEB, "war", "thunderfoot")
    deck = len(state.teams[JUSTIN].deck)
    # Only Arcane cards can Boost an Arcane Troop's attack; not Boosting is allowed.
    assert [k for k in keys(state, JEB) if k.startswith("attack")] == [
        "attack|thunderfoot|none",
        "attack|thunderfoot|red-claw-elder",
        "attack|thunderfoot|tuh-tusk-shaman",
    ]
    state, events = act(state, "attack|thunderfoot|tuh-tusk-shaman")
    assert len(state.teams[JUSTIN].deck) == deck - 3
    assert state.teams[JEB].removed == [shaman]
    assert shaman not in state.teams[JEB].discard
    assert captain in state.players[JEB].hand and len(state.players[JEB].hand) == 2
    assert state.frames == []
    assert "removing Tuh-Tusk Shaman from the game" in events[1].text
    # A sentence whose subject may be "Arbiter (strong)": the verb reads as one.
    assert events[1].text.startswith("Jeb boosts the attack, removing")


def test_boosting_is_optional():
    """Non-formation Attacks: "Boosting an Attack is optional." """
    state = drafted("2p")
    hand = set_hand(state, JEB, "tuh-tusk-shaman")
    field(state, JEB, "war", "thunderfoot")
    deck = len(state.teams[JUSTIN].deck)
    state = play(state, "attack|thunderfoot|none")
    assert len(state.teams[JUSTIN].deck) == deck - 2
    assert state.players[JEB].hand == hand and state.teams[JEB].removed == []


def test_formation_attack_dread_march_example():
    """Formation Attacks example: "Jeb initiates the Dread March Formation Attack against
    Justin ... He drains his Tuh-Tusk Shaman, an Arcane Troop, and an Icewind Captain, a
    Tech Troop ... He deals a total of 2 damage to Justin's deck ... Additionally, he
    chooses 1 of Justin's Troops and returns it to Justin's hand." Formation Attacks can
    never be Boosted (Jeb holds Arcane and Tech cards, and is not offered one)."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "rimeforge-sledger")
    field(state, JEB, "war", "tuh-tusk-shaman")
    field(state, JEB, "war", "icewind-captain")
    seer = field(state, JUSTIN, "war", "gizzard-seer")
    field(state, JUSTIN, "command", "hollowcry-matron")
    top = stack(state, JUSTIN, "tin-talon-scrapper", "ash-feather-augur")
    key = "formation|icewind-captain,tuh-tusk-shaman"
    assert key in keys(state, JEB)
    state, events = act(state, key)
    assert "Dread March" in events[0].text
    assert state.teams[JUSTIN].discard == top  # 1 + 1 damage, no Boost
    assert [t.drained for t in state.players[JEB].war_zone] == [True, True]
    assert state.players[JEB].ap == 2
    # He chooses 1 of Justin's Troops.
    assert keys(state, JEB) == [
        "target|1|command|hollowcry-matron|0",
        "target|1|war|gizzard-seer|0",
    ]
    state, events = act(state, "target|1|war|gizzard-seer|0")
    assert state.players[JUSTIN].hand[-1] == seer
    assert state.players[JUSTIN].war_zone == []
    assert events[0].text == "Justin's Gizzard Seer returns to their hand."
    assert state.phase == "action" and state.frames == []


def test_formation_attack_needs_the_troop_types_on_its_card():
    """Formation Attacks: "To initiate a Formation Attack requires a certain combination
    of Troops" — Dread March needs an Arcane and a Tech Troop."""
    state = drafted("2p")
    field(state, JEB, "war", "tuh-tusk-shaman")
    field(state, JEB, "war", "thunderfoot")  # two Arcane, no Tech
    assert not any(k.startswith("formation") for k in keys(state, JEB))
    error = refused(state, "formation|thunderfoot,tuh-tusk-shaman")
    assert error.code == "formation"
    assert error.message == "Dread March needs War Zone Troops of these Troop Types: Arcane + Tech."


def test_only_non_drained_troops_can_attack():
    """Initiating Attacks: "Only Non-Drained Troops can be used to Attack." """
    state = drafted("2p")
    field(state, JEB, "war", "thunderfoot", drained=True)
    field(state, JEB, "war", "icewind-captain")
    error = refused(state, "attack|thunderfoot|none")
    assert error.code == "drained" and is_sentence(error.message)
    assert error.message.startswith("Thunderfoot is drained: it can't attack until it is recharged")
    error = refused(state, "formation|icewind-captain,thunderfoot")
    assert error.code == "formation"
    assert error.message == "Thunderfoot is drained: Dread March needs non-drained Troops."
    assert "attack|icewind-captain|none" in keys(state, JEB)


def test_an_attack_costs_1_ap():
    """Initiating Attacks: "It requires 1 Action Point to initiate either type of
    Attack."
    """
    state = drafted("2p")
    field(state, JEB, "war", "thunderfoot")
    field(state, JEB, "war", "icewind-captain")
    field(state, JEB, "war", "tuh-tusk-shaman")
    state.players[JEB].ap = 0
    assert refused(state, "attack|thunderfoot|none").code == "no-ap"
    assert refused(state, "formation|icewind-captain,thunderfoot").code == "no-ap"


def test_only_the_alpha_player_may_act():
    """Important Things to Remember: "only the Alpha player may perform actions." """
    state = drafted("2p")
    give(state, JUSTIN, "gizzard-seer")
    error = refused(state, "play|gizzard-seer|war", JUSTIN)
    assert error.code == "not-your-turn"
    assert error.message == "It isn't your decision: the game waits for Jeb."
    assert GAME.legal_actions(state, JUSTIN) == []


# =========================================================================== Card movement


def test_damage_moves_top_cards_of_the_deck_onto_the_discard_pile_in_order():
    """Dealing Damage: "a number of cards equal to the damage is moved from the top of the
    player's deck to his discard pile" — one card at a time, the pile's order kept."""
    state = drafted("2p")
    field(state, JEB, "war", "thunderfoot")
    set_hand(state, JEB, "icewind-captain")  # Tech: no Boost, but a play keeps the turn open
    below = to_discard(state, JUSTIN, "gizzard-seer", "hollowcry-matron")
    top = stack(state, JUSTIN, "marrowpick-scout", "tin-talon-scrapper", "ash-feather-augur")
    rest = list(state.teams[JUSTIN].deck[:-3])
    state, _ = act(state, "attack|thunderfoot|none")
    assert state.teams[JUSTIN].discard == [*below, top[0], top[1]]
    assert state.teams[JUSTIN].deck == [*rest, top[2]]


def test_destroyed_troop_goes_to_the_top_of_its_owners_discard_pile():
    """Important Game Terms: "When a Troop is Destroyed, it is sent from play to the top of
    the player's discard pile. It is very important to not change the order of the cards
    in the discard piles."
    """
    state = drafted("2p")
    below = to_discard(state, JUSTIN, "gizzard-seer", "hollowcry-matron", "marrowpick-scout")
    field(state, JEB, "command", "red-claw-elder")
    harrier = field(state, JUSTIN, "command", "rattlequill-harrier", drained=True)
    state, _ = act(state, "ability|red-claw-elder")
    assert state.teams[JUSTIN].discard == [*below, harrier]
    assert state.players[JUSTIN].command_zone == []


def test_removed_cards_leave_the_game():
    """Important Game Terms: "When a card is removed from the game, it is moved to the side
    of the play area" — in no deck, hand, zone or discard pile, and counted in the view."""
    state = drafted("2p")
    set_hand(state, JEB, "tuh-tusk-shaman")
    elder = field(state, JEB, "command", "red-claw-elder")
    field(state, JEB, "war", "thunderfoot")
    state = play(state, "ability|red-claw-elder", "keep|no", "attack|thunderfoot|tuh-tusk-shaman")
    gone = state.teams[JEB].removed
    assert len(gone) == 2 and elder in gone
    team = state.teams[JEB]
    elsewhere = team.deck + team.discard + state.players[JEB].hand
    elsewhere += [t.card for t in state.players[JEB].command_zone + state.players[JEB].war_zone]
    assert not set(gone) & set(elsewhere)
    assert GAME.view(state, JUSTIN)["teams"][JEB]["removed_count"] == 2
    assert_conserved(state)


# =========================================================================== Ending the game


def test_game_ends_at_once_when_damage_empties_a_deck():
    """Ending the Game: "A game ... ends immediately when a player has no cards remaining in
    his deck ... The player with no cards remaining in his deck ... has lost the battle.
    The other player wins the game."
    """
    state = drafted("2p")
    field(state, JEB, "war", "thunderfoot")
    set_hand(state, JEB)
    trim_deck(state, JUSTIN, 2)
    state, events = act(state, "attack|thunderfoot|none")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == [JEB] and outcome.losers == [JUSTIN]
    assert GAME.to_act(state) == set()
    assert GAME.legal_actions(state, JEB) == [] and GAME.legal_actions(state, JUSTIN) == []
    assert events[-1].text == "Justin's deck is empty: Jeb wins."
    assert outcome.text == "Justin's deck is empty: Jeb wins."
    assert refused(state, "end", JEB).code == "over"


def test_game_ends_at_once_even_in_the_middle_of_a_formation_attack():
    """Ending the Game: "ends immediately ... regardless of when the player has no cards
    remaining" — Dread March's damage empties Justin's deck, so its return never happens."""
    state = drafted("2p")
    field(state, JEB, "war", "tuh-tusk-shaman")
    field(state, JEB, "war", "icewind-captain")
    field(state, JUSTIN, "war", "gizzard-seer")
    trim_deck(state, JUSTIN, 2)
    state, _ = act(state, "formation|icewind-captain,tuh-tusk-shaman")
    assert GAME.outcome(state) is not None and GAME.outcome(state).losers == [JUSTIN]
    assert len(state.players[JUSTIN].war_zone) == 1 and state.frames == []


def test_drawing_your_own_last_card_loses_the_game():
    """Ending the Game: "regardless of when the player has no cards remaining in his deck"
    — drawing his own last card in the Recharge Step ends it, and he loses."""
    state = play(drafted("2p"), "end")
    trim_deck(state, JEB, 1)
    state, events = act(state, "end")
    assert state.teams[JEB].deck == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.losers == [JEB] and outcome.winners == [JUSTIN]
    assert outcome.reason == "deck empty"
    # Immediately: nothing more happens once the game is over (no Action Point gained).
    assert events[-1].kind == "over", [e.text for e in events]
    assert state.players[JEB].ap == 0


def test_first_turn_draw_that_empties_the_deck_ends_the_game_before_the_ap():
    """Ending the Game: the first Recharge Step draws 5; if that empties the deck the game
    is over at once, before the 3 Action Points are gained."""
    state = drafted("2p")
    trim_deck(state, JUSTIN, 4)
    state, events = act(state, "end")
    assert GAME.outcome(state) is not None and GAME.outcome(state).losers == [JUSTIN]
    assert len(state.players[JUSTIN].hand) == 4
    assert events[-1].kind == "over", [e.text for e in events]
    assert state.players[JUSTIN].ap == 0


# =========================================================================== 3 players


def _three_player_with_justin_out() -> State:
    """Jeb's first turn: Justin (3 cards in hand) has 2 cards left and Jeb's Thunderfoot
    empties his deck."""
    state = drafted("3p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    field(state, JEB, "war", "thunderfoot")  # a second attack keeps Jeb's turn open
    set_hand(state, JUSTIN, "gizzard-seer", "marrowpick-scout", "rattlequill-harrier")
    trim_deck(state, JUSTIN, 2)
    state, events = act(state, f"attack|thunderfoot|none|{JUSTIN}")
    assert any(e.text == "Justin's deck is empty: they are eliminated." for e in events)
    return state


def test_3p_a_player_with_an_empty_deck_is_eliminated_and_the_game_goes_on():
    """Standard 3 Player Game: "When a player has 0 cards remaining in his deck, he is
    eliminated from the game."
    """
    state = _three_player_with_justin_out()
    assert state.players[JUSTIN].eliminated
    assert GAME.outcome(state) is None
    assert GAME.to_act(state) == {JEB}
    # Justin is no longer an opponent to attack.
    field(state, JEB, "war", "icewind-captain")
    assert [k for k in keys(state, JEB) if k.startswith("attack")] == [
        "attack|icewind-captain|none|2",
        "attack|thunderfoot|none|2",
    ]


def test_3p_eliminated_player_takes_revenge_on_what_would_be_his_next_turn():
    """Standard 3 Player Game: "on what would be his next turn, he deals 1 damage to the
    player of his choice's deck for each card in his hand."
    """
    state = _three_player_with_justin_out()
    state = play(state, "end")
    assert state.alpha == JUSTIN and state.phase == "revenge"
    assert keys(state, JUSTIN) == ["revenge|0", "revenge|2"]
    scout_deck = len(state.teams[SCOUT].deck)
    state, events = act(state, "revenge|2")
    assert events[0].text == "Justin takes revenge on Scout with 3 cards in hand."
    assert len(state.teams[SCOUT].discard) == 3
    assert len(state.teams[SCOUT].deck) == scout_deck - 3 - 5  # and her first turn's 5
    # Then Scout's turn; Justin never takes another.
    assert state.alpha == SCOUT and state.phase == "action"
    alphas = []
    for _ in range(4):
        state, _ = settle(play(state, "end"))
        alphas.append(state.alpha)
    assert alphas == [JEB, SCOUT, JEB, SCOUT]


def test_3p_game_ends_when_two_decks_are_empty_and_the_remaining_player_wins():
    """Standard 3 Player Game: "The game ends when 2 players have 0 cards remaining in
    their decks. The remaining player wins the game."
    """
    state = _three_player_with_justin_out()
    field(state, JEB, "war", "icewind-captain")
    trim_deck(state, SCOUT, 1)
    state, _ = act(state, f"attack|icewind-captain|none|{SCOUT}")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == [JEB] and sorted(outcome.losers) == [JUSTIN, SCOUT]


def test_3p_a_player_eliminated_in_his_own_recharge_step_hands_the_turn_on():
    """Standard 3 Player Game: elimination happens whenever the deck runs out, also when
    the Alpha player draws his own last card; play passes on to the next player."""
    state = play(drafted("3p"), "end", "end")  # Scout's first turn
    field(state, JEB, "command", "thunderfoot")
    trim_deck(state, JEB, 2)
    state = play(state, "end")  # Jeb draws 1 and gains 1 AP
    assert state.alpha == JEB and keys(state, JEB) == ["recharge|draw", "recharge|ap", "end"]
    state, _ = act(state, "recharge|draw")  # his last card
    assert state.players[JEB].eliminated
    assert GAME.outcome(state) is None
    assert state.alpha == JUSTIN and GAME.to_act(state) == {JUSTIN}
    assert "end" in keys(state, JUSTIN)
    # His revenge comes on what would be his next turn, after Justin's and Scout's.
    state = play(state, "end", "end")
    assert state.alpha == JEB and state.phase == "revenge"
    assert keys(state, JEB) == ["revenge|1", "revenge|2"]


@pytest.mark.parametrize(
    ("ability", "ops"),
    [
        ("faction_ability|icewind-captain|thunderfoot", "discard_random"),
        ("ability|thunderfoot", "damage"),
    ],
)
def test_3p_abilities_against_the_opposing_player_affect_every_opponent(ability, ops):
    """Standard 3 Player Game: "Command Abilities and Faction Abilities that affect 'the
    opposing player' affect all opposing players" — Spreading Chill makes both opponents
    discard at random; Thunderfoot's 1 damage hits both decks."""
    state = drafted("3p")
    field(state, JEB, "command", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    set_hand(state, JUSTIN, "gizzard-seer", "marrowpick-scout")
    set_hand(state, SCOUT, "mudback-sage", "lichen-tender")
    decks = [len(state.teams[s].deck) for s in (JUSTIN, SCOUT)]
    state, _ = act(state, ability)
    state, _ = settle(state)
    for i, seat in enumerate((JUSTIN, SCOUT)):
        if ops == "discard_random":
            assert len(state.players[seat].hand) == 1
            assert len(state.teams[seat].discard) == 1
        else:
            assert len(state.teams[seat].deck) == decks[i] - 1


def test_3p_every_opponent_makes_his_own_choice_of_discard():
    """Standard 3 Player Game: "the opposing player" is every opponent — Hoarfrost
    Trapper's "discards a card of their choice" waits for both, each choosing his own."""
    state = drafted("3p")
    field(state, JEB, "command", "hoarfrost-trapper")
    set_hand(state, JUSTIN, "gizzard-seer", "marrowpick-scout")
    (sage,) = set_hand(state, SCOUT, "mudback-sage")
    state, _ = act(state, "ability|hoarfrost-trapper")
    assert GAME.to_act(state) == {JUSTIN, SCOUT}
    assert keys(state, JUSTIN) == ["discard|gizzard-seer", "discard|marrowpick-scout"]
    assert keys(state, SCOUT) == ["discard|mudback-sage"]
    state, _ = act(state, "discard|mudback-sage", SCOUT)
    assert GAME.to_act(state) == {JUSTIN}
    state, _ = act(state, "discard|marrowpick-scout", JUSTIN)
    assert troop_ids(state, state.players[JUSTIN].hand) == ["gizzard-seer"]
    assert state.teams[SCOUT].discard == [sage] and state.players[SCOUT].hand == []
    assert GAME.to_act(state) == {JEB} and state.phase == "action"


def test_3p_an_attack_hits_the_opponent_of_the_attackers_choice():
    """Standard 3 Player Game: an attack deals its damage to one opposing player's deck,
    the one the Alpha player attacks."""
    state = drafted("3p")
    field(state, JEB, "war", "thunderfoot")
    set_hand(state, JEB, "icewind-captain")  # Tech: no Boost, but a play keeps the turn open
    assert [k for k in keys(state, JEB) if k.startswith("attack")] == [
        "attack|thunderfoot|none|1",
        "attack|thunderfoot|none|2",
    ]
    state, _ = act(state, "attack|thunderfoot|none|2")
    assert len(state.teams[SCOUT].deck) == 28 and len(state.teams[JUSTIN].deck) == 30


# --------------------------------------------------------------------------- conceding


def concede(state: State, seat: int) -> tuple[State, list]:
    """`seat` concedes (the contract's `concede`, with this position's generator)."""
    return GAME.concede(state, seat, rng_for(state.turn, len(state.cards) + seat))


def test_three_players_a_conceded_seat_leaves_the_draft_and_the_draft_goes_on():
    """3 players: a player who concedes is eliminated and the others play on, so the
    draft goes on with the next player in the draft order (Justin, Scout, then Jeb)."""
    state = new_game("3p", start=0)
    assert GAME.to_act(state) == {JUSTIN}
    state, events = concede(state, JUSTIN)  # the player the draft waits for
    assert [e.text for e in events] == ["Justin concedes: Jeb and Scout play on."]
    assert state.phase == "faction_choice" and GAME.to_act(state) == {SCOUT}
    assert len(keys(state, SCOUT)) == 6 and keys(state, JUSTIN) == []
    state, _ = act(state, "faction|marauders", SCOUT)
    assert GAME.to_act(state) == {JEB}
    state, _ = act(state, "faction|ostra-vulture", JEB)
    assert state.phase == "action" and state.alpha == JEB
    assert state.players[JUSTIN].factions == []


def test_three_players_a_player_who_conceded_is_not_asked_to_draft_later():
    """3 players: a player who conceded before their turn to choose never chooses; the
    draft goes from Justin straight to Jeb."""
    state = new_game("3p", start=0)
    state, _ = concede(state, SCOUT)  # Justin is choosing; Scout would choose next
    assert GAME.to_act(state) == {JUSTIN}
    state, _ = act(state, "faction|marauders", JUSTIN)
    assert GAME.to_act(state) == {JEB}
    state, _ = act(state, "faction|ostra-vulture", JEB)
    assert state.phase == "action" and state.alpha == JEB
    assert SCOUT not in GAME.to_act(state)


def test_three_players_only_players_who_drafted_get_a_deck_and_a_faction_command_card():
    """Set Up: each player shuffles the Faction deck he chose and places its Faction
    Command card face up; a player who conceded before choosing has neither."""
    state = new_game("3p", start=0)
    state, _ = concede(state, SCOUT)
    state, _ = act(state, "faction|marauders", JUSTIN)
    state, events = act(state, "faction|ostra-vulture", JEB)
    shuffles = [e.text for e in events if e.kind == "shuffle"]
    assert shuffles == ["Jeb shuffles 30 cards.", "Justin shuffles 30 cards."]
    scout = state.players[SCOUT]
    assert scout.factions == [] and scout.command_card is None and scout.hand == []
    assert state.teams[SCOUT].deck == [] and len(state.cards) == 60
    assert state.players[JUSTIN].command_card == "marauders"
    assert state.players[JEB].command_card == "ostra-vulture"
    assert_conserved(state)
    assert GAME.view(state, SCOUT)["players"][SCOUT]["command_card"] is None
    alphas = [state.alpha]
    for _ in range(3):
        state = play(state, "end")
        alphas.append(state.alpha)
    assert alphas == [JEB, JUSTIN, JEB, JUSTIN]


@pytest.mark.parametrize("moment", ["before his pick", "at his pick"])
def test_three_players_a_start_player_who_conceded_in_the_draft_hands_the_first_turn_on(
    moment: str,
):
    """3 players: the start player takes the first turn, and turns go clockwise; a start
    player who conceded during the draft (even when his was the last pick) takes none,
    so the first turn is the next player's clockwise."""
    state = new_game("3p", start=0)
    if moment == "before his pick":
        state, _ = concede(state, JEB)
        state = play(state, "faction|marauders", "faction|ostra-vulture")
    else:
        state = play(state, "faction|marauders", "faction|ostra-vulture")
        assert GAME.to_act(state) == {JEB}
        state, _ = concede(state, JEB)
    assert state.turn == 1 and state.alpha == JUSTIN
    assert state.phase == "action" and GAME.to_act(state) == {JUSTIN}
    assert len(state.players[JUSTIN].hand) == 5 and state.players[JUSTIN].ap == 3
    alphas = [state.alpha]
    for _ in range(3):
        state = play(state, "end")
        alphas.append(state.alpha)
    assert alphas == [JUSTIN, SCOUT, JUSTIN, SCOUT]


def test_three_players_a_choice_aimed_only_at_a_player_who_conceded_lapses():
    """3 players: an ability on "the opposing player" affects every opponent, one Troop
    of each; once an opponent has conceded it no longer reaches him, and the Alpha
    player goes on with the other opponent's Troop."""
    state = drafted("3p")
    field(state, JEB, "command", "thunderfoot")  # drain a War Zone Troop, then 1 damage
    field(state, JUSTIN, "war", "gizzard-seer")
    field(state, JUSTIN, "war", "marrowpick-scout")
    field(state, SCOUT, "war", "mudback-sage")
    field(state, SCOUT, "war", "lichen-tender")
    state, _ = act(state, "ability|thunderfoot")
    assert keys(state, JEB) == ["target|1|war|gizzard-seer|0", "target|1|war|marrowpick-scout|0"]
    state, _ = concede(state, JUSTIN)
    assert keys(state, JEB) == ["target|2|war|mudback-sage|0", "target|2|war|lichen-tender|0"]


def test_three_players_a_player_who_is_out_cannot_concede_again():
    """3 players: conceding takes a player out of the game for good; a player who is out
    has nothing left to concede, and the table reads no second concession."""
    state = new_game("3p", start=0)
    state, _ = concede(state, SCOUT)
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        concede(state, SCOUT)
    assert caught.value.code == "out" and is_sentence(caught.value.message)
    assert state.model_dump_json() == before


# =========================================================================== 4 players


def test_4p_turn_order_alternates_teams_jeb_britt_john_jackie():
    """The Enemy of My Enemy: "Jeb and John are on a team and Britt and Jackie are on a
    team. Jeb would take a turn, then Britt, then John, and then Jackie."
    """
    state = drafted("4p")
    alphas = [state.alpha]
    for _ in range(4):
        state = play(state, "end")
        alphas.append(state.alpha)
    assert [NAMES["4p"][s] for s in alphas] == ["Jeb", "Britt", "John", "Jackie", "Jeb"]
    assert GAME.team_of(state, JEB) == GAME.team_of(state, JOHN)
    assert GAME.team_of(state, BRITT) == GAME.team_of(state, JACKIE) != GAME.team_of(state, JEB)


def test_4p_teammates_share_deck_and_discard_but_not_zones_or_turns():
    """The Enemy of My Enemy: "While each Team shares a deck and discard pile, each player
    still has his own turn, and his own War Zone and Command Zone."
    """
    state = drafted("4p")
    set_hand(state, JEB, "thunderfoot")
    deck = len(state.teams[0].deck)
    state = play(state, "play|thunderfoot|war", "end", "end")
    assert state.alpha == JOHN
    assert len(state.players[JOHN].hand) == 5  # his own first turn...
    assert len(state.teams[0].deck) == deck - 5  # ...drawn from the deck Jeb drew from
    assert state.players[JOHN].war_zone == [] and len(state.players[JEB].war_zone) == 1
    field(state, JOHN, "war", "icewind-captain")
    set_hand(state, JOHN, "thunderfoot")  # Arcane: nothing to Boost with, a play still open
    # Damage to either opponent lands on the one shared deck and discard pile.
    before = len(state.teams[1].deck)
    state, _ = act(state, "attack|icewind-captain|none")
    assert len(state.teams[1].deck) == before - 1 and len(state.teams[1].discard) == 1


def test_4p_a_team_loses_when_its_shared_deck_is_empty():
    """The Enemy of My Enemy: "The game ends immediately when a team has 0 cards remaining
    in its deck. That team loses the game."
    """
    state = drafted("4p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    trim_deck(state, 1, 2)
    state, _ = act(state, "attack|thunderfoot|none")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert sorted(outcome.winners) == [JEB, JOHN]
    assert sorted(outcome.losers) == [BRITT, JACKIE]


def test_4p_an_effect_on_the_opposing_player_hits_the_opponent_of_the_actors_choice():
    """The Enemy of My Enemy: "Abilities that affect an opposing player affect the opposing
    player of the player's choice" — Spreading Chill, aimed at Jackie."""
    state = drafted("4p")
    field(state, JEB, "command", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    britt = set_hand(state, BRITT, "gizzard-seer", "marrowpick-scout")
    set_hand(state, JACKIE, "mudback-sage", "lichen-tender")
    state, _ = act(state, "faction_ability|icewind-captain|thunderfoot")
    assert keys(state, JEB) == [f"opponent|{BRITT}", f"opponent|{JACKIE}"]
    state, events = act(state, f"opponent|{JACKIE}")
    assert state.players[BRITT].hand == britt
    assert len(state.players[JACKIE].hand) == 1
    assert any("Jackie discards" in e.text for e in events)


def test_4p_damage_to_the_opposing_team_lands_once_on_its_shared_deck():
    """The Enemy of My Enemy: the two opponents share one deck, so "deal 1 damage to the
    opposing player's deck" (Thunderfoot) moves exactly 1 card."""
    state = drafted("4p")
    field(state, JEB, "command", "thunderfoot")
    deck = len(state.teams[1].deck)
    state, _ = act(state, "ability|thunderfoot")
    state, _ = settle(state)
    assert len(state.teams[1].deck) == deck - 1 and len(state.teams[1].discard) == 1


def test_4p_abilities_on_your_own_troops_never_touch_your_teammates():
    """The Enemy of My Enemy: "Abilities that affect the player's own Troops affect only
    his Troops, not his teammate's" — Pyre-Mane Chanter recharges Jeb's War Zone Troop,
    never John's."""
    state = drafted("4p")
    field(state, JEB, "command", "pyre-mane-chanter")
    mine = field(state, JEB, "war", "thunderfoot", drained=True)
    field(state, JOHN, "war", "icewind-captain", drained=True)
    state, _ = act(state, "ability|pyre-mane-chanter")  # one Troop to choose: no question
    assert [(t.card, t.drained) for t in state.players[JEB].war_zone] == [(mine, False)]
    assert state.players[JOHN].war_zone[0].drained


# =========================================================================== Abilities vs the rules


def test_an_ability_that_would_break_a_rule_resolves_as_far_as_it_can_full_war_zone():
    """Using Faction Abilities: "In the event that a Command Ability or Faction Ability
    would cause the rules to be broken, the Command Ability is followed to the best of the
    player's ability" — Burrow Runt (deploy a Troop, then draw a card) with a full War
    Zone deploys nothing but still draws."""
    state = drafted("2p", picks=["ostra-vulture", "skitterwen-brood"])
    set_hand(state, JEB, "tunnel-sapper")
    for troop_id in ["carapace-hulk", "rustmandible-drone", "chittermass-swarm"] * 2:
        field(state, JEB, "war", troop_id)
    field(state, JEB, "command", "burrow-runt")
    state, events = act(state, "ability|burrow-runt")
    assert len(state.players[JEB].war_zone) == 6
    assert "Burrow Runt's Command Ability: Jeb can't deploy a Troop." in [e.text for e in events]
    assert len(state.players[JEB].hand) == 2  # Tunnel Sapper stays; a card drawn


def test_an_ability_that_would_break_a_rule_resolves_as_far_as_it_can_search_finds_nothing():
    """Using Faction Abilities (best of the player's ability): Ostra Vulture's ASSIMILATION
    searches for a Troop from outside the faction; a one-faction deck has none, so the
    search finds nothing, and the two Troops are still drained."""
    state = drafted("2p", picks=["marauders", "ostra-vulture"])
    field(state, JEB, "command", "gizzard-seer")
    field(state, JEB, "command", "marrowpick-scout")
    hand = list(state.players[JEB].hand)
    state, events = act(state, "faction_ability|gizzard-seer|marrowpick-scout")
    assert "Jeb searches their deck and finds nothing." in [e.text for e in events]
    assert state.players[JEB].hand == hand
    assert [t.drained for t in state.players[JEB].command_zone] == [True, True]
    assert state.phase == "action" and state.frames == []


def test_a_searched_card_stays_secret_in_its_owners_hand():
    """The Cards: "Cards in a player's hand are kept secret from the other players." A card
    searched for goes to the hand without being shown (like a drawn card, only its owner
    reads its name)."""
    state = drafted("2p", picks=["marauders", "ostra-vulture"])
    field(state, JEB, "command", "ash-feather-augur")  # search the deck for any Troop
    state, _ = act(state, "ability|ash-feather-augur")
    state, events = act(state, "search|tin-talon-scrapper")
    (found,) = [e for e in events if e.kind == "search"]
    assert "Tin-Talon Scrapper" in found.text_for(JEB)
    assert "Tin-Talon Scrapper" not in found.text_for(JUSTIN)
    assert "Tin-Talon Scrapper" not in found.text_for(None)


# =========================================================================== Contract


ACTION_KINDS = {
    "faction",
    "command_card",
    "recharge",
    "ready",
    "play",
    "ability",
    "faction_ability",
    "attack",
    "formation",
    "end",
    "keep",
    "target",
    "opponent",
    "discard",
    "deploy",
    "search",
    "revenge",
}


@cache
def explored() -> tuple[tuple[State, ...], ...]:
    """Positions from short random games of every mode (2 per mode), reached by random
    legal actions; between them they offer every kind of action (see ACTION_KINDS)."""
    games = []
    for variant in PLAYERS:
        for seed in (3, 4):
            seats = [SeatSpec(seat=i, name=n) for i, n in enumerate(NAMES[variant])]
            state = GAME.setup(variant, seats, {}, seed)
            chooser = random.Random(seed)
            positions = [state]
            for n in range(1, 160):
                if GAME.outcome(state) is not None:
                    break
                seat = chooser.choice(sorted(GAME.to_act(state)))
                legal = GAME.legal_actions(state, seat)
                others = [a for a in legal if a.kind != "end"]
                action = chooser.choice(others) if others and chooser.random() < 0.85 else legal[-1]
                state, _ = GAME.apply(state, seat, action, rng_for(seed, n))
                positions.append(state)
            games.append(tuple(positions))
    return tuple(games)


def test_contract_every_legal_action_is_accepted_and_apply_never_mutates_its_input():
    """Contract: `legal_actions` lists exactly actions `apply` accepts; `apply` returns a
    new state and events and leaves its input untouched."""
    applied = 0
    for game in explored():
        for state in game[::3]:
            before = state.model_dump_json()
            for seat in GAME.to_act(state):
                for action in GAME.legal_actions(state, seat):
                    new, events = GAME.apply(state, seat, action, rng_for(0, applied))
                    applied += 1
                    assert events, action.key
                    assert new is not state
                    assert state.model_dump_json() == before, action.key
                    assert_conserved(new)
    assert applied > 500


def test_contract_a_refused_action_leaves_the_state_untouched():
    """Contract: apply "raises IllegalAction and changes nothing" — also for refusals that
    happen deep in a rule (here: every seat tries every candidate of every other seat)."""
    tried = 0
    for game in explored():
        for state in game[::10]:
            before = state.model_dump_json()
            candidates = {a for s in range(len(state.players)) for a in _menu(state, s)}
            for seat in range(len(state.players)):
                for action in candidates - set(GAME.legal_actions(state, seat)):
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, action, rng_for(0, 0))
                    tried += 1
            assert state.model_dump_json() == before
    assert tried > 100


def _menu(state: State, seat: int) -> list[Action]:
    """Actions that seat could have if it were its decision (for refusal tests)."""
    fake = state.model_copy(deep=True)
    if fake.frames:
        fake.frames[-1].deciders = [seat]
    elif fake.phase == "action":
        fake.alpha = seat
    return GAME.legal_actions(fake, seat)


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("attack|thunderfoot|none|0", "target"),  # Jeb is not his own opponent
        ("attack|thunderfoot|none|9", "target"),
        ("attack|thunderfoot|none|x", "target"),
        ("attack|thunderfoot|icewind-captain", "boost"),  # Tech can't Boost an Arcane
        ("formation|icewind-captain,tuh-tusk-shaman|5", "target"),
    ],
)
def test_contract_apply_refuses_what_legal_actions_does_not_offer(key: str, code: str):
    """Contract: `legal_actions` is "Exactly the actions `apply` accepts from `seat` now" —
    in 2 players an attack names no target, so an attack at a made-up seat is refused."""
    state = drafted("2p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    field(state, JEB, "war", "icewind-captain")
    field(state, JEB, "war", "tuh-tusk-shaman")
    assert key not in keys(state, JEB)
    with pytest.raises(IllegalAction) as caught:
        act(state, key)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("attack|thunderfoot|none|02", "target"),  # Scout is "2", not "02"
        ("attack|thunderfoot|none|²", "target"),
        ("attack|thunderfoot|none|２", "target"),
        ("attack|thunderfoot|none| 2", "target"),
        ("faction_ability|thunderfoot|icewind-captain", "not-an-option"),
        ("formation|thunderfoot,icewind-captain|2", "not-an-option"),
    ],
)
def test_contract_a_choice_has_one_key_and_the_same_choice_written_otherwise_is_refused(
    key: str, code: str
):
    """Contract: `legal_actions` is "Exactly the actions `apply` accepts" — so an opponent
    is named as the menu names him, and Troops used together in the menu's order;
    anything else is refused with a sentence, never accepted or crashed on."""
    state = drafted("3p")
    set_hand(state, JEB)
    for zone in ("war", "command"):
        field(state, JEB, zone, "thunderfoot")
        field(state, JEB, zone, "icewind-captain")
    offered = keys(state, JEB)
    assert "attack|thunderfoot|none|2" in offered
    assert "faction_ability|icewind-captain|thunderfoot" in offered
    assert "formation|icewind-captain,thunderfoot|2" in offered
    error = refused(state, key, JEB)
    assert error.code == code and is_sentence(error.message)


@pytest.mark.parametrize(
    ("arrange", "seat", "key", "code"),
    [
        (None, JUSTIN, "end", "not-your-turn"),
        (None, 7, "end", "no-seat"),
        (None, JEB, "play|no-such-troop|war", "unknown-card"),
        (None, JEB, "play|gizzard-seer|war", "not-in-hand"),
        ("thunderfoot-in-hand", JEB, "play|thunderfoot|hand", "zone"),
        (None, JEB, "ability|thunderfoot", "no-troop"),
        (None, JEB, "attack|thunderfoot|none", "no-troop"),
        (None, JEB, "keep|no", "not-now"),
        (None, JEB, "keep|yes", "not-now"),
        (None, JEB, "recharge|draw", "not-now"),
        (None, JEB, "faction|marauders", "not-now"),
        (None, JEB, "nonsense", "not-now"),
    ],
)
def test_contract_an_illegal_action_raises_with_a_message_for_the_player(arrange, seat, key, code):
    """Contract: IllegalAction carries a code and "a sentence meant for" the player."""
    state = drafted("2p")
    if arrange == "thunderfoot-in-hand":
        give(state, JEB, "thunderfoot")
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        act(state, key, seat)
    assert caught.value.code == code
    assert is_sentence(caught.value.message), caught.value.message
    assert str(caught.value) == caught.value.message
    assert state.model_dump_json() == before


def test_contract_legal_actions_is_empty_for_seats_the_game_is_not_waiting_for():
    """Contract: only seats in `to_act` have legal actions (the Alpha player acts, and
    only whoever a decision belongs to answers it)."""
    checked = 0
    for game in explored():
        for state in game:
            waiting = GAME.to_act(state)
            for seat in range(len(state.players)):
                if seat in waiting:
                    assert GAME.legal_actions(state, seat), (state.phase, seat)
                else:
                    assert GAME.legal_actions(state, seat) == []
                    checked += 1
    assert checked > 500


def test_contract_describe_gives_a_readable_label_for_every_legal_action():
    """Contract: `describe` is "The human label for an action, as shown in menus." """
    seen: set[str] = set()
    for game in explored():
        for state in game:
            for seat in GAME.to_act(state):
                for action in GAME.legal_actions(state, seat):
                    label = GAME.describe(action, state)
                    assert label and label != action.key, action.key
                    assert label[0].isupper() and "|" not in label and "None" not in label
                    assert "-" not in label.split(" ")[0]
                    seen.add(action.kind)
    assert seen == ACTION_KINDS


def test_contract_describe_labels_every_decision_kind():
    """Contract: every kind of decision has a human label (checked on hand-made positions
    for the kinds random games rarely reach)."""
    state = battlefield("marauders")
    menus = [(state, k) for k in keys(state, JEB)]
    for key in ("ability|red-claw-elder",):
        after, _ = act(state, key)
        menus += [(after, k) for k in keys(after, JEB)]
    labels = {key: GAME.describe(Action.from_key(key), at) for at, key in menus}
    kinds = {k.split("|")[0] for k in labels}
    assert kinds == {"play", "ability", "faction_ability", "attack", "formation", "end"} | {
        "target",
    }
    assert labels["faction_ability|hoarfrost-trapper|red-claw-elder"] == (
        "Use Spreading Chill (Faction Ability), draining Hoarfrost Trapper and Red Claw Elder"
    )
    assert labels["formation|icewind-captain,thunderfoot"] == (
        "Formation Attack Dread March with Icewind Captain (Tech 1) and Thunderfoot (Arcane 2)"
    )
    assert labels["attack|icewind-captain|none"] == "Attack with Icewind Captain (Tech 1)"
    assert labels["attack|thunderfoot|tuh-tusk-shaman"] == (
        "Attack with Thunderfoot (Arcane 2), boosted with Tuh-Tusk Shaman from your hand"
    )
    assert labels["play|thunderfoot|war"] == "Play Thunderfoot (Arcane 2) into your War Zone"
    assert all(is_sentence(label + ".") for label in labels.values())
    assert len(set(labels.values())) == len(labels)  # no two choices read the same


# --------------------------------------------------------------------------- views


def _hidden_swap(state: State, seat: int) -> State:
    """The same position except for what `seat` alone may know: a different hand (cards
    swapped with their deck, keeping the count) and a different deck order."""
    other = state.model_copy(deep=True)
    player, team = other.players[seat], other.team_of(seat)
    held = {other.cards[c] for c in player.hand}
    swap = [c for c in team.deck if other.cards[c] not in held][: len(player.hand)]
    assert len(swap) == len(player.hand) > 0
    for old, new in zip(list(player.hand), swap, strict=True):
        player.hand[player.hand.index(old)] = new
        team.deck[team.deck.index(new)] = old
    team.deck.reverse()
    assert_conserved(other)
    return other


def test_views_never_show_another_players_hand_or_any_deck_order():
    """The Cards: "Cards in a player's hand are kept secret from the other players"; a
    deck is face down. Changing Justin's hand and deck order changes nothing in the
    public view or Jeb's view, only in Justin's own (which shows his hand)."""
    state = battlefield("marauders")
    changed = _hidden_swap(state, JUSTIN)
    for seat in (None, JEB):
        assert GAME.view(changed, seat) == GAME.view(state, seat)
    assert GAME.view(changed, JUSTIN)["hand"] != GAME.view(state, JUSTIN)["hand"]
    # Not even a player's own deck order shows.
    shuffled = state.model_copy(deep=True)
    shuffled.teams[JEB].deck.reverse()
    for seat in (None, JEB, JUSTIN):
        assert GAME.view(shuffled, seat) == GAME.view(state, seat)
    mine = GAME.view(state, JUSTIN)
    assert [c["id"] for c in mine["hand"]] == troop_ids(state, state.players[JUSTIN].hand)
    assert GAME.view(state, None)["players"][JUSTIN]["hand_count"] == 3
    assert "hand" not in GAME.view(state, None)


# What a question may start with in capitals: a name (a player's, a card's, an ability's)
# or a step of the turn.
NAMED = tuple(
    [n for names in NAMES.values() for n in names]
    + [t.name for _, t in PACK.troops.values()]
    + [f.ability.name for f in PACK.factions]
    + [f.formation.name for f in PACK.factions]
    + ["Recharge Step"]
)


def test_view_prompts_read_as_plain_sentences():
    """Errors and prompts speak to the player (STYLE.md): the public line telling the
    table what the game waits for speaks of the players by name — no "your", no "to for"
    — and the question put to a decider is addressed to them, read after their name
    ("@Basil, your turn — ..."): it starts in lower case unless it starts with a name, and
    speaks to them ("you", "your")."""
    bad: set[str] = set()
    for game in explored():
        for state in game:
            prompt = GAME.view(state, None)["prompt"]
            words = f" {prompt} ".replace(",", " ").split()
            if not prompt[:1].isupper() or "|" in prompt or "None" in prompt:
                bad.add(prompt)
            if {"your", "you"} & set(words) or " to for " in prompt:
                bad.add(prompt)
            for seat in range(len(state.players)):
                asked = GAME.question(state, seat)
                if seat not in GAME.to_act(state):
                    assert asked is None
                    continue
                assert asked, (state.phase, seat)
                if asked[0].isupper() and not asked.startswith(NAMED):
                    bad.add(asked)
                if not {"you", "your"} & set(asked.replace(",", " ").split()):
                    bad.add(asked)
                if "|" in asked or "None" in asked or asked.endswith("."):
                    bad.add(asked)
                assert GAME.view(state, seat)["question"] == asked
    assert not bad, "\n".join(sorted(bad)[:12])


def _relabelled(state: State) -> State:
    """The same position with every card instance number changed."""
    n = len(state.cards)
    new_of = {c: (c * 7 + 3) % n for c in range(n)}  # a permutation (n = 120, gcd(7, n) = 1)
    assert sorted(new_of.values()) == list(range(n))
    data = state.model_dump()
    cards = [""] * n
    for old, new in new_of.items():
        cards[new] = state.cards[old]
    data["cards"] = cards
    for team in data["teams"]:
        for pile in ("deck", "discard", "removed", "face_down"):
            team[pile] = [new_of[c] for c in team[pile]]
    for p in data["players"]:
        p["hand"] = [new_of[c] for c in p["hand"]]
        for zone in ("command_zone", "war_zone"):
            for troop in p[zone]:
                troop["card"] = new_of[troop["card"]]
    assert not data["queue"] and not data["frames"]
    other = State.model_validate(data)
    assert_conserved(other)
    return other


def test_views_never_contain_card_instance_numbers():
    """Contract: card instance numbers never leave the engine — renumbering every card
    leaves every view exactly the same."""
    state = battlefield("quillspark-tinkerers")
    other = _relabelled(state)
    assert other.cards != state.cards
    for seat in (None, JEB, JUSTIN):
        assert GAME.view(other, seat) == GAME.view(state, seat)


# =========================================================================== The card pack


@pytest.mark.parametrize(("faction_id", "troop_id"), TROOPS, ids=[t for _, t in TROOPS])
def test_pack_every_troop_command_ability_runs_from_a_real_position(faction_id, troop_id):
    """Using Command Abilities: drain the Troop, perform its ability, then remove it unless
    a same-named Troop is discarded — for each of the 36 Troops, on a full board where
    every part of its ability finds something to act on."""
    mate = next(t.id for t in PACK.faction(faction_id).troops if t.id != troop_id)
    state = battlefield(faction_id, command=(troop_id, mate))
    source = next(
        t.card for t in state.players[JEB].command_zone if state.cards[t.card] == troop_id
    )
    ap = state.players[JEB].ap
    state, events = act(state, f"ability|{troop_id}")
    state, more = settle(state)
    events += more
    name = PACK.troops[troop_id][1].name
    assert events[0].text == f"Jeb uses {name}'s Command Ability."
    assert [e.text for e in events if e.kind == "fizzle" or "finds nothing" in e.text] == []
    assert state.phase == "action" and GAME.to_act(state) == {JEB}
    assert state.players[JEB].ap >= ap  # 0 AP
    kept = [t for t in state.players[JEB].command_zone if t.card == source]
    if any(e.kind == "keep" for e in events):  # a copy in hand was discarded: kept, drained
        assert [t.drained for t in kept] == [True]
        copy = state.teams[JEB].discard[-1]
        assert state.cards[copy] == troop_id and copy != source
    else:
        assert kept == [] and source in state.teams[JEB].removed
    assert_conserved(state)


@pytest.mark.parametrize("faction_id", FACTIONS)
def test_pack_every_formation_attack_runs_from_a_real_position(faction_id):
    """Formation Attacks: drain the Troops, deal their combined Strength plus any extra
    damage, then apply the effect — for each faction's Formation Attack."""
    state = battlefield(faction_id)
    formation = PACK.faction(faction_id).formation
    (key, *_) = [k for k in keys(state, JEB) if k.startswith("formation|")]
    strength = sum(PACK.troops[t][1].strength for t in key.split("|")[1].split(","))
    deck = len(state.teams[JUSTIN].deck)
    state, events = act(state, key)
    assert len(state.teams[JUSTIN].deck) == deck - strength - formation.bonus_damage
    state, more = settle(state)
    events += more
    assert formation.name in events[0].text
    assert [e.text for e in events if e.kind == "fizzle"] == []
    assert len(events) >= 2 + len(formation.effect)
    assert state.phase == "action" and state.players[JEB].ap == 2
    assert_conserved(state)


@pytest.mark.parametrize("faction_id", FACTIONS)
def test_pack_every_faction_ability_runs_from_a_real_position(faction_id):
    """Using Faction Abilities: drain 2 Command Zone Troops (0 AP), then resolve the
    ability — for each faction's Faction Ability."""
    state = battlefield(faction_id)
    ability = PACK.faction(faction_id).ability
    (key,) = [k for k in keys(state, JEB) if k.startswith("faction_ability|")]
    state, events = act(state, key)
    state, more = settle(state)
    events += more
    assert ability.name in events[0].text
    bad = [e.text for e in events if e.kind == "fizzle" or "finds nothing" in e.text]
    assert bad == []
    assert len(events) >= 1 + len(ability.effect)
    drained = [t.drained for t in state.players[JEB].command_zone]
    assert drained == [True, True, True]
    assert state.players[JEB].ap >= 3
    assert_conserved(state)


@pytest.mark.parametrize("faction_id", FACTIONS)
def test_pack_card_text_is_generated_for_every_card(faction_id):
    """The Cards: each Troop has a name, Strength, Troop Type and Command Ability; each
    Faction Command card a Formation Attack and a Faction Ability — the text players
    read is generated from the effect data."""
    faction = PACK.faction(faction_id)
    text = faction_text(faction)
    assert faction.formation.name in text and faction.ability.name in text
    assert all(t in text for t in faction.formation.requires)
    for op in faction.formation.effect + faction.ability.effect:
        assert op_text(op) and op_text(op) in text
    for troop in faction.troops:
        line = troop_text(troop)
        assert line.startswith("Command Ability: ")
        assert troop_label(troop) == f"{troop.name} ({troop.type} {troop.strength})"
        for op in troop.command:
            assert op_text(op).endswith(".") and op_text(op) in line


def test_pack_has_six_factions_of_six_troops_with_the_rulebook_cards():
    """The Factions / Formation Attacks: the rulebook's own cards are in the pack as
    printed — Thunderfoot (Arcane, 2), Tuh-Tusk Shaman (Arcane), Icewind Captain (Tech),
    Dread March and War Screech (Arcane, Tech)."""
    assert len(PACK.factions) == 6 and PACK.copies == 5
    assert all(len(f.troops) == 6 for f in PACK.factions)
    assert len(TROOPS) == 36
    _, thunderfoot = PACK.troops["thunderfoot"]
    assert (thunderfoot.type, thunderfoot.strength) == ("Arcane", 2)
    assert PACK.troops["tuh-tusk-shaman"][1].type == "Arcane"
    assert PACK.troops["icewind-captain"][1].type == "Tech"
    assert PACK.faction("marauders").formation.name == "Dread March"
    assert sorted(PACK.faction("marauders").formation.requires) == ["Arcane", "Tech"]
    assert PACK.faction("ostra-vulture").formation.name == "War Screech"


PACK_TEXT = BUNDLED_PACK.read_text(encoding="utf-8")
MALFORMED = {
    "strength-out-of-range": (
        ('name = "Thunderfoot"\nstrength = 2', 'name = "Thunderfoot"\nstrength = 9'),
        ["'Marauders'", "'Thunderfoot'", "strength"],
    ),
    "unknown-troop-type": (
        (
            'name = "Icewind Captain"\nstrength = 1\ntype = "Tech"',
            'name = "Icewind Captain"\nstrength = 1\ntype = "Steam"',
        ),
        ["'Marauders'", "'Icewind Captain'", "type"],
    ),
    "unknown-op": (
        ('command = [{ op = "mill", amount = 2 }]', 'command = [{ op = "explode", amount = 2 }]'),
        ["'Skitterwen Brood'", "'Tunnel Sapper'", "command", "explode"],
    ),
    "op-amount-out-of-range": (
        ('command = [{ op = "damage", amount = 2 }]', 'command = [{ op = "damage", amount = 0 }]'),
        ["'Scorchmane Riders'", "'Scorchpaw Outrider'", "command", "amount"],
    ),
    "missing-formation-field": (
        ('requires = ["Arcane", "Tech", "Tech"]\n', ""),
        ["'Scorchmane Riders'", "formation", "requires"],
    ),
    "unknown-field": (
        ('name = "Thunderfoot"\n', 'name = "Thunderfoot"\ncolour = "red"\n'),
        ["'Marauders'", "'Thunderfoot'", "colour"],
    ),
    "duplicate-troop-id": (
        ('id = "icewind-captain"', 'id = "thunderfoot"'),
        ["troop id", "'thunderfoot'", "twice"],
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_pack_a_malformed_pack_is_rejected_naming_the_card_and_field(case: str):
    """Effects are data, validated at load "with a message that names the card and the
    field" (rules/tooth_and_nail/cards.py parse_pack)."""
    (old, new), words = MALFORMED[case]
    assert PACK_TEXT.count(old) == 1
    with pytest.raises(PackError) as caught:
        parse_pack(PACK_TEXT.replace(old, new), "my-pack.toml")
    message = str(caught.value)
    assert message.startswith("my-pack.toml: ")
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize("case", [c for c in MALFORMED if c != "duplicate-troop-id"])
def test_pack_a_single_mistake_is_reported_once(case: str):
    """A pack author reads the error: one mistake gives one problem line, with no
    follow-on lines claiming a faction has 5 Troops or the pack 5 factions when both
    have 6."""
    (old, new), _ = MALFORMED[case]
    with pytest.raises(PackError) as caught:
        parse_pack(PACK_TEXT.replace(old, new), "my-pack.toml")
    message = str(caught.value)
    assert message.startswith("my-pack.toml: 1 problem(s)"), message
    assert "not 5" not in message, message


def test_pack_a_file_that_is_not_toml_is_rejected():
    """Loading a pack: a broken file is refused with the file named."""
    with pytest.raises(PackError, match=r"^my-pack\.toml: not valid TOML"):
        parse_pack(PACK_TEXT + "\n[[[", "my-pack.toml")


def test_conservation_helper_really_checks():
    """Sanity for the position builder: a copied card is caught."""
    state = drafted("2p")
    assert sorted(all_cards(state)) == list(range(len(state.cards)))
    state.players[JEB].hand.append(state.teams[JEB].deck[0])
    with pytest.raises(AssertionError):
        assert_conserved(state)


# =========================================================================== clocks and undo


def test_whose_turn_it_is_is_the_alpha_player_and_nobody_during_set_up():
    """Playing Tooth & Nail: "During a player's turn, he is referred to as the Alpha Player"
    — the faction choice happens before anyone's turn."""
    state = new_game("2p")
    assert GAME.active_seat(state) is None
    state = drafted("2p")
    assert GAME.active_seat(state) == JEB


def test_a_timed_out_action_step_ends_the_turn():
    """Ending the Turn: a player who does nothing more has their turn end."""
    state = drafted("2p")
    assert GAME.timeout_action(state, JEB).key == "end"


def test_a_timed_out_discard_of_the_opponents_choice_still_discards():
    """A decision that must be made (the opposing player discards a card of his choice)
    takes the first option offered when its clock runs out: it is out of turn."""
    state = drafted("2p")
    field(state, JEB, "command", "hoarfrost-trapper")
    set_hand(state, JUSTIN, "gizzard-seer", "tin-talon-scrapper")
    state, _ = act(state, "ability|hoarfrost-trapper")
    assert GAME.to_act(state) == {JUSTIN} and GAME.active_seat(state) == JEB
    timeout = GAME.timeout_action(state, JUSTIN)
    assert timeout.key == "discard|gizzard-seer"
    state, events = act(state, timeout.key, JUSTIN)
    assert any(e.text == "Justin discards Gizzard Seer." for e in events)


def test_events_that_show_hidden_cards_are_marked_as_revealing():
    """Cards in hand are secret and a deck's order unknown: a draw or damage shows cards,
    so an undo could not hide them again; playing a Troop from hand shows nothing new."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "icewind-captain")
    field(state, JEB, "command", "icewind-captain")
    state, events = act(state, "ability|icewind-captain")  # drains a Troop, gains an AP
    state, more = act(state, "keep|no")
    assert not any(e.reveals for e in events + more)
    state, events = act(state, "play|thunderfoot|war")  # shows a card from hand
    assert [e.reveals for e in events] == [True]
    state, events = act(state, "attack|thunderfoot|none")
    assert any(e.kind == "damage" and e.reveals for e in events)
    state, events = act(state, "end")
    assert any(e.kind == "draw" and e.reveals for e in events)


def test_project_cards_carry_the_mark_wherever_players_see_them():
    """Players tell the project's own Troops and factions from the ones the rulebook
    names: a ✦ after the name in hands, zones, discard piles and faction lists."""
    pack = bundled_pack()
    state = battlefield("marauders")
    seat = state.alpha
    assert seat is not None
    view = GAME.view(state, seat)
    troops = {t.name: t for f in pack.factions for t in f.troops}
    factions = {f.name: f for f in pack.factions}
    shown = [c["name"] for c in view["hand"]]
    for player in view["players"]:
        shown += [t["name"] for t in player["command_zone"] + player["war_zone"]]
    shown += [name for team in view["teams"] for name in team["discard"]]
    assert any(n.endswith(" ✦") for n in shown) and any(not n.endswith(" ✦") for n in shown)
    for name in shown:
        assert name.endswith(" ✦") == (troops[name.removesuffix(" ✦")].source == "project")
    named = [name for p in view["players"] for name in p["factions"]]
    for name in named:
        assert name.endswith(" ✦") == (factions[name.removesuffix(" ✦")].source == "project")
