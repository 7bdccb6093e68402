"""Mystic Vale (Nemesis), rule by rule.

One test per rule of the Nemesis rulebook (/work/shared/rulebooks/mystic-vale-nemesis.txt)
and of the base-game facts it assumes (/work/shared/rulebooks/mystic-vale-base-notes.md,
with their suggested defaults where they are [uncertain]), named after it, the rule's
gist in the docstring. The rulebook's examples (the rituals, the eclipse) are played as
written, and every card of its "Card Clarifications" is a card of the bundled pack doing
what its clarification says. Positions are real games arranged by moving cards through
the state models (see mv_helpers), so every card, instance and token stays in one place.

Ada is seat 0 and the first player; Basil is seat 1 (Cleo 2, Dov 3).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.mystic_vale import GAME, State
from rules.mystic_vale.cards import get_pack
from rules.mystic_vale.commons import offered, refill
from rules.mystic_vale.scoring import finish_game, score
from rules.mystic_vale.state import Harvest
from rules.mystic_vale.symbols import advancement_of, decay_count, shown
from tests.rules.mv_helpers import (
    ADA,
    BASIL,
    CLEO,
    DOV,
    NAMES,
    PLAYERS,
    act,
    arrange,
    assert_conserved,
    cards_of,
    choose,
    frame_kind,
    fund,
    give,
    give_vale,
    harvesting,
    in_row,
    keys,
    kind_of,
    leader_card,
    made,
    new_game,
    on_top,
    one,
    pick,
    play,
    pool_to,
    put,
    reserve,
    seed_with_first,
    settle,
    upgraded_aside,
)

PACK = get_pack(GAME.default_pack or "nemesis")


def refused(state: State, key: str, seat: int | None = None) -> IllegalAction:
    """Apply an action that must be refused; check the refusal changed nothing and that
    the action is not offered either. Returns the refusal."""
    before = state.model_dump_json()
    who = seat if seat is not None else min(GAME.to_act(state) or {0})
    with pytest.raises(IllegalAction) as caught:
        act(state, key, who)
    assert state.model_dump_json() == before
    if who in GAME.to_act(state):
        assert key not in keys(state, who)
    return caught.value


def blanks(state: State, seat: int, n: int, *, avoid: tuple = ()) -> list[int]:
    return pick(state, seat, "blank", n, avoid=avoid)


def cursed(state: State, seat: int, slot: str) -> list[int]:
    """The seat's three cards with a Cursed Land printed in this slot."""
    return pick(state, seat, f"cursed:{slot}", 3)


def bare(state: State, seat: int, *field: int) -> None:
    """The seat's field is exactly these cards, a blank card on deck, blanks under it."""
    rest = blanks(state, seat, 3, avoid=field)
    arrange(state, seat, field=list(field), on_deck=rest[0], deck_top=rest[1:])


def buying(state: State, *field: int, **funds: int) -> State:
    """Ada harvests with exactly this field (and a blank on deck), then gets `funds`."""
    bare(state, ADA, *field)
    state = harvesting(state)
    assert state.phase == "harvest" and not state.frames
    if funds:
        fund(state, **funds)
    return state


def harvest_of(state: State) -> Harvest:
    """The Harvest under way."""
    assert state.harvest is not None
    return state.harvest


def events_text(events: list) -> str:
    return " | ".join(e.text for e in events)


def to_turn_of(state: State, seat: int) -> State:
    """End turns (stop, buy nothing, answer what asks with its first option) until `seat`
    is in their Planting Phase."""
    for _ in range(12):
        state = settle(state)
        if state.phase == "planting" and state.active == seat:
            return state
        if state.phase == "planting":
            state = play(state, "stop")
        elif state.phase == "harvest":
            state = play(state, "done")
    raise AssertionError(f"seat {seat} never got a turn")


# =========================================================================== Set-up


@pytest.mark.parametrize(("variant", "count"), [("2p", 12), ("3p", 15), ("4p", 18)])
def test_set_up_the_level_1_deck_is_counted_out_by_player_count_the_rest_boxed(variant, count):
    """Set-up (notes 2.2): 12 / 15 / 18 level-1 advancements for 2 / 3 / 4 players make
    the level-1 deck (its row included); the rest of the 33 go back in the box."""
    state = new_game(variant)
    commons = state.commons
    in_play = commons.decks[1] + [i for i in commons.rows[1] if i is not None]
    assert len(in_play) == count
    assert all(advancement_of(state, i).level == 1 for i in in_play)
    assert not any(advancement_of(state, i).fertile_soil for i in in_play)
    boxed = [i for i in state.boxed if advancement_of(state, i).level == 1]
    assert len(boxed) == 33 - count


def test_set_up_the_whole_level_2_deck_and_level_3_with_level_4_shuffled_in():
    """Set-up (notes 2.2; rulebook, "Level 4 Advancements"): all 36 level-2 advancements
    form the level-2 deck; the 27 level-3 ones and the 12 level-4 ones are shuffled
    together into the level-3 deck."""
    state = new_game("2p")
    commons = state.commons

    def level(instance: int) -> int:
        return advancement_of(state, instance).level

    two = commons.decks[2] + [i for i in commons.rows[2] if i is not None]
    assert len(two) == 36 and {level(i) for i in two} == {2}
    three = commons.decks[3] + [i for i in commons.rows[3] if i is not None] + commons.level4
    three += [i for i in state.boxed if level(i) == 3]  # Avatar, boxed in a 2p game
    assert Counter(level(i) for i in three) == {3: 27, 4: 12}
    assert 4 in {level(i) for i in commons.decks[3]}  # shuffled in, not set apart
    assert commons.decks[1] and {level(i) for i in commons.decks[1]} == {1}


def test_set_up_three_face_up_per_row_and_a_level_4_revealed_moves_to_the_level_4_row():
    """Set-up (notes 2.2) and "Level 4 Advancements": three advancements face up per
    level; a level-4 card revealed for the level-3 row moves to its own level-4 row and
    the level-3 row goes on filling."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(2)]
    for seed in range(8):
        state = GAME.setup("2p", seats, {}, seed)
        for lv in (1, 2, 3):
            row = state.commons.rows[lv]
            assert len(row) == 3 and None not in row
            assert {advancement_of(state, i).level for i in row} == {lv}  # type: ignore[arg-type]
        assert all(advancement_of(state, i).level == 4 for i in state.commons.level4)
        if state.commons.level4:
            break
    else:
        raise AssertionError("no set-up revealed a level-4 card")
    # and on a later refill: a level-4 card on top of the level-3 deck, a level 3 under it
    three = on_top(state, "Scout")
    four = on_top(state, "Executioner")
    state.boxed.append(state.commons.rows[3][1])  # type: ignore[arg-type]
    state.commons.rows[3][1] = None
    refill(state)
    assert state.commons.rows[3][1] == three
    assert four in state.commons.level4


def test_set_up_eighteen_fertile_soils_apart_six_per_slot():
    """Set-up (notes 1.7, 2.2): the 18 Fertile Soil advancements are a face-up supply of
    their own, beside the level decks (6 for each slot)."""
    state = new_game()
    soils = state.commons.fertile
    assert len(soils) == 18
    assert Counter(advancement_of(state, i).slot for i in soils) == {
        "top": 6,
        "middle": 6,
        "bottom": 6,
    }
    decks = [i for d in state.commons.decks.values() for i in d]
    assert not any(advancement_of(state, i).fertile_soil for i in decks + state.boxed)


def test_set_up_four_vales_face_up_per_level():
    """Set-up (notes 2.3): the level-1 and level-2 vale decks are shuffled apart and four
    of each turned face up."""
    state = new_game()
    for lv in (1, 2):
        row = state.commons.vale_rows[lv]
        assert len(row) == 4 and None not in row
        in_deck = state.commons.vale_decks[lv]
        assert len(in_deck) == 14
        assert {PACK.vale(state.cards[i]).level for i in [*row, *in_deck]} == {lv}  # type: ignore[list-item]


@pytest.mark.parametrize(("variant", "pool"), [("2p", 23), ("3p", 28), ("4p", 33)])
def test_set_up_the_vp_pool_holds_23_28_or_33_tokens(variant, pool):
    """Set-up (notes 2.4): 23 / 28 / 33 VP tokens in the pool for 2 / 3 / 4 players."""
    state = new_game(variant)
    assert state.pool == state.pool_start == pool


def test_set_up_each_player_has_twenty_cards_8_blank_9_cursed_land_3_fertile_soil():
    """Set-up (notes 1.4-1.6): 20 starting cards each, 8 blank, 9 with a Cursed Land
    printed (3 in each slot), 3 with a Fertile Soil printed (one per slot)."""
    state = new_game("4p")
    for player in state.players:
        kinds = Counter(kind_of(state, c) for c in cards_of(state, player.seat))
        assert kinds == {
            "blank": 8,
            "cursed:top": 3,
            "cursed:middle": 3,
            "cursed:bottom": 3,
            "fertile:top": 1,
            "fertile:middle": 1,
            "fertile:bottom": 1,
        }
    assert_conserved(state)


def test_set_up_every_mana_token_starts_inactive():
    """Set-up (notes 2.5): each player's mana token starts on its inactive side."""
    state = new_game("3p")
    assert not any(p.mana_token for p in state.players)


def test_set_up_each_player_shuffles_their_twenty_cards():
    """Set-up (notes 2.1): each player shuffles their deck; no two deals lay the cards
    out in the same order."""
    orders = []
    for seed in range(4):
        state = GAME.setup(
            "2p", [SeatSpec(seat=0, name="Ada"), SeatSpec(seat=1, name="Basil")], {}, seed
        )
        for p in state.players:
            cards = [*p.field, p.on_deck, *reversed(p.deck)]
            orders.append(tuple(kind_of(state, c) for c in cards))  # type: ignore[arg-type]
    assert len(set(orders)) == len(orders)


def test_set_up_leaders_two_dealt_one_kept_and_sleeved_into_a_blank_card():
    """Leader Setup: each player is dealt two leaders at random, keeps one (the other back
    to the box) and sleeves it, starting side up, into one of their eight blank cards;
    the deck is still 20 cards. Then the opening Preps."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(3)]
    state = GAME.setup("3p", seats, {"leaders": "on"}, 5)
    assert state.phase == "leaders" and GAME.to_act(state) == {0, 1, 2}
    dealt = [leader for p in state.players for leader in p.leader_options]
    assert len(dealt) == 6 == len(set(dealt))
    for p in state.players:
        assert GAME.question(state, p.seat)
        assert sorted(keys(state, p.seat)) == [f"leader|{x}" for x in p.leader_options]
    for p in state.players:
        kept = p.leader_options[1]
        state, _ = act(state, f"leader|{kept}", p.seat)
    for p in state.players:
        assert p.leader == p.leader_options[1] and not p.leader_upgraded
        kinds = Counter(kind_of(state, c) for c in cards_of(state, p.seat))
        assert kinds["blank"] == 7 and kinds["leader"] == 1
        assert state.card(leader_card(state, p.seat)).leader == p.leader
        put_back = p.leader_options[0]
        assert not any(c.leader == put_back for c in state.physical)
    assert state.phase == "planting" and all(
        p.field and p.on_deck is not None for p in state.players
    )
    assert_conserved(state)


@pytest.mark.parametrize("variant", ["2p", "3p", "4p"])
def test_set_up_every_player_carries_out_an_opening_prep(variant):
    """Set-up (notes 2.6, 3.5): before the first turn every player preps a field: cards
    turn face up into it until the decay of the field and the on-deck card reaches 3."""
    state = new_game(variant)
    for p in state.players:
        assert p.field and p.on_deck is not None
        assert decay_count(state, p.seat) >= 3
        field_decay = sum(shown(state, state.card(c))["decay"] for c in p.field)
        assert field_decay < 3
        assert len(p.deck) + len(p.field) + 1 == 20
    assert state.phase == "planting" and state.active == state.first == ADA
    assert state.round == 1 and state.turn == 0


# =========================================================================== Planting


def test_planting_a_push_moves_the_on_deck_card_to_the_end_of_the_field_and_reveals_the_next():
    """Planting (notes 3.1.2): a push moves the on-deck card to the end (right) of the
    field, then the deck's top card turns face up as the new on-deck card."""
    state = new_game()
    b1, b2, b3 = blanks(state, ADA, 3)
    arrange(state, ADA, field=[b1], on_deck=b2, deck_top=[b3])
    assert sorted(keys(state)) == ["push", "stop"]
    state = play(state, "push")
    ada = state.players[ADA]
    assert ada.field == [b1, b2] and ada.on_deck == b3
    assert state.phase == "planting"
    assert_conserved(state)


def test_planting_growth_cancels_decay():
    """Planting (notes 1.8, 3.1.3): each growth cancels one decay."""
    state = new_game()
    hedge = made(state, ADA, "Thornbriar Hedge")  # growth 1
    c1, c2, c3, c4 = pick(state, ADA, "cursed", 4)
    arrange(state, ADA, field=[hedge, c1, c2], on_deck=c3, deck_top=[c4])
    assert decay_count(state, ADA) == 2
    state = play(state, "push")  # 4 decay, 1 growth: no Spoil
    assert state.phase == "planting" and decay_count(state, ADA) == 3
    assert "Decay 3" in (GAME.question(state, ADA) or "")


def test_planting_four_decay_on_the_field_and_the_on_deck_card_spoils():
    """Planting (notes 3.1.3): after a push, decay on the field and the on-deck card,
    less growth, of 4 or more Spoils; 3 does not."""
    state = new_game()
    c = pick(state, ADA, "cursed", 5)
    arrange(state, ADA, field=[c[0], c[1]], on_deck=c[2], deck_top=[c[3], c[4]])
    assert decay_count(state, ADA) == 3
    state, events = act(state, "push")
    assert "Spoils" in events_text(events)
    assert state.players[ADA].mana_token
    assert state.active == BASIL and state.phase == "planting"


def test_planting_growth_on_the_on_deck_card_counts_too():
    """Planting (notes 3.1.3, the suggested default): growth on the on-deck card cancels
    decay in the Spoil count, like growth in the field."""
    state = new_game()
    hedged = cursed(state, ADA, "top")[0]
    put(state, hedged, "Thornbriar Hedge")  # middle: 1 growth beside the Cursed Land
    c = pick(state, ADA, "cursed", 3, avoid=(hedged,))
    b = one(state, ADA, "blank")
    arrange(state, ADA, field=c, on_deck=b, deck_top=[hedged])
    state = play(state, "push")  # 3 decay in the field, 1 decay and 1 growth on deck
    assert state.players[ADA].on_deck == hedged
    assert state.phase == "planting" and decay_count(state, ADA) == 3


def test_a_spoil_skips_the_harvest_turns_the_mana_token_active_and_keeps_the_on_deck_card():
    """Spoiling (notes 3.2): no Harvest at all (no VP or curse tokens, no buys), the mana
    token turns active, the field is discarded; the on-deck card that Spoiled stays on the
    deck and is the first card of the next Prep."""
    state = new_game()
    prospector = made(state, ADA, "Cindervein Prospector")  # 1 VP, 1 decay
    gloomcap = made(state, ADA, "Gloomcap Bargain")  # 1 curse, 1 decay
    c1, c2, c3 = pick(state, ADA, "cursed", 3)
    arrange(state, ADA, field=[prospector, gloomcap], on_deck=c1, deck_top=[c2, c3])
    state = play(state, "push")  # 3 decay in the field, 1 on deck: Spoiled
    ada = state.players[ADA]
    assert ada.vp == 0 and ada.curses == 0 and ada.mana_token
    assert {prospector, gloomcap, c1} <= set(ada.discard)
    assert ada.field[0] == c2  # the card that Spoiled opened the next Prep
    assert state.active == BASIL and ada.turns == 1
    assert_conserved(state)


def test_planting_an_empty_deck_shuffles_the_discard_pile_into_a_new_deck():
    """Planting (notes 3.1.5): a card must be revealed and the deck is empty: the discard
    pile is shuffled to form a new deck first."""
    state = new_game()
    b1, b2 = blanks(state, ADA, 2)
    arrange(state, ADA, field=[b1], on_deck=b2, deck_top=[], discard=[])
    ada = state.players[ADA]
    assert not ada.deck and len(ada.discard) == 18
    state, events = act(state, "push")
    ada = state.players[ADA]
    assert "shuffles their discard pile" in events_text(events)
    assert ada.field == [b1, b2] and ada.on_deck is not None
    assert not ada.discard and len(ada.deck) == 17
    assert_conserved(state)


def test_planting_with_deck_and_discard_both_empty_nothing_is_revealed_and_the_player_harvests():
    """Planting (notes 3.1.5, the suggested default): with deck and discard pile both
    empty, no card can be revealed; with no on-deck card there is nothing to push, and
    the player stops and harvests."""
    state = new_game()
    vanguard = made(state, ADA, "Vale Vanguard")  # so that 19 cards don't Spoil
    others = [c for c in cards_of(state, ADA) if c != vanguard]
    arrange(state, ADA, field=[vanguard, *others[:-1]], on_deck=others[-1], discard=[])
    state, events = act(state, "push")
    ada = state.players[ADA]
    assert len(ada.field) == 20 and ada.on_deck is None
    assert "no card left to push" in events_text(events)
    assert state.phase == "harvest" and "push" not in keys(state)


# =========================================================================== Harvest


def test_harvest_mana_spirits_and_guardians_come_from_the_field_never_the_on_deck_card():
    """Harvest (notes 3.1.3, 3.3): mana, spirit symbols and guardians are counted from the
    field's cards; the on-deck card counts only for decay and growth."""
    state = new_game()
    matriarch = made(state, ADA, "Tuskhorn Matriarch")  # 1 mana, 2 animal, 1 guardian
    soil = one(state, ADA, "fertile")  # 1 mana
    falconer = made(state, ADA, "Stormcrest Falconer")  # 2 mana, 2 sky, 1 decay: on deck
    arrange(state, ADA, field=[matriarch, soil], on_deck=falconer)
    state = harvesting(state)
    pool = state.harvest
    assert pool is not None
    assert (pool.mana, pool.animal, pool.guardian, pool.sky) == (2, 2, 1, 0)


def test_harvest_vp_tokens_come_from_the_pool_then_from_the_box_once_it_is_empty():
    """Harvest (notes 3.3.2, 4.2): the VP-token symbols of the field give VP tokens from
    the pool; once it is empty, from the box (and the pool running out makes this round
    the last)."""
    state = new_game()
    p1 = made(state, ADA, "Cindervein Prospector")
    p2 = made(state, ADA, "Cindervein Prospector")
    pool_to(state, 1)
    bare(state, ADA, p1, p2)
    state = harvesting(state)
    assert state.players[ADA].vp == 2
    assert state.pool == 0 and state.from_pool == 1 and state.from_box == 1
    assert state.last_round
    assert_conserved(state)


def test_curse_tokens_are_gained_from_field_cards_only():
    """Curse Tokens: in the Harvest, each field card showing a curse symbol gives that many
    curse tokens from the pool (do not count the on-deck card)."""
    state = new_game()
    gloomcap = made(state, ADA, "Gloomcap Bargain")  # 1 curse
    ravager = made(state, ADA, "Vinelash Ravager")  # 1 curse, on deck
    arrange(state, ADA, field=[gloomcap], on_deck=ravager)
    state = harvesting(state)
    assert state.players[ADA].curses == 1


def test_curse_tokens_are_gained_only_when_harvesting_not_after_a_spoil():
    """Curse Tokens: you only gain them during your Harvest Phase; if you Spoil and skip
    it, the cards in your field give none."""
    state = new_game()
    gloomcap = made(state, ADA, "Gloomcap Bargain")  # 1 curse, 1 decay
    c1, c2, c3 = pick(state, ADA, "cursed", 3)
    arrange(state, ADA, field=[gloomcap, c1], on_deck=c2, deck_top=[c3])
    state = play(state, "push")
    assert state.players[ADA].mana_token and state.players[ADA].curses == 0


def test_harvest_vales_are_bought_before_advancements_two_of_each_at_most():
    """Harvest (notes 3.3.3-3.3.5, the suggested defaults): up to 2 vales with spirit
    symbols, then up to 2 advancements with mana (the rulebook's buy limit of two);
    once an advancement is bought, no more vales."""
    state = new_game()
    vales = [in_row(state, n, i) for i, n in enumerate(["Cloudrest Aerie", "Coral Grotto"])]
    vales.append(in_row(state, "Howling Den", 2))
    advs = [in_row(state, n, i) for i, n in enumerate(["Skylark Lookout", "Silt Runner"])]
    advs.append(in_row(state, "Mossback Warden", 2))
    spirits = {"sky": 9, "animal": 9, "water": 9, "plant": 9}
    state = buying(state, *blanks(state, ADA, 3), mana=20, **spirits)
    first = state.model_copy(deep=True)
    state = play(state, f"vale|{vales[0]}", f"vale|{vales[1]}")
    assert refused(state, f"vale|{vales[2]}").code == "buys"
    state = play(state, f"buy|{advs[0]}", f"buy|{advs[1]}")
    assert refused(state, f"buy|{advs[2]}").code == "buys"
    assert len(state.players[ADA].vales) == 2 and len(harvest_of(state).bought) == 2
    state = play(first, f"buy|{advs[0]}")
    assert refused(state, f"vale|{vales[0]}").code == "order"


def test_an_advancement_is_bought_only_if_it_fits_into_the_field_beside_what_was_bought():
    """Harvest (notes 3.3.4): an advancement is bought only if it can still be sleeved into
    its slot of a card in the field, with the advancements already bought."""
    state = new_game()
    skylark = in_row(state, "Skylark Lookout", 0)  # top
    charger = in_row(state, "Bristleback Charger", 1)  # top
    runner = in_row(state, "Silt Runner", 2)  # bottom
    state = buying(state, one(state, ADA, "blank"), mana=20)
    state = play(state, f"buy|{skylark}")
    assert refused(state, f"buy|{charger}").code == "no-room"
    state = play(state, f"buy|{runner}")
    assert harvest_of(state).bought == [skylark, runner]
    # a printed Cursed Land fills its slot as well
    state = new_game()
    skylark = in_row(state, "Skylark Lookout", 0)
    state = buying(state, cursed(state, ADA, "top")[0], mana=20)
    assert refused(state, f"buy|{skylark}").code == "no-room"


def test_a_free_advancement_too_is_taken_only_if_it_fits_into_the_field():
    """Harvest (notes 3.3.4; Sacrosanct Nests' clarification): an advancement bought for
    free must also have room in the field beside what was bought (Wayfarer Cairn's free
    level-1 advancement: only one for the slot still free)."""
    state = new_game()
    cairn = in_row(state, "Wayfarer Cairn", 0)  # bottom
    names = ["Skylark Lookout", "Mossback Warden", "Silt Runner"]  # top, middle, bottom
    top, middle, bottom = (in_row(state, n, i) for i, n in enumerate(names))
    state = buying(state, cursed(state, ADA, "top")[0], mana=5)
    state = play(state, f"buy|{cairn}", "use")
    assert frame_kind(state) == "free_row"
    assert keys(state) == [f"choose|{middle}"]
    state = choose(state, middle)
    assert harvest_of(state).bought == [cairn, middle] and harvest_of(state).buys == 1
    assert top in state.commons.rows[1] and bottom in state.commons.rows[1]


def test_alternative_costs_spirits_vp_to_the_box_and_curse_tokens_to_the_pool():
    """Alternative Costs: a cost may ask for spirit symbols, VP tokens (spent to the box,
    not the pool) or curse tokens (spent back to the pool), besides mana."""
    state = new_game()
    tideking = in_row(state, "Abyssal Tideking")  # 8 mana, 3 water
    pact = in_row(state, "Bloodmoon Pact", 0)  # 4 mana, 2 VP
    give(state, ADA, vp=2)
    state = buying(state, *blanks(state, ADA, 2), mana=12, water=3)
    pool = state.pool
    state = play(state, f"buy|{tideking}", f"buy|{pact}")
    assert harvest_of(state).water == 0 and harvest_of(state).mana == 0
    assert state.players[ADA].vp == 0 and state.spent_vp == 2 and state.pool == pool
    assert_conserved(state)

    state = new_game()
    tithe = in_row(state, "Ashen Tithe", 0)  # 1 mana, 1 curse token
    state = buying(state, one(state, ADA, "blank"), mana=1)
    assert refused(state, f"buy|{tithe}").code == "cost"
    give(state, ADA, curses=1)
    state = play(state, f"buy|{tithe}")
    assert state.players[ADA].curses == 0


def test_the_active_mana_token_is_worth_one_mana_and_is_then_spent():
    """Mana token (notes 1.13, 3.3.4): active, it is worth 1 mana in a later Harvest, and
    turns inactive when spent (after the Harvest's own mana)."""
    state = new_game()
    soil = one(state, ADA, "fertile")
    b = one(state, ADA, "blank")
    give(state, ADA, token=True)
    state = buying(state, soil, b)  # 1 mana: a Fertile Soil costs 2
    assert "mana token" in (GAME.question(state, ADA) or "")
    top_soil = next(i for i in offered(state) if state.cards[i] == "fertile-soil-top")
    state = play(state, f"buy|{top_soil}")
    assert not state.players[ADA].mana_token and harvest_of(state).mana == 0


def test_reserve_any_advancement_of_the_commons_bought_later_as_if_in_the_commons():
    """Reserve: choose any advancement of the commons (Fertile Soils and level 4 too),
    even one you can't afford or sleeve; buy it in this or a later Harvest as if it were in
    the commons, one of the two buys."""
    state = new_game()
    broker = made(state, ADA, "Mistmarket Broker")  # Harvest: you may Reserve
    bare(state, ADA, broker, one(state, ADA, "blank", avoid=(broker,)))
    state = harvesting(state)
    state = play(state, "use")
    assert frame_kind(state) == "reserve"
    options = {int(o) for o in state.frames[-1].options}
    assert set(state.commons.level4) <= options
    assert {state.cards[i] for i in options} >= {"fertile-soil-top", "fertile-soil-bottom"}
    dear = max(state.commons.level4, key=lambda i: advancement_of(state, i).cost.mana)
    state = choose(state, dear)
    assert state.players[ADA].reserved == [dear] and dear not in state.commons.level4
    assert dear not in offered(state)
    fund(state, mana=30)
    cheap = [i for i in state.commons.rows[1] if i is not None]
    state = play(state, f"buy|{dear}")
    assert harvest_of(state).buys == 1 and not state.players[ADA].reserved
    state = play(state, f"buy|{cheap[0]}")
    assert refused(state, f"buy|{cheap[1]}").code == "buys"
    assert_conserved(state)


def test_apply_accepts_exactly_the_listed_copy_of_a_reserved_or_bought_card():
    """The engine contract: `apply` accepts exactly the actions `legal_actions` lists.
    Copies of one card are one choice, listed once: buying a Reserved card, or sleeving a
    bought one at once (Stormbrew Titan, upgraded), is offered with one copy, and the
    other copy's key is refused."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    upgraded_aside(state, ADA)
    first, second = (reserve(state, ADA, "Skylark Lookout") for _ in range(2))
    state = buying(state, *blanks(state, ADA, 3), mana=20)
    assert f"buy|{first}" in keys(state)
    assert refused(state, f"buy|{second}").code == "not-offered"
    state = play(state, f"buy|{first}", f"buy|{second}")
    card = state.players[ADA].field[0]
    assert f"sleeve|{first}|{card}" in keys(state)
    assert refused(state, f"sleeve|{second}|{card}").code == "sleeve"


def test_reserve_nobody_else_can_buy_an_advancement_you_reserved():
    """Reserve: you cannot buy or affect advancements that other players have Reserved."""
    state = new_game()
    theirs = reserve(state, BASIL, "Skylark Lookout")
    mine = reserve(state, ADA, "Silt Runner")  # Reserved in an earlier Harvest
    state = buying(state, *blanks(state, ADA, 2), mana=20)
    assert refused(state, f"buy|{theirs}").code == "not-offered"
    state = play(state, f"buy|{mine}")
    assert harvest_of(state).bought == [mine] and theirs in state.players[BASIL].reserved


def test_sacrifice_removes_a_card_from_the_game_with_every_effect_of_it():
    """Sacrifice: a Sacrificed advancement goes back to the box and no longer has any
    impact on the game, end-of-game VP included."""
    state = new_game()
    excavator = made(state, ADA, "Riftstone Excavator")  # Harvest: sacrifice one for 3 VP
    avengers = made(state, ADA, "Gaia's Avengers", avoid=(excavator,))  # 2 end VP
    gaia = state.card(avengers).slots["top"][0]
    arrange(state, ADA, field=[excavator], on_deck=one(state, ADA, "blank"), discard=[avengers])
    before = score(state, ADA)
    state = harvesting(state)
    state = play(state, "use")
    assert frame_kind(state) == "sacrifice"
    state = choose(state, gaia)
    assert gaia in state.boxed and not state.card(avengers).slots["top"]
    assert state.players[ADA].vp == 3
    assert score(state, ADA) == before + 3 - 2
    assert_conserved(state)


def test_a_leader_upgrade_is_one_of_the_two_advancement_buys():
    """Upgrading Your Leader: with the leader in the field, pay the cost in its top right
    corner in the Harvest; it counts as one of the two advancement buys."""
    state = new_game(leaders={ADA: "tidal-wave-titan"})  # upgrade: 5 water
    titan = leader_card(state, ADA)
    a, b = in_row(state, "Skylark Lookout", 0), in_row(state, "Silt Runner", 1)
    state = buying(state, titan, *blanks(state, ADA, 2), mana=20, water=4)  # +1 water: titan
    assert "upgrade" in keys(state)
    state = play(state, "upgrade", f"buy|{a}")
    assert refused(state, f"buy|{b}").code == "buys"
    assert state.players[ADA].leader_upgraded and harvest_of(state).water == 0


def test_an_upgraded_titan_leaves_its_sleeve_and_the_blank_card_stays_in_the_field():
    """Upgrading Your Leader: an upgraded titan comes out of its sleeve and stands beside
    the play area; its blank card stays in the field, a blank card one may sleeve into."""
    state = new_game(leaders={ADA: "tidal-wave-titan"})
    titan = leader_card(state, ADA)
    skylark = in_row(state, "Skylark Lookout", 0)
    state = buying(state, titan, mana=2, water=4)
    assert refused(state, f"buy|{skylark}").code == "no-room"  # not onto a leader
    state = play(state, "upgrade")
    ada = state.players[ADA]
    assert ada.titan_aside and state.card(titan).leader is None and titan in ada.field
    assert kind_of(state, titan) == "blank"
    state = play(state, f"buy|{skylark}", "done")
    assert state.card(titan).slots["top"] == [skylark]
    assert_conserved(state)


def test_an_upgraded_titan_acts_from_the_next_turn_its_starting_side_in_the_upgrade_harvest():
    """Upgrading Your Leader: the titan's upgraded ability is used during the following
    turns, not in the Harvest of its upgrade; its starting ability and symbols still work
    in that Harvest (Tidal Wave Titan's discount, after it turned over)."""
    state = new_game(leaders={ADA: "tidal-wave-titan"})
    titan = leader_card(state, ADA)
    sentinel = in_row(state, "Deeptide Sentinel", 0)  # 5 mana, 2 guardians
    give(state, ADA, curses=4)
    state = buying(state, titan, one(state, ADA, "blank"), mana=3, water=4)
    state = play(state, "upgrade")
    assert "Deeptide Sentinel" in GAME.describe(Action.from_key(f"buy|{sentinel}"), state)
    state = play(state, f"buy|{sentinel}")  # 3 mana: still 1 less per guardian
    assert harvest_of(state).mana == 0
    assert state.players[ADA].curses == 4  # the upgraded side didn't act in this Harvest
    state = play(state, "done")
    state = to_turn_of(state, ADA)
    guarded = made(state, ADA, "Deeptide Sentinel")
    second = in_row(state, "Deeptide Sentinel", 0)
    bare(state, ADA, guarded)
    state = harvesting(state)
    assert frame_kind(state) == "use"  # Tidal Wave, upgraded: shed curses per guardian
    state = choose(play(state, "use"), 2)
    assert state.players[ADA].curses == 2
    fund(state, mana=4)
    assert refused(state, f"buy|{second}").code == "cost"  # no starting side any more


# =========================================================================== Discard


def test_discard_a_bought_advancement_goes_into_its_slot_of_a_field_card_the_player_choosing():
    """Discard (notes 3.4.1): each advancement bought goes into its printed slot of a card
    in the field, that slot empty; where several cards could take it, the player chooses
    (where one can, it goes there)."""
    state = new_game()
    skylark = in_row(state, "Skylark Lookout", 0)  # top
    runner = in_row(state, "Silt Runner", 1)  # bottom
    b1, b2 = blanks(state, ADA, 2)
    bottom = cursed(state, ADA, "bottom")[0]
    state = buying(state, b1, b2, bottom, mana=20)
    state = play(state, f"buy|{skylark}", f"buy|{runner}", "done")
    assert frame_kind(state) == "sleeve" and state.frames[-1].subject == skylark
    assert sorted(keys(state)) == sorted([f"choose|{b1}", f"choose|{b2}", f"choose|{bottom}"])
    state = choose(state, b2)
    assert state.card(b2).slots["top"] == [skylark]
    assert frame_kind(state) == "sleeve"  # the bottom one: the blank card or the other blank
    assert f"choose|{bottom}" not in keys(state)
    state = choose(state, b1)
    assert state.card(b1).slots["bottom"] == [runner]
    assert_conserved(state)


def test_discard_no_advancement_goes_onto_a_leader():
    """Using Your Leader: you cannot sleeve advancements on a leader."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    titan = leader_card(state, ADA)
    skylark = in_row(state, "Skylark Lookout", 0)
    b = one(state, ADA, "blank")
    state = buying(state, titan, b, mana=20)
    state = play(state, f"buy|{skylark}", "done")  # one card can take it: no question
    assert state.card(b).slots["top"] == [skylark]
    assert not any(state.card(titan).slots.values())


def test_discard_the_field_is_discarded_and_the_commons_refilled():
    """Discard (notes 3.4.2-3.4.3): the field goes to the discard pile; each empty space
    of the commons is refilled from its level's deck."""
    state = new_game()
    one_, two = in_row(state, "Skylark Lookout", 0), in_row(state, "Deeptide Sentinel", 2)
    next_one, next_two = state.commons.decks[1][-1], state.commons.decks[2][-1]
    field = blanks(state, ADA, 3)
    state = buying(state, *field, mana=30)
    state = play(state, f"buy|{one_}", f"buy|{two}", "done")
    state = settle(state)
    ada = state.players[ADA]
    assert set(field) <= set(ada.discard)
    assert state.commons.rows[1][0] == next_one and state.commons.rows[2][2] == next_two
    assert_conserved(state)


def test_discard_the_level_4_row_is_never_refilled():
    """Level 4 Advancements: a level-4 advancement bought from the commons is not
    replaced in the Discard Phase."""
    state = new_game()
    four = in_row(state, "Skyrender Phoenix")
    others = [i for i in state.commons.level4 if i != four]
    state = buying(state, *blanks(state, ADA, 2), mana=20)
    state = play(state, f"buy|{four}", "done")
    state = settle(state)
    assert state.commons.level4 == others
    assert_conserved(state)


def test_discard_a_row_whose_deck_ran_out_is_refilled_from_the_next_level_and_level_4_moves():
    """Discard (notes 3.4.4, the suggested default; "Level 4 Advancements"): a level-1
    space whose deck is empty takes the level-2 deck's top card; a level-4 card revealed
    while refilling the level-3 row moves to the level-4 row and the refill goes on."""
    state = new_game()
    level_one = in_row(state, "Silt Runner", 0)
    level_three = in_row(state, "Scout", 1)
    state.boxed += state.commons.decks[1]
    state.commons.decks[1] = []
    from_two = state.commons.decks[2][-1]
    three = on_top(state, "Starfall Cathedral")
    four = on_top(state, "Vale Vanguard")
    state = buying(state, *blanks(state, ADA, 2), mana=20)
    state = play(state, f"buy|{level_one}", f"buy|{level_three}", "done")
    state = settle(state)
    assert state.commons.rows[1][0] == from_two
    assert state.commons.rows[3][1] == three and four in state.commons.level4
    assert_conserved(state)


# =========================================================================== Prep


def test_prep_turns_cards_into_the_field_until_the_decay_reaches_three():
    """Prep (notes 3.5.1): the on-deck card moves into the (empty) field, the next card
    turns face up on deck, again and again while the decay of field and on-deck card is
    below 3; the card that brings the third decay stays on deck."""
    state = new_game()
    b = blanks(state, ADA, 4)
    c = pick(state, ADA, "cursed", 4)
    order = [b[1], c[0], b[2], c[1], c[2], b[3]]
    arrange(state, ADA, field=[c[3]], on_deck=b[0], deck_top=order)
    state = play(state, "stop", "done")
    ada = state.players[ADA]
    assert ada.field == [b[0], b[1], c[0], b[2], c[1]] and ada.on_deck == c[2]
    assert c[3] in ada.discard and decay_count(state, ADA) == 3


def test_prep_an_empty_deck_shuffles_the_discard_pile_in_and_the_prep_goes_on():
    """Prep (notes 3.5.4): when the deck runs out during the Prep Phase, the discard pile
    is shuffled into a new deck and the Prep goes on."""
    state = new_game()
    b1, b2, b3 = blanks(state, ADA, 3)
    arrange(state, ADA, field=[b1], on_deck=b2, deck_top=[b3], discard=[])
    state, events = act(state, "stop")
    state, events = act(state, "done")
    ada = state.players[ADA]
    assert "shuffles their discard pile" in events_text(events)
    assert ada.field[:2] == [b2, b3] and len(ada.field) > 2
    assert decay_count(state, ADA) == 3 and not ada.discard
    assert_conserved(state)


def test_prep_four_decay_spoils_and_the_next_harvest_is_skipped():
    """Spoiling (notes 3.2.3; Corrupted Centaur's clarification): reaching 4 or more decay
    in the Prep Phase Spoils; the player skips the Harvest of their next turn and goes
    straight to the Discard Phase."""
    state = new_game()
    bramble = made(state, ADA, "Bramble Tumbleworld")  # 2 decay
    prospector = made(state, ADA, "Cindervein Prospector")  # 1 VP, 1 decay
    c = pick(state, ADA, "cursed", 2)
    b = one(state, ADA, "blank")
    arrange(state, ADA, field=[b], on_deck=c[0], deck_top=[prospector, bramble])
    state = play(state, "stop", "done")
    ada = state.players[ADA]
    assert ada.field == [c[0], prospector] and ada.on_deck == bramble
    assert ada.skip_harvest and ada.mana_token
    state = play(state, "stop")
    state, events = act(state, "done")  # Basil's turn; then Ada's, with no Harvest
    assert "no Harvest this turn" in events_text(events)
    ada = state.players[ADA]
    assert ada.vp == 0 and ada.turns == 2 and prospector in ada.discard
    assert state.active == BASIL and state.phase == "planting"
    assert_conserved(state)


def test_a_prep_spoil_is_a_spoil_its_when_you_spoil_abilities_go_off():
    """A Spoil in the Prep Phase is a Spoil (notes 3.2.3; Hunter's Hall, "If you Spoil"):
    the player's When you Spoil abilities go off, those of the new field's cards and of
    the vales, as after a push."""
    state = new_game()
    hall = give_vale(state, ADA, "Hunter's Hall")
    lantern = made(state, ADA, "Mirewisp Lantern")  # When you Spoil: 1 VP
    bramble = made(state, ADA, "Bramble Tumbleworld")  # 2 decay
    prospector = made(state, ADA, "Cindervein Prospector")  # 1 decay
    land = one(state, ADA, "cursed")
    b = one(state, ADA, "blank")
    arrange(state, ADA, field=[b], on_deck=land, deck_top=[lantern, prospector, bramble])
    state = play(state, "stop", "done")  # Prep: Cursed Land, Lantern, Prospector; Bramble up
    ada = state.players[ADA]
    assert ada.field == [land, lantern, prospector] and ada.skip_harvest
    assert ada.vp == 1  # the Lantern's
    assert frame_kind(state) == "use"  # Hunter's Hall: another turn for the Sacrifice
    state = play(state, "use")
    ada = state.players[ADA]
    assert hall in state.boxed and ada.turns == 2  # the extra turn, its Harvest skipped
    assert_conserved(state)


# =========================================================================== Rituals


def test_ritual_beastbrother_ambassador_with_gaias_avengers():
    """Rituals, the first example: Beastbrother Ambassador's ritual needs 1 end-of-game VP
    on its card; Gaia's Avengers shows 2, so its reward of 1 sky and 1 animal is gained."""
    state = new_game()
    card = made(state, ADA, "Gaia's Avengers", "Beastbrother Ambassador")
    state = buying(state, card)
    pool = state.harvest
    assert pool is not None and (pool.sky, pool.animal) == (1, 1)
    alone = new_game()
    state = buying(alone, made(alone, ADA, "Beastbrother Ambassador"))
    assert (harvest_of(state).sky, harvest_of(state).animal) == (0, 0)


def test_ritual_the_symbols_above_a_ritual_always_count_dawnseeker_emissary():
    """Rituals, the second example: Dawnseeker Emissary's sky spirit above its ritual is
    gained whether or not the ritual is fulfilled; its reward (1 mana, 1 guardian) only
    when it is."""
    state = new_game()
    state = buying(state, made(state, ADA, "Dawnseeker Emissary"))
    pool = state.harvest
    assert pool is not None and (pool.sky, pool.mana, pool.guardian) == (1, 0, 0)
    state = new_game()
    state = buying(state, made(state, ADA, "Dawnseeker Emissary", "Mossback Warden"))
    pool = state.harvest  # Mossback Warden: 1 mana, 1 guardian, 1 growth
    assert pool is not None and (pool.sky, pool.mana, pool.guardian) == (1, 2, 2)


def test_ritual_requirement_symbols_are_not_present_waveguard_envoy_with_dawnseeker_emissary():
    """Rituals, the third example: with Dawnseeker Emissary on its card, Waveguard Envoy
    (mana per guardian on its card) gives nothing, the guardian of the requirement not
    being present; once the ritual is fulfilled, its rewarded guardian counts."""
    state = new_game()
    state = buying(state, made(state, ADA, "Dawnseeker Emissary", "Waveguard Envoy"))
    assert harvest_of(state).mana == 0 and harvest_of(state).guardian == 0
    state = new_game()
    card = made(state, ADA, "Dawnseeker Emissary", "Waveguard Envoy", "Deeptide Sentinel")
    state = buying(state, card)  # 2 guardians + the reward's 1: 3 guardians, 2 mana each
    assert harvest_of(state).guardian == 3
    assert harvest_of(state).mana == 1 + 2 * 3


def test_ritual_a_reward_never_fulfils_another_ritual_radiant_plexus_with_beastbrother():
    """Rituals, the fourth example: Radiant Plexus's end-of-game VP fulfils Beastbrother
    Ambassador's ritual, but Beastbrother's rewarded spirits do not fulfil Radiant Plexus's
    (sky and animal), so its 2 VP are not gained; spirits printed on the card would."""
    state = new_game()
    state = buying(state, made(state, ADA, "Radiant Plexus", "Beastbrother Ambassador"))
    assert (harvest_of(state).sky, harvest_of(state).animal) == (1, 1)
    assert state.players[ADA].vp == 0
    state = new_game()
    state = buying(state, made(state, ADA, "Radiant Plexus", "Wayfarer Cairn"))
    assert state.players[ADA].vp == 2


def test_ritual_the_same_symbols_fulfil_two_rituals_and_can_still_be_spent():
    """Rituals: fulfilling a requirement doesn't spend its symbols, so the same symbols may
    fulfil two rituals of one card and still count as resources."""
    state = new_game()
    card = made(state, ADA, "Dawnseeker Emissary", "Brambleheart Druid", "Deeptide Sentinel")
    state = buying(state, card)  # both rituals need a guardian; Deeptide Sentinel has 2
    assert state.players[ADA].vp == 1  # Brambleheart Druid's reward
    assert harvest_of(state).mana == 1 and harvest_of(state).guardian == 3


# =========================================================================== Eclipse


def test_eclipse_an_advancement_may_be_sleeved_over_an_eclipse_advancement():
    """Eclipse Symbol, the first example: you may sleeve an advancement so it covers an
    eclipse advancement."""
    state = new_game()
    card = made(state, ADA, "Embermoth Swarm")  # top, eclipse
    moth = state.card(card).slots["top"][0]
    skylark = in_row(state, "Skylark Lookout", 0)
    state = buying(state, card, mana=5)
    state = play(state, f"buy|{skylark}", "done")
    assert state.card(card).slots["top"] == [moth, skylark]


def test_eclipse_an_eclipse_advancement_may_be_sleeved_under_an_advancement():
    """Eclipse Symbol, the second example: you may sleeve an eclipse advancement under
    another advancement, so the eclipse advancement is covered."""
    state = new_game()
    card = made(state, ADA, "Skylark Lookout")
    skylark = state.card(card).slots["top"][0]
    moth = in_row(state, "Embermoth Swarm", 0)
    state = buying(state, card, mana=5)
    state = play(state, f"buy|{moth}", "done")
    assert state.card(card).slots["top"] == [moth, skylark]


def test_eclipse_an_eclipse_advancement_never_covers_anything():
    """Eclipse Symbol: an eclipse advancement cannot be sleeved to cover another
    advancement, even another eclipse one; a slot holding a covered eclipse is full."""
    state = new_game()
    moth_card = made(state, ADA, "Embermoth Swarm")
    oracle = in_row(state, "Duskwing Oracle", 0)  # top, eclipse
    state = buying(state, moth_card, mana=9)
    assert refused(state, f"buy|{oracle}").code == "no-room"
    state = new_game()
    full = made(state, ADA, "Embermoth Swarm", "Skylark Lookout")
    oracle = in_row(state, "Duskwing Oracle", 0)
    charger = in_row(state, "Bristleback Charger", 1)
    state = buying(state, full, mana=9)
    assert refused(state, f"buy|{oracle}").code == "no-room"
    assert refused(state, f"buy|{charger}").code == "no-room"


def test_eclipse_a_covered_eclipse_advancement_scores_no_end_of_game_vp():
    """Eclipse Symbol, "Important": the end-of-game VP of an eclipse advancement that
    another advancement covers are not worth any points (its other symbols still show:
    notes 5.2)."""
    state = new_game()
    card = made(state, ADA, "Embermoth Swarm")  # 1 sky, 1 end VP
    before = score(state, ADA)
    put(state, card, "Skylark Lookout")  # 1 sky
    assert score(state, ADA) == before - 1
    assert shown(state, state.card(card))["sky"] == 2


# =========================================================================== The end


def test_end_the_pool_running_out_finishes_the_round():
    """End of the game (notes 4.1): once the VP pool is empty, the round is finished so
    everyone has had the same number of turns, then the game is scored."""
    state = new_game()
    pool_to(state, 1)
    state = buying(state, made(state, ADA, "Cindervein Prospector"))
    assert state.last_round and state.pool == 0
    state = play(state, "done")
    assert state.phase == "planting" and state.active == BASIL
    assert GAME.outcome(state) is None
    state = play(state, "stop", "done")
    assert state.phase == "over" and GAME.outcome(state) is not None
    assert [p.turns for p in state.players] == [1, 1]


def test_end_the_last_seat_emptying_the_pool_ends_the_game_after_their_turn():
    """End of the game (notes 4.1): the player before the first player takes the last
    turn; if they empty the pool, nobody plays again."""
    state = new_game()
    state = play(state, "stop", "done")
    pool_to(state, 1)
    prospector = made(state, BASIL, "Cindervein Prospector")
    bare(state, BASIL, prospector)
    state = play(state, "stop", "done")
    assert state.phase == "over" and [p.turns for p in state.players] == [1, 1]


def test_a_concession_during_the_leader_choice_leaves_the_others_to_choose_and_play_on():
    """A player who concedes leaves the table and the others play on (the README's
    reading): the leader choice waits only for those still at the table, and the first
    turn is the first player's, or the next seat's once the first player has left."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(4)]
    state = GAME.setup("4p", seats, {"leaders": "on"}, seed_with_first("4p", ADA))
    assert state.phase == "leaders"
    state, _ = act(state, f"leader|{state.players[ADA].leader_options[0]}", ADA)
    state, _ = GAME.concede(state, ADA, rng_for(0, 1))  # the first player, having chosen
    state, _ = GAME.concede(state, DOV, rng_for(0, 2))  # before choosing
    assert GAME.to_act(state) == {BASIL, CLEO}
    for seat in (BASIL, CLEO):
        state, _ = act(state, f"leader|{state.players[seat].leader_options[0]}", seat)
    assert state.phase == "planting" and state.active == BASIL
    assert GAME.to_act(state) == {BASIL}
    assert not state.players[ADA].field and not state.players[DOV].field  # no Prep
    assert state.players[CLEO].field


def test_scoring_vp_tokens_end_vp_of_every_card_wherever_it_is_vales_and_leader_less_curses():
    """Scoring (notes 4.3): VP tokens, plus the end-of-game VP of every advancement on the
    player's 20 cards wherever the card is (deck, discard pile, field, on deck), of their
    vales and of their leader, less one per curse token."""
    state = new_game(leaders={ADA: "magmaborn-titan"})
    upgraded_aside(state, ADA)  # upgraded side: 3 end VP
    give(state, ADA, vp=5, curses=2)
    in_deck = made(state, ADA, "Gaia's Avengers", "Gnawing Blightmaw")  # 2, -2
    in_discard = made(state, ADA, "Radiant Plexus")  # 3
    in_field = made(state, ADA, "Verdant Heartwood")  # 2
    on_deck = made(state, ADA, "Eclipsed Moonwell")  # 3
    arrange(state, ADA, field=[in_field], on_deck=on_deck, discard=[in_discard])
    state.players[ADA].deck.append(in_deck)
    state.players[ADA].discard.remove(in_deck)
    give_vale(state, ADA, "Cloudrest Aerie")  # 2
    assert_conserved(state)
    assert score(state, ADA) == 5 - 2 + 2 - 2 + 3 + 2 + 3 + 2 + 3


def test_scoring_adds_what_end_of_game_abilities_give():
    """Scoring (notes 4.3): End of Game abilities add to the score wherever their card is
    (Elderbark Keeper: 2 end VP, and 1 VP per vale held at the end)."""
    state = new_game()
    made(state, ADA, "Elderbark Keeper")
    give_vale(state, ADA, "Cloudrest Aerie")  # 2 end VP
    give_vale(state, ADA, "Coral Grotto")  # 2 end VP
    assert score(state, ADA) == 2 + 2 + 2 + 2


def test_scoring_a_leader_sleeved_by_gargoyle_summoner_counts_its_end_vp():
    """Scoring (notes 4.3; Leader Card Anatomy: a leader shows end-of-game VP): a leader
    that Gargoyle Summoner sleeved, upgraded, into one of your cards scores like your own."""
    state = new_game()
    card = state.card(one(state, ADA, "blank"))
    card.leader, card.upgraded = "magmaborn-titan", True  # what Gargoyle Summoner does
    assert score(state, ADA) == PACK.leader("magmaborn-titan").upgraded.symbols.end_vp


def test_the_tie_breaker_counts_level_3_advancements_one_and_level_4_ones_two():
    """Level 4 Advancements: between players tied for points, each level-4 advancement
    counts as two level-3 advancements for the tie-breaker (the most wins; still tied,
    they share the win: notes 4.5, the suggested default)."""

    def game(ada: list[str], basil: list[str]) -> list[int]:
        state = new_game()
        for seat, names in ((ADA, ada), (BASIL, basil)):
            for name in names:
                made(state, seat, name)
        assert score(state, ADA) == score(state, BASIL)
        finish_game(state)
        return state.winners

    assert game(["Skyrender Phoenix"], ["Thunderhoof Colossus"]) == [ADA]
    assert game(["Skyrender Phoenix"], ["Thunderhoof Colossus", "Starfall Cathedral"]) == [
        ADA,
        BASIL,
    ]
    three = ["Thunderhoof Colossus", "Starfall Cathedral", "Thunderhoof Colossus"]
    assert game(["Skyrender Phoenix"], three) == [BASIL]


# =========================================================================== Advancements


def test_card_avatar_of_the_soulless_god_the_lowest_score_shares_the_win():
    """Avatar of the Soulless God (End of Game): with fewer points than each other player,
    you share the win with the highest score; tied for the least, no effect."""

    def winners(points: dict[int, int]) -> list[int]:
        state = new_game("3p")
        made(state, CLEO, "Avatar of the Soulless God")
        for seat, vp in points.items():
            give(state, seat, vp=vp)
        finish_game(state)
        return state.winners

    assert winners({ADA: 10, BASIL: 5, CLEO: 1}) == [ADA, CLEO]
    assert winners({ADA: 10, BASIL: 1, CLEO: 1}) == [ADA]
    assert winners({ADA: 10, BASIL: 2, CLEO: 5}) == [ADA]


def test_card_avatar_of_the_soulless_god_is_boxed_and_replaced_in_a_two_player_game():
    """Avatar of the Soulless God: in games of two players it is discarded as it appears
    and replaced at once from the level-3 deck."""
    state = new_game("2p")
    bought = in_row(state, "Thunderhoof Colossus", 0)
    scout = on_top(state, "Scout")
    avatar = on_top(state, "Avatar of the Soulless God")
    state = buying(state, *blanks(state, ADA, 2), mana=20)
    state = play(state, f"buy|{bought}", "done")
    state = settle(state)
    assert state.commons.rows[3][0] == scout and avatar in state.boxed
    assert_conserved(state)


def test_card_bramble_tumbleworld_is_worth_the_total_score_if_positive():
    """Bramble Tumbleworld (End of Game): after everything else is counted, it is worth
    as many points as the total; a negative total, no effect."""
    state = new_game()
    made(state, ADA, "Bramble Tumbleworld")
    give(state, ADA, vp=7, curses=2)
    assert score(state, ADA) == 10
    give(state, ADA, curses=7)
    assert score(state, ADA) == -2


def test_card_bramble_tumbleworld_counts_after_every_other_end_of_game_ability():
    """Bramble Tumbleworld: "after you have counted your total score from all cards,
    tokens, and abilities" -- an upgraded Hailburst Titan's 8 points included."""
    state = new_game(leaders={ADA: "hailburst-titan"})
    upgraded_aside(state, ADA)
    made(state, ADA, "Bramble Tumbleworld")
    give(state, ADA, vp=10, curses=3)  # the most curse tokens: the titan is worth 8
    assert score(state, ADA) == 2 * (10 - 3 + 8)


def test_card_executioner_another_turn_after_this_one_once_a_round():
    """Executioner (Harvest): take another turn right after this one (Harvest, then Prep,
    then a new turn from Planting); one extra turn a round at most, even kept in the field
    by Life Warden Legate on the same card."""
    state = new_game()
    card = made(state, ADA, "Executioner", "Life Warden Legate")
    bare(state, ADA, card)
    state, events = act(state, "stop")
    assert state.extra_turn and "another turn" in events_text(events)
    state = play(state, "done")
    assert frame_kind(state) == "use"  # Life Warden Legate: stay?
    state = play(state, "use")
    assert state.active == ADA and state.phase == "planting" and state.round == 1
    assert state.players[ADA].field[0] == card
    state = play(state, "stop")
    assert not state.extra_turn
    state = play(state, "done", "skip")
    assert state.active == BASIL and state.players[ADA].turns == 2


def test_card_fairy_dance_may_discard_the_rightmost_or_second_rightmost_card():
    """Fairy Dance (When Played): as it moves from on deck into the field, you may discard
    the rightmost card of the field (its own) or the second rightmost."""
    state = new_game()
    dance = made(state, ADA, "Fairy Dance")
    b = one(state, ADA, "blank", avoid=(dance,))
    c1, c2 = pick(state, ADA, "cursed", 2)
    arrange(state, ADA, field=[b, c1], on_deck=dance, deck_top=[c2])
    state = play(state, "push")
    assert frame_kind(state) == "use"
    state = play(state, "use")
    assert sorted(keys(state)) == sorted([f"choose|{dance}", f"choose|{c1}"])
    state = choose(state, c1)
    ada = state.players[ADA]
    assert ada.field == [b, dance] and c1 in ada.discard and state.phase == "planting"


def test_card_gargoyle_summoner_unsleeve_a_card_then_sleeve_a_leader_upgraded_on_a_blank():
    """Gargoyle Summoner (When Bought): four leaders are drawn from the box; you may
    unsleeve the advancements of one field card (sleeved again in the Discard Phase);
    then, with a blank card in the field, you sleeve one of the leaders on it, upgraded."""
    state = new_game()
    sleeved = made(state, ADA, "Skylark Lookout")
    skylark = state.card(sleeved).slots["top"][0]
    b1, b2 = blanks(state, ADA, 2)
    gargoyle = in_row(state, "Gargoyle Summoner", 0)
    state = buying(state, sleeved, b1, b2, mana=8)
    state = play(state, f"buy|{gargoyle}")
    assert frame_kind(state) == "gargoyle_unsleeve"
    assert sorted(keys(state)) == sorted([f"choose|{sleeved}", "choose|none"])
    drawn = list(state.gargoyle)
    named = [get_pack(state.pack).leader(i).shown_name for i in drawn]
    assert all(name in state.frames[-1].prompt for name in named)  # asked knowing them
    state, events = act(state, f"choose|{sleeved}")
    told = next(e for e in events if "draws four leaders" in e.text)  # the draw is told
    assert all(name in told.text for name in named)  # the question was their reveal
    assert skylark in harvest_of(state).bought and kind_of(state, sleeved) == "blank"
    assert frame_kind(state) == "gargoyle_leader"
    assert state.frames[-1].options == drawn
    assert len(drawn) == 4 == len(set(drawn))
    state = choose(state, drawn[0])
    card = next(c for c in state.physical if c.leader == drawn[0])
    assert card.owner == ADA and card.upgraded and card.id in state.players[ADA].field
    state = settle(play(state, "done"))
    homes = [c.id for c in state.physical if skylark in c.slots["top"]]
    assert homes and homes[0] != card.id
    assert any(gargoyle in c.slots["middle"] for c in state.physical)
    assert_conserved(state)


def test_card_life_warden_legate_stays_in_the_field_as_its_leftmost_card():
    """Life Warden Legate: with it in the field in your Discard Phase, you may keep its
    card in play, the first (leftmost) card of your next Prep's field."""
    state = new_game()
    legate = made(state, ADA, "Life Warden Legate")
    b = one(state, ADA, "blank", avoid=(legate,))
    bare(state, ADA, b, legate)
    state = play(state, "stop", "done")
    assert frame_kind(state) == "use"
    state = play(state, "use")
    ada = state.players[ADA]
    assert ada.field[0] == legate and b in ada.discard and legate not in ada.discard
    assert_conserved(state)


def test_card_life_warden_legate_may_stay_after_a_spoil_too():
    """Life Warden Legate: "in your field during your Discard Phase" -- a turn that Spoils
    still has its Discard Phase, where the field is discarded (notes 3.2.1), so the
    Legate may keep its card there too."""
    state = new_game()
    legate = made(state, ADA, "Life Warden Legate")
    c = pick(state, ADA, "cursed", 4)
    arrange(state, ADA, field=[legate, c[0], c[1]], on_deck=c[2], deck_top=[c[3]])
    state = play(state, "push")  # Spoiled
    assert frame_kind(state) == "use"
    state = play(state, "use")
    assert state.players[ADA].field[0] == legate


def test_card_murkwater_stalker_places_a_card_costing_six_or_less_from_deck_or_discard():
    """Murkwater Stalker (When Played): search the deck (not the on-deck card) or the
    discard pile for a card whose advancements cost 6 or less together (a card with none
    will do), and place it at the end of the field; placed, not played: no When Played."""
    state = new_game()
    stalker = made(state, ADA, "Murkwater Stalker")
    cheap = made(state, ADA, "Skylark Lookout", "Silt Runner")  # 2 + 3
    dear = made(state, ADA, "Gaia's Avengers", "Silt Runner")  # 5 + 3
    dance = made(state, ADA, "Fairy Dance")  # 3, When Played
    b1, b2 = blanks(state, ADA, 2)
    c1 = pick(state, ADA, "cursed", 1)[0]
    arrange(state, ADA, field=[b1], on_deck=stalker, deck_top=[c1, dear, dance])
    state.players[ADA].deck.remove(cheap)
    state.players[ADA].discard.append(cheap)
    state = play(state, "push")
    assert frame_kind(state) == "search"
    listed = [int(o) for o in state.frames[-1].options]
    assert listed == sorted(listed)  # by card number: the deck's order stays unknown
    options = set(listed)
    assert {cheap, dance, b2} <= options and dear not in options
    assert c1 == state.players[ADA].on_deck and c1 not in options
    state = choose(state, dance)
    ada = state.players[ADA]
    assert ada.field == [b1, stalker, dance] and not state.frames
    assert state.phase == "planting"
    state = new_game()  # from the discard pile
    stalker = made(state, ADA, "Murkwater Stalker")
    cheap = made(state, ADA, "Skylark Lookout", "Silt Runner")
    under = blanks(state, ADA, 2) + pick(state, ADA, "cursed", 6)
    arrange(state, ADA, field=[], on_deck=stalker, deck_top=under, discard=[cheap])
    state = play(state, "push")
    deck = list(state.players[ADA].deck)
    state = choose(state, cheap)
    assert state.players[ADA].field == [stalker, cheap]
    # The deck was searched too: "if you search your deck, you must shuffle it".
    assert sorted(state.players[ADA].deck) == sorted(deck)
    assert state.players[ADA].deck != deck
    assert_conserved(state)


def test_card_nightvale_agent_a_final_harvest_with_two_chosen_cards():
    """Nightvale Agent (End of Game, wherever it is): choose any two of your cards (field,
    deck, discard pile or on deck); discard the field; the two form your field and you
    resolve a Harvest as normal: buying by the usual rules, When Bought abilities
    triggered, bought advancements sleeved onto the field's or the discard pile's cards."""
    state = new_game()
    agent = made(state, ADA, "Nightvale Agent")
    rich = made(state, ADA, "Stormcrest Falconer", "Tuskhorn Matriarch", "Silt Runner")
    soil = next(c for c in pick(state, ADA, "fertile", 3) if kind_of(state, c) == "fertile:middle")
    perch = in_row(state, "Firstlight Perch", 0)  # 2 sky + 2 animal; When Bought: 2 VP
    top_soil = next(i for i in state.commons.fertile if state.cards[i] == "fertile-soil-top")
    b1, b2 = blanks(state, ADA, 2)
    arrange(state, ADA, field=[b1], on_deck=b2, deck_top=[rich], discard=[agent, soil])
    pool_to(state, 0)
    state.last_round = True
    state = play(state, "stop", "done")  # Ada's last turn
    state = play(state, "stop", "done")  # Basil's: the round is over
    assert state.phase != "over" and GAME.to_act(state) == {ADA}
    assert {f"choose|{c}" for c in cards_of(state, ADA)} <= set(keys(state))
    state = play(state, f"choose|{rich}", f"choose|{soil}")
    ada = state.players[ADA]
    assert sorted(ada.field) == sorted([rich, soil])
    assert state.harvest is not None and state.harvest.mana == 5
    before = ada.vp
    state = play(state, f"vale|{perch}")
    assert state.players[ADA].vp == before + 2  # When Bought
    state = play(state, f"buy|{top_soil}", "done")
    assert frame_kind(state) == "sleeve"
    ada = state.players[ADA]
    homes = [int(o) for o in state.frames[-1].options]
    piled = [c for c in homes if c in ada.discard]
    assert soil in homes and piled  # the field's card, or a discard pile's
    state = choose(state, piled[0])
    assert state.card(piled[0]).slots["top"] == [top_soil]
    assert state.phase == "over"
    assert any(top_soil in c.slots["top"] for c in state.physical if c.owner == ADA)
    assert state.scores[str(ADA)] == score(state, ADA)


def test_card_park_gardener_cannot_be_used_the_turn_it_is_bought():
    """Park Gardener: its ability is not used on the turn you buy it (here: sleeved at
    once by an upgraded Stormbrew Titan); on later turns it is."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    upgraded_aside(state, ADA)
    give_vale(state, ADA, "Cloudrest Aerie")
    give_vale(state, ADA, "Coral Grotto")
    gardener = in_row(state, "Park Gardener", 0)  # 1 plant; Harvest: 1 mana per vale
    b = one(state, ADA, "blank")
    state = buying(state, b, mana=3)
    state = play(state, f"buy|{gardener}", f"sleeve|{gardener}|{b}")
    assert harvest_of(state).plant == 1 and harvest_of(state).mana == 0
    state = to_turn_of(play(state, "done"), ADA)
    state = buying(state, b)
    assert harvest_of(state).mana == 2 and harvest_of(state).plant == 1


def test_card_scout_takes_the_top_level_1_vale_for_free_outside_the_buy_limit():
    """Scout (Harvest): take the top card of the level-1 vale deck and buy it for free;
    its When Bought effects trigger; it doesn't count towards the turn's buy limit."""
    state = new_game()
    scout = made(state, ADA, "Scout")
    perch = on_top(state, "Firstlight Perch")  # When Bought: 2 VP
    vales = [i for i in state.commons.vale_rows[1] if i is not None]
    state = buying(state, scout)
    assert state.players[ADA].vales == [perch] and state.players[ADA].vp == 2
    assert harvest_of(state).vale_buys == 0
    fund(state, sky=9, animal=9, water=9, plant=9)
    affordable = [v for v in vales if not PACK.vale(state.cards[v]).cost.curse]
    affordable = [v for v in affordable if not PACK.vale(state.cards[v]).cost.vp]
    state = play(state, f"vale|{affordable[0]}", f"vale|{affordable[1]}")
    assert len(state.players[ADA].vales) == 3


@pytest.mark.parametrize(
    ("where", "pool", "from_pool", "from_box"),
    [
        ("pool", 10, 4, 0),
        ("box", 10, 0, 4),
        ("pool", 2, 2, 2),
    ],
)
def test_card_tribal_warlord_four_vp_from_the_pool_or_from_the_box(
    where, pool, from_pool, from_box
):
    """Tribal Warlord (Harvest): 4 VP, all from the pool (bringing the end nearer) or all
    from the box; with fewer than 4 left in the pool, what is left and the rest from the
    box."""
    state = new_game()
    pool_to(state, pool)
    warlord = made(state, ADA, "Tribal Warlord")
    bare(state, ADA, warlord)
    state = harvesting(state)
    assert sorted(keys(state)) == ["choose|box", "choose|pool"]
    state = choose(state, where)
    assert state.players[ADA].vp == 4
    assert (state.from_pool, state.from_box) == (from_pool, from_box)
    assert state.last_round == (state.pool == 0)
    assert_conserved(state)


def test_card_vale_vanguard_its_owner_never_spoils():
    """Vale Vanguard (While in Field): with it in the field you keep pushing without ever
    Spoiling, your whole deck if you like; in a Prep Phase it is in the field of, no Spoil
    either (the Prep stops at 3 decay as usual)."""
    state = new_game()
    vanguard = made(state, ADA, "Vale Vanguard")
    c = pick(state, ADA, "cursed", 6)
    arrange(state, ADA, field=[vanguard], on_deck=c[0], deck_top=c[1:])
    state = play(state, "push", "push", "push", "push", "push")
    assert decay_count(state, ADA) == 6 and state.phase == "planting"
    assert not state.players[ADA].mana_token
    state = new_game()
    vanguard = made(state, ADA, "Vale Vanguard")
    bramble = made(state, ADA, "Bramble Tumbleworld")  # 2 decay
    c = pick(state, ADA, "cursed", 2)
    arrange(state, ADA, field=[one(state, ADA, "blank")], on_deck=vanguard, deck_top=[*c, bramble])
    state = play(state, "stop", "done")  # the next Prep: Vanguard, 2 Cursed Lands, Bramble
    ada = state.players[ADA]
    assert ada.field == [vanguard, c[0], c[1]] and ada.on_deck == bramble
    assert decay_count(state, ADA) == 4 and not ada.skip_harvest and not ada.mana_token


# =========================================================================== Vales


@pytest.mark.parametrize("take_it", [True, False])
def test_card_celestial_observatory_may_take_the_top_level_1_vale_for_free(take_it):
    """Celestial Observatory (When Bought): look at the top level-1 vale; you may buy it
    for free (its When Bought effects trigger; not one of the turn's buys), or put it back
    on top of its deck."""
    state = new_game()
    observatory = in_row(state, "Celestial Observatory", 0)
    perch = on_top(state, "Firstlight Perch")
    state = buying(state, one(state, ADA, "blank"), sky=5)
    state = play(state, f"vale|{observatory}")
    assert frame_kind(state) == "free_top"
    state = choose(state, "take" if take_it else "decline")
    ada = state.players[ADA]
    if take_it:
        assert ada.vales == [observatory, perch] and ada.vp == 2
    else:
        assert ada.vales == [observatory] and state.commons.vale_decks[1][-1] == perch
    assert harvest_of(state).vale_buys == 1


@pytest.mark.parametrize(("mine", "theirs", "gained"), [(3, 2, 2), (3, 3, 0), (1, 2, 0)])
def test_card_corrupted_world_tree_two_vp_with_more_curse_tokens_than_anyone(mine, theirs, gained):
    """Corrupted World Tree (Harvest): with more curse tokens than every other player, 2
    VP; tied for the most, or fewer, nothing."""
    state = new_game()
    give_vale(state, ADA, "Corrupted World Tree")
    give(state, ADA, curses=mine)
    give(state, BASIL, curses=theirs)
    state = buying(state, one(state, ADA, "blank"))
    assert state.players[ADA].vp == gained


def test_card_earthbound_titan_forge_with_six_curses_places_a_discard_pile_card_in_the_field():
    """Earthbound Titan Forge (When Bought): with 6 or more curse tokens, spend 1 to place
    a card of your discard pile at the end of your field; its Harvest effects help; it is
    placed, not played (no When Played), and you cannot Spoil; no discard pile, no
    effect and no token spent."""
    state = new_game()
    forge = in_row(state, "Earthbound Titan Forge", 0)
    matriarch = made(state, ADA, "Tuskhorn Matriarch")  # 1 mana, 2 animal, 1 guardian
    b = one(state, ADA, "blank", avoid=(matriarch,))
    arrange(state, ADA, field=[b], on_deck=one(state, ADA, "blank", avoid=(b, matriarch)))
    state.players[ADA].deck.remove(matriarch)
    state.players[ADA].discard.append(matriarch)
    give(state, ADA, curses=6)
    state = harvesting(state)
    fund(state, animal=2, plant=1)
    state = play(state, f"vale|{forge}")
    assert frame_kind(state) == "forge" and state.players[ADA].curses == 5
    state = choose(state, matriarch)
    ada = state.players[ADA]
    assert ada.field == [b, matriarch]
    assert (harvest_of(state).mana, harvest_of(state).animal) == (1, 2)
    for curses, discard in ((5, True), (6, False)):
        state = new_game()
        forge = in_row(state, "Earthbound Titan Forge", 0)
        give(state, ADA, curses=curses)
        bare(state, ADA, one(state, ADA, "blank"))
        if not discard:
            state.players[ADA].discard.clear()
        else:
            extra = state.players[ADA].deck.pop(0)
            state.players[ADA].discard.append(extra)
        state = harvesting(state)
        fund(state, animal=2, plant=1)
        state = play(state, f"vale|{forge}")
        assert not state.frames and state.players[ADA].curses == curses


def test_card_hunters_hall_sacrificed_on_a_spoil_for_another_turn():
    """Hunter's Hall: when you Spoil, you may Sacrifice it to take another turn right after
    this one (the Spoiled turn ends as usual: discard, mana token, Prep)."""
    state = new_game()
    hall = give_vale(state, ADA, "Hunter's Hall")
    c = pick(state, ADA, "cursed", 5)
    arrange(state, ADA, field=[c[0], c[1]], on_deck=c[2], deck_top=[c[3], c[4]])
    state = play(state, "push")
    assert frame_kind(state) == "use"
    state = play(state, "use")
    ada = state.players[ADA]
    assert hall in state.boxed and not ada.vales and ada.mana_token
    assert state.active == ADA and state.phase == "planting" and ada.turns == 1
    assert_conserved(state)


def test_hunters_hall_is_not_offered_for_an_extra_turn_that_cannot_happen():
    """Hunter's Hall: "You may only take one additional turn per round." Spoiling in the
    extra turn Executioner gave, there is no other turn to Sacrifice it for: it isn't
    offered, and stays."""
    state = new_game()
    hall = give_vale(state, ADA, "Hunter's Hall")
    executioner = made(state, ADA, "Executioner")
    lands = pick(state, ADA, "cursed", 4)
    b = one(state, ADA, "blank")
    arrange(state, ADA, field=[executioner], on_deck=b, deck_top=lands)
    state = play(state, "stop", "done")  # Executioner: another turn; Prep up to 3 decay
    assert state.active == ADA and state.players[ADA].turns == 1
    state, events = act(state, "push")  # 4 decay: a Spoil in the extra turn
    assert any(e.kind == "spoil" for e in events)
    assert frame_kind(state) != "use"
    assert state.players[ADA].vales == [hall] and state.active == BASIL


def test_card_sacrosanct_nests_may_take_the_top_level_1_advancement_for_free():
    """Sacrosanct Nests (When Bought): look at the top level-1 advancement; you may buy it
    for free (not one of the turn's buys) or put it back; one that can't be sleeved into
    the field goes back on top."""
    state = new_game()
    nests = in_row(state, "Sacrosanct Nests", 0)
    skylark = on_top(state, "Skylark Lookout")
    state = buying(state, *blanks(state, ADA, 2), sky=2, animal=1)
    state = play(state, f"vale|{nests}")
    assert frame_kind(state) == "free_top"
    state = choose(state, "take")
    assert harvest_of(state).bought == [skylark] and harvest_of(state).buys == 0
    state = new_game()  # declined
    nests = in_row(state, "Sacrosanct Nests", 0)
    skylark = on_top(state, "Skylark Lookout")
    state = buying(state, one(state, ADA, "blank"), sky=2, animal=1)
    state = choose(play(state, f"vale|{nests}"), "decline")
    assert state.commons.decks[1][-1] == skylark and not harvest_of(state).bought
    state = new_game()  # no room for it
    nests = in_row(state, "Sacrosanct Nests", 0)
    skylark = on_top(state, "Skylark Lookout")
    state = buying(state, cursed(state, ADA, "top")[0], sky=2, animal=1)
    state = play(state, f"vale|{nests}")
    assert not state.frames and state.commons.decks[1][-1] == skylark


@pytest.mark.parametrize(
    ("vale", "cost"),
    [("Sacrosanct Nests", {"sky": 2, "animal": 1}), ("Celestial Observatory", {"sky": 5})],
)
def test_a_card_looked_at_stays_in_the_lookers_private_view(vale, cost):
    """Sacrosanct Nests, Celestial Observatory: look at the top card of a deck, "you do
    not have to reveal it to other players". It shows in the looker's private view only:
    the question (the table reads it in the ping), the public view and the public lines
    say that a card was looked at, never which; put back, it stays unseen by the others."""
    state = new_game()
    bought = in_row(state, vale, 0)
    state = buying(state, *blanks(state, ADA, 2), **cost)
    seen = json.dumps([GAME.view(state, None), GAME.view(state, ADA)])
    pile = PACK.vales if vale == "Celestial Observatory" else PACK.advancements
    looked = next(c.name for c in pile if c.level == 1 and c.name not in seen)
    on_top(state, looked)
    state, events = act(state, f"vale|{bought}")
    assert frame_kind(state) == "free_top" and events[0].reveals
    public = json.dumps([GAME.view(state, None), GAME.question(state, ADA)])
    public += events_text(events)
    assert "looked at" in public and looked not in public
    assert looked in json.dumps(GAME.view(state, ADA))  # what it is about, for Ada alone
    state, events = act(state, "choose|decline")
    assert looked not in events_text(events)
    assert looked in " ".join(e.text_for(ADA) for e in events)


def test_card_sacrosanct_nests_with_the_level_1_deck_empty_a_fertile_soil_may_be_taken():
    """Sacrosanct Nests: with no advancement left in the level-1 deck, you may choose any
    Fertile Soil remaining and buy it for free (one that fits into the field)."""
    state = new_game()
    nests = in_row(state, "Sacrosanct Nests", 0)
    state.boxed += state.commons.decks[1]
    state.commons.decks[1] = []
    bottom_only = [c for c in cursed(state, ADA, "top")[:1]]  # the top slot is taken
    state = buying(state, *bottom_only, sky=2, animal=1)
    state = play(state, f"vale|{nests}")
    assert frame_kind(state) == "free_row"
    offered_ids = {state.cards[int(o)] for o in state.frames[-1].options if o != "none"}
    assert offered_ids == {"fertile-soil-middle", "fertile-soil-bottom"}
    assert "choose|none" in keys(state)
    state = choose(state, "none")
    assert not harvest_of(state).bought and len(state.commons.fertile) == 18


def test_card_sapling_sanctuary_places_the_top_card_of_the_deck_into_the_field():
    """Sapling Sanctuary (When Bought): place the top card of your deck at the end of your
    field; in the Harvest you cannot Spoil, whatever its decay."""
    state = new_game()
    sanctuary = in_row(state, "Sapling Sanctuary", 0)
    falconer = made(state, ADA, "Stormcrest Falconer")  # 2 mana, 2 sky, 1 decay
    c = pick(state, ADA, "cursed", 3)
    b = one(state, ADA, "blank", avoid=(falconer,))
    arrange(state, ADA, field=c, on_deck=b, deck_top=[falconer])
    state = harvesting(state)
    mana = harvest_of(state).mana
    fund(state, plant=3)
    state = play(state, f"vale|{sanctuary}")
    ada = state.players[ADA]
    assert ada.field == [*c, falconer] and ada.on_deck == b
    assert harvest_of(state).mana == mana + 2 and harvest_of(state).sky == 2
    assert state.phase == "harvest" and decay_count(state, ADA) == 4


@pytest.mark.parametrize("ran_out", [False, True])
def test_card_three_sisters_adds_ten_vp_to_the_pool(ran_out):
    """Three Sisters (When Bought): 10 VP tokens from the box join the pool; if the pool
    had already run out, the game still ends with this round."""
    state = new_game()
    sisters = in_row(state, "Three Sisters", 0)
    if ran_out:
        pool_to(state, 0)
        state.last_round = True
    pool = state.pool
    state = buying(state, one(state, ADA, "blank"), sky=2, water=2, plant=2)
    state = play(state, f"vale|{sisters}")
    assert state.pool == pool + 10 and state.last_round == ran_out
    state = play(state, "done", "stop", "done")
    assert (state.phase == "over") == ran_out


# =========================================================================== Titans


def test_titan_hailburst_starting_side_puts_two_curse_tokens_on_an_advancement_of_the_commons():
    """Hailburst Titan (starting side, Harvest): put 2 of your curse tokens on an
    advancement of the commons (not a Fertile Soil, a Reserved card or a deck); whoever
    buys it gains them."""
    state = new_game(leaders={ADA: "hailburst-titan"})
    give(state, ADA, curses=3)
    target = state.commons.rows[2][0]
    assert target is not None
    bare(state, ADA, leader_card(state, ADA))
    state = harvesting(state)
    assert frame_kind(state) == "curse_commons"
    options = {int(o) for o in state.frames[-1].options}
    rows = {i for row in state.commons.rows.values() for i in row if i is not None}
    assert options == rows | set(state.commons.level4)
    assert not options & set(state.commons.fertile)
    state = choose(state, target)
    assert state.commons.curses == {target: 2}
    assert state.players[ADA].curses == 3 - 2 + 1  # and the titan's own curse symbol
    state = to_turn_of(play(state, "done"), BASIL)
    bare(state, BASIL, *blanks(state, BASIL, 2))
    state = harvesting(state)
    fund(state, mana=9)
    state = play(state, f"buy|{target}")
    assert state.players[BASIL].curses == 2 and not state.commons.curses


def test_titan_hailburst_upgraded_stores_curse_tokens_that_take_no_points_off():
    """Hailburst Titan (upgraded, Harvest): you may put up to 2 of your curse tokens on
    it; those don't subtract from your points."""
    state = new_game(leaders={ADA: "hailburst-titan"})
    upgraded_aside(state, ADA)
    give(state, ADA, curses=3)
    bare(state, ADA, one(state, ADA, "blank"))
    state = harvesting(state)
    state = play(state, "use")
    assert sorted(keys(state)) == ["choose|0", "choose|1", "choose|2"]
    state = choose(state, 2)
    ada = state.players[ADA]
    assert (ada.curses, ada.stored_curses) == (1, 2)
    give(state, BASIL, curses=5)  # Basil holds the most: no 8 points
    assert score(state, ADA) == -1 + PACK.leader("hailburst-titan").upgraded.symbols.end_vp


@pytest.mark.parametrize(
    ("held", "stored", "theirs", "eight"),
    [
        (3, 0, 2, True),
        (3, 0, 3, False),
        (1, 2, 2, True),  # the stored tokens count towards the most
    ],
)
def test_titan_hailburst_upgraded_is_worth_8_with_the_most_curse_tokens(
    held, stored, theirs, eight
):
    """Hailburst Titan (upgraded, End of Game): with more curse tokens than any other
    player, those on the titan included, it is worth 8; tied or fewer, nothing."""
    state = new_game(leaders={ADA: "hailburst-titan"})
    upgraded_aside(state, ADA)
    give(state, ADA, curses=held)
    state.players[ADA].stored_curses = stored
    give(state, BASIL, curses=theirs)
    assert score(state, ADA) == -held + (8 if eight else 0)


def test_titan_magmaborn_starting_side_when_played_may_spend_a_curse_to_discard_any_field_card():
    """Magmaborn Titan (starting side, When Played): you may spend 1 curse token to discard
    any card of your field, the titan included."""
    state = new_game(leaders={ADA: "magmaborn-titan"})
    titan = leader_card(state, ADA)
    c = pick(state, ADA, "cursed", 1)[0]
    b1, b2 = blanks(state, ADA, 2)
    give(state, ADA, curses=1)
    arrange(state, ADA, field=[c, b1], on_deck=titan, deck_top=[b2])
    state = play(state, "push", "use")
    assert frame_kind(state) == "discard_any"
    assert sorted(keys(state)) == sorted(f"choose|{x}" for x in (c, b1, titan))
    state = choose(state, c)
    ada = state.players[ADA]
    assert ada.field == [b1, titan] and c in ada.discard and ada.curses == 0


@pytest.mark.parametrize("deck_empty", [False, True])
def test_titan_magmaborn_starting_side_may_pay_one_mana_to_go_to_the_bottom_of_the_deck(
    deck_empty,
):
    """Magmaborn Titan (starting side, Harvest): you may spend 1 mana to put it at the
    bottom of your deck (under the on-deck card if the deck is empty); used before the
    tokens are taken, it gives neither its VP nor its curse token."""
    state = new_game(leaders={ADA: "magmaborn-titan"})
    titan = leader_card(state, ADA)
    soil = one(state, ADA, "fertile")
    b = one(state, ADA, "blank")
    if deck_empty:
        arrange(state, ADA, field=[titan, soil], on_deck=b, deck_top=[], discard=[])
    else:
        arrange(state, ADA, field=[titan, soil], on_deck=b)
    state = harvesting(state)
    state = play(state, "use")
    ada = state.players[ADA]
    assert ada.deck[0] == titan and ada.field == [soil] and ada.on_deck == b
    assert harvest_of(state).mana == 2 + 1 - 1
    assert (ada.vp, ada.curses) == (0, 0)


def test_titan_magmaborn_starting_side_may_go_to_the_bottom_after_its_tokens_too():
    """Magmaborn Titan (starting side): its bottom-of-deck ability may be used "either
    before or after" its curse and VP tokens are gained: declined before, it is offered
    again once they are taken, and both are kept."""
    state = new_game(leaders={ADA: "magmaborn-titan"})
    titan = leader_card(state, ADA)
    soil = one(state, ADA, "fertile")
    arrange(state, ADA, field=[titan, soil], on_deck=one(state, ADA, "blank"))
    state = harvesting(state)
    assert frame_kind(state) == "use"
    state = play(state, "skip")  # not before the tokens
    ada = state.players[ADA]
    assert (ada.vp, ada.curses) == (1, 1)
    assert frame_kind(state) == "use"  # after them
    state = play(state, "use")
    ada = state.players[ADA]
    assert ada.deck[0] == titan and ada.field == [soil] and (ada.vp, ada.curses) == (1, 1)
    assert harvest_of(state).mana == 2 + 1 - 1
    assert not state.frames and "done" in keys(state)


def test_titan_magmaborn_upgraded_fills_the_field_to_seven_cards_from_the_deck():
    """Magmaborn Titan (upgraded, Harvest): once, you may spend 1 VP to put a field card at
    the bottom of your deck; then, with fewer than seven cards in the field, the deck's top
    cards (not the on-deck card) go face up to the end of the field until there are
    seven; you cannot Spoil, whatever their decay."""
    state = new_game(leaders={ADA: "magmaborn-titan"})
    upgraded_aside(state, ADA)
    give(state, ADA, vp=1)
    soils = pick(state, ADA, "fertile", 3)
    c = pick(state, ADA, "cursed", 5)
    b = one(state, ADA, "blank")
    arrange(state, ADA, field=soils, on_deck=b, deck_top=c)
    state = harvesting(state)
    assert frame_kind(state) == "use"  # spend 1 VP to put a card at the bottom?
    state = play(state, "use")
    state = choose(state, soils[0])
    ada = state.players[ADA]
    assert ada.vp == 0 and ada.deck[0] == soils[0]
    assert ada.field == [soils[1], soils[2], *c] and ada.on_deck == b
    # the mana counted when the Harvest began stays (the card put away had shown 1)
    assert state.phase == "harvest" and harvest_of(state).mana == 3 + 5


def test_titan_manablood_upgraded_buys_a_reserved_advancement_for_free():
    """Manablood Titan (upgraded, Harvest): you may buy one of your Reserved advancements
    for free; not one of the turn's buys (one that can't be sleeved isn't offered)."""
    state = new_game(leaders={ADA: "manablood-titan"})
    upgraded_aside(state, ADA)
    executioner = reserve(state, ADA, "Executioner")  # top, 11 mana
    runner = reserve(state, ADA, "Silt Runner")  # bottom
    bare(state, ADA, cursed(state, ADA, "top")[0])
    state = harvesting(state)
    state = play(state, "use")
    assert sorted(keys(state)) == sorted([f"choose|{runner}", "choose|none"])
    state = new_game(leaders={ADA: "manablood-titan"})
    upgraded_aside(state, ADA)
    executioner = reserve(state, ADA, "Executioner")
    bare(state, ADA, one(state, ADA, "blank"))
    state = harvesting(state)
    state = choose(play(state, "use"), executioner)
    assert harvest_of(state).bought == [executioner] and harvest_of(state).buys == 0
    assert not state.players[ADA].reserved
    assert_conserved(state)


def test_titan_oakenstride_starting_side_cancels_the_curse_tokens_of_one_field_card():
    """Oakenstride Titan (starting side, Harvest): choose a field card showing a curse
    symbol; its curse tokens are cancelled, none gained from it this Harvest."""
    state = new_game(leaders={ADA: "oakenstride-titan"})
    gloomcap = made(state, ADA, "Gloomcap Bargain")  # 1 curse
    ravager = made(state, ADA, "Vinelash Ravager")  # 1 curse
    bare(state, ADA, leader_card(state, ADA), gloomcap, ravager)
    state = harvesting(state)
    assert sorted(keys(state)) == sorted([f"choose|{gloomcap}", f"choose|{ravager}"])
    state = choose(state, gloomcap)
    assert state.players[ADA].curses == 1


@pytest.mark.parametrize(("sky", "vp", "paid"), [(5, 0, (5, 0)), (3, 2, (3, 2)), (0, 5, (0, 5))])
def test_titan_oakenstride_vp_stand_in_for_the_sky_of_its_upgrade(sky, vp, paid):
    """Oakenstride Titan (starting side): VP spent (to the box) lower the sky its upgrade
    costs; 5 VP upgrade it with no sky at all."""
    state = new_game(leaders={ADA: "oakenstride-titan"})
    give(state, ADA, vp=vp)
    state = buying(state, leader_card(state, ADA), sky=sky)
    state = play(state, "upgrade")
    assert harvest_of(state).sky == 0 and state.players[ADA].vp == 0
    assert state.spent_vp == paid[1]


def test_titan_oakenstride_upgraded_may_discard_the_on_deck_card_before_pushing():
    """Oakenstride Titan (upgraded): at the start of your Planting Phase, before pushing,
    you may discard your on-deck card (the next one turns face up)."""
    state = new_game(leaders={BASIL: "oakenstride-titan"})
    upgraded_aside(state, BASIL)
    state = play(state, "stop", "done")  # Ada's turn
    assert state.active == BASIL and frame_kind(state) == "use"
    basil = state.players[BASIL]
    on_deck, next_card = basil.on_deck, basil.deck[-1]
    state = play(state, "use")
    basil = state.players[BASIL]
    assert on_deck in basil.discard and basil.on_deck == next_card
    assert sorted(keys(state)) == ["push", "stop"]


def test_titan_oakenstride_upgraded_the_card_turned_up_next_is_tested_for_a_spoil():
    """Oakenstride Titan (upgraded) discards the on-deck card and the next one turns face
    up: the Spoil test follows every card turned up on deck (notes 3.1.3), so 4 decay
    showing Spoils before any push."""
    state = new_game(leaders={BASIL: "oakenstride-titan"})
    upgraded_aside(state, BASIL)
    lands = pick(state, BASIL, "cursed", 4)
    b = one(state, BASIL, "blank")
    arrange(state, BASIL, field=lands[:3], on_deck=b, deck_top=[lands[3]])
    state = play(state, "stop", "done")  # Ada's turn
    assert state.active == BASIL and frame_kind(state) == "use"
    state, events = act(state, "use")  # the blank goes; a Cursed Land turns up: 4 decay
    assert any(e.kind == "spoil" for e in events)
    basil = state.players[BASIL]
    assert b in basil.discard and basil.mana_token and basil.turns == 1
    assert state.active == ADA


def test_titan_oakenstride_upgraded_returns_curses_up_to_the_growth():
    """Oakenstride Titan (upgraded, Harvest): discard (to the pool) up to as many curse
    tokens as the growth of your field and on-deck card and the growth gained."""
    state = new_game(leaders={ADA: "oakenstride-titan"})
    upgraded_aside(state, ADA)
    give(state, ADA, curses=5)
    warden = made(state, ADA, "Mossback Warden")  # 1 growth
    hedge = made(state, ADA, "Thornbriar Hedge")  # 1 growth
    tiller = made(state, ADA, "Rootsong Tiller")  # 1 growth, on deck
    arrange(state, ADA, field=[warden, hedge], on_deck=tiller)
    state = choose(play(harvesting(state), "use"), 3)
    assert state.players[ADA].curses == 2


@pytest.mark.parametrize(
    ("titan", "field", "most"),
    [
        ("oakenstride-titan", ("Mossback Warden", "Thornbriar Hedge"), 2),  # 1 growth each
        ("tidal-wave-titan", ("Deeptide Sentinel",), 2),  # 2 guardians
    ],
)
def test_shed_up_to_n_curse_tokens_the_player_chooses_how_many(titan, field, most):
    """Oakenstride Titan and Tidal Wave Titan (upgraded): "you may discard ... a number of
    curse tokens ... up to" the growth, or the guardians: any number from 0 to that,
    as the player chooses (not all or nothing)."""
    state = new_game(leaders={ADA: titan})
    upgraded_aside(state, ADA)
    give(state, ADA, curses=5)
    bare(state, ADA, *(made(state, ADA, name) for name in field))
    state = play(harvesting(state), "use")
    assert frame_kind(state) == "shed"
    assert sorted(keys(state)) == [f"choose|{n}" for n in range(most + 1)]
    state = choose(state, 1)
    assert state.players[ADA].curses == 4 and not state.frames


@pytest.mark.parametrize("gain", [True, False])
def test_titan_shardlord_starting_side_takes_a_level_1_vale_free_then_turns_over(gain):
    """Shardlord (starting side, Harvest): buy a level-1 vale for free (not one of the
    vale buys), then turn it over, which is one of the advancement buys. Gain its 1 curse
    and 2 sky first, or turn it over first and gain neither."""
    state = new_game(leaders={ADA: "shardlord"})
    titan = leader_card(state, ADA)
    vale = state.commons.vale_rows[1][2]
    bare(state, ADA, titan, one(state, ADA, "blank"))
    state = harvesting(state)
    assert sorted(keys(state)) == ["choose|first", "choose|gain"]
    state = choose(state, "gain" if gain else "first")
    assert frame_kind(state) == "shardlord_vale"
    state = choose(state, vale)
    ada = state.players[ADA]
    assert ada.vales == [vale] and ada.leader_upgraded and ada.titan_aside
    assert harvest_of(state).vale_buys == 0 and harvest_of(state).buys == 1
    assert (ada.curses, harvest_of(state).sky) == ((1, 2) if gain else (0, 0))
    assert kind_of(state, titan) == "blank"
    assert_conserved(state)


def test_titan_shardlord_upgraded_goes_back_to_its_starting_side_with_a_blank_card_only():
    """Shardlord (upgraded): without a blank card in your field in the Harvest, it cannot
    turn back to its starting side; with one, it may (sleeved into that card)."""
    state = new_game(leaders={ADA: "shardlord"})
    titan = leader_card(state, ADA)
    upgraded_aside(state, ADA)
    sleeved = made(state, ADA, "Skylark Lookout", avoid=(titan,))
    bare(state, ADA, sleeved)
    state = harvesting(state)
    if frame_kind(state) == "use":
        state = play(state, "use")
    assert state.players[ADA].titan_aside and state.players[ADA].leader_upgraded
    state = new_game(leaders={ADA: "shardlord"})
    titan = leader_card(state, ADA)
    upgraded_aside(state, ADA)
    bare(state, ADA, titan)  # a blank card now
    state = play(harvesting(state), "use")
    ada = state.players[ADA]
    assert not ada.titan_aside and not ada.leader_upgraded
    assert state.card(titan).leader == "shardlord"


def test_titan_shardlord_upgraded_moves_advancements_onto_one_card_in_the_discard_phase():
    """Shardlord (upgraded, Discard Phase): you may unsleeve advancements of your field's
    cards and sleeve them onto one card of your field (only those that fit it)."""
    state = new_game(leaders={ADA: "shardlord"})
    upgraded_aside(state, ADA)
    sleeved = made(state, ADA, "Skylark Lookout")
    skylark = state.card(sleeved).slots["top"][0]
    target = one(state, ADA, "blank")
    bare(state, ADA, sleeved, target)
    state = harvesting(state)
    if frame_kind(state) == "use":  # back to its starting side? no
        state = play(state, "skip")
    state = play(state, "done")
    assert frame_kind(state) == "use"
    state = play(state, "use")
    state = choose(state, target)
    state = choose(state, skylark)
    assert state.card(target).slots["top"] == [skylark] and not state.card(sleeved).slots["top"]


def test_titan_stormbrew_starting_side_lets_an_advancement_cover_a_cursed_land():
    """Stormbrew Titan (starting side): an advancement sleeved in the Discard Phase may
    cover a Cursed Land printed on the card, which then no longer counts (no decay, no
    mana)."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    land = cursed(state, ADA, "top")[0]
    skylark = in_row(state, "Skylark Lookout", 0)
    state = buying(state, leader_card(state, ADA), land, mana=2)
    state = play(state, f"buy|{skylark}", "done")
    assert state.card(land).slots["top"] == ["cursed_land", skylark]
    assert shown(state, state.card(land)) == Counter({"sky": 1})
    without = new_game()
    skylark = in_row(without, "Skylark Lookout", 0)
    without = buying(without, cursed(without, ADA, "top")[0], mana=2)
    assert refused(without, f"buy|{skylark}").code == "no-room"


def test_titan_stormbrew_upgraded_sleeves_a_bought_advancement_during_the_harvest():
    """Stormbrew Titan (upgraded, Harvest): you may sleeve one advancement you bought onto a
    field card at once; it is used this turn, a ritual it fulfils included."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    upgraded_aside(state, ADA)
    warden = made(state, ADA, "Mossback Warden")  # 1 guardian
    emissary = in_row(state, "Dawnseeker Emissary", 0)  # 1 sky; ritual: a guardian
    skylark = in_row(state, "Skylark Lookout", 1)
    state = buying(state, warden, one(state, ADA, "blank"), mana=6 - 1)  # + the Warden's 1
    state = play(state, f"buy|{emissary}")
    assert f"sleeve|{emissary}|{warden}" in keys(state)
    state = play(state, f"sleeve|{emissary}|{warden}")
    pool = state.harvest
    assert pool is not None and (pool.sky, pool.mana, pool.guardian) == (1, 2 + 1, 2)
    state = play(state, f"buy|{skylark}")
    assert not any(k.startswith("sleeve|") for k in keys(state))  # one a Harvest


def test_titan_stormbrew_upgraded_sleeved_now_its_curse_tokens_are_gained():
    """Stormbrew Titan (upgraded): the advancement sleeved at once is used that turn, and
    "Curse Tokens": a field card showing a curse token symbol in the Harvest gives that
    many curse tokens, as its VP symbols give VP."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    upgraded_aside(state, ADA)
    bargain = in_row(state, "Gloomcap Bargain", 0)  # 3 mana, 1 decay, 1 curse
    card = one(state, ADA, "blank")
    state = buying(state, card, mana=3)
    state = play(state, f"buy|{bargain}", f"sleeve|{bargain}|{card}")
    assert harvest_of(state).mana == 3
    assert state.players[ADA].curses == 1


def test_titan_stormbrew_upgraded_acts_only_from_the_turn_after_its_upgrade():
    """Upgrading Your Leader: the upgraded ability cannot be used in the Harvest the titan
    was upgraded in (Stormbrew's sleeving at once)."""
    state = new_game(leaders={ADA: "stormbrew-titan"})
    skylark = in_row(state, "Skylark Lookout", 0)
    state = buying(state, leader_card(state, ADA), one(state, ADA, "blank"), mana=2, sky=2, water=2)
    state = play(state, "upgrade", f"buy|{skylark}")
    assert not any(k.startswith("sleeve|") for k in keys(state))


def test_titan_tidal_wave_starting_side_each_guardian_lowers_the_price_by_one_mana():
    """Tidal Wave Titan (starting side): each guardian on an advancement you buy lowers
    its cost by 1 mana; guardians of a ritual's requirement or reward don't."""
    state = new_game(leaders={ADA: "tidal-wave-titan"})
    sentinel = in_row(state, "Deeptide Sentinel", 0)  # 5 mana, 2 guardians
    emissary = in_row(state, "Dawnseeker Emissary", 1)  # 4 mana, guardians in its ritual
    state = buying(state, leader_card(state, ADA), *blanks(state, ADA, 2), mana=3)
    assert refused(state, f"buy|{emissary}").code == "cost"
    state = play(state, f"buy|{sentinel}")
    assert harvest_of(state).mana == 0


def test_titan_tidal_wave_upgraded_returns_curses_up_to_the_guardians():
    """Tidal Wave Titan (upgraded, Harvest): discard (to the pool) up to as many curse
    tokens as the guardians of your field and those gained."""
    state = new_game(leaders={ADA: "tidal-wave-titan"})
    upgraded_aside(state, ADA)
    give(state, ADA, curses=5)
    bare(state, ADA, made(state, ADA, "Deeptide Sentinel"))  # 2 guardians
    state = choose(play(harvesting(state), "use"), 2)
    assert state.players[ADA].curses == 3


# =========================================================================== The contract


def walk(variant: str, seed: int, steps: int, leaders: bool = True) -> list[State]:
    """The states of a game played by a table that pushes while the decay is low and buys
    what it can (each state once, up to `steps` of them)."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {"leaders": "on" if leaders else "off"}, seed)
    chooser = random.Random(seed)
    states = []
    for n in range(steps):
        states.append(state)
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        kinds = {a.kind for a in legal}
        if "push" in kinds:
            push = decay_count(state, seat) < 3 and chooser.random() < 0.7
            action = Action(kind="push" if push else "stop")
        else:
            buys = [a for a in legal if a.kind in ("vale", "buy", "upgrade", "sleeve")]
            action = chooser.choice(buys if buys and chooser.random() < 0.8 else legal)
        state, _ = GAME.apply(state, seat, action, rng_for(seed, n))
    return states


WALKS = [("2p", 3), ("3p", 4), ("4p", 8)]


@pytest.mark.parametrize(("variant", "seed"), WALKS)
def test_contract_legal_actions_have_distinct_short_labels_an_explanation_and_a_question(
    variant, seed
):
    """The Game contract: a seat the game waits for has legal actions, each with a label
    of at most 100 characters that no other of its actions shares, and a non-empty
    explanation; the question is put to the deciders only."""
    seen: Counter[str] = Counter()
    for state in walk(variant, seed, 160):
        for seat in range(len(state.players)):
            legal = GAME.legal_actions(state, seat)
            if seat not in GAME.to_act(state):
                assert legal == [] and GAME.question(state, seat) is None
                continue
            assert legal, f"seat {seat} must decide but has no action"
            labels = [GAME.describe(a, state) for a in legal]
            assert len(set(labels)) == len(labels), labels
            assert all(0 < len(label) <= 100 for label in labels)
            for action in legal:
                assert GAME.explain(action, state, seat), action.key
                seen[action.kind] += 1
            assert GAME.question(state, seat)
        assert GAME.view(state, None)["prompt"]
    assert {"push", "stop", "buy", "done"} <= set(seen)


@pytest.mark.parametrize(("variant", "seed"), WALKS[:2])
def test_contract_apply_refuses_anything_not_legal_and_changes_nothing(variant, seed):
    """The Game contract: `apply` accepts exactly the legal actions; anything else (a
    candidate not legal now, an action of a seat not asked, nonsense) raises
    IllegalAction and leaves the state as it was."""
    junk = [
        Action(kind="buy", args=("abc",)),
        Action(kind="buy", args=("99999",)),
        Action(kind="vale", args=("-1",)),
        Action(kind="choose", args=("nope",)),
        Action(kind="push", args=("1",)),
        Action(kind="sleeve", args=("1",)),
        Action(kind="fly"),
    ]
    for n, state in enumerate(walk(variant, seed, 90)):
        if n % 3:
            continue
        before = state.model_dump_json()
        seats = range(len(state.players))
        for seat in [*seats, len(state.players)]:  # and a seat nobody holds
            asked = seat if seat in seats else state.active
            legal = {a.key for a in GAME.legal_actions(state, seat)} if seat in seats else set()
            for action in [*GAME.candidates(state, asked), *junk]:
                if action.key in legal:
                    continue
                with pytest.raises(IllegalAction) as caught:
                    GAME.apply(state, seat, action, rng_for(seed, n))
                assert caught.value.message
        assert state.model_dump_json() == before
        (seat, *_) = sorted(GAME.to_act(state)) or [None]
        if seat is not None:  # a legal action gives a new state, the old one untouched
            action = GAME.legal_actions(state, seat)[0]
            GAME.apply(state, seat, action, rng_for(seed, n))
            assert state.model_dump_json() == before


def test_a_player_sees_what_their_deck_holds_but_never_its_order() -> None:
    """Every card was built in the open, so a player's view lists the cards in their
    deck and discard pile, in the order of their numbers: shuffling the deck changes
    nothing in it, and no other seat's view (nor the table's) lists them."""
    state = new_game("2p")
    mine = GAME.view(state, 0)
    assert [c["id"] for c in mine["deck_cards"]] == sorted(state.players[0].deck)
    assert [c["id"] for c in mine["discard_cards"]] == sorted(state.players[0].discard)
    shuffled = state.model_copy(deep=True)
    random.Random(1).shuffle(shuffled.players[0].deck)
    assert GAME.view(shuffled, 0)["deck_cards"] == mine["deck_cards"]
    theirs = GAME.view(state, 1)
    assert [c["id"] for c in theirs["deck_cards"]] == sorted(state.players[1].deck)
    assert "deck_cards" not in GAME.view(state, None)


def test_the_end_ranks_every_player_by_score_for_ratings():
    """ "The player with the most VP wins"; behind the winner the others stand by their
    scores (equal scores by the same tie-break as the win), those who conceded last: the
    finishing order the outcome gives the ratings."""
    state = new_game("4p")
    for seat, vp in {ADA: 3, BASIL: 12, CLEO: 7, DOV: 7}.items():
        give(state, seat, vp=vp)
    finish_game(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [BASIL]
    assert outcome.places == [[BASIL], [CLEO, DOV], [ADA]]

    state = new_game("3p")
    for seat, vp in {ADA: 9, BASIL: 2, CLEO: 5}.items():
        give(state, seat, vp=vp)
    state.players[CLEO].conceded = True
    finish_game(state)
    assert GAME.outcome(state).places == [[ADA], [BASIL], [CLEO]]
