"""The lobby and the seats: making a table, joining, bots taking seats, leaving,
starting, removing a seat, abandoning, and where the table is shown."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.service import clocks, damaged, seating
from bot.service.changes import RETRIES, Changes, Outcome, _Play, adjudicate, need, seated
from bot.service.errors import (
    NotHost,
    StaleClick,
    TableBusy,
    TableDamaged,
    TableError,
    TableFull,
    UnknownGame,
    WrongStatus,
)
from bot.service.news import news_of
from bot.service.shuffle import sealed
from engines.core import Event, Seat, seat_ref
from storage.damage import DamagedTable
from storage.records import BotLevel, LogEntry, SeatRecord, TableRecord, TableStatus
from storage.store import STORAGE_FAULTS, VersionConflict

# One logger name for the whole table service, whichever part of it logs.
log = logging.getLogger("bot.service.tables")
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ABANDONED = "The table was abandoned."


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


class Lobby(Changes):
    """A table's life before and around play: who sits at it, and its start and end."""

    async def create(
        self,
        game: str,
        host: Player,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_timeout: float | None = None,
        seed: int | None = None,
        rated: bool = False,
        bank: float = 0.0,
        increment: float = 0.0,
        hand_over_after: int = 0,
        prefs: Mapping[str, Any] | None = None,
    ) -> TableRecord:
        engine = self.engine(game)
        # A custom deck in the options may be large: validate it off the event loop.
        parsed = await asyncio.to_thread(adjudicate, lambda: engine.parse_options(options))
        now = self.clock()
        for _ in range(RETRIES):
            record = TableRecord(
                id="".join(secrets.choice(_ID_ALPHABET) for _ in range(8)),
                game=game,
                options=parsed.model_dump(mode="json"),
                host_id=host.user_id,
                seats=[SeatRecord(user_id=host.user_id, name=host.name)],
                guild_id=guild_id,
                channel_id=channel_id,
                created_at=now,
                updated_at=now,
                # 128 bits: the seed's published hash must not be reversible by trying seeds.
                seed=seed if seed is not None else secrets.randbits(128),
                turn_timeout=turn_timeout or self.turn_timeout,
                rated=rated,
            )
            clocks.configure(record.clocks, bank, increment, hand_over_after)
            if prefs:
                record.clocks.prefs[host.user_id] = dict(prefs)  # the host's own /settings me
            try:
                return await self.store.create(record)
            except VersionConflict:
                continue
        raise TableBusy("Could not find a free table id; please try again.")

    async def open_seated(
        self,
        table_id: str,
        game: str,
        host_id: int,
        players: list[Player],
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_timeout: float | None = None,
        rated: bool = False,
        tournament_id: str | None = None,
        seed: int | None = None,
    ) -> TableRecord:
        """Create a table with everyone already seated and start it — under a
        fixed id, so calling this again (after a crash), or several seaters at
        once, find the table made the first time and start it if need be, never
        making a second one nor failing on a start another seater made."""
        engine = self.engine(game)
        parsed = adjudicate(lambda: engine.parse_options(options))
        now = self.clock()
        # fmt: off
        record = TableRecord(
            id=table_id, game=game, options=parsed.model_dump(mode="json"), host_id=host_id,
            seats=[SeatRecord(user_id=p.user_id, name=p.name) for p in players], guild_id=guild_id,
            channel_id=channel_id, created_at=now, updated_at=now,
            seed=seed if seed is not None else secrets.randbits(48),
            turn_timeout=turn_timeout or self.turn_timeout, rated=rated, tournament_id=tournament_id,
        )
        # fmt: on
        with contextlib.suppress(VersionConflict):  # made before a restart: carry on with that one
            await self.store.create(record)
        record = await self.get(table_id)
        if record.status is TableStatus.LOBBY:
            try:
                record = (await self.start(table_id, record.host_id)).table
            except WrongStatus:
                # Another seater started it meanwhile (it may even be over): that start stands.
                record = await self.get(table_id)
                if record.status is TableStatus.LOBBY:
                    raise
        return record

    async def join(
        self,
        table_id: str,
        player: Player,
        drawn: seating.Drawn | None = None,
        prefs: Mapping[str, Any] | None = None,
    ) -> Outcome:
        def join(play: _Play) -> None:
            record = play.record
            seating.check_drawn(record, drawn, "join")
            need(record, TableStatus.LOBBY, "This table has already started.")
            if record.seat_of(player.user_id) is not None:
                raise TableError("You are already at this table.")
            _, most = play.engine.seat_range(play.engine.parse_options(record.options))
            if len(record.seats) >= most:
                raise TableFull(f"This table is full ({most} seats).")
            record.seats.append(SeatRecord(user_id=player.user_id, name=player.name, since=record.version))
            if prefs:
                record.clocks.prefs[player.user_id] = dict(prefs)  # their own /settings me
            play.events.append(Event(text=f"{seat_ref(len(record.seats) - 1)} joins the table."))

        return await self._change(table_id, join, kind="join", seat_of=player.user_id)

    async def add_bot(
        self,
        table_id: str,
        user_id: int,
        drawn: seating.Drawn | None = None,
        level: BotLevel = "normal",
        expected: int | None = None,
    ) -> Outcome:
        """Seat a bot. ``expected``: the version the asking command saw (as a
        button carries its own); a table changed since is a :class:`StaleClick`,
        so two identical commands at once seat one bot."""

        def add_bot(play: _Play) -> None:
            record = play.record
            seating.check_drawn(record, drawn, "bot")
            need(record, TableStatus.LOBBY, "Bots can only be added before the game starts.")
            _host(record, user_id)
            if expected is not None and record.version != expected:
                raise StaleClick(record)
            seating.check_one_bot(record, drawn)
            _, most = play.engine.seat_range(play.engine.parse_options(record.options))
            if len(record.seats) >= most:
                raise TableFull(f"This table is full ({most} seats).")
            # The lowest free number: after a removal, names stay distinct.
            number = next(n for n in itertools.count(1) if f"Bot {n}" not in {s.name for s in record.seats})
            seat = SeatRecord(user_id=None, name=f"Bot {number}", since=record.version, level=level)
            record.seats.append(seat)
            play.events.append(Event(text=f"{seat_ref(len(record.seats) - 1)} ({level} bot) takes a seat."))

        return await self._change(table_id, add_bot, kind="add-bot", seat_of=user_id)

    async def leave(self, table_id: str, user_id: int, drawn: seating.Drawn | None = None) -> Outcome:
        """Leave a lobby, or hand a seat in a running game to a bot. A host
        who leaves passes hosting to the next person at the table."""

        def leave(play: _Play) -> None:
            record = play.record
            seating.check_drawn(record, drawn, "leave")
            seat = seated(record, user_id)
            if record.status is TableStatus.LOBBY:
                play.events.append(Event(text=f"{record.seats[seat].name} leaves the table."))
                play.events += seating.pass_hosting(record, seat)
                del record.seats[seat]
                if not record.user_ids:
                    record.status = TableStatus.ABANDONED
            elif record.status is TableStatus.PLAYING:
                name = record.seats[seat].name
                play.events.append(Event(text=f"{name} leaves; a bot plays their seat from now on."))
                play.events += seating.pass_hosting(record, seat)
                record.seats[seat] = SeatRecord(user_id=None, name=f"{name} (bot)", since=record.version)
                if not record.user_ids:
                    record.status = TableStatus.ABANDONED
                else:
                    self._advance(play)
            else:
                raise WrongStatus("This table is over.")

        outcome = await self._change(table_id, leave, kind="leave", seat_of=user_id)
        await self._forget(table_id, user_id)
        return outcome

    async def _forget(self, table_id: str, user_id: int) -> None:
        """Drop the table from the user's index — after a saved change, so a failure
        here must not undo the answer: a stale index entry is re-checked by every reader."""
        try:
            await self.store.forget_user(table_id, user_id)
        except STORAGE_FAULTS:
            log.warning("table %s: user %s left it, but not yet the user index", table_id, user_id)

    async def start(self, table_id: str, user_id: int, drawn: seating.Drawn | None = None) -> Outcome:
        def start(play: _Play) -> None:
            record = play.record
            seating.check_drawn(record, drawn, "start")
            need(record, TableStatus.LOBBY, "This table has already started.")
            _host(record, user_id)
            engine = play.engine
            options = engine.parse_options(record.options)
            adjudicate(lambda: engine.check_players(len(record.seats), options))
            play.state = adjudicate(lambda: engine.setup(len(record.seats), options, record.seed))
            record.status = TableStatus.PLAYING
            seating.remember_rated_players(record)
            begun = [Event(text=f"The game of {engine.info.title} begins."), sealed(record)]
            play.events.extend(begun)
            play.entries.append(self._entry(record, "start", begun))
            self._advance(play)

        return await self._change(table_id, start, kind="start", seat_of=user_id)

    async def remove_seat(
        self, table_id: str, user_id: int, seat: Seat, drawn: seating.Drawn | None = None
    ) -> Outcome:
        """(Host, before the start) Remove a bot or a player from the lobby.
        Seats are named by position, so a removal chosen on another version of
        the lobby is a :class:`StaleClick`: the positions may have moved."""
        removed: list[int | None] = []

        def remove_seat(play: _Play) -> None:
            record = play.record
            seating.check_removal(record, user_id, drawn)
            if drawn is not None and drawn.version != record.version:
                raise StaleClick(record)
            seating.check_seat(record, user_id, seat)
            gone = record.seats.pop(seat)
            removed[:] = [gone.user_id]
            play.events.append(Event(text=f"{gone.name} was removed from the table by the host."))

        outcome = await self._change(table_id, remove_seat, kind="remove-seat", seat_of=user_id)
        if removed and removed[0] is not None:
            await self._forget(table_id, removed[0])
        return outcome

    async def abandon(self, table_id: str, user_id: int, *, moderator: bool = False) -> Outcome:
        def abandon(play: _Play) -> None:
            _may_abandon(play.record, user_id, moderator)
            play.record.status = TableStatus.ABANDONED
            play.record.deadline = None
            play.events.append(Event(text=ABANDONED))

        try:
            return await self._change(table_id, abandon, kind="abandon", seat_of=user_id)
        except TableDamaged as unreadable:
            return await self._abandon_damaged(unreadable.damage, user_id, moderator)
        except UnknownGame:  # its rules are needed to load its state: end it without them
            return await self._abandon_uninstalled(await self.get(table_id), user_id, moderator)

    async def _abandon_uninstalled(self, record: TableRecord, user_id: int, moderator: bool) -> Outcome:
        """End a table whose game this install no longer has: the change path
        needs the game's rules to load its state, so this one saves the record
        alone, with the same checks and the same log line and news."""
        for _ in range(RETRIES):
            _may_abandon(record, user_id, moderator)
            now = self.clock()
            events = [Event(text=ABANDONED)]
            entry = self._entry(record, "abandon", events)
            news = news_of(record, events, [], user_id, partial(self.text, record))
            record.status, record.deadline, record.undo = TableStatus.ABANDONED, None, None
            record.updated_at, record.headline = now, ""
            clocks.stop_all(record)
            try:
                saved = await self.store.save(record, [entry], news)
            except VersionConflict:
                record = await self.get(record.id)
                continue
            return Outcome(table=saved, events=events, seat=saved.seat_of(user_id))
        raise TableBusy("The table is very busy right now; please try again.")

    async def _abandon_damaged(self, damage: DamagedTable, user_id: int, moderator: bool) -> Outcome:
        """End a table that cannot be read: an abandoned record with what could be
        read is written over it (the quarantined copy keeps the rest), and the
        table is told like any other change."""
        damaged.check_may_abandon(damage, user_id, moderator)
        expected, version = await self.store.damaged_version(damage.table_id)
        now = self.clock()
        record = damaged.stand_in(damage, user_id, now, self.turn_timeout, version)
        events = [Event(text=damaged.NOTICE)]
        told = [e.model_dump(mode="json") for e in events]
        entry = LogEntry(version=version + 1, at=now, kind="abandon", events=told)
        news = news_of(record, events, [], user_id, partial(self.text, record))
        try:
            saved = await self.store.replace_damaged(record, expected, [entry], news)
        except VersionConflict:
            raise TableBusy("The table changed while it was being abandoned; please try again.") from None
        await self.store.quarantine.abandoned(damage, user_id)
        return Outcome(table=saved, events=events, seat=None)

    async def attach(
        self, table_id: str, *, message_id: int | None = None, thread_id: int | None = None
    ) -> None:
        """Remember the Discord message and thread that show this table."""

        def attach(play: _Play) -> None:
            if message_id is not None:
                play.record.message_id = message_id
            if thread_id is not None:
                play.record.thread_id = thread_id

        await self._change(table_id, attach, kind="attach", log=False)


def _may_abandon(record: TableRecord, user_id: int, moderator: bool) -> None:
    if not record.status.active:
        raise WrongStatus("This table is already over.")
    if record.host_id != user_id and not moderator:
        raise NotHost("Only the host or a moderator with Manage Server can abandon this table.")


def _host(record: TableRecord, user_id: int) -> None:
    if record.host_id != user_id:
        raise NotHost("Only the table's host can do that.")
