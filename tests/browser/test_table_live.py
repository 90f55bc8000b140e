"""A live table page in a real browser: moves saved through the service
appear without a reload, the game's end too; one h1, the picture's alt text,
and screenshots of a game in play and a finished one. Each test asks for the
page after the server, so the page (and its event stream) closes first."""

from __future__ import annotations

import random

from playwright.async_api import Page

from bot.web.site import Site
from tests.browser.conftest import Shoot
from tests.web.conftest import HOME
from tests.web.tables import finished, play, started

GAME = "time-masters"


async def newest_public_line(site: Site, table_id: str) -> str:
    """The first line of the newest public event, as the page writes it (names in)."""
    record = await site.service.get(table_id)
    for entry in reversed(await site.service.store.log(table_id)):
        texts = [str(e["text"]) for e in entry.events if e.get("to") is None and e.get("text")]
        if texts:
            return site.service.text(record, texts[-1]).split("\n")[0]
    raise AssertionError("no public event in the log")


async def shows(page: Page, text: str) -> None:
    await page.wait_for_function(
        "text => document.getElementById('live').innerText.includes(text)", arg=text, timeout=5000
    )


async def test_moves_appear_on_the_live_page_without_a_reload(
    base_url: str, site: Site, page: Page, screenshot: Shoot
) -> None:
    record = await started(site.service, GAME)
    await page.goto(f"{base_url}/g/{HOME}/t/{record.id}")
    assert await page.locator("h1").count() == 1
    assert await page.inner_text("h1") == f"Time Masters — table {record.id}"
    alt = await page.get_attribute("#live img", "alt")
    assert alt is not None and alt.startswith("A picture of the table")
    await page.wait_for_function("document.getElementById('live-status').textContent.startsWith('Live')")
    loaded = await page.evaluate("performance.timeOrigin")
    rng = random.Random(4)
    for _ in range(3):
        before = await page.get_attribute("#live img", "src")
        moved = await play(site.service, record.id, 1, rng)
        await shows(page, await newest_public_line(site, record.id))
        await page.wait_for_function(
            "src => document.querySelector('#live img').getAttribute('src') !== src", arg=before
        )
        assert await page.get_attribute("#live img", "src") == (
            f"/g/{HOME}/t/{record.id}/picture.png?v={moved.version}"
        )
    # Times read in the reader's own zone: the script rewrote every <time> it was given.
    assert "UTC" not in await page.inner_text("#live ol.log")
    await screenshot(page, f"table-{GAME}")
    await finished(site.service, record.id, rng)
    await shows(page, "Game over.")
    await page.wait_for_selector("#live a[href$='/replay']")
    assert await page.evaluate("performance.timeOrigin") == loaded, "the page was never reloaded"
    assert await page.locator("h1").count() == 1


async def test_a_finished_table_links_its_replay(
    base_url: str, site: Site, page: Page, screenshot: Shoot
) -> None:
    record = await started(site.service, "phase", seed=5)
    record = await finished(site.service, record.id, random.Random(6))
    await page.goto(f"{base_url}/g/{HOME}/t/{record.id}")
    link = page.locator("#live a[href$='/replay']")
    assert await link.inner_text() == "Replay the whole game"
    assert await page.get_attribute("#live img", "alt") is not None
    await screenshot(page, "table-phase-finished")


async def test_a_keyboard_reader_keeps_their_place_when_the_table_moves(
    base_url: str, page: Page, site: Site
) -> None:
    record = await started(site.service, GAME)
    await page.goto(f"{base_url}/g/{HOME}/t/{record.id}")
    await page.wait_for_function("document.getElementById('live-status').textContent.startsWith('Live')")
    await page.evaluate("window.updates = 0; document.addEventListener('gametable:updated', () => updates++)")
    await page.focus("#live ol.log")
    await play(site.service, record.id, 1, random.Random(5))
    await page.wait_for_function("() => window.updates > 0", timeout=5000)
    # The play-by-play was drawn again, and the focus is on the new one.
    assert await page.evaluate("document.activeElement.matches('#live ol.log')")
