"""A table's log as files: JSON lines (the record, for ``gametable replay``)
and readable text.

What a file shows depends on who asks and when. While the game is on, the
public log holds public events only, with no actions (an action may be a
secret choice, such as the bag a token went into); a seated player's own log
adds the events told to them and their own actions. Once the game is over
everything is public: every event, every action and the seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.service.shuffle import seal, sealable, state_hash
from engines.core import Engine, Seat, render_seats
from storage.records import LogEntry, TableRecord

FORMAT = 1
# Discord takes files up to 10 MiB; keep well below it.
FILE_LIMIT = 8 * 1024 * 1024


@dataclass(frozen=True)
class LogFiles:
    name: str
    jsonl: str
    text: str

    @property
    def fits(self) -> bool:
        return max(len(self.jsonl.encode()), len(self.text.encode())) <= FILE_LIMIT


def header(record: TableRecord, engine: Engine[Any, Any], everything: bool) -> dict[str, Any]:
    head: dict[str, Any] = {
        "gametable_log": FORMAT,
        "table": record.id,
        "game": record.game,
        "title": engine.info.title,
        "status": record.status.value,
        "players": len(record.seats),
        "seats": [s.name for s in record.seats],
        "options": record.options,
        "seal": seal(record.id, record.seed) if sealable(record.seed) else None,
    }
    if everything:
        head["seed"] = record.seed
        if record.state is not None:
            head["final_state_sha256"] = state_hash(record.state)
    return head


def shown(entry: LogEntry, seat: Seat | None, everything: bool) -> dict[str, Any]:
    """One entry as ``seat`` (None: the public) may see it."""
    events = [
        e for e in entry.events if everything or e.get("to") is None or (seat is not None and seat in e["to"])
    ]
    line: dict[str, Any] = {"version": entry.version, "at": entry.at, "kind": entry.kind, "seat": entry.seat}
    if everything or (seat is not None and entry.seat == seat):
        line["action"] = entry.action
    line["events"] = events
    return line


def log_files(
    record: TableRecord, engine: Engine[Any, Any], entries: list[LogEntry], seat: Seat | None = None
) -> LogFiles:
    """The log as ``seat`` may see it now; after the end, the whole log for anyone."""
    everything = not record.status.active
    head = header(record, engine, everything)
    lines = [shown(e, seat, everything) for e in entries]
    jsonl = "\n".join(json.dumps(x, ensure_ascii=False) for x in [head, *lines]) + "\n"
    who = "" if everything or seat is None else f"-{record.seats[seat].name}"
    suffix = "" if not who else "-mine"
    return LogFiles(name=f"log-{record.id}{suffix}", jsonl=jsonl, text=_text(record, head, lines, who))


def _text(record: TableRecord, head: dict[str, Any], lines: list[dict[str, Any]], who: str) -> str:
    def name(seat: int) -> str:
        return record.seats[seat].name if 0 <= seat < len(record.seats) else f"Seat {seat + 1}"

    out = [
        f"{head['title']} — table {record.id} ({record.status.value})",
        "Seats: " + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(head["seats"])),
        f"Shuffle sealed: sha256 {head['seal']}" if head["seal"] else "Shuffle not sealed (hand-picked seed)",
    ]
    if "seed" in head:
        out.append(f"Seed: {head['seed']} — check it with: gametable replay log-{record.id}.jsonl")
    if who:
        out.append(f"As seen by {who[1:]}: public events, and those told to {who[1:]} alone (marked).")
    out.append("")
    for line in lines:
        when = datetime.fromtimestamp(line["at"], UTC).strftime("%Y-%m-%d %H:%M:%S")
        by = f" — {name(line['seat'])}" if line["seat"] is not None else ""
        out.append(f"[{when}] #{line['version']} {line['kind']}{by}")
        for event in line["events"]:
            to = event.get("to")
            mark = f"(to {', '.join(name(s) for s in to)}) " if to is not None else ""
            out.append(f"    {mark}{render_seats(str(event.get('text', '')), name)}")
    return "\n".join(out) + "\n"
