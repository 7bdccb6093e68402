"""Mystic Vale (Nemesis), rule by rule: the vales, the titans, and the game contract
through whole random games (the set-up and the turn are `test_mystic_vale_rules.py`'s,
whose helpers these use).

Ada is seat 0 and the first player; Basil is seat 1 (Cleo 2, Dov 3).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.mystic_vale import GAME, State
from rules.mystic_vale.scoring import finish_game, score
from rules.mystic_vale.symbols import decay_count, shown
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
    reserve,
    upgraded_aside,
)
from tests.rules.test_mystic_vale_rules import (
    PACK,
    bare,
    blanks,
    buying,
    cursed,
    events_text,
    harvest_of,
    refused,
    to_turn_of,
)

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
