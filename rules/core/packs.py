"""Card packs: TOML files validated by a game's pydantic schema, with errors a
moderator can act on (they name the card and the field), and a registry by name."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

P = TypeVar("P", bound=BaseModel)


PROJECT_MARK = "✦"  # after the name of a card the project designed (not a published one)
PROJECT_LEGEND = f"{PROJECT_MARK} a card of Arbiter's own design"


def marked_name(name: str, *, project: bool) -> str:
    """A card's name as players see it: marked when the project designed the card."""
    return f"{name} {PROJECT_MARK}" if project else name


class PackError(ValueError):
    """A pack file that cannot be used; the message names the card and field."""


def parse_pack(model: type[P], text: str, origin: str, *, tags: Iterable[str] = ()) -> P:
    """Validate a pack from TOML text. `tags` are the discriminator values of the
    schema's unions: pydantic puts them in error locations, but they are not places in
    the file, so they are left out of the messages."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{origin}: not valid TOML ({exc})") from exc
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = _without_echoes(exc.errors())
        known = frozenset(tags)
        lines = [f"{origin}: {len(errors)} problem(s)"]
        lines += [f"- {where(raw, err['loc'], known)}: {err['msg']}" for err in errors]
        raise PackError("\n".join(lines)) from exc


def _without_echoes(errors: list[Any]) -> list[Any]:
    """An invalid entry also makes its list look too short: report the entry only."""
    locs = [e["loc"] for e in errors]
    return [
        e
        for e in errors
        if not (
            e["type"] == "too_short"
            and any(len(o) > len(e["loc"]) and o[: len(e["loc"])] == e["loc"] for o in locs)
        )
    ]


def where(raw: object, loc: tuple[int | str, ...], tags: frozenset[str] = frozenset()) -> str:
    """A pydantic error location as a path through the file: "cards > 'Name' > field".
    A list entry is named by its `name` (or `sage` and `level`), else by its number."""
    parts: list[str] = []
    node = raw
    for step in loc:
        if (
            isinstance(step, str)
            and (step in tags or "[" in step or step.startswith("constrained-"))
            and not (isinstance(node, dict) and step in node)
        ):
            continue  # a union tag, not a place in the file
        try:
            node = node[step]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            parts.append(str(step))
            continue
        if isinstance(node, dict) and "name" in node and isinstance(step, int):
            parts.append(repr(node["name"]))
        elif isinstance(node, dict) and "sage" in node and isinstance(step, int):
            parts.append(f"{node['sage']} level {node.get('level')}")
        elif isinstance(step, str):
            parts.append(step)
        else:
            parts.append(f"#{step + 1}")
    return " > ".join(parts) or "pack"


class PackRegistry(Generic[P]):
    """A game's packs by name; the bundled one is always there."""

    def __init__(self, bundled: Callable[[], P]) -> None:
        self._bundled = bundled
        self._packs: dict[str, P] = {}

    def register(self, pack: P) -> None:
        """Make a validated pack available to the game's matches by its name."""
        self._packs[pack.name] = pack  # type: ignore[attr-defined]

    def get(self, name: str) -> P:
        """A registered pack by name."""
        if not self._packs:
            self.register(self._bundled())
        try:
            return self._packs[name]
        except KeyError:
            raise KeyError(f"no card pack named {name!r}") from None
