"""Mystic Vale (Nemesis), rule by rule: rituals, the eclipse, the end of the game and the
advancements (the set-up and the turn are `test_mystic_vale_rules.py`'s, whose helpers
these use).

Ada is seat 0 and the first player; Basil is seat 1 (Cleo 2, Dov 3).
"""

from __future__ import annotations

import pytest

from rules.core import SeatSpec, rng_for
from rules.mystic_vale import GAME
from rules.mystic_vale.cards import get_pack
from rules.mystic_vale.scoring import finish_game, score
from rules.mystic_vale.symbols import decay_count, shown
from tests.rules.mv_helpers import (
    ADA,
    BASIL,
    CLEO,
    DOV,
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
    made,
    new_game,
    on_top,
    one,
    pick,
    play,
    pool_to,
    put,
    seed_with_first,
    settle,
    upgraded_aside,
)
from tests.rules.test_mystic_vale_rules import (
    PACK,
    bare,
    blanks,
    buying,
    events_text,
    harvest_of,
    refused,
    to_turn_of,
)

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
