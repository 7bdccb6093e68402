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

from collections import Counter

import pytest

from rules.core import Action, IllegalAction
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.cards import bundled_pack
from tests.rules.tn_helpers import (
    BRITT,
    JACKIE,
    JEB,
    JOHN,
    JUSTIN,
    PLAYERS,
    SCOUT,
    act,
    assert_conserved,
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
