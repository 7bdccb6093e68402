"""What players read about their choices: each action's label (`describe`) and what it
costs and leads to (`explain`), the question put to whoever must decide (`question`,
addressed to them) and the public line saying what the game waits for (`public_prompt`).

Troops are named with their Troop Type and Strength, "Cinder Cub (Arcane 1)", the one
notation of every screen. Nothing public here depends on a hidden card.
"""

from __future__ import annotations

from rules.core import Action
from rules.tooth_and_nail.actions import (
    NO_BOOST,
    RECHARGE_FRAMES,
    attack_targets,
    recharge_default,
    to_act,
    top_frame,
)
from rules.tooth_and_nail.cards import (
    Destroy,
    DrainTroop,
    Faction,
    Op,
    RechargeTroop,
    Relocate,
    ReturnToHand,
    Search,
    TroopTarget,
)
from rules.tooth_and_nail.effects import NO_DEPLOY, source_label, source_ops
from rules.tooth_and_nail.rules import (
    MAX_AP,
    ZONE_NAMES,
    _zone,
    card_name,
    command_card_options,
    hand_card,
    pack_of,
    seat_names,
    taken_factions,
    takes_turns,
    troop_def,
)
from rules.tooth_and_nail.state import Frame, State
from rules.tooth_and_nail.text import (
    a_troop,
    brief_effect,
    possessive,
    requirement,
    short_troop,
    troop_label,
    troops_listed,
)

EXPLAIN_LIMIT = 100  # a select option's description holds 100 characters
LOW_DECK = 5  # a deck this small is close to running out
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def fit(text: str, limit: int = EXPLAIN_LIMIT) -> str:
    """`text` within `limit` characters, cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _troop(state: State, troop_id: str) -> str:
    return troop_label(troop_def(state, troop_id))


def _other(zone: str) -> str:
    return "war" if zone == "command" else "command"


def _faction(state: State, faction_id: str) -> Faction:
    return pack_of(state).faction(faction_id)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def foes(state: State, seat: int) -> str:
    """Who "the opposing player" of an effect is, from `seat`'s side: the opponent's name,
    every opponent (3 players), or the opponent of their choice (4 players)."""
    opponents = state.opponents(seat)
    if state.variant == "3p" and len(opponents) > 1:
        return "each opponent"
    if state.variant == "4p" and len(opponents) > 1:
        return " or ".join(state.players[s].name for s in opponents)
    return seat_names(state, opponents)


def next_alpha(state: State) -> int | None:
    """Who takes the next turn, clockwise, skipping players who are out for good."""
    order = state.turn_order
    if state.alpha is None:
        return None
    i = order.index(state.alpha)
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if seat != state.alpha and takes_turns(state.players[seat]):
            return seat
    return None


# --------------------------------------------------------------------------- labels


def describe(state: State, action: Action) -> str:
    """The label of an action in a menu: plain English, never the same for two legal
    actions of one seat (each Troop named with its Troop Type and Strength)."""
    a = action.args
    match action.kind:
        case "faction":
            return f"Choose the {_faction(state, a[0]).name}"
        case "command_card":
            return f"Use the {_faction(state, a[0]).name} Faction Command card"
        case "recharge":
            return "Recharge: draw a card" if a[0] == "draw" else "Recharge: gain 1 AP"
        case "ready":
            return f"Recharge {_troop(state, a[0])} in your War Zone"
        case "play":
            return f"Play {_troop(state, a[0])} into your {ZONE_NAMES[a[1]]}"
        case "ability":
            return f"Use {troop_def(state, a[0]).name}'s Command Ability"
        case "faction_ability":
            card = state.players[_actor(state)].command_card
            ability = _faction(state, card).ability.name if card else "your Faction Ability"
            both = troops_listed([troop_def(state, t).name for t in a])
            return f"Use {ability} (Faction Ability), draining {both}"
        case "attack":
            at = f" {state.players[int(a[2])].name}" if len(a) > 2 else ""
            label = f"Attack{at} with {_troop(state, a[0])}"
            if a[1] != NO_BOOST:
                label += f", boosted with {troop_def(state, a[1]).name} from your hand"
            return label
        case "formation":
            card = state.players[_actor(state)].command_card
            name = f" {_faction(state, card).formation.name}" if card else ""
            at = f" on {state.players[int(a[1])].name}" if len(a) > 1 else ""
            ids = a[0].split(",")
            shown = troops_listed([_troop(state, t) for t in ids])
            named = troops_listed([troop_def(state, t).name for t in ids])
            return _first_fit(
                f"Formation Attack{name}{at} with {shown}",
                f"Formation Attack{name}{at} with {named}",
                f"Formation Attack{at} with {named}",
            )
        case "end" if _in_recharge(state):
            return "End your turn now"
        case "end":
            return "End your turn"
        case "keep":
            name = _kept_name(state)
            if a[0] == "yes":
                return f"Keep {name}: discard a copy from your hand"
            return f"Let {name} leave the game"
        case "target":
            return _target_label(state, a)
        case "opponent":
            frame = top_frame(state)
            what = source_label(state, frame.step.source) if frame and frame.step else "it"
            return f"Aim {what} at {state.players[int(a[0])].name}"
        case "discard":
            return f"Discard {_troop(state, a[0])}"
        case "deploy":
            if a[0] == NO_DEPLOY:
                return "Deploy nothing"
            return f"Deploy {_troop(state, a[0])} into your War Zone for free"
        case "search":
            return f"Take {_troop(state, a[0])} from your deck"
        case "revenge":
            amount = len(state.players[_actor(state)].hand)
            return f"Take revenge on {state.players[int(a[0])].name} ({amount} damage)"
    return action.key


def _actor(state: State) -> int:
    """Whose turn it is (the Alpha player), or the first decider during set-up."""
    if state.alpha is not None:
        return state.alpha
    return min(to_act(state) or {0})


def _kept_name(state: State) -> str:
    frame = top_frame(state)
    if frame is not None and frame.kind == "keep" and frame.step and frame.step.card is not None:
        return card_name(state, frame.step.card)
    return "the Troop"


def _target_op(state: State) -> tuple[Frame | None, Op | None]:
    frame = top_frame(state)
    if frame is None or frame.kind != "target" or frame.step is None:
        return frame, None
    return frame, source_ops(state, frame.step.source)[frame.step.index]


def _target_label(state: State, args: tuple[str, ...]) -> str:
    owner, zone, troop_id, drained = args
    frame, op = _target_op(state)
    actor = frame.step.actor if frame and frame.step else _actor(state)
    mine = int(owner) == actor
    whose = "your" if mine else possessive(state.players[int(owner)].name)
    where = "your" if mine else "their"
    troop = f"{whose} {'drained ' if drained == '1' else ''}{_troop(state, troop_id)}"
    zone_name = ZONE_NAMES.get(zone, zone)
    match op:
        case ReturnToHand():
            return f"Return {troop} from {where} {zone_name} to {where} hand"
        case Relocate():
            return f"Move {troop} from {where} {zone_name} to {where} {ZONE_NAMES[_other(zone)]}"
        case Destroy():
            verb = "Destroy"
        case DrainTroop():
            verb = "Drain"
        case RechargeTroop():
            verb = "Recharge"
        case _:
            verb = "Target"
    return f"{verb} {troop} in {where} {zone_name}"


# --------------------------------------------------------------------------- explanations


def explain(state: State, action: Action, seat: int | None = None) -> str:
    """What choosing an action costs and leads to, in at most 100 characters, for the
    menu option's description (`seat`: whose action it is; by default, the decider)."""
    return fit(_explain(state, action, _decider(state, action) if seat is None else seat))


def _explain(state: State, action: Action, seat: int) -> str:
    a = action.args
    player = state.players[seat]
    team = state.team_of(seat)
    match action.kind:
        case "faction":
            # Shortened, the Troop Types give way first (the draft lists them), then the
            # identity's last words: both names stay.
            f = _faction(state, a[0])
            names = f"{f.formation.name} · {f.ability.name}"
            full = f"{f.formation.name} ({requirement(f)}) · {f.ability.name}"
            if not f.identity:
                return _first_fit(full, names)
            short = fit(f.identity, EXPLAIN_LIMIT - len(names) - 3)
            return _first_fit(
                f"{f.identity} · {full}", f"{f.identity} · {names}", f"{short} · {names}"
            )
        case "command_card":
            f = _faction(state, a[0])
            formation = f"{f.formation.name} ({requirement(f)})"
            return _first_fit(
                f"Formation Attack {formation} · Faction Ability {f.ability.name}",
                f"{formation} · {f.ability.name}",
            )
        case "recharge" if a[0] == "draw":
            deck, hand = len(team.deck), len(player.hand)
            return f"your deck {deck} → {deck - 1} · your hand {hand} → {hand + 1}"
        case "recharge":
            if player.ap >= MAX_AP:
                return f"you already hold {MAX_AP} AP, the most: you gain none"
            return f"AP {player.ap} → {player.ap + 1} ({MAX_AP} at most)"
        case "ready":
            return "it can attack again this turn"
        case "play":
            return _explain_play(state, seat, a[0], a[1])
        case "ability":
            return _explain_ability(state, seat, a[0])
        case "faction_ability":
            card = player.command_card
            effect = (
                brief_effect(_faction(state, card).ability.effect, foes(state, seat))
                if card
                else ""
            )
            return f"0 AP · drains both · {effect}"
        case "attack":
            return _explain_attack(state, seat, a)
        case "formation":
            return _explain_formation(state, seat, a)
        case "end":
            nxt = next_alpha(state)
            after = f"{state.players[nxt].name}'s turn next" if nxt is not None else "turn passes"
            if _in_recharge(state):
                return _explain_end_now(state, seat, after)
            if player.ap:
                return f"returns your {player.ap} unused AP · {after}"
            return after
        case "keep":
            name = _kept_name(state)
            if a[0] == "yes":
                return f"a {name} from your hand to your discard pile; this one stays (drained)"
            return f"{name} leaves for good (removed from the game)"
        case "target":
            return _explain_target(state, a)
        case "opponent":
            frame = top_frame(state)
            target = state.players[int(a[0])]
            if frame is None or frame.step is None:
                return f"{target.name} holds {_plural(len(target.hand), 'card')}"
            op = source_ops(state, frame.step.source)[frame.step.index]
            return f"{brief_effect((op,), target.name)} · holds {_plural(len(target.hand), 'card')}"
        case "discard":
            frame = top_frame(state)
            left = frame.remaining.get(str(seat), 1) if frame else 1
            more = f" · {left - 1} more to discard" if left > 1 else ""
            return f"to your discard pile{more}"
        case "deploy" if a[0] == NO_DEPLOY:
            return "keep your hand as it is"
        case "deploy":
            room = f"{len(player.war_zone) + 1}/{state.limits['war']}"
            return f"0 AP · into your War Zone ({room}); it can attack this turn"
        case "search":
            return "into your hand, unseen by the others; then your deck is shuffled"
        case "revenge":
            target = state.players[int(a[0])]
            deck = len(state.team_of(target.seat).deck)
            hit = f"{len(player.hand)} damage to {target.name}'s deck ({deck} left)"
            return f"{hit}, 1 per card you hold"
    return ""


def _decider(state: State, action: Action) -> int:
    """Who takes `action`: the decider of the open choice (of several deciders, the one
    holding the card it names), else the Alpha player."""
    frame = top_frame(state)
    if frame is None or not frame.deciders:
        return _actor(state)
    for seat in frame.deciders:
        if action.args and hand_card(state, seat, action.args[0]) is not None:
            return seat
    return frame.deciders[0]


def _explain_play(state: State, seat: int, troop_id: str, zone: str) -> str:
    player = state.players[seat]
    room = f"{ZONE_NAMES[zone]} {len(_zone(player, zone)) + 1}/{state.limits[zone]}"
    if zone == "command":
        return f"1 AP · {room} · its Command Ability usable; +1 draw or AP each Recharge Step"
    strength = troop_def(state, troop_id).strength
    return f"1 AP · {room} · it can attack for {strength} damage (1 AP more)"


def _explain_ability(state: State, seat: int, troop_id: str) -> str:
    troop = troop_def(state, troop_id)
    effect = brief_effect(troop.command, foes(state, seat))
    copy = hand_card(state, seat, troop_id) is not None
    after = "then discard a copy to keep it" if copy else "then it leaves the game"
    return _first_fit(f"0 AP · {effect} · {after}", f"0 AP · {effect}")


def _first_fit(*texts: str) -> str:
    """The first text that fits a menu description, else the last one (to be cut)."""
    return next((t for t in texts if len(t) <= EXPLAIN_LIMIT), texts[-1])


def _deck_hit(state: State, victim: int, amount: int) -> str:
    """`amount` damage to a deck, with what it leaves: "3 damage to Basil's deck (19 left)"."""
    team = state.team_of(victim)
    deck = len(team.deck)
    owner = seat_names(state, team.seats) if len(team.seats) > 1 else state.players[victim].name
    hit = f"{amount} damage to {possessive(owner)} deck"
    if amount < deck:
        return f"{hit} ({deck} → {deck - amount})"
    if state.variant == "3p":
        return f"{hit} ({deck} left): it runs out, {state.players[victim].name} is eliminated"
    return f"{hit} ({deck} left): it runs out and you win"


def _victim(state: State, seat: int, args: tuple[str, ...], at: int) -> int:
    if len(args) > at:
        return int(args[at])
    targets = attack_targets(state, seat)
    return targets[0] if targets else seat


def _explain_attack(state: State, seat: int, a: tuple[str, ...]) -> str:
    strength = troop_def(state, a[0]).strength
    boosted = a[1] != NO_BOOST
    hit = _deck_hit(state, _victim(state, seat, a, 2), strength + boosted)
    if boosted:
        return f"1 AP · {hit} · {troop_def(state, a[1]).name} leaves your hand for the game"
    return f"1 AP · drains it · {hit}"


def _explain_formation(state: State, seat: int, a: tuple[str, ...]) -> str:
    card = state.players[seat].command_card
    troops = [troop_def(state, t) for t in a[0].split(",")]
    bonus = _faction(state, card).formation.bonus_damage if card else 0
    total = sum(t.strength for t in troops) + bonus
    hit = _deck_hit(state, _victim(state, seat, a, 1), total)
    effect = _faction(state, card).formation.effect if card else ()
    then = f", then {brief_effect(effect, foes(state, seat))}" if effect else ""
    drains = "both" if len(troops) == 2 else f"all {len(troops)}"
    return f"1 AP · drains {drains} · {hit}{then}"


def _explain_target(state: State, a: tuple[str, ...]) -> str:
    owner, zone = state.players[int(a[0])], a[1]
    _, op = _target_op(state)
    match op:
        case Destroy():
            return f"onto the top of {possessive(owner.name)} discard pile"
        case ReturnToHand():
            return f"back into {possessive(owner.name)} hand, to be played again for 1 AP"
        case DrainTroop():
            return "it can't attack or use its ability until recharged"
        case RechargeTroop():
            return "it can be used again this turn"
        case Relocate():
            other = _other(zone)
            room = f"{len(_zone(owner, other)) + 1}/{state.limits[other]}"
            return f"into your {ZONE_NAMES[other]} ({room})"
    return "the Troop this effect acts on"


# --------------------------------------------------------------------------- questions


def question(state: State, seat: int) -> str | None:
    """What the game asks of `seat` now, to be read after their name ("@Basil, your turn
    — ..."), with what is at stake; None when it waits for nothing from them."""
    if state.phase == "over" or seat not in to_act(state):
        return None
    frame = top_frame(state)
    player = state.players[seat]
    if frame is None:
        return f"your turn — Action Step, {player.ap} AP left: {_what_you_can_do(state, seat)}"
    match frame.kind:
        case "faction":
            return _draft_question(state, seat)
        case "command_card":
            options = [_faction(state, f).name for f in command_card_options(state, seat)]
            return (
                "choose the Faction Command card you will use all game "
                f"(its Formation Attack and Faction Ability): {_either(options)}"
            )
        case "recharge":
            n = len(player.command_zone)
            i = n - frame.remaining.get("n", n) + 1
            deck = len(state.team_of(seat).deck)
            return (
                f"Recharge Step: draw a card or gain 1 AP, for Command Zone Troop {i} of {n} "
                f"(you hold {player.ap} AP; your deck has {_plural(deck, 'card')})"
            )
        case "ready":
            drained = sorted({state.cards[t.card] for t in player.war_zone if t.drained})
            names = _either([_troop(state, t) for t in drained])
            return f"Recharge Step: choose which of your War Zone Troops to recharge — {names}"
        case "keep":
            name = _kept_name(state)
            if frame.step and frame.step.card is not None:
                has_copy = hand_card(state, seat, state.cards[frame.step.card]) is not None
            else:
                has_copy = False
            if has_copy:
                return (
                    f"keep {name} in your Command Zone by discarding a copy from your hand, "
                    "or let it leave the game?"
                )
            return (
                f"you hold no other {name}, so it leaves the game: confirm (asked either "
                "way, so the table can't tell what your hand holds)"
            )
        case "target":
            return _target_question(state, frame)
        case "opponent":
            assert frame.step is not None
            label = source_label(state, frame.step.source)
            op = source_ops(state, frame.step.source)[frame.step.index]
            whom = _either(
                [
                    f"{state.players[v].name} ({_plural(len(state.players[v].hand), 'card')})"
                    for v in frame.step.victims
                ]
            )
            effect = brief_effect((op,), "the chosen player")
            return f"choose who your {label} hits ({effect}): {whom}"
        case "discard":
            left = frame.remaining.get(str(seat), 1)
            cards = _plural(left, "card")
            if frame.step is not None:
                who = state.players[frame.step.actor].name
                return (
                    f"{who} used {source_label(state, frame.step.source)}: discard {cards} "
                    "of your choice from your hand"
                )
            return f"discard {cards} of your choice from your hand"
        case "deploy":
            assert frame.step is not None
            label = source_label(state, frame.step.source)
            op = source_ops(state, frame.step.source)[frame.step.index]
            kind = a_troop(getattr(op, "troop_type", None))
            return (
                f"{label} lets you play {kind} from your hand into your War Zone for free: "
                "choose one, or deploy nothing"
            )
        case "search":
            assert frame.step is not None
            label = source_label(state, frame.step.source)
            op = source_ops(state, frame.step.source)[frame.step.index]
            assert isinstance(op, Search)
            which = {"own": " of your faction", "other": " not of your faction", "any": ""}
            return (
                f"{label}: choose {a_troop(op.troop_type)}{which[op.faction]} to take from "
                "your deck into your hand (the deck is shuffled after)"
            )
        case "revenge":
            n = len(player.hand)
            return (
                f"you are eliminated, but take your revenge: choose whose deck takes {n} "
                "damage (1 per card in your hand)"
            )
    return open_phrase(frame)


def open_phrase(frame: Frame) -> str:
    """A frame's short phrase, addressed to its decider."""
    return frame.prompt.replace("their ", "your ")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _what_you_can_do(state: State, seat: int) -> str:
    """The kinds of action open in the Action Step, as the rules allow them (without
    listing every action): playing needs an AP, a card and room; an ability a ready
    Command Zone Troop; an attack an AP and a ready War Zone Troop."""
    player = state.players[seat]
    ready_command = sum(not t.drained for t in player.command_zone)
    room = any(len(_zone(player, z)) < state.limits[z] for z in ("command", "war"))
    things = []
    if player.ap and player.hand and room:
        things.append("play Troops")
    if ready_command:
        things.append("use abilities")
    if player.ap and any(not t.drained for t in player.war_zone):
        things.append("attack")
    things.append("end your turn")
    return _either(things)


def _draft_position(state: State) -> tuple[int, int]:
    """This pick's number and how many picks the draft has (fewer once a player left it)."""
    taken = len(taken_factions(state))
    return taken + 1, taken + len(state.draft_order)


def _draft_question(state: State, seat: int) -> str:
    pick, picks = _draft_position(state)
    left = len(pack_of(state).factions) - len(taken_factions(state))
    team = state.team_of(seat)
    mine = len(team.factions)
    at = f"draft pick {pick} of {picks}, {left} Factions left"
    if state.variant == "4p":
        mate = seat_names(state, [s for s in team.seats if s != seat])
        return f"choose your team's {ORDINALS[mine]} Faction of 3 — you or {mate} may answer ({at})"
    if state.variant == "alliance":
        return f"choose your {ORDINALS[mine]} Faction of 2 ({at})"
    return f"choose your Faction ({at})"


def _target_question(state: State, frame: Frame) -> str:
    assert frame.step is not None
    op = source_ops(state, frame.step.source)[frame.step.index]
    label = source_label(state, frame.step.source)
    assert isinstance(op, TroopTarget)
    verbs = {
        Destroy: "destroy",
        ReturnToHand: "return to its owner's hand",
        DrainTroop: "drain",
        RechargeTroop: "recharge",
        Relocate: "move to your other zone",
    }
    verb = verbs.get(type(op), "pick")
    own = isinstance(op, RechargeTroop | Relocate)
    return f"choose the Troop your {label} will {verb}: {short_troop(op, own=own)}"


# --------------------------------------------------------------------------- the table's line


def public_prompt(state: State) -> str:
    """What the game waits for, told to the whole table in the third person ("Basil's turn
    — Action Step, 3 AP left"); once it is over, how it ended."""
    if state.phase == "over":
        return state.end_text or "The game is over."
    frame = top_frame(state)
    waiting = sorted(to_act(state))
    names = " or ".join(state.players[s].name for s in waiting) or "nobody"
    turn = f"{state.players[state.alpha].name}'s turn — " if state.alpha is not None else ""
    if frame is None:
        ap = state.players[state.alpha].ap if state.alpha is not None else 0
        return f"{turn}Action Step, {ap} AP left"
    source = source_label(state, frame.step.source) if frame.step and frame.step.source else "it"
    match frame.kind:
        case "faction":
            pick, picks = _draft_position(state)
            if state.variant == "4p":
                what = "a Faction for their team"
                return f"Waiting for {names} to choose {what} (draft pick {pick} of {picks})"
            return f"Waiting for {names} to choose a Faction (draft pick {pick} of {picks})"
        case "command_card":
            return f"Waiting for {names} to choose the Faction Command card they will use"
        case "recharge":
            player = state.players[waiting[0]] if waiting else None
            n = len(player.command_zone) if player else 0
            i = n - frame.remaining.get("n", n) + 1
            return (
                f"{turn}Recharge Step: waiting for {names} to draw a card or gain 1 AP "
                f"(Command Zone Troop {i} of {n})"
            )
        case "ready":
            return f"{turn}Recharge Step: waiting for {names} to recharge a War Zone Troop"
        case "keep":
            return f"{turn}waiting for {names} to decide whether to keep {_kept_name(state)}"
        case "target":
            return f"{turn}waiting for {names} to choose a Troop for {source}"
        case "opponent":
            return f"{turn}waiting for {names} to choose who {source} hits"
        case "discard":
            counts = sorted(set(frame.remaining.values())) or [1]
            cards = _plural(counts[-1], "card") if len(counts) == 1 else "cards"
            why = f" ({source})" if frame.step and frame.step.source else ""
            return f"{turn}waiting for {names} to discard {cards} of their choice{why}"
        case "deploy":
            return f"{turn}waiting for {names} to deploy a Troop or not ({source})"
        case "search":
            return f"{turn}waiting for {names} to take a Troop from their deck ({source})"
        case "revenge":
            n = len(state.players[waiting[0]].hand) if waiting else 0
            return f"Waiting for {names}, eliminated, to choose who takes {n} revenge damage"
    return f"Waiting for {names} to {frame.prompt}"


def low_deck(count: int) -> bool:
    """Whether a deck is close to running out."""
    return count <= LOW_DECK


def _in_recharge(state: State) -> bool:
    """Whether the turn's Recharge Step asks something now (a turn can end from there)."""
    frame = top_frame(state)
    return frame is not None and frame.kind in RECHARGE_FRAMES


def _explain_end_now(state: State, seat: int, after: str) -> str:
    """What ending the turn from the Recharge Step does: no more draws, the War Zone
    Troop it recharges, the next turn."""
    frame = top_frame(state)
    parts = []
    if frame is not None and frame.kind == "recharge":
        parts.append("draws nothing more")
    chosen = recharge_default(state, seat)
    if chosen is not None and _drained_kinds(state, seat) > 1:
        parts.append(f"recharges {_troop(state, chosen)} in your War Zone")
    return " · ".join([*parts, after])


def _drained_kinds(state: State, seat: int) -> int:
    return len({state.cards[t.card] for t in state.players[seat].war_zone if t.drained})
