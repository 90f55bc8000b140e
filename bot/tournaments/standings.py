"""Standings: points, then the tie-breaks — opponents' points (the strength of
the field one met), game score (the games' own scores, summed), then head to
head (how often one finished ahead of the players one is still tied with).

Elimination ranks by how far one got first; a Swiss-then-final ranks the final
table by its result above everyone else. Dropped players keep their place in
the list; disqualified players go to the bottom.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from storage.tournaments import EntrantStatus, Format, Tournament


@dataclass
class Line:
    user_id: int
    name: str
    status: EntrantStatus
    points: float = 0.0
    opponents: float = 0.0
    game_score: float = 0.0
    played: int = 0
    reached: int = 0  # the last round one was seated in (or had a bye)
    final_place: int | None = None
    place: int = 0


def standings(tournament: Tournament) -> list[Line]:
    lines = {e.user_id: Line(e.user_id, e.name, e.status) for e in tournament.entrants}
    met: dict[int, list[int]] = defaultdict(list)
    ahead: dict[tuple[int, int], int] = defaultdict(int)
    for rnd in tournament.rounds:
        for user in rnd.byes:
            if user in lines:
                lines[user].points += rnd.bye_points
                lines[user].reached = rnd.number
        for table in rnd.tables:
            for user in table.players:
                if user in lines:
                    lines[user].reached = rnd.number
            if table.score is None:
                continue
            _count(
                lines, met, ahead, table.players, table.score.ranking, table.score.points, table.score.scores
            )
            if rnd.final:
                for place, group in enumerate(table.score.ranking):
                    for user in group:
                        if user in lines:
                            lines[user].final_place = place
    for user, opponents in met.items():
        if user in lines:
            lines[user].opponents = round(sum(lines[o].points for o in opponents if o in lines), 6)
    ordered = sorted(lines.values(), key=lambda line: _key(tournament, line))
    ordered = _head_to_head(ordered, ahead, tournament)
    for place, line in enumerate(ordered, start=1):
        line.place = place
    return ordered


def _count(
    lines: dict[int, Line],
    met: dict[int, list[int]],
    ahead: dict[tuple[int, int], int],
    players: list[int],
    ranking: list[list[int]],
    points: dict[int, float],
    scores: dict[int, float],
) -> None:
    for user in players:
        if user not in lines:
            continue
        line = lines[user]
        line.points += points.get(user, 0.0)
        line.game_score += scores.get(user, 0.0)
        line.played += 1
        met[user] += [o for o in players if o != user]
    place = {u: i for i, group in enumerate(ranking) for u in group}
    for a in players:
        for b in players:
            if a != b and place.get(a, 99) < place.get(b, 99):
                ahead[(a, b)] += 1


def _key(tournament: Tournament, line: Line) -> tuple[float, ...]:
    disqualified = 1.0 if line.status is EntrantStatus.DISQUALIFIED else 0.0
    stage = 0.0
    if tournament.format is Format.ELIMINATION:
        stage = -float(line.reached)
    final = float(line.final_place) if line.final_place is not None else 1e9
    return (disqualified, final, stage, -line.points, -line.opponents, -line.game_score)


def _head_to_head(
    ordered: list[Line], ahead: dict[tuple[int, int], int], tournament: Tournament
) -> list[Line]:
    """Within each group still tied, order by wins over the others of the group."""
    result: list[Line] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        key = _key(tournament, ordered[start])
        while end < len(ordered) and _key(tournament, ordered[end]) == key:
            end += 1
        group = ordered[start:end]
        if len(group) > 1:
            ids = [line.user_id for line in group]
            group.sort(key=lambda line: -sum(ahead[(line.user_id, o)] for o in ids if o != line.user_id))
        result += group
        start = end
    return result
