"""The picture benchmark, run with tiny numbers: it prints its figures. No timing
is asserted — only that it measures every game with pictures."""

from __future__ import annotations

import io
import re

from benchmarks import bench_pictures
from bot.render.pictures import PICTURES

FIGURE = r"{game}\s+{kind}\s+p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+bytes mean\s+[\d,]+\s+max\s+[\d,]+"
STALL = r"{game}\s+event loop: longest stall [\d.]+ ms drawing in a thread, [\d.]+ ms in a process"


def test_the_benchmark_prints_p50_p99_and_bytes_per_game_and_kind() -> None:
    out = io.StringIO()
    assert bench_pictures.run(states=3, players=3, out=out) == 0
    text = out.getvalue()
    for game in PICTURES:
        assert re.search(FIGURE.format(game=game, kind="table"), text), text
        assert re.search(STALL.format(game=game), text), text


def test_an_unknown_game_is_refused() -> None:
    out = io.StringIO()
    assert bench_pictures.run(states=1, game="no-such-game", out=out) == 1
    assert "no picture renderer" in out.getvalue()
