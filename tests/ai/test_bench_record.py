"""The AI bench's record: a measure of many hours runs in parts, each game kept with the
code that played it, and a game recorded for other code played again."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench.ai import Result, fingerprint, measure_ai, recorded, write_record
from tests.bench.behaviour import Conduct

KEY = ("tooth-and-nail", "2p", "random", 0)


def result(won: float) -> Result:
    conduct = Conduct(moves=40, turns=9, wasted=1, times=[0.1, 0.5], playouts=[120, 80])
    return Result(won, 81, {"strong": conduct})


def test_a_recorded_game_reads_back_as_it_was_played(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    write_record(path, KEY, result(1.0), fingerprint())
    write_record(path, (*KEY[:3], 1), result(0.5), fingerprint())
    games = recorded(path, fingerprint())
    assert games == {KEY: result(1.0), (*KEY[:3], 1): result(0.5)}


def test_a_game_recorded_for_other_code_does_not_count(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    write_record(path, KEY, result(1.0), "0" * 16)
    assert json.loads(path.read_text())["code"] != fingerprint()
    assert recorded(path, fingerprint()) == {}


def test_a_measure_takes_its_recorded_games_instead_of_playing_them(tmp_path: Path) -> None:
    path = tmp_path / "ai.jsonl"
    for seed, won in enumerate((1.0, 0.0, 1.0)):
        write_record(path, (*KEY[:3], seed), result(won), fingerprint())
    heard = []
    [pairing] = measure_ai(3, (KEY[:2],), (KEY[2],), workers=1, done=heard.append, record=path)
    assert [r.won for r in pairing.results] == [1.0, 0.0, 1.0]
    assert heard == [pairing]
    assert len(path.read_text().splitlines()) == 3  # nothing played, nothing added
