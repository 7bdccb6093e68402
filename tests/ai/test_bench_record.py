"""The AI bench's record: a measure of many hours runs in parts, each game kept with the
code that played it (its game's AI and rules, and what every game shares), and a game
recorded for other code played again."""

from __future__ import annotations

import json
from pathlib import Path

import ai
from rules.registry import GAMES
from tests.bench.ai import (
    ROOT,
    SHARED,
    UNPLAYED,
    Result,
    fingerprint,
    measure_ai,
    played_by,
    recorded,
    write_record,
)
from tests.bench.behaviour import Conduct

KEY = ("tooth-and-nail", "2p", "random", 0)
TODAY = {KEY[0]: fingerprint(KEY[0])}


def result(won: float) -> Result:
    conduct = Conduct(moves=40, turns=9, wasted=1, times=[0.1, 0.5], playouts=[120, 80])
    return Result(won, 81, {"strong": conduct})


def test_a_recorded_game_reads_back_as_it_was_played(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    write_record(path, KEY, result(1.0), TODAY[KEY[0]])
    write_record(path, (*KEY[:3], 1), result(0.5), TODAY[KEY[0]])
    games = recorded(path, TODAY)
    assert games == {KEY: result(1.0), (*KEY[:3], 1): result(0.5)}


def test_a_game_recorded_for_other_code_does_not_count(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    write_record(path, KEY, result(1.0), "0" * 16)
    assert json.loads(path.read_text())["code"] != TODAY[KEY[0]]
    assert recorded(path, TODAY) == {}
    # Nor one recorded with another game's code.
    path.unlink()
    write_record(path, KEY, result(1.0), fingerprint("mystic-vale"))
    assert recorded(path, TODAY) == {}


def test_a_measure_takes_its_recorded_games_instead_of_playing_them(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    for seed, won in enumerate((1.0, 0.0, 1.0)):
        write_record(path, (*KEY[:3], seed), result(won), TODAY[KEY[0]])
    heard = []
    [pairing] = measure_ai(3, (KEY[:2],), (KEY[2],), workers=1, done=heard.append, record=path)
    assert [r.won for r in pairing.results] == [1.0, 0.0, 1.0]
    assert heard == [pairing]
    assert len(path.read_text().splitlines()) == 3  # nothing played, nothing added


def test_every_file_the_ai_plays_with_counts_for_the_games_it_plays() -> None:
    """A change to any file of the AI or the rules voids the recorded games it can change:
    every file under ai/ and rules/ is in some game's `played_by` (but the rules of a game
    the AI doesn't play, and `UNPLAYED`, which no played file imports), and one game's
    judge and rules in no other game's."""
    covered: dict[str, set[str]] = {}
    for game_id in ai.JUDGES:
        for part in played_by(game_id):
            path = ROOT / part
            for file in sorted(path.rglob("*.*")) if path.is_dir() else [path]:
                covered.setdefault(file.relative_to(ROOT).as_posix(), set()).add(game_id)
    unplayed = {g.replace("-", "_") for g in GAMES}
    unplayed -= {g.replace("-", "_") for g in ai.JUDGES}
    for top in ("ai", "rules"):
        for file in sorted((ROOT / top).rglob("*.py")) + sorted((ROOT / top).rglob("*.toml")):
            name = file.relative_to(ROOT).as_posix()
            if "__pycache__" in name or any(name.startswith(f"rules/{u}/") for u in unplayed):
                continue
            if name in UNPLAYED:  # no played file imports it (below)
                continue
            assert name in covered, f"a change to {name} would void no recorded game"
    unplayed = [Path(u).stem for u in UNPLAYED]
    for name in (n for n in covered if n.endswith(".py")):
        imports = [
            line
            for line in (ROOT / name).read_text().splitlines()
            if line.lstrip().startswith(("import ", "from "))
        ]
        assert not [line for line in imports if any(u in line for u in unplayed)], name
    for game_id in ai.JUDGES:
        own = f"ai/{game_id.replace('-', '_')}.py"
        assert covered[own] == {game_id}
    assert all(covered[part] == set(ai.JUDGES) for part in SHARED if part.endswith(".py"))
