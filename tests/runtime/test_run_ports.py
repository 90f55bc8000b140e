"""`gametable run` with a web or metrics port it cannot serve: one sentence, no trace."""

from __future__ import annotations

import socket

import pytest

from bot.ops.settings import Settings


@pytest.mark.parametrize("variable", ["WEB_PORT", "METRICS_PORT"])
async def test_a_port_that_cannot_be_served_stops_run_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch, redis_url: str, variable: str
) -> None:
    from bot.app.application import run_bot

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        settings = Settings(discord_token="x", redis_url=redis_url, **{variable.lower(): port})
        with pytest.raises(SystemExit) as stopped:
            await run_bot(settings)
    finally:
        taken.close()
    said = str(stopped.value)
    assert said.startswith("Cannot serve ") and f"127.0.0.1:{port}: " in said and "\n" not in said
