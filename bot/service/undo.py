"""Taking back a move, with everyone's consent.

The rule, from the engine contract alone: a move may be taken back when

1. it was a player's own move (``act``), and the change that saved it made no
   other move — no bot moved after it, no timeout, and the game did not end;
2. it drew no randomness: the sum of ``Rng.draws`` over every :class:`Rng` in
   the state is the same before and after it (a draw would have dealt or
   shuffled something the engine may already have revealed);
3. it revealed nothing to anyone: none of its events is private (``to`` set);
4. nothing happened since: no change other than the request, the votes,
   reminders, pause/resume and vacation — any move, timeout, seat change or
   other table change closes the window, and so does any of those changes in
   which a move was made all the same (the sweeper's change that lets a bot
   go on or play an optional move, see :func:`moved_on`);

and every other human seat accepts. One Decline refuses; so does a request
left unanswered until it lapses (a quarter of the move time, a day at most).
The state before the move is kept in the record (:class:`UndoPoint`); taking
it back restores that state and leaves an ``undo`` line in the log naming the
version undone, which replay skips.
"""

from __future__ import annotations

import enum
import types
import typing
from functools import cache
from typing import Any

from pydantic import BaseModel

from bot.service import clocks
from bot.service.errors import NotSeated, TableError
from engines.core import Event, Rng, seat_ref
from storage.records import LogEntry, TableRecord, UndoPoint

# Changes that leave a pending undo alone: its own request and votes, and clock bookkeeping,
# as long as no move is made in them (see moved_on).
KEEPS = frozenset({"undo-ask", "undo-vote", "clock", "attach", "pause", "resume", "vacation", "settings"})
# Log entries that move the game on: a move (a player's, a bot's, the clock's) or its end.
MOVED = frozenset({"act", "bot", "timeout", "end"})
LONGEST_WAIT = clocks.DAY


def draws(value: Any) -> int:
    """Every random draw made so far, wherever the state keeps its Rng."""
    if isinstance(value, Rng):
        return value.draws
    if isinstance(value, BaseModel):
        return sum(draws(getattr(value, name)) for name in _chance_fields(type(value)))
    if isinstance(value, list | tuple):
        return sum(draws(v) for v in value)
    if isinstance(value, dict):
        return sum(draws(v) for v in value.values())
    return 0


# Declared types that can never hold an Rng: a state's hands, decks and counters
# are skipped unread (walking a whole state on every move cost more than the move).
_PLAIN: frozenset[Any] = frozenset({int, float, str, bool, bytes, type(None)})


@cache
def _chance_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``model`` whose declared type may hold an Rng."""
    seen = frozenset({model})
    return tuple(name for name, field in model.model_fields.items() if _may_hold_rng(field.annotation, seen))


def _may_hold_rng(annotation: Any, seen: frozenset[type]) -> bool:
    """Whether a value of this declared type may hold an Rng; unknown types
    (``Any``, a forward reference) may."""
    if annotation in _PLAIN:
        return False
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return False
    if origin is typing.Annotated:
        return _may_hold_rng(typing.get_args(annotation)[0], seen)
    if origin is not None or isinstance(annotation, types.UnionType):
        return any(_may_hold_rng(arg, seen) for arg in typing.get_args(annotation))
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return False
        if issubclass(annotation, BaseModel):
            # A field may hold a subclass of its declared model, so those count too.
            return any(_model_may_hold_rng(kind, seen) for kind in _with_subclasses(annotation))
    return True


def _model_may_hold_rng(model: type[BaseModel], seen: frozenset[type]) -> bool:
    if issubclass(model, Rng):
        return True
    if model in seen:
        return False  # a recursive model: its fields are looked at where it first appears
    inner = seen | {model}
    return any(_may_hold_rng(field.annotation, inner) for field in model.model_fields.values())


def _with_subclasses(model: type[BaseModel]) -> list[type[BaseModel]]:
    found, todo = [], [model]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return found


def offer(
    record: TableRecord,
    seat: int,
    state_before: str,
    draws_before: int,
    acted_before: dict[int, int],
    state_after: BaseModel | None,
    entries: list[LogEntry],
    events: list[Event],
) -> None:
    """Keep the way back from a move just made, if the rule allows taking it back."""
    record.undo = None
    only_move = [e.kind for e in entries] == ["act"]
    private = any(e.to is not None for e in events)
    if only_move and not private and draws(state_after) == draws_before and record.status.active:
        record.undo = UndoPoint(
            seat=seat, version=record.version + 1, state=state_before, acted_at=acted_before
        )


def forget(record: TableRecord, kind: str, now: float) -> list[Event]:
    """Before a change: close the window when something happens, or when an
    unanswered request has lapsed."""
    point = record.undo
    if point is None:
        return []
    lapsed = point.until is not None and point.until <= now
    if kind in KEEPS and not lapsed:
        return []
    record.undo = None
    return _refused(point, "no one answered in time" if lapsed else "the game has moved on")


def moved_on(record: TableRecord, entries: list[LogEntry]) -> list[Event]:
    """After a change: close a window opened before it when the change moved the
    game on, whatever kind of change it was (a reminder in which a bot moved)."""
    point = record.undo
    if point is None or point.version > record.version or not any(e.kind in MOVED for e in entries):
        return []  # no window, or one this very change opened
    record.undo = None
    return _refused(point, "the game has moved on")


def _refused(point: UndoPoint, why: str) -> list[Event]:
    """What a closed window tells: nothing, unless its move's player had asked."""
    if point.asked_at is None:
        return []
    return [Event(text=f"{seat_ref(point.seat)}'s request to take back their move is refused: {why}.")]


def voters(record: TableRecord, point: UndoPoint) -> list[int]:
    return [s for s, o in enumerate(record.seats) if not o.bot and s != point.seat]


def ask(record: TableRecord, user_id: int, now: float) -> list[Event]:
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotSeated("You are not seated at this table.")
    point = record.undo
    if point is None or point.seat != seat:
        raise TableError(
            "Your last move cannot be taken back: something happened since, or it drew cards, "
            "dice or other chance, or it showed someone something."
        )
    if point.asked_at is not None:
        raise TableError("You already asked; the others are answering.")
    point.asked_at = record.version + 1
    point.until = now + min(LONGEST_WAIT, record.turn_timeout / 4)
    return [Event(text=f"{seat_ref(seat)} asks to take back their last move: the others Accept or Decline.")]


def vote(record: TableRecord, user_id: int, asked_at: int, accept: bool) -> tuple[list[Event], bool]:
    """Count a vote; the events, and whether everyone has now accepted."""
    point = record.undo
    if point is None or point.asked_at != asked_at:
        raise TableError("That request is no longer open.")
    seat = record.seat_of(user_id)
    if seat is None or seat not in voters(record, point):
        raise TableError("Only the other players answer this request.")
    if seat in point.accepted:
        raise TableError("You already accepted.")
    if not accept:
        record.undo = None
        return [Event(text=f"{seat_ref(seat)} declines: {seat_ref(point.seat)}'s move stands.")], False
    point.accepted.append(seat)
    return [], set(voters(record, point)) <= set(point.accepted)


def taken_back(record: TableRecord, at: float) -> tuple[str, LogEntry, list[Event]]:
    """Undo the move: the state to restore, the log line, and what to tell."""
    point = record.undo
    assert point is not None and point.state is not None  # the store loads it with the record
    record.acted_at = dict(point.acted_at)
    record.undo = None
    told = [Event(text=f"{seat_ref(point.seat)}'s last move is taken back, with everyone's consent.")]
    entry = LogEntry(
        version=record.version + 1,
        at=at,
        kind="undo",
        seat=point.seat,
        action={"undo": point.version},
        events=[e.model_dump(mode="json") for e in told],
    )
    return point.state, entry, told
