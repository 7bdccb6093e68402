"""Every decision a Mystic Vale seat can take: candidates, checks and effects, and the
loop that carries the game on between decisions.

Keys: `leader|<id>`; `push`, `stop`; `buy|<instance>` (an advancement of the commons or
one's Reserve), `vale|<instance>`, `upgrade`, `sleeve|<instance>|<card>` (Stormbrew
Titan, upgraded), `done`; `use`, `skip` (an ability its
owner chooses to use); `choose|<option>` (the decision on top of the stack).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from rules.core import Action, IllegalAction, passing
from rules.mystic_vale import abilities, harvest, turn
from rules.mystic_vale import specials as _specials  # noqa: F401 - the named rules register
from rules.mystic_vale.commons import one_of_each
from rules.mystic_vale.moves import fold_lines
from rules.mystic_vale.nemesis import settle_abomination
from rules.mystic_vale.setup import Events, _ev, sleeve_leader
from rules.mystic_vale.state import Frame, State

_NUMBER = re.compile(r"0|[1-9][0-9]{0,6}")


def to_act(state: State) -> set[int]:
    """Seats whose decision the game waits for."""
    if state.phase == "over":
        return set()
    if state.frames:
        return set(state.frames[-1].deciders)
    if state.phase == "leaders":
        return set(turn.to_choose_leaders(state))
    if state.phase in ("planting", "harvest") and not state.pending:
        return {state.active}
    return set()


def _require(state: State, seat: int) -> None:
    if state.phase == "over":
        raise IllegalAction("over", "This game is over.")
    if seat not in to_act(state):
        waiting = ", ".join(state.players[s].name for s in sorted(to_act(state))) or "nobody"
        raise IllegalAction(
            "not-your-turn", f"It isn't your decision: the game waits for {waiting}."
        )


def candidates(state: State, seat: int) -> Iterator[Action]:
    """A superset of the legal actions."""
    if state.frames:
        frame = state.frames[-1]
        if frame.kind == "use":
            yield Action(kind="use")
            yield Action(kind="skip")
            return
        for option in frame.options:
            yield Action(kind="choose", args=(option,))
        return
    player = state.players[seat]
    if state.phase == "leaders":
        for leader in player.leader_options:
            yield Action(kind="leader", args=(leader,))
    elif state.phase == "planting":
        yield Action(kind="push")
        yield Action(kind="stop")
    elif state.phase == "harvest":
        for level in (1, 2):
            for instance in state.commons.vale_rows[level]:
                if instance is not None:
                    yield Action(kind="vale", args=(str(instance),))
        for instance in harvest.buyable(state, seat):
            yield Action(kind="buy", args=(str(instance),))
        yield Action(kind="upgrade")
        if state.harvest is not None:
            for instance in one_of_each(state, state.harvest.bought):
                for card_id in player.field:
                    yield Action(kind="sleeve", args=(str(instance), str(card_id)))
        yield Action(kind="done")


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    return passing(candidates(state, seat), lambda action: check(state, seat, action))


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise IllegalAction("card", "That is not a card of this game.")
    return int(text)


def check(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction unless `seat` may take `action` now."""
    if not 0 <= seat < len(state.players):
        raise IllegalAction("no-seat", "You are not playing in this game.")
    _require(state, seat)
    a = action.args
    frame = state.frames[-1] if state.frames else None
    if frame is not None:
        if frame.kind == "use" and action.kind in ("use", "skip") and not a:
            return
        if action.kind != "choose" or len(a) != 1 or a[0] not in frame.options:
            raise IllegalAction("not-an-option", "That isn't one of the choices open to you now.")
        return
    match action.kind, len(a):
        case "leader", 1:
            if state.phase != "leaders" or a[0] not in state.players[seat].leader_options:
                raise IllegalAction("leader", "Choose one of the two leaders you were dealt.")
        case "push", 0:
            turn.check_push(state, seat)
        case "stop", 0:
            if state.phase != "planting" or state.active != seat:
                raise IllegalAction("phase", "Stopping ends your Planting Phase.")
            turn.check_stop(state, seat)
        case "buy", 1:
            harvest.check_buy(state, seat, _number(a[0]))
        case "vale", 1:
            harvest.check_vale(state, seat, _number(a[0]))
        case "upgrade", 0:
            harvest.check_upgrade(state, seat)
        case "sleeve", 2:
            harvest.check_sleeve_now(state, seat, _number(a[0]), _number(a[1]))
        case "done", 0:
            harvest._require_buying(state, seat)
        case _:
            raise IllegalAction("unknown", "That isn't an action of this game.")


def apply_action(state: State, seat: int, action: Action, rng: random.Random) -> Events:
    """Perform a checked action on `state` (mutated in place); the game then carries on
    by itself until the next decision. An action that leaves a question asked that shows
    hidden cards (`shows_hidden`) is marked as revealing. The cards planted and turned up
    one after another are told in one line (`moves.fold_lines`)."""
    asked = state.frames[-1] if state.frames else None
    events = fold_lines(state, _perform(state, seat, action, rng) + advance(state, rng))
    frame = state.frames[-1] if state.frames else None
    if frame is not None and frame != asked and shows_hidden(state, frame):
        events[0] = events[0].model_copy(update={"reveals": True})
    return events


def shows_hidden(state: State, frame: Frame) -> bool:
    """Whether a question shows its decider hidden cards as it is asked: the top card of a
    deck to take for free (the decider's view names it), a deck to search (its cards are
    among the choices), the leaders Gargoyle Summoner drew from the box (the choices)."""
    match frame.kind:
        case "free_top" | "gargoyle_leader":
            return True
        case "search":
            return bool(state.players[frame.deciders[0]].deck)
    return False


def _perform(state: State, seat: int, action: Action, rng: random.Random) -> Events:
    events = _act(state, seat, action, rng)
    if not events:  # a choice that moved nothing (none taken, no more): still a line
        events = [_ev("decide", f"{state.players[seat].name} decides.", seat)]
    return events


def _act(state: State, seat: int, action: Action, rng: random.Random) -> Events:
    a = action.args
    match action.kind:
        case "leader":
            return sleeve_leader(state, seat, a[0])
        case "push":
            return turn.push(state, seat, rng)
        case "stop":
            return harvest.begin_harvest(state, seat)
        case "buy":
            return harvest.buy(state, seat, int(a[0]))
        case "vale":
            return harvest.buy_vale(state, seat, int(a[0]))
        case "upgrade":
            return harvest.upgrade(state, seat)
        case "sleeve":
            return harvest.sleeve_now(state, seat, int(a[0]), int(a[1]))
        case "done":
            return harvest.finish(state, seat)
        case "use" | "skip":
            return abilities.agree(state, seat, action.kind == "use", rng)
        case "choose":
            frame = state.frames[-1]
            if frame.kind == "sleeve":
                state.frames.pop()
                return turn.sleeve_into(state, seat, int(a[0]))
            if frame.kind == "final_pick":
                events = turn.final_pick(state, seat, int(a[0]))
                return events + (harvest.begin_harvest(state, seat) if state.final else [])
            return abilities.answer(state, seat, a[0], rng)
    raise AssertionError(action)


def advance(state: State, rng: random.Random) -> Events:
    """Carry the game on until a decision is needed: resolve what is pending, and go
    through the steps that need nobody (Prep, the Harvest's tokens, a sleeve with one
    place, the end of a turn)."""
    events: Events = []
    for _ in range(10_000):
        if state.nemesis is not None:
            events += settle_abomination(state, rng)
        if state.frames or state.phase == "over":
            return events
        if state.pending:
            events += abilities.resolve(state, rng)
            continue
        step = _next_step(state, rng)
        if step is None:
            return events
        events += step
    raise AssertionError("the game does not settle")


def _next_step(state: State, rng: random.Random) -> Events | None:
    """One step the game takes by itself, or None when it waits for a player."""
    match state.phase:
        case "leaders":
            if turn.to_choose_leaders(state):
                return None
            return turn.leaders_chosen(state, rng)
        case "prep":
            return turn.prep_step(state, rng)
        case "planting":
            if state.check_spoil:
                state.check_spoil = False
                return turn.spoil_test(state)
            if state.players[state.active].on_deck is None:  # nothing left to push
                seat = state.active
                text = f"{state.players[seat].name} has no card left to push and stops."
                return [_ev("stop", text, seat), *harvest.begin_harvest(state, seat)]
            return None
        case "harvest":
            assert state.harvest is not None
            if not state.harvest.scored:
                return harvest.score_field(state, state.active)
            return None
        case "discard":
            return turn.discard_step(state, rng)
    return None


def timeout_action(state: State, seat: int) -> Action:
    """A timed-out seat: stop pushing, end the Harvest, skip an ability, the first choice
    otherwise (the first leader dealt)."""
    if seat not in to_act(state):
        raise IllegalAction("not-your-turn", "The game is not waiting for this seat.")
    for kind in ("stop", "done", "skip"):
        found = Action(kind=kind)
        try:
            check(state, seat, found)
        except IllegalAction:
            continue
        return found
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not-your-turn", "The game is not waiting for this seat.")
    return legal[0]
