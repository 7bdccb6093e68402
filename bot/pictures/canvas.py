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
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

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

WIDTH = 800  # every board picture: Discord shows it at about 400 px on a phone
MARGIN = 16
GAP = 8
SIZES = {"title": 24, "body": 18, "small": 15}
Size = Literal["title", "body", "small"]
COLOURS = 64  # the PNG's palette
COMPRESSION = 3  # zlib level: 6 is a few % smaller and twice as slow
SAMPLE = 4  # the palette is found on a picture this many times smaller each way


FONTS = Path(__file__).resolve().parent / "fonts"
FACES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
MISSING = "?"  # drawn for a character the font lacks


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The project's face at a pixel size."""
    return ImageFont.truetype(str(FONTS / FACES[bold]), size)


@cache
def _drawable(char: str) -> bool:
    """Whether the font has a glyph for `char` (it draws an empty box otherwise)."""

    def ink(c: str) -> bytes:
        image = Image.new("L", (24, 24))
        ImageDraw.Draw(image).text((2, 2), c, font=font(16), fill=255)
        return image.tobytes()

    return char.isspace() or ink(char) != ink("\uffff")


def drawable(text: str) -> str:
    """`text` with each character the font lacks replaced by "?"."""
    return "".join(c if _drawable(c) else MISSING for c in text)


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
        return math.ceil(font(SIZES[size], bold).getlength(drawable(text)))

    def fit(self, text: str, width: int, size: Size = "body", bold: bool = False) -> str:
        """`text`, cut with "…" to fit `width`."""
        if self.text_width(text, size, bold) <= width:
            return text
        while text and self.text_width(text + "…", size, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def wrap(self, text: str, width: int, size: Size = "body", lines: int = 3) -> list[str]:
        """`text` in at most `lines` lines of `width` (the last cut with "…")."""
        out: list[str] = []
        words = text.split()
        current = ""
        for i, word in enumerate(words):
            trial = f"{current} {word}".strip()
            if self.text_width(trial, size) <= width or not current:
                current = trial
                continue
            out.append(current)
            current = word
            if len(out) == lines - 1:
                current = " ".join(words[i:])
                break
        if current:
            out.append(self.fit(current, width, size))
        return out

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
        """Draw one line (`anchor` as Pillow's: "la" left, "ma" centred, "ra" right);
        returns its height."""
        px = SIZES[size]
        self.draw.text((x, y), drawable(text), font=font(px, bold), fill=colour, anchor=anchor)
        height = round(px * 1.25)
        self._reach(y + height)
        return height

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
        width: int | None = None,
    ) -> Box:
        """A line of text that says something about the game (recorded as a "label")."""
        shown = self.fit(text, width, size, bold) if width else text
        height = self.write(x, y, shown, size=size, colour=colour, bold=bold)
        used = width or self.text_width(shown, size, bold)
        return self.keep("label", key, x, y, used, height, shown)

    # -------------------------------------------------------------- shapes

    def panel(self, x: float, y: float, w: float, h: float, *, fill: Colour = PANEL) -> None:
        """A rounded area grouping a part of the table."""
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=fill)
        self._reach(y + h)

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
        width = 4 if marked else 2
        self.draw.rounded_rectangle(
            (x, y, x + w, y + h),
            radius=8,
            fill=fill,
            outline=HIGHLIGHT if marked else edge,
            width=width,
        )
        if marked:  # a corner notch as well as the edge: not colour alone
            right = x + w
            self.draw.polygon(
                [(right - 4, y + 4), (right - 18, y + 4), (right - 4, y + 18)], fill=INK
            )
        inner = int(w) - (26 if marked else 12)
        shown = [self.fit(title, inner, "small", bold=True)]
        self.write(x + 6, y + 5, shown[0], size="small", colour=INK, bold=True)
        room = int((h - 26) // 18)
        for n, line in enumerate(list(lines)[:room]):
            fitted = self.fit(line, inner, "small")
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
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=CARD_DIM)
        share = 0.0 if most <= 0 else max(0.0, min(1.0, value / most))
        if share > 0:
            self.draw.rounded_rectangle((x, y, x + max(8, w * share), y + h), radius=4, fill=colour)
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
    ) -> int:
        """An icon followed by a number ("♥ 3/4" drawn): returns the width used."""
        px = SIZES[size]
        used = self.icon(name, x, y + 2, px - 2)
        text = str(value)
        self.write(x + used + 3, y, text, size=size, colour=colour, bold=True)
        return used + 3 + self.text_width(text, size, bold=True) + 8

    # -------------------------------------------------------------- the end

    def finish(self) -> Picture:
        """The PNG, cropped to what was drawn (plus the margin), with its boxes."""
        height = min(self.height, self.bottom + MARGIN)
        image = self.image.crop((0, 0, self.width, height))
        return Picture(encode(image), self.width, height, tuple(self.boxes))


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
