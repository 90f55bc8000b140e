"""Bots at a table, through TableService on a real Redis: the difficulty is kept
on the seat, bot moves come from the search and replay the same way, and a
table of searching bots does not stall the event loop."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import random
import time
from typing import Any

import pytest

from bot.service import changes
from bot.service.bots import bot_move, pace
from bot.service.tables import Player, TableService
from engines.ai import LEVELS
from engines.registry import GAMES
from storage.records import TableStatus
from storage.store import TableStore
from tests.engines.test_spheres_of_life_helpers import fresh, give, to_dream
from tests.support.clock import Clock

ANN = Player(1, "Ann")


@pytest.fixture
def service(store: TableStore) -> TableService:
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games=GAMES)


async def bot_table(service: TableService, levels: list[str], seed: int) -> str:
    table = await service.create("time-masters", ANN, channel_id=100, guild_id=10, seed=seed)
    for level in levels:
        await service.add_bot(table.id, ANN.user_id, level=level)  # type: ignore[arg-type]
    return table.id


async def test_the_difficulty_is_kept_on_the_seat_and_told(service: TableService) -> None:
    table_id = await bot_table(service, [], 1)
    outcome = await service.add_bot(table_id, ANN.user_id, level="hard")
    assert [(s.name, s.level) for s in outcome.table.seats[1:]] == [("Bot 1", "hard")]
    assert service.text(outcome.table, outcome.public_events[0].text) == "Bot 1 (hard bot) takes a seat."
    plain = await service.add_bot(table_id, ANN.user_id)
    assert plain.table.seats[2].level == "normal"


async def bot_moves(service: TableService, table_id: str) -> list[object]:
    return [e.action for e in await service.store.log(table_id) if e.kind == "bot"]


async def test_bots_play_their_turns_and_replay_the_same_way(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the clock out of the way (a loaded machine may cut a search short),
    # the table's seed and version alone decide every bot move.
    for name, level in list(LEVELS.items()):
        monkeypatch.setitem(LEVELS, name, dataclasses.replace(level, budget_ms=math.inf))
    # Seed 4: a bot moves first, so starting the table plays its whole turn.
    first = await bot_table(service, ["normal", "easy"], 4)
    second = await bot_table(service, ["normal", "easy"], 4)
    for table_id in (first, second):
        outcome = await service.start(table_id, ANN.user_id)
        assert outcome.table.status is TableStatus.PLAYING
        assert service.awaited(outcome.table) == [0]  # back to Ann
    moves = await bot_moves(service, first)
    assert len(moves) >= 3 and moves == await bot_moves(service, second)


async def test_a_table_of_searching_bots_leaves_the_event_loop_free(service: TableService) -> None:
    table_id = await bot_table(service, ["hard", "hard", "hard"], 4)
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    ticking = asyncio.create_task(ticker())
    await service.start(table_id, ANN.user_id)
    done.set()
    await ticking
    # Each hard decision lasts its whole budget (bots.pace), so the change's
    # thinking time holds two of them.
    assert len(await bot_moves(service, table_id)) >= 2
    # Hard searches ran while the start was saved; had they run on the loop,
    # the ticker would have stood still for all of them.
    assert ticks >= 10


async def test_a_long_chain_of_bot_moves_goes_on_from_the_sweeper(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(changes, "BOT_SECONDS", 0.0)  # each change: one bot move, then hand over
    table_id = await bot_table(service, ["easy", "easy"], 4)
    woken: list[str] = []
    service.on_due = lambda: woken.append("due")
    started = await service.start(table_id, ANN.user_id)
    assert len(await bot_moves(service, table_id)) == 1
    assert started.table.deadline == service.clock()  # due now: the sweeper goes on at once...
    assert woken == ["due"]  # ...woken by the save rather than at its next round
    await service.expire()
    assert len(await bot_moves(service, table_id)) == 2
    assert woken == ["due", "due"]


# Short games: three Hemo to win; small decks and few rounds of Phase.
SHORT = {"once-upon-a-time-life": {"hemo": 3}, "phase": {"influence": 2, "deck_size": 15, "round_limit": 5}}


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_a_normal_bot_plays_a_whole_game_of_each_sampled_game(service: TableService, game: str) -> None:
    table = await service.create(game, ANN, channel_id=100, seed=3, options=SHORT[game])
    await service.add_bot(table.id, ANN.user_id, level="normal")
    await service.start(table.id, ANN.user_id)
    rng = random.Random(3)
    for _ in range(3000):
        record = await service.get(table.id)
        if record.status is not TableStatus.PLAYING:
            break
        if service.awaited(record) != [0]:
            # A bot whose thinking ran past one change's budget (a loaded
            # machine): it hands over, due at once, and the sweeper plays on.
            assert record.deadline == service.clock(), "the bot left a move undone"
            await service.expire()
            continue
        choice = rng.choice(service.choices(record, ANN.user_id))
        await service.act(table.id, ANN.user_id, choice.key, record.version)
    assert record.status is TableStatus.FINISHED
    assert len(await bot_moves(service, table.id)) >= 5


def _life_answering(bot_easy: float) -> Any:
    """A Life game where seat 1 (the bot) answers an Easy question."""
    engine = GAMES["once-upon-a-time-life"]
    state = engine.setup(2, engine.parse_options({"random_first": False, "bot_easy": bot_easy}), 1)
    state.stage, state.turn = "pick", 1
    return engine.apply(
        state, 1, next(c.action for c in engine.legal_actions(state, 1) if c.key == "question:easy")
    ).state


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_life_bot_answers_right_with_the_tables_odds_not_by_search(level: str) -> None:
    engine = GAMES["once-upon-a-time-life"]
    sure, never = _life_answering(1.0), _life_answering(0.0)
    right = f"answer:{sure.question.correct}"
    assert never.question.correct == sure.question.correct  # the same question, shown the same way
    for seed in range(20):
        assert bot_move(engine, sure, 1, level, f"s{seed}").key == right
        assert bot_move(engine, never, 1, level, f"s{seed}").key != right
    # Before the question, the game has no policy of its own: the bot searches.
    assert engine.bot_policy(engine.setup(2, engine.parse_options(), 1), 0, level, random.Random(1)) is None


@pytest.mark.parametrize("players", [2, 4])
async def test_a_table_of_easy_bots_and_a_person_reaches_the_end(store: TableStore, players: int) -> None:
    # Spheres of Life: an easy bot used to swap two cards of its hand for ever,
    # and the sweeper went on with it at once, again and again.
    slept: list[float] = []
    service = TableService(store, clock=Clock(1000.0), turn_timeout=60, games=GAMES, sleep=slept.append)
    table = await service.create("spheres-of-life", ANN, channel_id=100, seed=5)
    for _ in range(players - 1):
        await service.add_bot(table.id, ANN.user_id, level="easy")
    await service.start(table.id, ANN.user_id)
    rng = random.Random(5)
    for _ in range(2000):
        record = await service.get(table.id)
        if record.status is not TableStatus.PLAYING:
            break
        if 0 not in service.awaited(record):
            assert record.deadline == service.clock(), "the bots left a move undone"
            await service.expire()
            continue
        legal = service.choices(record, ANN.user_id)
        choice = rng.choice([c for c in legal if not c.idle] or legal)
        await service.act(table.id, ANN.user_id, choice.key, record.version)
    assert record.status is TableStatus.FINISHED
    assert len(await bot_moves(service, table.id)) >= 5
    assert slept and all(0 < s <= LEVELS["easy"].budget_ms / 1000 for s in slept)


def test_a_bots_decision_waits_out_its_levels_budget() -> None:
    slept: list[float] = []
    pace("hard", time.perf_counter(), slept.append)
    assert len(slept) == 1 and 0 < slept[0] <= LEVELS["hard"].budget_ms / 1000
    pace("hard", time.perf_counter() - 60, slept.append)  # a search that ran long: no more waiting
    assert len(slept) == 1


async def _bank_with_the_bot_watching(service: TableService, lake: bool, calls: list[str]) -> int:
    """Ann banks a set in her Dream while the bot (seat 1), waited for by
    nobody, may play out of turn: it holds Mirror Lake or no Ability at all.
    ``calls`` then holds what the bot did in Ann's change; returns the Lake."""
    table = await service.create("spheres-of-life", ANN, channel_id=100, seed=2)
    await service.add_bot(table.id, ANN.user_id, level="normal")
    await service.start(table.id, ANN.user_id)
    state = to_dream(fresh(2))
    give(state, 0, "noble-rabbit", "noble-rabbit", "noble-rabbit", "noble-owl")
    hand = ["corrupted-snake", "corrupted-snake", "corrupted-rat"]
    cards = give(state, 1, *(["mirror-lake"] if lake else []), *hand)
    record = await service.get(table.id)
    await service.store.save(record.model_copy(update={"state": GAMES["spheres-of-life"].dump_state(state)}))
    calls.clear()
    await service.act(table.id, ANN.user_id, "bank:noble-rabbit")
    return cards[0]


async def test_a_bot_weighs_its_optional_plays_whether_it_holds_one_or_not(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # How soon the table answers Ann must not tell her whether the bot holds a
    # card it could play: it weighs, and waits out its budget, either way.
    calls: list[str] = []
    weigh, move = changes.bot_optional, changes.bot_move

    def weighing(*args: Any) -> Any:
        chosen = weigh(*args)
        calls.append(f"weigh:{chosen.key if chosen else '-'}")
        return chosen

    def moving(*args: Any) -> Any:
        calls.append("move")
        return move(*args)

    monkeypatch.setattr(changes, "bot_optional", weighing)
    monkeypatch.setattr(changes, "bot_move", moving)
    monkeypatch.setattr(changes, "pace", lambda level, started, sleep: calls.append(f"pace:{level}"))
    lake = await _bank_with_the_bot_watching(service, True, calls)
    holding = list(calls)
    await _bank_with_the_bot_watching(service, False, calls)
    # Holding Mirror Lake and nothing but Corrupted animals, it swaps hands
    # (then answers the Block window its play opened); holding nothing, it
    # still weighs once, paced the same.
    assert holding == [f"weigh:play:{lake}:0", "pace:normal", "move", "pace:normal"]
    assert calls == ["weigh:-", "pace:normal"]
