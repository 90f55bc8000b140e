"""Through Discord: /rules, /card over the table's own deck, card text in the
act panel, /table log before and after the end, the recap, and replaying the
log a finished table hands out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.service.replay import replay
from engines.registry import GAMES
from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness, InteractionResult
from tests.e2e.records import RecordedFile
from tests.e2e.tables import BotMaker, button, choose, embed_text, play_to_the_end

SPHERES_DECK = Path(__file__).parents[2] / "engines" / "spheres_of_life" / "cards.toml"
DISCORD_FILE_LIMIT = 10 * 1024 * 1024


def files_of(result: InteractionResult) -> dict[str, bytes]:
    sent: list[RecordedFile] = [f for r in result.requests if r.error is None for f in r.files]
    assert all(len(f.data) <= DISCORD_FILE_LIMIT for f in sent)
    return {f.filename: f.data for f in sent}


def jsonl(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


async def test_rules_in_sections_with_the_games_rulings(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    games = await h.autocomplete(ann, "rules", "game", {"game": "scal"})
    assert [c["value"] for c in games] == ["scales-of-influence"]
    topics = await h.autocomplete(ann, "rules", "topic", {"game": "spheres-of-life", "topic": "dream"})
    assert "decisions-dream" in [c["value"] for c in topics]

    overview = await h.slash(ann, "rules", {"game": "spheres-of-life"})
    assert overview.ephemeral and overview.message is not None
    text = embed_text(overview.message)
    for title in ("Setup", "A round: Day, Night, Dream", "Scoring", "Variants", "rulings"):
        assert title in text
    ruling = await h.slash(ann, "rules", {"game": "spheres-of-life", "topic": "decisions-dream"})
    assert ruling.ephemeral and ruling.message is not None
    assert "Ruling: Dream" in embed_text(ruling.message) and "test_" not in embed_text(ruling.message)
    wrong = await h.slash(ann, "rules", {"game": "spheres-of-life", "topic": "chess"})
    assert wrong.ephemeral and "no rules section" in (wrong.content or "")

    created = await h.slash(ann, "table create", {"game": "scales-of-influence"})
    assert created.message is not None
    assert "Rules: /rules game:scales-of-influence" in embed_text(created.message)


async def test_card_lists_the_tables_own_deck_and_shows_a_card_to_me_alone(h: DiscordHarness) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    deck = SPHERES_DECK.read_text().replace('name = "Noble Rabbit"', 'name = "Noble Hare"')
    await h.slash(ann, "table create", {"game": "spheres-of-life", "deck": h.upload("mine.toml", deck)})

    found = await h.autocomplete(ann, "card", "name", {"name": "hare"})
    assert found == [{"name": "Noble Hare — Noble animal", "value": "noble-rabbit"}]
    assert await h.autocomplete(ann, "card", "name", {"name": "rabbit"}) == []
    shown = await h.slash(bob, "card", {"name": "noble-rabbit"})  # a spectator here may look too
    assert shown.ephemeral and shown.message is not None and shown.message.visible_to == bob.id
    text = embed_text(shown.message)
    assert "Noble Hare" in text and "+1, +4, +9" in text and "custom deck" in text
    typed = await h.slash(ann, "card", {"name": "apple of life"})
    assert typed.message is not None and "Block: cancel an Ability or Hero" in embed_text(typed.message)
    unknown = await h.slash(ann, "card", {"name": "dragon"})
    assert unknown.ephemeral and "no card 'dragon'" in (unknown.content or "")
    huge = await h.slash(ann, "card", {"name": "x" * 3000})
    assert huge.ephemeral and len(huge.content or "") < 200 and "no card 'xxx" in (huge.content or "")


async def test_the_act_panel_shows_the_text_of_the_cards_it_names(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "spheres-of-life", 2)
    ann = table.users[0]
    panel = (await h.click(ann, table.message, button(table.message, "Act"))).message
    assert panel is not None
    heroes = (await choose(h, ann, panel, "Choose a Hero")).message
    assert heroes is not None
    [windmaster] = [o for o in _select_options(heroes.data) if o["label"] == "Choose Windmaster"]
    assert windmaster["description"] == "You begin the first Day, Night and Dream. Once per game."
    shown = await h.click(ann, heroes, button(heroes, "Card text"))
    assert shown.message is not None and shown.ephemeral and shown.message.visible_to == ann.id
    text = embed_text(shown.message)
    assert "Choose Windmaster: You begin the first Day, Night and Dream. Once per game." in text
    assert "Choose Druid: Look at another player's hand" in text
    [typed] = await h.autocomplete(ann, "play", "action", {"action": "windmaster"})
    assert typed["name"] == "Choose Windmaster — You begin the first Day, Night and Dream. Once per game."
    assert typed["value"].startswith("hero:windmaster@")


async def test_the_log_the_recap_and_the_replay_of_a_finished_game(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "scales-of-influence", 4)
    ann, zed = table.users[0], h.create_user("zed")
    service = maker.bot.service
    table_id = table.table_id

    playing = files_of(await h.slash(ann, "table log", {"table": table_id}))
    names = [f"log-{table_id}{mine}.{ext}" for mine in ("", "-mine") for ext in ("jsonl", "txt")]
    assert sorted(playing) == sorted(names)
    head, *lines = jsonl(playing[f"log-{table_id}.jsonl"])
    assert "seed" not in head and all("action" not in line for line in lines)
    spectator = files_of(await h.slash(zed, "table log", {"table": table_id}))
    assert sorted(spectator) == [f"log-{table_id}.jsonl", f"log-{table_id}.txt"]

    await play_to_the_end(h, service, table_id, table.users, table.message, 3)
    record = await service.get(table_id)
    assert record.status is TableStatus.FINISHED

    texts = public_texts(h)
    assert any("🔒 The shuffle is sealed" in t for t in texts)
    assert any(f"🔓 The seed was `{record.seed}`" in t for t in texts)
    [recap] = [t for t in texts if t.startswith(f"Recap — Scales of Influence, table {table_id}")]
    alignments = service.state(record).alignments  # type: ignore[attr-defined]
    for user, alignment in zip(table.users, alignments, strict=True):
        assert f"{user.name}: {alignment.capitalize()} — " in recap
    # The table's seed is drawn afresh, so the game may end on Day 1 before its first Weighing.
    assert re.search(r"Day 1(, at the end)?: Shadow \d+ · Light \d+", recap), recap
    assert "moves" in recap and f"/table log table:{table_id}" in recap

    after = files_of(await h.slash(zed, "table log", {"table": table_id}))
    assert sorted(after) == [f"log-{table_id}.jsonl", f"log-{table_id}.txt"]
    head, *lines = jsonl(after[f"log-{table_id}.jsonl"])
    assert head["seed"] == record.seed
    assert any(e.get("to") for line in lines for e in line["events"]), "after the end every log is public"
    checked = replay(after[f"log-{table_id}.jsonl"].decode(), GAMES)
    assert checked.moves == sum(1 for line in lines if line["kind"] in ("act", "bot", "timeout"))

    sent = [o for r in h.requests if isinstance(r.json, dict) for o in _select_options(r.json)]
    described = [o for o in sent if o.get("description")]
    assert described, "menus that name cards carry their text"
    assert all(len(o["description"]) <= 100 for o in described)


def _select_options(body: dict[str, Any]) -> list[dict[str, Any]]:
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    rows = (data or {}).get("components") or []
    return [o for row in rows for c in row.get("components", []) for o in c.get("options", [])]
