"""Once Upon a Time… Life through Discord: a full game driven by clicks (a
short game of one Hemo), kept cards and questions' answers kept out of every
public message, and the board with every pawn on the table message."""

from __future__ import annotations

from typing import Any

import pytest

from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, choose, embed_text, labels, play_to_the_end, select_options

PRIVATE_LINES = ("You keep a",)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4), (4, 7)])
async def test_a_full_game_by_clicks(h: DiscordHarness, maker: BotMaker, players: int, seed: int) -> None:
    table = await start_table(h, maker, "once-upon-a-time-life", players, {"options": "hemo=1"})
    service = maker.bot.service
    moves = await play_to_the_end(h, service, table.table_id, table.users, table.message, seed)
    record = await service.get(table.table_id)
    assert record.status is TableStatus.FINISHED and moves >= 2
    assert "Game over" in embed_text(table.message) and labels(table.message) == []
    texts = public_texts(h)
    for text in texts:
        assert not any(line in text for line in PRIVATE_LINES), f"a private line went public:\n{text}"
    for message in h.messages.values():
        if "My hand" in embed_text(message):
            assert message.ephemeral and message.visible_to is not None


async def test_the_table_shows_the_board_every_purse_and_my_hand_to_me_alone(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "once-upon-a-time-life", 3)
    public = embed_text(table.message)
    assert "🏁" in public and "1️⃣" in public and "3️⃣" in public
    assert public.count("Hemo 0 · Globin 3 · Leukocyte 2 · Medicine 2") == 3
    for user in table.users:
        shown = await h.click(user, table.message, button(table.message, "My hand"))
        assert shown.message is not None and shown.ephemeral and shown.message.visible_to == user.id
        text = embed_text(shown.message)
        assert "My tokens" in text and "(no kept cards)" in text


async def choose_pawns(h: DiscordHarness, maker: BotMaker, table: Any, picks: list[tuple[str, ...]]) -> None:
    """Each player in turn order clicks Act and picks a body system, then one of its
    pawns (a system with one pawn left offers it at once)."""
    service = maker.bot.service
    for path in picks:
        record = await service.get(table.table_id)
        seat = service.awaited(record)[0]
        panel = (await h.click(table.users[seat], table.message, button(table.message, "Act"))).message
        assert panel is not None
        await choose(h, table.users[seat], panel, *path)


async def test_each_player_chooses_a_pawn_by_clicks_and_the_table_shows_it(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "once-upon-a-time-life", 3)
    service = maker.bot.service
    record = await service.get(table.table_id)
    first = service.awaited(record)[0]
    public = embed_text(table.message)
    assert "Choosing pawns" in public and "Pawns to choose: 🔴 Red (Circulatory)" in public
    assert public.count("choosing a pawn") == 3
    await choose_pawns(
        h,
        maker,
        table,
        [
            ("🫀 Circulatory system", "Play the Red pawn (Circulatory system)"),
            ("Play the Purple pawn (Circulatory system)",),
            ("🧠 Nervous system", "Play the Orange pawn (Nervous system)"),
        ],
    )
    record = await service.get(table.table_id)
    state = service.state(record)
    assert state.stage == "act" and state.turn == first  # type: ignore[attr-defined]
    order = [(first + i) % 3 for i in range(3)]
    assert [state.pawns[s] for s in order] == ["red", "purple", "orange"]  # type: ignore[attr-defined]
    public = embed_text(table.message)
    assert "Pawns to choose" not in public and "choosing a pawn" not in public
    assert "🔴 Red pawn · 🫀 Circulatory system · space 1" in public
    assert "🟠 Orange pawn · 🧠 Nervous system · space 31" in public
    assert any(
        "chooses the Orange pawn and sets it on the START of the Nervous system" in t for t in public_texts(h)
    )


async def test_a_question_is_asked_in_public_and_answered_by_a_click(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "once-upon-a-time-life", 2)
    service = maker.bot.service
    await choose_pawns(
        h,
        maker,
        table,
        [
            ("🫀 Circulatory system", "Play the Red pawn (Circulatory system)"),
            ("🍏 Digestive system", "Play the Green pawn (Digestive system)"),
        ],
    )
    for _ in range(80):
        record = await service.get(table.table_id)
        state = service.state(record)
        seat = service.awaited(record)[0]
        panel = (await h.click(table.users[seat], table.message, button(table.message, "Act"))).message
        assert panel is not None
        offered = [o for o in labels(panel) + list(select_options(panel)) if o not in ("Refresh", "Back")]
        if state.stage == "answer":  # type: ignore[attr-defined]
            break
        pick = next((o for o in ("Easy question", "Roll the die") if o in offered), offered[-1])
        await choose(h, table.users[seat], panel, pick)
    else:
        raise AssertionError("no question came up")
    view = service.view(record, None)
    question = view.question  # type: ignore[attr-defined]
    assert question.text in embed_text(table.message)
    assert question.text in embed_text(panel), "the answerer reads the question on the panel they answer from"
    shown = [f"Answer {letter}: {answer}" for letter, answer in zip("ABCD", question.answers, strict=True)]
    assert offered == [*shown, "Give no answer (it counts as wrong)"], "in the order shown, on the panel too"
    right = shown[state.question.correct]  # type: ignore[attr-defined]
    await choose(h, table.users[seat], panel, right)
    assert any(f"answers {right.removeprefix('Answer ')} — correct!" in t for t in public_texts(h))


CAPITALS = """
name = "Capitals"
[[easy]]
text = "What is the capital of France?"
answer = "Paris"
wrong = ["Lyon", "Nice", "Lille"]
[[hard]]
text = "What is the capital of Australia?"
answer = "Canberra"
wrong = ["Sydney", "Melbourne", "Perth"]
"""


async def test_a_server_plays_its_own_question_file(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(
        h, maker, "once-upon-a-time-life", 2, {"deck": h.upload("capitals.toml", CAPITALS)}
    )
    record = await maker.bot.service.get(table.table_id)
    assert "deck=custom" in embed_text(table.message)
    assert maker.bot.service.state(record).questions.name == "Capitals"  # type: ignore[attr-defined]
    ann = h.create_user("zed")
    refused = await h.slash(
        ann,
        "table create",
        {
            "game": "once-upon-a-time-life",
            "deck": h.upload("bad.toml", CAPITALS.replace('"Nice"', '"Paris"')),
        },
    )
    assert refused.ephemeral and "must differ" in (refused.content or "")
