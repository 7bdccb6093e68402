"""Mystic Vale drawn: the board from the public view, and a player's own cards from
their private view.

The board, top to bottom: a title line (variant, round or turn, the VP pool left) and
the line saying who decides now; the player whose turn it is, most prominently: their
field as cards side by side (each card's number as the menus say it, its three slots top
to bottom with what is sleeved in each, the symbols it shows), the on-deck card apart,
the decay gauge against the Spoil line and the Harvest under way; a solitaire game's
nemesis (its card, its score so far, the corruption track with the hourglass); a summary
row for every player; the commons (advancements by level with slot and cost, level 4,
the Fertile Soils, the vales with their spirit costs). Symbols are drawn icons with
their number, and a word where the icon alone is not enough: a drop is mana, a star VP,
a skull decay (a red skull, with the word, a curse), a leaf growth or a spirit (with its
word), a shield a guardian.

Box keys (kind, key):
- ("label", "title" / "decider" / "pool" / "turn" / "harvest" / "bought" / "legend" /
  "commons" / "vales"): lines ("decider" names who decides now, "turn" heads the
  player whose turn it is).
- ("field", "{seat}:{position}"): card `position` (from 0, the view's order) of the
  field of the player whose turn it is; text: its number ("#7"), then what it shows.
- ("slot", "{seat}:{position}:{top|middle|bottom}"): each slot of such a card (not of a
  leader's or the nemesis' card, which have none to fill); text: the names drawn, none
  for an empty slot. The on-deck card's slots are "{seat}:deck:{slot}".
- ("ondeck", "{seat}"): that player's on-deck card, drawn apart.
- ("bar", "decay:{seat}"): every player's decay against the Spoil line ("Decay 3 of 4").
- ("player", "{seat}"): every player's summary row (it says "TO ACT" for a decider).
- ("offer", "{row}:{i}"): advancement `i` of commons row 1 to 3; ("offer", "4:{i}"):
  the level-4 advancements, alike ones drawn once (`i` the first one's index, "×2");
  ("offer", "fertile"): the Fertile Soils left.
- ("vale", "{level}:{i}"): vale `i` of the vales' row of that level.
- Solitaire: ("nemesis", "card"), ("label", "nemesis:score"), ("label", "track"),
  ("track", "{n}") for every space of the corruption track (the hourglass's says
  "hourglass", those behind it "passed"), ("label", "track:now" / "track:next").

Drawing is kept within its time budget by remembering: text is rendered once and
pasted after, and a field card, a cell of the commons or a player's row drawn before
(the same part of the view at the same place) is pasted as a whole; the canvas is made
to the picture's own height (worked out first), and the PNG maps to a fixed palette.

The private picture (the player's own cards, as their private view tells them: what
their cards and vales do, their leader, their Reserved advancements, what a decision is
about, the leaders offered): ("label", "private:me"), ("about", "decision"), ("option",
"{i}"), ("leader", "me"), ("reserved", "{i}"), ("text", "{card name}").

Only the view is read, defensively: a missing key draws a dash or nothing.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bot.pictures import canvas as cv
from bot.pictures.canvas import Canvas, Colour, Picture, fit, text_width, wrap
from bot.pictures.vale_parts import (
    CARD_GAP,
    CARD_W,
    CHIP,
    CHIPS_W,
    EMPTY,
    FERTILE_FILL,
    INNER,
    LEFT,
    LINE,
    NEMESIS_FILL,
    RIGHT,
    SPIRITS,
    Look,
    as_dict,
    as_int,
    card_height,
    card_tile,
    chip_flow,
    chip_line_count,
    counts_of,
    decay_bar,
    draw_chips,
    draw_frame,
    field_of,
    look_of,
    name_of,
    no_hourglass,
    offer_groups,
    players_of,
    spec_of,
    symbol_words,
)
from bot.render.mystic_vale import scores, when

# The commons: a column naming the row, then three cells.
ROW_HEAD = 58


CELL_H = 40


CELL_TEXT = 20  # a cell's second line (its cost), below its name


CELLS = 3


COMMONS_W = 560  # the commons' column, at the right of the players, at the least


VALES = 4  # vales side by side, the whole width


COMMONS = "Commons — advancements, bought with mana"


VALES_HEADING = "Vales — bought with spirits"


# ---------------------------------------------------------------------- the player to act


def _harvesting(view: dict[str, Any]) -> bool:
    return isinstance(view.get("harvest"), dict) and view.get("phase") in ("harvest", "final")


def _bought(view: dict[str, Any]) -> list[str]:
    if view.get("phase") not in ("harvest", "final", "discard"):
        return []
    return [str(b) for b in view.get("bought") or []]


def _deck_x(w: int) -> int:
    """The on-deck card's column in the panel of the player whose turn it is."""
    return LEFT + w - 12 - CARD_W


def _per_row(w: int) -> int:
    """Field cards to a row in that panel, `w` wide (left of the on-deck card)."""
    return max(1, (_deck_x(w) - 10 - (LEFT + 12) + CARD_GAP) // (CARD_W + CARD_GAP))


def _field_rows(field: list[dict[str, Any]], w: int) -> int:
    return max(1, -(-len(field) // _per_row(w)))


def _column(player: dict[str, Any], w: int) -> int:
    """The height of the field's cards (and the on-deck card beside them)."""
    field = field_of(player)
    if not field and not isinstance(player.get("on_deck"), dict):
        return 32
    return _field_rows(field, w) * (card_height(look_of(player)) + CARD_GAP)


def _about_lines(view: dict[str, Any], player: dict[str, Any], w: int) -> list[str]:
    """The line under the heading of the player whose turn it is: their leader, vales
    and Reserved advancements (two lines at most; none when there is nothing to say)."""
    parts = []
    leader = player.get("leader")
    if isinstance(leader, dict):
        side = " (upgraded)" if leader.get("upgraded") else ""
        parts.append(f"Leader: {leader.get('name', '?')}{side}")
    elif view.get("phase") == "leaders":
        parts.append("choosing a leader")
    parts += _holdings(player)
    return wrap(" · ".join(parts), w - 44, size="small", lines=2) if parts else []


def _active_height(view: dict[str, Any], player: dict[str, Any], w: int) -> int:
    column = _column(player, w)
    extra = (2 * LINE + 8 if _harvesting(view) else 0) + (22 if _bought(view) else 0)
    about = len(_about_lines(view, player, w)) * LINE
    return 34 + about + extra + 22 + column + 4 + 26 + 10


def _active(
    c: Canvas,
    view: dict[str, Any],
    player: dict[str, Any],
    to_act: tuple[int, ...],
    y: int,
    w: int,
) -> int:
    """The player whose turn it is, most prominently, in a panel `w` wide: their VP,
    curses and piles, their leader, vales and Reserve; their field card by card, the
    on-deck card apart, the decay gauge and the Harvest under way. Returns the bottom."""
    seat = player.get("seat")
    marked = seat in to_act
    h = _active_height(view, player, w)
    right, deck_x, per_row = LEFT + w, _deck_x(w), _per_row(w)
    c.panel(LEFT, y, w, h, marked=marked)
    x0 = LEFT + 12
    x = x0
    shown: list[str] = []
    if marked:
        x += c.tag(x, y + 11, "TO ACT") + 8
        shown.append("TO ACT")
    when = {"over": "the last turn", "leaders": "first to play"}.get(
        str(view.get("phase")), "their turn"
    )
    if player.get("conceded"):
        when = "left the game"
    name = fit(str(player.get("name", seat)), 260, "body", True)
    heading = f"{name} — {when}"
    c.label("turn", x, y + 8, heading, bold=True)
    shown.append(name)
    vp, curses = as_int(player.get("vp")), as_int(player.get("curses"))
    parts = [("star", None, f"{vp} VP"), ("skull", cv.RED, _many(curses, "curse"))]
    if player.get("mana_token"):
        parts.append(("drop", None, "mana token"))
    _counts_line(c, x + text_width(heading, bold=True) + 14, y + 11, parts)
    shown += [text for *_, text in parts]
    piles = _piles_text(view, player)
    c.write(right - 12, y + 11, piles, size="small", colour=cv.LIGHT_SOFT, anchor="ra")
    shown.append(piles)
    yy = y + 34
    about = _about_lines(view, player, w)
    if about:
        c.icon("crown", x0, yy + 1, 14)
    for n, line in enumerate(about):
        c.write(x0 + 20, yy + n * LINE, line, size="small")
    shown += about
    c.keep("player", str(seat), LEFT, y, w, yy + len(about) * LINE - y, *shown)
    yy += len(about) * LINE
    if _harvesting(view):
        yy += _harvest(c, view, player, x0, yy, w)
    bought = _bought(view)
    if bought:
        text = "Bought, to sleeve: " + ", ".join(bought)
        c.label("bought", x0, yy, text, size="small", width=w - 24)
        yy += 22
    field = field_of(player)
    look = look_of(player)
    many = f"Field: {len(field)} card{'' if len(field) == 1 else 's'}"
    c.write(x0, yy, many, size="small", colour=cv.LIGHT_SOFT, bold=True)
    legend = ("mv-legend",)
    c.stamp(x0 + text_width(many, "small", True) + 18, yy, (470, LINE), legend, _legend, cv.PANEL)
    c.write(deck_x, yy, "On deck", size="small", colour=cv.LIGHT_SOFT, bold=True)
    yy += 22
    ch = card_height(look)
    for n, card in enumerate(field):
        cx = x0 + (n % per_row) * (CARD_W + CARD_GAP)
        cy = yy + (n // per_row) * (ch + CARD_GAP)
        card_tile(c, "field", f"{seat}:{n}", cx, cy, card, look)
    if not field:
        c.write(x0, yy + 4, "empty", size="small", colour=cv.LIGHT_SOFT)
    column = _column(player, w)
    rule = deck_x - 10  # the on-deck card stands apart, beyond a rule
    c.draw.line((rule, yy - 22, rule, yy + column - CARD_GAP), fill=cv.LIGHT_SOFT, width=1)
    on_deck = player.get("on_deck")
    if isinstance(on_deck, dict):
        card_tile(c, "ondeck", str(seat), deck_x, yy, on_deck, look)
    else:
        c.write(deck_x, yy + 4, "none", size="small", colour=cv.LIGHT_SOFT)
    yy += column + 4
    decay_bar(c, view, player, x0, yy, 240, 26)
    notes = ["can't Spoil now"] if player.get("cannot_spoil") else []
    if as_int(player.get("growth")):
        notes.append(f"{player.get('growth')} growth offsets decay")
    if notes:
        c.write(x0 + 252, yy + 4, " · ".join(notes), size="small")
    note = "#7: the card's number"
    c.write(right - 12, yy + 4, note, size="small", colour=cv.LIGHT_SOFT, anchor="ra")
    return y + h


def _piles_text(view: dict[str, Any], player: dict[str, Any]) -> str:
    """A player's deck and discard pile (and their score once the game is over)."""
    piles = (
        f"deck {as_int(player.get('deck_count'))} · discard {as_int(player.get('discard_count'))}"
    )
    scores = as_dict(view.get("scores"))
    if view.get("phase") == "over" and str(player.get("seat")) in scores:
        piles = f"score {scores[str(player.get('seat'))]} · " + piles
    return piles


def _harvest(
    c: Canvas, view: dict[str, Any], player: dict[str, Any], x: float, y: float, w: int
) -> int:
    """The Harvest under way (in a panel `w` wide): mana and spirits to spend, buys
    left. Returns its height."""
    pool = view.get("harvest") or {}
    c.write(x, y, "Harvest:", size="small", bold=True)
    counts = {k: as_int(pool.get(k)) for k in ("mana", *SPIRITS, "guardian")}
    start = x + text_width("Harvest:", "small", True) + 8
    draw_chips(c, start, y, LEFT + w - 12 - start, counts, ink=cv.LIGHT, lines=1)
    if not counts_of(counts):
        c.write(start, y, "nothing left", size="small")
    vales, buys = as_int(pool.get("vale_buys_left")), as_int(pool.get("buys_left"))
    rest = f"buys left: {vales} vale{'' if vales == 1 else 's'} (spirits), "
    rest += f"{buys} advancement{'' if buys == 1 else 's'} (mana)"
    if player.get("mana_token"):
        rest = "+1 mana from the mana token · " + rest
    c.write(x, y + LINE + 2, rest, size="small", colour=cv.LIGHT_SOFT)
    words = ", ".join(symbol_words(counts)) or "nothing left"
    c.keep("label", "harvest", x, y, w - 24, 2 * LINE + 2, f"Harvest: {words}", rest)
    return 2 * LINE + 8


def _legend(c: Canvas, x: float = 0, y: float = 0) -> None:
    """What the icons mean, in words (drawn once, pasted after)."""
    parts = (
        ("drop", None, "mana"),
        ("star", None, "VP"),
        ("skull", cv.LIGHT_SOFT, "decay"),
        ("skull", cv.RED, "curse"),
        ("leaf", cv.GREEN, "growth, spirits"),
        ("shield", None, "guardian"),
    )
    cx = x
    for icon, colour, word in parts:
        c.icon(icon, cx, y + 2, 13, colour)
        c.write(cx + 16, y, word, size="small", colour=cv.LIGHT_SOFT)
        cx += 16 + text_width(word, "small") + 14
    c.keep("label", "legend", x, y, cx - 14 - x, LINE, "legend")


# ---------------------------------------------------------------------- every player


def _holdings(player: dict[str, Any]) -> list[str]:
    """What a player holds beside their cards: their vales and Reserved advancements."""
    parts = []
    vales = [str(v) for v in player.get("vales") or []]
    if vales:
        parts.append(f"Vales ({len(vales)}): " + ", ".join(vales))
    reserved = [r for r in player.get("reserved") or [] if isinstance(r, dict)]
    if reserved:
        parts.append("Reserved: " + ", ".join(str(r.get("name", "?")) for r in reserved))
    return parts


def _player_lines(player: dict[str, Any]) -> list[str]:
    """A summary row's third part: vales and Reserved advancements (two lines at most)."""
    parts = _holdings(player)
    return wrap(" · ".join(parts), INNER - 24, size="small", lines=2) if parts else []


def _second_line(view: dict[str, Any], player: dict[str, Any], active: Any) -> bool:
    """Whether a summary row has a line for the leader and the field (the field of the
    player whose turn it is is drawn above)."""
    leader = isinstance(player.get("leader"), dict) or view.get("phase") == "leaders"
    return leader or player.get("seat") != active


def _row_height(view: dict[str, Any], player: dict[str, Any], active: Any) -> int:
    second = 22 if _second_line(view, player, active) else 0
    return 8 + 26 + second + len(_player_lines(player)) * LINE + 6


def _player_row(
    c: Canvas,
    view: dict[str, Any],
    player: dict[str, Any],
    to_act: tuple[int, ...],
    y: int,
    active: Any,
) -> int:
    """One player's summary row (from a tile when drawn before). Returns the bottom."""
    seat = player.get("seat")
    over = view.get("phase") == "over"
    scores = as_dict(view.get("scores"))
    spec = (
        spec_of(player),
        seat in to_act,
        seat == active,
        view.get("phase") in ("leaders", "over"),
        view.get("phase") == "leaders",
        scores.get(str(seat)) if over else None,
        view.get("spoil_at"),
    )
    h = _row_height(view, player, active)
    c.stamp(
        LEFT,
        y,
        (INNER + 1, h + 1),
        ("mv-player", *spec),
        lambda t: _row(t, view, player, to_act, active),
        cv.TABLE,
    )
    return y + h


def _row(
    c: Canvas, view: dict[str, Any], player: dict[str, Any], to_act: tuple[int, ...], active: Any
) -> None:
    """One player's summary at (0, 0): name, VP, curses, mana token, deck and discard;
    leader, field and on-deck card, decay; vales and Reserve."""
    seat = player.get("seat")
    marked = seat in to_act
    extra = _player_lines(player)
    h = _row_height(view, player, active)
    c.panel(0, 0, INNER, h, marked=marked, radius=8)
    x = 10
    shown: list[str] = []
    if marked:
        x += c.tag(x, 9, "TO ACT") + 8
        shown.append("TO ACT")
    name = str(player.get("name", seat))
    if player.get("conceded"):
        name += " (left the game)"
    elif seat == active and view.get("phase") not in ("leaders", "over"):
        name += " (their turn)"
    name = fit(name, 300, "body", True)
    c.write(x, 7, name, bold=True)
    shown.append(name)
    x += text_width(name, bold=True) + 14
    vp, curses = as_int(player.get("vp")), as_int(player.get("curses"))
    parts = [("star", None, f"{vp} VP"), ("skull", cv.RED, _many(curses, "curse"))]
    if player.get("mana_token"):
        parts.append(("drop", None, "mana token"))
    _counts_line(c, x, 10, parts)
    shown += [text for *_, text in parts]
    piles = _piles_text(view, player)
    c.write(INNER - 10, 10, piles, size="small", colour=cv.LIGHT_SOFT, anchor="ra")
    shown.append(piles)
    # Second line: leader, field, on deck, and the decay (the active player's is above).
    yy = 8 + 26
    x = 10
    leader = player.get("leader")
    if isinstance(leader, dict):
        side = " (upgraded)" if leader.get("upgraded") else ""
        text = fit(f"{leader.get('name', '?')}{side}", 230, "small")
        c.icon("crown", x, yy + 1, 14)
        c.write(x + 18, yy, text, size="small")
        shown.append(f"Leader: {text}")
        x += 18 + 236
    elif view.get("phase") == "leaders":
        c.write(x, yy, "choosing a leader", size="small")
        shown.append("choosing a leader")
        x += 150
    if seat != active:
        on_deck = player.get("on_deck")
        deck = str(on_deck.get("label", "?")) if isinstance(on_deck, dict) else "none"
        field = f"field {len(field_of(player))} · on deck: {deck}"
        field = fit(field, INNER - 196 - x, "small")
        c.write(x, yy, field, size="small")
        shown.append(field)
        decay_bar(c, view, player, INNER - 180, yy - 1, 170, 20)
    yy += 22 if _second_line(view, player, active) else 0
    for n, line in enumerate(extra):
        c.write(10, yy + n * LINE, line, size="small")
    shown += extra
    c.keep("player", str(seat), 0, 0, INNER, h, *shown)


def _many(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _counts_line(c: Canvas, x: float, y: float, parts: list[tuple[str, Colour | None, str]]) -> int:
    """Icon + words on the dark table, side by side; returns the width used."""
    cx = x
    for icon, colour, text in parts:
        cx += c.count(icon, cx, y, text, colour=cv.LIGHT, icon_colour=colour) + 4
    return int(cx - x)


# ---------------------------------------------------------------------- the commons


def _chips_width(counts: Any) -> int:
    """How wide `draw_chips` draws these symbols on one line."""
    total = 0
    for key, n in counts_of(counts):
        word = CHIP[key][2]
        total += 16 + text_width(f"{n} {word}".strip(), "small", True) + 7
    return total - 7 if total else 0


def _cell(
    c: Canvas,
    kind: str,
    key: str,
    x: float,
    y: float,
    w: int,
    h: int,
    card: dict[str, Any],
    *,
    row: int | None = None,
    count: int = 1,
) -> None:
    """An advancement or vale for sale: its name, its slot (and level when not its
    row's), its cost."""
    draw_frame(c, x, y, w, h, cv.CARD)
    title = str(card.get("name", "?")) + (f" ×{count}" if count > 1 else "")
    bold = text_width(title, "small", True) <= w - 12  # a long name in the regular face
    title = fit(title, w - 12, "small", bold)
    c.write(x + 6, y + 2, title, size="small", colour=cv.INK, bold=bold)
    parts = []
    if card.get("slot"):
        parts.append(f"{card['slot']} slot")
    level = card.get("level")
    if row is not None and isinstance(level, int) and level != row:
        parts.append(f"level {level}")
    cost = card.get("cost")
    lines = max(1, (h - CELL_TEXT) // LINE)
    draw_chips(c, x + 6, y + CELL_TEXT, w - 10, cost, lines=lines)
    flow = chip_flow(cost, w - 10)
    if not flow:
        c.write(x + 6, y + CELL_TEXT, "free", size="small", colour=cv.INK, bold=True)
    # The slot (and level) after the cost on its last line, cut rather than the cost.
    row = flow[-1][3] if flow else 0
    end = flow[-1][2] + 16 + text_width(flow[-1][1], "small", True) if flow else 30
    detail = fit(", ".join(parts), max(0, w - 20 - end), "small")
    if detail and row < lines:
        c.write(
            x + 6 + end + 10, y + CELL_TEXT + row * LINE, detail, size="small", colour=cv.INK_SOFT
        )
    words = symbol_words(cost) or ["free"]
    c.keep(kind, key, x, y, w, h, title, *words, *([detail] if detail else []))


def _fertile(c: Canvas, x: float, y: float, commons: dict[str, Any], w: int) -> None:
    """The Fertile Soils left, by slot, and what one costs (a cell `w` wide)."""
    soils = [s for s in commons.get("fertile_soils") or [] if isinstance(s, dict)]
    draw_frame(c, x, y, w, CELL_H, FERTILE_FILL)
    title = f"Fertile Soil ×{as_int(commons.get('fertile'))}"
    c.icon("leaf", x + 6, y + 6, 13, cv.GREEN)
    c.write(x + 23, y + 2, title, size="small", colour=cv.INK, bold=True)
    cost = soils[0].get("cost") if soils else None
    draw_chips(c, x + w - 6 - _chips_width(cost), y + 2, w, cost, lines=1)
    left = " · ".join(f"{s.get('slot', '?')} {as_int(s.get('count'))}" for s in soils)
    left = left or "none left"
    left = fit(left, w - 12, "small")
    c.write(x + 6, y + CELL_TEXT, left, size="small", colour=cv.INK)
    c.keep("offer", "fertile", x, y, w, CELL_H, title, left, *symbol_words(cost))


def _row_head(c: Canvas, x: float, y: float, name: str, left: Any) -> None:
    c.write(x, y + 2, name, size="small", bold=True)
    if left is not None:
        c.write(x, y + CELL_TEXT, f"{left} left", size="small", colour=cv.LIGHT_SOFT)


Placed = tuple[str, float, float, Any]  # what, x, y (from the section's top), its data


def _commons_layout(view: dict[str, Any], left: int, inner: int) -> tuple[list[Placed], int]:
    """Where the commons' headings and cells go in a column `inner` wide from `left`,
    from the section's top; and its height (to the bottom of its last cell)."""
    commons = as_dict(view.get("commons"))
    cell_w = (inner - ROW_HEAD - (CELLS - 1) * CARD_GAP) // CELLS

    def _cells_x(i: int) -> int:
        return left + ROW_HEAD + (i % CELLS) * (cell_w + CARD_GAP)

    placed: list[Placed] = [("heading", left, 0, ("commons", COMMONS))]
    y = 24
    rows, decks = as_dict(commons.get("rows")), as_dict(commons.get("decks"))
    step = CELL_H + CARD_GAP
    for level in sorted(rows, key=str):
        placed.append(("row", left, y, (f"Level {level}", decks.get(level, EMPTY))))
        cards = list(rows.get(level) or [])
        row = int(level) if str(level).isdigit() else None
        for i, card in enumerate(cards):
            at = (_cells_x(i), y + (i // CELLS) * step)
            size = (cell_w, CELL_H)
            placed.append(("offer", *at, (f"{level}:{i}", size, card, row, 1)))
        y += max(1, -(-len(cards) // CELLS)) * step
    groups = offer_groups(list(commons.get("level4") or []))
    placed.append(("row", left, y, ("Level 4", None)))
    for n, (i, card, count) in enumerate(groups):
        at = (_cells_x(n), y + n // CELLS * step)
        placed.append(("offer", *at, (f"4:{i}", (cell_w, CELL_H), card, None, count)))
    at = (_cells_x(len(groups)), y + len(groups) // CELLS * step)
    placed.append(("fertile", *at, (commons, cell_w)))
    y += (len(groups) // CELLS + 1) * step + 6
    placed.append(("heading", left, y, ("vales", VALES_HEADING)))
    y += 24
    vales, vale_decks = as_dict(commons.get("vales")), as_dict(commons.get("vale_decks"))
    w = (inner - (VALES - 1) * CARD_GAP) // VALES
    for level in sorted(vales, key=str):
        cards = list(vales.get(level) or [])
        placed.append(("level", left, y, (f"Level {level}", vale_decks.get(level, EMPTY))))
        y += 19
        tall = any(_chips_width(as_dict(v).get("cost")) > w - 10 for v in cards)
        h = CELL_H + LINE if tall else CELL_H
        for i, card in enumerate(cards):
            at = (left + (i % VALES) * (w + CARD_GAP), y + (i // VALES) * (h + CARD_GAP))
            placed.append(("vale", *at, (f"{level}:{i}", (w, h), card, None, 1)))
        y += max(1, -(-len(cards) // VALES)) * (h + CARD_GAP) + 4
    return placed, max(_bottom(item) for item in placed)


def _bottom(item: Placed) -> int:
    """How low a placed part of the commons reaches (from the section's top)."""
    what, _, y, data = item
    if what in ("offer", "vale"):
        return round(y) + data[1][1] + 1
    return round(y) + {"heading": 22, "row": CELL_TEXT + 19, "level": 19}.get(what, CELL_H + 1)


def _commons(c: Canvas, view: dict[str, Any], left: int, top: int, inner: int) -> int:
    """The advancements and vales for sale, row by row, in a column `inner` wide from
    (`left`, `top`). Returns the bottom."""
    placed, height = _commons_layout(view, left, inner)
    for what, x, dy, data in placed:
        y = top + dy
        if what == "heading":
            c.label(data[0], x, y, data[1], bold=True)
        elif what == "row":
            _row_head(c, x, y, *data)
        elif what == "level":
            c.write(x, y, data[0], size="small", bold=True)
            c.write(x + 62, y, f"{data[1]} left", size="small", colour=cv.LIGHT_SOFT)
        elif what == "fertile":
            _fertile(c, x, y, *data)
        else:
            key, (w, h), card, row, count = data
            if isinstance(card, dict):
                spec = ("mv-cell", what, key, w, h, row, count, spec_of(card))
                draw = partial(
                    _cell, kind=what, key=key, x=0, y=0, w=w, h=h, card=card, row=row, count=count
                )
                c.stamp(x, y, (w + 1, h + 1), spec, draw, cv.TABLE)
            else:  # a space the commons could not refill
                c.plate(x, y, w, h, width=2, edge=cv.PANEL)
    return top + height


# ---------------------------------------------------------------------- the nemesis


TRACK_HEAD = 128  # the corruption track's name, beside its spaces


TRACK_H = 34


def _nemesis_card_height(nemesis: dict[str, Any]) -> int:
    return 8 + 26 + LINE + len(_nemesis_lines(nemesis)) * LINE + 8


def _nemesis_height(nemesis: dict[str, Any]) -> int:
    """The nemesis' card, the track on one line and what its spaces do."""
    spaces = nemesis.get("track") or []
    space = nemesis.get("space")
    track = TRACK_H + 6
    if isinstance(space, int) and 0 <= space < len(spaces):
        track += 2 * (LINE + 2)
    return _nemesis_card_height(nemesis) + cv.GAP + track


def _nemesis_lines(nemesis: dict[str, Any]) -> list[tuple[str, bool]]:
    """The nemesis card's ability lines: (text, acts now)."""
    lines = []
    for later in nemesis.get("decay_later") or []:
        if isinstance(later, dict):
            text = f"from space {later.get('hourglass', '?')}: +{later.get('decay', '?')} decay"
            lines.append((text, bool(later.get("active"))))
    for ability in nemesis.get("abilities") or []:
        if isinstance(ability, dict):
            lines.append((no_hourglass(str(ability.get("text", ""))), bool(ability.get("active"))))
    return lines


def _nemesis(c: Canvas, nemesis: dict[str, Any], y: int) -> int:
    """A solitaire game's nemesis: its card and score, the corruption track with the
    hourglass. Returns the bottom."""
    lines = _nemesis_lines(nemesis)
    h = _nemesis_card_height(nemesis)
    draw_frame(c, LEFT, y, INNER, h, NEMESIS_FILL)
    x = LEFT + 10
    c.icon("skull", x, y + 9, 18, cv.PURPLE)
    name = fit(f"Nemesis: {nemesis.get('name', '?')}", 420, "body", True)
    c.write(x + 24, y + 7, name, colour=cv.INK, bold=True)
    score = f"Score so far: {nemesis.get('score', EMPTY)}"
    score_x = RIGHT - 10 - text_width(score, bold=True)
    c.label("nemesis:score", score_x, y + 7, score, colour=cv.INK, bold=True)
    pile = [str(p) for p in nemesis.get("pile") or []]
    effects = as_int(nemesis.get("end_effects"))
    sums = (  # how the score adds up (the pile's cards are named on the text board)
        f"= {as_int(nemesis.get('vp'))} VP + {len(pile)} cards worth "
        f"{as_int(nemesis.get('pile_points'))}"
        + (f" ({effects} end effect{'s' if effects != 1 else ''} at 4)" if effects else "")
        + f" + power {nemesis.get('power', '?')}"
    )
    room = score_x - 8 - (x + 24 + text_width(name, bold=True) + 12)
    sums = fit(sums, room, "small") if room > 40 else ""
    if sums:
        c.write(score_x - 8, y + 10, sums, size="small", colour=cv.INK_SOFT, anchor="ra")
    yy = y + 8 + 26
    about = (
        f"{nemesis.get('difficulty', '?')} ({nemesis.get('pips', '?')} of 4) · "
        f"power {nemesis.get('power', '?')} · {_where(nemesis)} · shows"
    )
    c.write(x, yy, about, size="small", colour=cv.INK)
    start = x + text_width(about, "small") + 6
    draw_chips(c, start, yy, RIGHT - 10 - start, nemesis.get("symbols"), lines=1)
    shown = [name, about, *symbol_words(nemesis.get("symbols")), *([sums] if sums else [])]
    yy += LINE
    for text, now in lines:
        tag = "now:" if now else "not yet:"
        c.write(x, yy, tag, size="small", colour=cv.INK if now else cv.INK_SOFT, bold=True)
        text = fit(text, INNER - 90, "small")
        c.write(x + 66, yy, text, size="small", colour=cv.INK if now else cv.INK_SOFT)
        shown.append(f"{tag} {text}")
        yy += LINE
    c.keep("nemesis", "card", LEFT, y, INNER, h, *shown)
    return _track(c, nemesis, y + h + cv.GAP)


def _where(nemesis: dict[str, Any]) -> str:
    return {"field": "in your field", "on_deck": "on deck"}.get(
        str(nemesis.get("where")), "in your deck or discard"
    )


def _track(c: Canvas, nemesis: dict[str, Any], y: int) -> int:
    """The corruption track, space by space, the hourglass on its space."""
    spaces = [str(s) for s in nemesis.get("track") or []]
    space = nemesis.get("space")
    side = str(nemesis.get("side") or EMPTY)
    where = space if space is not None else EMPTY
    spec = ("mv-track", side, where, tuple(spaces))
    draw = partial(_track_row, side=side, where=where, spaces=spaces, space=space)
    c.stamp(LEFT, y, (INNER + 1, TRACK_H + 1), spec, draw, cv.TABLE)
    y += TRACK_H + 6
    if isinstance(space, int) and 0 <= space < len(spaces):
        now = fit(f"Claimed on space {space}: {spaces[space]}", INNER, "small")
        c.label("track:now", LEFT, y, now, size="small")
        y += LINE + 2
        last = space >= len(spaces) - 1
        after = "Every turn from now on" if last else f"Next, space {space + 1}"
        nxt = fit(f"{after}: {nemesis.get('next', EMPTY)}", INNER, "small")
        c.label("track:next", LEFT, y, nxt, size="small", colour=cv.LIGHT_SOFT)
        y += LINE + 2
    return y


def _track_row(c: Canvas, side: str, where: Any, spaces: list[str], space: Any) -> None:
    """The track's name and its spaces at (0, 0), the hourglass on its space."""
    y = 0
    head = ["Corruption track", f"({side} side)"]
    c.write(0, y, head[0], size="small", bold=True)
    c.write(0, y + LINE - 2, head[1], size="small", colour=cv.LIGHT_SOFT)
    title = f"Corruption track ({side} side): hourglass on space {where}"
    c.keep("label", "track", 0, y, TRACK_HEAD - 8, TRACK_H, title)
    if spaces:
        gap = 4
        w = (INNER - TRACK_HEAD - gap * (len(spaces) - 1)) / len(spaces)
        for n in range(len(spaces)):
            x = TRACK_HEAD + n * (w + gap)
            here = n == space
            passed = isinstance(space, int) and n < space
            c.plate(
                x,
                y,
                w,
                TRACK_H,
                radius=5,
                fill=cv.CARD_DIM if passed else cv.CARD,
                width=4 if here else 1,
                edge=cv.HIGHLIGHT if here else cv.INK_SOFT,
            )
            label = "Start" if n == 0 else str(n)
            text = [label]
            ty = y + (TRACK_H - LINE) / 2
            if here:
                c.icon("hourglass", x + 5, ty + 1, 16)
                c.write(x + w - 5, ty, label, size="small", colour=cv.INK, bold=True, anchor="ra")
                text.append("hourglass")
            else:
                colour = cv.INK_SOFT if passed else cv.INK
                c.write(x + w / 2, ty, label, size="small", colour=colour, anchor="ma")
                if passed:
                    text.append("passed")
            c.keep("track", str(n), x, y, w, TRACK_H, *text)


# ---------------------------------------------------------------------- the board


def _title_height(view: dict[str, Any], width: int) -> int:
    head = cv.headline_height(width, scores(view))
    return head + LINE + 2 + LINE * len(_lines(view, width)) + 8


def _outcome(view: dict[str, Any]) -> str:
    outcome = as_dict(view.get("outcome"))
    return f"Game over — {outcome.get('text') or view.get('prompt') or ''}".rstrip(" —")


def _lines(view: dict[str, Any], width: int) -> list[str]:
    """Under the headline: how the game ended, or the prompt (two lines at most)."""
    text = _outcome(view) if view.get("phase") == "over" else str(view.get("prompt") or "")
    return wrap(text, width - 2 * cv.MARGIN, size="small", lines=2)


def _title(
    c: Canvas, view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None
) -> int:
    """The headline (whose decision it is, the round, every score), the title line
    (variant, round, pool) and the prompt; returns the y below."""
    solo = isinstance(view.get("nemesis"), dict) or view.get("variant") == "solo"
    players = players_of(view)
    over = view.get("phase") == "over"
    if solo:
        what = f"solitaire · turn {view.get('round', EMPTY)}"
    else:
        what = f"{len(players)} players · round {view.get('round', EMPTY)}"
    names = " and ".join(name_of(view, s) for s in to_act) or EMPTY
    who = ending or ("Game over" if over else f"{names} to act")
    short = f"{len(to_act)} players to act"
    y = cv.headline(c, who, bool(to_act) and not over, when(view), scores(view), short)
    x = LEFT + c.label("title", LEFT, y, f"Mystic Vale · {what}", size="small", bold=True).w
    pool = f"{view.get('pool', EMPTY)} VP left in the pool"
    if view.get("last_round") and not over:
        pool = ("last turn · " if solo else "last round · ") + pool
    c.icon("star", x + 10, y + 2, 14)
    c.label("pool", x + 28, y, pool, size="small", bold=True, colour=cv.GOLD)
    y += LINE + 2
    lines = _lines(view, c.width)
    for n, line in enumerate(lines):
        colour = cv.HIGHLIGHT if over else cv.LIGHT_SOFT
        c.write(LEFT, y + n * LINE, line, size="small", colour=colour)
    shown = (_outcome(view) if over else who, *lines)
    c.keep("label", "decider", LEFT, y, c.width - 2 * cv.MARGIN, LINE * len(lines), *shown)
    return y + LINE * len(lines) + 8


def board(view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None) -> Picture:
    """The public board: the player whose turn it is, the nemesis, every player, the
    commons (`ending`: the headline's words once the match is over)."""
    players = players_of(view)
    active_seat = view.get("active")
    active = next((p for p in players if p.get("seat") == active_seat), None)
    if active is None and players:
        active = next((p for p in players if p.get("seat") in to_act), players[0])
        active_seat = active.get("seat")
    nemesis = view.get("nemesis") if isinstance(view.get("nemesis"), dict) else None
    # The height is worked out first: a canvas of the picture's own size needs no crop.
    # The player whose turn it is heads the players' column, or spans the board above
    # both columns (a big field), whichever makes the narrower board at 16:9.
    rest = _nemesis_height(nemesis) + cv.GAP if nemesis is not None else 0
    others = [p for p in players if active is None or p.get("seat") != active_seat]
    rest += sum(_row_height(view, p, active_seat) + cv.GAP // 2 for p in others)

    def panel(width: int, across: bool) -> int:
        return width - 2 * cv.MARGIN if across else INNER

    def height(width: int, across: bool) -> int:
        top = _title_height(view, width)
        commons_h = _commons_layout(view, 0, _commons_width(width))[1]
        head = 0  # the active panel's height (and gap) above `rest`
        if active is not None:
            head = _active_height(view, active, panel(width, across)) + cv.GAP
        if across:
            return top + head + max(rest, commons_h) + cv.MARGIN
        return top + max(head + rest, commons_h) + cv.MARGIN

    least = 2 * cv.MARGIN + INNER + 2 * cv.GAP + COMMONS_W
    width, across = min(  # the narrower way (the players' column on a tie)
        (cv.board_width(lambda w, a=a: height(w, a), least), a) for a in (False, True)
    )
    c = Canvas(width=width, height=height(width, across))
    y = top = _title(c, view, to_act, ending)
    if active is not None:
        y = _active(c, view, active, to_act, y, panel(width, across)) + cv.GAP
    columns = y if across else top
    if nemesis is not None:
        y = _nemesis(c, nemesis, y) + cv.GAP
    for player in others:
        y = _player_row(c, view, player, to_act, y, active_seat) + cv.GAP // 2
    _commons(c, view, RIGHT + 2 * cv.GAP, columns, _commons_width(width))
    return c.finish()


def _commons_width(width: int) -> int:
    """The commons' column on a board `width` wide, at the right of the players'."""
    return width - RIGHT - 2 * cv.GAP - cv.MARGIN


# ---------------------------------------------------------------------- the private view


PILES = (  # a player's cards, where they are: (key, heading)
    ("field", "In your field"),
    ("ondeck", "On deck"),
    ("discard", "Discard pile (face up)"),
    ("deck", "In your deck (shuffled: what it holds, never in what order)"),
)


PILE_HEAD = 26


ACROSS = (INNER + CARD_GAP) // (CARD_W + CARD_GAP)  # a pile's cards in a row, the whole width


def _piles(view: dict[str, Any], me: dict[str, Any]) -> list[tuple[str, str, list[Any]]]:
    """A player's cards by where they are, from their view; empty piles left out."""
    on_deck = me.get("on_deck")
    held = {
        "field": field_of(me),
        "ondeck": [on_deck] if isinstance(on_deck, dict) else [],
        "discard": [c for c in view.get("discard_cards") or [] if isinstance(c, dict)],
        "deck": [c for c in view.get("deck_cards") or [] if isinstance(c, dict)],
    }
    return [(key, head, held[key]) for key, head in PILES if held[key]]


def private(view: dict[str, Any]) -> Picture | None:
    """A player's own cards, each with its slots and symbols, by where they are: the
    field, the on-deck card, the discard pile, and what their deck holds (as the view
    tells it, in card order: never the deck's order). None without a player or cards."""
    me = next((p for p in players_of(view) if p.get("seat") == view.get("me")), None)
    if me is None:
        return None
    piles = _piles(view, me)
    if not piles:
        return None
    look: Look = (
        True,
        max(
            look_of(me)[1],
            *(
                chip_line_count(card.get("symbols"), CHIPS_W)
                for _, _, cards in piles
                for card in cards
            ),
        ),
    )
    card_h = card_height(look)
    rows = sum(-(-len(cards) // ACROSS) for _, _, cards in piles)
    height = cv.MARGIN + 40 + len(piles) * PILE_HEAD + rows * (card_h + CARD_GAP) + cv.MARGIN
    c = Canvas(height=height)
    y = cv.MARGIN
    total = sum(len(cards) for _, _, cards in piles)
    c.label(
        "private:me",
        LEFT,
        y,
        f"Your {total} cards — {me.get('name', EMPTY)}",
        size="title",
        bold=True,
    )
    y += 40
    for pile, head, cards in piles:
        c.label(f"pile:{pile}", LEFT, y, f"{head} · {len(cards)}", size="small", bold=True)
        y += PILE_HEAD
        for n, card in enumerate(cards):
            x = LEFT + (n % ACROSS) * (CARD_W + CARD_GAP)
            if n and n % ACROSS == 0:
                y += card_h + CARD_GAP
            card_tile(c, "mine", f"{pile}:{n}", x, y, card, look)
        y += card_h + CARD_GAP
    return c.finish()
