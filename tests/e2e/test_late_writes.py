"""Through Discord: a finished table written again afterwards (its message
attached anew, a player's /settings me at the same time as the end) still hands
out its whole log with /table log, and `gametable replay` checks it out."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.ops import cli
from storage.records import TableStatus
from tests.e2e.games import start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker
from tests.e2e.test_reading import files_of, jsonl
from tests.support.minigame import HIGH_CARD

GAMES = {"high-card": HIGH_CARD}


@pytest.fixture
def games() -> dict[str, Any]:
    return GAMES


async def test_the_log_of_a_finished_table_written_again_still_replays(
    h: DiscordHarness, maker: BotMaker, tmp_path: Path
) -> None:
    table = await start_table(h, maker, "high-card", 2)
    service, table_id = maker.bot.service, table.table_id
    record = await service.get(table_id)
    while record.status is TableStatus.PLAYING:
        user = record.seats[service.awaited(record)[0]].user_id
        assert user is not None
        record = (await service.act(table_id, user, service.choices(record, user)[0].key)).table
    await maker.bot.announcer.deliver(table_id)
    await h.settle()
    name = f"log-{table_id}.jsonl"
    before = jsonl(files_of(await h.slash(table.users[1], "table log", {"table": table_id}))[name])

    saved = await h.slash(table.users[0], "settings me", {"notify": "turn"})
    assert saved.ephemeral and (saved.content or "").startswith("Saved:")
    await service.attach(table_id, message_id=table.message.id)
    await service.attach(table_id, thread_id=record.thread_id or 1)

    sent = files_of(await h.slash(table.users[1], "table log", {"table": table_id}))[name]
    assert jsonl(sent) == before and len(before) > 5
    path = tmp_path / name
    path.write_bytes(sent)
    out = io.StringIO()
    assert cli.main(["replay", str(path)], games=GAMES, stdout=out) == 0, out.getvalue()
    assert "The game checks out." in out.getvalue()
