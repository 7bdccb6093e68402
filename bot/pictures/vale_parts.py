"""The parts a Mystic Vale picture is made of: the view read defensively, its symbols as
chips with their words, a field card with its three slots, and the decay gauge against
the Spoil line (`bot.pictures.mystic_vale` lays them out)."""

from __future__ import annotations

import json
from typing import Any

from bot.pictures import canvas as cv
from bot.pictures.canvas import Canvas, Colour, fit, text_width, wrap

EMPTY = "–"


SLOTS = ("top", "middle", "bottom")


SPIRITS = ("sky", "animal", "water", "plant")


PRINTED = {"cursed land": "Cursed Land", "fertile soil": "Fertile Soil"}


SPOIL_AT = 4  # when a view lacks "spoil_at"


LEFT, RIGHT = cv.MARGIN, cv.WIDTH - cv.MARGIN


INNER = RIGHT - LEFT


# Symbols in the cards' order: (view key, icon, icon colour, word after the number).
SKY: Colour = (96, 160, 220)


SYMBOLS: tuple[tuple[str, str, Colour | None, str], ...] = (
    ("mana", "drop", None, ""),
    ("vp", "star", None, ""),
    ("end_vp", "star", None, "end"),
    ("decay", "skull", None, ""),
    ("growth", "leaf", None, "growth"),
    ("sky", "leaf", SKY, "sky"),
    ("animal", "leaf", cv.ORANGE, "animal"),
    ("water", "leaf", cv.BLUE, "water"),
    ("plant", "leaf", cv.GREEN, "plant"),
    ("guardian", "shield", None, ""),
    ("curse", "skull", cv.RED, "curse"),
)


ORDER = {key: n for n, (key, *_) in enumerate(SYMBOLS)}


CHIP = {key: (icon, colour, word) for key, icon, colour, word in SYMBOLS}


WORDS = {  # how a box's text names each symbol ("2 mana"), whatever the chip shows
    "mana": "mana",
    "vp": "VP",
    "end_vp": "end VP",
    "decay": "decay",
    "growth": "growth",
    "guardian": "guardian",
    "curse": "curse",
    **{s: s for s in SPIRITS},
}


# The active player's field: cards side by side, the on-deck card in a column apart.
CARD_W = 118


CARD_GAP = 6


BIG_FIELD = 10  # more field cards than this: one line per slot


CHIPS_W = CARD_W - 8


SLOT_FILL: Colour = (252, 250, 244)


EMPTY_FILL: Colour = (224, 220, 208)


CURSED_FILL: Colour = (218, 204, 214)


FERTILE_FILL: Colour = (214, 232, 204)


NEMESIS_FILL: Colour = (222, 206, 230)


LINE = 18  # a line of small text


# ---------------------------------------------------------------------- view reading


def players_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in view.get("players") or [] if isinstance(p, dict)]


def name_of(view: dict[str, Any], seat: Any) -> str:
    return next((str(p.get("name", seat)) for p in players_of(view) if p.get("seat") == seat), "?")


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def counts_of(counts: Any) -> list[tuple[str, int]]:
    """The non-zero symbols of a dict, in the cards' order."""
    if not isinstance(counts, dict):
        return []
    found = [(k, n) for k, n in counts.items() if k in ORDER and as_int(n)]
    return sorted(found, key=lambda kn: ORDER[kn[0]])


def symbol_words(counts: Any) -> list[str]:
    """Symbols as words, the way boxes record them: ["2 mana", "1 decay"]."""
    return [f"{n} {WORDS[key]}" for key, n in counts_of(counts)]


def slot_names(layers: Any) -> list[str]:
    """What a slot holds, bottom layer first, as printed ("Cursed Land")."""
    if not isinstance(layers, list):
        return []
    return [PRINTED.get(str(layer), str(layer)) for layer in layers]


def card_number(card: dict[str, Any]) -> str:
    """A player card's number among its owner's 20, as the menus say it: "#7"."""
    number = card.get("id")
    return f"#{number % 20 + 1}" if isinstance(number, int) else "#?"


def nemesis_name(card: dict[str, Any]) -> str | None:
    """The nemesis' name when this field card is the nemesis (its label says so)."""
    label = str(card.get("label") or "")
    return label.removeprefix("the nemesis ") if label.startswith("the nemesis ") else None


def has_slots(card: dict[str, Any]) -> bool:
    """Whether a field card is drawn with its three slots (a leader or the nemesis
    covers the whole card)."""
    return not isinstance(card.get("leader"), dict) and nemesis_name(card) is None


def no_hourglass(text: str) -> str:
    """The rules' text with its ⌛ (not in the font) said in words."""
    return text.replace("⌛", "space ")


def offer_groups(cards: list[Any]) -> list[tuple[int, dict[str, Any], int]]:
    """Level-4 advancements as drawn: (first index, card, how many alike)."""
    groups: list[tuple[int, dict[str, Any], int]] = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            continue
        same = next((n for n, g in enumerate(groups) if g[1].get("name") == card.get("name")), None)
        if same is None:
            groups.append((i, card, 1))
        else:
            first, kept, count = groups[same]
            groups[same] = (first, kept, count + 1)
    return groups


# ---------------------------------------------------------------------- fast drawing
# A board draws some 150 lines of text and 60 rounded boxes, most of them the same from
# one board to the next (the commons, the names, the numbers): each is rendered once and
# pasted after, measurements are remembered, which keeps a board within its time budget.


def spec_of(value: Any) -> str:
    """A view's part as a key for `_stamp`."""
    return json.dumps(value, sort_keys=True, default=str)


# ---------------------------------------------------------------------- small drawings


def chip_flow(counts: Any, width: float) -> list[tuple[str, str, int, int]]:
    """Where symbol chips go when they flow over lines of `width`: (key, text, x from the
    left, line)."""
    placed = []
    cx, row = 0, 0
    for key, n in counts_of(counts):
        text = f"{n} {CHIP[key][2]}".strip()
        need = 16 + text_width(text, "small", True)
        if cx + need > width and cx > 0:
            cx, row = 0, row + 1
        placed.append((key, text, cx, row))
        cx += need + 7
    return placed


def chip_line_count(counts: Any, width: float) -> int:
    """How many lines the chips of these symbols take in `width`."""
    placed = chip_flow(counts, width)
    return placed[-1][3] + 1 if placed else 0


def draw_chips(
    c: Canvas, x: float, y: float, width: float, counts: Any, ink: Colour = cv.INK, lines: int = 2
) -> None:
    """Symbols as icon + number (+ word) chips flowing over up to `lines` lines of
    `width` ("…" ends the last line when more would not fit)."""
    for key, text, dx, row in chip_flow(counts, width):
        if row >= lines:
            c.write(x + width - 10, y + (lines - 1) * LINE, "…", size="small", colour=ink)
            break
        icon, colour, _ = CHIP[key]
        if colour is None and icon == "skull" and ink != cv.INK:  # a dark skull on the dark table
            colour = cv.LIGHT_SOFT
        c.count(icon, x + dx, y + row * LINE, text, colour=ink, icon_colour=colour)


def draw_frame(
    c: Canvas, x: float, y: float, w: float, h: float, fill: Colour, marked: bool = False
) -> None:
    c.plate(
        x,
        y,
        w,
        h,
        fill=fill,
        width=4 if marked else 2,
        edge=cv.HIGHLIGHT if marked else cv.INK_SOFT,
    )


# ---------------------------------------------------------------------- the field


def _slot_lines(names: list[str], width: int, compact: bool) -> list[str]:
    """A slot's lines: the name on top (two lines at most), and what it covers."""
    if not names:
        return []
    top, covered = names[-1], names[:-1]
    if compact:
        return [fit(top, width, "small")]
    if covered:
        return [fit(top, width, "small"), fit("over " + ", ".join(covered), width, "small")]
    return wrap(top, width, size="small", lines=2)


Look = tuple[bool, int]  # the field's cards: one line a slot (a big field), lines of symbols


def look_of(player: dict[str, Any]) -> Look:
    """How a player's field cards are drawn: all of one height, enough for the most
    symbols any of them shows."""
    field = field_of(player)
    cards = [*field, *([player["on_deck"]] if isinstance(player.get("on_deck"), dict) else [])]
    lines = max((chip_line_count(card.get("symbols"), CHIPS_W) for card in cards), default=1)
    return len(field) > BIG_FIELD, max(1, lines)


def card_height(look: Look) -> int:
    compact, lines = look
    return 22 + 3 * (_slot_height(compact) + 3) + lines * LINE + 4


def _slot_height(compact: bool) -> int:
    return LINE + 6 if compact else 2 * LINE + 6


def card_tile(
    c: Canvas, kind: str, key: str, x: float, y: float, card: dict[str, Any], look: Look
) -> None:
    """`_field_card` on the panel, from a tile when it was drawn before."""
    size = (CARD_W + 1, card_height(look) + 1)
    spec = ("mv-field", kind, key, look, spec_of(card))
    c.stamp(x, y, size, spec, lambda t: _field_card(t, kind, key, 0, 0, card, look), cv.PANEL)


def _field_card(
    c: Canvas, kind: str, key: str, x: float, y: float, card: dict[str, Any], look: Look
) -> None:
    """One player card: its number, its three slots (or the leader or nemesis covering
    it) and the symbols it shows; records the card and each slot."""
    compact, chip_lines = look
    h = card_height(look)
    nemesis = nemesis_name(card)
    leader = card.get("leader")
    draw_frame(c, x, y, CARD_W, h, NEMESIS_FILL if nemesis else cv.CARD)
    number = card_number(card)
    c.write(x + 6, y + 3, number, size="small", colour=cv.INK_SOFT, bold=True)
    shown: list[str] = [number]
    inner = CARD_W - 12
    body_y = y + 22
    if isinstance(leader, dict):
        c.icon("crown", x + 6, body_y + 2, 16)
        c.write(x + 26, body_y, "Leader", size="small", colour=cv.INK, bold=True)
        lines = wrap(str(leader.get("name", "?")), inner, size="small")
        side = "upgraded" if leader.get("side") == "upgraded" else "starting side"
        lines.append(side)
        for n, line in enumerate(lines):
            c.write(x + 6, body_y + 22 + n * LINE, line, size="small", colour=cv.INK)
        shown += ["Leader", *lines]
    elif nemesis is not None:
        c.icon("skull", x + 6, body_y + 2, 15, cv.PURPLE)
        c.write(x + 26, body_y, "Nemesis", size="small", colour=cv.INK, bold=True)
        lines = wrap(nemesis, inner, size="small")
        for n, line in enumerate(lines):
            c.write(x + 6, body_y + 22 + n * LINE, line, size="small", colour=cv.INK)
        shown += ["Nemesis", *lines]
    else:
        slots = as_dict(card.get("slots"))
        sh = _slot_height(compact)
        prefix = f"{key}:deck" if kind == "ondeck" else key
        for n, slot in enumerate(SLOTS):
            names = slot_names(slots.get(slot))
            sy = body_y + n * (sh + 3)
            _slot(c, f"{prefix}:{slot}", x + 4, sy, CARD_W - 8, sh, names, compact)
    symbols_y = y + h - chip_lines * LINE - 4
    draw_chips(c, x + 5, symbols_y, CHIPS_W, card.get("symbols"), lines=chip_lines)
    shown += symbol_words(card.get("symbols"))
    c.keep(kind, key, x, y, CARD_W, h, *shown)


def _slot(
    c: Canvas,
    key: str,
    x: float,
    y: float,
    w: float,
    h: float,
    names: list[str],
    compact: bool,
) -> None:
    top = names[-1] if names else None
    land = top.split(" (")[0] if top else None  # a Fertile Soil bought is "Fertile Soil (top)"
    fill = {None: EMPTY_FILL, "Cursed Land": CURSED_FILL, "Fertile Soil": FERTILE_FILL}.get(
        land, SLOT_FILL
    )
    c.plate(x, y, w, h, radius=4, fill=fill)
    icon = {"Cursed Land": "skull", "Fertile Soil": "leaf"}.get(land or "")
    tx = x + 4
    if icon:  # a printed land: its icon before the name
        c.icon(icon, tx, y + 5, 12, cv.RED if icon == "skull" else cv.GREEN)
        tx += 15
    lines = _slot_lines(names, int(x + w - tx - 3), compact)
    for n, line in enumerate(lines):
        soft = n == 1 and len(names) > 1
        c.write(tx, y + 3 + n * LINE, line, size="small", colour=cv.INK_SOFT if soft else cv.INK)
    c.keep("slot", key, x, y, w, h, *lines)


def decay_bar(
    c: Canvas, view: dict[str, Any], player: dict[str, Any], x: float, y: float, w: int, h: int
) -> None:
    """The decay against the Spoil line: "Decay 3 of 4"."""
    spoil = view.get("spoil_at")
    spoil = spoil if isinstance(spoil, int) and spoil > 0 else SPOIL_AT
    decay = as_int(player.get("decay"))
    colour = (150, 200, 150)  # light fills: the caption is dark ink on them
    if decay >= spoil - 1:
        colour = (236, 178, 120) if decay < spoil else (232, 128, 120)
    c.bar(
        f"decay:{player.get('seat')}",
        x,
        y,
        w,
        h,
        decay,
        max(spoil + 1, decay),
        colour=colour,
        line_at=spoil,
        caption=f"Decay {player.get('decay', EMPTY)} of {spoil}",
    )


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def field_of(player: dict[str, Any]) -> list[dict[str, Any]]:
    return [card for card in player.get("field") or [] if isinstance(card, dict)]
