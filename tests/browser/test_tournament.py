"""Following a tournament in the browser: the page open, its rounds' tables
finished through the service, the tables, standings and bracket redraw
themselves without a reload, to the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from playwright.async_api import Page, expect

from bot.web.site import Site
from storage.tournaments import Format, Phase, Tournament
from tests.browser.conftest import Shoot
from tests.web.test_tournament_page import address, expected_standings
from tests.web.tournaments import GAMES_HERE, finish_table, next_round, open_cup, start

ROWS = "rows => rows.map(row => [...row.cells].map(cell => cell.textContent.trim().replace(/\\s+/g, ' ')))"


@pytest.fixture
def site_games() -> Mapping[str, Any]:
    """High Card (a short game) among the games, for the tournaments' tables."""
    return GAMES_HERE


async def follow(page: Page, base_url: str, t: Tournament) -> None:
    """Open the page and wait for its live stream. (Tests take ``base_url`` before
    ``page``: the page closes first, so the server never cuts a stream under it.)"""
    await page.goto(base_url + address(t))
    await expect(page.locator("#live-status")).to_have_text("Live: updates as the game goes.")
    await page.evaluate("window.notReloaded = true")


async def standings_shown(page: Page) -> list[list[str]]:
    return list(await page.eval_on_selector_all("#standings tbody tr", ROWS))


async def play_round_watching(page: Page, site: Site, t: Tournament) -> Tournament:
    """Finish the round's tables one by one; each shows as finished on the open page."""
    assert t.current is not None
    for table in t.current.tables:
        assert table.table_id is not None
        row = page.locator(f'#round-{t.current.number} tr[data-table="{table.table_id}"]')
        await expect(row).to_contain_text("In play")
        t = await finish_table(site, table.table_id)
        await expect(row).to_contain_text("Finished")
    title = "Final standings" if t.phase is Phase.FINISHED else f"Standings after round {t.current.number}"
    await expect(page.locator("#standings-heading")).to_have_text(title)
    assert await standings_shown(page) == expected_standings(t)
    return t


async def test_a_swiss_followed_round_by_round_to_its_end(
    base_url: str, page: Page, site: Site, screenshot: Shoot
) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 6)).id)
    await follow(page, base_url, t)
    assert await page.inner_text("h1") == "Spring Cup"
    t = await play_round_watching(page, site, t)
    t = await next_round(site, t)
    await expect(page.locator("#round-2")).to_have_attribute("open", "")
    # A round the reader opens stays open through the updates (round 1 is folded once past).
    await expect(page.locator("#round-1")).not_to_have_attribute("open", "")
    await page.locator("#round-1 summary").click()
    while t.phase is Phase.RUNNING:
        t = await next_round(site, await play_round_watching(page, site, t))
    await expect(page.locator("#standings-heading")).to_have_text("Final standings")
    await expect(page.locator("#round-1")).to_have_attribute("open", "")
    assert await standings_shown(page) == expected_standings(t)
    assert await page.evaluate("window.notReloaded") is True, "everything came without a reload"
    await screenshot(page, "tournament-swiss")


async def test_an_elimination_bracket_fills_in_as_its_tables_end(
    base_url: str, page: Page, site: Site, screenshot: Shoot
) -> None:
    t = await start(site, (await open_cup(site, Format.ELIMINATION, 8)).id)
    await follow(page, base_url, t)
    await expect(page.locator("#bracket h3")).to_have_text(["Round 1"])
    while t.phase is Phase.RUNNING:
        t = await play_round_watching(page, site, t)
        t = await next_round(site, t)
    await expect(page.locator("#standings-heading")).to_have_text("Final standings")
    await expect(page.locator("#bracket h3")).to_have_text(["Round 1", "Round 2", "Final"])
    final = t.rounds[-1].tables[0].score
    assert final is not None
    names = {e.user_id: e.name for e in t.entrants}
    won = page.locator("#bracket section:last-child li.through")
    await expect(won).to_have_count(len(final.ranking[0]))
    shown: Any = await won.all_inner_texts()
    assert sorted(s.removesuffix(" won").strip() for s in shown) == sorted(names[u] for u in final.ranking[0])
    assert await page.evaluate("window.notReloaded") is True
    # The bracket's table links are reached from the keyboard.
    for _ in range(10):
        await page.keyboard.press("Tab")
        if await page.evaluate("!!document.activeElement.closest('#bracket')"):
            break
    assert await page.evaluate("document.activeElement.textContent") == "Table 1"
    await screenshot(page, "tournament-bracket")
