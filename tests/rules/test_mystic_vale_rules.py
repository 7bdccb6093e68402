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

from collections import Counter

import pytest

from rules.core import Action, IllegalAction, SeatSpec
from rules.mystic_vale import GAME, State
from rules.mystic_vale.cards import get_pack
from rules.mystic_vale.commons import offered, refill
from rules.mystic_vale.scoring import score
from rules.mystic_vale.state import Harvest
from rules.mystic_vale.symbols import advancement_of, decay_count, shown
from tests.rules.mv_helpers import (
    ADA,
    BASIL,
    NAMES,
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
