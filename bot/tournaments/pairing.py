"""Seating a round: who sits with whom. Pure functions over player ids, so
they can be tested by properties and benchmarked at a thousand players.

- :func:`table_sizes` splits a field into tables of k and k−1 where the game
  allows, else tables of k and byes.
- :func:`swiss` seats players of similar standing together and avoids repeat
  opponents: two-seat tables by a maximum-weight matching (networkx), bigger
  tables by cutting the standings into tables and then swapping players between
  neighbouring tables while that lowers the number of repeat meetings.
- :func:`round_robin` seats everyone with as few repeat meetings as the table
  sizes allow: the circle method for two-seat tables, else the same swapping
  search from a seeded shuffle.
- :func:`elimination` seats a bracket round by seed, snake order, the top seeds
  taking any byes.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

Meetings = Counter[frozenset[int]]
# How far down the standings a two-seat pairing may look: bounds the matching's graph for big fields.
WINDOW = 24
# A big field is matched in blocks of this many neighbours in the standings (even, so every block
# pairs off): the matching's cost grows with the cube of its size.
BLOCK = 64
REPEAT_COST = 10_000_000
GAP_COST_CAP = 5_000_000
SWAP_PASSES = 6


@dataclass
class Seating:
    tables: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


def table_sizes(players: int, size: int, smallest: int) -> tuple[list[int], int]:
    """Table sizes for ``players`` at tables of ``size`` (``smallest`` is the
    game's minimum), and how many players sit out with a bye."""
    if players < smallest:
        return [], players
    tables = -(-players // size)
    short = tables * size - players
    if short == 0:
        return [size] * tables, 0
    if size - 1 >= smallest and short <= tables:
        return [size] * (tables - short) + [size - 1] * short, 0
    full = players // size
    rest = players - full * size
    if rest >= smallest:
        return [size] * full + [rest], 0
    return [size] * full, rest


def meetings_of(tables: Sequence[Sequence[int]]) -> Meetings:
    met: Meetings = Counter()
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met


def repeats(table: Sequence[int], met: Meetings) -> int:
    return sum(met[frozenset(pair)] for pair in itertools.combinations(table, 2))


def choose_byes(order: Sequence[int], count: int, byes_had: Counter[int]) -> list[int]:
    """The ``count`` players who sit out: fewest byes so far, then lowest in ``order``."""
    if count <= 0:
        return []
    rank = {p: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (byes_had[p], -rank[p]))[:count]


def swiss(
    standings: Sequence[int],
    points: dict[int, float],
    size: int,
    smallest: int,
    met: Meetings,
    byes_had: Counter[int],
) -> Seating:
    """Seat ``standings`` (best first) at tables of ``size``."""
    sizes, bye_count = table_sizes(len(standings), size, smallest)
    byes = choose_byes(standings, bye_count, byes_had)
    field_ = [p for p in standings if p not in byes]
    if size == 2 and all(s == 2 for s in sizes):
        return Seating(tables=_match_pairs(field_, points, met), byes=byes)
    tables = _cut(field_, sizes)
    _swap_down(tables, met, neighbours_only=True)
    return Seating(tables=tables, byes=byes)


def _match_pairs(field_: Sequence[int], points: dict[int, float], met: Meetings) -> list[list[int]]:
    """Pair everyone by a maximum-weight perfect matching: a repeat costs more
    than any gap in standing, and a bigger gap costs more than a smaller one.
    A field bigger than two blocks is matched block by block down the standings."""
    if len(field_) <= 2 * BLOCK:
        return _match_block(field_, points, met)
    pairs: list[list[int]] = []
    for start in range(0, len(field_), BLOCK):
        block = field_[start : start + BLOCK]
        if len(field_) - start - BLOCK < BLOCK:  # fold a short tail into the last block
            pairs += _match_block(field_[start:], points, met)
            break
        pairs += _match_block(block, points, met)
    return pairs


def _match_block(field_: Sequence[int], points: dict[int, float], met: Meetings) -> list[list[int]]:
    graph = nx.Graph()
    graph.add_nodes_from(field_)
    count = len(field_)
    for i, a in enumerate(field_):
        for j in range(i + 1, min(count, i + 1 + WINDOW)):
            b = field_[j]
            gap = abs(points.get(a, 0.0) - points.get(b, 0.0))
            gap_cost = min(int(gap * 100) ** 2, GAP_COST_CAP)
            weight = 10 * REPEAT_COST - REPEAT_COST * met[frozenset((a, b))] - gap_cost - (j - i)
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p: i for i, p in enumerate(field_)}
    pairs = [sorted(pair, key=rank.__getitem__) for pair in matching]
    return sorted(pairs, key=lambda pair: rank[pair[0]])


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _swap_down(tables: list[list[int]], met: Meetings, *, neighbours_only: bool) -> None:
    """Swap players between tables while a swap lowers the repeat meetings;
    ``neighbours_only`` keeps Swiss tables within one step of their standing."""
    if not met:
        return
    for _ in range(SWAP_PASSES):
        improved = False
        for t, u in _table_pairs(len(tables), neighbours_only):
            improved |= _best_swap(tables[t], tables[u], met)
        if not improved:
            return


def _table_pairs(count: int, neighbours_only: bool) -> list[tuple[int, int]]:
    if neighbours_only:
        return [(t, t + 1) for t in range(count - 1)]
    return list(itertools.combinations(range(count), 2))


def _best_swap(left: list[int], right: list[int], met: Meetings) -> bool:
    before = repeats(left, met) + repeats(right, met)
    if before == 0:
        return False
    best: tuple[int, int, int] | None = None
    for i, j in itertools.product(range(len(left)), range(len(right))):
        left[i], right[j] = right[j], left[i]
        after = repeats(left, met) + repeats(right, met)
        left[i], right[j] = right[j], left[i]
        if after < before and (best is None or after < best[0]):
            best = (after, i, j)
    if best is None:
        return False
    _, i, j = best
    left[i], right[j] = right[j], left[i]
    return True


def round_robin(
    players: Sequence[int],
    size: int,
    smallest: int,
    round_number: int,
    met: Meetings,
    byes_had: Counter[int],
    seed: int = 0,
) -> Seating:
    """Round ``round_number`` (from 1) of a round robin over ``players`` (in entry order)."""
    if size == 2:
        return _circle(players, round_number)
    sizes, bye_count = table_sizes(len(players), size, smallest)
    order = list(players)
    random.Random(f"{seed}:{round_number}").shuffle(order)
    byes = choose_byes(order, bye_count, byes_had)
    tables = _cut([p for p in order if p not in byes], sizes)
    _swap_down(tables, met, neighbours_only=False)
    return Seating(tables=tables, byes=byes)


def round_robin_rounds(players: int, size: int) -> int:
    """Rounds for everyone to meet everyone at least once, as tables allow."""
    if size == 2:
        return players - 1 if players % 2 == 0 else players
    return max(1, -(-(players - 1) // (size - 1)))


def _circle(players: Sequence[int], round_number: int) -> Seating:
    """The circle method: fix the first, rotate the rest; an odd field gets a ghost (the bye)."""
    field_: list[int | None] = [*players]
    if len(field_) % 2:
        field_.append(None)
    n = len(field_)
    shift = (round_number - 1) % (n - 1)
    rest = field_[1:]
    rotated = [field_[0], *rest[-shift:], *rest[:-shift]] if shift else field_
    seating = Seating()
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if a is None or b is None:
            seating.byes.append(b if a is None else a)  # type: ignore[arg-type]
        else:
            seating.tables.append([a, b])
    return seating


def elimination(seeds: Sequence[int], size: int, smallest: int, advance: int) -> Seating:
    """Seat a bracket round: ``seeds`` best first, snake order across tables
    (1, 2, …, t, t, …, 2, 1), so the top seeds meet as late as possible. When
    the field does not fill the tables the top seeds take byes and advance."""
    sizes, bye_count = table_sizes(len(seeds), size, max(smallest, advance + 1))
    byes = list(seeds[:bye_count])
    field_ = list(seeds[bye_count:])
    tables: list[list[int]] = [[] for _ in sizes]
    for index, player in enumerate(field_):
        lap, place = divmod(index, len(tables))
        order = _open_tables(tables, sizes, place if lap % 2 == 0 else len(tables) - 1 - place)
        tables[order].append(player)
    return Seating(tables=tables, byes=byes)


def _open_tables(tables: list[list[int]], sizes: Sequence[int], wanted: int) -> int:
    if len(tables[wanted]) < sizes[wanted]:
        return wanted
    return next(t for t in range(len(tables)) if len(tables[t]) < sizes[t])
