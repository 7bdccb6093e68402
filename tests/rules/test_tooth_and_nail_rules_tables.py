"""Tooth & Nail: Factions, rule by rule: ending the game, the 3-player and 4-player
games (Alliance and teams), and abilities against the rules (the set-up and the turn
are `test_tooth_and_nail_rules.py`'s, whose helpers these use).

Jeb is always seat 0 and the start player; Justin is seat 1 (Scout is seat 2 in the
3 player game; Britt, John and Jackie are seats 1, 2 and 3 in the 4 player game).
"""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, rng_for
from rules.tooth_and_nail import GAME, State
from tests.rules.test_tooth_and_nail_rules import is_sentence, refused
from tests.rules.tn_helpers import (
    BRITT,
    JACKIE,
    JEB,
    JOHN,
    JUSTIN,
    NAMES,
    SCOUT,
    act,
    assert_conserved,
    drafted,
    field,
    keys,
    new_game,
    play,
    set_hand,
    settle,
    trim_deck,
    troop_ids,
)

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
