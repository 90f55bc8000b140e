"""A finished table replayed from its log, step by step, for the replay page.

The log is the very file ``/table log`` sends after the end (every entry, every
action and the seed: :func:`bot.service.tablelog.log_files`), and it is replayed
by the very code of ``gametable replay`` (:func:`bot.service.replay.replay`),
which also decides whether the seal checks. On the way, each state it reaches
is drawn once as the public table panel (``view(state, None)``), so a page
shows what a spectator saw at that step and never more.

Replaying a long game costs a second of CPU, so each replay is kept per
(table, version) in a small process-wide LRU: the version moves with any
change to the table, so a kept replay is never stale."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache
from pydantic import BaseModel

from bot.render import Panel, renderer_for
from bot.service.replay import MOVES, ReplayError, published, read_log, replay, replayed
from bot.service.shuffle import seal
from bot.service.tablelog import log_files
from engines.core import Engine
from storage.records import LogEntry, TableRecord

# A replay of a 1,000-move game keeps about a megabyte of panels.
KEPT = 32
# How a move's maker is named beside their name, by the entry's kind.
MADE_BY = {"act": "", "bot": " (bot)", "timeout": " (out of time)"}


@dataclass(frozen=True)
class Line:
    """One event's text; ``to``: the seats it was told to alone at the time."""

    text: str
    to: list[int] | None = None


@dataclass
class Step:
    """Step 0 is the setup; step N the N-th move replayed. ``lines``: what the
    step's move caused, then what the table logged before the next move."""

    number: int
    seat: int | None = None
    made_by: str = ""
    action: str = ""
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True)
class Seal:
    posted: str | None  # the seal the table posted when the game began
    seed: int
    computed: str  # the seal of the published seed
    sealed: bool  # the seed was random enough to be sealed (not chosen by hand)
    replays: bool  # the whole replay checked out
    verdict: str  # what the replay found, in a sentence

    @property
    def checks(self) -> bool:
        return self.sealed and self.replays


@dataclass(frozen=True)
class Replay:
    table_id: str
    version: int
    steps: list[Step]
    # boards[n]: the public table after step n, as far as the replay got.
    boards: list[Panel]
    seal: Seal
    result: Panel | None

    @property
    def last(self) -> int:
        return len(self.steps) - 1


_kept: LRUCache[tuple[str, int], Replay] = LRUCache(KEPT)
_building: dict[tuple[str, int], asyncio.Task[Replay]] = {}


async def replay_of(
    record: TableRecord, engine: Engine[Any, Any], log: Callable[[], Awaitable[list[LogEntry]]]
) -> Replay:
    """The replay of a finished ``record`` (kept per version; built once at a
    time); ``log`` reads its log, only when the replay is not kept."""
    key = (record.id, record.version)
    kept = _kept.get(key)
    if kept is not None:
        return kept
    task = _building.get(key)
    if task is None:
        task = _building[key] = asyncio.create_task(_build(key, record, engine, log))
    # A reader who leaves does not stop the replay the others wait for.
    return await asyncio.shield(task)


async def _build(
    key: tuple[str, int],
    record: TableRecord,
    engine: Engine[Any, Any],
    log: Callable[[], Awaitable[list[LogEntry]]],
) -> Replay:
    try:
        entries = await log()
        # A long replay is CPU work: off the event loop, so other pages go on.
        built = await asyncio.to_thread(build, record, engine, entries)
    finally:
        _building.pop(key, None)
    _kept[key] = built
    return built


def forget() -> None:
    """Drop every kept replay (the tests' fresh start)."""
    _kept.clear()


def build(record: TableRecord, engine: Engine[Any, Any], entries: list[LogEntry]) -> Replay:
    """Replay ``record``'s whole log (as ``/table log`` gives it after the end)."""
    text = log_files(record, engine, entries).jsonl
    head, *lines = read_log(text)
    renderer = renderer_for(record.game)
    boards: list[Panel] = []
    applied: list[int] = []

    def step(position: int | None, state: BaseModel) -> None:
        boards.append(renderer.table(engine.view(state, None)))
        if position is not None:
            applied.append(position)

    try:
        replay(text, {record.game: engine}, step)
        checks, verdict = True, _checked(head)
    except ReplayError as error:
        checks, verdict = False, f"It does not check out: {error}."
    steps = _steps(lines, set(applied) if checks else _moves(lines))
    posted = published(lines)[:1] if head.get("seal") is not None else []
    seed = int(head.get("seed", record.seed))
    return Replay(
        table_id=record.id,
        version=record.version,
        steps=steps,
        boards=boards,
        seal=Seal(
            posted=posted[0] if posted else None,
            seed=seed,
            computed=seal(record.id, seed),
            sealed=head.get("seal") is not None,
            replays=checks,
            verdict=verdict,
        ),
        result=_result(record, engine),
    )


def _checked(head: dict[str, Any]) -> str:
    if head.get("seal") is None:
        return (
            "Every move replays to its logged events and the published final state, but this table's "
            "seed was chosen by hand, so its shuffle was not sealed."
        )
    return (
        "It checks out: the seed matches the seal posted at the start, every move replays to its "
        "logged events, and the last one to the final state published at the end."
    )


def _moves(lines: list[dict[str, Any]]) -> set[int]:
    """The moves of a log whose replay stopped on the way: those it would have
    applied, or none when its entries cannot even be read as moves."""
    try:
        return set(replayed(lines))
    except (KeyError, TypeError):
        return set()


def _steps(lines: list[dict[str, Any]], moves: set[int]) -> list[Step]:
    steps = [Step(0)]
    for position, line in enumerate(lines):
        if position in moves:
            made_by = MADE_BY.get(str(line.get("kind")), "")
            steps.append(Step(len(steps), line.get("seat"), made_by, action_text(line.get("action"))))
        elif line.get("kind") in MOVES:
            steps[-1].lines.append(Line("(This move was taken back.)"))
        for event in line.get("events", []):
            steps[-1].lines.append(Line(str(event.get("text", "")), event.get("to")))
    return steps


def action_text(action: Any) -> str:
    """A move's action as a short line (``play card=3``): after the end every
    action is public, and a move that told the table nothing is still a move."""
    if not isinstance(action, dict):
        return "" if action is None else str(action)[:200]
    kind = str(action.get("type", ""))
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return " ".join(filter(None, [kind, rest]))[:200]


def _result(record: TableRecord, engine: Engine[Any, Any]) -> Panel | None:
    if record.state is None:
        return None
    try:
        state = engine.load_state(record.state)
    except ValueError:  # a damaged state: the replay says what it found
        return None
    result = engine.result(state)
    if result is None:
        return None
    return renderer_for(record.game).result(result, engine.view(state, None))
