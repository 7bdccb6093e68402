"""Command of Nature as an AI player reckons it: a side loses with its Sage, so a Sage's
HP left counts most, less the DMG the enemy may bring at it next turn (which depends on
the rows: an Attack Command reaches by distance, and far more of them reach Row I than
Row III); then the Elementals standing (their HP, STR and tokens), the levels earned by
defeating them, gold, and the cards a player owns to fight with (Attack Commands above
all: a side without them can never win)."""

from __future__ import annotations

import random
from functools import cache
from typing import ClassVar

from pydantic import BaseModel

from ai.judges import Judge
from rules.command_of_nature.attacks import keeps_boosts
from rules.command_of_nature.cards import CommandCard, get_pack
from rules.command_of_nature.combat import attack_reaches
from rules.command_of_nature.formation import ROWS, Elemental, Pos
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import Side, State
from rules.command_of_nature.table import elemental_def, is_sage
from rules.core import Action, Game, Seat

SAGE_HP = 2.0  # each HP a Sage has left
HP = 0.35  # each HP another Elemental has left (and each shield, anywhere)
STR = 0.45  # each point of an Elemental's STR
# Each boost on an Elemental: one attack's extra DMG, all of it spent by the next attack
# (so less than the HP it may take: an AI that counted it as lasting STR kept its boosts
# and never attacked with them). On one that keeps its boosts (Calamity Leopard in its
# rows) a boost is lasting STR.
BOOST = 0.2
STANDING = 1.0  # an Elemental in the formation at all
LEVEL = 0.9
GOLD = 0.15
CARD = 0.12  # each point of cost of the cards a player owns beyond the Sage pack
ATTACK = 0.6  # each Attack Command a side owns, up to ENOUGH_ATTACKS
ENOUGH_ATTACKS = 8
OWNED = 0.25  # each card a side owns, up to ENOUGH_CARDS
ENOUGH_CARDS = 15
# The share of an enemy's STR a Sage may expect to take from it next turn when every
# Attack Command reaches it (a hand holds a few Commands, 4 AP).
THREAT = 1.5
# The share of an enemy's boosts a Sage may expect to take: they go with one attack,
# and held back they must threaten less than they would deal now.
BOOST_THREAT = 0.5
LOOK = 40  # the most steps a glance plays on to see an attack land


class CommandOfNatureNovice(Judge):
    """The practice opponent: it counts what stands, not where it stands."""

    weights: ClassVar[dict[str, float]] = {
        "attack": 5.0,
        "summon": 3.0,
        "play": 2.0,
        "instant": 1.5,
        "buy": 2.0,
        "faction": 2.0,
        "daybreak": 3.0,
        "swap": 0.2,
        "draw": 0.4,
        "refresh": 0.1,
        "sell": 0.2,
        "phase": 0.3,
        "end": 0.3,
        "done": 0.3,
    }
    scale = 6.0

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        mine = state.side_of(seat)
        others = [s for s in state.sides if s.team != mine.team]
        return _strength(state, mine) - sum(_strength(state, s) for s in others) / len(others)


class CommandOfNatureJudge(CommandOfNatureNovice):
    """The novice's reckoning, and the Sages' danger: where each Sage stands against the
    enemy's attackers."""

    novice: Judge = CommandOfNatureNovice()
    always = frozenset({"attack", "play", "buy"})  # attacks, Commands, buys
    # What a turn leaves is worth what the enemy's next turn makes of it: a Sage left
    # in reach, an Elemental left standing to strike back. Judged after the enemy's
    # turn, the strong AI won 47 of 63 games against the baseline (57 % stopping where
    # its own turn ends, same seeds).
    turns_after = 1

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        mine = state.side_of(seat)
        others = [s for s in state.sides if s.team != mine.team]
        danger = sum(sage_danger(state, s, mine) for s in others) / len(others)
        danger -= sum(sage_danger(state, mine, s) for s in others) / len(others)
        arsenal = _arsenal(state, mine) - sum(_arsenal(state, s) for s in others) / len(others)
        return super().score(state, seat) - SAGE_HP * danger + arsenal

    def shortlist(
        self, game: Game, world: BaseModel, seat: Seat, legal: list[Action]
    ) -> list[Action]:
        """The choices worth searching (`Judge.shortlist`), never a swap that only
        rearranges the seat's formation without improving it (see `aimless`), nor,
        while an attack would land, a move that gives up attacking this turn (ending
        it, or Phase II, with AP left): a turn is for attacking, and judged after the
        enemy's turn the tries vary too much to trust a few of them on that."""
        assert isinstance(world, State)
        legal = [a for a in legal if not aimless(game, world, seat, a)] or legal
        forgoing = {a.key for a in legal if forgoes_attacks(game, world, seat, a)}
        if forgoing and any(a.kind == "attack" and lands(game, world, seat, a) for a in legal):
            legal = [a for a in legal if a.key not in forgoing]
        return super().shortlist(game, world, seat, legal)

    def card(self, action: Action) -> tuple[str, str]:
        """An attack's or Command's card, or the card a buy takes (its second argument)."""
        return (action.kind, action.args[1] if action.kind == "buy" else action.args[0])

    def glance(self, game: Game, world: BaseModel, seat: Seat, action: Action) -> float:
        """A choice's worth once it has played out: an attack with its DMG landed (the
        defenders let it through), a Command with its effect resolved."""
        return self.value(game, played(game, world, seat, action, self), seat)


def played(game: Game, state: State, seat: Seat, action: Action, judge: Judge) -> State:
    """The state once `action` has played out: an attack with its DMG landed (the
    defenders let it through), a Command with its effect resolved (other choices as the
    `judge`'s quick policy makes them)."""
    luck = random.Random(0)
    after, _ = game.apply(state, seat, action, luck)
    for _ in range(LOOK):
        assert isinstance(after, State)
        if not (after.frames or after.queue or after.attack) or game.outcome(after):
            break
        who = sorted(game.to_act(after))[0]
        legal = game.legal_actions(after, who)
        if not legal:
            break
        let = [a for a in legal if a.kind == "let"]
        move = let[0] if let else judge.quick(game, after, who, legal, luck)
        after, _ = game.apply(after, who, move, luck)
    assert isinstance(after, State)
    return after


def lands(game: Game, state: State, seat: Seat, attack: Action) -> bool:
    """Whether `attack` would hurt the enemy if the defenders let it through: an enemy
    Elemental takes DMG or leaves its formation."""
    after = played(game, state, seat, attack, Judge())
    mine = state.side_of(seat).team
    for side in state.sides:
        if side.team == mine:
            continue
        now = {e.card: e.damage for e in _elementals(after.sides[side.team])}
        if any(now.get(e.card, -1) != e.damage for e in _elementals(side)):
            return True
    return False


def forgoes_attacks(game: Game, state: State, seat: Seat, action: Action) -> bool:
    """Whether `action` leaves Phases I-II, or the turn, while the seat's side has AP
    left: no attack can follow it this turn."""
    if state.phase not in ("daybreak", "actions") or state.side_of(seat).ap <= 0:
        return False
    if state.frames or action.kind == "attack":
        return False
    after, _ = game.apply(state, seat, action, random.Random(0))
    assert isinstance(after, State)
    return after.phase not in ("daybreak", "actions") or after.turn != state.turn


def _elementals(side: Side) -> list[Elemental]:
    return [e for pos in side.formation.occupied() if (e := side.formation.at(pos)) is not None]


def aimless(game: Game, state: State, seat: Seat, action: Action) -> bool:
    """Whether `action` is a swap that only rearranges the seat's formation (nothing else
    changes but the AP it costs) and does not raise `arrangement`: such swaps could
    undo each other within a turn, or change nothing at all (twins), so the AI makes a
    plain swap only when it climbs; an arrangement never comes back by climbing."""
    if action.kind != "swap":
        return False
    after, _ = game.apply(state, seat, action, random.Random(0))
    assert isinstance(after, State)
    if _rest(after) != _rest(state):
        return False  # something was set off: not a plain rearrangement
    return arrangement(after, seat) <= arrangement(state, seat)


def _rest(state: State) -> dict[str, object]:
    """Everything of a state but the formations' arrangement and the AP."""
    dump = state.model_dump(exclude={"sides": {"__all__": {"formation", "ap"}}})
    dump["elementals_in_play"] = sorted(
        (side.team, e.card, e.owner, e.damage, e.shields, e.boosts)
        for side in state.sides
        for pos in side.formation.occupied()
        if (e := side.formation.at(pos)) is not None
    )
    return dump


def arrangement(state: State, seat: Seat) -> tuple[float, tuple[tuple[object, ...], ...]]:
    """How well a seat's side stands arranged, from what every seat sees: the Sages'
    danger both ways (as `score` counts it), then, among arrangements alike in that,
    a fixed order of the formation (so that a plain swap can only go one way)."""
    mine = state.side_of(seat)
    others = [s for s in state.sides if s.team != mine.team]
    danger = sum(sage_danger(state, s, mine) - sage_danger(state, mine, s) for s in others)
    order = tuple(
        ("",)
        if (e := mine.formation.at(pos)) is None
        else (
            state.cards[e.card],
            e.owner,
            e.damage,
            e.shields,
            e.boosts,
            e.card in mine.attacked,
            e.card in mine.daybreak,
        )
        for pos in mine.formation.positions()
    )
    return (round(-danger / len(others), 9), order)


def _arsenal(state: State, side: Side) -> float:
    """What a side's cards are worth to fight with, whatever they cost: without Attack
    Commands a side can never win (selling them all is a stalemate at best)."""
    attacks = owned = 0
    for seat in side.seats:
        player = state.players[seat]
        for card in (*player.hand, *player.deck, *player.discard):
            definition = card_of(state, card)
            owned += 1
            attacks += isinstance(definition, CommandCard) and definition.type == "attack"
    return ATTACK * min(attacks, ENOUGH_ATTACKS) + OWNED * min(owned, ENOUGH_CARDS)


@cache
def reach(pack: str) -> dict[tuple[int, int], float]:
    """For an attacker's row and a target's row, the share of the Attack Commands (by
    copies) that let the one hit the other."""
    commands = [c for c in get_pack(pack).commands() if c.attack is not None]
    copies = [max(1, c.copies + c.pack_copies) for c in commands]
    total = sum(copies)
    return {
        (a, t): sum(
            n for c, n in zip(commands, copies, strict=True) if attack_reaches(c, (a, 0), (t, 0))
        )
        / total
        for a in range(ROWS)
        for t in range(ROWS)
    }


def sage_danger(state: State, attackers: Side, defenders: Side) -> float:
    """The DMG the `attackers`' side may bring at the `defenders`' Sages next turn."""
    shares = reach(state.pack)
    sages: list[Pos] = []
    blows: list[tuple[int, int]] = []
    for pos in defenders.formation.occupied():
        elemental = defenders.formation.at(pos)
        if elemental is not None and is_sage(state, elemental.card):
            sages.append(pos)
    if not sages:
        return 0.0
    for pos in attackers.formation.occupied():
        elemental = attackers.formation.at(pos)
        assert elemental is not None
        strength = elemental_def(state, elemental.card).strength
        lasting = elemental.boosts and keeps_boosts(state, elemental.card)
        boost = THREAT if lasting else BOOST_THREAT
        blows.append((pos[0], THREAT * strength + boost * elemental.boosts))
    total = 0.0
    for sage in sages:
        shields = defenders.formation.at(sage).shields  # type: ignore[union-attr]
        hits = sorted((shares[row, sage[0]] * power for row, power in blows), reverse=True)
        total += max(0.0, sum(hits[:2]) - 0.5 * shields)
    return total


def _strength(state: State, side: Side) -> float:
    """A side's standing: its formation, levels, gold and bought cards."""
    total = GOLD * side.gold
    for pos in side.formation.occupied():
        elemental = side.formation.at(pos)
        assert elemental is not None
        definition = elemental_def(state, elemental.card)
        left = max(0, definition.hp - elemental.damage) + elemental.shields
        if definition.kind == "sage":
            total += SAGE_HP * left
        else:
            lasting = elemental.boosts and keeps_boosts(state, elemental.card)
            boost = STR if lasting else BOOST
            total += STANDING + HP * left + STR * definition.strength + boost * elemental.boosts
    for seat in side.seats:
        player = state.players[seat]
        total += LEVEL * player.level
        for card in (*player.hand, *player.deck, *player.discard):
            definition = card_of(state, card)
            if not definition.in_sage_pack:
                total += CARD * definition.cost
    return total
