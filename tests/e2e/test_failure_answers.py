"""Commands that must answer once and truly under slow storage and races:
``/table log`` when the automatic deferral came first, and two identical
``/table addbot`` sent at once."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

import bot
from bot.app.ui import answer
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, open_table
from tests.e2e.test_lobby import at_once
from tests.support.faults import slow
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


async def test_table_log_on_slow_storage_answers_once_with_its_files(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    users, message, table_id = await open_table(h, maker, players=2)
    await h.click(users[0], message, button(message, "Start"))
    # The table read stalls past the automatic deferral, which answers first.
    monkeypatch.setattr(answer, "DEFER_AFTER", 0.05)
    slow(maker.bot.service.store.redis, "hmget", 0.3, times=5)
    logged = await h.slash(users[0], "table log")
    assert logged.deferred and not logged.failed
    assert "Something went wrong" not in (logged.content or "")
    [files] = logged.followups or [logged.message]
    assert files is not None and files.ephemeral
    names = sorted(a["filename"] for a in files.data.get("attachments", []))
    assert names == sorted(f"log-{table_id}{who}.{ext}" for who in ("", "-mine") for ext in ("jsonl", "txt"))


async def test_table_log_in_time_still_says_it_is_working(h: DiscordHarness, maker: BotMaker) -> None:
    users, _, _ = await open_table(h, maker, players=2)
    logged = await h.slash(users[0], "table log")
    assert logged.deferred and not logged.failed  # deferred by the command itself, once
    assert logged.message is not None and logged.message.ephemeral


async def test_two_identical_addbot_commands_at_once_seat_one_bot(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    (ann, _bob), _, table_id = await open_table(h, maker, players=2)
    service = maker.bot.service
    real_find, both_found = service.find, asyncio.Barrier(2)

    async def find(*args: Any, **kwargs: Any) -> Any:  # both commands read the lobby before either writes
        found = await real_find(*args, **kwargs)
        await asyncio.wait_for(both_found.wait(), 5)
        return found

    monkeypatch.setattr(service, "find", find)
    answers = await at_once(h, lambda: h.slash(ann, "table addbot"), lambda: h.slash(ann, "table addbot"))
    monkeypatch.setattr(service, "find", real_find)
    seats = (await maker.bot.service.get(table_id)).seats
    assert [s.bot for s in seats] == [False, False, True], "one bot, not two"
    contents = sorted(a.content or "" for a in answers)
    assert contents[0] == f"A bot takes a seat at table {table_id}."
    assert contents[1].startswith("The table changed while you asked, so no bot was added")
    [stale] = [a for a in answers if a.content != contents[0]]
    assert stale.ephemeral and stale.message is not None and "Bot 1" in embed_text(stale.message)
    again = await h.slash(ann, "table addbot")  # asked afresh, it adds another
    assert again.content == f"A bot takes a seat at table {table_id}."
    assert [s.bot for s in (await maker.bot.service.get(table_id)).seats] == [False, False, True, True]


def test_every_answer_goes_through_the_answer_module() -> None:
    """Only ``bot/app/ui/answer.py`` acknowledges an interaction, under its lock: an
    answer sent elsewhere may come after its automatic deferral, as a second
    first response that Discord refuses."""
    root = Path(bot.__file__).parent
    direct = re.compile(r"\.response\.(send_message|defer|edit_message|send_modal)|\.followup\.|_original_")
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.py"))
        if path != root / "app" / "ui" / "answer.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if direct.search(line)
    ]
    assert found == []
