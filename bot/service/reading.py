"""Reading a table: its record, its game state (the last ones loaded kept) and
what each seat may see and do. The base of the table service: every other part
of it reads tables this way."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.service.errors import TableDamaged, UnknownGame, WrongStatus
from bot.service.policy import no_such_table
from engines.core import Choice, Engine, Prompt, Result, Seat, View, quote, render_seats
from engines.registry import GAMES
from storage.damage import DamagedTable
from storage.recent import SizedCache
from storage.records import TableRecord, TableStatus
from storage.store import TableStore

# Loaded game states kept (see Reading.state): as many as the table records the
# store keeps (storage.recent), so a process that takes its busy tables in turn
# finds every one kept rather than reading each state again; 10-45 KB each as
# objects. And at most 8 MB of their JSON in all: a custom deck of 5,000 cards
# makes a state of half a megabyte.
STATES_KEPT = 1024
STATES_CHARACTERS = 8 * 1024 * 1024


class Reading:
    """The table service's settings, and its reads of tables."""

    def __init__(
        self,
        store: TableStore,
        *,
        clock: Callable[[], float] = time.time,
        turn_timeout: float = 24 * 3600.0,
        games: Mapping[str, Engine[Any, Any]] = GAMES,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store = store
        self.clock = clock
        # How a bot's decision waits out the rest of its budget (see bots.pace).
        self.sleep = sleep
        # Called (on the event loop) when a save leaves a table due at once — bots
        # still to move after one change's budget — so the sweeper goes on now
        # rather than at its next round.
        self.on_due: Callable[[], None] = lambda: None
        self.turn_timeout = turn_timeout
        self.games = games
        self._states: SizedCache[tuple[str, int], tuple[str, BaseModel]] = SizedCache(
            STATES_KEPT, STATES_CHARACTERS, lambda kept: len(kept[0])
        )

    def engine(self, game: str) -> Engine[Any, Any]:
        try:
            return self.games[game]
        except KeyError:
            raise UnknownGame(f"There is no game called {quote(game)}. Try /games.") from None

    async def get(self, table_id: str, *, to_change: bool = False) -> TableRecord:
        """The table; ``to_change``: for a change that saves it (see
        :meth:`TableStore.get_to_change`: maybe as this process last wrote it)."""
        try:
            record = await (self.store.get_to_change(table_id) if to_change else self.store.get(table_id))
        except DamagedTable as damage:
            raise TableDamaged(damage) from None
        if record is None:
            raise no_such_table(table_id)
        return record

    def state(self, record: TableRecord) -> BaseModel:
        """The table's game state, to read only: one rendering asks for it many
        times, so the last states loaded are kept. A person's move at a table
        without bots takes the kept state as its own (see :meth:`_take`), so
        read what you need from it before your next ``await``."""
        if record.state is None:
            raise WrongStatus("This table has not started yet.")
        key = (record.id, record.version)
        kept = self._states.get(key)
        if kept is not None and kept[0] == record.state:
            return kept[1]
        try:
            state = self.engine(record.game).load_state(record.state)
        except (ValidationError, ValueError):
            raise TableDamaged(DamagedTable(record.id, "its game state cannot be read", {})) from None
        self._keep(record, state)
        return state

    def _take(self, record: TableRecord) -> BaseModel | None:
        """The kept state of ``record``'s very version, out of the cache, for a
        change to make its own; ``None`` when none is kept."""
        kept = self._states.pop((record.id, record.version), None)
        return kept[1] if kept is not None and kept[0] == record.state else None

    def _keep(self, record: TableRecord, state: BaseModel) -> None:
        assert record.state is not None
        self._states.keep((record.id, record.version), (record.state, state))

    def view(self, record: TableRecord, user_id: int | None) -> View:
        """What ``user_id`` may see (the public view for a spectator or None)."""
        seat = None if user_id is None else record.seat_of(user_id)
        return self.engine(record.game).view(self.state(record), seat)

    def prompts(self, record: TableRecord) -> list[Prompt]:
        if record.status is not TableStatus.PLAYING:
            return []
        return self.engine(record.game).prompts(self.state(record))

    def choices(self, record: TableRecord, user_id: int) -> list[Choice]:
        seat = record.seat_of(user_id)
        if seat is None or record.status is not TableStatus.PLAYING:
            return []
        return self.engine(record.game).legal_actions(self.state(record), seat)

    def result(self, record: TableRecord) -> Result | None:
        if record.state is None:
            return None
        return self.engine(record.game).result(self.state(record))

    def awaited(self, record: TableRecord) -> list[Seat]:
        """Seats the game is waiting for, in order, without repeats."""
        if record.status is not TableStatus.PLAYING:
            return []
        return awaited_seats(self.engine(record.game), self.state(record))

    @staticmethod
    def names(record: TableRecord) -> Callable[[Seat], str]:
        def name(seat: Seat) -> str:
            return record.seats[seat].name if 0 <= seat < len(record.seats) else f"Seat {seat + 1}"

        return name

    def text(self, record: TableRecord, text: str) -> str:
        """Engine text with seat references replaced by names."""
        return render_seats(text, self.names(record))


def awaited_seats(engine: Engine[Any, Any], state: BaseModel) -> list[Seat]:
    return list(dict.fromkeys(p.seat for p in engine.prompts(state) if p.awaited))
