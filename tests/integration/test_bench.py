"""The act benchmark, run with tiny numbers on the test Redis: it prints its
figures and cleans up. No timing is asserted — only that it measures."""

from __future__ import annotations

import io
import re
import shutil

import pytest
from redis import Redis
from redis.cluster import RedisCluster

from benchmarks import bench_act, bench_loop
from bot.ops import cli
from tests.support.minigame import HIGH_CARD

GAMES = {"high-card": HIGH_CARD}
FIGURES = [
    r"act \(load → apply → CAS save → log append\)\s+median\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+[\d,]+ acts/s",
    r"Redis GET\+SET round trip \(same client\)\s+median\s+[\d.]+ ms\s+p99\s+[\d.]+ ms",
    r"ratio act / GET\+SET\s+median\s+[\d.]+ ×\s+p99\s+[\d.]+ ×",
    r"CPU per act \(this process, moves chosen apart\)\s+[\d.]+ ms   so one process carries [\d,]+ acts/s",
    r"peak RSS\s+[\d.]+ MiB",
]


def _client(redis_url: str) -> Redis:
    if redis_url.startswith("redis+cluster://"):
        return RedisCluster.from_url(redis_url.replace("redis+cluster", "redis", 1))  # type: ignore[return-value]
    return Redis.from_url(redis_url)


def _bench_keys(redis_url: str) -> int:
    client = _client(redis_url)
    try:
        return len(client.keys("gt:bench:*"))
    finally:
        client.close()


def _tables(redis_url: str) -> set[str]:
    client = _client(redis_url)
    try:
        return {str(key) for key in client.keys("gt:{table:*")}
    finally:
        client.close()


def test_bench_prints_act_and_roundtrip_figures_and_cleans_up(redis_url: str) -> None:
    before = _tables(redis_url)
    out = io.StringIO()
    code = bench_act.run(tables=3, acts=30, concurrency=2, redis_url=redis_url, games=GAMES, out=out)
    text = out.getvalue()
    assert code == 0, text
    assert "high-card on REDIS_URL; 3 tables, 30 acts, concurrency 2" in text
    for figure in FIGURES:
        assert re.search(figure, text), f"missing {figure!r} in:\n{text}"
    assert _tables(redis_url) == before and _bench_keys(redis_url) == 0


def test_gametable_bench_runs_the_benchmark(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setattr(cli, "configure_logging", lambda *args, **kwargs: None)
    out = io.StringIO()
    argv = ["bench", "--tables", "2", "--acts", "6", "--concurrency", "1"]
    assert cli.main(argv, games=GAMES, stdout=out) == 0
    assert all(re.search(figure, out.getvalue()) for figure in FIGURES)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server installed")
def test_without_redis_url_it_starts_a_private_redis_server() -> None:
    out = io.StringIO()
    assert bench_act.run(tables=2, acts=4, concurrency=2, redis_url=None, games=GAMES, out=out) == 0
    assert "a private redis-server on port" in out.getvalue()


def test_with_no_game_registered_it_says_so_and_exits_0() -> None:
    out = io.StringIO()
    assert bench_act.run(tables=2, acts=4, games={}, out=out) == 0
    assert "no game is registered yet" in out.getvalue()


def test_an_unknown_game_is_refused() -> None:
    out = io.StringIO()
    assert bench_act.run(game="chess", games=GAMES, out=out) == 2
    assert "there is no game 'chess'. Games: high-card." in out.getvalue()


def test_the_loop_benchmark_prints_the_longest_block_and_cleans_up(redis_url: str) -> None:
    before = _tables(redis_url)
    out = io.StringIO()
    bench_loop.run(redis_url, moves=2, out=out)
    text = out.getvalue()
    assert "spheres-of-life: deck file 252 KB" in text and "scales-of-influence: start" in text
    verdict = r"longest block of the event loop: [\d.]+ ms of CPU \((within|OVER) the 50 ms limit\)"
    assert re.search(verdict, text), text
    assert _tables(redis_url) == before


def test_an_unreachable_redis_is_one_sentence() -> None:
    out = io.StringIO()
    assert bench_act.run(tables=2, acts=4, redis_url="redis://127.0.0.1:1/0", games=GAMES, out=out) == 1
    assert out.getvalue().endswith(
        "gametable bench: Cannot reach Redis at 127.0.0.1:1: connection refused. Is it running?\n"
    )


def test_storage_bench_prints_bytes_per_live_and_archived_table(redis_url: str) -> None:
    from benchmarks import bench_storage

    before = _tables(redis_url)
    out = io.StringIO()
    from engines.registry import GAMES as REAL

    code = bench_storage.run(games_count=1, game="spheres-of-life", redis_url=redis_url, games=REAL, out=out)
    assert code == 0
    text = out.getvalue()
    assert "per table in play" in text and "per finished game, archived" in text
    assert "(1 tables)" in text.split("archived")[1].splitlines()[0]
    assert _tables(redis_url) == before


def test_load_generator_prints_rates_latency_cpu_and_memory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], redis_url: str
) -> None:
    from benchmarks import load

    monkeypatch.setenv("REDIS_URL", redis_url)
    before = _tables(redis_url)
    assert load.main(["--tables", "4", "--processes", "2", "--seconds", "1", "--concurrency", "2"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"acts/s [\d,]+ +p50 [\d.]+ ms +p99 [\d.]+ ms +CPU per act [\d.]+ ms", text)
    assert "Redis used memory" in text
    assert _tables(redis_url) == before


def test_load_generator_stays_on_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import load

    monkeypatch.setenv("REDIS_URL", "redis://10.1.2.3:6379/0")
    with pytest.raises(SystemExit):
        load.main(["--seconds", "1"])
    monkeypatch.delenv("REDIS_URL")
    with pytest.raises(SystemExit):
        load.main(["--tables", "20000"])


def test_acts_and_bare_round_trips_take_turns(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The baseline is timed in blocks between the acts' blocks, so both meet the
    # same conditions; each block of round trips as long as the acts' block before.
    blocks: list[int] = []
    real = bench_act._roundtrips

    async def counted(redis: object, count: int, *rest: int) -> list[float]:
        blocks.append(count)
        return await real(redis, count, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(bench_act, "_roundtrips", counted)
    out = io.StringIO()
    assert bench_act.run(tables=3, acts=40, concurrency=2, redis_url=redis_url, games=GAMES, out=out) == 0
    assert blocks == [4] * bench_act.BLOCKS
    assert _bench_keys(redis_url) == 0
