"""Mystic Vale with the Nemesis expansion: 2 to 4 players building their cards by
sleeving advancements, a push-your-luck Planting each turn, vales, curses, rituals,
eclipse advancements, level-4 advancements, Reserve, Sacrifice and titan leaders; and
the solitaire variant, one player against a nemesis and its corruption track."""

from __future__ import annotations

import random
from functools import cache
from typing import Any, ClassVar

from rules.core import (
    Action,
    Event,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    SeatSpec,
    VariantInfo,
    declare_options,
    fresh_copy,
    resolve_options,
)
from rules.core.rng import deal_again, rng_for, shuffle
from rules.core.text import chose
from rules.mystic_vale import abilities, actions, labels
from rules.mystic_vale.cards import DIFFICULTY, SLOTS, bundled_pack, get_pack
from rules.mystic_vale.harvest import buys_left
from rules.mystic_vale.moves import card_label, fold_lines, name_of
from rules.mystic_vale.nemesis import (
    is_active,
    nemesis_card,
    nemesis_score,
    pile_points,
    space_text,
    spot,
    track,
)
from rules.mystic_vale.scoring import finishing_order
from rules.mystic_vale.setup import RANDOM, setup_game
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import (
    advancements_on,
    decay_count,
    field_total,
    leader_side,
    pack_of,
    shown,
)
from rules.mystic_vale.text import ability_text, card_text
from rules.mystic_vale.turn import SPOIL_AT, can_spoil
from rules.mystic_vale.turn import concede as concede_game

SUMMARY = """\
**Goal.** The most points once the VP pool runs out (the round is then finished).
**Your turn.** *Planting*: push (your on-deck card joins your field and the next turns \
up) or stop; at 4 decay (less growth) on your field and on-deck card you Spoil: no \
Harvest, but your mana token turns active. *Harvest*: take the VP and curse tokens your \
field shows, use its abilities, buy up to 2 vales with spirit symbols, then up to 2 \
advancements with mana. *Discard*: sleeve each advancement into its slot of a card in \
your field, discard the field. *Prep*: turn cards into your next field until 3 decay.
**End.** VP tokens + end-of-game VP on your cards, vales and leader − curse tokens."""


def nemesis_choices() -> dict[str, str]:
    """The nemesis option's choices: drawn at random, or one of the bundled pack's
    nemeses by name, with its difficulty."""
    nemeses = sorted(get_pack("nemesis").nemeses, key=lambda n: (n.pips, n.name))
    return {
        RANDOM: "A nemesis drawn at random",
        **{n.id: f"{n.shown_name} ({DIFFICULTY[n.pips]})" for n in nemeses},
    }


class MysticVale:
    """The Game contract for Mystic Vale (Nemesis)."""

    id: ClassVar[str] = "mystic-vale"
    name: ClassVar[str] = "Mystic Vale"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "2p": VariantInfo(
            id="2p",
            name="2 players",
            min_players=2,
            max_players=2,
            blurb="One against one: sleeve advancements, push your luck, most points wins.",
        ),
        "3p": VariantInfo(
            id="3p",
            name="3 players",
            min_players=3,
            max_players=3,
            blurb="Three players, 28 VP in the pool: most points when it runs out wins.",
        ),
        "4p": VariantInfo(
            id="4p",
            name="4 players",
            min_players=4,
            max_players=4,
            blurb="Four players, 33 VP in the pool: most points when it runs out wins.",
        ),
        "solo": VariantInfo(
            id="solo",
            name="Solitaire (Nemesis)",
            min_players=1,
            max_players=1,
            blurb="You against a nemesis that claims cards and VP each turn: outscore it.",
        ),
    }
    options: ClassVar[dict[str, OptionInfo]] = declare_options(
        OptionInfo(
            id="leaders",
            label="Leaders",
            choices={"off": "Leaders off", "on": "Leaders on"},
            default="off",
            variant_defaults={"solo": "on"},
            blurb="whether each player keeps one of two titans dealt as a leader, sleeved into "
            "a blank card",
        ),
        OptionInfo(
            id="nemesis",
            label="Nemesis",
            choices=nemesis_choices(),
            default=RANDOM,
            only=("solo",),
            blurb="the opponent of a solitaire game: chosen, or drawn at random",
        ),
        OptionInfo(
            id="track",
            label="Corruption track",
            choices={"easy": "Easy track", "standard": "Standard track"},
            default="easy",
            only=("solo",),
            blurb="the side of the corruption track: what the nemesis claims each turn",
        ),
        variants=("solo", "2p", "3p", "4p"),
    )
    open_kinds: ClassVar[frozenset[str]] = frozenset()
    preferences: ClassVar[dict[str, PreferenceInfo]] = {}  # no standing answers
    state_model: ClassVar[type[State]] = State
    rules_summary: ClassVar[str] = SUMMARY
    default_pack: ClassVar[str | None] = "nemesis"

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> State:
        pack = str(options.get("pack", self.default_pack))
        get_pack(pack)
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        chosen = resolve_options(self, variant, options)
        leaders = chosen["leaders"] == "on"
        mix = "nemesis"  # the base game's own cards are not public: Nemesis alone
        rng = rng_for(seed, 0)
        state = setup_game(
            variant,
            names,
            pack,
            mix,
            leaders,
            rng,
            nemesis=chosen["nemesis"],
            side=chosen["track"],
        )
        if state.phase != "leaders":
            state.phase = "prep"
            state.prepping = [(state.first + i) % len(names) for i in range(len(names))]
            actions.advance(state, rng)
        return state

    def to_act(self, state: State) -> set[int]:  # type: ignore[override]
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: Action, rng: random.Random
    ) -> tuple[State, list[Event]]:  # type: ignore[override]
        actions.check(state, seat, action)
        new = fresh_copy(state)
        return new, actions.apply_action(new, seat, action, rng)

    def concede(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:  # type: ignore[override]
        new = fresh_copy(state)
        events = concede_game(new, seat)
        return new, fold_lines(new, events + actions.advance(new, rng))

    def redeal(self, state: State, seat: int, rng: random.Random) -> State:  # type: ignore[override]
        """Every deck reshuffled (each player's, the advancement and vale decks), but for
        the top card of a deck `seat` is looking at and the cards everyone saw go to
        the bottom of a player's deck; during the leader choice, the
        leaders dealt to the others drawn again from those `seat` hasn't seen."""
        new = fresh_copy(state)
        looked_at = {f.subject for f in new.frames if f.kind == "free_top" and seat in f.deciders}
        commons = new.commons
        under = {id(p.deck): p.shown_under for p in new.players}  # put there in public
        for deck in [p.deck for p in new.players] + [
            *commons.decks.values(),
            *commons.vale_decks.values(),
        ]:
            bottom = min(under.get(id(deck), 0), len(deck))
            top = len(deck) - 1 if deck and deck[-1] in looked_at else len(deck)
            unseen = deck[bottom:top]
            deal_again([unseen], rng)
            deck[bottom:top] = unseen
        if new.phase == "leaders":
            _deal_leaders_again(new, seat, rng)
        return new

    def outcome(self, state: State) -> Outcome | None:  # type: ignore[override]
        if state.phase != "over":
            return None
        nemesis = nemesis_card(state) if state.nemesis is not None else None
        return Outcome(
            winners=list(state.winners),
            losers=list(state.losers),
            reason="concession" if any(p.conceded for p in state.players) else "score",
            text=state.end_text,
            against=nemesis.shown_name if nemesis else None,
            against_level=nemesis.pips if nemesis else 0,
            places=finishing_order(state),
        )

    def describe(self, action: Action, state: State) -> str:  # type: ignore[override]
        return labels.describe(state, action)

    def acknowledge(self, action: Action, state: State, seat: int) -> str:  # type: ignore[override]
        return chose(labels.describe(state, action))

    def explain(self, action: Action, state: State, seat: int | None = None) -> str:  # type: ignore[override]
        return labels.explain(state, action, seat)

    def question(self, state: State, seat: int) -> str | None:  # type: ignore[override]
        return labels.question(state, seat)

    def candidates(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return list(actions.candidates(state, seat))

    def standing_answer(  # type: ignore[override]
        self, state: State, seat: int, chosen: frozenset[str]
    ) -> Action | None:
        return None

    def card_texts(self, pack: str | None) -> dict[str, str]:
        return _card_texts(pack or bundled_pack().name)

    def team_of(self, state: State, seat: int) -> int:  # type: ignore[override]
        return seat

    def active_seat(self, state: State) -> int | None:  # type: ignore[override]
        return None if state.phase in ("leaders", "over") else state.active

    def timeout_action(self, state: State, seat: int) -> Action:  # type: ignore[override]
        return actions.timeout_action(state, seat)

    def rename(self, state: State, seat: int, name: str) -> State:  # type: ignore[override]
        new = fresh_copy(state)
        new.players[seat].name = name
        return new

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return view(state, seat)


def _card_view(state: State, card_id: int) -> dict[str, Any]:
    """A player card face up: what each slot shows (top first), its leader, its symbols."""
    card = state.card(card_id)
    slots = {}
    for slot in SLOTS:
        slots[slot] = [
            name_of(state, layer) if isinstance(layer, int) else layer.replace("_", " ")
            for layer in card.slots[slot]
        ]
    leader = None
    if card.leader is not None:
        titan = pack_of(state).leader(card.leader)
        side = "upgraded" if leader_side(state, card) is titan.upgraded else "starting"
        leader = {"name": titan.shown_name, "side": side}
    nemesis = None if card.nemesis is None else pack_of(state).nemesis(card.nemesis).shown_name
    return {
        "id": card_id,
        "label": card_label(state, card_id),
        "slots": slots,
        "leader": leader,
        "nemesis": nemesis,  # the nemesis sleeved over the whole card (solitaire)
        "symbols": dict(shown(state, card)),
    }


def _for_sale(state: State, instance: int | None) -> dict[str, Any] | None:
    if instance is None:
        return None
    printed = _printed(state.pack, state.cards[instance])
    return {"instance": instance, **printed, "cost": dict(printed["cost"])}


@cache
def _printed(pack: str, card_id: str) -> dict[str, Any]:
    """What the view shows of a card for sale that its printing alone decides (the same
    for every copy, in every state: worked out once)."""
    card = get_pack(pack).card(card_id)
    return {
        "name": card.shown_name,
        "level": getattr(card, "level", None),
        "slot": getattr(card, "slot", None),
        "cost": card.cost.counts(),  # type: ignore[union-attr]
        "text": card_text(card),
    }


def _growth(state: State, seat: int) -> int:
    """The growth on a player's field and on-deck card: what `decay` is net of."""
    player = state.players[seat]
    total = field_total(state, seat)["growth"]
    if player.on_deck is not None:
        total += shown(state, state.card(player.on_deck))["growth"]
    return total


def _push_label(state: State, seat: int) -> str:
    """The Push button's label with the Spoil risk: the decay against the threshold, as
    the board counts it (field and on-deck card), then its two parts, each named."""
    field = field_total(state, seat)
    before = max(0, field["decay"] - field["growth"])
    after = decay_count(state, seat)
    if not can_spoil(state, seat):
        return f"Push (decay {after} of {SPOIL_AT}: you can't Spoil now)"
    return f"Push (decay {after} of {SPOIL_AT}: field {before}, on deck {after - before:+d})"


MOST_QUICK_OPTIONS = 4  # a choice of more options is left to the menu


def _quick(state: State) -> list[dict[str, str]]:
    """The active seat's choices worth a button (the bot shows them under the line that
    calls the player): in Planting, Push (with the Spoil risk) and Stop; in the Harvest,
    ending it (a hurried player buys nothing); an ability's use, or not; the options of a
    choice of a few (the field card to sleeve an advancement into, say)."""
    seat = state.active
    if seat is None or seat not in actions.to_act(state):
        return []
    legal = {a.key: a for a in actions.legal_actions(state, seat)}
    quick = []
    if "push" in legal:
        risky = can_spoil(state, seat) and decay_count(state, seat) >= SPOIL_AT - 1
        label = _push_label(state, seat)
        quick.append({"key": "push", "label": label, "style": "danger" if risky else "primary"})
    for key, style in (("stop", "success"), ("use", "primary"), ("skip", "secondary")):
        if key in legal:
            quick.append({"key": key, "label": labels.describe(state, legal[key]), "style": style})
    options = [a for a in legal.values() if a.kind == "choose"]
    if len(options) <= MOST_QUICK_OPTIONS:  # a choice of a few (public) cards: one tap each
        quick += [{"key": a.key, "label": labels.describe(state, a)} for a in options]
    if "done" in legal:
        label = labels.describe(state, legal["done"])
        harvest = state.harvest
        bought = harvest is not None and (harvest.buys > 0 or harvest.vale_buys > 0)
        label = label if bought else f"{label}, buying nothing"
        quick.append({"key": "done", "label": label, "style": "secondary"})
    return quick


def _fertile_soils(state: State) -> list[dict[str, Any]]:
    """The Fertile Soil supply by slot: how many are left and what one costs."""
    by_slot: dict[str, list[int]] = {}
    for instance in state.commons.fertile:
        slot = pack_of(state).advancement(state.cards[instance]).slot
        by_slot.setdefault(slot, []).append(instance)
    return [
        {**(_for_sale(state, by_slot[slot][0]) or {}), "count": len(by_slot[slot])}
        for slot in SLOTS
        if slot in by_slot
    ]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (None: everyone). Every field, on-deck card, vale and token is
    public; no deck's order ever appears, only its size."""
    commons = state.commons
    players = []
    for p in state.players:
        leader = None
        if p.leader is not None:
            card = next((c for c in state.physical if c.leader == p.leader), None)
            leader = {
                "name": pack_of(state).leader(p.leader).shown_name,
                "upgraded": p.leader_upgraded,
                "aside": p.titan_aside,
                "text": card_text(pack_of(state).leader(p.leader)),
                "in_field": card is not None and card.id in p.field,
            }
            if card is not None:
                leader["symbols"] = leader_side(state, card).symbols.counts()
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "field": [_card_view(state, c) for c in p.field],
                "on_deck": _card_view(state, p.on_deck) if p.on_deck is not None else None,
                "decay": decay_count(state, p.seat),
                "growth": _growth(state, p.seat),
                "cannot_spoil": not can_spoil(state, p.seat),
                "deck_count": len(p.deck),
                "discard_count": len(p.discard),
                "vales": [name_of(state, v) for v in p.vales],
                "vp": p.vp,
                "curses": p.curses,
                "mana_token": p.mana_token,
                "reserved": [_for_sale(state, i) for i in p.reserved],
                "leader": leader,
                "conceded": p.conceded,
            }
        )
    pool = state.harvest
    out: dict[str, Any] = {
        "game": MysticVale.id,
        "variant": state.variant,
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn + 1,  # the turn under way, counted from 1
        "active": state.active,
        "first": state.first,
        "last_round": state.last_round,
        "pool": state.pool,
        "prompt": labels.prompt(state),
        "to_act": sorted(actions.to_act(state)),
        "harvest": {
            **pool.model_dump(exclude={"bought", "sleeved_now", "no_curses", "after_tokens"}),
            **dict(zip(("vale_buys_left", "buys_left"), buys_left(pool), strict=True)),
        }
        if pool is not None
        else None,
        "bought": [name_of(state, i) for i in pool.bought] if pool is not None else [],
        "players": players,
        "commons": {
            "rows": {
                str(lv): [_for_sale(state, i) for i in row] for lv, row in commons.rows.items()
            },
            "level4": [_for_sale(state, i) for i in commons.level4],
            "fertile": len(commons.fertile),
            "fertile_soils": _fertile_soils(state),
            "decks": {str(lv): len(d) for lv, d in commons.decks.items()},
            "vales": {
                str(lv): [_for_sale(state, i) for i in row] for lv, row in commons.vale_rows.items()
            },
            "vale_decks": {str(lv): len(d) for lv, d in commons.vale_decks.items()},
        },
        "spoil_at": SPOIL_AT,
        "quick": _quick(state),
        "scores": dict(state.scores),
        "outcome": {"winners": state.winners, "text": state.end_text}
        if state.phase == "over"
        else None,
    }
    if state.nemesis is not None:
        out["nemesis"] = _nemesis_view(state)
    if seat is not None:
        out["me"] = seat
        mine = state.players[seat]
        # What one's deck holds is known (every card was built in the open; the discard
        # pile is face up), never its order: the cards come in the order of their numbers.
        out["deck_cards"] = [_card_view(state, c) for c in sorted(mine.deck)]
        out["discard_cards"] = [_card_view(state, c) for c in sorted(mine.discard)]
        out["card_texts"] = _own_texts(state, seat)
        out["decision"] = _decision(state, seat)
        out["leader_options"] = [
            {"name": leader.shown_name, "text": card_text(leader)}
            for leader in map(pack_of(state).leader, state.players[seat].leader_options)
        ]
    return out


def _nemesis_view(state: State) -> dict[str, Any]:
    """The nemesis as the table sees it: its card and which of its abilities act, the
    corruption track with the hourglass on it, its score pile and its score so far."""
    n = state.nemesis
    assert n is not None
    card = nemesis_card(state)
    spaces = track(state).spaces
    points, effects = pile_points(state)
    return {
        "name": card.shown_name,
        "power": card.power,
        "pips": card.pips,
        "difficulty": DIFFICULTY[card.pips],
        "text": card_text(card),
        "symbols": dict(shown(state, state.card(n.physical))),
        "abilities": [
            {
                "text": ability_text(a, aside=True),
                "hourglass": a.hourglass,
                "active": is_active(state, a),
            }
            for a in card.abilities
        ],
        "decay_later": [
            {"hourglass": d.hourglass, "decay": d.decay, "active": d.hourglass <= n.space}
            for d in card.hourglass_decay
        ],
        "where": spot(state),
        "side": n.side,
        "space": n.space,
        "last": len(spaces) - 1,
        "track": [space_text(s) for s in spaces],
        "next": space_text(spaces[min(n.space + 1, len(spaces) - 1)]),
        "pile": [name_of(state, i) for i in n.pile],
        "vp": n.vp,
        "pile_points": points,
        "end_effects": effects,
        "score": nemesis_score(state),
    }


def _own_texts(state: State, seat: int) -> dict[str, str]:
    """The rules text of everything in a player's field, on-deck card and vales, by name
    (each name once)."""
    player = state.players[seat]
    cards = [*player.field, *([player.on_deck] if player.on_deck is not None else [])]
    instances = [i for c in cards for i in advancements_on(state, state.card(c))]
    texts: dict[str, str] = {}
    for instance in [*instances, *player.vales]:
        card = pack_of(state).card(state.cards[instance])
        texts.setdefault(card.shown_name, card_text(card))
    return texts


def _decision(state: State, seat: int) -> dict[str, Any] | None:
    """What a decision of `seat` is about: the card they looked at (theirs alone to see),
    the card whose ability asks, or the card the decision concerns, with its text (None
    when the seat decides nothing now, or the decision is about no card)."""
    if seat not in actions.to_act(state) or not state.frames:
        return None
    frame = state.frames[-1]
    about: dict[str, Any] | None = None
    pending = next((p for p in state.pending if p.seat == seat), None)
    if frame.kind == "free_top" and frame.subject is not None:  # the card they looked at
        card = pack_of(state).card(state.cards[frame.subject])
        about = {"name": card.shown_name, "text": card_text(card)}
    elif pending is not None:
        ability = abilities.abilities_of(state, pending.source)[pending.ability]
        about = {
            "name": abilities.source_name(state, pending.source),
            "text": ability_text(ability),
        }
    elif frame.kind == "sleeve" and frame.subject is not None:  # the advancement to sleeve
        card = pack_of(state).card(state.cards[frame.subject])
        about = {"name": card.shown_name, "text": card_text(card)}
    return {"kind": frame.kind, "prompt": frame.prompt, "about": about}


GAME = MysticVale()

__all__ = ["GAME", "MysticVale", "State", "view"]


def _deal_leaders_again(state: State, seat: int, rng: random.Random) -> None:
    """The others' two leaders each, as `seat` imagines them: drawn from the pack's
    leaders that are neither its own options nor chosen already."""
    seen = set(state.players[seat].leader_options)
    seen |= {p.leader for p in state.players if p.leader is not None}
    unseen = sorted(leader.id for leader in pack_of(state).leaders if leader.id not in seen)
    shuffle(unseen, rng)
    for player in state.players:
        if player.seat != seat and player.leader is None:
            player.leader_options = sorted(unseen[:2])
            del unseen[:2]


@cache
def _card_texts(pack: str) -> dict[str, str]:
    """Every advancement, vale, leader and nemesis of a pack, with its text."""
    cards = get_pack(pack)
    texts: dict[str, str] = {}
    for card in (*cards.advancements, *cards.vales, *cards.leaders, *cards.nemeses):
        texts.setdefault(card.name, card_text(card))
    return texts
