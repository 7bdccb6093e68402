"""Mystic Vale's Nemesis Solitaire Variant, rule by rule (the rulebook's "Nemesis
Solitaire Variant" and "Nemesis Cards"), with the rulebook's example Nemesis Phase and
every nemesis' abilities. Positions are real solitaire games arranged through the state
models (see mv_helpers); Ada plays alone, seat 0.
"""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, SeatSpec
from rules.mystic_vale import GAME, State
from rules.mystic_vale.cards import Claim, get_pack
from rules.mystic_vale.commons import refill
from rules.mystic_vale.nemesis import claim_card, nemesis_phase, nemesis_score, pile_points
from rules.mystic_vale.scoring import finish_game, most_curses
from rules.mystic_vale.symbols import decay_count, shown
from tests.rules.mv_helpers import (
    ADA,
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
    made,
    on_top,
    pick,
    play,
    pool_to,
    take,
)

PACK = get_pack("nemesis")


def solo(nemesis: str = "plague-scarabs", side: str = "easy", seed: int = 3) -> State:
    """A solitaire game after its set-up, its opening Prep and first Nemesis Phase: Ada
    is in her first Planting Phase (leaders off, to keep positions simple)."""
    options = {"leaders": "off", "nemesis": nemesis, "track": side}
    state = GAME.setup("solo", [SeatSpec(seat=0, name="Ada")], options, seed)
    assert state.phase == "planting" and state.nemesis is not None
    return state


def nemesis_at(state: State, space: int) -> None:
    """Put the hourglass on this space (the abilities of that turn count act)."""
    assert state.nemesis is not None
    state.nemesis.space = space


def the_nemesis(state: State) -> int:
    assert state.nemesis is not None
    return state.nemesis.physical


def blank(state: State, n: int = 1, avoid: tuple = ()) -> list[int]:
    return pick(state, ADA, "blank", n, avoid=(the_nemesis(state), *avoid))


# --------------------------------------------------------------------------- set-up


def test_setup_twelve_level_1_advancements_and_23_vp_tokens() -> None:
    state = solo()
    level_one = [i for i in range(len(state.cards)) if _level(state, i) == 1]
    in_play = state.commons.decks[1] + [i for i in state.commons.rows[1] if i is not None]
    claimed = [i for i in state.nemesis.pile if _level(state, i) == 1]  # type: ignore[union-attr]
    assert len(in_play) + len(claimed) == 12
    assert len([i for i in level_one if i in state.boxed]) == 33 - 12
    assert state.pool_start == 23
    assert_conserved(state)


def _level(state: State, instance: int) -> int | None:
    card = PACK.card(state.cards[instance])
    fertile = getattr(card, "fertile_soil", False)
    return None if fertile else getattr(card, "level", None)


def test_setup_the_nemesis_is_sleeved_face_up_over_a_cursed_land_and_covers_it() -> None:
    state = solo("soulbane")
    card = state.card(the_nemesis(state))
    assert card.nemesis == "soulbane" and "cursed_land" in card.slots["top"]
    assert dict(shown(state, card)) == {"decay": 1}  # the Cursed Land's mana is covered
    assert sum(c.nemesis is not None for c in state.physical) == 1


def test_setup_the_nemesis_chosen_or_drawn_at_random_and_the_track_side_chosen() -> None:
    drawn = {
        GAME.setup("solo", [SeatSpec(seat=0, name="Ada")], {}, seed).nemesis.card  # type: ignore[union-attr]
        for seed in range(40)
    }
    assert len(drawn) > 5 and drawn <= {n.id for n in PACK.nemeses}
    assert solo(side="standard").nemesis.side == "standard"  # type: ignore[union-attr]


def test_setup_leaders_are_on_by_default_in_a_solitaire_game() -> None:
    state = GAME.setup("solo", [SeatSpec(seat=0, name="Ada")], {}, 5)
    assert state.leaders and state.phase == "leaders"


def test_the_lobby_starts_a_solitaire_game_with_one_player() -> None:
    info = GAME.variants["solo"]
    assert (info.min_players, info.max_players) == (1, 1)
    assert GAME.options["nemesis"].only == ("solo",) and GAME.options["track"].only == ("solo",)


# --------------------------------------------------------------------------- the phase


def test_example_nemesis_phase_the_right_level_1_advancement_is_claimed_and_replaced() -> None:
    """The rulebook's example: the first Nemesis Phase moves the hourglass to the first
    space, which claims the level-1 advancement in the right position; it is replaced by
    drawing from the level-1 deck."""
    options = {"leaders": "off", "nemesis": "plague-scarabs", "track": "easy"}
    state = GAME.setup("solo", [SeatSpec(seat=0, name="Ada")], options, 3)
    assert state.nemesis is not None and state.nemesis.space == 1  # after the opening Prep
    (claimed,) = state.nemesis.pile
    assert _level(state, claimed) == 1
    right = state.commons.rows[1][2]
    assert right is not None and right != claimed


def test_nemesis_phase_advance_then_consume_cards_and_vp_into_the_score_pile() -> None:
    state = solo()
    nemesis_at(state, 3)  # the next space claims the centre level-1 advancement and 1 VP
    centre = state.commons.rows[1][1]
    top = state.commons.decks[1][-1]
    pool = state.pool
    events = nemesis_phase(state)
    assert state.nemesis.space == 4  # type: ignore[union-attr]
    assert centre in state.nemesis.pile and state.nemesis.vp == 1  # type: ignore[union-attr]
    assert state.commons.rows[1][1] == top and state.pool == pool - 1
    assert any("claims" in e.text for e in events)
    assert_conserved(state)


def test_nemesis_phase_after_every_prep_even_after_a_spoil() -> None:
    state = solo()
    arrange(state, ADA, field=[], on_deck=the_nemesis(state))
    space = state.nemesis.space  # type: ignore[union-attr]
    spoiler = pick(state, ADA, "cursed", 3, avoid=(the_nemesis(state),))
    arrange(state, ADA, field=spoiler[:2], on_deck=spoiler[2], deck_top=[the_nemesis(state)])
    state, events = act(state, "push")  # 3 Cursed Lands + the nemesis: 4 decay, a Spoil
    assert any(e.kind == "spoil" for e in events)
    assert state.nemesis.space == space + 1  # type: ignore[union-attr]
    assert state.phase == "planting" and state.turn == 1


def test_the_last_space_of_the_track_repeats_for_the_rest_of_the_game() -> None:
    state = solo()
    last = len(PACK.track("easy").spaces) - 1
    nemesis_at(state, last)
    before = len(state.nemesis.pile)  # type: ignore[union-attr]
    nemesis_phase(state)
    nemesis_phase(state)
    assert state.nemesis.space == last  # type: ignore[union-attr]
    assert len(state.nemesis.pile) == before + 2  # type: ignore[union-attr]


def test_a_claimed_card_whose_deck_ran_out_is_replaced_from_the_next_level() -> None:
    state = solo()
    state.boxed += state.commons.decks[1]
    state.commons.decks[1] = []
    level_two_top = state.commons.decks[2][-1]
    claim_card(state, Claim(kind="advancement", level=1, position=2))
    assert state.commons.rows[1][2] == level_two_top
    assert_conserved(state)


def test_the_nemesis_claims_vp_from_the_box_once_the_pool_is_empty_and_the_turn_is_the_last() -> (
    None
):
    state = solo()
    pool_to(state, 1)
    nemesis_at(state, 8)  # the next space claims 1 VP: the pool runs out
    nemesis_phase(state)
    assert state.pool == 0 and state.last_round
    nemesis_phase(state)  # on the next space too: from the box
    assert state.from_box == 1 and state.nemesis.vp == 2  # type: ignore[union-attr]
    assert_conserved(state)


def test_the_pool_running_out_ends_the_game_after_the_turn_its_nemesis_phase_included() -> None:
    state = solo()
    pool_to(state, 1)
    nemesis_at(state, 8)
    state = play(state, "stop", "done")
    while GAME.outcome(state) is None:  # the Discard and Prep of this turn, then the end
        state = play(state, keys(state)[0])
    assert state.phase == "over" and state.turn == 1
    assert state.nemesis.score == nemesis_score(state)  # type: ignore[union-attr]


def test_solitaire_no_turn_follows_the_one_the_pool_runs_out_in_not_even_an_extra_turn() -> None:
    """ "End of the Game" (solitaire): once the pool runs out, the current turn is
    finished, its Nemesis Phase included, and the game ends. The turn is the last even
    when it earned another (Executioner): the pack's reading."""
    state = solo()
    pool_to(state, 1)
    nemesis_at(state, 8)  # the next space claims 1 VP: the pool runs out this turn
    executioner = made(state, ADA, "Executioner")
    arrange(state, ADA, field=[executioner], on_deck=blank(state)[0])
    state, events = act(state, "stop")
    assert state.extra_turn
    state, events = act(state, "done")  # Discard, Prep, the Nemesis Phase: the end
    assert state.phase == "over" and state.turn == 1 and state.players[ADA].turns == 1
    assert "no turn follows" in " ".join(e.text for e in events)


def test_the_corruption_track_never_claims_a_level_4_advancement() -> None:
    for track in PACK.tracks:
        for space in track.spaces:
            assert all(c.level <= 3 for c in space.claims)


def test_cards_referring_to_other_players_are_discarded_from_the_commons_and_replaced() -> None:
    """Corrupted World Tree compares curse tokens with the other players: a solitaire game
    boxes it as it is revealed; Avatar of the Soulless God is replaced from level 3."""
    state = solo()
    tree = take(state, "Corrupted World Tree")
    state.commons.vale_decks[2].append(tree)
    row = state.commons.vale_rows[2]
    state.boxed.append(row[0])  # type: ignore[arg-type]
    row[0] = None
    refill(state)
    assert row[0] is not None and row[0] != tree and tree in state.boxed
    avatar = on_top(state, "Avatar of the Soulless God")
    state.boxed.append(state.commons.rows[3][0])  # type: ignore[arg-type]
    state.commons.rows[3][0] = None
    refill(state)
    replaced = state.commons.rows[3][0]
    assert replaced is not None and replaced != avatar and avatar in state.boxed
    assert_conserved(state)


def test_effects_that_refer_to_other_players_cannot_be_used() -> None:
    state = solo()
    give(state, ADA, curses=5)
    assert not most_curses(state, ADA)


# --------------------------------------------------------------------------- the card


def test_the_nemesis_is_never_discarded_from_the_field_or_on_deck_by_an_ability() -> None:
    state = solo()
    fairy = made(state, ADA, "Fairy Dance", avoid=(the_nemesis(state),))
    arrange(state, ADA, field=[the_nemesis(state)], on_deck=fairy)
    state, _ = act(state, "push")  # Fairy Dance joins the field, right of the nemesis
    assert frame_kind(state) == "use"
    state = play(state, "use")
    assert frame_kind(state) == "discard_field"
    assert state.frames[-1].options == [str(fairy)]  # the rightmost two, but never the nemesis


def test_no_advancement_is_sleeved_onto_a_nemesis() -> None:
    from rules.mystic_vale.moves import slot_takes

    state = solo()
    card = state.card(the_nemesis(state))
    for advancement in PACK.advancements:
        assert not slot_takes(state, card, advancement, over_land=True)


def test_hourglass_decay_counts_only_once_the_hourglass_reaches_it() -> None:
    state = solo("soulbane")
    card = state.card(the_nemesis(state))
    nemesis_at(state, 6)
    assert shown(state, card)["decay"] == 1
    nemesis_at(state, 7)
    assert shown(state, card)["decay"] == 2


def test_an_hourglass_ability_acts_only_on_or_past_its_number() -> None:
    state = solo("plague-scarabs")  # Harvest (from 5): gain 1 curse
    arrange(state, ADA, field=[the_nemesis(state)], on_deck=blank(state)[0])
    nemesis_at(state, 4)
    assert harvesting(state).players[ADA].curses == 0
    nemesis_at(state, 5)
    assert harvesting(state).players[ADA].curses == 1


# --------------------------------------------------------------------------- abilities


def _harvest_with_nemesis(nemesis: str, space: int) -> State:
    """Ada in her Planting with the nemesis alone in her field, the hourglass on `space`."""
    state = solo(nemesis)
    arrange(state, ADA, field=[the_nemesis(state)], on_deck=blank(state)[0])
    nemesis_at(state, space)
    return state


def test_nemesis_soulbane_discards_one_vp_at_harvest() -> None:
    state = _harvest_with_nemesis("soulbane", 3)
    give(state, ADA, vp=2)
    state = harvesting(state)
    assert state.players[ADA].vp == 1 and state.spent_vp == 1


def test_nemesis_wicker_construct_claims_the_left_level_1_advancement_when_revealed() -> None:
    state = solo("wicker-construct")
    nemesis_at(state, 4)
    left = state.commons.rows[1][0]
    arrange(state, ADA, field=[], on_deck=blank(state)[0], deck_top=[the_nemesis(state)])
    state, _ = act(state, "push")
    assert left in state.nemesis.pile  # type: ignore[union-attr]


def test_nemesis_blight_troll_discards_two_field_cards_without_decay() -> None:
    state = solo("blight-troll")
    nemesis_at(state, 3)
    clean = blank(state, 3)
    land = pick(state, ADA, "cursed", 1, avoid=(the_nemesis(state),))[0]
    arrange(state, ADA, field=[clean[0], land, clean[1]], on_deck=clean[2])
    state.players[ADA].deck.append(the_nemesis(state))
    state, _ = act(state, "push")  # clean[2] joins the field; the Troll turns over
    assert frame_kind(state) == "discard_clean"  # three clean cards: Ada chooses two
    state = choose(state, clean[0])
    state = choose(state, clean[2])
    assert state.players[ADA].field == [land, clean[1]]


def test_nemesis_blight_troll_turned_over_after_oakenstride_discards_the_on_deck_card() -> None:
    """Blight Troll acts "when turned over as your on-deck card", however the card before
    it left: Oakenstride Titan (upgraded) discarding the on-deck card turns it over."""
    state = solo("blight-troll")
    nemesis_at(state, 3)
    ada = state.players[ADA]
    ada.leader, ada.leader_upgraded, ada.titan_aside = "oakenstride-titan", True, True
    lands = pick(state, ADA, "cursed", 3, avoid=(the_nemesis(state),))
    clean = blank(state, 3)
    arrange(
        state,
        ADA,
        field=[clean[2]],
        on_deck=lands[0],
        deck_top=[clean[0], clean[1], lands[1], lands[2], the_nemesis(state)],
    )
    state = play(state, "stop", "done")  # Prep: Cursed Land, two blanks, Cursed Land, ...
    ada = state.players[ADA]
    assert ada.field == [lands[0], *clean[:2], lands[1]] and ada.on_deck == lands[2]
    assert frame_kind(state) == "use"  # Oakenstride, before the first push
    state = play(state, "use")  # the Troll turns over: the two blanks go
    ada = state.players[ADA]
    assert ada.on_deck == the_nemesis(state) and ada.field == [lands[0], lands[1]]
    assert_conserved(state)


def test_nemesis_blight_troll_with_every_field_card_showing_decay_does_nothing() -> None:
    state = solo("blight-troll")
    nemesis_at(state, 3)
    lands = pick(state, ADA, "cursed", 2, avoid=(the_nemesis(state),))
    arrange(state, ADA, field=[lands[0]], on_deck=lands[1], deck_top=[the_nemesis(state)])
    state, _ = act(state, "push")
    assert state.players[ADA].field == lands


def test_nemesis_scourge_satyr_cancels_a_spirit_symbol_of_the_players_choice() -> None:
    state = solo("scourge-satyr")
    nemesis_at(state, 2)
    sky = made(state, ADA, "Skylark Lookout", avoid=(the_nemesis(state),))
    animal = made(state, ADA, "Bristleback Charger", avoid=(the_nemesis(state), sky))
    arrange(
        state,
        ADA,
        field=[sky, the_nemesis(state), animal],
        on_deck=blank(state, 1, (sky, animal))[0],
    )
    state = harvesting(state)
    assert frame_kind(state) == "cancel_spirit" and state.frames[-1].options == ["sky", "animal"]
    state = choose(state, "animal")
    assert state.harvest is not None and (state.harvest.sky, state.harvest.animal) == (1, 0)
    assert shown(state, state.card(animal))["animal"] == 1  # still on the card (rituals)


def test_nemesis_scourge_satyr_with_one_spirit_symbol_cancels_it_without_asking() -> None:
    state = solo("scourge-satyr")
    nemesis_at(state, 2)
    sky = made(state, ADA, "Skylark Lookout", avoid=(the_nemesis(state),))
    arrange(state, ADA, field=[sky, the_nemesis(state)], on_deck=blank(state, 1, (sky,))[0])
    state = harvesting(state)
    assert frame_kind(state) is None and state.harvest is not None and state.harvest.sky == 0


def test_nemesis_curseborn_dryad_takes_five_mana_and_two_spirit_symbols() -> None:
    state = solo("curseborn-dryad")
    nemesis_at(state, 1)
    avoid = (the_nemesis(state),)
    rich = [made(state, ADA, "Bristleback Charger", avoid=avoid)]
    rich.append(made(state, ADA, "Skylark Lookout", avoid=(*avoid, *rich)))
    rich.append(made(state, ADA, "Embermoth Swarm", avoid=(*avoid, *rich)))
    soil = pick(state, ADA, "fertile", 3)
    field = [*rich, *soil, the_nemesis(state)]  # 2 + 3 mana, animal, 2 sky
    arrange(state, ADA, field=field, on_deck=blank(state, 1, tuple(rich))[0])
    state = harvesting(state)
    assert state.harvest is not None and state.harvest.mana == 0  # 5 mana taken
    assert frame_kind(state) == "cancel_spirit"  # 3 spirit symbols, 2 to cancel
    state = choose(state, "sky")
    state = choose(state, "sky")
    assert (state.harvest.sky, state.harvest.animal) == (0, 1)
    assert shown(state, state.card(the_nemesis(state)))["growth"] == 1  # growth, no decay


def test_nemesis_tormented_berserker_sacrifice_a_vale_or_discard_3_vp() -> None:
    state = solo("tormented-berserker")
    nemesis_at(state, 2)
    vale = give_vale(state, ADA, "Sapling Sanctuary")
    give(state, ADA, vp=4)
    spoiler = pick(state, ADA, "cursed", 3, avoid=(the_nemesis(state),))
    arrange(state, ADA, field=[the_nemesis(state), *spoiler[:2]], on_deck=spoiler[2])
    state, _ = act(state, "push")
    assert frame_kind(state) == "toll"
    state = choose(state, "vp")
    assert state.players[ADA].vp == 1 and state.players[ADA].vales == [vale]


def test_nemesis_tormented_berserker_without_vale_and_short_of_3_vp_discards_every_vp() -> None:
    state = solo("tormented-berserker")
    nemesis_at(state, 2)
    give(state, ADA, vp=2)
    spoiler = pick(state, ADA, "cursed", 3, avoid=(the_nemesis(state),))
    arrange(state, ADA, field=[the_nemesis(state), *spoiler[:2]], on_deck=spoiler[2])
    state, _ = act(state, "push")
    assert state.players[ADA].vp == 0 and state.spent_vp == 2


def test_nemesis_abomination_you_must_push_at_least_twice() -> None:
    state = solo("abomination")
    nemesis_at(state, 1)
    cards = blank(state, 3)
    arrange(state, ADA, field=[the_nemesis(state)], on_deck=cards[0], deck_top=cards[1:])
    with pytest.raises(IllegalAction, match="push at least twice"):
        act(state, "stop")
    assert "stop" not in keys(state)
    assert "you must push at least twice this turn (0 so far)" in GAME.question(state, ADA)
    state = play(state, "push", "push")
    assert "stop" in keys(state)


def test_nemesis_abomination_placed_in_the_field_during_the_harvest_goes_under_the_on_deck() -> (
    None
):
    state = solo("abomination")
    nemesis_at(state, 1)
    cards = blank(state, 2)
    arrange(state, ADA, field=[cards[0]], on_deck=cards[1], deck_top=[the_nemesis(state)])
    state = harvesting(state)
    in_row(state, "Sapling Sanctuary")
    fund(state, plant=3)
    sapling = next(k for k in keys(state) if k.startswith("vale|"))
    state = play(state, sapling)  # it places the deck's top card, the Abomination
    assert the_nemesis(state) not in state.players[ADA].field
    assert state.players[ADA].deck[-1] == the_nemesis(state)
    assert state.players[ADA].on_deck == cards[1]
    assert_conserved(state)


def test_nemesis_brood_queen_claims_a_vp_at_harvest() -> None:
    state = _harvest_with_nemesis("brood-queen", 4)
    state = harvesting(state)
    assert state.nemesis.vp == 1  # type: ignore[union-attr]


def test_nemesis_fallen_druid_takes_mana_and_claims_a_vale() -> None:
    state = _harvest_with_nemesis("fallen-druid", 6)
    fourth = state.commons.vale_rows[1][3]
    state = harvesting(state)
    assert fourth in state.nemesis.pile  # type: ignore[union-attr]


def test_nemesis_blighted_dragon_shows_two_decay_and_curses_at_harvest() -> None:
    state = _harvest_with_nemesis("blighted-dragon", 3)
    assert decay_count(state, ADA) == 2
    state = harvesting(state)
    assert state.players[ADA].curses == 1


def test_nemesis_corrupted_centaur_turned_over_spoils_whatever_the_decay() -> None:
    state = solo("corrupted-centaur")
    nemesis_at(state, 5)
    cards = blank(state, 2)
    arrange(state, ADA, field=[cards[0]], on_deck=cards[1], deck_top=[the_nemesis(state)])
    assert decay_count(state, ADA) == 0
    state, events = act(state, "push")
    (spoiled,) = [e for e in events if e.kind == "spoil"]
    assert spoiled.text.startswith("Ada Spoils with 1 decay")  # the Centaur's own: far from 4
    assert state.players[ADA].mana_token


def test_nemesis_corrupted_centaur_turned_over_in_prep_skips_the_next_harvest() -> None:
    state = solo("corrupted-centaur")
    nemesis_at(state, 5)
    cards = blank(state, 3)
    arrange(state, ADA, field=[cards[0]], on_deck=cards[1], deck_top=[cards[2], the_nemesis(state)])
    state, _ = act(state, "stop")
    state, events = act(state, "done")  # Prep: blank, blank, then the Centaur turns up
    told = [e.text for e in events]
    assert "Ada Spoils in their Prep Phase (1 decay): no Harvest next turn." in told
    assert "Ada Spoiled in Prep: no Harvest this turn." in told  # the next turn, at once
    assert state.turn == 2 and state.phase == "planting"  # then the turn after begins


def test_corrupted_centaur_causes_one_spoil() -> None:
    """ "Nemesis Cards", Corrupted Centaur: turned over, it makes you Spoil, once. Turned
    over by a push that reaches 4 decay anyway, that push's Spoil is the one it causes:
    the Prep that follows does not Spoil again, and the next Harvest is played."""
    state = solo("corrupted-centaur")
    nemesis_at(state, 5)
    lands = pick(state, ADA, "cursed", 3, avoid=(the_nemesis(state),))
    arrange(
        state,
        ADA,
        field=lands[:2],
        on_deck=lands[2],
        deck_top=[the_nemesis(state), *blank(state, 3)],
    )
    state, events = act(state, "push")  # three Cursed Lands and the Centaur: 4 decay
    assert [e.kind for e in events].count("spoil") == 1
    assert state.phase == "planting" and state.turn == 1
    assert not state.players[ADA].skip_harvest
    assert not state.nemesis.forced_spoil  # type: ignore[union-attr]


def test_nemesis_corrupted_centaur_has_no_effect_when_you_cannot_spoil() -> None:
    state = solo("corrupted-centaur")
    nemesis_at(state, 5)
    vanguard = made(state, ADA, "Vale Vanguard", avoid=(the_nemesis(state),))
    cards = blank(state, 1, (vanguard,))
    arrange(state, ADA, field=[vanguard], on_deck=cards[0], deck_top=[the_nemesis(state)])
    state, events = act(state, "push")
    assert not any(e.kind == "spoil" for e in events)
    assert state.phase == "planting" and not state.players[ADA].mana_token


def test_nemesis_watcher_in_the_wood_claims_the_centre_level_2_advancement() -> None:
    state = solo("watcher-in-the-wood")
    nemesis_at(state, 2)
    centre = state.commons.rows[2][1]
    cards = blank(state, 2)
    arrange(state, ADA, field=[cards[0]], on_deck=cards[1], deck_top=[the_nemesis(state)])
    state, _ = act(state, "push")
    assert centre in state.nemesis.pile  # type: ignore[union-attr]


def test_every_nemesis_ability_has_its_rules_and_text() -> None:
    from rules.mystic_vale.text import card_text

    assert len(PACK.nemeses) == 13
    assert {n.pips for n in PACK.nemeses} == {1, 2, 3, 4}
    for nemesis in PACK.nemeses:
        assert card_text(nemesis).startswith("Nemesis, ")
        assert nemesis.abilities, nemesis.name


# --------------------------------------------------------------------------- scoring


def test_scoring_end_of_game_effects_in_the_nemesis_pile_count_four_negative_vp_nothing() -> None:
    state = solo()
    state.nemesis.pile = []  # type: ignore[union-attr]
    for name in ("Bramble Tumbleworld", "Gnawing Blightmaw"):
        state.nemesis.pile.append(take(state, name))  # type: ignore[union-attr]
    points, effects = pile_points(state)
    bramble = PACK.advancement("Bramble Tumbleworld").symbols.end_vp
    assert (points, effects) == (4 + max(0, bramble), 1)  # Gnawing Blightmaw's -2: nothing


def test_scoring_the_nemesis_adds_its_vp_tokens_and_its_power() -> None:
    state = solo("soulbane")
    state.nemesis.pile = []  # type: ignore[union-attr]
    state.nemesis.vp = 3  # type: ignore[union-attr]
    assert nemesis_score(state) == 3 + PACK.nemesis("soulbane").power


@pytest.mark.parametrize(("mine", "won"), [(11, True), (10, False), (9, False)])
def test_scoring_the_player_wins_only_with_strictly_more_points(mine: int, won: bool) -> None:
    state = solo("soulbane")
    state.nemesis.pile = []  # type: ignore[union-attr]
    state.nemesis.vp = 10 - PACK.nemesis("soulbane").power  # type: ignore[union-attr]
    give(state, ADA, vp=mine)
    finish_game(state)
    assert (state.winners == [ADA]) is won
    assert state.nemesis.score == 10  # type: ignore[union-attr]


def test_a_solitaire_concession_loses_to_the_nemesis() -> None:
    state = solo()
    state, _ = GAME.concede(state, ADA, __import__("random").Random(1))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [] and outcome.losers == [ADA]
    assert "wins" in outcome.text


def test_a_sacrificed_card_no_longer_has_any_impact_hunters_hall_taken_by_the_nemesis() -> None:
    """ "Sacrificed cards no longer have any impact on the game": Tormented Berserker's
    toll at a Spoil sacrifices Hunter's Hall (her only vale); its own When you Spoil
    ability, set off by the same Spoil, is not offered, no extra turn follows, and the
    card is in the box once."""
    state = solo("tormented-berserker")
    nemesis_at(state, 2)
    hall = give_vale(state, ADA, "Hunter's Hall")
    spoiler = pick(state, ADA, "cursed", 5, avoid=(the_nemesis(state),))
    arrange(
        state,
        ADA,
        field=[the_nemesis(state), *spoiler[:2]],
        on_deck=spoiler[2],
        deck_top=spoiler[3:],
    )
    state, _ = act(state, "push")
    while frame_kind(state) in ("toll", "use"):
        assert frame_kind(state) != "use", "the sacrificed Hunter's Hall is offered"
        state = choose(state, "vale")
    assert state.boxed.count(hall) == 1 and hall not in state.players[ADA].vales
    assert state.players[ADA].turns == 1 and state.extra_turn is False
    assert_conserved(state)


def test_setup_a_lone_player_shuffles_their_own_cards() -> None:
    """The set-up's shuffle, told of the one player of a solitaire game by name (not
    "every player")."""
    from rules.core import rng_for
    from rules.mystic_vale.setup import shuffle_decks

    state = solo()
    events = shuffle_decks(state, rng_for(3, 0))
    assert [e.text for e in events] == ["Ada shuffles their 20 cards into a deck."]
