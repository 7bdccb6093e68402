"""Mystic Vale with the Nemesis expansion: 2 to 4 players building their cards by
sleeving advancements, a push-your-luck Planting each turn, vales, curses, rituals,
eclipse advancements, level-4 advancements, Reserve, Sacrifice and titan leaders."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules.core import Action, Event, Outcome, SeatSpec, VariantInfo, fresh_copy
from rules.core.rng import rng_for
from rules.mystic_vale import actions, labels
from rules.mystic_vale.cards import SLOTS, get_pack
from rules.mystic_vale.moves import card_label, name_of
from rules.mystic_vale.setup import setup_game
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import decay_count, leader_side, pack_of, shown
from rules.mystic_vale.text import card_text
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


class MysticVale:
    """The Game contract for Mystic Vale (Nemesis)."""

    id: ClassVar[str] = "mystic-vale"
    name: ClassVar[str] = "Mystic Vale"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "2p": VariantInfo(id="2p", name="2 players", min_players=2, max_players=2),
        "3p": VariantInfo(id="3p", name="3 players", min_players=3, max_players=3),
        "4p": VariantInfo(id="4p", name="4 players", min_players=4, max_players=4),
    }
    state_model: ClassVar[type[State]] = State
    rules_summary: ClassVar[str] = SUMMARY
    default_pack: ClassVar[str | None] = "nemesis"

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> State:
        pack = str(options.get("pack", self.default_pack))
        get_pack(pack)
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        leaders = str(options.get("leaders", "off")) == "on"
        mix = str(options.get("cards", "nemesis"))
        rng = rng_for(seed, 0)
        state = setup_game(variant, names, pack, mix, leaders, rng)
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
        return new, events + actions.advance(new, rng)

    def outcome(self, state: State) -> Outcome | None:  # type: ignore[override]
        if state.phase != "over":
            return None
        return Outcome(
            winners=list(state.winners),
            losers=list(state.losers),
            reason="concession" if any(p.conceded for p in state.players) else "score",
            text=state.end_text,
        )

    def describe(self, action: Action, state: State) -> str:  # type: ignore[override]
        return labels.describe(state, action)

    def explain(self, action: Action, state: State, seat: int | None = None) -> str:  # type: ignore[override]
        return labels.explain(state, action, seat)

    def question(self, state: State, seat: int) -> str | None:  # type: ignore[override]
        return labels.question(state, seat)

    def candidates(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return list(actions.candidates(state, seat))

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
        side = "upgraded" if state.players[card.owner].leader_upgraded else "starting"
        leader = {"name": pack_of(state).leader(card.leader).shown_name, "side": side}
    return {
        "id": card_id,
        "label": card_label(state, card_id),
        "slots": slots,
        "leader": leader,
        "symbols": dict(shown(state, card)),
    }


def _for_sale(state: State, instance: int | None) -> dict[str, Any] | None:
    if instance is None:
        return None
    card = pack_of(state).card(state.cards[instance])
    return {
        "instance": instance,
        "name": card.shown_name,
        "level": getattr(card, "level", None),
        "slot": getattr(card, "slot", None),
        "cost": card.cost.counts(),  # type: ignore[union-attr]
        "text": card_text(card),
    }


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
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "last_round": state.last_round,
        "pool": state.pool,
        "prompt": labels.prompt(state),
        "to_act": sorted(actions.to_act(state)),
        "harvest": pool.model_dump(exclude={"bought", "sleeved_now", "no_curses"})
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
            "decks": {str(lv): len(d) for lv, d in commons.decks.items()},
            "vales": {
                str(lv): [_for_sale(state, i) for i in row] for lv, row in commons.vale_rows.items()
            },
            "vale_decks": {str(lv): len(d) for lv, d in commons.vale_decks.items()},
        },
        "scores": dict(state.scores),
        "outcome": {"winners": state.winners, "text": state.end_text}
        if state.phase == "over"
        else None,
    }
    if seat is not None:
        out["me"] = seat
    return out


GAME = MysticVale()

__all__ = ["GAME", "MysticVale", "State", "view"]
