"""The recap posted when a game ends: the ranking and why (each seat's score
breakdown and what it held, from the engine's :class:`~engines.core.Recap`),
the game's own history, its length and number of moves, and how to check the
shuffle. It is built only for a finished table, so it may show everything."""

from __future__ import annotations

from bot.render.base import Panel, fit, place_mark
from engines.core import Recap, Result, seat_ref
from engines.words import plural
from storage.records import LogEntry, TableRecord

MOVES = ("act", "bot", "timeout")
# Discord allows 6000 characters per embed; names replace the seat references
# afterwards, so leave room for them.
EMBED_BUDGET = 5200


def recap_panel(title: str, record: TableRecord, result: Result, recap: Recap, log: list[LogEntry]) -> Panel:
    panel = Panel(title=f"Recap — {title}, table {record.id}")
    ranking = []
    for place, seats in enumerate(result.ranking, start=1):
        for seat in seats:
            # In a team game the ranking says it all; a score of 1 or 0 would add nothing.
            shown = seat in result.scores and not result.teams and result.score_unit
            score = f" — {plural(result.scores[seat], result.score_unit)}" if shown else ""
            ranking.append(f"{place_mark(place)} {seat_ref(seat)}{score}")
    panel.description = "\n".join(filter(None, ["\n".join(ranking), result.summary, _length(log)]))
    history = _last_lines(recap.history, 1024) if recap.history else ""
    # Every seat gets an equal share of what is left, so a big table loses
    # detail from each breakdown rather than whole players from the end.
    count = max(1, len(record.seats))
    share = min(1024, (EMBED_BUDGET - len(panel.title) - len(panel.description) - len(history)) // count - 60)
    by_seat = {s.seat: s for s in recap.seats}
    for seat in range(len(record.seats)):
        lines = list(by_seat[seat].lines) if seat in by_seat else []
        held = by_seat[seat].held if seat in by_seat else []
        if held:
            lines.append("Held: " + ", ".join(held))
        panel.add(seat_ref(seat), fit("\n".join(lines), max(share, 40)) or "—", inline=count > 3)
    if history:
        panel.add("How it went", history, inline=False)
    return panel


def _length(log: list[LogEntry]) -> str:
    moves = [e for e in log if e.kind in MOVES]
    started = next((e.at for e in log if e.kind == "start"), None)
    ended = next((e.at for e in reversed(log) if e.kind == "end"), None)
    by = {kind: sum(1 for e in moves if e.kind == kind) for kind in ("bot", "timeout")}
    extra = ", ".join(f"{n} by {'bots' if k == 'bot' else 'timeouts'}" for k, n in by.items() if n)
    count = plural(len(moves), "move") + (f" ({extra})" if extra else "")
    if started is None or ended is None:
        return count + "."
    return f"Played in {_duration(ended - started)}, {count}."


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    return f"{plural(hours // 24, 'day')} {hours % 24} h"


def _last_lines(lines: list[str], limit: int) -> str:
    """As many of the lines as fit, keeping the end (how the game was decided)."""
    kept: list[str] = []
    for line in reversed(lines):
        if len("\n".join([line, *kept])) > limit - 2:
            return "…\n" + "\n".join(kept)
        kept.insert(0, line)
    return "\n".join(kept)
