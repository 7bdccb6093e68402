"""What every game's picture is drawn with: a canvas that records what it drew.

A picture is for the glance; the text board stays for reading, searching and screen
readers. Every picture is drawn on its own opaque table colour, so it reads the same in
Discord's dark and light themes; marks never rely on colour alone (each has a shape and
a word or number beside it). The font ships with the project (DejaVu Sans Condensed,
regular and bold, under its own licence in `fonts/`), so a picture comes out the same on
every machine; a character it lacks (a name in a script it doesn't cover) is drawn as
"?" rather than as an empty box.

Each thing drawn that stands for part of the game is kept as a `Box` (its kind, the
key of what it stands for, where it is and the text written in it), so tests can check
a drawing against the state it was drawn from, not only that it was drawn.
"""

from __future__ import annotations

import io
import math
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot.names import plain
from rules.core.text import cut, graphemes

Colour = tuple[int, int, int]

# The palette: a dark table, light cards, dark ink on cards, light ink on the table.
TABLE: Colour = (38, 44, 48)
PANEL: Colour = (52, 60, 66)
CARD: Colour = (240, 236, 224)
CARD_DIM: Colour = (196, 192, 182)  # an empty space, a card out of play
INK: Colour = (28, 30, 34)
INK_SOFT: Colour = (92, 96, 104)
LIGHT: Colour = (236, 238, 240)
LIGHT_SOFT: Colour = (168, 176, 184)
# Accents, each paired with a shape wherever it marks something (never colour alone).
RED: Colour = (196, 52, 52)
GREEN: Colour = (58, 140, 76)
BLUE: Colour = (52, 104, 184)
GOLD: Colour = (214, 164, 36)
PURPLE: Colour = (124, 76, 164)
ORANGE: Colour = (214, 110, 34)
HIGHLIGHT: Colour = (250, 204, 64)  # the side or seat whose decision it is

WIDTH = 800  # a private picture (a hand): Discord shows it at about 400 px on a phone
# A board is drawn at least 16:9: Discord shows an embed's picture at most some 300 px
# high and 400 wide, so a taller one is shrunk to the height and shown narrow. It is
# drawn at the narrowest of these widths that holds it at that shape (the widest, else).
WIDE = (16, 9)
WIDTHS = (960, 1040, 1120, 1200, 1280, 1440, 1600, 1760, 1920, 2240, 2560)
MARGIN = 16
GAP = 8
SIZES = {"title": 24, "body": 18, "small": 15}
Size = Literal["title", "body", "small"] | int  # a named size, or pixels
COLOURS = 64  # the PNG's palette
COMPRESSION = 2  # zlib level: 3 is 3 % smaller and a third slower on a tall board
SAMPLE = 4  # the palette is found on a picture this many times smaller each way
# What is remembered between pictures (every board repeats most of its words and shapes):
TEXTS = 8192  # measured and fitted lines of text
MASKS = 4096  # lines rendered as masks (some 2 kB each)
PLATES = 512  # rounded boxes of one size and colours
BIG_PLATE = 20_000  # pixels: a larger rounded box is drawn, a smaller one pasted
TILES = 300  # remembered drawings (a tile is 20 to 70 kB)
TAG_H = 22  # the "▶ TO ACT" tag


FONTS = Path(__file__).resolve().parent / "fonts"
FACES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
MISSING = "?"  # drawn for a character the font lacks


def board_width(height_at: Callable[[int], int], least: int = 0) -> int:
    """The narrowest of WIDTHS, `least` or more, at which a board `height_at(width)`
    tall is at least WIDE (the widest when none is)."""
    for width in WIDTHS:
        if width >= least and is_wide(width, height_at(width)):
            return width
    return WIDTHS[-1]


def is_wide(width: int, height: int) -> bool:
    """Whether a picture of this size is at least WIDE."""
    return width * WIDE[1] >= height * WIDE[0]


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The project's face at a pixel size."""
    return ImageFont.truetype(str(FONTS / FACES[bold]), size)


@cache
def _checker() -> ImageFont.FreeTypeFont:
    """The face laid out one character at a time: a mark or an emoji part it lacks
    shows as the empty box, not as a dotted circle or nothing."""
    return ImageFont.truetype(str(FONTS / FACES[False]), 16, layout_engine=ImageFont.Layout.BASIC)


@cache
def _drawable(char: str) -> bool:
    """Whether the font has a glyph for `char` (it draws an empty box otherwise)."""

    def ink(c: str) -> bytes:
        image = Image.new("L", (24, 24))
        ImageDraw.Draw(image).text((2, 2), c, font=_checker(), fill=255)
        return image.tobytes()

    return char.isspace() or ink(char) != ink("\uffff")


def drawable(text: str) -> str:
    """`text` as one line the font can draw: line and paragraph breaks and other
    control characters (a display name may hold any, and the layout engine fails on
    them) become spaces, invisible format characters go, and each character as a reader
    sees it that the font can't draw whole (an emoji, 👩‍💻 included) is one "?"."""
    text = plain(text)  # a name's markdown escapes (see bot.names)
    if text.isprintable() and text.isascii():  # the font has every printable ASCII character
        return text
    return "".join(_drawn(g) for g in graphemes(text))


def _drawn(grapheme: str) -> str:
    """One character as a reader sees it, as the font draws it: its breaks as spaces and
    its format characters gone, or MISSING for the whole of it if the font lacks a part."""
    shown = "".join(_BREAKS.get(unicodedata.category(c), c) for c in grapheme)
    return shown if all(_drawable(c) for c in shown) else MISSING


_BREAKS = {"Cc": " ", "Zl": " ", "Zp": " ", "Cf": "", "Cs": MISSING, "Co": MISSING}


@dataclass(frozen=True)
class Box:
    """Something drawn that stands for part of the game: `kind` says what sort of thing
    ("card", "space", "slot", "bar", "label"...), `key` which one (the renderer's own
    naming, e.g. "side0:IIa"), and `text` the lines written in it."""

    kind: str
    key: str
    x: int
    y: int
    w: int
    h: int
    text: tuple[str, ...] = ()

    def contains(self, other: Box) -> bool:
        """Whether `other` lies inside this box."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.x + other.w <= self.x + self.w
            and other.y + other.h <= self.y + self.h
        )


@dataclass(frozen=True)
class Picture:
    """A drawn picture: its PNG and the boxes it drew."""

    png: bytes
    width: int
    height: int
    layout: tuple[Box, ...]

    def boxes(self, kind: str | None = None, prefix: str = "") -> list[Box]:
        """The boxes of one kind (or all), whose keys start with `prefix`."""
        return [
            b for b in self.layout if (kind is None or b.kind == kind) and b.key.startswith(prefix)
        ]

    def box(self, kind: str, key: str) -> Box:
        """The one box of that kind and key."""
        (found,) = [b for b in self.layout if b.kind == kind and b.key == key]
        return found


# ------------------------------------------------------------------ remembered text
# A board draws some hundred lines of text, most of them the same from one board to the
# next: each is measured and rendered once, then pasted. `lru_cache` is safe to share
# between the worker threads that draw; the masks it keeps are only read.


@lru_cache(maxsize=TEXTS)
def text_width(text: str, size: Size = "body", bold: bool = False) -> int:
    """How wide `text` is drawn."""
    return math.ceil(font(px(size), bold).getlength(drawable(text)))


@lru_cache(maxsize=TEXTS)
def fit(text: str, width: float, size: Size = "body", bold: bool = False) -> str:
    """`text`, cut with "…" to fit `width` (never inside an emoji sequence)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = cut(text, len(text) - 1)
    return text.rstrip() + "…"


@lru_cache(maxsize=TEXTS)
def _wrapped(text: str, width: float, size: Size, lines: int, bold: bool) -> tuple[str, ...]:
    out: list[str] = []
    words = text.split()
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if not current or text_width(trial, size, bold) <= width:
            current = trial
            continue
        out.append(current)
        current = word
        if len(out) == lines - 1:
            current = " ".join(words[i:])
            break
    if current:
        out.append(current)
    return tuple(fit(line, width, size, bold) for line in out)


def wrap(
    text: str, width: float, size: Size = "body", lines: int = 3, bold: bool = False
) -> list[str]:
    """`text` in at most `lines` lines of `width`, measured in the weight it is drawn
    in (every line cut with "…" if it still does not fit)."""
    return list(_wrapped(text, width, size, lines, bold))


@lru_cache(maxsize=MASKS)
def _mask(text: str, size: Size, bold: bool) -> tuple[Image.Image, int, int] | None:
    """A line rendered once as a mask, and its offset from the top-left anchor."""
    face = font(px(size), bold)
    shown = drawable(text)
    left, top, right, bottom = face.getbbox(shown)
    if right <= left or bottom <= top:
        return None
    mask = Image.new("L", (right - left, bottom - top))
    ImageDraw.Draw(mask).text((-left, -top), shown, font=face, fill=255)
    return mask, left, top


@lru_cache(maxsize=PLATES)
def _plate(
    w: int, h: int, radius: int, fill: Colour | None, edge: Colour | None, width: int
) -> Image.Image:
    """A rounded box drawn once, transparent around its corners."""
    plate = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    ImageDraw.Draw(plate).rounded_rectangle(
        (0, 0, w, h),
        radius=radius,
        fill=None if fill is None else (*fill, 255),
        outline=None if edge is None else (*edge, 255),
        width=width,
    )
    return plate


_TILES: OrderedDict[Hashable, tuple[Image.Image, tuple[Box, ...]]] = OrderedDict()
_TILES_LOCK = threading.Lock()


def forget() -> None:
    """Drop every remembered drawing (tiles, text, plates): the next picture is drawn
    afresh."""
    with _TILES_LOCK:
        _TILES.clear()
    for cached in (text_width, fit, _wrapped, _mask, _plate):
        cached.cache_clear()


def tag_width(text: str) -> int:
    """How wide `Canvas.tag` draws `text`."""
    return text_width(text, "small", bold=True) + 30


@dataclass
class Canvas:
    """A picture being drawn: `width` wide, as tall as what is drawn needs (`height`
    grows until `finish`)."""

    width: int = WIDTH
    height: int = 2000
    background: Colour = TABLE
    boxes: list[Box] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height), self.background)
        self.draw = ImageDraw.Draw(self.image)
        self.bottom = 0  # the lowest pixel drawn so far

    # -------------------------------------------------------------- recording

    def keep(self, kind: str, key: str, x: float, y: float, w: float, h: float, *text: str) -> Box:
        """Record a box (what the tests read) and extend the drawn height."""
        box = Box(kind, key, round(x), round(y), round(w), round(h), tuple(text))
        self.boxes.append(box)
        self._reach(y + h)
        return box

    def _reach(self, y: float) -> None:
        self.bottom = max(self.bottom, math.ceil(y))

    # -------------------------------------------------------------- text

    def text_width(self, text: str, size: Size = "body", bold: bool = False) -> int:
        """How wide `text` is drawn."""
        return text_width(text, size, bold)

    def fit(self, text: str, width: float, size: Size = "body", bold: bool = False) -> str:
        """`text`, cut with "…" to fit `width`."""
        return fit(text, width, size, bold)

    def wrap(
        self, text: str, width: float, size: Size = "body", lines: int = 3, bold: bool = False
    ) -> list[str]:
        """`text` in at most `lines` lines of `width` (cut with "…" where need be)."""
        return wrap(text, width, size, lines, bold)

    def write(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: Size = "body",
        colour: Colour = LIGHT,
        bold: bool = False,
        anchor: str = "la",
    ) -> int:
        """Draw one line from the top of its ascender (`anchor` "la" left of x, "ma"
        centred on it, "ra" right of it); returns its width."""
        width = text_width(text, size, bold)
        stamp = _mask(text, size, bold)
        if stamp is not None:
            mask, left, top = stamp
            shift = {"l": 0.0, "m": width / 2, "r": float(width)}[anchor[0]]
            at = (round(x - shift) + left, round(y) + top)
            self.image.paste(colour, (*at, at[0] + mask.width, at[1] + mask.height), mask)
        self._reach(y + line_height(size))
        return width

    def label(
        self,
        key: str,
        x: float,
        y: float,
        text: str,
        *,
        size: Size = "body",
        colour: Colour = LIGHT,
        bold: bool = False,
        width: float | None = None,
        anchor: str = "la",
    ) -> Box:
        """A line of text that says something about the game (cut to `width`), recorded
        as a "label" as wide as it is drawn."""
        shown = fit(text, width, size, bold) if width else text
        used = self.write(x, y, shown, size=size, colour=colour, bold=bold, anchor=anchor)
        left = x - {"l": 0.0, "m": used / 2, "r": float(used)}[anchor[0]]
        return self.keep("label", key, left, y, used, line_height(size), shown)

    def lines(
        self,
        x: float,
        y: float,
        lines: list[str] | tuple[str, ...],
        step: float,
        *,
        size: Size = "small",
        colour: Colour = LIGHT,
        bold: bool = False,
    ) -> float:
        """Lines one under another, `step` apart; returns the y below the last."""
        for n, line in enumerate(lines):
            self.write(x, y + n * step, line, size=size, colour=colour, bold=bold)
        return y + step * len(lines)

    # -------------------------------------------------------------- shapes

    def plate(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour | None = None,
        edge: Colour | None = None,
        width: int = 1,
        radius: int = 8,
    ) -> None:
        """A rounded box (a card, a slot, a panel), pasted from a remembered drawing of
        its size and colours; a big one is drawn (a paste would blend every pixel)."""
        x0, y0, x1, y1 = round(x), round(y), round(x + w), round(y + h)
        if (x1 - x0) * (y1 - y0) > BIG_PLATE:
            self.draw.rounded_rectangle(
                (x0, y0, x1, y1), radius=radius, fill=fill, outline=edge, width=width
            )
        else:
            plate = _plate(x1 - x0, y1 - y0, radius, fill, edge, width)
            self.image.paste(plate, (x0, y0), plate)
        self._reach(y1)

    def panel(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = PANEL,
        marked: bool = False,
        radius: int = 10,
    ) -> None:
        """A rounded area grouping a part of the table; `marked` (the table waits for
        it) gives it a thick highlighted edge."""
        edge = HIGHLIGHT if marked else None
        self.plate(x, y, w, h, fill=fill, edge=edge, width=4, radius=radius)

    def marker(
        self,
        x: float,
        y: float,
        size: int,
        colour: Colour = HIGHLIGHT,
        outline: Colour | None = None,
    ) -> None:
        """A ▶ drawn as a shape (the font's is too thin): it marks whose decision it is."""
        points = [(x, y), (x + size * 0.85, y + size / 2), (x, y + size)]
        self.draw.polygon(points, fill=colour, outline=outline)
        self._reach(y + size)

    def tag(self, x: float, y: float, text: str) -> int:
        """A highlighted word after a ▶ ("▶ TO ACT"): whose decision it is, not by colour
        alone. Returns its width."""
        w = tag_width(text)
        self.plate(x, y, w, TAG_H, fill=HIGHLIGHT, radius=6)
        self.marker(x + 7, y + 5, 12, INK)
        self.write(x + 22, y + 2, text, size="small", colour=INK, bold=True)
        return w

    def stamp(
        self,
        x: float,
        y: float,
        size: tuple[int, int],
        key: Hashable,
        draw: Callable[[Canvas], None],
        background: Colour = TABLE,
    ) -> None:
        """What `draw` draws at (0, 0) on a tile of `size` on `background`, boxes and
        all, pasted at (x, y); a tile drawn before under the same `key` is pasted again
        (most of a board is drawn the same from one board to the next)."""
        with _TILES_LOCK:
            tile = _TILES.get(key)
            if tile is not None:
                _TILES.move_to_end(key)
        if tile is None:
            sub = Canvas(width=size[0], height=size[1], background=background)
            draw(sub)
            tile = (sub.image, tuple(sub.boxes))
            with _TILES_LOCK:
                _TILES[key] = tile
                while len(_TILES) > TILES:
                    _TILES.popitem(last=False)
        image, boxes = tile
        at = (round(x), round(y))
        self.image.paste(image, at)
        self.boxes.extend(replace(b, x=b.x + at[0], y=b.y + at[1]) for b in boxes)
        self._reach(at[1] + size[1])

    def card(
        self,
        kind: str,
        key: str,
        x: float,
        y: float,
        w: float,
        h: float,
        title: str,
        lines: list[str] | tuple[str, ...] = (),
        *,
        fill: Colour = CARD,
        edge: Colour = INK_SOFT,
        marked: bool = False,
    ) -> Box:
        """A card: a rounded box, its title in bold and up to as many lines as fit
        below; `marked` draws a thick highlighted edge (with a ▶ corner, not colour
        alone). Records it under `kind`/`key` with the text as drawn."""
        self.plate(
            x, y, w, h, fill=fill, edge=HIGHLIGHT if marked else edge, width=4 if marked else 2
        )
        if marked:  # a corner notch as well as the edge: not colour alone
            right = x + w
            self.draw.polygon(
                [(right - 4, y + 4), (right - 18, y + 4), (right - 4, y + 18)], fill=INK
            )
        inner = int(w) - (26 if marked else 12)
        shown = [fit(title, inner, "small", bold=True)]
        self.write(x + 6, y + 5, shown[0], size="small", colour=INK, bold=True)
        room = int((h - 26) // 18)
        for n, line in enumerate(list(lines)[:room]):
            fitted = fit(line, inner, "small")
            self.write(x + 6, y + 25 + n * 18, fitted, size="small", colour=INK)
            shown.append(fitted)
        return self.keep(kind, key, x, y, w, h, *shown)

    def bar(
        self,
        key: str,
        x: float,
        y: float,
        w: float,
        h: float,
        value: float,
        most: float,
        *,
        colour: Colour = GREEN,
        line_at: float | None = None,
        caption: str = "",
    ) -> Box:
        """A gauge of `value` out of `most` (a notch at `line_at`: a Spoil line, say),
        its caption written on it."""
        self.plate(x, y, w, h, fill=CARD_DIM, radius=4)
        share = 0.0 if most <= 0 else max(0.0, min(1.0, value / most))
        if share > 0:
            self.plate(x, y, max(8, w * share), h, fill=colour, radius=4)
        if line_at is not None and most > 0:
            at = x + w * min(1.0, line_at / most)
            self.draw.line((at, y - 3, at, y + h + 3), fill=INK, width=3)
        if caption:
            self.write(x + 6, y + (h - 18) / 2, caption, size="small", colour=INK, bold=True)
        return self.keep("bar", key, x, y, w, h, caption or f"{value}/{most}")

    # -------------------------------------------------------------- icons

    def icon(
        self, name: str, x: float, y: float, size: int = 16, colour: Colour | None = None
    ) -> int:
        """A small symbol drawn in a `size` square at (x, y); returns its width."""
        s = size
        d = self.draw
        c = colour
        if name == "heart":
            c = c or RED
            d.ellipse((x, y, x + s / 2, y + s / 2), fill=c)
            d.ellipse((x + s / 2, y, x + s, y + s / 2), fill=c)
            d.polygon([(x, y + s / 4), (x + s, y + s / 4), (x + s / 2, y + s)], fill=c)
        elif name == "sword":
            c = c or INK
            d.line((x + 2, y + s - 2, x + s - 2, y + 2), fill=c, width=max(2, s // 7))
            d.line((x + 2, y + s / 2, x + s / 2, y + s - 2), fill=c, width=max(2, s // 7))
        elif name == "shield":
            c = c or BLUE
            d.polygon(
                [
                    (x + 1, y + 1),
                    (x + s - 1, y + 1),
                    (x + s - 1, y + s / 2),
                    (x + s / 2, y + s),
                    (x + 1, y + s / 2),
                ],
                fill=c,
            )
        elif name == "bolt":
            c = c or GOLD
            d.polygon(
                [
                    (x + s * 0.6, y),
                    (x + s * 0.15, y + s * 0.55),
                    (x + s * 0.45, y + s * 0.55),
                    (x + s * 0.35, y + s),
                    (x + s * 0.85, y + s * 0.42),
                    (x + s * 0.55, y + s * 0.42),
                ],
                fill=c,
            )
        elif name == "crown":
            c = c or GOLD
            d.polygon(
                [
                    (x, y + s),
                    (x, y + s * 0.3),
                    (x + s * 0.25, y + s * 0.6),
                    (x + s / 2, y),
                    (x + s * 0.75, y + s * 0.6),
                    (x + s, y + s * 0.3),
                    (x + s, y + s),
                ],
                fill=c,
                outline=INK,
            )
        elif name == "star":
            c = c or GOLD
            points = []
            for i in range(10):
                r = s / 2 if i % 2 == 0 else s / 5
                a = math.pi / 2 + i * math.pi / 5
                points.append((x + s / 2 + r * math.cos(a), y + s / 2 - r * math.sin(a)))
            d.polygon(points, fill=c)
        elif name == "coin":
            c = c or GOLD
            d.ellipse((x, y, x + s, y + s), fill=c, outline=INK)
        elif name == "drop":  # mana
            c = c or BLUE
            d.polygon(
                [(x + s / 2, y), (x + s * 0.15, y + s * 0.6), (x + s * 0.85, y + s * 0.6)], fill=c
            )
            d.ellipse((x + s * 0.15, y + s * 0.3, x + s * 0.85, y + s), fill=c)
        elif name == "skull":  # decay, a curse
            c = c or INK
            d.ellipse((x + 1, y, x + s - 1, y + s * 0.75), fill=c)
            d.rectangle((x + s * 0.3, y + s * 0.6, x + s * 0.7, y + s), fill=c)
            d.ellipse((x + s * 0.25, y + s * 0.25, x + s * 0.45, y + s * 0.45), fill=CARD)
            d.ellipse((x + s * 0.55, y + s * 0.25, x + s * 0.75, y + s * 0.45), fill=CARD)
        elif name == "leaf":  # growth, spirits
            c = c or GREEN
            d.ellipse((x, y + s * 0.2, x + s, y + s * 0.8), fill=c)
            d.line((x, y + s, x + s, y), fill=INK, width=2)
        elif name == "hourglass":
            c = c or INK
            d.polygon([(x + 1, y), (x + s - 1, y), (x + s / 2, y + s / 2)], fill=c)
            d.polygon([(x + 1, y + s), (x + s - 1, y + s), (x + s / 2, y + s / 2)], fill=c)
        elif name == "dot":
            c = c or INK
            d.ellipse((x + s / 4, y + s / 4, x + s * 3 / 4, y + s * 3 / 4), fill=c)
        else:
            raise ValueError(f"no icon called {name!r}")
        self._reach(y + s)
        return s

    def count(
        self,
        name: str,
        x: float,
        y: float,
        value: object,
        *,
        colour: Colour = INK,
        size: Size = "small",
        icon_colour: Colour | None = None,
    ) -> int:
        """An icon followed by a number or a few words ("♥ 3/4" drawn): returns the
        width used, with a gap after it."""
        used = self.icon(name, x, y + 2, px(size) - 2, icon_colour)
        return (
            used
            + 3
            + self.write(x + used + 3, y, str(value), size=size, colour=colour, bold=True)
            + 8
        )

    # -------------------------------------------------------------- the end

    def finish(self) -> Picture:
        """The PNG, cropped to what was drawn (plus the margin), with its boxes."""
        height = min(self.height, self.bottom + MARGIN)
        image = self.image
        if height < self.height:
            image = image.crop((0, 0, self.width, height))
        return Picture(encode(image), self.width, height, tuple(self.boxes))


def band_height(width: int, text: str) -> int:
    """How tall `with_band` draws its band over a picture `width` wide."""
    return band_lines(width, text)[2]


BAND_LINES = 3  # the most lines a band's sentence takes


def band_lines(width: int, text: str) -> tuple[list[str], int, int]:
    """The band's lines, their type size and the band's height: the sentence in the
    headline's large type at the picture's whole width (so that it reads where the
    picture is shown small), on as many lines as it needs, up to BAND_LINES."""
    size = round(width / GLANCE[0])
    lines = wrap(text, width - 2 * MARGIN, size, lines=BAND_LINES, bold=True)
    return lines, size, len(lines) * line_height(size) + 2 * GAP


def with_band(picture: Picture, text: str, *, stopped: bool) -> Picture:
    """The picture under a band that says how the match ended (`text`), in type that
    reads where the picture is shown small: red when it `stopped` without a result,
    gold over a result; its boxes moved down with it."""
    lines, size, height = band_lines(picture.width, text)
    c = Canvas(picture.width, picture.height + height, background=RED if stopped else GOLD)
    c.image.paste(Image.open(io.BytesIO(picture.png)).convert("RGB"), (0, height))
    ink = LIGHT if stopped else INK
    for n, line in enumerate(lines):
        c.write(MARGIN, GAP + n * line_height(size), line, size=size, bold=True, colour=ink)
    moved = tuple(replace(b, y=b.y + height) for b in picture.layout)
    band = Box("label", "ending", 0, 0, picture.width, height, (text,))
    return Picture(encode(c.image), picture.width, c.height, (band, *moved))


def line_height(size: Size) -> int:
    """The height a line of text takes."""
    return round(px(size) * 1.25)


def px(size: Size) -> int:
    """A type size in pixels."""
    return size if isinstance(size, int) else SIZES[size]


# ------------------------------------------------------------------ the headline
# A board's first two lines are drawn large for its width, so that they read where the
# rest needs a tap: on a phone, where Discord shows the picture some 270 px wide.


GLANCE = (24, 30)  # the board's width over each headline line's type size
GLANCE_MOST = 1600  # wider boards (a huge field) keep the headline of this width


def glance_sizes(width: int) -> tuple[int, int]:
    """The headline's two type sizes on a board `width` wide (some 11 and 9 px when it is
    shown 270 px wide)."""
    width = min(width, GLANCE_MOST)
    return round(width / GLANCE[0]), round(width / GLANCE[1])


def _score_rows(width: int, scores: list[str] | tuple[str, ...]) -> tuple[list[str], int]:
    """The scores' lines (one, or two when one would need type smaller than 70 % of the
    line's size) and the type size they are drawn at."""
    mid = glance_sizes(width)[1]
    room = width - 2 * MARGIN
    rows = ["   ".join(scores)]
    if len(scores) > 1 and text_width(rows[0], round(mid * 0.7), True) > room:
        half = -(-len(scores) // 2)
        rows = ["   ".join(scores[:half]), "   ".join(scores[half:])]
    size, least = mid, round(mid * 0.7)
    while size > least and max(text_width(r, size, True) for r in rows) > room:
        size -= 2
    return rows, size


def headline_height(width: int, scores: list[str] | tuple[str, ...] = ()) -> int:
    """How tall `headline` draws on a board `width` wide (with these scores)."""
    big, mid = glance_sizes(width)
    rows = len(_score_rows(width, scores)[0]) if scores else 1
    return MARGIN + line_height(big) + rows * line_height(mid) + GAP


def headline(
    c: Canvas, who: str, deciding: bool, right: str, scores: list[str], short: str = ""
) -> int:
    """The board's first lines, large: who is to act (marked ▶ when someone decides)
    with `right` (the turn, the round) at the right, then every side's score (on two
    lines when there are many); `short` instead of `who` when that does not fit (a count
    of many deciders). Recorded as the labels "glance:who", "glance:when" and
    "glance:scores"; returns the y below."""
    big, mid = glance_sizes(c.width)
    x, y, right_edge = MARGIN, MARGIN - 2, c.width - MARGIN
    when = c.label("glance:when", right_edge, y, right, size=big, colour=LIGHT_SOFT, anchor="ra")
    if deciding:
        c.marker(x, y + big * 0.25, round(big * 0.8))
        x += round(big * 0.9)
    room = when.x - GAP - x
    if short and deciding and text_width(who, big, True) > room:
        who = short
    c.label("glance:who", x, y, who, size=big, bold=True, colour=HIGHLIGHT, width=room)
    y += line_height(big)
    rows, size = _score_rows(c.width, scores)
    shown = []
    for n, row in enumerate(rows):
        line = c.fit(row, c.width - 2 * MARGIN, size, bold=True)
        c.write(MARGIN, y + n * line_height(mid), line, size=size, bold=True)
        shown.append(line)
    c.keep(
        "label",
        "glance:scores",
        MARGIN,
        y,
        c.width - 2 * MARGIN,
        len(rows) * line_height(mid),
        *shown,
    )
    return y + len(rows) * line_height(mid) + GAP


def encode(image: Image.Image) -> bytes:
    """A PNG small enough for a phone: the flat colours of a drawing fit a palette of
    COLOURS (anti-aliased text included), which makes it about a third of the size of a
    full-colour one. The palette is worked out on a quarter-size sample (finding it is
    what costs, per pixel) and the whole picture mapped to it; a light compression keeps
    encoding fast."""
    sample = image.resize(
        (max(1, image.width // SAMPLE), max(1, image.height // SAMPLE)),
        Image.Resampling.NEAREST,
    )
    palette = sample.quantize(
        colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    mapped.save(out, format="PNG", compress_level=COMPRESSION)
    return out.getvalue()
