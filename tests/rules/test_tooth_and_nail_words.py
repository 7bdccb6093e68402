"""Tooth & Nail: what players read — labels, explanations, questions, the public prompt,
refusals and the end of the game — and the decisions that need no question.

A newcomer must tell from the words alone what each choice does and what the game asks
of them; a refusal names the card and the rule it breaks. Positions are real games
arranged by moving cards (see tn_helpers); Jeb (seat 0, Marauders in 2 players) is the
start player, Justin (seat 1, Ostra Vulture) the other.
"""

from __future__ import annotations

import random

import pytest

from rules.core import Action, IllegalAction
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.cards import bundled_pack
from rules.tooth_and_nail.labels import EXPLAIN_LIMIT
from tests.rules.test_tooth_and_nail_contract import explored
from tests.rules.test_tooth_and_nail_rules import FACTIONS, is_sentence, refused
from tests.rules.tn_helpers import (
    BRITT,
    JACKIE,
    JEB,
    JOHN,
    JUSTIN,
    SCOUT,
    act,
    drafted,
    field,
    keys,
    new_game,
    play,
    set_hand,
    trim_deck,
)

PACK = bundled_pack()


def label(state: State, key: str) -> str:
    return GAME.describe(Action.from_key(key), state)


def explained(state: State, key: str, seat: int | None = None) -> str:
    return GAME.explain(Action.from_key(key), state, seat)


# =========================================================================== the contract


def test_contract_every_candidate_is_legal_or_refused_with_a_sentence_and_has_a_label():
    """Contract: `candidates` is a superset of the legal actions, and every other candidate
    is refused by `apply` with a sentence for the player; `describe` labels every one."""
    refusals = 0
    for game in explored():
        for state in game[::4]:
            for seat in range(len(state.players)):
                legal = GAME.legal_actions(state, seat)
                tried = GAME.candidates(state, seat)
                assert set(legal) <= set(tried)
                for action in tried:
                    text = GAME.describe(action, state)
                    assert text and "|" not in text and text[0].isupper(), action.key
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction) as caught:
                        GAME.apply(state, seat, action, random.Random(0))
                    assert is_sentence(caught.value.message), (action.key, caught.value.message)
                    refusals += 1
    assert refusals > 1000


def test_contract_every_legal_action_explains_itself_within_a_menu_description():
    """Contract: `explain` says what a legal action costs and leads to, in the 100
    characters a select option's description holds; never empty."""
    for game in explored():
        for state in game:
            for seat in GAME.to_act(state):
                for action in GAME.legal_actions(state, seat):
                    text = GAME.explain(action, state, seat)
                    assert 0 < len(text) <= EXPLAIN_LIMIT, (action.key, text)
                    assert text == GAME.explain(action, state)  # the decider by default


def test_contract_no_two_legal_actions_of_a_seat_share_a_label():
    """Contract: `describe` is "never the same for two legal actions of one seat"."""
    for game in explored():
        for state in game:
            for seat in GAME.to_act(state):
                labels = [GAME.describe(a, state) for a in GAME.legal_actions(state, seat)]
                assert len(labels) == len(set(labels)), labels


# =========================================================================== labels


def test_labels_name_each_troop_with_its_troop_type_and_strength():
    """The Cards: a Troop's Strength and Troop Type matter to every attack and Boost; the
    menus name them the way the board does: "Thunderfoot (Arcane 2)"."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "tuh-tusk-shaman")
    field(state, JEB, "war", "thunderfoot")
    assert label(state, "play|tuh-tusk-shaman|command") == (
        "Play Tuh-Tusk Shaman (Arcane 1) into your Command Zone"
    )
    assert label(state, "attack|thunderfoot|none") == "Attack with Thunderfoot (Arcane 2)"
    assert label(state, "attack|thunderfoot|tuh-tusk-shaman") == (
        "Attack with Thunderfoot (Arcane 2), boosted with Tuh-Tusk Shaman from your hand"
    )
    assert label(state, "end") == "End your turn"


def test_troops_used_together_name_copies_once_with_their_count():
    """A Faction Ability drains 2 Command Zone Troops and a Formation Attack needs several
    War Zone Troops: copies of one Troop are alike, so the menu and the table name them
    once, counted ("both Pyre-Mane Chanters"), never "X and X"."""
    state = drafted("2p", picks=["ostra-vulture", "scorchmane-riders"])
    set_hand(state, JEB)
    for _ in range(2):
        field(state, JEB, "command", "pyre-mane-chanter")
        field(state, JEB, "war", "emberhide-bruiser")
    field(state, JEB, "war", "cinder-cub")
    drain = "faction_ability|pyre-mane-chanter|pyre-mane-chanter"
    assert label(state, drain) == (
        "Use Stoke the Blaze (Faction Ability), draining both Pyre-Mane Chanters"
    )
    rush = "formation|cinder-cub,emberhide-bruiser,emberhide-bruiser"
    assert label(state, rush) == (
        "Formation Attack Wildfire Rush with Cinder Cub (Arcane 1) and two Emberhide "
        "Bruisers (Tech 3)"
    )
    _, drained = act(state, drain)
    assert drained[0].text == "Jeb drains both Pyre-Mane Chanters to use Stoke the Blaze."
    _, launched = act(state, rush)
    assert launched[0].text == (
        "Jeb launches Wildfire Rush at Justin with Cinder Cub and two Emberhide Bruisers."
    )


def test_labels_of_3_players_name_the_opponent_attacked():
    """Standard 3 Player Game: the Alpha player attacks the opponent of his choice."""
    state = drafted("3p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    assert label(state, "attack|thunderfoot|none|2") == "Attack Scout with Thunderfoot (Arcane 2)"


# =========================================================================== explanations


def test_explain_says_what_playing_attacking_and_ending_cost_and_lead_to():
    """Action Step: playing a Troop and attacking cost 1 AP, abilities 0 AP; an attack
    moves cards off the opposing deck, a Boost card leaves the game."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot", "tuh-tusk-shaman")
    field(state, JEB, "war", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    deck = len(state.teams[JUSTIN].deck)
    assert explained(state, "play|thunderfoot|war") == (
        "1 AP · War Zone 2/6 · it can attack for 2 damage (1 AP more)"
    )
    assert explained(state, "play|thunderfoot|command").startswith("1 AP · Command Zone 2/3 · ")
    assert explained(state, "attack|thunderfoot|none") == (
        f"1 AP · drains it · 2 damage to Justin's deck ({deck} → {deck - 2})"
    )
    assert explained(state, "attack|thunderfoot|tuh-tusk-shaman") == (
        f"1 AP · 3 damage to Justin's deck ({deck} → {deck - 3}) · "
        "Tuh-Tusk Shaman leaves your hand for the game"
    )
    assert explained(state, "ability|icewind-captain") == (
        "0 AP · drain an opposing Troop, +1 AP · then it leaves the game"
    )
    assert explained(state, "end") == "returns your 3 unused AP · Justin's turn next"


def test_explain_warns_when_an_attack_empties_the_deck():
    """Ending the Game: the game ends at once when a deck runs out — the menu says so."""
    state = drafted("2p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    trim_deck(state, JUSTIN, 2)
    assert explained(state, "attack|thunderfoot|none") == (
        "1 AP · drains it · 2 damage to Justin's deck (2 left): it runs out and you win"
    )


def test_explain_of_a_faction_gives_its_identity_and_its_command_card():
    """Set Up: a player picks a Faction deck and its Faction Command card."""
    state = new_game("2p")
    assert explained(state, "faction|marauders") == (
        "frost control: drain, bounce and finish off Troops · Dread March (Arcane + Tech) · "
        "Spreading Chill"
    )


def test_explain_of_a_faction_shortened_keeps_its_identity_and_both_names():
    """The draft's menu says what each Faction is and names its Formation Attack and its
    Faction Ability; when all of it doesn't fit the 100 characters, the Formation
    Attack's Troop Types give way (the draft above the menu lists them), never a name."""
    state = new_game("2p")
    for faction in PACK.factions:
        text = explained(state, f"faction|{faction.id}")
        assert len(text) <= EXPLAIN_LIMIT, text
        assert text.startswith(f"{faction.identity} · {faction.formation.name}"), text
        assert text.endswith(f" · {faction.ability.name}"), text
    assert explained(state, "faction|scorchmane-riders") == (
        "aggression: direct damage and extra Action Points · Wildfire Rush · Stoke the Blaze"
    )


# =========================================================================== questions


def test_the_question_of_the_action_step_says_the_ap_left_and_what_can_be_done():
    """Action Step: the Alpha player may play Troops, use abilities and attack, limited
    by his Action Points; the question says so, addressed to him."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot")
    assert GAME.question(state, JEB) == (
        "your turn — Action Step, 3 AP left: play Troops or end your turn"
    )
    assert GAME.question(state, JUSTIN) is None
    field(state, JEB, "war", "icewind-captain")
    field(state, JEB, "command", "red-claw-elder")
    assert GAME.question(state, JEB) == (
        "your turn — Action Step, 3 AP left: play Troops, use abilities, attack or end your turn"
    )


def test_the_question_of_the_recharge_step_counts_the_command_zone_troops():
    """Recharge Step: one draw-or-AP choice per Command Zone Troop (Scout's example)."""
    state = play(drafted("2p"), "end")
    for troop_id in ("thunderfoot", "tuh-tusk-shaman"):
        field(state, JEB, "command", troop_id)
    state = play(state, "end")
    deck = len(state.teams[JEB].deck)
    assert GAME.question(state, JEB) == (
        "Recharge Step: draw a card or gain 1 AP, for Command Zone Troop 1 of 2 "
        f"(you hold 1 AP; your deck has {deck} cards)"
    )
    assert GAME.view(state, None)["prompt"] == (
        "Jeb's turn — Recharge Step: waiting for Jeb to draw a card or gain 1 AP "
        "(Command Zone Troop 1 of 2)"
    )
    state = play(state, "recharge|ap")
    assert "Command Zone Troop 2 of 2" in GAME.question(state, JEB)


def test_the_draft_question_says_which_pick_it_is():
    """Set Up: the other player chooses first, then the start player; in Alliance two
    Factions each; in The Enemy of My Enemy either teammate picks for the team."""
    state = new_game("2p")
    assert (
        GAME.question(state, JUSTIN) == "choose your Faction (draft pick 1 of 2, 6 Factions left)"
    )
    assert (
        GAME.view(state, None)["prompt"]
        == "Waiting for Justin to choose a Faction (draft pick 1 of 2)"
    )
    state = play(new_game("alliance"), "faction|marauders", "faction|ostra-vulture")
    assert GAME.question(state, JUSTIN) == (
        "choose your second Faction of 2 (draft pick 3 of 4, 4 Factions left)"
    )
    state = new_game("4p")
    assert GAME.question(state, JACKIE) == (
        "choose your team's first Faction of 3 — you or Britt may answer "
        "(draft pick 1 of 6, 6 Factions left)"
    )
    assert GAME.view(state, None)["prompt"] == (
        "Waiting for Britt or Jackie to choose a Faction for their team (draft pick 1 of 6)"
    )


def test_the_question_of_a_discard_names_who_made_it_and_how_many_cards():
    """The opposing player discards cards of his choice: the question says whose ability
    asks and how many cards are left to discard."""
    state = drafted("2p")
    field(state, JEB, "command", "hoarfrost-trapper")
    set_hand(state, JUSTIN, "gizzard-seer", "tin-talon-scrapper")
    state, _ = act(state, "ability|hoarfrost-trapper")
    assert GAME.to_act(state) == {JUSTIN}
    assert GAME.question(state, JUSTIN) == (
        "Jeb used Hoarfrost Trapper's Command Ability: discard 1 card of your choice from your hand"
    )
    assert GAME.view(state, None)["prompt"] == (
        "Jeb's turn — waiting for Justin to discard 1 card of their choice "
        "(Hoarfrost Trapper's Command Ability)"
    )
    assert GAME.question(state, JEB) is None


def test_the_public_prompt_of_the_action_step_names_the_alpha_player_and_the_ap():
    """Playing Tooth & Nail: "During a player's turn, he is referred to as the Alpha
    Player"; the table reads whose turn it is and what is left of it."""
    state = drafted("2p")
    assert GAME.view(state, None)["prompt"] == "Jeb's turn — Action Step, 3 AP left"


# =========================================================================== refusals


def _arranged(kind: str) -> State:
    state = drafted("3p" if kind == "3p" else "2p")
    set_hand(state, JEB)
    return state


REFUSALS = [
    (
        "drained attacker",
        [("war", "thunderfoot", True)],
        [],
        "attack|thunderfoot|none",
        "drained",
        "Thunderfoot is drained: it can't attack until it is recharged (your Recharge Step "
        "recharges one War Zone Troop).",
    ),
    (
        "attacker in the Command Zone",
        [("command", "thunderfoot", False)],
        [],
        "attack|thunderfoot|none",
        "no-troop",
        "Thunderfoot is not in your War Zone (it is in your Command Zone): only War Zone "
        "Troops attack.",
    ),
    (
        "attacker still in the hand",
        [],
        ["thunderfoot"],
        "attack|thunderfoot|none",
        "no-troop",
        "Thunderfoot is not in your War Zone (it is in your hand): only War Zone Troops attack.",
    ),
    (
        "attacker still in the hand, boosted",
        [],
        ["thunderfoot", "tuh-tusk-shaman"],
        "attack|thunderfoot|tuh-tusk-shaman",
        "no-troop",
        "Thunderfoot is not in your War Zone (it is in your hand): only War Zone Troops attack.",
    ),
    (
        "attacker not in play",
        [],
        [],
        "attack|thunderfoot|none",
        "no-troop",
        "Thunderfoot is not in your War Zone: only War Zone Troops attack.",
    ),
    (
        "full Command Zone",
        [("command", t, False) for t in ("tuh-tusk-shaman", "icewind-captain", "red-claw-elder")],
        ["thunderfoot"],
        "play|thunderfoot|command",
        "zone-full",
        "Your Command Zone holds at most 3 Troops.",
    ),
    (
        "card not in hand",
        [],
        [],
        "play|thunderfoot|war",
        "not-in-hand",
        "Thunderfoot isn't in your hand.",
    ),
    (
        "ability of a War Zone Troop",
        [("war", "icewind-captain", False)],
        [],
        "ability|icewind-captain",
        "no-troop",
        "Icewind Captain is in your War Zone, where its Command Ability is ignored: only "
        "Troops in your Command Zone use theirs.",
    ),
    (
        "ability of a Troop not in play",
        [],
        [],
        "ability|red-claw-elder",
        "no-troop",
        "Red Claw Elder is not in your Command Zone.",
    ),
    (
        "Boost of the wrong Troop Type",
        [("war", "thunderfoot", False)],
        ["icewind-captain"],
        "attack|thunderfoot|icewind-captain",
        "boost",
        "Icewind Captain is a Tech card: only an Arcane card from your hand can Boost "
        "Thunderfoot's attack.",
    ),
    (
        "Boost with a card not in hand",
        [("war", "thunderfoot", False)],
        [],
        "attack|thunderfoot|tuh-tusk-shaman",
        "boost",
        "Tuh-Tusk Shaman isn't in your hand to Boost with.",
    ),
    (
        "Faction Ability with a drained Troop",
        [("command", "thunderfoot", False), ("command", "icewind-captain", True)],
        [],
        "faction_ability|icewind-captain|thunderfoot",
        "drain-two",
        "Icewind Captain is drained: a Faction Ability drains 2 non-drained Troops in your "
        "Command Zone.",
    ),
    (
        "Formation Attack with a Troop not in the War Zone",
        [("war", "thunderfoot", False), ("command", "icewind-captain", False)],
        [],
        "formation|icewind-captain,thunderfoot",
        "formation",
        "Icewind Captain is not in your War Zone (it is in your Command Zone): only War Zone "
        "Troops attack.",
    ),
]


@pytest.mark.parametrize(
    ("troops", "hand", "key", "code", "message"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_a_refusal_names_the_card_and_the_rule_it_breaks(troops, hand, key, code, message):
    """Action Step rules, each refused with the rule and the card it is about (a Troop
    must be non-drained and in the right zone; zones have limits; a Boost matches the
    attacker's Troop Type; a Faction Ability drains 2 Command Zone Troops; a Formation
    Attack uses War Zone Troops) — and each such attempt is among the candidates, so
    typed text naming it gets this answer."""
    state = _arranged("2p")
    set_hand(state, JEB, *hand)
    for zone, troop_id, drained in troops:
        field(state, JEB, zone, troop_id, drained=drained)
    assert Action.from_key(key) in GAME.candidates(state, JEB)
    error = refused(state, key, JEB)
    assert (error.code, error.message) == (code, message)


def test_a_refusal_out_of_turn_names_whom_the_game_waits_for():
    """Important Things to Remember: "only the Alpha player may perform actions"."""
    state = drafted("2p")
    assert Action(kind="end") in GAME.candidates(state, JUSTIN)
    error = refused(state, "end", JUSTIN)
    assert error.message == "It isn't your decision: the game waits for Jeb."


def test_a_refusal_while_a_choice_is_open_says_which_choice_comes_first():
    """Command Abilities are performed one at a time: the open choice comes first."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot")
    field(state, JEB, "command", "red-claw-elder")
    state, _ = act(state, "ability|red-claw-elder")
    assert GAME.to_act(state) == {JEB}
    assert refused(state, "end").message == (
        "Not now: first decide whether to keep Red Claw Elder."
    )
    error = refused(state, "keep|yes")
    assert (error.code, error.message) == (
        "no-copy",
        "You hold no other Red Claw Elder to discard, so it leaves the game.",
    )


def test_a_refusal_of_a_3_player_attack_names_the_target_problem():
    """Standard 3 Player Game: an attack hits an opponent still in the game."""
    state = _arranged("3p")
    field(state, JEB, "war", "thunderfoot")
    assert refused(state, "attack|thunderfoot|none|0").message == "You can't attack your own deck."


def test_a_refusal_in_the_draft_names_the_faction_taken():
    """Set Up: a Faction deck that has been taken is no longer there to take."""
    state = play(new_game("2p"), "faction|marauders")
    error = refused(state, "faction|marauders", JEB)
    assert (error.code, error.message) == (
        "faction-taken",
        "The Marauders faction is already taken.",
    )


def test_a_refusal_of_a_teammates_faction_command_card_names_the_teammate():
    """The Enemy of My Enemy: each player selects a different Faction Command card from
    the team's three."""
    state = new_game("4p")
    for faction in FACTIONS[:5]:
        state, _ = act(state, f"faction|{faction}", min(GAME.to_act(state)))
    taken = keys(state, JEB)[0].split("|")[1]
    state = play(state, f"command_card|{taken}")
    state = play(state, keys(state, BRITT)[0])
    assert GAME.to_act(state) == {JOHN}
    error = refused(state, f"command_card|{taken}", JOHN)
    assert error.message.startswith("Jeb already uses the ")


# =========================================================================== no question needed


def test_a_troop_effect_with_one_troop_to_pick_picks_it_and_tells_the_table():
    """Using Command Abilities: with a single Troop the ability can act on there is no
    choice to make; the table reads which Troop it took and why."""
    state = drafted("2p")
    set_hand(state, JEB)
    field(state, JEB, "command", "red-claw-elder")
    field(state, JEB, "war", "thunderfoot")  # keeps the turn open
    field(state, JUSTIN, "war", "gizzard-seer", drained=True)
    state, events = act(state, "ability|red-claw-elder")
    texts = [e.text for e in events]
    assert "Red Claw Elder's Command Ability has one Troop it can pick: Justin's Gizzard Seer." in (
        texts
    )
    assert "Justin's Gizzard Seer is destroyed." in texts


def test_an_opponent_holding_no_cards_is_passed_over_and_the_table_is_told():
    """The Enemy of My Enemy: an effect on an opposing player hits the one of the actor's
    choice; when only one of them holds a card to discard, that is no choice."""
    state = drafted("4p")
    field(state, JEB, "command", "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    set_hand(state, BRITT)
    set_hand(state, JACKIE, "mudback-sage", "lichen-tender")
    state, events = act(state, "faction_ability|icewind-captain|thunderfoot")
    assert "Spreading Chill hits Jackie, the only opponent holding cards." in [
        e.text for e in events
    ]
    assert len(state.players[JACKIE].hand) == 1 and GAME.to_act(state) == {JEB}


def test_a_faction_command_card_left_alone_is_set_without_a_question():
    """Faction Command cards: a player left with a single card to set has no choice to
    make (here arranged: John's own Factions leave him one card once Jeb has taken his)."""
    state = new_game("4p")
    for faction in FACTIONS[:5]:
        state, _ = act(state, f"faction|{faction}", min(GAME.to_act(state)))
    team = state.teams[state.players[JEB].team].factions
    state.players[JOHN].factions = team[:2]
    state = play(state, f"command_card|{team[0]}")
    state, events = act(state, keys(state, BRITT)[0])
    assert GAME.to_act(state) == {JACKIE}
    assert events[-1].text == (
        f"John sets the {PACK.faction(team[1]).name} Faction Command card, "
        "the only one left to them."
    )
    assert state.players[JOHN].command_card == team[1]


def test_a_choice_that_would_tell_the_table_about_a_hand_is_still_asked():
    """The Cards: hands are secret. Keeping a used Troop is asked whenever the hand holds
    a card, even with no copy to discard: skipping the question would show the table
    that the hand holds none."""
    state = drafted("2p")
    set_hand(state, JEB, "thunderfoot")
    field(state, JEB, "command", "icewind-captain")
    state, _ = act(state, "ability|icewind-captain")
    assert keys(state, JEB) == ["keep|no"]
    assert GAME.question(state, JEB) == (
        "you hold no other Icewind Captain, so it leaves the game: confirm (asked either "
        "way, so the table can't tell what your hand holds)"
    )
    assert GAME.view(state, None)["prompt"] == (
        "Jeb's turn — waiting for Jeb to decide whether to keep Icewind Captain"
    )


# =========================================================================== the end


def test_the_outcome_tells_who_lost_why_and_who_won_in_2_players():
    """Ending the Game: the player with no cards left in his deck loses; conceding loses
    too."""
    state = drafted("2p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    trim_deck(state, JUSTIN, 2)
    state, _ = act(state, "attack|thunderfoot|none")
    assert GAME.outcome(state).text == "Justin's deck is empty: Jeb wins."
    assert GAME.view(state, None)["prompt"] == "Justin's deck is empty: Jeb wins."
    conceded, events = GAME.concede(drafted("2p"), JUSTIN, random.Random(0))
    assert [e.text for e in events] == ["Justin concedes: Jeb wins."]
    assert GAME.outcome(conceded).text == "Justin concedes: Jeb wins."


def test_the_outcome_of_3_players_names_the_last_player_standing():
    """Standard 3 Player Game: a player who concedes is out and the others play on; the
    game ends when 2 decks are empty, and the remaining player wins."""
    state = drafted("3p")
    state, events = GAME.concede(state, SCOUT, random.Random(0))
    assert events[0].text == "Scout concedes: Jeb and Justin play on."
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    trim_deck(state, JUSTIN, 2)
    state, _ = act(state, "attack|thunderfoot|none|1")
    assert GAME.outcome(state).text == "Justin's deck is empty: Jeb wins, the last player standing."


def test_the_outcome_of_4_players_names_both_teams():
    """The Enemy of My Enemy: "The game ends immediately when a team has 0 cards
    remaining in its deck. That team loses the game." """
    state = drafted("4p")
    set_hand(state, JEB)
    field(state, JEB, "war", "thunderfoot")
    trim_deck(state, 1, 2)
    state, _ = act(state, "attack|thunderfoot|none")
    assert GAME.outcome(state).text == (
        "The shared deck of Britt and Jackie is empty: Jeb and John win."
    )
    conceded, _ = GAME.concede(drafted("4p"), JOHN, random.Random(0))
    assert GAME.outcome(conceded).text == "John concedes for their team: Britt and Jackie win."


# =========================================================================== views


def test_the_view_states_the_end_condition_and_marks_low_decks():
    """Object of the Game: getting the other deck to zero wins; the board says so once and
    marks a deck close to running out."""
    state = drafted("2p")
    trim_deck(state, JUSTIN, 5)
    public = GAME.view(state, None)
    assert public["goal"] == "a deck that runs out loses"
    assert [t["low"] for t in public["teams"]] == [False, True]
    assert GAME.view(drafted("4p"), None)["goal"] == "a team whose shared deck runs out loses"
