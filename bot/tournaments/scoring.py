"""Tournament points from a table's ranking.

One scale for every table size, so tables of k and k−1 in the same round are
worth the same: a seat scores the share of its opponents it finished ahead of,
ties counting half — 1 for a win, ½ for a draw, 0 for a loss at a two-seat
table; 1, ⅔, ⅓, 0 at a table of four. Team games (``Result.teams``, such as
Scales of Influence's alignments) score by team: every member of a team takes
the team's share of the other teams it finished ahead of, so a winning
alignment of two is not worth less than a winning alignment of five.

``winner`` scoring gives the whole point to the first place (shared among ties)
for organisers who want the classic "wins only" table.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class Scoring(StrEnum):
    SHARE = "share"
    WINNER = "winner"


def table_points(
    ranking: Sequence[Sequence[int]], *, teams: bool = False, scoring: Scoring = Scoring.SHARE
) -> dict[int, float]:
    """Points per seat for ``ranking`` (groups of tied seats, best first).

    With ``teams`` each group is one side, so a group counts as one opponent."""
    groups = [list(g) for g in ranking if g]
    if scoring is Scoring.WINNER:
        return {s: (1.0 / len(g) if i == 0 else 0.0) for i, g in enumerate(groups) for s in g}
    if teams:
        return _shares(groups, units=[1] * len(groups))
    return _shares(groups, units=[len(g) for g in groups])


def _shares(groups: list[list[int]], units: list[int]) -> dict[int, float]:
    """``units``: how many opponents each group counts as."""
    opponents = sum(units) - 1
    points: dict[int, float] = {}
    below = sum(units)
    for group, size in zip(groups, units, strict=True):
        below -= size
        share = (below + 0.5 * (size - 1)) / opponents if opponents > 0 else 0.5
        for seat in group:
            points[seat] = round(share, 6)
    return points
