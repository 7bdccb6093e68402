"""The rules of their own that a few cards have, each as the rulebook's clarification of
the card says (the card names are in `cards.SPECIALS`). Each handler resolves its card's
op, or asks a decision (a `Frame`) whose answer `ANSWERS` resolves.

Readings where the clarification leaves a choice:
- Tribal Warlord: the player picks the pool or the box; the pool gives what it has
  left and the box the rest.
- Hailburst Titan (starting side): it places 2 curse tokens if the player holds 2,
  else the ones they hold; tokens on an advancement go with it to whoever buys or
  Reserves-then-buys it, and back to the pool when it leaves the commons otherwise.
- Manablood Titan (upgraded): one Reserved advancement a Harvest, for free.
- Oakenstride Titan (upgraded): "the number of growth you gained" counts growth on the
  field and the on-deck card and growth gained from abilities.
- Shardlord (starting side): "gain 1 curse and 2 sky, then take a level-1 vale of the
  row for free and upgrade", or "upgrade first" (no curse, no sky); the upgrade needs no
  cost and is one of the Harvest's two buys. Upgraded, with a blank card in the field, it
  may be sleeved back into that card on its starting side.
- Gargoyle Summoner: the four leaders are drawn from those no player holds; the
  unsleeved advancements are sleeved again in the Discard Phase, where they fit.
- Nightvale Agent: see `final_harvest`.
- The nemeses (solitaire): Blight Troll discards the cards without decay there are when
  there are two or fewer (the player chooses among more); a card "has" decay when it
  shows any, cancelled or not (its ritual's requirements show none, a fulfilled
  reward's do). Tormented Berserker: the player chooses when both are possible; with
  neither possible, they discard every VP they hold. The nemesis card is never among the
  cards an ability lets one discard.
"""

from __future__ import annotations

import random

from rules.core.rng import pick, shuffle
from rules.mystic_vale import abilities, harvest, turn
from rules.mystic_vale.abilities import ANSWERS, READY, SPECIALS
from rules.mystic_vale.commons import one_of_each, take
from rules.mystic_vale.moves import (
    all_fit,
    card_label,
    discard_from_field,
    gain_curses,
    gain_vp,
    name_of,
    shed_curses,
    sleeve,
    slot_takes,
    spend_vp,
)
from rules.mystic_vale.scoring import most_curses
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import Frame, Pending, State
from rules.mystic_vale.symbols import (
    advancement_of,
    advancements_on,
    field_total,
    is_blank,
    pack_of,
    shown,
)

TRIBAL_WARLORD_VP = 4
CORRUPTED_WORLD_TREE_VP = 2
TITAN_FORGE_CURSES = 6  # Earthbound Titan Forge needs this many curse tokens
CURSES_PLACED = 2  # Hailburst Titan
FIELD_OF_SEVEN = 7  # Magmaborn Titan, upgraded
GARGOYLE_LEADERS = 4
BLIGHT_TROLL_DISCARDS = 2
BERSERKER_VP = 3  # Tormented Berserker: the VP discarded instead of a vale


def _ask(
    state: State, seat: int, kind: str, prompt: str, options: list[str], subject: int | None = None
) -> None:
    state.frames.append(
        Frame(kind=kind, deciders=[seat], prompt=prompt, options=options, subject=subject)
    )


def _into_field(state: State, seat: int, card_id: int, *, from_deck: bool) -> Events:
    """A card placed (not played) at the end of the field during a Harvest: what it shows
    is added to the Harvest, its Harvest abilities go off; no When Played, no Spoil.
    `from_deck`: it was the deck's face-down top card (else it comes from the discard
    pile, where it lay face up)."""
    player = state.players[seat]
    player.field.append(card_id)
    events = [
        _ev(
            "place",
            f"{player.name} places {card_label(state, card_id)} at the end of their field.",
            seat,
            reveals=from_deck,
        )
    ]
    pool = state.harvest
    if pool is None or state.phase != "harvest":
        return events
    symbols = shown(state, state.card(card_id))
    for key in harvest.SPENDABLE:
        setattr(pool, key, getattr(pool, key) + symbols[key])
    if pool.scored:
        events += harvest.late_tokens(state, seat, card_id, symbols)
    abilities.set_off(
        state, seat, "harvest", [(s, card_id) for s in abilities.card_sources(state, card_id)]
    )
    return events


def _top_card(state: State, seat: int, rng: random.Random, events: Events) -> int | None:
    """The first face-down card of the deck (the discard pile shuffled in if it's empty,
    which `events` is told)."""
    player = state.players[seat]
    if not player.deck and player.discard:
        player.deck, player.discard = player.discard, []
        shuffle(player.deck, rng)
        text = f"{player.name} shuffles their discard pile into a new deck."
        events.append(_ev("shuffle", text, seat))
    return player.deck.pop() if player.deck else None


def _to_bottom(state: State, seat: int, card_id: int) -> Events:
    """A field card goes to the bottom of the deck (under the on-deck card if the deck is
    empty)."""
    player = state.players[seat]
    player.field.remove(card_id)
    player.shown_under = min(player.shown_under, len(player.deck)) + 1
    player.deck.insert(0, card_id)
    return [
        _ev(
            "bottom",
            f"{player.name} puts {card_label(state, card_id)} at the bottom of their deck.",
            seat,
        )
    ]


# --------------------------------------------------------------------------- advancements


def tribal_warlord(state: State, p: Pending, rng: random.Random) -> Events | None:
    _ask(
        state,
        p.seat,
        "warlord",
        f"take {TRIBAL_WARLORD_VP} VP from the pool (bringing the end closer) or from the box?",
        ["pool", "box"],
    )
    return None


def _warlord(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    return gain_vp(state, seat, TRIBAL_WARLORD_VP, from_box=option == "box")


def gargoyle_summoner(state: State, p: Pending, rng: random.Random) -> Events | None:
    held = {pl.leader for pl in state.players} | {c.leader for c in state.physical}
    box = [leader.id for leader in pack_of(state).leaders if leader.id not in held]
    drawn = []
    for _ in range(min(GARGOYLE_LEADERS, len(box))):
        drawn.append(box.pop(pick(len(box), rng)))
    state.gargoyle = sorted(drawn)
    field = state.players[p.seat].field
    cards = [str(c) for c in field if advancements_on(state, state.card(c))]
    if cards:
        # An op that asks returns no events: the draw is told with the answer, and the
        # question names the leaders drawn meanwhile.
        _ask(
            state,
            p.seat,
            "gargoyle_unsleeve",
            f"you draw {_drawn(state)} from the box: choose a card of your field to "
            "unsleeve (its advancements are sleeved again in your Discard Phase), or none",
            [*cards, "none"],
        )
        return None
    return _gargoyle_drawn(state, p.seat) + _gargoyle_leader(state, p.seat)


def _drawn(state: State) -> str:
    return ", ".join(pack_of(state).leader(i).shown_name for i in state.gargoyle)


def _gargoyle_drawn(state: State, seat: int, *, asked: bool = False) -> Events:
    """The line telling the leaders drawn; once `asked` (the question named them, and
    was the reveal) it shows nothing new."""
    line = f"{state.players[seat].name} draws four leaders: {_drawn(state)}."
    return [_ev("drawn" if asked else "gargoyle", line, seat)]


def _gargoyle_unsleeve(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    events = _gargoyle_drawn(state, seat, asked=True)
    if option != "none":
        card = state.card(int(option))
        taken = advancements_on(state, card)
        for stack in card.slots.values():
            stack[:] = [layer for layer in stack if isinstance(layer, str)]
        assert state.harvest is not None
        state.harvest.bought += taken
        names = ", ".join(name_of(state, i) for i in taken)
        events.append(_ev("unsleeve", f"{state.players[seat].name} unsleeves {names}.", seat))
    return events + _gargoyle_leader(state, seat)


def _gargoyle_leader(state: State, seat: int) -> Events:
    blanks = [c for c in state.players[seat].field if is_blank(state, state.card(c))]
    if not blanks or not state.gargoyle:
        state.gargoyle = []
        return []
    _ask(
        state,
        seat,
        "gargoyle_leader",
        "choose the leader sleeved on its upgraded side into a blank card of your field",
        list(state.gargoyle),
        subject=next((b for b in blanks if _room_left(state, seat, b)), blanks[0]),
    )
    return []


def _room_left(state: State, seat: int, blank: int) -> bool:
    """Whether what was bought still fits the field once this blank card holds a leader
    (blank cards are alike, so the leader goes where it blocks nothing)."""
    card = state.card(blank)
    card.leader = "?"
    fits = all_fit(state, seat, list(state.harvest.bought) if state.harvest else [])
    card.leader = None
    return fits


def _gargoyle_pick(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    assert frame.subject is not None
    card = state.card(frame.subject)
    card.leader = option
    card.upgraded = True
    state.gargoyle = []
    name = pack_of(state).leader(option).shown_name
    return [
        _ev(
            "leader",
            f"{state.players[seat].name} sleeves {name}, upgraded, into a blank card.",
            seat,
            reveals=True,  # one of the leaders drawn from the box, shown to its player
        )
    ]


# --------------------------------------------------------------------------- vales


def most_curses_vp(state: State, p: Pending, rng: random.Random) -> Events | None:
    if not most_curses(state, p.seat):
        return [
            _ev(
                "fizzle",
                f"{state.players[p.seat].name} doesn't hold the most curse tokens.",
                p.seat,
            )
        ]
    return gain_vp(state, p.seat, CORRUPTED_WORLD_TREE_VP)


def titan_forge(state: State, p: Pending, rng: random.Random) -> Events | None:
    player = state.players[p.seat]
    if player.curses < TITAN_FORGE_CURSES or not player.discard:
        return [_ev("fizzle", f"{player.name} can't use the Titan Forge now.", p.seat)]
    shed_curses(state, p.seat, 1)
    _ask(
        state,
        p.seat,
        "forge",
        "choose a card of your discard pile to place at the end of your field",
        [str(c) for c in player.discard],
    )
    return None


def _forge(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    state.players[seat].discard.remove(int(option))
    return _into_field(state, seat, int(option), from_deck=False)


def place_top_card(state: State, p: Pending, rng: random.Random) -> Events | None:
    events: Events = []
    card = _top_card(state, p.seat, rng, events)
    if card is None:
        return [_ev("fizzle", "There is no card left to place.", p.seat)]
    return events + _into_field(state, p.seat, card, from_deck=True)


# --------------------------------------------------------------------------- leaders


def curse_the_commons(state: State, p: Pending, rng: random.Random) -> Events | None:
    player = state.players[p.seat]
    targets = [i for row in state.commons.rows.values() for i in row if i is not None]
    targets += state.commons.level4
    if not player.curses or not targets:
        return []
    _ask(
        state,
        p.seat,
        "curse_commons",
        f"choose an advancement of the commons to put {min(CURSES_PLACED, player.curses)} "
        "of your curse tokens on",
        [str(i) for i in targets],
    )
    return None


def _curse_commons(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    player = state.players[seat]
    n = min(CURSES_PLACED, player.curses)
    player.curses -= n
    instance = int(option)
    state.commons.curses[instance] = state.commons.curses.get(instance, 0) + n
    return [
        _ev("curse", f"{player.name} puts {n} curse tokens on {name_of(state, instance)}.", seat)
    ]


def store_curses(state: State, p: Pending, rng: random.Random) -> Events | None:
    player = state.players[p.seat]
    most = min(CURSES_PLACED, player.curses)
    if not most:
        return []
    _ask(
        state,
        p.seat,
        "store_curses",
        "choose how many of your curse tokens go onto Hailburst Titan (they take no points off)",
        [str(n) for n in range(most + 1)],
    )
    return None


def _store_curses(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    player = state.players[seat]
    n = int(option)
    player.curses -= n
    player.stored_curses += n
    return [_ev("curse", f"{player.name} puts {n} curse tokens on their titan.", seat)] if n else []


def _discardable(state: State, seat: int) -> list[int]:
    """The field's cards an ability may discard (never the nemesis), rightmost first."""
    field = state.players[seat].field
    return [c for c in reversed(field) if state.card(c).nemesis is None]


def discard_any_for_curse(state: State, p: Pending, rng: random.Random) -> Events | None:
    cards = _discardable(state, p.seat)
    if not cards:
        return []
    _ask(
        state,
        p.seat,
        "discard_any",
        "choose a card of your field to discard",
        [str(c) for c in cards],
    )
    return None


def _discard_any(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    return discard_from_field(state, seat, int(option))


def titan_to_bottom(state: State, p: Pending, rng: random.Random) -> Events | None:
    if p.card is None or p.card not in state.players[p.seat].field:
        return []
    return _to_bottom(state, p.seat, p.card)


def card_to_bottom(state: State, p: Pending, rng: random.Random) -> Events | None:
    field = state.players[p.seat].field
    if not field:
        return []
    _ask(
        state,
        p.seat,
        "to_bottom",
        "choose a card of your field to put at the bottom of your deck",
        [str(c) for c in reversed(field)],
    )
    return None


def _to_bottom_answer(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    return _to_bottom(state, seat, int(option))


def field_of_seven(state: State, p: Pending, rng: random.Random) -> Events | None:
    events: Events = []
    while len(state.players[p.seat].field) < FIELD_OF_SEVEN:
        card = _top_card(state, p.seat, rng, events)
        if card is None:
            break
        events += _into_field(state, p.seat, card, from_deck=True)
    return events


def free_reserved(state: State, p: Pending, rng: random.Random) -> Events | None:
    # Only one that can be sleeved into the field (with what was bought): a bought
    # advancement always has a card to go into.
    bought = state.harvest.bought if state.harvest is not None else []
    reserved = [i for i in state.players[p.seat].reserved if all_fit(state, p.seat, [*bought, i])]
    if not reserved:
        return []
    _ask(
        state,
        p.seat,
        "free_reserved",
        "choose one of your Reserved advancements to take for free, or none",
        [*(str(i) for i in one_of_each(state, reserved)), "none"],
    )
    return None


def _free_reserved(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    if option == "none":
        return []
    instance = int(option)
    state.players[seat].reserved.remove(instance)
    return abilities.commons_curses(state, seat, instance) + abilities.acquire(
        state, seat, instance, free=True
    )


def cancel_card_curses(state: State, p: Pending, rng: random.Random) -> Events | None:
    cursed = [c for c in state.players[p.seat].field if shown(state, state.card(c))["curse"]]
    if not cursed:
        return []
    if len(cursed) == 1:
        return _cancel_card(state, p.seat, cursed[0])
    _ask(
        state,
        p.seat,
        "cancel_curses",
        "choose a card of your field whose curse tokens are cancelled this Harvest",
        [str(c) for c in cursed],
    )
    return None


def _cancel(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    return _cancel_card(state, seat, int(option))


def _cancel_card(state: State, seat: int, card_id: int) -> Events:
    assert state.harvest is not None
    state.harvest.no_curses.append(card_id)
    text = f"{state.players[seat].name} cancels the curse tokens of {card_label(state, card_id)}."
    return [_ev("cancel", text, seat)]


def discard_on_deck(state: State, p: Pending, rng: random.Random) -> Events | None:
    player = state.players[p.seat]
    if player.on_deck is None or state.card(player.on_deck).nemesis is not None:
        return []
    card = player.on_deck
    player.on_deck = None
    player.discard.append(card)
    events = [
        _ev(
            "discard",
            f"{player.name} discards their on-deck card, {card_label(state, card)}.",
            p.seat,
        )
    ]
    return events + turn.turn_up(state, p.seat, rng)


def _growth(state: State, seat: int) -> int:
    """Oakenstride Titan's count: the growth of the field and the on-deck card, and the
    growth gained from abilities this turn."""
    player = state.players[seat]
    growth = field_total(state, seat)["growth"] + (state.harvest.growth if state.harvest else 0)
    if player.on_deck is not None:
        growth += shown(state, state.card(player.on_deck))["growth"]
    return growth


def _guardians(state: State, seat: int) -> int:
    """Tidal Wave Titan's count: the guardians of the field and those gained."""
    gained = state.harvest.guardian if state.harvest else 0
    return max(gained, field_total(state, seat)["guardian"])


def shed_per_growth(state: State, p: Pending, rng: random.Random) -> Events | None:
    return abilities.shed_up_to(state, p.seat, _growth(state, p.seat))


def shed_per_guardian(state: State, p: Pending, rng: random.Random) -> Events | None:
    return abilities.shed_up_to(state, p.seat, _guardians(state, p.seat))


def vale_then_upgrade(state: State, p: Pending, rng: random.Random) -> Events | None:
    _ask(
        state,
        p.seat,
        "shardlord",
        "gain 1 curse token and 2 sky before Shardlord turns over, or turn it over first "
        "(no curse, no sky)?",
        ["gain", "first"],
    )
    return None


def _shardlord(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    assert state.harvest is not None
    events: Events = []
    # The curse and sky are what the starting side shows: its sky was counted with the
    # field when the Harvest began, and its curse would be taken with the field's tokens,
    # after the titan has left its card. Gaining them takes the curse token now; turning
    # over first gives back the sky (the rulebook: upgrade first, no curse and no sky).
    shows = pack_of(state).leader(state.players[seat].leader or "").start.symbols
    if option == "gain":
        events += gain_curses(state, seat, shows.curse)
    else:
        state.harvest.sky = max(0, state.harvest.sky - shows.sky)
    vales = [str(v) for v in state.commons.vale_rows[1] if v is not None]
    if vales:
        _ask(state, seat, "shardlord_vale", "choose a level-1 vale to take for free", vales)
        return events
    return events + _flip_shardlord(state, seat)


def _shardlord_vale(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    instance = int(option)
    take(state, instance)
    return abilities.acquire(state, seat, instance, free=True) + _flip_shardlord(state, seat)


def _flip_shardlord(state: State, seat: int) -> Events:
    player = state.players[seat]
    assert state.harvest is not None
    state.harvest.buys += 1
    player.leader_upgraded = True
    player.upgraded_on_turn = state.turn
    card = next((c for c in player.field if state.card(c).leader == player.leader), None)
    if card is not None:
        state.card(card).leader = None
        player.titan_aside = True
    return [_ev("upgrade", f"{player.name}'s Shardlord turns to its upgraded side.", seat)]


def return_to_start(state: State, p: Pending, rng: random.Random) -> Events | None:
    player = state.players[p.seat]
    blanks = [c for c in player.field if is_blank(state, state.card(c))]
    if not blanks or not player.titan_aside:
        return []
    state.card(blanks[0]).leader = player.leader
    player.titan_aside = False
    player.leader_upgraded = False
    return [_ev("leader", f"{player.name} sleeves Shardlord back into a blank card.", p.seat)]


def resleeve(state: State, p: Pending, rng: random.Random) -> Events | None:
    field = state.players[p.seat].field
    targets = [str(c) for c in field if state.card(c).leader is None]
    if not targets:
        return []
    _ask(
        state,
        p.seat,
        "resleeve_target",
        "choose the card of your field to move advancements onto",
        targets,
    )
    return None


def _resleeve_options(state: State, seat: int, target: int) -> list[str]:
    card = state.card(target)
    options = []
    for other in state.players[seat].field:
        if other == target:
            continue
        for stack in state.card(other).slots.values():
            top = stack[-1] if stack else None
            if isinstance(top, int) and slot_takes(state, card, advancement_of(state, top)):
                options.append(str(top))
    return options


def _resleeve_target(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    options = _resleeve_options(state, seat, int(option))
    if options:
        _ask(
            state,
            seat,
            "resleeve_move",
            "choose an advancement to move onto that card, or stop",
            [*options, "stop"],
            subject=int(option),
        )
    return []


def _resleeve_move(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    frame_target = frame.subject
    if option == "stop" or frame_target is None:
        return []
    instance = int(option)
    for card in state.physical:
        for stack in card.slots.values():
            if instance in stack:
                stack.remove(instance)
    sleeve(state, frame_target, instance)
    events = [
        _ev(
            "resleeve",
            f"{state.players[seat].name} moves {name_of(state, instance)} onto "
            f"{card_label(state, frame_target)}.",
            seat,
        )
    ]
    options = _resleeve_options(state, seat, frame_target)
    if options:
        _ask(
            state,
            seat,
            "resleeve_move",
            "choose another advancement to move onto that card, or stop",
            [*options, "stop"],
            subject=frame_target,
        )
    return events


# --------------------------------------------------------------------------- nemeses


def discard_clean(state: State, p: Pending, rng: random.Random) -> Events | None:
    """Blight Troll turned over on deck: two cards of the field that show no decay are
    discarded (the player picks when more than two qualify)."""
    clean = _clean_cards(state, p.seat)
    if len(clean) <= BLIGHT_TROLL_DISCARDS:
        events: Events = []
        for card_id in clean:
            events += discard_from_field(state, p.seat, card_id)
        return events or [_ev("fizzle", "Every card of the field shows decay.", p.seat)]
    _ask(
        state,
        p.seat,
        "discard_clean",
        "Blight Troll: choose a card of your field without decay to discard (2 to discard)",
        [str(c) for c in clean],
        subject=BLIGHT_TROLL_DISCARDS,
    )
    return None


def _clean_cards(state: State, seat: int) -> list[int]:
    return [c for c in _discardable(state, seat) if not shown(state, state.card(c))["decay"]]


def _discard_clean(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    events = discard_from_field(state, seat, int(option))
    left = (frame.subject or 1) - 1
    clean = _clean_cards(state, seat)
    if left and len(clean) <= left:
        for card_id in clean:
            events += discard_from_field(state, seat, card_id)
    elif left:
        _ask(
            state,
            seat,
            "discard_clean",
            f"Blight Troll: choose a card of your field without decay to discard ({left} to "
            "discard)",
            [str(c) for c in clean],
            subject=left,
        )
    return events


def spoil_now(state: State, p: Pending, rng: random.Random) -> Events | None:
    """Corrupted Centaur turned over on deck: the Spoil test that follows Spoils."""
    assert state.nemesis is not None
    state.nemesis.forced_spoil = True
    if state.phase == "planting":
        state.check_spoil = True
    name = pack_of(state).nemesis(state.nemesis.card).shown_name
    return [_ev("nemesis", f"{name} is turned over: {state.players[p.seat].name} Spoils.", p.seat)]


def spoil_toll(state: State, p: Pending, rng: random.Random) -> Events | None:
    """Tormented Berserker at a Spoil: Sacrifice a vale, or discard 3 VP."""
    player = state.players[p.seat]
    can_vale = bool(player.vales)
    can_vp = player.vp >= BERSERKER_VP
    if can_vale and can_vp:
        _ask(
            state,
            p.seat,
            "toll",
            f"Tormented Berserker: Sacrifice a vale, or discard {BERSERKER_VP} VP?",
            ["vale", "vp"],
        )
        return None
    if can_vale:
        return _toll_vale(state, p.seat)
    lost = min(BERSERKER_VP, player.vp)
    spend_vp(state, p.seat, lost)
    return [_ev("vp", f"{player.name} discards {lost} VP (Tormented Berserker).", p.seat)]


def _toll_vale(state: State, seat: int) -> Events:
    vales = one_of_each(state, state.players[seat].vales)
    if len(vales) == 1:
        return abilities.sacrifice(state, seat, vales[0])
    _ask(
        state,
        seat,
        "toll_vale",
        "Tormented Berserker: choose the vale you Sacrifice",
        [str(v) for v in vales],
    )
    return []


def _toll(state: State, seat: int, option: str, frame: Frame, rng: random.Random) -> Events:
    if option == "vale":
        return _toll_vale(state, seat)
    spend_vp(state, seat, BERSERKER_VP)
    name = state.players[seat].name
    return [_ev("vp", f"{name} discards {BERSERKER_VP} VP (Tormented Berserker).", seat)]


def _toll_vale_answer(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    return abilities.sacrifice(state, seat, int(option))


def _cancel_spirit(
    state: State, seat: int, option: str, frame: Frame, rng: random.Random
) -> Events:
    harvest = state.harvest
    assert harvest is not None
    setattr(harvest, option, getattr(harvest, option) - 1)
    events = [_ev("tax", f"{state.players[seat].name} cancels 1 {option}.", seat)]
    left = (frame.subject or 1) - 1
    if left:
        events += abilities.cancel_spirits(state, seat, left) or []
    return events


def _ready_blank(state: State, p: Pending) -> bool:
    player = state.players[p.seat]
    return player.titan_aside and any(is_blank(state, state.card(c)) for c in player.field)


# When an optional rule could do nothing now, its owner isn't asked whether to use it.
READY.update(
    {
        "return_to_start": _ready_blank,
        "discard_any_for_curse": lambda state, p: bool(_discardable(state, p.seat)),
        "store_curses": lambda state, p: state.players[p.seat].curses > 0,
        "free_reserved": lambda state, p: bool(state.players[p.seat].reserved),
        "shed_per_growth": lambda state, p: (
            min(state.players[p.seat].curses, _growth(state, p.seat)) > 0
        ),
        "shed_per_guardian": lambda state, p: (
            min(state.players[p.seat].curses, _guardians(state, p.seat)) > 0
        ),
        "discard_on_deck": lambda state, p: (
            state.players[p.seat].on_deck is not None
            and state.card(state.players[p.seat].on_deck).nemesis is None  # type: ignore[arg-type]
        ),
        "card_to_bottom": lambda state, p: bool(state.players[p.seat].field),
    }
)

SPECIALS.update(
    {
        "tribal_warlord": tribal_warlord,
        "gargoyle_summoner": gargoyle_summoner,
        "most_curses_vp": most_curses_vp,
        "titan_forge": titan_forge,
        "place_top_card": place_top_card,
        "curse_the_commons": curse_the_commons,
        "store_curses": store_curses,
        "discard_any_for_curse": discard_any_for_curse,
        "titan_to_bottom": titan_to_bottom,
        "card_to_bottom": card_to_bottom,
        "field_of_seven": field_of_seven,
        "free_reserved": free_reserved,
        "cancel_card_curses": cancel_card_curses,
        "discard_on_deck": discard_on_deck,
        "shed_per_growth": shed_per_growth,
        "shed_per_guardian": shed_per_guardian,
        "vale_then_upgrade": vale_then_upgrade,
        "return_to_start": return_to_start,
        "resleeve": resleeve,
        "discard_clean": discard_clean,
        "spoil_now": spoil_now,
        "spoil_toll": spoil_toll,
    }
)
ANSWERS.update(
    {
        "warlord": _warlord,
        "gargoyle_unsleeve": _gargoyle_unsleeve,
        "gargoyle_leader": _gargoyle_pick,
        "forge": _forge,
        "curse_commons": _curse_commons,
        "store_curses": _store_curses,
        "discard_any": _discard_any,
        "to_bottom": _to_bottom_answer,
        "free_reserved": _free_reserved,
        "cancel_curses": _cancel,
        "shardlord": _shardlord,
        "shardlord_vale": _shardlord_vale,
        "resleeve_target": _resleeve_target,
        "resleeve_move": _resleeve_move,
        "discard_clean": _discard_clean,
        "toll": _toll,
        "toll_vale": _toll_vale_answer,
        "cancel_spirit": _cancel_spirit,
    }
)

# Standing rules, read where they apply (harvest prices, sleeving), and End of Game rules,
# read by the scoring: they resolve nothing when queued.
STANDING = ("cover_cursed_land", "guardian_discount", "sleeve_now", "push_twice", "under_on_deck")
AT_THE_END = ("avatar_shared_win", "worth_total", "most_curses_titan", "final_harvest")
for _name in (*STANDING, *AT_THE_END):
    SPECIALS.setdefault(_name, lambda state, p, rng: [])
