"""The clocks benchmark, run with tiny numbers on the test Redis: it prints its
figures and deletes what it wrote. No timing is asserted — only that it measures."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from benchmarks import bench_clocks
from storage import keys


async def test_the_clocks_benchmark_prints_its_figures_and_cleans_up(
    redis: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    out = io.StringIO()
    assert await bench_clocks._main(60, 2, [10, 40], out) == 0
    text = out.getvalue()
    assert "60 live tables (5 clocks each) holding 600 scheduled reminders" in text
    assert re.search(r"deadline index: 60 tables in 16 buckets \(\d+ to \d+ each\) on \d+ Redis nodes?", text)
    assert re.search(r"sweep with nothing due\s+median\s+[\d.]+ ms", text)
    assert len(re.findall(r"sweep after 60 min: +\d+ tables woken, +\d+ reminders", text)) == 2
    for name, count in (("/tables at", 10), ("/tables at", 40), ("/table list,", 60)):
        figure = rf"{re.escape(name)} {count} tables\s+a page: median\s+[\d.]+ ms.*reading all {count} tables"
        assert re.search(figure, text)
    assert [k async for k in redis.scan_iter(match=f"{keys.PREFIX}:{{table:bench*")] == []
    assert [await redis.zcard(key) for key in keys.DEADLINE_BUCKETS] == [0] * keys.BUCKETS
    assert [k async for k in redis.scan_iter(match=f"{keys.PREFIX}:list:*")] == []
