"""An elimination tournament as a bracket: a column per round, a match per
table, and who of each match went on (or, in the final, won).

Who went on is what happened: the players the next round seated. For the
round still being played, a finished table's players who go on are those the
format will seat (:func:`bot.tournaments.formats.advancing`), so the bracket
never guesses differently from the pairing."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tournaments.formats import advancing
from storage.tournaments import Round, TableSeat, Tournament


@dataclass
class Match:
    table: TableSeat
    # Who went on from it; in the final, who won (a shared first place is possible).
    through: list[int] = field(default_factory=list)


@dataclass
class Column:
    number: int
    final: bool
    matches: list[Match]
    byes: list[int]


def bracket(t: Tournament) -> list[Column]:
    columns = []
    for index, rnd in enumerate(t.rounds):
        after = t.rounds[index + 1] if index + 1 < len(t.rounds) else None
        matches = [Match(table, _through(t, rnd, table, after)) for table in rnd.tables]
        columns.append(Column(rnd.number, rnd.final, matches, list(rnd.byes)))
    return columns


def _through(t: Tournament, rnd: Round, table: TableSeat, after: Round | None) -> list[int]:
    if table.score is None:
        return []
    if rnd.final:
        return [u for u in table.score.ranking[0] if u in table.players] if table.score.ranking else []
    if after is not None:
        seated = set(after.byes) | {u for next_table in after.tables for u in next_table.players}
        return [u for u in table.players if u in seated]
    active = {e.user_id for e in t.active}
    return [u for u in advancing(t, table) if u in active]
