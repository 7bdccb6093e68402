"""The picture of a Historia: Ways of Command table, drawn from its public view.

Arbiter keeps only the standings the Command tokens read, so the picture is a
standings table: one row per civilization, one column per category (Territory,
Military, Technology) with each value and who is first and last in it, and the
civilization's Command token (face up and unused, or face down with its power and, while
the power is in force, the cube on it). Above: the game, the table size, the Era and
turn, the latest report's number and what the table waits for; below: a legend in words,
who can activate a token now, and the powers in force.

Nobody has a turn at a Historia table (it reports as it plays): `to_act` is whoever the
table waits for (a name to give, a dispute to settle, an end of Era to agree to), and
their rows carry a ▶ pointer and the words "to act".

Boxes, keyed from the view (`seat` is a civilization's seat number):
- "civ" `{seat}`: the name cell (name, player, "to act", "won");
- "cell" `{seat}:{category}`: a standing, for each value the view's standings hold
  (text: the value, "+2 Command" when a power adds to it, then "1st"/"tied 1st" and
  "last"/"tied last" as the view's first and last lists say);
- "token" `{seat}:command`: the Command token (text: its state and symbols or power);
- "cube" `{seat}:command`: the cube on an active token (text: where it came from);
- "power" `{i}`: the i-th power in force, in seat order;
- "label" "title", "era", "report", "prompt", "ready", "legend", "powers": the lines
  around the table.
"""

from __future__ import annotations

from typing import Any

from bot.pictures import canvas as cv
from bot.pictures.canvas import Canvas, Colour, Picture, fit, text_width, wrap
from bot.render.historia_command import (
    CATEGORIES,
    CATEGORY_NAMES,
    ERA_PHASES,
    PLACE_NAMES,
    civ_label,
    ready_now,
    roman,
    scores,
    when,
)

GAME_NAME = "Historia: Ways of Command"

# The columns: the civilization, the three categories, the token.
LEFT = cv.MARGIN
NAME_W = 200
CAT_W = 122
CAT_X = tuple(LEFT + NAME_W + cv.GAP + i * (CAT_W + cv.GAP) for i in range(len(CATEGORIES)))
TOKEN_X = CAT_X[-1] + CAT_W + cv.GAP
ROW_H = 54
ROW_GAP = 6
MARK = 14  # a first/last mark's shape
LINE = 19  # a line of small text
PURPLE_DARK: Colour = (78, 52, 104)  # a face-down token: PURPLE darkened for light ink
DOWN: Colour = (64, 68, 74)  # a token out of the game


def board(view: dict[str, Any], to_act: tuple[int, ...], ending: str | None = None) -> Picture:
    """The public board: the standings table with each civilization's Command token
    (`ending`: the headline's words once the match is over)."""
    picture = _drawn(view, to_act, cv.WIDTH, ending)
    if cv.is_wide(picture.width, picture.height):
        return picture
    # Drawn wider, only the headline grows (the rest wraps less, if anything): drawn
    # again once, at the narrowest width at which that height is 16:9 or wider.
    tokens = scores(view)
    rest = picture.height - cv.headline_height(cv.WIDTH, tokens)
    width = cv.board_width(lambda w: rest + cv.headline_height(w, tokens))
    return _drawn(view, to_act, width, ending)


def _drawn(
    view: dict[str, Any], to_act: tuple[int, ...], width: int, ending: str | None = None
) -> Picture:
    civs = _civs(view)
    # Tall enough for every row and power (the most each can take), and no taller: a
    # smaller canvas is quicker to fill and crop.
    top = cv.headline_height(width, scores(view))
    canvas = Canvas(width=width, height=top + 320 + len(civs) * (ROW_H + ROW_GAP + 48))
    waiting = set(to_act)
    y = _head(canvas, view, civs, waiting, ending)
    y = _table(canvas, view, civs, waiting, y)
    y = _legend(canvas, y + cv.GAP)
    y = _ready(canvas, view, y + 4)
    _powers(canvas, view, civs, y + cv.GAP)
    return canvas.finish()


def _right(canvas: Canvas) -> int:
    """The right edge of what is drawn."""
    return canvas.width - cv.MARGIN


# ------------------------------------------------------------------ reading the view


def _civs(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in view.get("civs") or [] if isinstance(c, dict)]


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def latest_report(view: dict[str, Any]) -> int | None:
    """The number of the latest report the view lists (it lists this Era's only)."""
    numbers = [
        r.get("number")
        for r in view.get("reports") or []
        if isinstance(r, dict) and isinstance(r.get("number"), int)
    ]
    return max(numbers) if numbers else None


def marks(view: dict[str, Any], seat: Any, category: str) -> list[str]:
    """The marks of a civilization's cell, as the view's standings say: "1st" or
    "tied 1st", "last" or "tied last"; "all tied" when it is both first and last."""
    row = _dict(_dict(view.get("standings")).get(category))
    first, last = list(row.get("first") or []), list(row.get("last") or [])
    if seat in first and seat in last:  # everyone level: no leader, nobody trails
        return ["all tied"]
    out = []
    for seats, word in ((first, "1st"), (last, "last")):
        if seat in seats:
            out.append(word if len(seats) == 1 else f"tied {word}")
    return out


def ready_text(view: dict[str, Any]) -> str | None:
    """During an Era, who can activate their token now and by which category, or that
    nobody can (the text board's line, without its marks)."""
    ready = ready_now(view)
    if ready is None:
        return None
    if not ready:
        return "No token can be activated now"
    return "Can activate now: " + " · ".join(
        f"{civ_label(civ)} (first in {by}, not last in {other})" for civ, by, other in ready
    )


def power_line(civ: dict[str, Any]) -> str:
    """A power in force: whose, which, and where its cube came from."""
    token = _dict(civ.get("token"))
    source = PLACE_NAMES.get(str(token.get("cube_from")), "?")
    taken = token.get("cubes_taken")
    extra = f", {taken} cube{'s' if taken != 1 else ''} taken" if taken else ""
    return f"{civ_label(civ)}: {token.get('power') or '?'} (cube from the {source}{extra})"


def plain(text: str) -> str:
    """A line of the game's text without Discord's marks."""
    return text.replace("`", "").replace("**", "").replace("*", "")


# ------------------------------------------------------------------ drawing


def _head(
    canvas: Canvas,
    view: dict[str, Any],
    civs: list[dict[str, Any]],
    waiting: set[int],
    ending: str | None = None,
) -> int:
    """The headline (who the table waits for, the Era and turn, every civilization's
    Command token), the title line with the latest report's number, and the line of what
    the table waits for."""
    names = " & ".join(civ_label(c) for c in civs if c.get("seat") in waiting)
    if ending:
        who = ending
    elif view.get("phase") == "over":
        who = "Game over"
    elif names:
        who = f"{names} to act"
    else:
        who = "Report as you play" if view.get("phase") == "era" else "Nobody waited for"
    short = f"{len(waiting)} civilizations to act"
    y = cv.headline(canvas, who, bool(waiting) and not ending, when(view), scores(view), short)
    count = len(civs)
    title = f"{GAME_NAME} · {count} civilization{'s' if count != 1 else ''}"
    canvas.label("title", LEFT, y + 2, title, size="small", bold=True)
    y += LINE + 4

    number = latest_report(view)
    report = f"latest report #{number}" if number is not None else "no recent report"
    report_w = text_width(report, "small")
    canvas.write(_right(canvas), y + 2, report, size="small", colour=cv.LIGHT_SOFT, anchor="ra")
    canvas.keep("label", "report", _right(canvas) - report_w, y + 2, report_w, LINE, report)

    text = plain(str(view.get("prompt") or ""))
    if view.get("phase") == "era" and not waiting:  # its prompt repeats the Era and turn
        text = "Nobody is waited for: report the changes as you play"
    room = _right(canvas) - LEFT - report_w - 2 * cv.GAP - 20
    lines = wrap(text, room, bold=bool(waiting), lines=2) if text else ["—"]
    colour = cv.HIGHLIGHT if waiting else cv.LIGHT
    if waiting:
        canvas.marker(LEFT, y + 4, 14, cv.HIGHLIGHT, outline=cv.INK)
    x = LEFT + 20 if waiting else LEFT
    for n, line in enumerate(lines):
        canvas.write(x, y + n * 23, line, colour=colour, bold=bool(waiting))
    canvas.keep("label", "prompt", x, y, room, 23 * len(lines), *lines)
    return y + 23 * len(lines) + cv.GAP


def _table(
    canvas: Canvas,
    view: dict[str, Any],
    civs: list[dict[str, Any]],
    waiting: set[int],
    y: int,
) -> int:
    """The header and one row per civilization."""
    headers = ["Civilization", *(CATEGORY_NAMES[c] for c in CATEGORIES), "Command token"]
    for x, text in zip((LEFT + 8, *CAT_X, TOKEN_X), headers, strict=True):
        canvas.write(x + (0 if x == LEFT + 8 else 6), y, text, size="small", colour=cv.LIGHT_SOFT)
    y += LINE + 2
    winners = set(_dict(view.get("outcome")).get("winners") or [])
    for civ in civs:
        _row(canvas, view, civ, civ.get("seat") in waiting, civ.get("seat") in winners, y)
        y += ROW_H + ROW_GAP
    return y


def _row(
    canvas: Canvas,
    view: dict[str, Any],
    civ: dict[str, Any],
    to_act: bool,
    won: bool,
    y: int,
) -> None:
    """A civilization's row: its name, its three standings, its token."""
    seat = civ.get("seat")
    out = bool(civ.get("conceded"))
    if to_act:  # the edge, the pointer in the margin and the words: not colour alone
        canvas.panel(LEFT - 3, y - 3, _right(canvas) - LEFT + 6, ROW_H + 6, marked=True, radius=12)
        canvas.marker(1, y + ROW_H // 2 - 7, 14, cv.HIGHLIGHT, outline=cv.INK)
    canvas.panel(LEFT, y, _right(canvas) - LEFT, ROW_H, fill=cv.TABLE if out else cv.PANEL)

    name = fit(civ_label(civ), NAME_W - 16 - (24 if won else 0), "body", True)
    x = LEFT + 8
    if won:
        canvas.icon("crown", x, y + 8, 18)
        x += 24
    canvas.write(x, y + 6, name, colour=cv.LIGHT_SOFT if out else cv.LIGHT, bold=True)
    second = []
    if civ.get("named") is False or not civ.get("name"):
        second.append("no civilization yet")
    else:
        second.append(str(civ.get("player") or "?"))
    if out:
        second.append("left the table")
    if won:
        second.append("won")
    under = fit(" · ".join(second), NAME_W - 16 - (60 if to_act else 0), "small")
    canvas.write(LEFT + 8, y + 30, under, size="small", colour=cv.LIGHT_SOFT)
    shown = [name, under]
    if to_act:
        words_x = LEFT + 8 + text_width(under, "small") + 8
        canvas.write(words_x, y + 30, "to act", size="small", colour=cv.HIGHLIGHT, bold=True)
        shown.append("to act")
    canvas.keep("civ", str(seat), LEFT, y, NAME_W, ROW_H, *shown)

    for category, x in zip(CATEGORIES, CAT_X, strict=True):
        _cell(canvas, view, civ, category, x, y)
    _token(canvas, view, civ, y)


def _cell(
    canvas: Canvas, view: dict[str, Any], civ: dict[str, Any], category: str, x: int, y: int
) -> None:
    """One standing: the value, Command's +2 under it, the first/last marks beside it;
    a dash (and no box) where the view's standings have no value."""
    seat = civ.get("seat")
    values = _dict(_dict(_dict(view.get("standings")).get(category)).get("values"))
    value = values.get(str(seat))
    if value is None:
        canvas.write(x + 10, y + 12, "—", size="title", colour=cv.LIGHT_SOFT)
        return
    canvas.plate(x, y + 5, CAT_W, ROW_H - 10, fill=cv.TABLE, radius=6)
    text = [str(value)]
    canvas.write(x + 8, y + 9, str(value), size="title", bold=True)
    effective = _dict(civ.get("effective")).get(category)
    base = _dict(civ.get("levels")).get(category)
    if isinstance(effective, int) and isinstance(base, int) and effective != base:
        canvas.write(
            x + 8, y + 34, f"{effective - base:+d}", size="small", colour=cv.GOLD, bold=True
        )
        text.append(f"{effective - base:+d} Command")
    shown = marks(view, seat, category)
    top = y + (ROW_H - LINE * len(shown)) // 2
    for n, word in enumerate(shown):
        line_y = top + n * LINE
        _mark(canvas, word, x + 46, line_y + 2)
        canvas.write(x + 46 + MARK + 4, line_y, word, size="small")
    canvas.keep("cell", f"{seat}:{category}", x, y + 5, CAT_W, ROW_H - 10, *text, *shown)


def _token(canvas: Canvas, view: dict[str, Any], civ: dict[str, Any], y: int) -> None:
    """The Command token: face up (ready now, or not), face down with its power and
    cube while in force, face down and out of the game once its Era is over."""
    token = _dict(civ.get("token"))
    status = token.get("status")
    phase = view.get("phase")
    symbols = str(token.get("label") or "—")
    x, top, w, h = TOKEN_X, y + 4, _right(canvas) - TOKEN_X, ROW_H - 8
    cube = None
    if civ.get("conceded"):
        fill, ink, edge, first, second = (
            cv.CARD_DIM,
            cv.INK_SOFT,
            cv.INK_SOFT,
            "Out of the game",
            symbols,
        )
    elif status == "active":
        power = str(token.get("power") or "?")
        fill, ink, edge, first, second = PURPLE_DARK, cv.LIGHT, cv.PURPLE, "USED · face down", power
        cube = PLACE_NAMES.get(str(token.get("cube_from")), "?")
    elif status == "removed":
        fill, ink, edge = DOWN, cv.LIGHT_SOFT, cv.INK_SOFT
        first, second = "USED · face down", "out of the game"
    elif phase == "era" and token.get("eligible"):
        fill, ink, edge, first, second = cv.CARD, cv.INK, cv.GREEN, "Face up · READY", symbols
    elif phase == "era":
        fill, ink, edge, first, second = cv.CARD, cv.INK, cv.INK_SOFT, "Face up · not now", symbols
    elif status == "available":
        fill, ink, edge, first, second = cv.CARD, cv.INK, cv.INK_SOFT, "Face up · unused", symbols
    else:
        fill, ink, edge, first, second = cv.CARD_DIM, cv.INK_SOFT, cv.INK_SOFT, "—", symbols
    ready = edge == cv.GREEN
    canvas.plate(x, top, w, h, fill=fill, edge=edge, width=3 if ready else 2, radius=7)
    inner = x + 7
    if ready:
        canvas.icon("bolt", inner, top + 5, 15, cv.GOLD)
        inner += 18
    room = x + w - inner - (26 if cube else 7)
    first = fit(first, room, "small", True)
    second = fit(second, x + w - 7 - (x + 7) - (26 if cube else 0), "small")
    canvas.write(inner, top + 4, first, size="small", colour=ink, bold=True)
    canvas.write(x + 7, top + 4 + LINE + 2, second, size="small", colour=ink)
    canvas.keep("token", f"{civ.get('seat')}:command", x, top, w, h, first, second)
    if cube:
        _cube(canvas, x + w - 22, top + h // 2 - 8)
        canvas.keep(
            "cube", f"{civ.get('seat')}:command", x + w - 22, top + h // 2 - 8, 16, 16,
            f"cube from the {cube}",
        )  # fmt: skip


def _legend(canvas: Canvas, y: int) -> int:
    """What the marks mean, in words."""
    pieces = [
        ("1st", "1st"),
        ("tied 1st", "tied for 1st (blocks a token)"),
        ("last", "last"),
        ("tied last", "tied for last (doesn't block)"),
    ]
    x = LEFT
    for word, text in pieces:
        _mark(canvas, word, x, y + 2)
        canvas.write(x + MARK + 4, y, text, size="small", colour=cv.LIGHT_SOFT)
        x += MARK + 4 + text_width(text, "small") + 14
    gold = text_width("+2", "small", True)
    canvas.write(x, y, "+2", size="small", colour=cv.GOLD, bold=True)
    canvas.write(x + gold + 4, y, "Command power", size="small", colour=cv.LIGHT_SOFT)
    text = " · ".join(t for _, t in pieces) + " · +2 Command power"
    canvas.keep("label", "legend", LEFT, y, _right(canvas) - LEFT, LINE, text)
    return y + LINE + 2


def _ready(canvas: Canvas, view: dict[str, Any], y: int) -> int:
    """Who can activate a token now (during an Era only)."""
    text = ready_text(view)
    if text is None:
        return y
    lines = wrap(text, _right(canvas) - LEFT - 22)
    canvas.icon("bolt", LEFT, y + 3, 16, cv.GOLD if text.startswith("Can") else cv.LIGHT_SOFT)
    for n, line in enumerate(lines):
        canvas.write(LEFT + 22, y + n * 23, line)
    canvas.keep("label", "ready", LEFT + 22, y, _right(canvas) - LEFT - 22, 23 * len(lines), *lines)
    return y + 23 * len(lines)


def _powers(canvas: Canvas, view: dict[str, Any], civs: list[dict[str, Any]], y: int) -> int:
    """The powers in force until the end of the Era, one line each (two if need be)."""
    active = [
        c for c in civs if _dict(c.get("token")).get("status") == "active" and not c.get("conceded")
    ]
    if not active and view.get("phase") not in ERA_PHASES:
        return y
    era = view.get("era_name") or roman(view.get("era"))
    head = f"Powers in force until the end of Era {era}" if active else "Powers in force: none"
    canvas.write(LEFT, y, head, size="small", colour=cv.LIGHT_SOFT, bold=True)
    canvas.keep("label", "powers", LEFT, y, text_width(head, "small", True), LINE, head)
    y += LINE + 2
    for i, civ in enumerate(active):
        lines = wrap(power_line(civ), _right(canvas) - LEFT - 24, lines=2)
        _cube(canvas, LEFT + 2, y + 4)
        for n, line in enumerate(lines):
            canvas.write(LEFT + 24, y + n * 23, line)
        canvas.keep(
            "power", str(i), LEFT + 24, y, _right(canvas) - LEFT - 24, 23 * len(lines), *lines
        )
        y += 23 * len(lines) + 2
    return y


# ------------------------------------------------------------------ shapes


def _mark(canvas: Canvas, word: str, x: float, y: float) -> None:
    """A first (star) or last (down-triangle) mark; hollow when tied."""
    s = MARK
    tied = word.startswith(("tied", "all"))
    if word.endswith("1st") or word == "all tied":
        if tied:
            canvas.icon("star", x, y, s, cv.LIGHT_SOFT)
            canvas.icon("star", x + 3, y + 3, s - 6, cv.TABLE)
        else:
            canvas.icon("star", x, y, s, cv.GOLD)
        return
    points = [(x + 1, y + 2), (x + s - 1, y + 2), (x + s / 2, y + s)]
    if tied:
        canvas.draw.polygon(points, outline=cv.LIGHT_SOFT, width=2)
    else:
        canvas.draw.polygon(points, fill=cv.RED, outline=cv.LIGHT)


def _cube(canvas: Canvas, x: float, y: float) -> None:
    """A power cube seen from above a corner: a square with its top face lighter."""
    d = canvas.draw
    d.polygon([(x, y + 4), (x + 4, y), (x + 16, y), (x + 12, y + 4)], fill=cv.CARD, outline=cv.INK)
    d.polygon([(x + 12, y + 4), (x + 16, y), (x + 16, y + 12), (x + 12, y + 16)], fill=cv.INK_SOFT)
    d.rectangle((x, y + 4, x + 12, y + 16), fill=cv.GOLD, outline=cv.INK)
