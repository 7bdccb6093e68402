"""How Mystic Vale speaks to its players: each action's label (never the same for two
choices of a seat: cards are named with what makes them differ), what each costs and
does, the question put to the decider, and the table's public prompt."""

from __future__ import annotations

from rules.core import Action, IllegalAction
from rules.core.contract import NAME_LIMIT
from rules.core.text import plural, shorten
from rules.mystic_vale import abilities
from rules.mystic_vale.actions import to_act
from rules.mystic_vale.cards import SLOTS, Advancement, Vale
from rules.mystic_vale.commons import offered
from rules.mystic_vale.harvest import buys_left, price, upgrade_cost
from rules.mystic_vale.moves import card_label, layer_name, name_of, sleeved
from rules.mystic_vale.state import Frame, State
from rules.mystic_vale.symbols import advancement_of, decay_count, pack_of, shown
from rules.mystic_vale.text import (
    card_text,
    cost_text,
    counts_text,
    use_text,
    what_it_does,
)
from rules.mystic_vale.turn import check_stop

PHASES = {
    "leaders": "choosing leaders",
    "planting": "Planting",
    "harvest": "Harvest",
    "discard": "Discard",
    "prep": "Prep",
    "final": "Nightvale Agent's final Harvest",
    "over": "the end",
}


def where(state: State, instance: int) -> str:
    """Where an advancement or vale for sale lies: "level-2 row, 3 of 3", "Fertile Soils"
    (a row refilled from the next level's deck holds cards of that level)."""
    commons = state.commons
    for level, row in commons.rows.items():
        if instance in row:
            return f"level-{level} row, {row.index(instance) + 1} of 3"
    for level, row in commons.vale_rows.items():
        if instance in row:
            return f"level-{level} vales, {row.index(instance) + 1} of 4"
    if instance in commons.level4:
        return "level-4 row"
    if instance in commons.fertile:
        return "Fertile Soils"
    return "your Reserve"


def offer_label(state: State, instance: int) -> str:
    """An advancement or vale for sale, with its own level (and slot) and where it lies:
    "Gravemoss Shrine ✦ (level 2, top; level-1 row, 1 of 3)"."""
    card = pack_of(state).card(state.cards[instance])
    slot = f", {card.slot}" if isinstance(card, Advancement) else ""
    return f"{card.shown_name} (level {card.level}{slot}; {where(state, instance)})"  # type: ignore[union-attr]


def describe(state: State, action: Action) -> str:
    """The label of an action, as a menu shows it."""
    a = action.args
    pack = pack_of(state)
    match action.kind:
        case "leader":
            return f"Choose {pack.leader(a[0]).shown_name} as your leader"
        case "push":
            return "Push: plant your on-deck card"
        case "stop":
            return "Stop and harvest"
        case "buy":
            return f"Buy {offer_label(state, int(a[0]))}"
        case "vale":
            return f"Buy the vale {offer_label(state, int(a[0]))}"
        case "upgrade":
            seat = state.active
            leader = pack.leader(state.players[seat].leader or "")
            return f"Upgrade {leader.shown_name}"
        case "done":
            return "End your Harvest"
        case "sleeve":
            into = f"{card_label(state, int(a[1]))} ({card_number(int(a[1]))})"
            return f"Sleeve {name_of(state, int(a[0]))} into {into} now"
        case "use":
            return f"Use {abilities.source_name(state, state.pending[0].source)}'s ability"
        case "skip":
            return f"Don't use {abilities.source_name(state, state.pending[0].source)}'s ability"
        case "choose":
            return option_label(state, state.frames[-1], a[0])
    return action.key


MORE = "… full text: /card"  # ends a description cut to fit a menu option


def in_menu(text: str) -> str:
    """A description as a menu option holds it: whole when it fits, else cut at a word
    and pointing to `/card`, which shows a card's whole text."""
    if len(text) <= NAME_LIMIT:
        return text
    return shorten(text, NAME_LIMIT - len(MORE) + 1).removesuffix("…") + MORE


def option_label(state: State, frame: Frame, option: str) -> str:
    """One option of a decision, by what the decision is."""
    if option == "none":
        return "No card"
    if option == "stop":
        return "Stop: move no more"
    match frame.kind:
        case (
            "sleeve"
            | "discard_field"
            | "search"
            | "discard_any"
            | "to_bottom"
            | "forge"
            | "final_pick"
            | "discard_clean"
        ):
            return f"{card_label(state, int(option))} ({card_number(int(option))})"
        case "cancel_curses" | "resleeve_target":
            return f"{card_label(state, int(option))} ({card_number(int(option))})"
        case "sacrifice":
            holder = holder_of(state, int(option))
            whose = f"on {card_number(holder)}" if holder is not None else "a vale"
            return f"{name_of(state, int(option))} ({whose})"
        case "reserve" | "free_row" | "free_reserved" | "curse_commons" | "shardlord_vale":
            return offer_label(state, int(option))
        case "resleeve_move":
            holder = holder_of(state, int(option))
            return f"Move {name_of(state, int(option))} (from {card_number(holder or 0)})"
        case "gargoyle_unsleeve":
            return f"Unsleeve {card_label(state, int(option))} ({card_number(int(option))})"
        case "gargoyle_leader":
            return pack_of(state).leader(option).shown_name
        case "free_top":
            return "Take it" if option == "take" else "Put it back"
        case "toll":
            return "Sacrifice a vale" if option == "vale" else "Discard 3 VP"
        case "toll_vale":
            return f"Sacrifice {name_of(state, int(option))}"
        case "cancel_spirit":
            return f"Cancel 1 {option}"
        case "shed":
            return f"Return {option} curse token{'' if option == '1' else 's'}"
    return option


def card_number(card_id: int) -> str:
    """A player card's number among its owner's 20, as the board shows it: "card #7"."""
    return f"card #{card_id % 20 + 1}"


def holder_of(state: State, instance: int) -> int | None:
    """The player card an advancement is sleeved into, if any."""
    for card in state.physical:
        if any(instance in stack for stack in card.slots.values()):
            return card.id
    return None


def explain(state: State, action: Action, seat: int | None = None) -> str:
    """What a legal action costs and leads to, in a few words."""
    seat = state.active if seat is None else seat
    a = action.args
    pack = pack_of(state)
    player = state.players[seat]
    match action.kind:
        case "leader":
            return in_menu(card_text(pack.leader(a[0])))
        case "push":
            on_deck = player.on_deck
            risk = decay_count(state, seat)
            shows = card_label(state, on_deck) if on_deck is not None else "nothing"
            return f"{shows} joins your field · decay now {risk}; 4 Spoils"
        case "stop":
            harvested = plural(len(player.field), "card")
            return f"Harvest your {harvested}: count mana and spirits, then buy"
        case "buy":
            card = pack.advancement(state.cards[int(a[0])])
            return in_menu(f"{cost_text(price(state, seat, card))} · {what_it_does(card)}")
        case "vale":
            vale = pack.vale(state.cards[int(a[0])])
            return in_menu(f"{cost_text(vale.cost)} · {what_it_does(vale)}")
        case "upgrade":
            return f"{cost_text(upgrade_cost(state, seat))} · one of your two buys"
        case "done":
            return "Unspent mana and spirits are lost; sleeve what you bought"
        case "sleeve":
            return "Stormbrew Titan: it counts, abilities and all, in this Harvest"
        case "use" | "skip":
            pending = state.pending[0]
            ability = abilities.abilities_of(state, pending.source)[pending.ability]
            if action.kind == "skip" and abilities.before_tokens(state, ability):
                return "Not now: you are asked again once your VP and curse tokens are taken"
            if action.kind == "skip":
                return "The ability is not used this time"
            return in_menu(use_text(ability))
        case "choose":
            return _choice_detail(state, state.frames[-1], a[0])
    return ""


def _choice_detail(state: State, frame: Frame, option: str) -> str:
    if option == "none":
        return "Nothing is placed"
    match frame.kind:
        case "sleeve" if frame.subject is not None:
            return sleeve_detail(state, frame.subject, int(option))
        case "final_pick":
            return "One of the two cards of your final Harvest"
        case "discard_field":
            return "It goes to your discard pile"
        case "search":
            return "Placed at the end of your field (no When Played)"
        case "reserve":
            return "Yours to buy in this or a later Harvest; no one else can"
        case "free_row" | "sacrifice":
            card = pack_of(state).card(state.cards[int(option)])
            verb = "Removed from the game" if frame.kind == "sacrifice" else "Free"
            return in_menu(f"{verb} · {what_it_does(card)}")
        case "free_top" if frame.subject is not None:  # (a private menu: it names the card)
            name = name_of(state, frame.subject)
            return f"{name}, yours for free" if option == "take" else f"{name} goes back on top"
        case "discard_clean":
            return "It shows no decay: it goes to your discard pile"
        case "toll":
            return "Removed from the game" if option == "vale" else "Back to the box"
        case "toll_vale":
            vale = pack_of(state).vale(state.cards[int(option)])
            return in_menu(f"Removed from the game · {what_it_does(vale)}")
        case "shed":
            return f"{option} fewer points off at the end; back to the pool"
        case "cancel_spirit":
            left = getattr(state.harvest, option, 0)
            return f"You have {left} {option} this Harvest; it can't be spent once cancelled"
    return option


def sleeve_detail(state: State, instance: int, card_id: int) -> str:
    """Where an advancement goes in this card and what the card then is: "Fills the top
    slot, covering Duskwing Oracle ✦; it will show 2 mana · 3 sky (top + bottom filled)"
    (what fills the slots is left out where it doesn't fit)."""
    slot = advancement_of(state, instance).slot
    before = state.card(card_id).slots[slot]
    after = sleeved(state, card_id, instance)
    placed = after.slots[slot].index(instance)
    if placed < len(before):  # an eclipse slid under what is there
        how = f", under {layer_name(state, before[-1])}"
    elif before:
        how = f", covering {layer_name(state, before[-1])}"
    else:
        how = ""
    filled = [s for s in SLOTS if after.slots[s]]
    held = "all three slots" if len(filled) == len(SLOTS) else " + ".join(filled)
    shows = counts_text(shown(state, after)) or "nothing"
    said = f"Fills the {slot} slot{how}; it will show {shows}"
    full = f"{said} ({held} filled)"
    return full if len(full) <= NAME_LIMIT else shorten(said)


def question(state: State, seat: int) -> str | None:
    """What the game asks of `seat` now, in the second person."""
    if seat not in to_act(state):
        return None
    if state.frames:
        frame = state.frames[-1]
        if frame.kind == "use":
            does = explain(state, Action(kind="use"), seat)
            return f"{frame.prompt} ({does[:1].lower()}{does[1:]})"
        return frame.prompt
    player = state.players[seat]
    match state.phase:
        case "leaders":
            return "choose your leader: keep one of the two you were dealt"
        case "planting":
            decay = decay_count(state, seat)
            nxt = card_label(state, player.on_deck) if player.on_deck is not None else "nothing"
            try:
                check_stop(state, seat)
            except IllegalAction as held:  # Abomination: no stopping yet
                return f"your turn — Planting: push ({held.message}) Decay {decay}; on deck: {nxt}"
            return f"your turn — Planting: push or stop? Decay {decay} (4 Spoils); on deck: {nxt}"
        case "harvest":
            pool = state.harvest
            assert pool is not None
            spirits = ", ".join(
                f"{getattr(pool, s)} {s}"
                for s in ("sky", "animal", "water", "plant")
                if getattr(pool, s)
            )
            token = " + your mana token" if player.mana_token else ""
            vales, advancements = buys_left(pool)
            buys = [f"{plural(vales, 'vale')} (spirits)"] if vales else []
            if advancements:
                buys.append(f"{plural(advancements, 'advancement')} (mana)")
            offer = (
                f"buy up to {', then up to '.join(buys)}, then" if buys else "nothing left to buy:"
            )
            return (
                f"your Harvest — {pool.mana} mana{token}{', ' + spirits if spirits else ''}: "
                f"{offer} end your Harvest"
            )
    return None


def prompt(state: State) -> str:
    """What the game waits for, for everyone to read."""
    if state.phase == "over":
        return state.end_text or "The game is over."
    deciders = sorted(to_act(state))
    names = " and ".join(state.players[s].name for s in deciders)
    if state.frames:
        asked = state.frames[-1].prompt.replace("your ", "their ").replace("you ", "they ")
        return f"Waiting for {names} to {asked}"
    active = state.players[state.active].name
    match state.phase:
        case "leaders":
            return f"Waiting for {names} to choose a leader"
        case "planting":
            return f"{active}'s turn — Planting: decay {decay_count(state, state.active)} of 4"
        case "harvest":
            return f"{active}'s turn — Harvest"
    return f"{active}'s turn — {PHASES[state.phase]}"


def for_sale(state: State) -> list[int]:
    """Every advancement a player may buy from the commons now."""
    return offered(state)


__all__ = ["Advancement", "Vale", "describe", "explain", "prompt", "question"]
