"""Through Discord: taking a move back at a table played across days, with
every other player's consent — granted, declined, or lapsed in silence."""

from __future__ import annotations

from tests.e2e.async_play.days import ann_plays, sweep
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button
from tests.support.clock import Clock


async def test_an_undo_everyone_accepts_takes_the_move_back_and_logs_it(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async"})
    ann, bob, cid = table.users
    before = await maker.bot.service.get(table.table_id)
    card = await ann_plays(h, maker, table.table_id, ann)
    nobody = await h.slash(bob, "undo")
    assert "cannot be taken back" in (nobody.content or "")
    asked = await h.slash(ann, "undo")
    request = asked.message
    assert request is not None and not asked.ephemeral
    assert f"<@{bob.id}>" in (request.content or "") and f"<@{cid.id}>" in (request.content or "")
    twice = await h.slash(ann, "undo")
    assert "already asked" in (twice.content or "")
    outsider = await h.click(ann, request, button(request, "Accept"))
    assert "Only the other players" in (outsider.content or "")
    first = await h.click(bob, request, button(request, "Accept"))
    assert "waiting for the others" in (first.content or "")
    done = await h.click(cid, request, button(request, "Accept"))
    assert "taken back" in (done.content or "")
    record = await maker.bot.service.get(table.table_id)
    assert record.state == before.state, "the game is exactly where it was before the move"
    assert card in maker.bot.service.view(record, ann.id).hand  # type: ignore[attr-defined]
    assert maker.bot.service.awaited(record) == [0] and 0 in record.clocks.due
    log = await maker.bot.service.store.log(table.table_id)
    undone = [e for e in log if e.kind == "undo"]
    assert len(undone) == 1 and "taken back, with everyone's consent" in str(undone[0].events)
    late = await h.click(bob, request, button(request, "Decline"))
    assert "no longer open" in (late.content or "")


async def test_an_undo_is_refused_by_one_decline_or_by_silence(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "async"})
    ann, bob = table.users
    await ann_plays(h, maker, table.table_id, ann)
    moved = await maker.bot.service.get(table.table_id)
    request = (await h.slash(ann, "undo")).message
    assert request is not None
    declined = await h.click(bob, request, button(request, "Decline"))
    assert "move stands" in (declined.content or "")
    await h.settle()
    assert any("bob declines: ann's move stands." in t for t in public_texts(h))
    assert (await maker.bot.service.get(table.table_id)).state == moved.state
    again = await h.slash(ann, "undo")
    assert "cannot be taken back" in (again.content or ""), "a refused move stays refused"

    # Bob's turn to answer the window; then silence refuses a request too.
    await h.slash(bob, "play", {"action": "pass"})
    record = await maker.bot.service.get(table.table_id)
    mover = next(u for u in table.users if record.seat_of(u.id) == maker.bot.service.awaited(record)[0])
    await ann_plays(h, maker, table.table_id, mover)
    asked = await h.slash(mover, "undo")
    assert asked.message is not None
    await sweep(h, maker, clock, 0.26)  # a quarter of a day's move time
    assert any("refused: no one answered in time" in t for t in public_texts(h))
    after = await maker.bot.service.get(table.table_id)
    assert after.undo is None and not any(
        e.kind == "undo" for e in await maker.bot.service.store.log(after.id)
    )
