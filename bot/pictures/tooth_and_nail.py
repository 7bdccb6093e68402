"""The Tooth & Nail board as a picture: each side's deck as its life bar, and every
player's War Zone and Command Zone as two labelled rows of Troop cards.

Two players sit one above the other, their War Zones facing across the middle; three
share a two-by-two grid (the fourth cell holds the legend); in The Enemy of My Enemy
each team is a band (its players, its Factions, its shared deck) holding its two
players side by side, one team above the other. The Alpha player (whose turn it is)
has a crown and the word "Alpha"; whoever the table waits for has a highlighted edge
and a "▶ TO DECIDE" tag; a drained Troop is a dimmed card saying "drained". During
the Faction draft a player's area shows only who they are and what they took.

A deck bar runs out of the side's starting deck, which the view does not give: it is
worked out from the view's counts as every card the side owns that was not set aside
face down (deck, discard pile, removed cards, hands and Troops in play: cards never
change owner in this game). Without those counts the bar shows the deck count alone.

Box keys (kind: key):
- side: "player{seat}" (every player's area), "team{n}" (a team's band, 4 players);
- troop: "{seat}:{zone}:{i}", zone "war" or "command", i the card's index in the view;
  its text is the name (in one or two lines), "{type} {strength}", and "drained";
- empty: "{seat}:{zone}" for an empty zone;
- label: "{seat}:{zone}" (the zone's name and fill), "faction:{seat}", "hand:{seat}",
  "ap:{seat}", "factions:{team}", "piles:{team}", "title", "prompt", "goal",
  "available" (the heading of the Factions still to choose);
- bar: "deck:{team}", captioned "Deck {left}/{start}" (or "Deck {left}"; "No deck yet"
  during the draft), with " · low" when the view says the deck is low;
- back: "deck:{team}" (the deck's card back), "facedown:{team}" (the Alliance game's
  cards set aside face down, "{n} face down");
- mark: "alpha:{seat}", "decides:{seat}", "out:{seat}", "winner:{seat}";
- faction: "available:{i}" (a Faction still to choose during the draft).

Speed: a board is mostly the same few dozen words and cards drawn again and again, so
each Troop card, card back and empty zone is a canvas tile (`Canvas.stamp`), drawn once
and pasted after; the canvas is made only as tall as the board can be (`_height`),
since filling and encoding cost by the row.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bot.pictures import canvas as cv
from bot.pictures.canvas import Canvas, Colour, Picture, fit, tag_width, text_width, wrap
from bot.render.tooth_and_nail import scores, when

GAME_NAME = "Tooth & Nail: Factions"
VARIANTS = {
    "2p": "2 players",
    "3p": "3 players",
    "alliance": "Alliance",
    "4p": "The Enemy of My Enemy",
}
ZONES = (("war", "war_zone", "War Zone"), ("command", "command_zone", "Command Zone"))

CELL: Colour = (64, 73, 80)  # a player's area inside a team's band
GONE: Colour = (44, 50, 55)  # the area of a player out of the game
BACK: Colour = (60, 84, 132)  # the back of a card
LIFE: Colour = (120, 190, 128)  # a deck bar: light enough for dark ink on it
LIFE_LOW: Colour = (236, 128, 116)
CARD_W = 118  # three to a row in half the picture, six across it
CARD_H = 78
CARD_GAP = 4
BACK_W, BACK_H = 20, 28  # a small card back
EMPTY_H = 32  # an empty zone's outline
PAD = 6  # inside a panel
LINE = 18  # a small line
NAME_H = 26  # a header's first line: the name and its marks
SUB_H = 22  # its second line: Faction(s), hand and AP
DECK_H = 34  # the deck row, where it has a line of its own
DECK_W = 400  # the deck row on the right of a full-width header
ZONE_LABEL_H = 20
PILES_W = 170  # room kept for "Discard 12 · removed 3"
AREA_W = 300  # the narrowest a player's area is drawn
DECIDE = "TO DECIDE"  # the tag of whoever the table waits for
FACTION_H = 46  # a Faction still to choose
TEXT_CACHE = 2048  # short lines: a stamp is some 2 kB


# ---------------------------------------------------------------- reading the view


def _list(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat_key(player: dict[str, Any]) -> str:
    seat = player.get("seat")
    return str(seat) if seat is not None else "?"


def _drafting(view: dict[str, Any]) -> bool:
    return view.get("phase") == "faction_choice"


def _items(value: Any) -> list[Any]:
    """A list from the view (nothing if it is not a list)."""
    return value if isinstance(value, list) else []


def _seats(team: dict[str, Any]) -> list[Any]:
    return _items(team.get("seats"))


def _words(value: Any) -> list[str]:
    """A list of names from the view (nothing if it is not a list)."""
    return [str(v) for v in _items(value)]


def starting_deck(team: dict[str, Any], players: list[dict[str, Any]]) -> int | None:
    """The side's deck at the start of play, from the view's counts (None when a count
    is missing): every card it owns except those set aside face down."""
    counts = [_int(team.get(k)) for k in ("deck", "discard_count", "removed_count")]
    seats = _seats(team)
    mine = [p for p in players if p.get("seat") in seats]
    if any(n is None for n in counts) or not seats or len(mine) != len(seats):
        return None
    total = sum(n for n in counts if n is not None)
    for p in mine:
        hand = _int(p.get("hand_count"))
        if hand is None:
            return None
        total += hand + len(_list(p.get("war_zone"))) + len(_list(p.get("command_zone")))
    return total


def deck_caption(view: dict[str, Any], team: dict[str, Any]) -> str:
    """The deck bar's caption: "Deck 23/30" (" · low" when nearly out), "Deck 23"
    without a starting count, "No deck yet" during the draft."""
    left = _int(team.get("deck"))
    if _drafting(view):
        return "No deck yet"
    if left is None:
        return "Deck —"
    start = starting_deck(team, _list(view.get("players")))
    text = f"Deck {left}/{start}" if start else f"Deck {left}"
    return text + (" · low" if team.get("low") else "")


def _is_alpha(view: dict[str, Any], player: dict[str, Any]) -> bool:
    if "alpha" in player:
        return bool(player.get("alpha"))
    return player.get("seat") == view.get("alpha") and view.get("phase") not in ("over", None)


def _faction_line(player: dict[str, Any], shared: bool) -> str:
    """Who the player plays: their Faction(s), or in a team their Faction Command card."""
    factions = _words(player.get("factions"))
    if shared:
        line = f"Command card: {player.get('command_card') or 'not chosen yet'}"
    elif len(factions) > 1:
        line = "Factions: " + " + ".join(factions)
    else:
        line = f"Faction: {factions[0] if factions else 'not chosen yet'}"
    return line


# ---------------------------------------------------------------- measuring


@lru_cache(maxsize=TEXT_CACHE)
def _name_lines(name: str) -> tuple[tuple[str, ...], bool]:
    """A card's name in at most two lines, and whether in bold: in regular weight when
    bold would need cutting (the second line cut with "…" if even that is too long)."""
    lines = _wrapped(name, True)
    if not lines[-1].endswith("…"):
        return lines, True
    return _wrapped(name, False), False


def _wrapped(name: str, bold: bool) -> tuple[str, ...]:
    room = CARD_W - 12
    words = name.split()
    first = ""
    for i, word in enumerate(words):
        trial = f"{first} {word}".strip()
        if first and text_width(trial, "small", bold) > room:
            return (first, fit(" ".join(words[i:]), room, "small", bold))
        first = trial
    return (fit(first, room, "small", bold),) if first else ("?",)


def _per_row(width: int) -> int:
    return max(1, (width + CARD_GAP) // (CARD_W + CARD_GAP))


def _zone_height(count: int, width: int) -> int:
    """How tall a zone of `count` Troops is drawn in `width` (its label included)."""
    if not count:
        return ZONE_LABEL_H + EMPTY_H + 6
    rows = math.ceil(count / _per_row(width))
    return ZONE_LABEL_H + rows * (CARD_H + CARD_GAP) + 2


def _deck_beside(width: int) -> bool:
    """Whether a player's area this wide has its deck beside the name (else on a row
    of its own)."""
    return width >= 2 * DECK_W - 40


def _header_height(width: int, own_deck: bool) -> int:
    """A player's name, Faction and counts, and their deck's row when it has its own."""
    return NAME_H + SUB_H + (DECK_H if own_deck and not _deck_beside(width) else 0)


def _area_height(view: dict[str, Any], player: dict[str, Any], width: int, own_deck: bool) -> int:
    """How tall a player's area is drawn `width` wide."""
    height = 2 * PAD + _header_height(width, own_deck)
    if _drafting(view):
        return height
    inner = width - 2 * PAD
    return height + sum(_zone_height(len(_list(player.get(f))), inner) for _z, f, _t in ZONES)


# ---------------------------------------------------------------- local primitives


def _card_back(c: Canvas) -> None:
    """The back of a card, drawn at (0, 0)."""
    w, h = BACK_W, BACK_H
    c.plate(0, 0, w, h, fill=BACK, edge=cv.LIGHT, radius=4)
    c.draw.polygon([(w / 2, 5), (w - 4, h / 2), (w / 2, h - 5), (4, h / 2)], outline=cv.LIGHT)


def _empty_zone(c: Canvas) -> None:
    """An empty zone's outline, drawn at (0, 0)."""
    c.plate(0, 0, CARD_W, EMPTY_H, edge=cv.LIGHT_SOFT, radius=7)
    c.write(10, 6, "empty", size="small", colour=cv.LIGHT_SOFT)


def _troop(
    c: Canvas, names: tuple[str, ...], bold: bool, kind: str, power: str, drained: bool
) -> None:
    """A Troop card drawn at (0, 0): its name, type and Strength; dimmed when drained."""
    c.plate(
        0,
        0,
        CARD_W,
        CARD_H,
        fill=cv.CARD_DIM if drained else cv.CARD,
        edge=cv.INK_SOFT,
        width=2,
        radius=7,
    )
    c.lines(6, 3, names, LINE, colour=cv.INK, bold=bold)
    below = 6 + 2 * LINE
    c.write(6, below, kind, size="small", colour=cv.INK)
    right = CARD_W - 8 - text_width(power, "small", True)
    c.write(right, below, power, size="small", colour=cv.INK, bold=True)
    c.icon("sword", right - 17, below + 2, 14)
    if drained:
        c.icon("hourglass", 6, below + LINE + 3, 12, cv.INK_SOFT)
        c.write(22, below + LINE, "drained", size="small", colour=cv.INK, bold=True)


def _back(c: Canvas, key: str, x: int, y: int, text: str, under: Colour) -> None:
    """A small card back: no name, only the back's pattern."""
    c.stamp(x, y, (BACK_W + 1, BACK_H + 1), ("tn-back", under), _card_back, under)
    c.keep("back", key, x, y, BACK_W, BACK_H, text)


# ---------------------------------------------------------------- drawing the parts


def _mark(c: Canvas, key: str, x: int, y: int, icon: str, text: str, colour: Colour) -> int:
    """An icon and a word after a name ("crown Alpha"); returns the width used."""
    used = c.count(
        icon,
        x,
        y,
        text,
        size="body",
        colour=colour,
        icon_colour=None if colour == cv.GOLD else colour,
    )
    c.keep("mark", key, x, y, used - 8, 22, text)
    return used + 2


def _tag(c: Canvas, seat: str, x: int, y: int) -> None:
    """The "▶ TO DECIDE" tag: a highlighted pill with a triangle and the words."""
    w = c.tag(x, y, DECIDE)
    c.keep("mark", f"decides:{seat}", x, y, w, cv.TAG_H, DECIDE)


def _name_line(
    c: Canvas,
    view: dict[str, Any],
    player: dict[str, Any],
    to_act: tuple[int, ...],
    at: tuple[int, int, int],
    under: Colour,
) -> list[str]:
    """A player's name, then their marks and the "TO DECIDE" tag, within `room`;
    returns the words written (for the side's box)."""
    x, y, room = at
    seat = _seat_key(player)
    alpha = _is_alpha(view, player)
    out = bool(player.get("eliminated"))
    outcome = view.get("outcome") if isinstance(view.get("outcome"), dict) else {}
    winners = outcome.get("winners")
    winner = isinstance(winners, list) and player.get("seat") in winners
    deciding = player.get("seat") in to_act
    # their revenge hit: still to come (on their turn it is what they decide)
    later = player.get("revenge_pending") and not alpha and view.get("phase") != "over"
    gone = "out · revenge to come" if later else "out"
    marks = 100 * alpha + (text_width(gone, "body", True) + 33) * out + 110 * winner
    marks += (tag_width(DECIDE) + 4) * deciding
    name = fit(str(player.get("name") or f"Seat {seat}"), max(60, room - marks), "body", True)
    at = x + c.write(x, y, name, bold=True) + 10
    words = [name]
    if alpha:
        at += _mark(c, f"alpha:{seat}", at, y, "crown", "Alpha", cv.GOLD)
        words.append("Alpha")
    if out:
        at += _mark(c, f"out:{seat}", at, y, "skull", gone, cv.LIGHT_SOFT)
        words.append(gone)
    if winner:
        at += _mark(c, f"winner:{seat}", at, y, "star", "Winner", cv.GOLD)
        words.append("Winner")
    if deciding:
        _tag(c, seat, at, y)
        words.append("TO DECIDE")
    return words


def _count_texts(player: dict[str, Any]) -> tuple[str, str]:
    return f"Hand {player.get('hand_count', '—')}", f"AP {player.get('ap', '—')}"


def _counts_width(player: dict[str, Any]) -> int:
    hand, ap = _count_texts(player)
    return text_width(hand, "small", True) + 29 + text_width(ap, "small", True)


def _counts(c: Canvas, view: dict[str, Any], player: dict[str, Any], x: int, y: int) -> None:
    """Hand and AP as small counts (none during the draft)."""
    if _drafting(view):
        return
    seat = _seat_key(player)
    hand, ap = _count_texts(player)
    used = c.label(f"hand:{seat}", x, y, hand, bold=True, size="small").w
    c.icon("bolt", x + used + 12, y + 2, 14)
    c.label(f"ap:{seat}", x + used + 29, y, ap, bold=True, size="small")


def _deck(
    c: Canvas,
    view: dict[str, Any],
    team: dict[str, Any],
    x: int,
    y: int,
    w: int,
    *,
    under: Colour,
    facedown: tuple[int, int] | None = None,
) -> None:
    """A side's deck in `w`: a card back, its life bar, its discard pile and removed
    cards; the Alliance game's cards set aside face down at `facedown` (or after)."""
    number = team.get("team", "?")
    left = _int(team.get("deck")) or 0
    start = starting_deck(team, _list(view.get("players"))) or left
    piles = [f"Discard {team.get('discard_count', '—')}"]
    if team.get("removed_count"):
        piles.append(f"removed {team['removed_count']}")
    piles_text = "" if _drafting(view) else " · ".join(piles)
    hidden = _int(team.get("face_down_removed")) or 0
    hidden_text = f"{hidden} face down"
    hidden_w = 28 + text_width(hidden_text, "small") + 12 if hidden and facedown is None else 0
    bar_w = max(100, min(220, w - 28 - 10 - PILES_W - hidden_w))  # the same on every side
    _back(c, f"deck:{number}", x, y + 1, f"deck {left}", under)
    caption = deck_caption(view, team)
    colour = LIFE_LOW if team.get("low") else LIFE
    c.bar(f"deck:{number}", x + 28, y + 3, bar_w, 24, left, start, colour=colour, caption=caption)
    at = x + 28 + bar_w + 10
    if piles_text:
        room = x + w - at - hidden_w
        at += c.label(
            f"piles:{number}", at, y + 6, piles_text, width=room, colour=cv.LIGHT_SOFT, size="small"
        ).w
    if hidden:
        fx, fy = facedown or (at + 12, y)
        _back(c, f"facedown:{number}", fx, fy + 1, hidden_text, under)
        c.write(fx + 26, fy + 6, hidden_text, colour=cv.LIGHT_SOFT, size="small")


def _zones(
    c: Canvas,
    view: dict[str, Any],
    player: dict[str, Any],
    at: tuple[int, int, int],
    under: Colour,
) -> None:
    """A player's War Zone and Command Zone, each a labelled row (or rows) of cards: the
    War Zones at the top, level across the table."""
    x, y, w = at
    seat = _seat_key(player)
    limits = view.get("limits") if isinstance(view.get("limits"), dict) else {}
    per_row = _per_row(w)
    for zone, field, title in ZONES:
        troops = _list(player.get(field))
        text = f"{title} {len(troops)}/{limits.get(zone, '?')}"
        c.label(f"{seat}:{zone}", x, y, text, bold=True, size="small")
        top = y + ZONE_LABEL_H
        if not troops:
            c.stamp(x, top, (CARD_W + 1, EMPTY_H + 1), ("tn-empty", under), _empty_zone, under)
            c.keep("empty", f"{seat}:{zone}", x, top, CARD_W, EMPTY_H, "empty")
        for i, troop in enumerate(troops):
            row, col = divmod(i, per_row)
            cx, cy = x + col * (CARD_W + CARD_GAP), top + row * (CARD_H + CARD_GAP)
            names, bold = _name_lines(str(troop.get("name") or "?"))
            kind = str(troop.get("type") or "—")
            power = str(troop["strength"]) if troop.get("strength") is not None else "—"
            drained = bool(troop.get("drained"))
            c.stamp(
                cx,
                cy,
                (CARD_W + 1, CARD_H + 1),
                ("tn-troop", names, bold, kind, power, drained, under),
                lambda t, n=names, b=bold, k=kind, p=power, d=drained: _troop(t, n, b, k, p, d),
                under,
            )
            text = [*names, f"{kind} {power}"] + (["drained"] if drained else [])
            c.keep("troop", f"{seat}:{zone}:{i}", cx, cy, CARD_W, CARD_H, *text)
        y += _zone_height(len(troops), w)


def _player_area(
    c: Canvas,
    view: dict[str, Any],
    player: dict[str, Any],
    to_act: tuple[int, ...],
    box: tuple[int, int, int, int],
    *,
    team: dict[str, Any] | None,
) -> None:
    """One player's area: name and marks, Faction, counts, their own deck (`team`; a
    team's is drawn on its band) and zones."""
    x, y, w, h = box
    fill = cv.PANEL if team is not None else CELL
    if player.get("eliminated"):
        fill = GONE
    c.panel(x, y, w, h, fill=fill, marked=player.get("seat") in to_act)
    ix, iy, inner = x + PAD, y + PAD, w - 2 * PAD
    wide = team is not None and _deck_beside(w)
    room = inner - (DECK_W + 10 if wide else 0)
    words = _name_line(c, view, player, to_act, (ix, iy, room), fill)
    sub = iy + NAME_H
    line = _faction_line(player, team is None)
    key = f"faction:{_seat_key(player)}"
    counts_w = _counts_width(player)
    at = sub + SUB_H
    if wide:  # the counts after the Faction(s), the cards set aside face down at the end
        shown = c.label(key, ix, sub, line, width=inner - 300, colour=cv.LIGHT_SOFT, size="small").w
        _counts(c, view, player, ix + shown + 16, sub)
    elif team is not None:  # the counts at the end of the line
        c.label(key, ix, sub, line, width=inner - counts_w - 10, colour=cv.LIGHT_SOFT, size="small")
        _counts(c, view, player, ix + inner - counts_w, sub)
    else:  # a team's player: the Command card takes the line, the counts go below it
        c.label(key, ix, sub, line, width=inner, colour=cv.LIGHT_SOFT, size="small")
        _counts(c, view, player, ix + inner - counts_w, at)
    if team is not None:
        if wide:
            right = ix + inner - 150
            place = (right, sub - 4)
            _deck(c, view, team, ix + inner - DECK_W, iy - 2, DECK_W, under=fill, facedown=place)
        else:
            _deck(c, view, team, ix, at, inner, under=fill)
            at += DECK_H
    if not _drafting(view):
        _zones(c, view, player, (ix, at, inner), fill)
    c.keep("side", f"player{_seat_key(player)}", x, y, w, h, *words)


def _team_band(
    c: Canvas,
    view: dict[str, Any],
    team: dict[str, Any],
    to_act: tuple[int, ...],
    at: tuple[int, int, int, int],
) -> None:
    """A team of The Enemy of My Enemy in its column (`at`: x, y, width, height): its
    names, Factions and shared deck, then its players side by side."""
    seats = _seats(team)
    members = _members(view, team)
    x, y, w, h = at
    cell_w = _cell_width(w)
    head = _band_head(w)
    beside = _deck_beside(w)
    cells = h - head - PAD
    # the band is marked when the team decides as one (its Faction pick)
    c.panel(x, y, w, h, marked=bool(seats) and all(s in to_act for s in seats))
    ix, inner = x + PAD + 2, w - 2 * PAD - 4
    number = team.get("team")
    title = f"Team {number + 1}" if isinstance(number, int) else "Team"
    names = " & ".join(_words(team.get("names")) or [str(p.get("name")) for p in members])
    heading = fit(f"{title} — {names}", inner - (DECK_W + 10) * beside, "body", True)
    c.write(ix, y + PAD, heading, bold=True)
    factions = ", ".join(_words(team.get("factions"))) or "none yet"
    text = f"Factions: {factions}"
    c.label(
        f"factions:{number}",
        ix,
        y + PAD + NAME_H,
        text,
        width=inner,
        colour=cv.LIGHT_SOFT,
        size="small",
    )
    if beside:
        _deck(c, view, team, ix + inner - DECK_W, y + PAD - 2, DECK_W, under=cv.PANEL)
    else:  # on a row of its own under the Factions
        _deck(c, view, team, ix, y + PAD + NAME_H + SUB_H, inner, under=cv.PANEL)
    for i, player in enumerate(members):
        box = (x + PAD + i * (cell_w + cv.GAP), y + head, cell_w, cells)
        _player_area(c, view, player, to_act, box, team=None)
    c.keep("side", f"team{number}", x, y, w, h, title, names)


def _title(
    c: Canvas, view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None
) -> int:
    """The headline (who decides, the turn, every side's deck), then the game and its
    goal, and what the table waits for."""
    # the headline and the prompt change with every turn: drawn, not kept as stamps
    short = f"{len(to_act)} players to decide"
    who = ending or _who(view, to_act)
    y = cv.headline(c, who, bool(to_act) and not ending, when(view), scores(view), short)
    full = c.width - 2 * cv.MARGIN
    variant = VARIANTS.get(str(view.get("variant")), str(view.get("variant") or "—"))
    title = f"{GAME_NAME} · {variant}"
    x = cv.MARGIN + c.label("title", cv.MARGIN, y, title, size="small", bold=True).w
    goal = view.get("goal")
    if goal and view.get("phase") != "over":
        text = f" · Goal: {goal}"
        c.label("goal", x, y, text, width=full - x, colour=cv.LIGHT_SOFT, size="small")
    y += 20
    lines = _prompt_lines(view, c.width, bool(to_act))
    for n, line in enumerate(lines):
        c.write(cv.MARGIN, y + n * 23, line)
    c.keep("label", "prompt", cv.MARGIN, y, full, 23 * len(lines), *lines)
    return y + 23 * len(lines) + 6


def _title_height(view: dict[str, Any], width: int) -> int:
    head = cv.headline_height(width, scores(view))
    return head + 20 + 23 * len(_prompt_lines(view, width)) + 6


def _who(view: dict[str, Any], to_act: tuple[int, ...]) -> str:
    """The headline's first words: who decides, or who won."""
    players = _list(view.get("players"))
    names = {p.get("seat"): str(p.get("name") or f"Seat {_seat_key(p)}") for p in players}
    if view.get("phase") == "over":
        outcome = view.get("outcome") if isinstance(view.get("outcome"), dict) else {}
        winners = [names.get(s, str(s)) for s in _items(outcome.get("winners"))]
        return "Game over" + (f": {' & '.join(winners)} won" if winners else "")
    deciders = [names.get(s, str(s)) for s in to_act]
    return f"{' & '.join(deciders)} to decide" if deciders else "Nobody to decide"


def _prompt_lines(view: dict[str, Any], width: int, deciding: bool = True) -> list[str]:
    """What the table waits for, in at most two lines under the title."""
    prompt = str(view.get("prompt") or ("Waiting for a decision" if deciding else "—"))
    return wrap(prompt, width - 2 * cv.MARGIN - 24, lines=2)


def _crown(c: Canvas, x: int, y: int) -> None:
    c.icon("crown", x, y + 2, 15)


def _decides(c: Canvas, x: int, y: int) -> None:
    c.marker(x + 2, y + 3, 12, cv.HIGHLIGHT)


def _sword(c: Canvas, x: int, y: int) -> None:
    c.icon("sword", x, y + 2, 14, cv.LIGHT_SOFT)


def _dimmed(c: Canvas, x: int, y: int) -> None:
    c.plate(x, y + 1, 15, 16, fill=cv.CARD_DIM, radius=3)


def _skull(c: Canvas, x: int, y: int) -> None:
    c.icon("skull", x, y + 2, 15, cv.LIGHT_SOFT)


# The legend: each mark's shape and the words for it (the last where there is room).
LEGEND: tuple[tuple[Callable[[Canvas, int, int], None], str], ...] = (
    (_crown, "Alpha: whose turn"),
    (_decides, "to decide now"),
    (_sword, "Strength"),
    (_dimmed, "drained: used, recharges later"),
    (_skull, "out of the game"),
)


def _legend(c: Canvas, x: int, y: int) -> None:
    """What the marks mean, on one line (as many as fit)."""
    for shape, words in LEGEND:
        used = 20 + text_width(words, "small") + 16
        if x + used - 16 > c.width - cv.MARGIN:
            return
        shape(c, x, y)
        c.write(x + 20, y, words, colour=cv.LIGHT_SOFT, size="small")
        x += used


def _available(c: Canvas, view: dict[str, Any], y: int) -> int:
    """The Factions still to choose during the draft, as cards; returns the y below."""
    factions = _list(view.get("available_factions"))
    if not factions:
        return y
    c.label(
        "available",
        cv.MARGIN,
        y,
        f"Factions still to choose ({len(factions)})",
        bold=True,
        size="small",
    )
    y += ZONE_LABEL_H
    per_row = _per_row(c.width - 2 * cv.MARGIN)
    for i, faction in enumerate(factions):
        row, col = divmod(i, per_row)
        fx = cv.MARGIN + col * (CARD_W + CARD_GAP)
        fy = y + row * (FACTION_H + CARD_GAP)
        c.plate(fx, fy, CARD_W, FACTION_H, fill=cv.CARD, edge=cv.INK_SOFT, width=2, radius=7)
        lines, bold = _name_lines(str(faction.get("name") or "?"))
        for n, line in enumerate(lines):
            c.write(fx + 6, fy + 4 + n * LINE, line, colour=cv.INK, bold=bold, size="small")
        c.keep("faction", f"available:{i}", fx, fy, CARD_W, FACTION_H, *lines)
    return y + math.ceil(len(factions) / per_row) * (FACTION_H + CARD_GAP) + 4


def _members(view: dict[str, Any], team: dict[str, Any]) -> list[dict[str, Any]]:
    seats = _seats(team)
    return [p for p in _list(view.get("players")) if p.get("seat") in seats][:2]


def _cell_width(band: int) -> int:
    """A team player's area in a band `band` wide."""
    return (band - 2 * PAD - cv.GAP) // 2


def _band_height(view: dict[str, Any], team: dict[str, Any], width: int) -> int:
    cell_w = _cell_width(width)
    cells = max((_area_height(view, p, cell_w, False) for p in _members(view, team)), default=0)
    return _band_head(width) + cells + PAD


def _band_head(width: int) -> int:
    """A team band's heading: names, Factions, and the deck's row unless beside."""
    return PAD + NAME_H + SUB_H + (0 if _deck_beside(width) else DECK_H)


def _own_decks(view: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    """Each player's deck when it is theirs alone, by seat."""
    teams = _list(view.get("teams"))
    return {s: t for t in teams for s in _seats(t) if len(_seats(t)) == 1}


def _teamed(view: dict[str, Any]) -> bool:
    return any(len(_seats(t)) > 1 for t in _list(view.get("teams")))


def _sides(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What sits side by side across the board: the teams of a team game, else the
    players."""
    return _list(view.get("teams")) if _teamed(view) else _list(view.get("players"))


def _column_width(view: dict[str, Any], width: int) -> int:
    """Each side's column on a board `width` wide."""
    n = max(1, len(_sides(view)))
    return (width - 2 * cv.MARGIN - (n - 1) * cv.GAP) // n


def _side_height(view: dict[str, Any], side: dict[str, Any], column: int) -> int:
    """How tall a side (a team's band, or a player's area) is drawn in its column."""
    if _teamed(view):
        return _band_height(view, side, column)
    return _area_height(view, side, column, side.get("seat") in _own_decks(view))


def _least_width(view: dict[str, Any]) -> int:
    """The narrowest board whose players' areas hold a name, Alpha and "TO DECIDE"."""
    n = max(1, len(_sides(view)))
    side = 2 * AREA_W + 2 * PAD + cv.GAP if _teamed(view) else AREA_W
    return n * side + (n - 1) * cv.GAP + 2 * cv.MARGIN


def _height(view: dict[str, Any], width: int) -> int:
    """How tall the board is drawn `width` wide, at most (the canvas is made no taller:
    filling and encoding a picture cost by the row)."""
    column = _column_width(view, width)
    body = max((_side_height(view, s, column) for s in _sides(view)), default=0) + cv.GAP
    factions = len(_list(view.get("available_factions")))
    rows = math.ceil(factions / _per_row(width - 2 * cv.MARGIN))
    available = ZONE_LABEL_H + rows * (FACTION_H + CARD_GAP) + 4 if factions else 0
    return _title_height(view, width) + body + available + ZONE_LABEL_H + 4 + cv.MARGIN


def board(view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None) -> Picture:
    """The public board: every side's deck and Troops side by side, whose turn and
    decision it is (`ending`: the headline's words once the match is over)."""
    width = cv.board_width(lambda w: _height(view, w), _least_width(view))
    c = Canvas(width=width, height=_height(view, width))
    y = _title(c, view, to_act, ending)
    own = _own_decks(view)
    column = _column_width(view, width)
    sides = _sides(view)
    h = max((_side_height(view, s, column) for s in sides), default=0)
    for n, side in enumerate(sides):
        x = cv.MARGIN + n * (column + cv.GAP)
        if _teamed(view):
            _team_band(c, view, side, to_act, (x, y, column, h))
        else:
            team = own.get(side.get("seat"))
            _player_area(c, view, side, to_act, (x, y, column, h), team=team)
    y += h + cv.GAP if sides else 0
    y = _available(c, view, y)
    _legend(c, cv.MARGIN, y)
    return c.finish()
