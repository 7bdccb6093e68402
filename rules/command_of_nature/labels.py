"""How Command of Nature speaks to its players: the label of every action (never the
same for two choices of one seat: Elementals are named with their space), what each
costs and does, the question put to the decider, and the table's public prompt.

One notation throughout: an Elemental's numbers read "⚔2 ♥3" (STR 2, HP 3); a space
reads as the board labels it, its row and a letter from the left ("I", "IIa", "IIIc").
"""

from __future__ import annotations

from rules.command_of_nature import effects, table
from rules.command_of_nature.actions import PHASE_OF, parse_pos, to_act
from rules.command_of_nature.cards import ChooseOne, CommandCard, ElementalCard
from rules.command_of_nature.combat import incoming_attack_dmg
from rules.command_of_nature.setup import card_of, pack_of, warriors_of
from rules.command_of_nature.state import Frame, State
from rules.command_of_nature.table import place
from rules.command_of_nature.text import card_text, effect_text, faction_action_text
from rules.command_of_nature.turn import HAND_SIZE, INTO_FORMATION_GOLD, REFRESH_GOLD, sell_price
from rules.core import Action
from rules.core.text import listed

PHASES = {
    "daybreak": "Phase I (daybreak)",
    "actions": "Phase II (actions)",
    "market": "Phase III (markets)",
    "cleanup": "Phase IV (clean up)",
}
MARKETS = {"elementals": "Elemental Market", "commands": "Command Market"}


# --------------------------------------------------------------------------- names


def stats(card: ElementalCard) -> str:
    """An Elemental's printed numbers: "⚔2 ♥3" (STR, HP)."""
    return f"⚔{card.strength} ♥{card.hp}"


def elemental(state: State, card: int, viewer: int | None = None) -> str:
    """An Elemental in play with its space: "Timber (IIa)"; seen by `viewer`, "your
    Timber (IIa)" or "enemy Timber (IIa)"."""
    found = table.locate(state, card)
    name = card_of(state, card).shown_name
    if found is None:
        return name
    team, pos = found
    whose = ""
    if viewer is not None:
        whose = "your " if state.players[viewer].team == team else "enemy "
    return f"{whose}{name} ({place(state, team, pos)})"


def at(state: State, team: int, key: str) -> str:
    """The Elemental standing at a key's space of a side ("nobody" if it is empty)."""
    standing = state.sides[team].formation.at(parse_pos(state, key))
    return elemental(state, standing.card) if standing is not None else "nobody"


def targets(state: State, text: str) -> str:
    """The enemy targets of an attack, in the order they are hit."""
    enemy = 1 - state.active
    return ", then ".join(at(state, enemy, part) for part in text.split("+"))


def _card(state: State, card_id: str) -> ElementalCard | CommandCard:
    return pack_of(state).card(card_id)


# --------------------------------------------------------------------------- labels


def describe(state: State, action: Action) -> str:
    """The label of an action, as a menu shows it."""
    a = action.args
    match action.kind:
        case "sage":
            sage = _card(state, a[0])
            return f"Choose {sage.shown_name} ({sage.faction.capitalize()})"
        case "formation":
            left, right = _card(state, a[0]), _card(state, a[1])
            assert isinstance(left, ElementalCard) and isinstance(right, ElementalCard)
            return (
                f"Set up: {left.shown_name} {stats(left)} left, "
                f"{right.shown_name} {stats(right)} right of your Sage"
            )
        case "let":
            return "Let the attack through"
        case "instant":
            return f"Answer with {_card(state, a[0]).shown_name}"
        case "choose":
            return option_label(state, state.frames[-1], a[0])
        case "daybreak":
            return f"Use the daybreak effect of {elemental(state, int(a[0]))}"
        case "play":
            return f"Play {_card(state, a[0]).shown_name}"
        case "faction":
            return f"Take your level-{a[0]} faction action"
        case "fill":
            team = state.players[next(iter(to_act(state)))].team
            return f"Move {at(state, team, a[0])} forward"
        case "phase":
            return f"Go on to {PHASES[a[0]]}"
        case "summon":
            card = _card(state, a[0])
            assert isinstance(card, ElementalCard)
            space = place(state, state.active, parse_pos(state, a[1]))
            return f"Summon {card.shown_name} {stats(card)} into {space}"
        case "attack":
            attacker = at(state, state.active, a[1])
            return f"{_card(state, a[0]).shown_name}: {attacker} attacks {targets(state, a[2])}"
        case "swap":
            first, second = at(state, state.active, a[0]), at(state, state.active, a[1])
            return f"Swap {first} with {second}"
        case "draw":
            return "Draw a card"
        case "buy":
            card = _card(state, a[1])
            if len(a) > 2:
                space = place(state, state.active, parse_pos(state, a[2]))
                return f"Buy {card.shown_name} straight into {space}"
            return f"Buy {card.shown_name}"
        case "refresh":
            return f"Refresh the {MARKETS[a[0]]}"
        case "sell":
            return f"Sell {_card(state, a[0]).shown_name}"
        case "discard":
            return f"Discard {_card(state, a[0]).shown_name}"
        case "done":
            return "Finish: draw up to 5 cards"
        case "end" if a:
            cards = (_card(state, c).shown_name for c in a[0].split("+"))
            return f"End turn, discarding {listed(list(cards))}"
        case "end":
            return "End turn"
    return action.key


def option_label(state: State, frame: Frame, option: str) -> str:
    """One option of a `choose` frame, by what its options are (`Frame.about`)."""
    decider = frame.deciders[0]
    if option == effects.STOP:
        return "Stop: choose no more"
    match frame.about:
        case "elemental" | "shield" | "instead":
            if option == effects.NO:
                return "Nobody else: it takes the DMG itself"
            return _upper_first(elemental(state, int(option), decider))
        case "count":
            return f"Remove {option}"
        case "option":
            ops = _choose_one(state).options[int(option) - 1]
            return effect_text(ops)
        case "use":
            return "Use it" if option == "use" else "Skip it"
        case "card":
            return _card(state, option).shown_name
        case "attack":
            card_id, rest = option.split("@")
            attacker, aimed = rest.split(">")
            shown = _card(state, card_id).shown_name
            return f"{shown}: {at(state, state.active, attacker)} attacks {targets(state, aimed)}"
    return option


def _choose_one(state: State) -> ChooseOne:
    """The choose_one op the step at the front of the queue is running."""
    step = state.queue[0]
    op = effects.ops_at(state, step.ops)[step.index]
    assert isinstance(op, ChooseOne)
    return op


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------- what a choice does


def explain(state: State, action: Action, seat: int | None = None) -> str:
    """What a legal action of `seat` (by default the first decider) costs and leads to,
    in a few words for its menu option."""
    seat = sorted(to_act(state))[0] if seat is None else seat
    ahead = PHASE_OF.get(action.kind)
    if ahead is not None and state.phase != ahead and not state.frames:
        return f"{_moving_on(state)} · {_explain(state, action, seat)}"
    return _explain(state, action, seat)


def _moving_on(state: State) -> str:
    """What taking an action of the next phase now passes over."""
    if state.phase == "daybreak":
        left = len(state.sides[state.active].daybreak)
        return f"Ends Phase I ({left} daybreak effect{'s' * (left != 1)} unused)"
    return f"Ends Phase II ({state.sides[state.active].ap} AP unused)"


def _end_turn(state: State, action: Action) -> str:
    """What End turn passes over and does."""
    side = state.sides[state.active]
    skipped = []
    if state.phase == "daybreak" and side.daybreak:
        skipped.append("daybreak effects")
    if state.phase in ("daybreak", "actions") and side.ap:
        skipped.append(f"{side.ap} AP")
    if state.phase in ("daybreak", "actions", "market"):
        skipped.append("the markets")
    head = f"Skips {listed(skipped)} · " if skipped else ""
    if action.args:
        return f"{head}you keep the other {HAND_SIZE} cards"
    return f"{head}then draw up to {HAND_SIZE} cards"


def _explain(state: State, action: Action, seat: int) -> str:
    a = action.args
    match action.kind:
        case "sage":
            return _sage_choice(state, a[0])
        case "formation":
            third = next(w for w in warriors_of(state, seat) if w not in a)
            card = _card(state, third)
            assert isinstance(card, ElementalCard)
            return f"{card.shown_name} {stats(card)} is shuffled into your deck"
        case "let":
            return incoming(state) or "The attack's DMG lands"
        case "instant" | "play":
            return "1 AP · " * (action.kind == "play") + _effect_of(_card(state, a[0]))
        case "choose":
            return _choice_detail(state, state.frames[-1], a[0])
        case "daybreak":
            card = card_of(state, int(a[0]))
            assert isinstance(card, ElementalCard)
            daybreak = next(e for e in card.effects if e.trigger.on == "daybreak")
            return f"Free · {effect_text(daybreak.ops)}"
        case "faction":
            player = state.players[seat]
            action_def = next(
                f
                for f in pack_of(state).faction_actions
                if f.level == int(a[0]) and _card(state, player.sage or "").name == f.sage
            )
            return "1 AP · " + faction_action_text(action_def).split(": ", 1)[-1]
        case "fill":
            return "Rows I and II may not keep a gap while Elementals stand behind"
        case "phase":
            return {
                "actions": "Daybreak effects not used now are lost this turn",
                "market": "Unspent Action Points are lost",
                "cleanup": "Then discard any cards and draw up to 5",
            }[a[0]]
        case "summon":
            return "1 AP · " + _effect_of(_card(state, a[0]))
        case "attack":
            return _attack_detail(state, a)
        case "swap":
            return "1 AP · the two trade places with their tokens"
        case "draw":
            return "1 AP · the top card of your deck (the discard pile is shuffled in if empty)"
        case "buy":
            card = _card(state, a[1])
            if len(a) > 2:
                return f"{card.cost + INTO_FORMATION_GOLD} gold · {_effect_of(card)}"
            return f"{card.cost} gold · into your discard pile · {_effect_of(card)}"
        case "refresh":
            return f"{REFRESH_GOLD} gold · the three shown go under the deck; three new ones"
        case "sell":
            return f"+{sell_price(_card(state, a[0]))} gold · the card leaves the game"
        case "discard":
            return "Into your discard pile"
        case "done":
            return "Your part of the turn ends"
        case "end":
            return _end_turn(state, action)
    return ""


def _sage_choice(state: State, sage_id: str) -> str:
    """What sets a Sage apart: its faction, and what its first faction action does."""
    sage = _card(state, sage_id)
    first = min(
        (f for f in pack_of(state).faction_actions if f.sage == sage.name),
        key=lambda f: f.level,
        default=None,
    )
    head = f"{sage.faction.capitalize()} Sage pack"
    if first is None:
        return head
    return f"{head} · level {first.level}: {effect_text(first.ops)}"


def _effect_of(card: ElementalCard | CommandCard) -> str:
    """A card's text without its heading: what it is and does, in short."""
    text = card_text(card)
    body = text.split(" — ", 1)[-1]
    if isinstance(card, ElementalCard):
        return f"{stats(card)} · {body}"
    return body


def _attack_detail(state: State, a: tuple[str, ...], cost: str = "1 AP · ") -> str:
    command = _card(state, a[0])
    assert isinstance(command, CommandCard) and command.attack is not None
    attacker = state.sides[state.active].formation.at(parse_pos(state, a[1]))
    assert attacker is not None
    strength = card_of(state, attacker.card).strength  # type: ignore[union-attr]
    dmg = incoming_attack_dmg(strength + command.attack.str_modifier, attacker.boosts, 0)
    each = " each" if "+" in a[2] else ""
    return f"{cost}{dmg} DMG{each} before Instants and shields"


def _choice_detail(state: State, frame: Frame, option: str) -> str:
    """What one option of a `choose` frame leads to."""
    if option == effects.STOP:
        return "No more Elementals are chosen; the effect goes on"
    match frame.about:
        case "elemental" | "shield" | "instead" if option.isdigit():
            return _standing(state, int(option))
        case "instead":
            return "The Elemental the DMG was meant for takes it"
        case "card":
            return _effect_of(_card(state, option))
        case "count":
            return f"The effect goes on counting {option}"
        case "option":
            return f"Effect {option} of {len(_choose_one(state).options)}; the others are not used"
        case "use":
            step = state.queue[0]
            ops = effects.ops_at(state, step.ops)
            return effect_text(ops) if option == "use" else "The effect is not used this time"
        case "attack":
            card_id, rest = option.split("@")
            attacker, aimed = rest.split(">")
            return _attack_detail(state, (card_id, attacker, aimed), cost="")
    return option


def _standing(state: State, card: int) -> str:
    """An Elemental's health and tokens: "2/3 HP left · 🛡1"."""
    found = table.elemental_at(state, card)
    definition = card_of(state, card)
    if found is None or not isinstance(definition, ElementalCard):
        return definition.shown_name
    tokens = [f"{definition.hp - found.damage}/{definition.hp} HP left"]
    tokens += [f"{mark}{n}" for n, mark in ((found.shields, "🛡"), (found.boosts, "⚡")) if n]
    return " · ".join(tokens)


def incoming(state: State) -> str:
    """The attack the defenders face: "Far Strike: Dribble attacks Timber for 2 DMG"."""
    attack = state.attack
    if attack is None or attack.landed:
        return ""
    command = card_of(state, attack.command).shown_name
    attacker = elemental(state, attack.attacker_card)
    aimed = " and ".join(elemental(state, c) for c in attack.target_cards)
    attacker_now = table.elemental_at(state, attack.attacker_card)
    boosts = attacker_now.boosts if attacker_now is not None and not attack.landed else 0
    dmg = incoming_attack_dmg(attack.dmg + attack.bonus, boosts, attack.reduced)
    each = " each" if len(attack.target_cards) > 1 else ""
    return f"{command}: {attacker} attacks {aimed} for {dmg} DMG{each}"


# --------------------------------------------------------------------------- questions


def question(state: State, seat: int) -> str | None:
    """What the game asks of `seat` now, in the second person."""
    if seat not in to_act(state):
        return None
    frame = state.frames[-1] if state.frames else None
    if frame is None:
        return _turn_question(state, seat)
    match frame.kind:
        case "sage":
            chosen = sum(p.sage is not None for p in state.players)
            return f"{frame.prompt} (you choose {_ordinal(chosen + 1)} of {len(state.players)})"
        case "respond":
            return f"{incoming(state)} — respond? Answer with an Instant Command or let it through"
        case "choose":
            return f"{_source(state)}: {frame.prompt}"
    return frame.prompt


def _turn_question(state: State, seat: int) -> str:
    side = state.sides[state.active]
    team = " team's" if len(side.seats) > 1 else ""
    head = f"your{team} turn — {PHASES[state.phase]}"
    excess = len(state.players[seat].hand) - HAND_SIZE
    match state.phase:
        case "daybreak":
            return f"{head}: use your daybreak effects, or take a Phase II action (or End turn)"
        case "actions":
            return (
                f"{head}, {side.ap} AP left: summon, play Commands, attack, swap or draw;"
                " or buy (ends Phase II), or End turn"
            )
        case "market":
            return f"{head}, {side.gold} gold: buy, sell or refresh, or End turn"
        case "cleanup" if excess > 0:
            return f"{head}: you hold {excess + HAND_SIZE} cards, discard {excess} to end your turn"
        case "cleanup":
            return f"{head}: discard any cards you like, then draw up to 5"
    return head


def _source(state: State) -> str:
    """Whose effect asks: a card's name, or a faction action."""
    step = state.queue[0] if state.queue else None
    if step is None or not step.ops:
        return "An effect"
    kind, key, part = step.ops.split("/")[0].split(":")
    if kind == "faction":
        return f"{_card(state, key).name}'s level-{part} action"
    return _card(state, key).shown_name


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def prompt(state: State) -> str:
    """What the game waits for, for everyone to read."""
    if state.phase == "over":
        return "The game is over."
    deciders = sorted(to_act(state))
    names = " and ".join(state.players[s].name for s in deciders)
    frame = state.frames[-1] if state.frames else None
    if frame is None:
        side = state.sides[state.active]
        whose = " & ".join(state.players[s].name for s in side.seats)
        extra = {"actions": f", {side.ap} AP left", "market": f", {side.gold} gold"}
        waiting = f" (waiting for {names})" if len(deciders) < len(side.seats) else ""
        return f"{whose}'s turn — {PHASES[state.phase]}{extra.get(state.phase, '')}{waiting}"
    if frame.kind == "respond":
        return f"{incoming(state)}: {names} may answer with an Instant Command"
    asked = _third_person(frame.prompt)
    if frame.kind == "choose":
        return f"Waiting for {names} — {_source(state)}: {asked}"
    return f"Waiting for {names} to {asked}"


def _third_person(text: str) -> str:
    """A question put to a decider, as the rest of the table reads it."""
    return text.replace("your ", "their ").replace("you ", "they ")
