"""Undo with consent, at the service: the rule (no chance drawn, nothing shown,
nothing since), and a finished game with a move taken back still replays."""

from __future__ import annotations

import json

import pytest

from bot.service.errors import TableError
from bot.service.replay import replay
from bot.service.tablelog import log_files
from bot.service.tables import TableService
from bot.service.undo import draws
from bot.service.undo_requests import ask_undo, vote_undo
from engines.core import Rng
from storage import keys
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.service import ANN, BOB, high_card_service
from tests.support.service import high_card_table as started


@pytest.fixture
def service(store: TableStore) -> TableService:
    return high_card_service(store, Clock(1000.0))


def test_draws_are_counted_wherever_the_state_keeps_its_rng() -> None:
    nested = {"a": [Rng(seed=1, draws=3)], "b": (Rng(seed=2, draws=4),)}
    assert draws(nested) == 7 and draws("text") == 0


async def test_a_move_taken_back_is_skipped_by_replay_and_the_game_still_checks_out(
    service: TableService,
) -> None:
    table_id = await started(service, ANN, BOB)
    record = await service.get(table_id)
    card = service.view(record, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    await service.act(table_id, ANN.user_id, f"play:{card}")
    with pytest.raises(TableError, match="cannot be taken back"):
        await ask_undo(service, table_id, BOB.user_id)
    asked = (await ask_undo(service, table_id, ANN.user_id)).table
    assert asked.undo is not None and asked.undo.asked_at is not None
    done = (await vote_undo(service, table_id, BOB.user_id, asked.undo.asked_at, True)).table
    assert done.state == record.state
    while done.status is TableStatus.PLAYING:
        [seat] = service.awaited(done)[:1]
        user = done.seats[seat].user_id
        assert user is not None
        done = (await service.act(table_id, user, service.choices(done, user)[-1].key)).table
    entries = await service.store.log(table_id)
    assert [e.kind for e in entries].count("undo") == 1
    full = log_files(done, HIGH_CARD, entries)
    assert replay(full.jsonl, {"high-card": HIGH_CARD}).moves > 0


async def test_the_state_before_a_move_is_kept_beside_the_record_until_the_window_closes(
    service: TableService,
) -> None:
    table_id = await started(service, ANN, BOB)
    record = await service.get(table_id)
    card = service.view(record, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    done = (await service.act(table_id, ANN.user_id, f"play:{card}")).table
    redis, key = service.store.redis, keys.table(table_id)
    assert done.undo is not None and record.state is not None
    assert await redis.hget(key, "undo") == record.state.encode()
    assert "state" not in json.loads(await redis.hget(key, "meta"))["undo"]
    assert (await service.get(table_id)).undo == done.undo
    [seat] = service.awaited(done)[:1]
    user = done.seats[seat].user_id
    assert user is not None
    after = (await service.act(table_id, user, service.choices(done, user)[0].key)).table
    kept = await redis.hget(key, "undo")
    if after.undo is None:
        assert kept is None
    else:  # the second move may be taken back in its turn
        assert done.state is not None and kept == done.state.encode() and after.undo.version == after.version
