"""Through Discord with storage and network faults: the player reads what really
happened to their move, and the table is told every saved change — once, even
across a failure or a restart — each recipient on their own."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.app.ui.answer import MOVE_COUNTED, STORAGE_DOWN, UNKNOWN
from engines.core import Event, Seat, seat_ref
from tests.e2e.harness import DiscordHarness, InteractionResult
from tests.e2e.tables import BotMaker, button, choose, embed_text, open_table, select_options
from tests.support.clock import Clock
from tests.support.faults import inject, on_script
from tests.support.minigame import Cheer, HighCard, HighCardState


class LoudCheer(HighCard):
    """High Card where a cheer also tells every other seat a secret: one change, several DMs."""

    def resolve(self, state: HighCardState, seat: Seat, action: BaseModel) -> list[Event]:  # type: ignore[override]
        events = super().resolve(state, seat, action)  # type: ignore[arg-type]
        if isinstance(action, Cheer):
            others = [s for s in range(state.players) if s != seat]
            events.append(Event(text=f"{seat_ref(seat)} tells you a secret.", to=others))
        return events


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": LoudCheer()}


async def started(h: DiscordHarness, maker: BotMaker) -> tuple[list[Any], Any, str]:
    users, message, table_id = await open_table(h, maker)
    await h.click(users[0], message, button(message, "Start"))
    return users, message, table_id


async def play_a_card(h: DiscordHarness, user: Any, message: Any) -> tuple[InteractionResult, str]:
    """``user`` plays their first card through the act panel; the last interaction and the card."""
    panel = (await h.click(user, message, button(message, "Act"))).message
    assert panel is not None
    opened = await choose(h, user, panel, "Play")
    assert opened.message is not None
    option = next(iter(select_options(opened.message)))  # "Play 5"
    return await choose(h, user, opened.message, option), option.removeprefix("Play ")


def thread_lines(h: DiscordHarness, maker: BotMaker, table_id: str) -> list[str]:
    return [m.content for m in h.public_messages() if m.channel_id != h.channel.id]


def save_sha(maker: BotMaker) -> str:
    return maker.bot.service.store._save.sha


@pytest.mark.parametrize(
    "lost", [RedisConnectionError("Connection reset by peer"), RedisTimeoutError("Timeout reading")]
)
async def test_a_move_whose_save_reply_was_lost_is_confirmed_and_told(
    h: DiscordHarness, maker: BotMaker, lost: Exception
) -> None:
    users, message, table_id = await started(h, maker)
    store = maker.bot.service.store
    inject(store.redis, "evalsha", after=True, error=lost, when=on_script(save_sha(maker)))
    played, card = await play_a_card(h, users[0], message)
    assert played.message is not None and f"ann plays {card}." in embed_text(played.message)
    assert "nothing was changed" not in embed_text(played.message)
    assert (await maker.bot.service.get(table_id)).version == 5  # create, attach, 2 joins, start, play
    assert thread_lines(h, maker, table_id).count(f"ann plays {card}.") == 1
    assert any("your move" in line for line in thread_lines(h, maker, table_id)), "the window is pinged"


async def test_a_save_refused_before_it_ran_says_nothing_changed(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await started(h, maker)
    inject(maker.bot.service.store.redis, "evalsha", when=on_script(save_sha(maker)))
    played, _ = await play_a_card(h, users[0], message)
    assert played.ephemeral and played.content == STORAGE_DOWN
    assert (await maker.bot.service.get(table_id)).version == 4


async def test_a_save_read_back_late_is_confirmed_and_one_never_read_back_is_unknown(
    h: DiscordHarness, maker: BotMaker
) -> None:
    users, message, table_id = await started(h, maker)
    store = maker.bot.service.store
    inject(store.redis, "evalsha", after=True, when=on_script(save_sha(maker)))
    inject(store.redis, "evalsha", times=2, when=on_script(store._void.sha))  # Redis away a moment longer
    played, card = await play_a_card(h, users[0], message)
    assert played.message is not None and f"ann plays {card}." in embed_text(played.message)
    assert (await maker.bot.service.get(table_id)).version == 5
    store.settle_within = 0.3
    inject(store.redis, "evalsha", after=True, when=on_script(save_sha(maker)))
    inject(store.redis, "evalsha", times=1000, when=on_script(store._void.sha))  # and then it stays away
    cheered = await h.slash(users[1], "play", {"action": "cheer"})
    assert cheered.content == UNKNOWN


async def test_a_failure_after_the_save_never_reads_as_nothing_changed(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    users, _, table_id = await started(h, maker)

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the panel could not be drawn")

    service = maker.bot.service
    card = service.view(await service.get(table_id), users[0].id).hand[0]  # type: ignore[attr-defined]
    monkeypatch.setattr(maker.bot.flows, "panel", broken)
    result = await h.slash(users[0], "play", {"action": f"play:{card}"})
    h.take_problems()  # the drawing failure is logged as an error, on purpose
    assert result.content == MOVE_COUNTED
    assert (await maker.bot.service.get(table_id)).version == 5
    assert any(line.startswith("ann plays") for line in thread_lines(h, maker, table_id)), "still told"


async def test_news_that_could_not_be_told_is_retried_after_a_restart(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    users, message, table_id = await started(h, maker)
    record = await maker.bot.service.get(table_id)
    outage = [
        h.fail(f"POST /channels/{record.thread_id}/messages", status=503),
        h.fail(f"PATCH /channels/{record.channel_id}/messages/{record.message_id}", status=503),
    ]
    played, card = await play_a_card(h, users[0], message)
    assert played.message is not None and f"ann plays {card}." in embed_text(played.message)
    cheered = await h.slash(users[1], "play", {"action": "cheer"})
    assert "bob cheers." in embed_text(cheered.message)  # type: ignore[arg-type]
    assert not [line for line in thread_lines(h, maker, table_id) if "plays" in line or "cheers" in line]
    await h.restart()  # the news waits in Redis, not in the old process
    for fault in outage:
        h.faults.remove(fault)
    edits = len(h.requests_of("message_edit"))
    clock.now += 60
    await maker.bot.drain_once()
    await h.settle()
    lines = thread_lines(h, maker, table_id)
    assert lines.count(f"ann plays {card}.") == 1 and lines.count("bob cheers.") == 1
    assert lines.index(f"ann plays {card}.") < lines.index("bob cheers."), "told in order"
    assert len(h.requests_of("message_edit")) == edits + 1, "one edit shows the table as it is now"
    assert "Cheers: 0, 1, 0" in embed_text(message)
    await maker.bot.drain_once()
    await h.settle()
    assert thread_lines(h, maker, table_id).count(f"ann plays {card}.") == 1, "told once only"


async def test_a_storage_failure_while_telling_is_retried(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    users, message, table_id = await started(h, maker)
    inject(maker.bot.service.store.redis, "set")  # the drainer cannot take the table's lease
    played, card = await play_a_card(h, users[0], message)
    assert played.message is not None and f"ann plays {card}." in embed_text(played.message)
    assert f"ann plays {card}." not in thread_lines(h, maker, table_id)
    clock.now += 60
    await maker.bot.drain_once()
    await h.settle()
    assert thread_lines(h, maker, table_id).count(f"ann plays {card}.") == 1


async def test_one_failed_dm_does_not_silence_the_others(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await started(h, maker)
    ann, bob, cid = users
    await play_a_card(h, ann, message)
    await h.slash(bob, "play", {"action": "pass"})
    h.fail(
        lambda r: r.kind == "dm_channel" and r.json.get("recipient_id") == str(ann.id),
        status=404,
        code=10013,
        message="Unknown User",
    )
    cheered = await h.slash(cid, "play", {"action": "cheer"})  # secrets for ann (refused) and bob
    assert not [r for r in cheered.failed if r.kind != "dm_channel"]
    assert any("cid tells you a secret." in m.content for m in h.dms(bob)), "bob's DM still goes out"
    assert any(f"<@{bob.id}>" in line and "your move" in line for line in thread_lines(h, maker, table_id))


async def test_the_dm_fallback_ping_names_the_table(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await started(h, maker)
    ann, bob, _ = users
    await play_a_card(h, ann, message)
    h.close_dms(ann)
    await h.slash(bob, "play", {"action": "cheer"})
    [ping] = [line for line in thread_lines(h, maker, table_id) if "could not DM you" in line]
    assert f"<@{ann.id}>" in ping and f"table {table_id}" in ping
    assert "secret" not in ping and "well played" not in ping


async def test_pings_may_mention_only_the_players_they_name(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, _ = await started(h, maker)
    ann, bob, _ = users
    await play_a_card(h, ann, message)
    h.close_dms(ann)
    await h.slash(bob, "play", {"action": "cheer"})  # a DM fallback ping for ann, a turn ping
    pings = [r.json for r in h.requests if r.kind == "message_create" and "<@" in str(r.json.get("content"))]
    assert len(pings) >= 2
    for ping in pings:
        allowed = ping["allowed_mentions"]
        named = {int(u) for u in allowed.get("users", [])}
        assert allowed.get("parse", []) == [], f"a ping must not let @everyone or roles through: {allowed}"
        assert named and all(f"<@{u}>" in ping["content"] for u in named)
