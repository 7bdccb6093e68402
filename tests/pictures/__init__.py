"""Checks shared by the picture tests."""

from __future__ import annotations

from bot.pictures import Picture
from bot.pictures.canvas import is_wide


def assert_wide(picture: Picture) -> None:
    """A board is at least 16:9: Discord shows an embed's picture at most some 300 px
    high, so a taller one is shown narrow and its type too small to read."""
    assert is_wide(picture.width, picture.height), (picture.width, picture.height)
