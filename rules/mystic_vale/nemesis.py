"""The Nemesis Solitaire Variant: one player against a nemesis (the rulebook's "Nemesis
Solitaire Variant").

- Set-up: 12 level-1 advancements, 23 VP tokens; the nemesis (chosen, or drawn) is
  sleeved face up over one of the player's Cursed Lands and covers the whole card (the
  notes' suggested default): only its own symbols count, so every Cursed Land is the
  same choice and the first one takes it. The hourglass starts on Start.
- The Nemesis Phase, after every Prep (the set-up's too), Spoil or not: Advance (the
  hourglass moves one space; on the last one it stays), then Consume (the advancements,
  vales and VP tokens the space shows go into the nemesis' score pile; each claimed card
  is replaced at once, from the next level's deck when its own ran out; VP come from the
  pool, from the box once it is empty). The track never claims a level-4 advancement.
- The nemesis card: its decay (or growth) always counts; its hourglass decay and its
  abilities only once the hourglass is on or past their number. It is never discarded
  from the field, the deck or on deck, never removed, never sleeved onto; it is a card
  but not an advancement.
- Scoring: the nemesis scores its VP tokens, the end-of-game VP of its pile (negative VP
  count nothing, and each card with an End of Game ability counts 4 instead of what the
  ability says) and its power. The player wins only with strictly more points.
"""

from __future__ import annotations

import random

from rules.mystic_vale.cards import Ability, Advancement, Claim, NemesisCard, Space, Track, Vale
from rules.mystic_vale.commons import draw_advancement, draw_vale
from rules.mystic_vale.moves import name_of, reveal
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import pack_of
from rules.mystic_vale.text import place_name

END_EFFECT_VP = 4  # an End of Game effect in the nemesis' pile, whatever it says


def nemesis_card(state: State) -> NemesisCard:
    """The nemesis of a solitaire game."""
    assert state.nemesis is not None
    return pack_of(state).nemesis(state.nemesis.card)


def track(state: State) -> Track:
    """The side of the corruption track in play."""
    assert state.nemesis is not None
    return pack_of(state).track(state.nemesis.side)


def hourglass(state: State) -> int:
    """The number of the hourglass's space (0 on Start): the turns that have passed."""
    return 0 if state.nemesis is None else state.nemesis.space


def is_active(state: State, ability: Ability) -> bool:
    """Whether a nemesis ability acts: the hourglass is on or past its number."""
    return ability.hourglass <= hourglass(state)


def special_active(state: State, name: str) -> bool:
    """Whether a named rule of the nemesis acts now (its hourglass reached)."""
    if state.nemesis is None:
        return False
    return any(
        getattr(op, "name", None) == name and is_active(state, ability)
        for ability in nemesis_card(state).abilities
        for op in ability.ops
    )


# --------------------------------------------------------------------------- the phase


def space_text(space: Space) -> str:
    """What a space of the track claims, in words."""
    parts = [place_name(c) for c in space.claims]
    if space.vp:
        parts.append(f"{space.vp} VP")
    return ", ".join(parts) or "nothing"


def nemesis_phase(state: State) -> Events:
    """Advance the hourglass, then Consume what its space shows."""
    assert state.nemesis is not None
    spaces = track(state).spaces
    name = nemesis_card(state).shown_name
    before = state.nemesis.space
    state.nemesis.space = min(len(spaces) - 1, before + 1)
    space = spaces[state.nemesis.space]
    stays = " (the last space: it stays there)" if state.nemesis.space == before else ""
    events = [
        _ev(
            "nemesis",
            f"Nemesis Phase: the hourglass moves to space {state.nemesis.space}{stays}.",
        )
    ]
    for claim in space.claims:
        events += claim_card(state, claim)
    if space.vp:
        events += claim_vp(state, space.vp)
    woken = [
        a
        for a in nemesis_card(state).abilities
        if a.hourglass == state.nemesis.space and state.nemesis.space != before
    ]
    if woken:
        events.append(_ev("nemesis", f"{name}'s hourglass ability is active from now on."))
    return events


def claim_card(state: State, claim: Claim) -> Events:
    """The nemesis claims the card at a position of the commons into its score pile; it
    is replaced at once (curse tokens lying on it go back to the pool)."""
    assert state.nemesis is not None
    commons = state.commons
    row = (
        commons.rows[claim.level] if claim.kind == "advancement" else commons.vale_rows[claim.level]
    )
    name = nemesis_card(state).shown_name
    instance = row[claim.position]
    if instance is None:
        return [_ev("claim", f"{name} finds nothing to claim at {place_name(claim)}.")]
    state.nemesis.pile.append(instance)
    commons.curses.pop(instance, None)
    if claim.kind == "advancement":
        row[claim.position] = draw_advancement(state, claim.level)
    else:
        row[claim.position] = draw_vale(state, claim.level)
    replaced = row[claim.position]
    then = f", replaced by {name_of(state, replaced)}" if replaced is not None else ""
    text = f"{name} claims {name_of(state, instance)} ({place_name(claim)}){then}."
    return [_ev("claim", text, reveals=replaced is not None)]


def claim_vp(state: State, amount: int) -> Events:
    """VP tokens from the pool (from the box once it is empty) into the nemesis' pile."""
    assert state.nemesis is not None
    taken = min(amount, state.pool)
    state.pool -= taken
    state.from_pool += taken
    state.from_box += amount - taken
    state.nemesis.vp += amount
    name = nemesis_card(state).shown_name
    events = [_ev("claim", f"{name} claims {amount} VP.")]
    if state.pool == 0 and not state.last_round:
        state.last_round = True
        events.append(_ev("clock", "The VP pool has run out: this turn is the last."))
    return events


# --------------------------------------------------------------------------- Abomination


def spot(state: State) -> str:
    """Where the nemesis card is: "field", "on_deck" or "elsewhere"."""
    assert state.nemesis is not None
    player = state.players[0]
    if state.nemesis.physical in player.field:
        return "field"
    return "on_deck" if player.on_deck == state.nemesis.physical else "elsewhere"


def settle_abomination(state: State, rng: random.Random) -> Events:
    """Abomination turned over on deck, or placed in the field, by an effect during the
    Harvest goes under the on-deck card (the next card is turned over first when it was
    the on-deck card itself)."""
    n = state.nemesis
    if n is None or state.phase != "harvest" or not special_active(state, "under_on_deck"):
        return []
    now = spot(state)
    if now == n.spot or now == "elsewhere":
        return []
    player = state.players[0]
    events: Events = []
    if now == "field":
        player.field.remove(n.physical)
    else:
        player.on_deck = None
        events += reveal(state, 0, rng)
    player.deck.append(n.physical)  # the top of the deck: right under the on-deck card
    n.spot = spot(state)
    name = nemesis_card(state).shown_name
    return [*events, _ev("nemesis", f"{name} goes under {player.name}'s on-deck card.", 0)]


# --------------------------------------------------------------------------- scoring


def pile_points(state: State) -> tuple[int, int]:
    """What the nemesis' pile of cards scores: their end-of-game VP (negative ones count
    0), and 4 for each End of Game effect among them; how many such effects."""
    assert state.nemesis is not None
    pack = pack_of(state)
    points = effects = 0
    for instance in state.nemesis.pile:
        card = pack.card(state.cards[instance])
        assert isinstance(card, Advancement | Vale)
        ends = sum(1 for a in card.abilities if a.when == "end")
        effects += ends
        points += max(0, card.symbols.end_vp) + END_EFFECT_VP * ends
    return points, effects


def nemesis_score(state: State) -> int:
    """The nemesis' points: its VP tokens, its pile's cards, its power."""
    assert state.nemesis is not None
    return state.nemesis.vp + pile_points(state)[0] + nemesis_card(state).power
