"""The table service under real storage faults — a Redis restart, a frozen
server, connections dropped mid-save — on a private ``redis-server``: it raises
only its own errors, and every answer is what Redis holds afterwards. A move
answered as counted is in the table; one answered "storage is unavailable" is
not, and never lands later; no move that landed is answered "unknown"."""

from __future__ import annotations

import asyncio
import inspect
import random
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.service.errors import OutcomeUnknown, StorageUnavailable
from bot.service.tables import Player, TableService
from storage.connect import connect
from storage.server import RedisServer
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.faults import drop_connections, frozen, inject, on_script, restart
from tests.support.tally import TALLY

pytestmark = pytest.mark.skipif(not RedisServer.installed(), reason="needs redis-server")

ANN, BOB = Player(1, "ann"), Player(2, "bob")
COUNTED, NOT_DONE, UNKNOWN = "counted", "not done", "unknown"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    """A private server of its own: these tests restart and freeze it."""
    private = RedisServer(tmp_path, tcp=True, appendonly=True)
    private.start()
    yield private
    private.stop()


@pytest.fixture
async def service(server: RedisServer) -> AsyncIterator[TableService]:
    # Replies are waited for 0.2 s and a command is sent twice at most (5 s and
    # five times in the bot), so that outages of a second or two outlast the
    # client's own retrying, as longer ones outlast the bot's.
    client = connect(server.url, timeout=0.2, retries=1)
    store = TableStore(client)
    store.settle_within = 8.0
    yield TableService(store, clock=Clock(), turn_timeout=600, games={"tally": TALLY})
    await client.aclose()


async def tally_table(service: TableService) -> str:
    record = await service.create("tally", ANN, channel_id=100, seed=3)
    await service.join(record.id, BOB)
    await service.start(record.id, ANN.user_id)
    return record.id


async def tap(service: TableService, table_id: str) -> str:
    """Ann taps once; how the service answered. Any other error fails the test."""
    try:
        await service.act(table_id, ANN.user_id, "tap")
    except OutcomeUnknown:
        return UNKNOWN
    except StorageUnavailable:
        return NOT_DONE
    return COUNTED


async def taps_in_redis(service: TableService, table_id: str) -> tuple[int, int]:
    """Ann's taps in the stored state, and the tap moves in the stored log."""
    record = await service.get(table_id)
    view = service.view(record, None)
    entries = await service.store.log(table_id)
    return view.taps[0], sum(1 for e in entries if e.kind == "act")  # type: ignore[attr-defined]


async def check_every_answer(
    service: TableService, table_id: str, answers: list[str], settle: float = 1.0
) -> None:
    # Long enough for any copy of a given-up save still on its way to arrive (and be refused).
    await asyncio.sleep(settle)
    assert UNKNOWN not in answers, "Redis came back in time: every outcome is known"
    stored, logged = await taps_in_redis(service, table_id)
    assert stored == logged == answers.count(COUNTED), answers


# A fault of ``outage`` seconds, begun as a tap's save is being sent.
Fault = Callable[[RedisServer, float], Coroutine[Any, Any, None]]
# The client retries a command for about half a second: an outage longer than
# a save and its reading back reaches the service, a shorter one is hidden.
LONG = 1.5


async def a_restart(server: RedisServer, outage: float) -> None:
    await asyncio.to_thread(restart, server, outage)


async def a_freeze(server: RedisServer, outage: float) -> None:
    with frozen(server):  # at once, before the save is sent
        await asyncio.sleep(outage)


async def dropped_connections(server: RedisServer, outage: float) -> None:
    admin = connect(server.url)
    try:
        await drop_connections(admin, outage)
    finally:
        await admin.aclose()


FAULTS: dict[str, Fault] = {"restart": a_restart, "freeze": a_freeze, "drop": dropped_connections}
# How long after the fault begins the save is sent, at most: a restart takes
# a moment to stop the server, and the save may be sent before or after.
LEAD = {"restart": 0.2, "freeze": 0.0, "drop": 0.01}


async def tap_under(
    fault: str,
    server: RedisServer,
    service: TableService,
    table_id: str,
    outage: float,
    lead: float | None = None,
) -> str:
    """A tap whose save is sent ``lead`` seconds after ``fault`` begins (its
    default: ``LEAD``), answered once the fault is over. The save may run and
    its reply be lost, or never run."""
    redis = service.store.redis
    real = redis.evalsha
    begun: list[asyncio.Task[None]] = []

    async def evalsha(*args: Any) -> Any:
        if not begun and args[0] == service.store._save.sha:
            begun.append(asyncio.create_task(FAULTS[fault](server, outage)))
            await asyncio.sleep(LEAD[fault] if lead is None else lead)
        return await real(*args)

    redis.evalsha = evalsha  # type: ignore[method-assign,assignment]
    try:
        answer = await tap(service, table_id)
    finally:
        redis.evalsha = real  # type: ignore[method-assign]
    await asyncio.gather(*begun)
    return answer


@pytest.mark.parametrize("fault", FAULTS)
async def test_every_answer_under_a_long_fault_matches_redis(
    server: RedisServer, service: TableService, fault: str
) -> None:
    table_id = await tally_table(service)
    answers = [await tap_under(fault, server, service, table_id, LONG)]
    answers.append(await tap(service, table_id))  # and once it is all over, a tap simply counts
    assert answers[-1] == COUNTED
    await check_every_answer(service, table_id, answers)


async def test_a_save_given_up_as_unknown_may_land_once_and_a_settled_one_is_told_truly(
    server: RedisServer, service: TableService
) -> None:
    table_id = await tally_table(service)
    service.store.settle_within = 0.5  # the writer gives up while the server is still frozen
    with frozen(server):
        answer = await tap(service, table_id)
        assert answer == UNKNOWN, "nothing could be asked of a frozen server"
        service.store.settle_within = 8.0
    await asyncio.sleep(0.5)  # the save (and the client's resends of it) reach the thawed server
    stored, logged = await taps_in_redis(service, table_id)
    assert stored == logged == 1, "unknown to its writer, it may land: once"
    settled = await tap_under("freeze", server, service, table_id, LONG)
    assert settled in (COUNTED, NOT_DONE)
    await check_every_answer(service, table_id, [COUNTED, settled])


@pytest.mark.slow
@pytest.mark.parametrize("fault", FAULTS)
async def test_many_faults_at_random_moments_every_answer_matches_redis(
    server: RedisServer, service: TableService, fault: str
) -> None:
    table_id = await tally_table(service)
    rng = random.Random(f"{fault}-many")
    answers = [
        await tap_under(fault, server, service, table_id, rng.uniform(0, 2.5), rng.uniform(0, LEAD[fault]))
        for _ in range(10)
    ]
    await check_every_answer(service, table_id, answers)


def test_every_coroutine_a_caller_may_call_raises_only_the_services_errors() -> None:
    for name in dir(TableService):
        found = getattr(TableService, name)
        if inspect.iscoroutinefunction(found) and (not name.startswith("_") or name == "_change"):
            assert hasattr(found, "__wrapped__"), f"TableService.{name} may let a redis-py error out"


@pytest.mark.parametrize("error", [RedisConnectionError("Connection reset"), RedisTimeoutError("Timeout")])
async def test_a_read_on_storage_that_does_not_answer_is_the_services_own_error(
    store: TableStore, error: Exception
) -> None:
    service = TableService(store, clock=Clock(), games={"tally": TALLY})
    table_id = await tally_table(service)
    inject(store.redis, "hmget", error=error, times=1000)
    with pytest.raises(StorageUnavailable) as down:
        await service.get(table_id)
    assert not isinstance(down.value, OutcomeUnknown) and "try again" in down.value.message
    inject(store.redis, "evalsha", error=error, times=1000, when=on_script(store._save.sha))
    with pytest.raises(StorageUnavailable) as refused:  # the save, refused before it ran
        await service.act(table_id, ANN.user_id, "tap")
    assert not isinstance(refused.value, OutcomeUnknown)
