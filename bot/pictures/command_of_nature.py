"""Command of Nature drawn: the two formations facing each other, the markets below.

The board is laid out as the table is: side 1 sits at the top, its back row (Row III)
at the top edge and its front row (Row I) facing side 0's front row across the middle,
where an attack under way is written; side 0 sits below, front row first. Each side
keeps its half of the picture all game and every part keeps its place (the prompt and
the attack have rooms of their own), so the board never jumps between turns. A side's
header (its players, each Sage's health and level, the side's gold and AP, "TO ACT"
when the table waits for it) sits at its outer edge, as a player's Sage board does. In
a team game each formation is two pyramids side by side, each by the name of the player
whose half it is. Spaces read left to right (a to f) on both sides, as the menus name
them.

Boxes (kind: key, and what their text holds):
- "space": "side{n}:{label}", one per space of side n's formation, `label` as the menus
  name it ("I", "IIa", "IIIc"): the label, the Elemental's name, "Sage" for a Sage
  (drawn as a crown), "STR 2", "HP 1/2", and "shields 1" / "boosts 2" when it has any;
  an empty space holds the label and "empty".
- "side": "side{n}", side n's whole panel: its players, "TO ACT" when one of them is to
  act, "their turn" when it is their turn but another's decision, gold, AP, and each
  player's Sage line.
- "label": "title"; "status" (variant, turn, phase); "to_act" (whose decision, or who
  won); "prompt"; "side{n}:half{h}" in a team game (the player whose half h is, h=0
  the left one).
- "attack": "attack", the attack under way, when there is one.
- "market": "elementals:{i}" / "commands:{i}", a market's i-th face-up card: its name
  and "cost 3"; "deck": "elementals" / "commands", what is left in that market's deck.
- The private picture: "hand": "{seat}:{i}:{card id}", the i-th card of that seat's
  hand (the player's own hand first, then a teammate's); "choose": "{i}", a set-up
  choice; "label": "title", "section:choose", "section:{seat}", "empty:{seat}" (a hand
  with no card).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.pictures import canvas as cv
from bot.pictures.canvas import Canvas, Colour, Picture, fit, text_width, wrap
from bot.render.command_of_nature import SET_UP, scores, when

ROWS = ("I", "II", "III")
LETTERS = "abcdef"
VARIANTS = {"2p": "2 players", "4p": "2 teams of 2"}
MARKETS = (
    ("elementals", "Elemental Market", "elemental_deck"),
    ("commands", "Command Market", "command_deck"),
)
LOW_HP = 4  # a Sage this close to falling shows its health in red (the text warns too)

LINE = 19  # a line of "small" text
PAD = 10  # inside a panel
DIVIDE = 20  # between the two halves of a team's formation, and the two markets
ROW_GAP = 5
WIDE = 200  # a space this wide has its name beside its label
PROMPT_LINES = 2
MARKET = PAD + 26 + 2 * 18 + LINE + 16 + PAD  # a market's panel
MARKET_W = 410  # the markets' column, at the right of the formations
BAND = 42  # the middle of the table, where an attack under way is written
EMPTY_FILL: Colour = (64, 72, 80)  # an empty space: a dim slot on the panel
TEAM = 2  # halves of a team's formation
HAND_COLUMNS = 3
TEXT_LINES = 4  # a hand card's rules text, cut with "…" below this


def space_label(row: int, index: int, size: int) -> str:
    """A space as the menus name it: "I", "IIa", "IIIc"."""
    return ROWS[row] + (LETTERS[index] if size > 1 else "")


# ------------------------------------------------------------------ reading the view


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _number(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _players(view: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    return {p.get("seat"): p for p in _list(view.get("players")) if isinstance(p, dict)}


def _names(seats: Any, players: dict[Any, dict[str, Any]]) -> str:
    return " & ".join(str(players.get(s, {}).get("name", s)) for s in _list(seats)) or "—"


# ------------------------------------------------------------------ the board


class _Shape:
    """The sizes of one variant's board (a team game has two halves per formation)."""

    def __init__(self, teams: bool, width: int, below: bool) -> None:
        self.teams = teams
        self.width = width
        self.below = below  # the markets side by side below the table, else at its right
        self.area = width - 2 * cv.MARGIN - (0 if below else cv.GAP + MARKET_W)
        inner = self.area - 2 * PAD
        self.half = (inner - DIVIDE) / TEAM if teams else inner
        self.space_w = min(WIDE, (self.half - 2 * cv.GAP) / 3)
        self.wide = self.space_w >= WIDE
        # label / name / STR and HP, or label and tokens / a name in two lines / STR, HP
        self.space_h = 2 * LINE + 14 if self.wide else 4 * LINE + 16
        self.header = LINE + 10 if not teams else 2 * LINE + 12
        self.formation = 3 * self.space_h + 2 * ROW_GAP
        self.side = PAD + self.header + cv.GAP + self.formation + PAD
        # Every part has its place, so the height is known before drawing (a canvas no
        # taller than the picture is cheaper to fill and crop).
        self.table = 2 * self.side + BAND + 2 * cv.GAP
        if below:
            body = self.table + cv.GAP + MARKET
        else:
            body = max(self.table, len(MARKETS) * (MARKET + cv.GAP))
        self.height = _title_height(width) + body + cv.MARGIN

    @staticmethod
    def of(teams: bool) -> _Shape:
        """The narrower of the two ways to lay the board out at 16:9 or wider."""
        shapes = [
            _Shape(teams, cv.board_width(lambda w, b=below: _Shape(teams, w, b).height), below)
            for below in (False, True)
        ]
        return min(shapes, key=lambda shape: shape.width)


def board(view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None) -> Picture:
    """The public board: both formations facing each other, their headers, and the
    markets at their right or below them (`ending`: the headline's words once the match
    is over)."""
    players = _players(view)
    sides = [_dict(s) for s in _list(view.get("sides"))]
    shape = _Shape.of(any(len(_list(s.get("seats"))) > 1 for s in sides))
    c = Canvas(width=shape.width, height=shape.height)
    y = top = _title(c, view, to_act, players, ending)
    if len(sides) > 1:
        _side(c, 1, sides[1], y, shape, to_act, players, view)
    y += shape.side + cv.GAP
    _attack(c, view.get("attack"), y, shape.area)
    y += BAND + cv.GAP
    if sides:
        _side(c, 0, sides[0], y, shape, to_act, players, view)
    markets = _dict(view.get("markets"))
    if shape.below:
        _markets(c, markets, (cv.MARGIN, top + shape.table + cv.GAP), shape.area, stacked=False)
    else:
        _markets(c, markets, (cv.MARGIN + shape.area + cv.GAP, top), MARKET_W, stacked=True)
        below = top + len(MARKETS) * (MARKET + cv.GAP)
        if below + len(KEY) * LINE + 2 * PAD <= top + shape.table:  # room under the markets
            _key(c, cv.MARGIN + shape.area + cv.GAP, below)
    return c.finish()


# The key to the picture's marks, under the markets (the text board has its own).
KEY: tuple[tuple[str, Colour | None, str], ...] = (
    ("crown", None, "Sage: when it falls, its side loses"),
    ("sword", cv.LIGHT_SOFT, "Strength"),
    ("heart", cv.RED, "HP left / HP (red: damaged)"),
    ("shield", None, "shields"),
    ("bolt", None, "boosts"),
    ("coin", None, "gold"),
    ("hourglass", cv.LIGHT, "Action Points (AP)"),
)


def _key(c: Canvas, x: int, y: int) -> None:
    """What the picture's marks mean, one to a line, with ✦ for the project's cards."""
    words = [*(w for _, _, w in KEY), "✦ a card of Arbiter's own design"]
    c.panel(x, y, MARKET_W, len(words) * LINE + 2 * PAD)
    for n, (icon, colour, word) in enumerate(KEY):
        line_y = y + PAD + n * LINE
        c.icon(icon, x + PAD, line_y + 2, 14, colour)
        c.write(x + PAD + 22, line_y, word, colour=cv.LIGHT_SOFT, size="small")
    last = y + PAD + len(KEY) * LINE
    c.write(x + PAD, last, words[-1], colour=cv.LIGHT_SOFT, size="small")
    c.keep("label", "legend", x, y, MARKET_W, len(words) * LINE + 2 * PAD, *words)


def _title(
    c: Canvas,
    view: dict[str, Any],
    to_act: tuple[int, ...],
    players: dict[Any, dict[str, Any]],
    ending: str | None = None,
) -> int:
    """The headline (whose decision it is, the turn, every Sage's health), then the game
    and its phase, and the prompt; returns the y below."""
    phase = view.get("phase")
    outcome = _dict(view.get("outcome"))
    if ending:
        who = ending
    elif phase == "over" or outcome:
        reason = outcome.get("reason")
        who = f"Game over: {_names(outcome.get('winners'), players)} win"
        who += f" ({reason})" if reason else ""
    else:
        who = f"{_names(list(to_act), players)} to act" if to_act else "Nobody to act"
    turn = view.get("turn")
    short = f"{len(to_act)} players to act"
    y = cv.headline(c, who, bool(to_act) and not ending, when(view), scores(view), short)
    status = [VARIANTS.get(str(view.get("variant")), str(view.get("variant", "—")))]
    if isinstance(turn, int) and phase not in SET_UP:
        status.append(f"turn {turn}")
    named = SET_UP.get(str(phase)) or ("Game over" if phase == "over" else "")
    status.append(named or str(view.get("phase_name") or "—"))
    text = "Command of Nature · " + " · ".join(status)
    room = c.width - 2 * cv.MARGIN
    c.label("status", cv.MARGIN, y, text, size="small", bold=True, width=room)
    y += LINE
    prompt = str(view.get("prompt") or "")
    lines = wrap(prompt, room, lines=PROMPT_LINES, size="small") if prompt else []
    for n, line in enumerate(lines):
        c.write(cv.MARGIN, y + n * LINE, line, colour=cv.LIGHT_SOFT, size="small")
    if lines:
        c.keep("label", "prompt", cv.MARGIN, y, room, LINE * len(lines), *lines)
    return _title_height(c.width)


def _title_height(width: int) -> int:
    """The headline, the status line and the prompt's lines (the most it takes)."""
    return cv.headline_height(width) + LINE * (1 + PROMPT_LINES) + cv.GAP


def _side(
    c: Canvas,
    n: int,
    side: dict[str, Any],
    y: int,
    shape: _Shape,
    to_act: tuple[int, ...],
    players: dict[Any, dict[str, Any]],
    view: dict[str, Any],
) -> None:
    """One side's panel: its header at its outer edge, its formation facing the middle
    (side 1 at the top faces down, side 0 below faces up)."""
    seats = _list(side.get("seats"))
    rows = [_list(r) for r in _list(side.get("formation"))][:3]
    halves = TEAM if shape.teams and all(len(r) % TEAM == 0 for r in rows) else 1
    acting = any(s in to_act for s in seats)
    c.panel(cv.MARGIN, y, shape.area, shape.side, marked=acting)
    top = n == 1
    header_y = y + PAD if top else y + PAD + shape.formation + cv.GAP
    form_y = y + PAD + shape.header + cv.GAP if top else y + PAD
    text = _header(c, n, side, header_y, shape, halves, to_act, players, view)
    c.keep("side", f"side{n}", cv.MARGIN, y, shape.area, shape.side, *text)
    x0 = cv.MARGIN + PAD
    if halves > 1:
        line_x = x0 + shape.half + DIVIDE / 2
        c.draw.line((line_x, form_y, line_x, form_y + shape.formation), fill=cv.LIGHT_SOFT, width=2)
    for r, row in enumerate(rows):
        place = 2 - r if top else r
        ry = form_y + place * (shape.space_h + ROW_GAP)
        per_half = max(1, len(row) // halves)
        row_w = per_half * shape.space_w + (per_half - 1) * cv.GAP
        for i, card in enumerate(row):
            h, j = divmod(i, per_half)
            hx = x0 + min(h, halves - 1) * (shape.half + DIVIDE)
            sx = hx + (shape.half - row_w) / 2 + j * (shape.space_w + cv.GAP)
            label = space_label(r, i, len(row))
            _space(c, f"side{n}:{label}", sx, ry, shape, label, card)


def _header(
    c: Canvas,
    n: int,
    side: dict[str, Any],
    y: int,
    shape: _Shape,
    halves: int,
    to_act: tuple[int, ...],
    players: dict[Any, dict[str, Any]],
    view: dict[str, Any],
) -> list[str]:
    """A side's header: whether it is to act, who, its players' Sages, its wallet;
    returns the text written."""
    seats = _list(side.get("seats"))
    x = x0 = cv.MARGIN + PAD
    right = cv.MARGIN + shape.area - PAD
    text: list[str] = []
    if any(s in to_act for s in seats):
        tag = "TO ACT"
        x += c.tag(x, y, tag) + cv.GAP
        text.append(tag)
    elif view.get("active") == n and view.get("phase") not in (*SET_UP, "over"):
        tag = "their turn"
        x += c.write(x, y + 3, tag, colour=cv.LIGHT_SOFT, size="small") + cv.GAP
        text.append(tag)
    # The wallet at the right.
    ap = f"{side.get('ap', '—')} AP"
    gold = f"{side.get('gold', '—')} gold"
    wallet = right - c.write(right, y + 1, ap, bold=True, anchor="ra")
    c.icon("hourglass", wallet - 20, y + 4, 15, cv.LIGHT)
    wallet -= 20 + 2 * cv.GAP
    wallet -= c.write(wallet, y + 1, gold, bold=True, anchor="ra")
    c.icon("coin", wallet - 21, y + 4, 16)
    wallet -= 21 + 2 * cv.GAP
    if halves == 1:  # one player: their name and Sage on this line
        for seat in seats[:1]:
            player = players.get(seat, {})
            name = fit(str(player.get("name", seat)), min(220, wallet - x - 300), "body", True)
            x += c.write(x, y, name, bold=True) + 2 * cv.GAP
            text += [name, _sage_line(c, player, x, y + 2, wallet - x)]
        return [*text, gold, ap]
    title = fit(_names(seats, players), wallet - x - cv.GAP, "body", True)
    c.write(x, y, title, bold=True)
    text.insert(0, title)
    # Each teammate's name and Sage by their half of the formation.
    line_y = y + LINE + 12
    for h, seat in enumerate(seats[:TEAM]):
        player = players.get(seat, {})
        end = x0 + h * (shape.half + DIVIDE) + shape.half
        # from the left of the half's widest row, the pyramid's base
        cx = end - shape.half + (shape.half - 3 * shape.space_w - 2 * cv.GAP) / 2
        name = fit(str(player.get("name", seat)), 120, "small", True)
        if seat in to_act:  # which of the two the table waits for
            c.marker(cx, line_y + 3, 13)
            cx += 14
        used = c.write(
            cx,
            line_y,
            name,
            colour=cv.HIGHLIGHT if seat in to_act else cv.LIGHT,
            bold=True,
            size="small",
        )
        c.keep("label", f"side{n}:half{h}", cx, line_y, used, LINE, name)
        cx += used + cv.GAP
        sage = _sage_line(c, player, cx, line_y, end - cx)
        text += [f"{name}:" + (" to act" if seat in to_act else ""), sage]
    return [*text, gold, ap]


def _sage_line(c: Canvas, player: dict[str, Any], x: float, y: float, width: float) -> str:
    """A player's Sage (crowned), its health and the player's level; returns the text."""
    name = player.get("sage_name")
    level = f"level {player.get('level', '—')}"
    if not name:
        text = f"no Sage yet · {level}"
        c.write(x, y, fit(text, width, "small"), colour=cv.LIGHT_SOFT, size="small")
        return text
    if player.get("sage_defeated"):
        c.icon("skull", x, y + 2, 15, cv.LIGHT)
        text = fit(f"{name} has fallen · {level}", width - 20, "small")
        c.write(x + 20, y, text, size="small")
        return f"Sage {text}"
    c.icon("crown", x, y + 2, 15)
    x += 20
    shown = fit(str(name), max(40, min(width - 150, 110)), "small", True)
    x += c.write(x, y, shown, bold=True, size="small") + cv.GAP
    hp = _number(player.get("sage_hp"))
    placed = player.get("sage_placed") is not False
    left = _number(player.get("sage_hp_left")) if placed else hp
    x += c.count(
        "heart", x, y, f"{left}/{hp}", colour=cv.RED if placed and left <= LOW_HP else cv.LIGHT
    )
    c.write(x, y, level, size="small")
    return f"Sage {shown} HP {left}/{hp} · {level}"


def _space(c: Canvas, key: str, x: float, y: float, shape: _Shape, label: str, card: Any) -> None:
    """One space of a formation: an Elemental's card (its label, name, tokens, STR and
    HP), or an empty slot."""
    w, h = shape.space_w, shape.space_h
    pill = text_width(label, "small", True) + 10
    if not isinstance(card, dict):
        c.plate(x, y, w, h, fill=EMPTY_FILL, edge=cv.LIGHT_SOFT)
        c.plate(x + 5, y + 5, pill, 19, fill=cv.PANEL, edge=cv.PANEL, radius=5)
        c.write(x + 10, y + 5, label, colour=cv.LIGHT_SOFT, bold=True, size="small")
        c.write(x + w / 2, y + h - 24, "empty", colour=cv.LIGHT_SOFT, anchor="ma", size="small")
        c.keep("space", key, x, y, w, h, label, "empty")
        return
    sage = bool(card.get("sage"))
    c.plate(x, y, w, h, fill=cv.CARD, edge=cv.INK if sage else cv.INK_SOFT, width=2)
    c.plate(x + 5, y + 5, pill, 19, fill=cv.INK, edge=cv.INK, radius=5)
    c.write(x + 10, y + 5, label, bold=True, size="small")
    nx = x + pill + 10
    if sage:
        c.icon("crown", nx, y + 7, 14)
        nx += 19
    tokens = [
        (icon, _number(card.get(name)))
        for icon, name in (("shield", "shields"), ("bolt", "boosts"))
    ]
    # Tokens at the right of the bottom line (two players) or of the label's line.
    tx = x + w - 6
    ty = y + h - 24 if shape.wide else y + 5
    for icon, value in reversed(tokens):
        if value:
            tx -= (
                c.write(tx, ty, str(value), bold=True, anchor="ra", size="small", colour=cv.INK)
                + 16
            )
            c.icon(icon, tx, ty + 3, 13)
            tx -= cv.GAP
    name = str(card.get("name", "?"))
    if shape.wide:
        lines = [fit(name, x + w - 6 - nx, "small", True)]
        c.write(nx, y + 5, lines[0], bold=True, size="small", colour=cv.INK)
    else:
        lines = wrap(name, w - 12, lines=2, bold=True, size="small")
        for k, line in enumerate(lines):
            c.write(x + 6, y + 28 + k * 18, line, bold=True, size="small", colour=cv.INK)
    hp = _number(card.get("hp"))
    left = hp - _number(card.get("damage"))
    strength = card.get("strength", "—")
    sy = y + h - 24
    used = c.count("sword", x + 6, sy, strength)
    c.count("heart", x + 6 + used, sy, f"{left}/{hp}", colour=cv.RED if left < hp else cv.INK)
    text = [label, " ".join(lines), *(["Sage"] if sage else [])]
    text += [f"STR {strength}", f"HP {left}/{hp}"]
    text += [
        f"{name} {value}"
        for (_, value), name in zip(tokens, ("shields", "boosts"), strict=True)
        if value
    ]
    c.keep("space", key, x, y, w, h, *text)


def _attack(c: Canvas, attack: Any, y: int, w: int) -> None:
    """The middle of the table (`w` wide): the attack under way, if any, as a line."""
    x = cv.MARGIN
    if not attack:
        mid = y + BAND // 2
        c.draw.line((x + 40, mid, x + w - 40, mid), fill=cv.PANEL, width=2)
        return
    c.plate(x, y, w, BAND, fill=cv.CARD, edge=cv.RED, width=3)
    c.icon("sword", x + 10, y + (BAND - 20) / 2, 20, cv.RED)
    lines = wrap(f"Attack: {attack}", w - 50, lines=2, size="small")
    top = y + (BAND - LINE * len(lines)) / 2
    for n, line in enumerate(lines):
        c.write(x + 40, top + n * LINE, line, bold=n == 0, size="small", colour=cv.INK)
    c.keep("attack", "attack", x, y, w, BAND, *lines)


# ------------------------------------------------------------------ markets


def _markets(
    c: Canvas, markets: dict[str, Any], at: tuple[int, int], width: int, *, stacked: bool
) -> None:
    """Both markets from `at`, `width` wide, one under the other (`stacked`) or side by
    side: their face-up cards with costs, their decks' counts."""
    panel_w = width if stacked else (width - cv.GAP) // 2
    column = panel_w - 2 * PAD
    card_h = MARKET - 2 * PAD - 26
    for m, (name, title, deck) in enumerate(MARKETS):
        left, y = at[0], at[1]
        if stacked:
            y += m * (MARKET + cv.GAP)
        else:
            left += m * (panel_w + cv.GAP)
        c.panel(left, y, panel_w, MARKET)
        x = left + PAD
        cx = x + c.write(x, y + PAD, title, bold=True, size="small") + cv.GAP
        stock = markets.get(deck)
        count = f"{stock if isinstance(stock, int) else '—'} in deck"
        c.keep(
            "deck",
            name,
            cx,
            y + PAD,
            c.write(cx, y + PAD, count, colour=cv.LIGHT_SOFT, size="small"),
            LINE,
            count,
        )
        cards = [_dict(card) for card in _list(markets.get(name))]
        if not cards:
            c.write(x, y + PAD + 30, "empty", colour=cv.LIGHT_SOFT, size="small")
        slots = max(3, len(cards))
        w = (column - (slots - 1) * cv.GAP) / slots
        for i, card in enumerate(cards):
            _market_card(c, f"{name}:{i}", x + i * (w + cv.GAP), y + PAD + 26, w, card_h, card)


def _market_card(
    c: Canvas, key: str, x: float, y: float, w: float, h: float, card: dict[str, Any]
) -> None:
    c.plate(x, y, w, h, fill=cv.CARD, edge=cv.INK_SOFT, width=2)
    lines = wrap(str(card.get("name", "?")), w - 12, lines=2, bold=True, size="small")
    for n, line in enumerate(lines):
        c.write(x + 6, y + 5 + n * 18, line, bold=True, size="small", colour=cv.INK)
    cost = card.get("cost", "—")
    c.count("coin", x + 6, y + h - 24, cost)
    c.keep("market", key, x, y, w, h, " ".join(lines), f"cost {cost}")


# ------------------------------------------------------------------ private


STATS = re.compile(r"⚔\s*(\d+)\s*♥\s*(\d+)")


def _face(text: str) -> tuple[str, tuple[str, str] | None, str]:
    """A card's type, STR and HP (an Elemental's) and rules text, read from its text
    line ("Twig Warrior · ⚔2 ♥3 — Row I: ...")."""
    head, sep, body = text.partition(" — ")
    if not sep:
        return "", None, text
    found = STATS.search(head)
    kind = head.split(" · ")[0].strip()
    return kind, (found.group(1), found.group(2)) if found else None, body.strip()


def private(view: dict[str, Any]) -> Picture | None:
    """A player's hand (and a teammate's) as cards, after what they choose among in the
    set-up; None when the view has no hand."""
    hands = view.get("hands")
    if not isinstance(hands, dict):
        return None
    offered = [_dict(card) for card in _list(view.get("to_choose"))]
    held = {seat: [_dict(card) for card in _list(cards)] for seat, cards in hands.items()}
    tall = 2 * cv.MARGIN + 38 + (26 + _cards_height(len(offered)) if offered else 0)
    tall += sum(26 + (_cards_height(len(cards)) if cards else 26) for cards in held.values())
    c = Canvas(height=tall)
    players = _players(view)
    me = view.get("me")
    name = players.get(me, {}).get("name")
    c.label(
        "title",
        cv.MARGIN,
        cv.MARGIN,
        f"Your cards · {name}" if name else "Your cards",
        size="title",
        bold=True,
    )
    y = cv.MARGIN + 38
    if offered:
        c.label("section:choose", cv.MARGIN, y, "To choose from", bold=True)
        y = _hand_cards(c, offered, "choose", lambda i, card: str(i), y + 26)
    for seat in sorted(held, key=lambda s: str(s) != str(me)):
        cards = held[seat]
        owner = next(
            (p.get("name") for p in players.values() if str(p.get("seat")) == str(seat)), seat
        )
        title = "Your hand" if str(seat) == str(me) else f"{owner}'s hand"
        c.label(f"section:{seat}", cv.MARGIN, y, f"{title} ({len(cards)})", bold=True)
        y += 26
        if not cards:
            c.label(f"empty:{seat}", cv.MARGIN, y, "empty", colour=cv.LIGHT_SOFT, size="small")
            y += 26
            continue
        y = _hand_cards(c, cards, "hand", lambda i, card, s=seat: f"{s}:{i}:{card.get('id')}", y)
    return c.finish()


HAND_CARD = 45 + TEXT_LINES * 18 + 6


def _cards_height(count: int) -> int:
    """How tall `count` cards in rows of HAND_COLUMNS are drawn, with the gap below."""
    return -(-count // HAND_COLUMNS) * (HAND_CARD + cv.GAP) + cv.GAP


def _hand_cards(
    c: Canvas,
    cards: list[dict[str, Any]],
    kind: str,
    key: Callable[[int, dict[str, Any]], str],
    y: float,
) -> int:
    """Cards in rows of HAND_COLUMNS; returns the y below them."""
    w = (cv.WIDTH - 2 * cv.MARGIN - (HAND_COLUMNS - 1) * cv.GAP) / HAND_COLUMNS
    h = HAND_CARD
    for i, card in enumerate(cards):
        row, col = divmod(i, HAND_COLUMNS)
        _hand_card(
            c,
            kind,
            key(i, card),
            cv.MARGIN + col * (w + cv.GAP),
            y + row * (h + cv.GAP),
            w,
            h,
            card,
        )
    return int(y + _cards_height(len(cards)))


def _hand_card(
    c: Canvas, kind: str, key: str, x: float, y: float, w: float, h: float, card: dict[str, Any]
) -> None:
    """A card in hand: name and cost, type with STR and HP, its rules text."""
    c.plate(x, y, w, h, fill=cv.CARD, edge=cv.INK_SOFT, width=2)
    kind_text, stats, body = _face(str(card.get("text", "")))
    right = x + w - 6
    cost = card.get("cost")
    if cost is not None:
        right -= (
            c.write(right, y + 5, str(cost), bold=True, anchor="ra", size="small", colour=cv.INK)
            + 17
        )
        c.icon("coin", right, y + 8, 13)
        right -= cv.GAP
    name = fit(str(card.get("name", "?")), right - x - 6, "small", True)
    c.write(x + 6, y + 5, name, bold=True, size="small", colour=cv.INK)
    text = [name, *([f"cost {cost}"] if cost is not None else [])]
    stats_w = 0
    if stats:
        stats_w = text_width(f"{stats[0]}{stats[1]}", "small", True) + 2 * 24
        used = c.count("sword", x + w - 6 - stats_w, y + 25, stats[0])
        c.count("heart", x + w - 6 - stats_w + used, y + 25, stats[1])
    if kind_text:
        shown = fit(kind_text, w - 12 - stats_w - cv.GAP, "small")
        c.write(x + 6, y + 25, shown, colour=cv.INK_SOFT, size="small")
        text.append(shown)
    if stats:
        text += [f"STR {stats[0]}", f"HP {stats[1]}"]
    lines = wrap(body, w - 12, lines=TEXT_LINES, size="small") if body else []
    for n, line in enumerate(lines):
        c.write(x + 6, y + 45 + n * 18, line, size="small", colour=cv.INK)
    c.keep(kind, key, x, y, w, h, *text, *lines)
