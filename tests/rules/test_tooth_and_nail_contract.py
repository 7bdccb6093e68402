"""Tooth & Nail: Factions: the game contract over explored positions (every action's
kind, views, what players read), the card pack and its errors, and the clocks and
undo (the rules themselves are `test_tooth_and_nail_rules.py`'s).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.core.packs import PackError
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.cards import BUNDLED_PACK, bundled_pack, parse_pack
from rules.tooth_and_nail.text import faction_text, op_text, troop_label, troop_text
from tests.rules.test_tooth_and_nail_rules import FACTIONS, PACK, TROOPS, is_sentence, refused
from tests.rules.tn_helpers import (
    JEB,
    JUSTIN,
    NAMES,
    PLAYERS,
    act,
    all_cards,
    assert_conserved,
    battlefield,
    drafted,
    field,
    give,
    keys,
    new_game,
    set_hand,
    settle,
    troop_ids,
)

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
