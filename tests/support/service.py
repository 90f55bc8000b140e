"""The table service the runtime tests drive: High Card on a real Redis store."""

from __future__ import annotations

from bot.service.tables import Player, TableService
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")


def high_card_service(store: TableStore, clock: Clock) -> TableService:
    return TableService(store, clock=clock, turn_timeout=60, games={"high-card": HIGH_CARD})


async def high_card_table(
    service: TableService, *players: Player, channel: int = 100, start: bool = True
) -> str:
    """A table with these players seated (the first hosts), started unless told otherwise."""
    record = await service.create("high-card", players[0], channel_id=channel, seed=3)
    for player in players[1:]:
        await service.join(record.id, player)
    if start:
        await service.start(record.id, players[0].user_id)
    return record.id
