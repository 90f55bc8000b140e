"""bot.service.policy's decisions from plain data, and the finders that apply them: each server sees its
own tables and tournaments only (a DM: the user's own), another server's object is answered as an
id that names nothing, and powers count only in the object's own server. On a real Redis."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import policy
from bot.service.errors import TableError, TableNotFound
from bot.service.policy import Actor
from bot.service.tables import Player, TableService
from bot.tournaments.service import TournamentService
from storage.records import SeatRecord, TableRecord
from storage.store import TableStore
from storage.tournaments import Entrant, Format, Tournament, TournamentStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")
A, B = 10, 20  # two servers
ROLE = 77


def member(user_id: int, guild: int, *, manage: bool = False, roles: tuple[int, ...] = ()) -> Actor:
    return Actor(user_id, guild, None, member=True, manage_guild=manage, role_ids=frozenset(roles))


def table(
    guild: int | None = B, seats: tuple[int | None, ...] = (1,), away: int | None = None
) -> TableRecord:
    return TableRecord(
        id="t1", game="high-card", host_id=1, guild_id=guild, created_at=0, updated_at=0, seed=1,
        turn_timeout=60, seats=[SeatRecord(user_id=u, name="x", away=away) for u in seats],
    )  # fmt: skip


def cup(guild: int = B, entrants: tuple[int, ...] = (2,), organiser: int = 5) -> Tournament:
    return Tournament(
        id="cup", guild_id=guild, channel_id=1, organiser_id=organiser, name="Cup", game="high-card",
        format=Format.SWISS, table_size=2, turn_timeout=60, created_at=0,
        entrants=[Entrant(user_id=u, name="x") for u in entrants],
    )  # fmt: skip


@pytest.fixture
def service(store: TableStore) -> TableService:
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})


def test_a_server_sees_its_own_tables_only_and_a_dm_the_users_own() -> None:
    record = table(B, seats=(1, None), away=3)
    assert policy.sees_table(member(9, B), record)
    assert not policy.sees_table(member(1, A, manage=True), record), "not even a player's, from A"
    assert not policy.sees_table(Actor(9, B), record), "no member data: no member"
    assert policy.sees_table(Actor(1), record) and policy.sees_table(Actor(3), record), "seat, or kept seat"
    assert not policy.sees_table(Actor(9), record)
    assert not policy.sees_table(member(9, B), table(None)), "a table of no server is no server's"


def test_powers_count_in_the_objects_own_server_only() -> None:
    assert policy.moderates(member(9, B, manage=True), B)
    assert not policy.moderates(member(9, A, manage=True), B)
    assert not policy.moderates(Actor(9, manage_guild=True), B), "a DM holds no powers"
    assert not policy.moderates(member(9, B), B)
    organiser = member(5, B)
    assert policy.organises(organiser, cup(), B, None), "its organiser"
    assert policy.organises(member(9, B, roles=(ROLE,)), cup(), B, ROLE)
    assert not policy.organises(member(9, A, roles=(ROLE,), manage=True), cup(), B, ROLE)
    assert not policy.organises(member(5, A), cup(), B, None), "its organiser, but from another server"
    with pytest.raises(TableError, match="own server"):
        policy.powers_at_home(Actor(1), B)
    policy.powers_at_home(member(1, B), B)


def test_tournaments_and_unreadable_tables_are_judged_alike() -> None:
    assert policy.sees_tournament(member(9, B), cup())
    assert not policy.sees_tournament(member(2, A), cup())
    assert policy.sees_tournament(Actor(2), cup()) and not policy.sees_tournament(Actor(9), cup())
    salvaged = {"guild_id": B, "user_ids": [1], "channel_id": 300}
    assert policy.sees_salvaged(member(9, B), salvaged) and not policy.sees_salvaged(member(9, A), salvaged)
    assert policy.sees_salvaged(Actor(1), salvaged) and not policy.sees_salvaged(Actor(9), salvaged)
    no_server = {"channel_id": 300}
    here = Actor(9, B, 300, member=True)
    assert policy.sees_salvaged(here, no_server), "in the very channel it sits in"
    assert not policy.sees_salvaged(Actor(9, A, 301, member=True), no_server)


def test_another_servers_object_is_refused_in_the_words_of_a_missing_id() -> None:
    with pytest.raises(TableNotFound) as refused:
        policy.seen_table(member(9, A), table(B), "t1")
    assert refused.value.message == "There is no table 't1'."
    with pytest.raises(TableNotFound) as refused:
        policy.seen_tournament(member(9, A), cup(), "cup")
    assert refused.value.message == "There is no tournament 'cup'."


def test_names_refuses_what_is_not_a_kind() -> None:
    with pytest.raises(ValueError):
        policy.names("everything")  # type: ignore[arg-type]

    @policy.names("own")
    def callback() -> None: ...

    assert policy.named_by(callback) == "own" and policy.named_by(len) is None


async def test_a_named_table_of_another_server_is_as_missing(service: TableService) -> None:
    theirs = await service.create("high-card", BOB, channel_id=200, guild_id=B)
    with pytest.raises(TableNotFound) as missing:
        await service.find(member(1, A), 100, "zzzzzzzz")
    with pytest.raises(TableNotFound) as hidden:
        await service.find(member(1, A, manage=True), 100, theirs.id.upper())
    assert hidden.value.message == missing.value.message.replace("zzzzzzzz", theirs.id)
    with pytest.raises(TableNotFound):
        await service.find_lobby(100, theirs.id, actor=member(1, A))
    assert (await service.find(member(1, B), 200, theirs.id)).id == theirs.id
    assert (await service.find(Actor(BOB.user_id), None, theirs.id)).id == theirs.id, "a DM: one's own"
    with pytest.raises(TableNotFound):
        await service.find(Actor(ANN.user_id), None, theirs.id)


async def test_a_command_naming_no_table_looks_only_in_its_own_server(service: TableService) -> None:
    """Ann sits at one table in A and one in B: in each server a command finds that server's
    (from another of its channels), and in a DM she must pick one."""
    in_a = await service.create("high-card", ANN, channel_id=100, guild_id=A)
    in_b = await service.create("high-card", ANN, channel_id=200, guild_id=B)
    assert (await service.find(member(1, A), 101)).id == in_a.id
    assert (await service.find(member(1, B), 201)).id == in_b.id
    for outside in (Actor(ANN.user_id), ANN.user_id):  # a DM; a caller outside any server
        with pytest.raises(TableError, match="several tables"):
            await service.find(outside, 999)
    with pytest.raises(TableNotFound):
        await service.find(member(1, 30), 300)
    assert (await service._find_loaded(ANN.user_id, 101, A)).id == in_a.id


async def test_a_named_tournament_of_another_server_is_as_missing(service: TableService) -> None:
    tournaments = TournamentService(TournamentStore(service.store.redis), service)
    theirs = await tournaments.create(
        name="B Cup", game="high-card", organiser_id=5, guild_id=B, channel_id=200, fmt=Format.SWISS
    )
    with pytest.raises(TableNotFound) as hidden:
        await tournaments.find(A, 100, theirs.id, actor=member(1, A, manage=True))
    assert hidden.value.message == f"There is no tournament '{theirs.id}'."
    with pytest.raises(TableNotFound):
        await tournaments.find(B, 100, actor=member(1, A))
    assert (await tournaments.find(B, 200, theirs.id, actor=member(1, B))).id == theirs.id
    assert (await tournaments.find(B, 200, actor=member(1, B))).id == theirs.id


async def test_refusing_a_table_this_process_holds_reads_as_a_missing_id_does(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change reads this process's own last copy with no round trip; an unknown id costs one.
    Refusing another server's table must cost that one too, or the answer's timing tells."""
    theirs = await service.create("high-card", BOB, channel_id=200, guild_id=B)
    assert service.store.recent.fields(theirs.id) is not None, "kept by the write"
    reads: list[str] = []
    get = service.store.get

    async def counted(table_id: str) -> Any:
        reads.append(table_id)
        return await get(table_id)

    monkeypatch.setattr(service.store, "get", counted)
    for asked in (theirs.id, "z" * len(theirs.id)):
        with pytest.raises(TableNotFound):
            await service.named(member(1, A), asked, to_change=True)
    assert reads == [theirs.id, "z" * len(theirs.id)]
    reads.clear()
    assert (await service.named(member(2, B), theirs.id, to_change=True)).id == theirs.id
    assert reads == [], "its own server's change still takes the kept copy"
