"""Checks shared by the picture tests."""

from __future__ import annotations

from bot.pictures import Picture
from bot.pictures.canvas import GLANCE_MOST, is_wide


def assert_wide(picture: Picture) -> None:
    """A board is at least 16:9: Discord shows an embed's picture at most some 300 px
    high, so a taller one is shown narrow and its type too small to read."""
    assert is_wide(picture.width, picture.height), (picture.width, picture.height)


def check_headline(picture: Picture, who: list[str], scores: list[str]) -> None:
    """The board's headline names `who` (deciding, or the game's end; with many
    deciders, their count) and shows each of `scores`, its first line large enough to
    read where the picture is shown 270 px wide (a phone): 13 px a line there (boards
    wider than GLANCE_MOST, a huge Mystic Vale field, keep that board's headline)."""
    head = picture.box("label", "glance:who")
    counted = len(who) > 2 and head.text[0].startswith(f"{len(who)} ")  # "5 … to act"
    for words in [] if counted else who:
        assert words in head.text[0], (words, head.text)
    shown = " ".join(picture.box("label", "glance:scores").text)
    at = 0  # every score, in order; one is missing only where its line was cut with "…"
    for score in scores:
        found = shown.find(score, at)
        if found >= 0:
            at = found + len(score)
        else:
            assert "…" in shown[at:], (score, shown)
    assert head.h * 270 / min(picture.width, GLANCE_MOST) >= 13, head
