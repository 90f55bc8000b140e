"""The web benchmark, run with tiny numbers on the test Redis: every page kind
is measured or said to be not built yet, and the live fan-out gets each move
to every watcher exactly once. No timing is asserted — only that it measures."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from benchmarks import bench_web


async def test_the_web_benchmark_measures_every_page_kind_and_the_fan_out(
    redis: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setattr(bench_web, "FIELD", 8)
    monkeypatch.setattr(bench_web, "REPLAY_MOVES", 30)
    out = io.StringIO()
    assert await bench_web._main([3, 5], 2, 3, 1, True, out) == 0
    text = out.getvalue()
    figure = r"(p50 +[\d.]+ ms +p99 +[\d.]+ ms +[\d.]+ KiB|not built yet)"
    for label in (r"live table page \(phase, move \d+\)", r"replay page \(\d+ moves\), no step given"):
        assert re.search(rf"{label} +{figure}", text), text
    assert len(re.findall(rf"replay page, step \d+ +{figure}", text)) == 4, text
    assert re.search(rf"tournament page \(8 players, 1 round played\) +{figure}", text), text
    for count in (3, 5):
        fan_out = rf"{count} watchers \(.*\):\n +save → last watcher's update +p50 +[\d.]+ ms"
        assert re.search(fan_out, text), text
    # Three moves, three updates to each watcher, none twice; every stream gone after.
    assert re.findall(r"\((\d) moves, (\d) without an update\)", text) == [("3", "0")] * 2, text
    after = re.findall(r"most updates one watcher got: (\d); still in the hub after: (\d)", text)
    assert after == [("3", "0")] * 2, text
