"""The one path of every change to a table: load it, let the change check who
may do what and play its moves, let the bots move and settle the end of the
game or the next deadline, then save with compare-and-set on ``version``
together with the log entries. A lost race is simply re-run on the fresh table,
where the same checks decide again, so no action is ever applied twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.service import clocks, undo
from bot.service.bots import bot_move, bot_optional, pace
from bot.service.errors import NotSeated, TableBusy, TableDamaged, TableError, WrongStatus
from bot.service.news import news_of
from bot.service.reading import Reading, awaited_seats
from bot.service.shuffle import unsealed
from engines.ai import optional_seats
from engines.core import Choice, Engine, Event, IllegalAction, Seat
from storage.records import LogEntry, TableRecord, TableStatus
from storage.store import VersionConflict

BOT_STEPS = 400
# Bot thinking per change: longer chains of bot moves go on from the deadline
# sweeper, so a change stays short and rarely loses a compare-and-set race.
BOT_SECONDS = 3.0
_T = TypeVar("_T")
RETRIES = 10
HEADLINE_LIMIT = 120  # a table list shows a line of it
# A person's move at a table without bots is one engine step, well under a
# millisecond: it runs on the event loop, since handing it to a worker thread
# and back costs more CPU than the step itself. A state this large (a big
# custom deck to validate) still goes to the thread.
INLINE_STATE_LIMIT = 64 * 1024


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


class Changes(Reading):
    """Changing a table, the bots' moves included: the machinery every action shares."""

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
        # A table without bots skips the search for a bot to move (asking the game
        # for its prompts twice), most of this method's cost on a person's move.
        steps = BOT_STEPS if record.has_bots else 0
        for step in range(steps):
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
        return awaited_seats(play.engine, play.state)

    def _headline(self, play: _Play) -> str:
        """The game's public headline, for table lists (which read no game state)."""
        if play.state is None or play.record.status is not TableStatus.PLAYING:
            return ""
        return self.text(play.record, play.engine.headline(play.state))[:HEADLINE_LIMIT]

    def _work(
        self,
        record: TableRecord,
        change: Callable[[_Play], None],
        kind: str,
        log: bool,
        taken: BaseModel | None = None,
    ) -> tuple[_Play, list[Seat]]:
        """Load the state (or use ``taken``, the kept one this change owns now),
        make the change and dump the state again; returns the play and the seats
        newly waited for."""
        engine = self.engine(record.game)
        try:
            state = taken
            if state is None and record.state is not None:
                state = engine.load_state(record.state)
        except (ValidationError, ValueError) as error:
            raise _Unreadable(f"its game state cannot be read ({str(error).splitlines()[0][:100]})") from None
        play = _Play(record=record, engine=engine, state=state)
        before = self._waiting(play)
        clocks.inherit(record, before)
        play.events += undo.forget(record, kind, self.clock())
        change(play)
        play.events += undo.moved_on(record, play.entries)
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
        recent = True
        for _ in range(RETRIES):
            # The table as this process saved it last, if it did: no read. The save
            # refuses it if anyone wrote since; a refusal of the change itself is
            # checked on a fresh read, as it may be due to a newer write elsewhere.
            cached = recent and self.store.recent.holds(table_id)
            record = await self.get(table_id, to_change=cached)
            try:
                if quick and _stepping_only(record):
                    # On the event loop nobody else can touch the kept state
                    # meanwhile, so the change takes it rather than reading the
                    # text again; it is kept anew only once saved.
                    play, newly = self._work(record, change, kind, log, self._take(record))
                else:
                    # The engine's work (bots may make hundreds of moves) runs in a
                    # worker thread, so no table can hold up the bot's event loop.
                    play, newly = await asyncio.to_thread(self._work, record, change, kind, log)
            except _Unreadable as unreadable:
                raise TableDamaged(await self.store.damaged(record.id, unreadable.reason)) from None
            except TableError:
                if not cached:
                    raise
                recent = False
                continue
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
    return not record.has_bots and len(record.state or "") < INLINE_STATE_LIMIT


def need(record: TableRecord, status: TableStatus, message: str) -> None:
    if record.status is not status:
        if not record.status.active:
            raise WrongStatus("This table is over.")
        raise WrongStatus(message)


def seated(record: TableRecord, user_id: int) -> Seat:
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotSeated("You are not seated at this table.")
    return seat


def adjudicate(call: Callable[[], _T]) -> _T:
    """Run an engine call, turning its refusal into a table refusal."""
    try:
        return call()
    except IllegalAction as refusal:
        raise TableError(refusal.reason) from None
