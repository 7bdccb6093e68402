"""What Mystic Vale says to a newcomer (issue 21): the lines of a turn, the labels and
descriptions of its menus, the question put to the decider, the end of a game, each
read as the rules write them (`describe`, `explain`, `question`, events).

Ada is seat 0 and the first player; Basil is seat 1.
"""

from __future__ import annotations

from rules.core import Action, Event
from rules.mystic_vale import GAME, State
from rules.mystic_vale.moves import card_label
from tests.rules.mv_helpers import (
    ADA,
    act,
    arrange,
    fund,
    give,
    harvesting,
    in_row,
    made,
    new_game,
    one,
    pick,
    play,
    take,
)

MENU = 100  # what a menu option's label and description hold


def lines_of(events: list[Event], name: str) -> list[str]:
    return [e.text for e in events if e.text.startswith(name)]


def test_a_prep_names_the_cards_it_turns_up_in_one_line():
    """A Prep that turns up six cards tells it in one line, every card named in the order
    it came (planted, then the one left on deck), not a line per card."""
    state = new_game()
    b = pick(state, ADA, "blank", 4)
    c = pick(state, ADA, "cursed", 4)
    order = [b[1], c[0], b[2], c[1], c[2], b[3]]
    arrange(state, ADA, field=[c[3]], on_deck=b[0], deck_top=order)
    state = play(state, "stop")
    state, events = act(state, "done")
    ada = state.players[ADA]
    assert ada.field == [b[0], b[1], c[0], b[2], c[1]] and ada.on_deck == c[2]
    planted = [card_label(state, card) for card in ada.field]
    told = [line for line in lines_of(events, "Ada") if "plants" in line or "face up" in line]
    assert told == [
        f"Ada plants {planted[0]}, then turns up and plants {', '.join(planted[1:-1])} and "
        f"{planted[-1]}, and turns {card_label(state, c[2])} face up on deck."
    ]
    assert any(e.reveals for e in events)


def test_a_push_tells_the_card_planted_and_the_card_turned_up_in_one_line():
    state = new_game()
    b = one(state, ADA, "blank")
    c = one(state, ADA, "cursed")
    arrange(state, ADA, field=[], on_deck=b, deck_top=[c])
    state, events = act(state, "push")
    assert [e.text for e in events] == [
        f"Ada plants a blank card and turns {card_label(state, c)} face up on deck."
    ]
    assert events[0].reveals


def explained(state: State, key: str) -> str:
    return GAME.explain(Action.from_key(key), state, state.active)


def test_a_buy_says_its_price_and_what_the_card_does_not_the_slot_and_level_again():
    """The label names the card, its slot and where it lies; the description under it
    gives the price, then what the card shows and does, whole when it fits."""
    state = new_game()
    falconer = in_row(state, "Stormcrest Falconer")
    state = harvesting(state)
    fund(state, mana=9)
    assert explained(state, f"buy|{falconer}") == "5 mana · Shows 2 mana · 1 decay · 2 sky."


def test_a_description_too_long_for_a_menu_ends_pointing_to_the_full_text():
    """A card whose text doesn't fit in a menu option is cut at a word and points to
    `/card`, where its whole text is."""
    state = new_game()
    forge = in_row(state, "Earthbound Titan Forge")
    state = harvesting(state)
    fund(state, animal=2, plant=1)
    said = explained(state, f"vale|{forge}")
    assert len(said) <= MENU and said.endswith("… full text: /card"), said
    assert said.startswith("2 animal · 1 plant · Shows 1 end VP. When bought: with 6+ curse")


def test_a_card_refilled_from_the_next_level_is_labelled_with_its_own_level():
    """A row whose deck ran out is refilled from the next level's deck: Gravemoss Shrine
    (level 2, as the pack has it) lying in the level-1 row is offered as level 2, in the
    level-1 row, as it is for Reserve."""
    state = new_game()
    shrine = take(state, "Gravemoss Shrine")
    row = state.commons.rows[1]
    state.commons.decks[1].insert(0, row[0])
    row[0] = shrine
    state = harvesting(state)
    fund(state, mana=9)
    label = GAME.describe(Action.from_key(f"buy|{shrine}"), state)
    assert label == "Buy Gravemoss Shrine ✦ (level 2, top; level-1 row, 1 of 3)"


def test_each_place_to_sleeve_says_the_slot_it_fills_and_what_the_card_will_show():
    """Choosing where a bought advancement goes: each card of the field offered says the
    slot it fills (and what it covers there), what the card will show, and which of its
    slots will then be filled."""
    state = new_game()
    blank = one(state, ADA, "blank")
    cursed = one(state, ADA, "cursed:bottom")
    oracle = made(state, ADA, "Duskwing Oracle", avoid=(blank,))  # an eclipse, top
    falconer = in_row(state, "Stormcrest Falconer")  # top: 2 mana · 1 decay · 2 sky
    on_deck = one(state, ADA, "blank", avoid=(blank, oracle))
    arrange(state, ADA, field=[blank, cursed, oracle], on_deck=on_deck)
    state = harvesting(state)
    fund(state, mana=9)
    state = play(state, f"buy|{falconer}", "done")
    said = {card: explained(state, f"choose|{card}") for card in (blank, cursed, oracle)}
    assert said == {
        blank: "Fills the top slot; it will show 2 mana · 1 decay · 2 sky (top filled)",
        cursed: "Fills the top slot; it will show 3 mana · 2 decay · 2 sky (top + bottom filled)",
        oracle: "Fills the top slot, covering Duskwing Oracle ✦; it will show 2 mana · 1 decay · "
        "3 sky (top filled)",
    }


def test_the_harvest_question_offers_vales_then_advancements_as_the_board_counts_them():
    """The question of a Harvest counts the buys left as the board does (vales first;
    none once an advancement is bought), each word agreeing with its number."""
    state = new_game()
    falconer = in_row(state, "Stormcrest Falconer")
    state = harvesting(state)
    pool = fund(state, mana=9 - state.harvest.mana)
    spirits = "".join(
        f", {getattr(pool, s)} {s}" for s in ("sky", "animal", "water", "plant") if getattr(pool, s)
    )
    head = f"your Harvest — 9 mana{spirits}: "
    assert GAME.question(state, ADA) == (
        head + "buy up to 2 vales (spirits), then up to 2 advancements (mana), "
        "then end your Harvest"
    )
    state = play(state, f"buy|{falconer}")
    assert GAME.view(state, None)["harvest"]["vale_buys_left"] == 0
    assert GAME.question(state, ADA) == (
        f"your Harvest — 4 mana{spirits}: buy up to 1 advancement (mana), then end your Harvest"
    )


def test_a_field_of_one_card_is_one_card_wherever_it_is_counted():
    state = new_game()
    arrange(state, ADA, field=[one(state, ADA, "blank")], on_deck=one(state, ADA, "cursed"))
    stop = GAME.explain(Action(kind="stop"), state, ADA)
    assert stop == "Harvest your 1 card: count mana and spirits, then buy"
    state, events = act(state, "stop")
    assert events[0].text == "Ada stops and harvests 1 card."


def test_using_an_ability_says_whose_it_is_what_it_does_and_what_it_costs():
    """An ability its owner may use is offered by its card's name, its description says
    what it does (and what it costs), and the question says it too."""
    state = new_game()
    shrine = made(state, ADA, "Gravemoss Shrine")  # Harvest: may return 1 curse token
    four = made(state, ADA, "Fourwinds Confluence", avoid=(shrine,))  # Harvest: 3 mana → 2 VP
    soils = pick(state, ADA, "fertile", 3)
    arrange(state, ADA, field=[shrine, four, *soils], on_deck=one(state, ADA, "blank"))
    give(state, ADA, curses=2)
    state = harvesting(state)
    shown = {a.key: (GAME.describe(a, state), explained(state, a.key)) for a in legal(state)}
    assert shown == {
        "use": ("Use Gravemoss Shrine ✦'s ability", "Return to the pool up to 1 curse token"),
        "skip": ("Don't use Gravemoss Shrine ✦'s ability", "The ability is not used this time"),
    }
    assert GAME.question(state, ADA) == (
        "use Gravemoss Shrine ✦'s ability? (return to the pool up to 1 curse token)"
    )
    state = play(state, "use")
    assert GAME.describe(Action(kind="use"), state) == "Use Fourwinds Confluence ✦'s ability"
    assert explained(state, "use") == "Pay 3 mana: gain 2 VP"


def legal(state: State) -> list[Action]:
    return GAME.legal_actions(state, state.active)
