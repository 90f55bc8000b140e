"""Through Discord: the clocks of a table played across days — each seat's clock
shown as a Discord timestamp, reminders at half time and a tenth left (once
each), the host's pause, quiet hours and /settings me, which choose how
reminders and turns are told."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from bot.service.clocks import DAY
from storage.user_settings import settings_key
from tests.e2e.async_play.days import ann_plays, reminders, sweep, sweep_to
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.clock import Clock


async def test_reminders_come_at_half_time_and_a_tenth_left_and_only_once(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "3d"})
    ann, bob = table.users
    record = await maker.bot.service.get(table.table_id)
    due = record.clocks.due[0]
    assert due == clock.now + 3 * DAY
    assert f"<t:{int(due)}:R>" in embed_text(h.messages[table.message.id]), "ann's clock on the table"

    await sweep(h, maker, clock, 1.4)
    assert reminders(h, ann) == []
    await sweep(h, maker, clock, 0.2)  # past half time
    assert len(reminders(h, ann)) == 1 and f"<t:{int(due)}:R>" in reminders(h, ann)[0]
    await sweep(h, maker, clock, 0.1)
    await h.restart()  # a new process, the same Redis
    await sweep(h, maker, clock, 0.1)
    assert len(reminders(h, ann)) == 1, "half time is reminded once, across a restart"
    await sweep(h, maker, clock, 1.0)  # 2.8 days gone: a tenth is left
    assert len(reminders(h, ann)) == 2
    await sweep(h, maker, clock, 0.1)
    assert len(reminders(h, ann)) == 2
    assert reminders(h, bob) == [], "only the awaited seat is reminded"
    await sweep(h, maker, clock, 0.2)
    assert any("ann ran out of time" in t for t in public_texts(h))
    assert len(reminders(h, ann)) == 2


async def test_a_paused_table_stops_its_clocks_and_says_so(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, bob = table.users
    due = (await maker.bot.service.get(table.table_id)).clocks.due[0]
    refused = await h.slash(bob, "clock pause")
    assert refused.ephemeral and "Only the host" in (refused.content or "")
    paused = await h.slash(ann, "clock pause")
    assert paused.ephemeral and "paused" in (paused.content or "")
    await h.settle()
    assert "Paused by the host" in embed_text(h.messages[table.message.id])
    assert any("The host paused the table" in t for t in public_texts(h))
    move = await h.slash(ann, "play", {"action": "Play 1"})
    assert move.ephemeral and "paused" in (move.content or "")

    await sweep(h, maker, clock, 5)  # far past the deadline: nothing happens while paused
    assert not any("ran out of time" in t for t in public_texts(h))
    assert reminders(h, ann) == []

    await h.slash(ann, "clock resume")
    record = await maker.bot.service.get(table.table_id)
    assert record.clocks.due[0] == due + 5 * DAY, "the clock goes on where it stopped"
    assert record.deadline is not None and record.deadline < record.clocks.due[0]
    again = await h.slash(ann, "clock resume")
    assert "not paused" in (again.content or "")


async def test_a_landed_game_runs_to_its_end_over_weeks_reminded_once_per_deadline(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    """Ann plays (a random legal move, after her half-time reminder); Bob never
    does, so every one of his deadlines is reminded twice and then times out.
    The sweeper runs every 0.1 day."""
    table = await start_table(h, maker, "spheres-of-life", 2, {"pace": "2d"})
    ann, bob = table.users
    service = maker.bot.service
    await h.slash(ann, "clock pause")
    await sweep(h, maker, clock, 10)  # ten paused days cost no one anything
    assert not any("ran out of time" in t for t in public_texts(h))
    await h.slash(ann, "clock resume")
    await h.slash(bob, "vacation", {"days": 2})
    start, rng = clock.now, random.Random(7)
    for _ in range(2000):
        record = await service.get(table.table_id)
        if not record.status.active:
            break
        seat = record.seat_of(ann.id)
        if record.clocks.reminded.get(seat, 0) and (choices := service.choices(record, ann.id)):
            key = rng.choice(choices).key  # ann moves once reminded at half time
            await h.slash(ann, "play", {"action": f"{key}@{record.version}"})
        await sweep(h, maker, clock, 0.1)
    assert record.status.value == "finished"
    assert any("Game over" in t for t in public_texts(h))
    assert clock.now - start > 14 * DAY
    timeouts = [line for t in public_texts(h) for line in t.splitlines() if "ran out of time" in line]
    assert sum(line.startswith("bob ran out") for line in timeouts) > 5
    for user in (ann, bob):
        sent = Counter(
            re.findall(
                r"(half|10%) of your time is left; it runs out <t:(\d+):R>", "\n".join(reminders(h, user))
            )
        )
        assert sent and set(sent.values()) == {1}, f"{user.name}: a reminder sent twice"
    # Bob never moves: each of his deadlines was reminded at half time and with a tenth left.
    assert set(Counter(due for _, due in sent).values()) == {2}


async def test_quiet_hours_bring_a_reminder_forward_and_settings_choose_the_dms(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "3d"})
    ann, bob = table.users
    wrong = await h.slash(ann, "settings me", {"timezone": "Mars/Olympus"})
    assert "time zone" in (wrong.content or "")
    saved = await h.slash(ann, "settings me", {"timezone": "UTC", "quiet_from": 0, "quiet_to": 6})
    assert "quiet hours 0:00–6:00 UTC" in (saved.content or "")
    assert "at the 1 table you sit at" in (saved.content or "")
    record = await maker.bot.service.get(table.table_id)
    half = record.clocks.started[0] + 1.5 * DAY  # 01:46 UTC: in ann's quiet hours
    midnight = half - half % DAY
    await sweep_to(h, maker, clock, midnight - 120)
    assert reminders(h, ann) == []
    await sweep_to(h, maker, clock, midnight - 30)
    assert len(reminders(h, ann)) == 1, "the reminder comes before the quiet hours, not after"
    await sweep_to(h, maker, clock, half + 60)
    assert len(reminders(h, ann)) == 1

    await h.slash(bob, "settings me", {"notify": "turn"})
    await h.slash(ann, "settings me", {"notify": "nothing"})
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert any("Your move at table" in (m.content or "") for m in h.dms(bob)), (
        "bob asked for a DM on his turn"
    )
    await sweep(h, maker, clock, 1.6)
    await sweep(h, maker, clock, 1.3)
    assert len(reminders(h, bob)) == 2
    assert not any("Your move at table" in (m.content or "") for m in h.dms(ann))


async def test_tables_made_or_joined_later_follow_my_settings(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    none = await h.slash(ann, "settings me", {"quiet_from": 22, "quiet_to": 7, "timezone": "Europe/Paris"})
    assert "the tables you join will follow them" in (none.content or "")
    await h.slash(bob, "settings me", {"notify": "nothing"})
    created = await h.slash(ann, "table create", {"game": "high-card", "pace": "2d"})
    assert created.message is not None
    await h.click(bob, created.message, button(created.message, "Join"))
    [record] = await maker.bot.service.store.in_channel(h.channel.id)
    assert record.clocks.prefs[ann.id]["zone"] == "Europe/Paris"
    assert record.clocks.prefs[bob.id]["notify"] == "nothing"


SILENT = 1 << 12  # Discord's SUPPRESS_NOTIFICATIONS: the message makes no sound


def thread_mentions(h: DiscordHarness, user: Any, *, silent: bool) -> list[str]:
    """Messages sent in channels or threads that mention ``user``, made silent or not."""
    return [
        r.json.get("content") or ""
        for r in h.requests
        if r.kind == "message_create"
        and not r.is_dm
        and r.error is None
        and f"<@{user.id}>" in (r.json.get("content") or "")
        and bool(r.flags & SILENT) is silent
    ]


async def test_a_turn_that_starts_in_quiet_hours_pings_and_reminds_without_a_sound_and_no_dm(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "relaxed"})  # an hour a move
    ann, bob = table.users
    hour = int(clock.now % DAY // 3600)
    quiet = {"timezone": "UTC", "quiet_from": hour, "quiet_to": (hour + 3) % 24}
    await h.slash(bob, "settings me", {"notify": "turn", **quiet})
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert not any("Your move at table" in (m.content or "") for m in h.dms(bob)), "no DM in quiet hours"
    [ping] = thread_mentions(h, bob, silent=True)
    assert "your move at table" in ping and thread_mentions(h, bob, silent=False) == []

    await sweep(h, maker, clock, 0.45 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 1, "not reminded at the turn's start"
    await sweep(h, maker, clock, 0.1 / 24)  # half his hour gone, still in his quiet hours
    assert reminders(h, bob) == [], "no DM"
    told = thread_mentions(h, bob, silent=True)
    assert len(told) == 2 and "⏰" in told[1] and "half of your time is left" in told[1]
    await sweep(h, maker, clock, 0.1 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 2, "once"
    await sweep(h, maker, clock, 0.3 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 3 and reminders(h, bob) == []
    assert thread_mentions(h, bob, silent=False) == []


async def test_a_reminder_to_closed_dms_is_said_in_the_thread(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, _ = table.users
    h.close_dms(ann)
    await sweep(h, maker, clock, 1.01)
    [said] = [t for t in thread_mentions(h, ann, silent=False) if "⏰" in t]
    assert "half of your time is left" in said and "only you can see" not in said


async def test_settings_me_with_no_options_shows_my_settings_and_bad_ones_change_nothing(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann = h.create_user("ann")
    shown = await h.slash(ann, "settings me")
    assert shown.ephemeral and "Your settings: reminders only, no quiet hours" in (shown.content or "")
    assert await maker.bot.service.store.redis.get(settings_key(ann.id)) is None, "showing saves nothing"
    assert {"name": "Europe/Paris", "value": "Europe/Paris"} in await h.autocomplete(
        ann, "settings me", "timezone", {"timezone": "paris"}
    )
    half = await h.slash(ann, "settings me", {"quiet_from": 22})
    assert "both ends" in (half.content or "")
    assert await maker.bot.service.store.redis.get(settings_key(ann.id)) is None
    await h.slash(ann, "settings me", {"quiet_from": 22, "quiet_to": 7, "timezone": "Europe/Paris"})
    later = await h.slash(ann, "settings me", {"quiet_to": 6})
    assert "quiet hours 22:00–6:00 Europe/Paris" in (later.content or ""), "one end moves alone"
    off = await h.slash(ann, "settings me", {"quiet_from": 6})
    assert "no quiet hours" in (off.content or ""), "the same hour twice: no quiet hours"
    shown = await h.slash(ann, "settings me")
    assert "Your settings: reminders only, no quiet hours" in (shown.content or "")
