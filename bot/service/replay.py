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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.service.shuffle import seal, state_hash
from engines.card_data import decks_in_full
from engines.core import Engine, Event, IllegalAction

MOVES = ("act", "bot", "timeout")
_SEALS = re.compile(r"sha256 (?:is )?`([0-9a-f]{64})`")
# A log the bot sends is at most 8 MiB (a Discord file); a file far larger is not one.
MAX_BYTES = 32 * 1024 * 1024
# A seed is a few dozen digits; one of thousands is not a table's (and costs
# quadratic time to read).
SEED_BITS = 664  # 200 digits
MOST_SEATS = 64


class ReplayError(Exception):
    """The log does not check out; the message says where and why."""


class UnreadableLog(ReplayError):
    """The file is not a gametable log that can be read at all (not a game that fails to verify)."""


@dataclass(frozen=True)
class Replayed:
    game: str
    table: str
    moves: int
    final_state_sha256: str
    sealed: bool


# Told of each state the replay reaches: after the setup (``None``) and after
# each move (the move's position among the log's entries, the header not
# counted). The state is changed in place by the next move: read it at once.
Step = Callable[[int | None, BaseModel], None]


def replay_file(path: Path, games: Mapping[str, Engine[Any, Any]]) -> Replayed:
    """:func:`replay` of the file at ``path``; :class:`UnreadableLog` when it cannot be read."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise UnreadableLog(f"it is larger than {MAX_BYTES >> 20} MiB, far larger than any log")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableLog(f"it is not text (byte {error.start} is not UTF-8)") from None
    except OSError as error:
        raise UnreadableLog((error.strerror or type(error).__name__).lower()) from None
    return replay(text, games)


def read_log(text: str) -> list[dict[str, Any]]:
    """The log's lines, each a JSON object, the first a header; else
    :class:`UnreadableLog`, naming the line."""
    lines: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        value = _json(number, line)
        if not isinstance(value, dict):
            raise UnreadableLog(f"line {number} is not a JSON object")
        lines.append(value)
    if not lines or "gametable_log" not in lines[0]:
        raise UnreadableLog("the file is not a gametable log (its first line has no header)")
    return lines


def _json(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise UnreadableLog(f"line {number} is not JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise UnreadableLog(f"line {number} is nested too deeply to be a log line") from None
    except ValueError:  # an integer of more digits than Python reads from text
        raise UnreadableLog(f"line {number} holds a number too long to be a log's") from None


def replay(text: str, games: Mapping[str, Engine[Any, Any]], step: Step | None = None) -> Replayed:
    """Check the log ``text``; :class:`ReplayError` says where it does not.
    ``step`` sees every state on the way (see :data:`Step`), up to a failure."""
    head, *entries = read_log(text)
    _check_header(head)
    if "seed" not in head:
        raise ReplayError("this log has no seed: the game is not over yet, or this is not the full log")
    engine = games.get(head["game"])
    if engine is None:
        raise ReplayError(f"this install has no game {head['game'][:64]!r}")
    seed: int = head["seed"]
    if head["seal"] is not None and seal(head["table"], seed) != head["seal"]:
        raise ReplayError("the seed does not match the seal published at the start")
    for index, entry in enumerate(entries, start=2):
        _check_entry(index, entry, head["players"])
    _check_published(entries, head)
    state = _setup(engine, head, seed)
    if step is not None:
        step(None, state)
    moves, version = 0, None
    applied = set(replayed(entries))
    for index, entry in enumerate(entries, start=2):
        if index - 2 not in applied:
            continue
        if entry["version"] != version:  # the table saved and reloaded its state here
            state = _engine(index, engine.load_state, engine.dump_state(state))
            version = entry["version"]
        try:
            transition = engine.apply(state, entry["seat"], entry["action"], in_place=True)
        except IllegalAction as refusal:
            raise ReplayError(f"line {index}: the move is refused ({refusal.reason.rstrip('.')})") from None
        except Exception as error:  # an action no table could have logged
            raise ReplayError(f"line {index}: the game cannot read this move ({_said(error)})") from None
        state = transition.state
        _same_events(index, entry, transition.events)
        moves += 1
        if step is not None:
            step(index - 2, state)
    if _engine(len(entries) + 1, engine.result, state) is None:
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


def replayed(entries: list[dict[str, Any]]) -> list[int]:
    """The positions (among the entries) of the moves a replay applies: every
    move but those taken back with consent, which drew no chance and showed nothing."""
    undos = [e["action"] for e in entries if e["kind"] == "undo" and isinstance(e.get("action"), dict)]
    undone = {a["undo"] for a in undos}
    return [i for i, e in enumerate(entries) if e["kind"] in MOVES and e["version"] not in undone]


def _check_header(head: dict[str, Any]) -> None:
    """Every header field the replay reads is there and of its kind (line 1)."""
    for name in ("table", "game", "players", "seal"):
        if name not in head:
            raise UnreadableLog(f"line 1: the header has no {name}")
    if not isinstance(head["table"], str) or not 0 < len(head["table"]) <= 64:
        raise UnreadableLog("line 1: the header's table is not a table id")
    if not isinstance(head["game"], str) or not 0 < len(head["game"]) <= 64:
        raise UnreadableLog("line 1: the header's game is not a game's name")
    players = head["players"]
    if type(players) is not int or not 1 <= players <= MOST_SEATS:
        raise UnreadableLog(f"line 1: the header's players is not a number of seats (1 to {MOST_SEATS})")
    if head["seal"] is not None and not _is_sha256(head["seal"]):
        raise UnreadableLog("line 1: the header's seal is not a sha256")
    seed = head.get("seed", 0)
    if type(seed) is not int or seed < 0 or seed.bit_length() > SEED_BITS:
        raise UnreadableLog("line 1: the header's seed is not a seed (a whole number of at most 200 digits)")
    if not isinstance(head.get("final_state_sha256", ""), str | None):
        raise UnreadableLog("line 1: the header's final_state_sha256 is not a sha256")
    if not isinstance(head.get("options"), dict | None):
        raise UnreadableLog("line 1: the header's options are not a table of options")


def _is_sha256(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None


def _check_entry(index: int, entry: dict[str, Any], players: int) -> None:
    """The fields of line ``index`` that the replay reads."""
    kind, events = entry.get("kind"), entry.get("events", [])
    if not isinstance(kind, str):
        raise UnreadableLog(f"line {index}: the entry has no kind")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise UnreadableLog(f"line {index}: the entry's events are not a list of events")
    action = entry.get("action")
    if kind == "undo" and isinstance(action, dict) and type(action.get("undo")) is not int:
        raise UnreadableLog(f"line {index}: the undo names no version")
    if kind not in MOVES:
        return
    if type(entry.get("version")) is not int:
        raise UnreadableLog(f"line {index}: the move has no version")
    if "seat" not in entry:
        raise UnreadableLog(f"line {index}: the move has no seat")
    if type(entry["seat"]) is not int or not 0 <= entry["seat"] < players:
        raise UnreadableLog(f"line {index}: the move's seat is not one of the table's {players}")
    if "action" not in entry:
        raise UnreadableLog(f"line {index}: the move has no action")


def _engine(index: int, call: Callable[[Any], Any], argument: Any) -> Any:
    """An engine call on the replayed state; whatever it cannot do is the line's fault."""
    try:
        return call(argument)
    except Exception as error:
        raise ReplayError(f"line {index}: the game cannot go on from here ({_said(error)})") from None


def _said(error: BaseException) -> str:
    """The first line of what ``error`` says, short."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:120]


def _setup(engine: Engine[Any, Any], head: dict[str, Any], seed: int) -> BaseModel:
    try:
        return engine.setup(head["players"], engine.parse_options(head.get("options")), seed)
    except IllegalAction as refusal:
        raise ReplayError(f"the game cannot be set up from this log ({refusal.reason})") from None
    except Exception as error:  # options no table could have had
        raise ReplayError(f"line 1: the game cannot be set up from this header ({_said(error)})") from None


def published(entries: list[dict[str, Any]]) -> list[str]:
    """The hashes the table posted in its log, in order: the seal at the start
    (when the seed was sealed), then the final state's at the end."""
    return [m for e in entries for ev in e.get("events", []) for m in _SEALS.findall(str(ev.get("text")))]


def _check_published(entries: list[dict[str, Any]], head: dict[str, Any]) -> None:
    """The seal and the final hash in the header are the ones the table posted in its log."""
    posted = published(entries)
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
