"""``Engine.apply(..., legal=True)``: the caller's choice came from
``legal_actions`` on this very state, so the checks are skipped — and the move
comes out exactly as the fully checked one does."""

from __future__ import annotations

import random

import pytest

from engines import GAMES
from engines.core import IllegalAction


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_trusted_move_matches_the_checked_one(key: str) -> None:
    engine = GAMES[key]
    rng = random.Random(5)
    state = engine.setup(engine.info.min_players, engine.parse_options(), 11)
    for _ in range(150):
        if engine.result(state) is not None:
            break
        movers = [(p.seat, engine.legal_actions(state, p.seat)) for p in engine.prompts(state)]
        seat, choices = rng.choice([(s, c) for s, c in movers if c])
        action = rng.choice(choices).action
        checked = engine.apply(state, seat, action)
        trusted = engine.apply(state, seat, action, legal=True)
        assert trusted.state == checked.state and trusted.events == checked.events
        state = checked.state


def test_an_untrusted_mapping_is_still_checked() -> None:
    engine = GAMES["spheres-of-life"]
    state = engine.setup(2, engine.parse_options(), 3)
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, {"kind": "no-such-move"}, legal=True)


def test_the_engine_benchmark_prints_both_rates_for_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import bench_engine

    assert bench_engine.main(["--games", "1", "--players", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(GAMES)
    assert all("playout" in line and "table" in line and "steps/s" in line for line in lines)
