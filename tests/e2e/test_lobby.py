"""The lobby through discord.py's real dispatch: old lobby buttons after the
start, double clicks, hosting passed on, seats removed by the host, and the
same /play sent twice at once."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from storage.records import TableStatus
from tests.e2e.entities import Member
from tests.e2e.harness import DiscordHarness
from tests.e2e.records import InteractionRecord, InteractionResult
from tests.e2e.tables import BotMaker, button, embed_text, select_options
from tests.e2e.test_table_flow import open_table
from tests.support.minigame import HIGH_CARD
from tests.support.tally import TALLY


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD, "tally": TALLY}


async def at_once(
    h: DiscordHarness, *sends: Callable[[], Awaitable[InteractionResult]]
) -> list[InteractionResult]:
    """Deliver several interactions before the bot has answered any of them (a
    double click, a command sent twice) and return what each one got."""
    captured: list[tuple[Any, ...]] = []

    async def capture(*args: Any) -> None:
        captured.append(args)

    h._interact = capture  # type: ignore[method-assign]  # build each payload, deliver none yet
    try:
        for send in sends:
            await send()
    finally:
        del h._interact
    start, records = len(h.requests), []
    running = set(h._baseline)
    for kind, user, channel, data, *message in captured:
        user = user.user if isinstance(user, Member) else user
        on = message[0] if message else None
        iid = h.ids.next()
        payload = h.interaction_payload(iid, kind, user, channel, data, on.data if on else None)
        record = InteractionRecord(iid, payload["token"], kind, user, channel, payload, on.id if on else None)
        record.created = asyncio.get_running_loop().time()
        h.interactions[iid] = record
        records.append(record)
        await h.feed("INTERACTION_CREATE", payload)
    # Each feed counts whatever runs as background; the first interactions' work is not.
    h._baseline = weakref.WeakSet(t for t in h._baseline if t in running)
    await h.settle()
    h._raise_problems()
    assert all(r.responded_with is not None for r in records), "an interaction was never answered"
    return [InteractionResult(h, r, h.requests[start:]) for r in records]


def thread_lines(h: DiscordHarness) -> list[str]:
    """The table's log, line by line (the bot sends several lines in one message)."""
    logged = [m.content for m in h.public_messages() if m.channel_id != h.channel.id]
    return [line for content in logged for line in content.split("\n")]


async def test_a_lobby_leave_button_clicked_after_the_start_does_not_resign(
    h: DiscordHarness, maker: BotMaker
) -> None:
    (ann, bob), message, table_id = await open_table(h, maker, players=2)
    leave = button(message, "Leave")
    await h.click(ann, message, button(message, "Start"))
    late = await h.click(bob, leave)  # the lobby's Leave, from before the start
    assert late.ephemeral and late.content == (
        "This button is from the lobby; the game has started — use /table leave to resign."
    )
    record = await maker.bot.service.get(table_id)
    assert record.status is TableStatus.PLAYING and record.seats[1].user_id == bob.id
    resigned = await h.slash(bob, "table leave")
    assert resigned.content == f"You have left table {table_id}."
    assert (await maker.bot.service.get(table_id)).seats[1].bot


async def test_a_double_click_on_add_bot_or_start_counts_once(h: DiscordHarness, maker: BotMaker) -> None:
    (ann, _bob), message, table_id = await open_table(h, maker, players=2)
    add_bot = button(message, "Add bot")
    answers = await at_once(h, lambda: h.click(ann, message, add_bot), lambda: h.click(ann, message, add_bot))
    assert sorted(a.content or "" for a in answers) == [
        "A bot already took a seat from that button — press Add bot again for another.",
        f"A bot takes a seat at table {table_id}.",
    ]
    assert [s.bot for s in (await maker.bot.service.get(table_id)).seats] == [False, False, True]
    again = await h.click(ann, message, button(message, "Add bot"))  # the redrawn button adds another
    assert again.content == f"A bot takes a seat at table {table_id}."
    start = button(message, "Start")
    answers = await at_once(h, lambda: h.click(ann, message, start), lambda: h.click(ann, message, start))
    assert sorted(a.content or "" for a in answers) == [
        "Table " + table_id + " has started — press **My hand** or **Act** (or use /hand) to play.",
        "This button is from the lobby; the game has already started.",
    ]
    assert thread_lines(h).count("The game of High Card begins.") == 1


async def test_a_host_who_leaves_a_running_game_passes_hosting_on(h: DiscordHarness, maker: BotMaker) -> None:
    (ann, bob, _cid), message, table_id = await open_table(h, maker, players=3)
    await h.click(ann, message, button(message, "Start"))
    await h.slash(ann, "table leave")
    assert "bob is now the host." in thread_lines(h)
    assert f"<@{bob.id}> 👑" in embed_text(message) and f"<@{ann.id}>" not in embed_text(message)
    refused = await h.slash(ann, "table abandon", {"table": table_id})
    assert refused.content == "Only the host or a moderator with Manage Server can abandon this table."
    my_hand = button(message, "My hand")
    done = await h.slash(bob, "table abandon")
    assert done.content == f"Table {table_id} is abandoned."
    over = await h.click(bob, my_hand)  # a button of the running game, after its end
    assert over.ephemeral and over.content == f"Table {table_id} was abandoned."


async def test_the_host_removes_a_bot_and_a_player_with_the_remove_seat_button(
    h: DiscordHarness, maker: BotMaker
) -> None:
    (ann, bob), message, table_id = await open_table(h, maker, players=2)
    await h.click(ann, message, button(message, "Add bot"))
    refused = await h.click(bob, message, button(message, "Remove seat"))
    assert refused.ephemeral and refused.content == "Only the table's host can remove a seat."
    menu = (await h.click(ann, message, button(message, "Remove seat"))).message
    assert menu is not None and menu.ephemeral
    seats = select_options(menu)
    assert list(seats) == ["2. bob", "3. Bot 1 🤖"]
    old_select, bob_value = seats["2. bob"]
    removed = await h.select(ann, old_select, [seats["3. Bot 1 🤖"][1]], message=menu)
    assert removed.response_type == 7 and removed.content == "Bot 1 was removed from the table by the host."
    assert [s.name for s in (await maker.bot.service.get(table_id)).seats] == ["ann", "bob"]
    stale = await h.select(ann, old_select, [bob_value])  # the list as it was: positions may have moved
    assert stale.message is not None
    assert "The table changed since this list was drawn" in (stale.content or "")
    assert [s.name for s in (await maker.bot.service.get(table_id)).seats] == ["ann", "bob"]
    custom_id, value = select_options(stale.message)["2. bob"]
    await h.select(ann, custom_id, [value], message=stale.message)
    assert [s.name for s in (await maker.bot.service.get(table_id)).seats] == ["ann"]
    assert "bob was removed from the table by the host." in thread_lines(h)
    assert f"<@{bob.id}>" not in embed_text(message)
    assert await maker.bot.service.store.of_user(bob.id) == []


async def test_the_host_removes_a_seat_with_table_kick(h: DiscordHarness, maker: BotMaker) -> None:
    (ann, bob, _cid), message, table_id = await open_table(h, maker, players=3)
    listed = await h.autocomplete(ann, "table kick", "seat")
    assert [c["name"] for c in listed] == ["2. bob", "3. cid"]
    refused = await h.slash(bob, "table kick", {"seat": "3"})
    assert refused.content == "Only the table's host can remove a seat."
    done = await h.slash(ann, "table kick", {"seat": listed[0]["value"]})
    assert done.ephemeral and done.content == "bob was removed from the table by the host."
    again = await h.slash(ann, "table kick", {"seat": listed[1]["value"]})  # listed before bob went
    assert again.content == "The table changed since that seat was listed — please pick it again."
    assert [s.name for s in (await maker.bot.service.get(table_id)).seats] == ["ann", "cid"]
    self_kick = await h.slash(ann, "table kick", {"seat": "ann"})
    assert self_kick.content == "You cannot remove yourself — use Leave."
    await h.click(ann, message, button(message, "Start"))
    late = await h.slash(ann, "table kick", {"seat": "cid"})
    assert late.content == "Seats can only be removed before the game starts."


async def test_the_same_play_sent_twice_at_once_counts_once(h: DiscordHarness, maker: BotMaker) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    message = (await h.slash(ann, "table create", {"game": "tally"})).message
    assert message is not None
    await h.click(bob, message, button(message, "Join"))
    await h.click(ann, message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    for pair in range(6):
        if pair % 2:
            move = "Tap"  # typed by hand
        else:
            [move] = [c["value"] for c in await h.autocomplete(ann, "play", "action", {"action": "tap"})]
        answers = await at_once(h, *[lambda: h.slash(ann, "play", {"action": move})] * 2)  # noqa: B023
        taps = maker.bot.service.view(await maker.bot.service.get(table.id), None).taps  # type: ignore[attr-defined]
        assert taps == [pair + 1, 0], f"pair {pair} ({move})"
        texts = [embed_text(a.message) for a in answers if a.message and a.ephemeral]
        stale = "That move was already made, or the table moved on — here is where it stands now."
        assert sorted(stale in t for t in texts) == [False, True]
        assert sum("ann taps." in t for t in texts) == 1
