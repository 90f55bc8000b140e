"""Through Discord: players away from a table played across days — a vacation
that stretches their clocks, repeated timeouts that hand a seat to a bot until
its player comes back, and substitutes the host offers a seat to."""

from __future__ import annotations

from bot.service.clocks import DAY
from tests.e2e.async_play.days import ann_plays, sweep, tables_in_two_servers
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, embed_text
from tests.support.clock import Clock


async def test_a_vacation_stretches_my_clocks_is_shown_and_ends_when_i_act(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, _ = table.users
    due = (await maker.bot.service.get(table.table_id)).clocks.due[0]
    away = await h.slash(ann, "vacation", {"days": 3})
    assert away.ephemeral and "Your clocks at 1 table wait" in (away.content or "")
    await h.settle()
    until = int(clock.now + 3 * DAY)
    assert f"on vacation until <t:{until}:f>" in embed_text(h.messages[table.message.id])
    record = await maker.bot.service.get(table.table_id)
    assert record.clocks.due[0] == due + 3 * DAY
    await sweep(h, maker, clock, 2.5)  # past the old deadline, and its half time too
    assert not any("ran out of time" in t for t in public_texts(h))
    too_much = await h.slash(ann, "vacation", {"days": 12})
    assert "days of vacation left" in (too_much.content or "")
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert any("ann is back from vacation." in t for t in public_texts(h))
    assert "on vacation" not in embed_text(h.messages[table.message.id])


async def test_my_move_at_one_table_ends_my_vacation_at_every_table(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    tables = await tables_in_two_servers(h, maker, (ann, bob), (ann, bob), "2d")
    (first, _), (second, shown) = tables
    await h.slash(ann, "vacation", {"days": 3})
    assert (await maker.bot.service.get(second.id)).clocks.due[0] == second.clocks.due[0] + 3 * DAY
    await sweep(h, maker, clock, 0.5)
    await ann_plays(h, maker, first.id, ann)
    await h.settle()
    after = await maker.bot.service.get(second.id)
    # The half day on vacation did not count; the rest of the vacation is off this clock too.
    assert after.clocks.due[0] == second.clocks.due[0] + 0.5 * DAY
    assert after.clocks.vacation == {}
    assert "on vacation" not in embed_text(h.messages[shown.id])
    assert sum("ann is back from vacation." in t for t in public_texts(h)) >= 2


async def test_repeated_timeouts_hand_the_seat_to_a_bot_until_the_player_comes_back(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async", "bot_after": 2})
    _, bob, cid = table.users
    for _ in range(6):
        await sweep(h, maker, clock, 1.01)
        if any("times in a row" in t for t in public_texts(h)):
            break
    told = [t for t in public_texts(h) if "times in a row" in t]
    assert told and f"/clock back table:{table.table_id}" in told[0]
    record = await maker.bot.service.get(table.table_id)
    gone = next(s for s in record.seats if s.away is not None)
    who = next(u for u in table.users if u.id == gone.away)
    told_by_dm = [m.content for m in h.dms(who) if "ran out of time" in m.content]
    assert told_by_dm and f"/clock back table:{table.table_id}" in told_by_dm[0], "the player is told how"
    wrong = await h.slash(cid if who is not cid else bob, "clock back", {"table": table.table_id})
    assert "No seat at this table is kept for you" in (wrong.content or "")
    back = await h.slash(who, "clock back", {"table": table.table_id})
    assert "your seat is yours again" in (back.content or "")
    record = await maker.bot.service.get(table.table_id)
    assert who.id in record.user_ids


async def test_a_substitute_takes_over_a_bots_seat_offered_by_the_host(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async"})
    ann, bob, cid = table.users
    await h.slash(bob, "table leave")
    dee = h.create_user("dee")
    refused = await h.slash(cid, "substitute offer", {"seat": 2, "member": dee})
    assert refused.ephemeral and "Only the host" in (refused.content or "")
    bad = await h.slash(ann, "substitute offer", {"seat": 3, "member": dee})
    assert "can be offered" in (bad.content or "")
    early = await h.slash(dee, "substitute take", {"table": table.table_id})
    assert "No seat at this table is offered to you" in (early.content or "")
    offered = await h.slash(ann, "substitute offer", {"seat": 2, "member": dee})
    assert f"/substitute take table:{table.table_id}" in (offered.content or "")
    taken = await h.slash(dee, "substitute take", {"table": table.table_id})
    assert "is yours" in (taken.content or "")
    await h.settle()
    record = await maker.bot.service.get(table.table_id)
    assert record.seats[1].user_id == dee.id and record.offers == {}
    assert any("dee takes over bob (bot)'s seat" in t for t in public_texts(h))
    hand = await h.slash(dee, "hand")
    assert hand.ephemeral and hand.message is not None


async def test_a_player_whose_seat_a_substitute_takes_is_told(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async", "bot_after": 1})
    for _ in range(6):
        await sweep(h, maker, clock, 1.01)
        if any("times in a row" in t for t in public_texts(h)):
            break
    record = await maker.bot.service.get(table.table_id)
    seat = next(i for i, s in enumerate(record.seats) if s.away is not None)
    who = next(u for u in table.users if u.id == record.seats[seat].away)
    host = next(u for u in table.users if u.id == record.host_id)
    dee = h.create_user("dee")
    await h.slash(host, "substitute offer", {"seat": seat + 1, "member": dee})
    await h.slash(dee, "substitute take", {"table": table.table_id})
    await h.settle()
    told = [m.content for m in h.dms(who) if "dee has taken over your seat" in m.content]
    assert told and table.table_id in told[0]
    assert not any("has taken over your seat" in m.content for m in h.dms(dee))
