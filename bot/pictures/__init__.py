"""Pictures of the table: each game's public board (and, where it helps, a player's
private view) drawn as a PNG from the same views the text board reads.

A game's drawing module has `board(view, to_act) -> Picture` and may have
`private(view) -> Picture | None`; it reads only the view it is given, so a picture can
show nothing the text doesn't. Drawing runs in a worker thread (the event loop never
waits on Pillow) and is cached by what it was drawn from, so an unchanged board (a clock
line, a reposted board) is never drawn twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.pictures.canvas import Box, Picture, with_band
from bot.service.metrics import Metrics

log = logging.getLogger(__name__)

__all__ = [
    "BOARD_FILE",
    "HAND_FILE",
    "Box",
    "Ending",
    "Picture",
    "PictureCache",
    "board",
    "has_board",
]

BOARD_FILE = "board.png"  # the board embed's image: attachment://board.png
HAND_FILE = "hand.png"  # a private view's image
CACHED = 256  # pictures kept (a board is some 20 to 60 kB)

BoardDrawer = Callable[[dict[str, Any], tuple[int, ...], str | None], Picture]
PrivateDrawer = Callable[[dict[str, Any]], Picture | None]


@cache
def _drawers() -> tuple[dict[str, BoardDrawer], dict[str, PrivateDrawer]]:
    """Each game's drawing functions, by game id."""
    from bot.pictures import command_of_nature, historia_command, mystic_vale, tooth_and_nail

    boards: dict[str, BoardDrawer] = {
        "command-of-nature": command_of_nature.board,
        "historia-command": historia_command.board,
        "mystic-vale": mystic_vale.board,
        "tooth-and-nail": tooth_and_nail.board,
    }
    privates: dict[str, PrivateDrawer] = {
        "command-of-nature": command_of_nature.private,
        "mystic-vale": mystic_vale.private,
    }
    return boards, privates


def has_board(game_id: str) -> bool:
    """Whether the game has a board picture."""
    return game_id in _drawers()[0]


@dataclass(frozen=True)
class Ending:
    """How a match ended, as its picture says it: the headline's words in place of who
    decides ("Ada won", "Stopped by a moderator"), and the band's sentence; `stopped`:
    it ended without a result."""

    headline: str
    story: str
    stopped: bool = False


def board(
    game_id: str, view: dict[str, Any], to_act: tuple[int, ...], ending: Ending | None = None
) -> Picture | None:
    """The game's board drawn from its public view; None for a game without one. A match
    that ended is drawn with nobody to act, its `ending` in the headline and in a band
    over the picture."""
    drawer = _drawers()[0].get(game_id)
    if drawer is None:
        return None
    if ending is None:
        return drawer(view, to_act, None)
    # Whatever the view still says of turns (a match stopped mid-turn), the game is over.
    drawn = drawer({**view, "phase": "over", "prompt": ending.story}, (), ending.headline)
    return with_band(drawn, ending.story, stopped=ending.stopped)


def private(game_id: str, view: dict[str, Any]) -> Picture | None:
    """A player's private view drawn, for a game where a picture helps; else None."""
    drawer = _drawers()[1].get(game_id)
    return drawer(view) if drawer else None


class PictureCache:
    """Pictures drawn off the event loop, remembered by what they were drawn from."""

    def __init__(self, size: int = CACHED, metrics: Metrics | None = None) -> None:
        self._kept: OrderedDict[str, Picture | None] = OrderedDict()
        self._size = size
        self.drawn = 0  # pictures actually drawn (the rest came from the cache)
        self.metrics = metrics or Metrics()  # each drawing timed

    async def board(
        self,
        game_id: str,
        view: dict[str, Any],
        to_act: tuple[int, ...],
        ending: Ending | None = None,
    ) -> Picture | None:
        """The board picture of this view (drawn in a worker thread unless kept), with
        its `ending` once the match is over (see `board`)."""
        key = json.dumps(["board", game_id, view, to_act, ending], sort_keys=True, default=str)
        return await self._get(game_id, key, lambda: board(game_id, view, to_act, ending))

    async def private(self, game_id: str, view: dict[str, Any]) -> Picture | None:
        """A private view's picture (drawn in a worker thread unless kept)."""
        key = json.dumps(["private", game_id, view], sort_keys=True, default=str)
        return await self._get(game_id, key, lambda: private(game_id, view))

    async def _get(
        self, game_id: str, key: str, draw: Callable[[], Picture | None]
    ) -> Picture | None:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        started = time.perf_counter()
        try:
            picture = await asyncio.to_thread(draw)
            if picture is not None:  # None: the game has no such picture
                self.metrics.drawn(game_id, time.perf_counter() - started)
        except Exception:  # a fault of ours: the message goes out as text instead
            reference = secrets.token_hex(3)
            log.exception("a picture could not be drawn [ref %s]: shown as text", reference)
            picture = None
        self.drawn += 1
        self._kept[key] = picture
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return picture
