"""Ratings that cannot be dodged or farmed, on real tables: a player who leaves
a rated game, times out into a bot for good, or is replaced by a substitute is
rated as finishing last there (a resignation), the others as they finished; a
substitute is never rated for that game; and a rebuild from the stored results
gives exactly the live figures."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bot.service.away import come_back, offer_seat, take_seat
from bot.service.ratings import RatingService, apply
from bot.service.tables import Player, TableService
from storage.ratings import PlayerRating, RatedResult, RatingStore, players_key
from storage.records import TableRecord, TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB, CID, DAN = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid"), Player(4, "Dan")
GUILD = 5


class Rated:
    """Rated High Card tables of one server, and their ratings."""

    def __init__(self, redis: Redis) -> None:
        self.clock = Clock(1000.0)
        self.service = TableService(
            TableStore(redis), clock=self.clock, turn_timeout=60, games={"high-card": HIGH_CARD}
        )
        self.ratings = RatingService(RatingStore(redis), self.clock)
        self.redis = redis

    async def table(self, *players: Player, seed: int = 3, hand_over_after: int = 0) -> str:
        record = await self.service.create(
            "high-card",
            players[0],
            guild_id=GUILD,
            channel_id=6,
            seed=seed,
            rated=True,
            hand_over_after=hand_over_after,
        )
        for player in players[1:]:
            await self.service.join(record.id, player)
        await self.service.start(record.id, players[0].user_id)
        return record.id

    async def time_out(self) -> None:
        self.clock.now += 61
        assert await self.service.expire()

    async def finish(self, table_id: str) -> TableRecord:
        record = await self.service.get(table_id)
        while record.status is TableStatus.PLAYING:
            user = record.seats[self.service.awaited(record)[0]].user_id
            assert user is not None
            record = (await self.service.act(table_id, user, self.service.choices(record, user)[0].key)).table
        self.clock.now += 10  # results are replayed in the order the tables ended
        return record

    async def rate(self, record: TableRecord) -> RatedResult:
        assert await self.ratings.table_ended(record, self.service.result(record))
        stored = await self.ratings.store.results(GUILD, "high-card")
        [mine] = [r for r in stored if r.table_id == record.id]
        return mine

    async def board(self) -> dict[int, PlayerRating]:
        return {r.user_id: r for r in await self.ratings.store.all(GUILD, "high-card")}


def finishing(result: RatedResult) -> dict[int, int]:
    return {user: rank for side, rank in zip(result.sides, result.ranks, strict=True) for user in side}


@pytest.fixture
def rated(redis: Redis) -> Rated:
    return Rated(redis)


async def test_leaving_a_rated_game_rates_the_leaver_last_and_the_others_as_they_finished(
    rated: Rated,
) -> None:
    table_id = await rated.table(ANN, BOB, CID)
    await rated.service.leave(table_id, ANN.user_id)  # a bot plays Ann's seat from now on
    record = await rated.finish(table_id)
    result = await rated.rate(record)
    places = finishing(result)
    ranking = rated.service.result(record)
    assert ranking is not None
    assert set(places) == {ANN.user_id, BOB.user_id, CID.user_id}, "leaving voids no one's rating"
    assert places[ANN.user_id] == len(ranking.ranking) > max(places[BOB.user_id], places[CID.user_id])
    as_finished = {seat: rank for rank, group in enumerate(ranking.ranking) for seat in group}
    assert (places[BOB.user_id] < places[CID.user_id]) == (as_finished[1] < as_finished[2])
    assert result.names[ANN.user_id] == "Ann", "the leaver keeps their own name"
    board = await rated.board()
    assert board[ANN.user_id].mu < 25 and board[ANN.user_id].games == 1


async def test_timing_out_into_a_bot_for_good_is_a_resignation_but_coming_back_is_not(rated: Rated) -> None:
    gone = await rated.table(ANN, BOB, hand_over_after=1)
    await rated.time_out()  # Ann's seat, awaited first, goes to a bot she may take back
    assert (await rated.service.get(gone)).seats[0].away == ANN.user_id
    places = finishing(await rated.rate(await rated.finish(gone)))
    assert set(places) == {ANN.user_id, BOB.user_id} and places[ANN.user_id] == 2 > places[BOB.user_id]

    back = await rated.table(ANN, BOB, seed=4, hand_over_after=1)
    await rated.time_out()
    await come_back(rated.service, back, ANN.user_id)
    record = await rated.finish(back)
    places = finishing(await rated.rate(record))
    assert set(places) == {ANN.user_id, BOB.user_id} and max(places.values()) < 2, "rated as she finished"


async def test_a_substitute_is_never_rated_and_the_seats_player_is_rated_last(rated: Rated) -> None:
    table_id = await rated.table(ANN, BOB, CID)
    record = await rated.service.get(table_id)
    await rated.service.act(table_id, ANN.user_id, rated.service.choices(record, ANN.user_id)[0].key)
    await rated.time_out()  # Bob and Cid let the response window run out
    await offer_seat(rated.service, table_id, ANN.user_id, 1, DAN.user_id, moderator=False)
    await take_seat(rated.service, table_id, DAN.user_id, DAN.name)  # plays on with Bob's hand
    record = await rated.finish(table_id)
    assert record.seats[1].user_id == DAN.user_id
    result = await rated.rate(record)
    places = finishing(result)
    assert DAN.user_id not in places and DAN.user_id not in await rated.board(), "a substitute earns nothing"
    assert places[BOB.user_id] == max(places.values()) and places[BOB.user_id] > places[ANN.user_id]


async def test_a_rebuild_gives_exactly_the_live_figures(rated: Rated) -> None:
    games: list[tuple[Player | None, tuple[Player, ...]]] = [
        (ANN, (ANN, BOB, CID)),
        (None, (BOB, CID)),
        (CID, (CID, ANN, DAN)),
    ]
    for seed, (leaver, players) in enumerate(games):
        table_id = await rated.table(*players, seed=seed)
        if leaver is not None:
            await rated.service.leave(table_id, leaver.user_id)
        await rated.rate(await rated.finish(table_id))
    live = await rated.board()
    results = await rated.ratings.store.results(GUILD, "high-card")
    expected: dict[int, PlayerRating] = {}
    for stored in results:
        expected.update(apply(stored, expected))
    assert {u: (r.mu, r.sigma, r.games) for u, r in live.items()} == {
        u: (r.mu, r.sigma, r.games) for u, r in expected.items()
    }
    await rated.redis.delete(players_key(GUILD, "high-card"))
    assert await rated.ratings.rebuild(GUILD) == 3
    rebuilt = await rated.board()
    assert {u: (r.mu, r.sigma, r.games, r.name) for u, r in rebuilt.items()} == {
        u: (r.mu, r.sigma, r.games, r.name) for u, r in live.items()
    }
    assert live[ANN.user_id].games == 2 and live[CID.user_id].games == 3 and live[DAN.user_id].games == 1
