"""``gametable replay``: check a finished table from its log file alone.

The log (``/table log`` after the end) carries the seed, the options, every
move with its seat and action — players', bots' and the clock's — and the
events each move caused. Replaying it re-runs the game's setup with the seed
and applies the moves in order, the way the table did (the state is read back
from JSON at each saved version), then checks: the seed matches the seal
published at the start, every move produces the logged events, and the final
state matches the hash published at the end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.shuffle import seal, state_hash
from engines.card_data import decks_in_full
from engines.core import Engine, Event, IllegalAction

MOVES = ("act", "bot", "timeout")
_SEALS = re.compile(r"sha256 (?:is )?`([0-9a-f]{64})`")


class ReplayError(Exception):
    """The log does not check out; the message says where and why."""


@dataclass(frozen=True)
class Replayed:
    game: str
    table: str
    moves: int
    final_state_sha256: str
    sealed: bool


def read_log(text: str) -> list[dict[str, Any]]:
    try:
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        raise ReplayError(f"the file is not JSON lines ({error})") from None
    if not lines or not isinstance(lines[0], dict) or "gametable_log" not in lines[0]:
        raise ReplayError("the file is not a gametable log (its first line has no header)")
    return lines


def replay(text: str, games: Mapping[str, Engine[Any, Any]]) -> Replayed:
    head, *entries = read_log(text)
    if "seed" not in head:
        raise ReplayError("this log has no seed: the game is not over yet, or this is not the full log")
    engine = games.get(head["game"])
    if engine is None:
        raise ReplayError(f"this install has no game {head['game']!r}")
    seed = int(head["seed"])
    if head["seal"] is not None and seal(head["table"], seed) != head["seal"]:
        raise ReplayError("the seed does not match the seal published at the start")
    _check_published(entries, head)
    state = _setup(engine, head, seed)
    moves, version = 0, None
    # A move taken back with consent drew no chance and showed nothing: replay skips it.
    undos = [e.get("action") for e in entries if e.get("kind") == "undo"]
    undone = {a["undo"] for a in undos if isinstance(a, dict)}
    for index, entry in enumerate(entries, start=2):
        if entry.get("kind") not in MOVES or entry.get("version") in undone:
            continue
        if entry["version"] != version:  # the table saved and reloaded its state here
            state, version = engine.load_state(engine.dump_state(state)), entry["version"]
        try:
            transition = engine.apply(state, entry["seat"], entry["action"], in_place=True)
        except IllegalAction as refusal:
            raise ReplayError(f"line {index}: the move is refused ({refusal.reason})") from None
        state = transition.state
        _same_events(index, entry, transition.events)
        moves += 1
    if engine.result(state) is None:
        raise ReplayError("the game does not end where the log ends")
    final = state_hash(engine.dump_state(state))
    if final != head.get("final_state_sha256"):
        # A table that ended before states named shipped decks by reference
        # published the hash of its state with the deck written out.
        with decks_in_full():
            final = state_hash(engine.dump_state(state))
    if final != head.get("final_state_sha256"):
        raise ReplayError("the final state differs from the one the table published")
    sealed = head["seal"] is not None
    return Replayed(head["game"], head["table"], moves, final, sealed)


def _setup(engine: Engine[Any, Any], head: dict[str, Any], seed: int) -> BaseModel:
    try:
        return engine.setup(int(head["players"]), engine.parse_options(head.get("options")), seed)
    except IllegalAction as refusal:
        raise ReplayError(f"the game cannot be set up from this log ({refusal.reason})") from None


def _check_published(entries: list[dict[str, Any]], head: dict[str, Any]) -> None:
    """The seal and the final hash in the header are the ones the table posted in its log."""
    posted = [m for e in entries for ev in e.get("events", []) for m in _SEALS.findall(str(ev.get("text")))]
    if head["seal"] is not None:
        if head["seal"] not in posted[:1]:
            raise ReplayError("the seal in the header is not the one published at the start")
        posted = posted[1:]
    if head.get("final_state_sha256") not in posted:
        raise ReplayError("the final state's hash in the header is not the one published at the end")


def _same_events(index: int, entry: dict[str, Any], events: list[Event]) -> None:
    logged = entry.get("events", [])
    if entry["kind"] == "timeout":
        logged = logged[1:]  # the table's own "ran out of time" notice comes first
    made = [e.model_dump(mode="json") for e in events]
    if made != logged:
        raise ReplayError(f"line {index}: the move does not lead to the logged events")
