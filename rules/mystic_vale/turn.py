"""A turn of Mystic Vale: Planting (push or stop, and the Spoil), then Harvest (see
`harvest.py`), Discard (sleeve what was bought, discard the field, refill the commons)
and Prep (build the next field); then the next player, and the end of the game.

- Spoil: after a push, when the decay of the field and the on-deck card, less their
  growth, reaches 4. The Harvest is skipped, the mana token turns active, and the turn
  goes on with its Discard Phase.
- Prep: the on-deck card moves into the field and the next card turns face up, again
  and again while the decay is below 3; at 4 or more the player has Spoiled in Prep (a
  Spoil like any other: its When you Spoil abilities go off) and skips their next
  Harvest (the turn then goes from Planting straight to Discard).
- The end: once the VP pool has run out, the round is finished (the player before the
  first player takes the last turn) and the game is scored.
- Solitaire: a Nemesis Phase follows every Prep (see `nemesis.py`); once the pool has run
  out, the turn is finished, its Nemesis Phase included, and the game is scored (an
  extra turn the last turn earned is not taken: the pack's reading).
"""

from __future__ import annotations

import random

from rules.core import IllegalAction
from rules.core.text import plural
from rules.mystic_vale import abilities
from rules.mystic_vale.cards import CannotSpoil
from rules.mystic_vale.commons import refill
from rules.mystic_vale.moves import all_fit, card_label, homes, name_of, reveal, sleeve, to_field
from rules.mystic_vale.nemesis import nemesis_card, nemesis_phase, special_active
from rules.mystic_vale.scoring import end_abilities, finish_game
from rules.mystic_vale.setup import Events, _ev, shuffle_decks, turn_order
from rules.mystic_vale.state import Frame, Harvest, State
from rules.mystic_vale.symbols import decay_count

SPOIL_AT = 4  # decay (less growth) that Spoils
ABOMINATION_PUSHES = 2  # pushes one must make with the Abomination on deck or in the field
PREP_STOPS_AT = 3  # Prep stops once the decay reaches this


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


def can_spoil(state: State, seat: int) -> bool:
    """Whether the seat can Spoil now (a standing effect may say it cannot)."""
    return not abilities.standing(state, seat, CannotSpoil)


# --------------------------------------------------------------------------- set-up


def to_choose_leaders(state: State) -> list[int]:
    """The seats still at the table that have not chosen their leader."""
    return [p.seat for p in state.players if p.leader is None and not p.conceded]


def leaders_chosen(state: State, rng: random.Random) -> Events:
    """Every leader at the table is chosen: the decks are shuffled and the opening Preps
    begin (of the players still at the table)."""
    events = shuffle_decks(state, rng)
    return events + begin_preps(state, [p.seat for p in turn_order(state) if not p.conceded])


def begin_preps(state: State, seats: list[int]) -> Events:
    """These seats carry out a Prep Phase, in order."""
    state.phase = "prep"
    state.prepping = list(seats)
    state.prep_step = "start"
    return []


# --------------------------------------------------------------------------- Prep


def prep_step(state: State, rng: random.Random) -> Events:
    """One step of the Prep Phase of the first seat still to prep."""
    if not state.prepping:
        return _after_preps(state)
    seat = state.prepping[0]
    player = state.players[seat]
    match state.prep_step:
        case "start":
            state.prep_step = "move"
            if player.on_deck is None:
                events = turn_up(state, seat, rng)
                if player.on_deck is None:
                    return events + _prep_done(state, seat)
                return events
            return []
        case "move":
            if player.on_deck is None:
                return _prep_done(state, seat)
            events = to_field(state, seat)
            abilities.set_off(state, seat, "played", _sources(state, player.field[-1]))
            state.prep_step = "reveal"
            return events
        case "reveal":
            state.prep_step = "check"
            return turn_up(state, seat, rng)
    decay = decay_count(state, seat)
    if player.on_deck is None:
        return _prep_done(state, seat)
    if spoils(state, seat, decay):
        player.skip_harvest = True
        player.mana_token = True
        text = f"{player.name} Spoils in their Prep Phase ({decay} decay): no Harvest next turn."
        abilities.set_off(state, seat, "spoiled", spoil_sources(state, seat))
        return [_ev("spoil", text, seat), *_prep_done(state, seat)]
    if decay >= PREP_STOPS_AT:
        return _prep_done(state, seat)
    state.prep_step = "move"
    return []


def turn_up(state: State, seat: int, rng: random.Random) -> Events:
    """The next card turns face up on deck (however the last one left): its When revealed
    abilities go off, and in Planting the Spoil test follows once they resolved (Prep
    tests in its own step)."""
    events = reveal(state, seat, rng)
    if state.players[seat].on_deck is not None:
        abilities.set_off(state, seat, "revealed", _on_deck(state, seat))
    if state.phase == "planting":
        state.check_spoil = True
    return events


def _sources(state: State, card_id: int) -> list[tuple[str, int | None]]:
    return [(s, card_id) for s in abilities.card_sources(state, card_id)]


def _on_deck(state: State, seat: int) -> list[tuple[str, int | None]]:
    on_deck = state.players[seat].on_deck
    return [] if on_deck is None else _sources(state, on_deck)


def _prep_done(state: State, seat: int) -> Events:
    player = state.players[seat]
    state.prepping.pop(0)
    state.prep_step = "start"
    decay = decay_count(state, seat)
    text = f"{player.name}'s field is ready: {plural(len(player.field), 'card')}, {decay} decay."
    return [_ev("prep", text, seat)]


def _after_preps(state: State) -> Events:
    """Every Prep of the set-up, or of the turn, is done (in a solitaire game, the
    Nemesis Phase follows)."""
    events = nemesis_phase(state) if state.nemesis is not None else []
    if state.opening:
        state.opening = False
        n = len(state.players)
        while state.players[state.active].conceded:  # the first player left: the next
            state.active = (state.active + 1) % n
        return events + begin_turn(state)
    return events + end_turn(state)


# --------------------------------------------------------------------------- Planting


def begin_turn(state: State) -> Events:
    """The active player's turn opens with Planting (or, after a Spoil in Prep, goes
    straight to Discard)."""
    seat = state.active
    player = state.players[seat]
    state.harvest = None
    if state.nemesis is not None:
        state.nemesis.pushes = 0
    begun = f"Turn {state.round}" if state.nemesis is not None else f"Round {state.round}"
    events = [_ev("turn", f"{begun}: {player.name}'s turn.", seat)]
    if player.skip_harvest:
        player.skip_harvest = False
        state.harvest = Harvest()
        skip = _ev("skip", f"{player.name} Spoiled in Prep: no Harvest this turn.", seat)
        return [*events, skip, *begin_discard(state)]
    state.phase = "planting"
    abilities.set_off(state, seat, "planting", list(abilities.play_area_sources(state, seat)))
    return events


def check_push(state: State, seat: int) -> None:
    """A push moves the on-deck card into the field: there must be one."""
    _require_planting(state, seat)
    if state.players[seat].on_deck is None:
        raise IllegalAction(
            "no-card", "Your deck and discard pile are empty: there is nothing to push."
        )


def check_stop(state: State, seat: int) -> None:
    """Abomination on deck or in the field: no stopping before the second push."""
    if state.nemesis is None or state.nemesis.pushes >= ABOMINATION_PUSHES:
        return
    player = state.players[seat]
    here = state.nemesis.physical in [*player.field, player.on_deck]
    if here and special_active(state, "push_twice"):
        name = nemesis_card(state).shown_name
        raise IllegalAction(
            "push-twice",
            f"{name} is on deck or in your field: you must push at least twice this "
            f"turn ({state.nemesis.pushes} so far).",
        )


def _require_planting(state: State, seat: int) -> None:
    if state.phase != "planting" or state.active != seat:
        raise IllegalAction("phase", "Pushing and stopping happen in your Planting Phase.")
    if state.frames or state.pending or state.check_spoil:
        raise IllegalAction("not-now", "Finish what is under way first.")


def push(state: State, seat: int, rng: random.Random) -> Events:
    """Plant the on-deck card and turn the next one face up; then test for a Spoil."""
    check_push(state, seat)
    player = state.players[seat]
    if state.nemesis is not None:
        state.nemesis.pushes += 1
    events = to_field(state, seat)
    abilities.set_off(state, seat, "played", _sources(state, player.field[-1]))
    return events + turn_up(state, seat, rng)


def spoil_test(state: State) -> Events:
    seat = state.active
    decay = decay_count(state, seat)
    if spoils(state, seat, decay):
        return spoil(state, seat, decay)
    return []


def spoils(state: State, seat: int, decay: int) -> bool:
    """The Spoil test (after a push, and in Prep): 4 decay, or Corrupted Centaur turned
    over; unless the seat cannot Spoil. The test spends the Centaur's mark whatever it
    finds, so one Centaur causes one Spoil."""
    forced = forced_spoil(state)
    return (decay >= SPOIL_AT or forced) and can_spoil(state, seat)


def forced_spoil(state: State) -> bool:
    """Corrupted Centaur turned over: the next Spoil test Spoils, whatever the decay (the
    mark is used up by the test)."""
    if state.nemesis is None or not state.nemesis.forced_spoil:
        return False
    state.nemesis.forced_spoil = False
    return True


def spoil(state: State, seat: int, decay: int) -> Events:
    """Spoiled: no Harvest; the mana token turns active; the turn goes on to Discard."""
    player = state.players[seat]
    player.mana_token = True
    state.phase = "discard"
    state.harvest = Harvest()
    text = (
        f"{player.name} Spoils with {decay} decay: no Harvest this turn, and the mana token "
        "turns active."
    )
    abilities.set_off(state, seat, "spoiled", spoil_sources(state, seat))
    return [_ev("spoil", text, seat), *begin_discard(state)]


def spoil_sources(state: State, seat: int) -> list[tuple[str, int | None]]:
    """What a Spoil sets off, in Planting or in Prep: the When you Spoil abilities of the
    play area (the field, the vales, a titan beside it), and of the nemesis on deck."""
    player = state.players[seat]
    sources = list(abilities.play_area_sources(state, seat))
    if player.on_deck is not None and state.card(player.on_deck).nemesis is not None:
        sources += _on_deck(state, seat)
    return sources


# --------------------------------------------------------------------------- Discard


def begin_discard(state: State) -> Events:
    """On to the Discard Phase, after a Harvest or a Spoil (abilities that act then, of the
    field, the vales and a titan beside the play area, go off first)."""
    state.phase = "discard"
    seat = state.active
    abilities.set_off(state, seat, "discard", list(abilities.play_area_sources(state, seat)))
    return []


def over_land(state: State, seat: int) -> bool:
    """Stormbrew Titan: an advancement may cover a Cursed Land as it is sleeved."""
    return abilities.standing_special(state, seat, "cover_cursed_land")


def discard_step(state: State, rng: random.Random) -> Events:
    """Sleeve the next bought advancement (asking where when there is a choice), then
    discard the field and refill the commons, then Prep."""
    seat = state.active
    harvest = state.harvest
    assert harvest is not None
    if harvest.bought:
        instance = harvest.bought[0]
        options = homes(state, seat, instance, over_land=over_land(state, seat))
        choices = [c for c in options if _leaves_room(state, seat, c, instance)] or options
        if len(choices) == 1:
            return sleeve_into(state, seat, choices[0])
        if not choices:  # nothing can take it any more (a card left the field)
            harvest.bought.pop(0)
            state.boxed.append(instance)
            return [
                _ev(
                    "lost",
                    f"{name_of(state, instance)} fits no card of the field and goes back to the "
                    "box.",
                    seat,
                )
            ]
        state.frames.append(
            Frame(
                kind="sleeve",
                deciders=[seat],
                prompt=f"choose the card to sleeve {name_of(state, instance)} into",
                options=[str(c) for c in choices],
                subject=instance,
            )
        )
        return []
    if state.final:
        return next_final(state)
    return _discard_field(state, rng)


def _leaves_room(state: State, seat: int, card_id: int, instance: int) -> bool:
    """Whether the other bought advancements still fit once this one goes into this card
    (tried, then undone)."""
    assert state.harvest is not None
    card = state.card(card_id)
    saved = {slot: list(stack) for slot, stack in card.slots.items()}
    sleeve(state, card_id, instance)
    room = all_fit(state, seat, state.harvest.bought[1:], over_land=over_land(state, seat))
    card.slots = saved  # type: ignore[assignment]
    return room


def sleeve_into(state: State, seat: int, card_id: int) -> Events:
    """Sleeve the next bought advancement into a card of the field."""
    harvest = state.harvest
    assert harvest is not None
    instance = harvest.bought.pop(0)
    into = card_label(state, card_id)
    sleeve(state, card_id, instance)
    text = f"{_name(state, seat)} sleeves {name_of(state, instance)} into {into}."
    return [_ev("sleeve", text, seat)]


def _discard_field(state: State, rng: random.Random) -> Events:
    seat = state.active
    player = state.players[seat]
    kept = [c for c in player.field if c in state.staying]
    gone = [c for c in player.field if c not in kept]
    player.discard += gone
    player.field = kept
    state.staying = []
    face_up = _face_up(state)
    refill(state)
    turned = _face_up(state) > face_up  # new cards turned face up from the decks
    gone_text = plural(len(gone), "card")
    events = [_ev("discard", f"{player.name} discards their field ({gone_text}).", seat)]
    events.append(_ev("refill", "The commons are refilled.", reveals=turned))
    return events + begin_preps(state, [seat])


def _face_up(state: State) -> int:
    """How many advancements and vales the commons show from their decks."""
    commons = state.commons
    rows = (*commons.rows.values(), *commons.vale_rows.values())
    return sum(i is not None for row in rows for i in row) + len(commons.level4)


# --------------------------------------------------------------------------- the next turn


def end_turn(state: State) -> Events:
    """The turn is over: the same player again after an extra turn, else the next one; the
    game ends once the last round is finished."""
    seat = state.active
    player = state.players[seat]
    player.turns += 1
    state.turn += 1
    state.harvest = None
    events: Events = []
    if state.extra_turn:
        state.extra_turn = False
        if not abilities.no_turn_follows(state):
            return [_ev("extra", f"{player.name} takes another turn.", seat), *begin_turn(state)]
        events.append(_ev("fizzle", abilities.LAST_TURN, seat))
    n = len(state.players)
    for _ in range(n):
        state.active = (state.active + 1) % n
        if state.active == state.first:
            if state.last_round:
                return events + begin_end(state)
            state.round += 1
        if not state.players[state.active].conceded:
            break
    return events + begin_turn(state)


def concede(state: State, seat: int) -> Events:
    """A player leaves the table and loses: with one player left, they win; otherwise the
    others play on and the conceder's turns are skipped (their turn, if it was theirs,
    ends at once; before the first turn, their leader choice and opening Prep are
    dropped, and the first turn goes to the next seat if they were the first player)."""
    if state.phase == "over":
        raise IllegalAction("over", "This game is already over.")
    player = state.players[seat]
    if player.conceded:
        raise IllegalAction("out", "You have left this game already.")
    player.conceded = True
    events = [_ev("concede", f"{player.name} concedes and leaves the table.", seat)]
    left = [p.seat for p in state.players if not p.conceded]
    if len(left) == 1 or state.nemesis is not None:
        return events + finish_game(state, by_concession=True)
    if state.active == seat and not state.opening:
        if state.harvest is not None:  # what they bought and hadn't sleeved leaves with them
            state.boxed += state.harvest.bought
            state.harvest.bought = []
        state.frames.clear()
        state.pending.clear()
        state.prepping = [s for s in state.prepping if s != seat]
        state.check_spoil = False
        return events + end_turn(state)
    state.frames = [f for f in state.frames if seat not in f.deciders]
    state.pending = [p for p in state.pending if p.seat != seat]
    if state.prepping[:1] == [seat]:  # their opening Prep was under way
        state.prep_step = "start"
    state.prepping = [s for s in state.prepping if s != seat]
    return events


# --------------------------------------------------------------------------- the end


def nightvale_agents(state: State, seat: int) -> int:
    """How many Nightvale Agents the seat owns, wherever they are (End of Game)."""
    return sum(1 for name in end_abilities(state, seat) if name == "final_harvest")


def begin_end(state: State) -> Events:
    """The last round is over. Each player owning a Nightvale Agent harvests once more
    (in turn order, once per Agent), then the game is scored."""
    state.finals = [
        p.seat
        for p in turn_order(state)
        if not p.conceded
        for _ in range(nightvale_agents(state, p.seat))
    ]
    return next_final(state)


def next_final(state: State) -> Events:
    """The next Nightvale Agent's final Harvest, or the scoring once none is left."""
    state.final = False
    state.harvest = None
    if not state.finals:
        return finish_game(state)
    seat = state.finals.pop(0)
    state.active = seat
    state.phase = "final"
    state.final_picks = []
    _ask_final_pick(state, seat)
    player = state.players[seat]
    return [
        _ev("final", f"Nightvale Agent: {player.name} harvests once more with two cards.", seat)
    ]


def _ask_final_pick(state: State, seat: int) -> None:
    cards = [c for c in state.physical if c.owner == seat and c.id not in state.final_picks]
    ordinal = "first" if not state.final_picks else "second"
    state.frames.append(
        Frame(
            kind="final_pick",
            deciders=[seat],
            prompt=f"Nightvale Agent: choose the {ordinal} of the two cards that form your field",
            options=[str(c.id) for c in cards],
        )
    )


def final_pick(state: State, seat: int, card_id: int) -> Events:
    """A card chosen for the final Harvest; with two chosen, the field is discarded, the
    two form the field, and the Harvest begins (see `harvest.begin_harvest`)."""
    state.frames.pop()
    state.final_picks.append(card_id)
    if len(state.final_picks) < 2:
        _ask_final_pick(state, seat)
        name = state.players[seat].name
        text = f"{name} picks {card_label(state, card_id)} for the final Harvest."
        return [_ev("final", text, seat)]
    player = state.players[seat]
    player.discard += player.field
    player.field = []
    for chosen in state.final_picks:
        for pile in (player.deck, player.discard):
            if chosen in pile:
                pile.remove(chosen)
        if player.on_deck == chosen:
            player.on_deck = None
        player.field.append(chosen)
    state.final = True
    names = " and ".join(card_label(state, c) for c in player.field)
    return [_ev("final", f"{player.name}'s field for the final Harvest: {names}.", seat)]
