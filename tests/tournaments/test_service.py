"""The tournament service on a real Redis, tables driven to their end through TableService."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.service.errors import TableError
from bot.service.ratings import RatingService
from bot.service.tables import Player, TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.standings import standings
from bot.tournaments.table_ends import Results
from engines.core import Result
from engines.registry import GAMES
from storage.ratings import RatingStore
from storage.records import TableRecord, TableStatus
from storage.store import TableStore
from storage.tournaments import Format, Phase, Tournament, TournamentStore
from tests.support.minigame import HIGH_CARD
from tests.tournaments.tables import rated_table

GAMES_HERE: dict[str, Any] = {"high-card": HIGH_CARD, "scales-of-influence": GAMES["scales-of-influence"]}


async def open_cup(service: TournamentService, game: str, **options: Any) -> Tournament:
    """A tournament as an organiser (user 1) opens it in channel 6 of server 5."""
    return await service.create(game=game, organiser_id=1, guild_id=5, channel_id=6, **options)


def services(redis: Redis) -> TournamentService:
    tables = TableService(TableStore(redis), games=GAMES_HERE)
    return TournamentService(TournamentStore(redis), tables, RatingService(RatingStore(redis), tables.clock))


def results(service: TournamentService) -> Results:
    assert service.ratings is not None
    return Results(service.ratings, service)


async def register(service: TournamentService, t: Tournament, count: int) -> list[Player]:
    players = [Player(100 + i, f"p{i}") for i in range(count)]
    for player in players:
        await service.join(t.id, player)
    return players


async def finish_round(service: TournamentService, t: Tournament) -> Tournament:
    current = t.current
    assert current is not None
    for table in current.tables:
        assert table.table_id is not None
        outcome = await service.tables.play_out(table.table_id)
        assert outcome.table.status is TableStatus.FINISHED
        t = await results(service).table_ended(outcome.table) or t
    return await service.get(t.id)


async def test_a_nine_player_swiss_of_a_three_to_seven_player_game(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(
        service, "scales-of-influence", fmt=Format.SWISS, table_size=5, rounds=3, rated=True, name="Cup"
    )
    await register(service, t, 9)
    t = await service.start(t.id)
    for number in (1, 2, 3):
        assert t.current is not None and t.current.number == number
        assert sorted(len(table.players) for table in t.current.tables) == [4, 5], "tables of k and k−1"
        t = await service.seat_round(t.id)
        t = await service.seat_round(t.id)  # again, as after a restart: nothing doubles
        await service.store.unschedule(t.id)  # as the desk does once a round is seated
        t = await finish_round(service, t)
        assert t.current is not None and t.current.closed
        assert t.id in await service.store.due(service.clock()), "the next round is due, durably"
        t = await service.advance(t.id)
    assert t.phase is Phase.FINISHED and len(t.rounds) == 3
    lines = standings(t)
    assert [line.place for line in lines] == list(range(1, 10))
    assert all(line.played == 3 for line in lines)
    board = await service.ratings.leaderboard(5, "scales-of-influence") if service.ratings else []
    assert len(board) == 9 and all(s.rating.games == 3 for s in board), "rated tables moved every rating"


async def test_elimination_of_eight_seeds_by_rating_and_crowns_one(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(service, "high-card", fmt=Format.ELIMINATION, table_size=2, name="KO")
    players = await register(service, t, 8)
    t = await service.start(t.id)
    rounds = 0
    while t.phase is Phase.RUNNING:
        t = await service.seat_round(t.id)
        t = await finish_round(service, t)
        t = await service.advance(t.id)
        rounds += 1
    assert rounds == 3 and [len(r.tables) for r in t.rounds] == [4, 2, 1]
    winner = standings(t)[0]
    final = t.rounds[-1].tables[0].score
    assert final is not None and winner.user_id in final.ranking[0]  # a shared first place is possible
    assert {p.user_id for p in players} == {line.user_id for line in standings(t)}


async def test_drops_byes_and_a_moderator_decision(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(service, "high-card", fmt=Format.ROUND_ROBIN, table_size=2, name="RR")
    players = await register(service, t, 5)
    with pytest.raises(TableError, match="already registered"):
        await service.join(t.id, players[0])
    t = await service.start(t.id)
    assert t.rounds_planned == 5 and t.current is not None and len(t.current.byes) == 1
    t = await service.seat_round(t.id)
    dropped = t.current.tables[0].players[0] if t.current else 0
    t = await service.drop(t.id, dropped)
    table_id = t.current.tables[0].table_id if t.current else None
    assert table_id is not None
    record = await service.tables.get(table_id)
    assert dropped not in record.user_ids, "a bot plays the dropped player's seat"
    t = await service.decide(t.id, "tie")
    assert t.current is not None and t.current.closed
    assert all(s.score and s.score.decided == "tie" for s in t.current.tables)
    t = await service.advance(t.id)
    assert t.current is not None and all(dropped not in table.players for table in t.current.tables)
    byes = Counter(u for r in t.rounds for u in r.byes)
    assert max(byes.values()) == 1 or dropped in byes


async def test_check_in_cap_replace_and_award(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(
        service, "high-card", fmt=Format.SWISS, table_size=2, rounds=2, cap=4, check_in=True, name="C"
    )
    players = await register(service, t, 4)
    with pytest.raises(TableError, match="full"):
        await service.join(t.id, Player(999, "late"))
    for player in players[:3]:
        await service.check_in(t.id, player.user_id)
    t = await service.start(t.id)
    assert [e.user_id for e in t.entrants] == [p.user_id for p in players[:3]], "no check-in, no place"
    assert t.current is not None and len(t.current.byes) == 1
    t = await service.seat_round(t.id)
    [table] = t.current.tables if t.current else []
    old, new = table.players[0], Player(777, "sub")
    t = await service.replace(t.id, old, new)
    assert t.entrant(777) is not None and t.entrant(old) is None
    assert t.current is not None and t.current.tables[0].players[0] == 777
    with pytest.raises(TableError, match="every player"):
        await service.award(t.id, table.table_id or "", [[777]])
    t = await service.award(t.id, table.table_id or "", [[table.players[1]], [777]])
    assert t.current is not None and t.current.closed
    assert (await service.tables.get(table.table_id or "")).status is TableStatus.ABANDONED
    line = {s.user_id: s for s in standings(t)}
    assert line[table.players[1]].points == 1.0 and line[777].points == 0.0


async def test_swiss_then_final_and_elimination_seeded_by_rating(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(service, "high-card", fmt=Format.SWISS_FINAL, table_size=3, rounds=2, name="F")
    await register(service, t, 7)
    t = await service.start(t.id)
    while t.phase is Phase.RUNNING:
        t = await finish_round(service, await service.seat_round(t.id))
        t = await service.advance(t.id)
    final = t.rounds[-1]
    assert len(t.rounds) == 3 and final.final and len(final.tables) == 1 and len(final.tables[0].players) == 3
    assert final.tables[0].score is not None
    top = [line.user_id for line in standings(t)[:3]]
    ranking = final.tables[0].score.ranking
    assert set(top) == set(final.tables[0].players), "the final table takes the first three places"
    assert top[0] in ranking[0], "in the order it finished (a shared place is ordered by tie-breaks)"

    # The strongest rated player is seed 1: in a bracket of 8 they meet seed 8 first.
    assert service.ratings is not None
    for i in range(3):
        seat = rated_table(f"warm{i}", [100, 107], game="high-card")
        await service.ratings.table_ended(seat, Result(ranking=[[1], [0]]))
    k = await open_cup(service, "high-card", fmt=Format.ELIMINATION, table_size=2, name="K")
    await register(service, k, 8)
    k = await service.start(k.id)
    assert k.current is not None and k.current.tables[0].players[0] == 107


async def test_seating_resumes_a_table_made_but_not_started_before_a_crash(redis: Redis) -> None:
    service = services(redis)
    t = await open_cup(service, "high-card", fmt=Format.SWISS, table_size=2, rounds=1, name="R")
    await register(service, t, 4)
    t = await service.start(t.id)
    assert t.current is not None
    first = t.current.tables[0]
    assert first.table_id is not None
    # The crash: the first table is stored, in its lobby, and the process dies before starting it.
    real_start = service.tables.start

    async def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")  # not a storage fault: the service passes it on

    service.tables.start = crash  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await service.seat_round(t.id)
    service.tables.start = real_start  # type: ignore[method-assign]
    assert (await service.tables.get(first.table_id)).status is TableStatus.LOBBY
    seen: list[str] = []

    async def shown(record: TableRecord) -> None:
        seen.append(record.id)

    t = await service.seat_round(t.id, shown)
    assert t.current is not None and t.current.seated
    assert seen == [table.table_id for table in t.current.tables]
    record = await service.tables.get(first.table_id)
    assert record.status is TableStatus.PLAYING and record.seats[0].user_id == first.players[0]
    assert record.seed == random.Random(f"{t.seed}:{first.table_id}").getrandbits(48), "replayable"
