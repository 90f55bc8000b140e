"""Planning a tournament's next round from its history, by format.

Swiss and Swiss-then-final seat by standings (:func:`pairing.swiss`); a round
robin by the circle method or the repeat-avoiding search; single elimination
seats the seeds (rating at the start, then entry order) and after each round
the top ``advance`` of every table go on. Byes score the format's points: a win
head to head and an average finish at bigger tables in Swiss (as chess Swiss
gives a bye the full point), nothing in a round robin (everyone sits out
equally often) or in elimination (a bye advances instead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bot.tournaments import pairing
from bot.tournaments.standings import standings
from storage.tournaments import Format, Round, TableSeat, Tournament


def default_rounds(tournament: Tournament) -> int:
    """Rounds when the organiser named none: enough Swiss rounds to find a
    winner (log2 of the field), or a full round robin."""
    players = len(tournament.active)
    if tournament.format is Format.ROUND_ROBIN:
        return pairing.round_robin_rounds(players, tournament.table_size)
    return max(1, (players - 1).bit_length())


def plan_next(tournament: Tournament, smallest: int) -> Round | None:
    """The next round's seating, or ``None`` when the tournament is over."""
    number = len(tournament.rounds) + 1
    fmt = tournament.format
    if fmt is Format.ELIMINATION:
        return _elimination(tournament, number, smallest)
    if number <= tournament.rounds_planned:
        if fmt is Format.ROUND_ROBIN:
            return _round_robin(tournament, number, smallest)
        return _swiss(tournament, number, smallest)
    if fmt is Format.SWISS_FINAL and not any(r.final for r in tournament.rounds):
        lines = [line for line in standings(tournament) if line.status.value == "active"]
        finalists = [line.user_id for line in lines[: tournament.table_size]]
        if len(finalists) >= smallest:
            return _round(tournament, number, pairing.Seating(tables=[finalists]), final=True)
    return None


def _history(tournament: Tournament) -> tuple[pairing.Meetings, Counter[int]]:
    met: pairing.Meetings = Counter()
    byes: Counter[int] = Counter()
    for rnd in tournament.rounds:
        met += pairing.meetings_of([t.players for t in rnd.tables])
        byes.update(rnd.byes)
    return met, byes


def _swiss(tournament: Tournament, number: int, smallest: int) -> Round:
    active = {e.user_id for e in tournament.active}
    lines = [line for line in standings(tournament) if line.user_id in active]
    points = {line.user_id: line.points for line in lines}
    met, byes = _history(tournament)
    order = [line.user_id for line in lines]
    seating = pairing.swiss(order, points, tournament.table_size, smallest, met, byes)
    bye_points = 1.0 if tournament.table_size == 2 else 0.5
    return _round(tournament, number, seating, bye_points=bye_points)


def _round_robin(tournament: Tournament, number: int, smallest: int) -> Round:
    met, byes = _history(tournament)
    if tournament.table_size == 2:
        # Everyone who entered keeps their place in the circle, so a drop leaves
        # their opponents a bye instead of reshuffling who meets whom.
        everyone = [e.user_id for e in tournament.entrants]
        seating = pairing.round_robin(everyone, 2, 2, number, met, byes)
        active = {e.user_id for e in tournament.active}
        kept = [t for t in seating.tables if all(p in active for p in t)]
        byes_now = [p for p in seating.byes if p in active]
        byes_now += [p for t in seating.tables if t not in kept for p in t if p in active]
        return _round(tournament, number, pairing.Seating(tables=kept, byes=byes_now))
    players = [e.user_id for e in tournament.active]
    size, seed = tournament.table_size, tournament.seed
    seating = pairing.round_robin(players, size, smallest, number, met, byes, seed)
    return _round(tournament, number, seating)


def _seeds(tournament: Tournament) -> Callable[[int], int]:
    """Seeds: rating at the start, best first; the sort is stable, so entry order breaks ties."""
    order = {e.user_id: i for i, e in enumerate(sorted(tournament.entrants, key=lambda e: -e.rating))}
    return lambda user: order.get(user, len(order))


def advancing(tournament: Tournament, table: TableSeat) -> list[int]:
    """Who of an elimination table's players go on (before drops), once it has its result."""
    if table.score is None:
        return []
    seed = _seeds(tournament)
    # A tie at the cut goes to the better seed.
    finish = [u for group in table.score.ranking for u in sorted(group, key=seed)]
    return finish[: tournament.advance]


def _elimination(tournament: Tournament, number: int, smallest: int) -> Round | None:
    active = {e.user_id for e in tournament.active}
    seed = _seeds(tournament)
    if not tournament.rounds:
        alive = [e.user_id for e in tournament.active]
    else:
        last = tournament.rounds[-1]
        if len(last.tables) <= 1 and not last.byes:
            return None  # that was the final
        alive = list(last.byes)
        for table in last.tables:
            alive += advancing(tournament, table)
        alive = [u for u in alive if u in active]
    if len(alive) < 2:
        return None
    size, advance = tournament.table_size, tournament.advance
    seating = pairing.elimination(sorted(alive, key=seed), size, smallest, advance)
    return _round(tournament, number, seating, final=len(seating.tables) == 1 and not seating.byes)


def _round(
    tournament: Tournament,
    number: int,
    seating: pairing.Seating,
    *,
    bye_points: float = 0.0,
    final: bool = False,
) -> Round:
    tables = [
        TableSeat(index=i, players=players, table_id=table_id(tournament.id, number, i))
        for i, players in enumerate(seating.tables)
    ]
    return Round(number=number, tables=tables, byes=seating.byes, bye_points=bye_points, final=final)


def table_id(tournament_id: str, number: int, index: int) -> str:
    """A round's table ids are fixed when the round is planned, so creating the
    tables again after a crash finds the ones already made instead of doubling them."""
    return f"{tournament_id}r{number}t{index + 1}"
