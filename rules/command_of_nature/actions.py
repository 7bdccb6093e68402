"""Every decision a Command of Nature seat can take: candidates, checks and effects.

`legal_actions` runs each candidate through the same check that `apply` uses, so the
menu and the refusals always agree. Positions in keys read "row.space", 0-based; an
attack names its targets in the order they are hit, joined by "+" ("1.0+1.1").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import combinations

from rules.command_of_nature import battle, effects, plays, table, turn
from rules.command_of_nature.cards import ElementalCard
from rules.command_of_nature.combat import target_choices
from rules.command_of_nature.formation import (
    Pos,
    connected,
    gap_to_fill,
    summon_spaces,
)
from rules.command_of_nature.setup import (
    Events,
    choose_sage,
    formation_options,
    pack_of,
    sage_options,
    set_up_formation,
)
from rules.command_of_nature.state import Side, State
from rules.core import Action, IllegalAction, passing

PHASE_STEPS = {"daybreak": "actions", "actions": "market", "market": "cleanup"}
# The phase each standard action belongs to: offered in the phase before it too, the move
# on included (see `table.reached`).
PHASE_OF = {
    **dict.fromkeys(("summon", "attack", "play", "faction", "swap", "draw"), "actions"),
    **dict.fromkeys(("buy", "refresh", "sell"), "market"),
}


def pos_key(pos: Pos) -> str:
    return f"{pos[0]}.{pos[1]}"


def targets_key(targets: tuple[Pos, ...] | list[Pos]) -> str:
    """Several targets, in the order they are hit: "1.0+1.1"."""
    return "+".join(pos_key(t) for t in targets)


def parse_targets(state: State, text: str) -> list[Pos]:
    return [parse_pos(state, part) for part in text.split("+")]


def parse_pos(state: State, text: str) -> Pos:
    """A space of this game's formations from "row.space" (every formation of a game has
    the same shape)."""
    match = _POSITION.fullmatch(text)
    pos = (int(match[1]), int(match[2])) if match else (-1, -1)
    if not state.sides[0].formation.has(pos):
        raise IllegalAction("position", "That is not a space of a formation.")
    return pos


_POSITION = re.compile(r"(0|[1-9][0-9]?)\.(0|[1-9][0-9]?)")  # as pos_key writes it
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")


# --------------------------------------------------------------------------- whose decision


def to_act(state: State) -> set[int]:
    """Seats whose decision the game waits for."""
    if state.phase == "over":
        return set()
    if state.frames:
        return set(state.frames[-1].deciders)
    side = table.active_side(state)
    if state.phase == "cleanup":
        return {s for s in side.seats if s not in state.cleaned_up}
    return set(side.seats)


def _require(state: State, seat: int) -> None:
    if state.phase == "over":
        raise IllegalAction("over", "This game is over.")
    if seat not in to_act(state):
        waiting = ", ".join(state.players[s].name for s in sorted(to_act(state))) or "nobody"
        raise IllegalAction(
            "not-your-turn", f"It isn't your decision: the game waits for {waiting}."
        )


# --------------------------------------------------------------------------- candidates


def candidates(state: State, seat: int) -> Iterator[Action]:
    """A superset of the legal actions: the current phase's, moving on, End turn, and the
    next phase's actions (taken directly, the move on included)."""
    frame = state.frames[-1] if state.frames else None
    if frame is not None:
        yield from _frame_candidates(state, seat, frame.kind)
        return
    side = table.active_side(state)
    hand_ids = sorted({state.cards[c] for c in state.players[seat].hand})
    if state.phase == "daybreak":
        for card in side.daybreak:
            yield Action(kind="daybreak", args=(str(card),))
    if state.phase in ("daybreak", "actions"):
        yield from _phase_two(state, side, hand_ids)
    if state.phase in PHASE_STEPS:
        yield Action(kind="phase", args=(PHASE_STEPS[state.phase],))
    if state.phase in table.TURN_PHASES:
        for discards in turn.end_turn_choices(state, seat):
            yield Action(kind="end", args=("+".join(discards),) if discards else ())
    if state.phase in ("actions", "market"):
        yield from _phase_three(state, side, hand_ids)
    elif state.phase == "cleanup":
        for card_id in hand_ids:
            yield Action(kind="discard", args=(card_id,))
        yield Action(kind="done")


def _phase_two(state: State, side: Side, hand_ids: list[str]) -> Iterator[Action]:
    """Phase II's candidates: faction actions, summons, attacks, Commands, swaps, a draw."""
    for level in table.CHAMPION_LEVELS:
        yield Action(kind="faction", args=(str(level),))
    spaces = summon_spaces(side.formation)
    for card_id in hand_ids:
        definition = pack_of(state).card(card_id)
        if isinstance(definition, ElementalCard):
            for pos in spaces:
                yield Action(kind="summon", args=(card_id, pos_key(pos)))
        elif definition.type == "attack":
            enemy = state.sides[1 - state.active].formation.occupied()
            for attacker in side.formation.occupied():
                if side.formation.at(attacker).card in side.attacked:  # type: ignore[union-attr]
                    continue
                for targets in target_choices(definition, attacker, enemy):
                    yield Action(
                        kind="attack", args=(card_id, pos_key(attacker), targets_key(targets))
                    )
        elif definition.type in ("utility", "ritual"):
            yield Action(kind="play", args=(card_id,))
    for a, b in combinations(side.formation.occupied(), 2):
        if connected(side.formation, a, b):
            yield Action(kind="swap", args=(pos_key(a), pos_key(b)))
    yield Action(kind="draw")


def _phase_three(state: State, side: Side, hand_ids: list[str]) -> Iterator[Action]:
    """Phase III's candidates: buying, refreshing a market, selling."""
    for which, market in (("elementals", state.elementals), ("commands", state.commands)):
        for card_id in sorted({state.cards[c] for c in market.row}):
            yield Action(kind="buy", args=(which, card_id))
            if which == "elementals":
                for pos in summon_spaces(side.formation):
                    yield Action(kind="buy", args=(which, card_id, pos_key(pos)))
        yield Action(kind="refresh", args=(which,))
    for card_id in hand_ids:
        yield Action(kind="sell", args=(card_id,))


def _frame_candidates(state: State, seat: int, kind: str) -> Iterator[Action]:
    match kind:
        case "sage":
            for sage in sage_options(state):
                yield Action(kind="sage", args=(sage,))
        case "formation":
            for left, right in formation_options(state, seat):
                yield Action(kind="formation", args=(left, right))
        case "respond":
            yield Action(kind="let")
            for card_id in sorted({state.cards[c] for c in state.players[seat].hand}):
                yield Action(kind="instant", args=(card_id,))
        case "choose":
            for option in state.frames[-1].options:
                yield Action(kind="choose", args=(option,))
        case "fill":
            team = state.players[seat].team
            gap = gap_to_fill(state.sides[team].formation)
            if gap is not None:
                for source in gap[1]:
                    yield Action(kind="fill", args=(pos_key(source),))


def considered(state: State, seat: int) -> list[Action]:
    """What a seat might try now, legal or not: the candidates, and the standard actions
    with every card of the hand, every space and every Elemental (so that a move which
    is not legal now can be answered with the rule it breaks)."""
    found = dict.fromkeys(candidates(state, seat))
    if state.frames or state.phase in ("sage_choice", "formation", "over"):
        return list(found)
    side = state.side_of(seat)
    own = side.formation
    enemy = state.sides[1 - side.team].formation
    hand_ids = sorted({state.cards[c] for c in state.players[seat].hand})
    for step in PHASE_STEPS.values():
        found.setdefault(Action(kind="phase", args=(step,)))
    for card_id in hand_ids:
        definition = pack_of(state).card(card_id)
        found.setdefault(Action(kind="sell", args=(card_id,)))
        found.setdefault(Action(kind="discard", args=(card_id,)))
        if isinstance(definition, ElementalCard):
            for pos in own.positions():
                found.setdefault(Action(kind="summon", args=(card_id, pos_key(pos))))
        elif definition.type == "attack":
            for attacker in own.occupied():
                for target in enemy.occupied():
                    args = (card_id, pos_key(attacker), pos_key(target))
                    found.setdefault(Action(kind="attack", args=args))
        else:
            found.setdefault(Action(kind="play", args=(card_id,)))
    for a, b in combinations(own.occupied(), 2):
        found.setdefault(Action(kind="swap", args=(pos_key(a), pos_key(b))))
    for level in table.CHAMPION_LEVELS:
        found.setdefault(Action(kind="faction", args=(str(level),)))
    for which, market in (("elementals", state.elementals), ("commands", state.commands)):
        for card_id in sorted({state.cards[c] for c in market.row}):
            found.setdefault(Action(kind="buy", args=(which, card_id)))
        found.setdefault(Action(kind="refresh", args=(which,)))
    found.setdefault(Action(kind="draw"))
    found.setdefault(Action(kind="done"))
    found.setdefault(Action(kind="end"))
    return list(found)


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.frames:  # the frame's own options: `check` would test membership again

        def check_option(action: Action) -> None:
            if action.kind == "instant":
                plays.check_instant(state, seat, action.args[0])

        return passing(_frame_candidates(state, seat, state.frames[-1].kind), check_option)
    return passing(candidates(state, seat), lambda action: check(state, seat, action))


def check(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction unless `seat` may take `action` now."""
    _require(state, seat)
    a = action.args
    frame = state.frames[-1] if state.frames else None
    if frame is not None:
        if action not in set(_frame_candidates(state, seat, frame.kind)):
            raise IllegalAction("not-an-option", "That isn't one of the choices open to you now.")
        if action.kind == "instant":
            plays.check_instant(state, seat, a[0])
        return
    match action.kind, len(a):
        case "phase", 1:
            if PHASE_STEPS.get(state.phase) != a[0]:
                raise IllegalAction("phase", "The phases go in order: I, II, III, IV.")
        case "summon", 2:
            turn.check_summon(state, seat, a[0], parse_pos(state, a[1]))
        case "attack", 3:
            battle.check_attack(
                state, seat, a[0], parse_pos(state, a[1]), parse_targets(state, a[2])
            )
        case "daybreak", 1:
            plays.check_daybreak(state, seat, _card_arg(a[0]))
        case "play", 1:
            plays.check_command(state, seat, a[0])
        case "faction", 1:
            plays.check_faction_action(state, seat, _card_arg(a[0]))
        case "swap", 2:
            first, second = parse_pos(state, a[0]), parse_pos(state, a[1])
            if first > second:  # one key per pair: front row and left first
                raise IllegalAction("not-an-option", "That isn't one of the choices open to you.")
            turn.check_swap(state, seat, first, second)
        case "draw", 0:
            if not table.reached(state, "actions") or table.active_side(state).ap < 1:
                raise IllegalAction("no-ap", "Drawing costs 1 AP in Phase II.")
            player = state.players[seat]
            if not player.deck and not player.discard:
                raise IllegalAction("no-cards", "Your deck and discard pile are both empty.")
        case "buy", 2 | 3:
            turn.check_buy(state, seat, a[0], a[1], parse_pos(state, a[2]) if len(a) > 2 else None)
        case "refresh", 1:
            gold = table.active_side(state).gold
            if not table.reached(state, "market") or gold < turn.REFRESH_GOLD:
                raise IllegalAction("gold", "Refreshing a market costs 1 gold in Phase III.")
        case "sell", 1:
            if not table.reached(state, "market"):
                raise IllegalAction("phase", "Cards are sold in Phase III.")
            table.hand_card(state, seat, a[0])
        case "discard", 1:
            if state.phase != "cleanup":
                raise IllegalAction("phase", "Cards are discarded in Phase IV.")
            table.hand_card(state, seat, a[0])
        case "done", 0:
            if state.phase != "cleanup":
                raise IllegalAction("phase", "That ends Phase IV.")
            if len(state.players[seat].hand) > turn.HAND_SIZE:
                raise IllegalAction("hand", f"Discard down to {turn.HAND_SIZE} cards first.")
        case "end", 0 | 1:
            turn.check_end_turn(state, seat, a[0].split("+") if a else [])
        case _:
            raise IllegalAction("unknown", "That isn't an action of this game.")


def _card_arg(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise IllegalAction("card", "That is not a card in play.")
    return int(text)


def apply_action(
    state: State, seat: int, action: Action, rng: random.Random, *, checked: bool = False
) -> Events:
    """Perform a checked action on `state` (mutated in place); then whatever it set off
    resolves until a decision is needed. `checked`: the caller has just checked it on
    an identical state."""
    if not checked:
        check(state, seat, action)
    ahead = PHASE_OF.get(action.kind)
    events = turn.MOVE_ON[ahead](state, seat) if ahead and state.phase != ahead else []
    events += _perform(state, seat, action, rng)
    events += effects.resume(state, rng)
    return events + turn.daybreak_over(state)


def _perform(state: State, seat: int, action: Action, rng: random.Random) -> Events:
    a = action.args
    match action.kind:
        case "sage":
            return choose_sage(state, seat, a[0])
        case "formation":
            events = set_up_formation(state, seat, a[0], a[1], rng)
            return events + (turn.begin_turn(state) if state.phase == "daybreak" else [])
        case "let":
            return battle.let_through(state, seat, rng)
        case "instant":
            return plays.play_instant(state, seat, a[0], rng)
        case "choose":
            return effects.choose(state, seat, a[0], rng)
        case "daybreak":
            return plays.use_daybreak(state, seat, int(a[0]), rng)
        case "play":
            return plays.play_command(state, seat, a[0], rng)
        case "faction":
            return plays.faction_action(state, seat, int(a[0]), rng)
        case "fill":
            events = table.fill_gap(state, state.players[seat].team, parse_pos(state, a[0]))
            state.frames.pop()
            return events + table.shift_forward(state, state.players[seat].team)
        case "phase":
            step = {"actions": turn.go_to_actions, "market": turn.go_to_market}
            if a[0] in step:
                return step[a[0]](state, seat)
            return turn.go_to_cleanup(state, seat)
        case "summon":
            return turn.summon(state, seat, a[0], parse_pos(state, a[1]))
        case "attack":
            return battle.declare_attack(
                state, seat, a[0], parse_pos(state, a[1]), parse_targets(state, a[2]), rng
            )
        case "swap":
            return turn.swap_elementals(state, seat, parse_pos(state, a[0]), parse_pos(state, a[1]))
        case "draw":
            return turn.draw_action(state, seat, rng)
        case "buy":
            return turn.buy(state, seat, a[0], a[1], parse_pos(state, a[2]) if len(a) > 2 else None)
        case "refresh":
            return turn.refresh(state, seat, a[0])
        case "sell":
            return turn.sell(state, seat, a[0])
        case "discard":
            return turn.cleanup_discard(state, seat, a[0])
        case "done":
            return turn.clean_up(state, seat, rng)
        case "end":
            return turn.end_turn_now(state, seat, a[0].split("+") if a else [], rng)
    raise AssertionError(action)


LET_WITHOUT_INSTANT = "let-without-instant"
FOLLOW_PARTNER = "follow-partner"


def standing_answer(state: State, seat: int, chosen: frozenset[str]) -> Action | None:
    """A defender's standing answers in a response window: let the attack through when no
    Instant Command in hand could answer it, or once the partner has let it through."""
    frame = state.frames[-1] if state.frames else None
    attack = state.attack
    if frame is None or frame.kind != "respond" or seat not in frame.deciders or attack is None:
        return None
    let = Action(kind="let")
    partners = [s for s in state.sides[state.players[seat].team].seats if s != seat]
    if FOLLOW_PARTNER in chosen and any(s in attack.passed for s in partners):
        return let
    if LET_WITHOUT_INSTANT in chosen and not any(
        a.kind == "instant" for a in legal_actions(state, seat)
    ):
        return let
    return None


def timeout_action(state: State, seat: int) -> Action:
    """A timed-out seat: respond by letting the attack through; in its turn, end the turn
    (discarding the first cards in order above 5) or finish the clean-up; otherwise the
    first option."""
    if seat in to_act(state):
        frame = state.frames[-1] if state.frames else None
        kinds = ("let", "done") if frame is not None else ("end", "done")
        for kind in kinds:  # (a frame offers no End turn; "let" comes only in a frame)
            offered = (
                candidates(state, seat)
                if frame is None
                else _frame_candidates(state, seat, frame.kind)
            )
            found = next((a for a in offered if a.kind == kind and _is_legal(state, seat, a)), None)
            if found is not None:
                return found
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not-your-turn", "The game is not waiting for this seat.")
    return legal[0]


def _is_legal(state: State, seat: int, action: Action) -> bool:
    try:
        check(state, seat, action)
    except IllegalAction:
        return False
    return True
