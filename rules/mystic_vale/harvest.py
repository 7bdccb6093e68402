"""The Harvest Phase: Harvest abilities, VP and curse tokens, then buying.

In the rulebook's order: the Harvest abilities of the field, the vales and an upgraded
titan resolve; the VP tokens the field shows are taken from the pool, and the curse
tokens it shows from the pool of curses (the on-deck card never counts); then vales
are bought with spirit symbols (two at most), then advancements with mana (two at most:
from the commons, the Fertile Soils, the level-4 row or one's Reserved advancements),
each only if it can be sleeved into a card of the field alongside what was already
bought. Upgrading one's leader counts as one of the two advancement buys. An active
mana token is worth 1 mana, spent after the Harvest's own mana.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.core import IllegalAction
from rules.core.text import plural
from rules.mystic_vale import abilities
from rules.mystic_vale.cards import Advancement, Cost, Special, Vale
from rules.mystic_vale.commons import offered, one_of_each, take
from rules.mystic_vale.moves import (
    all_fit,
    card_label,
    gain_curses,
    gain_vp,
    homes,
    name_of,
    sleeve,
)
from rules.mystic_vale.nemesis import spot
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import Harvest, State
from rules.mystic_vale.symbols import field_total, pack_of, shown
from rules.mystic_vale.turn import begin_discard, over_land

BUYS = 2  # advancements (and leader upgrades) a Harvest may buy
VALE_BUYS = 2  # vales a Harvest may buy (the notes' default)
SPENDABLE = ("mana", "sky", "animal", "water", "plant", "guardian")


def buys_left(harvest: Harvest) -> tuple[int, int]:
    """The vales, then the advancements, a Harvest may still buy (no vale once an
    advancement is bought)."""
    vales = 0 if harvest.advancements_started else VALE_BUYS - harvest.vale_buys
    return vales, BUYS - harvest.buys


def begin_harvest(state: State, seat: int) -> Events:
    """The player stops pushing: the field's mana, spirits and guardians are counted and
    its Harvest abilities go off (VP and curse tokens follow once they resolve)."""
    player = state.players[seat]
    state.phase = "harvest"
    total = field_total(state, seat)
    state.harvest = Harvest(**{k: total[k] for k in SPENDABLE})
    abilities.set_off(state, seat, "harvest", list(abilities.play_area_sources(state, seat)))
    if state.nemesis is not None:
        state.nemesis.spot = spot(state)
        # What the nemesis takes of the Harvest comes off last, after every gain.
        state.pending.sort(key=lambda p: p.source.startswith("n:"))
    harvested = plural(len(player.field), "card")
    return [_ev("stop", f"{player.name} stops and harvests {harvested}.", seat)]


def score_field(state: State, seat: int) -> Events:
    """The VP tokens and curse tokens the field shows (cards whose curses an ability
    cancelled give none); then an ability usable before or after them that was declined
    before them comes up again, while its card is still in the field."""
    harvest = state.harvest
    assert harvest is not None
    harvest.scored = True
    field = state.players[seat].field
    vp = curses = 0
    for card_id in field:
        symbols = shown(state, state.card(card_id))
        vp += symbols["vp"]
        if card_id not in harvest.no_curses:
            curses += symbols["curse"]
    again = [p.model_copy(update={"op": 0}) for p in harvest.after_tokens if p.card in field]
    harvest.after_tokens = []
    state.pending.extend(again)
    return gain_vp(state, seat, vp) + gain_curses(state, seat, curses)


def late_tokens(state: State, seat: int, card_id: int, more: Mapping[str, int]) -> Events:
    """The VP and curse tokens a field card shows `more` of once the field's were taken
    (a card placed into the field, an advancement sleeved during the Harvest): they are
    taken as the field's were (a card whose curses were cancelled gives none)."""
    harvest = state.harvest
    assert harvest is not None
    curses = 0 if card_id in harvest.no_curses else more.get("curse", 0)
    return gain_vp(state, seat, more.get("vp", 0)) + gain_curses(state, seat, curses)


def _require_buying(state: State, seat: int) -> Harvest:
    if state.phase != "harvest" or state.active != seat or state.harvest is None:
        raise IllegalAction("phase", "Cards are bought in your Harvest Phase.")
    if state.frames or state.pending or not state.harvest.scored:
        raise IllegalAction("not-now", "Finish what is under way first.")
    return state.harvest


# --------------------------------------------------------------------------- prices


def price(state: State, seat: int, card: Advancement) -> Cost:
    """What an advancement costs this seat now (Tidal Wave Titan lowers the mana by one
    for each guardian the advancement shows)."""
    cost = card.cost
    if card.symbols.guardian and _guardian_discount(state, seat):
        cost = cost.model_copy(update={"mana": max(0, cost.mana - card.symbols.guardian)})
    return cost


def _guardian_discount(state: State, seat: int) -> bool:
    """Tidal Wave Titan's starting side lowers prices while it is in the field, and for
    the rest of the Harvest it is upgraded in (the rulebook: a titan's starting ability
    and symbols still work in the Harvest Phase it is upgraded in)."""
    if abilities.standing_special(state, seat, "guardian_discount"):
        return True
    player = state.players[seat]
    if not (player.titan_aside and player.leader and player.upgraded_on_turn == state.turn):
        return False
    start = pack_of(state).leader(player.leader).start
    return any(
        isinstance(op, Special) and op.name == "guardian_discount"
        for ability in start.abilities
        for op in ability.ops
    )


def _cost_text(cost: Cost) -> str:
    return ", ".join(f"{n} {k}" for k, n in cost.counts().items()) or "nothing"


def buyable(state: State, seat: int) -> list[int]:
    """The advancements the seat may choose to buy: the commons' and its own Reserved
    ones, copies of one card being one choice (the first of them)."""
    return [*offered(state), *one_of_each(state, state.players[seat].reserved)]


def check_buy(state: State, seat: int, instance: int) -> Advancement:
    """Buying an advancement: one of the two buys, its cost paid, room in the field."""
    harvest = _require_buying(state, seat)
    if instance not in buyable(state, seat):
        if instance in state.players[seat].reserved:
            raise IllegalAction(
                "not-offered",
                f"Your Reserved copies of {name_of(state, instance)} are one choice: buy "
                "the one your menu offers.",
            )
        raise IllegalAction("not-offered", "That advancement isn't in the commons or your Reserve.")
    card = pack_of(state).advancement(state.cards[instance])
    if harvest.buys >= BUYS:
        raise IllegalAction("buys", f"You have bought {BUYS} advancements this turn already.")
    cost = price(state, seat, card)
    if not abilities.can_pay(state, seat, cost):
        raise IllegalAction(
            "cost", f"{card.shown_name} costs {_cost_text(cost)}; you can't pay it."
        )
    if not all_fit(state, seat, [*harvest.bought, instance], over_land=over_land(state, seat)):
        raise IllegalAction(
            "no-room",
            f"{card.shown_name} goes into the {card.slot} slot and no card of your field has "
            "room for it (with what you bought).",
        )
    return card


def buy(state: State, seat: int, instance: int) -> Events:
    """Pay and take the advancement; it is sleeved in the Discard Phase."""
    card = check_buy(state, seat, instance)
    harvest = state.harvest
    assert harvest is not None
    player = state.players[seat]
    cost = price(state, seat, card)
    abilities.pay(state, seat, cost)
    if instance in player.reserved:
        player.reserved.remove(instance)
    else:
        take(state, instance)
    curses = abilities.commons_curses(state, seat, instance)
    harvest.buys += 1
    harvest.advancements_started = True
    text = f"{player.name} buys {card.shown_name} for {_cost_text(cost)}."
    events = [_ev("buy", text, seat), *curses]
    harvest.bought.append(instance)
    abilities.set_front(state, seat, "bought", [(f"a:{instance}", None)])
    return events


def check_vale(state: State, seat: int, instance: int) -> Vale:
    """Buying a vale: two a turn, before any advancement, paid with spirit symbols."""
    harvest = _require_buying(state, seat)
    if not any(instance in row for row in state.commons.vale_rows.values()):
        raise IllegalAction("not-offered", "That vale isn't face up in the commons.")
    vale = pack_of(state).vale(state.cards[instance])
    if harvest.advancements_started:
        raise IllegalAction(
            "order", "Vales are bought before advancements, and you have bought one."
        )
    if harvest.vale_buys >= VALE_BUYS:
        raise IllegalAction("buys", f"You have bought {VALE_BUYS} vales this turn already.")
    if not abilities.can_pay(state, seat, vale.cost):
        raise IllegalAction(
            "cost", f"{vale.shown_name} costs {_cost_text(vale.cost)}; you can't pay it."
        )
    return vale


def buy_vale(state: State, seat: int, instance: int) -> Events:
    """Pay the spirits and take the vale into the play area."""
    vale = check_vale(state, seat, instance)
    harvest = state.harvest
    assert harvest is not None
    abilities.pay(state, seat, vale.cost)
    take(state, instance)
    harvest.vale_buys += 1
    player = state.players[seat]
    player.vales.append(instance)
    text = f"{player.name} buys {vale.shown_name} for {_cost_text(vale.cost)}."
    abilities.set_front(state, seat, "bought", [(f"v:{instance}", None)])
    return [_ev("vale", text, seat)]


# --------------------------------------------------------------------------- leaders


def upgrade_cost(state: State, seat: int) -> Cost:
    """What upgrading the seat's leader costs now: its cost, VP standing in for the spirit
    a leader allows once that spirit runs short."""
    player = state.players[seat]
    side = pack_of(state).leader(player.leader or "").start
    cost = side.upgrade
    assert cost is not None
    spirit = side.vp_replaces
    if spirit is None or state.harvest is None:
        return cost
    have = getattr(state.harvest, spirit)
    short = max(0, getattr(cost, spirit) - have)
    return cost.model_copy(update={spirit: getattr(cost, spirit) - short, "vp": cost.vp + short})


def check_upgrade(state: State, seat: int) -> None:
    """Upgrading one's leader: with it in the field, not yet upgraded, one of the buys."""
    harvest = _require_buying(state, seat)
    player = state.players[seat]
    if player.leader is None or player.leader_upgraded:
        raise IllegalAction("leader", "You have no leader left to upgrade.")
    if not any(state.card(c).leader == player.leader for c in player.field):
        raise IllegalAction("leader", "Your leader must be in your field to be upgraded.")
    if harvest.buys >= BUYS:
        raise IllegalAction("buys", "Upgrading is one of your two buys, and you have made both.")
    cost = upgrade_cost(state, seat)
    if not abilities.can_pay(state, seat, cost):
        raise IllegalAction("cost", f"Upgrading costs {_cost_text(cost)}; you can't pay it.")


def upgrade(state: State, seat: int) -> Events:
    """Pay and turn the leader over; a titan leaves its sleeve (the blank card stays in
    the field) and acts with its upgraded side from the next turn."""
    check_upgrade(state, seat)
    harvest = state.harvest
    assert harvest is not None
    player = state.players[seat]
    leader = pack_of(state).leader(player.leader or "")
    abilities.pay(state, seat, upgrade_cost(state, seat))
    harvest.buys += 1
    harvest.advancements_started = True
    player.leader_upgraded = True
    player.upgraded_on_turn = state.turn
    if leader.titan:
        card = next(c for c in player.field if state.card(c).leader == leader.id)
        state.card(card).leader = None
        player.titan_aside = True
    return [_ev("upgrade", f"{player.name} upgrades {leader.shown_name}.", seat)]


def check_sleeve_now(state: State, seat: int, instance: int, card_id: int) -> None:
    """Stormbrew Titan, upgraded: one advancement bought this Harvest may be sleeved at
    once into a card of the field, and used this turn."""
    harvest = _require_buying(state, seat)
    if not abilities.standing_special(state, seat, "sleeve_now") or harvest.sleeved_now:
        raise IllegalAction("sleeve", "Advancements are sleeved in your Discard Phase.")
    if instance not in harvest.bought:
        raise IllegalAction("sleeve", "Sleeve an advancement you bought this Harvest.")
    if instance not in one_of_each(state, harvest.bought):
        raise IllegalAction(
            "sleeve",
            f"Your bought copies of {name_of(state, instance)} are one choice: sleeve the "
            "one your menu offers.",
        )
    if card_id not in state.players[seat].field or card_id not in homes(
        state, seat, instance, over_land=over_land(state, seat)
    ):
        raise IllegalAction("sleeve", f"{name_of(state, instance)} doesn't fit into that card.")


def sleeve_now(state: State, seat: int, instance: int, card_id: int) -> Events:
    """Sleeve it now: what the card then shows more is added to this Harvest, and its
    Harvest abilities go off."""
    check_sleeve_now(state, seat, instance, card_id)
    harvest = state.harvest
    assert harvest is not None
    before = shown(state, state.card(card_id))
    into = card_label(state, card_id)
    sleeve(state, card_id, instance)
    harvest.bought.remove(instance)
    harvest.sleeved_now.append(instance)
    after = shown(state, state.card(card_id))
    for key in SPENDABLE:
        setattr(harvest, key, getattr(harvest, key) + after[key] - before[key])
    events = [
        _ev(
            "sleeve",
            f"{state.players[seat].name} sleeves {name_of(state, instance)} into {into} at once.",
            seat,
        )
    ]
    events += late_tokens(state, seat, card_id, after - before)
    sources = [(f"a:{instance}", card_id)]
    abilities.set_front(state, seat, "harvest", sources)
    return events


def finish(state: State, seat: int) -> Events:
    """The Harvest is over (unspent mana and spirits are lost): on to Discard."""
    _require_buying(state, seat)
    player = state.players[seat]
    return [_ev("done", f"{player.name} ends their Harvest.", seat), *begin_discard(state)]


def reserved_names(state: State, seat: int) -> list[str]:
    return [name_of(state, i) for i in state.players[seat].reserved]
