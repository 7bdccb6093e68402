"""The Mystic Vale board and private view.

The board: the VP pool (the game's clock: the round in which it runs out is the last);
the Harvest under way (mana, spirits, guardians, buys left); each player's tokens,
mana token, leader, vales and Reserved advancements, deck and discard sizes, then
their field card by card, each with its number (`#7`, as the menus say "card #7") and
its three slots top | middle | bottom, the on-deck card, and the decay that Spoils at
4; then the commons (levels 1 to 3, level 4, the Fertile Soils) and the vales, with
their costs. The private view adds the player's own cards' text, their Reserved
advancements and leader in full, and what a pending decision is about. A solitaire game
shows its nemesis on both: the card (which abilities act now, which from which space),
the corruption track (the spaces passed, the one the hourglass is on and what the next
will claim) and the nemesis' score pile with its score so far.

Views are read defensively: a missing key shows as a dash. A 4-player board must fit
in one embed (6000 characters): each player's field is drawn in full when it fits in
its embed field, identical cards side by side grouped when not.
"""

from __future__ import annotations

from typing import Any

from bot.render.generic import FIELD_LIMIT, Field, Renderer, chunked_fields, clip
from rules.core.packs import PROJECT_LEGEND
from rules.mystic_vale.text import SYMBOL_WORDS as WORDS  # the words of the cards' text

TO_ACT = "▶️"
DANGER = "⚠️"
LAST = "🔔"
EMPTY = "–"
SLOTS = ("top", "middle", "bottom")
SPIRITS = ("sky", "animal", "water", "plant")
UNHARVESTED = ("decay", "growth")  # symbols that count in Planting, not in a Harvest
PRINTED = {"cursed land": "Cursed Land", "fertile soil": "Fertile Soil"}
SPOIL_AT = 4  # shown when a view lacks "spoil_at"
PUSH_OR_STOP = (
    "**Push**: your on-deck card joins your field and the next card of your deck turns up. "
    f"Once the decay reaches {SPOIL_AT} you Spoil: no Harvest this turn (your mana token "
    "turns active, worth 1 mana in a later Harvest).\n"
    "**Stop**: harvest your field: its mana and spirits buy cards, its VP and curse "
    "symbols give tokens. The buttons under the line that calls you do the same."
)
LOW_POOL_PER_PLAYER = 2  # a pool this low per player is marked: the end is near
NEMESIS_SPOTS = {
    "field": "in your field",
    "on_deck": "your on-deck card",
    "elsewhere": "in your deck or discard pile",
}
NAME_LIMIT = 256
# The board's own fields stay within this, so that the embed (6000 characters at most)
# keeps room for its title, prompt, footer, the last lines and the clock.
BOARD_BUDGET = 4300
LEGEND = (
    f"#7 card number · slots top | middle | bottom ({EMPTY} empty) · decay counts the "
    f"field and the on-deck card, less growth · {DANGER} one more decay Spoils, or the VP "
    f"pool is low · {TO_ACT} decides now · {PROJECT_LEGEND}"
)


def amounts(counts: dict[str, Any] | None, joiner: str = " + ") -> str:
    """Symbols or a cost in the cards' words: "4 mana + 2 VP" ("free" for nothing)."""
    counts = counts or {}
    parts = []
    for key, (one, many) in WORDS.items():
        value = counts.get(key)
        if isinstance(value, int) and value:
            parts.append(f"{value} {one if abs(value) == 1 else many}")
    return joiner.join(parts) or "free"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def card_number(card: dict[str, Any]) -> str:
    """A player card's number among its owner's 20, as the menus say it: "#7"."""
    number = card.get("id")
    return f"#{number % 20 + 1}" if isinstance(number, int) else "#?"


def slot_text(layers: list[Any]) -> str:
    """One slot: what shows on top, and the eclipse it covers ("A (covering B)")."""
    names = [PRINTED.get(str(layer), str(layer)) for layer in layers]
    if not names:
        return EMPTY
    top, covered = names[-1], names[:-1]
    return f"{top} (covering {', '.join(covered)})" if covered else top


def card_body(card: dict[str, Any]) -> str:
    """A player card without its number: the nemesis covering it, its leader, or its
    slots top | middle | bottom ("blank" when nothing is in any)."""
    if card.get("nemesis"):
        return f"😈 Nemesis: {card['nemesis']}"
    leader = card.get("leader")
    slots = card.get("slots") or {}
    filled = [slots.get(s) or [] for s in SLOTS]
    parts = []
    if isinstance(leader, dict):
        side = " (upgraded)" if leader.get("side") == "upgraded" else ""
        parts.append(f"👑 {leader.get('name', '?')}{side}")
    if any(filled):
        parts.append(" | ".join(slot_text(layers) for layers in filled))
    return " · ".join(parts) or "blank"


def card_line(card: dict[str, Any]) -> str:
    """A player card: "`#7` Bristleback Charger ✦ | – | Cursed Land"."""
    return f"`{card_number(card)}` {card_body(card)}"


def grouped_lines(cards: list[dict[str, Any]], *, anywhere: bool = False) -> list[str]:
    """Cards that read alike on one line ("`#2` `#5` blank"): side by side ones, or
    (`anywhere`) all of them, at the place of the first."""
    lines: list[tuple[list[str], str]] = []
    for card in cards:
        body = card_body(card)
        alike = [line for line in lines[-1:] if line[1] == body]
        if anywhere:
            alike = [line for line in lines if line[1] == body]
        if alike:
            alike[0][0].append(card_number(card))
        else:
            lines.append(([card_number(card)], body))
    return [" ".join(f"`{n}`" for n in numbers) + f" {body}" for numbers, body in lines]


def for_sale(card: dict[str, Any] | None, *, slot: bool = True, row: int | None = None) -> str:
    """An advancement or vale of the commons: "Park Gardener (middle, 3 mana)"; its level
    too when it lies in a row of another level (`row`: refilled from the next deck)."""
    if not card:
        return EMPTY
    where = f"{card['slot']}, " if slot and card.get("slot") else ""
    level = card.get("level")
    if row is not None and isinstance(level, int) and level != row:
        where = f"level {level}, {where}"
    return f"{card.get('name', '?')} ({where}{amounts(card.get('cost'))})"


def field_symbols(cards: list[dict[str, Any]]) -> dict[str, int]:
    """What a field shows in all: the symbols of its cards added up."""
    total: dict[str, int] = {}
    for card in cards:
        for key, value in (card.get("symbols") or {}).items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total


def _at_risk(view: dict[str, Any], player: dict[str, Any]) -> bool:
    """Whether a player's decay still matters this turn: it does in their Planting, and
    for the others' next one, not for a player whose Planting is over."""
    active = player.get("seat") == view.get("active")
    return not active or view.get("phase") in ("planting", "prep")


def _size(fields: list[Field]) -> int:
    return sum(len(f.name) + len(f.value) for f in fields)


def _players(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in view.get("players") or [] if isinstance(p, dict)]


def _name(view: dict[str, Any], seat: Any) -> str:
    return next((str(p.get("name")) for p in _players(view) if p.get("seat") == seat), "?")


def scores(view: dict[str, Any]) -> list[str]:
    """Every player's VP (and, solitaire, the nemesis' score so far)."""
    out = []
    for p in _players(view):
        vp = p.get("vp")
        out.append(f"{p.get('name', p.get('seat'))}: {vp if isinstance(vp, int) else 0} VP")
    nemesis = view.get("nemesis")
    if isinstance(nemesis, dict):
        out.append(f"Nemesis: {nemesis.get('score', '–')}")
    return out


def when(view: dict[str, Any]) -> str:
    """The round (a solitaire game's turn)."""
    solo = isinstance(view.get("nemesis"), dict) or view.get("variant") == "solo"
    return f"{'Turn' if solo else 'Round'} {view.get('round', '–')}"


class MysticValeRenderer(Renderer):
    """Board and private view for Mystic Vale."""

    legend = LEGEND

    def scores(self, view: dict[str, Any]) -> list[str]:
        return scores(view)

    def when(self, view: dict[str, Any]) -> str:
        return when(view)

    # ------------------------------------------------------------------ the board

    def board_fields(self, view: dict[str, Any], to_act: tuple[int, ...]) -> list[Field]:
        fields = [self.pool_field(view), *self.nemesis_fields(view)]
        harvest = self.harvest_field(view)
        if harvest is not None:
            fields.append(harvest)
        players = [f for p in _players(view) for f in self.player_fields(view, p, to_act)]
        rest = [self.commons_field(view), self.vales_field(view)]
        if _size([*fields, *players, *rest]) > BOARD_BUDGET:  # alike cards grouped
            players = [
                f for p in _players(view) for f in self.player_fields(view, p, to_act, compact=True)
            ]
        return [*fields, *players, *rest]

    def pool_field(self, view: dict[str, Any]) -> Field:
        """The game's clock: the VP pool, and the last round once it ran out."""
        pool = view.get("pool", "?")
        players = _players(view)
        first = view.get("first")
        solo = isinstance(view.get("nemesis"), dict)
        if view.get("phase") == "over":
            title = f"VP pool: {pool} left — the game is over"
            value = f"{'Turn' if solo else 'Round'} {view.get('round', '?')} was the last."
        elif view.get("last_round") and solo:
            title = f"{LAST} Last turn — the VP pool ran out"
            value = "The game ends after this turn's Nemesis Phase; then the points are counted."
        elif solo:
            low = isinstance(pool, int) and pool <= LOW_POOL_PER_PLAYER * 2
            title = f"VP pool: {pool} left" + (f" {DANGER} the end is near" if low else "")
            value = (
                "Your Harvests and the nemesis take VP tokens from it; the turn in which it "
                "runs out is the last."
            )
        elif view.get("last_round"):
            last = (first - 1) % len(players) if isinstance(first, int) and players else None
            title = f"{LAST} Last round — the VP pool ran out"
            value = f"The game ends after {_name(view, last)}'s turn; then the points are counted."
        else:
            low = isinstance(pool, int) and pool <= LOW_POOL_PER_PLAYER * max(1, len(players))
            title = f"VP pool: {pool} left" + (f" {DANGER} the end is near" if low else "")
            value = (
                "Each Harvest takes VP tokens from it; the round in which it runs out is the last."
            )
        if solo:
            value += f"\nTurn {view.get('round', '?')}"
        else:
            value += f"\nRound {view.get('round', '?')} · first player {_name(view, first)}"
        return Field(clip(title, NAME_LIMIT), clip(value, FIELD_LIMIT))

    def nemesis_fields(self, view: dict[str, Any]) -> list[Field]:
        """A solitaire game's nemesis: its card, the corruption track, its score pile."""
        nemesis = view.get("nemesis")
        if not isinstance(nemesis, dict):
            return []
        return [
            self.nemesis_card_field(nemesis),
            self.track_field(nemesis),
            self.pile_field(nemesis),
        ]

    def nemesis_card_field(self, nemesis: dict[str, Any]) -> Field:
        """The nemesis card: difficulty and power, what it shows now, where it is, and
        each ability, acting now or from which space of the track."""
        title = (
            f"😈 Nemesis: {nemesis.get('name', '?')} — {nemesis.get('difficulty', '?')} "
            f"({nemesis.get('pips', '?')} of 4), power {nemesis.get('power', '?')}"
        )
        shows = amounts(nemesis.get("symbols")) or "nothing"
        where = NEMESIS_SPOTS.get(str(nemesis.get("where")), NEMESIS_SPOTS["elsewhere"])
        lines = [f"Shows {shows} now · {where}"]
        for later in nemesis.get("decay_later") or []:
            if isinstance(later, dict):
                mark = "✅" if later.get("active") else "⏳"
                lines.append(f"{mark} From ⌛{later.get('hourglass')}: +{later.get('decay')} decay")
        for ability in nemesis.get("abilities") or []:
            if isinstance(ability, dict):
                mark = "✅" if ability.get("active") else "⏳"
                lines.append(f"{mark} {ability.get('text', '')}")
        return Field(clip(title, NAME_LIMIT), clip("\n".join(lines), FIELD_LIMIT))

    def track_field(self, nemesis: dict[str, Any]) -> Field:
        """The corruption track: the last spaces passed, the hourglass's, the next."""
        space, last = nemesis.get("space"), nemesis.get("last")
        spaces = [str(t) for t in nemesis.get("track") or []]
        side = str(nemesis.get("side", "?")).capitalize()
        title = f"⌛ Corruption track ({side} side): space {space} of {last}"
        if not isinstance(space, int) or not isinstance(last, int) or not spaces:
            return Field(title, EMPTY)
        lines = [f"~~{n}: {spaces[n]}~~" for n in range(max(1, space - 2), space)]
        lines.append(
            f"▶ **{space}: {spaces[space]}**" + (" (the last space)" if space == last else "")
        )
        if space < last:
            lines.append(f"Next, after your next Prep — {space + 1}: {nemesis.get('next', EMPTY)}")
        else:
            lines.append(f"It stays here: after every Prep, again — {nemesis.get('next', EMPTY)}")
        return Field(clip(title, NAME_LIMIT), clip("\n".join(lines), FIELD_LIMIT))

    def pile_field(self, nemesis: dict[str, Any]) -> Field:
        """The nemesis' score pile and its score so far (it wins ties)."""
        score = nemesis.get("score", "?")
        pile = [str(name) for name in nemesis.get("pile") or []]
        effects = nemesis.get("end_effects") or 0
        parts = [
            f"{nemesis.get('vp', 0)} VP",
            f"{len(pile)} cards worth {nemesis.get('pile_points', 0)}"
            + (
                f" ({effects} End of Game effect{'s' if effects != 1 else ''} at 4 each)"
                if effects
                else ""
            ),
            f"power {nemesis.get('power', '?')}",
        ]
        value = " + ".join(parts) + f" = **{score}**. You win only with more; a tie is its."
        if pile:
            value += "\nIts pile: " + ", ".join(pile)
        return Field(f"Nemesis score so far: {score}", clip(value, FIELD_LIMIT))

    def harvest_field(self, view: dict[str, Any]) -> Field | None:
        """The active player's Harvest pool and buys left (what they bought, to sleeve)."""
        pool = view.get("harvest")
        if not isinstance(pool, dict) or view.get("phase") not in ("harvest", "final", "discard"):
            return None
        active = _name(view, view.get("active"))
        bought = [str(b) for b in view.get("bought") or []]
        if view.get("phase") == "discard":
            if not bought:
                return None
            return Field(
                f"{active}'s Discard Phase",
                clip(f"To sleeve into the field: {', '.join(bought)}", FIELD_LIMIT),
            )
        me = next((p for p in _players(view) if p.get("seat") == view.get("active")), {})
        token = " (+1 from the mana token)" if me.get("mana_token") else ""
        spirits = amounts({s: pool.get(s, 0) for s in SPIRITS}, " · ")
        lines = [
            f"**{pool.get('mana', 0)} mana**{token} · spirits: "
            + (spirits if spirits != "free" else "none")
            + (f" · {_plural(pool['guardian'], 'guardian')}" if pool.get("guardian") else ""),
            f"Buys left: {_plural(pool.get('vale_buys_left', 0), 'vale')} (spirits), then "
            f"{_plural(pool.get('buys_left', 0), 'advancement')} (mana)",
        ]
        if bought:
            lines.append(f"Bought, sleeved in the Discard Phase: {', '.join(bought)}")
        return Field(f"🌾 {active}'s Harvest", clip("\n".join(lines), FIELD_LIMIT))

    def player_fields(
        self,
        view: dict[str, Any],
        player: dict[str, Any],
        to_act: tuple[int, ...],
        *,
        you: bool = False,
        compact: bool = False,
    ) -> list[Field]:
        """One player: their tokens in the title, then their play area and field (`you`:
        the player's own, in their private view). One card a line, in the field's order;
        alike cards side by side share a line when that doesn't fit in one embed field,
        and alike cards anywhere when `compact`. Should even that not fit, the rest of the
        field follows in a second embed field."""
        seat = player.get("seat")
        title = f"{TO_ACT} " if seat in to_act else ""
        title += f"You — {player.get('name', seat)}" if you else str(player.get("name", seat))
        if player.get("conceded"):
            title += " — left the game"
        elif seat == view.get("active") and view.get("phase") not in ("leaders", "over"):
            title += " — your turn" if you else " — their turn"
        curses = player.get("curses", 0)
        title += f" · {player.get('vp', 0)} VP · {_plural(curses, 'curse')}"
        head = self.player_head(view, player)
        field = [c for c in player.get("field") or [] if isinstance(c, dict)]
        tail = self.decay_lines(view, player)
        room = FIELD_LIMIT - len("\n".join([*head, *tail])) - 1
        cards = [card_line(c) for c in field]
        if compact:
            cards = grouped_lines(field, anywhere=True)
        elif len("\n".join(cards)) > room:
            cards = grouped_lines(field)
        lines = [*head, *cards, *tail]
        chunks = chunked_fields(clip(title, NAME_LIMIT - 10), lines)
        return [Field(clip(f.name, NAME_LIMIT), f.value) for f in chunks]

    def player_head(self, view: dict[str, Any], player: dict[str, Any]) -> list[str]:
        """A player's resources, leader, vales and Reserve, and their field's heading."""
        token = "**active** (+1 mana)" if player.get("mana_token") else "inactive"
        alone = isinstance(view.get("nemesis"), dict)  # a solitaire game has no first player
        first = (
            " · ⭐ first player" if player.get("seat") == view.get("first") and not alone else ""
        )
        lines = [
            f"Mana token {token} · deck {player.get('deck_count', 0)} · "
            f"discard {player.get('discard_count', 0)}{first}"
        ]
        leader = player.get("leader")
        if isinstance(leader, dict):
            lines.append(f"Leader: {self.leader_text(player, leader)}")
        vales = [str(v) for v in player.get("vales") or []]
        if vales:
            lines.append(f"Vales: {' · '.join(vales)}")
        reserved = [r for r in player.get("reserved") or [] if isinstance(r, dict)]
        if reserved:
            lines.append(f"Reserved: {' · '.join(for_sale(r) for r in reserved)}")
        field = [c for c in player.get("field") or [] if isinstance(c, dict)]
        harvested = {k: v for k, v in field_symbols(field).items() if k not in UNHARVESTED}
        shows = amounts(harvested, " · ")
        shows = "" if shows == "free" else f" — shows {shows}"
        lines.append(f"**Field** ({len(field)}){shows}:" if field else "**Field**: empty")
        return lines

    def leader_text(self, player: dict[str, Any], leader: dict[str, Any]) -> str:
        """A leader, its side, and where it is: "**Magmaborn Titan** (starting side, in the
        field as `#4`)"."""
        name = f"**{leader.get('name', '?')}**"
        if leader.get("aside"):
            return f"{name} (upgraded, beside the play area)"
        side = "upgraded" if leader.get("upgraded") else "starting side"
        holder = next(
            (
                c
                for c in [*(player.get("field") or []), player.get("on_deck")]
                if isinstance(c, dict) and c.get("leader")
            ),
            None,
        )
        if holder is None:
            return f"{name} ({side})"
        where = "on deck" if holder is player.get("on_deck") else "in the field"
        return f"{name} ({side}, {where} as `{card_number(holder)}`)"

    def decay_lines(self, view: dict[str, Any], player: dict[str, Any]) -> list[str]:
        """The on-deck card and the decay against the Spoil threshold."""
        on_deck = player.get("on_deck")
        lines = [f"**On deck**: {card_line(on_deck) if isinstance(on_deck, dict) else 'none'}"]
        spoil_at = view.get("spoil_at", SPOIL_AT)
        decay = player.get("decay", 0)
        growth = player.get("growth", 0)
        text = f"**Decay {decay} of {spoil_at}**"
        if player.get("cannot_spoil"):
            text += " (can't Spoil now)"
        elif _at_risk(view, player) and isinstance(decay, int) and isinstance(spoil_at, int):
            text += f" {DANGER}" if decay >= spoil_at - 1 else ""
        if growth:
            text += f" · {growth} growth offsets decay"
        lines.append(text)
        return lines

    def commons_field(self, view: dict[str, Any]) -> Field:
        """The advancements for sale, level by level, with slots and costs."""
        commons = view.get("commons") or {}
        rows = commons.get("rows") or {}
        decks = commons.get("decks") or {}
        lines = []
        for level in ("1", "2", "3"):
            shown = " · ".join(for_sale(c, row=int(level)) for c in rows.get(level) or [])
            lines.append(f"**{level}** ({decks.get(level, '?')} left): {shown or EMPTY}")
        four = [c for c in commons.get("level4") or [] if isinstance(c, dict)]
        lines.append(f"**4**: {' · '.join(for_sale(c) for c in four) or 'none revealed yet'}")
        soils = [s for s in commons.get("fertile_soils") or [] if isinstance(s, dict)]
        if soils:
            costs = {amounts(s.get("cost")) for s in soils}
            each = f", {costs.pop()} each" if len(costs) == 1 else ""
            left = " · ".join(
                f"{s.get('slot', '?')} {s.get('count', 0)}"
                + ("" if each else f" ({amounts(s.get('cost'))})")
                for s in soils
            )
            lines.append(f"**Fertile Soils** ({commons.get('fertile', 0)} left{each}): {left}")
        else:
            lines.append("**Fertile Soils**: none left")
        return Field(
            "Commons — advancements, bought with mana", clip("\n".join(lines), FIELD_LIMIT)
        )

    def vales_field(self, view: dict[str, Any]) -> Field:
        """The vales for sale, both levels, with their spirit costs."""
        commons = view.get("commons") or {}
        rows = commons.get("vales") or {}
        decks = commons.get("vale_decks") or {}
        lines = []
        for level in ("1", "2"):
            shown = " · ".join(
                for_sale(c, slot=False, row=int(level)) for c in rows.get(level) or []
            )
            lines.append(f"**{level}** ({decks.get(level, '?')} left): {shown or EMPTY}")
        return Field("Vales — bought with spirits", clip("\n".join(lines), FIELD_LIMIT))

    # ------------------------------------------------------------------ the private view

    def private_fields(self, view: dict[str, Any]) -> list[Field]:
        me = next((p for p in _players(view) if p.get("seat") == view.get("me")), None)
        if me is None:
            return super().private_fields(view)
        fields: list[Field] = self.nemesis_fields(view)[:1]  # the nemesis card, in full
        decision = view.get("decision")
        if isinstance(decision, dict) and isinstance(decision.get("about"), dict):
            about = decision["about"]
            fields.append(
                Field(
                    clip(f"About: {about.get('name', '?')}", NAME_LIMIT),
                    clip(str(about.get("text") or EMPTY), FIELD_LIMIT),
                )
            )
        offered = [o for o in view.get("leader_options") or [] if isinstance(o, dict)]
        if view.get("phase") == "leaders" and offered and not me.get("leader"):
            lines = [
                f"**{o.get('name', '?')}**\n{str(o.get('text') or EMPTY).replace(chr(10), ' / ')}"
                for o in offered
            ]
            fields += chunked_fields("Your two leaders: keep one (starting side / upgraded)", lines)
        planting = view.get("phase") == "planting" and not decision
        if planting and view.get("active") == view.get("me") and view.get("quick"):
            fields.append(Field("Push or stop?", PUSH_OR_STOP))
        harvest = self.harvest_field(view)
        if harvest is not None and view.get("active") == view.get("me"):
            fields.append(harvest)
        fields += self.player_fields(view, me, (), you=True)
        texts = view.get("card_texts") or {}
        lines = [f"**{name}** — {text}" for name, text in texts.items()]
        if lines:
            fields += chunked_fields("What your cards do", lines)
        reserved = [r for r in me.get("reserved") or [] if isinstance(r, dict)]
        if reserved:
            lines = [f"**{r.get('name', '?')}** — {r.get('text', '')}" for r in reserved]
            fields += chunked_fields("Your Reserved advancements (only you may buy them)", lines)
        leader = me.get("leader")
        if isinstance(leader, dict):
            sides = str(leader.get("text") or EMPTY).split("\n")
            now = 1 if leader.get("upgraded") else 0
            text = "\n".join(("▶ " if i == now else "• ") + side for i, side in enumerate(sides))
            title = f"Your leader: {leader.get('name', '?')} (▶ the side up now)"
            fields.append(Field(clip(title, NAME_LIMIT), clip(text, FIELD_LIMIT)))
        return fields
