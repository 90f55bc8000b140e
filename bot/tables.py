"""TableService: a table's whole life — lobby, seats, start, act, timeouts,
abandon — platform-neutral (no discord import), used by the Discord layer and
the terminal table alike.

Every change follows one path: load the table, check who may do what, let the
engine adjudicate, then save with compare-and-set on ``version`` together with
the log entries. A lost race is simply re-run on the fresh table, where the
same checks decide again, so no action is ever applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot import absence, clocks, damaged, metrics, seating, undo
from bot.bots import bot_move, bot_optional, pace
from bot.errors import (
    NotHost,
    NotSeated,
    StaleClick,
    TableBusy,
    TableDamaged,
    TableError,
    TableFull,
    TableNotFound,
    WrongStatus,
)
from bot.news import news_of
from bot.shuffle import sealed, unsealed
from engines.ai import advancing, optional_seats
from engines.core import (
    Choice,
    Engine,
    Event,
    IllegalAction,
    Prompt,
    Result,
    Seat,
    View,
    quote,
    render_seats,
    seat_ref,
)
from engines.registry import GAMES
from storage import keys
from storage.damage import DamagedTable
from storage.records import BotLevel, LogEntry, SeatRecord, TableRecord, TableStatus
from storage.schedule import interleave
from storage.store import STORAGE_FAULTS, TableStore, VersionConflict

log = logging.getLogger(__name__)
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
BOT_STEPS = 400
# Bot thinking per change: longer chains of bot moves go on from the deadline
# sweeper, so a change stays short and rarely loses a compare-and-set race.
BOT_SECONDS = 3.0
# Moves a moderator's play-out makes at most (a whole game takes a few hundred).
PLAY_OUT_STEPS = 20_000
_T = TypeVar("_T")
RETRIES = 10
STATES_KEPT = 64  # loaded game states kept for reading (see TableService.state)
# How long the sweeper leaves a table whose timeout failed before trying again,
# so a broken table can never hold the ones behind it.
RETRY_TIMEOUT_AFTER = 300.0
SWEEP_BATCH = 16  # due tables read from each bucket of the deadline index in one round
# Reads of the list lines a finder makes before it loads every table instead: a
# line its table disagrees with is written again, so the second read agrees.
FIND_TRIES = 2
HEADLINE_LIMIT = 120  # a table list shows a line of it
# A person's move at a table without bots is one engine step, well under a
# millisecond: it runs on the event loop, since handing it to a worker thread
# and back costs more CPU than the step itself. A state this large (a big
# custom deck to validate) still goes to the thread.
INLINE_STATE_LIMIT = 64 * 1024


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


@dataclass
class Outcome:
    """What one call changed: the saved table and the events it caused, in order."""

    table: TableRecord
    events: list[Event] = field(default_factory=list)
    seat: Seat | None = None
    # Seats the game now waits for that it was not waiting for before: whom to ping.
    newly_awaited: list[Seat] = field(default_factory=list)

    @property
    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.to is None]

    def private_events(self, seat: Seat) -> list[Event]:
        return [e for e in self.events if e.to is not None and seat in e.to]


@dataclass
class _Play:
    """A table being changed inside one attempt of :meth:`TableService._change`."""

    record: TableRecord
    engine: Engine[Any, Any]
    state: BaseModel | None
    events: list[Event] = field(default_factory=list)
    entries: list[LogEntry] = field(default_factory=list)
    # Events already carried by a move's log entry.
    recorded: list[Event] = field(default_factory=list)
    # Lines for people this change unseated (a bot or a substitute took their
    # seat): events name seats, and they no longer hold one, so they are told by user.
    notices: dict[int, list[str]] = field(default_factory=dict)


class TableService:
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
        self._states: OrderedDict[tuple[str, int], tuple[str, BaseModel]] = OrderedDict()

    # ----- reading -----

    def engine(self, game: str) -> Engine[Any, Any]:
        try:
            return self.games[game]
        except KeyError:
            raise TableError(f"There is no game called {quote(game)}. Try /games.") from None

    async def get(self, table_id: str) -> TableRecord:
        try:
            record = await self.store.get(table_id)
        except DamagedTable as damage:
            raise TableDamaged(damage) from None
        if record is None:
            raise TableNotFound(f"There is no table {quote(table_id)}.")
        return record

    def state(self, record: TableRecord) -> BaseModel:
        """The table's game state, to read only: one rendering asks for it many
        times, so the last states loaded are kept (the copy a change makes is its own)."""
        if record.state is None:
            raise WrongStatus("This table has not started yet.")
        key = (record.id, record.version)
        kept = self._states.get(key)
        if kept is not None and kept[0] == record.state:
            self._states.move_to_end(key)
            return kept[1]
        try:
            state = self.engine(record.game).load_state(record.state)
        except (ValidationError, ValueError):
            raise TableDamaged(DamagedTable(record.id, "its game state cannot be read", {})) from None
        self._keep(record, state)
        return state

    def _keep(self, record: TableRecord, state: BaseModel) -> None:
        assert record.state is not None
        self._states[(record.id, record.version)] = (record.state, state)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

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
        return _awaited_seats(self.engine(record.game), self.state(record))

    @staticmethod
    def names(record: TableRecord) -> Callable[[Seat], str]:
        def name(seat: Seat) -> str:
            return record.seats[seat].name if 0 <= seat < len(record.seats) else f"Seat {seat + 1}"

        return name

    def text(self, record: TableRecord, text: str) -> str:
        """Engine text with seat references replaced by names."""
        return render_seats(text, self.names(record))

    async def find(self, user_id: int, channel_id: int | None, table_id: str | None = None) -> TableRecord:
        """The table a command means: the one named, else the user's one table in
        this channel (or thread), else the user's one table anywhere, else this
        channel's one table.

        The lists' lines decide (one round trip each, whatever their length) and
        only the table chosen is loaded — two when the lines say the choice is
        ambiguous, to be sure before refusing. A line its table no longer agrees
        with is written again and the lines read once more; should they still
        disagree, the tables themselves decide (:meth:`_find_loaded`)."""
        if table_id:
            return await self.get(table_id.strip().lower())
        for _ in range(FIND_TRIES):
            found = await self._find_listed(user_id, channel_id)
            if found is not None:
                return found
        return await self._find_loaded(user_id, channel_id)

    async def _find_listed(self, user_id: int, channel_id: int | None) -> TableRecord | None:
        """:meth:`find` by the list lines; ``None`` when a line proved stale."""
        mine = f"user:{user_id}"
        found = await self.store.lookup(mine, channel=channel_id)
        if channel_id is not None and found.matches:
            here = await self.store.confirm(mine, found.matches, channel=channel_id)
            return None if here is None else _the_one(here)
        if found.total:
            tables = await self.store.confirm(mine, found.first)
            return _the_one(tables) if tables is not None and len(tables) == min(found.total, 2) else None
        if channel_id is None:
            raise TableNotFound("You are not at any table. Create one with /table create.")
        scope = f"channel:{channel_id}"
        listed = await self.store.lookup(scope)
        if not listed.total:
            damaged = await self.store.quarantine.in_channel(channel_id)
            if len(damaged) == 1:
                await self.get(damaged[0])  # says that it cannot be read (and lets it be abandoned)
            raise TableNotFound("You are not at any table. Create one with /table create.")
        tables = await self.store.confirm(scope, listed.first)
        if tables is None or len(tables) != min(listed.total, 2):
            return None
        if len(tables) == 1:
            return tables[0]
        raise TableNotFound("You are not at any table. Create one with /table create.")

    async def _find_loaded(self, user_id: int, channel_id: int | None) -> TableRecord:
        """:meth:`find` from the tables themselves, every one of the user's (and
        the channel's) loaded: for when a list line turned out stale."""
        mine = await self.store.of_user(user_id)
        here = [t for t in mine if channel_id is not None and channel_id in (t.channel_id, t.thread_id)]
        for candidates in (here, mine):
            if candidates:
                return _the_one(candidates)
        if channel_id is not None:
            in_channel = await self.store.in_channel(channel_id)
            if len(in_channel) == 1:
                return in_channel[0]
            damaged = await self.store.quarantine.in_channel(channel_id)
            if not in_channel and len(damaged) == 1:
                await self.get(damaged[0])  # says that it cannot be read (and lets it be abandoned)
        raise TableNotFound("You are not at any table. Create one with /table create.")

    async def find_lobby(self, channel_id: int | None, table_id: str | None = None) -> TableRecord:
        """The table someone means to join: the one named, else this channel's
        one open lobby — found by the channel's list lines, only it loaded (see
        :meth:`find`)."""
        if table_id:
            return await self.get(table_id.strip().lower())
        scope = f"channel:{channel_id or 0}"
        lobbies: list[TableRecord] | None = None
        for _ in range(FIND_TRIES):
            found = await self.store.lookup(scope, status=TableStatus.LOBBY)
            lobbies = await self.store.confirm(scope, found.matches, status=TableStatus.LOBBY)
            if lobbies is not None:
                break
        if lobbies is None:  # the lines kept disagreeing: read the tables themselves
            every = await self.store.in_channel(channel_id or 0)
            lobbies = [t for t in every if t.status is TableStatus.LOBBY]
        if len(lobbies) == 1:
            return lobbies[0]
        if lobbies:
            raise TableError("Several tables are open here — pick one with the `table` option.")
        raise TableNotFound("There is no open table here to join. Start one with /table create.")

    # ----- the lobby -----

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
        parsed = await asyncio.to_thread(_adjudicate, lambda: engine.parse_options(options))
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
        fixed id, so calling this again (after a crash) finds the table made
        the first time and starts it if need be, never making a second one."""
        engine = self.engine(game)
        parsed = _adjudicate(lambda: engine.parse_options(options))
        now = self.clock()
        record = TableRecord(
            id=table_id, game=game, options=parsed.model_dump(mode="json"), host_id=host_id,
            seats=[SeatRecord(user_id=p.user_id, name=p.name) for p in players], guild_id=guild_id,
            channel_id=channel_id, created_at=now, updated_at=now,
            seed=seed if seed is not None else secrets.randbits(48),
            turn_timeout=turn_timeout or self.turn_timeout, rated=rated, tournament_id=tournament_id,
        )
        with contextlib.suppress(VersionConflict):  # made before a restart: carry on with that one
            await self.store.create(record)
        record = await self.get(table_id)
        if record.status is TableStatus.LOBBY:
            record = (await self.start(table_id, record.host_id)).table
        return record

    async def play_out(self, table_id: str) -> Outcome:
        """(Moderator) Finish a table: every seat it waits for plays quick moves
        (the game's own rollout policy, as a bot's simulated games do) to the end.

        Default moves alone would not do: in several games the default move
        (pass, keep the hand) never ends the game. The moves are seeded from the
        table's seed, so the same table plays out the same way, and each is
        logged with its action, so a played-out game still replays from its log."""

        def play_out(play: _Play) -> None:
            _need(play.record, TableStatus.PLAYING, "This table is not in play.")
            engine, state = play.engine, play.state
            rng = random.Random(f"{play.record.seed}:{play.record.version}:play-out")
            for _ in range(PLAY_OUT_STEPS):
                waiting = _awaited_seats(engine, state) if state is not None else []
                if state is None or engine.result(state) is not None or not waiting:
                    break
                seat = waiting[0]
                choices = advancing(engine.legal_actions(state, seat))
                action = engine.rollout_choice(state, seat, choices, rng).action if choices else None
                if action is None:
                    action = engine.default_action(state, seat)
                transition = engine.apply(state, seat, action, in_place=True)
                state = transition.state
                events = [Event(text=f"The table played for {seat_ref(seat)}."), *transition.events]
                self._record(play, seat, action, transition.state, events, kind="timeout")
            self._advance(play)

        return await self._change(table_id, play_out, kind="play-out")

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
            _need(record, TableStatus.LOBBY, "This table has already started.")
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
        self, table_id: str, user_id: int, drawn: seating.Drawn | None = None, level: BotLevel = "normal"
    ) -> Outcome:
        def add_bot(play: _Play) -> None:
            record = play.record
            seating.check_drawn(record, drawn, "bot")
            _need(record, TableStatus.LOBBY, "Bots can only be added before the game starts.")
            _host(record, user_id)
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
            seat = _seated(record, user_id)
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
            _need(record, TableStatus.LOBBY, "This table has already started.")
            _host(record, user_id)
            engine = play.engine
            options = engine.parse_options(record.options)
            _adjudicate(lambda: engine.check_players(len(record.seats), options))
            play.state = _adjudicate(lambda: engine.setup(len(record.seats), options, record.seed))
            record.status = TableStatus.PLAYING
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
            record = play.record
            if not record.status.active:
                raise WrongStatus("This table is already over.")
            if record.host_id != user_id and not moderator:
                raise NotHost("Only the host or a moderator with Manage Server can abandon this table.")
            record.status = TableStatus.ABANDONED
            record.deadline = None
            play.events.append(Event(text="The table was abandoned."))

        try:
            return await self._change(table_id, abandon, kind="abandon", seat_of=user_id)
        except TableDamaged as unreadable:
            return await self._abandon_damaged(unreadable.damage, user_id, moderator)

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

    # ----- play -----

    async def act(self, table_id: str, user_id: int, key: str, version: int | None = None) -> Outcome:
        """Play the legal choice ``key`` for the user's seat.

        ``version`` is the table version the user saw (a button's). A click made
        on an older version still counts when the seat has not acted since and
        the very same choice is still legal — a response window is open to
        several seats, and one seat's answer must not void the others' buttons.
        Otherwise it is a :class:`StaleClick`.
        """

        def act(play: _Play) -> None:
            record, engine = play.record, play.engine
            _need(record, TableStatus.PLAYING, "This table is not in play.")
            clocks.check_running(record)
            seat = _seated(record, user_id)
            try:
                choice = self._current_choice(play, seat, key, version)
            except TableError:
                metrics.refused(record.game)
                raise
            # The state before the move is the text it was loaded from: no second dump.
            assert record.state is not None  # a game in play has a state
            before = (record.state, undo.draws(play.state), dict(record.acted_at))
            transition = _adjudicate(
                lambda: engine.apply(play.state, seat, choice.action, in_place=True, legal=True)
            )
            self._record(play, seat, choice.action, transition.state, transition.events, kind="act")
            play.events += absence.acted(record, seat, self.clock())
            # Reordering one's hand gives the bots nothing new to weigh.
            self._advance(play, optional=not choice.idle)
            undo.offer(record, seat, *before, play.state, play.entries, play.events)

        started = time.perf_counter()
        outcome = await self._change(table_id, act, kind="act", seat_of=user_id, quick=True)
        metrics.saved(outcome.table.game, time.perf_counter() - started)
        return outcome

    def _current_choice(self, play: _Play, seat: Seat, key: str, version: int | None) -> Choice:
        record, engine = play.record, play.engine
        try:
            choice: Choice | None = engine.choice(play.state, seat, key)
        except IllegalAction:
            choice = None
        stale = version is not None and version != record.version
        if stale and (record.acted_at.get(seat, -1) >= (version or 0) or choice is None):
            raise StaleClick(record)
        if choice is None:
            if all(p.seat != seat for p in engine.prompts(play.state)):
                raise TableError("It is not your turn.")
            raise TableError("That move is not possible right now.")
        return choice

    async def expire(self, now: float | None = None) -> list[Outcome]:
        """Play the default action for every seat whose time has run out."""
        now = self.clock() if now is None else now
        outcomes: list[Outcome] = []
        seen: set[str] = set()
        # Each round reads a batch from every bucket still able to hold due
        # entries and takes them in turns, from a bucket picked at random so
        # that processes sweeping together start apart. Every due entry read is
        # acted on, rescheduled or removed, so the next read of its bucket
        # reaches the entries behind it: none can starve the others.
        first = secrets.randbelow(keys.BUCKETS)
        buckets: set[int] | None = None  # the first round reads them all
        while buckets is None or buckets:
            found = await self.store.deadlines.due(now, SWEEP_BATCH, buckets)
            fresh = {number: [t for t in ids if t not in seen] for number, ids in found.items()}
            # A bucket whose batch was full and brought news may hold more; one
            # all seen before is left to the process that holds those tables.
            buckets = {number for number, ids in found.items() if len(ids) >= SWEEP_BATCH and fresh[number]}
            for table_id in interleave(fresh, first):
                seen.add(table_id)
                if (token := await self.store.claim_due(table_id, now)) is None:
                    continue  # another process's sweeper has it, or saw to it
                try:
                    if (outcome := await self.expire_table(table_id, now)) is not None:
                        outcomes.append(outcome)
                finally:
                    await self.store.release_due(table_id, token)
        return outcomes

    async def expire_table(self, table_id: str, now: float) -> Outcome | None:
        """Time out one table's late seats; None when there was nothing to do
        (its deadline entry is then moved to the table's real deadline, or removed)."""
        try:
            # "clock": the sweeper's own entry (reminders, a paused bot chain going
            # on); each seat it times out gets its own "timeout" entry with the move.
            return await self._change(table_id, lambda p: self._time_out(p, now), kind="clock")
        except _NotDue as early:
            await self.store.reschedule(table_id, early.deadline)  # a stale index entry
        except (TableNotFound, TableDamaged, WrongStatus):
            await self.store.reschedule(table_id, None)  # gone, quarantined or over: nothing to time out
        except Exception:
            # One broken table must not hold up every other table's timeouts.
            log.exception("timeout failed table=%s", table_id)
            await self.store.reschedule(table_id, now + RETRY_TIMEOUT_AFTER)
        return None

    def _time_out(self, play: _Play, now: float) -> None:
        record = play.record
        if record.status is not TableStatus.PLAYING:
            raise WrongStatus("This table is not in play.")
        if record.deadline is None or record.deadline > now or record.clocks.paused_at is not None:
            raise _NotDue(record.deadline)
        engine = play.engine
        play.events += clocks.remind(record, now)
        for prompt in [p for p in engine.prompts(play.state) if p.awaited]:
            seat = prompt.seat
            if record.seats[seat].bot or all(p.seat != seat for p in engine.prompts(play.state)):
                continue
            if not clocks.late(record, seat, now):
                continue
            action = engine.default_action(play.state, seat)
            transition = engine.apply(play.state, seat, action, in_place=True)
            notice = Event(text=f"{seat_ref(seat)} ran out of time; the table played for them.")
            self._record(play, seat, action, transition.state, [notice, *transition.events], kind="timeout")
            play.events += absence.timed_out(record, seat, play.notices)
            play.events += undo.forget(record, "a timeout", now)
        self._advance(play)

    # ----- internals -----

    def _record(
        self, play: _Play, seat: Seat, action: Any, state: BaseModel, events: list[Event], kind: str
    ) -> None:
        """Log one move with its action, whoever made it (a player, a bot or the
        clock), so the log alone replays the game."""
        play.state = state
        play.events.extend(events)
        play.recorded.extend(events)
        play.record.acted_at[seat] = play.record.version
        dumped = action.model_dump(mode="json") if isinstance(action, BaseModel) else action
        play.entries.append(
            LogEntry(
                version=play.record.version + 1,
                at=self.clock(),
                kind=kind,
                seat=seat,
                action=dumped,
                events=[e.model_dump(mode="json") for e in events],
            )
        )

    def _advance(self, play: _Play, optional: bool = True) -> None:
        """Let bot seats move, then settle the end of the game or the next deadline.

        A bot the game waits for moves at once. When none is waited for, each
        bot seat with an optional play (an ``anytime`` prompt) weighs it once in
        this change, so once per table version: the search compares letting
        the game go on with each play. That never loops and never leaves a
        table due again: the next weighing waits for someone else's change.
        Every decision, a weighing included, lasts its level's whole budget
        (``bots.pace``) and is made for every bot seat with such a prompt,
        whether it holds a play or not, so the table's answer time tells
        nothing of what a bot holds."""
        record, engine = play.record, play.engine
        thinking = time.perf_counter() + BOT_SECONDS
        weighed: set[Seat] = set() if optional else set(range(len(record.seats)))
        for step in range(BOT_STEPS):
            if engine.result(play.state) is not None or (step and time.perf_counter() > thinking):
                break
            assert play.state is not None  # a game in play has a state
            seed = f"{record.seed}:{record.version}:{step}"
            movers = [p.seat for p in engine.prompts(play.state) if p.awaited and record.seats[p.seat].bot]
            if movers:
                seat = movers[0]
                level = record.seats[seat].level
                started = time.perf_counter()
                choice: Choice | None = bot_move(engine, play.state, seat, level, seed)
            else:
                seats = optional_seats(engine, play.state)
                waiting = [s for s in seats if record.seats[s].bot and s not in weighed]
                if not waiting:
                    break
                seat = waiting[0]
                weighed.add(seat)
                level = record.seats[seat].level
                started = time.perf_counter()
                choice = bot_optional(engine, play.state, seat, level, seed)
            pace(level, started, self.sleep)
            if choice is not None:
                transition = engine.apply(play.state, seat, choice.action, in_place=True)
                self._record(play, seat, choice.action, transition.state, transition.events, kind="bot")
        result = engine.result(play.state)
        if result is not None:
            record.status = TableStatus.FINISHED
            clocks.stop_all(record)
            ended = [
                Event(text=f"Game over. {result.summary}".strip(), kind="result"),
                unsealed(record, engine.dump_state(play.state)),
            ]
            play.events.extend(ended)
            play.entries.append(self._entry(record, "end", ended))
        elif human := [p for p in engine.prompts(play.state) if p.awaited and not record.seats[p.seat].bot]:
            # A prompt with its own shorter limit (a timed question) gives its seat less time.
            limits: dict[Seat, float] = {}
            for p in human:
                limit = min(record.turn_timeout, p.timeout or record.turn_timeout)
                limits[p.seat] = min(limits.get(p.seat, limit), limit)
            clocks.settle(record, limits, self.clock())
        else:
            # Only bots to move (their step or time budget ran out): let the sweeper go on at once.
            record.deadline = self.clock()

    def _entry(self, record: TableRecord, kind: str, events: list[Event]) -> LogEntry:
        return LogEntry(
            version=record.version + 1,
            at=self.clock(),
            kind=kind,
            events=[e.model_dump(mode="json") for e in events],
        )

    @staticmethod
    def _waiting(play: _Play) -> list[Seat]:
        if play.state is None or play.record.status is not TableStatus.PLAYING:
            return []
        return _awaited_seats(play.engine, play.state)

    def _headline(self, play: _Play) -> str:
        """The game's public headline, for table lists (which read no game state)."""
        if play.state is None or play.record.status is not TableStatus.PLAYING:
            return ""
        return self.text(play.record, play.engine.headline(play.state))[:HEADLINE_LIMIT]

    def _work(
        self, record: TableRecord, change: Callable[[_Play], None], kind: str, log: bool
    ) -> tuple[_Play, list[Seat]]:
        """Load the state, make the change and dump the state again; returns the
        play and the seats newly waited for."""
        engine = self.engine(record.game)
        try:
            state = engine.load_state(record.state) if record.state is not None else None
        except (ValidationError, ValueError) as error:
            raise _Unreadable(f"its game state cannot be read ({str(error).splitlines()[0][:100]})") from None
        play = _Play(record=record, engine=engine, state=state)
        before = self._waiting(play)
        clocks.inherit(record, before)
        play.events += undo.forget(record, kind, self.clock())
        change(play)
        record.state = engine.dump_state(play.state) if play.state is not None else None
        record.updated_at = self.clock()
        record.headline = self._headline(play)
        if log:
            _log_own_entry(play, kind, record.updated_at)
        return play, [s for s in self._waiting(play) if s not in before]

    async def _change(
        self,
        table_id: str,
        change: Callable[[_Play], None],
        *,
        kind: str,
        log: bool = True,
        seat_of: int | None = None,
        quick: bool = False,
    ) -> Outcome:
        # ``seat_of``: the user making the change — their seat is reported, and they are
        # answered directly rather than by DM or ping. ``quick``: the change is one
        # person's move, which at a table without bots is one engine step.
        for _ in range(RETRIES):
            record = await self.get(table_id)
            try:
                if quick and _stepping_only(record):
                    play, newly = self._work(record, change, kind, log)
                else:
                    # The engine's work (bots may make hundreds of moves) runs in a
                    # worker thread, so no table can hold up the bot's event loop.
                    play, newly = await asyncio.to_thread(self._work, record, change, kind, log)
            except _Unreadable as unreadable:
                raise TableDamaged(await self.store.damaged(record.id, unreadable.reason)) from None
            news = (
                news_of(record, play.events, newly, seat_of, partial(self.text, record), play.notices)
                if log
                else None
            )
            try:
                saved = await self.store.save(record, play.entries, news)
            except VersionConflict:
                continue
            due = saved.deadline
            if saved.status is TableStatus.PLAYING and due is not None and due <= self.clock():
                self.on_due()
            if play.state is not None and saved.state is not None:
                # The state just saved is what the answer and the table message read
                # next: kept, it is not loaded again from the text it was dumped to.
                self._keep(saved, play.state)
            seat = saved.seat_of(seat_of) if seat_of is not None else None
            return Outcome(table=saved, events=play.events, seat=seat, newly_awaited=newly)
        raise TableBusy("The table is very busy right now; please try again.")


class _Unreadable(Exception):
    """The stored game state cannot be loaded; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _NotDue(Exception):
    """The deadline index ran ahead of the table: its real deadline is ``deadline``."""

    def __init__(self, deadline: float | None) -> None:
        super().__init__(f"due at {deadline}")
        self.deadline = deadline


def _log_own_entry(play: _Play, kind: str, at: float) -> None:
    """Put the change's own entry (a start, a leave, a join...) first in the log,
    with the events no move entry carries, before the entries of the moves that
    bots or timeouts made in the same save."""
    if any(entry.kind == kind for entry in play.entries):
        return
    moved = {id(event) for event in play.recorded}
    own = [e.model_dump(mode="json") for e in play.events if id(e) not in moved]
    if kind == "clock" and not own:
        return  # the sweeper only timed seats out or let bots go on: their entries say it all
    play.entries.insert(0, LogEntry(version=play.record.version + 1, at=at, kind=kind, events=own))


def _stepping_only(record: TableRecord) -> bool:
    """Whether a move at this table is one engine step: no bot seat to search
    after it, and no state so large that reading it takes long."""
    return not any(seat.bot for seat in record.seats) and len(record.state or "") < INLINE_STATE_LIMIT


def _awaited_seats(engine: Engine[Any, Any], state: BaseModel) -> list[Seat]:
    return list(dict.fromkeys(p.seat for p in engine.prompts(state) if p.awaited))


def _need(record: TableRecord, status: TableStatus, message: str) -> None:
    if record.status is not status:
        if not record.status.active:
            raise WrongStatus("This table is over.")
        raise WrongStatus(message)


def _host(record: TableRecord, user_id: int) -> None:
    if record.host_id != user_id:
        raise NotHost("Only the table's host can do that.")


def _seated(record: TableRecord, user_id: int) -> Seat:
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotSeated("You are not seated at this table.")
    return seat


def _the_one(tables: list[TableRecord]) -> TableRecord:
    """The user's one table among ``tables`` (not empty); several: they must name one."""
    if len(tables) > 1:
        raise TableError("You are at several tables — pick one with the `table` option.")
    return tables[0]


def _adjudicate(call: Callable[[], _T]) -> _T:
    """Run an engine call, turning its refusal into a table refusal."""
    try:
        return call()
    except IllegalAction as refusal:
        raise TableError(refusal.reason) from None
