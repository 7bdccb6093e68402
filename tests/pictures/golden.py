"""Golden images: a drawing compared with the one kept in `golden/`, with a tolerance,
to catch an accidental change of what players see. After a deliberate change, write
them anew with `ARBITER_GOLDEN=update .venv/bin/python -m pytest tests/pictures`
and look at each one before committing it."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from bot.pictures import Picture

GOLDEN = Path(__file__).resolve().parent / "golden"
TOLERANCE = 2.0  # mean difference per channel, out of 255: anti-aliasing may vary a little


def assert_matches_golden(picture: Picture, name: str) -> None:
    """`picture` looks like `golden/<name>.png` (same size, mean difference within
    TOLERANCE); with ARBITER_GOLDEN=update the golden image is written instead."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("ARBITER_GOLDEN") == "update":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(picture.png)
        return
    assert path.exists(), f"no golden image {path.name}: write it with ARBITER_GOLDEN=update"
    drawn = Image.open(io.BytesIO(picture.png)).convert("RGB")
    kept = Image.open(path).convert("RGB")
    assert drawn.size == kept.size, f"{name}: drawn {drawn.size}, golden {kept.size}"
    difference = ImageStat.Stat(ImageChops.difference(drawn, kept)).mean
    assert max(difference) <= TOLERANCE, f"{name} differs from its golden image: {difference}"
